// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * evdev-query: what the VM scenarios need to know about an input device that
 * sysfs does not say: the range of an absolute axis (EVIOCGABS), and the
 * events the device delivers (read(2) on the evdev node).  The guest image
 * has no evtest; this is small enough to carry.
 *
 *   evdev-query DEV abs CODE               prints "MIN MAX" of axis CODE
 *   evdev-query DEV events COUNT TIMEOUT_MS [READY_FILE]
 *        prints "TYPE CODE VALUE" for each event up to COUNT (EV_SYN
 *        included) or until TIMEOUT_MS pass without one; creates
 *        READY_FILE once the device is open, so a caller can then make
 *        the events happen.  Exit 0 when COUNT events came, 1 otherwise.
 *
 * CODE is a number (ABS_MT_POSITION_X is 53, ABS_MT_POSITION_Y 54).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: evdev-query DEV abs CODE\n"
			"       evdev-query DEV events COUNT TIMEOUT_MS [READY_FILE]\n");
	return 2;
}

static int number(const char *s, const char *what, long max, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 0);
	if (errno || end == s || *end || *out < 0 || *out > max) {
		fprintf(stderr, "evdev-query: %s \"%s\" is not a number 0..%ld\n", what, s,
			max);
		return -1;
	}
	return 0;
}

static int query_abs(int fd, const char *dev, const char *code_s)
{
	struct input_absinfo ai;
	long code;

	if (number(code_s, "axis code", ABS_MAX, &code))
		return 2;
	if (ioctl(fd, EVIOCGABS(code), &ai) < 0) {
		fprintf(stderr, "evdev-query: %s: EVIOCGABS(%ld): %s\n", dev, code,
			strerror(errno));
		return 1;
	}
	printf("%d %d\n", ai.minimum, ai.maximum);
	return 0;
}

static int read_events(int fd, const char *dev, const char *count_s, const char *timeout_s,
		       const char *ready)
{
	long count, timeout, seen = 0;

	if (number(count_s, "event count", 100000, &count) ||
	    number(timeout_s, "timeout", 600000, &timeout))
		return 2;
	if (ready) {
		int rfd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (rfd < 0) {
			fprintf(stderr, "evdev-query: %s: %s\n", ready, strerror(errno));
			return 2;
		}
		close(rfd);
	}
	while (seen < count) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct input_event ev;
		ssize_t n;
		int r = poll(&p, 1, (int)timeout);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fprintf(stderr, "evdev-query: %s: poll: %s\n", dev, strerror(errno));
			return 1;
		}
		if (r == 0)
			break;
		n = read(fd, &ev, sizeof(ev));
		if (n != (ssize_t)sizeof(ev)) {
			fprintf(stderr, "evdev-query: %s: read: %s\n", dev,
				n < 0 ? strerror(errno) : "short event");
			return 1;
		}
		printf("%u %u %d\n", ev.type, ev.code, ev.value);
		fflush(stdout);
		seen++;
	}
	return seen == count ? 0 : 1;
}

int main(int argc, char **argv)
{
	int fd, r;

	if (argc < 4)
		return usage();
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "evdev-query: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (!strcmp(argv[2], "abs") && argc == 4)
		r = query_abs(fd, argv[1], argv[3]);
	else if (!strcmp(argv[2], "events") && (argc == 5 || argc == 6))
		r = read_events(fd, argv[1], argv[3], argv[4], argc == 6 ? argv[5] : NULL);
	else
		r = usage();
	close(fd);
	return r;
}
