// SPDX-License-Identifier: GPL-2.0-or-later
/* The Goodix Berlin chip model (see berlin_model.h). */
#include "berlin_model.h"

static const struct berlin_layout layouts[] = {
	[BERLIN_D] = {
		.dummy = 3,
		.version_addr = 0x10014,
		.ic_info_addr = 0x10070,
		.isp_ram = 0x23800,
		.flash_cmd = 0x12400,
		.isp_buffer = 0x12410,
		.watchdog = 0xD040,
		.misctl = 0xD804,
		.rom_pid = "BRLD\0\0",
		.isp_pid = "BRDISP\0\0",
	},
	[BERLIN_A] = {
		.dummy = 4,
		.version_addr = 0x1000C,
		.ic_info_addr = 0x10068,
		.isp_ram = 0x18400,
		.flash_cmd = 0x10400,
		.isp_buffer = 0x10410,
		.watchdog = 0xCC54,
		.misctl = 0xD807,
		.rom_pid = "BRLA\0\0",
		.isp_pid = "BRAISP\0\0",
	},
};

#define IC_INFO_ROOM 256 /* what fill_ic_info writes, and some */
#define TOUCH_ROOM 128

const struct berlin_layout *berlin_model_layout(enum berlin_variant v)
{
	return &layouts[v == BERLIN_A ? BERLIN_A : BERLIN_D];
}

em_u32 berlin_model_sum16(const em_u8 *p, em_u32 len)
{
	em_u32 s = 0;

	/* fwupdate's loop: words from even offsets, the byte after an odd
	 * length included (it is whatever the buffer holds there) */
	for (em_u32 i = 0; i < len; i += 2)
		s += (em_u32)p[i] + ((em_u32)p[i + 1] << 8);
	return s;
}

em_u16 berlin_model_sum8(const em_u8 *p, em_u32 len)
{
	em_u32 s = 0;

	for (em_u32 i = 0; i < len; i++)
		s += p[i];
	return (em_u16)s;
}

/* ------------------------------------------------------------ images */

/* model: the descriptor at the start of an application or ISP image */
bool berlin_model_desc_ok(const em_u8 *p, em_u32 room, const char *magic, em_u8 pid[8],
			  em_u8 vid[4])
{
	em_u32 len;

	if (room < BERLIN_DESC_SIZE || em_memcmp(p, magic, 4))
		return false;
	len = em_get_le32(p + 16);
	if (len < BERLIN_DESC_SIZE || len > room || len & 1)
		return false;
	if (berlin_model_sum16(p + BERLIN_DESC_SIZE, len - BERLIN_DESC_SIZE) !=
	    em_get_le32(p + 20))
		return false;
	if (pid)
		em_memcpy(pid, p + 4, 8);
	if (vid)
		em_memcpy(vid, p + 12, 4);
	return true;
}

static em_u32 make_image(em_u8 *out, em_u32 len, em_u32 max, const char *magic,
			 const em_u8 *pid, const em_u8 vid[4], em_u32 seed)
{
	em_u32 x = seed * 2654435761u + 0x9e3779b9u;

	if (len < BERLIN_DESC_SIZE || len > max || len & 1)
		return 0;
	em_memset(out, 0, BERLIN_DESC_SIZE);
	em_memcpy(out, magic, 4);
	em_memcpy(out + 4, pid, 8);
	em_memcpy(out + 12, vid, 4);
	em_put_le32(out + 16, len);
	for (em_u32 i = BERLIN_DESC_SIZE; i < len; i++) {
		/* xorshift32: deterministic bytes that look like code */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		out[i] = (em_u8)(x >> 11);
	}
	em_put_le32(out + 20,
		    berlin_model_sum16(out + BERLIN_DESC_SIZE, len - BERLIN_DESC_SIZE));
	return len;
}

em_u32 berlin_model_make_app(em_u8 *out, em_u32 len, const char *pid, const em_u8 vid[4],
			     em_u32 seed)
{
	em_u8 p[8] = { 0 };

	for (int i = 0; i < 8 && pid && pid[i]; i++)
		p[i] = (em_u8)pid[i];
	return make_image(out, len, BERLIN_APP_MAX, "GBFW", p, vid, seed);
}

em_u32 berlin_model_make_isp(em_u8 *out, em_u32 len, enum berlin_variant v)
{
	static const em_u8 isp_vid[4] = { 0x00, 0x01, 0x00, 0x01 };

	return make_image(out, len, BERLIN_ISP_MAX, "GBIS",
			  (const em_u8 *)berlin_model_layout(v)->isp_pid, isp_vid, 0x150u + v);
}

void berlin_model_make_config(em_u8 *out, em_u32 config_id, em_u8 version)
{
	for (em_u32 i = 0; i < BERLIN_CONFIG_SIZE; i++)
		out[i] = (em_u8)(i * 7 + 3);
	em_put_le32(out + BERLIN_CONFIG_ID_OFFSET, config_id);
	out[BERLIN_CONFIG_ID_OFFSET + 4] = version;
}

/* ------------------------------------------------------------ blocks */

static void fill_version(struct berlin_model *m)
{
	em_u8 *v = m->mem + m->lay.version_addr;
	em_u16 sum;

	em_memset(v, 0, BERLIN_VERSION_LEN);
	em_memcpy(v, m->lay.rom_pid, 6);
	v[6] = 0x01; /* rom_vid */
	v[7] = 0x00;
	v[8] = 0x00;
	switch (m->mode) {
	case BERLIN_ROM:
		em_memcpy(v + 10, "NOCODE", 6);
		break;
	case BERLIN_ISP:
		berlin_model_desc_ok(m->mem + m->lay.isp_ram, BERLIN_ISP_MAX, "GBIS", v + 10,
				     v + 18);
		break;
	case BERLIN_APP:
		em_memcpy(v + 10, m->app_pid, 8);
		em_memcpy(v + 18, m->app_vid, 4);
		break;
	default:
		break;
	}
	sum = berlin_model_sum8(v, BERLIN_VERSION_LEN - 2);
	if (m->mode == BERLIN_APP && m->faults.bad_version)
		sum++;
	em_put_le16(v + BERLIN_VERSION_LEN - 2, sum);
}

/*
 * The chip info as goodix_berlin_parse_ic_info walks it: length, version
 * (16), features (10), drv/sen/button/force numbers, five LE16 parameter
 * lists, misc (touch_data_addr at +44 of it), LE16 byte sum.  The config id
 * and version come from the config in flash.
 */
static void fill_ic_info(struct berlin_model *m)
{
	em_u8 *p = m->mem + m->lay.ic_info_addr;
	const em_u8 *cfg = m->flash + BERLIN_CONFIG_ADDR;
	em_u32 o = 2, misc;

	em_memset(p, 0, IC_INFO_ROOM);
	/* version part */
	p[o++] = 0x01;					    /* info_customer_id */
	p[o++] = 0x01;					    /* info_version_id */
	p[o++] = m->variant == BERLIN_A ? 0x97 : 0x16;	    /* ic_die_id */
	p[o++] = 0x01;					    /* ic_version_id */
	em_memcpy(p + o, cfg + BERLIN_CONFIG_ID_OFFSET, 4); /* config_id */
	o += 4;
	p[o++] = cfg[BERLIN_CONFIG_ID_OFFSET + 4]; /* config_version */
	o += 7;					   /* frame/touch data ids, reserved */
	o += 10;				   /* features */
	p[o++] = 36;				   /* drv_num */
	p[o++] = 18;				   /* sen_num */
	p[o++] = 0;				   /* button_num */
	p[o++] = 0;				   /* force_num */
	for (int list = 0; list < 5; list++) {
		em_u8 n = list < 2 ? 2 : 1;

		p[o++] = n;
		for (em_u8 i = 0; i < n; i++, o += 2)
			em_put_le16(p + o, (em_u16)(120 + 10 * list + i));
	}
	misc = o;
	em_put_le32(p + misc + 0, 0x10174);		    /* cmd_addr */
	em_put_le16(p + misc + 4, 16);			    /* cmd_max_len */
	em_put_le32(p + misc + 44, BERLIN_TOUCH_DATA_ADDR); /* touch_data_addr */
	em_put_le16(p + misc + 48, 8);			    /* touch_data_head_len */
	em_put_le16(p + misc + 50, 8);			    /* point_struct_len */
	o = misc + 114;
	em_put_le16(p, (em_u16)(o + 2));
	em_put_le16(p + o, berlin_model_sum8(p, o));
}

/* ------------------------------------------------------------ reset */

static bool all_of(const em_u8 *p, em_u8 v, em_u32 n)
{
	for (em_u32 i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

/* The ROM boots (after power-up, a soft reset, the watchdog). */
static void reset(struct berlin_model *m, bool cold)
{
	em_u8 *opt = m->mem + BERLIN_BOOT_OPTION_ADDR;

	m->stats.resets++;
	if (cold) {
		em_memset(m->mem, 0, BERLIN_MEM_SIZE);
		m->mem[m->lay.watchdog] = 0x01; /* model: enabled at power-up */
	}
	em_memset(m->mem + m->lay.version_addr, 0, BERLIN_VERSION_LEN);
	em_memset(m->mem + m->lay.ic_info_addr, 0, IC_INFO_ROOM);
	em_memset(m->mem + BERLIN_TOUCH_DATA_ADDR, 0, TOUCH_ROOM);
	m->mem[BERLIN_SOFT_RESET] = 0;
	m->mem[BERLIN_HOLD_CPU_W] = 0;
	m->cpu_held = false;
	m->boot_frozen = false;
	m->irq = false;
	m->ack_at = m->done_at = m->wdt_at = EM_NEVER;
	m->ready_at = m->now + BERLIN_SPI_READY_NS;
	m->boot_at = m->now + BERLIN_BOOT_NS;
	if (all_of(opt, 0x55, 8) &&
	    berlin_model_desc_ok(m->mem + m->lay.isp_ram, BERLIN_ISP_MAX, "GBIS", 0, 0)) {
		/* model: the ROM consumes the option, so the next reset
		 * boots the flash again */
		em_memset(opt, 0, 8);
		m->mode = BERLIN_ISP;
		m->stats.boots_isp++;
		if (m->mem[m->lay.watchdog])
			m->wdt_at = m->now + BERLIN_WDT_NS;
	} else if (berlin_model_desc_ok(m->flash, BERLIN_APP_MAX, "GBFW", m->app_pid,
					m->app_vid)) {
		m->mode = BERLIN_APP;
		m->stats.boots_app++;
	} else {
		m->mode = BERLIN_ROM;
		m->stats.boots_rom++;
	}
}

void berlin_model_init(struct berlin_model *m, enum berlin_variant v, const em_u8 *flash,
		       em_u64 now)
{
	struct berlin_faults f = m->faults;

	em_memset(m, 0, offsetof(struct berlin_model, mem));
	m->faults = f;
	m->variant = v == BERLIN_A ? BERLIN_A : BERLIN_D;
	m->lay = layouts[m->variant];
	m->now = now;
	m->restore_at = EM_NEVER;
	if (flash)
		em_memcpy(m->flash, flash, BERLIN_FLASH_SIZE);
	else
		em_memset(m->flash, 0xff, BERLIN_FLASH_SIZE);
	reset(m, true);
}

/* ------------------------------------------------------------ flash commands */

static void power_loss(struct berlin_model *m)
{
	m->stats.power_losses++;
	m->mode = BERLIN_OFF;
	m->irq = false;
	m->ack_at = m->done_at = m->wdt_at = EM_NEVER;
	m->boot_at = EM_NEVER;
	m->restore_at = m->now + BERLIN_POWER_GLITCH_NS;
}

/* The ISP looks at the command 0.2 ms after it was written. */
static void cmd_ack(struct berlin_model *m)
{
	em_u8 *c = m->mem + m->lay.flash_cmd;
	em_u8 *buf = m->mem + m->lay.isp_buffer;
	em_u32 len = em_get_le16(c + 5), addr = em_get_le32(c + 7), n;
	bool sum_ok = c[2] == 11 && berlin_model_sum8(c + 2, 9) == em_get_le16(c + 11);

	m->ack_at = EM_NEVER;
	if (!sum_ok ||
	    (m->faults.ack_fail_at && m->stats.flash_cmds == m->faults.ack_fail_at)) {
		c[1] = BERLIN_ACK_FAIL;
		return;
	}
	c[1] = BERLIN_ACK_PASS;
	if (c[3] == BERLIN_CMD_READ) {
		n = len > BERLIN_ISP_BUFFER_MAX + 4 ? BERLIN_ISP_BUFFER_MAX + 4 : len;
		if (addr >= BERLIN_FLASH_SIZE || n > BERLIN_FLASH_SIZE - addr) {
			c[0] = BERLIN_ST_ADDR_ERR;
			return;
		}
		em_memcpy(buf, m->flash + addr, n);
		c[0] = BERLIN_ST_WRITE_OK;
		return;
	}
	m->stats.flash_writes++;
	if (len < 4 || len > BERLIN_ISP_BUFFER_MAX + 4 || addr >= BERLIN_FLASH_SIZE ||
	    len - 4 > BERLIN_FLASH_SIZE - addr) {
		c[0] = BERLIN_ST_ADDR_ERR;
		return;
	}
	n = len - 4;
	if (berlin_model_sum16(buf, n) != em_get_le32(buf + n) ||
	    m->faults.checksum_fail_always ||
	    (m->faults.checksum_fail_at &&
	     m->stats.flash_writes == m->faults.checksum_fail_at)) {
		m->stats.checksum_fails++;
		c[0] = BERLIN_ST_CHK_FAIL;
		return;
	}
	if (m->faults.write_error_at && m->stats.flash_writes == m->faults.write_error_at) {
		c[0] = BERLIN_ST_WRITE_ERR;
		return;
	}
	if (m->faults.power_loss_at && m->stats.flash_writes == m->faults.power_loss_at) {
		/* erased, half programmed, then the supply drops */
		m->faults.power_loss_at = 0;
		em_memset(m->flash + addr, 0xff, n);
		em_memcpy(m->flash + addr, buf, n / 2);
		power_loss(m);
		return;
	}
	c[0] = BERLIN_ST_CHK_PASS;
	m->done_at = m->now +
		     (((n + 1023) / 1024) ? (n + 1023) / 1024 : 1) * BERLIN_PROG_NS_PER_KIB;
}

static void cmd_done(struct berlin_model *m)
{
	em_u8 *c = m->mem + m->lay.flash_cmd;
	em_u32 len = em_get_le16(c + 5), addr = em_get_le32(c + 7);

	m->done_at = EM_NEVER;
	/* the buffer as the check saw it: the host waits for the status */
	em_memcpy(m->flash + addr, m->mem + m->lay.isp_buffer, len - 4);
	c[0] = BERLIN_ST_WRITE_OK;
}

/* ------------------------------------------------------------ time */

static em_u64 next(const struct berlin_model *m, bool with_wdt)
{
	em_u64 t = EM_NEVER;
	/* ready_at is no event: it comes before boot_at, which a host that
	 * resets the chip waits for (fast pacing then skips to the end of
	 * the boot, not to a bus that answers with nothing filled in) */
	const em_u64 ev[] = { m->boot_at, m->ack_at, m->done_at, m->restore_at,
			      with_wdt ? m->wdt_at : EM_NEVER };

	for (em_u32 i = 0; i < EM_ARRAY_SIZE(ev); i++)
		if (ev[i] < t)
			t = ev[i];
	return t;
}

static void op_advance(void *chip, em_u64 now)
{
	struct berlin_model *m = chip;

	for (int guard = 0; guard < 64; guard++) {
		em_u64 t = next(m, true);

		if (t == EM_NEVER || t > now)
			break;
		if (t > m->now)
			m->now = t;
		if (t == m->restore_at) {
			m->restore_at = EM_NEVER;
			reset(m, true);
		} else if (t == m->boot_at && m->cpu_held) {
			/* a held CPU boots nothing: on when it is let go */
			m->boot_at = EM_NEVER;
			m->boot_frozen = true;
		} else if (t == m->boot_at) {
			m->boot_at = EM_NEVER;
			fill_version(m);
			if (m->mode == BERLIN_APP) {
				fill_ic_info(m);
				/* model: its working memory */
				for (em_u32 i = 0; i < BERLIN_ISP_MAX; i++)
					m->mem[m->lay.isp_ram + i] = (em_u8)(0xA5 ^ i);
			}
		} else if (t == m->ack_at) {
			m->ack_at = EM_NEVER;
			if (m->mode == BERLIN_ISP)
				cmd_ack(m);
		} else if (t == m->done_at) {
			cmd_done(m);
		} else if (t == m->wdt_at) {
			m->wdt_at = EM_NEVER;
			m->stats.watchdog_resets++;
			reset(m, false);
		}
	}
	if (now > m->now)
		m->now = now;
}

/* The host waits for these (fast pacing skips to them); the watchdog is
 * not one of them. */
static em_u64 op_next_event(const void *chip)
{
	return next(chip, false);
}

/* ------------------------------------------------------------ bus */

static bool answers(const struct berlin_model *m)
{
	return m->mode != BERLIN_OFF && m->now >= m->ready_at;
}

static em_u8 mem_read(struct berlin_model *m, em_u32 a)
{
	if (a >= BERLIN_HOLD_CPU_R && a < BERLIN_HOLD_CPU_R + 4) {
		if (a == BERLIN_HOLD_CPU_R && !m->cpu_held)
			m->cpu_ticks += 0x1357;
		return (em_u8)(m->cpu_ticks >> (8 * (a - BERLIN_HOLD_CPU_R)));
	}
	return a < BERLIN_MEM_SIZE ? m->mem[a] : 0;
}

static void mem_write(struct berlin_model *m, em_u32 a, em_u8 v)
{
	if (a >= BERLIN_MEM_SIZE)
		return;
	if (a >= m->lay.isp_ram && a < m->lay.isp_ram + BERLIN_ISP_MAX &&
	    m->mode == BERLIN_APP && !m->cpu_held) {
		m->stats.lost_writes++;
		return; /* model: the running application owns this RAM */
	}
	m->mem[a] = v;
	if (!m->wrote || a < m->wlo)
		m->wlo = a;
	if (!m->wrote || a > m->whi)
		m->whi = a;
	m->wrote = true;
}

static bool touched(const struct berlin_model *m, em_u32 a, em_u32 n)
{
	return m->wrote && a <= m->whi && a + n > m->wlo;
}

/* A write frame ended: what the written registers do. */
static void write_done(struct berlin_model *m)
{
	em_u32 cmd = m->lay.flash_cmd;

	m->stats.writes++;
	if (touched(m, BERLIN_HOLD_CPU_W, 1)) {
		m->cpu_held = m->mem[BERLIN_HOLD_CPU_W] & 1;
		if (!m->cpu_held && m->boot_frozen) {
			m->boot_frozen = false;
			m->boot_at = m->now + BERLIN_BOOT_NS;
		}
	}
	if (touched(m, m->lay.watchdog, 1) && !m->mem[m->lay.watchdog])
		m->wdt_at = EM_NEVER;
	if (touched(m, BERLIN_TOUCH_DATA_ADDR, 1) && !m->mem[BERLIN_TOUCH_DATA_ADDR])
		m->irq = false;
	if (touched(m, cmd + 3, 1) && m->mode == BERLIN_ISP && !m->cpu_held &&
	    (m->mem[cmd + 3] == BERLIN_CMD_WRITE || m->mem[cmd + 3] == BERLIN_CMD_READ)) {
		m->stats.flash_cmds++;
		m->done_at = EM_NEVER;
		m->ack_at = m->now + BERLIN_ACK_NS;
	}
	if (touched(m, BERLIN_SOFT_RESET, 1) && m->mem[BERLIN_SOFT_RESET] == 0xFE)
		reset(m, false);
}

static void op_select(void *chip, bool selected)
{
	struct berlin_model *m = chip;

	if (selected == m->selected)
		return;
	m->selected = selected;
	if (selected) {
		m->pos = 0;
		m->op = 0;
		m->addr = 0;
		m->wrote = false;
		return;
	}
	if (m->op == BERLIN_SPI_WRITE && m->pos > 5)
		write_done(m);
	else if (m->op == BERLIN_SPI_READ && m->pos > 5 + m->lay.dummy)
		m->stats.reads++;
	else if (m->pos)
		m->stats.frames_ignored++;
}

static void op_xfer(void *chip, const em_u8 *mosi, em_u8 *miso, em_u32 len)
{
	struct berlin_model *m = chip;
	bool on = answers(m);

	for (em_u32 i = 0; i < len; i++, m->pos++) {
		em_u8 out = 0xff;

		if (!m->selected || !on) {
			miso[i] = 0xff;
			if (m->selected && m->pos == 0)
				m->op = 0xff; /* a frame the chip did not see */
			continue;
		}
		if (m->pos == 0) {
			m->op = mosi[i];
		} else if (m->pos < 5) {
			m->addr = m->addr << 8 | mosi[i];
		} else if (m->op == BERLIN_SPI_READ) {
			if (m->pos >= 5 + m->lay.dummy)
				out = mem_read(m, m->addr + (m->pos - 5 - m->lay.dummy));
		} else if (m->op == BERLIN_SPI_WRITE) {
			mem_write(m, m->addr + (m->pos - 5), mosi[i]);
		}
		miso[i] = out;
	}
}

static bool op_irq(const void *chip)
{
	const struct berlin_model *m = chip;

	return m->irq;
}

const struct em_spi_ops berlin_model_ops = {
	.name = "goodix-berlin",
	.mode = 0,
	.max_hz = 10000000, /* model: the sources give no limit; above the bench's 8 MHz */
	.select = op_select,
	.xfer = op_xfer,
	.advance = op_advance,
	.next_event = op_next_event,
	.irq_asserted = op_irq,
};

/* ------------------------------------------------------------ host helpers */

enum berlin_mode berlin_model_mode(const struct berlin_model *m)
{
	return m->mode;
}

bool berlin_model_touch(struct berlin_model *m, em_u8 n, const em_u16 (*pts)[3])
{
	em_u8 *t = m->mem + BERLIN_TOUCH_DATA_ADDR;

	if (m->mode != BERLIN_APP || m->boot_at != EM_NEVER || m->cpu_held || n > 10)
		return false;
	em_memset(t, 0, TOUCH_ROOM);
	t[0] = 0x80; /* GOODIX_BERLIN_TOUCH_EVENT */
	t[2] = n;    /* request_type: the touch count */
	em_put_le16(t + 6, berlin_model_sum8(t, 6));
	for (em_u8 i = 0; i < n; i++) {
		em_u8 *p = t + 8 + 8 * i;

		p[0] = (em_u8)(pts[i][0] << 4); /* id, type 0: finger */
		em_put_le16(p + 2, pts[i][1]);
		em_put_le16(p + 4, pts[i][2]);
		em_put_le16(p + 6, 8);
	}
	em_put_le16(t + 8 + 8 * n, berlin_model_sum8(t + 8, 8u * n));
	m->irq = true;
	return true;
}
