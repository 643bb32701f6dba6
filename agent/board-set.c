// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The set of installed board profiles: the profile directories read in
 * order (/etc before /usr/share), a name taken by an earlier directory
 * shadowing the same name in a later one, an empty file or a link to
 * /dev/null masking it, and invalid files and stray .dts sources kept with
 * their reports for `touchfw board check`.
 */
#include "board.h"
#include "board-priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

size_t tf_board_set_count(const struct tf_board_set *set)
{
	return set ? set->n : 0;
}

const struct tf_board_profile *tf_board_set_get(const struct tf_board_set *set, size_t i)
{
	return set && i < set->n ? set->prof[i] : NULL;
}

size_t tf_board_set_invalid_count(const struct tf_board_set *set)
{
	return set ? set->n_inv : 0;
}

const char *tf_board_set_invalid_path(const struct tf_board_set *set, size_t i)
{
	return set && i < set->n_inv ? set->inv[i].path : NULL;
}

const struct tf_board_report *tf_board_set_invalid_report(const struct tf_board_set *set,
							  size_t i)
{
	return set && i < set->n_inv ? &set->inv[i].rep : NULL;
}

size_t tf_board_set_shadowed_count(const struct tf_board_set *set)
{
	return set ? set->n_sh : 0;
}

const char *tf_board_set_shadowed_path(const struct tf_board_set *set, size_t i,
				       const char **by)
{
	if (!set || i >= set->n_sh)
		return NULL;
	if (by)
		*by = set->sh[i].by;
	return set->sh[i].path;
}

void tf_board_set_free(struct tf_board_set *set)
{
	size_t i;

	if (!set)
		return;
	for (i = 0; i < set->n; i++)
		tf_board_free(set->prof[i]);
	free(set->prof);
	for (i = 0; i < set->n_inv; i++) {
		free(set->inv[i].path);
		tf_board_report_free(&set->inv[i].rep);
	}
	free(set->inv);
	for (i = 0; i < set->n_sh; i++) {
		free(set->sh[i].path);
		free(set->sh[i].by);
	}
	free(set->sh);
	board_strv_free(set->ign, set->n_ign);
	free(set);
}

void tf_board_ignored_message(const char *path, char *buf, size_t size)
{
	size_t n = strlen(path);

	snprintf(buf, size,
		 "ignoring %s: touchfw reads only compiled profiles; compile it "
		 "with dtc (dtc -I dts -O dtb -o %.*s.dtb %s) or make, and put "
		 "the .dtb there instead",
		 path, (int)(n > 4 ? n - 4 : n), path, path);
}

size_t tf_board_set_ignored_count(const struct tf_board_set *set)
{
	return set ? set->n_ign : 0;
}

const char *tf_board_set_ignored_path(const struct tf_board_set *set, size_t i)
{
	return set && i < set->n_ign ? set->ign[i] : NULL;
}

/* Grow @*arr (of @size-byte elements) to hold one more. */
static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	void *na;
	size_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	na = realloc(*arr, ncap * size);
	if (!na)
		return -ENOMEM;
	*arr = na;
	*cap = ncap;
	return 0;
}

static int add_invalid(struct tf_board_set *set, const char *path, struct tf_board_report *rep)
{
	struct board_invalid *e;

	if (grow((void **)&set->inv, &set->cap_inv, set->n_inv, sizeof(*set->inv)))
		return -ENOMEM;
	e = &set->inv[set->n_inv];
	e->path = strdup(path);
	if (!e->path)
		return -ENOMEM;
	e->rep = *rep;
	tf_board_report_init(rep);
	set->n_inv++;
	return 0;
}

static int add_invalid_msg(struct tf_board_set *set, const char *path, const char *msg)
{
	struct tf_board_report rep;
	int r;

	tf_board_report_init(&rep);
	board_report_add(&rep, "", msg);
	r = add_invalid(set, path, &rep);
	tf_board_report_free(&rep);
	return r;
}

static int add_shadowed(struct tf_board_set *set, const char *path, const char *by)
{
	struct board_shadowed *e;

	if (grow((void **)&set->sh, &set->cap_sh, set->n_sh, sizeof(*set->sh)))
		return -ENOMEM;
	e = &set->sh[set->n_sh];
	e->path = strdup(path);
	e->by = strdup(by);
	if (!e->path || !e->by) {
		free(e->path);
		free(e->by);
		return -ENOMEM;
	}
	set->n_sh++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_profile_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 4 && !strcmp(name + n - 4, ".dtb");
}

static bool is_source_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 4 && !strcmp(name + n - 4, ".dts");
}

/* A .dts in a profile directory is not read: remember it, unless its
 * compiled .dtb is there too (sources kept beside their blobs). */
static int note_source(struct tf_board_set *set, int dfd, const char *dir, const char *name)
{
	char dtb[NAME_MAX + 1], *path;
	size_t n = strlen(name);

	if (n >= sizeof(dtb))
		return 0;
	memcpy(dtb, name, n + 1);
	dtb[n - 1] = 'b';
	if (faccessat(dfd, dtb, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		return 0;
	if (grow((void **)&set->ign, &set->cap_ign, set->n_ign, sizeof(*set->ign)))
		return -ENOMEM;
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	set->ign[set->n_ign++] = path;
	return 0;
}

/* Names taken so far, with the file that took each. */
struct taken {
	char **name, **path;
	size_t n, cap;
};

static const char *taken_by(const struct taken *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->name[i], name))
			return t->path[i];
	return NULL;
}

static int take(struct taken *t, const char *name, const char *path)
{
	size_t cap = t->cap;
	char *n, *p;

	if (grow((void **)&t->name, &cap, t->n, sizeof(char *)))
		return -ENOMEM;
	cap = t->cap;
	if (grow((void **)&t->path, &cap, t->n, sizeof(char *)))
		return -ENOMEM;
	t->cap = cap;
	n = strdup(name);
	p = strdup(path);
	if (!n || !p) {
		free(n);
		free(p);
		return -ENOMEM;
	}
	t->name[t->n] = n;
	t->path[t->n] = p;
	t->n++;
	return 0;
}

static void taken_free(struct taken *t)
{
	board_strv_free(t->name, t->n);
	board_strv_free(t->path, t->n);
}

/* One file of a profile directory: a profile, a mask, or an invalid one. */
static int load_one(struct tf_board_set *set, int dfd, const char *name, const char *path)
{
	struct tf_board_report rep;
	struct tf_board_profile *p = NULL;
	struct stat st;
	char msg[256];
	char *buf = NULL;
	size_t len = 0;
	int r;

	if (fstatat(dfd, name, &st, 0) < 0) {
		snprintf(msg, sizeof(msg), "can not read: %s", strerror(errno));
		return add_invalid_msg(set, path, msg);
	}
	/* An empty file or a link to /dev/null masks the name (systemd-like).
	 */
	if ((S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3)) ||
	    (S_ISREG(st.st_mode) && st.st_size == 0))
		return 0;
	if (!S_ISREG(st.st_mode))
		return add_invalid_msg(set, path, "not a regular file");
	r = tf_read_file_at(dfd, name, TF_BOARD_MAX_DTB_SIZE, &buf, &len);
	if (r == -ENOMEM)
		return r;
	if (r) {
		snprintf(msg, sizeof(msg), "can not read: %s", strerror(-r));
		return add_invalid_msg(set, path, msg);
	}
	tf_board_report_init(&rep);
	r = tf_board_parse(buf, len, path, &p, &rep);
	free(buf);
	if (r == -ENOMEM) {
		tf_board_report_free(&rep);
		return r;
	}
	if (r) {
		r = add_invalid(set, path, &rep);
		tf_board_report_free(&rep);
		return r;
	}
	tf_board_report_free(&rep);
	if (grow((void **)&set->prof, &set->cap, set->n, sizeof(*set->prof))) {
		tf_board_free(p);
		return -ENOMEM;
	}
	set->prof[set->n++] = p;
	return 0;
}

static int load_dir(struct tf_board_set *set, struct taken *taken, const char *dir,
		    struct tf_err *err)
{
	_cleanup_close_ int dfd = -1;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d;
	int r = 0;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		if (errno == ENOENT)
			return 0;
		return tf_err_set(err, errno, "%s: %s", dir, strerror(errno));
	}
	d = fdopendir(dup(dfd));
	if (!d)
		return tf_err_set(err, errno, "%s: %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		if (is_source_name(de->d_name)) {
			r = note_source(set, dfd, dir, de->d_name);
			if (r)
				break;
			continue;
		}
		if (!is_profile_name(de->d_name))
			continue;
		if (grow((void **)&names, &cap, n, sizeof(*names)) ||
		    !(names[n] = strdup(de->d_name))) {
			r = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (r) {
		board_strv_free(names, n);
		return tf_err_set(err, -r, "%s: out of memory", dir);
	}
	if (n) /* names is NULL for a directory without profiles */
		qsort(names, n, sizeof(*names), cmp_str);

	for (i = 0; i < n && !r; i++) {
		char path[4096];
		const char *by;

		if (tf_snprintf(path, sizeof(path), "%s/%s", dir, names[i])) {
			r = tf_err_set(err, ENAMETOOLONG, "%s/%s: path too long", dir,
				       names[i]);
			break;
		}
		by = taken_by(taken, names[i]);
		if (by) {
			r = add_shadowed(set, path, by);
			continue;
		}
		r = take(taken, names[i], path);
		if (!r)
			r = load_one(set, dfd, names[i], path);
		if (r)
			r = tf_err_set(err, -r, "%s: out of memory", path);
	}
	board_strv_free(names, n);
	return r;
}

int tf_board_load(const char *const *dirs, size_t n_dirs, struct tf_board_set **out,
		  struct tf_err *err)
{
	struct tf_board_set *set;
	struct taken taken = { 0 };
	size_t i;
	int r = 0;

	*out = NULL;
	set = calloc(1, sizeof(*set));
	if (!set)
		return tf_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < n_dirs && !r; i++)
		r = load_dir(set, &taken, dirs[i], err);
	taken_free(&taken);
	if (r) {
		tf_board_set_free(set);
		return r;
	}
	*out = set;
	return 0;
}
