// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agent's command table: which cmd-*.c implements which command.  Kept
 * apart from cli.c so the front end does not link the agent's commands.
 */
#include "cli.h"
#include "cmd-board.h"

const struct tf_command tf_agent_commands[] = {
	{ "board", "check a board profile, or show which one this machine uses", tf_cmd_board },
	{ NULL, NULL, NULL },
};
