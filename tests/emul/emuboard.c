// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * emuboard: run a command on an emulated board.
 *
 *   emuboard [--realtime] [--stats FILE] [--on-uevent CMD] [--keep DIR]
 *            [--verbose] BOARD -- COMMAND [ARGS...]
 *   emuboard [OPTIONS] --profile PROFILE.dtb [--hardware NODE=ID]...
 *            [--fw-version NODE=V]... [--bootloader] [--firmware-dir DIR]
 *            [--print-board]
 *            [-- COMMAND [ARGS...]]
 *
 * Builds the board described by BOARD (a tests/emul/boards/NAME.board file), runs
 * COMMAND inside it with umockdev's preload and the GPIO shim
 * (libemuboard-gpiod.so) in LD_PRELOAD and UMOCKDEV_DIR set, serves the board until COMMAND
 * exits and exits with its status.  A modelled kernel oops (a driver
 * model's attribute read that would dereference NULL) is reported loudly
 * and makes the exit status EMUBOARD_EXIT_OOPS if COMMAND succeeded.
 * See tests/emul/README.md.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emuboard.h"

#define EMUBOARD_EXIT_USAGE 2
#define EMUBOARD_EXIT_BOARD 3
#define EMUBOARD_EXIT_OOPS 99

static volatile sig_atomic_t child_pid;

static void forward(int sig)
{
	if (child_pid > 0)
		kill(child_pid, sig);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: emuboard [--realtime] [--stats FILE] [--on-uevent CMD] [--keep DIR]\n"
		"                [--verbose] BOARD -- COMMAND [ARGS...]\n"
		"       emuboard [OPTIONS] --profile PROFILE.dtb [--hardware NODE=ID]...\n"
		"                [--fw-version NODE=V]... [--bootloader] [--firmware-dir DIR]\n"
		"                [--print-board]\n"
		"                [-- COMMAND [ARGS...]]\n"
		"Run COMMAND on the emulated board BOARD, or on one made from a touchfw\n"
		"board profile (see tests/emul/README.md).\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "realtime", no_argument, NULL, 'r' },
		{ "stats", required_argument, NULL, 's' },
		{ "on-uevent", required_argument, NULL, 'u' },
		{ "keep", required_argument, NULL, 'k' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "profile", required_argument, NULL, 'P' },
		{ "hardware", required_argument, NULL, 'H' },
		{ "fw-version", required_argument, NULL, 'V' },
		{ "bootloader", no_argument, NULL, 'B' },
		{ "firmware-dir", required_argument, NULL, 'F' },
		{ "print-board", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* each at most one per argument */
	const char **hardware = calloc((size_t)argc + 1, sizeof(*hardware));
	const char **fw_version = calloc((size_t)argc + 1, sizeof(*fw_version));
	size_t n_hardware = 0, n_fw_version = 0;
	struct emub_profile_opts po = { 0 };
	const char *profile = NULL;
	bool print_board = false;
	char *board_text = NULL;
	int cmd;
	const char *stats = NULL, *on_uevent = NULL, *keep = NULL;
	bool realtime = false, verbose = false;
	struct emub_child *child;
	struct emub *eb;
	char err[512];
	int c, st = 0, rc, noops;

	while ((c = getopt_long(argc, argv, "+rs:u:k:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			realtime = true;
			break;
		case 's':
			stats = optarg;
			break;
		case 'u':
			on_uevent = optarg;
			break;
		case 'k':
			keep = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		case 'P':
			profile = optarg;
			break;
		case 'H':
			if (!strchr(optarg, '=')) {
				fprintf(stderr, "emuboard: --hardware %s: not NODE=ID\n",
					optarg);
				free(hardware);
				free(fw_version);
				return EMUBOARD_EXIT_USAGE;
			}
			hardware[n_hardware++] = optarg;
			break;
		case 'V':
			if (!strchr(optarg, '=')) {
				fprintf(stderr, "emuboard: --fw-version %s: not NODE=VERSION\n",
					optarg);
				free(hardware);
				free(fw_version);
				return EMUBOARD_EXIT_USAGE;
			}
			fw_version[n_fw_version++] = optarg;
			break;
		case 'B':
			po.bootloader = true;
			break;
		case 'F':
			po.firmware_dir = optarg;
			break;
		case 'p':
			print_board = true;
			break;
		case 'h':
			usage(stdout);
			free(hardware);
			free(fw_version);
			return 0;
		default:
			usage(stderr);
			free(hardware);
			free(fw_version);
			return EMUBOARD_EXIT_USAGE;
		}
	}
	if (profile && print_board && optind == argc) {
		cmd = -1; /* the board only */
	} else if (profile && optind + 1 < argc && !strcmp(argv[optind], "--")) {
		cmd = optind + 1; /* --profile P -- COMMAND ... */
	} else if (!profile && optind + 2 < argc && !strcmp(argv[optind + 1], "--")) {
		cmd = optind + 2; /* BOARD -- COMMAND ... */
	} else {
		usage(stderr);
		free(hardware);
		free(fw_version);
		return EMUBOARD_EXIT_USAGE;
	}
	if (profile) {
		po.hardware = hardware;
		po.n_hardware = n_hardware;
		po.fw_version = fw_version;
		po.n_fw_version = n_fw_version;
		board_text = emub_board_from_profile(profile, &po, err, sizeof(err));
		free(hardware);
		free(fw_version);
		if (!board_text) {
			fprintf(stderr, "emuboard: %s: %s\n", profile, err);
			return EMUBOARD_EXIT_BOARD;
		}
		if (print_board)
			fputs(board_text, stdout);
		if (cmd < 0) {
			free(board_text);
			return 0;
		}
		if (emub_new_from_string(board_text, NULL, &eb, err, sizeof(err))) {
			fprintf(stderr, "emuboard: %s: the board made from it: %s\n", profile,
				err);
			free(board_text);
			return EMUBOARD_EXIT_BOARD;
		}
		free(board_text);
	} else {
		free(hardware);
		free(fw_version);
		if (emub_new_from_file(argv[optind], &eb, err, sizeof(err))) {
			fprintf(stderr, "emuboard: %s\n", err);
			return EMUBOARD_EXIT_BOARD;
		}
	}
	if (realtime)
		emub_set_realtime(eb, true);
	if (on_uevent) {
		/* udevd and COMMAND start after the boot-time probes */
		emub_set_on_uevent(eb, on_uevent);
		emub_set_on_uevent_after_boot(eb, true);
	}
	if (keep)
		emub_set_keep_dir(eb, keep);
	if (verbose || getenv("EMUBOARD_VERBOSE"))
		emub_set_log(eb, stderr);
	rc = emub_start(eb);
	if (rc) {
		fprintf(stderr, "emuboard: starting board: %s\n", strerror(-rc));
		emub_free(eb);
		return EMUBOARD_EXIT_BOARD;
	}
	rc = emub_spawn(eb, (const char *const *)argv + cmd, NULL, false, &child);
	if (rc) {
		fprintf(stderr, "emuboard: %s: %s\n", argv[cmd], strerror(-rc));
		emub_free(eb);
		return 127;
	}
	child_pid = emub_child_pid(child);
	signal(SIGINT, forward);
	signal(SIGTERM, forward);
	signal(SIGHUP, forward);
	emub_child_wait(child, -1, &st);
	emub_child_free(child);
	child_pid = 0;

	if (stats) {
		FILE *f = fopen(stats, "w");

		if (!f || emub_write_stats_json(eb, f))
			fprintf(stderr, "emuboard: writing %s: %s\n", stats, strerror(errno));
		if (f)
			fclose(f);
	}
	noops = emub_oops_count(eb);
	for (int i = 0; i < noops; i++)
		fprintf(stderr,
			"emuboard: ********************************************************\n"
			"emuboard: *** the emulated kernel OOPSED: %s\n"
			"emuboard: ********************************************************\n",
			emub_oops_message(eb, i));
	emub_free(eb);

	if (WIFEXITED(st))
		rc = WEXITSTATUS(st);
	else
		rc = 128 + WTERMSIG(st);
	if (noops && rc == 0)
		rc = EMUBOARD_EXIT_OOPS;
	return rc;
}
