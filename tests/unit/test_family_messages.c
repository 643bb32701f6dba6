// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One logging seam (issue 14 item 3): a family's message says what went
 * wrong; the caller that logs it (the flow's rlog(), `touchfw chip`) says
 * which device, once.  Each family's errors that need no chip are made
 * here through its operations, on a device named DEV, with the driver's
 * attributes in a scratch directory: every message must say what failed
 * and must not name the device (else the log reads "DEV: DEV: ...").
 * tests/system/check-family-messages reads the rest from the sources.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "family/family.h"

#define DEV "7-0042"

static char dir[] = "/tmp/touchfw-family-messages-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The driver's attribute @name reads @value ("" removes it). */
static void set_attr(const char *name, const char *value)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	if (!value[0])
		return;
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", value);
	assert_int_equal(fclose(f), 0);
}

/* A context for family @name's device DEV, at 0x42 on i2c-7, its driver
 * bound when @bound (the attributes in the scratch directory), no bus. */
static const struct tf_family *ctx_for(const char *name, bool bound, struct tf_ctx *c)
{
	const struct tf_family *f = tf_family_by_name(name);
	struct tf_err err = { 0 };

	assert_non_null(f);
	memset(c, 0, sizeof(*c));
	snprintf(c->dev.name, sizeof(c->dev.name), "%s", DEV);
	snprintf(c->dev.subsys, sizeof(c->dev.subsys), "i2c");
	snprintf(c->dev.syspath, sizeof(c->dev.syspath), "%s", dir);
	c->dev.adapter_nr = 7;
	c->dev.has_addr = true;
	c->dev.addr = 0x42;
	if (bound)
		snprintf(c->dev.driver, sizeof(c->dev.driver), "%s", f->ids->drivers[0]);
	if (f->ops->init)
		assert_int_equal(f->ops->init(c, &err), 0);
	return f;
}

static void done(const struct tf_family *f, struct tf_ctx *c)
{
	if (f->ops->fini)
		f->ops->fini(c);
}

/* @rc is an error whose message holds @what and not the device's name. */
static void says_what_not_who(int rc, const struct tf_err *err, const char *what)
{
	if (rc >= 0)
		fail_msg("expected an error about \"%s\", got %d", what, rc);
	if (!strstr(err->msg, what))
		fail_msg("the message does not say \"%s\": %s", what, err->msg);
	if (strstr(err->msg, DEV))
		fail_msg("the message names the device (its caller does): %s", err->msg);
}

static void test_elants_messages_do_not_name_the_device(void **state)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };
	struct tf_ctx c;
	const struct tf_family *f;
	char buf[TF_FW_NAME_MAX];

	(void)state;
	f = ctx_for("elants", true, &c);
	set_attr("iap_mode", "Normal");
	set_attr("hw_version", "2a1c");
	set_attr("fw_version", "55x2");
	says_what_not_who(f->ops->detect(&c, &st, &err), &err, "fw_version \"55x2\"");
	set_attr("hw_version", "zz");
	says_what_not_who(f->ops->detect(&c, &st, &err), &err, "hw_version \"zz\"");
	set_attr("hw_version", "2a1c");
	set_attr("iap_mode", "Sleeping");
	says_what_not_who(f->ops->detect(&c, &st, &err), &err, "iap_mode \"Sleeping\"");
	memset(&st, 0, sizeof(st));
	says_what_not_who(f->ops->kernel_fw_name(&c, &st, buf, sizeof(buf), &err), &err,
			  "the hardware id is unknown");
	done(f, &c);

	f = ctx_for("elants", false, &c);
	says_what_not_who(f->ops->detect(&c, &st, &err), &err, "no driver bound and no bus");
	done(f, &c);
}

static void test_elantp_messages_do_not_name_the_device(void **state)
{
	struct tf_chip_state st;
	struct tf_err err = { 0 };
	struct tf_ctx c;
	const struct tf_family *f;
	char buf[TF_FW_NAME_MAX];

	(void)state;
	f = ctx_for("elantp", true, &c);
	set_attr("product_id", "0x1x");
	set_attr("firmware_version", "6");
	set_attr("fw_checksum", "0x1234");
	says_what_not_who(f->ops->detect(&c, &st, &err), &err, "product_id \"0x1x\"");
	memset(&st, 0, sizeof(st));
	says_what_not_who(f->ops->kernel_fw_name(&c, &st, buf, sizeof(buf), &err), &err,
			  "the product id is unknown");
	done(f, &c);

	f = ctx_for("elantp", false, &c);
	says_what_not_who(f->ops->detect(&c, &st, &err), &err, "no driver bound and no bus");
	done(f, &c);
}

static void test_silead_messages_do_not_name_the_device(void **state)
{
	struct tf_chip_state st = { 0 };
	struct tf_err err = { 0 };
	struct tf_ctx c;
	const struct tf_family *f;
	char buf[TF_FW_NAME_MAX];

	(void)state;
	f = ctx_for("silead", true, &c);
	snprintf(c.dev.modalias, sizeof(c.dev.modalias), "acpi:ZZZZ0001:");
	says_what_not_who(f->ops->kernel_fw_name(&c, &st, buf, sizeof(buf), &err), &err,
			  "can not tell which file");
	done(f, &c);
}

static void test_goodix_messages_do_not_name_the_device(void **state)
{
	struct tf_err err = { 0 };
	struct tf_ctx c;
	const struct tf_family *f;
	uint8_t *data = NULL;
	size_t len = 0;

	(void)state;
	/* Not detected: nothing is known of the chip. */
	f = ctx_for("goodix", true, &c);
	says_what_not_who(f->ops->save_config(&c, &data, &len, &err), &err,
			  "the chip is not answering");
	assert_null(data);
	done(f, &c);
}

static void test_mxt_messages_do_not_name_the_device(void **state)
{
	struct tf_err err = { 0 };
	struct tf_ctx c;
	const struct tf_family *f;
	uint8_t *data = NULL;
	size_t len = 0;

	(void)state;
	/* Not detected: no object table. */
	f = ctx_for("mxt", true, &c);
	says_what_not_who(f->ops->soft_reset(&c, &err), &err, "not in application mode");
	says_what_not_who(f->ops->save_config(&c, &data, &len, &err), &err,
			  "not in application mode");
	assert_null(data);
	done(f, &c);
}

static void test_driver_attribute_message_does_not_name_the_device(void **state)
{
	struct tf_err err = { 0 };
	struct tf_ctx c;
	const struct tf_family *f;
	char buf[32];

	(void)state;
	f = ctx_for("elants", true, &c);
	set_attr("calibrate", "");
	says_what_not_who(tf_driver_attr_wait(&c, "calibrate", buf, sizeof(buf), 0, &err), &err,
			  "has no readable attribute calibrate");
	done(f, &c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elants_messages_do_not_name_the_device),
		cmocka_unit_test(test_elantp_messages_do_not_name_the_device),
		cmocka_unit_test(test_silead_messages_do_not_name_the_device),
		cmocka_unit_test(test_goodix_messages_do_not_name_the_device),
		cmocka_unit_test(test_mxt_messages_do_not_name_the_device),
		cmocka_unit_test(test_driver_attribute_message_does_not_name_the_device),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
