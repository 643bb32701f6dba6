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

/* An open /dev/i2c-N; opaque, so the adapter's limit is kept in one place. */
struct tf_i2c;

/* Open /dev/i2c-@nr into *@bus (freed by tf_i2c_close). */
int tf_i2c_open(struct tf_i2c **bus, int nr, struct tf_err *err);
/* Did a transfer fail because nobody answered (a NAK, or how adapters
 * report one: ENXIO, EREMOTEIO, EIO, ETIMEDOUT, EAGAIN)? */
bool tf_i2c_nak(int r);
/* Close and free; NULL is fine. */
void tf_i2c_close(struct tf_i2c *bus);
/* Does the adapter do plain I2C transfers (not SMBus-only)? */
bool tf_i2c_plain_ok(const struct tf_i2c *bus);
/* Does the adapter offer all of @mask (I2C_FUNC_* of <linux/i2c.h>)? */
bool tf_i2c_has_funcs(const struct tf_i2c *bus, unsigned long mask);

int tf_i2c_write(struct tf_i2c *bus, uint16_t addr, const uint8_t *buf, size_t len);
int tf_i2c_read(struct tf_i2c *bus, uint16_t addr, uint8_t *buf, size_t len);
/* Write then read with a repeated START (one transaction). */
int tf_i2c_write_read(struct tf_i2c *bus, uint16_t addr, const uint8_t *w, size_t wlen,
		      uint8_t *r, size_t rlen);
/* One byte with SMBus receive-byte (libi2c) at @addr, via I2C_SLAVE. */
int tf_i2c_read_byte(struct tf_i2c *bus, uint16_t addr, uint8_t *val);
/*
 * SMBus block read / write (command @cmd, the count byte on the wire) at
 * @addr, via I2C_SLAVE: for chips spoken to in SMBus block transfers on
 * adapters that may do nothing else.  The read gives the count the chip
 * sent (at most 32), -EMSGSIZE when it is more than @size.
 */
/* SMBus read byte data: 0..255, or -errno. */
int tf_i2c_smbus_read_byte_data(struct tf_i2c *bus, uint16_t addr, uint8_t cmd);
int tf_i2c_smbus_block_read(struct tf_i2c *bus, uint16_t addr, uint8_t cmd, uint8_t *buf,
			    size_t size);
int tf_i2c_smbus_block_write(struct tf_i2c *bus, uint16_t addr, uint8_t cmd, const uint8_t *buf,
			     size_t len);
/* SMBus send byte (the command byte alone, then STOP): 0 or -errno. */
int tf_i2c_smbus_write_byte(struct tf_i2c *bus, uint16_t addr, uint8_t value);
/*
 * Plain read()/write() at @addr (set with I2C_SLAVE, which fails with
 * EBUSY where a driver owns the address): one system call and no message
 * structures, for the bootloader's hot loop.  The write is split into
 * pieces within the adapter's limit (see above).
 */
int tf_i2c_recv(struct tf_i2c *bus, uint16_t addr, uint8_t *buf, size_t len);
int tf_i2c_send(struct tf_i2c *bus, uint16_t addr, const uint8_t *buf, size_t len);
/* A long write as one transaction of several messages (repeated STARTs),
 * each within the adapter's limit, for targets that reassemble them. */
int tf_i2c_write_msgs(struct tf_i2c *bus, uint16_t addr, const uint8_t *buf, size_t len);

/* Byte order of the 16-bit register address in tf_i2c_reg_*(). */
enum tf_i2c_reg16 { TF_I2C_REG_LE16, TF_I2C_REG_BE16 };
/*
 * Register write: the register address then data in one message where the
 * adapter takes it, else in register-addressed pieces (the last piece
 * last), each at most @block data bytes and within the adapter's limit.
 */
int tf_i2c_reg_write(struct tf_i2c *bus, uint16_t addr, enum tf_i2c_reg16 order, uint16_t reg,
		     const uint8_t *val, size_t len, size_t block);
/* Register read in reads of at most @chunk bytes, halved while the
 * adapter refuses them. */
int tf_i2c_reg_read(struct tf_i2c *bus, uint16_t addr, enum tf_i2c_reg16 order, uint16_t reg,
		    uint8_t *buf, size_t len, size_t chunk);

#endif /* TF_I2C_H */
