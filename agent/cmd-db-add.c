// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw db add`: the database side of bring-up.  It makes a manifest
 * entry from what a blob says about itself (the family's blob_facts:
 * hardware, versions, CRCs), the command line filling only what the bytes
 * do not say and never contradicting them, then proves the new manifest
 * loads and the blob verifies before it replaces the old one.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "exitcode.h"
#include "family/family.h"
#include "fwdb.h"
#include "json.h"
#include "out.h"
#include "plan.h"
#include "util.h"

#define MAX_LIST 16

static void usage_add(FILE *f, const struct tf_db_defaults *d)
{
	fprintf(f,
		"Usage: touchfw db add FILE [--db DIR] [--id ID] [--family NAME]\n"
		"                      [--hardware ID]... [--version V] [--for-version V]\n"
		"                      [--board ID]... [--min-from V] [--max-from V]\n"
		"                      [--part NAME] [--json]\n"
		"\n"
		"Add the blob FILE to the database: its manifest entry (type,\n"
		"hardware, versions, CRCs, size, SHA-256) is filled from what the\n"
		"blob says about itself; the options give only what it does not say,\n"
		"and one that contradicts its header is an error.  A file in a format\n"
		"the driver does not load but people have (a vendor tool's text,\n"
		"another driver's container) is converted into the one it loads,\n"
		"kept as DIR/FAMILY/ID.EXT, and the original's SHA-256 recorded\n"
		"(source_sha256).  Any other FILE outside DIR is copied to\n"
		"DIR/FAMILY/.  The new manifest must load and the blob verify, or\n"
		"nothing changes.  A signed manifest must be signed again\n"
		"('touchfw db sign').\n"
		"\n"
		"  --db DIR          database directory (default %s;\n"
		"                    'touchfw db init DIR' makes one)\n"
		"  --id ID           section name (default: FILE's name without\n"
		"                    its extension)\n"
		"  --family NAME     the blob's family (default: the first whose\n"
		"                    rules take the blob)\n"
		"  --hardware ID     hardware id (repeat for more), when the blob\n"
		"                    does not name it, or instead of one read from\n"
		"                    a name (a file's name, a chip name in a text)\n"
		"  --version V       firmware: its version, when the image does not\n"
		"                    say; config: a label, when it has none\n"
		"  --for-version V   config: the firmware it is for, when it does\n"
		"                    not say\n"
		"  --board ID        a board id the blob is for (repeat); none: any\n"
		"                    (a blob made for one panel must name it)\n"
		"  --min-from V, --max-from V  firmware: running versions it may\n"
		"                    update\n"
		"  --part NAME       a file that holds several blobs: which one\n"
		"  --json            what was added, one JSON document (doc/json.md),\n"
		"                    in place of the section\n"
		"\n"
		"What each family reads from its files and which formats it\n"
		"converts: touchfw(8), db add.\n"
		"\n"
		"Prints the new section.  Exit status 0, %d (%s) when FILE is not a\n"
		"blob touchfw knows or contradicts an option, %d (%s) when the id\n"
		"or a different DIR/FAMILY/FILE exists, %d (%s) when the result\n"
		"does not load, %d on a bad command line or when an option the\n"
		"blob needs is missing.\n",
		d->db_dir, TF_EXIT_BAD_INPUT, tf_exit_name(TF_EXIT_BAD_INPUT), TF_EXIT_EXISTS,
		tf_exit_name(TF_EXIT_EXISTS), TF_EXIT_DB_INVALID,
		tf_exit_name(TF_EXIT_DB_INVALID), TF_EXIT_USAGE);
}

struct add_opts {
	const char *dir, *id, *family, *version, *for_version, *min_from, *max_from, *part;
	const char *hardware[MAX_LIST], *boards[MAX_LIST];
	size_t n_hardware, n_boards;
	const char *file;
	bool json;
};

/* What a family made of FILE: its facts, and the converted blob when the
 * family imported it from another format. */
struct found {
	const struct tf_family *fam;
	struct tf_blob_facts f;
	uint8_t *conv;
	size_t conv_len;
};

/* @t's reading of the bytes: an import first, else the blob as it is.
 * *@known: the import knew the file's format (its error is the one that
 * matters). */
static int try_family(const struct tf_family *t, const struct add_opts *o, const uint8_t *data,
		      size_t len, struct found *out, bool *known, struct tf_err *err)
{
	int r;

	out->fam = t;
	*known = false;
	if (t->import_blob) {
		r = t->import_blob(data, len, o->file, o->part, &out->conv, &out->conv_len,
				   &out->f, err);
		if (r != -EMEDIUMTYPE) {
			*known = r < 0;
			return r;
		}
		tf_err_clear(err);
	}
	if (!t->blob_facts)
		return tf_err_set(err, ENOTSUP, "the %s family can not read its blobs' headers",
				  t->ids->name);
	if (o->part)
		return tf_err_set(err, EBADMSG,
				  "%s: --part picks one of several blobs a file holds; this "
				  "file is no such file of the %s family",
				  o->file, t->ids->name);
	return t->blob_facts(data, len, o->file, &out->f, err);
}

/* Which family's rules take the blob, and what they say about it. */
static int find_family(const struct add_opts *o, const uint8_t *data, size_t len,
		       struct found *out)
{
	struct tf_err err = { 0 };
	char why[2000] = "", known_why[sizeof(err.msg)] = "";
	size_t i, n_known = 0;
	bool known;
	int r;

	if (o->family) {
		const struct tf_family *t = tf_family_by_name(o->family);

		if (!t) {
			tf_out_err("touchfw db add: no family '%s'\n", o->family);
			return TF_EXIT_USAGE;
		}
		r = try_family(t, o, data, len, out, &known, &err);
		if (r == -ENOTSUP) {
			tf_out_err("touchfw db add: %s\n", err.msg);
			return TF_EXIT_UNSUPPORTED;
		}
		if (r < 0) {
			tf_out_err("touchfw db add: %s\n", err.msg);
			return r == -ENOMEM ? TF_EXIT_FAILURE : TF_EXIT_BAD_INPUT;
		}
		return TF_EXIT_OK;
	}
	for (i = 0; tf_families[i]; i++) {
		size_t n = strlen(why);

		tf_err_clear(&err);
		r = try_family(tf_families[i], o, data, len, out, &known, &err);
		if (r == 0)
			return TF_EXIT_OK;
		if (r == -ENOMEM) {
			tf_out_err("touchfw db add: out of memory\n");
			return TF_EXIT_FAILURE;
		}
		if (known && !n_known++)
			tf_snprintf(known_why, sizeof(known_why), "%s", err.msg);
		snprintf(why + n, sizeof(why) - n, "\n  %s: %s", tf_families[i]->ids->name,
			 err.msg);
	}
	/* A format one family knows, broken: its error alone says what to
	 * fix; the others' "not mine" would bury it. */
	if (n_known == 1) {
		tf_out_err("touchfw db add: %s\n", known_why);
		return TF_EXIT_BAD_INPUT;
	}
	tf_out_err("touchfw db add: %s is no blob a family touchfw knows takes:%s\n", o->file,
		   why);
	return TF_EXIT_BAD_INPUT;
}

/* Blob's word against the option's: a contradiction is an error. */
static int merge(const char *what, const char *blob, const char *opt, const char **out)
{
	if (blob && blob[0] && opt && strcmp(blob, opt)) {
		tf_out_err("touchfw db add: --%s %s, but the blob says %s\n", what, opt, blob);
		return TF_EXIT_BAD_INPUT;
	}
	*out = blob && blob[0] ? blob : opt;
	return TF_EXIT_OK;
}

/* A section name from a file name: its base without the extension. */
static void id_from_file(const char *file, char *id, size_t size)
{
	const char *b = strrchr(file, '/');
	char *dot;
	size_t i;

	tf_snprintf(id, size, "%s", b ? b + 1 : file);
	dot = strrchr(id, '.');
	if (dot && dot != id)
		*dot = '\0';
	for (i = 0; id[i]; i++)
		if (!(id[i] == '-' || id[i] == '_' || id[i] == '.' ||
		      (id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'z') ||
		      (id[i] >= 'A' && id[i] <= 'Z')))
			id[i] = '-';
}

/*
 * Where the blob will live, relative to the database: FILE itself when it
 * is inside DIR and taken as it is, else DIR/FAMILY/@as.  *@made gets the
 * path to write ("" when nothing is to be written).
 */
static int blob_path(const struct add_opts *o, const struct tf_family *fam, const char *as,
		     bool converted, char *rel, size_t size, char *made, size_t made_size)
{
	char rdir[PATH_MAX], rfile[PATH_MAX];
	size_t n;

	made[0] = '\0';
	if (!realpath(o->dir, rdir)) {
		tf_out_err("touchfw db add: %s: %s\n", o->dir, strerror(errno));
		return TF_EXIT_DB_INVALID;
	}
	if (!converted && realpath(o->file, rfile)) {
		n = strlen(rdir);
		if (!strncmp(rfile, rdir, n) && rfile[n] == '/') {
			tf_snprintf(rel, size, "%s", rfile + n + 1);
			return TF_EXIT_OK;
		}
	}
	if (tf_snprintf(rel, size, "%s/%s", fam->ids->name, as) ||
	    tf_snprintf(made, made_size, "%s/%s", o->dir, rel)) {
		tf_out_err("touchfw db add: file name too long\n");
		return TF_EXIT_USAGE;
	}
	return TF_EXIT_OK;
}

/*
 * Write the blob to @made (an identical file there is taken as it is; a
 * different one is never overwritten).  *@copied when a file was made.
 */
static int place_blob(const struct add_opts *o, int dfd, const struct tf_family *fam,
		      const uint8_t *data, size_t len, const char *made, bool *copied)
{
	_cleanup_close_ int sfd = -1, ofd = -1;
	const char *sub = fam->ids->name, *base = strrchr(made, '/');
	struct tf_err err = { 0 };
	char subdir[PATH_MAX + 64], *old = NULL;
	size_t old_len;
	int r;

	*copied = false;
	if (!made[0])
		return TF_EXIT_OK;
	base = base ? base + 1 : made;
	if (tf_snprintf(subdir, sizeof(subdir), "%s/%s", o->dir, sub)) {
		tf_out_err("touchfw db add: file name too long\n");
		return TF_EXIT_USAGE;
	}
	if (mkdirat(dfd, sub, 0755) < 0 && errno != EEXIST) {
		tf_out_err("touchfw db add: %s: %s\n", subdir, strerror(errno));
		return errno == EACCES ? TF_EXIT_PERMISSION : TF_EXIT_FAILURE;
	}
	sfd = openat(dfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sfd < 0) {
		tf_out_err("touchfw db add: %s: %s\n", subdir,
			   errno == ELOOP || errno == ENOTDIR
				   ? "not a directory (a symbolic link?)"
				   : strerror(errno));
		return TF_EXIT_FAILURE;
	}
	/* An identical regular file there is taken; anything else stays. */
	ofd = openat(sfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (ofd >= 0 || errno != ENOENT) {
		struct stat st;
		bool same = false;

		if (ofd >= 0 && fstat(ofd, &st) == 0 && S_ISREG(st.st_mode) &&
		    tf_read_fd(ofd, TF_FWDB_MAX_BLOB_SIZE, &old, &old_len) == 0) {
			same = old_len == len && !memcmp(old, data, len);
			free(old);
		}
		if (same)
			return TF_EXIT_OK;
		tf_out_err("touchfw db add: %s exists%s; not overwritten\n", made,
			   ofd >= 0 ? " with other contents" : "");
		return TF_EXIT_EXISTS;
	}
	r = tf_create_at(sfd, subdir, base, data, len, 0644, &err);
	if (r < 0) {
		tf_out_err("touchfw db add: %s\n", err.msg);
		return r == -EACCES || r == -EPERM ? TF_EXIT_PERMISSION
		       : r == -EEXIST		   ? TF_EXIT_EXISTS
						   : TF_EXIT_FAILURE;
	}
	*copied = true;
	return TF_EXIT_OK;
}

struct text {
	char buf[8192];
	size_t len;
	bool overflow;
};

static void add_line(struct text *t, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add_line(struct text *t, const char *key, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->overflow)
		return;
	n = snprintf(t->buf + t->len, sizeof(t->buf) - t->len, "%s = ", key);
	if (n < 0 || (size_t)n >= sizeof(t->buf) - t->len)
		goto full;
	t->len += (size_t)n;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, sizeof(t->buf) - t->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n + 1 >= sizeof(t->buf) - t->len)
		goto full;
	t->len += (size_t)n;
	t->buf[t->len++] = '\n';
	t->buf[t->len] = '\0';
	return;
full:
	t->overflow = true;
}

/* A list: one item a line after the first (continuation lines). */
static void add_list(struct text *t, const char *key, const char *const *items, size_t n)
{
	size_t i;

	if (!n)
		return;
	add_line(t, key, "%s", items[0]);
	for (i = 1; i < n && !t->overflow; i++) {
		int k = snprintf(t->buf + t->len, sizeof(t->buf) - t->len, "    %s\n",
				 items[i]);

		if (k < 0 || (size_t)k >= sizeof(t->buf) - t->len)
			t->overflow = true;
		else
			t->len += (size_t)k;
	}
}

/*
 * The new section by itself, parsed as the manifest parser and the
 * family's rules will (no file access): a rule it breaks is reported
 * before anything is written, naming the option that gives the key.
 */
static int precheck(const struct text *t, const char *id)
{
	static const struct {
		const char *key, *option;
	} opts[] = {
		{ "hardware", "--hardware" }, { "boards", "--board" },
		{ "version", "--version" },   { "for_version", "--for-version" },
		{ "min_from", "--min-from" }, { "max_from", "--max-from" },
	};
	struct tf_fwdb *db = NULL;
	struct tf_err err = { 0 };
	char *m = NULL, where[TF_FWDB_ID_MAX + 40];
	size_t i;
	int r;

	if (asprintf(&m, "[database]\nformat = %d\n\n%s", TF_FWDB_FORMAT, t->buf) < 0)
		return TF_EXIT_FAILURE;
	r = tf_fwdb_parse_manifest(m, strlen(m), "the new entry", &db, &err);
	free(m);
	if (r == 0) {
		tf_fwdb_free(db);
		return TF_EXIT_OK;
	}
	for (i = 0; i < TF_ARRAY_SIZE(opts); i++) {
		snprintf(where, sizeof(where), "[%s] %s:", id, opts[i].key);
		if (strstr(err.msg, where)) {
			tf_out_err("touchfw db add: %s (%s)\n", err.msg, opts[i].option);
			return TF_EXIT_USAGE;
		}
	}
	tf_out_err("touchfw db add: %s\n", err.msg);
	return TF_EXIT_BAD_INPUT;
}

static void found_done(struct found *f)
{
	free(f->conv);
}

static void fwdb_freep(struct tf_fwdb **db)
{
	tf_fwdb_free(*db);
}

/* The blob's file as this run made it (path empty: none to make), taken
 * away again on every return before the new manifest names it. */
struct made {
	char path[PATH_MAX];
	bool copied;
};

static void made_undo(struct made *m)
{
	if (m->copied && m->path[0])
		unlink(m->path);
}

/*
 * `db add --json`: the entry as the new manifest has it (@b, the keys of
 * `db list --json`), where it was written and what it was made from.
 */
static void add_json(const struct add_opts *o, const struct tf_blob *b,
		     const char *converted_from, bool copied, bool stale)
{
	char hex[65];
	struct tf_json j;

	tf_db_json_begin(&j, o->dir);
	tf_json_begin_object(&j, "blob");
	tf_db_json_blob(&j, b);
	tf_json_string(&j, "min_from", b->min_from);
	tf_json_string(&j, "max_from", b->max_from);
	tf_sha256_hex(b->sha256, hex);
	tf_json_string(&j, "sha256", hex);
	tf_json_end_object(&j);
	tf_json_string(&j, "source", o->file);
	tf_json_string(&j, "converted_from", converted_from);
	if (b->has_source_sha256)
		tf_sha256_hex(b->source_sha256, hex);
	tf_json_string(&j, "source_sha256", b->has_source_sha256 ? hex : NULL);
	tf_json_bool(&j, "copied", copied);
	tf_json_bool(&j, "signature_stale", stale);
	tf_json_end_object(&j);
	tf_out_json(&j);
	tf_json_free(&j);
}

static int run_add_checked(struct add_opts *o)
{
	struct tf_fwdb_opts lo = { .sig = TF_SIG_OFF };
	_cleanup_(found_done) struct found fd = { 0 };
	struct tf_blob_facts *f = &fd.f;
	_cleanup_(fwdb_freep) struct tf_fwdb *db = NULL;
	struct tf_err err = { 0 };
	const char *hw[MAX_LIST], *version = NULL, *for_version = NULL;
	const uint8_t *blob;
	size_t n_hw, i, old_len = 0, blob_len;
	_cleanup_free_ char *data = NULL, *old = NULL;
	_cleanup_(made_undo) struct made made = { .copied = false };
	char id[TF_FWDB_ID_MAX + 1], rel[PATH_MAX];
	char manifest[PATH_MAX], sig[PATH_MAX], sha[65], src_sha[65];
	_cleanup_close_ int dfd = -1;
	char as[TF_FWDB_ID_MAX + 16];
	uint8_t digest[32];
	struct text t = { .len = 0 };
	size_t len = 0;
	bool stale;
	int rc, r;

	r = tf_read_input(o->file, TF_FWDB_MAX_BLOB_SIZE, &data, &len, &err);
	if (r < 0) {
		tf_out_err("touchfw db add: %s\n", err.msg);
		return r == -EACCES ? TF_EXIT_PERMISSION : TF_EXIT_BAD_INPUT;
	}
	rc = find_family(o, (const uint8_t *)data, len, &fd);
	if (rc)
		return rc;
	blob = fd.conv ? fd.conv : (const uint8_t *)data;
	blob_len = fd.conv ? fd.conv_len : len;
	if (fd.conv)
		tf_out_err("%s: %s, converted: %s\n", o->file, f->source_format, f->what);
	else
		tf_out_err("%s: %s\n", o->file, f->what);
	for (i = 0; i < f->n_notes; i++)
		tf_out_err("%s: %s\n", o->file, f->note[i]);
	/* Hardware: the blob's, else the command line's; never both apart --
	 * but a name's reading gives way to the command line. */
	if (f->n_hardware && !(f->hardware_guessed && o->n_hardware)) {
		n_hw = f->n_hardware;
		for (i = 0; i < n_hw; i++)
			hw[i] = f->hardware[i];
		for (i = 0; i < o->n_hardware; i++) {
			size_t k;

			for (k = 0; k < n_hw && strcmp(hw[k], o->hardware[i]); k++)
				;
			if (k == n_hw) {
				tf_out_err(
					"touchfw db add: --hardware %s, but the blob says %s\n",
					o->hardware[i], f->hardware[0]);
				return TF_EXIT_BAD_INPUT;
			}
		}
	} else {
		if (f->n_hardware && strcmp(f->hardware[0], o->hardware[0]))
			tf_out_err("%s: hardware %s as --hardware says, not %s\n", o->file,
				   o->hardware[0], f->hardware[0]);
		n_hw = o->n_hardware;
		for (i = 0; i < n_hw; i++)
			hw[i] = o->hardware[i];
	}
	if (!n_hw) {
		tf_out_err("touchfw db add: %s does not say which hardware it is for: give "
			   "--hardware (%s)\n",
			   o->file,
			   f->hardware_hint[0] ? f->hardware_hint
					       : "the id 'touchfw chip DEV info' shows");
		return TF_EXIT_USAGE;
	}
	rc = merge("version", f->version, o->version, &version);
	if (!rc)
		rc = merge("for-version", f->for_version, o->for_version, &for_version);
	if (rc)
		return rc;
	if (!f->is_config && !version) {
		tf_out_err("touchfw db add: %s does not say its version: give --version\n",
			   o->file);
		return TF_EXIT_USAGE;
	}
	if (f->is_config && !for_version) {
		tf_out_err("touchfw db add: %s does not say which firmware it is for: give "
			   "--for-version\n",
			   o->file);
		return TF_EXIT_USAGE;
	}
	if (f->is_config && (o->min_from || o->max_from)) {
		tf_out_err("touchfw db add: --min-from and --max-from are for firmware\n");
		return TF_EXIT_USAGE;
	}
	if (o->id)
		tf_snprintf(id, sizeof(id), "%s", o->id);
	else
		id_from_file(o->file, id, sizeof(id));

	/* The database as it is: it must load, and not have the id yet. */
	r = tf_fwdb_load(o->dir, &lo, &db, &err);
	if (r < 0) {
		tf_out_err("touchfw db add: %s\n", err.msg);
		return TF_EXIT_DB_INVALID;
	}
	if (tf_fwdb_find(db, id)) {
		tf_out_err("touchfw db add: %s/%s already has a blob '%s' (give --id)\n",
			   o->dir, TF_FWDB_MANIFEST, id);
		return TF_EXIT_EXISTS;
	}
	tf_fwdb_free(db);
	db = NULL;

	/* A converted blob is named after its section: two conversions never
	 * meet under one name. */
	if (fd.conv)
		snprintf(as, sizeof(as), "%s.%s", id, f->ext);
	else
		snprintf(as, sizeof(as), "%s",
			 strrchr(o->file, '/') ? strrchr(o->file, '/') + 1 : o->file);
	rc = blob_path(o, fd.fam, as, fd.conv != NULL, rel, sizeof(rel), made.path,
		       sizeof(made.path));
	if (rc)
		return rc;
	if (sodium_init() < 0) {
		return TF_EXIT_FAILURE;
	}
	crypto_hash_sha256(digest, blob, blob_len);
	tf_sha256_hex(digest, sha);
	crypto_hash_sha256(digest, (const uint8_t *)data, len);
	tf_sha256_hex(digest, src_sha);

	snprintf(t.buf, sizeof(t.buf), "[%s]\n", id);
	t.len = strlen(t.buf);
	add_line(&t, "type", "%s", f->is_config ? "config" : "firmware");
	add_line(&t, "family", "%s", fd.fam->ids->name);
	add_list(&t, "hardware", hw, n_hw);
	if (f->is_config)
		add_line(&t, "for_version", "%s", for_version);
	if (version)
		add_line(&t, "version", "%s", version);
	if (o->min_from)
		add_line(&t, "min_from", "%s", o->min_from);
	if (o->max_from)
		add_line(&t, "max_from", "%s", o->max_from);
	add_line(&t, "file", "%s", rel);
	add_list(&t, "boards", o->boards, o->n_boards);
	add_line(&t, "size", "%zu", blob_len);
	add_line(&t, "sha256", "%s", sha);
	if (fd.conv)
		add_line(&t, "source_sha256", "%s", src_sha);
	if (f->has_info_crc)
		add_line(&t, "info_crc", "%s", TF_CRC_TEXT(f->info_crc, fd.fam->crc_bits));
	if (f->has_config_crc)
		add_line(&t, "config_crc", "%s", TF_CRC_TEXT(f->config_crc, fd.fam->crc_bits));
	if (t.overflow) {
		tf_out_err("touchfw db add: the entry is too long\n");
		return TF_EXIT_USAGE;
	}
	rc = precheck(&t, id);
	if (rc)
		return rc;
	/* Every file made below a checked directory (touchfw(8), FILES). */
	dfd = tf_dir_open(o->dir, &err);
	if (dfd < 0) {
		tf_out_err("touchfw db add: %s\n", err.msg);
		return dfd == -EPERM || dfd == -EACCES ? TF_EXIT_PERMISSION
						       : TF_EXIT_DB_INVALID;
	}
	rc = place_blob(o, dfd, fd.fam, blob, blob_len, made.path, &made.copied);
	if (rc)
		return rc;

	/* The new manifest replaces the old one (a fresh temporary renamed
	 * over it); it is loaded and the blob verified, else the old one is
	 * put back the same way. */
	snprintf(manifest, sizeof(manifest), "%s/%s", o->dir, TF_FWDB_MANIFEST);
	r = tf_read_input(manifest, TF_FWDB_MAX_MANIFEST, &old, &old_len, &err);
	if (r < 0) {
		tf_out_err("touchfw db add: %s\n", err.msg);
		return TF_EXIT_DB_INVALID;
	}
	{
		size_t nl = old_len && old[old_len - 1] != '\n' ? 1 : 0;
		size_t total = old_len + nl + 1 + t.len;
		_cleanup_free_ char *nm = malloc(total);

		if (!nm)
			return TF_EXIT_FAILURE;
		memcpy(nm, old, old_len);
		if (nl)
			nm[old_len] = '\n';
		nm[old_len + nl] = '\n';
		memcpy(nm + old_len + nl + 1, t.buf, t.len);
		r = tf_replace_at(dfd, o->dir, TF_FWDB_MANIFEST, nm, total, 0644, &err);
	}
	if (r < 0) {
		tf_out_err("touchfw db add: %s\n", err.msg);
		return r == -EACCES || r == -EPERM ? TF_EXIT_PERMISSION : TF_EXIT_FAILURE;
	}
	tf_err_clear(&err);
	r = tf_fwdb_load(o->dir, &lo, &db, &err);
	if (r == 0) {
		const struct tf_blob *b = tf_fwdb_find(db, id);

		r = b ? tf_fwdb_verify_blob(db, b, &err) : -ENOENT;
	}
	if (r < 0) {
		/* Put the old manifest back. */
		struct tf_err e2 = { 0 };

		tf_replace_at(dfd, o->dir, TF_FWDB_MANIFEST, old, old_len, 0644, &e2);
		tf_out_err("touchfw db add: the new entry does not load: %s; %s left as it "
			   "was\n",
			   err.msg[0] ? err.msg : strerror(-r), manifest);
		return TF_EXIT_DB_INVALID;
	}
	snprintf(sig, sizeof(sig), "%s/%s", o->dir, TF_FWDB_SIGNATURE);
	stale = access(sig, F_OK) == 0;
	if (o->json) {
		const struct tf_blob *b = tf_fwdb_find(db, id);

		add_json(o, b, fd.conv ? f->source_format : NULL, made.copied, stale);
	} else {
		tf_out_str(t.buf);
	}
	made.copied = false; /* keep it */
	tf_out_err("added '%s' to %s%s\n", id, manifest,
		   stale ? "; its signature no longer verifies: sign it again "
			   "('touchfw db sign --key FILE')"
			 : "");
	return TF_EXIT_OK;
}

int tf_cmd_db_add(int argc, char **argv, const struct tf_db_defaults *d)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "id", required_argument, NULL, 'i' },
		{ "family", required_argument, NULL, 'f' },
		{ "hardware", required_argument, NULL, 'H' },
		{ "version", required_argument, NULL, 'v' },
		{ "for-version", required_argument, NULL, 'F' },
		{ "board", required_argument, NULL, 'b' },
		{ "min-from", required_argument, NULL, 'm' },
		{ "max-from", required_argument, NULL, 'M' },
		{ "part", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct add_opts o = { .dir = d->db_dir };
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o.dir = optarg;
			break;
		case 'i':
			o.id = optarg;
			break;
		case 'f':
			o.family = optarg;
			break;
		case 'H':
		case 'b':
			if ((c == 'H' ? o.n_hardware : o.n_boards) >= MAX_LIST) {
				tf_out_err("touchfw db add: at most %d of each\n", MAX_LIST);
				return TF_EXIT_USAGE;
			}
			if (c == 'H')
				o.hardware[o.n_hardware++] = optarg;
			else
				o.boards[o.n_boards++] = optarg;
			break;
		case 'v':
			o.version = optarg;
			break;
		case 'F':
			o.for_version = optarg;
			break;
		case 'm':
			o.min_from = optarg;
			break;
		case 'M':
			o.max_from = optarg;
			break;
		case 'p':
			o.part = optarg;
			break;
		case 'j':
			o.json = true;
			break;
		case 'h':
			usage_add(tf_out_file(), d);
			return TF_EXIT_OK;
		default:
			tf_out_err("touchfw db add: bad option '%s'\n", argv[optind - 1]);
			usage_add(tf_out_err_file(), d);
			return TF_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		tf_out_err("touchfw db add: give exactly one FILE\n");
		usage_add(tf_out_err_file(), d);
		return TF_EXIT_USAGE;
	}
	o.file = argv[optind];
	return run_add_checked(&o);
}
