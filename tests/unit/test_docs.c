// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The documents say what the code has (issue 26 item 8): every family of
 * the registry is listed where a profile's `family` and a manifest's
 * `family` are described, the families with an spi transport are named
 * where a profile's `bus` is, every family's drivers appear in README.md
 * by the names a profile's `driver` takes (never a module name such as
 * goodix_ts standing for Goodix-TS), touchfw(8) says what happens to an
 * Elan touchpad in IAP with and without the profile's consent, and
 * doc/families.md says per family what "verified" can not prove, in the
 * run's words.
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "family/family.h"

static char *slurp(const char *rel)
{
	const char *top = getenv("TOUCHFW_TOP");
	char path[4096], *text = NULL;
	size_t len = 0;
	FILE *f, *m;
	int ch;

	snprintf(path, sizeof(path), "%s/%s", top && *top ? top : ".", rel);
	f = fopen(path, "r");
	if (!f)
		fail_msg("can not read %s", path);
	m = open_memstream(&text, &len);
	assert_non_null(m);
	while ((ch = fgetc(f)) != EOF)
		fputc(ch, m);
	fclose(f);
	fclose(m);
	return text;
}

/* The line of @text that starts with @prefix (a table row), malloc()ed. */
static char *row(const char *text, const char *prefix, const char *file)
{
	const char *p = text;
	size_t n = strlen(prefix);

	while (p && *p) {
		if (!strncmp(p, prefix, n))
			return strndup(p, strcspn(p, "\n"));
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	fail_msg("%s has no line starting %s", file, prefix);
	return NULL;
}

static bool has_tick(const char *text, const char *word)
{
	char needle[128];

	snprintf(needle, sizeof(needle), "`%s`", word);
	return strstr(text, needle) != NULL;
}

static bool has_spi(const struct tf_family *f)
{
	return f->ids->spi_ids && f->ids->spi_ids[0];
}

static void test_boards_readme_lists_every_family_and_spi(void **state)
{
	char *text = slurp("boards/README.md");
	char *fam = row(text, "| `family` |", "boards/README.md");
	char *bus = row(text, "| `bus` |", "boards/README.md");

	(void)state;
	for (unsigned i = 0; tf_families[i]; i++) {
		const struct tf_family *f = tf_families[i];

		if (!has_tick(fam, f->ids->name))
			fail_msg("boards/README.md's family row lacks `%s`", f->ids->name);
		for (unsigned d = 0; f->ids->drivers[d]; d++)
			if (!has_tick(fam, f->ids->drivers[d]))
				fail_msg("boards/README.md's family row lacks %s's driver `%s`",
					 f->ids->name, f->ids->drivers[d]);
		if (has_spi(f) && !has_tick(bus, f->ids->name))
			fail_msg(
				"boards/README.md's bus row does not name `%s`, which runs on spi",
				f->ids->name);
	}
	if (strstr(bus, "i2c controllers only"))
		fail_msg("boards/README.md's bus row says i2c only: %s", bus);
	free(fam);
	free(bus);
	free(text);
}

static void test_firmware_db_readme_lists_every_family(void **state)
{
	char *text = slurp("firmware-db/README.md");
	char *fam = row(text, "| `family` |", "firmware-db/README.md");

	(void)state;
	for (unsigned i = 0; tf_families[i]; i++)
		if (!has_tick(fam, tf_families[i]->ids->name))
			fail_msg("firmware-db/README.md's family row lacks `%s`",
				 tf_families[i]->ids->name);
	free(fam);
	free(text);
}

/* A driver's module name: '-' as '_', lower case (Goodix-TS: goodix_ts). */
static void module_name(const char *driver, char *out, size_t size)
{
	size_t i;

	for (i = 0; driver[i] && i + 1 < size; i++)
		out[i] = driver[i] == '-' ? '_' : (char)tolower((unsigned char)driver[i]);
	out[i] = '\0';
}

static void test_readme_names_drivers_as_profiles_take_them(void **state)
{
	char *text = slurp("README.md");

	(void)state;
	for (unsigned i = 0; tf_families[i]; i++) {
		const struct tf_family *f = tf_families[i];

		for (unsigned d = 0; f->ids->drivers[d]; d++) {
			const char *drv = f->ids->drivers[d];
			char mod[64];

			if (!has_tick(text, drv))
				fail_msg("README.md does not name %s's driver `%s`",
					 f->ids->name, drv);
			module_name(drv, mod, sizeof(mod));
			if (strcmp(mod, drv) && has_tick(text, mod))
				fail_msg("README.md writes `%s` where the driver (a profile's "
					 "driver) is `%s`",
					 mod, drv);
		}
	}
	free(text);
}

static void test_man_page_says_what_iap_touchpads_get(void **state)
{
	char *text = slurp("doc/touchfw.8");
	const char *p = strstr(text, "A touchpad left in IAP mode");
	char *para;

	(void)state;
	assert_non_null(p);
	para = strndup(p, 4000);
	assert_non_null(para);
	if (strstr(para, "\n.IP"))
		*strstr(para, "\n.IP") = '\0';
	if (strstr(para, "only reported"))
		fail_msg("touchfw(8) says an IAP touchpad is only reported");
	assert_non_null(strstr(para, "allow\\-bus\\-recovery"));
	/* recovery's end, a failed page, no consent: as the code exits */
	assert_non_null(strstr(para, "binds elan_i2c"));
	assert_non_null(strstr(para, "exit 11"));
	assert_non_null(strstr(para, "exits 13"));
	assert_non_null(strstr(para, "not touched"));
	free(para);
	free(text);
}

/*
 * doc/families.md's table of what "verified" proves has a row for every
 * family, and its last column, what it can not prove, begins with the
 * words the run logs after "not proven by this:" (tf_family.unproven),
 * which every family has.
 */
static void test_families_md_says_what_verified_can_not_prove(void **state)
{
	char *text = slurp("doc/families.md");
	const char *table = strstr(text,
				   "| family | what \"verified\" proves | what it can not |");

	(void)state;
	if (!table)
		fail_msg("doc/families.md has no table of what \"verified\" proves");
	for (unsigned i = 0; tf_families[i]; i++) {
		const struct tf_family *f = tf_families[i];
		char prefix[64], *r;
		const char *last;

		if (!f->unproven || !f->unproven[0])
			fail_msg("family %s does not say what its \"verified\" can not prove",
				 f->ids->name);
		snprintf(prefix, sizeof(prefix), "| %s | ", f->ids->name);
		r = row(table, prefix, "doc/families.md's table of what \"verified\" proves");
		/* "| name | proves | can not |": the last cell */
		r[strlen(r) - (strlen(r) > 2 && !strcmp(r + strlen(r) - 2, " |") ? 2 : 0)] =
			'\0';
		last = strrchr(r, '|');
		assert_non_null(last);
		if (strncmp(last + 2, f->unproven, strlen(f->unproven)))
			fail_msg("doc/families.md: %s can not prove \"%s\", but the run says "
				 "\"not proven by this: %s\"",
				 f->ids->name, last + 2, f->unproven);
		free(r);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boards_readme_lists_every_family_and_spi),
		cmocka_unit_test(test_firmware_db_readme_lists_every_family),
		cmocka_unit_test(test_readme_names_drivers_as_profiles_take_them),
		cmocka_unit_test(test_man_page_says_what_iap_touchpads_get),
		cmocka_unit_test(test_families_md_says_what_verified_can_not_prove),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
