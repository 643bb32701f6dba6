/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spidev transport, beside i2c-dev.  User space reaches an spi device only
 * through spidev (/dev/spidevB.C, drivers/spi/spidev.c): a device bound to
 * its own driver has no node, so getting one means binding spidev with
 * driver_override (tf_spidev_claim) and undoing exactly that afterwards
 * (tf_spidev_release), before the touch driver is bound again.
 *
 * Transfers go through SPI_IOC_MESSAGE.  spidev refuses (EMSGSIZE) a
 * message whose rx or tx transfers, each rounded up to the kernel's
 * allocation alignment, add up to more than its bufsiz parameter; a
 * transaction longer than that is split into several messages, and the
 * chip select is kept active between them (cs_change on the last transfer
 * of a message keeps it), so the chip sees one transaction.  A gap with
 * the chip deselected is a transfer's delay_us with cs_change set (spidev
 * has no cs_change_delay).
 */
#ifndef TF_SPI_H
#define TF_SPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

#define TF_SPIDEV_BUFSIZ_PARAM "/sys/module/spidev/parameters/bufsiz"
#define TF_SPIDEV_BUFSIZ_DEFAULT 4096u /* spidev.c, when the file is absent */
#define TF_SPI_ALIGN 8u		       /* ARCH_KMALLOC_MINALIGN (x86-64, arm64 >= 8) */

struct tf_spi_stats {
	uint64_t messages; /* SPI_IOC_MESSAGE calls */
	uint64_t transfers;
	uint64_t bytes;
};

/* Settings for the device; 0 / has_mode false: keep what the device has. */
struct tf_spi_cfg {
	bool has_mode;
	uint32_t mode; /* SPI_CPHA 1 | SPI_CPOL 2 */
	uint8_t bits;
	uint32_t speed_hz;
};

struct tf_spi {
	int fd;
	char node[64]; /* /dev/spidevB.C */
	uint32_t mode;
	uint8_t bits;
	uint32_t speed_hz;
	size_t bufsiz;
	struct tf_spi_stats stats;
};

/* One transfer of a transaction: @tx NULL shifts out zeros, @rx NULL
 * ignores MISO.  @delay_us after it (chip still selected); with
 * @cs_change the chip is deselected after that (10 us at least) before the
 * next transfer. */
struct tf_spi_xfer {
	const uint8_t *tx;
	uint8_t *rx;
	size_t len;
	uint16_t delay_us;
	bool cs_change;
};

/* spidev's bufsiz from sysfs (the default when the file is absent);
 * -EINVAL with a message naming the file when it is unreadable garbage. */
int tf_spi_bufsiz(size_t *out, struct tf_err *err);
/* Open @node, apply @cfg (NULL: keep all), read back mode, bits, speed. */
int tf_spi_open(struct tf_spi *s, const char *node, const struct tf_spi_cfg *cfg,
		struct tf_err *err);
void tf_spi_close(struct tf_spi *s);
/* One transaction of @n transfers; 0 or -errno. */
int tf_spi_message(struct tf_spi *s, const struct tf_spi_xfer *x, size_t n);
/* One full-duplex transfer with the chip selected around it. */
int tf_spi_transfer(struct tf_spi *s, const uint8_t *tx, uint8_t *rx, size_t len);

/* What tf_spidev_claim did, so that release undoes exactly that. */
struct tf_spidev_claim {
	char dev[64];	   /* "spi1.0" */
	char node[64];	   /* "/dev/spidev1.0" */
	bool set_override; /* we wrote driver_override */
	bool bound_spidev; /* we bound spidev */
	bool active;
};

/*
 * A spidev node for spi device @dev.  Already bound to spidev: its node,
 * nothing to undo.  Unbound: driver_override = spidev, bind spidev, wait
 * up to @timeout_ms for the node; any failure undoes what was done.  Bound
 * to another driver: -EBUSY (the caller decides whether that driver may
 * let go, and unbinds it first).  No spidev driver: -ENODEV naming it.
 */
int tf_spidev_claim(const char *dev, struct tf_spidev_claim *c, int timeout_ms,
		    struct tf_err *err);
/* Undo the claim: unbind spidev if we bound it, clear driver_override if
 * we set it.  Safe to call twice and on a claim never made. */
int tf_spidev_release(struct tf_spidev_claim *c, struct tf_err *err);

/*
 * A claim outlives a crash: SIGKILL or SIGSEGV between the touch driver's
 * unbind and the release leave the device bound to spidev with
 * driver_override = spidev, and the touch driver can never bind again.  So
 * before touchfw changes anything it records in the state directory
 * (@dirfd, @dir for messages) what the device had -- its driver, its
 * driver_override, whether spidev held it -- as DEVICE.spiclaim
 * (tf_spidev_record), drops the record once everything is back
 * (tf_spidev_record_drop), and at the next start, under the device's
 * lock, tf_spidev_repair() puts back what a record left there says: spidev
 * unbound if it was not bound before, driver_override cleared if touchfw
 * set it, and the driver that had the device bound again (@bind is called
 * for that, so the caller can mark its own bind).  Returns how many things
 * were repaired, described in @what.
 */
int tf_spidev_record(int dirfd, const char *dir, const char *dev, const char *driver,
		     struct tf_err *err);
void tf_spidev_record_drop(int dirfd, const char *dev);
int tf_spidev_repair(int dirfd, const char *dir, const char *dev,
		     void (*bind)(void *user, const char *dev, const char *driver), void *user,
		     char *what, size_t size);
/* Bind spi device @dev to @driver and wait up to @timeout_ms for it. */
int tf_spi_bind_driver(const char *dev, const char *driver, int timeout_ms, struct tf_err *err);

#endif /* TF_SPI_H */
