// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the maXTouch parsers: the first byte picks the
 * parser (OBP_RAW config, firmware image as .fw/.enc/auto, info block), the
 * rest is its input.  A config that parses is also laid out against an info
 * block parsed from the same bytes when one parses.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "family/mxt/mxt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mxt_info info;
	struct mxt_cfg cfg;
	struct mxt_fw fw;
	struct tf_err err;
	uint8_t *mem;
	uint16_t start, len;
	uint32_t crc;

	if (size < 1)
		return 0;
	switch (data[0] % 4) {
	case 0:
		if (mxt_cfg_parse((const char *)data + 1, size - 1, &cfg, &err) == 0) {
			if (mxt_info_parse(data + 1, size - 1, &info, &err) == 0 &&
			    mxt_cfg_image(&cfg, &info, data[0] & 4, &mem, &start, &len, &crc,
					  &err) == 0)
				free(mem);
			mxt_cfg_free(&cfg);
		}
		break;
	case 1:
	case 2:
		if (mxt_fw_parse(data + 1, size - 1,
				 data[0] % 4 == 1 ? MXT_FW_AUTO : MXT_FW_ENC, &fw, &err) == 0) {
			size_t off = 0;

			/* The frame chain must cover the image exactly. */
			while (off < fw.len)
				off += mxt_fw_frame_len(&fw, off);
			if (off != fw.len)
				abort();
			mxt_fw_free(&fw);
		}
		break;
	default:
		if (mxt_info_parse(data + 1, size - 1, &info, &err) == 0 &&
		    (info.crc_start > info.mem_size || !mxt_info_object(&info, MXT_T5)))
			abort();
		break;
	}
	return 0;
}
