// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agent's command table: which cmd-*.c implements which command.  Kept
 * apart from cli.c so the front end does not link the agent's commands.
 */
#include "cli.h"
#include "cmd-board.h"
#include "cmd.h"

const struct tf_command tf_agent_commands[] = {
	{ "run", "update one controller (what touchfw@.service runs)", tf_cmd_run },
	{ "probe", "show every controller, its mode, versions and plan", tf_cmd_probe },
	{ "status", "probe, plus the last result and what is remembered", tf_cmd_probe },
	{ "flash", "flash firmware and/or config by hand (bring-up)", tf_cmd_flash },
	{ "forget", "clear what touchfw remembers of a device", tf_cmd_forget },
	{ "db", "check, sign or make keys for the firmware database", tf_cmd_db },
	{ "board", "check a board profile, or show which one this machine uses",
	  tf_cmd_board },
	{ "chip", "one controller: identity and object table, reset, save its config",
	  tf_cmd_chip },
	{ NULL, NULL, NULL },
};
