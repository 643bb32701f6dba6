// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "emul" GPIO backend: client of the emuboard GPIO socket named by
 * $TOUCHFW_GPIO_EMUL (tests/emul/README.md, "GPIO socket").  One
 * connection per requested line, like one line fd per request in the
 * kernel: closing it releases the line.  Text lines; replies are "OK",
 * "OK <value>", "EDGE <1|2> <ns>", "TIMEOUT" or "ERR <errno> <text>".
 * Compiled into test builds only (TF_TEST_HOOKS); see gpio.c.
 */
#if TF_TEST_HOOKS
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "gpio.h"

struct emul_line {
	const struct tf_gpio_ops *ops; /* first: gpio.c dispatches on it */
	int fd;
	char name[80];
};

/* Send @cmd, read one reply line into @reply.  0 or -errno. */
static int transact(int fd, const char *cmd, char *reply, size_t size)
{
	size_t len = strlen(cmd), n = 0;

	while (len) {
		ssize_t w = write(fd, cmd, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
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
	reply[n] = 0;
	return 0;
}

/* "ERR <errno> text" -> -errno */
static int reply_error(const char *reply)
{
	int e = 0;

	if (strncmp(reply, "ERR ", 4))
		return -EPROTO;
	e = atoi(reply + 4);
	return e > 0 ? -e : -EIO;
}

static void word(char *dst, size_t size, const char *src)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < size; i++)
		dst[i] = (src[i] == ' ' || src[i] == '\t' || src[i] == '\n') ? '_' : src[i];
	dst[i] = 0;
}

static int emul_request(const struct tf_gpio_spec *spec, bool output, int value,
			const char *consumer, struct tf_gpio_line **out, struct tf_err *err)
{
	const char *path = getenv("TOUCHFW_GPIO_EMUL");
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	char cmd[256], reply[256], w1[72], w2[40];
	struct emul_line *l;
	int fd, r;

	if (!path || !*path || strlen(path) >= sizeof(a.sun_path))
		return tf_err_set(err, EINVAL, "TOUCHFW_GPIO_EMUL is not a usable socket path");
	strcpy(a.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return tf_err_set(err, errno, "GPIO emul socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		r = errno;
		close(fd);
		return tf_err_set(err, r, "GPIO emul socket %s: %s", path, strerror(r));
	}
	word(w2, sizeof(w2), consumer ? consumer : "touchfw");
	if (spec->name[0]) {
		word(w1, sizeof(w1), spec->name);
		snprintf(cmd, sizeof(cmd), "REQUEST name=%s dir=%s value=%d active_low=%d consumer=%s\n",
			 w1, output ? "out" : "in", value ? 1 : 0, spec->active_low, w2);
	} else {
		word(w1, sizeof(w1), spec->chip);
		snprintf(cmd, sizeof(cmd),
			 "REQUEST chip=%s line=%d dir=%s value=%d active_low=%d consumer=%s\n", w1,
			 spec->line, output ? "out" : "in", value ? 1 : 0, spec->active_low, w2);
	}
	r = transact(fd, cmd, reply, sizeof(reply));
	if (!r && strcmp(reply, "OK"))
		r = reply_error(reply);
	if (r) {
		close(fd);
		return tf_err_set(err, -r, "requesting GPIO %s: %s",
				  spec->name[0] ? spec->name : spec->chip, reply[0] ? reply : strerror(-r));
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		close(fd);
		return tf_err_set(err, ENOMEM, "out of memory");
	}
	l->ops = &tf_gpio_emul_ops;
	l->fd = fd;
	snprintf(l->name, sizeof(l->name), "%s", spec->name[0] ? spec->name : spec->chip);
	*out = (struct tf_gpio_line *)l;
	return 0;
}

static int emul_lookup(const struct tf_gpio_spec *spec, char *consumer, size_t size,
		       struct tf_err *err)
{
	const char *path = getenv("TOUCHFW_GPIO_EMUL");
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	char cmd[256], reply[256], w1[72], who[80];
	int fd, r, off;

	if (!path || !*path || strlen(path) >= sizeof(a.sun_path))
		return tf_err_set(err, EINVAL, "TOUCHFW_GPIO_EMUL is not a usable socket path");
	strcpy(a.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return tf_err_set(err, errno, "GPIO emul socket: %s", strerror(errno));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		r = errno;
		close(fd);
		return tf_err_set(err, r, "GPIO emul socket %s: %s", path, strerror(r));
	}
	if (spec->name[0]) {
		word(w1, sizeof(w1), spec->name);
		snprintf(cmd, sizeof(cmd), "INFO name=%s\n", w1);
	} else {
		word(w1, sizeof(w1), spec->chip);
		snprintf(cmd, sizeof(cmd), "INFO chip=%s line=%d\n", w1, spec->line);
	}
	r = transact(fd, cmd, reply, sizeof(reply));
	close(fd);
	if (!r && strncmp(reply, "OK ", 3))
		r = reply_error(reply);
	if (r < 0) {
		if (spec->name[0])
			return tf_err_set(err, -r, "GPIO line \"%s\" not found", spec->name), -ENOENT;
		return tf_err_set(err, -r, "GPIO chip \"%s\" line %d: %s", spec->chip, spec->line,
				  reply[0] ? reply : strerror(-r));
	}
	if (sscanf(reply + 3, "%d %79s", &off, who) != 2)
		return tf_err_set(err, EPROTO, "GPIO emul: bad reply '%s'", reply);
	snprintf(consumer, size, "%s", strcmp(who, "-") ? who : "");
	return 0;
}

static int emul_get(struct tf_gpio_line *tl)
{
	struct emul_line *l = (struct emul_line *)tl;
	char reply[64];
	int r = transact(l->fd, "GET\n", reply, sizeof(reply));

	if (r)
		return r;
	if (!strncmp(reply, "OK ", 3))
		return atoi(reply + 3) ? 1 : 0;
	return reply_error(reply);
}

static int emul_set(struct tf_gpio_line *tl, int value)
{
	struct emul_line *l = (struct emul_line *)tl;
	char reply[64];
	int r = transact(l->fd, value ? "SET 1\n" : "SET 0\n", reply, sizeof(reply));

	if (r)
		return r;
	return strcmp(reply, "OK") ? reply_error(reply) : 0;
}

static int emul_wait(struct tf_gpio_line *tl, int timeout_ms)
{
	struct emul_line *l = (struct emul_line *)tl;
	char cmd[32], reply[96];
	int r;

	snprintf(cmd, sizeof(cmd), "WAIT %d\n", timeout_ms < 0 ? 0 : timeout_ms);
	r = transact(l->fd, cmd, reply, sizeof(reply));
	if (r)
		return r;
	if (!strcmp(reply, "TIMEOUT"))
		return TF_GPIO_EDGE_NONE;
	if (!strncmp(reply, "EDGE ", 5))
		return atoi(reply + 5) == 1 ? TF_GPIO_EDGE_ASSERT : TF_GPIO_EDGE_DEASSERT;
	return reply_error(reply);
}

static void emul_release(struct tf_gpio_line *tl)
{
	struct emul_line *l = (struct emul_line *)tl;

	close(l->fd); /* the server releases the line with the connection */
	free(l);
}

const struct tf_gpio_ops tf_gpio_emul_ops = {
	.name = "emul",
	.request = emul_request,
	.lookup = emul_lookup,
	.get = emul_get,
	.set = emul_set,
	.wait_edge = emul_wait,
	.release = emul_release,
};
#endif /* TF_TEST_HOOKS */
