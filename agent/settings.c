// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw.conf parsing with libinih.  Strict: unknown sections and keys are
 * errors, so a typo in an off switch can not silently leave touchfw on.
 */
#include "settings.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "fs.h"

/*
 * The front end (`touchfw`, the udev fast path) does not link libinih: most
 * events end before any settings are read, and a system without a settings
 * file never parses one, so the library is loaded only when a file is
 * parsed.  The agent and the tests link it, which resolves this weak
 * reference directly.
 */
#pragma weak ini_parse_stream

typedef int (*ini_stream_fn)(ini_reader, void *, ini_handler, void *);

static ini_stream_fn ini_parser(void)
{
	static ini_stream_fn fn;
	void *h;

	if (ini_parse_stream)
		return ini_parse_stream;
	if (fn)
		return fn;
	h = dlopen("libinih.so.1", RTLD_NOW | RTLD_LOCAL);
	if (h)
		*(void **)&fn = dlsym(h, "ini_parse_stream");
	return fn;
}

#define DEFAULT_CONFIG TF_SETTINGS_DEFAULT_PATH
#define SETTINGS_MAX (1u << 20)

void tf_settings_defaults(struct tf_settings *s)
{
	memset(s, 0, sizeof(*s));
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
	snprintf(s->state_dir, sizeof(s->state_dir), "%s", TF_RUNSTATEDIR);
	snprintf(s->persist_dir, sizeof(s->persist_dir), "%s", TF_LOCALSTATEDIR);
	snprintf(s->db_dir, sizeof(s->db_dir), "%s/firmware-db", TF_DATADIR);
	snprintf(s->keys_dir, sizeof(s->keys_dir), "%s/keys", TF_SYSCONFDIR);
	s->n_boards_dirs = 2;
	snprintf(s->boards_dirs[0], sizeof(s->boards_dirs[0]), "%s/boards", TF_SYSCONFDIR);
	snprintf(s->boards_dirs[1], sizeof(s->boards_dirs[1]), "%s/boards", TF_DATADIR);
	s->n_firmware_dirs = 4;
	snprintf(s->firmware_dirs[0], sizeof(s->firmware_dirs[0]), "/lib/firmware/updates/%%r");
	snprintf(s->firmware_dirs[1], sizeof(s->firmware_dirs[1]), "/lib/firmware/updates");
	snprintf(s->firmware_dirs[2], sizeof(s->firmware_dirs[2]), "/lib/firmware/%%r");
	snprintf(s->firmware_dirs[3], sizeof(s->firmware_dirs[3]), "/lib/firmware");
	snprintf(s->firmware_class_path, sizeof(s->firmware_class_path),
		 "/sys/module/firmware_class/parameters/path");
	snprintf(s->cmdline, sizeof(s->cmdline), "/proc/cmdline");
	snprintf(s->agent_unit, sizeof(s->agent_unit), "touchfw@");
}

struct parse_ctx {
	struct tf_settings *s;
	struct tf_err *err;
	const char *pos, *end; /* the text not read yet */
	unsigned line;
	int failed;
};

/* ini_parse_stream()'s reader over a buffer, one line at a time (a line
 * longer than @num comes in pieces, as from fgets()). */
static char *reader(char *str, int num, void *stream)
{
	struct parse_ctx *c = stream;
	size_t n = 0;

	if (c->pos >= c->end || num < 2)
		return NULL;
	while (c->pos < c->end && n < (size_t)num - 1) {
		char ch = *c->pos++;

		str[n++] = ch;
		if (ch == '\n')
			break;
	}
	str[n] = '\0';
	if (str[n - 1] == '\n' || c->pos >= c->end)
		c->line++;
	return str;
}

static int parse_bool(const char *v, bool *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "on"))
		*out = true;
	else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0") ||
		 !strcmp(v, "off"))
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

static int set_path(char *dst, size_t size, const char *v)
{
	if (v[0] != '/' || strlen(v) >= size)
		return -1;
	strcpy(dst, v);
	return 0;
}

/* Space-separated absolute directories. */
static int set_dirs(char (*dirs)[256], unsigned *n, const char *v)
{
	char buf[2048], *tok, *save = NULL;
	unsigned k = 0;

	if (strlen(v) >= sizeof(buf))
		return -1;
	strcpy(buf, v);
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (k >= TF_MAX_DIRS || set_path(dirs[k], 256, tok))
			return -1;
		k++;
	}
	if (!k)
		return -1;
	*n = k;
	return 0;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct parse_ctx *c = user;
	struct tf_settings *s = c->s;
	int bad = 0;

	if (c->failed)
		return 0;
	if (!strcmp(section, "touchfw")) {
		if (!strcmp(name, "enabled"))
			bad = parse_bool(value, &s->enabled);
		else if (!strcmp(name, "mode")) {
			if (!strcmp(value, "update"))
				s->mode = TF_MODE_UPDATE;
			else if (!strcmp(value, "report-only"))
				s->mode = TF_MODE_REPORT_ONLY;
			else
				bad = -1;
		} else if (!strcmp(name, "handoff")) {
			if (!strcmp(value, "auto"))
				s->handoff = TF_HANDOFF_AUTO;
			else if (!strcmp(value, "systemd"))
				s->handoff = TF_HANDOFF_SYSTEMD;
			else if (!strcmp(value, "fork"))
				s->handoff = TF_HANDOFF_FORK;
			else
				bad = -1;
		} else if (!strcmp(name, "signatures")) {
			/* The names `db check --signatures` takes, too. */
			bad = tf_sig_policy_parse(value, &s->signatures) < 0;
		} else if (!strcmp(name, "max_attempts"))
			bad = parse_uint(value, 1, 100, &s->max_attempts);
		else if (!strcmp(name, "backoff_s"))
			bad = parse_uint(value, 0, 86400, &s->backoff_s);
		else if (!strcmp(name, "input_timeout_ms"))
			bad = parse_uint(value, 100, 600000, &s->input_timeout_ms);
		else if (!strcmp(name, "flash_timeout_ms"))
			bad = parse_uint(value, 1000, 3600000, &s->flash_timeout_ms);
		else if (!strcmp(name, "bind_timeout_ms"))
			bad = parse_uint(value, 100, 600000, &s->bind_timeout_ms);
		else if (!strcmp(name, "own_bind_window_s"))
			bad = parse_uint(value, 1, 3600, &s->own_bind_window_s);
		else
			goto unknown;
	} else if (!strcmp(section, "paths")) {
		if (!strcmp(name, "state_dir"))
			bad = set_path(s->state_dir, sizeof(s->state_dir), value);
		else if (!strcmp(name, "persist_dir"))
			bad = set_path(s->persist_dir, sizeof(s->persist_dir), value);
		else if (!strcmp(name, "db_dir"))
			bad = set_path(s->db_dir, sizeof(s->db_dir), value);
		else if (!strcmp(name, "keys_dir"))
			bad = set_path(s->keys_dir, sizeof(s->keys_dir), value);
		else if (!strcmp(name, "boards_dirs"))
			bad = set_dirs(s->boards_dirs, &s->n_boards_dirs, value);
		else if (!strcmp(name, "firmware_dirs"))
			bad = set_dirs(s->firmware_dirs, &s->n_firmware_dirs, value);
		else if (!strcmp(name, "firmware_class_path"))
			bad = set_path(s->firmware_class_path, sizeof(s->firmware_class_path),
				       value);
		else if (!strcmp(name, "cmdline"))
			bad = set_path(s->cmdline, sizeof(s->cmdline), value);
		else
			goto unknown;
	} else {
		tf_err_set(c->err, EINVAL, "%s:%u: unknown section [%s]", s->path, c->line,
			   section);
		c->failed = 1;
		return 0;
	}
	if (bad) {
		tf_err_set(c->err, EINVAL, "%s:%u: [%s] %s: invalid value '%s'", s->path,
			   c->line, section, name, value);
		c->failed = 1;
	}
	return 1;
unknown:
	tf_err_set(c->err, EINVAL, "%s:%u: [%s]: unknown key '%s'", s->path, c->line, section,
		   name);
	c->failed = 1;
	return 1;
}

bool tf_cmdline_disables(const char *cmdline)
{
	const char *p = cmdline;

	while (p && *p) {
		size_t n;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		n = strcspn(p, " \t\n");
		if ((n == 15 && !strncmp(p, "touchfw.disable", 15)) ||
		    (n == 17 && !strncmp(p, "touchfw.disable=1", 17)) ||
		    (n == 11 && !strncmp(p, "touchfw=off", 11)))
			return true;
		p += n;
	}
	return false;
}

int tf_settings_parse(struct tf_settings *s, const char *text, size_t len, const char *name,
		      struct tf_err *err)
{
	struct parse_ctx c = { .s = s, .err = err, .pos = text, .end = text + len };
	ini_stream_fn parse;
	int r;

	tf_settings_defaults(s);
	snprintf(s->path, sizeof(s->path), "%s", name);
	if (memchr(text, '\0', len))
		return tf_err_set(err, EINVAL, "%s: contains a NUL byte, not a settings file",
				  name);
	parse = ini_parser();
	if (!parse)
		return tf_err_set(err, ENOSYS, "%s: can not load libinih.so.1 to parse it: %s",
				  name, dlerror());
	r = parse(reader, &c, handler, &c);
	if (c.failed)
		return -EINVAL;
	if (r != 0)
		return tf_err_set(err, EINVAL, "%s:%d: syntax error", name,
				  r > 0 ? r : (int)c.line);
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
		snprintf(s->path, sizeof(s->path), "%s", path);
	} else if (r < 0) {
		tf_settings_defaults(s);
		return tf_err_set(err, -r, "%s: %s", path,
				  r == -EFBIG ? "larger than 1 MiB, not a settings file"
					      : strerror(-r));
	} else {
		r = tf_settings_parse(s, text, len, path, err);
		free(heap);
		if (r < 0)
			return r;
		s->file_found = true;
	}
	if (read_small(s->cmdline, 65536, buf, sizeof(buf), &heap, &text, &len) == 0) {
		s->disabled_by_cmdline = tf_cmdline_disables(text);
		free(heap);
	}
	return 0;
}

bool tf_settings_disabled(const struct tf_settings *s)
{
	return !s->enabled || s->disabled_by_cmdline;
}
