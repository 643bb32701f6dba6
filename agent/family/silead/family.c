// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Silead GSL1680 family as the registry sees it: ids, manifest rules,
 * capabilities and operations.  Facts from drivers/input/touchscreen/
 * silead.c (Linux 6.1) and drivers/platform/x86/touchscreen_dmi.c:
 *  - the chip has no flash: silead_ts loads the firmware file into it at
 *    every probe (and on a failed resume), so the file must be where the
 *    loader looks whenever the driver probes; without it the probe fails
 *    ("Firmware request error") and no bind uevent comes;
 *  - the file's name is silead/<firmware-name> when the device has that
 *    property -- touchscreen_dmi.c sets it by DMI on x86 tablets, with
 *    touchscreen-size-x/-y and the inversion and swap -- which a board
 *    profile gives as config-name, else from the ACPI or i2c id;
 *  - the probe needs I2C_FUNC_I2C and the SMBus I2C-block functions.
 * Nothing in the chip says which file it runs; touchfw's proof is the
 * driver binding with its input device, the axis ranges the board's
 * properties give, and the chip's status register (0xB0) reading
 * 0x5A5A5A5A after the probe, as silead_ts_get_status reads it: the loaded
 * program runs.
 */
#include "silead.h"

#include <errno.h>
#include <string.h>

#include "family/family.h"

static int silead_check_controller(const struct tf_controller *ctl, char *msg, size_t size)
{
	if (strcmp(ctl->bus, "i2c"))
		return tf_snprintf(msg, size, "bus %s: Silead chips are i2c devices", ctl->bus),
		       -EINVAL;
	return 0;
}

const struct tf_family tf_family_silead = {
	.ids = &tf_family_ids_silead,
	.flash_firmware_files = "the file silead_ts loads (.fw)",
	.check_blob = silead_check_blob,
	.check_blob_data = silead_check_blob_data,
	.check_controller = silead_check_controller,
	.blob_facts = silead_blob_facts,
	.import_blob = silead_import_blob,
	.unproven = "that the file is this panel's: another tablet's runs as well "
		    "(status OK, the same input device) but reports no or wrong touches; "
		    "touching the screen tells",
	.firmware_source =
		"each tablet needs its own file (its panel's scan parameters): take the one "
		"in the tablet's Windows driver (SileadTouch.fw, or GSL_TS_CFG.h, which "
		"'touchfw db add' converts) or the tablet's file from a community collection "
		"(github.com/onitake/gsl-firmware)",
	.caps = {
		.transports = TF_TRANSPORT_I2C,
		.config_name = true,
	},
	.ops = &silead_ops,
};
