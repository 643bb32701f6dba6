// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the firmware database's pure parsers: every input
 * goes to the manifest parser, the signature file parser and the key file
 * parser.  Beyond "no crash, no leak, no undefined behaviour" it checks
 * what an accepted manifest promises its users: ids, families and paths
 * obey the manifest rules, parsed versions format and re-parse to the same
 * value, version ranges are not empty, and a failure always explains
 * itself.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwdb.h"
#include "version.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                                       \
	do {                                                                              \
		if (!(cond)) {                                                            \
			fprintf(stderr, "fuzz_manifest: %s:%d: %s\n", __FILE__, __LINE__, \
				#cond);                                                   \
			abort();                                                          \
		}                                                                         \
	} while (0)

static void check_version_roundtrip(const char *family, const char *s,
				    const struct tf_version *v)
{
	char buf[TF_VERSION_STR_MAX];
	struct tf_version again;

	if (!s)
		return;
	CHECK(tf_version_format(v, buf, sizeof(buf)) == 0);
	CHECK(tf_version_parse(family, buf, &again) == 0);
	CHECK(tf_version_cmp(v, &again) == 0);
	CHECK(tf_version_parse(family, s, &again) == 0);
	CHECK(tf_version_cmp(v, &again) == 0);
}

static void check_blob(const struct tf_blob *b)
{
	const char *board = "acme,tablet-7";
	struct tf_version v;
	size_t i;

	CHECK(b->id && b->family && b->file && b->line > 0);
	CHECK(strcmp(b->id, "database") != 0);
	CHECK(tf_fwdb_path_valid(b->file));
	CHECK(b->size > 0 && b->size <= TF_FWDB_MAX_BLOB_SIZE);
	CHECK(b->n_hardware > 0 && b->n_hardware <= TF_FWDB_MAX_LIST);
	CHECK(b->n_boards <= TF_FWDB_MAX_LIST);
	for (i = 0; i < b->n_hardware; i++)
		CHECK(tf_blob_fits_hardware(b, b->hardware[i]));
	for (i = 0; i < b->n_boards; i++)
		CHECK(tf_blob_fits_board(b, (const char *const *)&b->boards[i], 1));
	if (b->n_boards == 0)
		CHECK(tf_blob_fits_board(b, &board, 1));
	if (b->type == TF_BLOB_FIRMWARE) {
		CHECK(b->version && !b->for_version);
		CHECK(!b->has_info_crc && !b->has_config_crc);
		check_version_roundtrip(b->family, b->version, &b->v_version);
	} else {
		CHECK(b->for_version);
		check_version_roundtrip(b->family, b->for_version, &b->v_for_version);
	}
	check_version_roundtrip(b->family, b->min_from, &b->v_min_from);
	check_version_roundtrip(b->family, b->max_from, &b->v_max_from);
	if (b->min_from && b->max_from)
		CHECK(tf_version_cmp(&b->v_min_from, &b->v_max_from) <= 0);
	if (b->min_from)
		CHECK(tf_blob_fits_from_version(b, &b->v_min_from));
	if (b->max_from)
		CHECK(tf_blob_fits_from_version(b, &b->v_max_from));
	if (b->type == TF_BLOB_FIRMWARE && tf_version_parse(b->family, b->version, &v) == 0)
		(void)tf_blob_fits_from_version(b, &v);
	(void)tf_blob_fits_from_version(b, NULL);
}

static void fuzz_manifest(const char *buf, size_t size)
{
	struct tf_err err = { 0 };
	struct tf_fwdb *db = NULL;
	size_t i, j;
	int r;

	r = tf_fwdb_parse_manifest(buf, size, "fuzz.ini", &db, &err);
	if (r < 0) {
		CHECK(db == NULL);
		CHECK(err.code == -r && err.msg[0] != '\0');
		CHECK(strncmp(err.msg, "fuzz.ini", 8) == 0 || r == -ENOMEM);
		return;
	}
	CHECK(db && !db->dir && db->dirfd == -1);
	CHECK(db->n_blobs <= TF_FWDB_MAX_BLOBS);
	for (i = 0; i < db->n_blobs; i++) {
		check_blob(&db->blobs[i]);
		CHECK(tf_fwdb_find(db, db->blobs[i].id) == &db->blobs[i]);
		for (j = 0; j < i; j++)
			CHECK(strcmp(db->blobs[i].id, db->blobs[j].id) != 0);
	}
	tf_fwdb_free(db);
}

static void fuzz_signatures(const char *buf, size_t size)
{
	struct tf_err err = { 0 };
	struct tf_sig_line *lines = NULL;
	size_t n = 0, i;

	if (tf_fwdb_parse_signatures(buf, size, "fuzz.sig", &lines, &n, &err) < 0) {
		CHECK(lines == NULL && n == 0 && err.msg[0] != '\0');
		return;
	}
	CHECK(n > 0);
	for (i = 0; i < n; i++)
		CHECK(tf_fwdb_key_id_valid(lines[i].key_id));
	free(lines);
}

static void fuzz_key(const char *buf, size_t size)
{
	struct tf_err err = { 0 };
	uint8_t pk[32], sk[64];

	(void)tf_fwdb_parse_key(buf, size, "fuzz.pub", pk, sizeof(pk), &err);
	(void)tf_fwdb_parse_key(buf, size, "fuzz.key", sk, sizeof(sk), &err);
}

static void fuzz_version(const char *buf, size_t size)
{
	char s[TF_VERSION_STR_MAX * 2];
	struct tf_version v;

	if (size >= sizeof(s) || memchr(buf, '\0', size))
		return;
	memcpy(s, buf, size);
	s[size] = '\0';
	if (tf_version_parse("mxt", s, &v) == 0)
		check_version_roundtrip("mxt", s, &v);
	if (tf_version_parse("goodix", s, &v) == 0)
		check_version_roundtrip("goodix", s, &v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A private copy, so reading one byte too far is caught by ASan. */
	char *buf = malloc(size ? size : 1);

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	fuzz_manifest(buf, size);
	fuzz_signatures(buf, size);
	fuzz_key(buf, size);
	fuzz_version(buf, size);
	free(buf);
	return 0;
}
