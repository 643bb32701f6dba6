// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Goodix ids: the kernel driver as sysfs names it (goodix_ts_driver's
 * driver.name "Goodix-TS", module goodix_ts) and the ids of its match
 * tables (drivers/input/touchscreen/goodix.c: goodix_of_match,
 * goodix_acpi_match, goodix_ts_id; Linux 6.1, plus the ACPI ids GDIX1003
 * and GDX9110 that 6.12 added), as uevents carry them.  Front-end
 * safe: data only (ids.h).
 */
#include <stddef.h>

#include "family/ids.h"

static const char *const goodix_drivers[] = { "Goodix-TS", NULL };
static const char *const goodix_compatibles[] = {
	"goodix,gt1151", "goodix,gt1158", "goodix,gt5663", "goodix,gt5688", "goodix,gt911",
	"goodix,gt9110", "goodix,gt912",  "goodix,gt9147", "goodix,gt917s", "goodix,gt927",
	"goodix,gt9271", "goodix,gt928",  "goodix,gt9286", "goodix,gt967",  NULL,
};
static const char *const goodix_acpi[] = { "GDIX1001", "GDIX1002", "GDIX1003", "GDX9110",
					   NULL };
static const char *const goodix_i2c_ids[] = { "GDIX1001:00", NULL };

const struct tf_family_ids tf_family_ids_goodix = {
	.name = "goodix",
	.description = "Goodix GT9xx / GT1x",
	.drivers = goodix_drivers,
	.compatibles = goodix_compatibles,
	.acpi_ids = goodix_acpi,
	.i2c_ids = goodix_i2c_ids,
};
