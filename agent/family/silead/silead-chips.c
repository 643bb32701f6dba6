// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Silead chip names as files and their names give them ("GSL1680",
 * "gsl_3676", a container's "1680"), mapped to the i2c ids silead_ts
 * matches.  Pure: no I/O.
 */
#include "silead.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* silead_ts's i2c ids, and the id each series of chips is recorded as. */
static const struct {
	const char *prefix; /* "gsl" and the digits a name starts with */
	const char *id;
} series[] = {
	{ "gsl1680", "gsl1680" }, { "gsl1688", "gsl1688" }, { "gsl3670", "gsl3670" },
	{ "gsl3675", "gsl3675" }, { "gsl3692", "gsl3692" }, { "gsl168", "gsl1680" },
	{ "gsl367", "gsl3670" },  { "gsl369", "gsl3692" },
};

int silead_chip_id(const char *chip, char *id, size_t size, bool *exact)
{
	size_t i, n = strlen(chip);

	if (n < 6 || n > 7 || strncmp(chip, "gsl", 3))
		return -EINVAL;
	for (i = 3; i < n; i++)
		if (!isdigit((unsigned char)chip[i]))
			return -EINVAL;
	for (i = 0; i < TF_ARRAY_SIZE(series); i++)
		if (!strncmp(chip, series[i].prefix, strlen(series[i].prefix))) {
			*exact = !strcmp(chip, series[i].id);
			return tf_snprintf(id, size, "%s", series[i].id);
		}
	/* gsl3680, gsl915, gsl960, ...: the same loader and RAM; on x86
	 * tablets they sit behind MSSL1680 (touchscreen_dmi.c names gsl3680
	 * and gsl3676 files for MSSL1680 devices) */
	*exact = false;
	return tf_snprintf(id, size, "gsl1680");
}

/* A chip name at @s: "gsl", an optional '_' or ' ', then 3 or 4 digits
 * and no more (case-insensitive); its canonical form into @chip. */
static bool chip_at(const char *s, size_t left, char *chip, size_t size)
{
	size_t i = 3, d = 0;

	if (left < 6 || strncasecmp(s, "gsl", 3))
		return false;
	if (s[i] == '_' || s[i] == ' ')
		i++;
	while (i + d < left && isdigit((unsigned char)s[i + d]))
		d++;
	if (d < 3 || d > 4)
		return false;
	if (i > 3 && s[3] == ' ')
		return false; /* "gsl 1680": prose, not a name */
	return tf_snprintf(chip, size, "gsl%.*s", (int)d, s + i) == 0;
}

int silead_chip_names(const char *s, size_t len, char *chip, size_t size, char *all,
		      size_t all_size)
{
	size_t i, n = 0, off = 0;
	char found[8][16];

	chip[0] = '\0';
	if (all_size)
		all[0] = '\0';
	for (i = 0; i < len; i++) {
		char c[16];
		size_t k;

		if ((i && isalpha((unsigned char)s[i - 1])) ||
		    !chip_at(s + i, len - i, c, sizeof(c)))
			continue;
		for (k = 0; k < n && strcmp(found[k], c); k++)
			;
		if (k == n && n < TF_ARRAY_SIZE(found)) {
			tf_snprintf(found[n++], sizeof(found[0]), "%s", c);
			if (off < all_size)
				off += (size_t)snprintf(all + off, all_size - off, "%s%s",
							off ? ", " : "", c);
		}
	}
	if (n == 1)
		tf_snprintf(chip, size, "%s", found[0]);
	return (int)n;
}
