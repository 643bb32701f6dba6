/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Cypress trackpad family's part of emuboard's API. */
#ifndef EMUB_CYAPA_H
#define EMUB_CYAPA_H

struct emub;
struct cyapa_model;
struct cyapa_pip_model;
struct cyapa_model_touch;

/* The Cypress trackpad model of chip @dev, or NULL; under emub_lock(). */
struct cyapa_model *emub_chip_cyapa(struct emub *eb, const char *dev);
/* The Gen5 (PIP) trackpad model of chip @dev, or NULL; under emub_lock(). */
struct cyapa_pip_model *emub_chip_cyapa_pip(struct emub *eb, const char *dev);
/* The trackpad reports a frame of @n touches (cyapa_model_touch) and
 * raises its interrupt: 0, -EAGAIN when it senses nothing (bootloader,
 * power mode off), -ENODEV. */
int emub_cyapa_touch(struct emub *eb, const char *dev, const struct cyapa_model_touch *t,
		     unsigned int n);

#endif /* EMUB_CYAPA_H */
