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
	m->flash_key = m->pw_armed = m->have_half = false;
	m->smb_password = 0;
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

/* ------------------------------------------------------------ SMBus */

#define SMB_IAP_MODE_ON (1u << 6)
#define SMB_PASSWORD 0x1234

/* Command bytes a part in IAP takes (elantp_model.h). */
static bool smb_iap_cmd(em_u8 cmd)
{
	switch (cmd) {
	case 0x00:
	case 0x29:
	case 0x2a:
	case 0x2b:
	case 0x80:
	case 0xa3:
	case 0xad:
		return true;
	default:
		return false;
	}
}

static void smb_page_half(struct elantp_model *m, const em_u8 *data, em_u8 count)
{
	em_u8 frame[ELANTP_MODEL_PAGE + 4];
	em_u16 sum;

	if (count != ELANTP_MODEL_PAGE / 2) {
		m->have_half = false;
		m->iap.ctrl_err |= EM_IAP_ERR_INTF;
		return;
	}
	if (!m->have_half) {
		em_memcpy(m->half, data, count);
		m->have_half = true;
		return;
	}
	m->have_half = false;
	/* the chip sums the page itself: no sum on the wire */
	frame[0] = 0x01;
	frame[1] = 0x06;
	em_memcpy(frame + 2, m->half, count);
	em_memcpy(frame + 2 + count, data, count);
	sum = em_iap_page_sum(&m->iap, frame + 2);
	em_put_le16(frame + 2 + ELANTP_MODEL_PAGE, sum);
	write_page(m, frame);
}

/* A block write to 0x00 (four bytes). */
static void smb_iap_cmd_block(struct elantp_model *m, const em_u8 *d)
{
	if (d[0] == 0x00 && d[1] == 0x0b && d[2] == 0x00 && d[3] == 0x5a) {
		m->flash_key = true;
		return;
	}
	if (d[0] == 0x0f && d[1] == 0x78 && d[2] == 0x00 && d[3] == 0x06) {
		if (m->mode == ELANTP_MODEL_MAIN && m->pw_armed) {
			m->mode = ELANTP_MODEL_IAP;
			m->smb_password = SMB_PASSWORD;
			m->stats.iap_entries++;
		}
		m->pw_armed = m->flash_key = false;
		return;
	}
	/* 00 07 00 MODE, 00 08 00 01 (calibrate): nothing to model */
}

static int smb_write(struct elantp_model *m, const em_u8 *buf, em_u16 len)
{
	em_u8 count;

	if (!len)
		return EM_ACK; /* a quick command */
	if (m->mode != ELANTP_MODEL_MAIN && !smb_iap_cmd(buf[0]))
		return EM_NAK_DATA;
	if (len == 1) {
		m->smb_cmd = buf[0];
		m->smb_cmd_set = true;
		m->smb_read = false;
		return EM_ACK;
	}
	/* a block write: command, count, data (a PEC byte after it ignored) */
	count = buf[1];
	if (!count || len < count + 2)
		return EM_NAK_DATA;
	if (buf[0] == 0x00 && count == 4)
		smb_iap_cmd_block(m, buf + 2);
	else if (buf[0] == 0x2a)
		smb_page_half(m, buf + 2, count);
	return EM_ACK;
}

/* A byte command: the command byte alone, then STOP. */
static void smb_byte_cmd(struct elantp_model *m, em_u8 cmd)
{
	switch (cmd) {
	case 0x29:
		m->pw_armed = m->mode == ELANTP_MODEL_MAIN && m->flash_key;
		break;
	case 0x2b:
		if (m->mode == ELANTP_MODEL_IAP && m->flash_key) {
			/* the IAP code restarts, ready to be written */
			em_iap_reset(&m->iap);
			em_iap_unlock(&m->iap, m->flash);
			m->iap.password = EM_IAP_PASSWORD;
			m->flash_key = m->have_half = false;
		} else {
			m->stats.resets++;
			boot(m);
		}
		break;
	default:
		break; /* 0x20 enable, 0x21 sleep */
	}
}

static em_u8 smb_block(struct elantp_model *m, em_u8 cmd, em_u8 *d)
{
	em_u16 v;

	switch (cmd) {
	case 0xa7:
		em_memset(d, 0x55, 5);
		return 5;
	case 0xa0:
		d[0] = (em_u8)(((m->cfg.max_x >> 8) & 0x0f) | ((m->cfg.max_y >> 4) & 0xf0));
		d[1] = (em_u8)m->cfg.max_x;
		d[2] = (em_u8)m->cfg.max_y;
		return 3;
	case 0xa1:
		d[2] = m->fw_version;
		return 3;
	case 0xa2:
		d[1] = 14;
		d[2] = 8;
		return 3;
	case 0xa3:
		d[0] = (em_u8)(m->cfg.product_id >> 8);
		d[1] = (em_u8)m->cfg.product_id;
		return 3;
	case 0xa4:
		d[1] = 2 | 2 << 4;
		return 3;
	case 0xa8:
		d[0] = 0x5d; /* ETP_REPORT_ID, no finger */
		return 32;
	case 0xac:
		d[2] = m->cfg.iap_version;
		return 3;
	case 0xad:
		v = (em_u16)((m->mode == ELANTP_MODEL_IAP ? SMB_IAP_MODE_ON : 0) |
			     m->iap.ctrl_err);
		break;
	case 0xae:
		v = em_iap_app_sum(&m->iap, m->flash);
		break;
	case 0xaf:
		v = m->iap.sum;
		break;
	case 0x80:
		v = m->smb_password;
		break;
	default:
		return 0;
	}
	d[0] = (em_u8)(v >> 8);
	d[1] = (em_u8)v;
	return 2;
}

static int smb_read(struct elantp_model *m, em_u8 *buf, em_u16 len)
{
	em_u8 d[32];
	em_u8 n;

	em_memset(buf, 0, len);
	if (!m->smb_cmd_set)
		return EM_ACK; /* a receive byte (elan_i2c's "is anything there") */
	em_memset(d, 0, sizeof(d));
	n = smb_block(m, m->smb_cmd, d);
	if (!n)
		return EM_NAK_DATA;
	m->smb_read = true;
	if (len >= 1) {
		buf[0] = n;
		em_memcpy(buf + 1, d, len - 1u < n ? len - 1u : n);
	}
	return EM_ACK;
}

static void smb_stop(struct elantp_model *m)
{
	if (m->smb_cmd_set && !m->smb_read)
		smb_byte_cmd(m, m->smb_cmd);
	m->smb_cmd_set = false;
	m->smb_read = false;
}

/* ------------------------------------------------------------ the bus */

static int elantp_write(void *chip, em_u16 addr, const em_u8 *buf, em_u16 len)
{
	struct elantp_model *m = chip;

	if (!m->powered || m->mode == ELANTP_MODEL_OFF || (m->cfg.addr && addr != m->cfg.addr))
		return EM_NAK_ADDR;
	if (m->cfg.smbus)
		return smb_write(m, buf, len);
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
	if (m->cfg.smbus)
		return smb_read(m, buf, len);
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
	if (m->cfg.smbus)
		smb_stop(m);
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
