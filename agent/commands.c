// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agent's command table (commands.def with the entry points of
 * cmd-*.c).  Kept apart from cli.c so the front end does not link the
 * agent's commands.
 */
#include "cli.h"
#include "cmd.h"

const struct tf_command tf_agent_commands[] = {
#define TF_COMMAND(name, summary, run) { name, summary, run },
#include "commands.def"
#undef TF_COMMAND
	{ NULL, NULL, NULL },
};
