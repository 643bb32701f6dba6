// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The update state machine (see flow.h): the lock, the device, the board
 * profile, the family, the attempts, the firmware database, then the
 * steps of the other flow files in order, and the way out.  Each step
 * logs one line with the device name; every failure ends in a distinct
 * exit code with a message that names the file, field or device and, when
 * the chip is left in its bootloader, says that a later run can flash it
 * again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exitcode.h"
#include "flow.h"
#include "flow-bus.h"
#include "flow-detect.h"
#include "flow-flash.h"
#include "flow-load.h"
#include "flow-outcome.h"
#include "flow-plan.h"
#include "flow-services.h"
#include "flow-update.h"
#include "flow-verify.h"

/* ------------------------------------------------------------ progress */

static void progress(void *user, const struct tf_progress *p)
{
	struct flow_run *r = user;
	int pct = p->total ? (int)(p->done * 100 / p->total) : 100;

	r->last_progress = *p;
	if (r->o->quiet_progress)
		return;
	if (r->o->progress) {
		r->o->progress(r->o->progress_user, flow_dev_of(r), p);
	} else if (pct / 10 != r->last_pct / 10 || p->done == p->total) {
		rlog(r, TF_LOG_INFO, "flashing: %3d%% (%zu/%zu frames, %zu bytes%s)", pct,
		     p->done, p->total, p->bytes, p->retries ? ", with retries" : "");
	}
	r->last_pct = pct;
}

/* ------------------------------------------------------------ steps */

static int step_device(struct flow_run *r)
{
	struct tf_err err = { 0 };
	int rc;

	char name[sizeof(r->c.dev.name)];

	tf_snprintf(name, sizeof(name), "%s", r->c.dev.name);
	if (tf_device_lookup(name, &r->c.dev, &err) < 0)
		return flow_finish(r, TF_EXIT_NO_DEVICE, "%s", err.msg);
	/* The note from handle-event is used up either way. */
	rc = r->o->dry_run ? 0
			   : tf_state_take_wait_bind(&r->st, name, (uint64_t)time(NULL),
						     r->s->bind_timeout_ms / 1000 + 60, &err);
	if (rc < 0)
		return flow_finish(r, TF_EXIT_STATE, "%s", err.msg);
	if ((rc || r->o->wait_bind) && !r->c.dev.driver[0]) {
		rlog(r, TF_LOG_INFO, "waiting up to %u ms for a driver to bind",
		     r->s->bind_timeout_ms);
		rc = tf_device_wait_bound(&r->c.dev, (int)r->s->bind_timeout_ms, 500, &err);
		if (rc < 0)
			return flow_finish(r, TF_EXIT_NO_DEVICE, "%s", err.msg);
	}
	tf_snprintf(r->res->driver, sizeof(r->res->driver), "%s", r->c.dev.driver);
	rlog(r, TF_LOG_INFO, "device %s on %s adapter %s%d (%s), driver %s", r->c.dev.syspath,
	     r->c.dev.subsys, strcmp(r->c.dev.subsys, "spi") ? "i2c-" : "spi",
	     r->c.dev.adapter_nr, r->c.dev.adapter_name[0] ? r->c.dev.adapter_name : "unnamed",
	     r->c.dev.driver[0] ? r->c.dev.driver : "none");
	return TF_EXIT_OK;
}

/* Why no profile's controller describes this device (board-match.c's guess). */
static const char *explain_miss(struct flow_run *r, char *buf, size_t size)
{
	struct tf_board_miss_device d = {
		.bus = r->c.dev.subsys,
		.adapter_name = r->c.dev.adapter_name,
		.adapter_of_path = r->c.dev.adapter_of_path,
		.has_reg = r->c.dev.has_addr,
		.reg = r->c.dev.addr,
		.driver = r->c.dev.driver,
	};

	tf_board_explain_miss(r->boards, &r->id, &d, buf, size);
	return buf;
}

static int step_profile(struct flow_run *r)
{
	char why[1200];
	const char *dirs[TF_MAX_DIRS];
	struct tf_err err = { 0 };
	struct tf_board_match_info mi;
	unsigned i;

	for (i = 0; i < r->s->n_boards_dirs; i++)
		dirs[i] = r->s->boards_dirs[i];
	if (tf_board_identify("", &r->id, &err) < 0)
		return flow_finish(r, TF_EXIT_NO_PROFILE, "can not identify the board: %s",
				   err.msg);
	if (tf_board_load(dirs, r->s->n_boards_dirs, &r->boards, &err) < 0)
		return flow_finish(r, TF_EXIT_NO_PROFILE, "board profiles: %s", err.msg);
	for (i = 0; i < tf_board_set_invalid_count(r->boards); i++)
		rlog(r, TF_LOG_WARNING,
		     "ignoring invalid board profile %s (see 'touchfw board check')",
		     tf_board_set_invalid_path(r->boards, i));
	for (i = 0; i < tf_board_set_ignored_count(r->boards); i++) {
		tf_board_ignored_message(tf_board_set_ignored_path(r->boards, i), why,
					 sizeof(why));
		rlog(r, TF_LOG_WARNING, "%s", why);
	}
	r->profile = tf_board_match(r->boards, &r->id, &mi);
	if (r->profile) {
		char diff[600];
		const struct tf_board_profile *other = tf_board_match_conflict(r->boards,
									       &r->id,
									       r->profile, diff,
									       sizeof(diff));

		if (other)
			return flow_finish(
				r, TF_EXIT_PROFILE_INVALID,
				"board profiles %s and %s both match this board equally "
				"well and disagree (%s); remove one, or let one take the "
				"other's file name in an earlier boards directory "
				"(touchfw-board(5))",
				r->profile->path, other->path, diff);
	}
	if (!r->profile) {
		if (r->o->firmware_file || r->o->config_file)
			return TF_EXIT_OK; /* manual flash: synthesised below */
		rlog(r, TF_LOG_DEBUG, "board identity: %s%s",
		     r->id.n_compatible ? r->id.compatible[0] : "",
		     r->id.has_dmi ? " (DMI)" : "");
		return flow_finish(
			r, TF_EXIT_NO_PROFILE,
			"no board profile describes this board (%s); nothing to do; %s",
			r->id.n_compatible ? r->id.compatible[0]
			: r->id.has_dmi	   ? "DMI machine"
					   : "no identity",
			explain_miss(r, why, sizeof(why)));
	}
	r->ctrl = tf_board_lookup_controller(r->profile, r->c.dev.subsys, r->c.dev.adapter_name,
					     r->c.dev.adapter_of_path, r->c.dev.has_addr,
					     r->c.dev.addr);
	if (!r->ctrl) {
		if (r->o->firmware_file || r->o->config_file)
			return TF_EXIT_OK;
		return flow_finish(r, TF_EXIT_NO_PROFILE,
				   "board profile %s has no controller on adapter '%s' "
				   "at 0x%02x; nothing to do; %s",
				   r->profile->name, r->c.dev.adapter_name, r->c.dev.addr,
				   explain_miss(r, why, sizeof(why)));
	}
	tf_snprintf(r->res->profile, sizeof(r->res->profile), "%s", r->profile->name);
	rlog(r, TF_LOG_INFO, "board profile %s (%s): controller %s, family %s, power %s",
	     r->profile->name, r->profile->model, r->ctrl->node_path, r->ctrl->family,
	     tf_power_name(r->ctrl->power));
	return TF_EXIT_OK;
}

/* flash without a profile: what the command line and the driver say. */
static int synth_controller(struct flow_run *r)
{
	const struct tf_family *fi = r->o->family ? tf_family_by_name(r->o->family)
						  : tf_family_by_driver(r->c.dev.driver);

	if (r->ctrl)
		return TF_EXIT_OK;
	if (!fi)
		return flow_finish(r, TF_EXIT_UNSUPPORTED,
				   "no board profile and driver '%s' is not one touchfw "
				   "knows; give --family",
				   r->c.dev.driver[0] ? r->c.dev.driver : "none");
	if (!r->c.dev.has_addr)
		return flow_finish(r, TF_EXIT_UNSUPPORTED,
				   "no board profile and no address in the device name");
	memset(&r->synth, 0, sizeof(r->synth));
	tf_snprintf(r->synth.node_path, sizeof(r->synth.node_path), "(command line)");
	tf_snprintf(r->synth.family, sizeof(r->synth.family), "%s", fi->ids->name);
	tf_snprintf(r->synth.bus, sizeof(r->synth.bus), "%s", r->c.dev.subsys);
	r->synth.reg = r->c.dev.addr;
	r->synth.power = r->o->always_on ? TF_POWER_ALWAYS_ON : TF_POWER_DRIVER;
	r->ctrl = &r->synth;
	rlog(r, TF_LOG_INFO, "no board profile: family %s at 0x%02x, power %s (%s)",
	     fi->ids->name, r->synth.reg, tf_power_name(r->synth.power),
	     r->o->always_on ? "--always-on"
			     : "assumed without --always-on: the driver is never unbound");
	return TF_EXIT_OK;
}

static int step_family(struct flow_run *r)
{
	const struct tf_family *fi = tf_family_by_name(r->ctrl->family);
	struct tf_err err = { 0 };

	if (!fi)
		return flow_finish(r, TF_EXIT_UNSUPPORTED, "family '%s' is not supported",
				   r->ctrl->family);
	r->fam = fi;
	r->ops = fi->ops;
	{
		char msg[300];

		if (r->ctrl != &r->synth &&
		    tf_family_check_controller(fi, r->ctrl, msg, sizeof(msg)) < 0)
			return flow_finish(r, TF_EXIT_PROFILE_INVALID,
					   "board profile %s: %s: %s",
					   r->profile ? r->profile->path : "",
					   r->ctrl->node_path, msg);
	}
	if (r->c.dev.driver[0] && !tf_family_has_driver(fi, r->c.dev.driver))
		return flow_finish(r, TF_EXIT_UNSUPPORTED,
				   "bound to driver %s, which is not a %s driver; the board "
				   "profile says %s is a %s controller",
				   r->c.dev.driver, fi->ids->name, r->ctrl->node_path,
				   fi->ids->name);
	r->c.ctrl = r->ctrl;
	r->c.force = r->o->force;
	/* probe, status and dry runs change nothing (family.h) */
	r->c.read_only = r->o->dry_run;
	r->c.flash_timeout_ms = r->ctrl->flash_timeout_ms ? r->ctrl->flash_timeout_ms
							  : r->s->flash_timeout_ms;
	r->c.progress = progress;
	r->c.progress_user = r;
	if (r->ops->init && r->ops->init(&r->c, &err) < 0)
		return flow_finish(r, TF_EXIT_FAILURE, "%s", err.msg);
	return TF_EXIT_OK;
}

static int step_attempts(struct flow_run *r)
{
	struct tf_attempts a;
	struct tf_err err = { 0 };
	uint64_t now = (uint64_t)time(NULL);
	int rc;

	if (r->o->manual || r->o->ignore_state || r->o->dry_run)
		return TF_EXIT_OK;
	/* Corrupt: the safe side, as if at the limit; unusable: refuse. */
	rc = tf_state_read_attempts(&r->st, r->c.dev.name, &a, &err);
	if (rc == -EBADMSG)
		return flow_finish(r, TF_EXIT_BACKOFF,
				   "not updating: %s; 'touchfw run "
				   "--force %s' tries again and replaces it",
				   err.msg, r->c.dev.name);
	if (rc < 0)
		return flow_finish(r, TF_EXIT_STATE, "not updating: %s", err.msg);
	if (a.count >= r->s->max_attempts)
		return flow_finish(r, TF_EXIT_BACKOFF,
				   "gave up after %u failed attempts (last: %s); "
				   "'touchfw run --force %s' tries again, 'touchfw forget %s' "
				   "clears the count",
				   a.count, a.last_error, r->c.dev.name, r->c.dev.name);
	if (a.count && a.next_allowed > now)
		return flow_finish(
			r, TF_EXIT_BACKOFF,
			"backing off for %llus after %u failed attempt%s (last: %s); "
			"'touchfw run --force %s' tries now, 'touchfw forget %s' "
			"clears the count",
			(unsigned long long)(a.next_allowed - now), a.count,
			a.count == 1 ? "" : "s", a.last_error[0] ? a.last_error : "unknown",
			r->c.dev.name, r->c.dev.name);
	return TF_EXIT_OK;
}

static int step_db(struct flow_run *r)
{
	struct tf_fwdb_opts opts = { .keys_dir = r->s->keys_dir };
	struct tf_err err = { 0 };

	if (r->o->firmware_file || r->o->config_file)
		return TF_EXIT_OK;
	opts.sig = r->s->signatures;
	if (tf_fwdb_load(r->s->db_dir, &opts, &r->db, &err) < 0)
		return flow_finish(r, TF_EXIT_DB_INVALID, "firmware database: %s", err.msg);
	rlog(r, TF_LOG_INFO, "firmware database %s: %zu blobs, %s", r->s->db_dir,
	     r->db->n_blobs,
	     r->db->sig_state == TF_SIG_STATE_VERIFIED	 ? "signature verified"
	     : r->db->sig_state == TF_SIG_STATE_UNSIGNED ? "unsigned"
							 : "signature not checked");
	return TF_EXIT_OK;
}

static int step_detect(struct flow_run *r)
{
	char found[400], cfg_name[TF_FW_NAME_MAX];
	const struct tf_update_path *path;
	struct tf_err err = { 0 };
	int rc;

	/* An add of a chip whose driver's probe may refuse it (one left in
	 * its bootloader: caps.bus_recovery) can be handled while that probe
	 * runs: let it end first, neither racing nor judging it. */
	if (!r->c.dev.driver[0] && r->fam->caps.bus_recovery)
		flow_settle_driver_link(r);
	/* What makes the chip readable: the family's say (a driver that
	 * loads the firmware at probe can not bind before the file is there,
	 * so its path does both), else a driver that owns the power bound
	 * first (tf_flow_services.bind_driver_first). */
	path = r->ops->update_path;
	rc = path && path->before_detect ? path->before_detect(&tf_flow_services, &r->u)
					 : tf_flow_services.bind_driver_first(&r->u);
	if (rc)
		return rc;
	flow_read_hw_hint(r);
	rc = flow_detect_settled(r, &r->chip);
	if (rc)
		return rc;
	tf_snprintf(r->res->mode_before, sizeof(r->res->mode_before), "%s",
		    tf_chip_mode_name(r->chip.mode));
	tf_snprintf(r->res->hw, sizeof(r->res->hw), "%s", r->chip.hw);
	tf_snprintf(r->res->detail, sizeof(r->res->detail), "%s", r->chip.detail);
	tf_snprintf(r->res->version_before, sizeof(r->res->version_before), "%s",
		    r->chip.version_str);
	r->res->has_crc_before = r->chip.has_config_crc;
	r->res->crc_before = r->chip.config_crc;
	r->res->crc_bits = r->fam->crc_bits;
	if (r->chip.has_config_version)
		tf_snprintf(r->res->config_version_before,
			    sizeof(r->res->config_version_before), "%s",
			    r->chip.config_version_str);
	if (r->chip.mode == TF_CHIP_ABSENT)
		return flow_finish(r, TF_EXIT_NO_DEVICE, "%s", r->chip.detail);
	if (r->chip.mode == TF_CHIP_APP && r->chip.program_from_driver) {
		/* nothing in the chip to read: what the driver says */
		rlog(r, TF_LOG_INFO, "%s", r->chip.detail);
	} else if (r->chip.mode == TF_CHIP_APP && !r->chip.hw[0] && !r->chip.has_version) {
		/* identified, but what it runs only its driver reads */
		rlog(r, TF_LOG_INFO, "application mode: %s", r->chip.detail);
	} else if (r->chip.mode == TF_CHIP_APP) {
		char crc[16];

		flow_persist_hw(r, r->chip.hw);
		rlog(r, TF_LOG_INFO, "%s mode: hardware %s, firmware %s, config CRC %s",
		     tf_chip_mode_name(r->chip.mode), r->chip.hw, r->chip.version_str,
		     flow_crc_text(r, &r->chip, crc));
	} else {
		rlog(r, TF_LOG_INFO, "bootloader mode: %s", r->chip.detail);
	}
	/* (a driver that applies it only when asked undoes nothing) */
	if (r->fam->caps.kernel_cfg &&
	    (!path || !path->config_at_probe || path->config_at_probe(&r->c)) &&
	    r->ops->kernel_cfg_name(&r->c, &r->chip, cfg_name, sizeof(cfg_name), &err) == 0 &&
	    tf_firmware_find(r->s->firmware_dirs, r->s->n_firmware_dirs,
			     r->s->firmware_class_path, cfg_name, found, sizeof(found)) == 0)
		rlog(r, TF_LOG_WARNING,
		     "%s exists: the %s driver applies it at every probe and may undo "
		     "touchfw's configuration",
		     found, r->c.dev.driver[0] ? r->c.dev.driver : "kernel");
	return TF_EXIT_OK;
}

int tf_flow_run(const struct tf_settings *s, const char *devname, const struct tf_flow_opts *o,
		struct tf_flow_result *res)
{
	struct flow_run r;
	struct tf_err err = { 0 };
	char crc[16];
	int rc;

	memset(&r, 0, sizeof(r));
	memset(res, 0, sizeof(*res));
	r.s = s;
	r.o = o;
	r.res = res;
	r.lock_fd = -1;
	r.st.dirfd = -1;
	r.t0 = tf_now_ms();
	r.last_pct = -1;
	r.u.c = &r.c;
	r.u.chip = &r.chip;
	tf_snprintf(r.c.dev.name, sizeof(r.c.dev.name), "%s", devname);

	/* Stop requests (systemd stop, shutdown, ^C) are seen between frames
	 * and steps, and undone on the way out (flow_interrupted()). */
	if (!o->dry_run)
		tf_signals_catch();
	if (tf_settings_disabled(s) && !o->manual && !o->dry_run) {
		rc = flow_finish(&r, TF_EXIT_DISABLED, "touchfw is disabled (%s); nothing done",
				 s->disabled_by_cmdline ? "kernel command line" : s->path);
		rlog(&r, TF_LOG_NOTICE, "%s", res->message);
		return rc;
	}
	/* A device that does not exist gets no lock file and no result
	 * record: a typo, or a device gone before its run started, would
	 * leave them in the state directory (/run) for good.  One that
	 * vanishes later is found missing under the lock (step_device). */
	if (tf_device_lookup(devname, &r.c.dev, &err) < 0) {
		rc = flow_finish(&r, TF_EXIT_NO_DEVICE, "%s", err.msg);
		goto out;
	}
	tf_err_clear(&err);
	/* A dry run (probe, status, run --dry-run) changes nothing: it makes
	 * no state directory and no lock file; where none exists, no run
	 * holds the device. */
	if (tf_state_open(&r.st, s->state_dir, !o->dry_run, &err) < 0 &&
	    !(o->dry_run && err.code == ENOENT)) {
		rc = flow_finish(&r, err.code == EACCES ? TF_EXIT_PERMISSION : TF_EXIT_STATE,
				 "state directory %s%s", err.msg,
				 err.code == EACCES ? " (touchfw needs root)" : "");
		goto out;
	}
	r.lock_fd = r.st.dirfd < 0 ? -ENOENT
				   : tf_state_lock(&r.st, devname, false, !o->dry_run, &err);
	if (r.lock_fd < 0 && !(o->dry_run && r.lock_fd == -ENOENT)) {
		rc = flow_finish(&r, r.lock_fd == -EWOULDBLOCK ? TF_EXIT_LOCKED : TF_EXIT_STATE,
				 "%s",
				 r.lock_fd == -EWOULDBLOCK
					 ? "another touchfw is working on this device"
					 : err.msg);
		goto out;
	}
	/* The persistent directory likewise: what it says decides which
	 * blobs are tried, so one that can not be trusted is no "no
	 * firmware" but an unusable state (nothing written to it or the
	 * chip). */
	if (!o->manual && tf_persist_check(s->persist_dir, &err) < 0) {
		rc = flow_finish(&r, err.code == EACCES ? TF_EXIT_PERMISSION : TF_EXIT_STATE,
				 "persistent directory %s%s", err.msg,
				 err.code == EACCES ? " (touchfw needs root)" : "");
		goto out;
	}
	if (!o->dry_run) {
		char what[1024];

		/* A run killed mid-update (kill -9, power cut) left the
		 * loader path or a staged file: undo that first, or a later
		 * update would "restore" the stale path. */
		if (tf_fw_repair(s->firmware_class_path, s->state_dir, what, sizeof(what)) > 0)
			rlog(&r, TF_LOG_WARNING, "repaired what an interrupted run left: %s",
			     what);
		/* ... and an spi device it left bound to spidev */
		if (tf_spidev_repair(r.st.dirfd, r.st.dir, devname, flow_repair_bind, &r, what,
				     sizeof(what)) > 0)
			rlog(&r, TF_LOG_WARNING, "repaired what an interrupted run left: %s",
			     what);
	}
	if ((rc = step_device(&r)) || (rc = step_profile(&r)) || (rc = synth_controller(&r)) ||
	    (rc = step_family(&r)) || (rc = flow_step_files(&r)) || (rc = step_attempts(&r)) ||
	    (rc = step_db(&r)) || (rc = flow_step_bus(&r)) || (rc = step_detect(&r)) ||
	    (rc = flow_step_plan(&r)) || (rc = flow_step_recovery_allowed(&r)))
		goto out;
	if (!r.plan.fw && !(r.plan.cfg && r.plan.cfg_needed) &&
	    ((!o->firmware_file && !o->config_file) || r.fw_kept)) {
		if (r.fw_kept) /* the plan's decision, for dry runs too */
			rc = flow_finish(&r, TF_EXIT_OK, "up to date: %s, driver %s, input %s",
					 res->fw_id, r.c.dev.driver, res->input);
		else if (r.chip.has_version)
			rc = flow_finish(&r, TF_EXIT_OK, "up to date (firmware %s%s)",
					 r.chip.version_str,
					 r.plan.cfg ? ", config matches" : "");
		else
			rc = flow_finish(&r, TF_EXIT_OK, "nothing to do: %s (%s)",
					 r.chip.detail, r.plan.fw_reason);
		goto out;
	}
	if (o->dry_run || s->mode == TF_MODE_REPORT_ONLY) {
		enum tf_update_way way;
		char what[480];

		/* Read, parse and check everything a real run would write,
		 * and decide as it does, up to its first write. */
		if ((rc = flow_step_load(&r)) || (rc = flow_decide_update(&r, &way)))
			goto out;
		flow_describe_dry_run(&r, way, what, sizeof(what));
		rc = flow_finish(&r, TF_EXIT_OK, "%s: %s; leaving the chip alone",
				 o->dry_run ? "dry run" : "report-only mode", what);
		goto out;
	}
	/* The blobs are read and checked first: a bad one is the database's
	 * mistake, found before the chip is touched. */
	if ((rc = flow_step_load(&r)) || (rc = flow_reserve_attempt(&r)))
		goto out;
	if (tf_stop_requested()) {
		rc = flow_interrupted(&r, "before the update started");
		goto out;
	}
	if ((rc = flow_step_update(&r)) || (rc = flow_step_verify(&r))) {
		rc = flow_driver_lost(&r, rc);
		goto out;
	}
	/* A configuration the chip has already (flash --config of the one it
	 * runs): nothing was written, and the message says so rather than
	 * "updated: firmware X -> X". */
	if (r.cfg_already && !r.fw_img && !r.flashed_anything)
		rc = flow_finish(&r, TF_EXIT_OK,
				 "configuration already on the chip (config CRC %s, firmware "
				 "%s): nothing written",
				 TF_CRC_TEXT(r.cfg_crc, r.fam->crc_bits),
				 r.chip.version_str[0] ? r.chip.version_str : "unknown");
	else if (r.chip.program_from_driver)
		rc = flow_finish(&r, TF_EXIT_OK, "%s: %s, driver %s, input %s",
				 r.flashed_anything ? "updated" : "up to date", res->fw_id,
				 r.c.dev.driver[0] ? r.c.dev.driver : "none",
				 res->input[0] ? res->input : "-");
	else if (r.chip.has_config_version && !r.flashed_anything)
		rc = flow_finish(
			&r, TF_EXIT_OK,
			"updated: configuration version %s -> %s (firmware %s), config "
			"CRC %s, input %s",
			res->config_version_before[0] ? res->config_version_before : "(none)",
			r.chip.config_version_str, r.chip.version_str,
			flow_crc_text(&r, &r.chip, crc), res->input[0] ? res->input : "-");
	else
		rc = flow_finish(&r, TF_EXIT_OK,
				 "updated: firmware %s -> %s, config CRC %s, input %s",
				 res->version_before[0] ? res->version_before : "(none)",
				 r.chip.version_str, flow_crc_text(&r, &r.chip, crc),
				 res->input[0] ? res->input : "-");
out:
	if (rc && r.ops) {
		rc = flow_after_failure(&r, rc);
		res->exit_code = rc;
	}
	res->duration_ms = tf_now_ms() - r.t0;
	res->frames = (unsigned)r.last_progress.done;
	res->retries = r.last_progress.retries;
	if (r.claim.active || r.c.spi_open || r.spi_prev_driver[0]) {
		flow_spi_let_go(&r);
		tf_device_refresh(&r.c.dev);
		/* the touch driver let go for spidev: bind it again on every
		 * way out (an update path did so already) */
		if (r.spi_prev_driver[0] && !r.c.dev.driver[0]) {
			struct tf_err e2 = { 0 };

			rlog(&r, TF_LOG_INFO, "rebind: binding %s", r.spi_prev_driver);
			tf_state_mark_own_bind(&r.st, r.c.dev.name, (uint64_t)time(NULL));
			if (tf_device_bind(&r.c.dev, r.spi_prev_driver, &e2) < 0)
				rlog(&r, TF_LOG_WARNING, "%s", e2.msg);
		}
	}
	/* the claim undone (or never made): its record goes */
	if (!r.claim.active && r.st.dirfd >= 0 && !strcmp(r.c.dev.subsys, "spi"))
		tf_spidev_record_drop(r.st.dirfd, r.c.dev.name);
	if (r.ops && r.ops->fini && r.c.priv)
		r.ops->fini(&r.c);
	flow_release_lines(&r);
	tf_i2c_close(r.c.bus);
	if (r.fw_img)
		r.ops->free_firmware(r.fw_img);
	if (r.cfg_obj)
		r.ops->free_config(r.cfg_obj);
	free(r.cfg_data);
	/* A run that found the device locked did nothing: the result, the
	 * history and the metrics belong to the run that holds the lock. */
	if (r.st.dirfd >= 0 && rc != TF_EXIT_LOCKED)
		flow_record(&r);
	/* Messages say what happened; the log line says to which device.
	 * Said while the lock is still held: whoever waits for the run's
	 * lock (a second run, a test, a status) finds its log complete. */
	if (rc == TF_EXIT_OK)
		rlog(&r, TF_LOG_INFO, "%s", res->message);
	else if (rc == TF_EXIT_NO_PROFILE)
		/* Not an error, but the run did nothing: say why. */
		rlog(&r, TF_LOG_NOTICE, "%s (exit %d, %s)", res->message, rc, tf_exit_name(rc));
	else
		rlog(&r, TF_LOG_ERR, "%s (exit %d, %s)", res->message, rc, tf_exit_name(rc));
	if (r.db)
		tf_fwdb_free(r.db);
	if (r.boards)
		tf_board_set_free(r.boards);
	tf_board_identity_free(&r.id);
	if (r.lock_fd >= 0)
		close(r.lock_fd);
	tf_state_close(&r.st);
	return rc;
}
