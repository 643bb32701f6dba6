// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libemuboard-gpiod.so: an LD_PRELOAD shim that lets unmodified libgpiod
 * 1.6 programs (touchfw's agent first) request lines of an emulated board.
 *
 * umockdev emulates /dev/gpiochip0's chip and line information ioctls
 * (tests/emul/host/gpio.c), so libgpiod opens the chip, finds lines and
 * reads their names and consumers by itself.  Two things it can not do
 * under umockdev, and this shim does:
 *
 * - Line requests return a new file descriptor, which umockdev can not
 *   emulate.  The request calls the agent makes (gpiod_line_request_
 *   output_flags, gpiod_line_request_both_edges_events_flags) and the
 *   calls on a requested line (get/set value, event wait/read, release,
 *   closing its chip) go to the emuboard's GPIO socket,
 *   $UMOCKDEV_DIR/emuboard-gpio.sock, one connection per requested line,
 *   as the kernel gives one fd per request (protocol: tests/emul/README.md,
 *   "GPIO").  A line whose chip the board does not serve (the socket
 *   answers ENODEV), or any line when there is no board socket, goes to
 *   the real libgpiod (dlsym RTLD_NEXT), as does every call on a line this
 *   shim did not request.
 * - libgpiod lists /dev with scandir(), which umockdev's preload does not
 *   redirect (glibc's scandir opens the directory internally), so lookups
 *   by line name or chip label saw the host's /dev.  Inside a testbed this
 *   shim's scandir() reads the directory through opendir(), which umockdev
 *   redirects.
 *
 * It is built without sanitizers (it is loaded into every program run on
 * the board, sanitized or not) and after libasan in LD_PRELOAD when that
 * is there (emub.c).
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gpiod.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define SOCKET_NAME "emuboard-gpio.sock"

/* A line requested through the board's socket. */
struct held {
	struct gpiod_line *line;
	struct gpiod_chip *chip;
	int fd;
	bool have_event; /* WAIT returned one that event_read has not taken */
	struct gpiod_line_event event;
	struct held *next;
};

static pthread_mutex_t held_lock = PTHREAD_MUTEX_INITIALIZER;
static struct held *held_lines;

/* The next definition of @name after this library: libgpiod's, libc's. */
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

static struct held *find_held(struct gpiod_line *line)
{
	struct held *h;

	pthread_mutex_lock(&held_lock);
	for (h = held_lines; h && h->line != line; h = h->next)
		;
	pthread_mutex_unlock(&held_lock);
	return h;
}

static int transact(int fd, const char *cmd, char *reply, size_t size);

static void drop_held(struct held *h)
{
	struct held **p;

	pthread_mutex_lock(&held_lock);
	for (p = &held_lines; *p; p = &(*p)->next)
		if (*p == h) {
			*p = h->next;
			break;
		}
	pthread_mutex_unlock(&held_lock);
	{
		/* Released when this returns, as the kernel's close() of a line
		 * request releases it: the board would release it only when its
		 * connection thread saw the close, and a request right after
		 * (this program's or another's) could still find it held. */
		char reply[64];

		transact(h->fd, "RELEASE\n", reply, sizeof(reply));
	}
	close(h->fd);
	free(h);
}

/* Release every line of @chip held here: closing a chip releases its lines. */
static void drop_chip(struct gpiod_chip *chip)
{
	for (;;) {
		struct held *h;

		pthread_mutex_lock(&held_lock);
		for (h = held_lines; h && h->chip != chip; h = h->next)
			;
		pthread_mutex_unlock(&held_lock);
		if (!h)
			return;
		drop_held(h);
	}
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
		close(fd);
		return -1;
	}
	return fd;
}

/* Send @cmd, read one reply line.  0, or -errno if the connection failed. */
static int transact(int fd, const char *cmd, char *reply, size_t size)
{
	size_t len = strlen(cmd), n = 0;

	while (len) {
		ssize_t w = write(fd, cmd, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		cmd += w;
		len -= (size_t)w;
	}
	while (n + 1 < size) {
		ssize_t r = read(fd, reply + n, 1);

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

/*
 * Request @line on the board.  Returns 0 (held), -1 with errno set (the
 * board refused it), or 1 when the board does not serve the line's chip.
 */
static int board_request(struct gpiod_line *line, const char *consumer, int flags, bool output,
			 int value)
{
	struct gpiod_chip *chip = REAL(gpiod_line_get_chip)(line);
	const char *name = REAL(gpiod_chip_name)(chip);
	char cmd[256], reply[256], word[32];
	struct held *h;
	size_t i;
	int fd, r;

	fd = board_connect();
	if (fd < 0)
		return 1;
	if (find_held(line)) {
		close(fd);
		errno = EBUSY;
		return -1;
	}
	if (flags & ~GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) {
		/* open drain/source, bias: the board's lines do not model them */
		fprintf(stderr, "libemuboard-gpiod: request flags 0x%x not emulated\n", flags);
		close(fd);
		errno = EOPNOTSUPP;
		return -1;
	}
	for (i = 0; consumer && consumer[i] && i + 1 < sizeof(word); i++)
		word[i] = (consumer[i] == ' ' || consumer[i] == '\t' || consumer[i] == '\n')
				  ? '_'
				  : consumer[i];
	word[i] = '\0';
	snprintf(cmd, sizeof(cmd),
		 "REQUEST chip=%s line=%u dir=%s value=%d active_low=%d%s%s\n", name,
		 REAL(gpiod_line_offset)(line), output ? "out" : "in", value ? 1 : 0,
		 (flags & GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) ? 1 : 0, i ? " consumer=" : "",
		 word);
	r = transact(fd, cmd, reply, sizeof(reply));
	if (r || strcmp(reply, "OK")) {
		close(fd);
		if (r) {
			errno = -r;
			return -1;
		}
		if (reply_errno(reply) == ENODEV)
			return 1;
		errno = reply_errno(reply);
		return -1;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	h->line = line;
	h->chip = chip;
	h->fd = fd;
	pthread_mutex_lock(&held_lock);
	h->next = held_lines;
	held_lines = h;
	pthread_mutex_unlock(&held_lock);
	return 0;
}

int gpiod_line_request_output_flags(struct gpiod_line *line, const char *consumer, int flags,
				    int default_val)
{
	int r = board_request(line, consumer, flags, true, default_val);

	if (r <= 0)
		return r;
	return REAL(gpiod_line_request_output_flags)(line, consumer, flags, default_val);
}

int gpiod_line_request_both_edges_events_flags(struct gpiod_line *line, const char *consumer,
					       int flags)
{
	int r = board_request(line, consumer, flags, false, 0);

	if (r <= 0)
		return r;
	return REAL(gpiod_line_request_both_edges_events_flags)(line, consumer, flags);
}

int gpiod_line_get_value(struct gpiod_line *line)
{
	struct held *h = find_held(line);
	char reply[64];

	if (!h)
		return REAL(gpiod_line_get_value)(line);
	if (line_transact(h, "GET\n", reply, sizeof(reply)) < 0)
		return -1;
	if (strncmp(reply, "OK ", 3)) {
		errno = EPROTO;
		return -1;
	}
	return atoi(reply + 3) ? 1 : 0;
}

int gpiod_line_set_value(struct gpiod_line *line, int value)
{
	struct held *h = find_held(line);
	char reply[64];

	if (!h)
		return REAL(gpiod_line_set_value)(line, value);
	return line_transact(h, value ? "SET 1\n" : "SET 0\n", reply, sizeof(reply));
}

/*
 * One WAIT of @ms on the board: 1 and the edge stored in @h, 0 on
 * timeout, -1 with errno set.
 */
static int board_wait(struct held *h, long ms)
{
	char cmd[48], reply[96];
	unsigned long long ns;
	int type;

	snprintf(cmd, sizeof(cmd), "WAIT %ld\n", ms);
	if (line_transact(h, cmd, reply, sizeof(reply)) < 0)
		return -1;
	if (!strcmp(reply, "TIMEOUT"))
		return 0;
	if (sscanf(reply, "EDGE %d %llu", &type, &ns) != 2) {
		errno = EPROTO;
		return -1;
	}
	/* the board reports logical edges: 1 asserted, as the kernel does
	 * for an active-low request */
	h->event.event_type = type == 1 ? GPIOD_LINE_EVENT_RISING_EDGE
					: GPIOD_LINE_EVENT_FALLING_EDGE;
	h->event.ts.tv_sec = (time_t)(ns / 1000000000ull);
	h->event.ts.tv_nsec = (long)(ns % 1000000000ull);
	h->have_event = true;
	return 1;
}

int gpiod_line_event_wait(struct gpiod_line *line, const struct timespec *timeout)
{
	struct held *h = find_held(line);
	long ms;

	if (!h)
		return REAL(gpiod_line_event_wait)(line, timeout);
	if (h->have_event)
		return 1;
	/* libgpiod waits with ppoll(): no timeout is forever */
	if (!timeout) {
		int r;

		while ((r = board_wait(h, 60000)) == 0)
			;
		return r;
	}
	ms = (long)timeout->tv_sec * 1000 + (timeout->tv_nsec + 999999) / 1000000;
	return board_wait(h, ms);
}

int gpiod_line_event_read(struct gpiod_line *line, struct gpiod_line_event *event)
{
	struct held *h = find_held(line);
	int r;

	if (!h)
		return REAL(gpiod_line_event_read)(line, event);
	/* like read() on the event fd: blocks until there is one */
	while (!h->have_event)
		if ((r = board_wait(h, 60000)) < 0)
			return -1;
	*event = h->event;
	h->have_event = false;
	return 0;
}

void gpiod_line_release(struct gpiod_line *line)
{
	struct held *h = find_held(line);

	if (h)
		drop_held(h);
	else
		REAL(gpiod_line_release)(line);
}

void gpiod_line_close_chip(struct gpiod_line *line)
{
	drop_chip(REAL(gpiod_line_get_chip)(line));
	REAL(gpiod_line_close_chip)(line);
}

void gpiod_chip_close(struct gpiod_chip *chip)
{
	drop_chip(chip);
	REAL(gpiod_chip_close)(chip);
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
 * does, with its result (sysfs runs the store in the writer's context:
 * atmel_mxt_ts's update_fw blocks for the whole flash and fails with the
 * flash's error).  umockdev's sysfs is plain files, whose writes return at
 * once; so a write to a regular file under the testbed's sys/ is done,
 * then the board is asked (ATTRWRITE, tests/emul/host/gpio.c) to run the
 * store and answer when it has.  Anything that is no device's writable
 * attribute ("NOATTR"), or no board socket, leaves the plain write.
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
	static ssize_t (*real_write)(int, const void *, size_t);
	char path[4096], cmd[4200], reply[128];
	ssize_t w;
	int s, e;

	if (!real_write)
		real_write = REAL(write);
	if (!count || !under_testbed_sys(fd, path, sizeof(path)))
		return real_write(fd, buf, count);
	w = real_write(fd, buf, count);
	if (w <= 0)
		return w;
	s = board_connect();
	if (s < 0)
		return w;
	snprintf(cmd, sizeof(cmd), "ATTRWRITE %s\n", path);
	e = transact(s, cmd, reply, sizeof(reply));
	close(s);
	if (e < 0 || !strcmp(reply, "NOATTR") || !strcmp(reply, "OK"))
		return w;
	errno = reply_errno(reply);
	return -1;
}
