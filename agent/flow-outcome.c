// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The update flow's outcome (see flow.h): the exit code and message of a
 * run, what a stop signal or a failure in the bootloader records, the
 * blob held against a device, the attempt reserved before the chip is
 * touched, and the result, attempts and metrics written when the run
 * ends.  Below every other flow file: it calls none of them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exitcode.h"
#include "flow-outcome.h"
#include "metrics.h"

/* Record the outcome and return its exit code. */
int flow_vfinish(struct flow_run *r, int code, const char *fmt, va_list ap)
{
	r->res->exit_code = code;
	vsnprintf(r->res->message, sizeof(r->res->message), fmt, ap);
	return code;
}

int flow_finish(struct flow_run *r, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	flow_vfinish(r, code, fmt, ap);
	va_end(ap);
	return code;
}

/*
 * The update failed where the chip may be left in its bootloader; what it
 * is really left in is found by flow_after_failure(), which completes the
 * message.  @e: the family's verdict, when there is one.
 */
int flow_fail_bootloader(struct flow_run *r, const char *msg, const struct tf_err *e)
{
	r->foreign = e && e->foreign;
	return flow_finish(r, TF_EXIT_BOOTLOADER, "%s", msg);
}

/*
 * A stop signal arrived: say what was done about it (the callers undo
 * their part -- rebind, unstage -- on their way out) and what was
 * recorded: the attempt flow_reserve_attempt() counted (which of how many, in
 * which file, how long the automatic path now waits and how to lift it),
 * the result record, and that no failure is held against the firmware.
 * A hand flash counts no attempt, and says so.
 */
int flow_interrupted(struct flow_run *r, const char *what)
{
	int sig = tf_stop_requested();
	const char *name = sigabbrev_np(sig) ? sigabbrev_np(sig) : "?";
	const char *dev = r->c.dev.name;
	struct tf_attempts a;
	uint64_t now = (uint64_t)time(NULL);
	char next[120];

	if (!r->attempt_reserved || tf_state_read_attempts(&r->st, dev, &a, NULL) < 0)
		return flow_finish(r, TF_EXIT_INTERRUPTED,
				   "stopped by SIG%s %s; the driver is bound again and nothing "
				   "is left staged; recorded: this result in %s/%s.json only "
				   "(%s counts no attempt), no failure held against the "
				   "firmware: 'touchfw %s %s' tries again",
				   name, what, r->s->state_dir, dev,
				   r->o->manual ? "a hand flash"
						: "the attempt was not counted",
				   r->o->manual ? "flash ..." : "run", dev);
	if (a.count >= r->s->max_attempts)
		tf_snprintf(next, sizeof(next), "the automatic path gives up now");
	else if (a.next_allowed > now)
		tf_snprintf(next, sizeof(next), "the automatic path waits %llus",
			    (unsigned long long)(a.next_allowed - now));
	else
		tf_snprintf(next, sizeof(next), "the next bind tries again");
	return flow_finish(r, TF_EXIT_INTERRUPTED,
			   "stopped by SIG%s %s; the driver is bound again and nothing is "
			   "left staged; recorded: attempt %u of %u in %s/%s.attempts (%s; "
			   "'touchfw forget %s' clears it) and this result in %s.json, no "
			   "failure held against the firmware: 'touchfw run %s' tries again",
			   name, what, a.count, r->s->max_attempts, r->s->state_dir, dev, next,
			   dev, dev, dev);
}

/*
 * A blob's failure on this device, kept across reboots: loudly when it
 * can not be kept, as the limit on that blob then holds only until reboot.
 * Only the chip's (or its driver's) rejection of the blob counts (@e's
 * rejected, which the family sets); an interruption -- the chip vanished,
 * lost power, restarted, was unbound -- counts as an attempt only, or a
 * bind storm would blacklist good firmware.
 */
void flow_record_blob_failure(struct flow_run *r, const struct tf_err *e)
{
	struct tf_err err = { 0 };
	const char *why = e->msg;

	if (!r->fw_sha[0])
		return;
	if (!e->rejected) {
		rlog(r, TF_LOG_INFO,
		     "an interruption, not a rejection of %s: it counts as an "
		     "attempt only",
		     r->res->fw_id);
		return;
	}

	if (tf_persist_record_failure(r->s->persist_dir, r->c.dev.name, r->fw_sha, why, &err) <
	    0)
		rlog(r, TF_LOG_ERR, "the failure of %s could not be recorded: %s",
		     r->res->fw_id, err.msg);
}

/*
 * What the message promised of the next run holds within the attempt
 * limit and after the back-off: say which applies (the count is known
 * only once this failure is recorded).
 */
static void attempt_note(struct flow_run *r, unsigned count)
{
	char *m = r->res->message;
	size_t n = strlen(m), size = sizeof(r->res->message);
	uint64_t now = (uint64_t)time(NULL);
	struct tf_attempts a;

	if (!count || n >= size)
		return;
	if (count >= r->s->max_attempts)
		snprintf(m + n, size - n,
			 "; that was attempt %u of %u: touchfw leaves %s alone until "
			 "'touchfw run --force %s' or a reboot",
			 count, r->s->max_attempts, r->c.dev.name, r->c.dev.name);
	else if (tf_state_read_attempts(&r->st, r->c.dev.name, &a, NULL) == 0 &&
		 a.next_allowed > now)
		/* the back-off this failure set, not what is left of it a
		 * moment later (a second boundary may have passed) */
		snprintf(m + n, size - n,
			 "; attempt %u of %u: the next one waits %llus (back-off)", count,
			 r->s->max_attempts,
			 (unsigned long long)tf_attempt_backoff_s(count, r->s->backoff_s));
}

/* ------------------------------------------------------------ bookkeeping */

/*
 * Count this run as a failed attempt before touching the chip, so that a
 * crash or power loss mid-update counts too; a success clears it, a failure
 * only rewrites the message (flow_record()).  An attempt that can not be
 * recorded (a full or broken /run) means the limit that keeps touchfw from
 * flashing a chip that fails every time no longer holds: do not flash.
 */
int flow_reserve_attempt(struct flow_run *r)
{
	struct tf_err err = { 0 };

	if (r->o->manual)
		return TF_EXIT_OK;
	if (tf_state_reserve_attempt(&r->st, r->c.dev.name, r->s->backoff_s, &err) < 0)
		return flow_finish(r, TF_EXIT_STATE,
				   "not updating: the attempt can not be "
				   "recorded (%s), so the limit of %u attempts would not hold; "
				   "nothing was flashed",
				   err.msg, r->s->max_attempts);
	r->attempt_reserved = true;
	return TF_EXIT_OK;
}

/* The failure is the database's or the profile's, found before anything
 * was written to the chip. */
static bool not_the_devices(const struct flow_run *r)
{
	int code = r->res->exit_code;

	if (r->touched)
		return false;
	return code == TF_EXIT_DB_INVALID || code == TF_EXIT_BAD_INPUT ||
	       (code == TF_EXIT_NO_FIRMWARE && !r->failed_before);
}

/* The device's metrics, and with prometheus_dir set the textfile
 * (metrics.h); a failure is said, the run's result stays. */
static void record_metrics(struct flow_run *r)
{
	struct tf_err err = { 0 };

	if (tf_metrics_record(&r->st, r->c.dev.name, r->fam ? r->fam->ids->name : "", r->res,
			      &err) < 0 ||
	    tf_metrics_publish(r->s, &err) < 0)
		rlog(r, TF_LOG_WARNING, "metrics for Prometheus not written: %s", err.msg);
}

static void record_state(struct flow_run *r)
{
	char *json;

	if (r->st.dirfd < 0 || !r->c.dev.name[0] || r->o->dry_run)
		return;
	json = tf_flow_result_json(r->c.dev.name, r->res);
	if (json) {
		struct tf_err err = { 0 };

		tf_state_write_result(&r->st, r->c.dev.name, json);
		/* ... and in the history that survives a reboot, unless the
		 * state or persistent directory is what could not be used */
		if (r->res->exit_code != TF_EXIT_STATE &&
		    r->res->exit_code != TF_EXIT_PERMISSION &&
		    tf_persist_history_add(r->s->persist_dir, r->c.dev.name, json, &err) < 0)
			rlog(r, TF_LOG_WARNING, "the results history could not be written: %s",
			     err.msg);
		free(json);
	}
	if (r->res->exit_code == TF_EXIT_OK) {
		struct tf_file_id id;
		char manifest[300];
		struct tf_input_node in[TF_MAX_INPUTS];

		if (tf_state_clear_attempts(&r->st, r->c.dev.name) < 0)
			rlog(r, TF_LOG_ERR, "%s/%s.attempts: can not remove it: %s",
			     r->s->state_dir, r->c.dev.name, strerror(errno));
		if (r->flashed_anything)
			tf_persist_clear(r->s->persist_dir, r->c.dev.name);
		if (r->chip.mode == TF_CHIP_APP && r->db &&
		    tf_snprintf(manifest, sizeof(manifest), "%s/manifest.ini", r->s->db_dir) ==
			    0 &&
		    tf_file_id_get(manifest, &id) == 0 &&
		    tf_sysfs_inputs(r->c.dev.subsys, r->c.dev.name, in, TF_MAX_INPUTS) > 0)
			tf_state_write_uptodate(&r->st, r->c.dev.name, &id, in[0].input,
						r->chip.version_str);
		return;
	}
	tf_state_clear_uptodate(&r->st, r->c.dev.name);
	/* Failures of the automatic update itself count against its attempt
	 * limit; a mistake made by hand with `flash` never does, nor one in
	 * the database or the board profile found before the chip was
	 * touched: fixing it (db sign, a new manifest) must not leave the
	 * device backing off.  Blobs that failed on the chip before are the
	 * device's own history: that "no firmware" counts. */
	if (!r->o->manual && !not_the_devices(r) &&
	    (r->res->exit_code == TF_EXIT_BOOTLOADER || r->res->exit_code == TF_EXIT_VERIFY ||
	     r->res->exit_code == TF_EXIT_IO || r->res->exit_code == TF_EXIT_DB_INVALID ||
	     r->res->exit_code == TF_EXIT_BAD_INPUT ||
	     r->res->exit_code == TF_EXIT_NO_FIRMWARE)) {
		struct tf_err err = { 0 };
		unsigned count;

		if (tf_state_fail_attempt(&r->st, r->c.dev.name, r->attempt_reserved,
					  r->s->backoff_s, r->res->message, &count, &err) < 0)
			rlog(r, TF_LOG_ERR, "the failed attempt could not be recorded: %s",
			     err.msg);
		if (count >= r->s->max_attempts)
			rlog(r, TF_LOG_ERR,
			     "attempt %u of %u failed: giving up on this device "
			     "until 'touchfw run --force %s' or a reboot",
			     count, r->s->max_attempts, r->c.dev.name);
		attempt_note(r, count);
	}
}

/* The result and attempts, then the metrics made from them. */
void flow_record(struct flow_run *r)
{
	if (r->st.dirfd < 0 || !r->c.dev.name[0] || r->o->dry_run)
		return;
	record_state(r);
	record_metrics(r);
}
