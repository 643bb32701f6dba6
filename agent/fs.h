// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Safe file access shared by the agent (fs.c): a regular file opened below
 * a directory without following symlinks or leaving the directory, and the
 * one bounded whole-file reader.  util.h includes this header, so every
 * file that reads files through util.h keeps doing so.
 */
#ifndef TF_FS_H
#define TF_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct tf_err;

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

/*
 * Command inputs (flash --firmware/--config, board check, db add FILE):
 * opened O_NONBLOCK and checked with fstat, so a FIFO, a device node or a
 * directory is refused at once instead of blocking the caller (which may
 * hold a device lock) -- -EINVAL with @err saying "@path: a FIFO, not a
 * regular file".  tf_read_input() reads it whole (at most @max bytes,
 * else -EFBIG; @err names the file in every case).
 */
int tf_open_input(const char *path, struct tf_err *err);
int tf_read_input(const char *path, size_t max, char **buf, size_t *len, struct tf_err *err);
/* "a FIFO", "a directory", "a device node", "a socket", "a symbolic link" */
const char *tf_file_type(mode_t m);

/*
 * Files touchfw creates for a command (the temporary-file rule, touchfw(8)
 * FILES): only in a directory writable by its owner alone, or else sticky
 * and owned by root or by the user touchfw runs as (as /tmp is: others can
 * not rename or remove what touchfw made there).  tf_dir_check() says why
 * a directory fails that (-EPERM), tf_dir_open() opens @dir and checks it.
 *
 * tf_create_at(): a new file @name below @dirfd with exactly @mode
 * (O_CREAT | O_EXCL | O_NOFOLLOW: nothing already there, not even a
 * dangling symlink, is written through -- -EEXIST).
 * tf_replace_at(): @name replaced by a file holding @data: written to a
 * fresh, unpredictable temporary name (O_EXCL | O_NOFOLLOW, mode 0600 until
 * written), flushed, given @mode and renamed over @name; any failure
 * leaves @name as it was and removes the temporary.  @dir is @dirfd's name
 * for messages.  Both return 0 or -errno with @err naming the file.
 */
int tf_dir_check(int dirfd, const char *dir, struct tf_err *err);
int tf_dir_open(const char *dir, struct tf_err *err);
int tf_create_at(int dirfd, const char *dir, const char *name, const void *data, size_t len,
		 mode_t mode, struct tf_err *err);
int tf_replace_at(int dirfd, const char *dir, const char *name, const void *data, size_t len,
		  mode_t mode, struct tf_err *err);
/* tf_dir_open(@dir) and tf_replace_at() in it. */
int tf_replace_file(const char *dir, const char *name, const void *data, size_t len,
		    mode_t mode, struct tf_err *err);
/*
 * A new file at @path (its directory checked as above) opened for writing,
 * O_EXCL | O_NOFOLLOW with @mode: the descriptor, or -errno with @err
 * naming @path ("exists, not overwritten" for -EEXIST).
 */
int tf_create_path(const char *path, mode_t mode, struct tf_err *err);

#endif /* TF_FS_H */
