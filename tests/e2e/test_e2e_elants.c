// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end on an emulated Elan touchscreen: the real touchfw binaries
 * inside an emulated board, judged by the Elan chip model
 * (tests/emul/family/elants/model/elants_model.c) and the emulated elants_i2c driver
 * (tests/emul/host/drv_elants.c).  touchfw never writes the chip's flash:
 * it stages the image under the name the driver computes from the
 * hardware id (elants_i2c_<hw>.bin), writes update_fw, rebinds (the driver
 * keeps its old input device) and checks fw_version, iap_mode and the new
 * input device.  Paths: an older application, a chip in recovery (the
 * driver binds and flashes it there), detection by the hello packet with
 * no driver; faults: an IAP that fails midway (touchfw rebinds so that the
 * driver's probe resets the chip, and the next run flashes it; a chip
 * that ignores that reset is explained), a driver that registers no
 * input device, an image the driver would refuse, an image for other
 * hardware, no board profile.
 */
#include "emub-elants.h"
#include "e2e.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "eeprom_model.h"
#include "elants_model.h"
#include "emub-eeprom.h"
#include "exitcode.h"

#define DEV "1-0010"
#define HW 0x2a1c
#define DB_FW 0x5512 /* elants-2a1c-fw-5512 in the demo database */
#define OLD_FW 0x5511

static struct e2e E;

#define expect_rc(want, ...)                                                                  \
	do {                                                                                  \
		int rc_ = e2e_touchfw(&E, __VA_ARGS__);                                       \
		if (rc_ != (want))                                                            \
			fprintf(stderr, "exit %d, expected %d; touchfw said:\n%s\n%s\n", rc_, \
				(int)(want), E.out ? E.out : "", E.err ? E.err : "");         \
		assert_int_equal(rc_, (want));                                                \
	} while (0)

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

/* The chip at 0x10 with firmware @fw (0: empty flash), @extra keys; its
 * supplies and reset line switched by the driver, or with @always_on by
 * the platform (as elants_i2c assumes where it has no reset GPIO, which
 * it then does not have). */
static void start_he(const char *compatible, unsigned fw, bool always_on, const char *extra,
		     const char *he_args)
{
	char *b = NULL;

	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e Elan board\n"
			     "compatible = %s\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "speed = 400000\n"
			     "[chip touchscreen]\n"
			     "adapter = 1\n"
			     "address = 0x10\n"
			     "model = elants\n"
			     "compatible = elan,ekth3500\n"
			     "driver = elants_i2c\n"
			     "elants.hw_version = 0x%04x\n"
			     "elants.fw_version = 0x%04x\n"
			     "power = %s\n"
			     "%s"
			     "int_gpio = 1\n"
			     "%s"
			     "[gpiochip]\n"
			     "label = emuboard-gpio\n"
			     "lines = 8\n"
			     "line.0 = TS_RESET\n"
			     "line.1 = TS_INT\n",
			     compatible, HW, fw, always_on ? "always-on" : "driver",
			     always_on ? "" : "reset_gpio = 0\n", extra ? extra : "") > 0);
	e2e_start_ex(&E, b, he_args);
	free(b);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
}

static void start_ex(const char *compatible, unsigned fw, bool always_on, const char *extra)
{
	start_he(compatible, fw, always_on, extra, NULL);
}

static void start(const char *compatible, unsigned fw, const char *extra)
{
	start_ex(compatible, fw, false, extra);
}

struct chip {
	enum elants_model_mode mode;
	unsigned fw;
	struct elants_model_stats stats;
};

static struct chip chip(void)
{
	struct elants_model *m;
	struct chip c;

	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 20000), 0);
	emub_lock(E.eb);
	m = emub_chip_elants(E.eb, "touchscreen");
	assert_non_null(m);
	c.mode = elants_model_mode(m);
	c.fw = elants_model_fw_version(m);
	c.stats = *elants_model_stats(m);
	emub_unlock(E.eb);
	return c;
}

/* A file in the private directory, for `flash --firmware`. */
static const char *write_blob(const char *name, const uint8_t *data, size_t len)
{
	static char path[400];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", E.dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* ------------------------------------------------------------ paths */

static void test_older_firmware_is_flashed_by_the_driver_and_rebound(void **state)
{
	struct chip c;
	char *json;

	(void)state;
	start("touchfw,emul-elants", OLD_FW, NULL);
	assert_int_equal(chip().fw, OLD_FW);
	expect_rc(0, "run", DEV);
	e2e_said(&E, "/elants_i2c_2a1c.bin; asking elants_i2c to flash it (update_fw)");
	e2e_said(&E,
		 "elants_i2c registers no input device again after update_fw: rebinding it");
	e2e_said(&E, "verified: firmware 5511 -> 5512");
	c = chip();
	assert_int_equal(c.mode, ELANTS_MODEL_NORMAL);
	assert_int_equal(c.fw, DB_FW);
	assert_int_equal(c.stats.iap_entries, 1);
	assert_int_equal(c.stats.pages_written, 64);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	json = e2e_state_file(&E, DEV ".json");
	assert_non_null(json);
	assert_non_null(strstr(json, "\"path\":\"update_fw\""));
	assert_non_null(strstr(json, "\"version_after\":\"5512\""));
	free(json);
	/* Nothing staged is left, and a second run has nothing to do. */
	expect_rc(0, "run", DEV);
	e2e_said(&E, "running 5512");
	assert_int_equal(chip().stats.iap_entries, 1);
}

static void test_chip_in_recovery_is_flashed_through_the_bound_driver(void **state)
{
	struct chip c;

	(void)state;
	start("touchfw,emul-elants", OLD_FW, "elants.flash = corrupt\n");
	c = chip();
	assert_int_equal(c.mode, ELANTS_MODEL_RECOVERY);
	/* The driver bound anyway, and says so in iap_mode. */
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	expect_rc(0, "run", DEV);
	e2e_said(&E, "elants_i2c reports recovery mode (no valid application); hardware 2a1c");
	e2e_said(&E, "chip in bootloader mode: newest firmware for 2a1c is 5512");
	e2e_said(&E, "/elants_i2c_2a1c.bin; asking elants_i2c to flash it");
	e2e_said(&E, "verified: firmware (bootloader) -> 5512");
	c = chip();
	assert_int_equal(c.mode, ELANTS_MODEL_NORMAL);
	assert_int_equal(c.fw, DB_FW);
	assert_int_equal(c.stats.iap_entries, 1);
}

static void test_dry_run_names_the_file_the_driver_requests(void **state)
{
	(void)state;
	start("touchfw,emul-elants", OLD_FW, NULL);
	expect_rc(0, "run", "--dry-run", DEV);
	e2e_said(&E, "through elants_i2c's update_fw as elants_i2c_2a1c.bin");
	assert_int_equal(chip().stats.iap_entries, 0);
	assert_int_equal(chip().fw, OLD_FW);
}

static void test_unbound_chip_is_read_by_its_hello_packet(void **state)
{
	(void)state;
	/* No driver bound, the platform powers the chip: a command that may
	 * change it (chip reset) asks it as elants_i2c_initialize does. */
	start_ex("touchfw,emul-elants", OLD_FW, true, "bound = false\n");
	assert_int_equal(chip().stats.hellos, 0);
	expect_rc(TF_EXIT_OK, "chip", DEV, "reset");
	assert_true(chip().stats.hellos > 0);
	assert_true(chip().stats.soft_resets > 0);
	assert_int_equal(chip().mode, ELANTS_MODEL_NORMAL);
	e2e_stop(&E);
	start_ex("touchfw,emul-elants", OLD_FW, true,
		 "bound = false\nelants.flash = corrupt\n");
	expect_rc(TF_EXIT_OK, "chip", DEV, "reset");
	assert_true(chip().stats.hellos > 0);
	assert_int_equal(chip().mode, ELANTS_MODEL_RECOVERY);
}

static void test_bind_in_recovery_is_handled_from_the_uevent(void **state)
{
	char *log, *he = NULL, path[400];
	size_t len;

	(void)state;
	/* As at boot: the driver binds the chip in recovery, its bind uevent
	 * runs handle-event, which hands off to a detached run. */
	start_he("touchfw,emul-elants", OLD_FW, false, "elants.flash = corrupt\n", "");
	e2e_wait_run_done(&E, DEV);
	assert_int_equal(chip().mode, ELANTS_MODEL_NORMAL);
	assert_int_equal(chip().fw, DB_FW);
	log = e2e_state_file(&E, DEV ".log");
	assert_non_null(log);
	assert_non_null(strstr(log, "reports recovery mode"));
	assert_non_null(strstr(log, "verified: firmware (bootloader) -> 5512"));
	free(log);
	/* touchfw's own rebind started no second update: its bind uevent
	 * has had its handle-event (e2e_wait_run_done), which would have
	 * handed a second run off by then. */
	snprintf(path, sizeof(path), "%s/he.log", E.dir);
	assert_int_equal(tf_read_file(path, 1 << 20, &he, &len), 0);
	e2e_keep(&E, he);
	fprintf(stderr, "--- he.log\n%s", he); /* shown if the program fails */
	assert_non_null(strstr(he, "handed to detached process"));
	assert_null(strstr(strstr(he, "handed to detached process") + 1,
			   "handed to detached process"));
	assert_int_equal(chip().stats.iap_entries, 1);
}

/* ------------------------------------------------------------ faults */

static void test_iap_failing_midway_is_reprobed_and_the_next_run_flashes(void **state)
{
	struct elants_model *m;
	struct chip c;

	(void)state;
	start("touchfw,emul-elants", OLD_FW, "fault.iap_nak_page = 10\n");
	expect_rc(TF_EXIT_BOOTLOADER, "run", DEV);
	/* elants_i2c_fw_update returns the IAP's error to the writer and
	 * stays bound in recovery without resetting the chip, which is
	 * still in IAP: its next update (54 00 12 34, no reset) would not
	 * be answered.  touchfw rebinds: the new probe resets the chip into
	 * its boot code. */
	e2e_said(&E, "driver update failed: writing update_fw: Input/output error");
	e2e_said(&E, "rebinding it so that a new probe resets the chip");
	e2e_said(&E, "writing update_fw: Input/output error; the chip is in its bootloader: "
		     "the next bind or 'touchfw run 1-0010' flashes it again");
	c = chip();
	assert_int_equal(c.mode, ELANTS_MODEL_RECOVERY);
	assert_int_equal(c.stats.pages_written, 10);
	assert_true(c.stats.bad_acks >= 30);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	/* ... and it does: the page fault was passing. */
	emub_lock(E.eb);
	m = emub_chip_elants(E.eb, "touchscreen");
	m->cfg.nak_iap_page = -1;
	emub_unlock(E.eb);
	expect_rc(0, "run", DEV);
	e2e_said(&E, "verified: firmware (bootloader) -> 5512");
	c = chip();
	assert_int_equal(c.mode, ELANTS_MODEL_NORMAL);
	assert_int_equal(c.fw, DB_FW);
	assert_int_equal(c.stats.iap_entries, 2);
}

/* A chip that never acknowledged the IAP still holds its application, but
 * elants_i2c marks recovery all the same, and its next update would send
 * the recovery entry to a running application.  The rebind's probe finds
 * the application: the touchscreen works on, and the next run updates it
 * the normal way. */
static void test_refused_iap_is_reprobed_back_to_the_application(void **state)
{
	struct elants_model *m;
	struct chip c;

	(void)state;
	start("touchfw,emul-elants", OLD_FW, "fault.refuse_iap = true\n");
	expect_rc(TF_EXIT_IO, "run", DEV);
	e2e_said(&E, "rebinding it so that a new probe resets the chip");
	e2e_said(&E, "writing update_fw: Input/output error; after a rebind the chip runs its "
		     "application again (firmware 5511)");
	e2e_not_said(&E, "flashes it again");
	c = chip();
	assert_int_equal(c.mode, ELANTS_MODEL_NORMAL);
	assert_int_equal(c.fw, OLD_FW);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	emub_lock(E.eb);
	m = emub_chip_elants(E.eb, "touchscreen");
	m->cfg.refuse_iap = false;
	emub_unlock(E.eb);
	expect_rc(0, "run", DEV);
	assert_int_equal(chip().fw, DB_FW);
}

/* Without a reset line the driver's soft reset is all a rebind sends; a
 * chip that stays in IAP through it answers no hardware id, and touchfw
 * says what brings it back instead of promising the next run. */
static void test_chip_staying_in_iap_through_the_reprobe_is_explained(void **state)
{
	struct chip c;

	(void)state;
	start_ex("touchfw,emul-elants", OLD_FW, true,
		 "fault.iap_nak_page = 10\nfault.iap_ignores_reset = true\n");
	expect_rc(TF_EXIT_BOOTLOADER, "run", DEV);
	e2e_said(&E, "rebinding it so that a new probe resets the chip");
	e2e_said(&E, "after a rebind elants_i2c reads hardware 0000 instead of 2a1c: the chip "
		     "did not leave the interrupted update on the driver's reset");
	e2e_said(&E, "switch the machine off (a full power cycle, not a reboot), then run "
		     "'touchfw run 1-0010'");
	e2e_not_said(&E, "flashes it again");
	c = chip();
	assert_int_equal(c.mode, ELANTS_MODEL_IAP);
	assert_int_equal(c.stats.iap_entries, 1);
}

/* The promise of a next run holds after the back-off, and within the
 * attempt limit: the message says which. */
static void test_failure_message_names_the_back_off_and_the_limit(void **state)
{
	(void)state;
	start("touchfw,emul-elants", OLD_FW, "fault.iap_nak_page = 10\n");
	e2e_settings(&E, "backoff_s = 600\nmax_attempts = 2");
	expect_rc(TF_EXIT_BOOTLOADER, "run", DEV);
	e2e_said(&E, "flashes it again; attempt 1 of 2: the next one waits 600s (back-off)");
	expect_rc(TF_EXIT_BACKOFF, "run", DEV);
	expect_rc(TF_EXIT_BOOTLOADER, "run", "--force", DEV);
	e2e_said(&E, "that was attempt 2 of 2: touchfw leaves 1-0010 alone until 'touchfw run "
		     "--force 1-0010' or a reboot");
	expect_rc(TF_EXIT_BACKOFF, "run", DEV);
	e2e_said(&E, "gave up after 2 failed attempts");
}

static void test_driver_without_input_device_fails_verification(void **state)
{
	(void)state;
	start("touchfw,emul-elants", OLD_FW, "fault.no_input = true\n");
	expect_rc(TF_EXIT_VERIFY, "run", DEV);
	e2e_said(&E, "rebinding it");
	e2e_said(&E, "driver update failed");
	/* The chip took the firmware; the missing input device fails it. */
	assert_int_equal(chip().fw, DB_FW);
}

static void test_image_the_driver_would_refuse_is_refused_before_the_chip(void **state)
{
	uint8_t buf[ELANTS_MODEL_PAGE * 3 + 1] = { 0 };
	const char *f;

	(void)state;
	start("touchfw,emul-elants", OLD_FW, NULL);
	f = write_blob("short.bin", buf, sizeof(buf));
	expect_rc(TF_EXIT_BAD_INPUT, "flash", "--firmware", f, DEV);
	e2e_said(&E,
		 "397 bytes is not a whole number of 132-byte pages (elants_i2c refuses it)");
	e2e_error_names_device(E.err, "is not a whole number of 132-byte pages", DEV);
	assert_int_equal(chip().stats.iap_entries, 0);
	assert_int_equal(chip().fw, OLD_FW);
}

static void test_image_for_other_hardware_leaves_the_chip_in_recovery(void **state)
{
	static uint8_t img[16 * ELANTS_MODEL_PAGE];
	const char *f;
	struct chip c;

	(void)state;
	start("touchfw,emul-elants", OLD_FW, NULL);
	elants_model_make_image(img, 16, 0x6000, 0x1234, 0);
	f = write_blob("other.bin", img, sizeof(img));
	expect_rc(TF_EXIT_BOOTLOADER, "flash", "--firmware", f, DEV);
	e2e_said(&E, "after update_fw and a rebind: elants_i2c reports recovery mode");
	c = chip();
	assert_int_equal(c.mode, ELANTS_MODEL_RECOVERY);
	assert_int_equal(c.stats.pages_written, 16);
	/* ... and the database's image brings it back. */
	expect_rc(0, "run", DEV);
	assert_int_equal(chip().fw, DB_FW);
}

static void test_no_profile_for_this_board_touches_nothing(void **state)
{
	(void)state;
	start("touchfw,emul-elants-unknown", OLD_FW, NULL);
	expect_rc(TF_EXIT_NO_PROFILE, "run", DEV);
	assert_int_equal(chip().stats.iap_entries, 0);
	assert_int_equal(chip().fw, OLD_FW);
}

/* ------------------------------------------------ read-only commands */

/*
 * Issue 27 item 4: `board identify --live` ran the unbound detection
 * (soft reset 77 77 77 77, fast boot 4D 61 69 6E) at the profile's
 * address whoever answered there -- here a 24C02 bound to at24, which
 * stored both.  Read-only commands send nothing to a device another
 * driver holds, and no write that changes a chip's state to any device.
 * Every bus transfer goes to E.dir/emuboard.log.
 */

static void start_traced(const char *chip_text)
{
	char *b = NULL;

	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e Elan board\n"
			     "compatible = touchfw,emul-elants\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "speed = 400000\n"
			     "[chip touchscreen]\n"
			     "adapter = 1\n"
			     "address = 0x10\n"
			     "%s"
			     "[gpiochip]\n"
			     "label = emuboard-gpio\n"
			     "lines = 8\n"
			     "line.0 = TS_RESET\n"
			     "line.1 = TS_INT\n",
			     chip_text) > 0);
	e2e_prepare(&E, b, NULL);
	free(b);
	e2e_trace_on(&E);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
}

static unsigned no_write_to_0x10(void)
{

	return e2e_traced_no_write(&E, 0x10, 0);
}

static void test_live_identify_sends_nothing_to_an_eeprom_bound_to_at24(void **state)
{
	struct eeprom_model *m;
	unsigned i;

	(void)state;
	start_traced("model = eeprom\n"
		     "compatible = atmel,24c02\n"
		     "driver = at24\n"
		     "bound = true\n"
		     "power = always-on\n"
		     "eeprom.fill = 0x00\n");
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	expect_rc(TF_EXIT_PROFILE_INVALID, "board", "identify", "--live");
	assert_non_null(E.out);
	if (!strstr(E.out, "driver at24 is bound, the profile says elants_i2c") ||
	    !strstr(E.out, "chip not asked: 1-0010 is bound to at24, not an elants driver"))
		fail_msg("board identify --live said:\n%s", E.out);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 20000), 0);
	emub_lock(E.eb);
	m = emub_chip_eeprom(E.eb, "touchscreen");
	assert_non_null(m);
	assert_int_equal(eeprom_model_stats(m)->write_cycles, 0);
	for (i = 0; i < 256 && !eeprom_model_peek(m, (em_u16)i); i++)
		;
	emub_unlock(E.eb);
	assert_int_equal(i, 256);
	assert_int_equal(no_write_to_0x10(), 0);
}

/* An unbound touchscreen: the read-only commands find it answering (a
 * plain read) but send no soft reset or fast boot
 * (test_unbound_chip_is_read_by_its_hello_packet: chip reset does). */
static void test_read_only_commands_do_not_reset_an_unbound_touchscreen(void **state)
{
	(void)state;
	start_traced("model = elants\n"
		     "compatible = elan,ekth3500\n"
		     "driver = elants_i2c\n"
		     "bound = false\n"
		     "elants.hw_version = 0x2a1c\n"
		     "elants.fw_version = 0x5511\n"
		     "power = always-on\n"
		     "int_gpio = 1\n");
	assert_false(emub_dev_bound(E.eb, "touchscreen"));
	e2e_touchfw(&E, "board", "identify", "--live");
	assert_non_null(E.out);
	if (!strstr(E.out, "a device answers at 0x10, not asked further"))
		fail_msg("board identify --live said:\n%s", E.out);
	expect_rc(TF_EXIT_UNSUPPORTED, "chip", DEV, "info");
	e2e_said(&E, "a read-only command sends neither");
	expect_rc(TF_EXIT_UNSUPPORTED, "chip", DEV, "save-config", "/dev/null");
	e2e_said(&E, "a read-only command sends neither");
	assert_int_equal(chip().stats.soft_resets, 0);
	assert_int_equal(chip().stats.hellos, 0);
	no_write_to_0x10();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_older_firmware_is_flashed_by_the_driver_and_rebound, teardown),
		cmocka_unit_test_teardown(
			test_chip_in_recovery_is_flashed_through_the_bound_driver, teardown),
		cmocka_unit_test_teardown(test_dry_run_names_the_file_the_driver_requests,
					  teardown),
		cmocka_unit_test_teardown(test_unbound_chip_is_read_by_its_hello_packet,
					  teardown),
		cmocka_unit_test_teardown(test_bind_in_recovery_is_handled_from_the_uevent,
					  teardown),
		cmocka_unit_test_teardown(
			test_iap_failing_midway_is_reprobed_and_the_next_run_flashes, teardown),
		cmocka_unit_test_teardown(
			test_chip_staying_in_iap_through_the_reprobe_is_explained, teardown),
		cmocka_unit_test_teardown(test_refused_iap_is_reprobed_back_to_the_application,
					  teardown),
		cmocka_unit_test_teardown(test_failure_message_names_the_back_off_and_the_limit,
					  teardown),
		cmocka_unit_test_teardown(test_driver_without_input_device_fails_verification,
					  teardown),
		cmocka_unit_test_teardown(
			test_image_the_driver_would_refuse_is_refused_before_the_chip,
			teardown),
		cmocka_unit_test_teardown(
			test_image_for_other_hardware_leaves_the_chip_in_recovery, teardown),
		cmocka_unit_test_teardown(test_no_profile_for_this_board_touches_nothing,
					  teardown),
		cmocka_unit_test_teardown(
			test_live_identify_sends_nothing_to_an_eeprom_bound_to_at24, teardown),
		cmocka_unit_test_teardown(
			test_read_only_commands_do_not_reset_an_unbound_touchscreen, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
