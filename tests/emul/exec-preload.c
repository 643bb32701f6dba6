// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The board's shim, its second part (linked into libemuboard-gpiod.so with
 * gpiod-preload.c): a program started inside an emulated board stays
 * inside it, as a process started on a machine sees that machine's
 * hardware.  touchfw itself knows nothing of the board:
 *
 * - The front end runs the agent by its installed path
 *   (TF_LIBEXECDIR/touchfw-agent, agent/handoff.c).  On the board that
 *   path is the agent of the build under test (EMUB_AGENT, the Makefile),
 *   so the tests, demos and benchmarks run the binaries they built, and
 *   the shipped front end looks nowhere else.
 * - handle-event's detached run gets a clean environment (PATH and
 *   TOUCHFW_LOG_LEVEL only, agent/handoff.c), which on a machine loses
 *   nothing; on the board it would lose LD_PRELOAD and UMOCKDEV_DIR, that
 *   is the board itself.  An exec from inside a board (UMOCKDEV_DIR set)
 *   whose environment lacks them gets this process's values back.
 *
 * glibc's execv() calls its internal execve, so both are wrapped.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef EMUB_AGENT
#error "EMUB_AGENT: the build's touchfw-agent (Makefile)"
#endif
#ifndef EMUB_INSTALLED_AGENT
#error "EMUB_INSTALLED_AGENT: the agent's installed path, TF_LIBEXECDIR/touchfw-agent (Makefile)"
#endif

extern char **environ;

/* The variables that make up the board, kept across an exec. */
static const char *const board_env[] = { "LD_PRELOAD", "UMOCKDEV_DIR" };

static bool has_var(char *const *envp, const char *name)
{
	size_t len = strlen(name);

	for (; envp && *envp; envp++)
		if (!strncmp(*envp, name, len) && (*envp)[len] == '=')
			return true;
	return false;
}

/* This process's "NAME=value" entry, or NULL. */
static char *own_entry(const char *name)
{
	size_t len = strlen(name);
	char **e;

	for (e = environ; e && *e; e++)
		if (!strncmp(*e, name, len) && (*e)[len] == '=')
			return *e;
	return NULL;
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	static int (*real)(const char *, char *const[], char *const[]);
	char *const *env = envp;
	char **grown = NULL;
	size_t n = 0, i, k;
	int rc, saved;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "execve");
	if (!real) {
		errno = ENOSYS;
		return -1;
	}
	if (!strcmp(path, EMUB_INSTALLED_AGENT))
		path = EMUB_AGENT;
	if (getenv("UMOCKDEV_DIR")) {
		for (k = 0; k < sizeof(board_env) / sizeof(board_env[0]); k++)
			if (!has_var(envp, board_env[k]) && own_entry(board_env[k]))
				break;
		if (k < sizeof(board_env) / sizeof(board_env[0])) {
			while (envp && envp[n])
				n++;
			grown = malloc((n + 1 + sizeof(board_env) / sizeof(board_env[0])) *
				       sizeof(*grown));
			if (!grown) {
				errno = ENOMEM;
				return -1;
			}
			for (i = 0; i < n; i++)
				grown[i] = envp[i];
			for (k = 0; k < sizeof(board_env) / sizeof(board_env[0]); k++)
				if (!has_var(envp, board_env[k]) && own_entry(board_env[k]))
					grown[n++] = own_entry(board_env[k]);
			grown[n] = NULL;
			env = grown;
		}
	}
	rc = real(path, argv, env);
	saved = errno;
	free(grown);
	errno = saved;
	return rc;
}

int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}
