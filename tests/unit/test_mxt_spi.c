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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "family/family.h"
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

/* ------------------------------------------------------------ through mchp_spi_ts */

static char attr_dir[64];

static void put(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", attr_dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int detect_driver(struct tf_chip_state *st, struct tf_err *err)
{
	const struct tf_family *f = tf_family_by_name("mxt");
	struct tf_ctx c;

	memset(&c, 0, sizeof(c));
	snprintf(c.dev.syspath, sizeof(c.dev.syspath), "%s", attr_dir);
	snprintf(c.dev.driver, sizeof(c.dev.driver), "mchp_spi_ts");
	assert_non_null(f);
	assert_non_null(f->ops->detect_driver);
	return f->ops->detect_driver(&c, st, err);
}

static int setup_dir(void **state)
{
	(void)state;
	snprintf(attr_dir, sizeof(attr_dir), "/tmp/touchfw-mchp-XXXXXX");
	return mkdtemp(attr_dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", attr_dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* mchp_spi_ts's show functions: "%u.%u", "%u.%u.%02X", "%06x", '0'/'1'. */
static void test_driver_attributes_give_the_chip_state(void **state)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };

	(void)state;
	put("in_bootloader", "0\n");
	put("hw_version", "162.6\n");
	put("fw_version", "3.0.10\n");
	put("config_crc", "06f670\n");
	assert_int_equal(detect_driver(&st, &err), 0);
	assert_int_equal(st.mode, TF_CHIP_APP);
	assert_string_equal(st.hw, "162.6");
	assert_string_equal(st.version_str, "3.0.10");
	assert_true(st.has_config_crc);
	assert_int_equal(st.config_crc, 0x06f670);
	/* 0: no T6 message reached the driver, not a CRC */
	put("config_crc", "000000\n");
	assert_int_equal(detect_driver(&st, &err), 0);
	assert_false(st.has_config_crc);
}

static void test_driver_in_bootloader_reads_no_version(void **state)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };

	(void)state;
	put("in_bootloader", "1\n");
	/* what the real show functions would oops on: never read */
	put("fw_version", "(oops)\n");
	put("hw_version", "(oops)\n");
	assert_int_equal(detect_driver(&st, &err), 0);
	assert_int_equal(st.mode, TF_CHIP_BOOTLOADER);
	assert_string_equal(st.hw, "");
	assert_non_null(strstr(st.detail, "in_bootloader 1"));
}

static void test_driver_attributes_malformed_or_missing(void **state)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };
	char path[128];

	(void)state;
	put("in_bootloader", "0\n");
	put("hw_version", "162.6\n");
	put("config_crc", "000000\n");
	put("fw_version", "3.0\n");
	assert_int_equal(detect_driver(&st, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "fw_version: \"3.0\" is not MAJOR.MINOR.BUILD"));
	put("fw_version", "3.0.10\n");
	put("in_bootloader", "2\n");
	assert_int_equal(detect_driver(&st, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "in_bootloader"));
	/* a probe that has not made its attributes yet: -ENOENT, looked for again */
	snprintf(path, sizeof(path), "%s/in_bootloader", attr_dir);
	unlink(path);
	assert_int_equal(detect_driver(&st, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "in_bootloader"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc8_check_value),
		cmocka_unit_test(test_headers_match_hand_vectors),
		cmocka_unit_test(test_replies_are_named_and_mapped),
		cmocka_unit_test_setup_teardown(test_driver_attributes_give_the_chip_state,
						setup_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_driver_in_bootloader_reads_no_version,
						setup_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_driver_attributes_malformed_or_missing,
						setup_dir, remove_dir),
	};

	return cmocka_run_group_tests_name("mxt_spi", tests, NULL, NULL);
}
