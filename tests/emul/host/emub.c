// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * emuboard lifecycle and public API: build the testbed from a board
 * description, instantiate the chip models on their buses, start the
 * service threads, bind the devices marked bound, run programs inside the
 * board, and report counters, stats and modelled kernel oopses.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "emub-priv.h"
#include "emub-spi.h"

#define PRELOAD_LIB "libumockdev-preload.so.0"
#ifndef EMUB_GPIOD_PRELOAD
#error "EMUB_GPIOD_PRELOAD: the path of libemuboard-gpiod.so (Makefile)"
#endif
#define GPIOD_PRELOAD EMUB_GPIOD_PRELOAD

void emub_log(struct emub *eb, const char *fmt, ...)
{
	va_list ap;
	struct timespec ts;

	if (!eb->log)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	va_start(ap, fmt);
	flockfile(eb->log);
	fprintf(eb->log, "[emuboard %5ld.%06ld] ", (long)ts.tv_sec % 100000, ts.tv_nsec / 1000);
	vfprintf(eb->log, fmt, ap);
	fputc('\n', eb->log);
	fflush(eb->log);
	funlockfile(eb->log);
	va_end(ap);
}

/* ------------------------------------------------------------ creation */

static struct emub *emub_alloc(void)
{
	struct emub *eb = g_new0(struct emub, 1);

	g_mutex_init(&eb->lock);
	g_mutex_init(&eb->uevent_lock);
	g_cond_init(&eb->run_cond);
	g_mutex_init(&eb->serve_lock);
	g_mutex_init(&eb->done_lock);
	g_cond_init(&eb->done_cond);
	g_cond_init(&eb->pacer_cond);
	g_cond_init(&eb->gpio_cond);
	eb->inotify_fd = -1;
	eb->gpio_listen_fd = -1;
	eb->oopses = g_ptr_array_new_with_free_func(g_free);
	eb->inputs_dead = g_ptr_array_new();
	return eb;
}

int emub_new_from_string(const char *text, const char *base_dir, struct emub **out, char *err,
			 size_t errsz)
{
	struct emub *eb = emub_alloc();
	int r = emub_board_parse(text, base_dir, &eb->desc, err, errsz);

	if (r) {
		emub_free(eb);
		return r;
	}
	eb->base_dir = g_strdup(base_dir ? base_dir : ".");
	eb->realtime = eb->desc.realtime;
	*out = eb;
	return 0;
}

int emub_new_from_file(const char *path, struct emub **out, char *err, size_t errsz)
{
	char *text = NULL, *dir;
	GError *e = NULL;
	int r;

	if (!g_file_get_contents(path, &text, NULL, &e)) {
		snprintf(err, errsz, "%s", e->message);
		g_error_free(e);
		return -ENOENT;
	}
	dir = g_path_get_dirname(path);
	r = emub_new_from_string(text, dir, out, err, errsz);
	if (r) {
		char *m = g_strdup_printf("%s: %s", path, err);

		snprintf(err, errsz, "%s", m);
		g_free(m);
	}
	g_free(dir);
	g_free(text);
	return r;
}

void emub_set_realtime(struct emub *eb, bool realtime)
{
	if (!eb->started) /* the pacing threads start with the board */
		eb->realtime = realtime;
}

void emub_set_keep_dir(struct emub *eb, const char *dir)
{
	eb->keep = true;
	g_free(eb->keep_dir);
	eb->keep_dir = g_strdup(dir);
}

void emub_set_log(struct emub *eb, FILE *f)
{
	eb->log = f;
	eb->trace = f && getenv("EMUBOARD_TRACE") && *getenv("EMUBOARD_TRACE");
}

void emub_set_trace(struct emub *eb, bool on)
{
	eb->trace = on && eb->log;
}

void emub_set_on_uevent_after_boot(struct emub *eb, bool after)
{
	eb->on_uevent_after_boot = after;
}

void emub_set_on_uevent(struct emub *eb, const char *cmd)
{
	g_free(eb->on_uevent);
	eb->on_uevent = g_strdup(cmd);
}

static int make_chip(struct emub_chip *c)
{
	struct emub_chip_desc *d = c->desc;
	int r = d->cm->create(c);

	if (r)
		return r;
	c->powered = true;
	/* A supply the driver switches is off until its probe enables it. */
	if (d->power_driver && d->driver) {
		c->ops->set_power(c->model, false);
		c->powered = false;
	}
	if (em_bus_add_chip(&c->ad->bus, &emub_chip_wrap_ops, c))
		return -ENOSPC;
	for (guint i = 0; i < d->nak_addrs->len; i++)
		em_bus_set_nak(&c->ad->bus, g_array_index(d->nak_addrs, guint16, i), true);
	c->irq_level_now = c->ops->irq_asserted(c->model);
	return 0;
}

int emub_start(struct emub *eb)
{
	struct timespec ts;
	int r;

	if (eb->started)
		return -EALREADY;
	eb->tb = umockdev_testbed_new();
	eb->root = umockdev_testbed_get_root_dir(eb->tb);
	eb->sys = umockdev_testbed_get_sys_dir(eb->tb);
	r = emub_inotify_init(eb);
	if (r)
		return r;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	eb->t0_us = (gint64)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;

	eb->nadapters = eb->desc.nadapters;
	for (int i = 0; i < eb->nadapters; i++) {
		struct emub_adapter *ad = &eb->adapters[i];

		ad->eb = eb;
		ad->desc = eb->desc.adapters[i];
		ad->timeout_ms = 1000; /* i2c_register_adapter(): HZ */
		em_bus_init(&ad->bus, ad->desc.hz);
	}
	eb->nchips = eb->desc.nchips;
	for (int i = 0; i < eb->nchips; i++) {
		struct emub_chip *c = &eb->chips[i];

		c->eb = eb;
		c->desc = &eb->desc.chips[i];
		c->ad = emub_find_adapter(eb, c->desc->adapter);
		r = make_chip(c);
		if (r)
			return r;
	}
	eb->gpio_nlines = eb->desc.gpio_nlines;
	r = emub_serve_start(eb);
	if (!r)
		r = emub_build_tree(eb);
	if (!r)
		r = emub_gpio_setup(eb);
	for (int i = 0; !r && i < eb->nadapters; i++)
		r = emub_i2cdev_attach(&eb->adapters[i]);
	if (r)
		return r;
	for (int i = 0; i < eb->nchips; i++) {
		struct emub_chip *c = &eb->chips[i];

		if (c->desc->chg_gpio >= 0)
			eb->lines[c->desc->chg_gpio].phys =
				emub_chip_int_both_ways(c) ? c->desc->cm->int_level(c->model)
							   : !c->irq_level_now;
	}
	emub_devices_create(eb);
	if (!eb->on_uevent_after_boot)
		emub_uevent_runner_start(eb);
	emub_service_start(eb);
	r = emub_spi_start(eb);
	if (r)
		return r;
	emub_completer_start(eb);
	emub_pacer_start(eb);
	eb->started = true;
	emub_log(eb, "board \"%s\" up in %s (%s pacing)", eb->desc.name, eb->root,
		 eb->realtime ? "realtime" : "fast");

	for (int i = 0; i < eb->nchips; i++) {
		struct emub_chip *c = &eb->chips[i];
		int res = 0;

		if (!c->desc->bound || !c->dev->drv)
			continue;
		emub_dev_queue(c->dev, EMUB_JOB_BIND, NULL, NULL, 0, 0, 0, true, &res);
		if (res)
			emub_log(eb, "%s: probe at start failed: %s", c->dev->name,
				 g_strerror(-res));
	}
	if (eb->on_uevent_after_boot) {
		for (int i = 0; i < eb->nchips; i++)
			emub_wait_idle(eb, eb->chips[i].desc->name, 10000);
		emub_uevent_runner_start(eb);
	}
	return 0;
}

static void keep_tree(struct emub *eb)
{
	char *argv[] = { "cp", "-a", NULL, NULL, NULL };
	char *src = g_strdup_printf("%s/.", eb->root);

	if (!eb->keep_dir) {
		fprintf(stderr, "emuboard: testbed kept in %s\n", eb->root);
		g_free(src);
		return;
	}
	g_mkdir_with_parents(eb->keep_dir, 0755);
	argv[2] = src;
	argv[3] = eb->keep_dir;
	if (!g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
			  NULL, NULL, NULL, NULL, NULL, NULL))
		fprintf(stderr, "emuboard: could not copy the testbed to %s\n", eb->keep_dir);
	g_free(src);
}

void emub_free(struct emub *eb)
{
	if (!eb)
		return;
	if (eb->started)
		emub_settle(eb); /* writes that returned take effect */
	g_mutex_lock(&eb->lock);
	eb->stopping = true;
	g_cond_broadcast(&eb->gpio_cond);
	for (int i = 0; eb->started && i < eb->nchips; i++)
		if (eb->chips[i].dev)
			g_cond_broadcast(&eb->chips[i].dev->idle_cond); /* held probes */
	g_mutex_unlock(&eb->lock);
	emub_serve_stop(eb); /* what was asked of the bus nodes is done */
	if (eb->started) {
		emub_devices_stop(eb);
		emub_spi_stop(eb);
		emub_service_stop(eb);
		emub_devices_destroy(eb);
		emub_gpio_teardown(eb);
		emub_pacer_stop(eb);
		emub_completer_stop(eb);
		emub_uevent_runner_stop(eb);
		emub_input_teardown(eb);
		for (int i = 0; i < eb->nadapters; i++)
			if (eb->adapters[i].ioctl) {
				umockdev_testbed_detach_ioctl(eb->tb, eb->adapters[i].devnode,
							      NULL);
				g_object_unref(eb->adapters[i].ioctl);
			}
	} else {
		emub_service_stop(eb);
	}
	if (eb->tb) {
		if (eb->keep)
			keep_tree(eb);
		if (eb->keep && !eb->keep_dir) {
			/* leave it: GLib would remove it with the testbed */
			g_object_ref(eb->tb);
		}
		g_object_unref(eb->tb);
	}
	emub_inputs_reap(eb); /* umockdev's thread is gone with the testbed */
	for (int i = 0; i < eb->nadapters; i++) {
		g_free(eb->adapters[i].devpath);
		g_free(eb->adapters[i].devnode);
	}
	for (int i = 0; i < eb->nchips; i++)
		g_free(eb->chips[i].model);
	g_ptr_array_free(eb->oopses, TRUE);
	emub_board_desc_clear(&eb->desc);
	g_free(eb->fw_path_param);
	g_free(eb->root);
	g_free(eb->sys);
	g_free(eb->base_dir);
	g_free(eb->keep_dir);
	g_free(eb->on_uevent);
	if (eb->attr_held)
		g_hash_table_destroy(eb->attr_held);
	g_mutex_clear(&eb->lock);
	g_mutex_clear(&eb->uevent_lock);
	g_cond_clear(&eb->run_cond);
	g_mutex_clear(&eb->serve_lock);
	g_mutex_clear(&eb->done_lock);
	g_cond_clear(&eb->done_cond);
	g_cond_clear(&eb->pacer_cond);
	g_cond_clear(&eb->gpio_cond);
	g_free(eb);
}

const char *emub_root(const struct emub *eb)
{
	return eb->root;
}

const char *emub_gpio_socket(const struct emub *eb)
{
	return eb->gpio_sock;
}

const char *emub_board_name(const struct emub *eb)
{
	return eb->desc.name;
}

bool emub_realtime(const struct emub *eb)
{
	return eb->realtime;
}

/* ------------------------------------------------------------ preload */

/*
 * LD_PRELOAD for the board: the board's shim (tests/emul/gpiod-preload.c)
 * and umockdev's preload, each added to @old unless it is there, after
 * libasan when that is there (it must come first), else in front.  The
 * shim comes before umockdev's: its write() (driver attributes) must see
 * the call first, as umockdev's calls libc's directly.
 */
static char *preload_value(const char *old)
{
	const char *const libs[][2] = { { "libemuboard-gpiod", GPIOD_PRELOAD },
					{ "libumockdev-preload", PRELOAD_LIB } };
	bool asan = old && (strstr(old, "libasan") || strstr(old, "libclang_rt.asan"));
	GString *v = g_string_new(asan ? old : NULL);

	for (size_t i = 0; i < G_N_ELEMENTS(libs); i++) {
		if (old && strstr(old, libs[i][0]))
			continue;
		if (v->len)
			g_string_append_c(v, ':');
		g_string_append(v, libs[i][1]);
	}
	if (!asan && old && *old) {
		if (v->len)
			g_string_append_c(v, ':');
		g_string_append(v, old);
	}
	return g_string_free(v, FALSE);
}

const char *emub_gpiod_preload(void)
{
	return GPIOD_PRELOAD;
}

int emub_reexec_under_preload(int argc, char **argv)
{
	const char *old = getenv("LD_PRELOAD");
	char *v;

	(void)argc;
	if (old && strstr(old, "libumockdev-preload") && strstr(old, "libemuboard-gpiod"))
		return 0;
	if (getenv("EMUB_NO_REEXEC") && !strcmp(getenv("EMUB_NO_REEXEC"), "1"))
		return 0;
	v = preload_value(old);
	setenv("LD_PRELOAD", v, 1);
	g_free(v);
	/* ASan checks that it comes first in the link order; with the preload
	 * in LD_PRELOAD after it that holds, but not for unsanitized helpers. */
	execv("/proc/self/exe", argv);
	return -errno;
}

char **emub_child_env(struct emub *eb, const char *const *extra)
{
	char **env = g_get_environ();
	char *pre = preload_value(g_environ_getenv(env, "LD_PRELOAD"));

	env = g_environ_setenv(env, "LD_PRELOAD", pre, TRUE);
	env = g_environ_setenv(env, "UMOCKDEV_DIR", eb->root, TRUE);
	g_free(pre);
	for (; extra && *extra; extra++) {
		const char *eq = strchr(*extra, '=');
		char *k;

		if (!eq)
			continue;
		k = g_strndup(*extra, (gsize)(eq - *extra));
		env = g_environ_setenv(env, k, eq + 1, TRUE);
		g_free(k);
	}
	return env;
}

/* ------------------------------------------------------------ children */

struct emub_child {
	struct emub *eb;
	pid_t pid;
	bool reaped;
	int status;
	char *out_path, *err_path;
	char *out, *err;
};

static int child_counter;

int emub_spawn(struct emub *eb, const char *const *argv, const char *const *env, bool capture,
	       struct emub_child **out)
{
	struct emub_child *c = g_new0(struct emub_child, 1);
	char **cenv = emub_child_env(eb, env);
	pid_t pid;
	int n = g_atomic_int_add(&child_counter, 1);

	c->eb = eb;
	if (capture) {
		c->out_path = g_strdup_printf("%s/child-%d.out", eb->root, n);
		c->err_path = g_strdup_printf("%s/child-%d.err", eb->root, n);
		/* there before the child runs, for emub_child_wait_output */
		g_file_set_contents(c->out_path, "", 0, NULL);
		g_file_set_contents(c->err_path, "", 0, NULL);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int r = -errno;

		g_strfreev(cenv);
		emub_child_free(c);
		return r;
	}
	if (pid == 0) {
		if (capture) {
			int o = open(c->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				     0644);
			int e = open(c->err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
				     0644);

			if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
				_exit(127);
		}
		setpgid(0, 0);
		execvpe(argv[0], (char *const *)argv, cenv);
		fprintf(stderr, "emuboard: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	g_strfreev(cenv);
	c->pid = pid;
	*out = c;
	return 0;
}

/*
 * Wait for the child @pid to end, until @end_us (g_get_monotonic_time();
 * < 0: no end): 0 once reaped (*@status its waitpid status), -ETIMEDOUT
 * with it still running, or -errno.  Sleeps in poll() on a pidfd, so the
 * caller wakes when the child ends, not at the next tick of a poll loop.
 */
int emub_pid_wait(pid_t pid, int *status, gint64 end_us)
{
	int pfd = pidfd_open(pid, 0), r = -ETIMEDOUT;

	for (;;) {
		pid_t p = waitpid(pid, status, WNOHANG);
		gint64 left;
		struct pollfd pl = { .fd = pfd, .events = POLLIN };

		if (p == pid) {
			r = 0;
			break;
		}
		if (p < 0 && errno != EINTR) {
			r = -errno;
			break;
		}
		left = end_us < 0 ? -1 : end_us - g_get_monotonic_time();
		if (end_us >= 0 && left <= 0)
			break;
		if (pfd < 0) /* no pidfd (Linux < 5.3): look again in a ms */
			g_usleep(1000);
		else
			poll(&pl, 1, left < 0 ? -1 : (int)MIN((left + 999) / 1000, 60000));
	}
	if (pfd >= 0)
		close(pfd);
	return r;
}

int emub_child_wait(struct emub_child *c, int timeout_ms, int *wstatus)
{
	int r = 0;

	if (!c->reaped) {
		gint64 end = timeout_ms < 0
				     ? -1
				     : g_get_monotonic_time() + (gint64)timeout_ms * 1000;

		r = emub_pid_wait(c->pid, &c->status, end);
		if (r == -ETIMEDOUT) {
			kill(-c->pid, SIGKILL);
			kill(c->pid, SIGKILL);
			waitpid(c->pid, &c->status, 0);
		} else if (r) {
			return r;
		}
		c->reaped = true;
	}
	if (c->out_path && !c->out)
		g_file_get_contents(c->out_path, &c->out, NULL, NULL);
	if (c->err_path && !c->err)
		g_file_get_contents(c->err_path, &c->err, NULL, NULL);
	if (wstatus)
		*wstatus = c->status;
	return r;
}

/* @c's captured output so far contains @needle. */
static bool child_said(const struct emub_child *c, const char *needle)
{
	const char *paths[] = { c->out_path, c->err_path };
	bool found = false;

	for (int i = 0; i < 2 && !found; i++) {
		char *s = NULL;

		if (paths[i] && g_file_get_contents(paths[i], &s, NULL, NULL))
			found = strstr(s, needle) != NULL;
		g_free(s);
	}
	return found;
}

int emub_child_wait_output(struct emub_child *c, const char *needle, int timeout_ms)
{
	gint64 end = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
	int ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	int pfd = c->reaped ? -1 : pidfd_open(c->pid, 0);
	int r = -ETIMEDOUT;

	if (!c->out_path) {
		r = -EINVAL; /* nothing captured */
		goto out;
	}
	if (ifd >= 0 && (inotify_add_watch(ifd, c->out_path, IN_MODIFY) < 0 ||
			 inotify_add_watch(ifd, c->err_path, IN_MODIFY) < 0)) {
		close(ifd);
		ifd = -1;
	}
	for (;;) {
		struct pollfd p[2] = { { .fd = ifd, .events = POLLIN },
				       { .fd = pfd, .events = POLLIN } };
		gint64 left;
		char buf[4096];

		/* ended: what it wrote is all there is */
		bool ended = c->reaped || (pfd >= 0 && poll(&p[1], 1, 0) > 0);

		if (child_said(c, needle)) {
			r = 0;
			break;
		}
		if (ended) {
			r = -ECHILD;
			break;
		}
		left = end - g_get_monotonic_time();
		if (left <= 0)
			break;
		if (ifd < 0 || pfd < 0) {
			g_usleep(1000); /* without inotify or a pidfd: look again */
			continue;
		}
		poll(p, 2, (int)MIN((left + 999) / 1000, 60000));
		while (read(ifd, buf, sizeof(buf)) > 0)
			;
	}
out:
	if (ifd >= 0)
		close(ifd);
	if (pfd >= 0)
		close(pfd);
	return r;
}

int emub_child_pid(const struct emub_child *c)
{
	return c->pid;
}

const char *emub_child_stdout(const struct emub_child *c)
{
	return c->out ? c->out : "";
}

const char *emub_child_stderr(const struct emub_child *c)
{
	return c->err ? c->err : "";
}

void emub_child_free(struct emub_child *c)
{
	if (!c)
		return;
	if (c->pid > 0 && !c->reaped) {
		kill(-c->pid, SIGKILL);
		kill(c->pid, SIGKILL);
		waitpid(c->pid, NULL, 0);
	}
	if (c->out_path)
		unlink(c->out_path);
	if (c->err_path)
		unlink(c->err_path);
	g_free(c->out_path);
	g_free(c->err_path);
	g_free(c->out);
	g_free(c->err);
	g_free(c);
}

int emub_run(struct emub *eb, const char *const *argv, const char *const *env, int timeout_ms,
	     char **out, char **errout)
{
	struct emub_child *c;
	int st = 0, r = emub_spawn(eb, argv, env, out || errout, &c);

	if (r)
		return r;
	r = emub_child_wait(c, timeout_ms, &st);
	if (out)
		*out = g_strdup(emub_child_stdout(c));
	if (errout)
		*errout = g_strdup(emub_child_stderr(c));
	emub_child_free(c);
	if (r)
		return r;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + WTERMSIG(st);
}

/* ------------------------------------------------------------ lookups */

struct emub_chip *emub_find_chip(struct emub *eb, const char *dev)
{
	if (!dev)
		return NULL;
	for (int i = 0; i < eb->nchips; i++) {
		struct emub_chip *c = &eb->chips[i];

		if (!strcmp(c->desc->name, dev) || (c->dev && !strcmp(c->dev->name, dev)))
			return c;
	}
	return NULL;
}

struct emub_adapter *emub_find_adapter(struct emub *eb, int nr)
{
	for (int i = 0; i < eb->nadapters; i++)
		if (eb->adapters[i].desc.nr == nr)
			return &eb->adapters[i];
	return NULL;
}

const char *emub_dev_name(struct emub *eb, const char *dev)
{
	struct emub_chip *c = emub_find_chip(eb, dev);

	return c && c->dev ? c->dev->name : NULL;
}

int emub_dev_syspath(struct emub *eb, const char *dev, char *buf, size_t sz)
{
	struct emub_chip *c = emub_find_chip(eb, dev);

	if (!c || !c->dev)
		return -ENODEV;
	return (size_t)snprintf(buf, sz, "/sys%s", c->dev->devpath) < sz ? 0 : -ENAMETOOLONG;
}

bool emub_dev_bound(struct emub *eb, const char *dev)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	bool b;

	if (!c || !c->dev)
		return false;
	g_mutex_lock(&eb->lock);
	b = c->dev->bound;
	g_mutex_unlock(&eb->lock);
	return b;
}

int emub_input_node(struct emub *eb, const char *dev, char *buf, size_t sz)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	int r = -ENODEV;

	if (!c || !c->dev)
		return -ENODEV;
	g_mutex_lock(&eb->lock);
	if (c->dev->input) {
		snprintf(buf, sz, "/dev/input/event%d", c->dev->input->minor - 64);
		r = 0;
	}
	g_mutex_unlock(&eb->lock);
	return r;
}

int emub_update_fw_result(struct emub *eb, const char *dev, int *result)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	int r = -ENOENT;

	if (!c || !c->dev)
		return -ENODEV;
	emub_wait_idle(eb, dev, 60000);
	g_mutex_lock(&eb->lock);
	if (c->dev->have_update_fw) {
		*result = c->dev->update_fw_result;
		r = 0;
	}
	g_mutex_unlock(&eb->lock);
	return r;
}

int emub_update_fw_count(struct emub *eb, const char *dev)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	int n;

	if (!c || !c->dev)
		return -ENODEV;
	emub_wait_idle(eb, dev, 60000);
	g_mutex_lock(&eb->lock);
	n = c->dev->update_fw_count;
	g_mutex_unlock(&eb->lock);
	return n;
}

int emub_update_fw_count_now(struct emub *eb, const char *dev)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	int n;

	if (!c || !c->dev)
		return -ENODEV;
	g_mutex_lock(&eb->lock);
	n = c->dev->update_fw_count;
	g_mutex_unlock(&eb->lock);
	return n;
}

int emub_oops_count(struct emub *eb)
{
	int n;

	emub_settle(eb); /* reads that have returned are seen */
	g_mutex_lock(&eb->lock);
	n = (int)eb->oopses->len;
	g_mutex_unlock(&eb->lock);
	return n;
}

const char *emub_oops_message(struct emub *eb, int i)
{
	const char *m = NULL;

	g_mutex_lock(&eb->lock);
	if (i >= 0 && (guint)i < eb->oopses->len)
		m = eb->oopses->pdata[i];
	g_mutex_unlock(&eb->lock);
	return m;
}

/* ------------------------------------------------------------ driver core API */

int emub_bind(struct emub *eb, const char *dev)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	int res = 0;

	if (!c || !c->dev || !c->dev->drv)
		return -ENODEV;
	emub_settle(eb);
	emub_dev_queue(c->dev, EMUB_JOB_BIND, NULL, NULL, 0, 0, 0, true, &res);
	return res;
}

int emub_unbind(struct emub *eb, const char *dev)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	int res = 0;

	if (!c || !c->dev || !c->dev->drv)
		return -ENODEV;
	emub_settle(eb);
	emub_dev_queue(c->dev, EMUB_JOB_UNBIND, NULL, NULL, 0, 0, 0, true, &res);
	return res;
}

int emub_suspend_resume(struct emub *eb, const char *dev)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	int res = 0;

	if (!c || !c->dev || !c->dev->drv)
		return -ENODEV;
	emub_settle(eb);
	emub_dev_queue(c->dev, EMUB_JOB_SLEEP, NULL, NULL, 0, 0, 0, true, &res);
	return res;
}

int emub_uevent(struct emub *eb, const char *dev, const char *action)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	GPtrArray *env;

	if (!c || !c->dev)
		return -ENODEV;
	g_mutex_lock(&eb->lock);
	env = emub_dev_env(c->dev, true, strcmp(action, "unbind") != 0);
	g_mutex_unlock(&eb->lock);
	emub_uevent_send(eb, action, c->dev->devpath, "i2c", env);
	g_ptr_array_free(env, TRUE);
	return 0;
}

int emub_replug(struct emub *eb, const char *dev)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	int res = 0;

	if (!c || !c->dev || !c->dev->drv)
		return -ENODEV;
	emub_settle(eb);
	emub_dev_queue(c->dev, EMUB_JOB_REPLUG, NULL, NULL, 0, 0, 0, true, &res);
	return res;
}

int emub_hold_probe(struct emub *eb, const char *dev, bool hold)
{
	struct emub_chip *c = emub_find_chip(eb, dev);

	if (!c || !c->dev || !c->dev->drv)
		return -ENODEV;
	g_mutex_lock(&eb->lock);
	c->dev->probe_hold = hold;
	if (!hold)
		g_cond_broadcast(&c->dev->idle_cond);
	g_mutex_unlock(&eb->lock);
	return 0;
}

int emub_wait_idle(struct emub *eb, const char *dev, int timeout_ms)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	gint64 end = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
	int r = 0;

	if (!c || !c->dev)
		return -ENODEV;
	emub_settle(eb);
	g_mutex_lock(&eb->lock);
	while (c->dev->busy > 0) {
		if (!g_cond_wait_until(&c->dev->idle_cond, &eb->lock, end)) {
			r = c->dev->busy > 0 ? -ETIMEDOUT : 0;
			break;
		}
	}
	g_mutex_unlock(&eb->lock);
	return r;
}

int emub_wait_board_idle(struct emub *eb, int timeout_ms)
{
	gint64 end = g_get_monotonic_time() + (gint64)timeout_ms * 1000;

	emub_spi_settle(eb); /* spi binds run on the service thread */
	for (int i = 0; i < eb->nchips; i++) {
		gint64 left = (end - g_get_monotonic_time()) / 1000;

		if (eb->chips[i].dev &&
		    emub_wait_idle(eb, eb->chips[i].desc->name, (int)MAX(left, 0)) < 0)
			return -ETIMEDOUT;
	}
	return 0;
}

/* ------------------------------------------------------------ counters */

static void copy_counters(struct emub_bus_counters *o, const struct em_bus_counters *c)
{
	o->transactions = c->transactions;
	o->messages = c->messages;
	o->bytes_written = c->bytes_written;
	o->bytes_read = c->bytes_read;
	o->naks = c->naks;
	o->bus_ns = c->bus_ns;
}

static void user_counters(struct em_bus_counters *u, const struct emub_adapter *ad)
{
	u->transactions = ad->bus.count.transactions - ad->drv.transactions;
	u->messages = ad->bus.count.messages - ad->drv.messages;
	u->bytes_written = ad->bus.count.bytes_written - ad->drv.bytes_written;
	u->bytes_read = ad->bus.count.bytes_read - ad->drv.bytes_read;
	u->naks = ad->bus.count.naks - ad->drv.naks;
	u->bus_ns = ad->bus.count.bus_ns - ad->drv.bus_ns;
}

int emub_adapter_counters(struct emub *eb, int nr, struct emub_bus_counters *user,
			  struct emub_bus_counters *driver)
{
	struct emub_adapter *ad = emub_find_adapter(eb, nr);
	struct em_bus_counters u;

	if (!ad)
		return -ENODEV;
	g_mutex_lock(&eb->lock);
	user_counters(&u, ad);
	if (user)
		copy_counters(user, &u);
	if (driver)
		copy_counters(driver, &ad->drv);
	g_mutex_unlock(&eb->lock);
	return 0;
}

uint64_t emub_wall_time_ns(struct emub *eb)
{
	return eb->realtime ? emub_wall_model_ns(eb) : 0;
}

uint64_t emub_model_time_ns(struct emub *eb)
{
	guint64 t;

	g_mutex_lock(&eb->lock);
	emub_sync_locked(eb);
	t = eb->now_ns;
	g_mutex_unlock(&eb->lock);
	return t;
}

uint64_t emub_skipped_ns(struct emub *eb, int nr)
{
	struct emub_adapter *ad = emub_find_adapter(eb, nr);
	guint64 t = 0;

	if (!ad)
		return 0;
	g_mutex_lock(&eb->lock);
	t = ad->skipped_ns;
	g_mutex_unlock(&eb->lock);
	return t;
}

uint64_t emub_idle_ns(struct emub *eb, uint64_t *transfers)
{
	guint64 t;

	g_mutex_lock(&eb->lock);
	emub_sync_locked(eb); /* closes the interval up to now */
	t = eb->idle_ns;
	if (transfers)
		*transfers = eb->idle_xfers;
	g_mutex_unlock(&eb->lock);
	return t;
}

uint64_t emub_adapter_interleaved(struct emub *eb, int nr)
{
	struct emub_adapter *ad = emub_find_adapter(eb, nr);
	guint64 n;

	if (!ad)
		return 0;
	g_mutex_lock(&eb->lock);
	n = ad->bus.interleaved;
	g_mutex_unlock(&eb->lock);
	return n;
}

uint64_t emub_chip_busy_ns(struct emub *eb, const char *dev)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	guint64 t;

	if (!c)
		return 0;
	g_mutex_lock(&eb->lock);
	t = c->busy_ns;
	g_mutex_unlock(&eb->lock);
	return t;
}

static void json_counters(FILE *f, const char *name, const struct em_bus_counters *c)
{
	fprintf(f,
		"\"%s\": {\"transactions\": %" G_GUINT64_FORMAT
		", \"messages\": %" G_GUINT64_FORMAT ", \"bytes_written\": %" G_GUINT64_FORMAT
		", \"bytes_read\": %" G_GUINT64_FORMAT ", \"naks\": %" G_GUINT64_FORMAT
		", \"bus_ns\": %" G_GUINT64_FORMAT "}",
		name, c->transactions, c->messages, c->bytes_written, c->bytes_read, c->naks,
		c->bus_ns);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

int emub_write_stats_json(struct emub *eb, FILE *f)
{
	emub_settle(eb);
	g_mutex_lock(&eb->lock);
	emub_sync_locked(eb);
	fprintf(f, "{\n  \"board\": ");
	json_str(f, eb->desc.name);
	fprintf(f,
		",\n  \"pacing\": \"%s\",\n  \"model_time_ns\": %" G_GUINT64_FORMAT
		",\n  \"uevents\": %" G_GUINT64_FORMAT ",\n  \"adapters\": [",
		eb->realtime ? "realtime" : "fast", eb->now_ns, eb->seqnum);
	for (int i = 0; i < eb->nadapters; i++) {
		struct emub_adapter *ad = &eb->adapters[i];
		struct em_bus_counters u;

		user_counters(&u, ad);
		fprintf(f, "%s\n    {\"nr\": %d, \"name\": ", i ? "," : "", ad->desc.nr);
		json_str(f, ad->desc.name);
		fprintf(f, ", \"hz\": %u, ", ad->desc.hz);
		json_counters(f, "user", &u);
		fprintf(f, ", ");
		json_counters(f, "driver", &ad->drv);
		fprintf(f, ", \"skipped_ns\": %" G_GUINT64_FORMAT "}", ad->skipped_ns);
	}
	fprintf(f, "\n  ],\n  \"chips\": [");
	for (int i = 0; i < eb->nchips; i++) {
		struct emub_chip *c = &eb->chips[i];

		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, c->desc->name);
		fprintf(f, ", \"device\": \"%s\", \"model\": ", c->dev ? c->dev->name : "");
		json_str(f, c->desc->model);
		fprintf(f, ", \"powered\": %s, \"bound\": %s, \"busy_ns\": %" G_GUINT64_FORMAT,
			c->powered ? "true" : "false",
			c->dev && c->dev->bound ? "true" : "false", c->busy_ns);
		if (c->desc->cm->stats_json)
			c->desc->cm->stats_json(c, f);
		if (c->dev && c->dev->have_update_fw)
			fprintf(f, ", \"update_fw_result\": %d", c->dev->update_fw_result);
		fprintf(f, "}");
	}
	fprintf(f, "\n  ],\n  \"oopses\": [");
	for (guint i = 0; i < eb->oopses->len; i++) {
		fprintf(f, "%s\n    ", i ? "," : "");
		json_str(f, eb->oopses->pdata[i]);
	}
	fprintf(f, "%s]\n}\n", eb->oopses->len ? "\n  " : "");
	g_mutex_unlock(&eb->lock);
	return ferror(f) ? -EIO : 0;
}

/* ------------------------------------------------------------ chips, faults */

void emub_lock(struct emub *eb)
{
	g_mutex_lock(&eb->lock);
}

void emub_unlock(struct emub *eb)
{
	g_mutex_unlock(&eb->lock);
}

void *emub_chip_model_of(struct emub *eb, const char *dev, const void *ops)
{
	struct emub_chip *c = emub_find_chip(eb, dev);

	return c && c->ops == ops ? c->model : NULL;
}

int emub_chip_poke(struct emub *eb, const char *dev, const void *ops,
		   int (*fn)(void *model, void *arg), void *arg)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	int r;

	if (!c || c->ops != ops)
		return -ENODEV;
	g_mutex_lock(&eb->lock);
	emub_sync_locked(eb);
	r = fn(c->model, arg);
	emub_check_irqs_locked(eb);
	emub_pacer_kick_locked(eb);
	g_mutex_unlock(&eb->lock);
	return r;
}

struct touch {
	int (*fn)(void *model, const void *pts, unsigned int n);
	const void *pts;
	unsigned int n;
};

static int touch(void *model, void *arg)
{
	const struct touch *t = arg;

	return t->fn(model, t->pts, t->n);
}

int emub_chip_touch(struct emub *eb, const char *dev, const void *ops,
		    int (*fn)(void *model, const void *pts, unsigned int n), const void *pts,
		    unsigned int n)
{
	struct touch t = { fn, pts, n };

	return emub_chip_poke(eb, dev, ops, touch, &t);
}

bool emub_chip_int_both_ways(const struct emub_chip *c)
{
	return c->desc->cm->int_level != NULL;
}

bool emub_chip_powered(struct emub *eb, const char *dev)
{
	struct emub_chip *c = emub_find_chip(eb, dev);
	bool p;

	if (!c)
		return false;
	g_mutex_lock(&eb->lock);
	p = c->powered;
	g_mutex_unlock(&eb->lock);
	return p;
}

int emub_set_nak(struct emub *eb, int nr, uint16_t addr, bool nak)
{
	struct emub_adapter *ad = emub_find_adapter(eb, nr);

	if (!ad || addr > 0x7f)
		return -EINVAL;
	g_mutex_lock(&eb->lock);
	em_bus_set_nak(&ad->bus, addr, nak);
	g_mutex_unlock(&eb->lock);
	return 0;
}

int emub_set_host_delay(struct emub *eb, int nr, uint32_t us)
{
	struct emub_adapter *ad = emub_find_adapter(eb, nr);

	if (!ad || us > 1000000)
		return -EINVAL;
	g_mutex_lock(&eb->lock);
	ad->desc.host_delay_us = us;
	g_mutex_unlock(&eb->lock);
	return 0;
}

int emub_set_no_input(struct emub *eb, const char *dev, bool on)
{
	struct emub_chip *c = emub_find_chip(eb, dev);

	if (!c)
		return -ENODEV;
	g_mutex_lock(&eb->lock);
	c->desc->no_input = on;
	g_mutex_unlock(&eb->lock);
	return 0;
}

int emub_set_input_delay(struct emub *eb, const char *dev, int ms)
{
	struct emub_chip *c = emub_find_chip(eb, dev);

	if (!c || ms < 0)
		return -EINVAL;
	g_mutex_lock(&eb->lock);
	c->desc->input_delay_ms = ms;
	g_mutex_unlock(&eb->lock);
	return 0;
}
