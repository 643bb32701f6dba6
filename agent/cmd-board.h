/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `touchfw board`: `board check FILE...` validates board profiles (.dts or
 * .dtb) and explains every mistake with its node path; `board identify`
 * shows the running machine's identity and which profile describes it.
 */
#ifndef TF_CMD_BOARD_H
#define TF_CMD_BOARD_H

#include "cli.h"

/* cli->argv[0] is "board"; returns a tf_exit code. */
int tf_cmd_board(const struct tf_cli *cli);

struct tf_board_profile;
/* cmd-board-tools.c: `board identify --live` for @p (prints; returns the
 * number of problems), `board init` (argv[0] is "init"; a tf_exit code). */
int tf_board_live(const struct tf_board_profile *p);
int tf_cmd_board_init(int argc, char **argv);

#endif /* TF_CMD_BOARD_H */
