// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Goodix chip data, product id, configuration checks, file names and
 * versions (see goodix.h).  The tables and checksums follow goodix.c as of
 * Linux 6.1 (goodix_chip_ids, goodix_check_cfg_8/_16, goodix_read_version,
 * goodix_read_config, goodix_ts_probe); where touchfw is stricter than the
 * driver the comment says so.  Pure: no I/O, no logging.
 */
#include "goodix.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const struct goodix_chip_data gt1x_data = {
	"GT1x",
	GOODIX_GT1X_REG_CONFIG,
	GOODIX_CONFIG_GT9X_LENGTH,
	GOODIX_CHECKSUM_16,
};
static const struct goodix_chip_data gt911_data = {
	"GT911",
	GOODIX_GT9X_REG_CONFIG,
	GOODIX_CONFIG_911_LENGTH,
	GOODIX_CHECKSUM_8,
};
static const struct goodix_chip_data gt967_data = {
	"GT967",
	GOODIX_GT9X_REG_CONFIG,
	GOODIX_CONFIG_967_LENGTH,
	GOODIX_CHECKSUM_8,
};
static const struct goodix_chip_data gt9x_data = {
	"GT9x",
	GOODIX_GT9X_REG_CONFIG,
	GOODIX_CONFIG_GT9X_LENGTH,
	GOODIX_CHECKSUM_8,
};

/* goodix_chip_ids: ids compare as strings, exactly ("917S", not "917s"). */
static const struct {
	const char *id;
	const struct goodix_chip_data *data;
} chip_ids[] = {
	{ "1151", &gt1x_data },	 { "1158", &gt1x_data },  { "5663", &gt1x_data },
	{ "5688", &gt1x_data },	 { "917S", &gt1x_data },  { "9286", &gt1x_data },
	{ "911", &gt911_data },	 { "9271", &gt911_data }, { "9110", &gt911_data },
	{ "9111", &gt911_data }, { "927", &gt911_data },  { "928", &gt911_data },
	{ "912", &gt967_data },	 { "9147", &gt967_data }, { "967", &gt967_data },
};

const struct goodix_chip_data *goodix_chip_data_for(const char *id)
{
	size_t i;

	for (i = 0; id && i < TF_ARRAY_SIZE(chip_ids); i++)
		if (!strcmp(chip_ids[i].id, id))
			return chip_ids[i].data;
	return &gt9x_data;
}

static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

bool goodix_id_valid(const char *id)
{
	size_t n;

	if (!id)
		return false;
	for (n = 0; id[n]; n++)
		if (n >= GOODIX_ID_MAX_LEN || !is_alnum(id[n]))
			return false;
	return n > 0;
}

int goodix_product_parse(const uint8_t *buf, size_t len, struct goodix_product *p,
			 struct tf_err *err)
{
	size_t n;

	memset(p, 0, sizeof(*p));
	if (len < GOODIX_ID_READ_LEN)
		return tf_err_set(err, EBADMSG, "product id: %zu bytes, need %d", len,
				  GOODIX_ID_READ_LEN);
	for (n = 0; n < GOODIX_ID_MAX_LEN && buf[n]; n++)
		p->id[n] = (char)buf[n];
	p->id[n] = '\0';
	p->fw_version = (uint16_t)(buf[4] | buf[5] << 8);
	if (!goodix_id_valid(p->id))
		return tf_err_set(err, EBADMSG,
				  "product id bytes %02x %02x %02x %02x at 0x%04x are not "
				  "a Goodix id (1 to 4 letters or digits)",
				  buf[0], buf[1], buf[2], buf[3], GOODIX_REG_ID);
	return 0;
}

uint16_t goodix_cfg_checksum(enum goodix_checksum kind, const uint8_t *buf, size_t len)
{
	size_t i, raw;

	if (kind == GOODIX_CHECKSUM_8) {
		uint8_t sum = 0;

		if (len < 2)
			return 0;
		raw = len - 2;
		for (i = 0; i < raw; i++)
			sum = (uint8_t)(sum + buf[i]);
		return (uint8_t)(~sum + 1);
	} else {
		uint16_t sum = 0;

		if (len < 3)
			return 0;
		raw = len - 3;
		/* As goodix_check_cfg_16: words at 0, 2, ... while i < raw. */
		for (i = 0; i < raw; i += 2)
			sum = (uint16_t)(sum + (buf[i] << 8 | buf[i + 1]));
		return (uint16_t)(~sum + 1);
	}
}

uint16_t goodix_cfg_stored_checksum(enum goodix_checksum kind, const uint8_t *buf, size_t len)
{
	if (kind == GOODIX_CHECKSUM_8)
		return len >= 2 ? buf[len - 2] : 0;
	return len >= 3 ? (uint16_t)(buf[len - 3] << 8 | buf[len - 2]) : 0;
}

int goodix_cfg_check(const struct goodix_chip_data *chip, const char *id, const uint8_t *buf,
		     size_t len, const char *name, struct goodix_cfg_info *info,
		     struct tf_err *err)
{
	struct goodix_cfg_info tmp;
	uint16_t want, got;
	size_t at;
	bool c16 = chip->checksum == GOODIX_CHECKSUM_16;

	char pfx[160] = "";

	if (name)
		snprintf(pfx, sizeof(pfx), "%s: ", name);
	memset(&tmp, 0, sizeof(tmp));
	if (len < GOODIX_CONFIG_MIN_LENGTH)
		return tf_err_set(err, EBADMSG,
				  "%struncated: %zu bytes, a Goodix configuration has at "
				  "least %d and chip %s (%s) reads %u",
				  pfx, len, GOODIX_CONFIG_MIN_LENGTH, id, chip->klass,
				  chip->config_len);
	/* The driver sends any 186..240 bytes; the chip reads config_len. */
	if (len != chip->config_len)
		return tf_err_set(err, EBADMSG,
				  "%s%zu bytes, but chip %s (%s) reads a %u-byte "
				  "configuration at 0x%04x: a blob for another chip",
				  pfx, len, id, chip->klass, chip->config_len,
				  chip->config_reg);
	want = goodix_cfg_checksum(chip->checksum, buf, len);
	got = goodix_cfg_stored_checksum(chip->checksum, buf, len);
	at = c16 ? len - 3 : len - 2;
	if (want != got)
		return tf_err_set(err, EBADMSG,
				  "%schecksum %s at byte %zu is 0x%0*X, the contents give "
				  "0x%0*X (%s, as goodix_check_cfg_%s); touchfw never "
				  "repairs a checksum: fix the file where it was made",
				  pfx, c16 ? "word" : "byte", at, c16 ? 4 : 2, got, c16 ? 4 : 2,
				  want,
				  c16 ? "two's complement of the big-endian word sum"
				      : "two's complement of the byte sum",
				  c16 ? "16" : "8");
	if (buf[len - 1] != 1)
		return tf_err_set(err, EBADMSG,
				  "%sconfig-fresh byte %zu is 0x%02X, must be 0x01 (the "
				  "driver refuses it)",
				  pfx, len - 1, buf[len - 1]);
	tmp.len = len;
	tmp.version = buf[GOODIX_CFG_VERSION_LOC];
	tmp.x_res = (uint16_t)(buf[GOODIX_CFG_RESOLUTION_LOC] |
			       buf[GOODIX_CFG_RESOLUTION_LOC + 1] << 8);
	tmp.y_res = (uint16_t)(buf[GOODIX_CFG_RESOLUTION_LOC + 2] |
			       buf[GOODIX_CFG_RESOLUTION_LOC + 3] << 8);
	tmp.max_touch = buf[GOODIX_CFG_MAX_CONTACTS_LOC] & 0x0f;
	tmp.checksum_kind = chip->checksum;
	tmp.checksum = got;
	/* Stricter than the driver, which falls back to 4096x4096 and 10
	 * contacts: a blob the driver would not use as written is a mistake. */
	if (!tmp.x_res || !tmp.y_res)
		return tf_err_set(err, EBADMSG,
				  "%sresolution %ux%u (bytes 1-4) has a zero axis; the "
				  "driver would ignore it",
				  pfx, tmp.x_res, tmp.y_res);
	if (!tmp.max_touch)
		return tf_err_set(err, EBADMSG,
				  "%scontact count (byte 5, low nibble) is 0; the driver "
				  "would ignore the configuration",
				  pfx);
	if (info)
		*info = tmp;
	return 0;
}

uint32_t goodix_cfg_digest(const uint8_t *buf, size_t len)
{
	uint32_t crc = 0xffffffffu;
	size_t i;
	int b;

	for (i = 0; i + 1 < len; i++) {
		crc ^= buf[i];
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return ~crc;
}

void goodix_cfg_axis_max(const struct goodix_cfg_info *info, bool swapped_x_y, int32_t *x_max,
			 int32_t *y_max)
{
	int32_t x = (int32_t)info->x_res - 1, y = (int32_t)info->y_res - 1;

	*x_max = swapped_x_y ? y : x;
	*y_max = swapped_x_y ? x : y;
}

bool goodix_config_name_valid(const char *name)
{
	size_t n;

	if (!name || !name[0] || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (n = 0; name[n]; n++)
		if (n >= 64 ||
		    !(is_alnum(name[n]) || name[n] == '.' || name[n] == '_' || name[n] == '-'))
			return false;
	return true;
}

int goodix_cfg_file_name(const char *id, const char *config_name, char *buf, size_t size)
{
	if (config_name && config_name[0]) {
		if (!goodix_config_name_valid(config_name))
			return -EINVAL;
		return tf_snprintf(buf, size, "goodix/%s", config_name);
	}
	if (!goodix_id_valid(id))
		return -EINVAL;
	return tf_snprintf(buf, size, "goodix_%s_cfg.bin", id);
}

int goodix_blob_check(const char *const *hardware, size_t n_hardware, const char *version,
		      const uint8_t *buf, size_t len, const char *name,
		      struct goodix_cfg_info *info, struct tf_err *err)
{
	struct goodix_cfg_info got = { 0 };
	char pfx[160] = "";
	uint8_t v;
	size_t i;
	int r;

	if (name)
		snprintf(pfx, sizeof(pfx), "%s: ", name);
	if (!n_hardware)
		return tf_err_set(err, EBADMSG, "%sno chip id to check it against", pfx);
	for (i = 0; i < n_hardware; i++) {
		if (!goodix_id_valid(hardware[i]))
			return tf_err_set(err, EBADMSG,
					  "%shardware '%s' is not a Goodix chip id (1 to "
					  "4 letters or digits, as read at 0x%04x)",
					  pfx, hardware[i], GOODIX_REG_ID);
		r = goodix_cfg_check(goodix_chip_data_for(hardware[i]), hardware[i], buf, len,
				     name, &got, err);
		if (r < 0)
			return r;
	}
	/* gt9xx.c (gtp_init_panel) sends version 0 to make the chip take a
	 * configuration whatever version it holds; the chip then numbers it
	 * itself, so what it reads back is not the blob. */
	if (got.version == 0)
		return tf_err_set(err, EBADMSG,
				  "%sconfiguration version 0 (byte 0) is the vendor "
				  "driver's forced update: the chip renumbers it, so it can "
				  "not be verified; give the blob its real version",
				  pfx);
	if (version) {
		char s[8];

		if (goodix_cfg_version_parse(version, &v) < 0)
			return tf_err_set(err, EBADMSG,
					  "%sversion '%s' is not a Goodix configuration "
					  "version (decimal 0-255)",
					  pfx, version);
		if (v != got.version) {
			goodix_cfg_version_format(got.version, s, sizeof(s));
			return tf_err_set(err, EBADMSG,
					  "%sthe manifest says version %u, the blob's byte 0 "
					  "says %s",
					  pfx, v, s);
		}
	}
	if (info)
		*info = got;
	return 0;
}

/* ------------------------------------------------------------ versions */

int goodix_cfg_version_parse(const char *s, uint8_t *v)
{
	unsigned n = 0;
	size_t i;

	if (!s || !s[0] || (s[0] == '0' && s[1]))
		return -EINVAL;
	for (i = 0; s[i]; i++) {
		if (s[i] < '0' || s[i] > '9' || i >= 3)
			return -EINVAL;
		n = n * 10 + (unsigned)(s[i] - '0');
	}
	if (n > 255)
		return -EINVAL;
	*v = (uint8_t)n;
	return 0;
}

int goodix_fw_version_parse(const char *s, uint16_t *v)
{
	unsigned n = 0;
	int i;

	if (!s || s[0] != '0' || s[1] != 'x')
		return -EINVAL;
	for (i = 2; i < 6; i++) {
		int d = tf_hexval(s[i]);

		/* Lowercase only: the kernel prints %04x. */
		if (d < 0 || (s[i] >= 'A' && s[i] <= 'F'))
			return -EINVAL;
		n = n << 4 | (unsigned)d;
	}
	if (s[6])
		return -EINVAL;
	*v = (uint16_t)n;
	return 0;
}

void goodix_cfg_version_format(uint8_t v, char *buf, size_t size)
{
	snprintf(buf, size, "%u", v);
}

void goodix_fw_version_format(uint16_t v, char *buf, size_t size)
{
	snprintf(buf, size, "0x%04x", v);
}
