/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared internals of the update flow: flow.c (the state machine, from
 * the device to the verified result) and flow-update.c (the write paths:
 * reading the blobs, flashing over the bus, the driver's update_fw with a
 * staged image, the configuration over the bus or as the driver's file).
 * The public API is flow.h; nothing outside agent/flow*.c includes this.
 */
#ifndef TF_FLOW_PRIV_H
#define TF_FLOW_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "device.h"
#include "family/family.h"
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
	bool next_run_said;	/* the message already says what the next run can do */
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
};

static inline const char *dev_of(struct run *r)
{
	return r->c.dev.name[0] ? r->c.dev.name : "touchfw";
}

/* A line about this run's device, at the level its options allow; the
 * device is named here once, messages never name it themselves. */
#define rlog(r, prio, ...) tf_log_at((r)->o->log_max, prio, dev_of(r), __VA_ARGS__)

/* flow.c */

/* Record the outcome and return its exit code. */
int finish(struct run *r, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The chip's state over the bus, or what the bound driver shows. */
int chip_read(struct run *r, struct tf_chip_state *st, struct tf_err *err);
/* The bound driver takes its configuration file only through
 * caps.kernel_cfg_attr, not at probe. */
bool cfg_through_attr(const struct run *r);
/* chip_read(), a failure recorded with finish(). */
int detect(struct run *r, struct tf_chip_state *st);
/* The driver to bind: the one bound before, the profile's, the family's. */
const char *driver_to_bind(struct run *r);
/* spi: close spidev and undo the claim, so the touch driver can bind. */
void spi_let_go(struct run *r);

/* flow-update.c */

/* flash: the files given are read and parsed before the device is touched. */
int step_files(struct run *r);
/* Read the plan's (or the given) blobs and let the family check them. */
int step_load(struct run *r);
/* The ways step_update() can go (decide_update()). */
enum upd_path {
	UPD_NOTHING,	/* nothing to write */
	UPD_PROBE_FILE, /* caps.kernel_fw_probe: stage, make the driver probe */
	UPD_UPDATE_FW,	/* through the bound driver's attributes and files */
	UPD_BOOTLOADER, /* the chip is in its bootloader: flash it there */
	UPD_UNBIND,	/* unbind (or none bound), over the bus */
};
/*
 * The one decision for an update and its dry run: the path step_update()
 * takes, and every check that comes before that path's first write (a
 * family that can not write this way, a file name the driver can not
 * have, a configuration on a chip left in its bootloader).  0 with *@path
 * set, or an exit code with the message recorded (finish()).
 */
int decide_update(struct run *r, enum upd_path *path);
/* Write by the path decide_update() chose; rebind, input. */
int step_update(struct run *r);
/* Through the driver, a configuration only if the driver loads one. */
int driver_takes_config(struct run *r);
/* A dry run's account of what step_update() would write by @path (from
 * decide_update()), and how. */
void describe_dry_run(struct run *r, enum upd_path path, char *buf, size_t size);
/* After a failed update or verification through the bound driver: the
 * driver gone, not unbound by touchfw, makes it an interruption (exit 19,
 * whatever failed after it); else @rc. */
int driver_lost(struct run *r, int rc);
/* Wait until the driver link has not changed for a moment (a probe in
 * progress ends first). */
void settle_driver_link(struct run *r);
/* caps.bus_recovery: refuse, before the chip is touched, to flash a chip
 * left in its bootloader where the board profile does not allow it. */
int step_recovery_allowed(struct run *r);
/* A stop signal arrived: finish() with what was done about it. */
int interrupted(struct run *r, const char *what);
/* Give back the profile's GPIO lines taken for the update. */
void release_lines(struct run *r);

#endif
