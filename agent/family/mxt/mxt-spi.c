// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * maXTouch over spi: the framing of Microchip's mchp_spi_ts driver
 * (atmel-maxtouch/maXTouch_SPI_linux), on touchfw's spidev transport.  The
 * protocol above it (info block, objects, T6, bootloader frames) is the
 * one mxt-ops.c speaks on i2c; only this framing differs.
 *
 * Application mode: a request frame -- opcode (0x01 write, 0x02 read),
 * register LE16, length LE16, CRC8 of those five bytes, then a write's
 * data -- then, after a 1000 us chip-select gap (mxt_spi_transfer's
 * cs_change_delay), a response frame of 6 + length bytes of 0xFF clocked
 * out, whose first byte is the chip's verdict (0x82 read ok, 0x81 write
 * ok; 0x42/0x41 failed, 0x04 invalid request, 0x08 invalid CRC) and whose
 * data starts at byte 6.  Requests carry at most 64 bytes
 * (MXT_MAX_SPI_BLOCK).  When the object table lists T144, mchp_spi_ts
 * sets crc_enabled (mxt_parse_object_table) and from then on appends to
 * each write's data the CRC8 of that data (the same CRC, init 0), counted
 * in the header's length, with at most 14 data bytes a request
 * (mxt_write_block's MXT_MAX_SPI_BLOCK_CRC); reads do not change.  A verdict byte of 0xFF means
 * nobody drove MISO: no chip, or a chip in its bootloader, which does not speak this framing --
 * reported as -ENXIO, as an i2c NAK is.
 *
 * Bootloader mode: a read clocks 0x01 0x00 ... and the status (then id and
 * version) comes from the third byte on; a write is 0x00 0x00 + the bytes.
 */
#include "mxt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "spi.h"

uint8_t mxt_spi_crc8(const uint8_t *p, size_t n)
{
	uint8_t crc = 0;

	for (size_t i = 0; i < n; i++) {
		uint8_t d = p[i];

		for (int k = 0; k < 8; k++) {
			uint8_t fb = (uint8_t)((crc ^ d) & 1);

			d >>= 1;
			crc >>= 1;
			if (fb)
				crc ^= 0x8c;
		}
	}
	return crc;
}

void mxt_spi_header(uint8_t op, uint16_t reg, uint16_t len, uint8_t h[MXT_SPI_HEADER])
{
	h[0] = op;
	h[1] = (uint8_t)(reg & 0xff);
	h[2] = (uint8_t)(reg >> 8);
	h[3] = (uint8_t)(len & 0xff);
	h[4] = (uint8_t)(len >> 8);
	h[5] = mxt_spi_crc8(h, 5);
}

const char *mxt_spi_reply_name(uint8_t r)
{
	switch (r) {
	case MXT_SPI_WRITE_OK:
		return "write ok";
	case MXT_SPI_WRITE_FAIL:
		return "write failed";
	case MXT_SPI_READ_OK:
		return "read ok";
	case MXT_SPI_READ_FAIL:
		return "read failed";
	case MXT_SPI_INVALID_REQ:
		return "invalid request";
	case MXT_SPI_INVALID_CRC:
		return "invalid CRC";
	case 0xff:
		return "no answer";
	default:
		return "unknown reply";
	}
}

int mxt_spi_reply_errno(uint8_t reply, uint8_t ok)
{
	if (reply == ok)
		return 0;
	if (reply == 0xff)
		return -ENXIO;
	if (reply == MXT_SPI_READ_FAIL || reply == MXT_SPI_WRITE_FAIL)
		return -EIO;
	return -EPROTO;
}

size_t mxt_spi_write_frame(uint16_t reg, const uint8_t *data, uint16_t n, bool data_crc,
			   uint8_t out[MXT_SPI_HEADER + MXT_SPI_MAX_LEN + 1])
{
	uint16_t len = (uint16_t)(n + (data_crc ? 1 : 0));

	mxt_spi_header(MXT_SPI_WRITE_REQ, reg, len, out);
	if (n)
		memcpy(out + MXT_SPI_HEADER, data, n);
	if (data_crc)
		out[MXT_SPI_HEADER + n] = mxt_spi_crc8(data, n);
	return (size_t)MXT_SPI_HEADER + len;
}

/* One request and its response; @reply gets the verdict byte. */
static int request(struct tf_spi *s, uint8_t op, uint16_t reg, const uint8_t *wdata,
		   uint8_t *rdata, uint16_t len, bool data_crc, uint8_t *reply)
{
	uint8_t req[MXT_SPI_HEADER + MXT_SPI_MAX_LEN + 1];
	uint8_t ones[MXT_SPI_HEADER + MXT_SPI_MAX_LEN];
	uint8_t resp[MXT_SPI_HEADER + MXT_SPI_MAX_LEN];
	uint16_t rlen = op == MXT_SPI_READ_REQ ? len : 0;
	struct tf_spi_xfer x[2] = {
		{ .tx = req,
		  .len = MXT_SPI_HEADER,
		  .delay_us = MXT_SPI_GAP_US,
		  .cs_change = true },
		{ .tx = ones, .rx = resp, .len = (size_t)MXT_SPI_HEADER + rlen },
	};
	int r;

	if (op == MXT_SPI_WRITE_REQ)
		x[0].len = mxt_spi_write_frame(reg, wdata, len, data_crc, req);
	else
		mxt_spi_header(op, reg, len, req);
	memset(ones, 0xff, sizeof(ones));
	r = tf_spi_message(s, x, 2);
	if (r < 0)
		return r;
	*reply = resp[0];
	r = mxt_spi_reply_errno(resp[0],
				op == MXT_SPI_READ_REQ ? MXT_SPI_READ_OK : MXT_SPI_WRITE_OK);
	if (!r && rdata)
		memcpy(rdata, resp + MXT_SPI_HEADER, len);
	return r;
}

int mxt_spi_read(struct tf_spi *s, uint16_t reg, uint8_t *buf, size_t len, uint8_t *reply)
{
	for (size_t off = 0; off < len;) {
		uint16_t n = (uint16_t)(len - off < MXT_SPI_MAX_LEN ? len - off
								    : MXT_SPI_MAX_LEN);
		int r = request(s, MXT_SPI_READ_REQ, (uint16_t)(reg + off), NULL, buf + off, n,
				false, reply);

		if (r < 0)
			return r;
		off += n;
	}
	return 0;
}

int mxt_spi_write(struct tf_spi *s, uint16_t reg, const uint8_t *buf, size_t len, bool data_crc,
		  uint8_t *reply)
{
	size_t max = data_crc ? MXT_SPI_MAX_LEN_CRC : MXT_SPI_MAX_LEN;

	for (size_t off = 0; off < len;) {
		uint16_t n = (uint16_t)(len - off < max ? len - off : max);
		int r = request(s, MXT_SPI_WRITE_REQ, (uint16_t)(reg + off), buf + off, NULL, n,
				data_crc, reply);

		if (r < 0)
			return r;
		off += n;
	}
	return 0;
}

int mxt_spi_bl_read(struct tf_spi *s, uint8_t *buf, size_t n)
{
	uint8_t tx[2 + 8] = { 0x01 }, rx[2 + 8];
	int r;

	if (n > 8)
		return -EINVAL;
	r = tf_spi_transfer(s, tx, rx, n + 2);
	if (r < 0)
		return r;
	memcpy(buf, rx + 2, n);
	/* MISO pulled up: no bootloader answered */
	return rx[2] == 0xff ? -ENXIO : 0;
}

int mxt_spi_bl_write(struct tf_spi *s, const uint8_t *buf, size_t n)
{
	uint8_t *tx = malloc(n + 2);
	int r;

	if (!tx)
		return -ENOMEM;
	tx[0] = tx[1] = 0x00;
	memcpy(tx + 2, buf, n);
	r = tf_spi_transfer(s, tx, NULL, n + 2);
	free(tx);
	return r;
}
