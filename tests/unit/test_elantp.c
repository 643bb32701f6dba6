// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Elan touchpad family's pure parts: the file name elan_i2c requests
 * (elan_i2c_<product_id>.0.bin), the "%d.0" attributes, the image rule
 * (signature AA 55 CC 33 FF FF at validpage_count * 64 - 6 for a count
 * elan_get_fwinfo knows; IAP start inside the image), the manifest rule
 * and the registry entry.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "family/elantp/elantp.h"
#include "family/family.h"
#include "fwdb.h"

static uint8_t img[2048 * 64];

/* An image of @pages valid pages with the signature where the driver
 * looks (built here, not with the family's code). */
static size_t make(unsigned pages)
{
	size_t len = (size_t)pages * 64;

	memset(img, 0x11, len);
	img[0x106] = 0x00; /* IAP start 0x0400 words: byte 0x800 */
	img[0x107] = 0x04;
	memcpy(img + len - 6, "\xaa\x55\xcc\x33\xff\xff", 6);
	return len;
}

static void test_file_name_and_attributes(void **state)
{
	char buf[TF_FW_NAME_MAX];
	unsigned v;

	(void)state;
	assert_int_equal(elantp_fw_name(18, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "elan_i2c_18.0.bin");
	assert_int_equal(elantp_attr_number("18.0", 0xffff, &v), 0);
	assert_int_equal(v, 18);
	assert_int_equal(elantp_attr_number("6", 255, &v), 0);
	assert_int_equal(elantp_attr_number("256.0", 255, &v), -EINVAL);
	assert_int_equal(elantp_attr_number("18.1", 0xffff, &v), -EINVAL);
	assert_int_equal(elantp_attr_number("018.0", 0xffff, &v), -EINVAL);
	assert_int_equal(elantp_attr_number("-1.0", 0xffff, &v), -EINVAL);
	assert_int_equal(elantp_attr_number("", 0xffff, &v), -EINVAL);
}

static void test_image_rule(void **state)
{
	char msg[200];
	size_t len;

	(void)state;
	assert_int_equal(elantp_check_image(img, make(512), msg, sizeof(msg)), 0);
	assert_int_equal(elantp_check_image(img, make(1280), msg, sizeof(msg)), 0);
	/* 600 pages is no ic type's count: the signature is not looked for there. */
	assert_int_equal(elantp_check_image(img, make(600), msg, sizeof(msg)), -EBADMSG);
	len = make(512);
	img[len - 1] = 0;
	assert_int_equal(elantp_check_image(img, len, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "no AA 55 CC 33 FF FF signature"));
	len = make(512);
	img[0x107] = 0x40; /* IAP start 0x4000 words = byte 0x8000 = the end */
	assert_int_equal(elantp_check_image(img, len, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "past its end"));
	assert_int_equal(elantp_check_image(img, 0x100, msg, sizeof(msg)), -EBADMSG);
}

static void test_manifest_rule(void **state)
{
	char *ok[] = { "18" }, *dotted[] = { "18.0" }, *hex[] = { "0x12" };
	struct tf_blob b = { .type = TF_BLOB_FIRMWARE, .hardware = ok, .n_hardware = 1 };
	const char *key = NULL;
	char msg[200];

	(void)state;
	assert_int_equal(elantp_check_blob(&b, &key, msg, sizeof(msg)), 0);
	b.hardware = dotted;
	assert_int_equal(elantp_check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "hardware");
	b.hardware = hex;
	assert_int_equal(elantp_check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	b.hardware = ok;
	b.type = TF_BLOB_CONFIG;
	assert_int_equal(elantp_check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
}

static void test_registry_entry(void **state)
{
	const struct tf_family *f = tf_family_by_driver("elan_i2c");
	char why[200];

	(void)state;
	assert_non_null(f);
	assert_string_equal(f->ids->name, "elantp");
	assert_int_equal(tf_family_check(f, why, sizeof(why)), 0);
	assert_string_equal(f->caps.kernel_fw_attr, "update_fw");
	assert_non_null(f->caps.kernel_fw_rebind);
	assert_string_equal(f->caps.kernel_fw_rebind[0], f->ids->drivers[0]);
	assert_false(f->caps.bus_flash);
	/* IAP: only recovered over the bus, where the profile allows it */
	assert_true(f->caps.bootloader_mode);
	assert_true(f->caps.bus_recovery);
	assert_non_null(f->ops->write_firmware);
	assert_non_null(f->ops->leave_bootloader);
	assert_true(f->ids->probe_fails_in_bootloader);
	assert_false(f->ids->probe_needs_file);
}

/* allow-bus-recovery: for a family with bus recovery only; a family
 * promising it needs the operations. */
static void test_bus_recovery_rules(void **state)
{
	const struct tf_family *f = tf_family_by_name("elantp");
	const struct tf_family *g = tf_family_by_name("goodix");
	struct tf_controller ctl = { .bus = "i2c", .power = TF_POWER_ALWAYS_ON, .reg = 0x15 };
	struct tf_family_ops ops;
	struct tf_family copy;
	char why[200];

	(void)state;
	assert_non_null(f);
	assert_non_null(g);
	ctl.bus_recovery = true;
	assert_int_equal(tf_family_check_controller(f, &ctl, why, sizeof(why)), 0);
	assert_int_equal(tf_family_check_controller(g, &ctl, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "allow-bus-recovery"));
	/* the chip is flashed unbound: the platform must power it */
	ctl.power = TF_POWER_DRIVER;
	assert_int_equal(tf_family_check_controller(f, &ctl, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "always-on"));
	ctl.bus_recovery = false;
	ctl.reg = 0x5d; /* a Goodix address */
	assert_int_equal(tf_family_check_controller(g, &ctl, why, sizeof(why)), 0);
	copy = *f;
	ops = *f->ops;
	ops.leave_bootloader = NULL;
	copy.ops = &ops;
	assert_int_equal(tf_family_check(&copy, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "bus_recovery"));
}

/* The product an image is for, where fwupd reads it: the word at the IAP
 * start points (in words) to the module id. */
static void test_image_product(void **state)
{
	static uint8_t img[4096];
	unsigned id = 0;

	(void)state;
	memset(img, 0, sizeof(img));
	img[0x106] = 0x00; /* IAP start 0x400 words: byte 0x800 */
	img[0x107] = 0x04;
	img[0x800] = 0x01; /* module id at word 0x401: byte 0x802 */
	img[0x801] = 0x04;
	img[0x802] = 19;
	assert_int_equal(elantp_image_product(img, sizeof(img), &id), 0);
	assert_int_equal(id, 19);
	/* a pointer past the end, an IAP start below fwupd's 0x83 words */
	img[0x801] = 0x08;
	assert_int_equal(elantp_image_product(img, sizeof(img), &id), -EBADMSG);
	img[0x801] = 0x04;
	img[0x107] = 0x00;
	img[0x106] = 0x10;
	assert_int_equal(elantp_image_product(img, sizeof(img), &id), -EBADMSG);
	assert_int_equal(elantp_image_product(img, 0x100, &id), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_name_and_attributes),
		cmocka_unit_test(test_image_rule),
		cmocka_unit_test(test_manifest_rule),
		cmocka_unit_test(test_registry_entry),
		cmocka_unit_test(test_bus_recovery_rules),
		cmocka_unit_test(test_image_product),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
