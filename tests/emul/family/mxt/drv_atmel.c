// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model of the atmel_mxt_ts kernel driver, written from
 * drivers/input/touchscreen/atmel_mxt_ts.c (Linux 6.1) function by
 * function, independent of touchfw's agent: its bus transactions go through
 * the emulated adapter like the real driver's (and are counted as driver
 * traffic), its sleeps and waits take model time, and what user space sees
 * (bind with or without an input device, the input device registered from
 * the asynchronous maxtouch.cfg callback, sysfs attributes, update_fw) is
 * what the real driver produces.
 *
 * Not modelled: touch reporting (messages are consumed and dropped),
 * suspend/resume, the T37 debug video device, wake GPIO, ACPI quirks.
 *
 * Reading fw_version, hw_version or object while the driver has no info
 * block (bootloader mode, or after a failed update_fw) dereferences NULL in
 * the real driver: a kernel oops.  Those files are armed then; a read is
 * recorded as an oops and wedges the device (drvcore.c).
 */
#include <errno.h>
#include <linux/input.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emub-priv.h"
#include "mxt-emul.h"
#include "mxt_model.h"

#define MXT_FW_NAME "maxtouch.fw"
#define MXT_CFG_NAME "maxtouch.cfg"
#define MXT_CFG_MAGIC "OBP_RAW V1"

#define MXT_OBJECT_START 0x07
#define MXT_OBJECT_SIZE 6
#define MXT_INFO_CHECKSUM_SIZE 3
#define MXT_MAX_BLOCK_WRITE 256

#define MXT_GEN_MESSAGE_T5 5
#define MXT_GEN_COMMAND_T6 6
#define MXT_GEN_POWER_T7 7
#define MXT_TOUCH_MULTI_T9 9
#define MXT_SPT_COMMSCONFIG_T18 18
#define MXT_SPT_GPIOPWM_T19 19
#define MXT_SPT_MESSAGECOUNT_T44 44
#define MXT_SPT_DYNAMICCONFIGURATIONCONTAINER_T71 71
#define MXT_TOUCH_MULTITOUCHSCREEN_T100 100

#define MXT_RPTID_NOMSG 0xff
#define MXT_COMMAND_RESET 0
#define MXT_COMMAND_BACKUPNV 1
#define MXT_COMMAND_REPORTALL 3
#define MXT_T6_STATUS_RESET 0x80
#define MXT_BOOT_VALUE 0xa5
#define MXT_RESET_VALUE 0x01
#define MXT_BACKUP_VALUE 0x55
#define MXT_COMMS_CTRL 0
#define MXT_COMMS_RETRIGEN 0x40

#define MXT_T9_XSIZE 3
#define MXT_T9_YSIZE 4
#define MXT_T9_ORIENT 9
#define MXT_T9_RANGE 18
#define MXT_T100_CFG1 1
#define MXT_T100_TCHAUX 3
#define MXT_T100_XSIZE 9
#define MXT_T100_XRANGE 13
#define MXT_T100_YSIZE 20
#define MXT_T100_YRANGE 24
#define MXT_T100_TCHAUX_AMPL 0x02
#define MXT_T100_TCHAUX_AREA 0x04
#define MXT_T100_TCHAUX_VECT 0x01

/* Timing, atmel_mxt_ts.c */
#define MXT_BACKUP_TIME 50 /* msec */
#define MXT_RESET_GPIO_TIME 20
#define MXT_RESET_INVALID_CHG 100
#define MXT_RESET_TIME 200
#define MXT_RESET_TIMEOUT 3000
#define MXT_CRC_TIMEOUT 1000
#define MXT_FW_RESET_TIME 3000
#define MXT_FW_CHG_TIMEOUT 300

/* Bootloader states */
#define MXT_WAITING_BOOTLOAD_CMD 0xc0
#define MXT_WAITING_FRAME_DATA 0x80
#define MXT_FRAME_CRC_CHECK 0x02
#define MXT_FRAME_CRC_FAIL 0x03
#define MXT_FRAME_CRC_PASS 0x04
#define MXT_APP_CRC_FAIL 0x40
#define MXT_BOOT_STATUS_MASK 0x3f
#define MXT_BOOT_EXTENDED_ID 0x20
#define MXT_UNLOCK_CMD_MSB 0xaa
#define MXT_UNLOCK_CMD_LSB 0xdc

enum { WORK_CONFIG_CB = 1 };

struct mxt_info {
	guint8 family_id, variant_id, version, build, matrix_xsize, matrix_ysize, object_num;
};

struct mxt_object {
	guint8 type;
	guint16 start_address;
	guint8 size_minus_one, instances_minus_one, num_report_ids;
};

struct mxt_data {
	struct emub_dev *d;
	char phys[64];
	guint16 addr, bootloader_addr;
	bool in_bootloader;
	bool have_reset_gpio;
	/* info block */
	guint8 *raw_info_block;
	struct mxt_info *info; /* NULL when there is none */
	struct mxt_object *object_table;
	guint32 info_crc, config_crc;
	guint16 mem_size;
	guint16 T5_address, T6_address, T7_address, T71_address, T18_address, T44_address;
	guint8 T5_msg_size, T6_reportid, T9_reportid_min, T9_reportid_max, T19_reportid;
	guint8 T100_reportid_min, T100_reportid_max, max_reportid, num_touchids;
	int multitouch;
	guint8 t6_status;
	guint8 *msg_buf;
	guint8 last_message_count;
	bool use_retrigen_workaround;
	guint8 t7_idle, t7_active;
	/* completions */
	unsigned int bl_completion, reset_completion, crc_completion;
	bool input_registered;
};

static struct mxt_data *data_of(struct emub_dev *d)
{
	return d->priv;
}

/* ------------------------------------------------------------ bus access */

static int mxt_bootloader_read(struct mxt_data *data, guint8 *val, guint16 count)
{
	struct em_msg m = { .addr = data->bootloader_addr,
			    .flags = EM_MSG_RD,
			    .len = count,
			    .buf = val };
	int ret = drv_i2c_transfer(data->d, &m, 1);

	if (ret == 1)
		return 0;
	ret = ret < 0 ? ret : -EIO;
	emub_dev_log(data->d, "mxt_bootloader_read: i2c recv failed (%d)", ret);
	return ret;
}

static int mxt_bootloader_write(struct mxt_data *data, const guint8 *val, guint16 count)
{
	struct em_msg m = { .addr = data->bootloader_addr,
			    .flags = 0,
			    .len = count,
			    .buf = (guint8 *)val };
	int ret = drv_i2c_transfer(data->d, &m, 1);

	if (ret == 1)
		return 0;
	ret = ret < 0 ? ret : -EIO;
	emub_dev_log(data->d, "mxt_bootloader_write: i2c send failed (%d)", ret);
	return ret;
}

static int mxt_lookup_bootloader_address(struct mxt_data *data, bool retry)
{
	guint8 appmode = (guint8)data->addr;
	guint8 family_id = data->info ? data->info->family_id : 0;

	switch (appmode) {
	case 0x4a:
	case 0x4b:
		if (retry || family_id >= 0xa2) {
			data->bootloader_addr = appmode - 0x24;
			return 0;
		}
		/* fall through */
	case 0x4c:
	case 0x4d:
	case 0x5a:
	case 0x5b:
		data->bootloader_addr = appmode - 0x26;
		return 0;
	default:
		emub_dev_log(data->d, "Appmode i2c address 0x%02x not found", appmode);
		return -EINVAL;
	}
}

static int mxt_probe_bootloader(struct mxt_data *data, bool alt_address)
{
	guint8 val;
	int error = mxt_lookup_bootloader_address(data, alt_address);

	if (error)
		return error;
	error = mxt_bootloader_read(data, &val, 1);
	if (error)
		return error;
	emub_dev_log(data->d, "Detected bootloader, status:%02X%s", val,
		     (val & ~MXT_BOOT_STATUS_MASK) == MXT_APP_CRC_FAIL ? ", APP_CRC_FAIL" : "");
	return 0;
}

static guint8 mxt_get_bootloader_version(struct mxt_data *data, guint8 val)
{
	guint8 buf[3];

	if (val & MXT_BOOT_EXTENDED_ID) {
		if (mxt_bootloader_read(data, buf, 3) != 0)
			return val;
		return buf[0];
	}
	return val;
}

static int mxt_check_bootloader(struct mxt_data *data, unsigned int state, bool wait)
{
	guint8 val;
	int ret;

recheck:
	if (wait) {
		ret = drv_wait_completion(data->d, &data->bl_completion, MXT_FW_CHG_TIMEOUT);
		if (ret) {
			emub_dev_log(data->d, "Update wait error %d", ret);
			return ret;
		}
	}
	ret = mxt_bootloader_read(data, &val, 1);
	if (ret)
		return ret;
	if (state == MXT_WAITING_BOOTLOAD_CMD)
		val = mxt_get_bootloader_version(data, val);
	switch (state) {
	case MXT_WAITING_BOOTLOAD_CMD:
	case MXT_WAITING_FRAME_DATA:
	case MXT_APP_CRC_FAIL:
		val &= ~MXT_BOOT_STATUS_MASK;
		break;
	case MXT_FRAME_CRC_PASS:
		if (val == MXT_FRAME_CRC_CHECK)
			goto recheck;
		if (val == MXT_FRAME_CRC_FAIL) {
			emub_dev_log(data->d, "Bootloader CRC fail");
			return -EINVAL;
		}
		break;
	default:
		return -EINVAL;
	}
	if (val != state) {
		emub_dev_log(data->d, "Invalid bootloader state %02X != %02X", val, state);
		return -EINVAL;
	}
	return 0;
}

static int mxt_send_bootloader_cmd(struct mxt_data *data, bool unlock)
{
	guint8 buf[2];

	if (unlock) {
		buf[0] = MXT_UNLOCK_CMD_LSB;
		buf[1] = MXT_UNLOCK_CMD_MSB;
	} else {
		buf[0] = 0x01;
		buf[1] = 0x01;
	}
	return mxt_bootloader_write(data, buf, 2);
}

static int __mxt_read_reg(struct mxt_data *data, guint16 reg, guint16 len, void *val)
{
	guint8 buf[2] = { reg & 0xff, (reg >> 8) & 0xff };
	struct em_msg xfer[2] = {
		{ .addr = data->addr, .flags = 0, .len = 2, .buf = buf },
		{ .addr = data->addr, .flags = EM_MSG_RD, .len = len, .buf = val },
	};
	int ret = drv_i2c_transfer(data->d, xfer, 2);

	if (ret == 2)
		return 0;
	if (ret >= 0)
		ret = -EIO;
	emub_dev_log(data->d, "__mxt_read_reg: i2c transfer failed (%d)", ret);
	return ret;
}

static int __mxt_write_reg(struct mxt_data *data, guint16 reg, guint16 len, const void *val)
{
	guint8 *buf = g_malloc(len + 2u);
	int ret;

	buf[0] = reg & 0xff;
	buf[1] = (reg >> 8) & 0xff;
	memcpy(buf + 2, val, len);
	ret = drv_i2c_master_send(data->d, data->addr, buf, (guint16)(len + 2));
	if (ret == len + 2) {
		ret = 0;
	} else {
		if (ret >= 0)
			ret = -EIO;
		emub_dev_log(data->d, "__mxt_write_reg: i2c send failed (%d)", ret);
	}
	g_free(buf);
	return ret;
}

static int mxt_write_reg(struct mxt_data *data, guint16 reg, guint8 val)
{
	return __mxt_write_reg(data, reg, 1, &val);
}

static struct mxt_object *mxt_get_object(struct mxt_data *data, guint8 type)
{
	for (int i = 0; data->info && i < data->info->object_num; i++)
		if (data->object_table[i].type == type)
			return &data->object_table[i];
	return NULL;
}

static size_t obj_size(const struct mxt_object *o)
{
	return (size_t)o->size_minus_one + 1;
}

static size_t obj_instances(const struct mxt_object *o)
{
	return (size_t)o->instances_minus_one + 1;
}

/* ------------------------------------------------------------ messages */

static void mxt_proc_t6_messages(struct mxt_data *data, const guint8 *msg)
{
	guint8 status = msg[1];
	guint32 crc = em_get_le24(msg + 2);

	if (crc != data->config_crc)
		data->config_crc = crc;
	data->crc_completion++;
	if (status & MXT_T6_STATUS_RESET)
		data->reset_completion++;
	data->t6_status = status;
}

static int mxt_proc_message(struct mxt_data *data, const guint8 *message)
{
	guint8 report_id = message[0];

	if (report_id == MXT_RPTID_NOMSG)
		return 0;
	if (report_id == data->T6_reportid)
		mxt_proc_t6_messages(data, message);
	/* touch and key reports: not modelled, consumed */
	return 1;
}

static int mxt_read_and_process_messages(struct mxt_data *data, guint8 count)
{
	int ret, num_valid = 0;

	if (count > data->max_reportid)
		return -EINVAL;
	ret = __mxt_read_reg(data, data->T5_address, (guint16)(data->T5_msg_size * count),
			     data->msg_buf);
	if (ret)
		return ret;
	for (int i = 0; i < count; i++)
		if (mxt_proc_message(data, data->msg_buf + data->T5_msg_size * i) == 1)
			num_valid++;
	return num_valid;
}

static void mxt_process_messages_t44(struct mxt_data *data)
{
	guint8 count, num_left;
	int ret;

	ret = __mxt_read_reg(data, data->T44_address, (guint16)(data->T5_msg_size + 1),
			     data->msg_buf);
	if (ret)
		return;
	count = data->msg_buf[0];
	if (count == 0)
		return;
	if (count > data->max_reportid)
		count = data->max_reportid;
	ret = mxt_proc_message(data, data->msg_buf + 1);
	if (ret < 0)
		return;
	num_left = count - 1;
	if (num_left)
		mxt_read_and_process_messages(data, num_left);
}

static int mxt_process_messages_until_invalid(struct mxt_data *data)
{
	int count = data->max_reportid, read;
	guint8 tries = 2;

	do {
		read = mxt_read_and_process_messages(data, (guint8)count);
		if (read < count)
			return 0;
	} while (--tries);
	emub_dev_log(data->d, "CHG pin isn't cleared");
	return -EBUSY;
}

static void mxt_process_messages(struct mxt_data *data)
{
	int total_handled, num_handled;
	guint8 count = data->last_message_count;

	if (count < 1 || count > data->max_reportid)
		count = 1;
	total_handled = mxt_read_and_process_messages(data, count + 1);
	if (total_handled < 0)
		return;
	if (total_handled > count) {
		do {
			num_handled = mxt_read_and_process_messages(data, 2);
			if (num_handled < 0)
				return;
			total_handled += num_handled;
			if (num_handled < 2)
				break;
		} while (total_handled < data->num_touchids);
	}
	data->last_message_count = (guint8)total_handled;
}

/* mxt_interrupt() */
static void atmel_irq(struct emub_dev *d)
{
	struct mxt_data *data = data_of(d);

	if (!data)
		return;
	if (data->in_bootloader) {
		data->bl_completion++; /* complete(&data->bl_completion) */
		return;
	}
	if (!data->object_table)
		return;
	if (data->T44_address)
		mxt_process_messages_t44(data);
	else
		mxt_process_messages(data);
}

static int mxt_t6_command(struct mxt_data *data, guint16 cmd_offset, guint8 value, bool wait)
{
	guint16 reg = (guint16)(data->T6_address + cmd_offset);
	int timeout_counter = 0, ret;
	guint8 command_register;

	ret = mxt_write_reg(data, reg, value);
	if (ret)
		return ret;
	if (!wait)
		return 0;
	do {
		drv_msleep(data->d, 20);
		ret = __mxt_read_reg(data, reg, 1, &command_register);
		if (ret)
			return ret;
	} while (command_register != 0 && timeout_counter++ <= 100);
	if (timeout_counter > 100) {
		emub_dev_log(data->d, "Command failed!");
		return -EIO;
	}
	return 0;
}

static int mxt_acquire_irq(struct mxt_data *data)
{
	drv_irq_enable(data->d);
	if (data->use_retrigen_workaround)
		return mxt_process_messages_until_invalid(data);
	return 0;
}

static int mxt_soft_reset(struct mxt_data *data)
{
	int ret;

	emub_dev_log(data->d, "Resetting device");
	drv_irq_disable(data->d);
	data->reset_completion = 0;
	ret = mxt_t6_command(data, MXT_COMMAND_RESET, MXT_RESET_VALUE, false);
	if (ret)
		return ret;
	drv_msleep(data->d, MXT_RESET_INVALID_CHG);
	mxt_acquire_irq(data);
	return drv_wait_completion(data->d, &data->reset_completion, MXT_RESET_TIMEOUT);
}

static void mxt_update_crc(struct mxt_data *data, guint8 cmd, guint8 value)
{
	data->config_crc = 0;
	data->crc_completion = 0;
	mxt_t6_command(data, cmd, value, true);
	drv_wait_completion(data->d, &data->crc_completion, MXT_CRC_TIMEOUT);
}

static guint32 mxt_calculate_crc(const guint8 *base, long start_off, long end_off)
{
	guint32 crc = 0;
	const guint8 *ptr = base + start_off, *last_val = base + end_off - 1;

	if (end_off < start_off)
		return (guint32)-EINVAL;
	while (ptr < last_val) {
		guint32 result = (crc << 1) ^ (guint32)(ptr[1] << 8 | ptr[0]);

		if (result & 0x1000000)
			result ^= 0x80001b;
		crc = result;
		ptr += 2;
	}
	if (ptr == last_val) {
		guint32 result = (crc << 1) ^ ptr[0];

		if (result & 0x1000000)
			result ^= 0x80001b;
		crc = result;
	}
	return crc & 0x00ffffff;
}

static int mxt_check_retrigen(struct mxt_data *data)
{
	guint8 val = 0;
	int error;

	data->use_retrigen_workaround = false;
	if (data->d->chip->desc->irq_level)
		return 0; /* irqd_is_level_type() */
	if (data->T18_address) {
		error = __mxt_read_reg(data, data->T18_address + MXT_COMMS_CTRL, 1, &val);
		if (error)
			return error;
		if (val & MXT_COMMS_RETRIGEN)
			return 0;
	}
	emub_dev_log(data->d, "Enabling RETRIGEN workaround");
	data->use_retrigen_workaround = true;
	return 0;
}

/* ------------------------------------------------------------ info block */

static void mxt_free_object_table(struct mxt_data *data)
{
	/* the kernel's table points into the info block; ours is parsed */
	g_free(data->object_table);
	data->object_table = NULL;
	data->info = NULL;
	g_free(data->raw_info_block);
	data->raw_info_block = NULL;
	g_free(data->msg_buf);
	data->msg_buf = NULL;
	data->T5_address = 0;
	data->T5_msg_size = 0;
	data->T6_reportid = 0;
	data->T7_address = 0;
	data->T71_address = 0;
	data->T9_reportid_min = data->T9_reportid_max = 0;
	data->T18_address = 0;
	data->T19_reportid = 0;
	data->T44_address = 0;
	data->T100_reportid_min = data->T100_reportid_max = 0;
	data->max_reportid = 0;
	data->multitouch = 0;
}

static int mxt_parse_object_table(struct mxt_data *data, const guint8 *raw)
{
	guint8 reportid = 1;

	data->mem_size = 0;
	data->object_table = g_new0(struct mxt_object,
				    data->info->object_num ? data->info->object_num : 1);
	for (int i = 0; i < data->info->object_num; i++) {
		const guint8 *e = raw + i * MXT_OBJECT_SIZE;
		struct mxt_object *object = &data->object_table[i];
		guint8 min_id = 0;
		guint16 end_address;

		object->type = e[0];
		object->start_address = em_get_le16(e + 1);
		object->size_minus_one = e[3];
		object->instances_minus_one = e[4];
		object->num_report_ids = e[5];
		if (object->num_report_ids) {
			min_id = reportid;
			reportid = (guint8)(reportid +
					    object->num_report_ids * obj_instances(object));
		}
		switch (object->type) {
		case MXT_GEN_MESSAGE_T5:
			if (data->info->family_id == 0x80 && data->info->version < 0x20)
				data->T5_msg_size = (guint8)obj_size(object);
			else
				data->T5_msg_size = (guint8)(obj_size(object) - 1);
			data->T5_address = object->start_address;
			break;
		case MXT_GEN_COMMAND_T6:
			data->T6_reportid = min_id;
			data->T6_address = object->start_address;
			break;
		case MXT_GEN_POWER_T7:
			data->T7_address = object->start_address;
			break;
		case MXT_SPT_DYNAMICCONFIGURATIONCONTAINER_T71:
			data->T71_address = object->start_address;
			break;
		case MXT_TOUCH_MULTI_T9:
			data->multitouch = MXT_TOUCH_MULTI_T9;
			data->T9_reportid_min = min_id;
			data->T9_reportid_max = (guint8)(min_id + object->num_report_ids - 1);
			data->num_touchids = object->num_report_ids;
			break;
		case MXT_SPT_COMMSCONFIG_T18:
			data->T18_address = object->start_address;
			break;
		case MXT_SPT_MESSAGECOUNT_T44:
			data->T44_address = object->start_address;
			break;
		case MXT_SPT_GPIOPWM_T19:
			data->T19_reportid = min_id;
			break;
		case MXT_TOUCH_MULTITOUCHSCREEN_T100:
			data->multitouch = MXT_TOUCH_MULTITOUCHSCREEN_T100;
			data->T100_reportid_min = min_id;
			data->T100_reportid_max = (guint8)(reportid - 1);
			data->num_touchids = (guint8)(object->num_report_ids - 2);
			break;
		}
		end_address = (guint16)(object->start_address +
					obj_size(object) * obj_instances(object) - 1);
		if (end_address >= data->mem_size)
			data->mem_size = (guint16)(end_address + 1);
	}
	data->max_reportid = reportid;
	if (data->T44_address && data->T5_address != data->T44_address + 1) {
		emub_dev_log(data->d, "Invalid T44 position");
		return -EINVAL;
	}
	data->msg_buf = g_malloc0((gsize)data->max_reportid *
				  (data->T5_msg_size ? data->T5_msg_size : 1));
	return 0;
}

static int mxt_read_info_block(struct mxt_data *data)
{
	guint8 id[7];
	guint8 *buf;
	size_t size;
	guint32 calculated_crc;
	int error;

	if (data->raw_info_block)
		mxt_free_object_table(data);
	error = __mxt_read_reg(data, 0, sizeof(id), id);
	if (error)
		return error;
	size = sizeof(id) + (size_t)id[6] * MXT_OBJECT_SIZE + MXT_INFO_CHECKSUM_SIZE;
	buf = g_malloc0(size);
	memcpy(buf, id, sizeof(id));
	error = __mxt_read_reg(data, MXT_OBJECT_START, (guint16)(size - MXT_OBJECT_START),
			       buf + MXT_OBJECT_START);
	if (error) {
		g_free(buf);
		return error;
	}
	{
		const guint8 *c = buf + size - MXT_INFO_CHECKSUM_SIZE;

		data->info_crc = em_get_le24(c);
	}
	calculated_crc = mxt_calculate_crc(buf, 0, (long)(size - MXT_INFO_CHECKSUM_SIZE));
	if (data->info_crc == 0 || data->info_crc != calculated_crc) {
		emub_dev_log(data->d, "Info Block CRC error calculated=0x%06X read=0x%06X",
			     calculated_crc, data->info_crc);
		g_free(buf);
		return -EIO;
	}
	data->raw_info_block = buf;
	data->info = (struct mxt_info *)buf;
	emub_dev_log(data->d, "Family: %u Variant: %u Firmware V%u.%u.%02X Objects: %u",
		     data->info->family_id, data->info->variant_id, data->info->version >> 4,
		     data->info->version & 0xf, data->info->build, data->info->object_num);
	error = mxt_parse_object_table(data, buf + MXT_OBJECT_START);
	if (error) {
		mxt_free_object_table(data);
		return error;
	}
	return 0;
}

/* ------------------------------------------------------------ sysfs attributes */

/*
 * The object attribute reads every readable object over i2c when read; a
 * regular file can not run code, so it holds a snapshot taken from the
 * chip's memory when the driver (re)initialises, without bus traffic.
 */
static char *object_snapshot(struct mxt_data *data)
{
	static const guint8 readable[] = {
		6,  7,	8,  53, 9,  15, 23, 52, 100, 20, 22, 24, 27,
		40, 41, 42, 47, 48, 18, 19, 25, 28,  38, 43, 46, 71
	};
	struct mxt_model *m = data->d->chip->model;
	GString *s = g_string_new(NULL);
	const guint8 *mem;
	guint16 msize;

	g_mutex_lock(&data->d->eb->lock);
	mem = mxt_model_mem(m, &msize);
	for (int i = 0; i < data->info->object_num; i++) {
		struct mxt_object *o = &data->object_table[i];

		if (!memchr(readable, o->type, sizeof(readable)))
			continue;
		g_string_append_printf(s, "T%u:\n", o->type);
		for (size_t j = 0; j < obj_instances(o); j++) {
			guint16 addr = (guint16)(o->start_address + j * obj_size(o));

			if (obj_instances(o) > 1)
				g_string_append_printf(s, "Instance %zu\n", j);
			for (size_t k = 0; k < obj_size(o); k++) {
				guint8 v = addr + k < msize ? mem[addr + k] : 0;

				g_string_append_printf(s, "\t[%2zu]: %02x (%d)\n", k, v, v);
			}
			g_string_append(s, "\n");
		}
	}
	g_mutex_unlock(&data->d->eb->lock);
	return g_string_free(s, FALSE);
}

static void update_attrs(struct mxt_data *data)
{
	struct emub_dev *d = data->d;

	if (!data->info) {
		drv_attr_set(d, "fw_version", NULL, true);
		drv_attr_set(d, "hw_version", NULL, true);
		drv_attr_set(d, "object", NULL, true);
	} else {
		char fw[32], hw[32], *obj = object_snapshot(data);

		snprintf(fw, sizeof(fw), "%u.%u.%02X\n", data->info->version >> 4,
			 data->info->version & 0xf, data->info->build);
		snprintf(hw, sizeof(hw), "%u.%u\n", data->info->family_id,
			 data->info->variant_id);
		drv_attr_set(d, "fw_version", fw, false);
		drv_attr_set(d, "hw_version", hw, false);
		drv_attr_set(d, "object", obj, false);
		g_free(obj);
	}
}

/* ------------------------------------------------------------ config */

static int mxt_init_t7_power_cfg(struct mxt_data *data);

/* sscanf("%x%n") from position *pos, skipping whitespace like the kernel */
static bool scan_hex(const char *raw, size_t *pos, unsigned int *out)
{
	int off = 0;

	if (sscanf(raw + *pos, "%x%n", out, &off) != 1)
		return false;
	*pos += (size_t)off;
	return true;
}

static int mxt_update_cfg(struct mxt_data *data, const guint8 *fwdata, gsize fwsize)
{
	char *raw = g_strndup((const char *)fwdata, fwsize);
	size_t pos, raw_size = strlen(raw);
	guint8 cfg_info[7];
	unsigned int v, info_crc, config_crc;
	guint32 calculated_crc;
	guint16 crc_start = 0, start_ofs;
	size_t mem_size;
	guint8 *mem = NULL;
	int ret = 0;

	mxt_update_crc(data, MXT_COMMAND_REPORTALL, 1);
	if (strncmp(raw, MXT_CFG_MAGIC, strlen(MXT_CFG_MAGIC))) {
		emub_dev_log(data->d, "Unrecognised config file");
		ret = -EINVAL;
		goto out;
	}
	pos = strlen(MXT_CFG_MAGIC);
	for (int i = 0; i < 7; i++) {
		if (!scan_hex(raw, &pos, &v)) {
			emub_dev_log(data->d, "Bad format");
			ret = -EINVAL;
			goto out;
		}
		cfg_info[i] = (guint8)v;
	}
	if (cfg_info[0] != data->info->family_id) {
		emub_dev_log(data->d, "Family ID mismatch!");
		ret = -EINVAL;
		goto out;
	}
	if (cfg_info[1] != data->info->variant_id) {
		emub_dev_log(data->d, "Variant ID mismatch!");
		ret = -EINVAL;
		goto out;
	}
	if (!scan_hex(raw, &pos, &info_crc)) {
		emub_dev_log(data->d, "Bad format: failed to parse Info CRC");
		ret = -EINVAL;
		goto out;
	}
	if (!scan_hex(raw, &pos, &config_crc)) {
		emub_dev_log(data->d, "Bad format: failed to parse Config CRC");
		ret = -EINVAL;
		goto out;
	}
	if (info_crc == data->info_crc) {
		if (config_crc == 0 || data->config_crc == 0) {
			emub_dev_log(data->d, "CRC zero, attempting to apply config");
		} else if (config_crc == data->config_crc) {
			emub_dev_log(data->d, "Config CRC 0x%06X: OK", data->config_crc);
			ret = 0;
			goto out;
		} else {
			emub_dev_log(data->d, "Config CRC 0x%06X: does not match file 0x%06X",
				     data->config_crc, config_crc);
		}
	} else {
		emub_dev_log(data->d, "Warning: Info CRC error - device=0x%06X file=0x%06X",
			     data->info_crc, info_crc);
	}

	start_ofs = (guint16)(MXT_OBJECT_START + data->info->object_num * MXT_OBJECT_SIZE +
			      MXT_INFO_CHECKSUM_SIZE);
	mem_size = data->mem_size > start_ofs ? data->mem_size - start_ofs : 0;
	mem = g_malloc0(mem_size ? mem_size : 1);

	/* mxt_prepare_cfg_mem() */
	while (pos < raw_size) {
		unsigned int type, instance, size;
		int off = 0, n = sscanf(raw + pos, "%x %x %x%n", &type, &instance, &size, &off);
		struct mxt_object *object;
		guint16 reg;

		if (n == 0 || n == EOF)
			break;
		if (n != 3) {
			emub_dev_log(data->d, "Bad format: failed to parse object");
			ret = -EINVAL;
			goto out;
		}
		pos += (size_t)off;
		object = mxt_get_object(data, (guint8)type);
		if (!object) {
			for (unsigned int i = 0; i < size; i++) {
				if (!scan_hex(raw, &pos, &v)) {
					emub_dev_log(data->d, "Bad format in T%d at %d", type,
						     i);
					ret = -EINVAL;
					goto out;
				}
			}
			continue;
		}
		if (size > obj_size(object))
			emub_dev_log(data->d, "Discarding %zu byte(s) in T%u",
				     size - obj_size(object), type);
		else if (obj_size(object) > size)
			emub_dev_log(data->d, "Zeroing %zu byte(s) in T%d",
				     obj_size(object) - size, type);
		if (instance >= obj_instances(object)) {
			emub_dev_log(data->d, "Object instances exceeded!");
			ret = -EINVAL;
			goto out;
		}
		reg = (guint16)(object->start_address + obj_size(object) * instance);
		for (unsigned int i = 0; i < size; i++) {
			long byte_offset;

			if (!scan_hex(raw, &pos, &v)) {
				emub_dev_log(data->d, "Bad format in T%d at %d", type, i);
				ret = -EINVAL;
				goto out;
			}
			if (i >= obj_size(object))
				continue;
			byte_offset = (long)reg + i - start_ofs;
			if (byte_offset >= 0 && (size_t)byte_offset < mem_size) {
				mem[byte_offset] = (guint8)v;
			} else {
				emub_dev_log(data->d, "Bad object: reg:%d, T%d, ofs=%ld", reg,
					     object->type, byte_offset);
				ret = -EINVAL;
				goto out;
			}
		}
	}

	if (data->T71_address)
		crc_start = data->T71_address;
	else if (data->T7_address)
		crc_start = data->T7_address;
	else
		emub_dev_log(data->d, "Could not find CRC start");
	if (crc_start > start_ofs) {
		calculated_crc = mxt_calculate_crc(mem, crc_start - start_ofs, (long)mem_size);
		if (config_crc > 0 && config_crc != calculated_crc)
			emub_dev_log(
				data->d,
				"Config CRC in file inconsistent, calculated=%06X, file=%06X",
				calculated_crc, config_crc);
	}

	/* mxt_upload_cfg_mem() */
	for (size_t byte_offset = 0; byte_offset < mem_size;) {
		size_t size = mem_size - byte_offset;

		if (size > MXT_MAX_BLOCK_WRITE)
			size = MXT_MAX_BLOCK_WRITE;
		ret = __mxt_write_reg(data, (guint16)(start_ofs + byte_offset), (guint16)size,
				      mem + byte_offset);
		if (ret) {
			emub_dev_log(data->d, "Config write error, ret=%d", ret);
			goto out;
		}
		byte_offset += size;
	}

	mxt_update_crc(data, MXT_COMMAND_BACKUPNV, MXT_BACKUP_VALUE);
	ret = mxt_check_retrigen(data);
	if (ret)
		goto out;
	ret = mxt_soft_reset(data);
	if (ret)
		goto out;
	emub_dev_log(data->d, "Config successfully updated");
	mxt_init_t7_power_cfg(data);
out:
	g_free(mem);
	g_free(raw);
	return ret;
}

static int mxt_set_t7_power_cfg_run(struct mxt_data *data)
{
	guint8 cfg[2] = { data->t7_idle, data->t7_active };

	return __mxt_write_reg(data, data->T7_address, 2, cfg);
}

static int mxt_init_t7_power_cfg(struct mxt_data *data)
{
	bool retry = false;
	guint8 cfg[2];
	int error;

recheck:
	error = __mxt_read_reg(data, data->T7_address, 2, cfg);
	if (error)
		return error;
	data->t7_idle = cfg[0];
	data->t7_active = cfg[1];
	if (data->t7_active == 0 || data->t7_idle == 0) {
		if (!retry) {
			emub_dev_log(data->d, "T7 cfg zero, resetting");
			mxt_soft_reset(data);
			retry = true;
			goto recheck;
		}
		emub_dev_log(data->d, "T7 cfg zero after reset, overriding");
		data->t7_active = 20;
		data->t7_idle = 100;
		return mxt_set_t7_power_cfg_run(data);
	}
	return 0;
}

/* ------------------------------------------------------------ input */

static int mxt_initialize_input_device(struct mxt_data *data)
{
	struct emub_input_desc in = {
		.name = "Atmel maXTouch Touchscreen",
		.phys = data->phys,
		.bustype = BUS_I2C,
		.evbits = 1u << EV_SYN | 1u << EV_KEY | 1u << EV_ABS,
		.keybits_word5 = G_GUINT64_CONSTANT(1) << (BTN_TOUCH - 5 * 64),
		.propbits = 1u << INPUT_PROP_DIRECT,
	};
	struct mxt_object *o;
	guint64 abs = G_GUINT64_CONSTANT(1) << ABS_X | G_GUINT64_CONSTANT(1) << ABS_Y |
		      G_GUINT64_CONSTANT(1) << ABS_MT_SLOT |
		      G_GUINT64_CONSTANT(1) << ABS_MT_POSITION_X |
		      G_GUINT64_CONSTANT(1) << ABS_MT_POSITION_Y |
		      G_GUINT64_CONSTANT(1) << ABS_MT_TRACKING_ID;
	guint8 buf[4];

	switch (data->multitouch) {
	case MXT_TOUCH_MULTI_T9:
		o = mxt_get_object(data, MXT_TOUCH_MULTI_T9);
		/* mxt_read_t9_resolution(): failures only warn */
		if (__mxt_read_reg(data, o->start_address + MXT_T9_XSIZE, 1, buf) ||
		    __mxt_read_reg(data, o->start_address + MXT_T9_YSIZE, 1, buf) ||
		    __mxt_read_reg(data, o->start_address + MXT_T9_RANGE, 4, buf) ||
		    __mxt_read_reg(data, o->start_address + MXT_T9_ORIENT, 1, buf))
			emub_dev_log(data->d, "Failed to initialize T9 resolution");
		abs |= G_GUINT64_CONSTANT(1) << ABS_PRESSURE |
		       G_GUINT64_CONSTANT(1) << ABS_MT_TOUCH_MAJOR |
		       G_GUINT64_CONSTANT(1) << ABS_MT_PRESSURE;
		break;
	case MXT_TOUCH_MULTITOUCHSCREEN_T100: {
		guint8 tchaux = 0;

		o = mxt_get_object(data, MXT_TOUCH_MULTITOUCHSCREEN_T100);
		if (__mxt_read_reg(data, o->start_address + MXT_T100_XRANGE, 2, buf) ||
		    __mxt_read_reg(data, o->start_address + MXT_T100_YRANGE, 2, buf) ||
		    __mxt_read_reg(data, o->start_address + MXT_T100_XSIZE, 1, buf) ||
		    __mxt_read_reg(data, o->start_address + MXT_T100_YSIZE, 1, buf) ||
		    __mxt_read_reg(data, o->start_address + MXT_T100_CFG1, 1, buf) ||
		    __mxt_read_reg(data, o->start_address + MXT_T100_TCHAUX, 1, &tchaux))
			emub_dev_log(data->d, "Failed to read T100 config");
		abs |= G_GUINT64_CONSTANT(1) << ABS_MT_TOOL_TYPE | G_GUINT64_CONSTANT(1)
									   << ABS_MT_DISTANCE;
		if (tchaux & MXT_T100_TCHAUX_AMPL)
			abs |= G_GUINT64_CONSTANT(1) << ABS_PRESSURE |
			       G_GUINT64_CONSTANT(1) << ABS_MT_PRESSURE;
		if (tchaux & MXT_T100_TCHAUX_AREA)
			abs |= G_GUINT64_CONSTANT(1) << ABS_MT_TOUCH_MAJOR;
		if (tchaux & MXT_T100_TCHAUX_VECT)
			abs |= G_GUINT64_CONSTANT(1) << ABS_MT_ORIENTATION;
		break;
	}
	default:
		emub_dev_log(data->d, "Invalid multitouch object");
		return -EINVAL;
	}
	in.absbits = abs;
	if (drv_fault_no_input(data->d)) {
		emub_dev_log(data->d, "fault: input device not registered");
		return 0;
	}
	if (drv_input_register(data->d, &in))
		return -ENOMEM;
	data->input_registered = true;
	return 0;
}

static void mxt_free_input_device(struct mxt_data *data)
{
	if (data->input_registered) {
		drv_input_unregister(data->d);
		data->input_registered = false;
	}
}

/* mxt_configure_objects(), from the maxtouch.cfg firmware callback */
static int mxt_configure_objects(struct mxt_data *data, const guint8 *cfg, gsize cfglen)
{
	int error = mxt_init_t7_power_cfg(data);

	if (error) {
		emub_dev_log(data->d, "Failed to initialize power cfg");
		return error;
	}
	if (cfg) {
		error = mxt_update_cfg(data, cfg, cfglen);
		if (error)
			emub_dev_log(data->d, "Error %d updating config", error);
	}
	if (data->multitouch) {
		error = mxt_initialize_input_device(data);
		if (error)
			return error;
	} else {
		emub_dev_log(data->d, "No touch object detected");
	}
	update_attrs(data);
	return 0;
}

static void atmel_work(struct emub_dev *d, int what)
{
	struct mxt_data *data = data_of(d);
	guint8 *cfg = NULL;
	gsize len = 0;

	if (!data || what != WORK_CONFIG_CB || !data->info)
		return;
	if (drv_request_firmware(d, MXT_CFG_NAME, &cfg, &len))
		cfg = NULL;
	mxt_configure_objects(data, cfg, len);
	g_free(cfg);
}

static int mxt_initialize(struct mxt_data *data)
{
	int recovery_attempts = 0, error;

	for (;;) {
		error = mxt_read_info_block(data);
		if (!error)
			break;
		error = mxt_probe_bootloader(data, false);
		if (error) {
			emub_dev_log(data->d, "Trying alternate bootloader address");
			error = mxt_probe_bootloader(data, true);
			if (error)
				return error;
		}
		if (++recovery_attempts > 1) {
			emub_dev_log(data->d, "Could not recover from bootloader mode");
			data->in_bootloader = true;
			return 0;
		}
		mxt_send_bootloader_cmd(data, false);
		drv_msleep(data->d, MXT_FW_RESET_TIME);
	}
	error = mxt_check_retrigen(data);
	if (error)
		return error;
	error = mxt_acquire_irq(data);
	if (error)
		return error;
	/* request_firmware_nowait(): the callback runs later, asynchronously */
	drv_queue_work(data->d, WORK_CONFIG_CB, data->d->chip->desc->input_delay_ms);
	return 0;
}

/* ------------------------------------------------------------ probe, remove */

static int atmel_probe(struct emub_dev *d)
{
	struct mxt_data *data = g_new0(struct mxt_data, 1);
	int error;

	data->d = d;
	data->addr = d->chip->desc->addr;
	snprintf(data->phys, sizeof(data->phys), "i2c-%u-%04x/input0", d->chip->ad->desc.nr,
		 data->addr);
	g_free(d->priv);
	d->priv = data;

	/* "Request the RESET line as asserted so we go into reset" */
	error = drv_reset_gpio_get(d, &data->have_reset_gpio);
	if (error) {
		emub_dev_log(d, "Failed to get reset gpio: %d", error);
		goto fail;
	}
	error = drv_irq_request(d);
	if (error) {
		emub_dev_log(d, "Failed to register interrupt");
		goto fail;
	}
	drv_regulator(d, true);
	drv_msleep(d, MXT_BACKUP_TIME);
	if (data->have_reset_gpio) {
		drv_msleep(d, MXT_RESET_GPIO_TIME);
		drv_reset_gpio_set(d, 0);
		drv_msleep(d, MXT_RESET_INVALID_CHG);
	}
	error = mxt_initialize(data);
	if (error) {
		drv_regulator(d, false);
		goto fail;
	}
	/* sysfs_create_group(&mxt_attr_group) */
	drv_attr_add(d, "fw_version", NULL, false, false);
	drv_attr_add(d, "hw_version", NULL, false, false);
	drv_attr_add(d, "object", NULL, false, false);
	drv_attr_add(d, "update_fw", "", true, false);
	update_attrs(data);
	return 0;
fail:
	mxt_free_object_table(data);
	d->priv = NULL;
	g_free(data);
	return error;
}

static void atmel_remove(struct emub_dev *d)
{
	struct mxt_data *data = data_of(d);

	drv_irq_disable(d);
	drv_attrs_remove(d);
	if (data) {
		mxt_free_input_device(data);
		mxt_free_object_table(data);
	}
	drv_regulator(d, false);
	d->priv = NULL;
	g_free(data);
}

/* mxt_check_firmware_format(): a file of only uppercase hex digits is the
 * .enc form; note that an empty file is refused the same way */
static int mxt_check_firmware_format(struct mxt_data *data, const guint8 *fw, gsize size)
{
	for (gsize pos = 0; pos < size; pos++) {
		char c = (char)fw[pos];

		if (c < '0' || (c > '9' && c < 'A') || c > 'F')
			return 0;
	}
	emub_dev_log(data->d, "Aborting: firmware file must be in binary format");
	return -EINVAL;
}

static int mxt_load_fw(struct mxt_data *data)
{
	struct emub_dev *d = data->d;
	unsigned int retry = 0, frame = 0;
	gsize pos = 0, size = 0;
	guint8 *fw = NULL;
	int ret;

	ret = drv_request_firmware(d, MXT_FW_NAME, &fw, &size);
	if (ret)
		return ret;
	ret = mxt_check_firmware_format(data, fw, size);
	if (ret)
		goto release_firmware;

	if (!data->in_bootloader) {
		data->in_bootloader = true;
		ret = mxt_t6_command(data, MXT_COMMAND_RESET, MXT_BOOT_VALUE, false);
		if (ret)
			goto release_firmware;
		drv_msleep(d, MXT_RESET_TIME);
		ret = mxt_lookup_bootloader_address(data, false);
		if (ret)
			goto release_firmware;
		mxt_free_input_device(data);
		mxt_free_object_table(data);
		update_attrs(data);
	} else {
		drv_irq_enable(d);
	}

	data->bl_completion = 0;
	ret = mxt_check_bootloader(data, MXT_WAITING_BOOTLOAD_CMD, false);
	if (ret) {
		/* Bootloader may still be unlocked from previous attempt */
		ret = mxt_check_bootloader(data, MXT_WAITING_FRAME_DATA, false);
		if (ret)
			goto disable_irq;
	} else {
		emub_dev_log(d, "Unlocking bootloader");
		ret = mxt_send_bootloader_cmd(data, true);
		if (ret)
			goto disable_irq;
	}

	while (pos < size) {
		gsize frame_size;

		ret = mxt_check_bootloader(data, MXT_WAITING_FRAME_DATA, true);
		if (ret)
			goto disable_irq;
		frame_size = (gsize)(fw[pos] << 8 | (pos + 1 < size ? fw[pos + 1] : 0)) + 2;
		if (pos + frame_size > size) {
			/* the kernel would read past the end of the firmware */
			emub_dev_log(d, "frame at %zu runs past the end of the file",
				     (size_t)pos);
			ret = -EINVAL;
			goto disable_irq;
		}
		ret = mxt_bootloader_write(data, fw + pos, (guint16)frame_size);
		if (ret)
			goto disable_irq;
		ret = mxt_check_bootloader(data, MXT_FRAME_CRC_PASS, true);
		if (ret) {
			retry++;
			drv_msleep(d, retry * 20); /* back off by 20 ms per retry */
			if (retry > 20) {
				emub_dev_log(d, "Retry count exceeded");
				goto disable_irq;
			}
		} else {
			retry = 0;
			pos += frame_size;
			frame++;
		}
	}

	ret = drv_wait_completion(d, &data->bl_completion, MXT_FW_RESET_TIME);
	if (ret)
		goto disable_irq;
	emub_dev_log(d, "Sent %u frames, %zu bytes", frame, (size_t)pos);
	drv_wait_completion(d, &data->bl_completion, MXT_FW_RESET_TIME);
	data->in_bootloader = false;

disable_irq:
	drv_irq_disable(d);
release_firmware:
	g_free(fw);
	return ret;
}

static int atmel_attr_write(struct emub_dev *d, const char *attr, const char *buf, size_t len)
{
	struct mxt_data *data = data_of(d);
	int error, result;

	(void)buf;
	(void)len;
	if (!data || strcmp(attr, "update_fw"))
		return 0;
	/* mxt_update_fw_store() */
	error = mxt_load_fw(data);
	if (error) {
		emub_dev_log(d, "The firmware update failed(%d)", error);
		result = error;
	} else {
		emub_dev_log(d, "The firmware update succeeded");
		result = mxt_initialize(data);
	}
	update_attrs(data);
	return drv_update_fw_done(d, result);
}

static void atmel_destroy(struct emub_dev *d)
{
	struct mxt_data *data = data_of(d);

	if (data)
		mxt_free_object_table(data);
	g_free(data);
	d->priv = NULL;
}

static const char *const atmel_of_match[] = { "atmel,maxtouch", NULL };
/* atmel_mxt_ts.c mxt_acpi_id[] */
static const char *const atmel_acpi_match[] = { "ATML0000", "ATML0001", NULL };

const struct emub_driver_ops emub_drv_atmel_mxt_ts = {
	.name = "atmel_mxt_ts",
	.of_match = atmel_of_match,
	.acpi_match = atmel_acpi_match,
	.probe = atmel_probe,
	.remove = atmel_remove,
	.attr_write = atmel_attr_write,
	.irq = atmel_irq,
	.work = atmel_work,
	.destroy = atmel_destroy,
};
