// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maXTouch version scheme: MAJOR.MINOR.BUILD as atmel_mxt_ts prints
 * fw_version ("%u.%u.%02X": MAJOR and MINOR are the two nibbles of the
 * info block's version byte, BUILD its build byte).  Strict: MAJOR and
 * MINOR decimal 0..15 without leading zeros (the driver prints %u, so "01"
 * can only be a typo), BUILD exactly two hex digits of either case.
 */
#include "mxt.h"

#include <errno.h>
#include <string.h>

#include "version.h"

#define MXT_NIBBLE_MAX 15
#define MXT_BUILD_DIGITS 2

static int parse_mxt(const char *s, struct tf_version *v)
{
	int hi, lo;

	if (tf_version_parse_dec(&s, true, MXT_NIBBLE_MAX, &v->part[0]) < 0 || *s++ != '.')
		return -EINVAL;
	if (tf_version_parse_dec(&s, true, MXT_NIBBLE_MAX, &v->part[1]) < 0 || *s++ != '.')
		return -EINVAL;
	hi = tf_hexval(s[0]);
	if (hi < 0)
		return -EINVAL;
	lo = tf_hexval(s[1]);
	if (lo < 0 || s[MXT_BUILD_DIGITS] != '\0')
		return -EINVAL;
	v->part[2] = (uint32_t)(hi << 4 | lo);
	v->n_parts = 3;
	return 0;
}

static int format_mxt(const struct tf_version *v, char *buf, size_t size)
{
	if (v->n_parts != 3 || v->part[0] > MXT_NIBBLE_MAX || v->part[1] > MXT_NIBBLE_MAX ||
	    v->part[2] > 0xff)
		return -EINVAL;
	return tf_snprintf(buf, size, "%u.%u.%02X", v->part[0], v->part[1], v->part[2]);
}

const struct tf_version_scheme mxt_version_scheme = {
	.name = "mxt",
	.syntax = "MAJOR.MINOR.BUILD, MAJOR and MINOR decimal 0-15, "
		  "BUILD two hex digits (e.g. 2.1.AB)",
	.parse = parse_mxt,
	.format = format_mxt,
};

void mxt_version_from_info(uint8_t version_byte, uint8_t build, struct tf_version *v)
{
	memset(v, 0, sizeof(*v));
	v->scheme = &mxt_version_scheme;
	v->n_parts = 3;
	v->part[0] = version_byte >> 4;
	v->part[1] = version_byte & 0x0f;
	v->part[2] = build;
}
