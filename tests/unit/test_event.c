// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uevent environment parsing, the family table's "one of ours?" lookups and
 * systemd unit-name escaping: the pure pieces of the udev fast path.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "event.h"
#include "family/ids.h"
#include "handoff.h"
#include "settings.h"

static void test_bind_event_with_of_properties(void **state)
{
	char *env[] = {
		"ACTION=bind",
		"DEVPATH=/devices/platform/soc/7000c400.i2c/i2c-3/3-004a",
		"SUBSYSTEM=i2c",
		"DRIVER=atmel_mxt_ts",
		"MODALIAS=of:NtouchscreenT(null)Catmel,maxtouch",
		"OF_NAME=touchscreen",
		"OF_FULLNAME=/soc/i2c@7000c400/touchscreen@4a",
		"OF_COMPATIBLE_0=atmel,maxtouch",
		"OF_COMPATIBLE_N=1",
		"SEQNUM=4711",
		NULL,
	};
	struct tf_uevent ev;

	(void)state;
	assert_int_equal(tf_uevent_parse(env, &ev), 0);
	assert_int_equal(ev.action, TF_ACTION_BIND);
	assert_string_equal(ev.devname, "3-004a");
	assert_string_equal(ev.subsystem, "i2c");
	assert_string_equal(ev.driver, "atmel_mxt_ts");
	assert_int_equal(ev.n_compatible, 1);
	assert_string_equal(ev.compatible[0], "atmel,maxtouch");
	assert_true(ev.has_seqnum);
	assert_int_equal(ev.seqnum, 4711);
	assert_string_equal(ev.of_fullname, "/soc/i2c@7000c400/touchscreen@4a");
}

static void test_unbind_event_has_no_driver(void **state)
{
	char *env[] = { "ACTION=unbind",     "DEVPATH=/devices/x/i2c-3/3-004a",
			"SUBSYSTEM=i2c",     "OF_COMPATIBLE_0=atmel,maxtouch",
			"OF_COMPATIBLE_N=1", NULL };
	struct tf_uevent ev;

	(void)state;
	assert_int_equal(tf_uevent_parse(env, &ev), 0);
	assert_int_equal(ev.action, TF_ACTION_UNBIND);
	assert_null(ev.driver);
	assert_null(ev.modalias);
}

static void test_every_kernel_action_is_recognised(void **state)
{
	static const struct {
		const char *s;
		enum tf_action a;
	} t[] = {
		{ "add", TF_ACTION_ADD },	{ "remove", TF_ACTION_REMOVE },
		{ "change", TF_ACTION_CHANGE }, { "move", TF_ACTION_MOVE },
		{ "online", TF_ACTION_ONLINE }, { "offline", TF_ACTION_OFFLINE },
		{ "bind", TF_ACTION_BIND },	{ "unbind", TF_ACTION_UNBIND },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_int_equal(tf_action_from_string(t[i].s), t[i].a);
		assert_string_equal(tf_action_name(t[i].a), t[i].s);
	}
}

static void test_unknown_action_is_not_add(void **state)
{
	char *env[] = { "ACTION=reattach", "DEVPATH=/devices/x/3-004a", "SUBSYSTEM=i2c",
			"DRIVER=atmel_mxt_ts", NULL };
	struct tf_uevent ev;

	(void)state;
	assert_int_equal(tf_uevent_parse(env, &ev), 0);
	assert_int_equal(ev.action, TF_ACTION_UNKNOWN);
	assert_int_equal(tf_action_from_string("ADD"), TF_ACTION_UNKNOWN);
	assert_int_equal(tf_action_from_string(""), TF_ACTION_UNKNOWN);
	assert_int_equal(tf_action_from_string(NULL), TF_ACTION_UNKNOWN);
}

static void test_missing_action_or_devpath_is_rejected(void **state)
{
	char *no_action[] = { "DEVPATH=/devices/x/3-004a", NULL };
	char *no_devpath[] = { "ACTION=bind", NULL };
	struct tf_uevent ev;

	(void)state;
	assert_int_equal(tf_uevent_parse(no_action, &ev), -EINVAL);
	assert_int_equal(tf_uevent_parse(no_devpath, &ev), -EINVAL);
	assert_int_equal(tf_uevent_parse(NULL, &ev), -EINVAL);
}

/* The event still parses (its ACTION and SUBSYSTEM decide whether it is
 * touchfw's at all); it just has no device name, and says why. */
static void test_malformed_devpath_leaves_no_device_name(void **state)
{
	static const char *const bad[][2] = {
		{ "DEVPATH=/devices/x/..", "'.' or '..'" },
		{ "DEVPATH=/devices/x/../../etc/3-004a", "'.' or '..'" },
		{ "DEVPATH=/devices/x/./3-004a", "'.' or '..'" },
		{ "DEVPATH=/devices/x/a b", "characters a device name can not have" },
		{ "DEVPATH=/devices/x/3-004a\nDRIVER=evil", "control character" },
		{ "DEVPATH=/devices/x/3-004a/", "ends in '/'" },
		{ "DEVPATH=/devices//3-004a", "empty component" },
		{ "DEVPATH=devices/x/3-004a", "not an absolute path" },
		{ "DEVPATH=/devices/x/1234567890123456789012345678901234567890123456789012"
		  "345678901234567890123456789012345678901234567890123456789",
		  "longer than 100" },
	};
	struct tf_uevent ev;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *env[] = { "ACTION=bind", (char *)bad[i][0], "SUBSYSTEM=i2c", NULL };

		assert_int_equal(tf_uevent_parse(env, &ev), 0);
		assert_string_equal(ev.devname, "");
		assert_non_null(ev.bad_devpath);
		if (!strstr(ev.bad_devpath, bad[i][1]))
			fail_msg("%s: expected \"%s\", got \"%s\"", bad[i][0], bad[i][1],
				 ev.bad_devpath);
		assert_int_equal(ev.action, TF_ACTION_BIND);
		assert_string_equal(ev.subsystem, "i2c");
	}
}

static void test_empty_driver_counts_as_absent(void **state)
{
	char *env[] = { "ACTION=add", "DEVPATH=/devices/x/3-004a", "DRIVER=", NULL };
	struct tf_uevent ev;

	(void)state;
	assert_int_equal(tf_uevent_parse(env, &ev), 0);
	assert_null(ev.driver);
}

static void test_compatible_count_is_bounded_and_holes_cut(void **state)
{
	char *env[] = { "ACTION=add",
			"DEVPATH=/devices/x/3-004a",
			"OF_COMPATIBLE_N=3",
			"OF_COMPATIBLE_0=a,b",
			"OF_COMPATIBLE_2=c,d",
			"OF_COMPATIBLE_99=x,y",
			NULL };
	char *huge[] = { "ACTION=add", "DEVPATH=/devices/x/3-004a",
			 "OF_COMPATIBLE_N=4000000000", NULL };
	struct tf_uevent ev;

	(void)state;
	assert_int_equal(tf_uevent_parse(env, &ev), 0);
	assert_int_equal(ev.n_compatible, 1);
	assert_string_equal(ev.compatible[0], "a,b");
	assert_null(ev.compatible[2]);
	assert_int_equal(tf_uevent_parse(huge, &ev), 0);
	assert_int_equal(ev.n_compatible, 0);
}

static void test_spi_and_acpi_device_names(void **state)
{
	char *spi[] = { "ACTION=bind", "DEVPATH=/devices/x/spi_master/spi1/spi1.0",
			"SUBSYSTEM=spi", "DRIVER=x", NULL };
	char *acpi[] = { "ACTION=bind", "DEVPATH=/devices/x/i2c-2/i2c-ATML1000:00",
			 "SUBSYSTEM=i2c", "MODALIAS=acpi:ATML0001:", NULL };
	struct tf_uevent ev;

	(void)state;
	assert_int_equal(tf_uevent_parse(spi, &ev), 0);
	assert_string_equal(ev.devname, "spi1.0");
	assert_int_equal(tf_uevent_parse(acpi, &ev), 0);
	assert_string_equal(ev.devname, "i2c-ATML1000:00");
}

static void test_family_by_driver_and_ids(void **state)
{
	char *of[] = { "ACTION=add", "DEVPATH=/devices/x/3-004a",
		       "MODALIAS=of:NtouchscreenT(null)Catmel,maxtouch", NULL };
	char *of_n[] = { "ACTION=add", "DEVPATH=/devices/x/3-004a",
			 "OF_COMPATIBLE_0=atmel,maxtouch", "OF_COMPATIBLE_N=1", NULL };
	char *acpi[] = { "ACTION=add", "DEVPATH=/devices/x/i2c-ATML0001:00",
			 "MODALIAS=acpi:ATML0001:", NULL };
	char *other[] = { "ACTION=add", "DEVPATH=/devices/x/3-0050",
			  "MODALIAS=of:NeepromT(null)Catmel,24c02", NULL };
	char *prefix[] = { "ACTION=add", "DEVPATH=/devices/x/3-004a",
			   "MODALIAS=of:NxT(null)Catmel,maxtouchX", NULL };
	char *i2c[] = { "ACTION=add", "DEVPATH=/devices/x/3-004a", "MODALIAS=i2c:maxtouch",
			NULL };
	char *i2c_other[] = { "ACTION=add", "DEVPATH=/devices/x/3-0050", "MODALIAS=i2c:24c02",
			      NULL };
	struct tf_uevent ev;

	(void)state;
	assert_string_equal(tf_family_ids_by_driver("atmel_mxt_ts")->name, "mxt");
	assert_null(tf_family_ids_by_driver("at24"));
	assert_null(tf_family_ids_by_driver(NULL));
	assert_int_equal(tf_uevent_parse(of, &ev), 0);
	assert_non_null(tf_family_ids_by_uevent(&ev));
	assert_int_equal(tf_uevent_parse(of_n, &ev), 0);
	assert_non_null(tf_family_ids_by_uevent(&ev));
	assert_int_equal(tf_uevent_parse(acpi, &ev), 0);
	assert_non_null(tf_family_ids_by_uevent(&ev));
	assert_int_equal(tf_uevent_parse(other, &ev), 0);
	assert_null(tf_family_ids_by_uevent(&ev));
	assert_int_equal(tf_uevent_parse(prefix, &ev), 0);
	assert_null(tf_family_ids_by_uevent(&ev));
	assert_int_equal(tf_uevent_parse(i2c, &ev), 0);
	assert_non_null(tf_family_ids_by_uevent(&ev));
	assert_int_equal(tf_uevent_parse(i2c_other, &ev), 0);
	assert_null(tf_family_ids_by_uevent(&ev));
}

/*
 * i2c-hid clients: the ACPI id that names the protocol is usually the
 * _CID after a vendor's _HID (acpi:ELAN2203:PNP0C50:), which
 * acpi_driver_match_device matches as well as a _HID; DT's hid-over-i2c.
 * A _HID one family knows still wins by registry order (an Elan id of
 * elan_i2c's before PNP0C50), and a prefix of an id is no match.
 */
static void test_i2c_hid_ids_match_as_hid_or_cid(void **state)
{
	char *cid[] = { "ACTION=add", "DEVPATH=/devices/x/i2c-ELAN2203:00",
			"MODALIAS=acpi:ELAN2203:PNP0C50:", NULL };
	char *hid[] = { "ACTION=add", "DEVPATH=/devices/x/i2c-PNP0C50:00",
			"MODALIAS=acpi:PNP0C50:", NULL };
	char *elan[] = { "ACTION=add", "DEVPATH=/devices/x/i2c-ELAN0000:00",
			 "MODALIAS=acpi:ELAN0000:PNP0C50:", NULL };
	char *prefix[] = { "ACTION=add", "DEVPATH=/devices/x/i2c-ABCD0001:00",
			   "MODALIAS=acpi:ABCD0001:PNP0C5:", NULL };
	char *of[] = { "ACTION=add", "DEVPATH=/devices/x/1-0015",
		       "MODALIAS=of:NtouchpadT(null)Chid-over-i2c", NULL };
	struct tf_uevent ev;

	(void)state;
	assert_int_equal(tf_uevent_parse(cid, &ev), 0);
	assert_string_equal(tf_family_ids_by_uevent(&ev)->name, "elanhid");
	assert_int_equal(tf_uevent_parse(hid, &ev), 0);
	assert_string_equal(tf_family_ids_by_uevent(&ev)->name, "elanhid");
	assert_int_equal(tf_uevent_parse(elan, &ev), 0);
	assert_string_equal(tf_family_ids_by_uevent(&ev)->name, "elantp");
	assert_int_equal(tf_uevent_parse(prefix, &ev), 0);
	assert_null(tf_family_ids_by_uevent(&ev));
	assert_int_equal(tf_uevent_parse(of, &ev), 0);
	assert_string_equal(tf_family_ids_by_uevent(&ev)->name, "elanhid");
	assert_string_equal(tf_family_ids_by_driver("i2c_hid_acpi")->name, "elanhid");
}

static void test_unit_name_escaping_matches_systemd(void **state)
{
	char buf[128];

	(void)state;
	/* systemd-escape 3-004a -> 3\x2d004a */
	assert_int_equal(tf_unit_name("touchfw@", "3-004a", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "touchfw@3\\x2d004a.service");
	assert_int_equal(tf_unit_name("touchfw@", "i2c-ATML1000:00", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "touchfw@i2c\\x2dATML1000:00.service");
	assert_int_equal(tf_unit_name("touchfw@", "spi1.0", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "touchfw@spi1.0.service");
	assert_int_equal(tf_unit_name("touchfw@", ".x", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "touchfw@\\x2ex.service");
	assert_int_equal(tf_unit_name("touchfw@", "3-004a", buf, 12), -ENAMETOOLONG);
}

static void test_kernel_cmdline_off_switch(void **state)
{
	(void)state;
	assert_true(tf_cmdline_disables("ro quiet touchfw.disable splash"));
	assert_true(tf_cmdline_disables("touchfw.disable=1"));
	assert_true(tf_cmdline_disables("root=/dev/sda1 touchfw=off\n"));
	assert_false(tf_cmdline_disables("touchfw.disabled=1 notouchfw.disable"));
	assert_false(tf_cmdline_disables("touchfw.disable=0"));
	assert_false(tf_cmdline_disables(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bind_event_with_of_properties),
		cmocka_unit_test(test_unbind_event_has_no_driver),
		cmocka_unit_test(test_every_kernel_action_is_recognised),
		cmocka_unit_test(test_unknown_action_is_not_add),
		cmocka_unit_test(test_missing_action_or_devpath_is_rejected),
		cmocka_unit_test(test_malformed_devpath_leaves_no_device_name),
		cmocka_unit_test(test_empty_driver_counts_as_absent),
		cmocka_unit_test(test_compatible_count_is_bounded_and_holes_cut),
		cmocka_unit_test(test_spi_and_acpi_device_names),
		cmocka_unit_test(test_family_by_driver_and_ids),
		cmocka_unit_test(test_i2c_hid_ids_match_as_hid_or_cid),
		cmocka_unit_test(test_unit_name_escaping_matches_systemd),
		cmocka_unit_test(test_kernel_cmdline_off_switch),
	};

	return cmocka_run_group_tests_name("event", tests, NULL, NULL);
}
