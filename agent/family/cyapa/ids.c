// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Cypress APA trackpads: the ids of drivers/input/mouse/cyapa.c: the
 * driver's name ("cyapa"; Debian's module is cyapatp.ko), its id_table
 * ("cyapa"), cyapa_of_match ("cypress,cyapa") and cyapa_acpi_id
 * (CYAP0000 Gen3 at 0x67, CYAP0001 Gen5 and CYAP0002 Gen6 at 0x24).
 * Data only (ids.h).
 */
#include <stddef.h>

#include "family/ids.h"

static const char *const cyapa_drivers[] = { "cyapa", NULL };
static const char *const cyapa_compatibles[] = { "cypress,cyapa", NULL };
static const char *const cyapa_acpi[] = { "CYAP0000", "CYAP0001", "CYAP0002", NULL };
static const char *const cyapa_i2c_ids[] = { "cyapa", NULL };

const struct tf_family_ids tf_family_ids_cyapa = {
	.name = "cyapa",
	.description = "Cypress APA i2c trackpads (cyapa)",
	.drivers = cyapa_drivers,
	.compatibles = cyapa_compatibles,
	.acpi_ids = cyapa_acpi,
	.i2c_ids = cyapa_i2c_ids,
	/* cyapa binds a trackpad in its bootloader too (cyapa_detect): the
	 * bind event comes either way. */
};
