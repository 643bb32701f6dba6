// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw db`: the OEM's tools for the firmware database.  `check` loads
 * a database the way the agent will (same signature policy and keys) and
 * also reads every blob, so a release is proven before it ships; `sign`
 * signs manifest.ini; `keygen` makes a signing key pair.  This is the only
 * part of the firmware database code that prints.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cmd.h"
#include "exitcode.h"
#include "family/family.h"
#include "fwdb.h"
#include "json.h"
#include "out.h"
#include "settings.h"

/*
 * Defaults in one place: the settings file's (--config, $TOUCHFW_CONFIG
 * or the default file, as run reads it) db_dir, keys_dir and signatures,
 * so check looks at the database the agent would use with the agent's
 * policy.  Without a settings file, the built-in directories and, for a
 * release check on a build machine, signatures required.
 */
struct db_defaults {
	const char *db_dir;
	const char *keys_dir;
	enum tf_sig_policy sig;
	const char *from; /* the settings file, or NULL */
};

static struct db_defaults defaults = {
	.db_dir = TF_FWDB_DEFAULT_DIR,
	.keys_dir = TF_FWDB_DEFAULT_KEYS_DIR,
	.sig = TF_SIG_REQUIRED,
};
static struct tf_settings settings;

static int load_defaults(const struct tf_cli *cli)
{
	struct tf_err err = { 0 };

	if (tf_settings_load(&settings, cli->config, &err) < 0) {
		tf_out_err("touchfw db: %s\n", err.msg);
		return TF_EXIT_BAD_INPUT;
	}
	defaults.db_dir = settings.db_dir;
	defaults.keys_dir = settings.keys_dir;
	/* The policy exactly as the agent will apply it (settings.c's
	 * default when there is no file: optional, which fwdb turns into
	 * required as soon as a key is installed). */
	defaults.sig = settings.signatures;
	defaults.from = settings.file_found ? settings.path : NULL;
	return TF_EXIT_OK;
}

static void usage_check(FILE *f)
{
	fprintf(f,
		"Usage: touchfw db check [--db DIR] [--keys DIR]\n"
		"                        [--signatures required|optional|off] [--json]\n"
		"\n"
		"Load the firmware database as the agent does, check the\n"
		"signature of manifest.ini, then read every blob and check\n"
		"its size and SHA-256.  One line per blob, then a summary.\n"
		"\n"
		"  --db DIR          database directory (default %s)\n"
		"  --keys DIR        public keys, <key-id>.pub (default %s)\n"
		"  --signatures P    required, optional or off (default %s)\n"
		"  --json            one JSON document (doc/json.md)\n"
		"\n"
		"%s%s\n"
		"\n"
		"Exit status 0 if everything checks, %d (%s) if not, %d on\n"
		"a bad command line.\n",
		defaults.db_dir, defaults.keys_dir, tf_sig_policy_name(defaults.sig),
		defaults.from ? "Defaults from db_dir, keys_dir and signatures in "
			      : "No settings file: built-in directories; 'optional' means a\n"
				"signature is required once a key is installed.",
		defaults.from ? defaults.from : "", TF_EXIT_DB_INVALID,
		tf_exit_name(TF_EXIT_DB_INVALID), TF_EXIT_USAGE);
}

static void usage_sign(FILE *f)
{
	fprintf(f,
		"Usage: touchfw db sign --key FILE [--db DIR] [--json]\n"
		"\n"
		"Sign DIR/manifest.ini with the secret key FILE, named\n"
		"<key-id>.key (mode 0600), adding or replacing that key's\n"
		"line in manifest.ini.sig; other keys' lines stay, so a\n"
		"manifest can carry an old and a new key while keys rotate.\n"
		"A manifest that does not parse is not signed.\n"
		"\n"
		"  --key FILE   secret key made by 'touchfw db keygen'\n"
		"  --db DIR     database directory (default %s)\n"
		"  --json       the files written and the key id, one JSON document\n",
		defaults.db_dir);
}

static void usage_keygen(FILE *f)
{
	fprintf(f,
		"Usage: touchfw db keygen --out DIR [--json] NAME\n"
		"\n"
		"Make an Ed25519 key pair: DIR/NAME.key (secret, mode 0600;\n"
		"keep it on the signing machine) and DIR/NAME.pub (install it\n"
		"in the devices' keys directory, %s).\n"
		"NAME is the key id: letters, digits and . _ -, for example\n"
		"acme-2024.  Existing files are never overwritten: exit\n"
		"status %d (%s) if DIR/NAME.key or DIR/NAME.pub exists.\n"
		"--json: the files written and the key id, one JSON document.\n",
		defaults.keys_dir, TF_EXIT_EXISTS, tf_exit_name(TF_EXIT_EXISTS));
}

static void usage(FILE *f)
{
	fprintf(f, "Usage: touchfw db COMMAND [OPTIONS]\n"
		   "\n"
		   "Make, fill, check and sign the firmware database.\n"
		   "\n"
		   "Commands:\n"
		   "  check    verify manifest, signature, blob sizes and "
		   "hashes\n"
		   "  sign     sign manifest.ini with a secret key\n"
		   "  keygen   make a signing key pair\n"
		   "  init     make an empty database\n"
		   "  add      add a blob, its entry filled from its own header;\n"
		   "           files in formats the driver does not load converted\n"
		   "  remove   take a blob out (its section, and its file)\n"
		   "  list     list the blobs; --board: what this board may use\n"
		   "\n"
		   "'touchfw db COMMAND --help' describes each.  The format "
		   "is described in\nfirmware-db/README.md.\n");
}

static const char *line_result(enum tf_sig_line_result r)
{
	switch (r) {
	case TF_SIG_LINE_VERIFIED:
		return "verified";
	case TF_SIG_LINE_BAD:
		return "DOES NOT VERIFY (stale or damaged: re-sign, or "
		       "remove the line)";
	case TF_SIG_LINE_UNKNOWN_KEY:
		return "key not in the keys directory";
	}
	return "?";
}

static void print_signature(const struct tf_fwdb *db, enum tf_sig_policy policy)
{
	size_t i;

	for (i = 0; i < db->n_sig_lines; i++)
		tf_out("signature %s (%s line %u): %s\n", db->sig_lines[i].key_id,
		       TF_FWDB_SIGNATURE, db->sig_lines[i].line,
		       line_result(db->sig_lines[i].result));
	if (db->sig_state == TF_SIG_STATE_UNSIGNED)
		tf_out("signature: none (unsigned; allowed by --signatures "
		       "%s)\n",
		       tf_sig_policy_name(policy));
	else if (db->sig_state == TF_SIG_STATE_NOT_CHECKED)
		tf_out("signature: not checked (--signatures off)\n");
}

static const char *line_result_key(enum tf_sig_line_result r)
{
	switch (r) {
	case TF_SIG_LINE_VERIFIED:
		return "verified";
	case TF_SIG_LINE_BAD:
		return "bad";
	case TF_SIG_LINE_UNKNOWN_KEY:
		return "unknown_key";
	}
	return "?";
}

static void print_json_text(struct tf_json *j)
{
	const char *t = tf_json_text(j);

	tf_out("%s\n", t ? t : "{}");
	tf_json_free(j);
}

/* `db check --json` when the database does not even load. */
static void print_load_failure_json(const char *dir, const char *msg)
{
	struct tf_json j;

	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_int(&j, "version", TF_JSON_VERSION);
	tf_json_string(&j, "db", dir);
	tf_json_bool(&j, "loaded", false);
	tf_json_string(&j, "error", msg);
	tf_json_end_object(&j);
	print_json_text(&j);
}

/* `db check --json`: the same checks, one document; returns the failures. */
static size_t check_json(const char *dir, const struct tf_fwdb *db, enum tf_sig_policy policy)
{
	struct tf_err err = { 0 };
	struct tf_json j;
	size_t i, failed = 0;
	int r;

	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_int(&j, "version", TF_JSON_VERSION);
	tf_json_string(&j, "db", dir);
	tf_json_bool(&j, "loaded", true);
	tf_json_begin_array(&j, "blobs");
	for (i = 0; i < db->n_blobs; i++) {
		const struct tf_blob *b = &db->blobs[i];

		tf_err_clear(&err);
		r = tf_fwdb_verify_blob(db, b, &err);
		tf_json_begin_object(&j, NULL);
		tf_json_string(&j, "id", b->id);
		tf_json_string(&j, "type", tf_blob_type_name(b->type));
		tf_json_string(&j, "family", b->family);
		tf_json_string(&j, "version", b->version);
		tf_json_string(&j, "for_version", b->for_version);
		if (b->has_info_crc)
			tf_json_crc(&j, "info_crc", b->info_crc,
				    tf_family_crc_bits(tf_family_by_name(b->family)));
		if (b->has_config_crc)
			tf_json_crc(&j, "config_crc", b->config_crc,
				    tf_family_crc_bits(tf_family_by_name(b->family)));
		tf_json_bool(&j, "ok", r == 0);
		tf_json_string(&j, "error", r < 0 ? err.msg : NULL);
		tf_json_end_object(&j);
		if (r < 0)
			failed++;
	}
	tf_json_end_array(&j);
	tf_json_begin_object(&j, "signature");
	tf_json_string(&j, "policy", tf_sig_policy_name(policy));
	tf_json_string(&j, "state",
		       db->is_signed				? "verified"
		       : db->sig_state == TF_SIG_STATE_UNSIGNED ? "unsigned"
								: "not_checked");
	tf_json_string(&j, "signer", db->is_signed ? db->signer : NULL);
	tf_json_begin_array(&j, "lines");
	for (i = 0; i < db->n_sig_lines; i++) {
		tf_json_begin_object(&j, NULL);
		tf_json_string(&j, "key_id", db->sig_lines[i].key_id);
		tf_json_uint(&j, "line", db->sig_lines[i].line);
		tf_json_string(&j, "result", line_result_key(db->sig_lines[i].result));
		tf_json_end_object(&j);
	}
	tf_json_end_array(&j);
	tf_json_end_object(&j);
	tf_json_uint(&j, "ok", db->n_blobs - failed);
	tf_json_uint(&j, "failed", failed);
	tf_json_end_object(&j);
	print_json_text(&j);
	return failed;
}

int tf_db_keys_given(const char *cmd, const char *dir)
{
	struct stat sb;

	if (stat(dir, &sb) < 0) {
		tf_out_err("%s: --keys %s: %s\n", cmd, dir, strerror(errno));
		return TF_EXIT_BAD_INPUT;
	}
	if (!S_ISDIR(sb.st_mode)) {
		tf_out_err("%s: --keys %s: not a directory\n", cmd, dir);
		return TF_EXIT_BAD_INPUT;
	}
	return TF_EXIT_OK;
}

static int run_check(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "keys", required_argument, NULL, 'k' },
		{ "signatures", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tf_fwdb_opts o = { .sig = defaults.sig, .keys_dir = defaults.keys_dir };
	bool json = false, keys_given = false;
	const char *dir = defaults.db_dir;
	struct tf_fwdb *db;
	struct tf_err err = { 0 };
	size_t i, failed = 0;
	struct tf_cli_opts g = { "touchfw db check", "+h", opts, usage_check };
	int c, r;

	while ((c = tf_cli_getopt(argc, argv, &g)) != -1) {
		switch (c) {
		case TF_CLI_STOP:
			return g.exit;
		case 'd':
			dir = optarg;
			break;
		case 'k':
			o.keys_dir = optarg;
			keys_given = true;
			break;
		case 's':
			if (tf_sig_policy_parse(optarg, &o.sig) < 0) {
				tf_out_err("touchfw db check: --signatures is "
					   "required, optional or off, not "
					   "'%s'\n",
					   optarg);
				return TF_EXIT_USAGE;
			}
			break;
		case 'j':
			json = true;
			break;
		}
	}
	r = tf_cli_no_operands(argc, argv, &g);
	if (r != TF_CLI_CONTINUE)
		return r;
	if (keys_given && (r = tf_db_keys_given("touchfw db check", o.keys_dir)))
		return r;

	r = tf_fwdb_load(dir, &o, &db, &err);
	if (r < 0) {
		tf_out_err("touchfw db check: %s\n", err.msg);
		if (json)
			print_load_failure_json(dir, err.msg);
		return r == -ENOMEM ? TF_EXIT_FAILURE : TF_EXIT_DB_INVALID;
	}
	if (json) {
		failed = check_json(dir, db, o.sig);
		tf_fwdb_free(db);
		return failed ? TF_EXIT_DB_INVALID : TF_EXIT_OK;
	}
	for (i = 0; i < db->n_blobs; i++) {
		const struct tf_blob *b = &db->blobs[i];
		char version[TF_VERSION_STR_MAX + 8];

		if (b->type == TF_BLOB_FIRMWARE)
			snprintf(version, sizeof(version), "%s", b->version);
		else
			snprintf(version, sizeof(version), "for %s", b->for_version);
		tf_err_clear(&err);
		r = tf_fwdb_verify_blob(db, b, &err);
		tf_out("%-24s %-8s %-8s %-14s %s%s\n", b->id, tf_blob_type_name(b->type),
		       b->family, version, r < 0 ? "FAILED: " : "ok", r < 0 ? err.msg : "");
		if (r < 0)
			failed++;
	}
	print_signature(db, o.sig);
	tf_out("%s: %zu blob%s, %zu ok, %zu failed; %s%s\n", dir, db->n_blobs,
	       db->n_blobs == 1 ? "" : "s", db->n_blobs - failed, failed,
	       db->is_signed ? "signed by " : "",
	       db->is_signed				? db->signer
	       : db->sig_state == TF_SIG_STATE_UNSIGNED ? "unsigned"
							: "signature not checked");
	tf_fwdb_free(db);
	return failed ? TF_EXIT_DB_INVALID : TF_EXIT_OK;
}

/* --json of sign and keygen: the files written and the key's id. */
static void print_written(const char *k1, const char *v1, const char *k2, const char *v2,
			  const char *k3, const char *v3)
{
	struct tf_json j;

	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_int(&j, "version", TF_JSON_VERSION);
	tf_json_string(&j, k1, v1);
	tf_json_string(&j, k2, v2);
	tf_json_string(&j, k3, v3);
	tf_json_end_object(&j);
	tf_out_json(&j);
	tf_json_free(&j);
}

static int run_sign(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "key", required_argument, NULL, 'k' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = defaults.db_dir, *key = NULL;
	bool json = false;
	struct tf_err err = { 0 };
	char id[TF_FWDB_KEY_ID_MAX + 1];
	struct tf_cli_opts g = { "touchfw db sign", "+h", opts, usage_sign };
	int c, r;

	while ((c = tf_cli_getopt(argc, argv, &g)) != -1) {
		switch (c) {
		case TF_CLI_STOP:
			return g.exit;
		case 'd':
			dir = optarg;
			break;
		case 'k':
			key = optarg;
			break;
		case 'j':
			json = true;
			break;
		}
	}
	if (!key || optind < argc) {
		tf_out_err("touchfw db sign: %s\n",
			   key ? "unexpected argument" : "--key FILE is required");
		usage_sign(tf_out_err_file());
		return TF_EXIT_USAGE;
	}
	r = tf_fwdb_sign(dir, key, &err);
	if (r < 0) {
		tf_out_err("touchfw db sign: %s\n", err.msg);
		if (r == -EBADMSG)
			return TF_EXIT_DB_INVALID;
		if (r == -EINVAL || r == -EPERM)
			return TF_EXIT_BAD_INPUT;
		return TF_EXIT_FAILURE;
	}
	if (tf_fwdb_key_id_from_path(key, id, sizeof(id)) < 0)
		snprintf(id, sizeof(id), "?");
	if (json) {
		char m[PATH_MAX + 32], sig[PATH_MAX + 32];

		snprintf(m, sizeof(m), "%s/%s", dir, TF_FWDB_MANIFEST);
		snprintf(sig, sizeof(sig), "%s/%s", dir, TF_FWDB_SIGNATURE);
		print_written("manifest", m, "signature", sig, "key_id", id);
	} else {
		tf_out("signed %s/%s with key '%s' (%s/%s)\n", dir, TF_FWDB_MANIFEST, id, dir,
		       TF_FWDB_SIGNATURE);
	}
	return TF_EXIT_OK;
}

static int run_keygen(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL, *name;
	bool json = false;
	struct tf_err err = { 0 };
	struct tf_cli_opts g = { "touchfw db keygen", "h", opts, usage_keygen };
	int c, r;

	while ((c = tf_cli_getopt(argc, argv, &g)) != -1) {
		if (c == TF_CLI_STOP)
			return g.exit;
		if (c == 'o')
			out = optarg;
		if (c == 'j')
			json = true;
	}
	if (!out || optind != argc - 1) {
		tf_out_err("touchfw db keygen: %s\n",
			   !out ? "--out DIR is required" : "give exactly one key NAME");
		usage_keygen(tf_out_err_file());
		return TF_EXIT_USAGE;
	}
	name = argv[optind];
	if (!tf_fwdb_key_id_valid(name)) {
		tf_out_err("touchfw db keygen: '%s' is not a key id (letters, "
			   "digits and . _ -, at most %d characters)\n",
			   name, TF_FWDB_KEY_ID_MAX);
		return TF_EXIT_USAGE;
	}
	r = tf_fwdb_keygen(out, name, &err);
	if (r == -EEXIST) {
		tf_out_err("touchfw db keygen: %s: choose another NAME, or move "
			   "the old pair away\n",
			   err.msg);
		return TF_EXIT_EXISTS;
	}
	if (r < 0) {
		tf_out_err("touchfw db keygen: %s\n", err.msg);
		return r == -EACCES ? TF_EXIT_PERMISSION : TF_EXIT_FAILURE;
	}
	if (json) {
		char sec[PATH_MAX + 32], pub[PATH_MAX + 32];

		snprintf(sec, sizeof(sec), "%s/%s.key", out, name);
		snprintf(pub, sizeof(pub), "%s/%s.pub", out, name);
		print_written("secret_key", sec, "public_key", pub, "key_id", name);
	} else {
		tf_out("wrote %s/%s.key (secret: keep it on the signing machine)\n"
		       "  and %s/%s.pub (install it in %s on devices)\n",
		       out, name, out, name, defaults.keys_dir);
	}
	return TF_EXIT_OK;
}

/* The tools in files of their own, with the defaults they take. */
static int run_tool(int argc, char **argv,
		    int (*tool)(int argc, char **argv, const struct tf_db_defaults *d))
{
	struct tf_db_defaults d = {
		.db_dir = defaults.db_dir,
		.keys_dir = defaults.keys_dir,
		.sig = defaults.sig,
		.settings = &settings,
	};

	return tool(argc, argv, &d);
}

static int run_add(int argc, char **argv)
{
	return run_tool(argc, argv, tf_cmd_db_add);
}

static int run_list(int argc, char **argv)
{
	return run_tool(argc, argv, tf_cmd_db_list);
}

static int run_init(int argc, char **argv)
{
	return run_tool(argc, argv, tf_cmd_db_init);
}

static int run_remove(int argc, char **argv)
{
	return run_tool(argc, argv, tf_cmd_db_remove);
}

int tf_cmd_db(const struct tf_cli *cli)
{
	static const struct {
		const char *name;
		int (*run)(int argc, char **argv);
	} subs[] = {
		{ "check", run_check },	  { "sign", run_sign }, { "keygen", run_keygen },
		{ "add", run_add },	  { "list", run_list }, { "init", run_init },
		{ "remove", run_remove },
	};
	const char *sub;
	size_t i;
	int rc;

	rc = load_defaults(cli);
	if (rc)
		return rc;
	if (cli->argc < 2) {
		tf_out_err("touchfw db: no command given\n");
		usage(tf_out_err_file());
		return TF_EXIT_USAGE;
	}
	sub = cli->argv[1];
	if (!strcmp(sub, "--help") || !strcmp(sub, "-h") || !strcmp(sub, "help")) {
		usage(tf_out_file());
		return TF_EXIT_OK;
	}
	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(sub, subs[i].name))
			return subs[i].run(cli->argc - 1, cli->argv + 1);
	tf_out_err("touchfw db: unknown command '%s'\n", sub);
	usage(tf_out_err_file());
	return TF_EXIT_USAGE;
}
