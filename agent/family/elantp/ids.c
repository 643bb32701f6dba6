// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Elan touchpads: the ids of drivers/input/mouse/elan_i2c_core.c: the
 * driver's name, its id_table ("elan_i2c"), elan_of_match
 * ("elan,ekth6915") and elan_acpi_id (include/linux/input/
 * elan-i2c-ids.h).  Data only (ids.h).
 */
#include <stddef.h>

#include "family/ids.h"

static const char *const elantp_drivers[] = { "elan_i2c", NULL };
static const char *const elantp_compatibles[] = { "elan,ekth6915", NULL };
static const char *const elantp_acpi[] = {
	"ELAN0000", "ELAN0100", "ELAN0600", "ELAN0601", "ELAN0602", "ELAN0603", "ELAN0604",
	"ELAN0605", "ELAN0606", "ELAN0607", "ELAN0608", "ELAN0609", "ELAN060B", "ELAN060C",
	"ELAN060F", "ELAN0610", "ELAN0611", "ELAN0612", "ELAN0615", "ELAN0616", "ELAN0617",
	"ELAN0618", "ELAN0619", "ELAN061A", "ELAN061B", "ELAN061C", "ELAN061D", "ELAN061E",
	"ELAN061F", "ELAN0620", "ELAN0621", "ELAN0622", "ELAN0623", "ELAN0624", "ELAN0625",
	"ELAN0626", "ELAN0627", "ELAN0628", "ELAN0629", "ELAN062A", "ELAN062B", "ELAN062C",
	"ELAN062D", "ELAN0631", "ELAN0632", "ELAN1000", NULL,
};
static const char *const elantp_i2c_ids[] = { "elan_i2c", NULL };

const struct tf_family_ids tf_family_ids_elantp = {
	.name = "elantp",
	.description = "Elan i2c touchpads (elan_i2c)",
	.drivers = elantp_drivers,
	.compatibles = elantp_compatibles,
	.acpi_ids = elantp_acpi,
	.i2c_ids = elantp_i2c_ids,
	/* elan_probe fails on a touchpad in IAP (its queries are refused). */
	.probe_fails_in_bootloader = true,
};
