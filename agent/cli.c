// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Global options, the command table and usage text, shared by the front end
 * (touchfw) and the agent (touchfw-agent) so both read one command line the
 * same way and --help stays in one place.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "log.h"
#include "out.h"

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
		"  -q, --quiet        only errors (-v and -q may also follow COMMAND)\n"
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

/*
 * One option of @s->argv, read as getopt_long(3) reads it with a '+'
 * option string and opterr 0: "--name", "--name=VALUE" or "--name VALUE"
 * (a unique prefix of a name will do, an exact name always), "-x",
 * clustered "-xy", "-cVALUE" or "-c VALUE"; "--" ends the options, and so
 * does the first word that is not one ("-" alone is not).  No libc getopt:
 * the front end runs for every event udev sees, and getopt's variables
 * alone cost every run their relocations (bench/README.md).
 */
int tf_opt_next(struct tf_optscan *s, const struct tf_optdef *defs, const char **arg)
{
	const char *w;
	int k, found = -1;

	*arg = NULL;
	if (s->cluster && *s->cluster) {
		char c = *s->cluster++;

		for (k = 0; defs[k].long_name; k++)
			if (defs[k].short_name && defs[k].short_name == c)
				break;
		if (!defs[k].long_name)
			return TF_OPT_BAD;
		if (defs[k].has_arg) {
			if (*s->cluster)
				*arg = s->cluster;
			else if (s->i < s->argc)
				*arg = s->argv[s->i++];
			else
				return TF_OPT_BAD;
			s->cluster = NULL;
		}
		return k;
	}
	s->cluster = NULL;
	if (s->i >= s->argc)
		return TF_OPT_END;
	w = s->argv[s->i];
	s->bad = w;
	if (w[0] != '-' || !w[1])
		return TF_OPT_END; /* the first operand */
	s->i++;
	if (w[1] != '-') {
		s->cluster = w + 1;
		return tf_opt_next(s, defs, arg);
	}
	if (!w[2])
		return TF_OPT_END; /* "--" */
	/* an exact name, else the one name it begins */
	for (int pass = 0; pass < 2 && found < 0; pass++)
		for (k = 0; defs[k].long_name; k++) {
			const char *n = defs[k].long_name, *p = w + 2;

			while (*p && *p != '=' && *p == *n)
				p++, n++;
			if ((*p && *p != '=') || (!pass && *n))
				continue;
			if (found >= 0)
				return TF_OPT_BAD; /* ambiguous */
			found = k;
		}
	if (found < 0)
		return TF_OPT_BAD;
	for (w += 2; *w && *w != '='; w++)
		;
	if (defs[found].has_arg) {
		if (*w == '=')
			*arg = w + 1;
		else if (s->i < s->argc)
			*arg = s->argv[s->i++];
		else
			return TF_OPT_BAD;
	} else if (*w == '=') {
		return TF_OPT_BAD;
	}
	return found;
}

int tf_cli_scan_global(int argc, char **argv, char **envp, struct tf_cli *cli)
{
	static const struct tf_optdef opts[] = {
		{ "config", 'c', true }, { "verbose", 'v', false }, { "quiet", 'q', false },
		{ "help", 'h', false },	 { "version", 'V', false }, { NULL, 0, false },
	};
	struct tf_optscan sc = { .argc = argc, .argv = argv, .i = 1 };
	const char *arg;
	int k;

	memset(cli, 0, sizeof(*cli));
	cli->envp = envp;
	while ((k = tf_opt_next(&sc, opts, &arg)) != TF_OPT_END) {
		if (k == TF_OPT_BAD) {
			cli->bad = sc.bad;
			return TF_CLI_BAD_OPTION;
		}
		switch (opts[k].short_name) {
		case 'c':
			cli->config = arg;
			cli->config_from_args = true;
			break;
		case 'v':
			cli->verbosity++;
			break;
		case 'q':
			cli->verbosity--;
			break;
		case 'h':
			return TF_CLI_HELP;
		default: /* 'V' */
			return TF_CLI_VERSION;
		}
	}
	if (sc.i >= argc)
		return TF_CLI_NO_COMMAND;
	cli->command = argv[sc.i];
	cli->argc = argc - sc.i;
	cli->argv = argv + sc.i;
	/* The default is info (or $TOUCHFW_LOG_LEVEL): -v adds debug. */
	if (cli->verbosity > 0)
		tf_log_set_max(TF_LOG_DEBUG);
	else if (cli->verbosity < 0)
		tf_log_set_max(TF_LOG_ERR);
	return TF_CLI_CONTINUE;
}

int tf_cli_parse_global(int argc, char **argv, char **envp, struct tf_cli *cli)
{
	switch (tf_cli_scan_global(argc, argv, envp, cli)) {
	case TF_CLI_BAD_OPTION:
		tf_out_err("touchfw: unknown option '%s'\n", cli->bad);
		tf_out_err("Try 'touchfw --help'.\n");
		return TF_EXIT_USAGE;
	case TF_CLI_HELP:
		tf_cli_usage(tf_out_file());
		return TF_EXIT_OK;
	case TF_CLI_VERSION:
		tf_out("touchfw %s\n", TF_VERSION);
		return TF_EXIT_OK;
	case TF_CLI_NO_COMMAND:
		tf_out_err("touchfw: no command given\n");
		tf_cli_usage(tf_out_err_file());
		return TF_EXIT_USAGE;
	default:
		return TF_CLI_CONTINUE;
	}
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
		tf_out_err("touchfw: command '%s' is not available in this build\n",
			   cli->command);
	else
		tf_out_err("touchfw: unknown command '%s'\nTry 'touchfw --help'.\n",
			   cli->command);
	return TF_EXIT_USAGE;
}
