// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Real, unmodified tools on emulated boards: i2cdetect, i2ctransfer,
 * i2cget, i2cset and i2cdump from i2c-tools against a maXTouch in
 * application and bootloader mode and 24C02 EEPROMs (plain i2c and an
 * SMBus-only adapter), gpiodetect/gpioinfo from libgpiod against the
 * emulated gpiochip.  What they print is what they print on a real kernel
 * for the same board state.
 */
#include <sys/wait.h>

#include "emub-eeprom.h"
#include "emub-mxt.h"
#include "eeprom_model.h"
#include "emub-testutil.h"
#include "mxt_model.h"

/* i2cdetect row "40:" */
static char *row(const char *out, const char *prefix)
{
	const char *p = strstr(out, prefix);
	const char *e = p ? strchr(p, '\n') : NULL;

	return p ? g_strndup(p, e ? (size_t)(e - p) : strlen(p)) : g_strdup("");
}

static void test_i2cdetect_shows_bound_app_chip_as_UU(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	char *out, *r40;

	(void)state;
	assert_int_equal(tu_sh(eb, &out, "i2cdetect -y 1"), 0);
	r40 = row(out, "40:");
	/* bound client: I2C_SLAVE fails with EBUSY, i2cdetect prints UU */
	assert_string_equal(r40, "40: -- -- -- -- -- -- -- -- -- -- UU -- -- -- -- -- ");
	assert_not_contains(out, " 24 ");
	g_free(r40);
	g_free(out);
	emub_free(eb);
}

static void test_i2cdetect_shows_bootloader_address_in_bootloader_mode(void **state)
{
	struct emub *eb = tu_board_file("demo.board", false);
	char *out, *r20, *r40;

	(void)state;
	assert_int_equal(tu_sh(eb, &out, "i2cdetect -y 1"), 0);
	r20 = row(out, "20:");
	r40 = row(out, "40:");
	/* no client claims the bootloader address, the app address is bound */
	assert_string_equal(r20, "20: -- -- -- -- 24 -- -- -- -- -- -- -- -- -- -- -- ");
	assert_string_equal(r40, "40: -- -- -- -- -- -- -- -- -- -- UU -- -- -- -- -- ");
	g_free(r20);
	g_free(r40);
	g_free(out);
	emub_free(eb);
}

static void test_i2cdetect_finds_nothing_when_driver_switched_supply_is_off(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	char *out, *r40;

	(void)state;
	assert_int_equal(emub_unbind(eb, "touchscreen"), 0);
	assert_false(emub_chip_powered(eb, "touchscreen"));
	assert_int_equal(tu_sh(eb, &out, "i2cdetect -y 1"), 0);
	r40 = row(out, "40:");
	assert_string_equal(r40, "40: -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- -- ");
	g_free(r40);
	g_free(out);
	emub_free(eb);
}

static void test_i2ctransfer_reads_info_block_in_app_mode(void **state)
{
	struct emub *eb = tu_board_file("always-on.board", false);
	char *out;

	(void)state;
	/* bound: i2ctransfer checks the address with I2C_SLAVE first */
	assert_int_not_equal(tu_sh(eb, &out, "i2ctransfer -y 1 w2@0x4a 0x00 0x00 r7"), 0);
	assert_contains(out, "Device or resource busy");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "i2ctransfer -f -y 1 w2@0x4a 0x00 0x00 r7"), 0);
	assert_string_equal(out, "0x81 0x01 0x10 0xaa 0x13 0x0b 0x0c\n");
	g_free(out);
	/* unbound on an always-on supply: no -f needed */
	assert_int_equal(emub_unbind(eb, "touchscreen"), 0);
	assert_int_equal(tu_sh(eb, &out, "i2ctransfer -y 1 w2@0x4a 0x00 0x00 r7"), 0);
	assert_string_equal(out, "0x81 0x01 0x10 0xaa 0x13 0x0b 0x0c\n");
	g_free(out);
	emub_free(eb);
}

/*
 * The red team's script (issue 27, item 12) with i2c-tools, as they ran it:
 * two bytes into T38 (user data, 0x00e5 on the mXT224E), BACKUPNV (T6 + 1
 * = 0x55), RESET (T6 + 0 = 1, which waits for the backup), then T38 read
 * back once the chip answers again (a bounded retry: each attempt in fast
 * pacing moves the chip on to its next event).  T38 is configuration: it
 * reads back 0x50 0x51, not 0x00 0x00.
 */
static void test_i2ctransfer_t38_survives_backupnv_and_reset(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	em_u16 t38 = 0, t6 = 0;
	char *out;

	(void)state;
	emub_lock(eb);
	assert_true(mxt_model_object(emub_chip_mxt(eb, "touchscreen"), 38, &t38, NULL));
	assert_true(mxt_model_object(emub_chip_mxt(eb, "touchscreen"), 6, &t6, NULL));
	emub_unlock(eb);
	assert_int_equal(t38, 0xe5);
	assert_int_equal(t6, 0xdf);
	assert_int_equal(
		tu_sh(eb, &out,
		      "i2ctransfer -f -y 1 w4@0x4a 0xe5 0x00 0x50 0x51 && "
		      "i2ctransfer -f -y 1 w3@0x4a 0xe0 0x00 0x55 && "
		      "i2ctransfer -f -y 1 w3@0x4a 0xdf 0x00 0x01 && "
		      "for i in 1 2 3 4 5 6 7 8; do "
		      "i2ctransfer -f -y 1 w2@0x4a 0xe5 0x00 r2 2>/dev/null && exit 0; "
		      "done; exit 1"),
		0);
	assert_string_equal(out, "0x50 0x51\n");
	g_free(out);
	emub_lock(eb);
	assert_int_equal(mxt_model_stats(emub_chip_mxt(eb, "touchscreen"))->backups, 1);
	emub_unlock(eb);
	emub_free(eb);
}

/* The same script against fault.drop_object = 38: the writes are taken
 * and T38 reads 00 00, as the model did before (the fault's outcome). */
static void test_i2ctransfer_t38_dropped_by_the_fault(void **state)
{
	struct emub *eb = tu_board_text(
		"[board]\nname = drop\ncompatible = t,drop\n[adapter 1]\n"
		"[chip touchscreen]\nadapter = 1\naddress = 0x4a\nmodel = mxt224e\n"
		"compatible = atmel,maxtouch\npower = always-on\nfault.drop_object = 38\n");
	char *out;

	(void)state;
	assert_int_equal(
		tu_sh(eb, &out,
		      "i2ctransfer -f -y 1 w4@0x4a 0xe5 0x00 0x50 0x51 && "
		      "i2ctransfer -f -y 1 w3@0x4a 0xe0 0x00 0x55 && "
		      "i2ctransfer -f -y 1 w3@0x4a 0xdf 0x00 0x01 && "
		      "for i in 1 2 3 4 5 6 7 8; do "
		      "i2ctransfer -f -y 1 w2@0x4a 0xe5 0x00 r2 2>/dev/null && exit 0; "
		      "done; exit 1"),
		0);
	assert_string_equal(out, "0x00 0x00\n");
	g_free(out);
	emub_free(eb);
}

static void test_i2ctransfer_in_bootloader_mode(void **state)
{
	struct emub *eb = tu_board_file("demo.board", false);
	char *out;

	(void)state;
	/* status byte: WAITING_BOOTLOAD_CMD (0xc0) | bootloader id 0x0a (the
	 * driver's probe already read the one-shot APP_CRC_FAIL) */
	assert_int_equal(tu_sh(eb, &out, "i2ctransfer -y 1 r1@0x24"), 0);
	assert_string_equal(out, "0xca\n");
	g_free(out);
	/* nobody answers at the application address */
	assert_int_not_equal(tu_sh(eb, &out, "i2ctransfer -f -y 1 w2@0x4a 0x00 0x00 r7"), 0);
	assert_contains(out, "No such device or address");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "i2cget -y 1 0x24"), 0);
	assert_string_equal(out, "0xca\n");
	g_free(out);
	emub_free(eb);
}

static void test_mxt1664s_bootloader_at_alternate_address(void **state)
{
	struct emub *eb = tu_board_file("mxt1664s.board", false);
	char *out;

	(void)state;
	/* the probe found it at 0x26 and sent it to its application */
	assert_int_equal(tu_sh(eb, &out, "i2cdetect -y 2"), 0);
	assert_contains(out, "40: -- -- -- -- -- -- -- -- -- -- UU");
	assert_contains(out, "20: -- -- -- -- -- -- -- -- -- -- -- --");
	g_free(out);
	assert_true(emub_dev_bound(eb, "touchscreen"));
	emub_free(eb);
}

static void test_eeprom_i2cset_i2cget_roundtrip(void **state)
{
	struct emub *eb = tu_board_file("eeprom.board", false);
	struct eeprom_model *m;
	char *out;

	(void)state;
	assert_int_equal(tu_sh(eb, &out, "i2cset -y 1 0x51 0x10 0xab && i2cget -y 1 0x51 0x10"),
			 0);
	assert_string_equal(out, "0xab\n");
	g_free(out);
	emub_lock(eb);
	m = emub_chip_eeprom(eb, "spare");
	assert_int_equal(eeprom_model_peek(m, 0x10), 0xab);
	assert_int_equal(eeprom_model_stats(m)->write_cycles, 1);
	emub_unlock(eb);
	/* word write and read */
	assert_int_equal(tu_sh(eb, &out,
			       "i2cset -y 1 0x51 0x20 0x1234 w && i2cget -y 1 0x51 0x20 w"),
			 0);
	assert_string_equal(out, "0x1234\n");
	g_free(out);
	emub_free(eb);
}

static void test_eeprom_bound_to_at24_is_busy_for_i2cget(void **state)
{
	struct emub *eb = tu_board_file("eeprom.board", false);
	char *out;

	(void)state;
	assert_true(emub_dev_bound(eb, "eeprom"));
	assert_int_not_equal(tu_sh(eb, &out, "i2cget -y 1 0x50 0"), 0);
	assert_contains(out, "Device or resource busy");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "i2cget -f -y 1 0x50 0"), 0);
	assert_string_equal(out, "0xff\n");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "i2cdetect -y 1"), 0);
	assert_contains(out, "50: UU 51 --");
	g_free(out);
	emub_free(eb);
}

static void test_eeprom_page_write_and_i2cdump(void **state)
{
	struct emub *eb = tu_board_file("eeprom.board", false);
	char *out;

	(void)state;
	/* a page write of 8 bytes, then a 10-byte write that rolls over in
	 * its page (0x38..0x3f, then back to 0x38, 0x39) */
	assert_int_equal(tu_sh(eb, &out,
			       "i2ctransfer -y 1 w9@0x51 0x30 1 2 3 4 5 6 7 8 && "
			       "i2ctransfer -y 1 w11@0x51 0x38 0x10 0x11 0x12 0x13 0x14 0x15 "
			       "0x16 0x17 0x18 0x19 && i2cdump -y 1 0x51 b"),
			 0);
	assert_contains(out, "30: 01 02 03 04 05 06 07 08 18 19 12 13 14 15 16 17");
	assert_contains(out, "00: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00");
	g_free(out);
	/* i2c block mode reads the same bytes */
	assert_int_equal(tu_sh(eb, &out, "i2cdump -y -r 0x30-0x3f 1 0x51 i"), 0);
	assert_contains(out, "30: 01 02 03 04 05 06 07 08 18 19 12 13 14 15 16 17");
	g_free(out);
	emub_free(eb);
}

static void test_smbus_only_adapter_with_i2c_tools(void **state)
{
	struct emub *eb = tu_board_file("smbus.board", false);
	char *out;

	(void)state;
	assert_int_equal(tu_sh(eb, &out, "i2cdetect -F 0"), 0);
	assert_contains(out, "I2C                              no");
	assert_contains(out, "SMBus Read Byte                  yes");
	assert_contains(out, "SMBus Block Read                 no");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "i2cdetect -y 0"), 0);
	assert_contains(out, "50: 50 --");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "i2cset -y 0 0x50 0x05 0x5a && i2cget -y 0 0x50 0x05"),
			 0);
	assert_string_equal(out, "0x5a\n");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "i2cdump -y -r 0-0xf 0 0x50 b"), 0);
	assert_contains(out, "00: ff ff ff ff ff 5a ff ff");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "i2cdump -y -r 0-0xf 0 0x50 i"), 0);
	assert_contains(out, "00: ff ff ff ff ff 5a ff ff");
	g_free(out);
	/* no master_xfer: I2C_RDWR fails with EOPNOTSUPP */
	assert_int_not_equal(tu_sh(eb, &out, "i2ctransfer -y 0 w1@0x50 0 r1"), 0);
	assert_contains(out, "Adapter does not have I2C transfers capability");
	g_free(out);
	emub_free(eb);
}

static void test_gpioinfo_shows_lines_held_by_the_driver(void **state)
{
	struct emub *eb = tu_board_file("demo.board", false);
	char *out;

	(void)state;
	/* gpiodetect and gpiofind list /dev with scandir(), which umockdev's
	 * preload does not redirect: they see the host's /dev (README). */
	/* bound (bootloader mode): atmel holds reset (devm) and CHG (IRQ) */
	assert_int_equal(tu_sh(eb, &out, "gpioinfo gpiochip0"), 0);
	assert_true(
		g_regex_match_simple("line +0: +\"TS_RESET\" +\"reset\" +output +active-low "
				     "+\\[used\\]",
				     out, 0, 0));
	assert_true(
		g_regex_match_simple("line +1: +\"TS_CHG\" +\"interrupt\" +input", out, 0, 0));
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "gpioinfo /dev/gpiochip0 | head -1"), 0);
	assert_string_equal(out, "gpiochip0 - 8 lines:\n");
	g_free(out);
	/* unbound: devres released both */
	assert_int_equal(emub_unbind(eb, "touchscreen"), 0);
	assert_int_equal(tu_sh(eb, &out, "gpioinfo gpiochip0"), 0);
	assert_true(g_regex_match_simple("line +0: +\"TS_RESET\" +unused", out, 0, 0));
	assert_true(g_regex_match_simple("line +1: +\"TS_CHG\" +unused", out, 0, 0));
	g_free(out);
	/* a request's new fd, which umockdev can not give, comes from the
	 * board's shim (gpiod-preload.c): gpioget reads CHG, not asserted
	 * (high), and its exit releases the line */
	assert_int_equal(tu_sh(eb, &out, "gpioget gpiochip0 1"), 0);
	assert_string_equal(out, "1\n");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "gpioget --active-low gpiochip0 1"), 0);
	assert_string_equal(out, "0\n");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "gpioinfo gpiochip0"), 0);
	assert_true(g_regex_match_simple("line +1: +\"TS_CHG\" +unused", out, 0, 0));
	g_free(out);
	emub_free(eb);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_i2cdetect_shows_bound_app_chip_as_UU),
		cmocka_unit_test(test_i2cdetect_shows_bootloader_address_in_bootloader_mode),
		cmocka_unit_test(
			test_i2cdetect_finds_nothing_when_driver_switched_supply_is_off),
		cmocka_unit_test(test_i2ctransfer_reads_info_block_in_app_mode),
		cmocka_unit_test(test_i2ctransfer_t38_survives_backupnv_and_reset),
		cmocka_unit_test(test_i2ctransfer_t38_dropped_by_the_fault),
		cmocka_unit_test(test_i2ctransfer_in_bootloader_mode),
		cmocka_unit_test(test_mxt1664s_bootloader_at_alternate_address),
		cmocka_unit_test(test_eeprom_i2cset_i2cget_roundtrip),
		cmocka_unit_test(test_eeprom_bound_to_at24_is_busy_for_i2cget),
		cmocka_unit_test(test_eeprom_page_write_and_i2cdump),
		cmocka_unit_test(test_smbus_only_adapter_with_i2c_tools),
		cmocka_unit_test(test_gpioinfo_shows_lines_held_by_the_driver),
	};

	tu_init(argv);
	(void)argc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
