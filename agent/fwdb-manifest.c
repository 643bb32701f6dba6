// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Firmware database manifest parser (pure: a buffer in, a struct tf_fwdb
 * out, no file access): the reader, and the checks of each blob section
 * once it is complete.  Each key's value is fwdb-manifest-values.c's; the
 * lookups in a parsed manifest and tf_fwdb_free() are fwdb-blobs.c's.
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
#include "fwdb-manifest-priv.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "family/family.h"

static int begin_section(struct parser *p, const char *id)
{
	struct tf_fwdb *db = p->db;
	struct tf_blob *b;
	size_t i;

	p->after_key = false;
	if (!strcmp(id, "database")) {
		if (p->have_db)
			return manifest_perr(p, p->lineno, NULL, NULL,
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
			return manifest_perr(p, p->lineno, NULL, NULL,
					     "duplicate section [%s] (first on line %u)", id,
					     db->blobs[i].line);
	if (db->n_blobs >= TF_FWDB_MAX_BLOBS)
		return manifest_perr(p, p->lineno, NULL, NULL, "more than %d blob sections",
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
		return manifest_perr(p, p->lineno, NULL, NULL, "section header without ']'");
	n = (size_t)(close - s - 1);
	if (n == 0 || n > TF_FWDB_ID_MAX)
		return manifest_perr(p, p->lineno, NULL, NULL,
				     "a section name has 1 to %d characters", TF_FWDB_ID_MAX);
	memcpy(id, s + 1, n);
	id[n] = '\0';
	if (!manifest_token_ok(id, TF_FWDB_ID_MAX, "._+-"))
		return manifest_perr(p, p->lineno, NULL, NULL,
				     "section name '%s' may only contain letters, "
				     "digits and . _ + -",
				     id);
	for (rest = close + 1; *rest && isspace((unsigned char)*rest); rest++)
		;
	if (*rest && *rest != ';')
		return manifest_perr(p, p->lineno, NULL, NULL, "unexpected text after [%s]",
				     id);
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
		return manifest_perr(p, p->lineno, manifest_section_label(p), NULL,
				     "expected 'key = value'");
	if (e == s)
		return manifest_perr(p, p->lineno, manifest_section_label(p), NULL,
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

		if ((c < 0x20 && c != '\t' && !(c == '\r' && i == n - 1)) || c == 0x7f) {
			manifest_perr(p, p->lineno, NULL, NULL,
				      "control character 0x%02X in column %zu", c, i + 1);
			return NULL;
		}
	}
	/* Room for the line, the '\n' that libinih expects and the NUL. */
	if (n > (size_t)num - 2) {
		manifest_perr(p, p->lineno, NULL, NULL,
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
		if (manifest_keys[k].database == database &&
		    !strcmp(manifest_keys[k].name, name)) {
			*id = (enum key)k;
			return &manifest_keys[k];
		}
	return NULL;
}

static void list_keys(bool database, char *buf, size_t size)
{
	size_t used = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < K_COUNT_; k++)
		if (manifest_keys[k].database == database && used < size) {
			snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
				 manifest_keys[k].name);
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
		if (manifest_keys[p->cur_key].continues)
			return manifest_keys[p->cur_key].set(p, value, true) == 0;
		manifest_bad(p,
			     "indented line continues '%s', which takes one value "
			     "(remove the indentation)",
			     manifest_keys[p->cur_key].name);
		return 0;
	}
	if (p->kind != LINE_KEY) {
		manifest_perr(p, p->lineno, NULL, NULL, "unexpected line");
		return 0;
	}
	if (p->sec == SEC_NONE) {
		manifest_perr(p, p->lineno, NULL, name,
			      "key outside any section (the manifest starts with "
			      "[database])");
		return 0;
	}
	k = find_key(name, p->sec == SEC_DATABASE, &id);
	if (!k) {
		list_keys(p->sec == SEC_DATABASE, valid, sizeof(valid));
		manifest_perr(p, p->lineno, manifest_section_label(p), NULL,
			      "unknown key '%s' (known: %s)", name, valid);
		return 0;
	}
	p->cur_key = id;
	if (p->cur_lines[id]) {
		manifest_bad(p, "duplicate key (first on line %u)", p->cur_lines[id]);
		return 0;
	}
	p->cur_lines[id] = p->lineno;
	if (!*value && !k->may_be_empty) {
		manifest_bad(p, "empty value");
		return 0;
	}
	return k->set(p, value, false) == 0;
}

static int check_version(struct parser *p, const struct tf_blob *b, const unsigned *lines,
			 enum key k, const char *s, struct tf_version *v)
{
	const struct tf_version_scheme *sch = tf_version_scheme_for(b->family);

	if (tf_version_parse_scheme(sch, s, v) < 0)
		return manifest_perr(p, lines[k], b->id, manifest_keys[k].name,
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
			return manifest_perr(p, b->line, b->id, NULL,
					     "missing required key '%s'",
					     manifest_keys[required[i]].name);
	if (b->n_hardware == 0)
		return manifest_perr(p, lines[K_HARDWARE], b->id, "hardware", "no hardware id");
	if (b->type == TF_BLOB_FIRMWARE) {
		if (!lines[K_VERSION])
			return manifest_perr(p, b->line, b->id, NULL,
					     "missing required key 'version' (the "
					     "version this firmware installs)");
		for (i = 0; i < TF_ARRAY_SIZE(config_only); i++)
			if (lines[config_only[i]])
				return manifest_perr(p, lines[config_only[i]], b->id,
						     manifest_keys[config_only[i]].name,
						     "only config blobs have this key");
		if (check_version(p, b, lines, K_VERSION, b->version, &b->v_version) < 0)
			return p->rc;
	} else {
		if (lines[K_BOOTLOADER_ID])
			return manifest_perr(p, lines[K_BOOTLOADER_ID], b->id, "bootloader_id",
					     "only firmware blobs have this key");
		if (!lines[K_FOR_VERSION])
			return manifest_perr(p, b->line, b->id, NULL,
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
		return manifest_perr(p, lines[K_MAX_FROM], b->id, "max_from",
				     "%s is below min_from %s", b->max_from, b->min_from);
	fam = tf_family_by_name(b->family);
	for (k = 0; fam && k < K_COUNT_; k++) {
		char owners[128] = "";
		size_t n = 0;

		if (!manifest_keys[k].family_owned || !lines[k] ||
		    tf_family_has_manifest_key(fam, manifest_keys[k].name))
			continue;
		for (i = 0; tf_families[i]; i++)
			if (tf_family_has_manifest_key(tf_families[i], manifest_keys[k].name) &&
			    n < sizeof(owners))
				n += (size_t)snprintf(owners + n, sizeof(owners) - n, "%s%s",
						      n ? ", " : "", tf_families[i]->ids->name);
		return manifest_perr(
			p, lines[k], b->id, manifest_keys[k].name,
			"a %s blob has no such key (only %s blobs have it); leave it out",
			b->family, owners[0] ? owners : "no family's");
	}
	if (fam && b->bootloader_id && !fam->caps.bootloader_mode)
		return manifest_perr(
			p, lines[K_BOOTLOADER_ID], b->id, "bootloader_id",
			"%s chips have no bootloader mode touchfw can read an id in",
			b->family);
	if (!fam || !fam->check_blob)
		return 0;
	/* The family's own rules: hardware ids, CRC widths, lengths. */
	if (fam->check_blob(b, &key, msg, sizeof(msg)) < 0) {
		for (k = 0; k < K_COUNT_; k++)
			if (key && manifest_keys[k].name && !strcmp(manifest_keys[k].name, key))
				break;
		return manifest_perr(p, k < K_COUNT_ ? lines[k] : b->line, b->id, key, "%s",
				     msg);
	}
	return 0;
}

static int finish_manifest(struct parser *p)
{
	size_t i;

	if (!p->have_db)
		return manifest_perr(p, 0, NULL, NULL,
				     "no [database] section (with format = %d)",
				     TF_FWDB_FORMAT);
	if (!p->db_lines[K_FORMAT])
		return manifest_perr(p, p->db_line, "database", NULL,
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
		manifest_perr(&p, (unsigned)r, NULL, NULL, "syntax error");
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
