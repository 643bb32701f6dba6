// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * State files: the checked state directories and the files in them, and
 * the records in /run/touchfw (locks, markers, attempts, up to date, the
 * last result).  Small text files, written to a fresh temporary name,
 * flushed and renamed; opened relative to the checked state directory's
 * fd, never through a symlink, never a FIFO or device node (see state.h).
 * What survives a reboot, in /var/lib/touchfw, is state-persist.c's.
 */
#include "state.h"
#include "state-priv.h"

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

int state_name_for(char *buf, size_t size, const char *dev, const char *suffix)
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
int state_write_at(int dirfd, const char *dir, const char *name, const char *content,
		   struct tf_err *err)
{
	return tf_replace_at(dirfd, dir, name, content, strlen(content), 0600, err);
}

/* Read @name (at most 64 KiB: state files are small). */
int state_read_at(int dirfd, const char *dir, const char *name, char **out, struct tf_err *err)
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

	if (state_name_for(name, sizeof(name), dev, "lock"))
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

	if (state_name_for(name, sizeof(name), dev, "lock"))
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

	if (state_name_for(name, sizeof(name), dev, what))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)now_s);
	return state_write_at(st->dirfd, st->dir, name, buf, NULL);
}

static int take(struct tf_state *st, const char *dev, const char *what, uint64_t now_s,
		unsigned window_s, struct tf_err *err)
{
	char name[160], *buf = NULL;
	uint64_t t;
	int r;
	bool fresh;

	if (state_name_for(name, sizeof(name), dev, what))
		return tf_err_set(err, EINVAL, "%s: not a device name", dev);
	r = state_read_at(st->dirfd, st->dir, name, &buf, err);
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
bool state_parse_u64_field(const char *v, size_t len, uint64_t max, uint64_t *out)
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
			if (!state_parse_u64_field(eq + 1, len - 6, UINT32_MAX - 1, &v))
				return tf_err_set(err, EBADMSG,
						  "field count: '%.*s' is not a "
						  "count (0 to %u)",
						  (int)(len - 6 > 40 ? 40 : len - 6), eq + 1,
						  UINT32_MAX - 1);
			a->count = (unsigned)v;
			have_count = true;
		} else if (eq - line == 12 && !strncmp(line, "next_allowed", 12)) {
			if (!state_parse_u64_field(eq + 1, len - 13, UINT64_MAX, &v))
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
	if (state_name_for(name, sizeof(name), dev, "attempts"))
		r = tf_err_set(err, EINVAL, "%s: not a device name", dev);
	else
		r = state_read_at(st->dirfd, st->dir, name, &buf, err);
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

	if (state_name_for(name, sizeof(name), dev, "attempts"))
		return tf_err_set(err, EINVAL, "%s: not a device name", dev);
	snprintf(msg, sizeof(msg), "%s", a->last_error);
	for (i = 0; msg[i]; i++)
		if (msg[i] == '\n')
			msg[i] = ' ';
	snprintf(buf, sizeof(buf), "count=%u\nnext_allowed=%llu\nlast_error=%s\n", a->count,
		 (unsigned long long)a->next_allowed, msg);
	return state_write_at(st->dirfd, st->dir, name, buf, err);
}

/* Remove DEV.@suffix; one that is not there is removed already. */
static int remove_dev_file(struct tf_state *st, const char *dev, const char *suffix)
{
	char name[160];

	if (state_name_for(name, sizeof(name), dev, suffix))
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

	if (state_name_for(name, sizeof(name), dev, "uptodate"))
		return -EINVAL;
	format_id(idbuf, sizeof(idbuf), db);
	snprintf(buf, sizeof(buf), "db=%s\ninput=%s\nversions=%s\n", idbuf, input,
		 versions ? versions : "");
	return state_write_at(st->dirfd, st->dir, name, buf, NULL);
}

bool tf_state_is_uptodate(struct tf_state *st, const char *dev, const struct tf_file_id *db,
			  const char *input)
{
	char name[160], idbuf[128], want[240], *buf = NULL;
	bool ok;

	if (state_name_for(name, sizeof(name), dev, "uptodate"))
		return false;
	if (state_read_at(st->dirfd, st->dir, name, &buf, NULL) < 0)
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

	if (state_name_for(name, sizeof(name), dev, "json"))
		return -EINVAL;
	return state_write_at(st->dirfd, st->dir, name, json, NULL);
}

int tf_state_read_result(struct tf_state *st, const char *dev, char **json)
{
	char name[160];

	if (state_name_for(name, sizeof(name), dev, "json"))
		return -EINVAL;
	return state_read_at(st->dirfd, st->dir, name, json, NULL);
}
