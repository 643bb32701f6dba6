// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Silead manifest rules.  In a section (struct tf_family.check_blob): only
 * firmware (the file silead_ts loads at every probe; the chip has no
 * configuration of its own), hardware ids are the chips' names as the
 * driver's i2c ids give them (gsl1680, ...); no CRCs, no for_version /
 * min_from / max_from (the chip keeps nothing between probes, so there is
 * nothing to update from).  Blobs are per tablet: name the board(s).  On
 * the bytes (check_blob_data): silead_fw_check -- whole (register, value)
 * pairs, registers the chip takes.
 */
#include "silead.h"

#include <errno.h>
#include <string.h>

#include "fwdb.h"

int silead_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size)
{
	size_t i;

	if (b->type != TF_BLOB_FIRMWARE) {
		*key = "type";
		tf_snprintf(msg, size,
			    "a Silead chip has no configuration; its firmware file (loaded by "
			    "silead_ts at every probe) is type = firmware");
		return -EINVAL;
	}
	for (i = 0; i < b->n_hardware; i++)
		if (!silead_hw_valid(b->hardware[i])) {
			*key = "hardware";
			tf_snprintf(msg, size,
				    "'%s' is not a Silead chip (gsl1680, gsl1688, gsl3670, "
				    "gsl3675 or gsl3692, as silead_ts names them)",
				    b->hardware[i]);
			return -EINVAL;
		}
	if (b->min_from || b->max_from || b->for_version) {
		*key = b->min_from ? "min_from" : b->max_from ? "max_from" : "for_version";
		tf_snprintf(msg, size,
			    "a Silead chip keeps no firmware between probes: there is nothing "
			    "to update from; leave %s out",
			    *key);
		return -EINVAL;
	}
	if (b->has_info_crc || b->has_config_crc) {
		*key = b->has_info_crc ? "info_crc" : "config_crc";
		tf_snprintf(msg, size, "a Silead chip reports no CRC; leave %s out", *key);
		return -EINVAL;
	}
	if (!b->n_boards) {
		*key = "boards";
		tf_snprintf(
			msg, size,
			"Silead firmware is made for one tablet's panel: name its board(s)");
		return -EINVAL;
	}
	return 0;
}

int silead_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			   size_t size)
{
	struct tf_err err = { 0 };

	if (silead_fw_check(data, len, b->file, NULL, &err) < 0) {
		tf_snprintf(msg, size, "%s", err.msg);
		return -EBADMSG;
	}
	return 0;
}
