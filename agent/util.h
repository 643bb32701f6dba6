/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers shared by every part of the agent: cleanup attributes for
 * fds, FILE* and heap memory (instead of goto ladders), a bounded error
 * message carrier so lower layers can explain a failure without logging,
 * and safe file reading.
 */
#ifndef TF_UTIL_H
#define TF_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define TF_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static inline void tf_closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}
static inline void tf_fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}
static inline void tf_freep(void *p)
{
	free(*(void **)p);
}
/* Hand a _cleanup_close_ descriptor to the caller: it is not closed here. */
static inline int tf_take_fd(int *fd)
{
	int r = *fd;

	*fd = -1;
	return r;
}
#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_close_ __attribute__((cleanup(tf_closep)))
#define _cleanup_fclose_ __attribute__((cleanup(tf_fclosep)))
#define _cleanup_free_ __attribute__((cleanup(tf_freep)))

/*
 * Error detail from a lower layer: the negative errno it returns says what
 * kind of failure, this says which file, field or device and why.
 */
struct tf_err {
	int code; /* positive errno */
	/*
	 * The chip itself refused what it was given (a blob it checked and
	 * rejected), as opposed to an interruption (the chip vanished, lost
	 * power, restarted, a signal): only a rejection counts against the
	 * blob across reboots.  tf_err_set() clears it; tf_err_reject() sets it.
	 */
	bool rejected;
	/* Rejected as an image for another chip (its first frame refused):
	 * set by the family with rejected; tf_err_set() clears it. */
	bool foreign;
	char msg[512];
};

/* Record @code and a message in @e (may be NULL); returns -code. */
int tf_err_set(struct tf_err *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* As tf_err_set(), and mark the error as the chip's rejection of a blob. */
int tf_err_reject(struct tf_err *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prefix the existing message with more context ("file: ..."). */
int tf_err_prefix(struct tf_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tf_err_clear(struct tf_err *e);

/* The bounded file readers (tf_read_fd, tf_read_file, tf_read_file_at)
 * and the no-symlink open live in fs.h. */
#include "fs.h"

/* Lower-case hex of @n bytes into @out (2 * @n + 1 bytes, terminated). */
void tf_hex_encode(const uint8_t *in, size_t n, char *out);
/* Read a small sysfs-style attribute, trailing newline stripped. */
int tf_read_attr(const char *path, char *out, size_t outsz);
/* Write a string to a file that must exist (sysfs attribute). */
int tf_write_attr(const char *path, const char *value);

/* Monotonic clock in nanoseconds / milliseconds. */
uint64_t tf_now_ns(void);
uint64_t tf_now_ms(void);
/* @t (seconds since the epoch) as "2026-12-04 18:40 UTC" into @buf, or
 * "an unknown time" for 0 or a time that can not be shown; returns @buf. */
const char *tf_time_str(uint64_t t, char *buf, size_t size);
void tf_sleep_us(uint64_t us);

/*
 * Stop requests.  tf_signals_catch() makes SIGTERM, SIGINT and SIGHUP (a
 * systemd stop, shutdown, the unit's start timeout, ^C) set a flag -- the
 * handler does nothing else -- which long operations check between frames
 * and steps with tf_stop_requested() (the signal number, else 0), so that
 * touchfw finishes the frame in flight and undoes what it did.
 */
void tf_signals_catch(void);
int tf_stop_requested(void);

/*
 * @in for a terminal, a log or a quoted string: control characters (C0,
 * DEL, and C1 as UTF-8 encodes them) and bytes that are not UTF-8 become
 * \xHH, so that text from sysfs or a file (an adapter's name, a DMI string)
 * can not move the cursor, recolour the screen or forge a line.  With
 * @quotes, '"' and '\\' are escaped too (a .dts or C string).  Cut short,
 * never mid-escape, to fit @size (> 0).  Returns @out.
 */
char *tf_escape_ex(const char *in, bool quotes, char *out, size_t size);
static inline char *tf_escape(const char *in, char *out, size_t size)
{
	return tf_escape_ex(in, false, out, size);
}

/* Value of hex digit @c (either case), or -1. */
int tf_hexval(int c);

/* Parse an unsigned number (0x.. hex allowed); false on junk or overflow. */
bool tf_parse_u32(const char *s, uint32_t *out);

/* snprintf that reports truncation as -ENAMETOOLONG, 0 on success. */
int tf_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * A CRC as people read it everywhere (logs, tables, JSON): "0x" and
 * @bits/4 hex digits, the bits above @bits dropped; @bits is the width the
 * family's chips report (tf_family.crc_bits), 0 taken as 32.  @buf holds
 * TF_CRC_TEXT_MAX; returns it.  TF_CRC_TEXT gives one for a single call's
 * arguments (a compound literal, alive to the end of the enclosing block).
 */
#define TF_CRC_TEXT_MAX 12
const char *tf_crc_text(char *buf, uint32_t crc, unsigned bits);
#define TF_CRC_TEXT(crc, bits) tf_crc_text((char[TF_CRC_TEXT_MAX]){ 0 }, (crc), (bits))

/* strcmp(@a, @b) == 0, inline: the udev fast path compares with this, so
 * that it binds no strcmp (each libc symbol is a lookup by the dynamic
 * loader at every event, most of the front end's cost; main.c). */
static inline bool tf_streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Copy @src into @dst of @size bytes; -ENAMETOOLONG (and @dst cut, ended)
 * when it does not fit, else 0.  No stdio: the fast path's strings. */
int tf_strcpy_fit(char *dst, size_t size, const char *src);

#endif /* TF_UTIL_H */
