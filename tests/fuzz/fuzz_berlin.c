// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the Goodix Berlin parsers: the first byte picks
 * what to run on the rest -- the firmware file header (even), the version
 * block (odd, first 28 bytes) or the version scheme (bit 1 also set).
 * Invariants: a file that passes has the length its size field says, a
 * checksum that sums, 2 to 47 subsystems that lie in the file back to
 * back from the header to its end, and flash ranges below the flash's end
 * that do not overlap; a version that parses formats back to the same
 * text, uppercased.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "family/berlin/berlin.h"
#include "version.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_file(const uint8_t *d, size_t n)
{
	struct berlin_fw fw;
	char msg[256];
	size_t off = BERLIN_FW_HEADER;

	if (berlin_fw_parse(d, n, &fw, msg, sizeof(msg)) < 0) {
		if (!msg[0])
			abort();
		return;
	}
	if ((uint64_t)fw.size + 8 != n || berlin_sum16(d + 8, n - 8) != fw.checksum ||
	    fw.n_subsys < 2 || fw.n_subsys > BERLIN_FW_SUBSYS_MAX)
		abort();
	for (unsigned i = 0; i < fw.n_subsys; i++) {
		const struct berlin_subsys *s = &fw.subsys[i];

		if (s->offset != off || !s->size || s->size > n - off)
			abort();
		off += s->size;
		if (i && (uint64_t)s->flash_addr + s->size > BERLIN_FLASH_END)
			abort();
		for (unsigned j = 1; i && j < i; j++)
			if (s->flash_addr < fw.subsys[j].flash_addr + fw.subsys[j].size &&
			    fw.subsys[j].flash_addr < s->flash_addr + s->size)
				abort();
	}
	if (off != n)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct berlin_version v;
	struct tf_version tv;
	char msg[128], s[16], out[TF_VERSION_STR_MAX];
	size_t n;

	if (size < 1)
		return 0;
	if (!(data[0] & 1)) {
		check_file(data + 1, size - 1);
		return 0;
	}
	if (!(data[0] & 2)) {
		if (size - 1 >= BERLIN_VERSION_LEN &&
		    berlin_version_parse(data + 1, &v, msg, sizeof(msg)) == 0 &&
		    berlin_sum8(data + 1, 26) != (uint16_t)(data[27] | data[28] << 8))
			abort();
		return 0;
	}
	n = size - 1 < sizeof(s) - 1 ? size - 1 : sizeof(s) - 1;
	memcpy(s, data + 1, n);
	s[n] = '\0';
	if (tf_version_parse("berlin", s, &tv) == 0) {
		if (tf_version_format(&tv, out, sizeof(out)) < 0 || strlen(out) != strlen(s))
			abort();
		for (size_t i = 0; s[i]; i++)
			if (toupper((unsigned char)s[i]) != out[i])
				abort();
	}
	return 0;
}
