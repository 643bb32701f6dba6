// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Elan HID touchpad family's pure parts: the registry entry (recovery
 * only, which the registry's rules now allow; i2c_hid's drivers), the
 * manifest rule (firmware only, module ids in decimal) and what `db add`
 * reads from an image (its module id where its IAP start points).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "family/family.h"
#include "fwdb.h"

static uint8_t img[1024 * 64];

/* 1024 pages of 64 bytes (ic type 0x10), the signature at the end, the
 * IAP start 0x0400 words (byte 0x800) pointing to the module id @module
 * (built here, not with the family's code). */
static size_t make(unsigned module)
{
	size_t len = sizeof(img);

	memset(img, 0x11, len);
	img[0x106] = 0x00;
	img[0x107] = 0x04;
	img[0x800] = 0x01; /* -> word 0x0401: byte 0x802 */
	img[0x801] = 0x04;
	img[0x802] = (uint8_t)module;
	img[0x803] = (uint8_t)(module >> 8);
	memcpy(img + len - 6, "\xaa\x55\xcc\x33\xff\xff", 6);
	return len;
}

static void test_registry_entry(void **state)
{
	const struct tf_family *f = tf_family_by_driver("i2c_hid_of");
	char why[200];

	(void)state;
	assert_non_null(f);
	assert_string_equal(f->ids->name, "elanhid");
	assert_ptr_equal(tf_family_by_driver("i2c_hid_acpi"), f);
	assert_int_equal(tf_family_check(f, why, sizeof(why)), 0);
	/* recovery only: no driver interface, no flashing from the application */
	assert_null(f->caps.kernel_fw_attr);
	assert_false(f->caps.bus_flash);
	assert_true(f->caps.bus_recovery);
	assert_true(f->caps.bootloader_mode);
	assert_true(f->ids->probe_fails_in_bootloader);
}

static void test_manifest_rule(void **state)
{
	const struct tf_family *f = tf_family_by_name("elanhid");
	char *hw[] = { "241" }, *bad[] = { "0xf1" };
	struct tf_blob b = { .type = TF_BLOB_FIRMWARE, .hardware = hw, .n_hardware = 1 };
	const char *key = NULL;
	char msg[200];

	(void)state;
	assert_int_equal(f->check_blob(&b, &key, msg, sizeof(msg)), 0);
	b.hardware = bad;
	assert_int_equal(f->check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "hardware");
	b.hardware = hw;
	b.type = TF_BLOB_CONFIG;
	assert_int_equal(f->check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "type");
}

static void test_db_add_reads_the_module_id(void **state)
{
	const struct tf_family *f = tf_family_by_name("elanhid");
	struct tf_blob_facts facts;
	struct tf_err err = { 0 };
	size_t len = make(241);

	(void)state;
	assert_int_equal(f->blob_facts(img, len, "x.bin", &facts, &err), 0);
	assert_int_equal(facts.n_hardware, 1);
	assert_string_equal(facts.hardware[0], "241");
	assert_false(facts.hardware_guessed);
	assert_string_equal(facts.version, "");
	/* without its signature it is no image */
	img[len - 1] = 0;
	assert_int_equal(f->blob_facts(img, len, "x.bin", &facts, &err), -EBADMSG);
}

/* hid-descr-addr in a profile: for a family that speaks HID over I2C. */
static void test_hid_descr_addr_is_for_hid_families(void **state)
{
	struct tf_controller ctl = { .bus = "i2c",
				     .power = TF_POWER_ALWAYS_ON,
				     .reg = 0x15,
				     .has_hid_descr_addr = true,
				     .hid_descr_addr = 0x20 };
	char why[200];

	(void)state;
	assert_int_equal(tf_family_check_controller(tf_family_by_name("elanhid"), &ctl, why,
						    sizeof(why)),
			 0);
	assert_int_equal(tf_family_check_controller(tf_family_by_name("elantp"), &ctl, why,
						    sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "hid-descr-addr is given"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_entry),
		cmocka_unit_test(test_manifest_rule),
		cmocka_unit_test(test_db_add_reads_the_module_id),
		cmocka_unit_test(test_hid_descr_addr_is_for_hid_families),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
