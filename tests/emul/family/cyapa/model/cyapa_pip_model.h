/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A Cypress APA trackpad of the fifth or sixth generation (Gen5,
 * "TrueTouch", ACPI CYAP0001; Gen6, CYAP0002; both at i2c address 0x24),
 * which speaks PIP (Cypress's packet interface), modelled from what the
 * kernel's cyapa driver
 * (drivers/input/mouse/cyapa.c, cyapa_gen5.c, cyapa_gen6.c, cyapa.h)
 * sends, reads and checks -- not from touchfw's agent.  Freestanding: see
 * em_types.h.
 *
 * Bus.  A write starts with a 16-bit little-endian register: 0x0001 (the
 * HID descriptor: a write of just that queues it), 0x0004 (an output
 * report: a command), 0x0005 (the power command: 05 00 STATE 08, deep
 * sleep on 01 / off 00).  Writes shorter than 2 bytes are taken and
 * ignored.  A read returns the oldest queued report from its start
 * (2-byte little-endian length, report id, ...); a read of its whole
 * length takes it off the queue (a shorter one, the driver's 2-byte look
 * at the length, leaves it); with nothing queued a read gives 02 00 (the
 * driver's "no data").  After a power-on or a reset the queue holds 00 00
 * (cyapa_sort_pip_application_launch_data).  INT is asserted while the
 * queue is not empty.
 *
 * Application (the mode at power-on while the flash holds a valid
 * application).  Output report 0x2f, command at byte 6: 0x01 enter the
 * bootloader (answered with 00 00 from it), 0x02 system information (71
 * bytes, the offsets cyapa_gen5_get_query_data and
 * cyapa_get_pip_fixed_info read: product family 0x1001 at 7, version at
 * 9/10 and 15/16, family id 0x91 at 19, silicon id 0x02 at 22, the
 * product id at 33, platform version at 49, electrodes, size in 0.01 mm,
 * maximum x/y/z, origin, buttons at 52..70), 0x05/0x06 get/set a
 * parameter, 0x08 power state, 0x03/0x04 suspend/resume scanning, 0x28
 * calibrate, 0x49 proximity; others get the 6-byte "unsupported"
 * answer.  Answers: length, 0x1f, 0, the command, status 0, data.  Deep
 * sleep (05 00 01 08) makes it ignore commands until woken.
 *
 * Bootloader.  Output report 0x40: 01 (start of packet), command, 16-bit
 * data length, data, CRC-16 (crc_itu_t from 0xffff over start to data),
 * 17 (end).  Answers: length, 0x30, 0, 01, status, data length, data,
 * CRC, 17.  0x38 bootloader information (family id, silicon id: 19
 * bytes), 0x3c application information (30 bytes: product id at 8,
 * version at 22, platform at 26, read from the flash whatever its state:
 * zeros for an erased application -- what a real bootloader answers
 * there is not public; one that failed would leave cyapa's platform
 * version 0, and cyapa would then take only 13-byte-head images), 0x48 initiate (the key A5 01
 * 02 03 FF FE FD 5A, the 60 metadata bytes of the image's last row and their CRC: erases the
 * application rows, keeps the metadata as row 0x1ff; busy erase_ns, then
 * answers), 0x39 program and verify a row (array 0, row 0x2e..0x1fe, 128
 * bytes; only after an initiate; busy row_ns, then answers), 0x3b launch
 * (with a valid application it starts, answering 00 00; otherwise 11
 * bytes with status 0x0c, PIP_BL_FAIL_EXIT_STATUS_CODE), 0x31 verify the
 * application.  Status codes other than 0 and 0x0c are this model's own
 * (0x02 unknown command, 0x03 packet CRC, 0x04 key, 0x05 row): the
 * bootloader's table is not public.
 *
 * The application is valid when row 0x1ff's 60 metadata bytes match
 * their CRC at 60, app_start (4) and app_len (8) are row-aligned and
 * within the flash, and the CRC of the application's rows is app_crc
 * (10) -- what cyapa_pip_check_fw checks in the file.  The product id
 * and version live in the application's first row (0x2e: 13 characters
 * without dashes, major, minor), this model's own layout, which fwgen
 * writes.
 *
 * Gen6 (cfg.gen 6), as cyapa_gen6.c reads and commands one; the
 * bootloader, the image and the flash are Gen5's (cyapa_gen6_ops takes
 * cyapa_pip_check_fw, bl_enter, bl_initiate and do_fw_update from
 * cyapa_gen5.c).  What differs:
 *  - system information (0x02, 71 bytes, cyapa_gen6_read_sys_info and
 *    cyapa_get_pip_fixed_info): product family 0x1001 at 7, version at
 *    9/10, family id 0x9b at 19, silicon id 0x0b at 22 (low 0x01 at 21),
 *    electrodes at 33/34, size in 0.01 mm at 35/37, maximum x/y/z at
 *    39/41/43, origin 45/46, the product id at 51 (13 characters),
 *    platform version at 67, Rx alignment 68, buttons 70;
 *  - the bootloader's information (0x38): family id 0x9b, silicon id
 *    0x0b; its application information (0x3c, cyapa_gen6_bl_read_app_info):
 *    version at 8/9 of the answer, platform at 12, the product id at 13;
 *  - power: 0x41/0x42 enable/disable the command interrupt (acknowledged;
 *    whether the part then keeps INT quiet is not public and not
 *    modelled), 0x46 the power state (answered with the state applied:
 *    01 active, 02/03 low power 1/2, 04 buttons only), 0x47/0x48 set/get
 *    the three scan intervals (11-byte answers); Gen5's 0x05/0x06/0x08
 *    are answered "unsupported";
 *  - in deep sleep a write of an output report is not acknowledged (the
 *    kernel's cyapa_gen6_deep_sleep: the ping "response nothing except an
 *    I2C NAK"); the power command still wakes it.
 * Not public, the model's own: the HID descriptor's fields past the
 * report id (Gen5's maximum output lengths, 0xfe and 0x100, are given;
 * cyapa checks none of them for Gen6), the values cyapa does not read.
 */
#ifndef CYAPA_PIP_MODEL_H
#define CYAPA_PIP_MODEL_H

#include "em_chip.h"

#define CYAPA_PIP_MODEL_ADDR 0x24
#define CYAPA_PIP_ROW 128
#define CYAPA_PIP_ROWS 512
#define CYAPA_PIP_FIRST_ROW 0x2e /* CYAPA_TSG_IMG_START_ROW_NUM */
#define CYAPA_PIP_LAST_ROW 0x1fe /* CYAPA_TSG_IMG_END_ROW_NUM */
#define CYAPA_PIP_META_ROW 0x1ff /* CYAPA_TSG_IMG_APP_INTEGRITY_ROW_NUM */
#define CYAPA_PIP_APP_ROWS (CYAPA_PIP_LAST_ROW - CYAPA_PIP_FIRST_ROW + 1) /* 465 */
/* the image file: a 19-byte head (head_size 0x12), then records of
 * array id, BE16 row, BE16 length and 128 bytes: the application's and
 * last the metadata row */
#define CYAPA_PIP_HEAD_SIZE 19
#define CYAPA_PIP_RECORD_SIZE (5 + CYAPA_PIP_ROW)
#define CYAPA_PIP_FILE_SIZE \
	(CYAPA_PIP_HEAD_SIZE + (CYAPA_PIP_APP_ROWS + 1) * CYAPA_PIP_RECORD_SIZE) /* 61997 */
#define CYAPA_PIP_QUEUE 4

enum cyapa_pip_model_mode {
	CYAPA_PIP_OFF,
	CYAPA_PIP_BL,
	CYAPA_PIP_APP,
};

struct cyapa_pip_model_cfg {
	em_u16 addr;	    /* 0: answers any address */
	int gen;	    /* 5 or 6 (0: 5) */
	em_u64 erase_ns;    /* initiate's erase (0: 1.5 s) */
	em_u64 row_ns;	    /* one row's programming (0: 10 ms) */
	em_u8 platform;	    /* platform version (0: 2, proximity) */
	int power_loss_row; /* the supply drops as the n-th row command since
			     * the initiate arrives (1-based; 0 never), once */
};

struct cyapa_pip_model_stats {
	unsigned boots, bl_enters, initiates, rows_written, row_errors, launches,
		launch_refused, power_losses, commands, sys_info_reads, naks;
};

struct cyapa_pip_report {
	em_u16 len; /* bytes queued (2 for 00 00) */
	em_u8 data[80];
};

struct cyapa_pip_model {
	struct cyapa_pip_model_cfg cfg;
	enum cyapa_pip_model_mode mode;
	bool powered, sleeping, initiated, power_lost_once;
	em_u8 flash[CYAPA_PIP_ROWS * CYAPA_PIP_ROW];
	struct cyapa_pip_report queue[CYAPA_PIP_QUEUE];
	int queued;
	/* a command that answers once busy_until has come */
	em_u64 now, busy_until;
	int busy_kind;
	em_u16 busy_row;
	em_u8 busy_data[CYAPA_PIP_ROW];
	int rows_since_initiate;
	em_u16 params[2]; /* low-power interval (0x4c), active-lift (0x4f) */
	/* Gen6: the power state (0x46) and the three scan intervals (0x47:
	 * active, low power 1, low power 2) */
	em_u8 power_state;
	em_u16 intervals[3];
	bool cmd_irq_off; /* 0x42 disabled, 0x41 enabled (kept, not acted on) */
	struct cyapa_pip_model_stats stats;
};

/* crc_itu_t(0xffff, ...): CRC-16, polynomial 0x1021, most significant
 * bit first. */
em_u16 cyapa_pip_crc(em_u16 crc, const em_u8 *p, em_u32 n);

/* @file: an image as cyapa_pip_make_file makes it, its rows put in flash
 * as the driver would write them; NULL: erased (the chip stays in its
 * bootloader). */
void cyapa_pip_model_init(struct cyapa_pip_model *m, const struct cyapa_pip_model_cfg *cfg,
			  const em_u8 *file);
extern const struct em_chip_ops cyapa_pip_model_ops;

/*
 * An image file for the model (CYAPA_PIP_FILE_SIZE bytes at @out) as
 * cyapa_pip_check_fw wants it for a Gen@gen part (5: family id 0x91,
 * silicon id 0x02; 6: 0x9b, 0x0b): @product "CYTRA-103002-00", version
 * @major.@minor in the head and the first row, the metadata and all CRCs
 * right.
 */
void cyapa_pip_make_file(em_u8 *out, int gen, const char *product, em_u8 major, em_u8 minor);
/* The metadata row's application CRC and its own CRC, again (after a
 * change to the rows). */
void cyapa_pip_seal_file(em_u8 *file);

enum cyapa_pip_model_mode cyapa_pip_model_mode(const struct cyapa_pip_model *m);
/* major << 8 | minor while the application is valid, else -1 */
int cyapa_pip_model_fw_version(const struct cyapa_pip_model *m);
const struct cyapa_pip_model_stats *cyapa_pip_model_stats(const struct cyapa_pip_model *m);

#endif /* CYAPA_PIP_MODEL_H */
