// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Logging to stderr with optional syslog priority prefixes for journald.
 * One write(2) per line so lines from concurrent processes do not mix.
 */
#include "log.h"
#include "util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *log_prog = "touchfw";
static int log_max = TF_LOG_INFO;
static int log_prefix = -1;
static bool line_open; /* a tf_log_partial() line waits for its end */
static char last_error[512];

const char *tf_log_last_error(void)
{
	return last_error;
}

void tf_log_note_error(const char *msg)
{
	size_t n = strlen(last_error);

	if (!*msg || n >= sizeof(last_error) - 1)
		return;
	snprintf(last_error + n, sizeof(last_error) - n, "%s%s", n ? "; " : "", msg);
}

void tf_log_init(const char *prog, const char *level)
{
	if (prog)
		log_prog = prog;
	if (level) {
		if (!strcmp(level, "debug"))
			log_max = TF_LOG_DEBUG;
		else if (!strcmp(level, "info"))
			log_max = TF_LOG_INFO;
		else if (!strcmp(level, "notice"))
			log_max = TF_LOG_NOTICE;
		else if (!strcmp(level, "warning"))
			log_max = TF_LOG_WARNING;
		else if (!strcmp(level, "err"))
			log_max = TF_LOG_ERR;
	}
}

void tf_log_set_max(int prio)
{
	log_max = prio;
}

int tf_log_get_max(void)
{
	return log_max;
}

static int want_prefix(void)
{
	if (log_prefix < 0)
		log_prefix = getenv("JOURNAL_STREAM") != NULL;
	return log_prefix;
}

void tf_logv(int prio, const char *dev, const char *fmt, va_list ap)
{
	char line[1024];
	size_t n = 0;
	int r, saved;

	/* A message below the level goes nowhere: return before anything
	 * else, errno included (its first use binds __errno_location, which
	 * the udev fast path's debug lines would pay for at every event:
	 * tests/system/check-fast-path). */
	if (prio > log_max && prio > TF_LOG_ERR)
		return;
	saved = errno;
	if (prio <= TF_LOG_ERR) {
		char msg[sizeof(last_error)];
		va_list aq;
		int k = 0;

		if (dev)
			k = snprintf(msg, sizeof(msg), "%s: ", dev);
		if (k < 0 || (size_t)k >= sizeof(msg))
			k = 0;
		va_copy(aq, ap);
		vsnprintf(msg + k, sizeof(msg) - (size_t)k, fmt, aq);
		va_end(aq);
		tf_log_note_error(msg);
	}
	if (prio > log_max)
		return;
	if (line_open) {
		line[n++] = '\n';
		line_open = false;
	}
	if (want_prefix())
		r = snprintf(line + n, sizeof(line) - n, "<%d>", prio);
	else
		r = snprintf(line + n, sizeof(line) - n, "%s: ", log_prog);
	n += r > 0 ? (size_t)r : 0;
	if (dev && n < sizeof(line)) {
		r = snprintf(line + n, sizeof(line) - n, "%s: ", dev);
		if (r > 0)
			n += (size_t)r;
	}
	if (n < sizeof(line)) {
		char msg[1024];

		/* what a message quotes (an adapter's name from sysfs, a DMI
		 * string) can not forge a line or drive the terminal */
		vsnprintf(msg, sizeof(msg), fmt, ap);
		tf_escape(msg, line + n, sizeof(line) - n);
		n += strlen(line + n);
	}
	if (n >= sizeof(line) - 1)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (write(STDERR_FILENO, line, n) < 0) {
		/* nowhere left to report it */
	}
	errno = saved;
}

void tf_log(int prio, const char *dev, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tf_logv(prio, dev, fmt, ap);
	va_end(ap);
}

void tf_log_at(int max, int prio, const char *dev, const char *fmt, ...)
{
	va_list ap;

	if (max && prio > max)
		return;
	va_start(ap, fmt);
	tf_logv(prio, dev, fmt, ap);
	va_end(ap);
}

void tf_log_end_partial(void)
{
	if (!line_open)
		return;
	line_open = false;
	if (write(STDERR_FILENO, "\n", 1) < 0) {
		/* nowhere left to report it */
	}
}

void tf_log_partial(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	size_t n;
	int r, saved = errno;

	line[0] = '\r';
	va_start(ap, fmt);
	r = vsnprintf(line + 1, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (r <= 0)
		return;
	n = 1 + ((size_t)r < sizeof(line) - 1 ? (size_t)r : sizeof(line) - 2);
	if (write(STDERR_FILENO, line, n) < 0) {
		/* nowhere left to report it */
	}
	line_open = line[n - 1] != '\n';
	errno = saved;
}
