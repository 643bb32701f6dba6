/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fwgen's families: each family of the emulator that makes files (firmware
 * images, configurations) for its chip models registers its commands as
 * `fwgen_family_<name>` in tests/emul/family/<name>/fwgen.c; fwgen.c finds
 * them through tests/emul/family/registry.def.
 */
#ifndef FWGEN_H
#define FWGEN_H

#include <stdbool.h>
#include <stddef.h>

/* The options on fwgen's command line, as given (NULL / unset if not). */
struct fwgen_args {
	const char *chip, *version, *out, *id, *resolution, *config_id;
	const char *form; /* --form: a command's variant of its output (a layout, a fault) */
	unsigned long size, frame, tag, touches, iap_start;
	bool size_set, iap_start_set, enc;
};

struct fwgen_cmd {
	const char *name;  /* argv[1] */
	const char *usage; /* its lines of the usage text, each ending in \n */
	/* the exit status: 0, 1 (failed), 2 (bad usage) */
	int (*run)(const struct fwgen_args *a);
};

struct fwgen_family {
	const struct fwgen_cmd *const *cmds; /* NULL-terminated */
	const char *notes;		     /* after the usage lines, or NULL */
};

/* Write @len bytes to @path: 0, or -1 with a message on stderr. */
int fwgen_write_file(const char *path, const void *buf, size_t len);

#endif /* FWGEN_H */
