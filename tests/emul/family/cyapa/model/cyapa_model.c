// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Cypress APA Gen3 trackpad model; see cyapa_model.h for the protocol and
 * its sources.
 */
#include "cyapa_model.h"

#define HDR_OFF (CYAPA_MODEL_HDR_BLOCK * CYAPA_MODEL_BLOCK)
#define APP_OFF (CYAPA_MODEL_APP_BLOCK * CYAPA_MODEL_BLOCK)

/* bootloader status and error bits (cyapa.h) */
#define BL_BUSY 0x80
#define BL_RUNNING 0x10
#define BL_CSUM_VALID 0x01
#define BL_ERR_INVALID 0x80
#define BL_ERR_KEY 0x40
#define BL_ERR_ACTIVE 0x20
#define BL_ERR_CMD_CSUM 0x10
#define BL_ERR_PROT 0x08
#define BL_ERR_FLASH_CSUM 0x04

/* application registers (cyapa_gen3.c) */
#define REG_CMD 0x28
#define REG_POWER 0x29
#define REG_QUERY 0x2a
#define REG_MAX_BASELINE 0x26
#define REG_MIN_BASELINE 0x27

enum { BUSY_NONE, BUSY_ERASE, BUSY_BLOCK, BUSY_CALIBRATE, BUSY_BASELINE };

static const em_u8 key[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };

static em_u16 sum16(const em_u8 *p, em_u32 n)
{
	em_u16 s = 0;

	while (n--)
		s = (em_u16)(s + *p++);
	return s;
}

static em_u8 sum8(const em_u8 *p, em_u32 n)
{
	return (em_u8)sum16(p, n);
}

void cyapa_model_seal_file(em_u8 *file)
{
	em_u16 app = sum16(file + CYAPA_MODEL_HDR_SIZE, CYAPA_MODEL_APP_SIZE), hdr;

	file[CYAPA_MODEL_HDR_SIZE - 2] = (em_u8)(app >> 8);
	file[CYAPA_MODEL_HDR_SIZE - 1] = (em_u8)app;
	hdr = sum16(file + 2, CYAPA_MODEL_HDR_SIZE - 2);
	file[0] = (em_u8)(hdr >> 8);
	file[1] = (em_u8)hdr;
}

void cyapa_model_make_file(em_u8 *out, const char *product, em_u8 major, em_u8 minor)
{
	em_u8 *app = out + CYAPA_MODEL_HDR_SIZE;
	em_u32 i;

	em_memset(out, 0, CYAPA_MODEL_HDR_SIZE);
	for (i = 0; i < CYAPA_MODEL_APP_SIZE; i++)
		app[i] = (em_u8)(i * 7 + major * 31 + minor);
	/* the query block the application answers at 0x2a (cyapa.h) */
	em_memset(app, 0, CYAPA_MODEL_QUERY_SIZE);
	for (i = 0; i < 15 && product[i]; i++) {
		if (i < 5)
			app[i] = (em_u8)product[i];
		else if (i >= 6 && i < 12)
			app[i - 1] = (em_u8)product[i];
		else if (i >= 13)
			app[i - 2] = (em_u8)product[i];
	}
	app[15] = major;
	app[16] = minor;
	app[19] = 0x08; /* a left button only: a clickpad */
	app[20] = 0x03; /* protocol generation 3 */
	/* 1280 x 680, 105 x 56 mm */
	app[21] = (em_u8)((1280 >> 8) << 4 | (680 >> 8));
	app[22] = (em_u8)1280;
	app[23] = (em_u8)680;
	app[24] = 0;
	app[25] = 105;
	app[26] = 56;
	cyapa_model_seal_file(out);
}

static bool flash_valid(const struct cyapa_model *m)
{
	const em_u8 *h = m->flash + HDR_OFF;

	return sum16(h + 2, CYAPA_MODEL_HDR_SIZE - 2) == (em_u16)(h[0] << 8 | h[1]) &&
	       sum16(m->flash + APP_OFF, CYAPA_MODEL_APP_SIZE) ==
		       (em_u16)(h[CYAPA_MODEL_HDR_SIZE - 2] << 8 | h[CYAPA_MODEL_HDR_SIZE - 1]);
}

/* power-on or reset: the bootloader, idle */
static void boot(struct cyapa_model *m)
{
	m->mode = CYAPA_MODEL_BL_IDLE;
	m->csum_valid = flash_valid(m);
	m->bl_error = 0;
	m->cmd_len = 0;
	m->busy_kind = BUSY_NONE;
	m->irq = false;
	m->ptr = 0;
	m->stats.boots++;
}

void cyapa_model_init(struct cyapa_model *m, const struct cyapa_model_cfg *cfg,
		      const em_u8 *file)
{
	em_u32 i;

	em_memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	if (!m->cfg.erase_ns)
		m->cfg.erase_ns = 2200 * EM_NSEC_PER_MSEC;
	if (!m->cfg.block_ns)
		m->cfg.block_ns = 8 * EM_NSEC_PER_MSEC;
	if (!m->cfg.calibrate_ns)
		m->cfg.calibrate_ns = 500 * EM_NSEC_PER_MSEC;
	if (!m->cfg.max_baseline && !m->cfg.min_baseline) {
		m->cfg.max_baseline = 156;
		m->cfg.min_baseline = 121;
	}
	/* the bootloader's own blocks: never written through it */
	for (i = 0; i < HDR_OFF; i++)
		m->flash[i] = (em_u8)(0xb0 + i % 13);
	if (file)
		em_memcpy(m->flash + HDR_OFF, file, CYAPA_MODEL_FILE_SIZE);
	else
		em_memset(m->flash + HDR_OFF, 0xff, CYAPA_MODEL_FLASH - HDR_OFF);
	m->powered = true;
	boot(m);
	m->stats.boots = 0;
}

static void launch(struct cyapa_model *m)
{
	em_memset(m->regs, 0, sizeof(m->regs));
	em_memcpy(m->regs + REG_QUERY, m->flash + APP_OFF, CYAPA_MODEL_QUERY_SIZE);
	m->regs[REG_POWER] = 0xfc; /* full active */
	m->regs[1] = 0x08;	   /* valid data, no finger */
	m->mode = CYAPA_MODEL_APP;
	m->ptr = 0;
	m->stats.launches++;
}

static void set_busy(struct cyapa_model *m, int kind, em_u64 ns)
{
	m->busy_kind = kind;
	m->busy_until = m->now + ns;
}

static void busy_end(struct cyapa_model *m)
{
	int kind = m->busy_kind;

	m->busy_kind = BUSY_NONE;
	switch (kind) {
	case BUSY_ERASE:
		m->mode = CYAPA_MODEL_BL_ACTIVE;
		m->bl_error = BL_ERR_ACTIVE;
		break;
	case BUSY_BLOCK:
		em_memcpy(m->flash + (em_u32)m->busy_block * CYAPA_MODEL_BLOCK, m->busy_data,
			  CYAPA_MODEL_BLOCK);
		m->stats.blocks_written++;
		break;
	case BUSY_BASELINE:
		m->regs[REG_MAX_BASELINE] = m->cfg.max_baseline;
		m->regs[REG_MIN_BASELINE] = m->cfg.min_baseline;
		m->stats.baselines++;
		break;
	case BUSY_CALIBRATE:
		m->stats.calibrations++;
		break;
	default:
		break;
	}
}

static void block_error(struct cyapa_model *m, em_u8 bit)
{
	m->bl_error = BL_ERR_ACTIVE | bit;
	m->stats.block_errors++;
}

static void write_block(struct cyapa_model *m)
{
	em_u16 block = (em_u16)(m->cmd[10] << 8 | m->cmd[11]);

	m->blocks_since_initiate++;
	if (m->cfg.power_loss_block > 0 &&
	    m->blocks_since_initiate >= m->cfg.power_loss_block) {
		/* brown-out: the block is lost, the chip starts again */
		m->cfg.power_loss_block = 0;
		m->stats.power_losses++;
		boot(m);
		return;
	}
	if (sum8(m->cmd, 77) != m->cmd[77]) {
		block_error(m, BL_ERR_CMD_CSUM);
		return;
	}
	if (block < CYAPA_MODEL_HDR_BLOCK || block >= CYAPA_MODEL_BLOCKS) {
		block_error(m, BL_ERR_PROT);
		return;
	}
	if (sum8(m->cmd + 12, CYAPA_MODEL_BLOCK) != m->cmd[76]) {
		block_error(m, BL_ERR_FLASH_CSUM);
		return;
	}
	m->bl_error = BL_ERR_ACTIVE;
	m->busy_block = block;
	em_memcpy(m->busy_data, m->cmd + 12, CYAPA_MODEL_BLOCK);
	set_busy(m, BUSY_BLOCK, m->cfg.block_ns);
}

static void bl_command(struct cyapa_model *m)
{
	em_u8 code = m->cmd[1];

	if (em_memcmp(m->cmd + 2, key, sizeof(key))) {
		m->bl_error |= BL_ERR_KEY;
		return;
	}
	switch (code) {
	case 0x38: /* initiate: erase header and application */
		if (m->mode != CYAPA_MODEL_BL_IDLE)
			break;
		em_memset(m->flash + HDR_OFF, 0xff, CYAPA_MODEL_FLASH - HDR_OFF);
		m->csum_valid = false;
		m->blocks_since_initiate = 0;
		m->stats.initiates++;
		set_busy(m, BUSY_ERASE, m->cfg.erase_ns);
		break;
	case 0x39:
		if (m->mode != CYAPA_MODEL_BL_ACTIVE) {
			m->bl_error |= BL_ERR_INVALID;
			break;
		}
		write_block(m);
		break;
	case 0x3b: /* terminate */
		if (m->mode != CYAPA_MODEL_BL_ACTIVE)
			break;
		m->mode = CYAPA_MODEL_BL_IDLE;
		m->bl_error = 0;
		m->csum_valid = flash_valid(m);
		m->stats.terminates++;
		break;
	case 0xa5: /* launch the application */
		if (m->mode != CYAPA_MODEL_BL_IDLE) {
			m->bl_error |= BL_ERR_INVALID;
			break;
		}
		if (m->csum_valid)
			launch(m);
		else
			m->stats.launch_refused++;
		break;
	default:
		m->bl_error |= BL_ERR_INVALID;
	}
}

/* a piece of a command at position @pos of the buffer */
static int bl_write(struct cyapa_model *m, const em_u8 *buf, em_u16 len)
{
	em_u32 pos, n, need;

	if (len < 2)
		return EM_ACK; /* the offset to read from */
	if (m->busy_kind != BUSY_NONE)
		return EM_NAK_DATA; /* programming: no command taken */
	if (buf[0] != 0)
		return EM_ACK;
	pos = buf[1];
	if (len == 2)
		return EM_ACK;
	n = (em_u32)len - 2;
	if (pos + n > sizeof(m->cmd) || pos > m->cmd_len) {
		m->cmd_len = 0;
		m->bl_error |= BL_ERR_INVALID;
		return EM_ACK;
	}
	em_memcpy(m->cmd + pos, buf + 2, n);
	m->cmd_len = (em_u16)(pos + n);
	if (m->cmd[0] != 0xff) {
		m->cmd_len = 0; /* not a command: cyapa's "force update" 00 00 */
		return EM_ACK;
	}
	if (m->cmd_len < 2)
		return EM_ACK;
	need = m->cmd[1] == 0x39 ? 78 : 10;
	if (m->cmd_len >= need) {
		m->cmd_len = 0;
		bl_command(m);
	}
	return EM_ACK;
}

static void app_command(struct cyapa_model *m, em_u8 v)
{
	if (v & 0x01) {
		m->stats.soft_resets++;
		boot(m);
		return;
	}
	if (m->busy_kind != BUSY_NONE)
		return;
	if (v & 0x80)
		set_busy(m, BUSY_CALIBRATE, m->cfg.calibrate_ns);
	else if (v & 0x40)
		set_busy(m, BUSY_BASELINE, 20 * EM_NSEC_PER_MSEC);
}

static int app_write(struct cyapa_model *m, const em_u8 *buf, em_u16 len)
{
	em_u16 i;
	em_u8 r = buf[0];

	m->ptr = r;
	for (i = 1; i < len && m->mode == CYAPA_MODEL_APP; i++, r++) {
		if (r == REG_CMD)
			app_command(m, buf[i]);
		else if (r == REG_POWER)
			m->regs[REG_POWER] = buf[i];
		/* the data and query registers are read-only */
	}
	return EM_ACK;
}

static int cyapa_write(void *chip, em_u16 addr, const em_u8 *buf, em_u16 len)
{
	struct cyapa_model *m = chip;

	if (!m->powered || m->mode == CYAPA_MODEL_OFF || (m->cfg.addr && addr != m->cfg.addr))
		return EM_NAK_ADDR;
	if (!len)
		return EM_ACK;
	if (m->mode == CYAPA_MODEL_APP)
		return app_write(m, buf, len);
	m->ptr = buf[0];
	return bl_write(m, buf, len);
}

static em_u8 app_status(const struct cyapa_model *m)
{
	em_u8 pm = m->regs[REG_POWER] & 0xfc, ps;

	if (pm == 0xfc)
		ps = 3;
	else if (pm == 0)
		ps = 0;
	else if (pm == 0x04)
		ps = 1;
	else
		ps = 2;
	return (em_u8)(0x80 | ps << 2 | (m->busy_kind != BUSY_NONE ? 0x01 : 0x03));
}

static em_u8 bl_byte(const struct cyapa_model *m, em_u8 off)
{
	bool busy = m->busy_kind != BUSY_NONE;

	switch (off) {
	case 1:
		return (em_u8)((busy ? BL_BUSY : 0) | BL_RUNNING |
			       (m->mode == CYAPA_MODEL_BL_IDLE && m->csum_valid && !busy
					? BL_CSUM_VALID
					: 0));
	case 2:
		return m->bl_error;
	case 0x0b:
	case 0x0c:
		return m->csum_valid ? m->flash[APP_OFF + 15 + off - 0x0b] : 0;
	default:
		return 0;
	}
}

static int cyapa_read(void *chip, em_u16 addr, em_u8 *buf, em_u16 len)
{
	struct cyapa_model *m = chip;
	em_u16 i;

	if (!m->powered || m->mode == CYAPA_MODEL_OFF || (m->cfg.addr && addr != m->cfg.addr))
		return EM_NAK_ADDR;
	for (i = 0; i < len; i++) {
		em_u8 r = (em_u8)(m->ptr + i);

		if (m->mode != CYAPA_MODEL_APP)
			buf[i] = bl_byte(m, r);
		else if (r == 0)
			buf[i] = app_status(m);
		else
			buf[i] = m->regs[r];
	}
	if (m->mode == CYAPA_MODEL_APP && m->ptr == 0 && len && m->irq) {
		m->irq = false;
		m->stats.frames_read++;
	}
	return EM_ACK;
}

static void cyapa_advance(void *chip, em_u64 now)
{
	struct cyapa_model *m = chip;

	if (now > m->now)
		m->now = now;
	if (m->busy_kind != BUSY_NONE && m->now >= m->busy_until)
		busy_end(m);
}

static em_u64 cyapa_next_event(const void *chip)
{
	const struct cyapa_model *m = chip;

	return m->busy_kind != BUSY_NONE ? m->busy_until : EM_NEVER;
}

static bool cyapa_irq(const void *chip)
{
	return ((const struct cyapa_model *)chip)->irq;
}

static void cyapa_set_power(void *chip, bool on)
{
	struct cyapa_model *m = chip;

	if (on == m->powered)
		return;
	m->powered = on;
	if (on) {
		boot(m);
	} else {
		/* a block being programmed is lost */
		m->busy_kind = BUSY_NONE;
		m->irq = false;
		m->mode = CYAPA_MODEL_OFF;
	}
}

const struct em_chip_ops cyapa_model_ops = {
	.name = "cyapa",
	.write = cyapa_write,
	.read = cyapa_read,
	.advance = cyapa_advance,
	.next_event = cyapa_next_event,
	.irq_asserted = cyapa_irq,
	.set_power = cyapa_set_power,
};

enum cyapa_model_mode cyapa_model_mode(const struct cyapa_model *m)
{
	return m->mode;
}

int cyapa_model_fw_version(const struct cyapa_model *m)
{
	if (!flash_valid(m))
		return -1;
	return m->flash[APP_OFF + 15] << 8 | m->flash[APP_OFF + 16];
}

bool cyapa_model_busy(const struct cyapa_model *m)
{
	return m->busy_kind != BUSY_NONE;
}

const struct cyapa_model_stats *cyapa_model_stats(const struct cyapa_model *m)
{
	return &m->stats;
}

bool cyapa_model_touch(struct cyapa_model *m, const struct cyapa_model_touch *t, int n,
		       em_u8 buttons)
{
	int i;

	if (!m->powered || m->mode != CYAPA_MODEL_APP || !(m->regs[REG_POWER] & 0xfc) ||
	    n < 0 || n > CYAPA_MODEL_MAX_TOUCHES)
		return false;
	if (m->irq)
		m->stats.touches_lost++;
	em_memset(m->regs + 1, 0, 1 + 5 * CYAPA_MODEL_MAX_TOUCHES);
	m->regs[1] = (em_u8)(n << 4 | 0x08 | (buttons & 0x07));
	for (i = 0; i < n; i++) {
		em_u8 *p = m->regs + 2 + 5 * i;

		p[0] = (em_u8)((t[i].x >> 8 & 0x0f) << 4 | (t[i].y >> 8 & 0x0f));
		p[1] = (em_u8)t[i].x;
		p[2] = (em_u8)t[i].y;
		p[3] = t[i].pressure;
		p[4] = t[i].id;
	}
	m->irq = true;
	return true;
}
