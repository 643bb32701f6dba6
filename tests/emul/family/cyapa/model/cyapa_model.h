/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A Cypress APA trackpad of the third generation (Gen3, i2c address 0x67,
 * ACPI CYAP0000), modelled from what the kernel's cyapa driver
 * (drivers/input/mouse/cyapa.c, cyapa_gen3.c, cyapa.h) reads, writes and
 * checks -- not from touchfw's agent.  Freestanding: see em_types.h.
 *
 * Bus: a write of a register offset then a read in one transaction reads
 * from that offset on (the SMBus "I2C block" read cyapa emulates over
 * i2c); a write of an offset and bytes writes them from that offset on; a
 * plain read reads from the last offset written.
 *
 * Bootloader (the mode at power-on and after a soft reset).  Offsets 0..15
 * read: 0x00 the command file register (always 0x00), 0x01 status (0x80
 * busy, 0x10 bootloader running, 0x01 application checksum valid; 0x02
 * watchdog: never set here), 0x02 error (0x80 invalid command, 0x40 bad
 * key, 0x20 bootloading -- the "active" state --, 0x10 command checksum,
 * 0x08 flash protection, 0x04 flash checksum), 0x0b/0x0c the firmware's
 * major/minor version while the checksum is valid; the rest reads 0 (what a
 * real part keeps there is not public).  Commands are written at offset 0
 * as one byte of position in the command buffer followed by up to 16 bytes
 * of it; a command is complete when its last byte arrives: FF, code, the
 * 8-byte key 00..07, and for 0x39 the block: BE16 block number, 64 bytes,
 * their 8-bit sum, then the 8-bit sum of the 77 bytes before (78 in all,
 * five writes at positions 0, 16, 32, 48, 64, as cyapa_gen3_write_buffer
 * sends them).
 *  - 0x38 initiate ("bl_activate"): erases the header and the application
 *    (blocks 30..511, to 0xff: their sums are then wrong); busy for erase_ns (the driver
 * allows 2..13 s), then active (error 0x20, status 0x10 without the checksum bit).
 *  - 0x39 write block (active only): block 30..511 (below: flash
 *    protection error), checksums checked (command: 0x10, block: 0x04);
 *    busy for block_ns, then written.  An error bit stays until the next
 *    good write.
 *  - 0x3b terminate ("bl_deactivate"): back to idle; the checksum is
 *    judged again.  0xa5 launch ("bl_exit"): from idle with a valid
 *    checksum the application starts; otherwise the bootloader stays.
 *    A wrong key sets 0x40 and does nothing; another code sets 0x80.
 *  The application checksum is valid when the 16-bit sum of the header's
 *  bytes 2..127 is its big-endian word at 0 and the 16-bit sum of the
 *  application (blocks 32..511) is the header's big-endian word at 126
 *  -- the two sums cyapa_gen3_check_fw checks in the file, which is the
 *  header and the application as they lie in flash from 0x780 (30848
 *  bytes; the driver writes the application first and the header last).
 *
 * Application ("operational").  0x00 device status: 0x80 (valid interrupt
 * source) | power status (bits 3-2: 3 active, 2 idle, 1 buttons only, 0
 * off) | 0x03 normal or 0x01 busy; 0x01 fingers (bits 7-4), 0x08 valid data,
 * buttons (bits 2-0); 0x02.. five touches of 5 bytes (x/y high nibbles, x
 * low, y low, pressure, id 1..15); 0x26/0x27 maximum/minimum baseline
 * (after a baseline report); 0x28 command: 0x01 soft reset (into the
 * bootloader), 0x80 recalibrate (busy calibrate_ns), 0x40 report the
 * baseline (busy 20 ms); 0x29 power mode (bits 7-2; 0xfc full active, 0x00
 * off: no touches are sensed); 0x2a.. the 27 query bytes, which this model
 * keeps as the first 27 bytes of the application (its own layout): product
 * id "CYTRA" + 6 + 2 characters, 2 reserved, firmware major, minor, 2
 * reserved, button capabilities (bits 3-5), the protocol generation (3) in
 * the low nibble, maximum x/y (high nibbles, then low bytes), physical
 * size x/y in mm (the same form).  A touch (cyapa_model_touch) fills the
 * data registers and asserts INT until register 0 is read.
 */
#ifndef CYAPA_MODEL_H
#define CYAPA_MODEL_H

#include "em_chip.h"

#define CYAPA_MODEL_ADDR 0x67
#define CYAPA_MODEL_BLOCK 64
#define CYAPA_MODEL_BLOCKS 512
#define CYAPA_MODEL_FLASH (CYAPA_MODEL_BLOCK * CYAPA_MODEL_BLOCKS)
#define CYAPA_MODEL_HDR_BLOCK 30 /* 0x0780: the two header blocks */
#define CYAPA_MODEL_APP_BLOCK 32 /* 0x0800: the application's 480 blocks */
#define CYAPA_MODEL_HDR_SIZE (2 * CYAPA_MODEL_BLOCK)
#define CYAPA_MODEL_APP_SIZE ((CYAPA_MODEL_BLOCKS - CYAPA_MODEL_APP_BLOCK) * CYAPA_MODEL_BLOCK)
/* cyapa's firmware file: header + application (30848 bytes) */
#define CYAPA_MODEL_FILE_SIZE (CYAPA_MODEL_HDR_SIZE + CYAPA_MODEL_APP_SIZE)
#define CYAPA_MODEL_QUERY_SIZE 27
#define CYAPA_MODEL_MAX_TOUCHES 5

enum cyapa_model_mode {
	CYAPA_MODEL_OFF,
	CYAPA_MODEL_BL_IDLE,
	CYAPA_MODEL_BL_ACTIVE,
	CYAPA_MODEL_APP,
};

struct cyapa_model_cfg {
	em_u16 addr;	     /* 0: answers any address */
	em_u64 erase_ns;     /* initiate's erase (0: 2.2 s) */
	em_u64 block_ns;     /* one block's programming (0: 8 ms) */
	em_u64 calibrate_ns; /* recalibration (0: 500 ms) */
	/* The supply drops as the n-th block write command since the
	 * initiate arrives (1-based; 0: never), once: that block is lost and
	 * the chip starts again in its bootloader with the flash as it is. */
	int power_loss_block;
	em_u8 max_baseline, min_baseline;
};

struct cyapa_model_stats {
	unsigned boots, soft_resets, initiates, blocks_written, block_errors, terminates,
		launches, launch_refused, power_losses, calibrations, baselines, frames_read,
		touches_lost;
};

struct cyapa_model_touch {
	em_u16 x, y;
	em_u8 pressure, id; /* id 1..15 */
};

struct cyapa_model {
	struct cyapa_model_cfg cfg;
	enum cyapa_model_mode mode;
	bool powered;
	em_u8 flash[CYAPA_MODEL_FLASH];
	bool csum_valid;
	em_u8 bl_error;
	/* bootloader command buffer and how far it is filled */
	em_u8 cmd[80];
	em_u16 cmd_len;
	int blocks_since_initiate;
	/* busy until busy_until (model time): an erase, a block, a
	 * calibration or a baseline report; what ends then */
	em_u64 now, busy_until;
	int busy_kind;
	em_u16 busy_block;
	em_u8 busy_data[CYAPA_MODEL_BLOCK];
	/* application registers */
	em_u8 regs[256];
	em_u8 ptr;
	bool irq;
	struct cyapa_model_stats stats;
};

/* @file: cyapa's firmware file (CYAPA_MODEL_FILE_SIZE bytes) in flash at
 * 0x780, or NULL: erased (the chip stays in its bootloader). */
void cyapa_model_init(struct cyapa_model *m, const struct cyapa_model_cfg *cfg,
		      const em_u8 *file);
extern const struct em_chip_ops cyapa_model_ops;

/*
 * A firmware file for the model (CYAPA_MODEL_FILE_SIZE bytes at @out):
 * @product the 15-character id cyapa shows ("CYTRA-116002-00"; the
 * dashes are not stored), version @major.@minor; both checksums right.
 */
void cyapa_model_make_file(em_u8 *out, const char *product, em_u8 major, em_u8 minor);
/* The 16-bit sums cyapa_gen3_check_fw checks, written into @file. */
void cyapa_model_seal_file(em_u8 *file);

enum cyapa_model_mode cyapa_model_mode(const struct cyapa_model *m);
/* major << 8 | minor of the application in flash while its checksum is
 * valid, else -1 */
int cyapa_model_fw_version(const struct cyapa_model *m);
bool cyapa_model_busy(const struct cyapa_model *m);
const struct cyapa_model_stats *cyapa_model_stats(const struct cyapa_model *m);
/* A frame of @n touches (0: all lifted) and @buttons (bits 0-2): false when
 * the chip senses nothing (not in its application, or powered off). */
bool cyapa_model_touch(struct cyapa_model *m, const struct cyapa_model_touch *t, int n,
		       em_u8 buttons);

#endif /* CYAPA_MODEL_H */
