/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A Synaptics RMI4 touchpad on SMBus (what rmi_smbus + rmi_core serve),
 * modelled from the kernel's drivers/input/rmi4/rmi_smbus.c, rmi_driver.c,
 * rmi_f01.c, rmi_f34.c, rmi_f34v7.c and rmi_f34.h -- the registers and
 * answers those read and check -- not from touchfw's agent.
 * Freestanding: see em_types.h.
 *
 * Plain I2C (cfg.bus RMI4_MODEL_I2C; rmi_i2c.c): every page has the page
 * select register at 0xff (a write of 0xff, PAGE selects page PAGE; reset
 * to 0 by a reset); a write message's first byte is the register's low
 * byte on the selected page, the bytes after it go to that register on;
 * a read message (rmi_i2c sends it after a one-byte write of the low
 * byte, repeated start) returns the registers from there on, any length
 * in one message.  Pages other than 0 hold nothing (zeros: the PDT scan
 * ends there).  The attention output is a level, asserted (low on the
 * wire) while an enabled interrupt source is pending, until F01's
 * interrupt status is read; each rise of it counts as a notify in the
 * statistics.
 *
 * SMBus (rmi_smbus.c): byte 0xfd reads the SMBus protocol version minus
 * one (1: version 2); a block write to command 0x80+i (4 bytes: LE16 RMI
 * address, read count, flags bit 0 write enable) sets mapping entry i;
 * then a block read of command i returns the entry's count of bytes from
 * its address, a block write to command i writes its bytes there.  The
 * driver splits transfers into 32-byte blocks at rmiaddr, rmiaddr + 32,
 * ...
 *
 * Register map (page 0, RMI4 register addressing: one address per
 * register, a multi-byte register read or written whole, a transfer
 * running on into the next address):
 *   F01 query 0x00..0x17 (1 byte each): 0 manufacturer (1: Synaptics),
 *       1 properties (bit 7 has query 42), 2..3 product info, 5..7 date,
 *       11..16 product id (rmi_f01 copies 10 bytes from 11 on, so a
 *       product id of 6 characters runs into the next ones), 17..19 build
 *       id (LE24; rmi_f01 reads it there when the DS4 queries say so),
 *       21 query 42 (bit 0: DS4 queries), 22 DS4 length (1), 23 DS4
 *       query (bit 1: build id query);
 *   F01 control 0x18 (ctrl0: bit 7 configured), 0x19 interrupt enable;
 *   F01 data 0x1a device status (bit 6 bootloader mode, bit 7
 *       unconfigured until the host sets ctrl0 bit 7), 0x1b interrupt
 *       status (read clears); F01 command 0x1c (bit 0 reset);
 *   F34 (PDT version 2: the v7 bootloader) query 0x20 query 0 (bit 3 has
 *       config id; bits 0..2 = 0: queries 1..7 follow at once), 0x21 the
 *       bootloader revision (minor, major 7), 0x22 bootloader firmware id
 *       (4), 0x23 minimum write size, block size LE16, flash page size
 *       LE16 (5), 0x24 adjustable partition area (2), 0x25 flash config
 *       length in blocks (2), 0x26 payload length in blocks (2), 0x27
 *       partition support (4: one bit per partition);
 *   F34 control 0x28: the 32-byte configuration id (the core config's
 *       first 4 bytes, right-aligned, as rmi_f34v7 eats leading zeros);
 *   F34 data 0x29 flash status (bit 7 bootloader mode, bits 0..4 the
 *       last command's status, 0 ok), 0x2a partition id, 0x2b block
 *       number (LE16, advanced by each transfer), 0x2c transfer length
 *       (LE16, blocks), 0x2d command (0 idle: read back when done), 0x2e
 *       payload.  The payload register is the last one of F34 and the
 *       model answers the addresses after it (0x2e + n, n < its size)
 *       with its bytes from n on: rmi_smbus's 32-byte blocks of one
 *       payload transfer go to 0x2e, 0x4e, 0x6e, ... (what a part does
 *       there is not public; this lets the kernel's transfers work);
 *   F11 (2D sensor, the application only; rmi_f11.c's reads) query 0x80
 *       query 0 (one sensor, no further queries), 0x81 query 1 (bits
 *       0..2 = 4: five fingers, bit 4 absolute data), 0x82..0x84 x and
 *       y electrodes and their maximum, 0x85 absolute query (data size
 *       0); control 0x88..0x93 (ctrl 6..7 max x, 8..9 max y, LE); data
 *       0x98: finger state, then 5 bytes a finger (all zero: no touch);
 *   F12 (the 2D sensor newer parts have instead of F11, cfg.touch_fn
 *       0x12; rmi_f12.c and rmi_read_register_desc's reads) query 0x80
 *       query 0 (bit 0: register descriptors), then three register
 *       descriptors of three registers each (rmi_read_register_desc,
 *       one address a register): the size of the presence register, the
 *       presence register (the structure's size, then one bit per packet
 *       register present), the structure (per present register its size,
 *       then its subpacket bits, 7 a byte, bit 7 "more"): queries 0x81..
 *       0x83 (no query registers described), 0x84..0x86 (control 8, the
 *       sensor tuning: 10 bytes, subpackets 0 max x/y, 1 pitch x/y, 3
 *       receivers), 0x87..0x89 (data 1, the objects: 8 bytes an object,
 *       one subpacket each); control 8 at 0x8a (LE16 max x, max y, pitch
 *       x, pitch y, then rx and tx electrodes); data 1 at 0x98 (all zero:
 *       no object);
 *   PDT at 0xe9 down: F01, then F34, then in the application F11 (or
 *       F12) at 0xdd (the bootloader lists F01 and F34 only, as real
 *       parts do), 0xef PDT properties (0: no BSR).
 * Interrupt sources, in PDT order: F01 bit 0, F34 bit 1 (F11 or F12 bit
 * 2 in the application, never raised: nothing touches the pad).  Each new
 * interrupt source set while enabled is one SMBus Host Notify: the
 * interrupt output pulses for EMUL_RMI4_NOTIFY_NS.
 *
 * F34 v7 flash commands (rmi_f34.h): 1 enter bootloader (partition 1,
 * bootloader id in the payload's first two bytes), 2 read, 3 write, 4
 * erase (one partition), 5 erase application (core code and config).
 * Partitions: 3 flash config (its content is the partition table, 8 bytes
 * an entry after 2 bytes, as rmi_f34v7_parse_partition_table reads it),
 * 6 global parameters (the bootloader config), 7 core code, 8 core
 * config.  Erase application (what rmi_f34v7_erase_all sends since the
 * 2022 rework in 6.1 and 6.12: "a full erase is required to recover from
 * error conditions like Bad Partition Table"; the single-partition erases
 * "will fail until a new partition table has been written") erases core
 * code, core config and the partition table, and keeps the bootloader
 * config, which the kernel reads back afterwards and writes again without
 * an erase: the bootloader rewrites its own config as a whole.  Other
 * writes need erased blocks; the blocks arrive in the payload after the
 * command (the model programs them once transfer length * block size
 * bytes are there), reads fill the payload at the command.
 * Status (the model's own numbers; the kernel tests for non-zero): 1
 * command not valid in this mode, 2 bad partition or block range, 3
 * block not erased, 4 wrong bootloader id.
 *
 * Application: the chip leaves its bootloader at a reset (power on, F01
 * reset) only when the flash config holds its own partition table and
 * the core code and core config are programmed whole, and the core
 * code's last 4 bytes are the CRC-32 of the rest (the model's own
 * layout, as the rest of it: core code bytes 0..3 LE the build id, 4..13
 * the product id; the chip does not compare that with its own).  Nothing
 * else leaves the bootloader: after a flash the chip stays there until a
 * reset.  rmi_smbus never sends the F01 reset (its transport reset only
 * reads the SMBus version, PS/2 does the resetting), so on SMBus a power
 * cycle or a reset from elsewhere ends the bootloader.
 *
 * F34 v5 (cfg.bl_major 5; rmi_f34.c and rmi_f34.h, the bootloader that
 * rmi_f34 serves when the PDT gives F34 function version 0): one byte a
 * register.  Query 0x20..0x28: 0..1 the bootloader id (rmi_f34 prints
 * the two bytes as characters: the model's "05", its second byte the
 * major version as the v5 image's byte 7 says it), 2 properties (bit 2
 * has config id), 3..4 block size (LE16, 16), 5..6 firmware blocks
 * (RMI4_MODEL_V5_FW_BLOCKS), 7..8 config blocks
 * (RMI4_MODEL_V5_CONFIG_BLOCKS); control 0x29..0x2c the config id (the
 * config area's first 4 bytes, as rmi_f34 prints them "%02x" each); data
 * 0x2d..0x2e the block number (LE, advanced by each block command),
 * 0x2f the block data (block size bytes), then the flash control
 * register at data + 2 + block size (0x3f, where rmi_f34 computes
 * ctrl_address): bits 0..3 the command (cleared when done), bits 4..6
 * the status (the model's numbers above; 0 ok), bit 7 program enabled
 * (the bootloader).  Commands (rmi_f34.h): 0xf enable flash programming
 * (the bootloader id in the block data first; the chip enters its
 * bootloader, F01 status bit 6, the PDT lists F01 and F34 only), 3 erase
 * all (firmware and config; bootloader id needed), 7 erase config
 * (bootloader id needed), 2 write firmware block, 6 write config block
 * (the block data into the erased block at the block number of that
 * area), 5 read config block; all but enable need the bootloader.  Each
 * command done raises F34's interrupt.  A v5 part boots its application
 * when the firmware and config areas are programmed whole and the
 * firmware's last 4 bytes are the CRC-32 of the rest (the v7 layout's
 * rule).  What the v5 image (rmi4_model_make_image_v5) holds is
 * struct rmi_f34_firmware: LE32 checksum (the model's CRC-32 of the
 * bytes after it; rmi_f34 does not check it), the bootloader version at
 * byte 7, LE32 image size at 8, LE32 config size at 12, the product id
 * at 0x10, the firmware then the config from 0x100.  Not public, so
 * the model's own: the id bytes' values, the status numbers, that enable
 * switches to the bootloader's PDT without a reset, the block number's
 * advance after each block command (rmi_f34 writes it once, zero, before
 * each area), and the flash layout.
 *
 * The firmware file (rmi4_model_make_image) is the v10 header
 * rmi_f34v7_parse_image_header_10 reads: LE32 checksum (CRC-32 of the
 * bytes after it; the kernel does not check it), major version 0x10 at
 * byte 7, LE32 top-level container address at 12; 32-byte container
 * descriptors (LE32 content checksum, LE16 container id, ..., LE32
 * content length at 24, LE32 content address at 28); the top-level
 * container's content lists the others' descriptor addresses: core code
 * (18), core config (19), flash config (15), bootloader (3: LE32 version,
 * then the addresses of its own descriptors: global parameters, 17) and
 * general information (13: the firmware id at content + 4, the product
 * id at content + 0x18 as in real images, where fwupd reads it).
 */
#ifndef RMI4_MODEL_H
#define RMI4_MODEL_H

#include "em_chip.h"

#define RMI4_MODEL_BLOCK 16
#define RMI4_MODEL_FL_CONFIG_BLOCKS 4
#define RMI4_MODEL_BL_CONFIG_BLOCKS 2
#define RMI4_MODEL_CORE_CODE_BLOCKS 64
#define RMI4_MODEL_CORE_CONFIG_BLOCKS 8
#define RMI4_MODEL_PAYLOAD_BLOCKS 4 /* query 6: blocks per transfer */
#define RMI4_MODEL_FLASH_BLOCKS                                      \
	(RMI4_MODEL_FL_CONFIG_BLOCKS + RMI4_MODEL_BL_CONFIG_BLOCKS + \
	 RMI4_MODEL_CORE_CODE_BLOCKS + RMI4_MODEL_CORE_CONFIG_BLOCKS)
#define RMI4_MODEL_PAYLOAD_MAX (RMI4_MODEL_PAYLOAD_BLOCKS * RMI4_MODEL_BLOCK)
#define RMI4_MODEL_PRODUCT_MAX 6
/* F11: 5 fingers, the electrodes and the axes' maxima (ctrl 6..9) */
#define RMI4_MODEL_F11_FINGERS 5
#define RMI4_MODEL_F11_RX 28
#define RMI4_MODEL_F11_TX 16
#define RMI4_MODEL_F11_MAX_X 3000
#define RMI4_MODEL_F11_MAX_Y 1700
/* F12: 5 objects, the electrodes, the axes' maxima and the pitch
 * (control 8) */
#define RMI4_MODEL_F12_OBJECTS 5
#define RMI4_MODEL_F12_RX 30
#define RMI4_MODEL_F12_TX 18
#define RMI4_MODEL_F12_MAX_X 4100
#define RMI4_MODEL_F12_MAX_Y 2300
#define RMI4_MODEL_F12_PITCH 0x1c00    /* 1/4096 mm: 1.75 mm */
#define RMI4_MODEL_NOTIFY_NS 100000ULL /* one Host Notify on the wire */

/* F34 v5: few blocks, as rmi_f34 waits out each command's timeout (no
 * interrupt reaches it: nothing sets F34's bit in rmi_core's mask), 500
 * ms a block */
#define RMI4_MODEL_V5_FW_BLOCKS 16
#define RMI4_MODEL_V5_CONFIG_BLOCKS 4
#define RMI4_MODEL_V5_IMAGE_SIZE \
	(0x100 + (RMI4_MODEL_V5_FW_BLOCKS + RMI4_MODEL_V5_CONFIG_BLOCKS) * RMI4_MODEL_BLOCK)

/* Partition ids (rmi_f34.h) */
#define RMI4_PART_BOOTLOADER 1
#define RMI4_PART_FLASH_CONFIG 3
#define RMI4_PART_GLOBAL_PARAMS 6
#define RMI4_PART_CORE_CODE 7
#define RMI4_PART_CORE_CONFIG 8

/* An image file of at most this size (rmi4_model_make_image). */
#define RMI4_MODEL_IMAGE_MAX 4096

enum rmi4_model_mode { RMI4_MODEL_OFF, RMI4_MODEL_APP, RMI4_MODEL_BL };

struct rmi4_model_cfg {
	em_u16 addr; /* its SMBus address; 0: answers any */
	char product_id[RMI4_MODEL_PRODUCT_MAX + 1];
	/* the build id of the application in flash (1..0xffffff); 0: no
	 * valid application, the chip boots into its bootloader */
	em_u32 build_id;
	em_u32 config_id;  /* the core config's first 4 bytes (LE) */
	em_u8 smb_version; /* 2 or 3 (rmi_smbus accepts those) */
	em_u8 bl_major;	   /* 7 or 8; 5: the F34 v5 bootloader */
	/* fault: the supply drops as this many blocks have been programmed
	 * since power-on (0: never) */
	em_u32 power_loss_block;
	/* the application's 2D function: 0x12 (F12), else F11 */
	em_u8 touch_fn;
	/* its host interface: RMI4_MODEL_SMBUS (rmi_smbus's protocol, Host
	 * Notify) or RMI4_MODEL_I2C (rmi_i2c's: page select, level ATTN) */
	em_u8 bus;
};

#define RMI4_MODEL_SMBUS 0
#define RMI4_MODEL_I2C 1

struct rmi4_model_stats {
	em_u32 resets, bl_entries, erases, blocks_written, blocks_read, cmd_errors;
	em_u32 notifies, power_losses, boots_app, boots_bl;
};

struct rmi4_map_entry {
	em_u16 addr;
	em_u8 count, flags;
};

struct rmi4_model {
	struct rmi4_model_cfg cfg;
	enum rmi4_model_mode mode;
	bool powered;
	em_u64 now_ns, notify_until;
	/* the flash and which blocks are erased (or never written) */
	em_u8 flash[RMI4_MODEL_FLASH_BLOCKS * RMI4_MODEL_BLOCK];
	em_u8 erased[RMI4_MODEL_FLASH_BLOCKS];
	/* SMBus */
	struct rmi4_map_entry map[8];
	em_u8 cmd; /* the command byte of the current SMBus transaction */
	bool have_cmd;
	/* I2C: the page select register (0xff) and the register pointer */
	em_u8 page, ptr;
	/* F01 */
	em_u8 ctrl0, irq_enable, irq_status, dev_status;
	/* F34 */
	em_u8 flash_status, partition, command;
	em_u16 block, length;
	em_u8 bl_id_in[2];
	em_u8 payload[RMI4_MODEL_PAYLOAD_MAX > RMI4_MODEL_FL_CONFIG_BLOCKS *RMI4_MODEL_BLOCK
			      ? RMI4_MODEL_PAYLOAD_MAX
			      : RMI4_MODEL_FL_CONFIG_BLOCKS *RMI4_MODEL_BLOCK];
	em_u32 payload_in; /* payload bytes received for a write */
	/* F34 v5: the block number, the command and status bits */
	em_u16 v5_block;
	em_u8 v5_cmd, v5_status;
	em_u32 blocks_since_power;
	struct rmi4_model_stats st;
};

extern const struct em_chip_ops rmi4_model_ops;

void rmi4_model_init(struct rmi4_model *m, const struct rmi4_model_cfg *cfg);
enum rmi4_model_mode rmi4_model_mode(const struct rmi4_model *m);
/* The build id and config id the running application reports (0 in the
 * bootloader). */
em_u32 rmi4_model_build_id(const struct rmi4_model *m);
em_u32 rmi4_model_config_id(const struct rmi4_model *m);
const struct rmi4_model_stats *rmi4_model_stats(const struct rmi4_model *m);
/* A reset of the chip (F01 reset command, the PS/2 side's reset). */
void rmi4_model_reset(struct rmi4_model *m);

/* The partition table the chip's flash config holds: 2 + 8 * 4 bytes
 * into @buf of RMI4_MODEL_FL_CONFIG_BLOCKS * RMI4_MODEL_BLOCK bytes. */
void rmi4_model_partition_table(em_u8 *buf);
/* The core code of an application: RMI4_MODEL_CORE_CODE_BLOCKS blocks. */
void rmi4_model_make_core_code(em_u8 *buf, em_u32 build_id, const char *product_id);
em_u32 rmi4_model_crc32(const em_u8 *p, em_u32 len);

/* Faults an image can carry (fwgen rmi4-fw --form). */
enum rmi4_image_form {
	RMI4_IMG_GOOD,
	RMI4_IMG_BAD_HEADER,	  /* major header version 0x0f */
	RMI4_IMG_NO_FLASH_CONFIG, /* no flash config container */
	RMI4_IMG_BL_CONFIG_SIZE,  /* global parameters one block short */
	RMI4_IMG_BAD_CHECKSUM,	  /* core code CRC wrong (the kernel flashes it) */
};

/* A firmware file into @buf (RMI4_MODEL_IMAGE_MAX bytes): its length. */
em_u32 rmi4_model_make_image(em_u8 *buf, em_u32 build_id, em_u32 config_id,
			     const char *product_id, enum rmi4_image_form form);

/* A v5 firmware file (struct rmi_f34_firmware) into @buf
 * (RMI4_MODEL_IMAGE_MAX bytes) with @bl_version at byte 7: its length. */
em_u32 rmi4_model_make_image_v5(em_u8 *buf, em_u32 build_id, em_u32 config_id,
				const char *product_id, em_u8 bl_version);

#endif /* RMI4_MODEL_H */
