// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Synaptics RMI4 operations.  Facts from drivers/input/rmi4/:
 *  - rmi_smbus.c / rmi_i2c.c make the RMI device rmi4-NN below the client
 *    (rmi_register_transport_device, NN counting every registration);
 *    rmi_core binds whatever mode the chip is in (rmi_driver.c: "Device in
 *    bootloader mode"), and makes one device per function of the PDT,
 *    rmi4-NN.fnXX; a chip in its bootloader lists F01 and F34 only;
 *  - on rmi4-NN: F01's product_id ("%s", 10 characters at most) and
 *    firmware_id (the build id, "%d"), F34's bootloader_id ("V7.0": major,
 *    minor, for v7/v8; for v5 -- F34 function version 0, rmi_f34.c -- the
 *    two id bytes as characters, "%c%c"), configuration_id,
 *    update_fw (write-only: the file name to request_firmware) and
 *    update_fw_status (the percentage, then 0 or the negative error);
 *  - unbound on plain I2C (a client named rmi4_i2c, or syna,rmi4-i2c),
 *    rmi_i2c's protocol: the page select register 0xff on every page
 *    (written 0xff, PAGE; rmi_i2c_probe sets page 0 first), a register
 *    read as its low byte written and the bytes read in one transfer
 *    (repeated start), nothing else written;
 *  - unbound, rmi_smbus's protocol: the SMBus version at command 0xfd
 *    (read byte data, plus one: 2 or 3), a mapping entry written to
 *    command 0x80 + i (LE16 RMI address, read count, flags bit 0 write
 *    enable) and a block read of command i; the PDT on page 0 from 0xe9
 *    down, 6 bytes an entry (query, command, control, data base, the
 *    interrupt count and version, the function number); F01's query 11..20
 *    the product id, then the optional queries up to the build id as
 *    rmi_f01 walks them (f01.c), its data 0 the device status (bit 6:
 *    bootloader).
 */
#include "rmi4.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "exitcode.h"
#include "family/update-path.h"
#include "log.h"
#include "sysfs.h"

#define RMI4_UPDATE_ATTR "update_fw"
#define SMB_VERSION_CMD 0xfd
#define SMB_MAP_CMD 0x80
#define SMB_MAP_WE 0x01
#define PDT_START 0xe9
#define PDT_END 0x05
#define PDT_ENTRY 6
#define F01_STATUS_BL (1u << 6)

/* Per run (c->priv): what the image read for this run says. */
struct rmi4_run {
	bool have_image;
	struct rmi4_image im;
};

/* The RMI device's name under the client ("rmi4-00"), waited for while
 * the driver link stays (rmi_core adds it in its probe). */
static int rmi_dev(const struct tf_ctx *c, char *name, size_t size, struct tf_err *err)
{
	char link[PATH_MAX + 16], now[sizeof(c->dev.driver)];
	unsigned waited = 0;

	tf_snprintf(link, sizeof(link), "%s/driver", c->dev.syspath);
	for (;;) {
		DIR *d = opendir(c->dev.syspath);
		struct dirent *e;

		while (d && (e = readdir(d)))
			if (!strncmp(e->d_name, "rmi4-", 5) && !strchr(e->d_name, '.') &&
			    e->d_name[5] >= '0' && e->d_name[5] <= '9') {
				tf_snprintf(name, size, "%s", e->d_name);
				closedir(d);
				return 0;
			}
		if (d)
			closedir(d);
		if (waited >= TF_BIND_TIMEOUT_MS)
			return tf_err_set(err, EIO,
					  "driver %s made no RMI device (rmi4-NN) below the "
					  "device (waited %u ms)",
					  c->dev.driver, waited);
		if (tf_sysfs_link_name(link, now, sizeof(now)) < 0 ||
		    strcmp(now, c->dev.driver))
			return tf_err_set(err, ENODEV,
					  "driver %s let go of the device while its RMI device "
					  "was awaited (its probe failed, or an unbind)",
					  c->dev.driver);
		tf_sleep_us(10000);
		waited += 10;
	}
}

static int attr(struct tf_ctx *c, const char *rdev, const char *name, char *buf, size_t size,
		struct tf_err *err)
{
	char rel[96];

	tf_snprintf(rel, sizeof(rel), "%s/%s", rdev, name);
	return tf_driver_attr_wait(c, rel, buf, size, TF_BIND_TIMEOUT_MS, err);
}

/*
 * The functions rmi_core made (rmi4-NN.fnXX): a touch function (F11, F12)
 * or any but F01 and F34 is the application's; F01 and F34 alone, the
 * bootloader's PDT.  -1 when none is listed.
 */
static int functions_say_bootloader(const struct tf_ctx *c, const char *rdev)
{
	char dir[PATH_MAX], pre[40];
	bool f01 = false, other = false;
	DIR *d;
	struct dirent *e;
	size_t n;

	tf_snprintf(dir, sizeof(dir), "%s/%s", c->dev.syspath, rdev);
	n = (size_t)tf_snprintf(pre, sizeof(pre), "%s.fn", rdev) >= 0 ? strlen(pre) : 0;
	if (!n || !(d = opendir(dir)))
		return -1;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, pre, n))
			continue;
		if (!strcmp(e->d_name + n, "01") || !strcmp(e->d_name + n, "34"))
			f01 = true;
		else
			other = true;
	}
	closedir(d);
	if (!f01 && !other)
		return -1;
	return !other;
}

static void set_version(struct tf_chip_state *st, unsigned long build)
{
	tf_snprintf(st->version_str, sizeof(st->version_str), "%lu", build);
	st->has_version = tf_version_parse(tf_family_ids_rmi4.name, st->version_str,
					   &st->version) == 0;
}

static int detect_bound(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	char rdev[64], pid[32], fw[32], bl[16], cfg[80], upd[16];
	unsigned major;
	unsigned long build;
	char *end;
	int bl_mode;

	if (rmi_dev(c, rdev, sizeof(rdev), err) < 0 ||
	    attr(c, rdev, "product_id", pid, sizeof(pid), err) < 0 ||
	    attr(c, rdev, "firmware_id", fw, sizeof(fw), err) < 0 ||
	    attr(c, rdev, "bootloader_id", bl, sizeof(bl), err) < 0 ||
	    attr(c, rdev, "update_fw_status", upd, sizeof(upd), err) < 0)
		return -err->code;
	/* configuration_id is empty where F34 has none */
	if (attr(c, rdev, "configuration_id", cfg, sizeof(cfg), err) < 0) {
		tf_err_clear(err);
		cfg[0] = '\0';
	}
	build = strtoul(fw, &end, 10);
	if (!rmi4_product_ok(pid) || fw[0] < '0' || fw[0] > '9' || *end || build > 0xffffff)
		return tf_err_set(err, EBADMSG,
				  "%s/product_id \"%s\" / firmware_id \"%s\" are not as "
				  "rmi_core prints them",
				  rdev, pid, fw);
	if (rmi4_bl_version(bl, &major) < 0)
		return tf_err_set(err, EOPNOTSUPP,
				  "%s/bootloader_id \"%s\": not as rmi_f34 prints a bootloader "
				  "id (V7.0 for v7 or v8, two characters for v5)",
				  rdev, bl);
	tf_snprintf(st->hw, sizeof(st->hw), "%s", pid);
	tf_snprintf(st->bl_id, sizeof(st->bl_id), "%s", bl);
	bl_mode = functions_say_bootloader(c, rdev);
	st->mode = bl_mode == 1 ? TF_CHIP_BOOTLOADER : TF_CHIP_APP;
	if (st->mode == TF_CHIP_APP)
		set_version(st, build);
	tf_snprintf(st->detail, sizeof(st->detail),
		    "%s %s: product %s, build %lu, bootloader %s (v%u), config id %s, "
		    "update status %s%s",
		    c->dev.driver, rdev, pid, build, bl, major, cfg[0] ? cfg : "none", upd,
		    bl_mode == 1    ? "; its PDT lists F01 and F34 only: bootloader mode"
		    : bl_mode == -1 ? "; its functions are not listed"
				    : "");
	return 0;
}

static bool over_i2c(const struct tf_ctx *c);

static int not_rmi4(struct tf_ctx *c, struct tf_err *err, const char *why)
{
	return tf_err_set(err, EBADMSG,
			  "the device at 0x%02x is not a Synaptics RMI4 chip on %s: %s; "
			  "not touched",
			  c->dev.addr, over_i2c(c) ? "I2C" : "SMBus", why);
}

/* rmi_smbus's read: a mapping entry for (@addr, @len), then its block. */
static int smb_read(struct tf_ctx *c, uint16_t rmiaddr, uint8_t *buf, size_t len)
{
	uint8_t map[4] = { (uint8_t)rmiaddr, (uint8_t)(rmiaddr >> 8), (uint8_t)len, 0 };
	uint8_t b[32];
	int rc;

	if (len > sizeof(b))
		return -EMSGSIZE;
	if ((rc = tf_i2c_smbus_block_write(c->bus, c->dev.addr, SMB_MAP_CMD, map, 4)) < 0)
		return rc;
	rc = tf_i2c_smbus_block_read(c->bus, c->dev.addr, 0, b, sizeof(b));
	if (rc < 0)
		return rc;
	if ((size_t)rc != len)
		return -EPROTO;
	memcpy(buf, b, len);
	return 0;
}

/* rmi_smbus's write: a mapping entry with write enable, then the block. */
static int smb_write(struct tf_ctx *c, uint16_t rmiaddr, const uint8_t *buf, size_t len)
{
	uint8_t map[4] = { (uint8_t)rmiaddr, (uint8_t)(rmiaddr >> 8), (uint8_t)len,
			   SMB_MAP_WE };
	int rc;

	if ((rc = tf_i2c_smbus_block_write(c->bus, c->dev.addr, SMB_MAP_CMD, map, 4)) < 0)
		return rc;
	return tf_i2c_smbus_block_write(c->bus, c->dev.addr, 0, buf, len);
}

struct f01_at {
	unsigned query, command, data;
};

/* The client speaks rmi_i2c's protocol (plain I2C), not rmi_smbus's: its
 * driver, its i2c id (modalias) or its device-tree compatible say so. */
static bool over_i2c(const struct tf_ctx *c)
{
	if (c->dev.driver[0])
		return !strcmp(c->dev.driver, "rmi4_i2c");
	return !strcmp(c->dev.modalias, "i2c:rmi4_i2c") ||
	       strstr(c->dev.modalias, "Csyna,rmi4-i2c") ||
	       !strcmp(c->dev.compatible, "syna,rmi4-i2c");
}

/* rmi_i2c's read on page 0: the low byte written, @len bytes read in the
 * same transfer (the page select written by identify_i2c). */
static int i2c_read(struct tf_ctx *c, uint16_t rmiaddr, uint8_t *buf, size_t len)
{
	uint8_t off = (uint8_t)rmiaddr;

	if (rmiaddr > 0xff)
		return -EINVAL;
	return tf_i2c_write_read(c->bus, c->dev.addr, &off, 1, buf, len);
}

/* A register read over the client's transport. */
static int rmi_rd(struct tf_ctx *c, uint16_t rmiaddr, uint8_t *buf, size_t len)
{
	return over_i2c(c) ? i2c_read(c, rmiaddr, buf, len) : smb_read(c, rmiaddr, buf, len);
}

/* The PDT on page 0, from 0xe9 down: F01's bases; -EBADMSG (@err) when
 * F01 or F34 is missing or a read fails. */
static int scan_pdt(struct tf_ctx *c, struct f01_at *f01, struct tf_err *err)
{
	uint8_t e[PDT_ENTRY];
	unsigned addr;
	bool has01 = false, has34 = false;
	char why[96];
	int rc;

	for (addr = PDT_START; addr >= PDT_END; addr -= PDT_ENTRY) {
		if ((rc = rmi_rd(c, (uint16_t)addr, e, sizeof(e))) < 0) {
			tf_snprintf(why, sizeof(why), "reading its PDT at 0x%02x: %s", addr,
				    strerror(-rc));
			return not_rmi4(c, err, why);
		}
		if (e[5] == 0x00 || e[5] == 0xff)
			break;
		if (e[5] == 0x01) {
			has01 = true;
			f01->query = e[0];
			f01->command = e[1];
			f01->data = e[3];
		} else if (e[5] == 0x34) {
			has34 = true;
		}
	}
	if (!has01 || !has34)
		return not_rmi4(c, err,
				has01 ? "its PDT lists no F34 (flash)"
				      : "its PDT lists no F01 (device control)");
	return 1;
}

/*
 * Identified as rmi_i2c_probe and rmi_scan_pdt do: page 0 selected (the
 * one write, to the page select register; a NAK: nobody there), then the
 * PDT read with register pointers only -- also in a read-only command:
 * neither write changes the chip.  1: RMI4 (@f01 filled); 0: nobody
 * answers; -EBADMSG: not RMI4.
 */
static int identify_i2c(struct tf_ctx *c, struct f01_at *f01, struct tf_err *err)
{
	const uint8_t page0[2] = { 0xff, 0x00 };
	int rc;

	if (!tf_i2c_plain_ok(c->bus))
		return tf_err_set(err, EOPNOTSUPP,
				  "adapter i2c-%d offers no plain I2C transfers, which rmi_i2c "
				  "needs",
				  c->dev.adapter_nr);
	rc = tf_i2c_write(c->bus, c->dev.addr, page0, sizeof(page0));
	if (rc < 0 && tf_i2c_nak(rc))
		return 0;
	if (rc < 0)
		return tf_err_set(err, -rc, "selecting page 0 at 0x%02x: %s", c->dev.addr,
				  strerror(-rc));
	return scan_pdt(c, f01, err);
}

/*
 * Identified as rmi_smb_probe and rmi_scan_pdt do: the SMBus version (a
 * read), then -- never in a read-only command: each read needs a mapping
 * entry written -- the PDT with F01 and F34.  1: RMI4 (@f01 filled); 0:
 * nobody answers; -EBADMSG: not RMI4 (@err says why, nothing else sent).
 */
static int identify(struct tf_ctx *c, struct f01_at *f01, int *version, struct tf_err *err)
{
	char why[96];
	int v;

	if (over_i2c(c))
		return identify_i2c(c, f01, err);
	v = tf_i2c_smbus_read_byte_data(c->bus, c->dev.addr, SMB_VERSION_CMD);
	if (v < 0 && tf_i2c_nak(v))
		return 0;
	if (v < 0)
		return tf_err_set(err, -v, "reading the SMBus version (0xfd) at 0x%02x: %s",
				  c->dev.addr, strerror(-v));
	*version = v + 1;
	if (v + 1 != 2 && v + 1 != 3) {
		tf_snprintf(why, sizeof(why), "its SMBus version reads %d, not 2 or 3", v + 1);
		return not_rmi4(c, err, why);
	}
	if (c->read_only)
		return 1;
	return scan_pdt(c, f01, err);
}

/* rmi4_f01_read's reads over the client's transport. */
static int f01_rd(void *ctx, uint16_t rmiaddr, uint8_t *buf, size_t len)
{
	return rmi_rd(ctx, rmiaddr, buf, len);
}

/*
 * Unbound: identify(), then F01's queries as far as rmi_f01 reads them
 * (rmi4_f01_read: the product id and, where the DS4 query says so, the
 * build id) and its device status, reads only.  The build is the
 * application's version; in the bootloader F01 is the bootloader's, so
 * the build the flash holds is not known from there (the bound case
 * takes no version in that mode either).
 */
static int detect_bus(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	struct f01_at f01 = { 0 };
	struct rmi4_f01 p;
	uint8_t status;
	int version = 0, rc;
	char build[48];

	if (!c->bus)
		return tf_err_set(err, ENODEV, "no driver bound and no bus open");
	if ((rc = identify(c, &f01, &version, err)) < 0)
		return rc;
	if (rc == 0) {
		st->mode = TF_CHIP_ABSENT;
		tf_snprintf(st->detail, sizeof(st->detail), "no answer at 0x%02x", c->dev.addr);
		return 0;
	}
	if (c->read_only && !over_i2c(c)) {
		st->mode = TF_CHIP_APP;
		tf_snprintf(st->detail, sizeof(st->detail),
			    "SMBus version %d at 0x%02x; not asked further (rmi_smbus's reads "
			    "need a mapping entry written): product and build not read",
			    version, c->dev.addr);
		return 0;
	}
	if ((rc = rmi4_f01_read(f01_rd, c, (uint16_t)f01.query, &p)) < 0 ||
	    (rc = rmi_rd(c, (uint16_t)f01.data, &status, 1)) < 0)
		return tf_err_set(err, -rc, "reading F01 at 0x%02x: %s", c->dev.addr,
				  strerror(-rc));
	tf_snprintf(st->hw, sizeof(st->hw), "%s", p.product_id);
	if (!rmi4_product_ok(st->hw))
		return not_rmi4(c, err, "F01 gives no product id");
	st->bl_addr = c->dev.addr;
	st->mode = status & F01_STATUS_BL ? TF_CHIP_BOOTLOADER : TF_CHIP_APP;
	if (st->mode == TF_CHIP_BOOTLOADER)
		tf_snprintf(build, sizeof(build), "build not known from the bootloader");
	else if (!p.has_build_id)
		tf_snprintf(build, sizeof(build), "build unknown (no build id query)");
	else
		tf_snprintf(build, sizeof(build), "build %lu", (unsigned long)p.build_id);
	if (st->mode == TF_CHIP_APP && p.has_build_id)
		set_version(st, p.build_id);
	tf_snprintf(st->detail, sizeof(st->detail),
		    "RMI4 on %s at 0x%02x: product %s, %s, device status 0x%02x%s",
		    over_i2c(c) ? "I2C" : "SMBus", c->dev.addr, st->hw, build, status,
		    st->mode == TF_CHIP_BOOTLOADER ? " (bootloader mode)" : "");
	return 0;
}

/*
 * A chip left in its bootloader after a flash: rmi_smbus never resets it
 * (its transport reset only reads the version), so it stays there until a
 * reset.  With the driver unbound, the chip identified again, F01's reset
 * command (bit 0 of its command register, as rmi_driver_reset_handler
 * writes it), DEFAULT_RESET_DELAY_MS (100 ms), and its status read until
 * it leaves the bootloader (at most 2 s).  0: it runs its application.
 */
static int reset_out_of_bootloader(struct tf_ctx *c, struct tf_err *err)
{
	struct f01_at f01 = { 0 };
	uint8_t cmd = 0x01, status = 0;
	unsigned waited;
	int version = 0, rc;

	if ((rc = identify(c, &f01, &version, err)) <= 0)
		return rc ? rc : tf_err_set(err, ENODEV, "no answer at 0x%02x", c->dev.addr);
	if ((rc = smb_read(c, (uint16_t)f01.data, &status, 1)) < 0)
		return tf_err_set(err, -rc, "reading F01's status: %s", strerror(-rc));
	if (!(status & F01_STATUS_BL))
		return 0;
	if ((rc = smb_write(c, (uint16_t)f01.command, &cmd, 1)) < 0)
		return tf_err_set(err, -rc, "writing F01's reset command: %s", strerror(-rc));
	for (waited = 0; waited <= 2000; waited += 100) {
		tf_sleep_us(100000);
		if (smb_read(c, (uint16_t)f01.data, &status, 1) == 0 &&
		    !(status & F01_STATUS_BL))
			return 0;
	}
	return tf_err_set(err, EIO,
			  "the chip is still in its bootloader after F01's reset (status "
			  "0x%02x)",
			  status);
}

static bool ours(const char *drv)
{
	const char *const *d;

	for (d = tf_family_ids_rmi4.drivers; *d; d++)
		if (!strcmp(*d, drv))
			return true;
	return false;
}

static int rmi4_detect(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	memset(st, 0, sizeof(*st));
	if (c->dev.driver[0] && ours(c->dev.driver))
		return detect_bound(c, st, err);
	return detect_bus(c, st, err);
}

static int rmi4_init(struct tf_ctx *c, struct tf_err *err)
{
	c->priv = calloc(1, sizeof(struct rmi4_run));
	return c->priv ? 0 : tf_err_set(err, ENOMEM, "out of memory");
}

static void rmi4_fini(struct tf_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

/* Takes @data (malloc()ed): kept in the image, or freed on refusal. */
static int rmi4_load_firmware(struct tf_ctx *c, uint8_t *data, size_t len, const char *name,
			      void **img, struct tf_err *err)
{
	struct rmi4_run *run = c->priv;
	struct rmi4_image im;
	char why[200];

	if (rmi4_image_parse(data, len, &im, why, sizeof(why)) < 0) {
		free(data);
		return tf_err_set(err, EBADMSG, "%s: %s", name, why);
	}
	if (run) {
		run->have_image = true;
		run->im = im;
	}
	return tf_plain_image_take(data, len, img, err);
}

/* Any name does (update_fw takes the name written); touchfw's own, from
 * the product id, in the characters a file name takes. */
static int rmi4_kernel_fw_name(struct tf_ctx *c, const struct tf_chip_state *st, char *buf,
			       size_t size, struct tf_err *err)
{
	char p[RMI4_PRODUCT_ID_LEN + 1];
	size_t i;

	if (!st->hw[0] && c->read_only && !c->dev.driver[0] && !over_i2c(c))
		return tf_err_set(err, EINVAL,
				  "the product id was not read: unbound on SMBus, a read-only "
				  "command writes no mapping entry, which reading it needs; "
				  "'touchfw run' reads it before anything else");
	if (!rmi4_product_ok(st->hw))
		return tf_err_set(
			err, EINVAL,
			"the product id is unknown (\"%s\"): no image is staged for it",
			st->hw);
	for (i = 0; st->hw[i] && i < RMI4_PRODUCT_ID_LEN; i++)
		p[i] = (st->hw[i] >= 'a' && st->hw[i] <= 'z') ||
				       (st->hw[i] >= 'A' && st->hw[i] <= 'Z') ||
				       (st->hw[i] >= '0' && st->hw[i] <= '9') ||
				       st->hw[i] == '-'
			       ? st->hw[i]
			       : '_';
	p[i] = '\0';
	return tf_snprintf(buf, size, "touchfw-rmi4-%s.img", p);
}

/* -EINVAL: rmi_f34v7 refused the image (format, no flash config, the
 * bootloader config's size); -EILSEQ: v5's sizes; -ENODEV: an LTS part or
 * a bootloader it does not support. */
static bool rmi4_kernel_fw_rejected(int code, const struct tf_chip_state *after)
{
	(void)after;
	return code == EINVAL || code == EILSEQ || code == ENODEV;
}

/*
 * After update_fw on SMBus: rmi_core's re-probe does not reset the chip,
 * which stays in its bootloader; with the driver let go for a moment the
 * chip is reset out of it over the bus (reset_out_of_bootloader), then the
 * driver bound again through the flow's rebind (touchfw's own bind, with
 * the watch for its input device), and the flow told so (u->rebound): it
 * judges that bind and makes none more.  rmi_i2c resets the chip at its
 * probe itself (no transport reset: F01's).
 */
static int bring_back(const struct tf_flow_services *sv, struct tf_update *u,
		      struct tf_err *err)
{
	struct tf_ctx *c = u->c;
	char drv[sizeof(c->dev.driver)];
	int rc;

	if (strcmp(c->dev.driver, "rmi4_smbus") || !c->bus)
		return 0;
	tf_snprintf(drv, sizeof(drv), "%s", c->dev.driver);
	sv->log(u, TF_LOG_INFO,
		"letting go of %s to reset the chip out of the bootloader %s "
		"leaves it in",
		drv, RMI4_UPDATE_ATTR);
	if (tf_device_unbind(&c->dev, err) < 0)
		return -err->code;
	rc = reset_out_of_bootloader(c, err);
	if (rc == 0)
		sv->log(u, TF_LOG_INFO,
			"the chip runs its application after %s; binding %s again",
			RMI4_UPDATE_ATTR, drv);
	u->rebind_rc = sv->rebind(u);
	u->rebound = true;
	return rc;
}

/*
 * The write that starts rmi_core's update: the image's checks against
 * this chip first (its product and bootloader; nothing is written on
 * doubt), then the staged file's name to rmi4-NN/update_fw -- synchronous:
 * it returns when rmi_firmware_update is done -- and the driver's own
 * word afterwards, update_fw_status (0, or the negative error it kept).
 */
static int rmi4_fw_write(const struct tf_flow_services *sv, struct tf_update *u,
			 const char *name, struct tf_err *err)
{
	struct tf_ctx *c = u->c;
	const struct rmi4_run *run = c->priv;
	char rdev[64], path[PATH_MAX], st[16], *end;
	unsigned major;
	long v;
	int rc;

	(void)sv;
	if (!run || !run->have_image)
		return tf_err_set(err, ENOEXEC, "the image was not read: not sent");
	if (!run->im.product_id[0])
		return tf_err_set(err, ENOEXEC,
				  "the image does not say its product (no product id in its "
				  "header or general information): not sent");
	if (strcmp(run->im.product_id, u->chip->hw))
		return tf_err_set(err, ENOEXEC,
				  "the image is for product %s, the touchpad is product %s: "
				  "not sent",
				  run->im.product_id, u->chip->hw);
	/* rmi_f34's v5 path enables flash programming before it reads the
	 * file (a v10 file is refused in the bootloader, the chip left there);
	 * rmi_f34v7 refuses a v5 file: each image for its own bootloader */
	if (rmi4_bl_version(u->chip->bl_id, &major) < 0 || major != run->im.bl_version)
		return tf_err_set(err, ENOEXEC,
				  "the image is for bootloader v%u (%s), the touchpad's is %s: "
				  "not sent",
				  run->im.bl_version,
				  run->im.header == RMI4_IMAGE_V10 ? "the v10 container format"
								   : "the v5 format",
				  u->chip->bl_id[0] ? u->chip->bl_id : "unknown");
	if ((rc = rmi_dev(c, rdev, sizeof(rdev), err)) < 0)
		return rc;
	tf_snprintf(path, sizeof(path), "%s/%s", rdev, RMI4_UPDATE_ATTR);
	if ((rc = tf_device_attr_write(&c->dev, path, name, err)) < 0)
		return rc;
	/* the driver's status, which it keeps on F34 until the next probe */
	tf_snprintf(path, sizeof(path), "%s/%s/update_fw_status", c->dev.syspath, rdev);
	if (tf_read_attr(path, st, sizeof(st)) < 0)
		return 0; /* re-probed: what follows judges the chip */
	v = strtol(st, &end, 10);
	if (v < 0)
		return tf_err_set(err, (int)-v, "%s/update_fw_status says %ld (%s)", rdev, v,
				  strerror((int)-v));
	(void)end;
	return bring_back(sv, u, err);
}

/* The driver that speaks this client's protocol: rmi4_i2c on plain I2C,
 * rmi4_smbus on SMBus. */
static const char *transport_driver(const struct tf_ctx *c)
{
	return over_i2c(c) ? "rmi4_i2c" : "rmi4_smbus";
}

/* Does the profile name the driver this unbound client needs? */
static bool profile_driver_fits(const struct tf_ctx *c)
{
	return c->ctrl && !strcmp(c->ctrl->driver, transport_driver(c));
}

/*
 * rmi_core binds a chip in its bootloader and its update_fw flashes from
 * there: a chip with the driver bound goes through the driver, whatever
 * its mode.  Unbound, a chip identified over the bus goes the same way,
 * with the profile's driver bound for the update only
 * (the flow binds it before update_fw) -- when that driver is the one
 * for the client's transport; else the flow's answer, which refuses.
 */
static enum tf_update_way rmi4_choose(const struct tf_flow_services *sv, struct tf_update *u)
{
	if (u->c->dev.driver[0] && ours(u->c->dev.driver))
		return TF_WAY_DRIVER_ATTR;
	if (!u->c->dev.driver[0] && profile_driver_fits(u->c))
		return TF_WAY_DRIVER_ATTR;
	return sv->choose(u);
}

/* Refused before update_fw was written (the image not this chip's): the
 * chip was not touched; anything else is the flow's to judge. */
static int rmi4_update_failed(const struct tf_flow_services *sv, struct tf_update *u,
			      struct tf_update_failure *f)
{
	if (f->write >= 0 || f->err->code != ENOEXEC)
		return TF_UPDATE_GO_ON;
	f->err->rejected = true;
	sv->record_blob_failure(u, f->err);
	return sv->finish(u, TF_EXIT_UNSUPPORTED, "%s; the chip was not touched", f->err->msg);
}

/*
 * Unbound, a run: the chip is identified over the bus first (identify():
 * the PDT with F01 and F34, then F01's product and build), anything else
 * refused untouched.  An application whose build F01 gives is left
 * unbound: the plan decides, and the driver is bound only for an update
 * (rmi4_choose), so a part running the database's build is not touched.
 * A chip in its bootloader, or one whose build is unknown, gets rmi_core
 * bound now, which takes it in either mode -- only the driver for its
 * transport (a profile naming the other one binds nothing).  Bound, or a
 * read-only command: as for every family.
 */
static int rmi4_before_detect(const struct tf_flow_services *sv, struct tf_update *u)
{
	struct tf_ctx *c = u->c;
	struct tf_chip_state st;
	struct tf_err err = { 0 };

	if (c->dev.driver[0] || c->read_only || !c->ctrl || !c->ctrl->driver[0] || !c->bus)
		return sv->bind_driver_first(u);
	memset(&st, 0, sizeof(st));
	if (detect_bus(c, &st, &err) < 0)
		return sv->finish(u, err.code == EBADMSG ? TF_EXIT_UNSUPPORTED : TF_EXIT_IO,
				  "%s", err.msg);
	if (st.mode == TF_CHIP_ABSENT)
		return 0;
	if (!profile_driver_fits(c)) {
		sv->log(u, TF_LOG_WARNING,
			"%s; not binding %s, the board profile's driver: this client "
			"needs %s, the driver of its transport",
			st.detail, c->ctrl->driver, transport_driver(c));
		return 0;
	}
	if (st.mode == TF_CHIP_APP && st.has_version) {
		sv->log(u, TF_LOG_INFO,
			"%s; %s is bound only if the firmware is to be updated through it",
			st.detail, c->ctrl->driver);
		return 0;
	}
	sv->log(u, TF_LOG_INFO, "%s; binding %s (rmi_core takes it in either mode)", st.detail,
		c->ctrl->driver);
	return sv->rebind(u);
}

static const struct tf_update_path rmi4_path = {
	.before_detect = rmi4_before_detect,
	.choose = rmi4_choose,
	.driver_update_failed = rmi4_update_failed,
	.driver_fw_write = rmi4_fw_write,
};

const struct tf_family_ops rmi4_ops = {
	.init = rmi4_init,
	.fini = rmi4_fini,
	.detect = rmi4_detect,
	.load_firmware = rmi4_load_firmware,
	.free_firmware = tf_plain_image_free,
	.kernel_firmware = tf_plain_image_bytes,
	.kernel_fw_name = rmi4_kernel_fw_name,
	.kernel_fw_rejected = rmi4_kernel_fw_rejected,
	.update_path = &rmi4_path,
};
