/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the Goodix family of the emulator: a GT9xx/GT1x [chip NAME]
 * (chip.c) and the Goodix-TS driver model (drv_goodix.c).
 */
#ifndef GOODIX_EMUL_H
#define GOODIX_EMUL_H

#include "emub-priv.h"

/* desc->fam of a goodix [chip NAME]; its chg_gpio is the INT pin, both ways */
struct goodix_board {
	char id[4]; /* product id bytes, NUL-padded */
	bool has_id;
	guint32 fw_version;
	guint32 strap;	    /* address without INT driven at reset; 0 = address */
	GByteArray *config; /* goodix.config file contents; NULL: made up */
	bool config_none;   /* goodix.config = none */
	guint32 cfg_version, touches;
	guint8 trigger;
	guint16 x, y;
	char *config_name; /* DT "goodix,config-name" */
	bool refuse_config, config_volatile, fixed_address, corrupt_readback;
};

static inline struct goodix_board *goodix_board(const struct emub_chip_desc *c)
{
	return c->fam;
}

extern const struct emub_driver_ops emub_drv_goodix;

#endif /* GOODIX_EMUL_H */
