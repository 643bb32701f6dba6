// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The update state machine (see flow.h).  Each step logs one line with the
 * device name; every failure ends in a distinct exit code with a message
 * that names the file, field or device and, when the chip is left in its
 * bootloader, says that a later run can flash it again.
 */
#include "flow.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/input.h>

#include "board.h"
#include "device.h"
#include "exitcode.h"
#include "family/family.h"
#include "fwdb.h"
#include "log.h"
#include "plan.h"
#include "state.h"

#define MAX_BLOB_FAILURES 2 /* across reboots, per device and blob */
#define GPIO_BUSY_RETRY_MS 2000
#define EVENT_NODE_WAIT_MS 3000 /* sysfs has the event node, /dev not yet */

struct run {
	const struct tf_settings *s;
	const struct tf_flow_opts *o;
	struct tf_flow_result *res;
	struct tf_state st;
	int lock_fd;
	struct tf_board_identity id;
	struct tf_board_set *boards;
	const struct tf_board_profile *profile;
	struct tf_controller synth; /* flash without a profile */
	const struct tf_controller *ctrl;
	const struct tf_family *fam;
	const struct tf_family_ops *ops; /* fam->ops */
	struct tf_fwdb *db;
	struct tf_ctx c;
	struct tf_chip_state chip;
	struct tf_plan plan;
	void *fw_img, *cfg_obj;
	/* The configuration's bytes as read and checked once (load_cfg):
	 * staged from here, never read again (a file swapped in between
	 * would be applied unchecked). */
	uint8_t *cfg_data;
	size_t cfg_len;
	uint32_t cfg_crc;
	char fw_sha[65];
	bool flashed_anything;
	bool touched;		/* the update started: re-detect after a failure */
	bool foreign;		/* the chip refused the image as another chip's */
	bool attempt_reserved;	/* this run already counts in DEV.attempts */
	struct tf_hw_hint hint; /* remembered hardware, hint.hw "" if none */
	bool hint_used;		/* the plan went by it (the chip could not say) */
	uint64_t t0;
	struct tf_progress last_progress;
	int last_pct;
	/* spi: the spidev node touchfw made, and the driver that let go */
	struct tf_spidev_claim claim;
	char spi_prev_driver[64];
	/* spi: the chip read back over spidev after the update, before the
	 * driver took it again (only one of them can reach the chip) */
	struct tf_chip_state spi_after;
	bool spi_after_valid;
	/* spi with power = "driver": the bound driver keeps the device (and
	 * so the chip's power); the chip is read through the driver's
	 * attributes (ops.detect_driver) and flashed through kernel_fw_attr */
	bool via_driver;
};

static const char *dev_of(struct run *r)
{
	return r->c.dev.name[0] ? r->c.dev.name : "touchfw";
}

/* A line about this run's device, at the level its options allow; the
 * device is named here once, messages never name it themselves. */
#define rlog(r, prio, ...) tf_log_at((r)->o->log_max, prio, dev_of(r), __VA_ARGS__)

/* Record the outcome and return its exit code. */
static int finish(struct run *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int finish(struct run *r, int code, const char *fmt, ...)
{
	va_list ap;

	r->res->exit_code = code;
	va_start(ap, fmt);
	vsnprintf(r->res->message, sizeof(r->res->message), fmt, ap);
	va_end(ap);
	return code;
}

/* A chip's config CRC for messages: "0x06F670", or "unknown" (a driver
 * that never got the chip's T6 message shows 0). */
static const char *crc_text(const struct tf_chip_state *st, char buf[16])
{
	if (!st->has_config_crc)
		return "unknown";
	snprintf(buf, 16, "0x%06X", st->config_crc & 0xffffffu);
	return buf;
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
	rlog(r, TF_LOG_INFO, "no board profile: family %s at 0x%02x, power %s (command line)",
	     fi->ids->name, r->synth.reg, tf_power_name(r->synth.power));
	return TF_EXIT_OK;
}

/* Is @driver one of @f's kernel drivers? */
static bool family_driver(const struct tf_family *f, const char *driver)
{
	const char *const *d;

	for (d = f->ids->drivers; d && *d; d++)
		if (!strcmp(*d, driver))
			return true;
	return false;
}

/* The driver to bind: the one bound before, the profile's, the family's. */
static const char *driver_to_bind(struct run *r)
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
	if (r->c.dev.driver[0] && !family_driver(fi, r->c.dev.driver))
		return finish(r, TF_EXIT_UNSUPPORTED,
			      "bound to driver %s, which is not a %s driver; the board "
			      "profile says %s is a %s controller",
			      r->c.dev.driver, fi->ids->name, r->ctrl->node_path,
			      fi->ids->name);
	r->c.ctrl = r->ctrl;
	r->c.force = r->o->force;
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
			      "'touchfw run --force %s' tries again",
			      a.count, a.last_error, r->c.dev.name);
	if (a.count && a.next_allowed > now)
		return finish(r, TF_EXIT_BACKOFF,
			      "backing off for %llus after %u failed attempt%s",
			      (unsigned long long)(a.next_allowed - now), a.count,
			      a.count == 1 ? "" : "s");
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
static void spi_let_go(struct run *r)
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
	if (drv[0] && strcmp(drv, "spidev")) {
		tf_snprintf(r->spi_prev_driver, sizeof(r->spi_prev_driver), "%s", drv);
		rlog(r, TF_LOG_INFO, "spi: unbinding %s, so that spidev can have the device",
		     r->spi_prev_driver);
		if (tf_device_unbind(&r->c.dev, &err) < 0)
			return finish(r, TF_EXIT_IO, "%s", err.msg);
	}
	if (tf_spidev_claim(r->c.dev.name, &r->claim, 3000, &err) < 0)
		return finish(r, err.code == ENODEV ? TF_EXIT_NO_DEVICE : TF_EXIT_IO, "%s",
			      err.msg);
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
 * driver creates its attributes in its probe, after the driver core made
 * the driver link: the kernel's bind write returns after the probe, but a
 * bind touchfw did not make (or a driver core that answers at once) can
 * leave the link visible before the attributes, so a missing one is
 * looked for again for a moment.
 */
static int chip_read(struct run *r, struct tf_chip_state *st, struct tf_err *err)
{
	/* as long as a probe may take (a driver may sleep seconds for a
	 * chip in its bootloader) */
	uint64_t end = tf_now_ms() + TF_BIND_TIMEOUT_MS;
	int rc;

	if (!r->via_driver)
		return r->ops->detect(&r->c, st, err);
	for (;;) {
		tf_device_refresh(&r->c.dev);
		tf_err_clear(err);
		rc = r->ops->detect_driver(&r->c, st, err);
		if (rc != -ENOENT || !r->c.dev.driver[0] || tf_now_ms() >= end)
			return rc;
		tf_sleep_us(20000);
	}
}

static int detect(struct run *r, struct tf_chip_state *st)
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
		     crc_text(&r->chip, crc));
	} else {
		rlog(r, TF_LOG_INFO, "bootloader mode: %s", r->chip.detail);
	}
	if (r->fam->caps.kernel_cfg &&
	    r->ops->kernel_cfg_name(&r->c, &r->chip, cfg_name, sizeof(cfg_name), &err) == 0 &&
	    tf_firmware_find(r->s->firmware_dirs, r->s->n_firmware_dirs,
			     r->s->firmware_class_path, cfg_name, found, sizeof(found)) == 0)
		rlog(r, TF_LOG_WARNING,
		     "%s exists: the %s driver applies it at every probe and may undo "
		     "touchfw's configuration",
		     found, r->c.dev.driver[0] ? r->c.dev.driver : "kernel");
	return TF_EXIT_OK;
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
	in.force = r->o->force;
	if (r->hint_used)
		rlog(r, TF_LOG_INFO,
		     "hardware unknown in bootloader mode: remembered hardware %s "
		     "(learnt on %s from %s)",
		     r->hint.hw, tf_time_str(r->hint.learnt, t, sizeof(t)),
		     r->hint.from[0] ? r->hint.from : "an older touchfw");
	rc = tf_plan_make(&in, &r->plan, &err);
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
	if (err.code)
		return finish(r, TF_EXIT_NO_FIRMWARE, "%s", err.msg);
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

static int read_blob_or_file(struct run *r, const struct tf_blob *b, const char *file,
			     uint8_t **data, size_t *len, const char **name)
{
	struct tf_err err = { 0 };
	char *buf = NULL;
	int rc;

	if (file) {
		rc = tf_read_file(file, 64u << 20, &buf, len);
		if (rc < 0)
			return finish(r, TF_EXIT_BAD_INPUT, "%s: %s", file, strerror(-rc));
		*data = (uint8_t *)buf;
		*name = file;
		return TF_EXIT_OK;
	}
	if (tf_fwdb_read_blob(r->db, b, data, len, &err) < 0)
		return finish(r, TF_EXIT_DB_INVALID, "%s", err.msg);
	*name = b->file;
	return TF_EXIT_OK;
}

/* Read and parse the firmware to write (a file or the plan's blob), once. */
static int load_fw(struct run *r)
{
	struct tf_err err = { 0 };
	const char *name;
	uint8_t *data;
	size_t len;
	int rc;

	if (r->fw_img || !(r->plan.fw || r->o->firmware_file))
		return TF_EXIT_OK;
	rc = read_blob_or_file(r, r->plan.fw, r->o->firmware_file, &data, &len, &name);
	if (rc)
		return rc;
	if (r->plan.fw)
		tf_sha256_hex(r->plan.fw->sha256, r->fw_sha);
	/* The family keeps @data as the image or frees it: held once. */
	rc = r->ops->load_firmware(&r->c, data, len, name, &r->fw_img, &err);
	if (rc < 0)
		return finish(r, TF_EXIT_BAD_INPUT, "%s", err.msg);
	tf_snprintf(r->res->fw_id, sizeof(r->res->fw_id), "%s",
		    r->plan.fw ? r->plan.fw->id : name);
	return TF_EXIT_OK;
}

/* Read and parse the configuration to write, once; its CRC in cfg_crc. */
static int load_cfg(struct run *r)
{
	struct tf_err err = { 0 };
	const char *name;
	uint8_t *data;
	size_t len;
	int rc;

	if (r->cfg_obj || !((r->plan.cfg && r->plan.cfg_needed) || r->o->config_file))
		return TF_EXIT_OK;
	if (!r->ops->load_config)
		return finish(r, TF_EXIT_UNSUPPORTED,
			      "%s: the %s family takes no configuration files",
			      r->o->config_file ? r->o->config_file : r->plan.cfg->id,
			      r->fam->ids->name);
	rc = read_blob_or_file(r, r->plan.cfg, r->o->config_file, &data, &len, &name);
	if (rc)
		return rc;
	rc = r->ops->load_config(&r->c, data, len, name, &r->cfg_obj, &r->cfg_crc, &err);
	if (rc < 0) {
		free(data);
		return finish(r, TF_EXIT_BAD_INPUT, "%s", err.msg);
	}
	r->cfg_data = data;
	r->cfg_len = len;
	tf_snprintf(r->res->cfg_id, sizeof(r->res->cfg_id), "%s",
		    r->plan.cfg ? r->plan.cfg->id : name);
	return TF_EXIT_OK;
}

/* flash: the files given are read and parsed before the device is touched. */
static int step_files(struct run *r)
{
	int rc;

	if (!r->o->firmware_file && !r->o->config_file)
		return TF_EXIT_OK;
	if ((rc = load_fw(r)) || (rc = load_cfg(r)))
		return rc;
	if (r->o->firmware_file)
		rlog(r, TF_LOG_INFO, "firmware file %s: parsed", r->o->firmware_file);
	if (r->o->config_file)
		rlog(r, TF_LOG_INFO, "config file %s: parsed, config CRC 0x%06X",
		     r->o->config_file, r->cfg_crc);
	return TF_EXIT_OK;
}

static int step_load(struct run *r)
{
	struct tf_err err = { 0 };
	const char *name;
	int rc;

	if ((rc = load_fw(r)))
		return rc;
	if ((r->plan.cfg && r->plan.cfg_needed) || r->o->config_file) {
		rc = load_cfg(r);
		if (rc)
			return rc;
		name = r->res->cfg_id;
		/* Same firmware, same CRC: nothing to write after all. */
		if (!r->fw_img && r->chip.has_config_crc && r->cfg_crc &&
		    r->cfg_crc == r->chip.config_crc && !r->o->force) {
			rlog(r, TF_LOG_INFO, "config: the chip already has CRC 0x%06X",
			     r->cfg_crc);
			r->ops->free_config(r->cfg_obj);
			r->cfg_obj = NULL;
		} else if (r->chip.mode == TF_CHIP_APP && !r->fw_img && r->ops->check_config &&
			   r->ops->check_config(&r->c, r->cfg_obj, &err) < 0) {
			return finish(r, TF_EXIT_BAD_INPUT, "%s: %s", name, err.msg);
		}
	}
	return TF_EXIT_OK;
}

/* ------------------------------------------------------------ updating */

/*
 * The update failed where the chip may be left in its bootloader; what it
 * is really left in is found by after_failure(), which completes the
 * message.  @e: the family's verdict, when there is one.
 */
static int fail_bootloader(struct run *r, const char *msg, const struct tf_err *e)
{
	r->foreign = e && e->foreign;
	return finish(r, TF_EXIT_BOOTLOADER, "%s", msg);
}

/* A stop signal arrived: say what was done about it (the callers undo
 * their part -- rebind, unstage -- on their way out). */
static int interrupted(struct run *r, const char *what)
{
	int sig = tf_stop_requested();

	return finish(r, TF_EXIT_INTERRUPTED,
		      "stopped by SIG%s %s; the driver is bound again and nothing "
		      "is left staged; this counts as an attempt, not as a failure of "
		      "the firmware: the next bind or 'touchfw run %s' tries again",
		      sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", what, r->c.dev.name);
}

/* Why a bind failed: the bind file missing means the kernel has no such
 * driver (not built, module not loaded); else its probe refused. */
static const char *bind_failure(const struct tf_err *e)
{
	return e->code == ENOENT ? "no such driver in this kernel"
				 : "the driver's probe failed";
}

static int rebind(struct run *r, struct tf_input_watch **w)
{
	struct tf_err err = { 0 };
	const char *driver = driver_to_bind(r);
	char drv[64];

	tf_snprintf(drv, sizeof(drv), "%s", driver);
	if (!*w && tf_input_watch_start(&r->c.dev, w, &err) < 0)
		return finish(r, TF_EXIT_FAILURE, "%s", err.msg);
	spi_let_go(r);
	if (r->c.dev.driver[0]) {
		rlog(r, TF_LOG_INFO, "rebind: unbinding %s", drv);
		if (tf_device_unbind(&r->c.dev, &err) < 0)
			return finish(r, TF_EXIT_IO, "%s", err.msg);
	}
	tf_state_mark_own_bind(&r->st, r->c.dev.name, (uint64_t)time(NULL));
	rlog(r, TF_LOG_INFO, "rebind: binding %s", drv);
	if (tf_device_bind(&r->c.dev, drv, &err) < 0)
		return finish(r, TF_EXIT_VERIFY, "%s (%s)", err.msg, bind_failure(&err));
	return TF_EXIT_OK;
}

static int wait_input(struct run *r, struct tf_input_watch *w)
{
	struct tf_input_node node;
	struct tf_err err = { 0 };
	/* The profile's, else the settings' (the administrator's default). */
	unsigned ms = r->ctrl->input_timeout_ms ? r->ctrl->input_timeout_ms
						: r->s->input_timeout_ms;

	rlog(r, TF_LOG_INFO, "waiting up to %u ms for the application-mode input device", ms);
	if (tf_input_watch_wait(w, (int)ms, &node, &err) < 0)
		return finish(r, err.code == ENODEV ? TF_EXIT_NO_DEVICE : TF_EXIT_VERIFY,
			      "%s (driver %s)", err.msg,
			      r->c.dev.driver[0] ? r->c.dev.driver : "not bound");
	tf_snprintf(r->res->input, sizeof(r->res->input), "%s", node.event);
	rlog(r, TF_LOG_INFO, "input device %s (/dev/input/%s) appeared", node.input,
	     node.event);
	return TF_EXIT_OK;
}

/*
 * A blob's failure on this device, kept across reboots: loudly when it
 * can not be kept, as the limit on that blob then holds only until reboot.
 * Only the chip's (or its driver's) rejection of the blob counts (@e's
 * rejected, which the family sets); an interruption -- the chip vanished,
 * lost power, restarted, was unbound -- counts as an attempt only, or a
 * bind storm would blacklist good firmware.
 */
static void record_blob_failure(struct run *r, const struct tf_err *e)
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

static int flash_over_bus(struct run *r)
{
	struct tf_err err = { 0 };

	if (!r->fam->caps.bus_flash)
		return finish(r, TF_EXIT_UNSUPPORTED,
			      "the %s family can not flash over the bus; only its driver "
			      "can (power = \"driver\" in the profile)",
			      r->fam->ids->name);
	if (r->c.spi_open)
		rlog(r, TF_LOG_INFO, "flashing %s (%s) over %s%s", r->res->fw_id,
		     r->plan.fw ? r->plan.fw->version : "file", r->c.spi.node,
		     r->c.chg ? ", CHG line watched" : ", polling");
	else
		rlog(r, TF_LOG_INFO, "flashing %s (%s) at bootloader address 0x%02x%s",
		     r->res->fw_id, r->plan.fw ? r->plan.fw->version : "file", r->chip.bl_addr,
		     r->c.chg ? ", CHG line watched" : ", polling");
	r->flashed_anything = true;
	if (r->ops->write_firmware(&r->c, &r->chip, r->fw_img, &err) < 0) {
		record_blob_failure(r, &err);
		if (err.code == EINTR && tf_stop_requested())
			return interrupted(r, "between frames (the chip is in its bootloader)");
		return fail_bootloader(r, err.msg, &err);
	}
	if (r->ops->leave_bootloader(&r->c, &r->chip, &err) < 0) {
		record_blob_failure(r, &err);
		return err.code == EBADMSG ? finish(r, TF_EXIT_VERIFY, "%s", err.msg)
					   : fail_bootloader(r, err.msg, &err);
	}
	rlog(r, TF_LOG_INFO, "the chip started the new firmware");
	return TF_EXIT_OK;
}

/* Configuration over the bus; the chip must be in application mode. */
static int config_over_bus(struct run *r)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };
	int rc;

	if (!r->cfg_obj)
		return TF_EXIT_OK;
	rc = detect(r, &st);
	if (rc)
		return rc;
	if (st.mode != TF_CHIP_APP)
		return finish(r, TF_EXIT_VERIFY, "not in application mode for the config");
	if (!r->fam->caps.bus_config)
		return finish(r, TF_EXIT_UNSUPPORTED,
			      "the %s family can not write a configuration over the bus",
			      r->fam->ids->name);
	if (r->ops->check_config && r->ops->check_config(&r->c, r->cfg_obj, &err) < 0)
		return finish(r, TF_EXIT_BAD_INPUT, "%s: %s", r->res->cfg_id, err.msg);
	if (st.has_config_crc && st.config_crc == r->cfg_crc && !r->o->force) {
		rlog(r, TF_LOG_INFO, "config: the chip already has CRC 0x%06X", r->cfg_crc);
		return TF_EXIT_OK;
	}
	rlog(r, TF_LOG_INFO, "config: writing %s, backup to NVM, reset", r->res->cfg_id);
	if (r->ops->write_config(&r->c, r->cfg_obj, &err) < 0)
		return finish(r, TF_EXIT_VERIFY, "%s", err.msg);
	rlog(r, TF_LOG_INFO, "config: CRC 0x%06X verified after reset", r->cfg_crc);
	return TF_EXIT_OK;
}

static int path_bootloader(struct run *r, struct tf_input_watch **w)
{
	int rc;

	tf_snprintf(r->res->path, sizeof(r->res->path), "bootloader");
	if (!r->fw_img)
		return fail_bootloader(r, "no firmware chosen for a chip in bootloader mode",
				       NULL);
	/* The bound driver found no application: it keeps its interrupt off
	 * and nobody claims the bootloader address. */
	rc = flash_over_bus(r);
	if (rc)
		return rc;
	rc = config_over_bus(r);
	if (rc)
		return rc;
	return rebind(r, w);
}

/*
 * Take the profile's lines for the time touchfw owns the chip and give the
 * reset pulse the family asks for (caps.reset, which may drive INT during
 * it).  The driver's lines are released by devres after its remove; where
 * unbind returns before that (slow or emulated driver cores), a busy line
 * is retried for a moment instead of given up.
 */
static int request_lines(struct run *r)
{
	struct tf_reset_seq seq = r->fam->caps.reset;
	struct tf_reset_lines l;

	/* The INT level may depend on the chip (the address it latches). */
	if (seq.drive_int && r->ops->reset_int_level)
		seq.int_level = r->ops->reset_int_level(&r->c);
	tf_gpio_reset_pulse(&seq, r->ctrl->has_reset ? &r->ctrl->reset : NULL,
			    r->ctrl->has_chg ? &r->ctrl->chg : NULL, GPIO_BUSY_RETRY_MS, &l);
	r->c.chg = l.irq;
	r->c.reset = l.reset;
	if (r->ctrl->has_chg && !l.irq)
		rlog(r, TF_LOG_WARNING, "CHG line not available (%s): polling instead",
		     l.irq_err.msg);
	if (r->ctrl->has_reset && !l.reset)
		rlog(r, TF_LOG_WARNING, "reset line not available (%s)", l.reset_err.msg);
	if (l.pulsed)
		rlog(r, TF_LOG_INFO, "reset pulse on the profile's reset line%s",
		     l.irq_driven ? ", interrupt line driven" : "");
	if ((r->fam->caps.lines_needed & TF_LINE_RESET) && !r->c.reset)
		return finish(r, TF_EXIT_UNSUPPORTED,
			      "the %s family needs the reset line, which the profile "
			      "does not give or touchfw could not take",
			      r->fam->ids->name);
	if ((r->fam->caps.lines_needed & TF_LINE_INT) && !r->c.chg)
		return finish(r, TF_EXIT_UNSUPPORTED,
			      "the %s family needs the interrupt line, which the profile "
			      "does not give or touchfw could not take",
			      r->fam->ids->name);
	return TF_EXIT_OK;
}

static void release_lines(struct run *r)
{
	if (r->c.chg)
		tf_gpio_release(r->c.chg);
	if (r->c.reset)
		tf_gpio_release(r->c.reset);
	r->c.chg = r->c.reset = NULL;
}

/*
 * Detection right after the reset pulse.  The pulse's release_us is the
 * least the sources allow before the first access (the family's caps say
 * where it comes from); a chip may need longer to start.
 * So the chip is waited for, not assumed up: with the CHG line held, until
 * it asserts (the chip's reset message), else by detection -- polling the
 * chip's addresses with growing sleeps -- both bounded by the input
 * timeout (the profile's, else the settings').
 */
static int detect_after_reset(struct run *r, struct tf_chip_state *st, bool pulsed)
{
	unsigned bound = r->ctrl->input_timeout_ms ? r->ctrl->input_timeout_ms
						   : r->s->input_timeout_ms;
	uint64_t t0 = tf_now_ms(), delay = 2;
	int rc;

	if (pulsed && r->c.chg && tf_gpio_get(r->c.chg) == 0) {
		int left = (int)bound;

		while (left > 0 && tf_gpio_get(r->c.chg) == 0 && !tf_stop_requested()) {
			if (tf_gpio_wait_edge(r->c.chg, left < 100 ? left : 100) < 0)
				break;
			left = (int)bound - (int)(tf_now_ms() - t0);
		}
		rlog(r, TF_LOG_INFO, "CHG %s %llu ms after the reset's minimum",
		     tf_gpio_get(r->c.chg) == 1 ? "asserted" : "still not asserted",
		     (unsigned long long)(tf_now_ms() - t0));
	}
	rc = detect(r, st);
	if (rc || st->mode != TF_CHIP_ABSENT || !pulsed)
		return rc;
	rlog(r, TF_LOG_INFO,
	     "%s after the reset pulse: waiting up to %u ms for the chip to "
	     "start",
	     st->detail, bound);
	while (st->mode == TF_CHIP_ABSENT && tf_now_ms() - t0 < bound && !tf_stop_requested()) {
		tf_sleep_us(delay * 1000);
		delay = delay * 2 < 50 ? delay * 2 : 50;
		rc = detect(r, st);
		if (rc)
			return rc;
	}
	if (st->mode != TF_CHIP_ABSENT)
		rlog(r, TF_LOG_INFO, "the chip answered %llu ms after the reset's minimum",
		     (unsigned long long)(tf_now_ms() - t0));
	return TF_EXIT_OK;
}

static int path_unbind(struct run *r, struct tf_input_watch **w)
{
	struct tf_err err = { 0 };
	int rc;

	tf_snprintf(r->res->path, sizeof(r->res->path), "unbind");
	if (tf_input_watch_start(&r->c.dev, w, &err) < 0)
		return finish(r, TF_EXIT_FAILURE, "%s", err.msg);
	if (r->c.dev.driver[0]) {
		char drv[sizeof(r->c.dev.driver)];

		rlog(r, TF_LOG_INFO, "unbinding %s (power is always on)", r->c.dev.driver);
		tf_snprintf(drv, sizeof(drv), "%s", r->c.dev.driver);
		if (tf_device_unbind(&r->c.dev, &err) < 0)
			return finish(r, TF_EXIT_IO, "%s", err.msg);
		/* Remember which driver to bind again. */
		tf_snprintf(r->c.dev.driver, sizeof(r->c.dev.driver), "%s", drv);
	}
	rc = request_lines(r);
	if (rc)
		goto out;
	if (tf_stop_requested()) {
		rc = interrupted(r, "after the unbind, before the chip was touched");
		goto out;
	}
	rc = detect_after_reset(r, &r->chip, r->c.reset != NULL);
	if (rc)
		goto out;
	if (r->chip.mode == TF_CHIP_ABSENT) {
		rc = finish(r, TF_EXIT_NO_DEVICE, "after unbinding the driver%s: %s",
			    r->c.reset ? " and a reset pulse" : "", r->chip.detail);
		goto out;
	}
	if (r->fw_img) {
		if (!r->fam->caps.bus_flash) {
			rc = finish(r, TF_EXIT_UNSUPPORTED,
				    "the %s family can not flash over the bus; only its "
				    "driver can (power = \"driver\" in the profile)",
				    r->fam->ids->name);
			goto out;
		}
		if (r->chip.mode == TF_CHIP_APP) {
			rlog(r, TF_LOG_INFO, "entering the bootloader (%s)",
			     r->fam->caps.enter_bootloader_desc);
			if (r->ops->enter_bootloader(&r->c, &r->chip, &err) < 0) {
				rc = finish(r, TF_EXIT_IO, "%s", err.msg);
				goto out;
			}
		}
		rc = flash_over_bus(r);
		if (rc)
			goto out;
	}
	rc = config_over_bus(r);
out:
	release_lines(r);
	/* Bind again whatever happened, so the driver sees the chip's state. */
	{
		char drv[64];
		struct tf_err e2 = { 0 };

		tf_snprintf(drv, sizeof(drv), "%s", driver_to_bind(r));
		spi_let_go(r);
		tf_device_refresh(&r->c.dev);
		if (!r->c.dev.driver[0]) {
			tf_state_mark_own_bind(&r->st, r->c.dev.name, (uint64_t)time(NULL));
			rlog(r, TF_LOG_INFO, "rebind: binding %s", drv);
			if (tf_device_bind(&r->c.dev, drv, &e2) < 0 && !rc)
				rc = finish(r, TF_EXIT_VERIFY, "%s (%s)", e2.msg,
					    bind_failure(&e2));
		}
	}
	return rc;
}

/*
 * Configuration over the bus with the driver bound (caps.bus_config_bound):
 * write_config checks by reading back that the chip took it, then a rebind
 * makes the driver read the chip's new configuration.
 */
static int config_bus_bound(struct run *r, struct tf_input_watch **w)
{
	struct tf_err err = { 0 };
	int rc;

	tf_snprintf(r->res->path, sizeof(r->res->path), "bus-config");
	rlog(r, TF_LOG_INFO, "config: writing %s over the bus, %s bound", r->res->cfg_id,
	     r->c.dev.driver);
	if (r->ops->write_config(&r->c, r->cfg_obj, &err) < 0)
		return finish(r, TF_EXIT_VERIFY, "%s", err.msg);
	rlog(r, TF_LOG_INFO, "config: the chip took %s; rebinding so that %s reads it",
	     r->res->cfg_id, r->c.dev.driver);
	tf_input_watch_free(*w);
	*w = NULL;
	rc = rebind(r, w);
	if (!rc)
		rc = wait_input(r, *w);
	return rc;
}

/* A bootloader-mode chip whose bound driver flashes it there itself. */
static bool through_driver_in_bootloader(const struct run *r)
{
	return r->fam->caps.kernel_fw_bootloader && r->c.dev.driver[0] &&
	       r->ctrl->power == TF_POWER_DRIVER;
}

/* Does the bound driver need a rebind for its input device after an
 * update through kernel_fw_attr (caps.kernel_fw_rebind)? */
static bool rebind_after_update(struct run *r)
{
	const char *const *d;

	for (d = r->fam->caps.kernel_fw_rebind; d && *d; d++)
		if (!strcmp(*d, r->c.dev.driver))
			return true;
	return false;
}

/* After the rebind that follows an update: a driver that bound with the
 * chip in its bootloader registers no input device, so waiting for one
 * would only run into the timeout. */
static int bootloader_after_rebind(struct run *r)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };

	if (chip_read(r, &st, &err) < 0 || st.mode != TF_CHIP_BOOTLOADER)
		return TF_EXIT_OK; /* the input device (or its absence) says more */
	return finish(r, TF_EXIT_BOOTLOADER, "after %s and a rebind: %s",
		      r->fam->caps.kernel_fw_attr, st.detail);
}

/* Kernel-assisted: the driver flashes, from a staged image. */
static int path_update_fw(struct run *r, struct tf_input_watch **w)
{
	struct tf_fw_stage stage;
	struct tf_err err = { 0 };
	char name[TF_FW_NAME_MAX];
	const uint8_t *img;
	size_t len;
	bool rebound = false;
	int rc, wr;

	tf_snprintf(r->res->path, sizeof(r->res->path), "update_fw");
	if (r->fw_img) {
		const struct tf_family_caps *caps = &r->fam->caps;

		if (!caps->kernel_fw_attr)
			return finish(r, TF_EXIT_UNSUPPORTED,
				      "the driver owns the power and has no firmware update "
				      "interface; set power = \"always-on\" in the profile if "
				      "that is safe");
		if (r->ops->kernel_fw_name(&r->c, &r->chip, name, sizeof(name), &err) < 0)
			return finish(r, TF_EXIT_UNSUPPORTED, "%s", err.msg);
		r->ops->kernel_firmware(r->fw_img, &img, &len);
		if (tf_fw_stage(&stage, r->s->firmware_class_path, r->s->state_dir,
				r->c.dev.name, name, img, len, &err) < 0)
			return finish(r, TF_EXIT_IO, "%s", err.msg);
		if (tf_input_watch_start(&r->c.dev, w, &err) < 0) {
			tf_fw_unstage(&stage);
			return finish(r, TF_EXIT_FAILURE, "%s", err.msg);
		}
		rlog(r, TF_LOG_INFO, "staged %s as %s; asking %s to flash it (%s)",
		     r->res->fw_id, stage.file, r->c.dev.driver, caps->kernel_fw_attr);
		r->flashed_anything = true;
		/* Synchronous on a real kernel: returns when the driver is done. */
		wr = tf_device_attr_write(&r->c.dev, caps->kernel_fw_attr,
					  caps->kernel_fw_value, &err);
		rebound = rebind_after_update(r);
		if (rebound) {
			/* It re-read the chip but keeps (or never had) its old
			 * input device -- after a failed update too, with the
			 * chip in its bootloader and its IRQ off: a new probe
			 * after every write, a stopped run's too (the write has
			 * returned, the driver is done; nothing else would bind
			 * it again). */
			if (wr == 0)
				rlog(r, TF_LOG_INFO,
				     "%s registers no input device again after %s: "
				     "rebinding it",
				     r->c.dev.driver, caps->kernel_fw_attr);
			else
				rlog(r, TF_LOG_INFO, "%s: rebinding %s for a fresh probe",
				     err.msg, r->c.dev.driver);
			tf_input_watch_free(*w);
			*w = NULL;
			rc = rebind(r, w);
			if (!rc && wr == 0 && !tf_stop_requested())
				rc = bootloader_after_rebind(r);
			if (!rc && wr == 0 && !tf_stop_requested())
				rc = wait_input(r, *w);
		} else {
			/* The driver re-initialises and registers a new input
			 * device. */
			rc = wr < 0 || tf_stop_requested() ? TF_EXIT_OK : wait_input(r, *w);
		}
		tf_fw_unstage(&stage);
		/* The kernel's write returns when the driver is done: a stop
		 * is seen after it, with nothing of ours left staged. */
		if (tf_stop_requested())
			return interrupted(r,
					   rebound ? "while the driver flashed (its update "
						     "was left to finish and the driver "
						     "bound again; not verified)"
						   : "while the driver flashed (its update was "
						     "left to finish; not verified)");
		if (wr < 0 || rc) {
			struct tf_chip_state st;
			struct tf_err e2 = { 0 };
			bool seen;

			rlog(r, TF_LOG_WARNING, "driver update failed: %s",
			     wr < 0 ? err.msg : r->res->message);
			seen = chip_read(r, &st, &e2) == 0;
			if ((r->via_driver || through_driver_in_bootloader(r)) && seen &&
			    st.mode == TF_CHIP_BOOTLOADER) {
				char msg[sizeof(r->res->message)];

				/* No bus to recover over: the driver holds the
				 * bootloader, and its update flashes from there
				 * on the next run. */
				tf_snprintf(msg, sizeof(msg), "%s",
					    wr < 0 ? err.msg : r->res->message);
				err.rejected = wr < 0 && r->ops->kernel_fw_rejected &&
					       r->ops->kernel_fw_rejected(err.code, &st);
				record_blob_failure(r, &err);
				r->chip = st;
				return fail_bootloader(r, msg, NULL);
			}
			if (r->fam->caps.bootloader_mode && r->fam->caps.bus_flash && seen &&
			    st.mode == TF_CHIP_BOOTLOADER) {
				/* Recover now, once, at the bootloader address. */
				rlog(r, TF_LOG_INFO,
				     "the chip is in its bootloader: flashing it directly");
				r->chip = st;
				tf_input_watch_free(*w);
				*w = NULL;
				r->res->exit_code = 0;
				return path_bootloader(r, w);
			}
			/* The driver's error is the family's to read: a refusal
			 * of the image, or the chip going away under it. */
			if (wr < 0)
				err.rejected = r->ops->kernel_fw_rejected &&
					       r->ops->kernel_fw_rejected(err.code,
									  seen ? &st : NULL);
			else
				err.rejected = false;
			record_blob_failure(r, &err);
			return rc ? rc : finish(r, TF_EXIT_VERIFY, "%s", err.msg);
		}
		rc = detect(r, &r->chip);
		if (rc)
			return rc;
	}
	if (r->cfg_obj) {
		rc = r->ops->check_config ? r->ops->check_config(&r->c, r->cfg_obj, &err) : 0;
		if (rc < 0)
			return finish(r, TF_EXIT_BAD_INPUT, "%s: %s", r->res->cfg_id, err.msg);
		if (r->chip.has_config_crc && r->chip.config_crc == r->cfg_crc &&
		    !r->o->force) {
			rlog(r, TF_LOG_INFO, "config: the chip already has CRC 0x%06X",
			     r->cfg_crc);
			return TF_EXIT_OK;
		}
		/* The driver's own way first: it requests the file at probe,
		 * and a file it finds there would undo a bus write anyway. */
		if (r->fam->caps.kernel_cfg &&
		    r->ops->kernel_cfg_name(&r->c, &r->chip, name, sizeof(name), &err) < 0) {
			if (err.code != EOPNOTSUPP)
				return finish(r, TF_EXIT_IO, "%s", err.msg);
			if (!r->fam->caps.bus_config_bound)
				return finish(r, TF_EXIT_UNSUPPORTED, "%s", err.msg);
			rlog(r, TF_LOG_INFO, "config: %s", err.msg);
			return config_bus_bound(r, w);
		}
		if (!r->fam->caps.kernel_cfg) {
			if (r->fam->caps.bus_config_bound)
				return config_bus_bound(r, w);
			return finish(r, TF_EXIT_UNSUPPORTED,
				      "the %s driver loads no configuration file; set power = "
				      "\"always-on\" in the profile if that is safe",
				      r->c.dev.driver);
		}
		if (!r->fw_img)
			tf_snprintf(r->res->path, sizeof(r->res->path), "driver-config");
		/* The bytes load_cfg() checked, not the file again. */
		if (tf_fw_stage(&stage, r->s->firmware_class_path, r->s->state_dir,
				r->c.dev.name, name, r->cfg_data, r->cfg_len, &err) < 0)
			return finish(r, TF_EXIT_IO, "%s", err.msg);
		rlog(r, TF_LOG_INFO, "config: staged %s as %s; the driver applies it on rebind",
		     r->res->cfg_id, stage.file);
		tf_input_watch_free(*w);
		*w = NULL;
		rc = rebind(r, w);
		if (!rc)
			rc = wait_input(r, *w);
		tf_fw_unstage(&stage);
		if (tf_stop_requested())
			return interrupted(r, "while the driver applied the config");
		if (rc)
			return rc;
		return TF_EXIT_OK;
	}
	return TF_EXIT_OK;
}

/* Is @path a file holding exactly @data? */
static bool same_file(const char *path, const uint8_t *data, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	bool same;

	if (tf_read_file(path, len + 1, &buf, &n) < 0)
		return false;
	same = n == len && !memcmp(buf, data, len);
	free(buf);
	return same;
}

/*
 * caps.kernel_fw_probe: the driver loads the firmware file into the chip at
 * every probe and fails without it.  Stage the blob under the name the
 * driver requests, in touchfw's own directory at the front of the loader's
 * path (a distribution's file of that name is shadowed, never touched),
 * make the driver probe (bind; rebind when it runs another file), and wait
 * for its input device.  Nothing is written to the chip by touchfw.
 */
/*
 * The kernel probes right after the add that may have started this run,
 * and the driver link exists while it does: wait until the link has not
 * changed for PROBE_SETTLE_MS (at most PROBE_SETTLE_MAX_MS), so the run
 * neither unbinds a probe in progress nor binds over one.
 */
#define PROBE_SETTLE_MS 300
#define PROBE_SETTLE_MAX_MS 5000
static void settle_driver_link(struct run *r)
{
	uint64_t start = tf_now_ms(), since = start;
	char last[sizeof(r->c.dev.driver)];

	tf_device_refresh(&r->c.dev);
	tf_snprintf(last, sizeof(last), "%s", r->c.dev.driver);
	while (tf_now_ms() - since < PROBE_SETTLE_MS &&
	       tf_now_ms() - start < PROBE_SETTLE_MAX_MS) {
		tf_sleep_us(20000);
		tf_device_refresh(&r->c.dev);
		if (strcmp(last, r->c.dev.driver)) {
			tf_snprintf(last, sizeof(last), "%s", r->c.dev.driver);
			since = tf_now_ms();
		}
	}
}

static int path_probe_file(struct run *r, struct tf_input_watch **w)
{
	struct tf_fw_stage stage;
	struct tf_err err = { 0 };
	char name[TF_FW_NAME_MAX], found[400];
	const uint8_t *img;
	size_t len;
	int rc;

	tf_snprintf(r->res->path, sizeof(r->res->path), "driver-probe");
	if (!r->fw_img)
		return TF_EXIT_OK;
	if (r->ops->kernel_fw_name(&r->c, &r->chip, name, sizeof(name), &err) < 0)
		return finish(r, TF_EXIT_UNSUPPORTED, "%s", err.msg);
	r->ops->kernel_firmware(r->fw_img, &img, &len);
	/* A driver bound now loaded the first such file in the loader's path;
	 * if that is ours byte for byte, there is nothing to do. */
	settle_driver_link(r);
	/* The input device a run verified is still there: the driver has
	 * not probed since, so it runs what that run staged (a second run
	 * for the same add and bind ends here). */
	if (r->c.dev.driver[0] && !r->o->force) {
		struct tf_input_node in[1];
		struct tf_file_id dbid;
		char manifest[300];

		if (tf_snprintf(manifest, sizeof(manifest), "%s/manifest.ini", r->s->db_dir) ==
			    0 &&
		    tf_file_id_get(manifest, &dbid) == 0 &&
		    tf_sysfs_inputs(r->c.dev.subsys, r->c.dev.name, in, 1) > 0 &&
		    tf_state_is_uptodate(&r->st, r->c.dev.name, &dbid, in[0].input)) {
			rlog(r, TF_LOG_INFO,
			     "%s has not probed since a run verified input %s with "
			     "this database: nothing to do",
			     r->c.dev.driver, in[0].event);
			tf_snprintf(r->res->path, sizeof(r->res->path), "none");
			tf_snprintf(r->res->input, sizeof(r->res->input), "%s", in[0].event);
			return TF_EXIT_OK;
		}
	}
	if (tf_firmware_find(r->s->firmware_dirs, r->s->n_firmware_dirs,
			     r->s->firmware_class_path, name, found, sizeof(found)) == 0) {
		struct tf_input_node in[1];

		if (r->c.dev.driver[0] && same_file(found, img, len) && !r->o->force &&
		    tf_sysfs_inputs(r->c.dev.subsys, r->c.dev.name, in, 1) > 0) {
			rlog(r, TF_LOG_INFO,
			     "%s already loads %s (%s, the same bytes as %s), "
			     "input %s",
			     r->c.dev.driver, name, found, r->res->fw_id, in[0].event);
			tf_snprintf(r->res->path, sizeof(r->res->path), "none");
			tf_snprintf(r->res->input, sizeof(r->res->input), "%s", in[0].event);
			return TF_EXIT_OK;
		}
		rlog(r, TF_LOG_WARNING,
		     "%s exists and is not %s: touchfw's copy goes first in "
		     "the loader's path (the file itself is left alone)",
		     found, r->res->fw_id);
	}
	if (tf_fw_stage(&stage, r->s->firmware_class_path, r->s->state_dir, r->c.dev.name, name,
			img, len, &err) < 0)
		return finish(r, TF_EXIT_IO, "%s", err.msg);
	rlog(r, TF_LOG_INFO, "staged %s as %s; %s loads it when it probes", r->res->fw_id,
	     stage.file, driver_to_bind(r));
	r->flashed_anything = true;
	rc = rebind(r, w);
	if (!rc)
		rc = wait_input(r, *w);
	tf_fw_unstage(&stage);
	if (tf_stop_requested())
		return interrupted(r, "while the driver probed");
	if (rc) {
		err.rejected = false;
		tf_snprintf(err.msg, sizeof(err.msg), "%s", r->res->message);
		record_blob_failure(r, &err);
		return rc;
	}
	tf_device_refresh(&r->c.dev);
	return detect(r, &r->chip);
}

/*
 * A dry run's account of what the update would write, by which path (the
 * choice step_update() makes), and the configuration's CRC against the
 * chip's.  Everything was read, parsed and checked by step_load().
 */
static void describe_dry_run(struct run *r, char *buf, size_t size)
{
	const char *drv = r->c.dev.driver[0] ? r->c.dev.driver : "the driver";
	const struct tf_family_caps *caps = &r->fam->caps;
	const uint8_t *img;
	char kname[TF_FW_NAME_MAX] = "";
	struct tf_err err = { 0 };
	size_t n = 0, len = 0;

	buf[0] = '\0';
	if (r->fw_img) {
		if (r->ops->kernel_firmware)
			r->ops->kernel_firmware(r->fw_img, &img, &len);
		if ((caps->kernel_fw_attr || caps->kernel_fw_probe) && r->ops->kernel_fw_name &&
		    r->ops->kernel_fw_name(&r->c, &r->chip, kname, sizeof(kname), &err) < 0)
			tf_snprintf(kname, sizeof(kname), "(a name it can not compute: %s)",
				    err.msg);
		if (caps->kernel_fw_probe)
			n += (size_t)snprintf(
				buf + n, size - n,
				"would stage firmware %s (%zu bytes) as %s and make %s "
				"probe (it loads the file into the chip)",
				r->res->fw_id, len, kname, driver_to_bind(r));
		else
			n += (size_t)snprintf(buf + n, size - n,
					      "would flash firmware %s (%zu bytes) ",
					      r->res->fw_id, len);
		if (n >= size || caps->kernel_fw_probe)
			; /* said it all */
		else if (r->chip.mode == TF_CHIP_BOOTLOADER && !r->via_driver &&
			 !through_driver_in_bootloader(r))
			n += (size_t)
				snprintf(buf + n, size - n,
					 "at the bootloader address 0x%02x (the chip is in "
					 "bootloader mode; %s stays bound)",
					 r->chip.bl_addr, drv);
		else if (n < size && !r->c.dev.driver[0])
			n += (size_t)snprintf(buf + n, size - n,
					      "over i2c-dev (no driver is bound)");
		else if (n < size && r->ctrl->power == TF_POWER_ALWAYS_ON)
			n += (size_t)snprintf(
				buf + n, size - n,
				"over i2c-dev after unbinding %s (power is always on)", drv);
		else if (n < size && caps->kernel_fw_attr && r->ops->kernel_fw_name)
			n += (size_t)
				snprintf(buf + n, size - n,
					 "through %s's %s as %s (the driver owns the power)",
					 drv, caps->kernel_fw_attr, kname);
		else if (n < size)
			n += (size_t)
				snprintf(buf + n, size - n,
					 "by no path: the driver owns the power and has no "
					 "firmware update interface");
	}
	if (n < size && r->cfg_obj) {
		n += (size_t)snprintf(buf + n, size - n,
				      "%swould write config %s (CRC 0x%06X; ", n ? "; " : "",
				      r->res->cfg_id, r->cfg_crc);
		if (n < size && r->fw_img)
			n += (size_t)snprintf(buf + n, size - n, "after the new firmware)");
		else if (n < size && r->chip.mode != TF_CHIP_APP)
			n += (size_t)
				snprintf(buf + n, size - n,
					 "but it can not: the chip is in "
					 "bootloader mode and no firmware is to be flashed)");
		else if (n < size && r->chip.has_config_crc)
			n += (size_t)snprintf(buf + n, size - n, "the chip has 0x%06X)",
					      r->chip.config_crc);
		else if (n < size)
			n += (size_t)snprintf(buf + n, size - n, "the chip's is unknown)");
	} else if (n < size && r->res->cfg_id[0]) {
		n += (size_t)snprintf(
			buf + n, size - n,
			"%sconfig %s: not written, the chip already has its CRC 0x%06X",
			n ? "; " : "", r->res->cfg_id, r->cfg_crc);
	}
	if (n < size && !r->fw_img && !r->cfg_obj && !r->res->cfg_id[0])
		snprintf(buf + n, size - n, "would write nothing");
}

/*
 * Through the driver (spi, power = "driver") a configuration could only go
 * through the driver too: refused before anything is flashed (and by a
 * dry run) when the driver loads none.
 */
static int driver_takes_config(struct run *r)
{
	struct tf_err err = { 0 };
	char name[TF_FW_NAME_MAX];

	if (!r->via_driver || !r->cfg_obj)
		return TF_EXIT_OK;
	if (r->fam->caps.kernel_cfg &&
	    r->ops->kernel_cfg_name(&r->c, &r->chip, name, sizeof(name), &err) == 0)
		return TF_EXIT_OK;
	return finish(r, TF_EXIT_UNSUPPORTED, "config %s: %s; nothing was written",
		      r->res->cfg_id,
		      err.msg[0] ? err.msg : "the driver loads no configuration file");
}

static int step_update(struct run *r)
{
	struct tf_input_watch *w = NULL;
	int rc;

	if (!r->fw_img && !r->cfg_obj) {
		tf_snprintf(r->res->path, sizeof(r->res->path), "none");
		return TF_EXIT_OK;
	}
	if ((rc = driver_takes_config(r)))
		return rc;
	r->touched = true;
	if (r->fam->caps.kernel_fw_probe)
		rc = path_probe_file(r, &w);
	else if (r->via_driver ||
		 (r->chip.mode == TF_CHIP_BOOTLOADER && through_driver_in_bootloader(r)))
		rc = path_update_fw(r, &w); /* the driver flashes its bootloader too */
	else if (r->chip.mode == TF_CHIP_BOOTLOADER)
		rc = path_bootloader(r, &w);
	else if (r->ctrl->power == TF_POWER_ALWAYS_ON || !r->c.dev.driver[0])
		rc = path_unbind(r, &w);
	else
		rc = path_update_fw(r, &w);
	if (!rc && !r->res->input[0]) {
		if (!w) {
			struct tf_err err = { 0 };

			if (tf_input_watch_start(&r->c.dev, &w, &err) < 0)
				rc = finish(r, TF_EXIT_FAILURE, "%s", err.msg);
		}
		if (!rc)
			rc = wait_input(r, w);
	}
	tf_input_watch_free(w);
	return rc;
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
			      "config CRC is 0x%06X after writing %s (expected 0x%06X); "
			      "is a %s in the firmware path overriding it?",
			      st.config_crc, r->res->cfg_id, r->cfg_crc,
			      r->fam->caps.kernel_cfg &&
					      r->ops->kernel_cfg_name(&r->c, &st, cfg_name,
								      sizeof(cfg_name),
								      &err) == 0
				      ? cfg_name
				      : "driver config");
	if (r->fam->caps.kernel_fw_probe)
		rlog(r, TF_LOG_INFO, "verified: %s bound with %s, input %s", r->c.dev.driver,
		     r->res->fw_id, r->res->input[0] ? r->res->input : "-");
	else if (st.has_config_version && !r->flashed_anything)
		rlog(r, TF_LOG_INFO,
		     "verified: configuration version %s -> %s, config CRC %s, "
		     "input %s",
		     r->res->config_version_before[0] ? r->res->config_version_before
						      : "(none)",
		     st.config_version_str, crc_text(&st, crc),
		     r->res->input[0] ? r->res->input : "-");
	else
		rlog(r, TF_LOG_INFO, "verified: firmware %s%s%s, config CRC %s, input %s",
		     r->res->version_before[0] ? r->res->version_before : "(bootloader)",
		     " -> ", st.version_str, crc_text(&st, crc),
		     r->res->input[0] ? r->res->input : "-");
	r->chip = st;
	return TF_EXIT_OK;
}

/*
 * After a failed update, look at the chip again before reporting: a
 * rebind may have reset it out of its bootloader (a driver's probe may
 * do that), so "left in its bootloader" is said only of a chip found there.
 * Completes the message with the state found and returns the exit code
 * that state calls for.
 */
static int after_failure(struct run *r, int rc)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };
	char *m = r->res->message;
	size_t n = strlen(m), size = sizeof(r->res->message);
	int i;

	if (!r->touched || !(r->c.bus || r->via_driver) || rc == TF_EXIT_INTERRUPTED)
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

static void record(struct run *r)
{
	char *json;

	if (r->st.dirfd < 0 || !r->c.dev.name[0] || r->o->dry_run)
		return;
	json = tf_flow_result_json(r->c.dev.name, r->res);
	if (json) {
		tf_state_write_result(&r->st, r->c.dev.name, json);
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
	 * limit; a mistake made by hand with `flash` never does. */
	if (!r->o->manual &&
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
	}
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
	if (!o->dry_run) {
		char what[1024];

		/* A run killed mid-update (kill -9, power cut) left the
		 * loader path or a staged file: undo that first, or a later
		 * update would "restore" the stale path. */
		if (tf_fw_repair(s->firmware_class_path, s->state_dir, what, sizeof(what)) > 0)
			rlog(&r, TF_LOG_WARNING, "repaired what an interrupted run left: %s",
			     what);
	}
	if ((rc = step_device(&r)) || (rc = step_profile(&r)) || (rc = synth_controller(&r)) ||
	    (rc = step_family(&r)) || (rc = step_files(&r)) || (rc = step_attempts(&r)) ||
	    (rc = step_db(&r)) || (rc = step_bus(&r)) || (rc = step_detect(&r)) ||
	    (rc = step_plan(&r)))
		goto out;
	if (!r.plan.fw && !(r.plan.cfg && r.plan.cfg_needed) && !o->firmware_file &&
	    !o->config_file) {
		rc = finish(&r, TF_EXIT_OK, "up to date (firmware %s%s)", r.chip.version_str,
			    r.plan.cfg ? ", config matches" : "");
		goto out;
	}
	if (o->dry_run || s->mode == TF_MODE_REPORT_ONLY) {
		char what[480];

		/* Read, parse and check everything a real run would write. */
		if ((rc = step_load(&r)) || (rc = driver_takes_config(&r)))
			goto out;
		describe_dry_run(&r, what, sizeof(what));
		rc = finish(&r, TF_EXIT_OK, "%s: %s; leaving the chip alone",
			    o->dry_run ? "dry run" : "report-only mode", what);
		goto out;
	}
	if ((rc = reserve_attempt(&r)) || (rc = step_load(&r)))
		goto out;
	if (tf_stop_requested()) {
		rc = interrupted(&r, "before the update started");
		goto out;
	}
	if ((rc = step_update(&r)) || (rc = step_verify(&r)))
		goto out;
	if (r.fam->caps.kernel_fw_probe)
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
			    crc_text(&r.chip, crc), res->input[0] ? res->input : "-");
	else
		rc = finish(&r, TF_EXIT_OK,
			    "updated: firmware %s -> %s, config CRC %s, input %s",
			    res->version_before[0] ? res->version_before : "(none)",
			    r.chip.version_str, crc_text(&r.chip, crc),
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
