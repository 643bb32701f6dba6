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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_deleted_signature_is_refused_while_a_key_is_trusted, teardown),
		cmocka_unit_test_teardown(
			test_unsigned_database_is_accepted_where_no_key_is_installed, teardown),
		cmocka_unit_test_teardown(test_db_check_uses_the_settings_like_the_agent,
					  teardown),
	};

	return cmocka_run_group_tests_name("e2e_signatures", tests, NULL, NULL);
}
