/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Elan touchscreen family's part of emuboard's API. */
#ifndef EMUB_ELANTS_H
#define EMUB_ELANTS_H

struct emub;
struct elants_model;

/* The Elan touchscreen model of chip @dev, or NULL; under emub_lock(). */
struct elants_model *emub_chip_elants(struct emub *eb, const char *dev);

#endif /* EMUB_ELANTS_H */
