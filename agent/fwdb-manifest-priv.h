/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internals of the manifest parser, shared by its two files only:
 * fwdb-manifest.c (the reader: lines, sections, keys in their place, the
 * checks of a whole blob section) and fwdb-manifest-values.c (each key's
 * value, the character sets of ids and paths, and the messages naming
 * file, line, section and key).
 */
#ifndef TF_FWDB_MANIFEST_PRIV_H
#define TF_FWDB_MANIFEST_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "fwdb-priv.h"

enum key {
	K_FORMAT,
	K_DESCRIPTION,
	K_TYPE,
	K_FAMILY,
	K_HARDWARE,
	K_VERSION,
	K_FOR_VERSION,
	K_FILE,
	K_SIZE,
	K_SHA256,
	K_BOARDS,
	K_MIN_FROM,
	K_MAX_FROM,
	K_INFO_CRC,
	K_CONFIG_CRC,
	K_BOOTLOADER_ID,
	K_SOURCE_SHA256,
	K_COUNT_
};

enum line_kind {
	LINE_NONE, /* blank, comment or section header */
	LINE_KEY,
	LINE_CONT, /* indented line libinih will pass as a continuation */
};

enum section_kind {
	SEC_NONE,
	SEC_DATABASE,
	SEC_BLOB,
};

struct parser {
	const char *buf;
	size_t len, pos;
	const char *name;
	unsigned lineno;
	enum line_kind kind;
	bool after_key; /* mirrors libinih's prev_name */
	enum key cur_key;
	enum section_kind sec;
	struct tf_blob *blob; /* current blob section */
	unsigned *cur_lines;  /* key -> line it was set on, current section */
	bool have_db;
	unsigned db_line;
	unsigned db_lines[K_COUNT_];
	unsigned (*blob_lines)[K_COUNT_];
	size_t cap;
	struct tf_fwdb *db;
	struct tf_err *err;
	int rc;
};

struct key_def {
	const char *name;
	bool database;	/* key of [database], else of a blob section */
	bool continues; /* may go on over indented lines */
	bool may_be_empty;
	int (*set)(struct parser *p, const char *v, bool cont);
	/* A blob key only the families that register it take
	 * (tf_family.manifest_keys); others' sections are refused with it. */
	bool family_owned;
};

/* The keys, by enum key. */
extern const struct key_def manifest_keys[K_COUNT_];

/* @s is 1 to @max letters, digits and @extra. */
bool manifest_token_ok(const char *s, size_t max, const char *extra);
/* The current section's name for messages (NULL: none yet). */
const char *manifest_section_label(const struct parser *p);
/* "NAME:LINE: [SECTION] KEY: message"; parts left out when unknown.
 * Sets p->rc and returns it. */
int manifest_perr(struct parser *p, unsigned line, const char *sect, const char *key,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* An error about the key on the current line. */
int manifest_bad(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* TF_FWDB_MANIFEST_PRIV_H */
