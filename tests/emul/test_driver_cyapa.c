// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cyapa driver model against the Cypress Gen3 trackpad model: what
 * the real driver does at probe (launch the application from the
 * bootloader, power the pad off until used, register its input device;
 * "device detected but not operational" and no input device for a pad
 * left in its bootloader), its attributes, and update_fw: a good file
 * brings the new version and a new input device; files the driver
 * refuses (size, sums) never reach the chip; a power loss midway leaves
 * the pad in its bootloader, bound without input, and a second update
 * recovers it from there.
 */
#include <glib/gstdio.h>

#include "cyapa_model.h"
#include "emub-cyapa.h"
#include "emub-testutil.h"

#define DEV "touchpad"
#define SYS "/sys/bus/i2c/devices/1-0067"

/* cyapa reads a byte before it enables its vcc supply (cyapa_probe): a
 * pad whose supply the driver switches would never answer; boards have it
 * always on. */
static char *board(const char *fw_version, const char *more)
{
	return g_strdup_printf(
		"[board]\nname = cyapa test\ncompatible = touchfw,emul-cyapa\n"
		"pacing = fast\n"
		"[adapter 1]\nname = touchfw emulated adapter 1\nspeed = 400000\n"
		"[chip " DEV "]\nadapter = 1\naddress = 0x67\nmodel = cyapa\n"
		"compatible = cypress,cyapa\ndriver = cyapa\n"
		"cyapa.fw_version = %s\nint_gpio = 1\npower = always-on\n%s"
		"[gpiochip]\nlabel = emuboard-gpio\nlines = 8\nline.1 = TP_INT\n",
		fw_version, more ? more : "");
}

static struct emub *start(const char *fw_version, const char *more)
{
	char *text = board(fw_version, more);
	struct emub *eb = tu_board_text(text);

	g_free(text);
	assert_int_equal(emub_wait_idle(eb, DEV, 20000), 0);
	return eb;
}

static char *attr(struct emub *eb, const char *name)
{
	char *rel = g_strdup_printf("bus/i2c/devices/1-0067/%s", name),
	     *s = tu_sys_read(eb, rel);

	g_free(rel);
	assert_non_null(s);
	return s;
}

static void assert_attr(struct emub *eb, const char *name, const char *want)
{
	char *s = attr(eb, name);

	assert_string_equal(s, want);
	g_free(s);
}

static bool has_input(struct emub *eb)
{
	char node[64];

	return emub_input_node(eb, DEV, node, sizeof(node)) == 0;
}

static struct cyapa_model_stats stats(struct emub *eb)
{
	struct cyapa_model_stats s;

	emub_lock(eb);
	s = *cyapa_model_stats(emub_chip_cyapa(eb, DEV));
	emub_unlock(eb);
	return s;
}

static int chip_version(struct emub *eb, enum cyapa_model_mode *mode)
{
	struct cyapa_model *m;
	int v;

	emub_lock(eb);
	m = emub_chip_cyapa(eb, DEV);
	v = cyapa_model_fw_version(m);
	*mode = cyapa_model_mode(m);
	emub_unlock(eb);
	return v;
}

/* A firmware file of version 1.@minor in a fresh directory on the
 * firmware search path; @form breaks it as fwgen's --form does. */
static char *stage(struct emub *eb, const char *name, int minor, const char *form)
{
	guint8 *f = g_malloc(CYAPA_MODEL_FILE_SIZE);
	size_t len = CYAPA_MODEL_FILE_SIZE;
	char *dir = tu_tmpdir();

	cyapa_model_make_file(f, "CYTRA-116002-00", 1, (em_u8)minor);
	if (form && !strcmp(form, "bad-header"))
		f[1] ^= 1;
	else if (form && !strcmp(form, "bad-image"))
		f[len - 1] ^= 1;
	else if (form && !strcmp(form, "short"))
		len -= 64;
	tu_write_file(dir, name, f, len);
	tu_sys_write(eb, "module/firmware_class/parameters/path", dir);
	g_free(f);
	return dir;
}

/* Write @name to update_fw: the store's result (0 or -errno), which the
 * writer saw as the write's. */
static int update_fw(struct emub *eb, const char *name)
{
	char *out;
	int res = 1, before = emub_update_fw_count(eb, DEV);
	int st = tu_sh(eb, &out, "echo %s > " SYS "/update_fw 2>/dev/null", name);

	g_free(out);
	assert_int_equal(emub_update_fw_count_now(eb, DEV), before + 1);
	assert_int_equal(emub_update_fw_result(eb, DEV, &res), 0);
	assert_int_equal(st != 0, res != 0);
	return res;
}

static void test_binds_in_application_mode(void **state)
{
	struct emub *eb = start("1.0", NULL);
	enum cyapa_model_mode mode;
	struct cyapa_model *m;
	guint8 power;

	(void)state;
	assert_true(emub_dev_bound(eb, DEV));
	assert_true(has_input(eb));
	assert_attr(eb, "firmware_version", "1.0\n");
	assert_attr(eb, "product_id", "CYTRA-116002-00\n");
	assert_attr(eb, "mode", "gen3 operational\n");
	assert_int_equal(chip_version(eb, &mode), 0x0100);
	assert_int_equal(mode, CYAPA_MODEL_APP);
	/* launched once from the bootloader it booted in; then powered off
	 * until somebody opens the input device */
	assert_int_equal(stats(eb).launches, 1);
	emub_lock(eb);
	m = emub_chip_cyapa(eb, DEV);
	power = m->regs[0x29];
	emub_unlock(eb);
	assert_int_equal(power, 0x00);
	/* calibrate: full power, the recalibration command, polled until
	 * normal, off again */
	assert_int_equal(tu_sh(eb, NULL, "echo 1 > " SYS "/calibrate"), 0);
	assert_int_equal(stats(eb).calibrations, 1);
	emub_lock(eb);
	power = m->regs[0x29];
	emub_unlock(eb);
	assert_int_equal(power, 0x00);
	emub_free(eb);
}

static void test_binds_in_bootloader_without_input(void **state)
{
	struct emub *eb = start("none", NULL);
	enum cyapa_model_mode mode;
	char *out;

	(void)state;
	assert_true(emub_dev_bound(eb, DEV));
	assert_false(has_input(eb));
	assert_attr(eb, "mode", "gen3 bootloader idle\n");
	assert_attr(eb, "firmware_version", "0.0\n");
	assert_attr(eb, "product_id", "\n");
	assert_int_equal(chip_version(eb, &mode), -1);
	assert_int_equal(mode, CYAPA_MODEL_BL_IDLE);
	assert_int_equal(stats(eb).launch_refused, 1);
	/* calibrate is refused while in the bootloader (-EBUSY; the
	 * emulator's writer sees a failed write), the chip hears nothing */
	assert_int_not_equal(tu_sh(eb, &out, "echo 1 > " SYS "/calibrate"), 0);
	g_free(out);
	assert_int_equal(stats(eb).calibrations, 0);
	emub_free(eb);
}

static void test_update_fw_good_image(void **state)
{
	struct emub *eb = start("1.0", NULL);
	char *dir = stage(eb, "cyapa-1.2.bin", 2, NULL);
	enum cyapa_model_mode mode;
	struct cyapa_model_stats s;

	(void)state;
	assert_int_equal(update_fw(eb, "cyapa-1.2.bin"), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 20000), 0);
	assert_attr(eb, "firmware_version", "1.2\n");
	assert_attr(eb, "mode", "gen3 operational\n");
	assert_true(has_input(eb));
	assert_int_equal(chip_version(eb, &mode), 0x0102);
	assert_int_equal(mode, CYAPA_MODEL_APP);
	s = stats(eb);
	assert_int_equal(s.soft_resets, 1);
	assert_int_equal(s.initiates, 1);
	assert_int_equal(s.blocks_written, 482);
	assert_int_equal(s.block_errors, 0);
	assert_int_equal(s.terminates, 1);
	assert_int_equal(s.launches, 2);
	emub_free(eb);
	tu_rmdir(dir);
}

static void test_update_fw_refuses_broken_images(void **state)
{
	static const char *const forms[] = { "bad-header", "bad-image", "short" };
	struct emub *eb = start("1.0", NULL);
	enum cyapa_model_mode mode;

	(void)state;
	for (unsigned i = 0; i < G_N_ELEMENTS(forms); i++) {
		char *dir = stage(eb, "cyapa.bin", 2, forms[i]);

		assert_int_equal(update_fw(eb, "cyapa.bin"), -EINVAL);
		assert_int_equal(emub_wait_idle(eb, DEV, 20000), 0);
		tu_rmdir(dir);
	}
	/* a name that is not there: request_firmware's error */
	assert_int_equal(update_fw(eb, "missing.bin"), -ENOENT);
	assert_int_equal(emub_wait_idle(eb, DEV, 20000), 0);
	/* the chip never saw a command; the driver re-registered its input */
	assert_int_equal(stats(eb).soft_resets, 0);
	assert_int_equal(stats(eb).initiates, 0);
	assert_int_equal(chip_version(eb, &mode), 0x0100);
	assert_attr(eb, "firmware_version", "1.0\n");
	assert_true(has_input(eb));
	emub_free(eb);
}

static void test_power_loss_midway_leaves_bootloader(void **state)
{
	struct emub *eb = start("1.0", "fault.bl_power_loss = 100\n");
	char *dir = stage(eb, "cyapa-1.2.bin", 2, NULL);
	enum cyapa_model_mode mode;

	(void)state;
	/* block 100's status reads "bootloader idle, no error": -EIO */
	assert_int_equal(update_fw(eb, "cyapa-1.2.bin"), -EIO);
	assert_int_equal(emub_wait_idle(eb, DEV, 20000), 0);
	assert_int_equal(stats(eb).power_losses, 1);
	assert_int_equal(stats(eb).blocks_written, 99);
	assert_int_equal(chip_version(eb, &mode), -1);
	assert_int_equal(mode, CYAPA_MODEL_BL_IDLE);
	assert_true(emub_dev_bound(eb, DEV));
	assert_false(has_input(eb));
	assert_attr(eb, "mode", "gen3 bootloader idle\n");
	/* the driver keeps what it read last */
	assert_attr(eb, "firmware_version", "1.0\n");
	/* from the bootloader, the same file again */
	assert_int_equal(update_fw(eb, "cyapa-1.2.bin"), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 20000), 0);
	assert_int_equal(chip_version(eb, &mode), 0x0102);
	assert_attr(eb, "firmware_version", "1.2\n");
	assert_attr(eb, "mode", "gen3 operational\n");
	assert_true(has_input(eb));
	assert_int_equal(stats(eb).soft_resets, 1); /* the second one needed none */
	emub_free(eb);
	tu_rmdir(dir);
}

static void test_board_keys_checked(void **state)
{
	struct emub *eb = NULL;
	char err[512], *text = board("1.x", NULL);

	(void)state;
	assert_int_equal(emub_new_from_string(text, tu_top(), &eb, err, sizeof(err)), -EINVAL);
	assert_contains(err, "cyapa.fw_version: \"1.x\" is not MAJOR.MINOR or none");
	g_free(text);
	text = board("1.0", "cyapa.product_id = CYTRB-116002-00\n");
	assert_int_equal(emub_new_from_string(text, tu_top(), &eb, err, sizeof(err)), -EINVAL);
	assert_contains(err, "is not CYTRA-NNNNNN-NN");
	g_free(text);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binds_in_application_mode),
		cmocka_unit_test(test_binds_in_bootloader_without_input),
		cmocka_unit_test(test_update_fw_good_image),
		cmocka_unit_test(test_update_fw_refuses_broken_images),
		cmocka_unit_test(test_power_loss_midway_leaves_bootloader),
		cmocka_unit_test(test_board_keys_checked),
	};

	tu_init(argv);
	(void)argc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
