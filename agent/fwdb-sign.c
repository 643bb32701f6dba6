// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `db sign` and `db keygen`: the only code in touchfw that reads or makes
 * a secret key.  Signing adds or replaces the signer's line in
 * manifest.ini.sig (written to a temporary file, fsync'd, renamed);
 * keygen writes a new Ed25519 key pair.  The on-device verifier
 * (fwdb-verify.c) never links a path through here.
 */
#include "fwdb-priv.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ signing */

int tf_fwdb_key_id_from_path(const char *path, char *id, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n <= 4 || strcmp(base + n - 4, ".key") || n - 4 >= size)
		return -EINVAL;
	memcpy(id, base, n - 4);
	id[n - 4] = '\0';
	return tf_fwdb_key_id_valid(id) ? 0 : -EINVAL;
}

static int read_secret_key(const char *path, uint8_t sk[crypto_sign_SECRETKEYBYTES],
			   struct tf_err *err)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	uint8_t seed[crypto_sign_SEEDBYTES], pk[crypto_sign_PUBLICKEYBYTES];
	uint8_t sk2[crypto_sign_SECRETKEYBYTES];
	char *buf = NULL;
	struct stat st;
	size_t len;
	int r;

	if (fd < 0)
		return tf_err_set(err, errno, "secret key %s: %m", path);
	if (fstat(fd, &st) < 0)
		return tf_err_set(err, errno, "secret key %s: %m", path);
	if (!S_ISREG(st.st_mode))
		return tf_err_set(err, EINVAL, "secret key %s: not a regular file", path);
	if (st.st_mode & 077)
		return tf_err_set(err, EPERM,
				  "secret key %s: mode %03o lets others read "
				  "it; chmod 600 it (and consider the key "
				  "leaked)",
				  path, (unsigned)(st.st_mode & 0777));
	r = tf_read_fd(fd, KEY_FILE_MAX, &buf, &len);
	if (r < 0)
		return tf_err_set(err, -r, "secret key %s: %s", path, strerror(-r));
	r = tf_fwdb_parse_key(buf, len, path, sk, crypto_sign_SECRETKEYBYTES, err);
	sodium_memzero(buf, len);
	free(buf);
	if (r < 0) {
		/* A bad key is bad input to `db sign`, not a bad database. */
		if (err)
			err->code = EINVAL;
		return -EINVAL;
	}
	/* libsodium's secret key is seed || public key: check it is whole. */
	crypto_sign_ed25519_sk_to_seed(seed, sk);
	crypto_sign_seed_keypair(pk, sk2, seed);
	r = sodium_memcmp(sk, sk2, sizeof(sk2));
	sodium_memzero(seed, sizeof(seed));
	sodium_memzero(sk2, sizeof(sk2));
	if (r != 0) {
		sodium_memzero(sk, crypto_sign_SECRETKEYBYTES);
		return tf_err_set(err, EINVAL,
				  "secret key %s: damaged (its public half "
				  "does not match its seed)",
				  path);
	}
	return 0;
}

/* @l (@n bytes) and a newline onto @out; false when over @cap. */
static bool put_line(char *out, size_t *used, size_t cap, const char *l, size_t n)
{
	if (*used + n + 1 > cap)
		return false;
	memcpy(out + *used, l, n);
	*used += n;
	out[(*used)++] = '\n';
	return true;
}

/* The signature file's new text: @old with @id's line replaced, or with
 * the line appended.  Comments and other keys' lines are kept. */
static char *merge_signature(const char *old, size_t old_len, const char *id, const char *line)
{
	size_t pos = 0, n, cap = old_len + strlen(line) + 2, used = 0;
	char *out = malloc(cap + 1);
	bool replaced = false;
	const char *l;

	if (!out)
		return NULL;
	while (old && tf_fwdb_next_line(old, old_len, &pos, &l, &n)) {
		size_t idlen = tf_fwdb_token_len(l, n);

		if (n && l[0] != '#' && idlen == strlen(id) && !memcmp(l, id, idlen) &&
		    !replaced) {
			l = line;
			n = strlen(line);
			replaced = true;
		}
		if (!put_line(out, &used, cap, l, n)) {
			free(out);
			return NULL;
		}
	}
	if (!replaced && !put_line(out, &used, cap, line, strlen(line))) {
		free(out);
		return NULL;
	}
	out[used] = '\0';
	return out;
}

int tf_fwdb_sign(const char *dir, const char *secret_key_file, struct tf_err *err)
{
	uint8_t sk[crypto_sign_SECRETKEYBYTES], pk[crypto_sign_PUBLICKEYBYTES];
	uint8_t sig[crypto_sign_BYTES];
	char b64[sodium_base64_ENCODED_LEN(crypto_sign_BYTES, sodium_base64_VARIANT_ORIGINAL)];
	char id[TF_FWDB_KEY_ID_MAX + 1], line[sizeof(id) + sizeof(b64) + 2];
	_cleanup_free_ char *manifest = NULL, *old = NULL, *text = NULL;
	_cleanup_close_ int dirfd = -1;
	struct tf_sig_line *lines;
	struct tf_fwdb *db;
	size_t len, old_len = 0, n_lines;
	int r;

	if (!dir || !secret_key_file)
		return tf_err_set(err, EINVAL, "no directory or key given");
	r = tf_fwdb_crypto_ready(err);
	if (r < 0)
		return r;
	if (tf_fwdb_key_id_from_path(secret_key_file, id, sizeof(id)) < 0)
		return tf_err_set(err, EINVAL,
				  "secret key %s: the file name must be "
				  "<key-id>.key, key id [A-Za-z0-9._-], at "
				  "most %d characters",
				  secret_key_file, TF_FWDB_KEY_ID_MAX);
	dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return tf_err_set(err, errno, "firmware database %s: %m", dir);
	r = tf_fwdb_read_file(dirfd, dir, TF_FWDB_MANIFEST, TF_FWDB_MAX_MANIFEST, &manifest,
			      &len, NULL, err);
	if (r < 0)
		return r;
	/* A signature vouches for the content: refuse to sign a broken one. */
	{
		char name[PATH_MAX];

		snprintf(name, sizeof(name), "%s/%s", dir, TF_FWDB_MANIFEST);
		r = tf_fwdb_parse_manifest(manifest, len, name, &db, err);
		if (r < 0)
			return tf_err_prefix(err, "refusing to sign: ");
		tf_fwdb_free(db);
	}
	r = tf_fwdb_read_file(dirfd, dir, TF_FWDB_SIGNATURE, SIG_FILE_MAX, &old, &old_len, NULL,
			      err);
	if (r == -ENOENT) {
		tf_err_clear(err);
	} else if (r < 0) {
		return r;
	} else {
		/* Comments only is fine: this adds the first line. */
		r = tf_fwdb_parse_sig_lines(old, old_len, TF_FWDB_SIGNATURE, true, &lines,
					    &n_lines, err);
		if (r < 0)
			return tf_err_prefix(err, "refusing to rewrite %s/: ", dir);
		free(lines);
	}
	r = read_secret_key(secret_key_file, sk, err);
	if (r < 0)
		return r;
	crypto_sign_detached(sig, NULL, (const unsigned char *)manifest, len, sk);
	crypto_sign_ed25519_sk_to_pk(pk, sk);
	sodium_memzero(sk, sizeof(sk));
	if (crypto_sign_verify_detached(sig, (const unsigned char *)manifest, len, pk) != 0)
		return tf_err_set(err, EIO,
				  "signature made with %s does not "
				  "verify",
				  secret_key_file);
	sodium_bin2base64(b64, sizeof(b64), sig, sizeof(sig), sodium_base64_VARIANT_ORIGINAL);
	snprintf(line, sizeof(line), "%s %s", id, b64);
	text = merge_signature(old, old_len, id, line);
	if (!text)
		return tf_err_set(err, ENOMEM, "out of memory");
	return tf_replace_file(dir, TF_FWDB_SIGNATURE, text, strlen(text), 0644, err);
}

/* A new key file: tf_create_at() (touchfw(8), FILES), never over a key. */
static int write_new_file(int dirfd, const char *dir, const char *name, const char *text,
			  mode_t mode, struct tf_err *err)
{
	int r = tf_create_at(dirfd, dir, name, text, strlen(text), mode, err);

	if (r == -EEXIST)
		return tf_err_set(err, EEXIST, "%s/%s exists (refusing to overwrite a key)",
				  dir, name);
	return r;
}

int tf_fwdb_keygen(const char *dir, const char *key_id, struct tf_err *err)
{
	uint8_t pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES];
	char sk64[sodium_base64_ENCODED_LEN(crypto_sign_SECRETKEYBYTES,
					    sodium_base64_VARIANT_ORIGINAL) +
		  1];
	char pk64[sodium_base64_ENCODED_LEN(crypto_sign_PUBLICKEYBYTES,
					    sodium_base64_VARIANT_ORIGINAL) +
		  1];
	char key_name[TF_FWDB_KEY_ID_MAX + 8], pub_name[TF_FWDB_KEY_ID_MAX + 8];
	_cleanup_close_ int dirfd = -1;
	size_t n;
	int r;

	if (!dir || !tf_fwdb_key_id_valid(key_id))
		return tf_err_set(err, EINVAL,
				  "'%s' is not a key id ([A-Za-z0-9._-], at "
				  "most %d characters)",
				  key_id ? key_id : "", TF_FWDB_KEY_ID_MAX);
	r = tf_fwdb_crypto_ready(err);
	if (r < 0)
		return r;
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return tf_err_set(err, errno, "%s: %m", dir);
	dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return tf_err_set(err, errno, "%s: %m", dir);
	snprintf(key_name, sizeof(key_name), "%s.key", key_id);
	snprintf(pub_name, sizeof(pub_name), "%s.pub", key_id);
	if (faccessat(dirfd, pub_name, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		return tf_err_set(err, EEXIST, "%s/%s exists (refusing to overwrite a key)",
				  dir, pub_name);
	crypto_sign_keypair(pk, sk);
	sodium_bin2base64(sk64, sizeof(sk64), sk, sizeof(sk), sodium_base64_VARIANT_ORIGINAL);
	sodium_memzero(sk, sizeof(sk));
	sodium_bin2base64(pk64, sizeof(pk64), pk, sizeof(pk), sodium_base64_VARIANT_ORIGINAL);
	n = strlen(sk64);
	sk64[n] = '\n';
	sk64[n + 1] = '\0';
	n = strlen(pk64);
	pk64[n] = '\n';
	pk64[n + 1] = '\0';
	r = write_new_file(dirfd, dir, key_name, sk64, 0600, err);
	sodium_memzero(sk64, sizeof(sk64));
	if (r < 0)
		return r;
	r = write_new_file(dirfd, dir, pub_name, pk64, 0644, err);
	if (r < 0)
		unlinkat(dirfd, key_name, 0);
	return r;
}
