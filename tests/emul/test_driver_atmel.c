// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The atmel_mxt_ts driver model against the maXTouch model: what the real
 * driver does on bind and unbind (power, reset, bootloader recovery, probe
 * failures), its sysfs attributes and the modelled oops, update_fw (with
 * the firmware path's quirks), maxtouch.cfg, and every chip fault the
 * emulator offers with its documented outcome.  Also an independent
 * bootloader flasher made of plain write()s of at most 255 bytes (an
 * adapter's usual transfer limit), run inside the board as "--child flash", which flashes the
 * demo chip while its driver stays bound.
 */
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>

#include "emub-mxt.h"
#include "emub-testutil.h"
#include "mxt_image.h"
#include "mxt_model.h"

#define DEV "touchscreen"
#define SYSDEV "devices/platform/emuboard-i2c.1/i2c-1/1-004a"

/* ------------------------------------------------------------ flasher child */

static int bl_status(int fd, guint8 *s)
{
	for (int tries = 0; tries < 2000; tries++) {
		if (read(fd, s, 1) == 1)
			return 0;
		usleep(200);
	}
	return -1;
}

static int wait_status(int fd, guint8 want_mask, guint8 want, guint8 *last)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (unsigned int us = 50;; us = us < 5000 ? us * 2 : us) {
		if (bl_status(fd, last))
			return -1;
		if ((*last & want_mask) == want)
			return 0;
		if (*last == 0x03) /* FRAME_CRC_FAIL: the caller resends */
			return 1;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 5)
			return -1;
		usleep(us);
	}
}

/* flash ADAPTER BLADDR APPADDR FILE CHUNK: the bootloader protocol with plain write()s */
static int flash(char **a, char *path, char **fw);

static int child_flash(char **a)
{
	char *path = g_strdup_printf("/dev/i2c-%s", a[0]), *fw = NULL;
	int r = flash(a, path, &fw);

	fflush(stdout);
	g_free(path);
	g_free(fw);
	return r;
}

static int flash(char **a, char *path, char **fwp)
{
	char *fw = NULL;
	unsigned long bl = strtoul(a[1], NULL, 0), app = strtoul(a[2], NULL, 0);
	size_t chunk = strtoul(a[4], NULL, 0), size = 0, pos = 0;
	int fd = open(path, O_RDWR), frames = 0, resends = 0;
	guint8 s;

	if (fd < 0 || !g_file_get_contents(a[3], &fw, &size, NULL) ||
	    (*fwp = fw, ioctl(fd, I2C_SLAVE, bl) < 0)) {
		printf("setup failed: %s\n", strerror(errno));
		return 1;
	}
	if (bl_status(fd, &s))
		return printf("no bootloader at 0x%02lx\n", bl), 1;
	if ((s & 0xc0) == 0x40 && bl_status(fd, &s)) /* APP_CRC_FAIL is reported once */
		return 1;
	if ((s & 0xc0) == 0xc0) {
		if (write(fd, "\xdc\xaa", 2) != 2)
			return printf("unlock: %s\n", strerror(errno)), 1;
	} else if ((s & 0xc0) != 0x80) {
		return printf("unexpected status 0x%02x\n", s), 1;
	}
	while (pos < size) {
		size_t len = ((size_t)(guint8)fw[pos] << 8 | (guint8)fw[pos + 1]) + 2;
		int r;

		if (wait_status(fd, 0xc0, 0x80, &s))
			return printf("frame %d: not waiting for data (0x%02x)\n", frames, s),
			       1;
		for (size_t off = 0; off < len; off += chunk) {
			size_t n = len - off < chunk ? len - off : chunk;

			if (write(fd, fw + pos + off, n) != (ssize_t)n)
				return printf("frame %d: write: %s\n", frames, strerror(errno)),
				       1;
		}
		r = wait_status(fd, 0xff, 0x04, &s);
		if (r < 0)
			return printf("frame %d: no verdict (0x%02x)\n", frames, s), 1;
		if (r == 1) {
			if (++resends > 10)
				return printf("too many resends\n"), 1;
			continue;
		}
		pos += len;
		frames++;
	}
	/* the chip validates, resets and starts its application */
	ioctl(fd, I2C_SLAVE_FORCE, app);
	for (int tries = 0; tries < 5000; tries++) {
		guint8 info[7];

		if (write(fd, "\0\0", 2) == 2 && read(fd, info, 7) == 7) {
			printf("FLASHED frames=%d resends=%d info=%02x %02x %02x %02x\n",
			       frames, resends, info[0], info[1], info[2], info[3]);
			return 0;
		}
		usleep(1000);
	}
	printf("application did not start\n");
	return 1;
}

/* ------------------------------------------------------------ helpers */

static guint8 *make_image(guint8 version, guint8 build, guint32 payload, guint16 per_frame,
			  gsize *len)
{
	struct mxt_img_header h = { .family_id = 0x81,
				    .variant_id = 0x01,
				    .version = version,
				    .build = build };
	size_t cap = mxt_img_size(payload, per_frame);
	guint8 *buf = g_malloc(cap);

	*len = mxt_img_build(&h, NULL, payload, per_frame, buf, cap);
	assert_true(*len > 0);
	return buf;
}

/* firmware directory with maxtouch.fw, set as firmware_class.path */
static char *stage_fw(struct emub *eb, const void *data, gsize len, bool newline)
{
	char *dir = tu_tmpdir(), *param = g_strdup_printf("%s%s", dir, newline ? "\n" : "");

	tu_write_file(dir, "maxtouch.fw", data, len);
	tu_sys_write(eb, "module/firmware_class/parameters/path", param);
	g_free(param);
	return dir;
}

/* A kernel's write to update_fw returns when mxt_load_fw() and the
 * re-initialisation are done, with their error: the writer sees the
 * result, and the driver has finished by then (no settling first). */
static int update_fw(struct emub *eb)
{
	char *out;
	int res = 1, before = emub_update_fw_count(eb, DEV);
	int st = tu_sh(eb, &out, "echo 1 > /sys/bus/i2c/devices/1-004a/update_fw 2>/dev/null");

	g_free(out);
	assert_int_equal(emub_update_fw_count_now(eb, DEV), before + 1);
	assert_int_equal(emub_update_fw_result(eb, DEV, &res), 0);
	assert_int_equal(st != 0, res != 0);
	return res;
}

static const struct mxt_model_stats *stats(struct emub *eb)
{
	return mxt_model_stats(emub_chip_mxt(eb, DEV));
}

static bool has_input(struct emub *eb)
{
	char node[64];

	return emub_input_node(eb, DEV, node, sizeof(node)) == 0;
}

/* ------------------------------------------------------------ bind, unbind */

static void test_unbind_switches_driver_supply_off_and_bind_back_on(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	char node[64], *out;

	(void)state;
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_true(emub_chip_powered(eb, DEV));
	assert_int_equal(emub_input_node(eb, DEV, node, sizeof(node)), 0);
	assert_string_equal(node, "/dev/input/event0");
	assert_int_equal(tu_sh(eb, &out,
			       "test -c /dev/input/event0 && cat %s/input/input0/name",
			       "/sys/bus/i2c/devices/1-004a"),
			 0);
	assert_string_equal(out, "Atmel maXTouch Touchscreen\n");
	g_free(out);
	assert_int_equal(emub_unbind(eb, DEV), 0);
	assert_false(emub_chip_powered(eb, DEV));
	assert_false(has_input(eb));
	assert_int_equal(tu_sh(eb, &out, "test -e /dev/input/event0"), 1);
	g_free(out);
	emub_lock(eb);
	assert_int_equal(mxt_model_mode(emub_chip_mxt(eb, DEV)), MXT_MODE_OFF);
	emub_unlock(eb);
	assert_int_equal(emub_unbind(eb, DEV), -ENODEV);
	assert_int_equal(emub_bind(eb, DEV), 0);
	assert_int_equal(emub_bind(eb, DEV), -EBUSY);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_true(emub_chip_powered(eb, DEV));
	assert_int_equal(emub_input_node(eb, DEV, node, sizeof(node)), 0);
	assert_string_equal(node, "/dev/input/event0"); /* minor reused */
	assert_int_equal(tu_sh(eb, &out, "ls /sys/bus/i2c/devices/1-004a/input"), 0);
	assert_string_equal(out, "input1\n"); /* input numbers are not */
	g_free(out);
	emub_free(eb);
}

/*
 * A program that finds the input device by a sysfs rescan opens its event
 * node at once: the node must answer its ioctls from the moment it exists,
 * as the kernel's does.  Child: poll for the node, open it, ask its name.
 */
static int child_evdev_first_sight(void)
{
	gint64 end = g_get_monotonic_time() + 15 * G_USEC_PER_SEC;
	char name[128] = "";
	int fd = -1;

	while (g_get_monotonic_time() < end) {
		if (access("/dev/input/event0", F_OK) == 0) {
			fd = open("/dev/input/event0", O_RDONLY | O_NONBLOCK);
			break;
		}
		g_usleep(20);
	}
	if (fd < 0 && g_get_monotonic_time() >= end)
		return printf("no /dev/input/event0\n"), 1;
	if (fd < 0)
		return printf("open: %s\n", g_strerror(errno)), 1;
	if (ioctl(fd, EVIOCGNAME(sizeof(name)), name) < 0)
		return printf("EVIOCGNAME: %s\n", g_strerror(errno)), 1;
	printf("name=%s\n", name);
	close(fd);
	return 0;
}

static void test_event_node_answers_when_it_first_shows(void **state)
{
	const char *const args[] = { "evdev-first-sight", NULL };
	struct emub *eb = tu_board_file("app.board", false);
	struct emub_child *c;
	char *out;
	int st;

	(void)state;
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	for (int round = 0; round < 5; round++) {
		assert_int_equal(emub_unbind(eb, DEV), 0);
		c = tu_spawn_self(eb, args, NULL);
		g_usleep(100000);
		assert_int_equal(emub_bind(eb, DEV), 0);
		assert_int_equal(emub_child_wait(c, 20000, &st), 0);
		out = g_strconcat(emub_child_stdout(c), emub_child_stderr(c), NULL);
		emub_child_free(c);
		assert_string_equal(out, "name=Atmel maXTouch Touchscreen\n");
		assert_int_equal(st, 0);
		g_free(out);
		assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	}
	emub_free(eb);
}

static void test_always_on_supply_survives_unbind(void **state)
{
	struct emub *eb = tu_board_file("always-on.board", false);

	(void)state;
	assert_int_equal(emub_unbind(eb, DEV), 0);
	assert_true(emub_chip_powered(eb, DEV));
	emub_lock(eb);
	assert_int_equal(mxt_model_mode(emub_chip_mxt(eb, DEV)), MXT_MODE_APP);
	emub_unlock(eb);
	emub_free(eb);
}

static void test_every_bind_pulses_the_reset_line(void **state)
{
	struct emub *eb = tu_board_file("always-on.board", false);
	unsigned int before;

	(void)state;
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_int_equal(emub_unbind(eb, DEV), 0);
	emub_lock(eb);
	before = stats(eb)->resets;
	emub_unlock(eb);
	assert_int_equal(emub_bind(eb, DEV), 0);
	emub_lock(eb);
	/* GPIOD_OUT_HIGH at request, released 70 ms later: at least one
	 * reset, plus the T7 soft reset of the config callback */
	assert_true(stats(eb)->resets >= before + 1);
	emub_unlock(eb);
	emub_free(eb);
}

static void test_bootloader_chip_binds_without_input_device(void **state)
{
	struct emub *eb = tu_board_file("demo.board", false);

	(void)state;
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_true(emub_dev_bound(eb, DEV));
	assert_false(has_input(eb));
	emub_lock(eb);
	assert_int_equal(mxt_model_mode(emub_chip_mxt(eb, DEV)), MXT_MODE_BOOTLOADER);
	/* mxt_initialize: two bootloader probes, one 0x01 0x01 attempt */
	assert_int_equal(stats(eb)->resets, 1);
	emub_unlock(eb);
	emub_free(eb);
}

static void test_probe_fails_when_chip_answers_nowhere(void **state)
{
	struct emub *eb = tu_board_text("[board]\nname = p\ncompatible = t,p\n[adapter 1]\n"
					"[chip touchscreen]\nadapter = 1\naddress = 0x4a\n"
					"model = mxt224e\ncompatible = atmel,maxtouch\n"
					"driver = atmel_mxt_ts\nchg_gpio = 1\nbound = false\n"
					"fault.nak = 0x4a;0x24;0x26\n");
	char *out;

	(void)state;
	assert_int_equal(emub_bind(eb, DEV), -ENXIO);
	assert_false(emub_dev_bound(eb, DEV));
	assert_int_equal(tu_sh(eb, &out, "test -e /sys/bus/i2c/devices/1-004a/driver"), 1);
	g_free(out);
	/* the failed probe switched its supply off again */
	assert_false(emub_chip_powered(eb, DEV));
	emub_free(eb);
}

static void test_corrupted_info_block_fails_probe(void **state)
{
	struct emub *eb = tu_board_text("[board]\nname = p\ncompatible = t,p\n[adapter 1]\n"
					"[chip touchscreen]\nadapter = 1\naddress = 0x4a\n"
					"model = mxt224e\ncompatible = atmel,maxtouch\n"
					"driver = atmel_mxt_ts\nchg_gpio = 1\nbound = false\n"
					"fault.corrupt_info_crc = true\n");

	(void)state;
	/* Info Block CRC error -> not a bootloader either -> probe fails */
	assert_int_equal(emub_bind(eb, DEV), -ENXIO);
	assert_false(emub_dev_bound(eb, DEV));
	emub_free(eb);
}

static void test_probe_needs_the_interrupt(void **state)
{
	struct emub *eb = tu_board_text("[board]\nname = p\ncompatible = t,p\n[adapter 1]\n"
					"[chip touchscreen]\nadapter = 1\naddress = 0x4a\n"
					"model = mxt224e\ncompatible = atmel,maxtouch\n"
					"driver = atmel_mxt_ts\nbound = false\n");

	(void)state;
	assert_int_equal(emub_bind(eb, DEV), -EINVAL); /* client->irq == 0 */
	emub_free(eb);
}

/* ------------------------------------------------------------ attributes */

static void test_app_mode_attributes(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	char *out;

	(void)state;
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_int_equal(tu_sh(eb, &out,
			       "cd /sys/bus/i2c/devices/1-004a && cat fw_version hw_version"),
			 0);
	assert_string_equal(out, "1.0.AA\n129.1\n");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "grep -A2 '^T7:' /sys/bus/i2c/devices/1-004a/object"),
			 0);
	/* T7 after mxt_init_t7_power_cfg: idle 100, active 20 */
	assert_string_equal(out, "T7:\n\t[ 0]: 64 (100)\n\t[ 1]: 14 (20)\n");
	g_free(out);
	assert_int_equal(emub_oops_count(eb), 0);
	emub_free(eb);
}

static void test_reading_fw_version_in_bootloader_oopses(void **state)
{
	struct emub *eb = tu_board_file("demo.board", false);
	char *out;

	(void)state;
	/* opening without reading is harmless */
	assert_int_equal(tu_sh(eb, &out, ": < /sys/bus/i2c/devices/1-004a/fw_version"), 0);
	g_free(out);
	assert_int_equal(emub_oops_count(eb), 0);
	tu_sh(eb, &out, "cat /sys/bus/i2c/devices/1-004a/fw_version");
	g_free(out);
	emub_settle(eb);
	assert_int_equal(emub_oops_count(eb), 1);
	assert_contains(emub_oops_message(eb, 0), "NULL pointer dereference");
	assert_contains(emub_oops_message(eb, 0), "fw_version");
	/* the driver is wedged: unbind does nothing */
	assert_int_equal(emub_unbind(eb, DEV), -EBUSY);
	assert_true(emub_dev_bound(eb, DEV));
	emub_free(eb);
}

/* ------------------------------------------------------------ flashing */

static void test_flash_bootloader_chip_with_plain_writes_while_bound(void **state)
{
	struct emub *eb = tu_board_file("demo.board", false);
	char *dir = tu_tmpdir(), *file = g_build_filename(dir, "fw.bin", NULL), *out;
	gsize len;
	guint8 *img = make_image(0x21, 0x05, 20000, 500, &len);
	const char *args[] = { "flash", "1", "0x24", "0x4a", file, "255", NULL };

	(void)state;
	tu_write_file(dir, "fw.bin", img, len);
	assert_int_equal(tu_run_self(eb, &out, args), 0);
	assert_contains(out, "FLASHED frames=42 resends=0 info=81 01 21 05");
	g_free(out);
	emub_lock(eb);
	assert_int_equal(stats(eb)->images_completed, 1);
	assert_int_equal(stats(eb)->frames_passed, 42);
	emub_unlock(eb);
	/* still bound in bootloader mode: rebind to get the application */
	assert_false(has_input(eb));
	assert_int_equal(emub_unbind(eb, DEV), 0);
	assert_int_equal(emub_bind(eb, DEV), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_true(has_input(eb));
	assert_int_equal(tu_sh(eb, &out, "cat /sys/bus/i2c/devices/1-004a/fw_version"), 0);
	assert_string_equal(out, "2.1.05\n");
	g_free(out);
	assert_int_equal(emub_oops_count(eb), 0);
	g_free(img);
	g_free(file);
	tu_rmdir(dir);
	emub_free(eb);
}

static void test_update_fw_flashes_and_reregisters_input(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	gsize len;
	guint8 *img = make_image(0x21, 0x05, 8000, 200, &len); /* frames of 207 bytes */
	char *dir = stage_fw(eb, img, len, false), *out;

	(void)state;
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_int_equal(update_fw(eb), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_true(has_input(eb));
	assert_int_equal(tu_sh(eb, &out,
			       "cat /sys/bus/i2c/devices/1-004a/fw_version; "
			       "ls /sys/bus/i2c/devices/1-004a/input"),
			 0);
	assert_string_equal(out, "2.1.05\ninput1\n");
	g_free(out);
	emub_lock(eb);
	assert_int_equal(stats(eb)->images_completed, 1);
	emub_unlock(eb);
	/* the path as read back: the kernel appends a newline */
	out = tu_sys_read(eb, "module/firmware_class/parameters/path");
	assert_true(g_str_has_suffix(out, "\n") && !g_str_has_suffix(out, "\n\n"));
	g_free(out);
	g_free(img);
	tu_rmdir(dir);
	emub_free(eb);
}

static void test_update_fw_with_newline_in_path_finds_nothing(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	gsize len;
	guint8 *img = make_image(0x21, 0x05, 2000, 200, &len);
	char *dir = stage_fw(eb, img, len, true);

	(void)state;
	assert_int_equal(update_fw(eb), -ENOENT);
	assert_true(has_input(eb)); /* nothing happened to the chip */
	g_free(img);
	tu_rmdir(dir);
	emub_free(eb);
}

static void test_firmware_dirs_stand_in_for_lib_firmware(void **state)
{
	char *dir = tu_tmpdir(), *text;
	gsize len;
	guint8 *img = make_image(0x30, 0x01, 2000, 200, &len);
	struct emub *eb;
	char *out;

	(void)state;
	tu_write_file(dir, "maxtouch.fw", img, len);
	text = g_strdup_printf(
		"[board]\nname = fw\ncompatible = t,fw\nfirmware_dirs = /nonexistent;%s\n"
		"[adapter 1]\n[chip touchscreen]\nadapter = 1\naddress = 0x4a\n"
		"model = mxt224e\ncompatible = atmel,maxtouch\n"
		"driver = atmel_mxt_ts\nchg_gpio = 1\n",
		dir);
	eb = tu_board_text(text);
	/* firmware_class.path is empty: the loader falls back to the dirs */
	assert_int_equal(update_fw(eb), 0);
	assert_int_equal(tu_sh(eb, &out, "cat /sys/bus/i2c/devices/1-004a/fw_version"), 0);
	assert_string_equal(out, "3.0.01\n");
	g_free(out);
	emub_free(eb);
	g_free(text);
	g_free(img);
	tu_rmdir(dir);
}

static void test_update_fw_refuses_enc_hex_file(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	char *dir = stage_fw(eb, "0123456789ABCDEF", 16, false);

	(void)state;
	assert_int_equal(update_fw(eb), -EINVAL);
	assert_true(has_input(eb));
	tu_rmdir(dir);
	emub_free(eb);
}

static void test_update_fw_frames_beyond_adapter_limit_fail(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	gsize len;
	guint8 *img = make_image(0x21, 0x05, 4000, 500, &len); /* 507-byte frames */
	char *dir = stage_fw(eb, img, len, false);

	(void)state;
	/* the driver writes whole frames: max_transfer 255 -> EOPNOTSUPP,
	 * chip left in its bootloader, driver without info block */
	assert_int_equal(update_fw(eb), -EOPNOTSUPP);
	assert_false(has_input(eb));
	emub_lock(eb);
	assert_int_equal(mxt_model_mode(emub_chip_mxt(eb, DEV)), MXT_MODE_BOOTLOADER);
	emub_unlock(eb);
	g_free(img);
	tu_rmdir(dir);
	emub_free(eb);
}

/* ------------------------------------------------------------ config */

static void test_maxtouch_cfg_applied_at_bind(void **state)
{
	struct emub *eb = tu_board_file("always-on.board", false);
	char *dir = tu_tmpdir(), *cfg;
	guint32 info_crc;
	guint16 t7 = 0, size = 0;

	(void)state;
	assert_int_equal(emub_unbind(eb, DEV), 0);
	emub_lock(eb);
	info_crc = mxt_model_info_crc(emub_chip_mxt(eb, DEV));
	assert_true(mxt_model_object(emub_chip_mxt(eb, DEV), 7, &t7, &size));
	emub_unlock(eb);
	cfg = g_strdup_printf("OBP_RAW V1\n81 01 10 AA 13 0B 0C\n%06X\n000000\n"
			      "0007 0000 0004 20 40 10 05\n",
			      info_crc);
	tu_write_file(dir, "maxtouch.cfg", cfg, strlen(cfg));
	tu_sys_write(eb, "module/firmware_class/parameters/path", dir);
	assert_int_equal(emub_bind(eb, DEV), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	emub_lock(eb);
	{
		struct mxt_model *m = emub_chip_mxt(eb, DEV);
		const guint8 *mem = mxt_model_mem(m, NULL);

		assert_int_equal(mxt_model_stats(m)->backups, 1);
		assert_int_equal(mem[t7], 0x20);
		assert_int_equal(mem[t7 + 1], 0x40);
		assert_int_equal(mem[t7 + 3], 0x05);
		assert_int_equal(mxt_model_nvm_config_crc(m), mxt_model_config_crc(m));
	}
	emub_unlock(eb);
	assert_true(has_input(eb));
	g_free(cfg);
	tu_rmdir(dir);
	emub_free(eb);
}

static void test_maxtouch_cfg_of_other_family_is_ignored(void **state)
{
	struct emub *eb = tu_board_file("always-on.board", false);
	char *dir = tu_tmpdir();
	static const char cfg[] = "OBP_RAW V1\nA2 06 10 AA 13 0B 0C\n000000\n000000\n"
				  "0007 0000 0002 33 33\n";

	(void)state;
	assert_int_equal(emub_unbind(eb, DEV), 0);
	tu_write_file(dir, "maxtouch.cfg", cfg, strlen(cfg));
	tu_sys_write(eb, "module/firmware_class/parameters/path", dir);
	assert_int_equal(emub_bind(eb, DEV), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	emub_lock(eb);
	assert_int_equal(stats(eb)->backups, 0); /* "Family ID mismatch!" */
	emub_unlock(eb);
	assert_true(has_input(eb)); /* a bad config still registers input */
	tu_rmdir(dir);
	emub_free(eb);
}

/* ------------------------------------------------------------ faults */

static int flash_with_faults(const struct mxt_model_faults *f, struct emub **ebp, int *second)
{
	struct emub *eb = tu_board_file("app.board", false);
	gsize len;
	guint8 *img = make_image(0x21, 0x05, 4000, 200, &len);
	char *dir = stage_fw(eb, img, len, false);
	int r;

	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_int_equal(emub_set_mxt_faults(eb, DEV, f), 0);
	r = update_fw(eb);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	if (second)
		*second = update_fw(eb);
	g_free(img);
	tu_rmdir(dir);
	*ebp = eb;
	return r;
}

static void test_fault_frame_crc_fail_once_is_resent(void **state)
{
	struct mxt_model_faults f = { .crc_fail_frame = 3, .crc_fail_times = 1 };
	struct emub *eb;

	(void)state;
	assert_int_equal(flash_with_faults(&f, &eb, NULL), 0);
	emub_lock(eb);
	assert_int_equal(stats(eb)->frames_failed, 1);
	assert_int_equal(stats(eb)->images_completed, 1);
	emub_unlock(eb);
	assert_true(has_input(eb));
	emub_free(eb);
}

static void test_fault_frame_crc_fail_always_gives_up_after_20_retries(void **state)
{
	struct mxt_model_faults f = { .crc_fail_always = true };
	struct emub *eb;

	(void)state;
	assert_int_equal(flash_with_faults(&f, &eb, NULL), -EINVAL);
	emub_lock(eb);
	assert_int_equal(stats(eb)->frames_failed, 21); /* retry > 20 */
	assert_int_equal(stats(eb)->images_completed, 0);
	emub_unlock(eb);
	assert_false(has_input(eb));
	emub_free(eb);
}

static void test_fault_power_loss_after_frame_leaves_app_crc_fail(void **state)
{
	struct mxt_model_faults f = { .power_loss_after = 3 };
	struct emub *eb;

	(void)state;
	assert_true(flash_with_faults(&f, &eb, NULL) < 0);
	emub_lock(eb);
	assert_int_equal(stats(eb)->power_losses, 1);
	assert_int_equal(mxt_model_mode(emub_chip_mxt(eb, DEV)), MXT_MODE_BOOTLOADER);
	assert_false(mxt_model_app_valid(emub_chip_mxt(eb, DEV)));
	emub_unlock(eb);
	emub_free(eb);
}

static void test_fault_stuck_in_bootloader_binds_without_input(void **state)
{
	struct mxt_model_faults f = { .stuck_in_bootloader = true };
	struct emub *eb;
	int second = 1;

	(void)state;
	/* After 0xA5 the bootloader reports APP_CRC_FAIL once, which
	 * mxt_load_fw does not expect: the first write fails.  The second
	 * finds WAITING_BOOTLOAD_CMD, flashes, and "succeeds": mxt_initialize
	 * then finds only the bootloader and binds without input, as the real
	 * driver does. */
	assert_int_equal(flash_with_faults(&f, &eb, &second), -EINVAL);
	assert_int_equal(second, 0);
	assert_false(has_input(eb));
	assert_true(emub_dev_bound(eb, DEV));
	emub_lock(eb);
	assert_int_equal(mxt_model_mode(emub_chip_mxt(eb, DEV)), MXT_MODE_BOOTLOADER);
	emub_unlock(eb);
	emub_free(eb);
}

static void test_fault_no_input_device(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);

	(void)state;
	assert_int_equal(emub_unbind(eb, DEV), 0);
	assert_int_equal(emub_set_no_input(eb, DEV, true), 0);
	assert_int_equal(emub_bind(eb, DEV), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_true(emub_dev_bound(eb, DEV));
	assert_false(has_input(eb));
	emub_free(eb);
}

static void test_input_delay_lands_after_bind(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);

	(void)state;
	assert_int_equal(emub_unbind(eb, DEV), 0);
	assert_int_equal(emub_set_input_delay(eb, DEV, 300), 0);
	assert_int_equal(emub_bind(eb, DEV), 0);
	assert_false(has_input(eb)); /* bound, input not yet there */
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_true(has_input(eb));
	emub_free(eb);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unbind_switches_driver_supply_off_and_bind_back_on),
		cmocka_unit_test(test_always_on_supply_survives_unbind),
		cmocka_unit_test(test_every_bind_pulses_the_reset_line),
		cmocka_unit_test(test_bootloader_chip_binds_without_input_device),
		cmocka_unit_test(test_probe_fails_when_chip_answers_nowhere),
		cmocka_unit_test(test_corrupted_info_block_fails_probe),
		cmocka_unit_test(test_probe_needs_the_interrupt),
		cmocka_unit_test(test_app_mode_attributes),
		cmocka_unit_test(test_reading_fw_version_in_bootloader_oopses),
		cmocka_unit_test(test_flash_bootloader_chip_with_plain_writes_while_bound),
		cmocka_unit_test(test_update_fw_flashes_and_reregisters_input),
		cmocka_unit_test(test_update_fw_with_newline_in_path_finds_nothing),
		cmocka_unit_test(test_firmware_dirs_stand_in_for_lib_firmware),
		cmocka_unit_test(test_update_fw_refuses_enc_hex_file),
		cmocka_unit_test(test_update_fw_frames_beyond_adapter_limit_fail),
		cmocka_unit_test(test_maxtouch_cfg_applied_at_bind),
		cmocka_unit_test(test_maxtouch_cfg_of_other_family_is_ignored),
		cmocka_unit_test(test_fault_frame_crc_fail_once_is_resent),
		cmocka_unit_test(test_fault_frame_crc_fail_always_gives_up_after_20_retries),
		cmocka_unit_test(test_fault_power_loss_after_frame_leaves_app_crc_fail),
		cmocka_unit_test(test_fault_stuck_in_bootloader_binds_without_input),
		cmocka_unit_test(test_fault_no_input_device),
		cmocka_unit_test(test_input_delay_lands_after_bind),
		cmocka_unit_test(test_event_node_answers_when_it_first_shows),
	};

	if (argc > 2 && !strcmp(argv[1], "--child") && !strcmp(argv[2], "flash"))
		return argc >= 8 ? child_flash(argv + 3) : 2;
	if (argc > 2 && !strcmp(argv[1], "--child") && !strcmp(argv[2], "evdev-first-sight"))
		return child_evdev_first_sight();
	tu_init(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
