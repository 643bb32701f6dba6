/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tiny JSON writer for results and `--json` output: objects, arrays,
 * strings (escaped, always valid UTF-8), numbers and booleans into a growing
 * buffer.  tf_json_string() with a NULL value writes null.
 */
#ifndef TF_JSON_H
#define TF_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The "version" every `--json` document carries at its top level: the
 * schema in doc/json.md.  Raised when a key changes meaning or goes away
 * (adding keys does not raise it). */
#define TF_JSON_VERSION 1

struct tf_json {
	char *buf;
	size_t len, cap;
	bool need_comma;
	bool failed;
};

void tf_json_init(struct tf_json *j);
void tf_json_free(struct tf_json *j);
void tf_json_begin_object(struct tf_json *j, const char *key);
void tf_json_end_object(struct tf_json *j);
void tf_json_begin_array(struct tf_json *j, const char *key);
void tf_json_end_array(struct tf_json *j);
void tf_json_string(struct tf_json *j, const char *key, const char *value);
void tf_json_int(struct tf_json *j, const char *key, int64_t value);
void tf_json_uint(struct tf_json *j, const char *key, uint64_t value);
void tf_json_bool(struct tf_json *j, const char *key, bool value);
/* A CRC as every document writes one: a string, "0x" and upper-case hex,
 * as many digits as the family's @bits (tf_crc_text: "0xE67ACA" for 24). */
void tf_json_crc(struct tf_json *j, const char *key, uint32_t crc, unsigned bits);
/* The text (NUL-terminated), or NULL if memory ran out. */
const char *tf_json_text(struct tf_json *j);

#endif /* TF_JSON_H */
