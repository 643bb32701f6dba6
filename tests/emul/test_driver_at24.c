// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The at24 driver model: probe's one-byte test read (over i2c, or an SMBus
 * I2C-block read on an SMBus-only adapter), ENODEV when the chip does not
 * answer, the supply it switches, and the bus traffic counted as the
 * driver's.
 */
#include <sys/wait.h>

#include "emub-eeprom.h"
#include "eeprom_model.h"
#include "emub-testutil.h"

#define BOARD(adapter_extra, chip_extra)                                         \
	"[board]\nname = at24\ncompatible = t,at24\n[adapter 1]\n" adapter_extra \
	"[chip eeprom]\nadapter = 1\naddress = 0x50\nmodel = eeprom\n"           \
	"compatible = atmel,24c02\ndriver = at24\n" chip_extra

/*
 * Writes to a driver's bind and unbind files that come close together
 * (two programs rebinding two devices of one driver) all count, as each
 * write(2) is a store in the kernel.  The files used to be plain files
 * read after the writer closed them, so the second write replaced the
 * first before it was read and one device stayed bound.  printf writes
 * no newline, so the two names also arrive in one read.
 */
static void test_writes_close_together_to_unbind_all_count(void **state)
{
	struct emub *eb = tu_board_text(
		"[board]\nname = at24\ncompatible = t,at24\n[adapter 1]\n"
		"[chip e0]\nadapter = 1\naddress = 0x50\nmodel = eeprom\n"
		"compatible = atmel,24c02\ndriver = at24\npower = always-on\n"
		"[chip e1]\nadapter = 1\naddress = 0x51\nmodel = eeprom\n"
		"compatible = atmel,24c02\ndriver = at24\npower = always-on\n");
	char *out;

	(void)state;
	for (int i = 0; i < 10; i++) {
		assert_int_equal(tu_sh(eb, &out,
				       "d=/sys/bus/i2c/drivers/at24; printf 1-0050 >$d/unbind; "
				       "printf 1-0051 >$d/unbind"),
				 0);
		g_free(out);
		assert_int_equal(emub_wait_idle(eb, "e0", 5000), 0);
		assert_int_equal(emub_wait_idle(eb, "e1", 5000), 0);
		assert_false(emub_dev_bound(eb, "e0"));
		assert_false(emub_dev_bound(eb, "e1"));
		assert_int_equal(tu_sh(eb, &out,
				       "d=/sys/bus/i2c/drivers/at24; echo 1-0051 >$d/bind; "
				       "echo 1-0050 >$d/bind"),
				 0);
		g_free(out);
		assert_int_equal(emub_wait_idle(eb, "e0", 5000), 0);
		assert_int_equal(emub_wait_idle(eb, "e1", 5000), 0);
		assert_true(emub_dev_bound(eb, "e0"));
		assert_true(emub_dev_bound(eb, "e1"));
	}
	/* a name no device has: nothing happens (ENODEV in the kernel) */
	assert_int_equal(tu_sh(eb, &out, "echo 1-0052 >/sys/bus/i2c/drivers/at24/unbind"), 0);
	g_free(out);
	assert_int_equal(emub_wait_idle(eb, "e0", 5000), 0);
	assert_true(emub_dev_bound(eb, "e0"));
	assert_true(emub_dev_bound(eb, "e1"));
	emub_free(eb);
}

/*
 * A probe that fails leaves no driver link behind, and shows none while it
 * runs: the bind write returned at once (unlike the kernel's, which returns
 * after the probe), and a writer that waits for the link (touchfw) took a
 * probe in progress for a bound driver when it looked in time.  at24's
 * probe retries a NAKed chip for 25 ms (realtime: 25 ms of wall time).
 */
static void test_a_failing_probe_shows_no_driver_link(void **state)
{
	struct emub *eb = NULL;
	char err[256], *link;
	bool seen = false;
	char *out;

	(void)state;
	assert_int_equal(emub_new_from_string(BOARD("", "power = always-on\nbound = false\n"
							"fault.nak = 0x50\n"),
					      tu_top(), &eb, err, sizeof(err)),
			 0);
	emub_set_realtime(eb, true);
	assert_int_equal(emub_start(eb), 0);
	link = g_strdup_printf("%s/sys/bus/i2c/devices/1-0050/driver", emub_root(eb));
	assert_int_equal(tu_sh(eb, &out, "echo 1-0050 > /sys/bus/i2c/drivers/at24/bind"), 0);
	g_free(out);
	for (int i = 0; i < 200; i++) {
		seen |= g_file_test(link, G_FILE_TEST_IS_SYMLINK);
		g_usleep(500);
	}
	assert_int_equal(emub_wait_idle(eb, "eeprom", 5000), 0);
	assert_false(emub_dev_bound(eb, "eeprom"));
	assert_false(g_file_test(link, G_FILE_TEST_IS_SYMLINK));
	assert_false(seen);
	/* a probe that succeeds: the link is there once bound */
	assert_int_equal(emub_set_nak(eb, 1, 0x50, false), 0);
	assert_int_equal(tu_sh(eb, &out, "echo 1-0050 > /sys/bus/i2c/drivers/at24/bind"), 0);
	g_free(out);
	assert_int_equal(emub_wait_idle(eb, "eeprom", 5000), 0);
	assert_true(emub_dev_bound(eb, "eeprom"));
	assert_true(g_file_test(link, G_FILE_TEST_IS_SYMLINK));
	g_free(link);
	emub_free(eb);
}

static void test_probe_reads_one_byte_and_binds(void **state)
{
	struct emub *eb = tu_board_text(BOARD("", "power = driver\n"));
	struct emub_bus_counters u, d;

	(void)state;
	assert_true(emub_dev_bound(eb, "eeprom"));
	assert_true(emub_chip_powered(eb, "eeprom"));
	assert_int_equal(emub_adapter_counters(eb, 1, &u, &d), 0);
	assert_int_equal(u.transactions, 0);
	assert_int_equal(d.transactions, 1); /* write offset 0, read 1 */
	assert_int_equal(d.bytes_written, 1);
	assert_int_equal(d.bytes_read, 1);
	/* remove switches a driver-controlled supply off */
	assert_int_equal(emub_unbind(eb, "eeprom"), 0);
	assert_false(emub_chip_powered(eb, "eeprom"));
	emub_free(eb);
}

static void test_probe_fails_with_enodev_when_nobody_answers(void **state)
{
	struct emub *eb = tu_board_text(BOARD("", "bound = false\nfault.nak = 0x50\n"));
	struct emub_bus_counters d;

	(void)state;
	assert_int_equal(emub_bind(eb, "eeprom"), -ENODEV);
	assert_false(emub_dev_bound(eb, "eeprom"));
	/* retried for at24's 25 ms write timeout, 1 ms apart */
	assert_int_equal(emub_adapter_counters(eb, 1, NULL, &d), 0);
	assert_true(d.transactions >= 25);
	assert_int_equal(d.naks, d.transactions);
	emub_free(eb);
}

static void test_probe_on_smbus_only_adapter(void **state)
{
	struct emub *eb = tu_board_text(BOARD("smbus_only = true\n", "power = always-on\n"));

	(void)state;
	assert_true(emub_dev_bound(eb, "eeprom"));
	emub_free(eb);
}

static void test_probe_waits_out_a_write_cycle(void **state)
{
	struct emub *eb = tu_board_text(BOARD("", "power = always-on\nbound = false\n"));
	char *out;

	(void)state;
	emub_set_realtime(eb, true); /* ignored after start */
	assert_false(emub_realtime(eb));
	assert_int_equal(tu_sh(eb, &out, "i2cset -y 1 0x50 0x00 0x42"), 0);
	g_free(out);
	/* the write cycle is still running in model time: the first test
	 * reads are NAKed, the probe retries and binds */
	assert_int_equal(emub_bind(eb, "eeprom"), 0);
	emub_lock(eb);
	assert_true(eeprom_model_stats(emub_chip_eeprom(eb, "eeprom"))->busy_naks >= 1);
	assert_int_equal(eeprom_model_peek(emub_chip_eeprom(eb, "eeprom"), 0), 0x42);
	emub_unlock(eb);
	emub_free(eb);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writes_close_together_to_unbind_all_count),
		cmocka_unit_test(test_a_failing_probe_shows_no_driver_link),
		cmocka_unit_test(test_probe_reads_one_byte_and_binds),
		cmocka_unit_test(test_probe_fails_with_enodev_when_nobody_answers),
		cmocka_unit_test(test_probe_on_smbus_only_adapter),
		cmocka_unit_test(test_probe_waits_out_a_write_cycle),
	};

	(void)argc;
	tu_init(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
