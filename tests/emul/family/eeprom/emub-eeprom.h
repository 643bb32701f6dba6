/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The EEPROM family's part of emuboard's API: its model, under emub_lock(). */
#ifndef EMUB_EEPROM_H
#define EMUB_EEPROM_H

struct emub;
struct eeprom_model;

/* The EEPROM model of chip @dev, or NULL. */
struct eeprom_model *emub_chip_eeprom(struct emub *eb, const char *dev);

#endif /* EMUB_EEPROM_H */
