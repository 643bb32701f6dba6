// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The update flow's ways over the bus (see flow.h): flashing a chip in its
 * bootloader with the driver bound, or unbinding, resetting and flashing
 * it from its application; the configuration over the bus; the recovery
 * of a chip its driver can not take, where the board profile allows it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "exitcode.h"
#include "flow-bus.h"
#include "flow-detect.h"
#include "flow-flash.h"
#include "flow-outcome.h"
#include "flow-services.h"

/*
 * caps.bus_recovery: a chip left in its bootloader, with no driver bound
 * (its probe refuses such a chip), is flashed over the bus -- only where
 * the board profile allows it (allow-bus-recovery).  needs_bus_recovery:
 * this is such a chip; bus_recovery: and the profile allows it.
 */
static bool needs_bus_recovery(const struct flow_run *r)
{
	return r->fam->caps.bus_recovery && r->chip.mode == TF_CHIP_BOOTLOADER &&
	       !r->c.dev.driver[0] && !r->via_driver;
}

bool flow_bus_recovery(const struct flow_run *r)
{
	return needs_bus_recovery(r) && r->ctrl->bus_recovery;
}

/*
 * A chip its driver can not take (caps.bus_recovery) that needs firmware:
 * without the board's consent, say which device, why, and which property
 * allows it, before anything touches the chip (a dry run says the same).
 */
int flow_step_recovery_allowed(struct flow_run *r)
{
	if (!r->plan.fw && !r->o->firmware_file)
		return TF_EXIT_OK;
	if (!needs_bus_recovery(r) || r->ctrl->bus_recovery)
		return TF_EXIT_OK;
	return flow_finish(r, TF_EXIT_UNSUPPORTED,
			   "%s is in its bootloader (%s) and no driver is bound, so only "
			   "touchfw could flash it, over the bus; board profile %s does not "
			   "allow that: its maker adds allow-bus-recovery to %s where the "
			   "chip may be recovered so; the chip was not touched",
			   r->c.dev.name, r->chip.detail,
			   r->profile ? r->profile->path : "(none)", r->ctrl->node_path);
}

/* The refusals of a family that can not do over the bus what the path
 * needs: one text each, wherever the path is decided or taken. */
int flow_refuse_bus_flash(struct flow_run *r)
{
	return flow_finish(r, TF_EXIT_UNSUPPORTED,
			   "the %s family can not flash over the bus; only its driver "
			   "can (power = \"driver\" in the profile)",
			   r->fam->ids->name);
}

int flow_refuse_bus_config(struct flow_run *r)
{
	return flow_finish(r, TF_EXIT_UNSUPPORTED,
			   "the %s family can not write a configuration over the bus",
			   r->fam->ids->name);
}

static int flash_over_bus(struct flow_run *r)
{
	struct tf_err err = { 0 };

	if (!r->fam->caps.bus_flash && !flow_bus_recovery(r))
		return flow_refuse_bus_flash(r);
	if (r->c.spi_open)
		rlog(r, TF_LOG_INFO, "flashing %s (%s) over %s, %s%s", r->res->fw_id,
		     r->plan.fw ? r->plan.fw->version : "file", r->c.spi.node,
		     r->c.irq ? flow_irq_line(r) : "polling", r->c.irq ? " line watched" : "");
	else
		rlog(r, TF_LOG_INFO, "flashing %s (%s) at bootloader address 0x%02x, %s%s",
		     r->res->fw_id, r->plan.fw ? r->plan.fw->version : "file", r->chip.bl_addr,
		     r->c.irq ? flow_irq_line(r) : "polling", r->c.irq ? " line watched" : "");
	r->flashed_anything = true;
	if (r->ops->write_firmware(&r->c, &r->chip, r->fw_img, &err) < 0) {
		/* refused before its first write, the image not being this
		 * chip's; in a recovery nothing came before it */
		if (err.code == ENOEXEC && flow_bus_recovery(r)) {
			r->flashed_anything = false;
			r->touched = false;
			return flow_finish(r, TF_EXIT_UNSUPPORTED,
					   "%s; the chip was not touched", err.msg);
		}
		flow_record_blob_failure(r, &err);
		if (err.code == EINTR && tf_stop_requested())
			return flow_interrupted(
				r, "between frames (the chip is in its bootloader)");
		return flow_fail_bootloader(r, err.msg, &err);
	}
	if (r->ops->leave_bootloader(&r->c, &r->chip, &err) < 0) {
		flow_record_blob_failure(r, &err);
		return err.code == EBADMSG ? flow_finish(r, TF_EXIT_VERIFY, "%s", err.msg)
					   : flow_fail_bootloader(r, err.msg, &err);
	}
	rlog(r, TF_LOG_INFO, "the chip started the new firmware");
	return TF_EXIT_OK;
}

/* Configuration over the bus; the chip must be in application mode. */
static int config_over_bus(struct flow_run *r)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };
	int rc;

	if (!r->cfg_obj)
		return TF_EXIT_OK;
	rc = flow_detect(r, &st);
	if (rc)
		return rc;
	if (st.mode != TF_CHIP_APP)
		return flow_finish(r, TF_EXIT_VERIFY, "not in application mode for the config");
	if (!r->fam->caps.bus_config)
		return flow_refuse_bus_config(r);
	if (r->ops->check_config && r->ops->check_config(&r->c, r->cfg_obj, &err) < 0)
		return flow_finish(r, TF_EXIT_BAD_INPUT, "%s: %s", r->res->cfg_id, err.msg);
	if (st.has_config_crc && st.config_crc == r->cfg_crc && !r->o->force) {
		r->cfg_already = true;
		rlog(r, TF_LOG_INFO, "config: the chip already has CRC %s",
		     TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits));
		return TF_EXIT_OK;
	}
	rlog(r, TF_LOG_INFO, "config: writing %s, backup to NVM, reset", r->res->cfg_id);
	if (r->ops->write_config(&r->c, r->cfg_obj, &err) < 0)
		return flow_finish(r, TF_EXIT_VERIFY, "%s", err.msg);
	rlog(r, TF_LOG_INFO, "config: CRC %s verified after reset",
	     TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits));
	return TF_EXIT_OK;
}

int flow_path_bootloader(struct flow_run *r)
{
	int rc;

	tf_snprintf(r->res->path, sizeof(r->res->path), "bootloader");
	if (!r->fw_img)
		return flow_fail_bootloader(r,
					    "no firmware chosen for a chip in bootloader mode",
					    NULL);
	/* The bound driver found no application: it keeps its interrupt off
	 * and nobody claims the bootloader address. */
	rc = flash_over_bus(r);
	if (rc)
		return rc;
	rc = config_over_bus(r);
	if (rc)
		return rc;
	return flow_rebind(r);
}

int flow_path_unbind(struct flow_run *r)
{
	struct tf_err err = { 0 };
	int rc;

	tf_snprintf(r->res->path, sizeof(r->res->path), "unbind");
	/* a watch of an earlier bind (a family's before_detect) is done */
	tf_input_watch_free(r->watch);
	r->watch = NULL;
	if (tf_input_watch_start(&r->c.dev, &r->watch, &err) < 0)
		return flow_finish(r, TF_EXIT_FAILURE, "%s", err.msg);
	if (r->c.dev.driver[0]) {
		char drv[sizeof(r->c.dev.driver)];

		rlog(r, TF_LOG_INFO, "unbinding %s (power is always on)", r->c.dev.driver);
		tf_snprintf(drv, sizeof(drv), "%s", r->c.dev.driver);
		if (tf_device_unbind(&r->c.dev, &err) < 0)
			return flow_finish(r, TF_EXIT_IO, "%s", err.msg);
		/* Remember which driver to bind again. */
		tf_snprintf(r->c.dev.driver, sizeof(r->c.dev.driver), "%s", drv);
	}
	rc = flow_request_lines(r);
	if (rc)
		goto out;
	if (tf_stop_requested()) {
		rc = flow_interrupted(r, "after the unbind, before the chip was touched");
		goto out;
	}
	rc = flow_detect_after_reset(r, &r->chip, r->c.reset != NULL);
	if (rc)
		goto out;
	if (r->chip.mode == TF_CHIP_ABSENT) {
		rc = flow_finish(r, TF_EXIT_NO_DEVICE, "after unbinding the driver%s: %s",
				 r->c.reset ? " and a reset pulse" : "", r->chip.detail);
		goto out;
	}
	if (r->fw_img) {
		if (!r->fam->caps.bus_flash) {
			rc = flow_refuse_bus_flash(r);
			goto out;
		}
		if (r->chip.mode == TF_CHIP_APP) {
			rlog(r, TF_LOG_INFO, "entering the bootloader (%s)",
			     r->fam->caps.enter_bootloader_desc);
			if (r->ops->enter_bootloader(&r->c, &r->chip, &err) < 0) {
				rc = flow_finish(r, TF_EXIT_IO, "%s", err.msg);
				goto out;
			}
		}
		rc = flash_over_bus(r);
		if (rc)
			goto out;
	}
	rc = config_over_bus(r);
out:
	flow_release_lines(r);
	/* Bind again whatever happened, so the driver sees the chip's state. */
	{
		char drv[64];
		struct tf_err e2 = { 0 };

		tf_snprintf(drv, sizeof(drv), "%s", flow_driver_to_bind(r));
		flow_spi_let_go(r);
		tf_device_refresh(&r->c.dev);
		if (!r->c.dev.driver[0]) {
			tf_state_mark_own_bind(&r->st, r->c.dev.name, (uint64_t)time(NULL));
			rlog(r, TF_LOG_INFO, "rebind: binding %s", drv);
			if (tf_device_bind(&r->c.dev, drv, &e2) < 0 && !rc)
				rc = flow_finish(r, TF_EXIT_VERIFY, "%s (%s)", e2.msg,
						 flow_bind_failure(&e2));
		}
	}
	return rc;
}
