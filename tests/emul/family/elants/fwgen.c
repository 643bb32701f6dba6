// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fwgen's Elan touchscreen command: an image in the chip model's layout.
 *
 *   fwgen elants-fw --id HWID --version FWVER [--size PAGES] -o FILE
 */
#include <stdio.h>
#include <stdlib.h>

#include "elants_model.h"
#include "fwgen.h"

/* An Elan touchscreen image in the chip model's layout (elants_model.h). */
static int make_elants_fw(const char *id, const char *ver, unsigned long pages, const char *out)
{
	unsigned long hw, fw;
	char *e1 = NULL, *e2 = NULL;
	em_u8 *img;
	int r;

	if (!id || !ver || !out) {
		fprintf(stderr, "fwgen: elants-fw needs --id, --version and -o\n");
		return -1;
	}
	hw = strtoul(id, &e1, 16);
	fw = strtoul(ver, &e2, 16);
	if (*e1 || *e2 || hw > 0xfffe || !fw || fw > 0xfffe || !pages ||
	    pages * ELANTS_MODEL_PAGE > ELANTS_MODEL_FLASH_MAX) {
		fprintf(stderr, "fwgen: bad --id, --version (hex) or --size (pages)\n");
		return -1;
	}
	img = malloc(pages * ELANTS_MODEL_PAGE);
	if (!img)
		return -1;
	elants_model_make_image(img, (em_u32)pages, (em_u16)fw, (em_u16)hw, 0);
	r = fwgen_write_file(out, img, pages * ELANTS_MODEL_PAGE);
	free(img);
	return r;
}

static int run(const struct fwgen_args *a)
{
	return make_elants_fw(a->id, a->version, a->size ? a->size : 64, a->out) ? 1 : 0;
}

static const struct fwgen_cmd elants_fw = {
	.name = "elants-fw",
	.usage = "fwgen elants-fw --id HWID --version FWVER [--size PAGES] -o FILE\n",
	.run = run,
};

const struct fwgen_family fwgen_family_elants = {
	.cmds = (const struct fwgen_cmd *const[]){ &elants_fw, NULL },
};
