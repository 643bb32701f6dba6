// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a board profile's blob: the header and structure checks that
 * come before libfdt trusts it, the readers that sort a node's properties
 * by the schema and judge each value (string, list, number, flag), and the
 * report every mistake they find goes to.  Each check that fails adds one
 * issue (node path + message) and the parse carries on, so one run shows
 * all of a profile's mistakes.
 */
#include "board.h"
#include "board-parse-priv.h"

#include <ctype.h>
#include <libfdt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ------------------------------------------------------------- lists */

void board_strv_free(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ------------------------------------------------------------- report */

void tf_board_report_init(struct tf_board_report *rep)
{
	memset(rep, 0, sizeof(*rep));
}

void tf_board_report_free(struct tf_board_report *rep)
{
	if (!rep)
		return;
	free(rep->issues);
	memset(rep, 0, sizeof(*rep));
}

void board_report_add(struct tf_board_report *rep, const char *node, const char *msg)
{
	struct tf_board_issue *is;

	if (!rep)
		return;
	if (rep->n >= TF_BOARD_MAX_ISSUES) {
		rep->n_dropped++;
		return;
	}
	if (!rep->issues) {
		rep->issues = calloc(TF_BOARD_MAX_ISSUES, sizeof(*rep->issues));
		if (!rep->issues) {
			rep->n_dropped++;
			return;
		}
	}
	is = &rep->issues[rep->n++];
	snprintf(is->node, sizeof(is->node), "%s", node);
	snprintf(is->msg, sizeof(is->msg), "%s", msg);
}

/* ------------------------------------------------------------- issues */

void board_issue(struct parse_ctx *c, const char *node, const char *fmt, ...)
{
	char msg[sizeof(((struct tf_board_issue *)0)->msg)];
	va_list ap;

	c->n_issues++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	board_report_add(c->rep, node, msg);
}

/*
 * Copy a name from the blob for a message or a path: bytes that would
 * garble a terminal become '?', and a name too long is cut with "...".
 */
void board_safe_copy(char *out, size_t outsz, const char *in, size_t inlen)
{
	size_t i, n = 0;

	for (i = 0; i < inlen && in[i] && n + 1 < outsz; i++) {
		unsigned char ch = (unsigned char)in[i];

		out[n++] = (ch < 0x20 || ch == 0x7f) ? '?' : (char)ch;
	}
	out[n] = '\0';
	if (i < inlen && in[i] && outsz > 4)
		memcpy(out + outsz - 4, "...", 4);
}

bool board_has_control_char(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static bool has_space(const char *s)
{
	for (; *s; s++)
		if (isspace((unsigned char)*s))
			return true;
	return false;
}

/* ------------------------------------------------------------- properties */

static void unknown_property(struct parse_ctx *c, const char *node, enum node_kind kind,
			     const char *name, const char *const *known, size_t n_known)
{
	const char *pick, *hint = board_prop_hint(kind, name);
	char safe[72];
	size_t i;

	board_safe_copy(safe, sizeof(safe), name, strlen(name));
	if (hint) {
		board_issue(c, node, "unknown property \"%s\" (%s)", safe, hint);
		return;
	}
	/* "vendor,name" from a kernel binding whose name the profile has. */
	if (strchr(name, ',')) {
		for (i = 0; i < n_known; i++) {
			if (known[i] && !strcmp(strchr(name, ',') + 1, known[i])) {
				board_issue(c, node,
					    "unknown property \"%s\" (a kernel binding's "
					    "name; the profile calls it %s)",
					    safe, known[i]);
				return;
			}
		}
	}
	if (kind == NODE_DMI && board_dmi_unit_key(name)) {
		board_issue(c, node,
			    "%s identifies one unit, not a board "
			    "model; it can not be matched",
			    safe);
		return;
	}
	pick = board_closest(name, known, n_known);
	if (pick)
		board_issue(c, node, "unknown property \"%s\" (did you mean \"%s\"?)", safe,
			    pick);
	else
		board_issue(c, node, "unknown property \"%s\"", safe);
}

/*
 * Sort the properties of @node into @vals by the names in @known; anything
 * else is reported.
 */
void board_read_props(struct parse_ctx *c, int node, const char *path, enum node_kind kind,
		      const char *const *known, size_t n_known, struct prop_val *vals)
{
	int poff;

	memset(vals, 0, n_known * sizeof(*vals));
	fdt_for_each_property_offset(poff, c->fdt, node) {
		const char *name = NULL;
		const char *val;
		int len = 0;
		size_t i;

		val = fdt_getprop_by_offset(c->fdt, poff, &name, &len);
		if (!val || !name) {
			board_issue(c, path, "unreadable property: %s", fdt_strerror(len));
			continue;
		}
		const char *as = NULL;

		for (i = 0; i < n_known; i++)
			if (known[i] && !strcmp(known[i], name))
				break;
		if (i == n_known && kind == NODE_CONTROLLER && known == board_ctrl_props) {
			int a = board_ctrl_alias(name, &as);

			if (a >= 0)
				i = (size_t)a;
		}
		if (i == n_known) {
			unknown_property(c, path, kind, name, known, n_known);
			continue;
		}
		if (vals[i].seen) {
			if (as || vals[i].as)
				board_issue(c, path,
					    "%s and %s name the same property; give one",
					    vals[i].as ? vals[i].as : known[i], name);
			else
				board_issue(c, path, "%s is given twice", known[i]);
			continue;
		}
		vals[i].as = as;
		vals[i].val = val;
		vals[i].len = len;
		vals[i].seen = true;
	}
}

/* A single non-empty string without control characters. */
bool board_val_string(struct parse_ctx *c, const char *path, const char *prop,
		      const struct prop_val *v, char *out, size_t outsz)
{
	size_t n;

	if (v->len <= 0) {
		board_issue(c, path, "%s has no value; it must be a string", prop);
		return false;
	}
	if (v->val[v->len - 1] != '\0') {
		board_issue(c, path, "%s must be a string, like %s = \"...\";", prop, prop);
		return false;
	}
	n = strlen(v->val);
	if (n + 1 != (size_t)v->len) {
		board_issue(c, path, "%s must be a single string, not a list", prop);
		return false;
	}
	if (n == 0) {
		board_issue(c, path, "%s is empty", prop);
		return false;
	}
	if (board_has_control_char(v->val)) {
		board_issue(c, path, "%s contains a control character", prop);
		return false;
	}
	if (n >= outsz) {
		board_issue(c, path, "%s is longer than %zu characters", prop, outsz - 1);
		return false;
	}
	memcpy(out, v->val, n + 1);
	return true;
}

/*
 * A list of strings, each non-empty, at most @maxlen characters, without
 * whitespace unless @spaces, and no entry twice.
 */
bool board_val_strlist(struct parse_ctx *c, const char *path, const char *prop,
		       const struct prop_val *v, size_t maxlen, bool spaces, char ***out,
		       size_t *n_out)
{
	const char *s, *end;
	char **v_out = NULL;
	size_t n = 0, i;
	bool ok = true;

	*out = NULL;
	*n_out = 0;
	if (v->len <= 0) {
		board_issue(c, path, "%s has no value; it must be a list of strings", prop);
		return false;
	}
	if (v->val[v->len - 1] != '\0') {
		board_issue(c, path, "%s must be a list of strings, like %s = \"a\", \"b\";",
			    prop, prop);
		return false;
	}
	v_out = calloc(MAX_LIST_ENTRIES, sizeof(*v_out));
	if (!v_out) {
		c->oom = true;
		return false;
	}
	end = v->val + v->len;
	for (s = v->val; s < end; s += strlen(s) + 1) {
		size_t len = strlen(s);
		bool dup = false;

		if (n == MAX_LIST_ENTRIES) {
			board_issue(c, path, "%s has more than %d entries", prop,
				    MAX_LIST_ENTRIES);
			ok = false;
			break;
		}
		if (len == 0) {
			board_issue(c, path, "%s entry %zu is empty", prop, n + 1);
			ok = false;
		} else if (board_has_control_char(s)) {
			board_issue(c, path, "%s entry %zu contains a control character", prop,
				    n + 1);
			ok = false;
		} else if (len > maxlen) {
			board_issue(c, path, "%s entry %zu is longer than %zu characters", prop,
				    n + 1, maxlen);
			ok = false;
		} else if (!spaces && has_space(s)) {
			board_issue(c, path, "%s entry \"%s\" contains whitespace", prop, s);
			ok = false;
		} else if (spaces && len > 0 && isspace((unsigned char)s[len - 1])) {
			board_issue(c, path,
				    "%s \"%s\" ends in whitespace; DMI values are "
				    "compared with trailing whitespace removed, so it "
				    "would never match",
				    prop, s);
			ok = false;
		} else {
			for (i = 0; i < n; i++)
				if (v_out[i] && !strcmp(v_out[i], s))
					dup = true;
			if (dup) {
				board_issue(c, path, "%s lists \"%s\" twice", prop, s);
				ok = false;
			}
		}
		v_out[n] = strdup(s);
		if (!v_out[n]) {
			c->oom = true;
			ok = false;
			break;
		}
		n++;
	}
	if (!ok) {
		board_strv_free(v_out, n);
		return false;
	}
	*out = v_out;
	*n_out = n;
	return true;
}

bool board_val_u32(struct parse_ctx *c, const char *path, const char *prop,
		   const struct prop_val *v, const char *example, uint32_t *out)
{
	if (v->len != (int)sizeof(fdt32_t)) {
		board_issue(c, path, "%s must be one 32-bit number, like %s = <%s>;", prop,
			    prop, example);
		return false;
	}
	*out = fdt32_ld((const fdt32_t *)v->val);
	return true;
}

bool board_val_flag(struct parse_ctx *c, const char *path, const char *prop,
		    const struct prop_val *v)
{
	if (v->len != 0) {
		board_issue(c, path, "%s is a flag and takes no value (write \"%s;\")", prop,
			    prop);
		return false;
	}
	return true;
}

/* ------------------------------------------------------------- paths */

bool board_dt_path_ok(const char *p)
{
	size_t n = strlen(p);

	return p[0] == '/' && n > 1 && p[n - 1] != '/' && !strstr(p, "//") && !has_space(p);
}

/*
 * The device-tree path inside a view of the live tree (the target of an
 * adapter's of_node link, or a /proc/device-tree path), as a plain path.
 */
const char *board_dt_path_strip(const char *p)
{
	static const char *const prefixes[] = {
		"/sys/firmware/devicetree/base",
		"/proc/device-tree",
	};
	size_t i;

	for (i = 0; i < TF_ARRAY_SIZE(prefixes); i++) {
		size_t n = strlen(prefixes[i]);

		if (!strncmp(p, prefixes[i], n) && (p[n] == '/' || !p[n]))
			return p + n;
	}
	return p;
}

/* ------------------------------------------------------------- blob */

static uint32_t be32_at(const void *base, uint64_t off)
{
	const uint8_t *b = (const uint8_t *)base + off;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/*
 * Walk the structure block of a blob whose header fits in @total bytes,
 * without libfdt, and say what is wrong with it (NULL if nothing).  Every
 * step moves forward and stays inside the block, and every property name
 * is a NUL-terminated string inside the strings block.  libfdt 1.6.1's own
 * walk trusts a property length that points backwards and then loops for
 * ever inside fdt_check_full() (found by fuzz_board); once this walk has
 * passed, libfdt's takes the same steps and ends.
 */
const char *board_walk_structure(const void *fdt, uint32_t total)
{
	uint64_t s_off = fdt_off_dt_struct(fdt), s_size = fdt_size_dt_struct(fdt);
	uint64_t t_off = fdt_off_dt_strings(fdt), t_size = fdt_size_dt_strings(fdt);
	uint64_t p, end;
	uint32_t depth = 0;
	bool root_seen = false;

	if (s_off + s_size > total || t_off + t_size > total || (s_off & 3))
		return "a block lies outside the blob";
	p = s_off;
	end = s_off + s_size;
	while (p + 4 <= end) {
		uint32_t tag = be32_at(fdt, p);
		const char *name, *nul;
		uint32_t plen, nameoff;

		p += 4;
		switch (tag) {
		case FDT_BEGIN_NODE:
			name = (const char *)fdt + p;
			nul = memchr(name, '\0', (size_t)(end - p));
			if (!nul)
				return "a node name runs off the structure "
				       "block";
			if (!root_seen && (depth != 0 || nul != name))
				return "the tree does not start with the root "
				       "node";
			if (root_seen && depth == 0)
				return "there is more than one root node";
			root_seen = true;
			depth++;
			p = (p + (uint64_t)(nul - name) + 1 + 3) & ~(uint64_t)3;
			break;
		case FDT_END_NODE:
			if (depth == 0)
				return "a node ends that never began";
			depth--;
			break;
		case FDT_PROP:
			if (depth == 0)
				return "a property lies outside any node";
			if (p + 8 > end)
				return "a property header runs off the "
				       "structure "
				       "block";
			plen = be32_at(fdt, p);
			nameoff = be32_at(fdt, p + 4);
			p += 8;
			if (plen > end - p)
				return "a property value runs off the "
				       "structure "
				       "block";
			if (nameoff >= t_size || !memchr((const char *)fdt + t_off + nameoff,
							 '\0', (size_t)(t_size - nameoff)))
				return "a property name lies outside the "
				       "strings "
				       "block";
			p = (p + plen + 3) & ~(uint64_t)3;
			break;
		case FDT_NOP:
			break;
		case FDT_END:
			if (depth != 0 || !root_seen)
				return "the tree ends inside a node";
			return NULL;
		default:
			return "an unknown tag in the structure block";
		}
		if (p > end)
			return "the structure block is cut short";
	}
	return "the structure block has no end tag";
}

/*
 * Header and structure checks, in an order that never reads past @len:
 * the header must fit before libfdt looks at it, and totalsize must fit
 * before fdt_check_full() walks the blocks.
 */
bool board_check_blob(struct parse_ctx *c, const void *fdt, size_t len)
{
	const char *why;
	uint32_t total;
	int r;

	if (len == 0) {
		board_issue(c, "", "the file is empty");
		return false;
	}
	if (len < sizeof(struct fdt_header)) {
		board_issue(c, "",
			    "not a device tree blob: %zu bytes is shorter than its "
			    "header",
			    len);
		return false;
	}
	if (fdt_magic(fdt) != FDT_MAGIC) {
		board_issue(c, "",
			    "not a compiled device tree (no d00dfeed magic); compile "
			    "the .dts with dtc -I dts -O dtb");
		return false;
	}
	/*
	 * Before version 16 node names were full paths, and libfdt 1.6.1's
	 * fdt_check_full() dereferences NULL on such a root (found by
	 * fuzz_board); version 17 added the structure size the walk below
	 * needs.  dtc has written version 17 since 2007.
	 */
	if (fdt_version(fdt) < FDT_MIN_VERSION) {
		board_issue(c, "",
			    "device tree blob version %u is too old (at least %d; "
			    "recompile it with dtc)",
			    fdt_version(fdt), FDT_MIN_VERSION);
		return false;
	}
	total = fdt_totalsize(fdt);
	if (total > len) {
		board_issue(c, "", "truncated: the header says %u bytes, the file has %zu",
			    total, len);
		return false;
	}
	if (total < len) {
		board_issue(c, "", "%zu bytes of trailing data after the device tree",
			    len - total);
		return false;
	}
	why = board_walk_structure(fdt, total);
	if (why) {
		board_issue(c, "", "corrupt device tree blob: %s", why);
		return false;
	}
	r = fdt_check_full(fdt, len);
	if (r) {
		board_issue(c, "", "corrupt device tree blob: %s", fdt_strerror(r));
		return false;
	}
	return true;
}
