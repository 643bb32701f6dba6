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
 * Not modelled: the SMBus transport, trackpoints, touch reports, quirks,
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
};

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

/* elan_query_product + the rest of __elan_initialize (pattern 0 paths) */
static int __elan_initialize(struct elan_tp_data *data)
{
	guint8 val[3];
	int error = elan_i2c_initialize(data);

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

	if ((error = elan_i2c_prepare_fw_update(data)))
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
			error = elan_i2c_write_fw_block(data, page, checksum, i);
		} while (error && --retry > 0);
		if (error) {
			emub_dev_log(data->d, "write page %d fail: %d", i, error);
			return error;
		}
		sw_checksum = (guint16)(sw_checksum + checksum);
	}
	drv_msleep(data->d, 600);
	if ((error = elan_i2c_finish_fw_update(data)))
		return error;
	if ((error = elan_i2c_read_cmd(data, ETP_I2C_IAP_CHECKSUM_CMD, val)))
		return error;
	fw_checksum = em_get_le16(val);
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
	if (d->chip->ad->desc.smbus_only) {
		emub_dev_log(d, "not a supported I2C/SMBus adapter (SMBus not modelled)");
		error = -EIO;
		goto fail;
	}
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
	error = drv_irq_request(d);
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
fail:
	drv_free_priv(d);
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
	.probe = elan_probe,
	.remove = elan_remove,
	.attr_write = elan_attr_write,
	.irq = elan_isr,
	.destroy = drv_free_priv,
};
