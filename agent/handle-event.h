/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `touchfw handle-event`: what udev RUNs.  Decides from the uevent and
 * touchfw's state alone -- no bus I/O, no heavy libraries -- and either does
 * nothing or hands the device to touchfw@<dev>.service (or a detached
 * child) and returns.
 */
#ifndef TF_HANDLE_EVENT_H
#define TF_HANDLE_EVENT_H

#include "cli.h"

enum tf_verdict {
	TF_VERDICT_IGNORED,	/* not an event or device of ours */
	TF_VERDICT_DISABLED,	/* off switch */
	TF_VERDICT_OWN_BIND,	/* the bind touchfw's own rebind caused */
	TF_VERDICT_BUSY,	/* a run already holds the device */
	TF_VERDICT_GAVE_UP,	/* attempts exhausted */
	TF_VERDICT_BACKOFF,	/* retry not due yet */
	TF_VERDICT_UPTODATE,	/* verified earlier, inputs unchanged */
	TF_VERDICT_NO_PROFILES, /* no board profile installed at all */
	TF_VERDICT_STATE_BAD,	/* state directory or a state file unusable */
	TF_VERDICT_HANDED_OFF,
};

/* Run with the process environment as the uevent. */
int tf_cmd_handle_event(const struct tf_cli *cli);

#endif /* TF_HANDLE_EVENT_H */
