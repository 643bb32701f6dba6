// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The maXTouch family as the registry sees it: ids, version scheme,
 * manifest rules, capabilities and operations.  Facts from
 * drivers/input/touchscreen/atmel_mxt_ts.c (Linux 6.1): the driver has
 * update_fw (writing anything starts it; it requests maxtouch.fw) and
 * applies maxtouch.cfg at probe; the chip has a bootloader that i2c-dev
 * can drive (mxt-ops.c), entered by a T6 reset with 0xA5.  The bus code
 * needs plain I2C transfers (16-bit registers, frames over 32 bytes).
 * Reset: held asserted >= 50 ms, then ~100 ms for the chip to start
 * before the first access (atmel_mxt_ts ignores CHG for
 * MXT_RESET_INVALID_CHG, 100 ms, after a reset and only then reads the
 * chip): a minimum, after which the flow waits for the chip; CHG stays
 * an input.
 */
#include "mxt.h"

#include "family/family.h"

/* mchp_spi_ts's mxt_update_fw_store() re-reads the info block only. */
static const char *const rebind_after_update_fw[] = { "mchp_spi_ts", NULL };

/* A config blob may name the info block it was made for by its CRC
 * (mxt_check_blob_data compares it with the file's). */
static const char *const manifest_keys[] = { "info_crc", NULL };

const struct tf_family tf_family_mxt = {
	.ids = &tf_family_ids_mxt,
	.unproven = "that the configuration suits this panel (it may be another board's for "
		    "the same chip), and that the image's code is what its version says",
	.version = &mxt_version_scheme,
	.check_blob = mxt_check_blob,
	.blob_facts = mxt_blob_facts,
	.import_blob = mxt_import_blob,
	.check_blob_data = mxt_check_blob_data,
	/* the info block's and the configuration's CRC24 (mxt_crc24) */
	.crc_bits = 24,
	.manifest_keys = manifest_keys,
	.irq_line = "CHG",
	.flash_firmware_files = "an image, .fw or its hex text .enc",
	.flash_config_files = "an OBP_RAW configuration (.cfg)",
	.caps = {
		/* spi: Microchip's mchp_spi_ts framing (mxt-spi.c) */
		.transports = TF_TRANSPORT_I2C | TF_TRANSPORT_SPI,
		.lines_needed = 0, /* CHG and reset help, polling does without */
		.bus_flash = true,
		.enter_bootloader_desc = "T6 reset 0xA5",
		.bootloader_mode = true,
		.bus_config = true,
		.kernel_fw_attr = "update_fw",
		.kernel_fw_value = "1",
		.kernel_fw_rebind = rebind_after_update_fw,
		.kernel_cfg = true,
		.reset = {
			.assert_us = 50000,
			.release_us = 100000,
		},
	},
	.ops = &mxt_ops,
};
