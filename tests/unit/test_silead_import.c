// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Silead imports (silead-import.c, silead_import_blob) and the db-add
 * facts of the Silead and Elan families: the emulated tablet's program as
 * fwgen writes it in gslx680_ts_acpi's GSLX container, Silead's Windows
 * GSL_TS_CFG.h, an Android driver's header and the scrambled
 * SileadTouch.fw becomes, byte for byte, the file silead_ts loads; broken
 * fixtures and damaged copies are refused naming the page or line; chip
 * names in files and file names map to silead_ts's ids.
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
#include "family/silead/silead.h"
#include "silead_model.h"

static uint8_t *built(const char *name, size_t *len)
{
	const char *b = getenv("TOUCHFW_BUILD");
	char path[512], *buf = NULL;

	snprintf(path, sizeof(path), "%s/fixtures/silead/%s", b ? b : "build", name);
	if (tf_read_file(path, 1 << 22, &buf, len) < 0)
		fail_msg("%s: missing (made by the build: make check-run)", path);
	return (uint8_t *)buf;
}

static void expect_same(const char *name, const char *part, enum silead_form form,
			const char *chip)
{
	size_t fl, sl;
	uint8_t *fw = built("tablet-1.fw", &fl), *src = built(name, &sl);
	struct silead_import im;
	struct tf_err err = { 0 };

	if (silead_import(src, sl, name, part, &im, &err) != 0)
		fail_msg("%s: %s", name, err.msg);
	assert_int_equal(im.form, form);
	assert_int_equal(im.len, fl);
	assert_memory_equal(im.fw, fw, fl);
	assert_int_equal(im.pages, 4);
	assert_int_equal(im.words, 4 * 32);
	assert_string_equal(im.chip, chip);
	silead_import_free(&im);
	free(fw);
	free(src);
}

static void test_golden_forms(void **state)
{
	(void)state;
	expect_same("tablet-1.gslx", NULL, SILEAD_FORM_GSLX, "gsl1680");
	expect_same("tablet-1-windows.h", NULL, SILEAD_FORM_TSCFG, "");
	expect_same("tablet-1-android.h", NULL, SILEAD_FORM_TSCFG, "gsl3676");
	expect_same("tablet-1-android-two.h", "GSL3676_FW", SILEAD_FORM_TSCFG, "gsl3676");
	expect_same("tablet-1-SileadTouch.fw", NULL, SILEAD_FORM_SCRAMBLED, "");
}

/* Pages in another order: other bytes, the same RAM (the chip model's
 * digest), pages in the file's order. */
static void test_gslx_reversed(void **state)
{
	static struct silead_model_ram ram;
	size_t fl, gl;
	uint8_t *fw = built("tablet-1.fw", &fl), *g = built("tablet-1-reversed.gslx", &gl);
	struct silead_import im;
	struct tf_err err = { 0 };
	em_u64 want, got;

	(void)state;
	assert_int_equal(silead_import(g, gl, "g", NULL, &im, &err), 0);
	assert_int_equal(im.len, fl);
	assert_memory_not_equal(im.fw, fw, fl);
	/* the first pair selects the last page */
	assert_int_equal(im.fw[0], 0xf0);
	assert_int_equal(im.fw[4], 3);
	assert_true(silead_model_fw_digest(fw, fl, &ram, &want));
	assert_true(silead_model_fw_digest(im.fw, im.len, &ram, &got));
	assert_true(want == got);
	silead_import_free(&im);
	free(fw);
	free(g);
}

/* The GSLX header's panel parameters are read (and only reported). */
static void test_gslx_panel(void **state)
{
	size_t len;
	uint8_t *g = built("tablet-1.gslx", &len);
	struct silead_import im;
	struct tf_err err = { 0 };

	(void)state;
	assert_int_equal(silead_import(g, len, "g", NULL, &im, &err), 0);
	assert_true(im.has_panel);
	assert_int_equal(im.panel.width, 1960);
	assert_int_equal(im.panel.height, 1500);
	assert_int_equal(im.panel.touches, 10);
	assert_true(im.panel.swapped);
	assert_false(im.panel.xflip);
	silead_import_free(&im);
	free(g);
}

static void expect_bad_buf(const uint8_t *d, size_t len, const char *part, int code,
			   const char *needle)
{
	struct silead_import im;
	struct tf_err err = { 0 };
	int r = silead_import(d, len, "f", part, &im, &err);

	if (r != -code || !strstr(err.msg, needle))
		fail_msg("got %d '%s', wanted %d with '%s'", r, err.msg, -code, needle);
	assert_null(im.fw);
}

static void expect_bad(const char *name, const char *part, int code, const char *needle)
{
	size_t len;
	uint8_t *d = built(name, &len);

	expect_bad_buf(d, len, part, code, needle);
	free(d);
}

static void test_broken_fixtures(void **state)
{
	(void)state;
	expect_bad("tablet-1-truncated.gslx", NULL, EBADMSG,
		   "452 bytes, but a GSLX file of 4 pages has 552");
	expect_bad("tablet-1-bad-size.gslx", NULL, EBADMSG,
		   "page 0 (byte 24): its size is beyond 128 bytes");
	expect_bad("tablet-1-padding.gslx", NULL, EBADMSG,
		   "page 0 (byte 24): data after its 124 bytes");
	expect_bad("tablet-1-version2.gslx", NULL, EBADMSG, "GSLX format version 2");
	expect_bad("tablet-1-bad-register.h", NULL, EBADMSG,
		   "line 14: {0x81, 0x9e3779b1}: register 0x81 is neither");
	expect_bad("tablet-1-no-page.h", NULL, EBADMSG,
		   "line 13: {0x0, 0x9e3779b1} writes a word before any page select");
	expect_bad("tablet-1-big-number.h", NULL, EBADMSG,
		   "line 15: GSL_TS_CFG: a number that is not a 32-bit value");
	expect_bad("tablet-1-no-array.h", NULL, EBADMSG, "no array of {register, value} pairs");
	expect_bad("tablet-1-wrong-key.fw", NULL, EMEDIUMTYPE, "not a Silead file");
	/* several arrays: one must be named */
	expect_bad("tablet-1-android-two.h", NULL, EBADMSG,
		   "2 arrays of {register, value} pairs (GSL3676_FW (line 28, 132 pairs), "
		   "GSL3676_FW_OTHER (line 164, 132 pairs)): name the one");
	expect_bad("tablet-1-android-two.h", "NOPE", EBADMSG,
		   "no array NOPE of {register, value} pairs; it has GSL3676_FW");
	/* the file silead_ts loads is not one to convert */
	expect_bad("tablet-1.fw", NULL, EMEDIUMTYPE, "not a Silead file to convert");
}

/* Damaged GSLX headers and pages, built from the golden file. */
static void test_gslx_damaged(void **state)
{
	size_t len;
	uint8_t *g = built("tablet-1.gslx", &len), *c = malloc(len + 200);

	(void)state;
	memcpy(c, g, len);
	c[20] = 0; /* 0 pages */
	expect_bad_buf(c, len, NULL, EBADMSG, "counts 0 pages");
	memcpy(c, g, len);
	c[21] = 1; /* 260 pages */
	expect_bad_buf(c, len, NULL, EBADMSG, "counts 260 pages");
	memcpy(c, g, len);
	c[24 + 132 + 1] = 1; /* page 1 at RAM page 0x101 */
	expect_bad_buf(c, len, NULL, EBADMSG, "page 1 (byte 156): its RAM page is beyond 0xFF");
	memcpy(c, g, len);
	c[24 + 2] = 126; /* not whole words */
	expect_bad_buf(c, len, NULL, EBADMSG, "not whole 32-bit words");
	memcpy(c, g, len);
	memset(c + len, 0, 10);
	expect_bad_buf(c, len + 10, NULL, EBADMSG, "bytes after its last page");
	expect_bad_buf(c, 20, NULL, EBADMSG, "shorter than a GSLX header");
	/* every page empty: sizes 0 and data zero */
	memcpy(c, g, len);
	for (size_t p = 0; p < 4; p++)
		memset(c + 24 + p * 132 + 2, 0, 130);
	expect_bad_buf(c, len, NULL, EBADMSG, "every page is empty");
	free(c);
	free(g);
}

static void expect_text(const char *text, const char *part, const uint8_t *want,
			size_t want_len)
{
	struct silead_import im;
	struct tf_err err = { 0 };

	if (silead_import((const uint8_t *)text, strlen(text), "t.h", part, &im, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(im.len, want_len);
	assert_memory_equal(im.fw, want, want_len);
	silead_import_free(&im);
}

/* What C allows and the headers use: comments, #if 0, number forms. */
static void test_text_forms(void **state)
{
	static const uint8_t two[] = {
		0xf0, 0, 0, 0, 0x05, 0, 0, 0, 0x04, 0, 0, 0, 0x10, 0, 0, 0,
	};
	static const uint8_t other[] = {
		0xf0, 0, 0, 0, 0x07, 0, 0, 0, 0x00, 0, 0, 0, 0x08, 0, 0, 0,
	};

	(void)state;
	expect_text("/* {0xf0,0x1}, {0x00, 0x2} */\n"
		    "// {0xf0, 0x9}\n"
		    "const char *s = \"{0xf0,3};\";\n"
		    "#if 0\n"
		    "static const int old[] = { {0xf0,0x1}, {0x00,0x1} };\n"
		    "#if 1\n#endif\n"
		    "#else\n"
		    "#define X 1\n"
		    "#endif\n"
		    "unsigned int id[] = { 1, 2, 3 };\n"
		    "struct fw_data GSLX680_FW[] = {\n"
		    "\t{ 0xF0 , 5u },\t/* page */\n"
		    "\t{ 04, 16UL, },\n"
		    "};\n",
		    NULL, two, sizeof(two));
	/* by name among several; an array of structs of three is no pair array */
	expect_text("int a[] = { {0xf0,5}, {4,16} };\n"
		    "int b[][3] = { {1,2,3} };\n"
		    "int c[2] = { {0xf0, 7}, {0, 8}, };\n",
		    "c", other, sizeof(other));
	expect_bad_buf((const uint8_t *)"int a[] = { {0xf0, 0x100}, {0, 1} };", 36, NULL,
		       EBADMSG, "page 0x100 is not a RAM page");
	expect_bad_buf((const uint8_t *)"int a[] = { {0xf0, 1}, {0x7e, 1} };", 35, NULL,
		       EBADMSG, "register 0x7E is neither");
	expect_bad_buf((const uint8_t *)"\xff\xfe{\0;\0}\0", 8, NULL, EBADMSG, "UTF-16");
	expect_bad_buf((const uint8_t *)"int a[] = { {0xf0, 1}, {0x0g, 1} };", 35, NULL,
		       EBADMSG, "not a 32-bit value");
	/* only page selects */
	expect_bad_buf((const uint8_t *)"int a[] = { {0xf0, 1} };", 24, NULL, EBADMSG,
		       "writes no word");
	/* prose with braces is not C with pairs */
	expect_bad_buf((const uint8_t *)"hello {world};", 14, NULL, EBADMSG, "no array");
}

/* More arrays than the message can list (a fuzzer's find: the list's
 * offset ran past its buffer): the message is cut, says so, and the
 * arrays it names are the first ones. */
static void test_many_arrays(void **state)
{
	char src[8192];
	size_t off = 0;
	int i;

	(void)state;
	for (i = 0; i < 12; i++)
		off += (size_t)snprintf(
			src + off, sizeof(src) - off,
			"int GSL_TS_CFG_DATA_FOR_PANEL_%02d[] = { {0xf0,1}, {0,1} };\n", i);
	expect_bad_buf((const uint8_t *)src, off, NULL, EBADMSG,
		       "12 arrays of {register, value} pairs (GSL_TS_CFG_DATA_FOR_PANEL_00 "
		       "(line 1, 2 pairs), GSL_TS_CFG_DATA_FOR_PANEL_01 (line 2, 2 pairs)");
	expect_bad_buf((const uint8_t *)src, off, NULL, EBADMSG, " ...): name the one");
	expect_bad_buf((const uint8_t *)src, off, "NOPE", EBADMSG,
		       "no array NOPE of {register, value} pairs; it has "
		       "GSL_TS_CFG_DATA_FOR_PANEL_00");
}

/* ------------------------------------------------------------ chip names */

static void test_chip_ids(void **state)
{
	static const struct {
		const char *chip, *id;
		bool exact;
	} cases[] = {
		{ "gsl1680", "gsl1680", true },	 { "gsl1688", "gsl1688", true },
		{ "gsl3670", "gsl3670", true },	 { "gsl3675", "gsl3675", true },
		{ "gsl3692", "gsl3692", true },	 { "gsl1686", "gsl1680", false },
		{ "gsl3676", "gsl3670", false }, { "gsl3693", "gsl3692", false },
		{ "gsl3680", "gsl1680", false }, { "gsl915", "gsl1680", false },
	};
	char id[16];
	bool exact;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(silead_chip_id(cases[i].chip, id, sizeof(id), &exact), 0);
		assert_string_equal(id, cases[i].id);
		assert_int_equal(exact, cases[i].exact);
	}
	assert_int_equal(silead_chip_id("gsl16800", id, sizeof(id), &exact), -EINVAL);
	assert_int_equal(silead_chip_id("gslx680", id, sizeof(id), &exact), -EINVAL);
	assert_int_equal(silead_chip_id("mssl1680", id, sizeof(id), &exact), -EINVAL);
}

static void test_chip_names(void **state)
{
	char chip[16], all[64];
	const char *s;

	(void)state;
	s = "static const struct fw_data GSL1680E_FW[] = {";
	assert_int_equal(silead_chip_names(s, strlen(s), chip, sizeof(chip), all, sizeof(all)),
			 1);
	assert_string_equal(chip, "gsl1680");
	s = "gsl3676-chuwi-hi8-air.fw";
	assert_int_equal(silead_chip_names(s, strlen(s), chip, sizeof(chip), all, sizeof(all)),
			 1);
	assert_string_equal(chip, "gsl3676");
	s = "GSL_3692 and gsl_3692";
	assert_int_equal(silead_chip_names(s, strlen(s), chip, sizeof(chip), all, sizeof(all)),
			 1);
	assert_string_equal(chip, "gsl3692");
	s = "GSLX680_FW mssl1680 gsl 1680 xgsl1680 gsl16800 GSL_TS_CFG";
	assert_int_equal(silead_chip_names(s, strlen(s), chip, sizeof(chip), all, sizeof(all)),
			 0);
	assert_string_equal(chip, "");
	s = "gsl1686 then gsl3676";
	assert_int_equal(silead_chip_names(s, strlen(s), chip, sizeof(chip), all, sizeof(all)),
			 2);
	assert_string_equal(chip, "");
	assert_string_equal(all, "gsl1686, gsl3676");
}

/* ------------------------------------------------------------ db add */

static void test_facts(void **state)
{
	const struct tf_family *fam = tf_family_by_name("silead");
	size_t len, ol;
	uint8_t *fw = built("tablet-1.fw", &len), *src, *out = NULL;
	struct tf_blob_facts f;
	struct tf_err err = { 0 };

	(void)state;
	assert_non_null(fam);
	assert_non_null(fam->blob_facts);
	assert_non_null(fam->import_blob);
	/* a plain file: its name may name the chip */
	assert_int_equal(fam->blob_facts(fw, len, "dir/firmware.fw", &f, &err), 0);
	assert_false(f.is_config);
	assert_int_equal(f.n_hardware, 0);
	assert_non_null(strstr(f.what, "4 pages, 128 words"));
	assert_int_equal(fam->blob_facts(fw, len, "/x/gsl3676-chuwi-vi8.fw", &f, &err), 0);
	assert_int_equal(f.n_hardware, 1);
	assert_string_equal(f.hardware[0], "gsl3670");
	assert_true(f.hardware_guessed);
	assert_non_null(strstr(f.note[0], "its file name names the chip gsl3676"));
	assert_int_equal(fam->blob_facts(fw, len - 3, "x.fw", &f, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "x.fw: "));
	/* imports: the content's chip name over the file name's */
	src = built("tablet-1.gslx", &len);
	assert_int_equal(fam->import_blob(src, len, "gsl3692-tab.gslx", NULL, &out, &ol, &f,
					  &err),
			 0);
	assert_string_equal(f.hardware[0], "gsl1680");
	assert_true(f.hardware_guessed);
	assert_non_null(strstr(f.source_format, "GSLX"));
	assert_int_equal(f.n_notes, 4); /* file name, converted, GSLX model, panel */
	assert_non_null(strstr(f.note[3], "1960x1500, 10 touch points, x/y swapped"));
	free(out);
	free(src);
	src = built("tablet-1-windows.h", &len);
	assert_int_equal(fam->import_blob(src, len, "GSL_TS_CFG.h", NULL, &out, &ol, &f, &err),
			 0);
	assert_int_equal(f.n_hardware, 0);
	assert_non_null(strstr(f.note[0], "array GSL_TS_CFG"));
	free(out);
	free(src);
	assert_int_equal(fam->import_blob(fw, 16 * 8, "f.fw", NULL, &out, &ol, &f, &err),
			 -EMEDIUMTYPE);
	free(fw);
}

static void test_elan_facts(void **state)
{
	const struct tf_family *ts = tf_family_by_name("elants");
	const struct tf_family *tp = tf_family_by_name("elantp");
	uint8_t *img = calloc(1, 132 * 4);
	struct tf_blob_facts f;
	struct tf_err err = { 0 };

	(void)state;
	assert_non_null(ts);
	assert_non_null(ts->blob_facts);
	assert_int_equal(ts->blob_facts(img, 132 * 4, "d/elants_i2c_2a1c.bin", &f, &err), 0);
	assert_int_equal(f.n_hardware, 1);
	assert_string_equal(f.hardware[0], "2a1c");
	assert_true(f.hardware_guessed);
	assert_int_equal(ts->blob_facts(img, 132 * 4, "elants_i2c_2A1C.bin", &f, &err), 0);
	assert_int_equal(f.n_hardware, 0);
	assert_int_equal(ts->blob_facts(img, 132 * 4, "elants_i2c_ffff.bin", &f, &err), 0);
	assert_int_equal(f.n_hardware, 0);
	assert_int_equal(ts->blob_facts(img, 131, "elants_i2c_2a1c.bin", &f, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "not a whole number of 132-byte pages"));
	assert_non_null(tp);
	assert_non_null(tp->blob_facts);
	/* no signature: refused as elan_i2c refuses it */
	assert_int_equal(tp->blob_facts(img, 132 * 4, "elan_i2c_18.0.bin", &f, &err), -EBADMSG);
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden_forms), cmocka_unit_test(test_gslx_reversed),
		cmocka_unit_test(test_gslx_panel),   cmocka_unit_test(test_broken_fixtures),
		cmocka_unit_test(test_gslx_damaged), cmocka_unit_test(test_text_forms),
		cmocka_unit_test(test_many_arrays),  cmocka_unit_test(test_chip_ids),
		cmocka_unit_test(test_chip_names),   cmocka_unit_test(test_facts),
		cmocka_unit_test(test_elan_facts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
