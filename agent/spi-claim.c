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
#include "state.h"
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

/* ------------------------------------------------ a claim's record */

static int record_name(const char *dev, char *buf, size_t size)
{
	if (!tf_devname_valid(dev))
		return -EINVAL;
	return tf_snprintf(buf, size, "%s.spiclaim", dev);
}

int tf_spidev_record(int dirfd, const char *dir, const char *dev, const char *driver,
		     struct tf_err *err)
{
	char name[160], path[PATH_MAX], ovr[64] = "", drv[64], text[300];

	if (record_name(dev, name, sizeof(name)))
		return tf_err_set(err, EINVAL, "'%s' is not a device name", dev);
	dev_file(dev, "driver_override", path, sizeof(path));
	if (tf_read_attr(path, ovr, sizeof(ovr)) < 0 || !strcmp(ovr, "(null)"))
		ovr[0] = '\0';
	driver_of(dev, drv, sizeof(drv));
	tf_snprintf(text, sizeof(text), "driver = %s\noverride = %s\nspidev = %d\n",
		    driver ? driver : "", ovr, !strcmp(drv, "spidev"));
	return tf_replace_at(dirfd, dir, name, text, strlen(text), 0600, err);
}

void tf_spidev_record_drop(int dirfd, const char *dev)
{
	char name[160];

	if (dirfd >= 0 && !record_name(dev, name, sizeof(name)))
		unlinkat(dirfd, name, 0);
}

int tf_spi_bind_driver(const char *dev, const char *driver, int timeout_ms, struct tf_err *err)
{
	char path[PATH_MAX];
	int r;

	if (!tf_devname_valid(driver))
		return tf_err_set(err, EINVAL, "'%s' is not a driver name", driver);
	tf_snprintf(path, sizeof(path), "/sys/bus/spi/drivers/%s/bind", driver);
	r = tf_write_attr(path, dev);
	if (r < 0)
		return tf_err_set(err, -r, "binding %s (%s): %s", driver, path, strerror(-r));
	if (!wait_state(dev, driver, NULL, 0, timeout_ms))
		return tf_err_set(err, ENODEV, "%s did not bind %s within %d ms", driver, dev,
				  timeout_ms);
	return 0;
}

/* "key = value" of @key in @text into @out ("" when absent). */
static void record_value(const char *text, const char *key, char *out, size_t size)
{
	size_t kl = strlen(key);
	const char *p = text;

	out[0] = '\0';
	while (p && *p) {
		if (!strncmp(p, key, kl) && !strncmp(p + kl, " = ", 3)) {
			size_t n = strcspn(p + kl + 3, "\n");

			tf_snprintf(out, size, "%.*s", (int)n, p + kl + 3);
			return;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
}

#define SAY(...)                                                                         \
	do {                                                                             \
		if (used < size)                                                         \
			used += (size_t)snprintf(what + used, size - used, "%s",         \
						 n ? "; " : "");                         \
		if (used < size)                                                         \
			used += (size_t)snprintf(what + used, size - used, __VA_ARGS__); \
		n++;                                                                     \
	} while (0)

int tf_spidev_repair(int dirfd, const char *dir, const char *dev,
		     void (*bind)(void *user, const char *dev, const char *driver), void *user,
		     char *what, size_t size)
{
	char name[160], path[PATH_MAX], was_drv[64], was_ovr[64], was_spidev[8], drv[64],
		ovr[64] = "";
	_cleanup_close_ int fd = -1;
	struct stat sb;
	char *text = NULL;
	size_t used = 0;
	int n = 0;

	what[0] = '\0';
	if (dirfd < 0 || record_name(dev, name, sizeof(name)))
		return 0;
	fd = tf_state_open_file(dirfd, dir, name, O_RDONLY, NULL);
	if (fd < 0)
		return 0;
	if (tf_read_fd(fd, 4096, &text, NULL) < 0) {
		unlinkat(dirfd, name, 0);
		return 0;
	}
	record_value(text, "driver", was_drv, sizeof(was_drv));
	record_value(text, "override", was_ovr, sizeof(was_ovr));
	record_value(text, "spidev", was_spidev, sizeof(was_spidev));
	free(text);
	tf_snprintf(path, sizeof(path), "/sys/bus/spi/devices/%s", dev);
	if (lstat(path, &sb) < 0) {
		/* the device is gone, and its claim with it */
		unlinkat(dirfd, name, 0);
		return 0;
	}
	driver_of(dev, drv, sizeof(drv));
	if (!strcmp(drv, "spidev") && strcmp(was_spidev, "1")) {
		if (spidev_file(dev, "unbind", NULL) == 0 && wait_state(dev, "", NULL, 0, 3000))
			SAY("unbound spidev from %s", dev);
		driver_of(dev, drv, sizeof(drv));
	}
	dev_file(dev, "driver_override", path, sizeof(path));
	if (tf_read_attr(path, ovr, sizeof(ovr)) == 0 && !strcmp(ovr, "spidev") &&
	    strcmp(was_ovr, "spidev") && write_override(dev, "\n", NULL) == 0)
		SAY("cleared %s's driver_override (spidev)", dev);
	if (was_drv[0] && strcmp(was_drv, "spidev") && !drv[0] && tf_devname_valid(was_drv)) {
		bind(user, dev, was_drv);
		driver_of(dev, drv, sizeof(drv));
		if (!strcmp(drv, was_drv))
			SAY("bound %s again", was_drv);
		else
			SAY("binding %s again failed (bound: %s)", was_drv,
			    drv[0] ? drv : "none");
	}
	unlinkat(dirfd, name, 0);
	return n;
}
