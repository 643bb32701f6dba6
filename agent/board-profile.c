// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Board profiles: the strict parser for compiled profiles (libfdt), a pure
 * function from a blob to a struct tf_board_profile or a report of its
 * mistakes.  This file is its entry point and the tree's outline: the root
 * node, dmi-match, and the controllers node with the checks of the
 * controllers against each other.  The schema's tables are
 * board-schema.c, the blob checks and property readers board-fdt.c, one
 * controller node board-controller.c.  The machine's identity is
 * board-identity.c, the profile directories board-set.c, matching and
 * lookup board-match.c.  The schema is documented for OEMs in
 * boards/README.md; keep the two in step.
 *
 * Nothing trusts a blob before the header and structure checks pass, and
 * every check that fails adds one issue (node path + message) to the report
 * and carries on, so one run shows all of a profile's mistakes.
 */
#include "board.h"
#include "board-parse-priv.h"

#include <errno.h>
#include <libfdt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define MAX_CONTROLLERS 32
#define MAX_COMPATIBLE_LEN 127
#define MAX_BOARD_ID_LEN 63
#define MAX_DMI_PATTERN_LEN 255

static int strv_copy(char **src, size_t n, char ***out)
{
	char **v;
	size_t i;

	*out = NULL;
	if (n == 0)
		return 0;
	v = calloc(n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		v[i] = strdup(src[i]);
		if (!v[i]) {
			board_strv_free(v, i);
			return -ENOMEM;
		}
	}
	*out = v;
	return 0;
}

/* The base name of @path without its directory and .dtb/.dts suffix. */
static void profile_name(const char *path, char *out, size_t outsz, bool *too_long)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && (!strcmp(base + n - 4, ".dtb") || !strcmp(base + n - 4, ".dts")))
		n -= 4;
	*too_long = n >= outsz;
	if (*too_long)
		n = outsz - 1;
	memcpy(out, base, n);
	out[n] = '\0';
}

static bool name_is_clean(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return false;
	return len > 0;
}

static bool same_adapter(const struct tf_controller *a, const struct tf_controller *b)
{
	if (strcmp(a->bus, b->bus))
		return false;
	if (a->adapter_name[0])
		return !strcmp(a->adapter_name, b->adapter_name);
	return b->adapter_path[0] && !strcmp(a->adapter_path, b->adapter_path);
}

/* Two controllers can not share an address on one adapter. */
static void check_addresses(struct parse_ctx *c, struct tf_controller *ctl, size_t n)
{
	size_t i, j;

	for (j = 1; j < n; j++) {
		const struct tf_controller *b = &ctl[j];

		for (i = 0; i < j; i++) {
			const struct tf_controller *a = &ctl[i];

			if (!same_adapter(a, b))
				continue;
			if (a->reg == b->reg)
				board_issue(c, b->node_path, "same bus, adapter and reg as %s",
					    a->node_path);
			else if (b->has_bootloader_reg &&
				 (b->bootloader_reg == a->reg ||
				  (a->has_bootloader_reg &&
				   a->bootloader_reg == b->bootloader_reg)))
				board_issue(c, b->node_path,
					    "bootloader-reg 0x%x is also used by %s",
					    b->bootloader_reg, a->node_path);
			else if (a->has_bootloader_reg && a->bootloader_reg == b->reg)
				board_issue(c, b->node_path,
					    "reg 0x%x is the bootloader-reg of %s", b->reg,
					    a->node_path);
		}
	}
}

static void parse_controllers(struct parse_ctx *c, int node, struct tf_board_profile *p)
{
	static const char path[] = "/controllers";
	struct prop_val v[L_COUNT_];
	uint32_t cells;
	bool all_ok = true;
	size_t n = 0, slots = 0;
	int child;

	board_read_props(c, node, path, NODE_CONTROLLERS, board_controllers_props, L_COUNT_, v);
	if (v[L_ADDRESS_CELLS].seen &&
	    board_val_u32(c, path, "#address-cells", &v[L_ADDRESS_CELLS], "1", &cells) &&
	    cells != 1)
		board_issue(c, path, "#address-cells must be <1> (reg is one cell)");
	if (v[L_SIZE_CELLS].seen &&
	    board_val_u32(c, path, "#size-cells", &v[L_SIZE_CELLS], "0", &cells) && cells != 0)
		board_issue(c, path, "#size-cells must be <0> (reg has no size)");

	/* As many slots as the profile has controller nodes, not
	 * MAX_CONTROLLERS: a loaded set keeps every profile of the boards
	 * directories for the whole run, and a slot is over 1 KiB that calloc
	 * zeroes (32 of them made most of a flash's heap). */
	fdt_for_each_subnode(child, c->fdt, node) {
		if (slots == MAX_CONTROLLERS)
			break;
		slots++;
	}
	p->ctrl = calloc(slots ? slots : 1, sizeof(*p->ctrl));
	if (!p->ctrl) {
		c->oom = true;
		return;
	}
	fdt_for_each_subnode(child, c->fdt, node) {
		char cpath[256], safe[200];
		int len = 0;
		const char *name = fdt_get_name(c->fdt, child, &len);

		if (!name || len <= 0) {
			board_issue(c, path, "a controller node has no name");
			all_ok = false;
			continue;
		}
		board_safe_copy(safe, sizeof(safe), name, (size_t)len);
		snprintf(cpath, sizeof(cpath), "%s/%s", path, safe);
		if (n == MAX_CONTROLLERS) {
			board_issue(c, cpath, "too many controllers (at most %d)",
				    MAX_CONTROLLERS);
			all_ok = false;
			break;
		}
		if (!name_is_clean(name, (size_t)len) || (size_t)len >= sizeof(safe)) {
			board_issue(c, cpath,
				    "node name must be printable ASCII without "
				    "spaces, shorter than %zu characters",
				    sizeof(safe));
			all_ok = false;
			continue;
		}
		if (board_parse_controller(c, child, cpath, name, &p->ctrl[n]))
			n++;
		else
			all_ok = false;
	}
	if (child < 0 && child != -FDT_ERR_NOTFOUND)
		board_issue(c, path, "unreadable node: %s", fdt_strerror(child));
	if (n == 0 && all_ok)
		board_issue(c, path, "no controllers: add at least one controller node");
	check_addresses(c, p->ctrl, n);
	p->n_ctrl = n;
}

static void parse_dmi(struct parse_ctx *c, int node, struct tf_board_profile *p)
{
	static const char path[] = "/dmi-match";
	const char *known[TF_DMI_KEY_COUNT_];
	struct prop_val v[TF_DMI_KEY_COUNT_];
	size_t i, n = 0;
	int child;

	for (i = 0; i < TF_DMI_KEY_COUNT_; i++)
		known[i] = tf_dmi_key_property((enum tf_dmi_key)i);
	board_read_props(c, node, path, NODE_DMI, known, TF_DMI_KEY_COUNT_, v);
	fdt_for_each_subnode(child, c->fdt, node) {
		char sub[128], cpath[256];
		int len = 0;
		const char *cname = fdt_get_name(c->fdt, child, &len);

		board_safe_copy(sub, sizeof(sub), cname ? cname : "?",
				cname && len > 0 ? (size_t)len : 1);
		snprintf(cpath, sizeof(cpath), "%s/%s", path, sub);
		board_issue(c, cpath, "unknown node (dmi-match has no child nodes)");
	}
	for (i = 0; i < TF_DMI_KEY_COUNT_; i++)
		if (v[i].seen)
			n++;
	if (n == 0) {
		board_issue(c, path,
			    "dmi-match has no keys; add sys-vendor, product-name, "
			    "board-name, ...");
		return;
	}
	p->dmi = calloc(n, sizeof(*p->dmi));
	if (!p->dmi) {
		c->oom = true;
		return;
	}
	for (i = 0; i < TF_DMI_KEY_COUNT_; i++) {
		struct tf_dmi_match *m = &p->dmi[p->n_dmi];

		if (!v[i].seen)
			continue;
		if (board_val_strlist(c, path, known[i], &v[i], MAX_DMI_PATTERN_LEN, true,
				      &m->patterns, &m->n_patterns)) {
			m->key = (enum tf_dmi_key)i;
			p->n_dmi++;
		}
	}
}

/* The root's child nodes: controllers and dmi-match, once each, into
 * *@ctrl_node and *@dmi_node (-1: none); anything else is reported. */
static void root_children(struct parse_ctx *c, int *ctrl_node, int *dmi_node)
{
	static const char *const root_nodes[] = { "controllers", "dmi-match" };
	int child;

	fdt_for_each_subnode(child, c->fdt, 0) {
		char safe[200], cpath[256];
		int len = 0;
		const char *name = fdt_get_name(c->fdt, child, &len);
		const char *pick;

		if (!name || len <= 0) {
			board_issue(c, "/", "a node has no name");
			continue;
		}
		if (!strcmp(name, "controllers") || !strcmp(name, "dmi-match")) {
			int *slot = name[0] == 'c' ? ctrl_node : dmi_node;

			if (*slot >= 0)
				board_issue(c, "/", "node %s is given twice", name);
			else
				*slot = child;
			continue;
		}
		board_safe_copy(safe, sizeof(safe), name, (size_t)len);
		snprintf(cpath, sizeof(cpath), "/%s", safe);
		pick = board_closest(name, root_nodes, TF_ARRAY_SIZE(root_nodes));
		if (pick)
			board_issue(c, cpath, "unknown node (did you mean \"%s\"?)", pick);
		else
			board_issue(c, cpath,
				    "unknown node (expected controllers or "
				    "dmi-match)");
	}
}

/* board-ids as given, else the board-compatible strings, else the file's
 * name; a dmi-match profile without a name has none to take. */
static void root_board_ids(struct parse_ctx *c, struct tf_board_profile *p,
			   const struct prop_val *v, bool has_dmi)
{
	if (v[R_BOARD_IDS].seen) {
		board_val_strlist(c, "/", "board-ids", &v[R_BOARD_IDS], MAX_BOARD_ID_LEN, false,
				  &p->board_ids, &p->n_board_ids);
	} else if (p->n_compatible) {
		if (strv_copy(p->compatible, p->n_compatible, &p->board_ids))
			c->oom = true;
		else
			p->n_board_ids = p->n_compatible;
	} else if (p->name[0]) {
		char *one = strdup(p->name);

		p->board_ids = one ? calloc(1, sizeof(char *)) : NULL;
		if (!p->board_ids) {
			free(one);
			c->oom = true;
		} else {
			p->board_ids[0] = one;
			p->n_board_ids = 1;
		}
	} else if (has_dmi) {
		board_issue(c, "/",
			    "board-ids is missing and there is no file name to take "
			    "it from");
	}
}

static void parse_root(struct parse_ctx *c, struct tf_board_profile *p, bool name_too_long)
{
	struct prop_val v[R_COUNT_];
	int ctrl_node = -1, dmi_node = -1;
	uint32_t version;

	board_read_props(c, 0, "/", NODE_ROOT, board_root_props, R_COUNT_, v);

	if (!v[R_VERSION].seen) {
		board_issue(c, "/",
			    "touchfw,profile-version is missing (write "
			    "touchfw,profile-version = <%d>;)",
			    TF_BOARD_PROFILE_VERSION);
	} else if (board_val_u32(c, "/", board_root_props[R_VERSION], &v[R_VERSION], "1",
				 &version) &&
		   version != TF_BOARD_PROFILE_VERSION) {
		/* A newer format can not be judged by these rules. */
		board_issue(c, "/",
			    "touchfw,profile-version %u is not supported (this "
			    "touchfw reads version %d)",
			    version, TF_BOARD_PROFILE_VERSION);
		return;
	}
	if (name_too_long)
		board_issue(c, "",
			    "file name is too long (at most %zu characters before "
			    ".dtb)",
			    sizeof(p->name) - 1);

	if (!v[R_MODEL].seen)
		board_issue(c, "/", "model is missing (a human-readable board name)");
	else
		board_val_string(c, "/", "model", &v[R_MODEL], p->model, sizeof(p->model));

	root_children(c, &ctrl_node, &dmi_node);

	if (v[R_BOARD_COMPATIBLE].seen && dmi_node >= 0)
		board_issue(c, "/",
			    "has both board-compatible and a dmi-match node; give "
			    "exactly one");
	else if (!v[R_BOARD_COMPATIBLE].seen && dmi_node < 0)
		board_issue(c, "/",
			    "needs board-compatible (device-tree boards) or a "
			    "dmi-match node (ACPI boards); neither is given");

	if (v[R_BOARD_COMPATIBLE].seen)
		board_val_strlist(c, "/", "board-compatible", &v[R_BOARD_COMPATIBLE],
				  MAX_COMPATIBLE_LEN, false, &p->compatible, &p->n_compatible);
	if (dmi_node >= 0)
		parse_dmi(c, dmi_node, p);
	root_board_ids(c, p, v, dmi_node >= 0);

	if (ctrl_node < 0)
		board_issue(c, "/", "controllers node is missing");
	else
		parse_controllers(c, ctrl_node, p);
}

void tf_board_free(struct tf_board_profile *p)
{
	size_t i;

	if (!p)
		return;
	board_strv_free(p->compatible, p->n_compatible);
	for (i = 0; i < p->n_dmi; i++)
		board_strv_free(p->dmi[i].patterns, p->dmi[i].n_patterns);
	free(p->dmi);
	board_strv_free(p->board_ids, p->n_board_ids);
	free(p->ctrl);
	free(p);
}

int tf_board_parse(const void *dtb, size_t len, const char *path, struct tf_board_profile **out,
		   struct tf_board_report *rep)
{
	struct parse_ctx c = { .rep = rep };
	struct tf_board_profile *p;
	_cleanup_free_ void *copy = NULL;
	bool name_too_long = false;

	*out = NULL;
	if (!dtb)
		len = 0;
	if (len > TF_BOARD_MAX_DTB_SIZE) {
		board_issue(&c, "", "larger than %u bytes; not a board profile",
			    TF_BOARD_MAX_DTB_SIZE);
		return -EINVAL;
	}
	/* libfdt wants 8-byte alignment; callers may hand any buffer. */
	if (len && ((uintptr_t)dtb & 7)) {
		copy = malloc(len);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, dtb, len);
		dtb = copy;
	}
	c.fdt = dtb;
	if (!board_check_blob(&c, dtb, len))
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	if (path) {
		snprintf(p->path, sizeof(p->path), "%s", path);
		profile_name(path, p->name, sizeof(p->name), &name_too_long);
	}
	parse_root(&c, p, name_too_long);
	if (c.oom || c.n_issues) {
		tf_board_free(p);
		return c.oom ? -ENOMEM : -EINVAL;
	}
	*out = p;
	return 0;
}
