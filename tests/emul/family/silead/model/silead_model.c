// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Silead GSL1680-family chip model; the rules and their sources are in
 * silead_model.h.
 */
#include "silead_model.h"

#define DEFAULT_BOOT_NS (10 * EM_NSEC_PER_MSEC)
#define DEFAULT_START_NS (10 * EM_NSEC_PER_MSEC)

void silead_model_ram_clear(struct silead_model_ram *r)
{
	em_memset(r, 0, sizeof(*r));
}

bool silead_model_ram_apply(struct silead_model_ram *r, em_u32 *page, em_u32 offset,
			    em_u32 value)
{
	em_u32 i;

	if (offset == SILEAD_MODEL_REG_PAGE) {
		if (value >= SILEAD_MODEL_PAGES)
			return false;
		*page = value;
		return true;
	}
	if (offset >= 0x80 || (offset & 3) || *page >= SILEAD_MODEL_PAGES)
		return false;
	i = *page * SILEAD_MODEL_PAGE_WORDS + offset / 4;
	r->word[i] = value;
	if (!(r->written[i / 8] & (1u << (i % 8)))) {
		r->written[i / 8] |= (em_u8)(1u << (i % 8));
		r->nwritten++;
	}
	return true;
}

em_u64 silead_model_ram_digest(const struct silead_model_ram *r)
{
	em_u64 h = 0xcbf29ce484222325ULL;

	for (em_u32 i = 0; i < SILEAD_MODEL_WORDS; i++) {
		em_u8 b[8];

		if (!(r->written[i / 8] & (1u << (i % 8))))
			continue;
		em_put_le32(b, i);
		em_put_le32(b + 4, r->word[i]);
		for (int k = 0; k < 8; k++) {
			h ^= b[k];
			h *= 0x100000001b3ULL;
		}
	}
	return h;
}

size_t silead_model_make_fw(em_u32 seed, em_u32 pages, em_u8 *buf, size_t size)
{
	size_t n = 0;

	if (size < (size_t)pages * (1 + SILEAD_MODEL_PAGE_WORDS) * 8)
		return 0;
	for (em_u32 p = 0; p < pages; p++) {
		em_put_le32(buf + n, SILEAD_MODEL_REG_PAGE);
		em_put_le32(buf + n + 4, p);
		n += 8;
		for (em_u32 w = 0; w < SILEAD_MODEL_PAGE_WORDS; w++) {
			em_put_le32(buf + n, w * 4);
			em_put_le32(buf + n + 4, seed * 2654435761u ^ (p << 16 | w) * 40503u);
			n += 8;
		}
	}
	return n;
}

bool silead_model_fw_digest(const em_u8 *fw, size_t len, struct silead_model_ram *scratch,
			    em_u64 *digest)
{
	em_u32 page = 0;

	silead_model_ram_clear(scratch);
	if (!len || len % 8)
		return false;
	for (size_t o = 0; o < len; o += 8)
		if (!silead_model_ram_apply(scratch, &page, em_get_le32(fw + o),
					    em_get_le32(fw + o + 4)))
			return false;
	*digest = silead_model_ram_digest(scratch);
	return true;
}

static em_u64 scaled(em_u64 t, em_u64 dflt)
{
	return t ? t : dflt;
}

static void lose_state(struct silead_model *m)
{
	m->awake = false;
	m->ready_at = EM_NEVER;
	m->run_at = EM_NEVER;
	m->stop_at = EM_NEVER;
	m->in_reset = false;
	m->running = m->program_ok = false;
	em_memset(m->regs, 0, sizeof(m->regs));
	m->page = 0;
	m->ptr = 0;
	silead_model_ram_clear(&m->ram);
	m->frame_unread = false;
	em_memset(m->frame, 0, sizeof(m->frame));
}

static void boot(struct silead_model *m)
{
	lose_state(m);
	if (m->powered && !m->shutdown_held) {
		m->ready_at = m->now + scaled(m->cfg.t.boot_ns, DEFAULT_BOOT_NS);
		m->stats.power_ups++;
	}
}

void silead_model_init(struct silead_model *m, const struct silead_model_cfg *cfg, em_u64 now)
{
	em_memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	m->now = now;
	m->powered = true;
	lose_state(m);
	m->awake = true;
}

static void sl_advance(void *chip, em_u64 now)
{
	struct silead_model *m = chip;

	if (now < m->now)
		return;
	m->now = now;
	if (m->ready_at != EM_NEVER && now >= m->ready_at) {
		m->ready_at = EM_NEVER;
		m->awake = true;
	}
	if (m->run_at != EM_NEVER && now >= m->run_at) {
		m->run_at = EM_NEVER;
		if (m->ram.nwritten && !m->cfg.faults.never_starts) {
			em_u64 d = silead_model_ram_digest(&m->ram);

			m->running = true;
			m->program_ok = !m->cfg.has_expected || d == m->cfg.expected;
			m->stats.starts++;
			if (m->cfg.faults.stops)
				m->stop_at = now + SILEAD_MODEL_STOP_NS;
		}
	}
	if (m->stop_at != EM_NEVER && now >= m->stop_at) {
		m->stop_at = EM_NEVER;
		m->running = m->program_ok = false;
		m->frame_unread = false;
	}
}

static em_u64 next_event(const void *chip)
{
	const struct silead_model *m = chip;
	em_u64 t = m->ready_at < m->run_at ? m->ready_at : m->run_at;

	return t < m->stop_at ? t : m->stop_at;
}

static bool answers(struct silead_model *m, em_u16 addr)
{
	return addr == m->cfg.addr && !m->cfg.faults.nak && m->awake;
}

static void control(struct silead_model *m, em_u8 v)
{
	m->regs[SILEAD_MODEL_REG_RESET] = v;
	if (v == SILEAD_MODEL_CMD_RESET) {
		m->stats.resets++;
		m->in_reset = true;
		m->running = m->program_ok = false;
		m->run_at = EM_NEVER;
		m->stop_at = EM_NEVER;
		m->frame_unread = false;
	} else if (v == SILEAD_MODEL_CMD_START) {
		m->in_reset = false;
		if (!m->running)
			m->run_at = m->now + scaled(m->cfg.t.start_ns, DEFAULT_START_NS);
	}
}

static int sl_write(void *chip, em_u16 addr, const em_u8 *buf, em_u16 len)
{
	struct silead_model *m = chip;
	em_u8 reg;

	if (!answers(m, addr))
		return EM_NAK_ADDR;
	if (!len)
		return EM_ACK;
	reg = buf[0];
	m->ptr = reg;
	if (len == 1)
		return EM_ACK;
	if (reg < 0x80 || reg == SILEAD_MODEL_REG_PAGE) {
		if (len != 5 ||
		    !silead_model_ram_apply(&m->ram, &m->page, reg, em_get_le32(buf + 1))) {
			m->stats.bad_writes++;
			return EM_NAK_DATA;
		}
		if (reg == SILEAD_MODEL_REG_PAGE)
			m->stats.pages_selected++;
		else
			m->stats.words_written++;
		return EM_ACK;
	}
	if (reg == SILEAD_MODEL_REG_ID || reg == SILEAD_MODEL_REG_STATUS) {
		m->stats.bad_writes++;
		return EM_NAK_DATA; /* read-only */
	}
	if (reg == SILEAD_MODEL_REG_RESET) {
		control(m, buf[len - 1]);
		return EM_ACK;
	}
	for (em_u16 i = 1; i < len && reg + i - 1 < 256; i++)
		m->regs[reg + i - 1] = buf[i];
	return EM_ACK;
}

static int sl_read(void *chip, em_u16 addr, em_u8 *buf, em_u16 len)
{
	struct silead_model *m = chip;
	em_u8 reg = m->ptr;

	if (!answers(m, addr))
		return EM_NAK_ADDR;
	em_memset(buf, 0, len);
	if (reg < 0x80) {
		/* RAM of the selected page, from the word at ptr */
		for (em_u16 i = 0; i < len && reg + i < 0x80; i++) {
			em_u32 w = m->page < SILEAD_MODEL_PAGES
					   ? m->ram.word[m->page * SILEAD_MODEL_PAGE_WORDS +
							 (reg + i) / 4]
					   : 0;

			buf[i] = (em_u8)(w >> (8 * ((reg + i) % 4)));
		}
	} else if (reg == SILEAD_MODEL_REG_DATA) {
		for (em_u16 i = 0; i < len && i < SILEAD_MODEL_DATA_LEN; i++)
			buf[i] = m->frame[i];
		if (m->frame_unread) {
			m->frame_unread = false;
			m->stats.frames_read++;
		}
	} else if (reg == SILEAD_MODEL_REG_STATUS) {
		em_u8 st[4];

		m->stats.status_reads++;
		em_put_le32(st, m->running ? SILEAD_MODEL_STATUS_OK : 0);
		for (em_u16 i = 0; i < len && i < 4; i++)
			buf[i] = st[i];
	} else if (reg == SILEAD_MODEL_REG_ID) {
		em_u8 id[4];

		em_put_le32(id, m->cfg.chip_id);
		for (em_u16 i = 0; i < len && i < 4; i++)
			buf[i] = id[i];
	} else {
		for (em_u16 i = 0; i < len && reg + i < 256; i++)
			buf[i] = m->regs[reg + i];
	}
	return EM_ACK;
}

static bool irq_asserted(const void *chip)
{
	const struct silead_model *m = chip;

	return m->frame_unread;
}

static void set_reset(void *chip, bool held)
{
	struct silead_model *m = chip;

	if (held == m->shutdown_held)
		return;
	m->shutdown_held = held;
	boot(m);
}

static void set_power(void *chip, bool on)
{
	struct silead_model *m = chip;

	if (on == m->powered)
		return;
	m->powered = on;
	boot(m);
}

const struct em_chip_ops silead_model_ops = {
	.name = "silead",
	.write = sl_write,
	.read = sl_read,
	.advance = sl_advance,
	.next_event = next_event,
	.irq_asserted = irq_asserted,
	.set_reset = set_reset,
	.set_power = set_power,
};

bool silead_model_touch(struct silead_model *m, const struct silead_model_point *pts, em_u8 n)
{
	if (!m->running || !m->program_ok || n > SILEAD_MODEL_MAX_POINTS) {
		m->stats.touches_lost++;
		return false;
	}
	em_memset(m->frame, 0, sizeof(m->frame));
	m->frame[0] = n;
	for (em_u8 i = 0; i < n; i++) {
		em_u8 *p = m->frame + 4 + 4 * i;
		em_u16 y = (em_u16)(pts[i].y & 0xfff), x = (em_u16)(pts[i].x & 0xfff);

		p[0] = (em_u8)y;
		p[1] = (em_u8)(y >> 8);
		p[2] = (em_u8)x;
		p[3] = (em_u8)((x >> 8) | (pts[i].id & 0xf) << 4);
	}
	m->frame_unread = true;
	return true;
}

bool silead_model_running(const struct silead_model *m)
{
	return m->running;
}

bool silead_model_program_ok(const struct silead_model *m)
{
	return m->running && m->program_ok;
}

em_u64 silead_model_digest(const struct silead_model *m)
{
	return silead_model_ram_digest(&m->ram);
}

const struct silead_model_stats *silead_model_stats(const struct silead_model *m)
{
	return &m->stats;
}

struct silead_model_faults *silead_model_faults(struct silead_model *m)
{
	return &m->cfg.faults;
}
