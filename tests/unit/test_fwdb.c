// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for agent/fwdb-*.c, fs.c and the `touchfw db` command: the
 * manifest parser on golden and corrupted fixtures
 * (tests/unit/fixtures/fwdb/), blob access (size, hash, symlinks, both open implementations),
 * the signature policy against fixture signatures made with openssl, and signing and key
 * generation round trips.  Tests that change files work on a copy of the
 * golden database in a temporary directory; binary blobs are generated at
 * run time.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <sodium.h>

#include "cli.h"
#include "cmd.h"
#include "exitcode.h"
#include "family/family.h"
#include "fwdb.h"
#include "util.h"

#define FIXTURES "tests/unit/fixtures/fwdb"

/* ------------------------------------------------------------ helpers */

static const char *top(void)
{
	const char *t = getenv("TOUCHFW_TOP");

	return t && *t ? t : ".";
}

static char *fixture(char *buf, size_t size, const char *rel)
{
	snprintf(buf, size, "%s/%s/%s", top(), FIXTURES, rel);
	return buf;
}

#define assert_contains(hay, needle)                                             \
	do {                                                                     \
		if (!strstr((hay), (needle)))                                    \
			fail_msg("'%s' does not contain '%s'", (hay), (needle)); \
	} while (0)

/* noinline: gcc 12 mistakes the returned buffer for the local pointer */
__attribute__((noinline)) static char *slurp(const char *path, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;

	if (tf_read_file(path, 1 << 24, &buf, &n) != 0)
		fail_msg("can not read %s", path);
	if (len)
		*len = n;
	return buf;
}

static void write_file(const char *dir, const char *rel, const void *data, size_t len)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		fail_msg("can not create %s: %s", path, strerror(errno));
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

static void write_text(const char *dir, const char *rel, const char *text)
{
	write_file(dir, rel, text, strlen(text));
}

static void copy_tree(const char *src, const char *dst)
{
	char s[PATH_MAX], d[PATH_MAX];
	struct dirent *e;
	struct stat st;
	DIR *dir = opendir(src);

	assert_non_null(dir);
	if (mkdir(dst, 0755) < 0 && errno != EEXIST)
		fail_msg("mkdir %s: %s", dst, strerror(errno));
	while ((e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(s, sizeof(s), "%s/%s", src, e->d_name);
		snprintf(d, sizeof(d), "%s/%s", dst, e->d_name);
		assert_int_equal(lstat(s, &st), 0);
		if (S_ISDIR(st.st_mode)) {
			copy_tree(s, d);
		} else {
			size_t len;
			char *buf = slurp(s, &len);

			write_file(dst, e->d_name, buf, len);
			free(buf);
		}
	}
	closedir(dir);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void rm_rf(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* A scratch copy of the golden database: root/db, and root for extras. */
struct tdb {
	char root[PATH_MAX];
	char db[PATH_MAX + 8];
	char keys[PATH_MAX];
};

static int tdb_setup(void **state)
{
	struct tdb *t = calloc(1, sizeof(*t));
	const char *tmp = getenv("TMPDIR");
	char good[PATH_MAX];

	if (!t)
		return -1;
	snprintf(t->root, sizeof(t->root), "%s/touchfw-fwdb-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(t->root)) {
		free(t);
		return -1;
	}
	snprintf(t->db, sizeof(t->db), "%s/db", t->root);
	copy_tree(fixture(good, sizeof(good), "good"), t->db);
	fixture(t->keys, sizeof(t->keys), "keys");
	*state = t;
	return 0;
}

static int tdb_teardown(void **state)
{
	struct tdb *t = *state;

	rm_rf(t->root);
	free(t);
	return 0;
}

static int load(const char *dir, enum tf_sig_policy sig, const char *keys, struct tf_fwdb **db,
		struct tf_err *err)
{
	struct tf_fwdb_opts o = { .sig = sig, .keys_dir = keys };

	tf_err_clear(err);
	return tf_fwdb_load(dir, &o, db, err);
}

static void use_sig_fixture(const struct tdb *t, const char *name)
{
	char path[PATH_MAX], rel[64];
	size_t len;
	char *buf;

	snprintf(rel, sizeof(rel), "sig/%s", name);
	buf = slurp(fixture(path, sizeof(path), rel), &len);
	write_file(t->db, TF_FWDB_SIGNATURE, buf, len);
	free(buf);
}

static void expect_load_error(const struct tdb *t, enum tf_sig_policy sig, const char *keys,
			      int code, const char *substr)
{
	struct tf_fwdb *db = (struct tf_fwdb *)1;
	struct tf_err err;

	assert_int_equal(load(t->db, sig, keys, &db, &err), code);
	assert_null(db);
	assert_contains(err.msg, substr);
}

static int parse_text(const char *text, struct tf_fwdb **db, struct tf_err *err)
{
	tf_err_clear(err);
	return tf_fwdb_parse_manifest(text, strlen(text), "inline.ini", db, err);
}

/* Parse a corrupted fixture: -EBADMSG, "name:LINE:" and @substr. */
static void expect_manifest_error(const char *rel, unsigned line, const char *substr)
{
	char path[PATH_MAX], name[128], want[160];
	struct tf_fwdb *db = (struct tf_fwdb *)1;
	struct tf_err err = { 0 };
	size_t len;
	char *buf;
	int r;

	snprintf(name, sizeof(name), "%s", rel);
	buf = slurp(fixture(path, sizeof(path), rel), &len);
	r = tf_fwdb_parse_manifest(buf, len, name, &db, &err);
	free(buf);
	if (r != -EBADMSG)
		fail_msg("%s: expected -EBADMSG, got %d (%s)", rel, r, err.msg);
	assert_null(db);
	if (line)
		snprintf(want, sizeof(want), "%s:%u: ", name, line);
	else
		snprintf(want, sizeof(want), "%s: ", name);
	assert_contains(err.msg, want);
	assert_contains(err.msg, substr);
}

static void expect_text_error(const char *text, unsigned line, const char *substr)
{
	struct tf_fwdb *db = (struct tf_fwdb *)1;
	struct tf_err err;
	char want[64];

	assert_int_equal(parse_text(text, &db, &err), -EBADMSG);
	assert_null(db);
	snprintf(want, sizeof(want), "inline.ini:%u: ", line);
	assert_contains(err.msg, want);
	assert_contains(err.msg, substr);
}

#define HDR "[database]\nformat = 1\n"
#define FW_BODY                                             \
	"type = firmware\nfamily = mxt\nhardware = 129.1\n" \
	"version = 2.1.AB\nfile = fw.bin\n"                 \
	"sha256 = "                                         \
	"0000000000000000000000000000000000000000000000000000000000000000\n"

/* ------------------------------------------------------------ golden */

static void test_good_manifest_parses_every_key(void **state)
{
	char path[PATH_MAX];
	struct tf_fwdb *db;
	struct tf_err err = { 0 };
	const struct tf_blob *b;
	size_t len;
	char *buf;

	(void)state;
	buf = slurp(fixture(path, sizeof(path), "good/manifest.ini"), &len);
	assert_int_equal(tf_fwdb_parse_manifest(buf, len, "good", &db, &err), 0);
	free(buf);
	assert_null(db->dir);
	assert_int_equal(db->dirfd, -1);
	assert_string_equal(db->description, "touchfw unit test database");
	assert_int_equal(db->n_blobs, 4);

	b = &db->blobs[0];
	assert_string_equal(b->id, "mxt224e-fw-2.1");
	assert_int_equal(b->type, TF_BLOB_FIRMWARE);
	assert_string_equal(b->family, "mxt");
	assert_int_equal(b->n_hardware, 2);
	assert_string_equal(b->hardware[0], "129.1");
	assert_string_equal(b->hardware[1], "129.2");
	assert_string_equal(b->version, "2.1.AB");
	assert_int_equal(b->v_version.part[2], 0xAB);
	assert_string_equal(b->file, "mxt224e/fw-2.1.AB.fw");
	assert_int_equal(b->size, 116);
	assert_int_equal(b->sha256[0], 0x94);
	assert_int_equal(b->sha256[31], 0x05);
	assert_string_equal(b->min_from, "1.0.00");
	assert_string_equal(b->max_from, "2.1.AA");
	assert_int_equal(b->n_boards, 0);
	assert_false(b->has_info_crc);
	assert_int_equal(b->line, 11);

	b = &db->blobs[1];
	assert_int_equal(b->sha256[0], 0x51);
	assert_null(b->min_from);

	b = &db->blobs[2];
	assert_string_equal(b->id, "mxt224e-cfg-tablet7");
	assert_int_equal(b->type, TF_BLOB_CONFIG);
	assert_string_equal(b->for_version, "2.1.AB");
	assert_string_equal(b->version, "tablet7-r3");
	assert_int_equal(b->n_boards, 3);
	assert_string_equal(b->boards[0], "acme,tablet-7");
	assert_string_equal(b->boards[2], "acme,tablet-7c");
	assert_true(b->has_info_crc);
	assert_int_equal(b->info_crc, 0x1A2B3C);
	assert_true(b->has_config_crc);
	assert_int_equal(b->config_crc, 0x4D5E6F);

	b = &db->blobs[3];
	assert_string_equal(b->family, "acme");
	assert_ptr_equal(b->v_for_version.scheme, &tf_version_dotted);
	assert_int_equal(b->n_boards, 0);
	assert_null(b->version);
	tf_fwdb_free(db);
}

static void test_good_database_loads_with_signature_required(void **state)
{
	char dir[PATH_MAX], keys[PATH_MAX];
	struct tf_fwdb *db;
	struct tf_err err;
	struct stat st;

	(void)state;
	fixture(dir, sizeof(dir), "good");
	fixture(keys, sizeof(keys), "keys");
	assert_int_equal(load(dir, TF_SIG_REQUIRED, keys, &db, &err), 0);
	assert_true(db->is_signed);
	assert_int_equal(db->sig_state, TF_SIG_STATE_VERIFIED);
	assert_string_equal(db->signer, "fixture-2024");
	assert_int_equal(db->n_sig_lines, 1);
	assert_int_equal(db->sig_lines[0].result, TF_SIG_LINE_VERIFIED);
	assert_string_equal(db->dir, dir);
	assert_true(db->dirfd >= 0);
	assert_int_equal(stat(strcat(dir, "/manifest.ini"), &st), 0);
	assert_int_equal(db->ino, st.st_ino);
	assert_int_equal(db->manifest_size, st.st_size);
	tf_fwdb_free(db);
}

static void test_good_blobs_read_back_with_size_and_hash_checked(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX + 300];
	struct tf_fwdb *db;
	struct tf_err err;
	uint8_t *data;
	size_t i, len, flen;
	char *want;

	(void)state;
	fixture(dir, sizeof(dir), "good");
	assert_int_equal(load(dir, TF_SIG_OFF, NULL, &db, &err), 0);
	for (i = 0; i < db->n_blobs; i++) {
		const struct tf_blob *b = &db->blobs[i];

		if (tf_fwdb_read_blob(db, b, &data, &len, &err) != 0)
			fail_msg("%s: %s", b->id, err.msg);
		snprintf(path, sizeof(path), "%s/%s", dir, b->file);
		want = slurp(path, &flen);
		assert_int_equal(len, flen);
		assert_memory_equal(data, want, len);
		free(want);
		free(data);
		assert_int_equal(tf_fwdb_verify_blob(db, b, &err), 0);
	}
	tf_fwdb_free(db);
}

static struct tf_fwdb *parse_good(void)
{
	char path[PATH_MAX];
	struct tf_fwdb *db;
	struct tf_err err;
	size_t len;
	char *buf = slurp(fixture(path, sizeof(path), "good/manifest.ini"), &len);

	assert_int_equal(tf_fwdb_parse_manifest(buf, len, "good", &db, &err), 0);
	free(buf);
	return db;
}

static void test_find_returns_blob_by_id_or_null(void **state)
{
	struct tf_fwdb *db = parse_good();

	(void)state;
	assert_ptr_equal(tf_fwdb_find(db, "gt911-cfg-3"), &db->blobs[3]);
	assert_null(tf_fwdb_find(db, "gt911-cfg"));
	assert_null(tf_fwdb_find(db, "database"));
	tf_fwdb_free(db);
}

static void test_fits_hardware_matches_listed_ids_only(void **state)
{
	struct tf_fwdb *db = parse_good();
	const struct tf_blob *b = tf_fwdb_find(db, "mxt224e-fw-2.1");

	(void)state;
	assert_true(tf_blob_fits_hardware(b, "129.1"));
	assert_true(tf_blob_fits_hardware(b, "129.2"));
	assert_false(tf_blob_fits_hardware(b, "129.3"));
	assert_false(tf_blob_fits_hardware(b, "129"));
	assert_false(tf_blob_fits_hardware(b, NULL));
	tf_fwdb_free(db);
}

static void test_fits_board_empty_list_means_any_board(void **state)
{
	struct tf_fwdb *db = parse_good();
	const char *boards[] = { "other,board" };

	(void)state;
	assert_true(tf_blob_fits_board(tf_fwdb_find(db, "gt911-cfg-3"), boards, 1));
	assert_true(tf_blob_fits_board(tf_fwdb_find(db, "gt911-cfg-3"), NULL, 0));
	tf_fwdb_free(db);
}

static void test_fits_board_matches_any_listed_board(void **state)
{
	struct tf_fwdb *db = parse_good();
	const struct tf_blob *b = tf_fwdb_find(db, "mxt224e-cfg-tablet7");
	const char *match[] = { "acme,generic", "acme,tablet-7c" };
	const char *other[] = { "acme,tablet-8", "acme,tablet" };

	(void)state;
	assert_true(tf_blob_fits_board(b, match, 2));
	assert_false(tf_blob_fits_board(b, other, 2));
	assert_false(tf_blob_fits_board(b, NULL, 0));
	tf_fwdb_free(db);
}

static void test_fits_from_version_honours_min_and_max(void **state)
{
	struct tf_fwdb *db = parse_good();
	const struct tf_blob *ranged = tf_fwdb_find(db, "mxt224e-fw-2.1");
	const struct tf_blob *open = tf_fwdb_find(db, "mxt224e-fw-2.0");
	struct tf_version v;

	(void)state;
	assert_int_equal(tf_version_parse("mxt", "2.0.FF", &v), 0);
	assert_true(tf_blob_fits_from_version(ranged, &v));
	assert_int_equal(tf_version_parse("mxt", "2.1.AA", &v), 0);
	assert_true(tf_blob_fits_from_version(ranged, &v));
	assert_int_equal(tf_version_parse("mxt", "2.1.AB", &v), 0);
	assert_false(tf_blob_fits_from_version(ranged, &v));
	assert_int_equal(tf_version_parse("mxt", "0.9.FF", &v), 0);
	assert_false(tf_blob_fits_from_version(ranged, &v));
	assert_true(tf_blob_fits_from_version(open, &v));
	assert_false(tf_blob_fits_from_version(ranged, NULL));
	assert_true(tf_blob_fits_from_version(open, NULL));
	tf_fwdb_free(db);
}

static void test_changed_detects_rewritten_manifest(void **state)
{
	struct tdb *t = *state;
	struct tf_fwdb *db;
	struct tf_err err;
	char path[PATH_MAX + 32], *buf;
	size_t len;

	assert_int_equal(load(t->db, TF_SIG_OFF, NULL, &db, &err), 0);
	assert_int_equal(tf_fwdb_changed(db), 0);
	snprintf(path, sizeof(path), "%s/manifest.ini", t->db);
	buf = slurp(path, &len);
	/* Replace it the way packages do: a new file renamed over it. */
	write_file(t->root, "new.ini", buf, len);
	free(buf);
	snprintf(path, sizeof(path), "%s/new.ini", t->root);
	{
		char dst[PATH_MAX + 32];

		snprintf(dst, sizeof(dst), "%s/manifest.ini", t->db);
		assert_int_equal(rename(path, dst), 0);
	}
	assert_int_equal(tf_fwdb_changed(db), 1);
	tf_fwdb_free(db);
}

/* ------------------------------------------------------------ corrupted */

/* source_sha256: the file `db add` converted the blob from. */
static void test_source_sha256(void **state)
{
	struct tf_fwdb *db = NULL;
	struct tf_err err;

	(void)state;
	assert_int_equal(
		parse_text(HDR
			   "[fw]\n" FW_BODY "size = 1\nsource_sha256 = "
			   "0f000000000000000000000000000000000000000000000000000000000000a1\n",
			   &db, &err),
		0);
	assert_true(db->blobs[0].has_source_sha256);
	assert_int_equal(db->blobs[0].source_sha256[0], 0x0f);
	assert_int_equal(db->blobs[0].source_sha256[31], 0xa1);
	tf_fwdb_free(db);
	assert_int_equal(parse_text(HDR "[fw]\n" FW_BODY "size = 1\n", &db, &err), 0);
	assert_false(db->blobs[0].has_source_sha256);
	tf_fwdb_free(db);
	expect_text_error(HDR "[fw]\n" FW_BODY "size = 1\nsource_sha256 = 12\n", 11,
			  "[fw] source_sha256: must be 64 hex digits");
}

static void test_manifest_missing_database_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/no-database.ini", 0, "no [database] section");
}

static void test_manifest_wrong_format_is_error_with_line(void **state)
{
	(void)state;
	expect_manifest_error("bad/format-2.ini", 3,
			      "[database] format: format 2 is not supported");
}

static void test_manifest_missing_format_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/format-missing.ini", 2, "missing required key 'format'");
}

static void test_manifest_unknown_key_is_error_with_line(void **state)
{
	(void)state;
	expect_manifest_error("bad/unknown-key.ini", 9, "[fw] unknown key 'verison'");
}

static void test_manifest_duplicate_key_is_error_with_both_lines(void **state)
{
	(void)state;
	expect_manifest_error("bad/duplicate-key.ini", 13,
			      "[fw] sha256: duplicate key (first on line 12)");
}

static void test_manifest_duplicate_section_is_error_with_both_lines(void **state)
{
	(void)state;
	expect_manifest_error("bad/duplicate-section.ini", 14,
			      "duplicate section [fw] (first on line 5)");
}

static void test_manifest_duplicate_database_section_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/duplicate-database.ini", 5,
			      "duplicate section [database] (first on line 2)");
}

static void test_manifest_bad_hex_in_sha256_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/bad-hex-sha256.ini", 12, "sha256: 'g' is not a hex digit");
}

static void test_manifest_short_sha256_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/short-sha256.ini", 12, "must be 64 hex digits, found 63");
}

static void test_manifest_size_with_unit_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/bad-size.ini", 11, "size: '12k' is not a decimal number");
}

static void test_manifest_hex_size_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/hex-size.ini", 11, "size: '0x100' is not a decimal number");
}

static void test_manifest_zero_or_zero_padded_size_is_error(void **state)
{
	(void)state;
	expect_text_error(HDR "[fw]\n" FW_BODY "size = 0\n", 10, "a size is not 0");
	expect_text_error(HDR "[fw]\n" FW_BODY "size = 0100\n", 10, "no leading zeros");
	expect_text_error(HDR "[fw]\n" FW_BODY "size = -1\n", 10, "not a decimal number");
}

static void test_manifest_size_above_limit_is_error(void **state)
{
	(void)state;
	expect_text_error(HDR "[fw]\n" FW_BODY "size = 67108865\n", 10,
			  "larger than the limit");
	expect_text_error(HDR "[fw]\n" FW_BODY "size = 99999999999999999999999999\n", 10,
			  "larger than the limit");
}

static void test_manifest_crc_without_0x_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/bad-crc.ini", 13,
			      "info_crc: '1A2B3C' is not 0x followed by");
}

static void test_manifest_mxt_crc_wider_than_24_bits_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/wide-mxt-crc.ini", 13,
			      "config_crc: 0x1000000 is wider than an mxt "
			      "CRC24");
}

static void test_manifest_path_with_dotdot_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/path-dotdot.ini", 10, "file: '../x' must not contain '..'");
}

static void test_manifest_absolute_path_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/path-absolute.ini", 10,
			      "file: '/etc/passwd' must be relative");
}

static void test_manifest_path_with_empty_component_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/path-empty-component.ini", 10,
			      "file: 'a//b' has an empty component");
}

static void test_manifest_path_with_inner_dotdot_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/path-dotdot-inside.ini", 10, "must not contain '..'");
}

static void test_manifest_path_with_trailing_slash_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/path-trailing-slash.ini", 10, "has an empty component");
}

static void test_manifest_path_with_dot_component_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/path-dot.ini", 10, "must not contain a '.' component");
}

static void test_manifest_path_with_odd_characters_is_error(void **state)
{
	(void)state;
	expect_text_error(HDR "[fw]\ntype = firmware\nfile = a\\b\n", 5,
			  "file: 'a\\b' may only contain");
	expect_text_error(HDR "[fw]\ntype = firmware\nfile = a b\n", 5,
			  "file: 'a b' may only contain");
	expect_text_error(HDR "[fw]\ntype = firmware\nfile = a\\..\\b\n", 5,
			  "may only contain");
}

static void test_manifest_missing_required_key_names_section(void **state)
{
	(void)state;
	expect_manifest_error("bad/missing-file-key.ini", 5,
			      "[fw] missing required key 'file'");
}

static void test_manifest_firmware_without_version_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/firmware-without-version.ini", 5,
			      "[fw] missing required key 'version'");
}

static void test_manifest_config_without_for_version_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/config-without-for-version.ini", 5,
			      "[cfg] missing required key 'for_version'");
}

/* Issue 15 item 11: a firmware's bootloader_id (mxt: decimal 0 to 31). */
static void test_manifest_bootloader_id(void **state)
{
	struct tf_fwdb *db = NULL;
	struct tf_err err;

	(void)state;
	assert_int_equal(parse_text(HDR "[fw]\n" FW_BODY "size = 10\nbootloader_id = 19\n", &db,
				    &err),
			 0);
	assert_non_null(db);
	assert_string_equal(db->blobs[0].bootloader_id, "19");
	tf_fwdb_free(db);
	expect_text_error(HDR "[fw]\n" FW_BODY "size = 10\nbootloader_id = 32\n", 11,
			  "bootloader_id: '32' is not an mxt bootloader id");
	expect_text_error(HDR "[fw]\n" FW_BODY "size = 10\nbootloader_id = 07\n", 11,
			  "is not an mxt bootloader id");
	expect_text_error(HDR
			  "[cfg]\ntype = config\nfamily = mxt\nhardware = 129.1\n"
			  "for_version = 2.1.AB\nfile = c.cfg\nsize = 10\nsha256 = "
			  "0000000000000000000000000000000000000000000000000000000000000000\n"
			  "bootloader_id = 10\n",
			  11, "bootloader_id: only firmware blobs have this key");
}

static void test_manifest_config_only_key_on_firmware_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/firmware-with-info-crc.ini", 13,
			      "info_crc: only config blobs have this key");
}

/* info_crc is the mxt family's key (tf_family.manifest_keys): another
 * family's section is refused by the parser, naming its line. */
static void test_manifest_family_owned_key_in_another_family_is_error(void **state)
{
	size_t i;

	(void)state;
	assert_true(tf_family_has_manifest_key(tf_family_by_name("mxt"), "info_crc"));
	for (i = 0; tf_families[i]; i++)
		if (strcmp(tf_families[i]->ids->name, "mxt"))
			assert_false(tf_family_has_manifest_key(tf_families[i], "info_crc"));
	expect_text_error(HDR
			  "[gt911-cfg-72]\ntype = config\nfamily = goodix\nhardware = 911\n"
			  "for_version = 0x1060\nversion = 72\nfile = c.bin\nsize = 186\n"
			  "info_crc = 0x1A2B3C\nsha256 = "
			  "0000000000000000000000000000000000000000000000000000000000000000\n",
			  11,
			  "info_crc: a goodix blob has no such key (only mxt blobs have it)");
}

static void test_manifest_malformed_mxt_version_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/bad-mxt-version.ini", 9,
			      "version: '2.1.ABC' is not a version in the mxt "
			      "scheme: "
			      "MAJOR.MINOR.BUILD");
}

static void test_manifest_non_decimal_mxt_hardware_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/bad-mxt-hardware.ini", 8,
			      "hardware: '0x81.1' is not an mxt hardware id");
}

static void test_manifest_min_from_above_max_from_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/min-above-max.ini", 14,
			      "max_from: 1.9.FF is below min_from 2.0.00");
}

static void test_manifest_key_outside_section_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/key-outside-section.ini", 2, "key outside any section");
}

static void test_manifest_indented_line_after_single_value_key_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/continued-single-value.ini", 12,
			      "indented line continues 'file'");
}

static void test_manifest_bad_type_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/bad-type.ini", 6,
			      "type: 'firmwre' is neither 'firmware' nor "
			      "'config'");
}

static void test_manifest_bad_section_name_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/bad-section-name.ini", 5,
			      "section name 'mxt fw' may only contain");
}

static void test_manifest_text_after_section_header_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/text-after-section.ini", 2,
			      "unexpected text after [database]");
}

static void test_manifest_colon_separator_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/colon-separator.ini", 3, "expected 'key = value'");
}

static void test_manifest_uppercase_family_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/bad-family.ini", 7, "family: 'MXT' is not a family name");
}

static void test_manifest_bad_board_id_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/bad-board.ini", 13,
			      "boards: 'acme/tablet-8' is not a valid board id");
}

static void test_manifest_empty_required_value_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/empty-value.ini", 7, "family: empty value");
}

static void test_manifest_line_longer_than_inih_limit_is_error(void **state)
{
	(void)state;
	expect_manifest_error("bad/long-line.ini", 14, "line longer than");
}

static void test_manifest_nul_byte_is_error_with_line(void **state)
{
	static const char text[] = HDR "description = a\0b\n";
	struct tf_fwdb *db;
	struct tf_err err = { 0 };

	(void)state;
	assert_int_equal(tf_fwdb_parse_manifest(text, sizeof(text) - 1, "nul", &db, &err),
			 -EBADMSG);
	assert_contains(err.msg, "nul:3: control character 0x00 in column 16");
}

static void test_manifest_control_character_is_error(void **state)
{
	(void)state;
	expect_text_error(HDR "description = a\033b\n", 3, "control character 0x1B");
	expect_text_error(HDR "description = a\rb\n", 3, "control character 0x0D");
}

static void test_manifest_crlf_line_ends_parse(void **state)
{
	struct tf_fwdb *db;
	struct tf_err err;

	(void)state;
	assert_int_equal(parse_text("[database]\r\nformat = 1\r\n"
				    "description = dos\r\n",
				    &db, &err),
			 0);
	assert_string_equal(db->description, "dos");
	tf_fwdb_free(db);
}

static void test_manifest_utf8_bom_is_skipped(void **state)
{
	struct tf_fwdb *db;
	struct tf_err err;

	(void)state;
	assert_int_equal(parse_text("\xEF\xBB\xBF" HDR, &db, &err), 0);
	tf_fwdb_free(db);
}

static void test_manifest_without_final_newline_parses(void **state)
{
	struct tf_fwdb *db;
	struct tf_err err;

	(void)state;
	assert_int_equal(parse_text("[database]\nformat = 1", &db, &err), 0);
	tf_fwdb_free(db);
}

static void test_manifest_empty_database_has_no_blobs(void **state)
{
	struct tf_fwdb *db;
	struct tf_err err;

	(void)state;
	assert_int_equal(parse_text(HDR, &db, &err), 0);
	assert_int_equal(db->n_blobs, 0);
	assert_null(db->description);
	tf_fwdb_free(db);
}

static void test_manifest_empty_input_is_missing_database(void **state)
{
	struct tf_fwdb *db;
	struct tf_err err = { 0 };

	(void)state;
	assert_int_equal(tf_fwdb_parse_manifest("", 0, "empty", &db, &err), -EBADMSG);
	assert_contains(err.msg, "empty: no [database] section");
}

static void test_manifest_section_ids_longer_than_inih_keeps_are_distinct(void **state)
{
	/* libinih keeps 49 characters of a section name; ids differing
	 * after that must still be two blobs, not a merged one. */
	const char *text = HDR
		"[aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-1]\n" FW_BODY
		"size = 4\n"
		"[aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-2]\n" FW_BODY
		"size = 4\n";
	struct tf_fwdb *db;
	struct tf_err err;

	(void)state;
	assert_int_equal(parse_text(text, &db, &err), 0);
	assert_int_equal(db->n_blobs, 2);
	tf_fwdb_free(db);
}

static void test_manifest_section_id_too_long_is_error(void **state)
{
	(void)state;
	expect_text_error(HDR "[a123456789012345678901234567890123456789012345"
			      "67890123456789012345]\n",
			  3, "a section name has 1 to 64 characters");
	expect_text_error(HDR "[]\n", 3, "a section name has 1 to 64");
	expect_text_error(HDR "[fw\n", 3, "section header without ']'");
}

static void test_manifest_duplicate_list_entry_is_error(void **state)
{
	(void)state;
	expect_text_error(HDR "[fw]\ntype = firmware\nhardware = 129.1\n"
			      "   129.1\n",
			  6, "hardware: hardware id '129.1' listed twice");
}

static void test_manifest_other_family_uses_dotted_versions(void **state)
{
	struct tf_fwdb *db;
	struct tf_err err;
	const char *body = "type = firmware\nfamily = acme\nhardware = 911\n"
			   "file = f\nsize = 1\nsha256 = "
			   "00000000000000000000000000000000000000000000000000"
			   "00000000000000\n";
	char text[512];

	(void)state;
	snprintf(text, sizeof(text), HDR "[g]\n%sversion = 4.96\n", body);
	assert_int_equal(parse_text(text, &db, &err), 0);
	assert_ptr_equal(db->blobs[0].v_version.scheme, &tf_version_dotted);
	tf_fwdb_free(db);
	snprintf(text, sizeof(text), HDR "[g]\n%sversion = 2.1.AB\n", body);
	expect_text_error(text, 10, "'2.1.AB' is not a version in the dotted scheme");
}

static void test_manifest_config_version_is_free_label(void **state)
{
	struct tf_fwdb *db;
	struct tf_err err;

	(void)state;
	assert_int_equal(parse_text(HDR "[c]\ntype = config\nfamily = mxt\n"
					"hardware = 129.1\nfor_version = 2.1.AB\n"
					"version = acme-cfg-7+rc1\nfile = c\nsize = 1\n"
					"sha256 = 000000000000000000000000000000000000"
					"0000000000000000000000000000\n",
				    &db, &err),
			 0);
	assert_string_equal(db->blobs[0].version, "acme-cfg-7+rc1");
	tf_fwdb_free(db);
}

static void test_manifest_description_continues_on_indented_lines(void **state)
{
	struct tf_fwdb *db;
	struct tf_err err;

	(void)state;
	assert_int_equal(parse_text(HDR "description = first\n  second\n", &db, &err), 0);
	assert_string_equal(db->description, "first second");
	tf_fwdb_free(db);
}

static void test_manifest_list_continues_after_blank_and_comment(void **state)
{
	struct tf_fwdb *db;
	struct tf_err err;

	(void)state;
	/* libinih keeps continuing the last key across blank and comment
	 * lines; the README says so. */
	assert_int_equal(parse_text(HDR "[fw]\n" FW_BODY "size = 4\n"
					"boards = a,b\n\n; more\n  c,d\n",
				    &db, &err),
			 0);
	assert_int_equal(db->blobs[0].n_boards, 2);
	assert_string_equal(db->blobs[0].boards[1], "c,d");
	tf_fwdb_free(db);
}

static void test_manifest_reports_first_error_only(void **state)
{
	(void)state;
	expect_text_error(HDR "bogus = 1\nformat = 1\n", 3, "unknown key 'bogus'");
}

/* ------------------------------------------------------------ blobs */

static void expect_blob_error(struct tdb *t, const char *id, int code, const char *substr)
{
	struct tf_fwdb *db;
	struct tf_err err;
	uint8_t *data = (uint8_t *)1;
	size_t len = 1;

	assert_int_equal(load(t->db, TF_SIG_OFF, NULL, &db, &err), 0);
	assert_int_equal(tf_fwdb_read_blob(db, tf_fwdb_find(db, id), &data, &len, &err), code);
	assert_null(data);
	assert_int_equal(len, 0);
	assert_contains(err.msg, substr);
	tf_err_clear(&err);
	assert_int_equal(tf_fwdb_verify_blob(db, tf_fwdb_find(db, id), &err), code);
	assert_contains(err.msg, substr);
	tf_fwdb_free(db);
}

static void test_blob_hash_mismatch_is_error(void **state)
{
	struct tdb *t = *state;
	char path[PATH_MAX + 32];
	char *buf;
	size_t len;

	snprintf(path, sizeof(path), "%s/goodix/gt911-cfg-3.txt", t->db);
	buf = slurp(path, &len);
	buf[0] ^= 0x20; /* same size, different bytes */
	write_file(t->db, "goodix/gt911-cfg-3.txt", buf, len);
	free(buf);
	expect_blob_error(t, "gt911-cfg-3", -EBADMSG,
			  "sha256 mismatch: manifest says "
			  "3b82c7d0f71ca94f0850a7f204c66fcd09150dc8bd3d2942dc8c"
			  "463a6bb634cc, file has ");
}

static void test_blob_larger_than_manifest_size_is_error(void **state)
{
	struct tdb *t = *state;

	write_text(t->db, "goodix/gt911-cfg-3.txt",
		   "synthetic gt911 config 3 for the touchfw unit tests\n+\n");
	expect_blob_error(t, "gt911-cfg-3", -EBADMSG,
			  "size mismatch: manifest says 52 bytes, file has 54");
}

static void test_blob_truncated_is_error(void **state)
{
	struct tdb *t = *state;

	write_text(t->db, "goodix/gt911-cfg-3.txt", "synthetic gt911");
	expect_blob_error(t, "gt911-cfg-3", -EBADMSG,
			  "([gt911-cfg-3], line 46): truncated: 15 of 52 "
			  "bytes");
}

static void test_blob_missing_is_error(void **state)
{
	struct tdb *t = *state;
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/goodix/gt911-cfg-3.txt", t->db);
	assert_int_equal(unlink(path), 0);
	expect_blob_error(t, "gt911-cfg-3", -ENOENT,
			  "goodix/gt911-cfg-3.txt ([gt911-cfg-3], line 46): "
			  "No such file");
}

static void test_blob_symlink_escaping_db_is_refused(void **state)
{
	struct tdb *t = *state;
	char path[PATH_MAX + 32], target[PATH_MAX + 32];

	/* Same bytes outside the DB: only the symlink can be the reason. */
	snprintf(path, sizeof(path), "%s/goodix/gt911-cfg-3.txt", t->db);
	snprintf(target, sizeof(target), "%s/outside.txt", t->root);
	assert_int_equal(rename(path, target), 0);
	assert_int_equal(symlink(target, path), 0);
	expect_blob_error(t, "gt911-cfg-3", -ELOOP, "is a symlink or has one on its path");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("../../outside.txt", path), 0);
	expect_blob_error(t, "gt911-cfg-3", -ELOOP, "is a symlink");
}

static void test_blob_symlink_inside_db_is_refused(void **state)
{
	struct tdb *t = *state;
	char path[PATH_MAX + 32], target[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/goodix/gt911-cfg-3.txt", t->db);
	snprintf(target, sizeof(target), "%s/goodix/real.txt", t->db);
	assert_int_equal(rename(path, target), 0);
	assert_int_equal(symlink("real.txt", path), 0);
	expect_blob_error(t, "gt911-cfg-3", -ELOOP, "is a symlink");
}

static void test_blob_in_symlinked_directory_is_refused(void **state)
{
	struct tdb *t = *state;
	char path[PATH_MAX + 32], target[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/goodix", t->db);
	snprintf(target, sizeof(target), "%s/goodix-elsewhere", t->root);
	assert_int_equal(rename(path, target), 0);
	assert_int_equal(symlink(target, path), 0);
	expect_blob_error(t, "gt911-cfg-3", -ELOOP, "has one on its path");
}

static void test_blob_that_is_not_a_regular_file_is_refused(void **state)
{
	struct tdb *t = *state;
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/goodix/gt911-cfg-3.txt", t->db);
	assert_int_equal(unlink(path), 0);
	/* A FIFO would block an open without O_NONBLOCK. */
	assert_int_equal(mkfifo(path, 0644), 0);
	expect_blob_error(t, "gt911-cfg-3", -EINVAL, "is not a regular file");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	expect_blob_error(t, "gt911-cfg-3", -EINVAL, "is not a regular file");
}

static void test_manifest_symlink_is_refused(void **state)
{
	struct tdb *t = *state;
	char path[PATH_MAX + 32], target[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/manifest.ini", t->db);
	snprintf(target, sizeof(target), "%s/manifest.ini", t->root);
	assert_int_equal(rename(path, target), 0);
	assert_int_equal(symlink(target, path), 0);
	expect_load_error(t, TF_SIG_OFF, NULL, -ELOOP,
			  "manifest.ini: is a "
			  "symlink");
}

static void test_generated_binary_blob_roundtrip(void **state)
{
	struct tdb *t = *state;
	uint8_t digest[32], *blob, *data;
	char manifest[1024], hex[65];
	struct tf_fwdb *db;
	struct tf_err err;
	size_t i, len, n = 200 * 1024 + 7; /* several read chunks */

	blob = malloc(n);
	assert_non_null(blob);
	for (i = 0; i < n; i++)
		blob[i] = (uint8_t)(i * 2654435761u >> 13);
	crypto_hash_sha256(digest, blob, n);
	for (i = 0; i < 32; i++)
		sprintf(hex + 2 * i, "%02x", digest[i]);
	assert_int_equal(mkdir(strcat(strcpy(manifest, t->db), "/bin"), 0755), 0);
	write_file(t->db, "bin/fw.bin", blob, n);
	snprintf(manifest, sizeof(manifest),
		 HDR "[bin]\ntype = firmware\nfamily = mxt\nhardware = 164.17\n"
		     "version = 3.0.AA\nfile = bin/fw.bin\nsize = %zu\n"
		     "sha256 = %s\n",
		 n, hex);
	write_text(t->db, "manifest.ini", manifest);
	assert_int_equal(load(t->db, TF_SIG_OFF, NULL, &db, &err), 0);
	assert_int_equal(tf_fwdb_read_blob(db, &db->blobs[0], &data, &len, &err), 0);
	assert_int_equal(len, n);
	assert_memory_equal(data, blob, n);
	free(data);
	free(blob);
	tf_fwdb_free(db);
}

static void test_read_blob_of_buffer_parsed_manifest_is_error(void **state)
{
	struct tf_fwdb *db = parse_good();
	struct tf_err err;
	uint8_t *data;
	size_t len;

	(void)state;
	assert_int_equal(tf_fwdb_read_blob(db, &db->blobs[0], &data, &len, &err), -EBADF);
	tf_fwdb_free(db);
}

/* ------------------------------------------------------------ open */

static void make_open_tree(const struct tdb *t, int *dirfd)
{
	char p[PATH_MAX + 32];

	write_text(t->root, "outside", "x");
	snprintf(p, sizeof(p), "%s/sub", t->db);
	assert_int_equal(mkdir(p, 0755), 0);
	write_text(t->db, "sub/file", "y");
	snprintf(p, sizeof(p), "%s/sub/in-link", t->db);
	assert_int_equal(symlink("file", p), 0);
	snprintf(p, sizeof(p), "%s/out-link", t->db);
	assert_int_equal(symlink("../outside", p), 0);
	snprintf(p, sizeof(p), "%s/abs-link", t->db);
	assert_int_equal(symlink("/etc/passwd", p), 0);
	snprintf(p, sizeof(p), "%s/dir-link", t->db);
	assert_int_equal(symlink("sub", p), 0);
	*dirfd = open(t->db, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(*dirfd >= 0);
}

static void expect_open(int dirfd, const char *path, enum tf_open_method how, int want)
{
	int fd = tf_open_beneath(dirfd, path, how);

	if (want == 0 && fd < 0)
		fail_msg("%s (method %d): %s", path, how, strerror(-fd));
	if (want < 0 && fd != want)
		fail_msg("%s (method %d): got %d, want %d", path, how, fd, want);
	if (fd >= 0)
		close(fd);
}

static void expect_same_open_results(int dirfd, enum tf_open_method how)
{
	expect_open(dirfd, "sub/file", how, 0);
	expect_open(dirfd, "manifest.ini", how, 0);
	expect_open(dirfd, "sub/in-link", how, -ELOOP);
	expect_open(dirfd, "out-link", how, -ELOOP);
	expect_open(dirfd, "abs-link", how, -ELOOP);
	expect_open(dirfd, "dir-link/file", how, -ELOOP);
	expect_open(dirfd, "sub/missing", how, -ENOENT);
	expect_open(dirfd, "sub", how, -EINVAL);
}

/* Kernels before 5.6, and valgrind 3.19, have no openat2. */
static bool have_openat2(int dirfd)
{
	int fd = tf_open_beneath(dirfd, "sub/file", TF_OPEN_OPENAT2);

	if (fd >= 0)
		close(fd);
	return fd != -ENOSYS;
}

static void test_open_openat2_refuses_every_symlink(void **state)
{
	struct tdb *t = *state;
	int dirfd;

	make_open_tree(t, &dirfd);
	if (!have_openat2(dirfd)) {
		close(dirfd);
		skip();
	}
	expect_same_open_results(dirfd, TF_OPEN_OPENAT2);
	close(dirfd);
}

static void test_open_walk_refuses_every_symlink_like_openat2(void **state)
{
	struct tdb *t = *state;
	int dirfd;

	make_open_tree(t, &dirfd);
	expect_same_open_results(dirfd, TF_OPEN_WALK);
	close(dirfd);
}

static void test_open_rejects_dotdot_and_absolute_paths(void **state)
{
	struct tdb *t = *state;
	int dirfd;

	make_open_tree(t, &dirfd);
	expect_open(dirfd, "../outside", TF_OPEN_AUTO, -EINVAL);
	expect_open(dirfd, "/etc/passwd", TF_OPEN_WALK, -EINVAL);
	expect_open(dirfd, "sub//file", TF_OPEN_OPENAT2, -EINVAL);
	expect_open(dirfd, "", TF_OPEN_AUTO, -EINVAL);
	close(dirfd);
}

/*
 * Run the AUTO method in a child whose seccomp filter makes openat2 fail
 * with @errno_value, as on a kernel before 5.6 (ENOSYS) or under a
 * systemd SystemCallFilter (EPERM).  Returns false if that can not be
 * arranged here (no openat2 at all, or no seccomp).
 */
static bool auto_open_without_openat2(struct tdb *t, int errno_value)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (uint32_t)errno_value),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = TF_ARRAY_SIZE(filter), .filter = filter };
	int dirfd, status;
	pid_t pid;

	make_open_tree(t, &dirfd);
	if (!have_openat2(dirfd)) {
		/* Then every other test already ran the fallback. */
		close(dirfd);
		return false;
	}
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
			_exit(77);
		if (tf_open_beneath(dirfd, "sub/file", TF_OPEN_OPENAT2) != -errno_value)
			_exit(78); /* the filter did not take */
		fd = tf_open_beneath(dirfd, "sub/file", TF_OPEN_AUTO);
		if (fd < 0)
			_exit(1);
		close(fd);
		if (tf_open_beneath(dirfd, "dir-link/file", TF_OPEN_AUTO) != -ELOOP)
			_exit(2);
		if (tf_open_beneath(dirfd, "out-link", TF_OPEN_AUTO) != -ELOOP)
			_exit(3);
		_exit(0);
	}
	close(dirfd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77 || WEXITSTATUS(status) == 78)
		return false;
	assert_int_equal(WEXITSTATUS(status), 0);
	return true;
}

static void test_open_auto_falls_back_when_openat2_is_enosys(void **state)
{
	if (!auto_open_without_openat2(*state, ENOSYS))
		skip();
}

static void test_open_auto_falls_back_when_openat2_is_eperm(void **state)
{
	if (!auto_open_without_openat2(*state, EPERM))
		skip();
}

/* ------------------------------------------------------------ signatures */

static void test_signature_required_good_signature_loads(void **state)
{
	struct tdb *t = *state;
	struct tf_fwdb *db;
	struct tf_err err;

	assert_int_equal(load(t->db, TF_SIG_REQUIRED, t->keys, &db, &err), 0);
	assert_true(db->is_signed);
	assert_string_equal(db->signer, "fixture-2024");
	tf_fwdb_free(db);
}

static void test_signature_required_missing_signature_fails(void **state)
{
	struct tdb *t = *state;
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/manifest.ini.sig", t->db);
	assert_int_equal(unlink(path), 0);
	expect_load_error(t, TF_SIG_REQUIRED, t->keys, -ENOKEY,
			  "manifest.ini.sig: missing, and signatures are "
			  "required");
}

static void test_signature_required_bad_signature_fails(void **state)
{
	struct tdb *t = *state;

	use_sig_fixture(t, "bad-signature.sig");
	expect_load_error(t, TF_SIG_REQUIRED, t->keys, -EKEYREJECTED,
			  "manifest.ini.sig:2: signature by 'fixture-2024' "
			  "does not verify");
}

static void test_signature_required_unknown_key_fails(void **state)
{
	struct tdb *t = *state;

	use_sig_fixture(t, "unknown-key.sig");
	expect_load_error(t, TF_SIG_REQUIRED, t->keys, -ENOKEY, "no public key");
	expect_load_error(t, TF_SIG_REQUIRED, t->keys, -ENOKEY,
			  "someone-else.pub for the signature by "
			  "'someone-else'");
}

static void test_signature_required_malformed_signature_fails(void **state)
{
	struct tdb *t = *state;

	use_sig_fixture(t, "not-base64.sig");
	expect_load_error(t, TF_SIG_REQUIRED, t->keys, -EBADMSG,
			  "manifest.ini.sig:2: signature by 'fixture-2024' is "
			  "not the base64 of a 64-byte Ed25519 signature");
}

static void test_signature_required_without_keys_dir_fails(void **state)
{
	struct tdb *t = *state;
	char keys[PATH_MAX + 32];

	snprintf(keys, sizeof(keys), "%s/no-such-keys", t->root);
	expect_load_error(t, TF_SIG_REQUIRED, keys, -ENOKEY,
			  "(the keys directory does not exist)");
}

static void test_signature_optional_without_signature_is_unsigned(void **state)
{
	struct tdb *t = *state;
	char path[PATH_MAX + 32];
	struct tf_fwdb *db;
	struct tf_err err;

	snprintf(path, sizeof(path), "%s/manifest.ini.sig", t->db);
	assert_int_equal(unlink(path), 0);
	/* no key installed at all: "optional" accepts it as unsigned */
	snprintf(path, sizeof(path), "%s/no-keys-here", t->db);
	assert_int_equal(load(t->db, TF_SIG_OPTIONAL, path, &db, &err), 0);
	assert_false(db->is_signed);
	assert_int_equal(db->sig_state, TF_SIG_STATE_UNSIGNED);
	tf_fwdb_free(db);
}

/* Deleting the .sig must not turn a tampered manifest into an "unsigned"
 * one: with a trusted key installed, "optional" requires a signature. */
static void test_signature_optional_without_signature_is_refused_with_a_key(void **state)
{
	struct tdb *t = *state;
	char path[PATH_MAX + 32];
	struct tf_fwdb *db = NULL;
	struct tf_err err;

	snprintf(path, sizeof(path), "%s/manifest.ini.sig", t->db);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(load(t->db, TF_SIG_OPTIONAL, t->keys, &db, &err), -ENOKEY);
	assert_null(db);
	assert_non_null(strstr(err.msg, "manifest.ini.sig: missing, and signatures are "
					"required while a trusted key is installed"));
	assert_non_null(strstr(err.msg, ".pub"));
}

static void test_signature_optional_with_good_signature_verifies(void **state)
{
	struct tdb *t = *state;
	struct tf_fwdb *db;
	struct tf_err err;

	assert_int_equal(load(t->db, TF_SIG_OPTIONAL, t->keys, &db, &err), 0);
	assert_true(db->is_signed);
	assert_int_equal(db->sig_state, TF_SIG_STATE_VERIFIED);
	tf_fwdb_free(db);
}

static void test_signature_optional_with_bad_signature_fails(void **state)
{
	struct tdb *t = *state;

	use_sig_fixture(t, "bad-signature.sig");
	expect_load_error(t, TF_SIG_OPTIONAL, t->keys, -EKEYREJECTED, "does not verify");
}

static void test_signature_optional_with_unknown_key_fails(void **state)
{
	struct tdb *t = *state;

	use_sig_fixture(t, "unknown-key.sig");
	expect_load_error(t, TF_SIG_OPTIONAL, t->keys, -ENOKEY, "no public key");
}

static void test_signature_optional_with_malformed_line_fails(void **state)
{
	struct tdb *t = *state;

	/* Even though the first line verifies. */
	use_sig_fixture(t, "good-and-malformed.sig");
	expect_load_error(t, TF_SIG_OPTIONAL, t->keys, -EBADMSG,
			  "manifest.ini.sig:3: signature by 'broken-2025'");
}

static void test_signature_off_ignores_bad_signature(void **state)
{
	struct tdb *t = *state;
	struct tf_fwdb *db;
	struct tf_err err;

	use_sig_fixture(t, "bad-signature.sig");
	assert_int_equal(load(t->db, TF_SIG_OFF, t->keys, &db, &err), 0);
	assert_false(db->is_signed);
	assert_int_equal(db->sig_state, TF_SIG_STATE_NOT_CHECKED);
	assert_int_equal(db->n_sig_lines, 0);
	tf_fwdb_free(db);
}

static void test_signature_off_ignores_malformed_signature_file(void **state)
{
	struct tdb *t = *state;
	struct tf_fwdb *db;
	struct tf_err err;

	use_sig_fixture(t, "not-base64.sig");
	assert_int_equal(load(t->db, TF_SIG_OFF, t->keys, &db, &err), 0);
	tf_fwdb_free(db);
}

static void test_signature_fails_after_manifest_edit(void **state)
{
	struct tdb *t = *state;
	char path[PATH_MAX + 32], *buf;
	size_t len;

	snprintf(path, sizeof(path), "%s/manifest.ini", t->db);
	buf = slurp(path, &len);
	*strstr(buf, "unit test database") = 'U'; /* still a valid manifest */
	write_file(t->db, "manifest.ini", buf, len);
	free(buf);
	expect_load_error(t, TF_SIG_OPTIONAL, t->keys, -EKEYREJECTED,
			  "manifest.ini was changed after signing");
}

static void test_signature_unknown_key_line_beside_good_one_passes(void **state)
{
	struct tdb *t = *state;
	struct tf_fwdb *db;
	struct tf_err err;

	use_sig_fixture(t, "rotation-unknown-then-good.sig");
	assert_int_equal(load(t->db, TF_SIG_REQUIRED, t->keys, &db, &err), 0);
	assert_string_equal(db->signer, "fixture-2024");
	assert_int_equal(db->n_sig_lines, 2);
	assert_int_equal(db->sig_lines[0].result, TF_SIG_LINE_UNKNOWN_KEY);
	assert_int_equal(db->sig_lines[1].result, TF_SIG_LINE_VERIFIED);
	tf_fwdb_free(db);
}

static void test_signature_stale_line_beside_good_one_passes(void **state)
{
	struct tdb *t = *state;
	struct tf_fwdb *db;
	struct tf_err err;

	use_sig_fixture(t, "rotation-stale-then-good.sig");
	assert_int_equal(load(t->db, TF_SIG_REQUIRED, t->keys, &db, &err), 0);
	assert_int_equal(db->sig_lines[0].result, TF_SIG_LINE_BAD);
	assert_int_equal(db->sig_lines[1].result, TF_SIG_LINE_VERIFIED);
	tf_fwdb_free(db);
}

static void expect_sig_parse_error(const char *name, const char *substr)
{
	char path[PATH_MAX], rel[64];
	struct tf_sig_line *lines = (struct tf_sig_line *)1;
	struct tf_err err = { 0 };
	size_t len, n = 1;
	char *buf;

	snprintf(rel, sizeof(rel), "sig/%s", name);
	buf = slurp(fixture(path, sizeof(path), rel), &len);
	assert_int_equal(tf_fwdb_parse_signatures(buf, len, name, &lines, &n, &err), -EBADMSG);
	free(buf);
	assert_null(lines);
	assert_int_equal(n, 0);
	assert_contains(err.msg, substr);
}

static void test_signature_of_wrong_length_is_malformed(void **state)
{
	(void)state;
	expect_sig_parse_error("short-signature.sig",
			       "short-signature.sig:2: signature by "
			       "'fixture-2024' is not the base64 of a 64-byte");
}

static void test_signature_bad_key_id_is_malformed(void **state)
{
	(void)state;
	expect_sig_parse_error("bad-key-id.sig",
			       "bad-key-id.sig:2: 'fixture/2024' is not a key "
			       "id");
}

static void test_signature_line_without_signature_is_malformed(void **state)
{
	(void)state;
	expect_sig_parse_error("missing-signature.sig", "missing-signature.sig:2: signature by "
							"'fixture-2024' is not the base64");
}

static void test_signature_file_of_comments_only_is_malformed(void **state)
{
	(void)state;
	expect_sig_parse_error("only-comments.sig", "only-comments.sig: no signature lines");
}

static void test_signature_same_key_twice_is_malformed(void **state)
{
	(void)state;
	expect_sig_parse_error("duplicate-key-id.sig",
			       "duplicate-key-id.sig:3: second signature by "
			       "'fixture-2024' (first on line 2)");
}

static void test_public_key_with_comments_and_newline_parses(void **state)
{
	uint8_t pk[32];
	char path[PATH_MAX];
	struct tf_err err;
	size_t len;
	char *buf;

	(void)state;
	buf = slurp(fixture(path, sizeof(path), "keys/fixture-2024.pub"), &len);
	assert_int_equal(tf_fwdb_parse_key(buf, len, "pub", pk, sizeof(pk), &err), 0);
	assert_int_equal(pk[0], 0xbb);
	free(buf);
}

static void test_public_key_of_wrong_length_is_error(void **state)
{
	uint8_t pk[32];
	struct tf_err err = { 0 };
	const char *k64 = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
			  "AAAAAAAAAAAAAAAAAAAAAAAAAA==\n";

	(void)state;
	assert_int_equal(tf_fwdb_parse_key(k64, strlen(k64), "k.pub", pk, sizeof(pk), &err),
			 -EBADMSG);
	assert_contains(err.msg, "k.pub:1: not the base64 of a 32-byte key");
	assert_int_equal(tf_fwdb_parse_key("AAAA\nAAAA\n", 10, "two", pk, sizeof(pk), &err),
			 -EBADMSG);
	assert_int_equal(tf_fwdb_parse_key("# none\n", 7, "none", pk, sizeof(pk), &err),
			 -EBADMSG);
	assert_contains(err.msg, "none: no key in the file");
}

static void test_damaged_public_key_file_fails_load(void **state)
{
	struct tdb *t = *state;
	char keys[PATH_MAX + 32];

	snprintf(keys, sizeof(keys), "%s/keys", t->root);
	assert_int_equal(mkdir(keys, 0755), 0);
	write_text(keys, "fixture-2024.pub", "not a key\n");
	expect_load_error(t, TF_SIG_REQUIRED, keys, -EBADMSG,
			  "keys/fixture-2024.pub:1: not the base64 of a "
			  "32-byte key");
}

/* ------------------------------------------------------------ sign, keygen */

static void keygen_in(const struct tdb *t, const char *id, char *keys, size_t size)
{
	struct tf_err err;

	snprintf(keys, size, "%s/keys", t->root);
	if (tf_fwdb_keygen(keys, id, &err) != 0)
		fail_msg("keygen %s: %s", id, err.msg);
}

static void test_keygen_writes_secret_0600_and_public_0644(void **state)
{
	struct tdb *t = *state;
	char keys[PATH_MAX + 32], path[PATH_MAX + 64];
	uint8_t sk[64], pk[32];
	struct tf_err err;
	struct stat st;
	mode_t old = umask(0);
	size_t len;
	char *buf;

	keygen_in(t, "acme-2024", keys, sizeof(keys));
	umask(old);
	assert_int_equal(stat(keys, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	snprintf(path, sizeof(path), "%s/acme-2024.key", keys);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	buf = slurp(path, &len);
	assert_int_equal(tf_fwdb_parse_key(buf, len, path, sk, 64, &err), 0);
	free(buf);
	snprintf(path, sizeof(path), "%s/acme-2024.pub", keys);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	buf = slurp(path, &len);
	assert_int_equal(tf_fwdb_parse_key(buf, len, path, pk, 32, &err), 0);
	free(buf);
	assert_memory_equal(sk + 32, pk, 32); /* libsodium: seed || pk */
}

static void test_keygen_refuses_to_overwrite(void **state)
{
	struct tdb *t = *state;
	char keys[PATH_MAX + 32], path[PATH_MAX + 64];
	struct tf_err err;
	char *before, *after;

	keygen_in(t, "acme-2024", keys, sizeof(keys));
	snprintf(path, sizeof(path), "%s/acme-2024.key", keys);
	before = slurp(path, NULL);
	assert_int_equal(tf_fwdb_keygen(keys, "acme-2024", &err), -EEXIST);
	assert_contains(err.msg, "refusing to overwrite");
	after = slurp(path, NULL);
	assert_string_equal(before, after);
	free(before);
	free(after);
}

static void test_keygen_rejects_bad_key_id(void **state)
{
	struct tdb *t = *state;
	struct tf_err err;

	assert_int_equal(tf_fwdb_keygen(t->root, "../evil", &err), -EINVAL);
	assert_int_equal(tf_fwdb_keygen(t->root, "", &err), -EINVAL);
	assert_int_equal(tf_fwdb_keygen(t->root, "a b", &err), -EINVAL);
	assert_false(tf_fwdb_key_id_valid("a12345678901234567890123456789012345"
					  "6789012345678901234567890123"));
	assert_true(tf_fwdb_key_id_valid("Acme_2024.v2-x"));
}

static void test_sign_then_load_verifies_roundtrip(void **state)
{
	struct tdb *t = *state;
	char keys[PATH_MAX + 32], key[PATH_MAX + 64];
	struct tf_fwdb *db;
	struct tf_err err;
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/manifest.ini.sig", t->db);
	assert_int_equal(unlink(path), 0);
	keygen_in(t, "acme-2024", keys, sizeof(keys));
	snprintf(key, sizeof(key), "%s/acme-2024.key", keys);
	if (tf_fwdb_sign(t->db, key, &err) != 0)
		fail_msg("sign: %s", err.msg);
	assert_int_equal(load(t->db, TF_SIG_REQUIRED, keys, &db, &err), 0);
	assert_string_equal(db->signer, "acme-2024");
	tf_fwdb_free(db);
	/* The fixture key does not know the new signer. */
	expect_load_error(t, TF_SIG_REQUIRED, t->keys, -ENOKEY, "no public key");
}

static void test_sign_replaces_own_line_and_keeps_others(void **state)
{
	struct tdb *t = *state;
	char keys[PATH_MAX + 32], key_a[PATH_MAX + 64], key_b[PATH_MAX + 64];
	char path[PATH_MAX + 32], *first, *text, *a_line;
	struct tf_fwdb *db;
	struct tf_err err;

	keygen_in(t, "a", keys, sizeof(keys));
	keygen_in(t, "b", keys, sizeof(keys));
	snprintf(key_a, sizeof(key_a), "%s/a.key", keys);
	snprintf(key_b, sizeof(key_b), "%s/b.key", keys);
	write_text(t->db, TF_FWDB_SIGNATURE, "# release signatures\n");
	assert_int_equal(tf_fwdb_sign(t->db, key_a, &err), 0);
	snprintf(path, sizeof(path), "%s/%s", t->db, TF_FWDB_SIGNATURE);
	first = slurp(path, NULL);
	assert_int_equal(tf_fwdb_sign(t->db, key_b, &err), 0);
	assert_int_equal(tf_fwdb_sign(t->db, key_a, &err), 0);
	text = slurp(path, NULL);
	/* Ed25519 is deterministic: re-signing gives the same line, in
	 * place, after the comment and before b's line. */
	assert_int_equal(strncmp(text, first, strlen(first)), 0);
	assert_non_null(strstr(text, "\nb "));
	a_line = strstr(text, "\na ");
	assert_non_null(a_line);
	assert_null(strstr(a_line + 1, "\na "));
	free(first);
	free(text);
	assert_int_equal(load(t->db, TF_SIG_REQUIRED, keys, &db, &err), 0);
	assert_int_equal(db->n_sig_lines, 2);
	assert_int_equal(db->sig_lines[0].result, TF_SIG_LINE_VERIFIED);
	assert_int_equal(db->sig_lines[1].result, TF_SIG_LINE_VERIFIED);
	tf_fwdb_free(db);
}

static void test_sign_refuses_group_readable_key(void **state)
{
	struct tdb *t = *state;
	char keys[PATH_MAX + 32], key[PATH_MAX + 64];
	struct tf_err err;

	keygen_in(t, "acme-2024", keys, sizeof(keys));
	snprintf(key, sizeof(key), "%s/acme-2024.key", keys);
	assert_int_equal(chmod(key, 0640), 0);
	assert_int_equal(tf_fwdb_sign(t->db, key, &err), -EPERM);
	assert_contains(err.msg, "mode 640 lets others read it");
}

static void test_sign_refuses_invalid_manifest(void **state)
{
	struct tdb *t = *state;
	char keys[PATH_MAX + 32], key[PATH_MAX + 64], path[PATH_MAX + 32];
	char *before, *after;
	struct tf_err err;

	keygen_in(t, "acme-2024", keys, sizeof(keys));
	snprintf(key, sizeof(key), "%s/acme-2024.key", keys);
	snprintf(path, sizeof(path), "%s/%s", t->db, TF_FWDB_SIGNATURE);
	before = slurp(path, NULL);
	write_text(t->db, "manifest.ini", HDR "[x]\nfile = ../x\n");
	assert_int_equal(tf_fwdb_sign(t->db, key, &err), -EBADMSG);
	assert_contains(err.msg, "refusing to sign: ");
	assert_contains(err.msg, "manifest.ini:4: [x] file:");
	after = slurp(path, NULL);
	assert_string_equal(before, after);
	free(before);
	free(after);
}

static void test_sign_refuses_key_file_not_named_key(void **state)
{
	struct tdb *t = *state;
	char keys[PATH_MAX + 32], key[PATH_MAX + 64], other[PATH_MAX + 64];
	struct tf_err err;

	keygen_in(t, "acme-2024", keys, sizeof(keys));
	snprintf(key, sizeof(key), "%s/acme-2024.key", keys);
	snprintf(other, sizeof(other), "%s/acme-2024.secret", keys);
	assert_int_equal(rename(key, other), 0);
	assert_int_equal(tf_fwdb_sign(t->db, other, &err), -EINVAL);
	assert_contains(err.msg, "must be <key-id>.key");
}

static void test_sign_refuses_damaged_secret_key(void **state)
{
	struct tdb *t = *state;
	char keys[PATH_MAX + 32], key[PATH_MAX + 64];
	uint8_t sk[64];
	char b64[100];
	struct tf_err err;
	size_t len;
	char *buf;
	int fd;

	keygen_in(t, "acme-2024", keys, sizeof(keys));
	snprintf(key, sizeof(key), "%s/acme-2024.key", keys);
	buf = slurp(key, &len);
	assert_int_equal(tf_fwdb_parse_key(buf, len, key, sk, 64, &err), 0);
	free(buf);
	sk[40] ^= 1; /* the public half no longer matches the seed */
	sodium_bin2base64(b64, sizeof(b64), sk, sizeof(sk), sodium_base64_VARIANT_ORIGINAL);
	fd = open(key, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, b64, strlen(b64)), (ssize_t)strlen(b64));
	close(fd);
	assert_int_equal(tf_fwdb_sign(t->db, key, &err), -EINVAL);
	assert_contains(err.msg, "damaged");
}

static void test_sign_refuses_malformed_existing_signature_file(void **state)
{
	struct tdb *t = *state;
	char keys[PATH_MAX + 32], key[PATH_MAX + 64];
	struct tf_err err;

	keygen_in(t, "acme-2024", keys, sizeof(keys));
	snprintf(key, sizeof(key), "%s/acme-2024.key", keys);
	use_sig_fixture(t, "not-base64.sig");
	assert_int_equal(tf_fwdb_sign(t->db, key, &err), -EBADMSG);
	assert_contains(err.msg, "refusing to rewrite");
}

static void test_key_id_from_path_strips_dir_and_suffix(void **state)
{
	char id[TF_FWDB_KEY_ID_MAX + 1];

	(void)state;
	assert_int_equal(tf_fwdb_key_id_from_path("/x/y/acme-2024.key", id, sizeof(id)), 0);
	assert_string_equal(id, "acme-2024");
	assert_int_equal(tf_fwdb_key_id_from_path(".key", id, sizeof(id)), -EINVAL);
	assert_int_equal(tf_fwdb_key_id_from_path("a b.key", id, sizeof(id)), -EINVAL);
	assert_int_equal(tf_fwdb_key_id_from_path("acme.pub", id, sizeof(id)), -EINVAL);
}

static void test_sig_policy_names_roundtrip(void **state)
{
	enum tf_sig_policy p;

	(void)state;
	assert_int_equal(tf_sig_policy_parse("required", &p), 0);
	assert_int_equal(p, TF_SIG_REQUIRED);
	assert_string_equal(tf_sig_policy_name(p), "required");
	assert_int_equal(tf_sig_policy_parse("optional", &p), 0);
	assert_string_equal(tf_sig_policy_name(p), "optional");
	assert_int_equal(tf_sig_policy_parse("off", &p), 0);
	assert_string_equal(tf_sig_policy_name(p), "off");
	assert_int_equal(tf_sig_policy_parse("Required", &p), -EINVAL);
}

/* ------------------------------------------------------------ touchfw db */

static int run_db(int argc, const char *const *args)
{
	struct tf_cli cli = { 0 };
	char *argv[16];
	int i, r;

	assert_true(argc < 16);
	for (i = 0; i < argc; i++)
		argv[i] = (char *)args[i];
	argv[argc] = NULL;
	cli.command = argv[0];
	cli.argc = argc;
	cli.argv = argv;
	r = tf_cmd_db(&cli);
	fflush(stdout);
	return r;
}

static void test_cmd_db_check_good_database_exits_ok(void **state)
{
	struct tdb *t = *state;
	const char *args[] = { "db", "check", "--db", t->db, "--keys", t->keys, NULL };

	assert_int_equal(run_db(6, args), TF_EXIT_OK);
}

/* db check reads the settings file as run does: its db_dir, keys_dir and
 * signature policy are check's defaults. */
static void test_cmd_db_check_honours_the_settings_file(void **state)
{
	struct tdb *t = *state;
	char conf[PATH_MAX + 32], text[3 * PATH_MAX];
	const char *args[] = { "db", "check", NULL };
	struct tf_cli cli = { 0 };
	char *argv[] = { (char *)"db", (char *)"check", NULL };

	snprintf(conf, sizeof(conf), "%s/touchfw.conf", t->root);
	snprintf(text, sizeof(text),
		 "[touchfw]\nsignatures = required\n"
		 "[paths]\ndb_dir = %s\nkeys_dir = %s\n",
		 t->db, t->keys);
	write_text(t->root, "touchfw.conf", text);
	setenv("TOUCHFW_CONFIG", conf, 1);
	assert_int_equal(run_db(2, args), TF_EXIT_OK);
	/* --config names it too (the global option, cli->config). */
	unsetenv("TOUCHFW_CONFIG");
	cli.command = "db";
	cli.argc = 2;
	cli.argv = argv;
	cli.config = conf;
	assert_int_equal(tf_cmd_db(&cli), TF_EXIT_OK);
	/* Its policy too: a required signature that does not verify. */
	use_sig_fixture(t, "bad-signature.sig");
	assert_int_equal(tf_cmd_db(&cli), TF_EXIT_DB_INVALID);
	snprintf(text, sizeof(text),
		 "[touchfw]\nsignatures = off\n"
		 "[paths]\ndb_dir = %s\nkeys_dir = %s\n",
		 t->db, t->keys);
	write_text(t->root, "touchfw.conf", text);
	assert_int_equal(tf_cmd_db(&cli), TF_EXIT_OK);
	/* A settings file with a mistake is named, not ignored. */
	write_text(t->root, "touchfw.conf", "[paths]\ndb_dri = /x\n");
	assert_int_equal(tf_cmd_db(&cli), TF_EXIT_BAD_INPUT);
}

static void test_cmd_db_check_bad_blob_exits_db_invalid(void **state)
{
	struct tdb *t = *state;
	const char *args[] = { "db", "check", "--db", t->db, "--signatures", "off", NULL };

	write_text(t->db, "goodix/gt911-cfg-3.txt", "short");
	assert_int_equal(run_db(6, args), TF_EXIT_DB_INVALID);
}

static void test_cmd_db_check_bad_signature_exits_db_invalid(void **state)
{
	struct tdb *t = *state;
	const char *args[] = { "db", "check", "--db", t->db, "--keys", t->keys, NULL };

	use_sig_fixture(t, "bad-signature.sig");
	assert_int_equal(run_db(6, args), TF_EXIT_DB_INVALID);
}

static void test_cmd_db_bad_command_lines_exit_usage(void **state)
{
	const char *none[] = { "db", NULL };
	const char *unknown[] = { "db", "frob", NULL };
	const char *policy[] = { "db", "check", "--signatures", "maybe", NULL };
	const char *extra[] = { "db", "check", "stray", NULL };
	const char *nokey[] = { "db", "sign", NULL };
	const char *noname[] = { "db", "keygen", "--out", "/nonexistent", NULL };

	(void)state;
	assert_int_equal(run_db(1, none), TF_EXIT_USAGE);
	assert_int_equal(run_db(2, unknown), TF_EXIT_USAGE);
	assert_int_equal(run_db(4, policy), TF_EXIT_USAGE);
	assert_int_equal(run_db(3, extra), TF_EXIT_USAGE);
	assert_int_equal(run_db(2, nokey), TF_EXIT_USAGE);
	assert_int_equal(run_db(4, noname), TF_EXIT_USAGE);
}

static void test_cmd_db_help_exits_ok(void **state)
{
	const char *help[] = { "db", "--help", NULL };
	const char *check[] = { "db", "check", "--help", NULL };
	const char *sign[] = { "db", "sign", "-h", NULL };
	const char *keygen[] = { "db", "keygen", "--help", NULL };

	(void)state;
	assert_int_equal(run_db(2, help), TF_EXIT_OK);
	assert_int_equal(run_db(3, check), TF_EXIT_OK);
	assert_int_equal(run_db(3, sign), TF_EXIT_OK);
	assert_int_equal(run_db(3, keygen), TF_EXIT_OK);
}

static void test_cmd_db_keygen_sign_check_roundtrip(void **state)
{
	struct tdb *t = *state;
	char keys[PATH_MAX + 32], key[PATH_MAX + 64];
	const char *keygen[] = { "db", "keygen", "release-1", "--out", keys, NULL };
	const char *sign[] = { "db", "sign", "--key", key, "--db", t->db, NULL };
	const char *check[] = { "db", "check", "--db", t->db, "--keys", keys, NULL };

	snprintf(keys, sizeof(keys), "%s/release-keys", t->root);
	snprintf(key, sizeof(key), "%s/release-1.key", keys);
	assert_int_equal(run_db(5, keygen), TF_EXIT_OK);
	/* Never overwritten: its own documented exit code. */
	assert_int_equal(run_db(5, keygen), TF_EXIT_EXISTS);
	assert_int_equal(run_db(6, sign), TF_EXIT_OK);
	assert_int_equal(run_db(6, check), TF_EXIT_OK);
}

static void test_cmd_db_sign_of_invalid_manifest_exits_db_invalid(void **state)
{
	struct tdb *t = *state;
	char keys[PATH_MAX + 32], key[PATH_MAX + 64];
	const char *sign[] = { "db", "sign", "--key", key, "--db", t->db, NULL };

	keygen_in(t, "k", keys, sizeof(keys));
	snprintf(key, sizeof(key), "%s/k.key", keys);
	write_text(t->db, "manifest.ini", "[database]\nformat = 9\n");
	assert_int_equal(run_db(6, sign), TF_EXIT_DB_INVALID);
}

#define T(f) cmocka_unit_test(f)
#define TD(f) cmocka_unit_test_setup_teardown(f, tdb_setup, tdb_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_good_manifest_parses_every_key),
		T(test_good_database_loads_with_signature_required),
		T(test_good_blobs_read_back_with_size_and_hash_checked),
		T(test_find_returns_blob_by_id_or_null),
		T(test_fits_hardware_matches_listed_ids_only),
		T(test_fits_board_empty_list_means_any_board),
		T(test_fits_board_matches_any_listed_board),
		T(test_fits_from_version_honours_min_and_max),
		TD(test_changed_detects_rewritten_manifest),

		T(test_source_sha256),
		T(test_manifest_missing_database_is_error),
		T(test_manifest_wrong_format_is_error_with_line),
		T(test_manifest_missing_format_is_error),
		T(test_manifest_unknown_key_is_error_with_line),
		T(test_manifest_duplicate_key_is_error_with_both_lines),
		T(test_manifest_duplicate_section_is_error_with_both_lines),
		T(test_manifest_duplicate_database_section_is_error),
		T(test_manifest_bad_hex_in_sha256_is_error),
		T(test_manifest_short_sha256_is_error),
		T(test_manifest_size_with_unit_is_error),
		T(test_manifest_hex_size_is_error),
		T(test_manifest_zero_or_zero_padded_size_is_error),
		T(test_manifest_size_above_limit_is_error),
		T(test_manifest_crc_without_0x_is_error),
		T(test_manifest_mxt_crc_wider_than_24_bits_is_error),
		T(test_manifest_path_with_dotdot_is_error),
		T(test_manifest_absolute_path_is_error),
		T(test_manifest_path_with_empty_component_is_error),
		T(test_manifest_path_with_inner_dotdot_is_error),
		T(test_manifest_path_with_trailing_slash_is_error),
		T(test_manifest_path_with_dot_component_is_error),
		T(test_manifest_path_with_odd_characters_is_error),
		T(test_manifest_missing_required_key_names_section),
		T(test_manifest_firmware_without_version_is_error),
		T(test_manifest_config_without_for_version_is_error),
		T(test_manifest_config_only_key_on_firmware_is_error),
		T(test_manifest_bootloader_id),
		T(test_manifest_family_owned_key_in_another_family_is_error),
		T(test_manifest_malformed_mxt_version_is_error),
		T(test_manifest_non_decimal_mxt_hardware_is_error),
		T(test_manifest_min_from_above_max_from_is_error),
		T(test_manifest_key_outside_section_is_error),
		T(test_manifest_indented_line_after_single_value_key_is_error),
		T(test_manifest_bad_type_is_error),
		T(test_manifest_bad_section_name_is_error),
		T(test_manifest_text_after_section_header_is_error),
		T(test_manifest_colon_separator_is_error),
		T(test_manifest_uppercase_family_is_error),
		T(test_manifest_bad_board_id_is_error),
		T(test_manifest_empty_required_value_is_error),
		T(test_manifest_line_longer_than_inih_limit_is_error),
		T(test_manifest_nul_byte_is_error_with_line),
		T(test_manifest_control_character_is_error),
		T(test_manifest_crlf_line_ends_parse),
		T(test_manifest_utf8_bom_is_skipped),
		T(test_manifest_without_final_newline_parses),
		T(test_manifest_empty_database_has_no_blobs),
		T(test_manifest_empty_input_is_missing_database),
		T(test_manifest_section_ids_longer_than_inih_keeps_are_distinct),
		T(test_manifest_section_id_too_long_is_error),
		T(test_manifest_duplicate_list_entry_is_error),
		T(test_manifest_other_family_uses_dotted_versions),
		T(test_manifest_config_version_is_free_label),
		T(test_manifest_description_continues_on_indented_lines),
		T(test_manifest_list_continues_after_blank_and_comment),
		T(test_manifest_reports_first_error_only),

		TD(test_blob_hash_mismatch_is_error),
		TD(test_blob_larger_than_manifest_size_is_error),
		TD(test_blob_truncated_is_error),
		TD(test_blob_missing_is_error),
		TD(test_blob_symlink_escaping_db_is_refused),
		TD(test_blob_symlink_inside_db_is_refused),
		TD(test_blob_in_symlinked_directory_is_refused),
		TD(test_blob_that_is_not_a_regular_file_is_refused),
		TD(test_manifest_symlink_is_refused),
		TD(test_generated_binary_blob_roundtrip),
		T(test_read_blob_of_buffer_parsed_manifest_is_error),

		TD(test_open_openat2_refuses_every_symlink),
		TD(test_open_walk_refuses_every_symlink_like_openat2),
		TD(test_open_rejects_dotdot_and_absolute_paths),
		TD(test_open_auto_falls_back_when_openat2_is_enosys),
		TD(test_open_auto_falls_back_when_openat2_is_eperm),

		TD(test_signature_required_good_signature_loads),
		TD(test_signature_required_missing_signature_fails),
		TD(test_signature_required_bad_signature_fails),
		TD(test_signature_required_unknown_key_fails),
		TD(test_signature_required_malformed_signature_fails),
		TD(test_signature_required_without_keys_dir_fails),
		TD(test_signature_optional_without_signature_is_unsigned),
		TD(test_signature_optional_without_signature_is_refused_with_a_key),
		TD(test_signature_optional_with_good_signature_verifies),
		TD(test_signature_optional_with_bad_signature_fails),
		TD(test_signature_optional_with_unknown_key_fails),
		TD(test_signature_optional_with_malformed_line_fails),
		TD(test_signature_off_ignores_bad_signature),
		TD(test_signature_off_ignores_malformed_signature_file),
		TD(test_signature_fails_after_manifest_edit),
		TD(test_signature_unknown_key_line_beside_good_one_passes),
		TD(test_signature_stale_line_beside_good_one_passes),
		T(test_signature_of_wrong_length_is_malformed),
		T(test_signature_bad_key_id_is_malformed),
		T(test_signature_line_without_signature_is_malformed),
		T(test_signature_file_of_comments_only_is_malformed),
		T(test_signature_same_key_twice_is_malformed),
		T(test_public_key_with_comments_and_newline_parses),
		T(test_public_key_of_wrong_length_is_error),
		TD(test_damaged_public_key_file_fails_load),

		TD(test_keygen_writes_secret_0600_and_public_0644),
		TD(test_keygen_refuses_to_overwrite),
		TD(test_keygen_rejects_bad_key_id),
		TD(test_sign_then_load_verifies_roundtrip),
		TD(test_sign_replaces_own_line_and_keeps_others),
		TD(test_sign_refuses_group_readable_key),
		TD(test_sign_refuses_invalid_manifest),
		TD(test_sign_refuses_key_file_not_named_key),
		TD(test_sign_refuses_damaged_secret_key),
		TD(test_sign_refuses_malformed_existing_signature_file),
		T(test_key_id_from_path_strips_dir_and_suffix),
		T(test_sig_policy_names_roundtrip),

		TD(test_cmd_db_check_good_database_exits_ok),
		TD(test_cmd_db_check_honours_the_settings_file),
		TD(test_cmd_db_check_bad_blob_exits_db_invalid),
		TD(test_cmd_db_check_bad_signature_exits_db_invalid),
		T(test_cmd_db_bad_command_lines_exit_usage),
		T(test_cmd_db_help_exits_ok),
		TD(test_cmd_db_keygen_sign_check_roundtrip),
		TD(test_cmd_db_sign_of_invalid_manifest_exits_db_invalid),
	};

	if (sodium_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
