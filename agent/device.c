// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysfs and udev side of a controller (see device.h).  Facts used: the
 * driver core's bind/unbind files take the device name; a real write to
 * bind is synchronous and returns probe's error, while emulated ones return
 * at once, so success is judged afterwards from the driver link and the
 * input device; firmware_class.path is searched before /lib/firmware and
 * must be written without a trailing newline (Linux 6.1 keeps it).
 */
#include "device.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libudev.h>
#include <linux/input.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "event.h"
#include "state.h"

static int read_link_tail(const char *path, char *buf, size_t size)
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

void tf_device_refresh(struct tf_device *d)
{
	char path[PATH_MAX + 16];

	tf_snprintf(path, sizeof(path), "%s/driver", d->syspath);
	if (read_link_tail(path, d->driver, sizeof(d->driver)) < 0)
		d->driver[0] = '\0';
}

/* "3-004a" -> adapter 3, address 0x4a (i2c_dev_set_name's format). */
static bool parse_i2c_name(const char *name, int *nr, uint16_t *addr)
{
	unsigned a, n;
	char tail;

	if (sscanf(name, "%u-%4x%c", &n, &a, &tail) != 2 || strlen(name) < 6 ||
	    a > 0x3ff)
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
		return tf_err_set(err, ENODEV, "%s: no such i2c or spi device in /sys/bus",
				  name);
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
			return tf_err_set(err, ENODEV, "%s: can not tell its i2c adapter", name);
		tf_snprintf(adir, sizeof(adir), "/sys/bus/i2c/devices/i2c-%d", d->adapter_nr);
		tf_snprintf(path, sizeof(path), "%s/name", adir);
		tf_read_attr(path, d->adapter_name, sizeof(d->adapter_name));
		adapter_of_path(adir, d->adapter_of_path, sizeof(d->adapter_of_path));
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

static int driver_file(const struct tf_device *d, const char *driver,
		       const char *file, const char *what, struct tf_err *err)
{
	char path[PATH_MAX];
	int r;

	if (!tf_devname_valid(driver))
		return tf_err_set(err, EINVAL, "%s: bad driver name '%s'", d->name, driver);
	tf_snprintf(path, sizeof(path), "/sys/bus/%s/drivers/%s/%s", d->subsys, driver, file);
	r = tf_write_attr(path, d->name);
	if (r < 0)
		return tf_err_set(err, -r, "%s: %s driver %s: %s", d->name, what, driver,
				  strerror(-r));
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
		return tf_err_set(err, ETIMEDOUT, "%s: driver %s still bound %d ms after unbind",
				  d->name, drv, TF_UNBIND_TIMEOUT_MS);
	return 0;
}

int tf_device_bind(struct tf_device *d, const char *driver, struct tf_err *err)
{
	int r = driver_file(d, driver, "bind", "binding", err);

	if (r < 0)
		return r;
	if (!wait_link(d, true, TF_BIND_TIMEOUT_MS))
		return tf_err_set(err, ENODEV, "%s: driver %s did not bind within %d ms "
				  "(its probe failed?)", d->name, driver, TF_BIND_TIMEOUT_MS);
	return 0;
}

int tf_device_attr_write(const struct tf_device *d, const char *attr,
			 const char *value, struct tf_err *err)
{
	char path[PATH_MAX];
	int r;

	tf_snprintf(path, sizeof(path), "%s/%s", d->syspath, attr);
	r = tf_write_attr(path, value);
	if (r < 0)
		return tf_err_set(err, -r, "%s: writing %s: %s", d->name, attr, strerror(-r));
	return 0;
}

int tf_device_attr_read(const struct tf_device *d, const char *attr, char *buf,
			size_t size)
{
	char path[PATH_MAX];

	tf_snprintf(path, sizeof(path), "%s/%s", d->syspath, attr);
	return tf_read_attr(path, buf, size);
}

int tf_device_wait_bound(struct tf_device *d, int timeout_ms, int settle_ms,
			 struct tf_err *err)
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
					  "%s: no driver finished binding within %d ms",
					  d->name, timeout_ms);
		tf_sleep_us(20000);
	}
}

/* ------------------------------------------------------------ input watch */

struct tf_input_watch {
	struct udev *udev;
	struct udev_monitor *mon;
	char syspath[PATH_MAX];
	char subsys[8], name[64];
	int n_before;
	struct tf_input_node before[TF_MAX_INPUTS];
};

int tf_input_watch_start(const struct tf_device *d, struct tf_input_watch **out,
			 struct tf_err *err)
{
	struct tf_input_watch *w = calloc(1, sizeof(*w));
	const char *source;

	if (!w)
		return -ENOMEM;
	tf_snprintf(w->syspath, sizeof(w->syspath), "%s", d->syspath);
	tf_snprintf(w->subsys, sizeof(w->subsys), "%s", d->subsys);
	tf_snprintf(w->name, sizeof(w->name), "%s", d->name);
	w->udev = udev_new();
	if (!w->udev) {
		free(w);
		return tf_err_set(err, ENOMEM, "libudev: udev_new failed");
	}
	/* With udevd running, its processed events; without, the kernel's. */
	source = access("/run/udev/control", F_OK) == 0 ? "udev" : "kernel";
	w->mon = udev_monitor_new_from_netlink(w->udev, source);
	if (!w->mon ||
	    udev_monitor_filter_add_match_subsystem_devtype(w->mon, "input", NULL) < 0 ||
	    udev_monitor_enable_receiving(w->mon) < 0) {
		tf_input_watch_free(w);
		return tf_err_set(err, EIO, "%s: can not listen to %s uevents", d->name, source);
	}
	/* Subscribed first, then the snapshot: nothing can fall in between. */
	w->n_before = tf_sysfs_inputs(d->subsys, d->name, w->before, TF_MAX_INPUTS);
	if (w->n_before < 0)
		w->n_before = 0;
	*out = w;
	return 0;
}

static bool seen_before(const struct tf_input_watch *w, const char *input)
{
	int i;

	for (i = 0; i < w->n_before; i++)
		if (!strcmp(w->before[i].input, input))
			return true;
	return false;
}

/* A new input with an event node, found in sysfs? */
static int scan_new(struct tf_input_watch *w, struct tf_input_node *node)
{
	struct tf_input_node now[TF_MAX_INPUTS];
	struct stat sb;
	int i, n = tf_sysfs_inputs(w->subsys, w->name, now, TF_MAX_INPUTS);

	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		if (!seen_before(w, now[i].input) && now[i].event[0]) {
			*node = now[i];
			return 1;
		}
	if (lstat(w->syspath, &sb) < 0)
		return -ENODEV;
	return 0;
}

int tf_input_watch_wait(struct tf_input_watch *w, int timeout_ms,
			struct tf_input_node *node, struct tf_err *err)
{
	uint64_t end = tf_now_ms() + (uint64_t)timeout_ms;
	struct pollfd pfd = { .fd = udev_monitor_get_fd(w->mon), .events = POLLIN };
	int r;

	for (;;) {
		uint64_t now;

		r = scan_new(w, node);
		if (r == 1)
			return 0;
		if (r == -ENODEV)
			return tf_err_set(err, ENODEV, "%s: the device went away", w->name);
		if (tf_stop_requested())
			return tf_err_set(err, EINTR, "%s: stopped by signal %d while waiting "
					  "for the input device", w->name, tf_stop_requested());
		now = tf_now_ms();
		if (now >= end)
			return tf_err_set(err, ETIMEDOUT,
					  "%s: no new input device within %d ms", w->name,
					  timeout_ms);
		/* Wake on any input event, and at least every 250 ms in case
		 * events are not delivered here (no udevd, containers). */
		r = poll(&pfd, 1, (int)((end - now) < 250 ? (end - now) : 250));
		if (r > 0) {
			struct udev_device *ud = udev_monitor_receive_device(w->mon);

			if (ud)
				udev_device_unref(ud);
		}
	}
}

void tf_input_watch_free(struct tf_input_watch *w)
{
	if (!w)
		return;
	if (w->mon)
		udev_monitor_unref(w->mon);
	if (w->udev)
		udev_unref(w->udev);
	free(w);
}

int tf_input_abs_range(const char *event, unsigned axis, int32_t *min, int32_t *max,
		       struct tf_err *err)
{
	struct input_absinfo ai;
	char path[PATH_MAX];
	int fd, r;

	if (!tf_devname_valid(event) || strncmp(event, "event", 5) || axis > ABS_MAX)
		return tf_err_set(err, EINVAL, "'%s' is not an event node", event);
	tf_snprintf(path, sizeof(path), "/dev/input/%s", event);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		r = errno;
		return tf_err_set(err, r, "%s: %s", path, strerror(r));
	}
	memset(&ai, 0, sizeof(ai));
	r = ioctl(fd, EVIOCGABS(axis), &ai);
	if (r < 0) {
		r = errno;
		close(fd);
		return tf_err_set(err, r, "%s: EVIOCGABS(0x%02x): %s", path, axis,
				  strerror(r));
	}
	close(fd);
	*min = ai.minimum;
	*max = ai.maximum;
	return 0;
}

/* ------------------------------------------------------------ firmware */

static void expand_release(const char *in, char *out, size_t size)
{
	struct utsname u;
	const char *p = strstr(in, "%r");

	if (!p || uname(&u) < 0) {
		tf_snprintf(out, size, "%s", in);
		return;
	}
	tf_snprintf(out, size, "%.*s%s%s", (int)(p - in), in, u.release, p + 2);
}

int tf_firmware_find(const char (*dirs)[256], unsigned n, const char *class_param,
		     const char *name, char *out, size_t size)
{
	char custom[256] = "", dir[512];
	struct stat sb;
	unsigned i;

	/* firmware_class.path first, as the kernel searches it first. */
	if (class_param && tf_read_attr(class_param, custom, sizeof(custom)) == 0 &&
	    custom[0]) {
		if (tf_snprintf(out, size, "%s/%s", custom, name) == 0 &&
		    stat(out, &sb) == 0 && S_ISREG(sb.st_mode))
			return 0;
	}
	for (i = 0; i < n; i++) {
		expand_release(dirs[i], dir, sizeof(dir));
		if (tf_snprintf(out, size, "%s/%s", dir, name) == 0 &&
		    stat(out, &sb) == 0 && S_ISREG(sb.st_mode))
			return 0;
	}
	return -ENOENT;
}

int tf_fw_stage(struct tf_fw_stage *st, const char *param, const char *state_dir,
		const char *dev, const char *name, const uint8_t *data, size_t len,
		struct tf_err *err)
{
	struct tf_state sd;
	size_t done = 0;
	int fd, r;

	memset(st, 0, sizeof(*st));
	st->lock_fd = st->dir_fd = st->sub_fd = -1;
	tf_snprintf(st->param, sizeof(st->param), "%s", param);
	if (tf_snprintf(st->dir, sizeof(st->dir), "%s/firmware", state_dir) ||
	    tf_snprintf(st->name, sizeof(st->name), "%s", name) ||
	    tf_snprintf(st->file, sizeof(st->file), "%s/%s", st->dir, name))
		return tf_err_set(err, ENAMETOOLONG, "state directory path too long");
	/* The state directory and its firmware/ are checked like every state
	 * file's (state.h): a symlink planted there must not make touchfw
	 * write or unlink firmware files elsewhere. */
	r = tf_state_open(&sd, state_dir, true, err);
	if (r < 0)
		return r;
	/* One staged update at a time: the search path is global. */
	st->lock_fd = tf_state_open_file(sd.dirfd, state_dir, "firmware_class.lock",
					 O_RDWR | O_CREAT, err);
	if (st->lock_fd >= 0 && flock(st->lock_fd, LOCK_EX) < 0) {
		r = -errno;
		tf_state_close(&sd);
		tf_fw_unstage(st);
		return tf_err_set(err, -r, "%s/firmware_class.lock: %s", state_dir,
				  strerror(-r));
	}
	if (st->lock_fd < 0) {
		r = st->lock_fd;
		tf_state_close(&sd);
		tf_fw_unstage(st);
		return r;
	}
	st->dir_fd = tf_state_subdir(sd.dirfd, state_dir, "firmware", true, err);
	tf_state_close(&sd);
	if (st->dir_fd < 0) {
		r = st->dir_fd;
		tf_fw_unstage(st);
		return r;
	}
	if (tf_read_attr(param, st->saved, sizeof(st->saved)) < 0) {
		tf_fw_unstage(st);
		return tf_err_set(err, ENOENT, "%s: can not read the firmware search path "
				  "(kernel without firmware_class?)", param);
	}
	(void)dev;
	/* Drivers request names with one directory ("vendor/file.fw"): that
	 * subdirectory is made in touchfw's directory, checked likewise. */
	st->base = strrchr(st->name, '/');
	if (st->base) {
		char sub[128];

		tf_snprintf(sub, sizeof(sub), "%.*s", (int)(st->base - st->name), st->name);
		st->base++;
		if (!sub[0] || strchr(sub, '/') || !strcmp(sub, ".") || !strcmp(sub, "..") ||
		    !st->base[0] || !strcmp(st->base, "..")) {
			tf_fw_unstage(st);
			return tf_err_set(err, EINVAL, "'%s': not a file name with at most one "
					  "directory", name);
		}
		st->sub_fd = tf_state_subdir(st->dir_fd, st->dir, sub, true, err);
		if (st->sub_fd < 0) {
			r = st->sub_fd;
			tf_fw_unstage(st);
			return r;
		}
	} else {
		st->base = st->name;
	}
	unlinkat(st->sub_fd >= 0 ? st->sub_fd : st->dir_fd, st->base, 0);
	fd = tf_state_open_file(st->sub_fd >= 0 ? st->sub_fd : st->dir_fd, st->dir, st->base,
				O_WRONLY | O_CREAT | O_EXCL, err);
	if (fd < 0) {
		tf_fw_unstage(st);
		return fd;
	}
	r = 0;
	while (done < len && !r) {
		ssize_t w = write(fd, data + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			r = w < 0 ? errno : EIO;
		else
			done += (size_t)w;
	}
	if (close(fd) < 0 && !r)
		r = errno;
	if (r) {
		unlinkat(st->sub_fd >= 0 ? st->sub_fd : st->dir_fd, st->base, 0);
		tf_fw_unstage(st);
		return tf_err_set(err, r, "%s: %s", st->file, strerror(r));
	}
	r = tf_write_attr(param, st->dir);
	if (r < 0) {
		unlinkat(st->sub_fd >= 0 ? st->sub_fd : st->dir_fd, st->base, 0);
		tf_fw_unstage(st);
		return tf_err_set(err, -r, "%s: %s", param, strerror(-r));
	}
	st->active = true;
	return 0;
}

/* tf_fw_repair's removal of stale files staged in @dir/@sub; how many. */
static int repair_subdir(int dfd, const char *dir, const char *sub, char *what, size_t size,
			 size_t *used, int n0)
{
	int fd = openat(dfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), n = 0;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((e = readdir(d))) {
		struct stat sb;

		if (e->d_name[0] == '.' ||
		    fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0 ||
		    S_ISDIR(sb.st_mode) || unlinkat(dirfd(d), e->d_name, 0) < 0)
			continue;
		if (*used < size)
			*used += (size_t)snprintf(what + *used, size - *used,
						  "%sremoved the stale %s/%s/%s",
						  n0 + n ? "; " : "", dir, sub, e->d_name);
		n++;
	}
	closedir(d);
	return n;
}

int tf_fw_repair(const char *param, const char *state_dir, char *what, size_t size)
{
	struct tf_state sd;
	char dir[300], cur[300];
	int lock_fd, dfd, n = 0;
	size_t used = 0;
	DIR *d;

	what[0] = '\0';
	if (tf_snprintf(dir, sizeof(dir), "%s/firmware", state_dir))
		return 0;
	if (tf_state_open(&sd, state_dir, false, NULL) < 0)
		return 0;
	lock_fd = tf_state_open_file(sd.dirfd, state_dir, "firmware_class.lock",
				     O_RDWR | O_CREAT, NULL);
	/* Held: another run is staging right now; nothing is stale. */
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX | LOCK_NB) < 0) {
		if (lock_fd >= 0)
			close(lock_fd);
		tf_state_close(&sd);
		return 0;
	}
	if (tf_read_attr(param, cur, sizeof(cur)) == 0) {
		size_t l = strlen(cur);

		while (l > 1 && cur[l - 1] == '/')
			cur[--l] = '\0';
		if (!strcmp(cur, dir) && tf_write_attr(param, "\n") == 0) {
			used += (size_t)snprintf(what, size, "%s pointed at %s: reset to empty",
						 param, dir);
			n++;
		}
	}
	dfd = tf_state_subdir(sd.dirfd, state_dir, "firmware", false, NULL);
	d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d && dfd >= 0)
		close(dfd);
	if (d) {
		struct dirent *e;

		while ((e = readdir(d))) {
			struct stat sb;

			if (e->d_name[0] == '.' ||
			    fstatat(dirfd(d), e->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			if (S_ISDIR(sb.st_mode)) {
				/* a staged "vendor/file": files one level down */
				n += repair_subdir(dirfd(d), dir, e->d_name, what, size, &used, n);
				continue;
			}
			if (unlinkat(dirfd(d), e->d_name, 0) < 0)
				continue;
			if (used < size)
				used += (size_t)snprintf(what + used, size - used,
							 "%sremoved the stale %s/%s",
							 n ? "; " : "", dir, e->d_name);
			n++;
		}
		closedir(d);
	}
	close(lock_fd);
	tf_state_close(&sd);
	return n;
}

void tf_fw_unstage(struct tf_fw_stage *st)
{
	if (st->active) {
		/* An empty string can not be written to a sysfs parameter;
		 * a single newline resets firmware_class.path to empty. */
		tf_write_attr(st->param, st->saved[0] ? st->saved : "\n");
		unlinkat(st->sub_fd >= 0 ? st->sub_fd : st->dir_fd, st->base, 0);
		st->active = false;
	}
	if (st->sub_fd >= 0)
		close(st->sub_fd);
	if (st->dir_fd >= 0)
		close(st->dir_fd);
	if (st->lock_fd >= 0)
		close(st->lock_fd);
	st->lock_fd = st->dir_fd = st->sub_fd = -1;
}
