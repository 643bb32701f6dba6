// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The firmware database manifest's keys: the table of them (which section
 * takes each, whether it goes on over indented lines or may be empty) and
 * each one's value parser, with the character sets of ids, tokens and
 * paths, and the messages that name file, line, section and key.  The
 * reader that calls them is fwdb-manifest.c.
 */
#include "fwdb-manifest-priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ tokens */

static bool in_set(char c, const char *extra)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr(extra, c));
}

bool manifest_token_ok(const char *s, size_t max, const char *extra)
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
	return id && manifest_token_ok(id, TF_FWDB_KEY_ID_MAX, "._-");
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

/* ------------------------------------------------------------ messages */

const char *manifest_section_label(const struct parser *p)
{
	if (p->sec == SEC_DATABASE)
		return "database";
	if (p->sec == SEC_BLOB)
		return p->blob->id;
	return NULL;
}

/* "NAME:LINE: [SECTION] KEY: message"; parts left out when unknown. */
int manifest_perr(struct parser *p, unsigned line, const char *sect, const char *key,
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
int manifest_bad(struct parser *p, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return manifest_perr(p, p->lineno, manifest_section_label(p),
			     manifest_keys[p->cur_key].name, "%s", msg);
}

/* ------------------------------------------------------------ values */

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
			return manifest_bad(p, "%s longer than %d characters", what, TOKEN_MAX);
		memcpy(tok, v, len);
		tok[len] = '\0';
		v += len;
		if (!ok(tok))
			return manifest_bad(p, "'%s' is not a valid %s", tok, what);
		for (i = 0; i < *n; i++)
			if (!strcmp((*list)[i], tok))
				return manifest_bad(p, "%s '%s' listed twice", what, tok);
		if (*n >= TF_FWDB_MAX_LIST)
			return manifest_bad(p, "more than %d entries", TF_FWDB_MAX_LIST);
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
		return manifest_bad(p,
				    "format %s is not supported (this touchfw "
				    "reads format %d)",
				    v, TF_FWDB_FORMAT);
	return manifest_bad(p, "'%s' is not a number", v);
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
		return manifest_bad(p, "'%s' is neither 'firmware' nor 'config'", v);
	return 0;
}

static int set_family(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	if (!family_ok(v))
		return manifest_bad(p,
				    "'%s' is not a family name ([a-z0-9_-], at most "
				    "%d characters)",
				    v, FAMILY_MAX);
	return set_str(p, &p->blob->family, v);
}

static bool hw_token_ok(const char *s)
{
	return manifest_token_ok(s, TOKEN_MAX, "._:-");
}

static int set_hardware(struct parser *p, const char *v, bool cont)
{
	(void)cont;
	return add_tokens(p, &p->blob->hardware, &p->blob->n_hardware, v, hw_token_ok,
			  "hardware id");
}

static bool board_token_ok(const char *s)
{
	return manifest_token_ok(s, TOKEN_MAX, ",._+:-");
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
	if (!manifest_token_ok(v, TF_VERSION_STR_MAX - 1, "._+-"))
		return manifest_bad(p, "'%s' is not a version", v);
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
		return manifest_bad(p, "'%s' %s", v, why);
	return set_str(p, &p->blob->file, v);
}

static int set_size(struct parser *p, const char *v, bool cont)
{
	uint64_t s = 0;
	size_t i;

	(void)cont;
	for (i = 0; v[i]; i++) {
		if (v[i] < '0' || v[i] > '9')
			return manifest_bad(p, "'%s' is not a decimal number of bytes", v);
		s = s * 10 + (uint64_t)(v[i] - '0');
		if (s > TF_FWDB_MAX_BLOB_SIZE)
			return manifest_bad(p,
					    "%s bytes is larger than the limit of "
					    "%llu",
					    v, TF_FWDB_MAX_BLOB_SIZE);
	}
	if (v[0] == '0')
		return manifest_bad(p, "'%s': a size is not 0 and has no leading zeros", v);
	p->blob->size = s;
	return 0;
}

static int parse_sha256(struct parser *p, const char *v, uint8_t *out)
{
	size_t i;

	if (strlen(v) != 2 * SHA256_LEN)
		return manifest_bad(p, "must be 64 hex digits, found %zu characters",
				    strlen(v));
	for (i = 0; i < SHA256_LEN; i++) {
		int hi = tf_hexval(v[2 * i]), lo = tf_hexval(v[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return manifest_bad(p, "'%c' is not a hex digit",
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
		return manifest_bad(p, "'%s' is not 0x followed by 1 to 8 hex digits", v);
	for (i = 2; i < n; i++) {
		int d = tf_hexval(v[i]);

		if (d < 0)
			return manifest_bad(p, "'%c' is not a hex digit", v[i]);
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
	if (!manifest_token_ok(v, 31, "._:-"))
		return manifest_bad(p, "'%s' is not a bootloader id", v);
	return set_str(p, &p->blob->bootloader_id, v);
}

const struct key_def manifest_keys[K_COUNT_] = {
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
