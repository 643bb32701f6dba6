// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Berlin version scheme: a firmware version is the patch vid, four bytes
 * the chip reports in its version block and the firmware file carries in
 * its header (fw vid), written as Goodix's updater logs it: eight
 * uppercase hex digits, "01000205" (lowercase is read too).  Goodix's tool
 * only asks "equal?"; touchfw's policy needs an order, and takes the
 * bytes as written, most significant first (component by component).
 */
#include "berlin.h"

#include <errno.h>
#include <string.h>

#include "version.h"

static int parse_berlin(const char *s, struct tf_version *v)
{
	if (strlen(s) != 8)
		return -EINVAL;
	v->n_parts = 4;
	for (int i = 0; i < 4; i++) {
		int hi = tf_hexval(s[2 * i]), lo = tf_hexval(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		v->part[i] = (uint32_t)(hi << 4 | lo);
	}
	return 0;
}

static int format_berlin(const struct tf_version *v, char *buf, size_t size)
{
	if (v->n_parts != 4)
		return -EINVAL;
	for (int i = 0; i < 4; i++)
		if (v->part[i] > 0xff)
			return -EINVAL;
	return tf_snprintf(buf, size, "%02X%02X%02X%02X", v->part[0], v->part[1], v->part[2],
			   v->part[3]);
}

const struct tf_version_scheme berlin_version_scheme = {
	.name = "berlin",
	.syntax = "the patch vid as eight hex digits, most significant byte first "
		  "(e.g. 01000205)",
	.parse = parse_berlin,
	.format = format_berlin,
};

void berlin_version_from_vid(const uint8_t vid[4], struct tf_version *v)
{
	memset(v, 0, sizeof(*v));
	v->scheme = &berlin_version_scheme;
	v->n_parts = 4;
	for (int i = 0; i < 4; i++)
		v->part[i] = vid[i];
}
