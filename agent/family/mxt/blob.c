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
#include <string.h>

#include "fwdb.h"

#define MXT_CRC24_MAX 0xffffffu

bool mxt_hw_id_ok(const char *s)
{
	unsigned part, v, digits;

	for (part = 0; part < 2; part++) {
		v = 0;
		for (digits = 0; s[digits] >= '0' && s[digits] <= '9'; digits++)
			v = v * 10 + (unsigned)(s[digits] - '0');
		if (digits == 0 || digits > 3 || v > 255 ||
		    (digits > 1 && s[0] == '0'))
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
				    "no leading zero)", v);
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
