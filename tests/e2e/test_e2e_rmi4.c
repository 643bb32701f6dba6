// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end on an emulated Synaptics RMI4 touchpad on SMBus: the real
 * touchfw binaries inside an emulated board, judged by the chip model
 * (tests/emul/family/rmi4/model/rmi4_model.c) and the model of rmi_smbus +
 * rmi_core (tests/emul/family/rmi4/drv_rmi_smbus.c), written apart from
 * the agent.  touchfw stages the image, writes its name to rmi4-NN's
 * update_fw, resets the chip out of the bootloader rmi_smbus leaves it in
 * (F01's reset over SMBus with the driver let go), binds rmi4_smbus again
 * and checks the new build id.
 */
#include "emub-rmi4.h"
#include "e2e.h"

#include "exitcode.h"
#include "rmi4_model.h"

#define DEV "1-002c"

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

/* The touchpad at 0x2c on an SMBus adapter with Host Notify, @extra chip
 * keys. */
static void start(const char *extra)
{
	char *b = NULL;

	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e RMI4 touchpad board\n"
			     "compatible = touchfw,emul-rmi4\n"
			     "pacing = fast\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "host_notify = true\n"
			     "[chip touchpad]\n"
			     "adapter = 1\n"
			     "address = 0x2c\n"
			     "model = rmi4\n"
			     "compatible = synaptics,rmi4_smbus\n"
			     "driver = rmi4_smbus\n"
			     "power = always-on\n"
			     "%s",
			     extra ? extra : "") > 0);
	e2e_start(&E, b);
	free(b);
	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 10000), 0);
}

struct chip {
	enum rmi4_model_mode mode;
	unsigned build;
	struct rmi4_model_stats stats;
};

static struct chip chip(void)
{
	struct rmi4_model *m;
	struct chip c;

	assert_int_equal(emub_wait_idle(E.eb, "touchpad", 20000), 0);
	emub_lock(E.eb);
	m = emub_chip_rmi4(E.eb, "touchpad");
	assert_non_null(m);
	c.mode = rmi4_model_mode(m);
	c.build = rmi4_model_build_id(m);
	c.stats = *rmi4_model_stats(m);
	emub_unlock(E.eb);
	return c;
}

static void test_older_build_is_flashed_reset_and_rebound(void **state)
{
	struct chip c;
	long long t0;

	(void)state;
	start(NULL);
	assert_int_equal(chip().build, 0x1e0f00);
	t0 = e2e_now_ms();
	expect_rc(0, "run", DEV);
	fprintf(stderr, "rmi4 e2e: run to verified input device: %lld ms\n", e2e_now_ms() - t0);
	e2e_said(&E, "update_fw");
	e2e_said(&E, "the chip runs its application after update_fw");
	e2e_said(&E, "1970960");
	c = chip();
	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, 1970960);
	assert_true(c.stats.blocks_written > 0);
	assert_true(emub_dev_bound(E.eb, "touchpad"));
	expect_rc(0, "run", DEV);
	e2e_said(&E, "running 1970960");
}

static void test_chip_in_bootloader_is_brought_back(void **state)
{
	struct chip c;

	(void)state;
	start("rmi4.build_id = 0\n");
	assert_int_equal(chip().mode, RMI4_MODEL_BL);
	expect_rc(0, "run", DEV);
	c = chip();
	assert_int_equal(c.mode, RMI4_MODEL_APP);
	assert_int_equal(c.build, 1970960);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_older_build_is_flashed_reset_and_rebound,
					  teardown),
		cmocka_unit_test_teardown(test_chip_in_bootloader_is_brought_back, teardown),
	};

	e2e_test_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
