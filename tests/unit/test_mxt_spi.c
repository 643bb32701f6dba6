// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maXTouch spi framing (agent/family/mxt/mxt-spi.c) against values worked
 * out independently of it: the CRC8 is CRC-8/MAXIM (reflected polynomial
 * 0x31 = 0x8C, init 0, as __mxt_calc_crc8), whose published check value
 * for "123456789" is 0xA1; the header vectors were computed by hand with a
 * bit-reversing MSB-first implementation of the same CRC.  The chip model's
 * own CRC8 (tests/emul/model/mxt_spi.c) must agree.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "family/mxt/mxt.h"
#include "mxt_spi.h"

static void test_crc8_check_value(void **state)
{
	(void)state;
	assert_int_equal(mxt_spi_crc8((const uint8_t *)"123456789", 9), 0xa1);
	assert_int_equal(mxt_spi_crc8(NULL, 0), 0x00);
	/* the chip model computes it on its own */
	assert_int_equal(mxt_spi_model_crc8((const uint8_t *)"123456789", 9), 0xa1);
}

static void test_headers_match_hand_vectors(void **state)
{
	static const struct {
		uint8_t op;
		uint16_t reg, len;
		uint8_t want[6];
	} v[] = {
		{ MXT_SPI_READ_REQ, 0x0000, 7, { 0x02, 0x00, 0x00, 0x07, 0x00, 0xed } },
		{ MXT_SPI_WRITE_REQ, 0x0000, 1, { 0x01, 0x00, 0x00, 0x01, 0x00, 0x09 } },
		{ MXT_SPI_READ_REQ, 0x1234, 64, { 0x02, 0x34, 0x12, 0x40, 0x00, 0x5b } },
	};
	uint8_t h[6];

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		mxt_spi_header(v[i].op, v[i].reg, v[i].len, h);
		assert_memory_equal(h, v[i].want, 6);
	}
	/* the chip's verdict headers, as the model builds them */
	{
		const uint8_t ok[5] = { 0x82, 0x00, 0x00, 0x07, 0x00 };
		const uint8_t bad[5] = { 0x08, 0x00, 0x00, 0x07, 0x00 };

		assert_int_equal(mxt_spi_crc8(ok, 5), 0x26);
		assert_int_equal(mxt_spi_crc8(bad, 5), 0x50);
	}
}

static void test_replies_are_named_and_mapped(void **state)
{
	(void)state;
	assert_int_equal(mxt_spi_reply_errno(0x82, MXT_SPI_READ_OK), 0);
	assert_int_equal(mxt_spi_reply_errno(0x81, MXT_SPI_WRITE_OK), 0);
	/* a write verdict for a read is not a success */
	assert_int_equal(mxt_spi_reply_errno(0x81, MXT_SPI_READ_OK), -EPROTO);
	assert_int_equal(mxt_spi_reply_errno(0xff, MXT_SPI_READ_OK), -ENXIO);
	assert_int_equal(mxt_spi_reply_errno(0x42, MXT_SPI_READ_OK), -EIO);
	assert_int_equal(mxt_spi_reply_errno(0x41, MXT_SPI_WRITE_OK), -EIO);
	assert_int_equal(mxt_spi_reply_errno(0x04, MXT_SPI_WRITE_OK), -EPROTO);
	assert_int_equal(mxt_spi_reply_errno(0x08, MXT_SPI_READ_OK), -EPROTO);
	assert_string_equal(mxt_spi_reply_name(0x08), "invalid CRC");
	assert_string_equal(mxt_spi_reply_name(0x41), "write failed");
	assert_string_equal(mxt_spi_reply_name(0x04), "invalid request");
	assert_string_equal(mxt_spi_reply_name(0x42), "read failed");
	assert_string_equal(mxt_spi_reply_name(0xff), "no answer");
	assert_string_equal(mxt_spi_reply_name(0x13), "unknown reply");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc8_check_value),
		cmocka_unit_test(test_headers_match_hand_vectors),
		cmocka_unit_test(test_replies_are_named_and_mapped),
	};

	return cmocka_run_group_tests_name("mxt_spi", tests, NULL, NULL);
}
