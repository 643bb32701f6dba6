// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Silead family of the emulator: a GSL1680 (silead_model) as an i2c
 * chip, silead_ts its driver; its board keys, device-tree properties,
 * statistics and touches.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emub-silead.h"
#include "silead-emul.h"
#include "silead_model.h"

static const char *const keys[] = {
	"power_gpio",
	"silead.id",
	"silead.firmware",
	"silead.firmware_seed",
	"silead.firmware_name",
	"silead.max_fingers",
	"fault.never_starts",
	"fault.stops",
	NULL,
};

static int parse_key(struct emub_chip_desc *c, const char *k, const char *s,
		     const struct emub_parse *p)
{
	struct silead_board *b = c->fam;
	int r = 0;

	if (!strcmp(k, "power_gpio"))
		return emub_key_gpio_line(p, k, s, &c->reset_gpio);
	if (!strcmp(k, "silead.id"))
		return emub_key_u32(p, k, s, 0xffffffffu, &b->id);
	if (!strcmp(k, "silead.firmware")) {
		gchar *buf = NULL;
		gsize n = 0;

		r = emub_key_file(p, k, s, &buf, &n);
		if (!r) {
			struct silead_model_ram *ram = g_new0(struct silead_model_ram, 1);

			if (!silead_model_fw_digest((const em_u8 *)buf, n, ram, &b->expected))
				r = emub_parse_err(
					p,
					"[%s] silead.firmware: %s: not (register, value) "
					"pairs a Silead chip takes",
					p->grp, s);
			b->has_expected = true;
			g_free(ram);
		}
		g_free(buf);
		return r;
	}
	if (!strcmp(k, "silead.firmware_seed")) {
		/* silead_model_make_fw(SEED, PAGES): fwgen silead-fw's file */
		guint32 seed, pages = 4;
		char **l = g_strsplit(s, "/", 2);

		if (!l[0] || !emub_parse_u32(l[0], &seed) ||
		    (l[1] && (!emub_parse_u32(l[1], &pages) || pages < 1 || pages > 256))) {
			r = emub_parse_err(
				p,
				"[%s] silead.firmware_seed: \"%s\" is not SEED or SEED/PAGES",
				p->grp, s);
		} else {
			gsize cap = (gsize)pages * 33 * 8;
			em_u8 *buf = g_malloc(cap);
			struct silead_model_ram *ram = g_new0(struct silead_model_ram, 1);
			size_t n = silead_model_make_fw(seed, pages, buf, cap);

			silead_model_fw_digest(buf, n, ram, &b->expected);
			b->has_expected = true;
			g_free(ram);
			g_free(buf);
		}
		g_strfreev(l);
		return r;
	}
	if (!strcmp(k, "silead.firmware_name")) {
		g_free(b->firmware_name);
		b->firmware_name = g_strdup(s);
		return 0;
	}
	if (!strcmp(k, "silead.max_fingers"))
		return emub_key_u32(p, k, s, 10, &b->max_fingers);
	if (!strcmp(k, "fault.stops"))
		return emub_key_bool(p, k, s, &b->stops);
	return emub_key_bool(p, k, s, &b->never_starts);
}

static int check(struct emub_chip_desc *c, const struct emub_parse *p)
{
	(void)p;
	if (!silead_board(c)->id)
		silead_board(c)->id = 0x80360000u; /* an example id; silead.c only logs it */
	return 0;
}

static void clear(struct emub_chip_desc *c)
{
	g_free(silead_board(c)->firmware_name);
}

static int create(struct emub_chip *c)
{
	const struct silead_board *b = c->desc->fam;
	struct silead_model *m = g_new0(struct silead_model, 1);
	struct silead_model_cfg cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.addr = c->desc->addr;
	cfg.chip_id = b->id;
	cfg.has_expected = b->has_expected;
	cfg.expected = b->expected;
	cfg.faults.never_starts = b->never_starts;
	cfg.faults.stops = b->stops;
	silead_model_init(m, &cfg, 0);
	c->model = m;
	c->ops = &silead_model_ops;
	return 0;
}

static void stats_json(struct emub_chip *c, FILE *f)
{
	struct silead_model *m = c->model;
	const struct silead_model_stats *s = silead_model_stats(m);

	fprintf(f,
		", \"running\": %s, \"program_ok\": %s, \"stats\": "
		"{\"power_ups\": %u, \"resets\": %u, \"starts\": %u, "
		"\"words_written\": %u, \"pages_selected\": %u, "
		"\"bad_writes\": %u, \"frames_read\": %u, \"touches_lost\": %u}",
		silead_model_running(m) ? "true" : "false",
		silead_model_program_ok(m) ? "true" : "false", s->power_ups, s->resets,
		s->starts, s->words_written, s->pages_selected, s->bad_writes, s->frames_read,
		s->touches_lost);
}

/* touchscreen.yaml, silead,gsl1680.yaml */
static void dt_props(const struct emub_chip_desc *c, struct emub_dt_node *n)
{
	const struct silead_board *b = c->fam;

	emub_dt_touchscreen_props(c, n);
	if (b->firmware_name)
		emub_dt_prop_str(n, "firmware-name", b->firmware_name);
	if (b->max_fingers)
		emub_dt_prop_u32(n, "silead,max-fingers", b->max_fingers);
	if (c->reset_gpio < 0) {
		if (c->chg_gpio >= 0)
			emub_dt_prop_irq(n, c->chg_gpio,
					 c->irq_level ? EMUB_IRQ_TYPE_LEVEL_LOW
						      : EMUB_IRQ_TYPE_EDGE_FALLING);
		return;
	}
	emub_dt_prop_gpio(n, "power-gpios", c->reset_gpio, false);
	if (c->chg_gpio >= 0)
		emub_dt_prop_irq(n, c->chg_gpio, EMUB_IRQ_TYPE_EDGE_FALLING);
}

static const struct emub_chip_model silead = {
	.names = (const char *const[]){ "silead", NULL },
	.keys = keys,
	.fam_size = sizeof(struct silead_board),
	.parse_key = parse_key,
	.check = check,
	.clear = clear,
	.create = create,
	.stats_json = stats_json,
	.dt_props = dt_props,
};

struct silead_model *emub_chip_silead(struct emub *eb, const char *dev)
{
	return emub_chip_model_of(eb, dev, &silead_model_ops);
}

static int touch(void *model, const void *pts, unsigned int n)
{
	return silead_model_touch(model, pts, (em_u8)MIN(n, 255u)) ? 0 : -EAGAIN;
}

int emub_silead_touch(struct emub *eb, const char *dev, const struct silead_model_point *pts,
		      unsigned int n)
{
	return emub_chip_touch(eb, dev, &silead_model_ops, touch, pts, n);
}

/* ------------------------------------------------------------ rehearsal */

/*
 * A profile's Silead: a chip that, like every one at power-up, holds no
 * program (silead_ts loads one at each probe); it runs any program it is
 * given (the panel's own file is not known from a profile).  The reset
 * line of a profile is silead_ts's power GPIO; config-name is the
 * firmware-name the driver requests (silead/NAME).  ACPI boards enumerate
 * it as MSSL1680, others get compatible silead,<hardware> (default
 * gsl1680).  --bootloader changes nothing: the chip has no such mode.
 */
static int silead_rehearse(struct emub_profile_ctl *c)
{
	const char *hw = emub_profile_hardware(c), *cfg = emub_profile_str(c, "config-name");
	char *compat = g_strdup_printf("silead,%s", hw ? hw : "gsl1680");

	emub_profile_ident(c, "silead", "MSSL1680", compat);
	g_free(compat);
	if (cfg)
		emub_profile_key(c, "silead.firmware_name", "%s", cfg);
	return 0;
}

const struct emub_family emub_family_silead = {
	.rehearse = silead_rehearse,
	.name = "silead",
	.chips = (const struct emub_chip_model *const[]){ &silead, NULL },
	.drivers = (const struct emub_driver_ops *const[]){ &emub_drv_silead, NULL },
};
