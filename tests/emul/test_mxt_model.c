// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The maXTouch chip model's own tests.  Every sequence here is written by
 * hand from atmel_mxt_ts.c (Linux 6.1), independently of the
 * agent, so that the model (and through it the agent) is judged against the
 * documented protocol, not against itself.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "em_bus.h"
#include "mxt_image.h"
#include "mxt_model.h"

struct rig {
	struct em_bus bus;
	struct mxt_model chip;
};

static struct rig *rig_new(const char *preset, void (*tweak)(struct mxt_model_cfg *))
{
	struct rig *r = calloc(1, sizeof(*r));
	struct mxt_model_cfg cfg;

	assert_non_null(r);
	assert_true(mxt_model_preset(preset, &cfg));
	if (tweak)
		tweak(&cfg);
	em_bus_init(&r->bus, 400000);
	mxt_model_init(&r->chip, &cfg, 0);
	assert_int_equal(em_bus_add_chip(&r->bus, &mxt_model_ops, &r->chip), 0);
	return r;
}

static int wr(struct rig *r, uint16_t addr, const uint8_t *buf, uint16_t len)
{
	struct em_msg m = { addr, 0, len, (uint8_t *)buf };

	return em_bus_transfer(&r->bus, &m, 1);
}

static int rd(struct rig *r, uint16_t addr, uint8_t *buf, uint16_t len)
{
	struct em_msg m = { addr, EM_MSG_RD, len, buf };

	return em_bus_transfer(&r->bus, &m, 1);
}

/* Register read the way atmel's __mxt_read_reg does: LE16 pointer + read. */
static int reg_read(struct rig *r, uint16_t reg, uint8_t *buf, uint16_t len)
{
	uint8_t p[2] = { (uint8_t)reg, (uint8_t)(reg >> 8) };
	struct em_msg m[2] = { { 0x4a, 0, 2, p }, { 0x4a, EM_MSG_RD, len, buf } };

	return em_bus_transfer(&r->bus, m, 2);
}

static int reg_write(struct rig *r, uint16_t reg, const uint8_t *val, uint16_t len)
{
	uint8_t buf[300];

	buf[0] = (uint8_t)reg;
	buf[1] = (uint8_t)(reg >> 8);
	memcpy(buf + 2, val, len);
	return wr(r, 0x4a, buf, (uint16_t)(len + 2));
}

static void advance_ms(struct rig *r, uint64_t ms)
{
	em_bus_advance(&r->bus, r->bus.now_ns + ms * EM_NSEC_PER_MSEC);
}

/* Wait for CHG like the kernel's bl_completion, in model time. */
static void wait_chg(struct rig *r, uint64_t timeout_ms)
{
	uint64_t end = r->bus.now_ns + timeout_ms * EM_NSEC_PER_MSEC;

	while (!mxt_model_ops.irq_asserted(&r->chip)) {
		uint64_t next = em_bus_next_event(&r->bus);

		assert_true(next != EM_NEVER && next <= end);
		em_bus_advance(&r->bus, next);
	}
}

static uint8_t bl_status(struct rig *r, uint16_t bl)
{
	uint8_t s = 0;

	assert_int_equal(rd(r, bl, &s, 1), 1);
	return s;
}

/* ------------------------------------------------------------ CRC24 */

static void test_crc24_small_example_by_hand(void **state)
{
	/* [01 02 03]: word 0x0201 -> crc 0x000201; tail 03 pairs with 00:
	 * (0x0201 << 1) ^ 0x0003 = 0x000401. */
	static const uint8_t b[] = { 0x01, 0x02, 0x03 };

	(void)state;
	assert_int_equal(mxt_model_crc24(b, 3), 0x000401);
}

static void test_crc24_polynomial_step_by_hand(void **state)
{
	/*
	 * Words 0xffff, 0xffff, then eight 0x8000, crc = (crc << 1) ^ word:
	 *   0xffff -> 0x10001 -> 0x28002 -> 0x58004 -> 0xb8008 -> 0x178010
	 *   -> 0x2f8020 -> 0x5f8040 -> 0xbf8080 -> 0x17f8100, bit 24 set:
	 *   ^ 0x80001b = 0x1ff811b; keep 24 bits: 0xff811b.
	 */
	static const uint8_t b[] = {
		0xff, 0xff, 0xff, 0xff, 0x00, 0x80, 0x00, 0x80, 0x00, 0x80,
		0x00, 0x80, 0x00, 0x80, 0x00, 0x80, 0x00, 0x80, 0x00, 0x80
	};

	(void)state;
	assert_int_equal(mxt_model_crc24(b, sizeof(b)), 0xff811b);
}

/* A second, independent formulation of the kernel's algorithm. */
static uint32_t crc24_reference(const uint8_t *p, size_t n)
{
	uint32_t crc = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2) {
		crc = (crc << 1) ^ (uint32_t)(p[i] | p[i + 1] << 8);
		if (crc & (1u << 24))
			crc ^= 0x80001b;
	}
	if (n & 1) {
		crc = (crc << 1) ^ p[n - 1];
		if (crc & (1u << 24))
			crc ^= 0x80001b;
	}
	return crc & 0xffffff;
}

static void test_info_block_crc_read_from_chip_matches(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint8_t info[7], all[7 + 24 * 6 + 3];
	size_t n;
	uint32_t crc;

	(void)state;
	assert_int_equal(reg_read(r, 0, info, 7), 2);
	assert_int_equal(info[0], 0x81); /* family */
	assert_int_equal(info[1], 0x01); /* variant */
	assert_int_equal(info[2], 0x10); /* version 1.0 */
	assert_int_equal(info[3], 0xaa); /* build */
	n = 7 + (size_t)info[6] * 6 + 3;
	assert_true(n <= sizeof(all));
	assert_int_equal(reg_read(r, 0, all, (uint16_t)n), 2);
	crc = all[n - 3] | all[n - 2] << 8 | (uint32_t)all[n - 1] << 16;
	assert_int_equal(crc, crc24_reference(all, n - 3));
	assert_int_equal(crc, mxt_model_info_crc(&r->chip));
	free(r);
}

/* ------------------------------------------------------------ app mode */

static uint16_t object_addr(struct rig *r, uint8_t type, uint16_t *size)
{
	uint16_t start = 0;

	assert_true(mxt_model_object(&r->chip, type, &start, size));
	return start;
}

static void test_object_table_t44_directly_before_t5(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);

	(void)state;
	/* atmel_mxt_ts refuses a table where T5 is not right after T44. */
	assert_int_equal(object_addr(r, 44, NULL) + 1, object_addr(r, 5, NULL));
	free(r);
}

/* Read T44 + one T5 message like mxt_process_messages_t44. */
static int read_one_message(struct rig *r, uint8_t *msg)
{
	uint8_t buf[1 + 9];

	assert_int_equal(reg_read(r, object_addr(r, 44, NULL), buf, sizeof(buf)), 2);
	memcpy(msg, buf + 1, 9);
	return buf[0];
}

static void test_boot_queues_t6_reset_message_and_chg(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint8_t msg[9];

	(void)state;
	assert_true(mxt_model_ops.irq_asserted(&r->chip));
	assert_int_equal(read_one_message(r, msg), 1);
	assert_int_equal(msg[0], 1); /* T6 has report id 1 */
	assert_int_equal(msg[1] & MXT_T6_RESET, MXT_T6_RESET);
	assert_false(mxt_model_ops.irq_asserted(&r->chip));
	/* An empty queue reads as report id 0xff. */
	assert_int_equal(read_one_message(r, msg), 0);
	assert_int_equal(msg[0], 0xff);
	free(r);
}

static void test_t5_read_streams_several_messages(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint8_t touch[5] = { 2, 0x80, 1, 2, 3 }, buf[27];

	(void)state;
	assert_true(mxt_model_queue_msg(&r->chip, touch, sizeof(touch)));
	/* mxt_read_and_process_messages reads count * msg_size from T5. */
	assert_int_equal(reg_read(r, object_addr(r, 5, NULL), buf, 27), 2);
	assert_int_equal(buf[0], 1);	 /* T6 reset message first */
	assert_int_equal(buf[9], 2);	 /* then the touch */
	assert_int_equal(buf[18], 0xff); /* then "no message" */
	free(r);
}

static void drain(struct rig *r)
{
	uint8_t msg[9];

	while (read_one_message(r, msg))
		;
}

static void t6_cmd(struct rig *r, uint8_t off, uint8_t val)
{
	assert_int_equal(reg_write(r, (uint16_t)(object_addr(r, 6, NULL) + off), &val, 1), 1);
}

static void test_config_is_lost_on_reset_without_backup(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint16_t t7 = object_addr(r, 7, NULL);
	uint8_t v[2] = { 32, 16 }, back[2];
	uint32_t crc0 = mxt_model_config_crc(&r->chip);

	(void)state;
	assert_int_equal(reg_write(r, t7, v, 2), 1);
	assert_int_not_equal(mxt_model_config_crc(&r->chip), crc0);
	t6_cmd(r, 0, 0x01);			       /* normal reset */
	assert_int_equal(reg_read(r, 0, back, 1), -1); /* NAK while resetting */
	/* A software reset is a reset, not the reset line. */
	assert_int_equal(mxt_model_stats(&r->chip)->resets, 1);
	assert_int_equal(mxt_model_stats(&r->chip)->hw_resets, 0);
	advance_ms(r, 200);
	assert_int_equal(reg_read(r, t7, back, 2), 2);
	assert_int_equal(back[0], 0);
	assert_int_equal(back[1], 0);
	assert_int_equal(mxt_model_config_crc(&r->chip), crc0);
	free(r);
}

static void test_backup_keeps_config_and_reports_crc(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint16_t t7 = object_addr(r, 7, NULL), t6 = object_addr(r, 6, NULL);
	uint8_t v[4] = { 32, 16, 50, 0 }, back[4], cmd, msg[9];
	uint32_t want, crc;

	(void)state;
	drain(r);
	assert_int_equal(reg_write(r, t7, v, 4), 1);
	want = mxt_model_config_crc(&r->chip);
	t6_cmd(r, 1, 0x55);
	/* The command byte reads back non-zero until the backup is done. */
	assert_int_equal(reg_read(r, (uint16_t)(t6 + 1), &cmd, 1), 2);
	assert_int_equal(cmd, 0x55);
	advance_ms(r, 100);
	assert_int_equal(reg_read(r, (uint16_t)(t6 + 1), &cmd, 1), 2);
	assert_int_equal(cmd, 0);
	assert_int_equal(read_one_message(r, msg), 1);
	crc = msg[2] | msg[3] << 8 | (uint32_t)msg[4] << 16;
	assert_int_equal(crc, want);
	t6_cmd(r, 0, 0x01);
	advance_ms(r, 200);
	assert_int_equal(reg_read(r, t7, back, 4), 2);
	assert_memory_equal(back, v, 4);
	assert_int_equal(mxt_model_nvm_config_crc(&r->chip), want);
	free(r);
}

/*
 * T38 (user data) lies before T7 on real parts, outside the config CRC,
 * which runs from T71 (or T7) to the end: configs that differ only in T38
 * report the same CRC (issue 15, item 16).
 */
static void check_t38_outside_crc(const char *preset)
{
	struct rig *r = rig_new(preset, NULL);
	uint16_t t38_size, t38 = object_addr(r, 38, &t38_size);
	uint16_t t7 = object_addr(r, 7, NULL);
	uint8_t user[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, v = 9;
	uint32_t crc0 = mxt_model_config_crc(&r->chip);

	assert_true(t38 < t7);
	assert_true(t38_size >= sizeof(user));
	assert_int_equal(reg_write(r, t38, user, sizeof(user)), 1);
	assert_int_equal(mxt_model_config_crc(&r->chip), crc0);
	assert_int_equal(reg_write(r, t7, &v, 1), 1);
	assert_int_not_equal(mxt_model_config_crc(&r->chip), crc0);
	free(r);
}

static void test_t38_user_data_is_outside_the_config_crc(void **state)
{
	(void)state;
	check_t38_outside_crc("mxt224e");
	check_t38_outside_crc("mxt1664s");
}

/*
 * T38 is configuration too: written, backed up and read back after a reset
 * (issue 27, item 12: the red team's `w4@0x4a 0xe5 0x00 0x50 0x51`, BACKUPNV,
 * RESET, read gave 00 00).  The object's whole span, on both presets.
 */
static void check_t38_survives_backup_and_reset(const char *preset)
{
	struct rig *r = rig_new(preset, NULL);
	uint16_t t38_size, t38 = object_addr(r, 38, &t38_size);
	uint8_t user[64], back[64];
	uint16_t i;

	assert_true(t38_size <= sizeof(user));
	for (i = 0; i < t38_size; i++)
		user[i] = (uint8_t)(0x50 + i);
	drain(r);
	assert_int_equal(reg_write(r, t38, user, t38_size), 1);
	assert_int_equal(reg_read(r, t38, back, t38_size), 2);
	assert_memory_equal(back, user, t38_size); /* in RAM at once */
	t6_cmd(r, 1, 0x55);
	advance_ms(r, 100);
	assert_int_equal(mxt_model_stats(&r->chip)->backups, 1);
	t6_cmd(r, 0, 0x01);
	advance_ms(r, 200);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_APP);
	memset(back, 0, sizeof(back));
	assert_int_equal(reg_read(r, t38, back, t38_size), 2);
	assert_memory_equal(back, user, t38_size);
	free(r);
}

static void test_t38_user_data_survives_backup_and_reset(void **state)
{
	(void)state;
	check_t38_survives_backup_and_reset("mxt224e");
	check_t38_survives_backup_and_reset("mxt1664s");
}

/* Without a backup T38 is lost at a reset, like any configuration. */
static void test_t38_without_backup_is_lost_on_reset(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint16_t t38 = object_addr(r, 38, NULL);
	uint8_t user[2] = { 0x50, 0x51 }, back[2];

	(void)state;
	assert_int_equal(reg_write(r, t38, user, 2), 1);
	t6_cmd(r, 0, 0x01);
	advance_ms(r, 200);
	assert_int_equal(reg_read(r, t38, back, 2), 2);
	assert_int_equal(back[0], 0);
	assert_int_equal(back[1], 0);
	free(r);
}

static void drop_t38(struct mxt_model_cfg *c)
{
	c->faults.drop_object = 38;
}

/* The fault: writes to one object are acknowledged and dropped; the
 * objects around it still take theirs. */
static void test_fault_drop_object_acks_and_drops_its_writes(void **state)
{
	struct rig *r = rig_new("mxt224e", drop_t38);
	uint16_t t38_size, t38 = object_addr(r, 38, &t38_size);
	uint16_t t7 = object_addr(r, 7, NULL);
	uint8_t buf[16] = { 0 }, back[16];
	uint16_t n = (uint16_t)(t38_size + 2), i;

	(void)state;
	assert_int_equal(t38 + t38_size, t7); /* one write across both */
	for (i = 0; i < n; i++)
		buf[i] = (uint8_t)(0x60 + i);
	assert_int_equal(reg_write(r, t38, buf, n), 1);
	assert_int_equal(reg_read(r, t38, back, n), 2);
	for (i = 0; i < t38_size; i++)
		assert_int_equal(back[i], 0);
	assert_memory_equal(back + t38_size, buf + t38_size, 2);
	free(r);
}

/*
 * RESTORENV (0x33 to T6's BACKUPNV field, mxt-app's RESTORENV_COMMAND, sent
 * before it reads a configuration to save it): the configuration in NVM
 * replaces RAM's, T38 included, and the T6 message reports NVM's CRC.
 */
static void test_restorenv_brings_back_the_nvm_config(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint16_t t7 = object_addr(r, 7, NULL), t38 = object_addr(r, 38, NULL);
	uint8_t saved[4] = { 32, 16, 50, 0 }, other[4] = { 1, 2, 3, 4 }, user[2] = { 7, 8 };
	uint8_t back[4], msg[9];
	uint32_t nvm_crc;

	(void)state;
	drain(r);
	assert_int_equal(reg_write(r, t7, saved, 4), 1);
	assert_int_equal(reg_write(r, t38, user, 2), 1);
	t6_cmd(r, 1, 0x55);
	advance_ms(r, 100);
	drain(r);
	nvm_crc = mxt_model_nvm_config_crc(&r->chip);
	/* RAM changes, not backed up */
	assert_int_equal(reg_write(r, t7, other, 4), 1);
	assert_int_equal(reg_write(r, t38, other, 2), 1);
	assert_int_not_equal(mxt_model_config_crc(&r->chip), nvm_crc);
	t6_cmd(r, 1, 0x33);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_APP); /* no reset */
	assert_int_equal(reg_read(r, t7, back, 4), 2);
	assert_memory_equal(back, saved, 4);
	assert_int_equal(reg_read(r, t38, back, 2), 2);
	assert_memory_equal(back, user, 2);
	assert_int_equal(mxt_model_config_crc(&r->chip), nvm_crc);
	assert_int_equal(read_one_message(r, msg), 1);
	assert_int_equal(msg[0], 1); /* T6 */
	assert_int_equal(msg[2] | msg[3] << 8 | (uint32_t)msg[4] << 16, nvm_crc);
	assert_int_equal(mxt_model_stats(&r->chip)->restores, 1);
	assert_int_equal(mxt_model_stats(&r->chip)->resets, 0);
	/* 0x44, the same without stopping T70 (the model has none) */
	assert_int_equal(reg_write(r, t7, other, 4), 1);
	t6_cmd(r, 1, 0x44);
	assert_int_equal(reg_read(r, t7, back, 4), 2);
	assert_memory_equal(back, saved, 4);
	free(r);
}

/* A restore written while a backup runs comes after it: the commands run
 * in order, so it brings back what the backup just stored. */
static void test_restorenv_during_a_backup_waits_for_it(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint16_t t7 = object_addr(r, 7, NULL);
	uint8_t v[4] = { 9, 8, 7, 6 }, back[4];

	(void)state;
	drain(r);
	assert_int_equal(reg_write(r, t7, v, 4), 1);
	t6_cmd(r, 1, 0x55);
	t6_cmd(r, 1, 0x33);
	assert_int_equal(mxt_model_stats(&r->chip)->restores, 0);
	advance_ms(r, 100);
	assert_int_equal(mxt_model_stats(&r->chip)->backups, 1);
	assert_int_equal(mxt_model_stats(&r->chip)->restores, 1);
	assert_int_equal(reg_read(r, t7, back, 4), 2);
	assert_memory_equal(back, v, 4);
	free(r);
}

/*
 * BACKUPNV then RESET 1 ms later: the chip finishes the backup, then resets
 * (commands run in order), so the config survives and the reported CRC is
 * the backed-up one (issue 15, item 17).
 */
static void held_reset(struct mxt_model_cfg *cfg)
{
	cfg->t.reset_ns = 800 * EM_NSEC_PER_MSEC;
	cfg->t.reset_hold_ns = 2000 * EM_NSEC_PER_MSEC;
}

/* reset_hold_ns: past reset_ns the reset lasts until a transfer meets it
 * (+50 ms), or until the cap when nobody comes. */
static void test_held_reset_ends_after_the_transfer_that_met_it(void **state)
{
	struct rig *r = rig_new("mxt224e", held_reset);
	uint8_t b;

	(void)state;
	drain(r);
	t6_cmd(r, 0, 0x01);
	advance_ms(r, 1000); /* past reset_ns: nobody came, still resetting */
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_RESET);
	assert_int_equal(reg_read(r, 0, &b, 1), -1); /* met: NAK */
	advance_ms(r, 40);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_RESET);
	advance_ms(r, 20);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_APP);
	assert_int_equal(reg_read(r, 0, &b, 1), 2);
	free(r);
}

/* A transfer within reset_ns (atmel_mxt_ts reads right after its reset
 * command) does not end the hold; the next one after reset_ns does. */
static void test_held_reset_counts_only_transfers_after_reset_ns(void **state)
{
	struct rig *r = rig_new("mxt224e", held_reset);
	uint8_t b;

	(void)state;
	drain(r);
	t6_cmd(r, 0, 0x01);
	advance_ms(r, 100);
	assert_int_equal(reg_read(r, 0, &b, 1), -1);
	advance_ms(r, 800); /* 900 ms */
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_RESET);
	assert_int_equal(reg_read(r, 0, &b, 1), -1);
	advance_ms(r, 60);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_APP);
	free(r);
}

static void test_held_reset_unmet_ends_at_the_cap(void **state)
{
	struct rig *r = rig_new("mxt224e", held_reset);

	(void)state;
	drain(r);
	t6_cmd(r, 0, 0x01);
	advance_ms(r, 1990);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_RESET);
	advance_ms(r, 20);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_APP);
	assert_int_equal(mxt_model_stats(&r->chip)->resets, 1);
	free(r);
}

static void test_reset_right_after_backup_waits_for_the_backup(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint16_t t7 = object_addr(r, 7, NULL);
	uint8_t v[4] = { 32, 16, 50, 0 }, back[4];
	uint32_t want;

	(void)state;
	drain(r);
	assert_int_equal(reg_write(r, t7, v, 4), 1);
	want = mxt_model_config_crc(&r->chip);
	t6_cmd(r, 1, 0x55);
	advance_ms(r, 1);
	t6_cmd(r, 0, 0x01);
	/* Still backing up: the chip answers and has not reset yet. */
	assert_int_equal(mxt_model_stats(&r->chip)->resets, 0);
	advance_ms(r, 300);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_APP);
	assert_int_equal(mxt_model_stats(&r->chip)->backups, 1);
	assert_int_equal(mxt_model_stats(&r->chip)->resets, 1);
	assert_int_equal(reg_read(r, t7, back, 4), 2);
	assert_memory_equal(back, v, 4);
	assert_int_equal(mxt_model_nvm_config_crc(&r->chip), want);
	free(r);
}

static void test_reset_line_during_backup_drops_the_queued_reset(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);

	(void)state;
	drain(r);
	t6_cmd(r, 1, 0x55);
	t6_cmd(r, 0, 0x01);
	mxt_model_ops.set_reset(&r->chip, true);
	mxt_model_ops.set_reset(&r->chip, false);
	advance_ms(r, 300);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_APP);
	assert_int_equal(mxt_model_stats(&r->chip)->backups, 0);
	/* Only the line's reset: the queued command died with the backup. */
	assert_int_equal(mxt_model_stats(&r->chip)->resets, 1);
	assert_int_equal(mxt_model_stats(&r->chip)->hw_resets, 1);
	free(r);
}

static void test_reportall_reports_config_crc(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint8_t msg[9];

	(void)state;
	drain(r);
	t6_cmd(r, 3, 1);
	assert_true(mxt_model_ops.irq_asserted(&r->chip));
	assert_int_equal(read_one_message(r, msg), 1);
	assert_int_equal(msg[0], 1);
	assert_int_equal(msg[2] | msg[3] << 8 | (uint32_t)msg[4] << 16,
			 mxt_model_nvm_config_crc(&r->chip));
	free(r);
}

static void test_writes_to_info_block_are_ignored(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint8_t junk[3] = { 1, 2, 3 }, info[3];

	(void)state;
	assert_int_equal(reg_write(r, 0, junk, 3), 1);
	assert_int_equal(reg_read(r, 0, info, 3), 2);
	assert_int_equal(info[0], 0x81);
	free(r);
}

/* ------------------------------------------------------------ bootloader */

static void enter_bootloader(struct rig *r)
{
	t6_cmd(r, 0, 0xa5);
	advance_ms(r, 200); /* MXT_RESET_TIME */
}

static void test_t6_a5_enters_bootloader_at_mapped_address(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint8_t b;

	(void)state;
	enter_bootloader(r);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_BOOTLOADER);
	assert_int_equal(rd(r, 0x4a, &b, 1), EM_XFER_NAK_ADDR);
	assert_true(mxt_model_ops.irq_asserted(&r->chip));
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_WAITING_BOOTLOAD_CMD);
	assert_false(mxt_model_ops.irq_asserted(&r->chip));
	/* The alternate address is silent for this family. */
	assert_int_equal(rd(r, 0x26, &b, 1), EM_XFER_NAK_ADDR);
	free(r);
}

static void set_addr_4b(struct mxt_model_cfg *c)
{
	c->app_addr = 0x4b;
}
static void set_addr_4c(struct mxt_model_cfg *c)
{
	c->app_addr = 0x4c;
}
static void set_addr_5a(struct mxt_model_cfg *c)
{
	c->app_addr = 0x5a;
}

static void test_bootloader_address_mapping(void **state)
{
	struct rig *r;

	(void)state;
	r = rig_new("mxt224e", NULL);
	assert_int_equal(mxt_model_bootloader_addr(&r->chip), 0x24);
	free(r);
	r = rig_new("mxt224e", set_addr_4b);
	assert_int_equal(mxt_model_bootloader_addr(&r->chip), 0x25);
	free(r);
	r = rig_new("mxt224e", set_addr_4c);
	assert_int_equal(mxt_model_bootloader_addr(&r->chip), 0x26);
	free(r);
	r = rig_new("mxt224e", set_addr_5a);
	assert_int_equal(mxt_model_bootloader_addr(&r->chip), 0x34);
	free(r);
	/* Family >= 0xA2 on 0x4a/0x4b: the alternate mapping, app - 0x24. */
	r = rig_new("mxt1664s", NULL);
	assert_int_equal(mxt_model_bootloader_addr(&r->chip), 0x26);
	enter_bootloader(r);
	assert_int_equal(bl_status(r, 0x26) & 0xc0, MXT_BL_WAITING_BOOTLOAD_CMD);
	free(r);
	r = rig_new("mxt1664s", set_addr_4b);
	assert_int_equal(mxt_model_bootloader_addr(&r->chip), 0x27);
	free(r);
}

static void no_image(struct mxt_model_cfg *c)
{
	c->app_valid = false;
}

static void test_no_image_reports_app_crc_fail_once(void **state)
{
	struct rig *r = rig_new("mxt224e", no_image);
	uint8_t b;

	(void)state;
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_BOOTLOADER);
	assert_int_equal(rd(r, 0x4a, &b, 1), EM_XFER_NAK_ADDR);
	/* As mxt-app handles it: APP_CRC_FAIL, then WAITING_BOOTLOAD_CMD. */
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_WAITING_BOOTLOAD_CMD);
	free(r);
}

/*
 * The read releases CHG; the next status asserts it again as a separate
 * edge, a moment later, while the new status is readable at once.
 */
static void test_app_crc_fail_read_releases_chg_then_asserts_it_again(void **state)
{
	struct rig *r = rig_new("mxt224e", no_image);

	(void)state;
	assert_true(mxt_model_ops.irq_asserted(&r->chip));
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	assert_false(mxt_model_ops.irq_asserted(&r->chip));
	assert_int_equal(mxt_model_bl_status(&r->chip), MXT_BL_WAITING_BOOTLOAD_CMD);
	wait_chg(r, 1);
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_WAITING_BOOTLOAD_CMD);
	assert_false(mxt_model_ops.irq_asserted(&r->chip));
	free(r);
}

static void test_exit_command_without_image_stays_in_bootloader(void **state)
{
	struct rig *r = rig_new("mxt224e", no_image);
	static const uint8_t exit_cmd[2] = { 0x01, 0x01 };

	(void)state;
	/* What atmel_mxt_ts does at probe: 0x01 0x01, then wait 3 s. */
	assert_int_equal(wr(r, 0x24, exit_cmd, 2), 1);
	advance_ms(r, 3000);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_BOOTLOADER);
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	free(r);
}

static void test_exit_command_with_valid_app_returns_to_app(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	static const uint8_t exit_cmd[2] = { 0x01, 0x01 };
	uint8_t info[1];

	(void)state;
	enter_bootloader(r);
	assert_int_equal(wr(r, 0x24, exit_cmd, 2), 1);
	advance_ms(r, 3000);
	assert_int_equal(reg_read(r, 0, info, 1), 2);
	assert_int_equal(info[0], 0x81);
	free(r);
}

static void test_extended_id_read_returns_status_id_version(void **state)
{
	struct rig *r = rig_new("mxt1664s", NULL);
	uint8_t b[3];

	(void)state;
	enter_bootloader(r);
	/* Bit 5 set: an extended id follows in a 3-byte read. */
	assert_int_equal(bl_status(r, 0x26), 0xc0 | MXT_BL_EXTENDED_ID);
	assert_int_equal(rd(r, 0x26, b, 3), 1);
	assert_int_equal(b[0], 0xc0 | MXT_BL_EXTENDED_ID);
	assert_int_equal(b[1], r->chip.cfg.bl_id);
	assert_int_equal(b[2], r->chip.cfg.bl_version);
	free(r);
}

/* A synthetic image for the 224e. */
static uint8_t *make_image(uint8_t version, uint8_t build, uint32_t payload, uint16_t per_frame,
			   size_t *len)
{
	struct mxt_img_header h = { 0x81, 0x01, version, build, 0, 0 };
	size_t cap = mxt_img_size(payload, per_frame);
	uint8_t *img = malloc(cap);

	assert_non_null(img);
	*len = mxt_img_build(&h, NULL, payload, per_frame, img, cap);
	assert_int_equal(*len, cap);
	return img;
}

/* Unlock as mxt_load_fw does; the chip must be waiting for a command. */
static void unlock(struct rig *r)
{
	static const uint8_t unlock_cmd[2] = { 0xdc, 0xaa };

	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_WAITING_BOOTLOAD_CMD);
	assert_int_equal(wr(r, 0x24, unlock_cmd, 2), 1);
}

/*
 * Send one frame in writes of at most @chunk bytes, then follow the status
 * as mxt_check_bootloader(FRAME_CRC_PASS) does: wait CHG, read; CHECK means
 * wait again.  Returns the verdict.
 */
static uint8_t send_frame(struct rig *r, const uint8_t *f, size_t len, size_t chunk)
{
	size_t off;
	uint8_t s;

	wait_chg(r, 300);
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_WAITING_FRAME_DATA);
	for (off = 0; off < len; off += chunk) {
		size_t n = len - off < chunk ? len - off : chunk;

		assert_int_equal(wr(r, 0x24, f + off, (uint16_t)n), 1);
	}
	do {
		wait_chg(r, 300);
		s = bl_status(r, 0x24);
	} while (s == MXT_BL_FRAME_CRC_CHECK);
	return s;
}

static void flash_image(struct rig *r, const uint8_t *img, size_t len, size_t chunk)
{
	size_t pos = 0;

	unlock(r);
	while (pos < len) {
		size_t fl = (size_t)(img[pos] << 8 | img[pos + 1]) + 2;

		assert_int_equal(send_frame(r, img + pos, fl, chunk), MXT_BL_FRAME_CRC_PASS);
		pos += fl;
	}
}

static void test_flash_by_hand_installs_new_version(void **state)
{
	struct rig *r = rig_new("mxt224e", no_image);
	size_t len;
	uint8_t *img = make_image(0x21, 0xab, 4000, 256, &len), info[4];

	(void)state;
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	flash_image(r, img, len, 255);
	/* "Wait for flash" and "wait for reset": CHG twice within 3 s. */
	wait_chg(r, 3000);
	advance_ms(r, 3000);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_APP);
	assert_int_equal(reg_read(r, 0, info, 4), 2);
	assert_int_equal(info[2], 0x21);
	assert_int_equal(info[3], 0xab);
	assert_int_equal(mxt_model_stats(&r->chip)->images_completed, 1);
	free(img);
	free(r);
}

static void test_frame_split_in_small_writes_is_reassembled(void **state)
{
	struct rig *r = rig_new("mxt224e", no_image);
	size_t len;
	uint8_t *img = make_image(0x21, 0x01, 1000, 270, &len);

	(void)state;
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	flash_image(r, img, len, 7);
	advance_ms(r, 3000);
	assert_int_equal(mxt_model_fw_version(&r->chip), 0x21);
	free(img);
	free(r);
}

/*
 * Two controllers on one bus, both in bootloader mode (0x24 and 0x25): the
 * bus counts a transaction that reaches one while the other holds a frame
 * in part, and nothing while frames are sent whole or in pieces back to
 * back.
 */
static void test_bus_counts_frames_interleaved_between_two_chips(void **state)
{
	struct rig *r = rig_new("mxt224e", no_image);
	struct mxt_model *b = calloc(1, sizeof(*b));
	struct mxt_model_cfg cfg;
	static const uint8_t unlock_cmd[2] = { 0xdc, 0xaa };
	size_t len, fl;
	uint8_t *img = make_image(0x21, 0x01, 1000, 270, &len), s;

	(void)state;
	assert_non_null(b);
	assert_true(mxt_model_preset("mxt224e", &cfg));
	no_image(&cfg);
	cfg.app_addr = 0x4b;
	mxt_model_init(b, &cfg, 0);
	assert_int_equal(em_bus_add_chip(&r->bus, &mxt_model_ops, b), 0);
	assert_int_equal(mxt_model_bootloader_addr(b), 0x25);
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	unlock(r);
	assert_int_equal(bl_status(r, 0x25) & 0xc0, MXT_BL_APP_CRC_FAIL);
	assert_int_equal(bl_status(r, 0x25) & 0xc0, MXT_BL_WAITING_BOOTLOAD_CMD);
	assert_int_equal(wr(r, 0x25, unlock_cmd, 2), 1);
	fl = (size_t)(img[0] << 8 | img[1]) + 2;
	wait_chg(r, 300);
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_WAITING_FRAME_DATA);
	/* A whole frame in pieces, then the other chip: not interleaved. */
	assert_int_equal(wr(r, 0x24, img, 10), 1);
	assert_int_equal(wr(r, 0x24, img + 10, (uint16_t)(fl - 10)), 1);
	assert_int_equal(rd(r, 0x25, &s, 1), 1);
	assert_int_equal(r->bus.interleaved, 0);
	advance_ms(r, 50);
	assert_int_equal(bl_status(r, 0x24), MXT_BL_FRAME_CRC_PASS);
	advance_ms(r, 50);
	/* Half a frame to 0x24, then a status read of 0x25: interleaved. */
	assert_int_equal(wr(r, 0x24, img + fl, 10), 1);
	assert_true(mxt_model_ops.mid_unit(&r->chip));
	assert_false(mxt_model_ops.mid_unit(b));
	assert_int_equal(rd(r, 0x25, &s, 1), 1);
	assert_int_equal(r->bus.interleaved, 1);
	free(img);
	free(b);
	free(r);
}

/* A copy of @img's first frame, length in @f0, with one bit of its header
 * body flipped: its frame CRC no longer matches. */
static uint8_t *first_frame_corrupted(const uint8_t *img, size_t *f0)
{
	uint8_t *bad;

	*f0 = (size_t)(img[0] << 8 | img[1]) + 2;
	bad = malloc(*f0);
	assert_non_null(bad);
	memcpy(bad, img, *f0);
	bad[6] ^= 0x01;
	return bad;
}

static void test_bad_frame_crc_is_refused_and_resend_passes(void **state)
{
	struct rig *r = rig_new("mxt224e", no_image);
	size_t len, f0;
	uint8_t *img = make_image(0x21, 0x02, 600, 200, &len), *bad;

	(void)state;
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	unlock(r);
	bad = first_frame_corrupted(img, &f0);
	assert_int_equal(send_frame(r, bad, f0, 255), MXT_BL_FRAME_CRC_FAIL);
	/* After FAIL is read the chip waits for frame data again: resend. */
	assert_int_equal(send_frame(r, img, f0, 255), MXT_BL_FRAME_CRC_PASS);
	assert_int_equal(mxt_model_stats(&r->chip)->frames_failed, 1);
	free(bad);
	free(img);
	free(r);
}

/*
 * atmel_mxt_ts on a real kernel: after FRAME_CRC_FAIL (and after a
 * FRAME_CRC_PASS read once the frame is programmed) it waits for a CHG
 * edge before it reads WAITING_FRAME_DATA.  The read must release CHG and
 * the new status assert it again later; asserting it inside the same read
 * is no edge, and the driver timed out ("Update wait error -110").
 */
static void test_frame_crc_fail_read_releases_chg_then_asserts_it_again(void **state)
{
	struct rig *r = rig_new("mxt224e", no_image);
	size_t len, f0;
	uint8_t *img = make_image(0x21, 0x02, 600, 200, &len), *bad;

	(void)state;
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	unlock(r);
	bad = first_frame_corrupted(img, &f0);
	assert_int_equal(send_frame(r, bad, f0, 255), MXT_BL_FRAME_CRC_FAIL);
	assert_false(mxt_model_ops.irq_asserted(&r->chip));
	wait_chg(r, 1);
	assert_int_equal(send_frame(r, img, f0, 255), MXT_BL_FRAME_CRC_PASS);
	free(bad);
	free(img);
	free(r);
}

static void test_pass_read_after_programming_releases_chg_then_asserts_it_again(void **state)
{
	struct rig *r = rig_new("mxt224e", no_image);
	size_t len, f0;
	uint8_t *img = make_image(0x21, 0x02, 600, 200, &len);

	(void)state;
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	unlock(r);
	f0 = (size_t)(img[0] << 8 | img[1]) + 2;
	wait_chg(r, 300);
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_WAITING_FRAME_DATA);
	assert_int_equal(wr(r, 0x24, img, (uint16_t)f0), 1);
	/* A slow host: the verdict and the programming are over first. */
	advance_ms(r, 50);
	assert_true(mxt_model_ops.irq_asserted(&r->chip));
	assert_int_equal(bl_status(r, 0x24), MXT_BL_FRAME_CRC_PASS);
	assert_false(mxt_model_ops.irq_asserted(&r->chip));
	/* A poller reads the next status at once; CHG follows as an edge. */
	assert_int_equal(mxt_model_bl_status(&r->chip), MXT_BL_WAITING_FRAME_DATA);
	wait_chg(r, 1);
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_WAITING_FRAME_DATA);
	free(img);
	free(r);
}

/*
 * Send every frame of @img; for the last one, read nothing for @late_ms
 * (mxt-app on i2c-dev reads each verdict 50 ms after its frame).
 */
static uint8_t flash_reading_last_verdict_late(struct rig *r, const uint8_t *img, size_t len,
					       uint64_t late_ms)
{
	size_t pos = 0, fl;
	uint8_t s = 0;

	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	unlock(r);
	for (;;) {
		fl = (size_t)(img[pos] << 8 | img[pos + 1]) + 2;
		if (pos + fl >= len)
			break;
		assert_int_equal(send_frame(r, img + pos, fl, 255), MXT_BL_FRAME_CRC_PASS);
		pos += fl;
	}
	wait_chg(r, 300);
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_WAITING_FRAME_DATA);
	assert_int_equal(wr(r, 0x24, img + pos, (uint16_t)fl), 1);
	advance_ms(r, late_ms);
	if (rd(r, 0x24, &s, 1) != 1)
		return 0; /* NAK: the bootloader is gone */
	return s;
}

/*
 * Default bootloader: the last frame's verdict stays readable until the
 * host reads it, however late; then the chip resets into the new firmware
 * (issue 15, item 18).
 */
static void test_last_verdict_is_held_until_read(void **state)
{
	struct rig *r = rig_new("mxt224e", no_image);
	size_t len;
	uint8_t *img = make_image(0x21, 0x03, 2000, 250, &len);

	(void)state;
	assert_int_equal(flash_reading_last_verdict_late(r, img, len, 50),
			 MXT_BL_FRAME_CRC_PASS);
	assert_int_equal(mxt_model_stats(&r->chip)->images_completed, 1);
	/* atmel_mxt_ts then waits for CHG twice: end of flash, and reset. */
	assert_false(mxt_model_ops.irq_asserted(&r->chip));
	wait_chg(r, 10);
	assert_int_equal(mxt_model_stats(&r->chip)->resets, 0);
	advance_ms(r, 2);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_RESET);
	assert_false(mxt_model_ops.irq_asserted(&r->chip));
	wait_chg(r, 3000);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_APP);
	advance_ms(r, 3000);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_APP);
	assert_int_equal(mxt_model_stats(&r->chip)->frames_failed, 0);
	free(img);
	free(r);
}

static void final_reset_unread(struct mxt_model_cfg *c)
{
	c->app_valid = false;
	c->final_reset_unread = true;
}

/* The other bootloader versions: reset ~6 ms after the last frame, read or
 * not, so a 50 ms late reader finds no bootloader (a NAK). */
static void test_last_verdict_unread_variant_resets_on_its_own(void **state)
{
	struct rig *r = rig_new("mxt224e", final_reset_unread);
	size_t len;
	uint8_t *img = make_image(0x21, 0x03, 2000, 250, &len);

	(void)state;
	assert_int_equal(flash_reading_last_verdict_late(r, img, len, 50), 0);
	assert_int_equal(mxt_model_stats(&r->chip)->images_completed, 1);
	advance_ms(r, 3000);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_APP);
	free(img);
	free(r);
}

static void test_frame_out_of_sequence_is_refused(void **state)
{
	struct rig *r = rig_new("mxt224e", no_image);
	size_t len, f0, f1;
	uint8_t *img = make_image(0x21, 0x02, 600, 200, &len);

	(void)state;
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	unlock(r);
	f0 = (size_t)(img[0] << 8 | img[1]) + 2;
	f1 = (size_t)(img[f0] << 8 | img[f0 + 1]) + 2;
	/* The first data frame before the header. */
	assert_int_equal(send_frame(r, img + f0, f1, 255), MXT_BL_FRAME_CRC_FAIL);
	free(img);
	free(r);
}

static void other_variant(struct mxt_model_cfg *c)
{
	c->app_valid = false;
	c->variant_id = 0x02;
}

static void test_image_for_another_variant_is_refused(void **state)
{
	struct rig *r = rig_new("mxt224e", other_variant);
	size_t len, f0;
	uint8_t *img = make_image(0x21, 0x02, 600, 200, &len);

	(void)state;
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	unlock(r);
	f0 = (size_t)(img[0] << 8 | img[1]) + 2;
	assert_int_equal(send_frame(r, img, f0, 255), MXT_BL_FRAME_CRC_FAIL);
	free(img);
	free(r);
}

static void fail_frame_3_once(struct mxt_model_cfg *c)
{
	c->app_valid = false;
	c->faults.crc_fail_frame = 3;
	c->faults.crc_fail_times = 1;
}

static void test_fault_crc_fail_once_then_pass(void **state)
{
	struct rig *r = rig_new("mxt224e", fail_frame_3_once);
	size_t len, pos = 0;
	uint8_t *img = make_image(0x21, 0x03, 1000, 200, &len);
	int frame = 0, fails = 0;

	(void)state;
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	unlock(r);
	while (pos < len) {
		size_t fl = (size_t)(img[pos] << 8 | img[pos + 1]) + 2;
		uint8_t v = send_frame(r, img + pos, fl, 255);

		if (v == MXT_BL_FRAME_CRC_FAIL) {
			fails++;
			assert_int_equal(frame, 2); /* the third frame */
			continue;
		}
		assert_int_equal(v, MXT_BL_FRAME_CRC_PASS);
		pos += fl;
		frame++;
	}
	assert_int_equal(fails, 1);
	advance_ms(r, 3000);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_APP);
	free(img);
	free(r);
}

static void fail_always(struct mxt_model_cfg *c)
{
	c->app_valid = false;
	c->faults.crc_fail_always = true;
}

static void test_fault_crc_fail_always(void **state)
{
	struct rig *r = rig_new("mxt224e", fail_always);
	size_t len, f0;
	uint8_t *img = make_image(0x21, 0x03, 600, 200, &len);
	int i;

	(void)state;
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	unlock(r);
	f0 = (size_t)(img[0] << 8 | img[1]) + 2;
	for (i = 0; i < 21; i++)
		assert_int_equal(send_frame(r, img, f0, 255), MXT_BL_FRAME_CRC_FAIL);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_BOOTLOADER);
	free(img);
	free(r);
}

static void power_loss_after_2(struct mxt_model_cfg *c)
{
	c->faults.power_loss_after = 2;
}

static void test_fault_power_loss_leaves_app_crc_fail(void **state)
{
	struct rig *r = rig_new("mxt224e", power_loss_after_2);
	size_t len, pos = 0;
	uint8_t *img = make_image(0x21, 0x04, 1000, 200, &len), b;
	int i;

	(void)state;
	enter_bootloader(r);
	unlock(r);
	for (i = 0; i < 2; i++) {
		size_t fl = (size_t)(img[pos] << 8 | img[pos + 1]) + 2;

		assert_int_equal(send_frame(r, img + pos, fl, 255), MXT_BL_FRAME_CRC_PASS);
		pos += fl;
	}
	/* The supply drops once the second frame is programmed (5 ms). */
	advance_ms(r, 6);
	assert_int_equal(rd(r, 0x24, &b, 1), EM_XFER_NAK_ADDR);
	advance_ms(r, 200);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_BOOTLOADER);
	assert_false(mxt_model_app_valid(&r->chip));
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	/* Recoverable: the bootloader accepts a whole new image. */
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_WAITING_BOOTLOAD_CMD);
	free(img);
	img = make_image(0x21, 0x04, 1000, 200, &len);
	unlock(r);
	pos = 0;
	while (pos < len) {
		size_t fl = (size_t)(img[pos] << 8 | img[pos + 1]) + 2;

		assert_int_equal(send_frame(r, img + pos, fl, 255), MXT_BL_FRAME_CRC_PASS);
		pos += fl;
	}
	advance_ms(r, 3000);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_APP);
	free(img);
	free(r);
}

static void stuck(struct mxt_model_cfg *c)
{
	c->faults.stuck_in_bootloader = true;
	c->start_in_bootloader = true;
}

static void test_fault_stuck_in_bootloader_never_starts_app(void **state)
{
	struct rig *r = rig_new("mxt224e", stuck);
	size_t len;
	uint8_t *img = make_image(0x21, 0x05, 600, 200, &len);

	(void)state;
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	flash_image(r, img, len, 255);
	advance_ms(r, 3000);
	assert_int_equal(mxt_model_mode(&r->chip), MXT_MODE_BOOTLOADER);
	assert_int_equal(bl_status(r, 0x24) & 0xc0, MXT_BL_APP_CRC_FAIL);
	free(img);
	free(r);
}

static void corrupt_info(struct mxt_model_cfg *c)
{
	c->faults.corrupt_info_crc = true;
}

static void test_fault_corrupt_info_block_crc(void **state)
{
	struct rig *r = rig_new("mxt224e", corrupt_info);
	uint8_t all[7 + 12 * 6 + 3];
	uint32_t crc;

	(void)state;
	assert_int_equal(reg_read(r, 0, all, sizeof(all)), 2);
	crc = all[79] | all[80] << 8 | (uint32_t)all[81] << 16;
	assert_int_not_equal(crc, crc24_reference(all, 79));
	free(r);
}

static void test_power_off_naks_and_power_on_boots_from_nvm(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint8_t b;

	(void)state;
	mxt_model_ops.set_power(&r->chip, false);
	assert_int_equal(rd(r, 0x4a, &b, 1), EM_XFER_NAK_ADDR);
	assert_int_equal(rd(r, 0x24, &b, 1), EM_XFER_NAK_ADDR);
	mxt_model_ops.set_power(&r->chip, true);
	advance_ms(r, 100);
	assert_int_equal(reg_read(r, 0, &b, 1), 2);
	free(r);
}

static void test_reset_line_holds_chip_in_reset(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint8_t b;

	(void)state;
	assert_int_equal(mxt_model_stats(&r->chip)->hw_resets, 0);
	mxt_model_ops.set_reset(&r->chip, true);
	advance_ms(r, 100);
	assert_int_equal(rd(r, 0x4a, &b, 1), EM_XFER_NAK_ADDR);
	mxt_model_ops.set_reset(&r->chip, true); /* still held: no new reset */
	mxt_model_ops.set_reset(&r->chip, false);
	advance_ms(r, 100);
	assert_int_equal(reg_read(r, 0, &b, 1), 2);
	assert_int_equal(mxt_model_stats(&r->chip)->hw_resets, 1);
	assert_int_equal(mxt_model_stats(&r->chip)->resets, 1);
	free(r);
}

/* ------------------------------------------------------------ bus */

static void test_bus_wire_time_and_counters_at_400khz(void **state)
{
	struct rig *r = rig_new("mxt224e", NULL);
	uint8_t info[7];
	uint64_t t0 = r->bus.now_ns;

	(void)state;
	/* 2 messages: (1 + 9 + 2*9) + (1 + 9 + 7*9) + 1 stop = 102 bits
	 * = 255 us at 400 kHz. */
	assert_int_equal(reg_read(r, 0, info, 7), 2);
	assert_int_equal(r->bus.now_ns - t0, 255000);
	assert_int_equal(r->bus.count.bus_ns, 255000);
	assert_int_equal(r->bus.count.transactions, 1);
	assert_int_equal(r->bus.count.messages, 2);
	assert_int_equal(r->bus.count.bytes_written, 2);
	assert_int_equal(r->bus.count.bytes_read, 7);
	em_bus_set_nak(&r->bus, 0x4a, true);
	assert_int_equal(reg_read(r, 0, info, 7), EM_XFER_NAK_ADDR);
	assert_int_equal(r->bus.count.naks, 1);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc24_small_example_by_hand),
		cmocka_unit_test(test_crc24_polynomial_step_by_hand),
		cmocka_unit_test(test_info_block_crc_read_from_chip_matches),
		cmocka_unit_test(test_object_table_t44_directly_before_t5),
		cmocka_unit_test(test_boot_queues_t6_reset_message_and_chg),
		cmocka_unit_test(test_t5_read_streams_several_messages),
		cmocka_unit_test(test_config_is_lost_on_reset_without_backup),
		cmocka_unit_test(test_held_reset_ends_after_the_transfer_that_met_it),
		cmocka_unit_test(test_held_reset_counts_only_transfers_after_reset_ns),
		cmocka_unit_test(test_held_reset_unmet_ends_at_the_cap),
		cmocka_unit_test(test_backup_keeps_config_and_reports_crc),
		cmocka_unit_test(test_t38_user_data_is_outside_the_config_crc),
		cmocka_unit_test(test_t38_user_data_survives_backup_and_reset),
		cmocka_unit_test(test_t38_without_backup_is_lost_on_reset),
		cmocka_unit_test(test_fault_drop_object_acks_and_drops_its_writes),
		cmocka_unit_test(test_restorenv_brings_back_the_nvm_config),
		cmocka_unit_test(test_restorenv_during_a_backup_waits_for_it),
		cmocka_unit_test(test_reset_right_after_backup_waits_for_the_backup),
		cmocka_unit_test(test_reset_line_during_backup_drops_the_queued_reset),
		cmocka_unit_test(test_last_verdict_is_held_until_read),
		cmocka_unit_test(test_last_verdict_unread_variant_resets_on_its_own),
		cmocka_unit_test(test_reportall_reports_config_crc),
		cmocka_unit_test(test_writes_to_info_block_are_ignored),
		cmocka_unit_test(test_t6_a5_enters_bootloader_at_mapped_address),
		cmocka_unit_test(test_bootloader_address_mapping),
		cmocka_unit_test(test_no_image_reports_app_crc_fail_once),
		cmocka_unit_test(test_app_crc_fail_read_releases_chg_then_asserts_it_again),
		cmocka_unit_test(test_exit_command_without_image_stays_in_bootloader),
		cmocka_unit_test(test_exit_command_with_valid_app_returns_to_app),
		cmocka_unit_test(test_extended_id_read_returns_status_id_version),
		cmocka_unit_test(test_flash_by_hand_installs_new_version),
		cmocka_unit_test(test_frame_split_in_small_writes_is_reassembled),
		cmocka_unit_test(test_bus_counts_frames_interleaved_between_two_chips),
		cmocka_unit_test(test_bad_frame_crc_is_refused_and_resend_passes),
		cmocka_unit_test(test_frame_crc_fail_read_releases_chg_then_asserts_it_again),
		cmocka_unit_test(
			test_pass_read_after_programming_releases_chg_then_asserts_it_again),
		cmocka_unit_test(test_frame_out_of_sequence_is_refused),
		cmocka_unit_test(test_image_for_another_variant_is_refused),
		cmocka_unit_test(test_fault_crc_fail_once_then_pass),
		cmocka_unit_test(test_fault_crc_fail_always),
		cmocka_unit_test(test_fault_power_loss_leaves_app_crc_fail),
		cmocka_unit_test(test_fault_stuck_in_bootloader_never_starts_app),
		cmocka_unit_test(test_fault_corrupt_info_block_crc),
		cmocka_unit_test(test_power_off_naks_and_power_on_boots_from_nvm),
		cmocka_unit_test(test_reset_line_holds_chip_in_reset),
		cmocka_unit_test(test_bus_wire_time_and_counters_at_400khz),
	};

	return cmocka_run_group_tests_name("mxt_model", tests, NULL, NULL);
}
