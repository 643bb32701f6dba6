// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * goodix-berlin-spi, the kernel's Goodix Berlin spi driver
 * (drivers/input/touchscreen/goodix_berlin_spi.c + goodix_berlin_core.c),
 * as far as a bind and an unbind go.  Its probe, function by function:
 *
 * - goodix_berlin_spi_probe: spi->mode = SPI_MODE_0 (every other mode bit
 *   cleared too), 8 bits per word, spi_setup; regmap reads are one transfer
 *   of F1 + address BE32 + dummy bytes (3; 4 for the Berlin-A gt9897 of
 *   later kernels) + the data, tx and rx in the same zeroed buffer; writes
 *   F0 + address + data.
 * - goodix_berlin_power_on: iovdd, 3 ms, avdd, 15 ms, reset released, 4 ms,
 *   goodix_berlin_dev_confirm (8 x 0xAA to 0x10000 and read back, 3 tries
 *   5 ms apart, else -EINVAL "device confirm failed"), 100 ms.
 * - goodix_berlin_read_version: 28 bytes, LE16 byte sum, else -EINVAL.
 * - goodix_berlin_get_ic_info: LE16 length (>= 1 KiB: -EINVAL), the block
 *   (a zero length: regmap_raw_read's -EINVAL), not all 0x00/0xFF, its LE16
 *   byte sum, goodix_berlin_parse_ic_info's walk to touch_data_addr
 *   (offsets checked against the length), touch_data_addr not 0.
 * - goodix_berlin_input_dev_config: "Goodix Berlin Capacitive
 *   TouchScreen", phys "input/ts", BUS_SPI, ABS_MT_POSITION_X/Y 0..65535,
 *   ABS_MT_TOUCH_MAJOR 0..255, input_mt_init_slots(10, DIRECT |
 *   DROP_UNUSED): BTN_TOUCH, ABS_X/Y copied, ABS_MT_SLOT 0..9,
 *   ABS_MT_TRACKING_ID 0..65535, INPUT_PROP_DIRECT.
 * Any failure fails the probe: an empty chip (the ROM's "NOCODE" version
 * reads fine, its chip info is zeros) is not bound, with no uevent.
 *
 * Not modelled: regulators and the reset GPIO (spi chips here have
 * neither; the chip is always powered), the IRQ handler (the chip model
 * reports touches, berlin_model_touch), suspend/resume, the "registers"
 * attribute of later kernels.  The missing-IRQ check (irq <= 0: -EINVAL)
 * is taken as passed: the board's device tree is assumed to give one.
 */
#include <linux/input.h>
#include <linux/spi/spi.h>
#include <string.h>

#include "berlin_model.h"
#include "emub-priv.h"
#include "emub-spi.h"

#define IC_INFO_MAX_LEN 1024 /* GOODIX_BERLIN_IC_INFO_MAX_LEN */

static void sleep_ms(struct emub_spi_dev *d, unsigned int ms)
{
	emub_spi_driver_msleep(d, ms);
}

/* goodix_berlin_spi's match data: Berlin-A's layout for the goodix,gt9897
 * compatible, Berlin-D's for any other */
static enum berlin_variant variant_of(const struct emub_spi_dev *d)
{
	return d->desc->compatible && d->desc->compatible[0] &&
			       !strcmp(d->desc->compatible[0], "goodix,gt9897")
		       ? BERLIN_A
		       : BERLIN_D;
}

static guint32 dummy_len(struct emub_spi_dev *d)
{
	return variant_of(d) == BERLIN_A ? 4 : 3;
}

/* goodix_berlin_spi_read() */
static int regmap_read(struct emub_spi_dev *d, guint32 reg, guint8 *val, guint32 len)
{
	guint32 pre = 5 + dummy_len(d);
	guint8 *buf;
	int r;

	if (!len)
		return -EINVAL; /* regmap_raw_read(): val_count == 0 */
	buf = g_malloc0(pre + len);
	buf[0] = BERLIN_SPI_READ;
	buf[1] = (guint8)(reg >> 24);
	buf[2] = (guint8)(reg >> 16);
	buf[3] = (guint8)(reg >> 8);
	buf[4] = (guint8)reg;
	memset(buf + 5, 0xff, dummy_len(d));
	{
		struct emub_spi_xfer x = { .tx = buf, .rx = buf, .len = pre + len };

		g_mutex_lock(&d->eb->lock);
		r = emub_spi_message_locked(d, &x, 1);
		g_mutex_unlock(&d->eb->lock);
	}
	if (!r)
		memcpy(val, buf + pre, len);
	g_free(buf);
	return r;
}

/* goodix_berlin_spi_write() */
static int regmap_write(struct emub_spi_dev *d, guint32 reg, const guint8 *val, guint32 len)
{
	guint8 *buf = g_malloc0(5 + len);
	struct emub_spi_xfer x = { .tx = buf, .len = 5 + len };
	int r;

	buf[0] = BERLIN_SPI_WRITE;
	buf[1] = (guint8)(reg >> 24);
	buf[2] = (guint8)(reg >> 16);
	buf[3] = (guint8)(reg >> 8);
	buf[4] = (guint8)reg;
	memcpy(buf + 5, val, len);
	g_mutex_lock(&d->eb->lock);
	r = emub_spi_message_locked(d, &x, 1);
	g_mutex_unlock(&d->eb->lock);
	g_free(buf);
	return r;
}

/* goodix_berlin_checksum_valid() */
static bool checksum_valid(const guint8 *p, guint32 size)
{
	guint32 s = 0;

	if (size < 2)
		return false;
	for (guint32 i = 0; i < size - 2; i++)
		s += p[i];
	return (guint16)s == em_get_le16(p + size - 2);
}

static int dev_confirm(struct emub_spi_dev *d)
{
	guint8 tx[8], rx[8];
	int r;

	memset(tx, 0xaa, sizeof(tx));
	for (int retry = 0; retry < 3; retry++) {
		r = regmap_write(d, BERLIN_BOOT_OPTION_ADDR, tx, 8);
		if (r)
			return r;
		r = regmap_read(d, BERLIN_BOOT_OPTION_ADDR, rx, 8);
		if (r)
			return r;
		if (!memcmp(tx, rx, 8))
			return 0;
		sleep_ms(d, 5);
	}
	emub_log(d->eb,
		 "goodix-berlin-spi %s: device confirm failed, rx_buf: %02x %02x %02x %02x "
		 "%02x %02x %02x %02x",
		 d->name, rx[0], rx[1], rx[2], rx[3], rx[4], rx[5], rx[6], rx[7]);
	return -EINVAL;
}

/* goodix_berlin_parse_ic_info(): touch_data_addr, or -EINVAL */
static int parse_ic_info(struct emub_spi_dev *d, const guint8 *data, guint16 length,
			 guint32 *touch_data_addr)
{
	guint32 off = 2 + 16 + 10 + 4;

	if (off >= length)
		goto invalid;
	for (int list = 0; list < 5; list++) {
		off += 1 + 2u * data[off];
		if (off >= length)
			goto invalid;
	}
	/* misc->touch_data_addr, read without a length check, as upstream */
	*touch_data_addr = off + 48 <= IC_INFO_MAX_LEN ? em_get_le32(data + off + 44) : 0;
	return 0;
invalid:
	emub_log(d->eb, "goodix-berlin-spi %s: ic_info length is invalid (offset %u length %u)",
		 d->name, off, length);
	return -EINVAL;
}

static int get_ic_info(struct emub_spi_dev *d)
{
	guint8 *data = g_malloc0(IC_INFO_MAX_LEN), raw[2];
	guint32 addr = variant_of(d) == BERLIN_A ? 0x10068 : 0x10070, touch = 0;
	guint16 length;
	bool dummy = true;
	int r;

	r = regmap_read(d, addr, raw, 2);
	if (r) {
		emub_log(d->eb, "goodix-berlin-spi %s: failed get ic info length, %d", d->name,
			 r);
		goto out;
	}
	length = em_get_le16(raw);
	if (length >= IC_INFO_MAX_LEN) {
		emub_log(d->eb, "goodix-berlin-spi %s: invalid ic info length %u", d->name,
			 length);
		r = -EINVAL;
		goto out;
	}
	r = regmap_read(d, addr, data, length);
	if (r) {
		emub_log(d->eb, "goodix-berlin-spi %s: failed get ic info data, %d", d->name,
			 r);
		goto out;
	}
	for (guint32 i = 0; i < length && dummy; i++)
		dummy = data[i] == 0 || data[i] == 0xff;
	if (dummy) {
		emub_log(d->eb, "goodix-berlin-spi %s: fw info data invalid", d->name);
		r = -EINVAL;
		goto out;
	}
	if (!checksum_valid(data, length)) {
		emub_log(d->eb, "goodix-berlin-spi %s: fw info checksum error", d->name);
		r = -EINVAL;
		goto out;
	}
	r = parse_ic_info(d, data, length, &touch);
	if (r)
		goto out;
	if (!touch) {
		emub_log(d->eb, "goodix-berlin-spi %s: touch_data_addr is null", d->name);
		r = -EINVAL;
	}
out:
	g_free(data);
	return r;
}

static int emub_berlin_probe(struct emub_spi_dev *d)
{
	guint8 ver[BERLIN_VERSION_LEN];
	guint32 vaddr = variant_of(d) == BERLIN_A ? 0x1000C : 0x10014;
	char phys[] = "input/ts";
	int r;

	/* goodix_berlin_spi_probe(): spi->mode = SPI_MODE_0; spi_setup() */
	g_mutex_lock(&d->eb->lock);
	d->mode = 0;
	d->bits_per_word = 8;
	g_mutex_unlock(&d->eb->lock);
	emub_spi_input_dev(d);
	/* goodix_berlin_power_on() */
	sleep_ms(d, 3 + 15 + 4);
	r = dev_confirm(d);
	if (r) {
		emub_log(d->eb, "goodix-berlin-spi %s: failed power on", d->name);
		return r;
	}
	sleep_ms(d, 100);
	/* goodix_berlin_read_version() */
	r = regmap_read(d, vaddr, ver, sizeof(ver));
	if (r) {
		emub_log(d->eb, "goodix-berlin-spi %s: error reading fw version, %d", d->name,
			 r);
		goto no_version;
	}
	if (!checksum_valid(ver, sizeof(ver))) {
		emub_log(d->eb, "goodix-berlin-spi %s: invalid fw version: checksum error",
			 d->name);
		r = -EINVAL;
		goto no_version;
	}
	r = get_ic_info(d);
	if (r) {
		emub_log(d->eb, "goodix-berlin-spi %s: invalid ic info, abort", d->name);
		return r;
	}
	{
		struct emub_input_desc in = {
			.name = "Goodix Berlin Capacitive TouchScreen",
			.phys = phys,
			.bustype = BUS_SPI,
			.evbits = 1u << EV_SYN | 1u << EV_KEY | 1u << EV_ABS,
		};

		drv_input_set_abs(&in, ABS_MT_POSITION_X, 0, 65535);
		drv_input_set_abs(&in, ABS_MT_POSITION_Y, 0, 65535);
		drv_input_set_abs(&in, ABS_MT_TOUCH_MAJOR, 0, 255);
		/* input_mt_init_slots(10, INPUT_MT_DIRECT | INPUT_MT_DROP_UNUSED) */
		drv_input_mt_init_direct(&in, 10);
		drv_input_set_abs(&in, ABS_X, 0, 65535);
		drv_input_set_abs(&in, ABS_Y, 0, 65535);
		r = drv_input_register(d->idev, &in);
		if (r) {
			emub_log(d->eb, "goodix-berlin-spi %s: failed set input device",
				 d->name);
			return r;
		}
	}
	emub_log(d->eb, "goodix-berlin-spi %s: Goodix Berlin %.8s Touchscreen Controller",
		 d->name, (const char *)ver + 10);
	return 0;
no_version:
	emub_log(d->eb, "goodix-berlin-spi %s: failed to get version info", d->name);
	return r;
}

static void emub_berlin_remove(struct emub_spi_dev *d)
{
	if (d->idev)
		drv_input_unregister(d->idev);
}

const struct emub_spi_driver emub_spi_drv_berlin = {
	.name = "goodix-berlin-spi",
	.probe = emub_berlin_probe,
	.remove = emub_berlin_remove,
};
