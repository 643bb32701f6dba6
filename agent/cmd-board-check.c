// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw board check FILE...`, for OEMs writing a profile: it compiles
 * .dts sources with dtc (passing on dtc's own messages), then prints every
 * mistake as "FILE: NODE: message" on stdout, so the output reads like a
 * compiler's and can be grepped.  Also the printing of a profile and of
 * its mistakes that `board identify` shares, and the check of one file
 * that `board rehearse` runs first.
 */
#include "cmd-board-priv.h"

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

void tf_board_print_profile(const struct tf_board_profile *p)
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

void tf_board_print_report(const char *file, const struct tf_board_report *rep)
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
		tf_board_print_report(file, &rep);
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
		tf_board_print_profile(p);
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

int tf_cmd_board_check(int argc, char **argv, const struct tf_cli *cli)
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
