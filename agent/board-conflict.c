// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two board profiles that describe the running machine equally well.
 * tf_board_match() keeps the earlier of two equal matches (directory, then
 * file name), which is right when they say the same thing and silent
 * guesswork when they disagree -- on a controller's power, say, which
 * decides whether touchfw unbinds the driver.  This finds such a tie and
 * says what differs, so that the callers can refuse.  A profile that is
 * meant to replace another does so by the set's own rules: the same file
 * name in an earlier directory (the other is then not in the set at all),
 * or a strictly better match (a more specific compatible string, more DMI
 * keys); neither is a tie.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "board.h"
#include "util.h"

static bool same_rank(const struct tf_board_match_info *a, const struct tf_board_match_info *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == TF_BOARD_MATCH_COMPATIBLE)
		return a->compatible_index == b->compatible_index;
	return a->n_dmi_keys == b->n_dmi_keys;
}

static bool gpio_equal(bool has_a, const struct tf_gpio_spec *a, bool has_b,
		       const struct tf_gpio_spec *b)
{
	if (has_a != has_b)
		return false;
	return !has_a || (!strcmp(a->chip, b->chip) && a->line == b->line &&
			  !strcmp(a->name, b->name) && a->active_low == b->active_low);
}

/* The controller of @p where @c sits (bus, adapter, address), or NULL. */
static const struct tf_controller *peer(const struct tf_board_profile *p,
					const struct tf_controller *c)
{
	size_t i;

	for (i = 0; i < p->n_ctrl; i++) {
		const struct tf_controller *d = &p->ctrl[i];

		if (!strcmp(c->bus, d->bus) && c->reg == d->reg &&
		    !strcmp(c->adapter_name, d->adapter_name) &&
		    !strcmp(c->adapter_path, d->adapter_path))
			return d;
	}
	return NULL;
}

/* The first property in which @a and @b differ, "" when none. */
static void controller_diff(const struct tf_controller *a, const struct tf_controller *b,
			    const char *an, const char *bn, char *why, size_t size)
{
	why[0] = '\0';
#define DIFF_STR(prop, field)                                                             \
	if (strcmp(a->field, b->field)) {                                                 \
		tf_snprintf(why, size, "%s %s: \"%s\" in %s, \"%s\" in %s", a->node_path, \
			    prop, a->field, an, b->field, bn);                            \
		return;                                                                   \
	}
#define DIFF_NUM(prop, field)                                                               \
	if (a->field != b->field) {                                                         \
		tf_snprintf(why, size, "%s %s: %" PRIu32 " in %s, %" PRIu32 " in %s",       \
			    a->node_path, prop, (uint32_t)a->field, an, (uint32_t)b->field, \
			    bn);                                                            \
		return;                                                                     \
	}
	DIFF_STR("family", family);
	DIFF_STR("driver", driver);
	if (a->power != b->power) {
		tf_snprintf(why, size, "%s power: \"%s\" in %s, \"%s\" in %s", a->node_path,
			    tf_power_name(a->power), an, tf_power_name(b->power), bn);
		return;
	}
	if (!gpio_equal(a->has_reset, &a->reset, b->has_reset, &b->reset)) {
		tf_snprintf(why, size, "%s reset-gpios differ between %s and %s", a->node_path,
			    an, bn);
		return;
	}
	if (!gpio_equal(a->has_irq, &a->irq, b->has_irq, &b->irq)) {
		tf_snprintf(why, size, "%s interrupt line differs between %s and %s",
			    a->node_path, an, bn);
		return;
	}
	if (a->has_bootloader_reg != b->has_bootloader_reg ||
	    (a->has_bootloader_reg && a->bootloader_reg != b->bootloader_reg)) {
		tf_snprintf(why, size, "%s bootloader address differs between %s and %s",
			    a->node_path, an, bn);
		return;
	}
	DIFF_STR("firmware-pin", firmware_pin);
	DIFF_STR("config-pin", config_pin);
	DIFF_STR("config-name", config_name);
	DIFF_NUM("input-timeout-ms", input_timeout_ms);
	DIFF_NUM("flash-timeout-ms", flash_timeout_ms);
	DIFF_NUM("touchscreen-swapped-x-y", swapped_x_y);
	DIFF_NUM("allow-bus-recovery", bus_recovery);
#undef DIFF_STR
#undef DIFF_NUM
}

static bool has_id(const struct tf_board_profile *p, const char *id)
{
	size_t i;

	for (i = 0; i < p->n_board_ids; i++)
		if (!strcmp(p->board_ids[i], id))
			return true;
	return false;
}

/* What @a says that @b does not, "" when they agree. */
static void profile_diff(const struct tf_board_profile *a, const struct tf_board_profile *b,
			 char *why, size_t size)
{
	const char *an = a->name, *bn = b->name;
	size_t i;

	why[0] = '\0';
	for (i = 0; i < a->n_board_ids; i++)
		if (!has_id(b, a->board_ids[i])) {
			tf_snprintf(why, size, "board-ids: \"%s\" only in %s", a->board_ids[i],
				    an);
			return;
		}
	for (i = 0; i < b->n_board_ids; i++)
		if (!has_id(a, b->board_ids[i])) {
			tf_snprintf(why, size, "board-ids: \"%s\" only in %s", b->board_ids[i],
				    bn);
			return;
		}
	for (i = 0; i < a->n_ctrl; i++) {
		const struct tf_controller *d = peer(b, &a->ctrl[i]);

		if (!d) {
			tf_snprintf(why, size, "%s (%s at 0x%02x) only in %s",
				    a->ctrl[i].node_path, a->ctrl[i].bus, a->ctrl[i].reg, an);
			return;
		}
		controller_diff(&a->ctrl[i], d, an, bn, why, size);
		if (why[0])
			return;
	}
	for (i = 0; i < b->n_ctrl; i++)
		if (!peer(a, &b->ctrl[i])) {
			tf_snprintf(why, size, "%s (%s at 0x%02x) only in %s",
				    b->ctrl[i].node_path, b->ctrl[i].bus, b->ctrl[i].reg, bn);
			return;
		}
}

const struct tf_board_profile *tf_board_match_conflict(const struct tf_board_set *set,
						       const struct tf_board_identity *id,
						       const struct tf_board_profile *pick,
						       char *why, size_t size)
{
	struct tf_board_match_info pm, om;
	size_t i;

	if (size)
		why[0] = '\0';
	if (!set || !id || !pick || !tf_board_profile_matches(pick, id, &pm))
		return NULL;
	for (i = 0; i < tf_board_set_count(set); i++) {
		const struct tf_board_profile *p = tf_board_set_get(set, i);

		if (p == pick || !tf_board_profile_matches(p, id, &om) || !same_rank(&pm, &om))
			continue;
		profile_diff(pick, p, why, size);
		if (why[0])
			return p;
	}
	return NULL;
}
