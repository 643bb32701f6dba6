/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the parts of `touchfw chip` share: cmd-chip.c (options, the
 * device opened and identified, reset, save-config), cmd-chip-info.c
 * (info), cmd-chip-object.c (object), cmd-chip-spi.c (spidev).
 */
#ifndef TF_CMD_CHIP_PRIV_H
#define TF_CMD_CHIP_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "board.h"
#include "cmd-chip-spi.h"
#include "family/family.h"
#include "settings.h"

struct chip {
	struct tf_settings s;
	struct tf_ctx c;
	const struct tf_family *fam;
	struct tf_board_identity id;
	struct tf_board_set *boards;
	const struct tf_board_profile *profile;
	struct tf_controller synth;
	struct tf_chip_state st;
	bool have_id, inited;
	/* reset, save-config: where progress goes (stderr with --json,
	 * whose document alone is on standard output) and what the
	 * document says */
	bool via_driver;  /* spi: read through the bound driver's attributes */
	bool over_spidev; /* spi: the device taken for spidev (cmd-chip-spi.c) */
	struct tf_chip_spi spi;
	FILE *say;
	char how[16];	 /* reset: "command" or "line" */
	char input[32];	 /* reset: the input device back after it */
	char after[300]; /* reset: what detection saw after it */
};

/* The device's driver: over spidev the one that let go for it. */
static inline const char *tf_chip_driver_of(const struct chip *k)
{
	return k->over_spidev && k->spi.prev_driver[0] ? k->spi.prev_driver : k->c.dev.driver;
}

/* `chip DEV info [--json]`. */
int tf_chip_do_info(struct chip *k, bool json);

/* At most this many --write OFF=VAL a command. */
#define MAX_WRITES 64
/* "OFF=VAL": byte offset and value (decimal or 0x hex, 0-255). */
bool tf_chip_parse_write(const char *s, unsigned *off, uint8_t *val);
/* `chip DEV object NAME [--instance N] [--write OFF=VAL...] [--json]`. */
int tf_chip_do_object(struct chip *k, const char *name, unsigned inst, const unsigned *off,
		      const uint8_t *val, size_t n_writes, bool json);

#endif
