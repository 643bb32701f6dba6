/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The version policy: which firmware and configuration a controller should
 * get, and why.  Pure over the firmware DB, the board profile and what
 * detection found (doc/policy in the README):
 *
 *  - a pin in the board profile wins, and may go back (an OEM decision);
 *  - a chip in bootloader mode always gets firmware: the newest that fits
 *    its hardware and board; with the hardware unknown (a bootloader that
 *    does not tell it) the hardware last seen on this device is used, else
 *    the candidates must agree on one hardware id;
 *  - a chip in application mode gets firmware only if it is newer than
 *    the running one (versions compared as numbers) and the blob's
 *    min_from/max_from admit the running version; never a downgrade;
 *  - a blob that failed on this device too often is skipped;
 *  - the configuration is the one written for the firmware version the
 *    chip will run (for_version), and is written only when its CRC differs
 *    from the chip's;
 *  - for families whose configurations carry a version the chip reports
 *    (config_versioned), the newest such configuration is written only
 *    when it is newer than the chip's, or the chip holds none; never an
 *    older or the same one, except by a pin (which may go back) or force.
 */
#ifndef TF_PLAN_H
#define TF_PLAN_H

#include <errno.h>
#include <stdbool.h>

#include "board.h"
#include "family/family.h"
#include "fwdb.h"

struct tf_plan {
	const struct tf_blob *fw;  /* NULL: keep the firmware */
	const struct tf_blob *cfg; /* NULL: no configuration known for it */
	bool cfg_needed;	   /* cfg differs from the chip (or unknown) */
	char target_version[TF_VERSION_STR_MAX];
	char fw_reason[200];
	char cfg_reason[200];
};

struct tf_plan_input {
	const struct tf_fwdb *db;
	const struct tf_board_profile *profile; /* may be NULL (manual use) */
	const struct tf_controller *ctrl;	/* may be NULL */
	const char *family;
	const struct tf_chip_state *st;
	const char *hw_hint; /* hardware last seen here, or NULL */
	const char *devname;
	const char *persist_dir; /* for failures that survive reboots */
	unsigned max_blob_failures;
	/* Configurations are chosen by their version (see above): also
	 * where @family's caps.config_versioned says so. */
	bool config_versioned;
	unsigned crc_bits; /* the family's, for messages */
	/* Write the chosen configuration even if it is not newer. */
	bool force;
};

/* A failure record in persist_dir (or its directory) can not be used. */
#define TF_PLAN_STATE_UNUSABLE (-EBADFD)

/* Returns 0 (a plan, possibly empty) or -ENOENT with a reason in @err;
 * -ENODEV when the chip is in its bootloader and reports a bootloader id
 * that no firmware for it names (a chip of another kind);
 * TF_PLAN_STATE_UNUSABLE when a blob's failure record can not be trusted
 * (exit state-unusable, @err names the file).  @err's code is EAGAIN when
 * the chip is in its bootloader and every firmware for it failed here
 * before (not tried again until --force), ENOENT for other reasons. */
int tf_plan_make(const struct tf_plan_input *in, struct tf_plan *plan, struct tf_err *err);

void tf_sha256_hex(const uint8_t sha[32], char out[65]);

#endif /* TF_PLAN_H */
