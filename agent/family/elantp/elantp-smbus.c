// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Elan touchpads on an SMBus-only adapter: the parts psmouse hands to
 * elan_i2c on laptops whose touchpad sits on the SMBus (i2c-i801), which
 * elan_i2c serves with elan_smbus_ops (drivers/input/mouse/elan_i2c_smbus.c)
 * when the adapter has no I2C_FUNC_I2C.  Bound, the driver's attributes are
 * the same as over i2c (elantp-ops.c reads them); this file is the bus
 * side, for a touchpad left in IAP (no driver binds it):
 *  - every value is an SMBus block read: 0xAD IAP control (BE16, bit 6 IAP
 *    mode, bits 4/5 the interface and page errors), 0xA3 the unique id
 *    (BE16: the product id elan_i2c shows), 0xA7 the hello packet (five
 *    0x55, main mode only), 0xA1 the firmware version (its third byte),
 *    0xAF the IAP checksum (what elan_smbus_get_checksum reads for it);
 *  - from IAP, elan_smbus_prepare_fw_update sends the flash key (block
 *    write 0x00: 00 0B 00 5A) and the IAP reset (send byte 0x2B); each
 *    page goes as two 32-byte block writes to 0x2A (no sum on the wire:
 *    the chip sums it), then 8-10 ms, then 0xAD must show no error;
 *    elan_smbus_finish_fw_update waits for nothing; after 600 ms the IAP
 *    checksum must equal the sum of the page sums.
 * The adapter must offer SMBus block reads, block writes and send byte;
 * one that does not is refused before anything is sent.
 */
#include "elantp.h"

#include <errno.h>
#include <linux/i2c.h>
#include <stdio.h>
#include <string.h>

#include "i2c.h"

#define SMB_IAP_CMD 0x00	  /* ETP_SMBUS_IAP_CMD */
#define SMB_WRITE_FW_BLOCK 0x2a	  /* ETP_SMBUS_WRITE_FW_BLOCK */
#define SMB_IAP_RESET 0x2b	  /* ETP_SMBUS_IAP_RESET_CMD */
#define SMB_FW_VERSION 0xa1	  /* ETP_SMBUS_FW_VERSION_CMD */
#define SMB_UNIQUEID 0xa3	  /* ETP_SMBUS_UNIQUEID_CMD */
#define SMB_HELLO 0xa7		  /* ETP_SMBUS_HELLOPACKET_CMD */
#define SMB_IAP_CTRL 0xad	  /* ETP_SMBUS_IAP_CTRL_CMD */
#define SMB_IAP_SUM 0xaf	  /* read by elan_smbus_get_checksum(iap = true) */
#define SMB_IAP_MODE_ON (1u << 6) /* ETP_SMBUS_IAP_MODE_ON */
#define SMB_PAGE_ERR (1u << 5)	  /* ETP_FW_IAP_PAGE_ERR */
#define SMB_INTF_ERR (1u << 4)	  /* ETP_FW_IAP_INTF_ERR */
#define SMB_RETRY_COUNT 3	  /* ETP_RETRY_COUNT */
#define SMB_NEEDS                                                           \
	(I2C_FUNC_SMBUS_READ_BLOCK_DATA | I2C_FUNC_SMBUS_WRITE_BLOCK_DATA | \
	 I2C_FUNC_SMBUS_WRITE_BYTE)

static uint16_t addr_of(const struct tf_ctx *c)
{
	return c->ctrl ? c->ctrl->reg : c->dev.addr;
}

bool elantp_on_smbus(const struct tf_ctx *c)
{
	return c->bus && !tf_i2c_plain_ok(c->bus);
}

/* A block read of at least @min bytes into @v (32 bytes): the count, or
 * -errno (-EBADMSG: fewer than @min). */
static int block(struct tf_ctx *c, uint8_t cmd, uint8_t *v, int min)
{
	int n;

	memset(v, 0, I2C_SMBUS_BLOCK_MAX);
	n = tf_i2c_smbus_block_read(c->bus, addr_of(c), cmd, v, I2C_SMBUS_BLOCK_MAX);
	return n >= 0 && n < min ? -EBADMSG : n;
}

static int be16(struct tf_ctx *c, uint8_t cmd, unsigned *out)
{
	uint8_t v[I2C_SMBUS_BLOCK_MAX];
	int n = block(c, cmd, v, 2);

	if (n < 0)
		return n;
	*out = (unsigned)(v[0] << 8 | v[1]);
	return 0;
}

static int not_elan(struct tf_ctx *c, int rc, const char *what, struct tf_err *err)
{
	return tf_err_set(err,
			  rc == -EBADMSG || tf_i2c_nak(rc) || rc == -EPROTO ? EBADMSG : -rc,
			  "the device at 0x%02x is not an Elan touchpad on SMBus: %s: %s; "
			  "not touched",
			  addr_of(c), what, rc == -EBADMSG ? "too short" : strerror(-rc));
}

int elantp_smbus_detect(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	uint8_t v[I2C_SMBUS_BLOCK_MAX];
	uint16_t addr = addr_of(c);
	unsigned ctrl, id;
	int rc;

	if (!tf_i2c_has_funcs(c->bus, SMB_NEEDS))
		return tf_err_set(err, EOPNOTSUPP,
				  "the adapter is SMBus-only without SMBus block reads, block "
				  "writes or send byte, which an Elan touchpad on SMBus "
				  "(elan_i2c_smbus) needs: not read, not touched");
	rc = be16(c, SMB_IAP_CTRL, &ctrl);
	if (rc < 0 && tf_i2c_nak(rc)) {
		st->mode = TF_CHIP_ABSENT;
		snprintf(st->detail, sizeof(st->detail), "no answer at 0x%02x", addr);
		return 0;
	}
	if (rc < 0)
		return not_elan(c, rc, "its IAP control (SMBus 0xAD)", err);
	if ((rc = be16(c, SMB_UNIQUEID, &id)) < 0)
		return not_elan(c, rc, "its unique id (SMBus 0xA3)", err);
	st->bl_addr = addr;
	if (ctrl & SMB_IAP_MODE_ON) {
		st->mode = TF_CHIP_BOOTLOADER;
		/* the product id, which the IAP answers: an image for another
		 * product is not chosen (nor sent: write_firmware) */
		tf_snprintf(st->hw, sizeof(st->hw), "%u", id);
		snprintf(st->detail, sizeof(st->detail),
			 "IAP mode at 0x%02x on SMBus (control 0x%04x), product %u: "
			 "elan_i2c's probe fails on it",
			 addr, ctrl, id);
		return 0;
	}
	/* main mode: the hello packet elan_smbus_initialize checks */
	if ((rc = block(c, SMB_HELLO, v, 5)) < 0)
		return not_elan(c, rc, "its hello packet (SMBus 0xA7)", err);
	if (rc != 5 || memcmp(v, "\x55\x55\x55\x55\x55", 5))
		return tf_err_set(err, EBADMSG,
				  "the device at 0x%02x is not an Elan touchpad on SMBus: its "
				  "hello packet is not five 0x55; not touched",
				  addr);
	if ((rc = block(c, SMB_FW_VERSION, v, 3)) < 0)
		return not_elan(c, rc, "its firmware version (SMBus 0xA1)", err);
	st->mode = TF_CHIP_APP;
	tf_snprintf(st->hw, sizeof(st->hw), "%u", id);
	tf_snprintf(st->version_str, sizeof(st->version_str), "%u.0", v[2]);
	st->has_version = tf_version_parse(tf_family_ids_elantp.name, st->version_str,
					   &st->version) == 0;
	tf_snprintf(st->detail, sizeof(st->detail),
		    "main mode at 0x%02x on SMBus: product %u, firmware %s", addr, id,
		    st->version_str);
	return 0;
}

static int bus_err(struct tf_ctx *c, int rc, const char *what, struct tf_err *err)
{
	return tf_err_set(err, -rc, "%s at 0x%02x (SMBus): %s", what, addr_of(c),
			  strerror(-rc));
}

/* elan_smbus_prepare_fw_update from IAP: the flash key, the IAP reset. */
static int prepare(struct tf_ctx *c, struct tf_err *err)
{
	static const uint8_t flash_key[4] = { 0x00, 0x0b, 0x00, 0x5a };
	unsigned v;
	int rc;

	if ((rc = be16(c, SMB_IAP_CTRL, &v)) < 0)
		return bus_err(c, rc, "reading the IAP control", err);
	if (!(v & SMB_IAP_MODE_ON))
		return tf_err_set(err, EALREADY,
				  "the chip runs its application (IAP control 0x%04x): "
				  "not flashed over the bus; elan_i2c can take it",
				  v);
	if ((rc = tf_i2c_smbus_block_write(c->bus, addr_of(c), SMB_IAP_CMD, flash_key,
					   sizeof(flash_key))) < 0)
		return bus_err(c, rc, "setting the flash key", err);
	if ((rc = tf_i2c_smbus_write_byte(c->bus, addr_of(c), SMB_IAP_RESET)) < 0)
		return bus_err(c, rc, "resetting the IC (IAP reset)", err);
	return 0;
}

/* elan_smbus_write_fw_block: two halves, 8-10 ms, no error at 0xAD. */
static int page_write(struct tf_ctx *c, const uint8_t *page, unsigned idx, struct tf_err *err)
{
	unsigned v, part;
	int rc;

	for (part = 0; part < 2; part++)
		if ((rc = tf_i2c_smbus_block_write(c->bus, addr_of(c), SMB_WRITE_FW_BLOCK,
						   page + part * (ELANTP_PAGE / 2),
						   ELANTP_PAGE / 2)) < 0)
			return tf_err_set(err, -rc, "writing page %u (part %u): %s", idx,
					  part + 1, strerror(-rc));
	tf_sleep_us(10000);
	if ((rc = be16(c, SMB_IAP_CTRL, &v)) < 0)
		return tf_err_set(err, -rc, "reading the result of page %u: %s", idx,
				  strerror(-rc));
	if (v & (SMB_PAGE_ERR | SMB_INTF_ERR))
		return tf_err_set(err, EIO,
				  "the touchpad reports a failed write of page %u "
				  "(IAP control 0x%04x: %s error)",
				  idx, v, v & SMB_PAGE_ERR ? "page" : "interface");
	return 0;
}

int elantp_smbus_write(struct tf_ctx *c, const uint8_t *data, unsigned boot, unsigned pages,
		       struct elantp_run *run, struct tf_err *err)
{
	struct tf_progress prog = { 0 };
	uint16_t total = 0;
	unsigned p, j, tries;
	int rc;

	if ((rc = prepare(c, err)) < 0)
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
			if ((rc = page_write(c, page, p, err)) == 0)
				break;
			if (tries + 1 >= SMB_RETRY_COUNT) {
				/* as elan_update_firmware after a failure */
				(void)tf_i2c_smbus_write_byte(c->bus, addr_of(c),
							      SMB_IAP_RESET);
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

/* After the last page: 600 ms (the watchdog reset), the IAP checksum
 * against the pages' sums, the application running. */
int elantp_smbus_leave(struct tf_ctx *c, const struct elantp_run *run, struct tf_err *err)
{
	unsigned v;
	int rc;

	tf_sleep_us(600000);
	if ((rc = be16(c, SMB_IAP_SUM, &v)) < 0)
		return bus_err(c, rc, "reading the IAP checksum", err);
	if (run->sent && v != run->sum)
		return tf_err_set(err, EIO,
				  "the touchpad's IAP checksum is 0x%04X, the pages sent sum "
				  "to 0x%04X",
				  v, (unsigned)run->sum);
	if ((rc = be16(c, SMB_IAP_CTRL, &v)) < 0)
		return bus_err(c, rc, "reading the IAP control", err);
	if (v & SMB_IAP_MODE_ON)
		return tf_err_set(err, EIO,
				  "the touchpad is still in IAP after the update (IAP control "
				  "0x%04x)",
				  v);
	return 0;
}
