// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Silead chip model and the silead_ts driver model, judged by what
 * silead.c does, and the ACPI enumeration of an x86 tablet's i2c client:
 * the chip takes (register, value) pairs and runs what it was given; the
 * driver requests the file it names from the ACPI id or the firmware-name
 * property at every probe, and a missing file fails the probe -- no
 * driver, no bind uevent, only the add; a file on firmware_class.path
 * makes the next probe bind and register "silead_ts" with the
 * touchscreen-* properties' ranges; a wrong tablet's file binds too but
 * its touches never come.  Firmware files are built here from the pairs
 * silead_ts_load_fw sends, not with the model's helpers.
 */
#include <fcntl.h>
#include <glib/gstdio.h>
#include <linux/input.h>
#include <sys/ioctl.h>

#include "emub-silead.h"
#include "emub-testutil.h"
#include "silead_model.h"

#define DEV "touchscreen"
#define ACPI_DEV "i2c-MSSL1680:00"

/* ------------------------------------------------------------ child */

static int child_evdev(const char *node)
{
	struct input_absinfo ax, ay, slot;
	char name[128] = "";
	int fd = open(node, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		return printf("open %s: %s\n", node, strerror(errno)), 1;
	if (ioctl(fd, EVIOCGNAME(sizeof(name)), name) < 0 ||
	    ioctl(fd, EVIOCGABS(ABS_MT_POSITION_X), &ax) < 0 ||
	    ioctl(fd, EVIOCGABS(ABS_MT_POSITION_Y), &ay) < 0 ||
	    ioctl(fd, EVIOCGABS(ABS_MT_SLOT), &slot) < 0)
		return printf("ioctl: %s\n", strerror(errno)), 1;
	printf("NAME %s\nX %d %d\nY %d %d\nSLOTS %d\n", name, ax.minimum, ax.maximum,
	       ay.minimum, ay.maximum, slot.maximum + 1);
	close(fd);
	return 0;
}

/* ------------------------------------------------------------ firmware */

static void put32(GByteArray *b, guint32 v)
{
	guint8 x[4] = { (guint8)v, (guint8)(v >> 8), (guint8)(v >> 16), (guint8)(v >> 24) };

	g_byte_array_append(b, x, 4);
}

/* @pages pages of 32 words, values from @seed: page select, then words */
static GByteArray *mkfw(int pages, guint32 seed)
{
	GByteArray *b = g_byte_array_new();

	for (int p = 0; p < pages; p++) {
		put32(b, 0xf0);
		put32(b, (guint32)p);
		for (guint32 off = 0; off < 0x80; off += 4) {
			put32(b, off);
			put32(b, seed * 2654435761u + (guint32)p * 131u + off);
		}
	}
	return b;
}

static char *fw_file(const char *dir, const char *name, GByteArray *fw)
{
	char *sub = g_build_filename(dir, "silead", NULL);

	g_mkdir(sub, 0755);
	tu_write_file(sub, name, fw->data, fw->len);
	return sub;
}

/* ------------------------------------------------------------ boards */

/* An ACPI tablet: MSSL1680 at 0x40 on i2c-1, power GPIO 0, IRQ on line 1;
 * the panel needs @expect (a file), @props more chip keys. */
static char *tablet(const char *expect, const char *fwdir, const char *props)
{
	return g_strdup_printf("[board]\nname = silead test\n"
			       "dmi.sys_vendor = Example Tablets\ndmi.product_name = T8 Plus\n"
			       "dmi.board_name = T8P-V1\n%s%s%s"
			       "[adapter 1]\nspeed = 400000\n"
			       "[chip " DEV "]\nadapter = 1\naddress = 0x40\nmodel = silead\n"
			       "acpi_id = MSSL1680\ndriver = silead_ts\nbound = false\n"
			       "power_gpio = 0\nchg_gpio = 1\n%s%s%s%s\n",
			       fwdir ? "firmware_dirs = " : "", fwdir ? fwdir : "",
			       fwdir ? "\n" : "", expect ? "silead.firmware = " : "",
			       expect ? expect : "", expect ? "\n" : "", props ? props : "");
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
		char *cmd = g_strdup_printf("echo \"$ACTION ${DEVPATH##*/} $MODALIAS\" >> '%s'",
					    uevent_log);

		emub_set_on_uevent(eb, cmd);
		g_free(cmd);
	}
	r = emub_start(eb);
	if (r)
		fail_msg("starting board: %s", strerror(-r));
	return eb;
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

static struct silead_model_stats stats(struct emub *eb)
{
	struct silead_model_stats s;

	emub_lock(eb);
	s = *silead_model_stats(emub_chip_silead(eb, DEV));
	emub_unlock(eb);
	return s;
}

static bool program_ok(struct emub *eb)
{
	bool ok;

	emub_lock(eb);
	ok = silead_model_program_ok(emub_chip_silead(eb, DEV));
	emub_unlock(eb);
	return ok;
}

/* ------------------------------------------------------------ chip model */

static int xfer_write(struct silead_model *m, const guint8 *b, int n)
{
	return silead_model_ops.write(m, 0x40, b, (em_u16)n);
}

static void wr32(struct silead_model *m, guint8 reg, guint32 v, int want)
{
	guint8 b[5] = { reg, (guint8)v, (guint8)(v >> 8), (guint8)(v >> 16),
			(guint8)(v >> 24) };

	assert_int_equal(xfer_write(m, b, 5), want);
}

static guint32 rd32(struct silead_model *m, guint8 reg)
{
	guint8 b[4];

	assert_int_equal(xfer_write(m, &reg, 1), EM_ACK);
	assert_int_equal(silead_model_ops.read(m, 0x40, b, 4), EM_ACK);
	return (guint32)b[0] | (guint32)b[1] << 8 | (guint32)b[2] << 16 | (guint32)b[3] << 24;
}

static void ctl(struct silead_model *m, guint8 v)
{
	guint8 b[2] = { 0xe0, v };

	assert_int_equal(xfer_write(m, b, 2), EM_ACK);
}

static void test_chip_model_protocol(void **state)
{
	struct silead_model *m = g_new0(struct silead_model, 1);
	struct silead_model_cfg cfg = { .addr = 0x40, .chip_id = 0x80360000 };
	struct silead_model_point pt = { 3, 1000, 2000 };
	guint8 frame[44], reg = 0x80;

	(void)state;
	silead_model_init(m, &cfg, 0);
	assert_int_equal(rd32(m, 0xfc), 0x80360000);
	assert_int_equal(silead_model_ops.write(m, 0x41, &reg, 1), EM_NAK_ADDR);
	/* a start with nothing loaded runs nothing */
	ctl(m, 0x88);
	ctl(m, 0x00);
	silead_model_ops.advance(m, 50 * EM_NSEC_PER_MSEC);
	assert_int_equal(rd32(m, 0xb0), 0);
	/* pairs: page 2, two words; read back through the page */
	ctl(m, 0x88);
	wr32(m, 0xf0, 2, EM_ACK);
	wr32(m, 0x04, 0xdeadbeef, EM_ACK);
	wr32(m, 0x7c, 0x01020304, EM_ACK);
	assert_int_equal(rd32(m, 0x04), 0xdeadbeef);
	assert_int_equal(rd32(m, 0x7c), 0x01020304);
	/* what the chip can not take */
	wr32(m, 0x06, 1, EM_NAK_DATA);	 /* not word-aligned */
	wr32(m, 0xf0, 256, EM_NAK_DATA); /* no such page */
	wr32(m, 0xfc, 1, EM_NAK_DATA);	 /* the id is read-only */
	{
		guint8 b[3] = { 0x08, 1, 2 };

		assert_int_equal(xfer_write(m, b, 3), EM_NAK_DATA); /* half a word */
	}
	assert_int_equal(silead_model_stats(m)->bad_writes, 4);
	ctl(m, 0x00);
	silead_model_ops.advance(m, 55 * EM_NSEC_PER_MSEC);
	assert_int_equal(rd32(m, 0xb0), 0); /* not yet: start_ns */
	silead_model_ops.advance(m, 70 * EM_NSEC_PER_MSEC);
	assert_int_equal(rd32(m, 0xb0), 0x5a5a5a5a);
	/* no expected program: any program touches */
	assert_true(silead_model_touch(m, &pt, 1));
	assert_true(silead_model_ops.irq_asserted(m));
	assert_int_equal(xfer_write(m, &reg, 1), EM_ACK);
	assert_int_equal(silead_model_ops.read(m, 0x40, frame, 44), EM_ACK);
	assert_false(silead_model_ops.irq_asserted(m));
	assert_int_equal(frame[0], 1);
	assert_int_equal(frame[4] | frame[5] << 8, 2000);	   /* Y */
	assert_int_equal(frame[6] | (frame[7] & 0x0f) << 8, 1000); /* X */
	assert_int_equal(frame[7] >> 4, 3);			   /* id */
	/* power loss: the program is gone, the chip boots empty */
	silead_model_ops.set_power(m, false);
	assert_int_equal(silead_model_ops.write(m, 0x40, &reg, 1), EM_NAK_ADDR);
	silead_model_ops.set_power(m, true);
	silead_model_ops.advance(m, 200 * EM_NSEC_PER_MSEC);
	assert_int_equal(rd32(m, 0xb0), 0);
	assert_int_equal(rd32(m, 0x04), 0);
	assert_false(silead_model_touch(m, &pt, 1));
	g_free(m);
}

/* The panel's program is known by what RAM holds, whatever the order. */
static void test_chip_model_expected_program(void **state)
{
	struct silead_model *m = g_new0(struct silead_model, 1);
	struct silead_model_ram *ram = g_new0(struct silead_model_ram, 1);
	struct silead_model_cfg cfg = { .addr = 0x40 };
	struct silead_model_point pt = { 0, 10, 10 };
	em_u32 page = 0;

	(void)state;
	assert_true(silead_model_ram_apply(ram, &page, 0xf0, 1));
	assert_true(silead_model_ram_apply(ram, &page, 0x10, 77));
	cfg.has_expected = true;
	cfg.expected = silead_model_ram_digest(ram);
	silead_model_init(m, &cfg, 0);
	ctl(m, 0x88);
	wr32(m, 0xf0, 1, EM_ACK);
	wr32(m, 0x10, 78, EM_ACK); /* another tablet's value */
	ctl(m, 0x00);
	silead_model_ops.advance(m, 100 * EM_NSEC_PER_MSEC);
	assert_int_equal(rd32(m, 0xb0), 0x5a5a5a5a); /* it runs ... */
	assert_false(silead_model_program_ok(m));
	assert_false(silead_model_touch(m, &pt, 1)); /* ... and feels nothing */
	ctl(m, 0x88);
	wr32(m, 0x10, 77, EM_ACK);
	ctl(m, 0x00);
	silead_model_ops.advance(m, 200 * EM_NSEC_PER_MSEC);
	assert_true(silead_model_program_ok(m));
	assert_true(silead_model_touch(m, &pt, 1));
	assert_int_equal(silead_model_stats(m)->touches_lost, 1);
	g_free(ram);
	g_free(m);
}

/* ------------------------------------------------------------ ACPI, DMI */

static void test_acpi_client_and_dmi(void **state)
{
	char *text = tablet(NULL, NULL, NULL), *out;
	struct emub *eb = start(text, NULL);

	(void)state;
	assert_int_equal(tu_sh(eb, &out,
			       "d=/sys/bus/i2c/devices/" ACPI_DEV "; cat $d/name $d/modalias "
			       "$d/uevent $d/firmware_node/hid $d/firmware_node/modalias "
			       "$d/firmware_node/path; readlink -f $d | sed 's|.*/sys||'; "
			       "ls /sys/bus/i2c/devices/; cat /sys/class/dmi/id/sys_vendor "
			       "/sys/class/dmi/id/product_name /sys/class/dmi/id/board_name; "
			       "test -e $d/of_node || echo no-of-node"),
			 0);
	assert_contains(out, "MSSL1680:00\nacpi:MSSL1680:\nMODALIAS=acpi:MSSL1680:\n"
			     "MSSL1680\nacpi:MSSL1680:\n\\_SB_.PCI0.I2C1.MSSL\n");
	assert_contains(out, "/devices/platform/emuboard-i2c.1/i2c-1/" ACPI_DEV "\n");
	assert_contains(out, "Example Tablets\nT8 Plus\nT8P-V1\nno-of-node\n");
	assert_not_contains(out, "1-0040");
	g_free(out);
	emub_free(eb);
	g_free(text);
}

/* ------------------------------------------------------------ driver */

/* No file: probe fails after the chip answered; no bind uevent, the chip
 * is unpowered again. */
static void test_missing_file_fails_probe_add_only(void **state)
{
	char *dir = tu_tmpdir(), *log = g_build_filename(dir, "uevents", NULL);
	char *text = tablet(NULL, NULL, NULL), *s = NULL;
	struct emub *eb = start(text, log);

	(void)state;
	assert_int_equal(emub_replug(eb, DEV), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_false(emub_dev_bound(eb, DEV));
	assert_false(emub_chip_powered(eb, DEV));
	assert_true(stats(eb).power_ups >= 1); /* the driver did talk to it */
	for (int i = 0; i < 100 && !g_file_get_contents(log, &s, NULL, NULL); i++)
		g_usleep(10000);
	g_usleep(100000);
	g_free(s);
	assert_true(g_file_get_contents(log, &s, NULL, NULL));
	assert_string_equal(s, "remove " ACPI_DEV " acpi:MSSL1680:\n"
			       "add " ACPI_DEV " acpi:MSSL1680:\n");
	g_free(s);
	assert_int_equal(emub_bind(eb, DEV), -ENOENT);
	emub_free(eb);
	g_free(text);
	g_free(log);
	tu_rmdir(dir);
}

/* The name from the ACPI id, found on firmware_class.path; bind, input
 * with the default 4095 ranges, the touch is read by the IRQ handler. */
static void test_acpi_name_file_binds(void **state)
{
	char *dir = tu_tmpdir(), *fwdir = g_build_filename(dir, "fw", NULL), *text, *out;
	GByteArray *fw = mkfw(3, 1);
	char *sub, *exp;
	struct silead_model_point pt = { 1, 100, 200 };
	struct emub *eb;

	(void)state;
	g_mkdir(fwdir, 0755);
	sub = fw_file(fwdir, "mssl1680.fw", fw);
	exp = g_build_filename(sub, "mssl1680.fw", NULL);
	text = tablet(exp, NULL, NULL);
	eb = start(text, NULL);
	assert_int_equal(emub_bind(eb, DEV), -ENOENT);
	tu_sys_write(eb, "module/firmware_class/parameters/path", fwdir);
	assert_int_equal(emub_bind(eb, DEV), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_true(emub_dev_bound(eb, DEV));
	out = evdev(eb);
	assert_string_equal(out, "NAME silead_ts\nX 0 4095\nY 0 4095\nSLOTS 5\n");
	g_free(out);
	assert_true(program_ok(eb));
	assert_int_equal(stats(eb).words_written, 3 * 32);
	assert_int_equal(stats(eb).pages_selected, 3);
	assert_int_equal(emub_silead_touch(eb, DEV, &pt, 1), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_int_equal(stats(eb).frames_read, 1);
	assert_int_equal(tu_sh(eb, &out, "gpioinfo gpiochip0 | head -3"), 0);
	assert_contains(out, "\"power\"");
	g_free(out);
	/* unbind: devres powers it off, the program is gone; rebind reloads */
	assert_int_equal(emub_unbind(eb, DEV), 0);
	assert_false(program_ok(eb));
	assert_int_equal(emub_bind(eb, DEV), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_true(program_ok(eb));
	assert_int_equal(stats(eb).words_written, 2 * 3 * 32);
	emub_free(eb);
	g_byte_array_free(fw, TRUE);
	g_free(text);
	g_free(sub);
	g_free(exp);
	g_free(fwdir);
	tu_rmdir(dir);
}

/* firmware-name and touchscreen-* properties (touchscreen_dmi.c's); the
 * wrong tablet's file binds alike, but touches never come. */
static void test_properties_and_wrong_firmware(void **state)
{
	char *dir = tu_tmpdir(), *text, *out, *sub, *exp;
	GByteArray *right = mkfw(2, 7), *wrong = mkfw(2, 8);
	struct silead_model_point pt = { 0, 5, 5 };
	struct emub *eb;

	(void)state;
	sub = fw_file(dir, "gsl1680-t8plus.fw", right);
	g_free(sub);
	sub = fw_file(dir, "gsl1680-other.fw", wrong);
	exp = g_build_filename(sub, "gsl1680-t8plus.fw", NULL);
	text = tablet(exp, dir,
		      "silead.firmware_name = gsl1680-other.fw\n"
		      "silead.max_fingers = 10\ntouchscreen.size_x = 1960\n"
		      "touchscreen.size_y = 1500\ntouchscreen.swapped_x_y = true\n"
		      "touchscreen.inverted_y = true\n");
	eb = start(text, NULL);
	assert_int_equal(emub_bind(eb, DEV), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	out = evdev(eb);
	/* size-x/-y give maxima size - 1, then swapped */
	assert_string_equal(out, "NAME silead_ts\nX 0 1499\nY 0 1959\nSLOTS 10\n");
	g_free(out);
	assert_false(program_ok(eb));
	assert_int_equal(emub_silead_touch(eb, DEV, &pt, 1), -EAGAIN);
	emub_free(eb);
	g_free(text);
	g_free(exp);
	/* the right one under that name */
	exp = g_build_filename(sub, "gsl1680-t8plus.fw", NULL);
	text = tablet(exp, dir, "silead.firmware_name = gsl1680-t8plus.fw\n");
	eb = start(text, NULL);
	assert_int_equal(emub_bind(eb, DEV), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_true(program_ok(eb));
	assert_int_equal(emub_silead_touch(eb, DEV, &pt, 1), 0);
	emub_free(eb);
	g_byte_array_free(right, TRUE);
	g_byte_array_free(wrong, TRUE);
	g_free(text);
	g_free(exp);
	g_free(sub);
	tu_rmdir(dir);
}

/* A file the chip NAKs ("Firmware load error"), a program that never
 * starts ("Initialization error"), an SMBus-only adapter, no IRQ. */
static void test_probe_failures(void **state)
{
	char *dir = tu_tmpdir(), *text, *sub;
	GByteArray *bad = mkfw(1, 1);
	struct emub *eb;

	(void)state;
	put32(bad, 0x42); /* unaligned word */
	put32(bad, 1);
	sub = fw_file(dir, "mssl1680.fw", bad);
	text = tablet(NULL, dir, NULL);
	eb = start(text, NULL);
	assert_int_equal(emub_bind(eb, DEV), -ENXIO);
	assert_int_equal(stats(eb).bad_writes, 1);
	emub_free(eb);
	g_free(text);
	g_byte_array_free(bad, TRUE);
	bad = mkfw(1, 1);
	tu_write_file(sub, "mssl1680.fw", bad->data, bad->len);

	text = tablet(NULL, dir, "fault.never_starts = true\n");
	eb = start(text, NULL);
	assert_int_equal(emub_bind(eb, DEV), -ENODEV);
	emub_free(eb);
	g_free(text);

	text = tablet(NULL, dir, "chg_gpio = none\n");
	eb = start(text, NULL);
	assert_int_equal(emub_bind(eb, DEV), -ENODEV);
	assert_int_equal(stats(eb).power_ups, 0); /* before touching the chip */
	emub_free(eb);
	g_free(text);
	{
		char *t = tablet(NULL, dir, NULL), *p = strstr(t, "speed = 400000\n");
		GString *s = g_string_new(NULL);

		g_string_append_len(s, t, p - t);
		g_string_append(s, "smbus_only = true\n");
		g_string_append(s, p);
		eb = start(s->str, NULL);
		assert_int_equal(emub_bind(eb, DEV), -ENXIO);
		emub_free(eb);
		g_string_free(s, TRUE);
		g_free(t);
	}
	g_byte_array_free(bad, TRUE);
	g_free(sub);
	tu_rmdir(dir);
}

/* A device-tree board: client named by its compatible, file by i2c id. */
static void test_of_client_file_name(void **state)
{
	char *dir = tu_tmpdir(), *sub, *text;
	GByteArray *fw = mkfw(1, 3);
	struct emub *eb;

	(void)state;
	sub = fw_file(dir, "gsl1680.fw", fw);
	text = g_strdup_printf(
		"[board]\nname = dt silead\ncompatible = touchfw,test\n"
		"firmware_dirs = %s\n[adapter 2]\n"
		"[chip " DEV "]\nadapter = 2\naddress = 0x40\nmodel = silead\n"
		"compatible = silead,gsl1680\ndriver = silead_ts\nbound = false\n"
		"chg_gpio = 1\npower = always-on\ntouchscreen.size_x = 800\n",
		dir);
	eb = start(text, NULL);
	assert_int_equal(emub_bind(eb, DEV), 0);
	assert_int_equal(emub_wait_idle(eb, DEV, 10000), 0);
	assert_true(emub_dev_bound(eb, "2-0040"));
	emub_free(eb);
	g_byte_array_free(fw, TRUE);
	g_free(text);
	g_free(sub);
	tu_rmdir(dir);
}

static void test_board_keys_checked(void **state)
{
	static const char *const bad[][2] = {
		{ "silead.firmware = /nonexistent.fw\n", "silead.firmware" },
		{ "silead.max_fingers = 11\n", "silead.max_fingers" },
		{ "acpi_id = mssl1680\n", "acpi_id" },
		{ "compatible = silead,gsl1680\n", "acpi_id" },
	};
	struct emub *eb = NULL;
	char err[512];

	(void)state;
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		char *text = tablet(NULL, NULL, bad[i][0]);

		if (!emub_new_from_string(text, tu_top(), &eb, err, sizeof(err)))
			fail_msg("accepted: %s", bad[i][0]);
		assert_contains(err, bad[i][1]);
		g_free(text);
	}
	{
		char *text = g_strdup("[board]\nname = x\ncompatible = a,b\n[adapter 1]\n"
				      "[chip c]\nadapter = 1\naddress = 0x40\nmodel = silead\n"
				      "acpi_id = MSSL1680\n");

		assert_int_not_equal(emub_new_from_string(text, tu_top(), &eb, err,
							  sizeof(err)),
				     0);
		assert_contains(err, "ACPI machine");
		g_free(text);
	}
	{
		char *text = g_strdup("[board]\nname = x\ncompatible = a,b\n[adapter 1]\n"
				      "[chip c]\nadapter = 1\naddress = 0x40\nmodel = eeprom\n"
				      "silead.max_fingers = 5\n");

		assert_int_not_equal(emub_new_from_string(text, tu_top(), &eb, err,
							  sizeof(err)),
				     0);
		assert_contains(err, "only for model = silead");
		g_free(text);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chip_model_protocol),
		cmocka_unit_test(test_chip_model_expected_program),
		cmocka_unit_test(test_acpi_client_and_dmi),
		cmocka_unit_test(test_missing_file_fails_probe_add_only),
		cmocka_unit_test(test_acpi_name_file_binds),
		cmocka_unit_test(test_properties_and_wrong_firmware),
		cmocka_unit_test(test_probe_failures),
		cmocka_unit_test(test_of_client_file_name),
		cmocka_unit_test(test_board_keys_checked),
	};

	if (argc > 3 && !strcmp(argv[1], "--child") && !strcmp(argv[2], "evdev"))
		return child_evdev(argv[3]);
	tu_init(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
