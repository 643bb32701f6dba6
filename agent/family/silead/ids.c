// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Silead ids: the kernel driver as sysfs names it (silead_ts_driver's
 * driver.name "silead_ts", module silead) and the ids of its match tables
 * (drivers/input/touchscreen/silead.c, Linux 6.1: silead_ts_of_match,
 * silead_ts_acpi_match, silead_ts_id), as uevents carry them.  Its probe
 * loads a firmware file into the flashless chip and fails without it, so
 * a tablet without the file shows only the device's add.  Front-end safe:
 * data only (ids.h).
 */
#include <stddef.h>

#include "family/ids.h"

static const char *const silead_drivers[] = { "silead_ts", NULL };
static const char *const silead_compatibles[] = {
	"silead,gsl1680", "silead,gsl1688", "silead,gsl3670",
	"silead,gsl3675", "silead,gsl3692", NULL,
};
static const char *const silead_acpi[] = {
	"GSL1680",  "GSL1688",	"GSL3670",  "GSL3675",	"GSL3692",
	"MSSL1680", "MSSL0001", "MSSL0002", "MSSL0017", NULL,
};
static const char *const silead_i2c_ids[] = {
	"gsl1680", "gsl1688", "gsl3670", "gsl3675", "gsl3692", "mssl1680", NULL,
};

const struct tf_family_ids tf_family_ids_silead = {
	.name = "silead",
	.description = "Silead GSL1680 family (flashless)",
	.drivers = silead_drivers,
	.compatibles = silead_compatibles,
	.acpi_ids = silead_acpi,
	.i2c_ids = silead_i2c_ids,
	.probe_needs_file = true,
};
