// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Goodix GT9xx / GT1x family as the registry sees it: ids, version
 * scheme, manifest rules, capabilities and operations.  Facts from
 * drivers/input/touchscreen/goodix.c (Linux 6.1):
 *  - no firmware interface: the driver has no update_fw, and flashing
 *    GT9xx parts exists only in vendor drivers, so touchfw installs
 *    configurations only;
 *  - the driver loads goodix_<id>_cfg.bin (goodix/<config-name> with the
 *    board's goodix,config-name) at every probe when it has both INT and
 *    RST GPIOs, checks it and sends it to the chip (goodix_config_cb), and
 *    registers its input device only afterwards, with ABS_MT_POSITION_X/Y
 *    maxima from the configuration the chip then holds (goodix_read_config);
 *  - the configuration registers can be written with the driver bound (it
 *    only reads coordinates in its interrupt handler; its resume path writes
 *    the configuration the same way);
 *  - reset (goodix_reset_no_int_sync, goodix_int_sync): RST low >= 10 ms
 *    (20 used), INT driven to select the address, RST released, INT held
 *    for > 5 ms (10 used), then INT low 50 ms before it is an input again.
 */
#include "goodix.h"

#include <errno.h>
#include <string.h>

#include "family/family.h"

/* goodix_reset_no_int_sync: the chip answers at one of two addresses. */
static int goodix_check_controller(const struct tf_controller *ctl, char *msg, size_t size)
{
	if (!strcmp(ctl->bus, "i2c") && ctl->reg != GOODIX_ADDR_INT_HIGH &&
	    ctl->reg != GOODIX_ADDR_INT_LOW)
		return tf_snprintf(msg, size,
				   "reg 0x%02x: a Goodix chip answers at 0x%02x or 0x%02x (the "
				   "level of INT at reset chooses)",
				   ctl->reg, GOODIX_ADDR_INT_HIGH, GOODIX_ADDR_INT_LOW),
		       -EINVAL;
	if (strcmp(ctl->bus, "i2c"))
		return tf_snprintf(msg, size, "bus %s: Goodix GT9xx/GT1x chips are i2c devices",
				   ctl->bus),
		       -EINVAL;
	return 0;
}

const struct tf_family tf_family_goodix = {
	.ids = &tf_family_ids_goodix,
	.unproven = "touch quality (thresholds, the panel's wiring in the configuration): a "
		    "configuration of the same resolution for another panel passes",
	.version = &goodix_version_scheme,
	.check_blob = goodix_check_blob,
	.check_blob_data = goodix_check_blob_data,
	.blob_facts = goodix_blob_facts,
	.check_controller = goodix_check_controller,
	/* the configuration's CRC32 digest (goodix_cfg_digest) */
	.crc_bits = 32,
	.irq_line = "INT",
	.flash_config_files = "a configuration block as the driver loads it (.bin)",
	.caps = {
		.transports = TF_TRANSPORT_I2C,
		.lines_needed = 0,
		.bus_config = true,
		.kernel_cfg = true,
		.config_versioned = true,
		.config_name = true,
		.config_only = true,
		.reset = {
			.assert_us = 20000,
			.release_us = 60000,
			.drive_int = true,
			.int_hold_us = 10000,
		},
	},
	.ops = &goodix_ops,
};
