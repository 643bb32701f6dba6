// SPDX-License-Identifier: GPL-2.0-or-later
/* The string table for touchfw's exit codes (see exitcode.h). */
#include "exitcode.h"

#include <stddef.h>

static const struct {
	const char *name, *text;
} exit_table[TF_EXIT_MAX_] = {
	[TF_EXIT_OK] = { "ok", "done, or nothing to do" },
	[TF_EXIT_FAILURE] = { "failure", "unexpected internal failure" },
	[TF_EXIT_USAGE] = { "usage", "bad command line" },
	[TF_EXIT_NO_DEVICE] = { "no-device", "no such device, or it vanished" },
	[TF_EXIT_NO_PROFILE] = { "no-profile", "no board profile describes the device" },
	[TF_EXIT_NO_FIRMWARE] = { "no-firmware", "nothing in the firmware database fits" },
	[TF_EXIT_DB_INVALID] = { "db-invalid", "manifest, blob hash, size or signature bad" },
	[TF_EXIT_BAD_INPUT] = { "bad-input", "a given file is malformed" },
	[TF_EXIT_LOCKED] = { "locked", "another touchfw holds the device" },
	[TF_EXIT_BACKOFF] = { "backoff", "attempts exhausted or backing off" },
	[TF_EXIT_IO] = { "io", "bus or sysfs I/O failed, chip unchanged" },
	[TF_EXIT_BOOTLOADER] = { "left-in-bootloader",
				 "update failed, chip left in bootloader" },
	[TF_EXIT_VERIFY] = { "verify-failed", "update done but verification failed" },
	[TF_EXIT_UNSUPPORTED] = { "unsupported",
				  "wrong chip, adapter or driver (or driver_override)" },
	[TF_EXIT_DISABLED] = { "disabled", "switched off (settings or kernel command line)" },
	[TF_EXIT_PROFILE_INVALID] = { "profile-invalid", "board profile has mistakes" },
	[TF_EXIT_STATE] = { "state-unusable",
			    "a state, persistent or staging directory or file can "
			    "not be trusted or written, nothing flashed" },
	[TF_EXIT_PERMISSION] = { "permission", "permission denied opening a file or device" },
	[TF_EXIT_EXISTS] = { "exists", "refused to overwrite an existing file" },
	[TF_EXIT_INTERRUPTED] = { "interrupted",
				  "stopped by a signal (undone), or the driver was unbound "
				  "by someone else during the update; counts as an attempt" },
	[TF_EXIT_ATTENTION] = { "attention",
				"probe/status: a controller needs attention (bootloader, "
				"not answering, failed run, backing off)" },
};

const char *tf_exit_name(int code)
{
	if (code < 0 || code >= TF_EXIT_MAX_ || !exit_table[code].name)
		return "unknown";
	return exit_table[code].name;
}

const char *tf_exit_text(int code)
{
	if (code < 0 || code >= TF_EXIT_MAX_ || !exit_table[code].text)
		return "unknown exit code";
	return exit_table[code].text;
}
