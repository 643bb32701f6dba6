// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Synaptics RMI4 family (rmi_core over rmi_smbus or rmi_i2c) as the
 * registry sees it.  The driver binds a chip in either mode and flashes it
 * through update_fw on its RMI device rmi4-NN, with the file whose name is
 * written there (the update path's driver_fw_write, rmi4-ops.c); touchfw
 * never flashes over the bus.  Versions are F01's build id, firmware_id
 * ("%d"): one decimal number, dotted.  After an update the driver keeps
 * its input device, so touchfw rebinds and judges the new probe.
 */
#include "rmi4.h"

#include <errno.h>
#include <string.h>

static int rmi4_check_controller(const struct tf_controller *ctl, char *msg, size_t size)
{
	if (strcmp(ctl->bus, "i2c"))
		return tf_snprintf(msg, size,
				   "bus %s: rmi_smbus and rmi_i2c serve i2c/SMBus devices only",
				   ctl->bus),
		       -EINVAL;
	return 0;
}

static const char *const rmi4_rebind[] = { "rmi4_smbus", "rmi4_i2c", NULL };

const struct tf_family tf_family_rmi4 = {
	.ids = &tf_family_ids_rmi4,
	.flash_firmware_files = "the image rmi_core's update_fw flashes (.img: header 0x10 for v7/v8, the v5 one for v5)",
	.check_blob = rmi4_check_blob,
	.check_blob_data = rmi4_check_blob_data,
	.blob_facts = rmi4_blob_facts,
	.check_controller = rmi4_check_controller,
	.unproven = "that the firmware suits this touchpad module beyond its product id",
	.caps = {
		.transports = TF_TRANSPORT_I2C | TF_TRANSPORT_SMBUS,
		/* found there bound or not; flashed through the driver */
		.bootloader_mode = true,
		.kernel_fw_attr = "update_fw",
		/* what is written is the staged file's name (driver_fw_write) */
		.kernel_fw_value = "",
		.kernel_fw_rebind = rmi4_rebind,
	},
	.ops = &rmi4_ops,
};
