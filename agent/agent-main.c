// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw-agent: the full agent.  The `touchfw` front end executes it for
 * every command except handle-event, passing its own argv unchanged.  This
 * file only dispatches; each command lives in its own cmd-*.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "cli.h"
#include "exitcode.h"
#include "json-exit.h"
#include "log.h"

extern char **environ;

int main(int argc, char **argv)
{
	struct tf_cli cli;
	int r;

	tf_log_init("touchfw", getenv("TOUCHFW_LOG_LEVEL"));
	/* Flashing paces itself with sleeps of a few hundred microseconds,
	 * learned per frame; the default 50 us timer slack would add up to
	 * that much to each (bench/README.md). */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
	r = tf_cli_parse_global(argc, argv, environ, &cli);
	if (r != TF_CLI_CONTINUE)
		return r;
	if (!cli.config_from_args)
		cli.config = getenv("TOUCHFW_CONFIG");
	/* --json: one document on every exit (json-exit.h) */
	tf_json_exit_begin(cli.argc, cli.argv);
	return tf_json_exit_end(tf_cli_dispatch(&cli, tf_agent_commands));
}
