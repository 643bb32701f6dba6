// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maXTouch over spi, end to end: the real touchfw on an emulated board
 * whose mXT1664S sits on an spi bus behind Microchip's mchp_spi_ts (the
 * emulator's model of it binds in bootloader mode and registers its input
 * device with T100), with always-on power.  touchfw has the driver let go,
 * binds spidev through driver_override, speaks the mchp_spi_ts framing in
 * the mode and speed of the profile (the device's own mode is 0, the chip
 * wants 3), splits to spidev's bufsiz, then undoes all of it and binds
 * mchp_spi_ts again -- on success and on every failure.  With power =
 * "driver" the driver keeps the device: touchfw reads the chip through
 * its attributes, stages maxtouch.fw for its update_fw and binds it again
 * afterwards (it registers no new input device by itself).
 */
#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/file.h>
#include <time.h>

#include "emub-mxt.h"
#include "e2e.h"
#include "exitcode.h"
#include "emuboard-spi.h"
#include "mxt_spi.h"

static struct e2e E;

static const char profile[] = "/dts-v1/;\n"
			      "/ {\n"
			      "	touchfw,profile-version = <1>;\n"
			      "	model = \"touchfw emulated spi board\";\n"
			      "	board-compatible = \"touchfw,emul-spi-1664s\";\n"
			      "	board-ids = \"touchfw,emul-1664s\";\n"
			      "	controllers {\n"
			      "		#address-cells = <1>;\n"
			      "		#size-cells = <0>;\n"
			      "		touchscreen@0 {\n"
			      "			family = \"mxt\";\n"
			      "			bus = \"spi\";\n"
			      "			adapter-name = \"emuboard-spi.1\";\n"
			      "			reg = <0>;\n"
			      "			driver = \"mchp_spi_ts\";\n"
			      "			power = \"%s\";\n"
			      "			spi-max-frequency = <8000000>;\n"
			      "			spi-cpol;\n"
			      "			spi-cpha;\n"
			      "		};\n"
			      "	};\n"
			      "};\n";

static const char *spidev_extra = "";
static bool realtime_next;
static bool no_config_next; /* the database without the 1664S's configuration */

static void db_without_config(void);

static void start_he(const char *state, const char *power, const char *extra,
		     const char *he_args)
{
	char *board = NULL, dir[280], dts[300], cmd[2000], *text = NULL;

	assert_true(
		asprintf(&board,
			 "[board]\nname = spi e2e\ncompatible = touchfw,emul-spi-1664s\n"
			 "pacing = fast\n"
			 "[spi 1]\nmax_speed_hz = 20000000\n"
			 "[spi-chip touchscreen]\nbus = 1\nchip_select = 0\nmodel = mxt1664s\n"
			 "driver = mchp_spi_ts\nstate = %s\nfw_version = 1.0.AA\n"
			 "spi_mode = 3\nmax_speed_hz = 8000000\n%s"
			 "[spidev]\nbufsiz = 4096\n%s",
			 state, extra ? extra : "", spidev_extra) > 0);
	e2e_prepare(&E, board, he_args);
	free(board);
	/* the profile, compiled into a private boards directory */
	snprintf(dir, sizeof(dir), "%s/boards", E.dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dts, sizeof(dts), "%s/spi.dts", dir);
	assert_true(asprintf(&text, profile, power) > 0);
	e2e_write(dts, text);
	free(text);
	snprintf(cmd, sizeof(cmd), "dtc -q -I dts -O dtb -o '%s/spi.dtb' '%s' && rm '%s'", dir,
		 dts, dts);
	assert_int_equal(system(cmd), 0);
	snprintf(E.boards, sizeof(E.boards), "%s", dir);
	e2e_settings(&E, NULL);
	if (no_config_next)
		db_without_config();
	if (realtime_next)
		emub_set_realtime(E.eb, true);
	e2e_go(&E);
}

static void start(const char *state, const char *power, const char *extra)
{
	start_he(state, power, extra, NULL);
}

static int teardown(void **state)
{
	(void)state;
	spidev_extra = "";
	realtime_next = false;
	no_config_next = false;
	e2e_stop(&E);
	return 0;
}

static struct mxt_model *chip(void)
{
	struct mxt_spi *s = emub_spi_mxt(E.eb, "touchscreen");

	assert_non_null(s);
	return s->m;
}

/* The spi device's input devices (registered by mchp_spi_ts). */
static int inputs(void)
{
	return e2e_spi_inputs(&E, "spi1.0");
}

/* Nothing of touchfw's is left: mchp_spi_ts bound, no override, no node. */
static void left_as_found(void)
{
	char buf[64], path[600];

	assert_int_equal(emub_spi_driver(E.eb, "touchscreen", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "mchp_spi_ts");
	assert_int_equal(emub_spi_driver_override(E.eb, "touchscreen", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	snprintf(path, sizeof(path), "%s/dev/spidev1.0", emub_root(E.eb));
	assert_int_equal(access(path, F_OK), -1);
}

static void test_dry_run_does_not_take_the_device_from_its_driver(void **state)
{
	(void)state;
	start("app", "always-on", NULL);
	e2e_expect(&E, 0, "probe", "spi1.0");
	assert_non_null(strstr(E.out, "a dry run does not unbind mchp_spi_ts"));
	left_as_found();
}

static void test_probe_reads_an_unbound_chip_over_spidev(void **state)
{
	char buf[64], path[600];

	(void)state;
	start("app", "always-on", "bound = false\n");
	e2e_expect(&E, 0, "probe", "spi1.0");
	assert_non_null(strstr(E.out, "spi1.0       cs0     -              application 162.6"));
	assert_non_null(strstr(E.out, "1.0.AA"));
	/* spidev was bound for the read and let go again: still unbound */
	assert_int_equal(emub_spi_driver(E.eb, "touchscreen", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(emub_spi_driver_override(E.eb, "touchscreen", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	snprintf(path, sizeof(path), "%s/dev/spidev1.0", emub_root(E.eb));
	assert_int_equal(access(path, F_OK), -1);
}

static void test_run_flashes_a_chip_without_firmware(void **state)
{
	struct emub_spi_stats st;
	struct mxt_spi_stats spi_st;

	(void)state;
	start("no-image", "always-on", NULL);
	/* mchp_spi_ts bound in bootloader mode, without an input device */
	assert_int_equal(inputs(), 0);
	e2e_expect(&E, 0, "run", "spi1.0");
	e2e_said(&E, "spi: unbinding mchp_spi_ts");
	e2e_said(&E, "spi: bound spidev (/dev/spidev1.0)");
	e2e_said(&E, "mode 3, 8 bits, 8000000 Hz, spidev bufsiz 4096");
	e2e_said(&E, "bootloader over spi");
	e2e_said(&E, "flashing: 100%");
	e2e_said(&E, "updated: firmware (none) -> 3.0.10");
	emub_lock(E.eb);
	assert_int_equal(mxt_model_mode(chip()), MXT_MODE_APP);
	assert_int_equal(mxt_model_fw_version(chip()), 0x30);
	assert_int_equal(mxt_model_nvm_config_crc(chip()), 0x06F670);
	spi_st = emub_spi_mxt(E.eb, "touchscreen")->stats;
	emub_unlock(E.eb);
	/* every response was asked for after the chip's preparation time
	 * (touchfw's delay_usecs + cs_change gap) */
	assert_int_equal(spi_st.early_responses, 0);
	assert_true(spi_st.responses > 10);
	/* the driver took it again: its input device is there */
	e2e_said(&E, "input device input0");
	assert_int_equal(inputs(), 1);
	left_as_found();
	assert_int_equal(emub_spi_stats(E.eb, 1, &st), 0);
	assert_true(st.bytes > 67363); /* the image is 67363 bytes, framing on top */
}

static void test_invalid_crc_reply_is_named_and_undone(void **state)
{
	struct mxt_spi *s;

	(void)state;
	start("app", "always-on", NULL);
	/* the chip answers touchfw's first request with 0x08 (invalid CRC) */
	emub_lock(E.eb);
	s = emub_spi_mxt(E.eb, "touchscreen");
	s->faults.crc_reply_at = s->stats.requests + 1;
	emub_unlock(E.eb);
	e2e_expect(&E, 10, "run", "spi1.0");
	e2e_said(&E, "answered 0x08 (invalid CRC)");
	left_as_found();
	assert_int_equal(inputs(), 1);
}

/* The firmware file the database holds for the 1664S. */
static const char *fw_file(void)
{
	static char path[400];

	snprintf(path, sizeof(path), "%s/mxt1664s/fw-3.0.10.enc", E.db);
	return path;
}

static bool staged_left(void)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/state/firmware/maxtouch.fw", E.dir);
	return access(path, F_OK) == 0;
}

/* The database without the 1664S's configuration (the build's signature
 * no longer holds: not checked). */
static void db_without_config(void)
{
	char path[400], *text = NULL, *a, *b;
	size_t len;

	e2e_private_db(&E);
	e2e_settings(&E, "signatures = off");
	snprintf(path, sizeof(path), "%s/manifest.ini", E.db);
	assert_int_equal(tf_read_file(path, 1 << 20, &text, &len), 0);
	a = strstr(text, "[mxt1664s-cfg-3.0.10]");
	assert_non_null(a);
	b = strstr(a + 1, "\n[");
	assert_non_null(b);
	memmove(a, b + 1, strlen(b + 1) + 1);
	e2e_write(path, text);
	free(text);
}

static void test_power_driver_reads_the_chip_through_the_driver(void **state)
{
	(void)state;
	start("app", "driver", NULL);
	e2e_expect(&E, 0, "status", "spi1.0");
	assert_non_null(strstr(E.out, "1.0.AA"));
	assert_non_null(strstr(E.out, "162.6"));
	/* the configuration goes through the driver too (update_cfg) */
	assert_non_null(strstr(E.out, "flash 3.0.10 + config"));
	e2e_expect(&E, 0, "run", "--dry-run", "spi1.0");
	e2e_said(&E, "would flash firmware mxt1664s-fw-3.0.10 (67363 bytes) through "
		     "mchp_spi_ts's update_fw as maxtouch.fw (the driver owns the power); "
		     "would write config mxt1664s-cfg-3.0.10 (CRC 0x06F670; after the new "
		     "firmware)");
	left_as_found();
	assert_int_equal(inputs(), 1);
	assert_false(staged_left());
}

static void test_power_driver_flashes_through_update_fw_and_rebinds(void **state)
{
	int result = -1;
	char *json;

	(void)state;
	start("app", "driver", NULL);
	e2e_expect(&E, 0, "flash", "--firmware", fw_file(), "spi1.0");
	e2e_said(&E, "the chip is read through its attributes");
	e2e_said(&E, "asking mchp_spi_ts to flash it (update_fw)");
	e2e_said(&E, "mchp_spi_ts registers no input device again after update_fw: rebinding");
	e2e_said(&E, "updated: firmware 1.0.AA -> 3.0.10");
	assert_int_equal(emub_spi_update_fw_result(E.eb, "touchscreen", &result), 0);
	assert_int_equal(result, 0);
	emub_lock(E.eb);
	assert_int_equal(mxt_model_mode(chip()), MXT_MODE_APP);
	assert_int_equal(mxt_model_fw_version(chip()), 0x30);
	emub_unlock(E.eb);
	/* spidev was never bound: no node, no override; the new probe's
	 * input device is there, nothing staged is left */
	left_as_found();
	assert_int_equal(inputs(), 1);
	assert_false(staged_left());
	json = e2e_state_file(&E, "spi1.0.json");
	assert_non_null(json);
	assert_non_null(strstr(json, "\"path\":\"update_fw\""));
	free(json);
}

static void test_power_driver_run_flashes_a_chip_without_firmware(void **state)
{
	(void)state;
	/* mchp_spi_ts bound in bootloader mode: its update_fw flashes from there */
	start("no-image", "driver", NULL);
	db_without_config();
	assert_int_equal(inputs(), 0);
	e2e_expect(&E, 0, "run", "spi1.0");
	e2e_said(&E, "mchp_spi_ts holds the chip in its bootloader (in_bootloader 1)");
	e2e_said(&E, "updated: firmware (none) -> 3.0.10");
	emub_lock(E.eb);
	assert_int_equal(mxt_model_fw_version(chip()), 0x30);
	emub_unlock(E.eb);
	left_as_found();
	assert_int_equal(inputs(), 1);
	assert_false(staged_left());
	/* the next run has nothing to do */
	e2e_expect(&E, 0, "run", "spi1.0");
	e2e_said(&E, "up to date (firmware 3.0.10");
}

static void test_power_driver_flashes_and_configures_through_the_driver(void **state)
{
	int result = -1;

	(void)state;
	/* firmware through update_fw, then the database's configuration
	 * through update_cfg (mchp_spi_ts loads maxtouch.cfg only there) */
	start("no-image", "driver", NULL);
	e2e_expect(&E, 0, "run", "spi1.0");
	e2e_said(&E, "updated: firmware (none) -> 3.0.10");
	e2e_said(&E, "asking mchp_spi_ts to apply it (update_cfg)");
	e2e_said(&E, "config: the chip's config CRC is 0x06F670 after update_cfg, as the file "
		     "says");
	assert_int_equal(emub_spi_update_cfg_result(E.eb, "touchscreen", &result), 0);
	assert_int_equal(result, 0);
	emub_lock(E.eb);
	assert_int_equal(mxt_model_fw_version(chip()), 0x30);
	assert_int_equal(mxt_model_nvm_config_crc(chip()), 0x06F670);
	emub_unlock(E.eb);
	left_as_found();
	assert_int_equal(inputs(), 1);
	assert_false(staged_left());
	/* the next run has nothing to do: the config the chip runs, read
	 * through mem_access, has the file's CRC (the driver's config_crc
	 * says nothing after a plain probe) */
	e2e_expect(&E, 0, "run", "spi1.0");
	e2e_said(&E, "up to date (firmware 3.0.10, config matches)");
}

/* A configuration for another firmware (another info CRC): mxt_update_cfg
 * would clear the chip's configuration and then refuse the file -- touchfw
 * holds it against the info block (mem_access) and writes nothing. */
static void test_power_driver_config_for_other_info_block_is_refused(void **state)
{
	char path[400], *text = NULL;
	size_t len;
	int result;
	uint32_t before;

	(void)state;
	start("app", "driver", NULL);
	emub_lock(E.eb);
	before = mxt_model_nvm_config_crc(chip());
	emub_unlock(E.eb);
	snprintf(path, sizeof(path), "%s/mxt1664s/cfg-3.0.10.cfg", E.db);
	assert_int_equal(tf_read_file(path, 1 << 20, &text, &len), 0);
	/* the 1.0.AA chip's info CRC is not the 3.0.10 file's */
	snprintf(path, sizeof(path), "%s/other.cfg", E.dir);
	e2e_write(path, text);
	free(text);
	e2e_expect(&E, 7, "flash", "--config", path, "spi1.0");
	e2e_said(&E, "config is for info-block CRC 0x847920, the chip has 0x14571A");
	assert_int_equal(emub_spi_update_cfg_result(E.eb, "touchscreen", &result), -ENOENT);
	emub_lock(E.eb);
	assert_int_equal(mxt_model_nvm_config_crc(chip()), before);
	emub_unlock(E.eb);
	left_as_found();
	assert_int_equal(inputs(), 1);
	assert_false(staged_left());
}

static void test_power_driver_image_refused_leaves_the_bootloader_named(void **state)
{
	(void)state;
	/* the bootloader fails every frame's check: mchp_spi_ts gives up
	 * after 20 retries with the chip in its bootloader */
	start("app", "driver", "fault.crc_fail_always = true\n");
	e2e_expect(&E, 11, "flash", "--firmware", fw_file(), "spi1.0");
	/* the write fails with the driver's error (mxt_update_fw_store
	 * returns the info block read's -EIO); the driver stays bound, its
	 * old input device still registered, for the next update_fw */
	e2e_said(&E, "writing update_fw: Input/output error");
	e2e_not_said(&E, "rebinding it");
	e2e_said(&E, "the chip is in its bootloader: the next bind or 'touchfw run spi1.0' "
		     "flashes it again");
	left_as_found();
	assert_int_equal(inputs(), 1);
	assert_false(staged_left());
	emub_lock(E.eb);
	assert_int_equal(mxt_model_mode(chip()), MXT_MODE_BOOTLOADER);
	emub_unlock(E.eb);
}

static void test_power_driver_without_a_new_input_device_fails_verify(void **state)
{
	(void)state;
	/* the driver binds again after the update but registers no input
	 * device: the firmware went in, the update is not verified */
	start("app", "driver", "fault.no_input = true\n");
	e2e_settings(&E, "input_timeout_ms = 700");
	e2e_expect(&E, 12, "flash", "--firmware", fw_file(), "spi1.0");
	e2e_said(&E, "rebinding it");
	e2e_said(&E, "waiting up to 700 ms for the application-mode input device");
	e2e_said(&E, "(driver mchp_spi_ts)");
	emub_lock(E.eb);
	assert_int_equal(mxt_model_fw_version(chip()), 0x30);
	emub_unlock(E.eb);
	left_as_found();
	assert_false(staged_left());
}

static void test_kernel_without_spidev_is_named_and_driver_rebound(void **state)
{
	char buf[64];

	(void)state;
	spidev_extra = "available = false\n";
	start("app", "always-on", NULL);
	e2e_expect(&E, 3, "run", "spi1.0");
	e2e_said(&E, "spi1.0: no spidev driver in /sys/bus/spi/drivers");
	e2e_said(&E, "CONFIG_SPI_SPIDEV");
	/* the driver that let go is bound again, with its input device */
	assert_int_equal(emub_spi_driver(E.eb, "touchscreen", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "mchp_spi_ts");
	assert_int_equal(inputs(), 1);
}

/*
 * A driver_override somebody else set (a vendor tool's) is left alone: an
 * unsupported setup (exit 13, as touchfw(8) lists it), never 10 (io):
 * nothing failed on the bus (issue 27 item 10).
 */
static void test_foreign_driver_override_is_unsupported(void **state)
{
	char buf[64], path[600];

	(void)state;
	start("app", "always-on", "bound = false\n");
	snprintf(path, sizeof(path), "%s/sys/bus/spi/devices/spi1.0/driver_override",
		 emub_root(E.eb));
	e2e_write(path, "vendor_tool\n");
	emub_spi_settle(E.eb);
	e2e_expect(&E, TF_EXIT_UNSUPPORTED, "run", "spi1.0");
	e2e_said(&E, "driver_override is \"vendor_tool\"; somebody else chose its driver");
	assert_int_equal(emub_spi_driver_override(E.eb, "touchscreen", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "vendor_tool");
	assert_int_equal(emub_spi_driver(E.eb, "touchscreen", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

static void test_write_fail_reply_is_named_and_undone(void **state)
{
	struct mxt_spi *s;

	(void)state;
	start("app", "always-on", NULL);
	/* touchfw's first write (T6 0xA5, to the bootloader) answered 0x41 */
	emub_lock(E.eb);
	s = emub_spi_mxt(E.eb, "touchscreen");
	s->faults.write_fail_at = s->stats.writes + 1;
	emub_unlock(E.eb);
	e2e_expect(&E, 10, "run", "spi1.0");
	e2e_said(&E, "T6 bootloader command: the chip answered 0x41 (write failed)");
	emub_lock(E.eb);
	assert_int_equal(mxt_model_mode(chip()), MXT_MODE_APP);
	assert_int_equal(mxt_model_fw_version(chip()), 0x10);
	emub_unlock(E.eb);
	left_as_found();
	assert_int_equal(inputs(), 1);
}

static void test_power_loss_midway_leaves_a_flashable_chip(void **state)
{
	(void)state;
	/* the supply drops after frame 20 and comes back: the bootloader
	 * starts over without an image */
	start("no-image", "always-on", "fault.power_loss_after = 20\n");
	e2e_expect(&E, 11, "run", "spi1.0");
	e2e_said(&E, "the bootloader restarted at frame 21");
	/* nothing of touchfw's left; the driver holds the chip in bootloader */
	left_as_found();
	assert_int_equal(inputs(), 0);
	emub_lock(E.eb);
	assert_int_equal(mxt_model_mode(chip()), MXT_MODE_BOOTLOADER);
	assert_int_equal(mxt_model_stats(chip())->power_losses, 1);
	emub_unlock(E.eb);
	/* the next run flashes it */
	e2e_expect(&E, 0, "run", "--force", "spi1.0");
	e2e_said(&E, "updated: firmware (none) -> 3.0.10");
	left_as_found();
	assert_int_equal(inputs(), 1);
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	while (hay && (hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

static void test_bind_event_of_mchp_spi_ts_updates_the_chip(void **state)
{
	char path[400], *he = NULL, *log;
	size_t len;

	(void)state;
	/* mchp_spi_ts binds at start, as at boot: bind uevent -> handle-event */
	start_he("no-image", "always-on", NULL, "");
	e2e_wait_run_done(&E, "spi1.0");
	emub_lock(E.eb);
	assert_int_equal(mxt_model_mode(chip()), MXT_MODE_APP);
	assert_int_equal(mxt_model_fw_version(chip()), 0x30);
	emub_unlock(E.eb);
	snprintf(path, sizeof(path), "%s/he.log", E.dir);
	assert_int_equal(tf_read_file(path, 1 << 20, &he, &len), 0);
	e2e_keep(&E, he);
	log = e2e_keep(&E, e2e_state_file(&E, "spi1.0.log"));
	/* shown with the program's log if it fails */
	fprintf(stderr, "--- he.log\n%s--- run log\n%s", he, log ? log : "(none)\n");
	assert_int_equal(count(he, "handed to detached process"), 1);
	/* spidev's bind and touchfw's own rebind of mchp_spi_ts start nothing */
	assert_int_equal(count(he, "this bind is touchfw's own rebind"), 1);
	assert_non_null(log);
	assert_int_equal(count(log, "verified: firmware"), 1);
	left_as_found();
	assert_int_equal(inputs(), 1);
}

static void test_bind_event_with_power_driver_updates_through_update_fw(void **state)
{
	char path[400], *he = NULL, *log;
	size_t len;

	(void)state;
	/* mchp_spi_ts binds at start in bootloader mode: handle-event runs
	 * touchfw, whose own rebind after update_fw starts nothing more */
	no_config_next = true;
	start_he("no-image", "driver", NULL, "");
	e2e_wait_run_done(&E, "spi1.0");
	emub_lock(E.eb);
	assert_int_equal(mxt_model_mode(chip()), MXT_MODE_APP);
	assert_int_equal(mxt_model_fw_version(chip()), 0x30);
	emub_unlock(E.eb);
	snprintf(path, sizeof(path), "%s/he.log", E.dir);
	assert_int_equal(tf_read_file(path, 1 << 20, &he, &len), 0);
	e2e_keep(&E, he);
	log = e2e_keep(&E, e2e_state_file(&E, "spi1.0.log"));
	/* shown with the program's log if it fails */
	fprintf(stderr, "--- he.log\n%s--- run log\n%s", he, log ? log : "(none)\n");
	assert_int_equal(count(he, "handed to detached process"), 1);
	assert_int_equal(count(he, "this bind is touchfw's own rebind"), 1);
	assert_non_null(log);
	assert_int_equal(count(log, "asking mchp_spi_ts to flash it (update_fw)"), 1);
	assert_int_equal(count(log, "verified: firmware"), 1);
	left_as_found();
	assert_int_equal(inputs(), 1);
	assert_false(staged_left());
}

static unsigned frames_passed(void)
{
	unsigned n;

	emub_lock(E.eb);
	n = mxt_model_stats(chip())->frames_passed;
	emub_unlock(E.eb);
	return n;
}

static void test_sigterm_mid_flash_undoes_spidev_and_rebinds(void **state)
{
	struct emub_child *child;
	const char *msg;
	int st;

	(void)state;
	realtime_next = true; /* a flash that takes long enough to stop */
	start("no-image", "always-on", NULL);
	child = e2e_spawn(&E, "run", "spi1.0", NULL);
	e2e_wait_until(frames_passed() >= 20, emub_child_pid(child), 60000,
		       "20 frames flashed");
	assert_int_equal(kill(emub_child_pid(child), SIGTERM), 0);
	assert_int_equal(emub_child_wait(child, 60000, &st), 0);
	msg = emub_child_stderr(child);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 19 || !strstr(msg, "stopped by SIGTERM"))
		fail_msg("expected exit 19 (interrupted):\n%s", msg);
	assert_non_null(strstr(msg, "spi: unbinding spidev and clearing driver_override"));
	emub_child_free(child);
	left_as_found();
	emub_lock(E.eb);
	assert_int_equal(mxt_model_mode(chip()), MXT_MODE_BOOTLOADER);
	emub_unlock(E.eb);
	/* the next run flashes it */
	e2e_expect(&E, 0, "run", "spi1.0");
	left_as_found();
	assert_int_equal(inputs(), 1);
}

static void test_chip_with_t144_is_flashed_with_data_crc_writes(void **state)
{
	struct mxt_spi_stats spi_st;

	(void)state;
	/* T144 in the object table: mchp_spi_ts CRCs its write data (14
	 * bytes a request), and so must touchfw -- its T6 0xA5 (enter the
	 * bootloader) is such a write; the chip model refuses a write whose
	 * data CRC is wrong or missing.  (The database's configuration is
	 * for the layout without T144, so none is written here; the
	 * multi-request writes are covered by test_mxt_spi.) */
	no_config_next = true;
	start("app", "always-on", "t144 = true\n");
	if (e2e_touchfw(&E, "run", "spi1.0") != 0)
		fail_msg("%s", E.err + (strlen(E.err) > 600 ? strlen(E.err) - 600 : 0));
	e2e_said(&E, "flashing: 100%");
	e2e_said(&E, "updated: firmware 1.0.AA -> 3.0.10");
	emub_lock(E.eb);
	assert_true(mxt_model_object(chip(), 144, NULL, NULL));
	assert_int_equal(mxt_model_mode(chip()), MXT_MODE_APP);
	assert_int_equal(mxt_model_fw_version(chip()), 0x30);
	spi_st = emub_spi_mxt(E.eb, "touchscreen")->stats;
	emub_unlock(E.eb);
	assert_true(spi_st.writes >= 1);
	assert_int_equal(spi_st.data_crc_errors, 0);
	assert_int_equal(spi_st.invalid, 0);
	assert_int_equal(spi_st.crc_errors, 0);
	left_as_found();
	assert_int_equal(inputs(), 1);
}

static void test_sigterm_during_update_fw_still_rebinds(void **state)
{
	struct emub_child *child;
	const char *msg;
	int st;

	(void)state;
	/* SIGTERM while mchp_spi_ts's update_fw write is blocked in the
	 * driver's flash: the write returns when the driver is done, and
	 * the driver must still be bound again -- it registers no input
	 * device by itself after update_fw */
	realtime_next = true;
	no_config_next = true;
	start("app", "driver", NULL);
	/* a part as fast as mchp_spi_ts's waits need: its bootloader up
	 * before the unlock, 5 + 1 ms after 0xA5, and a frame programmed
	 * before the next status read, 1 ms after FRAME_CRC_PASS (the
	 * model's defaults, 60 ms and 5 ms, are longer: in realtime pacing
	 * the driver's update would fail with -EINVAL) */
	emub_lock(E.eb);
	chip()->cfg.t.bl_enter_ns = 2 * 1000 * 1000;
	chip()->cfg.t.frame_prog_ns = 500 * 1000;
	emub_unlock(E.eb);
	child = e2e_spawn(&E, "flash", "--firmware", fw_file(), "spi1.0", NULL);
	e2e_wait_until(frames_passed() >= 20, emub_child_pid(child), 60000,
		       "20 frames flashed");
	assert_int_equal(kill(emub_child_pid(child), SIGTERM), 0);
	assert_int_equal(emub_child_wait(child, 60000, &st), 0);
	msg = emub_child_stderr(child);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 19 || !strstr(msg, "stopped by SIGTERM"))
		fail_msg("expected exit 19 (interrupted):\n%s", msg);
	assert_non_null(strstr(msg, "rebinding it"));
	assert_non_null(strstr(msg, "the driver bound again; not verified"));
	emub_child_free(child);
	/* the update went in; the new probe registered the input device */
	emub_lock(E.eb);
	assert_int_equal(mxt_model_mode(chip()), MXT_MODE_APP);
	assert_int_equal(mxt_model_fw_version(chip()), 0x30);
	emub_unlock(E.eb);
	left_as_found();
	assert_int_equal(inputs(), 1);
	assert_false(staged_left());
}

/*
 * `touchfw chip spi1.0 object|save-config|reset` exited 13 ("needs the
 * bus, which over spi only spidev reaches"): with power = "always-on"
 * touchfw takes the device from mchp_spi_ts for spidev, identifies the
 * chip, runs the same maXTouch operations as on i2c in the driver's spi
 * framing, and gives the device back -- each time.
 */
static void test_chip_object_save_config_and_reset_over_spidev(void **state)
{
	em_u16 t7 = 0, size = 0;
	em_u8 orig[2];
	unsigned resets, writes;
	char cfg[400], want[64], *text = NULL;
	size_t len;

	(void)state;
	start("app", "always-on", NULL);
	emub_lock(E.eb);
	assert_true(mxt_model_object(chip(), 7, &t7, &size));
	memcpy(orig, mxt_model_mem(chip(), NULL) + t7, 2);
	emub_unlock(E.eb);
	/* read: the bytes the chip holds */
	e2e_expect(&E, TF_EXIT_OK, "chip", "spi1.0", "object", "T7", "--json");
	snprintf(want, sizeof(want), "\"bytes\":[%u,%u", orig[0], orig[1]);
	assert_non_null(strstr(E.out, want));
	e2e_said(&E, "unbinding mchp_spi_ts, so that spidev can have the device");
	e2e_said(&E, "binding mchp_spi_ts again");
	left_as_found();
	assert_int_equal(inputs(), 1);
	/* write: into the chip's RAM, read back */
	e2e_expect(&E, TF_EXIT_OK, "chip", "spi1.0", "object", "T7", "--write", "0=0x21",
		   "--write", "1=7");
	e2e_said(&E, "T7[0] byte 0: ");
	e2e_said(&E, "-> 0x21");
	e2e_said(&E, "written to the chip's RAM and read back");
	emub_lock(E.eb);
	assert_int_equal(mxt_model_mem(chip(), NULL)[t7], 0x21);
	assert_int_equal(mxt_model_mem(chip(), NULL)[t7 + 1], 7);
	emub_unlock(E.eb);
	left_as_found();
	/* save-config: the running configuration, the written bytes and the
	 * chip's RAM config CRC in it */
	snprintf(cfg, sizeof(cfg), "%s/saved.cfg", E.dir);
	e2e_expect(&E, TF_EXIT_OK, "chip", "spi1.0", "save-config", cfg);
	assert_int_equal(tf_read_file(cfg, 1 << 20, &text, &len), 0);
	assert_non_null(strstr(text, "OBP_RAW V1\n"));
	snprintf(want, sizeof(want), "0007 0000 %04X 21 07", size);
	assert_non_null(strstr(text, want));
	emub_lock(E.eb);
	snprintf(want, sizeof(want), "\n%06X\n", mxt_model_config_crc(chip()));
	resets = mxt_model_stats(chip())->resets;
	emub_unlock(E.eb);
	assert_non_null(strstr(text, want));
	free(text);
	left_as_found();
	/* reset: a T6 reset over spidev; RAM back to what NVM holds */
	e2e_expect(&E, TF_EXIT_OK, "chip", "spi1.0", "reset", "--json");
	assert_non_null(strstr(E.out, "\"reset\":\"command\""));
	assert_non_null(strstr(E.out, "\"input\":\"input"));
	emub_lock(E.eb);
	assert_true(mxt_model_stats(chip())->resets > resets);
	assert_int_equal(mxt_model_mem(chip(), NULL)[t7], orig[0]);
	writes = mxt_model_stats(chip())->config_writes;
	emub_unlock(E.eb);
	left_as_found();
	assert_int_equal(inputs(), 1);
	/* bounds checked against the chip's table before anything is sent */
	e2e_expect(&E, TF_EXIT_USAGE, "chip", "spi1.0", "object", "T7", "--write", "200=1");
	e2e_said(&E, "offset 200 is past its end; nothing written");
	emub_lock(E.eb);
	assert_int_equal(mxt_model_stats(chip())->config_writes, writes);
	emub_unlock(E.eb);
	left_as_found();
}

/* info with power = "always-on": the bound driver's attributes (nothing
 * unbound); with no driver bound, the chip itself over spidev. */
static void test_chip_info_over_spidev_without_a_driver(void **state)
{
	char buf[64];

	(void)state;
	start("app", "always-on", NULL);
	e2e_expect(&E, TF_EXIT_OK, "chip", "spi1.0", "info");
	assert_non_null(strstr(E.out, "(the chip read through its attributes)"));
	e2e_not_said(&E, "unbinding");
	assert_int_equal(inputs(), 1);
	e2e_stop(&E);
	start("app", "always-on", "bound = false\n");
	e2e_expect(&E, TF_EXIT_OK, "chip", "spi1.0", "info");
	assert_non_null(strstr(E.out, "device:           spi1.0 (spi bus spi1"));
	assert_non_null(strstr(E.out, "(the chip read over spidev)"));
	assert_non_null(strstr(E.out, "mode:             application"));
	assert_non_null(strstr(E.out, "firmware:         1.0.AA"));
	/* let go again: unbound, no override, no node */
	assert_int_equal(emub_spi_driver(E.eb, "touchscreen", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	assert_int_equal(emub_spi_driver_override(E.eb, "touchscreen", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
}

static bool spidev_bound(void)
{
	char buf[64];

	return emub_spi_driver(E.eb, "touchscreen", buf, sizeof(buf)) == 0 &&
	       !strcmp(buf, "spidev");
}

/* A SIGTERM while spidev holds the device: the command ends its read and
 * gives the device back before it exits. */
static void test_chip_over_spidev_gives_the_device_back_on_sigterm(void **state)
{
	struct emub_child *child;
	char cfg[400];
	const char *msg;
	int st;

	(void)state;
	realtime_next = true; /* a read that takes long enough to stop */
	start("app", "always-on", NULL);
	snprintf(cfg, sizeof(cfg), "%s/saved.cfg", E.dir);
	child = e2e_spawn(&E, "chip", "spi1.0", "save-config", cfg, NULL);
	e2e_wait_until(spidev_bound(), emub_child_pid(child), 60000, "spidev bound");
	assert_int_equal(kill(emub_child_pid(child), SIGTERM), 0);
	assert_int_equal(emub_child_wait(child, 60000, &st), 0);
	msg = emub_child_stderr(child);
	if (!WIFEXITED(st) || !strstr(msg, "stopped by signal 15: the device was given back"))
		fail_msg("expected the device given back:\n%s", msg);
	emub_child_free(child);
	left_as_found();
	assert_int_equal(inputs(), 1);
}

/* A chip found in its bootloader is not written to; the driver is back. */
static void test_chip_object_write_over_spidev_needs_an_identified_chip(void **state)
{
	(void)state;
	start("no-image", "always-on", NULL);
	e2e_expect(&E, TF_EXIT_UNSUPPORTED, "chip", "spi1.0", "object", "T7", "--write", "0=1");
	e2e_said(&E, "the chip is not running its firmware");
	emub_lock(E.eb);
	assert_int_equal(mxt_model_mode(chip()), MXT_MODE_BOOTLOADER);
	assert_int_equal(mxt_model_stats(chip())->config_writes, 0);
	emub_unlock(E.eb);
	left_as_found();
}

/* power = "driver": the driver keeps the device; only info, said why. */
static void test_chip_over_spi_with_power_driver_is_refused(void **state)
{
	(void)state;
	start("app", "driver", NULL);
	e2e_expect(&E, TF_EXIT_UNSUPPORTED, "chip", "spi1.0", "object", "T7");
	e2e_said(&E, "the profile says the driver owns the power");
	e2e_said(&E, "set power = \"always-on\" in the profile");
	left_as_found();
	e2e_expect(&E, TF_EXIT_OK, "chip", "spi1.0", "info");
	assert_non_null(strstr(E.out, "firmware:         1.0.AA"));
}

/* A foreign driver_override: nothing taken over. */
static void test_chip_over_spi_leaves_a_foreign_override(void **state)
{
	char buf[64], path[600];

	(void)state;
	start("app", "always-on", "bound = false\n");
	snprintf(path, sizeof(path), "%s/sys/bus/spi/devices/spi1.0/driver_override",
		 emub_root(E.eb));
	e2e_write(path, "vendor_tool\n");
	emub_spi_settle(E.eb);
	e2e_expect(&E, TF_EXIT_UNSUPPORTED, "chip", "spi1.0", "reset");
	e2e_said(&E, "somebody else chose its driver");
	assert_int_equal(emub_spi_driver_override(E.eb, "touchscreen", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "vendor_tool");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_dry_run_does_not_take_the_device_from_its_driver,
					  teardown),
		cmocka_unit_test_teardown(test_probe_reads_an_unbound_chip_over_spidev,
					  teardown),
		cmocka_unit_test_teardown(test_run_flashes_a_chip_without_firmware, teardown),
		cmocka_unit_test_teardown(test_invalid_crc_reply_is_named_and_undone, teardown),
		cmocka_unit_test_teardown(test_power_driver_reads_the_chip_through_the_driver,
					  teardown),
		cmocka_unit_test_teardown(
			test_power_driver_flashes_through_update_fw_and_rebinds, teardown),
		cmocka_unit_test_teardown(test_power_driver_run_flashes_a_chip_without_firmware,
					  teardown),
		cmocka_unit_test_teardown(
			test_power_driver_flashes_and_configures_through_the_driver, teardown),
		cmocka_unit_test_teardown(
			test_power_driver_config_for_other_info_block_is_refused, teardown),
		cmocka_unit_test_teardown(
			test_power_driver_image_refused_leaves_the_bootloader_named, teardown),
		cmocka_unit_test_teardown(
			test_power_driver_without_a_new_input_device_fails_verify, teardown),
		cmocka_unit_test_teardown(
			test_kernel_without_spidev_is_named_and_driver_rebound, teardown),
		cmocka_unit_test_teardown(test_write_fail_reply_is_named_and_undone, teardown),
		cmocka_unit_test_teardown(test_foreign_driver_override_is_unsupported,
					  teardown),
		cmocka_unit_test_teardown(test_power_loss_midway_leaves_a_flashable_chip,
					  teardown),
		cmocka_unit_test_teardown(test_bind_event_of_mchp_spi_ts_updates_the_chip,
					  teardown),
		cmocka_unit_test_teardown(test_sigterm_mid_flash_undoes_spidev_and_rebinds,
					  teardown),
		cmocka_unit_test_teardown(
			test_bind_event_with_power_driver_updates_through_update_fw, teardown),
		cmocka_unit_test_teardown(test_sigterm_during_update_fw_still_rebinds,
					  teardown),
		cmocka_unit_test_teardown(test_chip_with_t144_is_flashed_with_data_crc_writes,
					  teardown),
		cmocka_unit_test_teardown(test_chip_object_save_config_and_reset_over_spidev,
					  teardown),
		cmocka_unit_test_teardown(
			test_chip_object_write_over_spidev_needs_an_identified_chip, teardown),
		cmocka_unit_test_teardown(test_chip_info_over_spidev_without_a_driver,
					  teardown),
		cmocka_unit_test_teardown(
			test_chip_over_spidev_gives_the_device_back_on_sigterm, teardown),
		cmocka_unit_test_teardown(test_chip_over_spi_with_power_driver_is_refused,
					  teardown),
		cmocka_unit_test_teardown(test_chip_over_spi_leaves_a_foreign_override,
					  teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
