// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw board identify`, for bring-up: what this machine looks like to
 * touchfw, which profiles were found, overridden or rejected, and which
 * one matches -- as text, or with --json as one document; --live holds
 * the matching profile against the machine (cmd-board-live.c).
 */
#include "cmd-board-priv.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "exitcode.h"
#include "json.h"
#include "out.h"
#include "settings.h"
#include "util.h"

static void identify_usage(FILE *f)
{
	fprintf(f,
		"Usage: touchfw board identify [--boards DIR]... [--sysroot DIR] [--live]\n"
		"                              [--json]\n"
		"\n"
		"Show the root compatible strings (device-tree machines) and DMI\n"
		"strings (ACPI machines) touchfw matches profiles against, the\n"
		"profiles found, and which one describes this machine.\n"
		"\n"
		"  --boards DIR   profile directory, highest priority first;\n"
		"                 repeatable (default: boards_dirs of the settings\n"
		"                 file, --config or $TOUCHFW_CONFIG; built in:\n"
		"                 %s\n"
		"                 then %s)\n"
		"  --sysroot DIR  read /sys and /proc below DIR (offline images,\n"
		"                 tests)\n"
		"  --live         check each controller of the matching profile\n"
		"                 against the machine: adapter, the device at its\n"
		"                 address, the driver bound, which address the chip\n"
		"                 answers at, the GPIO lines; with 'did you mean'\n"
		"                 hints where they differ\n"
		"  --json         one JSON document (doc/json.md)\n"
		"\n"
		"The boot device tree (/sys/firmware/fdt) is readable by root\n"
		"only; other users see /proc/device-tree/compatible, which\n"
		"names the same board.\n"
		"\n"
		"Exit status: %d (%s) if a profile matches, %d (%s) if none "
		"does,\n%d (%s) if --live finds the machine differs from it.\n",
		TF_SYSCONFDIR "/boards", TF_DATADIR "/boards", TF_EXIT_OK,
		tf_exit_name(TF_EXIT_OK), TF_EXIT_NO_PROFILE, tf_exit_name(TF_EXIT_NO_PROFILE),
		TF_EXIT_PROFILE_INVALID, tf_exit_name(TF_EXIT_PROFILE_INVALID));
}

static void print_identity(const struct tf_board_identity *id)
{
	size_t i;

	if (id->n_compatible) {
		tf_out("root compatible (%s):", id->compatible_source);
		for (i = 0; i < id->n_compatible; i++)
			tf_out(" \"%s\"", id->compatible[i]);
		tf_out("\n");
	} else {
		tf_out("root compatible: none (no device tree)\n");
	}
	if (!id->has_dmi) {
		tf_out("dmi: none\n");
		return;
	}
	tf_out("dmi:\n");
	for (i = 0; i < TF_DMI_KEY_COUNT_; i++)
		if (id->dmi_present[i])
			tf_out("  %-20s \"%s\"\n", tf_dmi_key_property((enum tf_dmi_key)i),
			       id->dmi[i]);
}

static void print_match_reason(const struct tf_board_identity *id,
			       const struct tf_board_match_info *mi)
{
	if (mi->kind == TF_BOARD_MATCH_COMPATIBLE)
		tf_out("by compatible \"%s\"", id->compatible[mi->compatible_index]);
	else
		tf_out("by dmi-match (%zu key%s)", mi->n_dmi_keys,
		       mi->n_dmi_keys == 1 ? "" : "s");
}

/* `board identify --json`: the same as one document (doc/json.md). */
static void json_gpio(struct tf_json *j, const char *key, bool has,
		      const struct tf_gpio_spec *g)
{
	if (!has) {
		tf_json_string(j, key, NULL);
		return;
	}
	tf_json_begin_object(j, key);
	tf_json_string(j, "name", g->name[0] ? g->name : NULL);
	tf_json_string(j, "chip", g->name[0] ? NULL : g->chip);
	if (!g->name[0])
		tf_json_int(j, "line", g->line);
	tf_json_bool(j, "active_low", g->active_low);
	tf_json_end_object(j);
}

static void json_controller(struct tf_json *j, const struct tf_controller *c)
{
	char reg[8];

	tf_json_begin_object(j, NULL);
	tf_json_string(j, "node", c->node_path);
	tf_json_string(j, "family", c->family);
	tf_json_string(j, "bus", c->bus);
	tf_json_string(j, "adapter_name", c->adapter_name[0] ? c->adapter_name : NULL);
	tf_json_string(j, "adapter_path", c->adapter_path[0] ? c->adapter_path : NULL);
	snprintf(reg, sizeof(reg), "0x%02x", c->reg);
	tf_json_string(j, "reg", reg);
	snprintf(reg, sizeof(reg), "0x%02x", c->bootloader_reg);
	tf_json_string(j, "bootloader_reg", c->has_bootloader_reg ? reg : NULL);
	tf_json_string(j, "driver", c->driver[0] ? c->driver : NULL);
	json_gpio(j, "reset", c->has_reset, &c->reset);
	json_gpio(j, "irq", c->has_irq, &c->irq);
	/* the same under its first name, for readers of older documents */
	json_gpio(j, "chg", c->has_irq, &c->irq);
	tf_json_string(j, "power", tf_power_name(c->power));
	tf_json_string(j, "firmware_pin", c->firmware_pin[0] ? c->firmware_pin : NULL);
	tf_json_string(j, "config_pin", c->config_pin[0] ? c->config_pin : NULL);
	tf_json_string(j, "config_name", c->config_name[0] ? c->config_name : NULL);
	tf_json_end_object(j);
}

static int identify_json(const char *sysroot, const char *const *dirs, size_t n_dirs, bool live)
{
	const struct tf_board_profile *pick;
	struct tf_board_identity id;
	struct tf_board_match_info mi;
	struct tf_board_set *set = NULL;
	struct tf_err err = { 0 };
	struct tf_json j;
	const char *text;
	size_t i, k;
	int bad = 0, rc;

	if (tf_board_identify(sysroot, &id, &err)) {
		tf_out_err("touchfw: %s\n", err.msg);
		return TF_EXIT_FAILURE;
	}
	if (tf_board_load(dirs, n_dirs, &set, &err)) {
		tf_out_err("touchfw: can not load board profiles: %s\n", err.msg);
		tf_board_identity_free(&id);
		return TF_EXIT_FAILURE;
	}
	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_int(&j, "version", TF_JSON_VERSION);
	tf_json_begin_object(&j, "identity");
	tf_json_begin_array(&j, "compatible");
	for (i = 0; i < id.n_compatible; i++)
		tf_json_string(&j, NULL, id.compatible[i]);
	tf_json_end_array(&j);
	tf_json_string(&j, "compatible_source",
		       id.compatible_source[0] ? id.compatible_source : NULL);
	if (id.has_dmi) {
		tf_json_begin_object(&j, "dmi");
		for (i = 0; i < TF_DMI_KEY_COUNT_; i++)
			if (id.dmi_present[i])
				tf_json_string(&j, tf_dmi_key_property((enum tf_dmi_key)i),
					       id.dmi[i]);
		tf_json_end_object(&j);
	} else {
		tf_json_string(&j, "dmi", NULL);
	}
	tf_json_end_object(&j);
	tf_json_begin_array(&j, "profile_dirs");
	for (i = 0; i < n_dirs; i++)
		tf_json_string(&j, NULL, dirs[i]);
	tf_json_end_array(&j);
	tf_json_uint(&j, "valid_profiles", tf_board_set_count(set));
	tf_json_begin_array(&j, "invalid_profiles");
	for (i = 0; i < tf_board_set_invalid_count(set); i++) {
		const struct tf_board_report *rep = tf_board_set_invalid_report(set, i);

		tf_json_begin_object(&j, NULL);
		tf_json_string(&j, "path", tf_board_set_invalid_path(set, i));
		tf_json_begin_array(&j, "mistakes");
		for (k = 0; rep && k < rep->n; k++) {
			tf_json_begin_object(&j, NULL);
			tf_json_string(&j, "node", rep->issues[k].node);
			tf_json_string(&j, "message", rep->issues[k].msg);
			tf_json_end_object(&j);
		}
		tf_json_end_array(&j);
		tf_json_end_object(&j);
	}
	tf_json_end_array(&j);
	tf_json_begin_array(&j, "ignored");
	for (i = 0; i < tf_board_set_ignored_count(set); i++)
		tf_json_string(&j, NULL, tf_board_set_ignored_path(set, i));
	tf_json_end_array(&j);
	tf_json_begin_array(&j, "overridden");
	for (i = 0; i < tf_board_set_shadowed_count(set); i++) {
		const char *by = NULL, *path = tf_board_set_shadowed_path(set, i, &by);

		tf_json_begin_object(&j, NULL);
		tf_json_string(&j, "path", path);
		tf_json_string(&j, "by", by);
		tf_json_end_object(&j);
	}
	tf_json_end_array(&j);
	pick = tf_board_match(set, &id, &mi);
	tf_json_begin_array(&j, "also_matches");
	for (i = 0; i < tf_board_set_count(set); i++) {
		const struct tf_board_profile *p = tf_board_set_get(set, i);

		if (p != pick && tf_board_profile_matches(p, &id, NULL))
			tf_json_string(&j, NULL, p->path);
	}
	tf_json_end_array(&j);
	if (!pick) {
		char why[1200];

		tf_json_string(&j, "profile", NULL);
		tf_board_explain_board_miss(set, &id, why, sizeof(why));
		tf_json_string(&j, "nearest", why);
	} else {
		tf_json_begin_object(&j, "profile");
		tf_json_string(&j, "name", pick->name);
		tf_json_string(&j, "path", pick->path);
		tf_json_string(&j, "model", pick->model);
		tf_json_string(&j, "matched_by",
			       mi.kind == TF_BOARD_MATCH_COMPATIBLE ? "compatible"
								    : "dmi-match");
		tf_json_string(&j, "matched_compatible",
			       mi.kind == TF_BOARD_MATCH_COMPATIBLE
				       ? id.compatible[mi.compatible_index]
				       : NULL);
		tf_json_begin_array(&j, "board_ids");
		for (i = 0; i < pick->n_board_ids; i++)
			tf_json_string(&j, NULL, pick->board_ids[i]);
		tf_json_end_array(&j);
		tf_json_begin_array(&j, "controllers");
		for (i = 0; i < pick->n_ctrl; i++)
			json_controller(&j, &pick->ctrl[i]);
		tf_json_end_array(&j);
		tf_json_end_object(&j);
		if (live)
			bad = tf_board_live(pick, &j);
	}
	{
		char diff[600];
		const struct tf_board_profile *other =
			pick ? tf_board_match_conflict(set, &id, pick, diff, sizeof(diff))
			     : NULL;

		if (other) {
			tf_json_begin_object(&j, "conflict");
			tf_json_string(&j, "path", other->path);
			tf_json_string(&j, "differs", diff);
			tf_json_end_object(&j);
			bad = 1;
		} else {
			tf_json_string(&j, "conflict", NULL);
		}
	}
	tf_json_end_object(&j);
	text = tf_json_text(&j);
	tf_out("%s\n", text ? text : "{}");
	rc = !text   ? TF_EXIT_FAILURE
	     : !pick ? TF_EXIT_NO_PROFILE
	     : bad   ? TF_EXIT_PROFILE_INVALID
		     : TF_EXIT_OK;
	tf_json_free(&j);
	tf_board_set_free(set);
	tf_board_identity_free(&id);
	return rc;
}

int tf_cmd_board_identify(int argc, char **argv, const struct tf_cli *cli)
{
	static const struct option opts[] = {
		{ "boards", required_argument, NULL, 'b' },
		{ "sysroot", required_argument, NULL, 's' },
		{ "live", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tf_settings settings;
	bool live = false, json = false;
	_cleanup_free_ const char **dirs = NULL;
	const struct tf_board_profile *pick;
	struct tf_board_identity id;
	struct tf_board_match_info mi;
	struct tf_board_set *set = NULL;
	const char *sysroot = "";
	struct tf_err err = { 0 };
	size_t n_dirs = 0, i;
	struct tf_cli_opts g = { "touchfw: board identify", "h", opts, identify_usage };
	int c, r;

	dirs = calloc((size_t)argc + TF_MAX_DIRS, sizeof(*dirs));
	if (!dirs)
		return TF_EXIT_FAILURE;
	while ((c = tf_cli_getopt(argc, argv, &g)) != -1) {
		switch (c) {
		case TF_CLI_STOP:
			return g.exit;
		case 'b':
			dirs[n_dirs++] = optarg;
			break;
		case 's':
			sysroot = optarg;
			break;
		case 'l':
			live = true;
			break;
		case 'j':
			json = true;
			break;
		}
	}
	r = tf_cli_no_operands(argc, argv, &g);
	if (r != TF_CLI_CONTINUE)
		return r;
	/* The directories run uses: the settings file's boards_dirs. */
	if (tf_settings_load(&settings, cli->config, &err) < 0) {
		tf_out_err("touchfw: %s\n", err.msg);
		return TF_EXIT_BAD_INPUT;
	}
	if (n_dirs == 0)
		for (i = 0; i < settings.n_boards_dirs; i++)
			dirs[n_dirs++] = settings.boards_dirs[i];
	if (json)
		return identify_json(sysroot, dirs, n_dirs, live);

	r = tf_board_identify(sysroot, &id, &err);
	if (r) {
		tf_out_err("touchfw: %s\n", err.msg);
		return TF_EXIT_FAILURE;
	}
	print_identity(&id);

	r = tf_board_load(dirs, n_dirs, &set, &err);
	if (r) {
		tf_out_err("touchfw: can not load board profiles: %s\n", err.msg);
		tf_board_identity_free(&id);
		return TF_EXIT_FAILURE;
	}
	tf_out("profiles: %zu valid, %zu invalid, from", tf_board_set_count(set),
	       tf_board_set_invalid_count(set));
	for (i = 0; i < n_dirs; i++)
		tf_out(" %s", dirs[i]);
	tf_out("\n");
	for (i = 0; i < tf_board_set_shadowed_count(set); i++) {
		const char *by = NULL;
		const char *path = tf_board_set_shadowed_path(set, i, &by);

		tf_out("overridden: %s (by %s)\n", path, by);
	}
	for (i = 0; i < tf_board_set_ignored_count(set); i++) {
		char msg[1200];

		tf_board_ignored_message(tf_board_set_ignored_path(set, i), msg, sizeof(msg));
		tf_out("%s\n", msg);
	}
	for (i = 0; i < tf_board_set_invalid_count(set); i++) {
		tf_out("invalid: %s\n", tf_board_set_invalid_path(set, i));
		tf_board_print_report(tf_board_set_invalid_path(set, i),
				      tf_board_set_invalid_report(set, i));
	}

	pick = tf_board_match(set, &id, &mi);
	for (i = 0; i < tf_board_set_count(set); i++) {
		const struct tf_board_profile *p = tf_board_set_get(set, i);
		struct tf_board_match_info other;

		if (p == pick || !tf_board_profile_matches(p, &id, &other))
			continue;
		tf_out("also matches: %s ", p->path);
		print_match_reason(&id, &other);
		tf_out(", lower precedence\n");
	}
	if (!pick) {
		char why[1200];

		tf_board_explain_board_miss(set, &id, why, sizeof(why));
		tf_out("profile: none matches this machine; %s\n", why);
		tf_board_set_free(set);
		tf_board_identity_free(&id);
		return TF_EXIT_NO_PROFILE;
	}
	tf_out("profile: %s \"%s\" ", pick->path, pick->model);
	print_match_reason(&id, &mi);
	tf_out("\n");
	{
		char diff[600];
		const struct tf_board_profile *other =
			tf_board_match_conflict(set, &id, pick, diff, sizeof(diff));

		if (other) {
			tf_out("conflict: %s matches as well as %s and disagrees (%s): "
			       "touchfw refuses this board until one goes or overrides the "
			       "other\n",
			       other->path, pick->path, diff);
			tf_board_set_free(set);
			tf_board_identity_free(&id);
			return TF_EXIT_PROFILE_INVALID;
		}
	}
	tf_board_print_profile(pick);
	r = live ? tf_board_live(pick, NULL) : 0;
	tf_board_set_free(set);
	tf_board_identity_free(&id);
	return r ? TF_EXIT_PROFILE_INVALID : TF_EXIT_OK;
}
