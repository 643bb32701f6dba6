// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw.conf parsing.  Strict: unknown sections and keys are errors, so
 * a typo in an off switch can not silently leave touchfw on.
 *
 * The grammar is touchfw(8)'s (SETTINGS): lines of at most
 * TF_SETTINGS_LINE_MAX bytes, each empty, a comment ('#' or ';' first), a
 * "[section]" or "key = value" (a value's ";" after a blank starts a
 * comment), blanks around each part ignored.  It is read here rather than
 * by libinih (which the agent still uses for the firmware database's
 * manifest): the udev fast path reads this file for every event of a known
 * driver, and libinih's line handling and the symbols it binds cost that
 * path more than all of its own work (bench/README.md).
 */
#include "settings.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "fs.h"

#define DEFAULT_CONFIG TF_SETTINGS_DEFAULT_PATH
#define SETTINGS_MAX (1u << 20)

/* A literal into an array it fits (checked when compiling): copied inline,
 * no call (each libc function the fast path calls costs it a lookup). */
#define SET_LIT(dst, lit)                                                 \
	do {                                                              \
		_Static_assert(sizeof(lit) <= sizeof(dst), "fits " #dst); \
		__builtin_memcpy(dst, lit, sizeof(lit));                  \
	} while (0)

void tf_settings_defaults(struct tf_settings *s)
{
	memset(s, 0, offsetof(struct tf_settings, path));
	s->path[0] = '\0';
	for (unsigned i = 2; i < TF_MAX_DIRS; i++)
		s->boards_dirs[i][0] = '\0';
	for (unsigned i = 4; i < TF_MAX_DIRS; i++)
		s->firmware_dirs[i][0] = '\0';
	s->enabled = true;
	s->mode = TF_MODE_UPDATE;
	s->handoff = TF_HANDOFF_AUTO;
	s->signatures = TF_SIG_OPTIONAL;
	s->max_attempts = 3;
	s->backoff_s = 30;
	s->input_timeout_ms = 10000;
	s->flash_timeout_ms = 600000;
	s->bind_timeout_ms = 15000;
	s->own_bind_window_s = 120;
	SET_LIT(s->state_dir, TF_RUNSTATEDIR);
	SET_LIT(s->persist_dir, TF_LOCALSTATEDIR);
	SET_LIT(s->db_dir, TF_DATADIR "/firmware-db");
	SET_LIT(s->keys_dir, TF_SYSCONFDIR "/keys");
	s->n_boards_dirs = 2;
	SET_LIT(s->boards_dirs[0], TF_SYSCONFDIR "/boards");
	SET_LIT(s->boards_dirs[1], TF_DATADIR "/boards");
	s->n_firmware_dirs = 4;
	SET_LIT(s->firmware_dirs[0], "/lib/firmware/updates/%r");
	SET_LIT(s->firmware_dirs[1], "/lib/firmware/updates");
	SET_LIT(s->firmware_dirs[2], "/lib/firmware/%r");
	SET_LIT(s->firmware_dirs[3], "/lib/firmware");
	SET_LIT(s->firmware_class_path, "/sys/module/firmware_class/parameters/path");
	SET_LIT(s->cmdline, "/proc/cmdline");
	SET_LIT(s->agent_unit, "touchfw@");
	s->prometheus_dir[0] = '\0';
}

struct parse_ctx {
	struct tf_settings *s;
	struct tf_err *err;
	unsigned line;
	int failed;
};

static int parse_bool(const char *v, bool *out)
{
	if (tf_streq(v, "yes") || tf_streq(v, "true") || tf_streq(v, "1") || tf_streq(v, "on"))
		*out = true;
	else if (tf_streq(v, "no") || tf_streq(v, "false") || tf_streq(v, "0") ||
		 tf_streq(v, "off"))
		*out = false;
	else
		return -1;
	return 0;
}

static int parse_uint(const char *v, unsigned lo, unsigned hi, unsigned *out)
{
	uint32_t n;

	if (!tf_parse_u32(v, &n) || n < lo || n > hi)
		return -1;
	*out = n;
	return 0;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/*
 * The udev fast path reads this file at every event of a known driver, and
 * its paths are most of it: the two loops over its bytes go 8 at a time
 * while no byte of the 8 is a NUL (or a newline), as string functions do
 * -- and they are loops of touchfw's own, which the compiler does not turn
 * into calls to libc (each libc function the fast path calls is one more
 * lookup for the dynamic loader at every event).
 */
#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

static bool has_zero(uint64_t w)
{
	return (w - ONES) & ~w & HIGHS;
}

static uint64_t load8(const char *p)
{
	uint64_t w;

	__builtin_memcpy(&w, p, 8); /* one unaligned load */
	return w;
}

/* The end of the line at @p: a newline, a NUL or @end. */
static const char *line_end(const char *p, const char *end)
{
	while (end - p >= 8 && !has_zero(load8(p)) && !has_zero(load8(p) ^ ('\n' * ONES)))
		p += 8;
	while (p < end && *p && *p != '\n')
		p++;
	return p;
}

/* [@b, @e) (no NUL in it) into @out (TF_SETTINGS_LINE_MAX bytes), ended. */
static char *span(char *out, const char *b, const char *e)
{
	size_t n = 0;

	while (e - b >= 8 && !has_zero(load8(b))) {
		__builtin_memcpy(out + n, b, 8);
		n += 8;
		b += 8;
	}
	while (b < e && *b)
		out[n++] = *b++;
	out[n] = '\0';
	return out;
}

/* An absolute path [@v, @ve) into @dst of @size bytes. */
static int set_path(char *dst, size_t size, const char *v, const char *ve)
{
	if (v == ve || *v != '/' || (size_t)(ve - v) >= size)
		return -1;
	span(dst, v, ve);
	return 0;
}

/* Blank-separated absolute directories in [@v, @ve). */
static int set_dirs(char (*dirs)[256], unsigned *n, const char *v, const char *ve)
{
	unsigned k = 0;

	for (;;) {
		const char *w;

		while (v < ve && blank(*v))
			v++;
		if (v == ve)
			break;
		for (w = v; w < ve && !blank(*w); w++)
			;
		if (k >= TF_MAX_DIRS || set_path(dirs[k], 256, v, w) < 0)
			return -1;
		k++;
		v = w;
	}
	if (!k)
		return -1;
	*n = k;
	return 0;
}

/* One key and its value [@v, @ve): sets c->failed with the message when
 * it is not one of ours or its value is wrong. */
static void handler(struct parse_ctx *c, const char *section, const char *name, const char *v,
		    const char *ve)
{
	struct tf_settings *s = c->s;
	char value[TF_SETTINGS_LINE_MAX];
	int bad = 0;

	if (tf_streq(section, "touchfw")) {
		span(value, v, ve); /* short values: words and numbers */
		if (tf_streq(name, "enabled"))
			bad = parse_bool(value, &s->enabled);
		else if (tf_streq(name, "mode")) {
			if (tf_streq(value, "update"))
				s->mode = TF_MODE_UPDATE;
			else if (tf_streq(value, "report-only"))
				s->mode = TF_MODE_REPORT_ONLY;
			else
				bad = -1;
		} else if (tf_streq(name, "handoff")) {
			if (tf_streq(value, "auto"))
				s->handoff = TF_HANDOFF_AUTO;
			else if (tf_streq(value, "systemd"))
				s->handoff = TF_HANDOFF_SYSTEMD;
			else if (tf_streq(value, "fork"))
				s->handoff = TF_HANDOFF_FORK;
			else
				bad = -1;
		} else if (tf_streq(name, "signatures")) {
			/* The names `db check --signatures` takes, too. */
			bad = tf_sig_policy_parse(value, &s->signatures) < 0;
		} else if (tf_streq(name, "max_attempts"))
			bad = parse_uint(value, 1, 100, &s->max_attempts);
		else if (tf_streq(name, "backoff_s"))
			bad = parse_uint(value, 0, 86400, &s->backoff_s);
		else if (tf_streq(name, "input_timeout_ms"))
			bad = parse_uint(value, 100, 600000, &s->input_timeout_ms);
		else if (tf_streq(name, "flash_timeout_ms"))
			bad = parse_uint(value, 1000, 3600000, &s->flash_timeout_ms);
		else if (tf_streq(name, "bind_timeout_ms"))
			bad = parse_uint(value, 100, 600000, &s->bind_timeout_ms);
		else if (tf_streq(name, "own_bind_window_s"))
			bad = parse_uint(value, 1, 3600, &s->own_bind_window_s);
		else
			goto unknown;
	} else if (tf_streq(section, "paths")) {
		if (tf_streq(name, "state_dir"))
			bad = set_path(s->state_dir, sizeof(s->state_dir), v, ve);
		else if (tf_streq(name, "persist_dir"))
			bad = set_path(s->persist_dir, sizeof(s->persist_dir), v, ve);
		else if (tf_streq(name, "db_dir"))
			bad = set_path(s->db_dir, sizeof(s->db_dir), v, ve);
		else if (tf_streq(name, "keys_dir"))
			bad = set_path(s->keys_dir, sizeof(s->keys_dir), v, ve);
		else if (tf_streq(name, "boards_dirs"))
			bad = set_dirs(s->boards_dirs, &s->n_boards_dirs, v, ve);
		else if (tf_streq(name, "firmware_dirs"))
			bad = set_dirs(s->firmware_dirs, &s->n_firmware_dirs, v, ve);
		else if (tf_streq(name, "firmware_class_path"))
			bad = set_path(s->firmware_class_path, sizeof(s->firmware_class_path),
				       v, ve);
		else if (tf_streq(name, "cmdline"))
			bad = set_path(s->cmdline, sizeof(s->cmdline), v, ve);
		else if (tf_streq(name, "prometheus_dir"))
			bad = set_path(s->prometheus_dir, sizeof(s->prometheus_dir), v, ve);
		else
			goto unknown;
	} else {
		tf_err_set(c->err, EINVAL, "%s:%u: unknown section [%s]", s->path, c->line,
			   section);
		c->failed = 1;
		return;
	}
	if (bad) {
		tf_err_set(c->err, EINVAL, "%s:%u: [%s] %s: invalid value '%.*s'", s->path,
			   c->line, section, name, (int)(ve - v), v);
		c->failed = 1;
	}
	return;
unknown:
	tf_err_set(c->err, EINVAL, "%s:%u: [%s]: unknown key '%s'", s->path, c->line, section,
		   name);
	c->failed = 1;
}

/* Does the word at @p (ending at a blank or the end) read @w? */
static bool word_is(const char *p, size_t n, const char *w)
{
	size_t i;

	for (i = 0; i < n && w[i] && p[i] == w[i]; i++)
		;
	return i == n && !w[i];
}

bool tf_cmdline_disables(const char *cmdline)
{
	const char *p = cmdline;

	while (p && *p) {
		size_t n = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		while (p[n] && p[n] != ' ' && p[n] != '\t' && p[n] != '\n')
			n++;
		if (word_is(p, n, "touchfw.disable") || word_is(p, n, "touchfw.disable=1") ||
		    word_is(p, n, "touchfw=off"))
			return true;
		p += n;
	}
	return false;
}

static int syntax_error(struct parse_ctx *c, const char *why)
{
	tf_err_set(c->err, EINVAL, "%s:%u: syntax error: %s", c->s->path, c->line, why);
	return -EINVAL;
}

/* The first @ch in [@p, @e), or NULL.  (Also stopping at a NUL, which
 * the line has none of: a loop the compiler does not turn into a call to
 * memchr() -- each libc function the udev fast path calls is one more
 * lookup for the dynamic loader at every event.) */
static const char *find(const char *p, const char *e, char ch)
{
	while (p < e && *p && *p != ch)
		p++;
	return p < e && *p == ch ? p : NULL;
}

/* One line [@b, @e), blanks trimmed and not empty. */
static int parse_line(struct parse_ctx *c, char *section, const char *b, const char *e)
{
	char key[TF_SETTINGS_LINE_MAX];
	const char *eq, *k_end, *v;

	if (*b == '#' || *b == ';')
		return 0;
	if (*b == '[') {
		const char *close = find(b, e, ']'), *after = close ? close + 1 : e;

		while (after < e && blank(*after))
			after++;
		if (!close || (after < e && *after != '#' && *after != ';'))
			return syntax_error(c, "a section is \"[name]\"");
		span(section, b + 1, close);
		if (!tf_streq(section, "touchfw") && !tf_streq(section, "paths")) {
			tf_err_set(c->err, EINVAL, "%s:%u: unknown section [%s]", c->s->path,
				   c->line, section);
			return -EINVAL;
		}
		return 0;
	}
	eq = find(b, e, '=');
	for (k_end = eq; k_end && k_end > b && blank(k_end[-1]); k_end--)
		;
	if (!eq || k_end == b)
		return syntax_error(c, "a line is \"[section]\", \"key = value\" or a comment");
	for (v = eq + 1; v < e && blank(*v); v++)
		;
	/* an inline comment: ';' after a blank */
	for (const char *q = v; q < e; q++)
		if (*q == ';' && blank(q[-1])) {
			for (e = q; e > v && blank(e[-1]); e--)
				;
			break;
		}
	handler(c, section, span(key, b, k_end), v, e);
	return c->failed ? -EINVAL : 0;
}

int tf_settings_parse(struct tf_settings *s, const char *text, size_t len, const char *name,
		      struct tf_err *err)
{
	struct parse_ctx c = { .s = s, .err = err };
	const char *p = text, *end = text + len;
	char section[TF_SETTINGS_LINE_MAX] = "";

	tf_settings_defaults(s);
	tf_strcpy_fit(s->path, sizeof(s->path), name);
	if (len >= 3 && p[0] == '\xef' && p[1] == '\xbb' && p[2] == '\xbf')
		p += 3; /* a UTF-8 byte order mark */
	while (p < end) {
		const char *b = p, *e = p;
		int r;

		c.line++;
		e = line_end(b, end);
		if (e < end && !*e)
			return tf_err_set(err, EINVAL,
					  "%s: contains a NUL byte, not a settings file", name);
		p = e < end ? e + 1 : end;
		if (p - b > TF_SETTINGS_LINE_MAX)
			return tf_err_set(err, EINVAL,
					  "%s:%u: syntax error: longer than %u bytes", name,
					  c.line, TF_SETTINGS_LINE_MAX);
		while (b < e && blank(*b))
			b++;
		while (e > b && blank(e[-1]))
			e--;
		if (b < e && (r = parse_line(&c, section, b, e)) < 0)
			return r;
	}
	return 0;
}

/*
 * Read a small file into @stack, or into a heap buffer (*@heap, to free)
 * when it does not fit: settings files and /proc/cmdline are a few hundred
 * bytes, and the udev fast path reads both, so the common case allocates
 * nothing.
 */
static int read_small(const char *path, size_t max, char *stack, size_t ssize, char **heap,
		      const char **text, size_t *len)
{
	size_t n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	*heap = NULL;
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r = read(fd, stack + n, ssize - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			r = -errno;
			close(fd);
			return (int)r;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n == ssize - 1) {
			/* Did not fit: read it whole from the start. */
			int e = lseek(fd, 0, SEEK_SET) < 0 ? -errno
							   : tf_read_fd(fd, max, heap, len);

			close(fd);
			if (e < 0)
				return e;
			*text = *heap;
			return 0;
		}
	}
	close(fd);
	stack[n] = '\0';
	*text = stack;
	*len = n;
	return 0;
}

int tf_settings_load(struct tf_settings *s, const char *path, struct tf_err *err)
{
	char buf[8192], *heap = NULL;
	const char *text;
	size_t len = 0;
	int r;

	if (!path)
		path = getenv("TOUCHFW_CONFIG");
	if (!path || !*path)
		path = DEFAULT_CONFIG;
	r = read_small(path, SETTINGS_MAX, buf, sizeof(buf), &heap, &text, &len);
	if (r == -ENOENT) {
		tf_settings_defaults(s);
		tf_strcpy_fit(s->path, sizeof(s->path), path);
	} else if (r < 0) {
		tf_settings_defaults(s);
		return tf_err_set(err, -r, "%s: %s", path,
				  r == -EFBIG ? "larger than 1 MiB, not a settings file"
					      : strerror(-r));
	} else {
		r = tf_settings_parse(s, text, len, path, err);
		if (heap)
			free(heap);
		if (r < 0)
			return r;
		s->file_found = true;
	}
	if (read_small(s->cmdline, 65536, buf, sizeof(buf), &heap, &text, &len) == 0) {
		s->disabled_by_cmdline = tf_cmdline_disables(text);
		if (heap)
			free(heap);
	}
	return 0;
}

bool tf_settings_disabled(const struct tf_settings *s)
{
	return !s->enabled || s->disabled_by_cmdline;
}
