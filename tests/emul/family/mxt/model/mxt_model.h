/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A maXTouch touch controller, modelled from drivers/input/touchscreen/
 * atmel_mxt_ts.c (Linux 6.1) and mxt-app's bootloader handling -- not from
 * touchfw's agent.  Freestanding: see em_types.h.
 *
 * Application mode (at the application address): 16-bit little-endian
 * register pointer, info block at 0x0000 (7 bytes) + object table (6 bytes
 * per object) + CRC24, object memory after it.  T5 pops one queued message per
 * message-sized stride read; T44 reads the queue length; T6 takes commands
 * (reset, 0xA5 bootloader entry, backup to NVM, restore from NVM,
 * REPORTALL).  Every object but the volatile ones (messages, commands,
 * message count, debug: mxt-app's mxt_object_is_volatile) is configuration,
 * T38 user data included: it lives in RAM and is lost on reset unless backed
 * up to NVM.  The config CRC covers T71 (or T7) to the end, as the kernel
 * computes it; T38, before T7, is stored but not in the CRC.
 *
 * Bootloader mode (at the bootloader address, app - 0x26, or app - 0x24 for
 * family >= 0xA2 on 0x4a/0x4b): status byte reads, extended id, unlock, frame
 * reception (a frame may come in several write messages), frame CRC check,
 * programming, APP_CRC_FAIL when no valid image.  Frame contents follow the
 * synthetic format of mxt_image.h.
 *
 * CHG (the interrupt output, active low on the wire) is reported as
 * "asserted": in application mode while messages are queued; in bootloader
 * mode from each status change until the status byte is read.  A read
 * that moves the bootloader on to a new status (APP_CRC_FAIL ->
 * WAITING_BOOTLOAD_CMD, FRAME_CRC_FAIL or a programmed FRAME_CRC_PASS ->
 * WAITING_FRAME_DATA) releases CHG and asserts it again a moment later:
 * a host that waits for a CHG edge, as atmel_mxt_ts does, sees one.
 */
#ifndef MXT_MODEL_H
#define MXT_MODEL_H

#include "em_chip.h"

#define MXT_MODEL_MEM_SIZE 2048
#define MXT_MODEL_MAX_OBJECTS 24
#define MXT_MODEL_MAX_FRAME 1024 /* bootloader frame buffer, length incl. */
#define MXT_MODEL_MSG_QUEUE 32

/* Bootloader status values (atmel_mxt_ts.c). */
#define MXT_BL_WAITING_BOOTLOAD_CMD 0xc0
#define MXT_BL_WAITING_FRAME_DATA 0x80
#define MXT_BL_FRAME_CRC_CHECK 0x02
#define MXT_BL_FRAME_CRC_FAIL 0x03
#define MXT_BL_FRAME_CRC_PASS 0x04
#define MXT_BL_APP_CRC_FAIL 0x40
#define MXT_BL_EXTENDED_ID 0x20

/* T6 status bits, as in atmel_mxt_ts.c. */
#define MXT_T6_RESET 0x80
#define MXT_T6_CFGERR 0x08

struct mxt_obj_def {
	em_u8 type;
	em_u16 size;	  /* bytes per instance, 1..256 */
	em_u8 instances;  /* 1..256 stored as count, <= 255 here */
	em_u8 report_ids; /* per instance */
};

struct mxt_model_timing {
	em_u64 power_on_ns;    /* power on / reset release to app ready */
	em_u64 bl_enter_ns;    /* T6 0xA5 to bootloader ready */
	em_u64 bl_exit_ns;     /* bootloader to application (incl. app boot) */
	em_u64 frame_check_ns; /* frame received to CRC verdict */
	em_u64 frame_prog_ns;  /* CRC pass to ready for the next frame */
	em_u64 backup_ns;      /* T6 BACKUPNV to done */
	em_u64 reset_ns;       /* T6 reset to app ready */
	/*
	 * A harness knob, not a chip's behaviour: a T6 reset lasts reset_ns
	 * and then on until a transfer meets it (is NAKed) after reset_ns,
	 * ending RESET_MET_TAIL_NS after that one, and never longer than
	 * reset_hold_ns from the command (0: reset_ns only).  A program that
	 * met the reset earlier is still retrying then.  A test of a
	 * program that must ride out the reset then does not depend on that
	 * program starting within reset_ns on a loaded machine.
	 */
	em_u64 reset_hold_ns;
};

struct mxt_model_faults {
	em_u32 crc_fail_frame;	  /* 1-based frame index to fail; 0 = none */
	em_u32 crc_fail_times;	  /* how often it fails before passing */
	bool crc_fail_always;	  /* every frame fails its check */
	em_u32 power_loss_after;  /* lose power after frame K is programmed */
	bool stuck_in_bootloader; /* the bootloader never starts the app */
	bool corrupt_info_crc;	  /* info block CRC reads back wrong */
	em_u32 slow_factor;	  /* multiply every device busy time (0 = 1) */
	/* Writes to objects of this type are acknowledged and dropped, as
	 * the model once did to T38 (0 = none). */
	em_u8 drop_object;
};

struct mxt_model_cfg {
	em_u16 app_addr;
	em_u8 family_id;
	em_u8 variant_id;
	em_u8 matrix_x;
	em_u8 matrix_y;
	em_u8 num_objects;
	struct mxt_obj_def objects[MXT_MODEL_MAX_OBJECTS];
	em_u8 bl_id;
	em_u8 bl_version;
	bool bl_extended_id;
	/* Installed application image. */
	bool app_valid;
	em_u8 fw_version; /* major << 4 | minor */
	em_u8 fw_build;
	bool start_in_bootloader; /* valid app, but sitting in the bootloader */
	/*
	 * After the last frame is programmed, reset (1 ms CHG pulse) whether
	 * or not the host has read its FRAME_CRC_PASS, as some bootloader
	 * versions do (atmel_mxt_ts: "Some bootloader versions do not assert
	 * the CHG line after bootloading has finished").  Default: the
	 * verdict is held until read, then the bootloader resets.
	 */
	bool final_reset_unread;
	struct mxt_model_timing t;
	struct mxt_model_faults faults;
};

enum mxt_mode {
	MXT_MODE_OFF,	/* no power */
	MXT_MODE_RESET, /* held in reset or booting: NAKs everything */
	MXT_MODE_APP,
	MXT_MODE_BOOTLOADER,
};

struct mxt_model_stats {
	em_u32 frames_passed;
	em_u32 frames_failed;
	em_u32 images_completed;
	em_u32 resets;	  /* every reset: reset line, T6 RESET, bootloader exit */
	em_u32 hw_resets; /* the reset line asserted while powered, only */
	em_u32 bootloader_entries;
	em_u32 backups;
	em_u32 restores; /* T6 RESTORENV: NVM copied back to RAM */
	em_u32 power_losses;
	em_u32 config_writes; /* write messages that changed config RAM */
};

/* Opaque in spirit: hosts use the functions below, never the fields. */
struct mxt_model {
	struct mxt_model_cfg cfg;
	em_u64 now;
	enum mxt_mode mode;
	bool powered, reset_held;
	/* pending timed event */
	int ev;
	em_u64 ev_at;
	/* application */
	em_u8 mem[MXT_MODEL_MEM_SIZE];
	em_u16 mem_size, cfg_start, crc_start;
	em_u8 nvm_cfg[MXT_MODEL_MEM_SIZE];
	em_u8 stored[MXT_MODEL_MEM_SIZE]; /* object type of a config byte, 0 = none */
	em_u16 ptr;
	em_u32 reported_crc; /* config CRC the chip reports (NVM's) */
	em_u16 t5_addr, t5_size, t6_addr, t44_addr;
	em_u8 t6_rid;
	em_u8 msgq[MXT_MODEL_MSG_QUEUE][16];
	em_u8 msg_head, msg_count;
	em_u8 t6_status;
	em_u8 fw_version, fw_build;
	bool app_valid;
	/* bootloader */
	em_u8 bl_status;
	bool bl_chg;
	em_u64 chg_at; /* CHG asserts again for a status a read moved on */
	bool bl_unlocked;
	em_u8 frame[MXT_MODEL_MAX_FRAME];
	em_u16 frame_len, frame_want;
	em_u32 frame_index; /* frames passed in this session */
	em_u16 next_seq;
	bool have_header;
	struct {
		em_u8 family_id, variant_id, version, build;
		em_u16 frame_count;
		em_u32 payload_len;
	} hdr;
	em_u32 payload_seen, payload_crc;
	bool final_pending;
	bool final_wait_read;	 /* image done, last verdict not read yet */
	em_u8 queued_reset;	 /* T6 RESET value waiting for a backup */
	em_u64 soft_reset_at;	 /* when the T6 reset now running began */
	bool soft_reset_met;	 /* a transfer was NAKed during it */
	bool soft_reset_holding; /* past reset_ns, held (reset_hold_ns) */
	bool queued_restore;	 /* T6 RESTORENV waiting for a backup */
	em_u8 bl_flags;
	em_u32 crc_fail_left;
	struct mxt_model_stats stats;
};

/* Fill @cfg from a named preset ("mxt224e", "mxt1664s"); false if unknown. */
bool mxt_model_preset(const char *name, struct mxt_model_cfg *cfg);

/* Power up at model time @now (the chip boots into app or bootloader). */
void mxt_model_init(struct mxt_model *m, const struct mxt_model_cfg *cfg, em_u64 now);

extern const struct em_chip_ops mxt_model_ops;

/* Bootloader address for this chip's application address and family. */
em_u16 mxt_model_bootloader_addr(const struct mxt_model *m);

/* Inspection for tests, benchmarks and the emulated kernel driver. */
enum mxt_mode mxt_model_mode(const struct mxt_model *m);
em_u8 mxt_model_bl_status(const struct mxt_model *m);
bool mxt_model_app_valid(const struct mxt_model *m);
em_u8 mxt_model_fw_version(const struct mxt_model *m);
em_u8 mxt_model_fw_build(const struct mxt_model *m);
em_u32 mxt_model_info_crc(const struct mxt_model *m);
em_u32 mxt_model_config_crc(const struct mxt_model *m);	    /* RAM */
em_u32 mxt_model_nvm_config_crc(const struct mxt_model *m); /* NVM */
const struct mxt_model_stats *mxt_model_stats(const struct mxt_model *m);
struct mxt_model_faults *mxt_model_faults(struct mxt_model *m);
/* Read-only view of application memory (info block, objects). */
const em_u8 *mxt_model_mem(const struct mxt_model *m, em_u16 *size);
/* Object start address and size; false if the chip has no such object. */
bool mxt_model_object(const struct mxt_model *m, em_u8 type, em_u16 *start, em_u16 *size);
/*
 * Set NVM configuration bytes at application addresses, as if the chip had
 * been shipped with them (RAM follows at once in application mode).
 */
void mxt_model_set_nvm(struct mxt_model *m, em_u16 addr, const em_u8 *data, em_u16 len);
/* Queue a touch/status message as the firmware would (for tests). */
bool mxt_model_queue_msg(struct mxt_model *m, const em_u8 *msg, em_u8 len);

/* The info-block CRC24 algorithm (atmel_mxt_ts.c mxt_calculate_crc). */
em_u32 mxt_model_crc24(const em_u8 *buf, em_u32 len);

#endif /* MXT_MODEL_H */
