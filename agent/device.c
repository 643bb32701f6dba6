// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysfs side of a controller (see device.h): lookup, adapter lookup and
 * bind/unbind.  Facts used: the driver core's bind/unbind files take the
 * device name; a real write to bind is synchronous and returns probe's
 * error, while emulated ones return at once, so success is judged
 * afterwards from the driver link and the input device.  The input watch
 * is device-watch.c, firmware staging device-stage.c.
 */
#include "device.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event.h"
#include "state.h"
#include "sysfs.h"

void tf_device_refresh(struct tf_device *d)
{
	char path[PATH_MAX + 16];

	tf_snprintf(path, sizeof(path), "%s/driver", d->syspath);
	if (tf_sysfs_link_name(path, d->driver, sizeof(d->driver)) < 0)
		d->driver[0] = '\0';
}

/* "3-004a" -> adapter 3, address 0x4a (i2c_dev_set_name's format). */
static bool parse_i2c_name(const char *name, int *nr, uint16_t *addr)
{
	unsigned a, n;
	char tail;

	if (sscanf(name, "%u-%4x%c", &n, &a, &tail) != 2 || strlen(name) < 6 || a > 0x3ff)
		return false;
	*nr = (int)n;
	*addr = (uint16_t)a;
	return true;
}

static void adapter_of_path(const char *adapter_dir, char *buf, size_t size)
{
	char path[PATH_MAX + 16], link[PATH_MAX], real[PATH_MAX];
	const char *p;

	buf[0] = '\0';
	tf_snprintf(path, sizeof(path), "%s/of_node", adapter_dir);
	if (!realpath(path, real)) {
		ssize_t n = readlink(path, link, sizeof(link) - 1);

		if (n < 0)
			return;
		link[n] = '\0';
		tf_snprintf(real, sizeof(real), "%s", link);
	}
	p = strstr(real, "/devicetree/base");
	if (p)
		tf_snprintf(buf, size, "%s", p[16] ? p + 16 : "/");
	else if ((p = strstr(real, "/device-tree")))
		tf_snprintf(buf, size, "%s", p[12] ? p + 12 : "/");
}

int tf_device_lookup(const char *name, struct tf_device *d, struct tf_err *err)
{
	static const char *const buses[] = { "i2c", "spi" };
	char path[PATH_MAX], real[PATH_MAX], adir[PATH_MAX + 64], *slash;
	struct stat sb;
	size_t i;

	memset(d, 0, sizeof(*d));
	d->adapter_nr = -1;
	if (!tf_devname_valid(name) || strlen(name) >= sizeof(d->name))
		return tf_err_set(err, EINVAL, "'%s' is not a device name", name);
	strcpy(d->name, name);
	for (i = 0; i < TF_ARRAY_SIZE(buses); i++) {
		tf_snprintf(path, sizeof(path), "/sys/bus/%s/devices/%s", buses[i], name);
		if (lstat(path, &sb) == 0)
			break;
	}
	if (i == TF_ARRAY_SIZE(buses))
		return tf_err_set(err, ENODEV, "no such i2c or spi device in /sys/bus");
	strcpy(d->subsys, buses[i]);
	if (!realpath(path, real))
		tf_snprintf(real, sizeof(real), "%s", path);
	tf_snprintf(d->syspath, sizeof(d->syspath), "%s", real);
	tf_device_refresh(d);

	tf_snprintf(path, sizeof(path), "%s/modalias", d->syspath);
	tf_read_attr(path, d->modalias, sizeof(d->modalias));
	tf_snprintf(path, sizeof(path), "%s/of_node/compatible", d->syspath);
	tf_read_attr(path, d->compatible, sizeof(d->compatible));

	if (!strcmp(d->subsys, "i2c")) {
		d->has_addr = parse_i2c_name(name, &d->adapter_nr, &d->addr);
		/* The adapter is the parent directory, "i2c-N". */
		tf_snprintf(path, sizeof(path), "%s", d->syspath);
		slash = strrchr(path, '/');
		if (slash) {
			*slash = '\0';
			slash = strrchr(path, '/');
			if (slash && !strncmp(slash + 1, "i2c-", 4))
				d->adapter_nr = atoi(slash + 5);
		}
		if (d->adapter_nr < 0)
			return tf_err_set(err, ENODEV, "can not tell its i2c adapter");
		tf_snprintf(adir, sizeof(adir), "/sys/bus/i2c/devices/i2c-%d", d->adapter_nr);
		tf_snprintf(path, sizeof(path), "%s/name", adir);
		tf_read_attr(path, d->adapter_name, sizeof(d->adapter_name));
		adapter_of_path(adir, d->adapter_of_path, sizeof(d->adapter_of_path));
	} else {
		/* spiB.C: bus B, chip select C; the spi_master class device
		 * spiB sits below its controller, .../CTRL/spi_master/spiB, and
		 * the profile names the controller device CTRL (adapter-name)
		 * or its DT node (adapter-path). */
		unsigned b, cs;
		char tail;

		if (sscanf(name, "spi%u.%u%c", &b, &cs, &tail) == 2 && cs <= 0xffff) {
			d->has_addr = true;
			d->addr = (uint16_t)cs;
			d->adapter_nr = (int)b;
		}
		tf_snprintf(path, sizeof(path), "%s", d->syspath);
		for (i = 0; i < 3 && (slash = strrchr(path, '/')); i++)
			*slash = '\0'; /* spiB.C, spiB, spi_master */
		slash = strrchr(path, '/');
		if (i == 3 && slash) {
			tf_snprintf(d->adapter_name, sizeof(d->adapter_name), "%s", slash + 1);
			adapter_of_path(path, d->adapter_of_path, sizeof(d->adapter_of_path));
		}
	}
	return 0;
}

int tf_i2c_adapter_find(const char *name, const char *of_path)
{
	struct dirent *de;
	DIR *d = opendir("/sys/bus/i2c/devices");
	int found = -ENODEV;

	if (!d)
		return -ENODEV;
	while ((de = readdir(d))) {
		char dir[PATH_MAX], path[PATH_MAX + 8], val[256], ofp[256];
		char *end;
		long nr;

		if (strncmp(de->d_name, "i2c-", 4))
			continue;
		nr = strtol(de->d_name + 4, &end, 10);
		if (*end || nr < 0)
			continue;
		tf_snprintf(dir, sizeof(dir), "/sys/bus/i2c/devices/%s", de->d_name);
		if (name && name[0]) {
			tf_snprintf(path, sizeof(path), "%s/name", dir);
			if (tf_read_attr(path, val, sizeof(val)) == 0 && !strcmp(val, name)) {
				found = (int)nr;
				break;
			}
		}
		if (of_path && of_path[0]) {
			adapter_of_path(dir, ofp, sizeof(ofp));
			if (ofp[0] && !strcmp(ofp, of_path)) {
				found = (int)nr;
				break;
			}
		}
	}
	closedir(d);
	return found;
}

static int driver_file(const struct tf_device *d, const char *driver, const char *file,
		       const char *what, struct tf_err *err)
{
	char path[PATH_MAX];
	int r;

	if (!tf_devname_valid(driver))
		return tf_err_set(err, EINVAL, "bad driver name '%s'", driver);
	tf_snprintf(path, sizeof(path), "/sys/bus/%s/drivers/%s/%s", d->subsys, driver, file);
	r = tf_write_attr(path, d->name);
	if (r < 0)
		return tf_err_set(err, -r, "%s driver %s: %s", what, driver, strerror(-r));
	return 0;
}

/*
 * A real write to bind/unbind returns when the driver core is done; some
 * setups (emulators, a driver core behind a slow probe) finish later, so
 * look at the driver link until it says so.
 */
static bool wait_link(struct tf_device *d, bool bound, int timeout_ms)
{
	uint64_t end = tf_now_ms() + (uint64_t)timeout_ms;

	for (;;) {
		tf_device_refresh(d);
		if (!!d->driver[0] == bound)
			return true;
		if (tf_now_ms() >= end)
			return false;
		tf_sleep_us(5000);
	}
}

int tf_device_unbind(struct tf_device *d, struct tf_err *err)
{
	char drv[sizeof(d->driver)];
	int r;

	tf_device_refresh(d);
	if (!d->driver[0])
		return 0;
	snprintf(drv, sizeof(drv), "%s", d->driver);
	r = driver_file(d, d->driver, "unbind", "unbinding", err);
	if (r < 0)
		return r;
	if (!wait_link(d, false, TF_UNBIND_TIMEOUT_MS))
		return tf_err_set(err, ETIMEDOUT, "driver %s still bound %d ms after unbind",
				  drv, TF_UNBIND_TIMEOUT_MS);
	return 0;
}

int tf_device_bind(struct tf_device *d, const char *driver, struct tf_err *err)
{
	int r = driver_file(d, driver, "bind", "binding", err);

	if (r < 0)
		return r;
	if (!wait_link(d, true, TF_BIND_TIMEOUT_MS))
		return tf_err_set(err, ENODEV,
				  "driver %s did not bind within %d ms "
				  "(its probe failed?)",
				  driver, TF_BIND_TIMEOUT_MS);
	return 0;
}

int tf_device_attr_write(const struct tf_device *d, const char *attr, const char *value,
			 struct tf_err *err)
{
	char path[PATH_MAX];
	int r;

	tf_snprintf(path, sizeof(path), "%s/%s", d->syspath, attr);
	r = tf_write_attr(path, value);
	if (r < 0)
		return tf_err_set(err, -r, "writing %s: %s", attr, strerror(-r));
	return 0;
}

int tf_device_wait_bound(struct tf_device *d, int timeout_ms, int settle_ms, struct tf_err *err)
{
	uint64_t end = tf_now_ms() + (uint64_t)timeout_ms, since = 0;
	char last[64] = "";

	for (;;) {
		uint64_t now = tf_now_ms();

		tf_device_refresh(d);
		if (d->driver[0]) {
			if (strcmp(last, d->driver)) {
				tf_snprintf(last, sizeof(last), "%s", d->driver);
				since = now;
			} else if (now - since >= (uint64_t)settle_ms) {
				return 0;
			}
		} else {
			last[0] = '\0';
		}
		if (now >= end)
			return tf_err_set(err, ETIMEDOUT,
					  "no driver finished binding within %d ms",
					  timeout_ms);
		tf_sleep_us(20000);
	}
}
