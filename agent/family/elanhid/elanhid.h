/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Elan touchpads that speak HID over I2C, served by i2c_hid (i2c-hid-of,
 * i2c-hid-acpi) and hid-multitouch.  A working part is left to them (its
 * application is updated through hidraw, which fwupd's elantp plugin
 * does); touchfw recovers a part left in IAP -- whose HID descriptor i2c_hid
 * refuses, so no driver binds and no hidraw node appears -- over i2c-dev,
 * where the board profile allows bus recovery, after identifying it as an
 * Elan IAP from more than its answer to the IAP password.
 */
#ifndef TF_ELANHID_H
#define TF_ELANHID_H

#include "family/family.h"

extern const struct tf_family_ids tf_family_ids_elanhid;
extern const struct tf_family_ops elanhid_ops;

#endif /* TF_ELANHID_H */
