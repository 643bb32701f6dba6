/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An Elan eKTH touchscreen controller (the chips elants_i2c serves),
 * modelled from the kernel's drivers/input/touchscreen/elants_i2c.c -- the
 * commands it sends and the answers it checks -- not from touchfw's agent.
 * Freestanding: see em_types.h.
 *
 * Bus: commands are plain writes; an answer waits in the chip's output
 * buffer (the interrupt line asserted) until a plain read takes it.
 *  - 77 77 77 77: soft reset.  The chip then waits for "Main" (4D 61 69 6E,
 *    fast boot) and answers the hello packet: 55 55 55 55 when its flash
 *    holds a valid application for this chip, else 55 55 80 80 (recovery:
 *    the boot code runs).  A soft reset while in IAP ends IAP (the
 *    reset command is the boot code's, and IAP runs in it); a chip that
 *    takes only pages there is the fault iap_ignores_reset.
 *  - 53 <info> 00 01: a 4-byte answer 52 ..; the driver takes bits 4..19 of
 *    it as big-endian 32 (elants_i2c_parse_version).  F0 hardware id and 10
 *    boot code version answer in recovery too; 00 firmware version, E0 test
 *    version, D6 OSR, D7/D8 physical size only with the application running.
 *  - 5B 00 00 00 00 00: 17-byte answer 9B .. with the trace numbers.
 *  - 96 80 1F 00 00 21: 6-byte answer 95 .. with the remark id (BE16 at 3).
 *  - 54 2C 01 01 close idle, 54 50/58 .. power: accepted.
 *  - 54 C0 E1 5A then 54 29 00 01: calibration, answered 66 66 66 66.
 *  - IAP (elants_i2c_do_update_firmware): 45 49 41 50 ("EIAP") right after
 *    a soft reset, or 54 00 12 34 in recovery, answered 55 AA 33 CC; then a
 *    one-byte write, then 132-byte pages, each answered AA AA: the first
 *    page clears the last page of the flash (the application is invalid
 *    from then on), the following ones are written in order from page 0.
 *    In IAP nothing but pages is taken: 54 00 12 34 (the driver's forced
 *    IAP, sent without a reset after its own failed IAP) is not
 *    acknowledged there, only by the boot code after a reset.  What an
 *    Elan chip does with it mid-IAP is not documented; this is the
 *    cautious reading of the driver, which resets before every IAP entry
 *    but that one.
 *
 * The image layout is this model's own (Elan's is not public): the driver
 * only requires a multiple of 132 bytes and reads the remark id as LE16 at
 * size - 4.  Here the last 8 bytes are: firmware version LE16, hardware id
 * LE16, remark id LE16, and a LE16 sum of all bytes before it.  The chip
 * boots the application only when the sum holds and the hardware id is its
 * own (elants_model_make_image builds such images).
 */
#ifndef ELANTS_MODEL_H
#define ELANTS_MODEL_H

#include "em_chip.h"

#define ELANTS_MODEL_PAGE 132
#define ELANTS_MODEL_FLASH_MAX (ELANTS_MODEL_PAGE * 512)
#define ELANTS_MODEL_TRAILER 8

enum elants_model_mode {
	ELANTS_MODEL_OFF,      /* unpowered or held in reset */
	ELANTS_MODEL_RESET,    /* after a soft reset: waits for Main or EIAP */
	ELANTS_MODEL_NORMAL,   /* application running */
	ELANTS_MODEL_RECOVERY, /* boot code: no valid application */
	ELANTS_MODEL_IAP,      /* in-application programming */
};

struct elants_model_cfg {
	em_u16 addr;	   /* its i2c address; 0: answers any (a chip alone on its bus) */
	em_u16 hw_version; /* FW ID, what elants_i2c_%04x.bin is named by */
	em_u16 bc_version; /* boot code << 8 | IAP version */
	em_u16 test_version;
	em_u16 remark_id;
	em_u8 rows, cols, osr; /* x_max = (rows - 1) * osr, y_max = (cols - 1) * osr */
	/* Faults. */
	int nak_iap_page;	/* answer 55 55 instead of AA AA from this page on (-1 never) */
	bool refuse_iap;	/* never enter IAP (answer nothing) */
	bool iap_ignores_reset; /* in IAP, 77 77 77 77 is not taken: only power or
				 * the reset line end it */
};

struct elants_model_stats {
	unsigned soft_resets, hellos, iap_entries, pages_written, bad_acks, calibrations;
	unsigned images_booted;
};

struct elants_model {
	struct elants_model_cfg cfg;
	enum elants_model_mode mode;
	bool powered;
	em_u8 flash[ELANTS_MODEL_FLASH_MAX];
	em_u32 flash_len;  /* bytes of the image in flash */
	bool app_valid;	   /* decided at the last boot */
	em_u16 fw_version; /* of the running application */
	/* IAP */
	bool iap_acked, iap_dummy, iap_cleared;
	em_u32 iap_page;
	em_u32 iap_len;
	/* output buffer */
	em_u8 out[17];
	em_u16 out_len;
	bool rek_armed;
	struct elants_model_stats stats;
};

/*
 * @image, @len: the flash content at power-up (may be NULL/0: empty flash,
 * recovery).  Powered and booted: a host sees the hello packet only after
 * its own soft reset and fast boot, as the driver does.
 */
void elants_model_init(struct elants_model *m, const struct elants_model_cfg *cfg,
		       const em_u8 *image, em_u32 len);
extern const struct em_chip_ops elants_model_ops;

/* Does the image hold this model's trailer with a good sum? */
bool elants_model_image_ok(const em_u8 *image, em_u32 len, em_u16 *fw_version,
			   em_u16 *hw_version);
/* Build an image of @pages pages (>= 1) with the trailer; @out has room. */
void elants_model_make_image(em_u8 *out, em_u32 pages, em_u16 fw_version, em_u16 hw_version,
			     em_u16 remark_id);

enum elants_model_mode elants_model_mode(const struct elants_model *m);
/* The running application's firmware version, 0 when none runs. */
em_u16 elants_model_fw_version(const struct elants_model *m);
const struct elants_model_stats *elants_model_stats(const struct elants_model *m);

#endif /* ELANTS_MODEL_H */
