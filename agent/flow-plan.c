// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The update flow's plan step (see flow.h): what the database has for the
 * chip as detected (plan.c decides), the hardware remembered standing in
 * for what a chip in its bootloader can not say, and a chip that holds no
 * program with nothing to load into it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "exitcode.h"
#include "flow-detect.h"
#include "flow-load.h"
#include "flow-outcome.h"
#include "flow-plan.h"
#include "flow-update.h"

#define MAX_BLOB_FAILURES 2 /* across reboots, per device and blob */

/*
 * A chip that keeps no firmware (detect() says: program_from_driver) runs
 * a program only while its driver is bound: the driver's probe loads the
 * file and fails without it.  Other chips keep theirs.
 */
static bool holds_program(const struct flow_run *r)
{
	return !r->chip.program_from_driver ||
	       (r->c.dev.driver[0] && tf_family_has_driver(r->fam, r->c.dev.driver) &&
		!r->chip.not_running);
}

/*
 * Nothing in the database for a chip that holds no program: it can not
 * work, so this is no "up to date".  Says which file the driver wants,
 * for which board the database lacks an entry, and how to add one.
 */
static int no_program(struct flow_run *r)
{
	char name[TF_FW_NAME_MAX] = "", board[128] = "";
	struct tf_err err = { 0 };
	const char *src = r->fam->firmware_source;
	bool skipped = strstr(r->plan.fw_reason, "skipped") != NULL;

	if (r->ops->kernel_fw_name &&
	    r->ops->kernel_fw_name(&r->c, &r->chip, name, sizeof(name), &err) < 0)
		tf_snprintf(name, sizeof(name), "its firmware file");
	if (r->profile && r->profile->n_board_ids)
		tf_snprintf(board, sizeof(board), "%s", r->profile->board_ids[0]);
	tf_snprintf(r->res->mode_before, sizeof(r->res->mode_before), "no-program");
	return flow_finish(r, TF_EXIT_NO_FIRMWARE,
			   "no firmware for this board: the chip holds no program, %s loads %s "
			   "at every probe and fails without it, and the database %s has no %s "
			   "firmware for board %s%s%s%s. Add the board's file with 'touchfw db "
			   "add FILE --board %s'%s%s",
			   r->ctrl->driver[0] ? r->ctrl->driver : r->fam->ids->drivers[0], name,
			   r->s->db_dir, r->fam->ids->name, board[0] ? board : "(no profile)",
			   skipped ? " (" : "", skipped ? r->plan.fw_reason : "",
			   skipped ? ")" : "", board[0] ? board : "BOARD", src ? "; " : "",
			   src ? src : "");
}

/*
 * A chip whose program is its driver's file, with the driver bound (once
 * a probe under way has ended) and the chip running: the file to install
 * (the plan's, or flash's) may be the one the driver's probe loaded.  Decided here, before any
 * dry run stops, so that probe, run --dry-run and run keep it alike (the firmware is read and
 * checked now, as the update would).  Kept: no firmware in the plan, fw_kept, and the reason
 * says why; else the reason says what the driver loads instead, when that is known.
 */
static int keep_running_file(struct flow_run *r)
{
	char why[sizeof(r->plan.fw_reason)], drv[sizeof(r->c.dev.driver)];
	size_t n;
	int rc;

	if (!r->chip.program_from_driver || r->o->force || !(r->plan.fw || r->o->firmware_file))
		return TF_EXIT_OK;
	/* A probe under way (a run its bind started may see the driver link
	 * late) ends first: the decision, and a rebind, go by its end. */
	tf_snprintf(drv, sizeof(drv), "%s", r->c.dev.driver);
	flow_settle_driver_link(r);
	if (strcmp(drv, r->c.dev.driver)) {
		if ((rc = flow_detect(r, &r->chip)))
			return rc;
		rlog(r, TF_LOG_INFO, "%s", r->chip.detail);
		tf_snprintf(r->res->detail, sizeof(r->res->detail), "%s", r->chip.detail);
	}
	if (!r->c.dev.driver[0] || r->chip.not_running)
		return TF_EXIT_OK;
	if ((rc = flow_load_fw(r)))
		return rc;
	if (!flow_driver_runs_fw(r, why, sizeof(why))) {
		n = strlen(r->plan.fw_reason);
		if (why[0] && r->plan.fw && n < sizeof(r->plan.fw_reason))
			tf_snprintf(r->plan.fw_reason + n, sizeof(r->plan.fw_reason) - n,
				    "; %s", why);
		return TF_EXIT_OK;
	}
	r->fw_kept = true;
	r->plan.fw = NULL;
	tf_snprintf(r->plan.fw_reason, sizeof(r->plan.fw_reason), "%s", why);
	tf_snprintf(r->res->path, sizeof(r->res->path), "none");
	r->ops->free_firmware(r->fw_img);
	r->fw_img = NULL;
	return TF_EXIT_OK;
}

int flow_step_plan(struct flow_run *r)
{
	struct tf_plan_input in = { 0 };
	struct tf_err err = { 0 };
	char t[40];
	int rc;

	if (!r->db) {
		/* manual files: flash's own, kept when the driver runs it */
		rc = keep_running_file(r);
		if (!rc && r->fw_kept)
			rlog(r, TF_LOG_INFO, "firmware: keep: %s", r->plan.fw_reason);
		return rc;
	}
	in.db = r->db;
	in.profile = r->profile;
	in.ctrl = r->ctrl;
	in.family = r->ctrl->family;
	in.st = &r->chip;
	/* The remembered hardware stands in only for what the chip does not
	 * say itself (its id in bootloader mode). */
	r->hint_used = !r->chip.hw[0] && r->hint.hw[0];
	in.hw_hint = r->hint_used ? r->hint.hw : NULL;
	in.devname = r->c.dev.name;
	in.persist_dir = r->s->persist_dir;
	in.max_blob_failures = r->o->force ? 0 : MAX_BLOB_FAILURES;
	in.crc_bits = r->fam->crc_bits;
	in.force = r->o->force;
	if (r->hint_used)
		rlog(r, TF_LOG_INFO,
		     "hardware unknown in bootloader mode: remembered hardware %s "
		     "(learnt on %s from %s)",
		     r->hint.hw, tf_time_str(r->hint.learnt, t, sizeof(t)),
		     r->hint.from[0] ? r->hint.from : "an older touchfw");
	rc = tf_plan_make(&in, &r->plan, &err);
	if (rc == TF_PLAN_STATE_UNUSABLE)
		return flow_finish(r, TF_EXIT_STATE, "not updating: %s", err.msg);
	/* -ENODEV: the chip's bootloader says it is another kind of chip than
	 * the firmware is for; no hint changes that. */
	if (rc == -ENODEV)
		return flow_finish(r, TF_EXIT_UNSUPPORTED, "%s", err.msg);
	if (rc < 0 && r->hint_used) {
		struct tf_err e2 = { 0 };

		/* A chip swapped at the same address: the board decides, as
		 * it does for a chip never seen. */
		in.hw_hint = NULL;
		if (tf_plan_make(&in, &r->plan, &e2) == 0 && r->plan.fw) {
			rlog(r, TF_LOG_WARNING,
			     "remembered hardware %s (learnt on %s) has no "
			     "firmware for this board: a swapped chip? choosing by the board; "
			     "'touchfw forget %s' clears it",
			     r->hint.hw, tf_time_str(r->hint.learnt, t, sizeof(t)),
			     r->c.dev.name);
			r->hint_used = false;
			tf_err_clear(&err);
		}
	}
	if (err.code) {
		r->failed_before = err.code == EAGAIN;
		return flow_finish(r, TF_EXIT_NO_FIRMWARE, "%s", err.msg);
	}
	if (!r->plan.fw && !holds_program(r))
		return no_program(r);
	if ((rc = keep_running_file(r)))
		return rc;
	if (r->plan.fw) {
		tf_snprintf(r->res->planned_fw, sizeof(r->res->planned_fw), "%s",
			    r->plan.fw->id);
		tf_snprintf(r->res->planned_fw_version, sizeof(r->res->planned_fw_version),
			    "%s", r->plan.fw->version);
	}
	if (r->plan.cfg && r->plan.cfg_needed)
		tf_snprintf(r->res->planned_cfg, sizeof(r->res->planned_cfg), "%s",
			    r->plan.cfg->id);
	tf_snprintf(r->res->fw_reason, sizeof(r->res->fw_reason), "%s", r->plan.fw_reason);
	tf_snprintf(r->res->cfg_reason, sizeof(r->res->cfg_reason), "%s", r->plan.cfg_reason);
	rlog(r, TF_LOG_INFO, "firmware: %s%s%s",
	     r->plan.fw ? "install " : "keep: ", r->plan.fw ? r->plan.fw->id : "",
	     r->plan.fw ? "" : r->plan.fw_reason);
	if (r->plan.fw)
		rlog(r, TF_LOG_INFO, "firmware: why: %s", r->plan.fw_reason);
	rlog(r, TF_LOG_INFO, "config: %s%s (%s)",
	     r->plan.cfg && r->plan.cfg_needed ? "write " : "keep",
	     r->plan.cfg && r->plan.cfg_needed ? r->plan.cfg->id : "", r->plan.cfg_reason);
	return TF_EXIT_OK;
}
