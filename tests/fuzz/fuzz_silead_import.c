// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the Silead imports (silead-import.c): GSLX
 * containers, GSL_TS_CFG.h text, scrambled SileadTouch.fw.  The first
 * byte picks the --part name given (none, or one of a few); the rest is
 * the file.  Whatever converts must be a file silead_ts loads whole
 * (silead_fw_check) whose page and word counts are the import's, and a
 * chip name it reports must map to one of silead_ts's ids.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "family/silead/silead.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const parts[] = { NULL, "GSL_TS_CFG", "a", "GSLX680_FW" };
	struct silead_import im;
	struct silead_fw_info info;
	struct tf_err err;
	char id[16];
	bool exact;

	if (size < 1)
		return 0;
	if (silead_import(data + 1, size - 1, "fuzz", parts[data[0] & 3], &im, &err) < 0) {
		if (im.fw)
			abort();
		return 0;
	}
	if (silead_fw_check(im.fw, im.len, "fuzz", &info, &err) < 0 || info.pages != im.pages ||
	    info.words != im.words ||
	    (im.chip[0] && silead_chip_id(im.chip, id, sizeof(id), &exact) < 0))
		abort();
	silead_import_free(&im);
	return 0;
}
