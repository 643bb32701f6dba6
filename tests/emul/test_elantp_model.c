// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Elan touchpad chip model on its own, driven as elan_i2c_i2c.c
 * drives a chip: registers in main mode, the reset acknowledgement, the
 * password that enters IAP and then unlocks it, pages with their sums
 * (a bad sum is a page error), the watchdog reset after the last page,
 * the IAP checksum, and IAP mode answering only the IAP registers; and
 * the same part on SMBus, driven as elan_i2c_smbus.c drives it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "elantp_model.h"

static struct elantp_model M;
static uint8_t img[ELANTP_MODEL_FLASH];

static int rd(uint16_t reg, unsigned *v)
{
	uint8_t a[2] = { (uint8_t)reg, (uint8_t)(reg >> 8) }, r[2];
	int rc = elantp_model_ops.write(&M, 0x15, a, 2);

	if (rc == EM_ACK)
		rc = elantp_model_ops.read(&M, 0x15, r, 2);
	elantp_model_ops.stop(&M);
	*v = (unsigned)(r[0] | r[1] << 8);
	return rc;
}

static void wr(uint16_t reg, uint16_t val)
{
	uint8_t b[4] = { (uint8_t)reg, (uint8_t)(reg >> 8), (uint8_t)val, (uint8_t)(val >> 8) };

	assert_int_equal(elantp_model_ops.write(&M, 0x15, b, 4), EM_ACK);
	elantp_model_ops.stop(&M);
}

static void start(uint8_t fw)
{
	struct elantp_model_cfg cfg = { .addr = 0x15,
					.product_id = 18,
					.max_x = 3052,
					.max_y = 1888,
					.fail_page = -1,
					.power_loss_page = -1 };

	elantp_model_make_image(img, 18, fw);
	elantp_model_init(&M, &cfg, fw ? img : NULL);
}

/* Pages from the IAP start on, as __elan_update_firmware sends them. */
static unsigned send_pages(const uint8_t *image, unsigned from, unsigned to, bool bad_sum)
{
	unsigned p, sw = 0, ctrl;

	for (p = from; p < to; p++) {
		uint8_t b[ELANTP_MODEL_PAGE + 4] = { 0x01, 0x06 };
		uint16_t s = 0;
		int j;

		memcpy(b + 2, image + p * ELANTP_MODEL_PAGE, ELANTP_MODEL_PAGE);
		for (j = 0; j < ELANTP_MODEL_PAGE; j += 2)
			s = (uint16_t)(s + (b[2 + j] | b[3 + j] << 8));
		b[ELANTP_MODEL_PAGE + 2] = (uint8_t)(s + (bad_sum ? 1 : 0));
		b[ELANTP_MODEL_PAGE + 3] = (uint8_t)(s >> 8);
		assert_int_equal(elantp_model_ops.write(&M, 0x15, b, sizeof(b)), EM_ACK);
		elantp_model_ops.stop(&M);
		assert_int_equal(rd(0x0310, &ctrl), EM_ACK);
		if (bad_sum)
			assert_true(ctrl & (1u << 5));
		sw = (sw + s) & 0xffff;
	}
	return sw;
}

static void test_main_mode_registers_and_reset_ack(void **state)
{
	unsigned v;
	uint8_t ack[2] = { 9, 9 };

	(void)state;
	start(5);
	assert_int_equal(rd(0x0101, &v), EM_ACK);
	assert_int_equal(v, 18);
	/* another chip's address is not its own (an Elan touchscreen at 0x10
	 * shares the bus on a laptop) */
	assert_int_equal(elantp_model_ops.read(&M, 0x10, ack, 2), EM_NAK_ADDR);
	assert_int_equal(elantp_model_ops.write(&M, 0x10, ack, 2), EM_NAK_ADDR);
	assert_int_equal(rd(0x0102, &v), EM_ACK);
	assert_int_equal(v & 0xff, 5);
	assert_int_equal(rd(0x0310, &v), EM_ACK);
	assert_true(v & (1u << 9));
	wr(0x0005, 0x0100);
	assert_true(elantp_model_ops.irq_asserted(&M));
	assert_int_equal(elantp_model_ops.read(&M, 0x15, ack, 2), EM_ACK);
	assert_memory_equal(ack, "\0\0", 2);
	assert_false(elantp_model_ops.irq_asserted(&M));
}

static void test_full_update(void **state)
{
	static uint8_t fresh[ELANTP_MODEL_FLASH];
	unsigned v, sw;

	(void)state;
	start(5);
	elantp_model_make_image(fresh, 18, 6);
	wr(0x0311, 0x1ea5);
	assert_int_equal(rd(0x0310, &v), EM_ACK);
	assert_false(v & (1u << 9));
	/* IAP mode: the product id answers, the firmware version not. */
	assert_int_equal(rd(0x0101, &v), EM_ACK);
	assert_int_equal(v, 18);
	assert_int_equal(rd(0x0102, &v), EM_NAK_DATA);
	wr(0x0311, 0x1ea5);
	assert_int_equal(rd(0x0311, &v), EM_ACK);
	assert_int_equal(v, 0x1ea5);
	sw = send_pages(fresh, 32, ELANTP_MODEL_PAGES, false);
	/* the watchdog reset after the last page: main mode, new version */
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_MAIN);
	assert_int_equal(elantp_model_fw_version(&M), 6);
	assert_int_equal(rd(0x0315, &v), EM_ACK);
	assert_int_equal(v, sw);
}

/* A part whose boot code is larger: the image says where the application
 * starts, and only the pages from there on are written and summed. */
static void test_update_of_a_part_with_a_later_iap_start(void **state)
{
	static uint8_t fresh[ELANTP_MODEL_FLASH];
	struct elantp_model_cfg cfg = { .product_id = 19,
					.max_x = 3052,
					.max_y = 1888,
					.iap_start_page = 496,
					.fail_page = -1 };
	unsigned v, sw;

	(void)state;
	elantp_model_make_image_at(img, 19, 5, 496);
	elantp_model_init(&M, &cfg, img);
	elantp_model_make_image_at(fresh, 19, 6, 496);
	/* where __elan_update_firmware reads the IAP start: in words */
	assert_int_equal(fresh[0x106] | fresh[0x107] << 8, 496 * ELANTP_MODEL_PAGE / 2);
	wr(0x0311, 0x1ea5);
	wr(0x0311, 0x1ea5);
	sw = send_pages(fresh, 496, ELANTP_MODEL_PAGES, false);
	assert_int_equal(elantp_model_stats(&M)->pages_written, 16);
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_MAIN);
	assert_int_equal(elantp_model_fw_version(&M), 6);
	assert_int_equal(rd(0x0315, &v), EM_ACK);
	assert_int_equal(v, sw);
	assert_int_equal(rd(0x030f, &v), EM_ACK);
	assert_int_equal(v, sw);
}

static void test_cut_short_and_bad_sums(void **state)
{
	static uint8_t fresh[ELANTP_MODEL_FLASH];

	(void)state;
	start(5);
	elantp_model_make_image(fresh, 18, 6);
	wr(0x0311, 0x1ea5);
	wr(0x0311, 0x1ea5);
	send_pages(fresh, 32, 40, true);
	assert_int_equal(elantp_model_stats(&M)->pages_written, 0);
	send_pages(fresh, 32, 100, false);
	wr(0x0314, 0xf0f0);
	/* the application's last page was erased: the chip stays in IAP */
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_IAP);
	start(0);
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_IAP);
}

/*
 * A touchpad that boots in IAP (empty flash), recovered as
 * elan_i2c_prepare_fw_update does from IAP: IAP reset (it stays in IAP),
 * the password (unlocks, as it is in IAP already), IAP still, the password
 * again, read back; the pages; the watchdog reset starts the application.
 */
static void test_recovery_from_iap(void **state)
{
	static uint8_t fresh[ELANTP_MODEL_FLASH];
	unsigned v, sw;

	(void)state;
	start(0);
	elantp_model_make_image(fresh, 18, 6);
	assert_int_equal(rd(0x0310, &v), EM_ACK);
	assert_false(v & (1u << 9));
	/* the IAP says its product id (fwupd's recovery reads it); the
	 * driver's probe reads the report descriptor: refused in IAP */
	assert_int_equal(rd(0x0101, &v), EM_ACK);
	assert_int_equal(v, 18);
	assert_int_equal(rd(0x0002, &v), EM_NAK_DATA);
	/* locked: a page is an interface error, nothing written */
	send_pages(fresh, 32, 33, false);
	assert_int_equal(rd(0x0310, &v), EM_ACK);
	assert_true(v & (1u << 4));
	assert_int_equal(elantp_model_stats(&M)->pages_written, 0);
	wr(0x0314, 0xf0f0);
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_IAP);
	wr(0x0311, 0x1ea5);
	assert_int_equal(rd(0x0310, &v), EM_ACK);
	assert_false(v & (1u << 9));
	assert_int_equal(elantp_model_stats(&M)->iap_entries, 0);
	wr(0x0311, 0x1ea5);
	assert_int_equal(rd(0x0311, &v), EM_ACK);
	assert_int_equal(v, 0x1ea5);
	sw = send_pages(fresh, 32, ELANTP_MODEL_PAGES, false);
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_MAIN);
	assert_int_equal(elantp_model_fw_version(&M), 6);
	assert_int_equal(rd(0x0315, &v), EM_ACK);
	assert_int_equal(v, sw);
	assert_int_equal(rd(0x0101, &v), EM_ACK);
	assert_int_equal(v, 18);
}

/* The supply drops once midway: the chip restarts in IAP, locked (the
 * pages after it are interface errors); unlocked again, a full pass
 * recovers it. */
static void test_power_loss_midway_leaves_iap_once(void **state)
{
	static uint8_t fresh[ELANTP_MODEL_FLASH];
	unsigned v;

	(void)state;
	start(5);
	M.cfg.power_loss_page = 100;
	elantp_model_make_image(fresh, 18, 6);
	wr(0x0311, 0x1ea5);
	wr(0x0311, 0x1ea5);
	send_pages(fresh, 32, 102, false);
	assert_int_equal(elantp_model_stats(&M)->power_losses, 1);
	assert_int_equal(elantp_model_stats(&M)->pages_written, 100 - 32);
	assert_int_equal(rd(0x0310, &v), EM_ACK);
	assert_false(v & (1u << 9));
	assert_true(v & (1u << 4)); /* page 101 found it locked */
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_IAP);
	wr(0x0314, 0xf0f0);
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_IAP);
	wr(0x0311, 0x1ea5);
	wr(0x0311, 0x1ea5);
	send_pages(fresh, 32, ELANTP_MODEL_PAGES, false);
	assert_int_equal(elantp_model_stats(&M)->power_losses, 1);
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_MAIN);
	assert_int_equal(elantp_model_fw_version(&M), 6);
}

/* ------------------------------------------------------------ SMBus */

#define SMB_PID 0x0308 /* sample version 3, ic type 0x08 (elan_i2c_smbus) */

static void smb_start(uint8_t fw, int fail_page)
{
	struct elantp_model_cfg cfg = { .addr = 0x15,
					.product_id = SMB_PID,
					.max_x = 3052,
					.max_y = 1888,
					.fail_page = fail_page,
					.power_loss_page = -1,
					.smbus = true };

	elantp_model_make_image(img, SMB_PID, fw);
	elantp_model_init(&M, &cfg, fw ? img : NULL);
}

/* i2c_smbus_read_block_data: the count, or -1 (NAK) */
static int smb_rd(uint8_t cmd, uint8_t *out)
{
	uint8_t b[33];
	int rc = elantp_model_ops.write(&M, 0x15, &cmd, 1);

	if (rc == EM_ACK)
		rc = elantp_model_ops.read(&M, 0x15, b, sizeof(b));
	elantp_model_ops.stop(&M);
	if (rc != EM_ACK)
		return -1;
	memcpy(out, b + 1, 32);
	return b[0];
}

static unsigned smb_be16(uint8_t cmd)
{
	uint8_t v[32];

	assert_int_equal(smb_rd(cmd, v), 2);
	return (unsigned)(v[0] << 8 | v[1]);
}

static int smb_byte(uint8_t cmd)
{
	int rc = elantp_model_ops.write(&M, 0x15, &cmd, 1);

	elantp_model_ops.stop(&M);
	return rc;
}

static void smb_blk(uint8_t cmd, const uint8_t *d, uint8_t n)
{
	uint8_t b[34] = { cmd, n };

	memcpy(b + 2, d, n);
	assert_int_equal(elantp_model_ops.write(&M, 0x15, b, (uint16_t)(n + 2)), EM_ACK);
	elantp_model_ops.stop(&M);
}

static const uint8_t flash_key[4] = { 0x00, 0x0b, 0x00, 0x5a };
static const uint8_t password[4] = { 0x0f, 0x78, 0x00, 0x06 };

/* Pages as elan_smbus_write_fw_block sends them: two halves, no sum. */
static unsigned smb_pages(const uint8_t *image, unsigned from, unsigned to, unsigned *ctrl)
{
	unsigned p, sw = 0;

	for (p = from; p < to; p++) {
		const uint8_t *pg = image + p * ELANTP_MODEL_PAGE;
		int j;

		smb_blk(0x2a, pg, ELANTP_MODEL_PAGE / 2);
		smb_blk(0x2a, pg + ELANTP_MODEL_PAGE / 2, ELANTP_MODEL_PAGE / 2);
		for (j = 0; j < ELANTP_MODEL_PAGE; j += 2)
			sw = (sw + (unsigned)(pg[j] | pg[j + 1] << 8)) & 0xffff;
		if (p + 1 < to || elantp_model_mode(&M) == ELANTP_MODEL_IAP) {
			*ctrl = smb_be16(0xad);
			if (*ctrl & 0x30)
				return sw;
		}
	}
	return sw;
}

static void test_smbus_main_mode_commands(void **state)
{
	uint8_t v[32];

	(void)state;
	smb_start(5, -1);
	assert_int_equal(smb_rd(0xa7, v), 5);
	assert_memory_equal(v, "\x55\x55\x55\x55\x55", 5);
	/* the unique id: the product id big-endian, whose bytes the driver
	 * also takes for its sample version and ic type */
	smb_rd(0xa3, v);
	assert_int_equal(v[0] << 8 | v[1], SMB_PID);
	assert_int_equal(smb_rd(0xa1, v), 3);
	assert_int_equal(v[2], 5);
	assert_int_equal(smb_rd(0xa0, v), 3);
	assert_int_equal((v[0] & 0x0f) << 8 | v[1], 3052);
	assert_int_equal((v[0] & 0xf0) << 4 | v[2], 1888);
	assert_int_equal(smb_rd(0xa2, v), 3);
	assert_int_equal(v[1], 14);
	assert_int_equal(smb_be16(0xad) & 0x40, 0);
	assert_int_equal(smb_byte(0x20), EM_ACK);
	/* the password without the flash key does not enter IAP */
	assert_int_equal(smb_byte(0x29), EM_ACK);
	smb_blk(0x00, password, 4);
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_MAIN);
	assert_int_equal(smb_be16(0x80), 0);
}

static void test_smbus_update(void **state)
{
	static uint8_t fresh[ELANTP_MODEL_FLASH];
	unsigned sw, ctrl = 0;
	uint8_t v[32];

	(void)state;
	smb_start(5, -1);
	elantp_model_make_image(fresh, SMB_PID, 6);
	/* elan_smbus_prepare_fw_update from main mode */
	smb_blk(0x00, flash_key, 4);
	assert_int_equal(smb_byte(0x29), EM_ACK);
	smb_blk(0x00, password, 4);
	assert_int_equal(smb_be16(0x80), 0x1234);
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_IAP);
	assert_true(smb_be16(0xad) & 0x40);
	/* IAP: the hello packet is not answered, the unique id is */
	assert_int_equal(smb_rd(0xa7, v), -1);
	smb_rd(0xa3, v);
	assert_int_equal(v[0] << 8 | v[1], SMB_PID);
	smb_blk(0x00, flash_key, 4);
	assert_int_equal(smb_byte(0x2b), EM_ACK);
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_IAP);
	sw = smb_pages(fresh, 32, ELANTP_MODEL_PAGES, &ctrl);
	assert_int_equal(ctrl & 0x30, 0);
	assert_int_equal(elantp_model_stats(&M)->pages_written, ELANTP_MODEL_PAGES - 32);
	/* the watchdog reset: main mode, the new version, the IAP sum */
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_MAIN);
	assert_int_equal(elantp_model_fw_version(&M), 6);
	assert_int_equal(smb_be16(0xaf), sw);
	assert_int_equal(smb_be16(0xae), sw);
	assert_int_equal(smb_rd(0xa7, v), 5);
}

static void test_smbus_recovery_and_errors(void **state)
{
	static uint8_t fresh[ELANTP_MODEL_FLASH];
	unsigned ctrl = 0;

	(void)state;
	smb_start(0, -1);
	elantp_model_make_image(fresh, SMB_PID, 6);
	assert_true(smb_be16(0xad) & 0x40);
	assert_int_equal(smb_byte(0x20), EM_NAK_DATA);
	/* locked: a page is an interface error, nothing written */
	smb_pages(fresh, 32, 33, &ctrl);
	assert_true(ctrl & 0x10);
	assert_int_equal(elantp_model_stats(&M)->pages_written, 0);
	/* from IAP the driver sends the flash key and the IAP reset only */
	smb_blk(0x00, flash_key, 4);
	smb_byte(0x2b);
	smb_pages(fresh, 32, ELANTP_MODEL_PAGES, &ctrl);
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_MAIN);
	assert_int_equal(elantp_model_fw_version(&M), 6);

	/* a page error midway (the fault): reported at 0xAD; the driver's
	 * IAP reset (no flash key) then boots what is left: IAP */
	smb_start(5, 100);
	smb_blk(0x00, flash_key, 4);
	smb_byte(0x29);
	smb_blk(0x00, password, 4);
	smb_blk(0x00, flash_key, 4);
	smb_byte(0x2b);
	smb_pages(fresh, 32, ELANTP_MODEL_PAGES, &ctrl);
	assert_true(ctrl & 0x20);
	assert_int_equal(elantp_model_stats(&M)->pages_written, 100 - 32);
	smb_byte(0x2b);
	assert_int_equal(elantp_model_mode(&M), ELANTP_MODEL_IAP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_main_mode_registers_and_reset_ack),
		cmocka_unit_test(test_full_update),
		cmocka_unit_test(test_update_of_a_part_with_a_later_iap_start),
		cmocka_unit_test(test_cut_short_and_bad_sums),
		cmocka_unit_test(test_recovery_from_iap),
		cmocka_unit_test(test_power_loss_midway_leaves_iap_once),
		cmocka_unit_test(test_smbus_main_mode_commands),
		cmocka_unit_test(test_smbus_update),
		cmocka_unit_test(test_smbus_recovery_and_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
