// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Cypress trackpad family's pure parts and its detection through the
 * driver's attributes: the Gen3 image rule as cyapa_gen3_check_fw makes it
 * (30848 bytes, two big-endian 16-bit sums), good and broken images built
 * here with sums computed here; the product id and `mode` as cyapa prints
 * them; the Gen5 (PIP) image rule as cyapa_pip_check_fw makes it, with
 * its CRC-16 checked against a command the kernel carries; the Gen3
 * register states and query block; the manifest rules;
 * `db add`'s facts; the registry entry; and detect() on a fake sysfs
 * directory (application, bootloader, other generations, another driver).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "family/cyapa/cyapa.h"
#include "family/family.h"
#include "family/update-path.h"
#include "fwdb.h"

#define FW_SIZE 30848
#define HDR 128

static uint8_t img[FW_SIZE + 64];

/* A Gen3 file: a header of @hdr_fill bytes and an application of a
 * pattern, with the two sums where cyapa reads them (big-endian). */
static void make(uint8_t hdr_fill)
{
	unsigned s = 0;
	size_t i;

	memset(img, 0, sizeof(img));
	memset(img, hdr_fill, HDR);
	for (i = HDR; i < FW_SIZE; i++)
		img[i] = (uint8_t)(i * 7 + 3);
	for (i = HDR; i < FW_SIZE; i++)
		s += img[i];
	img[126] = (uint8_t)(s >> 8);
	img[127] = (uint8_t)s;
	s = 0;
	for (i = 2; i < HDR; i++)
		s += img[i];
	img[0] = (uint8_t)(s >> 8);
	img[1] = (uint8_t)s;
}

static void test_image_rule(void **state)
{
	char msg[300];
	uint8_t t;

	(void)state;
	make(0x5a);
	assert_int_equal(cyapa_gen3_check_image(img, FW_SIZE, msg, sizeof(msg)), 0);
	make(0x00);
	assert_int_equal(cyapa_gen3_check_image(img, FW_SIZE, msg, sizeof(msg)), 0);
	/* one byte more or less: not the driver's size */
	assert_int_equal(cyapa_gen3_check_image(img, FW_SIZE + 1, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "30848"));
	assert_int_equal(cyapa_gen3_check_image(img, FW_SIZE - 64, msg, sizeof(msg)), -EBADMSG);
	assert_int_equal(cyapa_gen3_check_image(img, 0, msg, sizeof(msg)), -EBADMSG);
	/* a header byte changed: its sum is wrong */
	make(0x5a);
	img[50] ^= 0x01;
	assert_int_equal(cyapa_gen3_check_image(img, FW_SIZE, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "header checksum"));
	/* an application byte changed: the image sum is wrong (and so the
	 * header's, which does not cover it, is still right) */
	make(0x5a);
	img[FW_SIZE - 1] ^= 0x80;
	assert_int_equal(cyapa_gen3_check_image(img, FW_SIZE, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "image checksum"));
	/* the sums stored little-endian, as the driver's comment (not its
	 * code) says: refused */
	make(0x5a);
	t = img[0], img[0] = img[1], img[1] = t;
	assert_true(img[0] != img[1]);
	assert_int_equal(cyapa_gen3_check_image(img, FW_SIZE, msg, sizeof(msg)), -EBADMSG);
	make(0x5a);
	t = img[126], img[126] = img[127], img[127] = t;
	assert_true(img[126] != img[127]);
	assert_int_equal(cyapa_gen3_check_image(img, FW_SIZE, msg, sizeof(msg)), -EBADMSG);
	/* the sums wrap at 16 bits: an application of 0xff sums past 0xffff */
	memset(img, 0, HDR);
	memset(img + HDR, 0xff, FW_SIZE - HDR);
	img[126] = (uint8_t)((30720u * 0xff) >> 8);
	img[127] = (uint8_t)(30720u * 0xff);
	img[0] = (uint8_t)((img[126] + img[127]) >> 8);
	img[1] = (uint8_t)(img[126] + img[127]);
	assert_int_equal(cyapa_gen3_check_image(img, FW_SIZE, msg, sizeof(msg)), 0);
}

/* ------------------------------------------------------------ Gen5 (PIP) */

#define PIP_HEAD 19
#define PIP_REC 133
#define PIP_ROWS 465
#define PIP_SIZE (PIP_HEAD + (PIP_ROWS + 1) * PIP_REC)

static uint8_t pip[PIP_SIZE + 200];

/* crc_itu_t as lib/crc-itu-t.c computes it, bit by bit, here */
static uint16_t crc16(uint16_t crc, const uint8_t *p, size_t n)
{
	while (n--) {
		crc ^= (uint16_t)(*p++ << 8);
		for (int b = 0; b < 8; b++)
			crc = (uint16_t)(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
	}
	return crc;
}

/* The metadata row's CRCs again after a change. */
static void pip_seal(void)
{
	uint8_t *meta = pip + PIP_HEAD + PIP_ROWS * PIP_REC + 5;
	uint16_t crc = 0xffff;

	for (int i = 0; i < PIP_ROWS; i++)
		crc = crc16(crc, pip + PIP_HEAD + i * PIP_REC + 5, 128);
	meta[10] = (uint8_t)crc;
	meta[11] = (uint8_t)(crc >> 8);
	crc = crc16(0xffff, meta, 60);
	meta[60] = (uint8_t)crc;
	meta[61] = (uint8_t)(crc >> 8);
}

/* A Gen5 file as cyapa_pip_check_fw takes it: version 3.1, family id
 * 0x91, silicon id 0x02, rows 0x2e.. and the metadata row 0x1ff. */
static void make_pip(void)
{
	uint8_t *meta;

	memset(pip, 0, sizeof(pip));
	pip[0] = 0x12;
	pip[3] = 3;
	pip[4] = 1;
	pip[13] = 0x02;
	pip[16] = 0x91;
	for (int i = 0; i <= PIP_ROWS; i++) {
		uint8_t *r = pip + PIP_HEAD + i * PIP_REC;
		unsigned row = i < PIP_ROWS ? 0x2e + (unsigned)i : 0x1ff;

		r[1] = (uint8_t)(row >> 8);
		r[2] = (uint8_t)row;
		r[4] = 128;
		if (i < PIP_ROWS)
			for (int j = 0; j < 128; j++)
				r[5 + j] = (uint8_t)(i + j * 5);
	}
	meta = pip + PIP_HEAD + PIP_ROWS * PIP_REC + 5;
	meta[4] = 0x00; /* app_start 0x1700 */
	meta[5] = 0x17;
	meta[8] = (uint8_t)(PIP_ROWS * 128);
	meta[9] = (uint8_t)((PIP_ROWS * 128) >> 8);
	pip_seal();
}

static void test_pip_image_rule(void **state)
{
	/* the CRC the kernel's own bl_exit command carries (20 c7) */
	static const uint8_t launch[] = { 0x01, 0x3b, 0x00, 0x00 };
	char msg[200];
	unsigned maj = 0, min = 0;

	(void)state;
	assert_int_equal(cyapa_crc_itu_t(0xffff, launch, sizeof(launch)), 0xc720);
	make_pip();
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE, &maj, &min, msg, sizeof(msg)), 0);
	assert_int_equal(maj, 3);
	assert_int_equal(min, 1);
	assert_int_equal(cyapa_image_gen(pip, PIP_SIZE, msg, sizeof(msg)), 5);
	/* a record cut, an extra byte, nothing but a head */
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE - 1, &maj, &min, msg, sizeof(msg)),
			 -EBADMSG);
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE + 1, &maj, &min, msg, sizeof(msg)),
			 -EBADMSG);
	assert_int_equal(cyapa_pip_check_image(pip, PIP_HEAD, &maj, &min, msg, sizeof(msg)),
			 -EBADMSG);
	/* an application byte: its CRC */
	pip[PIP_HEAD + 7 * PIP_REC + 9] ^= 1;
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE, &maj, &min, msg, sizeof(msg)),
			 -EBADMSG);
	assert_non_null(strstr(msg, "application CRC"));
	pip_seal();
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE, &maj, &min, msg, sizeof(msg)), 0);
	/* the metadata's own CRC */
	pip[PIP_SIZE - 128 + 60] ^= 1;
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE, &maj, &min, msg, sizeof(msg)),
			 -EBADMSG);
	assert_non_null(strstr(msg, "metadata row's CRC"));
	/* an application length beyond the file's rows */
	make_pip();
	pip[PIP_SIZE - 128 + 9] = 0xff;
	pip[PIP_SIZE - 128 + 8] = 0x80;
	pip_seal();
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE, &maj, &min, msg, sizeof(msg)),
			 -EBADMSG);
	/* misaligned */
	make_pip();
	pip[PIP_SIZE - 128 + 4] = 0x01;
	pip_seal();
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE, &maj, &min, msg, sizeof(msg)),
			 -EBADMSG);
	assert_non_null(strstr(msg, "row-aligned"));
	/* the last record not the metadata row; a row out of range */
	make_pip();
	pip[PIP_SIZE - 133 + 2] = 0xfe;
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE, &maj, &min, msg, sizeof(msg)),
			 -EBADMSG);
	make_pip();
	pip[PIP_HEAD + 1] = 0x00;
	pip[PIP_HEAD + 2] = 0x10;
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE, &maj, &min, msg, sizeof(msg)),
			 -EBADMSG);
	/* a Gen6 part's head (cyapa_pip_fw_head_check: family id 0x9b,
	 * silicon id 0x0b): the same rules, generation 6; half of it, or
	 * another part's, refused */
	make_pip();
	pip[13] = 0x0b;
	pip[16] = 0x9b;
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE, &maj, &min, msg, sizeof(msg)), 0);
	assert_int_equal(cyapa_pip_head_gen(pip, PIP_SIZE), 6);
	assert_int_equal(cyapa_image_gen(pip, PIP_SIZE, msg, sizeof(msg)), 6);
	pip[PIP_HEAD + 7 * PIP_REC + 9] ^= 1;
	assert_int_equal(cyapa_image_gen(pip, PIP_SIZE, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "application CRC"));
	pip[PIP_HEAD + 7 * PIP_REC + 9] ^= 1;
	pip[13] = 0x02;
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE, &maj, &min, msg, sizeof(msg)),
			 -EBADMSG);
	assert_non_null(strstr(msg, "nor a Gen6 part's (0x9b, 0x0b)"));
	pip[13] = 0x0b;
	pip[16] = 0x90;
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE, &maj, &min, msg, sizeof(msg)),
			 -EBADMSG);
	assert_int_equal(cyapa_pip_head_gen(pip, PIP_SIZE), -EBADMSG);
	make_pip();
	pip[0] = 0x0c;
	assert_int_equal(cyapa_pip_check_image(pip, PIP_SIZE, &maj, &min, msg, sizeof(msg)),
			 -EBADMSG);
	assert_non_null(strstr(msg, "13-byte head"));
	/* neither generation's */
	assert_int_equal(cyapa_image_gen(pip + 1, 100, msg, sizeof(msg)), -EBADMSG);
	make(0x11);
	assert_int_equal(cyapa_image_gen(img, FW_SIZE, msg, sizeof(msg)), 3);
}

static void test_product_id(void **state)
{
	(void)state;
	assert_true(cyapa_product_id_ok("CYTRA-116002-00"));
	assert_true(cyapa_product_id_ok("CYTRA-101003-0A"));
	assert_false(cyapa_product_id_ok("CYTRA-116002-0"));
	assert_false(cyapa_product_id_ok("CYTRA-116002-000"));
	assert_false(cyapa_product_id_ok("CYTRB-116002-00"));
	assert_false(cyapa_product_id_ok("CYTRA_116002_00"));
	assert_false(cyapa_product_id_ok("CYTRA-1160 2-00"));
	assert_false(cyapa_product_id_ok("CYTRA-116002-\x01\x02"));
	assert_false(cyapa_product_id_ok(""));
	assert_false(cyapa_product_id_ok(NULL));
}

static void test_mode(void **state)
{
	unsigned gen = 0;
	bool op = false;

	(void)state;
	assert_int_equal(cyapa_parse_mode("gen3 operational", &gen, &op), 0);
	assert_int_equal(gen, 3);
	assert_true(op);
	assert_int_equal(cyapa_parse_mode("gen3 bootloader idle", &gen, &op), 0);
	assert_false(op);
	assert_int_equal(cyapa_parse_mode("gen3 bootloader active", &gen, &op), 0);
	assert_int_equal(cyapa_parse_mode("gen3 bootloader busy", &gen, &op), 0);
	assert_int_equal(cyapa_parse_mode("gen5 bootloader", &gen, &op), 0);
	assert_int_equal(gen, 5);
	assert_int_equal(cyapa_parse_mode("gen6 operational", &gen, &op), 0);
	assert_int_equal(gen, 6);
	assert_int_equal(cyapa_parse_mode("gen3 invalid mode", &gen, &op), -EBADMSG);
	assert_int_equal(cyapa_parse_mode("gen3  operational", &gen, &op), -EBADMSG);
	assert_int_equal(cyapa_parse_mode("gen3", &gen, &op), -EBADMSG);
	assert_int_equal(cyapa_parse_mode("gen operational", &gen, &op), -EBADMSG);
	assert_int_equal(cyapa_parse_mode("Gen3 operational", &gen, &op), -EBADMSG);
	assert_int_equal(cyapa_parse_mode("", &gen, &op), -EBADMSG);
}

static void test_gen3_states(void **state)
{
	static const uint8_t idle_ok[3] = { 0x00, 0x11, 0x00 },
			     idle_bad[3] = { 0x00, 0x10, 0x00 },
			     active[3] = { 0x00, 0x10, 0x20 }, busy[3] = { 0x00, 0x90, 0x20 },
			     app[3] = { 0x8c, 0x08, 0x00 }, app_touch[3] = { 0x8f, 0x29, 0x00 },
			     app_zeroed[3] = { 0x0c, 0x08, 0x00 },
			     too_many[3] = { 0x8c, 0x68, 0x00 }, zeros[3] = { 0, 0, 0 },
			     ffs[3] = { 0xff, 0xff, 0xff }, file_set[3] = { 0x01, 0x11, 0x00 };
	bool b;

	(void)state;
	assert_int_equal(cyapa_gen3_state(idle_ok, &b), 0);
	assert_false(b);
	assert_int_equal(cyapa_gen3_state(idle_bad, &b), 0);
	assert_int_equal(cyapa_gen3_state(active, &b), 0);
	assert_int_equal(cyapa_gen3_state(busy, &b), 0);
	assert_true(b);
	assert_int_equal(cyapa_gen3_state(app, &b), 1);
	assert_int_equal(cyapa_gen3_state(app_touch, &b), 1);
	assert_int_equal(cyapa_gen3_state(app_zeroed, &b), 1);
	/* six fingers: no Gen3 part reports that */
	assert_int_equal(cyapa_gen3_state(too_many, &b), -EBADMSG);
	/* an empty or erased EEPROM, a command file register that is not 0 */
	assert_int_equal(cyapa_gen3_state(zeros, &b), -EBADMSG);
	assert_int_equal(cyapa_gen3_state(ffs, &b), -EBADMSG);
	assert_int_equal(cyapa_gen3_state(file_set, &b), -EBADMSG);
}

static void query(uint8_t q[27], const char *raw13, uint8_t gen)
{
	memset(q, 0, 27);
	memcpy(q, raw13, 13);
	q[15] = 2;
	q[16] = 9;
	q[19] = 0x08;
	q[20] = (uint8_t)(0x20 | gen);
}

static void test_gen3_query(void **state)
{
	char id[CYAPA_PRODUCT_ID_LEN + 1];
	unsigned maj, min;
	uint8_t q[27];

	(void)state;
	query(q, "CYTRA11600200", 3);
	assert_int_equal(cyapa_gen3_query(q, id, &maj, &min), 0);
	assert_string_equal(id, "CYTRA-116002-00");
	assert_int_equal(maj, 2);
	assert_int_equal(min, 9);
	query(q, "CYTRA11600200", 5);
	assert_int_equal(cyapa_gen3_query(q, id, &maj, &min), -EBADMSG);
	query(q, "ELANX11600200", 3);
	assert_int_equal(cyapa_gen3_query(q, id, &maj, &min), -EBADMSG);
	memset(q, 0xff, sizeof(q));
	assert_int_equal(cyapa_gen3_query(q, id, &maj, &min), -EBADMSG);
}

static void test_manifest_rule(void **state)
{
	char *ok[] = { "CYTRA-116002-00" }, *two[] = { "CYTRA-116002-00", "CYTRA-101003-00" },
	     *short_id[] = { "CYTRA-1160-00" }, *other[] = { "18" };
	struct tf_blob b = { .type = TF_BLOB_FIRMWARE, .hardware = ok, .n_hardware = 1 };
	const char *key = NULL;
	char msg[300];

	(void)state;
	assert_int_equal(cyapa_check_blob(&b, &key, msg, sizeof(msg)), 0);
	b.hardware = two;
	b.n_hardware = 2;
	assert_int_equal(cyapa_check_blob(&b, &key, msg, sizeof(msg)), 0);
	b.n_hardware = 1;
	b.hardware = short_id;
	assert_int_equal(cyapa_check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "hardware");
	b.hardware = other;
	assert_int_equal(cyapa_check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	/* the image does not say its product: the manifest must */
	b.n_hardware = 0;
	key = NULL;
	assert_int_equal(cyapa_check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "hardware");
	b.hardware = ok;
	b.n_hardware = 1;
	b.type = TF_BLOB_CONFIG;
	assert_int_equal(cyapa_check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "type");
	make(0x11);
	b.type = TF_BLOB_FIRMWARE;
	assert_int_equal(cyapa_check_blob_data(&b, img, FW_SIZE, msg, sizeof(msg)), 0);
	img[200] ^= 1;
	assert_int_equal(cyapa_check_blob_data(&b, img, FW_SIZE, msg, sizeof(msg)), -EBADMSG);
}

static void test_blob_facts(void **state)
{
	struct tf_blob_facts f;
	struct tf_err err = { 0 };

	(void)state;
	make(0x22);
	assert_int_equal(cyapa_blob_facts(img, FW_SIZE, "/x/CYTRA-116002-00_2.9.bin", &f, &err),
			 0);
	assert_false(f.is_config);
	assert_int_equal(f.n_hardware, 1);
	assert_string_equal(f.hardware[0], "CYTRA-116002-00");
	assert_true(f.hardware_guessed);
	assert_string_equal(f.version, "2.9");
	/* a name that is not ChromeOS's form says nothing */
	assert_int_equal(cyapa_blob_facts(img, FW_SIZE, "cyapa.bin", &f, &err), 0);
	assert_int_equal(f.n_hardware, 0);
	assert_string_equal(f.version, "");
	assert_int_equal(cyapa_blob_facts(img, FW_SIZE, "CYTRA-116002-00_+2.9.bin", &f, &err),
			 0);
	assert_int_equal(f.n_hardware, 0);
	assert_int_equal(cyapa_blob_facts(img, FW_SIZE, "CYTRA-116002-00_2.9.hex", &f, &err),
			 0);
	assert_int_equal(f.n_hardware, 0);
	/* a broken image is none */
	img[0] ^= 1;
	assert_int_equal(cyapa_blob_facts(img, FW_SIZE, "CYTRA-116002-00_2.9.bin", &f, &err),
			 -EBADMSG);
	assert_non_null(strstr(err.msg, "header checksum"));
	/* a Gen6 image: said so, its version from its head (3.1) */
	make_pip();
	pip[13] = 0x0b;
	pip[16] = 0x9b;
	assert_int_equal(cyapa_blob_facts(pip, PIP_SIZE, "CYTRA-103002-00_3.1.bin", &f, &err),
			 0);
	assert_non_null(strstr(f.what, "Cypress Gen6 (PIP) trackpad firmware image"));
	assert_string_equal(f.version, "3.1");
	assert_string_equal(f.hardware[0], "CYTRA-103002-00");
}

/* The product a file's name gives (cyapa_fw_write compares it with the
 * trackpad's), the same rule as db add's. */
static void test_name_product(void **state)
{
	char id[CYAPA_PRODUCT_ID_LEN + 1];
	unsigned maj = 0, min = 0;

	(void)state;
	assert_int_equal(cyapa_name_product("/a/b/CYTRA-101003-00_3.10.bin", id, &maj, &min),
			 0);
	assert_string_equal(id, "CYTRA-101003-00");
	assert_int_equal(maj, 3);
	assert_int_equal(min, 10);
	assert_int_equal(cyapa_name_product("cyapa.bin", id, &maj, &min), -ENOENT);
	assert_int_equal(cyapa_name_product("CYTRA-101003-00_3.0.hex", id, &maj, &min),
			 -ENOENT);
	assert_int_equal(cyapa_name_product("CYTRB-101003-00_3.0.bin", id, &maj, &min),
			 -ENOENT);
	assert_int_equal(cyapa_name_product("CYTRA-101003-00_3.bin", id, &maj, &min), -ENOENT);
	assert_int_equal(cyapa_name_product("x.y/CYTRA_1", id, &maj, &min), -ENOENT);
	assert_int_equal(cyapa_name_product("CYTRA-101003-00_3.0/x.bin", id, &maj, &min),
			 -ENOENT);
}

static void test_registry_entry(void **state)
{
	const struct tf_family *f = tf_family_by_driver("cyapa");
	const struct tf_family_ids *ids = tf_family_ids_by_name("cyapa");
	char why[200], name[TF_FW_NAME_MAX];
	struct tf_chip_state st = { 0 };
	struct tf_err err = { 0 };

	(void)state;
	assert_non_null(f);
	assert_non_null(ids);
	assert_ptr_equal(f->ids, ids);
	assert_int_equal(tf_family_check(f, why, sizeof(why)), 0);
	assert_string_equal(f->caps.kernel_fw_attr, "update_fw");
	/* the name written is the name the driver requests */
	assert_int_equal(f->ops->kernel_fw_name(NULL, &st, name, sizeof(name), &err), 0);
	assert_string_equal(name, f->caps.kernel_fw_value);
	assert_string_equal(name, "cyapa.bin");
	/* it registers its new input device by itself: no rebind; nothing
	 * over the bus */
	assert_null(f->caps.kernel_fw_rebind);
	assert_false(f->caps.bus_flash);
	assert_false(f->caps.bus_recovery);
	assert_true(f->caps.bootloader_mode);
	assert_non_null(f->ops->update_path);
	assert_non_null(f->ops->update_path->choose);
	assert_null(f->ops->write_firmware);
	assert_false(ids->probe_fails_in_bootloader);
	assert_string_equal(ids->i2c_ids[0], "cyapa");
	assert_string_equal(ids->compatibles[0], "cypress,cyapa");
	assert_string_equal(ids->acpi_ids[0], "CYAP0000");
	/* only the file checks refuse an image; the rest is an attempt */
	assert_true(f->ops->kernel_fw_rejected(EINVAL, NULL));
	assert_false(f->ops->kernel_fw_rejected(EIO, NULL));
	assert_false(f->ops->kernel_fw_rejected(EAGAIN, NULL));
	assert_false(f->ops->kernel_fw_rejected(ENOENT, NULL));
}

/* ---- detect() through the driver's attributes, on a fake sysfs dir ---- */

static char dir[PATH_MAX];

static void put(const char *name, const char *value)
{
	char p[PATH_MAX + 64];
	FILE *fp;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(value, fp);
	fclose(fp);
}

static void drop(const char *name)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	(void)unlink(p);
}

static int setup_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_cyapa.XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
	(void)state;
	drop("mode");
	drop("product_id");
	drop("firmware_version");
	return rmdir(dir);
}

static int run_detect(const char *driver, struct tf_chip_state *st, struct tf_err *err)
{
	const struct tf_family *f = tf_family_by_name("cyapa");
	struct tf_ctx c = { 0 };

	snprintf(c.dev.syspath, sizeof(c.dev.syspath), "%s", dir);
	snprintf(c.dev.driver, sizeof(c.dev.driver), "%s", driver);
	c.dev.addr = 0x67;
	tf_err_clear(err);
	return f->ops->detect(&c, st, err);
}

static void test_detect_bound(void **state)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };

	(void)state;
	put("mode", "gen3 operational\n");
	put("product_id", "CYTRA-116002-00\n");
	put("firmware_version", "2.9\n");
	assert_int_equal(run_detect("cyapa", &st, &err), 0);
	assert_int_equal(st.mode, TF_CHIP_APP);
	assert_string_equal(st.hw, "CYTRA-116002-00");
	assert_true(st.has_version);
	assert_string_equal(st.version_str, "2.9");

	/* in its bootloader: no product id (the driver never read one; an
	 * empty file is not waited for), no version */
	put("mode", "gen3 bootloader idle\n");
	put("product_id", "\n");
	put("firmware_version", "0.0\n");
	assert_int_equal(run_detect("cyapa", &st, &err), 0);
	assert_int_equal(st.mode, TF_CHIP_BOOTLOADER);
	assert_string_equal(st.hw, "");
	assert_false(st.has_version);
	assert_non_null(strstr(st.detail, "bootloader idle"));

	/* a product the driver would not operate */
	put("mode", "gen3 operational\n");
	put("product_id", "XYZAB-116002-00\n");
	put("firmware_version", "2.9\n");
	assert_int_equal(run_detect("cyapa", &st, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "not touched"));

	/* Gen5 (PIP): the same attributes */
	put("mode", "gen5 operational\n");
	put("product_id", "CYTRA-103002-00\n");
	put("firmware_version", "3.1\n");
	assert_int_equal(run_detect("cyapa", &st, &err), 0);
	assert_int_equal(st.mode, TF_CHIP_APP);
	assert_string_equal(st.hw, "CYTRA-103002-00");
	assert_string_equal(st.version_str, "3.1");
	put("mode", "gen5 bootloader\n");
	assert_int_equal(run_detect("cyapa", &st, &err), 0);
	assert_int_equal(st.mode, TF_CHIP_BOOTLOADER);
	assert_string_equal(st.hw, "");
	/* Gen6 (PIP): the same attributes, "gen6 ..." */
	put("mode", "gen6 operational\n");
	put("product_id", "CYTRA-103002-00\n");
	put("firmware_version", "3.2\n");
	assert_int_equal(run_detect("cyapa", &st, &err), 0);
	assert_int_equal(st.mode, TF_CHIP_APP);
	assert_string_equal(st.hw, "CYTRA-103002-00");
	assert_string_equal(st.version_str, "3.2");
	assert_non_null(strstr(st.detail, "gen6 operational"));
	put("mode", "gen6 bootloader\n");
	assert_int_equal(run_detect("cyapa", &st, &err), 0);
	assert_int_equal(st.mode, TF_CHIP_BOOTLOADER);
	assert_string_equal(st.hw, "");
	/* another generation (Gen4, which cyapa does not drive): not claimed,
	 * nothing sent */
	put("mode", "gen4 operational\n");
	assert_int_equal(run_detect("cyapa", &st, &err), -EOPNOTSUPP);
	assert_non_null(strstr(err.msg, "Gen4"));

	/* text cyapa does not print */
	put("mode", "gen3 invalid mode\n");
	assert_int_equal(run_detect("cyapa", &st, &err), -EBADMSG);
	put("mode", "gen3 operational\n");
	put("firmware_version", "2.x\n");
	assert_int_equal(run_detect("cyapa", &st, &err), -EBADMSG);

	/* bound to another driver (an EEPROM's): not ours to touch */
	assert_int_equal(run_detect("at24", &st, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "at24"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image_rule),
		cmocka_unit_test(test_pip_image_rule),
		cmocka_unit_test(test_product_id),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_gen3_states),
		cmocka_unit_test(test_gen3_query),
		cmocka_unit_test(test_manifest_rule),
		cmocka_unit_test(test_blob_facts),
		cmocka_unit_test(test_name_product),
		cmocka_unit_test(test_registry_entry),
		cmocka_unit_test_setup_teardown(test_detect_bound, setup_dir, teardown_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
