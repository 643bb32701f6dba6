/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Controller firmware versions, parsed and compared per family "scheme" as
 * numbers, never as strings: "1.0.0A" < "1.0.10" and "2.10.00" > "2.9.FF".
 * Scheme "mxt" (family mxt) is MAJOR.MINOR.BUILD as atmel_mxt_ts prints
 * fw_version ("%u.%u.%02X": MAJOR and MINOR are the two nibbles of the info
 * block's version byte, BUILD its build byte); scheme "dotted" (every other
 * family) is one to four decimal components.  Pure functions, no logging.
 */
#ifndef TF_VERSION_H
#define TF_VERSION_H

#include <stddef.h>
#include <stdint.h>

#define TF_VERSION_MAX_PARTS 4
/* Long enough for any formatted version of any scheme, NUL included. */
#define TF_VERSION_STR_MAX 48

enum tf_version_scheme {
	TF_VERSION_SCHEME_DOTTED,
	TF_VERSION_SCHEME_MXT,
};

struct tf_version {
	enum tf_version_scheme scheme;
	unsigned n_parts; /* 1..TF_VERSION_MAX_PARTS */
	uint32_t part[TF_VERSION_MAX_PARTS];
};

/* The scheme a controller family's versions follow (NULL: dotted). */
enum tf_version_scheme tf_version_scheme_for(const char *family);
/* Scheme name ("mxt", "dotted") and a one-line description of the syntax,
 * for error messages. */
const char *tf_version_scheme_name(enum tf_version_scheme scheme);
const char *tf_version_scheme_syntax(enum tf_version_scheme scheme);

/*
 * Parse @s by @family's scheme.  Returns 0, or -EINVAL if @s is not a
 * version of that scheme (no whitespace, signs or empty components; mxt
 * MAJOR/MINOR decimal 0..15 without leading zeros, BUILD exactly two hex
 * digits of either case; dotted components decimal, at most 2^32-1).
 */
int tf_version_parse(const char *family, const char *s, struct tf_version *v);

/* The version an mxt info block reports (version byte, build byte). */
void tf_version_from_mxt(uint8_t version_byte, uint8_t build,
			 struct tf_version *v);

/*
 * Total order: <0, 0, >0.  Components compare as numbers, missing trailing
 * components of a dotted version count as 0 ("1.2" == "1.2.0").  Versions
 * of different schemes are not comparable in any meaningful way; they order
 * by scheme so that sorting stays well defined.
 */
int tf_version_cmp(const struct tf_version *a, const struct tf_version *b);

/*
 * Canonical text: mxt "%u.%u.%02X", dotted decimal without leading zeros.
 * Returns 0, -EINVAL for a malformed @v, -ENAMETOOLONG if @size is short.
 */
int tf_version_format(const struct tf_version *v, char *buf, size_t size);

#endif /* TF_VERSION_H */
