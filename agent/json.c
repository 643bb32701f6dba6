// SPDX-License-Identifier: GPL-2.0-or-later
/* Minimal JSON writer (see json.h). */
#include "json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void tf_json_init(struct tf_json *j)
{
	memset(j, 0, sizeof(*j));
}

void tf_json_free(struct tf_json *j)
{
	free(j->buf);
	memset(j, 0, sizeof(*j));
}

static void put(struct tf_json *j, const char *s, size_t n)
{
	if (j->failed)
		return;
	if (j->len + n + 1 > j->cap) {
		size_t cap = j->cap ? j->cap : 256;
		char *nb;

		while (cap < j->len + n + 1)
			cap *= 2;
		nb = realloc(j->buf, cap);
		if (!nb) {
			j->failed = true;
			return;
		}
		j->buf = nb;
		j->cap = cap;
	}
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void puts_(struct tf_json *j, const char *s)
{
	put(j, s, strlen(s));
}

/*
 * Length of the well-formed UTF-8 sequence at @s (Unicode table 3-7: no
 * overlong forms, no surrogates, nothing above U+10FFFF), or 0.
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	/* A NUL ends the string and fails the range test: no over-read. */
	for (i = 1; i < n; i++) {
		if (s[i] < lo || s[i] > hi)
			return 0;
		lo = 0x80;
		hi = 0xbf;
	}
	return n;
}

/*
 * A JSON string.  Bytes that are not well-formed UTF-8 (a device name or a
 * chip's answer may carry any) become U+FFFD, one per byte, so every output
 * stays valid JSON.
 */
static void quoted(struct tf_json *j, const char *s)
{
	char esc[8];

	put(j, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x80) {
			size_t n = utf8_len((const unsigned char *)s);

			if (n) {
				put(j, s, n);
				s += n - 1;
			} else {
				put(j, "\\ufffd", 6);
			}
			continue;
		}

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			put(j, esc, 2);
		} else if (c == '\n') {
			put(j, "\\n", 2);
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			put(j, esc, 6);
		} else {
			put(j, (const char *)&c, 1);
		}
	}
	put(j, "\"", 1);
}

static void key(struct tf_json *j, const char *k)
{
	if (j->need_comma)
		put(j, ",", 1);
	j->need_comma = true;
	if (k) {
		quoted(j, k);
		put(j, ":", 1);
	}
}

void tf_json_begin_object(struct tf_json *j, const char *k)
{
	key(j, k);
	put(j, "{", 1);
	j->need_comma = false;
}

void tf_json_end_object(struct tf_json *j)
{
	put(j, "}", 1);
	j->need_comma = true;
}

void tf_json_begin_array(struct tf_json *j, const char *k)
{
	key(j, k);
	put(j, "[", 1);
	j->need_comma = false;
}

void tf_json_end_array(struct tf_json *j)
{
	put(j, "]", 1);
	j->need_comma = true;
}

void tf_json_string(struct tf_json *j, const char *k, const char *v)
{
	key(j, k);
	if (v)
		quoted(j, v);
	else
		puts_(j, "null");
}

void tf_json_int(struct tf_json *j, const char *k, int64_t v)
{
	char b[32];

	key(j, k);
	snprintf(b, sizeof(b), "%" PRId64, v);
	puts_(j, b);
}

void tf_json_uint(struct tf_json *j, const char *k, uint64_t v)
{
	char b[32];

	key(j, k);
	snprintf(b, sizeof(b), "%" PRIu64, v);
	puts_(j, b);
}

void tf_json_bool(struct tf_json *j, const char *k, bool v)
{
	key(j, k);
	puts_(j, v ? "true" : "false");
}

const char *tf_json_text(struct tf_json *j)
{
	if (j->failed)
		return NULL;
	if (!j->buf)
		put(j, "", 0);
	return j->buf;
}

void tf_json_crc(struct tf_json *j, const char *key, uint32_t crc, unsigned bits)
{
	tf_json_string(j, key, TF_CRC_TEXT(crc, bits));
}
