/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Journald-friendly logging for the agent's top layers.  Every line names the
 * device it is about.  Under systemd (JOURNAL_STREAM set, or forced) each
 * line starts with the syslog priority prefix "<N>", which journald turns
 * into the entry's priority; on a terminal lines are plain.
 */
#ifndef TF_LOG_H
#define TF_LOG_H

#include <stdarg.h>

enum tf_log_prio {
	TF_LOG_QUIET = 1, /* as a maximum (tf_log_at): nothing at all */
	TF_LOG_ERR = 3,
	TF_LOG_WARNING = 4,
	TF_LOG_NOTICE = 5,
	TF_LOG_INFO = 6,
	TF_LOG_DEBUG = 7,
};

/* @level: $TOUCHFW_LOG_LEVEL's value (debug, info, notice, warning, err) or
 * NULL; the caller reads it (the front end from main()'s environment). */
void tf_log_init(const char *prog, const char *level);
void tf_log_set_max(int prio);
int tf_log_get_max(void);

/* @dev may be NULL for lines about no particular device. */
void tf_log(int prio, const char *dev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tf_logv(int prio, const char *dev, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/*
 * A line about @dev at @prio, for callers that carry their own level (the
 * update flow's options): logged only if @max allows it too (0: the global
 * level alone decides).  @dev is named here, once: messages built by
 * lower layers say what went wrong, never whose device it was.
 */
void tf_log_at(int max, int prio, const char *dev, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * A progress line on a terminal: "\r" and @fmt, without a newline, redrawn
 * in place by the next call; the next log line ends it first, so no line
 * is ever written after a half-drawn bar.  A text ending in "\n" ends it.
 */
void tf_log_partial(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* End an open progress line ("\n"), before other text on standard error. */
void tf_log_end_partial(void);

/*
 * The errors said, in order and joined by "; " (cut short at 511 bytes) --
 * lines logged at TF_LOG_ERR (whatever the level shown) and those noted by
 * tf_log_note_error() -- without the program's name: the message of a
 * `--json` error document.  "" if none.
 */
const char *tf_log_last_error(void);
void tf_log_note_error(const char *msg);

#define log_err(dev, ...) tf_log(TF_LOG_ERR, dev, __VA_ARGS__)
#define log_warn(dev, ...) tf_log(TF_LOG_WARNING, dev, __VA_ARGS__)
#define log_notice(dev, ...) tf_log(TF_LOG_NOTICE, dev, __VA_ARGS__)
#define log_info(dev, ...) tf_log(TF_LOG_INFO, dev, __VA_ARGS__)
#define log_debug(dev, ...) tf_log(TF_LOG_DEBUG, dev, __VA_ARGS__)

#endif /* TF_LOG_H */
