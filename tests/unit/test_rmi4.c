// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Synaptics RMI4 family's pure parts: the image checks (the v10
 * container header rmi_f34v7 parses, the v5 header of rmi_f34), the
 * product id and bootloader id forms, the manifest rules, the facts for
 * `db add`, the registry entry, and F01's queries read as
 * rmi_f01_read_properties walks them (the unbound part's build id).
 * Images and registers are built here, byte by byte from the kernel's
 * layout (rmi_f34.h, rmi_f01.c), not with the family's code.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "family/family.h"
#include "family/rmi4/rmi4.h"
#include "fwdb.h"

static uint8_t img[4096];

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* A container descriptor at @at: id, content length and address. */
static void desc(uint32_t at, unsigned id, uint32_t addr, uint32_t len)
{
	img[at + 4] = (uint8_t)id;
	img[at + 5] = (uint8_t)(id >> 8);
	put32(img + at + 24, len);
	put32(img + at + 28, addr);
}

enum form { GOOD, NO_FLASH_CONFIG, NO_BL_CONFIG, BL6, NO_PRODUCT, PAST_END, NO_CORE_CODE };

/*
 * A v10 image: descriptors from 0x20, the top level's list at 0x200, the
 * bootloader container at 0x220 (version byte, then its own list), the
 * general information at 0x240 (build id at 4, product id at 0x18),
 * contents from 0x300.
 */
static size_t make_v10(enum form f, const char *product, uint32_t build)
{
	uint32_t list = 0x200, n = 0;
	size_t len = 0x300 + 0x400 + 0x40 + 0x40 + 0x20;

	memset(img, 0, sizeof(img));
	img[7] = 0x10;
	put32(img + 12, 0x20);
	desc(0x40, 18, 0x300, 0x400);	  /* core code */
	desc(0x60, 19, 0x700, 0x40);	  /* core config */
	desc(0x80, 15, 0x740, 0x40);	  /* flash config */
	desc(0xa0, 3, 0x220, 8);	  /* bootloader */
	desc(0xc0, 17, 0x780, 0x20);	  /* global parameters (BL config) */
	desc(0xe0, 13, 0x240, 0x18 + 10); /* general information */
	img[0x220] = f == BL6 ? 6 : 7;
	put32(img + 0x224, f == NO_BL_CONFIG ? 0xe0 : 0xc0);
	put32(img + 0x244, build);
	if (f != NO_PRODUCT)
		memcpy(img + 0x240 + 0x18, product, strlen(product));
	if (f != NO_CORE_CODE)
		put32(img + list + 4 * n++, 0x40);
	put32(img + list + 4 * n++, 0x60);
	if (f != NO_FLASH_CONFIG)
		put32(img + list + 4 * n++, 0x80);
	put32(img + list + 4 * n++, 0xa0);
	put32(img + list + 4 * n++, 0xe0);
	if (f == PAST_END)
		desc(0x60, 19, 0x700, 0x4000);
	desc(0x20, 0, list, 4 * n);
	return len;
}

/* struct rmi_f34_firmware: bootloader version 5, firmware and config. */
static size_t make_v5(const char *product, uint32_t fw, uint32_t cfg)
{
	memset(img, 0, sizeof(img));
	img[7] = 5;
	put32(img + 8, fw);
	put32(img + 12, cfg);
	memcpy(img + 0x10, product, strlen(product));
	return 0x100 + fw + cfg;
}

static void test_v10_good(void **state)
{
	struct rmi4_image im;
	char msg[200] = "";
	size_t len = make_v10(GOOD, "s3203", 0x123456);

	(void)state;
	assert_int_equal(rmi4_image_parse(img, len, &im, msg, sizeof(msg)), 0);
	assert_int_equal(im.header, 0x10);
	assert_int_equal(im.bl_version, 7);
	assert_true(im.has_build_id);
	assert_int_equal(im.build_id, 0x123456);
	assert_string_equal(im.product_id, "s3203");
	assert_int_equal(im.core_code, 0x400);
	assert_int_equal(im.core_config, 0x40);
	assert_int_equal(im.flash_config, 0x40);
	assert_int_equal(im.bl_config, 0x20);
}

static void test_v10_broken(void **state)
{
	struct rmi4_image im;
	char msg[200];
	size_t len;

	(void)state;
	len = make_v10(GOOD, "s3203", 1);
	img[7] = 0x0f; /* neither 0x10 nor 5/6: "Unsupported image file format" */
	assert_int_equal(rmi4_image_parse(img, len, &im, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "byte 7 is 0x0f"));

	len = make_v10(NO_FLASH_CONFIG, "s3203", 1);
	assert_int_equal(rmi4_image_parse(img, len, &im, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "no flash config"));

	len = make_v10(NO_BL_CONFIG, "s3203", 1);
	assert_int_equal(rmi4_image_parse(img, len, &im, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "bootloader configuration"));

	len = make_v10(BL6, "s3203", 1);
	assert_int_equal(rmi4_image_parse(img, len, &im, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "bootloader version 6"));

	len = make_v10(NO_CORE_CODE, "s3203", 1);
	assert_int_equal(rmi4_image_parse(img, len, &im, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "no core code"));

	len = make_v10(PAST_END, "s3203", 1);
	assert_int_equal(rmi4_image_parse(img, len, &im, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "past the end"));

	/* the top-level descriptor itself past the end */
	len = make_v10(GOOD, "s3203", 1);
	put32(img + 12, (uint32_t)len - 8);
	assert_int_equal(rmi4_image_parse(img, len, &im, msg, sizeof(msg)), -EBADMSG);

	/* every cut of a good image is refused, never read past */
	len = make_v10(GOOD, "s3203", 1);
	for (size_t cut = 0; cut < 0x7a0; cut += 7)
		assert_int_equal(rmi4_image_parse(img, cut, &im, msg, sizeof(msg)), -EBADMSG);

	/* no product id: parsed, but it says none */
	len = make_v10(NO_PRODUCT, "s3203", 1);
	assert_int_equal(rmi4_image_parse(img, len, &im, msg, sizeof(msg)), 0);
	assert_string_equal(im.product_id, "");
}

static void test_v5_header(void **state)
{
	struct rmi4_image im;
	char msg[200];
	size_t len = make_v5("TM3038-002", 0x200, 0x40);

	(void)state;
	assert_int_equal(rmi4_image_parse(img, len, &im, msg, sizeof(msg)), 0);
	assert_int_equal(im.bl_version, 5);
	assert_false(im.has_build_id);
	assert_string_equal(im.product_id, "TM3038-002");
	assert_int_equal(rmi4_image_parse(img, len - 1, &im, msg, sizeof(msg)), -EBADMSG);
	len = make_v5("s3203", 0x200, 0); /* rmi_f34: "no config data" */
	assert_int_equal(rmi4_image_parse(img, len, &im, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "no config data"));
}

static void test_ids_forms(void **state)
{
	unsigned m = 0;

	(void)state;
	assert_true(rmi4_product_ok("s3203"));
	assert_true(rmi4_product_ok("TM3038-002"));
	assert_false(rmi4_product_ok(""));
	assert_false(rmi4_product_ok("TM3038-0021"));
	assert_false(rmi4_product_ok("s 3203"));
	assert_int_equal(rmi4_bl_major("V7.0", &m), 0);
	assert_int_equal(m, 7);
	assert_int_equal(rmi4_bl_major("V8.2", &m), 0);
	assert_int_equal(m, 8);
	assert_int_equal(rmi4_bl_major("52", &m), -EINVAL);
	assert_int_equal(rmi4_bl_major("V7", &m), -EINVAL);
	assert_int_equal(rmi4_bl_major("V7.0x", &m), -EINVAL);
	/* rmi_f34's bootloader_id for v5: the two id bytes, "%c%c" */
	assert_int_equal(rmi4_bl_version("05", &m), 0);
	assert_int_equal(m, 5);
	assert_int_equal(rmi4_bl_version("V7.0", &m), 0);
	assert_int_equal(m, 7);
	assert_int_equal(rmi4_bl_version("5", &m), -EINVAL);
	assert_int_equal(rmi4_bl_version("0 ", &m), -EINVAL);
	assert_int_equal(rmi4_bl_version("055", &m), -EINVAL);
}

static void test_manifest_rules(void **state)
{
	char *ok[] = { "s3203" }, *bad[] = { "s 3203" }, *other[] = { "s3320" };
	struct tf_blob b = { .type = TF_BLOB_FIRMWARE, .hardware = ok, .n_hardware = 1 };
	const char *key = NULL;
	char msg[200];
	size_t len;

	(void)state;
	assert_int_equal(rmi4_check_blob(&b, &key, msg, sizeof(msg)), 0);
	b.hardware = bad;
	assert_int_equal(rmi4_check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "hardware");
	b.hardware = ok;
	b.type = TF_BLOB_CONFIG;
	assert_int_equal(rmi4_check_blob(&b, &key, msg, sizeof(msg)), -EINVAL);
	assert_string_equal(key, "type");
	b.type = TF_BLOB_FIRMWARE;
	len = make_v10(GOOD, "s3203", 7);
	assert_int_equal(rmi4_check_blob_data(&b, img, len, msg, sizeof(msg)), 0);
	b.hardware = other; /* the image says another product */
	assert_int_equal(rmi4_check_blob_data(&b, img, len, msg, sizeof(msg)), -EBADMSG);
	assert_non_null(strstr(msg, "for product s3203"));
	len = make_v10(NO_FLASH_CONFIG, "s3203", 7);
	assert_int_equal(rmi4_check_blob_data(&b, img, len, msg, sizeof(msg)), -EBADMSG);
}

static void test_blob_facts(void **state)
{
	struct tf_blob_facts f;
	struct tf_err err = { 0 };
	size_t len = make_v10(GOOD, "s3203", 4242);

	(void)state;
	assert_int_equal(rmi4_blob_facts(img, len, "x.img", &f, &err), 0);
	assert_int_equal(f.n_hardware, 1);
	assert_string_equal(f.hardware[0], "s3203");
	assert_string_equal(f.version, "4242");
	assert_false(f.is_config);
	len = make_v10(NO_PRODUCT, "", 4242);
	assert_int_equal(rmi4_blob_facts(img, len, "x.img", &f, &err), 0);
	assert_int_equal(f.n_hardware, 0);
	assert_true(f.hardware_hint[0] != '\0');
	img[7] = 0x11;
	assert_int_equal(rmi4_blob_facts(img, len, "x.img", &f, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "x.img"));
}

static void test_registry_entry(void **state)
{
	const struct tf_family *f = tf_family_by_name("rmi4");
	char why[200];

	(void)state;
	assert_non_null(f);
	assert_ptr_equal(tf_family_by_driver("rmi4_smbus"), f);
	assert_ptr_equal(tf_family_by_driver("rmi4_i2c"), f);
	assert_int_equal(tf_family_check(f, why, sizeof(why)), 0);
	assert_non_null(f->caps.kernel_fw_attr);
	assert_false(f->caps.bus_flash);
	assert_true(f->caps.transports & TF_TRANSPORT_SMBUS);
}

/*
 * F01's queries on a part whose registers a test sets byte by byte, as
 * rmi_f01_read_properties reads them: one address a register, queries
 * 0..20 at the query base, the optional ones from base + 21, the product
 * info (package id, build id) from base + 17.  Every read is logged.
 */
static uint8_t regs[256];
static struct {
	uint16_t addr;
	size_t len;
} rd_log[16];
static unsigned n_rd;
static int fail_addr = -1;

static int fake_rd(void *ctx, uint16_t addr, uint8_t *buf, size_t len)
{
	(void)ctx;
	if (n_rd < 16) {
		rd_log[n_rd].addr = addr;
		rd_log[n_rd].len = len;
	}
	n_rd++;
	if ((int)addr == fail_addr)
		return -EIO;
	if (addr + len > sizeof(regs))
		return -EINVAL;
	memcpy(buf, regs + addr, len);
	return 0;
}

#define QB 0x10 /* F01's query base in these tests */

/* Queries 0..20: Synaptics, properties @q1, product id @pid. */
static void f01_part(uint8_t q1, const char *pid)
{
	memset(regs, 0, sizeof(regs));
	n_rd = 0;
	fail_addr = -1;
	regs[QB] = 1;
	regs[QB + 1] = q1;
	memcpy(regs + QB + 11, pid, strlen(pid));
}

static void expect_read(unsigned i, uint16_t addr, size_t len)
{
	assert_true(i < n_rd);
	assert_int_equal(rd_log[i].addr, addr);
	assert_int_equal(rd_log[i].len, len);
}

static void test_f01_build_id_where_rmi_f01_reads_it(void **state)
{
	struct rmi4_f01 f;

	(void)state;
	/* query 42 (properties bit 7), DS4 queries, their length 1, the
	 * build id query (bit 1); build 0x1e1310 at base + 17, LE */
	f01_part(0x80, "s3203");
	regs[QB + 17] = 0x10;
	regs[QB + 18] = 0x13;
	regs[QB + 19] = 0x1e;
	regs[QB + 21] = 0x01;
	regs[QB + 22] = 1;
	regs[QB + 23] = 0x02;
	assert_int_equal(rmi4_f01_read(fake_rd, NULL, QB, &f), 0);
	assert_int_equal(f.manufacturer, 1);
	assert_string_equal(f.product_id, "s3203");
	assert_true(f.has_build_id);
	assert_false(f.has_package_id);
	assert_int_equal(f.build_id, 1970960);
	assert_int_equal(n_rd, 5);
	expect_read(0, QB, 21);
	expect_read(1, QB + 21, 1);
	expect_read(2, QB + 22, 1);
	expect_read(3, QB + 23, 1);
	expect_read(4, QB + 17, 3);

	/* a sensor id (properties bit 3) moves query 42 one address on */
	f01_part(0x88, "s3203");
	regs[QB + 17] = 0x01;
	regs[QB + 22] = 0x01;
	regs[QB + 23] = 1;
	regs[QB + 24] = 0x02;
	assert_int_equal(rmi4_f01_read(fake_rd, NULL, QB, &f), 0);
	assert_true(f.has_build_id);
	assert_int_equal(f.build_id, 1);
	expect_read(1, QB + 22, 1);
	expect_read(3, QB + 24, 1);

	/* a package id query too: 8 bytes at base + 17, the build id one
	 * address on */
	f01_part(0x80, "s3203");
	regs[QB + 17] = 0x78;
	regs[QB + 18] = 0x56;
	regs[QB + 19] = 0x34;
	regs[QB + 20] = 0x12;
	regs[QB + 21] = 0x01;
	regs[QB + 22] = 1;
	regs[QB + 23] = 0x03;
	assert_int_equal(rmi4_f01_read(fake_rd, NULL, QB, &f), 0);
	assert_string_equal(f.product_id, "s3203");
	assert_true(f.has_package_id);
	assert_int_equal(f.package_id, 0x12345678);
	assert_true(f.has_build_id);
	assert_int_equal(f.build_id, 0x123456);
	assert_int_equal(n_rd, 6);
	expect_read(4, QB + 17, 8);
	expect_read(5, QB + 18, 3);
}

static void test_f01_without_build_id_query(void **state)
{
	struct rmi4_f01 f;

	(void)state;
	/* no query 42: queries 0..20 only; the product id is the 10 bytes
	 * from query 11 on */
	f01_part(0x00, "TM3038-002");
	assert_int_equal(rmi4_f01_read(fake_rd, NULL, QB, &f), 0);
	assert_string_equal(f.product_id, "TM3038-002");
	assert_false(f.has_build_id);
	assert_int_equal(n_rd, 1);
	/* query 42 without DS4 queries */
	f01_part(0x80, "s3203");
	assert_int_equal(rmi4_f01_read(fake_rd, NULL, QB, &f), 0);
	assert_false(f.has_build_id);
	assert_int_equal(n_rd, 2);
	/* DS4 queries of length 0: the DS4 query is not read */
	f01_part(0x80, "s3203");
	regs[QB + 21] = 0x01;
	regs[QB + 23] = 0x02;
	assert_int_equal(rmi4_f01_read(fake_rd, NULL, QB, &f), 0);
	assert_false(f.has_build_id);
	assert_int_equal(n_rd, 3);
	/* a DS4 query without the build id bit */
	f01_part(0x80, "s3203");
	regs[QB + 21] = 0x01;
	regs[QB + 22] = 1;
	assert_int_equal(rmi4_f01_read(fake_rd, NULL, QB, &f), 0);
	assert_false(f.has_build_id);
	assert_int_equal(n_rd, 4);
}

static void test_f01_read_failure_is_returned(void **state)
{
	struct rmi4_f01 f;

	(void)state;
	f01_part(0x80, "s3203");
	regs[QB + 21] = 0x01;
	regs[QB + 22] = 1;
	regs[QB + 23] = 0x02;
	fail_addr = QB + 17;
	assert_int_equal(rmi4_f01_read(fake_rd, NULL, QB, &f), -EIO);
	f01_part(0x80, "s3203");
	fail_addr = QB;
	assert_int_equal(rmi4_f01_read(fake_rd, NULL, QB, &f), -EIO);
	assert_int_equal(n_rd, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v10_good),
		cmocka_unit_test(test_v10_broken),
		cmocka_unit_test(test_v5_header),
		cmocka_unit_test(test_ids_forms),
		cmocka_unit_test(test_manifest_rules),
		cmocka_unit_test(test_blob_facts),
		cmocka_unit_test(test_registry_entry),
		cmocka_unit_test(test_f01_build_id_where_rmi_f01_reads_it),
		cmocka_unit_test(test_f01_without_build_id_query),
		cmocka_unit_test(test_f01_read_failure_is_returned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
