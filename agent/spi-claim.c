// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Getting a spidev node for an spi device (see spi.h): binding spidev with
 * driver_override when no driver holds the device, waiting for its node,
 * and undoing exactly what was done.  The transport over the node is
 * spi.c.
 */
#include "spi.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event.h"
#include "sysfs.h"

static void dev_file(const char *dev, const char *file, char *buf, size_t size)
{
	tf_snprintf(buf, size, "/sys/bus/spi/devices/%s/%s", dev, file);
}

/* The bound driver's name, "" when none. */
static void driver_of(const char *dev, char *buf, size_t size)
{
	if (tf_sysfs_driver("spi", dev, buf, size) < 0)
		buf[0] = '\0';
}

/* spidevB.C below the device (its class device), as /dev/spidevB.C */
static bool node_of(const char *dev, char *buf, size_t size)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	bool found = false;

	dev_file(dev, "spidev", path, sizeof(path));
	d = opendir(path);
	if (!d)
		return false;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "spidev", 6)) {
			tf_snprintf(buf, size, "/dev/%s", de->d_name);
			found = true;
			break;
		}
	closedir(d);
	return found;
}

/* the driver link says @want ("" = unbound) and, for spidev, the node is
 * there (udev makes it after the class device's add) */
static bool wait_state(const char *dev, const char *want, char *node, size_t size,
		       int timeout_ms)
{
	uint64_t end = tf_now_ms() + (uint64_t)(timeout_ms > 0 ? timeout_ms : 0);
	char drv[64];

	for (;;) {
		struct stat sb;

		driver_of(dev, drv, sizeof(drv));
		if (!strcmp(drv, want)) {
			if (!node)
				return true;
			if (node_of(dev, node, size) && stat(node, &sb) == 0)
				return true;
		}
		if (tf_now_ms() >= end)
			return false;
		tf_sleep_us(5000);
	}
}

static int write_override(const char *dev, const char *val, struct tf_err *err)
{
	char path[PATH_MAX];
	int r;

	dev_file(dev, "driver_override", path, sizeof(path));
	r = tf_write_attr(path, val);
	if (r < 0)
		return tf_err_set(err, -r, "%s: %s", path, strerror(-r));
	return 0;
}

static int spidev_file(const char *dev, const char *file, struct tf_err *err)
{
	char path[PATH_MAX];
	int r;

	tf_snprintf(path, sizeof(path), "/sys/bus/spi/drivers/spidev/%s", file);
	r = tf_write_attr(path, dev);
	if (r < 0)
		return tf_err_set(err, -r, "%s spidev (%s): %s",
				  !strcmp(file, "bind") ? "binding" : "unbinding", path,
				  strerror(-r));
	return 0;
}

int tf_spidev_claim(const char *dev, struct tf_spidev_claim *c, int timeout_ms,
		    struct tf_err *err)
{
	char path[PATH_MAX], drv[64], ovr[64];
	struct stat sb;
	int r;

	memset(c, 0, sizeof(*c));
	if (!tf_devname_valid(dev) || strlen(dev) >= sizeof(c->dev))
		return tf_err_set(err, EINVAL, "'%s' is not a device name", dev);
	tf_snprintf(c->dev, sizeof(c->dev), "%s", dev);
	tf_snprintf(path, sizeof(path), "/sys/bus/spi/devices/%s", dev);
	if (lstat(path, &sb) < 0)
		return tf_err_set(err, ENODEV, "no such spi device (%s)", path);
	driver_of(dev, drv, sizeof(drv));
	if (!strcmp(drv, "spidev")) {
		if (!wait_state(dev, "spidev", c->node, sizeof(c->node), timeout_ms))
			return tf_err_set(err, ENODEV,
					  "bound to spidev but no spidev node in /dev "
					  "(is udev running?)");
		c->active = true;
		return 0;
	}
	if (drv[0])
		return tf_err_set(err, EBUSY,
				  "bound to %s; it must let go (unbind) before spidev can "
				  "have the device",
				  drv);
	if (stat("/sys/bus/spi/drivers/spidev", &sb) < 0)
		return tf_err_set(err, ENODEV,
				  "no spidev driver in /sys/bus/spi/drivers (the kernel needs "
				  "CONFIG_SPI_SPIDEV; modprobe spidev)");
	dev_file(dev, "driver_override", path, sizeof(path));
	r = tf_read_attr(path, ovr, sizeof(ovr));
	if (r < 0)
		return tf_err_set(err, -r, "%s: %s", path, strerror(-r));
	if (strcmp(ovr, "(null)") && ovr[0] && strcmp(ovr, "spidev"))
		return tf_err_set(err, EBUSY,
				  "driver_override is \"%s\"; somebody else chose its driver, "
				  "touchfw leaves it alone",
				  ovr);
	c->active = true;
	if (strcmp(ovr, "spidev")) {
		r = write_override(dev, "spidev", err);
		if (r < 0)
			goto undo;
		c->set_override = true;
	}
	r = spidev_file(dev, "bind", err);
	if (r < 0)
		goto undo;
	c->bound_spidev = true;
	if (!wait_state(dev, "spidev", c->node, sizeof(c->node), timeout_ms)) {
		r = tf_err_set(err, ENODEV, "no spidev node %d ms after binding spidev",
			       timeout_ms);
		goto undo;
	}
	return 0;
undo : {
	struct tf_err e2 = { 0 };

	driver_of(dev, drv, sizeof(drv));
	c->bound_spidev = !strcmp(drv, "spidev") || c->bound_spidev;
	tf_spidev_release(c, &e2);
}
	return r;
}

int tf_spidev_release(struct tf_spidev_claim *c, struct tf_err *err)
{
	int rc = 0;

	if (!c->active)
		return 0;
	c->active = false;
	if (c->bound_spidev) {
		char drv[64];

		driver_of(c->dev, drv, sizeof(drv));
		if (!strcmp(drv, "spidev")) {
			rc = spidev_file(c->dev, "unbind", err);
			if (!rc && !wait_state(c->dev, "", NULL, 0, 3000))
				rc = tf_err_set(err, ETIMEDOUT,
						"spidev still bound 3 s after "
						"unbind");
		}
		c->bound_spidev = false;
	}
	if (c->set_override) {
		/* driver_set_override(): an empty line clears it */
		int r = write_override(c->dev, "\n", rc ? NULL : err);

		if (r < 0 && !rc)
			rc = r;
		c->set_override = false;
	}
	return rc;
}
