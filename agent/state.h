/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * touchfw's state: /run/touchfw (0700; created by tmpfiles.d, or here when
 * missing) holds per-device locks, the marker for "this bind is ours",
 * attempt counts with backoff, the "verified up to date" record the udev
 * fast path reads, and the last result as JSON.  /var/lib/touchfw keeps the
 * failures that must survive a reboot, keyed by device and blob hash.
 * Both directories must belong to the user touchfw runs as and must not
 * be writable by group or others; each is opened once (O_NOFOLLOW |
 * O_DIRECTORY) and every file relative to that fd with O_NOFOLLOW |
 * O_NONBLOCK, and must be a regular file: a symlink, FIFO or device node
 * planted there is refused with a message naming it, never followed or
 * waited on.  Device names are validated before they become file names.
 * The parsers of the state files are pure functions over a buffer (fuzzed
 * in tests/fuzz/fuzz_state.c); a file that does not parse is corrupt and
 * read on the safe side.
 */
#ifndef TF_STATE_H
#define TF_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "util.h"

struct tf_state {
	int dirfd;
	char dir[256];
};

struct tf_attempts {
	unsigned count;	       /* failed runs since the last success */
	uint64_t next_allowed; /* CLOCK_REALTIME seconds */
	char last_error[512];
};

/* Identity of a file, to notice cheaply that it changed. */
struct tf_file_id {
	uint64_t dev, ino, size;
	int64_t mtime_s, mtime_ns;
};

/*
 * Open (with @create: make, 0700) a state directory and check it: a
 * directory, not a symlink, owned by the effective uid, not writable by
 * group or others.  -EPERM with the reason in @err otherwise.
 */
int tf_state_open(struct tf_state *st, const char *dir, bool create, struct tf_err *err);
void tf_state_close(struct tf_state *st);
/* A subdirectory of a checked state directory, checked the same way;
 * returns its fd or -errno with the reason in @err. */
int tf_state_subdir(int dirfd, const char *dir, const char *name, bool create,
		    struct tf_err *err);

/*
 * Open @name in the checked directory @dirfd (@dir for messages) with
 * O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC added to @flags, and insist on a
 * regular file.  Returns the fd, or -errno with the file named in @err.
 */
int tf_state_open_file(int dirfd, const char *dir, const char *name, int flags,
		       struct tf_err *err);

/* Per-device lock; returns the lock fd (close to release), -EWOULDBLOCK,
 * or another -errno with the reason in @err.  Without @create, a missing
 * lock file is -ENOENT (nobody holds it; a read-only caller makes none). */
int tf_state_lock(struct tf_state *st, const char *dev, bool wait, bool create,
		  struct tf_err *err);
/* 1 while another process holds the device's lock, 0 if not, -errno (with
 * @err) when the lock file is unusable. */
int tf_state_locked_by_other(struct tf_state *st, const char *dev, struct tf_err *err);

/* "The next bind of @dev is ours": written just before touchfw rebinds. */
int tf_state_mark_own_bind(struct tf_state *st, const char *dev, uint64_t now_s);
/* Consume the marker: 1 if it was younger than @window_s, 0 if not or
 * absent, -errno (with @err) when it is not a usable file. */
int tf_state_take_own_bind(struct tf_state *st, const char *dev, uint64_t now_s,
			   unsigned window_s, struct tf_err *err);

/*
 * "The run for @dev must wait for its driver to bind": set by handle-event
 * --add-only, because a systemd unit instance can not be given the run's
 * --wait-bind option.
 */
int tf_state_mark_wait_bind(struct tf_state *st, const char *dev, uint64_t now_s);
int tf_state_take_wait_bind(struct tf_state *st, const char *dev, uint64_t now_s,
			    unsigned window_s, struct tf_err *err);

/*
 * Parse an attempts file (pure).  Strict: a number that does not fit, junk
 * after it, or a count line missing is -EBADMSG with the field in @err.
 */
int tf_attempts_parse(const char *text, struct tf_attempts *a, struct tf_err *err);
/*
 * Read @dev's attempts (none: all zero).  A file that can not be read or
 * does not parse returns -errno with the file and field in @err, and @a
 * says "at the limit" (count UINT_MAX, the reason in last_error): callers
 * that only look at @a stay on the safe side.
 */
int tf_state_read_attempts(struct tf_state *st, const char *dev, struct tf_attempts *a,
			   struct tf_err *err);
int tf_state_write_attempts(struct tf_state *st, const char *dev, const struct tf_attempts *a,
			    struct tf_err *err);
int tf_state_clear_attempts(struct tf_state *st, const char *dev);
/*
 * Attempt bookkeeping (state-record.c).  Reserve: count a run as a failed
 * attempt before it touches the chip ("interrupted"), so a crash or power
 * loss mid-update counts too.  Fail: record a failed update with @why,
 * counting it unless @reserved already did; *@count is the count now, even
 * when the write fails.  The next try waits @backoff_s seconds, doubling
 * per attempt (at most 1024 times).  An unreadable or corrupt file starts
 * again from zero.
 */
int tf_state_reserve_attempt(struct tf_state *st, const char *dev, unsigned backoff_s,
			     struct tf_err *err);
int tf_state_fail_attempt(struct tf_state *st, const char *dev, bool reserved,
			  unsigned backoff_s, const char *why, unsigned *count,
			  struct tf_err *err);
/* The back-off after @count failed attempts: @backoff_s doubled per
 * attempt after the first (what the functions above set). */
uint64_t tf_attempt_backoff_s(unsigned count, unsigned backoff_s);

/*
 * The fast path's record: verified up to date against this database, with
 * this input device ("input7").  A new probe of the driver (a module
 * reload, a chip swapped behind it) registers a new input device, so the
 * record no longer holds and the next event is handed off again.
 */
int tf_state_write_uptodate(struct tf_state *st, const char *dev, const struct tf_file_id *db,
			    const char *input, const char *versions);
bool tf_state_is_uptodate(struct tf_state *st, const char *dev, const struct tf_file_id *db,
			  const char *input);
int tf_state_clear_uptodate(struct tf_state *st, const char *dev);

int tf_state_write_result(struct tf_state *st, const char *dev, const char *json);
int tf_state_read_result(struct tf_state *st, const char *dev, char **json);

int tf_file_id_get(const char *path, struct tf_file_id *id);

/* A marker's time stamp (pure): true and *@t for one decimal number. */
bool tf_marker_parse(const char *text, uint64_t *t);

/*
 * Failures that survive a reboot: /var/lib/touchfw/failed/<dev>.<sha256>.
 * Parse one record (pure): failures=N (strict) and last_error=...
 */
int tf_failure_record_parse(const char *text, unsigned *n, char *why, size_t why_size,
			    struct tf_err *err);
/*
 * How often the blob @sha256_hex failed on @dev, and the last failure's
 * message in @why (may be cut short; @why_size 0 for none).  A
 * record that can not be read or parsed counts as UINT_MAX failures (the
 * safe side: the blob is not tried), with the file and field in @why.
 */
unsigned tf_persist_failures_why(const char *persist_dir, const char *dev,
				 const char *sha256_hex, char *why, size_t why_size);
/*
 * The same, telling an unusable record from a corrupt one: -errno with
 * @err naming the file when the directory or the record can not be used
 * (untrusted owner or mode, a symlink or FIFO: state-unusable); 0 with
 * *@n otherwise -- UINT_MAX for a record that does not parse, with the
 * file and field in @why.
 */
int tf_persist_failures_read(const char *persist_dir, const char *dev, const char *sha256_hex,
			     unsigned *n, char *why, size_t why_size, struct tf_err *err);
/* The persistent directory and its failed/ can be trusted (or are absent):
 * 0, else -errno with @err naming the directory. */
int tf_persist_check(const char *persist_dir, struct tf_err *err);
int tf_persist_record_failure(const char *persist_dir, const char *dev, const char *sha256_hex,
			      const char *why, struct tf_err *err);
int tf_persist_clear(const char *persist_dir, const char *dev);

/* A device's failure records, for status: at most @max in @out; returns
 * how many, or -errno.  (tf_persist_clear() returns how many it removed.) */
struct tf_failure_rec {
	char sha256_hex[65];
	unsigned failures;
	char why[200];
	uint64_t mtime; /* the last failure, CLOCK_REALTIME seconds */
};
int tf_persist_list_failures(const char *persist_dir, const char *dev,
			     struct tf_failure_rec *out, int max);

/*
 * The hardware id last seen on @dev (/var/lib/touchfw/<dev>.hw), for a
 * chip that comes up in its bootloader, where it can not be read: the id
 * on the first line, then learnt=SECONDS and from=TEXT (what it was
 * learnt from).  Files of older versions hold the id alone (learnt 0).
 * A hint only ever stands in for what the chip does not say itself.
 */
struct tf_hw_hint {
	char hw[32];
	uint64_t learnt; /* CLOCK_REALTIME seconds, 0 if not recorded */
	char from[96];
};
int tf_hw_hint_parse(const char *text, struct tf_hw_hint *h);
int tf_persist_write_hw(const char *persist_dir, const char *dev, const struct tf_hw_hint *h,
			struct tf_err *err);
/* 0 and @h (h->hw "" when there is none), or -errno with the file in @err. */
int tf_persist_read_hw(const char *persist_dir, const char *dev, struct tf_hw_hint *h,
		       struct tf_err *err);
/* `touchfw forget`: remove it (none is not an error). */
int tf_persist_forget_hw(const char *persist_dir, const char *dev, struct tf_err *err);

/*
 * The results history, which survives a reboot as /run does not:
 * @persist_dir/history/<dev>.jsonl, one result record (JSON, one line)
 * per run, the newest last, at most TF_HISTORY_KEEP of them (the oldest
 * go).  Written whole through tf_replace_at(), so a crash leaves the old
 * file or the new one.  A file that can not be read (too big, not a
 * regular file) is started again.  tf_persist_history_read(): *@text the
 * lines, NULL when there is no history; 0 or -errno with @err.
 */
#define TF_HISTORY_KEEP 20
int tf_persist_history_add(const char *persist_dir, const char *dev, const char *json,
			   struct tf_err *err);
int tf_persist_history_read(const char *persist_dir, const char *dev, char **text,
			    struct tf_err *err);

#endif /* TF_STATE_H */
