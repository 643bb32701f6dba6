// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model of the silead_ts kernel driver (module silead), written from
 * drivers/input/touchscreen/silead.c function by function, independent of
 * touchfw's agent and of the chip model's helpers: its bus transactions go
 * through the emulated adapter (driver traffic), its sleeps take model
 * time.  The chip has no flash, so probe loads the firmware file into it
 * every time; a missing file fails probe ("Firmware request error"): no
 * driver, no bind uevent -- the device's add is all user space saw.
 *
 * The file name: "silead/<firmware-name>" when the device has that
 * property (touchscreen_dmi.c gives it to ACPI tablets by DMI; a device
 * tree gives it directly), else "silead/<acpi id in lower case>.fw" for an
 * ACPI device, "silead/<i2c id>.fw" otherwise (silead_ts_set_default_fw_name,
 * silead_ts_read_props).  Properties of the board's chip section stand for
 * the device properties: silead.firmware_name, silead.max_fingers,
 * touchscreen.* (touchscreen_parse_properties: size-x/-y set the axis
 * maxima to size - 1, swapped-x-y swaps the two axes' ranges, inversion
 * changes only coordinates).
 *
 * System sleep (emub_suspend_resume): silead_ts_suspend turns the power
 * GPIO off, so the chip loses its program; silead_ts_resume finds the
 * status wrong after a plain restart and loads the firmware file again,
 * as probe does -- a resume after touchfw's staging is gone needs the
 * file where the loader looks by itself.
 *
 * Not modelled: firmware_request_platform's EFI-embedded copy (no EFI in
 * the emulator: a missing file fails), the pen and soft-button keys
 * (silead,home-button is not read), reporting touches to
 * the input device (the interrupt handler reads the frame, as the real
 * one does, and the input device stays silent).
 */
#include <ctype.h>
#include <errno.h>
#include <linux/input.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "silead-emul.h"

#define SILEAD_TS_NAME "silead_ts"

#define SILEAD_REG_RESET 0xE0
#define SILEAD_REG_DATA 0x80
#define SILEAD_REG_TOUCH_NR 0x80
#define SILEAD_REG_POWER 0xBC
#define SILEAD_REG_CLOCK 0xE4
#define SILEAD_REG_STATUS 0xB0
#define SILEAD_REG_ID 0xFC

#define SILEAD_STATUS_OK 0x5A5A5A5A
#define SILEAD_TS_DATA_LEN 44
#define SILEAD_CLOCK 0x04

#define SILEAD_CMD_RESET 0x88
#define SILEAD_CMD_START 0x00

#define SILEAD_CMD_SLEEP_MIN 10000
#define SILEAD_POWER_SLEEP 20
#define SILEAD_STARTUP_SLEEP 30
#define SILEAD_MAX_FINGERS 10

static const char *const silead_acpi_match[] = {
	"GSL1680",  "GSL1688",	"GSL3670",  "GSL3675",	"GSL3692",
	"MSSL1680", "MSSL0001", "MSSL0002", "MSSL0017", NULL,
};

/* silead_ts_id[] (i2c ids) */
static const char *const silead_i2c_ids[] = {
	"gsl1680", "gsl1688", "gsl3670", "gsl3675", "gsl3692", "mssl1680", NULL,
};

struct silead_ts_data {
	struct emub_dev *d;
	guint16 addr;
	bool have_power;
	char fw_name[64];
	guint32 max_fingers;
	guint32 chip_id;
};

static struct silead_ts_data *data_of(struct emub_dev *d)
{
	return d->priv;
}

/* ------------------------------------------------------------ SMBus */

/* i2c_smbus_write_byte_data: command, value */
static int write_byte_data(struct silead_ts_data *ts, guint8 cmd, guint8 val)
{
	guint8 buf[2] = { cmd, val };
	struct em_msg msg = { .addr = ts->addr, .flags = 0, .len = 2, .buf = buf };
	int r = drv_i2c_transfer(ts->d, &msg, 1);

	return r < 0 ? r : r == 1 ? 0 : -EIO;
}

/* i2c_smbus_write_i2c_block_data: command, then the bytes, one message */
static int write_i2c_block(struct silead_ts_data *ts, guint8 cmd, guint8 len, const guint8 *v)
{
	guint8 buf[33];
	struct em_msg msg = { .addr = ts->addr,
			      .flags = 0,
			      .len = (guint16)(len + 1),
			      .buf = buf };
	int r;

	buf[0] = cmd;
	memcpy(buf + 1, v, len);
	r = drv_i2c_transfer(ts->d, &msg, 1);
	return r < 0 ? r : r == 1 ? 0 : -EIO;
}

/* i2c_smbus_read_i2c_block_data: command written, then @len read; the
 * number of bytes read or -errno */
static int read_i2c_block(struct silead_ts_data *ts, guint8 cmd, guint8 len, guint8 *v)
{
	struct em_msg msgs[2] = {
		{ .addr = ts->addr, .flags = 0, .len = 1, .buf = &cmd },
		{ .addr = ts->addr, .flags = EM_MSG_RD, .len = len, .buf = v },
	};
	int r = drv_i2c_transfer(ts->d, msgs, 2);

	return r < 0 ? r : r == 2 ? len : -EIO;
}

/* ------------------------------------------------------------ power */

static void silead_ts_set_power(struct silead_ts_data *ts, bool on)
{
	if (!ts->have_power)
		return;
	drv_gpio_output(ts->d, ts->d->reset_line, on);
	drv_msleep(ts->d, SILEAD_POWER_SLEEP);
}

/* ------------------------------------------------------------ setup */

static int silead_ts_init(struct silead_ts_data *ts)
{
	int error;

	error = write_byte_data(ts, SILEAD_REG_RESET, SILEAD_CMD_RESET);
	if (!error) {
		drv_usleep(ts->d, SILEAD_CMD_SLEEP_MIN);
		error = write_byte_data(ts, SILEAD_REG_TOUCH_NR, (guint8)ts->max_fingers);
	}
	if (!error) {
		drv_usleep(ts->d, SILEAD_CMD_SLEEP_MIN);
		error = write_byte_data(ts, SILEAD_REG_CLOCK, SILEAD_CLOCK);
	}
	if (!error) {
		drv_usleep(ts->d, SILEAD_CMD_SLEEP_MIN);
		error = write_byte_data(ts, SILEAD_REG_RESET, SILEAD_CMD_START);
	}
	if (error) {
		emub_dev_log(ts->d, "Registers clear error %d", error);
		return error;
	}
	drv_usleep(ts->d, SILEAD_CMD_SLEEP_MIN);
	return 0;
}

static int silead_ts_reset(struct silead_ts_data *ts)
{
	int error;

	error = write_byte_data(ts, SILEAD_REG_RESET, SILEAD_CMD_RESET);
	if (!error) {
		drv_usleep(ts->d, SILEAD_CMD_SLEEP_MIN);
		error = write_byte_data(ts, SILEAD_REG_CLOCK, SILEAD_CLOCK);
	}
	if (!error) {
		drv_usleep(ts->d, SILEAD_CMD_SLEEP_MIN);
		error = write_byte_data(ts, SILEAD_REG_POWER, SILEAD_CMD_START);
	}
	if (error) {
		emub_dev_log(ts->d, "Chip reset error %d", error);
		return error;
	}
	drv_usleep(ts->d, SILEAD_CMD_SLEEP_MIN);
	return 0;
}

static int silead_ts_startup(struct silead_ts_data *ts)
{
	int error = write_byte_data(ts, SILEAD_REG_RESET, 0x00);

	if (error) {
		emub_dev_log(ts->d, "Startup error %d", error);
		return error;
	}
	drv_msleep(ts->d, SILEAD_STARTUP_SLEEP);
	return 0;
}

static int silead_ts_load_fw(struct silead_ts_data *ts)
{
	guint8 *fw = NULL;
	gsize len = 0, n, i;
	int error;

	emub_dev_log(ts->d, "Firmware file name: %s", ts->fw_name);
	/* firmware_request_platform(): the file, then an EFI-embedded copy
	 * (none in the emulator) */
	error = drv_request_firmware(ts->d, ts->fw_name, &fw, &len);
	if (error) {
		emub_dev_log(ts->d, "Firmware request error %d", error);
		return error;
	}
	/* fw->size / sizeof(struct silead_fw_data): a partial pair is dropped */
	n = len / 8;
	for (i = 0; i < n; i++) {
		guint32 offset;

		memcpy(&offset, fw + 8 * i, 4);
		/* the u32 offset is the SMBus command: its low byte */
		error = write_i2c_block(ts, (guint8)GUINT32_FROM_LE(offset), 4, fw + 8 * i + 4);
		if (error) {
			emub_dev_log(ts->d, "Firmware load error %d", error);
			break;
		}
	}
	g_free(fw);
	return error;
}

static guint32 silead_ts_get_status(struct silead_ts_data *ts)
{
	guint8 b[4];
	int error = read_i2c_block(ts, SILEAD_REG_STATUS, 4, b);

	if (error < 0) {
		emub_dev_log(ts->d, "Status read error %d", error);
		return (guint32)error;
	}
	return em_get_le32(b);
}

static int silead_ts_get_id(struct silead_ts_data *ts)
{
	guint8 b[4];
	int error = read_i2c_block(ts, SILEAD_REG_ID, 4, b);

	if (error < 0) {
		emub_dev_log(ts->d, "Chip ID read error %d", error);
		return error;
	}
	ts->chip_id = em_get_le32(b);
	emub_dev_log(ts->d, "Silead chip ID: 0x%8X", ts->chip_id);
	return 0;
}

static int silead_ts_setup(struct silead_ts_data *ts)
{
	guint32 status;
	int error;

	silead_ts_set_power(ts, false);
	silead_ts_set_power(ts, true);
	error = silead_ts_get_id(ts);
	if (!error)
		error = silead_ts_init(ts);
	if (!error)
		error = silead_ts_reset(ts);
	if (!error)
		error = silead_ts_load_fw(ts);
	if (!error)
		error = silead_ts_startup(ts);
	if (error)
		return error;
	status = silead_ts_get_status(ts);
	if (status != SILEAD_STATUS_OK) {
		emub_dev_log(ts->d, "Initialization error, status: 0x%X", status);
		return -ENODEV;
	}
	return 0;
}

/* ------------------------------------------------------------ input */

static int silead_ts_request_input_dev(struct silead_ts_data *ts)
{
	const struct emub_chip_desc *c = ts->d->chip->desc;
	struct emub_input_desc in = {
		.name = SILEAD_TS_NAME,
		.phys = "input/ts",
		.bustype = BUS_I2C,
		.evbits = 1u << EV_SYN | 1u << EV_KEY | 1u << EV_ABS,
	};

	drv_input_set_abs(&in, ABS_MT_POSITION_X, 0, 4095);
	drv_input_set_abs(&in, ABS_MT_POSITION_Y, 0, 4095);
	/* touchscreen_parse_properties(input, true, &prop) */
	if (c->ts_size_x)
		in.abs[ABS_MT_POSITION_X].maximum = (gint32)c->ts_size_x - 1;
	if (c->ts_size_y)
		in.abs[ABS_MT_POSITION_Y].maximum = (gint32)c->ts_size_y - 1;
	if (c->ts_swapped) {
		struct emub_absinfo t = in.abs[ABS_MT_POSITION_X];

		in.abs[ABS_MT_POSITION_X] = in.abs[ABS_MT_POSITION_Y];
		in.abs[ABS_MT_POSITION_Y] = t;
	}
	/* input_mt_init_slots(INPUT_MT_DIRECT | INPUT_MT_DROP_UNUSED | INPUT_MT_TRACK) */
	drv_input_mt_init_direct(&in, (int)ts->max_fingers);
	drv_input_set_abs(&in, ABS_X, 0,
			  in.abs[ABS_MT_POSITION_X].maximum); /* input_copy_abs */
	drv_input_set_abs(&in, ABS_Y, 0, in.abs[ABS_MT_POSITION_Y].maximum);

	if (drv_fault_no_input(ts->d)) {
		emub_dev_log(ts->d, "fault: input device not registered");
		return 0;
	}
	if (drv_input_register(ts->d, &in)) {
		emub_dev_log(ts->d, "Failed to register input device");
		return -ENOMEM;
	}
	return 0;
}

/* ------------------------------------------------------------ probe */

static void silead_ts_set_default_fw_name(struct silead_ts_data *ts)
{
	const struct emub_chip_desc *c = ts->d->chip->desc;

	if (c->acpi_id) {
		/* "silead/%s.fw" of the matched acpi id, lower-cased */
		snprintf(ts->fw_name, sizeof(ts->fw_name), "silead/%s.fw", c->acpi_id);
		for (char *p = ts->fw_name; *p; p++)
			*p = (char)tolower((unsigned char)*p);
	} else {
		/* the i2c_device_id that matched the client's name */
		const char *comp = c->compatible ? c->compatible[0] : c->name;
		const char *comma = strchr(comp, ',');
		const char *name = comma ? comma + 1 : comp, *id = NULL;

		for (const char *const *p = silead_i2c_ids; *p; p++)
			if (!strcmp(*p, name))
				id = *p;
		snprintf(ts->fw_name, sizeof(ts->fw_name), "silead/%s.fw", id ? id : name);
	}
}

static int silead_ts_probe(struct emub_dev *d)
{
	struct silead_ts_data *ts = g_new0(struct silead_ts_data, 1);
	const struct emub_chip_desc *c = d->chip->desc;
	int error;

	ts->d = d;
	ts->addr = c->addr;
	g_free(d->priv);
	d->priv = ts;
	/* I2C_FUNC_I2C | I2C_FUNC_SMBUS_READ_I2C_BLOCK | ..._WRITE_I2C_BLOCK */
	if (d->chip->ad->desc.smbus_only) {
		emub_dev_log(d, "I2C functionality check failed");
		error = -ENXIO;
		goto fail;
	}
	silead_ts_set_default_fw_name(ts);
	/* silead_ts_read_props() */
	ts->max_fingers = silead_board(c)->max_fingers ? silead_board(c)->max_fingers : 5;
	if (silead_board(c)->firmware_name)
		snprintf(ts->fw_name, sizeof(ts->fw_name), "silead/%s",
			 silead_board(c)->firmware_name);
	/* We must have the IRQ provided by DT or ACPI subsytem */
	if (d->chg_line < 0) {
		error = -ENODEV;
		goto fail;
	}
	/* regulators enabled for as long as the driver is bound */
	drv_regulator(d, true);
	/* devm_gpiod_get_optional(dev, "power", GPIOD_OUT_LOW) */
	ts->have_power = d->reset_line >= 0;
	if (ts->have_power) {
		g_mutex_lock(&d->eb->lock);
		error = emub_gpio_kernel_request_locked(d->eb, d->reset_line, "power", true,
							false);
		g_mutex_unlock(&d->eb->lock);
		if (error) {
			emub_dev_log(d, "Shutdown GPIO request failed");
			ts->have_power = false;
			goto fail_power;
		}
	}
	error = silead_ts_setup(ts);
	if (error)
		goto fail_power;
	error = silead_ts_request_input_dev(ts);
	if (error)
		goto fail_power;
	/* devm_request_threaded_irq(client->irq, ..., IRQF_ONESHOT) */
	error = drv_irq_request(d);
	if (error) {
		emub_dev_log(d, "IRQ request failed %d", error);
		goto fail_power;
	}
	drv_irq_enable(d);
	return 0;

fail_power:
	/* devres: the input device, the regulators, the data (the power GPIO
	 * is drv_devres_release's) */
	drv_devm_release(d);
	return error;
fail:
	drv_free_priv(d);
	return error;
}

/* devres on unbind: the IRQ, the input device, the power GPIO, the
 * regulators -- the chip forgets its program */
static void silead_ts_remove(struct emub_dev *d)
{
	drv_irq_disable(d);
	drv_devm_release(d);
}

/* silead_ts_suspend: the interrupt off, the chip's power GPIO low -- the
 * chip loses its program (RAM) */
static int silead_ts_suspend(struct emub_dev *d)
{
	struct silead_ts_data *ts = data_of(d);

	drv_irq_disable(d);
	silead_ts_set_power(ts, false);
	return 0;
}

/*
 * silead_ts_resume: power on, reset, start; a status other than
 * 0x5A5A5A5A (the program was lost) and it tries once more, this time
 * loading the firmware file again before the start -- the same
 * request_firmware as probe's, through the loader's path as it is now.
 */
static int silead_ts_resume(struct emub_dev *d)
{
	struct silead_ts_data *ts = data_of(d);
	bool second_try = false;
	guint32 status;
	int error;

	silead_ts_set_power(ts, true);
retry:
	error = silead_ts_reset(ts);
	if (error)
		return error;
	if (second_try) {
		error = silead_ts_load_fw(ts);
		if (error)
			return error;
	}
	error = silead_ts_startup(ts);
	if (error)
		return error;
	status = silead_ts_get_status(ts);
	if (status != SILEAD_STATUS_OK) {
		if (!second_try) {
			second_try = true;
			emub_dev_log(d, "Reloading firmware after unsuccessful resume");
			goto retry;
		}
		emub_dev_log(d, "Resume error, status: 0x%02x", status);
		return -ENODEV;
	}
	drv_irq_enable(d);
	return 0;
}

/* silead_ts_threaded_irq_handler -> silead_ts_read_data */
static void silead_irq(struct emub_dev *d)
{
	struct silead_ts_data *ts = data_of(d);
	guint8 buf[SILEAD_TS_DATA_LEN];
	int error;

	if (!ts)
		return;
	error = read_i2c_block(ts, SILEAD_REG_DATA, SILEAD_TS_DATA_LEN, buf);
	if (error < 0) {
		emub_dev_log(d, "Data read error %d", error);
		return;
	}
	if (buf[0] > ts->max_fingers)
		emub_dev_log(d, "More touches reported then supported %d > %u", buf[0],
			     ts->max_fingers);
	/* reported: the model's input device stays silent */
}

static const char *const silead_of_match[] = {
	"silead,gsl1680", "silead,gsl1688", "silead,gsl3670",
	"silead,gsl3675", "silead,gsl3692", NULL,
};

const struct emub_driver_ops emub_drv_silead = {
	.name = SILEAD_TS_NAME,
	.of_match = silead_of_match,
	.acpi_match = silead_acpi_match,
	.probe = silead_ts_probe,
	.remove = silead_ts_remove,
	.irq = silead_irq,
	.destroy = drv_free_priv,
	.suspend = silead_ts_suspend,
	.resume = silead_ts_resume,
};
