// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The family registry (agent/family/): every registered family is complete
 * by tf_family_check (each capability comes with the operations it needs),
 * names and drivers are unique and found by both registries (the full one
 * and the front end's ids), and tf_family_check itself refuses families
 * that promise what they can not do.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "family/family.h"
#include "family/update-path.h"

static enum tf_update_way choose_probe(const struct tf_flow_services *sv, struct tf_update *u)
{
	(void)sv;
	(void)u;
	return TF_WAY_STAGE_AND_PROBE;
}

static void test_every_family_is_complete(void **state)
{
	char why[256];
	size_t i;

	(void)state;
	assert_non_null(tf_families[0]);
	for (i = 0; tf_families[i]; i++) {
		why[0] = '\0';
		if (tf_family_check(tf_families[i], why, sizeof(why)) < 0)
			fail_msg("family %zu: %s", i, why);
	}
}

static void test_registries_agree(void **state)
{
	size_t i, j;

	(void)state;
	for (i = 0; tf_families[i]; i++) {
		const struct tf_family *f = tf_families[i];
		const char *const *d;

		assert_ptr_equal(tf_family_ids_all[i], f->ids);
		assert_ptr_equal(tf_family_by_name(f->ids->name), f);
		assert_ptr_equal(tf_family_ids_by_name(f->ids->name), f->ids);
		for (d = f->ids->drivers; *d; d++) {
			assert_ptr_equal(tf_family_by_driver(*d), f);
			assert_ptr_equal(tf_family_ids_by_driver(*d), f->ids);
		}
		for (j = 0; j < i; j++)
			assert_string_not_equal(tf_families[j]->ids->name, f->ids->name);
	}
	assert_null(tf_family_ids_all[i]);
	assert_null(tf_family_by_name("nosuchfamily"));
	assert_null(tf_family_by_name(NULL));
	assert_null(tf_family_by_driver("at24"));
}

/* A copy of the first family with one promise broken at a time. */
static void expect_incomplete(struct tf_family *f, const char *what)
{
	char why[256] = "";

	assert_int_equal(tf_family_check(f, why, sizeof(why)), -EINVAL);
	if (!strstr(why, what))
		fail_msg("expected '%s' in '%s'", what, why);
}

static void test_check_refuses_broken_promises(void **state)
{
	const struct tf_family *orig = tf_families[0];
	struct tf_family_ops ops = *orig->ops;
	struct tf_family f = *orig;
	char why[64];

	(void)state;
	f.ops = &ops;
	assert_int_equal(tf_family_check(&f, why, sizeof(why)), 0);

	f.caps.bus_flash = true;
	f.caps.enter_bootloader_desc = "x";
	ops.write_firmware = NULL;
	expect_incomplete(&f, "bus_flash needs");
	ops = *orig->ops;

	f.caps.bus_config = true;
	ops.write_config = NULL;
	expect_incomplete(&f, "bus_config needs write_config");
	ops = *orig->ops;

	f.caps.kernel_fw_attr = "update_fw";
	f.caps.kernel_fw_value = NULL;
	expect_incomplete(&f, "kernel_fw_attr needs");
	f.caps = orig->caps;

	f.caps.kernel_cfg = true;
	ops.kernel_cfg_name = NULL;
	expect_incomplete(&f, "kernel_cfg needs kernel_cfg_name");
	ops = *orig->ops;

	f.caps.bus_flash = false;
	f.caps.bootloader_mode = true;
	expect_incomplete(&f, "bootloader mode without bus flashing");
	f.caps = orig->caps;

	f.caps.bus_flash = false;
	f.caps.bootloader_mode = false;
	f.caps.kernel_fw_attr = NULL;
	expect_incomplete(&f, "no way to install firmware");
	f.caps = orig->caps;

	{
		static const char *const foreign[] = { "spidev", NULL };

		f.caps.kernel_fw_attr = "update_fw";
		f.caps.kernel_fw_value = "1";
		f.caps.kernel_fw_rebind = foreign;
		expect_incomplete(&f, "kernel_fw_rebind names spidev, not one of its drivers");
		f.caps = orig->caps;
	}

	/* A family's update path: what it chooses needs files the driver
	 * loads; a configuration through the driver needs one it takes. */
	{
		static const struct tf_update_path chooser = { .choose = choose_probe };

		f.caps.bus_flash = false;
		f.caps.kernel_fw_attr = NULL;
		f.caps.bootloader_mode = false;
		f.caps.kernel_fw_rebind = NULL;
		expect_incomplete(&f, "no way to install firmware");
		ops.update_path = &chooser;
		assert_int_equal(tf_family_check(&f, why, sizeof(why)), 0);
		ops.kernel_fw_name = NULL;
		expect_incomplete(&f, "an update path that chooses its way needs "
				      "kernel_firmware and kernel_fw_name");
		f.caps = orig->caps;
		ops = *orig->ops;
	}
	f.caps.bus_config = false;
	f.caps.kernel_cfg = false;
	expect_incomplete(&f, "a configuration through the driver needs kernel_cfg or "
			      "bus_config");
	f.caps = orig->caps;

	f.caps.transports = 0;
	expect_incomplete(&f, "supports no transport");
	f.caps.transports = TF_TRANSPORT_SMBUS;
	expect_incomplete(&f, "SMBus without i2c");
	f.caps = orig->caps;

	f.caps.reset.drive_int = true;
	f.caps.reset.int_hold_us = f.caps.reset.release_us + 1;
	expect_incomplete(&f, "INT held longer");
	f.caps = orig->caps;

	f.caps.bus_config = false;
	f.caps.kernel_cfg = false;
	ops.free_config = NULL;
	expect_incomplete(&f, "configurations need load_config and free_config");
	f.caps = orig->caps;
	ops = *orig->ops;

	{
		struct tf_version_scheme vs = tf_version_dotted;

		vs.format = NULL;
		f.version = &vs;
		expect_incomplete(&f, "a version scheme needs name, syntax, parse and format");
		f.version = orig->version;
	}

	/* `chip save-config` promises a blob the family itself loads. */
	assert_non_null(ops.save_config);
	f.caps.bus_config = false;
	f.caps.kernel_cfg = false;
	ops.update_path = NULL;
	ops.load_config = NULL;
	ops.free_config = NULL;
	expect_incomplete(&f, "save_config without load_config");
	f.caps = orig->caps;
	ops = *orig->ops;

	ops.detect = NULL;
	expect_incomplete(&f, "detect is required");
	ops = *orig->ops;
	ops.load_firmware = NULL;
	expect_incomplete(&f,
			  "load_firmware and free_firmware are required unless config_only");
	ops = *orig->ops;

	/* A family that installs configurations only. */
	f.caps.config_only = true;
	expect_incomplete(&f, "config_only with a way to install firmware");
	f.caps.bus_flash = false;
	f.caps.bootloader_mode = false;
	f.caps.kernel_fw_attr = NULL;
	f.caps.kernel_fw_rebind = NULL;
	f.caps.bus_config = false;
	f.caps.kernel_cfg = false;
	expect_incomplete(&f, "config_only without a way to install a configuration");
	f.caps.bus_config = true;
	ops.load_firmware = NULL;
	ops.free_firmware = NULL;
	assert_int_equal(tf_family_check(&f, why, sizeof(why)), 0);
	f.caps = orig->caps;
	ops = *orig->ops;
	assert_int_equal(tf_family_check(&f, why, sizeof(why)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_family_is_complete),
		cmocka_unit_test(test_registries_agree),
		cmocka_unit_test(test_check_refuses_broken_promises),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
