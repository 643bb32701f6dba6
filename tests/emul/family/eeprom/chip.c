// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The EEPROM family of the emulator: a 24Cxx EEPROM (eeprom_model) as an
 * i2c chip, at24 its driver; its board keys and statistics.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "eeprom-emul.h"
#include "eeprom_model.h"
#include "emub-eeprom.h"

static const char *const keys[] = {
	"eeprom.size", "eeprom.page", "eeprom.write_cycle_ms", "eeprom.fill", NULL,
};

static void init(struct emub_chip_desc *c)
{
	eeprom_board(c)->fill = 0xff;
}

static int parse_key(struct emub_chip_desc *c, const char *k, const char *s,
		     const struct emub_parse *p)
{
	struct eeprom_board *b = c->fam;

	if (!strcmp(k, "eeprom.size"))
		return emub_key_u32(p, k, s, 256, &b->size);
	if (!strcmp(k, "eeprom.page"))
		return emub_key_u32(p, k, s, 16, &b->page);
	if (!strcmp(k, "eeprom.write_cycle_ms"))
		return emub_key_u32(p, k, s, 1000, &b->write_cycle_ms);
	return emub_key_u32(p, k, s, 255, &b->fill);
}

static int check(struct emub_chip_desc *c, const struct emub_parse *p)
{
	if (c->reset_gpio >= 0 || c->chg_gpio >= 0)
		return emub_parse_err(p, "[%s]: an eeprom has no reset or CHG pin", p->grp);
	return 0;
}

static int create(struct emub_chip *c)
{
	const struct eeprom_board *b = c->desc->fam;
	struct eeprom_model *m = g_new0(struct eeprom_model, 1);
	struct eeprom_model_cfg cfg = {
		.addr = c->desc->addr,
		.size = (em_u16)b->size,
		.page_size = (em_u16)b->page,
		.fill = (em_u8)b->fill,
		.write_cycle_ns = (guint64)b->write_cycle_ms * 1000000,
	};

	eeprom_model_init(m, &cfg, 0);
	c->model = m;
	c->ops = &eeprom_model_ops;
	return 0;
}

static void stats_json(struct emub_chip *c, FILE *f)
{
	const struct eeprom_model_stats *s = eeprom_model_stats(c->model);

	fprintf(f,
		", \"stats\": {\"write_cycles\": %u, \"bytes_written\": %u, "
		"\"busy_naks\": %u, \"discarded\": %u}",
		s->write_cycles, s->bytes_written, s->busy_naks, s->discarded);
}

static const struct emub_chip_model eeprom = {
	.names = (const char *const[]){ "eeprom", NULL },
	.keys = keys,
	.fam_size = sizeof(struct eeprom_board),
	.init = init,
	.parse_key = parse_key,
	.check = check,
	.create = create,
	.stats_json = stats_json,
};

struct eeprom_model *emub_chip_eeprom(struct emub *eb, const char *dev)
{
	return emub_chip_model_of(eb, dev, &eeprom_model_ops);
}

const struct emub_family emub_family_eeprom = {
	.name = "eeprom",
	.chips = (const struct emub_chip_model *const[]){ &eeprom, NULL },
	.drivers = (const struct emub_driver_ops *const[]){ &emub_drv_at24, NULL },
};
