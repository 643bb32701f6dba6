// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Elan touchscreen operations.  Facts from elants_i2c.c (Linux 6.1):
 *  - detect with the driver bound reads only the driver's attributes, all
 *    valid in recovery: iap_mode ("Normal" or "Recovery"), hw_version
 *    (queried in recovery too: elants_i2c_query_hw_version) and fw_version
 *    ("%04x").  Talking to the chip meanwhile would race the driver's
 *    interrupt handler, which reads every packet the chip sends.
 *  - unbound, the chip is asked as elants_i2c_initialize does (not by a
 *    read-only command: c->read_only, a plain read only, as these
 *    change its state): soft reset
 *    (77 77 77 77, 30 ms), fast boot ("Main", 50 ms), then the hello
 *    packet: 55 55 55 55 application, 55 55 80 80 recovery; then 53 F0 00
 *    01 (hardware id, answered in recovery too) and 53 00 00 01 (firmware
 *    version), each answered 52 .. with the value in bits 4..19 of the
 *    big-endian word (elants_i2c_parse_version).
 *  - the driver requests elants_i2c_%04x.bin for its hw_version when "1"
 *    is written to update_fw, refuses a size that is not a multiple of 132
 *    (-EINVAL) and flashes in recovery too (forced IAP).
 */
#include "elants.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "family/update-path.h"
#include "log.h"
#include "fs.h"

/*
 * elants_i2c adds its attribute group after the input device is
 * registered: last in its probe (Linux 6.1), or through dev_groups after
 * the probe returned (6.12).  A run started by the add, or right after a
 * bind, may see the link and the input device before the attributes: a
 * missing one is waited for as long as a probe may take while the driver
 * link stays (tf_driver_attr_wait).
 */
#define ELANTS_ATTR_WAIT_MS TF_BIND_TIMEOUT_MS

static int attr(struct tf_ctx *c, const char *name, char *buf, size_t size, struct tf_err *err)
{
	return tf_driver_attr_wait(c, name, buf, size, ELANTS_ATTR_WAIT_MS, err);
}

static void fill_hw(struct tf_chip_state *st, uint16_t hw)
{
	if (hw != 0xffff)
		tf_snprintf(st->hw, sizeof(st->hw), "%04x", hw);
}

static void fill_version(struct tf_chip_state *st, uint16_t fw)
{
	elants_version_fw(fw, &st->version);
	tf_snprintf(st->version_str, sizeof(st->version_str), "%04x", fw);
	st->has_version = true;
}

/* The driver's own account: its attributes, valid in either mode. */
static int detect_bound(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	char mode[32], hw_s[32], fw_s[32];
	uint16_t hw, fw;

	if (attr(c, "iap_mode", mode, sizeof(mode), err) < 0 ||
	    attr(c, "hw_version", hw_s, sizeof(hw_s), err) < 0 ||
	    attr(c, "fw_version", fw_s, sizeof(fw_s), err) < 0)
		return -err->code;
	if (elants_hex16_parse(hw_s, &hw) < 0)
		return tf_err_set(err, EBADMSG, "hw_version \"%s\" is not four hex digits",
				  hw_s);
	fill_hw(st, hw);
	if (!strcmp(mode, "Recovery")) {
		st->mode = TF_CHIP_BOOTLOADER;
		tf_snprintf(st->detail, sizeof(st->detail),
			    "%s reports recovery mode (no valid application); hardware %s",
			    c->dev.driver, hw == 0xffff ? "unknown (ffff)" : st->hw);
		return 0;
	}
	if (strcmp(mode, "Normal"))
		return tf_err_set(err, EBADMSG,
				  "iap_mode \"%s\" is neither Normal nor "
				  "Recovery",
				  mode);
	if (elants_hex16_parse(fw_s, &fw) < 0)
		return tf_err_set(err, EBADMSG, "fw_version \"%s\" is not four hex digits",
				  fw_s);
	st->mode = TF_CHIP_APP;
	fill_version(st, fw);
	tf_snprintf(st->detail, sizeof(st->detail), "%s: firmware %s, hardware %s",
		    c->dev.driver, st->version_str, st->hw);
	return 0;
}

static uint16_t addr_of(const struct tf_ctx *c)
{
	return c->ctrl ? c->ctrl->reg : c->dev.addr;
}

/* 53 <info> 00 01 -> 52 ..: the 16 bits elants_i2c_parse_version takes. */
static int query(struct tf_ctx *c, uint8_t info, uint16_t *v)
{
	uint8_t cmd[4] = { 0x53, info, 0x00, 0x01 }, r[4];
	int rc = tf_i2c_write_read(c->bus, addr_of(c), cmd, 4, r, 4);

	if (rc < 0)
		return rc;
	if (r[0] != 0x52)
		return -EBADMSG;
	*v = (uint16_t)(((uint32_t)r[0] << 24 | (uint32_t)r[1] << 16 | (uint32_t)r[2] << 8 |
			 r[3]) >>
			4);
	return 0;
}

/* No driver: the hello packet, as elants_i2c_initialize reads it. */
static int detect_bus(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	static const uint8_t reset[4] = { 0x77, 0x77, 0x77, 0x77 };
	static const uint8_t boot[4] = { 0x4d, 0x61, 0x69, 0x6e };
	uint16_t a = addr_of(c), hw = 0xffff, fw = 0;
	uint8_t hello[4];
	int rc;

	if (!c->bus)
		return tf_err_set(err, ENODEV, "no driver bound and no bus open");
	if (c->read_only) {
		/* A plain read (no write): does anything answer? */
		rc = tf_i2c_read(c->bus, a, hello, 4);
		if (rc < 0 && tf_i2c_nak(rc)) {
			st->mode = TF_CHIP_ABSENT;
			snprintf(st->detail, sizeof(st->detail), "no answer at 0x%02x", a);
			return 0;
		}
		if (rc < 0)
			return tf_err_set(err, -rc, "reading at 0x%02x on i2c-%d: %s", a,
					  c->dev.adapter_nr, strerror(-rc));
		return tf_err_set(
			err, EOPNOTSUPP,
			"a device answers at 0x%02x, not asked further: an Elan "
			"touchscreen without its driver tells its mode and versions "
			"only after a soft reset (77 77 77 77) and fast boot (\"Main\"), "
			"which change its state, and a read-only command sends neither "
			"(a run does, or elants_i2c bound)",
			a);
	}
	rc = tf_i2c_write(c->bus, a, reset, 4);
	if (rc < 0 && tf_i2c_nak(rc)) {
		st->mode = TF_CHIP_ABSENT;
		snprintf(st->detail, sizeof(st->detail), "no answer at 0x%02x", a);
		return 0;
	}
	if (rc < 0)
		return tf_err_set(err, -rc, "soft reset at 0x%02x on i2c-%d: %s", a,
				  c->dev.adapter_nr, strerror(-rc));
	tf_sleep_us(30000);
	rc = tf_i2c_write(c->bus, a, boot, 4);
	if (rc >= 0) {
		tf_sleep_us(50000);
		rc = tf_i2c_read(c->bus, a, hello, 4);
	}
	if (rc < 0)
		return tf_err_set(err, -rc, "fast boot and hello at 0x%02x on i2c-%d: %s", a,
				  c->dev.adapter_nr, strerror(-rc));
	if (query(c, 0xf0, &hw) < 0)
		hw = 0xffff;
	fill_hw(st, hw);
	if (!memcmp(hello, "\x55\x55\x80\x80", 4)) {
		st->mode = TF_CHIP_BOOTLOADER;
		tf_snprintf(st->detail, sizeof(st->detail),
			    "hello packet 55 55 80 80 at 0x%02x: recovery mode; hardware %s", a,
			    hw == 0xffff ? "unknown" : st->hw);
		return 0;
	}
	if (memcmp(hello, "\x55\x55\x55\x55", 4))
		return tf_err_set(err, EBADMSG,
				  "0x%02x answers but its hello packet is "
				  "%02x %02x %02x %02x, not an Elan touchscreen's",
				  a, hello[0], hello[1], hello[2], hello[3]);
	rc = query(c, 0x00, &fw);
	if (rc < 0 || fw == 0 || fw == 0xffff)
		return tf_err_set(err, EIO,
				  "0x%02x: the firmware version could not be read (%s)", a,
				  rc < 0 ? strerror(-rc) : "invalid value");
	st->mode = TF_CHIP_APP;
	fill_version(st, fw);
	tf_snprintf(st->detail, sizeof(st->detail), "hello at 0x%02x: firmware %s, hardware %s",
		    a, st->version_str, st->hw);
	return 0;
}

static int elants_detect(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	const char *const *d;

	memset(st, 0, sizeof(*st));
	for (d = tf_family_ids_elants.drivers; *d; d++)
		if (!strcmp(c->dev.driver, *d))
			return detect_bound(c, st, err);
	return detect_bus(c, st, err);
}

/* Takes @data (malloc()ed): kept in the image, or freed on refusal. */
static int elants_load_firmware(struct tf_ctx *c, uint8_t *data, size_t len, const char *name,
				void **img, struct tf_err *err)
{
	char why[160];

	(void)c;
	if (elants_check_image(len, why, sizeof(why)) < 0) {
		free(data);
		return tf_err_set(err, EBADMSG, "%s: %s", name, why);
	}
	return tf_plain_image_take(data, len, img, err);
}

static int elants_kernel_fw_name(struct tf_ctx *c, const struct tf_chip_state *st, char *buf,
				 size_t size, struct tf_err *err)
{
	uint16_t hw;

	(void)c;
	if (elants_hex16_parse(st->hw, &hw) < 0 || elants_fw_name(hw, buf, size) < 0)
		return tf_err_set(err, EINVAL,
				  "the hardware id is unknown (\"%s\"), so the "
				  "file elants_i2c would request can not be named",
				  st->hw);
	return 0;
}

/* -EINVAL: the driver refused the file (length, remark id); others (no
 * file, bus errors, IAP not acknowledged) are interruptions. */
static bool elants_kernel_fw_rejected(int code, const struct tf_chip_state *after)
{
	(void)after;
	return code == EINVAL;
}

/*
 * elants_i2c binds with the chip in its recovery mode too, and its
 * update_fw flashes it there (forced IAP): a chip found in its bootloader
 * with the driver bound, which owns the power, goes through the driver.
 */
static enum tf_update_way elants_choose(const struct tf_flow_services *sv, struct tf_update *u)
{
	if (u->chip->mode == TF_CHIP_BOOTLOADER && u->c->dev.driver[0] &&
	    u->c->ctrl->power == TF_POWER_DRIVER)
		return TF_WAY_DRIVER_ATTR;
	return sv->choose(u);
}

/*
 * After a failed update_fw elants_i2c stays bound in recovery with the
 * chip as the failure left it, and its next update would not reset it.
 * Rebind once, so that a new probe resets the chip and reads it again,
 * and look at what it found (@f->st, @f->seen).  The next run can flash
 * only a chip whose boot code answered with the hardware id it had: the
 * file the driver requests is named by it.
 */
static int failure_rebind(const struct tf_flow_services *sv, struct tf_update *u,
			  struct tf_update_failure *f)
{
	struct tf_chip_state *st = f->st;
	struct tf_err e = { 0 };
	char hw[sizeof(st->hw)];
	int rc;

	tf_snprintf(hw, sizeof(hw), "%s", u->chip->hw[0] ? u->chip->hw : st->hw);
	sv->log(u, TF_LOG_INFO,
		"%s stays in recovery after the failed %s without resetting the "
		"chip, and its next update would not reset it either: rebinding it "
		"so that a new probe resets the chip",
		u->c->dev.driver, ELANTS_UPDATE_ATTR);
	rc = sv->rebind(u);
	if (rc)
		return rc;
	tf_device_refresh(&u->c->dev);
	f->seen = sv->chip_read(u, st, &e) == 0;
	/* The update failed before the application was replaced. */
	if (f->seen && st->mode == TF_CHIP_APP && u->chip->mode == TF_CHIP_APP &&
	    !strcmp(st->version_str, u->chip->version_str))
		return sv->finish(u, TF_EXIT_IO,
				  "%s; after a rebind the chip runs its application again "
				  "(firmware %s)",
				  f->err->msg, st->version_str);
	if (!f->seen || st->mode != TF_CHIP_BOOTLOADER || !hw[0] || !strcmp(st->hw, hw))
		return 0;
	u->next_run_said = true;
	return sv->finish(u, TF_EXIT_BOOTLOADER,
			  "the update through %s failed, and after a rebind %s reads "
			  "hardware %s instead of %s: the chip did not leave the "
			  "interrupted update on the driver's reset, and an update now "
			  "would request the wrong file; switch the machine off (a full "
			  "power cycle, not a reboot), then run 'touchfw run %s'",
			  ELANTS_UPDATE_ATTR, u->c->dev.driver, st->hw[0] ? st->hw : "(none)",
			  hw, u->c->dev.name);
}

/*
 * A failed update_fw: rebind once (above); a chip then in its boot code
 * with the driver bound stays with the driver, which flashes it from
 * there on the next run (no bus to recover over).
 */
static int elants_update_failed(const struct tf_flow_services *sv, struct tf_update *u,
				struct tf_update_failure *f)
{
	struct tf_err *err = f->err;
	int rc;

	if (f->write < 0 && f->seen && f->st->mode == TF_CHIP_BOOTLOADER &&
	    u->c->dev.driver[0]) {
		rc = failure_rebind(sv, u, f);
		if (rc) {
			err->rejected = elants_kernel_fw_rejected(err->code, f->st);
			sv->record_blob_failure(u, err);
			return rc;
		}
	}
	if (f->seen && f->st->mode == TF_CHIP_BOOTLOADER && u->c->dev.driver[0] &&
	    u->c->ctrl->power == TF_POWER_DRIVER) {
		char msg[1024];

		tf_snprintf(msg, sizeof(msg), "%s", f->why);
		err->rejected = f->write < 0 && elants_kernel_fw_rejected(err->code, f->st);
		sv->record_blob_failure(u, err);
		*u->chip = *f->st;
		return sv->fail_bootloader(u, msg);
	}
	return TF_UPDATE_GO_ON;
}

static const struct tf_update_path elants_path = {
	.choose = elants_choose,
	.driver_update_failed = elants_update_failed,
};

const struct tf_family_ops elants_ops = {
	.detect = elants_detect,
	.load_firmware = elants_load_firmware,
	.free_firmware = tf_plain_image_free,
	.kernel_firmware = tf_plain_image_bytes,
	.kernel_fw_name = elants_kernel_fw_name,
	.kernel_fw_rejected = elants_kernel_fw_rejected,
	.update_path = &elants_path,
};
