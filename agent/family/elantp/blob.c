// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Names and blob rules for Elan touchpads: firmware only, for a product id
 * (decimal, as product_id prints it without its ".0"), with the signature
 * where elan_sysfs_update_fw looks for it.
 */
#include "elantp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwdb.h"

/* elan_get_fwinfo: the valid page counts of the ic types it knows. */
static const unsigned validpage_counts[] = { 512, 640, 768, 896, 1024, 1280, 2048 };
static const uint8_t signature[ELANTP_SIG_LEN] = { 0xaa, 0x55, 0xcc, 0x33, 0xff, 0xff };

int elantp_fw_name(uint16_t product_id, char *buf, size_t size)
{
	return tf_snprintf(buf, size, "elan_i2c_%u.0.bin", (unsigned)product_id);
}

int elantp_attr_number(const char *s, unsigned max, unsigned *v)
{
	unsigned long n;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	n = strtoul(s, &end, 10);
	if (n > max || (strcmp(end, ".0") && *end) ||
	    (s[0] == '0' && s[1] >= '0' && s[1] <= '9'))
		return -EINVAL;
	*v = (unsigned)n;
	return 0;
}

int elantp_check_image(const uint8_t *data, size_t len, char *msg, size_t size)
{
	size_t i, start;

	if (len < ELANTP_IAP_START_OFF + 2 || len > ELANTP_FW_MAX)
		return snprintf(msg, size, "%zu bytes is not an Elan touchpad image", len),
		       -EBADMSG;
	start = (size_t)(data[ELANTP_IAP_START_OFF] | data[ELANTP_IAP_START_OFF + 1] << 8) * 2;
	if (start >= len)
		return snprintf(msg, size, "its IAP start 0x%zx (at 0x%x) is past its end",
				start / 2, ELANTP_IAP_START_OFF),
		       -EBADMSG;
	for (i = 0; i < sizeof(validpage_counts) / sizeof(validpage_counts[0]); i++) {
		size_t at = (size_t)validpage_counts[i] * ELANTP_PAGE - ELANTP_SIG_LEN;

		if (at + ELANTP_SIG_LEN <= len && !memcmp(data + at, signature, ELANTP_SIG_LEN))
			return 0;
	}
	return snprintf(msg, size,
			"no AA 55 CC 33 FF FF signature where elan_i2c looks "
			"for it (elan_i2c refuses it)"),
	       -EBADMSG;
}

int elantp_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size)
{
	unsigned v;
	size_t i;

	if (b->type != TF_BLOB_FIRMWARE) {
		*key = "type";
		snprintf(msg, size, "elan_i2c loads no configuration file: firmware only");
		return -EINVAL;
	}
	for (i = 0; i < b->n_hardware; i++)
		if (elantp_attr_number(b->hardware[i], 0xffff, &v) < 0 ||
		    strchr(b->hardware[i], '.')) {
			*key = "hardware";
			snprintf(msg, size,
				 "\"%s\" is not a product id in decimal (as product_id "
				 "prints it, without its \".0\")",
				 b->hardware[i]);
			return -EINVAL;
		}
	return 0;
}

int elantp_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			   size_t size)
{
	(void)b;
	return elantp_check_image(data, len, msg, size);
}
