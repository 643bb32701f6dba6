/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The Synaptics RMI4 family's part of emuboard's API. */
#ifndef EMUB_RMI4_H
#define EMUB_RMI4_H

struct emub;
struct rmi4_model;

/* The RMI4 model of chip @dev, or NULL; under emub_lock(). */
struct rmi4_model *emub_chip_rmi4(struct emub *eb, const char *dev);

#endif /* EMUB_RMI4_H */
