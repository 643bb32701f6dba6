// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fwgen: makes synthetic maXTouch firmware images and OBP_RAW configuration
 * files for the emulated chips (no vendor blobs).  Images use the synthetic
 * frame format of mxt_image.h; configurations are computed against the chip
 * model itself, so their info-block and config CRCs are the ones the
 * emulated chip will report.  Output is deterministic: the same arguments
 * give the same bytes, so the firmware DB manifest can carry fixed hashes.
 *
 *   fwgen image  --chip PRESET --version M.m.BB --size BYTES
 *                [--frame BYTES] [--enc] -o FILE
 *   fwgen config --chip PRESET --version M.m.BB [--tag N] -o FILE
 *   fwgen goodix-config --id ID --version N --resolution WxH
 *   fwgen silead-fw --tag SEED --size PAGES -o FILE   (silead_model_make_fw)
 *                [--touches N] -o FILE
 *   fwgen berlin-fw --chip gt9916|gt9897 --id PID --version VID --size BYTES
 *                [--config-id N] [--tag SEED] -o FILE
 *   fwgen berlin-cfg --config-id N [--version V] [--enc] -o FILE
 *
 * Goodix Berlin firmware files are berlin_image.h's container (the header
 * fwupdate.c parses, ISP subsystem 0, the application in subsystems, the
 * config as subsystem type 4 with --config-id); VID is the patch_vid as 8
 * hex digits.  berlin-cfg writes the 4 KiB config alone, binary or (--enc)
 * in the "0xHH," text fwupdate's load_config_file reads.
 *
 * Goodix configurations come from the Goodix chip model
 * (goodix_model_make_config): the length and checksum its product id
 * calls for, fresh byte set, as the emulated chip and driver judge them.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "berlin_image.h"
#include "goodix_model.h"
#include "silead_model.h"
#include "elants_model.h"
#include "elantp_model.h"
#include "mxt_image.h"
#include "mxt_model.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: fwgen image --chip PRESET --version M.m.BB --size BYTES\n"
		"                   [--frame BYTES] [--enc] -o FILE\n"
		"       fwgen config --chip PRESET --version M.m.BB [--tag N] -o FILE\n"
		"       fwgen goodix-config --id ID --version N --resolution WxH\n"
		"                           [--touches N] -o FILE\n"
		"       fwgen silead-fw --tag SEED --size PAGES -o FILE\n"
		"       fwgen elants-fw --id HWID --version FWVER [--size PAGES] -o FILE\n"
		"       fwgen elantp-fw --id PRODUCT --version N [--iap-start PAGE] -o FILE\n"
		"       fwgen berlin-fw --chip gt9916|gt9897 --id PID --version VID\n"
		"                 --size BYTES [--config-id N] [--tag SEED] -o FILE\n"
		"       fwgen berlin-cfg --config-id N [--version V] [--enc] -o FILE\n"
		"\n"
		"PRESET: mxt224e, mxt1664s.  --frame is the payload per frame\n"
		"(default 256).  --enc writes the vendor's ASCII-hex form.\n"
		"--tag sets a marker in the T38 user-data object so configs differ.\n");
}

static int parse_version(const char *s, unsigned *maj, unsigned *min, unsigned *build)
{
	char tail;

	if (sscanf(s, "%u.%u.%x%c", maj, min, build, &tail) != 3 || *maj > 15 || *min > 15 ||
	    *build > 0xff)
		return -1;
	return 0;
}

static int write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f) {
		fprintf(stderr, "fwgen: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "fwgen: %s: write failed\n", path);
		return -1;
	}
	return 0;
}

static int make_image(const struct mxt_model_cfg *cfg, unsigned version, unsigned build,
		      unsigned long size, unsigned long frame, int enc, const char *out)
{
	struct mxt_img_header h = {
		cfg->family_id, cfg->variant_id, (em_u8)version, (em_u8)build, 0, 0
	};
	size_t cap = mxt_img_size((em_u32)size, (em_u16)frame), len, i;
	unsigned char *img;
	char *hex;
	int r;

	if (!cap || frame > MXT_MODEL_MAX_CHUNK) {
		fprintf(stderr, "fwgen: bad --size or --frame (frame <= %d)\n",
			MXT_MODEL_MAX_CHUNK);
		return -1;
	}
	img = malloc(cap);
	if (!img)
		return -1;
	len = mxt_img_build(&h, NULL, (em_u32)size, (em_u16)frame, img, cap);
	if (!len) {
		free(img);
		fprintf(stderr, "fwgen: image does not fit the format\n");
		return -1;
	}
	if (!enc) {
		r = write_file(out, img, len);
		free(img);
		return r;
	}
	hex = malloc(len * 2 + 1);
	if (!hex) {
		free(img);
		return -1;
	}
	for (i = 0; i < len; i++)
		sprintf(hex + 2 * i, "%02X", img[i]);
	hex[2 * len] = '\n';
	r = write_file(out, hex, len * 2 + 1);
	free(hex);
	free(img);
	return r;
}

/* Deterministic, plausible object contents for the demo configuration. */
static void fill_object(em_u8 type, em_u8 *v, em_u16 size, unsigned tag)
{
	em_u16 i;

	memset(v, 0, size);
	switch (type) {
	case 7: /* power: idle, active acquisition intervals, timeout */
		v[0] = 32;
		if (size > 1)
			v[1] = 16;
		if (size > 2)
			v[2] = 50;
		break;
	case 8: /* acquisition */
		for (i = 0; i < size; i++)
			v[i] = (em_u8)(10 + i);
		break;
	case 9: /* multitouch: enable, then geometry */
	case 100:
		v[0] = 0x83;
		for (i = 1; i < size; i++)
			v[i] = (em_u8)(i * 7);
		break;
	case 38: /* user data: a marker so two configs differ */
		v[0] = 'T';
		if (size > 1)
			v[1] = (em_u8)tag;
		break;
	default:
		for (i = 0; i < size; i++)
			v[i] = (em_u8)((type + i) & 0x0f);
		break;
	}
}

static int make_config(const struct mxt_model_cfg *base, unsigned version, unsigned build,
		       unsigned tag, const char *out)
{
	static struct mxt_model m;
	struct mxt_model_cfg cfg = *base;
	const em_u8 *mem;
	em_u16 mem_size, crc_start = 0xffff;
	unsigned i, j;
	FILE *f;

	/* The chip as it will be after the firmware this config is for. */
	cfg.fw_version = (em_u8)version;
	cfg.fw_build = (em_u8)build;
	mxt_model_init(&m, &cfg, 0);
	mem = mxt_model_mem(&m, &mem_size);

	f = fopen(out, "w");
	if (!f) {
		fprintf(stderr, "fwgen: %s: %s\n", out, strerror(errno));
		return -1;
	}
	/* Fill the chip's NVM exactly as the file says, to get its CRC. */
	for (i = 0; i < cfg.num_objects; i++) {
		const struct mxt_obj_def *o = &cfg.objects[i];
		em_u16 start, size;
		em_u8 v[256];

		if (o->type == 5 || o->type == 6 || o->type == 37 || o->type == 44)
			continue; /* messages, commands, debug: not configuration */
		mxt_model_object(&m, o->type, &start, &size);
		if (start < crc_start)
			crc_start = start;
		fill_object(o->type, v, size, tag);
		mxt_model_set_nvm(&m, start, v, size);
	}
	fprintf(f, "OBP_RAW V1\n");
	for (i = 0; i < 7; i++)
		fprintf(f, "%02X%s", mem[i], i < 6 ? " " : "\n");
	fprintf(f, "%06X\n", mxt_model_info_crc(&m));
	fprintf(f, "%06X\n", mxt_model_nvm_config_crc(&m));
	for (i = 0; i < cfg.num_objects; i++) {
		const struct mxt_obj_def *o = &cfg.objects[i];
		em_u16 start, size;
		em_u8 v[256];

		if (o->type == 5 || o->type == 6 || o->type == 37 || o->type == 44)
			continue;
		mxt_model_object(&m, o->type, &start, &size);
		fill_object(o->type, v, size, tag);
		fprintf(f, "%04X %04X %04X", o->type, 0, size);
		for (j = 0; j < size; j++)
			fprintf(f, " %02X", v[j]);
		fprintf(f, "\n");
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "fwgen: %s: write failed\n", out);
		return -1;
	}
	return 0;
}

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
	return write_file(out, cfg.stored, cfg.stored_len);
}

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
	r = write_file(out, img, pages * ELANTS_MODEL_PAGE);
	free(img);
	return r;
}

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
	r = write_file(out, img, ELANTP_MODEL_FLASH);
	free(img);
	return r;
}

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
	r = berlin_fw_file_build(&s, buf, len) == len ? write_file(out, buf, len) : -1;
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
		return write_file(out, cfg, sizeof(cfg));
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

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "chip", required_argument, NULL, 'c' },
		{ "version", required_argument, NULL, 'v' },
		{ "size", required_argument, NULL, 's' },
		{ "frame", required_argument, NULL, 'f' },
		{ "tag", required_argument, NULL, 't' },
		{ "enc", no_argument, NULL, 'e' },
		{ "id", required_argument, NULL, 'i' },
		{ "resolution", required_argument, NULL, 'r' },
		{ "touches", required_argument, NULL, 'n' },
		{ "config-id", required_argument, NULL, 'C' },
		{ "iap-start", required_argument, NULL, 'a' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *chip = NULL, *ver = NULL, *out = NULL, *mode, *gid = NULL, *res = NULL,
		   *config_id = NULL;
	unsigned long size = 0, frame = 256, tag = 1, touches = 5;
	unsigned long iap_start = ELANTP_MODEL_IAP_START_WORDS * 2 / ELANTP_MODEL_PAGE;
	unsigned maj, min, build;
	struct mxt_model_cfg cfg;
	int c, enc = 0;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	mode = argv[1];
	optind = 2;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			chip = optarg;
			break;
		case 'v':
			ver = optarg;
			break;
		case 's':
			size = strtoul(optarg, NULL, 0);
			break;
		case 'f':
			frame = strtoul(optarg, NULL, 0);
			break;
		case 't':
			tag = strtoul(optarg, NULL, 0);
			break;
		case 'e':
			enc = 1;
			break;
		case 'i':
			gid = optarg;
			break;
		case 'r':
			res = optarg;
			break;
		case 'n':
			touches = strtoul(optarg, NULL, 0);
			break;
		case 'C':
			config_id = optarg;
			break;
		case 'a':
			iap_start = strtoul(optarg, NULL, 0);
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!strcmp(mode, "silead-fw")) {
		static em_u8 buf[256 * 33 * 8];
		size_t n;

		if (!out || size < 1 || size > 256) {
			fprintf(stderr, "fwgen: silead-fw needs --size PAGES (1-256) and -o\n");
			return 2;
		}
		n = silead_model_make_fw((em_u32)tag, (em_u32)size, buf, sizeof(buf));
		return write_file(out, buf, n) ? 1 : 0;
	}
	if (!strcmp(mode, "berlin-fw"))
		return make_berlin_fw(chip, gid, ver, size, config_id, tag, out) ? 1 : 0;
	if (!strcmp(mode, "berlin-cfg"))
		return make_berlin_cfg(config_id, ver, enc, out) ? 1 : 0;
	if (!strcmp(mode, "goodix-config"))
		return make_goodix_config(gid, ver, res, touches, out) ? 1 : 0;
	if (!strcmp(mode, "elantp-fw"))
		return make_elantp_fw(gid, ver, iap_start, out) ? 1 : 0;
	if (!strcmp(mode, "elants-fw"))
		return make_elants_fw(gid, ver, size ? size : 64, out) ? 1 : 0;
	if (!chip || !ver || !out || !mxt_model_preset(chip, &cfg) ||
	    parse_version(ver, &maj, &min, &build)) {
		fprintf(stderr, "fwgen: need a known --chip, --version M.m.BB and -o\n");
		return 2;
	}
	if (!strcmp(mode, "image")) {
		if (!size) {
			fprintf(stderr, "fwgen: image needs --size\n");
			return 2;
		}
		return make_image(&cfg, maj << 4 | min, build, size, frame, enc, out) ? 1 : 0;
	}
	if (!strcmp(mode, "config"))
		return make_config(&cfg, maj << 4 | min, build, (unsigned)tag, out) ? 1 : 0;
	fprintf(stderr, "fwgen: unknown mode '%s'\n", mode);
	return 2;
}
