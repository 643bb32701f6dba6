// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Silead family's pure parts: the firmware file check on golden and
 * corrupted files (whole (register, value) pairs, registers the chip
 * takes), the file names silead_ts computes (firmware-name, ACPI id, i2c
 * id), the manifest rule, the registry entry and the ids handle-event
 * matches an add by.  Files are built here pair by pair.
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

#include "board.h"
#include "event.h"
#include "family/family.h"
#include "family/update-path.h"
#include "family/ids.h"
#include "family/silead/silead.h"
#include "fwdb.h"

/* ------------------------------------------------------------ builder */

struct fw {
	uint8_t b[4096];
	size_t len;
};

static void pair(struct fw *f, uint32_t reg, uint32_t val)
{
	uint32_t v[2] = { reg, val };

	for (int k = 0; k < 2; k++)
		for (int i = 0; i < 4; i++)
			f->b[f->len++] = (uint8_t)(v[k] >> (8 * i));
}

/* Two pages of 32 words: 2 + 64 = 66 pairs. */
static void golden(struct fw *f)
{
	f->len = 0;
	for (uint32_t p = 0; p < 2; p++) {
		pair(f, 0xf0, p ? 0x9f : 0x03);
		for (uint32_t o = 0; o < 0x80; o += 4)
			pair(f, o, 0x11110000u + p * 0x100 + o);
	}
}

/* ------------------------------------------------------------ files */

static void test_fw_golden(void **state)
{
	struct fw f;
	struct silead_fw_info info;
	struct tf_err err = { 0 };

	(void)state;
	golden(&f);
	assert_int_equal(f.len, 66 * 8);
	assert_int_equal(silead_fw_check(f.b, f.len, "t.fw", &info, &err), 0);
	assert_int_equal(info.pairs, 66);
	assert_int_equal(info.pages, 2);
	assert_int_equal(info.words, 64);
	assert_int_equal(info.max_page, 0x9f);
}

static void expect_bad(const struct fw *f, const char *needle)
{
	struct tf_err err = { 0 };

	assert_int_equal(silead_fw_check(f->b, f->len, "t.fw", NULL, &err), -EBADMSG);
	if (!strstr(err.msg, needle))
		fail_msg("'%s' not in '%s'", needle, err.msg);
	assert_non_null(strstr(err.msg, "t.fw"));
}

static void test_fw_corrupted(void **state)
{
	struct fw f;

	(void)state;
	golden(&f);
	f.len -= 3; /* a partial pair */
	expect_bad(&f, "not a whole number of 8-byte (register, value) pairs (5 bytes left");
	f.len = 0;
	expect_bad(&f, "empty");
	f.len = 0;
	pair(&f, 0x10, 1); /* word before a page */
	expect_bad(&f, "pair 0 (byte 0) writes word 0x10 before any page select");
	f.len = 0;
	pair(&f, 0xf0, 0x100); /* no such page */
	expect_bad(&f, "page 0x00000100 is not a RAM page");
	golden(&f);
	pair(&f, 0x42, 1); /* unaligned */
	expect_bad(&f, "pair 66 (byte 528): register 0x00000042 is neither");
	golden(&f);
	pair(&f, 0x80, 1); /* the touch data register, not a word */
	expect_bad(&f, "register 0x00000080");
	golden(&f);
	pair(&f, 0x1f0, 1); /* the driver would send 0xF0: the file is wrong */
	expect_bad(&f, "register 0x000001F0");
	f.len = 0;
	pair(&f, 0xf0, 1);
	expect_bad(&f, "selects pages but writes no word");
}

static void test_file_names(void **state)
{
	char b[128];

	(void)state;
	/* firmware-name first (touchscreen_dmi.c, DT) */
	assert_int_equal(silead_fw_file_name("gsl1680-t8plus.fw", "acpi:MSSL1680:", "", b,
					     sizeof(b)),
			 0);
	assert_string_equal(b, "silead/gsl1680-t8plus.fw");
	/* ACPI id, lower-cased */
	assert_int_equal(silead_fw_file_name("", "acpi:MSSL1680:", "", b, sizeof(b)), 0);
	assert_string_equal(b, "silead/mssl1680.fw");
	assert_int_equal(silead_fw_file_name(NULL, "acpi:MSSL0017:PNP0C50:", NULL, b,
					     sizeof(b)),
			 0);
	assert_string_equal(b, "silead/mssl0017.fw");
	/* i2c id from the compatible, or the i2c modalias */
	assert_int_equal(silead_fw_file_name("", "of:NtsT(null)Csilead,gsl3670",
					     "silead,gsl3670", b, sizeof(b)),
			 0);
	assert_string_equal(b, "silead/gsl3670.fw");
	assert_int_equal(silead_fw_file_name(NULL, "i2c:mssl1680", NULL, b, sizeof(b)), 0);
	assert_string_equal(b, "silead/mssl1680.fw");
	/* what the driver does not take */
	assert_int_equal(silead_fw_file_name(NULL, "acpi:GDIX1001:", NULL, b, sizeof(b)),
			 -EINVAL);
	assert_int_equal(silead_fw_file_name(NULL, "i2c:gsl9999", NULL, b, sizeof(b)), -EINVAL);
	assert_int_equal(silead_fw_file_name("../x", "acpi:MSSL1680:", NULL, b, sizeof(b)),
			 -EINVAL);
	assert_int_equal(silead_fw_file_name(NULL, NULL, NULL, b, sizeof(b)), -EINVAL);
}

/* ------------------------------------------------------------ manifest */

static void test_blob_rule(void **state)
{
	const struct tf_family *f = tf_family_by_name("silead");
	char *hw[] = { (char *)"gsl1680" }, *bad_hw[] = { (char *)"mssl1680" };
	char *boards[] = { (char *)"example,t8plus" };
	struct tf_blob b = { .id = (char *)"t8",
			     .type = TF_BLOB_FIRMWARE,
			     .family = (char *)"silead",
			     .hardware = hw,
			     .n_hardware = 1,
			     .version = (char *)"1",
			     .boards = boards,
			     .n_boards = 1,
			     .file = (char *)"silead/t8.fw" };
	const char *key = NULL;
	char msg[256];
	struct fw fw;

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->check_blob(&b, &key, msg, sizeof(msg)), 0);
	b.type = TF_BLOB_CONFIG;
	assert_int_equal(f->check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "type");
	b.type = TF_BLOB_FIRMWARE;
	b.hardware = bad_hw;
	assert_int_equal(f->check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "hardware");
	b.hardware = hw;
	b.n_boards = 0;
	assert_int_equal(f->check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "boards");
	b.n_boards = 1;
	b.min_from = (char *)"1";
	assert_int_equal(f->check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "min_from");
	b.min_from = NULL;
	b.has_config_crc = true;
	assert_int_equal(f->check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "config_crc");
	b.has_config_crc = false;
	golden(&fw);
	assert_int_equal(f->check_blob_data(&b, fw.b, fw.len, msg, sizeof(msg)), 0);
	assert_int_equal(f->check_blob_data(&b, fw.b, fw.len - 1, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "silead/t8.fw: "));
}

/* ------------------------------------------------------------ registry */

static void test_registry_and_ids(void **state)
{
	const struct tf_family *f = tf_family_by_name("silead");
	const struct tf_family_ids *ids;
	char why[256];
	struct tf_uevent ev;
	char *env[] = { (char *)"ACTION=add",
			(char *)"DEVPATH=/devices/platform/x/i2c-1/i2c-MSSL1680:00",
			(char *)"SUBSYSTEM=i2c", (char *)"MODALIAS=acpi:MSSL1680:", NULL };

	(void)state;
	assert_int_equal(tf_family_check(f, why, sizeof(why)), 0);
	/* its path stages the file the driver loads at probe */
	assert_non_null(f->ops->update_path);
	assert_non_null(f->ops->update_path->choose);
	assert_ptr_equal(tf_family_by_driver("silead_ts"), f);
	assert_int_equal(tf_uevent_parse(env, &ev), 0);
	ids = tf_family_ids_by_uevent(&ev);
	assert_non_null(ids);
	assert_string_equal(ids->name, "silead");
	assert_true(ids->probe_needs_file);
	assert_false(tf_family_ids_by_name("goodix")->probe_needs_file);
}

/* The expected axes: the profile's sizes - 1, swapped; else 4095. */
static void test_expected_axes(void **state)
{
	const struct tf_family *f = tf_family_by_name("silead");
	struct tf_controller ctl = { .size_x = 1960, .size_y = 1500, .swapped_x_y = true };
	struct tf_ctx c = { .ctrl = &ctl };
	int32_t x, y;

	(void)state;
	assert_int_equal(f->ops->expected_axes(&c, NULL, &x, &y), 0);
	assert_int_equal(x, 1499);
	assert_int_equal(y, 1959);
	ctl.swapped_x_y = false;
	f->ops->expected_axes(&c, NULL, &x, &y);
	assert_int_equal(x, 1959);
	ctl.size_x = ctl.size_y = 0;
	f->ops->expected_axes(&c, NULL, &x, &y);
	assert_int_equal(x, 4095);
	assert_int_equal(y, 4095);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fw_golden),	 cmocka_unit_test(test_fw_corrupted),
		cmocka_unit_test(test_file_names),	 cmocka_unit_test(test_blob_rule),
		cmocka_unit_test(test_registry_and_ids), cmocka_unit_test(test_expected_axes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
