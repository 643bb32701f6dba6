// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maXTouch manifest rules (struct tf_family.check_blob): hardware ids are
 * "family_id.variant_id", the decimal bytes atmel_mxt_ts's hw_version
 * prints ("%u.%u"); the info block and config CRCs are CRC24s, so wider
 * values are typos.  A firmware's bootloader_id is the id the chip's
 * bootloader reports (decimal 0 to 31: the low five bits of the status
 * byte, or of the second byte of the extended-id read).
 */
#include "mxt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family/family.h"
#include "fwdb.h"
#include "version.h"

#define MXT_CRC24_MAX 0xffffffu

bool mxt_hw_id_ok(const char *s)
{
	unsigned part, v, digits;

	for (part = 0; part < 2; part++) {
		v = 0;
		for (digits = 0; s[digits] >= '0' && s[digits] <= '9'; digits++)
			v = v * 10 + (unsigned)(s[digits] - '0');
		if (digits == 0 || digits > 3 || v > 255 || (digits > 1 && s[0] == '0'))
			return false;
		s += digits;
		if (part == 0 && *s++ != '.')
			return false;
	}
	return *s == '\0';
}

int mxt_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size)
{
	size_t i;

	for (i = 0; i < b->n_hardware; i++)
		if (!mxt_hw_id_ok(b->hardware[i])) {
			*key = "hardware";
			tf_snprintf(msg, size,
				    "'%s' is not an mxt hardware id "
				    "(family_id.variant_id in decimal, as "
				    "hw_version prints it, e.g. 129.1)",
				    b->hardware[i]);
			return -EINVAL;
		}
	if (b->bootloader_id) {
		const char *v = b->bootloader_id;
		size_t n = strlen(v), i;
		unsigned id = 0;

		for (i = 0; i < n && v[i] >= '0' && v[i] <= '9'; i++)
			id = id * 10 + (unsigned)(v[i] - '0');
		if (n == 0 || n > 2 || i != n || (n > 1 && v[0] == '0') || id > 31) {
			*key = "bootloader_id";
			tf_snprintf(msg, size,
				    "'%s' is not an mxt bootloader id (decimal 0 to 31, "
				    "no leading zero)",
				    v);
			return -EINVAL;
		}
	}
	if (b->has_info_crc && b->info_crc > MXT_CRC24_MAX) {
		*key = "info_crc";
		tf_snprintf(msg, size, "0x%X is wider than an mxt CRC24", b->info_crc);
		return -EINVAL;
	}
	if (b->has_config_crc && b->config_crc > MXT_CRC24_MAX) {
		*key = "config_crc";
		tf_snprintf(msg, size, "0x%X is wider than an mxt CRC24", b->config_crc);
		return -EINVAL;
	}
	return 0;
}

/*
 * What a blob says about itself (`touchfw db add`).  An OBP_RAW file names
 * the chip (family and variant: the hardware id), the firmware it was made
 * on (version and build bytes) and both CRCs; a firmware image (.fw frames
 * or .enc hex) carries no header at all, so its hardware and version come
 * from the command line.
 */
int mxt_blob_facts(const uint8_t *data, size_t len, const char *name, struct tf_blob_facts *f,
		   struct tf_err *err)
{
	struct mxt_cfg cfg;
	struct mxt_fw fw = { 0 };
	struct tf_err why = { 0 };

	memset(f, 0, sizeof(*f));
	if (len >= 10 && !memcmp(data, "OBP_RAW V1", 10)) {
		if (mxt_cfg_parse((const char *)data, len, &cfg, &why) < 0)
			return tf_err_set(err, EBADMSG, "%s: %s", name, why.msg);
		f->is_config = true;
		f->n_hardware = 1;
		mxt_hw_string(cfg.info[0], cfg.info[1], f->hardware[0], sizeof(f->hardware[0]));
		mxt_version_string(cfg.info[2], cfg.info[3], f->for_version,
				   sizeof(f->for_version));
		f->has_info_crc = true;
		f->info_crc = cfg.info_crc;
		/* Zero: "not given" to the kernel; then only the chip knows. */
		f->has_config_crc = cfg.config_crc != 0;
		f->config_crc = cfg.config_crc;
		tf_snprintf(f->ext, sizeof(f->ext), "cfg");
		tf_snprintf(f->what, sizeof(f->what),
			    "OBP_RAW configuration for hardware %s firmware %s, %zu object "
			    "lines, info CRC 0x%06X, config CRC 0x%06X",
			    f->hardware[0], f->for_version, cfg.n, cfg.info_crc,
			    cfg.config_crc);
		mxt_cfg_free(&cfg);
		return 0;
	}
	if (mxt_fw_parse(data, len, MXT_FW_AUTO, &fw, &why) < 0)
		return tf_err_set(
			err, EBADMSG,
			"%s: neither an OBP_RAW configuration nor a firmware image: %s", name,
			why.msg);
	f->is_config = false;
	tf_snprintf(f->ext, sizeof(f->ext), "%s", fw.was_enc ? "enc" : "fw");
	tf_snprintf(f->what, sizeof(f->what),
		    "firmware image (%s), %zu frames; the image names neither its hardware "
		    "nor its version",
		    fw.was_enc ? ".enc hex" : ".fw binary", fw.frames);
	mxt_fw_free(&fw);
	return 0;
}

/*
 * A blob's bytes against its manifest entry.  An OBP_RAW configuration
 * says in its header what it is for -- the info block's family and variant
 * (the hardware id), version and build (the firmware it is written for),
 * the info-block CRC -- and the config CRC the chip reports once it holds
 * it: each must be what the manifest says, or a run would pick it for the
 * wrong chip, or write it on every run and never see the CRC it expects.
 * Firmware images (.fw, .enc) have no header a host can read: their frames
 * are opaque (only the chip's bootloader reads them), so their hardware and
 * version are the manifest's word; they are parsed when a run loads them.
 */
int mxt_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			size_t size)
{
	struct tf_err err = { 0 };
	struct tf_version v;
	struct mxt_cfg cfg;
	char hw[16], ver[16];

	if (b->type != TF_BLOB_CONFIG)
		return 0;
	if (mxt_cfg_parse((const char *)data, len, &cfg, &err) < 0) {
		tf_snprintf(msg, size, "%s", err.msg);
		return -EBADMSG;
	}
	mxt_hw_string(cfg.info[0], cfg.info[1], hw, sizeof(hw));
	mxt_version_string(cfg.info[2], cfg.info[3], ver, sizeof(ver));
	mxt_version_from_info(cfg.info[2], cfg.info[3], &v);
	if (b->n_hardware != 1 || strcmp(b->hardware[0], hw))
		tf_snprintf(msg, size,
			    "hardware: the manifest says %s, the blob's header %s "
			    "(an OBP_RAW configuration is for one chip)",
			    b->n_hardware ? b->hardware[0] : "nothing", hw);
	else if (b->has_info_crc && b->info_crc != cfg.info_crc)
		tf_snprintf(msg, size,
			    "info_crc: the manifest says 0x%06X, the blob's header 0x%06X",
			    b->info_crc, cfg.info_crc);
	else if (b->has_config_crc && cfg.config_crc && b->config_crc != cfg.config_crc)
		tf_snprintf(msg, size,
			    "config_crc: the manifest says 0x%06X, the blob's header "
			    "0x%06X",
			    b->config_crc, cfg.config_crc);
	else if (b->for_version && tf_version_cmp(&b->v_for_version, &v))
		tf_snprintf(msg, size,
			    "for_version: the manifest says %s, the blob's header %s",
			    b->for_version, ver);
	else
		msg[0] = '\0';
	mxt_cfg_free(&cfg);
	return msg[0] ? -EBADMSG : 0;
}

/*
 * `db add` of a maXTouch Studio or mxt-app .xcfg: converted to the OBP_RAW
 * V1 file atmel_mxt_ts loads (mxt-xcfg.c), whose facts are then read as
 * for any OBP_RAW file.
 */
int mxt_import_blob(const uint8_t *data, size_t len, const char *name, const char *part,
		    uint8_t **out, size_t *out_len, struct tf_blob_facts *f, struct tf_err *err)
{
	struct mxt_xcfg_info info;
	char *raw = NULL;
	size_t raw_len = 0;
	int r;

	*out = NULL;
	*out_len = 0;
	if (!mxt_xcfg_detect(data, len))
		return tf_err_set(err, EMEDIUMTYPE, "%s: not an .xcfg", name);
	if (part && part[0])
		return tf_err_set(err, EBADMSG,
				  "%s: an .xcfg holds one configuration; --part is for files "
				  "that hold several",
				  name);
	r = mxt_xcfg_to_raw((const char *)data, len, name, &raw, &raw_len, &info, err);
	if (r < 0)
		return r;
	r = mxt_blob_facts((const uint8_t *)raw, raw_len, name, f, err);
	if (r < 0) {
		free(raw);
		return r;
	}
	tf_snprintf(f->source_format, sizeof(f->source_format),
		    ".xcfg (maXTouch Studio, mxt-app)");
	tf_blob_facts_note(f,
			   "converted from .xcfg into OBP_RAW V1, the file atmel_mxt_ts "
			   "loads: %zu object sections, %zu values",
			   info.n_objects, info.n_values);
	if (!info.has_matrix)
		tf_blob_facts_note(f, "the file gives no matrix size or object count "
				      "(maXTouch Studio's MATRIX_X, MATRIX_Y, NO_OBJECTS): "
				      "their OBP_RAW bytes are 00, which neither atmel_mxt_ts "
				      "nor touchfw checks");
	if (!info.config_crc)
		tf_blob_facts_note(f, "its CHECKSUM is 0: the config CRC is known once a "
				      "chip holds the configuration");
	*out = (uint8_t *)raw;
	*out_len = raw_len;
	return 0;
}
