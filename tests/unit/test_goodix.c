// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Goodix family's pure parts: the chip-id table (config register,
 * length class, checksum kind), the configuration check on golden and
 * corrupted blobs of every class, the driver's file names, the version
 * scheme and the firmware database's blob rule.  Golden checksums are
 * worked out by hand in the comments; the builder below solves them its
 * own way (a search), not with the agent's function.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "board.h"
#include "event.h"
#include "family/family.h"
#include "family/goodix/goodix.h"
#include "family/ids.h"
#include "version.h"

/* ------------------------------------------------------------ builder */

/* The byte sum the 8-bit rule wants to be zero mod 256 with the checksum. */
static void seal8(uint8_t *b, size_t len)
{
	unsigned sum = 0;
	size_t i;

	for (i = 0; i + 2 < len; i++)
		sum += b[i];
	b[len - 2] = (uint8_t)(256 - sum % 256);
	b[len - 1] = 1;
}

/*
 * 16-bit rule: the words at even offsets up to len-4 (whose low byte is
 * the stored checksum's high byte) plus the stored BE16 must be 0 mod
 * 65536.  Search the checksum's high byte, and if no value works, the
 * padding byte before it.
 */
static void seal16(uint8_t *b, size_t len)
{
	unsigned pad, hi;

	for (pad = 0; pad < 256; pad++) {
		b[len - 4] = (uint8_t)pad;
		for (hi = 0; hi < 256; hi++) {
			unsigned sum = 0, stored;
			size_t i;

			b[len - 3] = (uint8_t)hi;
			for (i = 0; i < len - 3; i += 2)
				sum += (unsigned)(b[i] << 8 | b[i + 1]);
			stored = (65536 - sum % 65536) % 65536;
			if (stored >> 8 == hi) {
				b[len - 2] = (uint8_t)stored;
				b[len - 1] = 1;
				return;
			}
		}
	}
	fail_msg("no 16-bit checksum found");
}

static void build(uint8_t *b, size_t len, bool c16, uint8_t version, uint16_t x, uint16_t y,
		  uint8_t touches)
{
	size_t i;

	memset(b, 0, len);
	for (i = 6; i + 4 < len; i++)
		b[i] = (uint8_t)(i * 7 + 3);
	b[0] = version;
	b[1] = (uint8_t)x;
	b[2] = (uint8_t)(x >> 8);
	b[3] = (uint8_t)y;
	b[4] = (uint8_t)(y >> 8);
	b[5] = touches;
	if (c16)
		seal16(b, len);
	else
		seal8(b, len);
}

/* ------------------------------------------------------------ chip table */

static void test_chip_ids_map_to_the_kernels_length_classes(void **state)
{
	static const char *const c186[] = { "911", "9271", "9110", "9111", "927", "928" };
	static const char *const c228[] = { "912", "9147", "967" };
	static const char *const gt1x[] = { "1151", "1158", "5663", "5688", "917S", "9286" };
	static const char *const other[] = { "9157", "970", "917s", "1", "" };
	const struct goodix_chip_data *d;
	size_t i;

	(void)state;
	for (i = 0; i < 6; i++) {
		d = goodix_chip_data_for(c186[i]);
		assert_int_equal(d->config_len, 186);
		assert_int_equal(d->config_reg, 0x8047);
		assert_int_equal(d->checksum, GOODIX_CHECKSUM_8);
	}
	for (i = 0; i < 3; i++) {
		d = goodix_chip_data_for(c228[i]);
		assert_int_equal(d->config_len, 228);
		assert_int_equal(d->config_reg, 0x8047);
		assert_int_equal(d->checksum, GOODIX_CHECKSUM_8);
	}
	for (i = 0; i < 6; i++) {
		d = goodix_chip_data_for(gt1x[i]);
		assert_int_equal(d->config_len, 240);
		assert_int_equal(d->config_reg, 0x8050);
		assert_int_equal(d->checksum, GOODIX_CHECKSUM_16);
	}
	/* Anything else is GT9x by default, as goodix_get_chip_data. */
	for (i = 0; i < 5; i++) {
		d = goodix_chip_data_for(other[i]);
		assert_int_equal(d->config_len, 240);
		assert_int_equal(d->config_reg, 0x8047);
		assert_int_equal(d->checksum, GOODIX_CHECKSUM_8);
	}
	d = goodix_chip_data_for(NULL);
	assert_int_equal(d->config_len, 240);
}

static void test_product_id_and_firmware_version_parse(void **state)
{
	static const uint8_t gt911[6] = { '9', '1', '1', 0, 0x60, 0x10 };
	static const uint8_t gt917s[6] = { '9', '1', '7', 'S', 0x01, 0x02 };
	struct goodix_product p;

	(void)state;
	assert_int_equal(goodix_product_parse(gt911, 6, &p, NULL), 0);
	assert_string_equal(p.id, "911");
	assert_int_equal(p.fw_version, 0x1060);
	assert_int_equal(goodix_product_parse(gt917s, 6, &p, NULL), 0);
	assert_string_equal(p.id, "917S");
	assert_int_equal(p.fw_version, 0x0201);
}

static void test_product_id_garbage_or_short_is_refused(void **state)
{
	static const uint8_t empty[6] = { 0, '1', '1', 0, 0x60, 0x10 };
	static const uint8_t ones[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t slash[6] = { '9', '/', '1', 0, 0, 0 };
	struct goodix_product p;
	struct tf_err err = { 0 };

	(void)state;
	assert_int_equal(goodix_product_parse(empty, 6, &p, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "not a Goodix id"));
	assert_int_equal(goodix_product_parse(ones, 6, &p, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "ff ff ff ff"));
	assert_int_equal(goodix_product_parse(slash, 6, &p, &err), -EBADMSG);
	assert_int_equal(goodix_product_parse(ones, 5, &p, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "need 6"));
}

/* ------------------------------------------------------------ configs */

static void test_gt911_golden_config_by_hand(void **state)
{
	/* Version 0x41, 1024x600, 5 contacts, rest zero.  Byte sum 0x41 +
	 * 0x00 + 0x04 + 0x58 + 0x02 + 0x05 = 0xA4, so the checksum is 0x5C. */
	uint8_t b[186] = { 0x41, 0x00, 0x04, 0x58, 0x02, 0x05 };
	struct goodix_cfg_info info;
	int32_t x, y;

	(void)state;
	b[184] = 0x5c;
	b[185] = 0x01;
	assert_int_equal(goodix_cfg_checksum(GOODIX_CHECKSUM_8, b, 186), 0x5c);
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("911"), "911", b, 186,
					  "gt911.cfg", &info, NULL),
			 0);
	assert_int_equal(info.version, 0x41);
	assert_int_equal(info.x_res, 1024);
	assert_int_equal(info.y_res, 600);
	assert_int_equal(info.max_touch, 5);
	assert_int_equal(info.checksum, 0x5c);
	assert_int_equal(info.checksum_kind, GOODIX_CHECKSUM_8);
	goodix_cfg_axis_max(&info, false, &x, &y);
	assert_int_equal(x, 1023);
	assert_int_equal(y, 599);
	goodix_cfg_axis_max(&info, true, &x, &y);
	assert_int_equal(x, 599);
	assert_int_equal(y, 1023);
}

static void test_gt1x_golden_config_by_hand(void **state)
{
	/* Version 0, 800x480, 5 contacts.  BE words 0x0020 + 0x03E0 +
	 * 0x0105 = 0x0505; the kernel's loop also adds byte 237 (the stored
	 * checksum's high byte, hi) as the low byte of the word at 236.
	 * 0x10000 - 0x0505 - hi must be hi:lo: hi = 0xFA gives 0xFA01. */
	uint8_t b[240] = { 0x00, 0x20, 0x03, 0xe0, 0x01, 0x05 };
	struct goodix_cfg_info info;

	(void)state;
	b[237] = 0xfa;
	b[238] = 0x01;
	b[239] = 0x01;
	assert_int_equal(goodix_cfg_checksum(GOODIX_CHECKSUM_16, b, 240), 0xfa01);
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("1151"), "1151", b, 240,
					  "gt1151.cfg", &info, NULL),
			 0);
	assert_int_equal(info.x_res, 800);
	assert_int_equal(info.y_res, 480);
	assert_int_equal(info.checksum, 0xfa01);
	assert_int_equal(info.checksum_kind, GOODIX_CHECKSUM_16);
	/* The same bytes with the high byte "fixed up" the naive way fail:
	 * the kernel's sum includes that byte. */
	b[237] = 0xfa - 1;
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("1151"), "1151", b, 240,
					  "gt1151.cfg", NULL, NULL),
			 -EBADMSG);
}

static void test_every_length_class_accepts_its_own_config(void **state)
{
	static const struct {
		const char *id;
		size_t len;
		bool c16;
	} cases[] = {
		{ "911", 186, false },	{ "928", 186, false },	{ "967", 228, false },
		{ "9147", 228, false }, { "9157", 240, false }, { "1158", 240, true },
		{ "917S", 240, true },	{ "9286", 240, true },
	};
	uint8_t b[240];
	struct goodix_cfg_info info;
	size_t i;

	(void)state;
	for (i = 0; i < TF_ARRAY_SIZE(cases); i++) {
		build(b, cases[i].len, cases[i].c16, (uint8_t)(60 + i), 1280, 800, 10);
		assert_int_equal(goodix_cfg_check(goodix_chip_data_for(cases[i].id),
						  cases[i].id, b, cases[i].len, "c.cfg", &info,
						  NULL),
				 0);
		assert_int_equal(info.version, 60 + i);
		assert_int_equal(info.len, cases[i].len);
	}
}

static void test_wrong_length_names_chip_and_both_lengths(void **state)
{
	uint8_t b[240];
	struct tf_err err = { 0 };

	(void)state;
	build(b, 240, false, 0x42, 800, 480, 5);
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("911"), "911", b, 240,
					  "panel.cfg", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "panel.cfg"));
	assert_non_null(strstr(err.msg, "240 bytes"));
	assert_non_null(strstr(err.msg, "chip 911 (GT911) reads a 186-byte"));
	assert_non_null(strstr(err.msg, "another chip"));
	/* A GT1x blob offered to a GT967. */
	build(b, 240, true, 0x42, 800, 480, 5);
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("967"), "967", b, 240,
					  "gt1x.cfg", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "228-byte"));
}

static void test_truncated_config_is_refused(void **state)
{
	uint8_t b[240];
	struct tf_err err = { 0 };

	(void)state;
	build(b, 186, false, 0x42, 800, 480, 5);
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("911"), "911", b, 100,
					  "short.cfg", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "short.cfg: truncated: 100 bytes"));
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("911"), "911", b, 0, "empty.cfg",
					  NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "truncated: 0 bytes"));
	/* One byte short of its class is the wrong length, not a crash. */
	build(b, 228, false, 0x42, 800, 480, 5);
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("967"), "967", b, 227, "cut.cfg",
					  NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "227 bytes"));
}

static void test_bad_8bit_checksum_is_refused_never_repaired(void **state)
{
	uint8_t b[186], copy[186];
	struct tf_err err = { 0 };

	(void)state;
	build(b, 186, false, 0x42, 800, 480, 5);
	b[100] ^= 0x10;
	memcpy(copy, b, sizeof(b));
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("911"), "911", b, 186,
					  "bad8.cfg", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "bad8.cfg: checksum byte at byte 184"));
	assert_non_null(strstr(err.msg, "never repairs"));
	/* Expected and found values are both named. */
	{
		char want[16], got[16];

		snprintf(got, sizeof(got), "is 0x%02X", b[184]);
		snprintf(want, sizeof(want), "give 0x%02X",
			 goodix_cfg_checksum(GOODIX_CHECKSUM_8, b, 186));
		assert_non_null(strstr(err.msg, got));
		assert_non_null(strstr(err.msg, want));
	}
	assert_memory_equal(b, copy, sizeof(b));
}

static void test_bad_16bit_checksum_is_refused(void **state)
{
	uint8_t b[240];
	struct tf_err err = { 0 };

	(void)state;
	build(b, 240, true, 0x42, 800, 480, 5);
	b[7] ^= 1;
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("5688"), "5688", b, 240,
					  "bad16.cfg", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "checksum word at byte 237"));
	assert_non_null(strstr(err.msg, "goodix_check_cfg_16"));
	/* An 8-bit-sealed blob is not a 16-bit one. */
	build(b, 240, false, 0x42, 800, 480, 5);
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("5688"), "5688", b, 240,
					  "bad16.cfg", NULL, &err),
			 -EBADMSG);
}

static void test_fresh_byte_must_be_one(void **state)
{
	uint8_t b[240];
	struct tf_err err = { 0 };

	(void)state;
	build(b, 186, false, 0x42, 800, 480, 5);
	b[185] = 0;
	/* Keep the checksum right: the fresh byte is outside the sum. */
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("911"), "911", b, 186,
					  "stale.cfg", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "config-fresh byte 185 is 0x00"));
	build(b, 240, true, 0x42, 800, 480, 5);
	b[239] = 2;
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("1151"), "1151", b, 240,
					  "stale.cfg", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "is 0x02"));
}

static void test_zero_resolution_or_contacts_is_refused(void **state)
{
	uint8_t b[186];
	struct tf_err err = { 0 };

	(void)state;
	build(b, 186, false, 0x42, 0, 480, 5);
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("911"), "911", b, 186,
					  "zero.cfg", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "resolution 0x480"));
	build(b, 186, false, 0x42, 800, 480, 0xf0);
	assert_int_equal(goodix_cfg_check(goodix_chip_data_for("911"), "911", b, 186,
					  "zero.cfg", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "contact count"));
}

static void test_digest_leaves_out_the_fresh_byte(void **state)
{
	/* CRC-32 of "123456789" is 0xCBF43926; the tenth byte is "fresh". */
	static const uint8_t check[10] = "123456789";
	uint8_t b[186], c[186];

	(void)state;
	assert_int_equal(goodix_cfg_digest(check, 10), 0xcbf43926);
	build(b, 186, false, 0x42, 800, 480, 5);
	memcpy(c, b, sizeof(b));
	c[185] = 0; /* as the chip reads it back once applied */
	assert_int_equal(goodix_cfg_digest(b, 186), goodix_cfg_digest(c, 186));
	c[0]++;
	assert_int_not_equal(goodix_cfg_digest(b, 186), goodix_cfg_digest(c, 186));
}

/* ------------------------------------------------------------ names */

static void test_file_name_is_computed_from_id_or_config_name(void **state)
{
	char buf[80];

	(void)state;
	assert_int_equal(goodix_cfg_file_name("911", NULL, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "goodix_911_cfg.bin");
	assert_int_equal(goodix_cfg_file_name("917S", "", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "goodix_917S_cfg.bin");
	assert_int_equal(goodix_cfg_file_name("911", "acme-panel_v2.bin", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "goodix/acme-panel_v2.bin");
	assert_int_equal(goodix_cfg_file_name("9/1", NULL, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(goodix_cfg_file_name("", NULL, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(goodix_cfg_file_name("911", "../etc/x", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(goodix_cfg_file_name("911", "..", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(goodix_cfg_file_name("911", "a b", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(goodix_cfg_file_name("911", NULL, buf, 10), -ENAMETOOLONG);
	assert_false(goodix_config_name_valid(
		"a1234567890123456789012345678901234567890123456789012345678901234"));
	assert_true(goodix_id_valid("9110"));
	assert_false(goodix_id_valid("91100"));
}

/* ------------------------------------------------------------ versions */

static void test_version_scheme_parses_and_prints_alike(void **state)
{
	static const char *const bad_cfg[] = { "",   "256",  "007",  "-1", "1a",
					       " 7", "0x41", "1000", NULL };
	static const char *const bad_fw[] = { "",	"1060",	  "0x106",  "0x10600",
					      "0x10A0", "0X1060", "0x1g60", NULL };
	char buf[16];
	uint8_t c;
	uint16_t f;
	unsigned i;

	(void)state;
	for (i = 0; i < 256; i++) {
		goodix_cfg_version_format((uint8_t)i, buf, sizeof(buf));
		assert_int_equal(goodix_cfg_version_parse(buf, &c), 0);
		assert_int_equal(c, i);
	}
	assert_int_equal(goodix_cfg_version_parse("0", &c), 0);
	assert_int_equal(c, 0);
	for (i = 0; bad_cfg[i]; i++)
		assert_int_equal(goodix_cfg_version_parse(bad_cfg[i], &c), -EINVAL);
	goodix_fw_version_format(0x1060, buf, sizeof(buf));
	assert_string_equal(buf, "0x1060");
	assert_int_equal(goodix_fw_version_parse("0x10ab", &f), 0);
	assert_int_equal(f, 0x10ab);
	for (i = 0; bad_fw[i]; i++)
		assert_int_equal(goodix_fw_version_parse(bad_fw[i], &f), -EINVAL);
}

/* ------------------------------------------------------------ db rule */

static void test_blob_rule_accepts_a_config_for_all_its_chips(void **state)
{
	static const char *const hw[] = { "911", "9271", "928" };
	uint8_t b[186];
	struct goodix_cfg_info info;

	(void)state;
	build(b, 186, false, 72, 800, 480, 5);
	assert_int_equal(goodix_blob_check(hw, 3, "72", b, 186, "gt911/cfg-72.bin", &info,
					   NULL),
			 0);
	assert_int_equal(info.version, 72);
	assert_int_equal(goodix_blob_check(hw, 3, NULL, b, 186, "x", NULL, NULL), 0);
}

static void test_blob_rule_refuses_every_bad_blob(void **state)
{
	static const char *const mixed[] = { "911", "1151" };
	static const char *const bad_id[] = { "GT911" };
	static const char *const gt911[] = { "911" };
	uint8_t b[240];
	struct tf_err err = { 0 };

	(void)state;
	build(b, 186, false, 72, 800, 480, 5);
	/* Listed for a chip of another class. */
	assert_int_equal(goodix_blob_check(mixed, 2, "72", b, 186, "m.bin", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "chip 1151 (GT1x)"));
	assert_int_equal(goodix_blob_check(bad_id, 1, "72", b, 186, "m.bin", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "'GT911' is not a Goodix chip id"));
	assert_int_equal(goodix_blob_check(gt911, 0, "72", b, 186, "m.bin", NULL, &err),
			 -EBADMSG);
	/* Manifest version and byte 0 disagree, or are no version. */
	assert_int_equal(goodix_blob_check(gt911, 1, "73", b, 186, "m.bin", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "manifest says version 73, the blob's byte 0 says 72"));
	assert_int_equal(goodix_blob_check(gt911, 1, "demo-r1", b, 186, "m.bin", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "decimal 0-255"));
	/* Version 0: the chip would renumber it. */
	build(b, 186, false, 0, 800, 480, 5);
	assert_int_equal(goodix_blob_check(gt911, 1, NULL, b, 186, "v0.bin", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "v0.bin: configuration version 0"));
	build(b, 186, false, 72, 800, 480, 5);
	/* Truncated, bad checksum. */
	assert_int_equal(goodix_blob_check(gt911, 1, "72", b, 185, "m.bin", NULL, &err),
			 -EBADMSG);
	b[3] ^= 1;
	assert_int_equal(goodix_blob_check(gt911, 1, "72", b, 186, "m.bin", NULL, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "m.bin: checksum"));
}

/* ------------------------------------------------------------ registry */

static void test_registered_version_scheme_orders_configs_numerically(void **state)
{
	struct tf_version a, b, fw;
	char buf[16];

	(void)state;
	assert_int_equal(tf_version_parse("goodix", "72", &a), 0);
	assert_int_equal(tf_version_parse("goodix", "100", &b), 0);
	assert_true(tf_version_cmp(&a, &b) < 0); /* not "72" > "100" */
	assert_int_equal(tf_version_parse("goodix", "0x1060", &fw), 0);
	assert_int_equal(tf_version_format(&fw, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0x1060");
	assert_int_equal(tf_version_format(&b, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "100");
	assert_int_equal(tf_version_parse("goodix", "1.2.3", &a), -EINVAL);
	assert_int_equal(tf_version_parse("goodix", "0x1060 ", &a), -EINVAL);
}

static void test_profile_rules_for_goodix_controllers(void **state)
{
	const struct tf_family *g = tf_family_by_name("goodix");
	const struct tf_family *m = tf_family_by_name("mxt");
	struct tf_controller c;
	char msg[300];

	(void)state;
	assert_non_null(g);
	assert_non_null(m);
	assert_ptr_equal(tf_family_by_driver("Goodix-TS"), g);
	memset(&c, 0, sizeof(c));
	snprintf(c.bus, sizeof(c.bus), "i2c");
	c.reg = 0x5d;
	snprintf(c.config_name, sizeof(c.config_name), "panel.bin");
	assert_int_equal(tf_family_check_controller(g, &c, msg, sizeof(msg)), 0);
	c.reg = 0x14;
	assert_int_equal(tf_family_check_controller(g, &c, msg, sizeof(msg)), 0);
	c.reg = 0x4a;
	assert_int_equal(tf_family_check_controller(g, &c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "reg 0x4a: a Goodix chip answers at 0x14 or 0x5d"));
	/* config-name only where the driver takes one. */
	assert_int_equal(tf_family_check_controller(m, &c, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "config-name is given"));
}

/* goodix.c's match tables, as uevents carry them (handle-event's test). */
static void test_uevents_of_goodix_devices_are_ours(void **state)
{
	char *of[] = { "ACTION=add", "DEVPATH=/devices/x/1-005d",
		       "MODALIAS=of:NtouchscreenT(null)Cgoodix,gt911", NULL };
	char *of_1x[] = { "ACTION=add", "DEVPATH=/devices/x/2-0014",
			  "OF_COMPATIBLE_0=goodix,gt1151", "OF_COMPATIBLE_N=1", NULL };
	char *acpi[] = { "ACTION=add", "DEVPATH=/devices/x/i2c-GDIX1001:00",
			 "MODALIAS=acpi:GDIX1001:", NULL };
	char *i2c[] = { "ACTION=add", "DEVPATH=/devices/x/i2c-GDIX1002:00",
			"MODALIAS=i2c:GDIX1001:00", NULL };
	char *other[] = { "ACTION=add", "DEVPATH=/devices/x/1-005d",
			  "MODALIAS=of:NtouchscreenT(null)Cgoodix,gt9916", NULL };
	/* Linux 6.12's goodix_acpi_match adds GDIX1003 and GDX9110. */
	char *acpi_612[] = { "ACTION=add", "DEVPATH=/devices/x/i2c-GDIX1003:00",
			     "MODALIAS=acpi:GDIX1003:", NULL };
	char *acpi_9110[] = { "ACTION=add", "DEVPATH=/devices/x/i2c-GDX9110:00",
			      "MODALIAS=acpi:GDX9110:", NULL };
	struct tf_uevent ev;

	(void)state;
	assert_string_equal(tf_family_ids_by_driver("Goodix-TS")->name, "goodix");
	/* The module's name is not the driver's. */
	assert_null(tf_family_ids_by_driver("goodix_ts"));
	assert_int_equal(tf_uevent_parse(of, &ev), 0);
	assert_string_equal(tf_family_ids_by_uevent(&ev)->name, "goodix");
	assert_int_equal(tf_uevent_parse(of_1x, &ev), 0);
	assert_string_equal(tf_family_ids_by_uevent(&ev)->name, "goodix");
	assert_int_equal(tf_uevent_parse(acpi, &ev), 0);
	assert_string_equal(tf_family_ids_by_uevent(&ev)->name, "goodix");
	assert_int_equal(tf_uevent_parse(i2c, &ev), 0);
	assert_string_equal(tf_family_ids_by_uevent(&ev)->name, "goodix");
	assert_int_equal(tf_uevent_parse(acpi_612, &ev), 0);
	assert_non_null(tf_family_ids_by_uevent(&ev));
	assert_string_equal(tf_family_ids_by_uevent(&ev)->name, "goodix");
	assert_int_equal(tf_uevent_parse(acpi_9110, &ev), 0);
	assert_non_null(tf_family_ids_by_uevent(&ev));
	assert_string_equal(tf_family_ids_by_uevent(&ev)->name, "goodix");
	/* Berlin (goodix_berlin_*) is another driver, not goodix_ts: the
	 * berlin family's. */
	assert_int_equal(tf_uevent_parse(other, &ev), 0);
	assert_string_equal(tf_family_ids_by_uevent(&ev)->name, "berlin");
}

/* ------------------------------------------------------------ db add */

static void test_blob_facts_reads_version_and_layout_not_chip_ids(void **state)
{
	uint8_t b[186] = { 0x41, 0x00, 0x04, 0x58, 0x02, 0x05 };
	struct tf_blob_facts f;
	struct tf_err err = { 0 };

	(void)state;
	b[184] = 0x5c;
	b[185] = 0x01;
	assert_int_equal(goodix_blob_facts(b, sizeof(b), "gt911.bin", &f, &err), 0);
	assert_true(f.is_config);
	assert_string_equal(f.version, "65");
	assert_int_equal(f.n_hardware, 0);	/* the bytes do not name the chip */
	assert_string_equal(f.for_version, ""); /* nor the firmware */
	assert_false(f.has_config_crc);
	assert_non_null(strstr(f.what, "GT911-layout"));
	/* A bad checksum, a version 0, a wrong length: not a blob. */
	b[184] = 0x5d;
	assert_int_equal(goodix_blob_facts(b, sizeof(b), "gt911.bin", &f, &err), -EBADMSG);
	b[184] = 0x5c + 0x41;
	b[0] = 0;
	assert_int_equal(goodix_blob_facts(b, sizeof(b), "gt911.bin", &f, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "version 0"));
	assert_int_equal(goodix_blob_facts(b, 100, "short.bin", &f, &err), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blob_facts_reads_version_and_layout_not_chip_ids),
		cmocka_unit_test(test_chip_ids_map_to_the_kernels_length_classes),
		cmocka_unit_test(test_product_id_and_firmware_version_parse),
		cmocka_unit_test(test_product_id_garbage_or_short_is_refused),
		cmocka_unit_test(test_gt911_golden_config_by_hand),
		cmocka_unit_test(test_gt1x_golden_config_by_hand),
		cmocka_unit_test(test_every_length_class_accepts_its_own_config),
		cmocka_unit_test(test_wrong_length_names_chip_and_both_lengths),
		cmocka_unit_test(test_truncated_config_is_refused),
		cmocka_unit_test(test_bad_8bit_checksum_is_refused_never_repaired),
		cmocka_unit_test(test_bad_16bit_checksum_is_refused),
		cmocka_unit_test(test_fresh_byte_must_be_one),
		cmocka_unit_test(test_zero_resolution_or_contacts_is_refused),
		cmocka_unit_test(test_digest_leaves_out_the_fresh_byte),
		cmocka_unit_test(test_file_name_is_computed_from_id_or_config_name),
		cmocka_unit_test(test_version_scheme_parses_and_prints_alike),
		cmocka_unit_test(test_blob_rule_accepts_a_config_for_all_its_chips),
		cmocka_unit_test(test_blob_rule_refuses_every_bad_blob),
		cmocka_unit_test(test_registered_version_scheme_orders_configs_numerically),
		cmocka_unit_test(test_profile_rules_for_goodix_controllers),
		cmocka_unit_test(test_uevents_of_goodix_devices_are_ours),
	};

	return cmocka_run_group_tests_name("goodix", tests, NULL, NULL);
}
