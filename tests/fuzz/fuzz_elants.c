// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the Elan touchscreen family's parsers: the first
 * byte picks what to run; the rest is an image (its length judged as
 * elants_i2c judges it) or a version / hardware-id string.  Invariants:
 * an accepted image is whole 132-byte pages; a string that parses prints
 * back to itself and names a file without a slash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "family/elants/elants.h"
#include "version.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char s[16], back[32], msg[160];
	struct tf_version v;
	uint16_t x;

	if (size < 1)
		return 0;
	if (data[0] & 1) {
		/* Lengths the fuzzer can reach, scaled by the second byte. */
		size_t len = (size - 1) * (size > 1 ? (size_t)data[1] + 1 : 1);

		if (elants_check_image(len, msg, sizeof(msg)) == 0 &&
		    (len == 0 || len % ELANTS_PAGE || len > ELANTS_FW_MAX))
			abort();
		return 0;
	}
	if (size - 1 >= sizeof(s))
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	if (elants_hex16_parse(s, &x) == 0) {
		elants_version_fw(x, &v);
		if (elants_version_scheme.format(&v, back, sizeof(back)) != 0 ||
		    strcmp(back, s))
			abort();
		if (elants_fw_name(x, back, sizeof(back)) == 0 &&
		    (strchr(back, '/') || strncmp(back, "elants_i2c_", 11)))
			abort();
	}
	return 0;
}
