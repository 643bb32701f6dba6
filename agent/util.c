// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Shared helpers: error detail carrier, bounded file reading, sysfs
 * attribute access, clocks and number parsing.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>

__attribute__((format(printf, 4, 0))) static int
err_vset(struct tf_err *e, int code, bool rejected, const char *fmt, va_list ap)
{
	if (code < 0)
		code = -code;
	if (e) {
		e->code = code;
		e->rejected = rejected;
		e->foreign = false;
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	}
	return -code;
}

int tf_err_set(struct tf_err *e, int code, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = err_vset(e, code, false, fmt, ap);
	va_end(ap);
	return r;
}

int tf_err_reject(struct tf_err *e, int code, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = err_vset(e, code, true, fmt, ap);
	va_end(ap);
	return r;
}

int tf_err_prefix(struct tf_err *e, const char *fmt, ...)
{
	char prefix[256], old[sizeof(e->msg)];
	va_list ap;

	if (!e)
		return 0;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, e->msg, sizeof(old));
	/* Truncation is acceptable: the message stays a bounded summary. */
	if (tf_snprintf(e->msg, sizeof(e->msg), "%s", prefix) == 0) {
		size_t n = strlen(e->msg);

		memcpy(e->msg + n, old, sizeof(e->msg) - n - 1);
		e->msg[sizeof(e->msg) - 1] = '\0';
	}
	return -e->code;
}

void tf_err_clear(struct tf_err *e)
{
	if (e) {
		e->code = 0;
		e->msg[0] = '\0';
	}
}

void tf_hex_encode(const uint8_t *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

int tf_read_attr(const char *path, char *out, size_t outsz)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	ssize_t r;

	if (outsz == 0)
		return -EINVAL;
	if (fd < 0)
		return -errno;
	do
		r = read(fd, out, outsz - 1);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	out[r] = '\0';
	while (r > 0 && (out[r - 1] == '\n' || out[r - 1] == '\r'))
		out[--r] = '\0';
	return 0;
}

int tf_write_attr(const char *path, const char *value)
{
	/* O_TRUNC as `echo value > attr` does: sysfs ignores it, a plain
	 * file standing in for an attribute must not keep a longer old value. */
	_cleanup_close_ int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
	size_t len = strlen(value);
	ssize_t w;

	if (fd < 0)
		return -errno;
	do
		w = write(fd, value, len);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -errno;
	if ((size_t)w != len)
		return -EIO;
	return 0;
}

uint64_t tf_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t tf_now_ms(void)
{
	return tf_now_ns() / 1000000ULL;
}

void tf_sleep_us(uint64_t us)
{
	struct timespec ts = { .tv_sec = (time_t)(us / 1000000ULL),
			       .tv_nsec = (long)(us % 1000000ULL) * 1000L };
	static bool precise;

	/*
	 * The chips' readiness is polled on paces learnt to tens of us (a
	 * frame's programming, a packet's flash write); the kernel's default
	 * timer slack of 50 us lets each such sleep end up to that much
	 * later still, and by a varying amount the paces can not learn (a
	 * 500 us sleep here: 89 us late in the median, 104 at the 90th
	 * percentile; with 1 ns of slack 37 and 52).  A sleep never ends
	 * before what it asked, slack or not, so no delay a chip needs gets
	 * shorter: only the wake-up after it comes sooner.
	 */
	if (!precise) {
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
		precise = true;
	}
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

void tf_signals_catch(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* Restart: bus and file I/O in flight complete, the flag is seen
	 * at the next check. */
	sa.sa_flags = SA_RESTART;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

int tf_stop_requested(void)
{
	return stop_signal;
}

int tf_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

bool tf_parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

const char *tf_crc_text(char *buf, uint32_t crc, unsigned bits)
{
	if (!bits || bits > 32)
		bits = 32;
	if (bits < 32)
		crc &= (1u << bits) - 1u;
	snprintf(buf, TF_CRC_TEXT_MAX, "0x%0*X", (int)((bits + 3) / 4), (unsigned)crc);
	return buf;
}

int tf_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

const char *tf_time_str(uint64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!t || !gmtime_r(&tt, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M UTC", &tm))
		tf_snprintf(buf, size, "an unknown time");
	return buf;
}

int tf_strcpy_fit(char *dst, size_t size, const char *src)
{
	size_t i;

	if (!size)
		return -ENAMETOOLONG;
	for (i = 0; src[i]; i++) {
		if (i + 1 >= size) {
			dst[i] = '\0';
			return -ENAMETOOLONG;
		}
		dst[i] = src[i];
	}
	dst[i] = '\0';
	return 0;
}

/* The length of the well-formed UTF-8 sequence at @s (2..4) that is not
 * a C1 control, else 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)
		return 0; /* U+0080..U+009F: C1 controls (CSI is U+009B) */
	if ((n == 3 && s[0] == 0xe0 && s[1] < 0xa0) ||
	    (n == 4 && s[0] == 0xf0 && s[1] < 0x90) ||
	    (n == 4 && s[0] == 0xf4 && s[1] > 0x8f) || (n == 3 && s[0] == 0xed && s[1] > 0x9f))
		return 0; /* overlong, beyond U+10FFFF, or a surrogate */
	return n;
}

char *tf_escape_ex(const char *in, bool quotes, char *out, size_t size)
{
	const unsigned char *s = (const unsigned char *)(in ? in : "");
	size_t o = 0;

	while (*s) {
		size_t u = *s >= 0x80 ? utf8_len(s) : 0;
		char e[8];
		size_t el;

		if (u) {
			if (o + u >= size)
				break;
			memcpy(out + o, s, u);
			o += u;
			s += u;
			continue;
		}
		if (*s < 0x20 || *s >= 0x7f)
			el = (size_t)snprintf(e, sizeof(e), "\\x%02x", *s);
		else if (quotes && (*s == '"' || *s == '\\'))
			el = (size_t)snprintf(e, sizeof(e), "\\%c", *s);
		else
			e[0] = (char)*s, el = 1;
		if (o + el >= size)
			break;
		memcpy(out + o, e, el);
		o += el;
		s++;
	}
	out[o] = '\0';
	return out;
}
