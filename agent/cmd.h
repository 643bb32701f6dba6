/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Entry points of the agent's commands (cmd-*.c), one per command, for the
 * command table in commands.c.
 */
#ifndef TF_CMD_H
#define TF_CMD_H

struct tf_cli;

int tf_cmd_db(const struct tf_cli *cli);
int tf_cmd_run(const struct tf_cli *cli);
int tf_cmd_flash(const struct tf_cli *cli);
int tf_cmd_probe(const struct tf_cli *cli);
int tf_cmd_forget(const struct tf_cli *cli);

#endif /* TF_CMD_H */
