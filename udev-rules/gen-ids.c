// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fills the family ids into the udev rules and the mdev lines at build
 * time, from the same records the front end matches uevents with
 * (agent/family/registry-ids.c and each family's ids.c), so that adding a
 * family never means editing a rule.  Built with the build machine's
 * compiler (BUILD_CC) from those sources alone.
 *
 *   gen-ids TEMPLATE >OUTPUT
 * copies TEMPLATE, replacing a line that is exactly
 *   @FAMILY_DRIVER_RULES@    by one udev line per family matching DRIVER;
 *   @FAMILY_MODALIAS_RULES@  by udev lines matching the modalias of the
 *                            families' OF, ACPI, i2c and spi ids (add-only);
 *   @FAMILY_PROBE_FILE_RULES@ by a udev line per family whose driver's probe
 *                            fails without the file touchfw installs
 *                            (probe_needs_file) or on a chip left in its
 *                            bootloader (probe_fails_in_bootloader): its
 *                            "add" without DRIVER,
 *                            by modalias, goes to LABEL="touchfw_handoff";
 * and inside any line
 *   @FAMILY_DRIVER_RE@       by an mdev regex for DRIVER;
 *   @FAMILY_MODALIAS_RE@     by an mdev regex for MODALIAS.
 * An id with a character udev globs or the regexes would read specially is
 * an error: ids are plain names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "family/ids.h"

static const char *prog = "gen-ids";

static void check_id(const struct tf_family_ids *f, const char *id)
{
	if (!*id || strpbrk(id, "*?[]|\"\\$^(){}+ \t")) {
		fprintf(stderr, "%s: family %s: id \"%s\" is not a plain name\n", prog, f->name,
			id);
		exit(1);
	}
}

/* "a|b|c" with @pre and @post around each id. */
static void glob_list(const struct tf_family_ids *f, const char *const *ids, const char *pre,
		      const char *post)
{
	const char *const *p;

	for (p = ids; p && *p; p++) {
		check_id(f, *p);
		printf("%s%s%s%s", p == ids ? "" : "|", pre, *p, post);
	}
}

static void driver_rules(void)
{
	size_t i;

	for (i = 0; tf_family_ids_all[i]; i++) {
		const struct tf_family_ids *f = tf_family_ids_all[i];

		printf("# %s (agent/family/%s/ids.c)\nENV{DRIVER}==\"", f->description,
		       f->name);
		glob_list(f, f->drivers, "", "");
		printf("\", ENV{TOUCHFW_CANDIDATE}=\"1\"\n");
	}
}

static void modalias_rules(void)
{
	size_t i;
	const char *const *p;

	for (i = 0; tf_family_ids_all[i]; i++) {
		const struct tf_family_ids *f = tf_family_ids_all[i];

		printf("# %s (agent/family/%s/ids.c)\n", f->description, f->name);
		if (f->compatibles && f->compatibles[0]) {
			/* of:N<name>T<type>C<compatible>[C<compatible>...] */
			printf("ENV{MODALIAS}==\"");
			for (p = f->compatibles; *p; p++) {
				check_id(f, *p);
				printf("%sof:*C%s|of:*C%sC*", p == f->compatibles ? "" : "|",
				       *p, *p);
			}
			printf("\", \\\n  ENV{TOUCHFW_CANDIDATE}=\"1\"\n");
		}
		if (f->acpi_ids && f->acpi_ids[0]) {
			/* acpi:<HID>:<CID>...: an id as the _HID or as a
			 * _CID (acpi_driver_match_device matches both) */
			printf("ENV{MODALIAS}==\"");
			glob_list(f, f->acpi_ids, "acpi:", ":*");
			printf("|");
			glob_list(f, f->acpi_ids, "acpi:*:", ":*");
			printf("\", ENV{TOUCHFW_CANDIDATE}=\"1\"\n");
		}
		if (f->i2c_ids && f->i2c_ids[0]) {
			/* Clients made by new_device or board files. */
			printf("ENV{MODALIAS}==\"");
			glob_list(f, f->i2c_ids, "i2c:", "");
			printf("\", \\\n  ENV{TOUCHFW_CANDIDATE}=\"1\"\n");
		}
		if (f->spi_ids && f->spi_ids[0]) {
			/* Devices made by board files or spi_new_device. */
			printf("ENV{MODALIAS}==\"");
			glob_list(f, f->spi_ids, "spi:", "");
			printf("\", \\\n  ENV{TOUCHFW_CANDIDATE}=\"1\"\n");
		}
	}
}

static void probe_file_rules(void)
{
	size_t i, n = 0;
	const char *const *p;

	for (i = 0; tf_family_ids_all[i]; i++) {
		const struct tf_family_ids *f = tf_family_ids_all[i];
		bool any = false;

		if (!f->probe_needs_file && !f->probe_fails_in_bootloader)
			continue;
		n++;
		printf("# %s (agent/family/%s/ids.c)\n"
		       "ACTION==\"add\", ENV{DRIVER}!=\"?*\", ENV{MODALIAS}==\"",
		       f->description, f->name);
		for (p = f->compatibles; p && *p; p++, any = true) {
			check_id(f, *p);
			printf("%sof:*C%s|of:*C%sC*", any ? "|" : "", *p, *p);
		}
		for (p = f->acpi_ids; p && *p; p++, any = true) {
			check_id(f, *p);
			printf("%sacpi:%s:*|acpi:*:%s:*", any ? "|" : "", *p, *p);
		}
		for (p = f->i2c_ids; p && *p; p++, any = true) {
			check_id(f, *p);
			printf("%si2c:%s", any ? "|" : "", *p);
		}
		for (p = f->spi_ids; p && *p; p++, any = true) {
			check_id(f, *p);
			printf("%sspi:%s", any ? "|" : "", *p);
		}
		printf("\", \\\n  ENV{TOUCHFW_CANDIDATE}=\"1\", GOTO=\"touchfw_handoff\"\n");
	}
	if (!n)
		printf("# (none: every family's driver binds without touchfw's files)\n");
}

/* Every family's @which list as "a|b|c" (plain names: no escaping). */
static size_t re_alternatives(FILE *out, size_t which)
{
	size_t i, n = 0;
	const char *const *p;

	for (i = 0; tf_family_ids_all[i]; i++) {
		const struct tf_family_ids *f = tf_family_ids_all[i];
		const char *const *lists[] = { f->drivers, f->compatibles, f->acpi_ids,
					       f->i2c_ids, f->spi_ids };

		for (p = lists[which]; p && *p; p++) {
			check_id(f, *p);
			fprintf(out, "%s%s", n++ ? "|" : "", *p);
		}
	}
	return n;
}

static void driver_re(FILE *out)
{
	size_t n = 0, i;
	const char *const *p;

	for (i = 0; tf_family_ids_all[i]; i++)
		for (p = tf_family_ids_all[i]->drivers; p && *p; p++)
			n++;
	fputs(n == 1 ? "^" : "^(", out);
	re_alternatives(out, 0);
	fputs(n == 1 ? "$" : ")$", out);
}

static void modalias_re(FILE *out)
{
	fputs("^(of:.*C(", out);
	re_alternatives(out, 1);
	fputs(")(C.*)?|acpi:(", out);
	re_alternatives(out, 2);
	fputs("):.*|i2c:(", out);
	re_alternatives(out, 3);
	fputs(")|spi:(", out);
	re_alternatives(out, 4);
	fputs("))$", out);
}

static void line_out(const char *line)
{
	static const struct {
		const char *token;
		void (*fn)(FILE *out);
	} tokens[] = { { "@FAMILY_DRIVER_RE@", driver_re },
		       { "@FAMILY_MODALIAS_RE@", modalias_re } };
	const char *p = line;
	size_t k;

	while (*p) {
		for (k = 0; k < sizeof(tokens) / sizeof(tokens[0]); k++) {
			size_t n = strlen(tokens[k].token);

			if (!strncmp(p, tokens[k].token, n)) {
				tokens[k].fn(stdout);
				p += n;
				break;
			}
		}
		if (k == sizeof(tokens) / sizeof(tokens[0]))
			putchar(*p++);
	}
}

int main(int argc, char **argv)
{
	char line[4096];
	FILE *in;

	if (argc != 2) {
		fprintf(stderr, "usage: %s TEMPLATE >OUTPUT\n", prog);
		return 2;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (!strcmp(line, "@FAMILY_DRIVER_RULES@\n"))
			driver_rules();
		else if (!strcmp(line, "@FAMILY_MODALIAS_RULES@\n"))
			modalias_rules();
		else if (!strcmp(line, "@FAMILY_PROBE_FILE_RULES@\n"))
			probe_file_rules();
		else
			line_out(line);
	}
	if (ferror(in) || fclose(in) || fflush(stdout)) {
		fprintf(stderr, "%s: %s: read or write error\n", prog, argv[1]);
		return 1;
	}
	return 0;
}
