/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A Goodix GT9xx / GT1x touch controller with flash, modelled from the
 * kernel's drivers/input/touchscreen/goodix.c, goodix.h and
 * goodix_fwupload.c and from Goodix's vendor driver gt9xx.c
 * (gtp_init_panel) -- not from touchfw's agent.  Freestanding: see
 * em_types.h.
 *
 * Bus: 16-bit big-endian register address, then data; reads continue from
 * the address of the last write, auto-incrementing.  The chip answers at
 * 0x14 or 0x5D, chosen by the level of its INT pin when RST is released
 * (INT high -> 0x14, INT low -> 0x5D: goodix_reset_no_int_sync); with INT
 * left undriven, and at power-up without a reset pulse, it keeps the
 * board's strap address (cfg.addr).
 *
 * Registers: 0x8040 command (0x05 screen off: the chip sleeps, NAKs, and
 * wakes on INT driven high), 0x8041 software watchdog, 0x8043 request
 * (0x01: the chip asks the host for a config), 0x8140 product id (4 ASCII
 * bytes) + firmware version (LE16), 0x814E touch status (bit 7 buffer
 * ready, bit 4 key, bits 0-3 points) followed by 8-byte points; the host
 * writes 0 to 0x814E to release the buffer.  Config at 0x8047 (GT9xx) or
 * 0x8050 (GT1x), length by product id as goodix_chip_ids lists it: 186,
 * 228 or 240 bytes, 8-bit checksum at len-2 (GT9xx) or BE16 word checksum
 * at len-3 (GT1x), "config fresh" byte at len-1.
 *
 * Writing the config: bytes land in the config registers; when a
 * transaction that wrote the fresh byte = 1 ends (STOP), the chip checks
 * the registers: a bad checksum, or a version byte (byte 0) lower than the
 * stored one and not 0, is ignored and the registers return to the active
 * config; otherwise the config is applied after cfg_apply_ns and stored in
 * flash: the fresh byte then reads 0, and a version 0 becomes 'A' (0x41)
 * with the checksum recomputed.  A chip whose stored config is missing or
 * has a bad checksum boots with its config registers reading 0 and the
 * request register at 0x01 (INT asserted), until a valid config arrives.
 * tests/emul/README.md gives the source of each rule.
 */
#ifndef GOODIX_MODEL_H
#define GOODIX_MODEL_H

#include "em_chip.h"

#define GOODIX_MODEL_ADDR_HIGH 0x14 /* INT high at reset release */
#define GOODIX_MODEL_ADDR_LOW 0x5d  /* INT low at reset release */

#define GOODIX_MODEL_REG_COMMAND 0x8040
#define GOODIX_MODEL_REG_SW_WDT 0x8041
#define GOODIX_MODEL_REG_REQUEST 0x8043
#define GOODIX_MODEL_REG_STATUS 0x8044
#define GOODIX_MODEL_REG_CONFIG_GT9X 0x8047
#define GOODIX_MODEL_REG_CONFIG_GT1X 0x8050
#define GOODIX_MODEL_REG_ID 0x8140
#define GOODIX_MODEL_REG_COOR 0x814e

#define GOODIX_MODEL_CMD_SCREEN_OFF 0x05

#define GOODIX_MODEL_RQST_RESPONDED 0x00
#define GOODIX_MODEL_RQST_CONFIG 0x01
#define GOODIX_MODEL_RQST_IDLE 0xff

#define GOODIX_MODEL_CONFIG_MAX 240
#define GOODIX_MODEL_MAX_POINTS 10
#define GOODIX_MODEL_POINT_SIZE 8

/* Modelled register window: 0x8040 .. 0x81ff; outside reads 0. */
#define GOODIX_MODEL_REG_BASE 0x8040
#define GOODIX_MODEL_REG_SPAN 0x1c0

enum goodix_model_csum {
	GOODIX_MODEL_CSUM_8,  /* GT9xx: 8-bit two's complement at len-2 */
	GOODIX_MODEL_CSUM_16, /* GT1x: BE16 word sum, two's complement, at len-3 */
};

/* Config layout of a product id (goodix.c goodix_chip_ids / goodix_get_chip_data). */
struct goodix_model_layout {
	em_u16 config_addr;
	em_u16 config_len;
	enum goodix_model_csum csum;
};

struct goodix_model_timing {
	em_u64 boot_ns;	     /* RST released / power on to answering */
	em_u64 cfg_apply_ns; /* fresh config accepted to applied and stored */
	em_u64 wake_ns;	     /* INT high in sleep to answering again */
};

struct goodix_model_faults {
	bool nak;	       /* the chip never acknowledges its address */
	bool refuse_config;    /* config writes are ignored, whatever they hold */
	bool config_volatile;  /* an applied config is not stored: lost at reset */
	bool fixed_address;    /* ignores INT at reset: always the strap address */
	bool corrupt_readback; /* config checksum byte reads back wrong */
	em_u32 slow_factor;    /* multiply every busy time (0 = 1) */
};

struct goodix_model_cfg {
	char id[4]; /* product id bytes, e.g. '9','1','1',0 */
	em_u16 fw_version;
	em_u16 addr; /* strap address: 0x14 or 0x5d */
	/* Config stored in flash; stored_len 0 = none.  Bytes beyond the
	 * layout's length are ignored; a shorter one counts as missing. */
	em_u8 stored[GOODIX_MODEL_CONFIG_MAX];
	em_u16 stored_len;
	struct goodix_model_timing t;
	struct goodix_model_faults faults;
};

enum goodix_model_mode {
	GOODIX_MODE_OFF,   /* no power */
	GOODIX_MODE_RESET, /* RST held, or booting: NAKs */
	GOODIX_MODE_RUN,
	GOODIX_MODE_SLEEP, /* screen off: NAKs until INT goes high */
};

struct goodix_model_stats {
	em_u32 resets; /* reset releases and power-ups */
	em_u32 configs_applied;
	em_u32 configs_bad_checksum;
	em_u32 configs_old_version;
	em_u32 configs_refused; /* refuse_config fault */
	em_u32 config_writes;	/* write messages touching the config area */
	em_u32 requests;	/* config requests raised */
	em_u32 touch_frames;	/* frames the host read */
};

struct goodix_model_point {
	em_u8 id;
	em_u16 x, y, w;
};

/* Opaque in spirit: hosts use the functions below, never the fields. */
struct goodix_model {
	struct goodix_model_cfg cfg;
	struct goodix_model_layout lay;
	em_u64 now;
	enum goodix_model_mode mode;
	bool powered, reset_held;
	bool int_driven, int_level; /* the host drives INT (and its level) */
	em_u16 addr;		    /* address in use */
	em_u64 ready_at;	    /* boot or wake completes (EM_NEVER: none) */
	em_u64 apply_at;	    /* accepted config applied (EM_NEVER: none) */
	em_u8 regs[GOODIX_MODEL_REG_SPAN];
	em_u8 active[GOODIX_MODEL_CONFIG_MAX]; /* config in use */
	em_u8 flash[GOODIX_MODEL_CONFIG_MAX];  /* config kept across resets */
	bool flash_valid, active_valid;
	em_u8 pending[GOODIX_MODEL_CONFIG_MAX]; /* accepted, being applied */
	em_u16 ptr;
	bool fresh_written;  /* this transaction set the fresh byte to 1 */
	bool sleep_cmd;	     /* this transaction wrote the screen-off command */
	bool request_unread; /* a raised request the host has not read */
	bool frame_unread;   /* a touch frame the host has not read */
	struct goodix_model_stats stats;
};

/* Layout for a product id (4 bytes, NUL-padded), as goodix_get_chip_data. */
void goodix_model_layout_for(const char id[4], struct goodix_model_layout *lay);

/*
 * Checksum helpers, exactly as goodix_check_cfg_8 / _16 check.  fill stores
 * a correct checksum into @cfg of @len bytes; false when none exists (a
 * GT1x config of even length sums the checksum's own high byte, and 1 in
 * 257 contents then has no consistent value).
 */
bool goodix_model_fill_checksum(em_u8 *cfg, em_u16 len, enum goodix_model_csum csum);
bool goodix_model_checksum_ok(const em_u8 *cfg, em_u16 len, enum goodix_model_csum csum);

/*
 * A plausible config for @cfg's product id: version @version, resolution
 * @x_res x @y_res, @touches points (1..10), trigger @trigger (0..3),
 * correct checksum, fresh byte 1.  Writes cfg->stored and cfg->stored_len.
 */
void goodix_model_make_config(struct goodix_model_cfg *cfg, em_u8 version, em_u16 x_res,
			      em_u16 y_res, em_u8 touches, em_u8 trigger);

/* Powered at model time @now, RST released, INT undriven: booted already. */
void goodix_model_init(struct goodix_model *m, const struct goodix_model_cfg *cfg, em_u64 now);

extern const struct em_chip_ops goodix_model_ops;

/*
 * The INT pin as the host sees it.  @driven: the host drives INT (output)
 * at @level (physical); not driven: the chip drives it.  RST uses
 * em_chip_ops.set_reset (true = held low) and the supply set_power.
 */
void goodix_model_set_int(struct goodix_model *m, bool driven, bool level);
/*
 * Physical level the chip puts on INT when the host does not drive it:
 * interrupt asserted gives the active level of the config's trigger type
 * (0 rising, 3 level-high: high; 1 falling, 2 level-low: low).
 */
bool goodix_model_int_level(const struct goodix_model *m);

/* Report a touch frame (0..10 points; 0 = all fingers up); INT asserts. */
void goodix_model_touch(struct goodix_model *m, const struct goodix_model_point *pts, em_u8 n);

/* Inspection for tests, the driver model and the emulator. */
enum goodix_model_mode goodix_model_mode(const struct goodix_model *m);
em_u16 goodix_model_addr(const struct goodix_model *m);
const struct goodix_model_layout *goodix_model_layout(const struct goodix_model *m);
/* Active config (len = layout length); false if the chip has none. */
bool goodix_model_active_config(const struct goodix_model *m, const em_u8 **cfg);
/* Config kept in flash; false if none. */
bool goodix_model_flash_config(const struct goodix_model *m, const em_u8 **cfg);
em_u8 goodix_model_request(const struct goodix_model *m);
const struct goodix_model_stats *goodix_model_stats(const struct goodix_model *m);
struct goodix_model_faults *goodix_model_faults(struct goodix_model *m);

#endif /* GOODIX_MODEL_H */
