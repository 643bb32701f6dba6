// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model of the Goodix-TS kernel driver (module goodix_ts), written from
 * drivers/input/touchscreen/goodix.c and goodix.h function by function,
 * independent of touchfw's agent and of the chip model's helpers: its bus
 * transactions go through the emulated adapter (driver traffic), its
 * sleeps take model time, and what user space sees is what the real driver
 * produces -- the bind uevent when probe returns, and, when INT and RST are
 * GPIOs, the input device only later, from the asynchronous
 * goodix_<ID>_cfg.bin (or goodix/<goodix,config-name>) callback, after the
 * config file was checked and sent; without those GPIOs the input device is
 * registered inside probe and no file is asked for.
 *
 * Not modelled: ACPI GPIO quirks and INTI/INTO methods, DMI quirks (9-byte
 * reports, inverted x), touchscreen-* device properties, the firmware-name
 * (flashless firmware upload) path, pen and key reporting (the input device
 * reports nothing), suspend/resume.
 */
#include <errno.h>
#include <linux/input.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "goodix-emul.h"

/* goodix.h / goodix.c */
#define GOODIX_REG_ID 0x8140
#define GOODIX_READ_COOR_ADDR 0x814e
#define GOODIX_GT1X_REG_CONFIG_DATA 0x8050
#define GOODIX_GT9X_REG_CONFIG_DATA 0x8047
#define GOODIX_ID_MAX_LEN 4
#define GOODIX_CONFIG_MAX_LENGTH 240
#define GOODIX_CONFIG_MIN_LENGTH 186
#define GOODIX_CONFIG_911_LENGTH 186
#define GOODIX_CONFIG_967_LENGTH 228
#define GOODIX_CONFIG_GT9X_LENGTH 240
#define GOODIX_MAX_HEIGHT 4096
#define GOODIX_MAX_WIDTH 4096
#define GOODIX_INT_TRIGGER 1
#define GOODIX_CONTACT_SIZE 8
#define GOODIX_MAX_CONTACTS 10
#define GOODIX_MAX_KEYS 7
#define GOODIX_BUFFER_STATUS_READY 0x80
#define GOODIX_BUFFER_STATUS_TIMEOUT 20
#define RESOLUTION_LOC 1
#define MAX_CONTACTS_LOC 5
#define TRIGGER_LOC 6

enum { WORK_CONFIG_CB = 1 };

enum irq_pin_access { IRQ_PIN_ACCESS_NONE, IRQ_PIN_ACCESS_GPIO };

struct goodix_chip_data {
	guint16 config_addr;
	int config_len;
	bool csum16;
};

static const struct goodix_chip_data gt1x_chip_data = { GOODIX_GT1X_REG_CONFIG_DATA,
							GOODIX_CONFIG_GT9X_LENGTH, true };
static const struct goodix_chip_data gt911_chip_data = { GOODIX_GT9X_REG_CONFIG_DATA,
							 GOODIX_CONFIG_911_LENGTH, false };
static const struct goodix_chip_data gt967_chip_data = { GOODIX_GT9X_REG_CONFIG_DATA,
							 GOODIX_CONFIG_967_LENGTH, false };
static const struct goodix_chip_data gt9x_chip_data = { GOODIX_GT9X_REG_CONFIG_DATA,
							GOODIX_CONFIG_GT9X_LENGTH, false };

static const struct {
	const char *id;
	const struct goodix_chip_data *data;
} goodix_chip_ids[] = {
	{ "1151", &gt1x_chip_data },  { "1158", &gt1x_chip_data },
	{ "5663", &gt1x_chip_data },  { "5688", &gt1x_chip_data },
	{ "917S", &gt1x_chip_data },  { "9286", &gt1x_chip_data },
	{ "911", &gt911_chip_data },  { "9271", &gt911_chip_data },
	{ "9110", &gt911_chip_data }, { "9111", &gt911_chip_data },
	{ "927", &gt911_chip_data },  { "928", &gt911_chip_data },
	{ "912", &gt967_chip_data },  { "9147", &gt967_chip_data },
	{ "967", &gt967_chip_data },
};

struct goodix_ts_data {
	struct emub_dev *d;
	guint16 addr;
	const struct goodix_chip_data *chip;
	char id[GOODIX_ID_MAX_LEN + 1];
	guint16 version;
	char cfg_name[64];
	bool have_int, have_rst;
	bool reset_controller_at_probe, load_cfg_from_disk;
	enum irq_pin_access irq_pin_access_method;
	unsigned int max_touch_num, int_trigger_type;
	int abs_x_max, abs_y_max; /* input_abs_get_max of ABS_MT_POSITION_X/Y */
	guint8 config[GOODIX_CONFIG_MAX_LENGTH];
};

static struct goodix_ts_data *data_of(struct emub_dev *d)
{
	return d->priv;
}

/* ------------------------------------------------------------ bus access */

/* goodix_i2c_read: BE16 register, then the read, one transfer */
static int goodix_i2c_read(struct goodix_ts_data *ts, guint16 reg, guint8 *buf, int len)
{
	guint8 wbuf[2] = { (guint8)(reg >> 8), (guint8)reg };
	struct em_msg msgs[2] = {
		{ .addr = ts->addr, .flags = 0, .len = 2, .buf = wbuf },
		{ .addr = ts->addr, .flags = EM_MSG_RD, .len = (guint16)len, .buf = buf },
	};
	int ret = drv_i2c_transfer(ts->d, msgs, 2);

	if (ret >= 0)
		ret = ret == 2 ? 0 : -EIO;
	if (ret)
		emub_dev_log(ts->d, "Error reading %d bytes from 0x%04x: %d", len, reg, ret);
	return ret;
}

/* goodix_i2c_write: BE16 register + data, one message */
static int goodix_i2c_write(struct goodix_ts_data *ts, guint16 reg, const guint8 *buf, int len)
{
	guint8 *abuf = g_malloc((gsize)len + 2);
	struct em_msg msg = { .addr = ts->addr,
			      .flags = 0,
			      .len = (guint16)(len + 2),
			      .buf = abuf };
	int ret;

	abuf[0] = (guint8)(reg >> 8);
	abuf[1] = (guint8)reg;
	memcpy(abuf + 2, buf, (size_t)len);
	ret = drv_i2c_transfer(ts->d, &msg, 1);
	if (ret >= 0)
		ret = ret == 1 ? 0 : -EIO;
	g_free(abuf);
	if (ret)
		emub_dev_log(ts->d, "Error writing %d bytes to 0x%04x: %d", len, reg, ret);
	return ret;
}

static const struct goodix_chip_data *goodix_get_chip_data(const char *id)
{
	for (size_t i = 0; i < G_N_ELEMENTS(goodix_chip_ids); i++)
		if (!strcmp(goodix_chip_ids[i].id, id))
			return goodix_chip_ids[i].data;
	return &gt9x_chip_data;
}

/* ------------------------------------------------------------ config */

static int goodix_check_cfg_8(struct goodix_ts_data *ts, const guint8 *cfg, int len)
{
	int i, raw_cfg_len = len - 2;
	guint8 check_sum = 0;

	for (i = 0; i < raw_cfg_len; i++)
		check_sum += cfg[i];
	check_sum = (guint8)(~check_sum + 1);
	if (check_sum != cfg[raw_cfg_len]) {
		emub_dev_log(ts->d, "The checksum of the config fw is not correct");
		return -EINVAL;
	}
	if (cfg[raw_cfg_len + 1] != 1) {
		emub_dev_log(ts->d, "Config fw must have Config_Fresh register set");
		return -EINVAL;
	}
	return 0;
}

static int goodix_check_cfg_16(struct goodix_ts_data *ts, const guint8 *cfg, int len)
{
	int i, raw_cfg_len = len - 3;
	guint16 check_sum = 0;

	for (i = 0; i < raw_cfg_len; i += 2)
		check_sum = (guint16)(check_sum + (cfg[i] << 8 | cfg[i + 1]));
	check_sum = (guint16)(~check_sum + 1);
	if (check_sum != (guint16)(cfg[raw_cfg_len] << 8 | cfg[raw_cfg_len + 1])) {
		emub_dev_log(ts->d, "The checksum of the config fw is not correct");
		return -EINVAL;
	}
	if (cfg[raw_cfg_len + 2] != 1) {
		emub_dev_log(ts->d, "Config fw must have Config_Fresh register set");
		return -EINVAL;
	}
	return 0;
}

static int goodix_check_cfg(struct goodix_ts_data *ts, const guint8 *cfg, int len)
{
	if (len < GOODIX_CONFIG_MIN_LENGTH || len > GOODIX_CONFIG_MAX_LENGTH) {
		emub_dev_log(ts->d, "The length of the config fw is not correct");
		return -EINVAL;
	}
	return ts->chip->csum16 ? goodix_check_cfg_16(ts, cfg, len)
				: goodix_check_cfg_8(ts, cfg, len);
}

static int goodix_send_cfg(struct goodix_ts_data *ts, const guint8 *cfg, int len)
{
	int error = goodix_check_cfg(ts, cfg, len);

	if (error)
		return error;
	error = goodix_i2c_write(ts, ts->chip->config_addr, cfg, len);
	if (error)
		return error;
	emub_dev_log(ts->d, "Config sent successfully.");
	/* Let the firmware reconfigure itself, so sleep for 10ms */
	drv_usleep(ts->d, 10000);
	return 0;
}

/* ------------------------------------------------------------ reset */

static int goodix_int_sync(struct goodix_ts_data *ts)
{
	if (ts->irq_pin_access_method == IRQ_PIN_ACCESS_NONE)
		return -EINVAL;
	drv_gpio_output(ts->d, ts->d->chg_line, false);
	drv_msleep(ts->d, 50); /* T5: 50ms */
	drv_gpio_input(ts->d, ts->d->chg_line);
	return 0;
}

static int goodix_reset_no_int_sync(struct goodix_ts_data *ts)
{
	if (ts->irq_pin_access_method == IRQ_PIN_ACCESS_NONE || !ts->have_rst) {
		emub_dev_log(ts->d, "Controller reset failed.");
		return -EINVAL;
	}
	/* begin select I2C slave addr */
	drv_gpio_output(ts->d, ts->d->reset_line, false);
	drv_msleep(ts->d, 20); /* T2: > 10ms */
	/* HIGH: 0x28/0x29, LOW: 0xBA/0xBB */
	drv_gpio_output(ts->d, ts->d->chg_line, ts->addr == 0x14);
	drv_usleep(ts->d, 100); /* T3: > 100us */
	drv_gpio_output(ts->d, ts->d->reset_line, true);
	drv_usleep(ts->d, 6000); /* T4: > 5ms */
	/* back to input / high impedance (IRQ_PIN_ACCESS_GPIO) */
	drv_gpio_input(ts->d, ts->d->reset_line);
	return 0;
}

static int goodix_reset(struct goodix_ts_data *ts)
{
	int error = goodix_reset_no_int_sync(ts);

	if (error)
		return error;
	return goodix_int_sync(ts);
}

/* ------------------------------------------------------------ probe */

static int goodix_get_gpio_config(struct goodix_ts_data *ts)
{
	int error;

	error = drv_gpio_get_int(ts->d, &ts->have_int);
	if (error) {
		emub_dev_log(ts->d, "Failed to get irq GPIO: %d", error);
		return error;
	}
	error = drv_gpio_get_reset_input(ts->d, &ts->have_rst);
	if (error) {
		emub_dev_log(ts->d, "Failed to get reset GPIO: %d", error);
		return error;
	}
	if (ts->have_int && ts->have_rst) {
		ts->reset_controller_at_probe = true;
		ts->load_cfg_from_disk = true;
		ts->irq_pin_access_method = IRQ_PIN_ACCESS_GPIO;
	}
	return 0;
}

static void goodix_read_config(struct goodix_ts_data *ts)
{
	int x_max, y_max;

	if (goodix_i2c_read(ts, ts->chip->config_addr, ts->config, ts->chip->config_len)) {
		ts->int_trigger_type = GOODIX_INT_TRIGGER;
		ts->max_touch_num = GOODIX_MAX_CONTACTS;
		return;
	}
	ts->int_trigger_type = ts->config[TRIGGER_LOC] & 0x03;
	ts->max_touch_num = ts->config[MAX_CONTACTS_LOC] & 0x0f;
	x_max = em_get_le16(ts->config + RESOLUTION_LOC);
	y_max = em_get_le16(ts->config + RESOLUTION_LOC + 2);
	if (x_max && y_max) {
		ts->abs_x_max = x_max - 1;
		ts->abs_y_max = y_max - 1;
	}
	/* calc_config_checksum: only the driver's own copy, for resume */
}

static int goodix_read_version(struct goodix_ts_data *ts)
{
	guint8 buf[6];
	int error = goodix_i2c_read(ts, GOODIX_REG_ID, buf, sizeof(buf));

	if (error)
		return error;
	memcpy(ts->id, buf, GOODIX_ID_MAX_LEN);
	ts->id[GOODIX_ID_MAX_LEN] = 0; /* strscpy stops at the first NUL */
	ts->version = em_get_le16(buf + 4);
	emub_dev_log(ts->d, "ID %s, version: %04x", ts->id, ts->version);
	return 0;
}

static int goodix_i2c_test(struct goodix_ts_data *ts)
{
	int retry = 0, error = 0;
	guint8 test;

	while (retry++ < 2) {
		error = goodix_i2c_read(ts, GOODIX_REG_ID, &test, 1);
		if (!error)
			return 0;
		drv_msleep(ts->d, 20);
	}
	return error;
}

/* kstrtou16(ts->id, 10, ...), else 0x1001 */
static guint16 product_of(const char *id)
{
	unsigned long v = 0;

	if (!*id)
		return 0x1001;
	for (const char *p = id; *p; p++) {
		if (*p < '0' || *p > '9')
			return 0x1001;
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > 0xffff)
			return 0x1001;
	}
	return (guint16)v;
}

static int goodix_configure_dev(struct goodix_ts_data *ts)
{
	struct emub_input_desc in = {
		.name = "Goodix Capacitive TouchScreen",
		.phys = "input/ts",
		.bustype = BUS_I2C,
		.vendor = 0x0416,
		.evbits = 1u << EV_SYN | 1u << EV_KEY | 1u << EV_ABS,
	};
	int max_x, max_y, i;

	ts->int_trigger_type = GOODIX_INT_TRIGGER;
	ts->max_touch_num = GOODIX_MAX_CONTACTS;
	in.product = product_of(ts->id);
	in.version = ts->version;
	/* Capacitive Windows/Home button on some devices */
	for (i = 0; i < GOODIX_MAX_KEYS; i++) {
		int code = i == 0 ? KEY_LEFTMETA : KEY_F1 + (i - 1);

		if (code < 64)
			in.keybits_word0 |= G_GUINT64_CONSTANT(1) << code;
		else
			in.keybits_word1 |= G_GUINT64_CONSTANT(1) << (code - 64);
	}
	/* input_set_capability(EV_ABS, ABS_MT_POSITION_X/Y): range 0..0 */
	ts->abs_x_max = ts->abs_y_max = 0;
	drv_input_set_abs(&in, ABS_MT_WIDTH_MAJOR, 0, 255);
	drv_input_set_abs(&in, ABS_MT_TOUCH_MAJOR, 0, 255);

retry_read_config:
	goodix_read_config(ts);
	/* touchscreen_parse_properties(): no touchscreen-* properties here */
	max_x = ts->abs_x_max;
	max_y = ts->abs_y_max;
	if (!max_x || !max_y || !ts->max_touch_num) {
		if (!ts->reset_controller_at_probe &&
		    ts->irq_pin_access_method != IRQ_PIN_ACCESS_NONE) {
			emub_dev_log(ts->d, "Config not set, resetting controller");
			ts->reset_controller_at_probe = true;
			if (goodix_reset(ts))
				return -EINVAL;
			goto retry_read_config;
		}
		emub_dev_log(ts->d, "Invalid config (%d, %d, %u), using defaults", max_x, max_y,
			     ts->max_touch_num);
		ts->abs_x_max = GOODIX_MAX_WIDTH - 1;
		ts->abs_y_max = GOODIX_MAX_HEIGHT - 1;
		ts->max_touch_num = GOODIX_MAX_CONTACTS;
	}
	drv_input_set_abs(&in, ABS_MT_POSITION_X, 0, ts->abs_x_max);
	drv_input_set_abs(&in, ABS_MT_POSITION_Y, 0, ts->abs_y_max);
	/* input_mt_init_slots(INPUT_MT_DIRECT | INPUT_MT_DROP_UNUSED) */
	drv_input_mt_init_direct(&in, (int)ts->max_touch_num);
	drv_input_set_abs(&in, ABS_X, 0, ts->abs_x_max); /* copy_abs from the MT axes */
	drv_input_set_abs(&in, ABS_Y, 0, ts->abs_y_max);

	if (drv_fault_no_input(ts->d)) {
		emub_dev_log(ts->d, "fault: input device not registered");
	} else {
		if (drv_input_register(ts->d, &in)) {
			emub_dev_log(ts->d, "Failed to register input device");
			return -ENOMEM;
		}
	}
	/* goodix_irq_flags[]: rising, falling, level low, level high */
	if (ts->have_int && drv_irq_request_on_gpio(ts->d, ts->int_trigger_type >= 2) == 0)
		return 0;
	if (!ts->have_int)
		emub_dev_log(ts->d, "no interrupt GPIO: interrupt not modelled");
	return 0;
}

/* goodix_config_cb(): request_firmware_nowait's callback */
static void goodix_work(struct emub_dev *d, int what)
{
	struct goodix_ts_data *ts = data_of(d);
	guint8 *cfg = NULL;
	gsize len = 0;

	if (!ts || what != WORK_CONFIG_CB)
		return;
	/* no user-helper fallback in Debian's kernel: a missing file fails at once */
	if (drv_request_firmware(d, ts->cfg_name, &cfg, &len))
		cfg = NULL;
	if (cfg) {
		/* send device configuration to the firmware */
		int error = len > G_MAXINT ? -EINVAL : goodix_send_cfg(ts, cfg, (int)len);

		g_free(cfg);
		if (error) {
			emub_dev_log(d, "config %s not sent (%d): no input device",
				     ts->cfg_name, error);
			return;
		}
	}
	goodix_configure_dev(ts);
}

static int goodix_ts_probe(struct emub_dev *d)
{
	struct goodix_ts_data *ts = g_new0(struct goodix_ts_data, 1);
	int error;

	ts->d = d;
	ts->addr = d->chip->desc->addr;
	g_free(d->priv);
	d->priv = ts;
	if (d->chip->ad->desc.smbus_only) {
		emub_dev_log(d, "I2C check functionality failed.");
		error = -ENXIO;
		goto fail;
	}
	error = goodix_get_gpio_config(ts);
	if (error)
		goto fail;
	/* power up the controller: AVDD28, VDDIO */
	drv_regulator(d, true);
reset:
	if (ts->reset_controller_at_probe) {
		error = goodix_reset(ts);
		if (error)
			goto fail_power;
	}
	error = goodix_i2c_test(ts);
	if (error) {
		if (!ts->reset_controller_at_probe &&
		    ts->irq_pin_access_method != IRQ_PIN_ACCESS_NONE) {
			ts->reset_controller_at_probe = true;
			goto reset;
		}
		emub_dev_log(d, "I2C communication failure: %d", error);
		goto fail_power;
	}
	/* goodix_firmware_check(): no firmware-name property modelled */
	error = goodix_read_version(ts);
	if (error)
		goto fail_power;
	ts->chip = goodix_get_chip_data(ts->id);
	if (ts->load_cfg_from_disk) {
		const char *name = goodix_board(d->chip->desc)->config_name;

		/* update device config */
		if (name)
			snprintf(ts->cfg_name, sizeof(ts->cfg_name), "goodix/%s", name);
		else
			snprintf(ts->cfg_name, sizeof(ts->cfg_name), "goodix_%s_cfg.bin",
				 ts->id);
		/* request_firmware_nowait(): the callback runs later */
		drv_queue_work(d, WORK_CONFIG_CB, d->chip->desc->input_delay_ms);
		return 0;
	}
	error = goodix_configure_dev(ts);
	if (error)
		goto fail_power;
	return 0;

fail_power:
	drv_devm_release(d); /* with the devm action goodix_disable_regulators */
	return error;
fail:
	drv_free_priv(d);
	return error;
}

/*
 * goodix_ts_remove() only waits for the config callback (the worker runs
 * jobs in order, so it has); devres then frees the IRQ, unregisters the
 * input device, disables the regulators and frees the GPIOs.
 */
static void goodix_ts_remove(struct emub_dev *d)
{
	drv_irq_disable(d);
	drv_devm_release(d);
}

/* goodix_ts_irq_handler(): goodix_process_events, then clear the status */
static void goodix_irq(struct emub_dev *d)
{
	struct goodix_ts_data *ts = data_of(d);
	guint8 data[2 + 9 * GOODIX_MAX_CONTACTS], zero = 0;
	int header = 1 + GOODIX_CONTACT_SIZE + 1;

	if (!ts)
		return;
	for (int waited = 0; waited <= GOODIX_BUFFER_STATUS_TIMEOUT; waited++) {
		if (goodix_i2c_read(ts, GOODIX_READ_COOR_ADDR, data, header))
			break;
		if (data[0] & GOODIX_BUFFER_STATUS_READY) {
			unsigned int touch_num = data[0] & 0x0f;

			if (touch_num > ts->max_touch_num)
				break;
			if (touch_num > 1)
				goodix_i2c_read(ts, (guint16)(GOODIX_READ_COOR_ADDR + header),
						data + header,
						GOODIX_CONTACT_SIZE * ((int)touch_num - 1));
			break; /* reported: the model's input device stays silent */
		}
		drv_msleep(d, 1); /* Poll every 1 - 2 ms */
	}
	goodix_i2c_write(ts, GOODIX_READ_COOR_ADDR, &zero, 1);
}

static const char *const goodix_of_match[] = {
	"goodix,gt1151", "goodix,gt1158", "goodix,gt5663", "goodix,gt5688", "goodix,gt911",
	"goodix,gt9110", "goodix,gt912",  "goodix,gt9147", "goodix,gt917s", "goodix,gt927",
	"goodix,gt9271", "goodix,gt928",  "goodix,gt9286", "goodix,gt967",  NULL,
};

/* goodix.c goodix_acpi_match[] */
static const char *const goodix_acpi_match[] = { "GDIX1001", "GDIX1002", "GDX9110", NULL };

const struct emub_driver_ops emub_drv_goodix = {
	.name = "Goodix-TS",
	.of_match = goodix_of_match,
	.acpi_match = goodix_acpi_match,
	.probe = goodix_ts_probe,
	.remove = goodix_ts_remove,
	.irq = goodix_irq,
	.work = goodix_work,
	.destroy = drv_free_priv,
};
