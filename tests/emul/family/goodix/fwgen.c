// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fwgen's Goodix command: configurations from the Goodix chip model
 * (goodix_model_make_config): the length and checksum its product id
 * calls for, fresh byte set, as the emulated chip and driver judge them.
 *
 *   fwgen goodix-config --id ID --version N --resolution WxH [--touches N] -o FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwgen.h"
#include "goodix_model.h"

/* A Goodix configuration made by the chip model for product id @id. */
static int make_goodix_config(const char *id, const char *ver, const char *res,
			      unsigned long touches, const char *out)
{
	struct goodix_model_cfg cfg;
	unsigned long v;
	unsigned x, y;
	char *end, tail;

	if (!id || !ver || !res || !out || strlen(id) < 1 || strlen(id) > 4) {
		fprintf(stderr,
			"fwgen: goodix-config needs --id, --version, --resolution, -o\n");
		return -1;
	}
	v = strtoul(ver, &end, 0);
	if (*end || v > 255 || sscanf(res, "%ux%u%c", &x, &y, &tail) != 2 || !x || !y ||
	    x > 65535 || y > 65535 || touches < 1 || touches > 10) {
		fprintf(stderr, "fwgen: bad --version (0-255), --resolution (WxH) or "
				"--touches (1-10)\n");
		return -1;
	}
	memset(&cfg, 0, sizeof(cfg));
	memcpy(cfg.id, id, strlen(id));
	goodix_model_make_config(&cfg, (em_u8)v, (em_u16)x, (em_u16)y, (em_u8)touches, 1);
	return fwgen_write_file(out, cfg.stored, cfg.stored_len);
}

static int run(const struct fwgen_args *a)
{
	return make_goodix_config(a->id, a->version, a->resolution, a->touches, a->out) ? 1 : 0;
}

static const struct fwgen_cmd goodix_config = {
	.name = "goodix-config",
	.usage = "fwgen goodix-config --id ID --version N --resolution WxH\n"
		 "                    [--touches N] -o FILE\n",
	.run = run,
};

const struct fwgen_family fwgen_family_goodix = {
	.cmds = (const struct fwgen_cmd *const[]){ &goodix_config, NULL },
};
