// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the Silead parsers: the first byte picks what to
 * run; the rest is a firmware file or a modalias / firmware-name string.
 * Invariants: a file that passes is whole pairs, starts with a page
 * select, and its counts add up; a computed name starts with "silead/"
 * with one more component that is not "." or "..".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "family/silead/silead.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct silead_fw_info info;
	struct tf_err err;
	char s[128], name[128];
	size_t n;

	if (size < 1)
		return 0;
	if (data[0] & 1) {
		if (silead_fw_check(data + 1, size - 1, "fuzz", &info, &err) == 0 &&
		    ((size - 1) % 8 || info.pairs * 8 != size - 1 ||
		     info.pages + info.words != info.pairs || !info.pages || !info.words ||
		     data[1] != 0xf0 || data[2] || data[3] || data[4]))
			abort();
		return 0;
	}
	n = size - 1 < sizeof(s) - 1 ? size - 1 : sizeof(s) - 1;
	memcpy(s, data + 1, n);
	s[n] = '\0';
	if (silead_fw_file_name(data[0] & 2 ? s : NULL, data[0] & 2 ? "acpi:MSSL1680:" : s,
				data[0] & 4 ? s : NULL, name, sizeof(name)) == 0 &&
	    (strncmp(name, "silead/", 7) || !name[7] || !strcmp(name + 7, ".") ||
	     !strcmp(name + 7, "..") || strchr(name + 7, '/')))
		abort();
	return 0;
}
