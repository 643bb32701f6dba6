// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The blobs an update writes (see flow.h), read and checked once: the
 * plan's from the firmware database or the files given to `flash`, parsed
 * by the family before the chip is touched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "flow-load.h"
#include "flow-outcome.h"

static int read_blob_or_file(struct flow_run *r, const struct tf_blob *b, const char *file,
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
			return flow_finish(r, TF_EXIT_BAD_INPUT, "%s", err.msg);
		*data = (uint8_t *)buf;
		*name = file;
		return TF_EXIT_OK;
	}
	if (tf_fwdb_read_blob(r->db, b, data, len, &err) < 0)
		return flow_finish(r, TF_EXIT_DB_INVALID, "%s", err.msg);
	*name = b->file;
	return TF_EXIT_OK;
}

/* Read and parse the firmware to write (a file or the plan's blob), once. */
int flow_load_fw(struct flow_run *r)
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
		return flow_finish(r, TF_EXIT_BAD_INPUT, "%s", err.msg);
	tf_snprintf(r->res->fw_id, sizeof(r->res->fw_id), "%s",
		    r->plan.fw ? r->plan.fw->id : name);
	return TF_EXIT_OK;
}

/* Read and parse the configuration to write, once; its CRC in cfg_crc. */
static int load_cfg(struct flow_run *r)
{
	struct tf_err err = { 0 };
	const char *name;
	uint8_t *data;
	size_t len;
	int rc;

	if (r->cfg_obj || !((r->plan.cfg && r->plan.cfg_needed) || r->o->config_file))
		return TF_EXIT_OK;
	if (!r->ops->load_config)
		return flow_finish(r, TF_EXIT_UNSUPPORTED,
				   "%s: the %s family takes no configuration files",
				   r->o->config_file ? r->o->config_file : r->plan.cfg->id,
				   r->fam->ids->name);
	rc = read_blob_or_file(r, r->plan.cfg, r->o->config_file, &data, &len, &name);
	if (rc)
		return rc;
	rc = r->ops->load_config(&r->c, data, len, name, &r->cfg_obj, &r->cfg_crc, &err);
	if (rc < 0) {
		free(data);
		return flow_finish(r, TF_EXIT_BAD_INPUT, "%s", err.msg);
	}
	r->cfg_data = data;
	r->cfg_len = len;
	tf_snprintf(r->res->cfg_id, sizeof(r->res->cfg_id), "%s",
		    r->plan.cfg ? r->plan.cfg->id : name);
	return TF_EXIT_OK;
}

/* flash: the files given are read and parsed before the device is touched. */
int flow_step_files(struct flow_run *r)
{
	int rc;

	if (!r->o->firmware_file && !r->o->config_file)
		return TF_EXIT_OK;
	if ((rc = flow_load_fw(r)) || (rc = load_cfg(r)))
		return rc;
	if (r->o->firmware_file)
		rlog(r, TF_LOG_INFO, "firmware file %s: parsed", r->o->firmware_file);
	if (r->o->config_file)
		rlog(r, TF_LOG_INFO, "config file %s: parsed, config CRC %s", r->o->config_file,
		     TF_CRC_TEXT(r->cfg_crc, r->fam->crc_bits));
	return TF_EXIT_OK;
}

int flow_step_load(struct flow_run *r)
{
	struct tf_err err = { 0 };
	const char *name;
	int rc;

	if ((rc = flow_load_fw(r)))
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
			return flow_finish(r, TF_EXIT_BAD_INPUT, "%s: %s", name, err.msg);
		}
	}
	return TF_EXIT_OK;
}
