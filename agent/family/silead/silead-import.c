// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Silead firmware formats people have, turned into the (register,
 * value) file silead_ts loads (silead-fw.c).  Facts from public sources:
 *
 *  - gslx680_ts_acpi's container (github.com/onitake/gslx680-acpi,
 *    gslx680_ts_acpi.c struct gsl_ts_fw_header / gsl_ts_fw_page; its
 *    layout documented in onitake/gsl-firmware tools/Firmware/Silead.pm):
 *    a 24-byte little-endian header -- "GSLX", the controller model as 4
 *    ASCII characters ("1680"), format version 1 (u16), touch points,
 *    panel width and height (u16 each), swapped, x-flipped, y-flipped and
 *    soft-tracking flags (u8 each), the page count (u32) -- then per page
 *    132 bytes: the RAM page (u16), its size in bytes (u16, at most 128)
 *    and 128 data bytes, zero-padded.  The driver selects the page at
 *    0xF0 and writes the size bytes from register 0 in one transfer.
 *  - GSL_TS_CFG.h from Silead's Windows and Android drivers: C arrays of
 *    {register, value} pairs ("TS_CFG_DATA GSL_TS_CFG[] = { {0xf0,0x2},
 *    {0x00,0x...}, ... };", "struct fw_data GSLX680_FW[]"), 0xF0 selecting
 *    a page; beside them other arrays (gsl_config_data_id[], the
 *    driver's own parameters) that are not loaded into the chip.
 *  - The Windows driver's SileadTouch.fw: that header's text with every
 *    byte XORed with 0x88 (gsl-firmware tools/unscramble and Silead.pm
 *    import_scrambled).
 *
 * silead_ts takes none of the panel parameters from a file (it reads
 * them from the device's properties), so they are only reported.  Chip
 * names a file gives (the container's model, "gsl3676" in a header) are
 * mapped to silead_ts's ids by silead_chip_id() (silead-chips.c).  Pure:
 * no I/O.
 */
#include "silead.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define GSLX_HEADER 24
#define GSLX_PAGE 132
#define GSLX_PAGE_DATA 128
#define GSLX_MAX_PAGES 256 /* a page is a byte (silead_ts, Silead.pm set_page) */
#define SCRAMBLE_KEY 0x88

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void put_pair(uint8_t *p, uint32_t reg, uint32_t val)
{
	put_le32(p, reg);
	put_le32(p + 4, val);
}

void silead_import_free(struct silead_import *im)
{
	free(im->fw);
	im->fw = NULL;
	im->len = 0;
}

/* ------------------------------------------------------------ GSLX */

static int import_gslx(const uint8_t *d, size_t len, const char *name, struct silead_import *im,
		       struct tf_err *err)
{
	uint32_t pages, i, words = 0;
	uint16_t version;
	uint8_t *out;
	size_t n = 0;

	if (len < GSLX_HEADER)
		return tf_err_set(err, EBADMSG,
				  "%s: %zu bytes: shorter than a GSLX header (%d bytes)", name,
				  len, GSLX_HEADER);
	version = le16(d + 8);
	if (version != 1)
		return tf_err_set(err, EBADMSG,
				  "%s: GSLX format version %u; gslx680_ts_acpi's files are "
				  "version 1",
				  name, version);
	pages = le32(d + 20);
	if (pages == 0 || pages > GSLX_MAX_PAGES)
		return tf_err_set(err, EBADMSG,
				  "%s: the GSLX header counts %u pages (1 to %d: a page is a "
				  "byte)",
				  name, pages, GSLX_MAX_PAGES);
	if (len != GSLX_HEADER + (size_t)pages * GSLX_PAGE)
		return tf_err_set(err, EBADMSG,
				  "%s: %zu bytes, but a GSLX file of %u pages has %zu (24 + %u "
				  "x 132): %s",
				  name, len, pages, GSLX_HEADER + (size_t)pages * GSLX_PAGE,
				  pages,
				  len < GSLX_HEADER + (size_t)pages * GSLX_PAGE
					  ? "truncated"
					  : "bytes after its last page");
	/* A page select, then a word a pair. */
	out = malloc((size_t)pages * (1 + GSLX_PAGE_DATA / 4) * SILEAD_PAIR_LEN);
	if (!out)
		return tf_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < pages; i++) {
		const uint8_t *pg = d + GSLX_HEADER + (size_t)i * GSLX_PAGE;
		uint16_t addr = le16(pg), size = le16(pg + 2);
		size_t k;

		if (addr > 0xff || size > GSLX_PAGE_DATA || size % 4) {
			free(out);
			return tf_err_set(
				err, EBADMSG, "%s: page %u (byte %zu): %s", name, i,
				(size_t)(pg - d),
				addr > 0xff ? "its RAM page is beyond 0xFF"
				: size > GSLX_PAGE_DATA
					? "its size is beyond 128 bytes"
					: "its size is not whole 32-bit words (silead_ts "
					  "writes words)");
		}
		for (k = size; k < GSLX_PAGE_DATA; k++)
			if (pg[4 + k]) {
				free(out);
				return tf_err_set(
					err, EBADMSG,
					"%s: page %u (byte %zu): data after its %u bytes "
					"(a damaged size?)",
					name, i, (size_t)(pg - d), size);
			}
		put_pair(out + n, SILEAD_REG_PAGE, addr);
		n += SILEAD_PAIR_LEN;
		for (k = 0; k < size; k += 4) {
			put_pair(out + n, (uint32_t)k, le32(pg + 4 + k));
			n += SILEAD_PAIR_LEN;
			words++;
		}
	}
	if (!words) {
		free(out);
		return tf_err_set(err, EBADMSG, "%s: every page is empty", name);
	}
	im->form = SILEAD_FORM_GSLX;
	im->fw = out;
	im->len = n;
	im->pages = pages;
	im->words = words;
	im->has_panel = true;
	im->panel.touches = le16(d + 10);
	im->panel.width = le16(d + 12);
	im->panel.height = le16(d + 14);
	im->panel.swapped = d[16];
	im->panel.xflip = d[17];
	im->panel.yflip = d[18];
	im->panel.tracking = d[19];
	/* the model: 4 ASCII digits make a chip name */
	if (isdigit(d[4]) && isdigit(d[5]) && isdigit(d[6]) && isdigit(d[7])) {
		snprintf(im->chip, sizeof(im->chip), "gsl%.4s", (const char *)d + 4);
		tf_snprintf(im->chip_from, sizeof(im->chip_from), "its GSLX header's model");
	}
	return 0;
}

/* ------------------------------------------------------------ C text */

enum tok { T_END, T_IDENT, T_NUM, T_PUNCT, T_BAD };

struct lex {
	const char *s, *end, *name;
	unsigned line;
	bool bol; /* at the beginning of a line: '#' starts a directive */
	enum tok t;
	char punct;
	uint64_t num;
	char ident[64];
	unsigned tline; /* the token's line */
	struct tf_err *err;
};

/* Skip a directive to its end (backslash continues it). */
static void skip_directive(struct lex *x)
{
	while (x->s < x->end && *x->s != '\n') {
		if (*x->s == '\\' && x->s + 1 < x->end && x->s[1] == '\n') {
			x->s++;
			x->line++;
		} else if (*x->s == '\\' && x->s + 2 < x->end && x->s[1] == '\r' &&
			   x->s[2] == '\n') {
			x->s += 2;
			x->line++;
		}
		x->s++;
	}
}

/* The directive at x->s ("#if 0", "#endif", ...): its words. */
static void directive_word(const struct lex *x, char *w, size_t size, char *arg, size_t asize)
{
	const char *p = x->s + 1;
	size_t n = 0;

	while (p < x->end && (*p == ' ' || *p == '\t'))
		p++;
	while (p < x->end && isalpha((unsigned char)*p) && n + 1 < size)
		w[n++] = *p++;
	w[n] = '\0';
	while (p < x->end && (*p == ' ' || *p == '\t'))
		p++;
	n = 0;
	while (p < x->end && !isspace((unsigned char)*p) && n + 1 < asize)
		arg[n++] = *p++;
	arg[n] = '\0';
}

/* After "#if 0": skip to its #else/#elif or #endif at the same depth. */
static void skip_if0(struct lex *x)
{
	unsigned depth = 0;

	skip_directive(x);
	while (x->s < x->end) {
		char w[16], a[16];

		if (*x->s == '\n') {
			x->line++;
			x->s++;
			while (x->s < x->end && (*x->s == ' ' || *x->s == '\t'))
				x->s++;
			if (x->s < x->end && *x->s == '#') {
				directive_word(x, w, sizeof(w), a, sizeof(a));
				if (!strncmp(w, "if", 2)) {
					depth++;
				} else if (!strcmp(w, "endif")) {
					if (!depth) {
						skip_directive(x);
						return;
					}
					depth--;
				} else if (!depth &&
					   (!strcmp(w, "else") || !strcmp(w, "elif"))) {
					skip_directive(x);
					return;
				}
				skip_directive(x);
			}
			continue;
		}
		x->s++;
	}
}

static void next(struct lex *x)
{
	for (;;) {
		if (x->s >= x->end) {
			x->t = T_END;
			x->tline = x->line;
			return;
		}
		if (*x->s == '\n') {
			x->line++;
			x->s++;
			x->bol = true;
			continue;
		}
		if (isspace((unsigned char)*x->s)) {
			x->s++;
			continue;
		}
		if (x->bol && *x->s == '#') {
			char w[16], a[16];

			directive_word(x, w, sizeof(w), a, sizeof(a));
			if (!strcmp(w, "if") && !strcmp(a, "0"))
				skip_if0(x);
			else
				skip_directive(x);
			continue;
		}
		x->bol = false;
		if (*x->s == '/' && x->s + 1 < x->end && x->s[1] == '/') {
			while (x->s < x->end && *x->s != '\n')
				x->s++;
			continue;
		}
		if (*x->s == '/' && x->s + 1 < x->end && x->s[1] == '*') {
			x->s += 2;
			while (x->s + 1 < x->end && !(x->s[0] == '*' && x->s[1] == '/')) {
				if (*x->s == '\n')
					x->line++;
				x->s++;
			}
			x->s = x->s + 1 < x->end ? x->s + 2 : x->end;
			continue;
		}
		if (*x->s == '"' || *x->s == '\'') {
			char q = *x->s++;

			while (x->s < x->end && *x->s != q && *x->s != '\n')
				x->s += *x->s == '\\' && x->s + 1 < x->end ? 2 : 1;
			if (x->s < x->end && *x->s == q)
				x->s++;
			continue;
		}
		break;
	}
	x->tline = x->line;
	if (isalpha((unsigned char)*x->s) || *x->s == '_') {
		size_t n = 0;

		while (x->s < x->end && (isalnum((unsigned char)*x->s) || *x->s == '_')) {
			if (n + 1 < sizeof(x->ident))
				x->ident[n++] = *x->s;
			x->s++;
		}
		x->ident[n] = '\0';
		x->t = T_IDENT;
		return;
	}
	if (isdigit((unsigned char)*x->s)) {
		uint64_t v = 0;
		int base = 10, digits = 0;

		if (*x->s == '0' && x->s + 1 < x->end && (x->s[1] == 'x' || x->s[1] == 'X')) {
			base = 16;
			x->s += 2;
		} else if (*x->s == '0') {
			base = 8;
		}
		x->t = T_NUM;
		while (x->s < x->end && isalnum((unsigned char)*x->s)) {
			int d = tf_hexval(*x->s);

			if (d < 0 || d >= base) {
				/* the suffixes u, l, ul, ull */
				while (x->s < x->end && strchr("uUlL", *x->s))
					x->s++;
				if (x->s < x->end && isalnum((unsigned char)*x->s))
					x->t = T_BAD;
				break;
			}
			v = v * (unsigned)base + (unsigned)d;
			if (v > 0xffffffffu)
				x->t = T_BAD;
			x->s++;
			digits++;
		}
		if (!digits && base == 16)
			x->t = T_BAD;
		x->num = v;
		return;
	}
	x->t = T_PUNCT;
	x->punct = *x->s++;
}

static bool is_punct(const struct lex *x, char c)
{
	return x->t == T_PUNCT && x->punct == c;
}

/* A pair array found in the text. */
struct parr {
	char name[64];
	unsigned line;
	size_t n;	 /* pairs */
	uint8_t *fw;	 /* the pairs, SILEAD_PAIR_LEN each */
	unsigned *lines; /* each pair's line */
};

#define MAX_ARRAYS 16

/*
 * The initializer after "NAME[...] =": consume it to its closing brace.
 * A list of {number, number} is kept in @a (a->fw), anything else
 * (numbers, deeper braces) makes it "not a pair array" (a->n = 0).
 */
static int initializer(struct lex *x, struct parr *a)
{
	size_t cap = 0;
	unsigned depth = 1;
	bool pairs = true;

	next(x); /* past '{' */
	while (depth && x->t != T_END) {
		if (pairs && depth == 1 && is_punct(x, '{')) {
			uint64_t v[2];
			unsigned line = x->tline;
			int k;

			next(x);
			for (k = 0; k < 2; k++) {
				if (x->t == T_BAD)
					return tf_err_set(
						x->err, EBADMSG,
						"%s: line %u: %s: a number that is not "
						"a 32-bit value",
						x->name, x->tline, a->name);
				if (x->t != T_NUM)
					break;
				v[k] = x->num;
				next(x);
				if (k == 0 && !is_punct(x, ','))
					break;
				if (k == 0)
					next(x);
			}
			if (k == 2 && is_punct(x, ',')) /* a trailing comma inside */
				next(x);
			if (k != 2 || !is_punct(x, '}')) {
				pairs = false;
				depth++; /* inside this element: skipped below */
				continue;
			}
			if (a->n == cap) {
				size_t nc = cap ? cap * 2 : 512;
				uint8_t *nf = realloc(a->fw, nc * SILEAD_PAIR_LEN);
				unsigned *nl;

				if (!nf)
					return tf_err_set(x->err, ENOMEM, "out of memory");
				a->fw = nf;
				nl = realloc(a->lines, nc * sizeof(*nl));
				if (!nl)
					return tf_err_set(x->err, ENOMEM, "out of memory");
				a->lines = nl;
				cap = nc;
			}
			if (a->n >= SILEAD_FW_MAX / SILEAD_PAIR_LEN)
				return tf_err_set(
					x->err, EBADMSG,
					"%s: line %u: %s has more pairs than a Silead chip's "
					"RAM could take",
					x->name, line, a->name);
			put_pair(a->fw + a->n * SILEAD_PAIR_LEN, (uint32_t)v[0],
				 (uint32_t)v[1]);
			a->lines[a->n++] = line;
			next(x); /* past '}' */
			if (is_punct(x, ','))
				next(x);
			continue;
		}
		if (is_punct(x, '{'))
			depth++;
		else if (is_punct(x, '}'))
			depth--;
		else if (depth == 1 && pairs)
			pairs = false; /* a number or name at the top: not pairs */
		next(x);
	}
	if (!pairs) {
		a->n = 0;
		free(a->fw);
		free(a->lines);
		a->fw = NULL;
		a->lines = NULL;
	}
	return 0;
}

static void free_arrays(struct parr *arr, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(arr[i].fw);
		free(arr[i].lines);
	}
}

/* Every "NAME[...] = { {a, b}, ... }" of the text into @arr. */
static int find_arrays(struct lex *x, struct parr *arr, size_t *n_arr)
{
	char last[64] = "", name[64] = "";
	unsigned depth = 0, name_line = 0;
	int r;

	*n_arr = 0;
	next(x);
	while (x->t != T_END) {
		if (x->t == T_IDENT) {
			tf_snprintf(last, sizeof(last), "%s", x->ident);
		} else if (depth == 0 && is_punct(x, '[')) {
			tf_snprintf(name, sizeof(name), "%s", last);
			name_line = x->tline;
		} else if (depth == 0 && is_punct(x, ';')) {
			name[0] = '\0';
		} else if (depth == 0 && is_punct(x, '=') && name[0]) {
			next(x);
			if (!is_punct(x, '{'))
				continue;
			if (*n_arr == MAX_ARRAYS)
				return tf_err_set(
					x->err, EBADMSG,
					"%s: more than %d arrays of {register, value} "
					"pairs",
					x->name, MAX_ARRAYS);
			memset(&arr[*n_arr], 0, sizeof(arr[0]));
			tf_snprintf(arr[*n_arr].name, sizeof(arr[0].name), "%s", name);
			arr[*n_arr].line = name_line;
			r = initializer(x, &arr[*n_arr]);
			if (r < 0) {
				free_arrays(&arr[*n_arr], 1);
				return r;
			}
			if (arr[*n_arr].n)
				(*n_arr)++;
			name[0] = '\0';
			continue; /* at the token after the closing brace */
		} else if (is_punct(x, '{')) {
			depth++;
		} else if (is_punct(x, '}') && depth) {
			depth--;
		}
		next(x);
	}
	return 0;
}

/*
 * The pairs of a {register, value} array as silead_ts would send them,
 * each named by its line: every register a page select (a page up to
 * 0xFF) or a word-aligned word below 0x80, a page select first.
 */
static int check_pairs(const struct parr *a, const char *name, struct tf_err *err)
{
	struct silead_fw_info info;
	bool page = false;
	size_t i;

	for (i = 0; i < a->n; i++) {
		const uint8_t *p = a->fw + i * SILEAD_PAIR_LEN;
		uint32_t reg = le32(p), val = le32(p + 4);

		if (reg == SILEAD_REG_PAGE && val > 0xff)
			return tf_err_set(
				err, EBADMSG,
				"%s: line %u: {0x%x, 0x%x}: page 0x%X is not a RAM page "
				"(0x00-0xFF)",
				name, a->lines[i], reg, val, val);
		if (reg != SILEAD_REG_PAGE && (reg >= SILEAD_PAGE_WORDS_END || reg & 3))
			return tf_err_set(
				err, EBADMSG,
				"%s: line %u: {0x%x, 0x%x}: register 0x%X is neither the "
				"page register 0xF0 nor a word 0x00-0x7C (4-byte aligned)",
				name, a->lines[i], reg, val, reg);
		if (reg != SILEAD_REG_PAGE && !page)
			return tf_err_set(
				err, EBADMSG,
				"%s: line %u: {0x%x, 0x%x} writes a word before any page "
				"select {0xf0, PAGE} of %s: it would land in whatever page "
				"the chip last had",
				name, a->lines[i], reg, val, a->name);
		page = page || reg == SILEAD_REG_PAGE;
	}
	/* what silead_ts loads, by its own rules */
	if (silead_fw_check(a->fw, a->n * SILEAD_PAIR_LEN, a->name, &info, err) < 0)
		return tf_err_prefix(err, "%s: line %u: ", name, a->line);
	return 0;
}

static int import_text(const char *s, size_t len, const char *name, const char *part,
		       enum silead_form form, struct silead_import *im, struct tf_err *err)
{
	struct lex x = { .s = s,
			 .end = s + len,
			 .name = name,
			 .line = 1,
			 .bol = true,
			 .err = err };
	struct parr arr[MAX_ARRAYS];
	size_t n = 0, i, pick = 0, off = 0;
	char list[400] = "";
	int r;

	if (memchr(s, '\0', len))
		return tf_err_set(err, EBADMSG, "%s: a NUL byte in what should be C text",
				  name);
	r = find_arrays(&x, arr, &n);
	if (r < 0) {
		free_arrays(arr, n);
		return r;
	}
	/* the arrays found, as many as the message holds (a pointer past the
	 * buffer is undefined even with nothing written through it) */
	for (i = 0; i < n && off < sizeof(list); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off,
					"%s%s (line %u, %zu pairs)", i ? ", " : "", arr[i].name,
					arr[i].line, arr[i].n);
	if (off >= sizeof(list))
		memcpy(list + sizeof(list) - 5, " ...", 5);
	if (!n) {
		r = tf_err_set(err, EBADMSG,
			       "%s: no array of {register, value} pairs (as GSL_TS_CFG.h has: "
			       "\"NAME[] = { {0xf0,0x2}, {0x00,0x...}, ... };\")",
			       name);
	} else if (part && part[0]) {
		for (pick = 0; pick < n && strcmp(arr[pick].name, part); pick++)
			;
		if (pick == n)
			r = tf_err_set(err, EBADMSG,
				       "%s: no array %s of {register, value} pairs; "
				       "it has %s",
				       name, part, list);
	} else if (n > 1) {
		r = tf_err_set(err, EBADMSG,
			       "%s: %zu arrays of {register, value} pairs (%s): name the one "
			       "for this tablet (--part NAME)",
			       name, n, list);
	}
	if (!r)
		r = check_pairs(&arr[pick], name, err);
	if (!r) {
		struct silead_fw_info info;

		silead_fw_check(arr[pick].fw, arr[pick].n * SILEAD_PAIR_LEN, NULL, &info, NULL);
		im->form = form;
		im->fw = arr[pick].fw;
		im->len = arr[pick].n * SILEAD_PAIR_LEN;
		im->pages = info.pages;
		im->words = info.words;
		arr[pick].fw = NULL;
		tf_snprintf(im->array, sizeof(im->array), "%s", arr[pick].name);
		if (silead_chip_names(s, len, im->chip, sizeof(im->chip), im->chips_seen,
				      sizeof(im->chips_seen)) == 1)
			tf_snprintf(im->chip_from, sizeof(im->chip_from), "its text");
	}
	free_arrays(arr, n);
	return r;
}

/* ------------------------------------------------------------ detect */

/* Text a C header could be: printable ASCII, tabs, line ends, and bytes
 * of UTF-8 (comments in other languages). */
static bool text_like(const uint8_t *d, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (d[i] < 0x20 && d[i] != '\t' && d[i] != '\n' && d[i] != '\r' && d[i] != '\f')
			return false;
	return true;
}

/* C: braces and a semicolon. */
static bool c_like(const char *s, size_t len)
{
	return memchr(s, '{', len) && memchr(s, '}', len) && memchr(s, ';', len);
}

int silead_import(const uint8_t *data, size_t len, const char *name, const char *part,
		  struct silead_import *im, struct tf_err *err)
{
	size_t i;
	char *text;
	int r;

	memset(im, 0, sizeof(*im));
	if (!name)
		name = "firmware";
	if (len > SILEAD_IMPORT_MAX)
		return tf_err_set(err, EMEDIUMTYPE,
				  "%s: %zu bytes: larger than any Silead file", name, len);
	if (len >= 4 && !memcmp(data, "GSLX", 4))
		return import_gslx(data, len, name, im, err);
	/* SileadTouch.fw: text XORed with 0x88, so every byte has bit 7 */
	for (i = 0; i < len && data[i] >= 0x80; i++)
		;
	if (len && i == len) {
		text = malloc(len);
		if (!text)
			return tf_err_set(err, ENOMEM, "out of memory");
		for (i = 0; i < len; i++)
			text[i] = (char)(data[i] ^ SCRAMBLE_KEY);
		if (!text_like((const uint8_t *)text, len) || !c_like(text, len)) {
			free(text);
			return tf_err_set(err, EMEDIUMTYPE,
					  "%s: not a Silead file (no GSLX header, no C text, "
					  "scrambled or not)",
					  name);
		}
		r = import_text(text, len, name, part, SILEAD_FORM_SCRAMBLED, im, err);
		free(text);
		return r;
	}
	/* Windows editors save UTF-16 with a byte-order mark */
	if (len >= 4 && len % 2 == 0 &&
	    ((data[0] == 0xff && data[1] == 0xfe && !data[3]) ||
	     (data[0] == 0xfe && data[1] == 0xff && !data[2])))
		return tf_err_set(
			err, EBADMSG,
			"%s: UTF-16 text: save it as ASCII or UTF-8 for touchfw to read "
			"it",
			name);
	if (text_like(data, len) && c_like((const char *)data, len))
		return import_text((const char *)data, len, name, part, SILEAD_FORM_TSCFG, im,
				   err);
	return tf_err_set(err, EMEDIUMTYPE,
			  "%s: not a Silead file to convert (no GSLX header, no C text, "
			  "scrambled or not)",
			  name);
}

const char *silead_form_name(enum silead_form f)
{
	switch (f) {
	case SILEAD_FORM_GSLX:
		return "gslx680_ts_acpi container (GSLX)";
	case SILEAD_FORM_TSCFG:
		return "GSL_TS_CFG.h C array";
	case SILEAD_FORM_SCRAMBLED:
		return "scrambled SileadTouch.fw (GSL_TS_CFG.h XOR 0x88)";
	}
	return "?";
}
