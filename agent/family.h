/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a controller family gives the update flow: one ops table, filled by
 * proto/<family>.c.  The flow calls these in a fixed order and adds no
 * family branches of its own; model differences inside a family are data.
 */
#ifndef TF_FAMILY_H
#define TF_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "device.h"
#include "gpio.h"
#include "i2c.h"
#include "util.h"
#include "version.h"

enum tf_chip_mode {
	TF_CHIP_ABSENT,     /* answers at none of its addresses */
	TF_CHIP_APP,        /* application firmware running */
	TF_CHIP_BOOTLOADER, /* bootloader only (no or stale firmware) */
};

/* What detect() found, in family-independent terms. */
struct tf_chip_state {
	enum tf_chip_mode mode;
	char hw[32];             /* hardware id, "" when unknown (bootloader) */
	bool has_version;
	struct tf_version version;
	char version_str[48];
	bool has_info_crc, has_config_crc;
	uint32_t info_crc, config_crc;
	/* Families whose configurations carry a version the chip reports
	 * (caps.config_versioned): the chip's, when it holds a valid one. */
	bool has_config_version;
	struct tf_version config_version;
	char config_version_str[TF_VERSION_STR_MAX];
	uint16_t bl_addr;        /* bootloader address found / to use */
	char detail[160];        /* e.g. "bootloader at 0x24: APP_CRC_FAIL" */
};

/* Progress of a firmware write, for the progress bar and logs. */
struct tf_progress {
	size_t done, total;      /* frames */
	size_t bytes, total_bytes;
	unsigned retries;
};
typedef void (*tf_progress_fn)(void *user, const struct tf_progress *p);

/* Everything an operation may use; owned by the flow. */
struct tf_ctx {
	struct tf_device dev;
	const struct tf_controller *ctrl;
	struct tf_i2c bus;
	bool bus_open;
	struct tf_gpio_line *chg;   /* only when no driver holds the line */
	struct tf_gpio_line *reset;
	bool force;
	uint32_t flash_timeout_ms;
	tf_progress_fn progress;
	void *progress_user;
	void *priv;                 /* the family's per-run state */
};

struct tf_family_ops {
	const char *name;
	/* Kernel-assisted update: file names the driver requests. */
	const char *kernel_fw_name;  /* NULL if the driver has no update_fw */
	const char *kernel_fw_attr;  /* "update_fw" */
	const char *kernel_cfg_name; /* loaded by the driver at probe, or NULL */

	int (*init)(struct tf_ctx *c, struct tf_err *err);
	void (*fini)(struct tf_ctx *c);
	/* Mode, versions, CRCs -- reading only, safe with the driver bound. */
	int (*detect)(struct tf_ctx *c, struct tf_chip_state *st, struct tf_err *err);

	/* Blobs: parse and check; *img / *cfg are family-private. */
	int (*load_firmware)(struct tf_ctx *c, const uint8_t *data, size_t len,
			     const char *name, void **img, struct tf_err *err);
	/* The binary the kernel driver wants (e.g. .enc decoded). */
	void (*kernel_firmware)(void *img, const uint8_t **data, size_t *len);
	void (*free_firmware)(void *img);
	/* Parse a config; @want_crc gets the CRC the chip will report. */
	int (*load_config)(struct tf_ctx *c, const uint8_t *data, size_t len,
			   const char *name, void **cfg, uint32_t *want_crc,
			   struct tf_err *err);
	/* Check a parsed config against the chip as it is now (app mode). */
	int (*check_config)(struct tf_ctx *c, void *cfg, struct tf_err *err);
	void (*free_config)(void *cfg);

	/* Bus operations; the driver must not be driving the chip. */
	int (*enter_bootloader)(struct tf_ctx *c, struct tf_chip_state *st,
				struct tf_err *err);
	int (*write_firmware)(struct tf_ctx *c, const struct tf_chip_state *st,
			      void *img, struct tf_err *err);
	int (*leave_bootloader)(struct tf_ctx *c, const struct tf_chip_state *st,
				struct tf_err *err);
	int (*write_config)(struct tf_ctx *c, void *cfg, struct tf_err *err);
};

extern const struct tf_family_ops tf_mxt_ops;
const struct tf_family_ops *tf_family_ops_by_name(const char *name);

#endif /* TF_FAMILY_H */
