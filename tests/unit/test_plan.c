// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The version policy (plan.c): which firmware and configuration a chip
 * gets, from a manifest, a board profile's pins and what detection found.
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

#include "plan.h"

#define SHA "0000000000000000000000000000000000000000000000000000000000000000"

static const char manifest[] =
	"[database]\nformat = 1\n"
	"[fw-1.0]\ntype = firmware\nfamily = mxt\nhardware = 129.1\nversion = 1.0.AA\n"
	"file = a.fw\nsize = 1\nsha256 = " SHA "\n"
	"[fw-2.1]\ntype = firmware\nfamily = mxt\nhardware = 129.1\nversion = 2.1.AB\n"
	"file = b.fw\nsize = 1\nsha256 = " SHA "\n"
	"[fw-2.10]\ntype = firmware\nfamily = mxt\nhardware = 129.1\nversion = 2.10.00\n"
	"file = c.fw\nsize = 1\nsha256 = " SHA "\nmin_from = 2.0.00\n"
	/* After fw-2.10 and newer than it as a string: strcmp would pick it. */
	"[fw-2.9]\ntype = firmware\nfamily = mxt\nhardware = 129.1\nversion = 2.9.00\n"
	"file = c9.fw\nsize = 1\nsha256 = " SHA "\nmin_from = 2.0.00\n"
	"[fw-other-hw]\ntype = firmware\nfamily = mxt\nhardware = 162.6\nversion = 9.0.00\n"
	"file = d.fw\nsize = 1\nsha256 = " SHA "\n"
	"[cfg-2.10]\ntype = config\nfamily = mxt\nhardware = 129.1\nfor_version = 2.10.00\n"
	"file = e.cfg\nsize = 1\nsha256 = " SHA "\nconfig_crc = 0x123456\n"
	"[cfg-1.0]\ntype = config\nfamily = mxt\nhardware = 129.1\nfor_version = 1.0.AA\n"
	"file = f.cfg\nsize = 1\nsha256 = " SHA "\nconfig_crc = 0xABCDEF\n"
	"[cfg-2.1-boardB]\ntype = config\nfamily = mxt\nhardware = 129.1\nfor_version = 2.1.AB\n"
	"file = g.cfg\nsize = 1\nsha256 = " SHA "\nboards = vendor,board-b\n";

struct fixture {
	struct tf_fwdb *db;
	struct tf_board_profile prof;
	struct tf_controller ctrl;
	char *ids[1];
	struct tf_chip_state st;
	struct tf_plan_input in;
	struct tf_plan plan;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct tf_err err = { 0 };

	if (tf_fwdb_parse_manifest(manifest, sizeof(manifest) - 1, "test", &f->db, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -1;
	}
	f->ids[0] = "vendor,board-a";
	f->prof.board_ids = f->ids;
	f->prof.n_board_ids = 1;
	snprintf(f->ctrl.family, sizeof(f->ctrl.family), "mxt");
	f->in.db = f->db;
	f->in.profile = &f->prof;
	f->in.ctrl = &f->ctrl;
	f->in.family = "mxt";
	f->in.st = &f->st;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	tf_fwdb_free(f->db);
	free(f);
	return 0;
}

static void app(struct fixture *f, const char *hw, const char *version, int crc)
{
	f->st.mode = TF_CHIP_APP;
	snprintf(f->st.hw, sizeof(f->st.hw), "%s", hw);
	snprintf(f->st.version_str, sizeof(f->st.version_str), "%s", version);
	assert_int_equal(tf_version_parse("mxt", version, &f->st.version), 0);
	f->st.has_version = true;
	f->st.has_config_crc = crc >= 0;
	f->st.config_crc = crc >= 0 ? (uint32_t)crc : 0;
}

static void test_newer_firmware_is_chosen_numerically(void **state)
{
	struct fixture *f = *state;

	app(f, "129.1", "2.1.AB", 0);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_non_null(f->plan.fw);
	/* 2.10 > 2.9 > 2.1 as numbers, not strings. */
	assert_string_equal(f->plan.fw->id, "fw-2.10");
	assert_string_equal(f->plan.target_version, "2.10.00");
	assert_non_null(f->plan.cfg);
	assert_string_equal(f->plan.cfg->id, "cfg-2.10");
	assert_true(f->plan.cfg_needed);
}

static void test_min_from_excludes_too_old_running_version(void **state)
{
	struct fixture *f = *state;

	app(f, "129.1", "1.0.AA", 0xABCDEF);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	/* fw-2.10 needs 2.0.00 or later to start from: 2.1.AB is next. */
	assert_string_equal(f->plan.fw->id, "fw-2.1");
	/* No config for 2.1.AB on this board (only board B has one). */
	assert_null(f->plan.cfg);
	assert_non_null(strstr(f->plan.cfg_reason, "no configuration for firmware 2.1.AB"));
}

static void test_never_a_downgrade(void **state)
{
	struct fixture *f = *state;

	app(f, "129.1", "3.0.00", -1);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_null(f->plan.fw);
	assert_non_null(strstr(f->plan.fw_reason, "running 3.0.00"));
}

static void test_same_version_and_crc_is_a_noop(void **state)
{
	struct fixture *f = *state;

	app(f, "129.1", "2.10.00", 0x123456);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_null(f->plan.fw);
	assert_non_null(f->plan.cfg);
	assert_false(f->plan.cfg_needed);
	app(f, "129.1", "2.10.00", 0x111111);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_true(f->plan.cfg_needed); /* config-only update */
}

static void test_pin_wins_even_backwards(void **state)
{
	struct fixture *f = *state;

	snprintf(f->ctrl.firmware_pin, sizeof(f->ctrl.firmware_pin), "fw-1.0");
	app(f, "129.1", "2.10.00", 0);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_string_equal(f->plan.fw->id, "fw-1.0");
	assert_string_equal(f->plan.cfg->id, "cfg-1.0");
	app(f, "129.1", "1.0.AA", 0);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_null(f->plan.fw); /* already running the pin */
}

static void test_pin_to_missing_or_wrong_blob_is_an_error(void **state)
{
	struct fixture *f = *state;
	struct tf_err err = { 0 };

	app(f, "129.1", "2.1.AB", 0);
	snprintf(f->ctrl.firmware_pin, sizeof(f->ctrl.firmware_pin), "nope");
	assert_int_equal(tf_plan_make(&f->in, &f->plan, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "'nope'"));
	snprintf(f->ctrl.firmware_pin, sizeof(f->ctrl.firmware_pin), "cfg-1.0");
	assert_int_equal(tf_plan_make(&f->in, &f->plan, &err), -ENOENT);
	snprintf(f->ctrl.firmware_pin, sizeof(f->ctrl.firmware_pin), "fw-other-hw");
	assert_int_equal(tf_plan_make(&f->in, &f->plan, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "not for hardware 129.1"));
}

static void test_bootloader_chip_uses_hint_or_needs_agreement(void **state)
{
	struct fixture *f = *state;
	struct tf_err err = { 0 };

	memset(&f->st, 0, sizeof(f->st));
	f->st.mode = TF_CHIP_BOOTLOADER;
	/* Two hardware ids in the DB and none known: ambiguous. */
	assert_int_equal(tf_plan_make(&f->in, &f->plan, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "firmware-pin"));
	/* The hardware last seen on this device settles it: newest for it. */
	f->in.hw_hint = "129.1";
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_string_equal(f->plan.fw->id, "fw-2.10");
	f->in.hw_hint = "162.6";
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_string_equal(f->plan.fw->id, "fw-other-hw");
}

static void test_board_restricted_config_only_for_that_board(void **state)
{
	struct fixture *f = *state;

	f->ids[0] = "vendor,board-b";
	snprintf(f->ctrl.firmware_pin, sizeof(f->ctrl.firmware_pin), "fw-2.1");
	app(f, "129.1", "1.0.AA", 0);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_string_equal(f->plan.cfg->id, "cfg-2.1-boardB");
}

static void test_unknown_hardware_gets_nothing(void **state)
{
	struct fixture *f = *state;

	app(f, "1.1", "1.0.00", 0);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_null(f->plan.fw);
	assert_null(f->plan.cfg);
}

/* ------------------------------------------------------------ versioned */

/* A family whose configurations carry versions the chip reports (dotted
 * scheme here; Goodix uses its own, tested with the family). */
static const char versioned_manifest[] =
	"[database]\nformat = 1\n"
	"[cv-5]\ntype = config\nfamily = cv\nhardware = 911\nfor_version = 1.0\n"
	"version = 5\nfile = a.bin\nsize = 1\nsha256 = " SHA "\n"
	"[cv-7]\ntype = config\nfamily = cv\nhardware = 911\nfor_version = 1.0\n"
	"version = 7\nfile = b.bin\nsize = 1\nsha256 = " SHA "\n"
	"[cv-6]\ntype = config\nfamily = cv\nhardware = 911\nfor_version = 1.0\n"
	"version = 6\nfile = c.bin\nsize = 1\nsha256 = " SHA "\n"
	"[cv-9-other-fw]\ntype = config\nfamily = cv\nhardware = 911\nfor_version = 2.0\n"
	"version = 9\nfile = d.bin\nsize = 1\nsha256 = " SHA "\n"
	"[cv-8-other-hw]\ntype = config\nfamily = cv\nhardware = 967\nfor_version = 1.0\n"
	"version = 8\nfile = e.bin\nsize = 1\nsha256 = " SHA "\n";

static void versioned(struct fixture *f, struct tf_fwdb **db, int chip_cfg_version)
{
	struct tf_err err = { 0 };

	assert_int_equal(tf_fwdb_parse_manifest(versioned_manifest,
						sizeof(versioned_manifest) - 1, "test", db,
						&err),
			 0);
	f->in.db = *db;
	f->in.family = "cv";
	f->in.config_versioned = true;
	snprintf(f->ctrl.family, sizeof(f->ctrl.family), "cv");
	f->st.mode = TF_CHIP_APP;
	snprintf(f->st.hw, sizeof(f->st.hw), "911");
	snprintf(f->st.version_str, sizeof(f->st.version_str), "1.0");
	assert_int_equal(tf_version_parse("cv", "1.0", &f->st.version), 0);
	f->st.has_version = true;
	f->st.has_config_version = chip_cfg_version >= 0;
	if (chip_cfg_version >= 0) {
		snprintf(f->st.config_version_str, sizeof(f->st.config_version_str), "%d",
			 chip_cfg_version);
		assert_int_equal(tf_version_parse("cv", f->st.config_version_str,
						  &f->st.config_version),
				 0);
	}
}

static void test_versioned_config_newer_is_written(void **state)
{
	struct fixture *f = *state;
	struct tf_fwdb *db;

	versioned(f, &db, 6);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_null(f->plan.fw);
	/* Newest for this hardware and firmware; not 9 (other firmware) nor
	 * 8 (other hardware). */
	assert_string_equal(f->plan.cfg->id, "cv-7");
	assert_true(f->plan.cfg_needed);
	assert_non_null(strstr(f->plan.cfg_reason, "newer than the chip's 6"));
	tf_fwdb_free(db);
}

static void test_versioned_config_same_or_older_is_kept(void **state)
{
	struct fixture *f = *state;
	struct tf_fwdb *db;

	versioned(f, &db, 7);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_false(f->plan.cfg_needed);
	assert_non_null(strstr(f->plan.cfg_reason, "runs configuration version 7"));
	tf_fwdb_free(db);
	versioned(f, &db, 12);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_false(f->plan.cfg_needed);
	assert_non_null(strstr(f->plan.cfg_reason, "never downgraded without a config-pin or "
						   "--force"));
	tf_fwdb_free(db);
}

static void test_versioned_config_force_writes_an_older_one(void **state)
{
	struct fixture *f = *state;
	struct tf_fwdb *db;

	versioned(f, &db, 12);
	f->in.force = true;
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_string_equal(f->plan.cfg->id, "cv-7");
	assert_true(f->plan.cfg_needed);
	assert_non_null(strstr(f->plan.cfg_reason, "forced"));
	tf_fwdb_free(db);
}

static void test_versioned_config_pin_may_go_back(void **state)
{
	struct fixture *f = *state;
	struct tf_fwdb *db;

	versioned(f, &db, 7);
	snprintf(f->ctrl.config_pin, sizeof(f->ctrl.config_pin), "cv-5");
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_string_equal(f->plan.cfg->id, "cv-5");
	assert_true(f->plan.cfg_needed);
	assert_non_null(strstr(f->plan.cfg_reason, "pinned"));
	tf_fwdb_free(db);
	/* Already running the pin: nothing to do. */
	versioned(f, &db, 5);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_false(f->plan.cfg_needed);
	assert_non_null(strstr(f->plan.cfg_reason, "runs the pinned cv-5"));
	tf_fwdb_free(db);
}

static void test_versioned_config_chip_without_one_gets_the_newest(void **state)
{
	struct fixture *f = *state;
	struct tf_fwdb *db;

	versioned(f, &db, -1);
	assert_int_equal(tf_plan_make(&f->in, &f->plan, NULL), 0);
	assert_string_equal(f->plan.cfg->id, "cv-7");
	assert_true(f->plan.cfg_needed);
	assert_non_null(strstr(f->plan.cfg_reason, "holds no valid configuration"));
	tf_fwdb_free(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_newer_firmware_is_chosen_numerically,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_min_from_excludes_too_old_running_version,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_never_a_downgrade, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_version_and_crc_is_a_noop, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_pin_wins_even_backwards, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pin_to_missing_or_wrong_blob_is_an_error,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_bootloader_chip_uses_hint_or_needs_agreement, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_board_restricted_config_only_for_that_board, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_hardware_gets_nothing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_versioned_config_newer_is_written, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_versioned_config_same_or_older_is_kept,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_versioned_config_force_writes_an_older_one,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_versioned_config_pin_may_go_back, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_versioned_config_chip_without_one_gets_the_newest, setup,
			teardown),
	};

	return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
