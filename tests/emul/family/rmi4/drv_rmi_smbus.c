// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model of the kernel's rmi_smbus + rmi_core (Synaptics RMI4 over SMBus),
 * and of rmi_i2c + rmi_core (driver "rmi4_i2c"): rmi_i2c_probe needs plain
 * I2C ("adapter does not support required functionality"), sets page 0
 * ("Failed to set page select to 0" when nobody answers), says
 * "registering I2C-connected sensor"; its reads are the page select
 * (0xff, PAGE) when the page changes, then the register's low byte written
 * and the bytes read in one transfer, its writes one message; having no
 * transport reset, rmi_initial_reset sends F01's reset command (and waits
 * 100 ms) at the probe and at an update's re-probe, so the chip leaves its
 * bootloader there; the interrupt is the client's own.  Written from
 * drivers/input/rmi4/rmi_smbus.c, rmi_i2c.c, rmi_driver.c, rmi_f01.c,
 * rmi_f34.c and rmi_f34v7.c (as 6.1 and 6.12 have them), independent of
 * touchfw's agent.  What user space sees is what the real drivers give:
 *
 *  - probe (rmi_smb_probe): refused without SMBus block reads and Host
 *    Notify on the adapter ("adapter does not support required
 *    functionality", -ENODEV) -- the emulated adapter needs `host_notify`;
 *    the SMBus version (byte 0xfd + 1) must be 2 or 3; then the RMI device
 *    rmi4-NN (numbered on at each registration) under the client:
 *    rmi_driver_probe's "initial reset" (on SMBus only the version read),
 *    the PDT scan counting interrupt sources and noting the bootloader bits
 *    (F01 status bit 6, F34 v7 status bit 7: "Device in bootloader mode."),
 *    F01's probe (configured bit, dummy interrupt read, queries, build id
 *    from the DS4 queries, "found RMI device, manufacturer: ..., product:
 *    ..., fw id: ..."; an unconfigured status fails it), F34 v7's probe
 *    (bootloader id, queries, configuration id, partition table);
 *    attributes on rmi4-NN: F01's manufacturer_id, date_of_manufacture,
 *    product_id, firmware_id, package_id and F34's bootloader_id ("V7.0"),
 *    configuration_id, update_fw, update_fw_status; one function device
 *    rmi4-NN.fnXX below rmi4-NN per PDT entry (rmi_create_function,
 *    page 0 only in bootloader mode: F01 and F34 there), torn down and
 *    made again at each re-probe of an update; F11's probe (rmi_f11.c:
 *    query 0, queries 1..4, the absolute query, control 0..11 for the
 *    axes' maxima) and the axes it gives the input device; the input
 *    device "Synaptics PRODUCT" (rmi_driver_probe registers it in both
 *    modes: in bootloader mode no function gives it an axis, only F11
 *    or F12 do); F12's probe (rmi_f12.c: query 0, the three register
 *    descriptors as rmi_read_register_desc reads them, control 8's axes'
 *    maxima, data 1's objects) where the chip has F12 instead of F11;
 *    the Host Notify interrupt;
 *  - SMBus transfers as rmi_smbus makes them: the 8-entry mapping table
 *    (command 0x80 + i, round robin, reused for a read of the same address
 *    and count or a write to the same address), 32-byte blocks at rmiaddr,
 *    rmiaddr + 32, ... (a write's blocks all 32 bytes long but the last
 *    when the whole is shorter: min(len, 32), as rmi_smb_write_block has it);
 *  - update_fw (rmi_firmware_update): the file by the name written; the
 *    image parsed (header 0x10, a flash config container, else -EINVAL
 *    before the chip is touched); the bootloader entered unless in it;
 *    functions torn down and probed again, which must find the bootloader
 *    (else -EINVAL); rmi_f34v7_do_reflash: bootloader config size checked,
 *    erase all, the bootloader config read back, flash config, bootloader
 *    config, core code, core config written, each command waited for by
 *    its interrupt (300 ms, erase 5 s); then torn down and probed again
 *    -- without resetting the chip on SMBus -- and the write returns that
 *    re-probe's result, not the flash's ("Firmware update failed, status:
 *    N" only in the log; update_fw_status reads the new F34's 0).
 *
 * The input device sits below rmi4-NN (rmi4-NN/input/inputN), as
 * rmi_driver_probe registers it on the RMI device (devm on rmi_dev->dev):
 * the remove takes it away before rmi4-NN goes.
 *
 *  - F34 v5 (function version 0 in the PDT; rmi_f34.c): its probe reads
 *    9 queries (bootloader id, properties, block size, firmware and
 *    config block counts) and, with a config id, 9 bytes from control
 *    (printed "%02x" x 4); bootloader_id shows the two id bytes as
 *    characters; update_fw enables flash programming (the bootloader id
 *    written to the block data, command 0xf ORed into the control
 *    register at data + 2 + block size), re-probes (the bootloader must
 *    be there), checks the image (struct rmi_f34_firmware: image and
 *    config sizes against the chip's blocks, "Bad firmware image" and
 *    -EILSEQ, after the bootloader was entered), erases all, writes the
 *    firmware then the config blocks one command each; nothing sets
 *    F34's bit in rmi_core's interrupt mask for v5, so each command waits
 *    out its timeout (enable 300 ms, erase 5 s, a block 500 ms) and the
 *    control register is read then: status bits left, -ETIMEDOUT; the
 *    re-probe as for v7.
 *
 * Not modelled: touch reports (F11's and F12's attention), F12's
 * resolution from its pitch (the emulator's axes carry none), F03,
 * F30/F3A, suspend/resume, the SPI transport, attention data FIFOs.
 */
#include <errno.h>
#include <linux/input.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emub-priv.h"

#define SMB_VERSION_REG 0xfd
#define SMB_MAX_COUNT 32
#define MAP_SIZE 8
#define PDT_START 0x00e9
#define PDT_END 0x0005
#define PDT_PROPS 0x00ef
#define BUS_RMI_ID 0x1d
#define SYNAPTICS_VENDOR 0x06cb

/* F34 v7 (rmi_f34.h) */
#define V7_FLASH_STATUS 0
#define V7_PARTITION_ID 1
#define V7_BLOCK_NUMBER 2
#define V7_TRANSFER_LENGTH 3
#define V7_COMMAND 4
#define V7_PAYLOAD 5
#define CMD_V7_IDLE 0
#define CMD_V7_ENTER_BL 1
#define CMD_V7_READ 2
#define CMD_V7_WRITE 3
#define CMD_V7_ERASE_AP 5
#define BOOTLOADER_PARTITION 1
#define FLASH_CONFIG_PARTITION 3
#define GLOBAL_PARAMETERS_PARTITION 6
#define CORE_CODE_PARTITION 7
#define CORE_CONFIG_PARTITION 8
#define F34_ENABLE_WAIT_MS 300
#define F34_ERASE_WAIT_MS 5000
/* F34 v5 (rmi_f34.h) */
#define F34_BLOCK_DATA_OFFSET 2
#define F34_WRITE_FW_BLOCK 0x2
#define F34_ERASE_ALL 0x3
#define F34_WRITE_CONFIG_BLOCK 0x6
#define F34_ERASE_CONFIG 0x7
#define F34_ENABLE_FLASH_PROG 0xf
#define F34_IDLE_WAIT_MS 500
#define F34_FW_IMAGE_OFFSET 0x100
#define PAGE_SIZE_K 4096

struct map_entry {
	guint16 addr;
	guint8 count, flags;
};

struct fn {
	guint8 number, version, irqs, irq_pos;
	guint16 query, command, control, data;
};

struct rmi_data {
	struct emub_dev *d;
	guint16 addr;
	bool i2c; /* rmi_i2c: plain I2C with page select */
	int page; /* rmi_i2c's idea of the chip's page (-1: unknown) */
	struct map_entry map[MAP_SIZE];
	guint8 table_index;
	char rmidev[16]; /* rmi4-NN */
	/* rmi_driver_data */
	struct fn fns[8];
	int nfns;
	struct fn *f01, *f34, *f11, *f12;
	int published; /* function devices made below rmi4-NN */
	/* F11 (rmi_f11.c) */
	int nr_fingers;
	guint16 max_x, max_y;
	bool bootloader_mode;
	int irq_count;
	guint8 fn_irq_bits, pdt_props;
	/* F01 */
	char product_id[11];
	guint8 manufacturer_id;
	guint32 firmware_id;
	char dom[11];
	/* F34: 5 (function version 0) or 7 */
	int bl_version;
	/* F34 v5 */
	guint16 v5_block_size, v5_fw_blocks, v5_config_blocks, v5_ctrl;
	unsigned int v5_done;
	/* F34 v7 */
	guint8 bl_id[2];
	char config_id[65];
	guint16 block_size, flash_config_length, payload_length;
	int partitions;
	guint16 blk_fl, blk_bl, blk_cc, blk_cf;
	unsigned int cmd_done;
	int update_status;
	bool in_update;
};

static unsigned int rmi_devices; /* the transport number rmi_bus hands out */

static struct rmi_data *data_of(struct emub_dev *d)
{
	return d->priv;
}

/* ------------------------------------------------------------ SMBus transport */

static int smb_block_write(struct rmi_data *r, guint8 cmd, const guint8 *buf, guint8 len)
{
	guint8 b[2 + SMB_MAX_COUNT];
	struct em_msg m = { .addr = r->addr, .flags = 0, .len = (guint16)(len + 2), .buf = b };
	int rc;

	b[0] = cmd;
	b[1] = len;
	memcpy(b + 2, buf, len);
	rc = drv_smbus_transfer(r->d, &m, 1);
	return rc < 0 ? rc : 0;
}

/* i2c_smbus_read_block_data: the count, or -errno */
static int smb_block_read(struct rmi_data *r, guint8 cmd, guint8 *buf)
{
	guint8 b[1 + SMB_MAX_COUNT];
	struct em_msg m[2] = {
		{ .addr = r->addr, .flags = 0, .len = 1, .buf = &cmd },
		{ .addr = r->addr, .flags = EM_MSG_RD, .len = sizeof(b), .buf = b },
	};
	int rc = drv_smbus_transfer(r->d, m, 2);

	if (rc < 0)
		return rc;
	if (!b[0] || b[0] > SMB_MAX_COUNT)
		return -EPROTO;
	memcpy(buf, b + 1, b[0]);
	return b[0];
}

static int smb_get_version(struct rmi_data *r)
{
	guint8 cmd = SMB_VERSION_REG, v = 0;
	struct em_msg m[2] = {
		{ .addr = r->addr, .flags = 0, .len = 1, .buf = &cmd },
		{ .addr = r->addr, .flags = EM_MSG_RD, .len = 1, .buf = &v },
	};
	int rc = drv_smbus_transfer(r->d, m, 2);

	if (rc < 0) {
		emub_dev_log(r->d, "failed to get SMBus version number!");
		return rc;
	}
	return v + 1;
}

/* rmi_smb_get_command_code */
static int smb_command_code(struct rmi_data *r, guint16 rmiaddr, int count, bool isread,
			    guint8 *code)
{
	struct map_entry e;
	guint8 raw[4];
	int i, rc;

	for (i = 0; i < MAP_SIZE; i++) {
		if (r->map[i].addr != rmiaddr)
			continue;
		if (isread ? r->map[i].count == count : (r->map[i].flags & 1)) {
			*code = (guint8)i;
			return 0;
		}
	}
	i = r->table_index;
	r->table_index = (guint8)((i + 1) % MAP_SIZE);
	e.addr = rmiaddr;
	e.count = (guint8)count;
	e.flags = isread ? 0 : 1;
	raw[0] = (guint8)rmiaddr;
	raw[1] = (guint8)(rmiaddr >> 8);
	raw[2] = e.count;
	raw[3] = e.flags;
	rc = smb_block_write(r, (guint8)(0x80 + i), raw, 4);
	if (rc < 0)
		memset(&e, 0, sizeof(e));
	r->map[i] = e;
	if (rc < 0)
		return rc;
	*code = (guint8)i;
	return 0;
}

/* ------------------------------------------------------------ I2C transport */

#define I2C_PAGE_SELECT 0xff

/* rmi_set_page: [0xff, page] in one message */
static int i2c_set_page(struct rmi_data *r, guint8 page)
{
	guint8 b[2] = { I2C_PAGE_SELECT, page };
	int rc = drv_i2c_master_send(r->d, r->addr, b, 2);

	if (rc != 2) {
		emub_dev_log(r->d, "rmi_set_page: set page failed: %d.", rc);
		return rc < 0 ? rc : -EIO;
	}
	r->page = page;
	return 0;
}

/* rmi_i2c_read_block: the page if another, then the low byte written and
 * @len bytes read in one transfer (repeated start) */
static int i2c_read_block(struct rmi_data *r, guint16 a, guint8 *buf, size_t len)
{
	guint8 off = (guint8)a;
	struct em_msg m[2] = {
		{ .addr = r->addr, .flags = 0, .len = 1, .buf = &off },
		{ .addr = r->addr, .flags = EM_MSG_RD, .len = (guint16)len, .buf = buf },
	};
	int rc;

	if ((a >> 8) != r->page && (rc = i2c_set_page(r, (guint8)(a >> 8))))
		return rc;
	rc = drv_i2c_transfer(r->d, m, 2);
	return rc == 2 ? 0 : rc < 0 ? rc : -EIO;
}

/* rmi_i2c_write_block: the low byte, then the data, one message */
static int i2c_write_block(struct rmi_data *r, guint16 a, const guint8 *buf, size_t len)
{
	guint8 *b = g_malloc(len + 1);
	int rc;

	b[0] = (guint8)a;
	memcpy(b + 1, buf, len);
	rc = (a >> 8) != r->page ? i2c_set_page(r, (guint8)(a >> 8)) : 0;
	if (!rc) {
		rc = drv_i2c_master_send(r->d, r->addr, b, (guint16)(len + 1));
		rc = rc == (int)len + 1 ? 0 : rc < 0 ? rc : -EIO;
	}
	g_free(b);
	return rc;
}

static int rmi_read_block(struct rmi_data *r, guint16 a, guint8 *buf, size_t len)
{
	int cur = (int)len, rc;
	guint8 code;

	memset(buf, 0, len);
	if (r->i2c)
		return i2c_read_block(r, a, buf, len);
	while (cur > 0) {
		int n = cur < SMB_MAX_COUNT ? cur : SMB_MAX_COUNT;

		if ((rc = smb_command_code(r, a, n, true, &code)) < 0)
			return rc;
		if ((rc = smb_block_read(r, code, buf)) < 0)
			return rc;
		cur -= SMB_MAX_COUNT;
		buf += SMB_MAX_COUNT;
		a += SMB_MAX_COUNT;
	}
	return 0;
}

static int rmi_read(struct rmi_data *r, guint16 a, guint8 *v)
{
	return rmi_read_block(r, a, v, 1);
}

static int rmi_write_block(struct rmi_data *r, guint16 a, const guint8 *buf, size_t len)
{
	int cur = (int)len, rc;
	/* min_t(int, len, SMB_MAX_COUNT): every block as long as the first */
	int n = (int)len < SMB_MAX_COUNT ? (int)len : SMB_MAX_COUNT;
	guint8 code, tmp[SMB_MAX_COUNT];

	if (r->i2c)
		return i2c_write_block(r, a, buf, len);
	while (cur > 0) {
		memset(tmp, 0, sizeof(tmp));
		memcpy(tmp, buf, (size_t)(cur < n ? cur : n));
		if ((rc = smb_command_code(r, a, n, false, &code)) < 0)
			return rc;
		if ((rc = smb_block_write(r, code, tmp, (guint8)n)) < 0)
			return rc;
		cur -= SMB_MAX_COUNT;
		buf += SMB_MAX_COUNT;
		a += SMB_MAX_COUNT;
	}
	return 0;
}

static int rmi_write(struct rmi_data *r, guint16 a, guint8 v)
{
	return rmi_write_block(r, a, &v, 1);
}

/* rmi_smb_reset: the mapping table forgotten, the version read again */
static int smb_reset(struct rmi_data *r)
{
	int v;

	memset(r->map, 0, sizeof(r->map));
	v = smb_get_version(r);
	return v < 0 ? v : 0;
}

/*
 * rmi_scan_pdt(..., rmi_initial_reset): the transport's reset where it has
 * one (rmi_smbus: smb_reset); else (rmi_i2c) F01's reset command -- bit 0
 * of its command register, found on page 0 of the PDT -- and
 * DEFAULT_RESET_DELAY_MS (100 ms, no platform reset delay).
 */
static int initial_reset(struct rmi_data *r)
{
	guint16 a;

	if (!r->i2c)
		return smb_reset(r);
	for (a = PDT_START; a >= PDT_END; a -= 6) {
		guint8 e[6], cmd = 0x01;
		int rc = rmi_read_block(r, a, e, 6);

		if (rc)
			return rc;
		if (e[5] == 0x00 || e[5] == 0xff)
			break;
		if (e[5] != 0x01)
			continue;
		if ((rc = rmi_write_block(r, e[1], &cmd, 1))) {
			emub_dev_log(r->d, "%s: Initial reset failed. Code = %d.", r->rmidev,
				     rc);
			return rc;
		}
		drv_msleep(r->d, 100);
		return 0;
	}
	return 0;
}

/* ------------------------------------------------------------ rmi_driver */

/* rmi_scan_pdt over page 0 on (a bootloader scan stops after it); with
 * @create the functions are recorded (rmi_create_function) */
static int scan_pdt(struct rmi_data *r, bool create)
{
	int empty = 0;

	for (int page = 0; page <= 0xff; page++) {
		guint16 start = (guint16)(page * 0x100 + PDT_START);
		guint16 end = (guint16)(page * 0x100 + PDT_END);
		guint16 a;

		for (a = start; a >= end; a -= 6) {
			guint8 e[6];
			int rc = rmi_read_block(r, a, e, 6);

			if (rc) {
				emub_dev_log(r->d, "Read PDT entry at %#06x failed, code: %d.",
					     a, rc);
				return rc;
			}
			if (e[5] == 0x00 || e[5] == 0xff)
				break;
			if (!create) {
				guint8 ver = (guint8)((e[4] & 0x60) >> 5), st;

				r->irq_count += e[4] & 0x07;
				if ((e[5] == 0x34 && ver > 1) || e[5] == 0x01) {
					guint16 dat = (guint16)(e[3] + page * 0x100);

					if ((rc = rmi_read(r, dat, &st)))
						return rc;
					if ((e[5] == 0x34 && (st & 0x80)) ||
					    (e[5] == 0x01 && (st & 0x40)))
						r->bootloader_mode = true;
				}
			} else if (r->nfns < (int)G_N_ELEMENTS(r->fns)) {
				struct fn *f = &r->fns[r->nfns++];
				guint16 ps = (guint16)(page * 0x100);
				int pos = 0;

				for (int i = 0; i < r->nfns - 1; i++)
					pos += r->fns[i].irqs;
				f->query = (guint16)(e[0] + ps);
				f->command = (guint16)(e[1] + ps);
				f->control = (guint16)(e[2] + ps);
				f->data = (guint16)(e[3] + ps);
				f->irqs = e[4] & 0x07;
				f->version = (guint8)((e[4] & 0x60) >> 5);
				f->number = e[5];
				f->irq_pos = (guint8)pos;
				if (f->number == 0x01)
					r->f01 = f;
				else if (f->number == 0x34)
					r->f34 = f;
				else if (f->number == 0x11)
					r->f11 = f;
				else if (f->number == 0x12)
					r->f12 = f;
			}
		}
		if (a == start)
			empty++;
		else
			empty = 0;
		if (r->bootloader_mode || empty >= 2)
			break;
	}
	return 0;
}

static int probe_interrupts(struct rmi_data *r)
{
	int rc;

	r->bootloader_mode = false;
	r->irq_count = 0;
	if ((rc = scan_pdt(r, false))) {
		emub_dev_log(r->d, "IRQ counting failed with code %d.", rc);
		return rc;
	}
	if (r->bootloader_mode)
		emub_dev_log(r->d, "%s: Device in bootloader mode.", r->rmidev);
	return 0;
}

/* rmi_f01_probe */
static int f01_probe(struct rmi_data *r)
{
	struct fn *f = r->f01;
	guint8 ctrl0, tmp, q[21], st;
	guint16 qo = (guint16)(f->query + 21);
	int rc;

	if ((rc = rmi_read(r, f->control, &ctrl0)))
		return rc;
	if (ctrl0 & 0x03)
		ctrl0 &= (guint8)~0x03; /* "Non-zero sleep mode found. Clearing..." */
	ctrl0 |= 0x80;
	if ((rc = rmi_write(r, f->control, ctrl0)) || (rc = rmi_read(r, f->data + 1, &tmp)))
		return rc;
	if ((rc = rmi_read_block(r, f->query, q, sizeof(q))))
		return rc;
	r->manufacturer_id = q[0];
	snprintf(r->dom, sizeof(r->dom), "20%02d/%02d/%02d", q[5] & 0x1f, q[6] & 0x0f,
		 q[7] & 0x1f);
	memcpy(r->product_id, q + 11, 10);
	r->product_id[10] = 0;
	r->firmware_id = 0;
	if (q[1] & 0x08)
		qo++; /* sensor id */
	if (q[1] & 0x80) {
		guint8 q42, len, ds4;

		if ((rc = rmi_read(r, qo++, &q42)))
			return rc;
		if (q42 & 1) {
			if ((rc = rmi_read(r, qo++, &len)))
				return rc;
			if (len && !(rc = rmi_read(r, qo, &ds4)) && (ds4 & 2)) {
				guint16 pi = (guint16)(f->query + 17 + ((ds4 & 1) ? 1 : 0));
				guint8 b[3];

				if ((rc = rmi_read_block(r, pi, b, 3)))
					return rc;
				r->firmware_id = (guint32)(b[1] << 8 | b[0]) + b[2] * 65536u;
			}
			if (rc)
				return rc;
		}
	}
	emub_dev_log(r->d,
		     "%s.fn01: found RMI device, manufacturer: %s, product: %s, fw id: %u",
		     r->rmidev, r->manufacturer_id == 1 ? "Synaptics" : "unknown",
		     r->product_id, r->firmware_id);
	if ((rc = rmi_read(r, f->data, &st)))
		return rc;
	if (st & 0x80) {
		emub_dev_log(r->d,
			     "Device was reset during configuration process, status: %#02x!",
			     st & 0x0f);
		return -EINVAL;
	}
	return 0;
}

/* F34 v7's flash status and command (rmi_f34v7_read_flash_status) */
static int f34_status(struct rmi_data *r, guint8 *status, guint8 *cmd, bool *bl)
{
	guint8 s;
	int rc;

	if ((rc = rmi_read(r, r->f34->data + V7_FLASH_STATUS, &s)))
		return rc;
	*bl = s >> 7;
	*status = s & 0x1f;
	if (*status)
		emub_dev_log(r->d, "%s.fn34: rmi_f34v7_read_flash_status: status=%d", r->rmidev,
			     *status);
	return rmi_read(r, r->f34->data + V7_COMMAND, cmd);
}

static void parse_ptable(const guint8 *t, int parts, guint16 *fl, guint16 *bl, guint16 *cc,
			 guint16 *cf)
{
	*fl = *bl = *cc = *cf = 0;
	for (int i = 0; i < parts; i++) {
		const guint8 *e = t + 2 + 8 * i;
		guint16 len = (guint16)(e[2] | e[3] << 8);

		switch (e[0] & 0x1f) {
		case FLASH_CONFIG_PARTITION:
			*fl = len;
			break;
		case GLOBAL_PARAMETERS_PARTITION:
			*bl = len;
			break;
		case CORE_CODE_PARTITION:
			*cc = len;
			break;
		case CORE_CONFIG_PARTITION:
			*cf = len;
			break;
		default:
			break;
		}
	}
}

/* rmi_f34_probe for function version 0: the v5 bootloader */
static int f34v5_probe(struct rmi_data *r)
{
	struct fn *f = r->f34;
	guint8 q[9];
	int rc;

	r->bl_version = 5;
	if ((rc = rmi_read_block(r, f->query, q, sizeof(q)))) {
		emub_dev_log(r->d, "%s.fn34: rmi_f34_probe: Failed to query properties",
			     r->rmidev);
		return rc;
	}
	r->bl_id[0] = q[0];
	r->bl_id[1] = q[1];
	r->v5_block_size = (guint16)(q[3] | q[4] << 8);
	r->v5_fw_blocks = (guint16)(q[5] | q[6] << 8);
	r->v5_config_blocks = (guint16)(q[7] | q[8] << 8);
	r->v5_ctrl = (guint16)(f->data + F34_BLOCK_DATA_OFFSET + r->v5_block_size);
	r->config_id[0] = 0;
	if (q[2] & (1 << 2)) {
		if ((rc = rmi_read_block(r, f->control, q, sizeof(q)))) {
			emub_dev_log(r->d, "%s.fn34: Failed to read F34 config ID", r->rmidev);
			return rc;
		}
		snprintf(r->config_id, sizeof(r->config_id), "%02x%02x%02x%02x", q[0], q[1],
			 q[2], q[3]);
	}
	return 0;
}

/* rmi_f34v7_probe + rmi_f34v7_read_queries + read_partition_table */
static int f34_probe(struct rmi_data *r)
{
	struct fn *f = r->f34;
	guint8 q0, q[21], ctrl[32], zero[2] = { 0, 0 }, len[2], cmd, st;
	guint8 table[2 + 8 * 32];
	bool bl;
	int rc, i;

	if (f->version == 0)
		return f34v5_probe(r);
	r->bl_version = 7;

	if ((rc = rmi_read_block(r, f->query + 1, r->bl_id, 2)))
		return rc;
	if (r->bl_id[1] != 7 && r->bl_id[1] != 8) {
		emub_dev_log(r->d, "rmi_f34v7_probe: Unrecognized bootloader version: %d %d",
			     r->bl_id[0], r->bl_id[1]);
		return -EINVAL;
	}
	if ((rc = rmi_read(r, f->query, &q0)) ||
	    (rc = rmi_read_block(r, (guint16)(f->query + (q0 & 7) + 1), q, sizeof(q))))
		return rc;
	r->block_size = (guint16)(q[7] | q[8] << 8);
	r->flash_config_length = (guint16)(q[13] | q[14] << 8);
	r->payload_length = (guint16)(q[15] | q[16] << 8);
	if (q0 & 0x08) {
		if ((rc = rmi_read_block(r, f->control, ctrl, sizeof(ctrl))))
			return rc;
		for (i = 0; i < 31 && !ctrl[i]; i++)
			;
		r->config_id[0] = 0;
		for (int j = i; j < 32; j++)
			snprintf(r->config_id + 2 * (j - i), 3, "%02x", ctrl[j]);
	}
	r->partitions = 0;
	for (i = 17; i < 21; i++)
		r->partitions += __builtin_popcount(q[i]);
	if (r->partitions > 32 || !r->block_size)
		return -EINVAL;
	/* read the flash config area: the partition table */
	len[0] = (guint8)r->flash_config_length;
	len[1] = (guint8)(r->flash_config_length >> 8);
	if ((rc = rmi_write(r, f->data + V7_PARTITION_ID, FLASH_CONFIG_PARTITION)) ||
	    (rc = rmi_write_block(r, f->data + V7_BLOCK_NUMBER, zero, 2)) ||
	    (rc = rmi_write_block(r, f->data + V7_TRANSFER_LENGTH, len, 2)) ||
	    (rc = rmi_write(r, f->data + V7_COMMAND, CMD_V7_READ)))
		return rc;
	/* the kernel polls every 5 ms, while its (mis)computed deadline
	 * lasts: the chip here answers at once */
	for (i = 0; i < 600; i++) {
		drv_msleep(r->d, 5);
		if (f34_status(r, &st, &cmd, &bl) == 0 && cmd == CMD_V7_IDLE && !st)
			break;
	}
	if ((rc = rmi_read_block(r, f->data + V7_PAYLOAD, table,
				 (size_t)(r->partitions * 8 + 2)))) {
		emub_dev_log(r->d, "rmi_f34v7_read_queries: Failed to read partition table");
		return rc;
	}
	parse_ptable(table, r->partitions, &r->blk_fl, &r->blk_bl, &r->blk_cc, &r->blk_cf);
	return 0;
}

/*
 * rmi_f11_probe's reads (f11_initialize): query 0 (which further queries
 * exist), query 1..4 (rmi_f11_get_query_parameters: fingers, relative,
 * absolute), the absolute query, then control 0..11 (f11_read_control_regs)
 * whose ctrl 6..9 are the axes' maxima (12 bits).  A failed probe leaves
 * the function device unbound; rmi_core goes on.
 */
static int f11_probe(struct rmi_data *r)
{
	struct fn *f = r->f11;
	guint8 q0, q[4], ctrl[12], abs;
	int rc, code;

	if ((rc = rmi_read(r, f->query, &q0)) ||
	    (rc = rmi_read_block(r, (guint16)(f->query + 1), q, sizeof(q))))
		return rc;
	code = q[0] & 0x07;
	r->nr_fingers = code == 5 ? 10 : code + 1;
	if (!(q[0] & 0x10)) { /* no absolute data: no 2D axes */
		r->nr_fingers = 0;
		return 0;
	}
	if ((rc = rmi_read(r, (guint16)(f->query + 5), &abs)) ||
	    (rc = rmi_read_block(r, f->control, ctrl, sizeof(ctrl))))
		return rc;
	r->max_x = (guint16)((ctrl[6] | ctrl[7] << 8) & 0x0fff);
	r->max_y = (guint16)((ctrl[8] | ctrl[9] << 8) & 0x0fff);
	emub_dev_log(r->d, "%s.fn11: %d fingers, max x %u, max y %u", r->rmidev, r->nr_fingers,
		     r->max_x, r->max_y);
	return 0;
}

/* rmi_read_register_desc: what one register descriptor says */
struct reg_desc {
	int n;
	struct {
		int reg;
		unsigned long size;
		guint32 subpackets; /* the first 32 subpacket bits */
	} r[16];
};

/* rmi_read_register_desc (6.1, 6.12): the size of the presence register
 * at @addr, the presence register at @addr + 1 (the structure's size,
 * then one bit per packet register present), the structure at @addr + 2
 * (per register present: its size in 1, 3 or 7 bytes, then subpacket
 * bits, 7 a byte, bit 7 saying another byte follows). */
static int read_register_desc(struct rmi_data *r, guint16 addr, struct reg_desc *d)
{
	guint8 psize, buf[35], st[256];
	int rc, i, b, off = 0, first = 1, reg = 0;
	unsigned int ssize;

	memset(d, 0, sizeof(*d));
	if ((rc = rmi_read(r, addr, &psize)))
		return rc;
	if (psize > 35)
		return -EIO;
	memset(buf, 0, sizeof(buf));
	if ((rc = rmi_read_block(r, (guint16)(addr + 1), buf, psize)))
		return rc;
	if (buf[0] == 0) {
		first = 3;
		ssize = (unsigned int)(buf[1] | buf[2] << 8);
	} else {
		ssize = buf[0];
	}
	if (ssize > sizeof(st))
		return -EIO; /* (the kernel allocates it; more than the model has) */
	memset(st, 0, sizeof(st));
	if ((rc = rmi_read_block(r, (guint16)(addr + 2), st, ssize)))
		return rc;
	for (i = first; i < psize; i++)
		for (b = 0; b < 8; b++, reg++) {
			unsigned long size;
			int map = 0;

			if (!(buf[i] & 1u << b) || d->n == (int)G_N_ELEMENTS(d->r))
				continue;
			size = st[off++];
			if (!size) {
				size = (unsigned long)(st[off] | st[off + 1] << 8);
				off += 2;
			}
			if (!size) {
				size = (unsigned long)st[off] |
				       (unsigned long)st[off + 1] << 8 |
				       (unsigned long)st[off + 2] << 16 |
				       (unsigned long)st[off + 3] << 24;
				off += 4;
			}
			d->r[d->n].reg = reg;
			d->r[d->n].size = size;
			do {
				int k;

				for (k = 0; k < 7; k++, map++)
					if ((st[off] & 1u << k) && map < 32)
						d->r[d->n].subpackets |= 1u << map;
			} while ((st[off++] & 0x80) && off < (int)ssize);
			d->n++;
		}
	return 0;
}

/* rmi_get_register_desc_item: its index in @d, or -1 */
static int desc_item(const struct reg_desc *d, int reg)
{
	for (int i = 0; i < d->n; i++)
		if (d->r[i].reg == reg)
			return i;
	return -1;
}

/*
 * rmi_f12_probe's reads: query 0 (bit 0: register descriptors, without
 * them "Behavior of F12 without register descriptors is undefined",
 * -ENODEV), the query, control and data register descriptors at query
 * 1, 4 and 7; rmi_f12_read_sensor_tuning: control 8 (at most 15 bytes;
 * its address the base plus the number of control registers before it)
 * -- subpacket 0 the axes' maxima, 1 the pitch, 2 the inactive border,
 * 3 the receivers; data 1's subpackets are the fingers.  Then
 * rmi_2d_sensor_configure_input, as for F11.
 */
static int f12_probe(struct rmi_data *r)
{
	struct fn *f = r->f12;
	struct reg_desc qd, cd, dd;
	guint8 q0, buf[15];
	int rc, i, c8, off = 0, d1;

	if ((rc = rmi_read(r, f->query, &q0))) {
		emub_dev_log(r->d, "%s.fn12: Failed to read general info register: %d",
			     r->rmidev, rc);
		return -ENODEV;
	}
	if (!(q0 & 0x01)) {
		emub_dev_log(r->d,
			     "%s.fn12: Behavior of F12 without register descriptors is "
			     "undefined.",
			     r->rmidev);
		return -ENODEV;
	}
	if ((rc = read_register_desc(r, (guint16)(f->query + 1), &qd)) ||
	    (rc = read_register_desc(r, (guint16)(f->query + 4), &cd)) ||
	    (rc = read_register_desc(r, (guint16)(f->query + 7), &dd)))
		return rc;
	if ((c8 = desc_item(&cd, 8)) < 0) {
		emub_dev_log(r->d,
			     "%s.fn12: F12 does not have the sensor tuning control "
			     "register",
			     r->rmidev);
		return -ENODEV;
	}
	if (cd.r[c8].size > sizeof(buf)) {
		emub_dev_log(r->d,
			     "%s.fn12: F12 control8 should be no bigger than %zu bytes, "
			     "not: %lu",
			     r->rmidev, sizeof(buf), cd.r[c8].size);
		return -ENODEV;
	}
	if ((rc = rmi_read_block(r, (guint16)(f->control + c8), buf, cd.r[c8].size)))
		return rc;
	if (cd.r[c8].subpackets & 1) {
		r->max_x = (guint16)(buf[1] << 8 | buf[0]);
		r->max_y = (guint16)(buf[3] << 8 | buf[2]);
		off += 4;
	}
	(void)off; /* pitch, border, receivers: the resolution, not modelled */
	d1 = desc_item(&dd, 1);
	r->nr_fingers = 0;
	if (d1 >= 0)
		for (i = 0; i < 32; i++)
			r->nr_fingers += (dd.r[d1].subpackets >> i) & 1;
	emub_dev_log(r->d, "%s.fn12: %d objects, max x %u, max y %u", r->rmidev, r->nr_fingers,
		     r->max_x, r->max_y);
	return 0;
}

/* rmi_register_function / rmi_unregister_function: the function devices
 * (device_add of "rmi4-NN.fnXX" below rmi4-NN) */
static void publish_functions(struct rmi_data *r)
{
	g_mutex_lock(&r->d->eb->lock);
	for (int i = 0; i < r->published; i++) {
		char *rel = g_strdup_printf("%s/%s/%s.fn%02x", r->d->devpath + 1, r->rmidev,
					    r->rmidev, r->fns[i].number);

		emub_sys_remove(r->d->eb, rel);
		g_free(rel);
	}
	r->published = 0;
	for (int i = 0; i < r->nfns; i++) {
		char *rel = g_strdup_printf("%s/%s/%s.fn%02x", r->d->devpath + 1, r->rmidev,
					    r->rmidev, r->fns[i].number);
		/* rmi_bus gives no uevent variables: the driver core's
		 * DRIVER= of the function handler that bound it */
		char *ue = g_strdup_printf("DRIVER=rmi4_f%02x\n", r->fns[i].number);

		emub_sys_mkdir(r->d->eb, rel);
		emub_sys_publish_in(r->d->eb, rel, "uevent", ue);
		g_free(ue);
		g_free(rel);
		r->published++;
	}
	g_mutex_unlock(&r->d->eb->lock);
}

static void set_attrs(struct rmi_data *r, bool add)
{
	char v[80], name[64];

#define ATTR(n, ...)                                                 \
	do {                                                         \
		snprintf(v, sizeof(v), __VA_ARGS__);                 \
		snprintf(name, sizeof(name), "%s/%s", r->rmidev, n); \
		if (add)                                             \
			drv_attr_add(r->d, name, v, false, false);   \
		else                                                 \
			drv_attr_set(r->d, name, v, false);          \
	} while (0)
	ATTR("manufacturer_id", "%d\n", r->manufacturer_id);
	ATTR("date_of_manufacture", "%s\n", r->dom);
	ATTR("product_id", "%s\n", r->product_id);
	ATTR("firmware_id", "%u\n", r->firmware_id);
	ATTR("package_id", "%04x.%04x\n", 0, 0);
	if (r->bl_version == 5)
		ATTR("bootloader_id", "%c%c\n", r->bl_id[0], r->bl_id[1]);
	else
		ATTR("bootloader_id", "V%d.%d\n", r->bl_id[1], r->bl_id[0]);
	ATTR("configuration_id", "%s\n", r->config_id);
	ATTR("update_fw_status", "%d\n", r->update_status);
#undef ATTR
	if (add) {
		snprintf(name, sizeof(name), "%s/update_fw", r->rmidev);
		drv_attr_add(r->d, name, "", true, false);
	}
}

/* rmi_init_functions: the functions probed in PDT order */
static int init_functions(struct rmi_data *r)
{
	guint8 mask;
	int rc;

	r->nfns = 0;
	r->f01 = r->f34 = r->f11 = r->f12 = NULL;
	r->nr_fingers = 0;
	r->fn_irq_bits = 0;
	if ((rc = scan_pdt(r, true))) {
		emub_dev_log(r->d, "Function creation failed with code %d.", rc);
		return rc;
	}
	if (!r->f01) {
		emub_dev_log(r->d, "Missing F01 container!");
		return -EINVAL;
	}
	if ((rc = f01_probe(r)))
		return rc;
	r->update_status = 0;
	if (r->f34 && (rc = f34_probe(r)))
		return rc;
	if (r->f11 && (rc = f11_probe(r))) {
		emub_dev_log(r->d, "%s.fn11: probe failed: %d", r->rmidev, rc);
		r->nr_fingers = 0;
	}
	if (r->f12 && (rc = f12_probe(r))) {
		emub_dev_log(r->d, "%s.fn12: probe failed: %d", r->rmidev, rc);
		r->nr_fingers = 0;
	}
	return rmi_read(r, r->f01->control + 1, &mask);
}

/* rmi_process_interrupt_requests: status read, F34's handler */
static void process_interrupts(struct rmi_data *r)
{
	guint8 status, cmd;

	if (!r->f01 || rmi_read(r, r->f01->data + 1, &status))
		return;
	status &= r->fn_irq_bits;
	if (!r->f34 || !(status & (1u << r->f34->irq_pos)))
		return;
	if (r->bl_version == 5) {
		/* rmi_f34_attention: done when the status bits are clear */
		if (!rmi_read(r, r->v5_ctrl, &cmd) && !(cmd & 0x7f))
			r->v5_done++;
		return;
	}
	if (!rmi_read(r, r->f34->data + V7_COMMAND, &cmd) && cmd == CMD_V7_IDLE)
		r->cmd_done++;
}

static void set_irq_bits(struct rmi_data *r, guint8 bits)
{
	guint8 cur = 0;

	rmi_read(r, r->f01->control + 1, &cur);
	rmi_write(r, r->f01->control + 1, (guint8)(cur | bits));
	r->fn_irq_bits |= bits;
}

/* ------------------------------------------------------------ F34 v7 flashing */

struct img {
	const guint8 *cc, *cf, *fl, *bl;
	guint32 cc_len, cf_len, fl_len, bl_len;
};

static guint32 le32(const guint8 *p)
{
	return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

/* rmi_f34v7_parse_image_info (the kernel trusts the offsets; the model
 * stops at the end of the file instead of reading past it) */
static int parse_image(struct rmi_data *r, const guint8 *fw, gsize size, struct img *im)
{
	guint32 top, list, n;

	memset(im, 0, sizeof(*im));
	if (size < 16 || fw[7] != 0x10) {
		emub_dev_log(r->d, "%s.fn34: Unsupported image file format %02X", r->rmidev,
			     size >= 8 ? fw[7] : 0);
		return -EINVAL;
	}
	top = le32(fw + 12);
	if (top + 32 > size)
		goto no_fl;
	list = le32(fw + top + 28);
	n = le32(fw + top + 24) / 4;
	for (guint32 i = 0; i < n && list + 4 * i + 4 <= size; i++) {
		guint32 da = le32(fw + list + 4 * i), id, ca, cl;

		if (da + 32 > size)
			continue;
		id = (guint32)(fw[da + 4] | fw[da + 5] << 8);
		cl = le32(fw + da + 24);
		ca = le32(fw + da + 28);
		if (ca > size || cl > size - ca)
			continue;
		if (id == 1 || id == 18) {
			im->cc = fw + ca;
			im->cc_len = cl;
		} else if (id == 2 || id == 19) {
			im->cf = fw + ca;
			im->cf_len = cl;
		} else if (id == 15) {
			im->fl = fw + ca;
			im->fl_len = cl;
		} else if (id == 3) {
			for (guint32 j = 1; j < cl / 4; j++) {
				guint32 sa = le32(fw + ca + 4 * j), sid, sca, scl;

				if (sa + 32 > size)
					continue;
				sid = (guint32)(fw[sa + 4] | fw[sa + 5] << 8);
				scl = le32(fw + sa + 24);
				sca = le32(fw + sa + 28);
				if ((sid == 5 || sid == 17) && sca <= size &&
				    scl <= size - sca) {
					im->bl = fw + sca;
					im->bl_len = scl;
				}
			}
		}
	}
	if (im->fl)
		return 0;
no_fl:
	emub_dev_log(r->d, "%s.fn34: rmi_f34v7_parse_image_info: No flash config in fw image",
		     r->rmidev);
	return -EINVAL;
}

/* rmi_f34v7_check_command_status */
static int check_command_status(struct rmi_data *r, unsigned int timeout_ms)
{
	guint8 st, cmd;
	bool bl;
	int rc;

	if (drv_wait_completion(r->d, &r->cmd_done, timeout_ms)) {
		emub_dev_log(r->d,
			     "%s.fn34: rmi_f34v7_wait_for_idle: Timed out waiting for idle "
			     "status",
			     r->rmidev);
		return -ETIMEDOUT;
	}
	if ((rc = f34_status(r, &st, &cmd, &bl)))
		return rc;
	return st ? -EIO : 0;
}

/* the single-transaction command (rmi_f34v7_write_command_single_transaction) */
static int single_command(struct rmi_data *r, guint8 partition, guint8 command)
{
	guint8 b[8] = { partition, 0, 0, 0, 0, command, r->bl_id[0], r->bl_id[1] };

	r->cmd_done = 0;
	return rmi_write_block(r, r->f34->data + V7_PARTITION_ID, b, 8);
}

static int blocks(struct rmi_data *r, guint8 partition, guint8 command, guint8 *buf,
		  unsigned int count)
{
	guint8 zero[2] = { 0, 0 };
	unsigned int max = r->payload_length, rem = count;
	int rc;

	if (max > PAGE_SIZE_K / r->block_size)
		max = PAGE_SIZE_K / r->block_size;
	if ((rc = rmi_write(r, r->f34->data + V7_PARTITION_ID, partition)) ||
	    (rc = rmi_write_block(r, r->f34->data + V7_BLOCK_NUMBER, zero, 2)))
		return rc;
	do {
		unsigned int t = rem < max ? rem : max;
		guint8 len[2] = { (guint8)t, (guint8)(t >> 8) };
		size_t bytes = (size_t)t * r->block_size;

		r->cmd_done = 0;
		if ((rc = rmi_write_block(r, r->f34->data + V7_TRANSFER_LENGTH, len, 2)) ||
		    (rc = rmi_write(r, r->f34->data + V7_COMMAND, command)))
			return rc;
		if (command == CMD_V7_WRITE) {
			if ((rc = rmi_write_block(r, r->f34->data + V7_PAYLOAD, buf, bytes)) ||
			    (rc = check_command_status(r, F34_ENABLE_WAIT_MS)))
				return rc;
		} else {
			if ((rc = check_command_status(r, F34_ENABLE_WAIT_MS)) ||
			    (rc = rmi_read_block(r, r->f34->data + V7_PAYLOAD, buf, bytes)))
				return rc;
		}
		buf += bytes;
		rem -= t;
	} while (rem);
	return 0;
}

/* rmi_f34v7_do_reflash (6.1, 6.12) */
static int do_reflash(struct rmi_data *r, const struct img *im)
{
	guint8 *blcfg;
	int rc;

	set_irq_bits(r, (guint8)(1u << r->f34->irq_pos));
	if (im->bl_len / r->block_size != r->blk_bl) {
		emub_dev_log(r->d, "%s.fn34: Bootloader config size mismatch", r->rmidev);
		return -EINVAL;
	}
	emub_dev_log(r->d, "%s.fn34: Erasing firmware...", r->rmidev);
	if ((rc = single_command(r, CORE_CODE_PARTITION, CMD_V7_ERASE_AP)) ||
	    (rc = check_command_status(r, F34_ERASE_WAIT_MS)))
		return rc;
	/* rmi_f34v7_write_partition_table: the bootloader config read back */
	blcfg = g_malloc0((gsize)r->blk_bl * r->block_size + 1);
	rc = blocks(r, GLOBAL_PARAMETERS_PARTITION, CMD_V7_READ, blcfg, r->blk_bl);
	if (!rc && im->fl_len / r->block_size != r->blk_fl) {
		emub_dev_log(r->d,
			     "%s.fn34: rmi_f34v7_write_flash_config: Flash config size "
			     "mismatch",
			     r->rmidev);
		rc = -EINVAL;
	}
	if (!rc)
		rc = blocks(r, FLASH_CONFIG_PARTITION, CMD_V7_WRITE, (guint8 *)im->fl,
			    im->fl_len / r->block_size);
	if (!rc)
		rc = blocks(r, GLOBAL_PARAMETERS_PARTITION, CMD_V7_WRITE, blcfg,
			    im->bl_len / r->block_size);
	g_free(blcfg);
	if (rc)
		return rc;
	emub_dev_log(r->d, "%s.fn34: rmi_f34v7_do_reflash: Partition table programmed",
		     r->rmidev);
	emub_dev_log(r->d, "%s.fn34: Writing firmware (%u bytes)...", r->rmidev, im->cc_len);
	if ((rc = blocks(r, CORE_CODE_PARTITION, CMD_V7_WRITE, (guint8 *)im->cc,
			 im->cc_len / r->block_size)))
		return rc;
	emub_dev_log(r->d, "%s.fn34: Writing config (%u bytes)...", r->rmidev, im->cf_len);
	return blocks(r, CORE_CONFIG_PARTITION, CMD_V7_WRITE, (guint8 *)im->cf,
		      im->cf_len / r->block_size);
}

/* ------------------------------------------------------------ F34 v5 flashing */

/* rmi_f34_command: the bootloader id (query 0..1) written to the block
 * data when asked, the control register read, the command ORed in and
 * written; then the completion awaited (rmi_f34_attention's, which never
 * comes: nothing put F34 in the interrupt mask) and on timeout the
 * register read: status bits left are -ETIMEDOUT, else success. */
static int v5_command(struct rmi_data *r, guint8 command, unsigned int timeout, bool bl_id)
{
	guint8 id[2], st;
	int rc;

	if (bl_id) {
		if ((rc = rmi_read_block(r, r->f34->query, id, 2))) {
			emub_dev_log(r->d,
				     "%s.fn34: rmi_f34_write_bootloader_id: Reading "
				     "bootloader ID failed: %d",
				     r->rmidev, rc);
			return rc;
		}
		if ((rc = rmi_write_block(r, r->f34->data + F34_BLOCK_DATA_OFFSET, id, 2))) {
			emub_dev_log(r->d, "%s.fn34: Failed to write bootloader ID: %d",
				     r->rmidev, rc);
			return rc;
		}
	}
	r->v5_done = 0;
	if ((rc = rmi_read(r, r->v5_ctrl, &st))) {
		emub_dev_log(r->d,
			     "%s.fn34: rmi_f34_command: Failed to read cmd register: %d "
			     "(command %#02x)",
			     r->rmidev, rc, command);
		return rc;
	}
	st |= command & 0x0f;
	if ((rc = rmi_write(r, r->v5_ctrl, st))) {
		emub_dev_log(r->d, "%s.fn34: Failed to write F34 command %#02x: %d", r->rmidev,
			     command, rc);
		return rc;
	}
	if (drv_wait_completion(r->d, &r->v5_done, timeout)) {
		if ((rc = rmi_read(r, r->v5_ctrl, &st))) {
			emub_dev_log(r->d, "%s.fn34: rmi_f34_command: cmd %#02x timed out: %d",
				     r->rmidev, command, rc);
			return rc;
		}
		if (st & 0x7f) {
			emub_dev_log(r->d,
				     "%s.fn34: rmi_f34_command: cmd %#02x timed out, status: "
				     "%#02x",
				     r->rmidev, command, st);
			return -ETIMEDOUT;
		}
	}
	return 0;
}

/* rmi_f34_write_blocks: the block number zeroed, each block's data at
 * data + 2 and its command; the percentage in update_status */
static int v5_write_blocks(struct rmi_data *r, const guint8 *data, int count, guint8 command,
			   int *progress, int total)
{
	guint8 zero[2] = { 0, 0 };
	int rc;

	if ((rc = rmi_write_block(r, r->f34->data, zero, 2))) {
		emub_dev_log(r->d, "%s.fn34: Failed to write initial zeros: %d", r->rmidev, rc);
		return rc;
	}
	for (int i = 0; i < count; i++) {
		if ((rc = rmi_write_block(r, r->f34->data + F34_BLOCK_DATA_OFFSET, data,
					  r->v5_block_size))) {
			emub_dev_log(r->d, "%s.fn34: failed to write block #%d: %d", r->rmidev,
				     i, rc);
			return rc;
		}
		if ((rc = v5_command(r, command, F34_IDLE_WAIT_MS, false))) {
			emub_dev_log(r->d, "%s.fn34: Failed to write command for block #%d: %d",
				     r->rmidev, i, rc);
			return rc;
		}
		data += r->v5_block_size;
		*progress += r->v5_block_size;
		r->update_status = *progress * 100 / total;
	}
	return 0;
}

/* rmi_f34_update_firmware + rmi_f34_flash_firmware (the kernel reads the
 * file by its header's sizes without checking them against the file's;
 * the model stops at its end instead) */
static int v5_update_firmware(struct rmi_data *r, const guint8 *fw, gsize size)
{
	guint32 image_size, config_size;
	int progress = 0, rc;

	if (size < F34_FW_IMAGE_OFFSET)
		return -EINVAL;
	image_size = le32(fw + 8);
	config_size = le32(fw + 12);
	if (image_size && image_size != (guint32)r->v5_fw_blocks * r->v5_block_size) {
		emub_dev_log(r->d, "%s.fn34: Bad firmware image: fw size %u, expected %u",
			     r->rmidev, image_size,
			     (guint32)r->v5_fw_blocks * r->v5_block_size);
		return -EILSEQ;
	}
	if (config_size && config_size != (guint32)r->v5_config_blocks * r->v5_block_size) {
		emub_dev_log(r->d, "%s.fn34: Bad firmware image: config size %u, expected %u",
			     r->rmidev, config_size,
			     (guint32)r->v5_config_blocks * r->v5_block_size);
		return -EILSEQ;
	}
	if (image_size && !config_size) {
		emub_dev_log(r->d, "%s.fn34: Bad firmware image: no config data", r->rmidev);
		return -EILSEQ;
	}
	if ((guint64)F34_FW_IMAGE_OFFSET + image_size + config_size > size)
		return -EINVAL; /* (the model's own stop) */
	emub_dev_log(r->d, "%s.fn34: Firmware image OK", r->rmidev);
	if (image_size) {
		emub_dev_log(r->d, "%s.fn34: Erasing firmware...", r->rmidev);
		if ((rc = v5_command(r, F34_ERASE_ALL, F34_ERASE_WAIT_MS, true)))
			return rc;
		emub_dev_log(r->d, "%s.fn34: Writing firmware (%u bytes)...", r->rmidev,
			     image_size);
		if ((rc = v5_write_blocks(r, fw + F34_FW_IMAGE_OFFSET, r->v5_fw_blocks,
					  F34_WRITE_FW_BLOCK, &progress,
					  (int)(image_size + config_size))))
			return rc;
	}
	if (config_size) {
		if (!image_size) {
			emub_dev_log(r->d, "%s.fn34: Erasing config...", r->rmidev);
			if ((rc = v5_command(r, F34_ERASE_CONFIG, F34_ERASE_WAIT_MS, true)))
				return rc;
		}
		emub_dev_log(r->d, "%s.fn34: Writing config (%u bytes)...", r->rmidev,
			     config_size);
		if ((rc = v5_write_blocks(r, fw + F34_FW_IMAGE_OFFSET + image_size,
					  r->v5_config_blocks, F34_WRITE_CONFIG_BLOCK,
					  &progress, (int)(image_size + config_size))))
			return rc;
	}
	return 0;
}

/* rmi_firmware_update */
static int firmware_update(struct rmi_data *r, const guint8 *fw, gsize size)
{
	struct img im;
	guint8 st, cmd;
	bool bl;
	int rc;

	if (!r->f34) {
		emub_dev_log(r->d, "rmi_firmware_update: No F34 present!");
		return -EINVAL;
	}
	if (r->bl_version == 5) {
		/* rmi_f34_enable_flash: nothing of the image looked at yet */
		if ((rc = v5_command(r, F34_ENABLE_FLASH_PROG, F34_ENABLE_WAIT_MS, true)))
			return rc;
		goto reprobe;
	}
	if (r->pdt_props & 0x20) {
		emub_dev_log(r->d, "rmi_firmware_update: LTS not supported");
		return -ENODEV;
	}
	/* rmi_f34v7_start_reflash */
	set_irq_bits(r, (guint8)(1u << r->f34->irq_pos));
	if ((rc = parse_image(r, fw, size, &im)))
		return rc;
	emub_dev_log(r->d, "%s.fn34: Firmware image OK", r->rmidev);
	if ((rc = f34_status(r, &st, &cmd, &bl)))
		return rc;
	if (!bl) { /* rmi_f34v7_enter_flash_prog; its result is not looked at */
		set_irq_bits(r, (guint8)(1u << r->f34->irq_pos));
		if (!single_command(r, BOOTLOADER_PARTITION, CMD_V7_ENTER_BL))
			check_command_status(r, F34_ENABLE_WAIT_MS);
	}
reprobe:
	drv_irq_disable(r->d);
	rc = probe_interrupts(r);
	if (!rc)
		rc = init_functions(r);
	publish_functions(r);
	if (rc)
		return rc;
	if (!r->bootloader_mode || !r->f34) {
		emub_dev_log(r->d, "rmi_firmware_update: No F34 present or not in bootloader!");
		return -EINVAL;
	}
	drv_irq_enable(r->d);
	rc = r->bl_version == 5 ? v5_update_firmware(r, fw, size) : do_reflash(r, &im);
	if (rc) {
		r->update_status = rc;
		emub_dev_log(r->d, "%s.fn34: Firmware update failed, status: %d", r->rmidev,
			     rc);
	} else {
		emub_dev_log(r->d, "%s.fn34: Firmware update complete", r->rmidev);
	}
	drv_irq_disable(r->d);
	/* re-probe: on SMBus the "reset" is the version read, on I2C
	 * F01's reset command (rmi_initial_reset) */
	if (initial_reset(r) < 0)
		emub_dev_log(r->d, "RMI reset failed!");
	rc = probe_interrupts(r);
	if (!rc)
		rc = init_functions(r);
	publish_functions(r);
	if (rc)
		return rc;
	drv_irq_enable(r->d);
	process_interrupts(r); /* rmi_enable_sensor */
	return 0;
}

/* ------------------------------------------------------------ driver */

static int rmi_probe_on(struct emub_dev *d, bool i2c)
{
	struct rmi_data *r = g_new0(struct rmi_data, 1);
	struct emub_input_desc in = {
		.phys = "",
		.bustype = BUS_RMI_ID,
		.vendor = SYNAPTICS_VENDOR,
		.evbits = 1u << EV_SYN,
	};
	char name[32];
	int v, rc;

	r->d = d;
	r->addr = d->chip->desc->addr;
	r->i2c = i2c;
	r->page = -1;
	g_free(d->priv);
	d->priv = r;
	if (i2c) {
		/* rmi_i2c_probe: plain I2C, the supplies, page 0 */
		if (d->chip->ad->desc.smbus_only) {
			emub_dev_log(d, "adapter does not support required functionality");
			rc = -ENODEV;
			goto fail;
		}
		drv_regulator(d, true);
		if ((rc = i2c_set_page(r, 0))) {
			emub_dev_log(d, "Failed to set page select to 0");
			goto fail_power;
		}
		emub_dev_log(d, "registering I2C-connected sensor");
		goto registered;
	}
	/* rmi_smbus gets no platform data from a board; the emulator's
	 * client stands for psmouse's, which always has them */
	if (!drv_adapter_host_notify(d)) {
		emub_dev_log(d, "adapter does not support required functionality");
		rc = -ENODEV;
		goto fail;
	}
	drv_regulator(d, true);
	v = smb_get_version(r);
	if (v < 0) {
		rc = v;
		goto fail_power;
	}
	if (v != 2 && v != 3) {
		emub_dev_log(d, "Unrecognized SMB version %d", v);
		rc = -ENODEV;
		goto fail_power;
	}
	emub_dev_log(d, "registering SMbus-connected sensor");
registered:
	snprintf(r->rmidev, sizeof(r->rmidev), "rmi4-%02u", rmi_devices++);
	/* rmi_driver_probe */
	if (initial_reset(r) < 0)
		emub_dev_log(d, "RMI initial reset failed! Continuing in spite of this.");
	if (rmi_read(r, PDT_PROPS, &r->pdt_props))
		r->pdt_props = 0;
	if ((rc = probe_interrupts(r)) || (rc = init_functions(r)))
		goto fail_power;
	set_attrs(r, true);
	publish_functions(r);
	snprintf(name, sizeof(name), "Synaptics %s", r->product_id);
	in.name = name;
	in.parent = r->rmidev;
	if (r->nr_fingers) {
		/* rmi_2d_sensor_configure_input with no platform data: F11
		 * takes the sensor for a touchscreen (input_mt_init_slots with
		 * INPUT_MT_DIRECT: BTN_TOUCH, INPUT_PROP_DIRECT), the MT axes
		 * with pressure, touch ellipse, orientation and tool type, and
		 * the single-touch copies.  The capabilities as Debian's 6.1
		 * rmi_core showed them for this model in the VM (abs
		 * 6f3800001000003, key BTN_TOUCH, properties 2). */
		in.evbits |= 1u << EV_KEY | 1u << EV_ABS;
		in.keybits_word5 = 1ull << (BTN_TOUCH - 0x140);
		in.propbits = 1u << INPUT_PROP_DIRECT;
		drv_input_set_abs(&in, ABS_MT_POSITION_X, 0, r->max_x);
		drv_input_set_abs(&in, ABS_MT_POSITION_Y, 0, r->max_y);
		drv_input_set_abs(&in, ABS_MT_PRESSURE, 0, 0xff);
		drv_input_set_abs(&in, ABS_MT_TOUCH_MAJOR, 0, 0x0f);
		drv_input_set_abs(&in, ABS_MT_TOUCH_MINOR, 0, 0x0f);
		drv_input_set_abs(&in, ABS_MT_ORIENTATION, 0, 1);
		drv_input_set_abs(&in, ABS_MT_TOOL_TYPE, 0, 2);
		drv_input_set_abs(&in, ABS_MT_SLOT, 0, r->nr_fingers - 1);
		drv_input_set_abs(&in, ABS_MT_TRACKING_ID, 0, TRKID_MAX);
		drv_input_set_abs(&in, ABS_X, 0, r->max_x);
		drv_input_set_abs(&in, ABS_Y, 0, r->max_y);
		drv_input_set_abs(&in, ABS_PRESSURE, 0, 0xff);
	}
	if (drv_fault_no_input(d))
		emub_dev_log(d, "fault: input device not registered");
	else if ((rc = drv_input_register(d, &in)))
		goto fail_attrs;
	/* rmi_irq_init: rmi_smbus's Host Notify interrupt, rmi_i2c's the
	 * client's own (level low unless the board says) */
	if ((rc = i2c ? drv_irq_request(d) : drv_irq_request_host_notify(d))) {
		emub_dev_log(d, "%s: Failed to register interrupt", r->rmidev);
		goto fail_attrs;
	}
	if (i2c)
		drv_irq_enable(d);
	process_interrupts(r);
	return 0;

fail_attrs:
	drv_input_unregister(d); /* rmi4-NN's devres, before rmi4-NN goes */
	drv_attrs_remove(d);
fail_power:
	emub_dev_log(d, "failed to register sensor: %d", rc);
	drv_devm_release(d);
	return rc;
fail:
	drv_free_priv(d);
	return rc;
}

/* rmi_smb_remove: rmi_unregister_transport_device, whose rmi_driver_remove
 * and devres take the input device away before rmi4-NN is deleted */
static void rmi_remove(struct emub_dev *d)
{
	drv_irq_disable(d);
	drv_input_unregister(d);
	drv_attrs_remove(d);
	drv_devm_release(d);
}

static void rmi_irq(struct emub_dev *d)
{
	struct rmi_data *r = data_of(d);

	if (r)
		process_interrupts(r);
}

static int rmi_attr_write(struct emub_dev *d, const char *attr, const char *buf, size_t len)
{
	struct rmi_data *r = data_of(d);
	char fw_name[256], upd[32];
	guint8 *fw = NULL;
	gsize size = 0;
	size_t n = len;
	int rc;

	if (!r)
		return 0;
	snprintf(upd, sizeof(upd), "%s/update_fw", r->rmidev);
	if (strcmp(attr, upd))
		return 0;
	if (!len || len >= sizeof(fw_name))
		return drv_update_fw_done(d, -EINVAL);
	if (buf[len - 1] == '\n' || buf[len - 1] == '\0')
		n--;
	memcpy(fw_name, buf, n);
	fw_name[n] = 0;
	rc = drv_request_firmware(d, fw_name, &fw, &size);
	if (rc)
		return drv_update_fw_done(d, rc);
	emub_dev_log(d, "%s: Flashing %s", r->rmidev, fw_name);
	r->in_update = true;
	rc = firmware_update(r, fw, size);
	r->in_update = false;
	g_free(fw);
	set_attrs(r, false);
	return drv_update_fw_done(d, rc);
}

static int rmi_probe(struct emub_dev *d)
{
	return rmi_probe_on(d, false);
}

static int rmi_i2c_probe(struct emub_dev *d)
{
	return rmi_probe_on(d, true);
}

const struct emub_driver_ops emub_drv_rmi_i2c = {
	.name = "rmi4_i2c",
	.i2c_ids = (const char *const[]){ "rmi4_i2c", NULL },
	.of_match = (const char *const[]){ "syna,rmi4-i2c", NULL },
	.probe = rmi_i2c_probe,
	.remove = rmi_remove,
	.attr_write = rmi_attr_write,
	.irq = rmi_irq,
	.destroy = drv_free_priv,
};

const struct emub_driver_ops emub_drv_rmi_smbus = {
	.name = "rmi4_smbus",
	.i2c_ids = (const char *const[]){ "rmi4_smbus", NULL },
	.probe = rmi_probe,
	.remove = rmi_remove,
	.attr_write = rmi_attr_write,
	.irq = rmi_irq,
	.destroy = drv_free_priv,
};
