// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The update flow's write paths (see flow.h for the paths and how one is
 * chosen): the blobs read and checked once, flashing over the bus, the
 * driver's own update (update_fw, from a staged image), a driver that
 * loads its firmware at probe, and the configuration over the bus or as
 * the file the driver loads.  The state machine that calls step_load()
 * and step_update() is flow.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "exitcode.h"
#include "flow-priv.h"

#define GPIO_BUSY_RETRY_MS 2000

static int read_blob_or_file(struct run *r, const struct tf_blob *b, const char *file,
			     uint8_t **data, size_t *len, const char **name)
{
	struct tf_err err = { 0 };
	char *buf = NULL;
	int rc;

	if (file) {
		/* a regular file only: a FIFO must not hold the device lock
		 * forever (touchfw(8), FILES) */
		rc = tf_read_input(file, 64u << 20, &buf, len, &err);
		if (rc < 0)
			return finish(r, TF_EXIT_BAD_INPUT, "%s", err.msg);
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
int step_files(struct run *r)
{
	int rc;

	if (!r->o->firmware_file && !r->o->config_file)
		return TF_EXIT_OK;
	if ((rc = load_fw(r)) || (rc = load_cfg(r)))
		return rc;
	if (r->o->firmware_file)
		rlog(r, TF_LOG_INFO, "firmware file %s: parsed", r->o->firmware_file);
	if (r->o->config_file)
		rlog(r, TF_LOG_INFO, "config file %s: parsed, config CRC %s", r->o->config_file,
		     TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits));
	return TF_EXIT_OK;
}

int step_load(struct run *r)
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
			r->cfg_already = true;
			rlog(r, TF_LOG_INFO, "config: the chip already has CRC %s",
			     TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits));
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

/*
 * A stop signal arrived: say what was done about it (the callers undo
 * their part -- rebind, unstage -- on their way out) and what was
 * recorded: the attempt reserve_attempt() counted (which of how many, in
 * which file, how long the automatic path now waits and how to lift it),
 * the result record, and that no failure is held against the firmware.
 * A hand flash counts no attempt, and says so.
 */
int interrupted(struct run *r, const char *what)
{
	int sig = tf_stop_requested();
	const char *name = sigabbrev_np(sig) ? sigabbrev_np(sig) : "?";
	const char *dev = r->c.dev.name;
	struct tf_attempts a;
	uint64_t now = (uint64_t)time(NULL);
	char next[120];

	if (!r->attempt_reserved || tf_state_read_attempts(&r->st, dev, &a, NULL) < 0)
		return finish(r, TF_EXIT_INTERRUPTED,
			      "stopped by SIG%s %s; the driver is bound again and nothing "
			      "is left staged; recorded: this result in %s/%s.json only "
			      "(%s counts no attempt), no failure held against the "
			      "firmware: 'touchfw %s %s' tries again",
			      name, what, r->s->state_dir, dev,
			      r->o->manual ? "a hand flash" : "the attempt was not counted",
			      r->o->manual ? "flash ..." : "run", dev);
	if (a.count >= r->s->max_attempts)
		tf_snprintf(next, sizeof(next), "the automatic path gives up now");
	else if (a.next_allowed > now)
		tf_snprintf(next, sizeof(next), "the automatic path waits %llus",
			    (unsigned long long)(a.next_allowed - now));
	else
		tf_snprintf(next, sizeof(next), "the next bind tries again");
	return finish(r, TF_EXIT_INTERRUPTED,
		      "stopped by SIG%s %s; the driver is bound again and nothing is "
		      "left staged; recorded: attempt %u of %u in %s/%s.attempts (%s; "
		      "'touchfw forget %s' clears it) and this result in %s.json, no "
		      "failure held against the firmware: 'touchfw run %s' tries again",
		      name, what, a.count, r->s->max_attempts, r->s->state_dir, dev, next, dev,
		      dev, dev);
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
	r->own_unbind = true;
	if (r->c.dev.driver[0]) {
		rlog(r, TF_LOG_INFO, "rebind: unbinding %s", drv);
		if (tf_device_unbind(&r->c.dev, &err) < 0)
			return finish(r, TF_EXIT_IO, "%s", err.msg);
	}
	tf_state_mark_own_bind(&r->st, r->c.dev.name, (uint64_t)time(NULL));
	rlog(r, TF_LOG_INFO, "rebind: binding %s", drv);
	if (tf_device_bind(&r->c.dev, drv, &err) < 0)
		return finish(r, TF_EXIT_VERIFY, "%s (%s)", err.msg, bind_failure(&err));
	r->own_unbind = false;
	return TF_EXIT_OK;
}

/*
 * Staging failed: on touchfw's own files (an untrusted or unwritable state
 * directory, firmware/ or staging lock) the state is unusable (exit 16,
 * as for every state file), on the kernel's loader path an I/O failure.
 * Nothing of this step reached the chip either way.
 */
static int stage_failed(struct run *r, const struct tf_fw_stage *stage,
			const struct tf_err *err)
{
	if (stage->state_unusable)
		return finish(r, TF_EXIT_STATE, "%s%s", err->msg,
			      r->flashed_anything ? "" : "; nothing was flashed");
	return finish(r, TF_EXIT_IO, "%s", err->msg);
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

/*
 * caps.bus_recovery: a chip left in its bootloader, with no driver bound
 * (its probe refuses such a chip), is flashed over the bus -- only where
 * the board profile allows it (allow-bus-recovery).  needs_bus_recovery:
 * this is such a chip; bus_recovery: and the profile allows it.
 */
static bool needs_bus_recovery(const struct run *r)
{
	return r->fam->caps.bus_recovery && r->chip.mode == TF_CHIP_BOOTLOADER &&
	       !r->c.dev.driver[0] && !r->via_driver;
}

static bool bus_recovery(const struct run *r)
{
	return needs_bus_recovery(r) && r->ctrl->bus_recovery;
}

/*
 * A chip its driver can not take (caps.bus_recovery) that needs firmware:
 * without the board's consent, say which device, why, and which property
 * allows it, before anything touches the chip (a dry run says the same).
 */
int step_recovery_allowed(struct run *r)
{
	if (!r->plan.fw && !r->o->firmware_file)
		return TF_EXIT_OK;
	if (!needs_bus_recovery(r) || r->ctrl->bus_recovery)
		return TF_EXIT_OK;
	return finish(r, TF_EXIT_UNSUPPORTED,
		      "%s is in its bootloader (%s) and no driver is bound, so only "
		      "touchfw could flash it, over the bus; board profile %s does not "
		      "allow that: its maker adds allow-bus-recovery to %s where the "
		      "chip may be recovered so; the chip was not touched",
		      r->c.dev.name, r->chip.detail, r->profile ? r->profile->path : "(none)",
		      r->ctrl->node_path);
}

/* The refusals of a family that can not do over the bus what the path
 * needs: one text each, wherever the path is decided or taken. */
/* The interrupt line by the family's name for it, for the log. */
static const char *irq_line(const struct run *r)
{
	return r->fam->irq_line ? r->fam->irq_line : "interrupt";
}

static int refuse_bus_flash(struct run *r)
{
	return finish(r, TF_EXIT_UNSUPPORTED,
		      "the %s family can not flash over the bus; only its driver "
		      "can (power = \"driver\" in the profile)",
		      r->fam->ids->name);
}

static int refuse_bus_config(struct run *r)
{
	return finish(r, TF_EXIT_UNSUPPORTED,
		      "the %s family can not write a configuration over the bus",
		      r->fam->ids->name);
}

static int flash_over_bus(struct run *r)
{
	struct tf_err err = { 0 };

	if (!r->fam->caps.bus_flash && !bus_recovery(r))
		return refuse_bus_flash(r);
	if (r->c.spi_open)
		rlog(r, TF_LOG_INFO, "flashing %s (%s) over %s, %s%s", r->res->fw_id,
		     r->plan.fw ? r->plan.fw->version : "file", r->c.spi.node,
		     r->c.irq ? irq_line(r) : "polling", r->c.irq ? " line watched" : "");
	else
		rlog(r, TF_LOG_INFO, "flashing %s (%s) at bootloader address 0x%02x, %s%s",
		     r->res->fw_id, r->plan.fw ? r->plan.fw->version : "file", r->chip.bl_addr,
		     r->c.irq ? irq_line(r) : "polling", r->c.irq ? " line watched" : "");
	r->flashed_anything = true;
	if (r->ops->write_firmware(&r->c, &r->chip, r->fw_img, &err) < 0) {
		/* refused before its first write, the image not being this
		 * chip's; in a recovery nothing came before it */
		if (err.code == ENOEXEC && bus_recovery(r)) {
			r->flashed_anything = false;
			r->touched = false;
			return finish(r, TF_EXIT_UNSUPPORTED, "%s; the chip was not touched",
				      err.msg);
		}
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
		return refuse_bus_config(r);
	if (r->ops->check_config && r->ops->check_config(&r->c, r->cfg_obj, &err) < 0)
		return finish(r, TF_EXIT_BAD_INPUT, "%s: %s", r->res->cfg_id, err.msg);
	if (st.has_config_crc && st.config_crc == r->cfg_crc && !r->o->force) {
		r->cfg_already = true;
		rlog(r, TF_LOG_INFO, "config: the chip already has CRC %s",
		     TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits));
		return TF_EXIT_OK;
	}
	rlog(r, TF_LOG_INFO, "config: writing %s, backup to NVM, reset", r->res->cfg_id);
	if (r->ops->write_config(&r->c, r->cfg_obj, &err) < 0)
		return finish(r, TF_EXIT_VERIFY, "%s", err.msg);
	rlog(r, TF_LOG_INFO, "config: CRC %s verified after reset",
	     TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits));
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
			    r->ctrl->has_irq ? &r->ctrl->irq : NULL, GPIO_BUSY_RETRY_MS, &l);
	r->c.irq = l.irq;
	r->c.reset = l.reset;
	if (r->ctrl->has_irq && !l.irq)
		rlog(r, TF_LOG_WARNING, "%s line not available (%s): polling instead",
		     irq_line(r), l.irq_err.msg);
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
	if ((r->fam->caps.lines_needed & TF_LINE_INT) && !r->c.irq)
		return finish(r, TF_EXIT_UNSUPPORTED,
			      "the %s family needs the interrupt line, which the profile "
			      "does not give or touchfw could not take",
			      r->fam->ids->name);
	return TF_EXIT_OK;
}

void release_lines(struct run *r)
{
	if (r->c.irq)
		tf_gpio_release(r->c.irq);
	if (r->c.reset)
		tf_gpio_release(r->c.reset);
	r->c.irq = r->c.reset = NULL;
}

/*
 * Detection right after the reset pulse.  The pulse's release_us is the
 * least the sources allow before the first access (the family's caps say
 * where it comes from); a chip may need longer to start.
 * So the chip is waited for, not assumed up: with the interrupt line held, until
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

	if (pulsed && r->c.irq && tf_gpio_get(r->c.irq) == 0) {
		int left = (int)bound;

		while (left > 0 && tf_gpio_get(r->c.irq) == 0 && !tf_stop_requested()) {
			if (tf_gpio_wait_edge(r->c.irq, left < 100 ? left : 100) < 0)
				break;
			left = (int)bound - (int)(tf_now_ms() - t0);
		}
		rlog(r, TF_LOG_INFO, "%s %s %llu ms after the reset's minimum", irq_line(r),
		     tf_gpio_get(r->c.irq) == 1 ? "asserted" : "still not asserted",
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
			rc = refuse_bus_flash(r);
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

/*
 * caps.kernel_fw_failure_rebind: the driver stays bound in recovery after
 * the failed update with the chip as the failure left it, and its next
 * update would not reset it.  Rebind once, so that a new probe resets the
 * chip and reads it again, and look at what it found (@st, @seen).  The
 * next run can flash only a chip whose boot code answered with the
 * hardware id it had: the file the driver requests is named by it.
 */
static int failure_rebind(struct run *r, struct tf_input_watch **w, struct tf_chip_state *st,
			  bool *seen, const char *why)
{
	struct tf_err e = { 0 };
	char hw[sizeof(st->hw)];
	int rc;

	tf_snprintf(hw, sizeof(hw), "%s", r->chip.hw[0] ? r->chip.hw : st->hw);
	rlog(r, TF_LOG_INFO,
	     "%s stays in recovery after the failed %s without resetting the "
	     "chip, and its next update would not reset it either: rebinding it "
	     "so that a new probe resets the chip",
	     r->c.dev.driver, r->fam->caps.kernel_fw_attr);
	tf_input_watch_free(*w);
	*w = NULL;
	rc = rebind(r, w);
	if (rc)
		return rc;
	tf_device_refresh(&r->c.dev);
	*seen = chip_read(r, st, &e) == 0;
	/* The update failed before the application was replaced. */
	if (*seen && st->mode == TF_CHIP_APP && r->chip.mode == TF_CHIP_APP &&
	    !strcmp(st->version_str, r->chip.version_str))
		return finish(r, TF_EXIT_IO,
			      "%s; after a rebind the chip runs its application again "
			      "(firmware %s)",
			      why, st->version_str);
	if (!*seen || st->mode != TF_CHIP_BOOTLOADER || !hw[0] || !strcmp(st->hw, hw))
		return TF_EXIT_OK;
	r->next_run_said = true;
	return finish(r, TF_EXIT_BOOTLOADER,
		      "the update through %s failed, and after a rebind %s reads "
		      "hardware %s instead of %s: the chip did not leave the "
		      "interrupted update on the driver's reset, and an update now "
		      "would request the wrong file; switch the machine off (a full "
		      "power cycle, not a reboot), then run 'touchfw run %s'",
		      r->fam->caps.kernel_fw_attr, r->c.dev.driver,
		      st->hw[0] ? st->hw : "(none)", hw, r->c.dev.name);
}

/* Is the device's driver gone (unbound by someone else)? */
static bool driver_gone(struct run *r)
{
	tf_device_refresh(&r->c.dev);
	return !r->c.dev.driver[0];
}

/*
 * The driver was unbound while it flashed through its attribute, not by
 * touchfw: neither the image's fault nor a verification that could be
 * made.  An interruption, like a stop signal; whoever unbound the driver
 * decides when it binds again (touchfw does not undo their unbind).
 */
static int unbound_under_us(struct run *r, const char *drv, const char *write_err)
{
	rlog(r, TF_LOG_INFO,
	     "an interruption, not a rejection of %s: it counts as an attempt only",
	     r->res->fw_id);
	return finish(r, TF_EXIT_INTERRUPTED,
		      "%s was unbound while it flashed through %s, not by touchfw%s%s%s: "
		      "the update is not verified and nothing is left staged; this "
		      "counts as an attempt, not as a failure of the firmware: the "
		      "next bind or 'touchfw run %s' tries again",
		      drv, r->fam->caps.kernel_fw_attr, write_err ? " (the write: " : "",
		      write_err ? write_err : "", write_err ? ")" : "", r->c.dev.name);
}

int driver_lost(struct run *r, int rc)
{
	char why[sizeof(r->res->message)];

	if (rc == TF_EXIT_OK || rc == TF_EXIT_INTERRUPTED || !r->kept_driver[0] ||
	    r->own_unbind || tf_stop_requested() || !driver_gone(r))
		return rc;
	/* Whatever failed after the unbind failed because of it: the
	 * chip lost its driver (and a driver-powered chip its supply). */
	tf_snprintf(why, sizeof(why), "%s", r->res->message);
	rlog(r, TF_LOG_INFO,
	     "an interruption, not a failure of %s: it counts as an attempt only",
	     r->res->fw_id[0] ? r->res->fw_id : r->res->cfg_id);
	return finish(r, TF_EXIT_INTERRUPTED,
		      "%s was unbound during the update through it, not by touchfw (what "
		      "failed then: %s): the update is not verified and nothing is left "
		      "staged; this counts as an attempt, not as a failure of the firmware: "
		      "the next bind or 'touchfw run %s' tries again",
		      r->kept_driver, why, r->c.dev.name);
}

/*
 * caps.kernel_fw_retry_bound: the driver's update failed and it is still
 * bound.  Whether the chip was left in its bootloader can not be read
 * through the driver (it keeps what it read at probe), so both cases are
 * said; what holds in both is that the bound driver's next write is the
 * way on, and that a new probe is not.
 */
static int retry_bound(struct run *r, const char *why)
{
	const char *drv = r->c.dev.driver;

	r->next_run_said = true;
	if (r->fam->caps.bus_recovery && r->ctrl->bus_recovery)
		return finish(r, TF_EXIT_VERIFY,
			      "%s; if the update got as far as the flash, the chip now runs "
			      "its bootloader while %s stays bound, still reporting the "
			      "firmware it had; its %s flashes from there, so the next "
			      "'touchfw run %s' tries again; after an unbind or a reboot %s "
			      "can not bind (its probe fails on a chip in its bootloader), "
			      "and 'touchfw run %s' then recovers the chip over the bus, as "
			      "the board profile allows (allow-bus-recovery)",
			      why, drv, r->fam->caps.kernel_fw_attr, r->c.dev.name, drv,
			      r->c.dev.name);
	return finish(r, TF_EXIT_VERIFY,
		      "%s; if the update got as far as the flash, the chip now runs its "
		      "bootloader while %s stays bound, still reporting the firmware it "
		      "had; its %s flashes from there, so the next 'touchfw run %s' tries "
		      "again; do not unbind %s or reboot before that: its probe fails on "
		      "a chip in its bootloader, and %s",
		      why, drv, r->fam->caps.kernel_fw_attr, r->c.dev.name, drv,
		      r->fam->caps.bus_recovery
			      ? "the board profile does not allow touchfw to recover the "
				"chip over the bus (allow-bus-recovery)"
			      : "touchfw can not flash the chip without its driver");
}

/* Does the bound driver take its configuration file only through
 * caps.kernel_cfg_attr (not at probe)? */
bool cfg_through_attr(const struct run *r)
{
	for (const char *const *d = r->fam->caps.kernel_cfg_attr_drivers; d && *d; d++)
		if (!strcmp(*d, r->c.dev.driver))
			return true;
	return false;
}

/*
 * caps.kernel_cfg_attr: stage the file as @name, write the attribute (the
 * kernel's write returns when the driver has applied it), read the
 * driver's config CRC until it shows the file's (the driver learns it from
 * the chip's message after its reset), then rebind it for its input device
 * -- on every way out once the attribute was written.
 */
static int config_attr(struct run *r, struct tf_input_watch **w, const char *name)
{
	const struct tf_family_caps *caps = &r->fam->caps;
	unsigned ms = r->ctrl->input_timeout_ms ? r->ctrl->input_timeout_ms
						: r->s->input_timeout_ms;
	struct tf_fw_stage stage;
	struct tf_chip_state st = { 0 };
	struct tf_err err = { 0 }, e2 = { 0 };
	uint64_t end;
	bool seen = false;
	int wr, rc;

	if (tf_fw_stage(&stage, r->s->firmware_class_path, r->s->state_dir, r->c.dev.name, name,
			r->cfg_data, r->cfg_len, &err) < 0)
		return stage_failed(r, &stage, &err);
	rlog(r, TF_LOG_INFO, "config: staged %s as %s; asking %s to apply it (%s)",
	     r->res->cfg_id, stage.file, r->c.dev.driver, caps->kernel_cfg_attr);
	/* A probe may register the input device before its attribute
	 * group (some drivers do): after a rebind that was not ours to
	 * wait for, the attribute may come a moment later. */
	end = tf_now_ms() + ms;
	for (;;) {
		char path[sizeof(r->c.dev.syspath) + 64];
		struct stat sb;

		tf_snprintf(path, sizeof(path), "%s/%s", r->c.dev.syspath,
			    caps->kernel_cfg_attr);
		if (stat(path, &sb) == 0 || tf_now_ms() >= end || tf_stop_requested())
			break;
		tf_sleep_us(10000);
	}
	r->flashed_anything = true;
	wr = tf_device_attr_write(&r->c.dev, caps->kernel_cfg_attr, caps->kernel_cfg_value,
				  &err);
	end = tf_now_ms() + ms;
	while (wr == 0 && !tf_stop_requested()) {
		seen = chip_read(r, &st, &e2) == 0 && st.mode == TF_CHIP_APP &&
		       st.has_config_crc;
		if ((seen && st.config_crc == r->cfg_crc) || tf_now_ms() >= end)
			break;
		tf_sleep_us(20000);
	}
	tf_fw_unstage(&stage);
	rlog(r, TF_LOG_INFO, "%s applies no configuration to its input device: rebinding it",
	     r->c.dev.driver);
	tf_input_watch_free(*w);
	*w = NULL;
	rc = rebind(r, w);
	if (!rc && !tf_stop_requested())
		rc = wait_input(r, *w);
	if (tf_stop_requested())
		return interrupted(r, "while the driver applied the config (the driver "
				      "bound again; not verified)");
	if (wr < 0)
		return finish(r, TF_EXIT_VERIFY, "config %s: %s", r->res->cfg_id, err.msg);
	if (!seen)
		return finish(r, TF_EXIT_VERIFY,
			      "config %s: no config CRC could be read through %s within %u ms "
			      "after %s (not verified)",
			      r->res->cfg_id, r->c.dev.driver, ms, caps->kernel_cfg_attr);
	if (st.config_crc != r->cfg_crc)
		return finish(r, TF_EXIT_VERIFY,
			      "config %s: after %s the chip's config CRC is %s (through "
			      "%s), expected %s",
			      r->res->cfg_id, caps->kernel_cfg_attr,
			      TF_CRC_TEXT(st.config_crc, r->fam->crc_bits), r->c.dev.driver,
			      TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits));
	rlog(r, TF_LOG_INFO, "config: the chip's config CRC is %s after %s, as the file says",
	     TF_CRC_TEXT(st.config_crc, r->fam->crc_bits), caps->kernel_cfg_attr);
	return rc;
}

/* Kernel-assisted: the driver flashes, from a staged image. */
static int path_update_fw(struct run *r, struct tf_input_watch **w)
{
	struct tf_fw_stage stage;
	struct tf_err err = { 0 };
	char name[TF_FW_NAME_MAX];
	const uint8_t *img;
	char drv[64];
	size_t len;
	bool gone;
	bool rebound = false;
	int rc, wr;

	tf_snprintf(r->res->path, sizeof(r->res->path), "update_fw");
	tf_snprintf(r->kept_driver, sizeof(r->kept_driver), "%s", r->c.dev.driver);
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
			return stage_failed(r, &stage, &err);
		if (tf_input_watch_start(&r->c.dev, w, &err) < 0) {
			tf_fw_unstage(&stage);
			return finish(r, TF_EXIT_FAILURE, "%s", err.msg);
		}
		rlog(r, TF_LOG_INFO, "staged %s as %s; asking %s to flash it (%s)",
		     r->res->fw_id, stage.file, r->c.dev.driver, caps->kernel_fw_attr);
		r->flashed_anything = true;
		tf_snprintf(drv, sizeof(drv), "%s", r->c.dev.driver);
		/* Synchronous on a real kernel: returns when the driver is done. */
		wr = tf_device_attr_write(&r->c.dev, caps->kernel_fw_attr,
					  caps->kernel_fw_value, &err);
		gone = !tf_stop_requested() && driver_gone(r);
		/* After a failed write the driver stays bound for the next
		 * update_fw to flash from the bootloader (a touchpad driver's probe
		 * would even fail then): no rebind; nor after someone else
		 * unbound it. */
		rebound = wr == 0 && !gone && rebind_after_update(r);
		if (rebound) {
			/* It re-read the chip but keeps (or never had) its old
			 * input device: a new probe registers one -- after a
			 * stopped run's write too (the write has returned, the
			 * driver is done; nothing else would bind it again). */
			rlog(r, TF_LOG_INFO,
			     "%s registers no input device again after %s: "
			     "rebinding it",
			     r->c.dev.driver, caps->kernel_fw_attr);
			tf_input_watch_free(*w);
			*w = NULL;
			rc = rebind(r, w);
			if (!rc && !tf_stop_requested())
				rc = bootloader_after_rebind(r);
			if (!rc && !tf_stop_requested())
				rc = wait_input(r, *w);
		} else {
			/* The driver re-initialises and registers a new input
			 * device. */
			rc = wr < 0 || gone || tf_stop_requested() ? TF_EXIT_OK
								   : wait_input(r, *w);
			/* ... unless someone unbinds it meanwhile. */
			gone = gone || (rc && !tf_stop_requested() && driver_gone(r));
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
		if (gone)
			return unbound_under_us(r, drv, wr < 0 ? err.msg : NULL);
		if (wr < 0 || rc) {
			struct tf_chip_state st;
			struct tf_err e2 = { 0 };
			bool seen;

			rlog(r, TF_LOG_WARNING, "driver update failed: %s",
			     wr < 0 ? err.msg : r->res->message);
			seen = chip_read(r, &st, &e2) == 0;
			if (wr < 0 && seen && st.mode == TF_CHIP_BOOTLOADER &&
			    r->fam->caps.kernel_fw_failure_rebind && r->c.dev.driver[0]) {
				rc = failure_rebind(r, w, &st, &seen, err.msg);
				if (rc) {
					err.rejected = r->ops->kernel_fw_rejected &&
						       r->ops->kernel_fw_rejected(err.code,
										  &st);
					record_blob_failure(r, &err);
					return rc;
				}
			}
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
			if (wr < 0 && !err.rejected && r->fam->caps.kernel_fw_retry_bound &&
			    !driver_gone(r))
				return retry_bound(r, err.msg);
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
			r->cfg_already = true;
			rlog(r, TF_LOG_INFO, "config: the chip already has CRC %s",
			     TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits));
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
		if (cfg_through_attr(r))
			return config_attr(r, w, name);
		/* The bytes load_cfg() checked, not the file again. */
		if (tf_fw_stage(&stage, r->s->firmware_class_path, r->s->state_dir,
				r->c.dev.name, name, r->cfg_data, r->cfg_len, &err) < 0)
			return stage_failed(r, &stage, &err);
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
void settle_driver_link(struct run *r)
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
	if (r->c.dev.driver[0] && !r->o->force && !r->chip.not_running) {
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
		    !r->chip.not_running &&
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
		return stage_failed(r, &stage, &err);
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
void describe_dry_run(struct run *r, enum upd_path path, char *buf, size_t size)
{
	const char *drv = r->c.dev.driver[0] ? r->c.dev.driver : "the driver";
	const char *bus = strcmp(r->c.dev.subsys, "spi") ? "i2c-dev" : "spidev";
	const struct tf_family_caps *caps = &r->fam->caps;
	const uint8_t *img;
	char kname[TF_FW_NAME_MAX] = "";
	struct tf_err err = { 0 };
	size_t n = 0, len = 0;

	buf[0] = '\0';
	if (r->fw_img) {
		if (r->ops->kernel_firmware)
			r->ops->kernel_firmware(r->fw_img, &img, &len);
		/* decide_update() checked that the name can be computed */
		if ((path == UPD_PROBE_FILE || path == UPD_UPDATE_FW) &&
		    r->ops->kernel_fw_name &&
		    r->ops->kernel_fw_name(&r->c, &r->chip, kname, sizeof(kname), &err) < 0)
			tf_snprintf(kname, sizeof(kname), "?");
		if (path == UPD_PROBE_FILE)
			n += (size_t)snprintf(
				buf + n, size - n,
				"would stage firmware %s (%zu bytes) as %s and make %s "
				"probe (it loads the file into the chip)",
				r->res->fw_id, len, kname, driver_to_bind(r));
		else
			n += (size_t)snprintf(buf + n, size - n,
					      "would flash firmware %s (%zu bytes) ",
					      r->res->fw_id, len);
		if (n >= size || path == UPD_PROBE_FILE)
			; /* said it all */
		else if (path == UPD_BOOTLOADER && bus_recovery(r))
			n += (size_t)snprintf(buf + n, size - n,
					      "over %s at 0x%02x (the chip is in its "
					      "bootloader and no driver is bound; the board "
					      "profile allows bus recovery), then bind %s",
					      bus, r->chip.bl_addr, driver_to_bind(r));
		else if (path == UPD_BOOTLOADER)
			n += (size_t)snprintf(
				buf + n, size - n,
				"at the bootloader address 0x%02x (the chip is in "
				"bootloader mode; %s%s)",
				r->chip.bl_addr, r->c.dev.driver[0] ? drv : "",
				r->c.dev.driver[0] ? " stays bound" : "no driver is bound");
		else if (path == UPD_UNBIND && !r->c.dev.driver[0])
			n += (size_t)snprintf(buf + n, size - n, "over %s (no driver is bound)",
					      bus);
		else if (path == UPD_UNBIND)
			n += (size_t)snprintf(buf + n, size - n,
					      "over %s after unbinding %s (power is always on)",
					      bus, drv);
		else
			n += (size_t)
				snprintf(buf + n, size - n,
					 "through %s's %s as %s (the driver owns the power)",
					 drv, caps->kernel_fw_attr, kname);
	}
	if (n < size && r->cfg_obj) {
		n += (size_t)snprintf(buf + n, size - n, "%swould write config %s (CRC %s; ",
				      n ? "; " : "", r->res->cfg_id,
				      TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits));
		if (n < size && r->fw_img)
			n += (size_t)snprintf(buf + n, size - n, "after the new firmware)");
		else if (n < size && r->chip.has_config_crc)
			n += (size_t)snprintf(buf + n, size - n, "the chip has %s)",
					      TF_CRC_TEXT(r->chip.config_crc,
							  r->fam->crc_bits));
		else if (n < size)
			n += (size_t)snprintf(buf + n, size - n, "the chip's is unknown)");
	} else if (n < size && r->res->cfg_id[0]) {
		n += (size_t)
			snprintf(buf + n, size - n,
				 "%sconfig %s: not written, the chip already has its CRC %s",
				 n ? "; " : "", r->res->cfg_id,
				 TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits));
	}
	if (n < size && !r->fw_img && !r->cfg_obj && !r->res->cfg_id[0])
		snprintf(buf + n, size - n, "would write nothing");
}

/*
 * Through the driver (spi, power = "driver") a configuration could only go
 * through the driver too: refused before anything is flashed (and by a
 * dry run) when the driver loads none.
 */
int driver_takes_config(struct run *r)
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

int decide_update(struct run *r, enum upd_path *path)
{
	const struct tf_family_caps *caps = &r->fam->caps;
	struct tf_err err = { 0 };
	char name[TF_FW_NAME_MAX];
	int rc;

	*path = UPD_NOTHING;
	if (!r->fw_img && !r->cfg_obj)
		return TF_EXIT_OK;
	if ((rc = driver_takes_config(r)))
		return rc;
	if (caps->kernel_fw_probe)
		*path = UPD_PROBE_FILE;
	else if (r->via_driver ||
		 (r->chip.mode == TF_CHIP_BOOTLOADER && through_driver_in_bootloader(r)))
		*path = UPD_UPDATE_FW; /* the driver flashes its bootloader too */
	else if (r->chip.mode == TF_CHIP_BOOTLOADER)
		*path = UPD_BOOTLOADER;
	else if ((r->ctrl->power == TF_POWER_ALWAYS_ON &&
		  (caps->bus_flash || caps->bus_config)) ||
		 !r->c.dev.driver[0])
		*path = UPD_UNBIND;
	else
		*path = UPD_UPDATE_FW; /* also always-on: nothing to write over the bus */

	/* Only an application takes a configuration (whichever path). */
	if (r->cfg_obj && !r->fw_img && r->chip.mode != TF_CHIP_APP)
		return finish(r, TF_EXIT_BOOTLOADER,
			      "the chip is in its bootloader (%s) and no firmware is to be "
			      "flashed: a configuration alone can not be written, as only "
			      "the application firmware takes one (give --firmware as "
			      "well); nothing was written, the chip stays in its bootloader",
			      r->chip.detail);
	/* A family that installs firmware only into a chip left in its
	 * bootloader (caps.bus_recovery and no other way): a running
	 * application is not touchfw's to replace. */
	if (r->fw_img && r->chip.mode == TF_CHIP_APP && caps->bus_recovery &&
	    !caps->bus_flash && !caps->kernel_fw_attr && !caps->kernel_fw_probe) {
		rlog(r, TF_LOG_NOTICE,
		     "%s runs its application (%s): the %s family only recovers a chip "
		     "left in its bootloader, and its application is updated through its "
		     "driver by other tools (fwupd); left as it is",
		     r->c.dev.name, r->chip.detail, r->fam->ids->name);
		*path = UPD_NOTHING;
		return TF_EXIT_OK;
	}
	switch (*path) {
	case UPD_PROBE_FILE:
		if (r->fw_img &&
		    r->ops->kernel_fw_name(&r->c, &r->chip, name, sizeof(name), &err) < 0)
			return finish(r, TF_EXIT_UNSUPPORTED, "%s", err.msg);
		break;
	case UPD_UPDATE_FW:
		if (r->fw_img && !caps->kernel_fw_attr)
			return finish(r, TF_EXIT_UNSUPPORTED,
				      "the driver owns the power and has no firmware update "
				      "interface; set power = \"always-on\" in the profile if "
				      "that is safe");
		if (r->fw_img &&
		    r->ops->kernel_fw_name(&r->c, &r->chip, name, sizeof(name), &err) < 0)
			return finish(r, TF_EXIT_UNSUPPORTED, "%s", err.msg);
		if (r->cfg_obj && !caps->kernel_cfg && !caps->bus_config_bound)
			return finish(r, TF_EXIT_UNSUPPORTED,
				      "the %s driver loads no configuration file; set power = "
				      "\"always-on\" in the profile if that is safe",
				      r->c.dev.driver[0] ? r->c.dev.driver : driver_to_bind(r));
		/* With firmware first, the file's name comes from the chip
		 * the new firmware makes: known only then. */
		if (r->cfg_obj && !r->fw_img && caps->kernel_cfg &&
		    r->ops->kernel_cfg_name(&r->c, &r->chip, name, sizeof(name), &err) < 0) {
			if (err.code != EOPNOTSUPP)
				return finish(r, TF_EXIT_IO, "%s", err.msg);
			if (!caps->bus_config_bound)
				return finish(r, TF_EXIT_UNSUPPORTED, "%s", err.msg);
		}
		break;
	case UPD_BOOTLOADER:
		if (!caps->bus_flash && !bus_recovery(r))
			return refuse_bus_flash(r);
		if (r->cfg_obj && !caps->bus_config)
			return refuse_bus_config(r);
		break;
	case UPD_UNBIND:
		if (r->fw_img && !caps->bus_flash)
			return refuse_bus_flash(r);
		if (r->cfg_obj && !caps->bus_config)
			return refuse_bus_config(r);
		break;
	case UPD_NOTHING:
		break;
	}
	return TF_EXIT_OK;
}

int step_update(struct run *r)
{
	struct tf_input_watch *w = NULL;
	enum upd_path path;
	int rc;

	if ((rc = decide_update(r, &path)))
		return rc;
	if (path == UPD_NOTHING) {
		tf_snprintf(r->res->path, sizeof(r->res->path), "none");
		return TF_EXIT_OK;
	}
	r->touched = true;
	switch (path) {
	case UPD_PROBE_FILE:
		rc = path_probe_file(r, &w);
		break;
	case UPD_UPDATE_FW:
		rc = path_update_fw(r, &w);
		break;
	case UPD_BOOTLOADER:
		rc = path_bootloader(r, &w);
		break;
	default:
		rc = path_unbind(r, &w);
		break;
	}
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
