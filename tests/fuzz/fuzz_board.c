// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the board-profile parser (tf_board_parse): any
 * input must be either a valid profile or rejected with at least one
 * reported mistake, never a crash or an overread.  For inputs that parse,
 * it also checks the invariants the agent relies on: every controller is
 * found again by its own bus, adapter and address (they are unique), and
 * the profile matches a machine that looks like what it describes.
 *
 * Seeds (tests/fuzz/corpus/fuzz_board/) are the compiled example profiles
 * (boards/examples) and golden fixtures (tests/unit/fixtures/board/golden-*),
 * each made with "dtc -q -I dts -O dtb -o NAME.dtb NAME.dts".
 * Build and run: make B=build-san SAN=1 CC=clang build-san/fuzz/fuzz_board
 *   build-san/fuzz/fuzz_board -max_total_time=60 OUT
 * tests/fuzz/corpus/fuzz_board
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_invariants(const struct tf_board_profile *p)
{
	struct tf_board_identity id;
	size_t i;

	if (p->n_ctrl == 0 || p->n_board_ids == 0)
		abort();
	if ((p->n_compatible == 0) == (p->n_dmi == 0))
		abort();
	for (i = 0; i < p->n_ctrl; i++) {
		const struct tf_controller *c = &p->ctrl[i];
		const struct tf_controller *found;

		if (!c->adapter_name[0] == !c->adapter_path[0])
			abort();
		found = tf_board_find_controller(p, c->bus,
						 c->adapter_name[0] ? c->adapter_name : NULL,
						 c->adapter_path[0] ? c->adapter_path : NULL,
						 c->reg);
		if (found != c)
			abort();
		if (c->has_bootloader_reg && c->bootloader_reg == c->reg)
			abort();
	}

	/* A machine shaped like the profile must match it. */
	memset(&id, 0, sizeof(id));
	id.compatible = p->compatible;
	id.n_compatible = p->n_compatible;
	for (i = 0; i < p->n_dmi; i++) {
		enum tf_dmi_key k = p->dmi[i].key;

		snprintf(id.dmi[k], sizeof(id.dmi[k]), "%s", p->dmi[i].patterns[0]);
		id.dmi_present[k] = true;
		id.has_dmi = true;
	}
	if (!tf_board_profile_matches(p, &id, NULL))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tf_board_profile *p = NULL;
	struct tf_board_report rep;
	int r;

	tf_board_report_init(&rep);
	r = tf_board_parse(data, size, "fuzz.dtb", &p, &rep);
	if (r == 0) {
		if (rep.n)
			abort();
		check_invariants(p);
	} else if (r == -EINVAL) {
		if (p || (rep.n == 0 && rep.n_dropped == 0))
			abort();
	} else if (r != -ENOMEM) {
		abort();
	}
	tf_board_free(p);
	tf_board_report_free(&rep);
	return 0;
}
