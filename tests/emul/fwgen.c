// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fwgen: makes synthetic firmware images and configuration files for the
 * emulated chips (no vendor blobs), each family's from its own chip model
 * (tests/emul/family/<name>/fwgen.c, found through registry.def).  Output
 * is deterministic: the same arguments give the same bytes, so the
 * firmware DB manifest can carry fixed hashes.
 *
 *   fwgen COMMAND [OPTIONS] -o FILE     (fwgen --help lists the commands)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fwgen.h"

/* A family without fwgen commands defines no fwgen_family_<name>. */
#define EMUB_FAMILY(name) \
	extern const struct fwgen_family fwgen_family_##name __attribute__((weak));
#include "registry.def"
#undef EMUB_FAMILY

static const struct fwgen_family *const families[] = {
#define EMUB_FAMILY(name) &fwgen_family_##name,
#include "registry.def"
#undef EMUB_FAMILY
};

static void usage(FILE *f)
{
	const char *lead = "Usage: ";

	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		for (const struct fwgen_cmd *const *c = families[i] ? families[i]->cmds : NULL;
		     c && *c; c++) {
			/* indent every line of a command's usage alike */
			for (const char *p = (*c)->usage; *p;) {
				const char *nl = strchr(p, '\n');
				int n = nl ? (int)(nl - p) : (int)strlen(p);

				fprintf(f, "%s%.*s\n", lead, n, p);
				lead = "       ";
				p += n + (nl != NULL);
			}
		}
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (families[i] && families[i]->notes)
			fprintf(f, "\n%s", families[i]->notes);
}

int fwgen_write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f) {
		fprintf(stderr, "fwgen: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "fwgen: %s: write failed\n", path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "chip", required_argument, NULL, 'c' },
		{ "version", required_argument, NULL, 'v' },
		{ "size", required_argument, NULL, 's' },
		{ "frame", required_argument, NULL, 'f' },
		{ "tag", required_argument, NULL, 't' },
		{ "enc", no_argument, NULL, 'e' },
		{ "id", required_argument, NULL, 'i' },
		{ "resolution", required_argument, NULL, 'r' },
		{ "touches", required_argument, NULL, 'n' },
		{ "config-id", required_argument, NULL, 'C' },
		{ "iap-start", required_argument, NULL, 'a' },
		{ "form", required_argument, NULL, 'F' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fwgen_args a = { .frame = 256, .tag = 1, .touches = 5 };
	const char *mode;
	int c;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	mode = argv[1];
	optind = 2;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			a.chip = optarg;
			break;
		case 'v':
			a.version = optarg;
			break;
		case 's':
			a.size = strtoul(optarg, NULL, 0);
			a.size_set = true;
			break;
		case 'f':
			a.frame = strtoul(optarg, NULL, 0);
			break;
		case 't':
			a.tag = strtoul(optarg, NULL, 0);
			break;
		case 'e':
			a.enc = true;
			break;
		case 'i':
			a.id = optarg;
			break;
		case 'r':
			a.resolution = optarg;
			break;
		case 'n':
			a.touches = strtoul(optarg, NULL, 0);
			break;
		case 'C':
			a.config_id = optarg;
			break;
		case 'a':
			a.iap_start = strtoul(optarg, NULL, 0);
			a.iap_start_set = true;
			break;
		case 'F':
			a.form = optarg;
			break;
		case 'o':
			a.out = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		for (const struct fwgen_cmd *const *cmd = families[i] ? families[i]->cmds
								      : NULL;
		     cmd && *cmd; cmd++)
			if (!strcmp((*cmd)->name, mode))
				return (*cmd)->run(&a);
	fprintf(stderr, "fwgen: unknown mode '%s'\n", mode);
	return 2;
}
