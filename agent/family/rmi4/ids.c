// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Synaptics RMI4: the ids of drivers/input/rmi4/rmi_smbus.c (driver
 * "rmi4_smbus", id_table "rmi4_smbus"; psmouse's InterTouch usually
 * creates the client) and rmi_i2c.c (driver "rmi4_i2c", id_table
 * "rmi4_i2c", of_match "syna,rmi4-i2c").  Data only (ids.h).
 */
#include <stddef.h>

#include "family/ids.h"

static const char *const rmi4_drivers[] = { "rmi4_smbus", "rmi4_i2c", NULL };
static const char *const rmi4_compatibles[] = { "syna,rmi4-i2c", NULL };
static const char *const rmi4_acpi[] = { NULL };
static const char *const rmi4_i2c_ids[] = { "rmi4_smbus", "rmi4_i2c", NULL };

const struct tf_family_ids tf_family_ids_rmi4 = {
	.name = "rmi4",
	.description = "Synaptics RMI4 touchpads (rmi4_smbus, rmi4_i2c)",
	.drivers = rmi4_drivers,
	.compatibles = rmi4_compatibles,
	.acpi_ids = rmi4_acpi,
	.i2c_ids = rmi4_i2c_ids,
};
