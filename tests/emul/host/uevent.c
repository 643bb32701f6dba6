// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Uevents of the emulated kernel.
 *
 * umockdev's preload turns every netlink uevent socket a program binds into
 * a unix datagram socket, which the board's shim names $UMOCKDEV_DIR/
 * event<FD>-<PID> (tests/emul/uevent-preload.c; umockdev's own name,
 * event<FD>, is not unique across processes).  umockdev_testbed_uevent()
 * only sends ACTION, DEVPATH, SUBSYSTEM, SEQNUM, DEVNAME and DEVTYPE (the
 * listener fills the rest from the device's uevent file when it processes
 * the event, so an event read late shows the state of a later one), and it
 * needs the sender to run under the preload.  The kernel sends a fixed
 * environment per event: unbind carries no DRIVER and no MODALIAS while
 * the uevent file still has MODALIAS.  So this file sends the messages
 * itself, in the libudev monitor wire format (header with the MurmurHash2
 * of the subsystem that libudev's socket filters test), with exactly the
 * environment lib/kobject_uevent.c builds: ACTION, DEVPATH, SUBSYSTEM, the
 * device's variables, SEQNUM last.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emub-priv.h"

#define UDEV_MONITOR_MAGIC 0xfeedcafe

/* systemd's struct monitor_netlink_header (sd-device/device-monitor.c) */
struct monitor_netlink_header {
	char prefix[8]; /* "libudev" */
	guint32 magic;	/* network order */
	guint32 header_size;
	guint32 properties_off;
	guint32 properties_len;
	guint32 filter_subsystem_hash; /* network order */
	guint32 filter_devtype_hash;
	guint32 filter_tag_bloom_hi;
	guint32 filter_tag_bloom_lo;
};

/* MurmurHash2 (Austin Appleby), 32-bit, seed = length: the hash libudev
 * puts into socket filters for subsystem and devtype matches. */
static guint32 murmur2(const char *s)
{
	const guint32 m = 0x5bd1e995;
	size_t len = strlen(s);
	guint32 h = (guint32)len;
	const unsigned char *p = (const unsigned char *)s;

	for (; len >= 4; len -= 4, p += 4) {
		guint32 k = (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 |
			    (guint32)p[3] << 24;

		k *= m;
		k ^= k >> 24;
		k *= m;
		h = h * m ^ k;
	}
	switch (len) {
	case 3:
		h ^= (guint32)p[2] << 16;
		/* fall through */
	case 2:
		h ^= (guint32)p[1] << 8;
		/* fall through */
	case 1:
		h ^= p[0];
		h *= m;
	}
	h ^= h >> 13;
	h *= m;
	h ^= h >> 15;
	return h;
}

/* 0 sent, -ECONNREFUSED listener gone, other -errno */
static int send_one(const char *path, struct iovec *iov, int n)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct msghdr mh = { 0 };
	struct timeval tv = { .tv_sec = 2 };
	int fd, r = 0;

	if (strlen(path) >= sizeof(a.sun_path))
		return -ENAMETOOLONG;
	strcpy(a.sun_path, path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* A slow listener's queue (net.unix.max_dgram_qlen, 10 by default)
	 * fills up: block a little rather than drop the event. */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		r = -errno;
	} else {
		mh.msg_iov = iov;
		mh.msg_iovlen = (size_t)n;
		if (sendmsg(fd, &mh, MSG_NOSIGNAL) < 0)
			r = -errno;
	}
	close(fd);
	return r;
}

struct run_job {
	char **env;
};

int emub_uevent_send(struct emub *eb, const char *action, const char *devpath,
		     const char *subsystem, GPtrArray *env)
{
	struct monitor_netlink_header h;
	GByteArray *props = g_byte_array_new();
	GPtrArray *all = g_ptr_array_new_with_free_func(g_free);
	struct iovec iov[2];
	char *pattern;
	glob_t gl;
	int sent = 0;

	g_mutex_lock(&eb->uevent_lock);
	g_ptr_array_add(all, g_strdup_printf("ACTION=%s", action));
	g_ptr_array_add(all, g_strdup_printf("DEVPATH=%s", devpath));
	g_ptr_array_add(all, g_strdup_printf("SUBSYSTEM=%s", subsystem));
	for (guint i = 0; env && i < env->len; i++)
		g_ptr_array_add(all, g_strdup(env->pdata[i]));
	g_ptr_array_add(all, g_strdup_printf("SEQNUM=%" G_GUINT64_FORMAT, ++eb->seqnum));
	for (guint i = 0; i < all->len; i++) {
		const char *s = all->pdata[i];

		g_byte_array_append(props, (const guint8 *)s, (guint)strlen(s) + 1);
	}

	memset(&h, 0, sizeof(h));
	memcpy(h.prefix, "libudev", 8);
	h.magic = htonl(UDEV_MONITOR_MAGIC);
	h.header_size = sizeof(h);
	h.properties_off = sizeof(h);
	h.properties_len = props->len;
	h.filter_subsystem_hash = htonl(murmur2(subsystem));
	for (guint i = 0; env && i < env->len; i++) {
		const char *s = env->pdata[i];

		if (g_str_has_prefix(s, "DEVTYPE="))
			h.filter_devtype_hash = htonl(murmur2(s + 8));
	}
	iov[0].iov_base = &h;
	iov[0].iov_len = sizeof(h);
	iov[1].iov_base = props->data;
	iov[1].iov_len = props->len;

	pattern = g_strdup_printf("%s/event[0-9]*", eb->root);
	if (glob(pattern, 0, NULL, &gl) == 0) {
		for (size_t i = 0; i < gl.gl_pathc; i++) {
			int r = send_one(gl.gl_pathv[i], iov, 2);

			if (r == -ECONNREFUSED)
				unlink(gl.gl_pathv[i]); /* the listener is gone */
			else if (r == 0)
				sent++;
			else
				emub_log(eb, "uevent %s %s: lost for listener %s: %s", action,
					 devpath, gl.gl_pathv[i], g_strerror(-r));
		}
		globfree(&gl);
	}
	g_free(pattern);
	emub_log(eb, "uevent %s %s (%s) seq %" G_GUINT64_FORMAT " -> %d listener(s)", action,
		 devpath, subsystem, eb->seqnum, sent);

	if (eb->run_queue) {
		struct run_job *j = g_new0(struct run_job, 1);

		g_ptr_array_add(all, NULL);
		j->env = (char **)g_ptr_array_free(all, FALSE);
		g_async_queue_push(eb->run_queue, j);
		eb->run_queued++;
	} else {
		g_ptr_array_free(all, TRUE);
	}
	g_mutex_unlock(&eb->uevent_lock);
	g_byte_array_free(props, TRUE);
	return sent;
}

/* ------------------------------------------------------------ listeners */

int emub_listeners(struct emub *eb)
{
	char *pattern = g_strdup_printf("%s/event[0-9]*", eb->root);
	glob_t gl;
	int n = 0;

	if (glob(pattern, 0, NULL, &gl) == 0) {
		for (size_t i = 0; i < gl.gl_pathc; i++) {
			struct sockaddr_un a = { .sun_family = AF_UNIX };
			int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

			if (fd < 0 || strlen(gl.gl_pathv[i]) >= sizeof(a.sun_path)) {
				if (fd >= 0)
					close(fd);
				continue;
			}
			strcpy(a.sun_path, gl.gl_pathv[i]);
			if (connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0)
				n++;
			close(fd);
		}
		globfree(&gl);
	}
	g_free(pattern);
	return n;
}

int emub_wait_listeners(struct emub *eb, int n, int timeout_ms)
{
	gint64 end = g_get_monotonic_time() + (gint64)timeout_ms * 1000;

	while (emub_listeners(eb) < n) {
		if (g_get_monotonic_time() >= end)
			return -ETIMEDOUT;
		g_usleep(5000);
	}
	return 0;
}

int emub_wait_uevents_run(struct emub *eb, int timeout_ms)
{
	gint64 end = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
	int r = 0;

	g_mutex_lock(&eb->uevent_lock);
	for (guint64 want = eb->run_queued; eb->run_done < want;) {
		if (!g_cond_wait_until(&eb->run_cond, &eb->uevent_lock, end)) {
			r = -ETIMEDOUT;
			break;
		}
	}
	g_mutex_unlock(&eb->uevent_lock);
	return r;
}

uint64_t emub_seqnum(struct emub *eb)
{
	guint64 s;

	g_mutex_lock(&eb->uevent_lock);
	s = eb->seqnum;
	g_mutex_unlock(&eb->uevent_lock);
	return s;
}

/* ------------------------------------------------------------ --on-uevent */

#define RUN_TIMEOUT_S 180 /* udevd's default event timeout */

static void run_one(struct emub *eb, char **evenv)
{
	char **env = emub_child_env(eb, (const char *const *)evenv);
	char *argv[] = { "/bin/sh", "-c", eb->on_uevent, NULL };
	GError *e = NULL;
	GPid pid;
	int status = 0;
	gint64 end;

	if (!g_spawn_async(NULL, argv, env, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &e)) {
		emub_log(eb, "on-uevent: %s", e->message);
		g_error_free(e);
		g_strfreev(env);
		return;
	}
	/* udevd runs RUN programs one at a time per device and kills them when
	 * the event times out; one queue gives the same ordering here. */
	end = g_get_monotonic_time() + RUN_TIMEOUT_S * G_USEC_PER_SEC;
	if (emub_pid_wait(pid, &status, end) == -ETIMEDOUT) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		emub_log(eb, "on-uevent: killed after %d s", RUN_TIMEOUT_S);
	}
	g_spawn_close_pid(pid);
	g_strfreev(env);
}

static gpointer runner_main(gpointer data)
{
	struct emub *eb = data;

	for (;;) {
		struct run_job *j = g_async_queue_pop(eb->run_queue);

		if (!j->env) {
			g_free(j);
			break;
		}
		run_one(eb, j->env);
		g_strfreev(j->env);
		g_free(j);
		g_mutex_lock(&eb->uevent_lock);
		eb->run_done++;
		g_cond_broadcast(&eb->run_cond);
		g_mutex_unlock(&eb->uevent_lock);
	}
	return NULL;
}

void emub_uevent_runner_start(struct emub *eb)
{
	if (!eb->on_uevent)
		return;
	eb->run_queue = g_async_queue_new();
	eb->runner = g_thread_new("emub-on-uevent", runner_main, eb);
}

void emub_uevent_runner_stop(struct emub *eb)
{
	if (!eb->runner)
		return;
	g_async_queue_push(eb->run_queue, g_new0(struct run_job, 1));
	g_thread_join(eb->runner);
	eb->runner = NULL;
	g_async_queue_unref(eb->run_queue);
	eb->run_queue = NULL;
}
