// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The parsers of touchfw's state files and settings, on golden and
 * corrupted text: attempts, failure records, the hardware hint, marker
 * time stamps, touchfw.conf.  Pure functions over a buffer (the same ones
 * tests/fuzz/fuzz_state.c and fuzz_settings.c fuzz); a corrupt file must
 * be an error naming the field, never a value that wrapped.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "settings.h"
#include "state.h"

static void test_attempts_golden(void **state)
{
	struct tf_attempts a;
	struct tf_err err = { 0 };

	(void)state;
	assert_int_equal(tf_attempts_parse("count=2\nnext_allowed=1764790000\n"
					   "last_error=1-004a: frame CRC failed\n",
					   &a, &err),
			 0);
	assert_int_equal(a.count, 2);
	assert_int_equal(a.next_allowed, 1764790000ULL);
	assert_string_equal(a.last_error, "1-004a: frame CRC failed");
	/* the largest count that is not the "at the limit" marker */
	assert_int_equal(tf_attempts_parse("count=4294967294\n", &a, &err), 0);
	assert_int_equal(a.count, 4294967294U);
}

static void test_attempts_corrupt_names_the_field(void **state)
{
	static const char *const bad[][2] = {
		{ "count=4294967296\n", "field count" }, /* 2^32: wrapped to 0 */
		{ "count=4294967295\n", "field count" }, /* UINT_MAX is reserved */
		{ "count=18446744073709551617\n", "field count" },
		{ "count=-1\n", "field count" },
		{ "count=+3\n", "field count" },
		{ "count=3x\n", "field count" },
		{ "count=\n", "field count" },
		{ "count=1\nnext_allowed=99999999999999999999\n", "field next_allowed" },
		{ "next_allowed=0\n", "field count is missing" },
		{ "", "field count is missing" },
		{ "count=1\ncolour=blue\n", "unknown field 'colour'" },
		{ "count 1\n", "is not KEY=VALUE" },
	};
	struct tf_attempts a;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tf_err err = { 0 };

		assert_int_equal(tf_attempts_parse(bad[i][0], &a, &err), -EBADMSG);
		if (!strstr(err.msg, bad[i][1]))
			fail_msg("'%s': expected \"%s\" in \"%s\"", bad[i][0], bad[i][1],
				 err.msg);
	}
}

static void test_failure_record_golden_and_corrupt(void **state)
{
	struct tf_err err = { 0 };
	char why[64];
	unsigned n;

	(void)state;
	assert_int_equal(tf_failure_record_parse("failures=2\nlast_error=no luck\n", &n, why,
						 sizeof(why), &err),
			 0);
	assert_int_equal(n, 2);
	assert_string_equal(why, "no luck");
	assert_int_equal(tf_failure_record_parse("failures=4294967297\n", &n, why, sizeof(why),
						 &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "field failures"));
	assert_int_equal(tf_failure_record_parse("last_error=x\n", &n, why, sizeof(why), &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "field failures is missing"));
}

static void test_hw_hint_is_one_printable_word(void **state)
{
	struct tf_hw_hint h;

	(void)state;
	assert_int_equal(tf_hw_hint_parse("129.1\n", &h), 0);
	assert_string_equal(h.hw, "129.1");
	assert_int_equal(h.learnt, 0);
	assert_int_equal(tf_hw_hint_parse("129.1", &h), 0);
	assert_int_equal(tf_hw_hint_parse("", &h), -EBADMSG);
	assert_int_equal(tf_hw_hint_parse("129.1\nmore\n", &h), -EBADMSG);
	assert_int_equal(tf_hw_hint_parse("12 9\n", &h), -EBADMSG);
	assert_int_equal(tf_hw_hint_parse("\x1b[31m\n", &h), -EBADMSG);
	assert_int_equal(tf_hw_hint_parse("0123456789012345678901234567890123456789\n", &h),
			 -EBADMSG);
	/* Where and when it was learnt; strict about both. */
	assert_int_equal(tf_hw_hint_parse("162.6\nlearnt=1796400000\nfrom=the chip in "
					  "application mode\n",
					  &h),
			 0);
	assert_string_equal(h.hw, "162.6");
	assert_int_equal(h.learnt, 1796400000);
	assert_string_equal(h.from, "the chip in application mode");
	assert_int_equal(tf_hw_hint_parse("162.6\nlearnt=soon\n", &h), -EBADMSG);
	assert_int_equal(tf_hw_hint_parse("162.6\nlearnt=0\n", &h), -EBADMSG);
	assert_int_equal(tf_hw_hint_parse("162.6\nfrom=\x1b[31m\n", &h), -EBADMSG);
	assert_int_equal(tf_hw_hint_parse("162.6\nwho=me\n", &h), -EBADMSG);
}

static void test_marker_time_stamp(void **state)
{
	uint64_t t;

	(void)state;
	assert_true(tf_marker_parse("1764790000\n", &t));
	assert_int_equal(t, 1764790000ULL);
	assert_false(tf_marker_parse("18446744073709551616\n", &t));
	assert_false(tf_marker_parse("-5\n", &t));
	assert_false(tf_marker_parse("17x\n", &t));
	assert_false(tf_marker_parse("", &t));
}

static void test_settings_parse_golden_and_errors(void **state)
{
	static const char good[] = "[touchfw]\nsignatures = required\nmax_attempts = 5\n"
				   "[paths]\nstate_dir = /run/tf\n";
	struct tf_settings s;
	struct tf_err err = { 0 };

	(void)state;
	assert_int_equal(tf_settings_parse(&s, good, sizeof(good) - 1, "t.conf", &err), 0);
	assert_int_equal(s.signatures, TF_SIG_REQUIRED);
	assert_int_equal(s.max_attempts, 5);
	assert_string_equal(s.state_dir, "/run/tf");
	/* the default is the one policy enum's "optional" */
	assert_int_equal(tf_settings_parse(&s, "", 0, "t.conf", &err), 0);
	assert_int_equal(s.signatures, TF_SIG_OPTIONAL);
	assert_int_equal(tf_settings_parse(&s, "[touchfw]\n\nmax_attempts = 0\n",
					   strlen("[touchfw]\n\nmax_attempts = 0\n"), "t.conf",
					   &err),
			 -EINVAL);
	assert_string_equal(err.msg, "t.conf:3: [touchfw] max_attempts: invalid value '0'");
	assert_int_equal(tf_settings_parse(&s, "[touchfw]\nx=1\0y", 15, "t.conf", &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "NUL byte"));
	assert_int_equal(tf_settings_parse(&s, "[paths]\nstate_dir = run\n",
					   strlen("[paths]\nstate_dir = run\n"), "t.conf",
					   &err),
			 -EINVAL);
	assert_non_null(strstr(err.msg, "t.conf:2: [paths] state_dir"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attempts_golden),
		cmocka_unit_test(test_attempts_corrupt_names_the_field),
		cmocka_unit_test(test_failure_record_golden_and_corrupt),
		cmocka_unit_test(test_hw_hint_is_one_printable_word),
		cmocka_unit_test(test_marker_time_stamp),
		cmocka_unit_test(test_settings_parse_golden_and_errors),
	};

	return cmocka_run_group_tests_name("state", tests, NULL, NULL);
}
