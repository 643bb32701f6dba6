// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Safe file access shared by the agent: opening a regular file below a
 * directory without following any symlink and without leaving the
 * directory (openat2 RESOLVE_BENEATH, or an O_NOFOLLOW walk on kernels
 * and seccomp filters without it), and the one bounded whole-file reader.
 */
#include "fs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util.h"

#if defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define TF_HAVE_OPENAT2_H 1
#endif
#endif
#ifndef TF_HAVE_OPENAT2_H
struct open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS 0x04
#define RESOLVE_BENEATH 0x08
#endif
#ifndef SYS_openat2
#define SYS_openat2 437 /* the same on every architecture but alpha */
#endif

#define PATH_LEN_MAX 255

/* ------------------------------------------------------------ files */

static int open_openat2(int dirfd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)flags,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd;
	int tries = 0;

	/* RESOLVE_BENEATH answers EAGAIN when a rename raced the lookup. */
	do
		fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	while (fd < 0 && (errno == EAGAIN || errno == EINTR) && ++tries < 8);
	return fd < 0 ? -errno : (int)fd;
}

/* O_DIRECTORY | O_NOFOLLOW on a symlink fails with ENOTDIR; report it
 * as openat2's RESOLVE_NO_SYMLINKS does. */
static int walk_error(int dirfd, const char *comp)
{
	int e = errno;
	struct stat st;

	if (e == ENOTDIR && fstatat(dirfd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode))
		return -ELOOP;
	return -e;
}

static int open_walk(int dirfd, const char *path, int flags)
{
	char buf[PATH_LEN_MAX + 1];
	_cleanup_close_ int cur = -1;
	char *comp = buf, *slash;
	int fd;

	if (tf_snprintf(buf, sizeof(buf), "%s", path) < 0)
		return -ENAMETOOLONG;
	while ((slash = strchr(comp, '/'))) {
		*slash = '\0';
		fd = openat(cur >= 0 ? cur : dirfd, comp,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return walk_error(cur >= 0 ? cur : dirfd, comp);
		if (cur >= 0)
			close(cur);
		cur = fd;
		comp = slash + 1;
	}
	fd = openat(cur >= 0 ? cur : dirfd, comp, flags | O_NOFOLLOW);
	return fd < 0 ? -errno : fd;
}

/* Relative, not too long, no "", "." or ".." component. */
static bool path_beneath(const char *path)
{
	const char *c = path, *slash;
	size_t n;

	if (!*path || *path == '/' || strlen(path) > PATH_LEN_MAX)
		return false;
	for (;;) {
		slash = strchr(c, '/');
		n = slash ? (size_t)(slash - c) : strlen(c);
		if (n == 0 || (n == 1 && *c == '.') || (n == 2 && !memcmp(c, "..", 2)))
			return false;
		if (!slash)
			return true;
		c = slash + 1;
	}
}

int tf_open_beneath(int dirfd, const char *path, enum tf_open_method how)
{
	/* O_NONBLOCK: a FIFO planted in the DB must not hang the agent. */
	const int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
	static bool no_openat2;
	struct stat st;
	int fd;

	if (!path_beneath(path))
		return -EINVAL;
	if (how == TF_OPEN_WALK || (how == TF_OPEN_AUTO && no_openat2)) {
		fd = open_walk(dirfd, path, flags);
	} else {
		fd = open_openat2(dirfd, path, flags);
		if (how == TF_OPEN_AUTO && (fd == -ENOSYS || fd == -EPERM)) {
			/* Old kernel (< 5.6) or a seccomp filter. */
			if (fd == -ENOSYS)
				no_openat2 = true;
			fd = open_walk(dirfd, path, flags);
		}
	}
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int tf_read_fd(int fd, size_t max, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap + 1);

	if (!b)
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb;

			if (cap > max) {
				free(b);
				return -EFBIG;
			}
			cap *= 2;
			nb = realloc(b, cap + 1);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			free(b);
			return (int)r;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			free(b);
			return -EFBIG;
		}
	}
	b[n] = '\0';
	*buf = b;
	if (len)
		*len = n;
	return 0;
}

int tf_read_file_at(int dirfd, const char *name, size_t max, char **buf, size_t *len)
{
	_cleanup_close_ int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0)
		return -errno;
	return tf_read_fd(fd, max, buf, len);
}

int tf_read_file(const char *path, size_t max, char **buf, size_t *len)
{
	return tf_read_file_at(AT_FDCWD, path, max, buf, len);
}

/* ------------------------------------------------------------ inputs */

const char *tf_file_type(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device node";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISLNK(m))
		return "a symbolic link";
	return "not a regular file";
}

int tf_open_input(const char *path, struct tf_err *err)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	int flags;

	/* O_NONBLOCK: opening a FIFO with no writer returns at once. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return tf_err_set(err, errno, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0)
		return tf_err_set(err, errno, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return tf_err_set(err, EINVAL, "%s: %s, not a regular file", path,
				  tf_file_type(st.st_mode));
	/* A regular file: blocking reads from here on. */
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	return tf_take_fd(&fd);
}

int tf_read_input(const char *path, size_t max, char **buf, size_t *len, struct tf_err *err)
{
	_cleanup_close_ int fd = tf_open_input(path, err);
	int r;

	if (fd < 0)
		return fd;
	r = tf_read_fd(fd, max, buf, len);
	if (r == -EFBIG)
		return tf_err_set(err, EFBIG, "%s: larger than %zu bytes", path, max);
	if (r < 0)
		return tf_err_set(err, -r, "%s: %s", path, strerror(-r));
	return 0;
}

/* ------------------------------------------------------------ outputs */

int tf_dir_check(int dirfd, const char *dir, struct tf_err *err)
{
	struct stat st;

	if (fstat(dirfd, &st) < 0)
		return tf_err_set(err, errno, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return tf_err_set(err, ENOTDIR, "%s: not a directory", dir);
	if (!(st.st_mode & 022))
		return 0; /* only its owner writes there, whom the file is for */
	if (!(st.st_mode & S_ISVTX))
		return tf_err_set(err, EPERM,
				  "%s: writable by group or others and not sticky (mode %04o); "
				  "refusing to create files in it",
				  dir, (unsigned)(st.st_mode & 07777));
	/* sticky: others can not move what touchfw made -- but its owner
	 * can, so it must be root or touchfw's user, as /tmp is */
	if (st.st_uid != 0 && st.st_uid != geteuid())
		return tf_err_set(err, EPERM,
				  "%s: writable by others (mode %04o) and owned by uid %u, "
				  "neither root nor uid %u that touchfw runs as; refusing to "
				  "create files in it",
				  dir, (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid,
				  (unsigned)geteuid());
	return 0;
}

int tf_dir_open(const char *dir, struct tf_err *err)
{
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return tf_err_set(err, errno, "%s: %s", dir, strerror(errno));
	r = tf_dir_check(fd, dir, err);
	if (r < 0)
		return r;
	return tf_take_fd(&fd);
}

static int write_fully(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Write, set the exact mode (the umask may have taken bits), flush, close. */
static int fill_and_close(int fd, const void *data, size_t len, mode_t mode)
{
	int r = write_fully(fd, data, len);

	if (!r && fchmod(fd, mode) < 0)
		r = -errno;
	if (!r && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && !r)
		r = -errno;
	return r;
}

int tf_create_at(int dirfd, const char *dir, const char *name, const void *data, size_t len,
		 mode_t mode, struct tf_err *err)
{
	int fd, r;

	r = tf_dir_check(dirfd, dir, err);
	if (r < 0)
		return r;
	fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return tf_err_set(err, errno, "%s/%s: %s%s", dir, name, strerror(errno),
				  errno == EEXIST ? " (not overwritten)" : "");
	r = fill_and_close(fd, data, len, mode);
	if (r < 0) {
		unlinkat(dirfd, name, 0);
		return tf_err_set(err, -r, "%s/%s: %s", dir, name, strerror(-r));
	}
	return 0;
}

/* A fresh ".NAME.XXXXXXXXXXXX" below @dirfd: its descriptor, @tmp named. */
static int open_temp(int dirfd, const char *name, char *tmp, size_t size)
{
	static const char al[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	int tries, fd;

	for (tries = 0; tries < 100; tries++) {
		unsigned char rnd[12];
		char suffix[sizeof(rnd) + 1];
		size_t i;

		if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
			/* no entropy yet (early boot): the clock and pid */
			uint64_t v = tf_now_ns() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)tries;

			for (i = 0; i < sizeof(rnd); i++, v = v * 6364136223846793005ull + 1)
				rnd[i] = (unsigned char)(v >> 56);
		}
		for (i = 0; i < sizeof(rnd); i++)
			suffix[i] = al[rnd[i] % (sizeof(al) - 1)];
		suffix[sizeof(rnd)] = '\0';
		if (tf_snprintf(tmp, size, ".%s.%s", name, suffix))
			return -ENAMETOOLONG;
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

int tf_replace_at(int dirfd, const char *dir, const char *name, const void *data, size_t len,
		  mode_t mode, struct tf_err *err)
{
	char tmp[NAME_MAX + 1];
	int fd, r;

	r = tf_dir_check(dirfd, dir, err);
	if (r < 0)
		return r;
	fd = open_temp(dirfd, name, tmp, sizeof(tmp));
	if (fd < 0)
		return tf_err_set(err, -fd, "%s: can not make a temporary file for %s: %s", dir,
				  name, strerror(-fd));
	r = fill_and_close(fd, data, len, mode);
	if (!r && renameat(dirfd, tmp, dirfd, name) < 0)
		r = -errno;
	if (r < 0) {
		unlinkat(dirfd, tmp, 0);
		return tf_err_set(err, -r, "%s/%s: can not write: %s", dir, name, strerror(-r));
	}
	/* the rename itself on disk */
	fsync(dirfd);
	return 0;
}

int tf_replace_file(const char *dir, const char *name, const void *data, size_t len,
		    mode_t mode, struct tf_err *err)
{
	_cleanup_close_ int dfd = tf_dir_open(dir, err);

	if (dfd < 0)
		return dfd;
	return tf_replace_at(dfd, dir, name, data, len, mode, err);
}

int tf_create_path(const char *path, mode_t mode, struct tf_err *err)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	_cleanup_close_ int dfd = -1;
	int fd, r;

	if (!*base)
		return tf_err_set(err, EISDIR, "%s: a directory name, not a file's", path);
	if (!slash)
		r = tf_snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		r = tf_snprintf(dir, sizeof(dir), "/");
	else
		r = tf_snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (r)
		return tf_err_set(err, ENAMETOOLONG, "%s: name too long", path);
	dfd = tf_dir_open(dir, err);
	if (dfd < 0)
		return dfd;
	fd = openat(dfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return tf_err_set(err, errno, "%s: %s%s", path, strerror(errno),
				  errno == EEXIST ? " (not overwritten)" : "");
	if (fchmod(fd, mode) < 0) {
		r = errno;
		close(fd);
		unlinkat(dfd, base, 0);
		return tf_err_set(err, r, "%s: %s", path, strerror(r));
	}
	return fd;
}
