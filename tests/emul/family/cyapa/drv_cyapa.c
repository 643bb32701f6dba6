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
 * Not modelled: the SMBus transport (an SMBus-only adapter fails probe
 * here), Gen5/Gen6 (PIP) parts, runtime PM and suspend, the
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
};

#define CYAPA_GEN_UNKNOWN 0
#define CYAPA_GEN3 3

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
};

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

/* cyapa_get_state, the i2c (not SMBus) path; the PIP parsers (Gen5/6)
 * are not modelled: a Gen3 part never reaches them but in a state none
 * of them knows either. */
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
	if (cyapa->gen != CYAPA_GEN3)
		return -ENODEV; /* Gen5/6 not modelled */
	error = cyapa_gen3_do_operational_check(cyapa);
	cyapa->operational = !error && cyapa->state == CYAPA_STATE_OP;
	return error;
}

static bool cyapa_is_bootloader_mode(const struct cyapa *cyapa)
{
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
	case CYAPA_STATE_OP:
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

/* cyapa_enable/disable_irq_for_cmd with the input device not open (or
 * gone): Gen3 polls, only the power mode changes */
static void cyapa_cmd_power(struct cyapa *cyapa, bool on)
{
	if (!cyapa->input || cyapa->operational)
		cyapa_gen3_set_power_mode(cyapa, on ? PWR_MODE_FULL_ACTIVE : PWR_MODE_OFF);
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
	error = cyapa_gen3_check_fw(cyapa, fw, size);
	if (error) {
		emub_dev_log(d, "Invalid CYAPA firmware image: %s", fw_name);
		goto done;
	}
	cyapa_cmd_power(cyapa, true);
	error = cyapa_gen3_bl_enter(cyapa);
	if (error) {
		emub_dev_log(d, "bl_enter failed, %d", error);
		goto err_detect;
	}
	error = cyapa_gen3_bl_activate(cyapa);
	if (error) {
		emub_dev_log(d, "bl_activate failed, %d", error);
		goto err_detect;
	}
	error = cyapa_gen3_do_fw_update(cyapa, fw);
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
		cyapa_gen3_set_power_mode(cyapa, PWR_MODE_FULL_ACTIVE);
	error = cyapa_detect(cyapa);
	if (!error && !cyapa->input && cyapa->operational) {
		error = cyapa_create_input_dev(cyapa);
		if (error)
			emub_dev_log(cyapa->d, "create input_dev instance failed: %d", error);
	}
	/* nobody has the input device open: power off */
	if (cyapa->operational)
		cyapa_gen3_set_power_mode(cyapa, PWR_MODE_OFF);
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
		error = cyapa_gen3_do_calibrate(cyapa);
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
	error = cyapa_detect(cyapa);
	if (error) {
		emub_dev_log(d, "failed to detect and initialize tp device.");
		goto fail;
	}
	if (cyapa->operational)
		cyapa_gen3_set_power_mode(cyapa, PWR_MODE_OFF);
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
	.destroy = drv_free_priv,
};
