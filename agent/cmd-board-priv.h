/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared inside the `touchfw board` files only (cmd-board*.c): each
 * subcommand's entry point for the dispatch in cmd-board.c (tf_cmd_board,
 * cmd.h), what check lends identify and rehearse, and identify --live.
 */
#ifndef TF_CMD_BOARD_PRIV_H
#define TF_CMD_BOARD_PRIV_H

#include "cli.h"

#include <stdbool.h>
#include <stddef.h>

struct tf_board_profile;
struct tf_board_report;
struct tf_json;

/* The subcommands, argv[0] being the subcommand's name; each returns a
 * tf_exit code. */
int tf_cmd_board_check(int argc, char **argv, const struct tf_cli *cli); /* cmd-board-check.c */
int tf_cmd_board_identify(int argc, char **argv,
			  const struct tf_cli *cli); /* cmd-board-identify.c */
int tf_cmd_board_init(int argc, char **argv);	     /* cmd-board-init.c */
int tf_cmd_board_rehearse(int argc, char **argv, const struct tf_cli *cli); /* -rehearse.c */

/* cmd-board-check.c: `board check` of one FILE (.dts compiled with dtc, or
 * a .dtb), its mistakes printed as there; when valid the compiled profile
 * is @dir/@name.  A tf_exit code.  And the text both check and identify
 * print: a profile's controllers, a file's mistakes ("FILE: NODE: ..."). */
int tf_board_check_into(const char *file, const char *dir, const char *name);
void tf_board_print_profile(const struct tf_board_profile *p);
void tf_board_print_report(const char *file, const struct tf_board_report *rep);

/* cmd-board-live.c: `board identify --live` for @p (printed, or into
 * @j's "live" array when @j is not NULL); returns the number of problems. */
int tf_board_live(const struct tf_board_profile *p, struct tf_json *j);

#endif /* TF_CMD_BOARD_PRIV_H */
