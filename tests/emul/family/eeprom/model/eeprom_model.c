// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 24C02-style EEPROM model (see eeprom_model.h for the behaviour and its
 * sources).  Freestanding: no libc, no allocation.
 */
#include "eeprom_model.h"

static em_u16 size_of(const struct eeprom_model *m)
{
	return m->cfg.size ? m->cfg.size : EEPROM_MODEL_MAX_SIZE;
}

static em_u16 page_of(const struct eeprom_model *m)
{
	return m->cfg.page_size ? m->cfg.page_size : 8;
}

void eeprom_model_init(struct eeprom_model *m, const struct eeprom_model_cfg *cfg, em_u64 now)
{
	em_memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	if (m->cfg.size == 0 || m->cfg.size > EEPROM_MODEL_MAX_SIZE)
		m->cfg.size = EEPROM_MODEL_MAX_SIZE;
	if (m->cfg.page_size == 0 || m->cfg.page_size > EEPROM_MODEL_MAX_PAGE)
		m->cfg.page_size = 8;
	if (!m->cfg.write_cycle_ns)
		m->cfg.write_cycle_ns = EEPROM_MODEL_WRITE_CYCLE_NS;
	em_memset(m->mem, m->cfg.fill, sizeof(m->mem));
	m->now = now;
	m->powered = true;
}

static void finish_cycle(struct eeprom_model *m)
{
	em_u16 page = page_of(m), i;

	for (i = 0; i < page; i++) {
		if (m->latch_valid & (1u << i)) {
			m->mem[(em_u16)(m->latch_page + i) % size_of(m)] = m->latch[i];
			m->stats.bytes_written++;
		}
	}
	m->stats.write_cycles++;
	m->stats.busy_ns += m->busy_until - m->busy_from;
	m->latch_valid = 0;
	m->busy = false;
}

static void ee_advance(void *chip, em_u64 now)
{
	struct eeprom_model *m = chip;

	if (now < m->now)
		return;
	m->now = now;
	if (m->busy && now >= m->busy_until)
		finish_cycle(m);
}

static em_u64 ee_next_event(const void *chip)
{
	const struct eeprom_model *m = chip;

	return m->busy ? m->busy_until : EM_NEVER;
}

/* Our address, powered and not in a write cycle: we acknowledge. */
static int ee_addr_check(struct eeprom_model *m, em_u16 addr)
{
	if (addr != m->cfg.addr || !m->powered)
		return EM_NAK_ADDR;
	if (m->busy) {
		m->stats.busy_naks++;
		return EM_NAK_ADDR;
	}
	return EM_ACK;
}

static int ee_write(void *chip, em_u16 addr, const em_u8 *buf, em_u16 len)
{
	struct eeprom_model *m = chip;
	em_u16 page = page_of(m), i;
	int r = ee_addr_check(m, addr);

	if (r != EM_ACK)
		return r;
	/* A new START addressed to us drops an unfinished page write. */
	if (m->latch_valid) {
		m->latch_valid = 0;
		m->stats.discarded++;
	}
	m->addressed = true;
	if (len == 0)
		return EM_ACK; /* address only: SMBus quick write, ack polling */
	m->ptr = (em_u8)(buf[0] % size_of(m));
	if (len == 1)
		return EM_ACK; /* random read set-up: pointer only */
	m->latch_page = (em_u8)(m->ptr - (m->ptr % page));
	for (i = 1; i < len; i++) {
		em_u8 off = (em_u8)(m->ptr % page);

		m->latch[off] = buf[i];
		m->latch_valid |= (em_u16)(1u << off);
		/* the counter rolls over inside the page on writes */
		m->ptr = (em_u8)(m->latch_page + (off + 1) % page);
	}
	return EM_ACK;
}

static int ee_read(void *chip, em_u16 addr, em_u8 *buf, em_u16 len)
{
	struct eeprom_model *m = chip;
	em_u16 i;
	int r = ee_addr_check(m, addr);

	if (r != EM_ACK)
		return r;
	/* Repeated START after data bytes: the write is aborted. */
	if (m->latch_valid) {
		m->latch_valid = 0;
		m->stats.discarded++;
	}
	m->addressed = false;
	for (i = 0; i < len; i++) {
		buf[i] = m->mem[m->ptr];
		m->ptr = (em_u8)((m->ptr + 1) % size_of(m));
	}
	return EM_ACK;
}

static void ee_stop(void *chip)
{
	struct eeprom_model *m = chip;

	if (!m->addressed)
		return;
	m->addressed = false;
	if (!m->latch_valid)
		return;
	m->busy = true;
	m->busy_from = m->now;
	m->busy_until = m->now + m->cfg.write_cycle_ns;
}

static bool ee_irq(const void *chip)
{
	(void)chip;
	return false; /* no interrupt output */
}

static void ee_set_power(void *chip, bool on)
{
	struct eeprom_model *m = chip;

	if (on == m->powered)
		return;
	m->powered = on;
	if (!on) {
		/* A write cycle cut short leaves the old contents (the
		 * data sheets do not promise more). */
		if (m->busy || m->latch_valid)
			m->stats.discarded++;
		m->busy = false;
		m->latch_valid = 0;
		m->addressed = false;
		m->ptr = 0;
	}
}

const struct em_chip_ops eeprom_model_ops = {
	.name = "eeprom",
	.write = ee_write,
	.read = ee_read,
	.stop = ee_stop,
	.advance = ee_advance,
	.next_event = ee_next_event,
	.irq_asserted = ee_irq,
	.set_reset = 0,
	.set_power = ee_set_power,
};

const struct eeprom_model_stats *eeprom_model_stats(const struct eeprom_model *m)
{
	return &m->stats;
}

em_u8 eeprom_model_peek(const struct eeprom_model *m, em_u16 offset)
{
	return m->mem[offset % size_of(m)];
}

void eeprom_model_poke(struct eeprom_model *m, em_u16 offset, em_u8 val)
{
	m->mem[offset % size_of(m)] = val;
}

bool eeprom_model_busy(const struct eeprom_model *m)
{
	return m->busy;
}
