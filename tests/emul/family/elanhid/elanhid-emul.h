/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the Elan HID touchpad family of the emulator: the touchpad
 * [chip NAME] (chip.c) and the i2c_hid driver models (drv_i2c_hid.c).
 */
#ifndef ELANHID_EMUL_H
#define ELANHID_EMUL_H

#include "emub-priv.h"

/* The HID descriptor register the chip's firmware node gives i2c_hid:
 * ACPI's _DSM or DT's hid-descr-addr (elanhid.desc_reg, 0x0001). */
guint16 elanhid_desc_reg(const struct emub_chip_desc *c);

extern const struct emub_driver_ops emub_drv_i2c_hid_of;
extern const struct emub_driver_ops emub_drv_i2c_hid_acpi;

#endif /* ELANHID_EMUL_H */
