// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The update state machine (see flow.h).  Each step logs one line with the
 * device name; every failure ends in a distinct exit code with a message
 * that names the file, field or device and, when the chip is left in its
 * bootloader, says that a later run can flash it again.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/input.h>

#include "exitcode.h"
#include "flow-priv.h"
#include "fw-install.h"
#include "metrics.h"

#define MAX_BLOB_FAILURES 2	/* across reboots, per device and blob */
#define EVENT_NODE_WAIT_MS 3000 /* sysfs has the event node, /dev not yet */

/* Record the outcome and return its exit code. */
int finish(struct run *r, int code, const char *fmt, ...)
{
	va_list ap;

	r->res->exit_code = code;
	va_start(ap, fmt);
	vsnprintf(r->res->message, sizeof(r->res->message), fmt, ap);
	va_end(ap);
	return code;
}

/* A chip's config CRC for messages, in its family's width ("0x06F670"),
 * or "unknown" when detection could not read one. */
static const char *crc_text(const struct run *r, const struct tf_chip_state *st,
			    char buf[TF_CRC_TEXT_MAX])
{
	if (!st->has_config_crc)
		return "unknown";
	return tf_crc_text(buf, st->config_crc, r->fam->crc_bits);
}

/* ------------------------------------------------------------ progress */

static void progress(void *user, const struct tf_progress *p)
{
	struct run *r = user;
	int pct = p->total ? (int)(p->done * 100 / p->total) : 100;

	r->last_progress = *p;
	if (r->o->quiet_progress)
		return;
	if (r->o->progress) {
		r->o->progress(r->o->progress_user, dev_of(r), p);
	} else if (pct / 10 != r->last_pct / 10 || p->done == p->total) {
		rlog(r, TF_LOG_INFO, "flashing: %3d%% (%zu/%zu frames, %zu bytes%s)", pct,
		     p->done, p->total, p->bytes, p->retries ? ", with retries" : "");
	}
	r->last_pct = pct;
}

/* ------------------------------------------------------------ steps */

static int step_device(struct run *r)
{
	struct tf_err err = { 0 };
	int rc;

	char name[sizeof(r->c.dev.name)];

	tf_snprintf(name, sizeof(name), "%s", r->c.dev.name);
	if (tf_device_lookup(name, &r->c.dev, &err) < 0)
		return finish(r, TF_EXIT_NO_DEVICE, "%s", err.msg);
	/* The note from handle-event is used up either way. */
	rc = r->o->dry_run ? 0
			   : tf_state_take_wait_bind(&r->st, name, (uint64_t)time(NULL),
						     r->s->bind_timeout_ms / 1000 + 60, &err);
	if (rc < 0)
		return finish(r, TF_EXIT_STATE, "%s", err.msg);
	if ((rc || r->o->wait_bind) && !r->c.dev.driver[0]) {
		rlog(r, TF_LOG_INFO, "waiting up to %u ms for a driver to bind",
		     r->s->bind_timeout_ms);
		rc = tf_device_wait_bound(&r->c.dev, (int)r->s->bind_timeout_ms, 500, &err);
		if (rc < 0)
			return finish(r, TF_EXIT_NO_DEVICE, "%s", err.msg);
	}
	tf_snprintf(r->res->driver, sizeof(r->res->driver), "%s", r->c.dev.driver);
	rlog(r, TF_LOG_INFO, "device %s on %s adapter %s%d (%s), driver %s", r->c.dev.syspath,
	     r->c.dev.subsys, strcmp(r->c.dev.subsys, "spi") ? "i2c-" : "spi",
	     r->c.dev.adapter_nr, r->c.dev.adapter_name[0] ? r->c.dev.adapter_name : "unnamed",
	     r->c.dev.driver[0] ? r->c.dev.driver : "none");
	return TF_EXIT_OK;
}

/* Why no profile's controller describes this device (board-match.c's guess). */
static const char *explain_miss(struct run *r, char *buf, size_t size)
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

static int step_profile(struct run *r)
{
	char why[1200];
	const char *dirs[TF_MAX_DIRS];
	struct tf_err err = { 0 };
	struct tf_board_match_info mi;
	unsigned i;

	for (i = 0; i < r->s->n_boards_dirs; i++)
		dirs[i] = r->s->boards_dirs[i];
	if (tf_board_identify("", &r->id, &err) < 0)
		return finish(r, TF_EXIT_NO_PROFILE, "can not identify the board: %s", err.msg);
	if (tf_board_load(dirs, r->s->n_boards_dirs, &r->boards, &err) < 0)
		return finish(r, TF_EXIT_NO_PROFILE, "board profiles: %s", err.msg);
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
			return finish(r, TF_EXIT_PROFILE_INVALID,
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
		return finish(r, TF_EXIT_NO_PROFILE,
			      "no board profile describes this board (%s); nothing to do; %s",
			      r->id.n_compatible ? r->id.compatible[0]
			      : r->id.has_dmi	 ? "DMI machine"
						 : "no identity",
			      explain_miss(r, why, sizeof(why)));
	}
	r->ctrl = tf_board_lookup_controller(r->profile, r->c.dev.subsys, r->c.dev.adapter_name,
					     r->c.dev.adapter_of_path, r->c.dev.has_addr,
					     r->c.dev.addr);
	if (!r->ctrl) {
		if (r->o->firmware_file || r->o->config_file)
			return TF_EXIT_OK;
		return finish(r, TF_EXIT_NO_PROFILE,
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
static int synth_controller(struct run *r)
{
	const struct tf_family *fi = r->o->family ? tf_family_by_name(r->o->family)
						  : tf_family_by_driver(r->c.dev.driver);

	if (r->ctrl)
		return TF_EXIT_OK;
	if (!fi)
		return finish(r, TF_EXIT_UNSUPPORTED,
			      "no board profile and driver '%s' is not one touchfw "
			      "knows; give --family",
			      r->c.dev.driver[0] ? r->c.dev.driver : "none");
	if (!r->c.dev.has_addr)
		return finish(r, TF_EXIT_UNSUPPORTED,
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

/* The driver to bind: the one bound before, the profile's, the family's. */
const char *driver_to_bind(struct run *r)
{
	if (r->spi_prev_driver[0] &&
	    (!r->c.dev.driver[0] || !strcmp(r->c.dev.driver, "spidev")))
		return r->spi_prev_driver;
	return r->c.dev.driver[0]   ? r->c.dev.driver
	       : r->ctrl->driver[0] ? r->ctrl->driver
				    : r->fam->ids->drivers[0];
}

static int step_family(struct run *r)
{
	const struct tf_family *fi = tf_family_by_name(r->ctrl->family);
	struct tf_err err = { 0 };

	if (!fi)
		return finish(r, TF_EXIT_UNSUPPORTED, "family '%s' is not supported",
			      r->ctrl->family);
	r->fam = fi;
	r->ops = fi->ops;
	{
		char msg[300];

		if (r->ctrl != &r->synth &&
		    tf_family_check_controller(fi, r->ctrl, msg, sizeof(msg)) < 0)
			return finish(r, TF_EXIT_PROFILE_INVALID, "board profile %s: %s: %s",
				      r->profile ? r->profile->path : "", r->ctrl->node_path,
				      msg);
	}
	if (r->c.dev.driver[0] && !tf_family_has_driver(fi, r->c.dev.driver))
		return finish(r, TF_EXIT_UNSUPPORTED,
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
		return finish(r, TF_EXIT_FAILURE, "%s", err.msg);
	return TF_EXIT_OK;
}

static int step_attempts(struct run *r)
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
		return finish(r, TF_EXIT_BACKOFF,
			      "not updating: %s; 'touchfw run "
			      "--force %s' tries again and replaces it",
			      err.msg, r->c.dev.name);
	if (rc < 0)
		return finish(r, TF_EXIT_STATE, "not updating: %s", err.msg);
	if (a.count >= r->s->max_attempts)
		return finish(r, TF_EXIT_BACKOFF,
			      "gave up after %u failed attempts (last: %s); "
			      "'touchfw run --force %s' tries again, 'touchfw forget %s' "
			      "clears the count",
			      a.count, a.last_error, r->c.dev.name, r->c.dev.name);
	if (a.count && a.next_allowed > now)
		return finish(r, TF_EXIT_BACKOFF,
			      "backing off for %llus after %u failed attempt%s (last: %s); "
			      "'touchfw run --force %s' tries now, 'touchfw forget %s' "
			      "clears the count",
			      (unsigned long long)(a.next_allowed - now), a.count,
			      a.count == 1 ? "" : "s",
			      a.last_error[0] ? a.last_error : "unknown", r->c.dev.name,
			      r->c.dev.name);
	return TF_EXIT_OK;
}

static int step_db(struct run *r)
{
	struct tf_fwdb_opts opts = { .keys_dir = r->s->keys_dir };
	struct tf_err err = { 0 };

	if (r->o->firmware_file || r->o->config_file)
		return TF_EXIT_OK;
	opts.sig = r->s->signatures;
	if (tf_fwdb_load(r->s->db_dir, &opts, &r->db, &err) < 0)
		return finish(r, TF_EXIT_DB_INVALID, "firmware database: %s", err.msg);
	rlog(r, TF_LOG_INFO, "firmware database %s: %zu blobs, %s", r->s->db_dir,
	     r->db->n_blobs,
	     r->db->sig_state == TF_SIG_STATE_VERIFIED	 ? "signature verified"
	     : r->db->sig_state == TF_SIG_STATE_UNSIGNED ? "unsigned"
							 : "signature not checked");
	return TF_EXIT_OK;
}

/* Close the spidev transport and undo the claim (unbind spidev, clear
 * driver_override), so that the touch driver can bind again. */
void spi_let_go(struct run *r)
{
	struct tf_err err = { 0 };

	if (r->c.spi_open && !r->o->dry_run && r->c.priv &&
	    (r->flashed_anything || r->cfg_obj) && !r->spi_after_valid &&
	    r->ops->detect(&r->c, &r->spi_after, &err) == 0)
		r->spi_after_valid = true;
	if (r->c.spi_open)
		tf_spi_close(&r->c.spi);
	r->c.spi_open = false;
	if (!r->claim.active)
		return;
	if (r->claim.bound_spidev)
		rlog(r, TF_LOG_INFO, "spi: unbinding spidev%s",
		     r->claim.set_override ? " and clearing driver_override" : "");
	if (tf_spidev_release(&r->claim, &err) < 0)
		rlog(r, TF_LOG_WARNING, "%s", err.msg);
	tf_device_refresh(&r->c.dev);
}

/* tf_spidev_repair()'s bind: marked as touchfw's own, as every bind. */
static void repair_bind(void *user, const char *dev, const char *driver)
{
	struct run *r = user;
	struct tf_err err = { 0 };

	tf_state_mark_own_bind(&r->st, dev, (uint64_t)time(NULL));
	if (tf_spi_bind_driver(dev, driver, TF_BIND_TIMEOUT_MS, &err) < 0)
		rlog(r, TF_LOG_WARNING, "%s", err.msg);
}

/*
 * spi: user space reaches the chip only through spidev, so the touch
 * driver must let go and spidev is bound with driver_override (undone by
 * spi_let_go on every way out).  Without the driver the chip must keep
 * its power: profiles with power = "driver" are refused here.
 */
static int open_spi(struct run *r)
{
	struct tf_spi_cfg cfg = { 0 };
	struct tf_err err = { 0 };
	const char *drv = r->c.dev.driver;

	if (drv[0] && strcmp(drv, "spidev") && r->o->dry_run)
		return finish(r, TF_EXIT_UNSUPPORTED,
			      "over spi only spidev reaches the chip, and a dry run does not "
			      "unbind %s ('touchfw run %s' does)",
			      drv, r->c.dev.name);
	if (r->ctrl->power == TF_POWER_DRIVER &&
	    (drv[0] ? strcmp(drv, "spidev") != 0 : r->ctrl->driver[0] != 0))
		return finish(
			r, TF_EXIT_UNSUPPORTED,
			"over spi touchfw flashes through spidev, without the touch "
			"driver, and the profile says the driver owns the power "
			"(power = \"driver\"); the %s family can not work through the "
			"driver's attributes instead, so only power = \"always-on\" works "
			"for it on spi",
			r->fam->ids->name);
	/* What the device has, on disk before anything changes: a run
	 * killed from here on is repaired at the next start
	 * (tf_spidev_repair). */
	if (r->st.dirfd >= 0 &&
	    tf_spidev_record(r->st.dirfd, r->st.dir, r->c.dev.name, drv, &err) < 0)
		return finish(r, TF_EXIT_STATE, "%s", err.msg);
	if (drv[0] && strcmp(drv, "spidev")) {
		tf_snprintf(r->spi_prev_driver, sizeof(r->spi_prev_driver), "%s", drv);
		rlog(r, TF_LOG_INFO, "spi: unbinding %s, so that spidev can have the device",
		     r->spi_prev_driver);
		if (tf_device_unbind(&r->c.dev, &err) < 0)
			return finish(r, TF_EXIT_IO, "%s", err.msg);
	}
	/* EBUSY: somebody else's driver_override or driver has the device --
	 * a setup touchfw does not take over (unsupported), not an I/O
	 * failure. */
	if (tf_spidev_claim(r->c.dev.name, &r->claim, 3000, &err) < 0)
		return finish(r,
			      err.code == ENODEV  ? TF_EXIT_NO_DEVICE
			      : err.code == EBUSY ? TF_EXIT_UNSUPPORTED
						  : TF_EXIT_IO,
			      "%s", err.msg);
	if (r->claim.bound_spidev)
		rlog(r, TF_LOG_INFO, "spi: bound spidev (%s)", r->claim.node);
	cfg.has_mode = r->ctrl->has_spi_mode;
	cfg.mode = r->ctrl->spi_mode;
	cfg.bits = r->ctrl->spi_bits;
	cfg.speed_hz = r->ctrl->spi_max_hz;
	if (tf_spi_open(&r->c.spi, r->claim.node, &cfg, &err) < 0)
		return finish(r, err.code == EACCES ? TF_EXIT_PERMISSION : TF_EXIT_IO, "%s%s",
			      err.msg, err.code == EACCES ? " (touchfw needs root)" : "");
	r->c.spi_open = true;
	rlog(r, TF_LOG_INFO, "spi: %s, mode %u, %u bits, %u Hz, spidev bufsiz %zu",
	     r->claim.node, r->c.spi.mode & 3, r->c.spi.bits, r->c.spi.speed_hz,
	     r->c.spi.bufsiz);
	/* From here the flow sees the device as unbound (the touch driver,
	 * if any, is remembered in spi_prev_driver). */
	r->c.dev.driver[0] = '\0';
	return TF_EXIT_OK;
}

/*
 * spi with power = "driver": the driver must keep the device (spidev can
 * only have it without the driver, and without the driver the chip may
 * lose its power), so the family reads the chip through the driver's
 * attributes and flashes through its kernel_fw_attr.  A driver not bound
 * yet is bound by step_detect(); spidev left bound is used as it is.
 */
static bool spi_through_driver(struct run *r)
{
	const char *drv = r->c.dev.driver;

	return r->ctrl->power == TF_POWER_DRIVER && r->ops->detect_driver &&
	       r->fam->caps.kernel_fw_attr &&
	       (drv[0] ? strcmp(drv, "spidev") != 0 : r->ctrl->driver[0] != 0);
}

static int step_bus(struct run *r)
{
	unsigned t = r->fam->caps.transports;
	struct tf_err err = { 0 };

	if (!strcmp(r->c.dev.subsys, "spi")) {
		if (!(t & TF_TRANSPORT_SPI))
			return finish(r, TF_EXIT_UNSUPPORTED,
				      "the %s family has no spi transport", r->fam->ids->name);
		if (spi_through_driver(r)) {
			r->via_driver = true;
			rlog(r, TF_LOG_INFO,
			     "spi: the driver keeps the device (power = \"driver\"): "
			     "the chip is read through its attributes and flashed through its %s",
			     r->fam->caps.kernel_fw_attr);
			return TF_EXIT_OK;
		}
		return open_spi(r);
	}
	if (strcmp(r->c.dev.subsys, "i2c"))
		return finish(r, TF_EXIT_UNSUPPORTED, "%s devices are not supported",
			      r->c.dev.subsys);
	if (!(t & TF_TRANSPORT_I2C))
		return finish(r, TF_EXIT_UNSUPPORTED, "the %s family has no i2c transport",
			      r->fam->ids->name);
	if (tf_i2c_open(&r->c.bus, r->c.dev.adapter_nr, &err) < 0)
		return finish(r, err.code == EACCES ? TF_EXIT_PERMISSION : TF_EXIT_IO, "%s%s",
			      err.msg, err.code == EACCES ? " (touchfw needs root)" : "");
	if (!tf_i2c_plain_ok(r->c.bus) && !(t & TF_TRANSPORT_SMBUS))
		return finish(r, TF_EXIT_UNSUPPORTED,
			      "adapter i2c-%d (%s) is SMBus-only; the %s family needs "
			      "plain I2C transfers",
			      r->c.dev.adapter_nr, r->c.dev.adapter_name, r->fam->ids->name);
	return TF_EXIT_OK;
}

/*
 * The chip's state: over the bus, or what the bound driver shows.  A
 * driver creates its attributes in its probe or right after it, and the
 * driver core made the driver link before: the kernel's bind write returns
 * after the probe, but a bind touchfw did not make (or a driver core that
 * answers at once) can leave the link visible before the attributes, so a
 * missing one is looked for again while the link stays -- and a link that
 * goes meanwhile was a probe that failed: the device is unbound.
 */
int chip_read(struct run *r, struct tf_chip_state *st, struct tf_err *err)
{
	/* as long as a probe may take (a driver may sleep seconds for a
	 * chip in its bootloader) */
	uint64_t end = tf_now_ms() + TF_BIND_TIMEOUT_MS;
	int rc;

	if (!r->via_driver) {
		char drv[sizeof(r->c.dev.driver)];

		tf_snprintf(drv, sizeof(drv), "%s", r->c.dev.driver);
		rc = r->ops->detect(&r->c, st, err);
		if (rc >= 0 || !drv[0])
			return rc;
		/* The link exists during a probe, also one that then fails
		 * (a run started by the add can see it): a link gone by now
		 * was no bound driver, so the device is judged again as it
		 * is, once a probe in progress has ended. */
		tf_device_refresh(&r->c.dev);
		if (!strcmp(drv, r->c.dev.driver))
			return rc;
		rlog(r, TF_LOG_INFO, "%s; judging the device again", err->msg);
		settle_driver_link(r);
		tf_err_clear(err);
		return r->ops->detect(&r->c, st, err);
	}
	for (;;) {
		tf_device_refresh(&r->c.dev);
		tf_err_clear(err);
		rc = r->ops->detect_driver(&r->c, st, err);
		if (rc != -ENOENT || !r->c.dev.driver[0] || tf_now_ms() >= end)
			return rc;
		tf_sleep_us(20000);
	}
}

int detect(struct run *r, struct tf_chip_state *st)
{
	struct tf_err err = { 0 };

	if (chip_read(r, st, &err) < 0)
		return finish(r,
			      err.code == EBADMSG || err.code == EOPNOTSUPP
				      ? TF_EXIT_UNSUPPORTED
				      : TF_EXIT_IO,
			      "%s", err.msg);
	return TF_EXIT_OK;
}

/*
 * Detection with a bound driver that may be in its probe/reset window: a
 * driver may reset the chip from its probe or its asynchronous config
 * callback right after a bind (doc/touchfw.8 names one), and the chip
 * answers at none of its addresses for a while.  Silence then is
 * retried with growing sleeps, for at most the input timeout (the
 * profile's, else the settings') -- the time a probe is given anyway --
 * and logged; a chip that is really gone still ends in "no answer".
 */
static int detect_settled(struct run *r, struct tf_chip_state *st)
{
	unsigned bound = r->ctrl->input_timeout_ms ? r->ctrl->input_timeout_ms
						   : r->s->input_timeout_ms;
	uint64_t t0 = tf_now_ms(), delay = 10;
	int rc = detect(r, st);

	if (rc || st->mode != TF_CHIP_ABSENT || !r->c.dev.driver[0])
		return rc;
	rlog(r, TF_LOG_INFO,
	     "%s; %s may be resetting it after its probe: retrying for up "
	     "to %u ms",
	     st->detail, r->c.dev.driver, bound);
	while (st->mode == TF_CHIP_ABSENT && tf_now_ms() - t0 < bound && !tf_stop_requested()) {
		tf_sleep_us(delay * 1000);
		delay = delay * 2 < 200 ? delay * 2 : 200;
		rc = detect(r, st);
		if (rc)
			return rc;
	}
	if (st->mode != TF_CHIP_ABSENT)
		rlog(r, TF_LOG_INFO, "the chip answered after %llu ms",
		     (unsigned long long)(tf_now_ms() - t0));
	return TF_EXIT_OK;
}

/* Remember the hardware for a later bootloader-mode start (not in the
 * read-only dry runs of probe and status), with when it was first seen. */
static void persist_hw(struct run *r, const char *hw)
{
	struct tf_hw_hint h = { 0 };
	struct tf_err err = { 0 };

	if (!hw[0] || r->o->dry_run || !strcmp(r->hint.hw, hw))
		return;
	tf_snprintf(h.hw, sizeof(h.hw), "%s", hw);
	h.learnt = (uint64_t)time(NULL);
	tf_snprintf(h.from, sizeof(h.from), "the chip in application mode");
	if (tf_persist_write_hw(r->s->persist_dir, r->c.dev.name, &h, &err) < 0)
		rlog(r, TF_LOG_WARNING, "hardware hint not saved: %s", err.msg);
	else
		r->hint = h;
}

static void read_hw_hint(struct run *r)
{
	struct tf_err err = { 0 };

	if (tf_persist_read_hw(r->s->persist_dir, r->c.dev.name, &r->hint, &err) < 0)
		rlog(r, TF_LOG_WARNING, "hardware hint ignored: %s", err.msg);
}

static int step_detect(struct run *r)
{
	char found[400], cfg_name[TF_FW_NAME_MAX];
	struct tf_err err = { 0 };
	int rc;

	/* An add of a chip whose driver's probe may refuse it (one left in
	 * its bootloader: caps.bus_recovery) can be handled while that probe
	 * runs: let it end first, neither racing nor judging it. */
	if (!r->c.dev.driver[0] && r->fam->caps.bus_recovery)
		settle_driver_link(r);
	/* A driver that owns the power keeps the chip off while unbound; a
	 * dry run does not bind it (it changes nothing) and says so. */
	if (!r->c.dev.driver[0] && r->ctrl->power == TF_POWER_DRIVER && r->ctrl->driver[0] &&
	    r->o->dry_run && !r->fam->caps.kernel_fw_probe) {
		tf_snprintf(r->res->mode_before, sizeof(r->res->mode_before), "unpowered");
		return finish(r, TF_EXIT_NO_DEVICE,
			      "driver %s is not bound and owns the power, so the chip "
			      "is off; a dry run does not bind it ('touchfw run %s' does)",
			      r->ctrl->driver, r->c.dev.name);
	}
	/* A driver that loads the firmware at probe can not bind before the
	 * file is there: the path does both (path_probe_file). */
	if (!r->c.dev.driver[0] && r->ctrl->power == TF_POWER_DRIVER && r->ctrl->driver[0] &&
	    !r->fam->caps.kernel_fw_probe) {
		rlog(r, TF_LOG_INFO, "driver not bound and it owns the power: binding %s first",
		     r->ctrl->driver);
		if (tf_state_mark_own_bind(&r->st, r->c.dev.name, (uint64_t)time(NULL)) < 0)
			rlog(r, TF_LOG_WARNING,
			     "the marker for touchfw's own bind could not be "
			     "written in %s: handle-event may start another run for it",
			     r->s->state_dir);
		if (tf_device_bind(&r->c.dev, r->ctrl->driver, &err) < 0)
			rlog(r, TF_LOG_WARNING, "%s", err.msg);
	}
	read_hw_hint(r);
	rc = detect_settled(r, &r->chip);
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
		return finish(r, TF_EXIT_NO_DEVICE, "%s", r->chip.detail);
	if (r->chip.mode == TF_CHIP_APP && r->fam->caps.kernel_fw_probe) {
		/* nothing in the chip to read: what the driver says */
		rlog(r, TF_LOG_INFO, "%s", r->chip.detail);
	} else if (r->chip.mode == TF_CHIP_APP) {
		char crc[16];

		persist_hw(r, r->chip.hw);
		rlog(r, TF_LOG_INFO, "%s mode: hardware %s, firmware %s, config CRC %s",
		     tf_chip_mode_name(r->chip.mode), r->chip.hw, r->chip.version_str,
		     crc_text(r, &r->chip, crc));
	} else {
		rlog(r, TF_LOG_INFO, "bootloader mode: %s", r->chip.detail);
	}
	if (r->fam->caps.kernel_cfg && !cfg_through_attr(r) &&
	    r->ops->kernel_cfg_name(&r->c, &r->chip, cfg_name, sizeof(cfg_name), &err) == 0 &&
	    tf_firmware_find(r->s->firmware_dirs, r->s->n_firmware_dirs,
			     r->s->firmware_class_path, cfg_name, found, sizeof(found)) == 0)
		rlog(r, TF_LOG_WARNING,
		     "%s exists: the %s driver applies it at every probe and may undo "
		     "touchfw's configuration",
		     found, r->c.dev.driver[0] ? r->c.dev.driver : "kernel");
	return TF_EXIT_OK;
}

/*
 * A chip that keeps no firmware (caps.kernel_fw_probe) runs a program only
 * while its driver is bound: the driver's probe loads the file and fails
 * without it.  Other chips keep theirs.
 */
static bool holds_program(const struct run *r)
{
	return !r->fam->caps.kernel_fw_probe ||
	       (r->c.dev.driver[0] && tf_family_has_driver(r->fam, r->c.dev.driver) &&
		!r->chip.not_running);
}

/*
 * Nothing in the database for a chip that holds no program: it can not
 * work, so this is no "up to date".  Says which file the driver wants,
 * for which board the database lacks an entry, and how to add one.
 */
static int no_program(struct run *r)
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
	return finish(r, TF_EXIT_NO_FIRMWARE,
		      "no firmware for this board: the chip holds no program, %s loads %s "
		      "at every probe and fails without it, and the database %s has no %s "
		      "firmware for board %s%s%s%s. Add the board's file with 'touchfw db "
		      "add FILE --board %s'%s%s",
		      r->ctrl->driver[0] ? r->ctrl->driver : r->fam->ids->drivers[0], name,
		      r->s->db_dir, r->fam->ids->name, board[0] ? board : "(no profile)",
		      skipped ? " (" : "", skipped ? r->plan.fw_reason : "", skipped ? ")" : "",
		      board[0] ? board : "BOARD", src ? "; " : "", src ? src : "");
}

static int step_plan(struct run *r)
{
	struct tf_plan_input in = { 0 };
	struct tf_err err = { 0 };
	char t[40];
	int rc;

	if (!r->db)
		return TF_EXIT_OK; /* manual files */
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
	in.config_versioned = r->fam->caps.config_versioned;
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
		return finish(r, TF_EXIT_STATE, "not updating: %s", err.msg);
	/* -ENODEV: the chip's bootloader says it is another kind of chip than
	 * the firmware is for; no hint changes that. */
	if (rc == -ENODEV)
		return finish(r, TF_EXIT_UNSUPPORTED, "%s", err.msg);
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
		return finish(r, TF_EXIT_NO_FIRMWARE, "%s", err.msg);
	}
	if (!r->plan.fw && !holds_program(r))
		return no_program(r);
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

/*
 * The driver took the configuration only if its new input device has the
 * axis ranges that configuration gives (ops.expected_axes), read from the
 * event node as libevdev does.  A chip that kept its old configuration, or
 * a driver that sent another file, shows the old ranges.
 */
static int verify_axes(struct run *r, const struct tf_chip_state *st)
{
	struct tf_err err = { 0 };
	int32_t want_x, want_y, min, got_x = 0, got_y = 0;
	char cfg_name[TF_FW_NAME_MAX];
	uint64_t end;

	void *blob = r->cfg_obj ? r->cfg_obj : r->fam->caps.kernel_fw_probe ? r->fw_img : NULL;
	const char *blob_id = r->cfg_obj ? r->res->cfg_id : r->res->fw_id;

	if (!blob || !r->ops->expected_axes || !r->res->input[0])
		return TF_EXIT_OK;
	if (r->ops->expected_axes(&r->c, blob, &want_x, &want_y) < 0)
		return TF_EXIT_OK;
	/* The kernel's sysfs entry comes first; the /dev node is udev's (or
	 * devtmpfs') and may follow a moment later. */
	for (end = tf_now_ms() + EVENT_NODE_WAIT_MS;;) {
		tf_err_clear(&err);
		if (tf_input_abs_range(r->res->input, ABS_MT_POSITION_X, &min, &got_x, &err) ==
			    0 ||
		    err.code != ENOENT || tf_now_ms() >= end)
			break;
		tf_sleep_us(10000);
	}
	if (err.code ||
	    tf_input_abs_range(r->res->input, ABS_MT_POSITION_Y, &min, &got_y, &err) < 0)
		return finish(r, TF_EXIT_VERIFY, "can not read the new input device's axes: %s",
			      err.msg);
	if (got_x != want_x || got_y != want_y) {
		char hint[TF_FW_NAME_MAX + 64] = "";

		if (r->fam->caps.kernel_cfg &&
		    r->ops->kernel_cfg_name(&r->c, st, cfg_name, sizeof(cfg_name), &err) == 0)
			tf_snprintf(hint, sizeof(hint),
				    " (is another %s in the firmware path overriding it?)",
				    cfg_name);
		return finish(r, TF_EXIT_VERIFY,
			      "input %s has ABS_MT_POSITION_X/Y maxima %d/%d, but %s gives "
			      "%d/%d: the driver did not take the %s%s",
			      r->res->input, got_x, got_y,
			      r->cfg_obj ? blob_id : "the board profile", want_x, want_y,
			      r->cfg_obj ? "configuration" : "board's properties", hint);
	}
	rlog(r, TF_LOG_INFO, "input %s: ABS_MT_POSITION_X/Y maxima %d/%d, as %s gives",
	     r->res->input, got_x, got_y, r->cfg_obj ? blob_id : "the board profile");
	return TF_EXIT_OK;
}

/*
 * A driver that loads the chip's program from a file at every probe asks
 * for it again at resume (caps.kernel_fw_probe): the file this run
 * verified is installed where the loader finds it then, after the run's
 * staging is gone (fw-install.h).  Not doing so is said, not an error.
 */
static void install_for_reload(struct run *r)
{
	struct tf_err err = { 0 };
	char name[TF_FW_NAME_MAX], msg[1200];
	const uint8_t *img;
	size_t len;
	int rc;

	if (!r->fw_img || r->ops->kernel_fw_name(&r->c, &r->chip, name, sizeof(name), &err) < 0)
		return;
	r->ops->kernel_firmware(r->fw_img, &img, &len);
	rc = tf_fw_install(r->s, r->c.dev.name, name, r->res->fw_id, img, len, r->o->force, msg,
			   sizeof(msg), &err);
	if (rc < 0)
		rlog(r, TF_LOG_WARNING,
		     "%s; a resume that reloads the firmware will not find it", err.msg);
	else
		rlog(r, rc ? TF_LOG_WARNING : TF_LOG_INFO, "%s", msg);
}

static int step_verify(struct run *r)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };
	char cfg_name[TF_FW_NAME_MAX], crc[16];
	int rc;

	if (!r->flashed_anything && !r->cfg_obj)
		return TF_EXIT_OK;
	tf_device_refresh(&r->c.dev);
	if (r->via_driver) {
		rc = detect(r, &st); /* what the driver shows after its new probe */
		if (rc)
			return rc;
	} else if (!strcmp(r->c.dev.subsys, "spi")) {
		/* the bound driver owns the spi device: what the chip said
		 * over spidev just before the driver was bound again */
		if (!r->spi_after_valid)
			return finish(r, TF_EXIT_VERIFY,
				      "the chip could not be read back over "
				      "spidev after the update");
		st = r->spi_after;
	} else {
		rc = detect(r, &st);
		if (rc)
			return rc;
	}
	if (st.mode != TF_CHIP_APP)
		return finish(r, TF_EXIT_VERIFY, "after the update the chip is in %s mode (%s)",
			      tf_chip_mode_name(st.mode), st.detail);
	if (st.not_running)
		return finish(r, TF_EXIT_VERIFY, "after the update: %s", st.detail);
	persist_hw(r, st.hw); /* the chip says what it is now */
	tf_snprintf(r->res->version_after, sizeof(r->res->version_after), "%s", st.version_str);
	r->res->has_crc_after = st.has_config_crc;
	r->res->crc_after = st.config_crc;
	if (st.has_config_version)
		tf_snprintf(r->res->config_version_after, sizeof(r->res->config_version_after),
			    "%s", st.config_version_str);
	/* A chip that reports no version (caps.kernel_fw_probe) is judged by
	 * its driver's input device below. */
	if (r->plan.fw && (st.has_version || !r->fam->caps.kernel_fw_probe) &&
	    tf_version_cmp(&st.version, &r->plan.fw->v_version))
		return finish(r, TF_EXIT_VERIFY,
			      "the chip reports firmware %s after installing %s (%s)",
			      st.version_str, r->plan.fw->version, r->plan.fw->id);
	/* The input device first: it says whether the driver took it. */
	rc = verify_axes(r, &st);
	if (rc)
		return rc;
	if (r->cfg_obj && st.has_config_crc && st.config_crc != r->cfg_crc)
		return finish(r, TF_EXIT_VERIFY,
			      "config CRC is %s after writing %s (expected %s); "
			      "is a %s in the firmware path overriding it?",
			      TF_CRC_TEXT(st.config_crc, r->fam->crc_bits), r->res->cfg_id,
			      TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits),
			      r->fam->caps.kernel_cfg &&
					      r->ops->kernel_cfg_name(&r->c, &st, cfg_name,
								      sizeof(cfg_name),
								      &err) == 0
				      ? cfg_name
				      : "driver config");
	if (r->fam->caps.kernel_fw_probe)
		rlog(r, TF_LOG_INFO, "verified: %s bound with %s, input %s; %s",
		     r->c.dev.driver, r->res->fw_id, r->res->input[0] ? r->res->input : "-",
		     st.detail);
	else if (st.has_config_version && !r->flashed_anything)
		rlog(r, TF_LOG_INFO,
		     "verified: configuration version %s -> %s, config CRC %s, "
		     "input %s",
		     r->res->config_version_before[0] ? r->res->config_version_before
						      : "(none)",
		     st.config_version_str, crc_text(r, &st, crc),
		     r->res->input[0] ? r->res->input : "-");
	else
		rlog(r, TF_LOG_INFO, "verified: firmware %s%s%s, config CRC %s, input %s",
		     r->res->version_before[0] ? r->res->version_before : "(bootloader)",
		     " -> ", st.version_str, crc_text(r, &st, crc),
		     r->res->input[0] ? r->res->input : "-");
	if (r->fam->unproven)
		rlog(r, TF_LOG_INFO, "not proven by this: %s", r->fam->unproven);
	r->chip = st;
	if (r->fam->caps.kernel_fw_probe)
		install_for_reload(r);
	return TF_EXIT_OK;
}

/*
 * After a failed update, look at the chip again before reporting: a
 * rebind may have reset it out of its bootloader (a driver's probe may
 * do that), so "left in its bootloader" is said only of a chip found there.
 * Completes the message with the state found and returns the exit code
 * that state calls for.
 */
/*
 * What the message promised of the next run holds within the attempt
 * limit and after the back-off: say which applies (the count is known
 * only once this failure is recorded).
 */
static void attempt_note(struct run *r, unsigned count)
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

static int after_failure(struct run *r, int rc)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };
	char *m = r->res->message;
	size_t n = strlen(m), size = sizeof(r->res->message);
	int i;

	if (!r->touched || !(r->c.bus || r->via_driver) || rc == TF_EXIT_INTERRUPTED ||
	    r->next_run_said)
		return rc;
	tf_device_refresh(&r->c.dev);
	/* A driver probing after the rebind may hold the chip in reset for a
	 * moment: silence is looked at a few times. */
	for (i = 0; i < 20; i++) {
		if (chip_read(r, &st, &err) < 0)
			break;
		if (st.mode != TF_CHIP_ABSENT)
			break;
		tf_sleep_us(50000);
	}
	if (r->foreign && r->hint_used &&
	    tf_persist_forget_hw(r->s->persist_dir, r->c.dev.name, NULL) == 0 && n < size)
		n += (size_t)snprintf(m + n, size - n,
				      "; the remembered hardware %s was wrong "
				      "and is forgotten",
				      r->hint.hw);
	if (err.code) {
		if (n < size)
			snprintf(m + n, size - n,
				 "; the chip's state could not be read again: %s", err.msg);
		return rc;
	}
	if (st.mode == TF_CHIP_BOOTLOADER) {
		if (n < size)
			snprintf(m + n, size - n,
				 "; the chip is in its bootloader: the next bind "
				 "or 'touchfw run %s' flashes it again",
				 r->c.dev.name);
		return TF_EXIT_BOOTLOADER;
	}
	if (st.mode == TF_CHIP_ABSENT) {
		/* Unpowered (its driver unbound) or gone: where the update
		 * failed in the bootloader, that is where it comes back. */
		if (n < size)
			snprintf(m + n, size - n, "; the chip does not answer now (%s)%s%s%s",
				 st.detail,
				 rc == TF_EXIT_BOOTLOADER
					 ? "; it comes back in its bootloader: "
					   "the next bind or 'touchfw run "
					 : "",
				 rc == TF_EXIT_BOOTLOADER ? r->c.dev.name : "",
				 rc == TF_EXIT_BOOTLOADER ? "' flashes it again" : "");
		return rc;
	}
	if (rc != TF_EXIT_BOOTLOADER)
		return rc; /* the message says what failed in application mode */
	if (n < size)
		snprintf(m + n, size - n,
			 "; the chip is back in application mode (firmware %s)",
			 st.version_str);
	/* Its application was never replaced: an image the chip refused is
	 * bad input, anything else an I/O failure that left it unchanged. */
	return r->foreign ? TF_EXIT_BAD_INPUT : TF_EXIT_IO;
}

/* ------------------------------------------------------------ bookkeeping */

/*
 * Count this run as a failed attempt before touching the chip, so that a
 * crash or power loss mid-update counts too; a success clears it, a failure
 * only rewrites the message (record()).  An attempt that can not be
 * recorded (a full or broken /run) means the limit that keeps touchfw from
 * flashing a chip that fails every time no longer holds: do not flash.
 */
static int reserve_attempt(struct run *r)
{
	struct tf_err err = { 0 };

	if (r->o->manual)
		return TF_EXIT_OK;
	if (tf_state_reserve_attempt(&r->st, r->c.dev.name, r->s->backoff_s, &err) < 0)
		return finish(r, TF_EXIT_STATE,
			      "not updating: the attempt can not be "
			      "recorded (%s), so the limit of %u attempts would not hold; "
			      "nothing was flashed",
			      err.msg, r->s->max_attempts);
	r->attempt_reserved = true;
	return TF_EXIT_OK;
}

/* The failure is the database's or the profile's, found before anything
 * was written to the chip. */
static bool not_the_devices(const struct run *r)
{
	int code = r->res->exit_code;

	if (r->touched)
		return false;
	return code == TF_EXIT_DB_INVALID || code == TF_EXIT_BAD_INPUT ||
	       (code == TF_EXIT_NO_FIRMWARE && !r->failed_before);
}

/* The device's metrics, and with prometheus_dir set the textfile
 * (metrics.h); a failure is said, the run's result stays. */
static void record_metrics(struct run *r)
{
	struct tf_err err = { 0 };

	if (tf_metrics_record(&r->st, r->c.dev.name, r->fam ? r->fam->ids->name : "", r->res,
			      &err) < 0 ||
	    tf_metrics_publish(r->s, &err) < 0)
		rlog(r, TF_LOG_WARNING, "metrics for Prometheus not written: %s", err.msg);
}

static void record_state(struct run *r)
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
static void record(struct run *r)
{
	if (r->st.dirfd < 0 || !r->c.dev.name[0] || r->o->dry_run)
		return;
	record_state(r);
	record_metrics(r);
}

int tf_flow_run(const struct tf_settings *s, const char *devname, const struct tf_flow_opts *o,
		struct tf_flow_result *res)
{
	struct run r;
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
	tf_snprintf(r.c.dev.name, sizeof(r.c.dev.name), "%s", devname);

	/* Stop requests (systemd stop, shutdown, ^C) are seen between frames
	 * and steps, and undone on the way out (interrupted()). */
	if (!o->dry_run)
		tf_signals_catch();
	if (tf_settings_disabled(s) && !o->manual && !o->dry_run) {
		rc = finish(&r, TF_EXIT_DISABLED, "touchfw is disabled (%s); nothing done",
			    s->disabled_by_cmdline ? "kernel command line" : s->path);
		rlog(&r, TF_LOG_NOTICE, "%s", res->message);
		return rc;
	}
	/* A device that does not exist gets no lock file and no result
	 * record: a typo, or a device gone before its run started, would
	 * leave them in the state directory (/run) for good.  One that
	 * vanishes later is found missing under the lock (step_device). */
	if (tf_device_lookup(devname, &r.c.dev, &err) < 0) {
		rc = finish(&r, TF_EXIT_NO_DEVICE, "%s", err.msg);
		goto out;
	}
	tf_err_clear(&err);
	/* A dry run (probe, status, run --dry-run) changes nothing: it makes
	 * no state directory and no lock file; where none exists, no run
	 * holds the device. */
	if (tf_state_open(&r.st, s->state_dir, !o->dry_run, &err) < 0 &&
	    !(o->dry_run && err.code == ENOENT)) {
		rc = finish(&r, err.code == EACCES ? TF_EXIT_PERMISSION : TF_EXIT_STATE,
			    "state directory %s%s", err.msg,
			    err.code == EACCES ? " (touchfw needs root)" : "");
		goto out;
	}
	r.lock_fd = r.st.dirfd < 0 ? -ENOENT
				   : tf_state_lock(&r.st, devname, false, !o->dry_run, &err);
	if (r.lock_fd < 0 && !(o->dry_run && r.lock_fd == -ENOENT)) {
		rc = finish(&r, r.lock_fd == -EWOULDBLOCK ? TF_EXIT_LOCKED : TF_EXIT_STATE,
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
		rc = finish(&r, err.code == EACCES ? TF_EXIT_PERMISSION : TF_EXIT_STATE,
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
		if (tf_spidev_repair(r.st.dirfd, r.st.dir, devname, repair_bind, &r, what,
				     sizeof(what)) > 0)
			rlog(&r, TF_LOG_WARNING, "repaired what an interrupted run left: %s",
			     what);
	}
	if ((rc = step_device(&r)) || (rc = step_profile(&r)) || (rc = synth_controller(&r)) ||
	    (rc = step_family(&r)) || (rc = step_files(&r)) || (rc = step_attempts(&r)) ||
	    (rc = step_db(&r)) || (rc = step_bus(&r)) || (rc = step_detect(&r)) ||
	    (rc = step_plan(&r)) || (rc = step_recovery_allowed(&r)))
		goto out;
	if (!r.plan.fw && !(r.plan.cfg && r.plan.cfg_needed) && !o->firmware_file &&
	    !o->config_file) {
		if (r.chip.has_version)
			rc = finish(&r, TF_EXIT_OK, "up to date (firmware %s%s)",
				    r.chip.version_str, r.plan.cfg ? ", config matches" : "");
		else
			rc = finish(&r, TF_EXIT_OK, "nothing to do: %s (%s)", r.chip.detail,
				    r.plan.fw_reason);
		goto out;
	}
	if (o->dry_run || s->mode == TF_MODE_REPORT_ONLY) {
		enum upd_path path;
		char what[480];

		/* Read, parse and check everything a real run would write,
		 * and decide as it does, up to its first write. */
		if ((rc = step_load(&r)) || (rc = decide_update(&r, &path)))
			goto out;
		describe_dry_run(&r, path, what, sizeof(what));
		rc = finish(&r, TF_EXIT_OK, "%s: %s; leaving the chip alone",
			    o->dry_run ? "dry run" : "report-only mode", what);
		goto out;
	}
	/* The blobs are read and checked first: a bad one is the database's
	 * mistake, found before the chip is touched. */
	if ((rc = step_load(&r)) || (rc = reserve_attempt(&r)))
		goto out;
	if (tf_stop_requested()) {
		rc = interrupted(&r, "before the update started");
		goto out;
	}
	if ((rc = step_update(&r)) || (rc = step_verify(&r))) {
		rc = driver_lost(&r, rc);
		goto out;
	}
	/* A configuration the chip has already (flash --config of the one it
	 * runs): nothing was written, and the message says so rather than
	 * "updated: firmware X -> X". */
	if (r.cfg_already && !r.fw_img && !r.flashed_anything)
		rc = finish(&r, TF_EXIT_OK,
			    "configuration already on the chip (config CRC %s, firmware "
			    "%s): nothing written",
			    TF_CRC_TEXT(r.cfg_crc, r.fam->crc_bits),
			    r.chip.version_str[0] ? r.chip.version_str : "unknown");
	else if (r.fam->caps.kernel_fw_probe)
		rc = finish(&r, TF_EXIT_OK, "%s: %s, driver %s, input %s",
			    r.flashed_anything ? "updated" : "up to date", res->fw_id,
			    r.c.dev.driver[0] ? r.c.dev.driver : "none",
			    res->input[0] ? res->input : "-");
	else if (r.chip.has_config_version && !r.flashed_anything)
		rc = finish(&r, TF_EXIT_OK,
			    "updated: configuration version %s -> %s (firmware %s), config "
			    "CRC %s, input %s",
			    res->config_version_before[0] ? res->config_version_before
							  : "(none)",
			    r.chip.config_version_str, r.chip.version_str,
			    crc_text(&r, &r.chip, crc), res->input[0] ? res->input : "-");
	else
		rc = finish(&r, TF_EXIT_OK,
			    "updated: firmware %s -> %s, config CRC %s, input %s",
			    res->version_before[0] ? res->version_before : "(none)",
			    r.chip.version_str, crc_text(&r, &r.chip, crc),
			    res->input[0] ? res->input : "-");
out:
	if (rc && r.ops) {
		rc = after_failure(&r, rc);
		res->exit_code = rc;
	}
	res->duration_ms = tf_now_ms() - r.t0;
	res->frames = (unsigned)r.last_progress.done;
	res->retries = r.last_progress.retries;
	if (r.claim.active || r.c.spi_open || r.spi_prev_driver[0]) {
		spi_let_go(&r);
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
	release_lines(&r);
	tf_i2c_close(r.c.bus);
	if (r.fw_img)
		r.ops->free_firmware(r.fw_img);
	if (r.cfg_obj)
		r.ops->free_config(r.cfg_obj);
	free(r.cfg_data);
	if (r.st.dirfd >= 0)
		record(&r);
	if (r.db)
		tf_fwdb_free(r.db);
	if (r.boards)
		tf_board_set_free(r.boards);
	tf_board_identity_free(&r.id);
	if (r.lock_fd >= 0)
		close(r.lock_fd);
	tf_state_close(&r.st);
	/* Messages say what happened; the log line says to which device. */
	if (rc == TF_EXIT_OK)
		rlog(&r, TF_LOG_INFO, "%s", res->message);
	else if (rc == TF_EXIT_NO_PROFILE)
		/* Not an error, but the run did nothing: say why. */
		rlog(&r, TF_LOG_NOTICE, "%s (exit %d, %s)", res->message, rc, tf_exit_name(rc));
	else
		rlog(&r, TF_LOG_ERR, "%s (exit %d, %s)", res->message, rc, tf_exit_name(rc));
	return rc;
}
