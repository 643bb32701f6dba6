// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * End to end on an emulated Silead tablet: an x86 machine identified by
 * DMI whose GSL1680 is the ACPI client i2c-MSSL1680:00, judged by the
 * Silead chip model and the emulated silead_ts driver
 * (tests/emul/host/drv_silead.c).  The driver's probe fails without its
 * firmware file -- only an add, no bind -- and touchfw stages the board's
 * blob under the name the driver requests, binds, and verifies the input
 * device's axes against the profile; on a bind with another tablet's file
 * it shadows that file (never touching it) and rebinds; with the right
 * file already in place it does nothing.  Faults: a chip that never runs
 * the program, axes the kernel's properties make different from the
 * profile's, a machine no profile describes, a dry run.
 */
#include "emub-silead.h"
#include "e2e.h"

#include <sys/stat.h>

#include "exitcode.h"
#include "silead_model.h"

#define DEV "i2c-MSSL1680:00"
#define FW_NAME "silead/gsl1680-emul-tablet.fw"
#define RIGHT "silead/emul-tablet-1.fw" /* in the demo database */
#define OTHER "silead/emul-other-1.fw"

static struct e2e E;

#define expect_rc(want, ...)                                                              \
	do {                                                                              \
		int rc_ = e2e_touchfw(&E, __VA_ARGS__);                                   \
		if (rc_ != (want))                                                        \
			fprintf(stderr, "exit %d, expected %d; touchfw said:\n%s\n", rc_, \
				(int)(want), E.err ? E.err : "");                         \
		assert_int_equal(rc_, (want));                                            \
	} while (0)

static int teardown(void **state)
{
	(void)state;
	e2e_stop(&E);
	return 0;
}

/*
 * The tablet (tests/emul/boards/silead-tablet.board): @distro_blob, when
 * not NULL, is the database blob the distribution ships as the driver's
 * file, in the directory touchfw's settings call /lib/firmware (the
 * board's firmware_dirs too); @dmi_product the DMI product name; @props
 * the kernel's properties (chip keys); @handle_event: uevents run touchfw
 * handle-event.
 */
static void start_tablet(const char *distro_blob, const char *dmi_product, const char *props,
			 bool handle_event)
{
	char *b = NULL, *fwdir = NULL, err[512] = "", cmd[1200];

	e2e_prepare(&E, "[board]\nname = placeholder\ncompatible = a,b\n[adapter 9]\n",
		    handle_event ? "" : NULL);
	emub_free(E.eb);
	E.eb = NULL;
	assert_true(asprintf(&fwdir, "%s/firmware", E.dir) > 0);
	if (distro_blob) {
		snprintf(cmd, sizeof(cmd), "mkdir -p '%s/silead' && cp '%s/%s' '%s/%s'", fwdir,
			 E.db, distro_blob, fwdir, FW_NAME);
		assert_int_equal(system(cmd), 0);
	}
	assert_true(asprintf(&b,
			     "[board]\n"
			     "name = touchfw e2e Silead tablet\n"
			     "dmi.sys_vendor = touchfw\n"
			     "dmi.product_name = %s\n"
			     "pacing = fast\n"
			     "firmware_dirs = %s\n"
			     "[adapter 1]\n"
			     "name = touchfw emulated adapter 1\n"
			     "speed = 400000\n"
			     "[chip touchscreen]\n"
			     "adapter = 1\n"
			     "address = 0x40\n"
			     "model = silead\n"
			     "acpi_id = MSSL1680\n"
			     "driver = silead_ts\n"
			     "power = driver\n"
			     "power_gpio = 0\n"
			     "chg_gpio = 1\n"
			     "silead.firmware_seed = 1/4\n"
			     "silead.firmware_name = gsl1680-emul-tablet.fw\n"
			     "%s"
			     "[gpiochip]\n"
			     "lines = 8\n",
			     dmi_product ? dmi_product : "Emulated Silead Tablet", fwdir,
			     props ? props
				   : "touchscreen.size_x = 1960\ntouchscreen.size_y = 1500\n"
				     "touchscreen.swapped_x_y = true\n") > 0);
	if (emub_new_from_string(b, E.dir, &E.eb, err, sizeof(err)) < 0)
		fail_msg("board: %s", err);
	if (getenv("E2E_LOG"))
		emub_set_log(E.eb, stderr);
	if (handle_event) {
		char *he = NULL;

		assert_true(asprintf(&he,
				     "TOUCHFW_LOG_LEVEL=debug '%s/touchfw' --config '%s' "
				     "handle-event >>'%s/he.log' 2>&1",
				     E.build, E.conf, E.dir) > 0);
		emub_set_on_uevent(E.eb, he);
		free(he);
	}
	free(b);
	free(fwdir);
	e2e_go(&E);
	assert_int_equal(emub_wait_idle(E.eb, "touchscreen", 10000), 0);
}

struct chip {
	bool running, ok;
	struct silead_model_stats stats;
};

static struct chip chip(void)
{
	struct silead_model *m;
	struct chip c;

	emub_lock(E.eb);
	m = emub_chip_silead(E.eb, "touchscreen");
	assert_non_null(m);
	c.running = silead_model_running(m);
	c.ok = silead_model_program_ok(m);
	c.stats = *silead_model_stats(m);
	emub_unlock(E.eb);
	return c;
}

static char *fw_param(void)
{
	char path[400], *s = NULL;
	size_t n;

	snprintf(path, sizeof(path), "%s/sys/module/firmware_class/parameters/path",
		 emub_root(E.eb));
	if (tf_read_file(path, 4096, &s, &n) < 0)
		return NULL;
	return s;
}

/* ------------------------------------------------------------ tests */

/* The tablet as it boots without the file: probe failed, only an add;
 * `touchfw run` stages the blob, binds, and proves the input device. */
static void test_missing_file_staged_and_bound(void **state)
{
	char *p;

	(void)state;
	start_tablet(NULL, NULL, NULL, false);
	assert_false(emub_dev_bound(E.eb, "touchscreen"));
	assert_false(chip().running);
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "silead_ts not bound: the chip holds no program");
	e2e_said(&E, "staged silead-emul-tablet-1 as ");
	e2e_said(&E, FW_NAME);
	e2e_said(&E, "input event0: ABS_MT_POSITION_X/Y maxima 1499/1959, as the board "
		     "profile gives");
	e2e_said(&E, "verified: silead_ts bound with silead-emul-tablet-1");
	e2e_said(&E, "updated: silead-emul-tablet-1, driver silead_ts, input event0");
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	assert_true(chip().ok);
	assert_int_equal(chip().stats.words_written, 4 * 32);
	/* the loader's path is given back */
	p = fw_param();
	assert_non_null(p);
	assert_null(strstr(p, "firmware")); /* empty again */
	free(p);
	/* Run again (the driver's own bind handled late): the input device
	 * touchfw verified is still there, so the driver has not probed since
	 * and runs that file, though it is no longer staged. */
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "silead_ts has not probed since a run verified input event0");
	e2e_said(&E, "up to date: silead-emul-tablet-1, driver silead_ts, input event0");
	e2e_not_said(&E, "staged");
	assert_int_equal(chip().stats.words_written, 4 * 32);
}

/*
 * Issue 26 item 8: silead_ts's resume loads the firmware file again when
 * the chip lost its program in suspend, long after touchfw's staging is
 * gone.  The run installs the file it verified where the loader finds it
 * by itself (the settings' firmware directory), recorded; the emulated
 * driver's suspend and resume then reload it; 'touchfw forget' removes it.
 */
static void test_resume_after_the_run_reloads_the_installed_file(void **state)
{
	char path[600], blob[1400], *p;
	unsigned words;

	(void)state;
	start_tablet(NULL, NULL, NULL, false);
	expect_rc(TF_EXIT_OK, "run", DEV);
	snprintf(path, sizeof(path), "%s/firmware/%s", E.dir, FW_NAME);
	e2e_said(&E, "installed silead-emul-tablet-1 as ");
	e2e_said(&E, path);
	/* the same bytes as the database's blob; touchfw's staging is gone */
	snprintf(blob, sizeof(blob), "cmp -s '%s' '%s/%s'", path, E.db, RIGHT);
	assert_int_equal(system(blob), 0);
	p = fw_param();
	assert_non_null(p);
	assert_null(strstr(p, "firmware"));
	free(p);
	/* suspend and resume: the program is lost and loaded again */
	words = chip().stats.words_written;
	assert_int_equal(emub_suspend_resume(E.eb, "touchscreen"), 0);
	assert_true(chip().ok);
	assert_true(chip().stats.words_written > words);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
	/* a second run finds the driver running that file: nothing to do,
	 * nothing written again */
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_not_said(&E, "installed");
	/* forget removes what touchfw installed; a resume then fails as it
	 * did before touchfw */
	expect_rc(TF_EXIT_OK, "forget", DEV);
	e2e_said(&E, "the firmware file touchfw installed");
	assert_int_equal(access(path, F_OK), -1);
	assert_int_not_equal(emub_suspend_resume(E.eb, "touchscreen"), 0);
	assert_false(chip().ok);
}

/* A file of the same name touchfw did not write stays (the run says so);
 * --force replaces it. */
static void test_foreign_file_is_not_replaced_without_force(void **state)
{
	char path[600], cmd[1400];

	(void)state;
	start_tablet(OTHER, NULL, NULL, false);
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "exists and touchfw did not write it");
	e2e_said(&E, "'touchfw run --force " DEV "' replaces it");
	snprintf(path, sizeof(path), "%s/firmware/%s", E.dir, FW_NAME);
	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s/%s'", path, E.db, OTHER);
	assert_int_equal(system(cmd), 0);
	/* a resume reloads that file: the wrong program */
	assert_int_equal(emub_suspend_resume(E.eb, "touchscreen"), 0);
	assert_false(chip().ok);
	expect_rc(TF_EXIT_OK, "run", "--force", DEV);
	e2e_said(&E, "over a file touchfw did not write (--force)");
	snprintf(cmd, sizeof(cmd), "cmp -s '%s' '%s/%s'", path, E.db, RIGHT);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(emub_suspend_resume(E.eb, "touchscreen"), 0);
	assert_true(chip().ok);
}

/* udev's add (the probe failed, no bind follows) reaches touchfw. */
static void test_add_event_runs_touchfw(void **state)
{
	char path[400], *log = NULL;
	size_t n;

	(void)state;
	start_tablet(NULL, NULL, NULL, true);
	assert_int_equal(emub_replug(E.eb, "touchscreen"), 0);
	e2e_wait_run_done(&E, DEV);
	snprintf(path, sizeof(path), "%s/he.log", E.dir);
	assert_int_equal(tf_read_file(path, 1 << 20, &log, &n), 0);
	e2e_keep(&E, log);
	if (!emub_dev_bound(E.eb, "touchscreen"))
		fail_msg("not bound; handle-event said:\n%s", log);
	assert_non_null(strstr(log, "add"));
	assert_true(chip().ok);
}

/* Bound with another tablet's file from the distribution's directory: the
 * touch never works.  touchfw's copy goes first in the loader's path and
 * the driver probes again; the distribution's file is left as it was. */
static void test_wrong_file_shadowed(void **state)
{
	char path[600], *before = NULL, *after = NULL;
	size_t n1, n2;

	(void)state;
	start_tablet(OTHER, NULL, NULL, false);
	assert_true(emub_dev_bound(E.eb, "touchscreen")); /* the wrong file binds */
	assert_true(chip().running);
	assert_false(chip().ok);
	snprintf(path, sizeof(path), "%s/firmware/%s", E.dir, FW_NAME);
	assert_int_equal(tf_read_file(path, 1 << 20, &before, &n1), 0);
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "is not silead-emul-tablet-1: touchfw's copy goes first");
	e2e_said(&E, "rebind: unbinding silead_ts");
	assert_true(chip().ok);
	assert_int_equal(tf_read_file(path, 1 << 20, &after, &n2), 0);
	assert_int_equal(n1, n2);
	assert_memory_equal(before, after, n1);
	free(before);
	free(after);
}

/* The same through udev: the driver's bind with the other tablet's file
 * runs touchfw, which rebinds it with the board's. */
static void test_bind_event_with_wrong_file(void **state)
{
	(void)state;
	start_tablet(OTHER, NULL, NULL, true);
	assert_false(chip().ok);
	assert_int_equal(emub_unbind(E.eb, "touchscreen"), 0);
	assert_int_equal(emub_bind(E.eb, "touchscreen"), 0);
	/* the program runs before the probe returns: wait for its run */
	e2e_wait_run_done(&E, DEV);
	assert_true(chip().ok);
	assert_true(emub_dev_bound(E.eb, "touchscreen"));
}

/* The right file is already where the driver finds it: nothing to do. */
static void test_right_file_nothing_to_do(void **state)
{
	struct chip c0;

	(void)state;
	start_tablet(RIGHT, NULL, NULL, false);
	assert_true(chip().ok);
	c0 = chip();
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "firmware: keep: silead_ts already loads " FW_NAME " from ");
	e2e_said(&E, "up to date: silead-emul-tablet-1, driver silead_ts, input event0");
	e2e_not_said(&E, "staged");
	assert_int_equal(chip().stats.words_written, c0.stats.words_written);
}

/*
 * probe, run --dry-run and run take one decision (issue 26 item 7): the
 * plan's.  @action is probe's ACTION column and @reason part of its
 * firmware line, the plan's reason, which both runs log as well; their
 * decision line starts with @decision; @dry is the dry run's message
 * (NULL: the real run's, as for a chip kept as it is) and @result the
 * real run's.  Neither the probe nor the dry run writes.
 */
static void one_decision(const char *action, const char *reason, const char *decision,
			 const char *dry, const char *result)
{
	char want[600];
	const char *line;
	unsigned words = chip().stats.words_written;

	expect_rc(TF_EXIT_OK, "probe", DEV);
	snprintf(want, sizeof(want), " %s\n", action);
	line = E.out ? strstr(E.out, "\n  firmware: ") : NULL;
	if (!E.out || !strstr(E.out, want) || !line || !strstr(line, reason) ||
	    strchr(line + 1, '\n') < strstr(line, reason))
		fail_msg("probe's action is not \"%s\" or its firmware line lacks \"%s\":\n%s",
			 action, reason, E.out ? E.out : "");
	assert_int_equal(chip().stats.words_written, words);
	for (int real = 0; real < 2; real++) {
		if (real)
			expect_rc(TF_EXIT_OK, "run", DEV);
		else
			expect_rc(TF_EXIT_OK, "run", "--dry-run", DEV);
		e2e_said(&E, decision);
		e2e_said(&E, reason);
		e2e_said(&E, real || !dry ? result : dry);
		if (!real)
			assert_int_equal(chip().stats.words_written, words);
	}
}

/* The right file in place: probe, dry run and run all keep it, and the
 * run says so, not "install" and then "up to date". */
static void test_right_file_one_decision(void **state)
{
	struct chip c0;

	(void)state;
	start_tablet(RIGHT, NULL, NULL, false);
	c0 = chip();
	one_decision("none", ", the same bytes as silead-emul-tablet-1",
		     "firmware: keep: silead_ts already loads ", NULL,
		     "up to date: silead-emul-tablet-1, driver silead_ts, input event0");
	e2e_not_said(&E, "firmware: install");
	e2e_not_said(&E, "staged");
	assert_int_equal(chip().stats.words_written, c0.stats.words_written);
	/* after a run that staged it (no longer staged), the same */
	e2e_stop(&E);
	start_tablet(NULL, NULL, NULL, false);
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "updated: silead-emul-tablet-1");
	c0 = chip();
	one_decision("none", "silead_ts has not probed since a run verified input event0",
		     "firmware: keep: ", NULL,
		     "up to date: silead-emul-tablet-1, driver silead_ts, input event0");
	e2e_not_said(&E, "firmware: install");
	assert_int_equal(chip().stats.words_written, c0.stats.words_written);
}

/* Another tablet's file in place: probe, dry run and run all install the
 * board's, saying that the driver loads other bytes. */
static void test_other_file_one_decision(void **state)
{
	(void)state;
	start_tablet(OTHER, NULL, NULL, false);
	one_decision("flash 1", "silead_ts finds another " FW_NAME " in /",
		     "firmware: install silead-emul-tablet-1",
		     "would stage firmware silead-emul-tablet-1 (1056 bytes) as " FW_NAME,
		     "updated: silead-emul-tablet-1, driver silead_ts, input event0");
	assert_true(chip().ok);
}

/* The chip never runs the program (status stays 0): no bind, exit 12. */
static void test_program_never_runs(void **state)
{
	(void)state;
	start_tablet(NULL, NULL,
		     "touchscreen.size_x = 1960\ntouchscreen.size_y = 1500\n"
		     "touchscreen.swapped_x_y = true\nfault.never_starts = true\n",
		     false);
	expect_rc(TF_EXIT_VERIFY, "run", DEV);
	/* The emulator's bind write returns at once (a real one returns the
	 * probe's error): touchfw sees the probe fail, or sees the driver
	 * link of the probe and then no input device from an unbound driver. */
	if (!strstr(E.err, "the driver's probe failed") && !strstr(E.err, "(driver not bound)"))
		fail_msg("no failed probe in touchfw's output:\n%s", E.err);
	assert_false(emub_dev_bound(E.eb, "touchscreen"));
	assert_false(chip().running);
}

/* The kernel's properties give other axes than the profile (no swap):
 * the input device proves the mismatch, exit 12. */
static void test_axes_differ_from_profile(void **state)
{
	(void)state;
	start_tablet(NULL, NULL, "touchscreen.size_x = 1960\ntouchscreen.size_y = 1500\n",
		     false);
	expect_rc(TF_EXIT_VERIFY, "run", DEV);
	e2e_said(&E, "has ABS_MT_POSITION_X/Y maxima 1959/1499, but the board profile gives "
		     "1499/1959");
	e2e_error_names_device(E.err, "has ABS_MT_POSITION_X/Y maxima", DEV);
}

/* A tablet no profile describes (another DMI product): exit 4, the
 * driver stays unbound, nothing staged. */
static void test_no_profile_for_this_dmi(void **state)
{
	(void)state;
	start_tablet(NULL, "Some Other Tablet", NULL, false);
	expect_rc(TF_EXIT_NO_PROFILE, "run", DEV);
	assert_false(emub_dev_bound(E.eb, "touchscreen"));
	e2e_not_said(&E, "staged");
}

static void test_dry_run(void **state)
{
	(void)state;
	start_tablet(NULL, NULL, NULL, false);
	expect_rc(TF_EXIT_OK, "run", "--dry-run", DEV);
	e2e_said(&E, "would stage firmware silead-emul-tablet-1 (1056 bytes) as " FW_NAME);
	assert_false(emub_dev_bound(E.eb, "touchscreen"));
}

/* A database of the tablet's own, made with `touchfw db init` and signed
 * with the build's demo key, holding nothing: the settings' db_dir. */
static void empty_db(void)
{
	char key[400];

	snprintf(E.db, sizeof(E.db), "%s/db", E.dir);
	e2e_settings(&E, NULL);
	expect_rc(TF_EXIT_OK, "db", "init", E.db);
	snprintf(key, sizeof(key), "%s/keys/build-demo.key", E.build);
	expect_rc(TF_EXIT_OK, "db", "sign", "--key", key, "--db", E.db);
}

/* The database has nothing for the tablet and the driver's probe failed:
 * the chip holds no program, so touch can not work -- never "up to
 * date", but no-firmware, naming the file the driver wants, the board
 * the database lacks and how to add it (issue 26 item 1). */
static void test_no_firmware_is_no_success(void **state)
{
	(void)state;
	start_tablet(NULL, NULL, NULL, false);
	empty_db();
	expect_rc(TF_EXIT_NO_FIRMWARE, "run", DEV);
	e2e_not_said(&E, "up to date");
	e2e_said(&E, "the chip holds no program, silead_ts loads " FW_NAME " at every probe");
	e2e_said(&E, "has no silead firmware for board touchfw,emul-silead-tablet");
	e2e_said(&E, "'touchfw db add FILE --board touchfw,emul-silead-tablet'");
	e2e_said(&E, "SileadTouch.fw");
	e2e_error_names_device(E.err, "no firmware for this board", DEV);
	assert_false(emub_dev_bound(E.eb, "touchscreen"));
	/* status says the same: no program, no-firmware; attention */
	expect_rc(TF_EXIT_ATTENTION, "status", DEV);
	if (!E.out || !strstr(E.out, "no-program") || !strstr(E.out, "no-firmware") ||
	    strstr(E.out, "application") || !strstr(E.out, "no firmware for this board"))
		fail_msg("status said:\n%s", E.out ? E.out : "");
	/* a distribution's file bound the driver: its program runs, and with
	 * nothing better in the database that is kept */
	e2e_stop(&E);
	start_tablet(RIGHT, NULL, NULL, false);
	empty_db();
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "nothing to do: silead_ts bound");
	e2e_not_said(&E, "firmware )");
}

/* The status register's reads by driver and touchfw (model stats). */
static unsigned status_reads(void)
{
	return chip().stats.status_reads;
}

/*
 * Another tablet's file under this tablet's entry (issue 26 item 2): the
 * driver binds with it and the chip runs it, status OK -- all that driver
 * and chip can say -- but it reports no touches.  The run says what it
 * proved (the status read as silead_ts reads it) and what it can not.
 */
static void test_wrong_file_under_the_entry_is_not_called_proven(void **state)
{
	char other[400], key[400];

	(void)state;
	start_tablet(NULL, NULL, NULL, false);
	snprintf(other, sizeof(other), "%s/firmware-db/%s", E.build, OTHER);
	empty_db();
	expect_rc(TF_EXIT_OK, "db", "add", other, "--board", "touchfw,emul-silead-tablet",
		  "--hardware", "gsl1680", "--version", "1", "--id", "tablet");
	snprintf(key, sizeof(key), "%s/keys/build-demo.key", E.build);
	expect_rc(TF_EXIT_OK, "db", "sign", "--key", key, "--db", E.db);
	expect_rc(TF_EXIT_OK, "run", DEV);
	e2e_said(&E, "verified: silead_ts bound with tablet, input event0; silead_ts bound: "
		     "the chip runs the program its probe loaded (status 0x5A5A5A5A at 0xB0, "
		     "chip id 0x80360000)");
	e2e_said(&E, "not proven by this: that the file is this panel's");
	assert_true(chip().running);
	assert_false(chip().ok);	  /* touches do not come: the database's mistake */
	assert_true(status_reads() >= 2); /* the probe's, and touchfw's after it */
}

/* A program that starts, then stops (status 0 again): bound, input
 * device there, axes right -- and not verified, exit 12. */
static void test_program_that_stops_is_not_verified(void **state)
{
	(void)state;
	start_tablet(NULL, NULL,
		     "touchscreen.size_x = 1960\ntouchscreen.size_y = 1500\n"
		     "touchscreen.swapped_x_y = true\nfault.stops = true\n",
		     false);
	expect_rc(TF_EXIT_VERIFY, "run", DEV);
	e2e_said(&E, "after the update: silead_ts bound, but the chip's program does not run: "
		     "status 0x00000000 at 0xB0");
	e2e_not_said(&E, "verified:");
	assert_false(chip().running);
}

/* touchfw probe finds the ACPI-named client of the profile's controller
 * (its name has no address) and reads nothing from the bus for it. */
static void test_probe_lists_the_acpi_client(void **state)
{
	(void)state;
	start_tablet(NULL, NULL, NULL, false);
	expect_rc(TF_EXIT_OK, "probe");
	if (!E.out || !strstr(E.out, DEV " -       -              application") ||
	    !strstr(E.out, "chip: silead_ts not bound: the chip holds no program") ||
	    !strstr(E.out, "/controllers/touchscreen@40 (emul-silead-tablet)"))
		fail_msg("probe said:\n%s", E.out ? E.out : "");
	assert_false(emub_dev_bound(E.eb, "touchscreen"));
	assert_int_equal(chip().stats.words_written, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_missing_file_staged_and_bound, teardown),
		cmocka_unit_test_teardown(test_resume_after_the_run_reloads_the_installed_file,
					  teardown),
		cmocka_unit_test_teardown(test_foreign_file_is_not_replaced_without_force,
					  teardown),
		cmocka_unit_test_teardown(test_add_event_runs_touchfw, teardown),
		cmocka_unit_test_teardown(test_wrong_file_shadowed, teardown),
		cmocka_unit_test_teardown(test_bind_event_with_wrong_file, teardown),
		cmocka_unit_test_teardown(test_right_file_nothing_to_do, teardown),
		cmocka_unit_test_teardown(test_right_file_one_decision, teardown),
		cmocka_unit_test_teardown(test_other_file_one_decision, teardown),
		cmocka_unit_test_teardown(test_program_never_runs, teardown),
		cmocka_unit_test_teardown(test_axes_differ_from_profile, teardown),
		cmocka_unit_test_teardown(test_no_profile_for_this_dmi, teardown),
		cmocka_unit_test_teardown(test_dry_run, teardown),
		cmocka_unit_test_teardown(test_probe_lists_the_acpi_client, teardown),
		cmocka_unit_test_teardown(test_no_firmware_is_no_success, teardown),
		cmocka_unit_test_teardown(test_wrong_file_under_the_entry_is_not_called_proven,
					  teardown),
		cmocka_unit_test_teardown(test_program_that_stops_is_not_verified, teardown),
	};

	e2e_test_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
