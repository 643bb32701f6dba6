// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agent's command table: which cmd-*.c implements which command.  Kept
 * apart from cli.c so the front end does not link the agent's commands.
 */
#include "cli.h"
#include "cmd.h"

const struct tf_command tf_agent_commands[] = {
	{ "db", "check, sign or make keys for the firmware database", tf_cmd_db },
	{ NULL, NULL, NULL },
};
