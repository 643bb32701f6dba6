// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Elan touchpad operations.  Facts from elan_i2c_core.c / elan_i2c_i2c.c:
 *  - bound, the driver's attributes say it all: product_id and
 *    firmware_version ("%d.0"), fw_checksum ("0x%04x"); the driver is only
 *    bound to a touchpad in application mode (probe fails otherwise).
 *  - unbound, the chip answers the driver's registers (LE16 register, read
 *    2 bytes): 0x0310 IAP control (bit 9: main mode), 0x0101 product id,
 *    0x0102 firmware version; in IAP only the IAP registers answer.
 *  - writing update_fw makes the driver request elan_i2c_<id>.0.bin; it
 *    refuses a file without its signature (-EBADF) and keeps its input
 *    device afterwards.
 */
#include "elantp.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ELANTP_ATTR_WAIT_MS 2000

/* The attribute group comes last in probe: wait for it a moment. */
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
				  "%s: product_id \"%s\" / firmware_version \"%s\" "
				  "are not as elan_i2c prints them",
				  c->dev.name, id_s, fw_s);
	st->mode = TF_CHIP_APP;
	fill(st, id, fw);
	tf_snprintf(st->detail, sizeof(st->detail),
		    "%s: product %u, firmware %u.0, checksum %s", c->dev.driver, id, fw, cs);
	return 0;
}

static int reg_read(struct tf_ctx *c, uint16_t reg, unsigned *v)
{
	uint8_t a[2] = { (uint8_t)reg, (uint8_t)(reg >> 8) }, r[2];
	uint16_t addr = c->ctrl ? c->ctrl->reg : c->dev.addr;
	int rc = tf_i2c_write_read(c->bus, addr, a, 2, r, 2);

	if (rc < 0)
		return rc;
	*v = (unsigned)(r[0] | r[1] << 8);
	return 0;
}

static int detect_bus(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	uint16_t addr = c->ctrl ? c->ctrl->reg : c->dev.addr;
	unsigned ctrl, id, fw;
	int rc;

	if (!c->bus)
		return tf_err_set(err, ENODEV, "%s: no driver bound and no bus open",
				  c->dev.name);
	rc = reg_read(c, 0x0310, &ctrl);
	if (rc < 0 && tf_i2c_nak(rc)) {
		st->mode = TF_CHIP_ABSENT;
		snprintf(st->detail, sizeof(st->detail), "no answer at 0x%02x", addr);
		return 0;
	}
	if (rc < 0)
		return tf_err_set(err, -rc, "reading the IAP control register at 0x%02x: %s",
				  addr, strerror(-rc));
	if (!(ctrl & (1u << 9))) {
		st->mode = TF_CHIP_BOOTLOADER;
		snprintf(st->detail, sizeof(st->detail),
			 "IAP mode at 0x%02x (control 0x%04x): elan_i2c's probe fails on it",
			 addr, ctrl);
		return 0;
	}
	if ((rc = reg_read(c, 0x0101, &id)) < 0 || (rc = reg_read(c, 0x0102, &fw)) < 0)
		return tf_err_set(err, -rc, "reading the product id at 0x%02x: %s", addr,
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

	if (elantp_attr_number(st->hw, 0xffff, &id) < 0)
		return tf_err_set(err, EINVAL,
				  "%s: the product id is unknown (\"%s\"), so the "
				  "file elan_i2c would request can not be named",
				  c->dev.name, st->hw);
	return elantp_fw_name((uint16_t)id, buf, size);
}

/* -EBADF: no signature; -EINVAL: no firmware info for this ic type. */
static bool elantp_kernel_fw_rejected(int code, const struct tf_chip_state *after)
{
	(void)after;
	return code == EBADF || code == EINVAL;
}

const struct tf_family_ops elantp_ops = {
	.detect = elantp_detect,
	.load_firmware = elantp_load_firmware,
	.free_firmware = tf_plain_image_free,
	.kernel_firmware = tf_plain_image_bytes,
	.kernel_fw_name = elantp_kernel_fw_name,
	.kernel_fw_rejected = elantp_kernel_fw_rejected,
};
