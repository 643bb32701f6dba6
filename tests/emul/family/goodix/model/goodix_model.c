// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Goodix GT9xx / GT1x chip model: address selection at reset, the register
 * window the kernel driver uses (id, version, command, request, config,
 * touch data), config acceptance by checksum, fresh flag and version, and
 * flash storage of the config, in model time.  Written from goodix.c,
 * goodix.h, goodix_fwupload.c and the vendor gt9xx.c; goodix_model.h has
 * the overview, tests/emul/README.md the sources of each rule.
 * Freestanding.
 */
#include "goodix_model.h"

/*
 * Timing defaults.  None is documented for the chip; they are chosen to sit
 * inside what goodix.c allows: it waits 6..10 ms + 50 ms after releasing
 * RST and retries an unanswered first read after 20 ms, sleeps 10 ms after
 * sending a config and 2..5 ms + 50 ms when waking the chip.
 */
#define DEF_BOOT_NS (10 * EM_NSEC_PER_MSEC)
#define DEF_CFG_APPLY_NS (5 * EM_NSEC_PER_MSEC)
#define DEF_WAKE_NS (2 * EM_NSEC_PER_MSEC)

#define VERSION_AFTER_ZERO 0x41 /* 'A' */

/* Offsets in the register window. */
#define R(addr) ((em_u16)((addr)-GOODIX_MODEL_REG_BASE))
#define ID_LEN 6 /* 4 id bytes + LE16 firmware version */
#define COOR_LEN (1 + GOODIX_MODEL_MAX_POINTS * GOODIX_MODEL_POINT_SIZE + 1)

struct id_class {
	const char *id;
	em_u16 addr, len;
	enum goodix_model_csum csum;
};

/* goodix.c goodix_chip_ids; anything else is "other GT9x": 240 bytes. */
static const struct id_class id_classes[] = {
	{ "1151", GOODIX_MODEL_REG_CONFIG_GT1X, 240, GOODIX_MODEL_CSUM_16 },
	{ "1158", GOODIX_MODEL_REG_CONFIG_GT1X, 240, GOODIX_MODEL_CSUM_16 },
	{ "5663", GOODIX_MODEL_REG_CONFIG_GT1X, 240, GOODIX_MODEL_CSUM_16 },
	{ "5688", GOODIX_MODEL_REG_CONFIG_GT1X, 240, GOODIX_MODEL_CSUM_16 },
	{ "917S", GOODIX_MODEL_REG_CONFIG_GT1X, 240, GOODIX_MODEL_CSUM_16 },
	{ "9286", GOODIX_MODEL_REG_CONFIG_GT1X, 240, GOODIX_MODEL_CSUM_16 },
	{ "911", GOODIX_MODEL_REG_CONFIG_GT9X, 186, GOODIX_MODEL_CSUM_8 },
	{ "9271", GOODIX_MODEL_REG_CONFIG_GT9X, 186, GOODIX_MODEL_CSUM_8 },
	{ "9110", GOODIX_MODEL_REG_CONFIG_GT9X, 186, GOODIX_MODEL_CSUM_8 },
	{ "9111", GOODIX_MODEL_REG_CONFIG_GT9X, 186, GOODIX_MODEL_CSUM_8 },
	{ "927", GOODIX_MODEL_REG_CONFIG_GT9X, 186, GOODIX_MODEL_CSUM_8 },
	{ "928", GOODIX_MODEL_REG_CONFIG_GT9X, 186, GOODIX_MODEL_CSUM_8 },
	{ "912", GOODIX_MODEL_REG_CONFIG_GT9X, 228, GOODIX_MODEL_CSUM_8 },
	{ "9147", GOODIX_MODEL_REG_CONFIG_GT9X, 228, GOODIX_MODEL_CSUM_8 },
	{ "967", GOODIX_MODEL_REG_CONFIG_GT9X, 228, GOODIX_MODEL_CSUM_8 },
};

/* The id as the kernel reads it: the 4 bytes up to the first NUL. */
static bool id_is(const char id[4], const char *s)
{
	unsigned int i;

	for (i = 0; i < 4; i++) {
		char c = id[i];

		if (c != s[i])
			return false;
		if (!c)
			return true;
	}
	return s[4] == 0;
}

void goodix_model_layout_for(const char id[4], struct goodix_model_layout *lay)
{
	unsigned int i;

	for (i = 0; i < EM_ARRAY_SIZE(id_classes); i++) {
		if (id_is(id, id_classes[i].id)) {
			lay->config_addr = id_classes[i].addr;
			lay->config_len = id_classes[i].len;
			lay->csum = id_classes[i].csum;
			return;
		}
	}
	lay->config_addr = GOODIX_MODEL_REG_CONFIG_GT9X;
	lay->config_len = 240;
	lay->csum = GOODIX_MODEL_CSUM_8;
}

/*
 * goodix_check_cfg_8: byte len-2 is the two's complement of the 8-bit sum
 * of bytes 0..len-3.  goodix_check_cfg_16: BE16 at len-3 is the two's
 * complement of the sum of the BE16 words at even offsets below len-3 --
 * for an even len (240) the last of those words is (len-4, len-3), so the
 * checksum's own high byte is part of the sum.  The chip is modelled to
 * check exactly what the kernel checks.
 */
static em_u16 sum16(const em_u8 *cfg, em_u16 len)
{
	em_u16 i, sum = 0;

	for (i = 0; i < len - 3; i += 2)
		sum = (em_u16)(sum + (cfg[i] << 8 | cfg[i + 1]));
	return sum;
}

bool goodix_model_checksum_ok(const em_u8 *cfg, em_u16 len, enum goodix_model_csum csum)
{
	em_u16 i;

	if (csum == GOODIX_MODEL_CSUM_8) {
		em_u8 s = 0;

		for (i = 0; i < len - 2; i++)
			s = (em_u8)(s + cfg[i]);
		return cfg[len - 2] == (em_u8)(~s + 1);
	}
	return (em_u16)(cfg[len - 3] << 8 | cfg[len - 2]) == (em_u16)(~sum16(cfg, len) + 1);
}

bool goodix_model_fill_checksum(em_u8 *cfg, em_u16 len, enum goodix_model_csum csum)
{
	em_u16 i, c;

	if (csum == GOODIX_MODEL_CSUM_8) {
		em_u8 s = 0;

		for (i = 0; i < len - 2; i++)
			s = (em_u8)(s + cfg[i]);
		cfg[len - 2] = (em_u8)(~s + 1);
		return true;
	}
	if (!((len - 3) & 1)) {
		c = (em_u16)(~sum16(cfg, len) + 1);
		cfg[len - 3] = (em_u8)(c >> 8);
		cfg[len - 2] = (em_u8)c;
		return true;
	}
	/* The high byte is in the sum: find the one that agrees with itself. */
	for (i = 0; i < 256; i++) {
		cfg[len - 3] = (em_u8)i;
		c = (em_u16)(~sum16(cfg, len) + 1);
		if ((c >> 8) == i) {
			cfg[len - 2] = (em_u8)c;
			return true;
		}
	}
	return false;
}

void goodix_model_make_config(struct goodix_model_cfg *cfg, em_u8 version, em_u16 x_res,
			      em_u16 y_res, em_u8 touches, em_u8 trigger)
{
	struct goodix_model_layout lay;
	em_u16 i;

	goodix_model_layout_for(cfg->id, &lay);
	em_memset(cfg->stored, 0, sizeof(cfg->stored));
	/* goodix.c: RESOLUTION_LOC 1, MAX_CONTACTS_LOC 5, TRIGGER_LOC 6. */
	cfg->stored[0] = version;
	cfg->stored[1] = (em_u8)x_res;
	cfg->stored[2] = (em_u8)(x_res >> 8);
	cfg->stored[3] = (em_u8)y_res;
	cfg->stored[4] = (em_u8)(y_res >> 8);
	cfg->stored[5] = (em_u8)(touches & 0x0f);
	cfg->stored[6] = (em_u8)(0x0c | (trigger & 0x03));
	/* Some filler so that a checksum over zeros is not all there is. */
	for (i = 7; i + 3 < lay.config_len; i++)
		cfg->stored[i] = (em_u8)(i * 7 + version);
	cfg->stored[lay.config_len - 1] = 1;
	/* 1 in 257 GT1x configs has no self-consistent checksum: vary one
	 * filler byte until it has. */
	while (!goodix_model_fill_checksum(cfg->stored, lay.config_len, lay.csum))
		cfg->stored[7]++;
	cfg->stored_len = lay.config_len;
}

static em_u64 busy(const struct goodix_model *m, em_u64 ns)
{
	em_u32 f = m->cfg.faults.slow_factor;

	return ns * (f > 1 ? f : 1);
}

static em_u16 cfg_off(const struct goodix_model *m)
{
	return R(m->lay.config_addr);
}

/* ---------------------------------------------------------------- state */

static void show_active(struct goodix_model *m)
{
	if (m->active_valid)
		em_memcpy(m->regs + cfg_off(m), m->active, m->lay.config_len);
	else
		em_memset(m->regs + cfg_off(m), 0, m->lay.config_len);
}

static void raise_request(struct goodix_model *m, em_u8 rq)
{
	m->regs[R(GOODIX_MODEL_REG_REQUEST)] = rq;
	m->request_unread = true;
	m->stats.requests++;
}

/* The firmware starts: registers from scratch, config from flash. */
static void boot(struct goodix_model *m)
{
	em_memset(m->regs, 0, sizeof(m->regs));
	em_memcpy(m->regs + R(GOODIX_MODEL_REG_ID), m->cfg.id, 4);
	m->regs[R(GOODIX_MODEL_REG_ID) + 4] = (em_u8)m->cfg.fw_version;
	m->regs[R(GOODIX_MODEL_REG_ID) + 5] = (em_u8)(m->cfg.fw_version >> 8);
	m->active_valid = m->flash_valid;
	if (m->flash_valid)
		em_memcpy(m->active, m->flash, m->lay.config_len);
	else
		em_memset(m->active, 0, sizeof(m->active));
	show_active(m);
	m->request_unread = m->frame_unread = false;
	m->apply_at = EM_NEVER;
	m->ptr = 0;
	m->mode = GOODIX_MODE_RUN;
	if (!m->active_valid)
		raise_request(m, GOODIX_MODEL_RQST_CONFIG);
}

/* Address strap: INT level while RST goes high (goodix_reset_no_int_sync). */
static void latch_address(struct goodix_model *m)
{
	if (m->int_driven && !m->cfg.faults.fixed_address)
		m->addr = m->int_level ? GOODIX_MODEL_ADDR_HIGH : GOODIX_MODEL_ADDR_LOW;
	else
		m->addr = m->cfg.addr;
}

static void start_boot(struct goodix_model *m)
{
	latch_address(m);
	m->mode = GOODIX_MODE_RESET;
	m->apply_at = EM_NEVER;
	m->ready_at = m->now + busy(m, m->cfg.t.boot_ns);
	m->stats.resets++;
}

static void apply_pending(struct goodix_model *m)
{
	em_u16 len = m->lay.config_len;

	m->apply_at = EM_NEVER;
	em_memcpy(m->active, m->pending, len);
	if (m->active[0] == 0) {
		/* Version 0 forces the config in and becomes 'A'. */
		m->active[0] = VERSION_AFTER_ZERO;
		while (!goodix_model_fill_checksum(m->active, len, m->lay.csum))
			m->active[len - 4]++; /* our decision; see README */
	}
	m->active[len - 1] = 0; /* the fresh flag is consumed */
	m->active_valid = true;
	if (!m->cfg.faults.config_volatile) {
		em_memcpy(m->flash, m->active, len);
		m->flash_valid = true;
	}
	show_active(m);
	if (m->regs[R(GOODIX_MODEL_REG_REQUEST)] == GOODIX_MODEL_RQST_CONFIG) {
		m->regs[R(GOODIX_MODEL_REG_REQUEST)] = GOODIX_MODEL_RQST_RESPONDED;
		m->request_unread = false;
	}
	m->stats.configs_applied++;
}

/* STOP after a write that set the fresh byte: judge the config registers. */
static void judge_config(struct goodix_model *m)
{
	const em_u8 *c = m->regs + cfg_off(m);
	em_u16 len = m->lay.config_len;

	if (!goodix_model_checksum_ok(c, len, m->lay.csum)) {
		m->stats.configs_bad_checksum++;
		show_active(m);
		return;
	}
	if (m->active_valid && c[0] != 0 && c[0] < m->active[0]) {
		m->stats.configs_old_version++;
		show_active(m);
		return;
	}
	em_memcpy(m->pending, c, len);
	m->apply_at = m->now + busy(m, m->cfg.t.cfg_apply_ns);
}

/* ---------------------------------------------------------------- bus */

static bool answers(const struct goodix_model *m, em_u16 addr)
{
	return !m->cfg.faults.nak && m->mode == GOODIX_MODE_RUN && addr == m->addr;
}

static void write_reg(struct goodix_model *m, em_u16 a, em_u8 v)
{
	em_u16 o, co = cfg_off(m);

	if (a < GOODIX_MODEL_REG_BASE || a >= GOODIX_MODEL_REG_BASE + GOODIX_MODEL_REG_SPAN)
		return;
	o = R(a);
	if (o >= co && o < co + m->lay.config_len) {
		if (m->cfg.faults.refuse_config) {
			if (o == co + m->lay.config_len - 1 && v == 1)
				m->stats.configs_refused++;
			return;
		}
		m->regs[o] = v;
		if (o == co + m->lay.config_len - 1 && v == 1)
			m->fresh_written = true;
		return;
	}
	if (o >= R(GOODIX_MODEL_REG_ID) && o < R(GOODIX_MODEL_REG_ID) + ID_LEN)
		return; /* read-only */
	if (o > R(GOODIX_MODEL_REG_COOR) && o < R(GOODIX_MODEL_REG_COOR) + COOR_LEN)
		return; /* point data: read-only */
	if (o == R(GOODIX_MODEL_REG_COOR)) {
		m->regs[o] = v; /* the host writes 0 to release the buffer */
		if (!(v & 0x80))
			m->frame_unread = false;
		return;
	}
	if (o == R(GOODIX_MODEL_REG_COMMAND) && v == GOODIX_MODEL_CMD_SCREEN_OFF)
		m->sleep_cmd = true;
	m->regs[o] = v;
}

static int op_write(void *chip, em_u16 addr, const em_u8 *buf, em_u16 len)
{
	struct goodix_model *m = chip;
	em_u16 i, a;
	bool cfg = false;

	if (!answers(m, addr))
		return EM_NAK_ADDR;
	if (len < 2)
		return EM_ACK; /* a quick write or half an address: nothing */
	m->ptr = (em_u16)(buf[0] << 8 | buf[1]);
	for (i = 2, a = m->ptr; i < len; i++, a++) {
		if (a >= m->lay.config_addr && a < m->lay.config_addr + m->lay.config_len)
			cfg = true;
		write_reg(m, a, buf[i]);
	}
	if (cfg)
		m->stats.config_writes++;
	return EM_ACK;
}

static em_u8 read_reg(struct goodix_model *m, em_u16 a)
{
	em_u16 o, co = cfg_off(m), len = m->lay.config_len;
	em_u8 v;

	if (a < GOODIX_MODEL_REG_BASE || a >= GOODIX_MODEL_REG_BASE + GOODIX_MODEL_REG_SPAN)
		return 0;
	o = R(a);
	v = m->regs[o];
	if (m->cfg.faults.corrupt_readback && m->active_valid &&
	    o == co + len - (m->lay.csum == GOODIX_MODEL_CSUM_8 ? 2 : 3))
		v ^= 0x5a;
	if (o == R(GOODIX_MODEL_REG_REQUEST))
		m->request_unread = false;
	if (o == R(GOODIX_MODEL_REG_COOR) && m->frame_unread) {
		m->frame_unread = false; /* INT released; data stays until cleared */
		m->stats.touch_frames++;
	}
	return v;
}

static int op_read(void *chip, em_u16 addr, em_u8 *buf, em_u16 len)
{
	struct goodix_model *m = chip;
	em_u16 i;

	if (!answers(m, addr))
		return EM_NAK_ADDR;
	for (i = 0; i < len; i++)
		buf[i] = read_reg(m, (em_u16)(m->ptr + i));
	m->ptr = (em_u16)(m->ptr + len);
	return EM_ACK;
}

static void op_stop(void *chip)
{
	struct goodix_model *m = chip;

	if (m->fresh_written) {
		m->fresh_written = false;
		judge_config(m);
	}
	if (m->sleep_cmd) {
		m->sleep_cmd = false;
		m->mode = GOODIX_MODE_SLEEP;
		m->ready_at = EM_NEVER;
	}
}

/* ---------------------------------------------------------------- time */

static em_u64 next_event(const struct goodix_model *m)
{
	return m->ready_at < m->apply_at ? m->ready_at : m->apply_at;
}

static em_u64 op_next_event(const void *chip)
{
	return next_event(chip);
}

/* The event due at @t: the end of a reset or wake-up, or what is pending. */
static void run_event(void *chip, em_u64 t)
{
	struct goodix_model *m = chip;

	if (t == m->ready_at) {
		m->ready_at = EM_NEVER;
		if (m->mode == GOODIX_MODE_SLEEP)
			m->mode = GOODIX_MODE_RUN; /* state kept while asleep */
		else if (m->mode == GOODIX_MODE_RESET)
			boot(m);
		return;
	}
	apply_pending(m);
}

static void op_advance(void *chip, em_u64 now)
{
	struct goodix_model *m = chip;

	em_chip_run_until(m, &m->now, now, op_next_event, run_event);
}

static bool op_irq_asserted(const void *chip)
{
	const struct goodix_model *m = chip;

	return m->mode == GOODIX_MODE_RUN && (m->frame_unread || m->request_unread);
}

static void power_loss(struct goodix_model *m)
{
	m->mode = GOODIX_MODE_OFF;
	m->ready_at = m->apply_at = EM_NEVER;
	m->request_unread = m->frame_unread = false;
	m->fresh_written = m->sleep_cmd = false;
}

static void op_set_reset(void *chip, bool asserted)
{
	struct goodix_model *m = chip;

	if (asserted == m->reset_held)
		return;
	m->reset_held = asserted;
	if (!m->powered)
		return;
	if (asserted) {
		power_loss(m); /* everything volatile is gone */
		m->mode = GOODIX_MODE_RESET;
	} else {
		start_boot(m);
	}
}

static void op_set_power(void *chip, bool on)
{
	struct goodix_model *m = chip;

	if (on == m->powered)
		return;
	m->powered = on;
	power_loss(m);
	if (!on)
		return;
	m->mode = GOODIX_MODE_RESET;
	if (!m->reset_held)
		start_boot(m);
}

const struct em_chip_ops goodix_model_ops = {
	.name = "goodix",
	.write = op_write,
	.read = op_read,
	.stop = op_stop,
	.advance = op_advance,
	.next_event = op_next_event,
	.irq_asserted = op_irq_asserted,
	.set_reset = op_set_reset,
	.set_power = op_set_power,
};

/* ---------------------------------------------------------------- setup */

void goodix_model_init(struct goodix_model *m, const struct goodix_model_cfg *cfg, em_u64 now)
{
	em_memset(m, 0, sizeof(*m));
	em_memcpy(&m->cfg, cfg, sizeof(m->cfg));
	if (!m->cfg.t.boot_ns)
		m->cfg.t.boot_ns = DEF_BOOT_NS;
	if (!m->cfg.t.cfg_apply_ns)
		m->cfg.t.cfg_apply_ns = DEF_CFG_APPLY_NS;
	if (!m->cfg.t.wake_ns)
		m->cfg.t.wake_ns = DEF_WAKE_NS;
	if (m->cfg.addr != GOODIX_MODEL_ADDR_HIGH && m->cfg.addr != GOODIX_MODEL_ADDR_LOW)
		m->cfg.addr = GOODIX_MODEL_ADDR_LOW;
	goodix_model_layout_for(m->cfg.id, &m->lay);
	m->now = now;
	m->powered = true;
	m->ready_at = m->apply_at = EM_NEVER;
	/* Flash holds the stored config if it is whole and its checksum right. */
	m->flash_valid = cfg->stored_len >= m->lay.config_len &&
			 goodix_model_checksum_ok(cfg->stored, m->lay.config_len, m->lay.csum);
	em_memcpy(m->flash, cfg->stored, m->lay.config_len);
	if (m->flash_valid)
		m->flash[m->lay.config_len - 1] = 0;
	/* Powered at @now and already booted, at the strap address. */
	latch_address(m);
	boot(m);
}

void goodix_model_set_int(struct goodix_model *m, bool driven, bool level)
{
	bool rising = driven && level && !(m->int_driven && m->int_level);

	m->int_driven = driven;
	m->int_level = driven && level;
	/* A sleeping chip wakes on INT driven high (goodix_resume). */
	if (rising && m->mode == GOODIX_MODE_SLEEP && m->ready_at == EM_NEVER)
		m->ready_at = m->now + busy(m, m->cfg.t.wake_ns);
}

bool goodix_model_int_level(const struct goodix_model *m)
{
	em_u8 trig = m->active_valid ? (em_u8)(m->active[6] & 3) : 1;
	bool active_high = trig == 0 || trig == 3;

	if (m->int_driven)
		return m->int_level;
	return op_irq_asserted(m) ? active_high : !active_high;
}

void goodix_model_touch(struct goodix_model *m, const struct goodix_model_point *pts, em_u8 n)
{
	em_u8 *s = m->regs + R(GOODIX_MODEL_REG_COOR);
	em_u8 i;

	if (m->mode != GOODIX_MODE_RUN)
		return;
	if (n > GOODIX_MODEL_MAX_POINTS)
		n = GOODIX_MODEL_MAX_POINTS;
	em_memset(s, 0, COOR_LEN);
	s[0] = (em_u8)(0x80 | n);
	for (i = 0; i < n; i++) {
		em_u8 *p = s + 1 + i * GOODIX_MODEL_POINT_SIZE;

		p[0] = pts[i].id;
		p[1] = (em_u8)pts[i].x;
		p[2] = (em_u8)(pts[i].x >> 8);
		p[3] = (em_u8)pts[i].y;
		p[4] = (em_u8)(pts[i].y >> 8);
		p[5] = (em_u8)pts[i].w;
		p[6] = (em_u8)(pts[i].w >> 8);
	}
	m->frame_unread = true;
}

/* ---------------------------------------------------------------- inspection */

enum goodix_model_mode goodix_model_mode(const struct goodix_model *m)
{
	return m->mode;
}

em_u16 goodix_model_addr(const struct goodix_model *m)
{
	return m->addr;
}

const struct goodix_model_layout *goodix_model_layout(const struct goodix_model *m)
{
	return &m->lay;
}

bool goodix_model_active_config(const struct goodix_model *m, const em_u8 **cfg)
{
	*cfg = m->active;
	return m->active_valid;
}

bool goodix_model_flash_config(const struct goodix_model *m, const em_u8 **cfg)
{
	*cfg = m->flash;
	return m->flash_valid;
}

em_u8 goodix_model_request(const struct goodix_model *m)
{
	return m->regs[R(GOODIX_MODEL_REG_REQUEST)];
}

const struct goodix_model_stats *goodix_model_stats(const struct goodix_model *m)
{
	return &m->stats;
}

struct goodix_model_faults *goodix_model_faults(struct goodix_model *m)
{
	return &m->cfg.faults;
}
