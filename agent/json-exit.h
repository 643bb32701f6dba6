/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One JSON document on every exit of a `--json` command (doc/json.md): a
 * command that fails before its document -- a usage error, a device or
 * profile that is not there -- prints nothing on standard output itself;
 * the agent then prints an error document with the exit code, its name
 * and the error message said on standard error.
 */
#ifndef TF_JSON_EXIT_H
#define TF_JSON_EXIT_H

/*
 * Before the command runs: @argv (@argc words, argv[0] the command) asks
 * for --json for a command that takes it.  Then standard output is
 * watched for any document and standard error for the last error line.
 */
void tf_json_exit_begin(int argc, char **argv);
/* After it: the error document if one is owed (@code not 0, nothing on
 * standard output).  Returns @code. */
int tf_json_exit_end(int code);
/* The error document for @code and @message (NULL: the code's text), as
 * text to free. */
char *tf_json_error_doc(int code, const char *message);

#endif /* TF_JSON_EXIT_H */
