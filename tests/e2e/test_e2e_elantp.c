// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end on an emulated Elan i2c touchpad: the real touchfw binaries
 * inside an emulated board, judged by the touchpad chip model
 * (tests/emul/family/elantp/model/elantp_model.c) and the emulated elan_i2c driver
 * (tests/emul/host/drv_elan_i2c.c).  touchfw stages the image under the
 * name the driver computes from the product id (elan_i2c_<id>.0.bin),
 * writes update_fw, rebinds (the driver keeps its old input device) and
 * checks firmware_version and the new input device.  Faults: a page error
 * midway (the write fails with EIO, the touchpad is left in IAP with
 * elan_i2c still bound), an image elan_i2c refuses (the write fails with
 * EBADF), no input device, an image without the signature, no profile.
 */
#include "emub-elantp.h"
#include "e2e.h"

#include "eeprom_model.h"
#include "elantp_model.h"
#include "emub-eeprom.h"
#include "exitcode.h"

#define DEV "1-0015"

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

/* The touchpad at 0x15 running firmware @fw (0: left in IAP), @extra chip
 * keys; powered by the platform where left in IAP or where the board
 * allows its recovery (the -iap boards), as such boards do, else by the
 * driver; @he_args not NULL: every uevent runs handle-event (udev's RUN). */
static void start_he(const char *compatible, unsigned fw, const char *extra,
		     const char *he_args)
{
	char *b = NULL;

	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e Elan touchpad board\n"
			     "compatible = %s\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "speed = 400000\n"
			     "[chip touchpad]\n"
			     "adapter = 1\n"
			     "address = 0x15\n"
			     "model = elantp\n"
			     "compatible = elan,ekth6915\n"
			     "driver = elan_i2c\n"
			     "elantp.product_id = 18\n"
			     "elantp.fw_version = %u\n"
			     "power = %s\n"
			     "int_gpio = 1\n"
			     "%s"
			     "[gpiochip]\n"
			     "label = emuboard-gpio\n"
			     "lines = 8\n"
			     "line.0 = TP_RESET\n"
			     "line.1 = TP_INT\n",
			     compatible, fw,
			     fw && !strstr(compatible, "-iap") ? "driver" : "always-on",
			     extra ? extra : "") > 0);
	e2e_start_ex(&E, b, he_args);
	free(b);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 10000), 0);
}

static void start(const char *compatible, const char *extra)
{
	start_he(compatible, 5, extra, NULL);
}

/* A touchpad left in IAP: elan_i2c's probe failed, nothing is bound. */
static void start_iap(const char *compatible, const char *extra)
{
	start_he(compatible, 0, extra, NULL);
}

struct chip {
	enum elantp_model_mode mode;
	unsigned fw;
	struct elantp_model_stats stats;
};

static struct chip chip(void)
{
	struct elantp_model *m;
	struct chip c;

	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 20000), 0);
	emub_lock(E.eb);
	m = emub_chip_elantp(E.eb, "touchpad");
	assert_non_null(m);
	c.mode = elantp_model_mode(m);
	c.fw = elantp_model_fw_version(m);
	c.stats = *elantp_model_stats(m);
	emub_unlock(E.eb);
	return c;
}

static void test_older_firmware_is_flashed_by_the_driver_and_rebound(void **state)
{
	struct chip c;
	char *json;

	(void)state;
	start("touchfw,emul-elantp", NULL);
	assert_int_equal(chip().fw, 5);
	expect_rc(0, "run", DEV);
	e2e_said(&E, "/elan_i2c_18.0.bin; asking elan_i2c to flash it (update_fw)");
	e2e_said(&E, "elan_i2c registers no input device again after update_fw: rebinding it");
	e2e_said(&E, "verified: firmware 5.0 -> 6.0");
	c = chip();
	assert_int_equal(c.mode, ELANTP_MODEL_MAIN);
	assert_int_equal(c.fw, 6);
	assert_int_equal(c.stats.iap_entries, 1);
	assert_int_equal(c.stats.pages_written, 512 - 32);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	json = e2e_state_file(&E, DEV ".json");
	assert_non_null(json);
	assert_non_null(strstr(json, "\"path\":\"update_fw\""));
	assert_non_null(strstr(json, "\"version_after\":\"6.0\""));
	free(json);
	expect_rc(0, "run", DEV);
	e2e_said(&E, "running 6.0");
	assert_int_equal(chip().stats.iap_entries, 1);
}

static void test_dry_run_names_the_file_the_driver_requests(void **state)
{
	(void)state;
	start("touchfw,emul-elantp", NULL);
	expect_rc(0, "run", "--dry-run", DEV);
	e2e_said(&E, "through elan_i2c's update_fw as elan_i2c_18.0.bin");
	assert_int_equal(chip().stats.iap_entries, 0);
}

static void test_page_error_midway_fails_the_write_and_leaves_iap(void **state)
{
	struct chip c;

	(void)state;
	start("touchfw,emul-elantp", "fault.iap_page_error = 100\n");
	expect_rc(TF_EXIT_VERIFY, "run", DEV);
	/* elan_sysfs_update_fw returns the update's error to the writer
	 * once elan_update_firmware has reset the IAP. */
	e2e_said(&E, "driver update failed: writing update_fw: Input/output error");
	e2e_said(&E, "an interruption, not a rejection of elantp-18-fw-6.0");
	e2e_not_said(&E, "rebinding it");
	c = chip();
	assert_int_equal(c.mode, ELANTP_MODEL_IAP);
	assert_int_equal(c.stats.pages_written, 100 - 32);
	assert_true(c.stats.page_errors >= 3);
	/* No re-probe after a failed update: elan_i2c stays bound (a
	 * rebind would fail, the touchpad answering only IAP registers),
	 * and the next update_fw flashes from IAP: touchfw says so. */
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	e2e_said(&E, "the chip now runs its bootloader while elan_i2c stays bound, still "
		     "reporting the firmware it had; its update_fw flashes from there, so the "
		     "next 'touchfw run 1-0015' tries again; do not unbind elan_i2c or reboot "
		     "before that: its probe fails on a chip in its bootloader, and the board "
		     "profile does not allow touchfw to recover the chip over the bus "
		     "(allow-bus-recovery)");
	/* ... and it does: the page fault was passing. */
	emub_lock(E.eb);
	emub_chip_elantp(E.eb, "touchpad")->cfg.fail_page = -1;
	emub_unlock(E.eb);
	expect_rc(0, "run", DEV);
	c = chip();
	assert_int_equal(c.mode, ELANTP_MODEL_MAIN);
	assert_int_equal(c.fw, 6);
}

static void test_driver_without_input_device_fails_verification(void **state)
{
	(void)state;
	start("touchfw,emul-elantp", "fault.no_input = true\n");
	expect_rc(TF_EXIT_VERIFY, "run", DEV);
	e2e_said(&E, "rebinding it");
	assert_int_equal(chip().fw, 6);
}

static void test_image_without_signature_is_refused_before_the_chip(void **state)
{
	static uint8_t img[ELANTP_MODEL_FLASH];
	char path[400];
	FILE *f;

	(void)state;
	start("touchfw,emul-elantp", NULL);
	elantp_model_make_image(img, 18, 7);
	img[ELANTP_MODEL_SIG_ADDR] = 0;
	snprintf(path, sizeof(path), "%s/nosig.bin", E.dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(img, 1, sizeof(img), f), sizeof(img));
	assert_int_equal(fclose(f), 0);
	expect_rc(TF_EXIT_BAD_INPUT, "flash", "--firmware", path, DEV);
	e2e_said(&E, "no AA 55 CC 33 FF FF signature where elan_i2c looks for it");
	e2e_error_names_device(E.err, "no AA 55 CC 33 FF FF signature", DEV);
	assert_int_equal(chip().stats.iap_entries, 0);
	assert_int_equal(chip().fw, 5);
}

/* The signature where another ic type has it: touchfw can not tell the
 * touchpad's ic type from the bound driver, so elan_i2c is the judge:
 * signature mismatch, -EBADF from the write, the chip untouched. */
static void test_image_the_driver_refuses_fails_the_write(void **state)
{
	static uint8_t img[640 * ELANTP_MODEL_PAGE];
	char path[400];
	FILE *f;

	(void)state;
	start("touchfw,emul-elantp", NULL);
	elantp_model_make_image(img, 18, 7);
	memset(img + ELANTP_MODEL_SIG_ADDR, 0, 6);
	memcpy(img + sizeof(img) - 6, "\xaa\x55\xcc\x33\xff\xff", 6);
	snprintf(path, sizeof(path), "%s/640pages.bin", E.dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(img, 1, sizeof(img), f), sizeof(img));
	assert_int_equal(fclose(f), 0);
	expect_rc(TF_EXIT_VERIFY, "flash", "--firmware", path, DEV);
	e2e_said(&E, "driver update failed: writing update_fw: Bad file descriptor");
	e2e_not_said(&E, "an interruption");
	e2e_not_said(&E, "rebinding it");
	assert_int_equal(chip().stats.iap_entries, 0);
	assert_int_equal(chip().fw, 5);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
}

static void test_no_profile_for_this_board_touches_nothing(void **state)
{
	(void)state;
	start("touchfw,emul-elantp-unknown", NULL);
	expect_rc(TF_EXIT_NO_PROFILE, "run", DEV);
	assert_int_equal(chip().stats.iap_entries, 0);
}

/* ------------------------------------------------ recovery from IAP */

static void assert_recovered(void)
{
	struct chip c = chip();

	assert_int_equal(c.mode, ELANTP_MODEL_MAIN);
	assert_int_equal(c.fw, 6);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
}

static void test_touchpad_in_iap_is_recovered_over_i2c_dev_where_allowed(void **state)
{
	struct chip c;
	char *json;

	(void)state;
	start_iap("touchfw,emul-elantp-iap", NULL);
	c = chip();
	assert_int_equal(c.mode, ELANTP_MODEL_IAP);
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", "--dry-run", DEV);
	e2e_said(&E, "over i2c-dev at 0x15 (the chip is in its bootloader and no driver is "
		     "bound; the board profile allows bus recovery), then bind elan_i2c");
	assert_int_equal(chip().stats.pages_written, 0);
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "IAP mode at 0x15");
	e2e_said(&E, "flashing elantp-18-fw-6.0 (6.0) at bootloader address 0x15");
	e2e_said(&E, "rebind: binding elan_i2c");
	e2e_said(&E, "verified: firmware (bootloader) -> 6.0");
	assert_recovered();
	c = chip();
	/* from IAP as found: no entry from the application, every page once */
	assert_int_equal(c.stats.iap_entries, 0);
	assert_int_equal(c.stats.pages_written, 512 - 32);
	assert_int_equal(c.stats.page_errors, 0);
	json = e2e_state_file(&E, DEV ".json");
	assert_non_null(json);
	assert_non_null(strstr(json, "\"path\":\"bootloader\""));
	assert_non_null(strstr(json, "\"version_after\":\"6.0\""));
	free(json);
	/* elan_i2c now runs it: the next run is up to date */
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "running 6.0");
	assert_int_equal(chip().stats.pages_written, 512 - 32);
}

/* The same failure where the board allows recovery over i2c-dev: the
 * message says the other way on, and it holds -- after an unbind elan_i2c
 * can not bind, and the next run recovers the touchpad over the bus. */
static void test_page_error_midway_where_recovery_is_allowed_names_it(void **state)
{
	struct chip c;

	(void)state;
	start_he("touchfw,emul-elantp-iap", 5, "fault.iap_page_error = 100\n", NULL);
	expect_rc(TF_EXIT_VERIFY, "run", DEV);
	e2e_said(&E,
		 "its update_fw flashes from there, so the next 'touchfw run 1-0015' tries "
		 "again; after an unbind or a reboot elan_i2c can not bind (its probe fails "
		 "on a chip in its bootloader), and 'touchfw run 1-0015' then recovers the "
		 "chip over the bus, as the board profile allows (allow-bus-recovery)");
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	assert_int_equal(chip().mode, ELANTP_MODEL_IAP);
	emub_lock(E.eb);
	emub_chip_elantp(E.eb, "touchpad")->cfg.fail_page = -1;
	emub_unlock(E.eb);
	assert_int_equal(emub_unbind(E.eb, "touchpad"), 0);
	/* elan_i2c's probe fails on the touchpad in IAP. */
	assert_int_not_equal(emub_bind(E.eb, "touchpad"), 0);
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(0, "run", DEV);
	e2e_said(&E, "bootloader mode: IAP mode at 0x15");
	c = chip();
	assert_int_equal(c.mode, ELANTP_MODEL_MAIN);
	assert_int_equal(c.fw, 6);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
}

/* The board's profile as the example, but without allow-bus-recovery, as
 * the only profile (compiled with dtc like the build does). */
static void profile_without_consent(void)
{
	const char *top = getenv("TOUCHFW_TOP");
	char path[400], cmd[1200], *text = NULL, *q, *out = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/boards/examples/emul-elantp-iap.dts",
		 top && *top ? top : ".");
	assert_int_equal(tf_read_file(path, 1 << 20, &text, &len), 0);
	q = strstr(text, "allow-bus-recovery;");
	assert_non_null(q);
	assert_true(asprintf(&out, "%.*s%s", (int)(q - text), text,
			     q + strlen("allow-bus-recovery;")) > 0);
	free(text);
	snprintf(path, sizeof(path), "%s/no-consent.dts", E.dir);
	e2e_write(path, out);
	free(out);
	snprintf(E.boards, sizeof(E.boards), "%s/boards", E.dir);
	assert_int_equal(mkdir(E.boards, 0755), 0);
	snprintf(cmd, sizeof(cmd), "dtc -q -I dts -O dtb -o '%s/emul-elantp-iap.dtb' '%s'",
		 E.boards, path);
	assert_int_equal(system(cmd), 0);
	e2e_settings(&E, NULL);
}

static void test_touchpad_in_iap_without_consent_is_left_untouched(void **state)
{
	struct chip c;

	(void)state;
	start_iap("touchfw,emul-elantp-iap", NULL);
	profile_without_consent();
	expect_rc(TF_EXIT_UNSUPPORTED, "run", "--dry-run", DEV);
	expect_rc(TF_EXIT_UNSUPPORTED, "run", DEV);
	e2e_said(&E, "1-0015 is in its bootloader (IAP mode at 0x15");
	e2e_said(&E, "does not allow that: its maker adds allow-bus-recovery to "
		     "/controllers/touchpad@15");
	e2e_said(&E, "the chip was not touched");
	c = chip();
	assert_int_equal(c.mode, ELANTP_MODEL_IAP);
	assert_int_equal(c.stats.pages_written, 0);
	assert_int_equal(c.stats.page_errors, 0);
	assert_int_equal(c.stats.iap_entries, 0);
	assert_false(emub_dev_bound(E.eb, "touchpad"));
}

static void test_page_errors_midway_leave_iap_for_the_next_run(void **state)
{
	struct elantp_model *m;
	struct chip c;

	(void)state;
	start_iap("touchfw,emul-elantp-iap", "fault.iap_page_error = 100\n");
	expect_rc(TF_EXIT_BOOTLOADER, "run", DEV);
	e2e_said(&E, "the touchpad reports a failed write of page 100 (IAP control 0x0020: "
		     "page error)");
	c = chip();
	assert_int_equal(c.mode, ELANTP_MODEL_IAP);
	assert_int_equal(c.stats.pages_written, 100 - 32);
	assert_int_equal(c.stats.page_errors, 3); /* tried ETP_RETRY_COUNT times */
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	/* reset as the driver does after a failed update: in IAP at its
	 * address, locked -- what the next run finds (test_power_loss_...
	 * shows that run recovering it) */
	emub_lock(E.eb);
	m = emub_chip_elantp(E.eb, "touchpad");
	assert_false(m->iap.unlocked);
	emub_unlock(E.eb);
	expect_rc(TF_EXIT_OK, "run", "--dry-run", DEV);
	e2e_said(&E, "bootloader mode: IAP mode at 0x15");
}

static void test_power_loss_midway_leaves_iap_and_a_rerun_recovers(void **state)
{
	struct chip c;

	(void)state;
	start_iap("touchfw,emul-elantp-iap", "fault.iap_power_loss = 200\n");
	expect_rc(TF_EXIT_BOOTLOADER, "run", DEV);
	/* the page after the brown-out finds the chip locked again */
	e2e_said(&E, "failed write of page 201 (IAP control 0x0010: interface error)");
	c = chip();
	assert_int_equal(c.stats.power_losses, 1);
	assert_int_equal(c.mode, ELANTP_MODEL_IAP);
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", DEV);
	assert_recovered();
}

/* At boot: the kernel adds the touchpad, elan_i2c's probe fails on it (no
 * bind), and udev's add runs handle-event, which hands it to a run. */
static void test_add_of_a_touchpad_in_iap_starts_its_recovery(void **state)
{
	char path[400], *log = NULL;
	size_t n;

	(void)state;
	start_he("touchfw,emul-elantp-iap", 0, NULL, "");
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	/* the kernel adds it (as at boot): elan_i2c probes, fails, no bind */
	assert_int_equal(emub_replug(E.eb, "touchpad"), 0);
	e2e_wait_run_done(&E, DEV);
	snprintf(path, sizeof(path), "%s/he.log", E.dir);
	assert_int_equal(tf_read_file(path, 1 << 20, &log, &n), 0);
	e2e_keep(&E, log);
	if (!emub_dev_bound(E.eb, "touchpad"))
		fail_msg("not recovered; handle-event said:\n%s", log);
	assert_non_null(strstr(log, "add (driver none yet): handed to"));
	assert_recovered();
}

/*
 * As Linux 6.12 showed it (kmod-touchfw-elan): the run the add started
 * looked at the touchpad while elan_i2c's probe of it, which fails on a
 * touchpad in IAP, was still running, so the driver link was there; then
 * the probe failed and took the link away.  A run that took the link for a
 * bound driver waited for product_id and gave up ("has no readable
 * attribute"), leaving the touchpad in IAP.  The emulated driver core
 * shows the link during the probe and holds the probe until the run has
 * said it saw elan_i2c; then the probe fails.
 */
static bool run_log_has(const char *text)
{
	char *log = e2e_state_file(&E, DEV ".log");
	bool has = log && strstr(log, text);

	free(log);
	return has;
}

static void test_add_seen_during_a_probe_that_fails_still_recovers(void **state)
{
	char *log = NULL;

	(void)state;
	start_he("touchfw,emul-elantp-iap", 0, NULL, "");
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	assert_int_equal(emub_hold_probe(E.eb, "touchpad", true), 0);
	assert_int_equal(emub_replug(E.eb, "touchpad"), 0);
	e2e_wait_until(run_log_has("driver elan_i2c"), 0, 60000,
		       "the run to see the probe's driver link");
	assert_int_equal(emub_hold_probe(E.eb, "touchpad", false), 0);
	/* bounded poll; the check below names what the run said */
	for (long long end = e2e_now_ms() + 60000;
	     !emub_dev_bound(E.eb, "touchpad") && e2e_now_ms() < end;)
		usleep(1000);
	log = e2e_state_file(&E, DEV ".log");
	if (!emub_dev_bound(E.eb, "touchpad"))
		fail_msg("not recovered; the run said:\n%s", log ? log : "(nothing)");
	assert_non_null(log);
	assert_non_null(strstr(log, "driver elan_i2c let go of the device while its attribute "
				    "product_id was awaited"));
	assert_non_null(strstr(log, "IAP mode at 0x15"));
	free(log);
	assert_recovered();
}

/* ------------------------------------------- not an Elan touchpad at all */

/*
 * A zero-filled 24C02 at 0x15 on the board whose profile allows bus
 * recovery (issue 27 item 2): its address pointer takes the register's
 * low byte, so every "register" reads back bytes of its memory and, with
 * the writes of an IAP handshake, seems to echo them.  No driver binds it.
 * Every bus transfer goes to E.dir/emuboard.log.
 */
static void start_eeprom(const char *he_args)
{

	e2e_prepare(&E,
		    "[board]\n"
		    "name = touchfw e2e board with an EEPROM where the touchpad would be\n"
		    "compatible = touchfw,emul-elantp-iap\n"
		    "pacing = fast\n"
		    "[adapter 1]\n"
		    "name = touchfw emulated adapter 1\n"
		    "speed = 400000\n"
		    "[chip touchpad]\n"
		    "adapter = 1\n"
		    "address = 0x15\n"
		    "model = eeprom\n"
		    "compatible = elan,ekth6915\n"
		    "power = always-on\n"
		    "eeprom.fill = 0x00\n",
		    he_args);
	e2e_trace_on(&E);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 10000), 0);
}

static void assert_eeprom_untouched(void)
{
	struct eeprom_model *m;
	unsigned i;

	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 20000), 0);
	emub_lock(E.eb);
	m = emub_chip_eeprom(E.eb, "touchpad");
	assert_non_null(m);
	assert_int_equal(eeprom_model_stats(m)->write_cycles, 0);
	assert_int_equal(eeprom_model_stats(m)->bytes_written, 0);
	for (i = 0; i < 256; i++)
		if (eeprom_model_peek(m, (em_u16)i))
			break;
	emub_unlock(E.eb);
	assert_int_equal(i, 256);
	/* it was asked (register pointers of 2 bytes, then reads) */
	assert_true(e2e_traced_no_write(&E, 0x15, 2) > 0);
}

static void test_eeprom_where_the_touchpad_would_be_is_refused_untouched(void **state)
{
	(void)state;
	start_eeprom(NULL);
	expect_rc(TF_EXIT_UNSUPPORTED, "run", "--dry-run", DEV);
	e2e_said(&E, "not an Elan touchpad");
	expect_rc(TF_EXIT_UNSUPPORTED, "run", DEV);
	e2e_said(&E, "not an Elan touchpad");
	assert_eeprom_untouched();
	expect_rc(TF_EXIT_UNSUPPORTED, "run", DEV);
	assert_eeprom_untouched();
}

/* The same through udev: the add of the EEPROM's client (no driver binds
 * it; coldplug's "add", as `udevadm trigger` replays it) runs handle-event
 * (udev's RUN), which hands it to a run: refused, nothing written. */
static void test_add_of_an_eeprom_where_the_touchpad_would_be_writes_nothing(void **state)
{
	char path[400], *log = NULL, *he;
	size_t n;

	(void)state;
	start_eeprom("");
	assert_int_equal(emub_uevent(E.eb, "touchpad", "add"), 0);
	e2e_wait_until(e2e_run_done(&E, DEV), 0, 120000, "the run the add started");
	assert_int_equal(emub_wait_board_idle(E.eb, 60000), 0);
	snprintf(path, sizeof(path), "%s/he.log", E.dir);
	assert_int_equal(tf_read_file(path, 1 << 20, &log, &n), 0);
	he = e2e_keep(&E, log);
	assert_non_null(strstr(he, "handed to"));
	log = e2e_state_file(&E, DEV ".log");
	assert_non_null(log);
	e2e_keep(&E, log);
	if (!strstr(log, "not an Elan touchpad")) {
		/* what there was to see, for a failure found once under load
		 * (issue 28): the result, handle-event's lines, the files */
		char *json = e2e_state_file(&E, DEV ".json"), cmd[600];

		e2e_keep(&E, json);
		fprintf(stderr, "--- he.log\n%s--- %s.json\n%s\n", he, DEV,
			json ? json : "(none)");
		snprintf(cmd, sizeof(cmd), "ls -lai --full-time '%s/state' >&2", E.dir);
		if (system(cmd) != 0)
			fprintf(stderr, "(no listing)\n");
		fail_msg("the run said:\n%s", log);
	}
	assert_eeprom_untouched();
}

/* Product 19 in IAP, the database's image for 18 (issue 27 item 3): the
 * touchpad's IAP answers its product id, the image for another is not
 * sent -- no page, no unlock -- and the touchpad stays as it was. */
static void test_touchpad_of_another_product_in_iap_is_not_given_this_image(void **state)
{
	char *b = NULL;
	struct chip c;

	(void)state;
	assert_true(asprintf(&b, "[board]\n"
				 "name = touchfw e2e Elan touchpad board\n"
				 "compatible = touchfw,emul-elantp-iap\n"
				 "pacing = fast\n"
				 "[adapter 1]\n"
				 "name = touchfw emulated adapter 1\n"
				 "speed = 400000\n"
				 "[chip touchpad]\n"
				 "adapter = 1\n"
				 "address = 0x15\n"
				 "model = elantp\n"
				 "compatible = elan,ekth6915\n"
				 "driver = elan_i2c\n"
				 "elantp.product_id = 19\n"
				 "elantp.fw_version = 0\n"
				 "power = always-on\n") > 0);
	e2e_start(&E, b);
	free(b);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 10000), 0);
	assert_int_equal(chip().mode, ELANTP_MODEL_IAP);
	expect_rc(TF_EXIT_NO_FIRMWARE, "run", DEV);
	e2e_said(&E, "product 19");
	c = chip();
	assert_int_equal(c.mode, ELANTP_MODEL_IAP);
	assert_int_equal(c.stats.pages_written, 0);
	assert_int_equal(c.stats.page_errors, 0);
	assert_int_equal(c.stats.iap_entries, 0);
	emub_lock(E.eb);
	assert_false(emub_chip_elantp(E.eb, "touchpad")->iap.unlocked);
	emub_unlock(E.eb);
	assert_false(emub_dev_bound(E.eb, "touchpad"));
}

/* The same with the image given by hand (flash --firmware, no manifest
 * to match): the image names its product where fwupd reads it (the
 * module id the word at its IAP start points to), and an image for 18 is
 * not sent to product 19 -- no unlock, no page. */
static void test_image_for_another_product_given_by_hand_is_not_sent(void **state)
{
	static uint8_t img[ELANTP_MODEL_FLASH];
	char path[400], *b = NULL;
	struct chip c;
	FILE *f;

	(void)state;
	assert_true(asprintf(&b, "[board]\n"
				 "name = touchfw e2e Elan touchpad board\n"
				 "compatible = touchfw,emul-elantp-iap\n"
				 "pacing = fast\n"
				 "[adapter 1]\n"
				 "name = touchfw emulated adapter 1\n"
				 "speed = 400000\n"
				 "[chip touchpad]\n"
				 "adapter = 1\n"
				 "address = 0x15\n"
				 "model = elantp\n"
				 "compatible = elan,ekth6915\n"
				 "driver = elan_i2c\n"
				 "elantp.product_id = 19\n"
				 "elantp.fw_version = 0\n"
				 "power = always-on\n") > 0);
	e2e_start(&E, b);
	free(b);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 10000), 0);
	elantp_model_make_image(img, 18, 7);
	snprintf(path, sizeof(path), "%s/for-18.bin", E.dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(img, 1, sizeof(img), f), sizeof(img));
	assert_int_equal(fclose(f), 0);
	expect_rc(TF_EXIT_UNSUPPORTED, "flash", "--firmware", path, DEV);
	e2e_said(&E, "the image is for product 18 (its module id), the touchpad is product 19");
	c = chip();
	assert_int_equal(c.mode, ELANTP_MODEL_IAP);
	assert_int_equal(c.stats.pages_written, 0);
	assert_int_equal(c.stats.page_errors, 0);
	emub_lock(E.eb);
	assert_false(emub_chip_elantp(E.eb, "touchpad")->iap.unlocked);
	emub_unlock(E.eb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_older_firmware_is_flashed_by_the_driver_and_rebound, teardown),
		cmocka_unit_test_teardown(test_dry_run_names_the_file_the_driver_requests,
					  teardown),
		cmocka_unit_test_teardown(test_page_error_midway_fails_the_write_and_leaves_iap,
					  teardown),
		cmocka_unit_test_teardown(test_image_the_driver_refuses_fails_the_write,
					  teardown),
		cmocka_unit_test_teardown(test_driver_without_input_device_fails_verification,
					  teardown),
		cmocka_unit_test_teardown(
			test_image_without_signature_is_refused_before_the_chip, teardown),
		cmocka_unit_test_teardown(test_no_profile_for_this_board_touches_nothing,
					  teardown),
		cmocka_unit_test_teardown(
			test_touchpad_in_iap_is_recovered_over_i2c_dev_where_allowed, teardown),
		cmocka_unit_test_teardown(
			test_page_error_midway_where_recovery_is_allowed_names_it, teardown),
		cmocka_unit_test_teardown(
			test_touchpad_in_iap_without_consent_is_left_untouched, teardown),
		cmocka_unit_test_teardown(test_page_errors_midway_leave_iap_for_the_next_run,
					  teardown),
		cmocka_unit_test_teardown(
			test_power_loss_midway_leaves_iap_and_a_rerun_recovers, teardown),
		cmocka_unit_test_teardown(test_add_of_a_touchpad_in_iap_starts_its_recovery,
					  teardown),
		cmocka_unit_test_teardown(
			test_add_seen_during_a_probe_that_fails_still_recovers, teardown),
		cmocka_unit_test_teardown(
			test_eeprom_where_the_touchpad_would_be_is_refused_untouched, teardown),
		cmocka_unit_test_teardown(
			test_add_of_an_eeprom_where_the_touchpad_would_be_writes_nothing,
			teardown),
		cmocka_unit_test_teardown(
			test_touchpad_of_another_product_in_iap_is_not_given_this_image,
			teardown),
		cmocka_unit_test_teardown(
			test_image_for_another_product_given_by_hand_is_not_sent, teardown),
	};

	e2e_test_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
