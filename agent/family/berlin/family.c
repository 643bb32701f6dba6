// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Goodix Berlin family as the registry sees it: ids, version scheme,
 * manifest rules, capabilities and operations (berlin.h has the facts).
 * The kernel driver has no firmware interface and does not bind an empty
 * chip, so touchfw flashes over spidev itself, with the driver unbound,
 * and binds the driver afterwards.  Reset (goodix_berlin_core.c): the
 * driver holds the line 2 ms (request_handle_reset) and gives the
 * firmware 100 ms to boot (GOODIX_BERLIN_NORMAL_RESET_DELAY_MS).
 */
#include "berlin.h"

#include <errno.h>
#include <string.h>

#include "family/family.h"

static int berlin_check_controller(const struct tf_controller *ctl, char *msg, size_t size)
{
	if (strcmp(ctl->bus, "spi"))
		return tf_snprintf(msg, size,
				   "bus %s: touchfw drives Goodix Berlin chips over spi only",
				   ctl->bus),
		       -EINVAL;
	if (ctl->power == TF_POWER_DRIVER)
		return tf_snprintf(
			       msg, size,
			       "power: goodix-berlin-spi has no firmware interface and does "
			       "not bind an empty chip, so touchfw flashes it over spidev "
			       "with the driver unbound: power must be \"always-on\""),
		       -EINVAL;
	return 0;
}

const struct tf_family tf_family_berlin = {
	.ids = &tf_family_ids_berlin,
	.unproven = "that the firmware's panel parameters suit this board",
	.flash_firmware_files = "an image (.bin)",
	.version = &berlin_version_scheme,
	.check_blob = berlin_check_blob,
	.check_blob_data = berlin_check_blob_data,
	.check_controller = berlin_check_controller,
	.blob_facts = berlin_blob_facts,
	.caps = {
		.transports = TF_TRANSPORT_SPI,
		.bus_flash = true,
		.enter_bootloader_desc = "soft reset and CPU hold; the ISP program follows",
		.bootloader_mode = true,
		.reset = {
			.assert_us = 2000,
			.release_us = 100000,
		},
	},
	.ops = &berlin_ops,
};
