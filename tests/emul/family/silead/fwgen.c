// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fwgen's Silead command: a panel's program as silead_model_make_fw makes
 * it, the (register, value) pairs silead.c writes.
 *
 *   fwgen silead-fw --tag SEED --size PAGES -o FILE
 */
#include <stdio.h>

#include "fwgen.h"
#include "silead_model.h"

static int run(const struct fwgen_args *a)
{
	static em_u8 buf[256 * 33 * 8];
	size_t n;

	if (!a->out || a->size < 1 || a->size > 256) {
		fprintf(stderr, "fwgen: silead-fw needs --size PAGES (1-256) and -o\n");
		return 2;
	}
	n = silead_model_make_fw((em_u32)a->tag, (em_u32)a->size, buf, sizeof(buf));
	return fwgen_write_file(a->out, buf, n) ? 1 : 0;
}

static const struct fwgen_cmd silead_fw = {
	.name = "silead-fw",
	.usage = "fwgen silead-fw --tag SEED --size PAGES -o FILE\n",
	.run = run,
};

const struct fwgen_family fwgen_family_silead = {
	.cmds = (const struct fwgen_cmd *const[]){ &silead_fw, NULL },
};
