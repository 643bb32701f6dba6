/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Controller firmware versions, parsed and compared per "scheme" as
 * numbers, never as strings: "1.0.0A" < "1.0.10" and "2.10.00" > "2.9.FF".
 * A family that prints its versions its own way brings its scheme
 * (struct tf_family.version, agent/family/); every other family uses
 * "dotted", one to four decimal components.  Pure functions, no logging.
 */
#ifndef TF_VERSION_H
#define TF_VERSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TF_VERSION_MAX_PARTS 4
/* Long enough for any formatted version of any scheme, NUL included. */
#define TF_VERSION_STR_MAX 48

struct tf_version;

/* How one family writes its versions. */
struct tf_version_scheme {
	const char *name;   /* "dotted", or the family's name */
	const char *syntax; /* one line for error messages, with an example */
	/*
	 * Read @s strictly (no whitespace, signs or stray characters) into
	 * v->n_parts and v->part[]; -EINVAL if @s is not of this scheme.
	 */
	int (*parse)(const char *s, struct tf_version *v);
	/* Canonical text; -EINVAL for parts this scheme can not hold. */
	int (*format)(const struct tf_version *v, char *buf, size_t size);
	/* Optional order of two versions of this scheme (<0, 0, >0); NULL:
	 * component by component as numbers, missing ones counting as 0. */
	int (*cmp)(const struct tf_version *a, const struct tf_version *b);
};

struct tf_version {
	const struct tf_version_scheme *scheme; /* NULL counts as dotted */
	unsigned n_parts;			/* 1..TF_VERSION_MAX_PARTS */
	uint32_t part[TF_VERSION_MAX_PARTS];
};

extern const struct tf_version_scheme tf_version_dotted;

/* The scheme a controller family's versions follow: the family's own, or
 * dotted for a family without one or unknown (NULL too). */
const struct tf_version_scheme *tf_version_scheme_for(const char *family);

/*
 * Parse @s by @family's scheme.  Returns 0, or -EINVAL if @s is not a
 * version of that scheme (dotted components decimal, at most 2^32-1,
 * leading zeros allowed: vendors write "1.02").
 */
int tf_version_parse(const char *family, const char *s, struct tf_version *v);
int tf_version_parse_scheme(const struct tf_version_scheme *scheme, const char *s,
			    struct tf_version *v);

/*
 * For schemes: read a decimal component at *@p up to the first non-digit,
 * at most @max; with @canonical, leading zeros are refused ("01" is then a
 * typo).  Advances *@p.
 */
int tf_version_parse_dec(const char **p, bool canonical, uint32_t max, uint32_t *out);

/*
 * Total order: <0, 0, >0, by the scheme's cmp, else: components compare as
 * numbers, missing trailing components count as 0 ("1.2" == "1.2.0").  Versions of different
 * schemes are not comparable in any meaningful way; they order by scheme name so that sorting
 * stays well defined.
 */
int tf_version_cmp(const struct tf_version *a, const struct tf_version *b);

/*
 * Canonical text by the version's scheme (dotted: decimal without leading
 * zeros).  Returns 0, -EINVAL for a malformed @v, -ENAMETOOLONG if @size is
 * short.
 */
int tf_version_format(const struct tf_version *v, char *buf, size_t size);

#endif /* TF_VERSION_H */
