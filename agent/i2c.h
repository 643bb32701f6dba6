/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Thin i2c-dev transport.  Plain I2C messages go through I2C_RDWR, which
 * checks no address claim, so the agent can read a bound chip and talk to a
 * bootloader address no client owns; single-byte status reads use libi2c's
 * SMBus receive-byte.  Writes longer than the adapter accepts are split:
 * adapters' transfer limits (i2c_adapter_quirks) are not visible from user
 * space, so a write refused with EOPNOTSUPP is retried in smaller pieces,
 * and the limit found is remembered.
 */
#ifndef TF_I2C_H
#define TF_I2C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct tf_i2c_stats {
	uint64_t transactions;
	uint64_t bytes_written;
	uint64_t bytes_read;
};

struct tf_i2c {
	int fd;
	int nr;
	unsigned long funcs;
	uint16_t max_write;   /* bytes per write message, 0 = not limited yet */
	int slave;            /* address set with I2C_SLAVE, -1 = none */
	struct tf_i2c_stats stats;
};

int tf_i2c_open(struct tf_i2c *bus, int nr, struct tf_err *err);
/* Did a transfer fail because nobody answered (a NAK, or how adapters
 * report one: ENXIO, EREMOTEIO, EIO, ETIMEDOUT, EAGAIN)? */
bool tf_i2c_nak(int r);
void tf_i2c_close(struct tf_i2c *bus);
/* Does the adapter do plain I2C transfers (not SMBus-only)? */
bool tf_i2c_plain_ok(const struct tf_i2c *bus);

int tf_i2c_write(struct tf_i2c *bus, uint16_t addr, const uint8_t *buf, size_t len);
int tf_i2c_read(struct tf_i2c *bus, uint16_t addr, uint8_t *buf, size_t len);
/* Write then read with a repeated START (one transaction). */
int tf_i2c_write_read(struct tf_i2c *bus, uint16_t addr, const uint8_t *w,
		      size_t wlen, uint8_t *r, size_t rlen);
/* A long write, split to the adapter's limit (see above). */
int tf_i2c_write_split(struct tf_i2c *bus, uint16_t addr, const uint8_t *buf,
		       size_t len);
/* One byte with SMBus receive-byte (libi2c) at @addr, via I2C_SLAVE. */
int tf_i2c_read_byte(struct tf_i2c *bus, uint16_t addr, uint8_t *val);
/*
 * Plain read()/write() at @addr (set with I2C_SLAVE, which fails with
 * EBUSY where a driver owns the address): one system call and no message
 * structures, for the bootloader's hot loop.  The write is split like
 * tf_i2c_write_split().
 */
int tf_i2c_recv(struct tf_i2c *bus, uint16_t addr, uint8_t *buf, size_t len);
int tf_i2c_send(struct tf_i2c *bus, uint16_t addr, const uint8_t *buf, size_t len);
/* A long write as one transaction of several messages (repeated STARTs),
 * each within the adapter's limit, for targets that reassemble them. */
int tf_i2c_write_msgs(struct tf_i2c *bus, uint16_t addr, const uint8_t *buf, size_t len);

#endif /* TF_I2C_H */
