/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * touchfw's exit codes.  Each is distinct so that udev, systemd units,
 * factory scripts and tests can tell outcomes apart; the man page and
 * `touchfw --help` list the same table (tf_exit_name()).
 */
#ifndef TF_EXITCODE_H
#define TF_EXITCODE_H

enum tf_exit {
	TF_EXIT_OK = 0,		      /* done, or nothing to do */
	TF_EXIT_FAILURE = 1,	      /* unexpected internal failure */
	TF_EXIT_USAGE = 2,	      /* bad command line */
	TF_EXIT_NO_DEVICE = 3,	      /* no such device, or it vanished */
	TF_EXIT_NO_PROFILE = 4,	      /* no board profile describes the device */
	TF_EXIT_NO_FIRMWARE = 5,      /* nothing in the firmware DB fits */
	TF_EXIT_DB_INVALID = 6,	      /* manifest, hash, size or signature bad */
	TF_EXIT_BAD_INPUT = 7,	      /* a file given or chosen is malformed */
	TF_EXIT_LOCKED = 8,	      /* another touchfw holds the device lock */
	TF_EXIT_BACKOFF = 9,	      /* attempts exhausted or backing off */
	TF_EXIT_IO = 10,	      /* bus or sysfs I/O failed; chip unchanged */
	TF_EXIT_BOOTLOADER = 11,      /* update failed, chip left in bootloader */
	TF_EXIT_VERIFY = 12,	      /* update done but verification failed */
	TF_EXIT_UNSUPPORTED = 13,     /* wrong chip, unsupported adapter/driver,
				       * somebody else's driver_override */
	TF_EXIT_DISABLED = 14,	      /* switched off (settings or kernel command line) */
	TF_EXIT_PROFILE_INVALID = 15, /* board profile has mistakes */
	TF_EXIT_STATE = 16,	      /* state, persistent or staging dir, its lock or a
				       * state file untrusted or unwritable: nothing
				       * flashed */
	TF_EXIT_PERMISSION = 17,      /* a file or device can not be opened: not root? */
	TF_EXIT_EXISTS = 18,	      /* refused to overwrite an existing file */
	TF_EXIT_INTERRUPTED = 19,     /* stopped by a signal, or the driver unbound under
				       * its update (by someone else, whatever failed
				       * after it): counts as an attempt */
	TF_EXIT_ATTENTION = 20,	      /* probe/status: a controller needs attention
				       * (bootloader, not answering, failed run,
				       * backing off) */
	TF_EXIT_MAX_,
};

const char *tf_exit_name(int code);
const char *tf_exit_text(int code);

#endif /* TF_EXITCODE_H */
