// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Verification in the update flow (see flow.h): the chip read back after
 * the update, the new input device's axes, and after a failure the chip's
 * state again, which decides the exit code and what the message promises.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <linux/input.h>

#include "exitcode.h"
#include "flow-detect.h"
#include "flow-outcome.h"
#include "flow-verify.h"
#include "fw-install.h"

#define EVENT_NODE_WAIT_MS 3000 /* sysfs has the event node, /dev not yet */

/*
 * The driver took the configuration only if its new input device has the
 * axis ranges that configuration gives (ops.expected_axes), read from the
 * event node as libevdev does.  A chip that kept its old configuration, or
 * a driver that sent another file, shows the old ranges.
 */
static int verify_axes(struct flow_run *r, const struct tf_chip_state *st)
{
	struct tf_err err = { 0 };
	int32_t want_x, want_y, min, got_x = 0, got_y = 0;
	char cfg_name[TF_FW_NAME_MAX];
	uint64_t end;

	void *blob = r->cfg_obj ? r->cfg_obj : st->program_from_driver ? r->fw_img : NULL;
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
		return flow_finish(r, TF_EXIT_VERIFY,
				   "can not read the new input device's axes: %s", err.msg);
	if (got_x != want_x || got_y != want_y) {
		char hint[TF_FW_NAME_MAX + 64] = "";

		if (r->fam->caps.kernel_cfg &&
		    r->ops->kernel_cfg_name(&r->c, st, cfg_name, sizeof(cfg_name), &err) == 0)
			tf_snprintf(hint, sizeof(hint),
				    " (is another %s in the firmware path overriding it?)",
				    cfg_name);
		return flow_finish(
			r, TF_EXIT_VERIFY,
			"input %s has ABS_MT_POSITION_X/Y maxima %d/%d, but %s gives "
			"%d/%d: the driver did not take the %s%s",
			r->res->input, got_x, got_y, r->cfg_obj ? blob_id : "the board profile",
			want_x, want_y, r->cfg_obj ? "configuration" : "board's properties",
			hint);
	}
	rlog(r, TF_LOG_INFO, "input %s: ABS_MT_POSITION_X/Y maxima %d/%d, as %s gives",
	     r->res->input, got_x, got_y, r->cfg_obj ? blob_id : "the board profile");
	return TF_EXIT_OK;
}

/*
 * A chip whose program is its driver's file (program_from_driver) gets
 * it again at every probe and at resume: the file this run verified is
 * installed where the loader finds it then, after the run's staging is
 * gone (fw-install.h).  Not doing so is said, not an error.
 */
static void install_for_reload(struct flow_run *r)
{
	struct tf_err err = { 0 };
	char name[TF_FW_NAME_MAX], msg[1200];
	const uint8_t *img;
	size_t len;
	int rc;

	if (!r->fw_img || !r->ops->kernel_fw_name || !r->ops->kernel_firmware ||
	    r->ops->kernel_fw_name(&r->c, &r->chip, name, sizeof(name), &err) < 0)
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

int flow_step_verify(struct flow_run *r)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };
	char cfg_name[TF_FW_NAME_MAX], crc[16];
	int rc;

	if (!r->flashed_anything && !r->cfg_obj)
		return TF_EXIT_OK;
	tf_device_refresh(&r->c.dev);
	if (r->via_driver) {
		rc = flow_detect(r, &st); /* what the driver shows after its new probe */
		if (rc)
			return rc;
	} else if (!strcmp(r->c.dev.subsys, "spi")) {
		/* the bound driver owns the spi device: what the chip said
		 * over spidev just before the driver was bound again */
		if (!r->spi_after_valid)
			return flow_finish(r, TF_EXIT_VERIFY,
					   "the chip could not be read back over "
					   "spidev after the update");
		st = r->spi_after;
	} else {
		rc = flow_detect(r, &st);
		if (rc)
			return rc;
	}
	if (st.mode != TF_CHIP_APP)
		return flow_finish(r, TF_EXIT_VERIFY,
				   "after the update the chip is in %s mode (%s)",
				   tf_chip_mode_name(st.mode), st.detail);
	if (st.not_running)
		return flow_finish(r, TF_EXIT_VERIFY, "after the update: %s", st.detail);
	flow_persist_hw(r, st.hw); /* the chip says what it is now */
	tf_snprintf(r->res->version_after, sizeof(r->res->version_after), "%s", st.version_str);
	r->res->has_crc_after = st.has_config_crc;
	r->res->crc_after = st.config_crc;
	if (st.has_config_version)
		tf_snprintf(r->res->config_version_after, sizeof(r->res->config_version_after),
			    "%s", st.config_version_str);
	/* A chip that reports no version (its program the driver's file) is judged by
	 * its driver's input device below. */
	if (r->plan.fw && (st.has_version || !st.program_from_driver) &&
	    tf_version_cmp(&st.version, &r->plan.fw->v_version))
		return flow_finish(r, TF_EXIT_VERIFY,
				   "the chip reports firmware %s after installing %s (%s)",
				   st.version_str, r->plan.fw->version, r->plan.fw->id);
	/* The input device first: it says whether the driver took it. */
	rc = verify_axes(r, &st);
	if (rc)
		return rc;
	if (r->cfg_obj && st.has_config_crc && st.config_crc != r->cfg_crc)
		return flow_finish(r, TF_EXIT_VERIFY,
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
	if (st.program_from_driver)
		rlog(r, TF_LOG_INFO, "verified: %s bound with %s, input %s; %s",
		     r->c.dev.driver, r->res->fw_id, r->res->input[0] ? r->res->input : "-",
		     st.detail);
	else if (st.has_config_version && !r->flashed_anything)
		rlog(r, TF_LOG_INFO,
		     "verified: configuration version %s -> %s, config CRC %s, "
		     "input %s",
		     r->res->config_version_before[0] ? r->res->config_version_before
						      : "(none)",
		     st.config_version_str, flow_crc_text(r, &st, crc),
		     r->res->input[0] ? r->res->input : "-");
	else
		rlog(r, TF_LOG_INFO, "verified: firmware %s%s%s, config CRC %s, input %s",
		     r->res->version_before[0] ? r->res->version_before : "(bootloader)",
		     " -> ", st.version_str, flow_crc_text(r, &st, crc),
		     r->res->input[0] ? r->res->input : "-");
	if (r->fam->unproven)
		rlog(r, TF_LOG_INFO, "not proven by this: %s", r->fam->unproven);
	r->chip = st;
	if (st.program_from_driver)
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
int flow_after_failure(struct flow_run *r, int rc)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };
	char *m = r->res->message;
	size_t n = strlen(m), size = sizeof(r->res->message);
	int i;

	if (!r->touched || !(r->c.bus || r->via_driver) || rc == TF_EXIT_INTERRUPTED ||
	    r->u.next_run_said)
		return rc;
	tf_device_refresh(&r->c.dev);
	/* A driver probing after the rebind may hold the chip in reset for a
	 * moment: silence is looked at a few times. */
	for (i = 0; i < 20; i++) {
		if (flow_chip_read(r, &st, &err) < 0)
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
