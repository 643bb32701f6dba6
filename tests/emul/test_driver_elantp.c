// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The elan_i2c driver model on an SMBus-only adapter (elan_smbus_ops)
 * against the Elan touchpad model speaking SMBus (elantp.transport =
 * smbus), judged by what elan_i2c_core.c and elan_i2c_smbus.c do: it binds
 * with the attributes of the i2c transport -- the product id being the
 * unique id, whose bytes are also the sample version and the ic type --
 * and its interrupt from the adapter's Host Notify; update_fw flashes
 * through the flash key, the password and the IAP reset, pages in two
 * blocks; a page error leaves the part in IAP with the driver bound, and a
 * new probe of it fails at the hello packet; a product whose low byte is
 * no ic type elan_get_fwinfo knows gets -EINVAL.  The real driver judges
 * the same model in the VM (tests/vm/README.md).
 */
#include "elantp_model.h"
#include "emub-elantp.h"
#include "emub-testutil.h"

#define DEV "touchpad"
#define SYSDEV "/sys/bus/i2c/devices/1-0015"
#define PID 0x0308 /* sample version 3, ic type 0x08: "776.0" */

static char *fwdir;

static struct emub *board(unsigned pid, unsigned fw, const char *extra)
{
	char *text = g_strdup_printf(
		"[board]\nname = elantp-smbus\ncompatible = touchfw,emul-elantp\n"
		"firmware_dirs = %s\n"
		"[adapter 1]\nname = SMBus I801 adapter\nsmbus_only = true\nhost_notify = true\n"
		"[chip " DEV "]\nadapter = 1\naddress = 0x15\nmodel = elantp\n"
		"compatible = elan,elan_i2c\ndriver = elan_i2c\nelantp.transport = smbus\n"
		"elantp.product_id = %u\nelantp.fw_version = %u\n%s",
		fwdir, pid, fw, extra);
	struct emub *eb = tu_board_text(text);

	g_free(text);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	return eb;
}

static void assert_attr(struct emub *eb, const char *name, const char *want)
{
	char *out;

	tu_sh(eb, &out, "cat " SYSDEV "/%s 2>/dev/null", name);
	g_strchomp(out);
	assert_string_equal(out, want);
	g_free(out);
}

static struct elantp_model *model(struct emub *eb)
{
	return emub_chip_elantp(eb, DEV);
}

static enum elantp_model_mode mode(struct emub *eb)
{
	enum elantp_model_mode m;

	emub_lock(eb);
	m = elantp_model_mode(model(eb));
	emub_unlock(eb);
	return m;
}

static unsigned pages_written(struct emub *eb)
{
	unsigned n;

	emub_lock(eb);
	n = elantp_model_stats(model(eb))->pages_written;
	emub_unlock(eb);
	return n;
}

static bool has_input(struct emub *eb)
{
	char node[64];

	return emub_input_node(eb, DEV, node, sizeof(node)) == 0;
}

/* "1" to update_fw: the store's result (0 or -errno) */
static int update_fw(struct emub *eb)
{
	int res = 1, before = emub_update_fw_count(eb, DEV);
	int st = tu_sh(eb, NULL, "echo 1 > " SYSDEV "/update_fw 2>/dev/null");

	assert_int_equal(emub_update_fw_count_now(eb, DEV), before + 1);
	assert_int_equal(emub_update_fw_result(eb, DEV, &res), 0);
	assert_int_equal(st != 0, res != 0);
	return res;
}

static void image(unsigned pid, unsigned fw)
{
	static uint8_t img[ELANTP_MODEL_FLASH];
	char name[64];

	elantp_model_make_image(img, (uint16_t)pid, (uint8_t)fw);
	snprintf(name, sizeof(name), "elan_i2c_%u.0.bin", pid);
	tu_write_file(fwdir, name, img, sizeof(img));
}

static void test_binds_over_smbus(void **state)
{
	struct emub *eb = board(PID, 5, "");

	(void)state;
	assert_true(emub_dev_bound(eb, DEV));
	assert_int_equal(mode(eb), ELANTP_MODEL_MAIN);
	assert_attr(eb, "product_id", "776.0");
	assert_attr(eb, "firmware_version", "5.0");
	assert_attr(eb, "sample_version", "3.0");
	assert_attr(eb, "iap_version", "0.0");
	assert_true(has_input(eb));
	emub_free(eb);
}

static void test_update_fw_over_smbus(void **state)
{
	struct emub *eb = board(PID, 5, "");

	(void)state;
	image(PID, 6);
	assert_int_equal(update_fw(eb), 0);
	assert_int_equal(mode(eb), ELANTP_MODEL_MAIN);
	assert_int_equal(pages_written(eb), ELANTP_MODEL_PAGES - 32);
	assert_attr(eb, "firmware_version", "6.0");
	assert_true(emub_dev_bound(eb, DEV));
	assert_true(has_input(eb));
	emub_free(eb);
}

static void test_page_error_leaves_iap_and_probe_fails(void **state)
{
	struct emub *eb = board(PID, 5, "fault.iap_page_error = 100\n");

	(void)state;
	image(PID, 6);
	assert_int_equal(update_fw(eb), -EIO);
	/* elan_update_firmware's IAP reset: the chip boots what is left */
	assert_int_equal(mode(eb), ELANTP_MODEL_IAP);
	assert_true(emub_dev_bound(eb, DEV));
	assert_attr(eb, "firmware_version", "5.0");
	/* a new probe fails at the hello packet: no driver */
	assert_int_equal(emub_unbind(eb, DEV), 0);
	emub_bind(eb, DEV);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_false(emub_dev_bound(eb, DEV));
	emub_free(eb);
}

static void test_no_driver_for_a_part_in_iap(void **state)
{
	struct emub *eb = board(PID, 0, "");

	(void)state;
	assert_false(emub_dev_bound(eb, DEV));
	/* the failed probe let go of the supply (power = driver) */
	assert_int_equal(mode(eb), ELANTP_MODEL_OFF);
	emub_free(eb);
}

/* The unique id's low byte is the ic type: 0x12 is none elan_get_fwinfo
 * knows, so elan_sysfs_update_fw refuses at once. */
static void test_unknown_ic_type_cannot_update(void **state)
{
	struct emub *eb = board(0x0312, 5, "");

	(void)state;
	assert_true(emub_dev_bound(eb, DEV));
	assert_attr(eb, "product_id", "786.0");
	image(0x0312, 6);
	assert_int_equal(update_fw(eb), -EINVAL);
	assert_int_equal(pages_written(eb), 0);
	emub_free(eb);
}

static int setup(void **state)
{
	(void)state;
	fwdir = tu_tmpdir();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tu_rmdir(fwdir);
	return 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binds_over_smbus),
		cmocka_unit_test(test_update_fw_over_smbus),
		cmocka_unit_test(test_page_error_leaves_iap_and_probe_fails),
		cmocka_unit_test(test_no_driver_for_a_part_in_iap),
		cmocka_unit_test(test_unknown_ic_type_cannot_update),
	};

	(void)argc;
	tu_init(argv);
	return cmocka_run_group_tests(tests, setup, teardown);
}
