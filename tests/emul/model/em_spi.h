/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interface an emulated spi chip model offers to a host (the umockdev
 * emulator's spi controllers, in-process tests, a test kernel module's
 * spi_controller).  spi is full duplex: while its chip select is active the
 * chip sees every byte the host shifts out on MOSI and answers one byte on
 * MISO for each, in wire order (most significant bit first, as the chip
 * samples them).  Like the i2c models, a chip lives in model time that only
 * the host advances.
 */
#ifndef EM_SPI_H
#define EM_SPI_H

#include "em_types.h"

struct em_spi_ops {
	const char *name;
	/* The spi mode the chip samples in (SPI_CPHA 0x1 | SPI_CPOL 0x2) and
	 * the fastest clock it takes. */
	em_u32 mode;
	em_u32 max_hz;
	/* Chip select edge: @selected true when the chip is selected. */
	void (*select)(void *chip, bool selected);
	/* @len bytes clocked while selected: @mosi what the host shifts out
	 * (never NULL: a host with nothing to send shifts out zeros), @miso
	 * gets what the chip drives back. */
	void (*xfer)(void *chip, const em_u8 *mosi, em_u8 *miso, em_u32 len);
	/* Run internal events up to @now_ns (monotonic model time). */
	void (*advance)(void *chip, em_u64 now_ns);
	/* Time of the next internal event, or EM_NEVER. */
	em_u64 (*next_event)(const void *chip);
	/* Level of the chip's interrupt output (true = asserted); may be NULL. */
	bool (*irq_asserted)(const void *chip);
};

#endif /* EM_SPI_H */
