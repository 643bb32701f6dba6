// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Firmware database loading and verification: read manifest.ini and its
 * signature file from the database directory (through fs.c, no symlinks),
 * apply the signature policy with the public keys, and check a blob's
 * size and SHA-256 when it is read.
 */
#include "fwdb-priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "family/family.h"
#include "fs.h"

/* The manifest's path rule first, then the no-symlink open. */
static int open_db_file(int dirfd, const char *name)
{
	if (!tf_fwdb_path_valid(name))
		return -EINVAL;
	return tf_open_beneath(dirfd, name, TF_OPEN_AUTO);
}

static const char *open_problem(int r)
{
	switch (-r) {
	case ELOOP:
		return "is a symlink or has one on its path (the firmware "
		       "database follows no symlinks)";
	case EXDEV:
		return "resolves outside the database directory";
	case EINVAL:
		return "is not a regular file";
	default:
		return strerror(-r);
	}
}

/* Read a file inside the DB directory, no symlinks, at most @max bytes. */
int tf_fwdb_read_file(int dirfd, const char *dir, const char *name, size_t max, char **buf,
		      size_t *len, struct stat *st, struct tf_err *err)
{
	_cleanup_close_ int fd = open_db_file(dirfd, name);
	int r;

	if (fd < 0)
		return tf_err_set(err, -fd, "%s/%s: %s", dir, name, open_problem(fd));
	if (st && fstat(fd, st) < 0)
		return tf_err_set(err, errno, "%s/%s: %m", dir, name);
	r = tf_read_fd(fd, max, buf, len);
	if (r == -EFBIG)
		return tf_err_set(err, EFBIG, "%s/%s: larger than %zu bytes", dir, name, max);
	if (r < 0)
		return tf_err_set(err, -r, "%s/%s: %s", dir, name, strerror(-r));
	return 0;
}

/* ------------------------------------------------------------ signatures */

static int read_public_key(int keysfd, const char *keys_dir, const char *id,
			   uint8_t pk[crypto_sign_PUBLICKEYBYTES], struct tf_err *err)
{
	_cleanup_free_ char *buf = NULL;
	char name[TF_FWDB_KEY_ID_MAX + 8], path[PATH_MAX];
	size_t len;
	int r;

	if (keysfd < 0)
		return -ENOENT;
	snprintf(name, sizeof(name), "%s.pub", id);
	snprintf(path, sizeof(path), "%s/%s", keys_dir, name);
	r = tf_read_file_at(keysfd, name, KEY_FILE_MAX, &buf, &len);
	if (r == -ENOENT)
		return r;
	if (r < 0)
		return tf_err_set(err, -r, "%s: %s", path, strerror(-r));
	return tf_fwdb_parse_key(buf, len, path, pk, crypto_sign_PUBLICKEYBYTES, err);
}

/* Is any <key-id>.pub installed in @keys_dir?  Its name in @name. */
static bool any_public_key(const char *keys_dir, char *name, size_t size)
{
	DIR *d = opendir(keys_dir);
	struct dirent *de;
	bool found = false;

	if (!d) {
		int e = errno;

		snprintf(name, size, "*.pub: %s", strerror(e));
		return e != ENOENT; /* unreadable: assume a key is there */
	}
	while (!found && (de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (de->d_name[0] != '.' && n > 4 && !strcmp(de->d_name + n - 4, ".pub")) {
			snprintf(name, size, "%s", de->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

static int check_signature(struct tf_fwdb *db, int dirfd, const char *dir, const char *manifest,
			   size_t manifest_len, const struct tf_fwdb_opts *opts,
			   struct tf_err *err)
{
	const char *keys_dir = opts->keys_dir ? opts->keys_dir : TF_FWDB_DEFAULT_KEYS_DIR;
	_cleanup_free_ char *buf = NULL;
	_cleanup_close_ int keysfd = -1;
	uint8_t pk[crypto_sign_PUBLICKEYBYTES];
	char sig_path[PATH_MAX];
	const struct tf_sig_line *bad = NULL, *unknown = NULL;
	size_t len, i;
	int r;

	if (opts->sig == TF_SIG_OFF)
		return 0;
	snprintf(sig_path, sizeof(sig_path), "%s/%s", dir, TF_FWDB_SIGNATURE);
	r = tf_fwdb_read_file(dirfd, dir, TF_FWDB_SIGNATURE, SIG_FILE_MAX, &buf, &len, NULL,
			      err);
	if (r == -ENOENT && opts->sig == TF_SIG_OPTIONAL) {
		char key[NAME_MAX + 1];

		/* Deleting the .sig must not turn a tampered manifest into
		 * an "unsigned" one: once a key is trusted, a signature is
		 * required. */
		if (!any_public_key(keys_dir, key, sizeof(key))) {
			tf_err_clear(err);
			db->sig_state = TF_SIG_STATE_UNSIGNED;
			return 0;
		}
		return tf_err_set(err, ENOKEY,
				  "%s: missing, and signatures are required while a "
				  "trusted key is installed (%s/%s)",
				  sig_path, keys_dir, key);
	}
	if (r == -ENOENT)
		return tf_err_set(err, ENOKEY, "%s: missing, and signatures are required",
				  sig_path);
	if (r < 0)
		return r;
	r = tf_fwdb_parse_signatures(buf, len, sig_path, &db->sig_lines, &db->n_sig_lines, err);
	if (r < 0)
		return r;
	keysfd = open(keys_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (keysfd < 0 && errno != ENOENT)
		return tf_err_set(err, errno, "keys directory %s: %m", keys_dir);
	for (i = 0; i < db->n_sig_lines; i++) {
		struct tf_sig_line *l = &db->sig_lines[i];

		r = read_public_key(keysfd, keys_dir, l->key_id, pk, err);
		if (r == -ENOENT) {
			l->result = TF_SIG_LINE_UNKNOWN_KEY;
			unknown = unknown ? unknown : l;
			continue;
		}
		if (r < 0)
			return r;
		if (crypto_sign_verify_detached(l->sig, (const unsigned char *)manifest,
						manifest_len, pk) == 0) {
			l->result = TF_SIG_LINE_VERIFIED;
			if (!db->is_signed)
				memcpy(db->signer, l->key_id, sizeof(db->signer));
			db->is_signed = true;
		} else {
			l->result = TF_SIG_LINE_BAD;
			bad = bad ? bad : l;
		}
	}
	if (db->is_signed) {
		db->sig_state = TF_SIG_STATE_VERIFIED;
		return 0;
	}
	if (bad)
		return tf_err_set(err, EKEYREJECTED,
				  "%s:%u: signature by '%s' does not verify: "
				  "%s/%s was changed after signing, or the "
				  "signature is damaged",
				  sig_path, bad->line, bad->key_id, dir, TF_FWDB_MANIFEST);
	return tf_err_set(err, ENOKEY,
			  "%s:%u: no public key %s/%s.pub for the signature by "
			  "'%s'%s",
			  sig_path, unknown->line, keys_dir, unknown->key_id, unknown->key_id,
			  keysfd < 0 ? " (the keys directory does not exist)" : "");
}

int tf_fwdb_load(const char *dir, const struct tf_fwdb_opts *opts, struct tf_fwdb **out,
		 struct tf_err *err)
{
	static const struct tf_fwdb_opts defaults = { .sig = TF_SIG_REQUIRED };
	_cleanup_close_ int dirfd = -1;
	_cleanup_free_ char *buf = NULL;
	char name[PATH_MAX];
	struct tf_fwdb *db;
	struct stat st;
	size_t len;
	int r;

	*out = NULL;
	if (!dir)
		return tf_err_set(err, EINVAL, "no firmware database given");
	if (!opts)
		opts = &defaults;
	r = tf_fwdb_crypto_ready(err);
	if (r < 0)
		return r;
	dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return tf_err_set(err, errno, "firmware database %s: %m", dir);
	r = tf_fwdb_read_file(dirfd, dir, TF_FWDB_MANIFEST, TF_FWDB_MAX_MANIFEST, &buf, &len,
			      &st, err);
	if (r < 0)
		return r;
	snprintf(name, sizeof(name), "%s/%s", dir, TF_FWDB_MANIFEST);
	r = tf_fwdb_parse_manifest(buf, len, name, &db, err);
	if (r < 0)
		return r;
	db->dev = st.st_dev;
	db->ino = st.st_ino;
	db->manifest_size = st.st_size;
	db->mtime = st.st_mtim;
	r = check_signature(db, dirfd, dir, buf, len, opts, err);
	if (r < 0)
		goto fail;
	db->dir = strdup(dir);
	if (!db->dir) {
		r = tf_err_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	db->dirfd = dirfd;
	dirfd = -1;
	*out = db;
	return 0;
fail:
	tf_fwdb_free(db);
	return r;
}

int tf_fwdb_changed(const struct tf_fwdb *db)
{
	char path[PATH_MAX];
	struct stat st;

	if (!db || !db->dir)
		return -EINVAL;
	if (tf_snprintf(path, sizeof(path), "%s/%s", db->dir, TF_FWDB_MANIFEST) < 0)
		return -ENAMETOOLONG;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 1 : -errno;
	return st.st_dev != db->dev || st.st_ino != db->ino ||
	       st.st_size != db->manifest_size || st.st_mtim.tv_sec != db->mtime.tv_sec ||
	       st.st_mtim.tv_nsec != db->mtime.tv_nsec;
}

/* ------------------------------------------------------------ blobs */

static int blob_check(const struct tf_fwdb *db, const struct tf_blob *b, uint8_t **data,
		      struct tf_err *err)
{
	crypto_hash_sha256_state h;
	uint8_t digest[SHA256_LEN], chunk[READ_CHUNK], *buf = NULL, *dst;
	char want_hex[2 * SHA256_LEN + 1], got_hex[2 * SHA256_LEN + 1];
	_cleanup_close_ int fd = -1;
	uint64_t got = 0;
	struct stat st;
	ssize_t r;
	int ret;

	if (!db || !b || !b->file)
		return tf_err_set(err, EINVAL, "no blob given");
	if (db->dirfd < 0)
		return tf_err_set(err, EBADF,
				  "[%s]: manifest was not loaded from a "
				  "directory",
				  b->id);
	ret = tf_fwdb_crypto_ready(err);
	if (ret < 0)
		return ret;
	fd = open_db_file(db->dirfd, b->file);
	if (fd < 0)
		return tf_err_set(err, -fd, "%s/%s ([%s], line %u): %s", db->dir, b->file,
				  b->id, b->line, open_problem(fd));
	if (fstat(fd, &st) < 0)
		return tf_err_set(err, errno, "%s/%s: %m", db->dir, b->file);
	if ((uint64_t)st.st_size < b->size)
		return tf_err_set(err, EBADMSG,
				  "%s/%s ([%s], line %u): truncated: %llu of "
				  "%llu bytes",
				  db->dir, b->file, b->id, b->line,
				  (unsigned long long)st.st_size, (unsigned long long)b->size);
	if ((uint64_t)st.st_size > b->size)
		return tf_err_set(err, EBADMSG,
				  "%s/%s ([%s], line %u): size mismatch: "
				  "manifest says %llu bytes, file has %llu",
				  db->dir, b->file, b->id, b->line, (unsigned long long)b->size,
				  (unsigned long long)st.st_size);
	if (data) {
		buf = malloc((size_t)b->size);
		if (!buf)
			return tf_err_set(err, ENOMEM, "out of memory");
	}
	crypto_hash_sha256_init(&h);
	/* Read one byte past the size to notice a file that grew. */
	for (;;) {
		size_t want = buf && got < b->size ? (size_t)(b->size - got) : sizeof(chunk);

		dst = buf && got < b->size ? buf + got : chunk;
		r = read(fd, dst, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = tf_err_set(err, errno, "%s/%s: %m", db->dir, b->file);
			goto fail;
		}
		if (r == 0)
			break;
		if (got + (uint64_t)r > b->size) {
			ret = tf_err_set(err, EBADMSG,
					 "%s/%s ([%s], line %u): grew past "
					 "%llu bytes while being read",
					 db->dir, b->file, b->id, b->line,
					 (unsigned long long)b->size);
			goto fail;
		}
		crypto_hash_sha256_update(&h, dst, (unsigned long long)r);
		got += (uint64_t)r;
	}
	if (got != b->size) {
		ret = tf_err_set(err, EBADMSG,
				 "%s/%s ([%s], line %u): truncated: %llu of "
				 "%llu bytes",
				 db->dir, b->file, b->id, b->line, (unsigned long long)got,
				 (unsigned long long)b->size);
		goto fail;
	}
	crypto_hash_sha256_final(&h, digest);
	if (sodium_memcmp(digest, b->sha256, SHA256_LEN) != 0) {
		tf_hex_encode(b->sha256, SHA256_LEN, want_hex);
		tf_hex_encode(digest, SHA256_LEN, got_hex);
		ret = tf_err_set(err, EBADMSG,
				 "%s/%s ([%s], line %u): sha256 mismatch: "
				 "manifest says %s, file has %s",
				 db->dir, b->file, b->id, b->line, want_hex, got_hex);
		goto fail;
	}
	if (data)
		*data = buf;
	return 0;
fail:
	free(buf);
	return ret;
}

/* The family's rules for the bytes (struct tf_family.check_blob_data). */
static int family_data_check(const struct tf_fwdb *db, const struct tf_blob *b,
			     const uint8_t *data, struct tf_err *err)
{
	const struct tf_family *fam = tf_family_by_name(b->family);
	char msg[400];

	if (!fam || !fam->check_blob_data)
		return 0;
	if (fam->check_blob_data(b, data, (size_t)b->size, msg, sizeof(msg)) < 0)
		return tf_err_set(err, EBADMSG, "%s/%s ([%s], line %u): %s", db->dir, b->file,
				  b->id, b->line, msg);
	return 0;
}

static bool has_data_rule(const struct tf_blob *b)
{
	const struct tf_family *fam = tf_family_by_name(b->family);

	return fam && fam->check_blob_data;
}

int tf_fwdb_read_blob(const struct tf_fwdb *db, const struct tf_blob *b, uint8_t **data,
		      size_t *len, struct tf_err *err)
{
	int r;

	*data = NULL;
	*len = 0;
	r = blob_check(db, b, data, err);
	if (r == 0)
		r = family_data_check(db, b, *data, err);
	if (r < 0) {
		free(*data);
		*data = NULL;
		return r;
	}
	*len = (size_t)b->size;
	return 0;
}

int tf_fwdb_verify_blob(const struct tf_fwdb *db, const struct tf_blob *b, struct tf_err *err)
{
	uint8_t *data = NULL;
	size_t len;
	int r;

	if (!has_data_rule(b))
		return blob_check(db, b, NULL, err);
	r = tf_fwdb_read_blob(db, b, &data, &len, err);
	free(data);
	return r;
}
