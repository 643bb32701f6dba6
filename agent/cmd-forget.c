// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw forget DEVICE`: clear what touchfw remembers of a device -- the
 * automatic path's failed attempts (/run/touchfw/DEV.attempts), the blobs
 * that failed there (/var/lib/touchfw/failed/DEV.*) and the hardware last
 * seen there (/var/lib/touchfw/DEV.hw) -- after a chip was swapped or
 * repaired on the bench.  Takes the device's lock, so no run is cut short.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "device.h"
#include "event.h"
#include "exitcode.h"
#include "fw-install.h"
#include "json.h"
#include "log.h"
#include "out.h"
#include "settings.h"
#include "state.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: touchfw forget [--json] DEVICE\n"
		"\n"
		"Clear what touchfw remembers of DEVICE: the failed attempts of the\n"
		"automatic path (which make 'run' and the udev path back off or give\n"
		"up), the firmware blobs that failed on it (not tried again), and the\n"
		"hardware id last seen there (used for a chip that comes up in its\n"
		"bootloader), and removes the firmware file touchfw installed for the\n"
		"kernel's loader (a chip without flash) if it still holds what touchfw\n"
		"wrote.  'touchfw status' shows each, with since when.  For a\n"
		"chip swapped or repaired on the bench.\n"
		"\n"
		"  --json   what was forgotten as one JSON document (doc/json.md)\n"
		"\n"
		"Exit status %d, %d (%s) while another touchfw works on DEVICE,\n"
		"%d (%s) if a state file is unusable, %d (%s) if it may\n"
		"not be changed (run as root).\n",
		TF_EXIT_OK, TF_EXIT_LOCKED, tf_exit_name(TF_EXIT_LOCKED), TF_EXIT_STATE,
		tf_exit_name(TF_EXIT_STATE), TF_EXIT_PERMISSION,
		tf_exit_name(TF_EXIT_PERMISSION));
}

/* --json: what was forgotten (0 and null for what was not there). */
static void print_json(const char *dev, unsigned attempts, const char *hw, bool bad_hint,
		       int blobs)
{
	struct tf_json j;

	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_int(&j, "version", TF_JSON_VERSION);
	tf_json_string(&j, "device", dev);
	tf_json_uint(&j, "failed_attempts", attempts);
	tf_json_string(&j, "hardware", hw[0] ? hw : NULL);
	tf_json_bool(&j, "unreadable_hardware_hint", bad_hint);
	tf_json_uint(&j, "failed_blobs", blobs > 0 ? (uint64_t)blobs : 0);
	tf_json_end_object(&j);
	tf_out_json(&j);
	tf_json_free(&j);
}

static int fail(const char *dev, const struct tf_err *err)
{
	int rc = err->code == EACCES || err->code == EPERM ? TF_EXIT_PERMISSION : TF_EXIT_STATE;

	log_err(dev, "%s (exit %d, %s)", err->msg, rc, tf_exit_name(rc));
	return rc;
}

int tf_cmd_forget(const struct tf_cli *cli)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char said[1200] = "", learnt[40], hw[sizeof(((struct tf_hw_hint *)0)->hw)] = "";
	char fw[600];
	bool json = false, bad_hint = false;
	unsigned attempts = 0;
	struct tf_attempts a = { 0 };
	struct tf_hw_hint hint;
	struct tf_settings s;
	struct tf_err err = { 0 };
	struct tf_state st = { .dirfd = -1 };
	const char *dev;
	struct tf_cli_opts g = { "touchfw forget", "+h", opts, usage };
	int c, lock = -1, blobs, r;
	size_t n = 0;

	while ((c = tf_cli_getopt(cli->argc, cli->argv, &g)) != -1) {
		if (c == TF_CLI_STOP)
			return g.exit;
		if (c == 'j')
			json = true;
	}
	if (optind + 1 != cli->argc || !tf_devname_valid(cli->argv[optind])) {
		tf_out_err(
			"touchfw forget: give one DEVICE, the kernel's name (e.g. 3-004a)\n");
		usage(tf_out_err_file());
		return TF_EXIT_USAGE;
	}
	dev = cli->argv[optind];
	if (tf_settings_load(&s, cli->config, &err) < 0) {
		log_err(NULL, "%s", err.msg);
		return TF_EXIT_BAD_INPUT;
	}
	/* No state directory: no attempts, nothing to lock. */
	if (tf_state_open(&st, s.state_dir, false, &err) < 0 && err.code != ENOENT)
		return fail(dev, &err);
	if (st.dirfd >= 0) {
		struct tf_device d;

		/* A device that is gone (or never was) gets no lock file made
		 * for it: forgetting it leaves nothing behind in the state
		 * directory.  No lock file there: no run holds it. */
		lock = tf_state_lock(&st, dev, false, tf_device_lookup(dev, &d, NULL) == 0,
				     &err);
		if (lock == -ENOENT) {
			tf_err_clear(&err);
			lock = -1;
		} else if (lock == -EWOULDBLOCK) {
			log_err(dev,
				"another touchfw is working on this device; nothing "
				"forgotten (exit %d, %s)",
				TF_EXIT_LOCKED, tf_exit_name(TF_EXIT_LOCKED));
			tf_state_close(&st);
			return TF_EXIT_LOCKED;
		} else if (lock < 0) {
			tf_state_close(&st);
			return fail(dev, &err);
		}
		/* Corrupt counts too: forgetting is what repairs it. */
		r = tf_state_read_attempts(&st, dev, &a, NULL);
		if (r == -EBADMSG)
			a.count = 1;
		if ((r == 0 && a.count) || r == -EBADMSG) {
			if (tf_state_clear_attempts(&st, dev) < 0) {
				tf_err_set(&err, errno, "%s/%s.attempts: can not remove it: %s",
					   s.state_dir, dev, strerror(errno));
				close(lock);
				tf_state_close(&st);
				return fail(dev, &err);
			}
			n += (size_t)snprintf(said + n, sizeof(said) - n, "%u failed attempt%s",
					      a.count, a.count == 1 ? "" : "s");
			attempts = a.count;
		}
	}
	r = tf_persist_read_hw(s.persist_dir, dev, &hint, &err);
	if (r == 0 && hint.hw[0] && tf_persist_forget_hw(s.persist_dir, dev, &err) == 0) {
		tf_time_str(hint.learnt, learnt, sizeof(learnt));
		tf_snprintf(hw, sizeof(hw), "%s", hint.hw);
		n += (size_t)snprintf(said + n, n < sizeof(said) ? sizeof(said) - n : 0,
				      "%sthe remembered hardware %s (learnt on %s)",
				      n ? ", " : "", hint.hw, learnt);
	} else if (r < 0 || err.code) {
		/* An unreadable hint is removed all the same. */
		if (tf_persist_forget_hw(s.persist_dir, dev, &err) < 0) {
			if (lock >= 0)
				close(lock);
			tf_state_close(&st);
			return fail(dev, &err);
		}
		n += (size_t)snprintf(said + n, n < sizeof(said) ? sizeof(said) - n : 0,
				      "%san unreadable hardware hint", n ? ", " : "");
		bad_hint = true;
	}
	/* a firmware file installed for the loader (fw-install.h) */
	if (tf_fw_install_forget(s.persist_dir, dev, fw, sizeof(fw)) >= 0 && fw[0])
		n += (size_t)snprintf(said + n, n < sizeof(said) ? sizeof(said) - n : 0, "%s%s",
				      n ? ", " : "", fw);
	blobs = tf_persist_clear(s.persist_dir, dev);
	if (blobs > 0)
		snprintf(said + n, n < sizeof(said) ? sizeof(said) - n : 0,
			 "%s%d failed-blob record%s", n ? ", " : "", blobs,
			 blobs == 1 ? "" : "s");
	if (lock >= 0)
		close(lock);
	tf_state_close(&st);
	if (json)
		print_json(dev, attempts, hw, bad_hint, blobs);
	if (said[0])
		log_info(dev, "forgot %s", said);
	else
		log_info(dev,
			 "nothing remembered: no failed attempts, failed blobs or hardware");
	return TF_EXIT_OK;
}
