// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * State files in /run/touchfw and /var/lib/touchfw.  Small text files,
 * written to a fresh temporary name, flushed and renamed; opened relative
 * to the checked state directory's fd, never through a symlink, never a
 * FIFO or device node (see state.h).
 */
#include "state.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event.h"
#include "fs.h"

/* Owner and mode of a state directory (@fd), or -EPERM with the reason. */
static int check_dir(int fd, const char *dir, struct tf_err *err)
{
	struct stat sb;

	if (fstat(fd, &sb) < 0)
		return tf_err_set(err, errno, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return tf_err_set(err, ENOTDIR, "%s: not a directory", dir);
	if (sb.st_uid != geteuid())
		return tf_err_set(err, EPERM,
				  "%s: owned by uid %u, not by uid %u that touchfw runs as; "
				  "refusing to use it",
				  dir, (unsigned)sb.st_uid, (unsigned)geteuid());
	if (sb.st_mode & 022)
		return tf_err_set(err, EPERM,
				  "%s: writable by group or others (mode %04o), refusing "
				  "to use it",
				  dir, (unsigned)(sb.st_mode & 07777));
	return 0;
}

/* Open directory @name relative to @atfd, never through a symlink, and
 * check it; @shown is its name in messages. */
static int open_dir_checked(int atfd, const char *name, const char *shown, bool create,
			    struct tf_err *err)
{
	_cleanup_close_ int fd = -1;
	int r;

	if (create && mkdirat(atfd, name, 0700) < 0 && errno != EEXIST)
		return tf_err_set(err, errno, "%s: can not create: %s", shown, strerror(errno));
	fd = openat(atfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		r = errno;
		if (r == ELOOP || r == ENOTDIR) {
			struct stat sb;

			if (fstatat(atfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(sb.st_mode))
				return tf_err_set(err, ELOOP,
						  "%s: a symbolic link, refusing "
						  "to follow it",
						  shown);
		}
		return tf_err_set(err, r, "%s: %s", shown, strerror(r));
	}
	r = check_dir(fd, shown, err);
	if (r < 0)
		return r;
	return tf_take_fd(&fd);
}

int tf_state_open(struct tf_state *st, const char *dir, bool create, struct tf_err *err)
{
	int fd;

	st->dirfd = -1;
	if (strlen(dir) >= sizeof(st->dir))
		return tf_err_set(err, ENAMETOOLONG, "%s: path too long", dir);
	strcpy(st->dir, dir);
	fd = open_dir_checked(AT_FDCWD, dir, dir, create, err);
	if (fd < 0)
		return fd;
	st->dirfd = fd;
	return 0;
}

int tf_state_subdir(int dirfd, const char *dir, const char *name, bool create,
		    struct tf_err *err)
{
	char shown[512];

	tf_snprintf(shown, sizeof(shown), "%s/%s", dir, name);
	return open_dir_checked(dirfd, name, shown, create, err);
}

void tf_state_close(struct tf_state *st)
{
	if (st->dirfd >= 0)
		close(st->dirfd);
	st->dirfd = -1;
}

int tf_state_open_file(int dirfd, const char *dir, const char *name, int flags,
		       struct tf_err *err)
{
	_cleanup_close_ int fd = -1;
	struct stat sb;
	int e;

	fd = openat(dirfd, name, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0) {
		e = errno;
		if (e == ENOENT)
			return -ENOENT; /* callers decide whether that is news */
		if ((e == ELOOP || e == ENXIO || e == EISDIR || e == ENOTDIR) &&
		    fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0)
			return tf_err_set(err, e == ELOOP ? ELOOP : EINVAL,
					  "%s/%s: %s, refusing to use it", dir, name,
					  tf_file_type(sb.st_mode));
		return tf_err_set(err, e, "%s/%s: %s", dir, name, strerror(e));
	}
	if (fstat(fd, &sb) < 0) {
		e = errno;
		return tf_err_set(err, e, "%s/%s: %s", dir, name, strerror(e));
	}
	if (!S_ISREG(sb.st_mode))
		return tf_err_set(err, EINVAL, "%s/%s: %s, refusing to use it", dir, name,
				  tf_file_type(sb.st_mode));
	/* A regular file: blocking I/O from here on. */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return tf_take_fd(&fd);
}

static int name_for(char *buf, size_t size, const char *dev, const char *suffix)
{
	if (!tf_devname_valid(dev))
		return -EINVAL;
	return tf_snprintf(buf, size, "%s.%s", dev, suffix);
}

/*
 * Write @content to @name: tf_replace_at()'s fresh temporary file, flushed
 * to disk, renamed over @name.  A full disk or any other failure leaves
 * @name as it was.
 */
static int write_at(int dirfd, const char *dir, const char *name, const char *content,
		    struct tf_err *err)
{
	return tf_replace_at(dirfd, dir, name, content, strlen(content), 0600, err);
}

/* Read @name (at most 64 KiB: state files are small). */
static int read_at(int dirfd, const char *dir, const char *name, char **out, struct tf_err *err)
{
	_cleanup_close_ int fd = tf_state_open_file(dirfd, dir, name, O_RDONLY, err);
	int r;

	if (fd < 0)
		return fd;
	r = tf_read_fd(fd, 65536, out, NULL);
	if (r < 0)
		return tf_err_set(err, -r, "%s/%s: %s", dir, name,
				  r == -EFBIG ? "larger than 64 KiB, not a touchfw state file"
					      : strerror(-r));
	return 0;
}

int tf_state_lock(struct tf_state *st, const char *dev, bool wait, bool create,
		  struct tf_err *err)
{
	char name[160];
	int fd;

	if (name_for(name, sizeof(name), dev, "lock"))
		return tf_err_set(err, EINVAL, "%s: not a device name", dev);
	fd = tf_state_open_file(st->dirfd, st->dir, name, create ? O_RDWR | O_CREAT : O_RDONLY,
				err);
	if (fd == -ENOENT)
		return tf_err_set(err, ENOENT, "%s/%s: %s", st->dir, name, strerror(ENOENT));
	if (fd < 0)
		return fd;
	if (flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB)) < 0) {
		int e = errno;

		close(fd);
		if (e == EWOULDBLOCK)
			return -EWOULDBLOCK;
		return tf_err_set(err, e, "%s/%s: %s", st->dir, name, strerror(e));
	}
	return fd;
}

int tf_state_locked_by_other(struct tf_state *st, const char *dev, struct tf_err *err)
{
	char name[160];
	int fd, held;

	if (name_for(name, sizeof(name), dev, "lock"))
		return tf_err_set(err, EINVAL, "%s: not a device name", dev);
	fd = tf_state_open_file(st->dirfd, st->dir, name, O_RDONLY, err);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	held = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

bool tf_marker_parse(const char *text, uint64_t *t)
{
	uint64_t v = 0;
	const char *p = text;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '\n')
		p++;
	if (*p)
		return false;
	*t = v;
	return true;
}

/* A time-stamped marker file <dev>.<what>, consumed by whoever reads it. */
static int mark(struct tf_state *st, const char *dev, const char *what, uint64_t now_s)
{
	char name[160], buf[64];

	if (name_for(name, sizeof(name), dev, what))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)now_s);
	return write_at(st->dirfd, st->dir, name, buf, NULL);
}

static int take(struct tf_state *st, const char *dev, const char *what, uint64_t now_s,
		unsigned window_s, struct tf_err *err)
{
	char name[160], *buf = NULL;
	uint64_t t;
	int r;
	bool fresh;

	if (name_for(name, sizeof(name), dev, what))
		return tf_err_set(err, EINVAL, "%s: not a device name", dev);
	r = read_at(st->dirfd, st->dir, name, &buf, err);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	fresh = tf_marker_parse(buf, &t) && t <= now_s + 1 &&
		now_s - (t > now_s ? now_s : t) <= window_s;
	free(buf);
	unlinkat(st->dirfd, name, 0);
	return fresh;
}

int tf_state_mark_own_bind(struct tf_state *st, const char *dev, uint64_t now_s)
{
	return mark(st, dev, "ownbind", now_s);
}

int tf_state_take_own_bind(struct tf_state *st, const char *dev, uint64_t now_s,
			   unsigned window_s, struct tf_err *err)
{
	return take(st, dev, "ownbind", now_s, window_s, err);
}

int tf_state_mark_wait_bind(struct tf_state *st, const char *dev, uint64_t now_s)
{
	return mark(st, dev, "waitbind", now_s);
}

int tf_state_take_wait_bind(struct tf_state *st, const char *dev, uint64_t now_s,
			    unsigned window_s, struct tf_err *err)
{
	return take(st, dev, "waitbind", now_s, window_s, err);
}

/* A decimal field "KEY=N\n" of a state file: strict, no sign, no junk. */
static bool parse_u64_field(const char *v, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t n = 0;
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		unsigned d;

		if (v[i] < '0' || v[i] > '9')
			return false;
		d = (unsigned)(v[i] - '0');
		if (n > (max - d) / 10)
			return false;
		n = n * 10 + d;
	}
	*out = n;
	return true;
}

int tf_attempts_parse(const char *text, struct tf_attempts *a, struct tf_err *err)
{
	const char *line = text;
	bool have_count = false;

	memset(a, 0, sizeof(*a));
	while (*line) {
		size_t len = strcspn(line, "\n");
		const char *eq = memchr(line, '=', len);
		uint64_t v;

		if (!len) {
			line++;
			continue;
		}
		if (!eq)
			return tf_err_set(err, EBADMSG, "line '%.*s' is not KEY=VALUE",
					  (int)(len > 40 ? 40 : len), line);
		if (eq - line == 5 && !strncmp(line, "count", 5)) {
			if (!parse_u64_field(eq + 1, len - 6, UINT32_MAX - 1, &v))
				return tf_err_set(err, EBADMSG,
						  "field count: '%.*s' is not a "
						  "count (0 to %u)",
						  (int)(len - 6 > 40 ? 40 : len - 6), eq + 1,
						  UINT32_MAX - 1);
			a->count = (unsigned)v;
			have_count = true;
		} else if (eq - line == 12 && !strncmp(line, "next_allowed", 12)) {
			if (!parse_u64_field(eq + 1, len - 13, UINT64_MAX, &v))
				return tf_err_set(err, EBADMSG,
						  "field next_allowed: '%.*s' is "
						  "not a time",
						  (int)(len - 13 > 40 ? 40 : len - 13), eq + 1);
			a->next_allowed = v;
		} else if (eq - line == 10 && !strncmp(line, "last_error", 10)) {
			size_t n = len - 11;

			if (n >= sizeof(a->last_error))
				n = sizeof(a->last_error) - 1;
			memcpy(a->last_error, eq + 1, n);
			a->last_error[n] = '\0';
		} else {
			return tf_err_set(err, EBADMSG, "unknown field '%.*s'",
					  (int)(eq - line > 40 ? 40 : eq - line), line);
		}
		line += len;
		if (*line)
			line++;
	}
	if (!have_count)
		return tf_err_set(err, EBADMSG, "field count is missing");
	return 0;
}

int tf_state_read_attempts(struct tf_state *st, const char *dev, struct tf_attempts *a,
			   struct tf_err *err)
{
	char name[160], *buf = NULL;
	int r;

	memset(a, 0, sizeof(*a));
	if (name_for(name, sizeof(name), dev, "attempts"))
		r = tf_err_set(err, EINVAL, "%s: not a device name", dev);
	else
		r = read_at(st->dirfd, st->dir, name, &buf, err);
	if (r == -ENOENT)
		return 0;
	if (r == 0) {
		r = tf_attempts_parse(buf, a, err);
		free(buf);
		if (r == 0)
			return 0;
		tf_err_prefix(err, "%s/%s: corrupt, read as 'at the limit': ", st->dir, name);
	}
	/* Unreadable or corrupt: the safe side is "gave up". */
	memset(a, 0, sizeof(*a));
	a->count = UINT_MAX;
	tf_snprintf(a->last_error, sizeof(a->last_error), "%s",
		    err ? err->msg : "attempts file unusable");
	return r;
}

int tf_state_write_attempts(struct tf_state *st, const char *dev, const struct tf_attempts *a,
			    struct tf_err *err)
{
	char name[160], buf[700], msg[sizeof(a->last_error)];
	size_t i;

	if (name_for(name, sizeof(name), dev, "attempts"))
		return tf_err_set(err, EINVAL, "%s: not a device name", dev);
	snprintf(msg, sizeof(msg), "%s", a->last_error);
	for (i = 0; msg[i]; i++)
		if (msg[i] == '\n')
			msg[i] = ' ';
	snprintf(buf, sizeof(buf), "count=%u\nnext_allowed=%llu\nlast_error=%s\n", a->count,
		 (unsigned long long)a->next_allowed, msg);
	return write_at(st->dirfd, st->dir, name, buf, err);
}

/* Remove DEV.@suffix; one that is not there is removed already. */
static int remove_dev_file(struct tf_state *st, const char *dev, const char *suffix)
{
	char name[160];

	if (name_for(name, sizeof(name), dev, suffix))
		return -EINVAL;
	if (unlinkat(st->dirfd, name, 0) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int tf_state_clear_attempts(struct tf_state *st, const char *dev)
{
	return remove_dev_file(st, dev, "attempts");
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
	snprintf(buf, size, "%llu:%llu:%llu:%lld.%09lld", (unsigned long long)id->dev,
		 (unsigned long long)id->ino, (unsigned long long)id->size,
		 (long long)id->mtime_s, (long long)id->mtime_ns);
}

int tf_state_write_uptodate(struct tf_state *st, const char *dev, const struct tf_file_id *db,
			    const char *input, const char *versions)
{
	char name[160], idbuf[128], buf[512];

	if (name_for(name, sizeof(name), dev, "uptodate"))
		return -EINVAL;
	format_id(idbuf, sizeof(idbuf), db);
	snprintf(buf, sizeof(buf), "db=%s\ninput=%s\nversions=%s\n", idbuf, input,
		 versions ? versions : "");
	return write_at(st->dirfd, st->dir, name, buf, NULL);
}

bool tf_state_is_uptodate(struct tf_state *st, const char *dev, const struct tf_file_id *db,
			  const char *input)
{
	char name[160], idbuf[128], want[240], *buf = NULL;
	bool ok;

	if (name_for(name, sizeof(name), dev, "uptodate"))
		return false;
	if (read_at(st->dirfd, st->dir, name, &buf, NULL) < 0)
		return false;
	format_id(idbuf, sizeof(idbuf), db);
	snprintf(want, sizeof(want), "db=%s\ninput=%s\n", idbuf, input);
	ok = !strncmp(buf, want, strlen(want));
	free(buf);
	return ok;
}

int tf_state_clear_uptodate(struct tf_state *st, const char *dev)
{
	return remove_dev_file(st, dev, "uptodate");
}

int tf_state_write_result(struct tf_state *st, const char *dev, const char *json)
{
	char name[160];

	if (name_for(name, sizeof(name), dev, "json"))
		return -EINVAL;
	return write_at(st->dirfd, st->dir, name, json, NULL);
}

int tf_state_read_result(struct tf_state *st, const char *dev, char **json)
{
	char name[160];

	if (name_for(name, sizeof(name), dev, "json"))
		return -EINVAL;
	return read_at(st->dirfd, st->dir, name, json, NULL);
}

/* ------------------------------------------------------------ persistent */

/* The persistent directory (checked), and with @failed its failed/. */
static int persist_dirfd(const char *persist_dir, bool create, bool failed, struct tf_err *err)
{
	struct tf_state pst;
	int fd, r;

	r = tf_state_open(&pst, persist_dir, create, err);
	if (r < 0)
		return r;
	if (!failed)
		return pst.dirfd;
	fd = tf_state_subdir(pst.dirfd, persist_dir, "failed", create, err);
	tf_state_close(&pst);
	return fd;
}

static bool hex_valid(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return i == 64;
}

int tf_failure_record_parse(const char *text, unsigned *n, char *why, size_t why_size,
			    struct tf_err *err)
{
	const char *line = text;
	bool have = false;

	*n = 0;
	if (why_size)
		why[0] = '\0';
	while (*line) {
		size_t len = strcspn(line, "\n");
		uint64_t v;

		if (len > 9 && !strncmp(line, "failures=", 9)) {
			if (!parse_u64_field(line + 9, len - 9, UINT32_MAX - 1, &v))
				return tf_err_set(err, EBADMSG,
						  "field failures: '%.*s' is not "
						  "a count",
						  (int)(len - 9 > 40 ? 40 : len - 9), line + 9);
			*n = (unsigned)v;
			have = true;
		} else if (len >= 11 && !strncmp(line, "last_error=", 11)) {
			if (why_size)
				tf_snprintf(why, why_size, "%.*s", (int)(len - 11), line + 11);
		} else if (len) {
			return tf_err_set(err, EBADMSG, "unknown line '%.*s'",
					  (int)(len > 40 ? 40 : len), line);
		}
		line += len;
		if (*line)
			line++;
	}
	if (!have)
		return tf_err_set(err, EBADMSG, "field failures is missing");
	return 0;
}

int tf_persist_check(const char *persist_dir, struct tf_err *err)
{
	int fd = persist_dirfd(persist_dir, false, false, err);

	if (fd == -ENOENT) {
		tf_err_clear(err);
		return 0;
	}
	if (fd < 0)
		return fd;
	close(fd);
	fd = persist_dirfd(persist_dir, false, true, err);
	if (fd == -ENOENT) {
		tf_err_clear(err);
		return 0;
	}
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int tf_persist_failures_read(const char *persist_dir, const char *dev, const char *sha256_hex,
			     unsigned *n, char *why, size_t why_size, struct tf_err *err)
{
	char name[300], shown[600], *buf = NULL;
	struct tf_err e = { 0 };
	int fd, r;

	*n = 0;
	if (why_size)
		why[0] = 0;
	if (!tf_devname_valid(dev) || !hex_valid(sha256_hex))
		return 0;
	fd = persist_dirfd(persist_dir, false, true, err);
	if (fd == -ENOENT) {
		tf_err_clear(err);
		return 0;
	}
	if (fd < 0)
		return fd;
	snprintf(name, sizeof(name), "%s.%s", dev, sha256_hex);
	snprintf(shown, sizeof(shown), "%s/failed", persist_dir);
	r = read_at(fd, shown, name, &buf, err);
	close(fd);
	if (r == -ENOENT) {
		tf_err_clear(err);
		return 0;
	}
	if (r < 0)
		return r;
	r = tf_failure_record_parse(buf, n, why, why_size, &e);
	free(buf);
	if (r == 0)
		return 0;
	/* Corrupt: counts as failed too often (the safe side). */
	tf_err_prefix(&e, "%s/%s: corrupt: ", shown, name);
	if (why_size)
		tf_snprintf(why, why_size, "%s", e.msg);
	*n = UINT_MAX;
	return 0;
}

unsigned tf_persist_failures_why(const char *persist_dir, const char *dev,
				 const char *sha256_hex, char *why, size_t why_size)
{
	struct tf_err err = { 0 };
	unsigned n;

	if (tf_persist_failures_read(persist_dir, dev, sha256_hex, &n, why, why_size, &err) ==
	    0)
		return n;
	/* Unusable: counts as failed too often (the safe side). */
	if (why_size)
		tf_snprintf(why, why_size, "%s", err.msg);
	return UINT_MAX;
}

int tf_persist_record_failure(const char *persist_dir, const char *dev, const char *sha256_hex,
			      const char *why, struct tf_err *err)
{
	char name[300], shown[600], buf[700], msg[512];
	unsigned n;
	int fd, r;
	size_t i;

	if (!tf_devname_valid(dev) || !hex_valid(sha256_hex))
		return tf_err_set(err, EINVAL, "%s: not a device name or blob hash", dev);
	n = tf_persist_failures_why(persist_dir, dev, sha256_hex, NULL, 0);
	n = n >= UINT32_MAX - 1 ? UINT32_MAX - 1 : n + 1;
	fd = persist_dirfd(persist_dir, true, true, err);
	if (fd < 0)
		return fd;
	snprintf(name, sizeof(name), "%s.%s", dev, sha256_hex);
	snprintf(shown, sizeof(shown), "%s/failed", persist_dir);
	snprintf(msg, sizeof(msg), "%s", why ? why : "");
	for (i = 0; msg[i]; i++)
		if (msg[i] == '\n')
			msg[i] = ' ';
	snprintf(buf, sizeof(buf), "failures=%u\nlast_error=%s\n", n, msg);
	r = write_at(fd, shown, name, buf, err);
	close(fd);
	return r;
}

/* The failure records' directory for reading; NULL with *@r 0 where there
 * is none, or -errno. */
static DIR *failed_dir(const char *persist_dir, int *r)
{
	int fd = persist_dirfd(persist_dir, false, true, NULL);
	DIR *d;

	*r = 0;
	if (fd < 0) {
		if (fd != -ENOENT)
			*r = fd;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		*r = -errno;
		close(fd);
	}
	return d;
}

/* @dev's failure records: the directory (NULL with *@r as failed_dir()
 * says, or -EINVAL for a bad name) and their names' prefix "DEV.". */
static DIR *dev_failures(const char *persist_dir, const char *dev, char *prefix, size_t size,
			 int *r)
{
	if (!tf_devname_valid(dev)) {
		*r = -EINVAL;
		return NULL;
	}
	snprintf(prefix, size, "%s.", dev);
	return failed_dir(persist_dir, r);
}

int tf_persist_clear(const char *persist_dir, const char *dev)
{
	char prefix[160];
	struct dirent *de;
	DIR *d;
	int n = 0;

	d = dev_failures(persist_dir, dev, prefix, sizeof(prefix), &n);
	if (!d)
		return n;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix)) &&
		    unlinkat(dirfd(d), de->d_name, 0) == 0)
			n++;
	closedir(d);
	return n;
}

int tf_persist_list_failures(const char *persist_dir, const char *dev,
			     struct tf_failure_rec *out, int max)
{
	char prefix[160];
	struct dirent *de;
	DIR *d;
	int n = 0;

	d = dev_failures(persist_dir, dev, prefix, sizeof(prefix), &n);
	if (!d)
		return n;
	while ((de = readdir(d)) && n < max) {
		struct tf_failure_rec *f = &out[n];
		struct stat sb;

		if (strncmp(de->d_name, prefix, strlen(prefix)) ||
		    !hex_valid(de->d_name + strlen(prefix)))
			continue;
		memset(f, 0, sizeof(*f));
		tf_snprintf(f->sha256_hex, sizeof(f->sha256_hex), "%s",
			    de->d_name + strlen(prefix));
		f->failures = tf_persist_failures_why(persist_dir, dev, f->sha256_hex, f->why,
						      sizeof(f->why));
		if (fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0)
			f->mtime = (uint64_t)sb.st_mtime;
		n++;
	}
	closedir(d);
	return n;
}

/* One printable word (@n bytes of @p) into @out of @size. */
static bool word_ok(const char *p, size_t n, size_t size)
{
	size_t i;

	if (!n || n >= size)
		return false;
	for (i = 0; i < n; i++)
		if (p[i] < 0x21 || p[i] > 0x7e)
			return false;
	return true;
}

int tf_hw_hint_parse(const char *text, struct tf_hw_hint *h)
{
	size_t n = strcspn(text, "\n"), i;
	const char *line;

	memset(h, 0, sizeof(*h));
	if (!word_ok(text, n, sizeof(h->hw)))
		return -EBADMSG;
	memcpy(h->hw, text, n);
	/* Older files are the id alone; newer ones say when and from what. */
	for (line = text + n + (text[n] ? 1 : 0); *line; line += n + (line[n] ? 1 : 0)) {
		uint64_t v;

		n = strcspn(line, "\n");
		if (n > 7 && !strncmp(line, "learnt=", 7)) {
			if (!parse_u64_field(line + 7, n - 7, UINT64_MAX, &v) || !v)
				return -EBADMSG;
			h->learnt = v;
		} else if (n > 5 && !strncmp(line, "from=", 5) && n - 5 < sizeof(h->from)) {
			for (i = 5; i < n; i++)
				if (line[i] < 0x20 || line[i] > 0x7e)
					return -EBADMSG;
			memcpy(h->from, line + 5, n - 5);
			h->from[n - 5] = '\0';
		} else {
			return -EBADMSG;
		}
	}
	return 0;
}

int tf_persist_write_hw(const char *persist_dir, const char *dev, const struct tf_hw_hint *h,
			struct tf_err *err)
{
	char name[160], buf[300];
	_cleanup_close_ int fd = -1;

	if (name_for(name, sizeof(name), dev, "hw") || !word_ok(h->hw, strlen(h->hw), 32) ||
	    strchr(h->from, '\n') ||
	    tf_snprintf(buf, sizeof(buf), "%s\nlearnt=%llu\nfrom=%s\n", h->hw,
			(unsigned long long)h->learnt, h->from))
		return tf_err_set(err, EINVAL, "no device name or hardware id");
	fd = persist_dirfd(persist_dir, true, false, err);
	if (fd < 0)
		return fd;
	return write_at(fd, persist_dir, name, buf, err);
}

int tf_persist_read_hw(const char *persist_dir, const char *dev, struct tf_hw_hint *h,
		       struct tf_err *err)
{
	char name[160], *buf = NULL;
	int fd, r;

	memset(h, 0, sizeof(*h));
	if (name_for(name, sizeof(name), dev, "hw"))
		return tf_err_set(err, EINVAL, "not a device name");
	fd = persist_dirfd(persist_dir, false, false, err);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	r = read_at(fd, persist_dir, name, &buf, err);
	close(fd);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	r = tf_hw_hint_parse(buf, h);
	free(buf);
	if (r < 0) {
		memset(h, 0, sizeof(*h));
		return tf_err_set(err, EBADMSG,
				  "%s/%s: not a hardware id and when it was learnt",
				  persist_dir, name);
	}
	return 0;
}

int tf_persist_forget_hw(const char *persist_dir, const char *dev, struct tf_err *err)
{
	char name[160];
	int fd, r = 0;

	if (name_for(name, sizeof(name), dev, "hw"))
		return tf_err_set(err, EINVAL, "not a device name");
	fd = persist_dirfd(persist_dir, false, false, err);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	if (unlinkat(fd, name, 0) < 0 && errno != ENOENT)
		r = tf_err_set(err, errno, "%s/%s: can not remove it: %s", persist_dir, name,
			       strerror(errno));
	close(fd);
	return r;
}

/* ------------------------------------------------------------ history */

static int history_dirfd(const char *persist_dir, bool create, char *shown, size_t size,
			 struct tf_err *err)
{
	int pfd = persist_dirfd(persist_dir, create, false, err), fd;

	if (pfd < 0)
		return pfd;
	tf_snprintf(shown, size, "%s/history", persist_dir);
	fd = tf_state_subdir(pfd, persist_dir, "history", create, err);
	close(pfd);
	return fd;
}

int tf_persist_history_add(const char *persist_dir, const char *dev, const char *json,
			   struct tf_err *err)
{
	char name[160], shown[PATH_MAX], *old = NULL, *text = NULL;
	const char *keep;
	size_t len, lines = 0;
	int fd, r;

	if (name_for(name, sizeof(name), dev, "jsonl") || strchr(json, '\n'))
		return tf_err_set(err, EINVAL, "no device name or not one line");
	fd = history_dirfd(persist_dir, true, shown, sizeof(shown), err);
	if (fd < 0)
		return fd;
	if (read_at(fd, shown, name, &old, NULL) < 0)
		old = NULL; /* none yet, or not one to keep: start again */
	/* the newest TF_HISTORY_KEEP - 1 lines stay */
	keep = old ? old : "";
	len = strlen(keep);
	while (len > 0 && keep[len - 1] != '\n')
		len--; /* a last line cut short is dropped */
	for (size_t i = len; i > 0; i--)
		if (keep[i - 1] == '\n' && ++lines == TF_HISTORY_KEEP) {
			keep += i;
			len -= i;
			break;
		}
	if (asprintf(&text, "%.*s%s\n", (int)len, keep, json) < 0) {
		free(old);
		close(fd);
		return tf_err_set(err, ENOMEM, "out of memory");
	}
	r = write_at(fd, shown, name, text, err);
	free(text);
	free(old);
	close(fd);
	return r;
}

int tf_persist_history_read(const char *persist_dir, const char *dev, char **text,
			    struct tf_err *err)
{
	char name[160], shown[PATH_MAX];
	int fd, r;

	*text = NULL;
	if (name_for(name, sizeof(name), dev, "jsonl"))
		return tf_err_set(err, EINVAL, "not a device name");
	fd = history_dirfd(persist_dir, false, shown, sizeof(shown), err);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	r = read_at(fd, shown, name, text, err);
	close(fd);
	if (r == -ENOENT) {
		*text = NULL;
		return 0;
	}
	return r;
}
