// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw run DEVICE` (what touchfw@.service runs) and `touchfw flash
 * DEVICE` (bring-up by hand): both drive the update flow; flash takes its
 * firmware and/or configuration from files instead of the database and
 * ignores the attempt limit.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd.h"
#include "event.h"
#include "exitcode.h"
#include "family/family.h"
#include "flow.h"
#include "log.h"
#include "out.h"
#include "settings.h"

/* The progress bar on a terminal: one line, redrawn per frame. */
static void progress_bar(void *user, const char *dev, const struct tf_progress *p)
{
	int pct = p->total ? (int)(p->done * 100 / p->total) : 100;
	char bar[41];
	int i, fill = pct * 40 / 100;

	(void)user;
	for (i = 0; i < 40; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[40] = '\0';
	/* Through the log: the next log line ends a half-drawn bar first. */
	tf_log_partial("%s: [%s] %3d%% %zu/%zu frames%s", dev, bar, pct, p->done, p->total,
		       p->done == p->total ? "\n" : "");
}

static void run_usage(FILE *f)
{
	fprintf(f, "Usage: touchfw run [--force] [--dry-run] [--wait-bind] [--json] DEVICE\n"
		   "\n"
		   "The whole update for one controller (touchfw@DEVICE.service runs\n"
		   "this): lock, board profile, firmware database, mode detection, the\n"
		   "version policy, flash and/or configure, rebind, wait for the input\n"
		   "device, read the versions back, record the result in the state\n"
		   "directory.  DEVICE is the kernel's name, e.g. 3-004a, not a path\n"
		   "(a path is a usage error).\n"
		   "\n"
		   "  --force      ignore the attempt limit and blobs that failed before;\n"
		   "               allow a configuration made for another variant of\n"
		   "               the chip (the family's check); replace a firmware\n"
		   "               file touchfw did not write where it installs one\n"
		   "               for the loader\n"
		   "  --dry-run    decide and report, write nothing: read and check\n"
		   "               the blobs, say what would be written, by which\n"
		   "               path, and the config CRC against the chip's\n"
		   "  --wait-bind  wait for a driver to bind first (udev without bind\n"
		   "               events; see udev-rules/README)\n"
		   "  --json       the result record on standard output as one JSON\n"
		   "               document (doc/json.md); the log stays on stderr\n");
}

/* `--json`: the record the state directory keeps, on standard output. */
static int print_result(const char *dev, const struct tf_flow_result *res, int rc)
{
	char *json = tf_flow_result_json(dev, res);

	if (!json) {
		tf_out_err("touchfw: out of memory\n");
		return rc ? rc : TF_EXIT_FAILURE;
	}
	tf_out("%s\n", json);
	free(json);
	return rc;
}

static void flash_usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: touchfw flash [--firmware FILE] [--config FILE] [--dry-run]\n"
		   "                     [--force] [--family NAME] [--always-on] [--json]\n"
		   "                     DEVICE\n"
		   "\n"
		   "Flash a firmware image and/or write a configuration by hand, with a\n"
		   "progress bar on a terminal.  At least one of --firmware and --config,\n"
		   "in the family's format:\n");
	/* the families' own words (tf_family.flash_*_files) */
	for (i = 0; tf_families[i]; i++) {
		const struct tf_family *fam = tf_families[i];

		if (fam->flash_firmware_files)
			fprintf(f, "  %-7s --firmware: %s\n", fam->ids->name,
				fam->flash_firmware_files);
		if (fam->flash_config_files)
			fprintf(f, "  %-7s --config: %s\n", fam->ids->name,
				fam->flash_config_files);
	}
	fprintf(f,
		"Uses the board profile when one describes DEVICE; without one, the\n"
		"family comes from the bound driver (or --family) and the driver is\n"
		"assumed to own the chip's power (never unbound) unless --always-on\n"
		"says it is safe to unbind.\n"
		"\n"
		"  --force      accept a configuration made for another variant of\n"
		"               the chip (the family's check), and write one the chip\n"
		"               already has\n"
		"  --dry-run    check the files (a config also against the chip),\n"
		"               decide as the flash does up to its first write, and\n"
		"               say what would be written, by which path, and the\n"
		"               config CRC against the chip's; write nothing.  A\n"
		"               flash that would be refused exits as it would\n"
		"  --json       the result record on standard output as one JSON\n"
		"               document (doc/json.md)\n"
		"\n"
		"The files are read and parsed before the device is touched: a\n"
		"missing or malformed one exits %d (%s).  A --firmware image is\n"
		"written whatever version it holds: flash is the tool for a\n"
		"deliberate downgrade.\n",
		TF_EXIT_BAD_INPUT, tf_exit_name(TF_EXIT_BAD_INPUT));
}

/*
 * DEVICE is the kernel's name of the device, not a path: "touchfw run
 * /sys/bus/i2c/devices/3-004a" is a usage error that names the argument
 * and what is expected (with the name the path ends in, when it has one).
 */
static int check_device_arg(const char *cmd, const char *arg, void (*usage)(FILE *f))
{
	const char *base = strrchr(arg, '/');

	if (tf_devname_valid(arg))
		return TF_EXIT_OK;
	base = base ? base + 1 : arg;
	if (base != arg && tf_devname_valid(base))
		tf_out_err("touchfw %s: DEVICE '%s' is a path; give the kernel's name of the "
			   "device: 'touchfw %s %s'\n",
			   cmd, arg, cmd, base);
	else
		tf_out_err("touchfw %s: DEVICE '%s' is not a device name; give the kernel's "
			   "name, as in /sys/bus/i2c/devices or /sys/bus/spi/devices (e.g. "
			   "3-004a, spi1.0)\n",
			   cmd, arg);
	usage(tf_out_err_file());
	return TF_EXIT_USAGE;
}

static int load_settings(const struct tf_cli *cli, struct tf_settings *s)
{
	struct tf_err err = { 0 };

	if (tf_settings_load(s, cli->config, &err) < 0) {
		log_err(NULL, "%s", err.msg);
		return TF_EXIT_BAD_INPUT;
	}
	return TF_EXIT_OK;
}

int tf_cmd_run(const struct tf_cli *cli)
{
	static const struct option opts[] = {
		{ "force", no_argument, NULL, 'f' },	 { "dry-run", no_argument, NULL, 'n' },
		{ "wait-bind", no_argument, NULL, 'w' }, { "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },	 { NULL, 0, NULL, 0 },
	};
	struct tf_flow_opts o = { 0 };
	struct tf_flow_result res;
	struct tf_settings s;
	struct tf_cli_opts g = { "touchfw run", "+fnh", opts, run_usage };
	bool json = false;
	int c, rc;

	while ((c = tf_cli_getopt(cli->argc, cli->argv, &g)) != -1) {
		switch (c) {
		case TF_CLI_STOP:
			return g.exit;
		case 'f':
			o.force = o.ignore_state = true;
			break;
		case 'n':
			o.dry_run = true;
			break;
		case 'w':
			o.wait_bind = true;
			break;
		case 'j':
			json = true;
			break;
		}
	}
	if (optind + 1 != cli->argc) {
		tf_out_err("touchfw run: give exactly one DEVICE\n");
		run_usage(tf_out_err_file());
		return TF_EXIT_USAGE;
	}
	rc = check_device_arg("run", cli->argv[optind], run_usage);
	if (rc)
		return rc;
	rc = load_settings(cli, &s);
	if (rc)
		return rc;
	if (isatty(STDERR_FILENO))
		o.progress = progress_bar;
	memset(&res, 0, sizeof(res));
	rc = tf_flow_run(&s, cli->argv[optind], &o, &res);
	return json ? print_result(cli->argv[optind], &res, rc) : rc;
}

int tf_cmd_flash(const struct tf_cli *cli)
{
	static const struct option opts[] = {
		{ "firmware", required_argument, NULL, 'F' },
		{ "config", required_argument, NULL, 'C' },
		{ "force", no_argument, NULL, 'f' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "family", required_argument, NULL, 'm' },
		{ "always-on", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tf_flow_opts o = { 0 };
	struct tf_flow_result res;
	struct tf_settings s;
	struct tf_cli_opts g = { "touchfw flash", "+fnh", opts, flash_usage };
	bool json = false;
	int c, rc;

	while ((c = tf_cli_getopt(cli->argc, cli->argv, &g)) != -1) {
		switch (c) {
		case TF_CLI_STOP:
			return g.exit;
		case 'F':
			o.firmware_file = optarg;
			break;
		case 'C':
			o.config_file = optarg;
			break;
		case 'f':
			o.force = true;
			break;
		case 'n':
			o.dry_run = true;
			break;
		case 'm':
			o.family = optarg;
			break;
		case 'a':
			o.always_on = true;
			break;
		case 'j':
			json = true;
			break;
		}
	}
	if (optind + 1 != cli->argc || (!o.firmware_file && !o.config_file)) {
		tf_out_err("touchfw flash: give a DEVICE and at least one of "
			   "--firmware and --config\n");
		flash_usage(tf_out_err_file());
		return TF_EXIT_USAGE;
	}
	rc = check_device_arg("flash", cli->argv[optind], flash_usage);
	if (rc)
		return rc;
	rc = load_settings(cli, &s);
	if (rc)
		return rc;
	o.manual = true;
	if (isatty(STDERR_FILENO))
		o.progress = progress_bar;
	memset(&res, 0, sizeof(res));
	rc = tf_flow_run(&s, cli->argv[optind], &o, &res);
	return json ? print_result(cli->argv[optind], &res, rc) : rc;
}
