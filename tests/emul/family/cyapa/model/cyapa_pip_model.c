// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Cypress APA Gen5 and Gen6 (PIP) trackpad model; see cyapa_pip_model.h
 * for the protocol and its sources.
 */
#include "cyapa_pip_model.h"

#define REG_HID_DESC 0x0001
#define REG_OUTPUT 0x0004
#define REG_POWER 0x0005

#define APP_CMD_REPORT 0x2f
#define APP_RESP_REPORT 0x1f
#define BL_CMD_REPORT 0x40
#define BL_RESP_REPORT 0x30
#define HID_APP_REPORT 0xf7
#define HID_BL_REPORT 0xff
#define DEEP_SLEEP_REPORT 0xf0
#define SOP 0x01
#define EOP 0x17

#define BL_GET_INFO 0x38
#define BL_APP_INFO 0x3c
#define BL_INITIATE 0x48
#define BL_PROGRAM_ROW 0x39
#define BL_LAUNCH 0x3b
#define BL_VERIFY 0x31

#define ST_OK 0x00
#define ST_UNKNOWN 0x02	    /* this model's own */
#define ST_CRC 0x03	    /* this model's own */
#define ST_KEY 0x04	    /* this model's own */
#define ST_ROW 0x05	    /* this model's own */
#define ST_LAUNCH_FAIL 0x0c /* PIP_BL_FAIL_EXIT_STATUS_CODE */

/* metadata (struct tsg_bl_metadata_row_params) */
#define META_APP_START 4
#define META_APP_LEN 8
#define META_APP_CRC 10
#define META_SIZE 60
#define META_CRC 60

enum { BUSY_NONE, BUSY_ERASE, BUSY_ROW };

static const em_u8 bl_key[8] = { 0xa5, 0x01, 0x02, 0x03, 0xff, 0xfe, 0xfd, 0x5a };

em_u16 cyapa_pip_crc(em_u16 crc, const em_u8 *p, em_u32 n)
{
	int b;

	while (n--) {
		crc ^= (em_u16)(*p++ << 8);
		for (b = 0; b < 8; b++)
			crc = (em_u16)(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
	}
	return crc;
}

static em_u16 le16(const em_u8 *p)
{
	return (em_u16)(p[0] | p[1] << 8);
}

static em_u32 le32(const em_u8 *p)
{
	return (em_u32)p[0] | (em_u32)p[1] << 8 | (em_u32)p[2] << 16 | (em_u32)p[3] << 24;
}

static void put_le16(em_u8 *p, em_u16 v)
{
	p[0] = (em_u8)v;
	p[1] = (em_u8)(v >> 8);
}

/* ------------------------------------------------------------ the file */

static em_u8 *record(em_u8 *file, int i)
{
	return file + CYAPA_PIP_HEAD_SIZE + i * CYAPA_PIP_RECORD_SIZE;
}

void cyapa_pip_seal_file(em_u8 *file)
{
	em_u8 *meta = record(file, CYAPA_PIP_APP_ROWS) + 5;
	em_u16 crc = 0xffff;
	int i;

	for (i = 0; i < CYAPA_PIP_APP_ROWS; i++)
		crc = cyapa_pip_crc(crc, record(file, i) + 5, CYAPA_PIP_ROW);
	put_le16(meta + META_APP_CRC, crc);
	put_le16(meta + META_CRC, cyapa_pip_crc(0xffff, meta, META_SIZE));
}

void cyapa_pip_make_file(em_u8 *out, int gen, const char *product, em_u8 major, em_u8 minor)
{
	em_u8 *meta;
	int i, j;

	em_memset(out, 0, CYAPA_PIP_FILE_SIZE);
	/* struct cyapa_tsg_bin_image_head, head_size 0x12 (19 bytes) */
	out[0] = CYAPA_PIP_HEAD_SIZE - 1;
	out[3] = major;
	out[4] = minor;
	for (i = 0; i < 8; i++)
		out[5 + i] = (em_u8)(0x40 + major + i); /* revision control number */
	out[13] = gen == 6 ? 0x0b : 0x02;		/* silicon id, high */
	out[14] = gen == 6 ? 0x01 : 0x11;		/* silicon id, low */
	out[15] = 0x01;					/* chip revision */
	out[16] = gen == 6 ? 0x9b : 0x91;		/* family id */
	out[17] = 1;					/* bootloader version */
	out[18] = 0;
	for (i = 0; i <= CYAPA_PIP_APP_ROWS; i++) {
		em_u8 *r = record(out, i);
		em_u16 row = (em_u16)(i < CYAPA_PIP_APP_ROWS ? CYAPA_PIP_FIRST_ROW + i
							     : CYAPA_PIP_META_ROW);

		r[0] = 0; /* flash array */
		r[1] = (em_u8)(row >> 8);
		r[2] = (em_u8)row;
		r[3] = 0;
		r[4] = CYAPA_PIP_ROW;
		if (i < CYAPA_PIP_APP_ROWS)
			for (j = 0; j < CYAPA_PIP_ROW; j++)
				r[5 + j] = (em_u8)(i * 3 + j * 11 + major * 29 + minor);
	}
	/* the first application row: the model's own product block */
	em_memset(record(out, 0) + 5, 0, 16);
	for (i = 0, j = 0; i < 15 && product[i]; i++)
		if (i != 5 && i != 12)
			record(out, 0)[5 + j++] = (em_u8)product[i];
	record(out, 0)[5 + 13] = major;
	record(out, 0)[5 + 14] = minor;
	meta = record(out, CYAPA_PIP_APP_ROWS) + 5;
	put_le16(meta + 0, META_SIZE);
	put_le16(meta + 2, CYAPA_PIP_ROW);
	meta[META_APP_START] = (em_u8)(CYAPA_PIP_FIRST_ROW * CYAPA_PIP_ROW);
	meta[META_APP_START + 1] = (em_u8)((CYAPA_PIP_FIRST_ROW * CYAPA_PIP_ROW) >> 8);
	put_le16(meta + META_APP_LEN, CYAPA_PIP_APP_ROWS * CYAPA_PIP_ROW);
	cyapa_pip_seal_file(out);
}

/* ------------------------------------------------------------ the chip */

static em_u8 *row_at(struct cyapa_pip_model *m, int row)
{
	return m->flash + row * CYAPA_PIP_ROW;
}

static bool app_valid(const struct cyapa_pip_model *m)
{
	const em_u8 *meta = m->flash + CYAPA_PIP_META_ROW * CYAPA_PIP_ROW;
	em_u32 start = le32(meta + META_APP_START), len = le16(meta + META_APP_LEN);

	if (cyapa_pip_crc(0xffff, meta, META_SIZE) != le16(meta + META_CRC) || !len ||
	    start % CYAPA_PIP_ROW || len % CYAPA_PIP_ROW ||
	    start / CYAPA_PIP_ROW < CYAPA_PIP_FIRST_ROW ||
	    (start + len) / CYAPA_PIP_ROW > CYAPA_PIP_META_ROW)
		return false;
	return cyapa_pip_crc(0xffff, m->flash + start, len) == le16(meta + META_APP_CRC);
}

static void queue_clear(struct cyapa_pip_model *m)
{
	m->queued = 0;
}

static void queue(struct cyapa_pip_model *m, const em_u8 *data, em_u16 len)
{
	struct cyapa_pip_report *r;

	if (m->queued == CYAPA_PIP_QUEUE) /* the oldest is lost */
		for (int i = 1; i < CYAPA_PIP_QUEUE; i++)
			m->queue[i - 1] = m->queue[i];
	else
		m->queued++;
	r = &m->queue[m->queued - 1];
	r->len = len;
	em_memcpy(r->data, data, len);
}

/* power-on or reset: 00 00 queued; the application starts when valid */
static void boot(struct cyapa_pip_model *m, bool to_bootloader)
{
	static const em_u8 reset[2] = { 0, 0 };

	queue_clear(m);
	queue(m, reset, 2);
	m->mode = !to_bootloader && app_valid(m) ? CYAPA_PIP_APP : CYAPA_PIP_BL;
	m->sleeping = false;
	m->initiated = false;
	m->busy_kind = BUSY_NONE;
	m->stats.boots++;
}

void cyapa_pip_model_init(struct cyapa_pip_model *m, const struct cyapa_pip_model_cfg *cfg,
			  const em_u8 *file)
{
	int i;

	em_memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	if (!m->cfg.erase_ns)
		m->cfg.erase_ns = 1500 * EM_NSEC_PER_MSEC;
	if (!m->cfg.row_ns)
		m->cfg.row_ns = 10 * EM_NSEC_PER_MSEC;
	if (!m->cfg.platform)
		m->cfg.platform = 2;
	if (m->cfg.gen != 6)
		m->cfg.gen = 5;
	m->params[0] = 100;
	m->params[1] = 10;
	m->power_state = 0x01;
	m->intervals[0] = 0;
	m->intervals[1] = 0; /* cyapa sets the low-power ones it uses */
	m->intervals[2] = 0;
	/* the bootloader's own rows: never written through it */
	for (i = 0; i < CYAPA_PIP_FIRST_ROW * CYAPA_PIP_ROW; i++)
		m->flash[i] = (em_u8)(0xc0 + i % 11);
	if (file)
		for (i = 0; i <= CYAPA_PIP_APP_ROWS; i++) {
			const em_u8 *r = file + CYAPA_PIP_HEAD_SIZE + i * CYAPA_PIP_RECORD_SIZE;

			em_memcpy(row_at(m, r[1] << 8 | r[2]), r + 5, CYAPA_PIP_ROW);
		}
	m->powered = true;
	boot(m, false);
	m->stats.boots = 0;
}

/* an application answer: length, 0x1f, 0, the command, @data */
static void app_answer(struct cyapa_pip_model *m, em_u8 cmd, const em_u8 *data, em_u16 n)
{
	em_u8 r[80];

	em_memset(r, 0, sizeof(r));
	put_le16(r, (em_u16)(5 + n));
	r[2] = APP_RESP_REPORT;
	r[4] = cmd;
	em_memcpy(r + 5, data, n);
	queue(m, r, (em_u16)(5 + n));
}

/* a bootloader answer: length, 0x30, 0, SOP, @status, data length,
 * @data, CRC, EOP */
static void bl_answer(struct cyapa_pip_model *m, em_u8 status, const em_u8 *data, em_u16 n)
{
	em_u8 r[80];

	em_memset(r, 0, sizeof(r));
	put_le16(r, (em_u16)(11 + n));
	r[2] = BL_RESP_REPORT;
	r[4] = SOP;
	r[5] = status;
	put_le16(r + 6, n);
	em_memcpy(r + 8, data, n);
	put_le16(r + 8 + n, cyapa_pip_crc(0xffff, r + 4, (em_u32)(4 + n)));
	r[10 + n] = EOP;
	queue(m, r, (em_u16)(11 + n));
}

/* Gen6's layout (cyapa_gen6_read_sys_info) */
static void sys_info_gen6(struct cyapa_pip_model *m, em_u8 *r)
{
	const em_u8 *first = row_at(m, CYAPA_PIP_FIRST_ROW);
	int i;

	r[9] = first[13];
	r[10] = first[14];
	r[19] = 0x9b; /* family id */
	r[21] = 0x01; /* silicon id, low */
	r[22] = 0x0b; /* silicon id, high */
	r[33] = 32;   /* electrodes x, y */
	r[34] = 20;
	put_le16(r + 35, 10900); /* 109 x 70 mm */
	put_le16(r + 37, 7000);
	put_le16(r + 39, 2000); /* maximum x, y, z */
	put_le16(r + 41, 1280);
	put_le16(r + 43, 255);
	for (i = 0; i < 13; i++)
		r[51 + i] = first[i];
	r[67] = (em_u8)(m->cfg.platform << 4);
	r[68] = 0; /* Rx along x */
	r[70] = 0x01;
}

static void sys_info(struct cyapa_pip_model *m)
{
	const em_u8 *first = row_at(m, CYAPA_PIP_FIRST_ROW);
	em_u8 r[71];
	int i;

	em_memset(r, 0, sizeof(r));
	if (m->cfg.gen == 6) {
		put_le16(r, sizeof(r));
		r[2] = APP_RESP_REPORT;
		r[4] = 0x02;
		put_le16(r + 7, 0x1001); /* product family: a trackpad */
		sys_info_gen6(m, r);
		m->stats.sys_info_reads++;
		queue(m, r, sizeof(r));
		return;
	}
	put_le16(r, sizeof(r));
	r[2] = APP_RESP_REPORT;
	r[4] = 0x02;
	put_le16(r + 7, 0x1001); /* product family: a trackpad */
	r[9] = r[15] = first[13];
	r[10] = r[16] = first[14];
	r[19] = 0x91; /* family id */
	r[21] = 0x11; /* silicon id, low */
	r[22] = 0x02; /* silicon id, high */
	for (i = 0; i < 13; i++)
		r[33 + i] = first[i];
	r[49] = (em_u8)(m->cfg.platform << 4);
	r[52] = 30; /* electrodes x, y */
	r[53] = 20;
	put_le16(r + 54, 10500); /* 105 x 68 mm */
	put_le16(r + 56, 6800);
	put_le16(r + 58, 1600); /* maximum x, y, z */
	put_le16(r + 60, 1040);
	put_le16(r + 62, 255);
	r[70] = 0x01; /* a left button only: a clickpad */
	m->stats.sys_info_reads++;
	queue(m, r, sizeof(r));
}

static void app_command(struct cyapa_pip_model *m, const em_u8 *buf, em_u16 len)
{
	em_u8 cmd = buf[6] & 0x7f, d[4] = { 0 };

	m->stats.commands++;
	switch (cmd) {
	case 0x01: /* enter the bootloader */
		m->stats.bl_enters++;
		boot(m, true);
		return;
	case 0x02:
		sys_info(m);
		return;
	case 0x41: /* Gen6: enable, disable the command interrupt */
	case 0x42:
		if (m->cfg.gen != 6)
			break;
		m->cmd_irq_off = cmd == 0x42;
		app_answer(m, cmd, d, 1);
		return;
	case 0x46: /* Gen6: the power state; answered with the one applied */
		if (m->cfg.gen != 6)
			break;
		if (len >= 8 && buf[7] >= 0x01 && buf[7] <= 0x04)
			m->power_state = buf[7];
		d[0] = m->power_state;
		app_answer(m, cmd, d, 1);
		return;
	case 0x47: /* Gen6: set the scan intervals, answered with them */
	case 0x48: /* get them */
		if (m->cfg.gen != 6)
			break;
		if (cmd == 0x47 && len >= 13)
			for (int i = 0; i < 3; i++)
				m->intervals[i] = le16(buf + 7 + 2 * i);
		{
			em_u8 iv[6];

			for (int i = 0; i < 3; i++)
				put_le16(iv + 2 * i, m->intervals[i]);
			app_answer(m, cmd, iv, 6);
		}
		return;
	case 0x05: /* get a parameter */
	case 0x06: /* set a parameter */
		if (m->cfg.gen == 6)
			break;
		if (len < 8 || (buf[7] != 0x4c && buf[7] != 0x4f)) {
			d[0] = buf[7];
			app_answer(m, cmd, d, 2);
			return;
		}
		{
			em_u16 *p = &m->params[buf[7] == 0x4f];

			if (cmd == 0x06 && len >= 10)
				*p = len >= 11 ? le16(buf + 9) : buf[9];
			d[0] = buf[7];
			d[1] = buf[7] == 0x4c || buf[7] == 0x4f ? 2 : 1;
			if (cmd == 0x05)
				put_le16(d + 2, *p);
			app_answer(m, cmd, d, cmd == 0x05 ? 4 : 2);
		}
		return;
	case 0x08: /* Gen5's power state */
		if (m->cfg.gen == 6)
			break;
		app_answer(m, cmd, d, 1);
		return;
	case 0x03: /* suspend scanning */
	case 0x04: /* resume scanning */
	case 0x28: /* calibrate */
	case 0x49: /* proximity */
		app_answer(m, cmd, d, 1);
		return;
	default:
		break;
	}
	/* "unsupported command": code 0, the command */
	d[0] = cmd;
	app_answer(m, 0x00, d, 1);
}

static void bl_command(struct cyapa_pip_model *m, const em_u8 *buf, em_u16 len)
{
	em_u8 cmd, d[20];
	em_u16 n;
	const em_u8 *data;

	m->stats.commands++;
	if (len < 13 || buf[6] != SOP)
		return;
	cmd = buf[7];
	n = le16(buf + 8);
	data = buf + 10;
	if (10u + n + 3u > len || buf[12 + n] != EOP)
		return;
	if (cyapa_pip_crc(0xffff, buf + 6, (em_u32)(4 + n)) != le16(buf + 10 + n)) {
		bl_answer(m, ST_CRC, d, 0);
		return;
	}
	em_memset(d, 0, sizeof(d));
	switch (cmd) {
	case BL_GET_INFO:
		d[0] = m->cfg.gen == 6 ? 0x9b : 0x91; /* family id */
		d[2] = m->cfg.gen == 6 ? 0x01 : 0x11; /* silicon id, low, high */
		d[3] = m->cfg.gen == 6 ? 0x0b : 0x02;
		d[4] = 1; /* bootloader version */
		bl_answer(m, ST_OK, d, 8);
		return;
	case BL_APP_INFO:
		/* answered from the flash whatever its state (an erased
		 * application: zeros), with the platform's version */
		{
			const em_u8 *first = row_at(m, CYAPA_PIP_FIRST_ROW);

			if (m->cfg.gen == 6) {
				/* cyapa_gen6_bl_read_app_info: version at 8/9,
				 * platform at 12, the product id at 13 */
				d[0] = first[13];
				d[1] = first[14];
				d[4] = (em_u8)(m->cfg.platform << 4);
				em_memcpy(d + 5, first, 13);
				bl_answer(m, ST_OK, d, 19);
				return;
			}
			em_memcpy(d, first, 13);
			d[14] = first[13];
			d[15] = first[14];
			d[18] = (em_u8)(m->cfg.platform << 4);
			bl_answer(m, ST_OK, d, 19);
		}
		return;
	case BL_INITIATE:
		if (n < 8 + META_SIZE + 2 || em_memcmp(data, bl_key, 8)) {
			bl_answer(m, ST_KEY, d, 0);
			return;
		}
		if (cyapa_pip_crc(0xffff, data + 8, META_SIZE) != le16(data + 8 + META_SIZE)) {
			bl_answer(m, ST_CRC, d, 0);
			return;
		}
		m->stats.initiates++;
		em_memset(row_at(m, CYAPA_PIP_FIRST_ROW), 0,
			  (CYAPA_PIP_META_ROW - CYAPA_PIP_FIRST_ROW + 1) * CYAPA_PIP_ROW);
		em_memcpy(row_at(m, CYAPA_PIP_META_ROW), data + 8, META_SIZE + 2);
		m->initiated = true;
		m->rows_since_initiate = 0;
		m->busy_kind = BUSY_ERASE;
		m->busy_until = m->now + m->cfg.erase_ns;
		return;
	case BL_PROGRAM_ROW: {
		em_u16 row = (em_u16)(n >= 3 ? le16(data + 1) : 0);

		if (!m->initiated || n != 3 + CYAPA_PIP_ROW || data[0] != 0 ||
		    row < CYAPA_PIP_FIRST_ROW || row > CYAPA_PIP_LAST_ROW) {
			m->stats.row_errors++;
			bl_answer(m, ST_ROW, d, 0);
			return;
		}
		if (++m->rows_since_initiate == m->cfg.power_loss_row && !m->power_lost_once) {
			/* the supply drops: this row is lost, the chip starts
			 * again in its bootloader with the flash as it is */
			m->power_lost_once = true;
			m->stats.power_losses++;
			boot(m, true);
			return;
		}
		m->busy_kind = BUSY_ROW;
		m->busy_row = row;
		em_memcpy(m->busy_data, data + 3, CYAPA_PIP_ROW);
		m->busy_until = m->now + m->cfg.row_ns;
		return;
	}
	case BL_LAUNCH:
		if (!app_valid(m)) {
			m->stats.launch_refused++;
			bl_answer(m, ST_LAUNCH_FAIL, d, 0);
			return;
		}
		m->stats.launches++;
		boot(m, false);
		return;
	case BL_VERIFY:
		d[0] = app_valid(m) ? 0 : 1;
		bl_answer(m, ST_OK, d, 1);
		return;
	default:
		bl_answer(m, ST_UNKNOWN, d, 0);
	}
}

static void busy_end(struct cyapa_pip_model *m)
{
	em_u8 d[1] = { 0 };
	int kind = m->busy_kind;

	m->busy_kind = BUSY_NONE;
	if (kind == BUSY_ROW) {
		em_memcpy(row_at(m, m->busy_row), m->busy_data, CYAPA_PIP_ROW);
		m->stats.rows_written++;
	}
	bl_answer(m, ST_OK, d, 0);
}

static int pip_write(void *chip, em_u16 addr, const em_u8 *buf, em_u16 len)
{
	struct cyapa_pip_model *m = chip;
	em_u16 reg;

	if (!m->powered || m->mode == CYAPA_PIP_OFF || (m->cfg.addr && addr != m->cfg.addr))
		return EM_NAK_ADDR;
	if (len < 2 || m->busy_kind != BUSY_NONE)
		return EM_ACK;
	reg = le16(buf);
	if (reg == REG_HID_DESC && len == 2) {
		em_u8 h[32];

		em_memset(h, 0, sizeof(h));
		h[0] = sizeof(h);
		h[2] = m->mode == CYAPA_PIP_APP ? HID_APP_REPORT : HID_BL_REPORT;
		put_le16(h + 16, m->mode == CYAPA_PIP_APP ? 0x00fe : 0x0100);
		if (!m->sleeping)
			queue(m, h, sizeof(h));
	} else if (reg == REG_POWER && len >= 4 && (buf[3] & 0x0f) == 0x08) {
		em_u8 r[5] = { 5, 0, DEEP_SLEEP_REPORT, (em_u8)(buf[2] & 0x03), 0x08 };

		if (m->mode == CYAPA_PIP_APP) {
			m->sleeping = (buf[2] & 0x03) == 0x01;
			queue(m, r, sizeof(r));
		}
	} else if (reg == REG_OUTPUT && m->cfg.gen == 6 && m->sleeping) {
		/* Gen6 in deep sleep: only the power command is heard */
		m->stats.naks++;
		return EM_NAK_DATA;
	} else if (reg == REG_OUTPUT && len >= 7) {
		if (buf[4] == APP_CMD_REPORT && m->mode == CYAPA_PIP_APP && !m->sleeping)
			app_command(m, buf, len);
		else if (buf[4] == BL_CMD_REPORT && m->mode == CYAPA_PIP_BL)
			bl_command(m, buf, len);
	}
	return EM_ACK;
}

static int pip_read(void *chip, em_u16 addr, em_u8 *buf, em_u16 len)
{
	struct cyapa_pip_model *m = chip;
	struct cyapa_pip_report *r = &m->queue[0];
	em_u16 i;

	if (!m->powered || m->mode == CYAPA_PIP_OFF || (m->cfg.addr && addr != m->cfg.addr))
		return EM_NAK_ADDR;
	em_memset(buf, 0, len);
	if (!m->queued) {
		if (len > 0)
			buf[0] = 2;
		return EM_ACK;
	}
	for (i = 0; i < len && i < r->len; i++)
		buf[i] = r->data[i];
	if (len >= r->len) {
		for (i = 1; i < m->queued; i++)
			m->queue[i - 1] = m->queue[i];
		m->queued--;
	}
	return EM_ACK;
}

static void pip_advance(void *chip, em_u64 now)
{
	struct cyapa_pip_model *m = chip;

	if (now > m->now)
		m->now = now;
	if (m->busy_kind != BUSY_NONE && m->now >= m->busy_until)
		busy_end(m);
}

static em_u64 pip_next_event(const void *chip)
{
	const struct cyapa_pip_model *m = chip;

	return m->busy_kind != BUSY_NONE ? m->busy_until : EM_NEVER;
}

static bool pip_irq(const void *chip)
{
	const struct cyapa_pip_model *m = chip;

	return m->powered && m->queued > 0;
}

static void pip_set_power(void *chip, bool on)
{
	struct cyapa_pip_model *m = chip;

	if (on == m->powered)
		return;
	m->powered = on;
	if (on) {
		boot(m, false);
	} else {
		m->busy_kind = BUSY_NONE; /* a row being programmed is lost */
		queue_clear(m);
		m->mode = CYAPA_PIP_OFF;
	}
}

const struct em_chip_ops cyapa_pip_model_ops = {
	.name = "cyapa-pip",
	.write = pip_write,
	.read = pip_read,
	.advance = pip_advance,
	.next_event = pip_next_event,
	.irq_asserted = pip_irq,
	.set_power = pip_set_power,
};

enum cyapa_pip_model_mode cyapa_pip_model_mode(const struct cyapa_pip_model *m)
{
	return m->mode;
}

int cyapa_pip_model_fw_version(const struct cyapa_pip_model *m)
{
	const em_u8 *first = m->flash + CYAPA_PIP_FIRST_ROW * CYAPA_PIP_ROW;

	if (!app_valid(m))
		return -1;
	return first[13] << 8 | first[14];
}

const struct cyapa_pip_model_stats *cyapa_pip_model_stats(const struct cyapa_pip_model *m)
{
	return &m->stats;
}
