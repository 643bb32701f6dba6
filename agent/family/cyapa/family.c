// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Cypress trackpad family (cyapa) as the registry sees it.  The driver
 * flashes, from a file whose name is written to update_fw, a trackpad in
 * its application and one left in its bootloader alike (it binds both);
 * afterwards it detects the part again and registers a new input device
 * by itself, so no rebind.  touchfw writes nothing over the bus.
 * Versions are the driver's firmware_version, "%d.%d": dotted.  Hardware
 * is the product id it prints ("CYTRA-116002-00"), which the image does
 * not carry: the manifest names it, and a part in its bootloader (which
 * shows none) is matched by the id remembered from its application.
 * Gen3, Gen5 and Gen6 parts: detection refuses any other generation
 * before anything is sent, and an image of another generation than the
 * trackpad's is not sent.
 */
#include "cyapa.h"

#include <errno.h>
#include <string.h>

static int cyapa_check_controller(const struct tf_controller *ctl, char *msg, size_t size)
{
	if (strcmp(ctl->bus, "i2c"))
		return tf_snprintf(msg, size, "bus %s: cyapa serves i2c devices only",
				   ctl->bus),
		       -EINVAL;
	return 0;
}

const struct tf_family tf_family_cyapa = {
	.ids = &tf_family_ids_cyapa,
	.flash_firmware_files = "the image cyapa flashes (.bin: Gen3, 30848 bytes, or Gen5/Gen6 PIP)",
	.check_blob = cyapa_check_blob,
	.check_blob_data = cyapa_check_blob_data,
	.blob_facts = cyapa_blob_facts,
	.check_controller = cyapa_check_controller,
	.firmware_source = "ChromeOS images of Cypress trackpads "
			   "(CYTRA-<product>_<version>.bin, linked as cyapa.bin)",
	.unproven = "that the image suits this trackpad beyond its product id (the image "
		    "does not name its product: the database does)",
	.caps = {
		.transports = TF_TRANSPORT_I2C,
		/* cyapa binds a part in its bootloader and flashes it from
		 * there (the update path chooses update_fw). */
		.bootloader_mode = true,
		.kernel_fw_attr = CYAPA_UPDATE_ATTR,
		.kernel_fw_value = CYAPA_FW_NAME,
	},
	.ops = &cyapa_ops,
};
