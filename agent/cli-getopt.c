// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A command's own options through getopt_long(3), for the agent's commands
 * (cli.h).  Apart from cli.c so that the front end, which parses its few
 * options with tf_opt_next(), links no getopt: its variables would be
 * relocated at every start of the udev fast path.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "exitcode.h"
#include "log.h"
#include "out.h"

/*
 * -v/--verbose and -q/--quiet after the command name ("touchfw run -v
 * DEV") mean what they mean before it: a command's own option string
 * does not list them, so getopt reports them as unknown.  Returns +1 for
 * a -v, -1 for a -q, 0 for anything else.
 */
static int global_verbosity(int argc, char **argv)
{
	const char *w = optind > 0 && optind - 1 < argc ? argv[optind - 1] : "";

	if (optopt == 'v' || (!optopt && !strcmp(w, "--verbose")))
		return 1;
	if (optopt == 'q' || (!optopt && !strcmp(w, "--quiet")))
		return -1;
	return 0;
}

int tf_cli_getopt(int argc, char **argv, struct tf_cli_opts *o)
{
	int c;

	if (!o->started) {
		/* 0: glibc starts a fresh scan (the global options used it). */
		optind = 0;
		opterr = 0;
		o->started = true;
	}
	for (;;) {
		int v;

		optopt = 0;
		c = getopt_long(argc, argv, o->shortopts, o->longopts, NULL);
		if (c != '?' || !(v = global_verbosity(argc, argv)))
			break;
		o->verbosity += v;
		tf_log_set_max(v > 0 ? TF_LOG_DEBUG : TF_LOG_ERR);
	}
	if (c == 'h') {
		o->usage(tf_out_file());
		o->exit = TF_EXIT_OK;
		return TF_CLI_STOP;
	}
	if (c == '?' || c == ':') {
		tf_out_err("%s: bad option '%s'\n", o->name, argv[optind - 1]);
		o->usage(tf_out_err_file());
		o->exit = TF_EXIT_USAGE;
		return TF_CLI_STOP;
	}
	return c;
}

int tf_cli_no_operands(int argc, char **argv, const struct tf_cli_opts *o)
{
	if (optind >= argc)
		return TF_CLI_CONTINUE;
	tf_out_err("%s: unexpected '%s'\n", o->name, argv[optind]);
	o->usage(tf_out_err_file());
	return TF_EXIT_USAGE;
}
