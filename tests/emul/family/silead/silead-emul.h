/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the Silead family of the emulator: a GSL1680 [chip NAME]
 * (chip.c) and the silead_ts driver model (drv_silead.c).
 */
#ifndef SILEAD_EMUL_H
#define SILEAD_EMUL_H

#include "emub-priv.h"

/* desc->fam of a silead [chip NAME]; its reset_gpio is the "power"
 * (shutdown) pin, active high */
struct silead_board {
	guint32 id;
	bool has_expected;
	guint64 expected;    /* digest of the program the panel needs */
	char *firmware_name; /* "firmware-name" property */
	guint32 max_fingers; /* "silead,max-fingers", 0 = absent */
	bool never_starts;
	bool stops; /* fault.stops: the program stops after it started */
};

static inline struct silead_board *silead_board(const struct emub_chip_desc *c)
{
	return c->fam;
}

extern const struct emub_driver_ops emub_drv_silead;

#endif /* SILEAD_EMUL_H */
