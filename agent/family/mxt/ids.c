// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maXTouch ids: the kernel driver and the ids of its match tables
 * (drivers/input/touchscreen/atmel_mxt_ts.c: mxt_of_match, mxt_acpi_id,
 * mxt_id), as uevents carry them.  Front-end safe: data only (ids.h).
 */
#include <stddef.h>

#include "family/ids.h"

/* mchp_spi_ts: Microchip's spi driver (atmel-maxtouch/maXTouch_SPI_linux) */
static const char *const mxt_drivers[] = { "atmel_mxt_ts", "mchp_spi_ts", NULL };
static const char *const mxt_compatibles[] = {
	"atmel,maxtouch",     "atmel,qt602240_ts", "atmel,atmel_mxt_ts",
	"atmel,atmel_mxt_tp", "atmel,mXT224",	   NULL,
};
static const char *const mxt_acpi[] = { "ATML0000", "ATML0001", NULL };
/* i2c_device_id names: clients made by new_device or board files. */
static const char *const mxt_i2c_ids[] = { "qt602240_ts", "atmel_mxt_ts", "atmel_mxt_tp",
					   "maxtouch",	  "mXT224",	  NULL };

const struct tf_family_ids tf_family_ids_mxt = {
	.name = "mxt",
	.description = "Microchip (Atmel) maXTouch",
	.drivers = mxt_drivers,
	.compatibles = mxt_compatibles,
	.acpi_ids = mxt_acpi,
	.i2c_ids = mxt_i2c_ids,
};
