// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Goodix Berlin over spi, end to end: the real touchfw on an emulated
 * board whose GT9916 (tests/emul/family/berlin/model/berlin_model.c, written from the
 * kernel driver and Goodix's updater independently of touchfw's agent)
 * sits on spi1.0 behind the emulator's goodix-berlin-spi, which -- as
 * goodix_berlin_core.c does -- fails its probe on a chip without firmware.
 * So the empty chip's add is the trigger: touchfw binds spidev through
 * driver_override, flashes by Goodix's ISP sequence, lets spidev go and
 * binds goodix-berlin-spi, whose input device proves the chip runs.  The
 * chip model judges every step (ISP load, packets and their sums, flash
 * commands); each test asserts touchfw's exit code, the chip's state and
 * what touchfw said, and that nothing of touchfw's is left behind.
 */
#include <dirent.h>

#include "emub-berlin.h"
#include "berlin_model.h"
#include "e2e.h"
#include "emuboard-spi.h"
#include "exitcode.h"

static struct e2e E;

static const char profile[] = "/dts-v1/;\n"
			      "/ {\n"
			      "	touchfw,profile-version = <1>;\n"
			      "	model = \"touchfw emulated gt9916 board\";\n"
			      "	board-compatible = \"touchfw,emul-berlin\";\n"
			      "	board-ids = \"touchfw,emul-berlin\";\n"
			      "	controllers {\n"
			      "		#address-cells = <1>;\n"
			      "		#size-cells = <0>;\n"
			      "		touchscreen@0 {\n"
			      "			family = \"berlin\";\n"
			      "			bus = \"spi\";\n"
			      "			adapter-name = \"emuboard-spi.1\";\n"
			      "			reg = <0>;\n"
			      "			driver = \"goodix-berlin-spi\";\n"
			      "			power = \"always-on\";\n"
			      "			spi-max-frequency = <8000000>;\n"
			      "			input-timeout-ms = <3000>;\n"
			      "		};\n"
			      "	};\n"
			      "};\n";

#define NEW_VID "01000002" /* the database's firmware (firmware-db/manifest.ini) */

/* The board: a GT9916 running @firmware ("none": empty), @extra chip
 * keys (faults), @spidev keys; @he: uevents run handle-event. */
static const char *pacing = "fast"; /* the next start()'s */

static void start(const char *firmware, const char *extra, const char *spidev, bool he)
{
	char *board = NULL, dir[280], dts[300], cmd[2000];

	assert_true(
		asprintf(&board,
			 "[board]\nname = berlin e2e\ncompatible = touchfw,emul-berlin\n"
			 "pacing = %s\n"
			 "[spi 1]\nmax_speed_hz = 50000000\n"
			 "[spi-chip touchscreen]\nbus = 1\nchip_select = 0\nmodel = gt9916\n"
			 "compatible = goodix,gt9916\ndriver = goodix-berlin-spi\n"
			 "bound = true\nberlin.firmware = %s\nberlin.pid = 9916\n"
			 "berlin.config_id = 0x11\nmax_speed_hz = 8000000\n%s"
			 "[spidev]\nbufsiz = 4096\n%s",
			 pacing, firmware, extra ? extra : "", spidev ? spidev : "") > 0);
	pacing = "fast";
	e2e_prepare(&E, board, he ? "" : NULL);
	free(board);
	snprintf(dir, sizeof(dir), "%s/boards", E.dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dts, sizeof(dts), "%s/berlin.dts", dir);
	e2e_write(dts, profile);
	snprintf(cmd, sizeof(cmd), "dtc -q -I dts -O dtb -o '%s/berlin.dtb' '%s' && rm '%s'",
		 dir, dts, dts);
	assert_int_equal(system(cmd), 0);
	snprintf(E.boards, sizeof(E.boards), "%s", dir);
	e2e_settings(&E, NULL);
	e2e_go(&E);
}

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

struct chip {
	enum berlin_mode mode;
	uint8_t vid[4];
	struct berlin_stats stats;
};

static struct chip chip(void)
{
	struct berlin_model *m;
	struct chip c;

	emub_lock(E.eb);
	m = emub_spi_berlin(E.eb, "touchscreen");
	assert_non_null(m);
	c.mode = berlin_model_mode(m);
	memcpy(c.vid, m->app_vid, 4);
	c.stats = m->stats;
	emub_unlock(E.eb);
	return c;
}

/* The chip runs the application with vid @vid (8 hex digits). */
static void runs(const char *vid)
{
	struct chip c = chip();
	char got[9];

	assert_int_equal(c.mode, BERLIN_APP);
	snprintf(got, sizeof(got), "%02X%02X%02X%02X", c.vid[0], c.vid[1], c.vid[2], c.vid[3]);
	assert_string_equal(got, vid);
}

/* The spi device's input devices (registered by goodix-berlin-spi). */
static int inputs(void)
{
	return e2e_spi_inputs(&E, "spi1.0");
}

static void driver_is(const char *want)
{
	char buf[64];

	assert_int_equal(emub_spi_driver(E.eb, "touchscreen", buf, sizeof(buf)), 0);
	assert_string_equal(buf, want);
}

/* Nothing of touchfw's left: no override, no spidev node. */
static void nothing_left(void)
{
	char buf[64], path[600];

	assert_int_equal(emub_spi_driver_override(E.eb, "touchscreen", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	snprintf(path, sizeof(path), "%s/dev/spidev1.0", emub_root(E.eb));
	assert_int_equal(access(path, F_OK), -1);
}

static void test_empty_chip_is_not_bound(void **state)
{
	(void)state;
	start("none", NULL, NULL, false);
	/* goodix-berlin-spi's probe failed: no driver, no input device */
	driver_is("");
	assert_int_equal(inputs(), 0);
	assert_int_equal(chip().mode, BERLIN_ROM);
	/* the chip as touchfw reads it (a dry run reads an unbound device) */
	e2e_expect(&E, 20, "probe", "spi1.0"); /* attention: a chip in its bootloader */
	assert_non_null(strstr(E.out, "bootloader"));
	driver_is("");
	nothing_left();
}

static void test_run_flashes_an_empty_chip_and_binds_the_driver(void **state)
{
	struct chip c;

	(void)state;
	start("none", NULL, NULL, false);
	e2e_expect(&E, 0, "run", "spi1.0");
	e2e_said(&E, "spi: bound spidev (/dev/spidev1.0)");
	e2e_said(&E, "empty chip: no firmware (patch pid NOCODE");
	e2e_said(&E, "firmware: install berlin-9916-fw-01000002");
	e2e_said(&E, "flashing berlin-9916-fw-01000002 (01000002) over /dev/spidev1.0");
	e2e_said(&E, "the chip started the new firmware");
	e2e_said(&E, "rebind: binding goodix-berlin-spi");
	e2e_said(&E, "updated: firmware (none) -> 01000002");
	runs(NEW_VID);
	c = chip();
	assert_true(c.stats.boots_isp >= 1);
	assert_true(c.stats.flash_writes > 1);
	assert_int_equal(c.stats.checksum_fails, 0);
	/* the driver took the chip: its input device is there */
	driver_is("goodix-berlin-spi");
	assert_int_equal(inputs(), 1);
	nothing_left();
	/* and a second run has nothing to do */
	e2e_expect(&E, 0, "run", "spi1.0");
	e2e_said(&E, "up to date");
	assert_int_equal(chip().stats.flash_writes, c.stats.flash_writes);
	driver_is("goodix-berlin-spi");
	nothing_left();
}

/* udev's add of the empty chip (no bind follows) reaches touchfw, which
 * flashes it and binds the driver: the whole job from the event. */
static void test_add_event_flashes_and_binds(void **state)
{
	char path[600], *log = NULL;
	size_t n;

	(void)state;
	start("none", NULL, NULL, true);
	driver_is("");
	/* as `udevadm trigger --action=add` does */
	snprintf(path, sizeof(path), "%s/sys/bus/spi/devices/spi1.0/uevent", emub_root(E.eb));
	e2e_write(path, "add\n");
	emub_spi_settle(E.eb);
	e2e_wait_run_done(&E, "spi1.0");
	snprintf(path, sizeof(path), "%s/he.log", E.dir);
	assert_int_equal(tf_read_file(path, 1 << 20, &log, &n), 0);
	e2e_keep(&E, log);
	if (!inputs())
		fail_msg("no input device; handle-event said:\n%s", log);
	assert_non_null(strstr(log, "add"));
	driver_is("goodix-berlin-spi");
	runs(NEW_VID);
	nothing_left();
}

static void test_current_chip_is_left_alone(void **state)
{
	(void)state;
	start(NEW_VID, NULL, NULL, false);
	driver_is("goodix-berlin-spi");
	e2e_expect(&E, 0, "run", "spi1.0");
	e2e_said(&E, "spi: unbinding goodix-berlin-spi, so that spidev can have the device");
	e2e_said(&E, "application mode: hardware 9916, firmware 01000002");
	e2e_said(&E, "firmware: keep");
	e2e_said(&E, "up to date (firmware 01000002)");
	assert_int_equal(chip().stats.flash_writes, 0);
	assert_int_equal(chip().stats.boots_isp, 0);
	runs(NEW_VID);
	driver_is("goodix-berlin-spi");
	assert_int_equal(inputs(), 1);
	nothing_left();
}

static void test_older_firmware_is_updated(void **state)
{
	(void)state;
	start("01000001", NULL, NULL, false);
	driver_is("goodix-berlin-spi");
	e2e_expect(&E, 0, "run", "spi1.0");
	e2e_said(&E, "application mode: hardware 9916, firmware 01000001");
	e2e_said(&E, "entering the bootloader (soft reset and CPU hold");
	e2e_said(&E, "updated: firmware 01000001 -> 01000002");
	runs(NEW_VID);
	driver_is("goodix-berlin-spi");
	assert_int_equal(inputs(), 1);
	nothing_left();
}

/* One packet's data check fails (status 0x33): retried, and the run
 * succeeds. */
static void test_isp_checksum_status_is_retried(void **state)
{
	(void)state;
	start("none", "fault.checksum_fail_at = 3\n", NULL, false);
	e2e_expect(&E, 0, "run", "spi1.0");
	assert_int_equal(chip().stats.checksum_fails, 1);
	runs(NEW_VID);
	driver_is("goodix-berlin-spi");
	nothing_left();
}

/* One flash command's own checksum is refused (ack 0x33): the packet is
 * sent again, and the run succeeds. */
static void test_refused_command_checksum_is_retried(void **state)
{
	(void)state;
	start("none", "fault.ack_fail_at = 2\n", NULL, false);
	e2e_expect(&E, 0, "run", "spi1.0");
	e2e_said(&E, "updated: firmware (none) -> 01000002");
	runs(NEW_VID);
	driver_is("goodix-berlin-spi");
	assert_int_equal(inputs(), 1);
	nothing_left();
}

/* Every packet's data check fails: three attempts, then a clean failure
 * naming the status; the chip keeps no firmware, nothing is left bound,
 * and once the fault is gone the next run flashes it. */
static void test_isp_checksum_status_always_fails_cleanly(void **state)
{
	struct berlin_model *m;

	(void)state;
	start("none", "fault.checksum_fail_always = true\n", NULL, false);
	e2e_expect(&E, TF_EXIT_BOOTLOADER, "run", "spi1.0");
	e2e_said(&E, "ISP status 0x33 (data checksum failed)");
	e2e_said(&E, "after 3 attempts");
	assert_int_equal(chip().stats.checksum_fails, 3);
	assert_true(chip().mode != BERLIN_APP);
	driver_is("");
	nothing_left();
	emub_lock(E.eb);
	m = emub_spi_berlin(E.eb, "touchscreen");
	m->faults.checksum_fail_always = false;
	emub_unlock(E.eb);
	e2e_expect(&E, 0, "run", "spi1.0");
	runs(NEW_VID);
	driver_is("goodix-berlin-spi");
	assert_int_equal(inputs(), 1);
	nothing_left();
}

/* The power drops halfway through a flash write: the run fails (the chip
 * in no state to run), nothing is left bound, and the chip -- its ROM
 * still there -- is flashed by the next run. */
static void test_power_loss_midway_then_rerun(void **state)
{
	(void)state;
	start("none", "fault.power_loss_at = 4\n", NULL, false);
	e2e_expect(&E, TF_EXIT_BOOTLOADER, "run", "spi1.0");
	assert_int_equal(chip().stats.power_losses, 1);
	assert_true(chip().mode != BERLIN_APP);
	driver_is("");
	nothing_left();
	e2e_expect(&E, 0, "run", "spi1.0");
	e2e_said(&E, "updated: firmware (none) -> 01000002");
	runs(NEW_VID);
	driver_is("goodix-berlin-spi");
	assert_int_equal(inputs(), 1);
	nothing_left();
}

/*
 * Issue 27 item 5: a run killed (SIGKILL, or a crash: no handler runs)
 * while it flashes over spidev leaves the device bound to spidev with
 * driver_override = spidev.  The next run puts back what the claim's
 * record says the device had -- spidev unbound, the override cleared,
 * goodix-berlin-spi bound -- and goes on to flash the chip.
 */
static void test_claim_left_by_a_killed_run_is_repaired(void **state)
{
	struct emub_child *child;
	char ovr[64];
	int st;

	(void)state;
	pacing = "realtime";
	start("01000001", NULL, NULL, false);
	driver_is("goodix-berlin-spi");
	child = e2e_spawn(&E, "run", "spi1.0", NULL);
	e2e_wait_until(chip().stats.flash_writes >= 1, emub_child_pid(child), 60000,
		       "the first flash write");
	assert_int_equal(kill(emub_child_pid(child), SIGKILL), 0);
	assert_int_equal(emub_child_wait(child, 30000, &st), 0);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	emub_child_free(child);
	/* what the killed run left */
	driver_is("spidev");
	assert_int_equal(emub_spi_driver_override(E.eb, "touchscreen", ovr, sizeof(ovr)), 0);
	assert_string_equal(ovr, "spidev");
	/* the next run repairs it and flashes */
	e2e_expect(&E, 0, "run", "spi1.0");
	e2e_said(&E,
		 "repaired what an interrupted run left: unbound spidev from spi1.0; "
		 "cleared spi1.0's driver_override (spidev); bound goodix-berlin-spi again");
	e2e_said(&E, "updated: firmware");
	runs(NEW_VID);
	driver_is("goodix-berlin-spi");
	assert_int_equal(inputs(), 1);
	nothing_left();
	/* nothing left to repair after a run that ended */
	e2e_expect(&E, 0, "run", "spi1.0");
	e2e_not_said(&E, "repaired");
}

static void test_kernel_without_spidev_is_named(void **state)
{
	(void)state;
	start("01000001", NULL, "available = false\n", false);
	e2e_expect(&E, TF_EXIT_NO_DEVICE, "run", "spi1.0");
	e2e_said(&E, "spi1.0: no spidev driver in /sys/bus/spi/drivers");
	assert_int_equal(chip().stats.flash_writes, 0);
	runs("01000001");
	/* the driver that let go is bound again */
	driver_is("goodix-berlin-spi");
	assert_int_equal(inputs(), 1);
	nothing_left();
}

/* A damaged file in the database (one byte off, the manifest's hash made
 * to match): refused before the chip is touched, naming the checksum. */
static void test_bad_file_in_db_is_refused_before_the_chip(void **state)
{
	char path[600], cmd[1400];
	FILE *f;
	int c;

	(void)state;
	start("none", NULL, NULL, false);
	e2e_private_db(&E);
	snprintf(path, sizeof(path), "%s/berlin/gt9916-fw-01000002.bin", E.db);
	f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, 1000, SEEK_SET), 0);
	c = fgetc(f);
	assert_int_equal(fseek(f, 1000, SEEK_SET), 0);
	fputc(c ^ 0x5a, f);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && rm -f manifest.ini.sig && s=$(sha256sum "
		 "berlin/gt9916-fw-01000002.bin | cut -d' ' -f1) && sed -i "
		 "'/^\\[berlin-9916-fw-01000002\\]/,/^sha256/s/^sha256 = .*/sha256 = '$s'/' "
		 "manifest.ini",
		 E.db);
	assert_int_equal(system(cmd), 0);
	/* the build signed the original: this database is an unsigned one */
	e2e_settings(&E, "signatures = off");
	assert_int_equal(e2e_touchfw(&E, "db", "check", "--db", E.db, "--signatures", "off"),
			 TF_EXIT_DB_INVALID);
	assert_non_null(
		strstr(E.out, "berlin/gt9916-fw-01000002.bin: checksum: the header says"));
	e2e_expect(&E, TF_EXIT_DB_INVALID, "run", "spi1.0");
	e2e_said(&E, "checksum: the header says");
	assert_int_equal(chip().stats.flash_writes, 0);
	assert_int_equal(chip().stats.boots_isp, 0);
	assert_int_equal(chip().mode, BERLIN_ROM);
	driver_is("");
	nothing_left();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_empty_chip_is_not_bound, teardown),
		cmocka_unit_test_teardown(test_run_flashes_an_empty_chip_and_binds_the_driver,
					  teardown),
		cmocka_unit_test_teardown(test_add_event_flashes_and_binds, teardown),
		cmocka_unit_test_teardown(test_current_chip_is_left_alone, teardown),
		cmocka_unit_test_teardown(test_older_firmware_is_updated, teardown),
		cmocka_unit_test_teardown(test_isp_checksum_status_is_retried, teardown),
		cmocka_unit_test_teardown(test_refused_command_checksum_is_retried, teardown),
		cmocka_unit_test_teardown(test_isp_checksum_status_always_fails_cleanly,
					  teardown),
		cmocka_unit_test_teardown(test_power_loss_midway_then_rerun, teardown),
		cmocka_unit_test_teardown(test_kernel_without_spidev_is_named, teardown),
		cmocka_unit_test_teardown(test_claim_left_by_a_killed_run_is_repaired,
					  teardown),
		cmocka_unit_test_teardown(test_bad_file_in_db_is_refused_before_the_chip,
					  teardown),
	};

	return cmocka_run_group_tests_name("e2e_berlin", tests, NULL, NULL);
}
