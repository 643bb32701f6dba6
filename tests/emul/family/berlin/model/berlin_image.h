/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Goodix Berlin firmware files for the emulated chip (fwgen berlin-fw), in
 * the container format Goodix's updater parses (goodix/fwupdate_for_berlin_
 * linux, fwupdate.c goodix_parse_firmware):
 *
 *   0   size      LE32: file length - 8 (FW_FILE_CHECKSUM_OFFSET)
 *   4   checksum  LE32: u32 sum of the LE16 words from byte 8 to the end
 *   8   hw_pid[6], 14 hw_vid[3]       the ROM the image is for
 *   17  fw_pid[8], 25 fw_vid[4]       what the chip reports once it runs
 *   29  subsys_num (<= 47), 30 chip_type, 31 protocol_ver, 32 bus_type
 *       (bit 0: spi), 33 flash_protect, 34 reserved[2]
 *   42  (Berlin-B/D; 36 on Berlin-A) subsystem records, 10 bytes each:
 *       type, size LE32, flash_addr LE32, one reserved byte
 *   512 (Berlin-B/D; 256 on Berlin-A) the subsystems' data, in order
 *
 * Subsystem 0 is the ISP program (loaded into RAM, never flashed); the
 * updater flashes subsystems 1.. in order, each to its flash_addr.  The
 * config is subsystem type 4 at 0x3E000 (CONFIG_DATA_TYPE,
 * CONFIG_DATA_ADDR_BRD), 4096 bytes.
 *
 * Ours: the ISP and application images are berlin_model_make_isp/_app's;
 * the application is split into subsystems (types 1, 2, 3, 5, ...)
 * of at most @split bytes laid back to back from flash 0; chip_type is 6
 * for Berlin-D (fwupdate's IC_TYPE_BERLIN_D) and 4 for Berlin-A (our
 * choice), protocol_ver 1, bus_type 1.
 */
#ifndef BERLIN_IMAGE_H
#define BERLIN_IMAGE_H

#include "berlin_model.h"

#define BERLIN_FW_SUBSYS_MAX 47
#define BERLIN_FW_SUBSYS_SIZE 10
#define BERLIN_FW_TYPE_ISP 0
#define BERLIN_FW_TYPE_CONFIG 4

struct berlin_fw_spec {
	enum berlin_variant variant;
	const char *pid; /* up to 8 characters */
	em_u8 vid[4];
	em_u32 app_size; /* even, 32..BERLIN_APP_MAX */
	em_u32 isp_size; /* even, 32..BERLIN_ISP_MAX (0: 8 KiB) */
	em_u32 split;	 /* largest application subsystem (0: 64 KiB) */
	bool with_config;
	em_u32 config_id;
	em_u8 config_version;
	em_u32 seed;
};

em_u32 berlin_fw_header_size(enum berlin_variant v);
em_u32 berlin_fw_subsys_offset(enum berlin_variant v);
/* The file's length for @s, 0 if @s is out of range. */
em_u32 berlin_fw_file_size(const struct berlin_fw_spec *s);
/* Build it into @out (@cap bytes); returns its length or 0. */
em_u32 berlin_fw_file_build(const struct berlin_fw_spec *s, em_u8 *out, em_u32 cap);

#endif /* BERLIN_IMAGE_H */
