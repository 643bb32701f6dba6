// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the Goodix parsers: the first byte picks a chip id
 * (every length class and checksum kind, and an unknown id) and what to
 * run; the rest is a configuration blob, a product-id read or a version
 * string.  Invariants: a blob that passes has the chip's length, the
 * checksum the kernel's rule gives and the fresh byte set; versions print
 * back to the text they were parsed from.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "family/goodix/goodix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const ids[] = {
	"911", "967", "9157", "1151", "917S", "928", "9147", "5688"
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct goodix_chip_data *chip;
	struct goodix_cfg_info info;
	struct goodix_product prod;
	struct tf_err err;
	const char *id;
	char s[64], back[16];
	uint8_t cv;
	uint16_t fv;

	if (size < 1)
		return 0;
	id = ids[(data[0] >> 2) % (sizeof(ids) / sizeof(ids[0]))];
	chip = goodix_chip_data_for(id);
	switch (data[0] % 4) {
	case 0:
	case 1:
		if (goodix_cfg_check(chip, id, data + 1, size - 1, "fuzz", &info, &err) == 0) {
			if (size - 1 != chip->config_len || data[size - 1] != 1 ||
			    goodix_cfg_checksum(chip->checksum, data + 1, size - 1) !=
				    info.checksum ||
			    !info.x_res || !info.y_res || !info.max_touch)
				abort();
		}
		if (goodix_blob_check(&id, 1, data[0] & 2 ? "72" : NULL, data + 1, size - 1,
				      "fuzz", NULL, &err) == 0 &&
		    goodix_cfg_check(chip, id, data + 1, size - 1, "fuzz", NULL, &err) != 0)
			abort();
		break;
	case 2:
		if (goodix_product_parse(data + 1, size - 1, &prod, &err) == 0) {
			if (!goodix_id_valid(prod.id) ||
			    goodix_cfg_file_name(prod.id, NULL, s, sizeof(s)) != 0 ||
			    strchr(s, '/'))
				abort();
		}
		break;
	default:
		if (size - 1 >= sizeof(s))
			return 0;
		memcpy(s, data + 1, size - 1);
		s[size - 1] = '\0';
		if (goodix_cfg_version_parse(s, &cv) == 0) {
			goodix_cfg_version_format(cv, back, sizeof(back));
			if (strcmp(back, s))
				abort();
		}
		if (goodix_fw_version_parse(s, &fv) == 0) {
			goodix_fw_version_format(fv, back, sizeof(back));
			if (strcmp(back, s))
				abort();
		}
		if (goodix_config_name_valid(s) &&
		    (goodix_cfg_file_name("911", s, back, sizeof(back)) == 0) &&
		    strstr(back + 7, "/"))
			abort();
		break;
	}
	return 0;
}
