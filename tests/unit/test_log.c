// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * log.c, the one logging seam: a line names its device once, a caller's
 * own level (the flow's options) can only make it quieter, and a progress
 * line drawn in place is ended before the next log line.  stderr is
 * captured through a pipe.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "log.h"
#include "util.h"

static int saved_fd = -1, pipe_rd = -1;

/* Send stderr into a pipe until captured() returns what was written. */
static void capture(void)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	saved_fd = dup(STDERR_FILENO);
	assert_true(saved_fd >= 0);
	assert_true(dup2(p[1], STDERR_FILENO) >= 0);
	close(p[1]);
	pipe_rd = p[0];
}

static char *captured(void)
{
	static char buf[4096];
	ssize_t n, got = 0;

	assert_true(dup2(saved_fd, STDERR_FILENO) >= 0);
	close(saved_fd);
	while ((n = read(pipe_rd, buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += n;
	close(pipe_rd);
	buf[got] = '\0';
	return buf;
}

static int setup(void **state)
{
	(void)state;
	unsetenv("JOURNAL_STREAM");
	unsetenv("TOUCHFW_LOG_LEVEL");
	tf_log_init("touchfw", NULL);
	tf_log_set_max(TF_LOG_INFO);
	return 0;
}

static void test_line_names_the_device_once(void **state)
{
	(void)state;
	capture();
	tf_log_at(0, TF_LOG_ERR, "3-004a", "frame %d refused", 1);
	tf_log_at(0, TF_LOG_INFO, NULL, "no device");
	assert_string_equal(captured(), "touchfw: 3-004a: frame 1 refused\n"
					"touchfw: no device\n");
}

/* A caller's level only quiets; the global level still rules. */
static void test_caller_level_only_quiets(void **state)
{
	(void)state;
	capture();
	tf_log_at(TF_LOG_QUIET, TF_LOG_ERR, "3-004a", "not shown");
	tf_log_at(TF_LOG_ERR, TF_LOG_INFO, "3-004a", "not shown either");
	tf_log_at(TF_LOG_DEBUG, TF_LOG_DEBUG, "3-004a", "below the global level");
	tf_log_at(TF_LOG_ERR, TF_LOG_ERR, "3-004a", "shown");
	assert_string_equal(captured(), "touchfw: 3-004a: shown\n");
	assert_int_equal(tf_log_get_max(), TF_LOG_INFO);
}

/* A half-drawn bar is ended by the next line; a finished one is not
 * ended twice. */
static void test_partial_line_is_ended_before_the_next(void **state)
{
	(void)state;
	capture();
	tf_log_partial("[#...] %d/%d", 1, 4);
	tf_log_partial("[##..] %d/%d", 2, 4);
	log_err("3-004a", "frame 3 failed");
	tf_log_partial("[####] 4/4\n");
	log_info("3-004a", "done");
	assert_string_equal(captured(),
			    "\r[#...] 1/4\r[##..] 2/4\ntouchfw: 3-004a: frame 3 failed\n"
			    "\r[####] 4/4\ntouchfw: 3-004a: done\n");
}

/* A line below the level does not end the bar (it prints nothing). */
static void test_suppressed_line_leaves_the_bar(void **state)
{
	(void)state;
	capture();
	tf_log_partial("[#...]");
	log_debug("3-004a", "not shown");
	tf_log_partial("[##..]\n");
	assert_string_equal(captured(), "\r[#...]\r[##..]\n");
}

/* What a message quotes from sysfs (an adapter's name with escape
 * sequences, a newline) can not drive the terminal nor forge a line;
 * UTF-8 text stays as it is (issue 27 item 11). */
static void test_control_characters_are_escaped(void **state)
{
	char out[64];

	(void)state;
	capture();
	tf_log_at(0, TF_LOG_ERR, "1-005d", "adapter (%s)",
		  "a\x1b[31mb\n\x07"
		  "c");
	assert_string_equal(captured(), "touchfw: 1-005d: adapter (a\\x1b[31mb\\x0a\\x07c)\n");
	assert_string_equal(tf_escape("Gr\xc3\xbc\xc3\x9f"
				      "e \xe2\x80\x94 ok",
				      out, sizeof(out)),
			    "Gr\xc3\xbc\xc3\x9f"
			    "e \xe2\x80\x94 ok");
	/* C1 CSI as UTF-8, a lone CSI byte, DEL, a cut sequence */
	assert_string_equal(tf_escape("\xc2\x9b"
				      "1m\x9b\x7f\xe2\x80",
				      out, sizeof(out)),
			    "\\xc2\\x9b1m\\x9b\\x7f\\xe2\\x80");
	assert_string_equal(tf_escape_ex("a\"b\\c", true, out, sizeof(out)), "a\\\"b\\\\c");
	/* cut short, never mid-escape */
	assert_string_equal(tf_escape("ab\x1b", out, 5), "ab");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_line_names_the_device_once, setup),
		cmocka_unit_test_setup(test_caller_level_only_quiets, setup),
		cmocka_unit_test_setup(test_partial_line_is_ended_before_the_next, setup),
		cmocka_unit_test_setup(test_suppressed_line_leaves_the_bar, setup),
		cmocka_unit_test_setup(test_control_characters_are_escaped, setup),
	};

	return cmocka_run_group_tests_name("log", tests, NULL, NULL);
}
