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

#include <stdbool.h>
#include <stddef.h>

struct tf_board_profile;
struct tf_json;
/* cmd-board-tools.c: `board identify --live` for @p (printed, or into
 * @j's "live" array when @j is not NULL; returns the number of problems),
 * `board identify --json` (a tf_exit code), `board init` (argv[0] is
 * "init"; a tf_exit code). */
int tf_board_live(const struct tf_board_profile *p, struct tf_json *j);
int tf_board_identify_json(const char *sysroot, const char *const *dirs, size_t n_dirs,
			   bool live);
int tf_cmd_board_init(int argc, char **argv);
/* cmd-board.c: `board check` of one FILE (.dts compiled with dtc, or a
 * .dtb), its mistakes printed as there; when valid the compiled profile
 * is @dir/@name.  A tf_exit code. */
int tf_board_check_into(const char *file, const char *dir, const char *name);
/* cmd-board-rehearse.c: `board rehearse` (argv[0] is "rehearse") */
int tf_cmd_board_rehearse(int argc, char **argv, const struct tf_cli *cli);

#endif /* TF_CMD_BOARD_H */
