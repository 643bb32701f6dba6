// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maXTouch spi framing (agent/family/mxt/mxt-spi.c) against values worked
 * out independently of it: the CRC8 is CRC-8/MAXIM (reflected polynomial
 * 0x31 = 0x8C, init 0, as __mxt_calc_crc8), whose published check value
 * for "123456789" is 0xA1; the header vectors were computed by hand with a
 * bit-reversing MSB-first implementation of the same CRC.  The chip model's
 * own CRC8 (tests/emul/family/mxt/model/mxt_spi.c) must agree.
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

/*
 * mchp_spi_ts with crc_enabled (T144 listed): the data's CRC8 after it,
 * counted in the length (mxt_spi_write_req).  CRC8 of 01 02 = 0x78, of
 * 01..0E = 0x21; header 01 23 01 03 00 -> 0xCB, 01 23 01 02 00 -> 0x0F
 * (worked out with the bit-reversing MSB-first CRC, as above).
 */
static void test_write_frame_with_data_crc(void **state)
{
	static const uint8_t data[2] = { 0x01, 0x02 };
	static const uint8_t want_crc[9] = { 0x01, 0x23, 0x01, 0x03, 0x00,
					     0xcb, 0x01, 0x02, 0x78 };
	static const uint8_t want_plain[8] = { 0x01, 0x23, 0x01, 0x02, 0x00, 0x0f, 0x01, 0x02 };
	uint8_t f[MXT_SPI_HEADER + MXT_SPI_MAX_LEN + 1], d14[14];

	(void)state;
	assert_int_equal(mxt_spi_write_frame(0x0123, data, 2, true, f), 9);
	assert_memory_equal(f, want_crc, 9);
	assert_int_equal(mxt_spi_write_frame(0x0123, data, 2, false, f), 8);
	assert_memory_equal(f, want_plain, 8);
	for (int i = 0; i < 14; i++)
		d14[i] = (uint8_t)(i + 1);
	assert_int_equal(mxt_spi_write_frame(0x0123, d14, 14, true, f), 21);
	assert_int_equal(f[3], 15);
	assert_int_equal(f[20], 0x21);
	assert_int_equal(MXT_SPI_MAX_LEN_CRC, 14); /* MXT_MAX_SPI_BLOCK_CRC */
}

/* The chip model alone, its spi personality driven frame by frame. */
struct spi_rig {
	struct mxt_model m;
	struct mxt_spi s;
	em_u64 now;
};

static void rig_frame(struct spi_rig *r, const uint8_t *tx, uint8_t *rx, size_t n)
{
	uint8_t sink[MXT_SPI_HEADER + MXT_SPI_MAX_LEN + 8];

	mxt_spi_ops.advance(&r->s, r->now);
	mxt_spi_ops.select(&r->s, true);
	mxt_spi_ops.xfer(&r->s, tx, rx ? rx : sink, (em_u32)n);
	mxt_spi_ops.select(&r->s, false);
	r->now += 1000000; /* the driver's 1 ms gap */
}

/* A request frame, then the 6-byte response frame: its verdict byte. */
static uint8_t rig_request(struct spi_rig *r, const uint8_t *req, size_t n)
{
	uint8_t ones[MXT_SPI_HEADER], resp[MXT_SPI_HEADER];

	memset(ones, 0xff, sizeof(ones));
	rig_frame(r, req, NULL, n);
	rig_frame(r, ones, resp, sizeof(ones));
	return resp[0];
}

/* A write request of @data at @reg with @len in the header and @tail
 * bytes after the data. */
static size_t rig_write_req(uint8_t *f, uint16_t reg, const uint8_t *data, size_t n,
			    uint16_t len, const uint8_t *tail, size_t ntail)
{
	f[0] = MXT_SPI_WRITE_REQ;
	f[1] = (uint8_t)reg;
	f[2] = (uint8_t)(reg >> 8);
	f[3] = (uint8_t)len;
	f[4] = (uint8_t)(len >> 8);
	f[5] = mxt_spi_model_crc8(f, 5);
	if (n)
		memcpy(f + 6, data, n);
	if (ntail)
		memcpy(f + 6 + n, tail, ntail);
	return 6 + n + ntail;
}

static void rig_init(struct spi_rig *r, bool t144)
{
	struct mxt_model_cfg cfg;

	memset(r, 0, sizeof(*r));
	assert_true(mxt_model_preset("mxt1664s", &cfg));
	if (t144) {
		cfg.objects[cfg.num_objects].type = 144;
		cfg.objects[cfg.num_objects].size = 2;
		cfg.objects[cfg.num_objects].instances = 1;
		cfg.num_objects++;
	}
	mxt_model_init(&r->m, &cfg, 0);
	mxt_spi_init(&r->s, &r->m);
	r->now = 1000000000ull;
	assert_int_equal(mxt_model_mode(&r->m), MXT_MODE_APP);
}

static void test_model_checks_the_data_crc_when_t144_is_listed(void **state)
{
	static const uint8_t data[2] = { 0x01, 0x02 }, good = 0x78, bad = 0x79;
	uint8_t f[MXT_SPI_HEADER + MXT_SPI_MAX_LEN + 1], d15[15];
	struct spi_rig *r = calloc(1, sizeof(*r));
	const em_u8 *mem;
	em_u16 t7, size;

	(void)state;
	assert_non_null(r);
	rig_init(r, true);
	assert_true(mxt_model_object(&r->m, 7, &t7, &size));
	mem = mxt_model_mem(&r->m, &size);
	/* a bad data CRC: "invalid CRC", nothing written */
	assert_int_equal(rig_request(r, f, rig_write_req(f, t7, data, 2, 3, &bad, 1)),
			 MXT_SPI_INVALID_CRC);
	assert_int_equal(r->s.stats.data_crc_errors, 1);
	assert_int_not_equal(mem[t7], 0x01);
	/* the data without its CRC (the length counts the data only) */
	assert_int_not_equal(rig_request(r, f, rig_write_req(f, t7, data, 2, 2, NULL, 0)),
			     MXT_SPI_WRITE_OK);
	assert_int_not_equal(mem[t7], 0x01);
	/* more than 14 data bytes a request: invalid request */
	memset(d15, 0, sizeof(d15));
	assert_int_equal(
		rig_request(r, f, rig_write_req(f, t7, d15, 15, 16, (const uint8_t[]){ 0 }, 1)),
		MXT_SPI_INVALID_REQ);
	/* the driver's frame: written */
	assert_int_equal(rig_request(r, f, rig_write_req(f, t7, data, 2, 3, &good, 1)),
			 MXT_SPI_WRITE_OK);
	assert_int_equal(mem[t7], 0x01);
	assert_int_equal(mem[t7 + 1], 0x02);
	/* reads are unchanged: 6 + 2 bytes out, the data from byte 6 */
	{
		uint8_t rq[6] = { MXT_SPI_READ_REQ, (uint8_t)t7, (uint8_t)(t7 >> 8), 2, 0 };
		uint8_t ones[8], resp[8];

		rq[5] = mxt_spi_model_crc8(rq, 5);
		memset(ones, 0xff, sizeof(ones));
		rig_frame(r, rq, NULL, 6);
		rig_frame(r, ones, resp, 8);
		assert_int_equal(resp[0], MXT_SPI_READ_OK);
		assert_memory_equal(resp + 6, data, 2);
	}
	/* without T144 the same CRC byte is just a third data byte */
	rig_init(r, false);
	mem = mxt_model_mem(&r->m, &size);
	assert_int_equal(rig_request(r, f, rig_write_req(f, t7, data, 2, 3, &bad, 1)),
			 MXT_SPI_WRITE_OK);
	assert_int_equal(mem[t7 + 2], 0x79);
	assert_int_equal(r->s.stats.data_crc_errors, 0);
	free(r);
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
		cmocka_unit_test(test_write_frame_with_data_crc),
		cmocka_unit_test(test_model_checks_the_data_crc_when_t144_is_listed),
		cmocka_unit_test_setup_teardown(test_driver_attributes_give_the_chip_state,
						setup_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_driver_in_bootloader_reads_no_version,
						setup_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_driver_attributes_malformed_or_missing,
						setup_dir, remove_dir),
	};

	return cmocka_run_group_tests_name("mxt_spi", tests, NULL, NULL);
}
