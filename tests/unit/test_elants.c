// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Elan touchscreen family's pure parts: the file name elants_i2c
 * requests (elants_i2c_%04x.bin of hw_version), the image rule (whole
 * 132-byte pages: ELAN_FW_PAGESIZE), the version scheme (fw_version's
 * %04x) and the manifest rule, and the registry entry.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "family/elants/elants.h"
#include "family/family.h"
#include "family/update-path.h"
#include "fwdb.h"
#include "version.h"

static void test_file_name_is_computed_from_the_hardware_id(void **state)
{
	char buf[TF_FW_NAME_MAX];

	(void)state;
	assert_int_equal(elants_fw_name(0x2a1c, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "elants_i2c_2a1c.bin");
	assert_int_equal(elants_fw_name(0x0007, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "elants_i2c_0007.bin");
	/* 0xffff is the driver's "invalid fw id": no file is named by it. */
	assert_int_equal(elants_fw_name(0xffff, buf, sizeof(buf)), -EINVAL);
}

static void test_image_must_be_whole_pages(void **state)
{
	char msg[160];

	(void)state;
	assert_int_equal(elants_check_image(132, msg, sizeof(msg)), 0);
	assert_int_equal(elants_check_image(132 * 64, msg, sizeof(msg)), 0);
	assert_int_equal(elants_check_image(0, msg, sizeof(msg)), -EBADMSG);
	assert_int_equal(elants_check_image(131, msg, sizeof(msg)), -EBADMSG);
	assert_int_equal(elants_check_image(132 * 3 + 1, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "397 bytes is not a whole number of 132-byte pages"));
	assert_int_equal(elants_check_image(ELANTS_FW_MAX + 132, msg, sizeof(msg)), -EBADMSG);
}

static void test_version_scheme_is_four_lowercase_hex_digits(void **state)
{
	struct tf_version a, b;
	char buf[16];
	uint16_t v;

	(void)state;
	assert_int_equal(elants_hex16_parse("5512", &v), 0);
	assert_int_equal(v, 0x5512);
	assert_int_equal(elants_hex16_parse("00af", &v), 0);
	assert_int_equal(v, 0xaf);
	assert_int_equal(elants_hex16_parse("00AF", &v), -EINVAL);
	assert_int_equal(elants_hex16_parse("5512\n", &v), -EINVAL);
	assert_int_equal(elants_hex16_parse("551", &v), -EINVAL);
	assert_int_equal(elants_hex16_parse("0x12", &v), -EINVAL);
	assert_int_equal(elants_hex16_parse("", &v), -EINVAL);
	assert_int_equal(tf_version_parse("elants", "00ff", &a), 0);
	assert_int_equal(tf_version_parse("elants", "0100", &b), 0);
	/* By value, not as text or decimal components. */
	assert_true(tf_version_cmp(&a, &b) < 0);
	assert_int_equal(elants_version_scheme.format(&b, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "0100");
	assert_int_equal(tf_version_parse("elants", "1.2", &a), -EINVAL);
}

static void test_manifest_rule(void **state)
{
	char *hw_ok[] = { "2a1c" }, *hw_bad[] = { "2A1C" }, *hw_ffff[] = { "ffff" };
	struct tf_blob b = { .type = TF_BLOB_FIRMWARE, .hardware = hw_ok, .n_hardware = 1 };
	const char *key = NULL;
	char msg[200];

	(void)state;
	assert_int_equal(elants_check_blob(&b, &key, msg, sizeof(msg)), 0);
	b.hardware = hw_bad;
	assert_int_equal(elants_check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "hardware");
	b.hardware = hw_ffff;
	assert_int_equal(elants_check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	b.hardware = hw_ok;
	b.type = TF_BLOB_CONFIG;
	assert_int_equal(elants_check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "type");
}

static void test_registry_entry(void **state)
{
	const struct tf_family *f = tf_family_by_driver("elants_i2c");
	char why[200];

	(void)state;
	assert_non_null(f);
	assert_string_equal(f->ids->name, "elants");
	assert_int_equal(tf_family_check(f, why, sizeof(why)), 0);
	assert_string_equal(f->caps.kernel_fw_attr, "update_fw");
	/* its path sends a chip in recovery through the bound driver */
	assert_non_null(f->ops->update_path);
	assert_non_null(f->ops->update_path->choose);
	assert_non_null(f->ops->update_path->driver_update_failed);
	assert_non_null(f->caps.kernel_fw_rebind);
	assert_string_equal(f->caps.kernel_fw_rebind[0], f->ids->drivers[0]);
	assert_false(f->caps.bus_flash);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_name_is_computed_from_the_hardware_id),
		cmocka_unit_test(test_image_must_be_whole_pages),
		cmocka_unit_test(test_version_scheme_is_four_lowercase_hex_digits),
		cmocka_unit_test(test_manifest_rule),
		cmocka_unit_test(test_registry_entry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
