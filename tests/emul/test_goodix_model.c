// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Goodix GT9xx / GT1x chip model's own tests.  The sequences are the
 * ones goodix.c sends (goodix_i2c_read/_write, goodix_reset_no_int_sync,
 * goodix_send_cfg), and the checksums are computed here by hand from
 * goodix_check_cfg_8 / _16, independently of the model's helpers, so the
 * model is judged against the documented protocol and not against itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "em_bus.h"
#include "goodix_model.h"

#define MS EM_NSEC_PER_MSEC

struct rig {
	struct em_bus bus;
	struct goodix_model chip;
	uint16_t addr;
};

/* Our own checksums, written from goodix.c, not from the model. */
static void csum8(uint8_t *c, int len)
{
	uint8_t s = 0;
	int i;

	for (i = 0; i < len - 2; i++)
		s += c[i];
	c[len - 2] = (uint8_t)(~s + 1);
}

/*
 * goodix_check_cfg_16 sums the BE16 words at even offsets below len-3; with
 * len 240 the last one is (236, 237), so byte 237, the checksum's high
 * byte, is summed too.  Search for a high byte that agrees with itself.
 */
static bool csum16(uint8_t *c, int len)
{
	int hi, i;

	for (hi = 0; hi < 256; hi++) {
		uint16_t s = 0;

		c[len - 3] = (uint8_t)hi;
		for (i = 0; i < len - 3; i += 2)
			s += (uint16_t)(c[i] << 8 | c[i + 1]);
		s = (uint16_t)(~s + 1);
		if (s >> 8 == hi) {
			c[len - 2] = (uint8_t)s;
			return true;
		}
	}
	return false;
}

static bool check16(const uint8_t *c, int len)
{
	uint16_t s = 0;
	int i;

	for (i = 0; i < len - 3; i += 2)
		s += (uint16_t)(c[i] << 8 | c[i + 1]);
	return (uint16_t)(~s + 1) == (uint16_t)(c[len - 3] << 8 | c[len - 2]);
}

/* A config of @len bytes: version, resolution, 5 touches, falling edge. */
static void mkcfg(uint8_t *c, int len, bool gt1x, uint8_t ver, uint16_t x, uint16_t y)
{
	int i;

	memset(c, 0, 240);
	for (i = 7; i < len - 3; i++)
		c[i] = (uint8_t)(i ^ 0x5a);
	c[0] = ver;
	c[1] = (uint8_t)x;
	c[2] = (uint8_t)(x >> 8);
	c[3] = (uint8_t)y;
	c[4] = (uint8_t)(y >> 8);
	c[5] = 5;
	c[6] = 0x0d; /* trigger 1: falling */
	c[len - 1] = 1;
	if (!gt1x)
		csum8(c, len);
	else
		while (!csum16(c, len))
			c[7]++;
}

static void set_id(struct goodix_model_cfg *cfg, const char *id)
{
	memset(cfg->id, 0, sizeof(cfg->id));
	memcpy(cfg->id, id, strlen(id) > 4 ? 4 : strlen(id));
}

static struct rig *rig_new(const char *id, const uint8_t *stored, int stored_len,
			   void (*tweak)(struct goodix_model_cfg *))
{
	struct rig *r = calloc(1, sizeof(*r));
	struct goodix_model_cfg cfg;

	assert_non_null(r);
	memset(&cfg, 0, sizeof(cfg));
	set_id(&cfg, id);
	cfg.fw_version = 0x1060;
	cfg.addr = 0x5d;
	if (stored) {
		memcpy(cfg.stored, stored, (size_t)stored_len);
		cfg.stored_len = (em_u16)stored_len;
	}
	if (tweak)
		tweak(&cfg);
	em_bus_init(&r->bus, 400000);
	goodix_model_init(&r->chip, &cfg, 0);
	assert_int_equal(em_bus_add_chip(&r->bus, &goodix_model_ops, &r->chip), 0);
	r->addr = cfg.addr;
	return r;
}

/* goodix_i2c_read: BE16 register, then a read, one transaction. */
static int reg_read(struct rig *r, uint16_t reg, uint8_t *buf, uint16_t len)
{
	uint8_t p[2] = { (uint8_t)(reg >> 8), (uint8_t)reg };
	struct em_msg m[2] = { { r->addr, 0, 2, p }, { r->addr, EM_MSG_RD, len, buf } };

	return em_bus_transfer(&r->bus, m, 2);
}

/* goodix_i2c_write: BE16 register + data in one message. */
static int reg_write(struct rig *r, uint16_t reg, const uint8_t *val, uint16_t len)
{
	uint8_t buf[300];
	struct em_msg m = { r->addr, 0, (uint16_t)(len + 2), buf };

	buf[0] = (uint8_t)(reg >> 8);
	buf[1] = (uint8_t)reg;
	memcpy(buf + 2, val, len);
	return em_bus_transfer(&r->bus, &m, 1);
}

static void advance_ms(struct rig *r, uint64_t ms)
{
	em_bus_advance(&r->bus, r->bus.now_ns + ms * MS);
}

/* goodix_send_cfg: the config in one write, then 10 ms. */
static void send_cfg(struct rig *r, uint16_t reg, const uint8_t *c, uint16_t len)
{
	assert_int_equal(reg_write(r, reg, c, len), 1);
	advance_ms(r, 10);
}

static void read_cfg(struct rig *r, uint16_t reg, uint8_t *out, uint16_t len)
{
	assert_int_equal(reg_read(r, reg, out, len), 2);
}

/* ---------------------------------------------------------------- layout */

static void test_layout_every_id(void **state)
{
	static const struct {
		const char *id;
		uint16_t addr, len;
		int csum;
	} t[] = {
		{ "911", 0x8047, 186, 8 },   { "9271", 0x8047, 186, 8 },
		{ "9110", 0x8047, 186, 8 },  { "9111", 0x8047, 186, 8 },
		{ "927", 0x8047, 186, 8 },   { "928", 0x8047, 186, 8 },
		{ "912", 0x8047, 228, 8 },   { "9147", 0x8047, 228, 8 },
		{ "967", 0x8047, 228, 8 },   { "915", 0x8047, 240, 8 },
		{ "9157", 0x8047, 240, 8 },  { "970", 0x8047, 240, 8 },
		{ "1151", 0x8050, 240, 16 }, { "1158", 0x8050, 240, 16 },
		{ "5663", 0x8050, 240, 16 }, { "5688", 0x8050, 240, 16 },
		{ "917S", 0x8050, 240, 16 }, { "9286", 0x8050, 240, 16 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct goodix_model_layout lay;
		char id[4] = { 0 };

		memcpy(id, t[i].id, strlen(t[i].id));
		goodix_model_layout_for(id, &lay);
		assert_int_equal(lay.config_addr, t[i].addr);
		assert_int_equal(lay.config_len, t[i].len);
		assert_int_equal(lay.csum,
				 t[i].csum == 8 ? GOODIX_MODEL_CSUM_8 : GOODIX_MODEL_CSUM_16);
	}
}

static void test_id_and_version(void **state)
{
	uint8_t c[240], b[6];
	struct rig *r;

	(void)state;
	mkcfg(c, 240, true, 0x42, 1280, 800);
	r = rig_new("917S", c, 240, NULL);
	assert_int_equal(reg_read(r, 0x8140, b, 6), 2);
	assert_memory_equal(b, "917S", 4);
	assert_int_equal(b[4] | b[5] << 8, 0x1060); /* LE16 */
	/* The id area is read-only. */
	assert_int_equal(reg_write(r, 0x8140, (const uint8_t *)"1234", 4), 1);
	assert_int_equal(reg_read(r, 0x8140, b, 4), 2);
	assert_memory_equal(b, "917S", 4);
	free(r);
}

/* ------------------------------------------------------- config classes */

/* Stored config reads back, a newer one is applied and stored. */
static void config_class(const char *id, uint16_t reg, int len, bool gt1x)
{
	uint8_t old[240], nw[240], b[240];
	const uint8_t *fl;
	struct rig *r;

	mkcfg(old, len, gt1x, 0x41, 800, 480);
	r = rig_new(id, old, len, NULL);
	read_cfg(r, reg, b, (uint16_t)len);
	/* As stored; the fresh flag is not kept in flash. */
	assert_memory_equal(b, old, (size_t)len - 1);
	assert_int_equal(b[len - 1], 0);

	mkcfg(nw, len, gt1x, 0x42, 1024, 600);
	assert_int_equal(reg_write(r, reg, nw, (uint16_t)len), 1);
	/* Not yet applied: the old config is still active. */
	assert_true(goodix_model_active_config(&r->chip, &fl));
	assert_int_equal(fl[1] | fl[2] << 8, 800);
	advance_ms(r, 10);
	read_cfg(r, reg, b, (uint16_t)len);
	assert_memory_equal(b, nw, (size_t)len - 1);
	assert_int_equal(b[len - 1], 0);
	assert_true(goodix_model_flash_config(&r->chip, &fl));
	assert_memory_equal(fl, nw, (size_t)len - 1);
	assert_int_equal(goodix_model_stats(&r->chip)->configs_applied, 1);
	free(r);
}

static void test_config_186(void **state)
{
	(void)state;
	config_class("911", 0x8047, 186, false);
	config_class("928", 0x8047, 186, false);
}

static void test_config_228(void **state)
{
	(void)state;
	config_class("967", 0x8047, 228, false);
	config_class("9147", 0x8047, 228, false);
}

static void test_config_240_gt9x(void **state)
{
	(void)state;
	config_class("9157", 0x8047, 240, false);
}

static void test_config_240_gt1x(void **state)
{
	(void)state;
	config_class("1151", 0x8050, 240, true);
	config_class("5688", 0x8050, 240, true);
}

/* A bad checksum is ignored and the registers return to the active config. */
static void bad_checksum(const char *id, uint16_t reg, int len, bool gt1x)
{
	uint8_t old[240], nw[240], b[240];
	struct rig *r;

	mkcfg(old, len, gt1x, 0x41, 800, 480);
	r = rig_new(id, old, len, NULL);
	mkcfg(nw, len, gt1x, 0x42, 1024, 600);
	nw[len - 2] ^= 0x01;
	send_cfg(r, reg, nw, (uint16_t)len);
	read_cfg(r, reg, b, (uint16_t)len);
	assert_memory_equal(b, old, (size_t)len - 1);
	assert_int_equal(goodix_model_stats(&r->chip)->configs_bad_checksum, 1);
	assert_int_equal(goodix_model_stats(&r->chip)->configs_applied, 0);
	free(r);
}

static void test_bad_checksum_8(void **state)
{
	(void)state;
	bad_checksum("911", 0x8047, 186, false);
	bad_checksum("967", 0x8047, 228, false);
}

static void test_bad_checksum_16(void **state)
{
	(void)state;
	bad_checksum("1158", 0x8050, 240, true);
}

/* Each family checks its own kind: the other kind's checksum is wrong. */
static void test_checksum_kind_is_the_chips(void **state)
{
	uint8_t old[240], c8[240], c16[240], t[240], b[240];
	struct rig *r;

	(void)state;
	mkcfg(old, 240, true, 0x41, 800, 480);
	r = rig_new("5663", old, 240, NULL);
	mkcfg(c8, 240, false, 0x42, 1024, 600);
	assert_false(check16(c8, 240)); /* wrong for GT1x */
	send_cfg(r, 0x8050, c8, 240);
	assert_int_equal(goodix_model_stats(&r->chip)->configs_bad_checksum, 1);
	mkcfg(c16, 240, true, 0x42, 1024, 600);
	send_cfg(r, 0x8050, c16, 240);
	read_cfg(r, 0x8050, b, 240);
	assert_int_equal(b[1] | b[2] << 8, 1024);
	free(r);

	mkcfg(old, 240, false, 0x41, 800, 480);
	r = rig_new("9157", old, 240, NULL);
	mkcfg(c16, 240, true, 0x42, 1024, 600);
	memcpy(t, c16, 240);
	csum8(t, 240);
	assert_int_not_equal(t[238], c16[238]); /* wrong for GT9x */
	send_cfg(r, 0x8047, c16, 240);
	assert_int_equal(goodix_model_stats(&r->chip)->configs_bad_checksum, 1);
	assert_int_equal(goodix_model_stats(&r->chip)->configs_applied, 0);
	free(r);
}

/* Without the fresh byte the chip does not take the config. */
static void test_fresh_flag_required(void **state)
{
	uint8_t old[240], nw[240];
	const uint8_t *a;
	struct rig *r;

	(void)state;
	mkcfg(old, 186, false, 0x41, 800, 480);
	r = rig_new("911", old, 186, NULL);
	mkcfg(nw, 186, false, 0x42, 1024, 600);
	nw[185] = 0;
	send_cfg(r, 0x8047, nw, 186);
	assert_true(goodix_model_active_config(&r->chip, &a));
	assert_int_equal(a[0], 0x41);
	assert_int_equal(goodix_model_stats(&r->chip)->configs_applied, 0);
	assert_int_equal(goodix_model_stats(&r->chip)->configs_bad_checksum, 0);
	/* Setting the fresh byte afterwards, alone, makes it take them. */
	nw[185] = 1;
	send_cfg(r, 0x8047 + 185, nw + 185, 1);
	assert_true(goodix_model_active_config(&r->chip, &a));
	assert_int_equal(a[0], 0x42);
	free(r);
}

/* A config written for another length class never sets our fresh byte. */
static void test_wrong_length_not_taken(void **state)
{
	uint8_t old[240], nw[240];
	const uint8_t *a;
	struct rig *r;

	(void)state;
	mkcfg(old, 186, false, 0x41, 800, 480);
	r = rig_new("911", old, 186, NULL);
	mkcfg(nw, 240, false, 0x42, 1024, 600);
	nw[185] = 0x33;
	send_cfg(r, 0x8047, nw, 240);
	assert_true(goodix_model_active_config(&r->chip, &a));
	assert_int_equal(a[0], 0x41);
	assert_int_equal(goodix_model_stats(&r->chip)->configs_applied, 0);
	free(r);
}

static void test_version_rules(void **state)
{
	uint8_t old[240], nw[240], b[240];
	struct rig *r;

	(void)state;
	mkcfg(old, 186, false, 0x50, 800, 480);
	r = rig_new("911", old, 186, NULL);
	/* Lower: ignored. */
	mkcfg(nw, 186, false, 0x4f, 1024, 600);
	send_cfg(r, 0x8047, nw, 186);
	read_cfg(r, 0x8047, b, 186);
	assert_int_equal(b[0], 0x50);
	assert_int_equal(b[1] | b[2] << 8, 800);
	assert_int_equal(goodix_model_stats(&r->chip)->configs_old_version, 1);
	/* Equal: taken. */
	mkcfg(nw, 186, false, 0x50, 1024, 600);
	send_cfg(r, 0x8047, nw, 186);
	read_cfg(r, 0x8047, b, 186);
	assert_int_equal(b[1] | b[2] << 8, 1024);
	/* 0: forced in, stored as 'A' with its checksum recomputed. */
	mkcfg(nw, 186, false, 0x00, 480, 272);
	send_cfg(r, 0x8047, nw, 186);
	read_cfg(r, 0x8047, b, 186);
	assert_int_equal(b[0], 0x41);
	assert_int_equal(b[1] | b[2] << 8, 480);
	b[185] = 1;
	memcpy(nw, b, 186);
	csum8(nw, 186);
	assert_int_equal(b[184], nw[184]);
	assert_int_equal(goodix_model_stats(&r->chip)->configs_applied, 2);
	free(r);
}

/* ------------------------------------------------ missing/invalid config */

static void no_config(struct rig *r, uint16_t reg, int len, bool gt1x)
{
	uint8_t b[240], z[240] = { 0 }, rq, nw[240];
	const uint8_t *a;

	read_cfg(r, reg, b, (uint16_t)len);
	assert_memory_equal(b, z, (size_t)len);
	assert_false(goodix_model_active_config(&r->chip, &a));
	/* The chip asks the host for a config, with INT. */
	assert_true(goodix_model_ops.irq_asserted(&r->chip));
	assert_int_equal(reg_read(r, 0x8043, &rq, 1), 2);
	assert_int_equal(rq, 0x01);
	assert_false(goodix_model_ops.irq_asserted(&r->chip));
	/* Any valid config is taken, whatever its version. */
	mkcfg(nw, len, gt1x, 0x01, 720, 1280);
	send_cfg(r, reg, nw, (uint16_t)len);
	read_cfg(r, reg, b, (uint16_t)len);
	assert_int_equal(b[3] | b[4] << 8, 1280);
	assert_int_equal(reg_read(r, 0x8043, &rq, 1), 2);
	assert_int_equal(rq, 0x00);
	assert_true(goodix_model_flash_config(&r->chip, &a));
}

static void test_missing_config(void **state)
{
	struct rig *r;

	(void)state;
	r = rig_new("911", NULL, 0, NULL);
	no_config(r, 0x8047, 186, false);
	free(r);
	r = rig_new("1151", NULL, 0, NULL);
	no_config(r, 0x8050, 240, true);
	free(r);
}

static void test_invalid_stored_config(void **state)
{
	uint8_t c[240];
	struct rig *r;

	(void)state;
	mkcfg(c, 228, false, 0x41, 800, 480);
	c[10] ^= 0xff; /* checksum no longer right */
	r = rig_new("967", c, 228, NULL);
	no_config(r, 0x8047, 228, false);
	free(r);
	/* A stored config shorter than the chip's length counts as missing. */
	mkcfg(c, 186, false, 0x41, 800, 480);
	r = rig_new("967", c, 186, NULL);
	no_config(r, 0x8047, 228, false);
	free(r);
}

/* --------------------------------------------------------- reset, address */

/* goodix_reset_no_int_sync + goodix_int_sync with INT at @int_high. */
static void kernel_reset(struct rig *r, int int_drive)
{
	goodix_model_ops.set_reset(&r->chip, true);
	advance_ms(r, 20);
	if (int_drive >= 0)
		goodix_model_set_int(&r->chip, true, int_drive != 0);
	advance_ms(r, 1);
	goodix_model_ops.set_reset(&r->chip, false);
	advance_ms(r, 6);
	goodix_model_set_int(&r->chip, true, false); /* int_sync: low 50 ms */
	advance_ms(r, 50);
	goodix_model_set_int(&r->chip, false, false);
}

static bool answers_at(struct rig *r, uint16_t addr)
{
	uint8_t b;
	uint16_t save = r->addr;
	int ret;

	r->addr = addr;
	ret = reg_read(r, 0x8140, &b, 1);
	r->addr = save;
	return ret == 2;
}

static void test_address_by_int(void **state)
{
	uint8_t c[240];
	struct rig *r;

	(void)state;
	mkcfg(c, 186, false, 0x41, 800, 480);
	r = rig_new("911", c, 186, NULL);
	assert_true(answers_at(r, 0x5d));
	assert_false(answers_at(r, 0x14));
	kernel_reset(r, 1);
	assert_int_equal(goodix_model_addr(&r->chip), 0x14);
	assert_true(answers_at(r, 0x14));
	assert_false(answers_at(r, 0x5d));
	kernel_reset(r, 0);
	assert_true(answers_at(r, 0x5d));
	assert_false(answers_at(r, 0x14));
	/* INT not driven: the strap address. */
	kernel_reset(r, 1);
	kernel_reset(r, -1);
	assert_true(answers_at(r, 0x5d));
	assert_int_equal(goodix_model_stats(&r->chip)->resets, 4);
	free(r);
}

static void strap_14(struct goodix_model_cfg *c)
{
	c->addr = 0x14;
}

static void fixed_addr(struct goodix_model_cfg *c)
{
	c->addr = 0x14;
	c->faults.fixed_address = true;
}

static void test_address_strap_and_fixed(void **state)
{
	struct rig *r;

	(void)state;
	r = rig_new("911", NULL, 0, strap_14);
	assert_true(answers_at(r, 0x14));
	kernel_reset(r, 0);
	assert_true(answers_at(r, 0x5d));
	free(r);
	r = rig_new("911", NULL, 0, fixed_addr);
	kernel_reset(r, 0);
	assert_true(answers_at(r, 0x14));
	assert_false(answers_at(r, 0x5d));
	free(r);
}

static void test_reset_timing(void **state)
{
	struct rig *r;

	(void)state;
	r = rig_new("911", NULL, 0, NULL);
	goodix_model_ops.set_reset(&r->chip, true);
	assert_false(answers_at(r, 0x5d));
	goodix_model_ops.set_reset(&r->chip, false);
	assert_int_equal(goodix_model_mode(&r->chip), GOODIX_MODE_RESET);
	assert_false(answers_at(r, 0x5d));
	assert_true(em_bus_next_event(&r->bus) != EM_NEVER);
	em_bus_advance(&r->bus, em_bus_next_event(&r->bus));
	assert_true(answers_at(r, 0x5d));
	/* Power: off NAKs, on boots again. */
	goodix_model_ops.set_power(&r->chip, false);
	assert_false(answers_at(r, 0x5d));
	goodix_model_ops.set_power(&r->chip, true);
	assert_false(answers_at(r, 0x5d));
	advance_ms(r, 20);
	assert_true(answers_at(r, 0x5d));
	free(r);
}

static void test_config_kept_across_reset(void **state)
{
	uint8_t c[240], b[240];
	struct rig *r;

	(void)state;
	mkcfg(c, 186, false, 0x41, 800, 480);
	r = rig_new("911", c, 186, NULL);
	mkcfg(c, 186, false, 0x43, 1280, 720);
	send_cfg(r, 0x8047, c, 186);
	goodix_model_ops.set_power(&r->chip, false);
	goodix_model_ops.set_power(&r->chip, true);
	advance_ms(r, 20);
	read_cfg(r, 0x8047, b, 186);
	assert_int_equal(b[0], 0x43);
	assert_int_equal(b[1] | b[2] << 8, 1280);
	free(r);
}

/* ------------------------------------------------------------------ faults */

static void f_volatile(struct goodix_model_cfg *c)
{
	c->faults.config_volatile = true;
}

static void test_fault_config_volatile(void **state)
{
	uint8_t c[240], b[240];
	struct rig *r;

	(void)state;
	mkcfg(c, 186, false, 0x41, 800, 480);
	r = rig_new("911", c, 186, f_volatile);
	mkcfg(c, 186, false, 0x43, 1280, 720);
	send_cfg(r, 0x8047, c, 186);
	read_cfg(r, 0x8047, b, 186);
	assert_int_equal(b[0], 0x43); /* in use ... */
	kernel_reset(r, 0);
	read_cfg(r, 0x8047, b, 186);
	assert_int_equal(b[0], 0x41); /* ... but not stored */
	free(r);
}

static void f_refuse(struct goodix_model_cfg *c)
{
	c->faults.refuse_config = true;
}

static void test_fault_refuse_config(void **state)
{
	uint8_t c[240], b[240];
	struct rig *r;

	(void)state;
	mkcfg(c, 186, false, 0x41, 800, 480);
	r = rig_new("911", c, 186, f_refuse);
	mkcfg(c, 186, false, 0x43, 1280, 720);
	send_cfg(r, 0x8047, c, 186); /* acknowledged on the bus ... */
	read_cfg(r, 0x8047, b, 186);
	assert_int_equal(b[0], 0x41); /* ... and ignored */
	assert_int_equal(b[1] | b[2] << 8, 800);
	assert_int_equal(goodix_model_stats(&r->chip)->configs_refused, 1);
	assert_int_equal(goodix_model_stats(&r->chip)->configs_applied, 0);
	free(r);
}

static void f_nak(struct goodix_model_cfg *c)
{
	c->faults.nak = true;
}

static void test_fault_nak(void **state)
{
	uint8_t b[6];
	struct rig *r;

	(void)state;
	r = rig_new("911", NULL, 0, f_nak);
	assert_int_equal(reg_read(r, 0x8140, b, 6), EM_XFER_NAK_ADDR);
	assert_int_equal(r->bus.count.naks, 1);
	/* Cleared at run time: the chip answers. */
	goodix_model_faults(&r->chip)->nak = false;
	assert_int_equal(reg_read(r, 0x8140, b, 6), 2);
	free(r);
}

static void f_corrupt(struct goodix_model_cfg *c)
{
	c->faults.corrupt_readback = true;
}

static void test_fault_corrupt_readback(void **state)
{
	uint8_t c[240], b[240];
	struct rig *r;

	(void)state;
	mkcfg(c, 240, true, 0x41, 800, 480);
	r = rig_new("9286", c, 240, f_corrupt);
	read_cfg(r, 0x8050, b, 240);
	assert_memory_equal(b, c, 237);
	assert_int_not_equal(b[237], c[237]); /* BE16 checksum high byte */
	assert_int_equal(b[238], c[238]);
	free(r);
}

static void f_slow(struct goodix_model_cfg *c)
{
	c->faults.slow_factor = 10;
}

static void test_fault_slow(void **state)
{
	uint8_t c[240];
	const uint8_t *a;
	struct rig *r;

	(void)state;
	mkcfg(c, 186, false, 0x41, 800, 480);
	r = rig_new("911", c, 186, f_slow);
	mkcfg(c, 186, false, 0x42, 1280, 720);
	send_cfg(r, 0x8047, c, 186); /* 10 ms: not enough at 10 x 5 ms */
	assert_true(goodix_model_active_config(&r->chip, &a));
	assert_int_equal(a[0], 0x41);
	advance_ms(r, 45);
	assert_true(goodix_model_active_config(&r->chip, &a));
	assert_int_equal(a[0], 0x42);
	free(r);
}

/* -------------------------------------------------------------- touches */

static void test_coordinates(void **state)
{
	struct goodix_model_point p[2] = { { 0, 100, 200, 30 }, { 1, 700, 400, 25 } };
	uint8_t c[240], b[1 + 8 + 1], rest[8], zero = 0;
	struct rig *r;

	(void)state;
	mkcfg(c, 186, false, 0x41, 800, 480);
	r = rig_new("911", c, 186, NULL);
	assert_false(goodix_model_ops.irq_asserted(&r->chip));
	goodix_model_touch(&r->chip, p, 2);
	assert_true(goodix_model_ops.irq_asserted(&r->chip));
	/* goodix_ts_read_input_report: header + one contact + key byte ... */
	assert_int_equal(reg_read(r, 0x814e, b, sizeof(b)), 2);
	assert_int_equal(b[0], 0x82);
	assert_int_equal(b[1], 0);
	assert_int_equal(b[2] | b[3] << 8, 100);
	assert_int_equal(b[4] | b[5] << 8, 200);
	assert_int_equal(b[6] | b[7] << 8, 30);
	/* ... whose last byte is the second contact's id when there are
	 * more; the rest follows from 0x814e + 10, 8 bytes per contact. */
	assert_int_equal(b[9], 1);
	assert_int_equal(reg_read(r, 0x814e + 10, rest, 8), 2);
	assert_int_equal(rest[0] | rest[1] << 8, 700);
	assert_int_equal(rest[2] | rest[3] << 8, 400);
	assert_int_equal(rest[4] | rest[5] << 8, 25);
	assert_false(goodix_model_ops.irq_asserted(&r->chip));
	assert_int_equal(goodix_model_stats(&r->chip)->touch_frames, 1);
	/* The host releases the buffer. */
	assert_int_equal(reg_write(r, 0x814e, &zero, 1), 1);
	assert_int_equal(reg_read(r, 0x814e, b, 1), 2);
	assert_int_equal(b[0], 0);
	free(r);
}

static void test_int_level_by_trigger(void **state)
{
	struct goodix_model_point p = { 0, 1, 1, 1 };
	uint8_t c[240];
	int trig;

	(void)state;
	for (trig = 0; trig < 4; trig++) {
		struct rig *r;
		bool high = trig == 0 || trig == 3;

		mkcfg(c, 186, false, 0x41, 800, 480);
		c[6] = (uint8_t)(0x0c | trig);
		csum8(c, 186);
		r = rig_new("911", c, 186, NULL);
		assert_int_equal(goodix_model_int_level(&r->chip), !high);
		goodix_model_touch(&r->chip, &p, 1);
		assert_int_equal(goodix_model_int_level(&r->chip), high);
		/* A host driving INT wins. */
		goodix_model_set_int(&r->chip, true, !high);
		assert_int_equal(goodix_model_int_level(&r->chip), !high);
		free(r);
	}
}

static void test_screen_off_and_wake(void **state)
{
	uint8_t off = 0x05;
	struct rig *r;

	(void)state;
	r = rig_new("911", NULL, 0, NULL);
	assert_int_equal(reg_write(r, 0x8040, &off, 1), 1);
	assert_int_equal(goodix_model_mode(&r->chip), GOODIX_MODE_SLEEP);
	assert_false(answers_at(r, 0x5d));
	/* goodix_resume: INT high 2..5 ms, then int_sync. */
	goodix_model_set_int(&r->chip, true, true);
	advance_ms(r, 2);
	goodix_model_set_int(&r->chip, true, false);
	advance_ms(r, 50);
	goodix_model_set_int(&r->chip, false, false);
	assert_true(answers_at(r, 0x5d));
	assert_int_equal(goodix_model_addr(&r->chip), 0x5d);
	free(r);
}

/* ------------------------------------------------------------- bus time */

static void test_bus_counts_and_time(void **state)
{
	uint8_t c[240], b[186];
	struct rig *r;

	(void)state;
	mkcfg(c, 186, false, 0x41, 800, 480);
	r = rig_new("911", c, 186, NULL);
	mkcfg(c, 186, false, 0x42, 800, 480);
	assert_int_equal(reg_write(r, 0x8047, c, 186), 1);
	/* START + address + 188 bytes, 9 bits each, + STOP at 400 kHz. */
	assert_int_equal(r->bus.count.bus_ns, (1 + 9 + 188 * 9 + 1) * 2500ULL);
	assert_int_equal(r->bus.count.bytes_written, 188);
	read_cfg(r, 0x8047, b, 186);
	assert_int_equal(r->bus.count.transactions, 2);
	assert_int_equal(r->bus.count.messages, 3);
	assert_int_equal(r->bus.count.bytes_read, 186);
	assert_int_equal(goodix_model_stats(&r->chip)->config_writes, 1);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_every_id),
		cmocka_unit_test(test_id_and_version),
		cmocka_unit_test(test_config_186),
		cmocka_unit_test(test_config_228),
		cmocka_unit_test(test_config_240_gt9x),
		cmocka_unit_test(test_config_240_gt1x),
		cmocka_unit_test(test_bad_checksum_8),
		cmocka_unit_test(test_bad_checksum_16),
		cmocka_unit_test(test_checksum_kind_is_the_chips),
		cmocka_unit_test(test_fresh_flag_required),
		cmocka_unit_test(test_wrong_length_not_taken),
		cmocka_unit_test(test_version_rules),
		cmocka_unit_test(test_missing_config),
		cmocka_unit_test(test_invalid_stored_config),
		cmocka_unit_test(test_address_by_int),
		cmocka_unit_test(test_address_strap_and_fixed),
		cmocka_unit_test(test_reset_timing),
		cmocka_unit_test(test_config_kept_across_reset),
		cmocka_unit_test(test_fault_config_volatile),
		cmocka_unit_test(test_fault_refuse_config),
		cmocka_unit_test(test_fault_nak),
		cmocka_unit_test(test_fault_corrupt_readback),
		cmocka_unit_test(test_fault_slow),
		cmocka_unit_test(test_coordinates),
		cmocka_unit_test(test_int_level_by_trigger),
		cmocka_unit_test(test_screen_off_and_wake),
		cmocka_unit_test(test_bus_counts_and_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
