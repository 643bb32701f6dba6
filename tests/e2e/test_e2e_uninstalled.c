// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw run from its build directory, as a developer or an OEM does
 * after `make` and before (or without) `make install` (issue 26 item 5):
 * the front end executes the agent built beside it, decided by where the
 * running binary is (/proc/self/exe), never by the environment; the same
 * binary copied anywhere else looks only at the installed path.  These
 * run on the host, outside any emulated board (whose shim would map the
 * installed path to the build's agent and hide the difference).
 */
#include "e2e.h"

#include "exitcode.h"

static char build[4096], dir[256];

static int setup(void **state)
{
	const char *b = getenv("TOUCHFW_BUILD");
	char *abs = realpath(b ? b : "build", NULL);

	(void)state;
	if (!abs)
		fail_msg("build directory %s: %s", b ? b : "build", strerror(errno));
	snprintf(build, sizeof(build), "%s", abs);
	free(abs);
	snprintf(dir, sizeof(dir), "/tmp/touchfw-uninstalled-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int teardown(void **state)
{
	char cmd[400];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Run @cmd with sh, no board; its exit status, its output in @out. */
static int run(const char *cmd, char *out, size_t size)
{
	FILE *p = popen(cmd, "r");
	size_t n;
	int st;

	assert_non_null(p);
	n = fread(out, 1, size - 1, p);
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* ./build/touchfw board check FILE: the agent beside it does the work. */
static void test_build_front_end_runs_the_build_agent(void **state)
{
	char cmd[12000], out[8192];
	int rc;

	(void)state;
	/* an environment that points elsewhere changes nothing */
	snprintf(
		cmd, sizeof(cmd),
		"env -i PATH=/usr/bin:/bin TOUCHFW_AGENT=/nonexistent '%s/touchfw' board check "
		"'%s/boards/examples/emul-demo.dtb' 2>&1",
		build, build);
	rc = run(cmd, out, sizeof(out));
	if (rc != TF_EXIT_OK)
		fail_msg("exit %d:\n%s", rc, out);
	assert_null(strstr(out, "can not run the agent"));
	/* through a symbolic link to it, too: the kernel resolves it */
	snprintf(cmd, sizeof(cmd),
		 "ln -s '%s/touchfw' '%s/touchfw-link' && '%s/touchfw-link' board check "
		 "'%s/boards/examples/emul-demo.dtb' 2>&1",
		 build, dir, dir, build);
	rc = run(cmd, out, sizeof(out));
	if (rc != TF_EXIT_OK)
		fail_msg("through a link: exit %d:\n%s", rc, out);
}

/* A copy of the front end elsewhere, with an "agent" beside it: that one
 * is never run; the copy looks at the installed path only. */
static void test_a_copy_elsewhere_ignores_what_lies_beside_it(void **state)
{
	char cmd[12000], out[8192], marker[400];
	int rc;

	(void)state;
	snprintf(marker, sizeof(marker), "%s/agent-ran", dir);
	snprintf(cmd, sizeof(cmd),
		 "cp '%s/touchfw' '%s/touchfw' && printf '#!/bin/sh\\ntouch %s\\n' "
		 ">'%s/touchfw-agent' && chmod +x '%s/touchfw-agent' && "
		 "'%s/touchfw' board check '%s/boards/examples/emul-demo.dtb' 2>&1",
		 build, dir, marker, dir, dir, dir, build);
	rc = run(cmd, out, sizeof(out));
	assert_int_not_equal(access(marker, F_OK), 0);
	/* the installed agent ran, or it is not installed here: said so */
	if (rc != TF_EXIT_OK && !strstr(out, "can not run the agent /"))
		fail_msg("exit %d:\n%s", rc, out);
	assert_null(strstr(out, dir));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_build_front_end_runs_the_build_agent,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_a_copy_elsewhere_ignores_what_lies_beside_it, setup, teardown),
	};

	e2e_test_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
