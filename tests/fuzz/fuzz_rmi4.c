// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the RMI4 family's image parser: any bytes.
 * Invariants: an accepted image has a flash config, core code and
 * configuration and a bootloader configuration, is for bootloader 5..8,
 * and says a product id that is one by rmi4_product_ok, or none.
 */
#include <stdint.h>
#include <stdlib.h>

#include "family/rmi4/rmi4.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rmi4_image im;
	char msg[200];

	if (rmi4_image_parse(data, size, &im, msg, sizeof(msg)) != 0)
		return 0;
	if (im.bl_version < 5 || im.bl_version > 8 || !im.core_config)
		abort();
	if (im.header == RMI4_IMAGE_V10 && (!im.flash_config || !im.core_code || !im.bl_config))
		abort();
	if (im.product_id[0] && !rmi4_product_ok(im.product_id))
		abort();
	return 0;
}
