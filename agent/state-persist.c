// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What survives a reboot, in the persistent directory (/var/lib/touchfw):
 * the failure records of blobs a chip refused (failed/<dev>.<sha256>), the
 * hardware id last seen on a device (<dev>.hw), and the results history
 * (history/<dev>.jsonl).  The directories are checked and the files read
 * and written as state.c does for /run/touchfw (see state.h).
 */
#include "state.h"
#include "state-priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event.h"
#include "fs.h"

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

/* ------------------------------------------------------------ failures */

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
			if (!state_parse_u64_field(line + 9, len - 9, UINT32_MAX - 1, &v))
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
	char name[300], shown[600];
	_cleanup_free_ char *buf = NULL;
	_cleanup_close_ int fd = -1;
	struct tf_err e = { 0 };
	int r;

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
	r = state_read_at(fd, shown, name, &buf, err);
	if (r == -ENOENT) {
		tf_err_clear(err);
		return 0;
	}
	if (r < 0)
		return r;
	r = tf_failure_record_parse(buf, n, why, why_size, &e);
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
	_cleanup_close_ int fd = -1;
	unsigned n;
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
	return state_write_at(fd, shown, name, buf, err);
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

/* ------------------------------------------------------------ hardware id */

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
			if (!state_parse_u64_field(line + 7, n - 7, UINT64_MAX, &v) || !v)
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

	if (state_name_for(name, sizeof(name), dev, "hw") ||
	    !word_ok(h->hw, strlen(h->hw), 32) || strchr(h->from, '\n') ||
	    tf_snprintf(buf, sizeof(buf), "%s\nlearnt=%llu\nfrom=%s\n", h->hw,
			(unsigned long long)h->learnt, h->from))
		return tf_err_set(err, EINVAL, "no device name or hardware id");
	fd = persist_dirfd(persist_dir, true, false, err);
	if (fd < 0)
		return fd;
	return state_write_at(fd, persist_dir, name, buf, err);
}

int tf_persist_read_hw(const char *persist_dir, const char *dev, struct tf_hw_hint *h,
		       struct tf_err *err)
{
	char name[160];
	_cleanup_free_ char *buf = NULL;
	_cleanup_close_ int fd = -1;
	int r;

	memset(h, 0, sizeof(*h));
	if (state_name_for(name, sizeof(name), dev, "hw"))
		return tf_err_set(err, EINVAL, "not a device name");
	fd = persist_dirfd(persist_dir, false, false, err);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	r = state_read_at(fd, persist_dir, name, &buf, err);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	if (tf_hw_hint_parse(buf, h) < 0) {
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
	_cleanup_close_ int fd = -1;

	if (state_name_for(name, sizeof(name), dev, "hw"))
		return tf_err_set(err, EINVAL, "not a device name");
	fd = persist_dirfd(persist_dir, false, false, err);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	if (unlinkat(fd, name, 0) < 0 && errno != ENOENT)
		return tf_err_set(err, errno, "%s/%s: can not remove it: %s", persist_dir, name,
				  strerror(errno));
	return 0;
}

/* ------------------------------------------------------------ history */

static int history_dirfd(const char *persist_dir, bool create, char *shown, size_t size,
			 struct tf_err *err)
{
	_cleanup_close_ int pfd = persist_dirfd(persist_dir, create, false, err);

	if (pfd < 0)
		return pfd;
	tf_snprintf(shown, size, "%s/history", persist_dir);
	return tf_state_subdir(pfd, persist_dir, "history", create, err);
}

int tf_persist_history_add(const char *persist_dir, const char *dev, const char *json,
			   struct tf_err *err)
{
	char name[160], shown[PATH_MAX];
	_cleanup_free_ char *old = NULL, *text = NULL;
	_cleanup_close_ int fd = -1;
	const char *keep;
	size_t len, lines = 0;

	if (state_name_for(name, sizeof(name), dev, "jsonl") || strchr(json, '\n'))
		return tf_err_set(err, EINVAL, "no device name or not one line");
	fd = history_dirfd(persist_dir, true, shown, sizeof(shown), err);
	if (fd < 0)
		return fd;
	if (state_read_at(fd, shown, name, &old, NULL) < 0)
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
		text = NULL; /* undefined after a failure */
		return tf_err_set(err, ENOMEM, "out of memory");
	}
	return state_write_at(fd, shown, name, text, err);
}

int tf_persist_history_read(const char *persist_dir, const char *dev, char **text,
			    struct tf_err *err)
{
	char name[160], shown[PATH_MAX];
	_cleanup_close_ int fd = -1;
	int r;

	*text = NULL;
	if (state_name_for(name, sizeof(name), dev, "jsonl"))
		return tf_err_set(err, EINVAL, "not a device name");
	fd = history_dirfd(persist_dir, false, shown, sizeof(shown), err);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	r = state_read_at(fd, shown, name, text, err);
	if (r == -ENOENT) {
		*text = NULL;
		return 0;
	}
	return r;
}
