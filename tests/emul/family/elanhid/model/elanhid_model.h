/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An Elan touchpad that speaks HID over I2C (the parts i2c_hid and
 * hid-multitouch serve, ACPI PNP0C50 / DT "hid-over-i2c"), modelled from
 * the HID over I2C protocol as drivers/hid/i2c-hid/i2c-hid-core.c drives it
 * and from the register map Elan's IAP code answers over plain i2c as
 * fwupd's elantp plugin reads it (fu-elantp-i2c-device.c,
 * fu-elantp-common.h) and the kernel's elan_i2c_i2c.c writes it -- not
 * from touchfw's agent.  Freestanding: see em_types.h.
 *
 * Bus: a write of a LE16 register then a read in one transaction reads
 * it; a 4-byte write of a LE16 register and a LE16 value writes it; a
 * plain read takes the pending input report (i2c-hid's input register).
 *
 * Application ("main") mode, HID over I2C 1.00:
 *  - desc_reg (0x0001 unless configured, ACPI _DSM / DT hid-descr-addr):
 *    the 30-byte HID descriptor: wHIDDescLength 30, bcdVersion 0x0100,
 *    the report descriptor's length at 0x0002, input register 0x0003
 *    (wMaxInputLength 32), output 0x0004 (none), command 0x0005, data
 *    0x0006, Elan's vendor id 0x04F3, the HID product id and wVersionID
 *    the firmware version.
 *  - 0x0002: a precision-touchpad report descriptor (Digitizer / Touch
 *    Pad, report 4: five fingers of confidence, tip, contact id, X, Y,
 *    then scan time, contact count and button 1; feature report 2:
 *    contact count maximum and pad type; feature report 3 in a Device
 *    Configuration collection: input mode; a mouse collection, report 1).
 *  - command register 0x0005: [05 00, type<<4 | report id, opcode, ...]:
 *    RESET (1) restarts the chip and leaves the reset sentinel (an input
 *    read of length 0) with INT asserted; SET_POWER (8); GET_REPORT (2)
 *    then a read of the data register gives [len, id, data] of a feature
 *    report; SET_REPORT (3) takes one (input mode).  A touch queues
 *    report 4 with INT asserted until it is read.
 *  - Elan's registers answer too (0x0101 module id, 0x0102 firmware
 *    version, 0x0103 OSM version: sample version | ic type << 8, 0x0111
 *    IAP version, 0x0310 IAP control with bit 9 main mode).
 *
 * IAP mode (no valid application: "bricked"): the HID descriptor register
 * answers what the IAP code leaves there -- all 0xFF (iap_desc_ff) or all
 * zero -- so i2c-hid's probe refuses it (bcdVersion); the report
 * descriptor register NAKs.  The IAP code answers 0x0101 module id, 0x0110
 * IC body (ic type in the low byte), 0x0111 IAP version, 0x0310 control,
 * 0x0311 password, 0x0304 IAP type, 0x0314 reset, 0x0315 checksum, and
 * echoes the register number for the others (fwupd's elantp takes 0x0102
 * or 0x0103 reading back as itself to mean "no application").
 *
 * Flashing (fwupd's i2c recovery and elan_i2c's IAP for ic types from
 * 0x10 with IAP version 1): F0F0 at 0x0314 (stays in IAP), the password
 * 0x1EA5 at 0x0311 twice (the second unlocks writing and reads back; the
 * application's last page is erased then), the IAP type: page size / 2
 * (64) at 0x0304 (reads back), then pages of 128 bytes: 01 06 + page +
 * its LE16 word sum, from the application's first page (the image's LE16
 * at 0x106, in words); a page while locked or before the IAP type is set
 * is an interface error (IAP control bit 4), a bad sum a page error (bit
 * 5).  After the last page the chip resets itself; 0x0315 reads the sum of
 * the page sums written.  Image layout as elantp_model.h's (the word at
 * the IAP start points to the module id; the module id at -10 and the
 * firmware version at -8 before the signature AA 55 CC 33 FF FF at the
 * end): the chip boots its application only when the signature is there
 * and the module id is its own.
 */
#ifndef ELANHID_MODEL_H
#define ELANHID_MODEL_H

#include "em_chip.h"
#include "em_iap.h"

#define ELANHID_MODEL_PAGE 128 /* ic type 0x10, IAP version 1 */
#define ELANHID_MODEL_PAGES 512
#define ELANHID_MODEL_FLASH (ELANHID_MODEL_PAGE * ELANHID_MODEL_PAGES)
#define ELANHID_MODEL_SIG_ADDR (ELANHID_MODEL_FLASH - 6)
#define ELANHID_MODEL_IAP_START_WORDS 0x0800 /* application from page 32 */
#define ELANHID_MODEL_IC_TYPE 0x10
#define ELANHID_MODEL_IAP_VERSION 1
#define ELANHID_MODEL_DESC_LEN 30
#define ELANHID_MODEL_MAX_INPUT 32 /* wMaxInputLength */
#define ELANHID_MODEL_RDESC_MAX 640
#define ELANHID_MODEL_FINGERS 5
#define ELANHID_MODEL_TOUCH_ID 4 /* the finger report's id */

enum elanhid_model_mode { ELANHID_MODEL_OFF, ELANHID_MODEL_MAIN, ELANHID_MODEL_IAP };

struct elanhid_model_cfg {
	em_u16 addr;	  /* its i2c address; 0: answers any */
	em_u16 desc_reg;  /* the HID descriptor register; 0: 0x0001 */
	em_u16 module_id; /* Elan's product ("module") id */
	em_u16 hid_pid;	  /* the HID product id (0x3000..0x3FFF for i2c-hid parts) */
	em_u16 max_x, max_y;
	/* The first application page (0: 32). */
	em_u16 iap_start_page;
	/* IAP mode's descriptor register: all 0xFF (true) or all zero. */
	bool iap_desc_ff;
};

struct elanhid_model_stats {
	unsigned resets, pages_written, page_errors, intf_errors, boots_valid;
	unsigned desc_reads, rdesc_reads, reports_queued, reports_read, set_reports;
};

struct elanhid_model {
	struct elanhid_model_cfg cfg;
	enum elanhid_model_mode mode;
	bool powered;
	em_u8 flash[ELANHID_MODEL_FLASH];
	em_u8 fw_version;
	struct em_iap iap; /* the bootloader's state (em_iap.h) */
	em_u16 iap_type, power_state, input_mode;
	bool reg_set;
	em_u16 reg;
	/* a GET_REPORT answer waiting for the read of the data register */
	em_u8 answer[8];
	em_u16 answer_len;
	/* the pending input: the reset sentinel or a report */
	em_u8 input[ELANHID_MODEL_MAX_INPUT];
	bool have_input;
	em_u16 scan_time;
	em_u8 rdesc[ELANHID_MODEL_RDESC_MAX];
	em_u16 rdesc_len;
	struct elanhid_model_stats stats;
};

/* @image of ELANHID_MODEL_FLASH bytes, or NULL: empty flash (IAP mode). */
void elanhid_model_init(struct elanhid_model *m, const struct elanhid_model_cfg *cfg,
			const em_u8 *image);
extern const struct em_chip_ops elanhid_model_ops;
/* A valid image for @module_id at @fw_version (ELANHID_MODEL_FLASH bytes);
 * its application from @iap_start_page (0: 32). */
void elanhid_model_make_image(em_u8 *out, em_u16 module_id, em_u8 fw_version,
			      em_u16 iap_start_page);
/* One finger (@contact 0..4) down at (@x, @y), or lifted (!@down): queues
 * report 4 with INT asserted (a report not yet read is replaced).  0, or
 * -1 when the chip runs no application. */
int elanhid_model_touch(struct elanhid_model *m, unsigned contact, em_u16 x, em_u16 y,
			bool down);
enum elanhid_model_mode elanhid_model_mode(const struct elanhid_model *m);
em_u8 elanhid_model_fw_version(const struct elanhid_model *m);
const struct elanhid_model_stats *elanhid_model_stats(const struct elanhid_model *m);

#endif /* ELANHID_MODEL_H */
