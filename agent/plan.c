// SPDX-License-Identifier: GPL-2.0-or-later
/* Firmware and configuration selection (see plan.h for the policy). */
#include "plan.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "state.h"

void tf_sha256_hex(const uint8_t sha[32], char out[65])
{
	tf_hex_encode(sha, 32, out);
}

static bool fits_board(const struct tf_plan_input *in, const struct tf_blob *b)
{
	if (!in->profile)
		return b->n_boards == 0;
	return tf_blob_fits_board(b, (const char *const *)in->profile->board_ids,
				  in->profile->n_board_ids);
}

/* How often @b failed on this device in *@n, and the last error in @why;
 * TF_PLAN_STATE_UNUSABLE when its record can not be used (@err says). */
static int failures(const struct tf_plan_input *in, const struct tf_blob *b, unsigned *n,
		    char *why, size_t why_size, struct tf_err *err)
{
	char hex[65];

	why[0] = 0;
	*n = 0;
	if (!in->persist_dir || !in->devname)
		return 0;
	tf_sha256_hex(b->sha256, hex);
	if (tf_persist_failures_read(in->persist_dir, in->devname, hex, n, why, why_size, err) <
	    0)
		return TF_PLAN_STATE_UNUSABLE;
	return 0;
}

static const struct tf_blob *pinned(const struct tf_plan_input *in, const char *id,
				    enum tf_blob_type type, struct tf_err *err)
{
	const struct tf_blob *b = tf_fwdb_find(in->db, id);

	if (!b) {
		tf_err_set(err, ENOENT,
			   "the profile pins '%s', which the firmware "
			   "database does not have",
			   id);
		return NULL;
	}
	if (b->type != type || strcmp(b->family, in->family)) {
		tf_err_set(err, ENOENT, "the profile pins '%s', which is not a %s %s", id,
			   in->family, tf_blob_type_name(type));
		return NULL;
	}
	return b;
}

/* Hardware id to match: the chip's, else the one last seen, else "". */
static const char *hardware(const struct tf_plan_input *in)
{
	if (in->st->hw[0])
		return in->st->hw;
	return in->hw_hint ? in->hw_hint : "";
}

/* Every firmware that fits failed here max_blob_failures times: say which
 * (the newest, @b, which failed @n times, last with @why), rather than
 * "none". */
static int failed_before(const struct tf_plan_input *in, const struct tf_blob *b, unsigned n,
			 const char *why, unsigned n_skipped, struct tf_err *err)
{
	/* A record that does not parse counts as too many failures: say
	 * that, not a count nobody saw. */
	if (n == UINT_MAX)
		return tf_err_set(err, EAGAIN,
				  "the chip is in bootloader mode and the failure record of %s "
				  "(the newest %s firmware for it) can not be read (%s): it "
				  "counts as failed here too often; not tried again until "
				  "'touchfw run --force %s' or 'touchfw forget %s'",
				  b->id, in->family, why[0] ? why : "unknown", in->devname,
				  in->devname);
	if (n_skipped > 1)
		return tf_err_set(err, EAGAIN,
				  "the chip is in bootloader mode and all %u %s firmware blobs "
				  "for it failed here before (the newest, %s, %u times; last: "
				  "%s); not tried again until 'touchfw run --force %s'",
				  n_skipped, in->family, b->id, n, why[0] ? why : "unknown",
				  in->devname);
	return tf_err_set(err, EAGAIN,
			  "the chip is in bootloader mode and its only %s firmware, %s, "
			  "failed here %u times (last: %s); not tried again until "
			  "'touchfw run --force %s'",
			  in->family, b->id, n, why[0] ? why : "unknown", in->devname);
}

/*
 * A chip in its bootloader can not say which hardware it is, but its
 * bootloader reports an id: a firmware that names the bootloader id of the
 * chips it is made for (manifest bootloader_id) fits only a chip that
 * reports that id.  Nothing to compare (no id read, none given): it fits.
 */
static bool bootloader_fits(const struct tf_chip_state *st, const struct tf_blob *b)
{
	return st->mode != TF_CHIP_BOOTLOADER || !st->bl_id[0] || !b->bootloader_id ||
	       !strcmp(st->bl_id, b->bootloader_id);
}

/* -ENODEV: the chip is of another kind than the firmware (exit unsupported). */
static int wrong_bootloader(const struct tf_chip_state *st, const struct tf_blob *b,
			    struct tf_err *err)
{
	return tf_err_set(err, ENODEV,
			  "the chip's bootloader reports id %s, but %s is made for "
			  "bootloader id %s: a chip of another kind, not flashed",
			  st->bl_id, b->id, b->bootloader_id);
}

static int choose_firmware(const struct tf_plan_input *in, struct tf_plan *p,
			   struct tf_err *err)
{
	const struct tf_chip_state *st = in->st;
	const char *hw = hardware(in);
	const struct tf_blob *best = NULL, *skipped_best = NULL, *wrong_bl = NULL, *b;
	const char *first_hw = NULL;
	char why[300], skipped_why[300] = "";
	bool ambiguous = false;
	unsigned skipped = 0, n, skipped_n = 0;
	size_t i;

	if (in->ctrl && in->ctrl->firmware_pin[0]) {
		b = pinned(in, in->ctrl->firmware_pin, TF_BLOB_FIRMWARE, err);
		if (!b)
			return -ENOENT;
		if (hw[0] && !tf_blob_fits_hardware(b, hw))
			return tf_err_set(err, ENOENT,
					  "pinned firmware '%s' is not for "
					  "hardware %s",
					  b->id, hw);
		if (st->mode == TF_CHIP_APP && st->has_version &&
		    !tf_version_cmp(&st->version, &b->v_version)) {
			tf_snprintf(p->fw_reason, sizeof(p->fw_reason),
				    "running the pinned version %s", b->version);
			return 0;
		}
		if (!bootloader_fits(st, b))
			return wrong_bootloader(st, b, err);
		p->fw = b;
		tf_snprintf(p->fw_reason, sizeof(p->fw_reason),
			    "pinned by the board profile (%s)", b->id);
		return 0;
	}
	for (i = 0; i < in->db->n_blobs; i++) {
		b = &in->db->blobs[i];
		if (b->type != TF_BLOB_FIRMWARE || strcmp(b->family, in->family) ||
		    !fits_board(in, b))
			continue;
		if (hw[0] && !tf_blob_fits_hardware(b, hw))
			continue;
		if (st->mode == TF_CHIP_APP && st->has_version &&
		    !tf_blob_fits_from_version(b, &st->version))
			continue;
		if (!bootloader_fits(st, b)) {
			if (!wrong_bl)
				wrong_bl = b;
			continue;
		}
		if (in->max_blob_failures && failures(in, b, &n, why, sizeof(why), err) < 0)
			return TF_PLAN_STATE_UNUSABLE;
		if (in->max_blob_failures && n >= in->max_blob_failures) {
			if (!skipped_best ||
			    tf_version_cmp(&b->v_version, &skipped_best->v_version) > 0) {
				skipped_best = b;
				skipped_n = n;
				memcpy(skipped_why, why, sizeof(why));
			}
			skipped++;
			continue;
		}
		if (!hw[0]) {
			/* Unknown hardware: every candidate must name the same. */
			if (b->n_hardware != 1 ||
			    (first_hw && strcmp(first_hw, b->hardware[0])))
				ambiguous = true;
			first_hw = b->hardware[0];
		}
		if (!best || tf_version_cmp(&b->v_version, &best->v_version) > 0)
			best = b;
	}
	if (ambiguous)
		return tf_err_set(err, ENOENT,
				  "the chip is in bootloader mode, so its hardware is "
				  "unknown, and the database has firmware for more than one "
				  "hardware on this board: pin one in the board profile "
				  "(firmware-pin)");
	if (st->mode == TF_CHIP_BOOTLOADER) {
		if (!best && !skipped_best && wrong_bl)
			return wrong_bootloader(st, wrong_bl, err);
		if (!best && skipped_best)
			return failed_before(in, skipped_best, skipped_n, skipped_why, skipped,
					     err);
		if (!best)
			return tf_err_set(err, ENOENT,
					  "the chip is in bootloader mode and the database has "
					  "no %s firmware for %s%s",
					  in->family, hw[0] ? "hardware " : "this board", hw);
		p->fw = best;
		tf_snprintf(p->fw_reason, sizeof(p->fw_reason),
			    "chip in bootloader mode: newest firmware for %s is %s",
			    hw[0] ? hw : "this board", best->version);
		return 0;
	}
	if (!best) {
		tf_snprintf(p->fw_reason, sizeof(p->fw_reason), "no firmware for %s%s%s",
			    hw[0] ? "hardware " : "this board", hw,
			    skipped ? " (skipped blobs that failed here before)" : "");
		return 0;
	}
	if (!st->has_version) {
		/* A chip that keeps no firmware (its driver loads it at every
		 * probe): the board's newest is what it should run. */
		p->fw = best;
		tf_snprintf(p->fw_reason, sizeof(p->fw_reason),
			    "the chip reports no firmware version; %s is the newest for this "
			    "board",
			    best->version);
		return 0;
	}
	if (tf_version_cmp(&best->v_version, &st->version) <= 0) {
		tf_snprintf(p->fw_reason, sizeof(p->fw_reason),
			    "running %s; newest in the database is %s", st->version_str,
			    best->version);
		return 0;
	}
	p->fw = best;
	tf_snprintf(p->fw_reason, sizeof(p->fw_reason), "%s is newer than the running %s",
		    best->version, st->version_str);
	return 0;
}

/*
 * Configurations with versions the chip reports: the newest that fits (or
 * the pinned one), written when it is newer than what the chip holds.
 */
static int choose_versioned_config(const struct tf_plan_input *in, struct tf_plan *p,
				   const struct tf_version *target, const char *hw,
				   struct tf_err *err)
{
	const struct tf_chip_state *st = in->st;
	const struct tf_blob *best = NULL, *b;
	struct tf_version v, best_v;
	bool pin = in->ctrl && in->ctrl->config_pin[0];
	size_t i;
	int c;

	if (pin) {
		best = pinned(in, in->ctrl->config_pin, TF_BLOB_CONFIG, err);
		if (!best)
			return -ENOENT;
		if (!best->version || tf_version_parse(in->family, best->version, &best_v) < 0)
			return tf_err_set(err, ENOENT,
					  "pinned configuration '%s' has no %s "
					  "configuration version",
					  best->id, in->family);
	} else {
		for (i = 0; i < in->db->n_blobs; i++) {
			b = &in->db->blobs[i];
			if (b->type != TF_BLOB_CONFIG || strcmp(b->family, in->family) ||
			    !fits_board(in, b) || (hw[0] && !tf_blob_fits_hardware(b, hw)) ||
			    (b->for_version && tf_version_cmp(&b->v_for_version, target)) ||
			    !b->version || tf_version_parse(in->family, b->version, &v) < 0)
				continue;
			if (!best || tf_version_cmp(&v, &best_v) > 0) {
				best = b;
				best_v = v;
			}
		}
		if (!best) {
			tf_snprintf(p->cfg_reason, sizeof(p->cfg_reason),
				    "no configuration for %s%s and firmware %s on this board",
				    hw[0] ? "hardware " : "this chip", hw, p->target_version);
			return 0;
		}
	}
	p->cfg = best;
	if (!st->has_config_version) {
		p->cfg_needed = true;
		tf_snprintf(p->cfg_reason, sizeof(p->cfg_reason),
			    "the chip holds no valid configuration; %s is version %s%s",
			    best->id, best->version, pin ? " (pinned)" : "");
		return 0;
	}
	c = tf_version_cmp(&best_v, &st->config_version);
	if (pin) {
		p->cfg_needed = c != 0 || in->force;
		tf_snprintf(p->cfg_reason, sizeof(p->cfg_reason),
			    c ? "pinned by the board profile: %s (version %s; the chip has %s)"
			      : "the chip runs the pinned %s (version %s)%s",
			    best->id, best->version, c ? st->config_version_str : "");
		return 0;
	}
	if (c > 0) {
		p->cfg_needed = true;
		tf_snprintf(p->cfg_reason, sizeof(p->cfg_reason),
			    "%s is version %s, newer than the chip's %s", best->id,
			    best->version, st->config_version_str);
	} else if (in->force) {
		p->cfg_needed = true;
		tf_snprintf(p->cfg_reason, sizeof(p->cfg_reason),
			    "forced: %s is version %s, the chip has %s", best->id,
			    best->version, st->config_version_str);
	} else if (c == 0) {
		tf_snprintf(p->cfg_reason, sizeof(p->cfg_reason),
			    "the chip runs configuration version %s, the newest (%s)",
			    st->config_version_str, best->id);
	} else {
		tf_snprintf(p->cfg_reason, sizeof(p->cfg_reason),
			    "the chip's configuration version %s is newer than the database's "
			    "%s (%s): never downgraded without a config-pin or --force",
			    st->config_version_str, best->version, best->id);
	}
	return 0;
}

/* The family's configurations carry versions the chip reports. */
static bool configs_versioned(const struct tf_plan_input *in)
{
	const struct tf_family *f = in->family ? tf_family_by_name(in->family) : NULL;

	return in->config_versioned || (f && f->caps.config_versioned);
}
static int choose_config(const struct tf_plan_input *in, struct tf_plan *p, struct tf_err *err)
{
	const char *hw = p->fw && p->fw->n_hardware == 1 && !hardware(in)[0]
				 ? p->fw->hardware[0]
				 : hardware(in);
	const struct tf_blob *best = NULL, *b;
	struct tf_version target;
	size_t i;

	if (!p->target_version[0] ||
	    tf_version_parse(in->family, p->target_version, &target) < 0) {
		tf_snprintf(p->cfg_reason, sizeof(p->cfg_reason), "firmware version unknown");
		return 0;
	}
	if (configs_versioned(in))
		return choose_versioned_config(in, p, &target, hw, err);
	if (in->ctrl && in->ctrl->config_pin[0]) {
		b = pinned(in, in->ctrl->config_pin, TF_BLOB_CONFIG, err);
		if (!b)
			return -ENOENT;
		best = b;
		tf_snprintf(p->cfg_reason, sizeof(p->cfg_reason),
			    "pinned by the board profile (%s)", b->id);
	} else {
		for (i = 0; i < in->db->n_blobs; i++) {
			b = &in->db->blobs[i];
			if (b->type != TF_BLOB_CONFIG || strcmp(b->family, in->family) ||
			    !fits_board(in, b) || (hw[0] && !tf_blob_fits_hardware(b, hw)) ||
			    tf_version_cmp(&b->v_for_version, &target))
				continue;
			if (!best)
				best = b;
		}
		if (!best) {
			tf_snprintf(p->cfg_reason, sizeof(p->cfg_reason),
				    "no configuration for firmware %s on this board",
				    p->target_version);
			return 0;
		}
		tf_snprintf(p->cfg_reason, sizeof(p->cfg_reason),
			    "%s is written for firmware %s", best->id, p->target_version);
	}
	p->cfg = best;
	/* Same firmware and a known CRC on both sides: compare now. */
	if (!p->fw && in->st->has_config_crc && best->has_config_crc) {
		p->cfg_needed = best->config_crc != in->st->config_crc;
		if (!p->cfg_needed)
			tf_snprintf(p->cfg_reason, sizeof(p->cfg_reason),
				    "config CRC %s already matches %s",
				    TF_CRC_TEXT(in->st->config_crc, in->crc_bits), best->id);
	} else {
		p->cfg_needed = true;
	}
	return 0;
}

int tf_plan_make(const struct tf_plan_input *in, struct tf_plan *p, struct tf_err *err)
{
	int r;

	memset(p, 0, sizeof(*p));
	r = choose_firmware(in, p, err);
	if (r < 0)
		return r;
	if (p->fw)
		tf_snprintf(p->target_version, sizeof(p->target_version), "%s", p->fw->version);
	else if (in->st->has_version)
		tf_snprintf(p->target_version, sizeof(p->target_version), "%s",
			    in->st->version_str);
	return choose_config(in, p, err);
}
