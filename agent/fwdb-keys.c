// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Firmware database key and signature files: the parsers for a public key
 * file (one base64 Ed25519 key, '#' comments) and for manifest.ini.sig
 * (one "key-id base64-signature" line per signer).  Pure: buffers in,
 * keys and signature lines out.
 */
#include "fwdb-priv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ crypto */

int tf_fwdb_crypto_ready(struct tf_err *err)
{
	static bool ready;

	if (!ready) {
		if (sodium_init() < 0)
			return tf_err_set(err, EIO, "libsodium failed to start");
		ready = true;
	}
	return 0;
}

/* ------------------------------------------------------------ key files */

static int b64_decode_exact(const char *s, size_t n, uint8_t *out, size_t out_len)
{
	const char *end = NULL;
	size_t got = 0;

	if (sodium_base642bin(out, out_len, s, n, NULL, &got, &end,
			      sodium_base64_VARIANT_ORIGINAL) != 0 ||
	    end != s + n || got != out_len)
		return -EBADMSG;
	return 0;
}

/* Next line of [*pos, len) without its '\n' and trailing blanks. */
bool tf_fwdb_next_line(const char *buf, size_t len, size_t *pos, const char **line, size_t *n)
{
	const char *s, *nl;
	size_t l;

	if (*pos >= len)
		return false;
	s = buf + *pos;
	nl = memchr(s, '\n', len - *pos);
	l = nl ? (size_t)(nl - s) : len - *pos;
	*pos += nl ? l + 1 : l;
	while (l && (s[l - 1] == ' ' || s[l - 1] == '\t' || s[l - 1] == '\r'))
		l--;
	*line = s;
	*n = l;
	return true;
}

/* Length of the token at @s (up to a blank or @n): @s is not terminated. */
size_t tf_fwdb_token_len(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] != ' ' && s[i] != '\t')
		i++;
	return i;
}

int tf_fwdb_parse_key(const char *buf, size_t len, const char *name, uint8_t *key,
		      size_t key_len, struct tf_err *err)
{
	size_t pos = 0, n;
	unsigned lineno = 0, found = 0;
	const char *line;
	int r;

	r = tf_fwdb_crypto_ready(err);
	if (r < 0)
		return r;
	while (tf_fwdb_next_line(buf, len, &pos, &line, &n)) {
		lineno++;
		if (n == 0 || line[0] == '#')
			continue;
		if (found)
			return tf_err_set(err, EBADMSG,
					  "%s:%u: a key file holds one key "
					  "(already read one on line %u)",
					  name, lineno, found);
		if (b64_decode_exact(line, n, key, key_len) < 0) {
			sodium_memzero(key, key_len);
			return tf_err_set(err, EBADMSG,
					  "%s:%u: not the base64 of a "
					  "%zu-byte key",
					  name, lineno, key_len);
		}
		found = lineno;
	}
	if (!found)
		return tf_err_set(err, EBADMSG, "%s: no key in the file", name);
	return 0;
}

int tf_fwdb_parse_sig_lines(const char *buf, size_t len, const char *name, bool allow_none,
			    struct tf_sig_line **out, size_t *n_out, struct tf_err *err)
{
	struct tf_sig_line *lines = NULL, *nl;
	size_t pos = 0, n, n_lines = 0, idlen, i;
	unsigned lineno = 0;
	const char *line, *sig;
	int r;

	*out = NULL;
	*n_out = 0;
	r = tf_fwdb_crypto_ready(err);
	if (r < 0)
		return r;
	if (len > SIG_FILE_MAX)
		return tf_err_set(err, EFBIG, "%s: larger than %d bytes", name, SIG_FILE_MAX);
	if (memchr(buf, '\0', len))
		return tf_err_set(err, EBADMSG, "%s: contains a NUL byte", name);
	while (tf_fwdb_next_line(buf, len, &pos, &line, &n)) {
		lineno++;
		if (n == 0 || line[0] == '#')
			continue;
		idlen = tf_fwdb_token_len(line, n);
		if (idlen == 0 || idlen > TF_FWDB_KEY_ID_MAX) {
			r = tf_err_set(err, EBADMSG,
				       "%s:%u: expected '<key-id> <base64 "
				       "signature>'",
				       name, lineno);
			goto fail;
		}
		nl = realloc(lines, (n_lines + 1) * sizeof(*lines));
		if (!nl) {
			r = tf_err_set(err, ENOMEM, "out of memory");
			goto fail;
		}
		lines = nl;
		memset(&lines[n_lines], 0, sizeof(*lines));
		memcpy(lines[n_lines].key_id, line, idlen);
		lines[n_lines].line = lineno;
		if (!tf_fwdb_key_id_valid(lines[n_lines].key_id)) {
			r = tf_err_set(err, EBADMSG,
				       "%s:%u: '%s' is not a key id "
				       "([A-Za-z0-9._-])",
				       name, lineno, lines[n_lines].key_id);
			goto fail;
		}
		for (i = 0; i < n_lines; i++)
			if (!strcmp(lines[i].key_id, lines[n_lines].key_id)) {
				r = tf_err_set(err, EBADMSG,
					       "%s:%u: second signature by "
					       "'%s' (first on line %u)",
					       name, lineno, lines[i].key_id, lines[i].line);
				goto fail;
			}
		sig = line + idlen;
		while (sig < line + n && (*sig == ' ' || *sig == '\t'))
			sig++;
		if (sig == line + n ||
		    b64_decode_exact(sig, (size_t)(line + n - sig), lines[n_lines].sig,
				     sizeof(lines[n_lines].sig)) < 0) {
			r = tf_err_set(err, EBADMSG,
				       "%s:%u: signature by '%s' is not the "
				       "base64 of a %d-byte Ed25519 signature",
				       name, lineno, lines[n_lines].key_id, crypto_sign_BYTES);
			goto fail;
		}
		n_lines++;
	}
	if (n_lines == 0 && !allow_none) {
		r = tf_err_set(err, EBADMSG, "%s: no signature lines", name);
		goto fail;
	}
	*out = lines;
	*n_out = n_lines;
	return 0;
fail:
	free(lines);
	return r;
}

int tf_fwdb_parse_signatures(const char *buf, size_t len, const char *name,
			     struct tf_sig_line **out, size_t *n_out, struct tf_err *err)
{
	return tf_fwdb_parse_sig_lines(buf, len, name, false, out, n_out, err);
}
