// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Matching board profiles to the machine (board-compatible before
 * dmi-match, the earlier profile on a tie), finding a device's controller
 * in the matched profile, and, when none does, explaining which profile
 * came nearest and why it missed.
 */
#include "board.h"
#include "board-priv.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static bool dmi_value_matches(const struct tf_dmi_match *m, const char *value)
{
	size_t i;

	/* Exact first, so a literal "[" in a product name still matches. */
	for (i = 0; i < m->n_patterns; i++)
		if (!strcmp(m->patterns[i], value) || fnmatch(m->patterns[i], value, 0) == 0)
			return true;
	return false;
}

bool tf_board_profile_matches(const struct tf_board_profile *p,
			      const struct tf_board_identity *id,
			      struct tf_board_match_info *info)
{
	size_t i, j;

	if (info)
		memset(info, 0, sizeof(*info));
	if (!p || !id)
		return false;
	if (p->n_compatible) {
		for (i = 0; i < id->n_compatible; i++)
			for (j = 0; j < p->n_compatible; j++)
				if (!strcmp(id->compatible[i], p->compatible[j])) {
					if (info) {
						info->kind = TF_BOARD_MATCH_COMPATIBLE;
						info->compatible_index = i;
					}
					return true;
				}
		return false;
	}
	if (!p->n_dmi || !id->has_dmi)
		return false;
	for (i = 0; i < p->n_dmi; i++) {
		const struct tf_dmi_match *m = &p->dmi[i];

		if ((unsigned)m->key >= TF_DMI_KEY_COUNT_ || !id->dmi_present[m->key] ||
		    !dmi_value_matches(m, id->dmi[m->key]))
			return false;
	}
	if (info) {
		info->kind = TF_BOARD_MATCH_DMI;
		info->n_dmi_keys = p->n_dmi;
	}
	return true;
}

/* Is @a a better match than @b (NONE is worst)? */
static bool match_better(const struct tf_board_match_info *a,
			 const struct tf_board_match_info *b)
{
	if (a->kind == TF_BOARD_MATCH_NONE)
		return false;
	if (b->kind == TF_BOARD_MATCH_NONE)
		return true;
	if (a->kind != b->kind)
		return a->kind == TF_BOARD_MATCH_COMPATIBLE;
	if (a->kind == TF_BOARD_MATCH_COMPATIBLE)
		return a->compatible_index < b->compatible_index;
	return a->n_dmi_keys > b->n_dmi_keys;
}

const struct tf_board_profile *tf_board_match(const struct tf_board_set *set,
					      const struct tf_board_identity *id,
					      struct tf_board_match_info *info)
{
	struct tf_board_match_info best = { .kind = TF_BOARD_MATCH_NONE };
	const struct tf_board_profile *pick = NULL;
	size_t i;

	if (info)
		memset(info, 0, sizeof(*info));
	if (!set || !id)
		return NULL;
	for (i = 0; i < set->n; i++) {
		struct tf_board_match_info mi;

		/* Strictly better only: ties keep the earlier profile. */
		if (tf_board_profile_matches(set->prof[i], id, &mi) &&
		    match_better(&mi, &best)) {
			best = mi;
			pick = set->prof[i];
		}
	}
	if (info)
		*info = best;
	return pick;
}

/* ------------------------------------------------------------- lookup */

/* Equal paths, ignoring trailing slashes. */
static bool dt_path_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	while (la > 1 && a[la - 1] == '/')
		la--;
	while (lb > 1 && b[lb - 1] == '/')
		lb--;
	return la == lb && !strncmp(a, b, la);
}

const struct tf_controller *tf_board_find_controller(const struct tf_board_profile *p,
						     const char *bus, const char *adapter_name,
						     const char *adapter_of_path, uint16_t reg)
{
	const char *of = adapter_of_path ? board_dt_path_strip(adapter_of_path) : NULL;
	size_t i;

	if (!p || !bus)
		return NULL;
	for (i = 0; i < p->n_ctrl; i++) {
		const struct tf_controller *ctl = &p->ctrl[i];

		if (ctl->reg != reg || strcmp(ctl->bus, bus))
			continue;
		if (ctl->adapter_name[0] && adapter_name &&
		    !strcmp(ctl->adapter_name, adapter_name))
			return ctl;
		if (ctl->adapter_path[0] && of && *of && dt_path_equal(ctl->adapter_path, of))
			return ctl;
	}
	return NULL;
}

const struct tf_controller *tf_board_lookup_controller(const struct tf_board_profile *p,
						       const char *bus,
						       const char *adapter_name,
						       const char *adapter_of_path,
						       bool has_reg, uint16_t reg)
{
	const struct tf_controller *ctrl;
	size_t k, hits = 0;

	ctrl = tf_board_find_controller(p, bus, adapter_name, adapter_of_path,
					has_reg ? reg : 0);
	if (ctrl || has_reg || !p)
		return ctrl;
	/* ACPI-named clients have no address in their name: accept the
	 * only controller on that adapter. */
	for (k = 0; k < p->n_ctrl; k++) {
		const struct tf_controller *t = &p->ctrl[k];

		if (tf_board_find_controller(p, bus, adapter_name, adapter_of_path, t->reg) ==
		    t) {
			ctrl = t;
			hits++;
		}
	}
	return hits == 1 ? ctrl : NULL;
}

/* ------------------------------------------------------------- near misses */

/* Append to @buf (NUL-terminated, @size bytes); truncates quietly. */
static void appendf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void appendf(char *buf, size_t size, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
}

static bool ctrl_on_adapter(const struct tf_controller *c, const struct tf_board_miss_device *d)
{
	const char *of = d->adapter_of_path ? board_dt_path_strip(d->adapter_of_path) : NULL;

	if (c->adapter_name[0])
		return d->adapter_name && !strcmp(c->adapter_name, d->adapter_name);
	return of && *of && dt_path_equal(c->adapter_path, of);
}

/* How close @c comes to the device: adapter 2, address 1, driver 4 when
 * both adapter and address agree. */
static unsigned ctrl_score(const struct tf_controller *c, const struct tf_board_miss_device *d)
{
	bool a, r;

	if (!d->bus || strcmp(c->bus, d->bus))
		return 0;
	a = ctrl_on_adapter(c, d);
	r = !d->has_reg || c->reg == d->reg;
	if (a && r)
		return 3 + (!c->driver[0] || !d->driver || !d->driver[0] ||
					    !strcmp(c->driver, d->driver)
				    ? 4
				    : 0);
	return (a ? 2 : 0) + (r ? 1 : 0);
}

static void describe_board_miss(const struct tf_board_profile *p,
				const struct tf_board_identity *id, char *buf, size_t size)
{
	size_t i, j;

	if (p->n_compatible) {
		appendf(buf, size, "its board-compatible");
		for (i = 0; i < p->n_compatible; i++)
			appendf(buf, size, "%s \"%s\"", i ? "," : "", p->compatible[i]);
		if (!id->n_compatible) {
			appendf(buf, size,
				" differs: this machine has no "
				"device-tree root compatible");
			return;
		}
		appendf(buf, size, " differs from this board's");
		for (i = 0; i < id->n_compatible && i < 3; i++)
			appendf(buf, size, "%s \"%s\"", i ? "," : "", id->compatible[i]);
		return;
	}
	if (!id->has_dmi) {
		appendf(buf, size,
			"it matches by dmi-match, and this machine "
			"has no DMI");
		return;
	}
	for (i = 0; i < p->n_dmi; i++) {
		const struct tf_dmi_match *m = &p->dmi[i];

		if ((unsigned)m->key < TF_DMI_KEY_COUNT_ && id->dmi_present[m->key] &&
		    dmi_value_matches(m, id->dmi[m->key]))
			continue;
		appendf(buf, size, "its dmi-match %s", tf_dmi_key_property(m->key));
		for (j = 0; j < m->n_patterns; j++)
			appendf(buf, size, "%s\"%s\"", j ? "|" : " ", m->patterns[j]);
		if ((unsigned)m->key < TF_DMI_KEY_COUNT_ && id->dmi_present[m->key])
			appendf(buf, size, " differs from this machine's \"%s\"",
				id->dmi[m->key]);
		else
			appendf(buf, size, " differs: this machine has no %s",
				tf_dmi_key_file(m->key));
		return;
	}
}

static void describe_adapter(const struct tf_controller *c, char *buf, size_t size)
{
	if (c->adapter_name[0])
		appendf(buf, size, "adapter '%s'", c->adapter_name);
	else
		appendf(buf, size, "adapter %s", c->adapter_path);
}

static void describe_ctrl_miss(const struct tf_board_profile *p, const struct tf_controller *c,
			       unsigned score, const struct tf_board_miss_device *d, char *buf,
			       size_t size)
{
	const char *dev_adapter = d->adapter_name && d->adapter_name[0] ? d->adapter_name
				  : d->adapter_of_path && d->adapter_of_path[0]
					  ? board_dt_path_strip(d->adapter_of_path)
					  : "unnamed";

	if (!c) {
		appendf(buf, size, "it has no %s controller at all", d->bus ? d->bus : "");
		return;
	}
	if (score >= 7) {
		appendf(buf, size, "its controller %s is this device", c->node_path);
		return;
	}
	if (score == 3) {
		appendf(buf, size,
			"its controller %s is this device but says "
			"driver = \"%s\", and the device is bound to %s",
			c->node_path, c->driver, d->driver);
		return;
	}
	appendf(buf, size, "its nearest controller %s is on ", c->node_path);
	describe_adapter(c, buf, size);
	appendf(buf, size, " at 0x%02x, not on adapter '%s'", c->reg, dev_adapter);
	if (d->has_reg)
		appendf(buf, size, " at 0x%02x", d->reg);
	(void)p;
}

void tf_board_explain_miss(const struct tf_board_set *set, const struct tf_board_identity *id,
			   const struct tf_board_miss_device *d, char *buf, size_t size)
{
	const struct tf_board_profile *best = NULL;
	const struct tf_controller *best_ctrl = NULL;
	unsigned best_score = 0, best_cscore = 0;
	bool best_board = false;
	size_t i, k;

	if (!buf || !size)
		return;
	buf[0] = '\0';
	if (!set || !set->n) {
		appendf(buf, size, "no valid board profile is installed");
		if (set && set->n_inv)
			appendf(buf, size,
				" (%zu invalid: see 'touchfw board "
				"check')",
				set->n_inv);
		return;
	}
	for (i = 0; i < set->n; i++) {
		const struct tf_board_profile *p = set->prof[i];
		const struct tf_controller *pc = NULL;
		bool board = tf_board_profile_matches(p, id, NULL);
		unsigned cs = 0, score;

		for (k = 0; k < p->n_ctrl; k++) {
			unsigned s = ctrl_score(&p->ctrl[k], d);

			if (!pc || s > cs) {
				pc = &p->ctrl[k];
				cs = s;
			}
		}
		score = (board ? 16 : 0) + cs + 1;
		if (score > best_score) {
			best_score = score;
			best = p;
			best_ctrl = pc;
			best_cscore = cs;
			best_board = board;
		}
	}
	appendf(buf, size, "nearest profile %s (%s)", best->name, best->path);
	if (!best_board) {
		appendf(buf, size, ": ");
		describe_board_miss(best, id, buf, size);
		appendf(buf, size, "; ");
	} else {
		appendf(buf, size, " describes this board, but ");
	}
	describe_ctrl_miss(best, best_ctrl, best_cscore, d, buf, size);
}

/* dmi-match keys of @p that agree with @id. */
static size_t dmi_agree(const struct tf_board_profile *p, const struct tf_board_identity *id)
{
	size_t i, n = 0;

	for (i = 0; id->has_dmi && i < p->n_dmi; i++) {
		const struct tf_dmi_match *m = &p->dmi[i];

		n += (unsigned)m->key < TF_DMI_KEY_COUNT_ && id->dmi_present[m->key] &&
		     dmi_value_matches(m, id->dmi[m->key]);
	}
	return n;
}

/* Compatibles of @id whose vendor (before the comma) one of @p's has. */
static size_t vendor_agree(const struct tf_board_profile *p, const struct tf_board_identity *id)
{
	size_t i, j, n = 0;

	for (i = 0; i < id->n_compatible; i++) {
		size_t lv = strcspn(id->compatible[i], ",");

		for (j = 0; j < p->n_compatible; j++)
			if (strcspn(p->compatible[j], ",") == lv &&
			    !strncmp(p->compatible[j], id->compatible[i], lv)) {
				n++;
				break;
			}
	}
	return n;
}

void tf_board_explain_board_miss(const struct tf_board_set *set,
				 const struct tf_board_identity *id, char *buf, size_t size)
{
	const struct tf_board_profile *best = NULL;
	size_t best_score = 0, i;

	if (!buf || !size)
		return;
	buf[0] = '\0';
	if (!set || !set->n) {
		appendf(buf, size, "no valid board profile is installed");
		return;
	}
	for (i = 0; i < set->n; i++) {
		const struct tf_board_profile *p = set->prof[i];
		/* the machine's own kind of identity first */
		bool kind = p->n_compatible ? id->n_compatible > 0 : id->has_dmi;
		size_t score = 1 + (kind ? 1000 : 0) +
			       (p->n_compatible ? 10 * vendor_agree(p, id)
						: 10 * dmi_agree(p, id));

		if (score > best_score) {
			best_score = score;
			best = p;
		}
	}
	appendf(buf, size, "nearest profile %s (%s): ", best->name, best->path);
	describe_board_miss(best, id, buf, size);
	if (!best->n_compatible && id->has_dmi)
		appendf(buf, size, " (%zu of %zu dmi-match key%s agree)", dmi_agree(best, id),
			best->n_dmi, best->n_dmi == 1 ? "" : "s");
}
