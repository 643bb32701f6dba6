/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Silead family's part of emuboard's API (tests/emul/README.md). */
#ifndef EMUB_SILEAD_H
#define EMUB_SILEAD_H

struct emub;
struct silead_model;
struct silead_model_point;

/* The Silead model of chip @dev, or NULL; under emub_lock(). */
struct silead_model *emub_chip_silead(struct emub *eb, const char *dev);
/* A Silead chip reports a touch frame (silead_model_touch) and raises its
 * interrupt: 0, -EAGAIN when the chip reported nothing (no program, or not
 * the one the board expects), -ENODEV. */
int emub_silead_touch(struct emub *eb, const char *dev, const struct silead_model_point *pts,
		      unsigned int n);

#endif /* EMUB_SILEAD_H */
