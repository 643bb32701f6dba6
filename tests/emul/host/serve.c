// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Serving the bus device nodes (/dev/i2c-N, /dev/spidevB.C) off umockdev's
 * thread.
 *
 * umockdev hands every request of every emulated device node to one
 * worker thread, and umockdev_ioctl_data_resolve() is a synchronous round
 * trip to the calling process: the thread sends READ_MEM and blocks until
 * that process is scheduled and answers.  An I2C_RDWR of one message
 * takes three of them (the ioctl argument, the message array, the
 * buffer).  Handled on that thread, a program on one bus waited for the
 * round trips of programs on every other bus, which no kernel does: i2c-dev
 * copies from user memory in the caller's own context, and only the
 * adapter's bus lock is shared, by the clients of that adapter.
 *
 * So the handlers of the bus nodes run on a pool of threads instead: the
 * signal handler on umockdev's thread only queues the request (umockdev
 * documents that a handler may return TRUE at once and complete the
 * request later, from another thread).  A client sends its next request
 * only after the last one completed, so each open file's requests still
 * run one at a time and in order.  What two clients of one adapter share
 * is modelled where the kernel has it: the transaction runs on the bus
 * model under the board lock, atomically, and in model time it starts
 * when the bus is free (em_bus, clock.c), so a frame on the wire is never
 * split by another client's transaction.
 */
#include <errno.h>

#include "emub-priv.h"

#define SERVE_THREADS 32 /* clients served at once; more wait in the queue */

struct serve_hook {
	struct emub *eb;
	GCallback fn; /* gboolean (*)(UMockdevIoctlBase *, UMockdevIoctlClient *, gpointer) */
	gpointer user;
};

struct serve_job {
	struct serve_hook *hook;
	UMockdevIoctlBase *base;
	UMockdevIoctlClient *client;
	guint64 arrival_ns; /* CLOCK_MONOTONIC when umockdev handed it over */
};

/* The request the calling pool thread runs: when it arrived (0: none). */
static __thread guint64 job_arrival_ns;

guint64 emub_serve_arrival_ns(void)
{
	return job_arrival_ns;
}

typedef gboolean (*serve_fn)(UMockdevIoctlBase *, UMockdevIoctlClient *, gpointer);

static void run_job(gpointer data, gpointer unused)
{
	struct serve_job *j = data;

	(void)unused;
	job_arrival_ns = j->arrival_ns;
	((serve_fn)j->hook->fn)(j->base, j->client, j->hook->user);
	job_arrival_ns = 0;
	g_object_unref(j->client);
	g_object_unref(j->base);
	g_free(j);
}

static gboolean trampoline(UMockdevIoctlBase *base, UMockdevIoctlClient *client, gpointer data)
{
	struct serve_hook *h = data;
	struct emub *eb = h->eb;
	gboolean queued = FALSE;

	g_mutex_lock(&eb->serve_lock);
	if (eb->serve_pool) {
		struct serve_job *j = g_new0(struct serve_job, 1);

		j->hook = h;
		j->arrival_ns = (guint64)g_get_monotonic_time() * 1000;
		j->base = g_object_ref(base);
		j->client = g_object_ref(client);
		queued = g_thread_pool_push(eb->serve_pool, j, NULL);
		if (!queued) {
			g_object_unref(j->client);
			g_object_unref(j->base);
			g_free(j);
		}
	}
	g_mutex_unlock(&eb->serve_lock);
	if (queued)
		return TRUE;
	/* no pool (the board is being taken down): as umockdev would */
	return ((serve_fn)h->fn)(base, client, h->user);
}

void emub_serve_connect(struct emub *eb, UMockdevIoctlBase *base, const char *signal,
			GCallback fn, gpointer user)
{
	struct serve_hook *h = g_new0(struct serve_hook, 1);

	h->eb = eb;
	h->fn = fn;
	h->user = user;
	g_signal_connect_data(base, signal, G_CALLBACK(trampoline), h,
			      (GClosureNotify)(void (*)(void))g_free, 0);
}

int emub_serve_start(struct emub *eb)
{
	GError *e = NULL;
	GThreadPool *p = g_thread_pool_new(run_job, NULL, SERVE_THREADS, FALSE, &e);

	if (!p) {
		emub_log(eb, "thread pool: %s", e ? e->message : "?");
		g_clear_error(&e);
		return -EAGAIN;
	}
	g_mutex_lock(&eb->serve_lock);
	eb->serve_pool = p;
	g_mutex_unlock(&eb->serve_lock);
	return 0;
}

/* Runs what is queued, then serves any later request on umockdev's thread. */
void emub_serve_stop(struct emub *eb)
{
	GThreadPool *p;

	g_mutex_lock(&eb->serve_lock);
	p = eb->serve_pool;
	eb->serve_pool = NULL;
	g_mutex_unlock(&eb->serve_lock);
	if (p)
		g_thread_pool_free(p, FALSE, TRUE);
}
