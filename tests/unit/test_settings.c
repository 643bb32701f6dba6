// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw.conf (agent/settings.c): the defaults, every key of [touchfw] and
 * [paths] with a good value and its limits, bad values and unknown keys or
 * sections named by file and line, a missing file meaning the defaults, a
 * file that is not a settings file, and the kernel command line's off
 * switch (touchfw.disable, touchfw.disable=1, touchfw=off, and look-alikes
 * that must not switch touchfw off).  Files go to a temporary directory.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "settings.h"

/* ------------------------------------------------------------ helpers */

static int parse(struct tf_settings *s, const char *text, struct tf_err *err)
{
	tf_err_clear(err);
	return tf_settings_parse(s, text, strlen(text), "t.conf", err);
}

static void expect_ok(struct tf_settings *s, const char *text)
{
	struct tf_err err;

	if (parse(s, text, &err) != 0)
		fail_msg("%s: %s", text, err.msg);
}

/* The parse fails with -EINVAL and a message holding @want. */
static void expect_bad(const char *text, const char *want)
{
	struct tf_settings s;
	struct tf_err err;

	assert_int_equal(parse(&s, text, &err), -EINVAL);
	assert_int_equal(err.code, EINVAL);
	if (!strstr(err.msg, want))
		fail_msg("%s: message '%s' lacks '%s'", text, err.msg, want);
}

/* A scratch directory for files, removed by the teardown. */
struct tmp {
	char dir[PATH_MAX];
	char conf[PATH_MAX + 32];
	char cmdline[PATH_MAX + 32];
};

static int setup(void **state)
{
	struct tmp *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	snprintf(t->dir, sizeof(t->dir), "/tmp/touchfw-settings-XXXXXX");
	if (!mkdtemp(t->dir)) {
		free(t);
		return -1;
	}
	snprintf(t->conf, sizeof(t->conf), "%s/touchfw.conf", t->dir);
	snprintf(t->cmdline, sizeof(t->cmdline), "%s/cmdline", t->dir);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tmp *t = *state;

	unlink(t->conf);
	unlink(t->cmdline);
	rmdir(t->dir);
	free(t);
	unsetenv("TOUCHFW_CONFIG");
	return 0;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* ------------------------------------------------------------ defaults */

static void test_defaults(void **state)
{
	struct tf_settings s;

	(void)state;
	tf_settings_defaults(&s);
	assert_true(s.enabled);
	assert_false(s.disabled_by_cmdline);
	assert_false(s.file_found);
	assert_int_equal(s.mode, TF_MODE_UPDATE);
	assert_int_equal(s.handoff, TF_HANDOFF_AUTO);
	assert_int_equal(s.signatures, TF_SIG_OPTIONAL);
	assert_int_equal(s.max_attempts, 3);
	assert_int_equal(s.backoff_s, 30);
	assert_int_equal(s.input_timeout_ms, 10000);
	assert_int_equal(s.flash_timeout_ms, 600000);
	assert_int_equal(s.bind_timeout_ms, 15000);
	assert_int_equal(s.own_bind_window_s, 120);
	assert_string_equal(s.state_dir, TF_RUNSTATEDIR);
	assert_string_equal(s.persist_dir, TF_LOCALSTATEDIR);
	assert_string_equal(s.db_dir, TF_DATADIR "/firmware-db");
	assert_string_equal(s.keys_dir, TF_SYSCONFDIR "/keys");
	assert_int_equal(s.n_boards_dirs, 2);
	assert_string_equal(s.boards_dirs[0], TF_SYSCONFDIR "/boards");
	assert_string_equal(s.boards_dirs[1], TF_DATADIR "/boards");
	assert_int_equal(s.n_firmware_dirs, 4);
	assert_string_equal(s.firmware_dirs[0], "/lib/firmware/updates/%r");
	assert_string_equal(s.firmware_dirs[1], "/lib/firmware/updates");
	assert_string_equal(s.firmware_dirs[2], "/lib/firmware/%r");
	assert_string_equal(s.firmware_dirs[3], "/lib/firmware");
	assert_string_equal(s.firmware_class_path,
			    "/sys/module/firmware_class/parameters/path");
	assert_string_equal(s.cmdline, "/proc/cmdline");
	assert_string_equal(s.agent_unit, "touchfw@");
	assert_string_equal(s.prometheus_dir, ""); /* no textfile unless set */
	assert_false(tf_settings_disabled(&s));
}

static void test_prometheus_dir_is_an_absolute_path(void **state)
{
	struct tf_settings s;

	(void)state;
	expect_ok(&s, "[paths]\nprometheus_dir = /var/lib/prometheus/node-exporter\n");
	assert_string_equal(s.prometheus_dir, "/var/lib/prometheus/node-exporter");
	expect_bad("[paths]\nprometheus_dir = textfile\n",
		   "[paths] prometheus_dir: invalid value 'textfile'");
}

static void test_empty_and_comment_only_text_gives_the_defaults(void **state)
{
	struct tf_settings s, d;

	(void)state;
	tf_settings_defaults(&d);
	expect_ok(&s, "");
	assert_string_equal(s.path, "t.conf");
	assert_int_equal(s.max_attempts, d.max_attempts);
	expect_ok(&s, "# nothing\n; nothing either\n\n[touchfw]\n[paths]\n");
	assert_true(s.enabled);
	assert_int_equal(s.signatures, d.signatures);
	assert_string_equal(s.db_dir, d.db_dir);
}

static void test_comments_blanks_and_byte_order_mark(void **state)
{
	struct tf_settings s;

	(void)state;
	expect_ok(&s, "\xef\xbb\xbf# touchfw.conf\r\n  ; indented comment\n"
		      "\t[touchfw]\t; the section\r\n"
		      "  enabled\t=\tno  ; a comment after a blank\r\n"
		      "[paths] # another\n"
		      "db_dir = /a;b\n"
		      "cmdline=/c # not a comment\n");
	assert_false(s.enabled);
	/* ';' right after a value's text is part of it; '#' never starts an
	 * inline comment */
	assert_string_equal(s.db_dir, "/a;b");
	assert_string_equal(s.cmdline, "/c # not a comment");
	/* an empty value is a value (and here an invalid one) */
	expect_bad("[touchfw]\nmode =   ; nothing\n", "[touchfw] mode: invalid value ''");
}

/* ------------------------------------------------------------ [touchfw] */

static void test_enabled_takes_every_boolean_spelling(void **state)
{
	static const char *const on[] = { "yes", "true", "1", "on" };
	static const char *const off[] = { "no", "false", "0", "off" };
	struct tf_settings s;
	char text[64];
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		snprintf(text, sizeof(text), "[touchfw]\nenabled = %s\n", off[i]);
		expect_ok(&s, text);
		assert_false(s.enabled);
		assert_true(tf_settings_disabled(&s));
		snprintf(text, sizeof(text), "[touchfw]\nenabled = %s\n", on[i]);
		expect_ok(&s, text);
		assert_true(s.enabled);
		assert_false(tf_settings_disabled(&s));
	}
	/* A typo in the off switch must not leave touchfw on silently. */
	expect_bad("[touchfw]\nenabled = nope\n",
		   "t.conf:2: [touchfw] enabled: invalid value 'nope'");
	expect_bad("[touchfw]\nenabled = Yes\n", "t.conf:2:");
	expect_bad("[touchfw]\nenabled =\n", "enabled: invalid value ''");
}

static void test_mode_handoff_and_signatures(void **state)
{
	struct tf_settings s;

	(void)state;
	expect_ok(&s, "[touchfw]\nmode = report-only\nhandoff = systemd\n"
		      "signatures = required\n");
	assert_int_equal(s.mode, TF_MODE_REPORT_ONLY);
	assert_int_equal(s.handoff, TF_HANDOFF_SYSTEMD);
	assert_int_equal(s.signatures, TF_SIG_REQUIRED);
	expect_ok(&s, "[touchfw]\nmode = update\nhandoff = fork\nsignatures = off\n");
	assert_int_equal(s.mode, TF_MODE_UPDATE);
	assert_int_equal(s.handoff, TF_HANDOFF_FORK);
	assert_int_equal(s.signatures, TF_SIG_OFF);
	expect_ok(&s, "[touchfw]\nhandoff = auto\nsignatures = optional\n");
	assert_int_equal(s.handoff, TF_HANDOFF_AUTO);
	assert_int_equal(s.signatures, TF_SIG_OPTIONAL);

	expect_bad("[touchfw]\nmode = flash\n",
		   "t.conf:2: [touchfw] mode: invalid value 'flash'");
	expect_bad("[touchfw]\n\nhandoff = dbus\n",
		   "t.conf:3: [touchfw] handoff: invalid value 'dbus'");
	expect_bad("[touchfw]\nsignatures = maybe\n",
		   "t.conf:2: [touchfw] signatures: invalid value 'maybe'");
}

struct uint_key {
	const char *name;
	unsigned lo, hi;
	size_t offset;
};

#define UKEY(n, l, h)                                     \
	{                                                 \
#n, l, h, offsetof(struct tf_settings, n) \
	}

static const struct uint_key uint_keys[] = {
	UKEY(max_attempts, 1, 100),	     UKEY(backoff_s, 0, 86400),
	UKEY(input_timeout_ms, 100, 600000), UKEY(flash_timeout_ms, 1000, 3600000),
	UKEY(bind_timeout_ms, 100, 600000),  UKEY(own_bind_window_s, 1, 3600),
};

static unsigned uint_of(const struct tf_settings *s, const struct uint_key *k)
{
	unsigned v;

	memcpy(&v, (const char *)s + k->offset, sizeof(v));
	return v;
}

/* Each number takes its limits and refuses one past them and non-numbers. */
static void test_numbers_take_their_limits_and_refuse_beyond(void **state)
{
	struct tf_settings s;
	char text[128], want[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(uint_keys) / sizeof(uint_keys[0]); i++) {
		const struct uint_key *k = &uint_keys[i];

		snprintf(text, sizeof(text), "[touchfw]\n%s = %u\n", k->name, k->lo);
		expect_ok(&s, text);
		assert_int_equal(uint_of(&s, k), k->lo);
		snprintf(text, sizeof(text), "[touchfw]\n%s = %u\n", k->name, k->hi);
		expect_ok(&s, text);
		assert_int_equal(uint_of(&s, k), k->hi);

		snprintf(text, sizeof(text), "[touchfw]\n%s = %u\n", k->name, k->hi + 1);
		snprintf(want, sizeof(want), "t.conf:2: [touchfw] %s: invalid value '%u'",
			 k->name, k->hi + 1);
		expect_bad(text, want);
		if (k->lo > 0) {
			snprintf(text, sizeof(text), "[touchfw]\n%s = %u\n", k->name,
				 k->lo - 1);
			snprintf(want, sizeof(want), "[touchfw] %s: invalid value '%u'",
				 k->name, k->lo - 1);
			expect_bad(text, want);
		}
		snprintf(text, sizeof(text), "[touchfw]\n%s = 12x\n", k->name);
		expect_bad(text, "invalid value '12x'");
		snprintf(text, sizeof(text), "[touchfw]\n%s = -1\n", k->name);
		expect_bad(text, "invalid value '-1'");
	}
}

/* ------------------------------------------------------------ [paths] */

static void test_every_path_key_takes_an_absolute_path(void **state)
{
	struct tf_settings s;

	(void)state;
	expect_ok(&s, "[paths]\n"
		      "state_dir = /s\n"
		      "persist_dir = /p\n"
		      "db_dir = /d\n"
		      "keys_dir = /k\n"
		      "firmware_class_path = /f\n"
		      "cmdline = /c\n");
	assert_string_equal(s.state_dir, "/s");
	assert_string_equal(s.persist_dir, "/p");
	assert_string_equal(s.db_dir, "/d");
	assert_string_equal(s.keys_dir, "/k");
	assert_string_equal(s.firmware_class_path, "/f");
	assert_string_equal(s.cmdline, "/c");

	expect_bad("[paths]\ndb_dir = firmware-db\n",
		   "t.conf:2: [paths] db_dir: invalid value 'firmware-db'");
	expect_bad("[paths]\nkeys_dir = ./keys\n", "[paths] keys_dir: invalid value");
	expect_bad("[paths]\nstate_dir =\n", "[paths] state_dir: invalid value ''");
}

static void test_a_long_path_and_an_overlong_line(void **state)
{
	struct tf_settings s;
	char text[600];

	(void)state;
	/* Lines of up to TF_SETTINGS_LINE_MAX (200) bytes, the newline
	 * included; a path that fits is taken. */
	snprintf(text, sizeof(text), "[paths]\ndb_dir = /%0180d\n", 0);
	expect_ok(&s, text);
	assert_int_equal(strlen(s.db_dir), 181);
	/* A longer line is refused, naming the file and line. */
	snprintf(text, sizeof(text), "[paths]\ndb_dir = /%0255d\n", 0);
	expect_bad(text, "t.conf:2: syntax error: longer than 200 bytes");
	/* the boundary: 199 bytes and the newline; then one more */
	snprintf(text, sizeof(text), "[paths]\ndb_dir = /%0189d\n", 0);
	expect_ok(&s, text);
	snprintf(text, sizeof(text), "[paths]\ndb_dir = /%0190d\n", 0);
	expect_bad(text, "t.conf:2: syntax error: longer than 200 bytes");
	/* the last line needs no newline */
	snprintf(text, sizeof(text), "[paths]\ndb_dir = /%0190d", 0);
	expect_ok(&s, text);
}

static void test_directory_lists(void **state)
{
	struct tf_settings s;
	char text[1024];
	size_t n;
	unsigned i;

	(void)state;
	expect_ok(&s, "[paths]\nboards_dirs = /b1 \t/b2  /b3\nfirmware_dirs = /fw\n");
	assert_int_equal(s.n_boards_dirs, 3);
	assert_string_equal(s.boards_dirs[0], "/b1");
	assert_string_equal(s.boards_dirs[1], "/b2");
	assert_string_equal(s.boards_dirs[2], "/b3");
	assert_int_equal(s.n_firmware_dirs, 1);
	assert_string_equal(s.firmware_dirs[0], "/fw");

	/* At most TF_MAX_DIRS. */
	n = (size_t)snprintf(text, sizeof(text), "[paths]\nfirmware_dirs =");
	for (i = 0; i < TF_MAX_DIRS; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " /d%u", i);
	snprintf(text + n, sizeof(text) - n, "\n");
	expect_ok(&s, text);
	assert_int_equal(s.n_firmware_dirs, TF_MAX_DIRS);
	assert_string_equal(s.firmware_dirs[TF_MAX_DIRS - 1], "/d7");
	snprintf(text + n, sizeof(text) - n, " /one-too-many\n");
	expect_bad(text, "t.conf:2: [paths] firmware_dirs: invalid value");

	expect_bad("[paths]\nboards_dirs = /ok relative\n",
		   "t.conf:2: [paths] boards_dirs: invalid value '/ok relative'");
	expect_bad("[paths]\nboards_dirs =\n", "[paths] boards_dirs: invalid value ''");
}

/* ------------------------------------------------------------ errors */

static void test_unknown_sections_and_keys_name_file_and_line(void **state)
{
	(void)state;
	/* An unknown section is refused at its own line, keys or none. */
	expect_bad("[touchfw]\nenabled = yes\n[general]\nx = 1\n",
		   "t.conf:3: unknown section [general]");
	expect_bad("[touchfw]\n[ touchfw ]\n", "t.conf:2: unknown section [ touchfw ]");
	expect_bad("# comment\n[touchfw]\nenable = no\n",
		   "t.conf:3: [touchfw]: unknown key 'enable'");
	expect_bad("[paths]\n\n\ndbdir = /d\n", "t.conf:4: [paths]: unknown key 'dbdir'");
	/* A key before any section belongs to no known section. */
	expect_bad("enabled = no\n", "t.conf:1: unknown section []");
}

static void test_the_first_error_is_the_one_reported(void **state)
{
	(void)state;
	expect_bad("[touchfw]\nmax_attempts = 0\nmode = bogus\n",
		   "t.conf:2: [touchfw] max_attempts: invalid value '0'");
}

static void test_syntax_errors_and_nul_bytes(void **state)
{
	struct tf_settings s;
	struct tf_err err;
	static const char nul[] = "[touchfw]\nenabled = no\0\n";

	(void)state;
	expect_bad("[touchfw]\nenabled no\n", "t.conf:2: syntax error");
	expect_bad("[touchfw\n", "t.conf:1: syntax error");
	expect_bad("[touchfw] x\n", "t.conf:1: syntax error: a section is \"[name]\"");
	expect_bad("[touchfw]\n= no\n", "t.conf:2: syntax error");
	/* ':' is no separator, and a line is never continued */
	expect_bad("[touchfw]\nenabled: no\n", "t.conf:2: syntax error");
	expect_bad("[paths]\nboards_dirs = /a\n  /b\n", "t.conf:3: syntax error");
	assert_int_equal(tf_settings_parse(&s, nul, sizeof(nul) - 1, "t.conf", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "t.conf: contains a NUL byte"));
}

/* ------------------------------------------------------------ files */

static void test_load_reads_the_file_and_the_kernel_command_line(void **state)
{
	struct tmp *t = *state;
	struct tf_settings s;
	struct tf_err err;
	char text[PATH_MAX + 128];

	snprintf(text, sizeof(text), "[touchfw]\nmax_attempts = 7\n[paths]\ncmdline = %s\n",
		 t->cmdline);
	write_file(t->conf, text);
	write_file(t->cmdline, "BOOT_IMAGE=/vmlinuz root=/dev/sda1 quiet\n");
	assert_int_equal(tf_settings_load(&s, t->conf, &err), 0);
	assert_true(s.file_found);
	assert_string_equal(s.path, t->conf);
	assert_int_equal(s.max_attempts, 7);
	assert_false(s.disabled_by_cmdline);
	assert_false(tf_settings_disabled(&s));

	write_file(t->cmdline, "root=/dev/sda1 touchfw=off quiet\n");
	assert_int_equal(tf_settings_load(&s, t->conf, &err), 0);
	assert_true(s.disabled_by_cmdline);
	assert_true(s.enabled);
	assert_true(tf_settings_disabled(&s));
}

static void test_load_takes_the_environment_when_no_path_is_given(void **state)
{
	struct tmp *t = *state;
	struct tf_settings s;
	struct tf_err err;

	write_file(t->conf, "[touchfw]\nbackoff_s = 5\n");
	setenv("TOUCHFW_CONFIG", t->conf, 1);
	assert_int_equal(tf_settings_load(&s, NULL, &err), 0);
	assert_true(s.file_found);
	assert_string_equal(s.path, t->conf);
	assert_int_equal(s.backoff_s, 5);
}

static void test_a_missing_file_means_the_defaults(void **state)
{
	struct tmp *t = *state;
	struct tf_settings s;
	struct tf_err err;

	assert_int_equal(tf_settings_load(&s, t->conf, &err), 0);
	assert_false(s.file_found);
	assert_string_equal(s.path, t->conf);
	assert_int_equal(s.max_attempts, 3);
	assert_true(s.enabled);
}

static void test_a_bad_file_names_itself(void **state)
{
	struct tmp *t = *state;
	struct tf_settings s;
	struct tf_err err;
	char want[sizeof(((struct tmp *)0)->conf) + 64];

	write_file(t->conf, "[touchfw]\n\nsignatures = strict\n");
	assert_int_equal(tf_settings_load(&s, t->conf, &err), -EINVAL);
	snprintf(want, sizeof(want), "%s:3: [touchfw] signatures: invalid value 'strict'",
		 t->conf);
	assert_string_equal(err.msg, want);

	/* A directory is not a settings file. */
	assert_true(tf_settings_load(&s, t->dir, &err) < 0);
	assert_non_null(strstr(err.msg, t->dir));
}

/* ------------------------------------------------------------ cmdline */

static void test_kernel_command_line_off_switch(void **state)
{
	(void)state;
	assert_true(tf_cmdline_disables("touchfw.disable"));
	assert_true(tf_cmdline_disables("quiet touchfw.disable=1 splash"));
	assert_true(tf_cmdline_disables("root=/dev/sda1 touchfw=off\n"));
	assert_true(tf_cmdline_disables("a\ttouchfw=off\tb"));

	assert_false(tf_cmdline_disables(""));
	assert_false(tf_cmdline_disables(NULL));
	assert_false(tf_cmdline_disables("quiet splash\n"));
	assert_false(tf_cmdline_disables("touchfw.disable=0"));
	assert_false(tf_cmdline_disables("touchfw=on"));
	assert_false(tf_cmdline_disables("touchfw.disabled"));
	assert_false(tf_cmdline_disables("xtouchfw=off"));
	assert_false(tf_cmdline_disables("touchfw=offline"));
	assert_false(tf_cmdline_disables("foo.touchfw.disable"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_empty_and_comment_only_text_gives_the_defaults),
		cmocka_unit_test(test_prometheus_dir_is_an_absolute_path),
		cmocka_unit_test(test_comments_blanks_and_byte_order_mark),
		cmocka_unit_test(test_enabled_takes_every_boolean_spelling),
		cmocka_unit_test(test_mode_handoff_and_signatures),
		cmocka_unit_test(test_numbers_take_their_limits_and_refuse_beyond),
		cmocka_unit_test(test_every_path_key_takes_an_absolute_path),
		cmocka_unit_test(test_a_long_path_and_an_overlong_line),
		cmocka_unit_test(test_directory_lists),
		cmocka_unit_test(test_unknown_sections_and_keys_name_file_and_line),
		cmocka_unit_test(test_the_first_error_is_the_one_reported),
		cmocka_unit_test(test_syntax_errors_and_nul_bytes),
		cmocka_unit_test_setup_teardown(
			test_load_reads_the_file_and_the_kernel_command_line, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_load_takes_the_environment_when_no_path_is_given, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_missing_file_means_the_defaults, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_a_bad_file_names_itself, setup, teardown),
		cmocka_unit_test(test_kernel_command_line_off_switch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
