/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command-line handling shared by the front end and the agent: global
 * options, the command table, --help texts.  Both binaries accept exactly
 * the same command line; the front end runs handle-event itself and hands
 * every other command to the agent.
 */
#ifndef TF_CLI_H
#define TF_CLI_H

#include <stdbool.h>
#include <stdio.h>

#define TF_CLI_CONTINUE (-1)

struct tf_cli {
	const char *config;  /* --config FILE, or NULL for the default */
	bool config_from_args; /* config came from --config, not $TOUCHFW_CONFIG */
	int verbosity;       /* -v count minus -q count */
	const char *command; /* argv[cmd_index] */
	int argc;            /* arguments from the command on */
	char **argv;
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

/* Parse global options; returns TF_CLI_CONTINUE or an exit code. */
int tf_cli_parse_global(int argc, char **argv, struct tf_cli *cli);
int tf_cli_dispatch(const struct tf_cli *cli, const struct tf_command *table);
void tf_cli_usage(FILE *f);

#endif /* TF_CLI_H */
