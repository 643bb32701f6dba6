// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model of the elants_i2c kernel driver (Elan touchscreens), written from
 * drivers/input/touchscreen/elants_i2c.c function by function, independent
 * of touchfw's agent and of the chip model's helpers: its bus transactions
 * go through the emulated adapter, its sleeps take model time.  What user
 * space sees is what the real driver gives:
 *  - probe binds in recovery mode too (elants_i2c_initialize always
 *    returns 0 and only marks the mode), with an input device whose
 *    ABS_MT_POSITION_X/Y maxima are 0 (nothing was queried), and the
 *    attributes update_fw, iap_mode ("Normal"/"Recovery"), calibrate and
 *    fw_version, hw_version, test_version, solution_version (4 hex
 *    digits), bc_version, iap_version (2 hex digits);
 *  - a write to update_fw requests elants_i2c_%04x.bin (hw_version),
 *    refuses a size that is not a multiple of 132, flashes it (forced IAP
 *    in recovery), re-initialises and calibrates -- but keeps its input
 *    device as it was: the new ranges show only after a rebind;
 *  - a failed IAP leaves the driver bound with iap_mode Recovery and the
 *    chip as the failure left it (no reset, no re-initialisation): the
 *    next write to update_fw takes the forced path (54 00 12 34, no
 *    reset first), which only a chip running its boot code answers;
 *  - probe and remove switch the supplies and the reset line only where a
 *    reset GPIO is wired (elants_i2c_power_on/_off); without one a rebind
 *    reaches the chip only through elants_i2c_initialize's soft reset.
 * The write to update_fw returns when that is done, with its error
 * (drvcore.c, the shim's ATTRWRITE), as write_update_fw does; the result
 * is also logged and kept for the tests.
 *
 * Not modelled: the remark id check (bc versions below 0x60 here), i2c-hid
 * detection, eKTF3624, touch reports, suspend/resume.
 */
#include <errno.h>
#include <linux/input.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emub-priv.h"

#define CMD_HEADER_WRITE 0x54
#define CMD_HEADER_READ 0x53
#define CMD_HEADER_6B_READ 0x5b
#define CMD_HEADER_ROM_READ 0x96
#define CMD_HEADER_RESP 0x52
#define CMD_HEADER_6B_RESP 0x9b
#define CMD_HEADER_ROM_RESP 0x95
#define CMD_HEADER_REK 0x66
#define HEADER_SIZE 4
#define MAX_RETRIES 3
#define MAX_FW_UPDATE_RETRIES 30
#define ELAN_FW_PAGESIZE 132
#define BOOT_TIME_DELAY_MS 50
#define ELAN_CALI_TIMEOUT_MSEC 12000
#define MAX_PACKET_SIZE 169
#define MAX_CONTACT_NUM 10

#define E_ELAN_INFO_FW_VER 0x00
#define E_ELAN_INFO_BC_VER 0x10
#define E_ELAN_INFO_TEST_VER 0xe0
#define E_ELAN_INFO_FW_ID 0xf0
#define E_INFO_OSR 0xd6
#define E_INFO_PHY_SCAN 0xd7
#define E_INFO_PHY_DRIVER 0xd8

enum elants_state { ELAN_STATE_NORMAL, ELAN_WAIT_RECALIBRATION };
enum elants_iap_mode { ELAN_IAP_OPERATIONAL, ELAN_IAP_RECOVERY };

struct elants_data {
	struct emub_dev *d;
	guint16 addr;
	guint16 fw_version, hw_version;
	guint8 test_version, solution_version, bc_version, iap_version;
	unsigned int x_max, y_max;
	enum elants_state state;
	enum elants_iap_mode iap_mode;
	guint8 cmd_resp[HEADER_SIZE];
	unsigned int cmd_done;
	bool have_reset_gpio;
};

static struct elants_data *data_of(struct emub_dev *d)
{
	return d->priv;
}

static int elants_i2c_send(struct elants_data *ts, const void *data, guint16 size)
{
	int ret = drv_i2c_master_send(ts->d, ts->addr, data, size);

	if (ret == size)
		return 0;
	if (ret >= 0)
		ret = -EIO;
	emub_dev_log(ts->d, "elants_i2c_send failed: %d", ret);
	return ret;
}

static int elants_i2c_read(struct elants_data *ts, void *data, guint16 size)
{
	int ret = drv_i2c_master_recv(ts->d, ts->addr, data, size);

	if (ret == size)
		return 0;
	if (ret >= 0)
		ret = -EIO;
	emub_dev_log(ts->d, "elants_i2c_read failed: %d", ret);
	return ret;
}

static int elants_i2c_execute_command(struct elants_data *ts, const guint8 *cmd,
				      guint16 cmd_size, guint8 *resp, guint16 resp_size,
				      int retries, const char *cmd_name)
{
	guint8 expected;
	int ret;

	switch (cmd[0]) {
	case CMD_HEADER_READ:
		expected = CMD_HEADER_RESP;
		break;
	case CMD_HEADER_6B_READ:
		expected = CMD_HEADER_6B_RESP;
		break;
	case CMD_HEADER_ROM_READ:
		expected = CMD_HEADER_ROM_RESP;
		break;
	default:
		return -EINVAL;
	}
	for (;;) {
		struct em_msg msgs[2] = {
			{ .addr = ts->addr, .flags = 0, .len = cmd_size, .buf = (guint8 *)cmd },
			{ .addr = ts->addr, .flags = EM_MSG_RD, .len = resp_size, .buf = resp },
		};

		ret = drv_i2c_transfer(ts->d, msgs, 2);
		if (ret < 0) {
			if (--retries > 0)
				continue;
			emub_dev_log(ts->d, "(%s) I2C transfer failed: %d", cmd_name, ret);
			return ret;
		}
		if (ret != 2 || resp[0] != expected) {
			if (--retries > 0)
				continue;
			emub_dev_log(ts->d, "(%s) unexpected response: %02x", cmd_name,
				     resp[0]);
			return -EIO;
		}
		return 0;
	}
}

static int elants_i2c_sw_reset(struct elants_data *ts)
{
	static const guint8 soft_rst_cmd[] = { 0x77, 0x77, 0x77, 0x77 };
	int error = elants_i2c_send(ts, soft_rst_cmd, 4);

	if (error) {
		emub_dev_log(ts->d, "software reset failed: %d", error);
		return error;
	}
	drv_msleep(ts->d, 30);
	return 0;
}

static guint16 elants_i2c_parse_version(const guint8 *buf)
{
	guint32 be = (guint32)buf[0] << 24 | (guint32)buf[1] << 16 | (guint32)buf[2] << 8 |
		     buf[3];

	return (guint16)(be >> 4);
}

static int elants_i2c_query_hw_version(struct elants_data *ts)
{
	const guint8 cmd[] = { CMD_HEADER_READ, E_ELAN_INFO_FW_ID, 0x00, 0x01 };
	guint8 resp[HEADER_SIZE];
	int retry_cnt = MAX_RETRIES, error;

	while (retry_cnt--) {
		error = elants_i2c_execute_command(ts, cmd, 4, resp, 4, 1, "read fw id");
		if (error)
			return error;
		ts->hw_version = elants_i2c_parse_version(resp);
		if (ts->hw_version != 0xffff)
			return 0;
	}
	emub_dev_log(ts->d, "Invalid fw id: %#04x", ts->hw_version);
	return -EINVAL;
}

static int elants_i2c_query_fw_version(struct elants_data *ts)
{
	const guint8 cmd[] = { CMD_HEADER_READ, E_ELAN_INFO_FW_VER, 0x00, 0x01 };
	guint8 resp[HEADER_SIZE];
	int retry_cnt = MAX_RETRIES, error;

	while (retry_cnt--) {
		error = elants_i2c_execute_command(ts, cmd, 4, resp, 4, 1, "read fw version");
		if (error)
			return error;
		ts->fw_version = elants_i2c_parse_version(resp);
		if (ts->fw_version != 0x0000 && ts->fw_version != 0xffff)
			return 0;
	}
	emub_dev_log(ts->d, "Invalid fw ver: %#04x", ts->fw_version);
	return -EINVAL;
}

static int elants_i2c_query_test_version(struct elants_data *ts)
{
	const guint8 cmd[] = { CMD_HEADER_READ, E_ELAN_INFO_TEST_VER, 0x00, 0x01 };
	guint8 resp[HEADER_SIZE];
	guint16 version;
	int error = elants_i2c_execute_command(ts, cmd, 4, resp, 4, MAX_RETRIES,
					       "read test version");

	if (error)
		return error;
	version = elants_i2c_parse_version(resp);
	ts->test_version = version >> 8;
	ts->solution_version = version & 0xff;
	return 0;
}

static int elants_i2c_query_bc_version(struct elants_data *ts)
{
	const guint8 cmd[] = { CMD_HEADER_READ, E_ELAN_INFO_BC_VER, 0x00, 0x01 };
	guint8 resp[HEADER_SIZE];
	guint16 version;
	int error = elants_i2c_execute_command(ts, cmd, 4, resp, 4, 1, "read BC version");

	if (error)
		return error;
	version = elants_i2c_parse_version(resp);
	ts->bc_version = version >> 8;
	ts->iap_version = version & 0xff;
	return 0;
}

/* elants_i2c_query_ts_info_ekth() */
static int elants_i2c_query_ts_info(struct elants_data *ts)
{
	const guint8 res_cmd[] = { CMD_HEADER_6B_READ, 0, 0, 0, 0, 0 };
	const guint8 osr_cmd[] = { CMD_HEADER_READ, E_INFO_OSR, 0x00, 0x01 };
	const guint8 scan_cmd[] = { CMD_HEADER_READ, E_INFO_PHY_SCAN, 0x00, 0x01 };
	const guint8 drive_cmd[] = { CMD_HEADER_READ, E_INFO_PHY_DRIVER, 0x00, 0x01 };
	guint8 resp[17];
	guint16 rows, cols, osr;
	int error;

	error = elants_i2c_execute_command(ts, res_cmd, 6, resp, 17, 1, "get resolution");
	if (error)
		return error;
	rows = resp[2] + resp[6] + resp[10];
	cols = resp[3] + resp[7] + resp[11];
	error = elants_i2c_execute_command(ts, osr_cmd, 4, resp, 17, 1, "get osr");
	if (error)
		return error;
	osr = resp[3];
	error = elants_i2c_execute_command(ts, scan_cmd, 4, resp, 17, 1, "get physical scan");
	if (error)
		return error;
	error = elants_i2c_execute_command(ts, drive_cmd, 4, resp, 17, 1, "get physical drive");
	if (error)
		return error;
	if (rows == 0 || cols == 0 || osr == 0) {
		emub_dev_log(ts->d, "invalid trace number data: %d, %d, %d", rows, cols, osr);
	} else {
		ts->x_max = (unsigned int)(rows - 1) * osr;
		ts->y_max = (unsigned int)(cols - 1) * osr;
	}
	return 0;
}

static int elants_i2c_fastboot(struct elants_data *ts)
{
	static const guint8 boot_cmd[] = { 0x4d, 0x61, 0x69, 0x6e };
	int error = elants_i2c_send(ts, boot_cmd, 4);

	if (error)
		emub_dev_log(ts->d, "boot failed: %d", error);
	return error;
}

static int elants_i2c_initialize(struct elants_data *ts)
{
	static const guint8 hello_packet[] = { 0x55, 0x55, 0x55, 0x55 };
	static const guint8 recov_packet[] = { 0x55, 0x55, 0x80, 0x80 };
	guint8 buf[HEADER_SIZE];
	int error = 0, error2, retry_cnt;

	for (retry_cnt = 0; retry_cnt < MAX_RETRIES; retry_cnt++) {
		error = elants_i2c_sw_reset(ts);
		if (error && retry_cnt < MAX_RETRIES - 1)
			continue;
		error = elants_i2c_fastboot(ts);
		if (error && retry_cnt < MAX_RETRIES - 1)
			continue;
		drv_msleep(ts->d, BOOT_TIME_DELAY_MS);
		error = elants_i2c_read(ts, buf, sizeof(buf));
		if (error) {
			emub_dev_log(ts->d, "failed to read 'hello' packet: %d", error);
		} else if (!memcmp(buf, hello_packet, 4)) {
			ts->iap_mode = ELAN_IAP_OPERATIONAL;
			break;
		} else if (!memcmp(buf, recov_packet, 4)) {
			error = -EIO; /* marks recovery below */
			break;
		} else {
			error = -EINVAL;
			emub_dev_log(ts->d, "invalid 'hello' packet: %02x %02x %02x %02x",
				     buf[0], buf[1], buf[2], buf[3]);
		}
	}
	/* hw version is available even if device in recovery state */
	error2 = elants_i2c_query_hw_version(ts);
	if (!error2)
		error2 = elants_i2c_query_bc_version(ts);
	if (!error)
		error = error2;
	if (!error)
		error = elants_i2c_query_fw_version(ts);
	if (!error)
		error = elants_i2c_query_test_version(ts);
	if (!error)
		error = elants_i2c_query_ts_info(ts);
	if (error)
		ts->iap_mode = ELAN_IAP_RECOVERY;
	return 0;
}

/*
 * The attributes show the driver's fields as they are now; @add creates
 * them with their content (a sysfs attribute is never seen empty).
 */
static void set_attrs(struct elants_data *ts, bool add)
{
	char v[16];
	const char *mode = ts->iap_mode == ELAN_IAP_OPERATIONAL ? "Normal\n" : "Recovery\n";

	if (add) {
		drv_attr_add(ts->d, "calibrate", "", true, false);
		drv_attr_add(ts->d, "update_fw", "", true, false);
		drv_attr_add(ts->d, "iap_mode", mode, false, false);
	} else {
		drv_attr_set(ts->d, "iap_mode", mode, false);
	}
#define ATTR(name, width)                                                    \
	do {                                                                 \
		snprintf(v, sizeof(v), "%0*x\n", width, (unsigned)ts->name); \
		if (add)                                                     \
			drv_attr_add(ts->d, #name, v, false, false);         \
		else                                                         \
			drv_attr_set(ts->d, #name, v, false);                \
	} while (0)
	ATTR(fw_version, 4);
	ATTR(hw_version, 4);
	ATTR(test_version, 2);
	ATTR(solution_version, 2);
	ATTR(bc_version, 2);
	ATTR(iap_version, 2);
#undef ATTR
}

static int elants_i2c_fw_write_page(struct elants_data *ts, const guint8 *page)
{
	static const guint8 ack_ok[] = { 0xaa, 0xaa };
	guint8 buf[2];
	int retry, error = 0;

	for (retry = 0; retry < MAX_FW_UPDATE_RETRIES; retry++) {
		error = elants_i2c_send(ts, page, ELAN_FW_PAGESIZE);
		if (error)
			continue;
		error = elants_i2c_read(ts, buf, 2);
		if (error)
			return error;
		if (!memcmp(buf, ack_ok, 2))
			return 0;
		error = -EIO;
		emub_dev_log(ts->d, "IAP Get Ack Error [%02x:%02x]", buf[0], buf[1]);
	}
	return error;
}

static int elants_i2c_do_update_firmware(struct elants_data *ts, const guint8 *fw, gsize size,
					 bool force)
{
	static const guint8 enter_iap[] = { 0x45, 0x49, 0x41, 0x50 };
	static const guint8 enter_iap2[] = { 0x54, 0x00, 0x12, 0x34 };
	static const guint8 iap_ack[] = { 0x55, 0xaa, 0x33, 0xcc };
	static const guint8 close_idle[] = { 0x54, 0x2c, 0x01, 0x01 };
	guint8 buf[HEADER_SIZE], send_id;
	gsize page, n_fw_pages;
	int error;

	/* elants_i2c_should_check_remark_id: false below boot code 0x60 */
	if (ts->iap_version >= 0x60)
		emub_dev_log(ts->d, "remark id check not modelled (iap version %02x)",
			     ts->iap_version);
	if (force) {
		error = elants_i2c_send(ts, enter_iap2, 4);
		if (error) {
			emub_dev_log(ts->d, "failed to enter IAP mode: %d", error);
			return error;
		}
	} else {
		error = elants_i2c_send(ts, close_idle, 4);
		if (error)
			emub_dev_log(ts->d, "Failed close idle: %d", error);
		drv_msleep(ts->d, 60);
		elants_i2c_sw_reset(ts);
		drv_msleep(ts->d, 20);
		error = elants_i2c_send(ts, enter_iap, 4);
		if (error) {
			emub_dev_log(ts->d, "failed to enter IAP mode: %d", error);
			return error;
		}
	}
	drv_msleep(ts->d, 20);
	error = elants_i2c_read(ts, buf, 4);
	if (error)
		return error;
	if (memcmp(buf, iap_ack, 4)) {
		emub_dev_log(ts->d, "failed to enter IAP: %02x %02x %02x %02x", buf[0], buf[1],
			     buf[2], buf[3]);
		return -EIO;
	}
	emub_dev_log(ts->d, "successfully entered IAP mode");
	send_id = (guint8)ts->addr;
	error = elants_i2c_send(ts, &send_id, 1);
	if (error)
		return error;
	/* Clear the last page of Master */
	error = elants_i2c_send(ts, fw, ELAN_FW_PAGESIZE);
	if (error)
		return error;
	error = elants_i2c_read(ts, buf, 2);
	if (error)
		return error;
	n_fw_pages = size / ELAN_FW_PAGESIZE;
	for (page = 0; page < n_fw_pages; page++) {
		error = elants_i2c_fw_write_page(ts, fw + page * ELAN_FW_PAGESIZE);
		if (error) {
			emub_dev_log(ts->d, "failed to write FW page %zu: %d", page, error);
			return error;
		}
	}
	drv_msleep(ts->d, 300);
	emub_dev_log(ts->d, "firmware update completed");
	return 0;
}

static int elants_i2c_calibrate(struct elants_data *ts)
{
	static const guint8 w_flashkey[] = { CMD_HEADER_WRITE, 0xc0, 0xe1, 0x5a };
	static const guint8 rek[] = { CMD_HEADER_WRITE, 0x29, 0x00, 0x01 };
	static const guint8 rek_resp[] = { CMD_HEADER_REK, 0x66, 0x66, 0x66 };
	int ret;

	drv_irq_disable(ts->d);
	ts->state = ELAN_WAIT_RECALIBRATION;
	ts->cmd_done = 0;
	elants_i2c_send(ts, w_flashkey, 4);
	elants_i2c_send(ts, rek, 4);
	drv_irq_enable(ts->d);
	ret = drv_wait_completion(ts->d, &ts->cmd_done, ELAN_CALI_TIMEOUT_MSEC);
	ts->state = ELAN_STATE_NORMAL;
	if (ret) {
		emub_dev_log(ts->d, "error while waiting for calibration to complete: %d", ret);
		return ret;
	}
	if (memcmp(rek_resp, ts->cmd_resp, 4)) {
		emub_dev_log(ts->d, "unexpected calibration response");
		return -EINVAL;
	}
	return 0;
}

static int elants_i2c_fw_update(struct elants_data *ts)
{
	char fw_name[64];
	guint8 *fw = NULL;
	gsize size = 0;
	int error;

	snprintf(fw_name, sizeof(fw_name), "elants_i2c_%04x.bin", ts->hw_version);
	emub_dev_log(ts->d, "requesting fw name = %s", fw_name);
	error = drv_request_firmware(ts->d, fw_name, &fw, &size);
	if (error) {
		emub_dev_log(ts->d, "failed to request firmware: %d", error);
		return error;
	}
	if (size % ELAN_FW_PAGESIZE) {
		emub_dev_log(ts->d, "invalid firmware length: %zu", size);
		error = -EINVAL;
		goto out;
	}
	drv_irq_disable(ts->d);
	error = elants_i2c_do_update_firmware(ts, fw, size, ts->iap_mode == ELAN_IAP_RECOVERY);
	if (error) {
		emub_dev_log(ts->d, "firmware update failed: %d", error);
		ts->iap_mode = ELAN_IAP_RECOVERY;
		goto out_enable_irq;
	}
	error = elants_i2c_initialize(ts);
	if (error) {
		ts->iap_mode = ELAN_IAP_RECOVERY;
		goto out_enable_irq;
	}
	/* as the driver does: operational whatever the hello said */
	ts->iap_mode = ELAN_IAP_OPERATIONAL;
out_enable_irq:
	ts->state = ELAN_STATE_NORMAL;
	drv_irq_enable(ts->d);
	drv_msleep(ts->d, 100);
	if (!error)
		elants_i2c_calibrate(ts);
out:
	g_free(fw);
	return error;
}

/* elants_i2c_power_off(), the devm action: with a reset GPIO, reset
 * asserted and the regulators off; without one nothing (the chip keeps its
 * power and whatever state it is in, IAP included). */
static void elants_i2c_power_off(struct elants_data *ts)
{
	if (ts->have_reset_gpio) {
		drv_reset_gpio_set(ts->d, 1);
		drv_regulator(ts->d, false);
	}
}

static int elants_i2c_probe(struct emub_dev *d)
{
	struct elants_data *ts = g_new0(struct elants_data, 1);
	struct emub_input_desc in = {
		.name = "Elan Touchscreen",
		.phys = "",
		.bustype = BUS_I2C,
		.evbits = 1u << EV_SYN | 1u << EV_KEY | 1u << EV_ABS,
	};
	guint8 dummy;
	struct em_msg probe_msg = { .flags = EM_MSG_RD, .len = 1, .buf = &dummy };
	int error;

	ts->d = d;
	ts->addr = d->chip->desc->addr;
	g_free(d->priv);
	d->priv = ts;
	if (d->chip->ad->desc.smbus_only) {
		emub_dev_log(d, "I2C check functionality error");
		error = -ENXIO;
		goto fail;
	}
	error = drv_reset_gpio_get(d, &ts->have_reset_gpio);
	if (error) {
		emub_dev_log(d, "failed to get reset gpio: %d", error);
		goto fail;
	}
	/* elants_i2c_power_on: without a reset GPIO it touches nothing (the
	 * platform powers the chip); with one: regulators, 5 ms, reset
	 * released, 20 ms. */
	if (ts->have_reset_gpio) {
		drv_regulator(d, true);
		drv_usleep(d, 5000);
		drv_reset_gpio_set(d, 0);
		drv_msleep(d, 20);
	}
	/* Make sure there is something at this address */
	probe_msg.addr = ts->addr;
	if (drv_smbus_transfer(d, &probe_msg, 1) < 0) {
		emub_dev_log(d, "nothing at this address");
		error = -ENXIO;
		goto fail_power;
	}
	elants_i2c_initialize(ts);
	if (ts->iap_mode == ELAN_IAP_RECOVERY)
		emub_dev_log(d, "the chip is in recovery mode (iap_mode Recovery)");

	drv_input_set_abs(&in, ABS_MT_POSITION_X, 0, (int)ts->x_max);
	drv_input_set_abs(&in, ABS_MT_POSITION_Y, 0, (int)ts->y_max);
	drv_input_set_abs(&in, ABS_MT_TOUCH_MAJOR, 0, 255);
	drv_input_set_abs(&in, ABS_MT_PRESSURE, 0, 255);
	drv_input_set_abs(&in, ABS_MT_TOOL_TYPE, 0, MT_TOOL_PALM);
	/* input_mt_init_slots(INPUT_MT_DIRECT | INPUT_MT_DROP_UNUSED) */
	drv_input_mt_init_direct(&in, MAX_CONTACT_NUM);
	drv_input_set_abs(&in, ABS_X, 0, (int)ts->x_max);
	drv_input_set_abs(&in, ABS_Y, 0, (int)ts->y_max);
	in.version = ts->fw_version;
	if (drv_fault_no_input(d)) {
		emub_dev_log(d, "fault: input device not registered");
	} else {
		error = drv_input_register(d, &in);
		if (error) {
			emub_dev_log(d, "unable to register input device: %d", error);
			goto fail_power;
		}
	}
	error = drv_irq_request(d);
	if (error) {
		emub_dev_log(d, "Failed to register interrupt");
		goto fail_power;
	}
	drv_irq_enable(d);
	/* devm_device_add_group(&elants_attribute_group) */
	set_attrs(ts, true);
	return 0;

fail_power:
	/* devres: the input device (if registered), the devm action
	 * elants_i2c_power_off */
	drv_input_unregister(d);
	elants_i2c_power_off(ts);
fail:
	drv_free_priv(d);
	return error;
}

static void elants_i2c_remove(struct emub_dev *d)
{
	struct elants_data *ts = data_of(d);

	drv_irq_disable(d);
	drv_attrs_remove(d);
	drv_input_unregister(d);
	if (ts)
		elants_i2c_power_off(ts);
	drv_free_priv(d);
}

/* elants_i2c_irq(): only what calibration waits for is modelled */
static void elants_i2c_irq(struct emub_dev *d)
{
	struct elants_data *ts = data_of(d);
	guint8 buf[MAX_PACKET_SIZE];

	if (!ts || elants_i2c_read(ts, buf, sizeof(buf)))
		return;
	if (ts->state == ELAN_WAIT_RECALIBRATION && buf[0] == CMD_HEADER_REK) {
		memcpy(ts->cmd_resp, buf, sizeof(ts->cmd_resp));
		ts->cmd_done++;
		ts->state = ELAN_STATE_NORMAL;
	}
}

static int elants_attr_write(struct emub_dev *d, const char *attr, const char *buf, size_t len)
{
	struct elants_data *ts = data_of(d);
	int result;

	(void)buf;
	(void)len;
	if (!ts)
		return 0;
	if (!strcmp(attr, "calibrate")) {
		/* calibrate_store(): the error, else the byte count */
		return elants_i2c_calibrate(ts);
	}
	if (strcmp(attr, "update_fw"))
		return 0;
	result = elants_i2c_fw_update(ts);
	set_attrs(ts, false);
	/* The store returns when the update is over: its error, else the
	 * byte count (attr_write's 0), as sysfs gives it to the writer. */
	return drv_update_fw_done(d, result);
}

static const char *const elants_of_match[] = { "elan,ekth3500", "elan,ektf3624", NULL };
/* elants_i2c.c elants_acpi_id[] */
static const char *const elants_acpi_match[] = { "ELAN0001", NULL };

const struct emub_driver_ops emub_drv_elants = {
	.name = "elants_i2c",
	.of_match = elants_of_match,
	.acpi_match = elants_acpi_match,
	.probe = elants_i2c_probe,
	.remove = elants_i2c_remove,
	.attr_write = elants_attr_write,
	.irq = elants_i2c_irq,
	.destroy = drv_free_priv,
};
