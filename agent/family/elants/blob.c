// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Manifest and byte rules for elants blobs: firmware only (the driver
 * loads no configuration), for a hardware id as hw_version prints it, in
 * whole 132-byte pages as elants_i2c_fw_update requires.  Elan's image
 * layout is not public, so nothing else in the bytes is judged; the
 * version is the manifest's, and the chip's fw_version proves it after.
 */
#include "elants.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fwdb.h"

int elants_fw_name(uint16_t hw, char *buf, size_t size)
{
	if (hw == 0xffff)
		return -EINVAL;
	return tf_snprintf(buf, size, "elants_i2c_%04x.bin", hw);
}

int elants_check_image(size_t len, char *msg, size_t size)
{
	if (len < ELANTS_PAGE || len % ELANTS_PAGE)
		return snprintf(msg, size,
				"%zu bytes is not a whole number of %d-byte pages "
				"(elants_i2c refuses it)",
				len, ELANTS_PAGE),
		       -EBADMSG;
	if (len > ELANTS_FW_MAX)
		return snprintf(msg, size, "%zu bytes is more than %d", len, ELANTS_FW_MAX),
		       -EBADMSG;
	return 0;
}

int elants_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size)
{
	uint16_t hw;
	size_t i;

	if (b->type != TF_BLOB_FIRMWARE) {
		*key = "type";
		snprintf(msg, size, "elants_i2c loads no configuration file: firmware only");
		return -EINVAL;
	}
	for (i = 0; i < b->n_hardware; i++) {
		if (elants_hex16_parse(b->hardware[i], &hw) < 0 || hw == 0xffff) {
			*key = "hardware";
			snprintf(msg, size,
				 "\"%s\" is not a hardware id as hw_version prints "
				 "it (four lowercase hex digits, not ffff)",
				 b->hardware[i]);
			return -EINVAL;
		}
	}
	return 0;
}

int elants_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			   size_t size)
{
	(void)b;
	(void)data;
	return elants_check_image(len, msg, size);
}
