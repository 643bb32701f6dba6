/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The uevent environment udev hands to a RUN program, parsed into a struct.
 * Pure: works on an envp-style array, touches nothing else.  Every ACTION
 * the kernel defines (lib/kobject_uevent.c) is recognised; anything else is
 * TF_ACTION_UNKNOWN and must be ignored, never treated as add.
 */
#ifndef TF_EVENT_H
#define TF_EVENT_H

#include <stdbool.h>
#include <stdint.h>

enum tf_action {
	TF_ACTION_UNKNOWN = 0,
	TF_ACTION_ADD,
	TF_ACTION_REMOVE,
	TF_ACTION_CHANGE,
	TF_ACTION_MOVE,
	TF_ACTION_ONLINE,
	TF_ACTION_OFFLINE,
	TF_ACTION_BIND,
	TF_ACTION_UNBIND,
};

#define TF_EVENT_MAX_COMPAT 8

struct tf_uevent {
	enum tf_action action;
	const char *action_str;
	const char *devpath;   /* /devices/... */
	const char *subsystem; /* i2c, spi, ... */
	const char *driver;    /* NULL when absent (always on unbind) */
	const char *modalias;
	const char *of_name;
	const char *of_fullname;
	unsigned n_compatible; /* OF_COMPATIBLE_N, capped */
	const char *compatible[TF_EVENT_MAX_COMPAT];
	uint64_t seqnum;
	bool has_seqnum;
	char devname[128];	 /* last DEVPATH component: "3-004a", "spi1.0" */
	const char *bad_devpath; /* why DEVPATH is unusable (devname ""), or NULL */
	/* touchfw's own two variables, taken in the same pass over the
	 * environment: TOUCHFW_CANDIDATE (set by a udev rule) and
	 * TOUCHFW_LOG_LEVEL; NULL when absent */
	const char *candidate;
	const char *log_level;
};

/*
 * Parse @envp (NULL-terminated "KEY=value" strings).  Pointers in @ev point
 * into @envp.  Returns 0, or -EINVAL when ACTION or DEVPATH is missing.  A
 * DEVPATH that is not a clean /devices/... path ending in a device name
 * (".." or "." components, control characters, a trailing '/', a name over
 * 100 characters) leaves devname empty and says why in bad_devpath: the
 * caller decides, as only its own events need a device name.
 */
int tf_uevent_parse(char *const *envp, struct tf_uevent *ev);
enum tf_action tf_action_from_string(const char *s);
const char *tf_action_name(enum tf_action a);

/* A device name as the driver core spells it: [A-Za-z0-9._:-]+, no "..". */
bool tf_devname_valid(const char *name);

#endif /* TF_EVENT_H */
