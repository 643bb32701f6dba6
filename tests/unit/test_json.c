// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The JSON writer behind result files and every `--json` output: commas
 * between members at every depth, escapes for quotes, backslashes and
 * control characters, integers at their limits, and text that stays valid
 * UTF-8 whatever bytes a device name or a chip's answer brought in.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "json.h"

static void test_empty_writer_gives_empty_text(void **state)
{
	struct tf_json j;

	(void)state;
	tf_json_init(&j);
	assert_string_equal(tf_json_text(&j), "");
	tf_json_free(&j);
}

static void test_members_are_separated_by_commas_at_every_depth(void **state)
{
	struct tf_json j;

	(void)state;
	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_string(&j, "device", "3-004a");
	tf_json_begin_object(&j, "chip");
	tf_json_bool(&j, "bootloader", false);
	tf_json_uint(&j, "crc", 0xABCDEF);
	tf_json_end_object(&j);
	tf_json_begin_array(&j, "blobs");
	tf_json_string(&j, NULL, "fw");
	tf_json_begin_object(&j, NULL);
	tf_json_end_object(&j);
	tf_json_begin_array(&j, NULL);
	tf_json_end_array(&j);
	tf_json_end_array(&j);
	tf_json_int(&j, "exit", -3);
	tf_json_end_object(&j);
	assert_string_equal(tf_json_text(&j),
			    "{\"device\":\"3-004a\",\"chip\":{\"bootloader\":false,"
			    "\"crc\":11259375},\"blobs\":[\"fw\",{},[]],\"exit\":-3}");
	tf_json_free(&j);
}

static void test_null_string_value_is_json_null(void **state)
{
	struct tf_json j;

	(void)state;
	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_string(&j, "firmware", NULL);
	tf_json_end_object(&j);
	assert_string_equal(tf_json_text(&j), "{\"firmware\":null}");
	tf_json_free(&j);
}

static void test_quotes_backslashes_and_controls_are_escaped(void **state)
{
	struct tf_json j;

	(void)state;
	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_string(&j, "k\"ey", "a\"b\\c\nd\te\x01\x1f\x7f");
	tf_json_end_object(&j);
	assert_string_equal(tf_json_text(&j), "{\"k\\\"ey\":\"a\\\"b\\\\c\\nd\\u0009e\\u0001"
					      "\\u001f\\u007f\"}");
	tf_json_free(&j);
}

static void test_integers_at_their_limits(void **state)
{
	struct tf_json j;

	(void)state;
	tf_json_init(&j);
	tf_json_begin_array(&j, NULL);
	tf_json_int(&j, NULL, INT64_MIN);
	tf_json_int(&j, NULL, INT64_MAX);
	tf_json_uint(&j, NULL, UINT64_MAX);
	tf_json_end_array(&j);
	assert_string_equal(tf_json_text(&j), "[-9223372036854775808,9223372036854775807,"
					      "18446744073709551615]");
	tf_json_free(&j);
}

static void test_valid_utf8_passes_through(void **state)
{
	struct tf_json j;
	/* é, €, U+1F600: two-, three- and four-byte sequences */
	const char *s = "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";

	(void)state;
	tf_json_init(&j);
	tf_json_string(&j, NULL, s);
	assert_string_equal(tf_json_text(&j), "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
	tf_json_free(&j);
}

static void test_invalid_utf8_becomes_replacement_characters(void **state)
{
	struct tf_json j;

	(void)state;
	tf_json_init(&j);
	tf_json_begin_array(&j, NULL);
	tf_json_string(&j, NULL,
		       "a\xff"
		       "b");		  /* never valid */
	tf_json_string(&j, NULL, "\xc3"); /* truncated at the end */
	tf_json_string(&j, NULL,
		       "\xe2\x82"
		       "x");			      /* truncated mid-string */
	tf_json_string(&j, NULL, "\xc0\xaf");	      /* overlong '/' */
	tf_json_string(&j, NULL, "\xed\xa0\x80");     /* UTF-16 surrogate */
	tf_json_string(&j, NULL, "\xf4\x90\x80\x80"); /* above U+10FFFF */
	tf_json_end_array(&j);
	assert_string_equal(tf_json_text(&j), "[\"a\\ufffdb\",\"\\ufffd\",\"\\ufffd\\ufffdx\","
					      "\"\\ufffd\\ufffd\",\"\\ufffd\\ufffd\\ufffd\","
					      "\"\\ufffd\\ufffd\\ufffd\\ufffd\"]");
	tf_json_free(&j);
}

static void test_long_text_grows_the_buffer(void **state)
{
	struct tf_json j;
	char big[5000];
	const char *t;

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_string(&j, "log", big);
	tf_json_end_object(&j);
	t = tf_json_text(&j);
	assert_non_null(t);
	assert_int_equal(strlen(t), sizeof(big) - 1 + strlen("{\"log\":\"\"}"));
	assert_memory_equal(t, "{\"log\":\"xxx", 11);
	assert_string_equal(t + strlen(t) - 3, "x\"}");
	tf_json_free(&j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_writer_gives_empty_text),
		cmocka_unit_test(test_members_are_separated_by_commas_at_every_depth),
		cmocka_unit_test(test_null_string_value_is_json_null),
		cmocka_unit_test(test_quotes_backslashes_and_controls_are_escaped),
		cmocka_unit_test(test_integers_at_their_limits),
		cmocka_unit_test(test_valid_utf8_passes_through),
		cmocka_unit_test(test_invalid_utf8_becomes_replacement_characters),
		cmocka_unit_test(test_long_text_grows_the_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
