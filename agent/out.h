/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line's output seam: everything a command prints on standard
 * output or standard error goes through here or through log.h, and
 * nothing else in agent/ names stdout or stderr
 * (tests/system/check-output-seam).
 *
 *   tf_out*()        standard output: the command's result -- its text,
 *                    tables, a `--json` document, a generated file.
 *   tf_out_err()     standard error: a message of the command line to the
 *                    person who typed it, as given ("touchfw db add: ..."),
 *                    usage errors and a command's own failures.
 *   tf_log() (log.h) standard error: a diagnostic about a device or the
 *                    run, with the program's name or journald's priority.
 *
 * Under `--json` (json-exit.h) both streams are watched: whatever is
 * written through here counts as the document or as the error message.
 */
#ifndef TF_OUT_H
#define TF_OUT_H

#include <stdio.h>

struct tf_json;

void tf_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* @s as it is, no newline added. */
void tf_out_str(const char *s);
/* @j's text and a newline; "{}" when memory ran out building it. */
void tf_out_json(struct tf_json *j);
void tf_out_flush(void);

/* A line on standard error, after ending a progress line (tf_log_partial). */
void tf_out_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The two streams, for writers that take a FILE (a usage text, a
 * generated profile, a reset's narration) and do not care which it is:
 * tf_out_file() for a result and `--help`, tf_out_err_file() for a usage
 * text after a mistake or progress beside a JSON document.
 */
FILE *tf_out_file(void);
FILE *tf_out_err_file(void);
/* Standard output's descriptor, what stdio held flushed first: for bytes
 * written as they are (`chip save-config -`). */
int tf_out_fd(void);

#endif /* TF_OUT_H */
