// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a bound driver's own sysfs attribute (see family.h), for the
 * families that detect a chip from what its driver shows.  The driver core
 * makes the driver link before it calls the probe and adds a driver's
 * attribute group in the probe or, since drivers moved to dev_groups
 * (Linux 6.12's atmel_mxt_ts and elants_i2c), right after it: so a link
 * with no attribute yet may be a probe still running.  The attribute --
 * missing, or empty, as a sysfs attribute always has its line -- is read
 * again while the link stays; a link that goes away (or names another
 * driver) was a probe that failed, or an unbind, and ends the wait at once
 * with -ENODEV, so the caller judges the device again instead of waiting
 * for a driver that is not there.
 */
#include "family/family.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "sysfs.h"

int tf_driver_attr_wait(const struct tf_ctx *c, const char *name, char *buf, size_t size,
			unsigned wait_ms, struct tf_err *err)
{
	char path[PATH_MAX], link[PATH_MAX + 16], now[sizeof(c->dev.driver)];
	unsigned waited = 0;
	size_t n;

	tf_snprintf(path, sizeof(path), "%s/%s", c->dev.syspath, name);
	tf_snprintf(link, sizeof(link), "%s/driver", c->dev.syspath);
	while (tf_read_attr(path, buf, size) < 0 || !buf[0]) {
		if (waited >= wait_ms)
			return tf_err_set(err, EIO,
					  "driver %s has no readable attribute "
					  "%s (waited %u ms with the driver bound)",
					  c->dev.driver, name, waited);
		if (tf_sysfs_link_name(link, now, sizeof(now)) < 0)
			now[0] = '\0';
		if (strcmp(now, c->dev.driver))
			return tf_err_set(err, ENODEV,
					  "driver %s let go of the device while its attribute "
					  "%s was awaited (its probe failed, or an unbind)",
					  c->dev.driver, name);
		tf_sleep_us(10000);
		waited += 10;
	}
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}
