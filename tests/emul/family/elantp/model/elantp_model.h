/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An Elan i2c touchpad (the chips elan_i2c serves over i2c), modelled from
 * the kernel's drivers/input/mouse/elan_i2c_i2c.c, elan_i2c_core.c and
 * elan_i2c.h -- the registers the driver reads and writes and the answers
 * it checks -- not from touchfw's agent.  Freestanding: see em_types.h.
 *
 * Bus: a write of a LE16 register then a read in one transaction reads
 * it; a write of a LE16 register and a LE16 value writes it; a plain read
 * takes what the chip has pending (the 2-byte reset acknowledgement 00 00,
 * with INT asserted until it is read).  Modelled as "pattern 0" parts with
 * ic type 0x08 (elan_get_fwinfo: 512 pages of 64 bytes, signature
 * AA 55 CC 33 FF FF at 512 * 64 - 6).
 *  - 0x0005 STAND: 0x0100 reset (acknowledged), 0x0800 wake, 0x0801 sleep.
 *  - 0x0001 / 0x0002: the 30-byte I2C HID and 158-byte report descriptors.
 *  - 0x0100 pattern, 0x0101 product id, 0x0102 firmware version, 0x0103
 *    sample version and ic type, 0x0104 clickpad bit, 0x0105 traces,
 *    0x0106 / 0x0107 maximum x / y, 0x0108 resolution, 0x010A pressure
 *    format, 0x0110 IAP version, 0x0300 mode, 0x0307 power, 0x030F
 *    firmware checksum.
 *  - IAP: 0x0310 control (bit 9 main mode; bit 5 page error, bit 4
 *    interface error), 0x0311 password: 0x1EA5 written in main mode
 *    switches to IAP, written again in IAP unlocks writing (and reads
 *    back; the model then erases the last page, so an update cut short
 *    leaves the chip in IAP); pages arrive as 01 06 + 64 bytes + their LE16 word sum and are
 *    written from the application's first page (the image's LE16 at byte
 *    0x106, in words, as the driver computes it; the chip's own boot code
 *    ends there: page 32 unless the part says otherwise) on; after the last page
 *    the chip resets itself (watchdog); 0x0314 = F0F0 resets it; 0x0315
 *    reads the sum of the page sums written in this IAP.
 *  - In IAP mode only the IAP registers, the I2C HID descriptor (0x0001:
 *    length 30, version 1.00, Elan's vendor id 0x04F3 at offset 20) and
 *    the product id (0x0101, fwupd's "module id") answer -- fwupd's elantp
 *    recovery device reads those from a part in IAP -- the others NAK, so
 *    the driver's probe fails on a touchpad left there (at the report
 *    descriptor, 0x0002: which register a real part refuses first is not
 *    public).  A touchpad that
 *    boots in IAP (no valid application) is flashed the same way, as
 *    elan_i2c_prepare_fw_update does from IAP: F0F0 at 0x0314 (it stays
 *    in IAP), the password (unlocks: in IAP already), the password again,
 *    the pages.  Pages sent while locked set the interface error (bit 4).
 *
 * Image layout beyond the driver's facts: the word at the IAP start (the
 * application's first word) points, in words, to the product id ("module
 * id"), as fwupd's fu-elantp-firmware.c reads an image; the rest is this
 * model's own: the bytes before the signature hold the product id again
 * (LE16, at -10) and the firmware version (at -8).  The chip boots the application only when
 * the signature is there and the product id is its own.
 *
 * SMBus (cfg.smbus; the parts psmouse hands to elan_i2c on an SMBus-only
 * adapter), modelled from drivers/input/mouse/elan_i2c_smbus.c: the chip
 * speaks SMBus commands instead of the 16-bit registers above; values the
 * driver reads as big-endian words are big-endian here.
 *  - Block reads: 0xA7 hello packet (five 0x55), 0xA0 range (3 bytes: the
 *    high nibbles of max x and y, then their low bytes), 0xA1 firmware
 *    version (3 bytes, the version last), 0xA2 traces (3 bytes: -, x, y),
 *    0xA3 the unique id (BE16 product id: the driver reads the same
 *    command for its sample version, the high byte, and ic type, the low
 *    byte -- so on SMBus a part of ic type 0x08 has a product id whose low
 *    byte is 0x08), 0xA4 resolution (3 bytes: -, x | y << 4, -), 0xA8 an
 *    idle report (32 bytes, report id 0x5D), 0xAC IAP version (3 bytes,
 *    last), 0xAD IAP control (BE16: bit 6 IAP mode, bits 4/5 the interface
 *    and page errors), 0xAE the application's checksum and 0xAF the sum of
 *    the page sums written in this IAP (what the driver reads them for; its
 *    macro names have them the other way round), 0x80 the IAP password
 *    (BE16).
 *  - Byte commands: 0x20 enable, 0x21 sleep, 0x29 arm the password,
 *    0x2B IAP reset.  Block writes to 0x00 of four bytes: 00 07 00 MODE,
 *    00 08 00 01 calibrate, 00 0B 00 5A the flash key, 0F 78 00 06 the
 *    password.
 *  - IAP as elan_smbus_prepare_fw_update drives it: in main mode the flash
 *    key, 0x29, the password switch to IAP (0x80 then reads 0x1234); the
 *    flash key then 0x2B restarts the IAP code unlocked (page pointer to
 *    the application's first page, sum cleared, last page erased, as the
 *    i2c unlock).  0x2B without the flash key is a plain reset (the chip
 *    boots what its flash holds, as F0F0 over i2c).  A page arrives as two
 *    32-byte block writes to 0x2A with no sum on the wire: the chip sums
 *    it itself, so only a refused page (locked, interface error) or an
 *    injected fault (page error) fails; after the last the watchdog resets
 *    the chip.
 *  - In IAP only 0x00, 0x29, 0x2A, 0x2B, 0x80, 0xA3 (the unique id) and
 *    0xAD are taken; any other command byte is not acknowledged, so
 *    elan_i2c's probe fails at the hello packet on a touchpad left there.
 *    Which commands a real part's IAP code answers is not public: this
 *    set is the model's own, the least the driver's update needs plus the
 *    product id (as the i2c IAP code answers it).
 */
#ifndef ELANTP_MODEL_H
#define ELANTP_MODEL_H

#include "em_chip.h"
#include "em_iap.h"

#define ELANTP_MODEL_PAGE 64
#define ELANTP_MODEL_PAGES 512
#define ELANTP_MODEL_FLASH (ELANTP_MODEL_PAGE * ELANTP_MODEL_PAGES)
#define ELANTP_MODEL_SIG_ADDR (ELANTP_MODEL_FLASH - 6)
#define ELANTP_MODEL_IAP_START_WORDS 0x0400 /* application from page 32 */

enum elantp_model_mode { ELANTP_MODEL_OFF, ELANTP_MODEL_MAIN, ELANTP_MODEL_IAP };

struct elantp_model_cfg {
	em_u16 addr; /* its i2c address; 0: answers any (a chip alone on its bus) */
	em_u16 product_id;
	em_u8 sm_version, iap_version;
	em_u16 max_x, max_y;
	/* First application page: the boot code's size (0: the default, 32). */
	em_u16 iap_start_page;
	int fail_page; /* answer a page error from this page index on (-1 never) */
	/* The supply drops as this page index arrives (0 or less: never;
	 * page 0 is boot code, never written), once: the
	 * page is lost, the chip starts again from its flash as it is (in
	 * IAP: the application's last page was erased at the unlock) and
	 * must be unlocked anew; the writes after it are interface errors. */
	int power_loss_page;
	bool smbus; /* speaks elan_i2c_smbus's commands, not the i2c registers */
};

struct elantp_model_stats {
	unsigned resets, iap_entries, pages_written, page_errors, boots_valid, power_losses;
};

struct elantp_model {
	struct elantp_model_cfg cfg;
	enum elantp_model_mode mode;
	bool powered;
	em_u8 flash[ELANTP_MODEL_FLASH];
	em_u8 fw_version;
	struct em_iap iap; /* the bootloader's state (em_iap.h) */
	em_u16 power;
	bool reg_set;
	em_u16 reg;
	em_u8 pending[2];
	bool have_pending;
	struct elantp_model_stats stats;
	/* SMBus: the command byte of this transaction, whether a read
	 * followed it, the flash key and the armed password, the first half
	 * of a page, the password register */
	em_u8 smb_cmd;
	bool smb_cmd_set, smb_read;
	bool flash_key, pw_armed, have_half;
	em_u8 half[ELANTP_MODEL_PAGE / 2];
	em_u16 smb_password;
};

/* @image of ELANTP_MODEL_FLASH bytes, or NULL: empty flash (IAP mode). */
void elantp_model_init(struct elantp_model *m, const struct elantp_model_cfg *cfg,
		       const em_u8 *image);
extern const struct em_chip_ops elantp_model_ops;
/* A valid image for @product_id at @fw_version (ELANTP_MODEL_FLASH bytes). */
void elantp_model_make_image(em_u8 *out, em_u16 product_id, em_u8 fw_version);
/* The same for a part whose application starts at @iap_start_page (1..511). */
void elantp_model_make_image_at(em_u8 *out, em_u16 product_id, em_u8 fw_version,
				em_u16 iap_start_page);
enum elantp_model_mode elantp_model_mode(const struct elantp_model *m);
em_u8 elantp_model_fw_version(const struct elantp_model *m);
const struct elantp_model_stats *elantp_model_stats(const struct elantp_model *m);

#endif /* ELANTP_MODEL_H */
