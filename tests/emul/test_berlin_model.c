// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Goodix Berlin chip model's own tests, and the goodix-berlin-spi
 * driver model's probe against it.  The frames are the ones
 * goodix_berlin_spi.c sends; the checksums, the chip-info walk and the
 * flashing sequence are written here from goodix_berlin_core.c and Goodix's
 * fwupdate.c (goodix_fw_update_proc), independently of the model's helpers
 * wherever a value is judged, so the model is held to the documented
 * protocol and not to itself.  Byte vectors marked "by hand" were computed
 * on paper.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <linux/spi/spidev.h>
#include <sys/ioctl.h>

#include "emub-berlin.h"
#include "berlin_image.h"
#include "berlin_model.h"
#include "emub-testutil.h"
#include "emuboard-spi.h"

#define MS EM_NSEC_PER_MSEC

/* ------------------------------------------------------------ the rig */

/* The model driven directly, or (fd >= 0) a chip behind /dev/spidevB.C
 * of a board, in the board's fast pacing (a host's waits are the chip's
 * busy times there: no sleeping). */
struct rig {
	struct berlin_model *m;
	em_u64 now;
	int fd;
	enum berlin_variant variant;
	int errors; /* failed ioctls */
};

static struct rig *rig_new(enum berlin_variant v, const em_u8 *flash,
			   const struct berlin_faults *f)
{
	struct rig *r = calloc(1, sizeof(*r));

	r->m = calloc(1, sizeof(*r->m));
	r->fd = -1;
	r->variant = v;
	if (f)
		r->m->faults = *f;
	berlin_model_init(r->m, v, flash, 0);
	r->now = 0;
	return r;
}

static void rig_free(struct rig *r)
{
	free(r->m);
	free(r);
}

static void sleep_ns(struct rig *r, em_u64 ns)
{
	if (r->fd >= 0)
		return;
	r->now += ns;
	berlin_model_ops.advance(r->m, r->now);
}

/* One chip-select frame at 8 MHz (1 us a byte). */
static void frame(struct rig *r, const uint8_t *tx, uint8_t *rx, uint32_t len)
{
	uint8_t *sink;

	if (r->fd >= 0) {
		struct spi_ioc_transfer x;

		memset(&x, 0, sizeof(x));
		x.tx_buf = (uintptr_t)tx;
		x.rx_buf = (uintptr_t)rx;
		x.len = len;
		x.speed_hz = 8000000;
		x.bits_per_word = 8;
		if (ioctl(r->fd, SPI_IOC_MESSAGE(1), &x) < 0) {
			r->errors++;
			if (rx)
				memset(rx, 0xff, len);
		}
		return;
	}
	sink = rx ? rx : malloc(len);

	berlin_model_ops.advance(r->m, r->now);
	berlin_model_ops.select(r->m, true);
	berlin_model_ops.xfer(r->m, tx, sink, len);
	berlin_model_ops.select(r->m, false);
	r->now += (em_u64)len * 1000;
	if (!rx)
		free(sink);
}

static uint32_t dummies(struct rig *r)
{
	return r->variant == BERLIN_A ? 4 : 3;
}

/* spidev's default bufsiz: every frame, prefix included, fits in it */
#define FRAME_MAX 4096

static void rd1(struct rig *r, uint32_t addr, uint8_t *buf, uint32_t n);
static void wr1(struct rig *r, uint32_t addr, const uint8_t *buf, uint32_t n);

static void rd(struct rig *r, uint32_t addr, uint8_t *buf, uint32_t n)
{
	for (uint32_t off = 0, k; off < n; off += k) {
		k = n - off < FRAME_MAX - 8 ? n - off : FRAME_MAX - 8;
		rd1(r, addr + off, buf + off, k);
	}
}

static void wr(struct rig *r, uint32_t addr, const uint8_t *buf, uint32_t n)
{
	for (uint32_t off = 0, k; off < n; off += k) {
		k = n - off < FRAME_MAX - 5 ? n - off : FRAME_MAX - 5;
		wr1(r, addr + off, buf + off, k);
	}
}

/* goodix_berlin_spi_read: F1, BE32 address, 0xFF dummies, zeros */
static void rd1(struct rig *r, uint32_t addr, uint8_t *buf, uint32_t n)
{
	uint32_t pre = 5 + dummies(r);
	uint8_t *tx = calloc(1, pre + n), *rx = malloc(pre + n);

	tx[0] = 0xF1;
	tx[1] = (uint8_t)(addr >> 24);
	tx[2] = (uint8_t)(addr >> 16);
	tx[3] = (uint8_t)(addr >> 8);
	tx[4] = (uint8_t)addr;
	memset(tx + 5, 0xff, dummies(r));
	frame(r, tx, rx, pre + n);
	memcpy(buf, rx + pre, n);
	free(tx);
	free(rx);
}

static void wr1(struct rig *r, uint32_t addr, const uint8_t *buf, uint32_t n)
{
	uint8_t *tx = malloc(5 + n);

	tx[0] = 0xF0;
	tx[1] = (uint8_t)(addr >> 24);
	tx[2] = (uint8_t)(addr >> 16);
	tx[3] = (uint8_t)(addr >> 8);
	tx[4] = (uint8_t)addr;
	memcpy(tx + 5, buf, n);
	frame(r, tx, NULL, 5 + n);
	free(tx);
}

static void wr8(struct rig *r, uint32_t addr, uint8_t v)
{
	wr(r, addr, &v, 1);
}

/* our own sums, from fwupdate.c checksum_cmp / gdix_append_checksum */
static uint16_t sum8(const uint8_t *p, uint32_t n)
{
	uint32_t s = 0;

	while (n--)
		s += *p++;
	return (uint16_t)s;
}

static uint32_t sum16(const uint8_t *p, uint32_t n)
{
	uint32_t s = 0;

	for (uint32_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] | p[i + 1] << 8);
	return s;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static bool version_ok(const uint8_t v[28])
{
	return sum8(v, 26) == (uint16_t)(v[26] | v[27] << 8);
}

static void version(struct rig *r, uint8_t v[28])
{
	rd(r, r->variant == BERLIN_A ? 0x1000C : 0x10014, v, 28);
}

/* ------------------------------------------------------------ flashing */

/* Berlin-D addresses from fwupdate.c (update_brd) */
#define ISP_RAM 0x23800
#define FLASH_CMD 0x12400
#define ISP_BUF 0x12410
#define MISCTL 0xD804
#define WDT 0xD040

enum {
	OK = 0,
	E_PARSE = -1,
	E_HOLD = -2,
	E_ISP = -3,
	E_ACK = -4,
	E_STATUS = -5,
	E_VERSION = -6
};

static int write_confirm(struct rig *r, uint32_t addr, const uint8_t *p, uint32_t n)
{
	uint8_t *back = malloc(n);
	int ok = -1;

	for (int i = 0; i < 3 && ok; i++) {
		wr(r, addr, p, n);
		rd(r, addr, back, n);
		ok = memcmp(p, back, n) ? -1 : 0;
	}
	free(back);
	return ok;
}

static void chip_reset(struct rig *r, unsigned ms)
{
	wr8(r, 0xD808, 0xFE);
	sleep_ns(r, ms * MS);
}

/* goodix_flash_package + goodix_send_flash_cmd: 0, E_ACK, E_STATUS, or
 * the status byte (> 0) for a check failure (0x33) */
static int flash_packet(struct rig *r, uint8_t type, const uint8_t *data, uint32_t n,
			uint32_t addr)
{
	uint8_t pkt[4096 + 4], cmd[16] = { 0 }, st[16];
	int i;

	memcpy(pkt, data, n);
	{
		uint32_t s = sum16(pkt, n);

		pkt[n] = (uint8_t)s;
		pkt[n + 1] = (uint8_t)(s >> 8);
		pkt[n + 2] = (uint8_t)(s >> 16);
		pkt[n + 3] = (uint8_t)(s >> 24);
	}
	if (write_confirm(r, ISP_BUF, pkt, n + 4))
		return E_STATUS;
	cmd[2] = 11;
	cmd[3] = 0xBB;
	cmd[4] = type;
	cmd[5] = (uint8_t)(n + 4);
	cmd[6] = (uint8_t)((n + 4) >> 8);
	cmd[7] = (uint8_t)addr;
	cmd[8] = (uint8_t)(addr >> 8);
	cmd[9] = (uint8_t)(addr >> 16);
	cmd[10] = (uint8_t)(addr >> 24);
	cmd[11] = (uint8_t)sum8(cmd + 2, 9);
	cmd[12] = (uint8_t)(sum8(cmd + 2, 9) >> 8);
	wr(r, FLASH_CMD, cmd, 16);
	for (i = 0; i < 5; i++) {
		rd(r, FLASH_CMD, st, 16);
		if (st[1] == 0xEE)
			break;
		sleep_ns(r, 5 * MS);
	}
	if (st[1] != 0xEE)
		return E_ACK;
	for (i = 0; i < 20; i++) {
		rd(r, FLASH_CMD, st, 16);
		if (st[1] == 0xEE && st[0] == 0xEE)
			return 0;
		sleep_ns(r, 15 * MS);
	}
	return st[0] == 0x33 ? 0x33 : E_STATUS;
}

static int flash_subsys(struct rig *r, uint8_t type, const uint8_t *data, uint32_t size,
			uint32_t addr)
{
	for (uint32_t off = 0; off < size;) {
		uint32_t n = size - off > 4096 ? 4096 : size - off;
		int e = 0;

		for (int retry = 0; retry < 2; retry++) {
			e = flash_packet(r, type, data + off, n, addr + off);
			if (e != 0x33)
				break;
		}
		if (e)
			return e == 0x33 ? E_STATUS : e;
		off += n;
	}
	return 0;
}

/*
 * goodix_fw_update_proc for Berlin-D, forced: parse and check the file,
 * reset, hold the CPU, misc clock, watchdog off, ISP to RAM, 8 x 0x55,
 * reset, "ISP" in the version, subsystems 1.. in packets, reset, compare.
 * @keep_wdt skips the watchdog write (to see why it is there).
 */
static int fw_update(struct rig *r, const uint8_t *f, uint32_t len, bool keep_wdt)
{
	uint32_t num, off = 512;
	uint8_t t[12], v[28];
	int e, i;

	if (len < 42 || le32(f) + 8 != len || sum16(f + 8, len - 8) != le32(f + 4))
		return E_PARSE;
	num = f[29];
	if (num > 47)
		return E_PARSE;
	chip_reset(r, 5);
	for (i = 0; i < 100; i++) {
		static const uint8_t hold[2] = { 0x01, 0x00 };

		wr(r, 0x0002, hold, 2);
		rd(r, 0x2000, t, 4);
		rd(r, 0x2000, t + 4, 4);
		rd(r, 0x2000, t + 8, 4);
		if (!memcmp(t, t + 4, 4) && !memcmp(t + 4, t + 8, 4))
			break;
		sleep_ns(r, 100 * EM_NSEC_PER_USEC);
	}
	if (i == 100)
		return E_HOLD;
	{
		static const uint8_t misctl[4] = { 0x00, 0x00, 0x70, 0x20 }; /* 0x20700000 */

		wr(r, MISCTL, misctl, 4);
	}
	if (!keep_wdt)
		wr8(r, WDT, 0x00);
	if (write_confirm(r, ISP_RAM, f + 512, le32(f + 42 + 1)))
		return E_ISP;
	{
		uint8_t opt[8];

		memset(opt, 0x55, 8);
		if (write_confirm(r, 0x10000, opt, 8))
			return E_ISP;
	}
	chip_reset(r, 100);
	version(r, v);
	if (!version_ok(v) || memcmp(v + 10 + 3, "ISP", 3))
		return E_ISP;
	off += le32(f + 42 + 1);
	for (uint32_t s = 1; s < num; s++) {
		const uint8_t *rec = f + 42 + 10 * s;

		e = flash_subsys(r, rec[0], f + off, le32(rec + 1), le32(rec + 5));
		if (e)
			return e;
		off += le32(rec + 1);
	}
	chip_reset(r, 200);
	version(r, v);
	if (!version_ok(v) || memcmp(v + 10, f + 17, 8) || memcmp(v + 18, f + 25, 4))
		return E_VERSION;
	return OK;
}

static uint8_t *make_file(const char *pid, uint32_t vid, uint32_t app, uint32_t *len)
{
	struct berlin_fw_spec s = { .variant = BERLIN_D,
				    .pid = pid,
				    .vid = { (em_u8)(vid >> 24), (em_u8)(vid >> 16),
					     (em_u8)(vid >> 8), (em_u8)vid },
				    .app_size = app,
				    .split = 16384,
				    .with_config = true,
				    .config_id = 0xC0DE0000 | (vid & 0xffff),
				    .config_version = 3,
				    .seed = vid };
	uint8_t *f;

	*len = berlin_fw_file_size(&s);
	assert_true(*len > 0);
	f = malloc(*len);
	assert_int_equal(berlin_fw_file_build(&s, f, *len), *len);
	return f;
}

/* ------------------------------------------------------------ tests */

/* An empty Berlin-D: the version read, byte for byte. */
static void test_version_frame_empty_chip(void **state)
{
	struct rig *r = rig_new(BERLIN_D, NULL, NULL);
	uint8_t tx[8 + 28] = { 0xF1, 0x00, 0x01, 0x00, 0x14, 0xFF, 0xFF, 0xFF }, rx[8 + 28];
	/* by hand: "BRLD" 01, "NOCODE": 0x124 + 0x01 + 0x1B8 = 0x2DD */
	static const uint8_t want[28] = { 'B', 'R', 'L', 'D', 0,   0,	0x01, 0,   0, 0,
					  'N', 'O', 'C', 'O', 'D', 'E', 0,    0,   0, 0,
					  0,   0,   0,	 0,   0,   0,	0xDD, 0x02 };

	(void)state;
	sleep_ns(r, 100 * MS);
	frame(r, tx, rx, sizeof(tx));
	for (int i = 0; i < 8; i++)
		assert_int_equal(rx[i], 0xFF); /* nothing driven during the prefix */
	assert_memory_equal(rx + 8, want, 28);
	assert_int_equal(berlin_model_mode(r->m), BERLIN_ROM);
	rig_free(r);
}

/* goodix_berlin_dev_confirm's scratch, and writes ending at chip select. */
static void test_device_confirm_and_soft_reset(void **state)
{
	struct rig *r = rig_new(BERLIN_D, NULL, NULL);
	static const uint8_t aa[13] = { 0xF0, 0x00, 0x01, 0x00, 0x00, 0xAA, 0xAA,
					0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA };
	static const uint8_t rst[6] = { 0xF0, 0x00, 0x00, 0xD8, 0x08, 0xFE };
	uint8_t back[8];
	em_u32 resets;

	(void)state;
	sleep_ns(r, 5 * MS);
	frame(r, aa, NULL, sizeof(aa));
	rd(r, 0x10000, back, 8);
	assert_memory_equal(back, aa + 5, 8);
	resets = r->m->stats.resets;
	frame(r, rst, NULL, sizeof(rst));
	assert_int_equal(r->m->stats.resets, resets + 1);
	/* the bus answers 2 ms after the reset, the version after boot */
	rd(r, 0x10000, back, 8);
	assert_int_equal(back[0], 0xFF);
	sleep_ns(r, 3 * MS);
	rd(r, 0x10014, back, 8);
	assert_int_equal(back[0], 0x00); /* not filled yet */
	sleep_ns(r, 20 * MS);
	rd(r, 0x10014, back, 4);
	assert_memory_equal(back, "BRLD", 4);
	/* a frame with another first byte is ignored */
	{
		static const uint8_t junk[7] = { 0xF2, 0x00, 0x01, 0x00, 0x00, 0x11, 0x22 };

		em_u32 ignored = r->m->stats.frames_ignored;

		frame(r, junk, NULL, sizeof(junk));
		assert_int_equal(r->m->stats.frames_ignored, ignored + 1);
	}
	rig_free(r);
}

/* Berlin-A: 4 dummy bytes, version at 0x1000C. */
static void test_berlin_a_dummies_and_addresses(void **state)
{
	struct rig *r = rig_new(BERLIN_A, NULL, NULL);
	uint8_t tx[9 + 6] = { 0xF1, 0x00, 0x01, 0x00, 0x0C, 0xFF, 0xFF, 0xFF, 0xFF }, rx[15];

	(void)state;
	sleep_ns(r, 100 * MS);
	frame(r, tx, rx, sizeof(tx));
	assert_int_equal(rx[8], 0xFF); /* the 4th dummy */
	assert_memory_equal(rx + 9, "BRLA\0\0", 6);
	/* read with Berlin-D's 3 dummies, the first byte is a dummy's */
	frame(r, tx, rx, 14);
	assert_int_equal(rx[8], 0xFF);
	assert_memory_equal(rx + 9, "BRLA\0", 5);
	rig_free(r);
}

/* A chip with firmware: version, chip info as the kernel walks it. */
static void test_app_version_and_chip_info(void **state)
{
	uint8_t *flash = malloc(BERLIN_FLASH_SIZE), v[28], info[1024], raw[2];
	static const em_u8 vid[4] = { 0x01, 0x02, 0x03, 0x04 };
	struct rig *r;
	uint32_t off, touch;
	uint16_t len;

	(void)state;
	memset(flash, 0xff, BERLIN_FLASH_SIZE);
	berlin_model_make_app(flash, 4096, "9916", vid, 7);
	berlin_model_make_config(flash + BERLIN_CONFIG_ADDR, 0x12345678, 9);
	r = rig_new(BERLIN_D, flash, NULL);
	sleep_ns(r, 100 * MS);
	assert_int_equal(berlin_model_mode(r->m), BERLIN_APP);
	version(r, v);
	assert_true(version_ok(v));
	assert_memory_equal(v + 10, "9916\0\0\0\0", 8);
	assert_memory_equal(v + 18, vid, 4);
	/* goodix_berlin_get_ic_info */
	rd(r, 0x10070, raw, 2);
	len = (uint16_t)(raw[0] | raw[1] << 8);
	assert_true(len > 0 && len < 1024);
	rd(r, 0x10070, info, len);
	assert_int_equal(sum8(info, len - 2u), info[len - 2] | info[len - 1] << 8);
	off = 2 + 16 + 10 + 4;
	for (int i = 0; i < 5; i++) {
		off += 1 + 2u * info[off];
		assert_true(off < len);
	}
	touch = le32(info + off + 44);
	assert_int_equal(touch, 0x10308);
	/* fwupdate's GOODIX_CFG_ID_ADDR */
	rd(r, 0x10076, raw, 2);
	assert_int_equal(raw[0] | raw[1] << 8, 0x5678);
	rig_free(r);
	free(flash);
}

/* The CPU counter: moving while running, still while held. */
static void test_hold_cpu(void **state)
{
	struct rig *r = rig_new(BERLIN_D, NULL, NULL);
	static const uint8_t hold[2] = { 0x01, 0x00 };
	uint8_t a[4], b[4];

	(void)state;
	sleep_ns(r, 30 * MS);
	rd(r, 0x2000, a, 4);
	rd(r, 0x2000, b, 4);
	assert_memory_not_equal(a, b, 4);
	wr(r, 0x0002, hold, 2);
	rd(r, 0x2000, a, 4);
	rd(r, 0x2000, b, 4);
	assert_memory_equal(a, b, 4);
	/* a reset lets it run again */
	chip_reset(r, 30);
	rd(r, 0x2000, a, 4);
	rd(r, 0x2000, b, 4);
	assert_memory_not_equal(a, b, 4);
	rig_free(r);
}

/* ISP entry: program to RAM, 8 x 0x55, reset: "ISP"; the option is used
 * once; with the application running and the CPU not held, RAM writes
 * are lost. */
static void test_isp_entry(void **state)
{
	uint8_t isp[8192], v[28], opt[8], back[16];
	uint8_t *flash = malloc(BERLIN_FLASH_SIZE);
	static const em_u8 vid[4] = { 1, 0, 0, 1 };
	static const uint8_t hold[2] = { 0x01, 0x00 };
	struct rig *r;

	(void)state;
	assert_int_equal(berlin_model_make_isp(isp, sizeof(isp), BERLIN_D), sizeof(isp));
	memset(opt, 0x55, 8);
	memset(flash, 0xff, BERLIN_FLASH_SIZE);
	berlin_model_make_app(flash, 2048, "9916", vid, 1);
	r = rig_new(BERLIN_D, flash, NULL);
	sleep_ns(r, 100 * MS);
	/* the application owns ISP RAM */
	wr(r, ISP_RAM, isp, 16);
	rd(r, ISP_RAM, back, 16);
	assert_memory_not_equal(back, isp, 16);
	assert_true(r->m->stats.lost_writes >= 16);
	/* held, it takes the program */
	wr(r, 0x0002, hold, 2);
	assert_int_equal(write_confirm(r, ISP_RAM, isp, sizeof(isp)), 0);
	assert_int_equal(write_confirm(r, 0x10000, opt, 8), 0);
	chip_reset(r, 100);
	version(r, v);
	assert_true(version_ok(v));
	assert_memory_equal(v + 13, "ISP", 3);
	assert_int_equal(berlin_model_mode(r->m), BERLIN_ISP);
	/* the option was consumed: the next reset boots the flash */
	rd(r, 0x10000, back, 8);
	assert_int_equal(back[0], 0x00);
	wr8(r, WDT, 0);
	chip_reset(r, 100);
	assert_int_equal(berlin_model_mode(r->m), BERLIN_APP);
	rig_free(r);
	free(flash);
}

/* The flash command and packet checksums against hand-computed bytes. */
static void test_flash_command_vectors(void **state)
{
	struct rig *r = rig_new(BERLIN_D, NULL, NULL);
	uint8_t isp[4096], opt[8], st[16], back[4];
	/* by hand: words 0x0201 + 0x0403 = 0x00000604 */
	static const uint8_t pkt[8] = { 0x01, 0x02, 0x03, 0x04, 0x04, 0x06, 0x00, 0x00 };
	/* by hand: 0x0B + 0xBB + 0x01 + 0x08 + 0x10 = 0xDF */
	static const uint8_t cmd[16] = { 0,    0,    0x0B, 0xBB, 0x01, 0x08, 0x00, 0x00,
					 0x10, 0x00, 0x00, 0xDF, 0x00, 0,    0,	   0 };
	uint8_t bad[16];

	(void)state;
	assert_int_equal(berlin_model_sum16(pkt, 4), 0x604);
	berlin_model_make_isp(isp, sizeof(isp), BERLIN_D);
	memset(opt, 0x55, 8);
	sleep_ns(r, 30 * MS);
	wr8(r, WDT, 0);
	wr(r, ISP_RAM, isp, sizeof(isp));
	wr(r, 0x10000, opt, 8);
	chip_reset(r, 100);
	assert_int_equal(berlin_model_mode(r->m), BERLIN_ISP);
	/* good packet: ack, 0x22 while it is written, then 0xEE */
	wr(r, ISP_BUF, pkt, 8);
	wr(r, FLASH_CMD, cmd, 16);
	sleep_ns(r, 300 * EM_NSEC_PER_USEC);
	rd(r, FLASH_CMD, st, 16);
	assert_int_equal(st[1], 0xEE);
	assert_int_equal(st[0], 0x22);
	sleep_ns(r, 5 * MS);
	rd(r, FLASH_CMD, st, 16);
	assert_int_equal(st[0], 0xEE);
	assert_memory_equal(r->m->flash + 0x1000, pkt, 4);
	/* bad packet sum: status 0x33 */
	memcpy(bad, pkt, 8);
	bad[4] = 0x05;
	wr(r, ISP_BUF, bad, 8);
	wr(r, FLASH_CMD, cmd, 16);
	sleep_ns(r, 1 * MS);
	rd(r, FLASH_CMD, st, 16);
	assert_int_equal(st[1], 0xEE);
	assert_int_equal(st[0], 0x33);
	/* bad command sum: ack 0x33 */
	memcpy(bad, cmd, 16);
	bad[11] = 0xDE;
	wr(r, ISP_BUF, pkt, 8);
	wr(r, FLASH_CMD, bad, 16);
	sleep_ns(r, 1 * MS);
	rd(r, FLASH_CMD, st, 16);
	assert_int_equal(st[1], 0x33);
	/* beyond the flash: 0x44 */
	memcpy(bad, cmd, 16);
	bad[9] = 0x04; /* 0x41000 */
	bad[11] = 0xE3;
	wr(r, FLASH_CMD, bad, 16);
	sleep_ns(r, 1 * MS);
	rd(r, FLASH_CMD, st, 16);
	assert_int_equal(st[1], 0xEE);
	assert_int_equal(st[0], 0x44);
	/* a read command brings flash into the buffer */
	memcpy(bad, cmd, 16);
	bad[3] = 0xAA;
	bad[11] = (uint8_t)sum8(bad + 2, 9);
	wr(r, ISP_BUF, (const uint8_t[4]){ 0 }, 4);
	wr(r, FLASH_CMD, bad, 16);
	sleep_ns(r, 1 * MS);
	rd(r, ISP_BUF, back, 4);
	assert_memory_equal(back, pkt, 4);
	rig_free(r);
}

/* Empty chip -> fwupdate's sequence -> the firmware runs. */
static void test_flash_empty_chip(void **state)
{
	uint32_t len;
	uint8_t *f = make_file("9916", 0x01000002, 40000, &len), v[28], raw[4];
	struct rig *r = rig_new(BERLIN_D, NULL, NULL);

	(void)state;
	sleep_ns(r, 100 * MS);
	version(r, v);
	assert_memory_equal(v + 10, "NOCODE", 6);
	assert_int_equal(fw_update(r, f, len, false), OK);
	assert_int_equal(berlin_model_mode(r->m), BERLIN_APP);
	version(r, v);
	assert_memory_equal(v + 18, "\x01\x00\x00\x02", 4);
	rd(r, 0x10076, raw, 4);
	assert_int_equal(le32(raw), 0xC0DE0002);
	/* 40000 bytes in 16 KiB subsystems (4 + 4 + 2 packets of up to
	 * 4 KiB), then the 4 KiB config */
	assert_int_equal(r->m->stats.flash_writes, 4 + 4 + 2 + 1);
	assert_int_equal(r->m->stats.checksum_fails, 0);
	rig_free(r);
	free(f);
}

/* One packet's check fails (0x33): fwupdate's retry passes it. */
static void test_checksum_fail_then_retry(void **state)
{
	struct berlin_faults flt = { .checksum_fail_at = 3 };
	uint32_t len;
	uint8_t *f = make_file("9916", 0x01000003, 20000, &len);
	struct rig *r = rig_new(BERLIN_D, NULL, &flt);

	(void)state;
	assert_int_equal(fw_update(r, f, len, false), OK);
	assert_int_equal(r->m->stats.checksum_fails, 1);
	rig_free(r);
	/* every packet fails: the update fails and the chip stays empty,
	 * ready for another try */
	flt = (struct berlin_faults){ .checksum_fail_always = true };
	r = rig_new(BERLIN_D, NULL, &flt);
	assert_int_equal(fw_update(r, f, len, false), E_STATUS);
	chip_reset(r, 100);
	assert_int_equal(berlin_model_mode(r->m), BERLIN_ROM);
	r->m->faults.checksum_fail_always = false;
	assert_int_equal(fw_update(r, f, len, false), OK);
	rig_free(r);
	free(f);
}

/* The supply drops halfway through a packet: the chip comes back with
 * neither the old nor the new firmware, and takes the update again. */
static void test_power_loss_midway_and_recovery(void **state)
{
	struct berlin_faults flt = { .power_loss_at = 3 };
	uint32_t len1, len2;
	uint8_t *f1 = make_file("9916", 0x01000001, 20000, &len1);
	uint8_t *f2 = make_file("9916", 0x01000002, 20000, &len2), v[28];
	struct rig *r = rig_new(BERLIN_D, NULL, NULL);

	(void)state;
	assert_int_equal(fw_update(r, f1, len1, false), OK);
	r->m->faults = flt;
	r->m->stats.flash_writes = 0;
	assert_int_equal(fw_update(r, f2, len2, false), E_ACK);
	assert_int_equal(r->m->stats.power_losses, 1);
	sleep_ns(r, 200 * MS); /* the supply is back, the ROM has booted */
	version(r, v);
	assert_true(version_ok(v));
	assert_memory_equal(v + 10, "NOCODE", 6);
	assert_int_equal(berlin_model_mode(r->m), BERLIN_ROM);
	/* and again, to the end */
	assert_int_equal(fw_update(r, f2, len2, false), OK);
	version(r, v);
	assert_memory_equal(v + 18, f2 + 25, 4);
	rig_free(r);
	free(f1);
	free(f2);
}

/* A command ack failure and a write error end the update with the chip
 * still flashable; a bad version sum is what the kernel rejects. */
static void test_ack_and_write_faults(void **state)
{
	struct berlin_faults flt = { .ack_fail_at = 2 };
	uint32_t len;
	uint8_t *f = make_file("9916", 0x01000004, 8192, &len), v[28];
	struct rig *r = rig_new(BERLIN_D, NULL, &flt);

	(void)state;
	assert_int_equal(fw_update(r, f, len, false), E_ACK);
	r->m->faults = (struct berlin_faults){ .write_error_at = r->m->stats.flash_writes + 1 };
	assert_int_equal(fw_update(r, f, len, false), E_STATUS);
	r->m->faults = (struct berlin_faults){ .bad_version = true };
	assert_int_equal(fw_update(r, f, len, false), E_VERSION);
	version(r, v);
	assert_false(version_ok(v));
	rig_free(r);
	free(f);
}

/* The watchdog left on resets the ISP: an update of a big image fails. */
static void test_watchdog_resets_isp(void **state)
{
	uint32_t len;
	uint8_t *f = make_file("9916", 0x01000005, 200000, &len);
	struct rig *r = rig_new(BERLIN_D, NULL, NULL);

	(void)state;
	assert_true(fw_update(r, f, len, true) < 0);
	assert_int_equal(r->m->stats.watchdog_resets, 1);
	assert_int_equal(fw_update(r, f, len, false), OK);
	rig_free(r);
	free(f);
}

/* Touch frames only with firmware, in the layout the IRQ handler reads. */
static void test_touch_only_with_firmware(void **state)
{
	static const em_u16 pts[2][3] = { { 1, 100, 200 }, { 3, 300, 400 } };
	static const em_u8 vid[4] = { 1, 0, 0, 1 };
	uint8_t *flash = malloc(BERLIN_FLASH_SIZE), ev[8 + 16 + 2];
	struct rig *r = rig_new(BERLIN_D, NULL, NULL);

	(void)state;
	sleep_ns(r, 100 * MS);
	assert_false(berlin_model_touch(r->m, 2, pts));
	assert_false(berlin_model_ops.irq_asserted(r->m));
	rig_free(r);
	memset(flash, 0xff, BERLIN_FLASH_SIZE);
	berlin_model_make_app(flash, 1024, "9916", vid, 1);
	r = rig_new(BERLIN_D, flash, NULL);
	sleep_ns(r, 100 * MS);
	assert_true(berlin_model_touch(r->m, 2, pts));
	assert_true(berlin_model_ops.irq_asserted(r->m));
	rd(r, 0x10308, ev, sizeof(ev));
	assert_int_equal(ev[0] & 0x80, 0x80);
	assert_int_equal(ev[2] & 0x0f, 2);
	assert_int_equal(sum8(ev, 6), ev[6] | ev[7] << 8);
	assert_int_equal(sum8(ev + 8, 16), ev[24] | ev[25] << 8);
	assert_int_equal(ev[8 + 8] >> 4, 3);
	assert_int_equal(ev[8 + 8 + 2] | ev[8 + 8 + 3] << 8, 300);
	wr8(r, 0x10308, 0); /* the handler clears the status */
	assert_false(berlin_model_ops.irq_asserted(r->m));
	rig_free(r);
	free(flash);
}

/* The file header, checked field by field against fwupdate's parser. */
static void test_firmware_file_format(void **state)
{
	uint32_t len;
	uint8_t *f = make_file("9916", 0x01020304, 40000, &len);

	(void)state;
	assert_int_equal(len, 512 + 8192 + 40000 + 4096);
	assert_int_equal(le32(f), len - 8);
	assert_int_equal(le32(f + 4), sum16(f + 8, len - 8));
	assert_memory_equal(f + 17, "9916\0\0\0\0", 8);
	assert_memory_equal(f + 25, "\x01\x02\x03\x04", 4);
	assert_int_equal(f[29], 1 + 3 + 1); /* ISP, 3 application pieces, config */
	assert_int_equal(f[30], 6);
	assert_int_equal(f[32] & 1, 1); /* spi */
	/* subsystem 0: the ISP, 8 KiB */
	assert_int_equal(f[42], 0);
	assert_int_equal(le32(f + 43), 8192);
	/* pieces: types 1, 2, 3 at 0, 16384, 32768 */
	for (int i = 1; i <= 3; i++) {
		assert_int_equal(f[42 + 10 * i], i);
		assert_int_equal(le32(f + 42 + 10 * i + 5), 16384u * (unsigned)(i - 1));
	}
	assert_int_equal(f[42 + 40], 4);
	assert_int_equal(le32(f + 42 + 40 + 1), 4096);
	assert_int_equal(le32(f + 42 + 40 + 5), 0x3E000);
	/* the config id at its byte 30 */
	assert_int_equal(le32(f + len - 4096 + 30), 0xC0DE0304);
	free(f);
}

/* The Makefile's fixture (fwgen berlin-fw) flashes the empty board's chip
 * and its config id reads back where fwupdate looks for it. */
static void test_fixture_file_flashes(void **state)
{
	const char *b = getenv("TOUCHFW_BUILD");
	char *path = b ? g_build_filename(b, "fixtures/berlin/gt9916-9916-01000002.bin", NULL)
		       : g_build_filename(tu_top(),
					  "build/fixtures/berlin/gt9916-9916-01000002.bin",
					  NULL);
	gchar *f = NULL;
	gsize len = 0;
	uint8_t raw[4];
	struct rig *r;

	(void)state;
	if (!g_file_get_contents(path, &f, &len, NULL))
		fail_msg("%s: missing (make builds it)", path);
	r = rig_new(BERLIN_D, NULL, NULL);
	assert_int_equal(fw_update(r, (const uint8_t *)f, (uint32_t)len, false), OK);
	rd(r, 0x10076, raw, 4);
	assert_int_equal(le32(raw), 0x22);
	rig_free(r);
	g_free(f);
	g_free(path);
}

/* ------------------------------------------------------------ driver */

static const char empty_board[] = "[board]\nname = berlin\ncompatible = t,berlin\n"
				  "[spi 1]\n[spi-chip ts]\nbus = 1\nchip_select = 0\n"
				  "model = gt9916\ncompatible = goodix,gt9916\n"
				  "driver = goodix-berlin-spi\nmax_speed_hz = 8000000\n";

/* Empty chip: probe fails, nothing bound.  Flashed: it binds, with the
 * input device goodix_berlin_input_dev_config registers. */
static void test_driver_probe_fails_empty_binds_after_flash(void **state)
{
	struct emub *eb = tu_board_text(empty_board);
	char drv[64];
	uint32_t len;
	uint8_t *f = make_file("9916", 0x01000009, 12000, &len);
	char *s;
	struct rig r;

	(void)state;
	assert_int_equal(emub_spi_driver(eb, "ts", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "");
	s = tu_sys_read(eb, "bus/spi/devices/spi1.0/uevent");
	assert_string_equal(s, "MODALIAS=spi:gt9916\n");
	g_free(s);
	/* flash it as fwupdate would (through the model, under the lock) */
	emub_lock(eb);
	r.m = emub_spi_berlin(eb, "ts");
	assert_non_null(r.m);
	r.now = r.m->now;
	r.fd = -1;
	r.variant = BERLIN_D;
	assert_int_equal(fw_update(&r, f, len, false), OK);
	emub_unlock(eb);
	assert_int_equal(emub_spi_bind(eb, "ts", "goodix-berlin-spi"), 0);
	assert_int_equal(emub_spi_driver(eb, "ts", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "goodix-berlin-spi");
	s = tu_sys_read(eb, "bus/spi/devices/spi1.0/input/input0/name");
	assert_string_equal(s, "Goodix Berlin Capacitive TouchScreen\n");
	g_free(s);
	s = tu_sys_read(eb, "bus/spi/devices/spi1.0/input/input0/phys");
	assert_string_equal(s, "input/ts\n");
	g_free(s);
	/* unbind takes the input device away */
	assert_int_equal(emub_spi_unbind(eb, "ts"), 0);
	assert_int_equal(tu_sh(eb, NULL, "test ! -e /sys/bus/spi/devices/spi1.0/input/input0"),
			 0);
	emub_free(eb);
	free(f);
}

/* The kernel's other refusals: a bad version sum; a chip that does not
 * answer at all (device confirm). */
static void test_driver_refuses_bad_version_and_silence(void **state)
{
	struct emub *eb = tu_board_text(
		"[board]\nname = b\ncompatible = t,b\n[spi 1]\n"
		"[spi-chip ts]\nbus = 1\nchip_select = 0\nmodel = gt9916\n"
		"compatible = goodix,gt9916\ndriver = goodix-berlin-spi\n"
		"berlin.firmware = 01000001\nfault.bad_version = true\n"
		"max_speed_hz = 8000000\n"
		"[spi-chip good]\nbus = 1\nchip_select = 2\nmodel = gt9916\n"
		"compatible = goodix,gt9916\ndriver = goodix-berlin-spi\n"
		"berlin.firmware = 01000001\nmax_speed_hz = 8000000\n"
		"[spi-chip none]\nbus = 1\nchip_select = 1\n"
		"compatible = goodix,gt9916\ndriver = goodix-berlin-spi\n");
	char drv[64];

	(void)state;
	assert_int_equal(emub_spi_driver(eb, "ts", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "");
	assert_int_equal(emub_spi_driver(eb, "none", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "");
	assert_int_equal(emub_spi_driver(eb, "good", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "goodix-berlin-spi");
	emub_lock(eb);
	assert_int_equal(berlin_model_mode(emub_spi_berlin(eb, "ts")), BERLIN_APP);
	assert_null(emub_spi_berlin(eb, "none"));
	emub_unlock(eb);
	emub_free(eb);
}

/* Berlin-A (gt9897 of later kernels): 4 dummy bytes, its own addresses.
 * A gt9916 described as gt9897 is read one byte off: the version sum
 * fails and the probe with it; so does a clock the chip can not follow. */
static void test_driver_berlin_a(void **state)
{
	struct emub *eb = tu_board_text(
		"[board]\nname = b\ncompatible = t,b\n[spi 1]\n"
		"[spi-chip a]\nbus = 1\nchip_select = 0\nmodel = gt9897\n"
		"compatible = goodix,gt9897\ndriver = goodix-berlin-spi\n"
		"berlin.firmware = 02000001\nberlin.pid = 9897\nmax_speed_hz = 8000000\n"
		"[spi-chip wrong]\nbus = 1\nchip_select = 1\nmodel = gt9916\n"
		"compatible = goodix,gt9897\ndriver = goodix-berlin-spi\n"
		"berlin.firmware = 02000001\nmax_speed_hz = 8000000\n"
		"[spi-chip fast]\nbus = 1\nchip_select = 2\nmodel = gt9897\n"
		"compatible = goodix,gt9897\ndriver = goodix-berlin-spi\n"
		"berlin.firmware = 02000001\n");
	char drv[64];

	(void)state;
	assert_int_equal(emub_spi_driver(eb, "a", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "goodix-berlin-spi");
	assert_int_equal(emub_spi_driver(eb, "wrong", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "");
	/* the controller's 50 MHz is above what the chip drives MISO at */
	assert_int_equal(emub_spi_driver(eb, "fast", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "");
	emub_free(eb);
}

/* A board with firmware binds at start; board errors name the key. */
static void test_board_files(void **state)
{
	struct emub *eb = tu_board_file("berlin-gt9916-fw.board", false);
	struct emub *bad = NULL;
	struct emub_spi_stats st;
	char drv[64], err[512];
	char *s;

	(void)state;
	assert_int_equal(emub_spi_driver(eb, "touchscreen", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "goodix-berlin-spi");
	/* the probe's sleeps (power on 3 + 15 + 4 ms, then 100 ms) are the
	 * driver's; its messages are not user space's */
	assert_int_equal(emub_spi_stats(eb, 1, &st), 0);
	assert_int_equal(st.driver_ns, 122000000);
	assert_true(st.messages > 0);
	assert_int_equal(st.user_messages, 0);
	s = tu_sys_read(eb, "bus/spi/devices/spi1.0/input/input0/name");
	assert_string_equal(s, "Goodix Berlin Capacitive TouchScreen\n");
	g_free(s);
	emub_free(eb);
	eb = tu_board_file("berlin-gt9916.board", false);
	assert_int_equal(emub_spi_driver(eb, "touchscreen", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "");
	emub_free(eb);
	assert_int_not_equal(
		emub_new_from_string("[board]\nname = b\ncompatible = t,b\n[spi 1]\n"
				     "[spi-chip ts]\nbus = 1\nchip_select = 0\n"
				     "model = gt9916\nberlin.firmware = 12\n",
				     NULL, &bad, err, sizeof(err)),
		0);
	assert_non_null(strstr(err, "berlin.firmware"));
}

/* Realtime: goodix-berlin-spi's probe sleeps 3 + 15 + 4 ms and 100 ms
 * (goodix_berlin_power_on, the reset delay), and a kernel's msleep waits
 * that long from when it is called -- also when the controller has been
 * idle for longer than that (its clock behind the wall). */
static void test_driver_sleeps_take_their_time_in_realtime(void **state)
{
	struct emub *eb = tu_board_text(
		"[board]\nname = berlin\ncompatible = t,berlin\n"
		"pacing = realtime\n[spi 1]\n[spi-chip ts]\nbus = 1\n"
		"chip_select = 0\nmodel = gt9916\ncompatible = goodix,gt9916\n"
		"driver = goodix-berlin-spi\nbound = false\n"
		"berlin.firmware = 01000001\nmax_speed_hz = 8000000\n");
	struct emub_spi_stats st;
	char drv[64];
	gint64 t0;

	(void)state;
	g_usleep(300000); /* the controller idle for longer than the sleeps */
	t0 = g_get_monotonic_time();
	assert_int_equal(emub_spi_bind(eb, "ts", "goodix-berlin-spi"), 0);
	assert_true(g_get_monotonic_time() - t0 >= 122000);
	assert_int_equal(emub_spi_driver(eb, "ts", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "goodix-berlin-spi");
	assert_int_equal(emub_spi_stats(eb, 1, &st), 0);
	assert_int_equal(st.driver_ns, 122000000);
	emub_free(eb);
}

/* The whole job as a user-space flasher does it: spidev bound through
 * driver_override, fwupdate's sequence on /dev/spidev1.0 (a child inside
 * the board, fast pacing), spidev let go, the kernel driver bound. */
static void test_spidev_flash_then_bind(void **state)
{
	struct emub *eb = tu_board_text(empty_board);
	char *dir = tu_tmpdir(), *path, *out = NULL, *s;
	char drv[64];
	uint32_t len;
	uint8_t *f = make_file("9916", 0x0100000A, 30000, &len);

	(void)state;
	tu_write_file(dir, "fw.bin", f, len);
	path = g_build_filename(dir, "fw.bin", NULL);
	tu_sys_write(eb, "bus/spi/devices/spi1.0/driver_override", "spidev\n");
	tu_sys_write(eb, "bus/spi/drivers/spidev/bind", "spi1.0\n");
	emub_spi_settle(eb);
	assert_int_equal(emub_spi_driver(eb, "ts", drv, sizeof(drv)), 0);
	assert_string_equal(drv, "spidev");
	{
		const char *args[] = { "flash", "/dev/spidev1.0", path, NULL };

		assert_int_equal(tu_run_self(eb, &out, args), 0);
	}
	assert_true(tu_contains(out, "result 0"));
	g_free(out);
	tu_sys_write(eb, "bus/spi/drivers/spidev/unbind", "spi1.0\n");
	tu_sys_write(eb, "bus/spi/devices/spi1.0/driver_override", "\n");
	emub_spi_settle(eb);
	assert_int_equal(emub_spi_bind(eb, "ts", "goodix-berlin-spi"), 0);
	s = tu_sys_read(eb, "bus/spi/devices/spi1.0/uevent");
	assert_string_equal(s, "DRIVER=goodix-berlin-spi\nMODALIAS=spi:gt9916\n");
	g_free(s);
	emub_lock(eb);
	assert_int_equal(berlin_model_mode(emub_spi_berlin(eb, "ts")), BERLIN_APP);
	emub_unlock(eb);
	emub_free(eb);
	g_free(path);
	tu_rmdir(dir);
	free(f);
}

/* --child flash DEV FILE: fwupdate's sequence on an spidev node. */
static int child_flash(const char *dev, const char *file)
{
	struct rig r = { .fd = open(dev, O_RDWR), .variant = BERLIN_D };
	gchar *f = NULL;
	gsize len = 0;
	uint8_t mode = SPI_MODE_0;
	int res;

	if (r.fd < 0 || ioctl(r.fd, SPI_IOC_WR_MODE, &mode) < 0 ||
	    !g_file_get_contents(file, &f, &len, NULL)) {
		printf("cannot open %s or %s\n", dev, file);
		return 1;
	}
	res = fw_update(&r, (const uint8_t *)f, (uint32_t)len, false);
	printf("result %d, ioctl errors %d\n", res, r.errors);
	g_free(f);
	close(r.fd);
	return res || r.errors ? 1 : 0;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_frame_empty_chip),
		cmocka_unit_test(test_device_confirm_and_soft_reset),
		cmocka_unit_test(test_berlin_a_dummies_and_addresses),
		cmocka_unit_test(test_app_version_and_chip_info),
		cmocka_unit_test(test_hold_cpu),
		cmocka_unit_test(test_isp_entry),
		cmocka_unit_test(test_flash_command_vectors),
		cmocka_unit_test(test_flash_empty_chip),
		cmocka_unit_test(test_checksum_fail_then_retry),
		cmocka_unit_test(test_power_loss_midway_and_recovery),
		cmocka_unit_test(test_ack_and_write_faults),
		cmocka_unit_test(test_watchdog_resets_isp),
		cmocka_unit_test(test_touch_only_with_firmware),
		cmocka_unit_test(test_firmware_file_format),
		cmocka_unit_test(test_fixture_file_flashes),
		cmocka_unit_test(test_driver_probe_fails_empty_binds_after_flash),
		cmocka_unit_test(test_driver_refuses_bad_version_and_silence),
		cmocka_unit_test(test_driver_berlin_a),
		cmocka_unit_test(test_board_files),
		cmocka_unit_test(test_driver_sleeps_take_their_time_in_realtime),
		cmocka_unit_test(test_spidev_flash_then_bind),
	};

	if (argc == 5 && !strcmp(argv[1], "--child") && !strcmp(argv[2], "flash"))
		return child_flash(argv[3], argv[4]);
	tu_init(argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
