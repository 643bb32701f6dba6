/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared internals of the update flow, one job a file, each calling only
 * the files listed before it here (none calls back up):
 *   flow-outcome.c   the exit code and message, recording the result
 *   flow-bus.c       reaching the chip: i2c, spidev, the profile's lines
 *   flow-detect.c    the chip's state, over the bus or through the driver
 *   flow-load.c      the blobs, read and checked once
 *   flow-services.c  the services a family's update path is made of
 *                    (family/update-path.h)
 *   flow-flash.c     the ways over the bus: bootloader, unbind and flash
 *   flow-update.c    the way decided, the driver's ways, the dry run's
 *   flow-verify.c    read back, input device, the state after a failure
 *   flow-plan.c      the plan step
 *   flow.c           the state machine that runs them (tf_flow_run)
 * The public API is flow.h; nothing outside agent/flow*.c includes this.
 * Each flow file's header (flow-outcome.h, ...) declares what it offers
 * the files above it; functions shared between flow files are flow_*.
 */
#ifndef TF_FLOW_PRIV_H
#define TF_FLOW_PRIV_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "device.h"
#include "family/family.h"
#include "family/update-path.h"
#include "flow-types.h"
#include "fwdb.h"
#include "log.h"
#include "plan.h"
#include "settings.h"
#include "state.h"

struct flow_run {
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
	/* The plan keeps what the bound driver runs: the firmware to write
	 * (res->fw_id) is the file its probe loaded already (flow-plan.c). */
	bool fw_kept;
	bool cfg_already;	/* the configuration to write is the chip's already (its CRC) */
	bool touched;		/* the update started: re-detect after a failure */
	bool foreign;		/* the chip refused the image as another chip's */
	bool attempt_reserved;	/* this run already counts in DEV.attempts */
	bool failed_before;	/* no firmware: the fitting blobs failed here before */
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
	/* The update goes through this bound driver (update_fw, the driver's
	 * configuration paths): it must stay bound throughout; own_unbind
	 * while touchfw itself has it unbound (a rebind not yet bound again). */
	char kept_driver[64];
	bool own_unbind;
	/* The new input device's watch of the update under way. */
	struct tf_input_watch *watch;
	/* What a family's update path sees of this run (u.c, u.chip point
	 * into it), and whether the message says what the next run can do
	 * (u.next_run_said). */
	struct tf_update u;
};

/* The run a family's update path was handed. */
static inline struct flow_run *flow_run_of(struct tf_update *u)
{
	return (struct flow_run *)((char *)u - offsetof(struct flow_run, u));
}

static inline const char *flow_dev_of(struct flow_run *r)
{
	return r->c.dev.name[0] ? r->c.dev.name : "touchfw";
}

/* A line about this run's device, at the level its options allow; the
 * device is named here once, messages never name it themselves. */
#define rlog(r, prio, ...) tf_log_at((r)->o->log_max, prio, flow_dev_of(r), __VA_ARGS__)

#endif
