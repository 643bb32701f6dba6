// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Goodix-TS driver model against the Goodix chip model, judged by what
 * goodix.c does: probe with and without INT/RST GPIOs (the reset that picks
 * the address, the asynchronous goodix_<ID>_cfg.bin or goodix/<name> from
 * goodix,config-name, or no file request at all), the driver's own
 * goodix_check_cfg refusing bad files (and then registering no input
 * device), the chip ignoring what it must ignore, the bind uevent before
 * the input device, the axis maxima a program reads with EVIOCGABS (this
 * program as "--child evdev NODE" inside the board, as libevdev asks), the
 * defaults for a chip without a valid config, and unbind/rebind.  Config
 * files are built here with checksums computed from goodix_check_cfg_8/16,
 * not with the model's helpers.
 */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <linux/i2c-dev.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "emub-goodix.h"
#include "emub-testutil.h"
#include "goodix_model.h"

#define DEV "touchscreen"

/* ------------------------------------------------------------ child */

/* Print what libevdev's init asks an evdev node. */
static int child_evdev(const char *node)
{
	struct input_absinfo ax, ay, slot;
	struct input_id id;
	unsigned long absbits[ABS_CNT / (8 * sizeof(long))] = { 0 };
	unsigned long keybits[KEY_CNT / (8 * sizeof(long))] = { 0 };
	char name[128] = "";
	int fd = open(node, O_RDONLY | O_NONBLOCK), version = 0;

	if (fd < 0) {
		printf("open %s: %s\n", node, strerror(errno));
		return 1;
	}
	if (ioctl(fd, EVIOCGVERSION, &version) < 0 || ioctl(fd, EVIOCGID, &id) < 0 ||
	    ioctl(fd, EVIOCGNAME(sizeof(name)), name) < 0 ||
	    ioctl(fd, EVIOCGBIT(EV_ABS, sizeof(absbits)), absbits) < 0 ||
	    ioctl(fd, EVIOCGBIT(EV_KEY, sizeof(keybits)), keybits) < 0 ||
	    ioctl(fd, EVIOCGABS(ABS_MT_POSITION_X), &ax) < 0 ||
	    ioctl(fd, EVIOCGABS(ABS_MT_POSITION_Y), &ay) < 0 ||
	    ioctl(fd, EVIOCGABS(ABS_MT_SLOT), &slot) < 0) {
		printf("ioctl: %s\n", strerror(errno));
		return 1;
	}
	printf("VERSION %x\nNAME %s\nID %x %x %x %x\n", version, name, id.bustype, id.vendor,
	       id.product, id.version);
	printf("X %d %d\nY %d %d\nSLOTS %d\n", ax.minimum, ax.maximum, ay.minimum, ay.maximum,
	       slot.maximum + 1);
	printf("ABSBIT_MT_X %d\n", (int)(absbits[ABS_MT_POSITION_X / (8 * sizeof(long))] >>
						 (ABS_MT_POSITION_X % (8 * sizeof(long))) &
					 1));
	printf("KEY_LEFTMETA %d\n", (int)(keybits[KEY_LEFTMETA / (8 * sizeof(long))] >>
						  (KEY_LEFTMETA % (8 * sizeof(long))) &
					  1));
	/* an axis the device does not have */
	printf("ABS_PRESSURE %s\n",
	       ioctl(fd, EVIOCGABS(ABS_PRESSURE), &ax) < 0 ? strerror(errno) : "ok");
	close(fd);
	return 0;
}

/*
 * Open @node, say so by creating @marker, wait until the node is gone,
 * then ask it something: ENODEV, as evdev_ioctl() answers on a file whose
 * device was disconnected.
 */
static int child_evdev_gone(const char *node, const char *marker)
{
	struct input_id id;
	int fd = open(node, O_RDONLY | O_NONBLOCK), i;
	FILE *m;

	if (fd < 0) {
		printf("open %s: %s\n", node, strerror(errno));
		return 1;
	}
	m = fopen(marker, "w");
	if (!m)
		return 1;
	fclose(m);
	for (i = 0; i < 1000 && access(node, F_OK) == 0; i++)
		usleep(10000);
	if (i == 1000) {
		printf("%s never went away\n", node);
		return 1;
	}
	if (ioctl(fd, EVIOCGID, &id) == 0 || errno != ENODEV) {
		printf("EVIOCGID on the removed node: %s\n",
		       errno == 0 ? "answered" : strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}

/* One connection to the emulator's GPIO socket ($UMOCKDEV_DIR/emuboard-gpio.sock). */
static int gpio_conn(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	const char *dir = getenv("UMOCKDEV_DIR");
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (!dir || fd < 0 ||
	    snprintf(a.sun_path, sizeof(a.sun_path), "%s/emuboard-gpio.sock", dir) >=
		    (int)sizeof(a.sun_path))
		return -1;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

static bool gpio_say(int fd, const char *cmd, char *reply, size_t sz)
{
	size_t n = 0;

	if (write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd) || write(fd, "\n", 1) != 1)
		return false;
	while (n + 1 < sz && read(fd, reply + n, 1) == 1 && reply[n] != '\n')
		n++;
	reply[n] = 0;
	return !strncmp(reply, "OK", 2);
}

/*
 * User space does goodix_reset_no_int_sync itself (the driver unbound):
 * RST low, INT driven to @int_level, RST high, then reads the product id
 * at @addr; INT is then released (the chip drives it) and read back.
 */
static int child_reset_select(int int_level, int addr)
{
	int rst = gpio_conn(), irq = gpio_conn(), i2c = open("/dev/i2c-1", O_RDWR);
	char reply[128], cmd[128];
	guint8 reg[2] = { 0x81, 0x40 }, id[5] = { 0 };

	if (rst < 0 || irq < 0 || i2c < 0)
		return printf("setup: %s\n", strerror(errno)), 1;
	if (!gpio_say(rst, "REQUEST chip=gpiochip0 line=0 dir=out value=0 consumer=test", reply,
		      sizeof(reply)))
		return printf("RST: %s\n", reply), 1;
	snprintf(cmd, sizeof(cmd),
		 "REQUEST chip=gpiochip0 line=1 dir=out value=%d consumer=test", int_level);
	if (!gpio_say(irq, cmd, reply, sizeof(reply)))
		return printf("INT: %s\n", reply), 1;
	g_usleep(1000);
	if (!gpio_say(rst, "SET 1", reply, sizeof(reply)))
		return printf("RST SET: %s\n", reply), 1;
	if (ioctl(i2c, I2C_SLAVE, addr) < 0)
		return printf("I2C_SLAVE: %s\n", strerror(errno)), 1;
	for (int tries = 0;; tries++) {
		if (write(i2c, reg, 2) == 2 && read(i2c, id, 4) == 4)
			break;
		if (tries > 200)
			return printf("no answer at 0x%02x: %s\n", addr, strerror(errno)), 1;
		g_usleep(1000);
	}
	printf("ID %s at 0x%02x\n", id, addr);
	/* INT back to the chip: an input line follows its pin */
	gpio_say(irq, "RELEASE", reply, sizeof(reply));
	if (!gpio_say(irq, "REQUEST chip=gpiochip0 line=1 dir=in consumer=test", reply,
		      sizeof(reply)) ||
	    !gpio_say(irq, "GET", reply, sizeof(reply)))
		return printf("INT in: %s\n", reply), 1;
	printf("INT %s\n", reply);
	close(rst);
	close(irq);
	close(i2c);
	return 0;
}

/* ------------------------------------------------------------ configs */

static void csum8(guint8 *c, int len)
{
	guint8 s = 0;

	for (int i = 0; i < len - 2; i++)
		s += c[i];
	c[len - 2] = (guint8)(~s + 1);
}

/* goodix_check_cfg_16 also sums byte len-3 when len is even: search */
static bool csum16(guint8 *c, int len)
{
	for (int hi = 0; hi < 256; hi++) {
		guint16 s = 0;

		c[len - 3] = (guint8)hi;
		for (int i = 0; i < len - 3; i += 2)
			s += (guint16)(c[i] << 8 | c[i + 1]);
		s = (guint16)(~s + 1);
		if (s >> 8 == hi) {
			c[len - 2] = (guint8)s;
			return true;
		}
	}
	return false;
}

static guint8 *mkcfg(int len, bool gt1x, guint8 ver, int x, int y, int touches)
{
	guint8 *c = g_malloc0(240);

	for (int i = 7; i < len - 3; i++)
		c[i] = (guint8)(i * 3 + 1);
	c[0] = ver;
	c[1] = (guint8)x;
	c[2] = (guint8)(x >> 8);
	c[3] = (guint8)y;
	c[4] = (guint8)(y >> 8);
	c[5] = (guint8)touches;
	c[6] = 0x0d; /* falling edge */
	c[len - 1] = 1;
	if (gt1x)
		while (!csum16(c, len))
			c[7]++;
	else
		csum8(c, len);
	return c;
}

/* ------------------------------------------------------------ boards */

/* A GT911 (or @id) board; @gpios: INT on line 1, RST on line 0. */
static char *board_text(const char *id, int addr, bool gpios, const char *fwdir,
			const char *extra)
{
	return g_strdup_printf("[board]\nname = goodix test\ncompatible = touchfw,test\n%s%s%s"
			       "[adapter 1]\nspeed = 400000\n"
			       "[chip " DEV "]\nadapter = 1\naddress = 0x%02x\nmodel = goodix\n"
			       "compatible = goodix,gt911\ndriver = Goodix-TS\nbound = false\n"
			       "goodix.id = %s\ngoodix.fw_version = 0x1060\n"
			       "goodix.config_version = 0x41\ngoodix.resolution = 800x480\n"
			       "%s%s\n",
			       fwdir ? "firmware_dirs = " : "", fwdir ? fwdir : "",
			       fwdir ? "\n" : "", addr, id,
			       gpios ? "reset_gpio = 0\nint_gpio = 1\n" : "",
			       extra ? extra : "");
}

static struct emub *start(const char *text, const char *uevent_log)
{
	struct emub *eb = NULL;
	char err[512];
	int r = emub_new_from_string(text, tu_top(), &eb, err, sizeof(err));

	if (r)
		fail_msg("board: %s\n%s", err, text);
	if (getenv("EMUB_TEST_LOG"))
		emub_set_log(eb, stderr);
	if (uevent_log) {
		char *cmd =
			g_strdup_printf("echo \"$ACTION $SUBSYSTEM ${DEVPATH##*/}\" >> '%s'",
					uevent_log);

		emub_set_on_uevent(eb, cmd);
		g_free(cmd);
	}
	r = emub_start(eb);
	if (r)
		fail_msg("starting board: %s", strerror(-r));
	return eb;
}

/* The uevent log once it has @n lines (the runner works in order). */
static char *wait_log(const char *path, int n)
{
	for (int tries = 0; tries < 1000; tries++) {
		char *s = NULL;

		if (g_file_get_contents(path, &s, NULL, NULL)) {
			int lines = 0;

			for (char *p = s; *p; p++)
				lines += *p == '\n';
			if (lines >= n)
				return s;
		}
		g_free(s);
		g_usleep(10000);
	}
	fail_msg("uevent log %s: fewer than %d lines", path, n);
	return NULL;
}

static char *evdev(struct emub *eb)
{
	char node[64], *out = NULL;
	const char *args[] = { "evdev", node, NULL };

	assert_int_equal(emub_input_node(eb, DEV, node, sizeof(node)), 0);
	if (tu_run_self(eb, &out, args))
		fail_msg("evdev child: %s", out);
	return out;
}

static bool has_input(struct emub *eb)
{
	char node[64];

	return emub_input_node(eb, DEV, node, sizeof(node)) == 0;
}

static struct goodix_model *chip(struct emub *eb)
{
	return emub_chip_goodix(eb, DEV);
}

static int active_version(struct emub *eb)
{
	const guint8 *c;
	int v;

	emub_lock(eb);
	v = goodix_model_active_config(chip(eb), &c) ? c[0] : -1;
	emub_unlock(eb);
	return v;
}

static struct goodix_model_stats stats(struct emub *eb)
{
	struct goodix_model_stats s;

	emub_lock(eb);
	s = *goodix_model_stats(chip(eb));
	emub_unlock(eb);
	return s;
}

static void bind_idle(struct emub *eb)
{
	assert_int_equal(emub_bind(eb, DEV), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
}

/* ------------------------------------------------------------ tests */

/*
 * An event node opened before its device goes away (unbind) answers
 * ENODEV, as the kernel's does, and its ioctl socket stays until the
 * minor is used again: removing the socket raced with a program opening
 * the node at that moment (umockdev's preload then exits the program:
 * "Failed to connect to ioctl socket for /dev/input/event0").
 */
static void test_event_node_opened_before_unbind_answers_enodev(void **state)
{
	struct emub *eb = tu_board_file("goodix-gt911.board", false);
	char node[64], *dir = tu_tmpdir(), *marker = g_build_filename(dir, "opened", NULL);
	const char *args[] = { "evdev-gone", node, marker, NULL };
	struct emub_child *c;
	int st = 0, i;

	(void)state;
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_int_equal(emub_input_node(eb, DEV, node, sizeof(node)), 0);
	c = tu_spawn_self(eb, args, NULL);
	for (i = 0; i < 1000 && !g_file_test(marker, G_FILE_TEST_EXISTS); i++)
		g_usleep(10000);
	assert_int_equal(emub_unbind(eb, DEV), 0);
	assert_int_equal(emub_child_wait(c, TU_TIMEOUT_MS, &st), 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("child: %s%s", emub_child_stdout(c), emub_child_stderr(c));
	emub_child_free(c);
	/* the minor is used again by the next bind */
	bind_idle(eb);
	g_free(evdev(eb));
	g_free(marker);
	tu_rmdir(dir);
	emub_free(eb);
}

static void test_board_file_stale_config_no_file(void **state)
{
	struct emub *eb = tu_board_file("goodix-gt911.board", false);
	char *out;

	(void)state;
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_true(emub_dev_bound(eb, DEV));
	out = evdev(eb);
	assert_contains(out, "NAME Goodix Capacitive TouchScreen\n");
	assert_contains(out, "ID 18 416 38f 1060\n"); /* BUS_I2C, 0x0416, 911, version */
	/* goodix_read_config: resolution - 1 */
	assert_contains(out, "X 0 799\nY 0 479\nSLOTS 5\n");
	assert_contains(out, "ABSBIT_MT_X 1\nKEY_LEFTMETA 1\n");
	assert_contains(out, "ABS_PRESSURE Invalid argument\n");
	g_free(out);
	assert_int_equal(active_version(eb), 0x41);
	assert_int_equal(stats(eb).config_writes, 0);
	assert_int_equal(tu_sh(eb, &out, "gpioinfo gpiochip0 | head -3"), 0);
	assert_contains(out, "\"TS_RESET\"      \"reset\"   input  active-high [used]");
	assert_contains(out, "\"TS_INT\"        \"irq\"   input  active-high [used]");
	g_free(out);
	emub_free(eb);
}

static void test_config_file_sent_and_axes_follow(void **state)
{
	char *dir = tu_tmpdir(), *log = g_build_filename(dir, "uevents", NULL);
	guint8 *cfg = mkcfg(186, false, 0x42, 1024, 600, 10);
	char *text, *out, *ev;
	struct emub *eb;
	const guint8 *fl;

	(void)state;
	tu_write_file(dir, "goodix_911_cfg.bin", cfg, 186);
	text = board_text("911", 0x5d, true, dir, NULL);
	eb = start(text, log);
	bind_idle(eb);
	out = evdev(eb);
	assert_contains(out, "X 0 1023\nY 0 599\nSLOTS 10\n");
	g_free(out);
	assert_int_equal(active_version(eb), 0x42);
	emub_lock(eb);
	assert_true(goodix_model_flash_config(chip(eb), &fl));
	assert_memory_equal(fl, cfg, 185); /* stored; fresh byte consumed */
	assert_int_equal(fl[185], 0);
	emub_unlock(eb);
	assert_int_equal(stats(eb).configs_applied, 1);
	/* bind first, the input device from the config callback later */
	ev = wait_log(log, 3);
	assert_string_equal(ev, "bind i2c 1-005d\nadd input input0\nadd input event0\n");
	g_free(ev);
	emub_free(eb);
	g_free(text);
	g_free(cfg);
	g_free(log);
	tu_rmdir(dir);
}

static void test_firmware_class_path_is_searched(void **state)
{
	char *dir = tu_tmpdir(), *text = board_text("911", 0x5d, true, NULL, NULL);
	guint8 *cfg = mkcfg(186, false, 0x43, 1280, 720, 5);
	struct emub *eb;

	(void)state;
	tu_write_file(dir, "goodix_911_cfg.bin", cfg, 186);
	eb = start(text, NULL);
	tu_sys_write(eb, "module/firmware_class/parameters/path", dir);
	bind_idle(eb);
	assert_int_equal(active_version(eb), 0x43);
	emub_free(eb);
	g_free(text);
	g_free(cfg);
	tu_rmdir(dir);
}

static void test_config_name_property_gt1x(void **state)
{
	char *dir = tu_tmpdir(), *sub, *text, *out;
	guint8 *named = mkcfg(240, true, 0x51, 720, 1280, 10);
	guint8 *byid = mkcfg(240, true, 0x52, 100, 100, 10);
	struct emub *eb;

	(void)state;
	sub = g_build_filename(dir, "goodix", NULL);
	g_mkdir(sub, 0755);
	tu_write_file(sub, "gt1151-panel.cfg", named, 240);
	tu_write_file(dir, "goodix_1151_cfg.bin", byid, 240);
	text = g_strdup_printf("[board]\nname = gt1151\ncompatible = touchfw,test\n"
			       "firmware_dirs = %s\n"
			       "[adapter 2]\nspeed = 400000\n"
			       "[chip " DEV "]\nadapter = 2\naddress = 0x14\nmodel = goodix\n"
			       "compatible = goodix,gt1151\ndriver = Goodix-TS\n"
			       "goodix.id = 1151\ngoodix.config_version = 0x50\n"
			       "goodix.resolution = 1080x1920\ngoodix.trigger = low\n"
			       "goodix.config_name = gt1151-panel.cfg\npower = always-on\n"
			       "reset_gpio = 2\nint_gpio = 3\n"
			       "[gpiochip]\nlines = 8\n",
			       dir);
	eb = start(text, NULL);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_int_equal(active_version(eb), 0x51); /* goodix/<config-name>, not by id */
	out = evdev(eb);
	assert_contains(out, "X 0 719\nY 0 1279\n");
	assert_contains(out, "ID 18 416 47f 0\n"); /* product 1151 */
	g_free(out);
	emub_lock(eb);
	assert_int_equal(goodix_model_addr(chip(eb)), 0x14); /* INT high at reset */
	emub_unlock(eb);
	emub_free(eb);
	g_free(text);
	g_free(named);
	g_free(byid);
	g_free(sub);
	tu_rmdir(dir);
}

/* goodix_check_cfg refuses the file: nothing sent, no input device. */
static void refused_file(const guint8 *cfg, int len, const char *why)
{
	char *dir = tu_tmpdir(), *text = board_text("911", 0x5d, true, dir, NULL);
	struct emub *eb;

	tu_write_file(dir, "goodix_911_cfg.bin", cfg, (size_t)len);
	eb = start(text, NULL);
	bind_idle(eb);
	if (!emub_dev_bound(eb, DEV))
		fail_msg("%s: not bound", why);
	if (has_input(eb))
		fail_msg("%s: input device registered", why);
	assert_int_equal(stats(eb).config_writes, 0);
	assert_int_equal(active_version(eb), 0x41);
	emub_free(eb);
	g_free(text);
	tu_rmdir(dir);
}

static void test_bad_config_files_refused_by_driver(void **state)
{
	guint8 *c = mkcfg(186, false, 0x42, 1024, 600, 5);
	guint8 big[241];

	(void)state;
	c[184] ^= 1;
	refused_file(c, 186, "bad checksum");
	c[184] ^= 1;
	c[185] = 0;
	csum8(c, 186);
	refused_file(c, 186, "fresh byte 0");
	g_free(c);
	c = mkcfg(185, false, 0x42, 1024, 600, 5);
	refused_file(c, 185, "185 bytes");
	g_free(c);
	memset(big, 0, sizeof(big));
	big[240] = 1;
	csum8(big, 241);
	refused_file(big, 241, "241 bytes");
	/* a GT1x-style checksum on a GT9x chip */
	c = mkcfg(240, true, 0x42, 1024, 600, 5);
	refused_file(c, 240, "16-bit checksum for a GT911");
	g_free(c);
}

/* The driver passes it, the chip does not take it: a lower version. */
static void test_older_config_file_ignored_by_chip(void **state)
{
	char *dir = tu_tmpdir(), *text = board_text("911", 0x5d, true, dir, NULL), *out;
	guint8 *cfg = mkcfg(186, false, 0x40, 1024, 600, 5);
	struct emub *eb;

	(void)state;
	tu_write_file(dir, "goodix_911_cfg.bin", cfg, 186);
	eb = start(text, NULL);
	bind_idle(eb);
	assert_int_equal(stats(eb).config_writes, 1);
	assert_int_equal(stats(eb).configs_old_version, 1);
	assert_int_equal(active_version(eb), 0x41);
	out = evdev(eb);
	assert_contains(out, "X 0 799\nY 0 479\n");
	g_free(out);
	emub_free(eb);
	g_free(text);
	g_free(cfg);
	tu_rmdir(dir);
}

/* Without INT/RST GPIOs: configured inside probe, no file asked for. */
static void test_no_gpios_configures_in_probe(void **state)
{
	char *dir = tu_tmpdir(), *log = g_build_filename(dir, "uevents", NULL);
	char *text = board_text("911", 0x5d, false, dir, NULL), *ev, *out;
	guint8 *cfg = mkcfg(186, false, 0x42, 1024, 600, 5);
	struct emub *eb;

	(void)state;
	tu_write_file(dir, "goodix_911_cfg.bin", cfg, 186);
	eb = start(text, log);
	bind_idle(eb);
	assert_int_equal(stats(eb).config_writes, 0);
	assert_int_equal(stats(eb).resets, 1); /* the power-up only */
	out = evdev(eb);
	assert_contains(out, "X 0 799\nY 0 479\n");
	g_free(out);
	/* input_register_device inside probe: before the bind uevent */
	ev = wait_log(log, 3);
	assert_string_equal(ev, "add input input0\nadd input event0\nbind i2c 1-005d\n");
	g_free(ev);
	emub_free(eb);
	g_free(text);
	g_free(cfg);
	g_free(log);
	tu_rmdir(dir);
}

/* A chip without a valid config reads zeros: GOODIX_MAX_WIDTH/HEIGHT - 1. */
static void test_chip_without_config_gets_defaults(void **state)
{
	char *text = board_text("911", 0x5d, true, NULL, "goodix.config = none\n"), *out;
	struct emub *eb;

	(void)state;
	eb = start(text, NULL);
	bind_idle(eb);
	out = evdev(eb);
	assert_contains(out, "X 0 4095\nY 0 4095\nSLOTS 10\n");
	g_free(out);
	emub_lock(eb);
	assert_int_equal(goodix_model_request(chip(eb)), GOODIX_MODEL_RQST_CONFIG);
	emub_unlock(eb);
	emub_free(eb);
	g_free(text);
}

/* A config file makes a chip without config usable. */
static void test_config_file_rescues_chip_without_config(void **state)
{
	char *dir = tu_tmpdir(),
	     *text = board_text("967", 0x5d, true, dir, "goodix.config = none\n"), *out;
	guint8 *cfg = mkcfg(228, false, 0x01, 600, 1024, 5);
	struct emub *eb;

	(void)state;
	tu_write_file(dir, "goodix_967_cfg.bin", cfg, 228);
	eb = start(text, NULL);
	bind_idle(eb);
	out = evdev(eb);
	assert_contains(out, "X 0 599\nY 0 1023\n");
	g_free(out);
	emub_free(eb);
	g_free(text);
	g_free(cfg);
	tu_rmdir(dir);
}

static void test_unbind_removes_input_and_rebind(void **state)
{
	char *dir = tu_tmpdir(), *log = g_build_filename(dir, "uevents", NULL);
	char *text = board_text("911", 0x5d, true, NULL, NULL), *ev, *out;
	struct emub *eb;

	(void)state;
	eb = start(text, log);
	bind_idle(eb);
	assert_true(emub_chip_powered(eb, DEV));
	assert_int_equal(emub_unbind(eb, DEV), 0);
	assert_false(has_input(eb));
	assert_false(emub_chip_powered(eb, DEV)); /* goodix_disable_regulators */
	ev = wait_log(log, 6);
	assert_string_equal(ev,
			    "bind i2c 1-005d\nadd input input0\nadd input event0\n"
			    "remove input event0\nremove input input0\nunbind i2c 1-005d\n");
	g_free(ev);
	assert_int_equal(tu_sh(eb, &out,
			       "gpioinfo gpiochip0 | head -3; "
			       "test -e /dev/input/event0 || echo gone"),
			 0);
	assert_not_contains(out, "[used]");
	assert_contains(out, "gone");
	g_free(out);
	bind_idle(eb);
	out = evdev(eb);
	assert_contains(out, "X 0 799\nY 0 479\n");
	g_free(out);
	assert_int_equal(tu_sh(eb, &out, "ls /sys/bus/i2c/devices/1-005d/input"), 0);
	assert_string_equal(out, "input1\n");
	g_free(out);
	emub_free(eb);
	g_free(text);
	g_free(log);
	tu_rmdir(dir);
}

/*
 * The address follows INT at reset (goodix_reset_no_int_sync): a chip
 * strapped to 0x5d answers a client at 0x14 once the driver has reset it
 * with INT high; without GPIOs, or when it ignores INT, it stays at 0x5d
 * and probe fails.
 */
static void address_case(bool gpios, const char *extra, int want_bind)
{
	char *x = g_strdup_printf("goodix.strap = 0x5d\n%s", extra);
	char *text = board_text("911", 0x14, gpios, NULL, x);
	struct emub *eb = start(text, NULL);

	assert_int_equal(emub_bind(eb, DEV), want_bind);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	emub_lock(eb);
	assert_int_equal(goodix_model_addr(chip(eb)), want_bind ? 0x5d : 0x14);
	emub_unlock(eb);
	assert_int_equal(has_input(eb), want_bind == 0);
	emub_free(eb);
	g_free(text);
	g_free(x);
}

static void test_address_selection(void **state)
{
	(void)state;
	address_case(true, "", 0);
	address_case(false, "", -ENXIO);
	address_case(true, "fault.fixed_address = true\n", -ENXIO);
}

static void test_nak_fails_probe(void **state)
{
	char *text = board_text("911", 0x5d, true, NULL, "fault.nak = 0x5d\n");
	struct emub *eb;

	(void)state;
	eb = start(text, NULL);
	assert_int_equal(emub_bind(eb, DEV), -ENXIO);
	assert_false(emub_dev_bound(eb, DEV));
	emub_free(eb);
	g_free(text);
}

static void test_refuse_config_fault(void **state)
{
	char *dir = tu_tmpdir(),
	     *text = board_text("911", 0x5d, true, dir, "fault.refuse_config = true\n"), *out;
	guint8 *cfg = mkcfg(186, false, 0x42, 1024, 600, 5);
	struct emub *eb;

	(void)state;
	tu_write_file(dir, "goodix_911_cfg.bin", cfg, 186);
	eb = start(text, NULL);
	bind_idle(eb);
	assert_int_equal(stats(eb).configs_refused, 1);
	out = evdev(eb);
	assert_contains(out, "X 0 799\n"); /* the driver believes, the chip ignored */
	g_free(out);
	emub_free(eb);
	g_free(text);
	g_free(cfg);
	tu_rmdir(dir);
}

/* goodix_ts_irq_handler reads the frame and writes 0 to 0x814E. */
static void test_touch_interrupt_handled(void **state)
{
	struct goodix_model_point p[2] = { { 0, 100, 200, 20 }, { 1, 300, 400, 20 } };
	char *text = board_text("911", 0x5d, true, NULL, NULL);
	struct emub *eb = start(text, NULL);

	(void)state;
	bind_idle(eb);
	assert_int_equal(emub_goodix_touch(eb, DEV, p, 2), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_int_equal(stats(eb).touch_frames, 1);
	emub_lock(eb);
	assert_false(goodix_model_ops.irq_asserted(chip(eb)));
	emub_unlock(eb);
	/* unbound: nobody reads it, INT stays asserted */
	assert_int_equal(emub_unbind(eb, DEV), 0);
	emub_free(eb);
	g_free(text);
}

/* The same selection done by user space through the GPIO socket. */
static void test_user_space_reset_selects_address(void **state)
{
	char *text = board_text("911", 0x5d, true, NULL, "power = always-on\n");
	struct emub *eb = start(text, NULL);
	const char *hi[] = { "reset-select", "1", "0x14", NULL };
	const char *lo[] = { "reset-select", "0", "0x5d", NULL };
	char *out;

	(void)state;
	assert_int_equal(tu_run_self(eb, &out, hi), 0);
	assert_contains(out, "ID 911 at 0x14\n");
	/* idle INT of a falling-edge chip is high */
	assert_contains(out, "INT OK 1\n");
	g_free(out);
	emub_lock(eb);
	assert_int_equal(goodix_model_addr(chip(eb)), 0x14);
	emub_unlock(eb);
	assert_int_equal(tu_run_self(eb, &out, lo), 0);
	assert_contains(out, "ID 911 at 0x5d\n");
	g_free(out);
	/* the driver binds at 0x5d again after its own reset */
	bind_idle(eb);
	assert_true(has_input(eb));
	emub_free(eb);
	g_free(text);
}

static void test_board_keys_checked(void **state)
{
	static const char *const bad[] = {
		"goodix.id = 12345\n",	   "goodix.resolution = 800\n",
		"goodix.trigger = both\n", "goodix.config = /nonexistent/cfg.bin\n",
		"goodix.touches = 16\n",
	};
	struct emub *eb = NULL;
	char err[512];

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		char *text = board_text("911", 0x5d, true, NULL, bad[i]);

		if (!emub_new_from_string(text, tu_top(), &eb, err, sizeof(err)))
			fail_msg("accepted: %s", bad[i]);
		assert_contains(err, "[chip " DEV "] goodix.");
		g_free(text);
	}
	{
		char *text = board_text("911", 0x38, true, NULL, NULL);

		assert_int_not_equal(emub_new_from_string(text, tu_top(), &eb, err,
							  sizeof(err)),
				     0);
		assert_contains(err, "0x14 or 0x5d");
		g_free(text);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_board_file_stale_config_no_file),
		cmocka_unit_test(test_config_file_sent_and_axes_follow),
		cmocka_unit_test(test_firmware_class_path_is_searched),
		cmocka_unit_test(test_config_name_property_gt1x),
		cmocka_unit_test(test_bad_config_files_refused_by_driver),
		cmocka_unit_test(test_older_config_file_ignored_by_chip),
		cmocka_unit_test(test_no_gpios_configures_in_probe),
		cmocka_unit_test(test_chip_without_config_gets_defaults),
		cmocka_unit_test(test_config_file_rescues_chip_without_config),
		cmocka_unit_test(test_unbind_removes_input_and_rebind),
		cmocka_unit_test(test_address_selection),
		cmocka_unit_test(test_nak_fails_probe),
		cmocka_unit_test(test_refuse_config_fault),
		cmocka_unit_test(test_touch_interrupt_handled),
		cmocka_unit_test(test_user_space_reset_selects_address),
		cmocka_unit_test(test_board_keys_checked),
		cmocka_unit_test(test_event_node_opened_before_unbind_answers_enodev),
	};

	if (argc > 3 && !strcmp(argv[1], "--child") && !strcmp(argv[2], "evdev"))
		return child_evdev(argv[3]);
	if (argc > 4 && !strcmp(argv[1], "--child") && !strcmp(argv[2], "evdev-gone"))
		return child_evdev_gone(argv[3], argv[4]);
	if (argc > 4 && !strcmp(argv[1], "--child") && !strcmp(argv[2], "reset-select"))
		return child_reset_select(atoi(argv[3]), (int)strtol(argv[4], NULL, 0));
	tu_init(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
