// SPDX-License-Identifier: GPL-2.0-or-later
/* i2c-dev transport (see i2c.h). */
#include "i2c.h"

#include <errno.h>
#include <fcntl.h>
#include <i2c/smbus.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define I2C_DEV_MAX_MSG 8192 /* i2c-dev's limit per message */

bool tf_i2c_nak(int r)
{
	return r == -ENXIO || r == -EREMOTEIO || r == -EIO || r == -ETIMEDOUT ||
	       r == -EAGAIN;
}

int tf_i2c_open(struct tf_i2c *bus, int nr, struct tf_err *err)
{
	char path[32];

	memset(bus, 0, sizeof(*bus));
	bus->fd = -1;
	bus->slave = -1;
	bus->nr = nr;
	snprintf(path, sizeof(path), "/dev/i2c-%d", nr);
	bus->fd = open(path, O_RDWR | O_CLOEXEC);
	if (bus->fd < 0)
		return tf_err_set(err, errno, "%s: %s%s", path, strerror(errno),
				  errno == ENOENT ? " (is the i2c-dev module loaded?)" : "");
	if (ioctl(bus->fd, I2C_FUNCS, &bus->funcs) < 0) {
		int e = errno;

		close(bus->fd);
		bus->fd = -1;
		return tf_err_set(err, e, "%s: I2C_FUNCS: %s", path, strerror(e));
	}
	return 0;
}

void tf_i2c_close(struct tf_i2c *bus)
{
	if (bus->fd >= 0)
		close(bus->fd);
	bus->fd = -1;
}

bool tf_i2c_plain_ok(const struct tf_i2c *bus)
{
	return bus->funcs & I2C_FUNC_I2C;
}

static int rdwr(struct tf_i2c *bus, struct i2c_msg *msgs, unsigned n)
{
	struct i2c_rdwr_ioctl_data d = { .msgs = msgs, .nmsgs = n };
	unsigned i;

	bus->stats.transactions++;
	if (ioctl(bus->fd, I2C_RDWR, &d) < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		if (msgs[i].flags & I2C_M_RD)
			bus->stats.bytes_read += msgs[i].len;
		else
			bus->stats.bytes_written += msgs[i].len;
	}
	return 0;
}

int tf_i2c_write(struct tf_i2c *bus, uint16_t addr, const uint8_t *buf, size_t len)
{
	struct i2c_msg m = { .addr = addr, .flags = 0, .len = (uint16_t)len,
			     .buf = (uint8_t *)buf };

	if (len > I2C_DEV_MAX_MSG)
		return -EINVAL;
	return rdwr(bus, &m, 1);
}

int tf_i2c_read(struct tf_i2c *bus, uint16_t addr, uint8_t *buf, size_t len)
{
	struct i2c_msg m = { .addr = addr, .flags = I2C_M_RD, .len = (uint16_t)len,
			     .buf = buf };

	if (len > I2C_DEV_MAX_MSG)
		return -EINVAL;
	return rdwr(bus, &m, 1);
}

int tf_i2c_write_read(struct tf_i2c *bus, uint16_t addr, const uint8_t *w,
		      size_t wlen, uint8_t *r, size_t rlen)
{
	struct i2c_msg m[2] = {
		{ .addr = addr, .flags = 0, .len = (uint16_t)wlen, .buf = (uint8_t *)w },
		{ .addr = addr, .flags = I2C_M_RD, .len = (uint16_t)rlen, .buf = r },
	};

	if (wlen > I2C_DEV_MAX_MSG || rlen > I2C_DEV_MAX_MSG)
		return -EINVAL;
	return rdwr(bus, m, 2);
}

int tf_i2c_write_split(struct tf_i2c *bus, uint16_t addr, const uint8_t *buf,
		       size_t len)
{
	size_t off = 0;

	while (off < len) {
		size_t n = len - off;
		int r;

		if (bus->max_write && n > bus->max_write)
			n = bus->max_write;
		if (n > I2C_DEV_MAX_MSG)
			n = I2C_DEV_MAX_MSG;
		r = tf_i2c_write(bus, addr, buf + off, n);
		if (r == -EOPNOTSUPP && n > 16) {
			/* Refused before any bus activity (adapter quirk):
			 * halve the piece size, 255 first as many adapters
			 * cap a message at 255 bytes. */
			bus->max_write = n > 255 ? 255 : (uint16_t)(n / 2);
			continue;
		}
		if (r < 0)
			return r;
		off += n;
	}
	return 0;
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
	bus->stats.transactions++;
	do
		n = read(bus->fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if ((size_t)n != len)
		return -EIO;
	bus->stats.bytes_read += len;
	return 0;
}

int tf_i2c_send(struct tf_i2c *bus, uint16_t addr, const uint8_t *buf, size_t len)
{
	size_t off = 0;
	int r = set_slave(bus, addr);

	if (r < 0)
		return r;
	while (off < len) {
		size_t n = len - off;
		ssize_t w;

		if (bus->max_write && n > bus->max_write)
			n = bus->max_write;
		if (n > I2C_DEV_MAX_MSG)
			n = I2C_DEV_MAX_MSG;
		bus->stats.transactions++;
		do
			w = write(bus->fd, buf + off, n);
		while (w < 0 && errno == EINTR);
		if (w < 0 && errno == EOPNOTSUPP && n > 16) {
			/* Over the adapter's limit (refused before any bus
			 * activity): 255 first, then halves. */
			bus->max_write = n > 255 ? 255 : (uint16_t)(n / 2);
			continue;
		}
		if (w < 0)
			return -errno;
		if ((size_t)w != n)
			return -EIO;
		bus->stats.bytes_written += n;
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
		piece = bus->max_write ? bus->max_write : len;
		if (piece > I2C_DEV_MAX_MSG)
			piece = I2C_DEV_MAX_MSG;
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
		if (r == -EOPNOTSUPP && piece > 16) {
			bus->max_write = piece > 255 ? 255 : (uint16_t)(piece / 2);
			continue;
		}
		return r;
	}
}

int tf_i2c_read_byte(struct tf_i2c *bus, uint16_t addr, uint8_t *val)
{
	int r = set_slave(bus, addr);

	if (r < 0)
		return r;
	bus->stats.transactions++;
	/* libi2c (i2c-tools >= 4) returns -errno itself. */
	r = i2c_smbus_read_byte(bus->fd);
	if (r < 0)
		return r;
	bus->stats.bytes_read++;
	*val = (uint8_t)r;
	return 0;
}
