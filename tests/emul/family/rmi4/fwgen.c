// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fwgen's Synaptics RMI4 command: a firmware file in the v10 container
 * format rmi_f34v7 parses, for the chip model's flash layout
 * (rmi4_model.h), good or broken.
 *
 *   fwgen rmi4-fw --version BUILD_ID [--config-id ID] [--id PRODUCT]
 *                 [--form good|bad-header|no-flash-config|bl-config-size|bad-checksum] -o FILE
 *   fwgen rmi4-v5-fw --version BUILD_ID [--config-id ID] [--id PRODUCT] [--form good|bl6] -o
 * FILE
 *
 * rmi4-v5-fw: the v5 file rmi_f34 takes (struct rmi_f34_firmware) for the
 * model's F34 v5 bootloader; bl6 says bootloader version 6 at byte 7.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwgen.h"
#include "rmi4_model.h"

static const char *const forms[] = {
	[RMI4_IMG_GOOD] = "good",
	[RMI4_IMG_BAD_HEADER] = "bad-header",
	[RMI4_IMG_NO_FLASH_CONFIG] = "no-flash-config",
	[RMI4_IMG_BL_CONFIG_SIZE] = "bl-config-size",
	[RMI4_IMG_BAD_CHECKSUM] = "bad-checksum",
};

static int run_any(const struct fwgen_args *a, bool v5)
{
	unsigned long build, cfg = 0x1a2b3c4d;
	const char *pid = a->id ? a->id : "s3203";
	enum rmi4_image_form form = RMI4_IMG_GOOD;
	char *e = NULL;
	em_u8 *img;
	em_u32 len;
	size_t i;
	int r;

	if (!a->version || !a->out) {
		fprintf(stderr, "fwgen: rmi4-fw needs --version and -o\n");
		return 2;
	}
	build = strtoul(a->version, &e, 0);
	if (*e || !build || build > 0xffffff) {
		fprintf(stderr, "fwgen: rmi4-fw: --version is a build id 1..0xffffff\n");
		return 2;
	}
	if (a->config_id) {
		cfg = strtoul(a->config_id, &e, 0);
		if (*e || cfg > 0xffffffffUL) {
			fprintf(stderr, "fwgen: rmi4-fw: --config-id is a 32-bit number\n");
			return 2;
		}
	}
	if (!*pid || strlen(pid) > RMI4_MODEL_PRODUCT_MAX) {
		fprintf(stderr, "fwgen: rmi4-fw: --id is a product id of 1..%d characters\n",
			RMI4_MODEL_PRODUCT_MAX);
		return 2;
	}
	if (v5 && a->form && strcmp(a->form, "good") && strcmp(a->form, "bl6")) {
		fprintf(stderr, "fwgen: rmi4-v5-fw: unknown --form %s\n", a->form);
		return 2;
	}
	if (!v5 && a->form) {
		for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
			if (!strcmp(a->form, forms[i]))
				break;
		if (i == sizeof(forms) / sizeof(forms[0])) {
			fprintf(stderr, "fwgen: rmi4-fw: unknown --form %s\n", a->form);
			return 2;
		}
		form = (enum rmi4_image_form)i;
	}
	img = malloc(RMI4_MODEL_IMAGE_MAX);
	if (!img)
		return 1;
	if (v5)
		len = rmi4_model_make_image_v5(img, (em_u32)build, (em_u32)cfg, pid,
					       a->form && !strcmp(a->form, "bl6") ? 6 : 5);
	else
		len = rmi4_model_make_image(img, (em_u32)build, (em_u32)cfg, pid, form);
	r = fwgen_write_file(a->out, img, len);
	free(img);
	return r ? 1 : 0;
}

static int run(const struct fwgen_args *a)
{
	return run_any(a, false);
}

static int run_v5(const struct fwgen_args *a)
{
	return run_any(a, true);
}

static const struct fwgen_cmd rmi4_v5_fw = {
	.name = "rmi4-v5-fw",
	.usage = "fwgen rmi4-v5-fw --version BUILD_ID [--config-id ID] [--id PRODUCT]\n"
		 "                 [--form good|bl6] -o FILE\n",
	.run = run_v5,
};

static const struct fwgen_cmd rmi4_fw = {
	.name = "rmi4-fw",
	.usage =
		"fwgen rmi4-fw --version BUILD_ID [--config-id ID] [--id PRODUCT]\n"
		"              [--form good|bad-header|no-flash-config|bl-config-size|bad-checksum] -o FILE\n",
	.run = run,
};

const struct fwgen_family fwgen_family_rmi4 = {
	.cmds = (const struct fwgen_cmd *const[]){ &rmi4_fw, &rmi4_v5_fw, NULL },
};
