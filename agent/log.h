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
	TF_LOG_ERR = 3,
	TF_LOG_WARNING = 4,
	TF_LOG_NOTICE = 5,
	TF_LOG_INFO = 6,
	TF_LOG_DEBUG = 7,
};

void tf_log_init(const char *prog);
void tf_log_set_max(int prio);
int tf_log_get_max(void);

/* @dev may be NULL for lines about no particular device. */
void tf_log(int prio, const char *dev, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tf_logv(int prio, const char *dev, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#define log_err(dev, ...) tf_log(TF_LOG_ERR, dev, __VA_ARGS__)
#define log_warn(dev, ...) tf_log(TF_LOG_WARNING, dev, __VA_ARGS__)
#define log_notice(dev, ...) tf_log(TF_LOG_NOTICE, dev, __VA_ARGS__)
#define log_info(dev, ...) tf_log(TF_LOG_INFO, dev, __VA_ARGS__)
#define log_debug(dev, ...) tf_log(TF_LOG_DEBUG, dev, __VA_ARGS__)

#endif /* TF_LOG_H */
