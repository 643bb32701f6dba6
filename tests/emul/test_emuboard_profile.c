// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Boards made from touchfw board profiles (host/profile.c, emuboard
 * --profile): the board text of the built example profiles -- identity
 * (compatible, or DMI strings from dmi-match globs), adapters by name or
 * device-tree path,
 * lines by offset and by name, an interrupt line where the profile names
 * none, each family's model keys, --hardware, --fw-version and
 * --bootloader -- boards that start, and what can not be modelled named
 * by node and property.
 */
#include "emub-testutil.h"

static char *dtb(const char *name)
{
	const char *b = getenv("TOUCHFW_BUILD");

	return g_strdup_printf("%s/boards/examples/%s.dtb", b && *b ? b : "build", name);
}

static char *board_of(const char *name, const struct emub_profile_opts *o, char *err,
		      size_t errsz)
{
	static const struct emub_profile_opts none = { 0 };
	char *path = dtb(name), *text;

	text = emub_board_from_profile(path, o ? o : &none, err, errsz);
	g_free(path);
	return text;
}

static void test_examples_make_boards_that_start(void **state)
{
	static const char *const names[] = {
		"emul-demo",   "emul-always-on",     "emul-1664s",  "emul-gt911",
		"emul-gt1151", "emul-silead-tablet", "emul-elants", "emul-elan-laptop",
	};
	char err[512];

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
		char *text = board_of(names[i], NULL, err, sizeof(err));
		struct emub *eb;

		if (!text)
			fail_msg("%s: %s", names[i], err);
		eb = tu_board_text(text);
		assert_int_equal(emub_oops_count(eb), 0);
		emub_free(eb);
		g_free(text);
	}
}

static void test_the_demo_board(void **state)
{
	char err[512], *t = board_of("emul-demo", NULL, err, sizeof(err));

	(void)state;
	assert_non_null(t);
	assert_contains(t, "compatible = touchfw,emul-demo\n");
	assert_contains(
		t, "[chip touchscreen]\nadapter = 1\naddress = 0x4a\n"
		   "driver = atmel_mxt_ts\npower = driver\nreset_gpio = 0\nchg_gpio = 1\n");
	assert_contains(t, "model = mxt224e\ncompatible = atmel,maxtouch\nirq_type = level\n"
			   "state = app\nfw_version = 1.0.AA\n");
	assert_contains(t, "[adapter 1]\nname = touchfw emulated adapter 1\n");
	assert_contains(t, "[gpiochip]\nlabel = emuboard-gpio\nlines = 2\n");
	g_free(t);
}

/* ACPI: DMI strings from the globs, the driver's ACPI id, a line by its
 * name, an interrupt line of its own. */
static void test_an_acpi_laptop(void **state)
{
	char err[512], *t = board_of("contoso-book-14", NULL, err, sizeof(err));

	(void)state;
	assert_non_null(t);
	assert_contains(t, "dmi.sys_vendor = Contoso\n");
	assert_contains(t, "dmi.product_name = Book 14\n"); /* "Book 14*" */
	assert_contains(t, "dmi.board_name = CB14-MB\n");
	assert_contains(t, "acpi_id = ATML0000\n");
	assert_contains(t, "reset_gpio = 0\n");
	assert_contains(t, "chg_gpio = 1\n");
	assert_contains(t, "line.0 = TS_RST_N\n");
	assert_contains(t, "line.1 = touchscreen irq (not in the profile)\n");
	assert_false(tu_contains(t, "compatible = "));
	g_free(t);
}

/* An adapter by device-tree path, lines past 32 on another chip label;
 * the board's tree has the adapter there, and the chip under it. */
static void test_an_adapter_by_path(void **state)
{
	char err[512], *t = board_of("acme-tablet-7", NULL, err, sizeof(err)), *out = NULL;
	struct emub *eb;

	(void)state;
	assert_non_null(t);
	assert_contains(t, "[adapter 1]\nof_path = /soc/i2c@7000c400\n");
	assert_contains(t, "[gpiochip]\nlabel = tegra-gpio\nlines = 148\n");
	assert_contains(t, "reset_gpio = 146\nchg_gpio = 147\n");
	eb = tu_board_text(t);
	assert_int_equal(tu_sh(eb, &out,
			       "readlink /sys/bus/i2c/devices/i2c-1/of_node; "
			       "cat /sys/bus/i2c/devices/1-004a/uevent"),
			 0);
	assert_contains(out, "firmware/devicetree/base/soc/i2c@7000c400\n");
	assert_contains(out, "OF_FULLNAME=/soc/i2c@7000c400/touchscreen@4a\n");
	g_free(out);
	emub_free(eb);
	g_free(t);
}

static void test_part_and_state_options(void **state)
{
	const char *hw[] = { "touchscreen@4a=162.6" },
		   *fw[] = { "/controllers/touchscreen@4a=2.0.AA" };
	struct emub_profile_opts o = { .hardware = hw,
				       .n_hardware = 1,
				       .fw_version = fw,
				       .n_fw_version = 1,
				       .bootloader = true,
				       .firmware_dir = "/x/fw" };
	char err[512], *t = board_of("emul-demo", &o, err, sizeof(err));

	(void)state;
	assert_non_null(t);
	assert_contains(t, "firmware_dirs = /x/fw\n");
	assert_contains(t, "model = mxt1664s\n");
	assert_contains(t, "state = no-image\n");
	assert_contains(t, "fw_version = 2.0.AA\n");
	g_free(t);
	t = board_of("emul-elan-laptop", &(struct emub_profile_opts){ .bootloader = true }, err,
		     sizeof(err));
	assert_non_null(t);
	assert_contains(t, "elants.flash = corrupt\n");
	assert_contains(t, "elantp.fw_version = 0\n");
	g_free(t);
	t = board_of("emul-gt911",
		     &(struct emub_profile_opts){
			     .fw_version = (const char *[]){ "touchscreen@5d=0x1060" },
			     .n_fw_version = 1 },
		     err, sizeof(err));
	assert_non_null(t);
	assert_contains(
		t, "compatible = goodix,gt911\ngoodix.id = 911\ngoodix.fw_version = 0x1060\n");
	g_free(t);
}

static void test_what_can_not_be_modelled_is_named(void **state)
{
	const char *hw[] = { "touchscreen@4a=129.9" }, *nohw[] = { "ts@1=129.1" };
	char err[512];

	(void)state;
	assert_null(board_of("acme-phone-berlin", NULL, err, sizeof(err)));
	assert_contains(err, "/controllers/touchscreen@0: family: \"berlin\": the emulator's "
			     "models of this family can not be made from a profile");
	assert_null(board_of("emul-demo",
			     &(struct emub_profile_opts){ .hardware = hw, .n_hardware = 1 },
			     err, sizeof(err)));
	assert_contains(err, "/controllers/touchscreen@4a: hardware: mxt \"129.9\"");
	assert_null(board_of("emul-demo",
			     &(struct emub_profile_opts){ .hardware = nohw, .n_hardware = 1 },
			     err, sizeof(err)));
	assert_contains(err, "--hardware ts@1=129.1: no controller node of that name");
	assert_null(board_of("no-such-profile", NULL, err, sizeof(err)));
	assert_contains(err, "no-such-profile.dtb");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_examples_make_boards_that_start),
		cmocka_unit_test(test_the_demo_board),
		cmocka_unit_test(test_an_acpi_laptop),
		cmocka_unit_test(test_an_adapter_by_path),
		cmocka_unit_test(test_part_and_state_options),
		cmocka_unit_test(test_what_can_not_be_modelled_is_named),
	};

	tu_init(argv);
	(void)argc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
