// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Silead firmware files and the names silead_ts requests (silead.h).
 * Pure: no I/O.
 */
#include "silead.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int silead_fw_check(const uint8_t *data, size_t len, const char *name,
		    struct silead_fw_info *info, struct tf_err *err)
{
	struct silead_fw_info in = { 0 };
	size_t i;

	if (!name)
		name = "firmware";
	if (len == 0)
		return tf_err_set(err, EBADMSG, "%s: empty", name);
	if (len > SILEAD_FW_MAX)
		return tf_err_set(err, EBADMSG,
				  "%s: %zu bytes, more than a Silead chip's "
				  "RAM could take (%u at most)",
				  name, len, SILEAD_FW_MAX);
	if (len % SILEAD_PAIR_LEN)
		return tf_err_set(err, EBADMSG,
				  "%s: %zu bytes is not a whole number of 8-byte (register, "
				  "value) pairs (%zu bytes left over; silead_ts would drop "
				  "them)",
				  name, len, len % SILEAD_PAIR_LEN);
	for (i = 0; i < len / SILEAD_PAIR_LEN; i++) {
		uint32_t reg = le32(data + i * SILEAD_PAIR_LEN);
		uint32_t val = le32(data + i * SILEAD_PAIR_LEN + 4);

		if (reg == SILEAD_REG_PAGE) {
			if (val > 0xff)
				return tf_err_set(
					err, EBADMSG,
					"%s: pair %zu (byte %zu): page 0x%08X is not a "
					"RAM page (0x00-0xFF)",
					name, i, i * SILEAD_PAIR_LEN, val);
			in.pages++;
			if (val > in.max_page)
				in.max_page = val;
		} else if (reg < SILEAD_PAGE_WORDS_END && !(reg & 3)) {
			if (!in.pages)
				return tf_err_set(
					err, EBADMSG,
					"%s: pair %zu (byte %zu) writes word 0x%02X "
					"before any page select (0xF0): it would land in "
					"whatever page the chip last had",
					name, i, i * SILEAD_PAIR_LEN, reg);
			in.words++;
		} else {
			return tf_err_set(err, EBADMSG,
					  "%s: pair %zu (byte %zu): register 0x%08X is neither "
					  "the page register 0xF0 nor a word 0x00-0x7C (4-byte "
					  "aligned)",
					  name, i, i * SILEAD_PAIR_LEN, reg);
		}
	}
	if (!in.words)
		return tf_err_set(err, EBADMSG, "%s: selects pages but writes no word", name);
	in.pairs = len / SILEAD_PAIR_LEN;
	if (info)
		*info = in;
	return 0;
}

static const char *const hw_ids[] = { "gsl1680", "gsl1688", "gsl3670", "gsl3675", "gsl3692" };
/* silead_ts_acpi_match and silead_ts_id */
static const char *const acpi_ids[] = { "GSL1680",  "GSL1688",	"GSL3670",
					"GSL3675",  "GSL3692",	"MSSL1680",
					"MSSL0001", "MSSL0002", "MSSL0017" };
static const char *const i2c_ids[] = { "gsl1680", "gsl1688", "gsl3670",
				       "gsl3675", "gsl3692", "mssl1680" };

bool silead_hw_valid(const char *id)
{
	for (size_t i = 0; i < TF_ARRAY_SIZE(hw_ids); i++)
		if (!strcmp(id, hw_ids[i]))
			return true;
	return false;
}

static bool plain_name(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return false;
	return true;
}

int silead_fw_file_name(const char *fw_name, const char *modalias, const char *compatible,
			char *buf, size_t size)
{
	char id[32];
	size_t i, n;

	if (fw_name && fw_name[0])
		return plain_name(fw_name) ? tf_snprintf(buf, size, "silead/%s", fw_name)
					   : -EINVAL;
	if (modalias && !strncmp(modalias, "acpi:", 5)) {
		/* "acpi:MSSL1680:" or "acpi:MSSL1680:PNP0C50:" -- the HID first */
		n = strcspn(modalias + 5, ":");
		if (n == 0 || n >= sizeof(id))
			return -EINVAL;
		memcpy(id, modalias + 5, n);
		id[n] = '\0';
		for (i = 0; i < TF_ARRAY_SIZE(acpi_ids); i++)
			if (!strcmp(id, acpi_ids[i]))
				break;
		if (i == TF_ARRAY_SIZE(acpi_ids))
			return -EINVAL;
		for (i = 0; id[i]; i++)
			id[i] = (char)tolower((unsigned char)id[i]);
		return tf_snprintf(buf, size, "silead/%s.fw", id);
	}
	/* i2c_match_id() on the client's name: the compatible without its
	 * vendor prefix, or the i2c modalias */
	if (compatible && compatible[0]) {
		const char *comma = strchr(compatible, ',');

		tf_snprintf(id, sizeof(id), "%s", comma ? comma + 1 : compatible);
	} else if (modalias && !strncmp(modalias, "i2c:", 4)) {
		tf_snprintf(id, sizeof(id), "%s", modalias + 4);
	} else {
		return -EINVAL;
	}
	for (i = 0; i < TF_ARRAY_SIZE(i2c_ids); i++)
		if (!strcmp(id, i2c_ids[i]))
			return tf_snprintf(buf, size, "silead/%s.fw", id);
	return -EINVAL;
}
