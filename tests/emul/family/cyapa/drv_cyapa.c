// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model of the cyapa kernel driver (Cypress APA trackpads, module
 * cyapatp) over i2c for Gen3 parts, written from drivers/input/mouse/cyapa.c
 * and cyapa_gen3.c function by function, independent of touchfw's agent.
 * What user space sees is what the real driver gives:
 *  - probe reads the state (3 bytes at 0), launches the application from
 *    an idle bootloader (after reading the version the bootloader shows),
 *    sets full power, reads the query block, checks generation 3 and the
 *    "CYTRA" product id, powers the trackpad off until it is used and
 *    registers "Cypress APA Trackpad (cyapa)"; a trackpad that stays in
 *    its bootloader (no valid application) binds all the same ("device
 *    detected but not operational") without an input device;
 *  - the attributes firmware_version ("%d.%d"), product_id, mode ("gen3
 *    operational", "gen3 bootloader idle", ...), update_fw, calibrate,
 *    baseline;
 *  - update_fw takes the file name written (one trailing newline cut),
 *    unregisters the input device, checks the file (30848 bytes, header
 *    and image sums: -EINVAL), soft-resets into the bootloader, initiates
 *    it (2 s, then polls up to 11 s), writes the 480 application blocks
 *    and then the 2 header blocks (each 78-byte command in five writes,
 *    polled while busy), then re-detects: terminate, launch, a new input
 *    device.  The write returns when that is done, with its error.
 *
 *  - Gen5 (PIP, cyapa_gen5.c): detection by the HID descriptor and the
 *    system information (or the bootloader's information), launch from
 *    the bootloader, power states by deep sleep and the power command,
 *    mode "gen5 operational" / "gen5 bootloader"; update_fw checks the
 *    image (cyapa_pip_check_fw, with bounds the kernel leaves to the
 *    file), enters the bootloader, initiates it with the image's
 *    metadata row and writes every other record as a row, commands
 *    answered on the interrupt (enabled for the update) or polled as the
 *    kernel does each.
 *
 *  - Gen6 (PIP, cyapa_gen6.c): detected as Gen5 parts are, told apart by
 *    the family and silicon ids of the system information (or the
 *    bootloader's information); its own power commands (0x41/0x42 the
 *    command interrupt, 0x46 the power state, 0x48 the scan intervals,
 *    a ping before waking), system information layout and the
 *    bootloader's application information; mode "gen6 operational" /
 *    "gen6 bootloader"; update_fw as Gen5's (cyapa_gen6_ops takes the
 *    PIP check, bl_enter, bl_initiate and do_fw_update), the image's head
 *    naming a Gen6 part (family id 0x9b, silicon id 0x0b).
 *
 * Not modelled: the SMBus transport (an SMBus-only adapter fails probe
 * here), Gen6's low-power modes and scan-interval setting (0x47), the old Gen5 state
 * parser (cyapa_gen5_state_parse, reached only where cyapa_pip_state_parse
 * fails), Gen5 calibrate and baseline, runtime PM and suspend, the
 * power/ scan rate attributes, input open/close (the emulator's evdev
 * has no open hook, so the interrupt, which cyapa enables only while the
 * input device is open, stays off and touches are not reported here; the
 * VM scenario kmod-cyapa-driver covers them with the real driver), and
 * the I/O a read of baseline does (the file is empty here).
 */
#include <errno.h>
#include <linux/input.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emub-priv.h"

#define CYAPA_NAME "Cypress APA Trackpad (cyapa)"
#define NAME_MAX_ 255

enum cyapa_state {
	CYAPA_STATE_NO_DEVICE,
	CYAPA_STATE_BL_BUSY,
	CYAPA_STATE_BL_IDLE,
	CYAPA_STATE_BL_ACTIVE,
	CYAPA_STATE_OP,
	CYAPA_STATE_GEN5_BL,
	CYAPA_STATE_GEN5_APP,
	CYAPA_STATE_GEN6_BL,
	CYAPA_STATE_GEN6_APP,
};

#define CYAPA_GEN_UNKNOWN 0
#define CYAPA_GEN3 3
#define CYAPA_GEN5 5
#define CYAPA_GEN6 6

/* cyapa.h and cyapa_gen5.c: PIP */
#define CYAPA_REG_MAP_SIZE 256
#define PIP_RESP_LENGTH_SIZE 2
#define PIP_MIN_APP_CMD_LENGTH 7
#define PIP_MIN_BL_CMD_LENGTH 13
#define PIP_MIN_BL_RESP_LENGTH 11
#define PIP_MIN_APP_RESP_LENGTH 5
#define PIP_UNSUPPORTED_CMD_RESP_LENGTH 6
#define PIP_READ_SYS_INFO_RESP_LENGTH 71
#define PIP_BL_APP_INFO_RESP_LENGTH 30
#define PIP_BL_GET_INFO_RESP_LENGTH 19
#define PIP_HID_DESCRIPTOR_SIZE 32
#define PIP_HID_APP_REPORT_ID 0xf7
#define PIP_HID_BL_REPORT_ID 0xff
#define PIP_BL_CMD_REPORT_ID 0x40
#define PIP_BL_RESP_REPORT_ID 0x30
#define PIP_APP_CMD_REPORT_ID 0x2f
#define PIP_APP_RESP_REPORT_ID 0x1f
#define PIP_APP_DEEP_SLEEP_REPORT_ID 0xf0
#define PIP_DEEP_SLEEP_RESP_LENGTH 5
#define PIP_DEEP_SLEEP_OPCODE 0x08
#define PIP_DEEP_SLEEP_STATE_ON 0x00
#define PIP_DEEP_SLEEP_STATE_OFF 0x01
#define PIP_SOP_KEY 0x01
#define PIP_EOP_KEY 0x17
#define PIP_BL_CMD_PROGRAM_VERIFY_ROW 0x39
#define PIP_BL_CMD_INITIATE_BL 0x48
#define PIP_INVALID_CMD 0xff
#define PIP_BL_INITIATE_RESP_LEN 11
#define PIP_BL_FAIL_EXIT_RESP_LEN 11
#define PIP_BL_BLOCK_WRITE_RESP_LEN 11
#define PIP_SET_PROXIMITY 0x49
#define PIP_RECORD_SIZE (5 + 128) /* struct cyapa_tsg_bin_image_data_record */
#define CYAPA_TSG_MAX_CMD_SIZE 256
#define GEN5_CMD_GET_PARAMETER 0x05
#define GEN5_PARAMETER_LP_INTRVL_ID 0x4c
#define GEN5_POWER_STATE_ACTIVE 0x01
#define UNINIT_SLEEP_TIME 0xffff
#define UNINIT_PWR_MODE 0xff
#define VALID_CMD_RESP_HEADER(resp, cmd) \
	((resp)[2] == PIP_APP_RESP_REPORT_ID && (resp)[3] == 0 && ((resp)[4] & 0x7f) == (cmd))

static const guint8 pip_read_sys_info[] = { 0x04, 0x00, 0x05, 0x00, 0x2f, 0x00, 0x02 };
static const guint8 pip_bl_read_app_info[] = { 0x04, 0x00, 0x0b, 0x00, 0x40, 0x00, 0x01,
					       0x3c, 0x00, 0x00, 0xb0, 0x42, 0x17 };
static const guint8 pip_bl_cmd_key[] = { 0xa5, 0x01, 0x02, 0x03, 0xff, 0xfe, 0xfd, 0x5a };

#define BL_STATUS_SIZE 3
#define REG_OP_STATUS 0
#define REG_OP_DATA1 1
#define REG_BL_FILE 0
#define REG_BL_STATUS 1
#define REG_BL_ERROR 2
#define OP_STATUS_SRC 0x80
#define OP_DATA_VALID 0x08
#define BL_STATUS_BUSY 0x80
#define BL_STATUS_RUNNING 0x10
#define BL_STATUS_WATCHDOG 0x02
#define BL_STATUS_CSUM_VALID 0x01
#define BL_STATUS_REV_MASK (BL_STATUS_WATCHDOG | 0x0c | 0x60)
#define BL_ERROR_BOOTLOADING 0x20
#define BL_ERROR_RESERVED 0x03
#define CAPABILITY_LEFT_BTN_MASK (0x01 << 3)
#define CAPABILITY_RIGHT_BTN_MASK (0x01 << 4)
#define CAPABILITY_MIDDLE_BTN_MASK (0x01 << 5)
#define CAPABILITY_BTN_MASK \
	(CAPABILITY_LEFT_BTN_MASK | CAPABILITY_RIGHT_BTN_MASK | CAPABILITY_MIDDLE_BTN_MASK)
#define PWR_MODE_MASK 0xfc
#define PWR_MODE_FULL_ACTIVE (0x3f << 2)
#define PWR_MODE_BTN_ONLY (0x01 << 2)
#define PWR_MODE_OFF 0x00
#define CYAPA_MAX_MT_SLOTS 15

#define GEN3_MAX_FINGERS 5
#define GEN3_FINGER_NUM(x) (((x) >> 4) & 0x07)
#define QUERY_DATA_SIZE 27
#define REG_OFFSET_DATA_BASE 0x00
#define REG_OFFSET_COMMAND_BASE 0x28
#define REG_OFFSET_QUERY_BASE 0x2a
#define REG_OFFSET_POWER_MODE (REG_OFFSET_COMMAND_BASE + 1)
#define REG_OFFSET_MAX_BASELINE 0x26
#define REG_OFFSET_MIN_BASELINE 0x27
#define OP_RECALIBRATION_MASK 0x80
#define SET_POWER_MODE_TRIES 5
#define CYAPA_DEV_NORMAL 0x03
#define CYAPA_FW_BLOCK_SIZE 64
#define CYAPA_FW_HDR_START 0x0780
#define CYAPA_FW_HDR_BLOCK_COUNT 2
#define CYAPA_FW_HDR_BLOCK_START (CYAPA_FW_HDR_START / CYAPA_FW_BLOCK_SIZE)
#define CYAPA_FW_HDR_SIZE (CYAPA_FW_HDR_BLOCK_COUNT * CYAPA_FW_BLOCK_SIZE)
#define CYAPA_FW_DATA_START 0x0800
#define CYAPA_FW_DATA_BLOCK_COUNT 480
#define CYAPA_FW_DATA_BLOCK_START (CYAPA_FW_DATA_START / CYAPA_FW_BLOCK_SIZE)
#define CYAPA_FW_DATA_SIZE (CYAPA_FW_DATA_BLOCK_COUNT * CYAPA_FW_BLOCK_SIZE)
#define CYAPA_FW_SIZE (CYAPA_FW_HDR_SIZE + CYAPA_FW_DATA_SIZE)
#define CYAPA_CMD_LEN 16
#define GEN3_BL_IDLE_FW_MAJ_VER_OFFSET 0x0b
#define GEN3_BL_IDLE_FW_MIN_VER_OFFSET (GEN3_BL_IDLE_FW_MAJ_VER_OFFSET + 1)

static const guint8 security_key[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
static const guint8 bl_activate[] = { 0x00, 0xff, 0x38, 0, 1, 2, 3, 4, 5, 6, 7 };
static const guint8 bl_deactivate[] = { 0x00, 0xff, 0x3b, 0, 1, 2, 3, 4, 5, 6, 7 };
static const guint8 bl_exit[] = { 0x00, 0xff, 0xa5, 0, 1, 2, 3, 4, 5, 6, 7 };

struct cyapa {
	struct emub_dev *d;
	guint16 addr;
	enum cyapa_state state;
	guint8 status[BL_STATUS_SIZE];
	bool operational;
	char product_id[16];
	guint8 fw_maj_ver, fw_min_ver, btn_capability, gen;
	int max_abs_x, max_abs_y, physical_size_x, physical_size_y, max_z;
	bool input;
	/* Gen5 */
	guint8 platform_ver, dev_pwr_mode;
	guint16 dev_sleep_time;
	int electrodes_x, electrodes_y;
	bool irq_on; /* enabled for a command (cyapa_enable_irq_for_cmd) */
	/* struct cyapa_pip_cmd_states */
	unsigned pip_cmd_issued, pip_done;
	bool pip_irq_mode;
	guint8 pip_in_progress;
	bool (*pip_sort)(struct cyapa *, const guint8 *, int);
	guint8 *pip_resp;
	int *pip_resp_len;
	guint8 pip_irq_buf[CYAPA_REG_MAP_SIZE], pip_empty_buf[CYAPA_REG_MAP_SIZE];
};

/* crc_itu_t (lib/crc-itu-t.c): polynomial 0x1021, most significant bit
 * first */
static guint16 cyapa_pip_crc(guint16 crc, const guint8 *p, size_t n)
{
	while (n--) {
		crc ^= (guint16)(*p++ << 8);
		for (int b = 0; b < 8; b++)
			crc = (guint16)(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
	}
	return crc;
}

static struct cyapa *data_of(struct emub_dev *d)
{
	return d->priv;
}

/* ------------------------------------------------------------ transfers
 * The adapter does plain i2c: the kernel runs cyapa's SMBus calls as i2c
 * messages (i2c_smbus_xfer_emulated). */

/* i2c_smbus_read_i2c_block_data: the byte count, or -errno */
static int cyapa_i2c_reg_read_block(struct cyapa *cyapa, guint8 reg, guint8 len, guint8 *values)
{
	struct em_msg msgs[2] = {
		{ .addr = cyapa->addr, .flags = 0, .len = 1, .buf = &reg },
		{ .addr = cyapa->addr, .flags = EM_MSG_RD, .len = len, .buf = values },
	};
	int ret = drv_i2c_transfer(cyapa->d, msgs, 2);

	return ret < 0 ? ret : len;
}

/* i2c_smbus_write_i2c_block_data: 0 or -errno */
static int cyapa_i2c_reg_write_block(struct cyapa *cyapa, guint8 reg, guint8 len,
				     const guint8 *values)
{
	guint8 buf[33];
	struct em_msg msg = { .addr = cyapa->addr,
			      .flags = 0,
			      .len = (guint16)(len + 1),
			      .buf = buf };
	int ret;

	buf[0] = reg;
	memcpy(buf + 1, values, len);
	ret = drv_i2c_transfer(cyapa->d, &msg, 1);
	return ret < 0 ? ret : 0;
}

/* cyapa_i2c_read: 0 or -errno */
static int cyapa_i2c_read(struct cyapa *cyapa, guint8 reg, guint8 len, guint8 *values)
{
	int ret = cyapa_i2c_reg_read_block(cyapa, reg, len, values);

	return ret < 0 ? ret : 0;
}

/* cyapa_i2c_write: i2c_master_send of the register and the bytes */
static int cyapa_i2c_write(struct cyapa *cyapa, guint8 reg, guint8 len, const guint8 *values)
{
	return cyapa_i2c_reg_write_block(cyapa, reg, len, values);
}

/* i2c_smbus_read_byte_data / write_byte_data */
static int cyapa_read_byte(struct cyapa *cyapa, guint8 reg)
{
	guint8 v;
	int ret = cyapa_i2c_reg_read_block(cyapa, reg, 1, &v);

	return ret < 0 ? ret : v;
}

static int cyapa_write_byte(struct cyapa *cyapa, guint8 reg, guint8 value)
{
	return cyapa_i2c_reg_write_block(cyapa, reg, 1, &value);
}

/* ------------------------------------------------------------ state */

static int cyapa_gen3_state_parse(struct cyapa *cyapa, const guint8 *reg_data)
{
	cyapa->state = CYAPA_STATE_NO_DEVICE;
	if (reg_data[REG_BL_FILE] == 0x00 && reg_data[REG_BL_ERROR] == 0x00 &&
	    (reg_data[REG_BL_STATUS] == (BL_STATUS_RUNNING | BL_STATUS_CSUM_VALID) ||
	     reg_data[REG_BL_STATUS] == BL_STATUS_RUNNING)) {
		cyapa->gen = CYAPA_GEN3;
		cyapa->state = CYAPA_STATE_BL_IDLE;
	} else if (reg_data[REG_BL_FILE] == 0x00 &&
		   (reg_data[REG_BL_STATUS] & BL_STATUS_RUNNING) == BL_STATUS_RUNNING) {
		cyapa->gen = CYAPA_GEN3;
		if (reg_data[REG_BL_STATUS] & BL_STATUS_BUSY)
			cyapa->state = CYAPA_STATE_BL_BUSY;
		else if ((reg_data[REG_BL_ERROR] & BL_ERROR_BOOTLOADING) ==
			 BL_ERROR_BOOTLOADING)
			cyapa->state = CYAPA_STATE_BL_ACTIVE;
		else
			cyapa->state = CYAPA_STATE_BL_IDLE;
	} else if ((reg_data[REG_OP_STATUS] & OP_STATUS_SRC) &&
		   (reg_data[REG_OP_DATA1] & OP_DATA_VALID)) {
		if (GEN3_FINGER_NUM(reg_data[REG_OP_DATA1]) <= GEN3_MAX_FINGERS) {
			cyapa->gen = CYAPA_GEN3;
			cyapa->state = CYAPA_STATE_OP;
		}
	} else if (reg_data[REG_OP_STATUS] == 0x0C && reg_data[REG_OP_DATA1] == 0x08) {
		cyapa->gen = CYAPA_GEN3;
		cyapa->state = CYAPA_STATE_OP;
	} else if (reg_data[REG_BL_STATUS] & (BL_STATUS_RUNNING | BL_STATUS_BUSY)) {
		cyapa->gen = CYAPA_GEN3;
		cyapa->state = CYAPA_STATE_BL_BUSY;
	}
	if (cyapa->gen == CYAPA_GEN3 && cyapa->state != CYAPA_STATE_NO_DEVICE)
		return 0;
	return -EAGAIN;
}

static int cyapa_pip_state_parse(struct cyapa *cyapa);

static bool cyapa_is_pip_bl_mode(const struct cyapa *cyapa)
{
	return (cyapa->gen == CYAPA_GEN6 && cyapa->state == CYAPA_STATE_GEN6_BL) ||
	       (cyapa->gen == CYAPA_GEN5 && cyapa->state == CYAPA_STATE_GEN5_BL);
}

static bool cyapa_is_pip_app_mode(const struct cyapa *cyapa)
{
	return (cyapa->gen == CYAPA_GEN6 && cyapa->state == CYAPA_STATE_GEN6_APP) ||
	       (cyapa->gen == CYAPA_GEN5 && cyapa->state == CYAPA_STATE_GEN5_APP);
}

/* cyapa_get_state, the i2c (not SMBus) path; the old Gen5 parser is not
 * modelled (see the top) */
static int cyapa_get_state(struct cyapa *cyapa)
{
	guint8 status[BL_STATUS_SIZE], cmd[2] = { 0, 0 };
	int retries = 2, error;

	cyapa->state = CYAPA_STATE_NO_DEVICE;
	error = cyapa_i2c_reg_read_block(cyapa, 0, BL_STATUS_SIZE, status);
	if (error != BL_STATUS_SIZE)
		goto error;
	do {
		cyapa->status[0] = status[0];
		cyapa->status[1] = status[1];
		cyapa->status[2] = status[2];
		if (cyapa->gen == CYAPA_GEN_UNKNOWN || cyapa->gen == CYAPA_GEN3) {
			error = cyapa_gen3_state_parse(cyapa, status);
			if (!error)
				goto out_detected;
		}
		if (cyapa->gen == CYAPA_GEN_UNKNOWN || cyapa->gen == CYAPA_GEN5 ||
		    cyapa->gen == CYAPA_GEN6) {
			error = cyapa_pip_state_parse(cyapa);
			if (!error)
				goto out_detected;
		}
		error = cyapa_i2c_write(cyapa, 0, 2, cmd);
		if (error)
			goto error;
		drv_msleep(cyapa->d, 50);
		error = cyapa_i2c_read(cyapa, 0, BL_STATUS_SIZE, status);
		if (error)
			goto error;
		error = -EAGAIN;
	} while (--retries > 0);
	goto error;

out_detected:
	if (cyapa->state <= CYAPA_STATE_BL_BUSY)
		return -EAGAIN;
	return 0;
error:
	return error < 0 ? error : -EAGAIN;
}

static int cyapa_poll_state(struct cyapa *cyapa, unsigned int timeout)
{
	int tries = (int)timeout / 100, error;

	do {
		error = cyapa_get_state(cyapa);
		if (!error && cyapa->state > CYAPA_STATE_BL_BUSY)
			return 0;
		drv_msleep(cyapa->d, 100);
	} while (tries--);
	return (error == -EAGAIN || error == -ETIMEDOUT) ? -ETIMEDOUT : error;
}

/* ------------------------------------------------------------ gen5 (PIP)
 * cyapa_gen5.c and cyapa_gen6.c's PIP parts, for Gen5 parts: commands are
 * written as output reports and answered by reports read back, by
 * polling (irq_mode false) or on the interrupt (true, while the driver
 * has it enabled for a command). */

typedef bool (*cb_sort)(struct cyapa *, const guint8 *, int);

static int cyapa_i2c_pip_read(struct cyapa *cyapa, guint8 *buf, size_t size)
{
	int ret;

	if (!size)
		return 0;
	if (size > CYAPA_REG_MAP_SIZE)
		return -EINVAL;
	ret = drv_i2c_master_recv(cyapa->d, cyapa->addr, buf, (guint16)size);
	return ret < 0 ? ret : (int)size;
}

static int cyapa_i2c_pip_write(struct cyapa *cyapa, const guint8 *buf, size_t size)
{
	int ret = drv_i2c_master_send(cyapa->d, cyapa->addr, buf, (guint16)size);

	return ret < 0 ? ret : 0;
}

static int cyapa_empty_pip_output_data(struct cyapa *cyapa, guint8 *buf, int *len, cb_sort func)
{
	guint8 *empty = cyapa->pip_empty_buf;
	int length, report_count = 8, empty_count = 0, buf_len = 0, error = 0;

	if (len) {
		buf_len = *len < CYAPA_REG_MAP_SIZE ? *len : CYAPA_REG_MAP_SIZE;
		*len = 0;
	}
	do {
		if (empty_count > 5)
			return 0;
		error = cyapa_i2c_pip_read(cyapa, empty, PIP_RESP_LENGTH_SIZE);
		if (error < 0)
			return error;
		length = empty[0] | empty[1] << 8;
		if (length == PIP_RESP_LENGTH_SIZE) {
			empty_count++;
			continue;
		} else if (length > CYAPA_REG_MAP_SIZE) {
			return -EINVAL;
		} else if (length == 0) {
			length = PIP_RESP_LENGTH_SIZE;
			if (buf && buf_len && func && func(cyapa, empty, length)) {
				length = MIN(buf_len, length);
				memcpy(buf, empty, (size_t)length);
				*len = length;
				return 0;
			}
			continue;
		}
		error = cyapa_i2c_pip_read(cyapa, empty, (size_t)length);
		if (error < 0)
			return error;
		report_count--;
		empty_count = 0;
		length = empty[0] | empty[1] << 8;
		if (length <= PIP_RESP_LENGTH_SIZE) {
			empty_count++;
		} else if (buf && buf_len && func && func(cyapa, empty, length)) {
			length = MIN(buf_len, length);
			memcpy(buf, empty, (size_t)length);
			*len = length;
			return 0;
		}
		/* touch reports while the input device is open: not modelled
		 * (the emulator's evdev is never opened) */
		error = -EINVAL;
	} while (report_count);
	return error;
}

static int cyapa_i2c_pip_cmd_irq_sync(struct cyapa *cyapa, const guint8 *cmd, int cmd_len,
				      guint8 *resp_data, int *resp_len, unsigned timeout,
				      cb_sort func, bool irq_mode)
{
	int error, tries, length;

	if (!cmd || !cmd_len)
		return -EINVAL;
	cyapa->pip_sort = func;
	cyapa->pip_resp = resp_data;
	cyapa->pip_resp_len = resp_len;
	if (cmd_len >= PIP_MIN_APP_CMD_LENGTH && cmd[4] == PIP_APP_CMD_REPORT_ID)
		cyapa->pip_in_progress = cmd[6] & 0x7f;
	else if (cmd_len >= PIP_MIN_BL_CMD_LENGTH && cmd[4] == PIP_BL_CMD_REPORT_ID)
		cyapa->pip_in_progress = cmd[7];
	cyapa->pip_cmd_issued++;
	cyapa->pip_irq_mode = irq_mode;
	cyapa->pip_done = 0;
	error = cyapa_i2c_pip_write(cyapa, cmd, (size_t)cmd_len);
	if (error) {
		cyapa->pip_cmd_issued--;
		goto out;
	}
	if (irq_mode) {
		/* cyapa_do_i2c_pip_cmd_irq_sync: the interrupt completes it */
		error = cyapa->irq_on ? drv_wait_completion(cyapa->d, &cyapa->pip_done, timeout)
				      : (drv_msleep(cyapa->d, timeout), -ETIMEDOUT);
		if (error) {
			cyapa->pip_cmd_issued--;
			if (resp_data && resp_len && *resp_len && func) {
				error = cyapa_empty_pip_output_data(cyapa, resp_data, resp_len,
								    func);
				if (error || *resp_len == 0)
					error = error ? error : -ETIMEDOUT;
			}
		}
		goto out;
	}
	/* cyapa_do_i2c_pip_cmd_polling */
	length = resp_len ? *resp_len : 0;
	if (resp_data && resp_len && length && func) {
		tries = (int)timeout / 5;
		do {
			drv_usleep(cyapa->d, 4000);
			*resp_len = length;
			error = cyapa_empty_pip_output_data(cyapa, resp_data, resp_len, func);
			if (error || *resp_len == 0)
				continue;
			break;
		} while (--tries > 0);
		if (error || *resp_len == 0 || tries <= 0)
			error = error ? error : -ETIMEDOUT;
	}
	cyapa->pip_cmd_issued--;
out:
	cyapa->pip_sort = NULL;
	cyapa->pip_resp = NULL;
	cyapa->pip_resp_len = NULL;
	cyapa->pip_in_progress = PIP_INVALID_CMD;
	return error;
}

static bool cyapa_sort_tsg_pip_bl_resp_data(struct cyapa *cyapa, const guint8 *data, int len)
{
	(void)cyapa;
	return data && len >= PIP_MIN_BL_RESP_LENGTH && data[2] == PIP_BL_RESP_REPORT_ID &&
	       data[3] == 0 && data[4] == PIP_SOP_KEY;
}

static bool cyapa_sort_tsg_pip_app_resp_data(struct cyapa *cyapa, const guint8 *data, int len)
{
	int resp_len;

	if (!data || len < PIP_MIN_APP_RESP_LENGTH)
		return false;
	if (data[2] == PIP_APP_RESP_REPORT_ID && data[3] == 0) {
		resp_len = data[0] | data[1] << 8;
		if ((data[4] & 0x7f) == 0x00 && resp_len == PIP_UNSUPPORTED_CMD_RESP_LENGTH &&
		    data[5] == cyapa->pip_in_progress)
			return false;
		if ((data[4] & 0x7f) == cyapa->pip_in_progress)
			return true;
	}
	return false;
}

static bool cyapa_sort_pip_application_launch_data(struct cyapa *cyapa, const guint8 *buf,
						   int len)
{
	(void)cyapa;
	return buf && len >= PIP_RESP_LENGTH_SIZE && buf[0] == 0 && buf[1] == 0;
}

static bool cyapa_sort_pip_hid_descriptor_data(struct cyapa *cyapa, const guint8 *buf, int len)
{
	(void)cyapa;
	return len == PIP_HID_DESCRIPTOR_SIZE &&
	       (buf[2] == PIP_HID_APP_REPORT_ID || buf[2] == PIP_HID_BL_REPORT_ID);
}

static bool cyapa_sort_pip_deep_sleep_data(struct cyapa *cyapa, const guint8 *buf, int len)
{
	(void)cyapa;
	return len == PIP_DEEP_SLEEP_RESP_LENGTH && buf[2] == PIP_APP_DEEP_SLEEP_REPORT_ID &&
	       (buf[4] & 0x0f) == PIP_DEEP_SLEEP_OPCODE;
}

static bool cyapa_pip_sort_system_info_data(struct cyapa *cyapa, const guint8 *buf, int len)
{
	(void)cyapa;
	(void)len;
	return VALID_CMD_RESP_HEADER(buf, 0x02);
}

static bool cyapa_sort_pip_bl_exit_data(struct cyapa *cyapa, const guint8 *buf, int len)
{
	(void)cyapa;
	if (!buf || len < PIP_RESP_LENGTH_SIZE)
		return false;
	if (buf[0] == 0 && buf[1] == 0)
		return true;
	return len == PIP_BL_FAIL_EXIT_RESP_LEN && buf[2] == PIP_BL_RESP_REPORT_ID &&
	       buf[3] == 0 && buf[4] == PIP_SOP_KEY && buf[10] == PIP_EOP_KEY;
}

static int cyapa_pip_deep_sleep(struct cyapa *cyapa, guint8 state)
{
	guint8 cmd[] = { 0x05, 0x00, (guint8)(state & 0x03), 0x08 }, resp[5] = { 0 };
	int resp_len = sizeof(resp);
	int error = cyapa_i2c_pip_cmd_irq_sync(cyapa, cmd, sizeof(cmd), resp, &resp_len, 500,
					       cyapa_sort_pip_deep_sleep_data, false);

	if (error || (resp[3] & 0x03) != state)
		return -EINVAL;
	return 0;
}

/* cyapa_get_pip_fixed_info, then cyapa_pip_state_parse's verdict */
static int cyapa_pip_state_parse(struct cyapa *cyapa)
{
	static const guint8 hid_cmd[] = { 0x01, 0x00 };
	static const guint8 get_bl_info[] = { 0x04, 0x00, 0x0b, 0x00, 0x40, 0x00, 0x01,
					      0x38, 0x00, 0x00, 0x70, 0x9e, 0x17 };
	guint8 resp[PIP_READ_SYS_INFO_RESP_LENGTH] = { 0 };
	guint8 family, silicon_hi;
	int resp_len, error;
	bool bl;

	cyapa->state = CYAPA_STATE_NO_DEVICE;
	cyapa_pip_deep_sleep(cyapa, PIP_DEEP_SLEEP_STATE_ON);
	cyapa_empty_pip_output_data(cyapa, NULL, NULL, NULL);
	resp_len = PIP_HID_DESCRIPTOR_SIZE;
	error = cyapa_i2c_pip_cmd_irq_sync(cyapa, hid_cmd, sizeof(hid_cmd), resp, &resp_len,
					   300, cyapa_sort_pip_hid_descriptor_data, false);
	if (error)
		return error;
	if (resp[2] == PIP_HID_BL_REPORT_ID)
		bl = true;
	else if (resp[2] == PIP_HID_APP_REPORT_ID)
		bl = false;
	else
		return -EAGAIN;
	memset(resp, 0, sizeof(resp));
	resp_len = sizeof(resp);
	if (bl) {
		error = cyapa_i2c_pip_cmd_irq_sync(cyapa, get_bl_info, sizeof(get_bl_info),
						   resp, &resp_len, 2000,
						   cyapa_sort_tsg_pip_bl_resp_data, false);
		if (error || resp_len < PIP_BL_GET_INFO_RESP_LENGTH)
			return error ? error : -EIO;
		family = resp[8];
		silicon_hi = resp[11];
	} else {
		error = cyapa_i2c_pip_cmd_irq_sync(cyapa, pip_read_sys_info,
						   sizeof(pip_read_sys_info), resp, &resp_len,
						   2000, cyapa_pip_sort_system_info_data,
						   false);
		if (error || resp_len < PIP_READ_SYS_INFO_RESP_LENGTH)
			return error ? error : -EIO;
		if (((resp[7] | resp[8] << 8) & 0xf000) != 0x1000)
			return -EINVAL;
		family = resp[19];
		silicon_hi = resp[22];
	}
	if (family == 0x9b && silicon_hi == 0x0b) {
		cyapa->gen = CYAPA_GEN6;
		cyapa->state = bl ? CYAPA_STATE_GEN6_BL : CYAPA_STATE_GEN6_APP;
	} else if (family == 0x91 && silicon_hi == 0x02) {
		cyapa->gen = CYAPA_GEN5;
		cyapa->state = bl ? CYAPA_STATE_GEN5_BL : CYAPA_STATE_GEN5_APP;
	}
	return 0;
}

static int cyapa_gen5_change_power_state(struct cyapa *cyapa, guint8 power_state)
{
	guint8 cmd[8] = { 0x04, 0x00, 0x06, 0x00, 0x2f, 0x00, 0x08, power_state };
	guint8 resp[6] = { 0 };
	int resp_len = sizeof(resp);
	int error = cyapa_i2c_pip_cmd_irq_sync(cyapa, cmd, sizeof(cmd), resp, &resp_len, 500,
					       cyapa_sort_tsg_pip_app_resp_data, false);

	if (error || !VALID_CMD_RESP_HEADER(resp, 0x08) || resp[5] != 0)
		return error < 0 ? error : -EINVAL;
	return 0;
}

static int cyapa_gen5_get_interval_time(struct cyapa *cyapa, guint8 id, guint16 *t)
{
	guint8 cmd[8] = { 0x04, 0x00, 0x06, 0x00, 0x2f, 0x00, GEN5_CMD_GET_PARAMETER, id };
	guint8 resp[11] = { 0 };
	int resp_len = sizeof(resp);
	int error = cyapa_i2c_pip_cmd_irq_sync(cyapa, cmd, sizeof(cmd), resp, &resp_len, 500,
					       cyapa_sort_tsg_pip_app_resp_data, false);

	*t = 0;
	if (error || resp[5] != id || resp[6] == 0 ||
	    !VALID_CMD_RESP_HEADER(resp, GEN5_CMD_GET_PARAMETER))
		return error < 0 ? error : -EINVAL;
	*t = (guint16)(resp[7] | resp[8] << 8);
	return 0;
}

/* cyapa_gen5_set_power_mode for the states the probe, update_fw and the
 * attributes use: full active and off (deep sleep) */
static int cyapa_gen5_set_power_mode(struct cyapa *cyapa, guint8 power_mode)
{
	int error = 0;

	if (cyapa->state != CYAPA_STATE_GEN5_APP)
		return 0;
	if (cyapa->dev_pwr_mode == UNINIT_PWR_MODE)
		cyapa->dev_pwr_mode = PWR_MODE_OFF;
	if (cyapa->dev_sleep_time == UNINIT_SLEEP_TIME && cyapa->dev_pwr_mode != PWR_MODE_OFF)
		if (cyapa_gen5_get_interval_time(cyapa, GEN5_PARAMETER_LP_INTRVL_ID,
						 &cyapa->dev_sleep_time))
			cyapa->dev_sleep_time = UNINIT_SLEEP_TIME;
	if (cyapa->dev_pwr_mode == power_mode)
		return 0;
	if (power_mode == PWR_MODE_OFF) {
		error = cyapa_pip_deep_sleep(cyapa, PIP_DEEP_SLEEP_STATE_OFF);
		if (error)
			emub_dev_log(cyapa->d, "enter deep sleep fail: %d", error);
		else
			cyapa->dev_pwr_mode = PWR_MODE_OFF;
		return error;
	}
	if (cyapa->dev_pwr_mode == PWR_MODE_OFF) {
		error = cyapa_pip_deep_sleep(cyapa, PIP_DEEP_SLEEP_STATE_ON);
		if (error) {
			emub_dev_log(cyapa->d, "deep sleep wake fail: %d", error);
			return error;
		}
	}
	error = cyapa_gen5_change_power_state(cyapa, GEN5_POWER_STATE_ACTIVE);
	if (error)
		emub_dev_log(cyapa->d, "change to active fail: %d", error);
	else
		cyapa->dev_pwr_mode = PWR_MODE_FULL_ACTIVE;
	return error;
}

static int cyapa_pip_set_proximity(struct cyapa *cyapa, bool enable)
{
	guint8 cmd[] = {
		0x04, 0x00, 0x06, 0x00, 0x2f, 0x00, PIP_SET_PROXIMITY, (guint8)enable
	};
	guint8 resp[6] = { 0 };
	int resp_len = sizeof(resp);
	int error = cyapa_i2c_pip_cmd_irq_sync(cyapa, cmd, sizeof(cmd), resp, &resp_len, 500,
					       cyapa_sort_tsg_pip_app_resp_data, false);

	if (error || !VALID_CMD_RESP_HEADER(resp, PIP_SET_PROXIMITY) || resp[5] != 0) {
		error = error == -ETIMEDOUT ? -EOPNOTSUPP : error;
		return error < 0 ? error : -EINVAL;
	}
	return 0;
}

static int cyapa_pip_bl_exit(struct cyapa *cyapa)
{
	static const guint8 bl_gen5_bl_exit[] = { 0x04, 0x00, 0x0b, 0x00, 0x40, 0x00, 0x01,
						  0x3b, 0x00, 0x00, 0x20, 0xc7, 0x17 };
	guint8 resp[11] = { 0 };
	int resp_len = sizeof(resp);
	int error = cyapa_i2c_pip_cmd_irq_sync(cyapa, bl_gen5_bl_exit, sizeof(bl_gen5_bl_exit),
					       resp, &resp_len, 5000,
					       cyapa_sort_pip_bl_exit_data, false);

	if (error)
		return error;
	if (resp_len == PIP_BL_FAIL_EXIT_RESP_LEN || resp[2] == PIP_BL_RESP_REPORT_ID)
		return -EAGAIN;
	if (resp[0] == 0 && resp[1] == 0)
		return 0;
	return -ENODEV;
}

static void cyapa_set_product_id(struct cyapa *cyapa, const guint8 *p5, const guint8 *p6,
				 const guint8 *p2)
{
	memcpy(&cyapa->product_id[0], p5, 5);
	cyapa->product_id[5] = '-';
	memcpy(&cyapa->product_id[6], p6, 6);
	cyapa->product_id[12] = '-';
	memcpy(&cyapa->product_id[13], p2, 2);
	cyapa->product_id[15] = '\0';
}

static int cyapa_gen5_bl_query_data(struct cyapa *cyapa)
{
	guint8 resp[PIP_BL_APP_INFO_RESP_LENGTH] = { 0 };
	int resp_len = sizeof(resp);
	int error = cyapa_i2c_pip_cmd_irq_sync(cyapa, pip_bl_read_app_info,
					       sizeof(pip_bl_read_app_info), resp, &resp_len,
					       500, cyapa_sort_tsg_pip_bl_resp_data, false);

	if (error || resp_len < PIP_BL_APP_INFO_RESP_LENGTH || resp[5] != 0)
		return error ? error : -EIO;
	cyapa_set_product_id(cyapa, &resp[8], &resp[13], &resp[19]);
	cyapa->fw_maj_ver = resp[22];
	cyapa->fw_min_ver = resp[23];
	cyapa->platform_ver = (resp[26] >> 4) & 0x0f;
	return 0;
}

static int cyapa_gen5_get_query_data(struct cyapa *cyapa)
{
	guint8 r[PIP_READ_SYS_INFO_RESP_LENGTH] = { 0 };
	int resp_len = sizeof(r);
	int error = cyapa_i2c_pip_cmd_irq_sync(cyapa, pip_read_sys_info,
					       sizeof(pip_read_sys_info), r, &resp_len, 2000,
					       cyapa_pip_sort_system_info_data, false);

	if (error || resp_len < (int)sizeof(r))
		return error ? error : -EIO;
	if (((r[7] | r[8] << 8) & 0xf000) != 0x1000)
		return -EINVAL;
	cyapa->platform_ver = (r[49] >> 4) & 0x0f;
	if (cyapa->platform_ver < 2) {
		cyapa->fw_maj_ver = r[15];
		cyapa->fw_min_ver = r[16];
	} else {
		cyapa->fw_maj_ver = r[9];
		cyapa->fw_min_ver = r[10];
	}
	cyapa->electrodes_x = r[52];
	cyapa->electrodes_y = r[53];
	cyapa->physical_size_x = (r[54] | r[55] << 8) / 100;
	cyapa->physical_size_y = (r[56] | r[57] << 8) / 100;
	cyapa->max_abs_x = r[58] | r[59] << 8;
	cyapa->max_abs_y = r[60] | r[61] << 8;
	cyapa->max_z = r[62] | r[63] << 8;
	cyapa->btn_capability = (guint8)((r[70] << 3) & CAPABILITY_BTN_MASK);
	cyapa_set_product_id(cyapa, &r[33], &r[38], &r[44]);
	if (!cyapa->electrodes_x || !cyapa->electrodes_y || !cyapa->physical_size_x ||
	    !cyapa->physical_size_y || !cyapa->max_abs_x || !cyapa->max_abs_y || !cyapa->max_z)
		return -EINVAL;
	return 0;
}

static int cyapa_gen5_do_operational_check(struct cyapa *cyapa)
{
	int error;

	if (cyapa->gen != CYAPA_GEN5)
		return -ENODEV;
	switch (cyapa->state) {
	case CYAPA_STATE_GEN5_BL:
		error = cyapa_pip_bl_exit(cyapa);
		if (error) {
			cyapa_gen5_bl_query_data(cyapa);
			return error;
		}
		cyapa->state = CYAPA_STATE_GEN5_APP;
		/* fallthrough */
	case CYAPA_STATE_GEN5_APP:
		if (cyapa_gen5_set_power_mode(cyapa, PWR_MODE_FULL_ACTIVE))
			emub_dev_log(cyapa->d, "failed to set power active mode.");
		if (cyapa->platform_ver >= 2 && cyapa_pip_set_proximity(cyapa, true))
			emub_dev_log(cyapa->d, "failed to enable proximity.");
		error = cyapa_gen5_get_query_data(cyapa);
		if (error)
			return error;
		if (memcmp(cyapa->product_id, "CYTRA", 5)) {
			emub_dev_log(cyapa->d, "unknown product ID (%s)", cyapa->product_id);
			return -EINVAL;
		}
		return 0;
	default:
		return -EINVAL;
	}
}

/* ------------------------------------------------------------ gen6
 * cyapa_gen6.c: the application's commands differ from Gen5's (power,
 * system information); the bootloader and the update are the PIP ones. */

#define GEN6_ENABLE_CMD_IRQ 0x41
#define GEN6_DISABLE_CMD_IRQ 0x42
#define GEN6_POWER_MODE_ACTIVE 0x01
#define GEN6_GET_POWER_MODE_INTERVAL 0x48

static int cyapa_gen6_config_dev_irq(struct cyapa *cyapa, guint8 cmd_code)
{
	guint8 cmd[] = { 0x04, 0x00, 0x05, 0x00, 0x2f, 0x00, cmd_code }, resp[6] = { 0 };
	int resp_len = sizeof(resp);
	int error = cyapa_i2c_pip_cmd_irq_sync(cyapa, cmd, sizeof(cmd), resp, &resp_len, 500,
					       cyapa_sort_tsg_pip_app_resp_data, false);

	if (error || !VALID_CMD_RESP_HEADER(resp, cmd_code) || resp[5] != 0)
		return error < 0 ? error : -EINVAL;
	return 0;
}

static int cyapa_gen6_change_power_state(struct cyapa *cyapa, guint8 power_mode)
{
	guint8 cmd[] = { 0x04, 0x00, 0x06, 0x00, 0x2f, 0x00, 0x46, power_mode };
	guint8 resp[6] = { 0 };
	int resp_len = sizeof(resp);
	int error = cyapa_i2c_pip_cmd_irq_sync(cyapa, cmd, sizeof(cmd), resp, &resp_len, 500,
					       cyapa_sort_tsg_pip_app_resp_data, false);

	if (error || !VALID_CMD_RESP_HEADER(resp, 0x46))
		return error < 0 ? error : -EINVAL;
	return resp[5] != power_mode ? -EAGAIN : 0;
}

/* cyapa_gen6_get_interval_setting: the intervals are kept by the kernel
 * for its low-power modes, which are not modelled; read and dropped */
static int cyapa_gen6_get_interval_setting(struct cyapa *cyapa)
{
	guint8 cmd[] = { 0x04, 0x00, 0x05, 0x00, 0x2f, 0x00, GEN6_GET_POWER_MODE_INTERVAL };
	guint8 resp[11] = { 0 };
	int resp_len = sizeof(resp);
	int error = cyapa_i2c_pip_cmd_irq_sync(cyapa, cmd, sizeof(cmd), resp, &resp_len, 500,
					       cyapa_sort_tsg_pip_app_resp_data, false);

	if (error || !VALID_CMD_RESP_HEADER(resp, GEN6_GET_POWER_MODE_INTERVAL))
		return error < 0 ? error : -EINVAL;
	return 0;
}

/* cyapa_gen6_deep_sleep: waking, a ping first (a part asleep NAKs it;
 * the result is not looked at) */
static int cyapa_gen6_deep_sleep(struct cyapa *cyapa, guint8 state)
{
	static const guint8 ping[] = { 0x04, 0x00, 0x05, 0x00, 0x2f, 0x00, 0x00 };

	if (state == PIP_DEEP_SLEEP_STATE_ON)
		cyapa_i2c_pip_write(cyapa, ping, sizeof(ping));
	return cyapa_pip_deep_sleep(cyapa, state);
}

/* cyapa_gen6_set_power_mode for full active and off (deep sleep): what
 * the probe, update_fw and the attributes use */
static int cyapa_gen6_set_power_mode(struct cyapa *cyapa, guint8 power_mode)
{
	int error;

	if (cyapa->state != CYAPA_STATE_GEN6_APP)
		return 0;
	if (cyapa->dev_pwr_mode == UNINIT_PWR_MODE)
		cyapa->dev_pwr_mode = PWR_MODE_OFF;
	if (cyapa->dev_pwr_mode == power_mode)
		return 0;
	if (power_mode == PWR_MODE_OFF) {
		cyapa_gen6_config_dev_irq(cyapa, GEN6_DISABLE_CMD_IRQ);
		error = cyapa_gen6_deep_sleep(cyapa, PIP_DEEP_SLEEP_STATE_OFF);
		if (error) {
			emub_dev_log(cyapa->d, "enter deep sleep fail: %d", error);
			return error;
		}
		cyapa->dev_pwr_mode = PWR_MODE_OFF;
		return 0;
	}
	if (cyapa->dev_pwr_mode == PWR_MODE_OFF) {
		error = cyapa_gen6_deep_sleep(cyapa, PIP_DEEP_SLEEP_STATE_ON);
		if (error) {
			emub_dev_log(cyapa->d, "deep sleep wake fail: %d", error);
			return error;
		}
	}
	cyapa_gen6_config_dev_irq(cyapa, GEN6_DISABLE_CMD_IRQ);
	error = cyapa_gen6_change_power_state(cyapa, GEN6_POWER_MODE_ACTIVE);
	if (error) {
		emub_dev_log(cyapa->d, "change to active fail: %d", error);
	} else {
		cyapa->dev_pwr_mode = PWR_MODE_FULL_ACTIVE;
		cyapa_gen6_get_interval_setting(cyapa);
	}
	cyapa_gen6_config_dev_irq(cyapa, GEN6_ENABLE_CMD_IRQ);
	return error;
}

static int cyapa_gen6_read_sys_info(struct cyapa *cyapa)
{
	guint8 r[PIP_READ_SYS_INFO_RESP_LENGTH] = { 0 };
	int resp_len = sizeof(r);
	int error = cyapa_i2c_pip_cmd_irq_sync(cyapa, pip_read_sys_info,
					       sizeof(pip_read_sys_info), r, &resp_len, 2000,
					       cyapa_pip_sort_system_info_data, false);

	if (error || resp_len < (int)sizeof(r))
		return error ? error : -EIO;
	if (((r[7] | r[8] << 8) & 0xf000) != 0x1000)
		return -EINVAL;
	cyapa->platform_ver = (r[67] >> 4) & 0x0f;
	cyapa->fw_maj_ver = r[9];
	cyapa->fw_min_ver = r[10];
	cyapa->electrodes_x = r[33];
	cyapa->electrodes_y = r[34];
	cyapa->physical_size_x = (r[35] | r[36] << 8) / 100;
	cyapa->physical_size_y = (r[37] | r[38] << 8) / 100;
	cyapa->max_abs_x = r[39] | r[40] << 8;
	cyapa->max_abs_y = r[41] | r[42] << 8;
	cyapa->max_z = r[43] | r[44] << 8;
	cyapa->btn_capability = (guint8)((r[70] << 3) & CAPABILITY_BTN_MASK);
	cyapa_set_product_id(cyapa, &r[51], &r[56], &r[62]);
	if (!cyapa->electrodes_x || !cyapa->electrodes_y || !cyapa->physical_size_x ||
	    !cyapa->physical_size_y || !cyapa->max_abs_x || !cyapa->max_abs_y || !cyapa->max_z)
		return -EINVAL;
	return 0;
}

static int cyapa_gen6_bl_read_app_info(struct cyapa *cyapa)
{
	guint8 resp[PIP_BL_APP_INFO_RESP_LENGTH] = { 0 };
	int resp_len = sizeof(resp);
	int error = cyapa_i2c_pip_cmd_irq_sync(cyapa, pip_bl_read_app_info,
					       sizeof(pip_bl_read_app_info), resp, &resp_len,
					       500, cyapa_sort_tsg_pip_bl_resp_data, false);

	if (error || resp_len < PIP_BL_APP_INFO_RESP_LENGTH || resp[5] != 0)
		return error ? error : -EIO;
	cyapa->fw_maj_ver = resp[8];
	cyapa->fw_min_ver = resp[9];
	cyapa->platform_ver = (resp[12] >> 4) & 0x0f;
	cyapa_set_product_id(cyapa, &resp[13], &resp[18], &resp[24]);
	return 0;
}

static int cyapa_gen6_operational_check(struct cyapa *cyapa)
{
	int error;

	if (cyapa->gen != CYAPA_GEN6)
		return -ENODEV;
	switch (cyapa->state) {
	case CYAPA_STATE_GEN6_BL:
		error = cyapa_pip_bl_exit(cyapa);
		if (error) {
			cyapa_gen6_bl_read_app_info(cyapa);
			return error;
		}
		cyapa->state = CYAPA_STATE_GEN6_APP;
		/* fallthrough */
	case CYAPA_STATE_GEN6_APP:
		if (cyapa_gen6_set_power_mode(cyapa, PWR_MODE_FULL_ACTIVE))
			emub_dev_log(
				cyapa->d,
				"cyapa_gen6_operational_check: failed to set power active mode.");
		if (cyapa_pip_set_proximity(cyapa, true))
			emub_dev_log(
				cyapa->d,
				"cyapa_gen6_operational_check: failed to enable proximity.");
		error = cyapa_gen6_read_sys_info(cyapa);
		if (error)
			return error;
		if (memcmp(cyapa->product_id, "CYTRA", 5)) {
			emub_dev_log(cyapa->d,
				     "cyapa_gen6_operational_check: unknown product ID (%s)",
				     cyapa->product_id);
			return -EINVAL;
		}
		return 0;
	default:
		return -EINVAL;
	}
}

/* cyapa_pip_irq_cmd_handler (true: not a command's answer), then
 * cyapa_irq's handling of the rest with no input device open */
static void cyapa_irq(struct emub_dev *d)
{
	struct cyapa *cyapa = data_of(d);
	guint8 *buf;
	int length;

	if (!cyapa || cyapa->gen < CYAPA_GEN5)
		return;
	buf = cyapa->pip_irq_buf;
	if (cyapa->pip_cmd_issued) {
		if (!cyapa->pip_irq_mode)
			return;
		cyapa_i2c_pip_read(cyapa, buf, PIP_RESP_LENGTH_SIZE);
		length = buf[0] | buf[1] << 8;
		length = length <= PIP_RESP_LENGTH_SIZE ? PIP_RESP_LENGTH_SIZE : length;
		if (length > PIP_RESP_LENGTH_SIZE)
			cyapa_i2c_pip_read(cyapa, buf, (size_t)length);
		if (!(cyapa->pip_sort && cyapa->pip_sort(cyapa, buf, length))) {
			length = cyapa->pip_resp_len ? *cyapa->pip_resp_len : 0;
			cyapa_empty_pip_output_data(cyapa, cyapa->pip_resp, &length,
						    cyapa->pip_sort);
			if (cyapa->pip_resp_len && length) {
				*cyapa->pip_resp_len = length;
				cyapa->pip_cmd_issued--;
				cyapa->pip_done++;
			}
			return;
		}
		if (cyapa->pip_resp && cyapa->pip_resp_len) {
			*cyapa->pip_resp_len = MIN(*cyapa->pip_resp_len, length);
			memcpy(cyapa->pip_resp, buf, (size_t)*cyapa->pip_resp_len);
		}
		cyapa->pip_cmd_issued--;
		cyapa->pip_done++;
		return;
	}
	/* no input device open here: still probing or updating */
	cyapa_empty_pip_output_data(cyapa, NULL, NULL, NULL);
}

static int cyapa_pip_bl_enter(struct cyapa *cyapa)
{
	static const guint8 cmd[] = { 0x04, 0x00, 0x05, 0x00, 0x2f, 0x00, 0x01 };
	guint8 resp[2] = { 0xff, 0xff };
	int resp_len = sizeof(resp);
	int error = cyapa_poll_state(cyapa, 500);

	if (error < 0)
		return error;
	if (cyapa_is_pip_bl_mode(cyapa))
		return 0;
	if (!cyapa_is_pip_app_mode(cyapa))
		return -EINVAL;
	cyapa_empty_pip_output_data(cyapa, NULL, NULL, NULL);
	memset(resp, 0, sizeof(resp));
	error = cyapa_i2c_pip_cmd_irq_sync(cyapa, cmd, sizeof(cmd), resp, &resp_len, 5000,
					   cyapa_sort_pip_application_launch_data, true);
	if (error || resp[0] != 0 || resp[1] != 0)
		return error < 0 ? error : -EAGAIN;
	cyapa->operational = false;
	if (cyapa->gen == CYAPA_GEN5)
		cyapa->state = CYAPA_STATE_GEN5_BL;
	else if (cyapa->gen == CYAPA_GEN6)
		cyapa->state = CYAPA_STATE_GEN6_BL;
	return 0;
}

/* cyapa_pip_fw_head_check and cyapa_pip_check_fw, with the bounds the
 * kernel leaves to the file (a file too short for its head or records
 * is refused here rather than read past) */
static int cyapa_pip_check_fw(struct cyapa *cyapa, const guint8 *fw, gsize size)
{
	const guint8 *records, *integrity, *meta;
	guint32 app_start, upgrade_start;
	guint16 app_len, upgrade_len, crc;
	gsize head, n;

	if (size < 1 || (fw[0] != 0x0c && fw[0] != 0x12) || size < (gsize)fw[0] + 1 + 17) {
		emub_dev_log(cyapa->d,
			     "cyapa_pip_check_fw: firmware image not match TP device.");
		return -EINVAL;
	}
	if (cyapa->gen == CYAPA_GEN6  ? (fw[16] != 0x9b || fw[13] != 0x0b)
	    : cyapa->platform_ver < 2 ? fw[0] != 0x0c
				      : (fw[16] != 0x91 || fw[13] != 0x02)) {
		emub_dev_log(cyapa->d,
			     "cyapa_pip_check_fw: firmware image not match TP device.");
		return -EINVAL;
	}
	head = (gsize)fw[0] + 1;
	n = (size - head) / PIP_RECORD_SIZE;
	if (!n)
		return -EINVAL;
	records = fw + head;
	integrity = records + (n - 1) * PIP_RECORD_SIZE;
	if (integrity[0] != 0 || (integrity[1] << 8 | integrity[2]) != 0x01ff) {
		emub_dev_log(cyapa->d, "cyapa_pip_check_fw: invalid app_integrity data.");
		return -EINVAL;
	}
	meta = integrity + 5;
	if (cyapa_pip_crc(0xffff, meta, 60) != (meta[60] | meta[61] << 8)) {
		emub_dev_log(cyapa->d, "cyapa_pip_check_fw: invalid app_integrity crc.");
		return -EINVAL;
	}
	app_start = (guint32)(meta[4] | meta[5] << 8 | meta[6] << 16 | (guint32)meta[7] << 24);
	app_len = (guint16)(meta[8] | meta[9] << 8);
	upgrade_start = (guint32)(meta[16] | meta[17] << 8 | meta[18] << 16 |
				  (guint32)meta[19] << 24);
	upgrade_len = (guint16)(meta[20] | meta[21] << 8);
	if (app_start % 128 || app_len % 128 || upgrade_start % 128 || upgrade_len % 128) {
		emub_dev_log(cyapa->d, "cyapa_pip_check_fw: invalid image alignment.");
		return -EINVAL;
	}
	if ((gsize)(app_len / 128) > n)
		return -EINVAL;
	crc = 0xffff;
	for (gsize i = 0; i < app_len / 128u; i++)
		crc = cyapa_pip_crc(crc, records + i * PIP_RECORD_SIZE + 5, 128);
	if (crc != (meta[10] | meta[11] << 8)) {
		emub_dev_log(cyapa->d, "cyapa_pip_check_fw: invalid firmware app crc check.");
		return -EINVAL;
	}
	return 0;
}

static int cyapa_pip_bl_initiate(struct cyapa *cyapa, const guint8 *fw, gsize size)
{
	guint8 cmd[CYAPA_TSG_MAX_CMD_SIZE], resp[11] = { 0 };
	gsize head = (gsize)fw[0] + 1, n = (size - head) / PIP_RECORD_SIZE;
	const guint8 *meta = fw + head + (n - 1) * PIP_RECORD_SIZE + 5;
	guint16 data_len = 8 + 128, crc;
	int cmd_len = 10 + data_len + 3, resp_len = sizeof(resp), error;

	cyapa_empty_pip_output_data(cyapa, NULL, NULL, NULL);
	memset(cmd, 0, sizeof(cmd));
	cmd[0] = 0x04;
	cmd[2] = (guint8)(cmd_len - 2);
	cmd[3] = (guint8)((cmd_len - 2) >> 8);
	cmd[4] = PIP_BL_CMD_REPORT_ID;
	cmd[6] = PIP_SOP_KEY;
	cmd[7] = PIP_BL_CMD_INITIATE_BL;
	cmd[8] = (guint8)data_len;
	cmd[9] = (guint8)(data_len >> 8);
	memcpy(cmd + 10, pip_bl_cmd_key, 8);
	memcpy(cmd + 18, meta, 60);
	crc = cyapa_pip_crc(0xffff, cmd + 18, 60);
	cmd[78] = (guint8)crc;
	cmd[79] = (guint8)(crc >> 8);
	crc = cyapa_pip_crc(0xffff, cmd + 6, 4u + data_len);
	cmd[10 + data_len] = (guint8)crc;
	cmd[11 + data_len] = (guint8)(crc >> 8);
	cmd[12 + data_len] = PIP_EOP_KEY;
	error = cyapa_i2c_pip_cmd_irq_sync(cyapa, cmd, cmd_len, resp, &resp_len, 12000,
					   cyapa_sort_tsg_pip_bl_resp_data, true);
	if (error || resp_len != PIP_BL_INITIATE_RESP_LEN || resp[2] != PIP_BL_RESP_REPORT_ID ||
	    resp[5] != 0)
		return error ? error : -EAGAIN;
	return 0;
}

static int cyapa_pip_write_fw_block(struct cyapa *cyapa, const guint8 *record)
{
	guint8 cmd[CYAPA_TSG_MAX_CMD_SIZE], resp[11] = { 0 };
	guint16 record_len = (guint16)(record[3] << 8 | record[4]), data_len, crc;
	int cmd_len = 10 + 3 + 128 + 3, resp_len = sizeof(resp), error;

	if (record_len > 128) /* the kernel trusts the file here */
		return -EINVAL;
	memset(cmd, 0, sizeof(cmd));
	cmd[0] = 0x04;
	cmd[2] = (guint8)(cmd_len - 2);
	cmd[4] = PIP_BL_CMD_REPORT_ID;
	cmd[6] = PIP_SOP_KEY;
	cmd[7] = PIP_BL_CMD_PROGRAM_VERIFY_ROW;
	data_len = (guint16)(3 + record_len);
	cmd[8] = (guint8)data_len;
	cmd[9] = (guint8)(data_len >> 8);
	cmd[10] = record[0];
	cmd[11] = record[2]; /* the row, little-endian now */
	cmd[12] = record[1];
	memcpy(cmd + 13, record + 5, record_len);
	crc = cyapa_pip_crc(0xffff, cmd + 6, 4u + data_len);
	cmd[10 + data_len] = (guint8)crc;
	cmd[11 + data_len] = (guint8)(crc >> 8);
	cmd[12 + data_len] = PIP_EOP_KEY;
	error = cyapa_i2c_pip_cmd_irq_sync(cyapa, cmd, cmd_len, resp, &resp_len, 500,
					   cyapa_sort_tsg_pip_bl_resp_data, true);
	if (error || resp_len != PIP_BL_BLOCK_WRITE_RESP_LEN ||
	    resp[2] != PIP_BL_RESP_REPORT_ID || resp[5] != 0)
		return error < 0 ? error : -EAGAIN;
	return 0;
}

static int cyapa_pip_do_fw_update(struct cyapa *cyapa, const guint8 *fw, gsize size)
{
	gsize head = (gsize)fw[0] + 1, n = (size - head) / PIP_RECORD_SIZE;

	cyapa_empty_pip_output_data(cyapa, NULL, NULL, NULL);
	for (gsize i = 0; i + 1 < n; i++) {
		int error = cyapa_pip_write_fw_block(cyapa, fw + head + i * PIP_RECORD_SIZE);

		if (error) {
			emub_dev_log(cyapa->d,
				     "cyapa_pip_do_fw_update: Gen5 FW update aborted: %d",
				     error);
			return error;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ gen3 ops */

static guint16 cyapa_pwr_cmd_to_sleep_time(guint8 pwr_mode)
{
	guint8 t = pwr_mode >> 2;

	return t < 10 ? t * 10 : (guint16)((t - 5) * 20);
}

static guint16 wait_time_for_pwr_cmd(guint8 pwr_mode)
{
	switch (pwr_mode) {
	case PWR_MODE_FULL_ACTIVE:
	case PWR_MODE_BTN_ONLY:
	case PWR_MODE_OFF:
		return 20;
	default:
		return (guint16)(cyapa_pwr_cmd_to_sleep_time(pwr_mode) + 50);
	}
}

/* cyapa_gen3_set_power_mode outside runtime PM (no polling meanwhile) */
static int cyapa_gen3_set_power_mode(struct cyapa *cyapa, guint8 power_mode)
{
	int tries, ret = -EIO, sleep_time;
	guint8 power;

	if (cyapa->state != CYAPA_STATE_OP)
		return 0;
	tries = SET_POWER_MODE_TRIES;
	while (tries--) {
		ret = cyapa_read_byte(cyapa, REG_OFFSET_POWER_MODE);
		if (ret >= 0)
			break;
		drv_usleep(cyapa->d, 10000);
	}
	if (ret < 0)
		return ret;
	if ((ret & PWR_MODE_MASK) == power_mode)
		return 0;
	sleep_time = wait_time_for_pwr_cmd((guint8)(ret & PWR_MODE_MASK));
	power = (guint8)((ret & ~PWR_MODE_MASK) | (power_mode & PWR_MODE_MASK));
	tries = SET_POWER_MODE_TRIES;
	while (tries--) {
		ret = cyapa_write_byte(cyapa, REG_OFFSET_POWER_MODE, power);
		if (!ret)
			break;
		drv_usleep(cyapa->d, 10000);
	}
	drv_msleep(cyapa->d, (unsigned)sleep_time);
	return ret;
}

static int cyapa_gen3_bl_deactivate(struct cyapa *cyapa)
{
	int error = cyapa_i2c_reg_write_block(cyapa, 0, sizeof(bl_deactivate), bl_deactivate);

	if (error)
		return error;
	drv_msleep(cyapa->d, 100);
	error = cyapa_poll_state(cyapa, 500);
	if (error)
		return error;
	return cyapa->state == CYAPA_STATE_BL_IDLE ? 0 : -EAGAIN;
}

static int cyapa_gen3_bl_exit(struct cyapa *cyapa)
{
	int error = cyapa_i2c_reg_write_block(cyapa, 0, sizeof(bl_exit), bl_exit);

	if (error)
		return error;
	drv_msleep(cyapa->d, 50);
	error = cyapa_poll_state(cyapa, 4000);
	if (error < 0)
		return error;
	return cyapa->state == CYAPA_STATE_OP ? 0 : -EAGAIN;
}

static void cyapa_gen3_bl_query_data(struct cyapa *cyapa)
{
	guint8 bl_data[CYAPA_CMD_LEN];

	if (cyapa_i2c_reg_read_block(cyapa, 0, CYAPA_CMD_LEN, bl_data) != CYAPA_CMD_LEN)
		return;
	if (bl_data[REG_BL_STATUS] == (BL_STATUS_RUNNING | BL_STATUS_CSUM_VALID)) {
		cyapa->fw_maj_ver = bl_data[GEN3_BL_IDLE_FW_MAJ_VER_OFFSET];
		cyapa->fw_min_ver = bl_data[GEN3_BL_IDLE_FW_MIN_VER_OFFSET];
	}
}

static int cyapa_gen3_get_query_data(struct cyapa *cyapa)
{
	guint8 q[QUERY_DATA_SIZE];
	int ret;

	if (cyapa->state != CYAPA_STATE_OP)
		return -EBUSY;
	ret = cyapa_i2c_reg_read_block(cyapa, REG_OFFSET_QUERY_BASE, QUERY_DATA_SIZE, q);
	if (ret != QUERY_DATA_SIZE)
		return ret < 0 ? ret : -EIO;
	memcpy(&cyapa->product_id[0], &q[0], 5);
	cyapa->product_id[5] = '-';
	memcpy(&cyapa->product_id[6], &q[5], 6);
	cyapa->product_id[12] = '-';
	memcpy(&cyapa->product_id[13], &q[11], 2);
	cyapa->product_id[15] = '\0';
	cyapa->fw_maj_ver = q[15];
	cyapa->fw_min_ver = q[16];
	cyapa->btn_capability = q[19] & CAPABILITY_BTN_MASK;
	cyapa->gen = q[20] & 0x0f;
	cyapa->max_abs_x = ((q[21] & 0xf0) << 4) | q[22];
	cyapa->max_abs_y = ((q[21] & 0x0f) << 8) | q[23];
	cyapa->physical_size_x = ((q[24] & 0xf0) << 4) | q[25];
	cyapa->physical_size_y = ((q[24] & 0x0f) << 8) | q[26];
	cyapa->max_z = 255;
	return 0;
}

static int cyapa_gen3_do_operational_check(struct cyapa *cyapa)
{
	struct emub_dev *d = cyapa->d;
	int error;

	switch (cyapa->state) {
	case CYAPA_STATE_BL_ACTIVE:
		error = cyapa_gen3_bl_deactivate(cyapa);
		if (error) {
			emub_dev_log(d, "failed to bl_deactivate: %d", error);
			return error;
		}
		/* fallthrough */
	case CYAPA_STATE_BL_IDLE:
		cyapa_gen3_bl_query_data(cyapa);
		error = cyapa_gen3_bl_exit(cyapa);
		if (error) {
			emub_dev_log(d, "failed to bl_exit: %d", error);
			return error;
		}
		/* fallthrough */
	case CYAPA_STATE_OP:
		error = cyapa_gen3_set_power_mode(cyapa, PWR_MODE_FULL_ACTIVE);
		if (error)
			emub_dev_log(
				d,
				"cyapa_gen3_do_operational_check: set full power mode failed: %d",
				error);
		error = cyapa_gen3_get_query_data(cyapa);
		if (error < 0)
			return error;
		if (cyapa->gen != CYAPA_GEN3) {
			emub_dev_log(d, "unsupported protocol version (%d)", cyapa->gen);
			return -EINVAL;
		}
		if (memcmp(cyapa->product_id, "CYTRA", 5)) {
			emub_dev_log(d, "unsupported product ID (%s)", cyapa->product_id);
			return -EINVAL;
		}
		return 0;
	default:
		return -EIO;
	}
}

static int cyapa_check_is_operational(struct cyapa *cyapa)
{
	int error = cyapa_poll_state(cyapa, 4000);

	if (error)
		return error;
	if (cyapa->gen == CYAPA_GEN6)
		error = cyapa_gen6_operational_check(cyapa);
	else if (cyapa->gen == CYAPA_GEN5)
		error = cyapa_gen5_do_operational_check(cyapa);
	else if (cyapa->gen == CYAPA_GEN3)
		error = cyapa_gen3_do_operational_check(cyapa);
	else
		return -ENODEV;
	cyapa->operational = !error && (cyapa->state == CYAPA_STATE_OP ||
					cyapa->state == CYAPA_STATE_GEN5_APP ||
					cyapa->state == CYAPA_STATE_GEN6_APP);
	return error;
}

static bool cyapa_is_bootloader_mode(const struct cyapa *cyapa)
{
	if (cyapa_is_pip_bl_mode(cyapa))
		return true;
	return cyapa->gen == CYAPA_GEN3 && cyapa->state >= CYAPA_STATE_BL_BUSY &&
	       cyapa->state <= CYAPA_STATE_BL_ACTIVE;
}

static int cyapa_detect(struct cyapa *cyapa)
{
	int error = cyapa_check_is_operational(cyapa);

	if (error) {
		if (error != -ETIMEDOUT && error != -ENODEV &&
		    cyapa_is_bootloader_mode(cyapa)) {
			emub_dev_log(cyapa->d, "device detected but not operational");
			return 0;
		}
		emub_dev_log(cyapa->d, "no device detected: %d", error);
		return error;
	}
	return 0;
}

/* ------------------------------------------------------------ input */

static int cyapa_create_input_dev(struct cyapa *cyapa)
{
	struct emub_dev *d = cyapa->d;
	char phys[32];
	struct emub_input_desc in = {
		.name = CYAPA_NAME,
		.phys = phys,
		.bustype = BUS_I2C,
		.version = 1,
		.evbits = 1u << EV_SYN | 1u << EV_KEY | 1u << EV_ABS,
		/* input_mt_init_slots(INPUT_MT_POINTER): BTN_TOUCH and the
		 * finger-count tools (word 5 of the key bits) */
		.keybits_word5 = 1ull << (BTN_TOUCH - 0x140) |
				 1ull << (BTN_TOOL_FINGER - 0x140) |
				 1ull << (BTN_TOOL_DOUBLETAP - 0x140) |
				 1ull << (BTN_TOOL_TRIPLETAP - 0x140) |
				 1ull << (BTN_TOOL_QUADTAP - 0x140) |
				 1ull << (BTN_TOOL_QUINTTAP - 0x140),
		.propbits = 1u << INPUT_PROP_POINTER,
	};
	int error;

	if (!cyapa->physical_size_x || !cyapa->physical_size_y)
		return -EINVAL;
	snprintf(phys, sizeof(phys), "i2c-%d-%04x/input0", d->chip->ad->desc.nr, cyapa->addr);
	drv_input_set_abs(&in, ABS_MT_POSITION_X, 0, cyapa->max_abs_x);
	drv_input_set_abs(&in, ABS_MT_POSITION_Y, 0, cyapa->max_abs_y);
	drv_input_set_abs(&in, ABS_MT_PRESSURE, 0, cyapa->max_z);
	in.abs[ABS_MT_POSITION_X].resolution = cyapa->max_abs_x / cyapa->physical_size_x;
	in.abs[ABS_MT_POSITION_Y].resolution = cyapa->max_abs_y / cyapa->physical_size_y;
	if (cyapa->gen > CYAPA_GEN3) {
		drv_input_set_abs(&in, ABS_MT_TOUCH_MAJOR, 0, 255);
		drv_input_set_abs(&in, ABS_MT_TOUCH_MINOR, 0, 255);
		drv_input_set_abs(&in, ABS_MT_ORIENTATION, -127, 127);
		drv_input_set_abs(&in, ABS_MT_WIDTH_MAJOR, 0, 255);
		drv_input_set_abs(&in, ABS_MT_WIDTH_MINOR, 0, 255);
		drv_input_set_abs(&in, ABS_DISTANCE, 0, 1);
	}
	drv_input_set_abs(&in, ABS_MT_SLOT, 0, CYAPA_MAX_MT_SLOTS - 1);
	drv_input_set_abs(&in, ABS_MT_TRACKING_ID, 0, TRKID_MAX);
	/* pointer emulation copies the axes to ABS_X, ABS_Y, ABS_PRESSURE */
	drv_input_set_abs(&in, ABS_X, 0, cyapa->max_abs_x);
	drv_input_set_abs(&in, ABS_Y, 0, cyapa->max_abs_y);
	drv_input_set_abs(&in, ABS_PRESSURE, 0, cyapa->max_z);
	in.abs[ABS_X].resolution = in.abs[ABS_MT_POSITION_X].resolution;
	in.abs[ABS_Y].resolution = in.abs[ABS_MT_POSITION_Y].resolution;
	/* BTN_LEFT/MIDDLE/RIGHT (key bit word 4) are not kept by the
	 * emulator's evdev */
	if (cyapa->btn_capability == CAPABILITY_LEFT_BTN_MASK)
		in.propbits |= 1u << INPUT_PROP_BUTTONPAD;
	if (drv_fault_no_input(d)) {
		emub_dev_log(d, "fault: input device not registered");
		return 0;
	}
	error = drv_input_register(d, &in);
	if (error) {
		emub_dev_log(d, "failed to register input device: %d", error);
		return error;
	}
	cyapa->input = true;
	return 0;
}

/* ------------------------------------------------------------ sysfs */

static const char *cyapa_state_to_string(const struct cyapa *cyapa)
{
	switch (cyapa->state) {
	case CYAPA_STATE_BL_BUSY:
		return "bootloader busy";
	case CYAPA_STATE_BL_IDLE:
		return "bootloader idle";
	case CYAPA_STATE_BL_ACTIVE:
		return "bootloader active";
	case CYAPA_STATE_GEN5_BL:
	case CYAPA_STATE_GEN6_BL:
		return "bootloader";
	case CYAPA_STATE_OP:
	case CYAPA_STATE_GEN5_APP:
	case CYAPA_STATE_GEN6_APP:
		return "operational";
	default:
		return "invalid mode";
	}
}

static void set_attrs(struct cyapa *cyapa, bool add)
{
	char v[64];

#define ATTR(name, ...)                                                \
	do {                                                           \
		snprintf(v, sizeof(v), __VA_ARGS__);                   \
		if (add)                                               \
			drv_attr_add(cyapa->d, name, v, false, false); \
		else                                                   \
			drv_attr_set(cyapa->d, name, v, false);        \
	} while (0)
	ATTR("firmware_version", "%d.%d\n", cyapa->fw_maj_ver, cyapa->fw_min_ver);
	ATTR("product_id", "%s\n", cyapa->product_id);
	ATTR("mode", "gen%d %s\n", cyapa->gen, cyapa_state_to_string(cyapa));
#undef ATTR
	if (add) {
		drv_attr_add(cyapa->d, "baseline", "", false, false);
		drv_attr_add(cyapa->d, "update_fw", "", true, false);
		drv_attr_add(cyapa->d, "calibrate", "", true, false);
	}
}

/* ------------------------------------------------------------ update_fw */

static guint16 cyapa_gen3_csum(const guint8 *buf, size_t count)
{
	guint16 csum = 0;

	for (size_t i = 0; i < count; i++)
		csum = (guint16)(csum + buf[i]);
	return csum;
}

static int cyapa_gen3_check_fw(struct cyapa *cyapa, const guint8 *fw, gsize size)
{
	guint16 csum, csum_expected;

	if (size != CYAPA_FW_SIZE) {
		emub_dev_log(cyapa->d, "invalid firmware size = %zu, expected %u.",
			     (size_t)size, CYAPA_FW_SIZE);
		return -EINVAL;
	}
	csum_expected = (guint16)(fw[0] << 8 | fw[1]);
	csum = cyapa_gen3_csum(&fw[2], CYAPA_FW_HDR_SIZE - 2);
	if (csum != csum_expected) {
		emub_dev_log(cyapa->d,
			     "invalid firmware header checksum =  %04x, expected: %04x", csum,
			     csum_expected);
		return -EINVAL;
	}
	csum_expected = (guint16)(fw[CYAPA_FW_HDR_SIZE - 2] << 8 | fw[CYAPA_FW_HDR_SIZE - 1]);
	csum = cyapa_gen3_csum(&fw[CYAPA_FW_HDR_SIZE], CYAPA_FW_DATA_SIZE);
	if (csum != csum_expected) {
		/* the kernel's message names the header here too */
		emub_dev_log(cyapa->d,
			     "invalid firmware header checksum =  %04x, expected: %04x", csum,
			     csum_expected);
		return -EINVAL;
	}
	return 0;
}

static int cyapa_gen3_bl_enter(struct cyapa *cyapa)
{
	int error, waiting_time;

	error = cyapa_poll_state(cyapa, 500);
	if (error)
		return error;
	if (cyapa->state == CYAPA_STATE_BL_IDLE)
		return 0;
	if (cyapa->state != CYAPA_STATE_OP)
		return -EAGAIN;
	cyapa->operational = false;
	cyapa->state = CYAPA_STATE_NO_DEVICE;
	if (cyapa_write_byte(cyapa, REG_OFFSET_COMMAND_BASE, 0x01))
		return -EIO;
	drv_usleep(cyapa->d, 25000);
	waiting_time = 2000;
	do {
		error = cyapa_poll_state(cyapa, 500);
		if (error) {
			if (error == -ETIMEDOUT) {
				waiting_time -= 500;
				continue;
			}
			return error;
		}
		if (cyapa->state == CYAPA_STATE_BL_IDLE &&
		    !(cyapa->status[REG_BL_STATUS] & BL_STATUS_WATCHDOG))
			break;
		drv_msleep(cyapa->d, 100);
		waiting_time -= 100;
	} while (waiting_time > 0);
	if (cyapa->state != CYAPA_STATE_BL_IDLE ||
	    (cyapa->status[REG_BL_STATUS] & BL_STATUS_WATCHDOG))
		return -EAGAIN;
	return 0;
}

static int cyapa_gen3_bl_activate(struct cyapa *cyapa)
{
	int error = cyapa_i2c_reg_write_block(cyapa, 0, sizeof(bl_activate), bl_activate);

	if (error)
		return error;
	drv_msleep(cyapa->d, 2000);
	error = cyapa_poll_state(cyapa, 11000);
	if (error)
		return error;
	return cyapa->state == CYAPA_STATE_BL_ACTIVE ? 0 : -EAGAIN;
}

static int cyapa_gen3_write_buffer(struct cyapa *cyapa, const guint8 *buf, size_t len)
{
	guint8 cmd[CYAPA_CMD_LEN + 1];

	for (size_t i = 0; i < len; i += CYAPA_CMD_LEN) {
		size_t cmd_len = len - i >= CYAPA_CMD_LEN ? CYAPA_CMD_LEN : len - i;
		int error;

		cmd[0] = (guint8)i;
		memcpy(&cmd[1], &buf[i], cmd_len);
		error = cyapa_i2c_reg_write_block(cyapa, 0, (guint8)(cmd_len + 1), cmd);
		if (error)
			return error;
	}
	return 0;
}

/* struct gen3_write_block_cmd: FF 39 key[8] BE16 block, data[64], data
 * sum, command sum (78 bytes) */
static int cyapa_gen3_write_fw_block(struct cyapa *cyapa, guint16 block, const guint8 *data)
{
	guint8 c[78], status[BL_STATUS_SIZE], bl_status, bl_error;
	int ret, tries;

	c[0] = 0xff;
	c[1] = 0x39;
	memcpy(&c[2], security_key, sizeof(security_key));
	c[10] = (guint8)(block >> 8);
	c[11] = (guint8)block;
	memcpy(&c[12], data, CYAPA_FW_BLOCK_SIZE);
	c[76] = (guint8)cyapa_gen3_csum(&c[12], CYAPA_FW_BLOCK_SIZE);
	c[77] = (guint8)cyapa_gen3_csum(c, sizeof(c) - 1);
	ret = cyapa_gen3_write_buffer(cyapa, c, sizeof(c));
	if (ret)
		return ret;
	tries = 11;
	do {
		drv_usleep(cyapa->d, 10000);
		ret = cyapa_i2c_reg_read_block(cyapa, 0, BL_STATUS_SIZE, status);
		if (ret != BL_STATUS_SIZE)
			return ret < 0 ? ret : -EIO;
	} while ((status[REG_BL_STATUS] & BL_STATUS_BUSY) && --tries);
	bl_status = status[REG_BL_STATUS] & (guint8)~BL_STATUS_REV_MASK;
	bl_error = status[REG_BL_ERROR] & (guint8)~BL_ERROR_RESERVED;
	if (bl_status & BL_STATUS_BUSY)
		return -ETIMEDOUT;
	if (bl_status != BL_STATUS_RUNNING || bl_error != BL_ERROR_BOOTLOADING)
		return -EIO;
	return 0;
}

static int cyapa_gen3_write_blocks(struct cyapa *cyapa, size_t start, size_t count,
				   const guint8 *image)
{
	for (size_t i = 0; i < count; i++) {
		int error = cyapa_gen3_write_fw_block(cyapa, (guint16)(start + i),
						      &image[i * CYAPA_FW_BLOCK_SIZE]);

		if (error)
			return error;
	}
	return 0;
}

static int cyapa_gen3_do_fw_update(struct cyapa *cyapa, const guint8 *fw)
{
	int error = cyapa_gen3_write_blocks(cyapa, CYAPA_FW_DATA_BLOCK_START,
					    CYAPA_FW_DATA_BLOCK_COUNT, &fw[CYAPA_FW_HDR_SIZE]);

	if (error) {
		emub_dev_log(cyapa->d, "FW update aborted, write image: %d", error);
		return error;
	}
	error = cyapa_gen3_write_blocks(cyapa, CYAPA_FW_HDR_BLOCK_START,
					CYAPA_FW_HDR_BLOCK_COUNT, fw);
	if (error) {
		emub_dev_log(cyapa->d, "FW update aborted, write checksum: %d", error);
		return error;
	}
	return 0;
}

/* cyapa->ops->set_power_mode */
static int cyapa_set_power_mode(struct cyapa *cyapa, guint8 mode)
{
	if (cyapa->gen == CYAPA_GEN6)
		return cyapa_gen6_set_power_mode(cyapa, mode);
	return cyapa->gen == CYAPA_GEN5 ? cyapa_gen5_set_power_mode(cyapa, mode)
					: cyapa_gen3_set_power_mode(cyapa, mode);
}

/* cyapa_enable/disable_irq_for_cmd with the input device not open (or
 * gone): the power mode, and for Gen5 the interrupt its commands answer
 * on (Gen3 polls) */
static void cyapa_cmd_power(struct cyapa *cyapa, bool on)
{
	if (on && (!cyapa->input || cyapa->operational))
		cyapa_set_power_mode(cyapa, PWR_MODE_FULL_ACTIVE);
	if (cyapa->gen >= CYAPA_GEN5 && on != cyapa->irq_on) {
		if (on)
			drv_irq_enable(cyapa->d);
		else
			drv_irq_disable(cyapa->d);
		cyapa->irq_on = on;
	}
	if (!on && (!cyapa->input || cyapa->operational))
		cyapa_set_power_mode(cyapa, PWR_MODE_OFF);
}

static int cyapa_firmware(struct cyapa *cyapa, const char *fw_name)
{
	struct emub_dev *d = cyapa->d;
	guint8 *fw = NULL;
	gsize size = 0;
	int error = drv_request_firmware(d, fw_name, &fw, &size);

	if (error) {
		emub_dev_log(d, "Could not load firmware from %s: %d", fw_name, error);
		return error;
	}
	error = cyapa->gen >= CYAPA_GEN5 ? cyapa_pip_check_fw(cyapa, fw, size)
					 : cyapa_gen3_check_fw(cyapa, fw, size);
	if (error) {
		emub_dev_log(d, "Invalid CYAPA firmware image: %s", fw_name);
		goto done;
	}
	cyapa_cmd_power(cyapa, true);
	error = cyapa->gen >= CYAPA_GEN5 ? cyapa_pip_bl_enter(cyapa)
					 : cyapa_gen3_bl_enter(cyapa);
	if (error) {
		emub_dev_log(d, "bl_enter failed, %d", error);
		goto err_detect;
	}
	/* Gen5's bl_activate does nothing; Gen3's initiate is its activate */
	error = cyapa->gen >= CYAPA_GEN5 ? 0 : cyapa_gen3_bl_activate(cyapa);
	if (error) {
		emub_dev_log(d, "bl_activate failed, %d", error);
		goto err_detect;
	}
	if (cyapa->gen >= CYAPA_GEN5) {
		error = cyapa_pip_bl_initiate(cyapa, fw, size);
		if (error) {
			emub_dev_log(d, "bl_initiate failed, %d", error);
			goto err_detect;
		}
	}
	error = cyapa->gen >= CYAPA_GEN5 ? cyapa_pip_do_fw_update(cyapa, fw, size)
					 : cyapa_gen3_do_fw_update(cyapa, fw);
	if (error)
		emub_dev_log(d, "update_fw failed, %d", error);
err_detect:
	cyapa_cmd_power(cyapa, false);
done:
	g_free(fw);
	return error;
}

static int cyapa_reinitialize(struct cyapa *cyapa)
{
	int error;

	if (cyapa->operational)
		cyapa_set_power_mode(cyapa, PWR_MODE_FULL_ACTIVE);
	error = cyapa_detect(cyapa);
	if (!error && !cyapa->input && cyapa->operational) {
		error = cyapa_create_input_dev(cyapa);
		if (error)
			emub_dev_log(cyapa->d, "create input_dev instance failed: %d", error);
	}
	/* nobody has the input device open: power off */
	if (cyapa->operational)
		cyapa_set_power_mode(cyapa, PWR_MODE_OFF);
	return error;
}

static int cyapa_update_fw_store(struct cyapa *cyapa, const char *buf, size_t count)
{
	char fw_name[NAME_MAX_];
	int ret, error;

	if (count >= NAME_MAX_) {
		emub_dev_log(cyapa->d, "File name too long");
		return -EINVAL;
	}
	memcpy(fw_name, buf, count);
	if (count && fw_name[count - 1] == '\n')
		fw_name[count - 1] = '\0';
	else
		fw_name[count] = '\0';
	if (cyapa->input) {
		drv_input_unregister(cyapa->d);
		cyapa->input = false;
	}
	error = cyapa_firmware(cyapa, fw_name);
	if (error)
		emub_dev_log(cyapa->d, "firmware update failed: %d", error);
	ret = cyapa_reinitialize(cyapa);
	if (ret) {
		emub_dev_log(cyapa->d, "failed to re-detect after updated: %d", ret);
		error = error ? error : ret;
	}
	return error;
}

static int cyapa_gen3_do_calibrate(struct cyapa *cyapa)
{
	int ret = cyapa_read_byte(cyapa, REG_OFFSET_DATA_BASE), waited;

	if (ret < 0) {
		emub_dev_log(cyapa->d, "Error reading dev status: %d", ret);
		return ret;
	}
	if ((ret & CYAPA_DEV_NORMAL) != CYAPA_DEV_NORMAL) {
		emub_dev_log(cyapa->d, "Trackpad device is busy, device state: 0x%02x", ret);
		return -EAGAIN;
	}
	ret = cyapa_write_byte(cyapa, REG_OFFSET_COMMAND_BASE, OP_RECALIBRATION_MASK);
	if (ret < 0) {
		emub_dev_log(cyapa->d, "Failed to send calibrate command: %d", ret);
		return ret;
	}
	for (waited = 0; waited < 2000; waited += 100) {
		drv_msleep(cyapa->d, 100);
		ret = cyapa_read_byte(cyapa, REG_OFFSET_DATA_BASE);
		if (ret < 0) {
			emub_dev_log(cyapa->d, "Error reading dev status: %d", ret);
			return ret;
		}
		if ((ret & CYAPA_DEV_NORMAL) == CYAPA_DEV_NORMAL)
			return 0;
	}
	emub_dev_log(cyapa->d, "Failed to calibrate. Timeout.");
	return -ETIMEDOUT;
}

static int cyapa_attr_write(struct emub_dev *d, const char *attr, const char *buf, size_t len)
{
	struct cyapa *cyapa = data_of(d);
	int error = 0;

	if (!cyapa)
		return 0;
	if (!strcmp(attr, "update_fw")) {
		error = cyapa_update_fw_store(cyapa, buf, len);
		set_attrs(cyapa, false);
		return drv_update_fw_done(d, error);
	}
	if (!strcmp(attr, "calibrate")) {
		if (!cyapa->operational)
			return -EBUSY; /* still in the bootloader */
		cyapa_cmd_power(cyapa, true);
		/* Gen5's calibration (cyapa_pip_do_calibrate) is not
		 * modelled */
		error = cyapa->gen >= CYAPA_GEN5 ? -EOPNOTSUPP : cyapa_gen3_do_calibrate(cyapa);
		cyapa_cmd_power(cyapa, false);
	}
	return error;
}

/* ------------------------------------------------------------ probe */

static int cyapa_probe(struct emub_dev *d)
{
	struct cyapa *cyapa = g_new0(struct cyapa, 1);
	guint8 dummy;
	struct em_msg quick = { .flags = EM_MSG_RD, .len = 1, .buf = &dummy };
	int error;

	cyapa->d = d;
	cyapa->addr = d->chip->desc->addr;
	g_free(d->priv);
	d->priv = cyapa;
	if (d->chip->ad->desc.smbus_only) {
		emub_dev_log(d,
			     "an SMBus-only adapter: cyapa's SMBus commands are not modelled");
		drv_free_priv(d);
		return -EIO;
	}
	quick.addr = cyapa->addr;
	if (drv_i2c_transfer(d, &quick, 1) < 0) {
		drv_free_priv(d);
		return -ENODEV;
	}
	drv_regulator(d, true);
	/* cyapa_initialize */
	cyapa->state = CYAPA_STATE_NO_DEVICE;
	cyapa->gen = CYAPA_GEN_UNKNOWN;
	cyapa->dev_pwr_mode = UNINIT_PWR_MODE; /* cyapa_pip_cmd_state_initialize */
	cyapa->dev_sleep_time = UNINIT_SLEEP_TIME;
	cyapa->pip_in_progress = PIP_INVALID_CMD;
	error = cyapa_detect(cyapa);
	if (error) {
		emub_dev_log(d, "failed to detect and initialize tp device.");
		goto fail;
	}
	if (cyapa->operational)
		cyapa_set_power_mode(cyapa, PWR_MODE_OFF);
	set_attrs(cyapa, true);
	error = drv_irq_request(d);
	if (error) {
		emub_dev_log(d, "failed to request threaded irq: %d", error);
		goto fail_attrs;
	}
	if (cyapa->operational) {
		error = cyapa_create_input_dev(cyapa);
		if (error) {
			emub_dev_log(d, "create input_dev instance failed: %d", error);
			goto fail_attrs;
		}
	}
	return 0;

fail_attrs:
	drv_attrs_remove(d);
fail:
	drv_devm_release(d); /* the input device, the regulator, the data */
	return error;
}

static void cyapa_remove(struct emub_dev *d)
{
	drv_irq_disable(d);
	drv_attrs_remove(d);
	drv_devm_release(d);
}

static const char *const cyapa_of_match[] = { "cypress,cyapa", NULL };
static const char *const cyapa_acpi_match[] = { "CYAP0000", "CYAP0001", "CYAP0002", NULL };

const struct emub_driver_ops emub_drv_cyapa = {
	.name = "cyapa",
	.of_match = cyapa_of_match,
	.acpi_match = cyapa_acpi_match,
	.probe = cyapa_probe,
	.remove = cyapa_remove,
	.attr_write = cyapa_attr_write,
	.irq = cyapa_irq,
	.destroy = drv_free_priv,
};
