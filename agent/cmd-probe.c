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
#include <fcntl.h>
#include <sys/stat.h>
#include <getopt.h>
#include <limits.h>
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
#include "fwdb.h"
#include "json.h"
#include "metrics.h"
#include "log.h"
#include "out.h"
#include "plan.h"
#include "settings.h"
#include "state.h"

#define MAX_ROWS 32

struct row {
	char dev[64];
	bool given;	 /* named on the command line */
	char where[600]; /* profile node, or why there is no device */
	bool present;
	struct tf_flow_result res;
	int rc;
	char last[600];
	struct tf_attempts att;
	uint64_t att_time;	/* status: when the last attempt was recorded */
	bool gave_up;		/* status: max_attempts reached, no run acts until --force */
	struct tf_hw_hint hint; /* status: remembered hardware */
	char hint_err[300];
	struct tf_failure_rec failed[4]; /* status: blobs that failed here */
	char failed_id[4][128];		 /* their manifest ids, "" if not in the database */
	int n_failed;
	int last_rc;	     /* status: the last recorded run's exit code, -1 none */
	char *history;	     /* status: the results history's lines, or NULL */
	char attention[400]; /* why the row is in trouble, "" if it is not */
};

static void usage(FILE *f, const char *cmd)
{
	fprintf(f,
		"Usage: touchfw %s [--json] [--exit-zero] [DEVICE...]\n%s"
		"\n"
		"Every touch controller of this board: the controllers the matching\n"
		"board profile describes and any device bound to a touch driver\n"
		"touchfw knows.  For each: bus, address (spi: chip select), driver,\n"
		"mode (application or bootloader, found on the bus without the driver's\n"
		"attributes; an spi device only when no driver holds it, or through its\n"
		"driver's attributes when the profile says power = \"driver\"), firmware and\n"
		"config CRC, what the firmware database offers and what 'touchfw run'\n"
		"would do.  Reads only.%s\n"
		"\n"
		"  --json       one JSON document instead of the table\n"
		"  --exit-zero  exit %d even when a controller needs attention\n"
		"%s"
		"\n"
		"Exit status %d; %d (%s) if a DEVICE given does not exist, %d (%s)\n"
		"if a file or device could not be opened (run as root); else %d (%s)\n"
		"if a controller needs attention (each such row says why): a chip in\n"
		"its bootloader, holding no program or not answering%s.\n",
		cmd, strcmp(cmd, "status") ? "" : "       touchfw status --prometheus\n",
		strcmp(cmd, "status")
			? ""
			: "  status also shows the last recorded result, the\n"
			  "newest runs of the results history kept across reboots, and\n"
			  "what touchfw remembers of each device, with since when: failed\n"
			  "attempts, blobs that failed there, the hardware last seen there\n"
			  "('touchfw forget DEVICE' clears them).",
		TF_EXIT_OK,
		strcmp(cmd, "status")
			? ""
			: "  --prometheus  what runs recorded, as Prometheus metrics (the text\n"
			  "           node_exporter's textfile collector reads; every run also\n"
			  "           writes it to prometheus_dir/touchfw.prom where the settings\n"
			  "           set prometheus_dir); reads the state directory only\n",
		TF_EXIT_OK, TF_EXIT_NO_DEVICE, tf_exit_name(TF_EXIT_NO_DEVICE),
		TF_EXIT_PERMISSION, tf_exit_name(TF_EXIT_PERMISSION), TF_EXIT_ATTENTION,
		tf_exit_name(TF_EXIT_ATTENTION),
		strcmp(cmd, "status") ? ""
				      : ",\nits last run failed on the chip (io, "
					"left-in-bootloader, verify-failed,\n"
					"interrupted), or failed attempts are recorded "
					"(backing off or given up)");
}

static void probe_usage(FILE *f)
{
	usage(f, "probe");
}

static void status_usage(FILE *f)
{
	usage(f, "status");
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
 * x86 machines name a client after its ACPI device ("i2c-<HID>:00"),
 * not its address: when @dev ("3-0040") does not exist, take the one
 * ACPI-named client on adapter @nr (the profile's controller there), as
 * tf_board_lookup_controller() matches such a client the other way round.
 */
void tf_acpi_client(int nr, char *dev, size_t size)
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
				    c->node_path,
				    c->adapter_name[0] ? c->adapter_name : c->adapter_path);
		} else {
			tf_snprintf(r->dev, sizeof(r->dev), "%d-%04x", nr, c->reg);
			tf_acpi_client(nr, r->dev, sizeof(r->dev));
			tf_snprintf(r->where, sizeof(r->where), "%s (%s)", c->node_path,
				    p->name);
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
				if (tf_snprintf(rows[n].dev, sizeof(rows[n].dev), "%s",
						de->d_name))
					continue;
				tf_snprintf(rows[n].where, sizeof(rows[n].where), "bound to %s",
					    tf_family_ids_all[f]->drivers[d]);
				n++;
			}
			closedir(dir);
		}
	return n;
}

/* The exit code a result record (tf_flow_result_json's, ours) holds, -1
 * if it holds none. */
static int recorded_exit_code(const char *json)
{
	const char *p = strstr(json, "\"exit_code\":");
	char *end;
	long v;

	if (!p)
		return -1;
	p += strlen("\"exit_code\":");
	while (*p == ' ')
		p++;
	v = strtol(p, &end, 10);
	return end == p || v < 0 || v >= TF_EXIT_MAX_ ? -1 : (int)v;
}

/*
 * Whether the row is in trouble, and why, in r->attention: the chip is in
 * its bootloader, holds no program or does not answer (probe and status);
 * status adds a last run that failed on the chip (io, left-in-bootloader,
 * verify-failed, interrupted) and recorded failed attempts (backing off
 * or given up).  Outcomes that are no trouble of the chip's -- no
 * profile, nothing in the database for a working chip, switched off, a
 * run refused (backoff: the attempts say it), a hand flash refused for
 * its file -- are not.
 */
static void judge(struct row *r, bool status, unsigned max_attempts)
{
	r->attention[0] = '\0';
	if (!r->present)
		return;
	if (!strcmp(r->res.mode_before, "bootloader"))
		tf_snprintf(r->attention, sizeof(r->attention),
			    "the chip is in its bootloader");
	else if (!strcmp(r->res.mode_before, "no-program"))
		tf_snprintf(r->attention, sizeof(r->attention), "the chip holds no program");
	else if (!strcmp(r->res.mode_before, "absent") || r->rc == TF_EXIT_IO)
		tf_snprintf(r->attention, sizeof(r->attention), "the chip does not answer (%s)",
			    r->res.message);
	else if (r->rc == TF_EXIT_BOOTLOADER || r->rc == TF_EXIT_VERIFY)
		tf_snprintf(r->attention, sizeof(r->attention), "%s", r->res.message);
	else if (status && r->att.count >= max_attempts)
		tf_snprintf(r->attention, sizeof(r->attention),
			    "gave up after %u failed attempts (last: %s); 'touchfw run --force "
			    "%s' tries again, 'touchfw forget %s' clears the count",
			    r->att.count, r->att.last_error, r->dev, r->dev);
	else if (status && r->att.count)
		tf_snprintf(
			r->attention, sizeof(r->attention),
			"%u failed attempt%s recorded, backing off (last: %s); 'touchfw run "
			"--force %s' tries now, 'touchfw forget %s' clears the count",
			r->att.count, r->att.count == 1 ? "" : "s", r->att.last_error, r->dev,
			r->dev);
	else if (status && (r->last_rc == TF_EXIT_IO || r->last_rc == TF_EXIT_BOOTLOADER ||
			    r->last_rc == TF_EXIT_VERIFY || r->last_rc == TF_EXIT_INTERRUPTED))
		tf_snprintf(r->attention, sizeof(r->attention),
			    "the last run failed (exit %d, %s)", r->last_rc,
			    tf_exit_name(r->last_rc));
}

/*
 * The manifest id of each blob that failed on the row's device, from the
 * database in use (@db NULL: it could not be loaded), so that status names
 * the blob by its manifest id, not a hash prefix.  A blob the database no longer
 * has keeps its hash.
 */
static void name_failed_blobs(struct row *r, const struct tf_fwdb *db)
{
	char hex[65];
	size_t k;
	int i;

	for (i = 0; i < r->n_failed; i++) {
		r->failed_id[i][0] = '\0';
		for (k = 0; db && k < db->n_blobs; k++) {
			tf_sha256_hex(db->blobs[k].sha256, hex);
			if (!strcmp(hex, r->failed[i].sha256_hex)) {
				tf_snprintf(r->failed_id[i], sizeof(r->failed_id[i]), "%s",
					    db->blobs[k].id);
				break;
			}
		}
	}
}

static void probe_row(const struct tf_settings *s, struct row *r, bool status, int verbosity,
		      const struct tf_fwdb *db)
{
	/* The dry run logs every step and its outcome; the table says it
	 * all, so it stays quiet unless -v. */
	struct tf_flow_opts o = { .dry_run = true,
				  .quiet_progress = true,
				  .log_max = verbosity > 0 ? 0 : TF_LOG_QUIET };
	struct tf_device d;
	struct tf_state st;
	struct tf_err err = { 0 };
	char *json = NULL;

	r->last_rc = -1;
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
			r->last_rc = recorded_exit_code(json);
			free(json);
		}
		/* Corrupt: read as at the limit, the reason in last_error. */
		tf_state_read_attempts(&st, r->dev, &r->att, &err);
		r->gave_up = r->att.count >= s->max_attempts;
		if (r->att.count) {
			char name[160];
			struct stat sb;

			if (!tf_snprintf(name, sizeof(name), "%s.attempts", r->dev) &&
			    fstatat(st.dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0)
				r->att_time = (uint64_t)sb.st_mtime;
		}
		tf_state_close(&st);
	}
	if (status) {
		tf_err_clear(&err);
		if (tf_persist_read_hw(s->persist_dir, r->dev, &r->hint, &err) < 0)
			tf_snprintf(r->hint_err, sizeof(r->hint_err), "%s", err.msg);
		r->n_failed = tf_persist_list_failures(s->persist_dir, r->dev, r->failed, 4);
		if (r->n_failed < 0)
			r->n_failed = 0;
		name_failed_blobs(r, db);
		tf_err_clear(&err);
		if (tf_persist_history_read(s->persist_dir, r->dev, &r->history, &err) < 0)
			log_warn(r->dev, "results history: %s", err.msg);
	}
}

/* status: what touchfw remembers of the device, with since when. */
/* @s for the terminal (tf_escape): what a row quotes from sysfs (an
 * adapter's name) can not drive it.  Four calls' results live at once. */
static const char *shown(const char *s)
{
	static char buf[4][4096];
	static unsigned k;

	k = (k + 1) % 4;
	return tf_escape(s, buf[k], sizeof(buf[k]));
}

/* A string or number field of one of our own result records (the
 * history's lines), in @buf; "" when it has none. */
static const char *field(const char *line, size_t len, const char *key, char *buf, size_t size)
{
	char pat[40];
	const char *p, *end = line + len;
	size_t n = 0;

	buf[0] = '\0';
	tf_snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = memmem(line, len, pat, strlen(pat));
	if (!p)
		return buf;
	p += strlen(pat);
	if (p < end && *p == '"') {
		for (p++; p < end && *p != '"' && n + 1 < size; p++) {
			if (*p == '\\' && p + 1 < end)
				p++;
			buf[n++] = *p;
		}
	} else {
		while (p < end && *p != ',' && *p != '}' && n + 1 < size)
			buf[n++] = *p++;
	}
	buf[n] = '\0';
	return buf;
}

/* status: the newest runs of the history kept across reboots. */
static void print_history(const struct row *r, const char *persist_dir)
{
	const char *line = r->history, *start[5];
	unsigned total = 0, k;

	if (!r->history || !*r->history) {
		tf_out("  history: none kept\n");
		return;
	}
	for (; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] ? 1 : 0))
		start[total++ % 5] = line;
	tf_out("  history: %u run%s kept in %s/history/%s.jsonl, the newest last:\n", total,
	       total == 1 ? "" : "s", persist_dir, r->dev);
	for (k = total > 5 ? total - 5 : 0; k < total; k++) {
		const char *l = start[k % 5];
		size_t len = strcspn(l, "\n");
		char t[40], res[40], msg[300], when[40];

		field(l, len, "time", t, sizeof(t));
		tf_out("    %s %s: %s\n",
		       tf_time_str(strtoull(t, NULL, 10), when, sizeof(when)),
		       shown(field(l, len, "result", res, sizeof(res))),
		       shown(field(l, len, "message", msg, sizeof(msg))));
	}
}

static void print_remembered(const struct row *r)
{
	char t[40];
	int i;

	if (!r->att.count && !r->hint.hw[0] && !r->hint_err[0] && !r->n_failed) {
		tf_out("  remembered: nothing\n");
		return;
	}
	if (r->att.count)
		tf_out("  attempts: %u failed (last: %s), recorded on %s\n", r->att.count,
		       shown(r->att.last_error), tf_time_str(r->att_time, t, sizeof(t)));
	for (i = 0; i < r->n_failed; i++) {
		char blob[200];

		/* by its manifest id; a blob the database does not have (any
		 * more) by its hash */
		if (r->failed_id[i][0])
			tf_snprintf(blob, sizeof(blob), "%s", r->failed_id[i]);
		else
			tf_snprintf(blob, sizeof(blob),
				    "sha256 %.16s... (not in the firmware database)",
				    r->failed[i].sha256_hex);
		if (r->failed[i].failures == UINT_MAX)
			tf_out("  failed blob: %s: its failure record can not be "
			       "read (%s); counted as failed too often, not tried again\n",
			       blob, shown(r->failed[i].why));
		else
			tf_out("  failed blob: %s failed here %u time%s, the last on %s "
			       "(last: %s); not tried again\n",
			       blob, r->failed[i].failures,
			       r->failed[i].failures == 1 ? "" : "s",
			       tf_time_str(r->failed[i].mtime, t, sizeof(t)),
			       shown(r->failed[i].why));
	}
	if (r->hint.hw[0])
		tf_out("  remembered hardware: %s, learnt from %s on %s (used only while the "
		       "chip is in its bootloader)\n",
		       r->hint.hw, r->hint.from[0] ? r->hint.from : "an older touchfw",
		       tf_time_str(r->hint.learnt, t, sizeof(t)));
	else if (r->hint_err[0])
		tf_out("  remembered hardware: unreadable (%s)\n", shown(r->hint_err));
	tf_out("  'touchfw forget %s' clears these\n", r->dev);
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

static void print_table(struct row *rows, int n, bool status, const char *persist_dir)
{
	char crc[16], act[64];
	int i;

	tf_out("%-12s %-7s %-14s %-11s %-8s %-9s %-10s %s\n", "DEVICE", "ADDR", "DRIVER",
	       "MODE", "HW", "FIRMWARE", "CFG-CRC", "ACTION");
	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		/* i2c: the address (an ACPI name, i2c-HID:00, has none);
		 * spi (spiB.C): the chip select */
		const char *addr = strncmp(r->dev, "i2c-", 4) ? strchr(r->dev, '-') : NULL;
		const char *cs = !strncmp(r->dev, "spi", 3) ? strchr(r->dev, '.') : NULL;
		char where[16];

		if (cs)
			tf_snprintf(where, sizeof(where), "cs%s", cs + 1);
		else if (addr)
			tf_snprintf(where, sizeof(where), "0x%s", addr + 3);
		else
			tf_snprintf(where, sizeof(where), "-");
		tf_snprintf(crc, sizeof(crc), "%s",
			    r->res.has_crc_before
				    ? TF_CRC_TEXT(r->res.crc_before, r->res.crc_bits)
				    : "-");
		tf_out("%-12s %-7s %-14s %-11s %-8s %-9s %-10s %s\n", r->dev, where,
		       r->res.driver[0] ? r->res.driver : "-",
		       r->present ? (r->res.mode_before[0] ? r->res.mode_before : "?")
				  : "no device",
		       r->res.hw[0] ? r->res.hw : "-",
		       r->res.version_before[0] ? r->res.version_before : "-", crc,
		       action(r, act, sizeof(act)));
		tf_out("  %s\n", shown(r->where));
		if (r->present && r->res.detail[0])
			tf_out("  chip: %s\n", shown(r->res.detail));
		if (r->present && r->rc == TF_EXIT_OK) {
			tf_out("  firmware: %s\n", shown(r->res.fw_reason));
			tf_out("  config:   %s\n", shown(r->res.cfg_reason));
		} else if (r->present) {
			tf_out("  %s\n", shown(r->res.message));
		}
		if (r->attention[0])
			tf_out("  attention: %s\n", shown(r->attention));
		if (status) {
			tf_out("  last run: %s\n",
			       r->last[0] ? shown(r->last) : "none recorded");
			if (r->present || strcmp(r->dev, "-")) {
				print_remembered(r);
				print_history(r, persist_dir);
			}
		}
	}
	if (!n)
		tf_out("(no touch controllers: no board profile matches and no device is "
		       "bound to a driver touchfw knows)\n");
}

static void print_json(struct row *rows, int n, bool status)
{
	struct tf_json j;
	char act[64];
	int i;

	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_int(&j, "version", TF_JSON_VERSION);
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
		tf_json_string(&j, "firmware",
			       r->res.version_before[0] ? r->res.version_before : NULL);
		if (r->res.has_crc_before)
			tf_json_crc(&j, "config_crc", r->res.crc_before, r->res.crc_bits);
		if (r->res.config_version_before[0])
			tf_json_string(&j, "config_version", r->res.config_version_before);
		tf_json_string(&j, "detail", r->res.detail[0] ? r->res.detail : NULL);
		tf_json_string(&j, "db_firmware",
			       r->res.planned_fw[0] ? r->res.planned_fw : NULL);
		tf_json_string(&j, "db_config",
			       r->res.planned_cfg[0] ? r->res.planned_cfg : NULL);
		tf_json_string(&j, "firmware_reason", r->res.fw_reason);
		tf_json_string(&j, "config_reason", r->res.cfg_reason);
		tf_json_string(&j, "action", action(r, act, sizeof(act)));
		tf_json_int(&j, "exit_code", r->present ? r->rc : TF_EXIT_NO_DEVICE);
		tf_json_string(&j, "message", r->res.message);
		tf_json_string(&j, "attention", r->attention[0] ? r->attention : NULL);
		if (status) {
			tf_json_uint(&j, "failed_attempts", r->att.count);
			tf_json_uint(&j, "failed_blobs", (uint64_t)r->n_failed);
			tf_json_begin_array(&j, "failed_blob_records");
			for (int k = 0; k < r->n_failed; k++) {
				tf_json_begin_object(&j, NULL);
				tf_json_string(&j, "id",
					       r->failed_id[k][0] ? r->failed_id[k] : NULL);
				tf_json_string(&j, "sha256", r->failed[k].sha256_hex);
				if (r->failed[k].failures != UINT_MAX)
					tf_json_uint(&j, "failures", r->failed[k].failures);
				tf_json_string(&j, "last_error", r->failed[k].why);
				tf_json_end_object(&j);
			}
			tf_json_end_array(&j);
			tf_json_string(&j, "remembered_hardware",
				       r->hint.hw[0] ? r->hint.hw : NULL);
			if (r->hint.hw[0])
				tf_json_uint(&j, "remembered_hardware_learnt", r->hint.learnt);
			tf_json_string(&j, "last_error",
				       r->att.last_error[0] ? r->att.last_error : NULL);
			/* The recorded result is JSON already: embed it as text. */
			tf_json_string(&j, "last_result", r->last[0] ? r->last : NULL);
			/* the history likewise, one string per run, the newest last */
			tf_json_begin_array(&j, "history");
			for (const char *l = r->history ? r->history : ""; *l;) {
				size_t len = strcspn(l, "\n");
				char *one = strndup(l, len);

				if (one)
					tf_json_string(&j, NULL, one);
				free(one);
				l += len + (l[len] ? 1 : 0);
			}
			tf_json_end_array(&j);
		}
		tf_json_end_object(&j);
	}
	tf_json_end_array(&j);
	tf_json_end_object(&j);
	tf_out_json(&j);
	tf_json_free(&j);
}

/*
 * The table reports every outcome; the exit status says whether the
 * command could do its job: a DEVICE given that does not exist is
 * no-device, a file or device it may not open (not root) is permission,
 * each also said on stderr.  Then whether a controller needs attention
 * (judge()): attention, unless --exit-zero.  Devices found but not
 * updatable (no profile, nothing in the database, ...) are reported, not
 * failures of probe.
 */
static int exit_code(const struct row *rows, int n, const char *cmd, bool exit_zero)
{
	int i, rc = TF_EXIT_OK;
	bool attention = false;

	for (i = 0; i < n; i++) {
		const struct row *r = &rows[i];

		if (r->given && !r->present) {
			tf_out_err("touchfw %s: %s: no such device (see /sys/bus/i2c/devices "
				   "and /sys/bus/spi/devices)\n",
				   cmd, r->dev);
			if (rc == TF_EXIT_OK)
				rc = TF_EXIT_NO_DEVICE;
		} else if (r->present && r->rc == TF_EXIT_PERMISSION) {
			tf_out_err("touchfw %s: %s: could not read it: %s\n", cmd, r->dev,
				   r->res.message);
			rc = TF_EXIT_PERMISSION;
		} else if (r->attention[0]) {
			if (!exit_zero)
				tf_out_err("touchfw %s: %s needs attention: %s\n", cmd, r->dev,
					   shown(r->attention));
			attention = true;
		}
	}
	/* Trouble with a chip is the answer a script asks for (--exit-zero
	 * for one that only wants the report); the command's own failures
	 * above come first. */
	if (rc == TF_EXIT_OK && attention && !exit_zero)
		rc = TF_EXIT_ATTENTION;
	return rc;
}

int tf_cmd_probe(const struct tf_cli *cli)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "prometheus", no_argument, NULL, 'P' },
		{ "exit-zero", no_argument, NULL, 'z' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool status = !strcmp(cli->argv[0], "status"), json = false, prometheus = false,
	     exit_zero = false;
	_cleanup_free_ struct row *rows = calloc(MAX_ROWS, sizeof(*rows));
	struct tf_settings s;
	struct tf_err err = { 0 };
	struct tf_fwdb *db = NULL;
	struct tf_cli_opts g = { .shortopts = "+jh", .longopts = opts };
	int c, n = 0, i, rc;

	if (!rows)
		return TF_EXIT_FAILURE;
	g.name = status ? "touchfw status" : "touchfw probe";
	g.usage = status ? status_usage : probe_usage;
	while ((c = tf_cli_getopt(cli->argc, cli->argv, &g)) != -1) {
		if (c == TF_CLI_STOP)
			return g.exit;
		if (c == 'j')
			json = true;
		else if (c == 'P' && status)
			prometheus = true;
		else if (c == 'P') {
			tf_out_err("touchfw probe: --prometheus is an option of 'touchfw "
				   "status'\n");
			return TF_EXIT_USAGE;
		} else if (c == 'z')
			exit_zero = true;
	}
	if (tf_settings_load(&s, cli->config, &err) < 0) {
		log_err(NULL, "%s", err.msg);
		return TF_EXIT_BAD_INPUT;
	}
	if (prometheus) {
		char *text = NULL;

		if (json || optind < cli->argc) {
			tf_out_err("touchfw status: --prometheus takes no DEVICE and no "
				   "--json: it prints every recorded device\n");
			return TF_EXIT_USAGE;
		}
		if (tf_metrics_text(&s, &text, &err) < 0) {
			log_err(NULL, "%s", err.msg);
			return TF_EXIT_STATE;
		}
		tf_out_str(text);
		free(text);
		return TF_EXIT_OK;
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
	/* status names failed blobs by their manifest ids: the database's,
	 * by the settings' signature policy (one that does not load leaves
	 * the hashes) */
	if (status) {
		struct tf_fwdb_opts lo = { .sig = s.signatures, .keys_dir = s.keys_dir };

		tf_err_clear(&err);
		if (tf_fwdb_load(s.db_dir, &lo, &db, &err) < 0)
			db = NULL;
	}
	for (i = 0; i < n; i++) {
		probe_row(&s, &rows[i], status, cli->verbosity + g.verbosity, db);
		judge(&rows[i], status, s.max_attempts);
	}
	if (json)
		print_json(rows, n, status);
	else
		print_table(rows, n, status, s.persist_dir);
	rc = exit_code(rows, n, cli->argv[0], exit_zero);
	if (db)
		tf_fwdb_free(db);
	for (i = 0; i < n; i++)
		free(rows[i].history);
	return rc;
}
