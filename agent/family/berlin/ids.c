// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Goodix Berlin ids: the kernel's spi driver as sysfs names it
 * (goodix_berlin_spi_driver's driver.name "goodix-berlin-spi", module
 * goodix_berlin_spi) and its match tables (drivers/input/touchscreen/
 * goodix_berlin_spi.c: goodix_berlin_spi_of_match, goodix_berlin_spi_ids),
 * as uevents carry them.  Its probe fails on a chip without firmware
 * (goodix_berlin_core.c: the version and chip info must check), so no
 * bind follows the add of an empty chip: touchfw acts on that add.
 * Front-end safe: data only (ids.h).
 */
#include <stddef.h>

#include "family/ids.h"

static const char *const berlin_drivers[] = { "goodix-berlin-spi", NULL };
static const char *const berlin_compatibles[] = { "goodix,gt9916", NULL };
static const char *const berlin_spi_ids[] = { "gt9916", NULL };

const struct tf_family_ids tf_family_ids_berlin = {
	.name = "berlin",
	.description = "Goodix Berlin (GT9916) over spi",
	.drivers = berlin_drivers,
	.compatibles = berlin_compatibles,
	.spi_ids = berlin_spi_ids,
	.probe_needs_file = true,
};
