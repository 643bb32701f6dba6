// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Firmware database: manifest parsing (libinih), signature checking and
 * signing (libsodium Ed25519), safe blob access (openat2 RESOLVE_BENEATH,
 * or an O_NOFOLLOW walk on kernels without it) and blob matching.
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
#include "fwdb.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ini.h>
#include <sodium.h>

#include "family/family.h"

#if defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define TF_HAVE_OPENAT2_H 1
#endif
#endif
#ifndef TF_HAVE_OPENAT2_H
struct open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS   0x04
#define RESOLVE_BENEATH	      0x08
#endif
#ifndef SYS_openat2
#define SYS_openat2 437 /* the same on every architecture but alpha */
#endif

#define SIG_FILE_MAX (64 * 1024)
#define KEY_FILE_MAX 4096
#define FAMILY_MAX   32
#define TOKEN_MAX    128
#define PATH_LEN_MAX 255
#define SHA256_LEN   crypto_hash_sha256_BYTES
#define READ_CHUNK   65536

/* ------------------------------------------------------------ crypto */

static int crypto_ready(struct tf_err *err)
{
	static bool ready;

	if (!ready) {
		if (sodium_init() < 0)
			return tf_err_set(err, EIO,
					  "libsodium failed to start");
		ready = true;
	}
	return 0;
}

/* ------------------------------------------------------------ tokens */

static bool in_set(char c, const char *extra)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr(extra, c));
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
		if (!((s[n] >= 'a' && s[n] <= 'z') ||
		      (s[n] >= '0' && s[n] <= '9') || s[n] == '_' ||
		      s[n] == '-') ||
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

static void hex_encode(const uint8_t *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
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
perr(struct parser *p, unsigned line, const char *sect, const char *key,
     const char *fmt, ...)
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
__attribute__((format(printf, 2, 3))) static int bad(struct parser *p,
						     const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return perr(p, p->lineno, section_label(p), keys[p->cur_key].name, "%s",
		    msg);
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
			return bad(p, "%s longer than %d characters", what,
				   TOKEN_MAX);
		memcpy(tok, v, len);
		tok[len] = '\0';
		v += len;
		if (!ok(tok))
			return bad(p, "'%s' is not a valid %s", tok, what);
		for (i = 0; i < *n; i++)
			if (!strcmp((*list)[i], tok))
				return bad(p, "%s '%s' listed twice", what,
					   tok);
		if (*n >= TF_FWDB_MAX_LIST)
			return bad(p, "more than %d entries", TF_FWDB_MAX_LIST);
		nl = realloc(*list, (*n + 1) * sizeof(**list));
		if (!nl)
			return p->rc =
				   tf_err_set(p->err, ENOMEM, "out of memory");
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
	return add_tokens(p, &p->blob->hardware, &p->blob->n_hardware, v,
			  hw_token_ok, "hardware id");
}

static bool board_token_ok(const char *s)
{
	return token_ok(s, TOKEN_MAX, ",._+:-");
}

static int set_boards(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	return add_tokens(p, &p->blob->boards, &p->blob->n_boards, v,
			  board_token_ok, "board id");
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
			return bad(p, "'%s' is not a decimal number of bytes",
				   v);
		s = s * 10 + (uint64_t)(v[i] - '0');
		if (s > TF_FWDB_MAX_BLOB_SIZE)
			return bad(p,
				   "%s bytes is larger than the limit of "
				   "%llu",
				   v, TF_FWDB_MAX_BLOB_SIZE);
	}
	if (v[0] == '0')
		return bad(p, "'%s': a size is not 0 and has no leading zeros",
			   v);
	p->blob->size = s;
	return 0;
}

static int set_sha256(struct parser *p, const char *v, bool cont)
{
	size_t i;

	(void)cont;
	if (strlen(v) != 2 * SHA256_LEN)
		return bad(p, "must be 64 hex digits, found %zu characters",
			   strlen(v));
	for (i = 0; i < SHA256_LEN; i++) {
		int hi = tf_hexval(v[2 * i]), lo = tf_hexval(v[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return bad(p, "'%c' is not a hex digit",
				   hi < 0 ? v[2 * i] : v[2 * i + 1]);
		p->blob->sha256[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

/* "0x" and 1 to 8 hex digits; the family's width is checked later. */
static int set_crc(struct parser *p, const char *v, uint32_t *crc, bool *has)
{
	uint32_t c = 0;
	size_t i, n = strlen(v);

	if (n < 3 || n > 10 || v[0] != '0' || (v[1] != 'x' && v[1] != 'X'))
		return bad(p, "'%s' is not 0x followed by 1 to 8 hex digits",
			   v);
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

static const struct key_def keys[K_COUNT_] = {
	[K_FORMAT] = { "format", true, false, false, set_format },
	[K_DESCRIPTION] = { "description", true, true, true, set_description },
	[K_TYPE] = { "type", false, false, false, set_type },
	[K_FAMILY] = { "family", false, false, false, set_family },
	[K_HARDWARE] = { "hardware", false, true, false, set_hardware },
	[K_VERSION] = { "version", false, false, false, set_version },
	[K_FOR_VERSION] = { "for_version", false, false, false,
			    set_for_version },
	[K_FILE] = { "file", false, false, false, set_file },
	[K_SIZE] = { "size", false, false, false, set_size },
	[K_SHA256] = { "sha256", false, false, false, set_sha256 },
	[K_BOARDS] = { "boards", false, true, true, set_boards },
	[K_MIN_FROM] = { "min_from", false, false, false, set_min_from },
	[K_MAX_FROM] = { "max_from", false, false, false, set_max_from },
	[K_INFO_CRC] = { "info_crc", false, false, false, set_info_crc },
	[K_CONFIG_CRC] = { "config_crc", false, false, false, set_config_crc },
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
				    "duplicate section [%s] (first on line %u)",
				    id, db->blobs[i].line);
	if (db->n_blobs >= TF_FWDB_MAX_BLOBS)
		return perr(p, p->lineno, NULL, NULL,
			    "more than %d blob sections", TF_FWDB_MAX_BLOBS);
	if (db->n_blobs == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 8;
		struct tf_blob *nb = realloc(db->blobs, cap * sizeof(*nb));
		unsigned(*nl)[K_COUNT_];

		if (!nb)
			return p->rc =
				   tf_err_set(p->err, ENOMEM, "out of memory");
		db->blobs = nb;
		nl = realloc(p->blob_lines, cap * sizeof(*nl));
		if (!nl)
			return p->rc =
				   tf_err_set(p->err, ENOMEM, "out of memory");
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
		return perr(p, p->lineno, NULL, NULL,
			    "section header without ']'");
	n = (size_t)(close - s - 1);
	if (n == 0 || n > TF_FWDB_ID_MAX)
		return perr(p, p->lineno, NULL, NULL,
			    "a section name has 1 to %d characters",
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
		return perr(p, p->lineno, NULL, NULL,
			    "unexpected text after [%s]", id);
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
		return perr(p, p->lineno, section_label(p), NULL,
			    "expected 'key = value'");
	if (e == s)
		return perr(p, p->lineno, section_label(p), NULL,
			    "no key name before '='");
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

		if ((c < 0x20 && c != '\t' && !(c == '\r' && i == n - 1)) ||
		    c == 0x7f) {
			perr(p, p->lineno, NULL, NULL,
			     "control character 0x%02X in column %zu", c,
			     i + 1);
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

static const struct key_def *find_key(const char *name, bool database,
				      enum key *id)
{
	int k;

	for (k = 0; k < K_COUNT_; k++)
		if (keys[k].database == database &&
		    !strcmp(keys[k].name, name)) {
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
			snprintf(buf + used, size - used, "%s%s",
				 used ? ", " : "", keys[k].name);
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
		perr(p, p->lineno, section_label(p), NULL,
		     "unknown key '%s' (known: %s)", name, valid);
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

static int check_version(struct parser *p, const struct tf_blob *b,
			 const unsigned *lines, enum key k, const char *s,
			 struct tf_version *v)
{
	const struct tf_version_scheme *sch = tf_version_scheme_for(b->family);

	if (tf_version_parse_scheme(sch, s, v) < 0)
		return perr(p, lines[k], b->id, keys[k].name,
			    "'%s' is not a version in the %s scheme: %s", s,
			    sch->name, sch->syntax);
	return 0;
}

static int finish_blob(struct parser *p, struct tf_blob *b,
		       const unsigned *lines)
{
	static const enum key required[] = { K_TYPE, K_FAMILY, K_HARDWARE,
					     K_FILE, K_SIZE,   K_SHA256 };
	static const enum key config_only[] = { K_FOR_VERSION, K_INFO_CRC,
						K_CONFIG_CRC };
	const struct tf_family *fam;
	const char *key = NULL;
	char msg[320];
	unsigned k;
	size_t i;

	for (i = 0; i < TF_ARRAY_SIZE(required); i++)
		if (!lines[required[i]])
			return perr(p, b->line, b->id, NULL,
				    "missing required key '%s'",
				    keys[required[i]].name);
	if (b->n_hardware == 0)
		return perr(p, lines[K_HARDWARE], b->id, "hardware",
			    "no hardware id");
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
		if (check_version(p, b, lines, K_VERSION, b->version,
				  &b->v_version) < 0)
			return p->rc;
	} else {
		if (!lines[K_FOR_VERSION])
			return perr(p, b->line, b->id, NULL,
				    "missing required key 'for_version' (the "
				    "firmware version this config is for)");
		if (check_version(p, b, lines, K_FOR_VERSION, b->for_version,
				  &b->v_for_version) < 0)
			return p->rc;
	}
	if (b->min_from && check_version(p, b, lines, K_MIN_FROM, b->min_from,
					 &b->v_min_from) < 0)
		return p->rc;
	if (b->max_from && check_version(p, b, lines, K_MAX_FROM, b->max_from,
					 &b->v_max_from) < 0)
		return p->rc;
	if (b->min_from && b->max_from &&
	    tf_version_cmp(&b->v_min_from, &b->v_max_from) > 0)
		return perr(p, lines[K_MAX_FROM], b->id, "max_from",
			    "%s is below min_from %s", b->max_from,
			    b->min_from);
	fam = tf_family_by_name(b->family);
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
		return perr(p, 0, NULL, NULL,
			    "no [database] section (with format = %d)",
			    TF_FWDB_FORMAT);
	if (!p->db_lines[K_FORMAT])
		return perr(p, p->db_line, "database", NULL,
			    "missing required key 'format' (format = %d)",
			    TF_FWDB_FORMAT);
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

int tf_fwdb_parse_manifest(const char *buf, size_t len, const char *name,
			   struct tf_fwdb **out, struct tf_err *err)
{
	struct parser p = { .buf = buf, .len = len, .err = err };
	int r;

	*out = NULL;
	p.name = name ? name : TF_FWDB_MANIFEST;
	if (len > TF_FWDB_MAX_MANIFEST)
		return tf_err_set(err, EFBIG, "%s: larger than %d bytes",
				  p.name, TF_FWDB_MAX_MANIFEST);
	p.db = fwdb_new();
	if (!p.db)
		return tf_err_set(err, ENOMEM, "out of memory");
	r = ini_parse_stream(manifest_reader, &p, manifest_handler, &p);
	if (!p.rc && r > 0)
		perr(&p, (unsigned)r, NULL, NULL, "syntax error");
	else if (!p.rc && r < 0)
		p.rc = tf_err_set(err, ENOMEM, "%s: libinih failed (%d)",
				  p.name, r);
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

/* ------------------------------------------------------------ key files */

static int b64_decode_exact(const char *s, size_t n, uint8_t *out,
			    size_t out_len)
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
static bool next_line(const char *buf, size_t len, size_t *pos,
		      const char **line, size_t *n)
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
static size_t token_len(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] != ' ' && s[i] != '\t')
		i++;
	return i;
}

int tf_fwdb_parse_key(const char *buf, size_t len, const char *name,
		      uint8_t *key, size_t key_len, struct tf_err *err)
{
	size_t pos = 0, n;
	unsigned lineno = 0, found = 0;
	const char *line;
	int r;

	r = crypto_ready(err);
	if (r < 0)
		return r;
	while (next_line(buf, len, &pos, &line, &n)) {
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

static int parse_signatures(const char *buf, size_t len, const char *name,
			    bool allow_none, struct tf_sig_line **out,
			    size_t *n_out, struct tf_err *err)
{
	struct tf_sig_line *lines = NULL, *nl;
	size_t pos = 0, n, n_lines = 0, idlen, i;
	unsigned lineno = 0;
	const char *line, *sig;
	int r;

	*out = NULL;
	*n_out = 0;
	r = crypto_ready(err);
	if (r < 0)
		return r;
	if (len > SIG_FILE_MAX)
		return tf_err_set(err, EFBIG, "%s: larger than %d bytes", name,
				  SIG_FILE_MAX);
	if (memchr(buf, '\0', len))
		return tf_err_set(err, EBADMSG, "%s: contains a NUL byte",
				  name);
	while (next_line(buf, len, &pos, &line, &n)) {
		lineno++;
		if (n == 0 || line[0] == '#')
			continue;
		idlen = token_len(line, n);
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
					       name, lineno, lines[i].key_id,
					       lines[i].line);
				goto fail;
			}
		sig = line + idlen;
		while (sig < line + n && (*sig == ' ' || *sig == '\t'))
			sig++;
		if (sig == line + n ||
		    b64_decode_exact(sig, (size_t)(line + n - sig),
				     lines[n_lines].sig,
				     sizeof(lines[n_lines].sig)) < 0) {
			r = tf_err_set(err, EBADMSG,
				       "%s:%u: signature by '%s' is not the "
				       "base64 of a %d-byte Ed25519 signature",
				       name, lineno, lines[n_lines].key_id,
				       crypto_sign_BYTES);
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
			     struct tf_sig_line **out, size_t *n_out,
			     struct tf_err *err)
{
	return parse_signatures(buf, len, name, false, out, n_out, err);
}

/* ------------------------------------------------------------ files */

static int open_openat2(int dirfd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)flags,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};
	long fd;
	int tries = 0;

	/* RESOLVE_BENEATH answers EAGAIN when a rename raced the lookup. */
	do
		fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	while (fd < 0 && (errno == EAGAIN || errno == EINTR) && ++tries < 8);
	return fd < 0 ? -errno : (int)fd;
}

/* O_DIRECTORY | O_NOFOLLOW on a symlink fails with ENOTDIR; report it
 * as openat2's RESOLVE_NO_SYMLINKS does. */
static int walk_error(int dirfd, const char *comp)
{
	int e = errno;
	struct stat st;

	if (e == ENOTDIR &&
	    fstatat(dirfd, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode))
		return -ELOOP;
	return -e;
}

static int open_walk(int dirfd, const char *path, int flags)
{
	char buf[PATH_LEN_MAX + 1];
	_cleanup_close_ int cur = -1;
	char *comp = buf, *slash;
	int fd;

	if (tf_snprintf(buf, sizeof(buf), "%s", path) < 0)
		return -ENAMETOOLONG;
	while ((slash = strchr(comp, '/'))) {
		*slash = '\0';
		fd = openat(cur >= 0 ? cur : dirfd, comp,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return walk_error(cur >= 0 ? cur : dirfd, comp);
		if (cur >= 0)
			close(cur);
		cur = fd;
		comp = slash + 1;
	}
	fd = openat(cur >= 0 ? cur : dirfd, comp, flags | O_NOFOLLOW);
	return fd < 0 ? -errno : fd;
}

int tf_fwdb_open_beneath(int dirfd, const char *path, enum tf_open_method how)
{
	/* O_NONBLOCK: a FIFO planted in the DB must not hang the agent. */
	const int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
	static bool no_openat2;
	struct stat st;
	int fd;

	if (!tf_fwdb_path_valid(path))
		return -EINVAL;
	if (how == TF_OPEN_WALK || (how == TF_OPEN_AUTO && no_openat2)) {
		fd = open_walk(dirfd, path, flags);
	} else {
		fd = open_openat2(dirfd, path, flags);
		if (how == TF_OPEN_AUTO && (fd == -ENOSYS || fd == -EPERM)) {
			/* Old kernel (< 5.6) or a seccomp filter. */
			if (fd == -ENOSYS)
				no_openat2 = true;
			fd = open_walk(dirfd, path, flags);
		}
	}
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

static int read_fd_max(int fd, size_t max, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap + 1), *nb;
	ssize_t r;

	if (!b)
		return -ENOMEM;
	for (;;) {
		if (n == cap) {
			if (cap > max)
				break;
			cap *= 2;
			nb = realloc(b, cap + 1);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			r = -errno;
			free(b);
			return (int)r;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > max) {
		free(b);
		return -EFBIG;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
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
static int read_db_file(int dirfd, const char *dir, const char *name,
			size_t max, char **buf, size_t *len, struct stat *st,
			struct tf_err *err)
{
	_cleanup_close_ int fd =
	    tf_fwdb_open_beneath(dirfd, name, TF_OPEN_AUTO);
	int r;

	if (fd < 0)
		return tf_err_set(err, -fd, "%s/%s: %s", dir, name,
				  open_problem(fd));
	if (st && fstat(fd, st) < 0)
		return tf_err_set(err, errno, "%s/%s: %m", dir, name);
	r = read_fd_max(fd, max, buf, len);
	if (r == -EFBIG)
		return tf_err_set(err, EFBIG, "%s/%s: larger than %zu bytes",
				  dir, name, max);
	if (r < 0)
		return tf_err_set(err, -r, "%s/%s: %s", dir, name,
				  strerror(-r));
	return 0;
}

/* ------------------------------------------------------------ signatures */

static int read_public_key(int keysfd, const char *keys_dir, const char *id,
			   uint8_t pk[crypto_sign_PUBLICKEYBYTES],
			   struct tf_err *err)
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
	return tf_fwdb_parse_key(buf, len, path, pk, crypto_sign_PUBLICKEYBYTES,
				 err);
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

static int check_signature(struct tf_fwdb *db, int dirfd, const char *dir,
			   const char *manifest, size_t manifest_len,
			   const struct tf_fwdb_opts *opts, struct tf_err *err)
{
	const char *keys_dir =
	    opts->keys_dir ? opts->keys_dir : TF_FWDB_DEFAULT_KEYS_DIR;
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
	r = read_db_file(dirfd, dir, TF_FWDB_SIGNATURE, SIG_FILE_MAX, &buf,
			 &len, NULL, err);
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
		return tf_err_set(err, ENOKEY,
				  "%s: missing, and signatures are required",
				  sig_path);
	if (r < 0)
		return r;
	r = tf_fwdb_parse_signatures(buf, len, sig_path, &db->sig_lines,
				     &db->n_sig_lines, err);
	if (r < 0)
		return r;
	keysfd = open(keys_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (keysfd < 0 && errno != ENOENT)
		return tf_err_set(err, errno, "keys directory %s: %m",
				  keys_dir);
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
		if (crypto_sign_verify_detached(l->sig,
						(const unsigned char *)manifest,
						manifest_len, pk) == 0) {
			l->result = TF_SIG_LINE_VERIFIED;
			if (!db->is_signed)
				memcpy(db->signer, l->key_id,
				       sizeof(db->signer));
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
				  sig_path, bad->line, bad->key_id, dir,
				  TF_FWDB_MANIFEST);
	return tf_err_set(
	    err, ENOKEY,
	    "%s:%u: no public key %s/%s.pub for the signature by "
	    "'%s'%s",
	    sig_path, unknown->line, keys_dir, unknown->key_id, unknown->key_id,
	    keysfd < 0 ? " (the keys directory does not exist)" : "");
}

int tf_fwdb_load(const char *dir, const struct tf_fwdb_opts *opts,
		 struct tf_fwdb **out, struct tf_err *err)
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
	r = crypto_ready(err);
	if (r < 0)
		return r;
	dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return tf_err_set(err, errno, "firmware database %s: %m", dir);
	r = read_db_file(dirfd, dir, TF_FWDB_MANIFEST, TF_FWDB_MAX_MANIFEST,
			 &buf, &len, &st, err);
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
	if (tf_snprintf(path, sizeof(path), "%s/%s", db->dir,
			TF_FWDB_MANIFEST) < 0)
		return -ENAMETOOLONG;
	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 1 : -errno;
	return st.st_dev != db->dev || st.st_ino != db->ino ||
	       st.st_size != db->manifest_size ||
	       st.st_mtim.tv_sec != db->mtime.tv_sec ||
	       st.st_mtim.tv_nsec != db->mtime.tv_nsec;
}

/* ------------------------------------------------------------ blobs */

static int blob_check(const struct tf_fwdb *db, const struct tf_blob *b,
		      uint8_t **data, struct tf_err *err)
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
	ret = crypto_ready(err);
	if (ret < 0)
		return ret;
	fd = tf_fwdb_open_beneath(db->dirfd, b->file, TF_OPEN_AUTO);
	if (fd < 0)
		return tf_err_set(err, -fd, "%s/%s ([%s], line %u): %s",
				  db->dir, b->file, b->id, b->line,
				  open_problem(fd));
	if (fstat(fd, &st) < 0)
		return tf_err_set(err, errno, "%s/%s: %m", db->dir, b->file);
	if ((uint64_t)st.st_size < b->size)
		return tf_err_set(err, EBADMSG,
				  "%s/%s ([%s], line %u): truncated: %llu of "
				  "%llu bytes",
				  db->dir, b->file, b->id, b->line,
				  (unsigned long long)st.st_size,
				  (unsigned long long)b->size);
	if ((uint64_t)st.st_size > b->size)
		return tf_err_set(err, EBADMSG,
				  "%s/%s ([%s], line %u): size mismatch: "
				  "manifest says %llu bytes, file has %llu",
				  db->dir, b->file, b->id, b->line,
				  (unsigned long long)b->size,
				  (unsigned long long)st.st_size);
	if (data) {
		buf = malloc((size_t)b->size);
		if (!buf)
			return tf_err_set(err, ENOMEM, "out of memory");
	}
	crypto_hash_sha256_init(&h);
	/* Read one byte past the size to notice a file that grew. */
	for (;;) {
		size_t want = buf && got < b->size ? (size_t)(b->size - got)
						   : sizeof(chunk);

		dst = buf && got < b->size ? buf + got : chunk;
		r = read(fd, dst, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = tf_err_set(err, errno, "%s/%s: %m", db->dir,
					 b->file);
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
				 db->dir, b->file, b->id, b->line,
				 (unsigned long long)got,
				 (unsigned long long)b->size);
		goto fail;
	}
	crypto_hash_sha256_final(&h, digest);
	if (sodium_memcmp(digest, b->sha256, SHA256_LEN) != 0) {
		hex_encode(b->sha256, SHA256_LEN, want_hex);
		hex_encode(digest, SHA256_LEN, got_hex);
		ret = tf_err_set(err, EBADMSG,
				 "%s/%s ([%s], line %u): sha256 mismatch: "
				 "manifest says %s, file has %s",
				 db->dir, b->file, b->id, b->line, want_hex,
				 got_hex);
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

int tf_fwdb_read_blob(const struct tf_fwdb *db, const struct tf_blob *b,
		      uint8_t **data, size_t *len, struct tf_err *err)
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

int tf_fwdb_verify_blob(const struct tf_fwdb *db, const struct tf_blob *b,
			struct tf_err *err)
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

bool tf_blob_fits_board(const struct tf_blob *b, const char *const *board_ids,
			size_t n)
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

bool tf_blob_fits_from_version(const struct tf_blob *b,
			       const struct tf_version *current)
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

static int read_secret_key(const char *path,
			   uint8_t sk[crypto_sign_SECRETKEYBYTES],
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
		return tf_err_set(err, EINVAL,
				  "secret key %s: not a regular file", path);
	if (st.st_mode & 077)
		return tf_err_set(err, EPERM,
				  "secret key %s: mode %03o lets others read "
				  "it; chmod 600 it (and consider the key "
				  "leaked)",
				  path, (unsigned)(st.st_mode & 0777));
	r = read_fd_max(fd, KEY_FILE_MAX, &buf, &len);
	if (r < 0)
		return tf_err_set(err, -r, "secret key %s: %s", path,
				  strerror(-r));
	r = tf_fwdb_parse_key(buf, len, path, sk, crypto_sign_SECRETKEYBYTES,
			      err);
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

/* The signature file's new text: @old with @id's line replaced, or with
 * the line appended.  Comments and other keys' lines are kept. */
static char *merge_signature(const char *old, size_t old_len, const char *id,
			     const char *line)
{
	size_t pos = 0, n, cap = old_len + strlen(line) + 2, used = 0;
	char *out = malloc(cap + 1);
	bool replaced = false;
	const char *l;

	if (!out)
		return NULL;
	while (old && next_line(old, old_len, &pos, &l, &n)) {
		size_t idlen = token_len(l, n);

		if (n && l[0] != '#' && idlen == strlen(id) &&
		    !memcmp(l, id, idlen) && !replaced) {
			l = line;
			n = strlen(line);
			replaced = true;
		}
		if (used + n + 1 > cap) {
			free(out);
			return NULL;
		}
		memcpy(out + used, l, n);
		used += n;
		out[used++] = '\n';
	}
	if (!replaced) {
		n = strlen(line);
		if (used + n + 1 > cap) {
			free(out);
			return NULL;
		}
		memcpy(out + used, line, n);
		used += n;
		out[used++] = '\n';
	}
	out[used] = '\0';
	return out;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Replace @dir/@name with @text: temporary file, fsync, rename. */
static int replace_file(const char *dir, const char *name, const char *text,
			mode_t mode, struct tf_err *err)
{
	char tmp[PATH_MAX], dst[PATH_MAX];
	int fd, r;

	if (tf_snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name) < 0 ||
	    tf_snprintf(dst, sizeof(dst), "%s/%s", dir, name) < 0)
		return tf_err_set(err, ENAMETOOLONG, "%s: path too long", dir);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return tf_err_set(err, errno, "%s: %m", tmp);
	r = write_all(fd, text, strlen(text));
	if (r == 0 && fchmod(fd, mode) < 0)
		r = -errno;
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, dst) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return tf_err_set(err, -r, "%s: %s", dst, strerror(-r));
	}
	return 0;
}

int tf_fwdb_sign(const char *dir, const char *secret_key_file,
		 struct tf_err *err)
{
	uint8_t sk[crypto_sign_SECRETKEYBYTES], pk[crypto_sign_PUBLICKEYBYTES];
	uint8_t sig[crypto_sign_BYTES];
	char b64[sodium_base64_ENCODED_LEN(crypto_sign_BYTES,
					   sodium_base64_VARIANT_ORIGINAL)];
	char id[TF_FWDB_KEY_ID_MAX + 1], line[sizeof(id) + sizeof(b64) + 2];
	_cleanup_free_ char *manifest = NULL, *old = NULL, *text = NULL;
	_cleanup_close_ int dirfd = -1;
	struct tf_sig_line *lines;
	struct tf_fwdb *db;
	size_t len, old_len = 0, n_lines;
	int r;

	if (!dir || !secret_key_file)
		return tf_err_set(err, EINVAL, "no directory or key given");
	r = crypto_ready(err);
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
	r = read_db_file(dirfd, dir, TF_FWDB_MANIFEST, TF_FWDB_MAX_MANIFEST,
			 &manifest, &len, NULL, err);
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
	r = read_db_file(dirfd, dir, TF_FWDB_SIGNATURE, SIG_FILE_MAX, &old,
			 &old_len, NULL, err);
	if (r == -ENOENT) {
		tf_err_clear(err);
	} else if (r < 0) {
		return r;
	} else {
		/* Comments only is fine: this adds the first line. */
		r = parse_signatures(old, old_len, TF_FWDB_SIGNATURE, true,
				     &lines, &n_lines, err);
		if (r < 0)
			return tf_err_prefix(err,
					     "refusing to rewrite %s/: ", dir);
		free(lines);
	}
	r = read_secret_key(secret_key_file, sk, err);
	if (r < 0)
		return r;
	crypto_sign_detached(sig, NULL, (const unsigned char *)manifest, len,
			     sk);
	crypto_sign_ed25519_sk_to_pk(pk, sk);
	sodium_memzero(sk, sizeof(sk));
	if (crypto_sign_verify_detached(sig, (const unsigned char *)manifest,
					len, pk) != 0)
		return tf_err_set(err, EIO,
				  "signature made with %s does not "
				  "verify",
				  secret_key_file);
	sodium_bin2base64(b64, sizeof(b64), sig, sizeof(sig),
			  sodium_base64_VARIANT_ORIGINAL);
	snprintf(line, sizeof(line), "%s %s", id, b64);
	text = merge_signature(old, old_len, id, line);
	if (!text)
		return tf_err_set(err, ENOMEM, "out of memory");
	return replace_file(dir, TF_FWDB_SIGNATURE, text, 0644, err);
}

static int write_new_file(int dirfd, const char *dir, const char *name,
			  const char *text, mode_t mode, struct tf_err *err)
{
	int fd =
	    openat(dirfd, name,
		   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	int r;

	if (fd < 0)
		return tf_err_set(err, errno, "%s/%s: %m%s", dir, name,
				  errno == EEXIST ? " (refusing to overwrite "
						    "a key)"
						  : "");
	/* The umask may have taken bits away; make the mode exact. */
	r = fchmod(fd, mode) < 0 ? -errno : 0;
	if (r == 0)
		r = write_all(fd, text, strlen(text));
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0) {
		unlinkat(dirfd, name, 0);
		return tf_err_set(err, -r, "%s/%s: %s", dir, name,
				  strerror(-r));
	}
	return 0;
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
	r = crypto_ready(err);
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
		return tf_err_set(err, EEXIST,
				  "%s/%s exists (refusing to overwrite a key)",
				  dir, pub_name);
	crypto_sign_keypair(pk, sk);
	sodium_bin2base64(sk64, sizeof(sk64), sk, sizeof(sk),
			  sodium_base64_VARIANT_ORIGINAL);
	sodium_memzero(sk, sizeof(sk));
	sodium_bin2base64(pk64, sizeof(pk64), pk, sizeof(pk),
			  sodium_base64_VARIANT_ORIGINAL);
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

/* ------------------------------------------------------------ names */

int tf_sig_policy_parse(const char *s, enum tf_sig_policy *out)
{
	if (!s)
		return -EINVAL;
	if (!strcmp(s, "required"))
		*out = TF_SIG_REQUIRED;
	else if (!strcmp(s, "optional"))
		*out = TF_SIG_OPTIONAL;
	else if (!strcmp(s, "off"))
		*out = TF_SIG_OFF;
	else
		return -EINVAL;
	return 0;
}

const char *tf_sig_policy_name(enum tf_sig_policy p)
{
	switch (p) {
	case TF_SIG_OFF:
		return "off";
	case TF_SIG_OPTIONAL:
		return "optional";
	case TF_SIG_REQUIRED:
		return "required";
	}
	return "unknown";
}

const char *tf_blob_type_name(enum tf_blob_type t)
{
	return t == TF_BLOB_CONFIG ? "config" : "firmware";
}
