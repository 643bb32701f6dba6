/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Goodix Berlin family's part of emuboard's API. */
#ifndef EMUB_BERLIN_H
#define EMUB_BERLIN_H

struct emub;
struct berlin_model;

/* The Goodix Berlin model of @dev's chip (berlin_model.h), NULL if it has
 * none.  Hold emub_lock(). */
struct berlin_model *emub_spi_berlin(struct emub *eb, const char *dev);

#endif /* EMUB_BERLIN_H */
