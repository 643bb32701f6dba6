/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the maXTouch family of the emulator: what its board keys make of
 * an [chip NAME] or [spi-chip NAME] (chip.c), and its two kernel driver
 * models, atmel_mxt_ts on i2c (drv_atmel.c) and mchp_spi_ts on spi
 * (drv_mchp_spi.c).
 */
#ifndef MXT_EMUL_H
#define MXT_EMUL_H

#include "emub-priv.h"
#include "emub-spi.h"

enum mxt_board_state {
	MXT_BOARD_APP,
	MXT_BOARD_BOOTLOADER,
	MXT_BOARD_NO_IMAGE,
};

/* The keys a maXTouch [chip NAME] and [spi-chip NAME] share */
struct mxt_board_common {
	enum mxt_board_state state;
	bool has_fw_version;
	guint8 fw_version, fw_build;
	guint32 crc_fail_frame, power_loss_after;
	bool crc_fail_always; /* the bootloader fails every frame's check */
	guint32 drop_object;  /* writes to this object type are dropped */
};

/* desc->fam of a maXTouch [chip NAME] */
struct mxt_board {
	struct mxt_board_common c;
	guint32 crc_fail_times;
	bool stuck_in_bootloader, corrupt_info_crc;
	bool bl_final_reset_unread;
};

/* desc->fam of a maXTouch [spi-chip NAME] */
struct mxt_spi_board {
	struct mxt_board_common c;
	guint32 crc_reply_at, write_fail_at;
	bool t144; /* the object table lists T144 (mchp_spi_ts: data CRC on) */
};

extern const struct emub_driver_ops emub_drv_atmel_mxt_ts;
extern const struct emub_spi_driver emub_spi_drv_mchp;

#endif /* MXT_EMUL_H */
