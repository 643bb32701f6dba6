// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fw-install.c (issue 26 item 8), in a private temporary directory: the
 * file goes to the first loader directory without %r, whole (no temporary
 * left) and recorded with its SHA-256; touchfw replaces only what it
 * recorded, a file it did not write (or a symbolic link) only with
 * --force; forget removes only recorded bytes; a file the loader finds
 * first (firmware_class.path) is named; a name reaching above the
 * directory is refused.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "fs.h"
#include "fw-install.h"
#include "settings.h"
#include "util.h"

static char dir[200];
static struct tf_settings s;
static char msg[1200];

static int setup(void **state)
{
	const char *t = getenv("TMPDIR");
	char p[PATH_MAX + 32];
	FILE *f;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/touchfw-fwi-XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	tf_settings_defaults(&s);
	s.n_firmware_dirs = 2;
	snprintf(s.firmware_dirs[0], sizeof(s.firmware_dirs[0]), "%s/lib/%%r", dir);
	snprintf(s.firmware_dirs[1], sizeof(s.firmware_dirs[1]), "%s/lib", dir);
	snprintf(s.persist_dir, sizeof(s.persist_dir), "%s/persist", dir);
	snprintf(s.firmware_class_path, sizeof(s.firmware_class_path), "%s/param", dir);
	snprintf(p, sizeof(p), "%s/param", dir);
	f = fopen(p, "w");
	if (!f)
		return -1;
	fputs("\n", f);
	return fclose(f);
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const uint8_t A[] = "program A", B[] = "program B";

static int install(const uint8_t *data, size_t len, bool force)
{
	struct tf_err err = { 0 };
	int r = tf_fw_install(&s, "i2c-X:00", "vendor/x.fw", "blob-1", data, len, force, msg,
			      sizeof(msg), &err);

	if (r < 0)
		snprintf(msg, sizeof(msg), "%s", err.msg);
	return r;
}

/* The file at @rel below the directory holds @text. */
static void holds(const char *rel, const void *text, size_t len)
{
	char p[PATH_MAX + 64], *buf = NULL;
	size_t n = 0;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	assert_int_equal(tf_read_file(p, 4096, &buf, &n), 0);
	assert_int_equal(n, len);
	assert_memory_equal(buf, text, len);
	free(buf);
}

static void put(const char *rel, const char *text)
{
	char p[PATH_MAX + 64], cmd[2 * PATH_MAX];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	assert_int_equal(system(cmd), 0);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static bool exists(const char *rel)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	return access(p, F_OK) == 0;
}

static unsigned entries(const char *rel)
{
	char p[PATH_MAX + 64];
	struct dirent *e;
	unsigned n = 0;
	DIR *d;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	d = opendir(p);
	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void test_installs_records_and_replaces_its_own(void **state)
{
	char *rec = NULL, p[PATH_MAX + 64];

	(void)state;
	assert_int_equal(install(A, sizeof(A), false), 0);
	assert_non_null(strstr(msg, "installed blob-1 as "));
	/* the first directory without %r, the name's subdirectory made */
	holds("lib/vendor/x.fw", A, sizeof(A));
	assert_int_equal(entries("lib/vendor"), 1); /* no temporary left */
	snprintf(p, sizeof(p), "%s/persist/installed/i2c-X:00", dir);
	assert_int_equal(tf_read_file(p, 4096, &rec, NULL), 0);
	assert_non_null(strstr(rec, "/lib/vendor/x.fw\nsha256 = "));
	assert_non_null(strstr(rec, "blob = blob-1\n"));
	free(rec);
	/* the same bytes again: nothing to write */
	assert_int_equal(install(A, sizeof(A), false), 0);
	assert_non_null(strstr(msg, "holds blob-1 already"));
	/* other bytes over its own file: replaced without --force */
	assert_int_equal(install(B, sizeof(B), false), 0);
	holds("lib/vendor/x.fw", B, sizeof(B));
	assert_int_equal(entries("lib/vendor"), 1);
}

static void test_a_file_touchfw_did_not_write_needs_force(void **state)
{
	(void)state;
	put("lib/vendor/x.fw", "the package's");
	assert_int_equal(install(A, sizeof(A), false), 1);
	assert_non_null(strstr(msg, "exists and touchfw did not write it (touchfw has no "
				    "record of it): left alone"));
	assert_non_null(strstr(msg, "'touchfw run --force i2c-X:00' replaces it"));
	holds("lib/vendor/x.fw", "the package's", 13);
	assert_false(exists("persist/installed/i2c-X:00"));
	assert_int_equal(install(A, sizeof(A), true), 0);
	assert_non_null(strstr(msg, "over a file touchfw did not write (--force)"));
	holds("lib/vendor/x.fw", A, sizeof(A));
	/* its own file changed by someone since: not its own any more */
	put("lib/vendor/x.fw", "edited");
	assert_int_equal(install(B, sizeof(B), false), 1);
	assert_non_null(strstr(msg, "other bytes than touchfw recorded"));
	holds("lib/vendor/x.fw", "edited", 6);
}

static void test_a_symbolic_link_is_not_written_through(void **state)
{
	char target[PATH_MAX + 64], link[PATH_MAX + 64];

	(void)state;
	put("elsewhere", "not firmware");
	put("lib/vendor/placeholder", "");
	snprintf(target, sizeof(target), "%s/elsewhere", dir);
	snprintf(link, sizeof(link), "%s/lib/vendor/x.fw", dir);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(install(A, sizeof(A), false), 1);
	assert_non_null(strstr(msg, "(a symbolic link)"));
	assert_int_equal(install(A, sizeof(A), true), 0);
	holds("elsewhere", "not firmware", 12);
	holds("lib/vendor/x.fw", A, sizeof(A));
}

static void test_forget_removes_only_the_recorded_bytes(void **state)
{
	char p[PATH_MAX + 64];

	(void)state;
	snprintf(p, sizeof(p), "%s/persist", dir);
	assert_int_equal(install(A, sizeof(A), false), 0);
	assert_int_equal(tf_fw_install_forget(p, "i2c-X:00", msg, sizeof(msg)), 1);
	assert_non_null(strstr(msg, "the firmware file touchfw installed"));
	assert_false(exists("lib/vendor/x.fw"));
	assert_false(exists("persist/installed/i2c-X:00"));
	assert_int_equal(tf_fw_install_forget(p, "i2c-X:00", msg, sizeof(msg)), 0);
	/* changed since: the file stays, the record goes */
	assert_int_equal(install(A, sizeof(A), false), 0);
	put("lib/vendor/x.fw", "edited");
	assert_int_equal(tf_fw_install_forget(p, "i2c-X:00", msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "its bytes changed since touchfw wrote it"));
	holds("lib/vendor/x.fw", "edited", 6);
	assert_false(exists("persist/installed/i2c-X:00"));
}

static void test_a_file_the_loader_finds_first_is_named(void **state)
{
	char p[PATH_MAX + 64];
	FILE *f;

	(void)state;
	put("custom/vendor/x.fw", "first in the path");
	snprintf(p, sizeof(p), "%s/param", dir);
	f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "%s/custom\n", dir);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(install(A, sizeof(A), false), 1);
	assert_non_null(strstr(msg, "installed blob-1 as "));
	assert_non_null(strstr(msg, "custom/vendor/x.fw first, which is not blob-1"));
	holds("lib/vendor/x.fw", A, sizeof(A));
}

static void test_a_name_above_the_directory_is_refused(void **state)
{
	struct tf_err err = { 0 };

	(void)state;
	assert_int_equal(tf_fw_install(&s, "i2c-X:00", "../x.fw", "b", A, sizeof(A), true, msg,
				       sizeof(msg), &err),
			 -EINVAL);
	assert_int_equal(tf_fw_install(&s, "i2c-X:00", "v/../../x.fw", "b", A, sizeof(A), true,
				       msg, sizeof(msg), &err),
			 -EINVAL);
	assert_false(exists("x.fw"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_installs_records_and_replaces_its_own,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_file_touchfw_did_not_write_needs_force,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_symbolic_link_is_not_written_through,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_forget_removes_only_the_recorded_bytes,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_file_the_loader_finds_first_is_named,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_name_above_the_directory_is_refused,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
