/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command-line handling shared by the front end and the agent: global
 * options, the command table, --help texts.  Both binaries accept exactly
 * the same command line; the front end runs handle-event itself and hands
 * every other command to the agent.
 */
#ifndef TF_CLI_H
#define TF_CLI_H

#include <getopt.h> /* struct option, for tf_cli_opts */
#include <stdbool.h>
#include <stdio.h>

#define TF_CLI_CONTINUE (-1)

struct tf_cli {
	const char *config;    /* --config FILE, or NULL for the default */
	bool config_from_args; /* config came from --config, not $TOUCHFW_CONFIG */
	int verbosity;	       /* -v count minus -q count */
	const char *command;   /* argv[cmd_index] */
	int argc;	       /* arguments from the command on */
	char **argv;
	char **envp;	 /* the environment main() was given */
	const char *bad; /* the word tf_cli_scan_global() did not take */
};

struct tf_command {
	const char *name;
	const char *summary;
	int (*run)(const struct tf_cli *cli); /* NULL: not in this binary */
};

/* Commands implemented by the agent (NULL-terminated). */
extern const struct tf_command tf_agent_commands[];
/* Every command with its one-line summary, for the top-level --help. */
extern const struct tf_command tf_all_commands[];

/*
 * A command's own options: getopt_long over @argv (argv[0] is the command
 * word) with -h/--help and unknown options handled the same everywhere.
 * Returns the next option, -1 at the end, or TF_CLI_STOP with @exit set:
 * after -h (@usage on stdout, TF_EXIT_OK) or an unknown option ("@name:
 * bad option 'X'" and @usage on stderr, TF_EXIT_USAGE).  @shortopts and
 * @longopts must include h and "help".  -v/--verbose and -q/--quiet, the
 * global options, are taken here too (the log level set, @verbosity
 * counted), so "touchfw run -v DEV" works as "touchfw -v run DEV".
 */
#define TF_CLI_STOP (-2)
struct tf_cli_opts {
	const char *name; /* "touchfw db check", for messages */
	const char *shortopts;
	const struct option *longopts;
	void (*usage)(FILE *f);
	bool started;
	int exit;
	int verbosity; /* -v count minus -q count after the command name */
};
int tf_cli_getopt(int argc, char **argv, struct tf_cli_opts *o);
/* After the options, for a command that takes no operands: TF_CLI_CONTINUE,
 * or "@name: unexpected 'X'" and the usage on stderr, TF_EXIT_USAGE. */
int tf_cli_no_operands(int argc, char **argv, const struct tf_cli_opts *o);

/*
 * Options without getopt(3) (cli.c has the rules, getopt_long's): a table
 * ended by a NULL long_name; tf_opt_next() returns the index of the next
 * option in it (*@arg its value, if it takes one), TF_OPT_END at the
 * first operand (argv[s->i]) or after "--", TF_OPT_BAD for an unknown,
 * ambiguous or incomplete one (s->bad is the word it was in).
 */
struct tf_optdef {
	const char *long_name;
	char short_name; /* 0: none */
	bool has_arg;
};
struct tf_optscan {
	int argc;
	char **argv;
	int i;		     /* the next word; set to 1 (or the first option) */
	const char *cluster; /* the rest of "-xyz" */
	const char *bad;
};
#define TF_OPT_END (-1)
#define TF_OPT_BAD (-2)
int tf_opt_next(struct tf_optscan *s, const struct tf_optdef *defs, const char **arg);

/*
 * The global options, read: TF_CLI_CONTINUE with the command in @cli, or
 * what else the line asks for, printing nothing.  The settings file comes
 * from --config only: the agent's main() adds $TOUCHFW_CONFIG
 * (handle-event never takes it).
 */
#define TF_CLI_HELP (-10)
#define TF_CLI_VERSION (-11)
#define TF_CLI_BAD_OPTION (-12) /* cli->bad is the word */
#define TF_CLI_NO_COMMAND (-13)
int tf_cli_scan_global(int argc, char **argv, char **envp, struct tf_cli *cli);
/* The same, with --help, --version and the errors printed: returns
 * TF_CLI_CONTINUE or an exit code. */
int tf_cli_parse_global(int argc, char **argv, char **envp, struct tf_cli *cli);
int tf_cli_dispatch(const struct tf_cli *cli, const struct tf_command *table);
void tf_cli_usage(FILE *f);

#endif /* TF_CLI_H */
