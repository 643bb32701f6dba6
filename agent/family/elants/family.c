// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Elan touchscreen family (elants_i2c) as the registry sees it.  The
 * driver does the flashing (update_fw, IAP, forced in recovery); touchfw
 * never writes the chip's flash itself.  The driver binds with the chip in
 * recovery, so such a chip is updated through update_fw too.  After an
 * update the driver re-initialises but keeps its input device (with the
 * ranges it had at probe: 0 in recovery) and reports iap_mode "Normal"
 * whatever the chip said, so touchfw rebinds and judges the new probe.
 * After a failed update it stays bound in recovery with the chip as the
 * failure left it (possibly mid-IAP), and its next update sends the
 * recovery IAP command without a reset: touchfw rebinds so that a new
 * probe resets the chip into its boot code (elants_i2c_initialize).
 * Both are the family's update path (elants_path, elants-ops.c).
 */
#include "elants.h"

#include <errno.h>
#include <string.h>

static int elants_check_controller(const struct tf_controller *ctl, char *msg, size_t size)
{
	if (strcmp(ctl->bus, "i2c"))
		return tf_snprintf(msg, size, "bus %s: elants_i2c serves i2c devices only",
				   ctl->bus),
		       -EINVAL;
	if (ctl->power != TF_POWER_DRIVER)
		return tf_snprintf(msg, size,
				   "power: only the driver flashes an Elan "
				   "touchscreen, so power must be \"driver\""),
		       -EINVAL;
	return 0;
}

/* It keeps its input device after update_fw: rebind it. */
static const char *const elants_rebind[] = { "elants_i2c", NULL };

const struct tf_family tf_family_elants = {
	.ids = &tf_family_ids_elants,
	.unproven = "that the firmware's calibration suits this panel",
	.flash_firmware_files = "the file elants_i2c flashes (.bin)",
	.version = &elants_version_scheme,
	.check_blob = elants_check_blob,
	.check_blob_data = elants_check_blob_data,
	.check_controller = elants_check_controller,
	.blob_facts = elants_blob_facts,
	.caps = {
		.transports = TF_TRANSPORT_I2C,
		.bootloader_mode = true,
		.kernel_fw_attr = ELANTS_UPDATE_ATTR,
		.kernel_fw_value = "1",
		.kernel_fw_rebind = elants_rebind,
	},
	.ops = &elants_ops,
};
