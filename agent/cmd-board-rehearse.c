// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw board rehearse PROFILE [--db DIR]`: a board profile and a
 * firmware database tried before the hardware exists.  The profile is
 * checked as `board check` does, then the emulator (emuboard, tests/emul)
 * builds a board from it -- each controller node a chip of its family's
 * model, on the adapter, address and lines the profile gives (emuboard
 * --profile; each emulator family maps its own fields) -- and touchfw's
 * normal run (tf_flow_run, what `touchfw run DEVICE` does) updates every
 * controller on it against the database, with settings of its own in a
 * temporary directory.  The report says per controller what was found,
 * chosen, written and verified; the exit code is the first failing
 * controller's.
 *
 * The emulated part: the one the database has for the board (the hardware
 * of its entries of the controller's family naming one of the profile's
 * boards; --hardware NODE=ID instead), running old firmware (each family
 * says which; for a family whose firmware touchfw does not write, the one
 * the database's configuration is for), in application mode, or in its
 * bootloader with --bootloader.
 *
 * The emulator is built with touchfw and not installed, so the command
 * runs from the build tree only (the emulator beside this binary).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "board.h"
#include "cli.h"
#include "cmd-board-priv.h"
#include "cmd.h"
#include "device.h"
#include "exitcode.h"
#include "flow.h"
#include "fs.h"
#include "fwdb.h"
#include "handoff.h"
#include "json-exit.h"
#include "json.h"
#include "log.h"
#include "out.h"
#include "settings.h"
#include "util.h"

extern char **environ;

#define MAX_HW 64
/* emuboard's exit status for a board it can not build (tests/emul/README.md) */
#define EMUBOARD_EXIT_BOARD 3

static void rehearse_usage(FILE *f)
{
	fprintf(f,
		"Usage: touchfw board rehearse [--db DIR] [--keys DIR] [--bootloader]\n"
		"                              [--hardware NODE=ID]... [--keep DIR] [--json]\n"
		"                              PROFILE\n"
		"\n"
		"Rehearse a board profile (.dts or .dtb) and a firmware database on an\n"
		"emulated board made from the profile: each controller becomes an\n"
		"emulated chip of its family on the adapter, address and lines the\n"
		"profile gives, and touchfw's normal run updates it from the database.\n"
		"Prints per controller what was identified, chosen, flashed and\n"
		"verified.\n"
		"\n"
		"  --db DIR           the database (default: db_dir of the settings)\n"
		"  --keys DIR         the keys its signature is checked with (default:\n"
		"                     keys_dir of the settings; signatures as they say)\n"
		"  --bootloader       the chips start in their bootloader (recovery,\n"
		"                     IAP) instead of application mode\n"
		"  --hardware NODE=ID the part at NODE (its path or node name) is ID, as\n"
		"                     the database writes hardware ids (default: the\n"
		"                     hardware of the database's entries for the board)\n"
		"  --keep DIR         keep the emulated board file, settings, state\n"
		"                     and logs in DIR (a new directory)\n"
		"  --json             one JSON document (doc/json.md)\n"
		"\n"
		"The chips run old firmware (for a family whose firmware touchfw does\n"
		"not write, the firmware the database's configuration is for).  The\n"
		"emulator is not installed: run it from the build tree\n"
		"(%s/touchfw).\n"
		"\n"
		"Exit status: the first failing controller's run (touchfw run's\n"
		"codes), %d (%s) for a profile with mistakes, %d (%s) for one\n"
		"the emulator can not model (the node and field are named).\n",
		TF_BUILDDIR, TF_EXIT_PROFILE_INVALID, tf_exit_name(TF_EXIT_PROFILE_INVALID),
		TF_EXIT_UNSUPPORTED, tf_exit_name(TF_EXIT_UNSUPPORTED));
}

/* ------------------------------------------------------------- on the board */

/* The kernel's name for controller @c on this (emulated) machine. */
static void device_of(const struct tf_controller *c, char *dev, size_t size)
{
	int nr = tf_i2c_adapter_find(c->adapter_name, c->adapter_path);

	if (nr < 0) {
		tf_snprintf(dev, size, "-");
		return;
	}
	tf_snprintf(dev, size, "%d-%04x", nr, c->reg);
	tf_acpi_client(nr, dev, size);
}

static const char *or_none(const char *s)
{
	return s && *s ? s : "none";
}

static void report_text(const struct tf_controller *c, const char *dev,
			const struct tf_flow_result *r, int rc)
{
	bool wrote = rc == TF_EXIT_OK && strcmp(r->path, "none") && r->path[0];

	tf_out("%s (%s, %s): %s\n", c->node_path, c->family, dev, tf_exit_name(rc));
	if (r->hw[0] || r->mode_before[0])
		tf_out("  identified: %s %s in %s mode, firmware %s%s%s\n", c->family,
		       or_none(r->hw), or_none(r->mode_before), or_none(r->version_before),
		       r->config_version_before[0] ? ", config " : "",
		       r->config_version_before);
	else
		tf_out("  identified: no\n");
	tf_out("  firmware:   %s%s%s%s\n", or_none(r->planned_fw),
	       r->planned_fw_version[0] ? " (" : "", r->planned_fw_version,
	       r->planned_fw_version[0] ? ")" : "");
	if (r->fw_reason[0])
		tf_out("              %s\n", r->fw_reason);
	tf_out("  config:     %s\n", or_none(r->planned_cfg));
	if (r->cfg_reason[0])
		tf_out("              %s\n", r->cfg_reason);
	if (wrote)
		tf_out("  flashed:    by %s: firmware %s -> %s%s%s%s%s\n", r->path,
		       or_none(r->version_before), or_none(r->version_after),
		       r->config_version_after[0] ? ", config " : "",
		       r->config_version_before[0] ? r->config_version_before : "",
		       r->config_version_after[0] ? " -> " : "", r->config_version_after);
	else
		tf_out("  flashed:    no\n");
	if (rc != TF_EXIT_OK)
		tf_out("  verified:   no\n");
	else if (wrote)
		tf_out("  verified:   yes%s%s\n", r->input[0] ? ", input device " : "",
		       r->input);
	else
		tf_out("  verified:   nothing written\n");
	if (r->message[0])
		tf_out("  result:     %s\n", r->message);
}

static void report_json(struct tf_json *j, const struct tf_controller *c, const char *dev,
			const struct tf_flow_result *r, int rc)
{
	tf_json_begin_object(j, NULL);
	tf_json_string(j, "node", c->node_path);
	tf_json_string(j, "family", c->family);
	tf_json_string(j, "device", strcmp(dev, "-") ? dev : NULL);
	tf_json_int(j, "exit", rc);
	tf_json_string(j, "result", tf_exit_name(rc));
	tf_json_string(j, "hardware", r->hw[0] ? r->hw : NULL);
	tf_json_string(j, "mode_before", r->mode_before[0] ? r->mode_before : NULL);
	tf_json_string(j, "version_before", r->version_before[0] ? r->version_before : NULL);
	tf_json_string(j, "firmware", r->planned_fw[0] ? r->planned_fw : NULL);
	tf_json_string(j, "firmware_reason", r->fw_reason[0] ? r->fw_reason : NULL);
	tf_json_string(j, "config", r->planned_cfg[0] ? r->planned_cfg : NULL);
	tf_json_string(j, "config_reason", r->cfg_reason[0] ? r->cfg_reason : NULL);
	tf_json_string(j, "path", r->path[0] ? r->path : NULL);
	tf_json_string(j, "version_after", r->version_after[0] ? r->version_after : NULL);
	tf_json_string(j, "config_version_after",
		       r->config_version_after[0] ? r->config_version_after : NULL);
	tf_json_string(j, "input", r->input[0] ? r->input : NULL);
	tf_json_string(j, "message", r->message[0] ? r->message : NULL);
	tf_json_end_object(j);
}

/*
 * Inside the emulated board: the profile (the only one in boards_dirs)
 * must match the machine made from it; each controller gets the normal
 * run.  The exit code also goes to @exit_file, so the caller tells it
 * from emuboard's own.
 */
static int on_board(const struct tf_cli *cli, const char *exit_file, bool json)
{
	const char *dirs[TF_MAX_DIRS];
	struct tf_board_identity id;
	struct tf_board_set *set = NULL;
	const struct tf_board_profile *p;
	struct tf_settings s;
	struct tf_err err = { 0 };
	struct tf_json j;
	char code[16];
	int worst = TF_EXIT_OK;
	unsigned i;

	memset(&id, 0, sizeof(id));
	if (tf_settings_load(&s, cli->config, &err) < 0) {
		log_err(NULL, "%s", err.msg);
		worst = TF_EXIT_BAD_INPUT;
		goto out;
	}
	for (i = 0; i < s.n_boards_dirs; i++)
		dirs[i] = s.boards_dirs[i];
	if (tf_board_identify("", &id, &err) < 0 ||
	    tf_board_load(dirs, s.n_boards_dirs, &set, &err) < 0) {
		log_err(NULL, "board profiles: %s", err.msg);
		worst = TF_EXIT_FAILURE;
		goto out;
	}
	p = tf_board_match(set, &id, NULL);
	if (!p) {
		log_err(NULL,
			"the emulated board is not matched by the profile it was made from");
		worst = TF_EXIT_NO_PROFILE;
		goto out;
	}
	if (json) {
		tf_json_init(&j);
		tf_json_begin_object(&j, NULL);
		tf_json_int(&j, "version", TF_JSON_VERSION);
		tf_json_string(&j, "profile", p->name);
		tf_json_begin_array(&j, "controllers");
	}
	for (size_t k = 0; k < p->n_ctrl; k++) {
		const struct tf_controller *c = &p->ctrl[k];
		struct tf_flow_opts o = { 0 };
		struct tf_flow_result r;
		char dev[64];
		int rc;

		memset(&r, 0, sizeof(r));
		device_of(c, dev, sizeof(dev));
		if (!strcmp(dev, "-")) {
			rc = TF_EXIT_NO_DEVICE;
			tf_snprintf(r.message, sizeof(r.message), "adapter '%s' not found",
				    c->adapter_name[0] ? c->adapter_name : c->adapter_path);
		} else {
			rc = tf_flow_run(&s, dev, &o, &r);
		}
		if (json)
			report_json(&j, c, dev, &r, rc);
		else
			report_text(c, dev, &r, rc);
		tf_out_flush();
		if (rc && !worst)
			worst = rc;
	}
	if (json) {
		tf_json_end_array(&j);
		tf_json_int(&j, "exit", worst);
		tf_json_end_object(&j);
		tf_out_json(&j);
		tf_json_free(&j);
	} else {
		tf_out("rehearsal of %s: %s\n", p->name, tf_exit_name(worst));
	}
out:
	tf_board_set_free(set);
	tf_board_identity_free(&id);
	tf_out_flush();
	snprintf(code, sizeof(code), "%d\n", worst);
	if (exit_file) {
		FILE *f = fopen(exit_file, "w");

		if (f) {
			fputs(code, f);
			fclose(f);
		}
	}
	return worst;
}

/* ------------------------------------------------------------- outside */

/* The part the database has for @c on profile @p: the hardware of its
 * first firmware entry of @c's family naming one of the board's ids,
 * else of its first such configuration, whose for_version is then the
 * firmware the part runs (*@fw). */
static void db_part(const struct tf_fwdb *db, const struct tf_board_profile *p,
		    const struct tf_controller *c, const char **hw, const char **fw)
{
	const struct tf_blob *cfg = NULL;

	*hw = *fw = NULL;
	for (size_t i = 0; db && i < db->n_blobs; i++) {
		const struct tf_blob *b = &db->blobs[i];

		if (strcmp(b->family, c->family) || !b->n_hardware ||
		    !tf_blob_fits_board(b, (const char *const *)p->board_ids, p->n_board_ids))
			continue;
		if (b->type == TF_BLOB_FIRMWARE) {
			*hw = b->hardware[0];
			return;
		}
		if (!cfg)
			cfg = b;
	}
	if (cfg) {
		*hw = cfg->hardware[0];
		*fw = cfg->for_version;
	}
}

/*
 * Run @argv; its standard output to @out_path (NULL: ours), its standard
 * error into @errbuf (NULL: ours).  The exit status, 128 + a signal, or
 * -1 when it can not be run.
 */
static int run(char *const argv[], const char *out_path, char *errbuf, size_t errsz)
{
	posix_spawn_file_actions_t fa;
	int pfd[2] = { -1, -1 }, status, r;
	size_t len = 0;
	pid_t pid;

	if (errbuf && pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	if (out_path)
		posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, out_path,
						 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (errbuf)
		posix_spawn_file_actions_adddup2(&fa, pfd[1], STDERR_FILENO);
	r = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (errbuf)
		close(pfd[1]);
	if (r) {
		if (errbuf)
			close(pfd[0]);
		errno = r;
		return -1;
	}
	if (errbuf) {
		for (;;) {
			char sink[512];
			ssize_t n = len + 1 < errsz
					    ? read(pfd[0], errbuf + len, errsz - 1 - len)
					    : read(pfd[0], sink, sizeof(sink));

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			if (len + 1 < errsz)
				len += (size_t)n;
		}
		errbuf[len] = '\0';
		close(pfd[0]);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static int write_text(const char *dir, const char *name, const char *text)
{
	struct tf_err err = { 0 };

	if (tf_replace_file(dir, name, text, strlen(text), 0644, &err) < 0) {
		tf_out_err("touchfw: %s\n", err.msg);
		return -1;
	}
	return 0;
}

/* Make the work directory's parts: 0 or -1 (said). */
static int make_dirs(const char *work)
{
	static const char *const sub[] = { "boards", "state", "persist", "firmware" };
	char path[4200];

	for (size_t i = 0; i < TF_ARRAY_SIZE(sub); i++) {
		snprintf(path, sizeof(path), "%s/%s", work, sub[i]);
		if (mkdir(path, 0700) < 0) {
			tf_out_err("touchfw: %s: %s\n", path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* The profile's base name without .dts/.dtb, plus ".dtb": the board id
 * a profile without board-ids has. */
static void dtb_name(const char *file, char *out, size_t size)
{
	const char *base = strrchr(file, '/');
	size_t n;

	base = base ? base + 1 : file;
	n = strlen(base);
	if (n > 4 && (!strcmp(base + n - 4, ".dts") || !strcmp(base + n - 4, ".dtb")))
		n -= 4;
	snprintf(out, size, "%.*s.dtb", (int)n, base);
}

static struct tf_fwdb *read_db(const char *dir)
{
	_cleanup_free_ char *buf = NULL;
	struct tf_fwdb *db = NULL;
	struct tf_err err = { 0 };
	char path[4200];
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, TF_FWDB_MANIFEST);
	if (tf_read_file(path, TF_FWDB_MAX_MANIFEST, &buf, &len) < 0 ||
	    tf_fwdb_parse_manifest(buf, len, path, &db, &err) < 0)
		return NULL; /* the run says what is wrong with it */
	return db;
}

/*
 * @path as an absolute path in @out: the run on the board reads its
 * settings, which take absolute paths only, and runs elsewhere, so a
 * relative --db, --keys, --keep or TMPDIR (as the README shows them) is
 * made absolute here: resolved when it exists (the emulated board's
 * paths are compared canonical), else against the working directory.
 * 0, or -1 (said).
 */
static int absolute(const char *opt, const char *path, char *out, size_t size)
{
	char real[PATH_MAX], cwd[PATH_MAX];

	if (realpath(path, real)) {
		if (!tf_snprintf(out, size, "%s", real))
			return 0;
		errno = ENAMETOOLONG;
	} else if (path[0] == '/') {
		if (!tf_snprintf(out, size, "%s", path))
			return 0;
		errno = ENAMETOOLONG;
	} else if (getcwd(cwd, sizeof(cwd))) {
		if (!tf_snprintf(out, size, "%s/%s", cwd, path))
			return 0;
		errno = ENAMETOOLONG;
	}
	tf_out_err("touchfw: board rehearse: %s %s: %s\n", opt, path, strerror(errno));
	return -1;
}

static int rehearse(const struct tf_cli *cli, const char *file, const char *db_dir,
		    const char *keys_dir, bool bootloader, const char *const *hw_opt,
		    size_t n_hw_opt, const char *keep, bool json)
{
	const char *emulator = TF_BUILDDIR "/emuboard";
	char work[4096], boards[4200], dtb[4400], name[300], board_file[4200], conf[4200];
	char exit_file[4200], errbuf[2048], *args[16 + 4 * MAX_HW];
	char hw_args[MAX_HW][200], fw_args[MAX_HW][200], text[8192];
	char db_abs[4096], keys_abs[4096], tmpl[4000];
	const char *tmp = getenv("TMPDIR");
	struct tf_board_profile *p = NULL;
	struct tf_board_report rep;
	struct tf_fwdb *db = NULL;
	struct tf_settings s;
	struct tf_err err = { 0 };
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, n = 0, k;
	int rc, st, saved_out = -1;
	FILE *f;

	if (!tf_running_from_build_dir()) {
		tf_out_err("touchfw: board rehearse: the emulator it runs on is built with "
			   "touchfw and not installed; run %s/touchfw board rehearse from "
			   "the build tree\n",
			   TF_BUILDDIR);
		return TF_EXIT_UNSUPPORTED;
	}
	if (access(emulator, X_OK) < 0) {
		tf_out_err("touchfw: board rehearse: %s: %s (make emul builds it)\n", emulator,
			   strerror(errno));
		return TF_EXIT_UNSUPPORTED;
	}
	if (tf_settings_load(&s, cli->config, &err) < 0) {
		tf_out_err("touchfw: %s\n", err.msg);
		return TF_EXIT_BAD_INPUT;
	}
	if (absolute("--db", db_dir ? db_dir : s.db_dir, db_abs, sizeof(db_abs)) < 0 ||
	    absolute("--keys", keys_dir ? keys_dir : s.keys_dir, keys_abs, sizeof(keys_abs)) <
		    0)
		return TF_EXIT_BAD_INPUT;
	if (!db_dir)
		db_dir = s.db_dir;
	/* the temporary directory, ours and the emulator's, absolute */
	if (absolute("TMPDIR", tmp && *tmp ? tmp : "/tmp", tmpl, sizeof(tmpl)) < 0)
		return TF_EXIT_FAILURE;
	if (tmp && *tmp && strcmp(tmp, tmpl) && setenv("TMPDIR", tmpl, 1) < 0) {
		tf_out_err("touchfw: TMPDIR: %s\n", strerror(errno));
		return TF_EXIT_FAILURE;
	}
	if (keep) {
		if (mkdir(keep, 0700) < 0) {
			tf_out_err("touchfw: --keep %s: %s\n", keep, strerror(errno));
			return errno == EEXIST ? TF_EXIT_EXISTS : TF_EXIT_BAD_INPUT;
		}
		if (absolute("--keep", keep, work, sizeof(work)) < 0)
			return TF_EXIT_BAD_INPUT;
	} else if (tf_snprintf(work, sizeof(work), "%s/touchfw-rehearse-XXXXXX", tmpl) ||
		   !mkdtemp(work)) {
		tf_out_err("touchfw: can not make a temporary directory: %s\n",
			   strerror(errno));
		return TF_EXIT_FAILURE;
	}
	rc = TF_EXIT_FAILURE;
	if (make_dirs(work) < 0)
		goto out;
	snprintf(boards, sizeof(boards), "%s/boards", work);
	dtb_name(file, name, sizeof(name));
	if (tf_snprintf(dtb, sizeof(dtb), "%s/%s", boards, name)) {
		tf_out_err("touchfw: %s: name too long\n", file);
		goto out;
	}
	if (json) {
		/* board check's findings are text: to stderr, beside the log,
		 * and the error document (json-exit.c) on stdout */
		tf_out_flush();
		saved_out = dup(STDOUT_FILENO);
		dup2(STDERR_FILENO, STDOUT_FILENO);
	}
	rc = tf_board_check_into(file, boards, name);
	if (saved_out >= 0) {
		tf_out_flush();
		dup2(saved_out, STDOUT_FILENO);
		close(saved_out);
		if (rc) {
			char msg[4200], *doc;

			snprintf(msg, sizeof(msg), "%s: board check: %s", file,
				 tf_exit_name(rc));
			doc = tf_json_error_doc(rc, msg);
			if (doc)
				tf_out("%s\n", doc);
			free(doc);
		}
	}
	if (rc)
		goto out;
	rc = TF_EXIT_FAILURE;
	tf_board_report_init(&rep);
	if (tf_read_file(dtb, TF_BOARD_MAX_DTB_SIZE, &buf, &len) < 0 ||
	    tf_board_parse(buf, len, file, &p, &rep) < 0) {
		tf_board_report_free(&rep);
		tf_out_err("touchfw: %s: can not read it back\n", dtb);
		goto out;
	}
	tf_board_report_free(&rep);
	db = read_db(db_abs);

	args[n++] = (char *)emulator;
	args[n++] = (char *)"--profile";
	args[n++] = dtb;
	args[n++] = (char *)"--firmware-dir";
	snprintf(conf, sizeof(conf), "%s/firmware", work);
	args[n++] = conf;
	if (bootloader)
		args[n++] = (char *)"--bootloader";
	for (k = 0; k < n_hw_opt; k++) {
		args[n++] = (char *)"--hardware";
		args[n++] = (char *)hw_opt[k];
	}
	for (k = 0; k < p->n_ctrl && k < MAX_HW; k++) {
		const struct tf_controller *c = &p->ctrl[k];
		const char *node = strrchr(c->node_path, '/') + 1, *hw, *fw;
		bool given = false;

		for (size_t i = 0; i < n_hw_opt; i++) {
			size_t l = strcspn(hw_opt[i], "=");

			given |= (strlen(node) == l && !strncmp(hw_opt[i], node, l)) ||
				 (strlen(c->node_path) == l &&
				  !strncmp(hw_opt[i], c->node_path, l));
		}
		db_part(db, p, c, &hw, &fw);
		if (hw && !given) {
			snprintf(hw_args[k], sizeof(hw_args[k]), "%s=%s", c->node_path, hw);
			args[n++] = (char *)"--hardware";
			args[n++] = hw_args[k];
		}
		if (fw && !given) {
			snprintf(fw_args[k], sizeof(fw_args[k]), "%s=%s", c->node_path, fw);
			args[n++] = (char *)"--fw-version";
			args[n++] = fw_args[k];
		}
	}
	args[n++] = (char *)"--print-board";
	args[n] = NULL;
	snprintf(board_file, sizeof(board_file), "%s/board.board", work);
	st = run(args, board_file, errbuf, sizeof(errbuf));
	if (st < 0) {
		tf_out_err("touchfw: can not run %s: %s\n", emulator, strerror(errno));
		goto out;
	}
	if (st) {
		/* "PROGRAM: DTB: NODE: FIELD: ..." about the user's file */
		const char *msg = errbuf;
		char pre[4600];

		snprintf(pre, sizeof(pre), "%s: %s: ", strrchr(emulator, '/') + 1, dtb);
		if (!strncmp(msg, pre, strlen(pre)))
			msg += strlen(pre);
		tf_out_err("touchfw: %s: %s", file, msg);
		if (st == EMUBOARD_EXIT_BOARD)
			tf_out_err("touchfw: %s: the emulator can not model this profile\n",
				   file);
		rc = st == EMUBOARD_EXIT_BOARD ? TF_EXIT_UNSUPPORTED : TF_EXIT_FAILURE;
		goto out;
	}

	/* the settings of the run on the board: the user's policy and keys,
	 * everything else in the work directory */
	if (tf_snprintf(
		    text, sizeof(text),
		    "# touchfw board rehearse: the settings of the run on the emulated board\n"
		    "[touchfw]\nhandoff = fork\nsignatures = %s\n"
		    "[paths]\nstate_dir = %s/state\npersist_dir = %s/persist\ndb_dir = %s\n"
		    "keys_dir = %s\nboards_dirs = %s\nfirmware_dirs = %s/firmware\n"
		    "cmdline = %s/cmdline\n",
		    tf_sig_policy_name(s.signatures), work, work, db_abs, keys_abs, boards,
		    work, work)) {
		tf_out_err("touchfw: %s: paths too long\n", work);
		goto out;
	}
	if (write_text(work, "touchfw.conf", text) < 0 ||
	    write_text(work, "cmdline", "ro\n") < 0)
		goto out;
	snprintf(conf, sizeof(conf), "%s/touchfw.conf", work);
	snprintf(exit_file, sizeof(exit_file), "%s/exit", work);
	if (!json)
		tf_out("rehearsing %s on an emulated board (database %s)\n", file, db_dir);
	tf_out_flush();
	n = 0;
	args[n++] = (char *)emulator;
	args[n++] = board_file;
	args[n++] = (char *)"--";
	args[n++] = (char *)TF_BUILDDIR "/touchfw";
	args[n++] = (char *)"--config";
	args[n++] = conf;
	args[n++] = (char *)"board";
	args[n++] = (char *)"rehearse";
	args[n++] = (char *)"--on-board";
	args[n++] = exit_file;
	if (json)
		args[n++] = (char *)"--json";
	args[n] = NULL;
	st = run(args, NULL, NULL, 0);
	f = fopen(exit_file, "r");
	if (f && fscanf(f, "%d", &rc) == 1) {
		/* the run's own code */
	} else {
		tf_out_err("touchfw: the emulated board ended (status %d) before the run did\n",
			   st);
		rc = TF_EXIT_FAILURE;
	}
	if (f)
		fclose(f);
	if (keep && !json)
		tf_out("kept: %s (board.board, touchfw.conf, state/)\n", keep);
out:
	tf_board_free(p);
	tf_fwdb_free(db);
	if (!keep)
		nftw(work, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return rc;
}

int tf_cmd_board_rehearse(int argc, char **argv, const struct tf_cli *cli)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "keys", required_argument, NULL, 'K' },
		{ "bootloader", no_argument, NULL, 'b' },
		{ "hardware", required_argument, NULL, 'H' },
		{ "keep", required_argument, NULL, 'k' },
		{ "json", no_argument, NULL, 'j' },
		{ "on-board", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tf_cli_opts g = { "touchfw: board rehearse", "h", opts, rehearse_usage };
	const char *db = NULL, *keys = NULL, *keep = NULL, *on = NULL, *hw[MAX_HW];
	bool bootloader = false, json = false;
	size_t n_hw = 0;
	int c;

	while ((c = tf_cli_getopt(argc, argv, &g)) != -1) {
		switch (c) {
		case TF_CLI_STOP:
			return g.exit;
		case 'd':
			db = optarg;
			break;
		case 'K':
			keys = optarg;
			if (tf_db_keys_given("board rehearse", keys))
				return TF_EXIT_BAD_INPUT;
			break;
		case 'b':
			bootloader = true;
			break;
		case 'H':
			if (!strchr(optarg, '=') || n_hw == MAX_HW) {
				tf_out_err(
					"touchfw: board rehearse: --hardware %s: not NODE=ID\n",
					optarg);
				return TF_EXIT_USAGE;
			}
			hw[n_hw++] = optarg;
			break;
		case 'k':
			keep = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'O':
			on = optarg;
			break;
		}
	}
	if (on)
		return on_board(cli, on, json);
	if (optind + 1 != argc) {
		tf_out_err("touchfw: board rehearse: give one PROFILE\n");
		rehearse_usage(tf_out_err_file());
		return TF_EXIT_USAGE;
	}
	return rehearse(cli, argv[optind], db, keys, bootloader, hw, n_hw, keep, json);
}
