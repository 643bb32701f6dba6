// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fwgen's maXTouch commands: synthetic firmware images in the frame format
 * of mxt_image.h, and OBP_RAW configuration files computed against the
 * chip model itself, so their info-block and config CRCs are the ones the
 * emulated chip will report.
 *
 *   fwgen image  --chip PRESET --version M.m.BB --size BYTES
 *                [--frame BYTES] [--enc] -o FILE
 *   fwgen config --chip PRESET --version M.m.BB [--tag N] -o FILE
 *   fwgen xcfg   --chip PRESET --version M.m.BB [--tag N] [--form FORM] -o FILE
 *
 * xcfg writes the configuration `config` writes, in the .xcfg text of
 * Microchip's tools (FORM studio, the default: maXTouch Studio's file
 * version 3 with the matrix size and object count, CRLF lines, multi-byte
 * and signed fields; mxt-app: as mxt-app's mxt_save_xcfg_file, one byte a
 * line, no matrix size), or one broken the way a damaged or foreign file
 * is (FORM overflow, beyond, overlap, encrypted, devices, no-header,
 * truncated), for the parser tests.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwgen.h"
#include "mxt_image.h"
#include "mxt_model.h"

static int parse_version(const char *s, unsigned *maj, unsigned *min, unsigned *build)
{
	char tail;

	if (sscanf(s, "%u.%u.%x%c", maj, min, build, &tail) != 3 || *maj > 15 || *min > 15 ||
	    *build > 0xff)
		return -1;
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
		r = fwgen_write_file(out, img, len);
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
	r = fwgen_write_file(out, hex, len * 2 + 1);
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

/* The object names of Microchip's tools, for the types the presets have. */
static const char *object_name(em_u8 type)
{
	switch (type) {
	case 7:
		return "GEN_POWERCONFIG_T7";
	case 8:
		return "GEN_ACQUISITIONCONFIG_T8";
	case 9:
		return "TOUCH_MULTITOUCHSCREEN_T9";
	case 15:
		return "TOUCH_KEYARRAY_T15";
	case 18:
		return "SPT_COMMSCONFIG_T18";
	case 19:
		return "SPT_GPIOPWM_T19";
	case 25:
		return "SPT_SELFTEST_T25";
	case 38:
		return "SPT_USERDATA_T38";
	case 100:
		return "TOUCH_MULTITOUCHSCREEN_T100";
	default:
		return NULL;
	}
}

static bool form_is(const char *form, const char *name)
{
	return form && !strcmp(form, name);
}

static int make_xcfg(const struct mxt_model_cfg *base, unsigned version, unsigned build,
		     unsigned tag, const char *form, const char *out)
{
	static struct mxt_model m;
	struct mxt_model_cfg cfg = *base;
	bool studio = !form || !form_is(form, "mxt-app");
	const char *nl = studio ? "\r\n" : "\n";
	unsigned i, j, n_obj = 0;
	FILE *f;

	if (form && !form_is(form, "studio") && !form_is(form, "mxt-app") &&
	    !form_is(form, "overflow") && !form_is(form, "beyond") &&
	    !form_is(form, "overlap") && !form_is(form, "encrypted") &&
	    !form_is(form, "devices") && !form_is(form, "no-header") &&
	    !form_is(form, "truncated")) {
		fprintf(stderr, "fwgen: xcfg: unknown --form %s\n", form);
		return -1;
	}
	cfg.fw_version = (em_u8)version;
	cfg.fw_build = (em_u8)build;
	mxt_model_init(&m, &cfg, 0);
	/* The chip's NVM as the file says, for the config CRC. */
	for (i = 0; i < cfg.num_objects; i++) {
		const struct mxt_obj_def *o = &cfg.objects[i];
		em_u16 start, size;
		em_u8 v[256];

		if (o->type == 5 || o->type == 6 || o->type == 37 || o->type == 44)
			continue;
		mxt_model_object(&m, o->type, &start, &size);
		fill_object(o->type, v, size, tag);
		mxt_model_set_nvm(&m, start, v, size);
	}
	f = fopen(out, "wb");
	if (!f) {
		fprintf(stderr, "fwgen: %s: %s\n", out, strerror(errno));
		return -1;
	}
	fprintf(f, "[COMMENTS]%sDate and time: Thu Jan  1 00:00:00 1970%s", nl, nl);
	if (!form_is(form, "no-header")) {
		fprintf(f,
			"[VERSION_INFO_HEADER]%sFAMILY_ID=%u%sVARIANT=%u%sVERSION=%u%sBUILD=%u%s",
			nl, cfg.family_id, nl, cfg.variant_id, nl, version, nl, build, nl);
		if (studio)
			fprintf(f, "MATRIX_X=%u%sMATRIX_Y=%u%sNO_OBJECTS=%u%s", cfg.matrix_x,
				nl, cfg.matrix_y, nl, cfg.num_objects, nl);
		if (form_is(form, "devices"))
			fprintf(f, "NO_DEVICES=2%s", nl);
		fprintf(f, "CHECKSUM=0x%06X%sINFO_BLOCK_CHECKSUM=0x%06X%s",
			mxt_model_nvm_config_crc(&m), nl, mxt_model_info_crc(&m), nl);
	}
	if (studio)
		fprintf(f,
			"[FILE_INFO_HEADER]%sVERSION=3%sENCRYPTION=%s%sMAX_ENCRYPTION_BLOCKS=0%s",
			nl, nl, form_is(form, "encrypted") ? "TRUE" : "FALSE", nl, nl);
	fprintf(f, "[APPLICATION_INFO_HEADER]%sNAME=fwgen%sVERSION=1%s", nl, nl, nl);
	for (i = 0; i < cfg.num_objects; i++) {
		const struct mxt_obj_def *o = &cfg.objects[i];
		const char *name = object_name(o->type);
		em_u16 start, size;
		em_u8 v[256];

		if (o->type == 5 || o->type == 6 || o->type == 37 || o->type == 44)
			continue;
		mxt_model_object(&m, o->type, &start, &size);
		fill_object(o->type, v, size, tag);
		if (name)
			fprintf(f, "[%s INSTANCE 0]%s", name, nl);
		else
			fprintf(f, "[UNKNOWN_T%u INSTANCE 0]%s", o->type, nl);
		if (form_is(form, "truncated") && ++n_obj == 3) {
			/* cut off after the third section's header */
			break;
		}
		fprintf(f, "OBJECT_ADDRESS=%u%sOBJECT_SIZE=%u%s",
			form_is(form, "overlap") && o->type == 8 ? start - 1u : start, nl, size,
			nl);
		for (j = 0; j < size; j++) {
			bool multi = studio && (o->type == 9 || o->type == 100) && size > 20;

			if (multi && j == 18) {
				/* a 16-bit field (T9's XRANGE, T100's ...) */
				fprintf(f, "18 2 RANGE=%u%s", v[18] | v[19] << 8, nl);
				j = 19;
			} else if (multi && j == 20 && v[20] >= 0x80) {
				/* a signed field */
				fprintf(f, "20 1 OFFSET=%d%s", (int)v[20] - 256, nl);
			} else if (studio) {
				fprintf(f, "%u 1 FIELD%u=%u%s", j, j, v[j], nl);
			} else {
				fprintf(f, "%u 1 UNKNOWN[%u]=%u%s", j, j, v[j], nl);
			}
		}
		if (form_is(form, "overflow") && o->type == 7)
			fprintf(f, "0 1 IDLEACQINT=256%s", nl);
		if (form_is(form, "beyond") && o->type == 7)
			fprintf(f, "%u 2 TOOFAR=1%s", size - 1u, nl);
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "fwgen: %s: write failed\n", out);
		return -1;
	}
	return 0;
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

/* --chip, --version and -o, checked: 0, or 2 with the message. */
static int chip_args(const struct fwgen_args *a, struct mxt_model_cfg *cfg, unsigned *ver,
		     unsigned *build)
{
	unsigned maj, min;

	if (!a->chip || !a->version || !a->out || !mxt_model_preset(a->chip, cfg) ||
	    parse_version(a->version, &maj, &min, build)) {
		fprintf(stderr, "fwgen: need a known --chip, --version M.m.BB and -o\n");
		return 2;
	}
	*ver = maj << 4 | min;
	return 0;
}

static int run_image(const struct fwgen_args *a)
{
	struct mxt_model_cfg cfg;
	unsigned ver, build;
	int r = chip_args(a, &cfg, &ver, &build);

	if (r)
		return r;
	if (!a->size) {
		fprintf(stderr, "fwgen: image needs --size\n");
		return 2;
	}
	return make_image(&cfg, ver, build, a->size, a->frame, a->enc, a->out) ? 1 : 0;
}

static int run_config(const struct fwgen_args *a)
{
	struct mxt_model_cfg cfg;
	unsigned ver, build;
	int r = chip_args(a, &cfg, &ver, &build);

	if (r)
		return r;
	return make_config(&cfg, ver, build, (unsigned)a->tag, a->out) ? 1 : 0;
}

static int run_xcfg(const struct fwgen_args *a)
{
	struct mxt_model_cfg cfg;
	unsigned ver, build;
	int r = chip_args(a, &cfg, &ver, &build);

	if (r)
		return r;
	return make_xcfg(&cfg, ver, build, (unsigned)a->tag, a->form, a->out) ? 1 : 0;
}

static const struct fwgen_cmd image = {
	.name = "image",
	.usage = "fwgen image --chip PRESET --version M.m.BB --size BYTES\n"
		 "            [--frame BYTES] [--enc] -o FILE\n",
	.run = run_image,
};

static const struct fwgen_cmd config = {
	.name = "config",
	.usage = "fwgen config --chip PRESET --version M.m.BB [--tag N] -o FILE\n",
	.run = run_config,
};

static const struct fwgen_cmd xcfg = {
	.name = "xcfg",
	.usage = "fwgen xcfg --chip PRESET --version M.m.BB [--tag N] [--form FORM] -o FILE\n",
	.run = run_xcfg,
};

const struct fwgen_family fwgen_family_mxt = {
	.cmds = (const struct fwgen_cmd *const[]){ &image, &config, &xcfg, NULL },
	.notes = "PRESET: mxt224e, mxt1664s.  --frame is the payload per frame\n"
		 "(default 256).  --enc writes the vendor's ASCII-hex form.\n"
		 "--tag sets a marker in the T38 user-data object so configs differ.\n"
		 "xcfg FORM: studio (default), mxt-app; broken: overflow, beyond,\n"
		 "overlap, encrypted, devices, no-header, truncated.\n",
};
