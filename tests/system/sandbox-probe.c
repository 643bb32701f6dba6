// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sandbox-probe: run as ExecStart of touchfw@probe.service (the shipped
 * unit with only ExecStart replaced by a drop-in) inside the VM, it does
 * each thing the agent needs from its sandbox, and a few the sandbox must
 * refuse, and prints one line per check ("probe: ok ..." / "probe: FAIL
 * ..."), exiting 0 only when every check passed.  What it does mirrors the
 * agent: read the kernel command line (the off switch), readlink
 * /proc/self/exe (the front end finds its agent), open /dev/i2c-N and issue
 * I2C_RDWR and SMBus transfers, unbind and bind a driver through sysfs
 * while a libudev monitor (source "udev") receives the events, write a
 * driver's device attribute and firmware_class.path, write its state
 * directories; and no IP sockets, no other devices, no writes elsewhere.
 *
 *   sandbox-probe ADAPTER-NAME ADDRESS DRIVER ATTRIBUTE
 *     e.g. sandbox-probe "SMBus stub driver" 0x50 at24 eeprom
 * (the adapter by name, as board profiles name it, so that a unit file
 * written before boot can name the device).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <dirent.h>
#include <unistd.h>

#include <libudev.h>

static int fails;

static void report(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("probe: %s ", ok ? "ok  " : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	if (!ok)
		fails++;
}

static int write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	if (n < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

static ssize_t read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

static int create_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		return -errno;
	close(fd);
	unlink(path);
	return 0;
}

static int driver_of(const char *dev, char *buf, size_t size)
{
	char link[256], target[256];
	ssize_t n;
	const char *slash;

	snprintf(link, sizeof(link), "/sys/bus/i2c/devices/%s/driver", dev);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0) {
		buf[0] = '\0';
		return -errno;
	}
	target[n] = '\0';
	slash = strrchr(target, '/');
	slash = slash ? slash + 1 : target;
	if (strlen(slash) >= size)
		return -ENAMETOOLONG;
	memcpy(buf, slash, strlen(slash) + 1);
	return 0;
}

/* Wait up to 5 s for a udev event ACTION on DEV from the monitor. */
static int wait_udev_event(struct udev_monitor *mon, const char *action, const char *dev)
{
	struct pollfd p = { .fd = udev_monitor_get_fd(mon), .events = POLLIN };
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct udev_device *d;
		long ms;

		clock_gettime(CLOCK_MONOTONIC, &t);
		ms = 5000 -
		     ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (ms <= 0 || poll(&p, 1, (int)ms) <= 0)
			return -ETIMEDOUT;
		d = udev_monitor_receive_device(mon);
		if (!d)
			continue;
		if (!strcmp(udev_device_get_action(d) ?: "", action) &&
		    !strcmp(udev_device_get_sysname(d) ?: "", dev)) {
			udev_device_unref(d);
			return 0;
		}
		udev_device_unref(d);
	}
}

static void check_i2c(const char *bus, const char *dev)
{
	char path[64];
	unsigned addr = (unsigned)strtoul(strchr(dev, '-') + 1, NULL, 16);
	unsigned char reg = 0, val = 0;
	struct i2c_msg msgs[2] = {
		{ .addr = (unsigned short)addr, .flags = 0, .len = 1, .buf = &reg },
		{ .addr = (unsigned short)addr, .flags = I2C_M_RD, .len = 1, .buf = &val },
	};
	struct i2c_rdwr_ioctl_data rdwr = { .msgs = msgs, .nmsgs = 2 };
	union i2c_smbus_data data;
	struct i2c_smbus_ioctl_data smbus = {
		.read_write = I2C_SMBUS_READ,
		.command = 0,
		.size = I2C_SMBUS_BYTE_DATA,
		.data = &data,
	};
	int fd, r;

	snprintf(path, sizeof(path), "/dev/i2c-%s", bus);
	fd = open(path, O_RDWR | O_CLOEXEC);
	report(fd >= 0, "open %s read-write (%s)", path, fd >= 0 ? "opened" : strerror(errno));
	if (fd < 0)
		return;
	/* i2c-stub has no master_xfer: the adapter itself answers
	 * EOPNOTSUPP, which proves the ioctl got through the sandbox (the
	 * seccomp filter would answer EPERM). */
	r = ioctl(fd, I2C_RDWR, &rdwr);
	report(r >= 0 || errno == EOPNOTSUPP, "I2C_RDWR reaches the adapter (%s)",
	       r >= 0 ? "transferred" : strerror(errno));
	r = ioctl(fd, I2C_SLAVE_FORCE, (unsigned long)addr);
	report(r == 0, "I2C_SLAVE_FORCE 0x%02x (%s)", addr, r == 0 ? "set" : strerror(errno));
	r = ioctl(fd, I2C_SMBUS, &smbus);
	report(r == 0, "SMBus read byte data at 0x%02x (%s)", addr,
	       r == 0 ? "read" : strerror(errno));
	close(fd);
}

static void check_bind(const char *dev, const char *driver)
{
	struct udev *udev = udev_new();
	struct udev_monitor *mon = udev ? udev_monitor_new_from_netlink(udev, "udev") : NULL;
	char path[256], drv[64];
	int r;

	report(mon && udev_monitor_filter_add_match_subsystem_devtype(mon, "i2c", NULL) >= 0 &&
		       udev_monitor_enable_receiving(mon) >= 0,
	       "a libudev monitor (source \"udev\") listens");
	if (!mon)
		return;
	snprintf(path, sizeof(path), "/sys/bus/i2c/drivers/%s/unbind", driver);
	r = write_file(path, dev, strlen(dev));
	report(r == 0, "write %s to %s (%s)", dev, path, r ? strerror(-r) : "written");
	report(driver_of(dev, drv, sizeof(drv)) < 0, "the driver link is gone after unbind");
	r = wait_udev_event(mon, "unbind", dev);
	report(r == 0, "udev's unbind event for %s arrives (%s)", dev,
	       r ? strerror(-r) : "received");
	snprintf(path, sizeof(path), "/sys/bus/i2c/drivers/%s/bind", driver);
	r = write_file(path, dev, strlen(dev));
	report(r == 0, "write %s to %s (%s)", dev, path, r ? strerror(-r) : "written");
	report(driver_of(dev, drv, sizeof(drv)) == 0 && !strcmp(drv, driver),
	       "driver %s is bound again", driver);
	r = wait_udev_event(mon, "bind", dev);
	report(r == 0, "udev's bind event for %s arrives (%s)", dev,
	       r ? strerror(-r) : "received");
	udev_monitor_unref(mon);
	udev_unref(udev);
}

static void check_attribute(const char *dev, const char *attr)
{
	char path[256], buf[8];
	ssize_t n;
	int r;

	/* /sys/bus/i2c/devices/DEV is a link into /sys/devices. */
	snprintf(path, sizeof(path), "/sys/bus/i2c/devices/%s/%s", dev, attr);
	r = write_file(path, "T", 1);
	n = read_file(path, buf, 2);
	report(r == 0 && n == 1 && buf[0] == 'T', "write the driver attribute %s (%s)", path,
	       r ? strerror(-r) : "written and read back");
}

static void check_firmware_class_path(void)
{
	static const char param[] = "/sys/module/firmware_class/parameters/path";
	static const char staged[] = "/run/touchfw/firmware";
	char old[256], now[256];
	ssize_t n = read_file(param, old, sizeof(old));
	int r;

	if (n > 0 && old[n - 1] == '\n')
		old[--n] = '\0';
	r = write_file(param, staged, strlen(staged));
	read_file(param, now, sizeof(now));
	report(r == 0 && !strncmp(now, staged, strlen(staged)), "write %s (%s)", param,
	       r ? strerror(-r) : "written and read back");
	write_file(param, n > 0 ? old : "", n > 0 ? (size_t)n : 0);
}

static void check_files(void)
{
	static const char *const writable[] = {
		"/run/touchfw/probe",
		"/run/touchfw/firmware/probe",
		"/var/lib/touchfw/probe",
		"/tmp/probe",
	};
	static const char *const readonly[] = {
		"/etc/probe",
		"/usr/probe",
		"/run/probe",
		"/var/probe",
	};
	char buf[4096];
	size_t i;
	int r;

	mkdir("/run/touchfw/firmware", 0700);
	for (i = 0; i < sizeof(writable) / sizeof(writable[0]); i++) {
		r = create_file(writable[i]);
		report(r == 0, "create %s (%s)", writable[i], r ? strerror(-r) : "created");
	}
	rmdir("/run/touchfw/firmware");
	for (i = 0; i < sizeof(readonly) / sizeof(readonly[0]); i++) {
		r = create_file(readonly[i]);
		report(r == -EROFS, "create %s is refused with EROFS (%s)", readonly[i],
		       r ? strerror(-r) : "created!");
	}
	report(read_file("/proc/cmdline", buf, sizeof(buf)) > 0, "read /proc/cmdline");
}

static void check_denied(void)
{
	static const int families[] = { AF_INET, AF_INET6, AF_PACKET };
	static const char *const names[] = { "AF_INET", "AF_INET6", "AF_PACKET" };
	size_t i;
	int fd;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		fd = socket(families[i], SOCK_DGRAM | SOCK_CLOEXEC, 0);
		report(fd < 0 && errno == EAFNOSUPPORT, "socket(%s) is refused (%s)", names[i],
		       fd < 0 ? strerror(errno) : "created!");
		if (fd >= 0)
			close(fd);
	}
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, 15 /* NETLINK_KOBJECT_UEVENT */);
	report(fd >= 0, "socket(AF_NETLINK) works (%s)", fd >= 0 ? "created" : strerror(errno));
	if (fd >= 0)
		close(fd);
	/* A device outside DeviceAllow=: the device cgroup refuses it. */
	fd = open("/dev/port", O_RDONLY | O_CLOEXEC);
	report(fd < 0 && errno == EPERM, "open /dev/port is refused with EPERM (%s)",
	       fd < 0 ? strerror(errno) : "opened!");
	if (fd >= 0)
		close(fd);
	/* ProtectKernelTunables=: the rest of /sys and /proc/sys stay read-only. */
	fd = write_file("/proc/sys/kernel/hostname", "x", 1);
	report(fd == -EROFS, "write /proc/sys/kernel/hostname is refused with EROFS (%s)",
	       fd ? strerror(-fd) : "written!");
	fd = write_file("/sys/module/printk/parameters/time", "1", 1);
	report(fd == -EROFS,
	       "write /sys/module/printk/parameters/time is refused with EROFS (%s)",
	       fd ? strerror(-fd) : "written!");
}

static void check_self(void)
{
	char exe[4096], buf[4096], *p;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	report(n > 0, "readlink /proc/self/exe (%s)",
	       n > 0 ? (exe[n] = '\0', exe) : strerror(errno));
	if (read_file("/proc/self/status", buf, sizeof(buf)) > 0 &&
	    (p = strstr(buf, "CapBnd:")))
		report(strtoull(p + 7, NULL, 16) == 0,
		       "no capabilities in the bounding set (%.*s)", (int)strcspn(p, "\n"), p);
	else
		report(0, "read CapBnd from /proc/self/status");
	report(getuid() == 0, "runs as uid 0 (uid %u)", (unsigned)getuid());
}

/* The number of the i2c adapter called NAME, or -1. */
static int adapter_by_name(const char *name)
{
	DIR *d = opendir("/sys/bus/i2c/devices");
	struct dirent *e;
	char path[300], buf[64];
	int nr = -1;

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "i2c-", 4))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/i2c/devices/%s/name", e->d_name);
		if (read_file(path, buf, sizeof(buf)) > 0) {
			buf[strcspn(buf, "\n")] = '\0';
			if (!strcmp(buf, name)) {
				nr = atoi(e->d_name + 4);
				break;
			}
		}
	}
	if (d)
		closedir(d);
	return nr;
}

int main(int argc, char **argv)
{
	char bus[16], dev[32];
	int nr;

	if (argc != 5) {
		fprintf(stderr, "usage: sandbox-probe ADAPTER-NAME ADDRESS DRIVER ATTRIBUTE\n");
		return 2;
	}
	nr = adapter_by_name(argv[1]);
	report(nr >= 0, "find the i2c adapter \"%s\" (i2c-%d)", argv[1], nr);
	if (nr < 0)
		return 1;
	snprintf(bus, sizeof(bus), "%d", nr);
	snprintf(dev, sizeof(dev), "%d-%04lx", nr, strtoul(argv[2], NULL, 16));
	check_self();
	check_files();
	check_denied();
	check_i2c(bus, dev);
	check_attribute(dev, argv[4]);
	check_firmware_class_path();
	check_bind(dev, argv[3]);
	printf("probe: %d failed\n", fails);
	return fails ? 1 : 0;
}
