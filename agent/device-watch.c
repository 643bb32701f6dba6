// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Watching for a controller's input device (see device.h): the input
 * nodes present before a bind are remembered, then a udev monitor (or a
 * sysfs rescan when no uevent comes) reports the first new one; and the
 * axis ranges of an event node, for the check after an update.
 */
#include "device.h"

#include <errno.h>
#include <fcntl.h>
#include <libudev.h>
#include <linux/input.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event.h"
#include "state.h"

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
		return tf_err_set(err, EIO, "can not listen to %s uevents", source);
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

int tf_input_watch_wait(struct tf_input_watch *w, int timeout_ms, struct tf_input_node *node,
			struct tf_err *err)
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
			return tf_err_set(err, ENODEV, "the device went away");
		if (tf_stop_requested())
			return tf_err_set(err, EINTR,
					  "stopped by signal %d while waiting "
					  "for the input device",
					  tf_stop_requested());
		now = tf_now_ms();
		if (now >= end)
			return tf_err_set(err, ETIMEDOUT, "no new input device within %d ms",
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
	_cleanup_close_ int fd = -1;
	int r;

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
		return tf_err_set(err, r, "%s: EVIOCGABS(0x%02x): %s", path, axis, strerror(r));
	}
	*min = ai.minimum;
	*max = ai.maximum;
	return 0;
}
