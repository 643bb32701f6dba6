// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end on an emulated Elan touchpad on SMBus (issue 24 item 5): the
 * touchpad model speaking elan_i2c_smbus's commands (elantp.transport =
 * smbus) behind an SMBus-only adapter, the emulated elan_i2c taking its
 * SMBus path there, the real touchfw binaries.  Bound, touchfw reads the
 * same attributes as over i2c (product_id is the unique id: 776 here, sample
 * version 3 and ic type 0x08) and flashes through update_fw.  Left in IAP,
 * where the profile allows bus recovery, touchfw recovers it over i2c-dev
 * with SMBus block transfers as elan_i2c_smbus does -- on an adapter that
 * offers them (block reads: an i2c-i801-like one, here the one with Host
 * Notify); on one that does not it refuses before sending anything, as it
 * refuses anything at the address that is not an Elan touchpad.
 */
#include "emub-elantp.h"
#include "e2e.h"

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

/*
 * The touchpad (product 776, its application from page 496) at 0x15 on an
 * SMBus-only adapter, with Host Notify (and block reads) or without;
 * firmware @fw (0: left in IAP, platform-powered); @chip_text replaces the
 * chip's model keys (an EEPROM); every bus transfer traced to
 * E.dir/emuboard.log.
 */
static void start(const char *compatible, unsigned fw, bool host_notify, const char *chip_text)
{
	char *b = NULL, *keys = NULL;

	assert_true(asprintf(&keys,
			     "model = elantp\n"
			     "driver = elan_i2c\n"
			     "elantp.transport = smbus\n"
			     "elantp.product_id = 776\n"
			     "elantp.iap_start_page = 496\n"
			     "elantp.fw_version = %u\n"
			     "power = %s\n",
			     fw,
			     fw && !strstr(compatible, "-iap") ? "driver" : "always-on") > 0);
	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e Elan SMBus touchpad board\n"
			     "compatible = %s\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "smbus_only = true\n"
			     "host_notify = %s\n"
			     "[chip touchpad]\n"
			     "adapter = 1\n"
			     "address = 0x15\n"
			     "compatible = elan,ekth6915\n"
			     "%s"
			     "[gpiochip]\n"
			     "label = emuboard-gpio\n"
			     "lines = 8\n"
			     "line.0 = TP_RESET\n"
			     "line.1 = TP_INT\n",
			     compatible, host_notify ? "true" : "false",
			     chip_text ? chip_text : keys) > 0);
	free(keys);
	e2e_prepare(&E, b, NULL);
	free(b);
	e2e_trace_on(&E);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 10000), 0);
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

/* Nothing but reads (a command byte, then the block) reached 0x15. */
static void assert_only_reads(void)
{

	assert_true(e2e_traced_no_write(&E, 0x15, 1) > 0);
}

static void test_bound_on_smbus_is_flashed_through_update_fw(void **state)
{
	struct chip c;

	(void)state;
	start("touchfw,emul-elantp", 5, true, NULL);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "application mode: hardware 776, firmware 5.0");
	e2e_said(&E, "/elan_i2c_776.0.bin; asking elan_i2c to flash it (update_fw)");
	e2e_said(&E, "verified: firmware 5.0 -> 6.0");
	c = chip();
	assert_int_equal(c.mode, ELANTP_MODEL_MAIN);
	assert_int_equal(c.fw, 6);
	assert_int_equal(c.stats.iap_entries, 1);
	assert_int_equal(c.stats.pages_written, 16);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "running 6.0");
}

static void test_in_iap_on_smbus_is_recovered_where_allowed(void **state)
{
	struct chip c;

	(void)state;
	start("touchfw,emul-elantp-iap", 0, true, NULL);
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	assert_int_equal(chip().mode, ELANTP_MODEL_IAP);
	expect_rc(TF_EXIT_OK, "run", "--dry-run", DEV);
	e2e_said(&E, "IAP mode at 0x15 on SMBus");
	assert_int_equal(chip().stats.pages_written, 0);
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "IAP mode at 0x15 on SMBus (control 0x0040), product 776");
	e2e_said(&E, "flashing elantp-776-fw-6.0 (6.0) at bootloader address 0x15");
	e2e_said(&E, "verified: firmware (bootloader) -> 6.0");
	c = chip();
	assert_int_equal(c.mode, ELANTP_MODEL_MAIN);
	assert_int_equal(c.fw, 6);
	/* from IAP as found: the flash key and the IAP reset, every page once */
	assert_int_equal(c.stats.iap_entries, 0);
	assert_int_equal(c.stats.pages_written, 16);
	assert_int_equal(c.stats.page_errors, 0);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "running 6.0");
}

/* An SMBus controller without block reads: nothing is sent, not even a
 * read, and the message says why. */
static void test_adapter_without_block_reads_is_refused_untouched(void **state)
{
	struct chip c;

	(void)state;
	start("touchfw,emul-elantp-iap", 0, false, NULL);
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_UNSUPPORTED, "run", DEV);
	e2e_said(&E, "SMBus-only without SMBus block reads, block writes or send byte");
	e2e_said(&E, "not read, not touched");
	c = chip();
	assert_int_equal(c.mode, ELANTP_MODEL_IAP);
	assert_int_equal(c.stats.pages_written, 0);
	assert_int_equal(c.stats.resets, 0);
}

/* A zero-filled 24C02 where the touchpad would be: its "blocks" have no
 * count, so it is no Elan touchpad; only reads reached it. */
static void test_eeprom_on_smbus_is_refused_with_reads_only(void **state)
{
	(void)state;
	start("touchfw,emul-elantp-iap", 0, true,
	      "model = eeprom\npower = always-on\neeprom.fill = 0x00\n");
	expect_rc(TF_EXIT_UNSUPPORTED, "run", DEV);
	e2e_said(&E, "is not an Elan touchpad on SMBus");
	assert_only_reads();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_bound_on_smbus_is_flashed_through_update_fw,
					  teardown),
		cmocka_unit_test_teardown(test_in_iap_on_smbus_is_recovered_where_allowed,
					  teardown),
		cmocka_unit_test_teardown(test_adapter_without_block_reads_is_refused_untouched,
					  teardown),
		cmocka_unit_test_teardown(test_eeprom_on_smbus_is_refused_with_reads_only,
					  teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
