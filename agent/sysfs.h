/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Plain sysfs lookups that need no library, shared by the front end's fast
 * path and the agent: a device's directory, its bound driver, its input
 * children.  Paths are built from validated device names only.
 */
#ifndef TF_SYSFS_H
#define TF_SYSFS_H

#include <stdbool.h>
#include <stddef.h>

#define TF_MAX_INPUTS 8

struct tf_input_node {
	char input[32]; /* "input5" */
	char event[32]; /* "event5", "" if none yet */
};

/* The last part of the symlink @path's target (a driver link's driver
 * name) into @buf; -errno from readlink, e.g. -ENOENT for no link. */
int tf_sysfs_link_name(const char *path, char *buf, size_t size);
/* Name of the bound driver into @buf, -ENOENT if unbound. */
int tf_sysfs_driver(const char *subsys, const char *dev, char *buf, size_t size);
/* Input children (inputN, with their eventN); returns how many, or -errno. */
int tf_sysfs_inputs(const char *subsys, const char *dev, struct tf_input_node *out, int max);

#endif /* TF_SYSFS_H */
