// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw's own state as an attacker or a broken system leaves it: state
 * directories of another owner or mode, symlinks and FIFOs where state
 * files belong, a count that overflows, a full /run, malformed DEVPATHs,
 * and the environment udev hands to handle-event.  Each test runs the real
 * binaries inside an emulated board and checks that touchfw refuses with a
 * message naming the file (or ignores what is not its own), never follows,
 * hangs, wraps or flashes without a record -- and that the files it must
 * not touch are untouched.
 */
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <time.h>

#include "e2e.h"
#include "exitcode.h"

static struct e2e E;
static bool mounted; /* a tmpfs on E.dir/state */

static int teardown(void **state)
{
	char path[400];

	(void)state;
	if (mounted) {
		snprintf(path, sizeof(path), "%s/state", E.dir);
		umount2(path, MNT_DETACH);
		mounted = false;
	}
	e2e_stop(&E);
	return 0;
}

static void start(const char *state, const char *fw, const char *extra)
{
	char *b = e2e_board("touchfw,emul-demo", "mxt224e", state, fw, "driver", extra);

	assert_non_null(b);
	e2e_start(&E, b);
	free(b);
}

static void path_of(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", E.dir, name);
}

static void mkdir_in(const char *name, mode_t mode)
{
	char path[400];

	path_of(path, sizeof(path), name);
	if (mkdir(path, mode) < 0 && errno != EEXIST)
		fail_msg("mkdir %s: %s", path, strerror(errno));
	assert_int_equal(chmod(path, mode), 0);
}

static void write_in(const char *name, const char *text)
{
	char path[400];

	path_of(path, sizeof(path), name);
	e2e_write(path, text);
}

static char *read_in(const char *name)
{
	char path[400], *buf = NULL;

	path_of(path, sizeof(path), name);
	if (tf_read_file(path, 1 << 20, &buf, NULL) < 0)
		return NULL;
	return buf;
}

/* E.dir/@name, in a static buffer (one at a time). */
static const char *read_path(const char *name)
{
	static char path[400];

	path_of(path, sizeof(path), name);
	return path;
}

static void fifo_in(const char *name)
{
	char path[400];

	path_of(path, sizeof(path), name);
	assert_int_equal(mkfifo(path, 0600), 0);
}

static void symlink_in(const char *name, const char *target)
{
	char path[400];

	path_of(path, sizeof(path), name);
	assert_int_equal(symlink(target, path), 0);
}

/*
 * touchfw with @env and a time limit well under the e2e default: a run
 * that blocks on a FIFO is killed and reported, not waited for a minute.
 */
static int run_tf(int timeout_ms, const char *const *env, ...)
{
	struct e2e_cmd c;
	va_list ap;

	va_start(ap, env);
	e2e_cmd_fill(&E, &c, env, ap);
	va_end(ap);
	free(E.out);
	free(E.err);
	E.out = E.err = NULL;
	E.rc = emub_run(E.eb, c.argv, c.envv, timeout_ms, &E.out, &E.err);
	if (getenv("E2E_VERBOSE"))
		fprintf(stderr, "--- touchfw %s -> %d\n%s%s", c.argv[3], E.rc,
			E.out ? E.out : "", E.err ? E.err : "");
	if (E.rc == -ETIMEDOUT)
		fail_msg("touchfw %s did not finish within %d ms (blocked?)", c.argv[3],
			 timeout_ms);
	return E.rc;
}

#define BIND_ENV(devpath)                                                                  \
	{                                                                                  \
		"ACTION=bind", "DEVPATH=" devpath, "SUBSYSTEM=i2c", "DRIVER=atmel_mxt_ts", \
			NULL                                                               \
	}
#define OUR_DEVPATH "/devices/platform/emul/i2c-1/1-004a"

/* ------------------------------------------------------------ item 12 */

/* The hardware hint lives in /var/lib/touchfw; a symlink planted there
 * must not make root write through it. */
static void test_hw_hint_symlink_is_not_followed(void **state)
{
	char victim[400], *v;
	struct stat sb;

	(void)state;
	start("app", "2.1.AB", NULL);
	mkdir_in("persist", 0700);
	write_in("victim", "precious\n");
	path_of(victim, sizeof(victim), "victim");
	symlink_in("persist/1-004a.hw", victim);
	assert_int_equal(run_tf(30000, NULL, "status", NULL), 0);
	assert_int_equal(run_tf(30000, NULL, "run", "1-004a", NULL), 0);
	v = read_in("victim");
	assert_non_null(v);
	assert_string_equal(v, "precious\n");
	free(v);
	/* The run replaced the link (rename does not follow it) by the hint. */
	path_of(victim, sizeof(victim), "persist/1-004a.hw");
	assert_int_equal(lstat(victim, &sb), 0);
	assert_true(S_ISREG(sb.st_mode));
}

static void test_state_dir_of_another_user_is_refused(void **state)
{
	const char *env[] = BIND_ENV(OUR_DEVPATH);
	char path[400];

	(void)state;
	start("no-image", "1.0.AA", NULL);
	mkdir_in("state", 0700);
	path_of(path, sizeof(path), "state");
	assert_int_equal(chown(path, 65534, 65534), 0);
	assert_int_equal(run_tf(30000, NULL, "run", "1-004a", NULL), 16);
	e2e_said(&E, "state: owned by uid 65534");
	/* handle-event refuses too: no hand-off, no detached run's log. */
	assert_int_equal(run_tf(30000, env, "handle-event", NULL), 16);
	e2e_said(&E, "not updating:");
	e2e_said(&E, "owned by uid 65534");
	e2e_not_said(&E, "handed to");
	assert_null(e2e_state_file(&E, "1-004a.log"));
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

/* An untrusted persistent directory is state touchfw can not use (exit
 * 16), as the state directory is: it decides which blobs are tried. */
static void test_group_writable_persist_dir_is_refused(void **state)
{
	(void)state;
	start("app", "2.1.AB", NULL);
	mkdir_in("persist", 0770);
	assert_int_equal(run_tf(30000, NULL, "run", "1-004a", NULL), TF_EXIT_STATE);
	e2e_said(&E, "persist: writable by group or others (mode 0770)");
	assert_null(read_in("persist/1-004a.hw"));
}

/*
 * A chip in its bootloader with an untrusted persistent directory used to
 * exit 5 (no-firmware), "its only mxt firmware ... failed here 4294967295
 * times": the unreadable directory counted as failures (issue 27 item
 * 10).  Now exit 16 naming the directory; a failure record that is a
 * symlink likewise, naming the record; one that does not parse says so.
 */
static void test_untrusted_persist_dir_is_state_unusable(void **state)
{
	char path[400], name[300] = "";
	struct dirent *de;
	DIR *d;

	(void)state;
	start("no-image", "1.0.AA", "fault.crc_fail_always = true\n");
	mkdir_in("persist", 0700);
	path_of(path, sizeof(path), "persist");
	assert_int_equal(chown(path, 65534, 65534), 0);
	assert_int_equal(run_tf(30000, NULL, "run", "1-004a", NULL), TF_EXIT_STATE);
	e2e_said(&E, "persist: owned by uid 65534");
	e2e_not_said(&E, "4294967295");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
	/* A failure record planted as a symlink. */
	assert_int_equal(chown(path, 0, 0), 0);
	assert_int_equal(run_tf(60000, NULL, "run", "1-004a", NULL), 11);
	path_of(path, sizeof(path), "persist/failed");
	d = opendir(path);
	assert_non_null(d);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "1-004a.", 7))
			snprintf(name, sizeof(name), "persist/failed/%s", de->d_name);
	closedir(d);
	assert_true(name[0]);
	assert_int_equal(unlink(read_path(name)), 0);
	write_in("victim", "failures=1\n");
	path_of(path, sizeof(path), "victim");
	symlink_in(name, path);
	assert_int_equal(run_tf(30000, NULL, "run", "1-004a", NULL), TF_EXIT_STATE);
	e2e_said(&E, ": a symbolic link, refusing to use it");
	e2e_said(&E, "persist/failed/1-004a.");
	e2e_not_said(&E, "4294967295");
}

/* A symlink for the state directory itself, as for the detached run's
 * log: handle-event must not hand off and write through it. */
static void test_state_dir_symlink_is_refused(void **state)
{
	const char *env[] = BIND_ENV(OUR_DEVPATH);
	char elsewhere[400];
	DIR *d;
	struct dirent *de;
	int n = 0;

	(void)state;
	start("no-image", "1.0.AA", NULL);
	mkdir_in("elsewhere", 0700);
	path_of(elsewhere, sizeof(elsewhere), "elsewhere");
	symlink_in("state", elsewhere);
	assert_int_equal(run_tf(30000, env, "handle-event", NULL), 16);
	e2e_said(&E, "state: a symbolic link, refusing to follow it");
	e2e_not_said(&E, "handed to");
	assert_int_equal(run_tf(30000, NULL, "run", "1-004a", NULL), 16);
	d = opendir(elsewhere);
	assert_non_null(d);
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	assert_int_equal(n, 0);
}

/* The kernel-assisted path stages maxtouch.fw in state/firmware: a symlink
 * there made root write (and then unlink) firmware files elsewhere. */
static void test_staging_dir_symlink_is_refused(void **state)
{
	char elsewhere[400], *v;

	(void)state;
	start("app", "1.0.AA", NULL);
	mkdir_in("state", 0700);
	mkdir_in("elsewhere", 0755);
	write_in("elsewhere/maxtouch.fw", "a distribution's firmware\n");
	path_of(elsewhere, sizeof(elsewhere), "elsewhere");
	symlink_in("state/firmware", elsewhere);
	/* An untrusted state file: 16 (state-unusable), as touchfw(8)
	 * says, not 10 (io) -- nothing was flashed. */
	assert_int_equal(run_tf(30000, NULL, "run", "1-004a", NULL), TF_EXIT_STATE);
	e2e_said(&E, "firmware: a symbolic link, refusing to follow it");
	e2e_said(&E, "nothing was flashed");
	v = read_in("elsewhere/maxtouch.fw");
	assert_non_null(v);
	assert_string_equal(v, "a distribution's firmware\n");
	free(v);
	assert_int_equal(e2e_chip(&E).version, 0x10);
}

/* The staging directory of another mode, and the staging lock where a
 * FIFO or a symlink stands: each is state touchfw can not trust (exit 16,
 * issue 27 item 10), the chip untouched. */
static void test_untrusted_staging_dir_or_lock_is_state_unusable(void **state)
{
	char victim[400], *v;

	(void)state;
	start("app", "1.0.AA", NULL);
	mkdir_in("state", 0700);
	mkdir_in("state/firmware", 0777);
	assert_int_equal(run_tf(30000, NULL, "run", "1-004a", NULL), TF_EXIT_STATE);
	e2e_said(&E, "firmware: writable by group or others (mode 0777)");
	mkdir_in("state/firmware", 0700);
	unlink(read_path("state/firmware_class.lock")); /* made by the first run */
	fifo_in("state/firmware_class.lock");
	assert_int_equal(run_tf(15000, NULL, "run", "1-004a", NULL), TF_EXIT_STATE);
	e2e_said(&E, "firmware_class.lock: a FIFO, refusing to use it");
	assert_int_equal(unlink(read_path("state/firmware_class.lock")), 0);
	write_in("victim", "precious\n");
	path_of(victim, sizeof(victim), "victim");
	symlink_in("state/firmware_class.lock", victim);
	assert_int_equal(run_tf(30000, NULL, "run", "1-004a", NULL), TF_EXIT_STATE);
	e2e_said(&E, "firmware_class.lock");
	v = read_in("victim");
	assert_non_null(v);
	assert_string_equal(v, "precious\n");
	free(v);
	assert_int_equal(e2e_chip(&E).version, 0x10);
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

/* ------------------------------------------------------------ item 8 */

static void test_fifo_state_files_do_not_hang(void **state)
{
	const char *env[] = BIND_ENV(OUR_DEVPATH);

	(void)state;
	start("no-image", "1.0.AA", NULL);
	mkdir_in("state", 0700);
	fifo_in("state/1-004a.ownbind");
	assert_int_equal(run_tf(15000, env, "handle-event", NULL), 16);
	e2e_said(&E, "1-004a.ownbind: a FIFO, refusing to use it");
	e2e_not_said(&E, "handed to");
	/* The run holding the device lock. */
	fifo_in("state/1-004a.attempts");
	assert_int_equal(run_tf(15000, NULL, "run", "1-004a", NULL), 16);
	e2e_said(&E, "1-004a.attempts: a FIFO, refusing to use it");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
	/* The lock itself. */
	mkdir_in("state2", 0700);
	fifo_in("state2/1-004a.lock");
	e2e_settings(&E, NULL);
	{
		char conf[2048];
		char *text = read_in("touchfw.conf");

		assert_non_null(text);
		snprintf(conf, sizeof(conf), "%s", text);
		free(text);
		text = strstr(conf, "/state\n");
		assert_non_null(text);
		memmove(text + 7, text + 6, strlen(text + 6) + 1);
		memcpy(text, "/state2", 7);
		write_in("touchfw.conf", conf);
	}
	assert_int_equal(run_tf(15000, NULL, "run", "1-004a", NULL), 16);
	e2e_said(&E, "1-004a.lock: a FIFO, refusing to use it");
	assert_int_equal(run_tf(15000, env, "handle-event", NULL), 16);
	e2e_said(&E, "1-004a.lock: a FIFO, refusing to use it");
}

/* The hint is read for a chip in its bootloader: a FIFO there is named and
 * ignored, and the update goes on. */
static void test_fifo_hw_hint_is_ignored(void **state)
{
	(void)state;
	start("no-image", "1.0.AA", NULL);
	mkdir_in("persist", 0700);
	fifo_in("persist/1-004a.hw");
	assert_int_equal(run_tf(30000, NULL, "run", "1-004a", NULL), 0);
	e2e_said(&E, "hardware hint ignored:");
	e2e_said(&E, "1-004a.hw: a FIFO, refusing to use it");
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	assert_int_equal(e2e_chip(&E).version, 0x21);
}

/* ------------------------------------------------------------ item 10 */

static void test_attempts_count_overflow_is_at_the_limit(void **state)
{
	const char *env[] = BIND_ENV(OUR_DEVPATH);

	(void)state;
	start("no-image", "1.0.AA", NULL);
	mkdir_in("state", 0700);
	/* 2^32: read into an unsigned it was 0, and the limit was gone. */
	write_in("state/1-004a.attempts", "count=4294967296\nnext_allowed=0\nlast_error=x\n");
	assert_int_equal(run_tf(30000, NULL, "run", "1-004a", NULL), 9);
	e2e_said(&E, "1-004a.attempts: corrupt, read as 'at the limit': field count:");
	assert_int_equal(run_tf(30000, env, "handle-event", NULL), 0);
	e2e_said(&E, "not updating: gave up");
	e2e_said(&E, "field count");
	e2e_not_said(&E, "handed to");
	assert_int_equal(run_tf(30000, NULL, "status", NULL), TF_EXIT_ATTENTION);
	assert_non_null(strstr(E.out, " gave-up\n"));
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
	/* --force tries again and leaves a sound record behind. */
	assert_int_equal(run_tf(60000, NULL, "run", "--force", "1-004a", NULL), 0);
	assert_null(e2e_state_file(&E, "1-004a.attempts"));
	assert_int_equal(e2e_chip(&E).version, 0x21);
}

static void test_failure_record_overflow_skips_the_blob(void **state)
{
	char name[300];

	(void)state;
	start("no-image", "1.0.AA", "fault.crc_fail_always = true\n");
	/* One failure records the blob's hash as the file name. */
	assert_int_equal(run_tf(60000, NULL, "run", "1-004a", NULL), 11);
	{
		char path[400];
		DIR *d;
		struct dirent *de;

		path_of(path, sizeof(path), "persist/failed");
		d = opendir(path);
		assert_non_null(d);
		name[0] = '\0';
		while ((de = readdir(d)))
			if (!strncmp(de->d_name, "1-004a.", 7))
				snprintf(name, sizeof(name), "persist/failed/%s", de->d_name);
		closedir(d);
		assert_true(name[0]);
	}
	write_in(name, "failures=4294967297\nlast_error=x\n");
	assert_int_equal(run_tf(30000, NULL, "run", "1-004a", NULL), 5);
	e2e_said(&E, "corrupt: field failures");
	/* what the record says, never a count nobody saw */
	e2e_said(&E, "can not be read");
	e2e_not_said(&E, "4294967295");
	/* attention: the chip is left in its bootloader */
	assert_int_equal(run_tf(30000, NULL, "status", "1-004a", NULL), TF_EXIT_ATTENTION);
	if (!strstr(E.out, "its failure record can not be read") || strstr(E.out, "4294967295"))
		fail_msg("status on a corrupt failure record:\n%s", E.out);
}

/* ------------------------------------------------------------ item 4 */

/* A full /run: the attempt can not be recorded, so nothing is flashed. */
static void test_full_state_dir_does_not_flash(void **state)
{
	char path[400], fill[400];
	static char block[4096];
	int fd;

	(void)state;
	if (geteuid() != 0)
		skip();
	start("no-image", "1.0.AA", NULL);
	/* A mount namespace of this test program, so the tmpfs is nobody
	 * else's; private so nothing propagates to the host. */
	assert_int_equal(unshare(CLONE_NEWNS), 0);
	assert_int_equal(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	mkdir_in("state", 0700);
	path_of(path, sizeof(path), "state");
	assert_int_equal(mount("tmpfs", path, "tmpfs", 0, "size=64k,mode=0700"), 0);
	mounted = true;
	path_of(fill, sizeof(fill), "state/filler");
	fd = open(fill, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	memset(block, 'x', sizeof(block));
	while (write(fd, block, sizeof(block)) > 0)
		;
	assert_int_equal(errno, ENOSPC);
	close(fd);
	assert_int_equal(run_tf(60000, NULL, "run", "1-004a", NULL), 16);
	e2e_said(&E, "the attempt can not be recorded");
	e2e_said(&E, "No space left on device");
	e2e_said(&E, "nothing was flashed");
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
	assert_int_equal(e2e_chip(&E).mode, MXT_MODE_BOOTLOADER);
	/* Room again: the same run flashes. */
	assert_int_equal(unlink(fill), 0);
	assert_int_equal(run_tf(60000, NULL, "run", "1-004a", NULL), 0);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	assert_int_equal(e2e_chip(&E).version, 0x21);
}

/* ------------------------------------------------------------ item 9 */

static void test_malformed_devpath_only_refuses_own_events(void **state)
{
	static const char *const bad[] = {
		"DEVPATH=/devices/platform/emul/i2c-1/..",
		"DEVPATH=/devices/platform/emul/i2c-1/1-004a\nX",
		"DEVPATH=/devices/platform/emul/i2c-1/1-004a/",
		"DEVPATH=/devices/platform/emul/i2c-1/"
		"1-004a12345678901234567890123456789012345678901234567890123456789012345"
		"678901234567890123456789012345678901",
	};
	size_t i;

	(void)state;
	start("no-image", "1.0.AA", NULL);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *remove[] = { "ACTION=remove", bad[i], "SUBSYSTEM=i2c", NULL };
		const char *unbind[] = { "ACTION=unbind", bad[i], "SUBSYSTEM=i2c", NULL };
		const char *usb[] = { "ACTION=bind", bad[i], "SUBSYSTEM=usb", "DRIVER=usbhid",
				      NULL };
		const char *ours[] = { "ACTION=bind", bad[i], "SUBSYSTEM=i2c",
				       "DRIVER=atmel_mxt_ts", NULL };

		assert_int_equal(run_tf(30000, remove, "handle-event", NULL), 0);
		e2e_not_said(&E, "refusing");
		assert_int_equal(run_tf(30000, unbind, "handle-event", NULL), 0);
		e2e_not_said(&E, "refusing");
		assert_int_equal(run_tf(30000, usb, "handle-event", NULL), 0);
		e2e_not_said(&E, "refusing");
		assert_int_equal(run_tf(30000, ours, "handle-event", NULL), 7);
		e2e_said(&E, "refusing the event: its DEVPATH is unusable");
		e2e_not_said(&E, "handed to");
	}
	assert_int_equal(e2e_chip(&E).stats.frames_passed, 0);
}

/* ------------------------------------------------------------ item 14 */

/* handle-event without --config, run as udev runs it: $TOUCHFW_CONFIG in
 * its environment (a uevent may carry any variable) is not its settings. */
static void test_handle_event_ignores_touchfw_config_from_the_event(void **state)
{
	char confenv[400], bin[400];
	const char *argv[] = { bin, "handle-event", NULL };
	const char *env[] = { "ACTION=bind",
			      "DEVPATH=" OUR_DEVPATH,
			      "SUBSYSTEM=i2c",
			      "DRIVER=atmel_mxt_ts",
			      "TOUCHFW_LOG_LEVEL=debug",
			      confenv,
			      NULL };

	(void)state;
	start("no-image", "1.0.AA", NULL);
	write_in("evil.conf", "[touchfw]\nenabled = no\n");
	snprintf(confenv, sizeof(confenv), "TOUCHFW_CONFIG=%s/evil.conf", E.dir);
	snprintf(bin, sizeof(bin), "%s/touchfw", E.build);
	free(E.out);
	free(E.err);
	E.out = E.err = NULL;
	E.rc = emub_run(E.eb, argv, env, 30000, &E.out, &E.err);
	assert_int_equal(E.rc, 0);
	e2e_not_said(&E, "disabled in the settings");
	e2e_not_said(&E, "evil.conf");
}

/* systemctl by its path, not the first one in udev's (or anyone's) $PATH. */
static void test_handoff_runs_systemctl_by_path(void **state)
{
	char pathenv[600], fake[400], script[600];
	const char *env[] = { "ACTION=bind",   "DEVPATH=" OUR_DEVPATH,
			      "SUBSYSTEM=i2c", "DRIVER=atmel_mxt_ts",
			      pathenv,	       NULL };

	(void)state;
	start("no-image", "1.0.AA", NULL);
	e2e_settings(&E, "handoff = systemd");
	mkdir_in("bin", 0755);
	snprintf(script, sizeof(script), "#!/bin/sh\ntouch '%s/fake-systemctl-ran'\nexit 0\n",
		 E.dir);
	write_in("bin/systemctl", script);
	path_of(fake, sizeof(fake), "bin/systemctl");
	assert_int_equal(chmod(fake, 0755), 0);
	snprintf(pathenv, sizeof(pathenv), "PATH=%s/bin:/usr/sbin:/usr/bin:/sbin:/bin", E.dir);
	run_tf(30000, env, "handle-event", NULL);
	e2e_not_said(&E, "handed to systemctl");
	path_of(fake, sizeof(fake), "fake-systemctl-ran");
	assert_int_equal(access(fake, F_OK), -1);
}

/* Process @pid runs inside this test's board (its UMOCKDEV_DIR): test
 * programs run side by side (tests/run-tests), each with boards of its own. */
static bool in_our_board(const char *pid)
{
	char path[300], want[600], *env = NULL;
	size_t len = 0, i;
	bool ours = false;

	snprintf(path, sizeof(path), "/proc/%s/environ", pid);
	if (tf_read_file(path, 1 << 20, &env, &len) < 0)
		return false;
	snprintf(want, sizeof(want), "UMOCKDEV_DIR=%s", emub_root(E.eb));
	for (i = 0; i < len; i += strlen(env + i) + 1)
		if (!strcmp(env + i, want))
			ours = true;
	free(env);
	return ours;
}

/* The detached run of `touchfw run` whose executable is the agent, or 0. */
static pid_t find_detached_run(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t found = 0;

	assert_non_null(d);
	while (!found && (de = readdir(d))) {
		char path[300], exe[PATH_MAX], *cmd = NULL;
		size_t len = 0, i;
		ssize_t n;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/exe", de->d_name);
		n = readlink(path, exe, sizeof(exe) - 1);
		if (n <= 0)
			continue;
		exe[n] = '\0';
		if (strncmp(exe, E.build, strlen(E.build)) || !strstr(exe, "/touchfw-agent"))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/cmdline", de->d_name);
		if (tf_read_file(path, 65536, &cmd, &len) < 0)
			continue;
		for (i = 0; i + 1 < len; i++)
			if (!strcmp(cmd + i, "run") && (i == 0 || cmd[i - 1] == '\0'))
				found = (pid_t)atoi(de->d_name);
		free(cmd);
		if (found && !in_our_board(de->d_name))
			found = 0; /* another test program's, run at the same time */
	}
	closedir(d);
	return found;
}

/* The detached run gets a clean environment and `--` before the device. */
static void test_detached_run_gets_a_clean_environment(void **state)
{
	const char *env[] = {
		"ACTION=add",	      "DEVPATH=" OUR_DEVPATH,
		"SUBSYSTEM=i2c",      "MODALIAS=of:NtouchscreenT(null)Catmel,maxtouch",
		"FROM_A_UDEV_RULE=1", NULL
	};
	char path[300], *buf = NULL;
	size_t len = 0, i;
	pid_t pid = 0;
	int waited;
	bool dashdash = false;

	(void)state;
	start("no-image", "1.0.AA", "bind_events = false\nbound = false\n");
	e2e_settings(&E, "bind_timeout_ms = 20000");
	/* --add-only: the run waits for a driver that does not come yet. */
	assert_int_equal(run_tf(30000, env, "handle-event", "--add-only", NULL), 0);
	e2e_said(&E, "handed to detached process");
	for (waited = 0; waited < 10000 && !(pid = find_detached_run()); waited += 50)
		usleep(50000);
	assert_true(pid > 0);
	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	assert_int_equal(tf_read_file(path, 1 << 20, &buf, &len), 0);
	for (i = 0; i < len; i += strlen(buf + i) + 1) {
		if (!strncmp(buf + i, "FROM_A_UDEV_RULE=", 17) ||
		    !strncmp(buf + i, "ACTION=", 7) || !strncmp(buf + i, "DEVPATH=", 8) ||
		    !strncmp(buf + i, "MODALIAS=", 9))
			fail_msg("the detached run inherited %s", buf + i);
	}
	free(buf);
	buf = NULL;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	assert_int_equal(tf_read_file(path, 65536, &buf, &len), 0);
	for (i = 0; i < len; i += strlen(buf + i) + 1)
		if (!strcmp(buf + i, "--") && i + 3 < len && !strcmp(buf + i + 3, "1-004a"))
			dashdash = true;
	free(buf);
	assert_true(dashdash);
	kill(pid, SIGKILL);
}

/* ------------------------------------------------------------ item 5 */

/* Every file in touchfw's state directories, with size and content. */
static char *snapshot_state(void)
{
	char cmd[1200], *out = NULL;
	size_t len = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && find state persist -printf '%%p %%y %%s\\n' 2>/dev/null | sort; "
		 "cd '%s' && find state persist -type f -exec cat {} + 2>/dev/null",
		 E.dir, E.dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	out = calloc(1, 1 << 16);
	assert_non_null(out);
	len = fread(out, 1, (1 << 16) - 1, p);
	out[len] = '\0';
	pclose(p);
	return out;
}

/* status, probe and run --dry-run read; they bind nothing, leave no
 * own-bind marker (which would swallow the next real bind), no hint, no
 * lock file, no state directory. */
static void test_read_only_commands_change_nothing(void **state)
{
	static const char *const cmds[][3] = {
		{ "status", NULL, NULL },
		{ "probe", NULL, NULL },
		{ "run", "--dry-run", "1-004a" },
	};
	char *before, *after;
	size_t i;

	(void)state;
	/* power = driver, the driver unbound: the chip is off. */
	start("app", "1.0.AA", NULL);
	assert_int_equal(emub_unbind(E.eb, "touchscreen"), 0);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	assert_false(emub_dev_bound(E.eb, "touchscreen"));
	before = snapshot_state();
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		run_tf(30000, NULL, cmds[i][0], cmds[i][1], cmds[i][2], NULL);
		assert_false(emub_dev_bound(E.eb, "touchscreen"));
		after = snapshot_state();
		if (strcmp(before, after))
			fail_msg("touchfw %s changed the state directories:\n--- before\n%s"
				 "--- after\n%s",
				 cmds[i][0], before, after);
		free(after);
	}
	e2e_said(&E, "a dry run does not bind it");
	/* The same with the driver bound and the chip known: still no hint,
	 * no marker, no lock file. */
	assert_int_equal(emub_bind(E.eb, "touchscreen"), 0);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		assert_int_equal(run_tf(30000, NULL, cmds[i][0], cmds[i][1], cmds[i][2], NULL),
				 0);
		after = snapshot_state();
		if (strcmp(before, after))
			fail_msg("touchfw %s changed the state directories:\n--- before\n%s"
				 "--- after\n%s",
				 cmds[i][0], before, after);
		free(after);
	}
	assert_int_equal(e2e_chip(&E).version, 0x10);
	free(before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_hw_hint_symlink_is_not_followed, teardown),
		cmocka_unit_test_teardown(test_state_dir_of_another_user_is_refused, teardown),
		cmocka_unit_test_teardown(test_group_writable_persist_dir_is_refused, teardown),
		cmocka_unit_test_teardown(test_untrusted_persist_dir_is_state_unusable,
					  teardown),
		cmocka_unit_test_teardown(test_state_dir_symlink_is_refused, teardown),
		cmocka_unit_test_teardown(test_staging_dir_symlink_is_refused, teardown),
		cmocka_unit_test_teardown(test_untrusted_staging_dir_or_lock_is_state_unusable,
					  teardown),
		cmocka_unit_test_teardown(test_fifo_state_files_do_not_hang, teardown),
		cmocka_unit_test_teardown(test_fifo_hw_hint_is_ignored, teardown),
		cmocka_unit_test_teardown(test_attempts_count_overflow_is_at_the_limit,
					  teardown),
		cmocka_unit_test_teardown(test_failure_record_overflow_skips_the_blob,
					  teardown),
		cmocka_unit_test_teardown(test_full_state_dir_does_not_flash, teardown),
		cmocka_unit_test_teardown(test_malformed_devpath_only_refuses_own_events,
					  teardown),
		cmocka_unit_test_teardown(
			test_handle_event_ignores_touchfw_config_from_the_event, teardown),
		cmocka_unit_test_teardown(test_handoff_runs_systemctl_by_path, teardown),
		cmocka_unit_test_teardown(test_detached_run_gets_a_clean_environment, teardown),
		cmocka_unit_test_teardown(test_read_only_commands_change_nothing, teardown),
	};

	return cmocka_run_group_tests_name("e2e_state", tests, NULL, NULL);
}
