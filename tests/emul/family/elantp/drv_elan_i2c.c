// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model of the elan_i2c kernel driver (Elan touchpads) over i2c, written
 * from drivers/input/mouse/elan_i2c_core.c and elan_i2c_i2c.c function by
 * function, independent of touchfw's agent.  What user space sees is what
 * the real driver gives: probe fails on any initialisation error (a
 * touchpad left in IAP gets no driver); the attributes product_id,
 * firmware_version, sample_version, iap_version ("%d.0"), fw_checksum
 * ("0x%04x"), mode, update_fw and calibrate; update_fw requests
 * elan_i2c_<product_id>.0.bin, refuses a file without the signature
 * (-EBADF), writes the pages from the image's IAP start with their sums,
 * waits for the reset, compares the chip's IAP checksum, re-initialises --
 * and keeps its input device.  The write to update_fw returns when that
 * is done, with its error (drvcore.c, the shim's ATTRWRITE), as the
 * kernel's store does; the result is also logged and kept for the tests.
 *
 * On an adapter without plain I2C (I2C_FUNC_I2C) it takes the SMBus
 * transport, as elan_probe picks elan_smbus_ops (elan_i2c_smbus.c): the
 * hello packet, the unique id read as product id, sample version and ic
 * type at once, update_fw through the flash key, the password and the IAP
 * reset, pages as two 32-byte blocks with no sum, no wait for an
 * interrupt after the last; its interrupt is the adapter's SMBus Host
 * Notify where the adapter has one (psmouse makes the client with
 * I2C_CLIENT_HOST_NOTIFY), else the board's INT line.
 *
 * Not modelled: trackpoints, touch reports, quirks,
 * touchscreen-* properties, the baseline group, the button key bits,
 * suspend/resume; ic types
 * other than the chip model's (pattern 0, ic type 0x08 here).
 */
#include <errno.h>
#include <linux/input.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emub-priv.h"

#define ETP_I2C_RESET 0x0100
#define ETP_I2C_WAKE_UP 0x0800
#define ETP_I2C_DESC_CMD 0x0001
#define ETP_I2C_REPORT_DESC_CMD 0x0002
#define ETP_I2C_STAND_CMD 0x0005
#define ETP_I2C_PATTERN_CMD 0x0100
#define ETP_I2C_UNIQUEID_CMD 0x0101
#define ETP_I2C_FW_VERSION_CMD 0x0102
#define ETP_I2C_OSM_VERSION_CMD 0x0103
#define ETP_I2C_NSM_VERSION_CMD 0x0104
#define ETP_I2C_XY_TRACENUM_CMD 0x0105
#define ETP_I2C_MAX_X_AXIS_CMD 0x0106
#define ETP_I2C_MAX_Y_AXIS_CMD 0x0107
#define ETP_I2C_PRESSURE_CMD 0x010a
#define ETP_I2C_IAP_VERSION_CMD 0x0110
#define ETP_I2C_SET_CMD 0x0300
#define ETP_I2C_FW_CHECKSUM_CMD 0x030f
#define ETP_I2C_IAP_CTRL_CMD 0x0310
#define ETP_I2C_IAP_CMD 0x0311
#define ETP_I2C_IAP_RESET_CMD 0x0314
#define ETP_I2C_IAP_CHECKSUM_CMD 0x0315
#define ETP_I2C_REPORT_LEN 34
#define ETP_I2C_DESC_LENGTH 30
#define ETP_I2C_REPORT_DESC_LENGTH 158
#define ETP_I2C_INF_LENGTH 2
#define ETP_I2C_IAP_PASSWORD 0x1ea5
#define ETP_I2C_IAP_RESET 0xf0f0
#define ETP_I2C_MAIN_MODE_ON (1 << 9)
#define ETP_ENABLE_ABS 0x0001
#define ETP_IAP_START_ADDR 0x0083
#define ETP_FW_IAP_PAGE_ERR (1 << 5)
#define ETP_FW_IAP_INTF_ERR (1 << 4)
#define ETP_FW_PAGE_SIZE 64
#define ETP_FW_SIGNATURE_SIZE 6
#define ETP_RETRY_COUNT 3
#define ETP_MAX_PRESSURE 255
#define ETP_MAX_FINGERS 5

enum tp_mode { IAP_MODE = 1, MAIN_MODE };

struct elan_tp_data {
	struct emub_dev *d;
	guint16 addr;
	guint16 product_id, ic_type, fw_checksum, fw_validpage_count, fw_page_size;
	guint8 pattern, fw_version, sm_version, iap_version, clickpad, mode;
	guint32 fw_signature_address;
	unsigned int max_x, max_y;
	bool in_fw_update;
	unsigned int fw_completion;
	bool smbus; /* elan_smbus_ops, not elan_i2c_ops */
};

#define ETP_SMBUS_IAP_CMD 0x00
#define ETP_SMBUS_ENABLE_TP 0x20
#define ETP_SMBUS_IAP_PASSWORD_WRITE 0x29
#define ETP_SMBUS_IAP_PASSWORD_READ 0x80
#define ETP_SMBUS_WRITE_FW_BLOCK 0x2a
#define ETP_SMBUS_IAP_RESET_CMD 0x2b
#define ETP_SMBUS_RANGE_CMD 0xa0
#define ETP_SMBUS_FW_VERSION_CMD 0xa1
#define ETP_SMBUS_XY_TRACENUM_CMD 0xa2
#define ETP_SMBUS_UNIQUEID_CMD 0xa3 /* also ETP_SMBUS_SM_VERSION_CMD */
#define ETP_SMBUS_RESOLUTION_CMD 0xa4
#define ETP_SMBUS_HELLOPACKET_CMD 0xa7
#define ETP_SMBUS_PACKET_QUERY 0xa8
#define ETP_SMBUS_IAP_VERSION_CMD 0xac
#define ETP_SMBUS_IAP_CTRL_CMD 0xad
/* elan_smbus_get_checksum reads 0xAE for the firmware checksum and 0xAF
 * for the IAP one (its macro names say the opposite) */
#define ETP_SMBUS_FW_SUM_READ 0xae
#define ETP_SMBUS_IAP_SUM_READ 0xaf
#define ETP_SMBUS_HELLOPACKET_LEN 5
#define ETP_SMBUS_IAP_PASSWORD 0x1234
#define ETP_SMBUS_IAP_MODE_ON (1 << 6)
#define SMB_BLOCK_MAX 32

static struct elan_tp_data *data_of(struct emub_dev *d)
{
	return d->priv;
}

static int elan_i2c_read_block(struct elan_tp_data *data, guint16 reg, guint8 *val, guint16 len)
{
	guint8 buf[2] = { (guint8)reg, (guint8)(reg >> 8) };
	struct em_msg msgs[2] = {
		{ .addr = data->addr, .flags = 0, .len = 2, .buf = buf },
		{ .addr = data->addr, .flags = EM_MSG_RD, .len = len, .buf = val },
	};
	int ret = drv_i2c_transfer(data->d, msgs, 2);

	return ret == 2 ? 0 : (ret < 0 ? ret : -EIO);
}

static int elan_i2c_read_cmd(struct elan_tp_data *data, guint16 reg, guint8 *val)
{
	int ret = elan_i2c_read_block(data, reg, val, ETP_I2C_INF_LENGTH);

	if (ret < 0)
		emub_dev_log(data->d, "reading cmd (0x%04x) fail.", reg);
	return ret;
}

static int elan_i2c_write_cmd(struct elan_tp_data *data, guint16 reg, guint16 cmd)
{
	guint8 buf[4] = { (guint8)reg, (guint8)(reg >> 8), (guint8)cmd, (guint8)(cmd >> 8) };
	struct em_msg msg = { .addr = data->addr, .flags = 0, .len = 4, .buf = buf };
	int ret = drv_i2c_transfer(data->d, &msg, 1);

	if (ret != 1) {
		if (ret >= 0)
			ret = -EIO;
		emub_dev_log(data->d, "writing cmd (0x%04x) failed: %d", reg, ret);
		return ret;
	}
	return 0;
}

static int elan_i2c_initialize(struct elan_tp_data *data)
{
	guint8 val[256];
	int error = elan_i2c_write_cmd(data, ETP_I2C_STAND_CMD, ETP_I2C_RESET);

	if (error)
		return error;
	drv_msleep(data->d, 100);
	error = drv_i2c_master_recv(data->d, data->addr, val, ETP_I2C_INF_LENGTH);
	if (error < 0)
		return error;
	error = elan_i2c_read_block(data, ETP_I2C_DESC_CMD, val, ETP_I2C_DESC_LENGTH);
	if (error)
		return error;
	return elan_i2c_read_block(data, ETP_I2C_REPORT_DESC_CMD, val,
				   ETP_I2C_REPORT_DESC_LENGTH);
}

/* ------------------------------------------------------------ SMBus transport */

/* i2c_smbus_read_block_data: the count, or -errno */
static int smb_read_block(struct elan_tp_data *data, guint8 cmd, guint8 *val)
{
	guint8 b[1 + SMB_BLOCK_MAX];
	struct em_msg m[2] = {
		{ .addr = data->addr, .flags = 0, .len = 1, .buf = &cmd },
		{ .addr = data->addr, .flags = EM_MSG_RD, .len = sizeof(b), .buf = b },
	};
	int rc = drv_smbus_transfer(data->d, m, 2);

	if (rc < 0)
		return rc;
	if (!b[0] || b[0] > SMB_BLOCK_MAX)
		return -EPROTO;
	memcpy(val, b + 1, b[0]);
	return b[0];
}

static int smb_write_block(struct elan_tp_data *data, guint8 cmd, const guint8 *buf, guint8 len)
{
	guint8 b[2 + SMB_BLOCK_MAX];
	struct em_msg m = { .addr = data->addr,
			    .flags = 0,
			    .len = (guint16)(len + 2),
			    .buf = b };
	int rc;

	b[0] = cmd;
	b[1] = len;
	memcpy(b + 2, buf, len);
	rc = drv_smbus_transfer(data->d, &m, 1);
	return rc < 0 ? rc : 0;
}

static int smb_write_byte(struct elan_tp_data *data, guint8 cmd)
{
	struct em_msg m = { .addr = data->addr, .flags = 0, .len = 1, .buf = &cmd };
	int rc = drv_smbus_transfer(data->d, &m, 1);

	return rc < 0 ? rc : 0;
}

static int smb_iap_cmd(struct elan_tp_data *data, guint8 a, guint8 b, guint8 c, guint8 d)
{
	guint8 cmd[4] = { a, b, c, d };

	return smb_write_block(data, ETP_SMBUS_IAP_CMD, cmd, sizeof(cmd));
}

static int elan_smbus_initialize(struct elan_tp_data *data)
{
	static const guint8 check[ETP_SMBUS_HELLOPACKET_LEN] = { 0x55, 0x55, 0x55, 0x55, 0x55 };
	guint8 values[SMB_BLOCK_MAX] = { 0 };
	int len = smb_read_block(data, ETP_SMBUS_HELLOPACKET_CMD, values), error;

	if (len != ETP_SMBUS_HELLOPACKET_LEN) {
		emub_dev_log(data->d, "hello packet length fail: %d", len);
		return len < 0 ? len : -EIO;
	}
	if (memcmp(values, check, sizeof(check))) {
		emub_dev_log(data->d, "hello packet fail");
		return -ENXIO;
	}
	error = smb_write_byte(data, ETP_SMBUS_ENABLE_TP);
	if (error)
		emub_dev_log(data->d, "failed to enable touchpad: %d", error);
	return error;
}

/* __elan_initialize over SMBus: the product query reads one command */
static int elan_smbus_init_query(struct elan_tp_data *data)
{
	guint8 val[SMB_BLOCK_MAX] = { 0 };
	int error = elan_smbus_initialize(data);

	if (error) {
		emub_dev_log(data->d, "device initialize failed: %d", error);
		return error;
	}
	if ((error = smb_read_block(data, ETP_SMBUS_UNIQUEID_CMD, val)) < 0) {
		emub_dev_log(data->d, "failed to get product ID: %d", error);
		return error;
	}
	data->product_id = (guint16)(val[0] << 8 | val[1]);
	data->pattern = 0; /* elan_smbus_get_pattern */
	memset(val, 0, sizeof(val));
	if ((error = smb_read_block(data, ETP_SMBUS_UNIQUEID_CMD, val)) < 0) {
		emub_dev_log(data->d, "failed to get SM version: %d", error);
		return error;
	}
	data->sm_version = val[0];
	data->ic_type = val[1];
	data->clickpad = val[0] & 0x10;
	data->mode |= ETP_ENABLE_ABS;
	error = smb_iap_cmd(data, 0x00, 0x07, 0x00, data->mode);
	if (error)
		emub_dev_log(data->d, "failed to switch to absolute mode: %d", error);
	return error; /* sleep_control(false) is a no-op on SMBus */
}

static int smb_get_version(struct elan_tp_data *data, bool iap, guint8 *version)
{
	guint8 val[SMB_BLOCK_MAX] = { 0 };
	int error = smb_read_block(data,
				   iap ? ETP_SMBUS_IAP_VERSION_CMD : ETP_SMBUS_FW_VERSION_CMD,
				   val);

	if (error < 0) {
		emub_dev_log(data->d, "failed to get %s version: %d", iap ? "IAP" : "FW",
			     error);
		return error;
	}
	*version = val[2];
	return 0;
}

static int smb_get_checksum(struct elan_tp_data *data, bool iap, guint16 *csum)
{
	guint8 val[SMB_BLOCK_MAX] = { 0 };
	int error = smb_read_block(data, iap ? ETP_SMBUS_IAP_SUM_READ : ETP_SMBUS_FW_SUM_READ,
				   val);

	if (error < 0) {
		emub_dev_log(data->d, "failed to get %s checksum: %d", iap ? "IAP" : "FW",
			     error);
		return error;
	}
	*csum = (guint16)(val[0] << 8 | val[1]);
	return 0;
}

/* get_max, get_num_traces, get_resolution: three bytes each */
static int smb_get3(struct elan_tp_data *data, guint8 cmd, const char *what, guint8 *val)
{
	int ret = smb_read_block(data, cmd, val);

	if (ret != 3) {
		ret = ret < 0 ? ret : -EIO;
		emub_dev_log(data->d, "failed to get %s: %d", what, ret);
		return ret;
	}
	return 0;
}

static int elan_smbus_query_parameters(struct elan_tp_data *data)
{
	guint8 val[SMB_BLOCK_MAX] = { 0 };
	int error;

	if ((error = smb_get3(data, ETP_SMBUS_RANGE_CMD, "dimensions", val)))
		return error;
	data->max_x = (unsigned int)((0x0f & val[0]) << 8 | val[1]);
	data->max_y = (unsigned int)((0xf0 & val[0]) << 4 | val[2]);
	if ((error = smb_get3(data, ETP_SMBUS_XY_TRACENUM_CMD, "trace info", val)))
		return error;
	return smb_get3(data, ETP_SMBUS_RESOLUTION_CMD, "resolution", val);
}

static int elan_smbus_iap_get_mode(struct elan_tp_data *data, enum tp_mode *mode)
{
	guint8 val[SMB_BLOCK_MAX] = { 0 };
	int error = smb_read_block(data, ETP_SMBUS_IAP_CTRL_CMD, val);

	if (error < 0) {
		emub_dev_log(data->d, "failed to read iap ctrol register: %d", error);
		return error;
	}
	*mode = ((val[0] << 8 | val[1]) & ETP_SMBUS_IAP_MODE_ON) ? IAP_MODE : MAIN_MODE;
	return 0;
}

static int elan_smbus_iap_reset(struct elan_tp_data *data)
{
	int error = smb_write_byte(data, ETP_SMBUS_IAP_RESET_CMD);

	if (error)
		emub_dev_log(data->d, "cannot reset IC: %d", error);
	return error;
}

static int elan_smbus_set_flash_key(struct elan_tp_data *data)
{
	int error = smb_iap_cmd(data, 0x00, 0x0b, 0x00, 0x5a);

	if (error)
		emub_dev_log(data->d, "cannot set flash key: %d", error);
	return error;
}

static int elan_smbus_prepare_fw_update(struct elan_tp_data *data)
{
	guint8 val[SMB_BLOCK_MAX] = { 0 };
	enum tp_mode mode;
	guint16 password;
	int len, error;

	if ((error = elan_smbus_iap_get_mode(data, &mode)))
		return error;
	if (mode == MAIN_MODE) {
		if ((error = elan_smbus_set_flash_key(data)))
			return error;
		if (smb_write_byte(data, ETP_SMBUS_IAP_PASSWORD_WRITE) < 0) {
			emub_dev_log(data->d, "cannot write iap password");
			return -EIO;
		}
		if ((error = smb_iap_cmd(data, 0x0f, 0x78, 0x00, 0x06))) {
			emub_dev_log(data->d, "failed to write iap password: %d", error);
			return error;
		}
		len = smb_read_block(data, ETP_SMBUS_IAP_PASSWORD_READ, val);
		if (len < 2) {
			error = len < 0 ? len : -EIO;
			emub_dev_log(data->d, "failed to read iap password: %d", error);
			return error;
		}
		password = (guint16)(val[0] << 8 | val[1]);
		if (password != ETP_SMBUS_IAP_PASSWORD) {
			emub_dev_log(data->d, "wrong iap password = 0x%X", password);
			return -EIO;
		}
		drv_msleep(data->d, 30);
	}
	if ((error = elan_smbus_set_flash_key(data)))
		return error;
	return elan_smbus_iap_reset(data);
}

static int elan_smbus_write_fw_block(struct elan_tp_data *data, const guint8 *page, int idx)
{
	guint8 val[SMB_BLOCK_MAX] = { 0 };
	guint8 half = (guint8)(data->fw_page_size / 2);
	guint16 result;
	int error, part;

	for (part = 0; part < 2; part++) {
		error = smb_write_block(data, ETP_SMBUS_WRITE_FW_BLOCK, page + part * half,
					half);
		if (error) {
			emub_dev_log(data->d, "Failed to write page %d (part %d): %d", idx,
				     part + 1, error);
			return error;
		}
	}
	drv_usleep(data->d, 8000);
	error = smb_read_block(data, ETP_SMBUS_IAP_CTRL_CMD, val);
	if (error < 0) {
		emub_dev_log(data->d, "Failed to read IAP write result: %d", error);
		return error;
	}
	result = (guint16)(val[0] << 8 | val[1]);
	if (result & (ETP_FW_IAP_PAGE_ERR | ETP_FW_IAP_INTF_ERR)) {
		emub_dev_log(data->d, "IAP reports failed write: %04hx", result);
		return -EIO;
	}
	return 0;
}

/* elan_query_product + the rest of __elan_initialize (pattern 0 paths) */
static int __elan_initialize(struct elan_tp_data *data)
{
	guint8 val[3];
	int error;

	if (data->smbus)
		return elan_smbus_init_query(data);
	error = elan_i2c_initialize(data);
	if (error) {
		emub_dev_log(data->d, "device initialize failed: %d", error);
		return error;
	}
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_UNIQUEID_CMD, val)))
		return error;
	data->product_id = em_get_le16(val);
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_PATTERN_CMD, val)))
		return error;
	data->pattern = val[1];
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_OSM_VERSION_CMD, val)))
		return error;
	data->sm_version = val[0];
	data->ic_type = val[1];
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_NSM_VERSION_CMD, val)))
		return error;
	data->clickpad = val[0] & 0x10;
	data->mode |= ETP_ENABLE_ABS;
	if ((error = elan_i2c_write_cmd(data, ETP_I2C_SET_CMD, data->mode)))
		return error;
	return elan_i2c_write_cmd(data, ETP_I2C_STAND_CMD, ETP_I2C_WAKE_UP);
}

static int elan_initialize(struct elan_tp_data *data)
{
	int repeat = ETP_RETRY_COUNT, error;

	do {
		error = __elan_initialize(data);
		if (!error)
			return 0;
		drv_msleep(data->d, 30);
	} while (--repeat > 0);
	return error;
}

/* elan_get_fwinfo for the ic types of 512 pages, IAP version 0 */
static int elan_get_fwinfo(struct elan_tp_data *data)
{
	switch (data->ic_type) {
	case 0x00:
	case 0x06:
	case 0x08:
		data->fw_validpage_count = 512;
		break;
	default:
		data->fw_validpage_count = 0;
		data->fw_signature_address = 0;
		data->fw_page_size = 0;
		return -ENXIO;
	}
	data->fw_signature_address = (guint32)data->fw_validpage_count * ETP_FW_PAGE_SIZE -
				     ETP_FW_SIGNATURE_SIZE;
	data->fw_page_size = ETP_FW_PAGE_SIZE;
	return 0;
}

static int elan_query_device_info(struct elan_tp_data *data)
{
	guint8 val[3];
	int error;

	if (data->smbus) {
		if ((error = smb_get_version(data, false, &data->fw_version)) ||
		    (error = smb_get_checksum(data, false, &data->fw_checksum)) ||
		    (error = smb_get_version(data, true, &data->iap_version)))
			return error;
		goto fwinfo;
	}
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_PATTERN_CMD, val)))
		return error;
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_FW_VERSION_CMD, val)))
		return error;
	data->fw_version = val[0];
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_FW_CHECKSUM_CMD, val)))
		return error;
	data->fw_checksum = em_get_le16(val);
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_IAP_VERSION_CMD, val)))
		return error;
	data->iap_version = val[0];
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_PRESSURE_CMD, val)))
		return error;
fwinfo:
	if (elan_get_fwinfo(data))
		emub_dev_log(data->d,
			     "unexpected iap version %#04x (ic type: %#04x), firmware "
			     "update will not work",
			     data->iap_version, data->ic_type);
	return 0;
}

static int elan_query_device_parameters(struct elan_tp_data *data)
{
	guint8 val[3];
	int error;

	if (data->smbus)
		return elan_smbus_query_parameters(data);
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_MAX_X_AXIS_CMD, val)))
		return error;
	data->max_x = em_get_le16(val) & 0x0fff;
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_MAX_Y_AXIS_CMD, val)))
		return error;
	data->max_y = em_get_le16(val) & 0x0fff;
	return elan_i2c_read_cmd(data, ETP_I2C_XY_TRACENUM_CMD, val);
}

static void set_attrs(struct elan_tp_data *data, bool add)
{
	char v[24];

#define ATTR(name, fmt, val)                                          \
	do {                                                          \
		snprintf(v, sizeof(v), fmt "\n", val);                \
		if (add)                                              \
			drv_attr_add(data->d, name, v, false, false); \
		else                                                  \
			drv_attr_set(data->d, name, v, false);        \
	} while (0)
	ATTR("product_id", "%d.0", data->product_id);
	ATTR("firmware_version", "%d.0", data->fw_version);
	ATTR("sample_version", "%d.0", data->sm_version);
	ATTR("iap_version", "%d.0", data->iap_version);
	ATTR("fw_checksum", "0x%04x", data->fw_checksum);
	ATTR("mode", "%d", MAIN_MODE);
#undef ATTR
	if (add) {
		drv_attr_add(data->d, "calibrate", "", true, false);
		drv_attr_add(data->d, "update_fw", "", true, false);
	}
}

static int elan_i2c_iap_get_mode(struct elan_tp_data *data, enum tp_mode *mode)
{
	guint8 val[3];
	int error = elan_i2c_read_cmd(data, ETP_I2C_IAP_CTRL_CMD, val);

	if (error)
		return error;
	*mode = (em_get_le16(val) & ETP_I2C_MAIN_MODE_ON) ? MAIN_MODE : IAP_MODE;
	return 0;
}

static int elan_i2c_prepare_fw_update(struct elan_tp_data *data)
{
	enum tp_mode mode;
	guint8 val[3];
	int error;

	if ((error = elan_i2c_iap_get_mode(data, &mode)))
		return error;
	if (mode == IAP_MODE) {
		if ((error = elan_i2c_write_cmd(data, ETP_I2C_IAP_RESET_CMD,
						ETP_I2C_IAP_RESET)))
			return error;
		drv_msleep(data->d, 30);
	}
	if ((error = elan_i2c_write_cmd(data, ETP_I2C_IAP_CMD, ETP_I2C_IAP_PASSWORD)))
		return error;
	drv_msleep(data->d, mode == MAIN_MODE ? 100 : 30);
	if ((error = elan_i2c_iap_get_mode(data, &mode)))
		return error;
	if (mode == MAIN_MODE) {
		emub_dev_log(data->d, "wrong mode: %d", mode);
		return -EIO;
	}
	if ((error = elan_i2c_write_cmd(data, ETP_I2C_IAP_CMD, ETP_I2C_IAP_PASSWORD)))
		return error;
	drv_msleep(data->d, 30);
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_IAP_CMD, val)))
		return error;
	if (em_get_le16(val) != ETP_I2C_IAP_PASSWORD) {
		emub_dev_log(data->d, "wrong iap password: 0x%X", em_get_le16(val));
		return -EIO;
	}
	return 0;
}

static int elan_i2c_write_fw_block(struct elan_tp_data *data, const guint8 *page,
				   guint16 checksum, int idx)
{
	guint8 page_store[ETP_FW_PAGE_SIZE + 4], val[3];
	guint16 result;
	int ret, error;

	page_store[0] = 0x01;
	page_store[1] = 0x06;
	memcpy(&page_store[2], page, ETP_FW_PAGE_SIZE);
	page_store[ETP_FW_PAGE_SIZE + 2] = (guint8)checksum;
	page_store[ETP_FW_PAGE_SIZE + 3] = (guint8)(checksum >> 8);
	ret = drv_i2c_master_send(data->d, data->addr, page_store, sizeof(page_store));
	if (ret != sizeof(page_store)) {
		error = ret < 0 ? ret : -EIO;
		emub_dev_log(data->d, "Failed to write page %d: %d", idx, error);
		return error;
	}
	drv_msleep(data->d, 20);
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_IAP_CTRL_CMD, val)))
		return error;
	result = em_get_le16(val);
	if (result & (ETP_FW_IAP_PAGE_ERR | ETP_FW_IAP_INTF_ERR)) {
		emub_dev_log(data->d, "IAP reports failed write: %04hx", result);
		return -EIO;
	}
	return 0;
}

static int elan_i2c_finish_fw_update(struct elan_tp_data *data)
{
	guint8 buffer[ETP_I2C_REPORT_LEN];
	int error, len;

	len = drv_i2c_master_recv(data->d, data->addr, buffer, ETP_I2C_REPORT_LEN);
	if (len != ETP_I2C_REPORT_LEN)
		emub_dev_log(data->d, "failed to read I2C data after FW WDT reset: %d", len);
	data->fw_completion = 0;
	drv_irq_enable(data->d);
	error = elan_i2c_write_cmd(data, ETP_I2C_STAND_CMD, ETP_I2C_RESET);
	if (!error && drv_wait_completion(data->d, &data->fw_completion, 300)) {
		emub_dev_log(data->d, "timeout waiting for device reset");
		error = -ETIMEDOUT;
	}
	drv_irq_disable(data->d);
	if (error)
		return error;
	len = drv_i2c_master_recv(data->d, data->addr, buffer, ETP_I2C_INF_LENGTH);
	if (len != ETP_I2C_INF_LENGTH)
		return len < 0 ? len : -EIO;
	return 0;
}

static int __elan_update_firmware(struct elan_tp_data *data, const guint8 *fw)
{
	guint16 iap_start_addr, boot_page_count, sw_checksum = 0, fw_checksum;
	guint8 val[3];
	int i, j, error, retry;

	if ((error = data->smbus ? elan_smbus_prepare_fw_update(data)
				 : elan_i2c_prepare_fw_update(data)))
		return error;
	iap_start_addr = em_get_le16(&fw[ETP_IAP_START_ADDR * 2]);
	boot_page_count = (guint16)((iap_start_addr * 2) / data->fw_page_size);
	for (i = boot_page_count; i < data->fw_validpage_count; i++) {
		const guint8 *page = &fw[i * data->fw_page_size];
		guint16 checksum = 0;

		for (j = 0; j < data->fw_page_size; j += 2)
			checksum = (guint16)(checksum + ((page[j + 1] << 8) | page[j]));
		retry = ETP_RETRY_COUNT;
		do {
			error = data->smbus ? elan_smbus_write_fw_block(data, page, i)
					    : elan_i2c_write_fw_block(data, page, checksum, i);
		} while (error && --retry > 0);
		if (error) {
			emub_dev_log(data->d, "write page %d fail: %d", i, error);
			return error;
		}
		sw_checksum = (guint16)(sw_checksum + checksum);
	}
	drv_msleep(data->d, 600);
	if (data->smbus) {
		/* elan_smbus_finish_fw_update: nothing to wait for */
		if ((error = smb_get_checksum(data, true, &fw_checksum)))
			return error;
	} else {
		if ((error = elan_i2c_finish_fw_update(data)))
			return error;
		if ((error = elan_i2c_read_cmd(data, ETP_I2C_IAP_CHECKSUM_CMD, val)))
			return error;
		fw_checksum = em_get_le16(val);
	}
	if (sw_checksum != fw_checksum) {
		emub_dev_log(data->d, "checksum diff sw=[%04X], fw=[%04X]", sw_checksum,
			     fw_checksum);
		return -EIO;
	}
	return 0;
}

static int elan_sysfs_update_fw(struct elan_tp_data *data)
{
	static const guint8 signature[] = { 0xaa, 0x55, 0xcc, 0x33, 0xff, 0xff };
	char fw_name[64];
	guint8 *fw = NULL;
	gsize size = 0;
	int error;

	if (data->fw_validpage_count == 0)
		return -EINVAL;
	snprintf(fw_name, sizeof(fw_name), "elan_i2c_%d.0.bin", data->product_id);
	emub_dev_log(data->d, "requesting fw '%s'", fw_name);
	error = drv_request_firmware(data->d, fw_name, &fw, &size);
	if (error) {
		emub_dev_log(data->d, "failed to request firmware: %d", error);
		return error;
	}
	/* The kernel reads past a short file here; the model refuses it as a
	 * signature mismatch instead. */
	if (size < (gsize)data->fw_validpage_count * data->fw_page_size ||
	    memcmp(&fw[data->fw_signature_address], signature, sizeof(signature))) {
		emub_dev_log(data->d, "signature mismatch");
		g_free(fw);
		return -EBADF;
	}
	drv_irq_disable(data->d);
	data->in_fw_update = true;
	error = __elan_update_firmware(data, fw);
	if (error) {
		emub_dev_log(data->d, "firmware update failed: %d", error);
		if (data->smbus)
			elan_smbus_iap_reset(data);
		else
			elan_i2c_write_cmd(data, ETP_I2C_IAP_RESET_CMD, ETP_I2C_IAP_RESET);
	} else {
		elan_initialize(data);
		elan_query_device_info(data);
	}
	data->in_fw_update = false;
	drv_irq_enable(data->d);
	g_free(fw);
	return error;
}

static int elan_probe(struct emub_dev *d)
{
	struct elan_tp_data *data = g_new0(struct elan_tp_data, 1);
	struct emub_input_desc in = {
		.name = "Elan Touchpad",
		.phys = "",
		.bustype = BUS_I2C,
		.vendor = 0x04f3,
		.evbits = 1u << EV_SYN | 1u << EV_KEY | 1u << EV_ABS,
	};
	guint8 dummy;
	struct em_msg probe_msg = { .flags = EM_MSG_RD, .len = 1, .buf = &dummy };
	int error;

	data->d = d;
	data->addr = d->chip->desc->addr;
	g_free(d->priv);
	d->priv = data;
	/* elan_probe: I2C_FUNC_I2C picks elan_i2c_ops, else the SMBus
	 * functions (byte data, block data, i2c block: every emulated SMBus
	 * adapter has them) elan_smbus_ops */
	data->smbus = d->chip->ad->desc.smbus_only;
	drv_regulator(d, true);
	probe_msg.addr = data->addr;
	if (drv_smbus_transfer(d, &probe_msg, 1) < 0) {
		emub_dev_log(d, "nothing at this address");
		error = -ENXIO;
		goto fail_power;
	}
	if ((error = elan_initialize(data)) || (error = elan_query_device_info(data)) ||
	    (error = elan_query_device_parameters(data)))
		goto fail_power;
	emub_dev_log(d,
		     "Elan Touchpad: Module ID: 0x%04x, Firmware: 0x%04x, Sample: 0x%04x, "
		     "IAP: 0x%04x",
		     data->product_id, data->fw_version, data->sm_version, data->iap_version);
	in.product = data->product_id;
	/* BTN_LEFT/BTN_RIGHT: key bits of that word are not modelled */
	in.propbits |= 1u << INPUT_PROP_POINTER;
	if (data->clickpad)
		in.propbits |= 1u << INPUT_PROP_BUTTONPAD;
	drv_input_set_abs(&in, ABS_X, 0, (int)data->max_x);
	drv_input_set_abs(&in, ABS_Y, 0, (int)data->max_y);
	drv_input_set_abs(&in, ABS_PRESSURE, 0, ETP_MAX_PRESSURE);
	drv_input_set_abs(&in, ABS_DISTANCE, 0, 1);
	drv_input_set_abs(&in, ABS_MT_POSITION_X, 0, (int)data->max_x);
	drv_input_set_abs(&in, ABS_MT_POSITION_Y, 0, (int)data->max_y);
	drv_input_set_abs(&in, ABS_MT_PRESSURE, 0, ETP_MAX_PRESSURE);
	drv_input_set_abs(&in, ABS_MT_SLOT, 0, ETP_MAX_FINGERS - 1);
	drv_input_set_abs(&in, ABS_MT_TRACKING_ID, 0, TRKID_MAX);
	if (drv_fault_no_input(d))
		emub_dev_log(d, "fault: input device not registered");
	else if ((error = drv_input_register(d, &in)))
		goto fail_power;
	/* client->irq: psmouse's SMBus companion gets it from Host Notify */
	error = data->smbus && drv_adapter_host_notify(d) ? drv_irq_request_host_notify(d)
							  : drv_irq_request(d);
	if (error) {
		emub_dev_log(d, "Could not register interrupt");
		goto fail_power;
	}
	drv_irq_enable(d);
	set_attrs(data, true);
	return 0;

fail_power:
	drv_devm_release(d); /* the input device, the regulators, the data */
	return error;
}

static void elan_remove(struct emub_dev *d)
{
	drv_irq_disable(d);
	drv_attrs_remove(d);
	drv_devm_release(d);
}

/* elan_isr(): during an update it only completes the reset wait */
static void elan_isr(struct emub_dev *d)
{
	struct elan_tp_data *data = data_of(d);
	guint8 report[ETP_I2C_REPORT_LEN];

	if (!data)
		return;
	if (data->in_fw_update) {
		data->fw_completion++;
		return;
	}
	if (data->smbus)
		smb_read_block(data, ETP_SMBUS_PACKET_QUERY, report);
	else
		drv_i2c_master_recv(d, data->addr, report, ETP_I2C_REPORT_LEN);
}

static int elan_attr_write(struct emub_dev *d, const char *attr, const char *buf, size_t len)
{
	struct elan_tp_data *data = data_of(d);
	int result;

	(void)buf;
	(void)len;
	if (!data || strcmp(attr, "update_fw"))
		return 0;
	result = elan_sysfs_update_fw(data);
	set_attrs(data, false);
	/* The store returns when the update is over: its error, else the
	 * byte count (attr_write's 0), as sysfs gives it to the writer. */
	return drv_update_fw_done(d, result);
}

static const char *const elan_of_match[] = { "elan,ekth6915", NULL };
/* include/linux/input/elan-i2c-ids.h elan_acpi_id[]: its first entries */
static const char *const elan_acpi_match[] = { "ELAN0000", "ELAN0100", "ELAN0600", NULL };

const struct emub_driver_ops emub_drv_elan_i2c = {
	.name = "elan_i2c",
	.of_match = elan_of_match,
	.acpi_match = elan_acpi_match,
	/* elan_id[]: psmouse names its SMBus companion so */
	.i2c_ids = (const char *const[]){ "elan_i2c", NULL },
	.probe = elan_probe,
	.remove = elan_remove,
	.attr_write = elan_attr_write,
	.irq = elan_isr,
	.destroy = drv_free_priv,
};
