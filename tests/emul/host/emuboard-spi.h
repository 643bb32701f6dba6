/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * emuboard's spi API (the part of emuboard.h for spi boards): spi
 * controllers ([spi N]), spi devices on them ([spi-chip NAME], named
 * "spiN.C" as the kernel names them), spidev and the families' spi
 * drivers.  See tests/emul/README.md.
 */
#ifndef EMUBOARD_SPI_H
#define EMUBOARD_SPI_H

#include <stddef.h>
#include <stdint.h>

#include "emuboard.h"

struct emub_spi_stats {
	uint64_t messages;	/* spi_sync() calls that ran */
	uint64_t user_messages; /* of those, user space's through spidev (each one
				 * of umockdev's round trips) */
	uint64_t transfers;
	uint64_t bytes;	     /* bytes clocked (each is one byte each way) */
	uint64_t cs_changes; /* chip select released inside a message */
	uint64_t selects;    /* chip select assertions (one per transaction the chip sees) */
	uint64_t wire_ns;    /* modelled time on the wire, delays included */
	uint64_t busy_ns;    /* modelled time the chips had an operation pending */
	uint64_t driver_ns;  /* modelled time the emulated drivers slept (msleep) */
	uint64_t active_ns;  /* the time any of those three was going on (their union:
			      * a chip busy while its status is polled counts once) */
	/*
	 * The board's idle clock for user space (real-time pacing only): a
	 * spidev message "found the board waiting" when it began after the
	 * controller's last wire time or driver sleep had ended and its chip
	 * had no operation pending; idle_ns sums those gaps.  Of them,
	 * service_ns is the emulator's own handling it saw inside the gaps:
	 * this message's from the handler's start to its wire (umockdev's
	 * round trips for the buffers), and the previous one's on that node
	 * from its wire's end to its completion (the wake-up, the copies).
	 * What the emulator can not see -- umockdev passing the request in
	 * and the result out, the data the last message read copied back
	 * to the caller included -- is the rest of its cost; bench/
	 * measures it on the same board with loops of messages, and takes it
	 * out of each message's gap (emub_spi_idle_unseen) as far as that
	 * goes.
	 */
	uint64_t idle_messages;
	uint64_t idle_ns;
	uint64_t service_ns;
	uint64_t idle_run_ns; /* fast pacing: model time run for a host's idle wall
			       * time before its spidev message (README "Pacing") */
};

/* A gap in which a spidev message found the board waiting. */
struct emub_spi_gap {
	uint32_t unseen_ns; /* what the emulator did not see itself of it (the
			     * gap less service_ns' part) */
	uint32_t after_rx;  /* bytes the message before it on that node read:
			     * umockdev copies them back to the caller after
			     * the emulator has completed it, unseen, so the
			     * gap's unseen part grows with them */
	/* Where the unseen part can lie (model ns, the board's clock: wall
	 * time since its start in real-time pacing).  umockdev passes the
	 * request in just before entry_ns, and the last result out just
	 * after prev_done_ns; a gap that began after that (the chip became
	 * ready while the program slept) holds only what of them follows
	 * from_ns. */
	uint64_t from_ns;      /* the gap began (the wire or the chip went idle) */
	uint64_t to_ns;	       /* ... and ended: this message's wire began */
	uint64_t entry_ns;     /* the emulator's handler for this message started */
	uint64_t prev_done_ns; /* it completed the message before it on that node
				* (0: none) */
};

/* Of each message on controller @bus that found the board waiting, from
 * the @first-th on (counting as idle_messages does, from 0): its gap, up
 * to @n into @out; returns how many. */
size_t emub_spi_idle_unseen(struct emub *eb, int bus, uint64_t first, struct emub_spi_gap *out,
			    size_t n);

/* @dev: the [spi-chip NAME] name or the device name ("spi1.0"). */
const char *emub_spi_dev_name(struct emub *eb, const char *dev);
/* As "echo DEV > /sys/bus/spi/drivers/DRV/bind" (driver_override and the
 * match rules apply), but synchronous: 0, -ENODEV (no match, or bound). */
int emub_spi_bind(struct emub *eb, const char *dev, const char *driver);
/* As "echo DEV > .../unbind" of its driver: 0 or -ENODEV. */
int emub_spi_unbind(struct emub *eb, const char *dev);
/* The bound driver's name into @buf ("" if none); 0 or -ENODEV. */
int emub_spi_driver(struct emub *eb, const char *dev, char *buf, size_t size);
/* The device's driver_override ("" if none); 0 or -ENODEV. */
int emub_spi_driver_override(struct emub *eb, const char *dev, char *buf, size_t size);
/* Handle the spi sysfs writes closed so far (bind, unbind,
 * driver_override, drivers_probe, uevent). */
void emub_spi_settle(struct emub *eb);
/* Traffic on controller @bus. */
int emub_spi_stats(struct emub *eb, int bus, struct emub_spi_stats *s);
/* Chip select of @dev active right now (cs_change on a message's last
 * transfer keeps it). */
bool emub_spi_selected(struct emub *eb, const char *dev);

/* What the last write to the bound driver's attribute @attr (its store
 * ran: the driver model's attr_store) returned, 0 or -errno in *@result;
 * -ENOENT if there was none, -ENODEV for no such device. */
int emub_spi_attr_result(struct emub *eb, const char *dev, const char *attr, int *result);
/* Writes to @attr its driver has handled, without settling first. */
int emub_spi_attr_count_now(struct emub *eb, const char *dev, const char *attr);
/* The same for update_fw and update_cfg */
int emub_spi_update_fw_result(struct emub *eb, const char *dev, int *result);
int emub_spi_update_cfg_result(struct emub *eb, const char *dev, int *result);
int emub_spi_update_fw_count_now(struct emub *eb, const char *dev);

#endif /* EMUBOARD_SPI_H */
