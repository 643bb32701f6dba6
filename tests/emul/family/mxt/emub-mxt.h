/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The maXTouch family's part of emuboard's API (tests/emul/README.md):
 * its chip models on a board, under emub_lock().
 */
#ifndef EMUB_MXT_H
#define EMUB_MXT_H

struct emub;
struct mxt_model;
struct mxt_model_faults;
struct mxt_spi;

/* The maXTouch model of i2c chip @dev, or NULL. */
struct mxt_model *emub_chip_mxt(struct emub *eb, const char *dev);
/* Replace the maXTouch chip faults (struct mxt_model_faults). */
int emub_set_mxt_faults(struct emub *eb, const char *dev, const struct mxt_model_faults *f);
/* The maXTouch spi personality of @dev's chip model (mxt_spi.h; its ->m
 * is the struct mxt_model), NULL if it has none. */
struct mxt_spi *emub_spi_mxt(struct emub *eb, const char *dev);

#endif /* EMUB_MXT_H */
