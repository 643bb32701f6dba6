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
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
