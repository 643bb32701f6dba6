// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Safe file access shared by the agent (fs.c): a regular file opened below
 * a directory without following symlinks or leaving the directory, and the
 * one bounded whole-file reader.  util.h includes this header, so every
 * file that reads files through util.h keeps doing so.
 */
#ifndef TF_FS_H
#define TF_FS_H

#include <stddef.h>

/*
 * Read a whole file (at most @max bytes) into a NUL-terminated heap buffer.
 * Returns 0 and sets *@buf, *@len (@len may be NULL), or -errno (-EFBIG if
 * larger than @max).
 */
/* Read everything from @fd (same rules). */
int tf_read_fd(int fd, size_t max, char **buf, size_t *len);
int tf_read_file(const char *path, size_t max, char **buf, size_t *len);
int tf_read_file_at(int dirfd, const char *name, size_t max, char **buf, size_t *len);

/*
 * Open the regular file @path below @dirfd for reading without following
 * any symlink and without leaving @dirfd's tree.  @path must be relative,
 * at most 255 characters, with no empty, "." or ".." component (else
 * -EINVAL).  TF_OPEN_AUTO uses openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS) and walks component by component with O_NOFOLLOW
 * where the kernel (or a seccomp filter) refuses openat2; the other two
 * methods are there so tests can run both.  O_NONBLOCK, so a FIFO can not
 * hang the caller.  Returns a file descriptor or -errno (-ELOOP for a
 * symlink, -EINVAL for anything but a regular file).
 */
enum tf_open_method {
	TF_OPEN_AUTO,
	TF_OPEN_OPENAT2,
	TF_OPEN_WALK,
};
int tf_open_beneath(int dirfd, const char *path, enum tf_open_method how);
/*
 * Not here yet: state.c's tf_state_open_file() is the other no-symlink
 * open (one name in its directory, O_CREAT allowed, an error that names
 * the file type).  Its final-component step (openat O_NOFOLLOW|O_NONBLOCK,
 * fstat, S_ISREG, back to blocking) is the same rule as open_walk()'s last
 * step and belongs here once state.c is free to change (issue 14).
 */

#endif /* TF_FS_H */
