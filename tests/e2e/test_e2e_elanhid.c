// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end on an emulated Elan touchpad behind i2c-hid: the real touchfw
 * binaries inside an emulated board, judged by the chip model
 * (tests/emul/family/elanhid/model/elanhid_model.c) and the emulated
 * i2c_hid_of driver with hid-multitouch on top (drv_i2c_hid.c).  A part
 * left in IAP answers a HID descriptor of all 0xFF, i2c_hid's probe refuses
 * it and no driver binds; touchfw identifies it as an Elan IAP, recovers it
 * over i2c-dev where the board profile allows it, binds i2c_hid_of and
 * checks the descriptor, the input device and the version.  Refusals: a
 * zero-filled EEPROM and a part answering all 0xFF where the touchpad would
 * be (nothing written); a working part is left to its driver.
 */
#include <sys/stat.h>

#include "emub-elanhid.h"
#include "e2e.h"

#include "eeprom_model.h"
#include "elanhid_model.h"
#include "emub-eeprom.h"
#include "exitcode.h"

#define DEV "1-0015"
#define FIRST_PAGE 496

static struct e2e E;

#define expect_rc(want, ...)                                                                  \
	do {                                                                                  \
		int rc_ = e2e_touchfw(&E, __VA_ARGS__);                                       \
		if (rc_ != (want))                                                            \
			fprintf(stderr, "exit %d, expected %d; touchfw said:\n%s\n%s\n", rc_, \
				(int)(want), E.out ? E.out : "", E.err ? E.err : "");         \
		assert_int_equal(rc_, (want));                                                \
	} while (0)

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

/* The touchpad at 0x15 (hid-over-i2c, i2c_hid_of) with firmware @fw (0:
 * left in IAP), powered by the platform; @he_args not NULL: every uevent
 * runs handle-event (udev's RUN). */
static void start(unsigned fw, const char *he_args)
{
	char *b = NULL;

	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e Elan HID touchpad board\n"
			     "compatible = touchfw,emul-elanhid-iap\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "speed = 400000\n"
			     "[chip touchpad]\n"
			     "adapter = 1\n"
			     "address = 0x15\n"
			     "model = elanhid\n"
			     "compatible = hid-over-i2c\n"
			     "driver = i2c_hid_of\n"
			     "elanhid.module_id = 241\n"
			     "elanhid.fw_version = %u\n"
			     "elanhid.iap_start = %d\n"
			     "power = always-on\n"
			     "int_gpio = 1\n"
			     "[gpiochip]\n"
			     "label = emuboard-gpio\n"
			     "lines = 8\n"
			     "line.0 = TP_RESET\n"
			     "line.1 = TP_INT\n",
			     fw, FIRST_PAGE) > 0);
	e2e_start_ex(&E, b, he_args);
	free(b);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 10000), 0);
}

struct chip {
	enum elanhid_model_mode mode;
	unsigned fw;
	struct elanhid_model_stats stats;
};

static struct chip chip(void)
{
	struct elanhid_model *m;
	struct chip c;

	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 20000), 0);
	emub_lock(E.eb);
	m = emub_chip_elanhid(E.eb, "touchpad");
	assert_non_null(m);
	c.mode = elanhid_model_mode(m);
	c.fw = elanhid_model_fw_version(m);
	c.stats = *elanhid_model_stats(m);
	emub_unlock(E.eb);
	return c;
}

/* Recovered: the application runs 6.0, i2c_hid_of is bound with
 * hid-multitouch's input device, and a touch reaches the driver. */
static void assert_recovered(void)
{
	struct chip c = chip();
	char node[64];
	unsigned before;

	assert_int_equal(c.mode, ELANHID_MODEL_MAIN);
	assert_int_equal(c.fw, 6);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	assert_int_equal(emub_input_node(E.eb, "touchpad", node, sizeof(node)), 0);
	assert_int_equal(c.stats.pages_written, 512 - FIRST_PAGE);
	before = c.stats.reports_read;
	assert_int_equal(emub_elanhid_touch(E.eb, "touchpad", 0, 1000, 800, true), 0);
	e2e_wait_until(chip().stats.reports_read == before + 1, 0, 20000,
		       "the driver to read the touch report");
}

static void test_bricked_touchpad_is_recovered_and_i2c_hid_binds(void **state)
{
	char *json;

	(void)state;
	start(0, NULL);
	assert_int_equal(chip().mode, ELANHID_MODEL_IAP);
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", "--dry-run", DEV);
	e2e_said(&E, "Elan IAP at 0x15");
	assert_int_equal(chip().stats.pages_written, 0);
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "Elan IAP at 0x15 (control 0x0000): module 241, ic type 0x10, IAP "
		     "version 1, 128-byte pages; HID descriptor at 0x0001: length 65535, "
		     "version 0xffff");
	e2e_said(&E, "flashing elanhid-241-fw-6.0 (6.0) at bootloader address 0x15");
	e2e_said(&E, "binding i2c_hid_of");
	e2e_said(&E, "verified: firmware (bootloader) -> 6.0");
	assert_recovered();
	json = e2e_state_file(&E, DEV ".json");
	assert_non_null(json);
	assert_non_null(strstr(json, "\"version_after\":\"6.0\""));
	free(json);
	/* i2c_hid runs it now: the next run finds it up to date */
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "6.0");
	assert_int_equal(chip().stats.pages_written, 512 - FIRST_PAGE);
}

/* At boot: the kernel adds the client, i2c_hid's probe refuses the
 * descriptor (no bind), and udev's add runs handle-event, which hands it
 * to a run that recovers it.  Says how long from the add to a verified
 * input device. */
static void test_add_of_a_bricked_touchpad_starts_its_recovery(void **state)
{
	char path[400], *log = NULL, *json;
	size_t n;
	long long t0;

	(void)state;
	start(0, "");
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	t0 = e2e_now_ms();
	assert_int_equal(emub_replug(E.eb, "touchpad"), 0);
	e2e_wait_run_done(&E, DEV);
	fprintf(stderr, "# add -> verified input: %lld ms (emulated, fast pacing)\n",
		e2e_now_ms() - t0);
	snprintf(path, sizeof(path), "%s/he.log", E.dir);
	assert_int_equal(tf_read_file(path, 1 << 20, &log, &n), 0);
	e2e_keep(&E, log);
	if (!emub_dev_bound(E.eb, "touchpad"))
		fail_msg("not recovered; handle-event said:\n%s", log);
	assert_non_null(strstr(log, "add (driver none yet): handed to"));
	assert_recovered();
	/* the run saw hid-multitouch's input device (below the hid device) */
	json = e2e_state_file(&E, DEV ".json");
	assert_non_null(json);
	if (!strstr(json, "\"result\":\"ok\""))
		fail_msg("the run did not verify; its result: %s", json);
	free(json);
}

/* A working part (i2c_hid bound, firmware 5 where the database has 6.0):
 * its application is not touchfw's to replace; nothing is written. */
static void test_working_part_is_left_to_its_driver(void **state)
{
	(void)state;
	start(5, NULL);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "the elanhid family only recovers a chip left in its bootloader");
	e2e_said(&E, "left as it is");
	assert_int_equal(chip().stats.pages_written, 0);
	assert_int_equal(chip().fw, 5);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
}

/* ------------------------------------------------ an ACPI machine */

/*
 * An ACPI laptop whose touchpad (_HID PNP0C50, i2c_hid_acpi) answers its
 * HID descriptor at 0x0020, which i2c_hid takes from _DSM -- not readable
 * from user space -- and the profile gives as hid-descr-addr: the
 * recovery reads and checks the descriptor there, and i2c_hid_acpi binds.
 */
static void test_acpi_touchpad_with_the_profiles_descriptor_register(void **state)
{
	static const char dts[] =
		"/dts-v1/;\n/ {\n touchfw,profile-version = <1>;\n"
		" model = \"touchfw e2e ACPI laptop\";\n"
		" board-ids = \"touchfw,emul-elanhid\";\n"
		" dmi-match { sys-vendor = \"touchfw\"; product-name = \"Emulated HID laptop\"; };\n"
		" controllers {\n  #address-cells = <1>;\n  #size-cells = <0>;\n"
		"  touchpad@15 {\n   family = \"elanhid\";\n   bus = \"i2c\";\n"
		"   adapter-name = \"touchfw emulated adapter 1\";\n   reg = <0x15>;\n"
		"   driver = \"i2c_hid_acpi\";\n   power = \"always-on\";\n"
		"   allow-bus-recovery;\n   hid-descr-addr = <0x20>;\n  };\n };\n};\n";
	char path[400], cmd[1200], *b = NULL;

	(void)state;
	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e ACPI laptop with an Elan HID touchpad\n"
			     "dmi.sys_vendor = touchfw\n"
			     "dmi.product_name = Emulated HID laptop\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "speed = 400000\n"
			     "[chip touchpad]\n"
			     "adapter = 1\n"
			     "address = 0x15\n"
			     "model = elanhid\n"
			     "acpi_id = PNP0C50\n"
			     "driver = i2c_hid_acpi\n"
			     "elanhid.module_id = 241\n"
			     "elanhid.fw_version = 0\n"
			     "elanhid.iap_start = %d\n"
			     "elanhid.desc_reg = 0x20\n"
			     "power = always-on\n"
			     "int_gpio = 1\n"
			     "[gpiochip]\n"
			     "lines = 8\n",
			     FIRST_PAGE) > 0);
	e2e_prepare(&E, b, NULL);
	free(b);
	snprintf(path, sizeof(path), "%s/acpi-laptop.dts", E.dir);
	e2e_write(path, dts);
	snprintf(E.boards, sizeof(E.boards), "%s/boards", E.dir);
	assert_int_equal(mkdir(E.boards, 0755), 0);
	snprintf(cmd, sizeof(cmd), "dtc -q -I dts -O dtb -o '%s/acpi-laptop.dtb' '%s'",
		 E.boards, path);
	assert_int_equal(system(cmd), 0);
	e2e_settings(&E, NULL);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 10000), 0);
	assert_false(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(TF_EXIT_OK, "run", "i2c-PNP0C50:00");
	e2e_said(&E, "HID descriptor at 0x0020: length 65535");
	e2e_said(&E, "binding i2c_hid_acpi");
	e2e_said(&E, "verified: firmware (bootloader) -> 6.0");
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	assert_int_equal(chip().fw, 6);
}

/* ------------------------------------------------ not an Elan touchpad */

/* A 24C02 filled with @fill at 0x15, where the board's profile allows the
 * recovery of a touchpad; every bus transfer goes to E.dir/emuboard.log. */
static void start_eeprom(unsigned fill)
{
	char *b = NULL;

	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e board with an EEPROM where the touchpad "
			     "would be\n"
			     "compatible = touchfw,emul-elanhid-iap\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "speed = 400000\n"
			     "[chip touchpad]\n"
			     "adapter = 1\n"
			     "address = 0x15\n"
			     "model = eeprom\n"
			     "compatible = hid-over-i2c\n"
			     "power = always-on\n"
			     "eeprom.fill = 0x%02x\n",
			     fill) > 0);
	e2e_prepare(&E, b, NULL);
	free(b);
	e2e_trace_on(&E);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 10000), 0);
}

static void assert_eeprom_untouched(unsigned fill)
{
	struct eeprom_model *m;
	unsigned i;

	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 20000), 0);
	emub_lock(E.eb);
	m = emub_chip_eeprom(E.eb, "touchpad");
	assert_non_null(m);
	assert_int_equal(eeprom_model_stats(m)->bytes_written, 0);
	for (i = 0; i < 256; i++)
		if (eeprom_model_peek(m, (em_u16)i) != fill)
			break;
	emub_unlock(E.eb);
	assert_int_equal(i, 256);
}

/* A zeroed EEPROM answers 0 everywhere: "IAP control without main mode",
 * which a check of the password alone might take for a touchpad in IAP;
 * the echoes Elan's IAP gives are missing, so it is refused untouched. */
static void test_zeroed_eeprom_is_not_taken_for_a_bricked_touchpad(void **state)
{
	(void)state;
	start_eeprom(0x00);
	expect_rc(TF_EXIT_UNSUPPORTED, "run", DEV);
	e2e_said(&E, "is not identified as an Elan touchpad in IAP");
	e2e_said(&E, "not touched");
	assert_eeprom_untouched(0x00);
}

/* A part answering all 0xFF (an unknown HID part whose descriptor is as
 * broken as a bricked Elan's): reported, nothing written. */
static void test_unknown_part_is_reported_and_left(void **state)
{
	(void)state;
	start_eeprom(0xff);
	expect_rc(TF_EXIT_UNSUPPORTED, "run", DEV);
	e2e_said(&E, "is not a known part");
	e2e_said(&E, "not touched");
	assert_eeprom_untouched(0xff);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_bricked_touchpad_is_recovered_and_i2c_hid_binds,
					  teardown),
		cmocka_unit_test_teardown(test_add_of_a_bricked_touchpad_starts_its_recovery,
					  teardown),
		cmocka_unit_test_teardown(test_working_part_is_left_to_its_driver, teardown),
		cmocka_unit_test_teardown(
			test_acpi_touchpad_with_the_profiles_descriptor_register, teardown),
		cmocka_unit_test_teardown(
			test_zeroed_eeprom_is_not_taken_for_a_bricked_touchpad, teardown),
		cmocka_unit_test_teardown(test_unknown_part_is_reported_and_left, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
