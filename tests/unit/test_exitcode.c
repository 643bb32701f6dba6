// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw's exit codes are documented in one table (agent/exitcode.c),
 * printed by `touchfw --help` and copied into touchfw(8)'s EXIT STATUS:
 * every code has a name and a text, --help lists each, and the man page
 * lists exactly the same codes under the same names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "exitcode.h"

static void test_every_code_has_a_name_and_a_text(void **state)
{
	int i, j;

	(void)state;
	for (i = 0; i < TF_EXIT_MAX_; i++) {
		assert_string_not_equal(tf_exit_name(i), "unknown");
		assert_string_not_equal(tf_exit_text(i), "unknown exit code");
		for (j = 0; j < i; j++)
			assert_string_not_equal(tf_exit_name(i), tf_exit_name(j));
	}
	assert_string_equal(tf_exit_name(TF_EXIT_MAX_), "unknown");
	assert_string_equal(tf_exit_name(-1), "unknown");
}

static void test_help_lists_every_code(void **state)
{
	char *text = NULL, line[160];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int i;

	(void)state;
	assert_non_null(f);
	tf_cli_usage(f);
	fclose(f);
	for (i = 0; i < TF_EXIT_MAX_; i++) {
		snprintf(line, sizeof(line), "  %2d  %-18s %s\n", i, tf_exit_name(i),
			 tf_exit_text(i));
		if (!strstr(text, line))
			fail_msg("--help lacks: %s", line);
	}
	free(text);
}

static void test_man_page_lists_the_same_codes(void **state)
{
	const char *top = getenv("TOUCHFW_TOP");
	char path[4096], buf[512];
	bool in_table = false, seen[TF_EXIT_MAX_] = { false };
	int rows = 0, i;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/doc/touchfw.8", top && *top ? top : ".");
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f)) {
		char name[64];
		int code;

		if (!strncmp(buf, ".SH EXIT STATUS", 15)) {
			in_table = true;
			continue;
		}
		if (!in_table)
			continue;
		if (!strncmp(buf, ".SH", 3))
			break;
		if (sscanf(buf, "%d\t%63[^\t]\t", &code, name) != 2)
			continue;
		if (code < 0 || code >= TF_EXIT_MAX_)
			fail_msg(
				"touchfw(8) documents exit code %d, which touchfw does not have",
				code);
		if (strcmp(name, tf_exit_name(code)))
			fail_msg("touchfw(8) names exit code %d '%s', the code '%s'", code,
				 name, tf_exit_name(code));
		assert_false(seen[code]);
		seen[code] = true;
		rows++;
	}
	fclose(f);
	for (i = 0; i < TF_EXIT_MAX_; i++)
		if (!seen[i])
			fail_msg("touchfw(8) does not document exit code %d (%s)", i,
				 tf_exit_name(i));
	assert_int_equal(rows, TF_EXIT_MAX_);
}

/*
 * Every place touchfw(8) names an exit code by number and name in its
 * text -- "exits 7" then ".RB ( bad-input )" -- agrees with the table:
 * the page once said "16 (permission)" where the code is 17 (issue 27
 * item 10, issue 26 item 8).
 */
static void test_man_page_text_names_codes_as_the_table(void **state)
{
	const char *top = getenv("TOUCHFW_TOP");
	char path[4096], prev[512] = "", buf[512];
	int checked = 0;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/doc/touchfw.8", top && *top ? top : ".");
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f)) {
		char name[64];
		size_t n = strcspn(prev, "\n");
		int code;

		if (sscanf(buf, ".RB ( %63[a-z-] )", name) == 1) {
			/* the previous line ends in the number */
			while (n && prev[n - 1] == ' ')
				n--;
			while (n && prev[n - 1] >= '0' && prev[n - 1] <= '9')
				n--;
			if (sscanf(prev + n, "%d", &code) == 1) {
				if (code < 0 || code >= TF_EXIT_MAX_ ||
				    strcmp(name, tf_exit_name(code)))
					fail_msg(
						"touchfw(8) says exit %d (%s); the code is %s %s",
						code, name, tf_exit_name(code),
						code < TF_EXIT_MAX_ ? "" : "(none)");
				checked++;
			}
		}
		snprintf(prev, sizeof(prev), "%s", buf);
	}
	fclose(f);
	assert_true(checked >= 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_code_has_a_name_and_a_text),
		cmocka_unit_test(test_help_lists_every_code),
		cmocka_unit_test(test_man_page_lists_the_same_codes),
		cmocka_unit_test(test_man_page_text_names_codes_as_the_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
