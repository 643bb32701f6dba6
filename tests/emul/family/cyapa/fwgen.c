// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fwgen's Cypress trackpad command: the firmware file cyapa's update_fw
 * loads for a Gen3 part (cyapa_gen3_check_fw: 30848 bytes, a header block
 * pair whose first big-endian word is the sum of its other bytes and
 * whose last is the sum of the application), in the chip model's layout
 * (cyapa_model.h); --form makes the broken ones the driver refuses.
 *
 *   fwgen cyapa-fw --version MAJOR.MINOR [--id CYTRA-NNNNNN-NN]
 *         [--form bad-header|bad-image|short] -o FILE
 *
 * and the image cyapa loads for a Gen5 or Gen6 (PIP) part
 * (cyapa_pip_check_fw: a head with the silicon and family ids, records of
 * rows, the metadata row 0x1ff last), in the PIP chip model's layout
 * (cyapa_pip_model.h); --form gen6 makes a Gen6 part's (family id 0x9b,
 * silicon id 0x0b: what a Gen6 trackpad takes and a Gen5 one refuses),
 * the others Gen5 images the driver refuses:
 *
 *   fwgen cyapa-pip-fw --version MAJOR.MINOR [--id CYTRA-NNNNNN-NN]
 *         [--form gen6|bad-meta-crc|bad-app-crc|no-integrity|short] -o FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cyapa_model.h"
#include "cyapa_pip_model.h"
#include "fwgen.h"

static int run(const struct fwgen_args *a)
{
	const char *id = a->id ? a->id : "CYTRA-116002-00";
	unsigned maj, min;
	size_t len = CYAPA_MODEL_FILE_SIZE;
	em_u8 *f;
	char end;
	int r;

	if (!a->version || !a->out || sscanf(a->version, "%u.%u%c", &maj, &min, &end) != 2 ||
	    maj > 255 || min > 255) {
		fprintf(stderr,
			"fwgen: cyapa-fw needs --version MAJOR.MINOR (0-255 each) and -o\n");
		return 2;
	}
	if (strlen(id) != 15 || strncmp(id, "CYTRA-", 6) || id[12] != '-') {
		fprintf(stderr, "fwgen: cyapa-fw: --id \"%s\" is not CYTRA-NNNNNN-NN\n", id);
		return 2;
	}
	f = malloc(CYAPA_MODEL_FILE_SIZE);
	if (!f)
		return 1;
	cyapa_model_make_file(f, id, (em_u8)maj, (em_u8)min);
	if (!a->form) {
	} else if (!strcmp(a->form, "bad-header")) {
		f[1] ^= 0x01; /* the header's sum off by one */
	} else if (!strcmp(a->form, "bad-image")) {
		f[CYAPA_MODEL_FILE_SIZE - 1] ^= 0x01; /* an application byte */
	} else if (!strcmp(a->form, "short")) {
		len -= CYAPA_MODEL_BLOCK; /* one block missing */
	} else {
		fprintf(stderr, "fwgen: cyapa-fw: --form is bad-header, bad-image or short\n");
		free(f);
		return 2;
	}
	r = fwgen_write_file(a->out, f, len);
	free(f);
	return r ? 1 : 0;
}

static int run_pip(const struct fwgen_args *a)
{
	const char *id = a->id ? a->id : "CYTRA-103002-00";
	size_t len = CYAPA_PIP_FILE_SIZE;
	unsigned maj, min;
	int gen = 5, r;
	em_u8 *f;
	char end;

	if (!a->version || !a->out || sscanf(a->version, "%u.%u%c", &maj, &min, &end) != 2 ||
	    maj > 255 || min > 255) {
		fprintf(stderr,
			"fwgen: cyapa-pip-fw needs --version MAJOR.MINOR (0-255 each) and -o\n");
		return 2;
	}
	if (strlen(id) != 15 || strncmp(id, "CYTRA-", 6) || id[12] != '-') {
		fprintf(stderr, "fwgen: cyapa-pip-fw: --id \"%s\" is not CYTRA-NNNNNN-NN\n",
			id);
		return 2;
	}
	if (a->form && !strcmp(a->form, "gen6"))
		gen = 6;
	f = malloc(CYAPA_PIP_FILE_SIZE);
	if (!f)
		return 1;
	cyapa_pip_make_file(f, gen, id, (em_u8)maj, (em_u8)min);
	/* the metadata's 60 bytes start 5 bytes into the last record */
	if (!a->form || gen == 6) {
	} else if (!strcmp(a->form, "bad-meta-crc")) {
		f[CYAPA_PIP_FILE_SIZE - CYAPA_PIP_ROW + 60] ^= 0x01;
	} else if (!strcmp(a->form, "bad-app-crc")) {
		f[CYAPA_PIP_HEAD_SIZE + 100 * CYAPA_PIP_RECORD_SIZE + 40] ^= 0x01;
	} else if (!strcmp(a->form, "no-integrity")) {
		len -= CYAPA_PIP_RECORD_SIZE; /* the metadata row missing */
	} else if (!strcmp(a->form, "short")) {
		len -= 7; /* a record cut */
	} else {
		fprintf(stderr,
			"fwgen: cyapa-pip-fw: --form is gen6, bad-meta-crc, bad-app-crc, "
			"no-integrity or short\n");
		free(f);
		return 2;
	}
	r = fwgen_write_file(a->out, f, len);
	free(f);
	return r ? 1 : 0;
}

static const struct fwgen_cmd cyapa_pip_fw = {
	.name = "cyapa-pip-fw",
	.usage = "fwgen cyapa-pip-fw --version MAJOR.MINOR [--id CYTRA-NNNNNN-NN]\n"
		 "      [--form gen6|bad-meta-crc|bad-app-crc|no-integrity|short] -o FILE\n",
	.run = run_pip,
};

static const struct fwgen_cmd cyapa_fw = {
	.name = "cyapa-fw",
	.usage = "fwgen cyapa-fw --version MAJOR.MINOR [--id CYTRA-NNNNNN-NN]\n"
		 "      [--form bad-header|bad-image|short] -o FILE\n",
	.run = run,
};

const struct fwgen_family fwgen_family_cyapa = {
	.cmds = (const struct fwgen_cmd *const[]){ &cyapa_fw, &cyapa_pip_fw, NULL },
};
