// SPDX-License-Identifier: GPL-2.0-or-later
/* Library-free sysfs lookups (see sysfs.h). */
#include "sysfs.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "event.h"
#include "util.h"

/* /sys/bus/@subsys/devices/@dev/@file into @buf. */
static int dev_path(const char *subsys, const char *dev, const char *file, char *buf,
		    size_t size)
{
	if (!tf_devname_valid(dev) || !tf_devname_valid(subsys))
		return -EINVAL;
	return tf_snprintf(buf, size, "/sys/bus/%s/devices/%s/%s", subsys, dev, file);
}

int tf_sysfs_link_name(const char *path, char *buf, size_t size)
{
	char link[PATH_MAX];
	const char *slash;
	ssize_t n = readlink(path, link, sizeof(link) - 1);

	if (n < 0)
		return -errno;
	link[n] = '\0';
	slash = strrchr(link, '/');
	return tf_snprintf(buf, size, "%s", slash ? slash + 1 : link);
}

int tf_sysfs_driver(const char *subsys, const char *dev, char *buf, size_t size)
{
	char path[PATH_MAX];
	int r;

	r = dev_path(subsys, dev, "driver", path, sizeof(path));
	if (r < 0)
		return r;
	return tf_sysfs_link_name(path, buf, size);
}

static int cmp_inputs(const void *a, const void *b)
{
	return strcmp(((const struct tf_input_node *)a)->input,
		      ((const struct tf_input_node *)b)->input);
}

/* The inputN directories in @path (an "input" class directory), after
 * the @n already in @out. */
static int scan_inputs(const char *path, struct tf_input_node *out, int n, int max)
{
	char sub[PATH_MAX];
	struct dirent *de, *de2;
	DIR *d, *d2;

	d = opendir(path);
	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? n : -errno;
	while ((de = readdir(d)) && n < max) {
		if (strncmp(de->d_name, "input", 5) || !de->d_name[5] ||
		    strlen(de->d_name) >= sizeof(out[n].input))
			continue;
		strcpy(out[n].input, de->d_name);
		out[n].event[0] = '\0';
		if (tf_snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name) == 0 &&
		    (d2 = opendir(sub))) {
			while ((de2 = readdir(d2)))
				if (!strncmp(de2->d_name, "event", 5) &&
				    strlen(de2->d_name) < sizeof(out[n].event)) {
					strcpy(out[n].event, de2->d_name);
					break;
				}
			closedir(d2);
		}
		n++;
	}
	closedir(d);
	return n;
}

/* A hid device's name, as hid-core makes it: "BBBB:VVVV:PPPP.NNNN". */
static bool hid_dev_name(const char *s)
{
	unsigned b, v, p, k;
	int end = 0;

	return strlen(s) == 19 && sscanf(s, "%4X:%4X:%4X.%4X%n", &b, &v, &p, &k, &end) == 4 &&
	       end == 19;
}

/*
 * The device's input devices: those its driver registered on it
 * (<dev>/input/inputN), and those registered on a child device the driver
 * made: the hid device i2c_hid makes (<dev>/BBBB:VVVV:PPPP.NNNN/input/
 * inputN, as hid-multitouch does), or a bus device a driver registers
 * below its client (<dev>/CHILD/input/inputN).  Child devices are
 * directories; the links beside them (driver, subsystem, firmware_node)
 * are not followed.
 */
int tf_sysfs_inputs(const char *subsys, const char *dev, struct tf_input_node *out, int max)
{
	char path[PATH_MAX], hid[PATH_MAX + 300];
	struct dirent *de;
	DIR *d;
	int n, r;

	r = dev_path(subsys, dev, "input", path, sizeof(path));
	if (r < 0)
		return r;
	n = scan_inputs(path, out, 0, max);
	if (n < 0)
		return n;
	path[strlen(path) - strlen("/input")] = '\0';
	if ((d = opendir(path))) {
		while ((de = readdir(d)) && n >= 0 && n < max)
			if ((hid_dev_name(de->d_name) ||
			     (de->d_type == DT_DIR && strcmp(de->d_name, "input") &&
			      de->d_name[0] != '.')) &&
			    tf_snprintf(hid, sizeof(hid), "%s/%s/input", path, de->d_name) == 0)
				n = scan_inputs(hid, out, n, max);
		closedir(d);
	}
	if (n < 0)
		return n;
	qsort(out, (size_t)n, sizeof(*out), cmp_inputs);
	return n;
}
