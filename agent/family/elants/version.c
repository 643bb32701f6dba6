// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The elants version scheme: firmware versions as the driver prints
 * fw_version ("%04x" of the 16-bit value the chip reports), ordered as
 * numbers.
 */
#include "elants.h"

#include <errno.h>
#include <string.h>

#include "version.h"

int elants_hex16_parse(const char *s, uint16_t *v)
{
	unsigned val = 0;
	int i;

	if (!s || strlen(s) != 4)
		return -EINVAL;
	for (i = 0; i < 4; i++) {
		char ch = s[i];

		if (ch >= '0' && ch <= '9')
			val = val << 4 | (unsigned)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			val = val << 4 | (unsigned)(ch - 'a' + 10);
		else
			return -EINVAL;
	}
	*v = (uint16_t)val;
	return 0;
}

static int parse_elants(const char *s, struct tf_version *v)
{
	uint16_t fw;

	if (elants_hex16_parse(s, &fw) < 0)
		return -EINVAL;
	v->n_parts = 1;
	v->part[0] = fw;
	return 0;
}

static int format_elants(const struct tf_version *v, char *buf, size_t size)
{
	if (v->n_parts != 1 || v->part[0] > 0xffff)
		return -EINVAL;
	return tf_snprintf(buf, size, "%04x", (unsigned)v->part[0]);
}

const struct tf_version_scheme elants_version_scheme = {
	.name = "elants",
	.syntax = "four lowercase hex digits, as the driver's fw_version prints them "
		  "(e.g. 5512)",
	.parse = parse_elants,
	.format = format_elants,
};

void elants_version_fw(uint16_t fw, struct tf_version *v)
{
	memset(v, 0, sizeof(*v));
	v->scheme = &elants_version_scheme;
	v->n_parts = 1;
	v->part[0] = fw;
}
