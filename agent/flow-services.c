// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The services the update flow offers a family's update path
 * (family/update-path.h): bind the driver before detection, the way taken
 * from the capabilities, rebind and wait for the input device, a
 * configuration staged where the driver looks, or applied through an
 * attribute while the driver is followed, or written over the bus with
 * the driver bound.  flow-update.c and flow-flash.c take the same
 * services for the paths they drive.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "exitcode.h"
#include "flow-bus.h"
#include "flow-detect.h"
#include "flow-outcome.h"
#include "flow-services.h"

/* Why a bind failed: the bind file missing means the kernel has no such
 * driver (not built, module not loaded); else its probe refused. */
const char *flow_bind_failure(const struct tf_err *e)
{
	return e->code == ENOENT ? "no such driver in this kernel"
				 : "the driver's probe failed";
}

/*
 * Unbind (if bound) and bind the driver again, with a new watch for its
 * input device (r->watch) started first.
 */
int flow_rebind(struct flow_run *r)
{
	struct tf_err err = { 0 };
	const char *driver = flow_driver_to_bind(r);
	char drv[64];

	tf_snprintf(drv, sizeof(drv), "%s", driver);
	tf_input_watch_free(r->watch);
	r->watch = NULL;
	if (tf_input_watch_start(&r->c.dev, &r->watch, &err) < 0)
		return flow_finish(r, TF_EXIT_FAILURE, "%s", err.msg);
	flow_spi_let_go(r);
	r->own_unbind = true;
	if (r->c.dev.driver[0]) {
		rlog(r, TF_LOG_INFO, "rebind: unbinding %s", drv);
		if (tf_device_unbind(&r->c.dev, &err) < 0)
			return flow_finish(r, TF_EXIT_IO, "%s", err.msg);
	}
	tf_state_mark_own_bind(&r->st, r->c.dev.name, (uint64_t)time(NULL));
	rlog(r, TF_LOG_INFO, "rebind: binding %s", drv);
	if (tf_device_bind(&r->c.dev, drv, &err) < 0)
		return flow_finish(r, TF_EXIT_VERIFY, "%s (%s)", err.msg,
				   flow_bind_failure(&err));
	r->own_unbind = false;
	return TF_EXIT_OK;
}

/*
 * Staging failed: on touchfw's own files (an untrusted or unwritable state
 * directory, firmware/ or staging lock) the state is unusable (exit 16,
 * as for every state file), on the kernel's loader path an I/O failure.
 * Nothing of this step reached the chip either way.
 */
int flow_stage_failed(struct flow_run *r, const struct tf_fw_stage *stage,
		      const struct tf_err *err)
{
	if (stage->state_unusable)
		return flow_finish(r, TF_EXIT_STATE, "%s%s", err->msg,
				   r->flashed_anything ? "" : "; nothing was flashed");
	return flow_finish(r, TF_EXIT_IO, "%s", err->msg);
}

/* The new input device on r->watch, within the input timeout. */
int flow_wait_input(struct flow_run *r)
{
	struct tf_input_node node;
	struct tf_err err = { 0 };
	/* The profile's, else the settings' (the administrator's default). */
	unsigned ms = r->ctrl->input_timeout_ms ? r->ctrl->input_timeout_ms
						: r->s->input_timeout_ms;

	rlog(r, TF_LOG_INFO, "waiting up to %u ms for the application-mode input device", ms);
	if (tf_input_watch_wait(r->watch, (int)ms, &node, &err) < 0)
		return flow_finish(r, err.code == ENODEV ? TF_EXIT_NO_DEVICE : TF_EXIT_VERIFY,
				   "%s (driver %s)", err.msg,
				   r->c.dev.driver[0] ? r->c.dev.driver : "not bound");
	tf_snprintf(r->res->input, sizeof(r->res->input), "%s", node.event);
	rlog(r, TF_LOG_INFO, "input device %s (/dev/input/%s) appeared", node.input,
	     node.event);
	return TF_EXIT_OK;
}

/* Is the device's driver gone (unbound by someone else)? */
bool flow_driver_gone(struct flow_run *r)
{
	tf_device_refresh(&r->c.dev);
	return !r->c.dev.driver[0];
}

/*
 * Configuration over the bus with the driver bound (a family's update path
 * chooses it): write_config checks by reading back that the chip took it,
 * then a rebind makes the driver read the chip's new configuration.
 */
static int config_bus_bound(struct tf_update *u)
{
	struct flow_run *r = flow_run_of(u);
	struct tf_err err = { 0 };
	int rc;

	tf_snprintf(r->res->path, sizeof(r->res->path), "bus-config");
	rlog(r, TF_LOG_INFO, "config: writing %s over the bus, %s bound", r->res->cfg_id,
	     r->c.dev.driver);
	if (r->ops->write_config(&r->c, r->cfg_obj, &err) < 0)
		return flow_finish(r, TF_EXIT_VERIFY, "%s", err.msg);
	rlog(r, TF_LOG_INFO, "config: the chip took %s; rebinding so that %s reads it",
	     r->res->cfg_id, r->c.dev.driver);
	rc = flow_rebind(r);
	if (!rc)
		rc = flow_wait_input(r);
	return rc;
}

/*
 * A driver that applies its configuration file when @value is written to
 * its attribute @attr (a family's update path says which): stage the file
 * as @name, write the attribute (the kernel's write returns when the
 * driver has applied it), read the driver's config CRC until it shows the
 * file's (the driver learns it from the chip's message after its reset),
 * then rebind it for its input device -- on every way out once the
 * attribute was written.
 */
static int config_attr(struct tf_update *u, const char *name, const char *attr,
		       const char *value)
{
	struct flow_run *r = flow_run_of(u);
	unsigned ms = r->ctrl->input_timeout_ms ? r->ctrl->input_timeout_ms
						: r->s->input_timeout_ms;
	struct tf_fw_stage stage;
	struct tf_chip_state st = { 0 };
	struct tf_err err = { 0 }, e2 = { 0 };
	uint64_t end;
	bool seen = false;
	int wr, rc;

	if (!r->fw_img)
		tf_snprintf(r->res->path, sizeof(r->res->path), "driver-config");
	if (tf_fw_stage(&stage, r->s->firmware_class_path, r->s->state_dir, r->c.dev.name, name,
			r->cfg_data, r->cfg_len, &err) < 0)
		return flow_stage_failed(r, &stage, &err);
	rlog(r, TF_LOG_INFO, "config: staged %s as %s; asking %s to apply it (%s)",
	     r->res->cfg_id, stage.file, r->c.dev.driver, attr);
	/* A probe may register the input device before its attribute
	 * group (some drivers do): after a rebind that was not ours to
	 * wait for, the attribute may come a moment later. */
	end = tf_now_ms() + ms;
	for (;;) {
		char path[sizeof(r->c.dev.syspath) + 64];
		struct stat sb;

		tf_snprintf(path, sizeof(path), "%s/%s", r->c.dev.syspath, attr);
		if (stat(path, &sb) == 0 || tf_now_ms() >= end || tf_stop_requested())
			break;
		tf_sleep_us(10000);
	}
	r->flashed_anything = true;
	wr = tf_device_attr_write(&r->c.dev, attr, value, &err);
	end = tf_now_ms() + ms;
	while (wr == 0 && !tf_stop_requested()) {
		seen = flow_chip_read(r, &st, &e2) == 0 && st.mode == TF_CHIP_APP &&
		       st.has_config_crc;
		if ((seen && st.config_crc == r->cfg_crc) || tf_now_ms() >= end)
			break;
		tf_sleep_us(20000);
	}
	tf_fw_unstage(&stage);
	rlog(r, TF_LOG_INFO, "%s applies no configuration to its input device: rebinding it",
	     r->c.dev.driver);
	rc = flow_rebind(r);
	if (!rc && !tf_stop_requested())
		rc = flow_wait_input(r);
	if (tf_stop_requested())
		return flow_interrupted(r, "while the driver applied the config (the driver "
					   "bound again; not verified)");
	if (wr < 0)
		return flow_finish(r, TF_EXIT_VERIFY, "config %s: %s", r->res->cfg_id, err.msg);
	if (!seen)
		return flow_finish(
			r, TF_EXIT_VERIFY,
			"config %s: no config CRC could be read through %s within %u ms "
			"after %s (not verified)",
			r->res->cfg_id, r->c.dev.driver, ms, attr);
	if (st.config_crc != r->cfg_crc)
		return flow_finish(r, TF_EXIT_VERIFY,
				   "config %s: after %s the chip's config CRC is %s (through "
				   "%s), expected %s",
				   r->res->cfg_id, attr,
				   TF_CRC_TEXT(st.config_crc, r->fam->crc_bits),
				   r->c.dev.driver, TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits));
	rlog(r, TF_LOG_INFO, "config: the chip's config CRC is %s after %s, as the file says",
	     TF_CRC_TEXT(st.config_crc, r->fam->crc_bits), attr);
	return rc;
}

/*
 * The configuration (its bytes as flow_step_load() checked them, not the
 * file again) staged as @name where the driver looks, which applies it at
 * its probe: rebind, wait for the input device, unstage.
 */
static int config_stage_and_rebind(struct tf_update *u, const char *name)
{
	struct flow_run *r = flow_run_of(u);
	struct tf_fw_stage stage;
	struct tf_err err = { 0 };
	int rc;

	if (!r->fw_img)
		tf_snprintf(r->res->path, sizeof(r->res->path), "driver-config");
	if (tf_fw_stage(&stage, r->s->firmware_class_path, r->s->state_dir, r->c.dev.name, name,
			r->cfg_data, r->cfg_len, &err) < 0)
		return flow_stage_failed(r, &stage, &err);
	rlog(r, TF_LOG_INFO, "config: staged %s as %s; the driver applies it on rebind",
	     r->res->cfg_id, stage.file);
	rc = flow_rebind(r);
	if (!rc)
		rc = flow_wait_input(r);
	tf_fw_unstage(&stage);
	if (tf_stop_requested())
		return flow_interrupted(r, "while the driver applied the config");
	return rc;
}

/*
 * A driver that owns the power keeps the chip off while unbound: bind it
 * before detection.  A dry run does not bind it (it changes nothing) and
 * says so.
 */
static int bind_driver_first(struct tf_update *u)
{
	struct flow_run *r = flow_run_of(u);
	struct tf_err err = { 0 };

	if (r->c.dev.driver[0] || r->ctrl->power != TF_POWER_DRIVER || !r->ctrl->driver[0])
		return TF_EXIT_OK;
	if (r->o->dry_run) {
		tf_snprintf(r->res->mode_before, sizeof(r->res->mode_before), "unpowered");
		return flow_finish(r, TF_EXIT_NO_DEVICE,
				   "driver %s is not bound and owns the power, so the chip "
				   "is off; a dry run does not bind it ('touchfw run %s' does)",
				   r->ctrl->driver, r->c.dev.name);
	}
	rlog(r, TF_LOG_INFO, "driver not bound and it owns the power: binding %s first",
	     r->ctrl->driver);
	if (tf_state_mark_own_bind(&r->st, r->c.dev.name, (uint64_t)time(NULL)) < 0)
		rlog(r, TF_LOG_WARNING,
		     "the marker for touchfw's own bind could not be "
		     "written in %s: handle-event may start another run for it",
		     r->s->state_dir);
	if (tf_device_bind(&r->c.dev, r->ctrl->driver, &err) < 0)
		rlog(r, TF_LOG_WARNING, "%s", err.msg);
	return TF_EXIT_OK;
}

/*
 * The way from the capabilities and the chip's state: through the driver
 * where it keeps the device (spi, power = "driver"); a chip in its
 * bootloader over the bus; with power always on (and something to write
 * over the bus) or no driver bound, unbind and flash; else through the
 * driver, which owns the power.
 */
static enum tf_update_way choose(struct tf_update *u)
{
	struct flow_run *r = flow_run_of(u);
	const struct tf_family_caps *caps = &r->fam->caps;

	if (r->via_driver)
		return TF_WAY_DRIVER_ATTR;
	if (r->chip.mode == TF_CHIP_BOOTLOADER)
		return TF_WAY_BOOTLOADER;
	if ((r->ctrl->power == TF_POWER_ALWAYS_ON && (caps->bus_flash || caps->bus_config)) ||
	    !r->c.dev.driver[0])
		return TF_WAY_UNBIND_AND_FLASH;
	return TF_WAY_DRIVER_ATTR; /* also always-on: nothing to write over the bus */
}

static int chip_read(struct tf_update *u, struct tf_chip_state *st, struct tf_err *err)
{
	return flow_chip_read(flow_run_of(u), st, err);
}

static int rebind(struct tf_update *u)
{
	return flow_rebind(flow_run_of(u));
}

static int wait_input(struct tf_update *u)
{
	return flow_wait_input(flow_run_of(u));
}

static bool driver_gone(struct tf_update *u)
{
	return flow_driver_gone(flow_run_of(u));
}

static void record_blob_failure(struct tf_update *u, const struct tf_err *err)
{
	flow_record_blob_failure(flow_run_of(u), err);
}

static int fail_bootloader(struct tf_update *u, const char *msg)
{
	return flow_fail_bootloader(flow_run_of(u), msg, NULL);
}

static int finish(struct tf_update *u, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int finish(struct tf_update *u, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	flow_vfinish(flow_run_of(u), code, fmt, ap);
	va_end(ap);
	return code;
}

static void say(struct tf_update *u, int prio, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(struct tf_update *u, int prio, const char *fmt, ...)
{
	struct flow_run *r = flow_run_of(u);
	va_list ap;

	if (r->o->log_max && prio > r->o->log_max)
		return;
	va_start(ap, fmt);
	tf_logv(prio, flow_dev_of(r), fmt, ap);
	va_end(ap);
}

const struct tf_flow_services tf_flow_services = {
	.bind_driver_first = bind_driver_first,
	.choose = choose,
	.chip_read = chip_read,
	.rebind = rebind,
	.wait_input = wait_input,
	.driver_gone = driver_gone,
	.config_stage_and_rebind = config_stage_and_rebind,
	.config_write_attr_and_follow = config_attr,
	.config_over_bus_bound = config_bus_bound,
	.record_blob_failure = record_blob_failure,
	.fail_bootloader = fail_bootloader,
	.finish = finish,
	.log = say,
};
