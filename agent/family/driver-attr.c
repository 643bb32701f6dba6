// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a bound driver's own sysfs attribute (see family.h), for the
 * families that detect a chip from what its driver shows.  A driver may
 * add its attribute group last in its probe, after the driver link and
 * the input device, so an attribute not there yet -- missing, or empty,
 * as a sysfs attribute always has its line -- is waited for a moment.
 */
#include "family/family.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

int tf_driver_attr_wait(const struct tf_ctx *c, const char *name, char *buf, size_t size,
			unsigned wait_ms, struct tf_err *err)
{
	char path[PATH_MAX];
	unsigned waited = 0;
	size_t n;

	tf_snprintf(path, sizeof(path), "%s/%s", c->dev.syspath, name);
	while (tf_read_attr(path, buf, size) < 0 || !buf[0]) {
		if (waited >= wait_ms)
			return tf_err_set(err, EIO,
					  "driver %s has no readable attribute "
					  "%s (waited %u ms after its probe)",
					  c->dev.driver, name, waited);
		tf_sleep_us(10000);
		waited += 10;
	}
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}
