// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * uevent environment parsing (pure).  The action names are those of
 * kobject_actions[] in lib/kobject_uevent.c; bind/unbind exist since 4.14.
 */
#include "event.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const char *const action_names[] = {
	[TF_ACTION_UNKNOWN] = "unknown", [TF_ACTION_ADD] = "add",
	[TF_ACTION_REMOVE] = "remove",	 [TF_ACTION_CHANGE] = "change",
	[TF_ACTION_MOVE] = "move",	 [TF_ACTION_ONLINE] = "online",
	[TF_ACTION_OFFLINE] = "offline", [TF_ACTION_BIND] = "bind",
	[TF_ACTION_UNBIND] = "unbind",
};

enum tf_action tf_action_from_string(const char *s)
{
	size_t i;

	if (!s)
		return TF_ACTION_UNKNOWN;
	for (i = 1; i < sizeof(action_names) / sizeof(action_names[0]); i++)
		if (tf_streq(s, action_names[i]))
			return (enum tf_action)i;
	return TF_ACTION_UNKNOWN;
}

const char *tf_action_name(enum tf_action a)
{
	if ((size_t)a >= sizeof(action_names) / sizeof(action_names[0]))
		return "unknown";
	return action_names[a];
}

bool tf_devname_valid(const char *name)
{
	const char *p;

	if (!name || !*name || tf_streq(name, ".") || tf_streq(name, ".."))
		return false;
	for (p = name; *p; p++) {
		char c = *p;

		if (p - name >= 100)
			return false; /* longer than 100 */
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' || c == ':' || c == '-'))
			return false;
	}
	return true;
}

/* Value of KEY in an env entry "KEY=value", or NULL.  A loop of its own:
 * every event udev hands touchfw goes through here (main.c). */
static const char *match(const char *entry, const char *key)
{
	while (*key && *entry == *key)
		entry++, key++;
	return !*key && *entry == '=' ? entry + 1 : NULL;
}

/* @entry past @prefix, or NULL. */
static const char *after(const char *entry, const char *prefix)
{
	while (*prefix && *entry == *prefix)
		entry++, prefix++;
	return *prefix ? NULL : entry;
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/* What is wrong with @p as a sysfs device path, or NULL; *@name gets its
 * last component. */
static const char *devpath_problem(const char *p, const char **name)
{
	const char *c;

	if (p[0] != '/')
		return "it is not an absolute path";
	for (c = p; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return "it contains a control character";
	if (c[-1] == '/')
		return "it ends in '/'";
	for (c = p; *c; c++) {
		const char *e;

		if (*c != '/')
			continue;
		for (e = c + 1; *e && *e != '/'; e++)
			;
		if (e == c + 1)
			return "it has an empty component ('//')";
		if ((e - c == 2 && c[1] == '.') || (e - c == 3 && c[1] == '.' && c[2] == '.'))
			return "it has a '.' or '..' component";
		*name = c + 1;
	}
	return NULL;
}

int tf_uevent_parse(char *const *envp, struct tf_uevent *ev)
{
	const char *v;
	uint64_t n;
	size_t i;

	memset(ev, 0, sizeof(*ev));
	if (!envp)
		return -EINVAL;
	for (i = 0; envp[i]; i++) {
		const char *e = envp[i];

		/* every key touchfw reads begins with one of these */
		if (e[0] != 'A' && e[0] != 'D' && e[0] != 'S' && e[0] != 'M' && e[0] != 'O' &&
		    e[0] != 'T')
			continue;
		if ((v = after(e, "TOUCHFW_"))) {
			if ((v = match(v, "CANDIDATE")))
				ev->candidate = v;
			else if ((v = match(e + 8, "LOG_LEVEL")))
				ev->log_level = v;
		} else if ((v = match(e, "ACTION")))
			ev->action_str = v;
		else if ((v = match(e, "DEVPATH")))
			ev->devpath = v;
		else if ((v = match(e, "SUBSYSTEM")))
			ev->subsystem = v;
		else if ((v = match(e, "DRIVER")))
			ev->driver = *v ? v : NULL;
		else if ((v = match(e, "MODALIAS")))
			ev->modalias = v;
		else if ((v = match(e, "OF_NAME")))
			ev->of_name = v;
		else if ((v = match(e, "OF_FULLNAME")))
			ev->of_fullname = v;
		else if ((v = match(e, "SEQNUM")))
			ev->has_seqnum = parse_u64(v, &ev->seqnum);
		else if ((v = match(e, "OF_COMPATIBLE_N"))) {
			if (parse_u64(v, &n))
				ev->n_compatible = n > TF_EVENT_MAX_COMPAT ? TF_EVENT_MAX_COMPAT
									   : (unsigned)n;
		} else if ((v = after(e, "OF_COMPATIBLE_"))) {
			char *end;
			unsigned long idx = strtoul(v, &end, 10);

			if (end != v && *end == '=' && idx < TF_EVENT_MAX_COMPAT)
				ev->compatible[idx] = end + 1;
		}
	}
	/* Entries past OF_COMPATIBLE_N, or holes, do not count. */
	for (i = 0; i < ev->n_compatible; i++)
		if (!ev->compatible[i]) {
			ev->n_compatible = (unsigned)i;
			break;
		}
	for (i = ev->n_compatible; i < TF_EVENT_MAX_COMPAT; i++)
		ev->compatible[i] = NULL;

	if (!ev->action_str || !ev->devpath)
		return -EINVAL;
	ev->action = tf_action_from_string(ev->action_str);
	ev->bad_devpath = devpath_problem(ev->devpath, &v);
	if (ev->bad_devpath)
		return 0;
	if (tf_strcpy_fit(ev->devname, 101, v) < 0)
		ev->bad_devpath = "its device name is longer than 100 characters";
	else if (!tf_devname_valid(v))
		ev->bad_devpath = "its device name has characters a device name can not have";
	if (ev->bad_devpath)
		ev->devname[0] = '\0';
	return 0;
}
