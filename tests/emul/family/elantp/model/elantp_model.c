// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Elan i2c touchpad model; see elantp_model.h for the protocol and its
 * sources.
 */
#include "elantp_model.h"

void elantp_model_make_image_at(em_u8 *out, em_u16 product_id, em_u8 fw_version,
				em_u16 iap_start_page)
{
	struct em_iap layout;
	em_u32 i;

	em_iap_init(&layout, ELANTP_MODEL_PAGE, ELANTP_MODEL_PAGES, iap_start_page);
	for (i = 0; i < ELANTP_MODEL_FLASH; i++)
		out[i] = (em_u8)(i * 13 + fw_version);
	/* fwupd's layout (fu-elantp-firmware.c): the word at the IAP start
	 * points (in words) to the module id, the product id 0x0101 answers */
	em_iap_lay_out(&layout, out, product_id, fw_version);
}

void elantp_model_make_image(em_u8 *out, em_u16 product_id, em_u8 fw_version)
{
	elantp_model_make_image_at(out, product_id, fw_version,
				   ELANTP_MODEL_IAP_START_WORDS * 2 / ELANTP_MODEL_PAGE);
}

static void boot(struct elantp_model *m)
{
	bool ok = em_iap_app_valid(&m->iap, m->flash, m->cfg.product_id);

	m->mode = ok ? ELANTP_MODEL_MAIN : ELANTP_MODEL_IAP;
	m->fw_version = ok ? em_iap_app_version(&m->iap, m->flash) : 0;
	em_iap_reset(&m->iap);
	if (ok)
		m->stats.boots_valid++;
}

void elantp_model_init(struct elantp_model *m, const struct elantp_model_cfg *cfg,
		       const em_u8 *image)
{
	em_memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	em_iap_init(&m->iap, ELANTP_MODEL_PAGE, ELANTP_MODEL_PAGES, cfg->iap_start_page);
	if (image)
		em_memcpy(m->flash, image, ELANTP_MODEL_FLASH);
	m->powered = true;
	boot(m);
}

static void ack_reset(struct elantp_model *m)
{
	m->pending[0] = m->pending[1] = 0;
	m->have_pending = true;
}

static int write_reg(struct elantp_model *m, em_u16 reg, em_u16 val)
{
	switch (reg) {
	case 0x0005:
		if (val == 0x0100) {
			m->stats.resets++;
			boot(m);
			ack_reset(m);
		}
		return EM_ACK;
	case 0x0311:
		if (val != EM_IAP_PASSWORD)
			return EM_ACK;
		if (m->mode == ELANTP_MODEL_MAIN) {
			m->mode = ELANTP_MODEL_IAP;
			m->stats.iap_entries++;
		} else {
			em_iap_unlock(&m->iap, m->flash);
		}
		m->iap.password = val;
		return EM_ACK;
	case 0x0314:
		if (val == 0xf0f0)
			boot(m);
		return EM_ACK;
	}
	if (m->mode != ELANTP_MODEL_MAIN)
		return EM_NAK_DATA;
	if (reg == 0x0307)
		m->power = val;
	return EM_ACK; /* 0x0300 mode, 0x0316 calibrate, ... */
}

static void write_page(struct elantp_model *m, const em_u8 *buf)
{
	enum em_iap_page got;

	if (!em_iap_accepts(&m->iap, m->mode == ELANTP_MODEL_IAP))
		return;
	if (m->cfg.power_loss_page > 0 && m->iap.page_ptr >= (em_u32)m->cfg.power_loss_page) {
		/* Brown-out: the page is lost, the chip starts again from its
		 * flash (locked); the error bits of before are gone with it,
		 * the next page finds it locked. */
		m->cfg.power_loss_page = -1;
		m->stats.power_losses++;
		m->have_pending = false;
		boot(m);
		return;
	}
	got = em_iap_program(&m->iap, m->flash, buf,
			     m->cfg.fail_page >= 0 &&
				     m->iap.page_ptr >= (em_u32)m->cfg.fail_page);
	if (got == EM_IAP_BAD) {
		m->stats.page_errors++;
		return;
	}
	m->stats.pages_written++;
	if (got == EM_IAP_LAST)
		boot(m); /* the watchdog resets the chip after the last page */
}

static int elantp_write(void *chip, em_u16 addr, const em_u8 *buf, em_u16 len)
{
	struct elantp_model *m = chip;

	if (!m->powered || m->mode == ELANTP_MODEL_OFF || (m->cfg.addr && addr != m->cfg.addr))
		return EM_NAK_ADDR;
	if (len == 2) {
		m->reg = em_get_le16(buf);
		m->reg_set = true;
		return EM_ACK;
	}
	if (len == 4)
		return write_reg(m, em_get_le16(buf), em_get_le16(buf + 2));
	if (len == ELANTP_MODEL_PAGE + 4 && buf[0] == 0x01 && buf[1] == 0x06) {
		write_page(m, buf);
		return EM_ACK;
	}
	return EM_ACK;
}

/*
 * 0x0001: the 30-byte I2C HID descriptor (HID over I2C 1.00): its length,
 * version 1.00, the report descriptor (158 bytes at 0x0002), the input
 * register 0x0003 (ETP_I2C_REPORT_LEN, 34 bytes), command 0x0005, data
 * 0x0006, Elan's vendor id 0x04F3 and an i2c-hid product id (fwupd's
 * elantp plugin takes 0x3000..0x3FFF for these).  elan_i2c reads it at
 * initialisation (ETP_I2C_DESC_CMD); fwupd's i2c (recovery) device reads
 * its vendor and product at offsets 20 and 22, in IAP too.
 */
static void hid_descriptor(const struct elantp_model *m, em_u8 *buf, em_u16 len)
{
	em_u8 d[30] = { 30, 0,	  0x00, 0x01, 158, 0,	 0x02, 0,    0x03, 0,	 34,
			0,  0x04, 0,	0,    0,   0x05, 0,    0x06, 0,	   0xf3, 0x04 };
	em_u16 i;

	d[22] = (em_u8)(0x3000 + m->cfg.product_id);
	d[23] = (em_u8)((0x3000 + m->cfg.product_id) >> 8);
	em_memset(buf, 0, len);
	for (i = 0; i < len && i < sizeof(d); i++)
		buf[i] = d[i];
}

static int read_reg(struct elantp_model *m, em_u8 *buf, em_u16 len)
{
	em_u16 v = 0;
	bool word = true;

	/* The IAP code answers the descriptor and the product (module) id
	 * too: fwupd's recovery device reads both from a part in IAP. */
	if (m->reg == 0x0001) {
		hid_descriptor(m, buf, len);
		return EM_ACK;
	}
	switch (m->reg) {
	case 0x0101:
		v = m->cfg.product_id;
		break;
	case 0x0310:
		v = (em_u16)((m->mode == ELANTP_MODEL_MAIN ? 1u << 9 : 0) | m->iap.ctrl_err);
		break;
	case 0x0311:
		v = m->iap.password;
		break;
	case 0x0315:
		v = m->iap.sum;
		break;
	default:
		word = false;
	}
	if (!word && m->mode != ELANTP_MODEL_MAIN)
		return EM_NAK_DATA;
	if (!word) {
		switch (m->reg) {
		case 0x0002:
		case 0x0100:
		case 0x0300:
		case 0x0316:
			break;
		case 0x0102:
			v = m->fw_version;
			break;
		case 0x0103:
			v = (em_u16)(m->cfg.sm_version | 0x08 << 8);
			break;
		case 0x0104:
			v = (em_u16)(0x10 | m->cfg.sm_version << 8);
			break;
		case 0x0105:
			v = 14 | 8 << 8;
			break;
		case 0x0106:
			v = m->cfg.max_x;
			break;
		case 0x0107:
			v = m->cfg.max_y;
			break;
		case 0x0108:
			v = 2 | 2 << 8;
			break;
		case 0x010a:
			v = 0x10;
			break;
		case 0x0110:
			v = m->cfg.iap_version;
			break;
		case 0x0307:
			v = m->power;
			break;
		case 0x030f:
			v = em_iap_app_sum(&m->iap, m->flash);
			break;
		default:
			break;
		}
	}
	em_memset(buf, 0, len);
	if (len >= 1)
		buf[0] = (em_u8)v;
	if (len >= 2)
		buf[1] = (em_u8)(v >> 8);
	return EM_ACK;
}

static int elantp_read(void *chip, em_u16 addr, em_u8 *buf, em_u16 len)
{
	struct elantp_model *m = chip;

	if (!m->powered || m->mode == ELANTP_MODEL_OFF || (m->cfg.addr && addr != m->cfg.addr))
		return EM_NAK_ADDR;
	if (m->reg_set)
		return read_reg(m, buf, len);
	em_memset(buf, 0, len);
	if (m->have_pending && len >= 1) {
		buf[0] = m->pending[0];
		if (len >= 2)
			buf[1] = m->pending[1];
	}
	m->have_pending = false;
	return EM_ACK;
}

static void elantp_stop(void *chip)
{
	struct elantp_model *m = chip;

	m->reg_set = false;
}

static bool elantp_irq(const void *chip)
{
	return ((const struct elantp_model *)chip)->have_pending;
}

static void elantp_set_reset(void *chip, bool asserted)
{
	struct elantp_model *m = chip;

	if (asserted)
		m->mode = ELANTP_MODEL_OFF;
	else if (m->powered)
		boot(m);
}

static void elantp_set_power(void *chip, bool on)
{
	struct elantp_model *m = chip;

	m->powered = on;
	m->have_pending = false;
	if (on)
		boot(m);
	else
		m->mode = ELANTP_MODEL_OFF;
}

const struct em_chip_ops elantp_model_ops = {
	.name = "elantp",
	.write = elantp_write,
	.read = elantp_read,
	.stop = elantp_stop,
	.advance = em_chip_timeless_advance,
	.next_event = em_chip_timeless_next_event,
	.irq_asserted = elantp_irq,
	.set_reset = elantp_set_reset,
	.set_power = elantp_set_power,
};

enum elantp_model_mode elantp_model_mode(const struct elantp_model *m)
{
	return m->mode;
}

em_u8 elantp_model_fw_version(const struct elantp_model *m)
{
	return m->mode == ELANTP_MODEL_MAIN ? m->fw_version : 0;
}

const struct elantp_model_stats *elantp_model_stats(const struct elantp_model *m)
{
	return &m->stats;
}
