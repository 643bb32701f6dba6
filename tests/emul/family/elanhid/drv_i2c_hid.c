// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model of the i2c_hid drivers (i2c-hid-of for DT "hid-over-i2c",
 * i2c-hid-acpi for ACPI PNP0C50 / ACPI0C50) with the HID core's parse and
 * hid-multitouch's input device on top, written from
 * drivers/hid/i2c-hid/i2c-hid-core.c (i2c_hid_core_probe,
 * i2c_hid_fetch_hid_descriptor, i2c_hid_parse, i2c_hid_hwreset,
 * i2c_hid_get_input), i2c-hid-of.c (hid-descr-addr) and
 * drivers/hid/hid-multitouch.c, independent of touchfw's agent.  What user
 * space sees is what the kernel gives:
 *  - no interrupt: -EINVAL ("HID over i2c has not been provided an Int
 *    IRQ"); nothing answering a one-byte read: -ENXIO;
 *  - the HID descriptor (30 bytes from the descriptor register) must say
 *    bcdVersion 0x0100 and wHIDDescLength 30, else -ENODEV ("unexpected
 *    HID descriptor bcdVersion (0x%04hx)" / "weird size of HID descriptor
 *    (%u)") and the probe fails: no driver, no hidraw, no input device;
 *  - hid_add_device parses: a reset (RESET command, the reset sentinel
 *    awaited on the interrupt up to 5 s), then the report descriptor
 *    (wReportDescLength from wReportDescRegister, at most 4096 bytes);
 *    a failure fails the probe;
 *  - hid-multitouch: the report descriptor's touch pad application gives
 *    the axes (X, Y logical maxima), its feature reports the contact count
 *    maximum (GET_REPORT) and the input mode (SET_REPORT 3: multi-touch);
 *    the input device "<client name> 04F3:<pid> Touchpad" with BUS_I2C,
 *    the HID ids and version, ABS_X/Y, ABS_MT_POSITION_X/Y, ABS_MT_SLOT,
 *    ABS_MT_TRACKING_ID, BTN_TOUCH, BTN_TOOL_FINGER, INPUT_PROP_POINTER
 *    and _BUTTONPAD (not BTN_LEFT: the emulator carries no key word 4);
 *  - hid_add_device's hid bus device below the client, as hid-core.c
 *    names it ("%04X:%04X:%04X.%04X": BUS_I2C, the descriptor's vendor and
 *    product, a number hid-core counts up from 1 for every hid device it
 *    adds), its uevents (add; bind and unbind of hid-multitouch, or of
 *    hid-generic when hid_scan_report finds no Contact ID; remove) with
 *    hid_uevent's HID_ID, HID_NAME ("<client name> VVVV:PPPP"), HID_PHYS
 *    (the client's device name), HID_UNIQ and MODALIAS with the group
 *    hid_scan_report picks; hid-multitouch registers its input device
 *    below it (<client>/0018:VVVV:PPPP.NNNN/input/inputN), not on the
 *    client;
 *  - the interrupt reads an input report of wMaxInputLength bytes; the
 *    touch reports are counted (touches_seen) and logged.
 * Not modelled: the hidraw node below the hid device and hid-generic's
 * input devices (the mouse collection's), suspend/resume, quirks, the DMI
 * descriptor override, output reports, reports other than the touch
 * pad's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elanhid-emul.h"
#include "emub-priv.h"

#define I2C_HID_DESC_LEN 30
#define HID_MAX_DESCRIPTOR_SIZE 4096
#define I2C_HID_RESET_TIMEOUT_MS 1000
#define OP_RESET 0x1
#define OP_GET_REPORT 0x2
#define OP_SET_REPORT 0x3
#define OP_SET_POWER 0x8
#define REPORT_FEATURE 3
#define MT_INPUTMODE_TOUCHPAD 0x03

/* include/linux/hid.h: the groups hid_scan_report picks */
#define HID_GROUP_GENERIC 0x0001
#define HID_GROUP_MULTITOUCH 0x0002
#define HID_GROUP_MULTITOUCH_WIN_8 0x0004
#define HID_DG_CONTACTID (0x0du << 16 | 0x51)

/* input.h */
#define BUS_I2C 0x18
#define INPUT_PROP_POINTER 0
#define INPUT_PROP_BUTTONPAD 2
#define EV_SYN 0
#define EV_KEY 1
#define EV_ABS 3
#define EV_MSC 4
#define BTN_TOOL_FINGER 0x145
#define BTN_TOUCH 0x14a
#define ABS_X 0x00
#define ABS_Y 0x01
#define ABS_MT_SLOT 0x2f
#define ABS_MT_POSITION_X 0x35
#define ABS_MT_POSITION_Y 0x36
#define ABS_MT_TRACKING_ID 0x39

struct i2c_hid {
	struct emub_dev *d;
	guint16 addr, desc_reg;
	guint8 hdesc[I2C_HID_DESC_LEN];
	guint16 rdesc_len, rdesc_reg, input_reg, max_input, cmd_reg, data_reg;
	guint16 vendor, product, version;
	unsigned int reset_done;
	bool reset_pending, input_registered;
	/* what hid-multitouch found in the report descriptor */
	int x_max, y_max, touch_id, contactmax_id, inputmode_id;
	unsigned int contacts;
	unsigned int touches_seen;
	/* hid_scan_report's group; the hid device (devpath below /sys,
	 * without the leading "/"), its name and the hid driver bound */
	guint16 group;
	char *hid_rel;
	char hid_name[24];
	const char *hid_driver;
};

/* hid-core's static counter: the NNNN of every hid device it adds */
static gint hid_dev_ids;

static struct i2c_hid *ihid_of(struct emub_dev *d)
{
	return d->priv;
}

/* i2c_hid_xfer: a write then (optionally) a read in one transfer. */
static int xfer(struct i2c_hid *ih, guint8 *w, guint16 wlen, guint8 *r, guint16 rlen)
{
	struct em_msg msgs[2] = {
		{ .addr = ih->addr, .flags = 0, .len = wlen, .buf = w },
		{ .addr = ih->addr, .flags = EM_MSG_RD, .len = rlen, .buf = r },
	};
	int n = rlen ? 2 : 1, ret = drv_i2c_transfer(ih->d, msgs, n);

	return ret == n ? 0 : (ret < 0 ? ret : -EIO);
}

/* i2c_hid_encode_command + the command register */
static int command(struct i2c_hid *ih, guint8 opcode, guint8 type, guint8 id,
		   const guint8 *tail, guint16 tail_len, guint8 *r, guint16 rlen)
{
	guint8 b[32];
	guint16 n = 0;

	b[n++] = (guint8)ih->cmd_reg;
	b[n++] = (guint8)(ih->cmd_reg >> 8);
	if (id >= 0x0f) {
		b[n++] = (guint8)(type << 4 | 0x0f);
		b[n++] = opcode;
		b[n++] = id;
	} else {
		b[n++] = (guint8)(type << 4 | id);
		b[n++] = opcode;
	}
	if (tail_len > sizeof(b) - n)
		return -EINVAL;
	if (tail_len)
		memcpy(b + n, tail, tail_len);
	return xfer(ih, b, (guint16)(n + tail_len), r, rlen);
}

static int set_power(struct i2c_hid *ih, guint8 state)
{
	return command(ih, OP_SET_POWER, 0, state, NULL, 0, NULL, 0);
}

/* i2c_hid_fetch_hid_descriptor */
static int fetch_hid_descriptor(struct i2c_hid *ih)
{
	guint8 reg[2] = { (guint8)ih->desc_reg, (guint8)(ih->desc_reg >> 8) };
	guint16 bcd, dsize;
	int ret = xfer(ih, reg, 2, ih->hdesc, I2C_HID_DESC_LEN);

	if (ret) {
		emub_dev_log(ih->d, "hid_descr_cmd failed");
		return -ENODEV;
	}
	bcd = em_get_le16(ih->hdesc + 2);
	if (bcd != 0x0100) {
		emub_dev_log(ih->d, "unexpected HID descriptor bcdVersion (0x%04hx)", bcd);
		return -ENODEV;
	}
	dsize = em_get_le16(ih->hdesc);
	if (dsize != I2C_HID_DESC_LEN) {
		emub_dev_log(ih->d, "weird size of HID descriptor (%u)", dsize);
		return -ENODEV;
	}
	ih->rdesc_len = em_get_le16(ih->hdesc + 4);
	ih->rdesc_reg = em_get_le16(ih->hdesc + 6);
	ih->input_reg = em_get_le16(ih->hdesc + 8);
	ih->max_input = em_get_le16(ih->hdesc + 10);
	ih->cmd_reg = em_get_le16(ih->hdesc + 16);
	ih->data_reg = em_get_le16(ih->hdesc + 18);
	ih->vendor = em_get_le16(ih->hdesc + 20);
	ih->product = em_get_le16(ih->hdesc + 22);
	ih->version = em_get_le16(ih->hdesc + 24);
	return 0;
}

/* i2c_hid_hwreset: power on, RESET, the sentinel awaited on the IRQ. */
static int hwreset(struct i2c_hid *ih)
{
	int ret = set_power(ih, 0);

	if (ret)
		return ret;
	ih->reset_done = 0;
	ih->reset_pending = true;
	if ((ret = command(ih, OP_RESET, 0, 0, NULL, 0, NULL, 0))) {
		emub_dev_log(ih->d, "failed to reset device: %d", ret);
		ih->reset_pending = false;
		return ret;
	}
	if (drv_wait_completion(ih->d, &ih->reset_done, I2C_HID_RESET_TIMEOUT_MS))
		emub_dev_log(ih->d, "device did not ack reset within 1000 ms");
	ih->reset_pending = false;
	return set_power(ih, 0);
}

/*
 * The items of a report descriptor (HID 1.11, 6.2.2), as far as
 * hid-multitouch needs them: the touch pad application's X / Y logical
 * maxima and report id, and the feature reports of the contact count
 * maximum and the input mode.  -EINVAL: a malformed descriptor (hid-core
 * refuses to parse it).
 */
static int parse_rdesc(struct i2c_hid *ih, const guint8 *p, guint16 len)
{
	guint32 page = 0, usages[16], nusage = 0, rsize = 0, rcount = 0;
	gint32 lmax = 0;
	int id = 0, depth = 0;
	bool in_pad = false, win8 = false;
	guint16 i = 0;

	ih->x_max = ih->y_max = -1;
	ih->touch_id = ih->contactmax_id = ih->inputmode_id = -1;
	ih->group = HID_GROUP_GENERIC;
	while (i < len) {
		guint8 b = p[i++], size = (guint8)(b & 3), type = (guint8)((b >> 2) & 3),
		       tag = (guint8)(b >> 4);
		guint32 v = 0;

		if (size == 3)
			size = 4;
		if (b == 0xfe || i + size > len)
			return -EINVAL; /* long items: none in such parts */
		for (guint8 k = 0; k < size; k++)
			v |= (guint32)p[i + k] << (8 * k);
		i = (guint16)(i + size);
		if (type == 1) { /* global */
			if (tag == 0)
				page = v;
			else if (tag == 2)
				lmax = size == 1 ? (gint8)v : size == 2 ? (gint16)v : (gint32)v;
			else if (tag == 7)
				rsize = v;
			else if (tag == 8)
				id = (int)v;
			else if (tag == 9)
				rcount = v;
		} else if (type == 2) { /* local */
			if (tag == 0 && nusage < G_N_ELEMENTS(usages))
				usages[nusage++] = size == 4 ? v : (page << 16 | v);
		} else if (type == 0) {	  /* main */
			if (tag == 0xa) { /* collection */
				if (depth == 0)
					in_pad = nusage && usages[0] == (0x0du << 16 | 0x05);
				depth++;
			} else if (tag == 0xc) { /* end collection */
				if (--depth < 0)
					return -EINVAL;
			} else if (tag == 0x8) { /* input */
				/* hid_scan_input_usage: a Contact ID in a
				 * non-constant input makes it multi-touch */
				for (guint32 u = 0; u < nusage && !(v & 1); u++)
					if (usages[u] == HID_DG_CONTACTID)
						ih->group = HID_GROUP_MULTITOUCH;
				for (guint32 u = 0; u < nusage && in_pad; u++) {
					if (usages[u] == (0x01u << 16 | 0x30))
						ih->x_max = lmax;
					if (usages[u] == (0x01u << 16 | 0x31))
						ih->y_max = lmax;
					if (usages[u] == (0x0du << 16 | 0x51))
						ih->touch_id = id;
				}
			} else if (tag == 0xb) { /* feature */
				for (guint32 u = 0; u < nusage; u++) {
					/* hid_scan_feature_usage: Windows 8's
					 * certification blob or its marker */
					if ((usages[u] == 0xff0000c5 && rcount == 256 &&
					     rsize == 8) ||
					    (usages[u] == 0xff0000c6 && rcount == 1 &&
					     rsize == 8))
						win8 = true;
					if (usages[u] == (0x0du << 16 | 0x55))
						ih->contactmax_id = id;
					if (usages[u] == (0x0du << 16 | 0x52))
						ih->inputmode_id = id;
				}
			}
			nusage = 0;
		}
	}
	if (win8 && ih->group == HID_GROUP_MULTITOUCH)
		ih->group = HID_GROUP_MULTITOUCH_WIN_8;
	return depth ? -EINVAL : 0;
}

/* i2c_hid_parse: reset, then the report descriptor. */
static int hid_parse(struct i2c_hid *ih)
{
	guint8 reg[2] = { (guint8)ih->rdesc_reg, (guint8)(ih->rdesc_reg >> 8) };
	guint8 *rdesc;
	int ret;

	if (ih->rdesc_len > HID_MAX_DESCRIPTOR_SIZE) {
		emub_dev_log(ih->d, "weird size of report descriptor (%u)", ih->rdesc_len);
		return -EINVAL;
	}
	if ((ret = hwreset(ih)))
		return ret;
	rdesc = g_malloc0(ih->rdesc_len ? ih->rdesc_len : 1);
	if ((ret = xfer(ih, reg, 2, rdesc, ih->rdesc_len))) {
		emub_dev_log(ih->d, "reading report descriptor failed");
		g_free(rdesc);
		return -EIO;
	}
	ret = parse_rdesc(ih, rdesc, ih->rdesc_len);
	g_free(rdesc);
	if (ret)
		emub_dev_log(ih->d, "hid_parse_report failed");
	return ret;
}

/* ---------------------------------------------------- the hid device */

/* hid->name as __i2c_hid_core_probe makes it: the client's name (its
 * sysfs "name"), then the descriptor's vendor and product. */
static char *hid_dev_hid_name(struct i2c_hid *ih)
{
	char *rel = g_strdup_printf("%s/name", ih->d->devpath + 1);
	char *client = emub_sys_read(ih->d->eb, rel, NULL), *out;

	g_free(rel);
	if (client)
		g_strchomp(client);
	out = g_strdup_printf("%s %04X:%04X", client ? client : ih->d->name, ih->vendor,
			      ih->product);
	g_free(client);
	return out;
}

/* dev_uevent's DRIVER (while one is bound), then hid_uevent's variables. */
static GPtrArray *hid_dev_env(struct i2c_hid *ih, bool with_driver)
{
	GPtrArray *env = g_ptr_array_new_with_free_func(g_free);
	char *name = hid_dev_hid_name(ih);

	if (with_driver && ih->hid_driver)
		g_ptr_array_add(env, g_strdup_printf("DRIVER=%s", ih->hid_driver));
	g_ptr_array_add(env, g_strdup_printf("HID_ID=%04X:%08X:%08X", BUS_I2C, ih->vendor,
					     ih->product));
	g_ptr_array_add(env, g_strdup_printf("HID_NAME=%s", name));
	g_ptr_array_add(env, g_strdup_printf("HID_PHYS=%s", ih->d->name));
	g_ptr_array_add(env, g_strdup("HID_UNIQ="));
	g_ptr_array_add(env, g_strdup_printf("MODALIAS=hid:b%04Xg%04Xv%08Xp%08X", BUS_I2C,
					     ih->group, ih->vendor, ih->product));
	g_free(name);
	return env;
}

/* The hid device's uevent file: what its uevent would carry now. */
static void hid_dev_uevent_file(struct i2c_hid *ih)
{
	GPtrArray *env = hid_dev_env(ih, true);
	GString *f = g_string_new(NULL);

	for (guint i = 0; i < env->len; i++)
		g_string_append_printf(f, "%s\n", (char *)env->pdata[i]);
	emub_sys_publish_in(ih->d->eb, ih->hid_rel, "uevent", f->str);
	g_string_free(f, TRUE);
	g_ptr_array_free(env, TRUE);
}

static void hid_dev_uevent(struct i2c_hid *ih, const char *action)
{
	GPtrArray *env = hid_dev_env(ih, strcmp(action, "unbind") != 0);
	char *devpath = g_strdup_printf("/%s", ih->hid_rel);

	emub_uevent_send(ih->d->eb, action, devpath, "hid", env);
	g_free(devpath);
	g_ptr_array_free(env, TRUE);
}

/* hid_add_device after the parse: the name, device_add below the client
 * (its add uevent, before any hid driver probes it). */
static void hid_dev_add(struct i2c_hid *ih)
{
	struct emub *eb = ih->d->eb;
	char *link;

	snprintf(ih->hid_name, sizeof(ih->hid_name), "%04X:%04X:%04X.%04X", BUS_I2C, ih->vendor,
		 ih->product, (unsigned)g_atomic_int_add(&hid_dev_ids, 1) + 1);
	ih->hid_rel = g_strdup_printf("%s/%s", ih->d->devpath + 1, ih->hid_name);
	ih->hid_driver = NULL;
	link = g_strdup_printf("bus/hid/devices/%s", ih->hid_name);
	g_mutex_lock(&eb->lock);
	emub_sys_mkdir(eb, ih->hid_rel);
	emub_sys_symlink_in(eb, "bus/hid", ih->hid_rel, "subsystem");
	emub_sys_symlink(eb, ih->hid_rel, link);
	hid_dev_uevent_file(ih);
	g_mutex_unlock(&eb->lock);
	g_free(link);
	hid_dev_uevent(ih, "add");
}

/* really_probe of a hid driver: its links before its probe
 * (driver_sysfs_add), taken away on a failed probe or its unbind
 * (driver_sysfs_remove); the bind uevent comes after a probe that
 * succeeded (the probe sends it), unbind after the remove (without
 * DRIVER). */
static void hid_dev_links(struct i2c_hid *ih, const char *driver, bool add)
{
	struct emub *eb = ih->d->eb;
	char *drv = g_strdup_printf("bus/hid/drivers/%s", driver);
	char *back = g_strdup_printf("%s/%s", drv, ih->hid_name);
	char *link = g_strdup_printf("%s/driver", ih->hid_rel);

	g_mutex_lock(&eb->lock);
	if (add) {
		emub_sys_mkdir(eb, drv);
		emub_sys_symlink(eb, drv, link);
		emub_sys_symlink(eb, ih->hid_rel, back);
		ih->hid_driver = driver;
	} else {
		emub_sys_remove(eb, link);
		emub_sys_remove(eb, back);
		ih->hid_driver = NULL;
	}
	hid_dev_uevent_file(ih);
	g_mutex_unlock(&eb->lock);
	g_free(drv);
	g_free(back);
	g_free(link);
}

/* hid_destroy_device: the hid driver's remove (hid-multitouch's takes its
 * input device away first), the unbind, then device_del's remove uevent
 * before the directory goes. */
static void hid_dev_remove(struct i2c_hid *ih)
{
	struct emub *eb = ih->d->eb;
	char *link;

	if (!ih->hid_rel)
		return;
	if (ih->input_registered)
		drv_input_unregister(ih->d);
	ih->input_registered = false;
	if (ih->hid_driver) {
		hid_dev_links(ih, ih->hid_driver, false);
		hid_dev_uevent(ih, "unbind");
	}
	hid_dev_uevent(ih, "remove");
	link = g_strdup_printf("bus/hid/devices/%s", ih->hid_name);
	g_mutex_lock(&eb->lock);
	emub_sys_remove(eb, link);
	emub_sys_remove(eb, ih->hid_rel);
	g_mutex_unlock(&eb->lock);
	g_free(link);
	g_free(ih->hid_rel);
	ih->hid_rel = NULL;
}

/* hid-multitouch: contact count maximum, input mode, the input device
 * (below the hid device). */
static int mt_probe(struct i2c_hid *ih)
{
	char *hname, name[100];
	struct emub_input_desc in = {
		.name = name,
		.phys = ih->d->name,
		.bustype = BUS_I2C,
		.evbits = 1u << EV_SYN | 1u << EV_KEY | 1u << EV_ABS | 1u << EV_MSC,
		.propbits = 1u << INPUT_PROP_POINTER | 1u << INPUT_PROP_BUTTONPAD,
		.parent = ih->hid_name,
	};
	guint8 dreg[2] = { (guint8)ih->data_reg, (guint8)(ih->data_reg >> 8) }, r[8];
	int ret;

	if (ih->x_max < 0 || ih->y_max < 0 || ih->touch_id < 0) {
		emub_dev_log(ih->d, "no touch pad application: no input device");
		return 0;
	}
	ih->contacts = 1;
	if (ih->contactmax_id >= 0 &&
	    !command(ih, OP_GET_REPORT, REPORT_FEATURE, (guint8)ih->contactmax_id, dreg, 2, r,
		     sizeof(r)) &&
	    r[2] == ih->contactmax_id)
		ih->contacts = r[3] & 0x0f ? r[3] & 0x0f : 1;
	if (ih->inputmode_id >= 0) {
		guint8 t[6] = {
			dreg[0], dreg[1], 4, 0, (guint8)ih->inputmode_id, MT_INPUTMODE_TOUCHPAD
		};

		if ((ret = command(ih, OP_SET_REPORT, REPORT_FEATURE, (guint8)ih->inputmode_id,
				   t, sizeof(t), NULL, 0)))
			emub_dev_log(ih->d, "failed to set input mode: %d", ret);
	}
	/* mt_input_configured: the application's suffix after hid->name */
	hname = hid_dev_hid_name(ih);
	snprintf(name, sizeof(name), "%s Touchpad", hname);
	g_free(hname);
	in.vendor = ih->vendor;
	in.product = ih->product;
	in.version = ih->version;
	/* (BTN_LEFT, in key word 4, is not carried by the emulator's input) */
	in.keybits_word5 = G_GUINT64_CONSTANT(1) << (BTN_TOUCH - 5 * 64) |
			   G_GUINT64_CONSTANT(1) << (BTN_TOOL_FINGER - 5 * 64);
	drv_input_set_abs(&in, ABS_X, 0, ih->x_max);
	drv_input_set_abs(&in, ABS_Y, 0, ih->y_max);
	drv_input_set_abs(&in, ABS_MT_POSITION_X, 0, ih->x_max);
	drv_input_set_abs(&in, ABS_MT_POSITION_Y, 0, ih->y_max);
	drv_input_set_abs(&in, ABS_MT_SLOT, 0, (int)ih->contacts - 1);
	drv_input_set_abs(&in, ABS_MT_TRACKING_ID, 0, 0xffff);
	if (drv_fault_no_input(ih->d)) {
		emub_dev_log(ih->d, "fault: input device not registered");
		return 0;
	}
	if ((ret = drv_input_register(ih->d, &in)))
		return ret;
	ih->input_registered = true;
	return 0;
}

static int i2c_hid_probe(struct emub_dev *d)
{
	struct i2c_hid *ih = g_new0(struct i2c_hid, 1);
	guint8 dummy;
	struct em_msg probe_msg = { .flags = EM_MSG_RD, .len = 1, .buf = &dummy };
	int ret;

	ih->d = d;
	ih->addr = d->chip->desc->addr;
	ih->desc_reg = elanhid_desc_reg(d->chip->desc);
	g_free(d->priv);
	d->priv = ih;
	if (d->chg_line < 0) {
		emub_dev_log(d, "HID over i2c has not been provided an Int IRQ");
		ret = -EINVAL;
		goto fail;
	}
	drv_regulator(d, true);
	probe_msg.addr = ih->addr;
	if (drv_smbus_transfer(d, &probe_msg, 1) < 0) {
		emub_dev_log(d, "nothing at this address");
		ret = -ENXIO;
		goto fail_power;
	}
	if ((ret = fetch_hid_descriptor(ih))) {
		emub_dev_log(d, "Failed to fetch the HID Descriptor");
		goto fail_power;
	}
	if ((ret = drv_irq_request(d)))
		goto fail_power;
	drv_irq_enable(d);
	/* hid_add_device: the parse, the hid device; then hid-multitouch (a
	 * multi-touch group) or hid-generic binds it */
	if ((ret = hid_parse(ih))) {
		emub_dev_log(d, "failed adding hid device");
		goto fail_irq;
	}
	hid_dev_add(ih);
	if (ih->group == HID_GROUP_MULTITOUCH || ih->group == HID_GROUP_MULTITOUCH_WIN_8) {
		hid_dev_links(ih, "hid-multitouch", true);
		if ((ret = mt_probe(ih))) {
			hid_dev_links(ih, "hid-multitouch", false);
			goto fail_hid;
		}
	} else {
		emub_dev_log(d, "no Contact ID: hid-generic (its input devices not modelled)");
		hid_dev_links(ih, "hid-generic", true);
	}
	hid_dev_uevent(ih, "bind");
	emub_dev_log(d, "HID %04X:%04X version 0x%04x: touch pad %dx%d, %u contacts",
		     ih->vendor, ih->product, ih->version, ih->x_max, ih->y_max, ih->contacts);
	return 0;

fail_hid:
	hid_dev_remove(ih);
fail_irq:
	drv_irq_disable(d);
fail_power:
	drv_regulator(d, false);
fail:
	d->priv = NULL;
	g_free(ih);
	return ret;
}

static void i2c_hid_remove(struct emub_dev *d)
{
	struct i2c_hid *ih = ihid_of(d);

	drv_irq_disable(d);
	if (ih) {
		hid_dev_remove(ih);
		set_power(ih, 1); /* I2C_HID_PWR_SLEEP */
	}
	drv_regulator(d, false);
	d->priv = NULL;
	g_free(ih);
}

/* i2c_hid_get_input: one input report of wMaxInputLength bytes. */
static void i2c_hid_irq(struct emub_dev *d)
{
	struct i2c_hid *ih = ihid_of(d);
	guint8 buf[64];
	guint16 size;

	if (!ih)
		return;
	size = ih->max_input < sizeof(buf) ? ih->max_input : sizeof(buf);
	if (drv_i2c_master_recv(d, ih->addr, buf, size) != size)
		return;
	if (em_get_le16(buf) == 0) {
		/* host or device initiated RESET completed */
		if (ih->reset_pending)
			ih->reset_done++;
		return;
	}
	if (ih->touch_id >= 0 && buf[2] == ih->touch_id) {
		ih->touches_seen++;
		emub_dev_log(d, "touch report: contact %u %s at %u,%u", (buf[3] >> 2) & 7,
			     buf[3] & 2 ? "down" : "up", em_get_le16(buf + 4),
			     em_get_le16(buf + 6));
	}
}

/* The board goes away with the driver bound: the data and its hid
 * device's path. */
static void i2c_hid_destroy(struct emub_dev *d)
{
	struct i2c_hid *ih = ihid_of(d);

	if (ih)
		g_free(ih->hid_rel);
	drv_free_priv(d);
}

static const char *const i2c_hid_of_match[] = { "hid-over-i2c", NULL };
static const char *const i2c_hid_acpi_match[] = { "ACPI0C50", "PNP0C50", NULL };

const struct emub_driver_ops emub_drv_i2c_hid_of = {
	.name = "i2c_hid_of",
	.of_match = i2c_hid_of_match,
	.probe = i2c_hid_probe,
	.remove = i2c_hid_remove,
	.irq = i2c_hid_irq,
	.destroy = i2c_hid_destroy,
};

const struct emub_driver_ops emub_drv_i2c_hid_acpi = {
	.name = "i2c_hid_acpi",
	.of_match = (const char *const[]){ NULL },
	.acpi_match = i2c_hid_acpi_match,
	.probe = i2c_hid_probe,
	.remove = i2c_hid_remove,
	.irq = i2c_hid_irq,
	.destroy = i2c_hid_destroy,
};
