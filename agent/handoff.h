/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Handing long work off from the udev RUN program without waiting: start
 * touchfw@<escaped device>.service through systemd (its private socket
 * first, as systemctl does, since the D-Bus system bus is often not up at
 * coldplug or in the initrd; then the system bus; then `systemctl
 * --no-block`), or, where systemd is not running, a detached child.
 * libsystemd is dlopen()ed here only, so the no-op path never loads it.
 */
#ifndef TF_HANDOFF_H
#define TF_HANDOFF_H

#include <stddef.h>

#include "settings.h"
#include "util.h"

enum tf_handoff_how {
	TF_HANDED_SYSTEMD_PRIVATE,
	TF_HANDED_SYSTEMD_BUS,
	TF_HANDED_SYSTEMCTL,
	TF_HANDED_FORK,
};

/* systemd's unit-name escaping of @dev into "touchfw@<esc>.service". */
int tf_unit_name(const char *prefix, const char *dev, char *buf, size_t size);

/*
 * Start `touchfw run [args] DEV` for @dev without waiting for it.  @args
 * are extra arguments for the fork path (the unit carries its own); @env
 * is this process's environment, of which the run gets a few variables.
 */
int tf_handoff(const struct tf_settings *s, const char *config_path, const char *dev,
	       const char *const *args, char *const *env, enum tf_handoff_how *how,
	       struct tf_err *err);

const char *tf_handoff_how_name(enum tf_handoff_how how);

/*
 * Where the agent binary is: the compiled-in libexec path, or -- when
 * this very binary is the one in the build directory it was built in
 * (TF_BUILDDIR, compared by device and inode with the directory of
 * /proc/self/exe, the kernel's word for what runs) -- the agent built
 * beside it, so that `./build/touchfw ...` works before `make install`
 * with the trust already given to that binary.  Never from the
 * environment (udev's RUN programs get the uevent's variables).
 */
const char *tf_agent_path(void);
/* Is this binary the one built in TF_BUILDDIR (not an installed copy)? */
bool tf_running_from_build_dir(void);

/* PATH for what handle-event starts (systemctl, the detached run). */
#define TF_HANDOFF_PATH "/usr/sbin:/usr/bin:/sbin:/bin"

#endif /* TF_HANDOFF_H */
