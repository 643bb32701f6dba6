// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end on an emulated Goodix GT911 / GT1151: the real touchfw
 * binaries inside an emulated board, judged by the Goodix chip model and
 * the emulated Goodix-TS driver (tests/emul/host/drv_goodix.c) -- the
 * configuration staged under the name the driver requests, written over
 * the bus with the driver bound, written after an unbind on an always-on
 * board, and every fault: a chip that NAKs, a chip that refuses the
 * configuration, a driver that registers no input device, a driver that
 * comes back with the old axis ranges, a bad blob refused before the chip
 * is touched, and an older configuration never written without --force.
 */
#include "emub-goodix.h"
#include "e2e.h"

#include "exitcode.h"
#include "goodix_model.h"

#define STALE_VERSION 0x41 /* the boards' stored configuration */
#define DB_VERSION 72	   /* gt911-cfg-72 in the demo database */

static struct e2e E;

/* touchfw's exit code, with its whole output when it is not @want (cmocka
 * cuts long failure messages short). */
#define expect_rc(want, ...)                                                              \
	do {                                                                              \
		int rc_ = e2e_touchfw(&E, __VA_ARGS__);                                   \
		if (rc_ != (want))                                                        \
			fprintf(stderr, "exit %d, expected %d; touchfw said:\n%s\n", rc_, \
				(int)(want), E.err ? E.err : "");                         \
		assert_int_equal(rc_, (want));                                            \
	} while (0)

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

/* A GT911 at 0x5d, stale config (version @version, 800x480); with
 * @gpios its INT and RST are GPIOs (the driver loads config files). */
static void start_gt911(const char *compatible, bool gpios, int version, const char *extra)
{
	char *b = NULL;

	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e GT911 board\n"
			     "compatible = %s\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "speed = 400000\n"
			     "[chip touchscreen]\n"
			     "adapter = 1\n"
			     "address = 0x5d\n"
			     "model = goodix\n"
			     "compatible = goodix,gt911\n"
			     "driver = Goodix-TS\n"
			     "goodix.id = 911\n"
			     "goodix.fw_version = 0x1060\n"
			     "goodix.config_version = %d\n"
			     "goodix.resolution = 800x480\n"
			     "goodix.touches = 5\n"
			     "power = driver\n"
			     "%s"
			     "%s"
			     "[gpiochip]\n"
			     "label = emuboard-gpio\n"
			     "lines = 8\n"
			     "line.0 = TS_RESET\n"
			     "line.1 = TS_INT\n",
			     compatible, version, gpios ? "reset_gpio = 0\nint_gpio = 1\n" : "",
			     extra ? extra : "") > 0);
	e2e_start(&E, b);
	free(b);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
}

static void start_gt1151(void)
{
	char path[600], *b = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/../tests/emul/boards/goodix-gt1151.board",
		 getenv("TOUCHFW_BUILD") ? getenv("TOUCHFW_BUILD") : "build");
	if (tf_read_file(path, 1 << 16, &b, &len) < 0) {
		snprintf(path, sizeof(path), "%s/tests/emul/boards/goodix-gt1151.board",
			 getenv("TOUCHFW_TOP") ? getenv("TOUCHFW_TOP") : ".");
		assert_int_equal(tf_read_file(path, 1 << 16, &b, &len), 0);
	}
	e2e_start(&E, b);
	free(b);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
}

struct chip {
	uint8_t version; /* active config's byte 0, 0 if none */
	uint16_t x, y;	 /* its resolution */
	struct goodix_model_stats stats;
};

static struct chip chip(void)
{
	struct goodix_model *m;
	const em_u8 *cfg;
	struct chip c = { 0 };

	emub_lock(E.eb);
	m = emub_chip_goodix(E.eb, "touchscreen");
	assert_non_null(m);
	if (goodix_model_active_config(m, &cfg)) {
		c.version = cfg[0];
		c.x = (uint16_t)(cfg[1] | cfg[2] << 8);
		c.y = (uint16_t)(cfg[3] | cfg[4] << 8);
	}
	c.stats = *goodix_model_stats(m);
	emub_unlock(E.eb);
	return c;
}

static void assert_stale(void)
{
	struct chip c = chip();

	assert_int_equal(c.version, STALE_VERSION);
	assert_int_equal(c.x, 800);
	assert_int_equal(c.y, 480);
}

/* ------------------------------------------------------------ paths */

static void test_stale_gt911_gets_db_config_staged_as_driver_file(void **state)
{
	struct chip c;
	char *json;

	(void)state;
	start_gt911("touchfw,emul-gt911", true, STALE_VERSION, NULL);
	expect_rc(0, "run", "1-005d");
	e2e_said(&E, "gt911-cfg-72 is version 72, newer than the chip's 65");
	e2e_said(&E, "as ");
	e2e_said(&E, "/goodix_911_cfg.bin; the driver applies it on rebind");
	e2e_said(&E, "ABS_MT_POSITION_X/Y maxima 1023/599, as gt911-cfg-72 gives");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	c = chip();
	assert_int_equal(c.version, DB_VERSION);
	assert_int_equal(c.x, 1024);
	assert_int_equal(c.y, 600);
	/* The driver sent it: touchfw wrote nothing to the config itself. */
	assert_int_equal(c.stats.configs_applied, 1);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	json = e2e_state_file(&E, "1-005d.json");
	assert_non_null(json);
	assert_non_null(strstr(json, "\"path\":\"driver-config\""));
	assert_non_null(strstr(json, "\"config_version_before\":\"65\""));
	assert_non_null(strstr(json, "\"config_version_after\":\"72\""));
	free(json);
	/* A second run has nothing to do. */
	expect_rc(0, "run", "1-005d");
	e2e_said(&E, "runs configuration version 72, the newest");
	assert_int_equal(chip().stats.configs_applied, 1);
}

static void test_gt911_without_gpios_gets_config_over_the_bus_bound(void **state)
{
	struct chip c;
	char *json;

	(void)state;
	start_gt911("touchfw,emul-gt911-nogpio", false, STALE_VERSION, NULL);
	expect_rc(0, "run", "1-005d");
	e2e_said(&E, "requests a configuration file only when it has both the INT and RST");
	e2e_said(&E, "config: writing gt911-cfg-72 over the bus, Goodix-TS bound");
	e2e_said(&E, "ABS_MT_POSITION_X/Y maxima 1023/599");
	e2e_not_said(&E, "staged");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	c = chip();
	assert_int_equal(c.version, DB_VERSION);
	assert_int_equal(c.x, 1024);
	assert_int_equal(c.stats.configs_applied, 1);
	json = e2e_state_file(&E, "1-005d.json");
	assert_non_null(json);
	assert_non_null(strstr(json, "\"path\":\"bus-config\""));
	free(json);
}

static void test_always_on_gt1151_unbinds_resets_and_writes_gt1x_config(void **state)
{
	struct chip c;

	(void)state;
	start_gt1151();
	assert_int_equal(chip().version, 0x50);
	expect_rc(0, "run", "2-0014");
	e2e_said(&E, "gt1151-cfg-90 is version 90, newer than the chip's 80");
	e2e_said(&E, "unbinding Goodix-TS (power is always on)");
	e2e_said(&E, "interrupt line driven");
	e2e_said(&E, "ABS_MT_POSITION_X/Y maxima 1199/1919");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	c = chip();
	assert_int_equal(c.version, 90);
	assert_int_equal(c.x, 1200);
	assert_int_equal(c.y, 1920);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
}

/* ------------------------------------------------------------ policy */

static void test_newer_config_on_chip_is_never_downgraded_without_force(void **state)
{
	(void)state;
	start_gt911("touchfw,emul-gt911", true, 80, NULL);
	expect_rc(0, "run", "1-005d");
	e2e_said(&E, "configuration version 80 is newer than the database's 72");
	e2e_said(&E, "never downgraded without a config-pin or --force");
	assert_int_equal(chip().version, 80);
	assert_int_equal(chip().stats.config_writes, 0);
	/* --force writes it; the chip itself refuses a lower version. */
	expect_rc(TF_EXIT_VERIFY, "run", "--force", "1-005d");
	e2e_said(&E, "forced: gt911-cfg-72 is version 72, the chip has 80");
	e2e_said(&E, "the driver did not take the configuration");
	assert_int_equal(chip().version, 80);
}

/* ------------------------------------------------------------ faults */

static void test_nak_is_no_device_and_nothing_written(void **state)
{
	(void)state;
	start_gt911("touchfw,emul-gt911-nogpio", false, STALE_VERSION, NULL);
	assert_int_equal(emub_set_nak(E.eb, 1, 0x5d, true), 0);
	expect_rc(TF_EXIT_NO_DEVICE, "run", "1-005d");
	e2e_said(&E, "no answer at 0x5d");
	assert_int_equal(emub_set_nak(E.eb, 1, 0x5d, false), 0);
	assert_stale();
	assert_int_equal(chip().stats.config_writes, 0);
}

static void test_config_refused_by_chip_fails_the_bus_write(void **state)
{
	(void)state;
	start_gt911("touchfw,emul-gt911-nogpio", false, STALE_VERSION,
		    "fault.refuse_config = true\n");
	expect_rc(TF_EXIT_VERIFY, "run", "1-005d");
	e2e_said(&E,
		 "the chip did not take goodix/gt911-cfg-72.bin (version 72): it reads back "
		 "version 65");
	assert_stale();
	assert_true(chip().stats.configs_refused > 0);
}

static void test_driver_with_old_resolution_fails_verification(void **state)
{
	(void)state;
	/* Staged: the driver sends it, the chip ignores it, the driver reads
	 * the old configuration back and registers the old axis ranges. */
	start_gt911("touchfw,emul-gt911", true, STALE_VERSION, "fault.refuse_config = true\n");
	expect_rc(TF_EXIT_VERIFY, "run", "1-005d");
	e2e_said(&E, "has ABS_MT_POSITION_X/Y maxima 799/479, but gt911-cfg-72 gives 1023/599: "
		     "the driver did not take the configuration");
	assert_stale();
}

static void test_no_input_device_after_rebind_fails(void **state)
{
	(void)state;
	start_gt911("touchfw,emul-gt911-nogpio", false, STALE_VERSION,
		    "fault.no_input = true\n");
	expect_rc(TF_EXIT_VERIFY, "run", "1-005d");
	e2e_said(&E, "no new input device within");
	/* The configuration itself went in and was read back. */
	assert_int_equal(chip().version, DB_VERSION);
}

static void test_bad_blob_is_refused_before_the_chip_is_touched(void **state)
{
	char cmd[2048];

	(void)state;
	start_gt911("touchfw,emul-gt911", true, STALE_VERSION, NULL);
	e2e_private_db(&E);
	e2e_settings(&E, "signatures = off");
	/* Damage the checksum byte and make the manifest agree with the
	 * damaged file, as a careless OEM tool would. */
	snprintf(
		cmd, sizeof(cmd),
		"cd '%s' && f=goodix/gt911-cfg-72.bin && "
		"printf '\\001' | dd of=$f bs=1 seek=184 conv=notrunc 2>/dev/null && "
		"sum=$(sha256sum $f | cut -d' ' -f1) && "
		"sed -i \"/^\\[gt911-cfg-72\\]/,/^sha256/s/^sha256 = .*/sha256 = $sum/\" manifest.ini",
		E.db);
	assert_int_equal(system(cmd), 0);
	expect_rc(TF_EXIT_DB_INVALID, "run", "1-005d");
	e2e_said(&E, "goodix/gt911-cfg-72.bin ([gt911-cfg-72], line");
	e2e_said(&E, "checksum byte at byte 184 is 0x01");
	e2e_error_names_device(E.err, "checksum byte at byte 184 is 0x01", "1-005d");
	e2e_said(&E, "never repairs a checksum");
	e2e_not_said(&E, "unbinding");
	assert_stale();
	assert_int_equal(chip().stats.config_writes, 0);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	/* db check says the same. */
	expect_rc(TF_EXIT_DB_INVALID, "db", "check", "--db", E.db);
}

static void test_config_file_for_another_chip_is_refused_by_flash(void **state)
{
	char path[400];

	(void)state;
	start_gt911("touchfw,emul-gt911", true, STALE_VERSION, NULL);
	/* The GT1151's 240-byte configuration offered to a GT911. */
	snprintf(path, sizeof(path), "%s/firmware-db/goodix/gt1151-cfg-90.bin", E.build);
	expect_rc(TF_EXIT_BAD_INPUT, "flash", "--config", path, "1-005d");
	e2e_said(&E,
		 "240 bytes, but chip 911 (GT911) reads a 186-byte configuration at 0x8047");
	assert_stale();
	assert_int_equal(chip().stats.config_writes, 0);
}

static void test_probe_shows_goodix_fields(void **state)
{
	(void)state;
	start_gt911("touchfw,emul-gt911", true, STALE_VERSION, NULL);
	expect_rc(0, "probe", "1-005d");
	if (!strstr(E.out, "911 (GT911), firmware 0x1060, config version 65, checksum 0x") ||
	    !strstr(E.out, "800x480") || !strstr(E.out, "0x1060"))
		fail_msg("probe output:\n%s", E.out);
	expect_rc(0, "probe", "--json", "1-005d");
	if (!strstr(E.out, "\"config_version\":\"65\"") ||
	    !strstr(E.out, "\"hardware\":\"911\""))
		fail_msg("probe --json output:\n%s", E.out);
	assert_int_equal(chip().stats.config_writes, 0);
}

/* Its CRC32 digest shows 8 digits in the log, the table and JSON alike. */
static void test_config_crc_reads_one_way_everywhere(void **state)
{
	(void)state;
	start_gt911("touchfw,emul-gt911", true, STALE_VERSION, NULL);
	e2e_crc_one_way(&E, "1-005d", 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_stale_gt911_gets_db_config_staged_as_driver_file,
					  teardown),
		cmocka_unit_test_teardown(
			test_gt911_without_gpios_gets_config_over_the_bus_bound, teardown),
		cmocka_unit_test_teardown(
			test_always_on_gt1151_unbinds_resets_and_writes_gt1x_config, teardown),
		cmocka_unit_test_teardown(
			test_newer_config_on_chip_is_never_downgraded_without_force, teardown),
		cmocka_unit_test_teardown(test_nak_is_no_device_and_nothing_written, teardown),
		cmocka_unit_test_teardown(test_config_refused_by_chip_fails_the_bus_write,
					  teardown),
		cmocka_unit_test_teardown(test_driver_with_old_resolution_fails_verification,
					  teardown),
		cmocka_unit_test_teardown(test_no_input_device_after_rebind_fails, teardown),
		cmocka_unit_test_teardown(test_bad_blob_is_refused_before_the_chip_is_touched,
					  teardown),
		cmocka_unit_test_teardown(test_config_file_for_another_chip_is_refused_by_flash,
					  teardown),
		cmocka_unit_test_teardown(test_probe_shows_goodix_fields, teardown),
		cmocka_unit_test_teardown(test_config_crc_reads_one_way_everywhere, teardown),
	};

	return cmocka_run_group_tests_name("e2e_goodix", tests, NULL, NULL);
}
