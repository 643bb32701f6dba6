/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the EEPROM family of the emulator: an [chip NAME] with model =
 * eeprom (chip.c) and the at24 driver model (drv_at24.c).
 */
#ifndef EEPROM_EMUL_H
#define EEPROM_EMUL_H

#include "emub-priv.h"

/* desc->fam of an eeprom [chip NAME] */
struct eeprom_board {
	guint32 size, page, write_cycle_ms, fill;
};

static inline struct eeprom_board *eeprom_board(const struct emub_chip_desc *c)
{
	return c->fam;
}

extern const struct emub_driver_ops emub_drv_at24;

#endif /* EEPROM_EMUL_H */
