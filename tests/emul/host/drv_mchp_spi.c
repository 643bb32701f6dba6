// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mchp_spi_ts, Microchip's maXTouch spi driver (atmel-maxtouch/
 * maXTouch_SPI_linux drivers/input/touchscreen/mchp_spi_ts.c), as far as a
 * bind and an unbind go: its probe runs mxt_initialize() over the spi bus
 * in the driver's own framing (mxt_spi_transfer: header with CRC8, a 1 ms
 * chip-select gap, length + 6 bytes clocked out, data from byte 6):
 *
 * - the info block (7 bytes, then the object table and CRC24); a CRC
 *   mismatch fails the probe (-EIO, nothing bound);
 * - no info block: a bootloader status read (mxt_probe_bootloader, which
 *   fails only if the spi transfer itself does), then 0x01 0x01 to the
 *   bootloader and 3 s (MXT_FW_RESET_TIME), once; still nothing: bound "in
 *   bootloader" without an input device (mxt_initialize returns 0);
 * - with T100 an input device is registered ("SPI maXTouch Touchscreen",
 *   mxt_initialize_input_devices), bus BUS_SPI, the T100 ranges; without
 *   T100 none (nor with fault.no_input).
 *
 * update_fw (mxt_update_fw_store/mxt_load_fw): maxtouch.fw from the
 * firmware path, refused (-EINVAL) when it is ASCII hex; 0xA5 to T6 unless
 * in the bootloader, the bootloader's state (its result ignored, as the
 * driver overwrites it), unlock, per frame WAITING_FRAME_DATA, the frame,
 * FRAME_CRC_PASS (rechecking CHECK, retrying FAIL after retry x 1 ms, 20
 * times), 3 s; 1 s; the info block read again (its failure is the write's
 * error).  The input device is not registered again: unbind and bind.
 *
 * Attributes (mxt_attr_group): fw_version ("%u.%u.%02X") and hw_version
 * ("%u.%u") from data->info -- NULL in the bootloader and after a failed
 * info read, where the real show functions oops (the file then holds a
 * placeholder that no parser takes); in_bootloader; config_crc ("%06x" of
 * data->config_crc, which only a T6 message sets: messages are not
 * modelled, so it stays 0, as when the message never arrives); update_fw.
 * update_cfg, object, mem_access and the debug attributes are not
 * modelled, nor the IRQ handler or a maxtouch.cfg at probe.
 */
#include <linux/input.h>
#include <string.h>

#include "emub-priv.h"
#include "emub-spi.h"
#include "mxt_model.h"
#include "mxt_spi.h"

#define MXT_T100 100
#define T100_XRANGE 13
#define T100_YRANGE 24
#define FW_RESET_NS 3000000000ULL /* MXT_FW_RESET_TIME */

/* mxt_spi_transfer(): one request, one response; 0, -EIO on a bad verdict */
static int spi_read(struct emub_spi_dev *d, guint16 reg, guint8 *buf, guint16 len)
{
	guint8 hdr[MXT_SPI_HEADER], ones[MXT_SPI_HEADER + MXT_SPI_MAX_LEN],
		rx[MXT_SPI_HEADER + MXT_SPI_MAX_LEN];
	int r = 0;

	for (guint16 off = 0; off < len && !r;) {
		guint16 n = len - off < MXT_SPI_MAX_LEN ? (guint16)(len - off)
							: MXT_SPI_MAX_LEN;
		struct emub_spi_xfer x[2] = {
			{ .tx = hdr,
			  .len = MXT_SPI_HEADER,
			  .cs_change = true,
			  .delay_us = 1000 },
			{ .tx = ones, .rx = rx, .len = (guint32)MXT_SPI_HEADER + n },
		};

		hdr[0] = MXT_SPI_READ_REQ;
		hdr[1] = (guint8)((reg + off) & 0xff);
		hdr[2] = (guint8)((reg + off) >> 8);
		hdr[3] = (guint8)(n & 0xff);
		hdr[4] = (guint8)(n >> 8);
		hdr[5] = mxt_spi_model_crc8(hdr, 5);
		memset(ones, 0xff, sizeof(ones));
		g_mutex_lock(&d->eb->lock);
		r = emub_spi_message_locked(d, x, 2);
		g_mutex_unlock(&d->eb->lock);
		if (!r && rx[0] != MXT_SPI_READ_OK)
			r = -EIO;
		if (!r)
			memcpy(buf + off, rx + MXT_SPI_HEADER, n);
		off = (guint16)(off + n);
	}
	return r;
}

static void bl_write(struct emub_spi_dev *d, const guint8 *buf, guint32 n)
{
	guint8 tx[2 + 8] = { 0 };
	struct emub_spi_xfer x = { .tx = tx, .len = n + 2 };

	memcpy(tx + 2, buf, n);
	g_mutex_lock(&d->eb->lock);
	emub_spi_message_locked(d, &x, 1);
	g_mutex_unlock(&d->eb->lock);
}

static void bl_read(struct emub_spi_dev *d, guint8 *val)
{
	guint8 tx[3] = { 0x01, 0, 0 }, rx[3];
	struct emub_spi_xfer x = { .tx = tx, .rx = rx, .len = 3 };

	g_mutex_lock(&d->eb->lock);
	emub_spi_message_locked(d, &x, 1);
	g_mutex_unlock(&d->eb->lock);
	*val = rx[2];
}

/* mxt_read_info_block(): 0, -EIO (no answer / CRC) */
static int read_info(struct emub_spi_dev *d, guint8 *info, guint16 *len, bool *crc_ok)
{
	guint16 n;
	guint32 crc, want;

	*crc_ok = true;
	if (spi_read(d, 0, info, 7))
		return -EIO;
	n = (guint16)(7 + info[6] * 6 + 3);
	if (n > 7 + 255 * 6 + 3 || spi_read(d, 7, info + 7, (guint16)(n - 7)))
		return -EIO;
	crc = mxt_model_crc24(info, (guint32)n - 3);
	want = (guint32)info[n - 3] | (guint32)info[n - 2] << 8 | (guint32)info[n - 1] << 16;
	*crc_ok = crc == want;
	*len = n;
	return 0;
}

int emub_mchp_probe(struct emub_spi_dev *d)
{
	guint8 info[7 + 255 * 6 + 3], st;
	guint16 len = 0, xr = 0, yr = 0;
	bool crc_ok, t100 = false;
	int attempts = 0;

	emub_spi_input_dev(d);
	d->mchp_t6 = 0;
	d->mchp_have_info = false;
	for (;;) {
		if (read_info(d, info, &len, &crc_ok) == 0) {
			if (!crc_ok) {
				emub_log(d->eb, "mchp_spi_ts %s: info block CRC error",
					 d->name);
				return -EIO;
			}
			break;
		}
		bl_read(d, &st);
		emub_log(d->eb, "mchp_spi_ts %s: Detected bootloader, status:%02X", d->name,
			 st);
		if (++attempts > 1) {
			emub_log(d->eb,
				 "mchp_spi_ts %s: Could not recover from bootloader mode",
				 d->name);
			d->mchp_in_bootloader = true;
			return 0;
		}
		{
			static const guint8 exit_bl[2] = { 0x01, 0x01 };

			bl_write(d, exit_bl, 2);
		}
		/* msleep(MXT_FW_RESET_TIME); realtime: really wait */
		emub_spi_driver_msleep(d, (unsigned int)(FW_RESET_NS / 1000000ULL));
	}
	d->mchp_in_bootloader = false;
	d->mchp_have_info = true;
	memcpy(d->mchp_info, info, sizeof(d->mchp_info));
	for (guint i = 0; i < info[6]; i++) {
		const guint8 *o = info + 7 + i * 6;

		if (o[0] == 6)
			d->mchp_t6 = (guint16)(o[1] | o[2] << 8);
		if (o[0] == MXT_T100) {
			guint16 start = (guint16)(o[1] | o[2] << 8);
			guint8 b[2];

			t100 = true;
			if (!spi_read(d, (guint16)(start + T100_XRANGE), b, 2))
				xr = (guint16)(b[0] | b[1] << 8);
			if (!spi_read(d, (guint16)(start + T100_YRANGE), b, 2))
				yr = (guint16)(b[0] | b[1] << 8);
		}
	}
	if (!t100 || d->desc->no_input) {
		emub_log(d->eb, "mchp_spi_ts %s: %s", d->name,
			 t100 ? "no input device "
				"(fault.no_input)"
			      : "No touch object detected");
		return 0;
	}
	{
		char phys[64];
		struct emub_input_desc in = {
			.name = "SPI maXTouch Touchscreen",
			.phys = phys,
			.bustype = BUS_SPI,
			.evbits = 1u << EV_SYN | 1u << EV_KEY | 1u << EV_ABS,
			.keybits_word5 = G_GUINT64_CONSTANT(1) << (BTN_TOUCH - 5 * 64),
			.propbits = 1u << INPUT_PROP_DIRECT,
			.absbits = G_GUINT64_CONSTANT(1) << ABS_X |
				   G_GUINT64_CONSTANT(1) << ABS_Y |
				   G_GUINT64_CONSTANT(1) << ABS_MT_SLOT |
				   G_GUINT64_CONSTANT(1) << ABS_MT_POSITION_X |
				   G_GUINT64_CONSTANT(1) << ABS_MT_POSITION_Y |
				   G_GUINT64_CONSTANT(1) << ABS_MT_TRACKING_ID,
		};

		snprintf(phys, sizeof(phys), "%s/input0", d->name);
		in.abs[ABS_X].maximum = in.abs[ABS_MT_POSITION_X].maximum = xr;
		in.abs[ABS_Y].maximum = in.abs[ABS_MT_POSITION_Y].maximum = yr;
		in.abs[ABS_MT_SLOT].maximum = 9;
		in.abs[ABS_MT_TRACKING_ID].maximum = 65535;
		return drv_input_register(d->idev, &in);
	}
}

void emub_mchp_remove(struct emub_spi_dev *d)
{
	if (d->idev)
		drv_input_unregister(d->idev);
}

void emub_mchp_free(struct emub_spi_dev *d)
{
	if (!d->idev)
		return;
	if (d->idev->input) {
		emub_input_free(d->idev->input);
		d->idev->input = NULL;
	}
	g_free(d->idev->devpath);
	g_free(d->idev);
	d->idev = NULL;
}

/* ------------------------------------------------------------ update_fw */

/* mxt_t6_command() over spi: a write request, its verdict after the gap */
static int spi_write(struct emub_spi_dev *d, guint16 reg, const guint8 *val, guint16 len)
{
	guint8 req[MXT_SPI_HEADER + MXT_SPI_MAX_LEN], ones[MXT_SPI_HEADER], rx[MXT_SPI_HEADER];
	struct emub_spi_xfer x[2] = {
		{ .tx = req, .len = (guint32)MXT_SPI_HEADER + len, .delay_us = 50 },
		{ .tx = ones, .rx = rx, .len = MXT_SPI_HEADER },
	};
	int r;

	req[0] = MXT_SPI_WRITE_REQ;
	req[1] = (guint8)(reg & 0xff);
	req[2] = (guint8)(reg >> 8);
	req[3] = (guint8)(len & 0xff);
	req[4] = (guint8)(len >> 8);
	req[5] = mxt_spi_model_crc8(req, 5);
	memcpy(req + MXT_SPI_HEADER, val, len);
	memset(ones, 0xff, sizeof(ones));
	/* mxt_spi_write_req(), then (the IRQ) mxt_spi_write_process() */
	g_mutex_lock(&d->eb->lock);
	r = emub_spi_message_locked(d, &x[0], 1);
	if (!r)
		r = emub_spi_message_locked(d, &x[1], 1);
	g_mutex_unlock(&d->eb->lock);
	if (!r && rx[0] != MXT_SPI_WRITE_OK)
		r = -EIO;
	return r;
}

static void sleep_ms(struct emub_spi_dev *d, unsigned int ms)
{
	emub_spi_driver_msleep(d, ms);
}

static void bl_write_n(struct emub_spi_dev *d, const guint8 *buf, guint32 n)
{
	guint8 *tx = g_malloc0(n + 2);
	struct emub_spi_xfer x = { .tx = tx, .len = n + 2, .cs_change = false };

	memcpy(tx + 2, buf, n);
	g_mutex_lock(&d->eb->lock);
	emub_spi_message_locked(d, &x, 1);
	g_mutex_unlock(&d->eb->lock);
	g_free(tx);
}

/* mxt_check_bootloader(): 0 or -EINVAL */
static int check_bl(struct emub_spi_dev *d, guint8 state)
{
	guint8 val;

	for (int guard = 0; guard < 100000; guard++) {
		sleep_ms(d, 1);
		bl_read(d, &val);
		if (state == 0xc0 || state == 0x80) {
			val &= (guint8)~0x3f;
		} else if (state == 0x04) {
			if (val == 0x02)
				continue; /* FRAME_CRC_CHECK: recheck */
			if (val == 0x03)
				return -EINVAL;
		}
		return val == state ? 0 : -EINVAL;
	}
	return -EINVAL;
}

/* mxt_load_fw() of mchp_spi_ts: 0 or -errno */
static int load_fw(struct emub_spi_dev *d)
{
	guint8 *fw = NULL;
	gsize len = 0, pos = 0;
	unsigned int retry = 0;
	bool hex = true;
	int r;

	r = drv_request_firmware(d->idev, "maxtouch.fw", &fw, &len);
	if (r) {
		emub_log(d->eb, "mchp_spi_ts %s: Unable to open firmware maxtouch.fw", d->name);
		return r;
	}
	/* mxt_check_firmware_format(): only uppercase hex digits -> refused */
	for (gsize i = 0; i < len && hex; i++)
		hex = (fw[i] >= '0' && fw[i] <= '9') || (fw[i] >= 'A' && fw[i] <= 'F');
	if (hex) {
		emub_log(d->eb,
			 "mchp_spi_ts %s: Aborting: firmware file must be in binary format",
			 d->name);
		g_free(fw);
		return -EINVAL;
	}
	if (!d->mchp_in_bootloader) {
		guint8 v = 0xa5;

		d->mchp_in_bootloader = true;
		r = d->mchp_t6 ? spi_write(d, d->mchp_t6, &v, 1) : -EIO;
		sleep_ms(d, 5);
		if (r) {
			g_free(fw);
			return r;
		}
	}
	/* its result is not looked at (ret is overwritten by the unlock) */
	(void)check_bl(d, 0xc0);
	{
		static const guint8 unlock[2] = { 0xdc, 0xaa };

		bl_write_n(d, unlock, 2);
	}
	sleep_ms(d, 30);
	while (pos < len) {
		gsize frame;

		r = check_bl(d, 0x80);
		if (r)
			break;
		if (pos + 2 > len) {
			r = -EINVAL;
			break;
		}
		frame = ((gsize)fw[pos] << 8 | fw[pos + 1]) + 2;
		if (pos + frame > len)
			frame = len - pos;
		bl_write_n(d, fw + pos, (guint32)frame);
		r = check_bl(d, 0x04);
		if (r) {
			retry++;
			sleep_ms(d, retry * 1); /* msleep(retry * 1) in mchp_spi_ts */
			if (retry > 20) {
				emub_log(d->eb, "mchp_spi_ts %s: Retry count exceeded",
					 d->name);
				break;
			}
			r = 0;
		} else {
			retry = 0;
			pos += frame;
		}
	}
	if (!r && pos >= len) {
		sleep_ms(d, 3000); /* MXT_BOOTLOADER_WAIT */
		d->mchp_in_bootloader = false;
	}
	g_free(fw);
	return r;
}

/* update_fw written: mxt_update_fw_store(); the write's result */
int emub_mchp_update_fw(struct emub_spi_dev *d)
{
	guint8 info[7 + 255 * 6 + 3];
	guint16 len;
	bool crc_ok;
	int r = load_fw(d);

	if (r)
		emub_log(d->eb, "mchp_spi_ts %s: The firmware update failed(%d)", d->name, r);
	else
		emub_log(d->eb, "mchp_spi_ts %s: The firmware update succeeded", d->name);
	sleep_ms(d, 1000); /* MXT_FW_FLASH_TIME */
	/* mxt_read_info_block(): frees the old one first; the input device
	 * is not registered again */
	d->mchp_have_info = false;
	if (read_info(d, info, &len, &crc_ok) || !crc_ok) {
		emub_mchp_attrs_write(d);
		return -EIO;
	}
	d->mchp_have_info = true;
	memcpy(d->mchp_info, info, sizeof(d->mchp_info));
	emub_mchp_attrs_write(d);
	return r;
}

/* ------------------------------------------------------------ attributes */

#define NULL_INFO "(emuboard: reading this oopses the kernel: NULL info block)\n"

static void attr(struct emub_spi_dev *d, const char *name, const char *content)
{
	char *f = g_strdup_printf("%s/%s", d->devpath + 1, name);

	if (content)
		emub_sys_write(d->eb, f, content);
	else
		emub_sys_remove(d->eb, f);
	g_free(f);
}

static const char *const attr_names[] = { "fw_version", "hw_version", "in_bootloader",
					  "config_crc", "update_fw" };

void emub_mchp_attrs_write(struct emub_spi_dev *d)
{
	char fw[32], hw[32];

	snprintf(fw, sizeof(fw), "%u.%u.%02X\n", d->mchp_info[2] >> 4, d->mchp_info[2] & 0xf,
		 d->mchp_info[3]);
	snprintf(hw, sizeof(hw), "%u.%u\n", d->mchp_info[0], d->mchp_info[1]);
	attr(d, "fw_version", d->mchp_have_info ? fw : NULL_INFO);
	attr(d, "hw_version", d->mchp_have_info ? hw : NULL_INFO);
	attr(d, "in_bootloader", d->mchp_in_bootloader ? "1\n" : "0\n");
	attr(d, "config_crc", "000000\n");
	attr(d, "update_fw", "");
}

void emub_mchp_attrs_remove(struct emub_spi_dev *d)
{
	for (size_t i = 0; i < G_N_ELEMENTS(attr_names); i++)
		attr(d, attr_names[i], NULL);
}
