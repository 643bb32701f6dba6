/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internals shared by the state files: state.c (the checked directories,
 * files and locks; the records in /run/touchfw) and state-persist.c (what
 * survives a reboot in /var/lib/touchfw).  The API is state.h.
 */
#ifndef TF_STATE_PRIV_H
#define TF_STATE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

/* "@dev.@suffix" in @buf; -EINVAL when @dev is not a device name. */
int state_name_for(char *buf, size_t size, const char *dev, const char *suffix);
/*
 * Write @content to @name: tf_replace_at()'s fresh temporary file, flushed
 * to disk, renamed over @name.  A full disk or any other failure leaves
 * @name as it was.
 */
int state_write_at(int dirfd, const char *dir, const char *name, const char *content,
		   struct tf_err *err);
/* Read @name (at most 64 KiB: state files are small). */
int state_read_at(int dirfd, const char *dir, const char *name, char **out, struct tf_err *err);
/* A decimal field "KEY=N\n" of a state file: strict, no sign, no junk. */
bool state_parse_u64_field(const char *v, size_t len, uint64_t max, uint64_t *out);

#endif /* TF_STATE_PRIV_H */
