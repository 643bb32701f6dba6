// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * State files in /run/touchfw and /var/lib/touchfw.  Small text files,
 * written to a temporary name and renamed, opened relative to the state
 * directory's fd without following symlinks.
 */
#include "state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event.h"

int tf_state_open(struct tf_state *st, const char *dir, bool create,
		  struct tf_err *err)
{
	struct stat sb;

	st->dirfd = -1;
	if (strlen(dir) >= sizeof(st->dir))
		return tf_err_set(err, ENAMETOOLONG, "%s: path too long", dir);
	strcpy(st->dir, dir);
	if (create && mkdir(dir, 0700) < 0 && errno != EEXIST)
		return tf_err_set(err, errno, "%s: can not create: %s", dir,
				  strerror(errno));
	st->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (st->dirfd < 0)
		return tf_err_set(err, errno, "%s: %s", dir, strerror(errno));
	if (fstat(st->dirfd, &sb) == 0 && (sb.st_mode & 022)) {
		close(st->dirfd);
		st->dirfd = -1;
		return tf_err_set(err, EPERM,
				  "%s: writable by group or others, refusing to use it",
				  dir);
	}
	return 0;
}

void tf_state_close(struct tf_state *st)
{
	if (st->dirfd >= 0)
		close(st->dirfd);
	st->dirfd = -1;
}

static int name_for(char *buf, size_t size, const char *dev, const char *suffix)
{
	if (!tf_devname_valid(dev))
		return -EINVAL;
	return tf_snprintf(buf, size, "%s.%s", dev, suffix);
}

static int write_at(int dirfd, const char *name, const char *content)
{
	char tmp[300];
	size_t len = strlen(content);
	int fd, r = 0;

	if (tf_snprintf(tmp, sizeof(tmp), ".%s.%d.tmp", name, (int)getpid()))
		return -ENAMETOOLONG;
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		    0600);
	if (fd < 0)
		return -errno;
	if (write(fd, content, len) != (ssize_t)len)
		r = errno ? -errno : -EIO;
	if (close(fd) < 0 && !r)
		r = -errno;
	if (!r && renameat(dirfd, tmp, dirfd, name) < 0)
		r = -errno;
	if (r)
		unlinkat(dirfd, tmp, 0);
	return r;
}

static int read_at(int dirfd, const char *name, char **out)
{
	_cleanup_close_ int fd =
		openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	return tf_read_fd(fd, 1 << 20, out, NULL);
}

int tf_state_lock(struct tf_state *st, const char *dev, bool wait)
{
	char name[160];
	int fd;

	if (name_for(name, sizeof(name), dev, "lock"))
		return -EINVAL;
	fd = openat(st->dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) < 0) {
		int e = errno;

		close(fd);
		return e == EWOULDBLOCK ? -EWOULDBLOCK : -e;
	}
	return fd;
}

bool tf_state_locked_by_other(struct tf_state *st, const char *dev)
{
	char name[160];
	int fd;
	bool held;

	if (name_for(name, sizeof(name), dev, "lock"))
		return false;
	fd = openat(st->dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	held = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

/* A time-stamped marker file <dev>.<what>, consumed by whoever reads it. */
static int mark(struct tf_state *st, const char *dev, const char *what, uint64_t now_s)
{
	char name[160], buf[64];

	if (name_for(name, sizeof(name), dev, what))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)now_s);
	return write_at(st->dirfd, name, buf);
}

static bool take(struct tf_state *st, const char *dev, const char *what,
		 uint64_t now_s, unsigned window_s)
{
	char name[160], *buf = NULL;
	unsigned long long t;
	bool fresh;

	if (name_for(name, sizeof(name), dev, what))
		return false;
	if (read_at(st->dirfd, name, &buf) < 0)
		return false;
	fresh = sscanf(buf, "%llu", &t) == 1 && t <= now_s + 1 &&
		now_s - (t > now_s ? now_s : t) <= window_s;
	free(buf);
	unlinkat(st->dirfd, name, 0);
	return fresh;
}

int tf_state_mark_own_bind(struct tf_state *st, const char *dev, uint64_t now_s)
{
	return mark(st, dev, "ownbind", now_s);
}

bool tf_state_take_own_bind(struct tf_state *st, const char *dev,
			    uint64_t now_s, unsigned window_s)
{
	return take(st, dev, "ownbind", now_s, window_s);
}

int tf_state_mark_wait_bind(struct tf_state *st, const char *dev, uint64_t now_s)
{
	return mark(st, dev, "waitbind", now_s);
}

bool tf_state_take_wait_bind(struct tf_state *st, const char *dev,
			     uint64_t now_s, unsigned window_s)
{
	return take(st, dev, "waitbind", now_s, window_s);
}

int tf_state_read_attempts(struct tf_state *st, const char *dev,
			   struct tf_attempts *a)
{
	char name[160], *buf = NULL, *line, *save = NULL;
	int r;

	memset(a, 0, sizeof(*a));
	if (name_for(name, sizeof(name), dev, "attempts"))
		return -EINVAL;
	r = read_at(st->dirfd, name, &buf);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long v;

		if (sscanf(line, "count=%llu", &v) == 1)
			a->count = (unsigned)v;
		else if (sscanf(line, "next_allowed=%llu", &v) == 1)
			a->next_allowed = v;
		else if (!strncmp(line, "last_error=", 11))
			snprintf(a->last_error, sizeof(a->last_error), "%s", line + 11);
	}
	free(buf);
	return 0;
}

int tf_state_write_attempts(struct tf_state *st, const char *dev,
			    const struct tf_attempts *a)
{
	char name[160], buf[700], err[sizeof(a->last_error)];
	size_t i;

	if (name_for(name, sizeof(name), dev, "attempts"))
		return -EINVAL;
	snprintf(err, sizeof(err), "%s", a->last_error);
	for (i = 0; err[i]; i++)
		if (err[i] == '\n')
			err[i] = ' ';
	snprintf(buf, sizeof(buf), "count=%u\nnext_allowed=%llu\nlast_error=%s\n",
		 a->count, (unsigned long long)a->next_allowed, err);
	return write_at(st->dirfd, name, buf);
}

int tf_state_clear_attempts(struct tf_state *st, const char *dev)
{
	char name[160];

	if (name_for(name, sizeof(name), dev, "attempts"))
		return -EINVAL;
	if (unlinkat(st->dirfd, name, 0) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int tf_file_id_get(const char *path, struct tf_file_id *id)
{
	struct stat sb;

	memset(id, 0, sizeof(*id));
	if (stat(path, &sb) < 0)
		return -errno;
	id->dev = sb.st_dev;
	id->ino = sb.st_ino;
	id->size = (uint64_t)sb.st_size;
	id->mtime_s = sb.st_mtim.tv_sec;
	id->mtime_ns = sb.st_mtim.tv_nsec;
	return 0;
}

static void format_id(char *buf, size_t size, const struct tf_file_id *id)
{
	snprintf(buf, size, "%llu:%llu:%llu:%lld.%09lld",
		 (unsigned long long)id->dev, (unsigned long long)id->ino,
		 (unsigned long long)id->size, (long long)id->mtime_s,
		 (long long)id->mtime_ns);
}

int tf_state_write_uptodate(struct tf_state *st, const char *dev,
			    const struct tf_file_id *db, const char *input,
			    const char *versions)
{
	char name[160], idbuf[128], buf[512];

	if (name_for(name, sizeof(name), dev, "uptodate"))
		return -EINVAL;
	format_id(idbuf, sizeof(idbuf), db);
	snprintf(buf, sizeof(buf), "db=%s\ninput=%s\nversions=%s\n", idbuf, input,
		 versions ? versions : "");
	return write_at(st->dirfd, name, buf);
}

bool tf_state_is_uptodate(struct tf_state *st, const char *dev,
			  const struct tf_file_id *db, const char *input)
{
	char name[160], idbuf[128], want[240], *buf = NULL;
	bool ok;

	if (name_for(name, sizeof(name), dev, "uptodate"))
		return false;
	if (read_at(st->dirfd, name, &buf) < 0)
		return false;
	format_id(idbuf, sizeof(idbuf), db);
	snprintf(want, sizeof(want), "db=%s\ninput=%s\n", idbuf, input);
	ok = !strncmp(buf, want, strlen(want));
	free(buf);
	return ok;
}

int tf_state_clear_uptodate(struct tf_state *st, const char *dev)
{
	char name[160];

	if (name_for(name, sizeof(name), dev, "uptodate"))
		return -EINVAL;
	if (unlinkat(st->dirfd, name, 0) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int tf_state_write_result(struct tf_state *st, const char *dev, const char *json)
{
	char name[160];

	if (name_for(name, sizeof(name), dev, "json"))
		return -EINVAL;
	return write_at(st->dirfd, name, json);
}

int tf_state_read_result(struct tf_state *st, const char *dev, char **json)
{
	char name[160];

	if (name_for(name, sizeof(name), dev, "json"))
		return -EINVAL;
	return read_at(st->dirfd, name, json);
}

/* ------------------------------------------------------------ persistent */

static int persist_dirfd(const char *persist_dir, bool create)
{
	int pfd, fd;

	if (create && mkdir(persist_dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	pfd = open(persist_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	if (create && mkdirat(pfd, "failed", 0700) < 0 && errno != EEXIST) {
		int e = errno;

		close(pfd);
		return -e;
	}
	fd = openat(pfd, "failed", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(pfd);
	return fd < 0 ? -errno : fd;
}

static bool hex_valid(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return i == 64;
}

unsigned tf_persist_failures_why(const char *persist_dir, const char *dev,
				 const char *sha256_hex, char *why, size_t why_size)
{
	char name[300], *buf = NULL, *e;
	unsigned n = 0;
	int fd;

	if (why_size)
		why[0] = 0;
	if (!tf_devname_valid(dev) || !hex_valid(sha256_hex))
		return 0;
	fd = persist_dirfd(persist_dir, false);
	if (fd < 0)
		return 0;
	snprintf(name, sizeof(name), "%s.%s", dev, sha256_hex);
	if (read_at(fd, name, &buf) == 0) {
		if (sscanf(buf, "failures=%u", &n) != 1)
			n = 0;
		e = strstr(buf, "\nlast_error=");
		if (e && why_size) {
			e += strlen("\nlast_error=");
			tf_snprintf(why, why_size, "%.*s", (int)strcspn(e, "\n"), e);
		}
		free(buf);
	}
	close(fd);
	return n;
}

unsigned tf_persist_failures(const char *persist_dir, const char *dev,
			     const char *sha256_hex)
{
	return tf_persist_failures_why(persist_dir, dev, sha256_hex, NULL, 0);
}

int tf_persist_record_failure(const char *persist_dir, const char *dev,
			      const char *sha256_hex, const char *why)
{
	char name[300], buf[700];
	unsigned n;
	int fd, r;

	if (!tf_devname_valid(dev) || !hex_valid(sha256_hex))
		return -EINVAL;
	n = tf_persist_failures(persist_dir, dev, sha256_hex) + 1;
	fd = persist_dirfd(persist_dir, true);
	if (fd < 0)
		return fd;
	snprintf(name, sizeof(name), "%s.%s", dev, sha256_hex);
	snprintf(buf, sizeof(buf), "failures=%u\nlast_error=%s\n", n, why ? why : "");
	r = write_at(fd, name, buf);
	close(fd);
	return r;
}

int tf_persist_clear(const char *persist_dir, const char *dev)
{
	char prefix[160];
	struct dirent *de;
	DIR *d;
	int fd;

	if (!tf_devname_valid(dev))
		return -EINVAL;
	fd = persist_dirfd(persist_dir, false);
	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	snprintf(prefix, sizeof(prefix), "%s.", dev);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix)))
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	return 0;
}
