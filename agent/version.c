// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Version parsing and ordering per controller family.  Each scheme reads a
 * string into numeric components so that comparisons are numeric: a string
 * compare would put "1.0.0A" after "1.0.10" and "2.10.00" before "2.9.FF".
 * The syntax is deliberately strict (no blanks, signs or stray characters)
 * because a manifest typo must fail loudly instead of changing the order.
 */
#include "version.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "util.h"

/* atmel_mxt_ts: MAJOR and MINOR are the nibbles of the info block version
 * byte, BUILD is the build byte printed as %02X. */
#define MXT_NIBBLE_MAX	 15
#define MXT_BUILD_DIGITS 2

enum tf_version_scheme tf_version_scheme_for(const char *family)
{
	if (family && !strcmp(family, "mxt"))
		return TF_VERSION_SCHEME_MXT;
	return TF_VERSION_SCHEME_DOTTED;
}

const char *tf_version_scheme_name(enum tf_version_scheme scheme)
{
	switch (scheme) {
	case TF_VERSION_SCHEME_MXT:
		return "mxt";
	case TF_VERSION_SCHEME_DOTTED:
		return "dotted";
	}
	return "unknown";
}

const char *tf_version_scheme_syntax(enum tf_version_scheme scheme)
{
	switch (scheme) {
	case TF_VERSION_SCHEME_MXT:
		return "MAJOR.MINOR.BUILD, MAJOR and MINOR decimal 0-15, "
		       "BUILD two hex digits (e.g. 2.1.AB)";
	case TF_VERSION_SCHEME_DOTTED:
		return "1 to 4 decimal numbers separated by dots (e.g. 1.2.3)";
	}
	return "unknown scheme";
}

static bool is_dec(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Read a decimal component at *@p up to '.' or the end.  Leading zeros are
 * refused when @canonical (mxt prints %u, so "01" can only be a typo).
 */
static int parse_dec(const char **p, bool canonical, uint32_t max,
		     uint32_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	size_t n = 0;

	while (is_dec(s[n])) {
		v = v * 10 + (uint64_t)(s[n] - '0');
		if (v > max)
			return -EINVAL;
		n++;
	}
	if (n == 0 || (canonical && n > 1 && s[0] == '0'))
		return -EINVAL;
	*out = (uint32_t)v;
	*p = s + n;
	return 0;
}

static int parse_mxt(const char *s, struct tf_version *v)
{
	int hi, lo;

	if (parse_dec(&s, true, MXT_NIBBLE_MAX, &v->part[0]) < 0 || *s++ != '.')
		return -EINVAL;
	if (parse_dec(&s, true, MXT_NIBBLE_MAX, &v->part[1]) < 0 || *s++ != '.')
		return -EINVAL;
	hi = tf_hexval(s[0]);
	if (hi < 0)
		return -EINVAL;
	lo = tf_hexval(s[1]);
	if (lo < 0 || s[MXT_BUILD_DIGITS] != '\0')
		return -EINVAL;
	v->part[2] = (uint32_t)(hi << 4 | lo);
	v->n_parts = 3;
	v->scheme = TF_VERSION_SCHEME_MXT;
	return 0;
}

static int parse_dotted(const char *s, struct tf_version *v)
{
	unsigned n = 0;

	for (;;) {
		if (n == TF_VERSION_MAX_PARTS)
			return -EINVAL;
		/* Vendors write "1.02"; it means 2, so leading zeros pass. */
		if (parse_dec(&s, false, UINT32_MAX, &v->part[n]) < 0)
			return -EINVAL;
		n++;
		if (*s == '\0')
			break;
		if (*s++ != '.')
			return -EINVAL;
	}
	v->n_parts = n;
	v->scheme = TF_VERSION_SCHEME_DOTTED;
	return 0;
}

int tf_version_parse(const char *family, const char *s, struct tf_version *v)
{
	struct tf_version tmp;
	int r;

	if (!s || !v)
		return -EINVAL;
	memset(&tmp, 0, sizeof(tmp));
	if (tf_version_scheme_for(family) == TF_VERSION_SCHEME_MXT)
		r = parse_mxt(s, &tmp);
	else
		r = parse_dotted(s, &tmp);
	if (r < 0)
		return r;
	*v = tmp;
	return 0;
}

void tf_version_from_mxt(uint8_t version_byte, uint8_t build,
			 struct tf_version *v)
{
	memset(v, 0, sizeof(*v));
	v->scheme = TF_VERSION_SCHEME_MXT;
	v->n_parts = 3;
	v->part[0] = version_byte >> 4;
	v->part[1] = version_byte & 0x0f;
	v->part[2] = build;
}

int tf_version_cmp(const struct tf_version *a, const struct tf_version *b)
{
	unsigned i;

	if (a->scheme != b->scheme)
		return a->scheme < b->scheme ? -1 : 1;
	for (i = 0; i < TF_VERSION_MAX_PARTS; i++) {
		uint32_t x = i < a->n_parts ? a->part[i] : 0;
		uint32_t y = i < b->n_parts ? b->part[i] : 0;

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

int tf_version_format(const struct tf_version *v, char *buf, size_t size)
{
	size_t used = 0;
	unsigned i;
	int r;

	if (!v || !buf || size == 0)
		return -EINVAL;
	if (v->scheme == TF_VERSION_SCHEME_MXT) {
		if (v->n_parts != 3 || v->part[0] > MXT_NIBBLE_MAX ||
		    v->part[1] > MXT_NIBBLE_MAX || v->part[2] > 0xff)
			return -EINVAL;
		return tf_snprintf(buf, size, "%u.%u.%02X", v->part[0],
				   v->part[1], v->part[2]);
	}
	if (v->scheme != TF_VERSION_SCHEME_DOTTED || v->n_parts < 1 ||
	    v->n_parts > TF_VERSION_MAX_PARTS)
		return -EINVAL;
	buf[0] = '\0';
	for (i = 0; i < v->n_parts; i++) {
		r = tf_snprintf(buf + used, size - used, "%s%u", i ? "." : "",
				v->part[i]);
		if (r < 0)
			return r;
		used += strlen(buf + used);
	}
	return 0;
}
