// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Elan eKTH touchscreen controller model; see elants_model.h for the
 * protocol and its sources.
 */
#include "elants_model.h"

static em_u16 sum16(const em_u8 *p, em_u32 len)
{
	em_u16 s = 0;

	while (len--)
		s = (em_u16)(s + *p++);
	return s;
}

bool elants_model_image_ok(const em_u8 *image, em_u32 len, em_u16 *fw_version,
			   em_u16 *hw_version)
{
	const em_u8 *t;

	if (!image || len < ELANTS_MODEL_PAGE || len % ELANTS_MODEL_PAGE)
		return false;
	t = image + len - ELANTS_MODEL_TRAILER;
	if (sum16(image, len - 2) != em_get_le16(t + 6))
		return false;
	if (fw_version)
		*fw_version = em_get_le16(t);
	if (hw_version)
		*hw_version = em_get_le16(t + 2);
	return true;
}

void elants_model_make_image(em_u8 *out, em_u32 pages, em_u16 fw_version, em_u16 hw_version,
			     em_u16 remark_id)
{
	em_u32 len = pages * ELANTS_MODEL_PAGE, i;
	em_u8 *t = out + len - ELANTS_MODEL_TRAILER;

	/* Deterministic filler, different per version. */
	for (i = 0; i < len - ELANTS_MODEL_TRAILER; i++)
		out[i] = (em_u8)(i * 7 + fw_version + (i >> 8));
	em_put_le16(t, fw_version);
	em_put_le16(t + 2, hw_version);
	em_put_le16(t + 4, remark_id);
	em_put_le16(t + 6, sum16(out, len - 2));
}

/* Boot from flash: the application runs when the image is valid and ours. */
static void boot(struct elants_model *m)
{
	em_u16 fw = 0, hw = 0;

	m->app_valid = elants_model_image_ok(m->flash, m->flash_len, &fw, &hw) &&
		       hw == m->cfg.hw_version && fw != 0 && fw != 0xffff;
	m->fw_version = m->app_valid ? fw : 0;
	m->mode = m->app_valid ? ELANTS_MODEL_NORMAL : ELANTS_MODEL_RECOVERY;
}

void elants_model_init(struct elants_model *m, const struct elants_model_cfg *cfg,
		       const em_u8 *image, em_u32 len)
{
	em_memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	if (image && len <= ELANTS_MODEL_FLASH_MAX) {
		em_memcpy(m->flash, image, len);
		m->flash_len = len;
	}
	m->powered = true;
	boot(m);
}

static void answer(struct elants_model *m, const em_u8 *buf, em_u16 len)
{
	em_memcpy(m->out, buf, len);
	m->out_len = len;
}

/* 52 <info|v>>12> <v>>4> <v<<4>: get_unaligned_be32() >> 4 gives v. */
static void answer_version(struct elants_model *m, em_u8 info, em_u16 v)
{
	em_u8 r[4] = { 0x52, (em_u8)((info & 0xf0) | (v >> 12)), (em_u8)(v >> 4),
		       (em_u8)((v & 0x0f) << 4 | 0x01) };

	answer(m, r, 4);
}

static void read_info(struct elants_model *m, const em_u8 *c)
{
	bool app = m->mode == ELANTS_MODEL_NORMAL;
	em_u8 r[4] = { 0x52, c[1], 0, 0 };

	switch (c[1]) {
	case 0xf0:
		answer_version(m, c[1], m->cfg.hw_version);
		return;
	case 0x10:
		answer_version(m, c[1], m->cfg.bc_version);
		return;
	}
	if (!app)
		return; /* the boot code knows nothing else */
	switch (c[1]) {
	case 0x00:
		answer_version(m, c[1], m->fw_version);
		break;
	case 0xe0:
		answer_version(m, c[1], m->cfg.test_version);
		break;
	case 0xd6:
		r[3] = m->cfg.osr;
		answer(m, r, 4);
		break;
	case 0xd7: /* physical size in mm, BE16 */
	case 0xd8:
		r[2] = 0;
		r[3] = c[1] == 0xd7 ? 160 : 90;
		answer(m, r, 4);
		break;
	case 0xd0:
		answer(m, r, 4);
		break;
	}
}

static int elants_write(void *chip, em_u16 addr, const em_u8 *buf, em_u16 len)
{
	static const em_u8 soft_reset[] = { 0x77, 0x77, 0x77, 0x77 };
	static const em_u8 fastboot[] = { 0x4d, 0x61, 0x69, 0x6e };
	static const em_u8 eiap[] = { 0x45, 0x49, 0x41, 0x50 };
	static const em_u8 iap2[] = { 0x54, 0x00, 0x12, 0x34 };
	static const em_u8 iap_ack[] = { 0x55, 0xaa, 0x33, 0xcc };
	static const em_u8 flashkey[] = { 0x54, 0xc0, 0xe1, 0x5a };
	static const em_u8 rek[] = { 0x54, 0x29, 0x00, 0x01 };
	struct elants_model *m = chip;

	if (!m->powered || m->mode == ELANTS_MODEL_OFF || (m->cfg.addr && addr != m->cfg.addr))
		return EM_NAK_ADDR;
	if (len == 4 && !em_memcmp(buf, soft_reset, 4) &&
	    !(m->mode == ELANTS_MODEL_IAP && m->cfg.iap_ignores_reset)) {
		m->stats.soft_resets++;
		if (m->mode == ELANTS_MODEL_IAP)
			boot(m); /* the new image is judged at the next boot */
		m->mode = ELANTS_MODEL_RESET;
		m->out_len = 0;
		m->rek_armed = false;
		return EM_ACK;
	}
	if (m->mode == ELANTS_MODEL_IAP) {
		if (!m->iap_acked)
			return EM_ACK;
		if (!m->iap_dummy) {
			if (len == 1)
				m->iap_dummy = true;
			return EM_ACK;
		}
		if (len != ELANTS_MODEL_PAGE)
			return EM_ACK;
		if (!m->iap_cleared) {
			/* "Clear the last page of Master": the application is
			 * gone from now on. */
			m->iap_cleared = true;
			m->flash_len = 0;
			m->app_valid = false;
			answer(m, (const em_u8 *)"\xaa\xaa", 2);
			return EM_ACK;
		}
		if (m->cfg.nak_iap_page >= 0 && m->iap_page >= (em_u32)m->cfg.nak_iap_page) {
			m->stats.bad_acks++;
			answer(m, (const em_u8 *)"\x55\x55", 2);
			return EM_ACK;
		}
		if ((m->iap_page + 1) * ELANTS_MODEL_PAGE <= ELANTS_MODEL_FLASH_MAX) {
			em_memcpy(m->flash + m->iap_page * ELANTS_MODEL_PAGE, buf, len);
			m->iap_page++;
			m->flash_len = m->iap_page * ELANTS_MODEL_PAGE;
			m->stats.pages_written++;
		}
		answer(m, (const em_u8 *)"\xaa\xaa", 2);
		return EM_ACK;
	}
	if (len == 4 && !em_memcmp(buf, fastboot, 4) && m->mode == ELANTS_MODEL_RESET) {
		static const em_u8 hello[] = { 0x55, 0x55, 0x55, 0x55 };
		static const em_u8 recov[] = { 0x55, 0x55, 0x80, 0x80 };

		boot(m);
		if (m->app_valid)
			m->stats.images_booted++;
		m->stats.hellos++;
		answer(m, m->app_valid ? hello : recov, 4);
		return EM_ACK;
	}
	if (len == 4 && ((m->mode == ELANTS_MODEL_RESET && !em_memcmp(buf, eiap, 4)) ||
			 (m->mode == ELANTS_MODEL_RECOVERY && !em_memcmp(buf, iap2, 4)))) {
		if (m->cfg.refuse_iap)
			return EM_ACK;
		m->mode = ELANTS_MODEL_IAP;
		m->iap_acked = m->iap_dummy = m->iap_cleared = false;
		m->iap_page = 0;
		m->stats.iap_entries++;
		answer(m, iap_ack, 4);
		return EM_ACK;
	}
	if (m->mode == ELANTS_MODEL_RESET)
		return EM_ACK; /* nothing else before the boot */
	if (len == 4 && buf[0] == 0x53) {
		read_info(m, buf);
	} else if (len == 6 && buf[0] == 0x5b && m->mode == ELANTS_MODEL_NORMAL) {
		em_u8 r[17] = { 0x9b, 0 };

		r[2] = m->cfg.rows;
		r[3] = m->cfg.cols;
		r[16] = 1;
		answer(m, r, 17);
	} else if (len == 6 && buf[0] == 0x96 && buf[1] == 0x80 && buf[2] == 0x1f) {
		em_u8 r[6] = { 0x95,
			       0x80,
			       0x1f,
			       (em_u8)(m->cfg.remark_id >> 8),
			       (em_u8)m->cfg.remark_id,
			       0 };

		answer(m, r, 6);
	} else if (len == 4 && !em_memcmp(buf, flashkey, 4)) {
		m->rek_armed = true;
	} else if (len == 4 && !em_memcmp(buf, rek, 4) && m->rek_armed &&
		   m->mode == ELANTS_MODEL_NORMAL) {
		m->rek_armed = false;
		m->stats.calibrations++;
		answer(m, (const em_u8 *)"\x66\x66\x66\x66", 4);
	}
	return EM_ACK;
}

static int elants_read(void *chip, em_u16 addr, em_u8 *buf, em_u16 len)
{
	struct elants_model *m = chip;
	em_u16 n;

	if (!m->powered || m->mode == ELANTS_MODEL_OFF || (m->cfg.addr && addr != m->cfg.addr))
		return EM_NAK_ADDR;
	em_memset(buf, 0, len);
	n = len < m->out_len ? len : m->out_len;
	em_memcpy(buf, m->out, n);
	if (m->mode == ELANTS_MODEL_IAP && m->out_len == 4 && !m->iap_acked)
		m->iap_acked = true;
	m->out_len = 0;
	return EM_ACK;
}

static bool elants_irq(const void *chip)
{
	const struct elants_model *m = chip;

	return m->out_len > 0;
}

/* Reset held (true) or released: the chip boots afresh, like a power-up. */
static void elants_set_reset(void *chip, bool asserted)
{
	struct elants_model *m = chip;

	m->out_len = 0;
	if (asserted) {
		m->mode = ELANTS_MODEL_OFF;
		return;
	}
	if (m->powered)
		boot(m);
}

static void elants_set_power(void *chip, bool on)
{
	struct elants_model *m = chip;

	m->powered = on;
	m->out_len = 0;
	if (!on)
		m->mode = ELANTS_MODEL_OFF;
	else
		boot(m);
}

const struct em_chip_ops elants_model_ops = {
	.name = "elants",
	.write = elants_write,
	.read = elants_read,
	.advance = em_chip_timeless_advance,
	.next_event = em_chip_timeless_next_event,
	.irq_asserted = elants_irq,
	.set_reset = elants_set_reset,
	.set_power = elants_set_power,
};

enum elants_model_mode elants_model_mode(const struct elants_model *m)
{
	return m->mode;
}

em_u16 elants_model_fw_version(const struct elants_model *m)
{
	return m->mode == ELANTS_MODEL_NORMAL ? m->fw_version : 0;
}

const struct elants_model_stats *elants_model_stats(const struct elants_model *m)
{
	return &m->stats;
}
