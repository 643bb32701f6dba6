/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A 24C02-style serial EEPROM, modelled from the behaviour common to the
 * 24Cxx data sheets (Microchip 24AA02/24LC02B, Atmel AT24C02): 256 bytes
 * behind an 8-bit word address pointer that auto-increments and wraps at
 * the end of the array on reads; page writes of 8 bytes whose address
 * rolls over inside the page; an internal write cycle (tWR, 5 ms max)
 * started by STOP, during which the chip does not acknowledge its address
 * ("acknowledge polling").  A write that ends with a repeated START instead
 * of STOP is discarded, as the data sheets specify.
 *
 * This is the small second chip of the emulator: it exercises the host with
 * plain i2c and SMBus tools (i2cget/i2cset/i2cdump) and the at24 driver
 * model.  Freestanding: see em_types.h.
 */
#ifndef EEPROM_MODEL_H
#define EEPROM_MODEL_H

#include "em_chip.h"

#define EEPROM_MODEL_MAX_SIZE 256
#define EEPROM_MODEL_MAX_PAGE 16
#define EEPROM_MODEL_WRITE_CYCLE_NS (5 * EM_NSEC_PER_MSEC) /* tWR max */

struct eeprom_model_cfg {
	em_u16 addr;	       /* 7-bit address, 0x50..0x57 on real parts */
	em_u16 size;	       /* bytes, power of two, <= 256 (0 = 256) */
	em_u16 page_size;      /* bytes, power of two, <= 16 (0 = 8) */
	em_u64 write_cycle_ns; /* 0 = EEPROM_MODEL_WRITE_CYCLE_NS */
	em_u8 fill;	       /* initial content of every byte */
};

struct eeprom_model_stats {
	em_u32 write_cycles;  /* completed internal write cycles */
	em_u32 bytes_written; /* bytes programmed by those cycles */
	em_u32 busy_naks;     /* address NAKs during a write cycle */
	em_u32 discarded;     /* writes dropped (repeated START, power loss) */
	em_u64 busy_ns;	      /* modelled time spent in write cycles */
};

/* Opaque in spirit: hosts use the functions below. */
struct eeprom_model {
	struct eeprom_model_cfg cfg;
	em_u8 mem[EEPROM_MODEL_MAX_SIZE];
	em_u8 ptr; /* word address counter */
	em_u64 now;
	bool powered;
	/* page latch of the write in progress */
	em_u8 latch[EEPROM_MODEL_MAX_PAGE];
	em_u16 latch_valid; /* bitmap of latched bytes in the page */
	em_u8 latch_page;   /* page base address */
	bool addressed;	    /* a write to us is open (before STOP) */
	/* internal write cycle */
	bool busy;
	em_u64 busy_until;
	em_u64 busy_from;
	struct eeprom_model_stats stats;
};

/* Initialise, powered, at model time @now. */
void eeprom_model_init(struct eeprom_model *m, const struct eeprom_model_cfg *cfg, em_u64 now);

extern const struct em_chip_ops eeprom_model_ops;

const struct eeprom_model_stats *eeprom_model_stats(const struct eeprom_model *m);
/* Direct access to the array, as a programmer clip would have. */
em_u8 eeprom_model_peek(const struct eeprom_model *m, em_u16 offset);
void eeprom_model_poke(struct eeprom_model *m, em_u16 offset, em_u8 val);
bool eeprom_model_busy(const struct eeprom_model *m);

#endif /* EEPROM_MODEL_H */
