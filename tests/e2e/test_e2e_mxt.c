// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end on an emulated maXTouch: the real touchfw binaries inside an
 * emulated board, judged by the chip model and the emulated kernel -- the
 * three update paths, no-op runs, configuration-only updates, report-only
 * mode and the people's commands.
 */
#include "e2e.h"
#include "exitcode.h"

#define NEW_VERSION 0x21 /* 2.1.AB in the demo database */
#define NEW_BUILD 0xab
#define DB_CFG_CRC 0xE67ACA

static struct e2e E;
static FILE *trace; /* the emulator's log, when a test keeps one */

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	if (trace)
		fclose(trace);
	trace = NULL;
	return 0;
}

static void start(const char *compat, const char *state, const char *fw, const char *power,
		  const char *extra)
{
	char *b = e2e_board(compat, "mxt224e", state, fw, power, extra);

	assert_non_null(b);
	e2e_start(&E, b);
	free(b);
}

static void assert_updated(void)
{
	struct e2e_chip c;
	char node[64];

	/* touchfw may see the input device in sysfs before the emulated
	 * driver finished registering it; let the driver model settle. */
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	c = e2e_chip(&E);

	assert_int_equal(c.mode, MXT_MODE_APP);
	assert_int_equal(c.version, NEW_VERSION);
	assert_int_equal(c.build, NEW_BUILD);
	assert_int_equal(c.nvm_crc, DB_CFG_CRC);
	assert_int_equal(emub_input_node(E.eb, "touchscreen", node, sizeof(node)), 0);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
}

/* Like start(), logging every bus transaction and uevent to
 * E.dir/emuboard.log: "i2c-1 user: w24@24=... -> 1", "uevent unbind ...". */
static void start_traced(const char *compat, const char *state, const char *fw,
			 const char *power)
{
	char *b = e2e_board(compat, "mxt224e", state, fw, power, NULL);
	char path[400];

	assert_non_null(b);
	e2e_prepare(&E, b, NULL);
	free(b);
	snprintf(path, sizeof(path), "%s/emuboard.log", E.dir);
	trace = fopen(path, "w");
	assert_non_null(trace);
	emub_set_log(E.eb, trace);
	emub_set_trace(E.eb, true);
	e2e_go(&E);
}

static void test_bootloader_chip_is_flashed_with_driver_bound(void **state)
{
	const char *done, *unbind, *rebind;
	char path[400], *log = NULL, *json;
	size_t len;

	(void)state;
	start_traced("touchfw,emul-demo", "no-image", "1.0.AA", "driver");
	assert_false(e2e_has_input(&E, "touchscreen"));
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_said(&E, "bootloader mode");
	e2e_said(&E, "flashing mxt224e-fw-2.1.AB (2.1.AB) at bootloader address 0x24");
	e2e_said(&E, "verified: firmware (bootloader) -> 2.1.AB");
	/* and what that can not prove, as doc/families.md says */
	e2e_said(&E, "not proven by this: that the configuration suits this panel");
	/* The flash finished before touchfw unbound anything... */
	done = strstr(E.err, "flashing: 100%");
	unbind = strstr(E.err, "unbinding");
	assert_non_null(done);
	assert_non_null(unbind);
	assert_true(done < unbind);
	/* (that first unbind is the rebind after the update) */
	rebind = strstr(E.err, "rebind: unbinding");
	assert_non_null(rebind);
	assert_ptr_equal(rebind + strlen("rebind: "), unbind);
	assert_updated();
	/* ...and the driver stayed bound: nothing touched the bootloader
	 * (0x24) once the first unbind happened. */
	snprintf(path, sizeof(path), "%s/emuboard.log", E.dir);
	assert_int_equal(tf_read_file(path, 64 << 20, &log, &len), 0);
	unbind = strstr(log, "uevent unbind ");
	assert_non_null(unbind);
	assert_non_null(strstr(log, "i2c-1 user: w2@24=dc aa")); /* the unlock, traced */
	assert_null(strstr(unbind, "@24="));
	free(log);
	json = e2e_state_file(&E, "1-004a.json");
	assert_non_null(json);
	assert_non_null(strstr(json, "\"path\":\"bootloader\""));
	assert_non_null(strstr(json, "\"version_after\":\"2.1.AB\""));
	free(json);
}

static void test_second_run_is_a_noop(void **state)
{
	struct emub_bus_counters u1, d1, u2, d2;
	struct e2e_chip before;

	(void)state;
	start("touchfw,emul-demo", "no-image", "1.0.AA", "driver", NULL);
	e2e_expect(&E, 0, "run", "1-004a");
	before = e2e_chip(&E);
	assert_int_equal(emub_adapter_counters(E.eb, 1, &u1, &d1), 0);
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_said(&E, "up to date");
	assert_int_equal(emub_adapter_counters(E.eb, 1, &u2, &d2), 0);
	/* Reads only: no byte beyond register pointers was written. */
	assert_true(u2.bytes_written - u1.bytes_written <=
		    2 * (u2.transactions - u1.transactions));
	assert_int_equal(e2e_chip(&E).stats.resets, before.stats.resets);
	assert_int_equal(d2.transactions, d1.transactions); /* no rebind */
}

static void test_outdated_firmware_through_update_fw(void **state)
{
	int result = -1;
	char *json;

	(void)state;
	/*
	 * atmel's update_fw sends each frame as one message: on an adapter
	 * with a 255-byte limit the demo's 263-byte frames would be refused
	 * (EOPNOTSUPP) and touchfw would fall back to flashing itself; this
	 * board's adapter has no limit.
	 */
	{
		char *b = e2e_board("touchfw,emul-demo", "mxt224e", "app", "1.0.AA", "driver",
				    NULL),
		     *p;

		assert_non_null(b);
		p = strstr(b, "max_transfer = 255\n");
		assert_non_null(p);
		memmove(p, p + 19, strlen(p + 19) + 1);
		e2e_start(&E, b);
		free(b);
	}
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_said(&E, "2.1.AB is newer than the running 1.0.AA");
	e2e_said(&E, "update_fw");
	assert_int_equal(emub_update_fw_result(E.eb, "touchscreen", &result), 0);
	assert_int_equal(result, 0);
	assert_updated();
	json = e2e_state_file(&E, "1-004a.json");
	assert_non_null(strstr(json, "\"path\":\"update_fw\""));
	free(json);
}

static void test_update_fw_refused_by_the_adapter_falls_back(void **state)
{
	(void)state;
	/* A 255-byte adapter limit: the driver's one-message frames fail. */
	start("touchfw,emul-demo", "app", "1.0.AA", "driver", NULL);
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_said(&E, "driver update failed");
	e2e_said(&E, "flashing it directly");
	assert_updated();
}

static void test_outdated_firmware_through_unbind_and_flash(void **state)
{
	char *json;

	(void)state;
	start("touchfw,emul-always-on", "app", "1.0.AA", "always-on", NULL);
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_said(&E, "unbinding atmel_mxt_ts (power is always on)");
	e2e_said(&E, "entering the bootloader");
	e2e_said(&E, "CHG line watched");
	assert_updated();
	json = e2e_state_file(&E, "1-004a.json");
	assert_non_null(strstr(json, "\"path\":\"unbind\""));
	free(json);
}

static void test_config_only_update(void **state)
{
	(void)state;
	/* Running the current firmware, configuration never written. */
	start("touchfw,emul-demo", "app", "2.1.AB", "driver", NULL);
	assert_int_not_equal(e2e_chip(&E).nvm_crc, DB_CFG_CRC);
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_said(&E, "firmware: keep");
	e2e_said(&E, "config: write mxt224e-cfg-2.1.AB");
	assert_updated();
	assert_int_equal(e2e_chip(&E).stats.images_completed, 0);
}

static void test_config_only_update_always_on_writes_over_the_bus(void **state)
{
	(void)state;
	start("touchfw,emul-always-on", "app", "2.1.AB", "always-on", NULL);
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_said(&E, "config: writing mxt224e-cfg-2.1.AB, backup to NVM, reset");
	e2e_said(&E, "config: CRC 0xE67ACA verified after reset");
	assert_updated();
	assert_int_equal(e2e_chip(&E).stats.backups, 1);
}

static void test_report_only_mode_never_writes(void **state)
{
	struct emub_bus_counters u1, u2;
	struct e2e_chip before, c;

	(void)state;
	start("touchfw,emul-demo", "no-image", "1.0.AA", "driver", NULL);
	e2e_settings(&E, "mode = report-only");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	before = e2e_chip(&E);
	assert_int_equal(emub_adapter_counters(E.eb, 1, &u1, NULL), 0);
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_said(&E, "report-only mode: would flash firmware mxt224e-fw-2.1.AB");
	assert_int_equal(emub_adapter_counters(E.eb, 1, &u2, NULL), 0);
	c = e2e_chip(&E);
	assert_int_equal(c.mode, MXT_MODE_BOOTLOADER);
	/* Reads only: no byte beyond register pointers was written... */
	assert_true(u2.bytes_written - u1.bytes_written <=
		    2 * (u2.transactions - u1.transactions));
	/* ...no frame, config write, reset or bootloader entry... */
	assert_memory_equal(&c.stats, &before.stats, sizeof(c.stats));
	/* ...and the bootloader was not unlocked (a 2-byte command the
	 * bound above lets through): it still waits for that command. */
	assert_int_equal(c.bl_status, MXT_BL_WAITING_BOOTLOAD_CMD);
}

static void test_off_switch_in_settings_and_on_cmdline(void **state)
{
	char path[400];

	(void)state;
	start("touchfw,emul-demo", "no-image", "1.0.AA", "driver", NULL);
	e2e_settings(&E, "enabled = no");
	e2e_expect(&E, 14, "run", "1-004a");
	e2e_said(&E, "touchfw is disabled");
	e2e_settings(&E, NULL);
	snprintf(path, sizeof(path), "%s/cmdline", E.dir);
	e2e_write(path, "ro quiet touchfw.disable\n");
	e2e_expect(&E, 14, "run", "1-004a");
	e2e_said(&E, "kernel command line");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

static void test_family_a2_uses_the_alternate_bootloader_address(void **state)
{
	const char *top = getenv("TOUCHFW_TOP");
	char path[4096], *b = NULL, *p;
	struct e2e_chip c;
	size_t len;

	(void)state;
	/* The emulated board the example profile emul-1664s describes
	 * (adapter 2, always-on, CHG on line 4), its chip without an image. */
	snprintf(path, sizeof(path), "%s/tests/emul/boards/mxt1664s.board",
		 top && *top ? top : ".");
	assert_int_equal(tf_read_file(path, 1 << 20, &b, &len), 0);
	p = strstr(b, "state = bootloader\n");
	assert_non_null(p);
	memcpy(p, "state = no-image  \n", 19);
	e2e_start(&E, b);
	free(b);
	e2e_expect(&E, 0, "run", "2-004a");
	e2e_said(&E, "bootloader at 0x26");
	e2e_said(&E, "mxt1664s-fw-3.0.10");
	c = e2e_chip(&E);
	assert_int_equal(c.mode, MXT_MODE_APP);
	assert_int_equal(c.version, 0x30);
	assert_int_equal(c.nvm_crc, 0x06F670);
}

static void test_manual_flash_with_enc_file_and_progress_lines(void **state)
{
	char fw[400];

	(void)state;
	start("touchfw,emul-demo", "no-image", "1.0.AA", "driver", NULL);
	snprintf(fw, sizeof(fw), "%s/enc.enc", E.dir);
	{
		char cmd[900];

		snprintf(cmd, sizeof(cmd),
			 "'%s/fwgen' image --chip mxt224e --version 2.2.01 "
			 "--size 8000 --enc -o '%s'",
			 E.build, fw);
		assert_int_equal(system(cmd), 0);
	}
	e2e_expect(&E, 0, "flash", "--firmware", fw, "1-004a");
	e2e_said(&E, "flashing: 100%");
	assert_int_equal(e2e_chip(&E).version, 0x22);
}

static void test_probe_and_status_show_the_controller(void **state)
{
	(void)state;
	start("touchfw,emul-demo", "no-image", "1.0.AA", "driver", NULL);
	e2e_expect(&E, 20, "probe"); /* attention: a chip in its bootloader */
	assert_non_null(strstr(E.out, "1-004a"));
	assert_non_null(strstr(E.out, "bootloader"));
	assert_non_null(strstr(E.out, "flash 2.1.AB + config"));
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_expect(&E, 0, "status", "--json");
	assert_non_null(strstr(E.out, "\"mode\":\"application\""));
	assert_non_null(strstr(E.out, "\"firmware\":\"2.1.AB\""));
	assert_non_null(strstr(E.out, "\"action\":\"none\""));
	assert_non_null(strstr(E.out, "\"last_result\":"));
	/* probe never read the attributes that oops in bootloader mode:
	 * e2e_stop() asserts the emulated kernel saw no oops. */
}

/* Its CRC24 shows 6 digits in the log, the table and JSON alike. */
static void test_config_crc_reads_one_way_everywhere(void **state)
{
	(void)state;
	start("touchfw,emul-demo", "app", "1.0.AA", "driver", NULL);
	e2e_crc_one_way(&E, "1-004a", 6);
}

static void test_probe_and_status_of_a_missing_device_exit_no_device(void **state)
{
	(void)state;
	start("touchfw,emul-demo", "no-image", "1.0.AA", "driver", NULL);
	e2e_expect(&E, 3, "probe", "5-0010");
	e2e_said(&E, "touchfw probe: 5-0010: no such device");
	assert_non_null(strstr(E.out, "no device"));
	e2e_expect(&E, 3, "status", "5-0010");
	e2e_said(&E, "touchfw status: 5-0010: no such device");
	/* One missing among present ones still says so. */
	e2e_expect(&E, 3, "probe", "--json", "1-004a", "5-0010");
	assert_non_null(strstr(E.out, "\"device\":\"1-004a\""));
	e2e_expect(&E, 20, "probe", "1-004a"); /* attention: in its bootloader */
}

/*
 * touchfw as a user who may not open what it needs (here its state
 * directory, mode 0 -- as /run/touchfw is to a user).  Root is made to
 * obey file modes by dropping CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH
 * from the bounding set (setpriv), so the check runs the same as root
 * and as a user.
 */
static int touchfw_without_permission(const char *cmd, const char *dev)
{
	char bin[300], conf[400];
	const char *argv[8], *env[3];
	int i = 0;

	snprintf(bin, sizeof(bin), "%s/touchfw", E.build);
	snprintf(conf, sizeof(conf), "TOUCHFW_CONFIG=%s", E.conf);
	if (geteuid() == 0) {
		argv[i++] = "setpriv";
		argv[i++] = "--bounding-set=-dac_override,-dac_read_search";
		argv[i++] = "--";
	}
	argv[i++] = bin;
	argv[i++] = cmd;
	argv[i++] = dev;
	argv[i] = NULL;
	env[0] = conf;
	env[1] = "TOUCHFW_LOG_LEVEL=";
	env[2] = NULL;
	free(E.out);
	free(E.err);
	E.out = E.err = NULL;
	E.rc = emub_run(E.eb, argv, env, E2E_TIMEOUT_MS, &E.out, &E.err);
	return E.rc;
}

static void test_probe_without_permission_fails_naming_what(void **state)
{
	char dir[400], want[600];

	(void)state;
	if (geteuid() == 0 && system("setpriv --bounding-set=-dac_override true") != 0)
		skip();
	start("touchfw,emul-demo", "no-image", "1.0.AA", "driver", NULL);
	snprintf(dir, sizeof(dir), "%s/state", E.dir);
	mkdir(dir, 0700);
	assert_int_equal(chmod(dir, 0), 0);
	assert_int_equal(touchfw_without_permission("probe", "1-004a"), TF_EXIT_PERMISSION);
	snprintf(want, sizeof(want),
		 "touchfw probe: 1-004a: could not read it: state directory "
		 "%s: Permission denied (touchfw needs root)",
		 dir);
	e2e_said(&E, want);
	assert_int_equal(touchfw_without_permission("status", "1-004a"), TF_EXIT_PERMISSION);
	assert_int_equal(touchfw_without_permission("run", "1-004a"), TF_EXIT_PERMISSION);
	e2e_said(&E, "Permission denied (touchfw needs root) (exit 17, permission)");
	assert_int_equal(chmod(dir, 0700), 0);
	/* attention: the chip is in its bootloader */
	assert_int_equal(touchfw_without_permission("probe", "1-004a"), TF_EXIT_ATTENTION);
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

static void test_driver_config_file_in_firmware_path_is_reported(void **state)
{
	char path[400];

	(void)state;
	start("touchfw,emul-demo", "app", "2.1.AB", "driver", NULL);
	snprintf(path, sizeof(path), "%s/firmware/maxtouch.cfg", E.dir);
	e2e_write(path, "OBP_RAW V1\n");
	e2e_expect(&E, 0, "run", "1-004a");
	e2e_said(&E, "maxtouch.cfg exists: the atmel_mxt_ts driver applies it at every probe");
}

/*
 * Issue 15 item 11: a chip of another variant (an mXT1664S, bootloader id
 * 19 in extended-id mode) in its bootloader on the mXT224E board.  The
 * board's only firmware names bootloader id 10 in the manifest: touchfw
 * reads the chip's id and refuses before the first frame (exit
 * unsupported), the bootloader never unlocked.  Before, it flashed the
 * mXT224E image into the chip's bootloader (twice, bounded) and ended in
 * exit 11.
 */
static void test_bootloader_of_another_chip_is_not_flashed(void **state)
{
	char *b = e2e_board("touchfw,emul-demo", "mxt1664s", "no-image", "1.0.AA", "driver",
			    NULL);
	struct e2e_chip c;
	char *json;

	(void)state;
	assert_non_null(b);
	e2e_start(&E, b);
	free(b);
	e2e_expect(&E, TF_EXIT_UNSUPPORTED, "run", "1-004a");
	e2e_said(&E, "id 19 version 2");
	e2e_said(&E, "the chip's bootloader reports id 19, but mxt224e-fw-2.1.AB is made "
		     "for bootloader id 10");
	e2e_error_names_device(E.err, "the chip's bootloader reports id 19", "1-004a");
	c = e2e_chip(&E);
	assert_int_equal(c.mode, MXT_MODE_BOOTLOADER);
	assert_int_equal(c.stats.frames_passed + c.stats.frames_failed, 0);
	/* Not counted against the blob: it was never tried. */
	json = e2e_state_file(&E, "1-004a.json");
	assert_non_null(json);
	assert_non_null(strstr(json, "\"exit_code\":13"));
	free(json);
	/* A second run says the same: nothing recorded made it give up. */
	e2e_expect(&E, TF_EXIT_UNSUPPORTED, "run", "1-004a");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_bootloader_chip_is_flashed_with_driver_bound,
					  teardown),
		cmocka_unit_test_teardown(test_second_run_is_a_noop, teardown),
		cmocka_unit_test_teardown(test_outdated_firmware_through_update_fw, teardown),
		cmocka_unit_test_teardown(test_update_fw_refused_by_the_adapter_falls_back,
					  teardown),
		cmocka_unit_test_teardown(test_outdated_firmware_through_unbind_and_flash,
					  teardown),
		cmocka_unit_test_teardown(test_config_only_update, teardown),
		cmocka_unit_test_teardown(test_config_only_update_always_on_writes_over_the_bus,
					  teardown),
		cmocka_unit_test_teardown(test_report_only_mode_never_writes, teardown),
		cmocka_unit_test_teardown(test_off_switch_in_settings_and_on_cmdline, teardown),
		cmocka_unit_test_teardown(test_family_a2_uses_the_alternate_bootloader_address,
					  teardown),
		cmocka_unit_test_teardown(test_bootloader_of_another_chip_is_not_flashed,
					  teardown),
		cmocka_unit_test_teardown(test_manual_flash_with_enc_file_and_progress_lines,
					  teardown),
		cmocka_unit_test_teardown(test_probe_and_status_show_the_controller, teardown),
		cmocka_unit_test_teardown(test_config_crc_reads_one_way_everywhere, teardown),
		cmocka_unit_test_teardown(
			test_probe_and_status_of_a_missing_device_exit_no_device, teardown),
		cmocka_unit_test_teardown(test_probe_without_permission_fails_naming_what,
					  teardown),
		cmocka_unit_test_teardown(test_driver_config_file_in_firmware_path_is_reported,
					  teardown),
	};

	return cmocka_run_group_tests_name("e2e_mxt", tests, NULL, NULL);
}
