// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agent's maXTouch parsers: info block, firmware images (.fw and .enc)
 * and OBP_RAW configuration, on golden and corrupted inputs.  Reference data
 * comes from the emulator's chip model and image builder, which are written
 * independently of these parsers.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "mxt_image.h"
#include "mxt_model.h"
#include "family/family.h"
#include "family/mxt/mxt.h"

static char *fixture(const char *name, size_t *len)
{
	const char *top = getenv("TOUCHFW_TOP");
	char path[1024];
	char *buf = NULL;

	snprintf(path, sizeof(path), "%s/tests/unit/fixtures/mxt/%s", top ? top : ".", name);
	assert_int_equal(tf_read_file(path, 1 << 20, &buf, len), 0);
	return buf;
}

static struct mxt_model chip;

/* The info block of an emulated mxt224e at firmware @version. */
static const uint8_t *model_info(uint8_t version, uint8_t build, size_t *len)
{
	struct mxt_model_cfg cfg;
	uint16_t size;
	const uint8_t *mem;

	assert_true(mxt_model_preset("mxt224e", &cfg));
	cfg.fw_version = version;
	cfg.fw_build = build;
	mxt_model_init(&chip, &cfg, 0);
	mem = mxt_model_mem(&chip, &size);
	*len = 7 + (size_t)mem[6] * 6 + 3;
	return mem;
}

/* ------------------------------------------------------------ info */

static void test_info_block_from_chip_parses(void **state)
{
	struct mxt_info *info = malloc(sizeof(*info));
	size_t len;
	const uint8_t *buf = model_info(0x21, 0xab, &len);
	uint16_t start, size;

	(void)state;
	assert_int_equal(mxt_info_parse(buf, len, info, NULL), 0);
	assert_int_equal(info->family, 0x81);
	assert_int_equal(info->num_objects, 12);
	assert_int_equal(info->crc_read, mxt_model_info_crc(&chip));
	assert_true(mxt_model_object(&chip, 7, &start, &size));
	assert_int_equal(info->crc_start, start);
	assert_true(mxt_model_object(&chip, 5, &start, &size));
	assert_int_equal(info->t5, start);
	assert_int_equal(info->t44 + 1, info->t5);
	assert_int_equal(info->t6_rid, 1);
	free(info);
}

static void test_info_block_crc_mismatch_is_rejected(void **state)
{
	struct mxt_info *info = malloc(sizeof(*info));
	struct tf_err err = { 0 };
	size_t len;
	uint8_t buf[200];
	const uint8_t *src;

	(void)state;
	src = model_info(0x10, 0xaa, &len);
	memcpy(buf, src, len);
	buf[len - 1] ^= 0x40;
	assert_int_equal(mxt_info_parse(buf, len, info, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "CRC mismatch"));
	/* A zero CRC is refused too (atmel_mxt_ts does the same). */
	memset(buf, 0, sizeof(buf));
	assert_int_equal(mxt_info_parse(buf, 10, info, &err), -EBADMSG);
	free(info);
}

static void test_info_block_truncated_is_rejected(void **state)
{
	struct mxt_info *info = malloc(sizeof(*info));
	size_t len;
	const uint8_t *buf = model_info(0x10, 0xaa, &len);

	(void)state;
	assert_int_equal(mxt_info_parse(buf, 6, info, NULL), -EBADMSG);
	assert_int_equal(mxt_info_parse(buf, len - 1, info, NULL), -EBADMSG);
	free(info);
}

static void test_info_block_t44_not_before_t5_is_rejected(void **state)
{
	/* Hand-made: T44 at 0x30, T5 at 0x40, T6 at 0x50, CRC over it. */
	uint8_t b[7 + 3 * 6 + 3] = { 0x80, 0x01, 0x10, 0xaa, 10, 10, 3, 44,   0x30, 0, 0, 0, 0,
				     5,	   0x40, 0,    9,    0,	 0,  6, 0x50, 0,    5, 0, 1 };
	struct mxt_info *info = malloc(sizeof(*info));
	struct tf_err err = { 0 };
	uint32_t crc = mxt_crc24(b, 25);

	(void)state;
	b[25] = (uint8_t)crc;
	b[26] = (uint8_t)(crc >> 8);
	b[27] = (uint8_t)(crc >> 16);
	assert_int_equal(mxt_info_parse(b, sizeof(b), info, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "T5 is not right after T44"));
	free(info);
}

static void test_crc24_matches_model_and_hand_value(void **state)
{
	static const uint8_t b[] = { 0x01, 0x02, 0x03 };
	uint8_t r[101];
	size_t i;

	(void)state;
	assert_int_equal(mxt_crc24(b, 3), 0x000401);
	for (i = 0; i < sizeof(r); i++)
		r[i] = (uint8_t)(i * 37 + 11);
	assert_int_equal(mxt_crc24(r, sizeof(r)), mxt_model_crc24(r, sizeof(r)));
}

static void test_bootloader_address_map(void **state)
{
	(void)state;
	assert_int_equal(mxt_bootloader_addr(0x4a, false), 0x24);
	assert_int_equal(mxt_bootloader_addr(0x4a, true), 0x26);
	assert_int_equal(mxt_bootloader_addr(0x4b, false), 0x25);
	assert_int_equal(mxt_bootloader_addr(0x4b, true), 0x27);
	assert_int_equal(mxt_bootloader_addr(0x4c, false), 0x26);
	assert_int_equal(mxt_bootloader_addr(0x5b, true), 0x35);
	assert_int_equal(mxt_bootloader_addr(0x10, false), 0);
}

static void test_status_bytes(void **state)
{
	(void)state;
	assert_true(mxt_status_plausible(0xc0 | 0x0a));
	assert_true(mxt_status_plausible(0xe0));
	assert_true(mxt_status_plausible(0x40));
	assert_true(mxt_status_plausible(0x04));
	assert_false(mxt_status_plausible(0x05));
	assert_false(mxt_status_plausible(0x00));
	assert_false(mxt_status_plausible(0x20));
	assert_string_equal(mxt_status_name(0x4a), "APP_CRC_FAIL");
	assert_string_equal(mxt_status_name(0x03), "FRAME_CRC_FAIL");
}

/* ------------------------------------------------------------ images */

static uint8_t *image(size_t *len)
{
	struct mxt_img_header h = { 0x81, 0x01, 0x21, 0xab, 0, 0 };
	size_t cap = mxt_img_size(3000, 256);
	uint8_t *img = malloc(cap);

	*len = mxt_img_build(&h, NULL, 3000, 256, img, cap);
	assert_int_equal(*len, cap);
	return img;
}

static char *to_hex(const uint8_t *b, size_t n, bool lower, const char *tail)
{
	char *s = malloc(2 * n + 3);
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(s + 2 * i, lower ? "%02x" : "%02X", b[i]);
	strcpy(s + 2 * n, tail);
	return s;
}

static void test_fw_binary_frames_counted(void **state)
{
	struct mxt_fw fw;
	size_t len;
	uint8_t *img = image(&len);

	(void)state;
	assert_int_equal(mxt_fw_parse(img, len, MXT_FW_AUTO, &fw, NULL), 0);
	assert_false(fw.was_enc);
	assert_int_equal(fw.frames, 1 + 12 + 1); /* header, 3000/256 -> 12, end */
	assert_int_equal(fw.len, len);
	assert_memory_equal(fw.data, img, len);
	mxt_fw_free(&fw);
	free(img);
}

/* The image to flash is held once: a binary image is kept where it was
 * read, not copied (issue 16: peak memory of a 1 MiB image). */
static void test_fw_owned_binary_is_kept_not_copied(void **state)
{
	struct mxt_fw fw;
	size_t len;
	uint8_t *img = image(&len), *bad;

	(void)state;
	assert_int_equal(mxt_fw_parse_owned(img, len, MXT_FW_BINARY, &fw, NULL), 0);
	assert_ptr_equal(fw.data, img);
	assert_int_equal(fw.frames, 1 + 12 + 1);
	mxt_fw_free(&fw); /* frees img */
	/* On error the buffer is freed too (ASan would see a leak). */
	img = image(&len);
	bad = malloc(len - 1);
	assert_non_null(bad);
	memcpy(bad, img, len - 1);
	assert_int_equal(mxt_fw_parse_owned(bad, len - 1, MXT_FW_BINARY, &fw, NULL), -EINVAL);
	free(img);
}

static void test_fw_enc_upper_lower_and_newline_decode_alike(void **state)
{
	struct mxt_fw fw;
	size_t len;
	uint8_t *img = image(&len);
	char *up = to_hex(img, len, false, ""), *low = to_hex(img, len, true, "\n");
	char *crlf = to_hex(img, len, false, "\r\n");

	(void)state;
	assert_int_equal(mxt_fw_parse((uint8_t *)up, strlen(up), MXT_FW_AUTO, &fw, NULL), 0);
	assert_true(fw.was_enc);
	assert_int_equal(fw.len, len);
	assert_memory_equal(fw.data, img, len);
	mxt_fw_free(&fw);
	assert_int_equal(mxt_fw_parse((uint8_t *)low, strlen(low), MXT_FW_ENC, &fw, NULL), 0);
	assert_int_equal(fw.len, len);
	assert_memory_equal(fw.data, img, len);
	mxt_fw_free(&fw);
	assert_int_equal(mxt_fw_parse((uint8_t *)crlf, strlen(crlf), MXT_FW_AUTO, &fw, NULL),
			 0);
	assert_true(fw.was_enc);
	assert_int_equal(fw.len, len);
	assert_memory_equal(fw.data, img, len);
	mxt_fw_free(&fw);
	free(up);
	free(low);
	free(crlf);
	free(img);
}

static void test_fw_enc_odd_length_is_error(void **state)
{
	struct mxt_fw fw;
	struct tf_err err = { 0 };
	size_t len;
	uint8_t *img = image(&len);
	char *hex = to_hex(img, len, false, "");

	(void)state;
	hex[strlen(hex) - 1] = '\0';
	assert_int_equal(mxt_fw_parse((uint8_t *)hex, strlen(hex), MXT_FW_ENC, &fw, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "odd number of hex digits"));
	free(hex);
	free(img);
}

static void test_fw_enc_non_hex_is_error_with_offset(void **state)
{
	struct mxt_fw fw;
	struct tf_err err = { 0 };
	size_t len;
	uint8_t *img = image(&len);
	char *hex = to_hex(img, len, false, "\n");

	(void)state;
	hex[1234] = 'G';
	assert_int_equal(mxt_fw_parse((uint8_t *)hex, strlen(hex), MXT_FW_ENC, &fw, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "byte 1234"));
	free(hex);
	free(img);
}

static void test_fw_truncated_last_frame_is_error(void **state)
{
	struct mxt_fw fw;
	struct tf_err err = { 0 };
	size_t len;
	uint8_t *img = image(&len);

	(void)state;
	assert_int_equal(mxt_fw_parse(img, len - 1, MXT_FW_BINARY, &fw, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "truncated"));
	assert_int_equal(mxt_fw_parse(img, len + 1 - 1 - 5, MXT_FW_BINARY, &fw, &err), -EINVAL);
	free(img);
}

static void test_fw_stray_byte_and_empty_frame_are_errors(void **state)
{
	static const uint8_t stray[] = { 0x00, 0x02, 0xaa, 0xbb, 0x01 };
	static const uint8_t empty[] = { 0x00, 0x00, 0x00, 0x01, 0x55 };
	struct mxt_fw fw;
	struct tf_err err = { 0 };

	(void)state;
	assert_int_equal(mxt_fw_parse(stray, sizeof(stray), MXT_FW_BINARY, &fw, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "stray byte"));
	assert_int_equal(mxt_fw_parse(empty, sizeof(empty), MXT_FW_BINARY, &fw, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "empty"));
	assert_int_equal(mxt_fw_parse(empty, 0, MXT_FW_BINARY, &fw, &err), -EINVAL);
}

/* ------------------------------------------------------------ OBP_RAW */

static void test_cfg_golden_parses_and_matches_chip_crc(void **state)
{
	struct mxt_info *info = malloc(sizeof(*info));
	struct mxt_cfg cfg;
	size_t len, ilen;
	char *txt = fixture("mxt224e-2.1.AB.cfg", &len);
	const uint8_t *ib = model_info(0x21, 0xab, &ilen);
	uint8_t *mem;
	uint16_t start, n;
	uint32_t crc;

	(void)state;
	assert_int_equal(mxt_cfg_parse(txt, len, &cfg, NULL), 0);
	assert_int_equal(cfg.info[0], 0x81);
	assert_int_equal(cfg.info[2], 0x21);
	assert_int_equal(cfg.n, 8);
	/* T38 (user data) comes first, before T7, as on real parts. */
	assert_int_equal(cfg.obj[0].type, 38);
	assert_int_equal(cfg.obj[0].size, 8);
	assert_int_equal(cfg.obj[1].type, 7);
	assert_int_equal(cfg.obj[1].size, 4);
	assert_int_equal(mxt_info_parse(ib, ilen, info, NULL), 0);
	assert_int_equal(mxt_cfg_image(&cfg, info, false, &mem, &start, &n, &crc, NULL), 0);
	assert_int_equal(start, info->cfg_start);
	assert_int_equal(start + n, info->mem_size);
	assert_int_equal(crc, cfg.config_crc);
	/* Put the image into the chip's NVM: the chip reports the same CRC. */
	mxt_model_set_nvm(&chip, start, mem, n);
	assert_int_equal(mxt_model_nvm_config_crc(&chip), crc);
	free(mem);
	mxt_cfg_free(&cfg);
	free(txt);
	free(info);
}

static void test_cfg_for_other_firmware_needs_force(void **state)
{
	struct mxt_info *info = malloc(sizeof(*info));
	struct mxt_cfg cfg;
	struct tf_err err = { 0 };
	size_t len, ilen;
	char *txt = fixture("mxt224e-1.0.AA.cfg", &len);
	const uint8_t *ib = model_info(0x21, 0xab, &ilen);
	uint8_t *mem;
	uint16_t start, n;
	uint32_t crc;

	(void)state;
	assert_int_equal(mxt_cfg_parse(txt, len, &cfg, NULL), 0);
	assert_int_equal(mxt_info_parse(ib, ilen, info, NULL), 0);
	assert_int_equal(mxt_cfg_image(&cfg, info, false, &mem, &start, &n, &crc, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "info-block CRC"));
	assert_int_equal(mxt_cfg_image(&cfg, info, true, &mem, &start, &n, &crc, NULL), 0);
	free(mem);
	mxt_cfg_free(&cfg);
	free(txt);
	free(info);
}

static void test_cfg_for_another_chip_is_refused(void **state)
{
	struct mxt_info *info = malloc(sizeof(*info));
	struct mxt_cfg cfg;
	struct tf_err err = { 0 };
	size_t len, ilen;
	char *txt = fixture("mxt224e-2.1.AB.cfg", &len);
	const uint8_t *ib = model_info(0x21, 0xab, &ilen);
	uint8_t *mem;
	uint16_t start, n;
	uint32_t crc;

	(void)state;
	txt[15] = '2'; /* variant 01 -> 02 */
	assert_int_equal(mxt_cfg_parse(txt, len, &cfg, NULL), 0);
	assert_int_equal(mxt_info_parse(ib, ilen, info, NULL), 0);
	assert_int_equal(mxt_cfg_image(&cfg, info, true, &mem, &start, &n, &crc, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "variant 2"));
	mxt_cfg_free(&cfg);
	free(txt);
	free(info);
}

static void test_cfg_inconsistent_crc_is_refused(void **state)
{
	struct mxt_info *info = malloc(sizeof(*info));
	struct mxt_cfg cfg;
	struct tf_err err = { 0 };
	size_t len, ilen;
	char *txt = fixture("mxt224e-2.1.AB.cfg", &len);
	const uint8_t *ib = model_info(0x21, 0xab, &ilen);
	char *p = strstr(txt, "0007 0000 0004 20");
	uint8_t *mem;
	uint16_t start, n;
	uint32_t crc;

	(void)state;
	assert_non_null(p);
	p[15] = '3'; /* T7 byte 0: 0x20 -> 0x30 */
	assert_int_equal(mxt_cfg_parse(txt, len, &cfg, NULL), 0);
	assert_int_equal(mxt_info_parse(ib, ilen, info, NULL), 0);
	assert_int_equal(mxt_cfg_image(&cfg, info, false, &mem, &start, &n, &crc, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "its contents give"));
	mxt_cfg_free(&cfg);
	free(txt);
	free(info);
}

static void test_cfg_unknown_and_oversize_objects_are_refused(void **state)
{
	struct mxt_info *info = malloc(sizeof(*info));
	struct mxt_cfg cfg;
	struct tf_err err = { 0 };
	size_t ilen;
	const uint8_t *ib = model_info(0x21, 0xab, &ilen);
	char txt[256];
	uint8_t *mem;
	uint16_t start, n;
	uint32_t crc;

	(void)state;
	assert_int_equal(mxt_info_parse(ib, ilen, info, NULL), 0);
	snprintf(txt, sizeof(txt),
		 "OBP_RAW V1\n81 01 21 AB 13 0B 0C\n%06X\n0\n0063 0000 0001 00\n",
		 info->crc_read);
	assert_int_equal(mxt_cfg_parse(txt, strlen(txt), &cfg, NULL), 0);
	assert_int_equal(mxt_cfg_image(&cfg, info, false, &mem, &start, &n, &crc, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "line 5: the chip has no object T99"));
	mxt_cfg_free(&cfg);
	snprintf(txt, sizeof(txt),
		 "OBP_RAW V1\n81 01 21 AB 13 0B 0C\n%06X\n0\n0007 0000 0005 1 2 3 4 5\n",
		 info->crc_read);
	assert_int_equal(mxt_cfg_parse(txt, strlen(txt), &cfg, NULL), 0);
	assert_int_equal(mxt_cfg_image(&cfg, info, false, &mem, &start, &n, &crc, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "T7 has 5 bytes"));
	mxt_cfg_free(&cfg);
	snprintf(txt, sizeof(txt),
		 "OBP_RAW V1\n81 01 21 AB 13 0B 0C\n%06X\n0\n0007 0001 0004 1 2 3 4\n",
		 info->crc_read);
	assert_int_equal(mxt_cfg_parse(txt, strlen(txt), &cfg, NULL), 0);
	assert_int_equal(mxt_cfg_image(&cfg, info, false, &mem, &start, &n, &crc, &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "instance 1"));
	mxt_cfg_free(&cfg);
	free(info);
}

static void test_cfg_syntax_errors_name_the_line(void **state)
{
	static const char *bad[] = {
		"OBP_RAW V2\n",
		"OBP_RAW V1\n81 01 21\n",
		"OBP_RAW V1\n81 01 21 AB 13 0B 0C\nZZ\n0\n",
		"OBP_RAW V1\n81 01 21 AB 13 0B 0C\n0\n0\n0007 0000 0004 20 10\n",
		"OBP_RAW V1\n81 01 21 AB 13 0B 0C\n0\n0\n0007 0000 0004 20 10 32 1FF\n",
		"OBP_RAW V1\n81 01 21 AB 13 0B 0C\n0\n0\n0007 0000 0000\n",
		"OBP_RAW V1\n81 01 21 AB 13 0B 0C\n1000000\n0\n",
		"OBP_RAW V1\n81 01 21 AB 13 0B 0C\n0\n0\n0007x 0000 0001 00\n",
	};
	struct mxt_cfg cfg;
	struct tf_err err;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		assert_int_equal(mxt_cfg_parse(bad[i], strlen(bad[i]), &cfg, &err), -EINVAL);
		assert_non_null(strstr(err.msg, "line "));
	}
}

/* ------------------------------------------------------------ db add */

static void test_blob_facts_of_an_obp_raw_file_and_a_firmware_image(void **state)
{
	size_t len;
	char *txt = fixture("mxt224e-2.1.AB.cfg", &len);
	struct tf_blob_facts f;
	struct tf_err err = { 0 };
	/* Two frames: a BE16 length L, then L bytes (mxt_load_fw). */
	static const uint8_t fw[] = { 0x00, 0x03, 0xaa, 0xbb, 0x01, 0x00, 0x02, 0xcc, 0x03 };

	(void)state;
	assert_int_equal(mxt_blob_facts((const uint8_t *)txt, len, "cfg", &f, &err), 0);
	assert_true(f.is_config);
	assert_int_equal(f.n_hardware, 1);
	assert_string_equal(f.hardware[0], "129.1");
	assert_string_equal(f.for_version, "2.1.AB");
	assert_true(f.has_info_crc && f.has_config_crc);
	assert_int_equal(f.info_crc, 0x70F330);
	assert_int_equal(f.config_crc, 0xE67ACA);
	free(txt);

	assert_int_equal(mxt_blob_facts(fw, sizeof(fw), "fw", &f, &err), 0);
	assert_false(f.is_config);
	assert_int_equal(f.n_hardware, 0); /* a .fw names neither */
	assert_string_equal(f.version, "");
	assert_string_equal(f.ext, "fw");

	assert_int_equal(mxt_blob_facts((const uint8_t *)"OBP_RAW V1\n81 01", 16, "bad", &f,
					&err),
			 -EBADMSG);
	assert_int_equal(mxt_blob_facts((const uint8_t *)"root:x:0:0", 10, "passwd", &f, &err),
			 -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blob_facts_of_an_obp_raw_file_and_a_firmware_image),
		cmocka_unit_test(test_info_block_from_chip_parses),
		cmocka_unit_test(test_info_block_crc_mismatch_is_rejected),
		cmocka_unit_test(test_info_block_truncated_is_rejected),
		cmocka_unit_test(test_info_block_t44_not_before_t5_is_rejected),
		cmocka_unit_test(test_crc24_matches_model_and_hand_value),
		cmocka_unit_test(test_bootloader_address_map),
		cmocka_unit_test(test_status_bytes),
		cmocka_unit_test(test_fw_binary_frames_counted),
		cmocka_unit_test(test_fw_owned_binary_is_kept_not_copied),
		cmocka_unit_test(test_fw_enc_upper_lower_and_newline_decode_alike),
		cmocka_unit_test(test_fw_enc_odd_length_is_error),
		cmocka_unit_test(test_fw_enc_non_hex_is_error_with_offset),
		cmocka_unit_test(test_fw_truncated_last_frame_is_error),
		cmocka_unit_test(test_fw_stray_byte_and_empty_frame_are_errors),
		cmocka_unit_test(test_cfg_golden_parses_and_matches_chip_crc),
		cmocka_unit_test(test_cfg_for_other_firmware_needs_force),
		cmocka_unit_test(test_cfg_for_another_chip_is_refused),
		cmocka_unit_test(test_cfg_inconsistent_crc_is_refused),
		cmocka_unit_test(test_cfg_unknown_and_oversize_objects_are_refused),
		cmocka_unit_test(test_cfg_syntax_errors_name_the_line),
	};

	return cmocka_run_group_tests_name("mxt_parsers", tests, NULL, NULL);
}
