// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The update flow's write paths (see flow.h for the paths and how one is
 * chosen): the way decided with the family's update path
 * (family/update-path.h), the driver's own update (update_fw, from a
 * staged image), a driver that loads its firmware at probe, the
 * configuration through the driver, and the dry run's account of it all.
 * The ways over the bus are flow-flash.c's, the services flow-services.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exitcode.h"
#include "flow-bus.h"
#include "flow-detect.h"
#include "flow-flash.h"
#include "flow-outcome.h"
#include "flow-services.h"
#include "flow-update.h"

/* Does the bound driver need a rebind for its input device after an
 * update through kernel_fw_attr (caps.kernel_fw_rebind)? */
static bool rebind_after_update(struct flow_run *r)
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
static int bootloader_after_rebind(struct flow_run *r)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };

	if (flow_chip_read(r, &st, &err) < 0 || st.mode != TF_CHIP_BOOTLOADER)
		return TF_EXIT_OK; /* the input device (or its absence) says more */
	return flow_finish(r, TF_EXIT_BOOTLOADER, "after %s and a rebind: %s",
			   r->fam->caps.kernel_fw_attr, st.detail);
}

/*
 * The driver was unbound while it flashed through its attribute, not by
 * touchfw: neither the image's fault nor a verification that could be
 * made.  An interruption, like a stop signal; whoever unbound the driver
 * decides when it binds again (touchfw does not undo their unbind).
 */
static int unbound_under_us(struct flow_run *r, const char *drv, const char *write_err)
{
	rlog(r, TF_LOG_INFO,
	     "an interruption, not a rejection of %s: it counts as an attempt only",
	     r->res->fw_id);
	return flow_finish(r, TF_EXIT_INTERRUPTED,
			   "%s was unbound while it flashed through %s, not by touchfw%s%s%s: "
			   "the update is not verified and nothing is left staged; this "
			   "counts as an attempt, not as a failure of the firmware: the "
			   "next bind or 'touchfw run %s' tries again",
			   drv, r->fam->caps.kernel_fw_attr, write_err ? " (the write: " : "",
			   write_err ? write_err : "", write_err ? ")" : "", r->c.dev.name);
}

int flow_driver_lost(struct flow_run *r, int rc)
{
	char why[sizeof(r->res->message)];

	if (rc == TF_EXIT_OK || rc == TF_EXIT_INTERRUPTED || !r->kept_driver[0] ||
	    r->own_unbind || tf_stop_requested() || !flow_driver_gone(r))
		return rc;
	/* Whatever failed after the unbind failed because of it: the
	 * chip lost its driver (and a driver-powered chip its supply). */
	tf_snprintf(why, sizeof(why), "%s", r->res->message);
	rlog(r, TF_LOG_INFO,
	     "an interruption, not a failure of %s: it counts as an attempt only",
	     r->res->fw_id[0] ? r->res->fw_id : r->res->cfg_id);
	return flow_finish(
		r, TF_EXIT_INTERRUPTED,
		"%s was unbound during the update through it, not by touchfw (what "
		"failed then: %s): the update is not verified and nothing is left "
		"staged; this counts as an attempt, not as a failure of the firmware: "
		"the next bind or 'touchfw run %s' tries again",
		r->kept_driver, why, r->c.dev.name);
}

/*
 * The driver's update through kernel_fw_attr failed (@wr < 0: the write
 * itself; else what followed it, @rc): the family's update path says what
 * its driver left behind first; then a chip the driver (which keeps the
 * device) holds in its bootloader waits for the next run, one with a
 * bootloader touchfw can flash is recovered at once, and otherwise the
 * failure is the message.
 */
static int driver_update_failed(struct flow_run *r, int wr, struct tf_err *err, int rc)
{
	const struct tf_update_path *path = r->ops->update_path;
	struct tf_chip_state st;
	struct tf_err e2 = { 0 };
	struct tf_update_failure f = {
		.write = wr,
		.err = err,
		.why = wr < 0 ? err->msg : r->res->message,
		.st = &st,
		.rc = rc,
	};
	int hrc;

	rlog(r, TF_LOG_WARNING, "driver update failed: %s", f.why);
	f.seen = flow_chip_read(r, &st, &e2) == 0;
	if (path && path->driver_update_failed) {
		hrc = path->driver_update_failed(&tf_flow_services, &r->u, &f);
		if (hrc != TF_UPDATE_GO_ON)
			return hrc;
	}
	if (r->via_driver && f.seen && st.mode == TF_CHIP_BOOTLOADER) {
		char msg[sizeof(r->res->message)];

		/* No bus to recover over: the driver holds the bootloader,
		 * and its update flashes from there on the next run. */
		tf_snprintf(msg, sizeof(msg), "%s", wr < 0 ? err->msg : r->res->message);
		err->rejected = wr < 0 && r->ops->kernel_fw_rejected &&
				r->ops->kernel_fw_rejected(err->code, &st);
		flow_record_blob_failure(r, err);
		r->chip = st;
		return flow_fail_bootloader(r, msg, NULL);
	}
	if (r->fam->caps.bootloader_mode && r->fam->caps.bus_flash && f.seen &&
	    st.mode == TF_CHIP_BOOTLOADER) {
		/* Recover now, once, at the bootloader address. */
		rlog(r, TF_LOG_INFO, "the chip is in its bootloader: flashing it directly");
		r->chip = st;
		tf_input_watch_free(r->watch);
		r->watch = NULL;
		r->res->exit_code = 0;
		return flow_path_bootloader(r);
	}
	/* The driver's error is the family's to read: a refusal of the
	 * image, or the chip going away under it. */
	if (wr < 0)
		err->rejected = r->ops->kernel_fw_rejected &&
				r->ops->kernel_fw_rejected(err->code, f.seen ? &st : NULL);
	else
		err->rejected = false;
	flow_record_blob_failure(r, err);
	return rc ? rc : flow_finish(r, TF_EXIT_VERIFY, "%s", err->msg);
}

/* Kernel-assisted: the driver flashes, from a staged image. */
static int driver_flashes(struct flow_run *r)
{
	const struct tf_family_caps *caps = &r->fam->caps;
	struct tf_fw_stage stage;
	struct tf_err err = { 0 };
	char name[TF_FW_NAME_MAX];
	const uint8_t *img;
	char drv[64];
	size_t len;
	bool gone, own;
	bool rebound = false;
	int rc, wr;

	if (!caps->kernel_fw_attr)
		return flow_finish(r, TF_EXIT_UNSUPPORTED,
				   "the driver owns the power and has no firmware update "
				   "interface; set power = \"always-on\" in the profile if "
				   "that is safe");
	if (r->ops->kernel_fw_name(&r->c, &r->chip, name, sizeof(name), &err) < 0)
		return flow_finish(r, TF_EXIT_UNSUPPORTED, "%s", err.msg);
	r->ops->kernel_firmware(r->fw_img, &img, &len);
	if (tf_fw_stage(&stage, r->s->firmware_class_path, r->s->state_dir, r->c.dev.name, name,
			img, len, &err) < 0)
		return flow_stage_failed(r, &stage, &err);
	/* a watch of an earlier bind (a family's before_detect) is done */
	tf_input_watch_free(r->watch);
	r->watch = NULL;
	if (tf_input_watch_start(&r->c.dev, &r->watch, &err) < 0) {
		tf_fw_unstage(&stage);
		return flow_finish(r, TF_EXIT_FAILURE, "%s", err.msg);
	}
	rlog(r, TF_LOG_INFO, "staged %s as %s; asking %s to flash it (%s)", r->res->fw_id,
	     stage.file, r->c.dev.driver, caps->kernel_fw_attr);
	r->flashed_anything = true;
	tf_snprintf(drv, sizeof(drv), "%s", r->c.dev.driver);
	/* Synchronous on a real kernel: returns when the driver is done. */
	r->u.rebound = false;
	r->u.rebind_rc = 0;
	wr = r->ops->update_path && r->ops->update_path->driver_fw_write
		     ? r->ops->update_path->driver_fw_write(&tf_flow_services, &r->u, name,
							    &err)
		     : tf_device_attr_write(&r->c.dev, caps->kernel_fw_attr,
					    caps->kernel_fw_value, &err);
	/* The family's write rebound the driver itself (its bind failed:
	 * touchfw's, not someone else's unbind; the rebind said why). */
	own = wr == 0 && r->u.rebound;
	gone = !tf_stop_requested() && !own && flow_driver_gone(r);
	/* After a failed write the driver stays bound for the next update_fw
	 * to flash from the bootloader (a touchpad driver's probe would even
	 * fail then): no rebind; nor after someone else unbound it. */
	rebound = wr == 0 && !gone && (own || rebind_after_update(r));
	if (rebound) {
		/* It re-read the chip but keeps (or never had) its old input
		 * device: a new probe registers one -- after a stopped run's
		 * write too (the write has returned, the driver is done;
		 * nothing else would bind it again).  One bind: none more
		 * after the family's own. */
		if (own) {
			rc = r->u.rebind_rc;
		} else {
			rlog(r, TF_LOG_INFO,
			     "%s registers no input device again after %s: rebinding it",
			     r->c.dev.driver, caps->kernel_fw_attr);
			rc = flow_rebind(r);
		}
		if (!rc && !tf_stop_requested())
			rc = bootloader_after_rebind(r);
		if (!rc && !tf_stop_requested())
			rc = flow_wait_input(r);
	} else {
		/* The driver re-initialises and registers a new input device. */
		rc = wr < 0 || gone || tf_stop_requested() ? TF_EXIT_OK : flow_wait_input(r);
		/* ... unless someone unbinds it meanwhile. */
		gone = gone || (rc && !tf_stop_requested() && flow_driver_gone(r));
	}
	tf_fw_unstage(&stage);
	/* The kernel's write returns when the driver is done: a stop is seen
	 * after it, with nothing of ours left staged. */
	if (tf_stop_requested())
		return flow_interrupted(r, rebound ? "while the driver flashed (its update "
						     "was left to finish and the driver "
						     "bound again; not verified)"
						   : "while the driver flashed (its update was "
						     "left to finish; not verified)");
	if (gone)
		return unbound_under_us(r, drv, wr < 0 ? err.msg : NULL);
	if (wr < 0 || rc)
		return driver_update_failed(r, wr, &err, rc);
	return flow_detect(r, &r->chip);
}

/*
 * A chip identified over the bus with no driver bound, which its family's
 * path sends through the driver (its choose): the driver is bound only
 * now that an update is decided, and the chip read again through it --
 * the same hardware as over the bus, or nothing is written.
 */
static int bind_for_update(struct flow_run *r)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };
	int rc;

	rlog(r, TF_LOG_INFO, "no driver is bound: binding %s for its %s",
	     flow_driver_to_bind(r), r->fam->caps.kernel_fw_attr);
	if ((rc = flow_rebind(r)))
		return rc;
	if (flow_chip_read(r, &st, &err) < 0)
		return flow_finish(r, TF_EXIT_IO, "after binding %s: %s; nothing was written",
				   r->c.dev.driver, err.msg);
	if (strcmp(st.hw, r->chip.hw))
		return flow_finish(r, TF_EXIT_UNSUPPORTED,
				   "after binding %s the chip says hardware %s, over the bus "
				   "it said %s: nothing was written",
				   r->c.dev.driver, st.hw[0] ? st.hw : "(none)", r->chip.hw);
	r->chip = st;
	return TF_EXIT_OK;
}

/*
 * Through the bound driver (bound first where it was not): the firmware by its attribute, then
 * a configuration as the family's update path says the driver takes one.
 */
static int path_update_fw(struct flow_run *r)
{
	const struct tf_update_path *path = r->ops->update_path;
	struct tf_err err = { 0 };
	int rc;

	tf_snprintf(r->res->path, sizeof(r->res->path), "update_fw");
	if (r->fw_img && !r->c.dev.driver[0] && (rc = bind_for_update(r)))
		return rc;
	tf_snprintf(r->kept_driver, sizeof(r->kept_driver), "%s", r->c.dev.driver);
	if (r->fw_img && (rc = driver_flashes(r)))
		return rc;
	if (!r->cfg_obj)
		return TF_EXIT_OK;
	rc = r->ops->check_config ? r->ops->check_config(&r->c, r->cfg_obj, &err) : 0;
	if (rc < 0)
		return flow_finish(r, TF_EXIT_BAD_INPUT, "%s: %s", r->res->cfg_id, err.msg);
	if (r->chip.has_config_crc && r->chip.config_crc == r->cfg_crc && !r->o->force) {
		r->cfg_already = true;
		rlog(r, TF_LOG_INFO, "config: the chip already has CRC %s",
		     TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits));
		return TF_EXIT_OK;
	}
	if (!path || !path->config_through_driver)
		return flow_finish(r, TF_EXIT_UNSUPPORTED,
				   "the %s driver loads no configuration file; set power = "
				   "\"always-on\" in the profile if that is safe",
				   r->c.dev.driver);
	return path->config_through_driver(&tf_flow_services, &r->u, false);
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
 * Does the bound driver of a chip whose program is its driver's file
 * (detect: program_from_driver) run the firmware to install (fw_img)
 * already?  Asked by the plan (flow-plan.c), so that probe, dry runs and
 * runs take this one decision.  Yes when a run verified the driver's
 * input device with this database and the driver has not probed since
 * (it runs what that run staged, though no longer staged), or when the
 * first file of the name it requests in the loader's path holds the
 * same bytes and its input device is there; @why then says which, and
 * res->input names the input device.  No: @why says what the driver
 * loads instead, when that is known, else "".
 */
bool flow_driver_runs_fw(struct flow_run *r, char *why, size_t size)
{
	struct tf_input_node in[1];
	struct tf_file_id dbid;
	struct tf_err err = { 0 };
	char name[TF_FW_NAME_MAX], found[400], manifest[300];
	const uint8_t *img;
	size_t len;
	int dir;

	why[0] = '\0';
	if (!r->fw_img || !r->ops->kernel_fw_name || !r->ops->kernel_firmware ||
	    r->ops->kernel_fw_name(&r->c, &r->chip, name, sizeof(name), &err) < 0)
		return false;
	r->ops->kernel_firmware(r->fw_img, &img, &len);
	/* A driver bound now (the caller let its probe end) loaded the first
	 * such file in the loader's path. */
	if (!r->c.dev.driver[0] || r->chip.not_running ||
	    tf_sysfs_inputs(r->c.dev.subsys, r->c.dev.name, in, 1) <= 0)
		return false;
	/* The input device a run verified is still there: the driver has
	 * not probed since, so it runs what that run staged (a second run
	 * for the same add and bind ends here). */
	if (r->db &&
	    tf_snprintf(manifest, sizeof(manifest), "%s/manifest.ini", r->s->db_dir) == 0 &&
	    tf_file_id_get(manifest, &dbid) == 0 &&
	    tf_state_is_uptodate(&r->st, r->c.dev.name, &dbid, in[0].input)) {
		tf_snprintf(why, size,
			    "%s has not probed since a run verified input %s with this "
			    "database",
			    r->c.dev.driver, in[0].event);
		tf_snprintf(r->res->input, sizeof(r->res->input), "%s", in[0].event);
		return true;
	}
	if (tf_firmware_find(r->s->firmware_dirs, r->s->n_firmware_dirs,
			     r->s->firmware_class_path, name, found, sizeof(found)) < 0)
		return false;
	/* found is the loader's directory, "/", and the name */
	dir = (int)(strlen(found) > strlen(name) ? strlen(found) - strlen(name) - 1 : 0);
	if (!same_file(found, img, len)) {
		tf_snprintf(why, size, "%s finds another %s in %.*s", r->c.dev.driver, name,
			    dir, found);
		return false;
	}
	tf_snprintf(why, size, "%s already loads %s from %.*s, the same bytes as %s",
		    r->c.dev.driver, name, dir, found, r->res->fw_id);
	tf_snprintf(r->res->input, sizeof(r->res->input), "%s", in[0].event);
	return true;
}

/*
 * A chip whose program is its driver's file (detect: program_from_driver;
 * the family's path chooses TF_WAY_STAGE_AND_PROBE): the driver loads the
 * file into the chip at every probe and fails without it.  Stage the blob
 * under the name the driver requests, in touchfw's own directory at the
 * front of the loader's path (a distribution's file of that name is
 * shadowed, never touched), make the driver probe (bind; rebind when it
 * runs another file), and wait for its input device.  Nothing is written
 * to the chip by touchfw.  A driver that runs this file already was kept
 * by the plan (flow_driver_runs_fw()).
 */
static int path_probe_file(struct flow_run *r)
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
		return flow_finish(r, TF_EXIT_UNSUPPORTED, "%s", err.msg);
	r->ops->kernel_firmware(r->fw_img, &img, &len);
	if (tf_firmware_find(r->s->firmware_dirs, r->s->n_firmware_dirs,
			     r->s->firmware_class_path, name, found, sizeof(found)) == 0 &&
	    !same_file(found, img, len))
		rlog(r, TF_LOG_WARNING,
		     "%s exists and is not %s: touchfw's copy goes first in "
		     "the loader's path (the file itself is left alone)",
		     found, r->res->fw_id);
	if (tf_fw_stage(&stage, r->s->firmware_class_path, r->s->state_dir, r->c.dev.name, name,
			img, len, &err) < 0)
		return flow_stage_failed(r, &stage, &err);
	rlog(r, TF_LOG_INFO, "staged %s as %s; %s loads it when it probes", r->res->fw_id,
	     stage.file, flow_driver_to_bind(r));
	r->flashed_anything = true;
	rc = flow_rebind(r);
	if (!rc)
		rc = flow_wait_input(r);
	tf_fw_unstage(&stage);
	if (tf_stop_requested())
		return flow_interrupted(r, "while the driver probed");
	if (rc) {
		err.rejected = false;
		tf_snprintf(err.msg, sizeof(err.msg), "%s", r->res->message);
		flow_record_blob_failure(r, &err);
		return rc;
	}
	tf_device_refresh(&r->c.dev);
	return flow_detect(r, &r->chip);
}

/*
 * A dry run's account of what the update would write, by which way (the
 * choice flow_step_update() makes), and the configuration's CRC against the
 * chip's.  Everything was read, parsed and checked by flow_step_load().
 */
void flow_describe_dry_run(struct flow_run *r, enum tf_update_way way, char *buf, size_t size)
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
		/* flow_decide_update() checked that the name can be computed */
		if ((way == TF_WAY_STAGE_AND_PROBE || way == TF_WAY_DRIVER_ATTR) &&
		    r->ops->kernel_fw_name &&
		    r->ops->kernel_fw_name(&r->c, &r->chip, kname, sizeof(kname), &err) < 0)
			tf_snprintf(kname, sizeof(kname), "?");
		if (way == TF_WAY_STAGE_AND_PROBE)
			n += (size_t)snprintf(
				buf + n, size - n,
				"would stage firmware %s (%zu bytes) as %s and make %s "
				"probe (it loads the file into the chip)",
				r->res->fw_id, len, kname, flow_driver_to_bind(r));
		else
			n += (size_t)snprintf(buf + n, size - n,
					      "would flash firmware %s (%zu bytes) ",
					      r->res->fw_id, len);
		if (n >= size || way == TF_WAY_STAGE_AND_PROBE)
			; /* said it all */
		else if (way == TF_WAY_BOOTLOADER && flow_bus_recovery(r))
			n += (size_t)snprintf(buf + n, size - n,
					      "over %s at 0x%02x (the chip is in its "
					      "bootloader and no driver is bound; the board "
					      "profile allows bus recovery), then bind %s",
					      bus, r->chip.bl_addr, flow_driver_to_bind(r));
		else if (way == TF_WAY_BOOTLOADER)
			n += (size_t)snprintf(
				buf + n, size - n,
				"at the bootloader address 0x%02x (the chip is in "
				"bootloader mode; %s%s)",
				r->chip.bl_addr, r->c.dev.driver[0] ? drv : "",
				r->c.dev.driver[0] ? " stays bound" : "no driver is bound");
		else if (way == TF_WAY_UNBIND_AND_FLASH && !r->c.dev.driver[0])
			n += (size_t)snprintf(buf + n, size - n, "over %s (no driver is bound)",
					      bus);
		else if (way == TF_WAY_UNBIND_AND_FLASH)
			n += (size_t)snprintf(buf + n, size - n,
					      "over %s after unbinding %s (power is always on)",
					      bus, drv);
		else if (!r->c.dev.driver[0])
			n += (size_t)snprintf(
				buf + n, size - n,
				"through %s's %s as %s, binding it first (no "
				"driver is bound; the chip was identified over %s)",
				flow_driver_to_bind(r), caps->kernel_fw_attr, kname, bus);
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
static int driver_takes_config(struct flow_run *r)
{
	struct tf_err err = { 0 };
	char name[TF_FW_NAME_MAX];

	if (!r->via_driver || !r->cfg_obj)
		return TF_EXIT_OK;
	if (r->fam->caps.kernel_cfg &&
	    r->ops->kernel_cfg_name(&r->c, &r->chip, name, sizeof(name), &err) == 0)
		return TF_EXIT_OK;
	return flow_finish(r, TF_EXIT_UNSUPPORTED, "config %s: %s; nothing was written",
			   r->res->cfg_id,
			   err.msg[0] ? err.msg : "the driver loads no configuration file");
}

int flow_decide_update(struct flow_run *r, enum tf_update_way *way)
{
	const struct tf_family_caps *caps = &r->fam->caps;
	const struct tf_update_path *path = r->ops->update_path;
	struct tf_err err = { 0 };
	char name[TF_FW_NAME_MAX];
	int rc;

	*way = TF_WAY_NONE;
	if (!r->fw_img && !r->cfg_obj)
		return TF_EXIT_OK;
	if ((rc = driver_takes_config(r)))
		return rc;
	/* The family's way, else the flow's from the capabilities. */
	*way = path && path->choose ? path->choose(&tf_flow_services, &r->u)
				    : tf_flow_services.choose(&r->u);
	/* Only an application takes a configuration (whichever way). */
	if (r->cfg_obj && !r->fw_img && r->chip.mode != TF_CHIP_APP)
		return flow_finish(
			r, TF_EXIT_BOOTLOADER,
			"the chip is in its bootloader (%s) and no firmware is to be "
			"flashed: a configuration alone can not be written, as only "
			"the application firmware takes one (give --firmware as "
			"well); nothing was written, the chip stays in its bootloader",
			r->chip.detail);
	/* A family that installs firmware only into a chip left in its
	 * bootloader (caps.bus_recovery and no other way): a running
	 * application is not touchfw's to replace. */
	if (r->fw_img && r->chip.mode == TF_CHIP_APP && caps->bus_recovery &&
	    !caps->bus_flash && !caps->kernel_fw_attr && !(path && path->choose)) {
		rlog(r, TF_LOG_NOTICE,
		     "%s runs its application (%s): the %s family only recovers a chip "
		     "left in its bootloader, and its application is updated through its "
		     "driver by other tools (fwupd); left as it is",
		     r->c.dev.name, r->chip.detail, r->fam->ids->name);
		*way = TF_WAY_NONE;
		return TF_EXIT_OK;
	}
	switch (*way) {
	case TF_WAY_STAGE_AND_PROBE:
		if (r->fw_img &&
		    r->ops->kernel_fw_name(&r->c, &r->chip, name, sizeof(name), &err) < 0)
			return flow_finish(r, TF_EXIT_UNSUPPORTED, "%s", err.msg);
		break;
	case TF_WAY_DRIVER_ATTR:
		if (r->fw_img && !caps->kernel_fw_attr)
			return flow_finish(
				r, TF_EXIT_UNSUPPORTED,
				"the driver owns the power and has no firmware update "
				"interface; set power = \"always-on\" in the profile if "
				"that is safe");
		if (r->fw_img &&
		    r->ops->kernel_fw_name(&r->c, &r->chip, name, sizeof(name), &err) < 0)
			return flow_finish(r, TF_EXIT_UNSUPPORTED, "%s", err.msg);
		if (r->cfg_obj && !(path && path->config_through_driver))
			return flow_finish(
				r, TF_EXIT_UNSUPPORTED,
				"the %s driver loads no configuration file; set power = "
				"\"always-on\" in the profile if that is safe",
				r->c.dev.driver[0] ? r->c.dev.driver : flow_driver_to_bind(r));
		/* With firmware first, the file's name comes from the chip
		 * the new firmware makes: known only then. */
		if (r->cfg_obj && !r->fw_img &&
		    (rc = path->config_through_driver(&tf_flow_services, &r->u, true)))
			return rc;
		break;
	case TF_WAY_BOOTLOADER:
		if (!caps->bus_flash && !flow_bus_recovery(r))
			return flow_refuse_bus_flash(r);
		if (r->cfg_obj && !caps->bus_config)
			return flow_refuse_bus_config(r);
		break;
	case TF_WAY_UNBIND_AND_FLASH:
		if (r->fw_img && !caps->bus_flash)
			return flow_refuse_bus_flash(r);
		if (r->cfg_obj && !caps->bus_config)
			return flow_refuse_bus_config(r);
		break;
	case TF_WAY_NONE:
		break;
	}
	return TF_EXIT_OK;
}

int flow_step_update(struct flow_run *r)
{
	enum tf_update_way way;
	int rc;

	if ((rc = flow_decide_update(r, &way)))
		return rc;
	if (way == TF_WAY_NONE) {
		tf_snprintf(r->res->path, sizeof(r->res->path), "none");
		return TF_EXIT_OK;
	}
	r->touched = true;
	switch (way) {
	case TF_WAY_STAGE_AND_PROBE:
		rc = path_probe_file(r);
		break;
	case TF_WAY_DRIVER_ATTR:
		rc = path_update_fw(r);
		break;
	case TF_WAY_BOOTLOADER:
		rc = flow_path_bootloader(r);
		break;
	default:
		rc = flow_path_unbind(r);
		break;
	}
	if (!rc && !r->res->input[0]) {
		if (!r->watch) {
			struct tf_err err = { 0 };

			if (tf_input_watch_start(&r->c.dev, &r->watch, &err) < 0)
				rc = flow_finish(r, TF_EXIT_FAILURE, "%s", err.msg);
		}
		if (!rc)
			rc = flow_wait_input(r);
	}
	tf_input_watch_free(r->watch);
	r->watch = NULL;
	return rc;
}
