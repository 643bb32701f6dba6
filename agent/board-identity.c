// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The machine's identity for board matching: the root compatible of the
 * boot FDT (/sys/firmware/fdt, else /proc/device-tree/compatible) and the
 * DMI keys of /sys/class/dmi/id, read under a sysroot so tests can fake a
 * machine.
 */
#include "board.h"
#include "board-priv.h"

#include <ctype.h>
#include <errno.h>
#include <libfdt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The boot FDT can be much larger than a profile. */
#define MAX_BOOT_FDT_SIZE (16u * 1024u * 1024u)
#define MAX_PROC_COMPATIBLE_SIZE (64u * 1024u)

void tf_board_identity_free(struct tf_board_identity *id)
{
	if (!id)
		return;
	board_strv_free(id->compatible, id->n_compatible);
	memset(id, 0, sizeof(*id));
}

/*
 * Split a NUL-separated string list into @id->compatible.  Empty entries
 * and entries with control characters are dropped: they can match nothing
 * and would garble output.  A final entry without its NUL still counts.
 */
static int set_compatible(struct tf_board_identity *id, const char *buf, size_t len)
{
	const char *s = buf, *end = buf + len;
	char **v;
	size_t n = 0;

	v = calloc(MAX_LIST_ENTRIES, sizeof(*v));
	if (!v)
		return -ENOMEM;
	while (s < end && n < MAX_LIST_ENTRIES) {
		size_t l = strnlen(s, (size_t)(end - s));

		if (l > 0) {
			char *e = strndup(s, l);

			if (!e) {
				board_strv_free(v, n);
				return -ENOMEM;
			}
			if (board_has_control_char(e))
				free(e);
			else
				v[n++] = e;
		}
		s += l + 1;
	}
	board_strv_free(id->compatible, id->n_compatible);
	id->compatible = v;
	id->n_compatible = n;
	return 0;
}

/* Root compatible from a flattened tree; -EINVAL if it is not sound. */
static int compatible_from_fdt(struct tf_board_identity *id, const void *fdt, size_t len)
{
	const char *val;
	int plen = 0;

	if (len < sizeof(struct fdt_header) || ((uintptr_t)fdt & 7) ||
	    fdt_magic(fdt) != FDT_MAGIC || fdt_version(fdt) < FDT_MIN_VERSION ||
	    fdt_totalsize(fdt) > len || board_walk_structure(fdt, fdt_totalsize(fdt)) ||
	    fdt_check_full(fdt, len))
		return -EINVAL;
	val = fdt_getprop(fdt, 0, "compatible", &plen);
	if (!val || plen <= 0)
		return -ENOENT;
	return set_compatible(id, val, (size_t)plen);
}

bool tf_dmi_placeholder(const char *value)
{
	/* What AMI, Insyde and Phoenix templates and OEMs leave unfilled, as
	 * seen in /sys/class/dmi/id of unnamed boards (and in fwupd's and
	 * systemd's lists of such strings). */
	static const char *const ph[] = {
		"Default string",
		"To be filled by O.E.M.",
		"To Be Filled By O.E.M.",
		"System Product Name",
		"System manufacturer",
		"System Version",
		"System Serial Number",
		"Base Board Product Name",
		"Base Board Manufacturer",
		"Not Applicable",
		"Not Specified",
		"Not Available",
		"Default",
		"None",
		"N/A",
		"NA",
		"OEM",
		"O.E.M.",
		"Undefined",
		"Unknown",
		"Invalid",
		"x.x",
		"xxxxx",
		"0123456789",
		"123456789",
		"Type1ProductConfigId",
		"Type2 - Board Product Name1",
		"Type2 - Board Vendor Name1",
		"SKU",
		"Chassis Manufacture",
	};
	size_t i, n;

	if (!value)
		return false;
	while (isspace((unsigned char)*value))
		value++;
	n = strlen(value);
	while (n > 0 && isspace((unsigned char)value[n - 1]))
		n--;
	if (n == 0)
		return true;
	for (i = 0; i < sizeof(ph) / sizeof(ph[0]); i++)
		if (strlen(ph[i]) == n && !strncasecmp(ph[i], value, n))
			return true;
	return false;
}

static void rstrip(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

int tf_board_identify(const char *sysroot, struct tf_board_identity *id, struct tf_err *err)
{
	char path[4096];
	char *buf = NULL;
	size_t len = 0, i;
	int r;

	memset(id, 0, sizeof(*id));
	if (!sysroot)
		sysroot = "";

	if (tf_snprintf(path, sizeof(path), "%s/sys/firmware/fdt", sysroot))
		return tf_err_set(err, ENAMETOOLONG, "%s: sysroot too long", sysroot);
	r = tf_read_file(path, MAX_BOOT_FDT_SIZE, &buf, &len);
	if (r == 0) {
		r = compatible_from_fdt(id, buf, len);
		free(buf);
		buf = NULL;
		if (r == -ENOMEM)
			return tf_err_set(err, ENOMEM, "%s: out of memory", path);
		if (r == 0 && id->n_compatible)
			snprintf(id->compatible_source, sizeof(id->compatible_source), "%s",
				 "/sys/firmware/fdt");
	} else if (r == -ENOMEM) {
		return tf_err_set(err, ENOMEM, "%s: out of memory", path);
	}
	/* Not there, root-only, or unsound: the live tree says the same. */
	if (!id->n_compatible) {
		if (tf_snprintf(path, sizeof(path), "%s/proc/device-tree/compatible", sysroot))
			return tf_err_set(err, ENAMETOOLONG, "%s: sysroot too long", sysroot);
		r = tf_read_file(path, MAX_PROC_COMPATIBLE_SIZE, &buf, &len);
		if (r == 0) {
			r = set_compatible(id, buf, len);
			free(buf);
			if (r)
				return tf_err_set(err, -r, "%s: out of memory", path);
			if (id->n_compatible)
				snprintf(id->compatible_source, sizeof(id->compatible_source),
					 "%s", "/proc/device-tree/compatible");
		} else if (r != -ENOENT && r != -EACCES && r != -EPERM && r != -ENOTDIR) {
			tf_board_identity_free(id);
			return tf_err_set(err, -r, "%s: %s", path, strerror(-r));
		}
	}

	for (i = 0; i < TF_DMI_KEY_COUNT_; i++) {
		if (tf_snprintf(path, sizeof(path), "%s/sys/class/dmi/id/%s", sysroot,
				tf_dmi_key_file((enum tf_dmi_key)i))) {
			tf_board_identity_free(id);
			return tf_err_set(err, ENAMETOOLONG, "%s: sysroot too long", sysroot);
		}
		/* Absent or unreadable keys simply never match. */
		if (tf_read_attr(path, id->dmi[i], sizeof(id->dmi[i])) == 0) {
			rstrip(id->dmi[i]);
			id->dmi_present[i] = true;
			id->has_dmi = true;
		} else {
			id->dmi[i][0] = '\0';
		}
	}
	return 0;
}
