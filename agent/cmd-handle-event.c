// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The udev fast path.  Order of the checks: cheapest and most common first,
 * and nothing that touches the bus.  Logs say why an event was skipped, at
 * debug level for the common "not ours" cases so a busy system stays quiet.
 */
#include "handle-event.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "event.h"
#include "exitcode.h"
#include "family/ids.h"
#include "handoff.h"
#include "log.h"
#include "out.h"
#include "settings.h"
#include "state.h"
#include "sysfs.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: touchfw handle-event [--add-only]\n"
		   "\n"
		   "Run by udev (udev-rules/61-touchfw.rules) with the uevent in the\n"
		   "environment (ACTION, DEVPATH, SUBSYSTEM, DRIVER, MODALIAS, OF_*).\n"
		   "Acts on 'bind' of an i2c/spi touch controller, on 'add' with\n"
		   "DRIVER set (coldplug replay), and on 'add' of a controller whose\n"
		   "driver's probe fails until touchfw installs its firmware file, or\n"
		   "fails on a chip left in its bootloader (no bind follows); ignores\n"
		   "remove, unbind, change and unknown actions.\n"
		   "Decides without bus I/O and hands the work to\n"
		   "touchfw@DEVICE.service (or a detached 'touchfw run' where systemd\n"
		   "is not running), then returns.\n"
		   "\n"
		   "  --add-only   for udev/mdev setups that never send 'bind': act on\n"
		   "               'add' of a known controller before its driver binds;\n"
		   "               the run then waits for the driver (bind_timeout_ms).\n"
		   "\n"
		   "Set TOUCHFW_CANDIDATE=1 from a rule to hand over a device whose\n"
		   "driver touchfw does not list (an OEM extension); it still needs a\n"
		   "board profile describing it.\n"
		   "\n"
		   "Settings come from 'touchfw --config FILE handle-event' or the\n"
		   "default file, never from $TOUCHFW_CONFIG (udev passes a uevent's\n"
		   "variables on).  Exit 0 for every event that is not touchfw's, 7\n"
		   "for its own with an unusable DEVPATH, 16 when touchfw's state\n"
		   "directory or a state file can not be trusted.\n");
}

/*
 * Why an event was let go, in three parts ("SUBSYSTEM=", the value, " is
 * not i2c or spi"): most events end in filter_event() and are logged only
 * at debug level, so the line is put together only when it is printed.
 */
struct reason {
	const char *a, *v, *b;
};

/*
 * What the event alone decides: no settings, no files.  Most events udev
 * hands us end here, so the settings file and /proc/cmdline are read only
 * for the rest (see decide()).
 */
static enum tf_verdict filter_event(const struct tf_uevent *ev, bool add_only, bool candidate,
				    struct reason *why)
{
	const struct tf_family_ids *fam = NULL;

	*why = (struct reason){ "", "", "" };
	switch (ev->action) {
	case TF_ACTION_BIND:
		if (!ev->driver) {
			why->a = "bind without DRIVER";
			return TF_VERDICT_IGNORED;
		}
		break;
	case TF_ACTION_ADD:
		if (ev->driver)
			break; /* coldplug replay of a bound device */
		fam = tf_family_ids_by_uevent(ev);
		if (fam && fam->probe_needs_file)
			break; /* its probe fails without touchfw's file: no bind follows */
		if (fam && fam->probe_fails_in_bootloader)
			break; /* a chip in its bootloader gets no bind */
		if (!add_only) {
			why->a = "add without DRIVER (the bind event will follow)";
			return TF_VERDICT_IGNORED;
		}
		break;
	default:
		*why = (struct reason){ "ACTION=", ev->action_str, " is not for touchfw" };
		return TF_VERDICT_IGNORED;
	}
	if (!ev->subsystem ||
	    (!tf_streq(ev->subsystem, "i2c") && !tf_streq(ev->subsystem, "spi"))) {
		*why = (struct reason){ "SUBSYSTEM=", ev->subsystem ? ev->subsystem : "(none)",
					" is not i2c or spi" };
		return TF_VERDICT_IGNORED;
	}
	if (ev->driver)
		fam = tf_family_ids_by_driver(ev->driver);
	else if (!fam)
		fam = tf_family_ids_by_uevent(ev);
	if (!fam && !candidate) {
		*why = (struct reason){ "driver ", ev->driver ? ev->driver : "(none)",
					" is not a touch driver touchfw knows" };
		return TF_VERDICT_IGNORED;
	}
	return TF_VERDICT_HANDED_OFF; /* provisionally; settings and state follow */
}

/*
 * Does any *.dtb exist in any of @dirs?  Asked for every event of a known
 * driver, so it reads the directories with getdents64() into a buffer on the stack
 * (opendir() would allocate 32 KiB).
 */
static bool any_profile(const char (*dirs)[256], unsigned n)
{
	union {
		struct dirent64 de;
		char b[4096];
	} u;
	unsigned i;

	for (i = 0; i < n; i++) {
		int fd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		ssize_t got;
		bool found = false;

		if (fd < 0)
			continue;
		while (!found && (got = getdents64(fd, u.b, sizeof(u.b))) > 0) {
			ssize_t off = 0;

			while (off < got) {
				const struct dirent64 *de = (const void *)(u.b + off);
				const char *dot = NULL, *c;

				/* the last '.', found without strlen(): one libc
				 * symbol less to bind at every event */
				for (c = de->d_name; *c; c++)
					if (*c == '.')
						dot = c;
				if (dot && dot > de->d_name && tf_streq(dot, ".dtb")) {
					found = true;
					break;
				}
				off += de->d_reclen;
			}
		}
		close(fd);
		if (found)
			return true;
	}
	return false;
}

static enum tf_verdict decide(const struct tf_settings *s, const char **why)
{
	if (tf_settings_disabled(s)) {
		*why = s->disabled_by_cmdline ? "disabled on the kernel command line"
					      : "disabled in the settings";
		return TF_VERDICT_DISABLED;
	}
	if (!any_profile(s->boards_dirs, s->n_boards_dirs)) {
		*why = "no board profile is installed";
		return TF_VERDICT_NO_PROFILES;
	}
	return TF_VERDICT_HANDED_OFF; /* provisionally; state checks follow */
}

/*
 * touchfw's own state for this device.  A state directory or file that can
 * not be trusted (wrong owner or mode, a symlink, a FIFO, a corrupt count)
 * is a refusal with its reason, never a hand-off: the run would meet the
 * same problem, and a detached run's log would go where it points.
 */
/*
 * An add of a device whose driver's probe fails without a file touchfw
 * installs, or on a chip left in its bootloader: no bind may follow, so
 * the run must not wait for one.
 */
static bool waits_for_file(const struct tf_uevent *ev)
{
	const struct tf_family_ids *fam = ev->driver ? NULL : tf_family_ids_by_uevent(ev);

	return fam && (fam->probe_needs_file || fam->probe_fails_in_bootloader);
}

static enum tf_verdict check_state(const struct tf_uevent *ev, const struct tf_settings *s,
				   const char **why, char *detail, size_t dsize)
{
	struct tf_state st;
	struct tf_attempts a;
	struct tf_file_id dbid;
	struct tf_input_node in[TF_MAX_INPUTS];
	char manifest[300];
	uint64_t now = (uint64_t)time(NULL);
	enum tf_verdict v = TF_VERDICT_HANDED_OFF;
	struct tf_err err = { 0 };
	int r = 0;

	if (tf_state_open(&st, s->state_dir, true, &err) < 0) {
		tf_snprintf(detail, dsize, "%s", err.msg);
		*why = detail;
		return TF_VERDICT_STATE_BAD;
	}
	if (ev->action == TF_ACTION_BIND &&
	    (r = tf_state_take_own_bind(&st, ev->devname, now, s->own_bind_window_s, &err)) >
		    0) {
		*why = "this bind is touchfw's own rebind";
		v = TF_VERDICT_OWN_BIND;
	} else if (r < 0 || (r = tf_state_locked_by_other(&st, ev->devname, &err)) < 0) {
		v = TF_VERDICT_STATE_BAD;
	} else if (r > 0) {
		*why = "touchfw is already working on this device";
		v = TF_VERDICT_BUSY;
	} else if ((r = tf_state_read_attempts(&st, ev->devname, &a, &err)) == -EBADMSG) {
		/* Corrupt: the safe side, as if at the limit. */
		tf_snprintf(detail, dsize, "gave up: %s", err.msg);
		*why = detail;
		v = TF_VERDICT_GAVE_UP;
	} else if (r < 0) {
		v = TF_VERDICT_STATE_BAD;
	} else if (a.count >= s->max_attempts) {
		/* cut short if need be: the whole story is in `touchfw status` */
		tf_snprintf(detail, dsize,
			    "gave up after %u failed attempts (last: %s); "
			    "'touchfw run --force' or a reboot retries",
			    a.count, a.last_error[0] ? a.last_error : "unknown");
		*why = detail;
		v = TF_VERDICT_GAVE_UP;
	} else if (a.count && a.next_allowed > now) {
		tf_snprintf(detail, dsize,
			    "backing off for %llus after %u failed attempt%s; 'touchfw run "
			    "--force %s' tries now, 'touchfw forget %s' clears the count",
			    (unsigned long long)(a.next_allowed - now), a.count,
			    a.count == 1 ? "" : "s", ev->devname, ev->devname);
		*why = detail;
		v = TF_VERDICT_BACKOFF;
	} else if (ev->action != TF_ACTION_ADD || ev->driver) {
		/* Up to date: an input device exists and nothing changed since
		 * a run verified this device against this database. */
		if (tf_snprintf(manifest, sizeof(manifest), "%s/manifest.ini", s->db_dir) ==
			    0 &&
		    tf_file_id_get(manifest, &dbid) == 0 &&
		    tf_sysfs_inputs(ev->subsystem, ev->devname, in, TF_MAX_INPUTS) > 0 &&
		    tf_state_is_uptodate(&st, ev->devname, &dbid, in[0].input)) {
			*why = "verified up to date earlier, same input device and database";
			v = TF_VERDICT_UPTODATE;
		}
	}
	if (v == TF_VERDICT_STATE_BAD) {
		tf_snprintf(detail, dsize, "%s", err.msg);
		*why = detail;
	}
	if (v == TF_VERDICT_HANDED_OFF && !ev->driver && !waits_for_file(ev) &&
	    (r = tf_state_mark_wait_bind(&st, ev->devname, now)) < 0) {
		/* The unit can not take --wait-bind: the run needs this note. */
		tf_snprintf(detail, dsize,
			    "%s/%s.waitbind: can not write the note for the run: %s",
			    s->state_dir, ev->devname, strerror(-r));
		*why = detail;
		v = TF_VERDICT_STATE_BAD;
	}
	tf_state_close(&st);
	return v;
}

/* handle-event's options, without getopt (main.c): 0 to go on, else the
 * exit code. */
static int parse_options(const struct tf_cli *cli, bool *add_only)
{
	static const struct tf_optdef opts[] = {
		{ "add-only", 0, false },
		{ "help", 'h', false },
		{ NULL, 0, false },
	};
	struct tf_optscan sc = { .argc = cli->argc, .argv = cli->argv, .i = 1 };
	const char *arg;
	int k;

	while ((k = tf_opt_next(&sc, opts, &arg)) != TF_OPT_END) {
		if (k == TF_OPT_BAD) {
			tf_out_err("touchfw handle-event: bad option '%s'\n", sc.bad);
			usage(tf_out_err_file());
			return TF_EXIT_USAGE;
		}
		if (k == 1) {
			usage(tf_out_file());
			tf_out_flush(); /* main.c ends handle-event with _exit() */
			return TF_EXIT_OK;
		}
		*add_only = true;
	}
	if (sc.i != cli->argc) {
		usage(tf_out_err_file());
		return TF_EXIT_USAGE;
	}
	return 0;
}

int tf_cmd_handle_event(const struct tf_cli *cli)
{
	struct tf_settings s;
	struct tf_uevent ev;
	struct tf_err err = { 0 };
	enum tf_handoff_how how;
	enum tf_verdict v;
	struct reason why;
	const char *wait_args[] = { "--wait-bind", NULL };
	bool add_only = false;
	char detail[300];
	int r;

	if ((r = parse_options(cli, &add_only)))
		return r;
	r = tf_uevent_parse(cli->envp, &ev);
	if (ev.log_level && !cli->verbosity) /* -v and -q win */
		tf_log_init(NULL, ev.log_level);
	if (r < 0) {
		log_err(NULL, "handle-event needs a uevent in the environment "
			      "(ACTION and DEVPATH); udev provides it");
		return TF_EXIT_USAGE;
	}
	v = filter_event(&ev, add_only, ev.candidate && tf_streq(ev.candidate, "1"), &why);
	if (ev.bad_devpath) {
		/* Not even a name to log with; the raw DEVPATH may hold anything. */
		if (v == TF_VERDICT_IGNORED) {
			log_debug(NULL, "%s: nothing to do: %s%s%s", ev.action_str, why.a,
				  why.v, why.b);
			return TF_EXIT_OK;
		}
		log_err(NULL, "%s (driver %s): refusing the event: its DEVPATH is unusable: %s",
			ev.action_str, ev.driver ? ev.driver : "none yet", ev.bad_devpath);
		return TF_EXIT_BAD_INPUT;
	}
	if (v == TF_VERDICT_HANDED_OFF) {
		/* Only the command line's --config: $TOUCHFW_CONFIG may come
		 * from a uevent, and udev passes those to RUN programs. */
		if (tf_settings_load(&s,
				     cli->config_from_args ? cli->config
							   : TF_SETTINGS_DEFAULT_PATH,
				     &err) < 0) {
			log_err(ev.devname, "%s", err.msg);
			return TF_EXIT_BAD_INPUT;
		}
		v = decide(&s, &why.a);
	}
	if (v == TF_VERDICT_HANDED_OFF)
		v = check_state(&ev, &s, &why.a, detail, sizeof(detail));
	switch (v) {
	case TF_VERDICT_IGNORED:
	case TF_VERDICT_NO_PROFILES:
		log_debug(ev.devname, "%s %s: nothing to do: %s%s%s", ev.action_str, ev.devpath,
			  why.a, why.v, why.b);
		return TF_EXIT_OK;
	case TF_VERDICT_OWN_BIND:
	case TF_VERDICT_DISABLED:
	case TF_VERDICT_BUSY:
	case TF_VERDICT_UPTODATE:
	case TF_VERDICT_BACKOFF:
		log_info(ev.devname, "%s: nothing to do: %s", ev.action_str, why.a);
		return TF_EXIT_OK;
	case TF_VERDICT_GAVE_UP:
		log_err(ev.devname, "%s: not updating: %s", ev.action_str, why.a);
		return TF_EXIT_OK;
	case TF_VERDICT_STATE_BAD:
		log_err(ev.devname, "%s: not updating: %s", ev.action_str, why.a);
		return TF_EXIT_STATE;
	case TF_VERDICT_HANDED_OFF:
		break;
	}
	if (tf_handoff(&s, cli->config_from_args ? cli->config : NULL, ev.devname,
		       ev.driver || waits_for_file(&ev) ? NULL : wait_args, cli->envp, &how,
		       &err) < 0) {
		log_err(ev.devname, "%s (driver %s): could not hand off: %s", ev.action_str,
			ev.driver ? ev.driver : "none yet", err.msg);
		return TF_EXIT_FAILURE;
	}
	log_info(ev.devname, "%s (driver %s): handed to %s", ev.action_str,
		 ev.driver ? ev.driver : "none yet", tf_handoff_how_name(how));
	return TF_EXIT_OK;
}
