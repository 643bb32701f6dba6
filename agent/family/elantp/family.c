// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Elan touchpad family (elan_i2c) as the registry sees it.  The
 * driver flashes a touchpad in application mode (update_fw); touchfw writes
 * the flash itself only to recover one left in IAP (below).  After an update the driver
 * re-initialises but keeps its input device, so touchfw rebinds and judges the new probe.
 * Versions are the driver's firmware_version, "N.0": dotted.  A touchpad
 * left in IAP has no driver (probe fails): touchfw recovers it over i2c-dev
 * (caps.bus_recovery) where the board profile allows it, as fwupd does only
 * on machines its quirks name, then binds elan_i2c.  After a failed update
 * the driver resets the IAP (elan_update_firmware) and stays bound, and its
 * next update_fw starts from IAP (elan_i2c_prepare_fw_update): touchfw
 * leaves it bound, never rebinding into a probe that would fail (its update
 * path, elantp-ops.c).  On an SMBus-only adapter (psmouse's companion on
 * i2c-i801) elan_i2c speaks SMBus (elan_i2c_smbus.c): the attributes are
 * the same; the bus side is elantp-smbus.c.
 */
#include "elantp.h"

#include <errno.h>
#include <string.h>

static int elantp_check_controller(const struct tf_controller *ctl, char *msg, size_t size)
{
	if (strcmp(ctl->bus, "i2c"))
		return tf_snprintf(msg, size, "bus %s: elan_i2c serves i2c devices only",
				   ctl->bus),
		       -EINVAL;
	/* always-on (the platform powers it) serves recovery from IAP; an
	 * application-mode touchpad is still flashed by the driver only. */
	return 0;
}

/* It keeps its input device after update_fw: rebind it. */
static const char *const elantp_rebind[] = { "elan_i2c", NULL };

const struct tf_family tf_family_elantp = {
	.ids = &tf_family_ids_elantp,
	.unproven = "that the firmware suits this touchpad module beyond its product id",
	.flash_firmware_files = "the file elan_i2c flashes (.bin)",
	.check_blob = elantp_check_blob,
	.check_blob_data = elantp_check_blob_data,
	.blob_facts = elantp_blob_facts,
	.check_controller = elantp_check_controller,
	.caps = {
		/* elan_i2c_smbus on SMBus-only adapters (elantp-smbus.c) */
		.transports = TF_TRANSPORT_I2C | TF_TRANSPORT_SMBUS,
		/* IAP: no driver binds; recovered over the bus where allowed. */
		.bootloader_mode = true,
		.bus_recovery = true,
		.kernel_fw_attr = ELANTP_UPDATE_ATTR,
		.kernel_fw_value = "1",
		.kernel_fw_rebind = elantp_rebind,
	},
	.ops = &elantp_ops,
};
