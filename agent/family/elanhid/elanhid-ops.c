// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Elan HID touchpad operations.  Facts:
 *  - i2c-hid-core.c: the probe reads 30 bytes of HID descriptor from the
 *    descriptor register (DT hid-descr-addr, ACPI _DSM; Elan's parts use
 *    0x0001) and fails unless wHIDDescLength is 30 and bcdVersion 0x0100;
 *    wVendorID is at 20, wProductID at 22, wVersionID at 24.
 *  - fwupd's elantp plugin (fu-elantp-i2c-device.c, fu-elantp-common.h),
 *    which recovers such parts over i2c-dev on quirked machines: LE16
 *    registers read after a 2-byte pointer, written as register + value:
 *    0x0101 module id, 0x0102 firmware version, 0x0103 OSM version (ic
 *    type in the high byte) -- the IAP code echoes 0x0102 and 0x0103
 *    back, having no application -- 0x0110 IC body (ic type, low byte),
 *    0x0111 IAP version, 0x0304 IAP type (page size / 2, written before
 *    the pages for ic types from 0x10 with IAP version 1 or later: pages
 *    of 128 bytes, 512 for ic types 0x14/0x15 from IAP version 2), 0x0310
 *    IAP control (bit 9 main mode, bit 5 page error, bit 4 interface
 *    error), 0x0311 password 0x1EA5, 0x0314 reset F0F0, 0x0315 checksum;
 *    pages as 01 06 + page + LE16 word sum, from the image's IAP start
 *    (LE16 at 0x106, in words); the image's module id must be the part's.
 *  - elan_i2c_core.c's elan_get_fwinfo: the ic types Elan's IAP has.
 */
#include "elanhid.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "family/elantp/elantp.h"

#define DESC_LEN 30
#define ELAN_VENDOR_ID 0x04f3
#define REG_DESC_DEFAULT 0x0001
#define REG_CMD 0x0005
#define REG_MODULE_ID 0x0101
#define REG_FW_VERSION 0x0102
#define REG_OSM_VERSION 0x0103
#define REG_IC_BODY 0x0110
#define REG_IAP_VERSION 0x0111
#define REG_IAP_TYPE 0x0304
#define REG_IAP_CTRL 0x0310
#define REG_IAP 0x0311
#define REG_IAP_RESET 0x0314
#define REG_IAP_CHECKSUM 0x0315
#define IAP_PASSWORD 0x1ea5
#define IAP_RESET 0xf0f0
#define MAIN_MODE_ON (1u << 9)
#define IAP_PAGE_ERR (1u << 5)
#define IAP_INTF_ERR (1u << 4)
#define RETRY_COUNT 3
#define PAGE_MAX 512

/* Per run (c->priv): what detect() read of the IAP, and the page sums a
 * recovery sent. */
struct elanhid_run {
	unsigned ic_type, iap_version, page;
	bool sent;
	uint16_t sum;
};

static uint16_t chip_addr(const struct tf_ctx *c)
{
	return c->ctrl ? c->ctrl->reg : c->dev.addr;
}

/* The descriptor register i2c_hid reads: the board profile's
 * hid-descr-addr (ACPI machines: their _DSM is not readable from user
 * space), the device-tree node's (a big-endian u32 in sysfs), else 0x0001,
 * the register Elan's parts answer (ETP_I2C_DESC_CMD). */
static uint16_t desc_reg(const struct tf_ctx *c, const char **from)
{
	char path[PATH_MAX + 32];
	uint8_t b[4];
	int fd;

	if (c->ctrl && c->ctrl->has_hid_descr_addr) {
		*from = "the profile's";
		return c->ctrl->hid_descr_addr;
	}
	*from = "Elan's";
	if (snprintf(path, sizeof(path), "%s/of_node/hid-descr-addr", c->dev.syspath) >=
	    (int)sizeof(path))
		return REG_DESC_DEFAULT;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return REG_DESC_DEFAULT;
	if (read(fd, b, 4) == 4 && !b[0] && !b[1]) {
		close(fd);
		*from = "hid-descr-addr's";
		return (uint16_t)(b[2] << 8 | b[3]);
	}
	close(fd);
	return REG_DESC_DEFAULT;
}

static int reg_read(struct tf_ctx *c, uint16_t reg, unsigned *v)
{
	uint8_t a[2] = { (uint8_t)reg, (uint8_t)(reg >> 8) }, r[2];
	int rc = tf_i2c_write_read(c->bus, chip_addr(c), a, 2, r, 2);

	if (rc < 0)
		return rc;
	*v = (unsigned)(r[0] | r[1] << 8);
	return 0;
}

static int reg_write(struct tf_ctx *c, uint16_t reg, uint16_t val)
{
	uint8_t b[4] = { (uint8_t)reg, (uint8_t)(reg >> 8), (uint8_t)val, (uint8_t)(val >> 8) };

	return tf_i2c_write(c->bus, chip_addr(c), b, sizeof(b));
}

static unsigned le16(const uint8_t *p)
{
	return (unsigned)(p[0] | p[1] << 8);
}

static int read_desc(struct tf_ctx *c, uint16_t reg, uint8_t d[DESC_LEN])
{
	uint8_t a[2] = { (uint8_t)reg, (uint8_t)(reg >> 8) };

	return tf_i2c_write_read(c->bus, chip_addr(c), a, 2, d, DESC_LEN);
}

/* What i2c_hid_fetch_hid_descriptor accepts. */
static bool desc_valid(const uint8_t d[DESC_LEN])
{
	return le16(d) == DESC_LEN && le16(d + 2) == 0x0100;
}

/* elan_get_fwinfo's ic types, with fwupd's page size for each: 0, or the
 * page size. */
static unsigned page_size(unsigned ic, unsigned iap_version)
{
	static const uint8_t known[] = { 0x00, 0x03, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b,
					 0x0c, 0x0d, 0x0e, 0x10, 0x11, 0x13, 0x14 };
	size_t i;

	for (i = 0; i < sizeof(known) && known[i] != ic; i++)
		;
	if (i == sizeof(known))
		return 0;
	if (ic >= 0x10 && iap_version >= 1)
		return iap_version >= 2 && ic == 0x14 ? 512 : 128;
	return 64;
}

static void fill(struct tf_chip_state *st, unsigned module, unsigned fw)
{
	tf_snprintf(st->hw, sizeof(st->hw), "%u", module);
	tf_snprintf(st->version_str, sizeof(st->version_str), "%u.0", fw);
	st->has_version = tf_version_parse(tf_family_ids_elanhid.name, st->version_str,
					   &st->version) == 0;
}

/* The hidraw node i2c_hid's hid device has (<dev>/<bus:vid:pid.n>/hidraw/
 * hidrawN), "" when none. */
static void find_hidraw(const struct tf_ctx *c, char *out, size_t size)
{
	char path[PATH_MAX + 300];
	DIR *d = opendir(c->dev.syspath), *h;
	struct dirent *e, *f;

	*out = '\0';
	if (!d)
		return;
	while (!*out && (e = readdir(d))) {
		if (e->d_name[0] == '.' || !strchr(e->d_name, ':'))
			continue;
		snprintf(path, sizeof(path), "%s/%s/hidraw", c->dev.syspath, e->d_name);
		if (!(h = opendir(path)))
			continue;
		while ((f = readdir(h)))
			if (!strncmp(f->d_name, "hidraw", 6)) {
				tf_snprintf(out, size, "%s", f->d_name);
				break;
			}
		closedir(h);
	}
	closedir(d);
}

/*
 * A part whose HID descriptor reads valid runs its application: its
 * version is wVersionID, its module id Elan's register (Elan's parts).
 * With i2c_hid bound this is what its probe read too (reads only).
 */
static int detect_working(struct tf_ctx *c, struct tf_chip_state *st, const uint8_t *d,
			  uint16_t reg, struct tf_err *err)
{
	unsigned vid = le16(d + 20), pid = le16(d + 22), ver = le16(d + 24), module;
	char hidraw[32];
	int rc;

	st->mode = TF_CHIP_APP;
	find_hidraw(c, hidraw, sizeof(hidraw));
	if (vid != ELAN_VENDOR_ID) {
		tf_snprintf(st->detail, sizeof(st->detail),
			    "a working HID-over-I2C part at 0x%02x of vendor 0x%04x (product "
			    "0x%04x, version 0x%04x), not Elan's%s%s",
			    chip_addr(c), vid, pid, ver, hidraw[0] ? ", " : "", hidraw);
		return 0;
	}
	if ((rc = reg_read(c, REG_MODULE_ID, &module)) < 0)
		return tf_err_set(err, -rc,
				  "reading the module id (register 0x0101) at 0x%02x: %s",
				  chip_addr(c), strerror(-rc));
	fill(st, module, ver & 0xff);
	tf_snprintf(st->detail, sizeof(st->detail),
		    "HID descriptor valid (register 0x%04x): Elan 0x%04x, module %u, firmware "
		    "%s%s%s%s",
		    reg, pid, module, st->version_str, c->dev.driver[0] ? ", driver " : "",
		    c->dev.driver, hidraw[0] ? ", " : "");
	if (hidraw[0])
		tf_snprintf(st->detail + strlen(st->detail),
			    sizeof(st->detail) - strlen(st->detail), "%s", hidraw);
	return 0;
}

/*
 * A part whose descriptor i2c_hid refuses, identified as an Elan IAP by
 * what only that answers (never by the password, which anything that
 * stores bytes may seem to echo): IAP control without main mode; the
 * firmware and OSM version registers echoing their own numbers (the IAP
 * code's answer to commands it does not serve, as fwupd reads it); an ic
 * type Elan's IAP has; a module id that is neither 0 nor 0xFFFF.  A
 * zero-filled EEPROM answers 0 to all of it.  Reads only.
 */
static int identify_iap(struct tf_ctx *c, struct tf_chip_state *st, const uint8_t *d,
			uint16_t reg, const char *from, struct tf_err *err)
{
	struct elanhid_run *run = c->priv;
	unsigned ctrl, fw, osm, ic, iapv, module;
	char why[200];
	int rc;

	tf_snprintf(why, sizeof(why),
		    "its HID descriptor (%s register 0x%04x) says length %u, version 0x%04x: "
		    "i2c_hid refuses it",
		    from, reg, le16(d), le16(d + 2));
	if ((rc = reg_read(c, REG_IAP_CTRL, &ctrl)) < 0 ||
	    (rc = reg_read(c, REG_FW_VERSION, &fw)) < 0 ||
	    (rc = reg_read(c, REG_OSM_VERSION, &osm)) < 0 ||
	    (rc = reg_read(c, REG_IC_BODY, &ic)) < 0 ||
	    (rc = reg_read(c, REG_IAP_VERSION, &iapv)) < 0 ||
	    (rc = reg_read(c, REG_MODULE_ID, &module)) < 0)
		return tf_err_set(
			err, EBADMSG,
			"the device at 0x%02x is not a known part: %s, and it does not "
			"answer Elan's IAP registers (%s); not touched",
			chip_addr(c), why, strerror(-rc));
	ic &= 0xff;
	if (ctrl & MAIN_MODE_ON)
		return tf_err_set(
			err, EBADMSG,
			"the device at 0x%02x is not a known part: %s, yet it says an "
			"application runs (IAP control 0x%04x); not touched",
			chip_addr(c), why, ctrl);
	if (fw != REG_FW_VERSION || osm != REG_OSM_VERSION || !page_size(ic, iapv) || !module ||
	    module == 0xffff)
		return tf_err_set(
			err, EBADMSG,
			"the device at 0x%02x is not identified as an Elan touchpad in "
			"IAP: %s; registers 0x0102/0x0103 read 0x%04x/0x%04x (Elan's "
			"IAP echoes 0x0102/0x0103), ic type 0x%02x, IAP version %u, "
			"module id 0x%04x; not touched",
			chip_addr(c), why, fw, osm, ic, iapv, module);
	run->ic_type = ic;
	run->iap_version = iapv;
	run->page = page_size(ic, iapv);
	st->mode = TF_CHIP_BOOTLOADER;
	st->bl_addr = chip_addr(c);
	tf_snprintf(st->hw, sizeof(st->hw), "%u", module);
	tf_snprintf(st->detail, sizeof(st->detail),
		    "Elan IAP at 0x%02x (control 0x%04x): module %u, ic type 0x%02x, IAP "
		    "version %u, %u-byte pages; HID descriptor at 0x%04x: length %u, version "
		    "0x%04x",
		    chip_addr(c), ctrl, module, ic, iapv, run->page, reg, le16(d), le16(d + 2));
	return 0;
}

static int elanhid_detect(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	uint8_t d[DESC_LEN];
	const char *from;
	uint16_t reg = desc_reg(c, &from);
	int rc;

	memset(st, 0, sizeof(*st));
	if (!c->bus) {
		/* bound, and no bus open: i2c_hid's word is all there is */
		if (!c->dev.driver[0])
			return tf_err_set(err, ENODEV, "no driver bound and no bus open");
		st->mode = TF_CHIP_APP;
		snprintf(st->detail, sizeof(st->detail),
			 "%s bound: a working HID part (its version is read over the bus)",
			 c->dev.driver);
		return 0;
	}
	rc = read_desc(c, reg, d);
	if (rc < 0 && tf_i2c_nak(rc)) {
		st->mode = TF_CHIP_ABSENT;
		snprintf(st->detail, sizeof(st->detail), "no answer at 0x%02x", chip_addr(c));
		return 0;
	}
	if (rc < 0)
		return tf_err_set(err, -rc, "reading the HID descriptor at 0x%02x: %s",
				  chip_addr(c), strerror(-rc));
	if (desc_valid(d))
		return detect_working(c, st, d, reg, err);
	return identify_iap(c, st, d, reg, from, err);
}

static int bus_err(struct tf_ctx *c, int rc, const char *what, struct tf_err *err)
{
	return tf_err_set(err, -rc, "%s at 0x%02x: %s", what, chip_addr(c), strerror(-rc));
}

/*
 * Unlock writing from IAP as fwupd's recovery and elan_i2c's
 * prepare_fw_update do: reset the IC (F0F0 at 0x0314, 30 ms; it stays in
 * IAP), the password twice (30 ms each), which reads back; then the IAP
 * type for pages other than 64 bytes, which reads back.
 */
static int prepare(struct tf_ctx *c, unsigned page, struct tf_err *err)
{
	unsigned v;
	int rc;

	if ((rc = reg_read(c, REG_IAP_CTRL, &v)) < 0)
		return bus_err(c, rc, "reading the IAP control register", err);
	if (v & MAIN_MODE_ON)
		return tf_err_set(err, EALREADY,
				  "the touchpad runs its application (IAP control 0x%04x): not "
				  "flashed over the bus",
				  v);
	if ((rc = reg_write(c, REG_IAP_RESET, IAP_RESET)) < 0)
		return bus_err(c, rc, "resetting the IC (IAP reset)", err);
	tf_sleep_us(30000);
	if ((rc = reg_write(c, REG_IAP, IAP_PASSWORD)) < 0)
		return bus_err(c, rc, "setting the flash key", err);
	tf_sleep_us(30000);
	if ((rc = reg_read(c, REG_IAP_CTRL, &v)) < 0)
		return bus_err(c, rc, "reading the IAP control register", err);
	if (v & MAIN_MODE_ON)
		return tf_err_set(err, EALREADY,
				  "the touchpad started its application after the IAP reset "
				  "(IAP control 0x%04x): not flashed over the bus",
				  v);
	if ((rc = reg_write(c, REG_IAP, IAP_PASSWORD)) < 0)
		return bus_err(c, rc, "setting the flash key again", err);
	tf_sleep_us(30000);
	if ((rc = reg_read(c, REG_IAP, &v)) < 0)
		return bus_err(c, rc, "reading the IAP password back", err);
	if (v != IAP_PASSWORD)
		return tf_err_set(
			err, EIO,
			"the IAP password reads back as 0x%04X, not 0x%04X: writing is "
			"not unlocked",
			v, IAP_PASSWORD);
	if (page == 64)
		return 0;
	if ((rc = reg_write(c, REG_IAP_TYPE, (uint16_t)(page / 2))) < 0)
		return bus_err(c, rc, "setting the IAP type", err);
	if ((rc = reg_read(c, REG_IAP_TYPE, &v)) < 0)
		return bus_err(c, rc, "reading the IAP type back", err);
	if (v != page / 2)
		return tf_err_set(err, EIO,
				  "the IAP type reads back as %u, not %u (%u-byte pages): the "
				  "IAP would take the pages wrong",
				  v, page / 2, page);
	return 0;
}

static int write_page(struct tf_ctx *c, const uint8_t *data, unsigned page, uint16_t sum,
		      unsigned idx, struct tf_err *err)
{
	uint8_t b[PAGE_MAX + 4] = { 0x01, 0x06 };
	unsigned v;
	int rc;

	memcpy(b + 2, data, page);
	b[page + 2] = (uint8_t)sum;
	b[page + 3] = (uint8_t)(sum >> 8);
	if ((rc = tf_i2c_write(c->bus, chip_addr(c), b, page + 4)) < 0)
		return tf_err_set(err, -rc, "writing page %u: %s", idx, strerror(-rc));
	tf_sleep_us(page == 512 ? 50000 : 20000);
	if ((rc = reg_read(c, REG_IAP_CTRL, &v)) < 0)
		return tf_err_set(err, -rc, "reading the result of page %u: %s", idx,
				  strerror(-rc));
	if (v & (IAP_PAGE_ERR | IAP_INTF_ERR))
		return tf_err_set(err, EIO,
				  "the touchpad reports a failed write of page %u (IAP control "
				  "0x%04x: %s error)",
				  idx, v, v & IAP_PAGE_ERR ? "page" : "interface");
	return 0;
}

/* The image's pages from its IAP start to its end, each tried
 * RETRY_COUNT times, their sums added up for leave_bootloader. */
static int elanhid_write_firmware(struct tf_ctx *c, const struct tf_chip_state *st, void *img,
				  struct tf_err *err)
{
	struct elanhid_run *run = c->priv;
	struct tf_progress prog = { 0 };
	const uint8_t *data;
	size_t len, start, off;
	unsigned img_module, chip_module, tries, idx;
	uint16_t total = 0;
	int rc;

	run->sent = false;
	if (!st->hw[0] || !run->page)
		return tf_err_set(err, ENOEXEC,
				  "the device at 0x%02x was not identified as an Elan touchpad "
				  "in IAP: not flashed",
				  chip_addr(c));
	tf_plain_image_bytes(img, &data, &len);
	if (elantp_image_product(data, len, &img_module) < 0)
		return tf_err_set(err, ENOEXEC,
				  "the image does not say its module (no module id where its "
				  "IAP start points): not sent");
	if (elantp_attr_number(st->hw, 0xffff, &chip_module) < 0 || img_module != chip_module)
		return tf_err_set(err, ENOEXEC,
				  "the image is for module %u, the touchpad is module %s: not "
				  "sent",
				  img_module, st->hw);
	start = (size_t)(data[ELANTP_IAP_START_OFF] | data[ELANTP_IAP_START_OFF + 1] << 8) * 2;
	if (len % run->page || start % run->page || start >= len)
		return tf_err_set(err, ENOEXEC,
				  "the image (%zu bytes, IAP start 0x%zx) is not in %u-byte "
				  "pages, as this touchpad's IAP takes them: not sent",
				  len, start, run->page);
	if ((rc = prepare(c, run->page, err)) < 0)
		return rc;
	prog.total = (len - start) / run->page;
	prog.total_bytes = len - start;
	for (off = start; off < len; off += run->page) {
		uint16_t sum = 0;
		size_t j;

		idx = (unsigned)(off / run->page);
		if (tf_stop_requested())
			return tf_err_set(err, EINTR, "stopped before page %u", idx);
		for (j = 0; j < run->page; j += 2)
			sum = (uint16_t)(sum + le16(data + off + j));
		for (tries = 0;; tries++) {
			tf_err_clear(err);
			if ((rc = write_page(c, data + off, run->page, sum, idx, err)) == 0)
				break;
			if (tries + 1 >= RETRY_COUNT) {
				(void)reg_write(c, REG_IAP_RESET, IAP_RESET);
				return rc;
			}
			prog.retries++;
		}
		total = (uint16_t)(total + sum);
		prog.done++;
		prog.bytes += run->page;
		if (c->progress)
			c->progress(c->progress_user, &prog);
	}
	run->sent = true;
	run->sum = total;
	return 0;
}

/*
 * After the last page the touchpad resets itself (600 ms, as elan_i2c
 * waits); its IAP checksum must be the pages' sums; a HID RESET (command
 * register 0x0005: 00 01), its sentinel read; then i2c_hid's own test:
 * the HID descriptor valid, and the application running.
 */
static int elanhid_leave_bootloader(struct tf_ctx *c, const struct tf_chip_state *st,
				    struct tf_err *err)
{
	const struct elanhid_run *run = c->priv;
	uint8_t d[DESC_LEN], sentinel[2];
	const char *from;
	uint16_t reg = desc_reg(c, &from);
	unsigned v;
	int rc;

	(void)st;
	tf_sleep_us(600000);
	if ((rc = reg_read(c, REG_IAP_CHECKSUM, &v)) < 0)
		return bus_err(c, rc, "reading the IAP checksum", err);
	if (run->sent && v != run->sum)
		return tf_err_set(
			err, EIO,
			"the touchpad's IAP checksum is 0x%04X, the pages sent sum to "
			"0x%04X",
			v, (unsigned)run->sum);
	if ((rc = reg_write(c, REG_CMD, 0x0100)) < 0)
		return bus_err(c, rc, "resetting the touchpad (HID RESET)", err);
	tf_sleep_us(100000);
	(void)tf_i2c_read(c->bus, chip_addr(c), sentinel, sizeof(sentinel));
	if ((rc = read_desc(c, reg, d)) < 0)
		return bus_err(c, rc, "reading the HID descriptor after the update", err);
	if (!desc_valid(d))
		return tf_err_set(err, EIO,
				  "after the update the HID descriptor (register 0x%04x) still "
				  "says length %u, version 0x%04x: i2c_hid would refuse it",
				  reg, le16(d), le16(d + 2));
	if ((rc = reg_read(c, REG_IAP_CTRL, &v)) < 0)
		return bus_err(c, rc, "reading the IAP control register", err);
	if (!(v & MAIN_MODE_ON))
		return tf_err_set(
			err, EIO,
			"the touchpad is still in IAP after the update and a reset (IAP "
			"control 0x%04x)",
			v);
	return 0;
}

static int elanhid_init(struct tf_ctx *c, struct tf_err *err)
{
	c->priv = calloc(1, sizeof(struct elanhid_run));
	return c->priv ? 0 : tf_err_set(err, ENOMEM, "out of memory");
}

static void elanhid_fini(struct tf_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

/* Takes @data (malloc()ed): kept in the image, or freed on refusal. */
static int elanhid_load_firmware(struct tf_ctx *c, uint8_t *data, size_t len, const char *name,
				 void **img, struct tf_err *err)
{
	char why[160];

	(void)c;
	if (elantp_check_image(data, len, why, sizeof(why)) < 0) {
		free(data);
		return tf_err_set(err, EBADMSG, "%s: %s", name, why);
	}
	return tf_plain_image_take(data, len, img, err);
}

const struct tf_family_ops elanhid_ops = {
	.init = elanhid_init,
	.fini = elanhid_fini,
	.detect = elanhid_detect,
	.load_firmware = elanhid_load_firmware,
	.free_firmware = tf_plain_image_free,
	.write_firmware = elanhid_write_firmware,
	.leave_bootloader = elanhid_leave_bootloader,
};
