// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The udev path end to end: uevents from the emulated kernel run `touchfw
 * handle-event` (emuboard's stand-in for udev's RUN), which hands off to a
 * detached `touchfw run`; its own rebind must be recognised, failures must
 * back off and stop, and the events touchfw must ignore are ignored.
 */
#include <sys/file.h>
#include <time.h>

#include "e2e.h"

static struct e2e E;

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

#define HANDLE_EVENT ""
#define HANDLE_EVENT_ADD_ONLY "--add-only"

/* @he_args: like udev, run handle-event (with these arguments) for every
 * uevent, in the board; NULL: do not. */
static void start(const char *state, const char *fw, const char *extra, const char *he_args)
{
	char *b = e2e_board("touchfw,emul-demo", "mxt224e", state, fw, "driver", extra);

	assert_non_null(b);
	e2e_start_ex(&E, b, he_args);
	free(b);
}

static char *read_file(const char *dir, const char *name)
{
	char path[400];
	char *buf = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (tf_read_file(path, 1 << 20, &buf, &len) < 0)
		return NULL;
	return buf;
}

static unsigned count(const char *hay, const char *needle)
{
	unsigned n = 0;

	while (hay && (hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

static bool state_file_exists(const char *name)
{
	char path[400];

	snprintf(path, sizeof(path), "%s/state/%s", E.dir, name);
	return access(path, F_OK) == 0;
}

static void test_bind_event_updates_and_own_rebind_is_ignored(void **state)
{
	char *he, *log;
	struct e2e_chip c;

	(void)state;
	/* The driver binds at start, as at boot: bind uevent -> handle-event. */
	start("no-image", "1.0.AA", NULL, HANDLE_EVENT);
	e2e_wait_run_done(&E, "1-004a");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	c = e2e_chip(&E);
	assert_int_equal(c.mode, MXT_MODE_APP);
	assert_int_equal(c.version, 0x21);
	he = e2e_keep(&E, read_file(E.dir, "he.log"));
	log = e2e_keep(&E, e2e_state_file(&E, "1-004a.log"));
	/* shown with the program's log if it fails */
	fprintf(stderr, "--- he.log\n%s--- run log\n%s", he ? he : "(none)\n",
		log ? log : "(none)\n");
	assert_non_null(he);
	assert_non_null(log);
	assert_int_equal(count(he, "handed to detached process"), 1);
	assert_int_equal(count(he, "this bind is touchfw's own rebind"), 1);
	/* touchfw's own unbind reached handle-event and was ignored. */
	assert_int_equal(count(he, "1-004a: unbind /devices"), 1);
	assert_int_equal(count(he, "ACTION=unbind is not for touchfw"), 1);
	assert_int_equal(count(log, "verified: firmware"), 1);
}

static void test_coldplug_add_with_driver_is_handled(void **state)
{
	char devpath[400], syspath[300];
	const char *env[] = { "ACTION=add",
			      devpath,
			      "SUBSYSTEM=i2c",
			      "DRIVER=atmel_mxt_ts",
			      "MODALIAS=of:NtouchscreenT(null)Catmel,maxtouch",
			      NULL };

	(void)state;
	/* The driver bound before udevd listened (no handler at start);
	 * coldplug (`udevadm trigger --action=add`) replays "add" with DRIVER. */
	start("no-image", "1.0.AA", NULL, NULL);
	assert_int_equal(emub_dev_syspath(E.eb, "touchscreen", syspath, sizeof(syspath)), 0);
	snprintf(devpath, sizeof(devpath), "DEVPATH=%s", syspath + strlen("/sys"));
	assert_int_equal(e2e_touchfw_env(&E, env, "handle-event", NULL), 0);
	e2e_said(&E, "add (driver atmel_mxt_ts): handed to detached process");
	e2e_wait_run_done(&E, "1-004a");
	assert_int_equal(e2e_chip(&E).version, 0x21);
}

static void test_uptodate_record_holds_until_a_new_probe(void **state)
{
	char devpath[400], syspath[300];
	const char *env[] = { "ACTION=bind", devpath, "SUBSYSTEM=i2c", "DRIVER=atmel_mxt_ts",
			      NULL };

	(void)state;
	start("no-image", "1.0.AA", NULL, NULL);
	assert_int_equal(emub_dev_syspath(E.eb, "touchscreen", syspath, sizeof(syspath)), 0);
	snprintf(devpath, sizeof(devpath), "DEVPATH=%s", syspath + strlen("/sys"));
	e2e_expect(&E, 0, "run", "1-004a");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	/* The bind from the run's own rebind, then a later one. */
	assert_int_equal(e2e_touchfw_env(&E, env, "handle-event", NULL), 0);
	e2e_said(&E, "this bind is touchfw's own rebind");
	assert_int_equal(e2e_touchfw_env(&E, env, "handle-event", NULL), 0);
	e2e_said(&E, "verified up to date earlier");
	/* The driver probes again (a module reload): a new input device, so
	 * the record no longer vouches for the chip behind it. */
	assert_int_equal(emub_unbind(E.eb, "touchscreen"), 0);
	assert_int_equal(emub_bind(E.eb, "touchscreen"), 0);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	{
		char json[400];

		snprintf(json, sizeof(json), "%s/state/1-004a.json", E.dir);
		assert_int_equal(unlink(json), 0);
	}
	assert_int_equal(e2e_touchfw_env(&E, env, "handle-event", NULL), 0);
	e2e_said(&E, "handed to detached process");
	e2e_wait_run_done(&E, "1-004a");
}

static void test_ignored_events_start_nothing(void **state)
{
	static const char *const actions[] = { "change",  "remove", "unbind",	 "online",
					       "offline", "move",   "frobnicate" };
	char env_a[64], env_p[256];
	size_t i;

	(void)state;
	start("no-image", "1.0.AA", NULL, NULL);
	snprintf(env_p, sizeof(env_p), "DEVPATH=/devices/platform/emul/i2c-1/1-004a");
	for (i = 0; i < sizeof(actions) / sizeof(actions[0]); i++) {
		const char *env[] = { env_a, env_p, "SUBSYSTEM=i2c", "DRIVER=atmel_mxt_ts",
				      NULL };

		snprintf(env_a, sizeof(env_a), "ACTION=%s", actions[i]);
		assert_int_equal(e2e_touchfw_env(&E, env, "handle-event", NULL), 0);
		e2e_said(&E, "nothing to do");
		e2e_not_said(&E, "handed to");
	}
	/* add without DRIVER: the bind event will follow. */
	{
		const char *env[] = { "ACTION=add", env_p, "SUBSYSTEM=i2c", NULL };

		assert_int_equal(e2e_touchfw_env(&E, env, "handle-event", NULL), 0);
		e2e_said(&E, "add without DRIVER");
	}
	/* A driver touchfw does not know. */
	{
		const char *env[] = { "ACTION=bind", env_p, "SUBSYSTEM=i2c", "DRIVER=at24",
				      NULL };

		assert_int_equal(e2e_touchfw_env(&E, env, "handle-event", NULL), 0);
		e2e_said(&E, "driver at24 is not a touch driver touchfw knows");
	}
	assert_null(e2e_state_file(&E, "1-004a.log"));
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

static void test_failures_back_off_then_give_up(void **state)
{
	const char *env[] = { "ACTION=bind", "DEVPATH=/devices/platform/emul/i2c-1/1-004a",
			      "SUBSYSTEM=i2c", "DRIVER=atmel_mxt_ts", NULL };
	char *att;
	int i;

	(void)state;
	start("no-image", "1.0.AA", "fault.crc_fail_always = true\n", NULL);
	/* backoff_s = 0 in the test settings: failures count but do not wait. */
	for (i = 1; i <= 2; i++) {
		e2e_expect(&E, 11, "run", "1-004a");
		e2e_said(&E, "the chip is in its bootloader");
	}
	/* A blob that failed twice on this device is not tried again. */
	e2e_expect(&E, 5, "run", "1-004a");
	e2e_said(&E, "its only mxt firmware, mxt224e-fw-2.1.AB, failed here 2 times (last: ");
	e2e_said(&E, "failed 20 times"); /* why, from /var/lib/touchfw */
	e2e_said(&E, "giving up on this device");
	att = e2e_state_file(&E, "1-004a.attempts");
	assert_non_null(strstr(att, "count=3"));
	free(att);
	e2e_expect(&E, 9, "run", "1-004a");
	e2e_said(&E, "gave up after 3 failed attempts");
	/* status says so, not just "no firmware", and exits attention */
	e2e_expect(&E, 20, "status");
	assert_non_null(E.out);
	assert_non_null(strstr(E.out, " gave-up\n"));
	assert_non_null(strstr(E.out, "attempts: 3 failed"));
	assert_int_equal(e2e_touchfw_env(&E, env, "handle-event", NULL), 0);
	e2e_said(&E, "not updating: gave up after 3 failed attempts");
	e2e_not_said(&E, "handed to");
	/* With a backoff, a failure makes the next events wait. */
	e2e_settings(&E, "backoff_s = 3600\nmax_attempts = 10");
	e2e_expect(&E, 5, "run", "1-004a");
	assert_int_equal(e2e_touchfw_env(&E, env, "handle-event", NULL), 0);
	e2e_said(&E, "backing off for");
	e2e_not_said(&E, "handed to");
	e2e_expect(&E, 9, "run", "1-004a");
	e2e_said(&E, "backing off for");
	/* --force retries, the failed blob included (and fails again, cleanly). */
	e2e_expect(&E, 11, "run", "--force", "1-004a");
	assert_int_equal(e2e_chip(&E).mode, MXT_MODE_BOOTLOADER);
}

static void test_second_run_while_locked_exits_locked(void **state)
{
	char path[400];
	int fd;

	(void)state;
	start("no-image", "1.0.AA", NULL, NULL);
	snprintf(path, sizeof(path), "%s/state", E.dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/state/1-004a.lock", E.dir);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	e2e_expect(&E, 8, "run", "1-004a");
	e2e_said(&E, "another touchfw is working on this device");
	/* the bounce is no result of the device's: status, the history and
	 * the metrics keep what the lock's holder will record */
	snprintf(path, sizeof(path), "%s/state/1-004a.json", E.dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/state/1-004a.metrics", E.dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/persist/history/1-004a.jsonl", E.dir);
	assert_int_equal(access(path, F_OK), -1);
	close(fd);
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

static void test_udev_without_bind_events_waits_for_the_driver(void **state)
{
	char *he;

	(void)state;
	/* systemd v240 / mdev: only "add", before the driver binds. */
	start("no-image", "1.0.AA",
	      "bind_events = false\nprobe_delay_ms = 400\nbound = false\n",
	      HANDLE_EVENT_ADD_ONLY);
	assert_int_equal(emub_uevent(E.eb, "touchscreen", "add"), 0);
	assert_int_equal(emub_bind(E.eb, "touchscreen"), 0);
	e2e_wait_run_done(&E, "1-004a");
	he = read_file(E.dir, "he.log");
	assert_non_null(strstr(he, "add (driver none yet): handed to"));
	free(he);
	assert_int_equal(e2e_chip(&E).version, 0x21);
}

/*
 * The same through systemd: touchfw@.service runs a plain `touchfw run`, so
 * handle-event leaves a note (DEVICE.waitbind) that makes that run wait for
 * the driver too.  No systemd here: the hand-off itself fails, as it may,
 * and the test then starts the run as the unit would.
 */
static void test_add_only_leaves_the_unit_a_note_to_wait_for_the_driver(void **state)
{
	const char *env[] = { "ACTION=add", "DEVPATH=/devices/platform/emul/i2c-1/1-004a",
			      "SUBSYSTEM=i2c", "MODALIAS=of:NtouchscreenT(null)Catmel,maxtouch",
			      NULL };
	struct emub_child *child;
	char *note;
	int st;

	(void)state;
	start("no-image", "1.0.AA",
	      "bind_events = false\nprobe_delay_ms = 400\nbound = false\n", NULL);
	e2e_settings(&E, "handoff = systemd\nbind_timeout_ms = 20000");
	e2e_touchfw_env(&E, env, "handle-event", "--add-only", NULL);
	e2e_said(&E, "add (driver none yet)");
	note = e2e_state_file(&E, "1-004a.waitbind");
	assert_non_null(note);
	free(note);
	child = e2e_spawn(&E, "run", "1-004a", NULL);
	/* the run has taken the note (after finding no driver): it waits */
	e2e_wait_until(!state_file_exists("1-004a.waitbind"), emub_child_pid(child), 60000,
		       "the run to take the note");
	assert_int_equal(emub_bind(E.eb, "touchscreen"), 0);
	assert_int_equal(emub_child_wait(child, 60000, &st), 0);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) != 0)
		fail_msg("run exited %d:\n%s", WEXITSTATUS(st), emub_child_stderr(child));
	assert_non_null(strstr(emub_child_stderr(child), "for a driver to bind"));
	emub_child_free(child);
	assert_int_equal(e2e_chip(&E).version, 0x21);
	/* the note is used up */
	assert_null(e2e_state_file(&E, "1-004a.waitbind"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_bind_event_updates_and_own_rebind_is_ignored,
					  teardown),
		cmocka_unit_test_teardown(test_coldplug_add_with_driver_is_handled, teardown),
		cmocka_unit_test_teardown(test_uptodate_record_holds_until_a_new_probe,
					  teardown),
		cmocka_unit_test_teardown(test_ignored_events_start_nothing, teardown),
		cmocka_unit_test_teardown(test_failures_back_off_then_give_up, teardown),
		cmocka_unit_test_teardown(test_second_run_while_locked_exits_locked, teardown),
		cmocka_unit_test_teardown(test_udev_without_bind_events_waits_for_the_driver,
					  teardown),
		cmocka_unit_test_teardown(
			test_add_only_leaves_the_unit_a_note_to_wait_for_the_driver, teardown),
	};

	return cmocka_run_group_tests_name("e2e_events", tests, NULL, NULL);
}
