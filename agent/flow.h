/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The update flow for one device, in one place:
 *
 *   lock -> device -> board profile -> attempts -> firmware DB -> bus ->
 *   detect -> plan -> [report only] -> load and verify blobs -> update by
 *   the path the chip's state and the profile allow -> rebind -> wait for
 *   the new input device -> read back -> record the result
 *
 * Paths (who owns the chip: the profile's power property,
 * doc/touchfw-board.5), chosen from the family's
 * capabilities (agent/family/family.h), never from its name:
 *   bootloader: the chip is in bootloader mode (caps.bootloader_mode); the
 *       driver (bound, idle) does not touch it, so flash at the bootloader
 *       address while bound, write the configuration directly, then rebind;
 *   update_fw: application mode and the driver owns the power: the driver
 *       flashes through its trigger attribute (caps.kernel_fw_attr) from a
 *       staged image named as the driver computes it, and a configuration
 *       goes in as the file the driver loads at probe (caps.kernel_cfg) on
 *       a rebind;
 *   unbind: application mode and power is always on (caps.bus_flash,
 *       caps.bus_config): unbind, reset pulse by the family's timing,
 *       bootloader entry, flash with the interrupt line, configuration,
 *       rebind.
 */
#ifndef TF_FLOW_H
#define TF_FLOW_H

#include <stdbool.h>

#include "settings.h"

struct tf_progress;

struct tf_flow_opts {
	bool force;		   /* allow downgrades and mismatched configs */
	bool dry_run;		   /* decide and report, never write */
	bool wait_bind;		   /* udev without bind events: wait for the driver */
	bool manual;		   /* `flash`: ignore attempts/backoff */
	bool ignore_state;	   /* `run --force`: ignore the attempt limit */
	const char *firmware_file; /* instead of the DB (flash) */
	const char *config_file;
	const char *family; /* flash without a profile: family */
	bool always_on;	    /* flash without a profile: power */
	/* Flashing progress goes here when set (the command's progress bar),
	 * else to the log every 10%. */
	void (*progress)(void *user, const char *dev, const struct tf_progress *p);
	void *progress_user;
	bool quiet_progress;
	/* The most verbose priority this run logs (TF_LOG_*), below the
	 * global level; 0: the global level alone, TF_LOG_QUIET: nothing. */
	int log_max;
};

struct tf_flow_result {
	int exit_code;
	char message[1024];
	char path[24]; /* "bootloader", "update_fw", "unbind", "none" */
	char mode_before[16];
	char version_before[48], version_after[48];
	/* Families with versioned configurations: the chip's, "" if none. */
	char config_version_before[48], config_version_after[48];
	char fw_id[64], cfg_id[64];
	bool has_crc_before, has_crc_after;
	unsigned crc_before, crc_after;
	unsigned crc_bits; /* the family's (tf_family.crc_bits) */
	char input[32];
	unsigned long long duration_ms;
	unsigned frames, retries;
	/* What detection and the plan said (also filled by a dry run). */
	char profile[64];
	char driver[64];
	char hw[32];
	char detail[160];
	char planned_fw[64], planned_fw_version[48], planned_cfg[64];
	char fw_reason[200], cfg_reason[200];
};

int tf_flow_run(const struct tf_settings *s, const char *devname, const struct tf_flow_opts *o,
		struct tf_flow_result *res);

/* The JSON record written to the state directory (state-record.c). */
char *tf_flow_result_json(const char *devname, const struct tf_flow_result *r);

#endif /* TF_FLOW_H */
