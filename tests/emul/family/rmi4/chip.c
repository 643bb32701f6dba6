// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Synaptics RMI4 family of the emulator: an RMI4 touchpad on SMBus
 * (rmi4_model: F01, F34 v7 bootloader, F11 or F12) whose interrupt is SMBus Host
 * Notify (the adapter needs `host_notify`), or on plain I2C (`rmi4.bus =
 * i2c`: page select, a level interrupt on its INT line), with the F34 v5
 * bootloader instead of v7 (`rmi4.bootloader = 5`); rmi4_smbus and
 * rmi4_i2c its drivers (drv_rmi_smbus.c: rmi_smbus or rmi_i2c + rmi_core);
 * its board keys and statistics.
 * The real drivers judge the same model in the VM tests
 * (tests/vm/modules/rmi4-emul).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emub-priv.h"
#include "emub-rmi4.h"
#include "rmi4_model.h"

extern const struct emub_driver_ops emub_drv_rmi_smbus, emub_drv_rmi_i2c;

/* desc->fam */
struct rmi4_board {
	char product_id[RMI4_MODEL_PRODUCT_MAX + 1];
	guint32 build_id; /* 0: no application, the chip in its bootloader */
	guint32 config_id;
	guint32 power_loss; /* fault.flash_power_loss: block count, 0 never */
	guint8 touch_fn;    /* rmi4.touch: 0x11 (F11) or 0x12 (F12) */
	guint8 bus;	    /* rmi4.bus: RMI4_MODEL_SMBUS or RMI4_MODEL_I2C */
	guint8 bl_major;    /* rmi4.bootloader: 7 (default) or 5 */
};

static const char *const keys[] = {
	"rmi4.product_id", "rmi4.build_id",   "rmi4.config_id",		"rmi4.touch",
	"rmi4.bus",	   "rmi4.bootloader", "fault.flash_power_loss", NULL,
};

static void init(struct emub_chip_desc *c)
{
	struct rmi4_board *b = c->fam;

	g_strlcpy(b->product_id, "s3203", sizeof(b->product_id));
	b->build_id = 0x1e0f00;
	b->config_id = 0x1a2b3c4d;
	b->touch_fn = 0x11;
	b->bl_major = 7;
}

static int parse_key(struct emub_chip_desc *c, const char *k, const char *s,
		     const struct emub_parse *p)
{
	struct rmi4_board *b = c->fam;

	if (!strcmp(k, "rmi4.product_id")) {
		if (!*s || strlen(s) > RMI4_MODEL_PRODUCT_MAX)
			return emub_parse_err(p, "[%s] %s: \"%s\" is not 1..%d characters",
					      p->grp, k, s, RMI4_MODEL_PRODUCT_MAX);
		g_strlcpy(b->product_id, s, sizeof(b->product_id));
		return 0;
	}
	if (!strcmp(k, "rmi4.build_id"))
		return emub_key_u32(p, k, s, 0xffffff, &b->build_id);
	if (!strcmp(k, "rmi4.config_id"))
		return emub_key_u32(p, k, s, 0xffffffff, &b->config_id);
	if (!strcmp(k, "rmi4.touch")) {
		if (strcmp(s, "f11") && strcmp(s, "f12"))
			return emub_parse_err(p, "[%s] %s: \"%s\" is neither f11 nor f12",
					      p->grp, k, s);
		b->touch_fn = !strcmp(s, "f12") ? 0x12 : 0x11;
		return 0;
	}
	if (!strcmp(k, "rmi4.bus")) {
		if (strcmp(s, "smbus") && strcmp(s, "i2c"))
			return emub_parse_err(p, "[%s] %s: \"%s\" is neither smbus nor i2c",
					      p->grp, k, s);
		b->bus = !strcmp(s, "i2c") ? RMI4_MODEL_I2C : RMI4_MODEL_SMBUS;
		return 0;
	}
	if (!strcmp(k, "rmi4.bootloader")) {
		if (strcmp(s, "5") && strcmp(s, "7"))
			return emub_parse_err(p, "[%s] %s: \"%s\" is neither 5 nor 7", p->grp,
					      k, s);
		b->bl_major = (guint8)(s[0] - '0');
		return 0;
	}
	return emub_key_u32(p, k, s, RMI4_MODEL_FLASH_BLOCKS, &b->power_loss);
}

static int create(struct emub_chip *c)
{
	const struct rmi4_board *b = c->desc->fam;
	struct rmi4_model *m = g_new0(struct rmi4_model, 1);
	struct rmi4_model_cfg cfg = {
		.addr = c->desc->addr,
		.build_id = b->build_id,
		.config_id = b->config_id,
		.smb_version = 2,
		.bl_major = b->bl_major,
		.power_loss_block = b->power_loss,
		.touch_fn = b->touch_fn,
		.bus = b->bus,
	};

	g_strlcpy(cfg.product_id, b->product_id, sizeof(cfg.product_id));
	rmi4_model_init(m, &cfg);
	c->model = m;
	c->ops = &rmi4_model_ops;
	return 0;
}

static void stats_json(struct emub_chip *c, FILE *f)
{
	struct rmi4_model *m = c->model;
	const struct rmi4_model_stats *s = rmi4_model_stats(m);

	fprintf(f,
		", \"mode\": %d, \"build_id\": %u, \"stats\": "
		"{\"bl_entries\": %u, \"blocks_written\": %u, \"erases\": %u, \"notifies\": %u}",
		(int)rmi4_model_mode(m), rmi4_model_build_id(m), s->bl_entries,
		s->blocks_written, s->erases, s->notifies);
}

static const struct emub_chip_model rmi4 = {
	.names = (const char *const[]){ "rmi4", NULL },
	.keys = keys,
	.fam_size = sizeof(struct rmi4_board),
	.init = init,
	.parse_key = parse_key,
	.create = create,
	.stats_json = stats_json,
};

struct rmi4_model *emub_chip_rmi4(struct emub *eb, const char *dev)
{
	return emub_chip_model_of(eb, dev, &rmi4_model_ops);
}

const struct emub_family emub_family_rmi4 = {
	.name = "rmi4",
	.chips = (const struct emub_chip_model *const[]){ &rmi4, NULL },
	.drivers = (const struct emub_driver_ops *const[]){ &emub_drv_rmi_smbus,
							    &emub_drv_rmi_i2c, NULL },
};
