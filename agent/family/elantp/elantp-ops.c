// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Elan touchpad operations.  Facts from elan_i2c_core.c / elan_i2c_i2c.c:
 *  - bound, the driver's attributes say it all: product_id and
 *    firmware_version ("%d.0"), fw_checksum ("0x%04x"); the driver is only
 *    bound to a touchpad in application mode (probe fails otherwise).
 *  - unbound, the chip answers the driver's registers (LE16 register, read
 *    2 bytes): 0x0310 IAP control (bit 9: main mode), 0x0101 product id,
 *    0x0102 firmware version; in IAP the IAP registers, the I2C HID
 *    descriptor and the product id (as fwupd's elantp recovery reads
 *    them), which identify it before anything is written (identify()).
 *  - writing update_fw makes the driver request elan_i2c_<id>.0.bin; it
 *    refuses a file without its signature (-EBADF) and keeps its input
 *    device afterwards.
 *  - a touchpad left in IAP has no driver, so, where the board profile
 *    allows it, touchfw recovers it over i2c-dev as elan_i2c_i2c.c's
 *    prepare_fw_update, write_fw_block and finish_fw_update and
 *    elan_i2c_core.c's __elan_update_firmware do (see recover_* below);
 *    on an SMBus-only adapter as elan_i2c_smbus.c's do (elantp-smbus.c).
 */
#include "elantp.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "family/update-path.h"
#include "log.h"

/* elan_i2c's attributes (dev_groups) come after its probe, which may take
 * seconds: waited for as long as a probe may take while the link stays. */
#define ELANTP_ATTR_WAIT_MS TF_BIND_TIMEOUT_MS

/* elan_i2c_i2c.c's registers and values for IAP. */
#define ETP_STAND 0x0005	 /* ETP_I2C_STAND_CMD */
#define ETP_RESET 0x0100	 /* ETP_I2C_RESET */
#define ETP_IAP_CTRL 0x0310	 /* ETP_I2C_IAP_CTRL_CMD */
#define ETP_IAP 0x0311		 /* ETP_I2C_IAP_CMD: the password */
#define ETP_IAP_RESET_REG 0x0314 /* ETP_I2C_IAP_RESET_CMD */
#define ETP_IAP_CHECKSUM 0x0315	 /* ETP_I2C_IAP_CHECKSUM_CMD */
#define ETP_PASSWORD 0x1ea5	 /* ETP_I2C_IAP_PASSWORD */
#define ETP_IAP_RESET 0xf0f0	 /* ETP_I2C_IAP_RESET */
#define ETP_MAIN_MODE_ON (1u << 9)
#define ETP_FW_IAP_PAGE_ERR (1u << 5)
#define ETP_FW_IAP_INTF_ERR (1u << 4)
#define ETP_RETRY_COUNT 3
#define ETP_REPORT_LEN 34 /* ETP_I2C_REPORT_LEN */
#define ETP_INF_LENGTH 2  /* ETP_I2C_INF_LENGTH */

/* The attribute group comes after the probe (see above). */
static int attr(struct tf_ctx *c, const char *name, char *buf, size_t size, struct tf_err *err)
{
	return tf_driver_attr_wait(c, name, buf, size, ELANTP_ATTR_WAIT_MS, err);
}

static void fill(struct tf_chip_state *st, unsigned id, unsigned fw)
{
	tf_snprintf(st->hw, sizeof(st->hw), "%u", id);
	tf_snprintf(st->version_str, sizeof(st->version_str), "%u.0", fw);
	st->has_version = tf_version_parse(tf_family_ids_elantp.name, st->version_str,
					   &st->version) == 0;
}

static int detect_bound(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	char id_s[32], fw_s[32], cs[32];
	unsigned id, fw;

	if (attr(c, "product_id", id_s, sizeof(id_s), err) < 0 ||
	    attr(c, "firmware_version", fw_s, sizeof(fw_s), err) < 0 ||
	    attr(c, "fw_checksum", cs, sizeof(cs), err) < 0)
		return -err->code;
	if (elantp_attr_number(id_s, 0xffff, &id) < 0 || elantp_attr_number(fw_s, 255, &fw) < 0)
		return tf_err_set(err, EBADMSG,
				  "product_id \"%s\" / firmware_version \"%s\" "
				  "are not as elan_i2c prints them",
				  id_s, fw_s);
	st->mode = TF_CHIP_APP;
	fill(st, id, fw);
	tf_snprintf(st->detail, sizeof(st->detail),
		    "%s: product %u, firmware %u.0, checksum %s", c->dev.driver, id, fw, cs);
	return 0;
}

static uint16_t chip_addr(const struct tf_ctx *c)
{
	return c->ctrl ? c->ctrl->reg : c->dev.addr;
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

/*
 * What an Elan touchpad answers, in IAP as in main mode, and a device that
 * only stores bytes does not: its I2C HID descriptor at 0x0001
 * (ETP_I2C_DESC_CMD, ETP_I2C_DESC_LENGTH 30 bytes: wHIDDescLength 30,
 * bcdVersion 1.00, wVendorID Elan's 0x04F3 at offset 20 -- fwupd's elantp
 * recovery device reads vendor and product there) and its product id at
 * 0x0101 (ETP_I2C_UNIQUEID_CMD, fwupd's module id, which fwupd's recovery
 * reads in IAP to match the image).  A 24Cxx EEPROM takes the register's
 * low byte as its address and answers bytes of its memory to every
 * register, and with the writes of an IAP handshake seems to echo its
 * password: without this, one at a touchpad's address would be "flashed".
 * Reads only (a register pointer, then a read after a repeated start).
 */
#define ETP_DESC 0x0001	    /* ETP_I2C_DESC_CMD */
#define ETP_DESC_LEN 30	    /* ETP_I2C_DESC_LENGTH */
#define ETP_UNIQUEID 0x0101 /* ETP_I2C_UNIQUEID_CMD */
#define ELAN_VENDOR_ID 0x04f3

static int identify(struct tf_ctx *c, unsigned *product, struct tf_err *err)
{
	uint8_t a[2] = { (uint8_t)ETP_DESC, (uint8_t)(ETP_DESC >> 8) }, d[ETP_DESC_LEN];
	unsigned len, ver, vid;
	int rc = tf_i2c_write_read(c->bus, chip_addr(c), a, 2, d, sizeof(d));

	if (rc < 0)
		return tf_err_set(err, tf_i2c_nak(rc) ? EBADMSG : -rc,
				  "the device at 0x%02x is not an Elan touchpad: reading its "
				  "I2C HID descriptor (register 0x0001): %s; not touched",
				  chip_addr(c), strerror(-rc));
	len = (unsigned)(d[0] | d[1] << 8);
	ver = (unsigned)(d[2] | d[3] << 8);
	vid = (unsigned)(d[20] | d[21] << 8);
	if (len != ETP_DESC_LEN || ver != 0x0100 || vid != ELAN_VENDOR_ID)
		return tf_err_set(err, EBADMSG,
				  "the device at 0x%02x is not an Elan touchpad: its I2C HID "
				  "descriptor (register 0x0001) says length %u, version "
				  "0x%04x, vendor 0x%04x, not 30, 0x0100 and Elan's 0x%04x; "
				  "not touched",
				  chip_addr(c), len, ver, vid, ELAN_VENDOR_ID);
	if ((rc = reg_read(c, ETP_UNIQUEID, product)) < 0)
		return tf_err_set(err, tf_i2c_nak(rc) ? EBADMSG : -rc,
				  "the Elan touchpad at 0x%02x does not say its product id "
				  "(register 0x0101): %s; not touched",
				  chip_addr(c), strerror(-rc));
	return 0;
}

static int detect_bus(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	uint16_t addr = c->ctrl ? c->ctrl->reg : c->dev.addr;
	unsigned ctrl, id, fw;
	int rc;

	if (!c->bus)
		return tf_err_set(err, ENODEV, "no driver bound and no bus open");
	if (elantp_on_smbus(c))
		return elantp_smbus_detect(c, st, err);
	rc = reg_read(c, ETP_IAP_CTRL, &ctrl);
	if (rc < 0 && tf_i2c_nak(rc)) {
		st->mode = TF_CHIP_ABSENT;
		snprintf(st->detail, sizeof(st->detail), "no answer at 0x%02x", addr);
		return 0;
	}
	if (rc < 0)
		return tf_err_set(err, -rc, "reading the IAP control register at 0x%02x: %s",
				  addr, strerror(-rc));
	if ((rc = identify(c, &id, err)) < 0)
		return rc;
	st->bl_addr = addr;
	if (!(ctrl & ETP_MAIN_MODE_ON)) {
		st->mode = TF_CHIP_BOOTLOADER;
		/* the product id, which the IAP answers: an image for another
		 * product is not chosen (nor sent: write_firmware) */
		tf_snprintf(st->hw, sizeof(st->hw), "%u", id);
		snprintf(st->detail, sizeof(st->detail),
			 "IAP mode at 0x%02x (control 0x%04x), product %u: elan_i2c's probe "
			 "fails on it",
			 addr, ctrl, id);
		return 0;
	}
	if ((rc = reg_read(c, 0x0102, &fw)) < 0)
		return tf_err_set(err, -rc, "reading the firmware version at 0x%02x: %s", addr,
				  strerror(-rc));
	st->mode = TF_CHIP_APP;
	fill(st, id, fw & 0xff);
	tf_snprintf(st->detail, sizeof(st->detail),
		    "main mode at 0x%02x: product %u, firmware %s", addr, id, st->version_str);
	return 0;
}

static int elantp_detect(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	memset(st, 0, sizeof(*st));
	if (!strcmp(c->dev.driver, tf_family_ids_elantp.drivers[0]))
		return detect_bound(c, st, err);
	return detect_bus(c, st, err);
}

static int reg_write(struct tf_ctx *c, uint16_t reg, uint16_t val)
{
	uint8_t b[4] = { (uint8_t)reg, (uint8_t)(reg >> 8), (uint8_t)val, (uint8_t)(val >> 8) };

	return tf_i2c_write(c->bus, chip_addr(c), b, sizeof(b));
}

/* A bus error on @what, as the driver's dev_err() would put it. */
static int bus_err(struct tf_ctx *c, int rc, const char *what, struct tf_err *err)
{
	return tf_err_set(err, -rc, "%s at 0x%02x: %s", what, chip_addr(c), strerror(-rc));
}

/*
 * elan_i2c_prepare_fw_update for a touchpad in IAP: reset the IC (F0F0 at
 * 0x0314), 30 ms; the password 0x1EA5 at 0x0311, 30 ms; still IAP (a
 * touchpad whose application started after the reset is not flashed over
 * the bus: its driver can take it); the password again (unlocks writing),
 * 30 ms; it reads back.
 */
static int recover_prepare(struct tf_ctx *c, struct tf_err *err)
{
	unsigned v;
	int rc;

	if ((rc = reg_read(c, ETP_IAP_CTRL, &v)) < 0)
		return bus_err(c, rc, "reading the IAP control register", err);
	if (v & ETP_MAIN_MODE_ON)
		return tf_err_set(err, EALREADY,
				  "the chip runs its application (IAP control 0x%04x): "
				  "not flashed over the bus; elan_i2c can take it",
				  v);
	if ((rc = reg_write(c, ETP_IAP_RESET_REG, ETP_IAP_RESET)) < 0)
		return bus_err(c, rc, "resetting the IC (IAP reset)", err);
	tf_sleep_us(30000);
	if ((rc = reg_write(c, ETP_IAP, ETP_PASSWORD)) < 0)
		return bus_err(c, rc, "setting the flash key", err);
	tf_sleep_us(30000);
	if ((rc = reg_read(c, ETP_IAP_CTRL, &v)) < 0)
		return bus_err(c, rc, "reading the IAP control register", err);
	if (v & ETP_MAIN_MODE_ON)
		return tf_err_set(err, EALREADY,
				  "the chip started its application after the IAP reset "
				  "(IAP control 0x%04x): not flashed over the bus; "
				  "elan_i2c can take it",
				  v);
	if ((rc = reg_write(c, ETP_IAP, ETP_PASSWORD)) < 0)
		return bus_err(c, rc, "setting the flash key again", err);
	tf_sleep_us(30000);
	if ((rc = reg_read(c, ETP_IAP, &v)) < 0)
		return bus_err(c, rc, "reading the IAP password back", err);
	if (v != ETP_PASSWORD)
		return tf_err_set(err, EIO,
				  "the IAP password reads back as 0x%04X, not 0x%04X: "
				  "writing is not unlocked",
				  v, ETP_PASSWORD);
	return 0;
}

/* elan_i2c_write_fw_block: 01 06, the page, its LE16 word sum; 20 ms for
 * the chip to program it; then no page or interface error. */
static int recover_page(struct tf_ctx *c, const uint8_t *page, uint16_t sum, unsigned idx,
			struct tf_err *err)
{
	uint8_t b[ELANTP_PAGE + 4] = { 0x01, 0x06 };
	unsigned v;
	int rc;

	memcpy(b + 2, page, ELANTP_PAGE);
	b[ELANTP_PAGE + 2] = (uint8_t)sum;
	b[ELANTP_PAGE + 3] = (uint8_t)(sum >> 8);
	if ((rc = tf_i2c_write(c->bus, chip_addr(c), b, sizeof(b))) < 0)
		return tf_err_set(err, -rc, "writing page %u: %s", idx, strerror(-rc));
	tf_sleep_us(20000);
	if ((rc = reg_read(c, ETP_IAP_CTRL, &v)) < 0)
		return tf_err_set(err, -rc, "reading the result of page %u: %s", idx,
				  strerror(-rc));
	if (v & (ETP_FW_IAP_PAGE_ERR | ETP_FW_IAP_INTF_ERR))
		return tf_err_set(err, EIO,
				  "the touchpad reports a failed write of page %u "
				  "(IAP control 0x%04x: %s error)",
				  idx, v, v & ETP_FW_IAP_PAGE_ERR ? "page" : "interface");
	return 0;
}

/* The image's pages as elan_i2c flashes them: the count its signature
 * shows (elantp_check_image found it at one of elan_get_fwinfo's). */
static unsigned valid_pages(const uint8_t *data, size_t len)
{
	static const uint8_t sig[ELANTP_SIG_LEN] = { 0xaa, 0x55, 0xcc, 0x33, 0xff, 0xff };
	unsigned n;

	for (n = (unsigned)(len / ELANTP_PAGE); n > 0; n--)
		if (!memcmp(data + (size_t)n * ELANTP_PAGE - ELANTP_SIG_LEN, sig,
			    ELANTP_SIG_LEN))
			return n;
	return 0;
}

/*
 * __elan_update_firmware over i2c-dev, from IAP as found: the pages from
 * the image's IAP start (LE16 at 0x106, in words) to its signature, each
 * tried ETP_RETRY_COUNT times, their sums added up for the check in
 * leave_bootloader (kept in c->priv).
 */
static int elantp_write_firmware(struct tf_ctx *c, const struct tf_chip_state *st, void *img,
				 struct tf_err *err)
{
	struct elantp_run *run = c->priv;
	const uint8_t *data;
	size_t len;
	unsigned boot, pages, p, j, tries, img_product, chip_product;
	uint16_t total = 0;
	struct tf_progress prog = { 0 };
	int rc;

	run->sent = false;
	/* detect() identified the touchpad and read its product id, which the
	 * plan matched the image to; without them nothing is written. */
	if (!st->hw[0])
		return tf_err_set(err, ENOEXEC,
				  "the device at 0x%02x was not identified as an Elan "
				  "touchpad (no product id): not flashed",
				  chip_addr(c));
	tf_plain_image_bytes(img, &data, &len);
	/* The image's own product (its module id, as fwupd checks it before
	 * flashing): one for another product is not sent, whatever chose it
	 * (a manifest that names the wrong hardware, flash --firmware). */
	if (elantp_image_product(data, len, &img_product) < 0)
		return tf_err_set(err, ENOEXEC,
				  "the image does not say its product (no module id where "
				  "its IAP start points): not sent");
	if (elantp_attr_number(st->hw, 0xffff, &chip_product) < 0 ||
	    img_product != chip_product)
		return tf_err_set(err, ENOEXEC,
				  "the image is for product %u (its module id), the touchpad "
				  "is product %s: not sent",
				  img_product, st->hw);
	pages = valid_pages(data, len);
	boot = (unsigned)(data[ELANTP_IAP_START_OFF] | data[ELANTP_IAP_START_OFF + 1] << 8) *
	       2 / ELANTP_PAGE;
	if (!pages || boot >= pages)
		return tf_err_set(err, EBADMSG, "the image has no pages after its IAP start");
	if (elantp_on_smbus(c))
		return elantp_smbus_write(c, data, boot, pages, run, err);
	if ((rc = recover_prepare(c, err)) < 0)
		return rc;
	prog.total = pages - boot;
	prog.total_bytes = (size_t)prog.total * ELANTP_PAGE;
	for (p = boot; p < pages; p++) {
		const uint8_t *page = data + (size_t)p * ELANTP_PAGE;
		uint16_t sum = 0;

		if (tf_stop_requested())
			return tf_err_set(err, EINTR, "stopped before page %u", p);
		for (j = 0; j < ELANTP_PAGE; j += 2)
			sum = (uint16_t)(sum + (page[j] | page[j + 1] << 8));
		for (tries = 0;; tries++) {
			tf_err_clear(err);
			if ((rc = recover_page(c, page, sum, p, err)) == 0)
				break;
			if (tries + 1 >= ETP_RETRY_COUNT) {
				/* as elan_update_firmware after a failure: reset
				 * the IC (it stays in IAP, locked) */
				(void)reg_write(c, ETP_IAP_RESET_REG, ETP_IAP_RESET);
				return rc;
			}
			prog.retries++;
		}
		total = (uint16_t)(total + sum);
		prog.done++;
		prog.bytes += ELANTP_PAGE;
		if (c->progress)
			c->progress(c->progress_user, &prog);
	}
	run->sent = true;
	run->sum = total;
	return 0;
}

/*
 * elan_i2c_finish_fw_update and the check after it: 600 ms for the
 * watchdog reset the last page starts, the report it leaves read, a reset
 * (0x0005 = 0x0100) and its 2-byte acknowledgement (the driver waits for
 * the interrupt up to 300 ms; touchfw, holding no interrupt, waits that
 * long), then the chip's IAP checksum against the pages' sums, and the
 * application running (IAP control bit 9).
 */
static int elantp_leave_bootloader(struct tf_ctx *c, const struct tf_chip_state *st,
				   struct tf_err *err)
{
	uint8_t buf[ETP_REPORT_LEN];
	const struct elantp_run *run = c->priv;
	unsigned v;
	int rc;

	(void)st;
	if (elantp_on_smbus(c))
		return elantp_smbus_leave(c, run, err);
	tf_sleep_us(600000);
	(void)tf_i2c_read(c->bus, chip_addr(c), buf, ETP_REPORT_LEN);
	if ((rc = reg_write(c, ETP_STAND, ETP_RESET)) < 0)
		return bus_err(c, rc, "resetting the touchpad after the update", err);
	tf_sleep_us(300000);
	if ((rc = tf_i2c_read(c->bus, chip_addr(c), buf, ETP_INF_LENGTH)) < 0)
		return bus_err(c, rc, "reading the reset acknowledgement", err);
	if ((rc = reg_read(c, ETP_IAP_CHECKSUM, &v)) < 0)
		return bus_err(c, rc, "reading the IAP checksum", err);
	if (run->sent && v != run->sum)
		return tf_err_set(err, EIO,
				  "the touchpad's IAP checksum is 0x%04X, the pages sent sum "
				  "to 0x%04X",
				  v, (unsigned)run->sum);
	if ((rc = reg_read(c, ETP_IAP_CTRL, &v)) < 0)
		return bus_err(c, rc, "reading the IAP control register", err);
	if (!(v & ETP_MAIN_MODE_ON))
		return tf_err_set(err, EIO,
				  "the touchpad is still in IAP after the update and a "
				  "reset (IAP control 0x%04x)",
				  v);
	return 0;
}

static int elantp_init(struct tf_ctx *c, struct tf_err *err)
{
	c->priv = calloc(1, sizeof(struct elantp_run));
	return c->priv ? 0 : tf_err_set(err, ENOMEM, "out of memory");
}

static void elantp_fini(struct tf_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

/* Takes @data (malloc()ed): kept in the image, or freed on refusal. */
static int elantp_load_firmware(struct tf_ctx *c, uint8_t *data, size_t len, const char *name,
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

static int elantp_kernel_fw_name(struct tf_ctx *c, const struct tf_chip_state *st, char *buf,
				 size_t size, struct tf_err *err)
{
	unsigned id;

	(void)c;
	if (elantp_attr_number(st->hw, 0xffff, &id) < 0)
		return tf_err_set(err, EINVAL,
				  "the product id is unknown (\"%s\"), so the "
				  "file elan_i2c would request can not be named",
				  st->hw);
	return elantp_fw_name((uint16_t)id, buf, size);
}

/* -EBADF: no signature; -EINVAL: no firmware info for this ic type. */
static bool elantp_kernel_fw_rejected(int code, const struct tf_chip_state *after)
{
	(void)after;
	return code == EBADF || code == EINVAL;
}

/*
 * A failed update_fw: elan_i2c resets the IAP (elan_update_firmware) and
 * stays bound, and its next update_fw starts from IAP
 * (elan_i2c_prepare_fw_update), but a new probe fails on a chip there.
 * Whether the chip was left in IAP can not be read through the driver (it
 * keeps what it read at probe), so both cases are said; what holds in both
 * is that the bound driver's next write is the way on, and that a new
 * probe is not: touchfw leaves it bound.
 */
static int elantp_update_failed(const struct tf_flow_services *sv, struct tf_update *u,
				struct tf_update_failure *f)
{
	struct tf_err *err = f->err;
	const char *drv = u->c->dev.driver, *dev = u->c->dev.name;

	if (f->write >= 0 || elantp_kernel_fw_rejected(err->code, f->seen ? f->st : NULL) ||
	    sv->driver_gone(u))
		return TF_UPDATE_GO_ON;
	err->rejected = false;
	sv->record_blob_failure(u, err);
	u->next_run_said = true;
	if (u->c->ctrl->bus_recovery)
		return sv->finish(
			u, TF_EXIT_VERIFY,
			"%s; if the update got as far as the flash, the chip now runs "
			"its bootloader while %s stays bound, still reporting the "
			"firmware it had; its %s flashes from there, so the next "
			"'touchfw run %s' tries again; after an unbind or a reboot %s "
			"can not bind (its probe fails on a chip in its bootloader), "
			"and 'touchfw run %s' then recovers the chip over the bus, as "
			"the board profile allows (allow-bus-recovery)",
			err->msg, drv, ELANTP_UPDATE_ATTR, dev, drv, dev);
	return sv->finish(u, TF_EXIT_VERIFY,
			  "%s; if the update got as far as the flash, the chip now runs its "
			  "bootloader while %s stays bound, still reporting the firmware it "
			  "had; its %s flashes from there, so the next 'touchfw run %s' tries "
			  "again; do not unbind %s or reboot before that: its probe fails on "
			  "a chip in its bootloader, and the board profile does not allow "
			  "touchfw to recover the chip over the bus (allow-bus-recovery)",
			  err->msg, drv, ELANTP_UPDATE_ATTR, dev, drv);
}

static const struct tf_update_path elantp_path = {
	.driver_update_failed = elantp_update_failed,
};

const struct tf_family_ops elantp_ops = {
	.init = elantp_init,
	.fini = elantp_fini,
	.detect = elantp_detect,
	.load_firmware = elantp_load_firmware,
	.free_firmware = tf_plain_image_free,
	.kernel_firmware = tf_plain_image_bytes,
	.kernel_fw_name = elantp_kernel_fw_name,
	.kernel_fw_rejected = elantp_kernel_fw_rejected,
	.write_firmware = elantp_write_firmware,
	.leave_bootloader = elantp_leave_bootloader,
	.update_path = &elantp_path,
};
