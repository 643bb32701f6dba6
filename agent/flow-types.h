/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What an update run is given (struct tf_flow_opts) and what it gives back
 * (struct tf_flow_result, and its JSON record): the types of flow.h, apart
 * so that the flow's own files, the metrics and the state record use them
 * without the run itself.
 */
#ifndef TF_FLOW_TYPES_H
#define TF_FLOW_TYPES_H

#include <stdbool.h>

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

/* The JSON record written to the state directory (state-record.c). */
char *tf_flow_result_json(const char *devname, const struct tf_flow_result *r);

#endif /* TF_FLOW_TYPES_H */
