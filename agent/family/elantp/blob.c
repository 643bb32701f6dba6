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

int elantp_image_product(const uint8_t *data, size_t len, unsigned *product)
{
	size_t start, at;

	if (len < ELANTP_IAP_START_OFF + 2)
		return -EBADMSG;
	start = (size_t)(data[ELANTP_IAP_START_OFF] | data[ELANTP_IAP_START_OFF + 1] << 8);
	/* fwupd: the IAP start at least 0x83 words, at most 0x7FFF */
	if (start < ELANTP_IAP_START_OFF / 2 || start > 0x7fff || start * 2 + 2 > len)
		return -EBADMSG;
	at = (size_t)(data[start * 2] | data[start * 2 + 1] << 8);
	if (at > 0x7fff || at * 2 + 2 > len)
		return -EBADMSG;
	*product = (unsigned)(data[at * 2] | data[at * 2 + 1] << 8);
	return 0;
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

/*
 * `db add`: the image's checks as elan_i2c makes them; its version is not
 * in a place a host can read, and its name may be the one elan_i2c
 * requests (elan_i2c_<product id>.0.bin), which gives the product id.
 */
int elantp_blob_facts(const uint8_t *data, size_t len, const char *name,
		      struct tf_blob_facts *f, struct tf_err *err)
{
	const char *base = strrchr(name, '/');
	char msg[200], id[8];
	unsigned v;
	size_t n;

	memset(f, 0, sizeof(*f));
	if (elantp_check_image(data, len, msg, sizeof(msg)) < 0)
		return tf_err_set(err, EBADMSG, "%s: %s", name, msg);
	f->is_config = false;
	tf_snprintf(f->ext, sizeof(f->ext), "bin");
	tf_snprintf(f->what, sizeof(f->what),
		    "Elan touchpad firmware image, %zu bytes; it does not say its version",
		    len);
	base = base ? base + 1 : name;
	n = strlen(base);
	if (n > 15 && n < 15 + sizeof(id) && !strncmp(base, "elan_i2c_", 9) &&
	    !strcmp(base + n - 6, ".0.bin")) {
		memcpy(id, base + 9, n - 15);
		id[n - 15] = '\0';
		if (elantp_attr_number(id, 0xffff, &v) == 0 && !strchr(id, '.')) {
			f->n_hardware = 1;
			tf_snprintf(f->hardware[0], sizeof(f->hardware[0]), "%s", id);
			f->hardware_guessed = true;
			tf_blob_facts_note(
				f,
				"hardware (product id) %s: from its file name, the one "
				"elan_i2c requests for that product",
				id);
		}
	}
	return 0;
}
