// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Board files and the static sysfs the emulator builds from them: every
 * shipped board parses and starts; mistakes are refused with the section
 * and key named; the flattened device tree at /sys/firmware/fdt (read back
 * with libfdt) and its unflattened view, DMI strings, the i2c bus layout
 * (bus devices, i2c-dev class devices, driver directories) and the
 * firmware_class.path parameter look as on a real kernel.
 */
#include <fcntl.h>
#include <libfdt.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emub-testutil.h"

static void test_every_shipped_board_starts(void **state)
{
	char *dir = g_build_filename(tu_top(), "tests/emul/boards", NULL);
	GDir *d = g_dir_open(dir, 0, NULL);
	const char *n;
	int count = 0;

	(void)state;
	assert_non_null(d);
	while ((n = g_dir_read_name(d))) {
		struct emub *eb;

		if (!g_str_has_suffix(n, ".board"))
			continue;
		eb = tu_board_file(n, false);
		assert_int_equal(emub_oops_count(eb), 0);
		emub_free(eb);
		count++;
	}
	g_dir_close(d);
	g_free(dir);
	assert_true(count >= 7);
}

static void expect_error(const char *text, const char *msg)
{
	struct emub *eb = NULL;
	char err[512] = "";

	assert_int_equal(emub_new_from_string(text, ".", &eb, err, sizeof(err)), -EINVAL);
	assert_null(eb);
	assert_contains(err, msg);
}

#define B "[board]\nname = b\ncompatible = t,b\n"
#define A "[adapter 1]\n"
#define C "[chip ts]\nadapter = 1\naddress = 0x4a\nmodel = mxt224e\n"

static void test_board_mistakes_are_named(void **state)
{
	(void)state;
	expect_error("[board]\ncompatible = x\n" A, "[board] name: missing");
	expect_error(B "colour = red\n" A, "[board]: unknown key \"colour\"");
	expect_error(B, "no [adapter N] or [spi N] section");
	expect_error(B A "speed = fast\n", "[adapter 1] speed: \"fast\"");
	expect_error(B A C "adress = 0x4b\n", "[chip ts]: unknown key \"adress\"");
	expect_error(B A "[chip ts]\nadapter = 1\naddress = 0x80\nmodel = eeprom\n",
		     "[chip ts] address: \"0x80\"");
	expect_error(B A "[chip ts]\nadapter = 2\naddress = 0x4a\nmodel = eeprom\n",
		     "[chip ts] adapter: no [adapter 2]");
	expect_error(B A C "model = mxt9999\n", "model: \"mxt9999\"");
	expect_error(B A C "driver = goodix\n", "no model of kernel driver \"goodix\"");
	expect_error(B A C "bound = true\n", "bound: true needs a driver");
	expect_error(B A C "state = sleeping\n", "[chip ts] state");
	expect_error(B A C "fw_version = 1.0\n", "[chip ts] fw_version");
	expect_error(B A C "reset_gpio = 1\nchg_gpio = 1\n", "same line");
	expect_error(B A C "chg_gpio = 9\n", "beyond [gpiochip] lines = 8");
	expect_error(B A C "[chip ee]\nadapter = 1\naddress = 0x4a\nmodel = eeprom\n",
		     "0x4a is taken by [chip ts]");
	expect_error(B A
		     "[chip ee]\nadapter = 1\naddress = 0x50\nmodel = eeprom\nreset_gpio = 0\n",
		     "an eeprom has no reset or CHG pin");
	expect_error(B A "[widget x]\n", "[widget x]: unknown section");
	expect_error("[board]\nname = b\n" A, "needs compatible (device tree) or dmi.* keys");
}

static void test_device_tree_blob_and_view(void **state)
{
	struct emub *eb = tu_board_file("demo.board", false);
	char *path = g_build_filename(emub_root(eb), "sys/firmware/fdt", NULL), *blob = NULL;
	const char *v;
	gsize len;
	int node, plen;

	(void)state;
	assert_true(g_file_get_contents(path, &blob, &len, NULL));
	assert_int_equal(fdt_check_header(blob), 0);
	assert_int_equal(fdt_totalsize(blob), len);
	v = fdt_getprop(blob, 0, "compatible", &plen);
	assert_non_null(v);
	assert_string_equal(v, "touchfw,emul-demo");
	node = fdt_path_offset(blob, "/i2c@1/touchscreen@4a");
	assert_true(node >= 0);
	assert_string_equal(fdt_getprop(blob, node, "compatible", NULL), "atmel,maxtouch");
	assert_non_null(fdt_getprop(blob, node, "reset-gpios", &plen));
	assert_int_equal(plen, 12);
	g_free(blob);
	g_free(path);
	blob = tu_sys_read(eb, "firmware/devicetree/base/compatible");
	assert_memory_equal(blob, "touchfw,emul-demo", 18);
	g_free(blob);
	/* the client's of_node is that node */
	blob = tu_sys_read(eb, "bus/i2c/devices/1-004a/of_node/compatible");
	assert_memory_equal(blob, "atmel,maxtouch", 15);
	g_free(blob);
	emub_free(eb);
}

static void test_i2c_bus_layout(void **state)
{
	struct emub *eb = tu_board_file("demo.board", false);
	char *out;

	(void)state;
	assert_int_equal(
		tu_sh(eb, &out,
		      "cd /sys/bus/i2c/devices && cat i2c-1/name 1-004a/name 1-004a/modalias && "
		      "readlink 1-004a/subsystem i2c-1/subsystem && "
		      "cat /sys/class/i2c-dev/i2c-1/dev && readlink /sys/class/i2c-dev/i2c-1 && "
		      "ls /sys/bus/i2c/drivers/atmel_mxt_ts && stat -c %%t:%%T /dev/i2c-1"),
		0);
	assert_string_equal(out, "touchfw emulated adapter 1\n"
				 "maxtouch\n"
				 "of:NtouchscreenT(null)Catmel,maxtouch\n"
				 "../../../../../bus/i2c\n"
				 "../../../../bus/i2c\n"
				 "89:1\n"
				 "../../devices/platform/emuboard-i2c.1/i2c-1/i2c-dev/i2c-1\n"
				 "1-004a\nbind\nuevent\nunbind\n"
				 "59:1\n");
	g_free(out);
	emub_free(eb);
}

static void test_dmi_strings(void **state)
{
	struct emub *eb = tu_board_file("smbus.board", false);
	char *out;

	(void)state;
	assert_int_equal(
		tu_sh(eb, &out,
		      "cat /sys/class/dmi/id/sys_vendor /sys/class/dmi/id/product_name"),
		0);
	assert_string_equal(out, "touchfw\nEmulated SMBus Board\n");
	g_free(out);
	/* an ACPI-style board has no flattened device tree */
	out = tu_sys_read(eb, "firmware/fdt");
	assert_null(out);
	emub_free(eb);
}

/*
 * Two writers, one after the other, as touchfw's unstage and next stage
 * are: the service thread handles the first close while the second writer
 * has truncated the file (O_TRUNC, as `echo > path` and touchfw open it)
 * and is about to write.  The lock held here keeps the service thread
 * between its read of the file and its handling of what it read until the
 * second write is in the file.  Writing the old value back over the file
 * then wiped the second write: firmware_class.path stayed empty and the
 * driver's next request found nothing (test_e2e_mxt under load).
 */
/* Wait (bounded) until the service thread has read @read values of
 * firmware_class.path and handled @handled of them. */
static bool fw_path_progress(struct emub *eb, int read, int handled)
{
	gint64 end = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;
	int r, h;

	for (;;) {
		emub_fw_path_progress(eb, &r, &h);
		if (r >= read && h >= handled)
			return true;
		if (g_get_monotonic_time() > end)
			return false;
		g_usleep(1000);
	}
}

static void test_firmware_path_write_during_the_handling_of_another_is_kept(void **state)
{
	static const char rel[] = "module/firmware_class/parameters/path";
	struct emub *eb = tu_board_file("app.board", false);
	char *p = g_build_filename(emub_root(eb), "sys", rel, NULL), *out;
	int fd;

	(void)state;
	/* The service thread takes the lock for other files too (the probe's
	 * attribute writes at start): with one of those queued ahead of "/a",
	 * holding the lock below kept it from ever reading "/a" (seen under
	 * ASan on a loaded machine).  Start from a board with nothing left. */
	assert_int_equal(emub_wait_board_idle(eb, 60000), 0);
	emub_settle(eb);
	emub_lock(eb);
	fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "/a", 2), 2);
	assert_int_equal(close(fd), 0);
	/* the service thread has read "/a" and waits for the lock */
	assert_true(fw_path_progress(eb, 1, 0));
	fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "/b", 2), 2);
	emub_unlock(eb);
	/* ... and handles the first close */
	assert_true(fw_path_progress(eb, 1, 1));
	assert_int_equal(close(fd), 0);
	emub_settle(eb);
	out = tu_sys_read(eb, rel);
	assert_string_equal(out, "/b\n");
	g_free(out);
	g_free(p);
	emub_free(eb);
}

static void test_firmware_path_parameter_keeps_the_newline(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	char *out;

	(void)state;
	assert_int_equal(tu_sh(eb, &out,
			       "echo /lib/fw > /sys/module/firmware_class/parameters/path"),
			 0);
	g_free(out);
	emub_settle(eb);
	assert_int_equal(tu_sh(eb, &out,
			       "od -c /sys/module/firmware_class/parameters/path | head -1"),
			 0);
	/* param_get_string adds "\n" to the stored "/lib/fw\n" */
	assert_contains(out, "/   l   i   b   /   f   w  \\n  \\n");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out,
			       "printf /lib/fw > /sys/module/firmware_class/parameters/path"),
			 0);
	g_free(out);
	emub_settle(eb);
	out = tu_sys_read(eb, "module/firmware_class/parameters/path");
	assert_string_equal(out, "/lib/fw\n");
	g_free(out);
	emub_free(eb);
}

static int child_reexec(int argc, char **argv)
{
	const char *p;

	emub_reexec_under_preload(argc, argv);
	p = getenv("LD_PRELOAD");
	printf("preload=%s\n", p ? p : "");
	fflush(stdout);
	return 0;
}

static void test_reexec_under_preload(void **state)
{
	char *argv[] = { tu_self, "--child", "reexec", NULL }, *out = NULL, *want;
	char **env = g_environ_unsetenv(g_get_environ(), "LD_PRELOAD");
	int st = 0;

	(void)state;
	env = g_environ_unsetenv(env, "EMUB_NO_REEXEC");
	assert_true(g_spawn_sync(NULL, argv, env, 0, NULL, NULL, &out, NULL, &st, NULL));
	assert_int_equal(st, 0);
	/* the board's shim first: its write() must see a driver attribute
	 * write before umockdev's, which calls libc's directly */
	want = g_strdup_printf("preload=%s:libumockdev-preload.so.0\n", emub_gpiod_preload());
	assert_string_equal(out, want);
	g_free(out);
	g_free(want);
	/* A sanitizer's runtime stays first (ld.so ignores this missing one). */
	env = g_environ_setenv(env, "LD_PRELOAD", "/nonexistent/libclang_rt.asan-x86_64.so",
			       TRUE);
	assert_true(g_spawn_sync(NULL, argv, env, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out,
				 NULL, &st, NULL));
	assert_int_equal(st, 0);
	want = g_strdup_printf("preload=/nonexistent/libclang_rt.asan-x86_64.so:%s:"
			       "libumockdev-preload.so.0\n",
			       emub_gpiod_preload());
	assert_string_equal(out, want);
	g_free(out);
	g_free(want);
	env = g_environ_unsetenv(env, "LD_PRELOAD");
	/* opted out */
	env = g_environ_setenv(env, "EMUB_NO_REEXEC", "1", TRUE);
	assert_true(g_spawn_sync(NULL, argv, env, 0, NULL, NULL, &out, NULL, &st, NULL));
	assert_string_equal(out, "preload=\n");
	g_free(out);
	g_strfreev(env);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_shipped_board_starts),
		cmocka_unit_test(test_board_mistakes_are_named),
		cmocka_unit_test(test_device_tree_blob_and_view),
		cmocka_unit_test(test_i2c_bus_layout),
		cmocka_unit_test(test_dmi_strings),
		cmocka_unit_test(test_firmware_path_parameter_keeps_the_newline),
		cmocka_unit_test(
			test_firmware_path_write_during_the_handling_of_another_is_kept),
		cmocka_unit_test(test_reexec_under_preload),
	};

	if (argc > 2 && !strcmp(argv[1], "--child") && !strcmp(argv[2], "reexec"))
		return child_reexec(argc, argv);
	tu_init(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
