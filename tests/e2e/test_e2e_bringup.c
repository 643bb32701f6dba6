// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bring-up as an OEM engineer meets it (issue 13, defects 3-6): manual
 * mistakes never count against the automatic path, `forget` clears what
 * touchfw remembers and `status` shows it; after a failure the chip is
 * detected again before touchfw reports, and an image the chip refuses at
 * its first frame is named as one for another chip; remembered hardware
 * never outranks the chip; the database's manifest must agree with what
 * its blobs say of themselves.  Each test runs the real binaries on an
 * emulated board.
 */
#include "e2e.h"

static struct e2e E;

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

/* The emul-demo profile (the driver owns the power), or with @power
 * "always-on" the emul-always-on one (touchfw may unbind and flash). */
static void start(const char *model, const char *state, const char *fw, const char *power)
{
	char *b = e2e_board(strcmp(power, "always-on") ? "touchfw,emul-demo"
						       : "touchfw,emul-always-on",
			    model, state, fw, power, NULL);

	assert_non_null(b);
	e2e_start(&E, b);
	free(b);
}

/* Replace the running board by @model at the same address, keeping
 * touchfw's state and persistent directories (a chip swapped on the
 * bench). */
static void swap_chip(const char *model, const char *state, const char *fw)
{
	char *b = e2e_board("touchfw,emul-demo", model, state, fw, "driver", NULL);
	char err[512] = "";

	assert_non_null(b);
	emub_free(E.eb);
	E.eb = NULL;
	if (emub_new_from_string(b, E.dir, &E.eb, err, sizeof(err)) < 0)
		fail_msg("board: %s", err);
	free(b);
	e2e_go(&E);
}

static void path_of(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", E.dir, name);
}

static bool exists_in(const char *name)
{
	char path[400];

	path_of(path, sizeof(path), name);
	return access(path, F_OK) == 0;
}

/* The mXT1664S image of the demo database: for another chip here. */
static void other_chip_image(char *buf, size_t size)
{
	snprintf(buf, size, "%s/firmware-db/mxt1664s/fw-3.0.10.enc", E.build);
}

/* ------------------------------------------------------------ defect 3 */

/*
 * Three typos with `flash` (an image for another chip) used to count as
 * failed attempts of the automatic path, so `run` then refused the device
 * ("gave up after 3 failed attempts") until --force or a reboot.
 */
static void test_manual_flash_mistakes_do_not_poison_run(void **state)
{
	char other[400];
	int i;

	(void)state;
	start("mxt224e", "no-image", "1.0.AA", "driver");
	other_chip_image(other, sizeof(other));
	for (i = 0; i < 4; i++) {
		e2e_expect(&E, 11, "flash", "--firmware", other, "1-004a");
		e2e_not_said(&E, "attempt");
	}
	assert_false(exists_in("state/1-004a.attempts"));
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_not_said(&E, "gave up");
	assert_int_equal(e2e_chip(&E).version, 0x21);
}

/*
 * What touchfw remembers of a device -- failed attempts, blobs that failed
 * there, the hardware last seen -- is shown by status with since when, and
 * `forget` clears all of it.
 */
static void test_forget_clears_what_status_shows(void **state)
{
	char path[400];

	(void)state;
	start("mxt224e", "app", "1.0.AA", "driver");
	/* A run learns the hardware; three failed runs leave their marks. */
	e2e_expect(&E, 0, "run", "1-004a");
	assert_true(exists_in("persist/1-004a.hw"));
	path_of(path, sizeof(path), "state/1-004a.attempts");
	e2e_write(path, "count=3\nnext_allowed=0\nlast_error=verify failed\n");
	path_of(path, sizeof(path), "persist/failed");
	assert_int_equal(mkdir(path, 0700), 0);
	path_of(path, sizeof(path),
		"persist/failed/1-004a."
		"9108969ac5728a01ed4f7f562ed9023fb32ca0823c8772e52290891718f7fe7e");
	e2e_write(path, "failures=2\nlast_error=frame 1 refused\n");
	e2e_expect(&E, 9, "run", "1-004a");
	e2e_said(&E, "gave up after 3 failed attempts");
	e2e_expect(&E, 20, "status", "1-004a"); /* attention: given up */
	if (!strstr(E.out, "remembered hardware: 129.1, learnt from the chip in application "
			   "mode on ") ||
	    !strstr(E.out, "attempts: 3 failed (last: verify failed)") ||
	    !strstr(E.out, "failed blob: mxt224e-fw-2.1.AB failed here 2 times") ||
	    !strstr(E.out, "'touchfw forget 1-004a' clears"))
		fail_msg("status does not show what is remembered:\n%s", E.out);
	/* by its manifest id, never a hash prefix (issue 26 item 9) */
	if (strstr(E.out, "9108969ac5728a01"))
		fail_msg("status names the failed blob by its hash:\n%s", E.out);
	e2e_expect(&E, 20, "status", "--json", "1-004a");
	if (!strstr(E.out, "\"failed_blob_records\":[{\"id\":\"mxt224e-fw-2.1.AB\",\"sha256\":"
			   "\"9108969ac5728a01"))
		fail_msg("status --json:\n%s", E.out);
	e2e_expect(&E, 0, "forget", "1-004a");
	e2e_said(&E, "forgot 3 failed attempts, the remembered hardware 129.1");
	e2e_said(&E, "1 failed-blob record");
	assert_false(
		exists_in("persist/failed/1-004a."
			  "9108969ac5728a01ed4f7f562ed9023fb32ca0823c8772e52290891718f7fe7e"));
	assert_false(exists_in("state/1-004a.attempts"));
	assert_false(exists_in("persist/1-004a.hw"));
	e2e_expect(&E, 0, "status", "1-004a");
	if (!strstr(E.out, "remembered: nothing"))
		fail_msg("status after forget:\n%s", E.out);
	/* Forgetting twice is not an error; a bad name is. */
	e2e_expect(&E, 0, "forget", "1-004a");
	e2e_said(&E, "nothing remembered");
	e2e_expect(&E, 2, "forget", "../etc");
	e2e_expect(&E, 0, "run", "1-004a");
}

/* ------------------------------------------------------------ defect 4 */

/*
 * An image for another chip, flashed by hand on an always-on board: the
 * chip's bootloader refuses the first frame, touchfw binds the driver
 * again, and the driver's probe resets the chip back into its (intact)
 * application.  touchfw used to report "the chip is in its bootloader"
 * with exit 11; it must look again, and name the image's mistake.
 */
static void test_image_for_another_chip_is_named_and_the_chip_seen_again(void **state)
{
	char other[400];
	struct e2e_chip c;

	(void)state;
	start("mxt224e", "app", "1.0.AA", "always-on");
	other_chip_image(other, sizeof(other));
	e2e_expect(&E, 7, "flash", "--firmware", other, "1-004a");
	c = e2e_chip(&E);
	assert_int_equal(c.mode, MXT_MODE_APP);
	assert_int_equal(c.version, 0x10);
	e2e_said(&E, "refused the first frame: the image is for another chip");
	e2e_said(&E, "the chip is back in application mode (firmware 1.0.AA)");
	e2e_not_said(&E, "the chip is in its bootloader");
	e2e_names_device_once(E.err, "1-004a");
	/* In its bootloader without an application, the same refusal leaves
	 * it there, and says so. */
	e2e_stop(&E);
	start("mxt224e", "no-image", "1.0.AA", "driver");
	other_chip_image(other, sizeof(other));
	e2e_expect(&E, 11, "flash", "--firmware", other, "1-004a");
	e2e_said(&E, "refused the first frame: the image is for another chip");
	e2e_said(&E, "the chip is in its bootloader");
	/* Said once: the family says what failed, the flow where the chip is. */
	e2e_not_said(&E, "stays in its bootloader");
	e2e_names_device_once(E.err, "1-004a");
	assert_int_equal(e2e_chip(&E).mode, MXT_MODE_BOOTLOADER);
}

/*
 * Issue 14 item 3: lower layers say what went wrong, the log call says
 * who.  The driver's update_fw path used to log "driver update failed:
 * 1-004a: no new input device ..." under a line already naming 1-004a.
 */
static void test_lower_layers_do_not_name_the_device(void **state)
{
	char other[400];

	(void)state;
	start("mxt224e", "app", "1.0.AA", "driver");
	other_chip_image(other, sizeof(other));
	assert_int_not_equal(e2e_touchfw(&E, "flash", "--firmware", other, "1-004a"), 0);
	e2e_said(&E, "driver update failed: ");
	e2e_names_device_once(E.err, "1-004a");
	/* Nor an empty warning. */
	e2e_not_said(&E, "1-004a: \n");
}

/*
 * On a terminal, flash draws a progress bar that is redrawn in place.  A
 * failure mid-way used to print its log line right after the half-drawn
 * bar ("... 2/194 framestouchfw: 1-004a: ..."); the next line must end the
 * bar first.  script(1) gives touchfw a terminal.
 */
static void test_progress_bar_is_ended_before_the_next_line(void **state)
{
	char fw[400], *cmd = NULL, *b, *at;
	const char *argv[6], *env[] = { "TOUCHFW_LOG_LEVEL=info", NULL };
	char *out = NULL, *err = NULL;
	int rc;

	(void)state;
	b = e2e_board("touchfw,emul-demo", "mxt224e", "no-image", "1.0.AA", "driver",
		      "fault.crc_fail_frame = 3\nfault.crc_fail_times = 100\n");
	assert_non_null(b);
	e2e_start(&E, b);
	free(b);
	snprintf(fw, sizeof(fw), "%s/firmware-db/mxt224e/fw-2.1.AB.fw", E.build);
	assert_true(asprintf(&cmd, "'%s/touchfw' --config '%s' flash --firmware '%s' 1-004a",
			     E.build, E.conf, fw) > 0);
	argv[0] = "script";
	argv[1] = "-qec";
	argv[2] = cmd;
	argv[3] = "/dev/null";
	argv[4] = NULL;
	rc = emub_run(E.eb, argv, env, E2E_TIMEOUT_MS, &out, &err);
	free(cmd);
	assert_int_equal(rc, 11);
	/* The bar was drawn on the terminal, then the failure, on a line of
	 * its own. */
	at = out ? strstr(out, "2/194 frames") : NULL;
	if (!at)
		fail_msg("no progress bar on the terminal:\n%s%s", out ? out : "",
			 err ? err : "");
	at += strlen("2/194 frames");
	if (*at != '\n' && !(at[0] == '\r' && at[1] == '\n'))
		fail_msg("the line after the bar does not start on a line of its own:\n%s",
			 out);
	free(out);
	free(err);
}

/* ------------------------------------------------------------ defect 5 */

/*
 * An mXT1664S seen at 1-004a is remembered (hardware 162.6); then an
 * mXT224E without firmware sits at the same address.  Its bootloader can
 * not say which hardware it is; the remembered id used to refuse it ("no
 * mxt firmware for hardware 162.6").  The board's firmware decides, the
 * hint is named with when it was learnt, and the chip is flashed.
 */
static void test_swapped_chip_is_not_refused_for_remembered_hardware(void **state)
{
	(void)state;
	start("mxt1664s", "app", "3.0.10", "driver");
	e2e_expect(&E, 0, "run", "1-004a");
	assert_true(exists_in("persist/1-004a.hw"));
	swap_chip("mxt224e", "no-image", "1.0.AA");
	e2e_expect(&E, 20, "status", "1-004a"); /* attention: in its bootloader */
	if (!strstr(E.out, "remembered hardware: 162.6, learnt from the chip in application "
			   "mode on "))
		fail_msg("status does not show the remembered hardware:\n%s", E.out);
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_said(&E, "remembered hardware 162.6 (learnt on ");
	e2e_said(&E, "has no firmware for this board: a swapped chip? choosing by the board");
	assert_int_equal(e2e_chip(&E).version, 0x21);
	/* The chip now reports its own hardware, which replaces the hint. */
	e2e_expect(&E, 0, "status", "1-004a");
	if (!strstr(E.out, "remembered hardware: 129.1"))
		fail_msg("status after the update:\n%s", E.out);
}

/* ------------------------------------------------------------ defect 6 */

/* Replace @from by @to in the private manifest and sign it again with the
 * build's key, as an OEM's release tooling would. */
static void edit_manifest(const char *from, const char *to)
{
	char path[400], *text = NULL, *at, *out = NULL, cmd[1200];
	size_t len;

	snprintf(path, sizeof(path), "%s/manifest.ini", E.db);
	assert_int_equal(tf_read_file(path, 1 << 20, &text, &len), 0);
	at = strstr(text, from);
	assert_non_null(at);
	assert_true(asprintf(&out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)) >
		    0);
	e2e_write(path, out);
	free(out);
	free(text);
	snprintf(cmd, sizeof(cmd),
		 "'%s/touchfw-agent' db sign --key '%s/keys/build-demo.key' --db '%s' "
		 ">/dev/null",
		 E.build, E.build, E.db);
	assert_int_equal(system(cmd), 0);
}

static void test_db_check_compares_the_manifest_with_the_blob_headers(void **state)
{
	static const struct {
		const char *from, *to, *said;
	} lies[] = {
		{ "config_crc = 0xE67ACA", "config_crc = 0xE67ACB",
		  "config_crc: the manifest says 0xE67ACB, the blob's header 0xE67ACA" },
		{ "info_crc = 0x70F330", "info_crc = 0x70F331",
		  "info_crc: the manifest says 0x70F331, the blob's header 0x70F330" },
		{ "for_version = 2.1.AB\nversion = demo-r1\nfile = mxt224e",
		  "for_version = 2.1.AC\nversion = demo-r1\nfile = mxt224e",
		  "for_version: the manifest says 2.1.AC, the blob's header 2.1.AB" },
		{ "hardware = 129.1\nfor_version", "hardware = 129.2\nfor_version",
		  "hardware: the manifest says 129.2, the blob's header 129.1" },
	};
	char arg[400];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lies) / sizeof(lies[0]); i++) {
		start("mxt224e", "app", "2.1.AB", "driver");
		e2e_private_db(&E);
		edit_manifest(lies[i].from, lies[i].to);
		snprintf(arg, sizeof(arg), "%s", E.db);
		e2e_expect(&E, 6, "db", "check", "--db", arg);
		/* db check reports on stdout, one line per blob. */
		if (!E.out || !strstr(E.out, lies[i].said) ||
		    !strstr(E.out, "[mxt224e-cfg-2.1.AB]"))
			fail_msg("expected \"%s\" in db check's report:\n%s", lies[i].said,
				 E.out ? E.out : "(none)");
		e2e_stop(&E);
	}
}

/* At run time the same contradiction is a database error, found before
 * the chip is written. */
static void test_run_refuses_a_blob_that_contradicts_its_manifest(void **state)
{
	struct e2e_chip before;

	(void)state;
	start("mxt224e", "app", "2.1.AB", "driver");
	e2e_private_db(&E);
	edit_manifest("config_crc = 0xE67ACA", "config_crc = 0xE67ACB");
	before = e2e_chip(&E);
	e2e_expect(&E, 6, "run", "1-004a");
	e2e_said(&E, "config_crc: the manifest says 0xE67ACB, the blob's header 0xE67ACA");
	assert_int_equal(e2e_chip(&E).nvm_crc, before.nvm_crc);
	assert_int_equal(e2e_chip(&E).stats.config_writes, before.stats.config_writes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_manual_flash_mistakes_do_not_poison_run,
					  teardown),
		cmocka_unit_test_teardown(test_forget_clears_what_status_shows, teardown),
		cmocka_unit_test_teardown(
			test_image_for_another_chip_is_named_and_the_chip_seen_again, teardown),
		cmocka_unit_test_teardown(test_lower_layers_do_not_name_the_device, teardown),
		cmocka_unit_test_teardown(test_progress_bar_is_ended_before_the_next_line,
					  teardown),
		cmocka_unit_test_teardown(
			test_swapped_chip_is_not_refused_for_remembered_hardware, teardown),
		cmocka_unit_test_teardown(
			test_db_check_compares_the_manifest_with_the_blob_headers, teardown),
		cmocka_unit_test_teardown(test_run_refuses_a_blob_that_contradicts_its_manifest,
					  teardown),
	};

	return cmocka_run_group_tests_name("e2e_bringup", tests, NULL, NULL);
}
