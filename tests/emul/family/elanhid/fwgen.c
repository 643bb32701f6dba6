// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fwgen's Elan HID touchpad command: an image in the chip model's layout.
 *
 *   fwgen elanhid-fw --id MODULE --version N [--iap-start PAGE] -o FILE
 */
#include <stdio.h>
#include <stdlib.h>

#include "elanhid_model.h"
#include "fwgen.h"

static int run(const struct fwgen_args *a)
{
	unsigned long id, fw, start = a->iap_start_set ? a->iap_start : 0;
	char *e1 = NULL, *e2 = NULL;
	em_u8 *img;
	int r;

	if (!a->id || !a->version || !a->out) {
		fprintf(stderr, "fwgen: elanhid-fw needs --id, --version and -o\n");
		return 2;
	}
	id = strtoul(a->id, &e1, 0);
	fw = strtoul(a->version, &e2, 10);
	if (*e1 || *e2 || !id || id >= 0xffff || !fw || fw > 255 ||
	    (a->iap_start_set && (!start || start >= ELANHID_MODEL_PAGES))) {
		fprintf(stderr, "fwgen: bad --id (module id), --version (1-255) or --iap-start "
				"(page 1-511)\n");
		return 2;
	}
	img = malloc(ELANHID_MODEL_FLASH);
	if (!img)
		return 1;
	elanhid_model_make_image(img, (em_u16)id, (em_u8)fw, (em_u16)start);
	r = fwgen_write_file(a->out, img, ELANHID_MODEL_FLASH);
	free(img);
	return r ? 1 : 0;
}

static const struct fwgen_cmd elanhid_fw = {
	.name = "elanhid-fw",
	.usage = "fwgen elanhid-fw --id MODULE --version N [--iap-start PAGE] -o FILE\n",
	.run = run,
};

const struct fwgen_family fwgen_family_elanhid = {
	.cmds = (const struct fwgen_cmd *const[]){ &elanhid_fw, NULL },
};
