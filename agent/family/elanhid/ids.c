// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Elan touchpads behind i2c-hid: the ids of drivers/hid/i2c-hid/
 * i2c-hid-of.c (the driver "i2c_hid_of", of_match "hid-over-i2c", i2c ids
 * "hid" and "hid-over-i2c") and i2c-hid-acpi.c ("i2c_hid_acpi", ACPI
 * ACPI0C50 / PNP0C50, usually the _CID of a vendor _HID: the modalias
 * acpi:ELAN0xxx:PNP0C50: matches too).  These ids name the protocol, not
 * the vendor: every HID-over-I2C touchpad and touchscreen carries them, so
 * the family identifies the part from the chip before it touches anything
 * (detect).  Data only (ids.h).
 */
#include <stddef.h>

#include "family/ids.h"

static const char *const elanhid_drivers[] = { "i2c_hid_of", "i2c_hid_acpi", NULL };
static const char *const elanhid_compatibles[] = { "hid-over-i2c", NULL };
static const char *const elanhid_acpi[] = { "PNP0C50", "ACPI0C50", NULL };
static const char *const elanhid_i2c_ids[] = { "hid-over-i2c", "hid", NULL };

const struct tf_family_ids tf_family_ids_elanhid = {
	.name = "elanhid",
	.description = "Elan HID-over-I2C touchpads (i2c_hid, hid-multitouch)",
	.drivers = elanhid_drivers,
	.compatibles = elanhid_compatibles,
	.acpi_ids = elanhid_acpi,
	.i2c_ids = elanhid_i2c_ids,
	/* i2c_hid's probe fails on a part whose HID descriptor is not
	 * valid (i2c_hid_fetch_hid_descriptor): one left in IAP. */
	.probe_fails_in_bootloader = true,
};
