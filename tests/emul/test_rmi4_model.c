// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Synaptics RMI4 chip model on its own, driven as rmi_smbus.c and
 * rmi_core (rmi_driver.c, rmi_f01.c, rmi_f34v7.c) drive a chip: the SMBus
 * version, the mapping table and 32-byte blocks, the PDT scan and its
 * bootloader-mode bits, F01's queries, F34 v7's queries and partition
 * table, and the flash sequence of rmi_f34v7_do_reflash with a fwgen
 * image parsed as rmi_f34v7_parse_image_header_10 parses it; a good image
 * boots after a reset with its build id, a bad core code CRC does not,
 * power lost mid-flash leaves the bootloader.  The kernel's own drivers
 * judge the same model in tests/vm/scenarios/kmod-rmi4-driver.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rmi4_model.h"

#define ADDR 0x2c

static struct rmi4_model M;
static uint8_t img[RMI4_MODEL_IMAGE_MAX];
static unsigned map_next;
/* rmi_i2c's transfers instead of rmi_smbus's (start_i2c) */
static bool I2C;
static int i2c_page; /* rmi_i2c's page, -1 unknown */
static unsigned page_selects;

static void start_on(uint32_t build, uint32_t power_loss, bool i2c)
{
	struct rmi4_model_cfg cfg = { .addr = ADDR,
				      .product_id = "s3203",
				      .build_id = build,
				      .config_id = 0x1a2b3c4d,
				      .smb_version = 2,
				      .bl_major = 7,
				      .power_loss_block = power_loss,
				      .bus = i2c ? RMI4_MODEL_I2C : RMI4_MODEL_SMBUS };

	rmi4_model_init(&M, &cfg);
	map_next = 0;
	I2C = i2c;
	i2c_page = -1;
	page_selects = 0;
}

static void start(uint32_t build, uint32_t power_loss)
{
	start_on(build, power_loss, false);
}

/* The part with the F34 v5 bootloader (rmi4.bootloader = 5) on SMBus */
static void start_v5(uint32_t build, uint32_t power_loss)
{
	start_on(build, power_loss, false);
	M.cfg.bl_major = 5;
	{
		struct rmi4_model_cfg cfg = M.cfg;

		rmi4_model_init(&M, &cfg);
	}
}

/* rmi_set_page: [0xff, page], one message */
static void i2c_set_page(uint8_t page)
{
	uint8_t b[2] = { 0xff, page };

	assert_int_equal(rmi4_model_ops.write(&M, ADDR, b, 2), EM_ACK);
	i2c_page = page;
	page_selects++;
}

/* rmi_i2c_read_block: the low byte written, then a read of @len */
static void i2c_read(uint16_t a, uint8_t *buf, unsigned len)
{
	uint8_t off = (uint8_t)a;

	if ((a >> 8) != i2c_page)
		i2c_set_page((uint8_t)(a >> 8));
	assert_int_equal(rmi4_model_ops.write(&M, ADDR, &off, 1), EM_ACK);
	assert_int_equal(rmi4_model_ops.read(&M, ADDR, buf, (uint16_t)len), EM_ACK);
}

/* rmi_i2c_write_block: the low byte and the data in one message */
static void i2c_write(uint16_t a, const uint8_t *buf, unsigned len)
{
	uint8_t b[1 + 256];

	assert_true(len < sizeof(b));
	if ((a >> 8) != i2c_page)
		i2c_set_page((uint8_t)(a >> 8));
	b[0] = (uint8_t)a;
	memcpy(b + 1, buf, len);
	assert_int_equal(rmi4_model_ops.write(&M, ADDR, b, (uint16_t)(len + 1)), EM_ACK);
}

/* i2c_smbus_write_block_data / read_block_data as i2c-core emulates them */
static void smb_block_write(uint8_t cmd, const uint8_t *data, uint8_t n)
{
	uint8_t b[34] = { cmd, n };

	memcpy(b + 2, data, n);
	assert_int_equal(rmi4_model_ops.write(&M, ADDR, b, (uint16_t)(n + 2)), EM_ACK);
}

static int smb_block_read(uint8_t cmd, uint8_t *data)
{
	uint8_t b[33];

	assert_int_equal(rmi4_model_ops.write(&M, ADDR, &cmd, 1), EM_ACK);
	assert_int_equal(rmi4_model_ops.read(&M, ADDR, b, sizeof(b)), EM_ACK);
	memcpy(data, b + 1, b[0] <= 32 ? b[0] : 32);
	return b[0];
}

/* rmi_smb_get_command_code: a new mapping entry for each access here */
static uint8_t map(uint16_t rmiaddr, uint8_t count, bool write)
{
	uint8_t e[4] = { (uint8_t)rmiaddr, (uint8_t)(rmiaddr >> 8), write ? 0 : count,
			 write ? 1 : 0 };
	uint8_t i = (uint8_t)(map_next++ % 8);

	smb_block_write((uint8_t)(0x80 + i), e, 4);
	return i;
}

static void rmi_read(uint16_t a, uint8_t *buf, unsigned len)
{
	if (I2C) {
		i2c_read(a, buf, len);
		return;
	}
	while (len) {
		unsigned n = len < 32 ? len : 32;

		assert_int_equal(smb_block_read(map(a, (uint8_t)n, false), buf), (int)n);
		buf += 32 <= len ? 32 : len;
		len -= n;
		a += 32;
	}
}

static uint8_t rd8(uint16_t a)
{
	uint8_t v;

	rmi_read(a, &v, 1);
	return v;
}

static void rmi_write(uint16_t a, const uint8_t *buf, unsigned len)
{
	if (I2C) {
		i2c_write(a, buf, len);
		return;
	}
	while (len) {
		unsigned n = len < 32 ? len : 32;

		smb_block_write(map(a, (uint8_t)n, true), buf, (uint8_t)n);
		buf += n;
		len -= n;
		a += 32;
	}
}

static void wr8(uint16_t a, uint8_t v)
{
	rmi_write(a, &v, 1);
}

static void test_smbus_version(void **state)
{
	uint8_t cmd = 0xfd, v = 0xee;

	(void)state;
	start(0x1e0f00, 0);
	assert_int_equal(rmi4_model_ops.write(&M, ADDR, &cmd, 1), EM_ACK);
	assert_int_equal(rmi4_model_ops.read(&M, ADDR, &v, 1), EM_ACK);
	assert_int_equal(v + 1, 2); /* rmi_smb_get_version */
	assert_int_equal(rmi4_model_ops.write(&M, 0x2d, &cmd, 1), EM_NAK_ADDR);
	/* an entry never mapped reads a count of 0: i2c-core's -EPROTO */
	cmd = 5;
	assert_int_equal(rmi4_model_ops.write(&M, ADDR, &cmd, 1), EM_ACK);
	assert_int_equal(rmi4_model_ops.read(&M, ADDR, &v, 1), EM_ACK);
	assert_int_equal(v, 0);
}

/* rmi_scan_pdt on page 0 and rmi_check_bootloader_mode */
static void pdt(uint8_t f01[6], uint8_t f34[6], uint8_t end[6])
{
	rmi_read(0xe9, f01, 6);
	rmi_read(0xe3, f34, 6);
	rmi_read(0xdd, end, 6);
}

static void test_pdt_app(void **state)
{
	uint8_t f01[6], f34[6], end[6], q[24];
	const uint8_t w01[6] = { 0x00, 0x1c, 0x18, 0x1a, 0x01, 0x01 };
	const uint8_t w34[6] = { 0x20, 0x00, 0x28, 0x29, 0x41, 0x34 };
	const uint8_t w11[6] = { 0x80, 0x00, 0x88, 0x98, 0x01, 0x11 };

	(void)state;
	start(0x1e0f00, 0);
	pdt(f01, f34, end);
	assert_memory_equal(f01, w01, 6);
	assert_memory_equal(f34, w34, 6);
	/* the application's 2D sensor, F11, then the end */
	assert_memory_equal(end, w11, 6);
	rmi_read(0xd7, end, 6);
	assert_int_equal(end[5], 0); /* RMI4_END_OF_PDT */
	/* rmi_f11_get_query_parameters: query 1 (5 fingers, absolute) */
	assert_int_equal(rd8(0x81) & 0x07, 4);
	assert_int_equal(rd8(0x81) & 0x10, 0x10);
	/* f11_read_control_regs: ctrl 6..9, the maxima */
	rmi_read(0x88, q, 12);
	assert_int_equal(q[6] | q[7] << 8, RMI4_MODEL_F11_MAX_X);
	assert_int_equal(q[8] | q[9] << 8, RMI4_MODEL_F11_MAX_Y);
	assert_int_equal((f34[4] & 0x60) >> 5, 2); /* F34 v7: version > 1 */
	assert_int_equal(rd8(0xef), 0);		   /* PDT properties: no BSR */
	assert_int_equal(rd8(0x1a), 0x80);	   /* unconfigured, not bootloader */
	assert_int_equal(rd8(0x29) & 0x80, 0);
	/* rmi_f01_probe: configured bit, then the status */
	wr8(0x18, (uint8_t)(rd8(0x18) | 0x80));
	assert_int_equal(rd8(0x1a), 0x00);
	/* rmi_f01_read_properties */
	rmi_read(0x00, q, 21);
	assert_int_equal(q[0], 1);
	assert_int_equal(q[1] & 0x80, 0x80);
	assert_string_equal((char *)q + 11, "s3203");
	assert_int_equal(rd8(21) & 1, 1);
	assert_int_equal(rd8(22), 1);
	assert_int_equal(rd8(23) & 2, 2);
	rmi_read(17, q, 3);
	assert_int_equal(q[0] | q[1] << 8 | q[2] << 16, 0x1e0f00);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_APP);
}

static void test_pdt_bootloader(void **state)
{
	uint8_t f01[6], f34[6], end[6], q[3];

	(void)state;
	start(0, 0);
	pdt(f01, f34, end);
	assert_int_equal(f01[5], 0x01);
	assert_int_equal(f34[5], 0x34);
	assert_int_equal(rd8(0x1a) & 0x40, 0x40); /* F01 status bootloader */
	assert_int_equal(rd8(0x29) & 0x80, 0x80); /* F34 status bit 7 */
	rmi_read(17, q, 3);
	assert_int_equal(q[0] | q[1] | q[2], 0);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_BL);
	assert_int_equal(rmi4_model_build_id(&M), 0);
}

/* rmi_f34v7_read_queries + read_partition_table: the table's entries */
struct ptable {
	uint16_t len[16], start[16];
};

static void read_partition_table(struct ptable *t)
{
	uint8_t q0, q[21], ctrl[32], buf[34], len[2] = { 4, 0 }, zero[2] = { 0, 0 };
	int parts = 0, i;

	q0 = rd8(0x20);
	assert_int_equal(q0 & 0x08, 0x08); /* has config id */
	rmi_read((uint16_t)(0x20 + (q0 & 7) + 1), q, 21);
	assert_int_equal(q[0], 0);
	assert_int_equal(q[1], 7);			      /* bootloader V7.0 */
	assert_int_equal(q[7] | q[8] << 8, RMI4_MODEL_BLOCK); /* block size */
	assert_int_equal(q[13] | q[14] << 8, 4);	      /* flash config length */
	assert_int_equal(q[15] | q[16] << 8, RMI4_MODEL_PAYLOAD_BLOCKS);
	for (i = 17; i < 21; i++)
		parts += __builtin_popcount(q[i]);
	assert_int_equal(parts, 4);
	rmi_read(0x28, ctrl, 32);
	assert_int_equal(ctrl[28] << 24 | ctrl[29] << 16 | ctrl[30] << 8 | ctrl[31],
			 (int)rmi4_model_config_id(&M));
	wr8(0x2a, RMI4_PART_FLASH_CONFIG);
	rmi_write(0x2b, zero, 2);
	rmi_write(0x2c, len, 2);
	wr8(0x2d, 2); /* read */
	assert_int_equal(rd8(0x2d), 0);
	assert_int_equal(rd8(0x29) & 0x1f, 0);
	rmi_read(0x2e, buf, (unsigned)(parts * 8 + 2)); /* 34: two SMBus blocks */
	memset(t, 0, sizeof(*t));
	for (i = 0; i < parts; i++) {
		const uint8_t *e = buf + 2 + 8 * i;

		t->len[e[0] & 0x1f] = (uint16_t)(e[2] | e[3] << 8);
		t->start[e[0] & 0x1f] = (uint16_t)(e[4] | e[5] << 8);
	}
}

static void test_partition_table(void **state)
{
	struct ptable t;

	(void)state;
	start(0x1e0f00, 0);
	read_partition_table(&t);
	assert_int_equal(t.len[RMI4_PART_FLASH_CONFIG], 4);
	assert_int_equal(t.len[RMI4_PART_GLOBAL_PARAMS], 2);
	assert_int_equal(t.len[RMI4_PART_CORE_CODE], 64);
	assert_int_equal(t.len[RMI4_PART_CORE_CONFIG], 8);
	assert_int_equal(t.start[RMI4_PART_CORE_CODE], 6);
	assert_int_equal(rmi4_model_stats(&M)->blocks_read, 4);
	/* the read raised F34's interrupt (bit 1): one Host Notify pulse */
	assert_true(rmi4_model_ops.irq_asserted(&M));
	assert_int_equal(rmi4_model_stats(&M)->notifies, 1);
	rmi4_model_ops.advance(&M, RMI4_MODEL_NOTIFY_NS);
	assert_false(rmi4_model_ops.irq_asserted(&M));
	assert_int_equal(rd8(0x1b), 0x02);
	assert_int_equal(rd8(0x1b), 0x00); /* read clears */
}

/* rmi_f34v7_parse_image_header_10: a container's content by id */
struct blk {
	const uint8_t *data;
	uint32_t size;
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static struct blk container(const uint8_t *image, unsigned id)
{
	const uint8_t *top = image + le32(image + 12);
	uint32_t list = le32(top + 28), n = le32(top + 24) / 4, i, j;
	struct blk b = { NULL, 0 };

	for (i = 0; i < n; i++) {
		const uint8_t *d = image + le32(image + list + 4 * i);
		int cid = d[4] | d[5] << 8;

		if (cid == (int)id) {
			b.data = image + le32(d + 28);
			b.size = le32(d + 24);
		}
		if (cid == 3) { /* the bootloader's own containers */
			const uint8_t *bl = image + le32(d + 28);

			for (j = 1; j < le32(d + 24) / 4; j++) {
				const uint8_t *s = image + le32(bl + 4 * j);

				if ((s[4] | s[5] << 8) == (int)id) {
					b.data = image + le32(s + 28);
					b.size = le32(s + 24);
				}
			}
		}
	}
	return b;
}

/* one single-transaction command (rmi_f34v7_write_command_single_transaction) */
static uint8_t single(uint8_t partition, uint8_t cmd)
{
	uint8_t d[8] = { partition, 0, 0, 0, 0, cmd, 0, 7 };

	rmi_write(0x2a, d, 8);
	assert_int_equal(rd8(0x2d), 0);
	return rd8(0x29) & 0x1f;
}

/* rmi_f34v7_write_f34v7_blocks */
static uint8_t write_blocks(uint8_t partition, const uint8_t *data, unsigned blocks)
{
	uint8_t zero[2] = { 0, 0 };

	wr8(0x2a, partition);
	rmi_write(0x2b, zero, 2);
	do {
		unsigned t = blocks < RMI4_MODEL_PAYLOAD_BLOCKS ? blocks
								: RMI4_MODEL_PAYLOAD_BLOCKS;
		uint8_t len[2] = { (uint8_t)t, 0 }, st;

		rmi_write(0x2c, len, 2);
		wr8(0x2d, 3);
		if (rmi4_model_mode(&M) != RMI4_MODEL_BL)
			return 0xff;
		rmi_write(0x2e, data, t * RMI4_MODEL_BLOCK);
		if (rd8(0x2d) != 0)
			return 0xfe; /* no completion: the driver times out */
		st = rd8(0x29) & 0x1f;
		if (st)
			return st;
		data += t * RMI4_MODEL_BLOCK;
		blocks -= t;
	} while (blocks);
	return 0;
}

/* rmi_f34v7_start_reflash + rmi_f34v7_do_reflash (6.1, 6.12) */
static int reflash(const uint8_t *image)
{
	struct blk cc = container(image, 18), cf = container(image, 19),
		   fl = container(image, 15), gp = container(image, 17);
	uint8_t blcfg[2 * RMI4_MODEL_BLOCK], len[2] = { 2, 0 }, zero[2] = { 0, 0 }, st;
	struct ptable t;

	if (image[7] != 0x10 || !fl.data)
		return -1;
	if (!(rd8(0x29) & 0x80))
		assert_int_equal(single(RMI4_PART_BOOTLOADER, 1), 0);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_BL);
	assert_int_equal(rd8(0x1a) & 0x40, 0x40);
	read_partition_table(&t);
	if (gp.size / RMI4_MODEL_BLOCK != t.len[RMI4_PART_GLOBAL_PARAMS])
		return -2;			   /* Bootloader config size mismatch */
	if ((st = single(RMI4_PART_CORE_CODE, 5))) /* erase application */
		return st;
	/* the bootloader config read back, to be written again */
	wr8(0x2a, RMI4_PART_GLOBAL_PARAMS);
	rmi_write(0x2b, zero, 2);
	rmi_write(0x2c, len, 2);
	wr8(0x2d, 2);
	assert_int_equal(rd8(0x29) & 0x1f, 0);
	rmi_read(0x2e, blcfg, sizeof(blcfg));
	if (fl.size / RMI4_MODEL_BLOCK != t.len[RMI4_PART_FLASH_CONFIG])
		return -3;
	if ((st = write_blocks(RMI4_PART_FLASH_CONFIG, fl.data, fl.size / RMI4_MODEL_BLOCK)) ||
	    (st = write_blocks(RMI4_PART_GLOBAL_PARAMS, blcfg, 2)) ||
	    (st = write_blocks(RMI4_PART_CORE_CODE, cc.data, cc.size / RMI4_MODEL_BLOCK)) ||
	    (st = write_blocks(RMI4_PART_CORE_CONFIG, cf.data, cf.size / RMI4_MODEL_BLOCK)))
		return st;
	return 0;
}

static void test_image(void **state)
{
	uint32_t n;
	struct blk b;

	(void)state;
	n = rmi4_model_make_image(img, 0x1e0f01, 0x11223344, "s3203", RMI4_IMG_GOOD);
	assert_int_equal(img[7], 0x10);
	assert_int_equal(le32(img), rmi4_model_crc32(img + 4, n - 4));
	b = container(img, 18);
	assert_int_equal(b.size, 1024);
	assert_int_equal(le32(b.data) & 0xffffff, 0x1e0f01);
	assert_int_equal(container(img, 19).size, 128);
	assert_int_equal(container(img, 15).size, 64);
	assert_int_equal(container(img, 17).size, 32);
	assert_int_equal(le32(container(img, 13).data + 4), 0x1e0f01);
	rmi4_model_make_image(img, 1, 0, "s3203", RMI4_IMG_BAD_HEADER);
	assert_int_equal(img[7], 0x0f);
	rmi4_model_make_image(img, 1, 0, "s3203", RMI4_IMG_NO_FLASH_CONFIG);
	assert_null(container(img, 15).data);
	rmi4_model_make_image(img, 1, 0, "s3203", RMI4_IMG_BL_CONFIG_SIZE);
	assert_int_equal(container(img, 17).size, 16);
}

static void test_update_good(void **state)
{
	(void)state;
	start(0x1e0f00, 0);
	rmi4_model_make_image(img, 0x1e0f01, 0x11223344, "s3203", RMI4_IMG_GOOD);
	assert_int_equal(reflash(img), 0);
	assert_int_equal(rmi4_model_stats(&M)->blocks_written, 78);
	assert_int_equal(rmi4_model_stats(&M)->erases, 1);
	assert_int_equal(rmi4_model_stats(&M)->bl_entries, 1);
	assert_int_equal(rmi4_model_stats(&M)->cmd_errors, 0);
	/* nothing but a reset ends the bootloader */
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_BL);
	rmi4_model_reset(&M);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_APP);
	assert_int_equal(rmi4_model_build_id(&M), 0x1e0f01);
	assert_int_equal(rmi4_model_config_id(&M), 0x11223344);
	assert_int_equal(rd8(0x1a) & 0x40, 0);
}

static void test_update_from_bootloader(void **state)
{
	(void)state;
	start(0, 0);
	rmi4_model_make_image(img, 0x000123, 0, "s3203", RMI4_IMG_GOOD);
	assert_int_equal(reflash(img), 0);
	assert_int_equal(rmi4_model_stats(&M)->bl_entries, 0);
	rmi4_model_ops.set_power(&M, false);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_OFF);
	rmi4_model_ops.set_power(&M, true);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_APP);
	assert_int_equal(rmi4_model_build_id(&M), 0x000123);
}

static void test_refused(void **state)
{
	(void)state;
	start(0x1e0f00, 0);
	rmi4_model_make_image(img, 0x1e0f09, 0, "s3203", RMI4_IMG_BAD_HEADER);
	assert_int_equal(reflash(img), -1);
	rmi4_model_make_image(img, 0x1e0f09, 0, "s3203", RMI4_IMG_NO_FLASH_CONFIG);
	assert_int_equal(reflash(img), -1);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_APP);
	/* in application mode the chip erases nothing; a wrong bootloader id */
	assert_int_equal(single(RMI4_PART_CORE_CODE, 4), 1);
	{
		uint8_t d[8] = { RMI4_PART_BOOTLOADER, 0, 0, 0, 0, 1, 0, 6 };

		rmi_write(0x2a, d, 8);
		assert_int_equal(rd8(0x29) & 0x1f, 4);
		assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_APP);
	}
	/* the wrong bootloader config size: refused after entering the bootloader */
	rmi4_model_make_image(img, 0x1e0f09, 0, "s3203", RMI4_IMG_BL_CONFIG_SIZE);
	assert_int_equal(reflash(img), -2);
	assert_int_equal(rmi4_model_stats(&M)->erases, 0);
	rmi4_model_reset(&M);
	assert_int_equal(rmi4_model_build_id(&M), 0x1e0f00);
	/* a bad core code CRC is written whole; the chip will not start it */
	rmi4_model_make_image(img, 0x1e0f09, 0, "s3203", RMI4_IMG_BAD_CHECKSUM);
	assert_int_equal(reflash(img), 0);
	rmi4_model_reset(&M);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_BL);
	assert_int_equal(rmi4_model_stats(&M)->boots_bl, 1);
	/* a write over programmed blocks: not erased */
	rmi4_model_make_image(img, 0x1e0f0a, 0, "s3203", RMI4_IMG_GOOD);
	assert_int_equal(write_blocks(RMI4_PART_FLASH_CONFIG, img, 4), 3);
	/* one partition erased while the table is there; after erase
	 * application, single erases fail until a new table is written */
	assert_int_equal(single(RMI4_PART_CORE_CONFIG, 4), 0);
	assert_int_equal(single(RMI4_PART_CORE_CODE, 5), 0);
	assert_int_equal(single(RMI4_PART_CORE_CONFIG, 4), 2);
	assert_int_equal(write_blocks(RMI4_PART_FLASH_CONFIG, container(img, 15).data, 4), 0);
	assert_int_equal(single(RMI4_PART_CORE_CONFIG, 4), 0);
}

/*
 * rmi_i2c (rmi_i2c.c): the page select register 0xff, registers read as
 * the low byte written then the bytes read (any length in one message),
 * written as one message; the PDT on page 0, pages 1 and 2 empty (where
 * rmi_scan_pdt stops); the interrupt output a level until F01's
 * interrupt status is read; the whole flash as rmi_f34v7 makes it, then
 * F01's reset (rmi_initial_reset: rmi_i2c has no transport reset) starts
 * the new application.
 */
static void test_i2c(void **state)
{
	uint8_t f01[6], f34[6], end[6], e[6], v, q[21], cmd = 0xfd;
	const uint8_t w01[6] = { 0x00, 0x1c, 0x18, 0x1a, 0x01, 0x01 };
	uint8_t pdt18[18];

	(void)state;
	start_on(0x1e0f00, 0, true);
	/* rmi_i2c_probe: page 0 first */
	i2c_set_page(0);
	/* the PDT in one read of three entries, from 0xdd up */
	rmi_read(0xdd, pdt18, 18);
	assert_memory_equal(pdt18 + 12, w01, 6);
	assert_int_equal(pdt18[6 + 5], 0x34);
	assert_int_equal(pdt18[5], 0x11);
	pdt(f01, f34, end);
	assert_memory_equal(f01, w01, 6);
	/* pages 1 and 2: empty (their first entry ends the PDT) */
	rmi_read(0x1e9, e, 6);
	assert_int_equal(e[5], 0);
	assert_int_equal(i2c_page, 1);
	rmi_read(0x2e9, e, 6);
	assert_int_equal(e[5], 0);
	/* the page select register reads back; page 0 again for F01 */
	assert_int_equal(rmi4_model_ops.write(&M, ADDR, (uint8_t[]){ 0xff }, 1), EM_ACK);
	assert_int_equal(rmi4_model_ops.read(&M, ADDR, &v, 1), EM_ACK);
	assert_int_equal(v, 2);
	rmi_read(0x00, q, 21);
	assert_string_equal((char *)q + 11, "s3203");
	/* no SMBus here: 0xfd is no version register (reads 0 as SMBus's
	 * "version 1" would, which rmi_smbus refuses) */
	assert_int_equal(rmi4_model_ops.write(&M, ADDR, &cmd, 1), EM_ACK);
	assert_int_equal(rmi4_model_ops.read(&M, ADDR, &v, 1), EM_ACK);
	assert_int_equal(v, 0);
	/* the flash over I2C: 64-byte payload writes and reads in one go */
	rmi4_model_make_image(img, 0x1e0f01, 0x11223344, "s3203", RMI4_IMG_GOOD);
	assert_int_equal(reflash(img), 0);
	assert_int_equal(rmi4_model_stats(&M)->blocks_written, 78);
	assert_int_equal(rmi4_model_stats(&M)->cmd_errors, 0);
	/* the level interrupt: F34's completion pending until read */
	assert_true(rmi4_model_ops.irq_asserted(&M));
	rd8(0x1b);
	assert_false(rmi4_model_ops.irq_asserted(&M));
	assert_true(rmi4_model_stats(&M)->notifies > 0);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_BL);
	/* rmi_initial_reset: F01's reset command, the page select reset */
	wr8(0x1c, 0x01);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_APP);
	assert_int_equal(rmi4_model_build_id(&M), 0x1e0f01);
	assert_int_equal(rmi4_model_ops.write(&M, ADDR, (uint8_t[]){ 0xff }, 1), EM_ACK);
	assert_int_equal(rmi4_model_ops.read(&M, ADDR, &v, 1), EM_ACK);
	assert_int_equal(v, 0);
	/* nobody else at another address */
	assert_int_equal(rmi4_model_ops.write(&M, 0x2d, (uint8_t[]){ 0xff, 0 }, 2),
			 EM_NAK_ADDR);
	I2C = false;
}

static void test_power_loss(void **state)
{
	(void)state;
	start(0x1e0f00, 40);
	rmi4_model_make_image(img, 0x1e0f01, 0, "s3203", RMI4_IMG_GOOD);
	/* the 40th block: 4 + 2 config blocks, then the core code's 34th;
	 * the rest of the sequence meets a chip that rebooted (the kernel
	 * times out on the completion that never comes) */
	assert_int_not_equal(reflash(img), 0);
	assert_int_equal(rmi4_model_stats(&M)->power_losses, 1);
	assert_int_equal(rmi4_model_stats(&M)->blocks_written, 39);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_BL);
	rmi4_model_reset(&M);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_BL);
	assert_int_equal(rmi4_model_build_id(&M), 0);
	map_next = 0; /* the chip's mapping table went with the power */
	assert_int_equal(reflash(img), 0);
	rmi4_model_reset(&M);
	assert_int_equal(rmi4_model_build_id(&M), 0x1e0f01);
}

/* ------------------------------------------------------------ F34 v5 */

#define V5_Q 0x20
#define V5_C 0x29
#define V5_D 0x2d
#define V5_CTRL (V5_D + 2 + RMI4_MODEL_BLOCK) /* rmi_f34's ctrl_address */

/* rmi_f34_command: the bootloader id (query 0..1) into the block data
 * when asked, the control register read, the command ORed in and written
 * back; the status bits after it (the chip answers at once). */
static uint8_t v5_command(uint8_t cmd, bool bl_id)
{
	uint8_t id[2], st;

	if (bl_id) {
		rmi_read(V5_Q, id, 2);
		rmi_write(V5_D + 2, id, 2);
	}
	st = rd8(V5_CTRL);
	wr8(V5_CTRL, (uint8_t)(st | (cmd & 0x0f)));
	return rd8(V5_CTRL);
}

/* rmi_f34_write_blocks: the block number zeroed, then each block's data
 * and its command */
static int v5_write_blocks(const uint8_t *data, unsigned n, uint8_t cmd)
{
	const uint8_t zero[2] = { 0, 0 };
	unsigned i;

	rmi_write(V5_D, zero, 2);
	for (i = 0; i < n; i++) {
		uint8_t st;

		rmi_write(V5_D + 2, data + i * RMI4_MODEL_BLOCK, RMI4_MODEL_BLOCK);
		if ((st = v5_command(cmd, false)) & 0x7f)
			return st;
	}
	return 0;
}

/* rmi_firmware_update for v5: enable flash programming, then
 * rmi_f34_flash_firmware (erase all, the firmware, the config) */
static int v5_reflash(const uint8_t *im)
{
	uint32_t fw = le32(im + 8), cfg = le32(im + 12);
	uint8_t st;
	int rc;

	if ((st = v5_command(0x0f, true)) != 0x80)
		return st;
	if ((st = v5_command(0x03, true)) != 0x80)
		return st;
	if ((rc = v5_write_blocks(im + 0x100, fw / RMI4_MODEL_BLOCK, 0x02)))
		return rc;
	return v5_write_blocks(im + 0x100 + fw, cfg / RMI4_MODEL_BLOCK, 0x06);
}

/* rmi_f34_probe (function version 0): 9 queries, the config id from
 * control; rmi_check_bootloader_mode reads only F01's status for it */
static void test_v5_pdt_and_queries(void **state)
{
	uint8_t f01[6], f34[6], end[6], q[9], c[9];
	const uint8_t w34[6] = { V5_Q, 0x00, V5_C, V5_D, 0x01, 0x34 };

	(void)state;
	start_v5(0x1e0f00, 0);
	pdt(f01, f34, end);
	assert_memory_equal(f34, w34, 6); /* version 0: rmi_f34's v5 code */
	assert_int_equal(end[5], 0x11);
	rmi_read(V5_Q, q, 9);
	assert_int_equal(q[0], '0');
	assert_int_equal(q[1], '5');
	assert_int_equal(q[2] & 0x04, 0x04); /* has config id */
	assert_int_equal(q[3] | q[4] << 8, RMI4_MODEL_BLOCK);
	assert_int_equal(q[5] | q[6] << 8, RMI4_MODEL_V5_FW_BLOCKS);
	assert_int_equal(q[7] | q[8] << 8, RMI4_MODEL_V5_CONFIG_BLOCKS);
	rmi_read(V5_C, c, 9); /* rmi_f34 reads 9 bytes there */
	assert_int_equal(c[0] << 24 | c[1] << 16 | c[2] << 8 | c[3], 0x1a2b3c4d);
	assert_int_equal(rd8(V5_CTRL), 0x00); /* programming not enabled */
	assert_int_equal(rd8(0x1a) & 0x40, 0);
	assert_int_equal(rmi4_model_build_id(&M), 0x1e0f00);
	/* no application: the bootloader's PDT, F01 status bit 6 */
	start_v5(0, 0);
	pdt(f01, f34, end);
	assert_memory_equal(f34, w34, 6);
	assert_int_equal(end[5], 0);
	assert_int_equal(rd8(0x1a) & 0x40, 0x40);
	assert_int_equal(rd8(V5_CTRL), 0x80);
}

static void test_v5_update(void **state)
{
	uint8_t f01[6], f34[6], end[6];

	(void)state;
	start_v5(0x1e0f00, 0);
	assert_int_equal(rmi4_model_make_image_v5(img, 0x1e0f07, 0x55667788, "s3203", 5),
			 RMI4_MODEL_V5_IMAGE_SIZE);
	assert_int_equal(img[7], 5);
	assert_int_equal(le32(img + 8), RMI4_MODEL_V5_FW_BLOCKS * RMI4_MODEL_BLOCK);
	assert_int_equal(le32(img + 12), RMI4_MODEL_V5_CONFIG_BLOCKS * RMI4_MODEL_BLOCK);
	assert_string_equal((char *)img + 0x10, "s3203");
	assert_int_equal(v5_reflash(img), 0);
	/* enabled: the bootloader's PDT (F01, F34), F01 status bit 6 */
	pdt(f01, f34, end);
	assert_int_equal(end[5], 0);
	assert_int_equal(rd8(0x1a) & 0x40, 0x40);
	assert_int_equal(rmi4_model_stats(&M)->bl_entries, 1);
	assert_int_equal(rmi4_model_stats(&M)->erases, 1);
	assert_int_equal(rmi4_model_stats(&M)->blocks_written,
			 RMI4_MODEL_V5_FW_BLOCKS + RMI4_MODEL_V5_CONFIG_BLOCKS);
	assert_int_equal(rmi4_model_stats(&M)->cmd_errors, 0);
	/* each command raised F34's interrupt (bit 1) */
	assert_int_equal(rd8(0x1b) & 0x02, 0x02);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_BL);
	rmi4_model_reset(&M);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_APP);
	assert_int_equal(rmi4_model_build_id(&M), 0x1e0f07);
	assert_int_equal(rmi4_model_config_id(&M), 0x55667788);
	/* from the bootloader (nothing in flash) too */
	start_v5(0, 0);
	assert_int_equal(v5_reflash(img), 0);
	assert_int_equal(rmi4_model_stats(&M)->bl_entries, 0);
	rmi4_model_ops.set_power(&M, false);
	rmi4_model_ops.set_power(&M, true);
	assert_int_equal(rmi4_model_build_id(&M), 0x1e0f07);
}

/* What the chip refuses: each error in the status bits (4..6), the
 * command bits cleared; the flash as it was. */
static void test_v5_wrong_sequence(void **state)
{
	const uint8_t wrong[2] = { '0', '7' }, far[2] = { RMI4_MODEL_V5_FW_BLOCKS, 0 };

	(void)state;
	start_v5(0x1e0f00, 0);
	rmi4_model_make_image_v5(img, 0x1e0f07, 0, "s3203", 5);
	/* not in the bootloader: no write, no erase */
	assert_int_equal(v5_write_blocks(img + 0x100, 1, 0x02), 0x10);
	assert_int_equal(v5_command(0x03, true), 0x10);
	/* a wrong bootloader id: not enabled */
	rmi_write(V5_D + 2, wrong, 2);
	wr8(V5_CTRL, 0x0f);
	assert_int_equal(rd8(V5_CTRL), 0x40);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_APP);
	assert_int_equal(rmi4_model_stats(&M)->blocks_written, 0);
	assert_int_equal(v5_command(0x0f, true), 0x80);
	/* programmed blocks are not written again before an erase */
	assert_int_equal(v5_write_blocks(img + 0x100, 1, 0x02), 0xb0);
	/* erase without the bootloader id */
	rmi_write(V5_D + 2, wrong, 2);
	wr8(V5_CTRL, 0x83);
	assert_int_equal(rd8(V5_CTRL), 0xc0);
	assert_int_equal(rmi4_model_stats(&M)->erases, 0);
	/* erase config keeps the firmware; a reset: no whole application */
	assert_int_equal(v5_command(0x07, true), 0x80);
	rmi4_model_reset(&M);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_BL);
	/* the config written back; the block number past the area */
	assert_int_equal(v5_write_blocks(img + 0x100 +
						 RMI4_MODEL_V5_FW_BLOCKS * RMI4_MODEL_BLOCK,
					 RMI4_MODEL_V5_CONFIG_BLOCKS, 0x06),
			 0);
	assert_int_equal(v5_command(0x06, false), 0xa0);
	rmi_write(V5_D, far, 2);
	assert_int_equal(v5_command(0x02, false), 0xa0);
	/* an unknown command */
	assert_int_equal(v5_command(0x09, false), 0x90);
	rmi4_model_reset(&M);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_APP);
	assert_int_equal(rmi4_model_build_id(&M), 0x1e0f00);
	assert_int_equal(rmi4_model_config_id(&M), 0);
}

/* The supply drops in the firmware: the bootloader after it, the next
 * whole flash recovers */
static void test_v5_power_loss(void **state)
{
	(void)state;
	start_v5(0x1e0f00, 10);
	rmi4_model_make_image_v5(img, 0x1e0f07, 0, "s3203", 5);
	assert_int_not_equal(v5_reflash(img), 0);
	assert_int_equal(rmi4_model_stats(&M)->power_losses, 1);
	assert_int_equal(rmi4_model_stats(&M)->blocks_written, 9);
	assert_int_equal(rmi4_model_mode(&M), RMI4_MODEL_BL);
	map_next = 0;
	assert_int_equal(v5_reflash(img), 0);
	rmi4_model_reset(&M);
	assert_int_equal(rmi4_model_build_id(&M), 0x1e0f07);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smbus_version),
		cmocka_unit_test(test_pdt_app),
		cmocka_unit_test(test_pdt_bootloader),
		cmocka_unit_test(test_partition_table),
		cmocka_unit_test(test_image),
		cmocka_unit_test(test_update_good),
		cmocka_unit_test(test_update_from_bootloader),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_power_loss),
		cmocka_unit_test(test_i2c),
		cmocka_unit_test(test_v5_pdt_and_queries),
		cmocka_unit_test(test_v5_update),
		cmocka_unit_test(test_v5_wrong_sequence),
		cmocka_unit_test(test_v5_power_loss),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
