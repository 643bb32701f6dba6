// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fwgen's Silead commands: a panel's program as silead_model_make_fw makes
 * it, the (register, value) pairs silead.c writes -- and the same program
 * in the forms people have it in, for touchfw's import:
 *
 *   fwgen silead-fw        --tag SEED --size PAGES -o FILE
 *   fwgen silead-gslx      --tag SEED --size PAGES [--chip MODEL] [--form F] -o FILE
 *   fwgen silead-tscfg     --tag SEED --size PAGES [--chip NAME] [--form F] -o FILE
 *   fwgen silead-scrambled --tag SEED --size PAGES [--form F] -o FILE
 *
 * silead-gslx: gslx680_ts_acpi's container (a 24-byte "GSLX" header with
 * the model, e.g. --chip 1680, and panel parameters, then 132-byte pages:
 * page, size, 128 data bytes), as gsl-firmware's tools/Firmware/Silead.pm
 * documents it.  silead-tscfg: a GSL_TS_CFG.h -- F windows (the default:
 * Silead's Windows driver header, CRLF, gsl_config_data_id[] then
 * TS_CFG_DATA GSL_TS_CFG[]) or android (an Android driver's header naming
 * the chip --chip gsl3676, with an "#if 0" block and a parameter array),
 * android-two (two panels' arrays: seeds SEED and SEED + 1).
 * silead-scrambled: the Windows header XORed with 0x88, as SileadTouch.fw.
 * silead-gslx F reversed: the pages last first (the same RAM).
 * Broken forms, for the parser tests: gslx truncated, bad-size, padding,
 * version2; tscfg bad-register, no-page, big-number, no-array; scrambled
 * wrong-key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwgen.h"
#include "silead_model.h"

#define MAX_PAGES 256
#define PAIRS_MAX (MAX_PAGES * (1 + SILEAD_MODEL_PAGE_WORDS))

static em_u8 pairs[PAIRS_MAX * 8];

static bool form_is(const char *form, const char *name)
{
	return form && !strcmp(form, name);
}

static bool form_ok(const char *form, const char *const *names)
{
	if (!form)
		return true;
	for (; *names; names++)
		if (!strcmp(form, *names))
			return true;
	fprintf(stderr, "fwgen: unknown --form %s\n", form);
	return false;
}

/* The program of seed @tag, @size pages; its length, 0 after a message. */
static size_t program(const struct fwgen_args *a, em_u32 tag)
{
	size_t n;

	if (!a->out || a->size < 1 || a->size > MAX_PAGES) {
		fprintf(stderr, "fwgen: silead commands need --size PAGES (1-%d) and -o\n",
			MAX_PAGES);
		return 0;
	}
	n = silead_model_make_fw(tag, (em_u32)a->size, pairs, sizeof(pairs));
	if (!n)
		fprintf(stderr, "fwgen: the program does not fit\n");
	return n;
}

static int run_fw(const struct fwgen_args *a)
{
	size_t n = program(a, (em_u32)a->tag);

	if (!n)
		return 2;
	return fwgen_write_file(a->out, pairs, n) ? 1 : 0;
}

static void put16(em_u8 *p, unsigned v)
{
	p[0] = (em_u8)v;
	p[1] = (em_u8)(v >> 8);
}

static int run_gslx(const struct fwgen_args *a)
{
	static const char *const forms[] = { "reversed", "truncated", "bad-size",
					     "padding",	 "version2",  NULL };
	const char *model = a->chip ? a->chip : "1680";
	size_t n = program(a, (em_u32)a->tag), len, i, pages = 0, at = 24;
	em_u8 *out;
	int r;

	if (!n || !form_ok(a->form, forms))
		return 2;
	if (strlen(model) != 4) {
		fprintf(stderr, "fwgen: silead-gslx --chip is a 4-character model (1680)\n");
		return 2;
	}
	len = 24 + a->size * 132;
	out = calloc(1, len);
	if (!out)
		return 1;
	memcpy(out, "GSLX", 4);
	memcpy(out + 4, model, 4);
	put16(out + 8, form_is(a->form, "version2") ? 2 : 1);
	put16(out + 10, 10);   /* touch points */
	put16(out + 12, 1960); /* panel width, height */
	put16(out + 14, 1500);
	out[16] = 1; /* swapped */
	for (i = 0; i < n; i += 8) {
		em_u32 reg = em_get_le32(pairs + i), val = em_get_le32(pairs + i + 4);

		if (reg == SILEAD_MODEL_REG_PAGE) {
			/* reversed: the last page first (the loader takes any order) */
			at = 24 +
			     (form_is(a->form, "reversed") ? a->size - 1 - pages : pages) * 132;
			pages++;
			put16(out + at, val);
			continue;
		}
		em_put_le32(out + at + 4 + reg, val);
		if (reg + 4 > (em_u32)(out[at + 2] | out[at + 3] << 8))
			put16(out + at + 2, reg + 4);
	}
	em_put_le32(out + 20, (em_u32)pages);
	if (form_is(a->form, "bad-size"))
		put16(out + 24 + 2, 130);
	if (form_is(a->form, "padding")) {
		put16(out + 24 + 2, 124); /* the last word left beyond the size */
	}
	if (form_is(a->form, "truncated"))
		len -= 100;
	r = fwgen_write_file(a->out, out, len);
	free(out);
	return r ? 1 : 0;
}

/* The pairs of seed @tag as C initializer lines into @f; @crlf line ends. */
static void pair_lines(FILE *f, const em_u8 *p, size_t n, const char *nl, const char *form)
{
	for (size_t i = 0; i < n; i += 8) {
		em_u32 reg = em_get_le32(p + i), val = em_get_le32(p + i + 4);

		if (i == 8 && form_is(form, "bad-register"))
			reg = 0x81;
		if (i == 0 && form_is(form, "no-page"))
			continue;
		if (i == 16 && form_is(form, "big-number")) {
			fprintf(f, "{0x%02x,0x1%08x},%s", reg, val, nl);
			continue;
		}
		if (reg == SILEAD_MODEL_REG_PAGE)
			fprintf(f, "{0x%x,0x%x},%s", reg, val, nl);
		else
			fprintf(f, "{0x%02x,0x%08x},%s", reg, val, nl);
	}
}

/* Silead's Windows header (GSL_TS_CFG.h) for the program in pairs[]. */
static void windows_header(FILE *f, size_t n, const char *form)
{
	const char *nl = "\r\n";

	fprintf(f, "unsigned int gsl_config_data_id[] =%s{%s", nl, nl);
	fprintf(f, "\t0x%x,  %s\t0x200,%s\t0,0,%s\t0,0,0,0,0,0,0,0x12b78e98,%s", 0x92e006, nl,
		nl, nl, nl);
	fprintf(f, "\t0x1,//key_map%s\t0x1000,0x1000,0x8000800,//0%s};%s%s", nl, nl, nl, nl);
	if (form_is(form, "no-array")) {
		fprintf(f, "TS_CFG_DATA GSL_TS_CFG[] = {%s};%s", nl, nl);
		return;
	}
	fprintf(f, "TS_CFG_DATA GSL_TS_CFG[] = {%s%s", nl, nl);
	pair_lines(f, pairs, n, nl, form);
	fprintf(f, "%s};%s", nl, nl);
}

static int run_tscfg(const struct fwgen_args *a)
{
	static const char *const forms[] = { "windows",	     "android", "android-two",
					     "bad-register", "no-page", "big-number",
					     "no-array",     NULL };
	const char *chip = a->chip ? a->chip : "gsl3676";
	size_t n = program(a, (em_u32)a->tag);
	char upper[32];
	FILE *f;
	size_t i;

	if (!n || !form_ok(a->form, forms))
		return 2;
	f = fopen(a->out, "wb");
	if (!f) {
		perror(a->out);
		return 1;
	}
	if (!form_is(a->form, "android") && !form_is(a->form, "android-two")) {
		windows_header(f, n, a->form);
	} else {
		for (i = 0; chip[i] && i + 1 < sizeof(upper); i++)
			upper[i] = (char)(chip[i] >= 'a' && chip[i] <= 'z' ? chip[i] - 32
									   : chip[i]);
		upper[i] = '\0';
		fprintf(f, "/*\n * %s firmware for the panel, made by fwgen\n */\n", chip);
		fprintf(f, "#ifndef _%s_FW_H_\n#define _%s_FW_H_\n\n", upper, upper);
		fprintf(f,
			"#define GSL_PAGE_REG 0xf0\n\nstruct fw_data\n{\n    u32 offset : 8;\n"
			"    u32 : 0;\n    u32 val;\n};\n\n");
		fprintf(f, "static unsigned int gsl_config_data_id[] = {\n\t0x78c76a, 0x200,\n"
			   "\t0,0,\n};\n\n");
		fprintf(f,
			"#if 0\nstatic const struct fw_data %s_FW_OLD[] = {\n{0xf0,0x0},\n"
			"{0x00,0x12345678},\n};\n#endif\n\n",
			upper);
		fprintf(f, "static const struct fw_data %s_FW[] = {\n", upper);
		pair_lines(f, pairs, n, "\n", a->form);
		fprintf(f, "};\n");
		if (form_is(a->form, "android-two")) {
			size_t n2 = silead_model_make_fw((em_u32)a->tag + 1, (em_u32)a->size,
							 pairs, sizeof(pairs));

			fprintf(f,
				"\n/* the other panel's */\nstatic const struct fw_data "
				"%s_FW_OTHER[] = {\n",
				upper);
			pair_lines(f, pairs, n2, "\n", NULL);
			fprintf(f, "};\n");
		}
		fprintf(f, "\n#endif\n");
	}
	if (fclose(f) != 0) {
		fprintf(stderr, "fwgen: %s: write failed\n", a->out);
		return 1;
	}
	return 0;
}

static int run_scrambled(const struct fwgen_args *a)
{
	static const char *const forms[] = { "wrong-key", NULL };
	size_t n = program(a, (em_u32)a->tag), len = 0, i;
	char *text = NULL;
	FILE *f;
	int r;

	if (!n || !form_ok(a->form, forms))
		return 2;
	f = open_memstream(&text, &len);
	if (!f)
		return 1;
	windows_header(f, n, NULL);
	if (fclose(f) != 0)
		return 1;
	for (i = 0; i < len; i++)
		text[i] = (char)(text[i] ^ (form_is(a->form, "wrong-key") ? 0x77 : 0x88));
	r = fwgen_write_file(a->out, text, len);
	free(text);
	return r ? 1 : 0;
}

static const struct fwgen_cmd silead_fw = {
	.name = "silead-fw",
	.usage = "fwgen silead-fw --tag SEED --size PAGES -o FILE\n",
	.run = run_fw,
};

static const struct fwgen_cmd silead_gslx = {
	.name = "silead-gslx",
	.usage =
		"fwgen silead-gslx --tag SEED --size PAGES [--chip MODEL] [--form F] -o FILE\n",
	.run = run_gslx,
};

static const struct fwgen_cmd silead_tscfg = {
	.name = "silead-tscfg",
	.usage =
		"fwgen silead-tscfg --tag SEED --size PAGES [--chip NAME] [--form F] -o FILE\n",
	.run = run_tscfg,
};

static const struct fwgen_cmd silead_scrambled = {
	.name = "silead-scrambled",
	.usage = "fwgen silead-scrambled --tag SEED --size PAGES [--form F] -o FILE\n",
	.run = run_scrambled,
};

const struct fwgen_family fwgen_family_silead = {
	.cmds = (const struct fwgen_cmd *const[]){ &silead_fw, &silead_gslx, &silead_tscfg,
						   &silead_scrambled, NULL },
	.notes =
		"silead-gslx F: reversed; truncated, bad-size, padding, version2.  silead-tscfg F:\n"
		"windows (default), android, android-two; bad-register, no-page,\n"
		"big-number, no-array.  silead-scrambled F: wrong-key.\n",
};
