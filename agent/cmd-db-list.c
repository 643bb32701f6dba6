// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw db list`: every blob of the database, and with --board what
 * this machine's board profile could use -- which controllers each blob
 * may go to, why each other blob is not a candidate -- and what the plan
 * chooses for each controller whose device is here (a dry run).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "cmd.h"
#include "device.h"
#include "exitcode.h"
#include "family/family.h"
#include "flow.h"
#include "fwdb.h"
#include "json.h"
#include "log.h"
#include "out.h"
#include "plan.h"
#include "settings.h"

static void usage_list(FILE *f, const struct tf_db_defaults *d)
{
	fprintf(f,
		"Usage: touchfw db list [--db DIR] [--board] [--json]\n"
		"                       [--keys DIR] [--signatures required|optional|off]\n"
		"\n"
		"List the database's blobs.  With --board: for this machine's board\n"
		"profile, which blobs are candidates for which controller and why\n"
		"each other blob is not; then, for each controller whose device is\n"
		"here, what the plan chooses among the candidates and why (the\n"
		"chip is read as 'touchfw probe' reads it; nothing is written).\n"
		"\n"
		"  --db DIR          database directory (default %s)\n"
		"  --board           judge every blob against this board's profile\n"
		"  --json            one JSON document (doc/json.md)\n"
		"  --keys DIR, --signatures P   as 'touchfw db check'\n"
		"\n"
		"Exit status 0, %d (%s) when the database does not load, %d (%s)\n"
		"with --board when no profile describes this board.\n",
		d->db_dir, TF_EXIT_DB_INVALID, tf_exit_name(TF_EXIT_DB_INVALID),
		TF_EXIT_NO_PROFILE, tf_exit_name(TF_EXIT_NO_PROFILE));
}

/* Why @b is not for any controller of @p; "" when it is a candidate (then
 * @cand names the controllers). */
static void judge(const struct tf_blob *b, const struct tf_board_profile *p, char *why,
		  size_t wsize, char *cand, size_t csize)
{
	size_t i, n = 0;
	bool family_seen = false;
	char pinned[300] = "";

	why[0] = cand[0] = '\0';
	if (!tf_blob_fits_board(b, (const char *const *)p->board_ids, p->n_board_ids)) {
		size_t k, off;

		off = (size_t)snprintf(why, wsize,
				       "not for board %s (boards =", p->board_ids[0]);
		for (k = 0; k < b->n_boards && off < wsize; k++)
			off += (size_t)snprintf(why + off, wsize - off, " %s", b->boards[k]);
		if (off < wsize)
			snprintf(why + off, wsize - off, ")");
		return;
	}
	for (i = 0; i < p->n_ctrl; i++) {
		const struct tf_controller *c = &p->ctrl[i];
		const char *pin = b->type == TF_BLOB_FIRMWARE ? c->firmware_pin : c->config_pin;

		if (strcmp(c->family, b->family))
			continue;
		family_seen = true;
		if (pin[0] && strcmp(pin, b->id)) {
			tf_snprintf(pinned, sizeof(pinned), "%s pins %s %s", c->node_path,
				    b->type == TF_BLOB_FIRMWARE ? "firmware" : "config", pin);
			continue;
		}
		n += (size_t)snprintf(cand + n, n < csize ? csize - n : 0, "%s%s", n ? " " : "",
				      c->node_path);
	}
	if (cand[0])
		return;
	if (!family_seen)
		snprintf(why, wsize, "the profile has no %s controller", b->family);
	else
		snprintf(why, wsize, "%s", pinned);
}

/*
 * What the plan chooses for each controller of the profile whose device is
 * here: the update flow as a dry run (as `probe` does), against the
 * database being listed.  Reads the chips; writes nothing.
 */
#define MAX_PLANS 16
struct plan {
	char dev[64];
	const char *node;
	int rc;
	struct tf_flow_result res;
};

static size_t make_plans(const struct tf_board_profile *p, const struct tf_settings *base,
			 const char *dir, const struct tf_fwdb_opts *lo, struct plan *plans)
{
	struct tf_settings *s = malloc(sizeof(*s));
	struct tf_flow_opts o = { .dry_run = true, .quiet_progress = true };
	int saved = tf_log_get_max();
	size_t i, n = 0;

	if (!s)
		return 0;
	*s = *base;
	tf_snprintf(s->db_dir, sizeof(s->db_dir), "%s", dir);
	tf_snprintf(s->keys_dir, sizeof(s->keys_dir), "%s",
		    lo->keys_dir ? lo->keys_dir : base->keys_dir);
	s->signatures = lo->sig;
	/* The dry runs' own log would bury the list. */
	tf_log_set_max(TF_LOG_ERR - 1);
	for (i = 0; i < p->n_ctrl && n < MAX_PLANS; i++) {
		const struct tf_controller *c = &p->ctrl[i];
		struct tf_device dev;
		int nr;

		if (strcmp(c->bus, "i2c"))
			continue;
		nr = tf_i2c_adapter_find(c->adapter_name, c->adapter_path);
		if (nr < 0)
			continue;
		snprintf(plans[n].dev, sizeof(plans[n].dev), "%d-%04x", nr, c->reg);
		if (tf_device_lookup(plans[n].dev, &dev, NULL) < 0)
			continue;
		plans[n].node = c->node_path;
		memset(&plans[n].res, 0, sizeof(plans[n].res));
		plans[n].rc = tf_flow_run(s, plans[n].dev, &o, &plans[n].res);
		n++;
	}
	tf_log_set_max(saved);
	free(s);
	return n;
}

/* The devices whose plan chose @b, space separated ("" if none). */
static void chosen_by(const struct tf_blob *b, const struct plan *plans, size_t n, char *buf,
		      size_t size)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		const char *id = b->type == TF_BLOB_FIRMWARE ? plans[i].res.planned_fw
							     : plans[i].res.planned_cfg;

		if (plans[i].rc == TF_EXIT_OK && !strcmp(id, b->id))
			off += (size_t)snprintf(buf + off, off < size ? size - off : 0, "%s%s",
						off ? " " : "", plans[i].dev);
	}
}

static const char *version_of(const struct tf_blob *b, char *buf, size_t size)
{
	if (b->type == TF_BLOB_FIRMWARE)
		snprintf(buf, size, "%s", b->version);
	else
		snprintf(buf, size, "for %s%s%s", b->for_version, b->version ? ", " : "",
			 b->version ? b->version : "");
	return buf;
}

static void json_blob(struct tf_json *j, const struct tf_blob *b, const char *cand,
		      const char *why, bool board, const char *chosen)
{
	tf_json_begin_object(j, NULL);
	tf_db_json_blob(j, b);
	if (board) {
		tf_json_bool(j, "candidate", cand[0] != '\0');
		tf_json_string(j, "controllers", cand[0] ? cand : NULL);
		tf_json_string(j, "why_not", cand[0] ? NULL : why);
		tf_json_string(j, "chosen_for", chosen[0] ? chosen : NULL);
	}
	tf_json_end_object(j);
}

int tf_cmd_db_list(int argc, char **argv, const struct tf_db_defaults *d)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "keys", required_argument, NULL, 'k' },
		{ "signatures", required_argument, NULL, 's' },
		{ "board", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tf_fwdb_opts lo = { .sig = d->sig, .keys_dir = d->keys_dir };
	const char *dir = d->db_dir;
	const struct tf_board_profile *p = NULL;
	struct tf_board_identity id;
	struct tf_board_set *set = NULL;
	struct tf_fwdb *db = NULL;
	struct tf_err err = { 0 };
	struct tf_json j;
	struct plan *plans = NULL;
	size_t n_plans = 0;
	bool board = false, json = false, have_id = false, keys_given = false;
	int c, rc = TF_EXIT_OK;
	size_t i;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dir = optarg;
			break;
		case 'k':
			lo.keys_dir = optarg;
			keys_given = true;
			break;
		case 's':
			if (tf_sig_policy_parse(optarg, &lo.sig) < 0) {
				tf_out_err("touchfw db list: --signatures is required, "
					   "optional or off, not '%s'\n",
					   optarg);
				return TF_EXIT_USAGE;
			}
			break;
		case 'b':
			board = true;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage_list(tf_out_file(), d);
			return TF_EXIT_OK;
		default:
			tf_out_err("touchfw db list: bad option '%s'\n", argv[optind - 1]);
			usage_list(tf_out_err_file(), d);
			return TF_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		tf_out_err("touchfw db list: unexpected '%s'\n", argv[optind]);
		return TF_EXIT_USAGE;
	}
	if (keys_given && (rc = tf_db_keys_given("touchfw db list", lo.keys_dir)))
		return rc;
	if (tf_fwdb_load(dir, &lo, &db, &err) < 0) {
		tf_out_err("touchfw db list: %s\n", err.msg);
		return TF_EXIT_DB_INVALID;
	}
	if (board) {
		const char *dirs[TF_MAX_DIRS];

		for (i = 0; i < d->settings->n_boards_dirs; i++)
			dirs[i] = d->settings->boards_dirs[i];
		if (tf_board_identify("", &id, &err) < 0) {
			tf_out_err("touchfw db list: can not identify the board: %s\n",
				   err.msg);
			rc = TF_EXIT_NO_PROFILE;
			goto out;
		}
		have_id = true;
		if (tf_board_load(dirs, d->settings->n_boards_dirs, &set, &err) < 0) {
			tf_out_err("touchfw db list: board profiles: %s\n", err.msg);
			rc = TF_EXIT_NO_PROFILE;
			goto out;
		}
		p = tf_board_match(set, &id, NULL);
		if (!p) {
			tf_out_err("touchfw db list: no board profile describes this board "
				   "(%s); 'touchfw board identify' says why\n",
				   id.n_compatible ? id.compatible[0] : "no compatible");
			rc = TF_EXIT_NO_PROFILE;
			goto out;
		}
		plans = calloc(MAX_PLANS, sizeof(*plans));
		if (!plans) {
			rc = TF_EXIT_FAILURE;
			goto out;
		}
		n_plans = make_plans(p, d->settings, dir, &lo, plans);
	}
	if (json) {
		tf_json_init(&j);
		tf_json_begin_object(&j, NULL);
		tf_json_int(&j, "version", TF_JSON_VERSION);
		tf_json_string(&j, "db", dir);
		tf_json_string(&j, "profile", p ? p->name : NULL);
		tf_json_begin_array(&j, "blobs");
	} else if (p) {
		tf_out("board profile %s (%s), board ids:", p->name, p->model);
		for (i = 0; i < p->n_board_ids; i++)
			tf_out(" %s", p->board_ids[i]);
		tf_out("\n");
	}
	for (i = 0; i < db->n_blobs; i++) {
		const struct tf_blob *b = &db->blobs[i];
		char why[600] = "", cand[600] = "", v[TF_VERSION_STR_MAX * 2 + 16], hw[200];
		char chosen[300] = "";
		size_t k, n = 0;

		if (p) {
			judge(b, p, why, sizeof(why), cand, sizeof(cand));
			chosen_by(b, plans, n_plans, chosen, sizeof(chosen));
		}
		if (json) {
			json_blob(&j, b, cand, why, p != NULL, chosen);
			continue;
		}
		hw[0] = '\0';
		for (k = 0; k < b->n_hardware; k++)
			n += (size_t)snprintf(hw + n, n < sizeof(hw) ? sizeof(hw) - n : 0,
					      "%s%s", k ? "," : "", b->hardware[k]);
		tf_out("%-24s %-8s %-7s hw %-10s %-22s", b->id, tf_blob_type_name(b->type),
		       b->family, hw, version_of(b, v, sizeof(v)));
		if (p)
			tf_out(" %s%s%s%s",
			       cand[0] ? "candidate for " : "no: ", cand[0] ? cand : why,
			       chosen[0] ? "; chosen for " : "", chosen);
		else if (b->n_boards)
			tf_out(" boards %s%s", b->boards[0], b->n_boards > 1 ? " ..." : "");
		tf_out("\n");
	}
	if (json) {
		const char *text;

		tf_json_end_array(&j);
		if (p) {
			tf_json_begin_array(&j, "plans");
			for (i = 0; i < n_plans; i++) {
				const struct tf_flow_result *r = &plans[i].res;

				tf_json_begin_object(&j, NULL);
				tf_json_string(&j, "device", plans[i].dev);
				tf_json_string(&j, "controller", plans[i].node);
				tf_json_int(&j, "exit_code", plans[i].rc);
				tf_json_string(&j, "firmware",
					       r->planned_fw[0] ? r->planned_fw : NULL);
				tf_json_string(&j, "config",
					       r->planned_cfg[0] ? r->planned_cfg : NULL);
				tf_json_string(&j, "firmware_reason", r->fw_reason);
				tf_json_string(&j, "config_reason", r->cfg_reason);
				tf_json_string(&j, "message", r->message);
				tf_json_end_object(&j);
			}
			tf_json_end_array(&j);
		}
		tf_json_end_object(&j);
		text = tf_json_text(&j);
		if (text)
			tf_out("%s\n", text);
		else
			rc = TF_EXIT_FAILURE;
		tf_json_free(&j);
	}
	for (i = 0; !json && i < n_plans; i++) {
		const struct tf_flow_result *r = &plans[i].res;

		if (plans[i].rc != TF_EXIT_OK && !r->fw_reason[0] && !r->cfg_reason[0]) {
			tf_out("plan for %s (%s): %s\n", plans[i].dev, plans[i].node,
			       r->message);
			continue;
		}
		tf_out("plan for %s (%s): firmware: %s; config: %s\n", plans[i].dev,
		       plans[i].node, r->fw_reason[0] ? r->fw_reason : "-",
		       r->cfg_reason[0] ? r->cfg_reason : "-");
	}
out:
	free(plans);
	if (set)
		tf_board_set_free(set);
	if (have_id)
		tf_board_identity_free(&id);
	tf_fwdb_free(db);
	return rc;
}
