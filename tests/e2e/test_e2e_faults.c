// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every fault the emulator can inject, and bad inputs: each test asserts
 * touchfw's exit code, the chip's state afterwards (recoverable: bootloader
 * or old firmware, never half-done silently) and the message.
 */
#include <signal.h>
#include <sys/inotify.h>
#include <sys/wait.h>

#include "emub-mxt.h"
#include "e2e.h"
#include "exitcode.h"

static struct e2e E;

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

static void start_model(const char *compat, const char *model, const char *state,
			const char *fw, const char *power, const char *extra)
{
	char *b = e2e_board(compat, model, state, fw, power, extra);

	assert_non_null(b);
	e2e_start(&E, b);
	free(b);
}

static void start(const char *state, const char *extra)
{
	start_model("touchfw,emul-demo", "mxt224e", state, "1.0.AA", "driver", extra);
}

/* ------------------------------------------------------------ chip faults */

static void test_fault_nak_everywhere_is_no_device(void **state)
{
	(void)state;
	start("app", NULL);
	assert_int_equal(emub_set_nak(E.eb, 1, 0x4a, true), 0);
	assert_int_equal(emub_set_nak(E.eb, 1, 0x24, true), 0);
	assert_int_equal(emub_set_nak(E.eb, 1, 0x26, true), 0);
	e2e_expect(&E, 3, "run", "1-004a");
	e2e_said(&E, "no answer at 0x4a (application) nor 0x24/0x26 (bootloader)");
	assert_int_equal(e2e_chip(&E).mode, MXT_MODE_APP);
}

static void test_fault_crc_fail_once_is_retried(void **state)
{
	char *json;

	(void)state;
	start("no-image", "fault.crc_fail_frame = 3\nfault.crc_fail_times = 1\n");
	e2e_expect(&E, 0, "run", "1-004a");
	assert_int_equal(e2e_chip(&E).version, 0x21);
	assert_int_equal(e2e_chip(&E).stats.frames_failed, 1);
	json = e2e_state_file(&E, "1-004a.json");
	assert_non_null(strstr(json, "\"retries\":1"));
	free(json);
}

static void test_fault_crc_fail_always_leaves_bootloader(void **state)
{
	struct e2e_chip c;

	(void)state;
	start("no-image", "fault.crc_fail_always = true\n");
	e2e_expect(&E, 11, "run", "1-004a");
	e2e_said(&E, "failed 20 times");
	e2e_said(&E, "the next bind or 'touchfw run 1-004a' flashes it again");
	c = e2e_chip(&E);
	assert_int_equal(c.mode, MXT_MODE_BOOTLOADER);
	assert_int_equal(c.stats.frames_failed, 21);
}

static void test_fault_stuck_in_bootloader_is_bounded(void **state)
{
	(void)state;
	start("no-image", "fault.stuck_in_bootloader = true\n");
	e2e_expect(&E, 11, "run", "1-004a");
	e2e_said(&E, "did not start the new firmware");
	assert_int_equal(e2e_chip(&E).mode, MXT_MODE_BOOTLOADER);
	assert_int_equal(e2e_chip(&E).stats.images_completed, 1);
}

/*
 * A host descheduled for 100 ms between transfers (a loaded machine) reads
 * the last frame's verdict late.  Two bootloader behaviours exist (see
 * mxt_model.h final_reset_unread): the verdict is held until read, or the
 * chip resets on its own and the verdict is missed, not the image.  Either
 * way what the chip started decides: the new firmware (success), or the
 * bootloader again (left in bootloader, as with a prompt host).
 */
static void slow_host_flashes(const char *board_extra)
{
	start("no-image", board_extra);
	assert_int_equal(emub_set_host_delay(E.eb, 1, 100000), 0);
	e2e_expect(&E, 0, "run", "1-004a");
	assert_int_equal(e2e_chip(&E).version, 0x21);
	assert_int_equal(e2e_chip(&E).stats.images_completed, 1);
	assert_int_equal(e2e_chip(&E).stats.frames_failed, 0);
}

static void test_slow_host_reads_the_held_last_verdict_and_flashes(void **state)
{
	(void)state;
	slow_host_flashes(NULL);
}

static void test_slow_host_missing_the_last_verdict_still_flashes(void **state)
{
	(void)state;
	slow_host_flashes("bl_final_reset_unread = true\n");
}

static void slow_host_stuck_chip(const char *board_extra)
{
	start("no-image", board_extra);
	assert_int_equal(emub_set_host_delay(E.eb, 1, 100000), 0);
	e2e_expect(&E, 11, "run", "1-004a");
	e2e_said(&E, "did not start the new firmware");
	assert_int_equal(e2e_chip(&E).mode, MXT_MODE_BOOTLOADER);
	assert_int_equal(e2e_chip(&E).stats.images_completed, 1);
}

static void test_slow_host_stuck_chip_is_left_in_bootloader(void **state)
{
	(void)state;
	slow_host_stuck_chip("fault.stuck_in_bootloader = true\n");
}

static void test_slow_host_stuck_chip_unread_variant_is_left_in_bootloader(void **state)
{
	(void)state;
	slow_host_stuck_chip("fault.stuck_in_bootloader = true\n"
			     "bl_final_reset_unread = true\n");
}

static void test_fault_power_loss_then_next_run_recovers(void **state)
{
	(void)state;
	start("no-image", "fault.power_loss_after = 20\n");
	e2e_expect(&E, 11, "run", "1-004a");
	e2e_said(&E, "restarted");
	assert_int_equal(e2e_chip(&E).mode, MXT_MODE_BOOTLOADER);
	assert_int_equal(e2e_chip(&E).stats.power_losses, 1);
	/* The fault fires once; the next attempt flashes from the start. */
	e2e_expect(&E, 0, "run", "1-004a");
	assert_int_equal(e2e_chip(&E).version, 0x21);
}

static void test_fault_power_loss_during_unbind_flash(void **state)
{
	(void)state;
	start_model("touchfw,emul-always-on", "mxt224e", "app", "1.0.AA", "always-on",
		    "fault.power_loss_after = 5\n");
	e2e_expect(&E, 11, "run", "1-004a");
	/* touchfw bound the driver again: it sees a bootloader chip. */
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	e2e_expect(&E, 0, "run", "1-004a");
	assert_int_equal(e2e_chip(&E).version, 0x21);
}

static void test_fault_slow_chip_in_realtime(void **state)
{
	char *b = e2e_board("touchfw,emul-always-on", "mxt224e", "app", "2.1.AB", "always-on",
			    "fault.slow_factor = 10\n");
	char *p;

	(void)state;
	/*
	 * Config-only update in real time with every device operation 10x
	 * slower than the datasheet (a backup ~250 ms, a reset ~400 ms):
	 * touchfw waits, it does not give up.  No reset line is wired: atmel's
	 * probe resets the chip and reads it 170 ms later, which such a slow
	 * chip would fail -- the kernel's problem, not touchfw's.
	 */
	assert_non_null(b);
	p = strstr(b, "reset_gpio = 0\n");
	assert_non_null(p);
	memmove(p, p + 15, strlen(p + 15) + 1);
	e2e_prepare(&E, b, NULL);
	free(b);
	e2e_settings(&E, "input_timeout_ms = 20000");
	emub_set_realtime(E.eb, true);
	e2e_go(&E);
	/* udev's bind comes after the probe. */
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 20000), 0);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	e2e_expect(&E, 0, "run", "1-004a");
	assert_int_equal(e2e_chip(&E).nvm_crc, 0xE67ACA);
}

static void test_fault_slow_chip_is_waited_for_after_the_reset_pulse(void **state)
{
	char *b = e2e_board("touchfw,emul-always-on", "mxt224e", "app", "1.0.AA", "always-on",
			    NULL);
	struct emub_child *child;
	int st;

	(void)state;
	/*
	 * The unbind path in real time with a chip that, once bound, turns
	 * 10x slower than the datasheet: after touchfw's reset pulse it starts
	 * ~400 ms after the release, later than the 100 ms the family gives
	 * it (the least the kernel waits, MXT_RESET_INVALID_CHG).  touchfw
	 * waits for it (CHG, or detection with a deadline) instead of finding
	 * nothing at 100 ms.  (At 3x, ~120 ms, a touchfw that a loaded machine
	 * let run 20 ms late found the chip already up and had nothing to
	 * wait for, and the test failed; 300 ms of margin hold at a load of
	 * 15 on two cores.)  Once the first frame is in, the chip is at its
	 * datasheet's pace again, so the flash and the rebound driver's probe
	 * take their usual time.
	 */
	assert_non_null(b);
	e2e_prepare(&E, b, NULL);
	free(b);
	e2e_settings(&E, "input_timeout_ms = 20000");
	emub_set_realtime(E.eb, true);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 20000), 0);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	emub_lock(E.eb);
	emub_chip_mxt(E.eb, "touchscreen")->cfg.faults.slow_factor = 10;
	emub_unlock(E.eb);
	child = e2e_spawn(&E, "run", "1-004a", NULL);
	e2e_wait_until(e2e_chip(&E).stats.frames_passed >= 1, emub_child_pid(child), 60000,
		       "the first frame flashed");
	emub_lock(E.eb);
	emub_chip_mxt(E.eb, "touchscreen")->cfg.faults.slow_factor = 1;
	emub_unlock(E.eb);
	assert_int_equal(emub_child_wait(child, 60000, &st), 0);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) != 0)
		fail_msg("exit %d:\n%s", WEXITSTATUS(st), emub_child_stderr(child));
	assert_non_null(strstr(emub_child_stderr(child),
			       "unbinding atmel_mxt_ts (power is always on)"));
	/* Before touchfw waited, it found no chip at all (exit 3). */
	if (!strstr(emub_child_stderr(child), "ms after the reset's minimum"))
		fail_msg("touchfw did not wait for the chip after its reset pulse:\n%s",
			 emub_child_stderr(child));
	emub_child_free(child);
	assert_int_equal(e2e_chip(&E).version, 0x21);
}

static void test_fault_driver_binds_without_input(void **state)
{
	(void)state;
	start("no-image", "fault.no_input = true\n");
	/* emul-demo sets no input-timeout-ms: the settings' value applies */
	e2e_settings(&E, "input_timeout_ms = 700");
	e2e_expect(&E, 12, "run", "1-004a");
	e2e_said(&E, "waiting up to 700 ms for the application-mode input device");
	e2e_said(&E, "no new input device within");
	/* The firmware itself went in: the chip runs it. */
	assert_int_equal(e2e_chip(&E).version, 0x21);
}

static void test_fault_corrupt_info_block_is_not_our_chip(void **state)
{
	(void)state;
	/* Always powered: atmel's probe fails on the bad CRC, and a driver
	 * that owns the supply would leave the chip off. */
	start_model("touchfw,emul-always-on", "mxt224e", "app", "1.0.AA", "always-on",
		    "fault.corrupt_info_crc = true\nbound = false\n");
	e2e_expect(&E, 13, "run", "1-004a");
	e2e_said(&E, "info block CRC mismatch");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

static void test_driver_unbound_mid_flash_ends_cleanly(void **state)
{
	char *b = e2e_board("touchfw,emul-demo", "mxt224e", "no-image", "1.0.AA", "driver",
			    NULL);
	struct emub_child *child;
	int st;

	(void)state;
	/* Real time, so the flash takes a couple of seconds; someone unloads
	 * the driver in the middle, which (power = driver) cuts the supply. */
	e2e_prepare(&E, b, NULL);
	free(b);
	emub_set_realtime(E.eb, true);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 20000), 0);
	child = e2e_spawn(&E, "run", "1-004a", NULL);
	e2e_wait_until(e2e_chip(&E).stats.frames_passed >= 30, emub_child_pid(child), 60000,
		       "30 frames flashed");
	assert_int_equal(emub_unbind(E.eb, "touchscreen"), 0);
	assert_int_equal(emub_child_wait(child, 30000, &st), 0);
	assert_true(WIFEXITED(st));
	/* Left in its bootloader (unpowered now): said so, exit 11. */
	assert_int_equal(WEXITSTATUS(st), 11);
	assert_non_null(strstr(emub_child_stderr(child), "flashes it again"));
	emub_child_free(child);
	assert_false(e2e_chip(&E).app_valid);
}

/*
 * Issue 15 item 2: unbinding a driver-powered chip mid-flash is an
 * interruption, not the chip's verdict on the blob.  Twice used to record
 * two blob failures in the persistent state, and the only firmware was
 * refused from then on (across reboots); now each counts as an attempt
 * only and the third run flashes.
 */
static void test_unbind_storm_does_not_blacklist_the_firmware(void **state)
{
	char *b = e2e_board("touchfw,emul-demo", "mxt224e", "no-image", "1.0.AA", "driver",
			    NULL);
	struct emub_child *child;
	int st;

	(void)state;
	e2e_prepare(&E, b, NULL);
	free(b);
	emub_set_realtime(E.eb, true);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 20000), 0);
	for (int i = 0; i < 2; i++) {
		unsigned before = e2e_chip(&E).stats.frames_passed;

		child = e2e_spawn(&E, "run", "1-004a", NULL);
		e2e_wait_until(e2e_chip(&E).stats.frames_passed >= before + 20,
			       emub_child_pid(child), 60000, "20 more frames flashed");
		assert_int_equal(emub_unbind(E.eb, "touchscreen"), 0);
		assert_int_equal(emub_child_wait(child, 30000, &st), 0);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 11);
		assert_non_null(strstr(emub_child_stderr(child), "attempt only"));
		emub_child_free(child);
		/* Power comes back with the driver. */
		assert_int_equal(emub_bind(E.eb, "touchscreen"), 0);
		assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 20000), 0);
		assert_false(e2e_chip(&E).app_valid);
	}
	e2e_expect(&E, 0, "run", "1-004a");
	assert_true(e2e_chip(&E).app_valid);
}

/* ------------------------------------------------------------ bad inputs */

static void test_missing_manifest(void **state)
{
	char path[400];

	(void)state;
	start("no-image", NULL);
	e2e_private_db(&E);
	snprintf(path, sizeof(path), "%s/manifest.ini", E.db);
	assert_int_equal(unlink(path), 0);
	e2e_expect(&E, 6, "run", "1-004a");
	e2e_said(&E, "manifest.ini");
	assert_int_equal(e2e_chip(&E).mode, MXT_MODE_BOOTLOADER);
}

static void test_corrupt_manifest_names_the_line(void **state)
{
	char path[400], where[100];
	unsigned lines = 0;
	char *buf = NULL;
	size_t len;
	FILE *f;

	(void)state;
	start("no-image", NULL);
	e2e_private_db(&E);
	snprintf(path, sizeof(path), "%s/manifest.ini", E.db);
	assert_int_equal(tf_read_file(path, 1 << 20, &buf, &len), 0);
	assert_true(len > 0 && buf[len - 1] == '\n');
	for (size_t i = 0; i < len; i++)
		lines += buf[i] == '\n';
	free(buf);
	f = fopen(path, "a");
	fputs("[broken]\ntype = firmware\nfamliy = mxt\n", f);
	fclose(f);
	/* The build signed the original: checking signatures would fail
	 * first, so switch them off to see the parser's message. */
	e2e_settings(&E, "signatures = off");
	e2e_expect(&E, 6, "run", "1-004a");
	/* the bad key is the third line appended */
	snprintf(where, sizeof(where), "manifest.ini:%u: [broken] unknown key 'famliy'",
		 lines + 3);
	e2e_said(&E, where);
}

static void test_tampered_manifest_fails_its_signature(void **state)
{
	char path[400];
	FILE *f;

	(void)state;
	start("no-image", NULL);
	e2e_private_db(&E);
	snprintf(path, sizeof(path), "%s/manifest.ini", E.db);
	f = fopen(path, "a");
	fputs("; an innocent comment\n", f);
	fclose(f);
	e2e_settings(&E, "signatures = required");
	e2e_expect(&E, 6, "run", "1-004a");
	/* exit 6 is any database error: it must be the signature */
	e2e_said(&E, "manifest.ini.sig:1: signature by 'build-demo' does not verify");
	e2e_said(&E, "manifest.ini was changed after signing");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

static void test_blob_hash_mismatch_writes_nothing(void **state)
{
	char path[400];
	FILE *f;

	(void)state;
	start("no-image", NULL);
	e2e_private_db(&E);
	snprintf(path, sizeof(path), "%s/mxt224e/fw-2.1.AB.fw", E.db);
	f = fopen(path, "r+");
	fseek(f, 1000, SEEK_SET);
	fputc(0x5a, f);
	fclose(f);
	e2e_expect(&E, 6, "run", "1-004a");
	e2e_said(&E, "fw-2.1.AB.fw");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
	assert_int_equal(e2e_chip(&E).mode, MXT_MODE_BOOTLOADER);
}

static void write_bytes(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
}

static void gen(const char *args, const char *out)
{
	char cmd[1000];

	snprintf(cmd, sizeof(cmd), "'%s/fwgen' %s -o '%s'", E.build, args, out);
	assert_int_equal(system(cmd), 0);
}

static void test_truncated_fw_file(void **state)
{
	char path[400];
	char *buf = NULL;
	size_t len;

	(void)state;
	start("no-image", NULL);
	snprintf(path, sizeof(path), "%s/x.fw", E.dir);
	gen("image --chip mxt224e --version 2.2.00 --size 3000", path);
	assert_int_equal(tf_read_file(path, 1 << 20, &buf, &len), 0);
	write_bytes(path, buf, len - 10);
	free(buf);
	e2e_expect(&E, 7, "flash", "--firmware", path, "1-004a");
	e2e_said(&E, "truncated");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

static void test_enc_odd_length_and_non_hex(void **state)
{
	char path[400];
	char *buf = NULL;
	size_t len;

	(void)state;
	start("no-image", NULL);
	snprintf(path, sizeof(path), "%s/x.enc", E.dir);
	gen("image --chip mxt224e --version 2.2.00 --size 3000 --enc", path);
	assert_int_equal(tf_read_file(path, 1 << 20, &buf, &len), 0);
	write_bytes(path, buf, len - 2); /* drop newline and one digit */
	e2e_expect(&E, 7, "flash", "--firmware", path, "1-004a");
	e2e_said(&E, "odd number of hex digits");
	buf[100] = 'Z';
	write_bytes(path, buf, len);
	free(buf);
	e2e_expect(&E, 7, "flash", "--firmware", path, "1-004a");
	e2e_said(&E, "byte 100");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

/* i2c-dev transactions on adapter 1 so far (touchfw's, not the driver's). */
static uint64_t user_transactions(void)
{
	struct emub_bus_counters user, drv;

	assert_int_equal(emub_adapter_counters(E.eb, 1, &user, &drv), 0);
	return user.transactions;
}

static void test_flash_dry_run_reads_and_checks_its_files(void **state)
{
	char fw[400], other[400], want[700];
	struct e2e_chip c;
	uint64_t t;

	(void)state;
	start("no-image", NULL);
	snprintf(fw, sizeof(fw), "%s/firmware-db/mxt224e/fw-2.1.AB.fw", E.build);
	snprintf(other, sizeof(other), "%s/firmware-db/mxt1664s/fw-3.0.10.enc", E.build);
	/* A valid image: what would be written, and by which path. */
	e2e_expect(&E, 0, "flash", "--dry-run", "--firmware", fw, "1-004a");
	snprintf(want, sizeof(want),
		 "dry run: would flash firmware %s (50531 bytes) at the "
		 "bootloader address 0x24 (the chip is in bootloader mode; atmel_mxt_ts stays "
		 "bound); leaving the chip alone",
		 fw);
	e2e_said(&E, want);
	e2e_not_said(&E, "would install no firmware");
	/* An image for another chip parses (its frames are opaque to a host:
	 * only the bootloader can refuse them); it is named, not ignored. */
	assert_int_equal(e2e_touchfw(&E, "flash", "--dry-run", "--firmware", other, "1-004a"),
			 0);
	snprintf(want, sizeof(want), "would flash firmware %s (67363 bytes)", other);
	e2e_said(&E, want);
	/* Bad files are refused before the device is touched. */
	t = user_transactions();
	assert_int_equal(e2e_touchfw(&E, "flash", "--dry-run", "--firmware", "/nonexistent.fw",
				     "1-004a"),
			 7);
	e2e_said(&E, "/nonexistent.fw: No such file or directory (exit 7, bad-input)");
	assert_int_equal(e2e_touchfw(&E, "flash", "--dry-run", "--firmware", "/etc/passwd",
				     "1-004a"),
			 7);
	e2e_said(&E, "/etc/passwd: firmware image truncated");
	e2e_expect(&E, 7, "flash", "--firmware", "/etc/passwd", "1-004a");
	e2e_not_said(&E, "bootloader mode");
	assert_int_equal(e2e_touchfw(&E, "flash", "--dry-run", "--config", "/etc/passwd",
				     "1-004a"),
			 7);
	e2e_said(&E, "/etc/passwd: ");
	assert_true(user_transactions() == t);
	c = e2e_chip(&E);
	assert_int_equal(c.mode, MXT_MODE_BOOTLOADER);
	assert_int_equal(c.stats.frames_passed, 0);
}

static void test_flash_dry_run_compares_the_config_crc_with_the_chip(void **state)
{
	char cfg[400], other[400], want[700];
	unsigned crc = 0;
	uint32_t writes, chip_crc;
	FILE *f;

	(void)state;
	start_model("touchfw,emul-demo", "mxt224e", "app", "1.0.AA", "driver", NULL);
	snprintf(cfg, sizeof(cfg), "%s/new.cfg", E.dir);
	gen("config --chip mxt224e --version 1.0.AA --tag 7", cfg);
	f = fopen(cfg, "r");
	assert_non_null(f);
	/* OBP_RAW V1: magic, info bytes, info-block CRC, config CRC */
	assert_int_equal(fscanf(f, "OBP_RAW V1 %*x %*x %*x %*x %*x %*x %*x %*x %x", &crc), 1);
	fclose(f);
	snprintf(other, sizeof(other), "%s/other.cfg", E.dir);
	gen("config --chip mxt1664s --version 3.0.10", other);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	writes = e2e_chip(&E).stats.config_writes;
	chip_crc = e2e_chip(&E).ram_crc; /* what the chip reports (T6) */
	assert_int_not_equal(chip_crc, crc);
	e2e_expect(&E, 0, "flash", "--dry-run", "--config", cfg, "1-004a");
	snprintf(want, sizeof(want),
		 "dry run: would write config %s (CRC 0x%06X; the chip has "
		 "0x%06X); leaving the chip alone",
		 cfg, crc, chip_crc);
	e2e_said(&E, want);
	/* For another chip: the same check a real flash makes. */
	e2e_expect(&E, 7, "flash", "--dry-run", "--config", other, "1-004a");
	e2e_said(&E, "config is for family 162 variant 6, the chip is 129.1");
	assert_int_equal(e2e_chip(&E).stats.config_writes, writes);
	assert_int_equal(e2e_chip(&E).ram_crc, chip_crc);
}

/* The sentence of @text after "1-004a: " on the line holding @needle,
 * without the exit note: what a run decided. */
static char *decision_line(const char *text, const char *needle)
{
	const char *at = text ? strstr(text, needle) : NULL, *end;

	if (!at)
		fail_msg("expected \"%s\" in:\n%s", needle, text ? text : "(none)");
	end = strstr(at, " (exit ");
	if (!end)
		end = at + strcspn(at, "\n");
	return strndup(at, (size_t)(end - at));
}

/*
 * A dry run decides as the real flash does, up to its first write (issue
 * 26 item 7): a configuration alone for a chip in its bootloader was
 * "would write config ... (but it can not ...)", exit 0, where flash then
 * exited 11.  Now both exit 11 with the same reason, and neither writes.
 * Without a profile, the power the command line did not give is said to
 * be assumed.
 */
static void test_flash_dry_run_predicts_the_flash(void **state)
{
	char cfg[400], *dry, *real;

	(void)state;
	start("no-image", NULL);
	snprintf(cfg, sizeof(cfg), "%s/firmware-db/mxt224e/cfg-2.1.AB.cfg", E.build);
	e2e_expect(&E, TF_EXIT_BOOTLOADER, "flash", "--dry-run", "--config", cfg, "1-004a");
	e2e_not_said(&E, "would write");
	dry = e2e_keep(&E, decision_line(E.err, "the chip is in its bootloader ("));
	e2e_expect(&E, TF_EXIT_BOOTLOADER, "flash", "--config", cfg, "1-004a");
	real = e2e_keep(&E, decision_line(E.err, "the chip is in its bootloader ("));
	assert_string_equal(dry, real);
	assert_non_null(strstr(real, "a configuration alone can not be written"));
	assert_int_equal(e2e_chip(&E).mode, MXT_MODE_BOOTLOADER);
	assert_int_equal(e2e_chip(&E).stats.config_writes, 0);
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
	e2e_stop(&E);

	/* no profile, no --always-on: the driver's power is an assumption */
	start_model("vendor,unknown-board", "mxt224e", "app", "1.0.AA", "driver", NULL);
	snprintf(cfg, sizeof(cfg), "%s/firmware-db/mxt224e/cfg-2.1.AB.cfg", E.build);
	e2e_touchfw(&E, "flash", "--dry-run", "--config", cfg, "1-004a");
	e2e_said(&E, "no board profile: family mxt at 0x4a, power driver (assumed without "
		     "--always-on: the driver is never unbound)");
	e2e_not_said(&E, "(command line)");
	e2e_touchfw(&E, "flash", "--dry-run", "--always-on", "--config", cfg, "1-004a");
	e2e_said(&E, "power always-on (--always-on)");
}

static void test_obp_raw_for_another_chip(void **state)
{
	char path[400];
	uint32_t writes;

	(void)state;
	start_model("touchfw,emul-demo", "mxt224e", "app", "2.1.AB", "driver", NULL);
	snprintf(path, sizeof(path), "%s/other.cfg", E.dir);
	gen("config --chip mxt1664s --version 3.0.10", path);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	writes = e2e_chip(&E).stats.config_writes; /* the driver's own T7 fix-up */
	e2e_expect(&E, 7, "flash", "--config", path, "1-004a");
	e2e_said(&E, "config is for family 162 variant 6, the chip is 129.1");
	assert_int_equal(e2e_chip(&E).stats.config_writes, writes);
}

static void test_obp_raw_for_other_firmware_needs_force(void **state)
{
	char path[400];
	unsigned cfg_crc = 0;
	uint32_t writes;
	FILE *f;

	(void)state;
	start_model("touchfw,emul-demo", "mxt224e", "app", "2.1.AB", "driver", NULL);
	snprintf(path, sizeof(path), "%s/old.cfg", E.dir);
	gen("config --chip mxt224e --version 1.0.AA", path);
	/* OBP_RAW V1: magic, info bytes, info-block CRC, config CRC */
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "OBP_RAW V1 %*x %*x %*x %*x %*x %*x %*x %*x %x", &cfg_crc),
			 1);
	fclose(f);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	assert_int_not_equal(e2e_chip(&E).nvm_crc, cfg_crc);
	writes = e2e_chip(&E).stats.config_writes; /* the driver's own T7 fix-up */
	e2e_expect(&E, 7, "flash", "--config", path, "1-004a");
	e2e_said(&E, "info-block CRC");
	assert_int_equal(e2e_chip(&E).stats.config_writes, writes);
	e2e_expect(&E, 0, "flash", "--force", "--config", path, "1-004a");
	/* forced: the config really went to the chip and into its NVM (a
	 * rebind alone adds config writes too: the driver's T7 fix-up) */
	assert_true(e2e_chip(&E).stats.config_writes > writes);
	assert_int_equal(e2e_chip(&E).nvm_crc, cfg_crc);
}

/*
 * Issue 15 item 7: `flash --config FILE` staged the file read again after
 * checking it, so a file swapped in between was applied unchecked.  This
 * test once gave a FIFO that handed out another config on a second open;
 * FIFOs are refused now (issue 27 item 8), so the file is a regular one
 * and the kernel counts its opens (inotify IN_OPEN): touchfw must open it
 * once, and the chip must hold what it checked.
 */
static void test_flash_config_writes_the_bytes_it_checked(void **state)
{
	char good[400];
	char evbuf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	unsigned good_crc = 0;
	int in, opens = 0;
	ssize_t n;
	FILE *f;

	(void)state;
	start_model("touchfw,emul-demo", "mxt224e", "app", "2.1.AB", "driver", NULL);
	snprintf(good, sizeof(good), "%s/good.cfg", E.dir);
	gen("config --chip mxt224e --version 2.1.AB --tag 7", good);
	f = fopen(good, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "OBP_RAW V1 %*x %*x %*x %*x %*x %*x %*x %*x %x", &good_crc),
			 1);
	fclose(f);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	assert_true(in >= 0);
	assert_true(inotify_add_watch(in, good, IN_OPEN) >= 0);
	e2e_expect(&E, 0, "flash", "--config", good, "1-004a");
	/* the flash has exited: every open it made is queued */
	while ((n = read(in, evbuf, sizeof(evbuf))) > 0)
		for (char *p = evbuf; p < evbuf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;

			opens += !!(ev->mask & IN_OPEN);
			p += sizeof(*ev) + ev->len;
		}
	close(in);
	if (opens != 1)
		fail_msg("the config file was opened %d times (once is what was checked)",
			 opens);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	assert_int_equal(e2e_chip(&E).nvm_crc, good_crc);
}

/* T38 (user data) of the chip's RAM: two bytes from its start. */
static void chip_t38(uint8_t out[2])
{
	const em_u8 *mem;
	struct mxt_model *m;
	em_u16 start = 0, size = 0;

	emub_lock(E.eb);
	m = emub_chip_mxt(E.eb, "touchscreen");
	assert_true(mxt_model_object(m, 38, &start, NULL));
	mem = mxt_model_mem(m, &size);
	assert_true(start + 2u <= size);
	memcpy(out, mem + start, 2);
	emub_unlock(E.eb);
}

/*
 * Issue 27 item 12: a configuration's T38 (user data, before T7 and so
 * outside the config CRC) is written over the bus, backed up, and is what
 * the chip holds after its reset -- fwgen's --tag 7 puts 'T' 7 there.
 */
static void test_flash_config_over_the_bus_keeps_its_t38(void **state)
{
	char cfg[400];
	uint8_t t38[2];

	(void)state;
	start_model("touchfw,emul-always-on", "mxt224e", "app", "2.1.AB", "always-on", NULL);
	snprintf(cfg, sizeof(cfg), "%s/t38.cfg", E.dir);
	gen("config --chip mxt224e --version 2.1.AB --tag 7", cfg);
	assert_int_equal(e2e_touchfw(&E, "flash", "--config", cfg, "1-004a"), 0);
	e2e_said(&E, "verified after reset");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	chip_t38(t38);
	assert_int_equal(t38[0], 'T');
	assert_int_equal(t38[1], 7);
}

/*
 * The same with a chip that drops what is written to T38 (the model's
 * fault, as the model itself once did): the config CRC still matches, so
 * only reading back what was written finds it; touchfw names the object
 * and exits 12 (verify), and the chip is left running, bound again.
 */
static void test_flash_config_dropped_by_the_chip_is_a_verify_failure(void **state)
{
	struct mxt_model_faults f;
	char cfg[400];
	uint8_t t38[2];

	(void)state;
	start_model("touchfw,emul-always-on", "mxt224e", "app", "2.1.AB", "always-on", NULL);
	snprintf(cfg, sizeof(cfg), "%s/t38.cfg", E.dir);
	gen("config --chip mxt224e --version 2.1.AB --tag 7", cfg);
	emub_lock(E.eb);
	f = *mxt_model_faults(emub_chip_mxt(E.eb, "touchscreen"));
	emub_unlock(E.eb);
	f.drop_object = 38;
	assert_int_equal(emub_set_mxt_faults(E.eb, "touchscreen", &f), 0);
	assert_int_equal(e2e_touchfw(&E, "flash", "--config", cfg, "1-004a"), TF_EXIT_VERIFY);
	e2e_said(&E, "T38 instance 0 byte 0 reads 0x00, 0x54 was written: the chip did not "
		     "keep T38");
	e2e_not_said(&E, "verified after reset");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	chip_t38(t38);
	assert_int_equal(t38[0], 0);
	assert_int_equal(e2e_chip(&E).mode, MXT_MODE_APP);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
}

static void test_profile_without_a_match(void **state)
{
	(void)state;
	start_model("vendor,unknown-board", "mxt224e", "no-image", "1.0.AA", "driver", NULL);
	e2e_expect(&E, 4, "run", "1-004a");
	e2e_said(&E, "no board profile describes this board (vendor,unknown-board)");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

/* The default log level (no TOUCHFW_LOG_LEVEL, as under systemd). */
static const char *const default_level[] = { "TOUCHFW_LOG_LEVEL=", NULL };

static void test_no_profile_says_why_at_the_default_level(void **state)
{
	(void)state;
	start_model("vendor,unknown-board", "mxt224e", "no-image", "1.0.AA", "driver", NULL);
	assert_int_equal(e2e_touchfw_env(&E, default_level, "run", "1-004a", NULL), 4);
	e2e_said(&E, "no board profile describes this board (vendor,unknown-board); "
		     "nothing to do; nearest profile ");
	e2e_said(&E, "differs from this board's \"vendor,unknown-board\"; its controller "
		     "/controllers/touchscreen@4a is this device (exit 4, no-profile)");
	e2e_not_said(&E, "board identity");
	/* -v adds the debug lines. */
	assert_int_equal(e2e_touchfw_env(&E, default_level, "-v", "run", "1-004a", NULL), 4);
	e2e_said(&E, "board identity: vendor,unknown-board");
	e2e_said(&E, "nearest profile ");
}

static void test_no_controller_for_the_device_names_the_nearest(void **state)
{
	char *b = e2e_board("touchfw,emul-demo", "mxt224e", "no-image", "1.0.AA", "driver",
			    NULL);
	char *p;

	(void)state;
	/* The board's adapter under another name than the profile's. */
	p = strstr(b, "name = touchfw emulated adapter 1\n");
	assert_non_null(p);
	memcpy(p, "name = touchfw emulated adapter X\n", 34);
	e2e_start(&E, b);
	free(b);
	assert_int_equal(e2e_touchfw_env(&E, default_level, "run", "1-004a", NULL), 4);
	e2e_said(&E, "board profile emul-demo has no controller on adapter "
		     "'touchfw emulated adapter X' at 0x4a; nothing to do; nearest profile "
		     "emul-demo (");
	e2e_said(
		&E,
		"describes this board, but its nearest controller "
		"/controllers/touchscreen@4a is on adapter 'touchfw emulated adapter 1' at "
		"0x4a, not on adapter 'touchfw emulated adapter X' at 0x4a (exit 4, no-profile)");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

static void test_source_profile_in_boards_dir_is_named(void **state)
{
	char path[400], want[1400];

	(void)state;
	start("no-image", NULL);
	/* An OEM dropped the source, not the compiled profile. */
	snprintf(E.boards, sizeof(E.boards), "%s/boards", E.dir);
	assert_int_equal(mkdir(E.boards, 0755), 0);
	snprintf(path, sizeof(path), "%s/emul-demo.dts", E.boards);
	e2e_write(path, "/dts-v1/;\n/ { };\n");
	e2e_settings(&E, NULL);
	assert_int_equal(e2e_touchfw_env(&E, default_level, "run", "1-004a", NULL), 4);
	snprintf(want, sizeof(want),
		 "ignoring %s: touchfw reads only compiled profiles; "
		 "compile it with dtc (dtc -I dts -O dtb -o %s/emul-demo.dtb %s) or make",
		 path, E.boards, path);
	e2e_said(&E, want);
	e2e_said(&E, "no valid board profile is installed");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

/*
 * Issue 15 item 6: the shipped emul-demo profile and a second file that
 * matches the same board as well but says power always-on.  touchfw used
 * to take the one whose name sorts first without a word (and could unbind
 * a driver-powered chip); now it refuses, naming both files and what
 * differs, and touches nothing.  Taking the shipped file's name in the
 * earlier directory is the override, and that one is used.
 */
static void test_two_profiles_that_disagree_are_refused(void **state)
{
	const char *top = getenv("TOUCHFW_TOP");
	char path[400], cmd[1400], shipped[300], *text = NULL, *q, *out = NULL;
	size_t len;

	(void)state;
	start("app", NULL);
	snprintf(shipped, sizeof(shipped), "%s", E.boards);
	/* The shipped example, with power always-on, as a second file. */
	snprintf(path, sizeof(path), "%s/boards/examples/emul-demo.dts",
		 top && *top ? top : ".");
	assert_int_equal(tf_read_file(path, 1 << 20, &text, &len), 0);
	q = strstr(text, "power = \"driver\";");
	assert_non_null(q);
	assert_true(asprintf(&out, "%.*spower = \"always-on\";%s", (int)(q - text), text,
			     q + strlen("power = \"driver\";")) > 0);
	free(text);
	snprintf(path, sizeof(path), "%s/local.dts", E.dir);
	e2e_write(path, out);
	free(out);
	snprintf(E.boards, sizeof(E.boards), "%s/boards", E.dir);
	assert_int_equal(mkdir(E.boards, 0755), 0);
	snprintf(cmd, sizeof(cmd),
		 "dtc -q -I dts -O dtb -o '%s/zz-local.dtb' '%s' && "
		 "cp '%s/emul-demo.dtb' '%s/emul-demo.dtb'",
		 E.boards, path, shipped, E.boards);
	assert_int_equal(system(cmd), 0);
	e2e_settings(&E, NULL);
	assert_int_equal(e2e_touchfw_env(&E, default_level, "run", "1-004a", NULL),
			 TF_EXIT_PROFILE_INVALID);
	e2e_said(&E, "emul-demo.dtb and ");
	e2e_said(&E, "zz-local.dtb both match this board equally well and disagree "
		     "(/controllers/touchscreen@4a power: \"driver\" in emul-demo, "
		     "\"always-on\" in zz-local)");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
	assert_int_equal(e2e_chip(&E).stats.bootloader_entries, 0);
	assert_int_equal(e2e_chip(&E).stats.backups, 0);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	/* board identify says so too, in text and JSON. */
	e2e_expect(&E, TF_EXIT_PROFILE_INVALID, "board", "identify");
	assert_non_null(strstr(E.out, "conflict: "));
	assert_non_null(strstr(E.out, "power: \"driver\" in emul-demo"));
	assert_int_equal(e2e_touchfw(&E, "board", "identify", "--json"),
			 TF_EXIT_PROFILE_INVALID);
	assert_non_null(strstr(E.out, "\"conflict\""));
	assert_non_null(strstr(E.out, "zz-local.dtb"));
	/* The override: the local profile takes the shipped one's name in an
	 * earlier directory; then it is the profile, without a word. */
	snprintf(cmd, sizeof(cmd),
		 "rm '%s/emul-demo.dtb' && mv '%s/zz-local.dtb' "
		 "'%s/emul-demo.dtb'",
		 E.boards, E.boards, E.boards);
	assert_int_equal(system(cmd), 0);
	assert_true((size_t)snprintf(E.boards, sizeof(E.boards), "%s/boards %.*s", E.dir,
				     (int)(sizeof(E.boards) / 2), shipped) < sizeof(E.boards));
	e2e_settings(&E, NULL);
	assert_int_equal(e2e_touchfw_env(&E, default_level, "run", "--dry-run", "1-004a", NULL),
			 0);
	e2e_said(&E, "power always-on");
	e2e_not_said(&E, "disagree");
}

static void test_wrong_chip_at_the_address(void **state)
{
	static const char board[] =
		"[board]\nname = wrong chip\ncompatible = touchfw,emul-demo\n"
		"[adapter 1]\nname = touchfw emulated adapter 1\nspeed = 400000\n"
		"[chip eeprom]\nadapter = 1\naddress = 0x4a\nmodel = eeprom\n"
		"compatible = atmel,maxtouch\ndriver = \n";

	(void)state;
	e2e_start(&E, board);
	e2e_expect(&E, 13, "run", "1-004a");
	e2e_said(&E, "0x4a answers but info block CRC mismatch");
}

static void test_smbus_only_adapter_is_refused(void **state)
{
	char *b = e2e_board("touchfw,emul-demo", "mxt224e", "no-image", "1.0.AA", "driver",
			    NULL);
	char *p;

	(void)state;
	/* Declare adapter 1 SMBus-only. */
	p = strstr(b, "max_transfer = 255\n");
	assert_non_null(p);
	memcpy(p, "smbus_only = true\n", 18);
	p[18] = ' ';
	e2e_start(&E, b);
	free(b);
	e2e_expect(&E, 13, "run", "1-004a");
	e2e_said(&E, "is SMBus-only");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_fault_nak_everywhere_is_no_device, teardown),
		cmocka_unit_test_teardown(test_fault_crc_fail_once_is_retried, teardown),
		cmocka_unit_test_teardown(test_fault_crc_fail_always_leaves_bootloader,
					  teardown),
		cmocka_unit_test_teardown(test_fault_stuck_in_bootloader_is_bounded, teardown),
		cmocka_unit_test_teardown(
			test_slow_host_reads_the_held_last_verdict_and_flashes, teardown),
		cmocka_unit_test_teardown(test_slow_host_missing_the_last_verdict_still_flashes,
					  teardown),
		cmocka_unit_test_teardown(test_slow_host_stuck_chip_is_left_in_bootloader,
					  teardown),
		cmocka_unit_test_teardown(
			test_slow_host_stuck_chip_unread_variant_is_left_in_bootloader,
			teardown),
		cmocka_unit_test_teardown(test_fault_power_loss_then_next_run_recovers,
					  teardown),
		cmocka_unit_test_teardown(test_fault_power_loss_during_unbind_flash, teardown),
		cmocka_unit_test_teardown(test_fault_slow_chip_in_realtime, teardown),
		cmocka_unit_test_teardown(
			test_fault_slow_chip_is_waited_for_after_the_reset_pulse, teardown),
		cmocka_unit_test_teardown(test_fault_driver_binds_without_input, teardown),
		cmocka_unit_test_teardown(test_fault_corrupt_info_block_is_not_our_chip,
					  teardown),
		cmocka_unit_test_teardown(test_driver_unbound_mid_flash_ends_cleanly, teardown),
		cmocka_unit_test_teardown(test_unbind_storm_does_not_blacklist_the_firmware,
					  teardown),
		cmocka_unit_test_teardown(test_missing_manifest, teardown),
		cmocka_unit_test_teardown(test_corrupt_manifest_names_the_line, teardown),
		cmocka_unit_test_teardown(test_tampered_manifest_fails_its_signature, teardown),
		cmocka_unit_test_teardown(test_blob_hash_mismatch_writes_nothing, teardown),
		cmocka_unit_test_teardown(test_truncated_fw_file, teardown),
		cmocka_unit_test_teardown(test_enc_odd_length_and_non_hex, teardown),
		cmocka_unit_test_teardown(test_flash_dry_run_reads_and_checks_its_files,
					  teardown),
		cmocka_unit_test_teardown(
			test_flash_dry_run_compares_the_config_crc_with_the_chip, teardown),
		cmocka_unit_test_teardown(test_flash_dry_run_predicts_the_flash, teardown),
		cmocka_unit_test_teardown(test_obp_raw_for_another_chip, teardown),
		cmocka_unit_test_teardown(test_obp_raw_for_other_firmware_needs_force,
					  teardown),
		cmocka_unit_test_teardown(test_flash_config_over_the_bus_keeps_its_t38,
					  teardown),
		cmocka_unit_test_teardown(
			test_flash_config_dropped_by_the_chip_is_a_verify_failure, teardown),
		cmocka_unit_test_teardown(test_flash_config_writes_the_bytes_it_checked,
					  teardown),
		cmocka_unit_test_teardown(test_profile_without_a_match, teardown),
		cmocka_unit_test_teardown(test_no_profile_says_why_at_the_default_level,
					  teardown),
		cmocka_unit_test_teardown(test_no_controller_for_the_device_names_the_nearest,
					  teardown),
		cmocka_unit_test_teardown(test_source_profile_in_boards_dir_is_named, teardown),
		cmocka_unit_test_teardown(test_two_profiles_that_disagree_are_refused,
					  teardown),
		cmocka_unit_test_teardown(test_wrong_chip_at_the_address, teardown),
		cmocka_unit_test_teardown(test_smbus_only_adapter_is_refused, teardown),
	};

	e2e_test_filter();
	return cmocka_run_group_tests_name("e2e_faults", tests, NULL, NULL);
}
