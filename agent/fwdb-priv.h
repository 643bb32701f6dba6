// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Internals shared by the firmware database's files: fwdb-manifest.c and
 * fwdb-manifest-values.c (the pure manifest parser, whose own internals
 * are fwdb-manifest-priv.h), fwdb-blobs.c (a parsed database's lookups),
 * fwdb-keys.c (key and signature file parsers),
 * fwdb-verify.c (loading, signature policy, blob checks) and fwdb-sign.c
 * (`db sign`/`db keygen`, the only code that touches a secret key).
 * Nothing outside agent/fwdb-*.c includes this header.
 */
#ifndef TF_FWDB_PRIV_H
#define TF_FWDB_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include <sodium.h>

#include "fwdb.h"

#define SIG_FILE_MAX (64 * 1024)
#define KEY_FILE_MAX 4096
#define FAMILY_MAX 32
#define TOKEN_MAX 128
#define PATH_LEN_MAX 255
#define SHA256_LEN crypto_hash_sha256_BYTES
#define READ_CHUNK 65536

/* Start libsodium once; fails only if it can not. */
int tf_fwdb_crypto_ready(struct tf_err *err);

/* Next line of [*pos, len) without its '\n' and trailing blanks. */
bool tf_fwdb_next_line(const char *buf, size_t len, size_t *pos, const char **line, size_t *n);
/* Length of the token at @s (up to a blank or @n): @s is not terminated. */
size_t tf_fwdb_token_len(const char *s, size_t n);

/* tf_fwdb_parse_signatures(), which refuses a file with no signature
 * line; with @allow_none a file of comments only parses to no lines. */
int tf_fwdb_parse_sig_lines(const char *buf, size_t len, const char *name, bool allow_none,
			    struct tf_sig_line **out, size_t *n_out, struct tf_err *err);

/* Read @name inside the DB directory @dirfd (shown as @dir): no symlinks,
 * a regular file, at most @max bytes; @st (may be NULL) gets its fstat. */
int tf_fwdb_read_file(int dirfd, const char *dir, const char *name, size_t max, char **buf,
		      size_t *len, struct stat *st, struct tf_err *err);

#endif /* TF_FWDB_PRIV_H */
