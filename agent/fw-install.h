/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A firmware file installed where the kernel's loader finds it on later
 * requests (fw-install.c), for drivers that load their chip's program from
 * a file at every probe and again at resume (family caps.kernel_fw_probe):
 * a run's staging (device-stage.c) serves only that run's probe.
 *
 * The directory is the first of the settings' firmware_dirs that does not
 * depend on the kernel release (no %r): /lib/firmware/updates by default,
 * which the loader searches before /lib/firmware, so a distribution's file
 * of the same name there is shadowed, not touched.  The file is written to
 * a temporary name and renamed over the old one, and recorded -- path and
 * SHA-256 -- in the persistent directory (@persist_dir/installed/DEVICE).
 * A file there that touchfw did not write (no record, or other bytes than
 * recorded) is replaced only with @force.
 */
#ifndef TF_FW_INSTALL_H
#define TF_FW_INSTALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util.h"

struct tf_settings;

/*
 * Install @data (@len bytes) as @name ("vendor/x.fw") for the loader, for
 * @dev, the blob @id.  Returns 0 when the loader finds these bytes there
 * now -- installed, or already there -- with what was done in @msg; 1 when
 * it does not (a file touchfw did not write is in the way and @force was
 * not given, or another file comes first in the loader's search), saying
 * so in @msg; -errno with @err on a failure to write.
 */
int tf_fw_install(const struct tf_settings *s, const char *dev, const char *name,
		  const char *id, const uint8_t *data, size_t len, bool force, char *msg,
		  size_t msg_size, struct tf_err *err);
/*
 * `touchfw forget`: remove what tf_fw_install() installed for @dev, if the
 * file still holds the recorded bytes (else it is left, said in @msg), and
 * the record.  Returns 1 when a file was removed, 0 when there was no
 * record, -errno with @msg on a failure.
 */
int tf_fw_install_forget(const char *persist_dir, const char *dev, char *msg, size_t msg_size);

#endif /* TF_FW_INSTALL_H */
