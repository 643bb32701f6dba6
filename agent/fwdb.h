/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The firmware database: a directory with manifest.ini (one section per
 * firmware or config blob: what it is for, its file, size and SHA-256), an
 * optional detached Ed25519 signature manifest.ini.sig, and the blob files.
 * Loading parses the manifest and checks the signature against a keys
 * directory, but leaves blob contents alone so that it stays cheap; a blob
 * is opened (never through a symlink, never outside the directory) and its
 * size and hash checked only when it is read.  firmware-db/README.md is the
 * format's reference for OEMs.
 *
 * Functions return 0 or -errno and explain failures in a struct tf_err
 * naming the file, line, section and key; they never log.  Error codes:
 * -EBADMSG malformed manifest, signature or key file, or a blob whose size
 * or hash does not match; -ENOKEY no signature where one is required, or no
 * known key for any signature line; -EKEYREJECTED a signature that does not
 * verify; -ELOOP a symlink on a blob's path; -EINVAL bad arguments.
 */
#ifndef TF_FWDB_H
#define TF_FWDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "util.h"
#include "version.h"

#define TF_FWDB_MANIFEST "manifest.ini"
#define TF_FWDB_SIGNATURE "manifest.ini.sig"
/* Where `touchfw db` looks unless told otherwise (a setting may override). */
#define TF_FWDB_DEFAULT_DIR TF_DATADIR "/firmware-db"
#define TF_FWDB_DEFAULT_KEYS_DIR TF_SYSCONFDIR "/keys"

#define TF_FWDB_FORMAT 1
#define TF_FWDB_MAX_MANIFEST (1024 * 1024)
#define TF_FWDB_MAX_BLOB_SIZE (64ULL * 1024 * 1024)
#define TF_FWDB_MAX_BLOBS 4096
#define TF_FWDB_MAX_LIST 256 /* hardware ids, boards per blob */
#define TF_FWDB_ID_MAX 64    /* section (blob) id length */
#define TF_FWDB_KEY_ID_MAX 63

enum tf_blob_type {
	TF_BLOB_FIRMWARE,
	TF_BLOB_CONFIG,
};

enum tf_sig_policy {
	TF_SIG_OFF,	 /* signature file ignored */
	TF_SIG_OPTIONAL, /* checked if present; absent is "unsigned" only while
			    no trusted key is installed, else as required */
	TF_SIG_REQUIRED, /* some line must verify with a known key */
};

enum tf_sig_state {
	TF_SIG_STATE_NOT_CHECKED, /* policy off, or parsed from a buffer */
	TF_SIG_STATE_UNSIGNED,	  /* policy optional and no .sig file */
	TF_SIG_STATE_VERIFIED,
};

struct tf_blob {
	char *id; /* the section name */
	enum tf_blob_type type;
	char *family;
	char **hardware; /* family-defined ids, at least one */
	size_t n_hardware;
	char *version;		   /* firmware: installed version; config: label/NULL */
	char *for_version;	   /* config: the firmware it is written for */
	char *min_from, *max_from; /* NULL when absent */
	/* firmware: the bootloader id of the chips it is made for, in the
	 * family's canonical form (tf_chip_state.bl_id); NULL: not given */
	char *bootloader_id;
	char **boards; /* none: any board */
	size_t n_boards;
	char *file; /* relative to the DB directory, already checked */
	uint64_t size;
	uint8_t sha256[32];
	/* `db add` converted the blob from another file: that file's hash */
	bool has_source_sha256;
	uint8_t source_sha256[32];
	bool has_info_crc, has_config_crc;
	uint32_t info_crc, config_crc;
	unsigned line; /* the section header's line in manifest.ini */
	/* Parsed by the family's scheme where the string above is set
	 * (v_version only for firmware: a config's version is a label). */
	struct tf_version v_version, v_for_version, v_min_from, v_max_from;
};

struct tf_fwdb_opts {
	enum tf_sig_policy sig;
	const char *keys_dir; /* NULL: TF_FWDB_DEFAULT_KEYS_DIR */
};

/* What each line of manifest.ini.sig came to, for `db check`. */
enum tf_sig_line_result {
	TF_SIG_LINE_VERIFIED,
	TF_SIG_LINE_BAD,	 /* key known, signature does not verify */
	TF_SIG_LINE_UNKNOWN_KEY, /* no <key-id>.pub in the keys directory */
};

struct tf_sig_line {
	char key_id[TF_FWDB_KEY_ID_MAX + 1];
	uint8_t sig[64];
	unsigned line;
	enum tf_sig_line_result result; /* set by tf_fwdb_load() */
};

struct tf_fwdb {
	char *dir; /* NULL for a manifest parsed from a buffer */
	int dirfd; /* O_PATH descriptor of dir, or -1 */
	char *description;
	struct tf_blob *blobs;
	size_t n_blobs;
	enum tf_sig_state sig_state;
	bool is_signed;
	char signer[TF_FWDB_KEY_ID_MAX + 1]; /* first key that verified */
	struct tf_sig_line *sig_lines;
	size_t n_sig_lines;
	/* Identity of the manifest.ini that was read, for tf_fwdb_changed(). */
	dev_t dev;
	ino_t ino;
	off_t manifest_size;
	struct timespec mtime;
};

/*
 * Parse manifest bytes (pure: no file access, no signature).  @name names
 * the source in messages.  On success *@out has dir == NULL, dirfd == -1.
 */
int tf_fwdb_parse_manifest(const char *buf, size_t len, const char *name, struct tf_fwdb **out,
			   struct tf_err *err);

/*
 * Parse manifest.ini.sig bytes (pure).  Lines are "<key-id> <base64>";
 * blank lines and lines starting with '#' are skipped.  At least one
 * signature line, each key id at most once.
 */
int tf_fwdb_parse_signatures(const char *buf, size_t len, const char *name,
			     struct tf_sig_line **out, size_t *n_out, struct tf_err *err);

/*
 * Parse a key file (pure): one base64 line decoding to exactly @key_len
 * bytes, '#' comment lines and blank lines allowed.
 */
int tf_fwdb_parse_key(const char *buf, size_t len, const char *name, uint8_t *key,
		      size_t key_len, struct tf_err *err);

/*
 * Open @dir, read and parse its manifest, apply the signature policy
 * (@opts NULL: required, default keys directory).  Blob files are not read.
 */
int tf_fwdb_load(const char *dir, const struct tf_fwdb_opts *opts, struct tf_fwdb **out,
		 struct tf_err *err);

/* 1 if manifest.ini is no longer the file that was loaded, 0 if it is,
 * -errno if it can not be checked. */
int tf_fwdb_changed(const struct tf_fwdb *db);

/*
 * Read blob @b of @db into a heap buffer (free()) after checking that the
 * file is a regular file reached without symlinks, that its size is the
 * manifest's and its SHA-256 matches.  Nothing unverified is returned.
 */
int tf_fwdb_read_blob(const struct tf_fwdb *db, const struct tf_blob *b, uint8_t **data,
		      size_t *len, struct tf_err *err);
/* The same checks without keeping the data. */
int tf_fwdb_verify_blob(const struct tf_fwdb *db, const struct tf_blob *b, struct tf_err *err);

const struct tf_blob *tf_fwdb_find(const struct tf_fwdb *db, const char *id);
bool tf_blob_fits_hardware(const struct tf_blob *b, const char *hw);
/* True if the blob names no boards, or names one of @board_ids. */
bool tf_blob_fits_board(const struct tf_blob *b, const char *const *board_ids, size_t n);
/*
 * True if @current lies in [min_from, max_from] (absent bounds are open).
 * @current NULL means "unknown" and fits only a blob without bounds.
 */
bool tf_blob_fits_from_version(const struct tf_blob *b, const struct tf_version *current);
void tf_fwdb_free(struct tf_fwdb *db);

/*
 * Sign @dir/manifest.ini with the secret key file "<key-id>.key" (mode
 * 0600, not group/world accessible): refuses a manifest that does not
 * parse, then adds or replaces this key's line in manifest.ini.sig,
 * keeping other keys' lines, atomically (rename).
 */
int tf_fwdb_sign(const char *dir, const char *secret_key_file, struct tf_err *err);
/* Write @dir/<key_id>.key (0600) and @dir/<key_id>.pub (0644); never
 * overwrites (-EEXIST). */
int tf_fwdb_keygen(const char *dir, const char *key_id, struct tf_err *err);

/* Key ids: [A-Za-z0-9._-]+, at most TF_FWDB_KEY_ID_MAX characters. */
bool tf_fwdb_key_id_valid(const char *id);
/* The key id of a secret key file path ("dir/acme-2024.key" -> "acme-2024"). */
int tf_fwdb_key_id_from_path(const char *path, char *id, size_t size);

int tf_sig_policy_parse(const char *s, enum tf_sig_policy *out);
const char *tf_sig_policy_name(enum tf_sig_policy p);
const char *tf_blob_type_name(enum tf_blob_type t);

/* The manifest's rule for a blob path: relative, no "", "." or ".."
 * components, limited character set. */
bool tf_fwdb_path_valid(const char *path);

#endif /* TF_FWDB_H */
