// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The signature policy end to end: with the default "optional", a manifest
 * whose manifest.ini.sig was deleted is refused as soon as a trusted key
 * is installed (and accepted as unsigned only where none is), and `touchfw
 * db check` loads the database exactly as a run does -- the settings'
 * directory, keys and policy -- so it says what the agent will say.
 */
#include "e2e.h"

static struct e2e E;

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

static void start(void)
{
	char *b = e2e_board("touchfw,emul-demo", "mxt224e", "no-image", "1.0.AA", "driver",
			    NULL);

	assert_non_null(b);
	e2e_start(&E, b);
	free(b);
}

/* Append a line to the private manifest and delete its signature. */
static void tamper_and_unsign(void)
{
	char path[400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/manifest.ini", E.db);
	f = fopen(path, "a");
	assert_non_null(f);
	fputs("; changed after signing\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(path, sizeof(path), "%s/manifest.ini.sig", E.db);
	assert_int_equal(unlink(path), 0);
}

/* Point keys_dir at @dir (the settings otherwise as e2e_settings()). */
static void use_keys_dir(const char *dir, const char *extra)
{
	char *text = NULL, *at, want[400];
	size_t len;

	e2e_settings(&E, extra);
	assert_int_equal(tf_read_file(E.conf, 65536, &text, &len), 0);
	snprintf(want, sizeof(want), "keys_dir = %s/keys\n", E.build);
	at = strstr(text, want);
	assert_non_null(at);
	{
		char *out = NULL;

		assert_true(asprintf(&out, "%.*skeys_dir = %s\n%s", (int)(at - text), text, dir,
				     at + strlen(want)) > 0);
		e2e_write(E.conf, out);
		free(out);
	}
	free(text);
}

static void test_deleted_signature_is_refused_while_a_key_is_trusted(void **state)
{
	(void)state;
	start();
	e2e_private_db(&E);
	tamper_and_unsign();
	/* the default policy, "optional"; the demo key is installed */
	e2e_expect(&E, 6, "run", "1-004a");
	e2e_said(&E, "manifest.ini.sig: missing, and signatures are required while a "
		     "trusted key is installed");
	e2e_said(&E, "build-demo.pub");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
	/* db check says the same, loading it as the run did */
	e2e_expect(&E, 6, "db", "check");
	e2e_said(&E, "missing, and signatures are required while a trusted key is installed");
}

static void test_unsigned_database_is_accepted_where_no_key_is_installed(void **state)
{
	char nokeys[400];

	(void)state;
	start();
	e2e_private_db(&E);
	tamper_and_unsign();
	snprintf(nokeys, sizeof(nokeys), "%s/nokeys", E.dir);
	assert_int_equal(mkdir(nokeys, 0755), 0);
	use_keys_dir(nokeys, NULL);
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_said(&E, "unsigned");
	e2e_expect(&E, 0, "db", "check");
	assert_non_null(E.out);
	assert_non_null(strstr(E.out, "unsigned"));
}

static void test_db_check_uses_the_settings_like_the_agent(void **state)
{
	(void)state;
	start();
	e2e_private_db(&E);
	tamper_and_unsign();
	e2e_settings(&E, "signatures = off");
	/* The run accepts it (signatures off): db check must agree, and
	 * check the settings' database, not the compiled-in one. */
	e2e_expect(&E, 0, "db", "check");
	assert_non_null(E.out);
	assert_non_null(strstr(E.out, E.db));
	assert_non_null(strstr(E.out, "signature not checked"));
	/* --signatures still overrides. */
	e2e_expect(&E, 6, "db", "check", "--signatures", "required");
	e2e_said(&E, "manifest.ini.sig: missing, and signatures are required");
}

/*
 * Manual mistakes stay manual (issue 26 item 6): a database mistake found
 * by a hand `run` before the chip is touched counted as a device attempt,
 * so after `db sign` the next run was refused, "backing off for 30s"
 * (exit 9), naming neither --force nor forget.  Now it counts nothing;
 * every back-off says how to lift it; --keys naming no directory is an
 * error naming it, never "unsigned; allowed".
 */
static void test_database_mistake_is_no_device_attempt(void **state)
{
	const char *env[] = { "ACTION=bind", "DEVPATH=/devices/platform/emul/i2c-1/1-004a",
			      "SUBSYSTEM=i2c", "DRIVER=atmel_mxt_ts", NULL };
	char key[400], path[400], text[200];

	(void)state;
	start();
	e2e_private_db(&E);
	e2e_settings(&E, "backoff_s = 30");
	tamper_and_unsign();
	e2e_expect(&E, 6, "run", "1-004a");
	snprintf(path, sizeof(path), "%s/state/1-004a.attempts", E.dir);
	if (access(path, F_OK) == 0)
		e2e_fail_with_output(&E, "a database mistake counted as a device attempt");
	/* --keys that names nothing is an error naming it */
	e2e_expect(&E, 7, "db", "check", "--keys", "/nonexistent");
	e2e_said(&E, "--keys /nonexistent: No such file or directory");
	if (E.out && strstr(E.out, "unsigned"))
		e2e_fail_with_output(&E, "db check called it unsigned");
	e2e_expect(&E, 7, "db", "list", "--keys", "/nonexistent");
	e2e_said(&E, "--keys /nonexistent");
	/* the fix, and the next run goes ahead at once */
	snprintf(key, sizeof(key), "%s/keys/build-demo.key", E.build);
	e2e_expect(&E, 0, "db", "sign", "--key", key, "--db", E.db);
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_not_said(&E, "backing off");
	assert_int_equal(e2e_chip(&E).version, 0x21);
	/* a back-off (of a failure on the chip) says how to lift it */
	snprintf(text, sizeof(text), "count=1\nnext_allowed=%llu\nlast_error=frame 3 refused\n",
		 (unsigned long long)time(NULL) + 600);
	e2e_write(path, text);
	e2e_expect(&E, 9, "run", "1-004a");
	e2e_said(&E, "backing off for");
	e2e_said(&E, "'touchfw run --force 1-004a' tries now, 'touchfw forget 1-004a' clears "
		     "the count");
	/* (the last run's own rebind is not an event to act on) */
	snprintf(path, sizeof(path), "%s/state/1-004a.ownbind", E.dir);
	unlink(path);
	assert_int_equal(e2e_touchfw_env(&E, env, "handle-event", NULL), 0);
	e2e_said(&E, "backing off for");
	e2e_said(&E, "'touchfw run --force 1-004a' tries now, 'touchfw forget 1-004a' clears "
		     "the count");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_deleted_signature_is_refused_while_a_key_is_trusted, teardown),
		cmocka_unit_test_teardown(
			test_unsigned_database_is_accepted_where_no_key_is_installed, teardown),
		cmocka_unit_test_teardown(test_db_check_uses_the_settings_like_the_agent,
					  teardown),
		cmocka_unit_test_teardown(test_database_mistake_is_no_device_attempt, teardown),
	};

	return cmocka_run_group_tests_name("e2e_signatures", tests, NULL, NULL);
}
