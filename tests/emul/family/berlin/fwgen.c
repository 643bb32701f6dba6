// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fwgen's Goodix Berlin commands.  Firmware files are berlin_image.h's
 * container (the header fwupdate.c parses, ISP subsystem 0, the
 * application in subsystems, the config as subsystem type 4 with
 * --config-id); VID is the patch_vid as 8 hex digits.  berlin-cfg writes
 * the 4 KiB config alone, binary or (--enc) in the "0xHH," text
 * fwupdate's load_config_file reads.
 *
 *   fwgen berlin-fw --chip gt9916|gt9897 --id PID --version VID --size BYTES
 *                [--config-id N] [--tag SEED] -o FILE
 *   fwgen berlin-cfg --config-id N [--version V] [--enc] -o FILE
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "berlin_image.h"
#include "fwgen.h"

/* A Goodix Berlin firmware file (berlin_image.h) for the chip model. */
static int make_berlin_fw(const char *chip, const char *pid, const char *ver,
			  unsigned long size, const char *config_id, unsigned long tag,
			  const char *out)
{
	struct berlin_fw_spec s = { .seed = (em_u32)tag, .config_version = 1 };
	unsigned int b[4];
	unsigned long id = 0;
	char tail, *end = NULL;
	em_u8 *buf;
	em_u32 len;
	int r;

	if (!chip || !pid || !ver || !out || !size) {
		fprintf(stderr,
			"fwgen: berlin-fw needs --chip, --id, --version, --size and -o\n");
		return -1;
	}
	if (!strcmp(chip, "gt9916"))
		s.variant = BERLIN_D;
	else if (!strcmp(chip, "gt9897"))
		s.variant = BERLIN_A;
	else {
		fprintf(stderr, "fwgen: --chip: \"%s\" is not gt9916 or gt9897\n", chip);
		return -1;
	}
	if (!*pid || strlen(pid) > 8) {
		fprintf(stderr, "fwgen: --id: the patch pid is 1..8 characters\n");
		return -1;
	}
	if (strlen(ver) != 8 ||
	    sscanf(ver, "%2x%2x%2x%2x%c", &b[0], &b[1], &b[2], &b[3], &tail) != 4) {
		fprintf(stderr, "fwgen: --version: \"%s\" is not a patch_vid of 8 hex digits\n",
			ver);
		return -1;
	}
	if (config_id) {
		id = strtoul(config_id, &end, 0);
		if (!*config_id || *end || id > 0xffffffffUL) {
			fprintf(stderr, "fwgen: --config-id: \"%s\" is not a 32-bit number\n",
				config_id);
			return -1;
		}
	}
	s.pid = pid;
	for (int i = 0; i < 4; i++)
		s.vid[i] = (em_u8)b[i];
	s.app_size = size > BERLIN_APP_MAX ? 1 : (em_u32)size;
	s.with_config = config_id != NULL;
	s.config_id = (em_u32)id;
	len = berlin_fw_file_size(&s);
	if (!len) {
		fprintf(stderr,
			"fwgen: --size: the application is an even size of %d..%u bytes\n",
			BERLIN_DESC_SIZE, BERLIN_APP_MAX);
		return -1;
	}
	buf = malloc(len);
	if (!buf)
		return -1;
	r = berlin_fw_file_build(&s, buf, len) == len ? fwgen_write_file(out, buf, len) : -1;
	free(buf);
	return r;
}

/* The config alone: binary, or the text fwupdate's load_config_file reads. */
static int make_berlin_cfg(const char *config_id, const char *ver, int enc, const char *out)
{
	em_u8 cfg[BERLIN_CONFIG_SIZE];
	unsigned long id, v = 1;
	char *end = NULL;
	FILE *f;

	if (!config_id || !out) {
		fprintf(stderr, "fwgen: berlin-cfg needs --config-id and -o\n");
		return -1;
	}
	id = strtoul(config_id, &end, 0);
	if (!*config_id || *end || id > 0xffffffffUL) {
		fprintf(stderr, "fwgen: --config-id: \"%s\" is not a 32-bit number\n",
			config_id);
		return -1;
	}
	if (ver) {
		v = strtoul(ver, &end, 0);
		if (!*ver || *end || v > 255) {
			fprintf(stderr, "fwgen: --version: \"%s\" is not 0..255\n", ver);
			return -1;
		}
	}
	berlin_model_make_config(cfg, (em_u32)id, (em_u8)v);
	if (!enc)
		return fwgen_write_file(out, cfg, sizeof(cfg));
	f = fopen(out, "w");
	if (!f) {
		fprintf(stderr, "fwgen: %s: %s\n", out, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < sizeof(cfg); i++)
		fprintf(f, "0x%02X%s", cfg[i], i % 16 == 15 ? ",\n" : ",");
	if (fclose(f) != 0) {
		fprintf(stderr, "fwgen: %s: write failed\n", out);
		return -1;
	}
	return 0;
}

static int run_fw(const struct fwgen_args *a)
{
	return make_berlin_fw(a->chip, a->id, a->version, a->size, a->config_id, a->tag, a->out)
		       ? 1
		       : 0;
}

static int run_cfg(const struct fwgen_args *a)
{
	return make_berlin_cfg(a->config_id, a->version, a->enc, a->out) ? 1 : 0;
}

static const struct fwgen_cmd berlin_fw = {
	.name = "berlin-fw",
	.usage = "fwgen berlin-fw --chip gt9916|gt9897 --id PID --version VID\n"
		 "                --size BYTES [--config-id N] [--tag SEED] -o FILE\n",
	.run = run_fw,
};

static const struct fwgen_cmd berlin_cfg = {
	.name = "berlin-cfg",
	.usage = "fwgen berlin-cfg --config-id N [--version V] [--enc] -o FILE\n",
	.run = run_cfg,
};

const struct fwgen_family fwgen_family_berlin = {
	.cmds = (const struct fwgen_cmd *const[]){ &berlin_fw, &berlin_cfg, NULL },
};
