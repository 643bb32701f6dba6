// SPDX-License-Identifier: GPL-2.0-or-later
/* spidev transport (see spi.h); getting a node to talk through is spi-claim.c. */
#include "spi.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/spi/spidev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define MAX_XFERS_PER_MSG 256 /* well under _IOC_SIZE's 16383 / 32 */

int tf_spi_bufsiz(size_t *out, struct tf_err *err)
{
	char val[32], *end;
	unsigned long v;
	int r = tf_read_attr(TF_SPIDEV_BUFSIZ_PARAM, val, sizeof(val));

	if (r == -ENOENT) {
		*out = TF_SPIDEV_BUFSIZ_DEFAULT;
		return 0;
	}
	if (r < 0)
		return tf_err_set(err, -r, "%s: %s", TF_SPIDEV_BUFSIZ_PARAM, strerror(-r));
	errno = 0;
	v = strtoul(val, &end, 10);
	if (errno || end == val || *end || val[0] == '-')
		return tf_err_set(err, EINVAL, "%s: \"%s\" is not a number",
				  TF_SPIDEV_BUFSIZ_PARAM, val);
	if (v < TF_SPI_ALIGN)
		return tf_err_set(err, EMSGSIZE,
				  "%s: %lu bytes is less than one transfer (%u) takes; load "
				  "spidev with a larger bufsiz",
				  TF_SPIDEV_BUFSIZ_PARAM, v, TF_SPI_ALIGN);
	*out = v;
	return 0;
}

int tf_spi_open(struct tf_spi *s, const char *node, const struct tf_spi_cfg *cfg,
		struct tf_err *err)
{
	uint32_t mode = 0, speed = 0;
	uint8_t bits = 0;
	int r;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	tf_snprintf(s->node, sizeof(s->node), "%s", node);
	r = tf_spi_bufsiz(&s->bufsiz, err);
	if (r < 0)
		return r;
	s->fd = open(node, O_RDWR | O_CLOEXEC);
	if (s->fd < 0)
		return tf_err_set(err, errno, "%s: %s", node, strerror(errno));
	if (ioctl(s->fd, SPI_IOC_RD_MODE32, &mode) < 0)
		goto fail_io;
	if (cfg && cfg->has_mode) {
		/* keep the flags the device has (cs-high, ...), set CPOL/CPHA */
		mode = (mode & ~(uint32_t)(SPI_CPOL | SPI_CPHA)) |
		       (cfg->mode & (SPI_CPOL | SPI_CPHA));
		if (ioctl(s->fd, SPI_IOC_WR_MODE32, &mode) < 0) {
			r = errno;
			tf_spi_close(s);
			return tf_err_set(err, r, "%s: setting spi mode %u: %s", node,
					  cfg->mode & 3, strerror(r));
		}
	}
	if (cfg && cfg->bits && ioctl(s->fd, SPI_IOC_WR_BITS_PER_WORD, &cfg->bits) < 0) {
		r = errno;
		tf_spi_close(s);
		return tf_err_set(err, r, "%s: %u bits per word: %s", node, cfg->bits,
				  strerror(r));
	}
	if (cfg && cfg->speed_hz && ioctl(s->fd, SPI_IOC_WR_MAX_SPEED_HZ, &cfg->speed_hz) < 0) {
		r = errno;
		tf_spi_close(s);
		return tf_err_set(err, r, "%s: %u Hz: %s", node, cfg->speed_hz, strerror(r));
	}
	if (ioctl(s->fd, SPI_IOC_RD_MODE32, &mode) < 0 ||
	    ioctl(s->fd, SPI_IOC_RD_BITS_PER_WORD, &bits) < 0 ||
	    ioctl(s->fd, SPI_IOC_RD_MAX_SPEED_HZ, &speed) < 0)
		goto fail_io;
	s->mode = mode;
	s->bits = bits ? bits : 8;
	s->speed_hz = speed;
	return 0;
fail_io:
	r = errno;
	tf_spi_close(s);
	return tf_err_set(err, r, "%s: %s%s", node, strerror(r),
			  r == ENOTTY ? " (not a spidev node)" : "");
}

void tf_spi_close(struct tf_spi *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

static size_t aligned(size_t len)
{
	return (len + TF_SPI_ALIGN - 1) / TF_SPI_ALIGN * TF_SPI_ALIGN;
}

/* SPI_IOC_MESSAGE(n) for a run-time n: the uapi macro takes the size of a
 * char array of that length, a VLA (n <= MAX_XFERS_PER_MSG keeps it within
 * _IOC_SIZEBITS). */
static unsigned long ioc_message(unsigned n)
{
	return _IOC(_IOC_WRITE, SPI_IOC_MAGIC, 0, n * sizeof(struct spi_ioc_transfer));
}

static int send_msg(struct tf_spi *s, struct spi_ioc_transfer *k, unsigned n)
{
	int r;

	if (!n)
		return 0;
	do {
		r = ioctl(s->fd, ioc_message(n), k);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	s->stats.messages++;
	s->stats.transfers += n;
	for (unsigned i = 0; i < n; i++)
		s->stats.bytes += k[i].len;
	return 0;
}

int tf_spi_message(struct tf_spi *s, const struct tf_spi_xfer *x, size_t n)
{
	struct spi_ioc_transfer k[MAX_XFERS_PER_MSG];
	size_t piece_max = s->bufsiz / TF_SPI_ALIGN * TF_SPI_ALIGN;
	size_t tx_total = 0, rx_total = 0;
	unsigned nk = 0;
	int r;

	if (s->fd < 0)
		return -EBADF;
	if (!piece_max)
		return -EMSGSIZE;
	for (size_t i = 0; i < n; i++) {
		size_t off = 0;

		do {
			size_t len = x[i].len - off < piece_max ? x[i].len - off : piece_max;
			bool last_piece = off + len == x[i].len;
			size_t need = aligned(len);

			if (nk == MAX_XFERS_PER_MSG ||
			    (x[i].tx && tx_total + need > s->bufsiz) ||
			    (x[i].rx && rx_total + need > s->bufsiz)) {
				/* another message: keep the chip selected across
				 * the split unless a gap is wanted here anyway */
				struct spi_ioc_transfer *prev = &k[nk - 1];

				prev->cs_change = prev->cs_change ? 0 : 1;
				r = send_msg(s, k, nk);
				if (r < 0)
					return r;
				nk = 0;
				tx_total = rx_total = 0;
			}
			memset(&k[nk], 0, sizeof(k[nk])); /* only the transfers sent */
			k[nk].len = (uint32_t)len;
			if (x[i].tx) {
				k[nk].tx_buf = (uintptr_t)(x[i].tx + off);
				tx_total += need;
			}
			if (x[i].rx) {
				k[nk].rx_buf = (uintptr_t)(x[i].rx + off);
				rx_total += need;
			}
			k[nk].speed_hz = s->speed_hz;
			k[nk].bits_per_word = s->bits;
			if (last_piece) {
				k[nk].delay_usecs = x[i].delay_us;
				k[nk].cs_change = x[i].cs_change;
			}
			nk++;
			off += len;
		} while (off < x[i].len);
	}
	return send_msg(s, k, nk);
}

int tf_spi_transfer(struct tf_spi *s, const uint8_t *tx, uint8_t *rx, size_t len)
{
	struct tf_spi_xfer x = { .tx = tx, .rx = rx, .len = len };

	return tf_spi_message(s, &x, 1);
}
