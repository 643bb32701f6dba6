// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rmi4_smbus driver model (rmi_smbus + rmi_core) against the RMI4 chip
 * model, judged by what the kernel's drivers do: no bind without SMBus
 * Host Notify on the adapter; binding in application mode and in
 * bootloader mode with F01's and F34's attributes on rmi4-NN; update_fw
 * with a good image (the chip left in its bootloader until a power cycle,
 * which on this board a rebind is: power = driver, then the new build
 * id); images the driver refuses before the chip is touched, a bootloader
 * config size refused after the bootloader was entered (the write still
 * returns the re-probe's success), a bad core code CRC flashed and
 * refused by the chip; power lost mid-flash.  The real drivers judge the
 * same model in tests/vm/scenarios/kmod-rmi4-driver.sh.
 */
#include <linux/input.h>

#include "emub-priv.h"
#include "emub-rmi4.h"
#include "emub-testutil.h"
#include "rmi4_model.h"

#define DEV "touchpad"
#define SYSDEV "/sys/bus/i2c/devices/1-002c"

static char *fwdir;

static struct emub *board(const char *extra, bool host_notify)
{
	char *text =
		g_strdup_printf("[board]\nname = rmi4\ncompatible = touchfw,emul-rmi4\n"
				"firmware_dirs = %s\n"
				"[adapter 1]\nname = SMBus I801 adapter\nhost_notify = %s\n"
				"[chip " DEV "]\nadapter = 1\naddress = 0x2c\nmodel = rmi4\n"
				"compatible = synaptics,rmi4_smbus\ndriver = rmi4_smbus\n%s",
				fwdir, host_notify ? "true" : "false", extra);
	struct emub *eb = tu_board_text(text);

	g_free(text);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	return eb;
}

/* the part on plain I2C (rmi4.bus = i2c), bound by rmi4_i2c, its ATTN on
 * a GPIO line (level); @smbus_only: behind an SMBus-only controller */
static struct emub *board_i2c(const char *extra, bool smbus_only)
{
	char *text = g_strdup_printf(
		"[board]\nname = rmi4\ncompatible = touchfw,emul-rmi4\n"
		"firmware_dirs = %s\n"
		"[adapter 1]\nname = touchfw emulated adapter 1\nsmbus_only = %s\n"
		"[chip " DEV "]\nadapter = 1\naddress = 0x2c\nmodel = rmi4\n"
		"compatible = syna,rmi4-i2c\ndriver = rmi4_i2c\nrmi4.bus = i2c\n"
		"chg_gpio = 1\nirq_type = level\n%s"
		"[gpiochip]\nlabel = emuboard-gpio\nlines = 4\nline.1 = TP_ATTN\n",
		fwdir, smbus_only ? "true" : "false", extra);
	struct emub *eb = tu_board_text(text);

	g_free(text);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	return eb;
}

/* an attribute of the RMI device under the client, "" when none */
static char *attr(struct emub *eb, const char *name)
{
	char *out;

	tu_sh(eb, &out, "cat " SYSDEV "/rmi4-*/%s 2>/dev/null", name);
	g_strchomp(out);
	return out;
}

/* the function devices under the RMI device, "fn01 fn11 fn34" */
static char *functions(struct emub *eb)
{
	char *out;

	tu_sh(eb, &out,
	      "cd " SYSDEV "/rmi4-* && for f in rmi4-*.fn*; do [ -d \"$f\" ] && "
	      "printf '%%s ' \"${f#*.}\"; done");
	g_strchomp(out);
	return out;
}

static void assert_functions(struct emub *eb, const char *want)
{
	char *v = functions(eb);

	assert_string_equal(v, want);
	g_free(v);
}

/* the input device's absolute axes (ABS= of its uevent), "" or "0"
 * when it has none */
static void assert_abs(struct emub *eb, bool want)
{
	char *out;

	tu_sh(eb, &out,
	      "sed -n 's/^ABS=//p' " SYSDEV "/rmi4-*/input/input*/uevent 2>/dev/null");
	g_strchomp(out);
	if (want)
		assert_true(*out && strcmp(out, "0"));
	else
		assert_true(!*out || !strcmp(out, "0"));
	g_free(out);
}

static void assert_attr(struct emub *eb, const char *name, const char *want)
{
	char *v = attr(eb, name);

	assert_string_equal(v, want);
	g_free(v);
}

static enum rmi4_model_mode mode(struct emub *eb)
{
	enum rmi4_model_mode m;

	emub_lock(eb);
	m = rmi4_model_mode(emub_chip_rmi4(eb, DEV));
	emub_unlock(eb);
	return m;
}

static struct rmi4_model_stats stats(struct emub *eb)
{
	struct rmi4_model_stats s;

	emub_lock(eb);
	s = *rmi4_model_stats(emub_chip_rmi4(eb, DEV));
	emub_unlock(eb);
	return s;
}

/* write @file to update_fw: the store's result (0 or -errno) */
static int update_fw(struct emub *eb, const char *file)
{
	int res = 1, before = emub_update_fw_count(eb, DEV);
	int st = tu_sh(eb, NULL,
		       "for f in " SYSDEV
		       "/rmi4-*/update_fw; do echo %s > $f; done 2>/dev/null",
		       file);

	assert_int_equal(emub_update_fw_count_now(eb, DEV), before + 1);
	assert_int_equal(emub_update_fw_result(eb, DEV, &res), 0);
	assert_int_equal(st != 0, res != 0);
	return res;
}

/* unbind, bind: power = driver, so the chip is power-cycled */
static void rebind(struct emub *eb)
{
	assert_int_equal(emub_unbind(eb, DEV), 0);
	assert_int_equal(emub_bind(eb, DEV), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_true(emub_dev_bound(eb, DEV));
}

/* the input device, where rmi_core registers it: below rmi4-NN (its
 * "device" link there), none on the client itself */
static bool has_input(struct emub *eb)
{
	char node[64], *out;
	bool below;

	if (emub_input_node(eb, DEV, node, sizeof(node)) != 0)
		return false;
	tu_sh(eb, &out,
	      "cd " SYSDEV " && ls -d input 2>/dev/null; for i in rmi4-*/input/input*; do "
	      "[ \"$(basename \"$(readlink -f $i/device)\")\" = \"${i%%%%/*}\" ] && "
	      "echo below; done");
	g_strchomp(out);
	below = !strcmp(out, "below");
	g_free(out);
	assert_true(below);
	return true;
}

static void image(const char *name, uint32_t build, uint32_t cfg, enum rmi4_image_form form)
{
	uint8_t img[RMI4_MODEL_IMAGE_MAX];
	uint32_t n = rmi4_model_make_image(img, build, cfg, "s3203", form);

	tu_write_file(fwdir, name, img, n);
}

static void image_v5(const char *name, uint32_t build, uint32_t cfg)
{
	uint8_t img[RMI4_MODEL_IMAGE_MAX];
	uint32_t n = rmi4_model_make_image_v5(img, build, cfg, "s3203", 5);

	tu_write_file(fwdir, name, img, n);
}

static void test_no_bind_without_host_notify(void **state)
{
	struct emub *eb = board("", false);

	(void)state;
	assert_false(emub_dev_bound(eb, DEV));
	assert_false(has_input(eb));
	emub_free(eb);
}

static void test_binds_in_application_mode(void **state)
{
	struct emub *eb = board("", true);

	(void)state;
	assert_true(emub_dev_bound(eb, DEV));
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	assert_attr(eb, "firmware_id", "1969920");
	assert_attr(eb, "product_id", "s3203");
	assert_attr(eb, "manufacturer_id", "1");
	assert_attr(eb, "bootloader_id", "V7.0");
	assert_attr(eb, "configuration_id", "1a2b3c4d");
	assert_attr(eb, "update_fw_status", "0");
	assert_true(has_input(eb));
	/* rmi_create_function per PDT entry; F11 gives the input its axes */
	assert_functions(eb, "fn01 fn11 fn34");
	assert_abs(eb, true);
	/* the axes Debian's 6.1 rmi_core gave this model in the VM */
	{
		char *out;

		tu_sh(eb, &out, "sed -n 's/^ABS=//p' " SYSDEV "/rmi4-*/input/input*/uevent");
		g_strchomp(out);
		assert_string_equal(out, "6f3800001000003");
		g_free(out);
	}
	/* the partition table was read over two SMBus blocks */
	assert_int_equal(stats(eb).blocks_read, 4);
	emub_free(eb);
}

/* the input device's ABS_MT_POSITION_X / _Y maxima, as EVIOCGABS gives
 * them (the emulator's evdev answers from these) */
static void input_max(struct emub *eb, int *x, int *y)
{
	struct emub_chip *c;

	emub_lock(eb);
	c = emub_find_chip(eb, DEV);
	assert_non_null(c);
	assert_non_null(c->dev->input);
	*x = c->dev->input->abs[ABS_MT_POSITION_X].maximum;
	*y = c->dev->input->abs[ABS_MT_POSITION_Y].maximum;
	emub_unlock(eb);
}

/* A part whose application has F12 (the 2D function newer parts have)
 * instead of F11: rmi_f12's probe reads its register descriptors and
 * control 8; the input device gets F12's axes. */
static void test_binds_in_application_mode_with_f12(void **state)
{
	struct emub *eb = board("rmi4.touch = f12\n", true);
	int x, y;

	(void)state;
	assert_true(emub_dev_bound(eb, DEV));
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	assert_attr(eb, "firmware_id", "1969920");
	assert_functions(eb, "fn01 fn12 fn34");
	assert_true(has_input(eb));
	assert_abs(eb, true);
	input_max(eb, &x, &y);
	assert_int_equal(x, RMI4_MODEL_F12_MAX_X);
	assert_int_equal(y, RMI4_MODEL_F12_MAX_Y);
	/* flashed, then after the chip's reset F12 is back */
	image("new.img", 0x000124, 0x56, RMI4_IMG_GOOD);
	assert_int_equal(update_fw(eb, "new.img"), 0);
	assert_functions(eb, "fn01 fn34");
	rebind(eb);
	assert_attr(eb, "firmware_id", "292");
	assert_functions(eb, "fn01 fn12 fn34");
	input_max(eb, &x, &y);
	assert_int_equal(x, RMI4_MODEL_F12_MAX_X);
	emub_free(eb);
}

static void test_binds_in_bootloader_mode(void **state)
{
	struct emub *eb = board("rmi4.build_id = 0\n", true);

	(void)state;
	assert_true(emub_dev_bound(eb, DEV));
	assert_int_equal(mode(eb), RMI4_MODEL_BL);
	assert_attr(eb, "firmware_id", "0");
	assert_attr(eb, "bootloader_id", "V7.0");
	/* rmi_core registers its input device in bootloader mode too, with
	 * no axes: the bootloader's PDT lists F01 and F34 only */
	assert_true(has_input(eb));
	assert_functions(eb, "fn01 fn34");
	assert_abs(eb, false);
	image("new.img", 0x000123, 0x55, RMI4_IMG_GOOD);
	assert_int_equal(update_fw(eb, "new.img"), 0);
	assert_int_equal(stats(eb).bl_entries, 0);
	/* re-probed after the flash, the chip not reset: still F01 and F34 */
	assert_functions(eb, "fn01 fn34");
	rebind(eb);
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	assert_functions(eb, "fn01 fn11 fn34");
	assert_abs(eb, true);
	assert_attr(eb, "firmware_id", "291");
	assert_attr(eb, "configuration_id", "55");
	emub_free(eb);
}

static void test_update_good_image(void **state)
{
	struct emub *eb = board("", true);
	struct rmi4_model_stats s;

	(void)state;
	image("new.img", 0x1e0f01, 0x1a2b3c4e, RMI4_IMG_GOOD);
	assert_int_equal(update_fw(eb, "new.img"), 0);
	s = stats(eb);
	assert_int_equal(s.bl_entries, 1);
	assert_int_equal(s.erases, 1);
	assert_int_equal(s.blocks_written, 78);
	assert_int_equal(s.cmd_errors, 0);
	/* rmi_smbus resets nothing: the re-probe finds the bootloader */
	assert_int_equal(mode(eb), RMI4_MODEL_BL);
	assert_attr(eb, "firmware_id", "0");
	rebind(eb);
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	assert_attr(eb, "firmware_id", "1969921");
	assert_attr(eb, "configuration_id", "1a2b3c4e");
	/* a missing file: request_firmware's error */
	assert_int_equal(update_fw(eb, "nothing.img"), -ENOENT);
	emub_free(eb);
}

static void test_broken_images(void **state)
{
	struct emub *eb = board("", true);

	(void)state;
	image("hdr.img", 0x1e0f03, 0, RMI4_IMG_BAD_HEADER);
	image("nofl.img", 0x1e0f03, 0, RMI4_IMG_NO_FLASH_CONFIG);
	image("bl.img", 0x1e0f03, 0, RMI4_IMG_BL_CONFIG_SIZE);
	image("crc.img", 0x1e0f03, 0, RMI4_IMG_BAD_CHECKSUM);
	assert_int_equal(update_fw(eb, "hdr.img"), -EINVAL);
	assert_int_equal(update_fw(eb, "nofl.img"), -EINVAL);
	assert_int_equal(stats(eb).bl_entries, 0);
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	/* refused after entering the bootloader: the write returns the
	 * re-probe's success, the chip is left in its bootloader */
	assert_int_equal(update_fw(eb, "bl.img"), 0);
	assert_int_equal(stats(eb).bl_entries, 1);
	assert_int_equal(stats(eb).erases, 0);
	assert_int_equal(mode(eb), RMI4_MODEL_BL);
	assert_attr(eb, "update_fw_status", "0");
	rebind(eb);
	assert_attr(eb, "firmware_id", "1969920");
	/* the kernel checks no CRC; the chip will not start the code */
	assert_int_equal(update_fw(eb, "crc.img"), 0);
	assert_int_equal(stats(eb).blocks_written, 78);
	rebind(eb);
	assert_int_equal(mode(eb), RMI4_MODEL_BL);
	assert_attr(eb, "firmware_id", "0");
	emub_free(eb);
}

static void test_power_loss_mid_flash(void **state)
{
	struct emub *eb = board("fault.flash_power_loss = 40\n", true);

	(void)state;
	image("new.img", 0x1e0f01, 0, RMI4_IMG_GOOD);
	/* the flash times out; the write returns the re-probe's result */
	assert_int_equal(update_fw(eb, "new.img"), 0);
	assert_int_equal(stats(eb).power_losses, 1);
	assert_int_equal(stats(eb).blocks_written, 39);
	rebind(eb);
	assert_int_equal(mode(eb), RMI4_MODEL_BL);
	assert_attr(eb, "firmware_id", "0");
	assert_int_equal(update_fw(eb, "new.img"), 0);
	rebind(eb);
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	assert_attr(eb, "firmware_id", "1969921");
	emub_free(eb);
}

/*
 * rmi_i2c: the same part on plain I2C binds through rmi4_i2c (page select,
 * write-then-read), with the attributes, functions and input device
 * rmi_core makes; update_fw flashes it, and the re-probe's initial reset
 * (F01's reset command: rmi_i2c has no transport reset) starts the new
 * application at once -- no rebind.  An SMBus-only controller: no bind.
 */
static void test_i2c_binds_and_updates(void **state)
{
	struct emub *eb = board_i2c("", false);
	struct rmi4_model_stats s;
	int x, y;

	(void)state;
	assert_true(emub_dev_bound(eb, DEV));
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	assert_attr(eb, "firmware_id", "1969920");
	assert_attr(eb, "product_id", "s3203");
	assert_attr(eb, "bootloader_id", "V7.0");
	assert_functions(eb, "fn01 fn11 fn34");
	assert_true(has_input(eb));
	input_max(eb, &x, &y);
	assert_int_equal(x, RMI4_MODEL_F11_MAX_X);
	/* the probe's initial reset went to F01 */
	assert_true(stats(eb).resets >= 1);
	image("new.img", 0x1e0f01, 0x1a2b3c4e, RMI4_IMG_GOOD);
	assert_int_equal(update_fw(eb, "new.img"), 0);
	s = stats(eb);
	assert_int_equal(s.bl_entries, 1);
	assert_int_equal(s.erases, 1);
	assert_int_equal(s.blocks_written, 78);
	assert_int_equal(s.cmd_errors, 0);
	assert_true(s.notifies > 0); /* the level interrupt completed them */
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	assert_attr(eb, "firmware_id", "1969921");
	assert_attr(eb, "configuration_id", "1a2b3c4e");
	assert_functions(eb, "fn01 fn11 fn34");
	emub_free(eb);

	eb = board_i2c("", true);
	assert_false(emub_dev_bound(eb, DEV));
	emub_free(eb);
}

/* rmi4_i2c on a part left in its bootloader with a valid application:
 * its probe's reset starts the application. */
static void test_i2c_probe_resets_out_of_bootloader(void **state)
{
	struct emub *eb = board_i2c("rmi4.build_id = 0\n", false);

	(void)state;
	assert_true(emub_dev_bound(eb, DEV));
	assert_int_equal(mode(eb), RMI4_MODEL_BL);
	assert_functions(eb, "fn01 fn34");
	image("new2.img", 0x1e0f02, 0x1a2b3c4d, RMI4_IMG_GOOD);
	assert_int_equal(update_fw(eb, "new2.img"), 0);
	assert_int_equal(stats(eb).bl_entries, 0);
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	assert_attr(eb, "firmware_id", "1969922");
	assert_functions(eb, "fn01 fn11 fn34");
	emub_free(eb);
}

/*
 * F34 v5 (rmi4.bootloader = 5; function version 0): rmi_f34's probe and
 * attributes (bootloader_id the two id bytes as characters, the config id
 * "%02x" x 4), update_fw as rmi_firmware_update does it for v5: flash
 * programming enabled, the re-probe in the bootloader, erase all, the
 * firmware and config blocks one command each; rmi_smbus resets nothing,
 * a power cycle starts the new application.
 */
static void test_v5_binds_and_updates(void **state)
{
	struct emub *eb = board("rmi4.bootloader = 5\n", true);
	struct rmi4_model_stats s;

	(void)state;
	assert_true(emub_dev_bound(eb, DEV));
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	assert_attr(eb, "bootloader_id", "05");
	assert_attr(eb, "configuration_id", "1a2b3c4d");
	assert_attr(eb, "firmware_id", "1969920");
	assert_functions(eb, "fn01 fn11 fn34");
	assert_true(has_input(eb));
	image_v5("v5.img", 0x1e0f05, 0x0a0b0c0d);
	assert_int_equal(update_fw(eb, "v5.img"), 0);
	s = stats(eb);
	assert_int_equal(s.bl_entries, 1);
	assert_int_equal(s.erases, 1);
	assert_int_equal(s.blocks_written,
			 RMI4_MODEL_V5_FW_BLOCKS + RMI4_MODEL_V5_CONFIG_BLOCKS);
	assert_int_equal(s.cmd_errors, 0);
	assert_int_equal(mode(eb), RMI4_MODEL_BL);
	assert_functions(eb, "fn01 fn34");
	assert_attr(eb, "update_fw_status", "0");
	assert_attr(eb, "bootloader_id", "05");
	rebind(eb);
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	assert_attr(eb, "firmware_id", "1969925");
	assert_attr(eb, "configuration_id", "0a0b0c0d");
	assert_functions(eb, "fn01 fn11 fn34");
	emub_free(eb);

	/* from the bootloader: F01 status bit 6 says so (F34 v5 has no
	 * bootloader bit rmi_core reads) */
	eb = board("rmi4.bootloader = 5\nrmi4.build_id = 0\n", true);
	assert_true(emub_dev_bound(eb, DEV));
	assert_int_equal(mode(eb), RMI4_MODEL_BL);
	assert_functions(eb, "fn01 fn34");
	assert_attr(eb, "bootloader_id", "05");
	assert_int_equal(update_fw(eb, "v5.img"), 0);
	assert_int_equal(stats(eb).bl_entries, 0);
	rebind(eb);
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	assert_attr(eb, "firmware_id", "1969925");
	emub_free(eb);
}

/*
 * The wrong image for the bootloader: rmi_f34v7 refuses a v5 file before
 * anything is sent ("Unsupported image file format", -EINVAL); rmi_f34's
 * v5 path enables flash programming before it reads the file, so a v10
 * file (its sizes at 8 and 12 not the chip's) is refused in the
 * bootloader: nothing erased, the write returns the re-probe's success,
 * the chip left in its bootloader until a reset.
 */
static void test_v5_and_v7_images_crossed(void **state)
{
	struct emub *eb = board("", true);

	(void)state;
	image_v5("v5.img", 0x1e0f05, 0x0a0b0c0d);
	image("v7.img", 0x1e0f06, 0x0a0b0c0e, RMI4_IMG_GOOD);
	assert_int_equal(update_fw(eb, "v5.img"), -EINVAL);
	assert_int_equal(stats(eb).bl_entries, 0);
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	emub_free(eb);

	eb = board("rmi4.bootloader = 5\n", true);
	assert_int_equal(update_fw(eb, "v7.img"), 0);
	assert_int_equal(stats(eb).bl_entries, 1);
	assert_int_equal(stats(eb).erases, 0);
	assert_int_equal(stats(eb).blocks_written, 0);
	assert_int_equal(mode(eb), RMI4_MODEL_BL);
	assert_attr(eb, "update_fw_status", "0");
	rebind(eb);
	assert_int_equal(mode(eb), RMI4_MODEL_APP);
	assert_attr(eb, "firmware_id", "1969920");
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
		cmocka_unit_test(test_no_bind_without_host_notify),
		cmocka_unit_test(test_binds_in_application_mode),
		cmocka_unit_test(test_binds_in_application_mode_with_f12),
		cmocka_unit_test(test_binds_in_bootloader_mode),
		cmocka_unit_test(test_update_good_image),
		cmocka_unit_test(test_broken_images),
		cmocka_unit_test(test_power_loss_mid_flash),
		cmocka_unit_test(test_i2c_binds_and_updates),
		cmocka_unit_test(test_i2c_probe_resets_out_of_bootloader),
		cmocka_unit_test(test_v5_binds_and_updates),
		cmocka_unit_test(test_v5_and_v7_images_crossed),
	};

	(void)argc;
	tu_init(argv);
	return cmocka_run_group_tests(tests, setup, teardown);
}
