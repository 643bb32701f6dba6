// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the Elan touchpad family's parsers: the first byte
 * picks what to run; the rest is an image (the signature and IAP-start
 * rule) or an attribute string ("%d.0").  Invariants: an accepted image
 * carries the signature at an address elan_get_fwinfo can give and an IAP
 * start inside it; an accepted attribute names a file without a slash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "family/elantp/elantp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned counts[] = { 512, 640, 768, 896, 1024, 1280, 2048 };
	char s[16], name[64], msg[200];
	unsigned v, i;
	bool found = false;

	if (size < 1)
		return 0;
	if (data[0] & 1) {
		const uint8_t *img = data + 1;
		size_t len = size - 1;

		if (elantp_check_image(img, len, msg, sizeof(msg)) != 0)
			return 0;
		if (len < 0x108 || (size_t)(img[0x106] | img[0x107] << 8) * 2 >= len)
			abort();
		for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
			size_t at = (size_t)counts[i] * 64 - 6;

			if (at + 6 <= len && !memcmp(img + at, "\xaa\x55\xcc\x33\xff\xff", 6))
				found = true;
		}
		if (!found)
			abort();
		return 0;
	}
	if (size - 1 >= sizeof(s))
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	if (elantp_attr_number(s, 0xffff, &v) == 0) {
		if (v > 0xffff || elantp_fw_name((uint16_t)v, name, sizeof(name)) != 0 ||
		    strchr(name, '/') || strncmp(name, "elan_i2c_", 9))
			abort();
	}
	return 0;
}
