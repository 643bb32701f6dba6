// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Goodix Berlin spi framing (goodix_berlin_spi.c) on touchfw's spidev
 * transport.  A read is one full-duplex transfer: 0xF1, the address
 * big-endian, 3 dummy bytes of 0xFF, and as many more bytes as wanted,
 * whose echo is the data; a write is 0xF0, the address and the data.  As
 * the driver's regmap does with its controller's maximum transfer size
 * (max_raw_read/max_raw_write), an access longer than one spidev message
 * holds (bufsiz, prefix included) is split into several transfers, each
 * with its own address.
 */
#include "berlin.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

void berlin_spi_read_prefix(uint32_t addr, uint8_t out[BERLIN_SPI_RPREFIX])
{
	out[0] = BERLIN_SPI_READ;
	put_be32(out + 1, addr);
	memset(out + 1 + BERLIN_SPI_ADDR_LEN, 0xff, BERLIN_SPI_DUMMY);
}

void berlin_spi_write_prefix(uint32_t addr, uint8_t out[BERLIN_SPI_WPREFIX])
{
	out[0] = BERLIN_SPI_WRITE;
	put_be32(out + 1, addr);
}

size_t berlin_spi_chunk(const struct tf_spi *s, size_t prefix)
{
	/* spidev counts each transfer rounded up to its allocation alignment */
	size_t max = s->bufsiz / TF_SPI_ALIGN * TF_SPI_ALIGN;

	return max > prefix ? max - prefix : 0;
}

int berlin_spi_read(struct tf_spi *s, uint32_t addr, uint8_t *buf, size_t len)
{
	size_t chunk = berlin_spi_chunk(s, BERLIN_SPI_RPREFIX);
	uint8_t *tx, *rx;
	int r = 0;

	if (!chunk)
		return -EMSGSIZE;
	if (chunk > len)
		chunk = len;
	tx = calloc(1, BERLIN_SPI_RPREFIX + chunk);
	rx = malloc(BERLIN_SPI_RPREFIX + chunk);
	if (!tx || !rx) {
		free(tx);
		free(rx);
		return -ENOMEM;
	}
	for (size_t off = 0; off < len && !r; off += chunk) {
		size_t n = len - off < chunk ? len - off : chunk;

		berlin_spi_read_prefix(addr + (uint32_t)off, tx);
		r = tf_spi_transfer(s, tx, rx, BERLIN_SPI_RPREFIX + n);
		if (!r)
			memcpy(buf + off, rx + BERLIN_SPI_RPREFIX, n);
	}
	free(tx);
	free(rx);
	return r;
}

int berlin_spi_write(struct tf_spi *s, uint32_t addr, const uint8_t *buf, size_t len)
{
	size_t chunk = berlin_spi_chunk(s, BERLIN_SPI_WPREFIX);
	uint8_t *tx;
	int r = 0;

	if (!chunk)
		return -EMSGSIZE;
	if (chunk > len)
		chunk = len;
	tx = malloc(BERLIN_SPI_WPREFIX + chunk);
	if (!tx)
		return -ENOMEM;
	for (size_t off = 0; off < len && !r; off += chunk) {
		size_t n = len - off < chunk ? len - off : chunk;

		berlin_spi_write_prefix(addr + (uint32_t)off, tx);
		memcpy(tx + BERLIN_SPI_WPREFIX, buf + off, n);
		r = tf_spi_transfer(s, tx, NULL, BERLIN_SPI_WPREFIX + n);
	}
	free(tx);
	return r;
}
