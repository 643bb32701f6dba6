/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Settings from /etc/touchfw/touchfw.conf (or --config / $TOUCHFW_CONFIG),
 * plus the kernel command line's off switch.  A missing file means the
 * defaults; a malformed one is an error naming the file, line and key.
 */
#ifndef TF_SETTINGS_H
#define TF_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fwdb.h"
#include "util.h"

#define TF_MAX_DIRS 8
#define TF_SETTINGS_LINE_MAX 200 /* bytes in a line of the file, its newline included */

enum tf_mode { TF_MODE_UPDATE, TF_MODE_REPORT_ONLY };
enum tf_handoff { TF_HANDOFF_AUTO, TF_HANDOFF_SYSTEMD, TF_HANDOFF_FORK };

struct tf_settings {
	/* (the numbers first: tf_settings_defaults() zeroes them and sets
	 * the strings, not 6 KiB of zeros at every event) */
	bool file_found;
	bool enabled;		  /* [touchfw] enabled */
	bool disabled_by_cmdline; /* touchfw.disable / touchfw=off */
	enum tf_mode mode;
	enum tf_handoff handoff;
	enum tf_sig_policy signatures; /* the one policy enum, fwdb.h's */
	unsigned max_attempts;	       /* per device, then give up until reboot */
	unsigned backoff_s;	       /* first retry delay, doubling */
	unsigned input_timeout_ms;
	unsigned flash_timeout_ms;
	unsigned bind_timeout_ms; /* add-only udev: wait for the driver */
	unsigned own_bind_window_s;
	unsigned n_boards_dirs;
	unsigned n_firmware_dirs;
	char path[512]; /* the file read, for messages */
	char state_dir[256];
	char persist_dir[256];
	char db_dir[256];
	char keys_dir[256];
	char boards_dirs[TF_MAX_DIRS][256];
	char firmware_dirs[TF_MAX_DIRS][256];
	char firmware_class_path[256]; /* the sysfs parameter file */
	char cmdline[256];	       /* /proc/cmdline, for tests */
	char prometheus_dir[256];      /* node_exporter's textfile directory, "" off */
	char agent_unit[64];	       /* "touchfw@%s.service" prefix */
};

/* The settings file when neither --config nor $TOUCHFW_CONFIG names one. */
#define TF_SETTINGS_DEFAULT_PATH TF_SYSCONFDIR "/touchfw.conf"

void tf_settings_defaults(struct tf_settings *s);
/*
 * Load @path (NULL: $TOUCHFW_CONFIG or the default).  Returns 0 (also when
 * the file does not exist), or -EINVAL with the file, line and key in @err.
 */
int tf_settings_load(struct tf_settings *s, const char *path, struct tf_err *err);
/*
 * Parse settings text (pure: no files, not even /proc/cmdline): the
 * defaults, then @text; @name is the file for messages.  Fuzzed in
 * tests/fuzz/fuzz_settings.c.
 */
int tf_settings_parse(struct tf_settings *s, const char *text, size_t len, const char *name,
		      struct tf_err *err);
/* Is touchfw switched off, by the file or the kernel command line? */
bool tf_settings_disabled(const struct tf_settings *s);
/* Parse a kernel command line for touchfw.disable / touchfw=off (pure). */
bool tf_cmdline_disables(const char *cmdline);

#endif /* TF_SETTINGS_H */
