// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libemuboard-gpiod.so: an LD_PRELOAD shim that serves the kernel's GPIO
 * line requests on an emulated board, beneath any libgpiod -- 1.6 (uAPI
 * v1) and 2.x (uAPI v2) alike -- so touchfw's agent, built against either,
 * and libgpiod's tools run their real library code there.
 *
 * umockdev emulates /dev/gpiochip0's chip and line information ioctls
 * (tests/emul/host/gpio.c), so libgpiod opens the chip, finds lines and
 * reads their names and consumers by itself.  Two things it can not do
 * under umockdev, and this shim does:
 *
 * - A line request (GPIO_GET_LINEHANDLE_IOCTL, GPIO_GET_LINEEVENT_IOCTL,
 *   GPIO_V2_GET_LINE_IOCTL on the chip's fd) returns a new file
 *   descriptor, which umockdev can not emulate.  Here the request goes to
 *   the emuboard's GPIO socket, $UMOCKDEV_DIR/emuboard-gpio.sock (protocol:
 *   tests/emul/README.md, "GPIO"), and the connection is the request's fd,
 *   as the kernel gives one fd per request.  What a program then does on
 *   that fd is served as drivers/gpio/gpiolib-cdev.c serves it: the value
 *   ioctls (v1 GPIOHANDLE_{GET,SET}_LINE_VALUES_IOCTL, v2
 *   GPIO_V2_LINE_{GET,SET}_VALUES_IOCTL), poll()/ppoll() for an edge,
 *   read() of one event record (struct gpioevent_data, struct
 *   gpio_v2_line_event; logical edges, the active-low inversion applied,
 *   only the edges the request asked for), and close(), which releases the
 *   line.  A request of a chip the board does not serve (the socket answers
 *   ENODEV), or any request when there is no board socket, goes on to the
 *   next ioctl() (umockdev's, then the kernel's).  Modelled: one line per
 *   request; input or output; active low; edge detection.  Not modelled
 *   (EOPNOTSUPP, with a message): several lines in one request, the "as
 *   is" direction, drive, bias, debounce, event clocks, reconfiguring a
 *   request, and a poll() over a request's fd together with other fds.
 *   A signal does not interrupt a wait on the board (the agent waits in
 *   short slices and checks its stop flag between them).
 * - libgpiod lists /dev with scandir(), which umockdev's preload does not
 *   redirect (glibc's scandir opens the directory internally), so lookups
 *   by line name or chip label saw the host's /dev.  Inside a testbed this
 *   shim's scandir() reads the directory through opendir(), which umockdev
 *   redirects.
 *
 * It is built without sanitizers (it is loaded into every program run on
 * the board, sanitized or not) and after libasan in LD_PRELOAD when that
 * is there (emub.c).  It uses no libgpiod: only the kernel's uAPI header.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/gpio.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define SOCKET_NAME "emuboard-gpio.sock"
#define EDGE_RISING 1u	/* logical: inactive to active */
#define EDGE_FALLING 2u /* logical: active to inactive */

/* A line request served by the board: its fd is the connection. */
struct held {
	int fd;
	pid_t pid; /* the process that requested it (a forked child's copy is not) */
	unsigned int offset;
	bool v2;
	bool output;
	unsigned int edges; /* EDGE_RISING | EDGE_FALLING wanted; 0: no events */
	bool have_event;    /* a poll saw one that read() has not taken */
	bool event_rising;
	uint64_t event_ns;
	uint32_t seqno;
	struct held *next;
};

static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static struct held *held_lines;

/* The next definition of @name after this library: umockdev's, libc's. */
static void *next_sym(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "libemuboard-gpiod: %s not found: %s\n", name, dlerror());
		abort();
	}
	return f;
}

#define REAL(fn) ((__typeof__(&fn))next_sym(#fn))

static ssize_t real_read(int fd, void *buf, size_t count)
{
	static ssize_t (*f)(int, void *, size_t);

	if (!f)
		f = REAL(read);
	return f(fd, buf, count);
}

static ssize_t real_write(int fd, const void *buf, size_t count)
{
	static ssize_t (*f)(int, const void *, size_t);

	if (!f)
		f = REAL(write);
	return f(fd, buf, count);
}

static int real_ioctl(int fd, unsigned long request, void *arg)
{
	static int (*f)(int, unsigned long, ...);

	if (!f)
		f = (int (*)(int, unsigned long, ...))next_sym("ioctl");
	return f(fd, request, arg);
}

static int real_close(int fd)
{
	static int (*f)(int);

	if (!f)
		f = REAL(close);
	return f(fd);
}

static struct held *find_held(int fd)
{
	struct held *h;

	if (fd < 0)
		return NULL;
	pthread_mutex_lock(&held_lock);
	for (h = held_lines; h && h->fd != fd; h = h->next)
		;
	pthread_mutex_unlock(&held_lock);
	return h && h->pid == getpid() ? h : NULL;
}

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("libemuboard-gpiod: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A connection to the board's GPIO socket, or -1 when there is none. */
static int board_connect(void)
{
	const char *dir = getenv("UMOCKDEV_DIR");
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd;

	if (!dir || !*dir ||
	    snprintf(a.sun_path, sizeof(a.sun_path), "%s/%s", dir, SOCKET_NAME) >=
		    (int)sizeof(a.sun_path))
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		real_close(fd);
		return -1;
	}
	return fd;
}

/* Send @cmd, read one reply line.  0, or -errno if the connection failed. */
static int transact(int fd, const char *cmd, char *reply, size_t size)
{
	size_t len = strlen(cmd), n = 0;

	while (len) {
		ssize_t w = real_write(fd, cmd, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		cmd += w;
		len -= (size_t)w;
	}
	while (n + 1 < size) {
		ssize_t r = real_read(fd, reply + n, 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EPIPE;
		if (reply[n] == '\n')
			break;
		n++;
	}
	reply[n] = '\0';
	return 0;
}

/* The errno of an "ERR <errno> <text>" reply (EPROTO for anything else). */
static int reply_errno(const char *reply)
{
	int e;

	if (strncmp(reply, "ERR ", 4))
		return EPROTO;
	e = atoi(reply + 4);
	return e > 0 ? e : EIO;
}

/* A transaction on a held line; sets errno and returns -1 on failure. */
static int line_transact(struct held *h, const char *cmd, char *reply, size_t size)
{
	int r = transact(h->fd, cmd, reply, size);

	if (r) {
		errno = -r;
		return -1;
	}
	if (!strncmp(reply, "ERR ", 4)) {
		errno = reply_errno(reply);
		return -1;
	}
	return 0;
}

static void drop_held(struct held *h)
{
	struct held **p;
	char reply[64];

	pthread_mutex_lock(&held_lock);
	for (p = &held_lines; *p; p = &(*p)->next)
		if (*p == h) {
			*p = h->next;
			break;
		}
	pthread_mutex_unlock(&held_lock);
	/* Released when close() returns, as the kernel's release of a line
	 * request is: the board would release it only when its connection
	 * thread saw the close, and a request right after (this program's or
	 * another's) could still find it held. */
	transact(h->fd, "RELEASE\n", reply, sizeof(reply));
	free(h);
}

/* ------------------------------------------------------------ requests */

/* What a request asks for, from either uAPI version. */
struct line_req {
	unsigned int offset;
	bool output;
	bool value; /* outputs: the initial logical value */
	bool active_low;
	unsigned int edges;
	const char *consumer; /* GPIO_MAX_NAME_SIZE bytes, maybe unterminated */
};

/* 0, or -1 with errno set: EINVAL as gpiolib-cdev, EOPNOTSUPP not modelled. */
static int v1_handle_req(const struct gpiohandle_request *r, struct line_req *lr)
{
	const uint32_t modelled = GPIOHANDLE_REQUEST_INPUT | GPIOHANDLE_REQUEST_OUTPUT |
				  GPIOHANDLE_REQUEST_ACTIVE_LOW;

	if (r->lines != 1) {
		say("a request of %u lines is not emulated (one line per request)", r->lines);
		return errno = r->lines ? EOPNOTSUPP : EINVAL, -1;
	}
	if ((r->flags & GPIOHANDLE_REQUEST_INPUT) && (r->flags & GPIOHANDLE_REQUEST_OUTPUT))
		return errno = EINVAL, -1;
	if ((r->flags & ~modelled) || !(r->flags & modelled & ~GPIOHANDLE_REQUEST_ACTIVE_LOW)) {
		say("request flags 0x%x not emulated (input or output, active low)", r->flags);
		return errno = EOPNOTSUPP, -1;
	}
	lr->offset = r->lineoffsets[0];
	lr->output = r->flags & GPIOHANDLE_REQUEST_OUTPUT;
	lr->value = lr->output && r->default_values[0];
	lr->active_low = r->flags & GPIOHANDLE_REQUEST_ACTIVE_LOW;
	lr->edges = 0;
	lr->consumer = r->consumer_label;
	return 0;
}

static int v1_event_req(const struct gpioevent_request *r, struct line_req *lr)
{
	const uint32_t modelled = GPIOHANDLE_REQUEST_INPUT | GPIOHANDLE_REQUEST_ACTIVE_LOW;

	if (r->handleflags & GPIOHANDLE_REQUEST_OUTPUT)
		return errno = EINVAL, -1;
	if (r->handleflags & ~modelled) {
		say("request flags 0x%x not emulated (active low only)", r->handleflags);
		return errno = EOPNOTSUPP, -1;
	}
	if (r->eventflags & ~(uint32_t)GPIOEVENT_REQUEST_BOTH_EDGES)
		return errno = EINVAL, -1;
	lr->offset = r->lineoffset;
	lr->output = false;
	lr->value = false;
	lr->active_low = r->handleflags & GPIOHANDLE_REQUEST_ACTIVE_LOW;
	lr->edges = ((r->eventflags & GPIOEVENT_REQUEST_RISING_EDGE) ? EDGE_RISING : 0) |
		    ((r->eventflags & GPIOEVENT_REQUEST_FALLING_EDGE) ? EDGE_FALLING : 0);
	lr->consumer = r->consumer_label;
	return 0;
}

static int v2_req(const struct gpio_v2_line_request *r, struct line_req *lr)
{
	const uint64_t modelled = GPIO_V2_LINE_FLAG_ACTIVE_LOW | GPIO_V2_LINE_FLAG_INPUT |
				  GPIO_V2_LINE_FLAG_OUTPUT | GPIO_V2_LINE_FLAG_EDGE_RISING |
				  GPIO_V2_LINE_FLAG_EDGE_FALLING;
	const uint64_t edges = GPIO_V2_LINE_FLAG_EDGE_RISING | GPIO_V2_LINE_FLAG_EDGE_FALLING;
	uint64_t flags = r->config.flags, value = 0;

	if (r->num_lines != 1) {
		say("a request of %u lines is not emulated (one line per request)",
		    r->num_lines);
		return errno = r->num_lines ? EOPNOTSUPP : EINVAL, -1;
	}
	if (r->config.num_attrs > GPIO_V2_LINE_NUM_ATTRS_MAX)
		return errno = EINVAL, -1;
	/* the line's own flags and output value: the attributes whose mask
	 * has its bit (bit 0, the first and only line) */
	for (unsigned int i = 0; i < r->config.num_attrs; i++) {
		const struct gpio_v2_line_config_attribute *a = &r->config.attrs[i];

		if (!(a->mask & 1))
			continue;
		if (a->attr.id == GPIO_V2_LINE_ATTR_ID_FLAGS) {
			flags = a->attr.flags;
		} else if (a->attr.id == GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES) {
			value = a->attr.values & 1;
		} else if (a->attr.id == GPIO_V2_LINE_ATTR_ID_DEBOUNCE) {
			say("debounce not emulated");
			return errno = EOPNOTSUPP, -1;
		} else {
			return errno = EINVAL, -1;
		}
	}
	/* gpio_v2_line_flags_validate() */
	if ((flags & GPIO_V2_LINE_FLAG_INPUT) && (flags & GPIO_V2_LINE_FLAG_OUTPUT))
		return errno = EINVAL, -1;
	if ((flags & edges) && !(flags & GPIO_V2_LINE_FLAG_INPUT))
		return errno = EINVAL, -1;
	if ((flags & ~modelled) ||
	    !(flags & (GPIO_V2_LINE_FLAG_INPUT | GPIO_V2_LINE_FLAG_OUTPUT))) {
		say("line flags 0x%llx not emulated (input or output, active low, edges)",
		    (unsigned long long)flags);
		return errno = EOPNOTSUPP, -1;
	}
	lr->offset = r->offsets[0];
	lr->output = flags & GPIO_V2_LINE_FLAG_OUTPUT;
	lr->value = lr->output && value;
	lr->active_low = flags & GPIO_V2_LINE_FLAG_ACTIVE_LOW;
	lr->edges = ((flags & GPIO_V2_LINE_FLAG_EDGE_RISING) ? EDGE_RISING : 0) |
		    ((flags & GPIO_V2_LINE_FLAG_EDGE_FALLING) ? EDGE_FALLING : 0);
	lr->consumer = r->consumer;
	return 0;
}

/*
 * Request the line @lr of the chip open as @chip_fd on the board.  The
 * request's fd, or -1 with errno set (the board refused it), or -2 when
 * the board does not serve that chip (or there is no board).
 */
static int board_request(int chip_fd, const struct line_req *lr, bool v2)
{
	struct gpiochip_info ci;
	char cmd[256], reply[256], word[GPIO_MAX_NAME_SIZE], chip[GPIO_MAX_NAME_SIZE];
	const char *c;
	struct held *h;
	size_t i;
	int fd, r;

	memset(&ci, 0, sizeof(ci));
	if (real_ioctl(chip_fd, GPIO_GET_CHIPINFO_IOCTL, &ci) < 0)
		return -2;
	/* the board knows its chip by label and by name; the label is the
	 * one a host's own chips can not share */
	memcpy(chip, ci.label, sizeof(chip) - 1);
	chip[sizeof(chip) - 1] = '\0';
	if (!chip[0] || strpbrk(chip, " \t\n")) {
		memcpy(chip, ci.name, sizeof(chip) - 1);
		chip[sizeof(chip) - 1] = '\0';
	}
	fd = board_connect();
	if (fd < 0)
		return -2;
	for (i = 0, c = lr->consumer; i < GPIO_MAX_NAME_SIZE - 1 && c[i]; i++)
		word[i] = (c[i] == ' ' || c[i] == '\t' || c[i] == '\n') ? '_' : c[i];
	word[i] = '\0';
	snprintf(cmd, sizeof(cmd),
		 "REQUEST chip=%s line=%u dir=%s value=%d active_low=%d%s%s\n", chip,
		 lr->offset, lr->output ? "out" : "in", lr->value ? 1 : 0,
		 lr->active_low ? 1 : 0, i ? " consumer=" : "", word);
	r = transact(fd, cmd, reply, sizeof(reply));
	if (r || strcmp(reply, "OK")) {
		real_close(fd);
		if (r)
			return errno = -r, -1;
		if (reply_errno(reply) == ENODEV)
			return -2;
		return errno = reply_errno(reply), -1;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		real_close(fd);
		return errno = ENOMEM, -1;
	}
	h->fd = fd;
	h->pid = getpid();
	h->offset = lr->offset;
	h->v2 = v2;
	h->output = lr->output;
	h->edges = lr->edges;
	pthread_mutex_lock(&held_lock);
	h->next = held_lines;
	held_lines = h;
	pthread_mutex_unlock(&held_lock);
	return fd;
}

/* A line request ioctl on a chip: 0 served, -1 refused, 1 not the board's. */
static int chip_request(int fd, unsigned long request, void *arg)
{
	struct line_req lr;
	int r;

	switch (request) {
	case GPIO_GET_LINEHANDLE_IOCTL:
		if (v1_handle_req(arg, &lr) < 0)
			return -1;
		break;
	case GPIO_GET_LINEEVENT_IOCTL:
		if (v1_event_req(arg, &lr) < 0)
			return -1;
		break;
	default:
		if (v2_req(arg, &lr) < 0)
			return -1;
	}
	r = board_request(fd, &lr, request == GPIO_V2_GET_LINE_IOCTL);
	if (r == -2)
		return 1;
	if (r < 0)
		return -1;
	if (request == GPIO_GET_LINEHANDLE_IOCTL)
		((struct gpiohandle_request *)arg)->fd = r;
	else if (request == GPIO_GET_LINEEVENT_IOCTL)
		((struct gpioevent_request *)arg)->fd = r;
	else
		((struct gpio_v2_line_request *)arg)->fd = r;
	return 0;
}

/* ------------------------------------------------------------ a request's fd */

static int get_value(struct held *h)
{
	char reply[64];

	if (line_transact(h, "GET\n", reply, sizeof(reply)) < 0)
		return -1;
	if (strncmp(reply, "OK ", 3))
		return errno = EPROTO, -1;
	return atoi(reply + 3) ? 1 : 0;
}

static int set_value(struct held *h, int value)
{
	char reply[64];

	if (!h->output)
		return errno = EPERM, -1; /* gpiolib-cdev: an input's value is not set */
	return line_transact(h, value ? "SET 1\n" : "SET 0\n", reply, sizeof(reply));
}

static int line_ioctl(struct held *h, unsigned long request, void *arg)
{
	int v;

	switch (request) {
	case GPIOHANDLE_GET_LINE_VALUES_IOCTL: {
		struct gpiohandle_data *d = arg;

		if (h->v2)
			break;
		if ((v = get_value(h)) < 0)
			return -1;
		memset(d, 0, sizeof(*d));
		d->values[0] = (uint8_t)v;
		return 0;
	}
	case GPIOHANDLE_SET_LINE_VALUES_IOCTL:
		if (h->v2)
			break;
		if (h->edges || !h->output) /* an event request or an input */
			return errno = EPERM, -1;
		return set_value(h, ((struct gpiohandle_data *)arg)->values[0] != 0);
	case GPIO_V2_LINE_GET_VALUES_IOCTL: {
		struct gpio_v2_line_values *d = arg;

		if (!h->v2)
			break;
		if (!(d->mask & 1)) {
			d->bits = 0;
			return d->mask ? (errno = EINVAL, -1) : 0;
		}
		if ((v = get_value(h)) < 0)
			return -1;
		d->bits = (uint64_t)v;
		return 0;
	}
	case GPIO_V2_LINE_SET_VALUES_IOCTL: {
		struct gpio_v2_line_values *d = arg;

		if (!h->v2)
			break;
		if (!(d->mask & 1))
			return errno = EINVAL, -1;
		return set_value(h, (int)(d->bits & 1));
	}
	case GPIOHANDLE_SET_CONFIG_IOCTL:
	case GPIO_V2_LINE_SET_CONFIG_IOCTL:
		say("reconfiguring a line request is not emulated (release and request again)");
		return errno = EOPNOTSUPP, -1;
	default:
		break;
	}
	return errno = ENOTTY, -1;
}

/*
 * One WAIT of @ms on the board for an edge the request asked for: 1 and
 * the edge stored in @h, 0 on timeout, -1 with errno set.  Edges the
 * request did not ask for are dropped, as the kernel never queues them.
 */
static int board_wait(struct held *h, long ms)
{
	struct timespec t0, t1;
	char cmd[48], reply[96];
	unsigned long long ns;
	int type;

	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		snprintf(cmd, sizeof(cmd), "WAIT %ld\n", ms);
		if (line_transact(h, cmd, reply, sizeof(reply)) < 0)
			return -1;
		if (!strcmp(reply, "TIMEOUT"))
			return 0;
		if (sscanf(reply, "EDGE %d %llu", &type, &ns) != 2)
			return errno = EPROTO, -1;
		/* the board reports logical edges: 1 asserted */
		if (h->edges & (type == 1 ? EDGE_RISING : EDGE_FALLING)) {
			h->event_rising = type == 1;
			h->event_ns = ns;
			h->have_event = true;
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms -= (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
		if (ms < 0)
			ms = 0;
	}
}

/* poll() of a request's fd for @ms (-1: no limit): 1 an event, 0 none, -1. */
static int line_poll(struct held *h, long ms)
{
	int r;

	if (h->have_event)
		return 1;
	if (ms >= 0)
		return board_wait(h, ms);
	while ((r = board_wait(h, 60000)) == 0)
		;
	return r;
}

static ssize_t line_read(struct held *h, void *buf, size_t count)
{
	if (!h->edges) {
		if (!h->v2)
			return errno = EINVAL, -1; /* a v1 handle has no read() */
		/* a v2 request without edge detection: nothing ever comes */
		return real_read(h->fd, buf, count);
	}
	if (count < (h->v2 ? sizeof(struct gpio_v2_line_event) : sizeof(struct gpioevent_data)))
		return errno = EINVAL, -1;
	/* like read() on the kernel's request: blocks until there is one */
	if (line_poll(h, -1) < 0)
		return -1;
	h->have_event = false;
	h->seqno++;
	if (h->v2) {
		struct gpio_v2_line_event ev;

		memset(&ev, 0, sizeof(ev));
		ev.timestamp_ns = h->event_ns;
		ev.id = h->event_rising ? GPIO_V2_LINE_EVENT_RISING_EDGE
					: GPIO_V2_LINE_EVENT_FALLING_EDGE;
		ev.offset = h->offset;
		ev.seqno = h->seqno;
		ev.line_seqno = h->seqno;
		memcpy(buf, &ev, sizeof(ev));
		return sizeof(ev);
	} else {
		struct gpioevent_data ev;

		memset(&ev, 0, sizeof(ev));
		ev.timestamp = h->event_ns;
		ev.id = h->event_rising ? GPIOEVENT_EVENT_RISING_EDGE
					: GPIOEVENT_EVENT_FALLING_EDGE;
		memcpy(buf, &ev, sizeof(ev));
		return sizeof(ev);
	}
}

/* ------------------------------------------------------------ the wrappers */

int ioctl(int fd, unsigned long request, ...)
{
	struct held *h;
	va_list ap;
	void *arg;
	int r;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (request == GPIO_GET_LINEHANDLE_IOCTL || request == GPIO_GET_LINEEVENT_IOCTL ||
	    request == GPIO_V2_GET_LINE_IOCTL) {
		r = chip_request(fd, request, arg);
		if (r <= 0)
			return r;
	} else if ((h = find_held(fd))) {
		return line_ioctl(h, request, arg);
	}
	return real_ioctl(fd, request, arg);
}

ssize_t read(int fd, void *buf, size_t count)
{
	struct held *h = find_held(fd);

	if (!h)
		return real_read(fd, buf, count);
	return line_read(h, buf, count);
}

int close(int fd)
{
	struct held *h = find_held(fd);

	if (h)
		drop_held(h);
	return real_close(fd);
}

/* The request among @fds, or NULL; -1 with errno when it is not alone. */
static int held_in(struct pollfd *fds, nfds_t nfds, struct held **out)
{
	*out = NULL;
	for (nfds_t i = 0; i < nfds; i++) {
		struct held *h = find_held(fds[i].fd);

		if (!h)
			continue;
		if (nfds != 1) {
			say("poll() of a line request with other fds is not emulated");
			return errno = EOPNOTSUPP, -1;
		}
		*out = h;
	}
	return 0;
}

static int held_poll(struct held *h, struct pollfd *fd, long ms)
{
	int r;

	fd->revents = 0;
	if (!h->edges) /* an output, or an input without edge detection */
		return REAL(
			ppoll)(fd, 1,
			       ms < 0 ? NULL
				      : &(struct timespec){ .tv_sec = ms / 1000,
							    .tv_nsec = ms % 1000 * 1000000 },
			       NULL);
	r = line_poll(h, ms);
	if (r > 0)
		fd->revents = (short)(fd->events & (POLLIN | POLLRDNORM));
	return r > 0 && fd->revents ? 1 : r;
}

int ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *tmo, const sigset_t *sigmask)
{
	struct held *h;

	if (held_in(fds, nfds, &h) < 0)
		return -1;
	if (!h)
		return REAL(ppoll)(fds, nfds, tmo, sigmask);
	return held_poll(h, fds,
			 tmo ? (long)tmo->tv_sec * 1000 + (tmo->tv_nsec + 999999) / 1000000
			     : -1);
}

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	struct held *h;

	if (held_in(fds, nfds, &h) < 0)
		return -1;
	if (!h)
		return REAL(poll)(fds, nfds, timeout);
	return held_poll(h, fds, timeout < 0 ? -1 : timeout);
}

/* ------------------------------------------------------------ scandir */

int scandir(const char *dir, struct dirent ***namelist, int (*filter)(const struct dirent *),
	    int (*compar)(const struct dirent **, const struct dirent **))
{
	struct dirent **list = NULL, *d, *copy;
	size_t n = 0, cap = 0, size;
	DIR *dp;
	int e;

	if (!getenv("UMOCKDEV_DIR"))
		return REAL(scandir)(dir, namelist, filter, compar);
	dp = opendir(dir); /* umockdev's: the testbed's /dev and /sys */
	if (!dp)
		return -1;
	errno = 0;
	while ((d = readdir(dp))) {
		if (filter && !filter(d))
			continue;
		if (n == cap) {
			struct dirent **grown;

			cap = cap ? cap * 2 : 16;
			grown = realloc(list, cap * sizeof(*list));
			if (!grown)
				goto fail;
			list = grown;
		}
		size = d->d_reclen > sizeof(*d) ? d->d_reclen : sizeof(*d);
		copy = calloc(1, size);
		if (!copy)
			goto fail;
		memcpy(copy, d, d->d_reclen < size ? d->d_reclen : size);
		list[n++] = copy;
		errno = 0;
	}
	if (errno)
		goto fail;
	closedir(dp);
	if (n > INT32_MAX) {
		errno = EOVERFLOW;
		dp = NULL;
		goto fail;
	}
	if (compar && n > 1)
		qsort(list, n, sizeof(*list), (int (*)(const void *, const void *))compar);
	*namelist = list;
	return (int)n;
fail:
	e = errno ? errno : ENOMEM;
	if (dp)
		closedir(dp);
	while (n)
		free(list[--n]);
	free(list);
	errno = e;
	return -1;
}

/*
 * A write to a driver attribute returns when the driver's store function
 * does, with its result (sysfs runs the store in the writer's context: a
 * driver's update_fw that flashes the chip blocks for the whole flash and
 * fails with the flash's error).  umockdev's sysfs is plain files, whose writes return at
 * once; so a write to a regular file under the testbed's sys/ is done,
 * then the board is asked (ATTRWRITE, tests/emul/host/gpio.c) to run the
 * store and answer when it has; the attribute is held before the write
 * (ATTRHOLD), so that the board's inotify path does not take the bytes.  Anything that is no
 * device's writable attribute ("NOATTR"), or no board socket, leaves the plain write.
 */
static bool under_testbed_sys(int fd, char *path, size_t size)
{
	const char *dir = getenv("UMOCKDEV_DIR");
	char self[40], root[4096], *real;
	struct stat st;
	ssize_t n;
	size_t rl;

	if (!dir || !*dir || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	n = syscall(SYS_readlinkat, AT_FDCWD, self, path, size - 1);
	if (n <= 0 || (size_t)n >= size - 1)
		return false;
	path[n] = '\0';
	real = realpath(dir, NULL);
	if (!real)
		return false;
	rl = (size_t)snprintf(root, sizeof(root), "%s/sys/", real);
	free(real);
	return rl < sizeof(root) && !strncmp(path, root, rl);
}

ssize_t write(int fd, const void *buf, size_t count)
{
	char path[4096], cmd[4200], reply[128];
	ssize_t w;
	int s, e;

	if (!count || !under_testbed_sys(fd, path, sizeof(path)))
		return real_write(fd, buf, count);
	s = board_connect();
	if (s < 0)
		return real_write(fd, buf, count);
	/* the attribute held first, so that no older close of its file
	 * seen by the board's inotify path runs the store with these bytes
	 * (ATTRHOLD, tests/emul/host/gpio.c) */
	snprintf(cmd, sizeof(cmd), "ATTRHOLD %s\n", path);
	e = transact(s, cmd, reply, sizeof(reply));
	if (e < 0 || !strcmp(reply, "NOATTR")) {
		real_close(s);
		return real_write(fd, buf, count);
	}
	w = real_write(fd, buf, count);
	if (w <= 0) {
		real_close(s);
		return w;
	}
	snprintf(cmd, sizeof(cmd), "ATTRWRITE %s\n", path);
	e = transact(s, cmd, reply, sizeof(reply));
	real_close(s);
	if (e < 0 || !strcmp(reply, "NOATTR") || !strcmp(reply, "OK"))
		return w;
	errno = reply_errno(reply);
	return -1;
}
