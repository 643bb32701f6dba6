// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for what the cyapa family reads from outside: an image
 * file (any bytes), the driver's `mode` text, the Gen3 state and query
 * registers, and a ChromeOS-style file name.
 * Invariants: an accepted image is the 30848 bytes cyapa_gen3_check_fw
 * takes; a query or name accepted gives a product id cyapa_product_id_ok
 * takes; a mode accepted starts "gen".
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "family/cyapa/cyapa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char msg[200], id[CYAPA_PRODUCT_ID_LEN + 1], *text;
	unsigned gen, major, minor;
	bool operational, busy;

	if (cyapa_gen3_check_image(data, size, msg, sizeof(msg)) == 0 && size != 30848)
		abort();
	if (size >= 3)
		(void)cyapa_gen3_state(data, &busy);
	if (size >= 27 && cyapa_gen3_query(data, id, &major, &minor) == 0 &&
	    !cyapa_product_id_ok(id))
		abort();

	/* the same bytes as text: a mode attribute and a file name */
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (cyapa_parse_mode(text, &gen, &operational) == 0 && strncmp(text, "gen", 3))
		abort();
	if (cyapa_name_product(text, id, &major, &minor) == 0 &&
	    (!cyapa_product_id_ok(id) || major > 255 || minor > 255))
		abort();
	free(text);
	return 0;
}
