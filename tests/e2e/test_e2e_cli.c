// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line as a user and a script meet it (issue 26 item 9):
 * `status`/`probe` exit non-zero when a controller is in trouble (and
 * --exit-zero keeps 0), `run /sys/...` is a usage error naming the
 * argument, -v/-q work after the command's name.  Each test runs the real
 * binaries on an emulated maXTouch board.
 */
#include "e2e.h"
#include "exitcode.h"
#include "state.h"

static struct e2e E;

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

/* The emul-demo profile: an mxt224e the driver owns the power of. */
static void start(const char *state, const char *fw)
{
	char *b = e2e_board("touchfw,emul-demo", "mxt224e", state, fw, "driver", NULL);

	assert_non_null(b);
	e2e_start(&E, b);
	free(b);
}

static void path_of(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", E.dir, name);
}

static void out_has(const char *needle)
{
	if (!E.out || !strstr(E.out, needle))
		e2e_fail_with_output(&E, "expected \"%s\" in touchfw's standard output",
				     needle);
}

/* ------------------------------------------------------- status/probe */

/*
 * A chip left in its bootloader used to be reported with exit 0, so a
 * script or a monitoring check could not tell it from a working one.
 */
static void test_probe_and_status_exit_attention_for_a_chip_in_its_bootloader(void **state)
{
	(void)state;
	start("no-image", "1.0.AA");
	e2e_expect(&E, TF_EXIT_ATTENTION, "probe");
	out_has("attention: the chip is in its bootloader");
	e2e_said(&E, "touchfw probe: 1-004a needs attention: the chip is in its bootloader");
	e2e_expect(&E, TF_EXIT_ATTENTION, "status", "1-004a");
	e2e_expect(&E, TF_EXIT_ATTENTION, "status", "--json");
	out_has("\"attention\":\"the chip is in its bootloader\"");
	/* --exit-zero: the report only */
	e2e_expect(&E, TF_EXIT_OK, "probe", "--exit-zero");
	out_has("attention: the chip is in its bootloader");
	e2e_not_said(&E, "needs attention");
	e2e_expect(&E, TF_EXIT_OK, "status", "--exit-zero", "--json", "1-004a");
	/* Updated, nothing is wrong any more. */
	e2e_expect(&E, TF_EXIT_OK, "run", "1-004a");
	e2e_expect(&E, TF_EXIT_OK, "probe");
	e2e_expect(&E, TF_EXIT_OK, "status", "--json");
	out_has("\"attention\":null");
}

/*
 * Failed attempts recorded (the automatic path backing off, or given up)
 * are trouble status shows, and now says so in its exit status; probe does
 * not read the state, so it stays 0 for a working chip.
 */
static void test_status_exits_attention_while_backing_off_or_given_up(void **state)
{
	char path[400];

	(void)state;
	start("app", "2.1.AB");
	e2e_expect(&E, TF_EXIT_OK, "status", "1-004a");
	e2e_expect(&E, TF_EXIT_OK, "run", "1-004a");
	path_of(path, sizeof(path), "state/1-004a.attempts");
	e2e_write(path, "count=1\nnext_allowed=99999999999\nlast_error=verify failed\n");
	e2e_expect(&E, TF_EXIT_ATTENTION, "status", "1-004a");
	out_has("attention: 1 failed attempt recorded, backing off (last: verify failed); "
		"'touchfw run --force 1-004a' tries now, 'touchfw forget 1-004a' clears the "
		"count");
	e2e_said(&E, "1-004a needs attention");
	e2e_expect(&E, TF_EXIT_OK, "probe", "1-004a");
	e2e_write(path, "count=3\nnext_allowed=0\nlast_error=verify failed\n");
	e2e_expect(&E, TF_EXIT_ATTENTION, "status", "--json");
	out_has("\"attention\":\"gave up after 3 failed attempts (last: verify failed); "
		"'touchfw run --force 1-004a' tries again, 'touchfw forget 1-004a' clears the "
		"count\"");
	e2e_expect(&E, TF_EXIT_OK, "status", "--exit-zero", "1-004a");
	out_has("gave-up");
	/* Forgotten: in order again. */
	e2e_expect(&E, TF_EXIT_OK, "forget", "1-004a");
	e2e_expect(&E, TF_EXIT_OK, "status", "1-004a");
}

/* The last recorded run failed: status says so and exits attention. */
static void test_status_exits_attention_after_a_failed_run(void **state)
{
	char path[400];

	(void)state;
	start("app", "2.1.AB");
	e2e_expect(&E, TF_EXIT_OK, "run", "1-004a");
	path_of(path, sizeof(path), "state/1-004a.json");
	e2e_write(path, "{\"version\":1,\"device\":\"1-004a\",\"time\":1,\"exit_code\":12,"
			"\"result\":\"verify-failed\",\"message\":\"no input device\"}\n");
	e2e_expect(&E, TF_EXIT_ATTENTION, "status", "1-004a");
	out_has("attention: the last run failed (exit 12, verify-failed)");
	e2e_expect(&E, TF_EXIT_OK, "probe", "1-004a");
	/* A hand flash refused for its file is no trouble of the chip's. */
	e2e_expect(&E, TF_EXIT_BAD_INPUT, "flash", "--config", "/etc/passwd", "1-004a");
	e2e_expect(&E, TF_EXIT_OK, "status", "1-004a");
}

/* ------------------------------------------------------- DEVICE paths */

/*
 * `run /sys/bus/i2c/devices/1-004a` used to look for a device named after
 * the whole path and report it missing (exit 3): a usage error, naming
 * the argument and what is expected.
 */
static void test_run_given_a_path_is_a_usage_error(void **state)
{
	(void)state;
	start("app", "2.1.AB");
	e2e_expect(&E, TF_EXIT_USAGE, "run", "/sys/bus/i2c/devices/1-004a");
	e2e_said(&E, "touchfw run: DEVICE '/sys/bus/i2c/devices/1-004a' is a path; give the "
		     "kernel's name of the device: 'touchfw run 1-004a'");
	e2e_said(&E, "Usage: touchfw run");
	e2e_expect(&E, TF_EXIT_USAGE, "run", "1-004a;x");
	e2e_said(&E, "DEVICE '1-004a;x' is not a device name");
	e2e_expect(&E, TF_EXIT_USAGE, "flash", "--config", "/dev/null",
		   "/sys/bus/i2c/devices/1-004a");
	e2e_said(&E, "touchfw flash: DEVICE '/sys/bus/i2c/devices/1-004a' is a path");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
	e2e_expect(&E, TF_EXIT_OK, "run", "1-004a");
}

/* ------------------------------------------------------- -v and -q */

/* `touchfw run -v DEV` used to be "bad option '-v'" (exit 2): the global
 * options are taken after the command's name too. */
static void test_verbose_and_quiet_after_the_command(void **state)
{
	(void)state;
	start("app", "2.1.AB");
	e2e_expect(&E, TF_EXIT_OK, "run", "-v", "1-004a");
	e2e_said(&E, "application mode: hardware");
	/* -q before the command, -v after it: the later one wins */
	e2e_expect(&E, TF_EXIT_OK, "-q", "run", "1-004a");
	e2e_not_said(&E, "application mode: hardware");
	e2e_expect(&E, TF_EXIT_OK, "-q", "run", "-v", "1-004a");
	e2e_said(&E, "application mode: hardware");
	e2e_expect(&E, TF_EXIT_OK, "-q", "run", "--verbose", "--json", "1-004a");
	e2e_said(&E, "application mode: hardware");
	out_has("\"exit_code\":0");
	/* -q after the command: errors only */
	e2e_expect(&E, TF_EXIT_OK, "run", "-q", "1-004a");
	e2e_not_said(&E, "application mode: hardware");
	e2e_expect(&E, TF_EXIT_OK, "status", "-v", "1-004a");
	e2e_expect(&E, TF_EXIT_USAGE, "run", "-x", "1-004a");
	e2e_said(&E, "bad option '-x'");
}

/* ------------------------------------------------------- flash --config */

/*
 * `flash --config` of the configuration the chip already runs wrote
 * nothing but said "updated: firmware 2.1.AB -> 2.1.AB": it says the
 * configuration is on the chip already.  --force writes it all the same.
 */
static void test_flash_of_the_config_the_chip_has_says_so(void **state)
{
	char cfg[400];
	unsigned backups;

	(void)state;
	start("app", "2.1.AB");
	e2e_expect(&E, TF_EXIT_OK, "run", "1-004a");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	path_of(cfg, sizeof(cfg), "chip.cfg");
	e2e_expect(&E, TF_EXIT_OK, "chip", "1-004a", "save-config", cfg);
	backups = e2e_chip(&E).stats.backups;
	e2e_expect(&E, TF_EXIT_OK, "flash", "--config", cfg, "1-004a");
	e2e_said(&E, "configuration already on the chip (config CRC 0xE67ACA, firmware "
		     "2.1.AB): nothing written");
	e2e_not_said(&E, "updated:");
	assert_int_equal(e2e_chip(&E).stats.backups, backups);
	e2e_expect(&E, TF_EXIT_OK, "flash", "--json", "--config", cfg, "1-004a");
	out_has("\"message\":\"configuration already on the chip");
	/* --force: staged for the driver all the same */
	e2e_expect(&E, TF_EXIT_OK, "flash", "--force", "--config", cfg, "1-004a");
	e2e_not_said(&E, "already on the chip");
	e2e_said(&E, "updated:");
}

/* ------------------------------------------------------- no device */

/* The names in touchfw's state directory that start with @dev, joined by
 * spaces ("" if none). */
static const char *state_files_of(const char *dev)
{
	static char names[1024];
	char path[400];
	struct dirent *de;
	DIR *d;

	names[0] = '\0';
	path_of(path, sizeof(path), "state");
	d = opendir(path);
	if (!d)
		return names;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, dev, strlen(dev))) {
			strncat(names, de->d_name, sizeof(names) - strlen(names) - 2);
			strcat(names, " ");
		}
	closedir(d);
	return names;
}

/*
 * A run, flash, forget or status for a device that does not exist used to
 * leave its lock file and result record in the state directory (/run):
 * one per typo, forever.  Nothing is left for it now.
 */
static void test_nothing_is_left_in_run_for_a_device_that_does_not_exist(void **state)
{
	(void)state;
	start("app", "2.1.AB");
	e2e_expect(&E, TF_EXIT_OK, "run", "1-004a");
	e2e_expect(&E, TF_EXIT_NO_DEVICE, "run", "1-0077");
	e2e_said(&E, "1-0077");
	e2e_expect(&E, TF_EXIT_NO_DEVICE, "run", "--force", "1-0077");
	e2e_expect(&E, TF_EXIT_NO_DEVICE, "run", "--dry-run", "1-0077");
	e2e_expect(&E, TF_EXIT_NO_DEVICE, "flash", "--config", "/dev/null", "1-0077");
	e2e_expect(&E, TF_EXIT_NO_DEVICE, "status", "1-0077");
	e2e_touchfw(&E, "forget", "1-0077");
	e2e_touchfw(&E, "chip", "1-0077", "info");
	if (*state_files_of("1-0077"))
		fail_msg("left in the state directory for 1-0077: %s",
			 state_files_of("1-0077"));
	/* the device that exists keeps its record */
	assert_true(*state_files_of("1-004a"));
}

/* ------------------------------------------------------- --json */

/* Standard output is one JSON document (python's json reads it) with
 * "version": 1. */
static void out_is_json(void)
{
	char path[400], *cmd = NULL;

	path_of(path, sizeof(path), "out.json");
	e2e_write(path, E.out ? E.out : "");
	assert_true(asprintf(&cmd,
			     "python3 -c 'import json,sys; "
			     "assert json.load(open(sys.argv[1]))[\"version\"] == 1' '%s'",
			     path) > 0);
	if (system(cmd) != 0)
		e2e_fail_with_output(&E, "standard output is not one JSON document");
	free(cmd);
}

/*
 * Commands that write -- forget, chip reset and save-config, db sign and
 * keygen, board init -- had no --json ("bad option '--json'"): each
 * prints one document saying what it did, and one on its errors too.
 */
static void test_json_on_every_command_that_writes(void **state)
{
	char cfg[400], keys[400], key[450], prof[400];

	(void)state;
	start("app", "2.1.AB");
	e2e_expect(&E, TF_EXIT_OK, "run", "1-004a");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	e2e_expect(&E, TF_EXIT_OK, "forget", "--json", "1-004a");
	out_is_json();
	out_has("\"device\":\"1-004a\",\"failed_attempts\":0,\"hardware\":\"129.1\"");
	e2e_expect(&E, TF_EXIT_USAGE, "forget", "--json");
	out_is_json();
	out_has("\"error\":{\"exit_code\":2");

	e2e_expect(&E, TF_EXIT_OK, "chip", "1-004a", "reset", "--json");
	out_is_json();
	out_has("\"reset\":\"command\"");
	path_of(cfg, sizeof(cfg), "saved.cfg");
	e2e_expect(&E, TF_EXIT_OK, "chip", "--json", "1-004a", "save-config", cfg);
	out_is_json();
	out_has("\"config_crc\":\"0xE67ACA\"");
	e2e_expect(&E, TF_EXIT_USAGE, "chip", "--json", "1-004a", "save-config", "-");
	out_is_json();

	e2e_private_db(&E);
	path_of(keys, sizeof(keys), "signing");
	assert_int_equal(mkdir(keys, 0700), 0);
	e2e_expect(&E, TF_EXIT_OK, "db", "keygen", "--json", "--out", keys, "bench-1");
	out_is_json();
	out_has("\"key_id\":\"bench-1\"");
	snprintf(key, sizeof(key), "%s/bench-1.key", keys);
	e2e_expect(&E, TF_EXIT_OK, "db", "sign", "--json", "--key", key, "--db", E.db);
	out_is_json();
	out_has("\"key_id\":\"bench-1\"");
	out_has("manifest.ini.sig\"");

	path_of(prof, sizeof(prof), "board.dts");
	e2e_expect(&E, TF_EXIT_OK, "board", "init", "1-004a", "--out", prof, "--json");
	out_is_json();
	out_has("\"family\":\"mxt\"");
	e2e_expect(&E, TF_EXIT_USAGE, "board", "init", "1-004a", "--json");
	out_is_json();
}

/* ------------------------------------------------------- history */

static unsigned lines_of(const char *text)
{
	unsigned n = 0;

	for (; text && *text; text++)
		n += *text == '\n';
	return n;
}

/*
 * Results lived only in /run (the last one): after a reboot nothing said
 * what had happened.  A bounded history in the persistent directory
 * survives it, and status shows it.
 */
static void test_results_history_survives_a_reboot_and_is_bounded(void **state)
{
	char path[400], cmd[500], *h = NULL;
	FILE *f;

	(void)state;
	start("no-image", "1.0.AA");
	e2e_expect(&E, TF_EXIT_OK, "run", "1-004a");
	e2e_expect(&E, TF_EXIT_OK, "run", "1-004a");
	/* a reboot: /run is empty again */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/state'", E.dir);
	assert_int_equal(system(cmd), 0);
	e2e_expect(&E, TF_EXIT_OK, "status", "1-004a");
	out_has("history: 2 runs kept in ");
	out_has("/persist/history/1-004a.jsonl, the newest last:");
	out_has(" ok: updated: firmware (none) -> 2.1.AB");
	out_has(" ok: up to date (firmware 2.1.AB, config matches)");
	out_has("last run: none recorded");
	e2e_expect(&E, TF_EXIT_OK, "status", "--json", "1-004a");
	out_has("\"history\":[\"{\\\"version\\\":1,\\\"device\\\":\\\"1-004a\\\"");
	/* bounded: 25 old lines, one run later 20 */
	path_of(path, sizeof(path), "persist/history/1-004a.jsonl");
	f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < 25; i++)
		fprintf(f,
			"{\"version\":1,\"device\":\"1-004a\",\"time\":%d,\"exit_code\":0,"
			"\"result\":\"ok\",\"message\":\"old run %d\"}\n",
			1000 + i, i);
	assert_int_equal(fclose(f), 0);
	e2e_expect(&E, TF_EXIT_OK, "run", "1-004a");
	assert_int_equal(tf_read_file(path, 1 << 20, &h, NULL), 0);
	e2e_keep(&E, h);
	assert_int_equal(lines_of(h), TF_HISTORY_KEEP);
	assert_null(strstr(h, "old run 5\""));
	assert_non_null(strstr(h, "old run 6\""));
	assert_non_null(strstr(strrchr(h, '{'), "up to date"));
	/* forget clears what is remembered, not the history */
	e2e_expect(&E, TF_EXIT_OK, "forget", "1-004a");
	e2e_expect(&E, TF_EXIT_OK, "status", "1-004a");
	out_has("history: 20 runs kept");
	/* a dry run records nothing */
	e2e_expect(&E, TF_EXIT_OK, "run", "--dry-run", "1-004a");
	e2e_expect(&E, TF_EXIT_OK, "status", "1-004a");
	out_has("history: 20 runs kept");
}

/* ------------------------------------------------------- board identify */

/*
 * On a machine no profile matches, `board identify` said only "profile:
 * none matches this machine": it names the nearest profile and what
 * differs.
 */
static void test_board_identify_names_the_nearest_profile(void **state)
{
	char *b = e2e_board("touchfw,emul-demo-v2", "mxt224e", "app", "2.1.AB", "driver", NULL);

	(void)state;
	assert_non_null(b);
	e2e_start(&E, b);
	free(b);
	e2e_expect(&E, TF_EXIT_NO_PROFILE, "board", "identify");
	out_has("profile: none matches this machine; nearest profile ");
	out_has("differs from this board's \"touchfw,emul-demo-v2\"");
	e2e_expect(&E, TF_EXIT_NO_PROFILE, "board", "identify", "--json");
	out_is_json();
	out_has("\"profile\":null,\"nearest\":\"nearest profile ");
}

/* ------------------------------------------------------- chip object */

/*
 * `touchfw chip DEV object T7 [--write OFF=VAL...]`: one maXTouch object
 * read and written, the chip identified first, writes only to a chip in
 * application mode and bounds-checked against its object table.
 */
static void test_chip_object_reads_and_writes_one_object(void **state)
{
	unsigned writes;

	(void)state;
	start("app", "2.1.AB");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	e2e_expect(&E, TF_EXIT_OK, "chip", "1-004a", "object", "T7");
	out_has("T7 instance 0 at 0x");
	e2e_expect(&E, TF_EXIT_OK, "chip", "1-004a", "object", "T7", "--json");
	out_is_json();
	out_has("\"object\":\"T7\",\"instance\":0,\"address\":\"0x");
	writes = e2e_chip(&E).stats.config_writes;
	e2e_expect(&E, TF_EXIT_OK, "chip", "1-004a", "object", "T7", "--write", "0=0x21",
		   "--write", "1=7", "--json");
	e2e_said(&E, "T7[0] byte 0: ");
	e2e_said(&E, "-> 0x21");
	e2e_said(&E, "written to the chip's RAM and read back");
	out_has("\"bytes\":[33,7");
	assert_true(e2e_chip(&E).stats.config_writes > writes);
	/* what the chip holds now */
	e2e_expect(&E, TF_EXIT_OK, "chip", "1-004a", "object", "t7", "--json");
	out_has("\"bytes\":[33,7");
	/* bounds, names and objects that are no configuration: nothing sent */
	writes = e2e_chip(&E).stats.config_writes;
	e2e_expect(&E, TF_EXIT_USAGE, "chip", "1-004a", "object", "T7", "--write", "0=1",
		   "--write", "200=1");
	e2e_said(&E, "offset 200 is past its end; nothing written");
	e2e_expect(&E, TF_EXIT_USAGE, "chip", "1-004a", "object", "T7", "--write", "0=256");
	e2e_said(&E, "--write '0=256': give OFFSET=VALUE");
	e2e_expect(&E, TF_EXIT_USAGE, "chip", "1-004a", "object", "T99");
	e2e_said(&E, "the chip has no T99 in its object table");
	e2e_expect(&E, TF_EXIT_USAGE, "chip", "1-004a", "object", "T7", "--instance", "5");
	e2e_said(&E, "T7 has 1 instance (0 to 0), not 5");
	e2e_expect(&E, TF_EXIT_UNSUPPORTED, "chip", "1-004a", "object", "T6", "--write", "0=1");
	e2e_said(&E, "T6 is no configuration object");
	e2e_expect(&E, TF_EXIT_UNSUPPORTED, "chip", "1-004a", "object", "T5");
	e2e_said(&E, "reading it takes a message the driver is owed");
	e2e_expect(&E, TF_EXIT_USAGE, "chip", "1-004a", "object", "X7");
	e2e_said(&E, "'X7' is no object name");
	assert_int_equal(e2e_chip(&E).stats.config_writes, writes);
}

/* A chip in its bootloader has no object table: nothing is written. */
static void test_chip_object_writes_nothing_to_a_chip_in_its_bootloader(void **state)
{
	(void)state;
	start("no-image", "1.0.AA");
	e2e_expect(&E, TF_EXIT_UNSUPPORTED, "chip", "1-004a", "object", "T7", "--write", "0=1");
	e2e_said(&E, "the chip is not running its firmware");
	assert_int_equal(e2e_chip(&E).mode, MXT_MODE_BOOTLOADER);
	assert_int_equal(e2e_chip(&E).stats.config_writes, 0);
}

/* ------------------------------------------------------- demo-elan */

/*
 * make demo-elan flashed the touchpad for about 12 s showing nothing but
 * "100%" at the end (its filter dropped the progress lines): the run's
 * progress is shown as it comes.
 */
static void test_demo_elan_shows_its_progress(void **state)
{
	const char *top = getenv("TOUCHFW_TOP");
	char cmd[1200], path[400], *out = NULL;

	(void)state;
	start("app", "2.1.AB"); /* for its private directory */
	path_of(path, sizeof(path), "demo-elan.out");
	snprintf(cmd, sizeof(cmd), "B='%s' '%s/tests/emul/demo-elan' >'%s' 2>&1", E.build,
		 top && *top ? top : ".", path);
	if (system(cmd) != 0) {
		if (tf_read_file(path, 1 << 20, &out, NULL) == 0)
			fprintf(stderr, "%s", out);
		free(out);
		fail_msg("demo-elan failed");
	}
	assert_int_equal(tf_read_file(path, 1 << 20, &out, NULL), 0);
	e2e_keep(&E, out);
	for (int pct = 10; pct <= 100; pct += 10) {
		char want[80];

		snprintf(want, sizeof(want), "touchfw run: 1-0015: flashing: %3d%% (", pct);
		if (!strstr(out, want))
			fail_msg("demo-elan does not show \"%s\":\n%s", want, out);
	}
}

/* ------------------------------------------------------- spi devices */

/* An mXT1664S on spi1.0 behind mchp_spi_ts, with its profile (as
 * test_e2e_spi_mxt's) in a private boards directory. */
static void start_spi(void)
{
	char dir[280], dts[300], cmd[1000];

	e2e_prepare(&E,
		    "[board]\nname = spi e2e\ncompatible = touchfw,emul-spi-1664s\n"
		    "pacing = fast\n"
		    "[spi 1]\nmax_speed_hz = 20000000\n"
		    "[spi-chip touchscreen]\nbus = 1\nchip_select = 0\nmodel = mxt1664s\n"
		    "driver = mchp_spi_ts\nstate = app\nfw_version = 1.0.AA\n"
		    "spi_mode = 3\nmax_speed_hz = 8000000\n"
		    "[spidev]\nbufsiz = 4096\n",
		    NULL);
	snprintf(dir, sizeof(dir), "%s/boards", E.dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dts, sizeof(dts), "%s/spi.dts", dir);
	e2e_write(dts, "/dts-v1/;\n/ {\n\ttouchfw,profile-version = <1>;\n"
		       "\tmodel = \"touchfw emulated spi board\";\n"
		       "\tboard-compatible = \"touchfw,emul-spi-1664s\";\n"
		       "\tcontrollers {\n\t\t#address-cells = <1>;\n\t\t#size-cells = <0>;\n"
		       "\t\ttouchscreen@0 {\n\t\t\tfamily = \"mxt\";\n\t\t\tbus = \"spi\";\n"
		       "\t\t\tadapter-name = \"emuboard-spi.1\";\n\t\t\treg = <0>;\n"
		       "\t\t\tdriver = \"mchp_spi_ts\";\n\t\t\tpower = \"driver\";\n"
		       "\t\t};\n\t};\n};\n");
	snprintf(cmd, sizeof(cmd), "dtc -q -I dts -O dtb -o '%s/spi.dtb' '%s' && rm '%s'", dir,
		 dts, dts);
	assert_int_equal(system(cmd), 0);
	snprintf(E.boards, sizeof(E.boards), "%s", dir);
	e2e_settings(&E, NULL);
	e2e_go(&E);
}

/*
 * `board identify --live` said "spi controllers are not checked live
 * yet" and `board init spi1.0` "only i2c clients": the live check finds
 * the spi device by its controller and chip select and checks its
 * driver, and board init writes an spi profile board check accepts.
 */
static void test_board_identify_live_and_board_init_for_spi(void **state)
{
	char prof[300], cmd[1400];

	(void)state;
	start_spi();
	e2e_expect(&E, TF_EXIT_OK, "board", "identify", "--live");
	out_has("spi controller emuboard-spi.1");
	out_has("device spi1.0");
	out_has("driver mchp_spi_ts bound");
	out_has("live: 1 controller, 0 problems");
	e2e_expect(&E, TF_EXIT_OK, "board", "identify", "--live", "--json");
	out_is_json();
	out_has("\"problems\":0");
	path_of(prof, sizeof(prof), "init.dts");
	e2e_expect(&E, TF_EXIT_OK, "board", "init", "spi1.0", "--out", prof);
	snprintf(cmd, sizeof(cmd),
		 "grep -q 'bus = \"spi\";' '%s' && grep -q "
		 "'adapter-name = \"emuboard-spi.1\";' '%s' && grep -q 'reg = <0x00>;' '%s'",
		 prof, prof, prof);
	if (system(cmd) != 0)
		fail_msg("board init's spi profile (%s) lacks bus, adapter or reg", prof);
	e2e_expect(&E, TF_EXIT_OK, "board", "check", prof);
}

/*
 * `touchfw chip spi1.0 info` said "only i2c controllers are supported so
 * far": with the driver owning the power it reads the chip through the
 * driver's attributes, as run does; what needs the bus says why not.
 */
static void test_chip_info_for_spi_through_the_driver(void **state)
{
	(void)state;
	start_spi();
	e2e_expect(&E, TF_EXIT_OK, "chip", "spi1.0", "info");
	out_has("device:           spi1.0 (spi bus spi1, emuboard-spi.1)");
	out_has("driver:           mchp_spi_ts (the chip read through its attributes)");
	out_has("mode:             application");
	out_has("firmware:         1.0.AA");
	e2e_expect(&E, TF_EXIT_OK, "chip", "spi1.0", "info", "--json");
	out_is_json();
	out_has("\"mode\":\"application\"");
	e2e_expect(&E, TF_EXIT_UNSUPPORTED, "chip", "spi1.0", "reset");
	e2e_said(&E, "over spi only spidev reaches the chip, which takes the mxt driver off "
		     "the device, and the profile says the driver owns the power");
	assert_int_equal(e2e_spi_inputs(&E, "spi1.0"), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_probe_and_status_exit_attention_for_a_chip_in_its_bootloader,
			teardown),
		cmocka_unit_test_teardown(
			test_status_exits_attention_while_backing_off_or_given_up, teardown),
		cmocka_unit_test_teardown(test_status_exits_attention_after_a_failed_run,
					  teardown),
		cmocka_unit_test_teardown(test_run_given_a_path_is_a_usage_error, teardown),
		cmocka_unit_test_teardown(test_verbose_and_quiet_after_the_command, teardown),
		cmocka_unit_test_teardown(test_flash_of_the_config_the_chip_has_says_so,
					  teardown),
		cmocka_unit_test_teardown(
			test_nothing_is_left_in_run_for_a_device_that_does_not_exist, teardown),
		cmocka_unit_test_teardown(test_json_on_every_command_that_writes, teardown),
		cmocka_unit_test_teardown(test_results_history_survives_a_reboot_and_is_bounded,
					  teardown),
		cmocka_unit_test_teardown(test_board_identify_names_the_nearest_profile,
					  teardown),
		cmocka_unit_test_teardown(test_chip_object_reads_and_writes_one_object,
					  teardown),
		cmocka_unit_test_teardown(
			test_chip_object_writes_nothing_to_a_chip_in_its_bootloader, teardown),
		cmocka_unit_test_teardown(test_demo_elan_shows_its_progress, teardown),
		cmocka_unit_test_teardown(test_board_identify_live_and_board_init_for_spi,
					  teardown),
		cmocka_unit_test_teardown(test_chip_info_for_spi_through_the_driver, teardown),
	};

	e2e_test_filter();
	return cmocka_run_group_tests_name("e2e_cli", tests, NULL, NULL);
}
