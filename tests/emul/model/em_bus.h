/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An emulated i2c bus segment: the chips on it, fault injection at the
 * address level, counters, and the modelled time a transfer takes on the
 * wire.  Freestanding like the chip models, so a kernel test module can put
 * the same bus behind a real i2c_adapter.
 *
 * Wire time: each message costs one START (or repeated START) bit, the
 * address byte with its ACK (9 bits) and 9 bits per data byte; each
 * transaction ends with one STOP bit.  Time = bits / bus frequency.
 */
#ifndef EM_BUS_H
#define EM_BUS_H

#include "em_chip.h"

#define EM_BUS_MAX_CHIPS 8

#define EM_MSG_RD 0x0001 /* same value as I2C_M_RD */

struct em_msg {
	em_u16 addr;
	em_u16 flags;
	em_u16 len;
	em_u8 *buf;
};

struct em_bus_counters {
	em_u64 transactions; /* START..STOP sequences */
	em_u64 messages;
	em_u64 bytes_written; /* data bytes, host to chip */
	em_u64 bytes_read;    /* data bytes, chip to host */
	em_u64 naks;	      /* transactions that ended in a NAK */
	em_u64 bus_ns;	      /* modelled wire time */
};

struct em_bus {
	em_u32 hz;	    /* SCL frequency, e.g. 100000 or 400000 */
	em_u64 now_ns;	    /* model time of the bus (never goes back) */
	em_u8 nak_addr[16]; /* fault: bitmap of 7-bit addresses that never ACK */
	unsigned int nchips;
	struct em_chip chips[EM_BUS_MAX_CHIPS];
	struct em_bus_counters count;
	/* Transactions that reached one device while another held a unit
	 * in part (em_chip_ops.mid_unit): two hosts' frames interleaved. */
	em_u64 interleaved;
};

/* Result of em_bus_transfer(): >= 0 messages done, or one of these. */
#define EM_XFER_NAK_ADDR (-1)
#define EM_XFER_NAK_DATA (-2)
#define EM_XFER_INVAL (-3)

void em_bus_init(struct em_bus *bus, em_u32 hz);
int em_bus_add_chip(struct em_bus *bus, const struct em_chip_ops *ops, void *chip);
void em_bus_set_nak(struct em_bus *bus, em_u16 addr, bool nak);

/* Move model time forward to @now_ns (no-op if already there). */
void em_bus_advance(struct em_bus *bus, em_u64 now_ns);
/* Earliest pending internal event of any chip, or EM_NEVER. */
em_u64 em_bus_next_event(const struct em_bus *bus);

/*
 * One transaction: @n messages joined by repeated STARTs, then STOP.  Model
 * time advances by the wire time.  Returns @n, or EM_XFER_* on a NAK (the
 * transaction stops there, as a real controller sends STOP after a NAK).
 * A chip sees a write message once its data is on the wire and a read
 * right after the address byte.
 */
int em_bus_transfer(struct em_bus *bus, struct em_msg *msgs, int n);

/* Wire time of a transaction of @n messages, without running it. */
em_u64 em_bus_wire_ns(const struct em_bus *bus, const struct em_msg *msgs, int n);

#endif /* EM_BUS_H */
