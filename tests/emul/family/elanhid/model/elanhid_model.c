// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Elan HID-over-I2C touchpad model; see elanhid_model.h for the protocol
 * and its sources.
 */
#include "elanhid_model.h"

/* HID over I2C: the command register's opcodes (i2c-hid-core.c). */
#define OP_RESET 0x1
#define OP_GET_REPORT 0x2
#define OP_SET_REPORT 0x3
#define OP_SET_POWER 0x8
#define REG_INPUT 0x0003
#define REG_CMD 0x0005
#define REG_DATA 0x0006
#define REPORT_FEATURE 3

void elanhid_model_make_image(em_u8 *out, em_u16 module_id, em_u8 fw_version,
			      em_u16 iap_start_page)
{
	struct em_iap layout;
	em_u32 i;

	em_iap_init(&layout, ELANHID_MODEL_PAGE, ELANHID_MODEL_PAGES, iap_start_page);
	for (i = 0; i < ELANHID_MODEL_FLASH; i++)
		out[i] = (em_u8)(i * 7 + fw_version);
	/* fwupd's fu-elantp-firmware.c: the word at the IAP start points,
	 * in words, to the module id */
	em_iap_lay_out(&layout, out, module_id, fw_version);
	out[ELANHID_MODEL_SIG_ADDR - 1] = 0;
}

/* ------------------------------------------------ the report descriptor */

struct rd {
	em_u8 *b;
	em_u16 n;
};

static void put(struct rd *r, const em_u8 *bytes, em_u16 len)
{
	em_u16 i;

	for (i = 0; i < len && r->n < ELANHID_MODEL_RDESC_MAX; i++)
		r->b[r->n++] = bytes[i];
}

/* a short item with a 2-byte value (tag | 2) */
static void put16(struct rd *r, em_u8 tag, em_u16 v)
{
	em_u8 b[3] = { (em_u8)(tag | 2), (em_u8)v, (em_u8)(v >> 8) };

	put(r, b, 3);
}

/*
 * A precision touchpad's report descriptor as such parts lay it out (see
 * the header): mouse (report 1), touch pad (report 4 with five fingers,
 * feature report 2), device configuration (feature report 3).
 */
static void build_rdesc(struct elanhid_model *m)
{
	static const em_u8 mouse[] = {
		0x05, 0x01, 0x09, 0x02, 0xa1, 0x01, 0x85, 0x01, 0x09, 0x01, 0xa1, 0x00, 0x05,
		0x09, 0x19, 0x01, 0x29, 0x02, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x02,
		0x81, 0x02, 0x95, 0x06, 0x81, 0x03, 0x05, 0x01, 0x09, 0x30, 0x09, 0x31, 0x15,
		0x81, 0x25, 0x7f, 0x75, 0x08, 0x95, 0x02, 0x81, 0x06, 0xc0, 0xc0,
	};
	static const em_u8 pad_head[] = {
		0x05, 0x0d, 0x09, 0x05, 0xa1, 0x01, 0x85, ELANHID_MODEL_TOUCH_ID,
	};
	static const em_u8 finger_head[] = {
		0x09, 0x22, 0xa1, 0x02, 0x15, 0x00, 0x25, 0x01, 0x09, 0x47, 0x09, 0x42,
		0x95, 0x02, 0x75, 0x01, 0x81, 0x02, 0x95, 0x01, 0x75, 0x03, 0x25, 0x05,
		0x09, 0x51, 0x81, 0x02, 0x75, 0x01, 0x95, 0x03, 0x81, 0x03, 0x05, 0x01,
	};
	static const em_u8 x_units[] = { 0x75, 0x10, 0x55, 0x0e, 0x65,
					 0x11, 0x09, 0x30, 0x35, 0x00 };
	static const em_u8 x_tail[] = { 0x95, 0x01, 0x81, 0x02 };
	static const em_u8 y_tail[] = { 0x09, 0x31, 0x81, 0x02, 0x65, 0x00,
					0x55, 0x00, 0x05, 0x0d, 0xc0 };
	static const em_u8 pad_tail[] = {
		/* scan time (100 us units), contact count, button 1 */
		0x55,
		0x0c,
		0x66,
		0x01,
		0x10,
		0x47,
		0xff,
		0xff,
		0x00,
		0x00,
		0x27,
		0xff,
		0xff,
		0x00,
		0x00,
		0x75,
		0x10,
		0x95,
		0x01,
		0x05,
		0x0d,
		0x09,
		0x56,
		0x81,
		0x02,
		0x65,
		0x00,
		0x55,
		0x00,
		0x09,
		0x54,
		0x25,
		0x7f,
		0x95,
		0x01,
		0x75,
		0x08,
		0x81,
		0x02,
		0x05,
		0x09,
		0x09,
		0x01,
		0x25,
		0x01,
		0x75,
		0x01,
		0x95,
		0x01,
		0x81,
		0x02,
		0x95,
		0x07,
		0x81,
		0x03,
		/* feature 2: contact count maximum, pad type */
		0x05,
		0x0d,
		0x85,
		0x02,
		0x09,
		0x55,
		0x09,
		0x59,
		0x75,
		0x04,
		0x95,
		0x02,
		0x25,
		0x0f,
		0xb1,
		0x02,
		0xc0,
		/* device configuration: feature 3, input mode */
		0x05,
		0x0d,
		0x09,
		0x0e,
		0xa1,
		0x01,
		0x85,
		0x03,
		0x09,
		0x22,
		0xa1,
		0x02,
		0x09,
		0x52,
		0x15,
		0x00,
		0x25,
		0x0a,
		0x75,
		0x08,
		0x95,
		0x01,
		0xb1,
		0x02,
		0xc0,
		0xc0,
	};
	/* physical size in 0.01 cm at about 30 units per mm */
	em_u16 px = (em_u16)(m->cfg.max_x / 3), py = (em_u16)(m->cfg.max_y / 3);
	struct rd r = { m->rdesc, 0 };
	int f;

	put(&r, mouse, sizeof(mouse));
	put(&r, pad_head, sizeof(pad_head));
	for (f = 0; f < ELANHID_MODEL_FINGERS; f++) {
		put(&r, finger_head, sizeof(finger_head));
		put16(&r, 0x24, m->cfg.max_x); /* Logical Maximum */
		put(&r, x_units, sizeof(x_units));
		put16(&r, 0x44, px); /* Physical Maximum */
		put(&r, x_tail, sizeof(x_tail));
		put16(&r, 0x24, m->cfg.max_y);
		put16(&r, 0x44, py);
		put(&r, y_tail, sizeof(y_tail));
	}
	put(&r, pad_tail, sizeof(pad_tail));
	m->rdesc_len = r.n;
}

/* ------------------------------------------------ modes */

static void boot(struct elanhid_model *m)
{
	bool ok = em_iap_app_valid(&m->iap, m->flash, m->cfg.module_id);

	m->mode = ok ? ELANHID_MODEL_MAIN : ELANHID_MODEL_IAP;
	m->fw_version = ok ? em_iap_app_version(&m->iap, m->flash) : 0;
	em_iap_reset(&m->iap);
	m->iap_type = 0;
	m->power_state = 0;
	m->input_mode = 0;
	m->answer_len = 0;
	m->have_input = false;
	if (ok)
		m->stats.boots_valid++;
}

void elanhid_model_init(struct elanhid_model *m, const struct elanhid_model_cfg *cfg,
			const em_u8 *image)
{
	em_memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	if (!m->cfg.desc_reg)
		m->cfg.desc_reg = 0x0001;
	em_iap_init(&m->iap, ELANHID_MODEL_PAGE, ELANHID_MODEL_PAGES, cfg->iap_start_page);
	if (image)
		em_memcpy(m->flash, image, ELANHID_MODEL_FLASH);
	else
		em_memset(m->flash, 0xff, ELANHID_MODEL_FLASH);
	build_rdesc(m);
	m->powered = true;
	boot(m);
}

/* The reset sentinel: an input of length 0, INT asserted until read. */
static void reset_done(struct elanhid_model *m)
{
	em_memset(m->input, 0, sizeof(m->input));
	m->have_input = true;
}

static void write_page(struct elanhid_model *m, const em_u8 *buf)
{
	enum em_iap_page got;

	if (!em_iap_accepts(&m->iap, m->mode == ELANHID_MODEL_IAP &&
					     m->iap_type == ELANHID_MODEL_PAGE / 2)) {
		m->stats.intf_errors++;
		return;
	}
	got = em_iap_program(&m->iap, m->flash, buf, false);
	if (got == EM_IAP_BAD) {
		m->stats.page_errors++;
		return;
	}
	m->stats.pages_written++;
	if (got == EM_IAP_LAST) {
		boot(m); /* the watchdog resets the chip after the last page */
		reset_done(m);
	}
}

/* A feature report's data for GET_REPORT: [len LE16, id, data]. */
static bool feature(struct elanhid_model *m, em_u8 id)
{
	if (id == 2) /* contact count maximum 5, pad type 0 (click pad) */
		m->answer[3] = ELANHID_MODEL_FINGERS;
	else if (id == 3)
		m->answer[3] = (em_u8)m->input_mode;
	else
		return false;
	em_put_le16(m->answer, 4);
	m->answer[2] = id;
	m->answer_len = 4;
	return true;
}

/*
 * A write to the command register: [05 00, type << 4 | id (0x0F: the id
 * follows), opcode, ...] (i2c-hid-core.c's i2c_hid_encode_command and the
 * data register with a length for SET_REPORT).
 */
static int command(struct elanhid_model *m, const em_u8 *buf, em_u16 len)
{
	em_u16 i = 2;
	em_u8 id = buf[i] & 0x0f, type = (em_u8)(buf[i] >> 4), op = buf[i + 1] & 0x0f;

	i += 2;
	if (id == 0x0f && i < len)
		id = buf[i++];
	switch (op) {
	case OP_RESET:
		m->stats.resets++;
		boot(m);
		reset_done(m);
		return EM_ACK;
	case OP_SET_POWER:
		m->power_state = buf[2] & 0x3;
		return EM_ACK;
	}
	if (m->mode != ELANHID_MODEL_MAIN)
		return EM_NAK_DATA;
	/* the data register follows */
	if (i + 2 > len || em_get_le16(buf + i) != REG_DATA)
		return EM_ACK;
	i += 2;
	if (op == OP_GET_REPORT) {
		if (type != REPORT_FEATURE || !feature(m, id))
			m->answer_len = 0;
		m->reg = REG_DATA;
		m->reg_set = true;
		return EM_ACK;
	}
	if (op == OP_SET_REPORT && i + 4 <= len && type == REPORT_FEATURE) {
		m->stats.set_reports++;
		if (buf[i + 2] == 3)
			m->input_mode = buf[i + 3];
	}
	return EM_ACK;
}

static int write_reg(struct elanhid_model *m, em_u16 reg, em_u16 val)
{
	switch (reg) {
	case 0x0304: /* IAP type: page size / 2 */
		if (m->mode == ELANHID_MODEL_IAP)
			m->iap_type = val;
		return EM_ACK;
	case 0x0311:
		if (val != EM_IAP_PASSWORD)
			return EM_ACK;
		if (m->mode == ELANHID_MODEL_MAIN)
			m->mode = ELANHID_MODEL_IAP;
		else
			em_iap_unlock(&m->iap, m->flash);
		m->iap.password = val;
		return EM_ACK;
	case 0x0314:
		if (val == 0xf0f0)
			boot(m);
		return EM_ACK;
	}
	return m->mode == ELANHID_MODEL_MAIN ? EM_ACK : EM_NAK_DATA;
}

static int elanhid_write(void *chip, em_u16 addr, const em_u8 *buf, em_u16 len)
{
	struct elanhid_model *m = chip;

	if (!m->powered || m->mode == ELANHID_MODEL_OFF || (m->cfg.addr && addr != m->cfg.addr))
		return EM_NAK_ADDR;
	if (len == 2) {
		m->reg = em_get_le16(buf);
		m->reg_set = true;
		return EM_ACK;
	}
	if (len >= 4 && em_get_le16(buf) == REG_CMD)
		return command(m, buf, len);
	if (len == 4)
		return write_reg(m, em_get_le16(buf), em_get_le16(buf + 2));
	if (len == ELANHID_MODEL_PAGE + 4 && buf[0] == 0x01 && buf[1] == 0x06) {
		write_page(m, buf);
		return EM_ACK;
	}
	return m->mode == ELANHID_MODEL_MAIN ? EM_ACK : EM_NAK_DATA;
}

/* The 30-byte HID descriptor (HID over I2C 1.00) of a running part. */
static void hid_descriptor(const struct elanhid_model *m, em_u8 *d)
{
	em_memset(d, 0, ELANHID_MODEL_DESC_LEN);
	em_put_le16(d + 0, ELANHID_MODEL_DESC_LEN);
	em_put_le16(d + 2, 0x0100);
	em_put_le16(d + 4, m->rdesc_len);
	em_put_le16(d + 6, 0x0002);
	em_put_le16(d + 8, REG_INPUT);
	em_put_le16(d + 10, ELANHID_MODEL_MAX_INPUT);
	em_put_le16(d + 12, 0x0004);
	em_put_le16(d + 14, 0);
	em_put_le16(d + 16, REG_CMD);
	em_put_le16(d + 18, REG_DATA);
	em_put_le16(d + 20, 0x04f3);
	em_put_le16(d + 22, m->cfg.hid_pid);
	em_put_le16(d + 24, m->fw_version);
}

static void copy_out(em_u8 *buf, em_u16 len, const em_u8 *src, em_u16 n)
{
	em_memset(buf, 0, len);
	em_memcpy(buf, src, n < len ? n : len);
}

static int read_reg(struct elanhid_model *m, em_u8 *buf, em_u16 len)
{
	bool main = m->mode == ELANHID_MODEL_MAIN;
	em_u8 d[ELANHID_MODEL_DESC_LEN];
	em_u16 v;

	if (m->reg == m->cfg.desc_reg) {
		m->stats.desc_reads++;
		if (main)
			hid_descriptor(m, d);
		else
			em_memset(d, m->cfg.iap_desc_ff ? 0xff : 0x00, sizeof(d));
		copy_out(buf, len, d, sizeof(d));
		return EM_ACK;
	}
	if (m->reg == 0x0002) {
		if (!main)
			return EM_NAK_DATA;
		m->stats.rdesc_reads++;
		copy_out(buf, len, m->rdesc, m->rdesc_len);
		return EM_ACK;
	}
	if (m->reg == REG_DATA && m->answer_len) {
		copy_out(buf, len, m->answer, m->answer_len);
		m->answer_len = 0;
		return EM_ACK;
	}
	switch (m->reg) {
	case 0x0101:
		v = m->cfg.module_id;
		break;
	case 0x0102:
		v = main ? m->fw_version : 0x0102; /* IAP: echoes the command */
		break;
	case 0x0103:
		v = main ? (em_u16)(2 | ELANHID_MODEL_IC_TYPE << 8) : 0x0103;
		break;
	case 0x0110: /* IC body */
		v = ELANHID_MODEL_IC_TYPE;
		break;
	case 0x0111:
		v = ELANHID_MODEL_IAP_VERSION;
		break;
	case 0x0304:
		v = main ? 0x0304 : m->iap_type;
		break;
	case 0x0310:
		v = (em_u16)((main ? 1u << 9 : 0) | m->iap.ctrl_err);
		break;
	case 0x0311:
		v = m->iap.password;
		break;
	case 0x0315:
		v = m->iap.sum;
		break;
	default:
		v = main ? 0 : m->reg; /* the IAP code echoes what it does not know */
		break;
	}
	em_memset(buf, 0, len);
	if (len >= 1)
		buf[0] = (em_u8)v;
	if (len >= 2)
		buf[1] = (em_u8)(v >> 8);
	return EM_ACK;
}

static int elanhid_read(void *chip, em_u16 addr, em_u8 *buf, em_u16 len)
{
	struct elanhid_model *m = chip;

	if (!m->powered || m->mode == ELANHID_MODEL_OFF || (m->cfg.addr && addr != m->cfg.addr))
		return EM_NAK_ADDR;
	if (m->reg_set)
		return read_reg(m, buf, len);
	/* the input register */
	if (m->have_input) {
		copy_out(buf, len, m->input, sizeof(m->input));
		if (em_get_le16(m->input))
			m->stats.reports_read++;
		m->have_input = false;
	} else {
		em_memset(buf, 0, len);
	}
	return EM_ACK;
}

int elanhid_model_touch(struct elanhid_model *m, unsigned contact, em_u16 x, em_u16 y,
			bool down)
{
	em_u8 *f;

	if (m->mode != ELANHID_MODEL_MAIN || contact >= ELANHID_MODEL_FINGERS)
		return -1;
	em_memset(m->input, 0, sizeof(m->input));
	/* length, id, five fingers of 5 bytes, scan time, count, button */
	em_put_le16(m->input, ELANHID_MODEL_MAX_INPUT);
	m->input[2] = ELANHID_MODEL_TOUCH_ID;
	f = m->input + 3;
	f[0] = (em_u8)((down ? 0x3 : 0x1) | contact << 2); /* confidence, tip, id */
	em_put_le16(f + 1, x);
	em_put_le16(f + 3, y);
	m->scan_time = (em_u16)(m->scan_time + 80);
	em_put_le16(m->input + 3 + 5 * ELANHID_MODEL_FINGERS, m->scan_time);
	m->input[3 + 5 * ELANHID_MODEL_FINGERS + 2] = 1; /* contact count */
	m->have_input = true;
	m->stats.reports_queued++;
	return 0;
}

static void elanhid_stop(void *chip)
{
	((struct elanhid_model *)chip)->reg_set = false;
}

static bool elanhid_irq(const void *chip)
{
	return ((const struct elanhid_model *)chip)->have_input;
}

static void elanhid_set_reset(void *chip, bool asserted)
{
	struct elanhid_model *m = chip;

	if (asserted)
		m->mode = ELANHID_MODEL_OFF;
	else if (m->powered)
		boot(m);
}

static void elanhid_set_power(void *chip, bool on)
{
	struct elanhid_model *m = chip;

	m->powered = on;
	if (on)
		boot(m);
	else
		m->mode = ELANHID_MODEL_OFF;
}

const struct em_chip_ops elanhid_model_ops = {
	.name = "elanhid",
	.write = elanhid_write,
	.read = elanhid_read,
	.stop = elanhid_stop,
	.advance = em_chip_timeless_advance,
	.next_event = em_chip_timeless_next_event,
	.irq_asserted = elanhid_irq,
	.set_reset = elanhid_set_reset,
	.set_power = elanhid_set_power,
};

enum elanhid_model_mode elanhid_model_mode(const struct elanhid_model *m)
{
	return m->mode;
}

em_u8 elanhid_model_fw_version(const struct elanhid_model *m)
{
	return m->mode == ELANHID_MODEL_MAIN ? m->fw_version : 0;
}

const struct elanhid_model_stats *elanhid_model_stats(const struct elanhid_model *m)
{
	return &m->stats;
}
