/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared internals of the board files (the parser's board-profile.c,
 * board-schema.c, board-fdt.c and board-controller.c, whose own internals
 * are board-parse-priv.h; board-identity.c, board-set.c, board-match.c);
 * the public API is board.h.
 */
#ifndef TF_BOARD_PRIV_H
#define TF_BOARD_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

/*
 * Oldest blob format read: version 17 has plain node names and records the
 * structure block's size, which board_walk_structure() needs.
 */
#define FDT_MIN_VERSION 17

#define MAX_LIST_ENTRIES 32

/* The DMI key's sysfs file ("sys_vendor"). */
const char *tf_dmi_key_file(enum tf_dmi_key key);

struct board_invalid {
	char *path;
	struct tf_board_report rep;
};

struct board_shadowed {
	char *path, *by;
};

struct tf_board_set {
	struct tf_board_profile **prof;
	size_t n, cap;
	char **ign; /* device-tree sources lying in a profile directory */
	size_t n_ign, cap_ign;
	struct board_invalid *inv;
	size_t n_inv, cap_inv;
	struct board_shadowed *sh;
	size_t n_sh, cap_sh;
};

/* Free @n strings of @v and @v itself; NULL is fine. */
void board_strv_free(char **v, size_t n);
/* Add one issue to @rep (NULL is fine); past TF_BOARD_MAX_ISSUES, count it. */
void board_report_add(struct tf_board_report *rep, const char *node, const char *msg);
bool board_has_control_char(const char *s);
/* What is wrong with the structure block of a blob (NULL if nothing). */
const char *board_walk_structure(const void *fdt, uint32_t total);
/* A device-tree path without its /sys/firmware/devicetree/base prefix. */
const char *board_dt_path_strip(const char *p);

#endif
