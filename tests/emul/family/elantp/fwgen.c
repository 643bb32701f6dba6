// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fwgen's Elan touchpad command: an image in the chip model's layout.
 *
 *   fwgen elantp-fw --id PRODUCT --version N [--iap-start PAGE] -o FILE
 */
#include <stdio.h>
#include <stdlib.h>

#include "elantp_model.h"
#include "fwgen.h"

/* An Elan touchpad image in the chip model's layout (elantp_model.h). */
static int make_elantp_fw(const char *id, const char *ver, unsigned long iap_start,
			  const char *out)
{
	unsigned long pid, fw;
	char *e1 = NULL, *e2 = NULL;
	em_u8 *img;
	int r;

	if (!id || !ver || !out) {
		fprintf(stderr, "fwgen: elantp-fw needs --id, --version and -o\n");
		return -1;
	}
	pid = strtoul(id, &e1, 10);
	fw = strtoul(ver, &e2, 10);
	if (*e1 || *e2 || !pid || pid > 0xffff || !fw || fw > 255 || !iap_start ||
	    iap_start >= ELANTP_MODEL_PAGES) {
		fprintf(stderr, "fwgen: bad --id (decimal product id), --version (1-255) or "
				"--iap-start (page 1-511)\n");
		return -1;
	}
	img = malloc(ELANTP_MODEL_FLASH);
	if (!img)
		return -1;
	elantp_model_make_image_at(img, (em_u16)pid, (em_u8)fw, (em_u16)iap_start);
	r = fwgen_write_file(out, img, ELANTP_MODEL_FLASH);
	free(img);
	return r;
}

static int run(const struct fwgen_args *a)
{
	unsigned long iap_start = a->iap_start_set ? a->iap_start
						   : ELANTP_MODEL_IAP_START_WORDS * 2 /
							     ELANTP_MODEL_PAGE;

	return make_elantp_fw(a->id, a->version, iap_start, a->out) ? 1 : 0;
}

static const struct fwgen_cmd elantp_fw = {
	.name = "elantp-fw",
	.usage = "fwgen elantp-fw --id PRODUCT --version N [--iap-start PAGE] -o FILE\n",
	.run = run,
};

const struct fwgen_family fwgen_family_elantp = {
	.cmds = (const struct fwgen_cmd *const[]){ &elantp_fw, NULL },
};
