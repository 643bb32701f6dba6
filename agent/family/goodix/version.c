// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Goodix version scheme (goodix.h explains the choice): a configuration
 * version is one part, byte 0 of the configuration, written in decimal as
 * the kernel prints it ("72"); a firmware version is two parts, the high
 * and low byte of the LE16 at 0x8142, written "0x" and four lowercase hex
 * digits as the kernel logs it ("0x1060").  The two never compare with
 * each other: a configuration's for_version is a firmware version, its
 * version a configuration version.
 */
#include "goodix.h"

#include <errno.h>
#include <string.h>

#include "version.h"

static int parse_goodix(const char *s, struct tf_version *v)
{
	uint16_t fw;
	uint8_t cfg;

	if (goodix_cfg_version_parse(s, &cfg) == 0) {
		v->n_parts = 1;
		v->part[0] = cfg;
		return 0;
	}
	if (goodix_fw_version_parse(s, &fw) == 0) {
		v->n_parts = 2;
		v->part[0] = fw >> 8;
		v->part[1] = fw & 0xff;
		return 0;
	}
	return -EINVAL;
}

static int format_goodix(const struct tf_version *v, char *buf, size_t size)
{
	if (v->n_parts == 1 && v->part[0] <= 0xff)
		return tf_snprintf(buf, size, "%u", v->part[0]);
	if (v->n_parts == 2 && v->part[0] <= 0xff && v->part[1] <= 0xff)
		return tf_snprintf(buf, size, "0x%02x%02x", v->part[0], v->part[1]);
	return -EINVAL;
}

const struct tf_version_scheme goodix_version_scheme = {
	.name = "goodix",
	.syntax = "a configuration version in decimal 1-255 (byte 0 of the blob, e.g. 72), "
		  "or a firmware version as 0x and four lowercase hex digits (e.g. 0x1060)",
	.parse = parse_goodix,
	.format = format_goodix,
};

void goodix_version_cfg(uint8_t version, struct tf_version *v)
{
	memset(v, 0, sizeof(*v));
	v->scheme = &goodix_version_scheme;
	v->n_parts = 1;
	v->part[0] = version;
}

void goodix_version_fw(uint16_t fw, struct tf_version *v)
{
	memset(v, 0, sizeof(*v));
	v->scheme = &goodix_version_scheme;
	v->n_parts = 2;
	v->part[0] = fw >> 8;
	v->part[1] = fw & 0xff;
}
