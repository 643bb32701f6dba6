/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Elan touchpad family's part of emuboard's API. */
#ifndef EMUB_ELANTP_H
#define EMUB_ELANTP_H

struct emub;
struct elantp_model;

/* The Elan touchpad model of chip @dev, or NULL; under emub_lock(). */
struct elantp_model *emub_chip_elantp(struct emub *eb, const char *dev);

#endif /* EMUB_ELANTP_H */
