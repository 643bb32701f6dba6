/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A Silead GSL1680-family touch controller: a flashless MCU whose program
 * the host loads into its RAM after every power-up.  Modelled from the
 * kernel's drivers/input/touchscreen/silead.c (the only public account of
 * the protocol we read) -- not from touchfw's agent.  Freestanding: see
 * em_types.h.
 *
 * Bus (SMBus-style: one command byte, then data; reads continue from the
 * command byte of the last write):
 *   0xFC  chip id, LE32, read-only (silead_ts_get_id)
 *   0xB0  status, LE32: 0x5A5A5A5A once a loaded program runs
 *         (silead_ts_get_status, SILEAD_STATUS_OK)
 *   0xE0  control: 0x88 holds the MCU in reset (SILEAD_CMD_RESET), 0x00
 *         starts it (SILEAD_CMD_START, silead_ts_startup)
 *   0xE4  clock (SILEAD_CLOCK = 0x04 is written), 0xBC power (0x00)
 *   0x80  touch data, 44 bytes (SILEAD_TS_DATA_LEN): byte 0 the number of
 *         points, then 4 bytes a point from byte 4: Y LE16 (12 bits; bits
 *         12-15 a soft-button code), X LE16 (12 bits; bits 12-15 the
 *         touch id).  A 1-byte write there sets the number of fingers
 *         (silead_ts_init writes max_fingers).
 *   0xF0  RAM page register (LE32)
 *   0x00..0x7C  one 32-bit word of the selected RAM page (LE32)
 * The firmware file silead_ts_load_fw writes is a list of 8-byte (offset,
 * value) pairs, each sent as i2c_smbus_write_i2c_block_data(offset, 4,
 * value): page selects at 0xF0 and words at 0x00..0x7C.
 *
 * Decisions where silead.c is silent (documented in tests/emul/README.md):
 * RAM is 256 pages of 32 words; a word write must be 4 bytes at a
 * word-aligned offset below 0x80 and a page below 256, or its data is
 * NAKed.  RAM is lost with power or while the shutdown (power GPIO) pin is
 * held low -- silead.c keeps the regulators on "otherwise it forgets its
 * firmware".  A start (0xE0 = 0x00) runs the program after start_ns; the
 * status reads 0x5A5A5A5A only if RAM holds a program (any word written
 * since power-up), else 0.  A running program that is not the one the
 * board expects (a digest of the RAM against cfg.expected) still reports
 * OK status -- a wrong tablet's firmware runs -- but reports no touches:
 * its scan parameters do not fit this panel.
 */
#ifndef SILEAD_MODEL_H
#define SILEAD_MODEL_H

#include "em_chip.h"

#define SILEAD_MODEL_REG_DATA 0x80
#define SILEAD_MODEL_REG_STATUS 0xb0
#define SILEAD_MODEL_REG_POWER 0xbc
#define SILEAD_MODEL_REG_RESET 0xe0
#define SILEAD_MODEL_REG_CLOCK 0xe4
#define SILEAD_MODEL_REG_PAGE 0xf0
#define SILEAD_MODEL_REG_ID 0xfc

#define SILEAD_MODEL_CMD_RESET 0x88
#define SILEAD_MODEL_CMD_START 0x00
#define SILEAD_MODEL_STATUS_OK 0x5a5a5a5aU

#define SILEAD_MODEL_PAGES 256
#define SILEAD_MODEL_PAGE_WORDS 32
#define SILEAD_MODEL_WORDS (SILEAD_MODEL_PAGES * SILEAD_MODEL_PAGE_WORDS)
#define SILEAD_MODEL_DATA_LEN 44
#define SILEAD_MODEL_MAX_POINTS 10

/* The chip's program memory. */
struct silead_model_ram {
	em_u32 word[SILEAD_MODEL_WORDS];
	em_u8 written[SILEAD_MODEL_WORDS / 8];
	em_u32 nwritten;
};

struct silead_model_timing {
	em_u64 boot_ns;	 /* power / shutdown released to answering */
	em_u64 start_ns; /* start command to the program running */
};

struct silead_model_faults {
	bool nak;	   /* never acknowledges its address */
	bool never_starts; /* the program never runs: status stays 0 */
	/* The program runs, then stops SILEAD_MODEL_STOP_NS later: status 0
	 * again (code that crashes on this chip; silead.c's resume reloads a
	 * chip whose status is no longer OK). */
	bool stops;
};

#define SILEAD_MODEL_STOP_NS (500 * EM_NSEC_PER_MSEC)

struct silead_model_cfg {
	em_u16 addr;
	em_u32 chip_id;
	/* The program the board's panel needs (silead_model_ram_digest of
	 * RAM after it is loaded); !has_expected: any program touches. */
	bool has_expected;
	em_u64 expected;
	struct silead_model_timing t;
	struct silead_model_faults faults;
};

struct silead_model_stats {
	em_u32 power_ups;
	em_u32 resets;	      /* 0x88 written */
	em_u32 starts;	      /* programs that ran */
	em_u32 words_written; /* RAM words */
	em_u32 pages_selected;
	em_u32 bad_writes; /* NAKed data */
	em_u32 frames_read;
	em_u32 touches_lost; /* touches a wrong or absent program did not report */
	em_u32 status_reads; /* reads of 0xB0 */
};

struct silead_model_point {
	em_u8 id;    /* 0..15 */
	em_u16 x, y; /* 0..4095 */
};

/* Opaque in spirit: hosts use the functions below, never the fields. */
struct silead_model {
	struct silead_model_cfg cfg;
	em_u64 now;
	bool powered, shutdown_held;
	bool awake;	 /* powered, released and booted */
	em_u64 ready_at; /* boot completes (EM_NEVER: none) */
	em_u64 run_at;	 /* start completes (EM_NEVER: none) */
	em_u64 stop_at;	 /* faults.stops: the program stops (EM_NEVER: none) */
	bool in_reset;	 /* 0x88 written, no start since */
	bool running, program_ok;
	em_u8 regs[256]; /* plain registers (control, clock, power, ...) */
	em_u32 page;
	em_u8 ptr;
	struct silead_model_ram ram;
	em_u8 frame[SILEAD_MODEL_DATA_LEN];
	bool frame_unread;
	struct silead_model_stats stats;
};

/* RAM helpers, also for hosts computing cfg.expected from a file. */
void silead_model_ram_clear(struct silead_model_ram *r);
/* One (offset, value) pair as silead_ts_load_fw sends it, with *@page the
 * page register; false if the chip would NAK it. */
bool silead_model_ram_apply(struct silead_model_ram *r, em_u32 *page, em_u32 offset,
			    em_u32 value);
/* A digest of what RAM holds (FNV-1a 64 over the written words). */
em_u64 silead_model_ram_digest(const struct silead_model_ram *r);

/*
 * A synthetic firmware file for tests and the demo database: @pages page
 * selects (0x00.., each followed by its 32 words, values from @seed), as
 * 8-byte LE pairs into @buf.  Returns the length, 0 if @size is too small.
 */
size_t silead_model_make_fw(em_u32 seed, em_u32 pages, em_u8 *buf, size_t size);
/* What RAM holds after @len bytes of pairs were sent; false if the chip
 * would NAK one (the file is not one it can take). */
bool silead_model_fw_digest(const em_u8 *fw, size_t len, struct silead_model_ram *scratch,
			    em_u64 *digest);

/* Powered at model time @now, shutdown released: booted, RAM empty. */
void silead_model_init(struct silead_model *m, const struct silead_model_cfg *cfg, em_u64 now);

extern const struct em_chip_ops silead_model_ops;

/*
 * A touch frame (0..10 points; 0 = all fingers up): reported, and the
 * interrupt asserted until the host reads 0x80, only while the expected
 * program runs.  Returns whether it was reported.
 */
bool silead_model_touch(struct silead_model *m, const struct silead_model_point *pts, em_u8 n);

bool silead_model_running(const struct silead_model *m);
/* The running program is the one the board expects. */
bool silead_model_program_ok(const struct silead_model *m);
em_u64 silead_model_digest(const struct silead_model *m);
const struct silead_model_stats *silead_model_stats(const struct silead_model *m);
struct silead_model_faults *silead_model_faults(struct silead_model *m);

#endif /* SILEAD_MODEL_H */
