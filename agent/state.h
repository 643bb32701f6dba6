/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * touchfw's state: /run/touchfw (0700; created by tmpfiles.d, or here when
 * missing) holds per-device locks, the marker for "this bind is ours",
 * attempt counts with backoff, the "verified up to date" record the udev
 * fast path reads, and the last result as JSON.  /var/lib/touchfw keeps the
 * failures that must survive a reboot, keyed by device and blob hash.
 * Everything is opened relative to a directory fd with O_NOFOLLOW, and
 * device names are validated before they become file names.
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
	unsigned count;        /* failed runs since the last success */
	uint64_t next_allowed; /* CLOCK_REALTIME seconds */
	char last_error[512];
};

/* Identity of a file, to notice cheaply that it changed. */
struct tf_file_id {
	uint64_t dev, ino, size;
	int64_t mtime_s, mtime_ns;
};

int tf_state_open(struct tf_state *st, const char *dir, bool create,
		  struct tf_err *err);
void tf_state_close(struct tf_state *st);

/* Per-device lock; returns the lock fd (close to release) or -EWOULDBLOCK. */
int tf_state_lock(struct tf_state *st, const char *dev, bool wait);
/* True while another process holds the device's lock. */
bool tf_state_locked_by_other(struct tf_state *st, const char *dev);

/* "The next bind of @dev is ours": written just before touchfw rebinds. */
int tf_state_mark_own_bind(struct tf_state *st, const char *dev, uint64_t now_s);
/* Consume the marker if it is younger than @window_s; true if it was. */
bool tf_state_take_own_bind(struct tf_state *st, const char *dev,
			    uint64_t now_s, unsigned window_s);

/*
 * "The run for @dev must wait for its driver to bind": set by handle-event
 * --add-only, because a systemd unit instance can not be given the run's
 * --wait-bind option.
 */
int tf_state_mark_wait_bind(struct tf_state *st, const char *dev, uint64_t now_s);
bool tf_state_take_wait_bind(struct tf_state *st, const char *dev,
			     uint64_t now_s, unsigned window_s);

int tf_state_read_attempts(struct tf_state *st, const char *dev,
			   struct tf_attempts *a);
int tf_state_write_attempts(struct tf_state *st, const char *dev,
			    const struct tf_attempts *a);
int tf_state_clear_attempts(struct tf_state *st, const char *dev);

/*
 * The fast path's record: verified up to date against this database, with
 * this input device ("input7").  A new probe of the driver (a module
 * reload, a chip swapped behind it) registers a new input device, so the
 * record no longer holds and the next event is handed off again.
 */
int tf_state_write_uptodate(struct tf_state *st, const char *dev,
			    const struct tf_file_id *db, const char *input,
			    const char *versions);
bool tf_state_is_uptodate(struct tf_state *st, const char *dev,
			  const struct tf_file_id *db, const char *input);
int tf_state_clear_uptodate(struct tf_state *st, const char *dev);

int tf_state_write_result(struct tf_state *st, const char *dev, const char *json);
int tf_state_read_result(struct tf_state *st, const char *dev, char **json);

int tf_file_id_get(const char *path, struct tf_file_id *id);

/* Failures that survive a reboot: /var/lib/touchfw/failed/<dev>.<sha256>. */
unsigned tf_persist_failures(const char *persist_dir, const char *dev,
			     const char *sha256_hex);
/* The same, and the last failure's message in @why (may be cut short). */
unsigned tf_persist_failures_why(const char *persist_dir, const char *dev,
				 const char *sha256_hex, char *why, size_t why_size);
int tf_persist_record_failure(const char *persist_dir, const char *dev,
			      const char *sha256_hex, const char *why);
int tf_persist_clear(const char *persist_dir, const char *dev);

#endif /* TF_STATE_H */
