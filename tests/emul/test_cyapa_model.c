// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Cypress Gen3 trackpad model on its own, driven as cyapa_gen3.c
 * drives a part: the bootloader's three status bytes and its version
 * bytes, launch, the application's status, query block and power mode,
 * the soft reset back into the bootloader, initiate (erase, busy), the
 * 78-byte block commands in five writes with their sums, terminate, and
 * what goes wrong: a wrong key, bad sums, a protected block, a power
 * loss midway.  The commands are built here from cyapa_gen3.c's
 * description, not with the model's helpers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cyapa_model.h"

#define ADDR 0x67

static struct cyapa_model M;
static uint8_t file_v1[CYAPA_MODEL_FILE_SIZE], file_v2[CYAPA_MODEL_FILE_SIZE];
static uint64_t now;

static void tick(unsigned ms)
{
	now += (uint64_t)ms * EM_NSEC_PER_MSEC;
	cyapa_model_ops.advance(&M, now);
}

static int rd(uint8_t reg, uint8_t *buf, uint16_t len)
{
	int rc = cyapa_model_ops.write(&M, ADDR, &reg, 1);

	if (rc == EM_ACK)
		rc = cyapa_model_ops.read(&M, ADDR, buf, len);
	return rc;
}

static int wr(uint8_t reg, const uint8_t *data, uint16_t len)
{
	uint8_t b[40];

	b[0] = reg;
	memcpy(b + 1, data, len);
	return cyapa_model_ops.write(&M, ADDR, b, (uint16_t)(len + 1));
}

/* FF code key, at offset 0 of the command buffer (cyapa_gen3.c) */
static void bl_cmd(uint8_t code, bool good_key)
{
	uint8_t c[11] = { 0x00, 0xff, code, 0, 1, 2, 3, 4, 5, 6, 7 };

	if (!good_key)
		c[10] = 8;
	assert_int_equal(wr(0, c, sizeof(c)), EM_ACK);
}

static void status(uint8_t s[3])
{
	assert_int_equal(rd(0, s, 3), EM_ACK);
}

/* cyapa_gen3_write_fw_block: 78 bytes in writes of 16 at 0, 16, ... 64;
 * @bad: 1 wrong data sum, 2 wrong command sum */
static int write_block(uint16_t block, const uint8_t *data, int bad)
{
	uint8_t c[78], chunk[17], s[3];
	unsigned i, sum = 0;
	int tries = 11;

	c[0] = 0xff;
	c[1] = 0x39;
	for (i = 0; i < 8; i++)
		c[2 + i] = (uint8_t)i;
	c[10] = (uint8_t)(block >> 8);
	c[11] = (uint8_t)block;
	memcpy(c + 12, data, 64);
	for (i = 0; i < 64; i++)
		sum += data[i];
	c[76] = (uint8_t)(sum + (bad == 1));
	for (sum = 0, i = 0; i < 77; i++)
		sum += c[i];
	c[77] = (uint8_t)(sum + (bad == 2));
	for (i = 0; i < 78; i += 16) {
		unsigned n = 78 - i < 16 ? 78 - i : 16;

		chunk[0] = (uint8_t)i;
		memcpy(chunk + 1, c + i, n);
		assert_int_equal(wr(0, chunk, (uint16_t)(n + 1)), EM_ACK);
	}
	do {
		tick(10);
		status(s);
	} while ((s[1] & 0x80) && --tries);
	return s[1] << 8 | s[2];
}

/* cyapa_gen3_do_fw_update: the application, then the header */
static void write_file(const uint8_t *f)
{
	unsigned b;

	for (b = 0; b < 480; b++)
		assert_int_equal(write_block((uint16_t)(32 + b), f + 128 + b * 64, 0), 0x1020);
	assert_int_equal(write_block(30, f, 0), 0x1020);
	assert_int_equal(write_block(31, f + 64, 0), 0x1020);
}

static void start(const uint8_t *file, int power_loss)
{
	struct cyapa_model_cfg cfg = { .addr = ADDR, .power_loss_block = power_loss };

	now = 0;
	cyapa_model_init(&M, &cfg, file);
}

static int setup(void **state)
{
	(void)state;
	cyapa_model_make_file(file_v1, "CYTRA-116002-00", 1, 0);
	cyapa_model_make_file(file_v2, "CYTRA-116002-00", 1, 2);
	return 0;
}

static void test_file_is_what_cyapa_checks(void **state)
{
	unsigned i, hdr = 0, app = 0;

	(void)state;
	for (i = 2; i < 128; i++)
		hdr += file_v2[i];
	for (i = 128; i < CYAPA_MODEL_FILE_SIZE; i++)
		app += file_v2[i];
	assert_int_equal(CYAPA_MODEL_FILE_SIZE, 30848);
	assert_int_equal(file_v2[0] << 8 | file_v2[1], hdr & 0xffff);
	assert_int_equal(file_v2[126] << 8 | file_v2[127], app & 0xffff);
	assert_memory_equal(file_v2 + 128, "CYTRA11600200", 13);
	assert_int_equal(file_v2[128 + 15], 1);
	assert_int_equal(file_v2[128 + 16], 2);
}

static void test_bootloader_then_application(void **state)
{
	uint8_t s[16], q[27];

	(void)state;
	start(file_v1, 0);
	/* power-on: the bootloader, idle, the application's checksum valid */
	assert_int_equal(rd(0, s, 16), EM_ACK);
	assert_int_equal(s[0], 0x00);
	assert_int_equal(s[1], 0x11);
	assert_int_equal(s[2], 0x00);
	assert_int_equal(s[0x0b], 1);
	assert_int_equal(s[0x0c], 0);
	/* another address is not its own */
	assert_int_equal(cyapa_model_ops.read(&M, 0x24, s, 1), EM_NAK_ADDR);
	/* a wrong key: error bit 6, still idle */
	bl_cmd(0xa5, false);
	status(s);
	assert_int_equal(s[1], 0x11);
	assert_int_equal(s[2], 0x40);
	bl_cmd(0xa5, true);
	assert_int_equal(cyapa_model_mode(&M), CYAPA_MODEL_APP);
	status(s);
	assert_int_equal(s[0], 0x8f); /* valid, full power, normal */
	assert_int_equal(s[1], 0x08); /* valid data, no finger */
	assert_int_equal(rd(0x2a, q, 27), EM_ACK);
	assert_memory_equal(q, "CYTRA11600200", 13);
	assert_int_equal(q[15], 1);
	assert_int_equal(q[16], 0);
	assert_int_equal(q[20] & 0x0f, 3);
	assert_int_equal((q[21] & 0xf0) << 4 | q[22], 1280);
	assert_int_equal((q[21] & 0x0f) << 8 | q[23], 680);
	assert_int_equal(q[25], 105);
	assert_int_equal(q[26], 56);
	/* power mode: off, then status says so */
	assert_int_equal(wr(0x29, (const uint8_t[]){ 0x00 }, 1), EM_ACK);
	status(s);
	assert_int_equal(s[0], 0x83);
	/* soft reset: back in the bootloader */
	assert_int_equal(wr(0x28, (const uint8_t[]){ 0x01 }, 1), EM_ACK);
	assert_int_equal(cyapa_model_mode(&M), CYAPA_MODEL_BL_IDLE);
	assert_int_equal(cyapa_model_stats(&M)->soft_resets, 1);
}

static void test_empty_flash_stays_in_bootloader(void **state)
{
	uint8_t s[16];

	(void)state;
	start(NULL, 0);
	assert_int_equal(rd(0, s, 16), EM_ACK);
	assert_int_equal(s[1], 0x10);
	assert_int_equal(s[0x0b], 0);
	bl_cmd(0xa5, true);
	assert_int_equal(cyapa_model_mode(&M), CYAPA_MODEL_BL_IDLE);
	assert_int_equal(cyapa_model_stats(&M)->launch_refused, 1);
	assert_int_equal(cyapa_model_fw_version(&M), -1);
}

static void test_flash_new_version(void **state)
{
	uint8_t s[16];

	(void)state;
	start(file_v1, 0);
	bl_cmd(0xa5, true);
	assert_int_equal(wr(0x28, (const uint8_t[]){ 0x01 }, 1), EM_ACK);
	bl_cmd(0x38, true);
	/* erasing: busy, writes refused */
	status(s);
	assert_int_equal(s[1], 0x90);
	assert_int_equal(wr(0, (const uint8_t[]){ 0, 0 }, 2), EM_NAK_DATA);
	tick(2000);
	status(s);
	assert_int_equal(s[1], 0x90);
	tick(300);
	status(s);
	assert_int_equal(s[1], 0x10);
	assert_int_equal(s[2], 0x20);
	assert_int_equal(cyapa_model_fw_version(&M), -1); /* erased */
	write_file(file_v2);
	assert_int_equal(cyapa_model_stats(&M)->blocks_written, 482);
	bl_cmd(0x3b, true);
	assert_int_equal(rd(0, s, 16), EM_ACK);
	assert_int_equal(s[1], 0x11);
	assert_int_equal(s[2], 0x00);
	assert_int_equal(s[0x0c], 2);
	bl_cmd(0xa5, true);
	assert_int_equal(cyapa_model_mode(&M), CYAPA_MODEL_APP);
	assert_int_equal(cyapa_model_fw_version(&M), 0x0102);
}

static void test_block_errors(void **state)
{
	uint8_t s[3];

	(void)state;
	start(file_v1, 0);
	/* a block before initiate: invalid command */
	write_block(40, file_v2 + 128, 0);
	status(s);
	assert_int_equal(s[2], 0x80);
	bl_cmd(0x38, true);
	tick(2300);
	assert_int_equal(write_block(32, file_v2 + 128, 1), 0x1024);
	assert_int_equal(write_block(32, file_v2 + 128, 2), 0x1030);
	assert_int_equal(write_block(29, file_v2 + 128, 0), 0x1028);
	assert_int_equal(cyapa_model_stats(&M)->block_errors, 3);
	assert_int_equal(cyapa_model_stats(&M)->blocks_written, 0);
	/* a good one clears the error */
	assert_int_equal(write_block(32, file_v2 + 128, 0), 0x1020);
	assert_int_equal(cyapa_model_stats(&M)->blocks_written, 1);
	/* cut short: terminate finds the checksum wrong, launch refused */
	bl_cmd(0x3b, true);
	status(s);
	assert_int_equal(s[1], 0x10);
	bl_cmd(0xa5, true);
	assert_int_equal(cyapa_model_mode(&M), CYAPA_MODEL_BL_IDLE);
}

static void test_power_loss_midway(void **state)
{
	uint8_t s[3];
	unsigned b;

	(void)state;
	start(file_v1, 100);
	bl_cmd(0x38, true);
	tick(2300);
	for (b = 0; b < 99; b++)
		assert_int_equal(write_block((uint16_t)(32 + b), file_v2 + 128 + b * 64, 0),
				 0x1020);
	/* the 100th: the supply drops, the chip restarts in its bootloader */
	assert_int_equal(write_block(131, file_v2 + 128 + 99 * 64, 0), 0x1000);
	assert_int_equal(cyapa_model_stats(&M)->power_losses, 1);
	assert_int_equal(cyapa_model_mode(&M), CYAPA_MODEL_BL_IDLE);
	status(s);
	assert_int_equal(s[1], 0x10); /* no valid application */
	bl_cmd(0xa5, true);
	assert_int_equal(cyapa_model_mode(&M), CYAPA_MODEL_BL_IDLE);
	/* a whole pass recovers it */
	bl_cmd(0x38, true);
	tick(2300);
	write_file(file_v2);
	bl_cmd(0x3b, true);
	bl_cmd(0xa5, true);
	assert_int_equal(cyapa_model_mode(&M), CYAPA_MODEL_APP);
	assert_int_equal(cyapa_model_fw_version(&M), 0x0102);
}

static void test_touch_frame(void **state)
{
	struct cyapa_model_touch t[2] = { { 1000, 600, 40, 1 }, { 0x123, 0x45, 9, 2 } };
	uint8_t d[27];

	(void)state;
	start(file_v1, 0);
	assert_false(cyapa_model_touch(&M, t, 1, 0)); /* bootloader: nothing */
	bl_cmd(0xa5, true);
	assert_true(cyapa_model_touch(&M, t, 2, 1));
	assert_true(cyapa_model_ops.irq_asserted(&M));
	assert_int_equal(rd(0, d, 27), EM_ACK);
	assert_false(cyapa_model_ops.irq_asserted(&M));
	assert_int_equal(d[0], 0x8f);
	assert_int_equal(d[1], 0x29); /* 2 fingers, valid, left button */
	assert_int_equal((d[2] & 0xf0) << 4 | d[3], 1000);
	assert_int_equal((d[2] & 0x0f) << 8 | d[4], 600);
	assert_int_equal(d[5], 40);
	assert_int_equal(d[6], 1);
	assert_int_equal((d[7] & 0xf0) << 4 | d[8], 0x123);
	assert_int_equal(d[11], 2);
	assert_int_equal(cyapa_model_stats(&M)->frames_read, 1);
	/* powered off (cyapa's power mode off while nobody uses it) */
	assert_int_equal(wr(0x29, (const uint8_t[]){ 0x00 }, 1), EM_ACK);
	assert_false(cyapa_model_touch(&M, t, 1, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_is_what_cyapa_checks),
		cmocka_unit_test(test_bootloader_then_application),
		cmocka_unit_test(test_empty_flash_stays_in_bootloader),
		cmocka_unit_test(test_flash_new_version),
		cmocka_unit_test(test_block_errors),
		cmocka_unit_test(test_power_loss_midway),
		cmocka_unit_test(test_touch_frame),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
