// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Uevents of the emulated kernel as a libudev listener inside the board
 * sees them (this program as "--child monitor N", and udevadm itself):
 * the exact environments of bind, unbind, coldplug add and input devices,
 * their order (links before bind, input removal before unbind, the async
 * input registration after bind), the sysfs bind/unbind/uevent files,
 * boards without bind events, and the --on-uevent runner.
 */
#include <libudev.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "emub-testutil.h"

/* ------------------------------------------------------------ child */

/* Print N events (all properties, "EVENT" header), then exit. */
static int child_monitor(int n)
{
	struct udev *u = udev_new();
	struct udev_monitor *mon = udev_monitor_new_from_netlink(u, "kernel");
	struct pollfd pfd;

	udev_monitor_enable_receiving(mon);
	pfd.fd = udev_monitor_get_fd(mon);
	pfd.events = POLLIN;
	while (n > 0) {
		struct udev_device *d;
		struct udev_list_entry *e;

		if (poll(&pfd, 1, 10000) <= 0) {
			printf("TIMEOUT\n");
			return 2;
		}
		d = udev_monitor_receive_device(mon);
		if (!d)
			continue;
		printf("EVENT\n");
		udev_list_entry_foreach(e, udev_device_get_properties_list_entry(d))
			printf("%s=%s\n", udev_list_entry_get_name(e),
			       udev_list_entry_get_value(e));
		/* what a listener finds in sysfs when the event arrives */
		if (!strcmp(udev_device_get_action(d), "bind")) {
			char *l = g_strdup_printf("%s/driver", udev_device_get_syspath(d));
			char *a = g_strdup_printf("%s/update_fw", udev_device_get_syspath(d));
			struct stat st;

			printf("LINK=%s\n", lstat(l, &st) == 0 ? "yes" : "no");
			printf("ATTR=%s\n", stat(a, &st) == 0 ? "yes" : "no");
			g_free(l);
			g_free(a);
		}
		printf("END\n");
		fflush(stdout);
		udev_device_unref(d);
		n--;
	}
	udev_monitor_unref(mon);
	udev_unref(u);
	return 0;
}

/* ------------------------------------------------------------ helpers */

static struct emub_child *monitor(struct emub *eb, int n)
{
	char num[16];
	const char *args[] = { "monitor", num, NULL };
	struct emub_child *c;

	snprintf(num, sizeof(num), "%d", n);
	/* let the probe's async input registration finish first */
	assert_int_equal(emub_wait_idle(eb, "touchscreen", 10000), 0);
	c = tu_spawn_self(eb, args, NULL);
	assert_int_equal(emub_wait_listeners(eb, 1, 10000), 0);
	return c;
}

static char **events(struct emub_child *c)
{
	int st = 0;
	char **ev;

	assert_int_equal(emub_child_wait(c, 15000, &st), 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("monitor failed:\n%s%s", emub_child_stdout(c), emub_child_stderr(c));
	ev = g_strsplit(emub_child_stdout(c), "EVENT\n", -1);
	emub_child_free(c);
	return ev; /* ev[0] is "" */
}

static bool has_line(const char *ev, const char *line)
{
	char **l = g_strsplit(ev, "\n", -1);
	bool found = false;

	for (char **p = l; *p; p++)
		found |= !strcmp(*p, line);
	g_strfreev(l);
	return found;
}

static bool has_key(const char *ev, const char *key)
{
	char *k = g_strdup_printf("\n%s=", key);
	bool r = strstr(ev, k) || g_str_has_prefix(ev, k + 1);

	g_free(k);
	return r;
}

#define DEVPATH "/devices/platform/emuboard-i2c.1/i2c-1/1-004a"

/* ------------------------------------------------------------ tests */

static void test_unbind_then_bind_environment_and_order(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	struct emub_child *c = monitor(eb, 6);
	char **ev;

	(void)state;
	assert_int_equal(emub_unbind(eb, "touchscreen"), 0);
	assert_int_equal(emub_bind(eb, "touchscreen"), 0);
	ev = events(c);
	assert_int_equal(g_strv_length(ev), 7);
	/* mxt_remove frees the input device: event node first */
	assert_true(has_line(ev[1], "ACTION=remove"));
	assert_true(has_line(ev[1], "DEVPATH=" DEVPATH "/input/input0/event0"));
	assert_true(has_line(ev[1], "DEVNAME=/dev/input/event0"));
	assert_true(has_line(ev[2], "DEVPATH=" DEVPATH "/input/input0"));
	/* unbind: OF_* stay, DRIVER and MODALIAS do not */
	assert_true(has_line(ev[3], "ACTION=unbind"));
	assert_true(has_line(ev[3], "DEVPATH=" DEVPATH));
	assert_true(has_line(ev[3], "SUBSYSTEM=i2c"));
	assert_true(has_line(ev[3], "OF_NAME=touchscreen"));
	assert_true(has_line(ev[3], "OF_FULLNAME=/i2c@1/touchscreen@4a"));
	assert_true(has_line(ev[3], "OF_COMPATIBLE_0=atmel,maxtouch"));
	assert_true(has_line(ev[3], "OF_COMPATIBLE_N=1"));
	assert_true(has_key(ev[3], "SEQNUM"));
	assert_false(has_key(ev[3], "DRIVER"));
	assert_false(has_key(ev[3], "MODALIAS"));
	/* bind: DRIVER and MODALIAS; link and attributes already there */
	assert_true(has_line(ev[4], "ACTION=bind"));
	assert_true(has_line(ev[4], "DRIVER=atmel_mxt_ts"));
	assert_true(has_line(ev[4], "MODALIAS=of:NtouchscreenT(null)Catmel,maxtouch"));
	assert_true(has_line(ev[4], "OF_NAME=touchscreen"));
	assert_true(has_line(ev[4], "LINK=yes"));
	assert_true(has_line(ev[4], "ATTR=yes"));
	/* the input device comes from the async maxtouch.cfg callback: after
	 * bind; inputN numbers are not reused, event minors are */
	assert_true(has_line(ev[5], "ACTION=add"));
	assert_true(has_line(ev[5], "DEVPATH=" DEVPATH "/input/input1"));
	assert_true(has_line(ev[5], "NAME=\"Atmel maXTouch Touchscreen\""));
	assert_true(has_line(ev[5], "PHYS=\"i2c-1-004a/input0\""));
	assert_true(has_line(ev[5], "PRODUCT=18/0/0/0"));
	assert_true(has_line(ev[6], "DEVPATH=" DEVPATH "/input/input1/event0"));
	assert_true(has_line(ev[6], "MAJOR=13"));
	assert_true(has_line(ev[6], "MINOR=64"));
	g_strfreev(ev);
	emub_free(eb);
}

static void test_coldplug_add_carries_driver(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	struct emub_child *c = monitor(eb, 2);
	char **ev, *out;

	(void)state;
	assert_int_equal(emub_uevent(eb, "touchscreen", "add"), 0);
	/* what "udevadm trigger --action=add" does: write to the uevent file */
	assert_int_equal(tu_sh(eb, &out, "echo change > /sys/bus/i2c/devices/1-004a/uevent"),
			 0);
	g_free(out);
	ev = events(c);
	assert_true(has_line(ev[1], "ACTION=add"));
	assert_true(has_line(ev[1], "DRIVER=atmel_mxt_ts"));
	assert_true(has_line(ev[1], "MODALIAS=of:NtouchscreenT(null)Catmel,maxtouch"));
	assert_true(has_line(ev[2], "ACTION=change"));
	assert_true(has_line(ev[2], "DRIVER=atmel_mxt_ts"));
	g_strfreev(ev);
	/* the file reads back the device's variables, not the action */
	out = tu_sys_read(eb, DEVPATH "/uevent");
	assert_string_equal(
		out, "DRIVER=atmel_mxt_ts\nOF_NAME=touchscreen\n"
		     "OF_FULLNAME=/i2c@1/touchscreen@4a\nOF_COMPATIBLE_0=atmel,maxtouch\n"
		     "OF_COMPATIBLE_N=1\nMODALIAS=of:NtouchscreenT(null)Catmel,maxtouch\n");
	g_free(out);
	emub_free(eb);
}

static void test_sysfs_unbind_and_bind_files(void **state)
{
	struct emub *eb = tu_board_file("always-on.board", false);
	struct emub_child *c = monitor(eb, 4);
	char **ev, *out;

	(void)state;
	assert_int_equal(tu_sh(eb, &out,
			       "echo 1-004a > /sys/bus/i2c/drivers/atmel_mxt_ts/unbind"),
			 0);
	g_free(out);
	/* the write returned at once; the unbind happens behind it */
	assert_int_equal(emub_wait_idle(eb, "touchscreen", 10000), 0);
	assert_false(emub_dev_bound(eb, "touchscreen"));
	assert_int_equal(tu_sh(eb, &out, "test -e /sys/bus/i2c/devices/1-004a/driver"), 1);
	g_free(out);
	assert_int_equal(tu_sh(eb, &out,
			       "echo 1-004a > /sys/bus/i2c/drivers/atmel_mxt_ts/bind"),
			 0);
	g_free(out);
	assert_int_equal(emub_wait_idle(eb, "touchscreen", 10000), 0);
	assert_true(emub_dev_bound(eb, "touchscreen"));
	assert_int_equal(tu_sh(eb, &out, "readlink /sys/bus/i2c/devices/1-004a/driver"), 0);
	assert_string_equal(out, "../../../../../bus/i2c/drivers/atmel_mxt_ts\n");
	g_free(out);
	ev = events(c);
	assert_true(has_line(ev[3], "ACTION=unbind"));
	assert_true(has_line(ev[4], "ACTION=bind"));
	g_strfreev(ev);
	emub_free(eb);
}

static void test_no_bind_events_board_sends_add_before_probe(void **state)
{
	struct emub *eb = tu_board_file("no-bind-events.board", false);
	struct emub_child *c = monitor(eb, 6);
	char **ev, *out;

	(void)state;
	assert_int_equal(emub_replug(eb, "touchscreen"), 0);
	/* right after the add, the driver has not probed yet */
	assert_false(emub_dev_bound(eb, "touchscreen"));
	assert_int_equal(emub_wait_idle(eb, "touchscreen", 10000), 0);
	assert_true(emub_dev_bound(eb, "touchscreen"));
	ev = events(c);
	assert_true(has_line(ev[1], "ACTION=remove") && has_line(ev[1], "SUBSYSTEM=input"));
	assert_true(has_line(ev[2], "ACTION=remove") && has_line(ev[2], "SUBSYSTEM=input"));
	/* no unbind, no bind: only remove and add of the i2c device */
	assert_true(has_line(ev[3], "ACTION=remove") && has_line(ev[3], "SUBSYSTEM=i2c"));
	assert_true(has_line(ev[4], "ACTION=add") && has_line(ev[4], "SUBSYSTEM=i2c"));
	assert_false(has_key(ev[4], "DRIVER"));
	assert_true(has_line(ev[5], "ACTION=add") && has_line(ev[5], "SUBSYSTEM=input"));
	g_strfreev(ev);
	out = tu_sys_read(eb, DEVPATH "/uevent");
	assert_contains(out, "DRIVER=atmel_mxt_ts\n");
	g_free(out);
	emub_free(eb);
}

static void test_listeners_come_and_go(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	struct emub_child *c;
	char **ev, *seq;

	(void)state;
	assert_int_equal(emub_listeners(eb), 0);
	/* an event before anyone listens is lost, as with a real kernel */
	assert_int_equal(emub_uevent(eb, "touchscreen", "change"), 0);
	c = monitor(eb, 1);
	assert_int_equal(emub_listeners(eb), 1);
	assert_int_equal(emub_uevent(eb, "touchscreen", "change"), 0);
	ev = events(c);
	/* the lost event still took a sequence number */
	seq = g_strdup_printf("SEQNUM=%" G_GUINT64_FORMAT, (guint64)emub_seqnum(eb));
	assert_true(has_line(ev[1], seq));
	assert_int_equal(g_strv_length(ev), 2);
	g_free(seq);
	g_strfreev(ev);
	assert_int_equal(emub_listeners(eb), 0);
	emub_free(eb);
}

/*
 * Two listeners started alike get sockets with the same descriptor
 * number; umockdev's preload names a listener's socket after that number
 * alone, so the second took the first one's name and the first heard
 * nothing (or the second's monitor failed).  Both hear every event, as
 * every netlink listener does on a kernel (tests/emul/uevent-preload.c).
 */
static void test_two_listeners_alike_both_hear_every_event(void **state)
{
	struct emub *eb = tu_board_file("app.board", false);
	const char *args[] = { "monitor", "2", NULL };
	struct emub_child *a, *b;
	char **ea, **evb;

	(void)state;
	assert_int_equal(emub_wait_idle(eb, "touchscreen", 10000), 0);
	a = tu_spawn_self(eb, args, NULL);
	assert_int_equal(emub_wait_listeners(eb, 1, 10000), 0);
	b = tu_spawn_self(eb, args, NULL);
	assert_int_equal(emub_wait_listeners(eb, 2, 10000), 0);
	assert_int_equal(emub_uevent(eb, "touchscreen", "change"), 0);
	assert_int_equal(emub_uevent(eb, "touchscreen", "change"), 0);
	ea = events(a);
	evb = events(b);
	assert_int_equal(g_strv_length(ea), 3);
	assert_int_equal(g_strv_length(evb), 3);
	for (int i = 1; i <= 2; i++) {
		assert_true(has_line(ea[i], "ACTION=change"));
		assert_true(has_line(evb[i], "ACTION=change"));
	}
	g_strfreev(ea);
	g_strfreev(evb);
	assert_int_equal(emub_listeners(eb), 0);
	emub_free(eb);
}

static void test_udevadm_monitor_sees_bind(void **state)
{
	struct emub *eb = tu_board_file("always-on.board", false);
	const char *argv[] = { "stdbuf",
			       "-oL",
			       "udevadm",
			       "monitor",
			       "--kernel",
			       "--property",
			       "--subsystem-match=i2c",
			       NULL };
	struct emub_child *c;
	const char *out;

	(void)state;
	assert_int_equal(emub_spawn(eb, argv, NULL, true, &c), 0);
	assert_int_equal(emub_wait_listeners(eb, 1, 10000), 0);
	assert_int_equal(emub_unbind(eb, "touchscreen"), 0);
	assert_int_equal(emub_bind(eb, "touchscreen"), 0);
	/* the bind is the last event (the input devices come before it):
	 * once monitor printed its DRIVER line, everything asserted is in */
	assert_int_equal(emub_child_wait_output(c, "DRIVER=atmel_mxt_ts\n", 20000), 0);
	emub_child_wait(c, 0, NULL); /* kills it */
	out = emub_child_stdout(c);
	assert_contains(out, "KERNEL[");
	assert_contains(out, "ACTION=unbind\nDEVPATH=" DEVPATH "\nSUBSYSTEM=i2c\n");
	assert_contains(out, "ACTION=bind\nDEVPATH=" DEVPATH
			     "\nSUBSYSTEM=i2c\nDRIVER=atmel_mxt_ts\n");
	assert_not_contains(out, "input"); /* subsystem filter works */
	emub_child_free(c);
	emub_free(eb);
}

static void test_on_uevent_runs_command_with_environment(void **state)
{
	char *path = g_strdup_printf("%s/tests/emul/boards/always-on.board", tu_top());
	char *dir = tu_tmpdir(), *log = g_build_filename(dir, "log", NULL), *cmd, *out = NULL;
	struct emub *eb;
	char err[256];

	(void)state;
	assert_int_equal(emub_new_from_file(path, &eb, err, sizeof(err)), 0);
	cmd = g_strdup_printf("echo \"$ACTION $SUBSYSTEM ${DRIVER:-none} $OF_NAME $SEQNUM "
			      "${UMOCKDEV_DIR:+in-testbed}\" >> %s",
			      log);
	emub_set_on_uevent(eb, cmd);
	assert_int_equal(emub_start(eb), 0);
	assert_int_equal(emub_unbind(eb, "touchscreen"), 0);
	assert_int_equal(emub_bind(eb, "touchscreen"), 0);
	assert_int_equal(emub_wait_idle(eb, "touchscreen", 10000), 0);
	emub_free(eb); /* drains the runner */
	assert_true(g_file_get_contents(log, &out, NULL, NULL));
	assert_contains(out, "unbind i2c none touchscreen");
	assert_contains(out, "bind i2c atmel_mxt_ts touchscreen");
	assert_contains(out, "in-testbed");
	g_free(out);
	g_free(cmd);
	g_free(log);
	g_free(path);
	tu_rmdir(dir);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unbind_then_bind_environment_and_order),
		cmocka_unit_test(test_coldplug_add_carries_driver),
		cmocka_unit_test(test_sysfs_unbind_and_bind_files),
		cmocka_unit_test(test_no_bind_events_board_sends_add_before_probe),
		cmocka_unit_test(test_listeners_come_and_go),
		cmocka_unit_test(test_two_listeners_alike_both_hear_every_event),
		cmocka_unit_test(test_udevadm_monitor_sees_bind),
		cmocka_unit_test(test_on_uevent_runs_command_with_environment),
	};

	if (argc > 2 && !strcmp(argv[1], "--child") && !strcmp(argv[2], "monitor"))
		return child_monitor(argc > 3 ? atoi(argv[3]) : 1);
	tu_init(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
