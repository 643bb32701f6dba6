// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A command's own options through getopt_long(3), for the agent's commands
 * (cli.h).  Apart from cli.c so that the front end, which parses its few
 * options with tf_opt_next(), links no getopt: its variables would be
 * relocated at every start of the udev fast path.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "exitcode.h"

int tf_cli_getopt(int argc, char **argv, struct tf_cli_opts *o)
{
	int c;

	if (!o->started) {
		/* 0: glibc starts a fresh scan (the global options used it). */
		optind = 0;
		opterr = 0;
		o->started = true;
	}
	c = getopt_long(argc, argv, o->shortopts, o->longopts, NULL);
	if (c == 'h') {
		o->usage(stdout);
		o->exit = TF_EXIT_OK;
		return TF_CLI_STOP;
	}
	if (c == '?' || c == ':') {
		fprintf(stderr, "%s: bad option '%s'\n", o->name, argv[optind - 1]);
		o->usage(stderr);
		o->exit = TF_EXIT_USAGE;
		return TF_CLI_STOP;
	}
	return c;
}

int tf_cli_no_operands(int argc, char **argv, const struct tf_cli_opts *o)
{
	if (optind >= argc)
		return TF_CLI_CONTINUE;
	fprintf(stderr, "%s: unexpected '%s'\n", o->name, argv[optind]);
	o->usage(stderr);
	return TF_EXIT_USAGE;
}
