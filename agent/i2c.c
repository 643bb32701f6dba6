// SPDX-License-Identifier: GPL-2.0-or-later
/* i2c-dev transport (see i2c.h). */
#include "i2c.h"

#include <errno.h>
#include <fcntl.h>
#include <i2c/smbus.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define I2C_DEV_MAX_MSG 8192 /* i2c-dev's limit per message */

struct tf_i2c {
	int fd;
	unsigned long funcs;
	uint16_t max_write; /* bytes per write message, 0 = not limited yet */
	int slave;	    /* address set with I2C_SLAVE, -1 = none */
};

/* Bytes the next write message may carry, of @want: within what the
 * adapter was found to take and i2c-dev's own limit. */
static size_t write_limit(const struct tf_i2c *bus, size_t want)
{
	if (bus->max_write && want > bus->max_write)
		want = bus->max_write;
	return want > I2C_DEV_MAX_MSG ? I2C_DEV_MAX_MSG : want;
}

/*
 * A write message of @n bytes was refused with EOPNOTSUPP, which adapters
 * answer before any bus activity when it is over their limit: remember a
 * smaller limit (255 first, then halves) and say to retry; a message this
 * small (16 bytes or less) is not refused for its size, so not again.
 */
static bool write_refused(struct tf_i2c *bus, size_t n)
{
	if (n <= 16)
		return false;
	bus->max_write = n > 255 ? 255 : (uint16_t)(n / 2);
	return true;
}

bool tf_i2c_nak(int r)
{
	return r == -ENXIO || r == -EREMOTEIO || r == -EIO || r == -ETIMEDOUT || r == -EAGAIN;
}

int tf_i2c_open(struct tf_i2c **busp, int nr, struct tf_err *err)
{
	struct tf_i2c *bus;
	char path[32];
	int e;

	*busp = NULL;
	bus = calloc(1, sizeof(*bus));
	if (!bus)
		return tf_err_set(err, ENOMEM, "out of memory");
	bus->slave = -1;
	snprintf(path, sizeof(path), "/dev/i2c-%d", nr);
	bus->fd = open(path, O_RDWR | O_CLOEXEC);
	if (bus->fd < 0) {
		e = errno;
		free(bus);
		return tf_err_set(err, e, "%s: %s%s", path, strerror(e),
				  e == ENOENT ? " (is the i2c-dev module loaded?)" : "");
	}
	if (ioctl(bus->fd, I2C_FUNCS, &bus->funcs) < 0) {
		e = errno;
		tf_i2c_close(bus);
		return tf_err_set(err, e, "%s: I2C_FUNCS: %s", path, strerror(e));
	}
	*busp = bus;
	return 0;
}

void tf_i2c_close(struct tf_i2c *bus)
{
	if (!bus)
		return;
	if (bus->fd >= 0)
		close(bus->fd);
	free(bus);
}

bool tf_i2c_plain_ok(const struct tf_i2c *bus)
{
	return bus->funcs & I2C_FUNC_I2C;
}

bool tf_i2c_has_funcs(const struct tf_i2c *bus, unsigned long mask)
{
	return (bus->funcs & mask) == mask;
}

static int rdwr(struct tf_i2c *bus, struct i2c_msg *msgs, unsigned n)
{
	struct i2c_rdwr_ioctl_data d = { .msgs = msgs, .nmsgs = n };

	return ioctl(bus->fd, I2C_RDWR, &d) < 0 ? -errno : 0;
}

int tf_i2c_write(struct tf_i2c *bus, uint16_t addr, const uint8_t *buf, size_t len)
{
	struct i2c_msg m = { .addr = addr,
			     .flags = 0,
			     .len = (uint16_t)len,
			     .buf = (uint8_t *)buf };

	if (len > I2C_DEV_MAX_MSG)
		return -EINVAL;
	return rdwr(bus, &m, 1);
}

int tf_i2c_read(struct tf_i2c *bus, uint16_t addr, uint8_t *buf, size_t len)
{
	struct i2c_msg m = { .addr = addr,
			     .flags = I2C_M_RD,
			     .len = (uint16_t)len,
			     .buf = buf };

	if (len > I2C_DEV_MAX_MSG)
		return -EINVAL;
	return rdwr(bus, &m, 1);
}

int tf_i2c_write_read(struct tf_i2c *bus, uint16_t addr, const uint8_t *w, size_t wlen,
		      uint8_t *r, size_t rlen)
{
	struct i2c_msg m[2] = {
		{ .addr = addr, .flags = 0, .len = (uint16_t)wlen, .buf = (uint8_t *)w },
		{ .addr = addr, .flags = I2C_M_RD, .len = (uint16_t)rlen, .buf = r },
	};

	if (wlen > I2C_DEV_MAX_MSG || rlen > I2C_DEV_MAX_MSG)
		return -EINVAL;
	return rdwr(bus, m, 2);
}

static int set_slave(struct tf_i2c *bus, uint16_t addr)
{
	if (bus->slave != addr) {
		if (ioctl(bus->fd, I2C_SLAVE, (unsigned long)addr) < 0)
			return -errno; /* EBUSY: a driver owns @addr */
		bus->slave = addr;
	}
	return 0;
}

int tf_i2c_recv(struct tf_i2c *bus, uint16_t addr, uint8_t *buf, size_t len)
{
	ssize_t n;
	int r = set_slave(bus, addr);

	if (r < 0)
		return r;
	do
		n = read(bus->fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n != len)
		return -EIO;
	return 0;
}

int tf_i2c_send(struct tf_i2c *bus, uint16_t addr, const uint8_t *buf, size_t len)
{
	size_t off = 0;
	int r = set_slave(bus, addr);

	if (r < 0)
		return r;
	while (off < len) {
		size_t n = write_limit(bus, len - off);
		ssize_t w;

		do
			w = write(bus->fd, buf + off, n);
		while (w < 0 && errno == EINTR);
		if (w < 0 && errno == EOPNOTSUPP && write_refused(bus, n))
			continue;
		if (w < 0)
			return -errno;
		if ((size_t)w != n)
			return -EIO;
		off += n;
	}
	return 0;
}

int tf_i2c_write_msgs(struct tf_i2c *bus, uint16_t addr, const uint8_t *buf, size_t len)
{
	struct i2c_msg m[I2C_RDWR_IOCTL_MAX_MSGS];
	size_t off, piece;
	unsigned n;
	int r;

	for (;;) {
		piece = write_limit(bus, len);
		for (n = 0, off = 0; off < len && n < I2C_RDWR_IOCTL_MAX_MSGS; n++) {
			size_t k = len - off < piece ? len - off : piece;

			m[n].addr = addr;
			m[n].flags = 0;
			m[n].len = (uint16_t)k;
			m[n].buf = (uint8_t *)buf + off;
			off += k;
		}
		if (off < len)
			return -EMSGSIZE;
		r = rdwr(bus, m, n);
		if (r == -EOPNOTSUPP && write_refused(bus, piece))
			continue;
		return r;
	}
}

int tf_i2c_read_byte(struct tf_i2c *bus, uint16_t addr, uint8_t *val)
{
	int r = set_slave(bus, addr);

	if (r < 0)
		return r;
	/* libi2c (i2c-tools >= 4) returns -errno itself. */
	r = i2c_smbus_read_byte(bus->fd);
	if (r < 0)
		return r;
	*val = (uint8_t)r;
	return 0;
}

int tf_i2c_smbus_read_byte_data(struct tf_i2c *bus, uint16_t addr, uint8_t cmd)
{
	int r = set_slave(bus, addr);

	return r < 0 ? r : i2c_smbus_read_byte_data(bus->fd, cmd);
}

int tf_i2c_smbus_block_read(struct tf_i2c *bus, uint16_t addr, uint8_t cmd, uint8_t *buf,
			    size_t size)
{
	uint8_t b[I2C_SMBUS_BLOCK_MAX];
	int r = set_slave(bus, addr);

	if (r < 0)
		return r;
	r = i2c_smbus_read_block_data(bus->fd, cmd, b);
	if (r < 0)
		return r;
	if ((size_t)r > size)
		return -EMSGSIZE;
	memcpy(buf, b, (size_t)r);
	return r;
}

int tf_i2c_smbus_block_write(struct tf_i2c *bus, uint16_t addr, uint8_t cmd, const uint8_t *buf,
			     size_t len)
{
	int r;

	if (len > I2C_SMBUS_BLOCK_MAX)
		return -EMSGSIZE;
	if ((r = set_slave(bus, addr)) < 0)
		return r;
	return i2c_smbus_write_block_data(bus->fd, cmd, (uint8_t)len, buf);
}

int tf_i2c_smbus_write_byte(struct tf_i2c *bus, uint16_t addr, uint8_t value)
{
	int r = set_slave(bus, addr);

	return r < 0 ? r : i2c_smbus_write_byte(bus->fd, value);
}

static void put_reg(uint8_t *p, enum tf_i2c_reg16 order, uint16_t reg)
{
	p[order == TF_I2C_REG_BE16 ? 1 : 0] = (uint8_t)reg;
	p[order == TF_I2C_REG_BE16 ? 0 : 1] = (uint8_t)(reg >> 8);
}

int tf_i2c_reg_write(struct tf_i2c *bus, uint16_t addr, enum tf_i2c_reg16 order, uint16_t reg,
		     const uint8_t *val, size_t len, size_t block)
{
	uint8_t buf[I2C_DEV_MAX_MSG];
	size_t off = 0;

	if (block > sizeof(buf) - 2)
		block = sizeof(buf) - 2;
	while (off < len) {
		size_t n = len - off < block ? len - off : block;
		int r;

		n = write_limit(bus, n + 2) - 2;
		put_reg(buf, order, (uint16_t)(reg + off));
		memcpy(buf + 2, val + off, n);
		r = tf_i2c_write(bus, addr, buf, n + 2);
		if (r == -EOPNOTSUPP && write_refused(bus, n + 2))
			continue;
		if (r < 0)
			return r;
		off += n;
	}
	return 0;
}

int tf_i2c_reg_read(struct tf_i2c *bus, uint16_t addr, enum tf_i2c_reg16 order, uint16_t reg,
		    uint8_t *buf, size_t len, size_t chunk)
{
	size_t off = 0;

	while (off < len) {
		size_t n = len - off < chunk ? len - off : chunk;
		uint8_t p[2];
		int r;

		put_reg(p, order, (uint16_t)(reg + off));
		r = tf_i2c_write_read(bus, addr, p, 2, buf + off, n);
		if (r == -EOPNOTSUPP && chunk > 16) {
			chunk /= 2; /* reads have no remembered limit */
			continue;
		}
		if (r < 0)
			return r;
		off += n;
	}
	return 0;
}
