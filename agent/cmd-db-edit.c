// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw db init` and `touchfw db remove`: a database made from nothing
 * (its directory and a manifest.ini with only its [database] section, with
 * modes that let every user check it whatever the umask), and a blob taken
 * out of one -- its section cut from the manifest text, everything else
 * (comments, other sections, their order) left as it was, then its file
 * deleted when no other section names it.  Either change is proven by
 * parsing the result before it replaces the manifest.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "exitcode.h"
#include "fwdb.h"
#include "json.h"
#include "out.h"

#define DB_DIR_MODE 0755
#define DB_FILE_MODE 0644

/* ------------------------------------------------------------ db init */

static void usage_init(FILE *f)
{
	fprintf(f,
		"Usage: touchfw db init DIR [--description TEXT] [--json]\n"
		"\n"
		"Make an empty firmware database: DIR (made if missing, mode %04o)\n"
		"and DIR/%s (mode %04o) with its [database] section, format\n"
		"%d.  An existing manifest is never replaced.  Then add blobs with\n"
		"'touchfw db add FILE --db DIR' and sign it with 'touchfw db sign'.\n"
		"\n"
		"  --description TEXT  one line saying what the database is for\n"
		"  --json              what was made, one JSON document (doc/json.md)\n"
		"\n"
		"Exit status 0, %d (%s) when DIR has a manifest already, %d on a bad\n"
		"command line.\n",
		DB_DIR_MODE, TF_FWDB_MANIFEST, DB_FILE_MODE, TF_FWDB_FORMAT, TF_EXIT_EXISTS,
		tf_exit_name(TF_EXIT_EXISTS), TF_EXIT_USAGE);
}

static int exit_for(int e)
{
	return e == EACCES || e == EPERM ? TF_EXIT_PERMISSION : TF_EXIT_FAILURE;
}

int tf_cmd_db_init(int argc, char **argv, const struct tf_db_defaults *d)
{
	static const struct option opts[] = {
		{ "description", required_argument, NULL, 'D' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tf_fwdb_opts lo = { .sig = TF_SIG_OFF };
	struct tf_fwdb *db = NULL;
	struct tf_err err = { 0 };
	const char *dir, *desc = NULL;
	char *text = NULL;
	bool made = false, json = false;
	int c, dfd, r;

	(void)d;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'D':
			desc = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage_init(tf_out_file());
			return TF_EXIT_OK;
		default:
			tf_out_err("touchfw db init: bad option '%s'\n", argv[optind - 1]);
			usage_init(tf_out_err_file());
			return TF_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		tf_out_err("touchfw db init: give exactly one DIR\n");
		usage_init(tf_out_err_file());
		return TF_EXIT_USAGE;
	}
	dir = argv[optind];
	if (desc && (strpbrk(desc, "\n\r") || !desc[0])) {
		tf_out_err("touchfw db init: --description is one line of text\n");
		return TF_EXIT_USAGE;
	}
	if (mkdir(dir, DB_DIR_MODE) == 0)
		made = true;
	else if (errno != EEXIST) {
		tf_out_err("touchfw db init: %s: %s\n", dir, strerror(errno));
		return exit_for(errno);
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0) {
		r = errno;
		tf_out_err("touchfw db init: %s: %s\n", dir,
			   r == ENOTDIR || r == ELOOP ? "not a directory" : strerror(r));
		return r == ENOTDIR || r == ELOOP ? TF_EXIT_USAGE : exit_for(r);
	}
	/* the umask must not keep others from checking the database */
	if (made && fchmod(dfd, DB_DIR_MODE) < 0) {
		r = errno;
		close(dfd);
		tf_out_err("touchfw db init: %s: %s\n", dir, strerror(r));
		return exit_for(r);
	}
	if (asprintf(&text,
		     "; The firmware database (touchfw-db(5)): add blobs with\n"
		     "; 'touchfw db add FILE --db DIR', check it with 'touchfw db check'.\n"
		     "[database]\n"
		     "format = %d\n"
		     "%s%s%s",
		     TF_FWDB_FORMAT, desc ? "description = " : "", desc ? desc : "",
		     desc ? "\n" : "") < 0) {
		close(dfd);
		return TF_EXIT_FAILURE;
	}
	/* O_EXCL | O_NOFOLLOW in a directory whose owner and mode are
	 * checked (touchfw(8), FILES). */
	r = tf_create_at(dfd, dir, TF_FWDB_MANIFEST, text, strlen(text), DB_FILE_MODE, &err);
	free(text);
	if (r == -EEXIST) {
		close(dfd);
		tf_out_err("touchfw db init: %s/%s exists: a database is there already "
			   "('touchfw db check --db %s' looks at it)\n",
			   dir, TF_FWDB_MANIFEST, dir);
		return TF_EXIT_EXISTS;
	}
	if (r < 0) {
		close(dfd);
		tf_out_err("touchfw db init: %s\n", err.msg);
		return exit_for(-r);
	}
	close(dfd);
	if (tf_fwdb_load(dir, &lo, &db, &err) < 0) {
		tf_out_err("touchfw db init: the new database does not load: %s\n", err.msg);
		return TF_EXIT_DB_INVALID;
	}
	tf_fwdb_free(db);
	if (json) {
		struct tf_json j;

		tf_db_json_begin(&j, dir);
		tf_json_int(&j, "format", TF_FWDB_FORMAT);
		tf_json_string(&j, "description", desc);
		tf_json_bool(&j, "made_dir", made);
		tf_json_end_object(&j);
		tf_out_json(&j);
		tf_json_free(&j);
	}
	tf_out_err("made the database %s (%s, format %d); add blobs with 'touchfw db add FILE "
		   "--db %s'\n",
		   dir, TF_FWDB_MANIFEST, TF_FWDB_FORMAT, dir);
	return TF_EXIT_OK;
}

/* ------------------------------------------------------------ db remove */

static void usage_remove(FILE *f, const struct tf_db_defaults *d)
{
	fprintf(f,
		"Usage: touchfw db remove ID [--db DIR] [--keep-file] [--json]\n"
		"\n"
		"Take the blob ID out of the database: its section goes from\n"
		"%s (comments and other sections stay as they are), and its\n"
		"file is deleted unless another section names it (or --keep-file).\n"
		"The new manifest must load, or nothing changes.  A signed manifest\n"
		"must be signed again ('touchfw db sign').\n"
		"\n"
		"  --db DIR          database directory (default %s)\n"
		"  --keep-file       leave the blob's file where it is\n"
		"  --json            what was done, one JSON document (doc/json.md)\n"
		"\n"
		"Exit status 0, %d (%s) when the database has no blob ID, %d (%s)\n"
		"when it does not load, %d on a bad command line.\n",
		TF_FWDB_MANIFEST, d->db_dir, TF_EXIT_NO_FIRMWARE,
		tf_exit_name(TF_EXIT_NO_FIRMWARE), TF_EXIT_DB_INVALID,
		tf_exit_name(TF_EXIT_DB_INVALID), TF_EXIT_USAGE);
}

struct line {
	const char *s;
	size_t len; /* without the newline */
};

static bool blank_or_comment(const struct line *l)
{
	size_t i = 0;

	while (i < l->len && (l->s[i] == ' ' || l->s[i] == '\t' || l->s[i] == '\r'))
		i++;
	return i == l->len || l->s[i] == ';' || l->s[i] == '#';
}

/* A section header "[NAME]" (blanks around allowed): NAME into @name. */
static bool header(const struct line *l, char *name, size_t size)
{
	size_t a = 0, b = l->len;

	while (a < b && (l->s[a] == ' ' || l->s[a] == '\t'))
		a++;
	while (b > a && (l->s[b - 1] == ' ' || l->s[b - 1] == '\t' || l->s[b - 1] == '\r'))
		b--;
	if (b - a < 2 || l->s[a] != '[' || l->s[b - 1] != ']')
		return false;
	a++;
	b--;
	while (a < b && (l->s[a] == ' ' || l->s[a] == '\t'))
		a++;
	while (b > a && (l->s[b - 1] == ' ' || l->s[b - 1] == '\t'))
		b--;
	if (b - a >= size)
		return false;
	memcpy(name, l->s + a, b - a);
	name[b - a] = '\0';
	return true;
}

/*
 * @text without the section @id: from its header to its last key line
 * (the comments and blank lines after that introduce what follows), and
 * a blank line before it when one would be left doubled.  *@out is
 * malloc()ed.  -ENOENT when there is no such section.
 */
static int cut_section(const char *text, size_t len, const char *id, char **out,
		       size_t *out_len)
{
	struct line *l = NULL;
	size_t n = 0, cap = 0, i, h, e, k, o = 0;
	char name[TF_FWDB_ID_MAX + 1];
	const char *p = text;
	char *res;

	while (p < text + len) {
		const char *nl = memchr(p, '\n', (size_t)(text + len - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(text + len - p);

		if (n == cap) {
			struct line *nlp = realloc(l, (cap = cap ? cap * 2 : 256) * sizeof(*l));

			if (!nlp) {
				free(l);
				return -ENOMEM;
			}
			l = nlp;
		}
		l[n].s = p;
		l[n].len = ll;
		n++;
		p += ll + (nl != NULL);
	}
	for (h = 0; h < n; h++)
		if (header(&l[h], name, sizeof(name)) && !strcmp(name, id))
			break;
	if (h == n) {
		free(l);
		return -ENOENT;
	}
	for (e = h + 1; e < n && !header(&l[e], name, sizeof(name)); e++)
		;
	/* keep the trailing comments and blank lines */
	while (e > h + 1 && blank_or_comment(&l[e - 1]))
		e--;
	/* lines [h, e) go; a blank line before them too, when what stays
	 * after them starts blank or is the end */
	k = h;
	if (h > 0 && blank_or_comment(&l[h - 1]) && l[h - 1].len == 0 &&
	    (e == n || (blank_or_comment(&l[e]) && l[e].len == 0)))
		k = h - 1;
	res = malloc(len + 1);
	if (!res) {
		free(l);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (i >= k && i < e)
			continue;
		memcpy(res + o, l[i].s, l[i].len);
		o += l[i].len;
		if (l[i].s + l[i].len < text + len)
			res[o++] = '\n';
	}
	res[o] = '\0';
	free(l);
	*out = res;
	*out_len = o;
	return 0;
}

/* Replace @dir's manifest with @data (touchfw(8), FILES). */
static int replace_manifest(const char *dir, const char *data, size_t len, struct tf_err *err)
{
	return tf_replace_file(dir, TF_FWDB_MANIFEST, data, len, DB_FILE_MODE, err);
}

/*
 * Delete the blob file @rel below the database's directory descriptor
 * @dirfd: every directory on the way opened without following a symlink,
 * and only a regular file unlinked.
 */
static int unlink_beneath(int dirfd, const char *rel, struct tf_err *err)
{
	char buf[TF_FWDB_ID_MAX * 8], *p = buf, *slash;
	struct stat st;
	int fd = dirfd, nfd, r = 0;

	if (tf_snprintf(buf, sizeof(buf), "%s", rel))
		return tf_err_set(err, ENAMETOOLONG, "%s: name too long", rel);
	while ((slash = strchr(p, '/'))) {
		*slash = '\0';
		nfd = openat(fd, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd != dirfd)
			close(fd);
		if (nfd < 0)
			return tf_err_set(err, errno, "%s: %s", rel,
					  errno == ELOOP ? "a symlink on its path"
							 : strerror(errno));
		fd = nfd;
		p = slash + 1;
	}
	if (fstatat(fd, p, &st, AT_SYMLINK_NOFOLLOW) < 0)
		r = tf_err_set(err, errno, "%s: %s", rel, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		r = tf_err_set(err, EINVAL, "%s: not a regular file; left alone", rel);
	else if (unlinkat(fd, p, 0) < 0)
		r = tf_err_set(err, errno, "%s: %s", rel, strerror(errno));
	if (fd != dirfd)
		close(fd);
	return r;
}

/* `db remove --json`: what went and what stayed (doc/json.md). */
static void remove_json(const char *dir, const char *id, const char *file, bool deleted,
			const char *user, const char *why, bool stale)
{
	struct tf_json j;

	tf_db_json_begin(&j, dir);
	tf_json_string(&j, "id", id);
	tf_json_string(&j, "file", file);
	tf_json_bool(&j, "file_deleted", deleted);
	tf_json_string(&j, "used_by", user);
	tf_json_string(&j, "error", why[0] ? why : NULL);
	tf_json_bool(&j, "signature_stale", stale);
	tf_json_end_object(&j);
	tf_out_json(&j);
	tf_json_free(&j);
}

int tf_cmd_db_remove(int argc, char **argv, const struct tf_db_defaults *d)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "keep-file", no_argument, NULL, 'k' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tf_fwdb_opts lo = { .sig = TF_SIG_OFF };
	struct tf_fwdb *db = NULL, *ndb = NULL;
	struct tf_err err = { 0 };
	const struct tf_blob *b;
	const char *dir = d->db_dir, *id, *user = NULL;
	char path[4096], *old = NULL, *text = NULL, *file = NULL;
	size_t old_len, len, i;
	bool keep = false, json = false, deleted = false, stale;
	char why[1024] = "";
	int c, r, rc = TF_EXIT_OK, dirfd = -1;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 'k':
			keep = true;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage_remove(tf_out_file(), d);
			return TF_EXIT_OK;
		default:
			tf_out_err("touchfw db remove: bad option '%s'\n", argv[optind - 1]);
			usage_remove(tf_out_err_file(), d);
			return TF_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		tf_out_err("touchfw db remove: give exactly one ID\n");
		usage_remove(tf_out_err_file(), d);
		return TF_EXIT_USAGE;
	}
	id = argv[optind];
	if (tf_fwdb_load(dir, &lo, &db, &err) < 0) {
		tf_out_err("touchfw db remove: %s\n", err.msg);
		return TF_EXIT_DB_INVALID;
	}
	b = tf_fwdb_find(db, id);
	if (!b) {
		tf_out_err("touchfw db remove: %s/%s has no blob '%s' ('touchfw db list' "
			   "shows them)\n",
			   dir, TF_FWDB_MANIFEST, id);
		rc = TF_EXIT_NO_FIRMWARE;
		goto out;
	}
	file = strdup(b->file);
	for (i = 0; i < db->n_blobs && !user; i++)
		if (&db->blobs[i] != b && !strcmp(db->blobs[i].file, b->file))
			user = db->blobs[i].id;
	snprintf(path, sizeof(path), "%s/%s", dir, TF_FWDB_MANIFEST);
	r = tf_read_file(path, TF_FWDB_MAX_MANIFEST, &old, &old_len);
	if (r < 0 || !file) {
		tf_out_err("touchfw db remove: %s: %s\n", path, strerror(r < 0 ? -r : ENOMEM));
		rc = TF_EXIT_FAILURE;
		goto out;
	}
	r = cut_section(old, old_len, id, &text, &len);
	if (r < 0) {
		tf_out_err("touchfw db remove: %s: %s\n", path,
			   r == -ENOENT ? "no section header for the blob" : strerror(-r));
		rc = TF_EXIT_FAILURE;
		goto out;
	}
	/* the result must load, with that blob and no other gone */
	if (tf_fwdb_parse_manifest(text, len, TF_FWDB_MANIFEST, &ndb, &err) < 0 ||
	    ndb->n_blobs + 1 != db->n_blobs || tf_fwdb_find(ndb, id)) {
		tf_out_err("touchfw db remove: without [%s] the manifest would not load%s%s; "
			   "%s left as it was\n",
			   id, err.msg[0] ? ": " : "", err.msg, path);
		rc = TF_EXIT_DB_INVALID;
		goto out;
	}
	if (replace_manifest(dir, text, len, &err) < 0) {
		tf_out_err("touchfw db remove: %s\n", err.msg);
		rc = exit_for(err.code);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, TF_FWDB_SIGNATURE);
	stale = access(path, F_OK) == 0;
	tf_out_err("removed '%s' from %s/%s%s\n", id, dir, TF_FWDB_MANIFEST,
		   stale ? "; its signature no longer verifies: sign it again "
			   "('touchfw db sign --key FILE')"
			 : "");
	if (user) {
		tf_out_err("kept %s/%s: used by '%s' too\n", dir, file, user);
	} else if (keep) {
		tf_out_err("kept %s/%s (--keep-file)\n", dir, file);
	} else {
		dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		tf_err_clear(&err);
		if (dirfd < 0 || unlink_beneath(dirfd, file, &err) < 0) {
			/* the manifest no longer names it: nothing breaks */
			snprintf(why, sizeof(why), "could not delete %s/%s: %s", dir, file,
				 err.msg[0] ? err.msg : strerror(errno));
			tf_out_err("touchfw db remove: %s\n", why);
			rc = exit_for(err.code ? err.code : errno);
		} else {
			tf_out_err("deleted %s/%s\n", dir, file);
			deleted = true;
		}
	}
	if (json)
		remove_json(dir, id, file, deleted, user, why, stale);
out:
	if (dirfd >= 0)
		close(dirfd);
	if (ndb)
		tf_fwdb_free(ndb);
	tf_fwdb_free(db);
	free(file);
	free(text);
	free(old);
	return rc;
}
