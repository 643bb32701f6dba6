// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The maXTouch .xcfg import (mxt-xcfg.c, mxt_import_blob): the .xcfg
 * files fwgen makes from the chip model -- maXTouch Studio's and
 * mxt-app's forms of the configuration `fwgen config` writes -- convert
 * to that OBP_RAW file byte for byte (Studio's) or but for the matrix
 * and object-count bytes the file does not give (mxt-app's); the
 * committed OBP_RAW fixtures, written out as .xcfg here and converted
 * back, come back as they were; the broken fixtures and damaged copies
 * of the golden ones are refused naming the line and what is wrong.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "family/family.h"
#include "family/mxt/mxt.h"

static char *file(const char *dir_env, const char *sub, const char *name, size_t *len)
{
	const char *top = getenv(dir_env);
	char path[512], *buf = NULL;

	snprintf(path, sizeof(path), "%s/%s/%s",
		 top ? top : (strcmp(dir_env, "TOUCHFW_BUILD") ? "." : "build"), sub, name);
	if (tf_read_file(path, 1 << 20, &buf, len) < 0)
		fail_msg("%s: missing (made by the build: make check-run)", path);
	return buf;
}

/* A fixture the build made (fwgen). */
static char *built(const char *name, size_t *len)
{
	return file("TOUCHFW_BUILD", "fixtures/mxt", name, len);
}

static int convert(const char *text, size_t len, char **raw, size_t *raw_len,
		   struct mxt_xcfg_info *info, struct tf_err *err)
{
	return mxt_xcfg_to_raw(text, len, "t.xcfg", raw, raw_len, info, err);
}

/* ------------------------------------------------------------ golden */

static void round_trip(const char *chip)
{
	char name[64], *x, *cfg, *raw = NULL;
	size_t xl, cl, rl;
	struct mxt_xcfg_info info;
	struct tf_err err = { 0 };

	snprintf(name, sizeof(name), "%s-studio.xcfg", chip);
	x = built(name, &xl);
	snprintf(name, sizeof(name), "%s.cfg", chip);
	cfg = built(name, &cl);
	assert_int_equal(convert(x, xl, &raw, &rl, &info, &err), 0);
	assert_true(info.has_matrix);
	assert_true(info.config_crc != 0);
	assert_int_equal(rl, cl);
	assert_memory_equal(raw, cfg, cl);
	free(raw);
	free(x);

	/* mxt-app's: no matrix size, object count: those bytes are 00 */
	snprintf(name, sizeof(name), "%s-mxt-app.xcfg", chip);
	x = built(name, &xl);
	assert_int_equal(convert(x, xl, &raw, &rl, &info, &err), 0);
	assert_false(info.has_matrix);
	assert_int_equal(rl, cl);
	/* line 2: "FF VV VV BB XX YY NN": bytes 4-6 are 00 */
	assert_memory_equal(raw, cfg, 11 + 12);
	assert_memory_equal(raw + 23, "00 00 00", 8);
	assert_memory_equal(raw + 31, cfg + 31, cl - 31);
	free(raw);
	free(x);
	free(cfg);
}

static void test_studio_and_mxt_app_mxt224e(void **state)
{
	(void)state;
	round_trip("mxt224e-2.1.AB");
}

static void test_studio_and_mxt_app_mxt1664s(void **state)
{
	(void)state;
	round_trip("mxt1664s-3.0.10");
}

/*
 * An OBP_RAW file as an .xcfg: each object at the next free address, its
 * bytes one a line -- written here from the parsed file, independently of
 * the converter.
 */
static char *to_xcfg(const struct mxt_cfg *c, size_t *len)
{
	char *out = NULL;
	size_t n = 0, i, k;
	unsigned addr = 200;
	FILE *f = open_memstream(&out, &n);

	assert_non_null(f);
	fprintf(f, "[COMMENTS]\nDate and time: test\n[VERSION_INFO_HEADER]\n");
	fprintf(f, "FAMILY_ID=%u\nVARIANT=%u\nVERSION=%u\nBUILD=%u\n", c->info[0], c->info[1],
		c->info[2], c->info[3]);
	fprintf(f, "MATRIX_X=%u\nMATRIX_Y=%u\nNO_OBJECTS=%u\n", c->info[4], c->info[5],
		c->info[6]);
	fprintf(f, "CHECKSUM=0x%06X\nINFO_BLOCK_CHECKSUM=0x%06X\n", c->config_crc, c->info_crc);
	fprintf(f, "[APPLICATION_INFO_HEADER]\nNAME=test\n");
	for (i = 0; i < c->n; i++) {
		fprintf(f, "[OBJECT_T%u INSTANCE %u]\nOBJECT_ADDRESS=%u\nOBJECT_SIZE=%u\n",
			c->obj[i].type, c->obj[i].instance, addr, c->obj[i].size);
		for (k = 0; k < c->obj[i].size; k++)
			fprintf(f, "%zu 1 B%zu=%u\n", k, k, c->obj[i].data[k]);
		addr += c->obj[i].size;
	}
	assert_int_equal(fclose(f), 0);
	*len = n;
	return out;
}

static void test_committed_obp_raw_round_trip(void **state)
{
	static const char *const names[] = { "mxt224e-1.0.AA.cfg", "mxt224e-2.1.AB.cfg" };

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		size_t len, xl, rl;
		char *txt = file("TOUCHFW_TOP", "tests/unit/fixtures/mxt", names[i], &len);
		char *x, *raw = NULL;
		struct mxt_cfg a, b;
		struct tf_err err = { 0 };

		assert_int_equal(mxt_cfg_parse(txt, len, &a, &err), 0);
		x = to_xcfg(&a, &xl);
		assert_int_equal(convert(x, xl, &raw, &rl, NULL, &err), 0);
		assert_int_equal(mxt_cfg_parse(raw, rl, &b, &err), 0);
		assert_memory_equal(a.info, b.info, sizeof(a.info));
		assert_int_equal(a.info_crc, b.info_crc);
		assert_int_equal(a.config_crc, b.config_crc);
		assert_int_equal(a.n, b.n);
		for (size_t k = 0; k < a.n; k++) {
			assert_int_equal(a.obj[k].type, b.obj[k].type);
			assert_int_equal(a.obj[k].instance, b.obj[k].instance);
			assert_int_equal(a.obj[k].size, b.obj[k].size);
			assert_memory_equal(a.obj[k].data, b.obj[k].data, a.obj[k].size);
		}
		/* the committed files are mxt-app's OBP_RAW layout: the same text */
		assert_int_equal(rl, len);
		assert_memory_equal(raw, txt, len);
		mxt_cfg_free(&a);
		mxt_cfg_free(&b);
		free(raw);
		free(x);
		free(txt);
	}
}

/* ------------------------------------------------------------ broken */

static void expect_bad(const char *text, size_t len, const char *needle)
{
	char *raw = (char *)1;
	size_t rl = 1;
	struct tf_err err = { 0 };
	int r = convert(text, len, &raw, &rl, NULL, &err);

	if (r != -EBADMSG || !strstr(err.msg, needle))
		fail_msg("got %d '%s', wanted -EBADMSG with '%s'", r, err.msg, needle);
	assert_null(raw);
	assert_int_equal(rl, 0);
}

static void test_broken_fixtures(void **state)
{
	static const struct {
		const char *form, *needle;
	} cases[] = {
		{ "overflow", "line 38: T7 instance 0: 256 does not fit in 1 byte" },
		{ "beyond", "T7 instance 0: bytes 3-4 are beyond its OBJECT_SIZE 4" },
		{ "overlap", "T8 instance 0 at 240 overlaps T7 instance 0 (line 31, 237-240)" },
		{ "encrypted", "line 15: ENCRYPTION=TRUE: an encrypted configuration" },
		{ "devices", "NO_DEVICES=2: a configuration for several devices" },
		{ "no-header", "no [VERSION_INFO_HEADER]" },
		{ "truncated", "the section of T8 instance 0 gives no OBJECT_ADDRESS" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char name[64], *x;
		size_t len;

		snprintf(name, sizeof(name), "mxt224e-2.1.AB-%s.xcfg", cases[i].form);
		x = built(name, &len);
		expect_bad(x, len, cases[i].needle);
		free(x);
	}
}

/* The golden mxt-app file with @from replaced by @to (first place). */
static char *edit(const char *from, const char *to, size_t *len)
{
	size_t xl;
	char *x = built("mxt224e-2.1.AB-mxt-app.xcfg", &xl), *at, *out;

	at = strstr(x, from);
	if (!at)
		fail_msg("'%s' not in the fixture", from);
	out = malloc(xl - strlen(from) + strlen(to) + 1);
	assert_non_null(out);
	memcpy(out, x, (size_t)(at - x));
	strcpy(out + (at - x), to);
	strcat(out, at + strlen(from));
	*len = strlen(out);
	free(x);
	return out;
}

static void test_damaged_copies(void **state)
{
	static const struct {
		const char *from, *to, *needle;
	} cases[] = {
		{ "INFO_BLOCK_CHECKSUM=0x70F330", "INFO_BLOCK_CHECKSUM=0x0",
		  "INFO_BLOCK_CHECKSUM is 0" },
		{ "INFO_BLOCK_CHECKSUM=0x70F330\n", "", "gives no INFO_BLOCK_CHECKSUM" },
		{ "FAMILY_ID=129", "FAMILY_ID=300", "FAMILY_ID=300 is not a decimal number" },
		{ "VARIANT=1\n", "VARIANT=1\nVARIANT=2\n", "VARIANT given twice" },
		{ "CHECKSUM=0x", "CHECKSUM_DEVICE_1=0x1\nCHECKSUM=0x", "CHECKSUM_DEVICE_1" },
		{ "CHECKSUM=0xE67ACA", "CHECKSUM=0xE67ACA\nCHECKSUM_DEVICE_0=0x1",
		  "CHECKSUM_DEVICE_0 0x000001 is not CHECKSUM" },
		{ "[GEN_POWERCONFIG_T7 INSTANCE 0]", "[GEN_POWERCONFIG_T7 INSTANCE 0",
		  "without its closing ']'" },
		{ "[GEN_POWERCONFIG_T7 INSTANCE 0]", "[GEN_POWERCONFIG INSTANCE 0]",
		  "no object type Tnn" },
		{ "[GEN_POWERCONFIG_T7 INSTANCE 0]", "[GEN_POWERCONFIG_T7 INSTANCES 0]",
		  "is not a section this file format has" },
		{ "[GEN_POWERCONFIG_T7 INSTANCE 0]", "[SPT_USERDATA_T38 INSTANCE 0]",
		  "T38 instance 0 twice (first on line" },
		{ "[GEN_POWERCONFIG_T7 INSTANCE 0]",
		  "[T68_SERIALDATACOMMAND_PAYLOAD_PWMPATTERN]", "a T68 serial-data payload" },
		{ "[GEN_POWERCONFIG_T7 INSTANCE 0]", "[DEVICE_1]", "for several devices" },
		{ "OBJECT_SIZE=4", "OBJECT_SIZE=0", "OBJECT_SIZE=0 is out of range" },
		{ "OBJECT_SIZE=4", "OBJECT_SIZE=257", "OBJECT_SIZE=257 is out of range" },
		{ "OBJECT_ADDRESS=237\nOBJECT_SIZE=4\n", "0 1 X=1\nOBJECT_ADDRESS=237\n",
		  "a value before OBJECT_ADDRESS and OBJECT_SIZE" },
		{ "OBJECT_SIZE=4\n", "OBJECT_SIZE=4\nOBJECT_SIZE=4\n",
		  "OBJECT_SIZE given twice" },
		{ "0 1 UNKNOWN[0]=32", "0 5 UNKNOWN[0]=32", "width '5' is not 1 to 4 bytes" },
		{ "0 1 UNKNOWN[0]=32", "0 1 UNKNOWN[0]=-129", "-129 does not fit in 1 byte" },
		{ "0 1 UNKNOWN[0]=32", "0 1 UNKNOWN[0]=abc", "'abc' is not a number" },
		{ "0 1 UNKNOWN[0]=32", "0 1 UNKNOWN[0]", "expected 'OFFSET WIDTH NAME=VALUE'" },
		{ "1 1 UNKNOWN[1]=16", "1 1 UNKNOWN[1]=16\n0 2 BOTH=5",
		  "byte 0 is 5 here and 32 on line" },
		{ "[COMMENTS]", "stray\n[COMMENTS]", "'stray' before the first [section]" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		char *x = edit(cases[i].from, cases[i].to, &len);

		expect_bad(x, len, cases[i].needle);
		free(x);
	}
}

/* What a file may differ in and still mean the same. */
static void test_tolerated(void **state)
{
	static const struct {
		const char *from, *to;
	} cases[] = {
		/* a byte given twice with the same value */
		{ "1 1 UNKNOWN[1]=16", "1 1 UNKNOWN[1]=16\n0 2 BOTH=4128" },
		/* hex values, blanks around '=' (Studio's fixtures have negative ones) */
		{ "2 1 UNKNOWN[2]=50", "2 1 UNKNOWN[2] = 0x32" },
		{ "FAMILY_ID=129", "FAMILY_ID = 129" },
		/* headers with keys OBP_RAW has no place for */
		{ "VARIANT=1", "VARIANT=1\nVENDOR_ID=3\nPRODUCT_ID=4" },
		{ "[COMMENTS]", "[FILE_INFO_HEADER]\nVERSION=3\nENCRYPTION=0\n[COMMENTS]" },
		{ "CHECKSUM=0xE67ACA", "CHECKSUM_DEVICE_0=0xE67ACA\nNO_DEVICES=1" },
	};
	size_t gl, cl, rl;
	char *golden = built("mxt224e-2.1.AB-mxt-app.xcfg", &gl), *want = NULL;
	struct tf_err err = { 0 };

	(void)state;
	assert_int_equal(convert(golden, gl, &want, &cl, NULL, &err), 0);
	free(golden);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		char *x = edit(cases[i].from, cases[i].to, &len), *raw = NULL;

		if (convert(x, len, &raw, &rl, NULL, &err) != 0)
			fail_msg("case %zu: %s", i, err.msg);
		assert_int_equal(rl, cl);
		assert_memory_equal(raw, want, cl);
		free(raw);
		free(x);
	}
	free(want);
}

/* CRLF lines, a UTF-8 BOM, trailing blanks; a NUL byte is not text. */
static void test_line_ends(void **state)
{
	size_t xl, cl, rl, i, n = 0;
	char *x = built("mxt224e-2.1.AB-mxt-app.xcfg", &xl), *want = NULL, *raw = NULL;
	char *crlf = malloc(2 * xl + 8);
	struct tf_err err = { 0 };

	(void)state;
	assert_int_equal(convert(x, xl, &want, &cl, NULL, &err), 0);
	memcpy(crlf, "\xEF\xBB\xBF", 3);
	n = 3;
	for (i = 0; i < xl; i++) {
		if (x[i] == '\n') {
			crlf[n++] = ' ';
			crlf[n++] = '\r';
		}
		crlf[n++] = x[i];
	}
	assert_true(mxt_xcfg_detect((const uint8_t *)crlf, n));
	assert_int_equal(convert(crlf, n, &raw, &rl, NULL, &err), 0);
	assert_int_equal(rl, cl);
	assert_memory_equal(raw, want, cl);
	free(raw);
	crlf[40] = '\0';
	expect_bad(crlf, n, "a NUL byte");
	free(crlf);
	free(want);
	free(x);
}

/* ------------------------------------------------------------ db add */

static void test_import_facts(void **state)
{
	size_t xl, cl, ol;
	char *x = built("mxt224e-2.1.AB-studio.xcfg", &xl);
	char *cfg = built("mxt224e-2.1.AB.cfg", &cl);
	uint8_t *out = NULL;
	struct tf_blob_facts f;
	struct tf_err err = { 0 };
	const struct tf_family *fam = tf_family_by_name("mxt");

	(void)state;
	assert_non_null(fam);
	assert_non_null(fam->import_blob);
	assert_int_equal(fam->import_blob((const uint8_t *)x, xl, "d/cfg.xcfg", NULL, &out, &ol,
					  &f, &err),
			 0);
	assert_int_equal(ol, cl);
	assert_memory_equal(out, cfg, cl);
	assert_true(f.is_config);
	assert_int_equal(f.n_hardware, 1);
	assert_string_equal(f.hardware[0], "129.1");
	assert_false(f.hardware_guessed);
	assert_string_equal(f.for_version, "2.1.AB");
	assert_string_equal(f.ext, "cfg");
	assert_non_null(strstr(f.source_format, ".xcfg"));
	assert_int_equal(f.n_notes, 1); /* converted; matrix given, CRC given */
	free(out);
	/* an OBP_RAW file is not one to convert */
	assert_int_equal(fam->import_blob((const uint8_t *)cfg, cl, "c.cfg", NULL, &out, &ol,
					  &f, &err),
			 -EMEDIUMTYPE);
	/* one configuration a file: --part means nothing */
	assert_int_equal(fam->import_blob((const uint8_t *)x, xl, "x.xcfg", "T7", &out, &ol, &f,
					  &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "--part"));
	free(x);
	/* mxt-app's: a note on the matrix bytes */
	x = built("mxt224e-2.1.AB-mxt-app.xcfg", &xl);
	assert_int_equal(fam->import_blob((const uint8_t *)x, xl, "x.xcfg", NULL, &out, &ol, &f,
					  &err),
			 0);
	assert_int_equal(f.n_notes, 2);
	assert_non_null(strstr(f.note[1], "MATRIX_X"));
	free(out);
	free(x);
	free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_studio_and_mxt_app_mxt224e),
		cmocka_unit_test(test_studio_and_mxt_app_mxt1664s),
		cmocka_unit_test(test_committed_obp_raw_round_trip),
		cmocka_unit_test(test_broken_fixtures),
		cmocka_unit_test(test_damaged_copies),
		cmocka_unit_test(test_tolerated),
		cmocka_unit_test(test_line_ends),
		cmocka_unit_test(test_import_facts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
