// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw board check FILE...` and `touchfw board identify`.  check is for
 * OEMs writing a profile: it compiles .dts sources with dtc (passing on
 * dtc's own messages), then prints every mistake as "FILE: NODE: message"
 * on stdout, so the output reads like a compiler's and can be grepped.
 * identify is for bring-up: what this machine looks like to touchfw, which
 * profiles were found, overridden or rejected, and which one matches.
 */
#include "cmd-board.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "board.h"
#include "exitcode.h"
#include "json.h"
#include "out.h"
#include "settings.h"
#include "family/family.h"
#include "fs.h"
#include "util.h"

extern char **environ;

/* dtc's messages kept per file; a sane profile produces a few lines. */
#define DTC_OUTPUT_MAX (64 * 1024)

/*
 * `board check --json`: the same findings as one document (doc/json.md);
 * each place that prints a mistake adds it to the current file's
 * "mistakes" instead.
 */
static struct tf_json *check_json;
static char check_model[128];

static void json_mistake(const char *node, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void json_mistake(const char *node, const char *fmt, ...)
{
	char msg[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tf_json_begin_object(check_json, NULL);
	tf_json_string(check_json, "node", node);
	tf_json_string(check_json, "message", msg);
	tf_json_end_object(check_json);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: touchfw board check [--json] FILE...\n"
		"       touchfw board identify [--boards DIR]... [--sysroot DIR] [--live] [--json]\n"
		"       touchfw board init DEVICE [--out FILE [--json]]\n"
		"       touchfw board rehearse [--db DIR] [--bootloader] PROFILE\n"
		"\n"
		"Board profiles tell touchfw which touch controllers a board has,\n"
		"where they are and who powers them (see boards/README.md).\n"
		"\n"
		"  check     validate profiles (.dts, compiled with dtc, or .dtb)\n"
		"            and explain every mistake\n"
		"  identify  show this machine's identity and the profile that\n"
		"            matches it; --live: check its controllers against\n"
		"            the machine\n"
		"  init      write a profile skeleton from a bound controller\n"
		"  rehearse  run a profile and a firmware database on an emulated\n"
		"            board made from the profile (from the build tree)\n"
		"\n"
		"'touchfw board COMMAND --help' describes each.\n");
}

static void check_usage(FILE *f)
{
	fprintf(f,
		"Usage: touchfw board check [--json] FILE...\n"
		"\n"
		"Validate board profiles.  A FILE ending in .dts is compiled with\n"
		"dtc first ($DTC, default dtc) and dtc's messages are shown; any\n"
		"other FILE is read as a compiled blob.  Every mistake is printed\n"
		"as 'FILE: NODE: message'; --json: one document instead\n"
		"(doc/json.md).\n"
		"\n"
		"Exit status: %d (%s) if all are valid, %d (%s) if any has\n"
		"mistakes, %d (%s) if a file can not be read, %d (%s) if dtc can\n"
		"not be run.\n",
		TF_EXIT_OK, tf_exit_name(TF_EXIT_OK), TF_EXIT_PROFILE_INVALID,
		tf_exit_name(TF_EXIT_PROFILE_INVALID), TF_EXIT_BAD_INPUT,
		tf_exit_name(TF_EXIT_BAD_INPUT), TF_EXIT_FAILURE,
		tf_exit_name(TF_EXIT_FAILURE));
}

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

/* ------------------------------------------------------------- output */

static void print_gpio(const char *what, const struct tf_gpio_spec *g)
{
	if (g->name[0])
		tf_out(", %s \"%s\"", what, g->name);
	else
		tf_out(", %s %s:%d", what, g->chip, g->line);
	if (g->active_low)
		tf_out(" active-low");
}

static void print_controller(const struct tf_controller *c)
{
	tf_out("  %s: %s on %s ", c->node_path, c->family, c->bus);
	if (c->adapter_name[0]) {
		char shown[4 * sizeof(c->adapter_name)];

		tf_out("adapter \"%s\"",
		       tf_escape_ex(c->adapter_name, true, shown, sizeof(shown)));
	} else
		tf_out("adapter %s", c->adapter_path);
	tf_out(" %s 0x%02x", strcmp(c->bus, "spi") ? "at" : "chip select", c->reg);
	if (c->has_bootloader_reg)
		tf_out(" (bootloader 0x%02x)", c->bootloader_reg);
	if (c->driver[0])
		tf_out(", driver %s", c->driver);
	if (c->has_reset)
		print_gpio("reset", &c->reset);
	if (c->has_irq)
		print_gpio("irq", &c->irq);
	tf_out(", power %s", tf_power_name(c->power));
	if (c->firmware_pin[0])
		tf_out(", firmware-pin %s", c->firmware_pin);
	if (c->config_pin[0])
		tf_out(", config-pin %s", c->config_pin);
	if (c->input_timeout_ms)
		tf_out(", input timeout %u ms", c->input_timeout_ms);
	if (c->flash_timeout_ms)
		tf_out(", flash timeout %u ms", c->flash_timeout_ms);
	if (c->config_name[0])
		tf_out(", config-name %s", c->config_name);
	if (c->swapped_x_y)
		tf_out(", axes swapped");
	if (c->bus_recovery)
		tf_out(", bus recovery allowed");
	tf_out("\n");
}

static void print_profile(const struct tf_board_profile *p)
{
	size_t i, j;

	if (p->n_compatible) {
		tf_out("  matches board-compatible");
		for (i = 0; i < p->n_compatible; i++)
			tf_out("%s \"%s\"", i ? "," : "", p->compatible[i]);
		tf_out("\n");
	} else {
		tf_out("  matches dmi-match");
		for (i = 0; i < p->n_dmi; i++) {
			tf_out("%s %s", i ? "," : "", tf_dmi_key_property(p->dmi[i].key));
			for (j = 0; j < p->dmi[i].n_patterns; j++)
				tf_out("%s\"%s\"", j ? "|" : " ", p->dmi[i].patterns[j]);
		}
		tf_out("\n");
	}
	tf_out("  board-ids");
	for (i = 0; i < p->n_board_ids; i++)
		tf_out("%s %s", i ? "," : "", p->board_ids[i]);
	tf_out("\n");
	for (i = 0; i < p->n_ctrl; i++)
		print_controller(&p->ctrl[i]);
}

static void print_report(const char *file, const struct tf_board_report *rep)
{
	size_t i;

	if (check_json) {
		for (i = 0; i < rep->n; i++)
			json_mistake(rep->issues[i].node, "%s", rep->issues[i].msg);
		if (rep->n_dropped)
			json_mistake("", "... and %zu more mistakes not shown", rep->n_dropped);
		return;
	}
	for (i = 0; i < rep->n; i++) {
		if (rep->issues[i].node[0])
			tf_out("%s: %s: %s\n", file, rep->issues[i].node, rep->issues[i].msg);
		else
			tf_out("%s: %s\n", file, rep->issues[i].msg);
	}
	if (rep->n_dropped)
		tf_out("%s: ... and %zu more mistakes not shown\n", file, rep->n_dropped);
}

/* ------------------------------------------------------------- check */

enum check_result {
	CHECK_OK,
	CHECK_INVALID,	  /* the profile has mistakes (dtc's included) */
	CHECK_UNREADABLE, /* the file can not be read */
	CHECK_FAILURE,	  /* dtc can not be run, out of memory, ... */
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/*
 * Print what dtc said, each line under the file it is about.  Some of its
 * warnings name the output file: show the source instead of our temporary.
 */
static void print_dtc_output(const char *file, const char *tmp_dtb, char *out, size_t len)
{
	size_t tmp_len = strlen(tmp_dtb);
	char *line = out, *nl, *s, *hit;

	out[len] = '\0';
	while (*line) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (*line && check_json) {
			/* The temporary's name would mean nothing to a reader. */
			json_mistake("dtc", "%s", line);
		} else if (*line) {
			tf_out("%s: dtc: ", file);
			for (s = line; (hit = strstr(s, tmp_dtb)); s = hit + tmp_len)
				tf_out("%.*s%s", (int)(hit - s), s, file);
			tf_out("%s\n", s);
		}
		if (!nl)
			break;
		line = nl + 1;
	}
}

/*
 * Compile @src into @dtb with dtc.  dtc's stderr is collected and printed
 * after it exits (warnings too).  Returns CHECK_OK, CHECK_INVALID when dtc
 * failed, or CHECK_FAILURE when it could not run.
 */
static enum check_result compile_dts(const char *src, const char *dtb)
{
	const char *dtc = getenv("DTC");
	posix_spawn_file_actions_t fa;
	char *argv[9];
	char *out;
	size_t len = 0;
	int pipefd[2], status, r;
	pid_t pid;

	if (!dtc || !*dtc)
		dtc = "dtc";
	out = malloc(DTC_OUTPUT_MAX + 1);
	if (!out || pipe2(pipefd, O_CLOEXEC) < 0) {
		tf_out_err("touchfw: %s: %s\n", src, strerror(errno));
		free(out);
		return CHECK_FAILURE;
	}
	argv[0] = (char *)dtc;
	argv[1] = (char *)"-I";
	argv[2] = (char *)"dts";
	argv[3] = (char *)"-O";
	argv[4] = (char *)"dtb";
	argv[5] = (char *)"-o";
	argv[6] = (char *)dtb;
	argv[7] = (char *)src;
	argv[8] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDERR_FILENO);
	r = posix_spawnp(&pid, dtc, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (r) {
		close(pipefd[0]);
		free(out);
		tf_out_err("touchfw: %s: can not run %s: %s (install "
			   "device-tree-compiler, or give a compiled .dtb)\n",
			   src, dtc, strerror(r));
		return CHECK_FAILURE;
	}
	for (;;) {
		char sink[4096];
		ssize_t n;

		if (len < DTC_OUTPUT_MAX)
			n = read(pipefd[0], out + len, DTC_OUTPUT_MAX - len);
		else
			n = read(pipefd[0], sink, sizeof(sink));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (len < DTC_OUTPUT_MAX)
			len += (size_t)n;
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	print_dtc_output(src, dtb, out, len);
	free(out);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return CHECK_OK;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		tf_out_err("touchfw: %s: can not run %s\n", src, dtc);
		return CHECK_FAILURE;
	}
	if (!WIFEXITED(status) && check_json)
		json_mistake("dtc", "killed by signal %d",
			     WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	else if (!WIFEXITED(status))
		tf_out("%s: dtc: killed by signal %d\n", src,
		       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return CHECK_INVALID;
}

static enum check_result check_blob(const char *file, const char *blob_path, bool quiet)
{
	struct tf_board_profile *p = NULL;
	struct tf_board_report rep;
	struct tf_err ferr = { 0 };
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	int r;

	/* a regular file only: a FIFO must not hang the check */
	r = tf_read_input(blob_path, TF_BOARD_MAX_DTB_SIZE, &buf, &len, &ferr);
	if (r == -EFBIG && check_json) {
		json_mistake("", "larger than %u bytes; not a board profile",
			     TF_BOARD_MAX_DTB_SIZE);
		return CHECK_INVALID;
	}
	if (r == -EFBIG) {
		tf_out("%s: larger than %u bytes; not a board profile\n", file,
		       TF_BOARD_MAX_DTB_SIZE);
		return CHECK_INVALID;
	}
	if (r) {
		/* ferr names the file; @file's own name when it is the input */
		if (!strcmp(file, blob_path))
			tf_out_err("touchfw: %s\n", ferr.msg);
		else
			tf_out_err("touchfw: %s: %s\n", file, strerror(-r));
		return CHECK_UNREADABLE;
	}
	tf_board_report_init(&rep);
	r = tf_board_parse(buf, len, file, &p, &rep);
	if (r == -EINVAL) {
		print_report(file, &rep);
		tf_board_report_free(&rep);
		return CHECK_INVALID;
	}
	tf_board_report_free(&rep);
	if (r) {
		tf_out_err("touchfw: %s: %s\n", file, strerror(-r));
		return CHECK_FAILURE;
	}
	/* The families' own rules for their controllers. */
	{
		bool bad = false;
		size_t i;

		for (i = 0; i < p->n_ctrl; i++) {
			const struct tf_family *f = tf_family_by_name(p->ctrl[i].family);
			char msg[300];

			if (f &&
			    tf_family_check_controller(f, &p->ctrl[i], msg, sizeof(msg)) < 0) {
				if (check_json)
					json_mistake(p->ctrl[i].node_path, "%s", msg);
				else
					tf_out("%s: %s: %s\n", file, p->ctrl[i].node_path, msg);
				bad = true;
			}
		}
		if (bad) {
			tf_board_free(p);
			return CHECK_INVALID;
		}
	}
	tf_snprintf(check_model, sizeof(check_model), "%s", p->model);
	/* Valid, but matching a firmware template's placeholder ("Default
	 * string") it matches every machine built from that template. */
	for (size_t i = 0; i < p->n_dmi; i++)
		for (size_t k = 0; k < p->dmi[i].n_patterns; k++)
			if (tf_dmi_placeholder(p->dmi[i].patterns[k])) {
				char shown[1100];

				tf_out_err("%s: /dmi-match: warning: %s \"%s\" is a firmware "
					   "placeholder that every machine built from the same "
					   "template has: this profile matches them all; match "
					   "on keys that name this machine\n",
					   file, tf_dmi_key_property(p->dmi[i].key),
					   tf_escape_ex(p->dmi[i].patterns[k], true, shown,
							sizeof(shown)));
			}
	if (!quiet && !check_json) {
		tf_out("%s: ok: \"%s\"\n", file, p->model);
		print_profile(p);
	}
	tf_board_free(p);
	return CHECK_OK;
}

static enum check_result check_source(const char *file, bool quiet)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], dtb[4096 + 16];
	struct tf_err err = { 0 };
	enum check_result res;
	int fd;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (tf_snprintf(dir, sizeof(dir), "%s/touchfw-board-XXXXXX", tmp) || !mkdtemp(dir)) {
		tf_out_err("touchfw: %s: can not make a temporary directory in "
			   "%s: %s\n",
			   file, tmp, strerror(errno));
		return CHECK_FAILURE;
	}
	snprintf(dtb, sizeof(dtb), "%s/profile.dtb", dir);
	/* readable and a regular file (dtc would wait on a FIFO forever) */
	fd = tf_open_input(file, &err);
	if (fd < 0) {
		tf_out_err("touchfw: %s\n", err.msg);
		res = CHECK_UNREADABLE;
	} else {
		close(fd);
		res = compile_dts(file, dtb);
		if (res == CHECK_OK)
			res = check_blob(file, dtb, quiet);
	}
	unlink(dtb);
	rmdir(dir);
	return res;
}

int tf_board_check_into(const char *file, const char *dir, const char *name)
{
	char dtb[4096 + 256];
	enum check_result res;
	_cleanup_free_ char *buf = NULL;
	struct tf_err err = { 0 };
	size_t len = 0;
	int fd;

	check_json = NULL;
	if (tf_snprintf(dtb, sizeof(dtb), "%s/%s", dir, name)) {
		tf_out_err("touchfw: %s/%s: name too long\n", dir, name);
		return TF_EXIT_FAILURE;
	}
	if (ends_with(file, ".dts")) {
		fd = tf_open_input(file, &err);
		if (fd < 0) {
			tf_out_err("touchfw: %s\n", err.msg);
			return TF_EXIT_BAD_INPUT;
		}
		close(fd);
		res = compile_dts(file, dtb);
		if (res == CHECK_OK)
			res = check_blob(file, dtb, true);
	} else {
		res = check_blob(file, file, true);
		if (res == CHECK_OK &&
		    (tf_read_input(file, TF_BOARD_MAX_DTB_SIZE, &buf, &len, &err) < 0 ||
		     tf_replace_file(dir, name, buf, len, 0644, &err) < 0)) {
			tf_out_err("touchfw: %s\n", err.msg);
			res = CHECK_FAILURE;
		}
	}
	switch (res) {
	case CHECK_OK:
		return TF_EXIT_OK;
	case CHECK_INVALID:
		return TF_EXIT_PROFILE_INVALID;
	case CHECK_UNREADABLE:
		return TF_EXIT_BAD_INPUT;
	default:
		return TF_EXIT_FAILURE;
	}
}

static int cmd_check(int argc, char **argv, const struct tf_cli *cli)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const result_name[] = { "ok", "invalid", "unreadable", "failed" };
	size_t n_files = 0, n_invalid = 0, n_unreadable = 0, n_failed = 0;
	bool quiet = cli->verbosity < 0;
	struct tf_cli_opts g = { "touchfw: board check", "h", opts, check_usage };
	struct tf_json j;
	int c, i;

	check_json = NULL;
	while ((c = tf_cli_getopt(argc, argv, &g)) != -1) {
		if (c == TF_CLI_STOP)
			return g.exit;
		if (c == 'j')
			check_json = &j;
	}
	if (optind >= argc) {
		tf_out_err("touchfw: board check: no FILE given\n");
		check_usage(tf_out_err_file());
		return TF_EXIT_USAGE;
	}
	if (check_json) {
		tf_json_init(&j);
		tf_json_begin_object(&j, NULL);
		tf_json_int(&j, "version", TF_JSON_VERSION);
		tf_json_begin_array(&j, "files");
	}
	for (i = optind; i < argc; i++) {
		enum check_result res;

		check_model[0] = '\0';
		if (check_json) {
			tf_json_begin_object(&j, NULL);
			tf_json_string(&j, "file", argv[i]);
			tf_json_begin_array(&j, "mistakes");
		}
		res = ends_with(argv[i], ".dts") ? check_source(argv[i], quiet)
						 : check_blob(argv[i], argv[i], quiet);
		if (check_json) {
			tf_json_end_array(&j);
			tf_json_string(&j, "result", result_name[res]);
			tf_json_string(&j, "model", res == CHECK_OK ? check_model : NULL);
			tf_json_end_object(&j);
		}
		n_files++;
		if (res == CHECK_INVALID)
			n_invalid++;
		else if (res == CHECK_UNREADABLE)
			n_unreadable++;
		else if (res == CHECK_FAILURE)
			n_failed++;
	}
	if (check_json) {
		const char *text;

		tf_json_end_array(&j);
		tf_json_uint(&j, "valid", n_files - n_invalid - n_unreadable - n_failed);
		tf_json_uint(&j, "invalid", n_invalid);
		tf_json_uint(&j, "unreadable", n_unreadable);
		tf_json_uint(&j, "failed", n_failed);
		tf_json_end_object(&j);
		text = tf_json_text(&j);
		tf_out("%s\n", text ? text : "{}");
		tf_json_free(&j);
		check_json = NULL;
	} else if (!quiet || n_invalid || n_unreadable || n_failed) {
		tf_out("checked %zu profile%s: ", n_files, n_files == 1 ? "" : "s");
		if (!n_invalid && !n_unreadable && !n_failed)
			tf_out("all valid\n");
		else
			tf_out("%zu with mistakes, %zu unreadable, %zu not "
			       "checked\n",
			       n_invalid, n_unreadable, n_failed);
	}
	if (n_failed)
		return TF_EXIT_FAILURE;
	if (n_invalid)
		return TF_EXIT_PROFILE_INVALID;
	if (n_unreadable)
		return TF_EXIT_BAD_INPUT;
	return TF_EXIT_OK;
}

/* ------------------------------------------------------------- identify */

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

static int cmd_identify(int argc, char **argv, const struct tf_cli *cli)
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
		return tf_board_identify_json(sysroot, dirs, n_dirs, live);

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
		print_report(tf_board_set_invalid_path(set, i),
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
	print_profile(pick);
	r = live ? tf_board_live(pick, NULL) : 0;
	tf_board_set_free(set);
	tf_board_identity_free(&id);
	return r ? TF_EXIT_PROFILE_INVALID : TF_EXIT_OK;
}

int tf_cmd_board(const struct tf_cli *cli)
{
	const char *sub = cli->argc > 1 ? cli->argv[1] : NULL;

	if (!sub || !strcmp(sub, "--help") || !strcmp(sub, "-h")) {
		usage(sub ? tf_out_file() : tf_out_err_file());
		return sub ? TF_EXIT_OK : TF_EXIT_USAGE;
	}
	if (!strcmp(sub, "check"))
		return cmd_check(cli->argc - 1, cli->argv + 1, cli);
	if (!strcmp(sub, "identify"))
		return cmd_identify(cli->argc - 1, cli->argv + 1, cli);
	if (!strcmp(sub, "init"))
		return tf_cmd_board_init(cli->argc - 1, cli->argv + 1);
	if (!strcmp(sub, "rehearse"))
		return tf_cmd_board_rehearse(cli->argc - 1, cli->argv + 1, cli);
	tf_out_err("touchfw: board: unknown command '%s'\n", sub);
	usage(tf_out_err_file());
	return TF_EXIT_USAGE;
}
