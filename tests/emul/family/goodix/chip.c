// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Goodix family of the emulator: a GT9xx/GT1x (goodix_model) as an
 * i2c chip whose INT pin is both ways, Goodix-TS its driver; its board
 * keys, device-tree properties, statistics and touches.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emub-goodix.h"
#include "goodix-emul.h"
#include "goodix_model.h"

static const char *const keys[] = {
	"goodix.id",
	"goodix.strap",
	"goodix.fw_version",
	"goodix.config",
	"goodix.config_version",
	"goodix.resolution",
	"goodix.touches",
	"goodix.trigger",
	"goodix.config_name",
	"fault.refuse_config",
	"fault.config_volatile",
	"fault.fixed_address",
	"fault.corrupt_readback",
	NULL,
};

static void init(struct emub_chip_desc *c)
{
	struct goodix_board *b = c->fam;

	b->cfg_version = 0x41;
	b->x = 800;
	b->y = 480;
	b->touches = 5;
	b->trigger = 1;
}

/* "800x480" */
static bool parse_res(const char *s, guint16 *x, guint16 *y)
{
	unsigned int a, b;
	char tail;

	if (sscanf(s, "%ux%u%c", &a, &b, &tail) != 2 || a > 65535 || b > 65535)
		return false;
	*x = (guint16)a;
	*y = (guint16)b;
	return true;
}

static int parse_config(struct goodix_board *b, const char *k, const char *s,
			const struct emub_parse *p)
{
	gchar *buf = NULL;
	gsize n = 0;
	int r;

	if (b->config)
		g_byte_array_free(b->config, TRUE);
	b->config = NULL;
	b->config_none = !strcmp(s, "none");
	if (b->config_none)
		return 0;
	r = emub_key_file(p, k, s, &buf, &n);
	if (!r && n > 240)
		r = emub_parse_err(p, "[%s] goodix.config: %s has %zu bytes, more than 240",
				   p->grp, s, (size_t)n);
	if (!r) {
		b->config = g_byte_array_new();
		g_byte_array_append(b->config, (guint8 *)buf, (guint)n);
	}
	g_free(buf);
	return r;
}

static int parse_key(struct emub_chip_desc *c, const char *k, const char *s,
		     const struct emub_parse *p)
{
	struct goodix_board *b = c->fam;
	guint32 v;

	if (!strcmp(k, "goodix.id")) {
		size_t n = strlen(s);

		memset(b->id, 0, sizeof(b->id));
		memcpy(b->id, s, n > 4 ? 4 : n);
		b->has_id = true;
		if (n < 1 || n > 4)
			return emub_parse_err(
				p,
				"[%s] goodix.id: \"%s\" is not 1..4 characters (e.g. 911, 917S)",
				p->grp, s);
	} else if (!strcmp(k, "goodix.strap")) {
		if (!emub_parse_u32(s, &v) || (v != 0x14 && v != 0x5d))
			return emub_parse_err(p,
					      "[%s] goodix.strap: \"%s\" is not 0x14 or 0x5d",
					      p->grp, s);
		b->strap = v;
	} else if (!strcmp(k, "goodix.fw_version")) {
		return emub_key_u32(p, k, s, 0xffff, &b->fw_version);
	} else if (!strcmp(k, "goodix.config")) {
		return parse_config(b, k, s, p);
	} else if (!strcmp(k, "goodix.config_version")) {
		return emub_key_u32(p, k, s, 255, &b->cfg_version);
	} else if (!strcmp(k, "goodix.resolution")) {
		if (!parse_res(s, &b->x, &b->y))
			return emub_parse_err(
				p, "[%s] goodix.resolution: \"%s\" is not WIDTHxHEIGHT", p->grp,
				s);
	} else if (!strcmp(k, "goodix.touches")) {
		return emub_key_u32(p, k, s, 15, &b->touches);
	} else if (!strcmp(k, "goodix.trigger")) {
		static const char *const t[] = { "rising", "falling", "low", "high" };

		for (guint8 i = 0; i < 4; i++)
			if (!strcmp(s, t[i])) {
				b->trigger = i;
				return 0;
			}
		return emub_parse_err(
			p, "[%s] goodix.trigger: \"%s\" is not rising, falling, low or high",
			p->grp, s);
	} else if (!strcmp(k, "goodix.config_name")) {
		g_free(b->config_name);
		b->config_name = g_strdup(s);
	} else if (!strcmp(k, "fault.refuse_config")) {
		return emub_key_bool(p, k, s, &b->refuse_config);
	} else if (!strcmp(k, "fault.config_volatile")) {
		return emub_key_bool(p, k, s, &b->config_volatile);
	} else if (!strcmp(k, "fault.fixed_address")) {
		return emub_key_bool(p, k, s, &b->fixed_address);
	} else {
		return emub_key_bool(p, k, s, &b->corrupt_readback);
	}
	return 0;
}

static int check(struct emub_chip_desc *c, const struct emub_parse *p)
{
	if (!goodix_board(c)->has_id)
		return emub_parse_err(p, "[%s] goodix.id: missing (the product id, e.g. 911)",
				      p->grp);
	if (c->addr != 0x14 && c->addr != 0x5d)
		return emub_parse_err(
			p, "[%s] address: a Goodix chip answers at 0x14 or 0x5d, not 0x%02x",
			p->grp, c->addr);
	return 0;
}

static void clear(struct emub_chip_desc *c)
{
	struct goodix_board *b = c->fam;

	g_free(b->config_name);
	if (b->config)
		g_byte_array_free(b->config, TRUE);
}

static int create(struct emub_chip *c)
{
	const struct emub_chip_desc *d = c->desc;
	const struct goodix_board *b = d->fam;
	struct goodix_model *m = g_new0(struct goodix_model, 1);
	struct goodix_model_cfg cfg;

	memset(&cfg, 0, sizeof(cfg));
	memcpy(cfg.id, b->id, sizeof(cfg.id));
	cfg.fw_version = (em_u16)b->fw_version;
	cfg.addr = b->strap ? (em_u16)b->strap : d->addr;
	if (b->config) {
		memcpy(cfg.stored, b->config->data, b->config->len);
		cfg.stored_len = (em_u16)b->config->len;
	} else if (!b->config_none) {
		goodix_model_make_config(&cfg, (em_u8)b->cfg_version, b->x, b->y,
					 (em_u8)b->touches, b->trigger);
	}
	cfg.faults.refuse_config = b->refuse_config;
	cfg.faults.config_volatile = b->config_volatile;
	cfg.faults.fixed_address = b->fixed_address;
	cfg.faults.corrupt_readback = b->corrupt_readback;
	cfg.faults.slow_factor = d->slow_factor;
	goodix_model_init(m, &cfg, 0);
	c->model = m;
	c->ops = &goodix_model_ops;
	return 0;
}

static void stats_json(struct emub_chip *c, FILE *f)
{
	struct goodix_model *m = c->model;
	const struct goodix_model_stats *s = goodix_model_stats(m);
	const guint8 *cfg;
	bool have = goodix_model_active_config(m, &cfg);

	fprintf(f,
		", \"mode\": %d, \"address\": %u, \"config_version\": %d, "
		"\"stats\": {\"resets\": %u, \"configs_applied\": %u, "
		"\"configs_bad_checksum\": %u, \"configs_old_version\": %u, "
		"\"configs_refused\": %u, \"config_writes\": %u, "
		"\"requests\": %u, \"touch_frames\": %u}",
		(int)goodix_model_mode(m), goodix_model_addr(m), have ? cfg[0] : -1, s->resets,
		s->configs_applied, s->configs_bad_checksum, s->configs_old_version,
		s->configs_refused, s->config_writes, s->requests, s->touch_frames);
}

/* Documentation/devicetree/bindings/input/touchscreen/goodix.yaml:
 * reset-gpios and irq-gpios, active high */
static void dt_props(const struct emub_chip_desc *c, struct emub_dt_node *n)
{
	if (c->reset_gpio >= 0)
		emub_dt_prop_gpio(n, "reset-gpios", c->reset_gpio, false);
	if (c->chg_gpio >= 0) {
		emub_dt_prop_gpio(n, "irq-gpios", c->chg_gpio, false);
		emub_dt_prop_irq(n, c->chg_gpio, EMUB_IRQ_TYPE_EDGE_FALLING);
	}
	if (goodix_board(c)->config_name)
		emub_dt_prop_str(n, "goodix,config-name", goodix_board(c)->config_name);
}

static bool int_level(void *model)
{
	return goodix_model_int_level(model);
}

static void int_drive(void *model, bool driven, bool level)
{
	goodix_model_set_int(model, driven, level);
}

static const struct emub_chip_model goodix = {
	.names = (const char *const[]){ "goodix", NULL },
	.keys = keys,
	.fam_size = sizeof(struct goodix_board),
	.init = init,
	.parse_key = parse_key,
	.check = check,
	.clear = clear,
	.create = create,
	.stats_json = stats_json,
	.dt_props = dt_props,
	.int_level = int_level,
	.int_drive = int_drive,
	.lines_active_high = true,
	.int_gpio = true,
};

struct goodix_model *emub_chip_goodix(struct emub *eb, const char *dev)
{
	return emub_chip_model_of(eb, dev, &goodix_model_ops);
}

static int touch(void *model, const void *pts, unsigned int n)
{
	goodix_model_touch(model, pts, (em_u8)MIN(n, 255u));
	return 0;
}

int emub_goodix_touch(struct emub *eb, const char *dev, const struct goodix_model_point *pts,
		      unsigned int n)
{
	return emub_chip_touch(eb, dev, &goodix_model_ops, touch, pts, n);
}

/* ------------------------------------------------------------ rehearsal */

/*
 * A profile's Goodix: product id from the database (default 911), the
 * firmware --fw-version gives (the one the database's configurations are
 * for; touchfw does not flash Goodix firmware), an old stored config
 * (version 0x41).  The part answers at 0x14 or 0x5d only (its INT level
 * at reset picks one): another reg is a mistake no emulated part can
 * follow.  goodix,config-name from config-name; compatible goodix,gt<id>
 * (goodix_of_match), or GDIX1001 on ACPI boards.  --bootloader changes
 * nothing: the part has no mode touchfw flashes.
 */
static int goodix_rehearse(struct emub_profile_ctl *c)
{
	const char *hw = emub_profile_hardware(c), *fw = emub_profile_fw_version(c);
	const char *cfg = emub_profile_str(c, "config-name");
	char compat[40];
	guint32 reg = 0, v;

	if (!hw)
		hw = "911";
	if (!*hw || strlen(hw) > 4)
		return emub_profile_err(c, "hardware",
					"goodix \"%s\": a product id is 1..4 characters", hw);
	emub_profile_u32(c, "reg", &reg);
	if (reg != 0x14 && reg != 0x5d)
		return emub_profile_err(c, "reg",
					"0x%02x: a Goodix part answers at 0x14 or 0x5d only "
					"(the INT level at reset release picks one)",
					(unsigned)reg);
	if (fw && !emub_parse_u32(fw, &v))
		return emub_profile_err(c, "fw-version", "goodix \"%s\" is not a number", fw);
	snprintf(compat, sizeof(compat), "goodix,gt%s", hw);
	for (char *p = compat; *p; p++)
		*p = g_ascii_tolower(*p);
	emub_profile_ident(c, "goodix", "GDIX1001", compat);
	emub_profile_key(c, "goodix.id", "%s", hw);
	if (fw)
		emub_profile_key(c, "goodix.fw_version", "%s", fw);
	emub_profile_key(c, "goodix.config_version", "0x41");
	if (cfg)
		emub_profile_key(c, "goodix.config_name", "%s", cfg);
	return 0;
}

const struct emub_family emub_family_goodix = {
	.rehearse = goodix_rehearse,
	.name = "goodix",
	.chips = (const struct emub_chip_model *const[]){ &goodix, NULL },
	.drivers = (const struct emub_driver_ops *const[]){ &emub_drv_goodix, NULL },
};
