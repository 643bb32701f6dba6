// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Elan touchscreens: the ids of drivers/input/touchscreen/elants_i2c.c
 * (Linux 6.1): elants_i2c_driver's name, elants_of_match,
 * elants_acpi_id, elants_i2c_id.  Data only (ids.h).
 */
#include <stddef.h>

#include "family/ids.h"

static const char *const elants_drivers[] = { "elants_i2c", NULL };
static const char *const elants_compatibles[] = { "elan,ekth3500", "elan,ektf3624", NULL };
static const char *const elants_acpi[] = { "ELAN0001", NULL };
static const char *const elants_i2c_ids[] = { "elants_i2c", "ekth3500", "ektf3624", NULL };

const struct tf_family_ids tf_family_ids_elants = {
	.name = "elants",
	.description = "Elan eKTH/eKTF touchscreens (elants_i2c)",
	.drivers = elants_drivers,
	.compatibles = elants_compatibles,
	.acpi_ids = elants_acpi,
	.i2c_ids = elants_i2c_ids,
};
