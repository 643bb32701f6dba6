/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internals of the board-profile parser, shared by its files only:
 * board-schema.c (the schema's names and the lookups in them), board-fdt.c
 * (blob checks, property readers, the report), board-controller.c (one
 * controller node) and board-profile.c (tf_board_parse(), the root,
 * dmi-match and controllers nodes).  The other board files use
 * board-priv.h.
 */
#ifndef TF_BOARD_PARSE_PRIV_H
#define TF_BOARD_PARSE_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board-priv.h"

/* ------------------------------------------------------------- schema */

enum node_kind {
	NODE_ANY,
	NODE_ROOT,
	NODE_CONTROLLERS,
	NODE_CONTROLLER,
	NODE_DMI,
};

enum root_prop {
	R_VERSION,
	R_MODEL,
	R_BOARD_COMPATIBLE,
	R_BOARD_IDS,
	R_COUNT_,
};

enum controllers_prop {
	L_ADDRESS_CELLS,
	L_SIZE_CELLS,
	L_COUNT_,
};

enum ctrl_prop {
	C_FAMILY,
	C_BUS,
	C_ADAPTER_NAME,
	C_ADAPTER_PATH,
	C_REG,
	C_BOOTLOADER_REG,
	C_HID_DESCR_ADDR,
	C_DRIVER,
	C_RESET_CHIP,
	C_RESET_LINE,
	C_RESET_NAME,
	C_RESET_ACTIVE_LOW,
	C_IRQ_CHIP,
	C_IRQ_LINE,
	C_IRQ_NAME,
	C_IRQ_ACTIVE_LOW,
	C_POWER,
	C_FIRMWARE_PIN,
	C_CONFIG_PIN,
	C_INPUT_TIMEOUT,
	C_FLASH_TIMEOUT,
	C_CONFIG_NAME,
	C_SWAPPED_X_Y,
	C_SIZE_X,
	C_SIZE_Y,
	C_SPI_MAX_FREQ,
	C_SPI_CPOL,
	C_SPI_CPHA,
	C_SPI_BITS,
	C_BUS_RECOVERY,
	C_COUNT_,
};

/* The property names of each node, by the enums above. */
extern const char *const board_root_props[R_COUNT_];
extern const char *const board_controllers_props[L_COUNT_];
extern const char *const board_ctrl_props[C_COUNT_];

/* The controller property an older name (@name) stands for, with that
 * name in *@alias; -1 when @name is no alias. */
int board_ctrl_alias(const char *name, const char **alias);
/* What to do instead of a kernel binding's habit @name in a node of
 * @kind, or NULL when it is none. */
const char *board_prop_hint(enum node_kind kind, const char *name);
/* Is @name a DMI key that identifies one unit (never matched)? */
bool board_dmi_unit_key(const char *name);
/* The name of @known nearest to @name, for "did you mean" (NULL: none
 * near enough). */
const char *board_closest(const char *name, const char *const *known, size_t n);
/* The known family names, ", "-separated, in @buf; returns @buf. */
const char *board_family_list(char *buf, size_t size);

/* ------------------------------------------------------------- reading */

struct parse_ctx {
	const void *fdt;
	struct tf_board_report *rep;
	size_t n_issues; /* counted even without a report */
	bool oom;
};

/* A property as found in a node, before its value is judged. */
struct prop_val {
	const char *val;
	int len;
	bool seen;
	const char *as; /* the name it was given by, when an alias */
};

/* One mistake at @node: counted, and added to the report. */
void board_issue(struct parse_ctx *c, const char *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Copy a name from the blob for a message or a path: bytes that would
 * garble a terminal become '?', and a name too long is cut with "...".
 */
void board_safe_copy(char *out, size_t outsz, const char *in, size_t inlen);
/*
 * Sort the properties of @node into @vals by the names in @known; anything
 * else is reported.
 */
void board_read_props(struct parse_ctx *c, int node, const char *path, enum node_kind kind,
		      const char *const *known, size_t n_known, struct prop_val *vals);
/* A single non-empty string without control characters. */
bool board_val_string(struct parse_ctx *c, const char *path, const char *prop,
		      const struct prop_val *v, char *out, size_t outsz);
/*
 * A list of strings, each non-empty, at most @maxlen characters, without
 * whitespace unless @spaces, and no entry twice.
 */
bool board_val_strlist(struct parse_ctx *c, const char *path, const char *prop,
		       const struct prop_val *v, size_t maxlen, bool spaces, char ***out,
		       size_t *n_out);
bool board_val_u32(struct parse_ctx *c, const char *path, const char *prop,
		   const struct prop_val *v, const char *example, uint32_t *out);
bool board_val_flag(struct parse_ctx *c, const char *path, const char *prop,
		    const struct prop_val *v);
/* An absolute device-tree node path, without blanks or empty parts. */
bool board_dt_path_ok(const char *p);
/*
 * Header and structure checks, in an order that never reads past @len;
 * false (with the issue reported) when the blob is not to be read.
 */
bool board_check_blob(struct parse_ctx *c, const void *fdt, size_t len);

/* ------------------------------------------------------------- nodes */

/*
 * One controller node (board-controller.c) at @path, named @name, into
 * @ctl; false if it has mistakes.
 */
bool board_parse_controller(struct parse_ctx *c, int node, const char *path, const char *name,
			    struct tf_controller *ctl);

#endif
