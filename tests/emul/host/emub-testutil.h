/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers shared by the emuboard test programs (tests/emul/test_*.c):
 * find the tree, start a board from tests/emul/boards or from a string, run
 * a shell command inside it and capture its output, and run the test
 * program itself as a helper child ("--child MODE ARGS") inside the board.
 * Header-only so the Makefile needs no rule for it.
 */
#ifndef EMUB_TESTUTIL_H
#define EMUB_TESTUTIL_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "emuboard.h"

#define TU_TIMEOUT_MS 20000

static char *tu_self; /* this program, absolute */

static inline const char *tu_top(void)
{
	const char *t = getenv("TOUCHFW_TOP");

	return t && *t ? t : ".";
}

static inline void tu_fini(void)
{
	free(tu_self);
}

static inline void tu_init(char **argv)
{
	tu_self = realpath("/proc/self/exe", NULL);
	atexit(tu_fini);
	(void)argv;
}

static inline struct emub *tu_board_file(const char *name, bool realtime)
{
	char *path = g_strdup_printf("%s/tests/emul/boards/%s", tu_top(), name);
	struct emub *eb = NULL;
	char err[512];
	int r = emub_new_from_file(path, &eb, err, sizeof(err));

	if (r)
		fail_msg("%s: %s", path, err);
	g_free(path);
	if (realtime)
		emub_set_realtime(eb, true);
	if (getenv("EMUB_TEST_LOG"))
		emub_set_log(eb, stderr);
	r = emub_start(eb);
	if (r)
		fail_msg("starting %s: %s", name, strerror(-r));
	return eb;
}

static inline struct emub *tu_board_text(const char *text)
{
	struct emub *eb = NULL;
	char err[512];
	int r = emub_new_from_string(text, tu_top(), &eb, err, sizeof(err));

	if (r)
		fail_msg("board: %s", err);
	if (getenv("EMUB_TEST_LOG"))
		emub_set_log(eb, stderr);
	r = emub_start(eb);
	if (r)
		fail_msg("starting board: %s", strerror(-r));
	return eb;
}

/* Run "sh -c CMD" in the board; returns the exit code, *out its stdout +
 * stderr (g_free). */
static inline int tu_sh(struct emub *eb, char **out, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static inline int tu_sh(struct emub *eb, char **out, const char *fmt, ...)
{
	va_list ap;
	char *cmd, *o = NULL, *e = NULL;
	const char *argv[] = { "/bin/sh", "-c", NULL, NULL };
	int r;

	va_start(ap, fmt);
	cmd = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	argv[2] = cmd;
	r = emub_run(eb, argv, NULL, TU_TIMEOUT_MS, &o, &e);
	if (getenv("EMUB_TEST_VERBOSE"))
		fprintf(stderr, "$ %s\n%s%s[exit %d]\n", cmd, o ? o : "", e ? e : "", r);
	if (out)
		*out = g_strconcat(o ? o : "", e ? e : "", NULL);
	g_free(o);
	g_free(e);
	g_free(cmd);
	return r;
}

/* Spawn this program as "--child MODE ARGS..." inside the board. */
static inline struct emub_child *tu_spawn_self(struct emub *eb, const char *const *args,
					       const char *const *env)
{
	GPtrArray *a = g_ptr_array_new();
	struct emub_child *c = NULL;
	int r;

	g_ptr_array_add(a, tu_self);
	g_ptr_array_add(a, (char *)"--child");
	for (; args && *args; args++)
		g_ptr_array_add(a, (char *)*args);
	g_ptr_array_add(a, NULL);
	r = emub_spawn(eb, (const char *const *)a->pdata, env, true, &c);
	g_ptr_array_free(a, TRUE);
	if (r)
		fail_msg("spawn: %s", strerror(-r));
	return c;
}

/* Run this program as a child to completion; returns exit code, output. */
static inline int tu_run_self(struct emub *eb, char **out, const char *const *args)
{
	struct emub_child *c = tu_spawn_self(eb, args, NULL);
	int st = 0, r = emub_child_wait(c, TU_TIMEOUT_MS, &st);

	if (getenv("EMUB_TEST_VERBOSE"))
		fprintf(stderr, "child %s:\n%s%s", args[0], emub_child_stdout(c),
			emub_child_stderr(c));
	if (out)
		*out = g_strconcat(emub_child_stdout(c), emub_child_stderr(c), NULL);
	emub_child_free(c);
	if (r)
		return r;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static inline bool tu_contains(const char *hay, const char *needle)
{
	return hay && strstr(hay, needle);
}

#define assert_contains(hay, needle)                                                 \
	do {                                                                         \
		const char *h_ = (hay), *n_ = (needle);                              \
		if (!tu_contains(h_, n_))                                            \
			fail_msg("expected \"%s\" in:\n%s", n_, h_ ? h_ : "(null)"); \
	} while (0)
#define assert_not_contains(hay, needle)                                   \
	do {                                                               \
		const char *h_ = (hay), *n_ = (needle);                    \
		if (tu_contains(h_, n_))                                   \
			fail_msg("did not expect \"%s\" in:\n%s", n_, h_); \
	} while (0)

/* Read a file of the testbed's /sys (relative to it). */
static inline char *tu_sys_read(struct emub *eb, const char *rel)
{
	char *p = g_build_filename(emub_root(eb), "sys", rel, NULL), *buf = NULL;

	if (!g_file_get_contents(p, &buf, NULL, NULL))
		buf = NULL;
	g_free(p);
	return buf;
}

static inline void tu_sys_write(struct emub *eb, const char *rel, const char *s)
{
	char *p = g_build_filename(emub_root(eb), "sys", rel, NULL);
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(s, f);
	fclose(f);
	g_free(p);
}

/* A scratch directory for firmware files, removed by tu_rmdir. */
static inline char *tu_tmpdir(void)
{
	char *t = g_strdup("/tmp/emub-test.XXXXXX");

	assert_non_null(g_mkdtemp(t));
	return t;
}

static inline void tu_rmdir(char *dir)
{
	char *cmd = g_strdup_printf("rm -rf '%s'", dir);

	assert_int_equal(system(cmd), 0);
	g_free(cmd);
	g_free(dir);
}

static inline void tu_write_file(const char *dir, const char *name, const void *data,
				 size_t len)
{
	char *p = g_build_filename(dir, name, NULL);

	assert_true(g_file_set_contents(p, data, (gssize)len, NULL));
	g_free(p);
}

#endif /* EMUB_TESTUTIL_H */
