// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maXTouch .xcfg files -- the text configuration Microchip's maXTouch
 * Studio and mxt-app write -- converted to the OBP_RAW V1 file
 * atmel_mxt_ts loads (mxt-cfg.c).  The layout, as mxt-app's
 * mxt_save_xcfg_file / mxt_load_xcfg_file write and read it
 * (src/libmaxtouch/config.c):
 *
 *   [COMMENTS]                       free text, skipped
 *   [VERSION_INFO_HEADER]
 *   FAMILY_ID=129                    decimal: the info block's bytes 0-3
 *   VARIANT=1
 *   VERSION=33
 *   BUILD=171
 *   CHECKSUM=0xE67ACA                the config CRC (0: not given)
 *   INFO_BLOCK_CHECKSUM=0x70F330     the info-block CRC
 *   [APPLICATION_INFO_HEADER]        skipped
 *   [GEN_POWERCONFIG_T7 INSTANCE 0]  one section per object instance
 *   OBJECT_ADDRESS=311
 *   OBJECT_SIZE=3
 *   0 1 IDLEACQINT=32                offset, width (1-4 bytes), name=value
 *   1 1 ACTVACQINT=16                (decimal, little-endian, may be
 *   2 1 ACTV2IDLETO=50                negative)
 *
 * Studio's file versions 3 and 4 add MATRIX_X, MATRIX_Y and NO_OBJECTS to
 * the header (the info block's bytes 4-6) and a [FILE_INFO_HEADER] with
 * ENCRYPTION; mxt-app's own files have neither, so those three bytes are
 * written as 00 (atmel_mxt_ts checks only family, variant and the CRCs).
 * Refused, as OBP_RAW can not carry them: encrypted files, several devices
 * ([DEVICE_n], NO_DEVICES > 1) and T68 serial-data payload sections.
 * Bytes the file does not give are 0 (mxt-app allocates them zeroed).
 * Pure: no I/O.
 */
#include "mxt.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XCFG_MAX_OBJECTS 1024
#define XCFG_OBJ_MAX 256 /* an object is at most 256 bytes (size - 1 in a byte) */

struct xobj {
	unsigned type, instance, line;
	long address, size; /* -1: not given yet */
	uint8_t data[XCFG_OBJ_MAX];
	unsigned set_line[XCFG_OBJ_MAX]; /* line that set each byte, 0: none */
};

enum hkey {
	H_FAMILY,
	H_VARIANT,
	H_VERSION,
	H_BUILD,
	H_MATRIX_X,
	H_MATRIX_Y,
	H_NO_OBJECTS,
	H_CHECKSUM,
	H_CHECKSUM_DEV0,
	H_INFO_CRC,
	H_NO_DEVICES,
	H_COUNT_
};

static const struct {
	const char *name;
	bool hex; /* a CRC: hex, "0x" optional */
	uint32_t max;
} hkeys[H_COUNT_] = {
	[H_FAMILY] = { "FAMILY_ID", false, 0xff },
	[H_VARIANT] = { "VARIANT", false, 0xff },
	[H_VERSION] = { "VERSION", false, 0xff },
	[H_BUILD] = { "BUILD", false, 0xff },
	[H_MATRIX_X] = { "MATRIX_X", false, 0xff },
	[H_MATRIX_Y] = { "MATRIX_Y", false, 0xff },
	[H_NO_OBJECTS] = { "NO_OBJECTS", false, 0xff },
	[H_CHECKSUM] = { "CHECKSUM", true, 0xffffff },
	[H_CHECKSUM_DEV0] = { "CHECKSUM_DEVICE_0", true, 0xffffff },
	[H_INFO_CRC] = { "INFO_BLOCK_CHECKSUM", true, 0xffffff },
	[H_NO_DEVICES] = { "NO_DEVICES", false, 0xff },
};

enum sec { S_NONE, S_SKIP, S_VERSION, S_FILE_INFO, S_OBJECT };

struct xparser {
	const char *name;
	struct tf_err *err;
	unsigned line;
	enum sec sec;
	bool have_version, have_file_info;
	uint32_t h[H_COUNT_];
	unsigned h_line[H_COUNT_];
	struct xobj *obj;
	size_t n, cap;
	size_t n_values;
};

static bool space(char c)
{
	return c == ' ' || c == '\t';
}

/* Trim blanks (and a CR) at both ends, in place. */
static char *trim(char *s)
{
	size_t n;

	while (space(*s))
		s++;
	n = strlen(s);
	while (n && (space(s[n - 1]) || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* A whole number: decimal, or hex with "0x" (or always hex when @hex), an
 * optional '-' only when @neg.  false on junk or beyond +-2^40. */
static bool number(const char *s, bool hex, bool neg, long long *out)
{
	bool minus = false;
	long long v = 0;
	int base = 10, digits = 0;

	if (neg && *s == '-') {
		minus = true;
		s++;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (hex) {
		base = 16;
	}
	for (; *s; s++, digits++) {
		int d = tf_hexval(*s);

		if (d < 0 || d >= base || v > (1LL << 40))
			return false;
		v = v * base + d;
	}
	if (!digits)
		return false;
	*out = minus ? -v : v;
	return true;
}

static int bad(struct xparser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct xparser *p, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return tf_err_set(p->err, EBADMSG, "%s: line %u: %s", p->name, p->line, msg);
}

/* The object section just ended: it must have said where and how big. */
static int end_object(struct xparser *p)
{
	struct xobj *o;

	if (p->sec != S_OBJECT)
		return 0;
	o = &p->obj[p->n - 1];
	if (o->address < 0 || o->size < 0)
		return tf_err_set(p->err, EBADMSG,
				  "%s: line %u: the section of T%u instance %u gives no %s",
				  p->name, o->line, o->type, o->instance,
				  o->address < 0 ? "OBJECT_ADDRESS" : "OBJECT_SIZE");
	return 0;
}

/* "[NAME_Tnn INSTANCE i]" (the brackets already taken off). */
static int begin_object(struct xparser *p, char *s)
{
	char *name = s, *kw, *num, *t;
	long long type, inst;
	struct xobj *o;
	size_t i;

	kw = name + strcspn(name, " \t");
	if (*kw)
		*kw++ = '\0';
	kw = trim(kw);
	num = kw + strcspn(kw, " \t");
	if (*num)
		*num++ = '\0';
	num = trim(num);
	if (strcmp(kw, "INSTANCE") || !number(num, false, false, &inst))
		return bad(p,
			   "'[%s %s %s]' is not a section this file format has (an object "
			   "section is '[NAME_Tnn INSTANCE i]')",
			   name, kw, num);
	t = strrchr(name, '_');
	t = t ? t + 1 : name;
	if (t[0] != 'T' || !number(t + 1, false, false, &type) || type < 1 || type > 255 ||
	    inst > 255)
		return bad(p,
			   "section [%s INSTANCE %s]: no object type Tnn (1-255) at the end "
			   "of its name, or an instance beyond 255",
			   name, num);
	for (i = 0; i < p->n; i++)
		if (p->obj[i].type == type && p->obj[i].instance == inst)
			return bad(p, "T%lld instance %lld twice (first on line %u)", type,
				   inst, p->obj[i].line);
	if (p->n >= XCFG_MAX_OBJECTS)
		return bad(p, "more than %d object sections", XCFG_MAX_OBJECTS);
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct xobj *no = realloc(p->obj, cap * sizeof(*no));

		if (!no)
			return tf_err_set(p->err, ENOMEM, "out of memory");
		p->obj = no;
		p->cap = cap;
	}
	o = &p->obj[p->n++];
	memset(o, 0, sizeof(*o));
	o->type = (unsigned)type;
	o->instance = (unsigned)inst;
	o->line = p->line;
	o->address = o->size = -1;
	p->sec = S_OBJECT;
	return 0;
}

static int section(struct xparser *p, char *s)
{
	size_t n = strlen(s);
	long long dev;
	int r;

	if (n < 2 || s[n - 1] != ']')
		return bad(p, "a section header '%s' without its closing ']'", s);
	s[n - 1] = '\0';
	s = trim(s + 1);
	r = end_object(p);
	if (r < 0)
		return r;
	if (!strcmp(s, "COMMENTS") || !strcmp(s, "APPLICATION_INFO_HEADER")) {
		p->sec = S_SKIP;
	} else if (!strcmp(s, "VERSION_INFO_HEADER")) {
		if (p->have_version)
			return bad(p, "a second [VERSION_INFO_HEADER]");
		p->have_version = true;
		p->sec = S_VERSION;
	} else if (!strcmp(s, "FILE_INFO_HEADER")) {
		if (p->have_file_info)
			return bad(p, "a second [FILE_INFO_HEADER]");
		p->have_file_info = true;
		p->sec = S_FILE_INFO;
	} else if (!strncmp(s, "DEVICE_", 7)) {
		if (!number(s + 7, true, false, &dev) || dev != 0)
			return bad(p,
				   "[%s]: a configuration for several devices; an OBP_RAW "
				   "file (atmel_mxt_ts) is for one",
				   s);
		p->sec = S_SKIP;
	} else if (strstr(s, "PAYLOAD")) {
		return bad(p,
			   "[%s]: a T68 serial-data payload, which is written through T68's "
			   "own protocol; an OBP_RAW file (atmel_mxt_ts) can not carry it",
			   s);
	} else {
		return begin_object(p, s);
	}
	return 0;
}

/* KEY=VALUE of a header section. */
static int header_line(struct xparser *p, char *s)
{
	char *eq = strchr(s, '='), *key, *val;
	long long v;
	size_t k;

	if (!eq)
		return bad(p, "expected KEY=VALUE in the header, not '%s'", s);
	*eq = '\0';
	key = trim(s);
	val = trim(eq + 1);
	if (p->sec == S_FILE_INFO) {
		if (!strcmp(key, "ENCRYPTION") && strcmp(val, "FALSE") &&
		    strcmp(val, "false") && strcmp(val, "0"))
			return bad(p,
				   "ENCRYPTION=%s: an encrypted configuration; atmel_mxt_ts "
				   "writes plain OBP_RAW only",
				   val);
		return 0; /* VERSION, MAX_ENCRYPTION_BLOCKS: nothing OBP_RAW keeps */
	}
	if (!strncmp(key, "CHECKSUM_DEVICE_", 16) && strcmp(key, "CHECKSUM_DEVICE_0"))
		return bad(p,
			   "%s: a configuration for several devices; an OBP_RAW file "
			   "(atmel_mxt_ts) is for one",
			   key);
	for (k = 0; k < H_COUNT_; k++)
		if (!strcmp(key, hkeys[k].name))
			break;
	if (k == H_COUNT_)
		return 0; /* VENDOR_ID, PRODUCT_ID, ...: not in OBP_RAW */
	if (p->h_line[k])
		return bad(p, "%s given twice (first on line %u)", key, p->h_line[k]);
	if (!number(val, hkeys[k].hex, false, &v) || v > hkeys[k].max)
		return bad(p, "%s=%s is not a %s up to 0x%X", key, val,
			   hkeys[k].hex ? "hex number" : "decimal number", hkeys[k].max);
	if (k == H_NO_DEVICES && v > 1)
		return bad(p,
			   "NO_DEVICES=%lld: a configuration for several devices; an "
			   "OBP_RAW file (atmel_mxt_ts) is for one",
			   v);
	p->h[k] = (uint32_t)v;
	p->h_line[k] = p->line;
	return 0;
}

/* OBJECT_ADDRESS=, OBJECT_SIZE=, or "OFFSET WIDTH NAME=VALUE". */
static int object_line(struct xparser *p, char *s)
{
	struct xobj *o = &p->obj[p->n - 1];
	char *eq = strchr(s, '='), *tok, *rest;
	long long off, width, v;
	unsigned i;

	if (eq && (!strncmp(s, "OBJECT_ADDRESS", 14) || !strncmp(s, "OBJECT_SIZE", 11))) {
		bool addr = s[7] == 'A';
		long *dst = addr ? &o->address : &o->size;

		*eq = '\0';
		if (strcmp(trim(s), addr ? "OBJECT_ADDRESS" : "OBJECT_SIZE"))
			return bad(p, "expected OBJECT_ADDRESS= or OBJECT_SIZE=");
		if (*dst >= 0)
			return bad(p, "%s given twice for T%u instance %u",
				   addr ? "OBJECT_ADDRESS" : "OBJECT_SIZE", o->type,
				   o->instance);
		if (!number(trim(eq + 1), false, false, &v) ||
		    v > (addr ? 0xffff : XCFG_OBJ_MAX) || (!addr && v == 0))
			return bad(p, "%s=%s is out of range (%s)",
				   addr ? "OBJECT_ADDRESS" : "OBJECT_SIZE", trim(eq + 1),
				   addr ? "0-65535" : "1-256");
		*dst = (long)v;
		return 0;
	}
	/* OFFSET WIDTH NAME=VALUE */
	tok = s;
	rest = s + strcspn(s, " \t");
	if (*rest)
		*rest++ = '\0';
	if (!eq || !number(tok, false, false, &off))
		return bad(p, "expected 'OFFSET WIDTH NAME=VALUE' in T%u instance %u", o->type,
			   o->instance);
	rest = trim(rest);
	tok = rest;
	rest = rest + strcspn(rest, " \t");
	if (*rest)
		*rest++ = '\0';
	if (!number(tok, false, false, &width) || width < 1 || width > 4)
		return bad(p, "T%u instance %u: width '%s' is not 1 to 4 bytes", o->type,
			   o->instance, tok);
	if (!number(trim(eq + 1), false, true, &v))
		return bad(p, "T%u instance %u: '%s' is not a number", o->type, o->instance,
			   trim(eq + 1));
	if (o->address < 0 || o->size < 0)
		return bad(p, "T%u instance %u: a value before OBJECT_ADDRESS and OBJECT_SIZE",
			   o->type, o->instance);
	if (off + width > o->size)
		return bad(p, "T%u instance %u: bytes %lld-%lld are beyond its OBJECT_SIZE %ld",
			   o->type, o->instance, off, off + width - 1, o->size);
	if (v >= (1LL << (8 * width)) || v < -(1LL << (8 * width - 1)))
		return bad(p, "T%u instance %u: %lld does not fit in %lld byte%s", o->type,
			   o->instance, v, width, width > 1 ? "s" : "");
	for (i = 0; i < (unsigned)width; i++) {
		uint8_t b = (uint8_t)((unsigned long long)v >> (8 * i));
		unsigned at = (unsigned)off + i;

		if (o->set_line[at] && o->data[at] != b)
			return bad(p, "T%u instance %u: byte %u is %u here and %u on line %u",
				   o->type, o->instance, at, b, o->data[at], o->set_line[at]);
		o->data[at] = b;
		o->set_line[at] = p->line;
	}
	p->n_values++;
	return 0;
}

static int cmp_address(const void *a, const void *b)
{
	const struct xobj *x = *(const struct xobj *const *)a,
			  *y = *(const struct xobj *const *)b;

	return x->address < y->address ? -1 : x->address > y->address;
}

/* No two objects share memory. */
static int check_layout(struct xparser *p)
{
	const struct xobj **v = malloc(p->n * sizeof(*v));
	size_t i;
	int r = 0;

	if (!v)
		return tf_err_set(p->err, ENOMEM, "out of memory");
	for (i = 0; i < p->n; i++)
		v[i] = &p->obj[i];
	qsort(v, p->n, sizeof(*v), cmp_address);
	for (i = 1; i < p->n && !r; i++)
		if (v[i - 1]->address + v[i - 1]->size > v[i]->address)
			r = tf_err_set(p->err, EBADMSG,
				       "%s: line %u: T%u instance %u at %ld overlaps T%u "
				       "instance %u (line %u, %ld-%ld)",
				       p->name, v[i]->line, v[i]->type, v[i]->instance,
				       v[i]->address, v[i - 1]->type, v[i - 1]->instance,
				       v[i - 1]->line, v[i - 1]->address,
				       v[i - 1]->address + v[i - 1]->size - 1);
	free(v);
	return r;
}

static int finish(struct xparser *p, char **raw, size_t *raw_len, struct mxt_xcfg_info *info)
{
	static const enum hkey need[] = { H_FAMILY, H_VARIANT, H_VERSION, H_BUILD, H_INFO_CRC };
	bool matrix = p->h_line[H_MATRIX_X] && p->h_line[H_MATRIX_Y] && p->h_line[H_NO_OBJECTS];
	uint32_t crc = p->h[H_CHECKSUM];
	size_t i, cap, n;
	char *out;
	int r;

	r = end_object(p);
	if (r < 0)
		return r;
	if (!p->have_version)
		return tf_err_set(p->err, EBADMSG,
				  "%s: no [VERSION_INFO_HEADER]: the file does not say which "
				  "chip and firmware it is for",
				  p->name);
	for (i = 0; i < TF_ARRAY_SIZE(need); i++)
		if (!p->h_line[need[i]])
			return tf_err_set(p->err, EBADMSG,
					  "%s: [VERSION_INFO_HEADER] gives no %s", p->name,
					  hkeys[need[i]].name);
	if (!p->h[H_INFO_CRC])
		return tf_err_set(
			p->err, EBADMSG,
			"%s: line %u: INFO_BLOCK_CHECKSUM is 0: the file does not say "
			"which object layout (firmware) it is for",
			p->name, p->h_line[H_INFO_CRC]);
	if (p->h_line[H_CHECKSUM_DEV0]) {
		if (p->h_line[H_CHECKSUM] && p->h[H_CHECKSUM] != p->h[H_CHECKSUM_DEV0])
			return tf_err_set(
				p->err, EBADMSG,
				"%s: line %u: CHECKSUM_DEVICE_0 0x%06X is not CHECKSUM "
				"0x%06X (line %u)",
				p->name, p->h_line[H_CHECKSUM_DEV0], p->h[H_CHECKSUM_DEV0],
				p->h[H_CHECKSUM], p->h_line[H_CHECKSUM]);
		crc = p->h[H_CHECKSUM_DEV0];
	}
	if (!p->n)
		return tf_err_set(p->err, EBADMSG, "%s: no object sections", p->name);
	r = check_layout(p);
	if (r < 0)
		return r;
	/* "OBP_RAW V1\n", 7 bytes, 2 CRCs, then per object 15 + 3 a byte. */
	cap = 11 + 21 + 14 + 1;
	for (i = 0; i < p->n; i++)
		cap += 15 + 3 * (size_t)p->obj[i].size;
	out = malloc(cap);
	if (!out)
		return tf_err_set(p->err, ENOMEM, "out of memory");
	n = (size_t)snprintf(out, cap,
			     "OBP_RAW V1\n%02X %02X %02X %02X %02X %02X %02X\n%06X\n%06X\n",
			     p->h[H_FAMILY], p->h[H_VARIANT], p->h[H_VERSION], p->h[H_BUILD],
			     matrix ? p->h[H_MATRIX_X] : 0, matrix ? p->h[H_MATRIX_Y] : 0,
			     matrix ? p->h[H_NO_OBJECTS] : 0, p->h[H_INFO_CRC], crc);
	for (i = 0; i < p->n; i++) {
		const struct xobj *o = &p->obj[i];
		long k;

		n += (size_t)snprintf(out + n, cap - n, "%04X %04X %04lX", o->type, o->instance,
				      (unsigned long)o->size);
		for (k = 0; k < o->size; k++)
			n += (size_t)snprintf(out + n, cap - n, " %02X", o->data[k]);
		n += (size_t)snprintf(out + n, cap - n, "\n");
	}
	*raw = out;
	*raw_len = n;
	if (info) {
		memset(info, 0, sizeof(*info));
		info->has_matrix = matrix;
		info->n_objects = p->n;
		info->n_values = p->n_values;
		info->config_crc = crc;
	}
	return 0;
}

bool mxt_xcfg_detect(const uint8_t *buf, size_t len)
{
	static const char *const first[] = { "[COMMENTS]", "[VERSION_INFO_HEADER]" };
	size_t i = 0, k;

	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < len && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
		i++;
	for (k = 0; k < TF_ARRAY_SIZE(first); k++)
		if (len - i >= strlen(first[k]) && !memcmp(buf + i, first[k], strlen(first[k])))
			return true;
	return false;
}

int mxt_xcfg_to_raw(const char *buf, size_t len, const char *name, char **raw, size_t *raw_len,
		    struct mxt_xcfg_info *info, struct tf_err *err)
{
	struct xparser p = { .name = name ? name : "xcfg", .err = err };
	char line[1024];
	size_t pos = 0;
	int r = 0;

	*raw = NULL;
	*raw_len = 0;
	if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3))
		pos = 3;
	if (memchr(buf, '\0', len))
		return tf_err_set(err, EBADMSG, "%s: a NUL byte: not an .xcfg text file",
				  p.name);
	while (pos < len && r == 0) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		char *s;

		p.line++;
		if (n >= sizeof(line)) {
			r = bad(&p, "longer than %zu characters", sizeof(line) - 1);
			break;
		}
		memcpy(line, buf + pos, n);
		line[n] = '\0';
		pos += n + (nl != NULL);
		s = trim(line);
		if (!*s)
			continue;
		if (*s == '[')
			r = section(&p, s);
		else if (p.sec == S_SKIP)
			continue;
		else if (p.sec == S_VERSION || p.sec == S_FILE_INFO)
			r = header_line(&p, s);
		else if (p.sec == S_OBJECT)
			r = object_line(&p, s);
		else
			r = bad(&p, "'%s' before the first [section]", s);
	}
	if (r == 0)
		r = finish(&p, raw, raw_len, info);
	free(p.obj);
	return r;
}
