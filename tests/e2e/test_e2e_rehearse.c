// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw board rehearse PROFILE` (issue 26 item 5): an OEM's profile and
 * database tried on an emulated board made from the profile.  These run
 * the built front end on the host, as a user does from the build tree; it
 * starts emuboard itself.  The shipped examples rehearse against the demo
 * database: the emulated ones update and verify, the fictional ones say
 * what they find (nothing in the demo database for those boards; a family
 * on spi the emulator can not build).  A profile that lacks a line the board needs fails as the
 * hardware would; one the emulator can not model is refused naming the
 * node and field; an installed copy refuses, naming the build tree.
 */
#include <glib.h>

#include "e2e.h"
#include "exitcode.h"

static char build[2048], top[2048], dir[256];

static int setup(void **state)
{
	const char *b = getenv("TOUCHFW_BUILD"), *t = getenv("TOUCHFW_TOP");
	char *abs = realpath(b ? b : "build", NULL), *tabs = realpath(t && *t ? t : ".", NULL);

	(void)state;
	if (!abs || !tabs)
		fail_msg("build directory %s: %s", b ? b : "build", strerror(errno));
	snprintf(build, sizeof(build), "%s", abs);
	snprintf(top, sizeof(top), "%s", tabs);
	free(abs);
	free(tabs);
	snprintf(dir, sizeof(dir), "/tmp/touchfw-rehearse-test-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int teardown(void **state)
{
	char cmd[400];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static char out[65536];

/* `touchfw board rehearse` of @profile against the demo database with
 * @opts; its exit status, its stdout and stderr in out. */
static int rehearse(const char *opts, const char *profile)
{
	char cmd[16384];
	FILE *p;
	size_t n;
	int st;

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && env -i PATH=/usr/bin:/bin TMPDIR='%s' timeout 300 '%s/touchfw' "
		 "board rehearse --db '%s/firmware-db' --keys '%s/keys' %s "
		 "'%s' 2>&1",
		 dir, dir, build, build, build, opts, profile);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void expect(int rc, int want, const char *profile)
{
	if (rc != want)
		fail_msg("%s: exit %d, not %d:\n%s", profile, rc, want, out);
}

static void said(const char *needle, const char *profile)
{
	if (!strstr(out, needle))
		fail_msg("%s: no \"%s\" in:\n%s", profile, needle, out);
}

/* A copy of example @name with @from replaced by @to (all of them). */
static char *edited(const char *name, const char *from, const char *to)
{
	static char path[512];
	char src[4400], *text = NULL;
	GString *s;
	gsize len;

	snprintf(src, sizeof(src), "%s/boards/examples/%s.dts", top, name);
	assert_true(g_file_get_contents(src, &text, &len, NULL));
	if (!strstr(text, from))
		fail_msg("%s has no \"%s\"", src, from);
	s = g_string_new(text);
	g_string_replace(s, from, to, 0);
	snprintf(path, sizeof(path), "%s/%s-edited.dts", dir, name);
	assert_true(g_file_set_contents(path, s->str, (gssize)s->len, NULL));
	g_string_free(s, TRUE);
	g_free(text);
	return path;
}

/* Every emulated example: each controller identified, updated from the
 * demo database and verified on the board made from its profile. */
static void test_emulated_examples_rehearse_to_verified_updates(void **state)
{
	static const struct {
		const char *name;
		unsigned controllers;
	} ex[] = {
		{ "emul-demo", 1 },	     { "emul-always-on", 1 },	 { "emul-1664s", 1 },
		{ "emul-gt911", 1 },	     { "emul-gt911-nogpio", 1 }, { "emul-gt1151", 1 },
		{ "emul-silead-tablet", 1 }, { "emul-elants", 1 },	 { "emul-elantp", 1 },
		{ "emul-elantp-iap", 1 },    { "emul-elan-laptop", 2 },
	};

	(void)state;
	for (size_t i = 0; i < TF_ARRAY_SIZE(ex); i++) {
		char path[4400], want[200];
		unsigned n = 0;

		snprintf(path, sizeof(path), "%s/boards/examples/%s.dts", top, ex[i].name);
		expect(rehearse("", path), TF_EXIT_OK, path);
		snprintf(want, sizeof(want), "rehearsal of %s: ok", ex[i].name);
		said(want, path);
		for (const char *p = out; (p = strstr(p, "  verified:   yes")); p++)
			n++;
		if (n != ex[i].controllers)
			fail_msg("%s: %u controllers verified, not %u:\n%s", path, n,
				 ex[i].controllers, out);
		said("  identified: ", path);
		said("  flashed:    by ", path);
	}
}

/* The fictional examples: what stops each is said, with the usual code. */
static void test_fictional_examples_say_what_stops_them(void **state)
{
	char path[4400];

	(void)state;
	/* modelled (ACPI, adapter by name, reset line by name), and the demo
	 * database has nothing for that laptop */
	snprintf(path, sizeof(path), "%s/boards/examples/contoso-book-14.dts", top);
	expect(rehearse("", path), TF_EXIT_NO_FIRMWARE, path);
	said("/controllers/touchscreen@4b (mxt, i2c-ATML0000:00): no-firmware", path);
	said("identified: mxt 129.1 in application mode", path);
	said("pins 'mxt-cb14-fw-3.0.aa', which the firmware database does not have", path);
	/* modelled (adapter by device-tree path, lines 146 and 147 of
	 * tegra-gpio): the chip keeps its firmware, the database has none */
	snprintf(path, sizeof(path), "%s/boards/examples/acme-tablet-7.dts", top);
	expect(rehearse("", path), TF_EXIT_OK, path);
	said("/controllers/touchscreen@4a (mxt, 1-004a): ok", path);
	said("no firmware for hardware 129.1", path);
	said("  flashed:    no", path);
	/* not modelled: the node and the field */
	snprintf(path, sizeof(path), "%s/boards/examples/acme-phone-berlin.dts", top);
	expect(rehearse("", path), TF_EXIT_UNSUPPORTED, path);
	said("acme-phone-berlin.dts: /controllers/touchscreen@0: family: \"berlin\"", path);
}

/*
 * The Silead tablet's profile before it named its power line (power =
 * driver and no line to switch): silead_ts sleeps after power-up only
 * when it has that GPIO, so it reads the chip before it is up and the
 * probe fails, as on the tablet.  The run says the driver did not bind.
 */
static void test_a_profile_without_the_power_line_fails_as_the_tablet_would(void **state)
{
	const char *path = edited("emul-silead-tablet",
				  "reset-gpio-chip = \"emuboard-gpio\";\n"
				  "\t\t\treset-gpio-line = <0>;\n",
				  "");

	(void)state;
	expect(rehearse("", path), TF_EXIT_VERIFY, path);
	said("(silead, i2c-MSSL1680:00): verify-failed", path);
	said("driver silead_ts did not bind", path);
	said("  verified:   no", path);
}

/* Lines the emulated board can not wire: the node and field named. */
static void test_lines_the_emulator_can_not_wire_are_named(void **state)
{
	const char *path;

	(void)state;
	path = edited("emul-demo", "irq-gpio-chip = \"emuboard-gpio\";",
		      "irq-gpio-chip = \"other-gpio\";");
	expect(rehearse("", path), TF_EXIT_UNSUPPORTED, path);
	said("/controllers/touchscreen@4a: irq-gpio-chip: \"other-gpio\": the emulated board has "
	     "one gpiochip, and reset-gpio-chip names it \"emuboard-gpio\"",
	     path);
	said("the emulator can not model this profile", path);
	path = edited("emul-demo", "reset-gpio-line = <0>;", "reset-gpio-line = <300>;");
	expect(rehearse("", path), TF_EXIT_UNSUPPORTED, path);
	said("/controllers/touchscreen@4a: reset-gpio-line: 300: the emulated gpiochip has 256 "
	     "lines",
	     path);
}

/* A part the emulator has no model of, and --hardware for no node. */
static void test_an_unknown_part_is_named(void **state)
{
	char path[4400];

	(void)state;
	snprintf(path, sizeof(path), "%s/boards/examples/emul-demo.dts", top);
	expect(rehearse("--hardware touchscreen@4a=129.9", path), TF_EXIT_UNSUPPORTED, path);
	said("/controllers/touchscreen@4a: hardware: mxt \"129.9\": the emulator models", path);
	expect(rehearse("--hardware nosuchnode=129.1", path), TF_EXIT_UNSUPPORTED, path);
	said("--hardware nosuchnode=129.1: no controller node of that name", path);
}

/* --bootloader: the chip without an application; touchfw flashes it
 * through the bootloader. */
static void test_bootloader_mode(void **state)
{
	char path[4400];

	(void)state;
	snprintf(path, sizeof(path), "%s/boards/examples/emul-demo.dts", top);
	expect(rehearse("--bootloader", path), TF_EXIT_OK, path);
	said("identified: mxt none in bootloader mode", path);
	said("flashed:    by bootloader: firmware none -> 2.1.AB", path);
}

/* A profile with mistakes: board check's findings, exit 15. */
static void test_a_profile_with_mistakes_is_checked_first(void **state)
{
	const char *path;

	(void)state;
	path = edited("emul-demo", "power = \"driver\";", "power = \"on\";");
	expect(rehearse("", path), TF_EXIT_PROFILE_INVALID, path);
	said("/controllers/touchscreen@4a: power \"on\" is not one of", path);
}

/*
 * Relative paths, as README.md and boards/README.md show the command: the
 * database, keys and --keep directory named from the working directory
 * (and a relative TMPDIR) work although the run on the board reads them
 * from settings of its own, elsewhere.
 */
static void test_relative_paths_from_the_working_directory(void **state)
{
	char cmd[16384], conf[512];
	unsigned n_ok = 0;
	FILE *p;
	size_t n;
	int st;

	(void)state;
	snprintf(
		cmd, sizeof(cmd),
		"cd '%s' && mkdir rel rel/tmp && cd rel && cp -a '%s/firmware-db' my-db && "
		"cp -a '%s/keys' my-keys && cp '%s/boards/examples/emul-demo.dts' my-board.dts "
		"&& env -i PATH=/usr/bin:/bin TMPDIR=tmp timeout 300 '%s/touchfw' board "
		"rehearse my-board.dts --db my-db --keys my-keys --keep kept 2>&1 && "
		"env -i PATH=/usr/bin:/bin TMPDIR=tmp timeout 300 '%s/touchfw' board "
		"rehearse --db ./my-db --keys ../rel/my-keys my-board.dts 2>&1",
		dir, build, build, top, build, build);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	st = pclose(p);
	expect(WIFEXITED(st) ? WEXITSTATUS(st) : -1, TF_EXIT_OK, "my-board.dts");
	said("rehearsing my-board.dts on an emulated board (database my-db)", "my-board.dts");
	said("kept: kept (board.board, touchfw.conf, state/)", "my-board.dts");
	said("rehearsing my-board.dts on an emulated board (database ./my-db)", "my-board.dts");
	for (const char *q = out; (q = strstr(q, "rehearsal of my-board: ok")); q++)
		n_ok++;
	if (n_ok != 2)
		fail_msg("%u rehearsals ok, not 2:\n%s", n_ok, out);
	snprintf(conf, sizeof(conf), "%s/rel/kept/touchfw.conf", dir);
	if (access(conf, R_OK) < 0)
		fail_msg("%s: %s", conf, strerror(errno));
}

/* A copy of the agent away from the build tree refuses, naming it. */
static void test_an_installed_copy_names_the_build_tree(void **state)
{
	char cmd[12000];
	FILE *p;
	size_t n;
	int st;

	(void)state;
	snprintf(
		cmd, sizeof(cmd),
		"cp '%s/touchfw-agent' '%s/touchfw-agent' && '%s/touchfw-agent' board rehearse "
		"'%s/boards/examples/emul-demo.dts' 2>&1",
		build, dir, dir, top);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	st = pclose(p);
	expect(WIFEXITED(st) ? WEXITSTATUS(st) : -1, TF_EXIT_UNSUPPORTED, "the copy");
	said("not installed; run ", "the copy");
	said(build, "the copy");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_emulated_examples_rehearse_to_verified_updates),
		cmocka_unit_test(test_fictional_examples_say_what_stops_them),
		cmocka_unit_test(
			test_a_profile_without_the_power_line_fails_as_the_tablet_would),
		cmocka_unit_test(test_lines_the_emulator_can_not_wire_are_named),
		cmocka_unit_test(test_an_unknown_part_is_named),
		cmocka_unit_test(test_bootloader_mode),
		cmocka_unit_test(test_a_profile_with_mistakes_is_checked_first),
		cmocka_unit_test(test_relative_paths_from_the_working_directory),
		cmocka_unit_test(test_an_installed_copy_names_the_build_tree),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
