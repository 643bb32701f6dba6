// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Version parsing and ordering.  Each scheme reads a string into numeric
 * components so that comparisons are numeric: a string compare would put
 * "1.0.0A" after "1.0.10" and "2.10.00" before "2.9.FF".  The syntax is
 * deliberately strict (no blanks, signs or stray characters) because a
 * manifest typo must fail loudly instead of changing the order.  This file
 * holds the generic "dotted" scheme; families bring their own schemes
 * (agent/family/<name>/), found through the registry.
 */
#include "version.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "family/family.h"
#include "util.h"

static bool is_dec(char c)
{
	return c >= '0' && c <= '9';
}

int tf_version_parse_dec(const char **p, bool canonical, uint32_t max, uint32_t *out)
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

static int parse_dotted(const char *s, struct tf_version *v)
{
	unsigned n = 0;

	for (;;) {
		if (n == TF_VERSION_MAX_PARTS)
			return -EINVAL;
		/* Vendors write "1.02"; it means 2, so leading zeros pass. */
		if (tf_version_parse_dec(&s, false, UINT32_MAX, &v->part[n]) < 0)
			return -EINVAL;
		n++;
		if (*s == '\0')
			break;
		if (*s++ != '.')
			return -EINVAL;
	}
	v->n_parts = n;
	return 0;
}

static int format_dotted(const struct tf_version *v, char *buf, size_t size)
{
	size_t used = 0;
	unsigned i;
	int r;

	if (v->n_parts < 1 || v->n_parts > TF_VERSION_MAX_PARTS)
		return -EINVAL;
	buf[0] = '\0';
	for (i = 0; i < v->n_parts; i++) {
		r = tf_snprintf(buf + used, size - used, "%s%u", i ? "." : "", v->part[i]);
		if (r < 0)
			return r;
		used += strlen(buf + used);
	}
	return 0;
}

const struct tf_version_scheme tf_version_dotted = {
	.name = "dotted",
	.syntax = "1 to 4 decimal numbers separated by dots (e.g. 1.2.3)",
	.parse = parse_dotted,
	.format = format_dotted,
};

static const struct tf_version_scheme *scheme_of(const struct tf_version *v)
{
	return v->scheme ? v->scheme : &tf_version_dotted;
}

const struct tf_version_scheme *tf_version_scheme_for(const char *family)
{
	const struct tf_family *f = tf_family_by_name(family);

	return f && f->version ? f->version : &tf_version_dotted;
}

int tf_version_parse_scheme(const struct tf_version_scheme *scheme, const char *s,
			    struct tf_version *v)
{
	struct tf_version tmp;
	int r;

	if (!scheme || !s || !v)
		return -EINVAL;
	memset(&tmp, 0, sizeof(tmp));
	r = scheme->parse(s, &tmp);
	if (r < 0)
		return r;
	tmp.scheme = scheme;
	*v = tmp;
	return 0;
}

int tf_version_parse(const char *family, const char *s, struct tf_version *v)
{
	return tf_version_parse_scheme(tf_version_scheme_for(family), s, v);
}

int tf_version_cmp(const struct tf_version *a, const struct tf_version *b)
{
	const struct tf_version_scheme *sa = scheme_of(a), *sb = scheme_of(b);
	unsigned i;

	if (sa != sb) {
		int c = strcmp(sa->name, sb->name);

		if (c)
			return c < 0 ? -1 : 1;
		return sa < sb ? -1 : 1;
	}
	if (sa->cmp)
		return sa->cmp(a, b);
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
	if (!v || !buf || size == 0 || !scheme_of(v)->format)
		return -EINVAL;
	return scheme_of(v)->format(v, buf, size);
}
