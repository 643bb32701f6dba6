// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Firmware database manifest parser (pure: a buffer in, a struct tf_fwdb
 * out, no file access), the names of its enums, tf_fwdb_free(), and the
 * pure lookups in a parsed manifest (a blob by id, does a blob fit a
 * hardware, a board, a running version).
 *
 * libinih does not tell its handler the line number, and it silently
 * truncates long section names and reads indented lines as continuations,
 * so the manifest goes through ini_parse_stream() with a reader that hands
 * it one line at a time from a buffer: the reader counts lines, classifies
 * each line exactly as libinih will (comment, continuation, section, key)
 * and handles section headers itself; the handler only sees key = value.
 * The first error stops the parse (the reader returns end of input), so a
 * message always names the first problem with its line.
 */
#include "fwdb-priv.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "family/family.h"

/* ------------------------------------------------------------ tokens */

static bool in_set(char c, const char *extra)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr(extra, c));
}

static bool token_ok(const char *s, size_t max, const char *extra)
{
	size_t n = 0;

	for (; s[n]; n++)
		if (!in_set(s[n], extra) || n >= max)
			return false;
	return n > 0;
}

static bool family_ok(const char *s)
{
	size_t n;

	for (n = 0; s[n]; n++)
		if (!((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') ||
		      s[n] == '_' || s[n] == '-') ||
		    n >= FAMILY_MAX)
			return false;
	return n > 0;
}

bool tf_fwdb_key_id_valid(const char *id)
{
	return id && token_ok(id, TF_FWDB_KEY_ID_MAX, "._-");
}

static const char *path_problem(const char *path)
{
	const char *c = path, *slash;
	size_t n;

	if (!*path)
		return "is empty";
	if (strlen(path) > PATH_LEN_MAX)
		return "is longer than 255 characters";
	if (*path == '/')
		return "must be relative to the database directory, "
		       "not absolute";
	for (;;) {
		slash = strchr(c, '/');
		n = slash ? (size_t)(slash - c) : strlen(c);
		if (n == 0)
			return "has an empty component ('//' or a trailing "
			       "'/')";
		if (n == 2 && !memcmp(c, "..", 2))
			return "must not contain '..'";
		if (n == 1 && *c == '.')
			return "must not contain a '.' component";
		while (n--)
			if (!in_set(*c++, "._+,@=-"))
				return "may only contain letters, digits, '/' "
				       "and . _ + , @ = -";
		if (!slash)
			return NULL;
		c = slash + 1;
	}
}

bool tf_fwdb_path_valid(const char *path)
{
	return path && !path_problem(path);
}

/* ------------------------------------------------------------ manifest */

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

static const struct key_def keys[K_COUNT_];

static const char *section_label(const struct parser *p)
{
	if (p->sec == SEC_DATABASE)
		return "database";
	if (p->sec == SEC_BLOB)
		return p->blob->id;
	return NULL;
}

/* "NAME:LINE: [SECTION] KEY: message"; parts left out when unknown. */
__attribute__((format(printf, 5, 6))) static int
perr(struct parser *p, unsigned line, const char *sect, const char *key, const char *fmt, ...)
{
	char msg[384], where[sizeof(((struct tf_err *)0)->msg)];
	size_t n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(where, sizeof(where), "%s", p->name);
	n = strlen(where);
	if (line)
		snprintf(where + n, sizeof(where) - n, ":%u", line);
	n = strlen(where);
	snprintf(where + n, sizeof(where) - n, ":");
	n = strlen(where);
	if (sect)
		snprintf(where + n, sizeof(where) - n, " [%s]", sect);
	n = strlen(where);
	if (key)
		snprintf(where + n, sizeof(where) - n, " %s:", key);
	p->rc = tf_err_set(p->err, EBADMSG, "%s %s", where, msg);
	return p->rc;
}

/* An error about the key on the current line. */
__attribute__((format(printf, 2, 3))) static int bad(struct parser *p, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return perr(p, p->lineno, section_label(p), keys[p->cur_key].name, "%s", msg);
}

static int set_str(struct parser *p, char **dst, const char *v)
{
	*dst = strdup(v);
	if (!*dst)
		return p->rc = tf_err_set(p->err, ENOMEM, "out of memory");
	return 0;
}

/* Append whitespace-separated tokens of @v to a list, each checked. */
static int add_tokens(struct parser *p, char ***list, size_t *n, const char *v,
		      bool (*ok)(const char *), const char *what)
{
	char tok[TOKEN_MAX + 1];
	size_t len, i;
	char **nl;

	while (*v) {
		while (*v == ' ' || *v == '\t')
			v++;
		if (!*v)
			break;
		len = strcspn(v, " \t");
		if (len > TOKEN_MAX)
			return bad(p, "%s longer than %d characters", what, TOKEN_MAX);
		memcpy(tok, v, len);
		tok[len] = '\0';
		v += len;
		if (!ok(tok))
			return bad(p, "'%s' is not a valid %s", tok, what);
		for (i = 0; i < *n; i++)
			if (!strcmp((*list)[i], tok))
				return bad(p, "%s '%s' listed twice", what, tok);
		if (*n >= TF_FWDB_MAX_LIST)
			return bad(p, "more than %d entries", TF_FWDB_MAX_LIST);
		nl = realloc(*list, (*n + 1) * sizeof(**list));
		if (!nl)
			return p->rc = tf_err_set(p->err, ENOMEM, "out of memory");
		*list = nl;
		if (set_str(p, &nl[*n], tok) < 0)
			return p->rc;
		(*n)++;
	}
	return 0;
}

static int set_format(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	if (!strcmp(v, "1"))
		return 0;
	if (strspn(v, "0123456789") == strlen(v))
		return bad(p,
			   "format %s is not supported (this touchfw "
			   "reads format %d)",
			   v, TF_FWDB_FORMAT);
	return bad(p, "'%s' is not a number", v);
}

static int set_description(struct parser *p, const char *v, bool cont)
{
	char *d;

	if (!cont || !p->db->description)
		return set_str(p, &p->db->description, v);
	if (asprintf(&d, "%s %s", p->db->description, v) < 0)
		return p->rc = tf_err_set(p->err, ENOMEM, "out of memory");
	free(p->db->description);
	p->db->description = d;
	return 0;
}

static int set_type(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	if (!strcmp(v, "firmware"))
		p->blob->type = TF_BLOB_FIRMWARE;
	else if (!strcmp(v, "config"))
		p->blob->type = TF_BLOB_CONFIG;
	else
		return bad(p, "'%s' is neither 'firmware' nor 'config'", v);
	return 0;
}

static int set_family(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	if (!family_ok(v))
		return bad(p,
			   "'%s' is not a family name ([a-z0-9_-], at most "
			   "%d characters)",
			   v, FAMILY_MAX);
	return set_str(p, &p->blob->family, v);
}

static bool hw_token_ok(const char *s)
{
	return token_ok(s, TOKEN_MAX, "._:-");
}

static int set_hardware(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	return add_tokens(p, &p->blob->hardware, &p->blob->n_hardware, v, hw_token_ok,
			  "hardware id");
}

static bool board_token_ok(const char *s)
{
	return token_ok(s, TOKEN_MAX, ",._+:-");
}

static int set_boards(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	return add_tokens(p, &p->blob->boards, &p->blob->n_boards, v, board_token_ok,
			  "board id");
}

/* Versions are checked against the family's scheme once the section is
 * complete (family may come later); here only the character set. */
static int set_version_str(struct parser *p, char **dst, const char *v)
{
	if (!token_ok(v, TF_VERSION_STR_MAX - 1, "._+-"))
		return bad(p, "'%s' is not a version", v);
	return set_str(p, dst, v);
}

static int set_version(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	return set_version_str(p, &p->blob->version, v);
}

static int set_for_version(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	return set_version_str(p, &p->blob->for_version, v);
}

static int set_min_from(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	return set_version_str(p, &p->blob->min_from, v);
}

static int set_max_from(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	return set_version_str(p, &p->blob->max_from, v);
}

static int set_file(struct parser *p, const char *v, bool cont)
{
	const char *why = path_problem(v);

	(void)cont;
	if (why)
		return bad(p, "'%s' %s", v, why);
	return set_str(p, &p->blob->file, v);
}

static int set_size(struct parser *p, const char *v, bool cont)
{
	uint64_t s = 0;
	size_t i;

	(void)cont;
	for (i = 0; v[i]; i++) {
		if (v[i] < '0' || v[i] > '9')
			return bad(p, "'%s' is not a decimal number of bytes", v);
		s = s * 10 + (uint64_t)(v[i] - '0');
		if (s > TF_FWDB_MAX_BLOB_SIZE)
			return bad(p,
				   "%s bytes is larger than the limit of "
				   "%llu",
				   v, TF_FWDB_MAX_BLOB_SIZE);
	}
	if (v[0] == '0')
		return bad(p, "'%s': a size is not 0 and has no leading zeros", v);
	p->blob->size = s;
	return 0;
}

static int parse_sha256(struct parser *p, const char *v, uint8_t *out)
{
	size_t i;

	if (strlen(v) != 2 * SHA256_LEN)
		return bad(p, "must be 64 hex digits, found %zu characters", strlen(v));
	for (i = 0; i < SHA256_LEN; i++) {
		int hi = tf_hexval(v[2 * i]), lo = tf_hexval(v[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return bad(p, "'%c' is not a hex digit",
				   hi < 0 ? v[2 * i] : v[2 * i + 1]);
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

static int set_sha256(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	return parse_sha256(p, v, p->blob->sha256);
}

/* The file `db add` converted the blob from (provenance only: the file
 * is not in the database, so nothing checks it). */
static int set_source_sha256(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	p->blob->has_source_sha256 = true;
	return parse_sha256(p, v, p->blob->source_sha256);
}

/* "0x" and 1 to 8 hex digits; the family's width is checked later. */
static int set_crc(struct parser *p, const char *v, uint32_t *crc, bool *has)
{
	uint32_t c = 0;
	size_t i, n = strlen(v);

	if (n < 3 || n > 10 || v[0] != '0' || (v[1] != 'x' && v[1] != 'X'))
		return bad(p, "'%s' is not 0x followed by 1 to 8 hex digits", v);
	for (i = 2; i < n; i++) {
		int d = tf_hexval(v[i]);

		if (d < 0)
			return bad(p, "'%c' is not a hex digit", v[i]);
		c = c << 4 | (uint32_t)d;
	}
	*crc = c;
	*has = true;
	return 0;
}

static int set_info_crc(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	return set_crc(p, v, &p->blob->info_crc, &p->blob->has_info_crc);
}

static int set_config_crc(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	return set_crc(p, v, &p->blob->config_crc, &p->blob->has_config_crc);
}

/* The family checks the syntax (check_blob); here only the character set. */
static int set_bootloader_id(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	if (!token_ok(v, 31, "._:-"))
		return bad(p, "'%s' is not a bootloader id", v);
	return set_str(p, &p->blob->bootloader_id, v);
}

static const struct key_def keys[K_COUNT_] = {
	[K_FORMAT] = { "format", true, false, false, set_format },
	[K_DESCRIPTION] = { "description", true, true, true, set_description },
	[K_TYPE] = { "type", false, false, false, set_type },
	[K_FAMILY] = { "family", false, false, false, set_family },
	[K_HARDWARE] = { "hardware", false, true, false, set_hardware },
	[K_VERSION] = { "version", false, false, false, set_version },
	[K_FOR_VERSION] = { "for_version", false, false, false, set_for_version },
	[K_FILE] = { "file", false, false, false, set_file },
	[K_SIZE] = { "size", false, false, false, set_size },
	[K_SHA256] = { "sha256", false, false, false, set_sha256 },
	[K_BOARDS] = { "boards", false, true, true, set_boards },
	[K_MIN_FROM] = { "min_from", false, false, false, set_min_from },
	[K_MAX_FROM] = { "max_from", false, false, false, set_max_from },
	[K_INFO_CRC] = { "info_crc", false, false, false, set_info_crc, true },
	[K_CONFIG_CRC] = { "config_crc", false, false, false, set_config_crc },
	[K_BOOTLOADER_ID] = { "bootloader_id", false, false, false, set_bootloader_id },
	[K_SOURCE_SHA256] = { "source_sha256", false, false, false, set_source_sha256 },
};

static int begin_section(struct parser *p, const char *id)
{
	struct tf_fwdb *db = p->db;
	struct tf_blob *b;
	size_t i;

	p->after_key = false;
	if (!strcmp(id, "database")) {
		if (p->have_db)
			return perr(p, p->lineno, NULL, NULL,
				    "duplicate section [database] (first on "
				    "line %u)",
				    p->db_line);
		p->have_db = true;
		p->db_line = p->lineno;
		p->sec = SEC_DATABASE;
		p->cur_lines = p->db_lines;
		return 0;
	}
	for (i = 0; i < db->n_blobs; i++)
		if (!strcmp(db->blobs[i].id, id))
			return perr(p, p->lineno, NULL, NULL,
				    "duplicate section [%s] (first on line %u)", id,
				    db->blobs[i].line);
	if (db->n_blobs >= TF_FWDB_MAX_BLOBS)
		return perr(p, p->lineno, NULL, NULL, "more than %d blob sections",
			    TF_FWDB_MAX_BLOBS);
	if (db->n_blobs == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 8;
		struct tf_blob *nb = realloc(db->blobs, cap * sizeof(*nb));
		unsigned(*nl)[K_COUNT_];

		if (!nb)
			return p->rc = tf_err_set(p->err, ENOMEM, "out of memory");
		db->blobs = nb;
		nl = realloc(p->blob_lines, cap * sizeof(*nl));
		if (!nl)
			return p->rc = tf_err_set(p->err, ENOMEM, "out of memory");
		p->blob_lines = nl;
		p->cap = cap;
	}
	b = &db->blobs[db->n_blobs];
	memset(b, 0, sizeof(*b));
	memset(p->blob_lines[db->n_blobs], 0, sizeof(p->blob_lines[0]));
	b->line = p->lineno;
	b->id = strdup(id);
	if (!b->id)
		return p->rc = tf_err_set(p->err, ENOMEM, "out of memory");
	p->cur_lines = p->blob_lines[db->n_blobs];
	db->n_blobs++;
	p->blob = b;
	p->sec = SEC_BLOB;
	return 0;
}

/* "[id]", optionally followed by blanks and a ';' comment. */
static int section_header(struct parser *p, const char *s)
{
	char id[TF_FWDB_ID_MAX + 1];
	const char *close = strchr(s + 1, ']'), *rest;
	size_t n;

	if (!close)
		return perr(p, p->lineno, NULL, NULL, "section header without ']'");
	n = (size_t)(close - s - 1);
	if (n == 0 || n > TF_FWDB_ID_MAX)
		return perr(p, p->lineno, NULL, NULL, "a section name has 1 to %d characters",
			    TF_FWDB_ID_MAX);
	memcpy(id, s + 1, n);
	id[n] = '\0';
	if (!token_ok(id, TF_FWDB_ID_MAX, "._+-"))
		return perr(p, p->lineno, NULL, NULL,
			    "section name '%s' may only contain letters, "
			    "digits and . _ + -",
			    id);
	for (rest = close + 1; *rest && isspace((unsigned char)*rest); rest++)
		;
	if (*rest && *rest != ';')
		return perr(p, p->lineno, NULL, NULL, "unexpected text after [%s]", id);
	return begin_section(p, id);
}

/*
 * libinih's idea of where a "name = value" line splits: the first of
 * @chars, or an inline ';' comment (one that follows a blank).
 */
static const char *find_chars_or_comment(const char *s, const char *chars)
{
	bool was_space = false;

	while (*s && !strchr(chars, *s) && !(was_space && *s == ';')) {
		was_space = isspace((unsigned char)*s);
		s++;
	}
	return s;
}

/* Classify @line (one line, '\n'-terminated) the way libinih will. */
static int classify_line(struct parser *p, const char *line)
{
	const char *s = line, *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	p->kind = LINE_NONE;
	if (!*s || *s == ';' || *s == '#')
		return 0;
	if (p->after_key && s > line) {
		p->kind = LINE_CONT;
		return 0;
	}
	if (*s == '[')
		return section_header(p, s);
	e = find_chars_or_comment(s, "=:");
	if (*e != '=')
		return perr(p, p->lineno, section_label(p), NULL, "expected 'key = value'");
	if (e == s)
		return perr(p, p->lineno, section_label(p), NULL, "no key name before '='");
	p->kind = LINE_KEY;
	p->after_key = true;
	return 0;
}

/* libinih's reader callback: the next line of the buffer, like fgets(). */
static char *manifest_reader(char *str, int num, void *stream)
{
	struct parser *p = stream;
	const char *start, *nl;
	size_t n, i;

	if (p->rc || p->pos >= p->len || num < 3)
		return NULL;
	start = p->buf + p->pos;
	nl = memchr(start, '\n', p->len - p->pos);
	n = nl ? (size_t)(nl - start) : p->len - p->pos;
	p->pos += nl ? n + 1 : n;
	p->lineno++;
	if (p->lineno == 1 && n >= 3 && !memcmp(start, "\xEF\xBB\xBF", 3)) {
		start += 3;
		n -= 3;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)start[i];

		if ((c < 0x20 && c != '\t' && !(c == '\r' && i == n - 1)) || c == 0x7f) {
			perr(p, p->lineno, NULL, NULL, "control character 0x%02X in column %zu",
			     c, i + 1);
			return NULL;
		}
	}
	/* Room for the line, the '\n' that libinih expects and the NUL. */
	if (n > (size_t)num - 2) {
		perr(p, p->lineno, NULL, NULL,
		     "line longer than %d characters (continue a list on "
		     "indented lines)",
		     num - 2);
		return NULL;
	}
	memcpy(str, start, n);
	str[n] = '\n';
	str[n + 1] = '\0';
	if (classify_line(p, str) < 0)
		return NULL;
	return str;
}

static const struct key_def *find_key(const char *name, bool database, enum key *id)
{
	int k;

	for (k = 0; k < K_COUNT_; k++)
		if (keys[k].database == database && !strcmp(keys[k].name, name)) {
			*id = (enum key)k;
			return &keys[k];
		}
	return NULL;
}

static void list_keys(bool database, char *buf, size_t size)
{
	size_t used = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < K_COUNT_; k++)
		if (keys[k].database == database && used < size) {
			snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
				 keys[k].name);
			used += strlen(buf + used);
		}
}

static int manifest_handler(void *user, const char *section, const char *name,
			    const char *value)
{
	struct parser *p = user;
	const struct key_def *k;
	enum key id;
	char valid[200];

	(void)section; /* libinih truncates it; the reader tracks sections */
	if (p->rc)
		return 0;
	if (p->kind == LINE_CONT) {
		if (keys[p->cur_key].continues)
			return keys[p->cur_key].set(p, value, true) == 0;
		bad(p,
		    "indented line continues '%s', which takes one value "
		    "(remove the indentation)",
		    keys[p->cur_key].name);
		return 0;
	}
	if (p->kind != LINE_KEY) {
		perr(p, p->lineno, NULL, NULL, "unexpected line");
		return 0;
	}
	if (p->sec == SEC_NONE) {
		perr(p, p->lineno, NULL, name,
		     "key outside any section (the manifest starts with "
		     "[database])");
		return 0;
	}
	k = find_key(name, p->sec == SEC_DATABASE, &id);
	if (!k) {
		list_keys(p->sec == SEC_DATABASE, valid, sizeof(valid));
		perr(p, p->lineno, section_label(p), NULL, "unknown key '%s' (known: %s)", name,
		     valid);
		return 0;
	}
	p->cur_key = id;
	if (p->cur_lines[id]) {
		bad(p, "duplicate key (first on line %u)", p->cur_lines[id]);
		return 0;
	}
	p->cur_lines[id] = p->lineno;
	if (!*value && !k->may_be_empty) {
		bad(p, "empty value");
		return 0;
	}
	return k->set(p, value, false) == 0;
}

static int check_version(struct parser *p, const struct tf_blob *b, const unsigned *lines,
			 enum key k, const char *s, struct tf_version *v)
{
	const struct tf_version_scheme *sch = tf_version_scheme_for(b->family);

	if (tf_version_parse_scheme(sch, s, v) < 0)
		return perr(p, lines[k], b->id, keys[k].name,
			    "'%s' is not a version in the %s scheme: %s", s, sch->name,
			    sch->syntax);
	return 0;
}

static int finish_blob(struct parser *p, struct tf_blob *b, const unsigned *lines)
{
	static const enum key required[] = { K_TYPE, K_FAMILY, K_HARDWARE,
					     K_FILE, K_SIZE,   K_SHA256 };
	static const enum key config_only[] = { K_FOR_VERSION, K_INFO_CRC, K_CONFIG_CRC };
	const struct tf_family *fam;
	const char *key = NULL;
	char msg[320];
	unsigned k;
	size_t i;

	for (i = 0; i < TF_ARRAY_SIZE(required); i++)
		if (!lines[required[i]])
			return perr(p, b->line, b->id, NULL, "missing required key '%s'",
				    keys[required[i]].name);
	if (b->n_hardware == 0)
		return perr(p, lines[K_HARDWARE], b->id, "hardware", "no hardware id");
	if (b->type == TF_BLOB_FIRMWARE) {
		if (!lines[K_VERSION])
			return perr(p, b->line, b->id, NULL,
				    "missing required key 'version' (the "
				    "version this firmware installs)");
		for (i = 0; i < TF_ARRAY_SIZE(config_only); i++)
			if (lines[config_only[i]])
				return perr(p, lines[config_only[i]], b->id,
					    keys[config_only[i]].name,
					    "only config blobs have this key");
		if (check_version(p, b, lines, K_VERSION, b->version, &b->v_version) < 0)
			return p->rc;
	} else {
		if (lines[K_BOOTLOADER_ID])
			return perr(p, lines[K_BOOTLOADER_ID], b->id, "bootloader_id",
				    "only firmware blobs have this key");
		if (!lines[K_FOR_VERSION])
			return perr(p, b->line, b->id, NULL,
				    "missing required key 'for_version' (the "
				    "firmware version this config is for)");
		if (check_version(p, b, lines, K_FOR_VERSION, b->for_version,
				  &b->v_for_version) < 0)
			return p->rc;
	}
	if (b->min_from &&
	    check_version(p, b, lines, K_MIN_FROM, b->min_from, &b->v_min_from) < 0)
		return p->rc;
	if (b->max_from &&
	    check_version(p, b, lines, K_MAX_FROM, b->max_from, &b->v_max_from) < 0)
		return p->rc;
	if (b->min_from && b->max_from && tf_version_cmp(&b->v_min_from, &b->v_max_from) > 0)
		return perr(p, lines[K_MAX_FROM], b->id, "max_from", "%s is below min_from %s",
			    b->max_from, b->min_from);
	fam = tf_family_by_name(b->family);
	for (k = 0; fam && k < K_COUNT_; k++) {
		char owners[128] = "";
		size_t n = 0;

		if (!keys[k].family_owned || !lines[k] ||
		    tf_family_has_manifest_key(fam, keys[k].name))
			continue;
		for (i = 0; tf_families[i]; i++)
			if (tf_family_has_manifest_key(tf_families[i], keys[k].name) &&
			    n < sizeof(owners))
				n += (size_t)snprintf(owners + n, sizeof(owners) - n, "%s%s",
						      n ? ", " : "", tf_families[i]->ids->name);
		return perr(p, lines[k], b->id, keys[k].name,
			    "a %s blob has no such key (only %s blobs have it); leave it out",
			    b->family, owners[0] ? owners : "no family's");
	}
	if (fam && b->bootloader_id && !fam->caps.bootloader_mode)
		return perr(p, lines[K_BOOTLOADER_ID], b->id, "bootloader_id",
			    "%s chips have no bootloader mode touchfw can read an id in",
			    b->family);
	if (!fam || !fam->check_blob)
		return 0;
	/* The family's own rules: hardware ids, CRC widths, lengths. */
	if (fam->check_blob(b, &key, msg, sizeof(msg)) < 0) {
		for (k = 0; k < K_COUNT_; k++)
			if (key && keys[k].name && !strcmp(keys[k].name, key))
				break;
		return perr(p, k < K_COUNT_ ? lines[k] : b->line, b->id, key, "%s", msg);
	}
	return 0;
}

static int finish_manifest(struct parser *p)
{
	size_t i;

	if (!p->have_db)
		return perr(p, 0, NULL, NULL, "no [database] section (with format = %d)",
			    TF_FWDB_FORMAT);
	if (!p->db_lines[K_FORMAT])
		return perr(p, p->db_line, "database", NULL,
			    "missing required key 'format' (format = %d)", TF_FWDB_FORMAT);
	for (i = 0; i < p->db->n_blobs; i++)
		if (finish_blob(p, &p->db->blobs[i], p->blob_lines[i]) < 0)
			return p->rc;
	return 0;
}

static struct tf_fwdb *fwdb_new(void)
{
	struct tf_fwdb *db = calloc(1, sizeof(*db));

	if (db)
		db->dirfd = -1;
	return db;
}

int tf_fwdb_parse_manifest(const char *buf, size_t len, const char *name, struct tf_fwdb **out,
			   struct tf_err *err)
{
	struct parser p = { .buf = buf, .len = len, .err = err };
	int r;

	*out = NULL;
	p.name = name ? name : TF_FWDB_MANIFEST;
	if (len > TF_FWDB_MAX_MANIFEST)
		return tf_err_set(err, EFBIG, "%s: larger than %d bytes", p.name,
				  TF_FWDB_MAX_MANIFEST);
	p.db = fwdb_new();
	if (!p.db)
		return tf_err_set(err, ENOMEM, "out of memory");
	r = ini_parse_stream(manifest_reader, &p, manifest_handler, &p);
	if (!p.rc && r > 0)
		perr(&p, (unsigned)r, NULL, NULL, "syntax error");
	else if (!p.rc && r < 0)
		p.rc = tf_err_set(err, ENOMEM, "%s: libinih failed (%d)", p.name, r);
	if (!p.rc)
		finish_manifest(&p);
	free(p.blob_lines);
	if (p.rc) {
		tf_fwdb_free(p.db);
		return p.rc;
	}
	*out = p.db;
	return 0;
}

static void free_list(char **list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

void tf_fwdb_free(struct tf_fwdb *db)
{
	size_t i;

	if (!db)
		return;
	for (i = 0; i < db->n_blobs; i++) {
		struct tf_blob *b = &db->blobs[i];

		free(b->id);
		free(b->family);
		free_list(b->hardware, b->n_hardware);
		free(b->version);
		free(b->for_version);
		free(b->min_from);
		free(b->max_from);
		free(b->bootloader_id);
		free_list(b->boards, b->n_boards);
		free(b->file);
	}
	free(db->blobs);
	free(db->sig_lines);
	free(db->description);
	free(db->dir);
	if (db->dirfd >= 0)
		close(db->dirfd);
	free(db);
}

/* ------------------------------------------------------------ names */

const char *tf_blob_type_name(enum tf_blob_type t)
{
	return t == TF_BLOB_CONFIG ? "config" : "firmware";
}

/* ------------------------------------------------------------ lookups */

const struct tf_blob *tf_fwdb_find(const struct tf_fwdb *db, const char *id)
{
	size_t i;

	if (!db || !id)
		return NULL;
	for (i = 0; i < db->n_blobs; i++)
		if (!strcmp(db->blobs[i].id, id))
			return &db->blobs[i];
	return NULL;
}

bool tf_blob_fits_hardware(const struct tf_blob *b, const char *hw)
{
	size_t i;

	if (!b || !hw)
		return false;
	for (i = 0; i < b->n_hardware; i++)
		if (!strcmp(b->hardware[i], hw))
			return true;
	return false;
}

bool tf_blob_fits_board(const struct tf_blob *b, const char *const *board_ids, size_t n)
{
	size_t i, j;

	if (!b)
		return false;
	if (b->n_boards == 0)
		return true;
	for (i = 0; i < n; i++)
		for (j = 0; j < b->n_boards; j++)
			if (board_ids[i] && !strcmp(board_ids[i], b->boards[j]))
				return true;
	return false;
}

bool tf_blob_fits_from_version(const struct tf_blob *b, const struct tf_version *current)
{
	if (!b)
		return false;
	if (!current)
		return !b->min_from && !b->max_from;
	if (b->min_from && tf_version_cmp(current, &b->v_min_from) < 0)
		return false;
	if (b->max_from && tf_version_cmp(current, &b->v_max_from) > 0)
		return false;
	return true;
}
