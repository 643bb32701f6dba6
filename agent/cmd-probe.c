// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw probe` and `touchfw status`: every controller of this board --
 * those its profile describes and any device bound to a touch driver
 * touchfw knows -- with bus, address, driver, mode, versions, config CRC,
 * the firmware DB's choice and the planned action.  Detection only reads
 * (it is the update flow's dry run); status adds the last recorded result
 * and the attempt state.
 */
#include <dirent.h>
#include <sys/stat.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "cli.h"
#include "cmd.h"
#include "device.h"
#include "exitcode.h"
#include "family/ids.h"
#include "flow.h"
#include "json.h"
#include "log.h"
#include "settings.h"
#include "state.h"

#define MAX_ROWS 32

struct row {
	char dev[64];
	bool given; /* named on the command line */
	char where[600]; /* profile node, or why there is no device */
	bool present;
	struct tf_flow_result res;
	int rc;
	char last[600];
	struct tf_attempts att;
	bool gave_up; /* status: max_attempts reached, no run acts until --force */
};

static void usage(FILE *f, const char *cmd)
{
	fprintf(f,
		"Usage: touchfw %s [--json] [DEVICE...]\n"
		"\n"
		"Every touch controller of this board: the controllers the matching\n"
		"board profile describes and any device bound to a touch driver\n"
		"touchfw knows.  For each: bus, address, driver, mode (application or\n"
		"bootloader, found on the bus without the driver's attributes), firmware\n"
		"and config CRC, what the firmware database offers and what 'touchfw\n"
		"run' would do.  Reads only.%s\n"
		"\n"
		"  --json   one JSON document instead of the table\n"
		"\n"
		"Exit status %d, or %d (%s) if a DEVICE given does not exist, %d (%s)\n"
		"if a file or device could not be opened (run as root).\n",
		cmd, strcmp(cmd, "status") ? "" :
		"  status also shows the last recorded result and\n"
		"the attempt count of each device.",
		TF_EXIT_OK, TF_EXIT_NO_DEVICE, tf_exit_name(TF_EXIT_NO_DEVICE),
		TF_EXIT_PERMISSION, tf_exit_name(TF_EXIT_PERMISSION));
}

static bool have(struct row *rows, int n, const char *dev)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(rows[i].dev, dev))
			return true;
	return false;
}

/*
 * x86 machines name a client after its ACPI device ("i2c-MSSL1680:00"),
 * not its address: when @dev ("3-0040") does not exist, take the one
 * ACPI-named client on adapter @nr (the profile's controller there), as
 * tf_board_lookup_controller() matches such a client the other way round.
 */
static void acpi_client(int nr, char *dev, size_t size)
{
	char path[300], found[64] = "";
	struct dirent *de;
	struct stat sb;
	int hits = 0;
	DIR *d;

	tf_snprintf(path, sizeof(path), "/sys/bus/i2c/devices/%s", dev);
	if (lstat(path, &sb) == 0)
		return;
	tf_snprintf(path, sizeof(path), "/sys/bus/i2c/devices/i2c-%d", nr);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "i2c-", 4) || !strchr(de->d_name, ':') ||
		    !tf_devname_valid(de->d_name))
			continue;
		hits++;
		tf_snprintf(found, sizeof(found), "%s", de->d_name);
	}
	closedir(d);
	if (hits == 1)
		tf_snprintf(dev, size, "%s", found);
}

/* Controllers of the matching profile, by adapter name/path + address. */
static int from_profile(const struct tf_settings *s, struct row *rows, int n)
{
	const char *dirs[TF_MAX_DIRS];
	struct tf_board_identity id;
	struct tf_board_set *set = NULL;
	const struct tf_board_profile *p;
	struct tf_err err = { 0 };
	unsigned i;
	size_t k;

	for (i = 0; i < s->n_boards_dirs; i++)
		dirs[i] = s->boards_dirs[i];
	memset(&id, 0, sizeof(id));
	if (tf_board_identify("", &id, &err) < 0 ||
	    tf_board_load(dirs, s->n_boards_dirs, &set, &err) < 0) {
		log_warn(NULL, "board profiles: %s", err.msg);
		tf_board_identity_free(&id);
		return n;
	}
	for (k = 0; k < tf_board_set_ignored_count(set); k++) {
		char msg[1200];

		tf_board_ignored_message(tf_board_set_ignored_path(set, k), msg, sizeof(msg));
		log_warn(NULL, "%s", msg);
	}
	p = tf_board_match(set, &id, NULL);
	for (k = 0; p && k < p->n_ctrl && n < MAX_ROWS; k++) {
		const struct tf_controller *c = &p->ctrl[k];
		int nr = tf_i2c_adapter_find(c->adapter_name, c->adapter_path);
		struct row *r = &rows[n];

		memset(r, 0, sizeof(*r));
		if (nr < 0) {
			tf_snprintf(r->dev, sizeof(r->dev), "-");
			tf_snprintf(r->where, sizeof(r->where), "%s: adapter '%s' not found",
				 c->node_path, c->adapter_name[0] ? c->adapter_name : c->adapter_path);
		} else {
			tf_snprintf(r->dev, sizeof(r->dev), "%d-%04x", nr, c->reg);
			acpi_client(nr, r->dev, sizeof(r->dev));
			tf_snprintf(r->where, sizeof(r->where), "%s (%s)", c->node_path, p->name);
		}
		n++;
	}
	tf_board_set_free(set);
	tf_board_identity_free(&id);
	return n;
}

/* Devices bound to a driver of a known family. */
static int from_drivers(struct row *rows, int n)
{
	size_t f, d;

	for (f = 0; tf_family_ids_all[f]; f++)
		for (d = 0; tf_family_ids_all[f]->drivers[d]; d++) {
			char path[300];
			struct dirent *de;
			DIR *dir;

			tf_snprintf(path, sizeof(path), "/sys/bus/i2c/drivers/%s",
				 tf_family_ids_all[f]->drivers[d]);
			dir = opendir(path);
			if (!dir)
				continue;
			while ((de = readdir(dir)) && n < MAX_ROWS) {
				if (!strchr(de->d_name, '-') || !strcmp(de->d_name, "module") ||
				    !tf_devname_valid(de->d_name) || have(rows, n, de->d_name))
					continue;
				memset(&rows[n], 0, sizeof(rows[n]));
				if (tf_snprintf(rows[n].dev, sizeof(rows[n].dev), "%s", de->d_name))
					continue;
				tf_snprintf(rows[n].where, sizeof(rows[n].where), "bound to %s",
					 tf_family_ids_all[f]->drivers[d]);
				n++;
			}
			closedir(dir);
		}
	return n;
}

static void probe_row(const struct tf_settings *s, struct row *r, bool status)
{
	struct tf_flow_opts o = { .dry_run = true, .quiet_progress = true };
	struct tf_device d;
	struct tf_state st;
	struct tf_err err = { 0 };
	char *json = NULL;

	if (!strcmp(r->dev, "-") || tf_device_lookup(r->dev, &d, NULL) < 0) {
		r->present = false;
		return;
	}
	r->present = true;
	r->rc = tf_flow_run(s, r->dev, &o, &r->res);
	if (!r->res.driver[0])
		tf_sysfs_driver(d.subsys, r->dev, r->res.driver, sizeof(r->res.driver));
	if (status && tf_state_open(&st, s->state_dir, false, NULL) == 0) {
		if (tf_state_read_result(&st, r->dev, &json) == 0) {
			tf_snprintf(r->last, sizeof(r->last), "%s", json);
			free(json);
		}
		/* Corrupt: read as at the limit, the reason in last_error. */
		tf_state_read_attempts(&st, r->dev, &r->att, &err);
		r->gave_up = r->att.count >= s->max_attempts;
		tf_state_close(&st);
	}
}

static const char *action(const struct row *r, char *buf, size_t size)
{
	if (!r->present)
		return "-";
	if (r->gave_up)
		tf_snprintf(buf, size, "gave-up");
	else if (r->rc != TF_EXIT_OK)
		tf_snprintf(buf, size, "%s", tf_exit_name(r->rc));
	else if (r->res.planned_fw[0] && r->res.planned_cfg[0])
		tf_snprintf(buf, size, "flash %s + config", r->res.planned_fw_version);
	else if (r->res.planned_fw[0])
		tf_snprintf(buf, size, "flash %s", r->res.planned_fw_version);
	else if (r->res.planned_cfg[0])
		tf_snprintf(buf, size, "write config");
	else
		tf_snprintf(buf, size, "none");
	return buf;
}

static void print_table(struct row *rows, int n, bool status)
{
	char crc[16], act[64];
	int i;

	printf("%-12s %-7s %-14s %-11s %-8s %-9s %-9s %s\n", "DEVICE", "ADDR", "DRIVER",
	       "MODE", "HW", "FIRMWARE", "CFG-CRC", "ACTION");
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		/* "3-004a": 0x4a; an ACPI name (i2c-MSSL1680:00) says none */
		const char *dash = strncmp(r->dev, "i2c-", 4) ? strchr(r->dev, '-') : NULL;
		char addr[16];

		tf_snprintf(addr, sizeof(addr), dash ? "0x%s" : "-", dash ? dash + 3 : "");
		tf_snprintf(crc, sizeof(crc), r->res.has_crc_before ? "%06X" : "-",
			 r->res.crc_before);
		printf("%-12s %-7s %-14s %-11s %-8s %-9s %-9s %s\n", r->dev, addr,
		       r->res.driver[0] ? r->res.driver : "-",
		       r->present ? (r->res.mode_before[0] ? r->res.mode_before : "?")
				  : "no device",
		       r->res.hw[0] ? r->res.hw : "-",
		       r->res.version_before[0] ? r->res.version_before : "-", crc,
		       action(r, act, sizeof(act)));
		printf("  %s\n", r->where);
		if (r->present && r->res.detail[0])
			printf("  chip: %s\n", r->res.detail);
		if (r->present && r->rc == TF_EXIT_OK) {
			printf("  firmware: %s\n", r->res.fw_reason);
			printf("  config:   %s\n", r->res.cfg_reason);
		} else if (r->present) {
			printf("  %s\n", r->res.message);
		}
		if (status) {
			if (r->att.count)
				printf("  attempts: %u failed (last: %s)\n", r->att.count,
				       r->att.last_error);
			printf("  last run: %s\n", r->last[0] ? r->last : "none recorded");
		}
	}
	if (!n)
		printf("(no touch controllers: no board profile matches and no device is "
		       "bound to a driver touchfw knows)\n");
}

static void print_json(struct row *rows, int n, bool status)
{
	struct tf_json j;
	char act[64];
	int i;

	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_begin_array(&j, "controllers");
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];

		tf_json_begin_object(&j, NULL);
		tf_json_string(&j, "device", strcmp(r->dev, "-") ? r->dev : NULL);
		tf_json_string(&j, "where", r->where);
		tf_json_bool(&j, "present", r->present);
		tf_json_string(&j, "driver", r->res.driver[0] ? r->res.driver : NULL);
		tf_json_string(&j, "profile", r->res.profile[0] ? r->res.profile : NULL);
		tf_json_string(&j, "mode", r->res.mode_before[0] ? r->res.mode_before : NULL);
		tf_json_string(&j, "hardware", r->res.hw[0] ? r->res.hw : NULL);
		tf_json_string(&j, "firmware", r->res.version_before[0] ? r->res.version_before : NULL);
		if (r->res.has_crc_before)
			tf_json_uint(&j, "config_crc", r->res.crc_before);
		if (r->res.config_version_before[0])
			tf_json_string(&j, "config_version", r->res.config_version_before);
		tf_json_string(&j, "detail", r->res.detail[0] ? r->res.detail : NULL);
		tf_json_string(&j, "db_firmware", r->res.planned_fw[0] ? r->res.planned_fw : NULL);
		tf_json_string(&j, "db_config", r->res.planned_cfg[0] ? r->res.planned_cfg : NULL);
		tf_json_string(&j, "firmware_reason", r->res.fw_reason);
		tf_json_string(&j, "config_reason", r->res.cfg_reason);
		tf_json_string(&j, "action", action(r, act, sizeof(act)));
		tf_json_int(&j, "exit_code", r->present ? r->rc : TF_EXIT_NO_DEVICE);
		tf_json_string(&j, "message", r->res.message);
		if (status) {
			tf_json_uint(&j, "failed_attempts", r->att.count);
			tf_json_string(&j, "last_error", r->att.last_error[0] ? r->att.last_error : NULL);
			/* The recorded result is JSON already: embed it as text. */
			tf_json_string(&j, "last_result", r->last[0] ? r->last : NULL);
		}
		tf_json_end_object(&j);
	}
	tf_json_end_array(&j);
	tf_json_end_object(&j);
	printf("%s\n", tf_json_text(&j) ? tf_json_text(&j) : "{}");
	tf_json_free(&j);
}

/*
 * The table reports every outcome; the exit status says whether the
 * command could do its job: a DEVICE given that does not exist is
 * no-device, a file or device it may not open (not root) is permission,
 * each also said on stderr.  Devices found but not updatable (no profile,
 * nothing in the database, ...) are reported, not failures of probe.
 */
static int exit_code(const struct row *rows, int n, const char *cmd)
{
	int i, rc = TF_EXIT_OK;

	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];

		if (r->given && !r->present) {
			fprintf(stderr, "touchfw %s: %s: no such device (see /sys/bus/i2c/devices "
				"and /sys/bus/spi/devices)\n", cmd, r->dev);
			if (rc == TF_EXIT_OK)
				rc = TF_EXIT_NO_DEVICE;
		} else if (r->present && r->rc == TF_EXIT_PERMISSION) {
			fprintf(stderr, "touchfw %s: %s: could not read it: %s\n", cmd, r->dev,
				r->res.message);
			rc = TF_EXIT_PERMISSION;
		}
	}
	return rc;
}

int tf_cmd_probe(const struct tf_cli *cli)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool status = !strcmp(cli->argv[0], "status"), json = false;
	struct row *rows = calloc(MAX_ROWS, sizeof(*rows));
	struct tf_settings s;
	struct tf_err err = { 0 };
	int c, n = 0, i, rc, saved = tf_log_get_max();

	if (!rows)
		return TF_EXIT_FAILURE;
	optind = 1;
	while ((c = getopt_long(cli->argc, cli->argv, "+jh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout, cli->argv[0]);
			free(rows);
			return TF_EXIT_OK;
		default:
			usage(stderr, cli->argv[0]);
			free(rows);
			return TF_EXIT_USAGE;
		}
	}
	if (tf_settings_load(&s, cli->config, &err) < 0) {
		log_err(NULL, "%s", err.msg);
		free(rows);
		return TF_EXIT_BAD_INPUT;
	}
	for (i = optind; i < cli->argc && n < MAX_ROWS; i++) {
		memset(&rows[n], 0, sizeof(rows[n]));
		tf_snprintf(rows[n].dev, sizeof(rows[n].dev), "%s", cli->argv[i]);
		tf_snprintf(rows[n].where, sizeof(rows[n].where), "given on the command line");
		rows[n].given = true;
		n++;
	}
	if (optind == cli->argc) {
		n = from_profile(&s, rows, n);
		n = from_drivers(rows, n);
	}
	/* The dry runs log every step and their outcome; the table says it
	 * all, so they stay quiet unless -v. */
	if (cli->verbosity <= 0)
		tf_log_set_max(TF_LOG_ERR - 1);
	for (i = 0; i < n; i++)
		probe_row(&s, &rows[i], status);
	tf_log_set_max(saved);
	if (json)
		print_json(rows, n, status);
	else
		print_table(rows, n, status);
	rc = exit_code(rows, n, cli->argv[0]);
	free(rows);
	return rc;
}
