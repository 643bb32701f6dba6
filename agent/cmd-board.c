// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw board`: the subcommands' dispatch and the group's --help.
 * check (cmd-board-check.c), identify (cmd-board-identify.c, with
 * cmd-board-live.c for --live), init (cmd-board-init.c) and rehearse
 * (cmd-board-rehearse.c) have a file each.
 */
#include "cmd-board-priv.h"

#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "exitcode.h"
#include "out.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: touchfw board check [--json] FILE...\n"
		"       touchfw board identify [--boards DIR]... [--sysroot DIR] [--live] [--json]\n"
		"       touchfw board init DEVICE [--out FILE [--json]]\n"
		"       touchfw board rehearse [--db DIR] [--bootloader] PROFILE\n"
		"\n"
		"Board profiles tell touchfw which touch controllers a board has,\n"
		"where they are and who powers them (see boards/README.md).\n"
		"\n"
		"  check     validate profiles (.dts, compiled with dtc, or .dtb)\n"
		"            and explain every mistake\n"
		"  identify  show this machine's identity and the profile that\n"
		"            matches it; --live: check its controllers against\n"
		"            the machine\n"
		"  init      write a profile skeleton from a bound controller\n"
		"  rehearse  run a profile and a firmware database on an emulated\n"
		"            board made from the profile (from the build tree)\n"
		"\n"
		"'touchfw board COMMAND --help' describes each.\n");
}

int tf_cmd_board(const struct tf_cli *cli)
{
	const char *sub = cli->argc > 1 ? cli->argv[1] : NULL;

	if (!sub || !strcmp(sub, "--help") || !strcmp(sub, "-h")) {
		usage(sub ? tf_out_file() : tf_out_err_file());
		return sub ? TF_EXIT_OK : TF_EXIT_USAGE;
	}
	if (!strcmp(sub, "check"))
		return tf_cmd_board_check(cli->argc - 1, cli->argv + 1, cli);
	if (!strcmp(sub, "identify"))
		return tf_cmd_board_identify(cli->argc - 1, cli->argv + 1, cli);
	if (!strcmp(sub, "init"))
		return tf_cmd_board_init(cli->argc - 1, cli->argv + 1);
	if (!strcmp(sub, "rehearse"))
		return tf_cmd_board_rehearse(cli->argc - 1, cli->argv + 1, cli);
	tf_out_err("touchfw: board: unknown command '%s'\n", sub);
	usage(tf_out_err_file());
	return TF_EXIT_USAGE;
}
