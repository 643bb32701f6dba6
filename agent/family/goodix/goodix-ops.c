// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Goodix operations for the update flow, over i2c-dev (I2C_RDWR, which
 * needs no address claim, so everything here works with goodix_ts bound).
 *
 * Detection reads only: the product id and firmware version at 0x8140 and
 * the whole configuration at the chip's config register (goodix_read_version,
 * goodix_read_config), at the profile's address.  The configuration is
 * written as goodix_send_cfg does -- the chip's length to its register, the
 * fresh byte last -- then, unlike the driver, read back after the 10 ms the
 * driver allows the firmware to reconfigure itself: a chip that ignores a
 * configuration (an older version than its own, a checksum it dislikes)
 * shows its old one again.  The file name the driver requests at probe is
 * computed from the id the chip reported and the profile's config-name,
 * exactly as goodix_ts_probe builds it, and only offered when the driver
 * will request one at all: it does so only with both its INT and RST GPIOs
 * (goodix_get_gpio_config sets load_cfg_from_disk then).
 */
#include "goodix.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "family/family.h"
#include "family/update-path.h"
#include "log.h"

/* Time the chip may take to show a written configuration as its own. */
#define GOODIX_READBACK_TIMEOUT_MS 200
#define GOODIX_READBACK_POLL_US 10000

struct goodix_priv {
	uint16_t addr;
	bool have_product;
	struct goodix_product product;
	const struct goodix_chip_data *chip;
};

struct goodix_cfg_blob {
	uint8_t data[GOODIX_CONFIG_MAX_LENGTH];
	size_t len;
	char name[128];
	struct goodix_cfg_info info;
};

static struct goodix_priv *P(struct tf_ctx *c)
{
	return c->priv;
}

static int goodix_init(struct tf_ctx *c, struct tf_err *err)
{
	struct goodix_priv *p = calloc(1, sizeof(*p));

	if (!p)
		return tf_err_set(err, ENOMEM, "out of memory");
	p->addr = c->ctrl ? c->ctrl->reg : c->dev.addr;
	c->priv = p;
	return 0;
}

static void goodix_fini(struct tf_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

/* goodix_i2c_read: BE16 register, repeated START, data. */
static int reg_read(struct tf_ctx *c, uint16_t reg, uint8_t *buf, size_t len)
{
	uint8_t a[2] = { (uint8_t)(reg >> 8), (uint8_t)reg };

	return tf_i2c_write_read(c->bus, P(c)->addr, a, 2, buf, len);
}

/*
 * goodix_i2c_write: BE16 register then data in one message.  Where the
 * adapter takes less, the write is split into register-addressed pieces;
 * the piece with the fresh byte comes last, and the chip judges the
 * configuration when that transaction ends.
 */
static int reg_write(struct tf_ctx *c, uint16_t reg, const uint8_t *val, size_t len)
{
	if (len > GOODIX_CONFIG_MAX_LENGTH)
		return -EINVAL;
	return tf_i2c_reg_write(c->bus, P(c)->addr, TF_I2C_REG_BE16, reg, val, len, len);
}

/* "911 (GT911), firmware 0x1060" */
static void describe_chip(const struct goodix_priv *p, char *buf, size_t size)
{
	char fw[8];

	goodix_fw_version_format(p->product.fw_version, fw, sizeof(fw));
	snprintf(buf, size, "%s (%s), firmware %s", p->product.id, p->chip->klass, fw);
}

static int goodix_detect(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	struct goodix_priv *p = P(c);
	uint8_t id[GOODIX_ID_READ_LEN], cfg[GOODIX_CONFIG_MAX_LENGTH];
	struct goodix_cfg_info info;
	struct tf_err why = { 0 };
	char chip[64], v[8];
	int r;

	memset(st, 0, sizeof(*st));
	p->have_product = false;
	r = reg_read(c, GOODIX_REG_ID, id, sizeof(id));
	if (r < 0 && tf_i2c_nak(r)) {
		st->mode = TF_CHIP_ABSENT;
		snprintf(st->detail, sizeof(st->detail), "no answer at 0x%02x", p->addr);
		return 0;
	}
	if (r < 0)
		return tf_err_set(err, -r, "reading 0x%02x on i2c-%d: %s", p->addr,
				  c->dev.adapter_nr, strerror(-r));
	r = goodix_product_parse(id, sizeof(id), &p->product, err);
	if (r < 0)
		return tf_err_prefix(err, "0x%02x answers but ", p->addr);
	p->chip = goodix_chip_data_for(p->product.id);
	p->have_product = true;
	describe_chip(p, chip, sizeof(chip));

	st->mode = TF_CHIP_APP;
	tf_snprintf(st->hw, sizeof(st->hw), "%s", p->product.id);
	goodix_version_fw(p->product.fw_version, &st->version);
	goodix_fw_version_format(p->product.fw_version, st->version_str,
				 sizeof(st->version_str));
	st->has_version = true;

	r = reg_read(c, p->chip->config_reg, cfg, p->chip->config_len);
	if (r < 0)
		return tf_err_set(err, -r, "reading the configuration at 0x%04x: %s",
				  p->chip->config_reg, strerror(-r));
	/* The fresh byte reads 0 once the chip has applied a configuration;
	 * judge the rest as the driver would judge a file. */
	cfg[p->chip->config_len - 1] = 1;
	if (goodix_cfg_check(p->chip, p->product.id, cfg, p->chip->config_len,
			     "the chip's configuration", &info, &why) < 0) {
		snprintf(st->detail, sizeof(st->detail),
			 "application at 0x%02x: %s, no valid configuration", p->addr, chip);
		return 0;
	}
	st->has_config_crc = true;
	st->config_crc = goodix_cfg_digest(cfg, p->chip->config_len);
	st->has_config_version = true;
	goodix_version_cfg(info.version, &st->config_version);
	goodix_cfg_version_format(info.version, v, sizeof(v));
	tf_snprintf(st->config_version_str, sizeof(st->config_version_str), "%s", v);
	snprintf(st->detail, sizeof(st->detail),
		 "application at 0x%02x: %s, config version %s, checksum 0x%0*X, %ux%u",
		 p->addr, chip, v, info.checksum_kind == GOODIX_CHECKSUM_16 ? 4 : 2,
		 info.checksum, info.x_res, info.y_res);
	return 0;
}

static int goodix_load_firmware(struct tf_ctx *c, uint8_t *data, size_t len, const char *name,
				void **img, struct tf_err *err)
{
	(void)c;
	(void)len;
	free(data);
	(void)img;
	return tf_err_set(err, EOPNOTSUPP,
			  "%s: touchfw does not flash Goodix firmware (only vendor tools "
			  "do); it installs configurations",
			  name ? name : "firmware");
}

static void goodix_free_firmware(void *img)
{
	free(img);
}

static int goodix_load_config(struct tf_ctx *c, const uint8_t *data, size_t len,
			      const char *name, void **out, uint32_t *want_crc,
			      struct tf_err *err)
{
	struct goodix_priv *p = P(c);
	struct goodix_cfg_blob *b;
	int r;

	if (!name)
		name = "configuration";
	if (p->have_product) {
		r = goodix_blob_check((const char *const[]){ p->product.id }, 1, NULL, data,
				      len, name, NULL, err);
		if (r < 0)
			return r;
	} else {
		/*
		 * A file given to `flash` is checked before the chip is read:
		 * it must be whole for one of the layouts (length class and
		 * checksum kind); check_config() holds it against the chip's
		 * own layout once the chip has been read.
		 */
		static const char *const layouts[] = { "911", "912", "9xx", "1151" };
		const struct goodix_chip_data *chip = NULL;
		size_t i;

		r = -EINVAL;
		for (i = 0; i < TF_ARRAY_SIZE(layouts) && r < 0; i++) {
			chip = goodix_chip_data_for(layouts[i]);
			if (chip && chip->config_len == len)
				r = goodix_cfg_check(chip, layouts[i], data, len, name, NULL,
						     NULL);
		}
		if (r < 0) {
			/* Name what is wrong against the layout of its length. */
			for (i = 0; i < TF_ARRAY_SIZE(layouts); i++) {
				chip = goodix_chip_data_for(layouts[i]);
				if (chip && chip->config_len >= len)
					break;
			}
			if (i == TF_ARRAY_SIZE(layouts) || !chip)
				return tf_err_set(err, EBADMSG,
						  "%s: %zu bytes, longer than any Goodix "
						  "configuration (240 at most)",
						  name, len);
			goodix_cfg_check(chip, layouts[i], data, len, name, NULL, err);
			return -EBADMSG;
		}
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return tf_err_set(err, ENOMEM, "out of memory");
	memcpy(b->data, data, len);
	b->len = len;
	tf_snprintf(b->name, sizeof(b->name), "%s", name);
	if (p->have_product)
		goodix_cfg_check(p->chip, p->product.id, data, len, name, &b->info, NULL);
	*want_crc = goodix_cfg_digest(data, len);
	*out = b;
	return 0;
}

static void goodix_free_config(void *cfg)
{
	free(cfg);
}

static int goodix_check_config(struct tf_ctx *c, void *cfg, struct tf_err *err)
{
	struct goodix_cfg_blob *b = cfg;
	struct goodix_priv *p = P(c);

	if (!p->have_product)
		return tf_err_set(err, ENODEV, "the chip is not answering");
	/* The chip may have been replaced since the blob was loaded, or the
	 * blob was loaded before the chip was read (flash --config). */
	if (goodix_blob_check((const char *const[]){ p->product.id }, 1, NULL, b->data, b->len,
			      b->name, NULL, err) < 0)
		return -EBADMSG;
	return goodix_cfg_check(p->chip, p->product.id, b->data, b->len, b->name, &b->info,
				err);
}

static int goodix_kernel_cfg_name(struct tf_ctx *c, const struct tf_chip_state *st, char *buf,
				  size_t size, struct tf_err *err)
{
	const char *cname = c->ctrl ? c->ctrl->config_name : NULL;

	if (!c->ctrl || !c->ctrl->has_irq || !c->ctrl->has_reset)
		return tf_err_set(err, EOPNOTSUPP,
				  "%s requests a configuration file only when it has both "
				  "the INT and RST lines (goodix_get_gpio_config); the board "
				  "profile names %s",
				  GOODIX_DRIVER_NAME,
				  c->ctrl && c->ctrl->has_irq	  ? "no reset line"
				  : c->ctrl && c->ctrl->has_reset ? "no interrupt line"
								  : "neither");
	if (!st->hw[0])
		return tf_err_set(err, ENODEV, "the chip's id is unknown");
	if (goodix_cfg_file_name(st->hw, cname, buf, size) < 0)
		return tf_err_set(err, EINVAL, "can not make a file name from id '%s'%s%s",
				  st->hw, cname && cname[0] ? " and config-name " : "",
				  cname ? cname : "");
	return 0;
}

static int goodix_write_config(struct tf_ctx *c, void *cfg, struct tf_err *err)
{
	struct goodix_cfg_blob *b = cfg;
	struct goodix_priv *p = P(c);
	uint8_t back[GOODIX_CONFIG_MAX_LENGTH];
	uint64_t deadline;
	struct goodix_cfg_info got;
	int r;

	r = goodix_check_config(c, cfg, err);
	if (r < 0)
		return r;
	r = reg_write(c, p->chip->config_reg, b->data, b->len);
	if (r < 0)
		return tf_err_set(err, -r, "writing the configuration to 0x%04x at 0x%02x: %s",
				  p->chip->config_reg, p->addr, strerror(-r));
	tf_sleep_us(GOODIX_CONFIG_SETTLE_US);
	deadline = tf_now_ms() + GOODIX_READBACK_TIMEOUT_MS;
	for (;;) {
		r = reg_read(c, p->chip->config_reg, back, b->len);
		if (r < 0 && !tf_i2c_nak(r))
			return tf_err_set(err, -r, "reading the configuration back: %s",
					  strerror(-r));
		/* Everything but the fresh byte, which the chip clears. */
		if (r == 0 && !memcmp(back, b->data, b->len - 1))
			return 0;
		if (tf_now_ms() >= deadline)
			break;
		tf_sleep_us(GOODIX_READBACK_POLL_US);
	}
	if (r < 0)
		return tf_err_set(err, -r,
				  "no answer at 0x%02x after the configuration "
				  "was written",
				  p->addr);
	back[b->len - 1] = 1;
	if (goodix_cfg_check(p->chip, p->product.id, back, b->len, "read back", &got, NULL) ==
	    0)
		return tf_err_set(err, EIO,
				  "the chip did not take %s (version %u): it reads back "
				  "version %u, checksum 0x%02X, %ux%u (a chip keeps its own "
				  "configuration when the one offered has a lower version or "
				  "a checksum it refuses)",
				  b->name, b->info.version, got.version, got.checksum,
				  got.x_res, got.y_res);
	return tf_err_set(err, EIO,
			  "the chip did not take %s (version %u): what it reads back "
			  "is not a valid configuration",
			  b->name, b->info.version);
}

/* The axis maxima the driver derives from this configuration. */
static int goodix_expected_axes(struct tf_ctx *c, void *cfg, int32_t *x_max, int32_t *y_max)
{
	struct goodix_cfg_blob *b = cfg;

	goodix_cfg_axis_max(&b->info, c->ctrl && c->ctrl->swapped_x_y, x_max, y_max);
	return 0;
}

/* goodix_reset_no_int_sync: INT high selects 0x14, low 0x5d. */
static int goodix_reset_int_level(struct tf_ctx *c)
{
	return P(c)->addr == GOODIX_ADDR_INT_HIGH ? 1 : 0;
}

/* ------------------------------------------------------------ bring-up tools */

static void info_field(struct tf_chip_info *ci, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void info_field(struct tf_chip_info *ci, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (ci->n_fields >= TF_CHIP_INFO_FIELDS)
		return;
	tf_snprintf(ci->field[ci->n_fields].key, sizeof(ci->field[0].key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(ci->field[ci->n_fields].value, sizeof(ci->field[0].value), fmt, ap);
	va_end(ap);
	ci->n_fields++;
}

/* The chip's configuration as it runs, fresh byte set as in a file; 0 if
 * it is a valid one (@info filled), -EBADMSG with the reason if not. */
static int read_cfg(struct tf_ctx *c, uint8_t *cfg, struct goodix_cfg_info *info,
		    struct tf_err *err)
{
	struct goodix_priv *p = P(c);
	int r;

	r = reg_read(c, p->chip->config_reg, cfg, p->chip->config_len);
	if (r < 0)
		return tf_err_set(err, -r, "reading the configuration at 0x%04x: %s",
				  p->chip->config_reg, strerror(-r));
	cfg[p->chip->config_len - 1] = 1;
	return goodix_cfg_check(p->chip, p->product.id, cfg, p->chip->config_len,
				"the chip's configuration", info, err);
}

static int goodix_chip_info(struct tf_ctx *c, const struct tf_chip_state *st,
			    struct tf_chip_info *ci, struct tf_err *err)
{
	struct goodix_priv *p = P(c);
	uint8_t cfg[GOODIX_CONFIG_MAX_LENGTH];
	struct goodix_cfg_info info;
	struct tf_err why = { 0 };
	(void)err;
	if (st->mode != TF_CHIP_APP || !p->have_product)
		return 0;
	info_field(ci, "chip_class", "%s", p->chip->klass);
	info_field(ci, "address", "0x%02x", p->addr);
	info_field(ci, "config_register", "0x%04x", p->chip->config_reg);
	info_field(ci, "config_length", "%u", p->chip->config_len);
	info_field(ci, "config_checksum_kind", "%s",
		   p->chip->checksum == GOODIX_CHECKSUM_16 ? "16-bit" : "8-bit");
	if (read_cfg(c, cfg, &info, &why) < 0) {
		info_field(ci, "config", "not valid: %s", why.msg);
		return 0;
	}
	info_field(ci, "config_checksum", "0x%0*X",
		   info.checksum_kind == GOODIX_CHECKSUM_16 ? 4 : 2, info.checksum);
	info_field(ci, "resolution", "%ux%u", info.x_res, info.y_res);
	info_field(ci, "max_touch", "%u", info.max_touch);
	return 0;
}

/*
 * The configuration the chip runs, as the blob the driver would load to
 * give it that configuration: the chip's length, its checksum as stored
 * (never recomputed: a chip only runs a configuration whose checksum it
 * accepted), the fresh byte 1.  Its digest is the chip's config digest.
 */
static int goodix_save_config(struct tf_ctx *c, uint8_t **data, size_t *len, struct tf_err *err)
{
	struct goodix_priv *p = P(c);
	struct goodix_cfg_info info;
	uint8_t *cfg;
	int r;

	if (!p->have_product)
		return tf_err_set(err, ENODEV, "the chip is not answering");
	cfg = malloc(GOODIX_CONFIG_MAX_LENGTH);
	if (!cfg)
		return -ENOMEM;
	r = read_cfg(c, cfg, &info, err);
	if (r < 0) {
		free(cfg);
		return tf_err_prefix(err, "the chip holds no configuration to save: ");
	}
	*data = cfg;
	*len = p->chip->config_len;
	return 0;
}

/*
 * A configuration through the bound driver: the file goodix loads at
 * every probe where it requests one (staged, then a rebind); where it
 * requests none (kernel_cfg_name -EOPNOTSUPP: not both INT and RESET
 * are GPIOs), over the bus with the driver bound -- the configuration
 * registers are the chip's to judge, the driver only reads them, and
 * write_config reads back what the chip took -- then a rebind so that the
 * driver reads the new configuration.
 */
static int goodix_config_through_driver(const struct tf_flow_services *sv, struct tf_update *u,
					bool check_only)
{
	char name[TF_FW_NAME_MAX];
	struct tf_err err = { 0 };

	if (goodix_kernel_cfg_name(u->c, u->chip, name, sizeof(name), &err) < 0) {
		if (err.code != EOPNOTSUPP)
			return sv->finish(u, TF_EXIT_IO, "%s", err.msg);
		if (check_only)
			return 0;
		sv->log(u, TF_LOG_INFO, "config: %s", err.msg);
		return sv->config_over_bus_bound(u);
	}
	return check_only ? 0 : sv->config_stage_and_rebind(u, name);
}

static const struct tf_update_path goodix_path = {
	.config_through_driver = goodix_config_through_driver,
};

const struct tf_family_ops goodix_ops = {
	.init = goodix_init,
	.fini = goodix_fini,
	.detect = goodix_detect,
	.load_firmware = goodix_load_firmware,
	.free_firmware = goodix_free_firmware,
	.load_config = goodix_load_config,
	.check_config = goodix_check_config,
	.free_config = goodix_free_config,
	.kernel_cfg_name = goodix_kernel_cfg_name,
	.write_config = goodix_write_config,
	.expected_axes = goodix_expected_axes,
	.reset_int_level = goodix_reset_int_level,
	.chip_info = goodix_chip_info,
	.save_config = goodix_save_config,
	.update_path = &goodix_path,
};
