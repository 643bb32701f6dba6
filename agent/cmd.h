/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Entry points of the agent's commands (cmd-*.c), one per command, for the
 * command table in commands.c.
 */
#ifndef TF_CMD_H
#define TF_CMD_H

#include "fwdb.h"

struct tf_cli;
struct tf_settings;

/* What `touchfw db` subcommands default to (cmd-db.c fills it). */
struct tf_db_defaults {
	const char *db_dir;
	const char *keys_dir;
	enum tf_sig_policy sig;
	const struct tf_settings *settings;
};

int tf_cmd_db(const struct tf_cli *cli);
/* A --keys DIR given on a command line names a directory that exists:
 * TF_EXIT_OK, else the error said (naming @dir) and TF_EXIT_BAD_INPUT --
 * never an "unsigned; allowed" database checked against no keys. */
int tf_db_keys_given(const char *cmd, const char *dir);
int tf_cmd_run(const struct tf_cli *cli);
int tf_cmd_flash(const struct tf_cli *cli);
int tf_cmd_probe(const struct tf_cli *cli);
int tf_cmd_chip(const struct tf_cli *cli);
/* `touchfw board` (cmd-board.c, its subcommands in cmd-board-*.c). */
int tf_cmd_board(const struct tf_cli *cli);
/* `db add` (cmd-db-add.c) and `db list` (cmd-db-list.c); @argv[0] is the
 * subcommand. */
int tf_cmd_db_add(int argc, char **argv, const struct tf_db_defaults *d);
int tf_cmd_db_list(int argc, char **argv, const struct tf_db_defaults *d);
/* `db init` and `db remove` (cmd-db-edit.c). */
int tf_cmd_db_init(int argc, char **argv, const struct tf_db_defaults *d);
int tf_cmd_db_remove(int argc, char **argv, const struct tf_db_defaults *d);
int tf_cmd_forget(const struct tf_cli *cli);
/* cmd-db-blob.c: @b's keys in a `db` document's blob object (`db list`'s:
 * id, type, family, hardware, versions, file, size, boards, CRCs). */
struct tf_json;
void tf_db_json_blob(struct tf_json *j, const struct tf_blob *b);
/* The start of the document of a command that wrote the database @dir:
 * @j initialised, the object opened with "version", "db" and "manifest";
 * the caller adds its keys, ends the object and frees @j. */
void tf_db_json_begin(struct tf_json *j, const char *dir);
/* cmd-probe.c: when the i2c device @dev ("3-0040") does not exist, the one
 * ACPI-named client on adapter @nr ("i2c-<HID>:00") if there is one. */
void tf_acpi_client(int nr, char *dev, size_t size);

#endif /* TF_CMD_H */
