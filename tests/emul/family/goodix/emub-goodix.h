/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Goodix family's part of emuboard's API (tests/emul/README.md). */
#ifndef EMUB_GOODIX_H
#define EMUB_GOODIX_H

struct emub;
struct goodix_model;
struct goodix_model_point;

/* The Goodix model of chip @dev, or NULL; under emub_lock(). */
struct goodix_model *emub_chip_goodix(struct emub *eb, const char *dev);
/* A Goodix chip reports a touch frame (goodix_model_touch) and raises INT:
 * a bound Goodix-TS runs its interrupt handler. */
int emub_goodix_touch(struct emub *eb, const char *dev, const struct goodix_model_point *pts,
		      unsigned int n);

#endif /* EMUB_GOODIX_H */
