// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Goodix manifest rules.  In a section (struct tf_family.check_blob): only
 * configurations (GT9xx firmware is flashed by vendor tools only, with the
 * driver unbound and RST/INT under their control: out of touchfw's scope);
 * hardware ids are chip ids as read at 0x8140 ("911", "917S"); version is
 * the configuration version (decimal 1-255), for_version a firmware
 * version (0x1060); no CRC keys (a Goodix chip reports none).  On the
 * bytes (check_blob_data): goodix_blob_check, so a blob of the wrong
 * length, with a bad checksum, for another chip or with a version other
 * than the manifest's is refused before it is ever used.
 */
#include "goodix.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "family/family.h"
#include "fwdb.h"

int goodix_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size)
{
	uint8_t v;
	uint16_t fw;
	size_t i;

	if (b->type != TF_BLOB_CONFIG) {
		*key = "type";
		tf_snprintf(msg, size,
			    "touchfw installs only configurations on Goodix chips; their "
			    "firmware is flashed by vendor tools");
		return -EINVAL;
	}
	for (i = 0; i < b->n_hardware; i++)
		if (!goodix_id_valid(b->hardware[i])) {
			*key = "hardware";
			tf_snprintf(msg, size,
				    "'%s' is not a Goodix chip id (1 to 4 letters or digits "
				    "as the chip reports them at 0x8140, e.g. 911 or 917S)",
				    b->hardware[i]);
			return -EINVAL;
		}
	if (!b->version || goodix_cfg_version_parse(b->version, &v) < 0 || v == 0) {
		*key = "version";
		tf_snprintf(msg, size,
			    "'%s' is not a Goodix configuration version (byte 0 of the blob, "
			    "decimal 1-255)",
			    b->version ? b->version : "");
		return -EINVAL;
	}
	if (b->for_version && goodix_fw_version_parse(b->for_version, &fw) < 0) {
		*key = "for_version";
		tf_snprintf(msg, size,
			    "'%s' is not a Goodix firmware version (0x and four lowercase "
			    "hex digits, e.g. 0x1060)",
			    b->for_version);
		return -EINVAL;
	}
	/* (info_crc, maXTouch's key, the manifest parser refuses) */
	if (b->has_config_crc) {
		*key = "config_crc";
		tf_snprintf(msg, size, "a Goodix chip reports no CRC; leave config_crc out");
		return -EINVAL;
	}
	return 0;
}

int goodix_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			   size_t size)
{
	struct tf_err err = { 0 };

	if (goodix_blob_check((const char *const *)b->hardware, b->n_hardware, b->version, data,
			      len, NULL, NULL, &err) < 0) {
		tf_snprintf(msg, size, "%s", err.msg);
		return -EBADMSG;
	}
	return 0;
}

/*
 * What a configuration blob says about itself (`touchfw db add`): its
 * version (byte 0), and by its length and checksum which layout it is
 * whole for.  It does not say which chip ids it is for (many share a
 * layout) nor the firmware: those come from the command line.
 */
int goodix_blob_facts(const uint8_t *data, size_t len, const char *name,
		      struct tf_blob_facts *f, struct tf_err *err)
{
	static const char *const layouts[] = { "911", "912", "9xx", "1151" };
	const struct goodix_chip_data *chip = NULL;
	struct goodix_cfg_info info;
	struct tf_err why = { 0 };
	size_t i;
	int r = -EBADMSG;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < TF_ARRAY_SIZE(layouts) && r < 0; i++) {
		chip = goodix_chip_data_for(layouts[i]);
		tf_err_clear(&why);
		if (chip && chip->config_len == len)
			r = goodix_cfg_check(chip, layouts[i], data, len, name, &info, &why);
	}
	if (r < 0)
		return tf_err_set(
			err, EBADMSG, "%s",
			why.msg[0] ? why.msg
				   : "not a Goodix configuration (186, 228 or 240 bytes)");
	if (info.version == 0)
		return tf_err_set(
			err, EBADMSG,
			"%s: configuration version 0 (byte 0) means 'take it whatever "
			"you hold' to the chip, which renumbers it: give it a version",
			name);
	f->is_config = true;
	goodix_cfg_version_format(info.version, f->version, sizeof(f->version));
	tf_snprintf(f->ext, sizeof(f->ext), "bin");
	tf_snprintf(
		f->what, sizeof(f->what),
		"%s-layout configuration (%zu bytes, %s checksum 0x%0*X), version %u, %ux%u, "
		"%u touches; the blob names neither its chip ids nor its firmware",
		chip->klass, len, info.checksum_kind == GOODIX_CHECKSUM_16 ? "16-bit" : "8-bit",
		info.checksum_kind == GOODIX_CHECKSUM_16 ? 4 : 2, info.checksum, info.version,
		info.x_res, info.y_res, info.max_touch);
	return 0;
}
