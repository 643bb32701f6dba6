// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fs.c's rules for files touchfw makes and reads for a command (issue 27
 * items 1 and 8), in a private temporary directory: a directory others may
 * write (not sticky) gets nothing; a new file is never made through a
 * planted name, a dangling symlink included; a replacement leaves no
 * temporary and writes through no link planted where a fixed temporary
 * name would be; an input that is a FIFO is refused at once, named.
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

#include "util.h"

static char dir[PATH_MAX];

static int setup(void **state)
{
	const char *t = getenv("TMPDIR");

	(void)state;
	snprintf(dir, sizeof(dir), "%s/touchfw-fs-XXXXXX", t && *t ? t : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	chmod(dir, 0700);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void has(const char *name, const char *text)
{
	char path[PATH_MAX + 64], *buf = NULL;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(tf_read_file(path, 4096, &buf, &n), 0);
	assert_string_equal(buf, text);
	free(buf);
}

/* Entries in dir other than "." and "..". */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_dir_owner_and_mode(void **state)
{
	struct tf_err err = { 0 };
	int fd;

	(void)state;
	fd = tf_dir_open(dir, &err);
	assert_true(fd >= 0);
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(tf_dir_check(fd, dir, &err), -EPERM);
	assert_non_null(
		strstr(err.msg, "writable by group or others and not sticky (mode 0777)"));
	assert_int_equal(tf_replace_at(fd, dir, "x", "1", 1, 0644, &err), -EPERM);
	assert_int_equal(tf_create_at(fd, dir, "x", "1", 1, 0644, &err), -EPERM);
	assert_int_equal(chmod(dir, 0775), 0);
	assert_int_equal(tf_dir_check(fd, dir, &err), -EPERM);
	assert_int_equal(entries(), 0);
	/* sticky, as /tmp */
	assert_int_equal(chmod(dir, 01777), 0);
	assert_int_equal(tf_dir_check(fd, dir, &err), 0);
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(tf_dir_check(fd, dir, &err), 0);
	if (geteuid() == 0) {
		/* another user's: fine while only its owner writes there
		 * (the file is for them), not as a sticky shared one */
		assert_int_equal(chown(dir, 12345, (gid_t)-1), 0);
		assert_int_equal(tf_dir_check(fd, dir, &err), 0);
		assert_int_equal(chmod(dir, 01777), 0);
		assert_int_equal(tf_dir_check(fd, dir, &err), -EPERM);
		assert_non_null(strstr(err.msg, "owned by uid 12345, neither root nor uid 0"));
		assert_int_equal(chmod(dir, 0700), 0);
		assert_int_equal(chown(dir, 0, (gid_t)-1), 0);
	}
	close(fd);
}

static void test_create_never_through_a_planted_name(void **state)
{
	char target[PATH_MAX + 16], link[PATH_MAX + 16];
	struct tf_err err = { 0 };
	struct stat st;
	int fd;

	(void)state;
	fd = tf_dir_open(dir, &err);
	assert_true(fd >= 0);
	/* a dangling symlink: O_CREAT alone would make its target */
	snprintf(target, sizeof(target), "%s/made-elsewhere", dir);
	snprintf(link, sizeof(link), "%s/new", dir);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(tf_create_at(fd, dir, "new", "x", 1, 0644, &err), -EEXIST);
	assert_non_null(strstr(err.msg, "/new: "));
	assert_int_equal(access(target, F_OK), -1);
	assert_int_equal(tf_create_path(link, 0644, &err), -EEXIST);
	assert_int_equal(access(target, F_OK), -1);
	/* a new name: made, with exactly the mode asked for */
	assert_int_equal(tf_create_at(fd, dir, "fresh", "hello", 5, 0640, &err), 0);
	has("fresh", "hello");
	assert_int_equal(fstatat(fd, "fresh", &st, 0), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	close(fd);
}

static void test_replace_leaves_links_and_no_temporary(void **state)
{
	char victim[PATH_MAX + 16], link[PATH_MAX + 32];
	struct tf_err err = { 0 };
	struct stat st;
	int fd;

	(void)state;
	put("victim", "precious\n");
	put("manifest.ini", "old\n");
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	/* where the old fixed temporary name was */
	snprintf(link, sizeof(link), "%s/.manifest.ini.add", dir);
	assert_int_equal(symlink(victim, link), 0);
	fd = tf_dir_open(dir, &err);
	assert_true(fd >= 0);
	assert_int_equal(tf_replace_at(fd, dir, "manifest.ini", "new\n", 4, 0644, &err), 0);
	has("manifest.ini", "new\n");
	has("victim", "precious\n");
	assert_int_equal(fstatat(fd, "manifest.ini", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0644);
	/* victim, the link, manifest.ini: no temporary left */
	assert_int_equal(entries(), 3);
	/* a symlink as the name itself is replaced, not written through */
	assert_int_equal(unlinkat(fd, "manifest.ini", 0), 0);
	assert_int_equal(symlinkat(victim, fd, "manifest.ini"), 0);
	assert_int_equal(tf_replace_file(dir, "manifest.ini", "newer\n", 6, 0644, &err), 0);
	has("victim", "precious\n");
	assert_int_equal(fstatat(fd, "manifest.ini", &st, AT_SYMLINK_NOFOLLOW), 0);
	assert_true(S_ISREG(st.st_mode));
	close(fd);
}

static void test_input_must_be_a_regular_file(void **state)
{
	char fifo[PATH_MAX + 16], *buf = NULL;
	struct tf_err err = { 0 };
	size_t n = 0;

	(void)state;
	snprintf(fifo, sizeof(fifo), "%s/in.fw", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* no writer: a blocking open would never return */
	assert_int_equal(tf_read_input(fifo, 4096, &buf, &n, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "in.fw: a FIFO, not a regular file"));
	assert_int_equal(tf_open_input(dir, &err), -EINVAL);
	assert_non_null(strstr(err.msg, ": a directory, not a regular file"));
	assert_int_equal(tf_open_input("/dev/null", &err), -EINVAL);
	assert_non_null(strstr(err.msg, "/dev/null: a device node"));
	put("ok.fw", "data");
	snprintf(fifo, sizeof(fifo), "%s/ok.fw", dir);
	assert_int_equal(tf_read_input(fifo, 4096, &buf, &n, &err), 0);
	assert_int_equal(n, 4);
	free(buf);
	assert_int_equal(tf_read_input(fifo, 2, &buf, &n, &err), -EFBIG);
	assert_non_null(strstr(err.msg, "ok.fw: larger than 2 bytes"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dir_owner_and_mode, setup, teardown),
		cmocka_unit_test_setup_teardown(test_create_never_through_a_planted_name, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_replace_leaves_links_and_no_temporary,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_input_must_be_a_regular_file, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("fs", tests, NULL, NULL);
}
