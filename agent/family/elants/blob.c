// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Manifest and byte rules for elants blobs: firmware only (the driver
 * loads no configuration), for a hardware id as hw_version prints it, in
 * whole 132-byte pages as elants_i2c_fw_update requires.  Elan's image
 * layout is not public, so nothing else in the bytes is judged; the
 * version is the manifest's, and the chip's fw_version proves it after.
 */
#include "elants.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fwdb.h"

int elants_fw_name(uint16_t hw, char *buf, size_t size)
{
	if (hw == 0xffff)
		return -EINVAL;
	return tf_snprintf(buf, size, "elants_i2c_%04x.bin", hw);
}

int elants_check_image(size_t len, char *msg, size_t size)
{
	if (len < ELANTS_PAGE || len % ELANTS_PAGE)
		return snprintf(msg, size,
				"%zu bytes is not a whole number of %d-byte pages "
				"(elants_i2c refuses it)",
				len, ELANTS_PAGE),
		       -EBADMSG;
	if (len > ELANTS_FW_MAX)
		return snprintf(msg, size, "%zu bytes is more than %d", len, ELANTS_FW_MAX),
		       -EBADMSG;
	return 0;
}

int elants_check_blob(const struct tf_blob *b, const char **key, char *msg, size_t size)
{
	uint16_t hw;
	size_t i;

	if (b->type != TF_BLOB_FIRMWARE) {
		*key = "type";
		snprintf(msg, size, "elants_i2c loads no configuration file: firmware only");
		return -EINVAL;
	}
	for (i = 0; i < b->n_hardware; i++) {
		if (elants_hex16_parse(b->hardware[i], &hw) < 0 || hw == 0xffff) {
			*key = "hardware";
			snprintf(msg, size,
				 "\"%s\" is not a hardware id as hw_version prints "
				 "it (four lowercase hex digits, not ffff)",
				 b->hardware[i]);
			return -EINVAL;
		}
	}
	return 0;
}

int elants_check_blob_data(const struct tf_blob *b, const uint8_t *data, size_t len, char *msg,
			   size_t size)
{
	(void)b;
	(void)data;
	return elants_check_image(len, msg, size);
}

/*
 * `db add`: an image says nothing a host can read about itself, so only
 * its length is judged; its name may be the one elants_i2c requests
 * (elants_i2c_<hw>.bin), which gives the hardware id.
 */
int elants_blob_facts(const uint8_t *data, size_t len, const char *name,
		      struct tf_blob_facts *f, struct tf_err *err)
{
	const char *base = strrchr(name, '/');
	char msg[200], hw[8];
	uint16_t id;

	(void)data;
	memset(f, 0, sizeof(*f));
	if (elants_check_image(len, msg, sizeof(msg)) < 0)
		return tf_err_set(err, EBADMSG, "%s: %s", name, msg);
	f->is_config = false;
	tf_snprintf(f->ext, sizeof(f->ext), "bin");
	tf_snprintf(f->what, sizeof(f->what),
		    "Elan touchscreen firmware image, %zu pages of %d bytes; Elan's layout is "
		    "not public, so it names neither its hardware nor its version",
		    len / ELANTS_PAGE, ELANTS_PAGE);
	base = base ? base + 1 : name;
	if (strlen(base) == 19 && !strncmp(base, "elants_i2c_", 11) &&
	    !strcmp(base + 15, ".bin")) {
		memcpy(hw, base + 11, 4);
		hw[4] = '\0';
		if (elants_hex16_parse(hw, &id) == 0 && id != 0xffff) {
			f->n_hardware = 1;
			tf_snprintf(f->hardware[0], sizeof(f->hardware[0]), "%s", hw);
			f->hardware_guessed = true;
			tf_blob_facts_note(
				f,
				"hardware %s: from its file name, the one elants_i2c "
				"requests for that hardware id",
				hw);
		}
	}
	return 0;
}
