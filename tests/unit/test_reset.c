// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tf_gpio_reset_pulse (agent/gpio.c): the reset pulse of a family's
 * caps.reset, with and without the interrupt line driven during it, seen
 * from the other end of touchfw's "emul" GPIO backend.  A small server on
 * a scratch unix socket ($TOUCHFW_GPIO_EMUL) records every request, value
 * change and release with the time it saw it, answering as the emuboard
 * does (tests/emul/host/gpio.c), and can refuse a line; the tests check
 * the order of what touchfw did and lower bounds of the waits between.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cmocka.h>

#include "gpio.h"
#include "util.h"

#define MAX_EV 32
#define MAX_FD 8

struct ev {
	int conn;       /* connection number, from 1 */
	char what[128]; /* the command line, or "CLOSE" */
	uint64_t t_us;
};

static struct server {
	char dir[64], path[96];
	int lfd, wake[2];
	pthread_t thread;
	pthread_mutex_t lock;
	struct ev ev[MAX_EV];
	int n_ev;
	char refuse[32]; /* refuse REQUESTs naming this line ... */
	int refuse_n;    /* ... this many times ... */
	int refuse_errno; /* ... with this errno */
} S;

static uint64_t now_us(void)
{
	return tf_now_ms() * 1000;
}

static void record(int conn, const char *what)
{
	pthread_mutex_lock(&S.lock);
	if (S.n_ev < MAX_EV) {
		S.ev[S.n_ev].conn = conn;
		snprintf(S.ev[S.n_ev].what, sizeof(S.ev[S.n_ev].what), "%s", what);
		S.ev[S.n_ev].t_us = now_us();
		S.n_ev++;
	}
	pthread_mutex_unlock(&S.lock);
}

static void reply(int fd, const char *line)
{
	size_t n = strlen(line);

	if (write(fd, line, n) != (ssize_t)n)
		fail_msg("server: write failed");
}

static void answer(int fd, const char *cmd)
{
	char name[40];

	if (!strncmp(cmd, "REQUEST ", 8)) {
		const char *p = strstr(cmd, "name=");

		name[0] = '\0';
		if (p)
			sscanf(p + 5, "%39s", name);
		pthread_mutex_lock(&S.lock);
		if (S.refuse_n && !strcmp(name, S.refuse)) {
			char err[64];

			S.refuse_n--;
			snprintf(err, sizeof(err), "ERR %d refused\n", S.refuse_errno);
			pthread_mutex_unlock(&S.lock);
			reply(fd, err);
			return;
		}
		pthread_mutex_unlock(&S.lock);
		reply(fd, "OK\n");
	} else if (!strncmp(cmd, "GET", 3)) {
		reply(fd, "OK 0\n");
	} else {
		reply(fd, "OK\n");
	}
}

static void *serve(void *arg)
{
	struct pollfd p[MAX_FD + 2];
	int conn_no[MAX_FD + 2], n = 2, next = 1;
	char buf[MAX_FD + 2][256];
	size_t len[MAX_FD + 2];

	(void)arg;
	p[0] = (struct pollfd){ .fd = S.lfd, .events = POLLIN };
	p[1] = (struct pollfd){ .fd = S.wake[0], .events = POLLIN };
	for (;;) {
		int i;

		if (poll(p, (nfds_t)n, -1) < 0)
			continue;
		if (p[1].revents)
			break;
		/* Older connections first: a close is seen before a new request. */
		for (i = 2; i < n; i++) {
			char c;
			ssize_t r;

			if (!p[i].revents)
				continue;
			r = read(p[i].fd, &c, 1);
			if (r <= 0) {
				record(conn_no[i], "CLOSE");
				close(p[i].fd);
				p[i] = p[n - 1];
				conn_no[i] = conn_no[n - 1];
				memcpy(buf[i], buf[n - 1], sizeof(buf[i]));
				len[i] = len[n - 1];
				n--;
				i--;
				continue;
			}
			if (c == '\n') {
				buf[i][len[i]] = '\0';
				record(conn_no[i], buf[i]);
				answer(p[i].fd, buf[i]);
				len[i] = 0;
			} else if (len[i] + 1 < sizeof(buf[i])) {
				buf[i][len[i]++] = c;
			}
		}
		if (p[0].revents && n < MAX_FD + 2) {
			int fd = accept(S.lfd, NULL, NULL);

			if (fd >= 0) {
				p[n] = (struct pollfd){ .fd = fd, .events = POLLIN };
				conn_no[n] = next++;
				len[n] = 0;
				n++;
			}
		}
	}
	for (int i = 2; i < n; i++)
		close(p[i].fd);
	return NULL;
}

static int setup(void **state)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };

	(void)state;
	memset(&S, 0, sizeof(S));
	pthread_mutex_init(&S.lock, NULL);
	snprintf(S.dir, sizeof(S.dir), "/tmp/tf-reset-XXXXXX");
	assert_non_null(mkdtemp(S.dir));
	snprintf(S.path, sizeof(S.path), "%s/gpio", S.dir);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", S.path);
	S.lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(S.lfd >= 0);
	assert_int_equal(bind(S.lfd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(S.lfd, 8), 0);
	assert_int_equal(pipe(S.wake), 0);
	setenv("TOUCHFW_GPIO_EMUL", S.path, 1);
	assert_int_equal(pthread_create(&S.thread, NULL, serve, NULL), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (write(S.wake[1], "x", 1) != 1)
		return -1;
	pthread_join(S.thread, NULL);
	close(S.lfd);
	close(S.wake[0]);
	close(S.wake[1]);
	unlink(S.path);
	rmdir(S.dir);
	unsetenv("TOUCHFW_GPIO_EMUL");
	return 0;
}

static const struct tf_gpio_spec RST = { .chip = "", .line = -1, .name = "RST" };
static const struct tf_gpio_spec INT = { .chip = "", .line = -1, .name = "INT" };

/* Wait until the server has seen @n events (closes arrive asynchronously). */
static void wait_events(int n)
{
	uint64_t end = tf_now_ms() + 5000;

	while (tf_now_ms() < end) {
		int have;

		pthread_mutex_lock(&S.lock);
		have = S.n_ev;
		pthread_mutex_unlock(&S.lock);
		if (have >= n)
			return;
		tf_sleep_us(1000);
	}
}

/* The index of the first event from @from on whose text starts with
 * @what; fails if there is none. */
static int find(int from, const char *what)
{
	int i;

	for (i = from; i < S.n_ev; i++)
		if (!strncmp(S.ev[i].what, what, strlen(what)))
			return i;
	for (i = 0; i < S.n_ev; i++)
		print_message("  event %d: conn %d %s\n", i, S.ev[i].conn, S.ev[i].what);
	fail_msg("no event '%s' from %d on", what, from);
	return -1;
}

/* Make the server refuse the next @times REQUESTs of line @name. */
static void refuse(const char *name, int times, int err)
{
	pthread_mutex_lock(&S.lock);
	snprintf(S.refuse, sizeof(S.refuse), "%s", name);
	S.refuse_n = times;
	S.refuse_errno = err;
	pthread_mutex_unlock(&S.lock);
}

static void release(struct tf_reset_lines *l)
{
	tf_gpio_release(l->reset);
	tf_gpio_release(l->irq);
}

static void test_plain_pulse_keeps_int_an_input(void **state)
{
	const struct tf_reset_seq rs = { .assert_us = 20000, .release_us = 30000 };
	struct tf_reset_lines l;
	uint64_t t_end;
	int a, b, c;

	(void)state;
	tf_gpio_reset_pulse(&rs, &RST, &INT, 0, &l);
	t_end = now_us();
	assert_non_null(l.reset);
	assert_non_null(l.irq);
	assert_true(l.pulsed);
	assert_false(l.irq_driven);
	a = find(0, "REQUEST name=INT dir=in");
	b = find(a + 1, "REQUEST name=RST dir=out value=1");
	c = find(b + 1, "SET 0");
	assert_int_equal(S.ev[c].conn, S.ev[b].conn);
	assert_true(S.ev[c].t_us - S.ev[b].t_us >= rs.assert_us);
	assert_true(t_end - S.ev[c].t_us >= rs.release_us);
	assert_int_equal(S.n_ev, 3); /* INT never driven, nothing released */
	release(&l);
}

static void expect_driven_pulse(int level)
{
	const struct tf_reset_seq rs = { .assert_us = 20000, .release_us = 60000,
					 .drive_int = true, .int_level = level,
					 .int_hold_us = 25000 };
	struct tf_reset_lines l;
	char want[64];
	uint64_t t_end;
	int a, b, c, d, e;

	tf_gpio_reset_pulse(&rs, &RST, &INT, 0, &l);
	t_end = now_us();
	assert_non_null(l.reset);
	assert_non_null(l.irq);
	assert_true(l.pulsed);
	assert_true(l.irq_driven);
	snprintf(want, sizeof(want), "REQUEST name=INT dir=out value=%d", level);
	a = find(0, want);
	b = find(a + 1, "REQUEST name=RST dir=out value=1");
	c = find(b + 1, "SET 0");
	d = find(c + 1, "CLOSE");
	e = find(d + 1, "REQUEST name=INT dir=in");
	assert_int_equal(S.ev[c].conn, S.ev[b].conn);
	assert_int_equal(S.ev[d].conn, S.ev[a].conn); /* the driven INT let go */
	assert_true(S.ev[c].t_us - S.ev[b].t_us >= rs.assert_us);
	assert_true(S.ev[d].t_us - S.ev[c].t_us >= rs.int_hold_us);
	assert_true(t_end - S.ev[c].t_us >= rs.release_us);
	(void)e;
	release(&l);
}

static void test_int_driven_low_during_reset(void **state)
{
	(void)state;
	expect_driven_pulse(0);
}

static void test_int_driven_high_during_reset(void **state)
{
	(void)state;
	expect_driven_pulse(1);
}

static void test_no_reset_line_no_driving(void **state)
{
	const struct tf_reset_seq rs = { .assert_us = 1000, .release_us = 2000,
					 .drive_int = true, .int_hold_us = 1000 };
	struct tf_reset_lines l;

	(void)state;
	tf_gpio_reset_pulse(&rs, NULL, &INT, 0, &l);
	assert_null(l.reset);
	assert_non_null(l.irq);
	assert_false(l.pulsed);
	assert_false(l.irq_driven);
	find(0, "REQUEST name=INT dir=in");
	assert_int_equal(S.n_ev, 1);
	release(&l);
}

static void test_refused_reset_leaves_int_an_input(void **state)
{
	const struct tf_reset_seq rs = { .assert_us = 1000, .release_us = 2000,
					 .drive_int = true, .int_hold_us = 1000 };
	struct tf_reset_lines l;
	int a;

	(void)state;
	refuse("RST", 1, EINVAL);
	tf_gpio_reset_pulse(&rs, &RST, &INT, 0, &l);
	assert_null(l.reset);
	assert_false(l.pulsed);
	assert_non_null(strstr(l.reset_err.msg, "RST"));
	assert_non_null(l.irq);
	wait_events(5);
	a = find(0, "REQUEST name=INT dir=out");
	find(a + 1, "REQUEST name=RST");
	a = find(a + 1, "CLOSE");
	find(a + 1, "REQUEST name=INT dir=in");
	release(&l);
}

static void test_busy_line_is_retried(void **state)
{
	const struct tf_reset_seq rs = { .assert_us = 1000, .release_us = 1000 };
	struct tf_reset_lines l;
	int a;

	(void)state;
	refuse("RST", 2, EBUSY);
	tf_gpio_reset_pulse(&rs, &RST, NULL, 2000, &l);
	assert_non_null(l.reset);
	assert_true(l.pulsed);
	assert_null(l.irq);
	a = find(0, "REQUEST name=RST");
	a = find(a + 1, "REQUEST name=RST");
	a = find(a + 1, "REQUEST name=RST");
	find(a + 1, "SET 0");
	release(&l);
}

static void test_busy_line_given_up_without_retry_time(void **state)
{
	const struct tf_reset_seq rs = { .assert_us = 1000, .release_us = 1000 };
	struct tf_reset_lines l;

	(void)state;
	refuse("INT", 1, EBUSY);
	tf_gpio_reset_pulse(&rs, &RST, &INT, 0, &l);
	assert_null(l.irq);
	assert_non_null(strstr(l.irq_err.msg, "INT"));
	assert_non_null(l.reset);
	assert_true(l.pulsed);
	release(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_plain_pulse_keeps_int_an_input, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_int_driven_low_during_reset, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_int_driven_high_during_reset, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_reset_line_no_driving, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_reset_leaves_int_an_input, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_busy_line_is_retried, setup, teardown),
		cmocka_unit_test_setup_teardown(test_busy_line_given_up_without_retry_time,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
