// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Elan touchscreen chip model on its own, driven message by message
 * as elants_i2c.c drives a chip: the hello packet after soft reset and
 * fast boot (normal and recovery), the info queries and which of them
 * the boot code answers, the two IAP entries, a whole update, an update
 * cut short, the page acknowledgement fault, and the forced IAP after a
 * failed one (taken only after a reset).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "elants_model.h"

#define HW 0x2a1c

static struct elants_model M;
static uint8_t img[32 * ELANTS_MODEL_PAGE];

static void w(const void *buf, uint16_t len)
{
	assert_int_equal(elants_model_ops.write(&M, 0x10, buf, len), EM_ACK);
}

static void r(uint8_t *buf, uint16_t len)
{
	assert_int_equal(elants_model_ops.read(&M, 0x10, buf, len), EM_ACK);
}

static void hello(uint8_t out[4])
{
	w("\x77\x77\x77\x77", 4);
	w("Main", 4);
	assert_true(elants_model_ops.irq_asserted(&M));
	r(out, 4);
	assert_false(elants_model_ops.irq_asserted(&M));
}

/* elants_i2c_parse_version: bits 4..19 of the big-endian word. */
static int query(uint8_t info)
{
	uint8_t cmd[4] = { 0x53, info, 0x00, 0x01 }, a[4];

	w(cmd, 4);
	r(a, 4);
	if (a[0] != 0x52)
		return -1;
	return (int)((((uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 |
		       a[3]) >>
		      4) &
		     0xffff);
}

static void start(uint16_t fw, bool corrupt)
{
	struct elants_model_cfg cfg = { .hw_version = HW,
					.bc_version = 0x6401,
					.rows = 31,
					.cols = 18,
					.osr = 64,
					.nak_iap_page = -1 };

	elants_model_make_image(img, 32, fw, HW, 0);
	if (corrupt)
		img[5] ^= 1;
	elants_model_init(&M, &cfg, fw ? img : NULL, fw ? sizeof(img) : 0);
}

static void test_hello_normal_and_queries(void **state)
{
	uint8_t h[4];

	(void)state;
	start(0x5511, false);
	hello(h);
	assert_memory_equal(h, "\x55\x55\x55\x55", 4);
	assert_int_equal(query(0xf0), HW);
	assert_int_equal(query(0x00), 0x5511);
	assert_int_equal(query(0x10), 0x6401);
}

static void test_recovery_answers_hw_only(void **state)
{
	uint8_t h[4];

	(void)state;
	start(0x5511, true);
	hello(h);
	assert_memory_equal(h, "\x55\x55\x80\x80", 4);
	assert_int_equal(elants_model_mode(&M), ELANTS_MODEL_RECOVERY);
	assert_int_equal(query(0xf0), HW);
	assert_int_equal(query(0x00), -1); /* the boot code has no fw version */
	start(0, false);		   /* empty flash: recovery too */
	hello(h);
	assert_memory_equal(h, "\x55\x55\x80\x80", 4);
}

/* The driver's IAP, @normal: EIAP after a soft reset, else 54 00 12 34. */
static void iap(bool normal, const uint8_t *image, uint32_t pages, uint32_t ack_from_fail)
{
	uint8_t a[4], id = 0x10;
	uint32_t p;

	if (normal) {
		w("\x54\x2c\x01\x01", 4);
		w("\x77\x77\x77\x77", 4);
		w("EIAP", 4);
	} else {
		w("\x54\x00\x12\x34", 4);
	}
	r(a, 4);
	assert_memory_equal(a, "\x55\xaa\x33\xcc", 4);
	w(&id, 1);
	w(image, ELANTS_MODEL_PAGE); /* clear the last page */
	r(a, 2);
	for (p = 0; p < pages; p++) {
		w(image + p * ELANTS_MODEL_PAGE, ELANTS_MODEL_PAGE);
		r(a, 2);
		if (p >= ack_from_fail)
			assert_memory_equal(a, "\x55\x55", 2);
		else
			assert_memory_equal(a, "\xaa\xaa", 2);
	}
}

static void test_normal_iap_installs_new_firmware(void **state)
{
	static uint8_t fresh[20 * ELANTS_MODEL_PAGE];
	uint8_t h[4];

	(void)state;
	start(0x5511, false);
	hello(h);
	elants_model_make_image(fresh, 20, 0x5512, HW, 0);
	iap(true, fresh, 20, ~0u);
	assert_int_equal(elants_model_mode(&M), ELANTS_MODEL_IAP);
	hello(h);
	assert_memory_equal(h, "\x55\x55\x55\x55", 4);
	assert_int_equal(query(0x00), 0x5512);
	assert_int_equal(elants_model_stats(&M)->pages_written, 20);
}

static void test_recovery_iap_and_interrupted_iap(void **state)
{
	static uint8_t fresh[20 * ELANTS_MODEL_PAGE];
	uint8_t h[4];

	(void)state;
	start(0x5511, true);
	hello(h);
	elants_model_make_image(fresh, 20, 0x5512, HW, 0);
	/* Cut short after 7 pages: the application is gone. */
	iap(false, fresh, 7, ~0u);
	hello(h);
	assert_memory_equal(h, "\x55\x55\x80\x80", 4);
	/* EIAP is not taken in recovery; 54 00 12 34 is. */
	iap(false, fresh, 20, ~0u);
	hello(h);
	assert_memory_equal(h, "\x55\x55\x55\x55", 4);
	assert_int_equal(elants_model_fw_version(&M), 0x5512);
}

/*
 * What elants_i2c meets after its own failed IAP: it stays bound, and its
 * next update sends 54 00 12 34 without a reset.  Mid-IAP that is not
 * acknowledged; after the soft reset of a new probe it is.  A chip that
 * ignores the soft reset in IAP answers neither the hello nor the
 * hardware id: only power ends it.
 */
static void test_forced_iap_mid_iap_needs_a_reset_first(void **state)
{
	static uint8_t fresh[20 * ELANTS_MODEL_PAGE];
	uint8_t h[4], a[4] = { 0xff, 0xff, 0xff, 0xff };

	(void)state;
	start(0x5511, false);
	M.cfg.nak_iap_page = 3;
	hello(h);
	elants_model_make_image(fresh, 20, 0x5512, HW, 0);
	iap(true, fresh, 6, 3);
	assert_int_equal(elants_model_mode(&M), ELANTS_MODEL_IAP);
	w("\x54\x00\x12\x34", 4);
	assert_false(elants_model_ops.irq_asserted(&M));
	r(a, 4);
	assert_memory_not_equal(a, "\x55\xaa\x33\xcc", 4);
	/* A new probe's soft reset and fast boot: recovery, then the forced
	 * IAP is taken and the update completes. */
	M.cfg.nak_iap_page = -1;
	hello(h);
	assert_memory_equal(h, "\x55\x55\x80\x80", 4);
	assert_int_equal(query(0xf0), HW);
	iap(false, fresh, 20, ~0u);
	hello(h);
	assert_memory_equal(h, "\x55\x55\x55\x55", 4);
	assert_int_equal(elants_model_fw_version(&M), 0x5512);

	/* The same with a chip that ignores the soft reset in IAP. */
	start(0x5511, false);
	M.cfg.nak_iap_page = 3;
	M.cfg.iap_ignores_reset = true;
	hello(h);
	iap(true, fresh, 6, 3);
	w("\x77\x77\x77\x77", 4);
	w("Main", 4);
	assert_false(elants_model_ops.irq_asserted(&M));
	assert_int_equal(elants_model_mode(&M), ELANTS_MODEL_IAP);
	assert_int_equal(query(0xf0), -1);
	/* Power ends it: the boot code, in recovery. */
	elants_model_ops.set_power(&M, false);
	elants_model_ops.set_power(&M, true);
	hello(h);
	assert_memory_equal(h, "\x55\x55\x80\x80", 4);
}

static void test_image_for_other_hardware_is_not_booted(void **state)
{
	static uint8_t other[20 * ELANTS_MODEL_PAGE];
	uint8_t h[4];

	(void)state;
	start(0x5511, false);
	hello(h);
	elants_model_make_image(other, 20, 0x6000, 0x1234, 0);
	iap(true, other, 20, ~0u);
	hello(h);
	assert_memory_equal(h, "\x55\x55\x80\x80", 4);
}

static void test_page_ack_fault(void **state)
{
	static uint8_t fresh[20 * ELANTS_MODEL_PAGE];
	uint8_t h[4];

	(void)state;
	start(0x5511, false);
	M.cfg.nak_iap_page = 3;
	hello(h);
	elants_model_make_image(fresh, 20, 0x5512, HW, 0);
	iap(true, fresh, 6, 3);
	assert_int_equal(elants_model_stats(&M)->pages_written, 3);
	hello(h);
	assert_memory_equal(h, "\x55\x55\x80\x80", 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hello_normal_and_queries),
		cmocka_unit_test(test_recovery_answers_hw_only),
		cmocka_unit_test(test_normal_iap_installs_new_firmware),
		cmocka_unit_test(test_recovery_iap_and_interrupted_iap),
		cmocka_unit_test(test_image_for_other_hardware_is_not_booted),
		cmocka_unit_test(test_page_ack_fault),
		cmocka_unit_test(test_forced_iap_mid_iap_needs_a_reset_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
