// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Firmware staging (see device.h): finding a firmware file where the
 * kernel's firmware loader looks (firmware_class.path first, then
 * /lib/firmware), and staging a file for the driver's request under the
 * state directory by pointing firmware_class.path at it, written without a
 * trailing newline (Linux 6.1 keeps it), and putting it back afterwards or
 * after a killed run.
 */
#include "device.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "state.h"

/*
 * The value firmware_class.path had before touchfw pointed it at its
 * staging directory, kept in that directory (a dot name, which the repair
 * never takes for a staged file) before the parameter is written: a run
 * killed mid-update leaves it for the next start to restore, so a
 * distribution's own loader path is not lost.
 */
#define SAVED_PATH ".firmware_class.path"

/* Strip trailing slashes (and the newline tf_read_attr left). */
static void trim_dir(char *s)
{
	size_t l = strlen(s);

	while (l > 1 && s[l - 1] == '/')
		s[--l] = '\0';
}

/* The recorded value in @dfd (@dir for messages): 0, -ENOENT or -errno. */
static int read_saved(int dfd, const char *dir, char *out, size_t size)
{
	_cleanup_close_ int fd = tf_state_open_file(dfd, dir, SAVED_PATH, O_RDONLY, NULL);
	char *buf = NULL;
	int r;

	if (fd < 0)
		return fd;
	r = tf_read_fd(fd, 4096, &buf, NULL);
	if (r < 0)
		return r;
	buf[strcspn(buf, "\n")] = '\0';
	r = tf_snprintf(out, size, "%s", buf) ? -ENAMETOOLONG : 0;
	free(buf);
	return r;
}

static void expand_release(const char *in, char *out, size_t size)
{
	struct utsname u;
	const char *p = strstr(in, "%r");

	if (!p || uname(&u) < 0) {
		tf_snprintf(out, size, "%s", in);
		return;
	}
	tf_snprintf(out, size, "%.*s%s%s", (int)(p - in), in, u.release, p + 2);
}

int tf_firmware_find(const char (*dirs)[256], unsigned n, const char *class_param,
		     const char *name, char *out, size_t size)
{
	char custom[256] = "", dir[512];
	struct stat sb;
	unsigned i;

	/* firmware_class.path first, as the kernel searches it first. */
	if (class_param && tf_read_attr(class_param, custom, sizeof(custom)) == 0 &&
	    custom[0]) {
		if (tf_snprintf(out, size, "%s/%s", custom, name) == 0 && stat(out, &sb) == 0 &&
		    S_ISREG(sb.st_mode))
			return 0;
	}
	for (i = 0; i < n; i++) {
		expand_release(dirs[i], dir, sizeof(dir));
		if (tf_snprintf(out, size, "%s/%s", dir, name) == 0 && stat(out, &sb) == 0 &&
		    S_ISREG(sb.st_mode))
			return 0;
	}
	return -ENOENT;
}

int tf_fw_stage(struct tf_fw_stage *st, const char *param, const char *state_dir,
		const char *dev, const char *name, const uint8_t *data, size_t len,
		struct tf_err *err)
{
	_cleanup_(tf_state_close) struct tf_state sd = { .dirfd = -1 };
	size_t done = 0;
	int fd, r;

	memset(st, 0, sizeof(*st));
	st->lock_fd = st->dir_fd = st->sub_fd = -1;
	tf_snprintf(st->param, sizeof(st->param), "%s", param);
	if (tf_snprintf(st->dir, sizeof(st->dir), "%s/firmware", state_dir) ||
	    tf_snprintf(st->name, sizeof(st->name), "%s", name) ||
	    tf_snprintf(st->file, sizeof(st->file), "%s/%s", st->dir, name))
		return tf_err_set(err, ENAMETOOLONG, "state directory path too long");
	/* The state directory and its firmware/ are checked like every state
	 * file's (state.h): a symlink planted there must not make touchfw
	 * write or unlink firmware files elsewhere. */
	r = tf_state_open(&sd, state_dir, true, err);
	if (r < 0) {
		st->state_unusable = true;
		return r;
	}
	/* One staged update at a time: the search path is global. */
	st->lock_fd = tf_state_open_file(sd.dirfd, state_dir, "firmware_class.lock",
					 O_RDWR | O_CREAT, err);
	if (st->lock_fd >= 0 && flock(st->lock_fd, LOCK_EX) < 0) {
		r = -errno;
		tf_fw_unstage(st);
		st->state_unusable = true;
		return tf_err_set(err, -r, "%s/firmware_class.lock: %s", state_dir,
				  strerror(-r));
	}
	if (st->lock_fd < 0) {
		r = st->lock_fd;
		tf_fw_unstage(st);
		st->state_unusable = true;
		return r;
	}
	st->dir_fd = tf_state_subdir(sd.dirfd, state_dir, "firmware", true, err);
	tf_state_close(&sd);
	if (st->dir_fd < 0) {
		r = st->dir_fd;
		tf_fw_unstage(st);
		st->state_unusable = true;
		return r;
	}
	if (tf_read_attr(param, st->saved, sizeof(st->saved)) < 0) {
		tf_fw_unstage(st);
		return tf_err_set(err, ENOENT,
				  "%s: can not read the firmware search path "
				  "(kernel without firmware_class?)",
				  param);
	}
	{
		/* Still ours (a killed run the repair has not seen): the
		 * value recorded then is the one to put back. */
		char cur[sizeof(st->saved)];

		tf_snprintf(cur, sizeof(cur), "%s", st->saved);
		trim_dir(cur);
		if (!strcmp(cur, st->dir) &&
		    read_saved(st->dir_fd, st->dir, st->saved, sizeof(st->saved)) < 0)
			st->saved[0] = '\0';
	}
	(void)dev;
	/* Drivers request names with one directory ("vendor/file.fw"): that
	 * subdirectory is made in touchfw's directory, checked likewise. */
	st->base = strrchr(st->name, '/');
	if (st->base) {
		char sub[128];

		tf_snprintf(sub, sizeof(sub), "%.*s", (int)(st->base - st->name), st->name);
		st->base++;
		if (!sub[0] || strchr(sub, '/') || !strcmp(sub, ".") || !strcmp(sub, "..") ||
		    !st->base[0] || !strcmp(st->base, "..")) {
			tf_fw_unstage(st);
			return tf_err_set(err, EINVAL,
					  "'%s': not a file name with at most one "
					  "directory",
					  name);
		}
		st->sub_fd = tf_state_subdir(st->dir_fd, st->dir, sub, true, err);
		if (st->sub_fd < 0) {
			r = st->sub_fd;
			tf_fw_unstage(st);
			st->state_unusable = true;
			return r;
		}
	} else {
		st->base = st->name;
	}
	unlinkat(st->sub_fd >= 0 ? st->sub_fd : st->dir_fd, st->base, 0);
	fd = tf_state_open_file(st->sub_fd >= 0 ? st->sub_fd : st->dir_fd, st->dir, st->base,
				O_WRONLY | O_CREAT | O_EXCL, err);
	if (fd < 0) {
		tf_fw_unstage(st);
		st->state_unusable = true;
		return fd;
	}
	r = 0;
	while (done < len && !r) {
		ssize_t w = write(fd, data + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			r = w < 0 ? errno : EIO;
		else
			done += (size_t)w;
	}
	if (close(fd) < 0 && !r)
		r = errno;
	if (r) {
		unlinkat(st->sub_fd >= 0 ? st->sub_fd : st->dir_fd, st->base, 0);
		tf_fw_unstage(st);
		st->state_unusable = true;
		return tf_err_set(err, r, "%s: %s", st->file, strerror(r));
	}
	/* The old value on disk before the parameter changes (SAVED_PATH). */
	{
		char rec[sizeof(st->saved) + 1];

		snprintf(rec, sizeof(rec), "%s\n", st->saved);
		r = tf_replace_at(st->dir_fd, st->dir, SAVED_PATH, rec, strlen(rec), 0600, err);
		if (r < 0) {
			unlinkat(st->sub_fd >= 0 ? st->sub_fd : st->dir_fd, st->base, 0);
			tf_fw_unstage(st);
			return r;
		}
	}
	r = tf_write_attr(param, st->dir);
	if (r < 0) {
		unlinkat(st->sub_fd >= 0 ? st->sub_fd : st->dir_fd, st->base, 0);
		unlinkat(st->dir_fd, SAVED_PATH, 0);
		tf_fw_unstage(st);
		return tf_err_set(err, -r, "%s: %s", param, strerror(-r));
	}
	st->active = true;
	return 0;
}

/* tf_fw_repair's removal of stale files staged in @dir/@sub; how many. */
static int repair_subdir(int dfd, const char *dir, const char *sub, char *what, size_t size,
			 size_t *used, int n0)
{
	int fd = openat(dfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), n = 0;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((e = readdir(d))) {
		struct stat sb;

		if (e->d_name[0] == '.' ||
		    fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0 ||
		    S_ISDIR(sb.st_mode) || unlinkat(dirfd(d), e->d_name, 0) < 0)
			continue;
		if (*used < size)
			*used += (size_t)snprintf(what + *used, size - *used,
						  "%sremoved the stale %s/%s/%s",
						  n0 + n ? "; " : "", dir, sub, e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

int tf_fw_repair(const char *param, const char *state_dir, char *what, size_t size)
{
	_cleanup_(tf_state_close) struct tf_state sd = { .dirfd = -1 };
	_cleanup_close_ int lock_fd = -1;
	char dir[300], cur[300];
	int dfd, n = 0;
	size_t used = 0;
	DIR *d;

	what[0] = '\0';
	if (tf_snprintf(dir, sizeof(dir), "%s/firmware", state_dir))
		return 0;
	if (tf_state_open(&sd, state_dir, false, NULL) < 0)
		return 0;
	lock_fd = tf_state_open_file(sd.dirfd, state_dir, "firmware_class.lock",
				     O_RDWR | O_CREAT, NULL);
	/* Held: another run is staging right now; nothing is stale. */
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) < 0)
		return 0;
	dfd = tf_state_subdir(sd.dirfd, state_dir, "firmware", false, NULL);
	if (tf_read_attr(param, cur, sizeof(cur)) == 0) {
		char saved[256] = "";

		trim_dir(cur);
		/* The value recorded before the parameter was pointed here
		 * (none: a run from before the record, reset to empty). */
		if (!strcmp(cur, dir) && dfd >= 0 &&
		    read_saved(dfd, dir, saved, sizeof(saved)) < 0)
			saved[0] = '\0';
		if (!strcmp(cur, dir) && tf_write_attr(param, saved[0] ? saved : "\n") == 0) {
			if (saved[0])
				used += (size_t)snprintf(what, size,
							 "%s pointed at %s: restored to %s",
							 param, dir, saved);
			else
				used += (size_t)snprintf(what, size,
							 "%s pointed at %s: reset to empty",
							 param, dir);
			n++;
		}
	}
	/* The record goes once the parameter is not ours (any more). */
	if (dfd >= 0 && tf_read_attr(param, cur, sizeof(cur)) == 0) {
		trim_dir(cur);
		if (strcmp(cur, dir))
			unlinkat(dfd, SAVED_PATH, 0);
	}
	d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d && dfd >= 0)
		close(dfd);
	if (d) {
		struct dirent *e;

		while ((e = readdir(d))) {
			struct stat sb;

			if (e->d_name[0] == '.' ||
			    fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			if (S_ISDIR(sb.st_mode)) {
				/* a staged "vendor/file": files one level down */
				n += repair_subdir(dirfd(d), dir, e->d_name, what, size, &used,
						   n);
				continue;
			}
			if (unlinkat(dirfd(d), e->d_name, 0) < 0)
				continue;
			if (used < size)
				used += (size_t)snprintf(what + used, size - used,
							 "%sremoved the stale %s/%s",
							 n ? "; " : "", dir, e->d_name);
			n++;
		}
		closedir(d);
	}
	return n;
}

void tf_fw_unstage(struct tf_fw_stage *st)
{
	if (st->active) {
		/* An empty string can not be written to a sysfs parameter;
		 * a single newline resets firmware_class.path to empty. */
		if (tf_write_attr(st->param, st->saved[0] ? st->saved : "\n") == 0)
			unlinkat(st->dir_fd, SAVED_PATH, 0);
		unlinkat(st->sub_fd >= 0 ? st->sub_fd : st->dir_fd, st->base, 0);
		st->active = false;
	}
	if (st->sub_fd >= 0)
		close(st->sub_fd);
	if (st->dir_fd >= 0)
		close(st->dir_fd);
	if (st->lock_fd >= 0)
		close(st->lock_fd);
	st->lock_fd = st->dir_fd = st->sub_fd = -1;
}
