// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Silead operations for the update flow.  Nothing here writes to the chip:
 * it keeps nothing between power cycles, silead_ts owns its power and
 * loads the firmware file at every probe, and a bound driver means its
 * probe found the chip's status 0x5A5A5A5A after loading the file
 * (silead_ts_setup); detect reads that status (and the chip id) again, as
 * silead_ts_get_status does, to tell whether the program still runs.  Installing is the flow's
 * stage-and-probe service (silead_path): the bytes under the name silead_ts computes
 * (silead_fw_file_name), then a probe; the proof is the input device with the axis ranges the
 * board's touchscreen-size-x/-y give.
 */
#include "silead.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "family/family.h"
#include "family/update-path.h"

#define SILEAD_REG_STATUS 0xb0
#define SILEAD_REG_ID 0xfc
#define SILEAD_STATUS_OK 0x5a5a5a5au

/* i2c_smbus_read_i2c_block_data(@reg, 4) as silead_ts does it: the
 * register byte written, four bytes read, one combined transfer (safe
 * beside the bound driver, whose transfers are the same kind). */
static int read_le32(struct tf_ctx *c, uint8_t reg, uint32_t *v)
{
	uint8_t b[4];
	int r = tf_i2c_write_read(c->bus, c->ctrl ? c->ctrl->reg : c->dev.addr, &reg, 1, b, 4);

	if (r < 0)
		return r;
	*v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return 0;
}

static int silead_detect(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err)
{
	uint32_t status = 0, id = 0;

	(void)err;
	memset(st, 0, sizeof(*st));
	st->mode = TF_CHIP_APP;
	st->program_from_driver = true;
	if (!c->dev.driver[0] || strcmp(c->dev.driver, SILEAD_DRIVER_NAME)) {
		tf_snprintf(st->detail, sizeof(st->detail),
			    "%s not bound: the chip holds no program (the driver's probe "
			    "fails without its firmware file)",
			    SILEAD_DRIVER_NAME);
		return 0;
	}
	/* Bound: its probe read status OK once.  Whether the program still
	 * runs is the chip's to say, in the register silead_ts reads. */
	if (!c->bus || read_le32(c, SILEAD_REG_STATUS, &status) < 0) {
		tf_snprintf(st->detail, sizeof(st->detail),
			    "%s bound: its probe loaded a program the chip ran (the status "
			    "register could not be read now)",
			    c->dev.driver);
		return 0;
	}
	if (read_le32(c, SILEAD_REG_ID, &id) < 0)
		id = 0;
	if (status != SILEAD_STATUS_OK) {
		st->not_running = true;
		tf_snprintf(st->detail, sizeof(st->detail),
			    "%s bound, but the chip's program does not run: status 0x%08X at "
			    "0xB0, not 0x%08X (chip id 0x%08X)",
			    c->dev.driver, status, SILEAD_STATUS_OK, id);
		return 0;
	}
	tf_snprintf(st->detail, sizeof(st->detail),
		    "%s bound: the chip runs the program its probe loaded (status 0x%08X at "
		    "0xB0, chip id 0x%08X)",
		    c->dev.driver, status, id);
	return 0;
}

/* Takes @data (family.h): kept as the image, or freed. */
static int silead_load_firmware(struct tf_ctx *c, uint8_t *data, size_t len, const char *name,
				void **img, struct tf_err *err)
{
	struct silead_fw_info info;

	(void)c;
	if (silead_fw_check(data, len, name, &info, err) < 0) {
		free(data);
		return -EBADMSG;
	}
	return tf_plain_image_take(data, len, img, err);
}

static int silead_kernel_fw_name(struct tf_ctx *c, const struct tf_chip_state *st, char *buf,
				 size_t size, struct tf_err *err)
{
	const char *fw_name = c->ctrl ? c->ctrl->config_name : NULL;

	(void)st;
	if (silead_fw_file_name(fw_name, c->dev.modalias, c->dev.compatible, buf, size) < 0)
		return tf_err_set(err, EINVAL,
				  "can not tell which file %s requests (modalias '%s'%s%s%s)",
				  SILEAD_DRIVER_NAME, c->dev.modalias,
				  fw_name && fw_name[0] ? ", config-name '" : "",
				  fw_name ? fw_name : "", fw_name && fw_name[0] ? "'" : "");
	return 0;
}

/* silead_ts_request_input_dev: 0..4095, then touchscreen_parse_properties */
static int silead_expected_axes(struct tf_ctx *c, void *img, int32_t *x_max, int32_t *y_max)
{
	int32_t x = SILEAD_AXIS_DEFAULT_MAX, y = SILEAD_AXIS_DEFAULT_MAX;

	(void)img;
	if (c->ctrl && c->ctrl->size_x)
		x = (int32_t)c->ctrl->size_x - 1;
	if (c->ctrl && c->ctrl->size_y)
		y = (int32_t)c->ctrl->size_y - 1;
	if (c->ctrl && c->ctrl->swapped_x_y) {
		*x_max = y;
		*y_max = x;
	} else {
		*x_max = x;
		*y_max = y;
	}
	return 0;
}

/*
 * Nothing before detection: silead_ts can not bind before its file is
 * there (its probe loads it), and detect reads nothing while it is
 * unbound; the update binds it (silead_choose).
 */
static int silead_before_detect(const struct tf_flow_services *sv, struct tf_update *u)
{
	(void)sv;
	(void)u;
	return 0;
}

/* The chip keeps no firmware: stage the file silead_ts requests, make it
 * probe (bind, or rebind when it runs another file), wait for its input
 * device -- whatever state the chip is in. */
static enum tf_update_way silead_choose(const struct tf_flow_services *sv, struct tf_update *u)
{
	(void)sv;
	(void)u;
	return TF_WAY_STAGE_AND_PROBE;
}

static const struct tf_update_path silead_path = {
	.before_detect = silead_before_detect,
	.choose = silead_choose,
};

const struct tf_family_ops silead_ops = {
	.detect = silead_detect,
	.load_firmware = silead_load_firmware,
	.free_firmware = tf_plain_image_free,
	.kernel_firmware = tf_plain_image_bytes,
	.kernel_fw_name = silead_kernel_fw_name,
	.expected_axes = silead_expected_axes,
	.update_path = &silead_path,
};
