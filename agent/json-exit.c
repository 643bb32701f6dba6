// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The error document of `--json` commands (json-exit.h).  Commands print
 * their errors in two ways -- the log (tf_log, one write(2) per line) and
 * stdio on standard error -- and their document on standard output; the
 * two stdio streams are passed through cookie streams that note what
 * they carry, so that no command needs to know about it.
 */
#include "json-exit.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exitcode.h"
#include "json.h"
#include "log.h"
#include "util.h"

static bool wanted;
static bool out_written;
static char err_line[512];
static size_t err_len;
static FILE *real_out, *real_err;

/* The commands with --json (doc/json.md). */
static bool takes_json(const char *cmd)
{
	static const char *const cmds[] = { "run", "flash", "probe",  "status", "chip",
					    "db",  "board", "forget", NULL };

	for (size_t i = 0; cmds[i]; i++)
		if (!strcmp(cmd, cmds[i]))
			return true;
	return false;
}

static ssize_t out_write(void *c, const char *buf, size_t n)
{
	size_t done = 0;

	(void)c;
	if (n)
		out_written = true;
	while (done < n) {
		ssize_t w = write(STDOUT_FILENO, buf + done, n - done);

		if (w <= 0)
			return done ? (ssize_t)done : -1;
		done += (size_t)w;
	}
	return (ssize_t)n;
}

/* A line on standard error: an error of the command ("touchfw ...: "),
 * not its usage text, becomes the message (without the program's name). */
static void note_line(const char *line)
{
	const char *m;

	if (strncmp(line, "touchfw", 7) || (line[7] != ':' && line[7] != ' '))
		return;
	m = strstr(line, ": ");
	tf_log_note_error(m ? m + 2 : line);
}

static ssize_t err_write(void *c, const char *buf, size_t n)
{
	size_t done = 0, i;

	(void)c;
	for (i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			err_line[err_len] = '\0';
			note_line(err_line);
			err_len = 0;
		} else if (err_len < sizeof(err_line) - 1) {
			err_line[err_len++] = buf[i];
		}
	}
	while (done < n) {
		ssize_t w = write(STDERR_FILENO, buf + done, n - done);

		if (w <= 0)
			return done ? (ssize_t)done : -1;
		done += (size_t)w;
	}
	return (ssize_t)n;
}

void tf_json_exit_begin(int argc, char **argv)
{
	cookie_io_functions_t out_io = { .write = out_write };
	cookie_io_functions_t err_io = { .write = err_write };
	FILE *o, *e;
	int i;

	if (argc < 1 || !takes_json(argv[0]))
		return;
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			wanted = true;
	if (!wanted)
		return;
	o = fopencookie(NULL, "w", out_io);
	e = fopencookie(NULL, "w", err_io);
	if (!o || !e) {
		if (o)
			fclose(o);
		if (e)
			fclose(e);
		wanted = false;
		return;
	}
	/* stdout as before: line-buffered on a terminal, else in blocks;
	 * stderr unbuffered */
	setvbuf(o, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	setvbuf(e, NULL, _IONBF, 0);
	fflush(stdout);
	real_out = stdout;
	real_err = stderr;
	stdout = o;
	stderr = e;
}

char *tf_json_error_doc(int code, const char *message)
{
	struct tf_json j;
	const char *t;
	char *doc;

	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_int(&j, "version", TF_JSON_VERSION);
	tf_json_begin_object(&j, "error");
	tf_json_int(&j, "exit_code", code);
	tf_json_string(&j, "result", tf_exit_name(code));
	tf_json_string(&j, "message", message && *message ? message : tf_exit_text(code));
	tf_json_end_object(&j);
	tf_json_end_object(&j);
	t = tf_json_text(&j);
	doc = t ? strdup(t) : NULL;
	tf_json_free(&j);
	return doc;
}

int tf_json_exit_end(int code)
{
	char *doc;

	if (!wanted)
		return code;
	fflush(stdout);
	fflush(stderr);
	if (code && !out_written) {
		doc = tf_json_error_doc(code, tf_log_last_error());
		if (doc) {
			fprintf(stdout, "%s\n", doc);
			free(doc);
		}
		fflush(stdout);
	}
	fclose(stdout);
	fclose(stderr);
	stdout = real_out;
	stderr = real_err;
	wanted = false;
	return code;
}
