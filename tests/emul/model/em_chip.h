/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interface every emulated i2c chip model offers to a host (the umockdev
 * emulator, in-process tests, or a test kernel module).  A chip sees the bus
 * one message at a time, as a real target does between START and STOP, and
 * lives in model time that only the host advances.
 */
#ifndef EM_CHIP_H
#define EM_CHIP_H

#include "em_types.h"

/* What a chip answered to one message. */
#define EM_ACK 0
#define EM_NAK_ADDR 1 /* nobody acknowledged the address byte */
#define EM_NAK_DATA 2 /* address acknowledged, a written data byte was not */

struct em_chip_ops {
	const char *name;
	/* A write message to @addr; return EM_ACK / EM_NAK_ADDR / EM_NAK_DATA. */
	int (*write)(void *chip, em_u16 addr, const em_u8 *buf, em_u16 len);
	/* A read message from @addr; fill @buf on EM_ACK. */
	int (*read)(void *chip, em_u16 addr, em_u8 *buf, em_u16 len);
	/* STOP condition ending a transaction (may be NULL). */
	void (*stop)(void *chip);
	/* Run internal events up to @now_ns (monotonic model time). */
	void (*advance)(void *chip, em_u64 now_ns);
	/* Time of the next internal event, or EM_NEVER. */
	em_u64 (*next_event)(const void *chip);
	/* Level of the chip's interrupt output (true = asserted). */
	bool (*irq_asserted)(const void *chip);
	/* Reset input (true = held in reset) and supply. May be NULL. */
	void (*set_reset)(void *chip, bool asserted);
	void (*set_power)(void *chip, bool on);
	/* True while the chip holds part of a unit that traffic to another
	 * device must not split (a bootloader frame received in part).
	 * May be NULL. */
	bool (*mid_unit)(const void *chip);
};

/* advance and next_event of a chip with no internal events of its own
 * (it acts only when the host talks to it): nothing to run, EM_NEVER.
 * In em_bus.c. */
void em_chip_timeless_advance(void *chip, em_u64 now_ns);
em_u64 em_chip_timeless_next_event(const void *chip);

/*
 * A chip's advance over its own events: run each one due at or before
 * @now in time order -- @next gives the earliest pending (EM_NEVER: none),
 * @run runs the one due at @t -- with *@clock following them, then at
 * @now.  In em_bus.c.
 */
void em_chip_run_until(void *chip, em_u64 *clock, em_u64 now, em_u64 (*next)(const void *chip),
		       void (*run)(void *chip, em_u64 t));

struct em_chip {
	const struct em_chip_ops *ops;
	void *priv;
};

#endif /* EM_CHIP_H */
