// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Global options, the command table and usage text, shared by the front end
 * (touchfw) and the agent (touchfw-agent) so both read one command line the
 * same way and --help stays in one place.
 */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "log.h"

const struct tf_command tf_all_commands[] = {
#define TF_COMMAND(name, summary, run) { name, summary, NULL },
#include "commands.def"
#undef TF_COMMAND
	{ NULL, NULL, NULL },
};

void tf_cli_usage(FILE *f)
{
	const struct tf_command *c;
	int i;

	fprintf(f, "Usage: touchfw [--config FILE] [-v|-q] COMMAND [ARGS...]\n"
		   "\n"
		   "Brings i2c/spi touch controllers that come up in boot mode to\n"
		   "working firmware and configuration, on the kernel's bind event\n"
		   "or by hand.\n"
		   "\n"
		   "Commands:\n");
	for (c = tf_all_commands; c->name; c++)
		fprintf(f, "  %-14s %s\n", c->name, c->summary);
	fprintf(f,
		"\n"
		"Options:\n"
		"  -c, --config FILE  settings file (default %s/touchfw.conf,\n"
		"                     or $TOUCHFW_CONFIG but for handle-event)\n"
		"  -v, --verbose      debug output too (the default level is info)\n"
		"  -q, --quiet        only errors\n"
		"  -h, --help         this text; COMMAND --help for a command\n"
		"  -V, --version      print the version\n"
		"\n"
		"Environment:\n"
		"  TOUCHFW_CONFIG     settings file, as --config\n"
		"  TOUCHFW_LOG_LEVEL  debug, info (default), notice, warning or err;\n"
		"                     -v and -q override it\n"
		"\n"
		"Exit codes:\n",
		TF_SYSCONFDIR);
	for (i = 0; i < TF_EXIT_MAX_; i++)
		fprintf(f, "  %2d  %-18s %s\n", i, tf_exit_name(i), tf_exit_text(i));
	fprintf(f, "\nSee touchfw(8).\n");
}

int tf_cli_parse_global(int argc, char **argv, struct tf_cli *cli)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(cli, 0, sizeof(*cli));
	cli->config = getenv("TOUCHFW_CONFIG");
	/* '+': stop at the first non-option, which is the command. */
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+c:vqhV", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cli->config = optarg;
			cli->config_from_args = true;
			break;
		case 'v':
			cli->verbosity++;
			break;
		case 'q':
			cli->verbosity--;
			break;
		case 'h':
			tf_cli_usage(stdout);
			return TF_EXIT_OK;
		case 'V':
			printf("touchfw %s\n", TF_VERSION);
			return TF_EXIT_OK;
		default:
			fprintf(stderr, "touchfw: unknown option '%s'\n", argv[optind - 1]);
			fprintf(stderr, "Try 'touchfw --help'.\n");
			return TF_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "touchfw: no command given\n");
		tf_cli_usage(stderr);
		return TF_EXIT_USAGE;
	}
	cli->command = argv[optind];
	cli->argc = argc - optind;
	cli->argv = argv + optind;
	/* The default is info (or $TOUCHFW_LOG_LEVEL): -v adds debug. */
	if (cli->verbosity > 0)
		tf_log_set_max(TF_LOG_DEBUG);
	else if (cli->verbosity < 0)
		tf_log_set_max(TF_LOG_ERR);
	return TF_CLI_CONTINUE;
}

int tf_cli_dispatch(const struct tf_cli *cli, const struct tf_command *table)
{
	const struct tf_command *c;

	for (c = table; c->name; c++)
		if (!strcmp(c->name, cli->command) && c->run)
			return c->run(cli);
	for (c = tf_all_commands; c->name; c++)
		if (!strcmp(c->name, cli->command))
			break;
	if (c->name)
		fprintf(stderr, "touchfw: command '%s' is not available in this build\n",
			cli->command);
	else
		fprintf(stderr, "touchfw: unknown command '%s'\nTry 'touchfw --help'.\n",
			cli->command);
	return TF_EXIT_USAGE;
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
