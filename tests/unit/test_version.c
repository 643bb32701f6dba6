// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for agent/version.c: both version schemes parse strictly,
 * order numerically component by component (never as strings), and format
 * back to their canonical text.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "family/mxt/mxt.h"
#include "version.h"

static struct tf_version parse_ok(const char *family, const char *s)
{
	struct tf_version v;

	if (tf_version_parse(family, s, &v) != 0)
		fail_msg("'%s' should parse as a %s version", s, family ? family : "dotted");
	return v;
}

static void assert_parse_fails(const char *family, const char *s)
{
	struct tf_version v;

	if (tf_version_parse(family, s, &v) != -EINVAL)
		fail_msg("'%s' should not parse as a %s version", s,
			 family ? family : "dotted");
}

static int cmp(const char *family, const char *a, const char *b)
{
	struct tf_version va = parse_ok(family, a), vb = parse_ok(family, b);

	return tf_version_cmp(&va, &vb);
}

static void assert_formats_as(const char *family, const char *in, const char *want)
{
	struct tf_version v = parse_ok(family, in);
	char buf[TF_VERSION_STR_MAX];

	assert_int_equal(tf_version_format(&v, buf, sizeof(buf)), 0);
	assert_string_equal(buf, want);
}

static void test_family_mxt_uses_mxt_scheme_others_dotted(void **state)
{
	(void)state;
	assert_ptr_equal(tf_version_scheme_for("mxt"), &mxt_version_scheme);
	assert_ptr_equal(tf_version_scheme_for("nosuchfamily"), &tf_version_dotted);
	assert_ptr_equal(tf_version_scheme_for(NULL), &tf_version_dotted);
	assert_string_equal(tf_version_scheme_for("mxt")->name, "mxt");
}

static void test_mxt_parses_major_minor_hex_build(void **state)
{
	struct tf_version v = parse_ok("mxt", "2.1.AB");

	(void)state;
	assert_ptr_equal(v.scheme, &mxt_version_scheme);
	assert_int_equal(v.n_parts, 3);
	assert_int_equal(v.part[0], 2);
	assert_int_equal(v.part[1], 1);
	assert_int_equal(v.part[2], 0xAB);
}

static void test_mxt_accepts_nibble_limits_and_lowercase_build(void **state)
{
	struct tf_version v = parse_ok("mxt", "15.10.ff");

	(void)state;
	assert_int_equal(v.part[0], 15);
	assert_int_equal(v.part[1], 10);
	assert_int_equal(v.part[2], 0xff);
	parse_ok("mxt", "0.0.00");
}

static void test_mxt_rejects_malformed_versions(void **state)
{
	static const char *const bad[] = {
		"",	   "2",	      "2.1",	 "2.1.A",    "2.1.ABC", "2.1.AG",   "16.0.00",
		"2.16.00", "02.1.AB", "2.01.AB", "2..AB",    ".2.1.AB", "2.1.AB.",  " 2.1.AB",
		"2.1.AB ", "+2.1.AB", "-2.1.AB", "2.1.0xAB", "2,1,AB",	"2.1.AB.1",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_parse_fails("mxt", bad[i]);
}

static void test_mxt_build_compares_as_hex_number(void **state)
{
	(void)state;
	/* 0x0A < 0x10, although "0A" > "10" as strings. */
	assert_true(cmp("mxt", "1.0.0A", "1.0.10") < 0);
	assert_true(cmp("mxt", "1.0.FF", "1.0.0F") > 0);
	assert_int_equal(cmp("mxt", "1.0.ab", "1.0.AB"), 0);
}

static void test_mxt_minor_ten_is_newer_than_minor_nine(void **state)
{
	(void)state;
	assert_true(cmp("mxt", "2.10.00", "2.9.FF") > 0);
	assert_true(cmp("mxt", "3.0.00", "2.15.FF") > 0);
}

static void test_mxt_formats_like_atmel_mxt_ts(void **state)
{
	(void)state;
	assert_formats_as("mxt", "2.1.ab", "2.1.AB");
	assert_formats_as("mxt", "1.0.0a", "1.0.0A");
}

static void test_mxt_from_info_block_bytes(void **state)
{
	struct tf_version v, want = parse_ok("mxt", "2.1.AB");

	(void)state;
	mxt_version_from_info(0x21, 0xAB, &v);
	assert_int_equal(tf_version_cmp(&v, &want), 0);
}

static void test_dotted_parses_one_to_four_components(void **state)
{
	struct tf_version v;

	(void)state;
	v = parse_ok("acme", "7");
	assert_int_equal(v.n_parts, 1);
	v = parse_ok("acme", "1.2.3.4");
	assert_int_equal(v.n_parts, 4);
	assert_int_equal(v.part[3], 4);
	v = parse_ok(NULL, "4294967295");
	assert_int_equal(v.part[0], 4294967295u);
}

static void test_dotted_rejects_malformed_versions(void **state)
{
	static const char *const bad[] = {
		"",	      "1.2.3.4.5",
		"1..2",	      ".1",
		"1.",	      "1.2a",
		"0x10",	      "1.-2",
		"+1",	      " 1",
		"1 ",	      "1.2.FF",
		"4294967296", "99999999999999999999",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_parse_fails("acme", bad[i]);
}

static void test_dotted_compares_numerically_not_as_strings(void **state)
{
	(void)state;
	assert_true(cmp("acme", "2.10.0", "2.9.9") > 0);
	assert_true(cmp("acme", "1.9", "1.10") < 0);
	assert_true(cmp("acme", "10", "9") > 0);
}

static void test_dotted_missing_components_count_as_zero(void **state)
{
	(void)state;
	assert_int_equal(cmp("acme", "1.2", "1.2.0"), 0);
	assert_true(cmp("acme", "1.2", "1.2.0.1") < 0);
}

static void test_dotted_leading_zeros_mean_the_same_number(void **state)
{
	(void)state;
	assert_int_equal(cmp("acme", "1.02", "1.2"), 0);
	assert_formats_as("acme", "1.02.003", "1.2.3");
}

static void test_different_schemes_order_consistently(void **state)
{
	struct tf_version m = parse_ok("mxt", "1.0.00");
	struct tf_version d = parse_ok("acme", "1.0.0");

	(void)state;
	assert_true(tf_version_cmp(&m, &d) != 0);
	assert_true((tf_version_cmp(&m, &d) > 0) == (tf_version_cmp(&d, &m) < 0));
}

static void test_format_reports_short_buffer(void **state)
{
	struct tf_version v = parse_ok("acme", "4294967295.4294967295");
	char buf[8];

	(void)state;
	assert_int_equal(tf_version_format(&v, buf, sizeof(buf)), -ENAMETOOLONG);
}

static void test_format_rejects_malformed_struct(void **state)
{
	struct tf_version v = { .scheme = &mxt_version_scheme,
				.n_parts = 3,
				.part = { 16, 0, 0 } };
	char buf[TF_VERSION_STR_MAX];

	(void)state;
	assert_int_equal(tf_version_format(&v, buf, sizeof(buf)), -EINVAL);
	v.scheme = &tf_version_dotted;
	v.n_parts = 0;
	assert_int_equal(tf_version_format(&v, buf, sizeof(buf)), -EINVAL);
}

/* A scheme whose order is not numeric by component: the newest build is
 * the one with the lowest number (as some vendors count down). */
static int countdown_cmp(const struct tf_version *a, const struct tf_version *b)
{
	return a->part[0] == b->part[0] ? 0 : a->part[0] > b->part[0] ? -1 : 1;
}

static int countdown_parse(const char *s, struct tf_version *v)
{
	if (tf_version_parse_dec(&s, true, 999, &v->part[0]) < 0 || *s)
		return -EINVAL;
	v->n_parts = 1;
	return 0;
}

static const struct tf_version_scheme countdown = {
	.name = "countdown",
	.syntax = "a build number, newest lowest",
	.parse = countdown_parse,
	.format = NULL,
	.cmp = countdown_cmp,
};

static void test_scheme_cmp_decides_the_order(void **state)
{
	struct tf_version a, b, d;

	(void)state;
	assert_int_equal(tf_version_parse_scheme(&countdown, "7", &a), 0);
	assert_int_equal(tf_version_parse_scheme(&countdown, "12", &b), 0);
	assert_ptr_equal(a.scheme, &countdown);
	assert_true(tf_version_cmp(&a, &b) > 0);
	assert_true(tf_version_cmp(&b, &a) < 0);
	assert_int_equal(tf_version_cmp(&a, &a), 0);
	assert_int_equal(tf_version_parse_scheme(&countdown, "07", &a), -EINVAL);
	/* Across schemes the scheme names order, so sorting stays defined. */
	assert_int_equal(tf_version_parse("nosuchfamily", "1", &d), 0);
	assert_true(tf_version_cmp(&b, &d) < 0); /* "countdown" < "dotted" */
	assert_true(tf_version_cmp(&d, &b) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_family_mxt_uses_mxt_scheme_others_dotted),
		cmocka_unit_test(test_mxt_parses_major_minor_hex_build),
		cmocka_unit_test(test_mxt_accepts_nibble_limits_and_lowercase_build),
		cmocka_unit_test(test_mxt_rejects_malformed_versions),
		cmocka_unit_test(test_mxt_build_compares_as_hex_number),
		cmocka_unit_test(test_mxt_minor_ten_is_newer_than_minor_nine),
		cmocka_unit_test(test_mxt_formats_like_atmel_mxt_ts),
		cmocka_unit_test(test_mxt_from_info_block_bytes),
		cmocka_unit_test(test_dotted_parses_one_to_four_components),
		cmocka_unit_test(test_dotted_rejects_malformed_versions),
		cmocka_unit_test(test_dotted_compares_numerically_not_as_strings),
		cmocka_unit_test(test_dotted_missing_components_count_as_zero),
		cmocka_unit_test(test_dotted_leading_zeros_mean_the_same_number),
		cmocka_unit_test(test_different_schemes_order_consistently),
		cmocka_unit_test(test_format_reports_short_buffer),
		cmocka_unit_test(test_format_rejects_malformed_struct),
		cmocka_unit_test(test_scheme_cmp_decides_the_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
