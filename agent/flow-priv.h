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
 * Functions shared between flow files are named flow_*.
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
#include "flow.h"
#include "fwdb.h"
#include "log.h"
#include "plan.h"
#include "state.h"

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
static inline struct run *flow_run_of(struct tf_update *u)
{
	return (struct run *)((char *)u - offsetof(struct run, u));
}

static inline const char *dev_of(struct run *r)
{
	return r->c.dev.name[0] ? r->c.dev.name : "touchfw";
}

/* A line about this run's device, at the level its options allow; the
 * device is named here once, messages never name it themselves. */
#define rlog(r, prio, ...) tf_log_at((r)->o->log_max, prio, dev_of(r), __VA_ARGS__)

/* flow-outcome.c */

/* Record the outcome and return its exit code. */
int flow_finish(struct run *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int flow_vfinish(struct run *r, int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* The update failed where the chip may be left in its bootloader;
 * flow_after_failure() completes the message.  @e: the family's verdict. */
int flow_fail_bootloader(struct run *r, const char *msg, const struct tf_err *e);
/* A stop signal arrived: flow_finish() with what was done about it. */
int flow_interrupted(struct run *r, const char *what);
/* The image's failure on this device, kept when the chip rejected it. */
void flow_record_blob_failure(struct run *r, const struct tf_err *e);
/* Count this run as an attempt before the chip is touched. */
int flow_reserve_attempt(struct run *r);
/* The result, attempts and metrics, as the run ends. */
void flow_record(struct run *r);

/* flow-bus.c */

/* The driver to bind: the one bound before, the profile's, the family's. */
const char *flow_driver_to_bind(struct run *r);
/* spi: close spidev and undo the claim, so the touch driver can bind. */
void flow_spi_let_go(struct run *r);
/* tf_spidev_repair()'s bind callback (@user: the run). */
void flow_repair_bind(void *user, const char *dev, const char *driver);
/* The bus the family's transport reaches the chip by. */
int flow_step_bus(struct run *r);
/* The interrupt line by the family's name for it, for the log. */
const char *flow_irq_line(const struct run *r);
/* Take the profile's lines and give the family's reset pulse. */
int flow_request_lines(struct run *r);
/* Give back the profile's GPIO lines taken for the update. */
void flow_release_lines(struct run *r);

/* flow-detect.c */

/* A chip's config CRC for messages, or "unknown". */
const char *flow_crc_text(const struct run *r, const struct tf_chip_state *st,
			  char buf[TF_CRC_TEXT_MAX]);
/* Wait until the driver link has not changed for a moment (a probe in
 * progress ends first). */
void flow_settle_driver_link(struct run *r);
/* The chip's state over the bus, or what the bound driver shows. */
int flow_chip_read(struct run *r, struct tf_chip_state *st, struct tf_err *err);
/* flow_chip_read(), a failure recorded with flow_finish(). */
int flow_detect(struct run *r, struct tf_chip_state *st);
/* Detection while the bound driver may be resetting the chip. */
int flow_detect_settled(struct run *r, struct tf_chip_state *st);
/* Remember the hardware (not in dry runs); read what was remembered. */
void flow_persist_hw(struct run *r, const char *hw);
void flow_read_hw_hint(struct run *r);
/* Detection right after the reset pulse, the chip waited for. */
int flow_detect_after_reset(struct run *r, struct tf_chip_state *st, bool pulsed);

/* flow-load.c */

/* flash: the files given are read and parsed before the device is touched. */
int flow_step_files(struct run *r);
/* Read the plan's (or the given) blobs and let the family check them. */
int flow_step_load(struct run *r);

/* flow-services.c */

/* The services handed to a family's update path. */
extern const struct tf_flow_services tf_flow_services;
/* Why a bind failed, for the message. */
const char *flow_bind_failure(const struct tf_err *e);
/* Unbind and bind the driver again with a new watch (r->watch). */
int flow_rebind(struct run *r);
/* Wait for the input device on r->watch. */
int flow_wait_input(struct run *r);
/* Was the driver unbound (by someone else)? */
bool flow_driver_gone(struct run *r);
/* Staging failed: the state's fault (exit 16) or an I/O failure. */
int flow_stage_failed(struct run *r, const struct tf_fw_stage *stage, const struct tf_err *err);

/* flow-flash.c */

/* caps.bus_recovery: a chip in its bootloader with no driver bound, and
 * the board profile allows flashing it over the bus. */
bool flow_bus_recovery(const struct run *r);
/* caps.bus_recovery: refuse, before the chip is touched, to flash a chip
 * left in its bootloader where the board profile does not allow it. */
int flow_step_recovery_allowed(struct run *r);
/* The refusals of a family that can not do it over the bus. */
int flow_refuse_bus_flash(struct run *r);
int flow_refuse_bus_config(struct run *r);
/* The chip in its bootloader: flash over the bus, configure, rebind. */
int flow_path_bootloader(struct run *r);
/* Unbind, reset, flash and configure over the bus, bind again. */
int flow_path_unbind(struct run *r);

/* flow-update.c */

/*
 * The one decision for an update and its dry run: the way
 * flow_step_update() takes (the family's update path may choose), and
 * every check that comes before that way's first write.  0 with *@way
 * set, or an exit code with the message recorded (flow_finish()).
 */
int flow_decide_update(struct run *r, enum tf_update_way *way);
/* Write by the way flow_decide_update() chose; rebind, input. */
int flow_step_update(struct run *r);
/* A dry run's account of what flow_step_update() would write by @way. */
void flow_describe_dry_run(struct run *r, enum tf_update_way way, char *buf, size_t size);
/* After a failed update or verification through the bound driver: the
 * driver gone, not unbound by touchfw, makes it an interruption (exit 19,
 * whatever failed after it); else @rc. */
int flow_driver_lost(struct run *r, int rc);

/* flow-verify.c */

/* Read back after the update: mode, version, CRC, input device's axes. */
int flow_step_verify(struct run *r);
/* After a failed update, the chip's state again: the exit code it calls
 * for, the message completed. */
int flow_after_failure(struct run *r, int rc);

/* flow-plan.c */

/* What to install, from the database (plan.c), or an exit code. */
int flow_step_plan(struct run *r);

#endif
