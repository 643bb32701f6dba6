// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * doc/tablets.md, the tablet owner's guide, run as written on the emulated
 * Silead tablet (issue 26 item 8), so that it can not go stale: every
 * ```sh block of the page, in order, in a bash inside the board (its sysfs
 * and /dev are the emulator's), and the lines of the ```text block after a
 * block found in that block's output, each as a whole (shows()).  A block's tag says which way
 * it belongs to: "common" to both, "copy" (section 4a: the file copied to /lib/firmware is
 * enough) or "touchfw" (section 4b: profile, database, run, and the file installed for a
 * resume's reload); each way runs on a fresh tablet.  What the page takes from a real system is
 * mapped into a private root: /lib/firmware is the board's firmware directory (where the
 * emulated silead_ts's loader looks), /etc/touchfw holds the settings file as installed
 * (doc/touchfw.conf, with the state paths pointed into the private root), and `touchfw` is the
 * built binary with those settings.  The community collection is a directory holding the
 * tablet's file under the page's path.  The chip model judges the end:
 * it runs the tablet's program.
 */
#include "emub-silead.h"
#include "e2e.h"

#include <ctype.h>
#include <regex.h>

#include "exitcode.h"
#include "silead_model.h"

#define DEV "i2c-MSSL1680:00"

static struct e2e E;

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

struct block {
	char lang[16], tag[16];
	char *text;
};

/* The fenced blocks of doc/tablets.md, in order (at most @max). */
static int read_blocks(struct block *b, int max)
{
	const char *top = getenv("TOUCHFW_TOP");
	char path[4096], *doc = NULL, *p, *save = NULL;
	int n = 0;
	FILE *m = NULL;
	char *body = NULL;
	size_t blen = 0;

	snprintf(path, sizeof(path), "%s/doc/tablets.md", top && *top ? top : ".");
	if (tf_read_file(path, 1 << 20, &doc, NULL) < 0)
		fail_msg("can not read %s", path);
	for (p = strtok_r(doc, "\n", &save); p; p = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(p, "```", 3)) {
			if (m) { /* the block's end */
				fclose(m);
				b[n++].text = body;
				m = NULL;
				if (n == max)
					break;
				continue;
			}
			memset(&b[n], 0, sizeof(b[n]));
			sscanf(p + 3, "%15s %15s", b[n].lang, b[n].tag);
			body = NULL;
			blen = 0;
			m = open_memstream(&body, &blen);
			assert_non_null(m);
			continue;
		}
		if (m)
			fprintf(m, "%s\n", p);
	}
	if (m)
		fail_msg("%s: a block is not closed", path);
	free(doc);
	return n;
}

/* @s with every @from replaced by @to (malloc()ed). */
static char *replace(const char *s, const char *from, const char *to)
{
	char *out = NULL;
	size_t len = 0, fl = strlen(from);
	FILE *m = open_memstream(&out, &len);
	const char *q;

	assert_non_null(m);
	while ((q = strstr(s, from))) {
		fwrite(s, 1, (size_t)(q - s), m);
		fputs(to, m);
		s = q + fl;
	}
	fputs(s, m);
	fclose(m);
	return out;
}

/* The page's paths into the private root. */
static char *mapped(const char *text, const char *root)
{
	char to[400], *a, *b;

	snprintf(to, sizeof(to), "%s/lib/firmware", root);
	a = replace(text, "/lib/firmware", to);
	snprintf(to, sizeof(to), "%s/etc/touchfw", root);
	b = replace(a, "/etc/touchfw", to);
	free(a);
	return b;
}

/*
 * Does @out show the page's line @shown?  As a whole: not the start or
 * end of a longer word ("input" is not "input5"), on one line of @out (a
 * log line may say more before and after it).  A word of lower-case
 * letters ending in "N" (inputN, eventN) stands for the kernel's number:
 * that word and digits.
 */
static bool shows(const char *out, const char *shown)
{
	char *re = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&re, &len);
	regex_t rx;
	bool ok;

	assert_non_null(m);
	fputs("(^|[^A-Za-z0-9_])", m);
	for (const char *p = shown; *p; p++) {
		if (*p == 'N' && p > shown && islower((unsigned char)p[-1]) &&
		    !isalnum((unsigned char)p[1]) && p[1] != '_')
			fputs("[0-9]+", m);
		else if (strchr("\\^$.[]|()*+?{}", *p))
			fprintf(m, "\\%c", *p);
		else
			fputc(*p, m);
	}
	fputs("([^A-Za-z0-9_]|$)", m);
	fclose(m);
	if (regcomp(&rx, re, REG_EXTENDED | REG_NEWLINE | REG_NOSUB))
		fail_msg("can not make a pattern of '%s': %s", shown, re);
	ok = regexec(&rx, out, 0, NULL, 0) == 0;
	regfree(&rx);
	free(re);
	return ok;
}

static void sh(const char *cmd)
{
	if (system(cmd) != 0)
		fail_msg("%s failed", cmd);
}

static bool bound(void)
{
	return emub_dev_bound(E.eb, "touchscreen");
}

static bool program_ok(void)
{
	struct silead_model *m;
	bool ok;

	emub_lock(E.eb);
	m = emub_chip_silead(E.eb, "touchscreen");
	assert_non_null(m);
	ok = silead_model_program_ok(m);
	emub_unlock(E.eb);
	return ok;
}

/*
 * The tablet as `make demo-silead` has it (tests/emul/boards/silead-tablet.board),
 * with /lib/firmware the private root's; the root, the installed settings
 * and the collection.  Returns the root.
 */
static const char *start(char *root, size_t size, char *work, size_t wsize)
{
	char *b = NULL, err[512] = "", *cmd = NULL;

	e2e_prepare(&E, "[board]\nname = placeholder\ncompatible = a,b\n[adapter 9]\n", NULL);
	emub_free(E.eb);
	E.eb = NULL;
	snprintf(root, size, "%s/root", E.dir);
	snprintf(work, wsize, "%s/work", E.dir);
	assert_true(
		asprintf(
			&cmd,
			"mkdir -p '%s/lib/firmware' '%s/etc/touchfw/boards' '%s/etc/touchfw/keys' "
			"'%s/state' '%s/persist' '%s/gsl-firmware/firmware/linux/silead' && "
			"chmod 700 '%s/state' && "
			"cp '%s/silead/emul-tablet-1.fw' "
			"'%s/gsl-firmware/firmware/linux/silead/gsl1680-emul-tablet.fw' && "
			"sed -e 's|^#state_dir = .*|state_dir = %s/state|' "
			"-e 's|^#persist_dir = .*|persist_dir = %s/persist|' "
			"-e 's|^#keys_dir = .*|keys_dir = %s/etc/touchfw/keys|' "
			"-e 's|^#boards_dirs = .*|boards_dirs = %s/etc/touchfw/boards|' "
			"-e 's|^#firmware_dirs = .*|firmware_dirs = %s/lib/firmware|' "
			"-e 's|^#cmdline = .*|cmdline = %s/cmdline|' "
			"-e 's|^#handoff = .*|handoff = fork|' "
			"'%s/doc/touchfw.conf' >'%s/etc/touchfw/touchfw.conf' && "
			"echo 'ro quiet' >'%s/cmdline'",
			root, root, root, root, root, work, root, E.db, work, root, root, root,
			root, root, root, getenv("TOUCHFW_TOP") ? getenv("TOUCHFW_TOP") : ".",
			root, root) > 0);
	sh(cmd);
	free(cmd);
	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw emulated Silead tablet\n"
			     "dmi.sys_vendor = touchfw\n"
			     "dmi.product_name = Emulated Silead Tablet\n"
			     "dmi.board_name = EMUL-GSL1680\n"
			     "pacing = fast\n"
			     "firmware_dirs = %s/lib/firmware\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "speed = 400000\n"
			     "[chip touchscreen]\n"
			     "adapter = 1\n"
			     "address = 0x40\n"
			     "model = silead\n"
			     "acpi_id = MSSL1680\n"
			     "driver = silead_ts\n"
			     "power = driver\n"
			     "power_gpio = 0\n"
			     "chg_gpio = 1\n"
			     "silead.firmware_seed = 1/4\n"
			     "silead.firmware_name = gsl1680-emul-tablet.fw\n"
			     "touchscreen.size_x = 1960\n"
			     "touchscreen.size_y = 1500\n"
			     "touchscreen.swapped_x_y = true\n"
			     "[gpiochip]\n"
			     "label = emuboard-gpio\n"
			     "lines = 8\n"
			     "line.0 = TS_PWR\n"
			     "line.1 = TS_INT\n",
			     root) > 0);
	if (emub_new_from_string(b, E.dir, &E.eb, err, sizeof(err)) < 0)
		fail_msg("board: %s", err);
	free(b);
	if (getenv("E2E_LOG"))
		emub_set_log(E.eb, stderr);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	return root;
}

/* Run the page's blocks of @way (and "common") on a fresh tablet;
 * returns how many sh blocks ran. */
static int follow(const char *way)
{
	struct block b[64];
	char root[300], work[300], prelude[2000];
	int n, i, ran = 0;

	start(root, sizeof(root), work, sizeof(work));
	n = read_blocks(b, 64);
	snprintf(prelude, sizeof(prelude),
		 "exec 2>&1; set -e; cd '%s'; "
		 "touchfw() { '%s/touchfw' --config '%s/etc/touchfw/touchfw.conf' \"$@\"; }; "
		 "[ ! -f .vars ] || . ./.vars\n",
		 work, E.build, root);
	for (i = 0; i < n; i++) {
		char *body, *script = NULL, *out = NULL, *err = NULL;
		const char *argv[] = { "/bin/bash", "-c", NULL, NULL };
		const char *env[] = { "TOUCHFW_LOG_LEVEL=info", NULL };
		int rc;

		if (strcmp(b[i].lang, "sh") ||
		    (strcmp(b[i].tag, "common") && strcmp(b[i].tag, way)))
			continue;
		body = mapped(b[i].text, root);
		assert_true(asprintf(&script,
				     "%s%s\n( set -o posix; set ) | "
				     "grep -E '^[a-z_][a-z0-9_]*=' >.vars || true\n",
				     prelude, body) > 0);
		argv[2] = script;
		rc = emub_run(E.eb, argv, env, E2E_TIMEOUT_MS, &out, &err);
		if (getenv("E2E_VERBOSE"))
			fprintf(stderr, "--- block %d (%s):\n%s--- output (exit %d):\n%s", i,
				b[i].tag, body, rc, out ? out : "");
		if (rc != 0)
			fail_msg("doc/tablets.md's block %d (%s) exits %d:\n%s\noutput:\n%s", i,
				 b[i].tag, rc, body, out ? out : "");
		/* the emulated kernel's uevents and probes of what the block did */
		assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
		ran++;
		if (i + 1 < n && !strcmp(b[i + 1].lang, "text")) {
			char *want = mapped(b[i + 1].text, root), *line, *save = NULL;

			for (line = strtok_r(want, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				if (!shows(out ? out : "", line))
					fail_msg(
						"doc/tablets.md shows '%s' after block %d (%s); "
						"the block printed:\n%s",
						line, i, b[i].tag, out ? out : "");
			free(want);
		}
		free(body);
		free(script);
		free(out);
		free(err);
	}
	for (i = 0; i < n; i++)
		free(b[i].text);
	return ran;
}

/* Section 4a: the file copied where the loader looks, the driver bound. */
static void test_copying_the_file_is_enough(void **state)
{
	(void)state;
	assert_int_equal(follow("copy"), 4);
	assert_true(bound());
	assert_true(program_ok());
}

/* Section 4b: a profile, a database with the collection's file, touchfw
 * run verifies and installs the file for a resume's reload (no step by
 * hand), which the driver loads again without touchfw. */
static void test_touchfw_and_a_reload_without_it(void **state)
{
	char staged[400];

	(void)state;
	assert_int_equal(follow("touchfw"), 8);
	assert_true(bound());
	assert_true(program_ok());
	/* the reload found the installed file: touchfw's staging is gone */
	snprintf(staged, sizeof(staged), "%s/root/state/firmware/silead/gsl1680-emul-tablet.fw",
		 E.dir);
	assert_int_equal(access(staged, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_copying_the_file_is_enough, teardown),
		cmocka_unit_test_teardown(test_touchfw_and_a_reload_without_it, teardown),
	};

	e2e_test_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
