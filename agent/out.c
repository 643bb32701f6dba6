// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line's output seam (out.h): standard output and standard
 * error through stdio, so that json-exit.c's watch of both streams sees
 * every byte, and an open progress line (log.c) ends before a message.
 */
#include "out.h"

#include <stdarg.h>
#include <unistd.h>

#include "json.h"
#include "log.h"

void tf_out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
}

void tf_out_str(const char *s)
{
	fputs(s, stdout);
}

void tf_out_json(struct tf_json *j)
{
	const char *t = tf_json_text(j);

	fputs(t ? t : "{}", stdout);
	fputc('\n', stdout);
}

void tf_out_flush(void)
{
	fflush(stdout);
}

void tf_out_err(const char *fmt, ...)
{
	va_list ap;

	tf_log_end_partial();
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

FILE *tf_out_file(void)
{
	return stdout;
}

FILE *tf_out_err_file(void)
{
	tf_log_end_partial();
	return stderr;
}

int tf_out_fd(void)
{
	fflush(stdout);
	return STDOUT_FILENO;
}
