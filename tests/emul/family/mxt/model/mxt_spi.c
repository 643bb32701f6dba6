// SPDX-License-Identifier: GPL-2.0-or-later
/* The spi personality of the maXTouch model (see mxt_spi.h). */
#include "mxt_spi.h"

em_u8 mxt_spi_model_crc8(const em_u8 *buf, em_u32 len)
{
	em_u8 crc = 0;

	for (em_u32 i = 0; i < len; i++) {
		em_u8 data = buf[i];

		for (int k = 0; k < 8; k++) {
			em_u8 fb = (em_u8)((crc ^ data) & 1);

			data >>= 1;
			crc >>= 1;
			if (fb)
				crc ^= 0x8C;
		}
	}
	return crc;
}

/* the end of an i2c transaction, where the model wants one */
static void stop(struct mxt_model *m)
{
	if (mxt_model_ops.stop)
		mxt_model_ops.stop(m);
}

void mxt_spi_init(struct mxt_spi *s, struct mxt_model *m)
{
	em_memset(s, 0, sizeof(*s));
	s->m = m;
}

static void respond(struct mxt_spi *s, em_u8 status, const em_u8 *hdr, const em_u8 *data,
		    em_u32 len)
{
	s->resp[0] = status;
	for (int i = 1; i < 5; i++)
		s->resp[i] = hdr[i];
	s->resp[5] = mxt_spi_model_crc8(s->resp, 5);
	if (data && len)
		em_memcpy(s->resp + MXT_SPI_HEADER, data, len);
	s->resp_len = MXT_SPI_HEADER + (data ? len : 0);
	s->resp_pending = true;
	s->resp_at = s->xfer_at;
}

/* A request frame ended (chip deselected): run it against the model. */
static void app_request(struct mxt_spi *s)
{
	const em_u8 *h = s->in;
	em_u16 reg, len;
	em_u8 buf[2 + MXT_SPI_MAX_LEN];
	bool data_crc;

	if (s->in_len < MXT_SPI_HEADER)
		return; /* too short to be anything: ignored */
	s->stats.requests++;
	reg = em_get_le16(h + 1);
	len = em_get_le16(h + 3);
	if (mxt_spi_model_crc8(h, 5) != h[5] ||
	    (s->faults.crc_reply_at && s->stats.requests == s->faults.crc_reply_at)) {
		s->stats.crc_errors++;
		respond(s, MXT_SPI_INVALID_CRC, h, 0, 0);
		return;
	}
	data_crc = h[0] == MXT_SPI_WRITE_REQ && mxt_model_object(s->m, MXT_SPI_T144, 0, 0);
	if ((h[0] != MXT_SPI_READ_REQ && h[0] != MXT_SPI_WRITE_REQ) || len > MXT_SPI_MAX_LEN ||
	    (data_crc && (len < 2 || len > MXT_SPI_MAX_LEN_CRC + 1)) ||
	    (h[0] == MXT_SPI_WRITE_REQ && s->in_len < (em_u32)MXT_SPI_HEADER + len)) {
		s->stats.invalid++;
		respond(s, MXT_SPI_INVALID_REQ, h, 0, 0);
		return;
	}
	if (data_crc) {
		/* the data, then its CRC8 (see mxt_spi.h) */
		len--;
		if (mxt_spi_model_crc8(h + MXT_SPI_HEADER, len) != h[MXT_SPI_HEADER + len]) {
			s->stats.data_crc_errors++;
			respond(s, MXT_SPI_INVALID_CRC, h, 0, 0);
			return;
		}
	}
	buf[0] = (em_u8)(reg & 0xff);
	buf[1] = (em_u8)(reg >> 8);
	if (h[0] == MXT_SPI_WRITE_REQ) {
		int r;

		s->stats.writes++;
		if (s->faults.write_fail_at && s->stats.writes == s->faults.write_fail_at) {
			respond(s, MXT_SPI_WRITE_FAIL, h, 0, 0);
			return;
		}
		em_memcpy(buf + 2, h + MXT_SPI_HEADER, len);
		r = mxt_model_ops.write(s->m, s->m->cfg.app_addr, buf, (em_u16)(len + 2));
		stop(s->m);
		respond(s, r == EM_ACK ? MXT_SPI_WRITE_OK : MXT_SPI_WRITE_FAIL, h, 0, 0);
	} else {
		em_u8 data[MXT_SPI_MAX_LEN];
		int r = mxt_model_ops.write(s->m, s->m->cfg.app_addr, buf, 2);

		if (r == EM_ACK)
			r = mxt_model_ops.read(s->m, s->m->cfg.app_addr, data, len);
		stop(s->m);
		if (r == EM_ACK)
			respond(s, MXT_SPI_READ_OK, h, data, len);
		else
			respond(s, MXT_SPI_READ_FAIL, h, 0, 0);
	}
}

static void op_select(void *chip, bool selected)
{
	struct mxt_spi *s = chip;
	struct mxt_model *m = s->m;

	if (selected == s->selected)
		return;
	s->selected = selected;
	if (selected) {
		s->pos = 0;
		s->in_len = 0;
		/* a response waits in the interface even while the chip
		 * resets (the driver reads the 0x81 of its T6 RESET or 0xA5
		 * write 1 ms later, and needs it) */
		s->readout = s->resp_pending && m->mode != MXT_MODE_OFF;
		/* too soon: the chip is still preparing it; the frame reads
		 * 0xFF and the request is lost */
		s->early = s->readout && s->now - s->resp_at < MXT_SPI_RESPONSE_GAP_NS;
		if (s->early)
			s->readout = false;
		return;
	}
	/* frame end */
	if (s->early) {
		s->early = false;
		s->resp_pending = false;
		s->stats.early_responses++;
		return;
	}
	if (s->readout) {
		s->resp_pending = false;
		s->stats.responses++;
		return;
	}
	if (m->mode == MXT_MODE_APP) {
		app_request(s);
	} else if (m->mode == MXT_MODE_BOOTLOADER && s->in_len >= 2 && s->in[0] == 0x00 &&
		   s->in[1] == 0x00) {
		em_u32 n = s->in_len - 2;

		s->stats.bl_writes++;
		mxt_model_ops.write(m, mxt_model_bootloader_addr(m), s->in + 2,
				    (em_u16)(n > 0xffff ? 0xffff : n));
		stop(m);
	}
}

static void op_xfer(void *chip, const em_u8 *mosi, em_u8 *miso, em_u32 len)
{
	struct mxt_spi *s = chip;
	struct mxt_model *m = s->m;

	for (em_u32 i = 0; i < len; i++, s->pos++) {
		em_u8 out = 0xff;

		if (i == 0)
			s->xfer_at = s->now;
		if (!s->selected || m->mode == MXT_MODE_OFF || s->early) {
			miso[i] = 0xff;
			continue;
		}
		if (s->readout) {
			if (s->pos < s->resp_len)
				out = s->resp[s->pos];
		} else if (m->mode == MXT_MODE_RESET) {
			out = 0xff;
		} else if (m->mode == MXT_MODE_BOOTLOADER && s->in_len >= 1 &&
			   s->in[0] == 0x01) {
			/* a bootloader read: the status from the third byte */
			if (s->pos == 2) {
				mxt_model_ops.read(m, mxt_model_bootloader_addr(m), s->bl, 3);
				stop(m);
				s->stats.bl_reads++;
			}
			if (s->pos >= 2 && s->pos < 5)
				out = s->bl[s->pos - 2];
		}
		miso[i] = out;
		if (s->in_len < sizeof(s->in))
			s->in[s->in_len++] = mosi[i];
	}
}

static void op_advance(void *chip, em_u64 now)
{
	struct mxt_spi *s = chip;

	s->now = now;
	mxt_model_ops.advance(s->m, now);
}

static em_u64 op_next_event(const void *chip)
{
	const struct mxt_spi *s = chip;

	return mxt_model_ops.next_event(s->m);
}

static bool op_irq(const void *chip)
{
	const struct mxt_spi *s = chip;

	return mxt_model_ops.irq_asserted(s->m);
}

const struct em_spi_ops mxt_spi_ops = {
	.name = "mxt-spi",
	.mode = 3, /* SPI_CPHA | SPI_CPOL */
	.max_hz = 8000000,
	.select = op_select,
	.xfer = op_xfer,
	.advance = op_advance,
	.next_event = op_next_event,
	.irq_asserted = op_irq,
};
