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
 * error).  The write returns when all that is done, with that error (the
 * store runs in the writer's context; spibus.c emub_spi_attr_write).  The
 * input device is neither unregistered nor registered again: unbind and
 * bind.
 *
 * update_cfg (mxt_update_cfg_store): mxt_clear_cfg first -- zeros from the
 * end of the info block to the end of memory and a backup, before the file
 * is requested; maxtouch.cfg (-ENOENT without it); T7 written with the
 * driver's t7_cfg (zero until mxt_init_t7_power_cfg ran), messages read;
 * mxt_init_t7_power_cfg; mxt_update_cfg: REPORTALL (the T6 message sets
 * config_crc), the OBP_RAW V1 header (family/variant mismatch -EINVAL; an
 * info CRC mismatch programs nothing yet the write succeeds: the config
 * stays cleared), the same config CRC: nothing; else T70 stopped, each
 * object written with the driver's write_offset arithmetic, backup, reset,
 * 1 s, T7 again.  The write returns success unless the file is missing;
 * the IRQ handler's read of the reset's T6 message (config_crc) is done
 * before it returns.
 *
 * Attributes (mxt_attr_group): fw_version ("%u.%u.%02X") and hw_version
 * ("%u.%u") from data->info -- NULL in the bootloader and after a failed
 * info read, where the real show functions oops (the file then holds a
 * placeholder that no parser takes); in_bootloader; config_crc ("%06x" of
 * data->config_crc, which only T6 messages set: those update_cfg reads);
 * update_fw; update_cfg; mem_access (a snapshot of the chip's memory,
 * read at bind and after update_fw/update_cfg: the real one reads the chip
 * on demand, which a regular file can not).  object and the debug attributes are not modelled,
 * nor the IRQ handler (beyond update_cfg's last read) or a maxtouch.cfg at probe.
 */
#include <linux/input.h>
#include <string.h>

#include "emub-priv.h"
#include "emub-spi.h"
#include "mxt-emul.h"
#include "mxt_model.h"
#include "mxt_spi.h"

/* struct mxt_data's part the model keeps (d->drv_priv, kept across binds) */
struct mchp_data {
	bool in_bootloader;
	guint16 t6;		     /* T6 address from the info block */
	bool crc;		     /* crc_enabled: the object table listed T144 */
	bool have_info;		     /* data->info set (NULL after a failed read) */
	guint8 info[4];		     /* family, variant, version, build */
	guint8 raw[7 + 255 * 6 + 3]; /* the info block it read (data->raw_info_block) */
	guint16 raw_len;
	guint32 config_crc; /* data->config_crc (T6 messages set it) */
	guint8 t7[2];	    /* data->t7_cfg: zero until mxt_init_t7_power_cfg */
	bool group_early;   /* the probe published the attribute group */
};

static struct mchp_data *data_of(const struct emub_spi_dev *d)
{
	struct emub_spi_dev *w = (struct emub_spi_dev *)d;

	if (!w->drv_priv)
		w->drv_priv = g_new0(struct mchp_data, 1);
	return w->drv_priv;
}

static void emub_mchp_attrs_write(struct emub_spi_dev *d);
static void emub_mchp_attrs_remove(struct emub_spi_dev *d);

#define MXT_T100 100
#define MXT_T144 144 /* MXT_SPT_MESSAGECOUNT_T144: crc_enabled */
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
	want = em_get_le24(info + n - 3);
	*crc_ok = crc == want;
	*len = n;
	return 0;
}

static int emub_mchp_probe(struct emub_spi_dev *d)
{
	guint8 info[7 + 255 * 6 + 3], st;
	guint16 len = 0, xr = 0, yr = 0;
	bool crc_ok, t100 = false;
	int attempts = 0, r;

	emub_spi_input_dev(d);
	data_of(d)->t6 = 0;
	data_of(d)->crc = false;
	data_of(d)->have_info = false;
	data_of(d)->raw_len = 0;
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
			data_of(d)->in_bootloader = true;
			return 0;
		}
		{
			static const guint8 exit_bl[2] = { 0x01, 0x01 };

			bl_write(d, exit_bl, 2);
		}
		/* msleep(MXT_FW_RESET_TIME); realtime: really wait */
		emub_spi_driver_msleep(d, (unsigned int)(FW_RESET_NS / 1000000ULL));
	}
	data_of(d)->in_bootloader = false;
	data_of(d)->have_info = true;
	memcpy(data_of(d)->info, info, sizeof(data_of(d)->info));
	memcpy(data_of(d)->raw, info, len);
	data_of(d)->raw_len = len;
	data_of(d)->config_crc = 0;
	memset(data_of(d)->t7, 0, sizeof(data_of(d)->t7));
	for (guint i = 0; i < info[6]; i++) {
		const guint8 *o = info + 7 + i * 6;

		if (o[0] == 6)
			data_of(d)->t6 = em_get_le16(o + 1);
		if (o[0] == MXT_T144)
			data_of(d)->crc = true; /* mxt_parse_object_table */
		if (o[0] == MXT_T100) {
			guint16 start = em_get_le16(o + 1);
			guint8 b[2];

			t100 = true;
			if (!spi_read(d, (guint16)(start + T100_XRANGE), b, 2))
				xr = em_get_le16(b);
			if (!spi_read(d, (guint16)(start + T100_YRANGE), b, 2))
				yr = em_get_le16(b);
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
		};

		snprintf(phys, sizeof(phys), "%s/input0", d->name);
		drv_input_set_abs(&in, ABS_MT_POSITION_X, 0, xr);
		drv_input_set_abs(&in, ABS_MT_POSITION_Y, 0, yr);
		/* ten slots (ABS_MT_SLOT 0..9) of a direct touchscreen */
		drv_input_mt_init_direct(&in, 10);
		drv_input_set_abs(&in, ABS_X, 0, xr);
		drv_input_set_abs(&in, ABS_Y, 0, yr);
		/* The kernel adds the attribute group after the probe (the
		 * driver core's dev_groups), but a write to the driver's
		 * bind file returns only then: whoever bound it and then
		 * waits for the input device finds the group there.  Here
		 * that write returns at once (the service thread binds), so
		 * the group goes first to keep that promise. */
		emub_mchp_attrs_write(d);
		data_of(d)->group_early = true;
		r = drv_input_register(d->idev, &in);
		if (r) { /* the probe failed: no group */
			emub_mchp_attrs_remove(d);
			data_of(d)->group_early = false;
		}
		return r;
	}
}

static void emub_mchp_remove(struct emub_spi_dev *d)
{
	if (d->idev)
		drv_input_unregister(d->idev);
}

/* ------------------------------------------------------------ update_fw */

static void sleep_ms(struct emub_spi_dev *d, unsigned int ms);

/* mxt_t6_command() over spi: mxt_spi_write_req (the request, 500 us with
 * the chip still selected), the wait for its completion (CHG is not
 * modelled: the 1 ms timeout, MXT_CS_MAX_DELAY), then
 * mxt_spi_write_process (6 bytes out, the verdict in the first).  With
 * crc_enabled the data's CRC8 follows it, counted in the length. */
static int spi_write(struct emub_spi_dev *d, guint16 reg, const guint8 *val, guint16 len)
{
	guint8 req[MXT_SPI_HEADER + MXT_SPI_MAX_LEN + 1], ones[MXT_SPI_HEADER],
		rx[MXT_SPI_HEADER];
	guint16 wlen = (guint16)(len + (data_of(d)->crc ? 1 : 0));
	struct emub_spi_xfer x[2] = {
		{ .tx = req, .len = (guint32)MXT_SPI_HEADER + wlen, .delay_us = 500 },
		{ .tx = ones, .rx = rx, .len = MXT_SPI_HEADER },
	};
	int r;

	req[0] = MXT_SPI_WRITE_REQ;
	req[1] = (guint8)(reg & 0xff);
	req[2] = (guint8)(reg >> 8);
	req[3] = (guint8)(wlen & 0xff);
	req[4] = (guint8)(wlen >> 8);
	req[5] = mxt_spi_model_crc8(req, 5);
	memcpy(req + MXT_SPI_HEADER, val, len);
	if (data_of(d)->crc)
		req[MXT_SPI_HEADER + len] = mxt_spi_model_crc8(val, len);
	memset(ones, 0xff, sizeof(ones));
	g_mutex_lock(&d->eb->lock);
	r = emub_spi_message_locked(d, &x[0], 1);
	g_mutex_unlock(&d->eb->lock);
	sleep_ms(d, 1);
	if (!r) {
		g_mutex_lock(&d->eb->lock);
		r = emub_spi_message_locked(d, &x[1], 1);
		g_mutex_unlock(&d->eb->lock);
	}
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
	if (!data_of(d)->in_bootloader) {
		guint8 v = 0xa5;

		data_of(d)->in_bootloader = true;
		r = data_of(d)->t6 ? spi_write(d, data_of(d)->t6, &v, 1) : -EIO;
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
		data_of(d)->in_bootloader = false;
	}
	g_free(fw);
	return r;
}

/* update_fw written: mxt_update_fw_store(); the write's result */
static int emub_mchp_update_fw(struct emub_spi_dev *d)
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
	data_of(d)->have_info = false;
	data_of(d)->raw_len = 0;
	if (read_info(d, info, &len, &crc_ok) || !crc_ok) {
		emub_mchp_attrs_write(d);
		return -EIO;
	}
	data_of(d)->have_info = true;
	memcpy(data_of(d)->info, info, sizeof(data_of(d)->info));
	memcpy(data_of(d)->raw, info, len);
	data_of(d)->raw_len = len;
	/* crc_enabled is set by a T144 in the new table and, as in the
	 * driver (mxt_free_object_table leaves it), never cleared */
	for (guint i = 0; i < info[6]; i++)
		if (info[7 + i * 6] == MXT_T144)
			data_of(d)->crc = true;
	emub_mchp_attrs_write(d);
	return r;
}

/* ------------------------------------------------------------ update_cfg */

/* The object table the driver parsed (mxt_parse_object_table). */
struct objs {
	guint16 t5, t5_size, t6, t7, t38, mem_size;
	guint8 t6_rid, max_rid;
	guint32 info_crc;
};

static void parse_objects(const struct emub_spi_dev *d, struct objs *o)
{
	const guint8 *r = data_of(d)->raw;
	guint8 rid = 1;

	memset(o, 0, sizeof(*o));
	for (guint i = 0; i < r[6]; i++) {
		const guint8 *e = r + 7 + i * 6;
		guint16 start = em_get_le16(e + 1);
		guint16 size = (guint16)(e[3] + 1), inst = (guint16)(e[4] + 1);
		guint8 min = e[5] ? rid : 0;

		rid = (guint8)(rid + e[5] * inst);
		if (e[0] == 5) {
			o->t5 = start;
			/* the message's CRC byte is read only with crc_enabled */
			o->t5_size = (guint16)(data_of(d)->crc ? size : size - 1);
		} else if (e[0] == 6) {
			o->t6 = start;
			o->t6_rid = min;
		} else if (e[0] == 7) {
			o->t7 = start;
		} else if (e[0] == 38) {
			o->t38 = start;
		}
		if (start + size * inst > o->mem_size)
			o->mem_size = (guint16)(start + size * inst);
	}
	o->max_rid = rid;
	o->info_crc = (guint32)r[data_of(d)->raw_len - 3] |
		      (guint32)r[data_of(d)->raw_len - 2] << 8 |
		      (guint32)r[data_of(d)->raw_len - 1] << 16;
}

/* mxt_write_block(): 64-byte requests (14 with crc_enabled), 1 ms apart;
 * the last verdict */
static int write_block(struct emub_spi_dev *d, guint16 reg, const guint8 *val, guint32 len)
{
	guint32 max = data_of(d)->crc ? MXT_SPI_MAX_LEN_CRC : MXT_SPI_MAX_LEN;
	int r = 0;

	for (guint32 off = 0; off < len;) {
		guint16 n = (guint16)(len - off < max ? len - off : max);

		r = spi_write(d, (guint16)(reg + off), val + off, n);
		sleep_ms(d, 1);
		off += n;
	}
	return r;
}

/* mxt_process_messages_until_invalid(): T5 read until report id 0xFF (a T6
 * message sets data->config_crc) */
static void process_messages(struct emub_spi_dev *d, const struct objs *o)
{
	guint8 msg[MXT_SPI_MAX_LEN];

	if (!o->t5 || !o->t5_size || o->t5_size > sizeof(msg))
		return;
	for (guint i = 0; i < o->max_rid; i++) {
		if (spi_read(d, o->t5, msg, o->t5_size) || msg[0] == 0xff)
			return;
		if (msg[0] == o->t6_rid && o->t5_size >= 5)
			data_of(d)->config_crc = em_get_le24(msg + 2);
	}
}

/* mxt_update_crc(): config_crc zeroed, then the T6 command (for
 * REPORTALL its messages read) */
static void update_crc(struct emub_spi_dev *d, const struct objs *o, guint8 cmd, guint8 val)
{
	data_of(d)->config_crc = 0;
	spi_write(d, (guint16)(o->t6 + cmd), &val, 1);
	if (cmd == 3)
		process_messages(d, o);
}

/* sscanf "%x" / "%hhx" with %n, as the driver parses: -1 at the end of the
 * text, 0 for no number */
static int scan_hex(const char *raw, gsize *pos, guint32 *out)
{
	const char *p = raw + *pos;
	char *end;
	unsigned long v;

	while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
		p++;
	if (!*p)
		return -1;
	v = strtoul(p, &end, 16);
	if (end == p)
		return 0;
	*out = (guint32)v;
	*pos = (gsize)(end - raw);
	return 1;
}

/* mxt_init_t7_power_cfg(): read T7; zero twice: 20/100 written */
static void init_t7(struct emub_spi_dev *d, const struct objs *o)
{
	for (int tries = 0; tries < 2; tries++) {
		if (spi_read(d, o->t7, data_of(d)->t7, 2))
			return;
		if (data_of(d)->t7[0] && data_of(d)->t7[1])
			return;
	}
	data_of(d)->t7[0] = 100; /* idle */
	data_of(d)->t7[1] = 20;	 /* active */
	spi_write(d, o->t7, data_of(d)->t7, 2);
}

/* mxt_update_cfg(): 0, -EINVAL, or 1 (an info CRC mismatch: nothing
 * programmed, which mxt_configure_objects only warns about) */
static int update_cfg(struct emub_spi_dev *d, const struct objs *o, const char *raw)
{
	static const char magic[] = "OBP_RAW V1";
	guint32 v, info_crc, config_crc;
	guint8 info[7], *mem;
	gsize pos, mem_size, write_offset = 0;

	update_crc(d, o, 3, 1); /* REPORTALL: the chip's config CRC */
	process_messages(d, o);
	if (strncmp(raw, magic, strlen(magic))) {
		emub_log(d->eb, "mchp_spi_ts %s: Unrecognised config file", d->name);
		return -EINVAL;
	}
	pos = strlen(magic);
	for (int i = 0; i < 7; i++) {
		if (scan_hex(raw, &pos, &v) != 1) {
			emub_log(d->eb, "mchp_spi_ts %s: Bad format", d->name);
			return -EINVAL;
		}
		info[i] = (guint8)v;
	}
	if (info[0] != data_of(d)->info[0] || info[1] != data_of(d)->info[1]) {
		emub_log(d->eb, "mchp_spi_ts %s: %s ID mismatch!", d->name,
			 info[0] != data_of(d)->info[0] ? "Family" : "Variant");
		return -EINVAL;
	}
	if (scan_hex(raw, &pos, &info_crc) != 1 || scan_hex(raw, &pos, &config_crc) != 1) {
		emub_log(d->eb, "mchp_spi_ts %s: Bad format: failed to parse a CRC", d->name);
		return -EINVAL;
	}
	if (info_crc != o->info_crc) {
		emub_log(d->eb,
			 "mchp_spi_ts %s: Warning: Info CRC error - device=0x%06X "
			 "file=0x%06X Failed Config Programming",
			 d->name, o->info_crc, info_crc);
		return 1;
	}
	if (config_crc && data_of(d)->config_crc && config_crc == data_of(d)->config_crc) {
		emub_log(d->eb, "mchp_spi_ts %s: Config CRC 0x%06X: OK. No update required.",
			 d->name, config_crc);
		return 0;
	}
	update_crc(d, o, 1, 0x33); /* stop T70 dynamic configuration */
	sleep_ms(d, 5);
	mem_size = o->mem_size > o->t38 ? o->mem_size - o->t38 : 0;
	mem = g_malloc0(mem_size + 1);
	/* mxt_prepare_cfg_mem(): each object's bytes at their address in
	 * cfg.mem, but written from cfg.mem + the running sum of the sizes
	 * (write_offset) -- the same bytes only for a file whose objects are
	 * contiguous from T38, in order; objects the chip lacks skipped */
	for (;;) {
		guint32 type, inst, size;
		int k = scan_hex(raw, &pos, &type);
		const guint8 *e = NULL;
		guint16 start, osize, oinst;

		if (k <= 0)
			break;
		if (scan_hex(raw, &pos, &inst) != 1 || scan_hex(raw, &pos, &size) != 1) {
			emub_log(d->eb, "mchp_spi_ts %s: Bad format: failed to parse object",
				 d->name);
			g_free(mem);
			return -EINVAL;
		}
		for (guint i = 0; i < data_of(d)->raw[6] && !e; i++)
			if (data_of(d)->raw[7 + i * 6] == type)
				e = data_of(d)->raw + 7 + i * 6;
		if (!e) {
			for (guint32 i = 0; i < size; i++)
				if (scan_hex(raw, &pos, &v) != 1) {
					g_free(mem);
					return -EINVAL;
				}
			continue;
		}
		start = em_get_le16(e + 1);
		osize = (guint16)(e[3] + 1);
		oinst = (guint16)(e[4] + 1);
		if (inst >= oinst) {
			emub_log(d->eb, "mchp_spi_ts %s: Object instances exceeded!", d->name);
			g_free(mem);
			return -EINVAL;
		}
		start = (guint16)(start + osize * inst);
		for (guint32 i = 0; i < size; i++) {
			gsize at;

			if (scan_hex(raw, &pos, &v) != 1) {
				emub_log(d->eb, "mchp_spi_ts %s: Bad format in T%u at %u",
					 d->name, type, i);
				g_free(mem);
				return -EINVAL;
			}
			if (i > osize || start < o->t38)
				continue;
			at = start + i - o->t38;
			if (at < mem_size)
				mem[at] = (guint8)v;
		}
		if (start >= o->t38) {
			guint32 n = write_offset + size <= mem_size ? size
				    : write_offset < mem_size
					    ? (guint32)(mem_size - write_offset)
					    : 0;

			write_block(d, start, mem + write_offset, n);
			write_offset += size;
		}
	}
	g_free(mem);
	sleep_ms(d, 5);
	update_crc(d, o, 1, 0x55); /* backup to NVM */
	sleep_ms(d, 50);
	{
		guint8 one = 1; /* mxt_soft_reset() */

		spi_write(d, o->t6, &one, 1);
		sleep_ms(d, 1000); /* MXT_RESET_INVALID_CHG */
	}
	emub_log(d->eb, "mchp_spi_ts %s: Config successfully updated", d->name);
	init_t7(d, o);
	return 0;
}

/* mxt_clear_cfg(): zeros from the end of the info block to the end of
 * memory, 64 bytes a request, then a backup -- before the file is even
 * requested */
static int clear_cfg(struct emub_spi_dev *d, const struct objs *o)
{
	guint16 start = (guint16)(7 + data_of(d)->raw[6] * 6 + 3);
	guint8 zeros[MXT_SPI_MAX_LEN] = { 0 };

	for (guint32 off = start; off < o->mem_size;) {
		guint16 n = (guint16)(o->mem_size - off < MXT_SPI_MAX_LEN ? o->mem_size - off
									  : MXT_SPI_MAX_LEN);
		int r = spi_write(d, (guint16)off, zeros, n);

		sleep_ms(d, 1);
		if (r) {
			emub_log(d->eb, "mchp_spi_ts %s: Error writing configuration", d->name);
			return r;
		}
		off += n;
	}
	sleep_ms(d, 10);
	update_crc(d, o, 1, 0x55);
	sleep_ms(d, 100);
	return 0;
}

/* update_cfg written: mxt_update_cfg_store(); the write's result */
static int emub_mchp_update_cfg(struct emub_spi_dev *d)
{
	struct objs o;
	guint8 *cfg = NULL;
	gsize len = 0;
	char *raw;
	int r;

	if (!data_of(d)->have_info || !data_of(d)->raw_len) {
		/* data->info NULL (bootloader): mxt_clear_cfg dereferences it */
		emub_log(d->eb,
			 "mchp_spi_ts %s: update_cfg without an info block: the real "
			 "driver oopses here",
			 d->name);
		return -EIO;
	}
	parse_objects(d, &o);
	if (clear_cfg(d, &o))
		emub_log(d->eb, "mchp_spi_ts %s: Failed clear configuration", d->name);
	if (drv_request_firmware(d->idev, "maxtouch.cfg", &cfg, &len)) {
		emub_log(d->eb, "mchp_spi_ts %s: Failure to request config file maxtouch.cfg",
			 d->name);
		emub_mchp_attrs_write(d);
		return -ENOENT;
	}
	raw = g_strndup((const char *)cfg, len); /* kmemdup_nul */
	g_free(cfg);
	/* mxt_set_t7_power_cfg(RUN) with data->t7_cfg, 2 ms; messages */
	spi_write(d, o.t7, data_of(d)->t7, 2);
	sleep_ms(d, 2);
	process_messages(d, &o);
	/* mxt_configure_objects() */
	init_t7(d, &o);
	r = update_cfg(d, &o, raw);
	if (r)
		emub_log(d->eb, "mchp_spi_ts %s: Error %d updating config", d->name, r);
	sleep_ms(d, 100);
	g_free(raw);
	/* the IRQ handler (one message per interrupt, irq_state WRITE_DONE)
	 * takes the reset's T6 message right after: data->config_crc */
	process_messages(d, &o);
	emub_mchp_attrs_write(d);
	return 0;
}

/* ------------------------------------------------------------ attributes */

#define NULL_INFO "(emuboard: reading this oopses the kernel: NULL info block)\n"

static void attr(struct emub_spi_dev *d, const char *name, const char *content)
{
	char *f = g_strdup_printf("%s/%s", d->devpath + 1, name);

	if (content)
		emub_sys_publish(d->eb, f, content);
	else
		emub_sys_remove(d->eb, f);
	g_free(f);
}

/* update_fw, update_cfg: made once; afterwards the file is the writers'
 * (spibus.c empties it after taking a write), and rewriting it here could
 * wipe a write not taken yet. */
static void write_only_attr(struct emub_spi_dev *d, const char *name)
{
	char *f = g_strdup_printf("%s/%s", d->devpath + 1, name);
	char *p = emub_sys_path(d->eb, f);

	if (!g_file_test(p, G_FILE_TEST_EXISTS))
		emub_sys_write(d->eb, f, "");
	g_free(p);
	g_free(f);
}

static const char *const attr_names[] = { "fw_version", "hw_version", "in_bootloader",
					  "config_crc", "update_fw",  "update_cfg",
					  "mem_access" };

static void emub_mchp_attrs_write(struct emub_spi_dev *d)
{
	char fw[32], hw[32];

	snprintf(fw, sizeof(fw), "%u.%u.%02X\n", data_of(d)->info[2] >> 4,
		 data_of(d)->info[2] & 0xf, data_of(d)->info[3]);
	snprintf(hw, sizeof(hw), "%u.%u\n", data_of(d)->info[0], data_of(d)->info[1]);
	attr(d, "fw_version", data_of(d)->have_info ? fw : NULL_INFO);
	attr(d, "hw_version", data_of(d)->have_info ? hw : NULL_INFO);
	attr(d, "in_bootloader", data_of(d)->in_bootloader ? "1\n" : "0\n");
	{
		char crc[16];

		snprintf(crc, sizeof(crc), "%06x\n", data_of(d)->config_crc);
		attr(d, "config_crc", crc);
	}
	write_only_attr(d, "update_fw");
	write_only_attr(d, "update_cfg");
	{
		/* mem_access reads the chip on demand (mxt_read_block); a
		 * regular file can not: it holds the chip's memory as read
		 * now, [0, mem_size) -- empty without an info block, where
		 * the real one has mem_size 0 */
		char *f = g_strdup_printf("%s/mem_access", d->devpath + 1);
		guint8 *mem = NULL;
		gsize n = 0;

		if (data_of(d)->have_info && data_of(d)->raw_len) {
			struct objs o;

			parse_objects(d, &o);
			n = o.mem_size;
			mem = g_malloc0(n ? n : 1);
			if (spi_read(d, 0, mem, (guint16)n))
				n = 0;
		}
		emub_sys_publish_bin(d->eb, f, mem ? mem : data_of(d)->raw, n);
		g_free(mem);
		g_free(f);
	}
}

/* The driver core's dev_groups once the probe returned: published by the
 * probe already where it registered an input device. */
static void emub_mchp_attrs_add(struct emub_spi_dev *d)
{
	if (data_of(d)->group_early)
		data_of(d)->group_early = false;
	else
		emub_mchp_attrs_write(d);
}

static void emub_mchp_attrs_remove(struct emub_spi_dev *d)
{
	for (size_t i = 0; i < G_N_ELEMENTS(attr_names); i++)
		attr(d, attr_names[i], NULL);
}

static bool mchp_attr_store(struct emub_spi_dev *d, const char *attr, int *res)
{
	if (!strcmp(attr, "update_cfg"))
		*res = emub_mchp_update_cfg(d);
	else if (!strcmp(attr, "update_fw"))
		*res = emub_mchp_update_fw(d);
	else
		return false;
	return true;
}

const struct emub_spi_driver emub_spi_drv_mchp = {
	.name = "mchp_spi_ts",
	.probe = emub_mchp_probe,
	.remove = emub_mchp_remove,
	.attrs_add = emub_mchp_attrs_add,
	.attrs_remove = emub_mchp_attrs_remove,
	.attr_store = mchp_attr_store,
	.store_attrs = (const char *const[]){ "update_fw", "update_cfg", NULL },
};
