/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Elan HID touchpad family's part of emuboard's API. */
#ifndef EMUB_ELANHID_H
#define EMUB_ELANHID_H

#include <stdbool.h>

struct emub;
struct elanhid_model;

/* The Elan HID touchpad model of chip @dev, or NULL; under emub_lock(). */
struct elanhid_model *emub_chip_elanhid(struct emub *eb, const char *dev);
/* A finger on chip @dev's pad (elanhid_model_touch), its interrupt seen by
 * whoever reads it (the model's stats count the reports read): 0, -ENODEV
 * (no such chip) or -EIO (no application running). */
int emub_elanhid_touch(struct emub *eb, const char *dev, unsigned contact, unsigned x,
		       unsigned y, bool down);

#endif /* EMUB_ELANHID_H */
