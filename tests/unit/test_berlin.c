// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Goodix Berlin formats (agent/family/berlin) against values worked out by
 * hand from the sources' definitions, not from touchfw's code: the u16 sum
 * of bytes (goodix_berlin_checksum_valid), the u32 sum of LE16 words
 * (fwupdate.c gdix_append_checksum, CHECKSUM_MODE_U16), the spi prefixes
 * (goodix_berlin_spi.c), the 16-byte flash command, the version block and
 * the firmware file header, whose every field is set below by its offset
 * in fwupdate.c's struct firmware_summary.
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

#include "family/berlin/berlin.h"
#include "family/family.h"
#include "event.h"
#include "family/ids.h"
#include "fwdb.h"
#include "version.h"

static void test_byte_sum_vectors(void **state)
{
	static const uint8_t a[] = { 0x01, 0x02, 0xff };
	uint8_t ff[300];

	(void)state;
	assert_int_equal(berlin_sum8(a, 3), 0x0102);
	assert_int_equal(berlin_sum8(a, 0), 0);
	/* 300 x 0xFF = 76500 = 0x12AD4: only the low 16 bits count */
	memset(ff, 0xff, sizeof(ff));
	assert_int_equal(berlin_sum8(ff, sizeof(ff)), 0x2AD4);
}

static void test_word_sum_vectors(void **state)
{
	static const uint8_t a[] = { 0x34, 0x12, 0x78, 0x56 };
	static const uint8_t b[] = { 0xff, 0xff, 0xff, 0xff, 0x01, 0x00 };

	(void)state;
	/* little-endian words: 0x1234 + 0x5678 */
	assert_int_equal(berlin_sum16(a, 4), 0x68AC);
	/* 0xFFFF + 0xFFFF + 0x0001 = 0x1FFFF: kept in 32 bits */
	assert_int_equal(berlin_sum16(b, 6), 0x1FFFF);
}

static void test_spi_prefixes(void **state)
{
	static const uint8_t rd[] = { 0xF1, 0x00, 0x01, 0x00, 0x14, 0xFF, 0xFF, 0xFF };
	static const uint8_t wr[] = { 0xF0, 0x00, 0x01, 0x24, 0x00 };
	uint8_t r[BERLIN_SPI_RPREFIX], w[BERLIN_SPI_WPREFIX];
	struct tf_spi s = { .fd = -1, .bufsiz = 4096 };

	(void)state;
	assert_int_equal(sizeof(r), sizeof(rd));
	berlin_spi_read_prefix(0x10014, r);
	assert_memory_equal(r, rd, sizeof(rd));
	assert_int_equal(sizeof(w), sizeof(wr));
	berlin_spi_write_prefix(0x12400, w);
	assert_memory_equal(w, wr, sizeof(wr));
	/* per spidev message: bufsiz rounded down to 8, less the prefix */
	assert_int_equal(berlin_spi_chunk(&s, BERLIN_SPI_RPREFIX), 4088);
	assert_int_equal(berlin_spi_chunk(&s, BERLIN_SPI_WPREFIX), 4091);
	s.bufsiz = 4101;
	assert_int_equal(berlin_spi_chunk(&s, BERLIN_SPI_RPREFIX), 4088);
	s.bufsiz = 8;
	assert_int_equal(berlin_spi_chunk(&s, BERLIN_SPI_RPREFIX), 0);
	/* no spidev open: refused, nothing sent */
	s.bufsiz = 4096;
	assert_int_equal(berlin_spi_read(&s, 0x10014, r, 1), -EBADF);
}

static void test_flash_command_vector(void **state)
{
	/* type 2, 0x1004 bytes (4 KiB + its sum) to 0x0A000: the byte sum of
	 * bytes 2..10 is 0x0B+0xBB+0x02+0x04+0x10+0xA0 = 0x017C */
	static const uint8_t want[16] = { 0x00, 0x00, 0x0B, 0xBB, 0x02, 0x04, 0x10, 0x00,
					  0xA0, 0x00, 0x00, 0x7C, 0x01, 0x00, 0x00, 0x00 };
	uint8_t cmd[BERLIN_FLASH_CMD_LEN];

	(void)state;
	berlin_flash_cmd(2, 0x1004, 0x0A000, cmd);
	assert_memory_equal(cmd, want, sizeof(want));
	assert_string_equal(berlin_status_name(0x33), "data checksum failed");
	assert_string_equal(berlin_status_name(0xEE), "written");
}

/* A version block: rom pid, rom vid, patch pid, patch vid, sensor id. */
static void version_block(uint8_t raw[BERLIN_VERSION_LEN], const char *rom, const char *patch,
			  const uint8_t vid[4])
{
	uint32_t s = 0;

	memset(raw, 0, BERLIN_VERSION_LEN);
	memcpy(raw, rom, strlen(rom) < 6 ? strlen(rom) : 6);
	raw[6] = 0x01;
	raw[7] = 0x02;
	raw[8] = 0x03;
	memcpy(raw + 10, patch, strlen(patch) < 8 ? strlen(patch) : 8);
	memcpy(raw + 18, vid, 4);
	raw[23] = 5;
	for (int i = 0; i < 26; i++)
		s += raw[i];
	raw[26] = (uint8_t)s;
	raw[27] = (uint8_t)(s >> 8);
}

static void test_version_block(void **state)
{
	static const uint8_t vid[4] = { 0x01, 0x00, 0x02, 0x05 };
	uint8_t raw[BERLIN_VERSION_LEN];
	struct berlin_version v;
	struct tf_version tv;
	char msg[128], pid[9], s[TF_VERSION_STR_MAX];

	(void)state;
	version_block(raw, "BERLIN", "9916", vid);
	assert_int_equal(berlin_version_parse(raw, &v, msg, sizeof(msg)), 0);
	berlin_pid_text(v.patch_pid, 8, pid, sizeof(pid));
	assert_string_equal(pid, "9916");
	assert_int_equal(v.sensor_id, 5);
	assert_false(berlin_version_nocode(&v));
	assert_false(berlin_version_isp(&v));
	berlin_version_from_vid(v.patch_vid, &tv);
	assert_int_equal(tf_version_format(&tv, s, sizeof(s)), 0);
	assert_string_equal(s, "01000205");

	version_block(raw, "BERLIN", "NOCODE", vid);
	assert_int_equal(berlin_version_parse(raw, &v, msg, sizeof(msg)), 0);
	assert_true(berlin_version_nocode(&v));
	version_block(raw, "BERLIN", "GT9ISP", vid);
	assert_int_equal(berlin_version_parse(raw, &v, msg, sizeof(msg)), 0);
	assert_true(berlin_version_isp(&v));

	/* all zeros sums to its zero checksum, but is the bus's idle level
	 * (or a chip still starting), not a version; so is all 0xFF */
	memset(raw, 0, sizeof(raw));
	assert_int_equal(berlin_version_parse(raw, &v, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "all 0x00"));
	memset(raw, 0xff, sizeof(raw));
	assert_int_equal(berlin_version_parse(raw, &v, msg, sizeof(msg)), -EBADMSG);

	/* one byte off: the LE16 sum no longer matches, and the message
	 * gives both */
	version_block(raw, "BERLIN", "9916", vid);
	raw[3] ^= 0x10;
	assert_int_equal(berlin_version_parse(raw, &v, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "checksum 0x"));
	assert_non_null(strstr(msg, "sum to 0x"));
}

static void test_version_scheme(void **state)
{
	struct tf_version a, b;
	char s[TF_VERSION_STR_MAX];

	(void)state;
	assert_int_equal(tf_version_parse("berlin", "01000205", &a), 0);
	assert_int_equal(tf_version_parse("berlin", "0100020a", &b), 0);
	assert_int_equal(tf_version_format(&b, s, sizeof(s)), 0);
	assert_string_equal(s, "0100020A");
	assert_true(tf_version_cmp(&a, &b) < 0);
	assert_int_equal(tf_version_parse("berlin", "02000000", &b), 0);
	assert_true(tf_version_cmp(&a, &b) < 0);
	assert_int_equal(tf_version_parse("berlin", "0100020", &a), -EINVAL);
	assert_int_equal(tf_version_parse("berlin", "010002050", &a), -EINVAL);
	assert_int_equal(tf_version_parse("berlin", "0x010002", &a), -EINVAL);
	assert_int_equal(tf_version_parse("berlin", "0100 205", &a), -EINVAL);
	assert_int_equal(tf_version_parse("berlin", "1.0.2.5", &a), -EINVAL);
}

/* ------------------------------------------------------------ the header */

struct sub {
	uint8_t type;
	uint32_t size, addr;
};

static void le32_at(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Fill size and checksum of a file built below (after any corruption of
 * the other fields, so that only the field under test is wrong). */
static void seal(uint8_t *f, size_t len)
{
	uint32_t sum = 0;

	le32_at(f, (uint32_t)(len - 8));
	for (size_t i = 8; i + 1 < len; i += 2)
		sum += (uint32_t)f[i] | (uint32_t)f[i + 1] << 8;
	le32_at(f + 4, sum);
}

/* A Berlin-D file: 512-byte header, records at 42, data in order. */
static uint8_t *build(const struct sub *s, unsigned n, size_t *len)
{
	size_t total = 512;
	uint8_t *f, *d;

	for (unsigned i = 0; i < n; i++)
		total += s[i].size;
	f = calloc(1, total);
	assert_non_null(f);
	memcpy(f + 8, "BERLIN", 6); /* hw pid */
	memcpy(f + 17, "9916", 4);  /* fw pid, NUL padded to 8 */
	f[25] = 0x01;		    /* fw vid 01 00 02 05 */
	f[27] = 0x02;
	f[28] = 0x05;
	f[29] = (uint8_t)n; /* subsystem count */
	f[30] = 6;	    /* chip type */
	f[32] = 0x01;	    /* bus type: spi */
	d = f + 512;
	for (unsigned i = 0; i < n; i++) {
		uint8_t *r = f + 42 + 10 * i;

		r[0] = s[i].type;
		le32_at(r + 1, s[i].size);
		le32_at(r + 5, s[i].addr);
		for (uint32_t k = 0; k < s[i].size; k++)
			d[k] = (uint8_t)(k * 7 + i);
		d += s[i].size;
	}
	seal(f, total);
	*len = total;
	return f;
}

static const struct sub good[] = {
	{ 0x01, 0x0800, 0 },	   /* ISP program (to RAM) */
	{ 0x04, 0x1000, 0x3E000 }, /* configuration */
	{ 0x02, 0x2006, 0x0A000 }, /* firmware: 2 full packets and 6 bytes */
};

static void test_header_golden(void **state)
{
	struct berlin_fw fw;
	char msg[256];
	size_t len;
	uint8_t *f = build(good, 3, &len);

	(void)state;
	assert_int_equal(len, 512 + 0x800 + 0x1000 + 0x2006);
	assert_int_equal(berlin_fw_parse(f, len, &fw, msg, sizeof(msg)), 0);
	assert_string_equal(fw.fw_pid, "9916");
	assert_string_equal(fw.hw_pid, "BERLIN");
	assert_int_equal(fw.n_subsys, 3);
	assert_int_equal(fw.subsys[1].type, 4);
	assert_int_equal(fw.subsys[1].offset, 512 + 0x800);
	assert_int_equal(fw.subsys[2].flash_addr, 0x0A000);
	assert_int_equal(fw.subsys[2].size, 0x2006);
	assert_int_equal(fw.size, len - 8);
	free(f);
}

/* Parse @f and expect a refusal naming @field. */
static void refused(const uint8_t *f, size_t len, const char *field)
{
	struct berlin_fw fw;
	char msg[256];

	assert_int_equal(berlin_fw_parse(f, len, &fw, msg, sizeof(msg)), -EBADMSG);
	if (!strstr(msg, field))
		fail_msg("wanted \"%s\" in \"%s\"", field, msg);
}

static void test_header_bad_sizes_and_checksum(void **state)
{
	size_t len;
	uint8_t *f = build(good, 3, &len);

	(void)state;
	refused(f, 100, "shorter than the 512-byte header");
	/* one byte cut off: the size field no longer fits */
	refused(f, len - 1, "size:");
	le32_at(f, (uint32_t)(len - 6));
	refused(f, len, "size: the header says");
	seal(f, len);
	f[600] ^= 1;
	refused(f, len, "checksum: the header says 0x");
	free(f);
}

static void test_header_bad_fields(void **state)
{
	size_t len;
	uint8_t *f = build(good, 3, &len);

	(void)state;
	f[32] = 0; /* i2c firmware */
	seal(f, len);
	refused(f, len, "bus_type");
	f[32] = 1;
	f[19] = 0x07; /* fw pid not text */
	seal(f, len);
	refused(f, len, "fw_pid");
	f[19] = '1';
	f[29] = 1; /* only the ISP */
	seal(f, len);
	refused(f, len, "subsys_num: 1");
	f[29] = 48;
	seal(f, len);
	refused(f, len, "subsys_num: 48");
	f[29] = 2; /* the third subsystem's bytes left over */
	seal(f, len);
	refused(f, len, "subsys_num: the 2 subsystems cover");
	free(f);
}

static void test_header_bad_subsystems(void **state)
{
	struct sub s[3];
	size_t len;
	uint8_t *f;

	(void)state;
	memcpy(s, good, sizeof(s));
	s[2].addr = 0x3F000; /* runs past 0x40000 */
	f = build(s, 3, &len);
	refused(f, len, "subsystem[2].flash_addr: 0x3F000 + 8198 bytes is beyond");
	free(f);

	memcpy(s, good, sizeof(s));
	s[2].addr = 0x3D000; /* 0x3D000-0x3F005 overlaps the config at 0x3E000 */
	f = build(s, 3, &len);
	refused(f, len, "subsystem[2].flash_addr: 0x3D000-0x3F005 overlaps subsystem[1]");
	free(f);

	memcpy(s, good, sizeof(s));
	s[1].size = 0x0FFF; /* odd */
	s[2].size = 0x2007;
	f = build(s, 3, &len);
	refused(f, len, "subsystem[1].size: 4095, odd");
	free(f);

	memcpy(s, good, sizeof(s));
	f = build(s, 3, &len);
	le32_at(f + 42 + 10 * 2 + 1, 0x4000); /* claims more than the file has */
	seal(f, len);
	refused(f, len, "subsystem[2].size: 16384 bytes from offset");
	le32_at(f + 42 + 10 * 2 + 1, 0);
	seal(f, len);
	refused(f, len, "subsystem[2].size: 0");
	free(f);
}

static void test_blob_rules(void **state)
{
	const struct tf_family *fam = tf_family_by_name("berlin");
	char *hw_good[] = { (char *)"9916" }, *hw_other[] = { (char *)"9897" };
	char *hw_bad[] = { (char *)"99 16" };
	struct tf_blob b = { 0 };
	const char *key = NULL;
	char msg[300];
	size_t len;
	uint8_t *f = build(good, 3, &len);

	(void)state;
	assert_non_null(fam);
	assert_ptr_equal(tf_family_by_driver("goodix-berlin-spi"), fam);
	b.id = (char *)"fw";
	b.type = TF_BLOB_FIRMWARE;
	b.file = (char *)"berlin.bin";
	b.hardware = hw_good;
	b.n_hardware = 1;
	b.version = (char *)"01000205";
	assert_int_equal(tf_version_parse("berlin", b.version, &b.v_version), 0);
	assert_int_equal(fam->check_blob(&b, &key, msg, sizeof(msg)), 0);
	assert_int_equal(fam->check_blob_data(&b, f, len, msg, sizeof(msg)), 0);

	b.version = (char *)"01000206";
	assert_int_equal(tf_version_parse("berlin", b.version, &b.v_version), 0);
	assert_int_equal(fam->check_blob_data(&b, f, len, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "berlin.bin: fw_vid: the file's version is 01000205"));

	b.version = (char *)"01000205";
	assert_int_equal(tf_version_parse("berlin", b.version, &b.v_version), 0);
	b.hardware = hw_other;
	assert_int_equal(fam->check_blob_data(&b, f, len, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "fw_pid: the file is for patch pid 9916"));

	b.hardware = hw_bad;
	assert_int_equal(fam->check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "hardware");
	b.hardware = hw_good;
	b.type = TF_BLOB_CONFIG;
	assert_int_equal(fam->check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "type");

	f[700] ^= 0xff;
	b.type = TF_BLOB_FIRMWARE;
	assert_int_equal(fam->check_blob_data(&b, f, len, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "berlin.bin: checksum"));
	free(f);
}

static void test_blob_facts(void **state)
{
	const struct tf_family *fam = tf_family_by_name("berlin");
	struct tf_blob_facts facts;
	struct tf_err err = { 0 };
	size_t len;
	uint8_t *f = build(good, 3, &len);

	(void)state;
	assert_int_equal(fam->blob_facts(f, len, "x.bin", &facts, &err), 0);
	assert_false(facts.is_config);
	assert_int_equal(facts.n_hardware, 1);
	assert_string_equal(facts.hardware[0], "9916");
	assert_string_equal(facts.version, "01000205");
	assert_int_equal(fam->blob_facts(f, 300, "x.bin", &facts, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "x.bin: not a Berlin firmware file"));
	free(f);
}

static void test_uevent_ids(void **state)
{
	const struct tf_family_ids *ids = tf_family_ids_by_name("berlin");
	struct tf_uevent ev = { 0 };

	(void)state;
	assert_non_null(ids);
	/* the empty chip's add: no driver, so the run must not wait for one */
	assert_true(ids->probe_needs_file);
	ev.modalias = "spi:gt9916";
	assert_ptr_equal(tf_family_ids_by_uevent(&ev), ids);
	ev.modalias = "of:NtouchscreenT(null)Cgoodix,gt9916";
	assert_ptr_equal(tf_family_ids_by_uevent(&ev), ids);
	ev.modalias = "spi:gt9916x";
	assert_null(tf_family_ids_by_uevent(&ev));
	ev.modalias = "i2c:gt9916";
	assert_null(tf_family_ids_by_uevent(&ev));
	ev.modalias = "spi:spidev";
	assert_null(tf_family_ids_by_uevent(&ev));
	assert_ptr_equal(tf_family_ids_by_driver("goodix-berlin-spi"), ids);
}

static void test_controller_rules(void **state)
{
	const struct tf_family *fam = tf_family_by_name("berlin");
	struct tf_controller ctl = { 0 };
	char msg[300];

	(void)state;
	snprintf(ctl.bus, sizeof(ctl.bus), "spi");
	ctl.power = TF_POWER_ALWAYS_ON;
	assert_int_equal(tf_family_check_controller(fam, &ctl, msg, sizeof(msg)), 0);
	ctl.power = TF_POWER_DRIVER;
	assert_int_equal(tf_family_check_controller(fam, &ctl, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "always-on"));
	ctl.power = TF_POWER_ALWAYS_ON;
	snprintf(ctl.bus, sizeof(ctl.bus), "i2c");
	assert_int_equal(tf_family_check_controller(fam, &ctl, msg, sizeof(msg)), -EINVAL);
	assert_non_null(strstr(msg, "spi only"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_byte_sum_vectors),
		cmocka_unit_test(test_word_sum_vectors),
		cmocka_unit_test(test_spi_prefixes),
		cmocka_unit_test(test_flash_command_vector),
		cmocka_unit_test(test_version_block),
		cmocka_unit_test(test_version_scheme),
		cmocka_unit_test(test_header_golden),
		cmocka_unit_test(test_header_bad_sizes_and_checksum),
		cmocka_unit_test(test_header_bad_fields),
		cmocka_unit_test(test_header_bad_subsystems),
		cmocka_unit_test(test_blob_rules),
		cmocka_unit_test(test_blob_facts),
		cmocka_unit_test(test_uevent_ids),
		cmocka_unit_test(test_controller_rules),
	};

	return cmocka_run_group_tests_name("berlin", tests, NULL, NULL);
}
