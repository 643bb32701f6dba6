// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model time and pacing.
 *
 * Every bus keeps its own model time (struct em_bus.now_ns); the board's
 * clock is the latest of them.  Two pacings:
 *
 *  fast      model time moves only when something happens: a transaction
 *            adds its wire time; before a user-space transaction the bus
 *            skips forward to the next pending chip event (a device busy
 *            with a frame check costs no wall time); a driver model's
 *            msleep() or a wait for CHG jumps over the time.  Monotonic.
 *            An adapter's host_delay_us lets that much model time pass
 *            before each user-space transfer: a host program that is
 *            descheduled between transfers, as on a loaded machine.
 *            Wall time a host lets pass between transfers is time for
 *            the chips too: the events due within it run before the
 *            host's next transfer (a tool that sleeps 1 s after a flash
 *            finds the chip booted, as on real hardware).
 *  realtime  model time is wall time since start.  A transaction completes
 *            for its caller only when its modelled wire time has passed,
 *            device operations take their modelled time, and a pacing
 *            thread runs chip events when they fall due so CHG edges reach
 *            GPIO waiters at the right time.
 *
 * Buses are advanced event by event so every CHG edge gets the exact model
 * time of the chip event that caused it.
 */
#include <errno.h>
#include <sys/prctl.h>
#include <time.h>

#include "emub-priv.h"

static guint64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (guint64)ts.tv_sec * G_GUINT64_CONSTANT(1000000000) + (guint64)ts.tv_nsec;
}

guint64 emub_wall_model_ns(struct emub *eb)
{
	gint64 now = (gint64)mono_ns() - eb->t0_us * 1000;

	return now > 0 ? (guint64)now : 0;
}

static void dev_irq_edge_locked(struct emub_chip *c, bool asserted)
{
	struct emub_dev *d = c->dev;

	if (!d || !d->irq_requested || !asserted)
		return;
	d->irq_edges++;
	if (d->irq_enabled && !d->irq_pending && d->drv && d->drv->irq) {
		d->irq_pending = true;
		/* the worker runs the threaded handler when it is idle; a job
		 * that waits for a completion runs it from its wait loop */
		if (d->jobs)
			emub_dev_queue_irq_locked(d);
	}
}

static void sample_locked(struct emub_chip *c);

static void check_irqs_bus_locked(struct emub_adapter *ad, guint64 t)
{
	struct emub *eb = ad->eb;

	for (int i = 0; i < eb->nchips; i++) {
		struct emub_chip *c = &eb->chips[i];

		if (c->ad != ad)
			continue;
		if (t > c->now_ns)
			c->now_ns = t;
		sample_locked(c);
	}
}

/*
 * The host puts a thin wrapper between each bus and its chip model so CHG
 * is sampled after every message and every chip event, not only between
 * transactions: a status read that releases CHG and a chip event that
 * raises it again inside one transaction are two edges, as on the wire.
 */
static void sample_locked(struct emub_chip *c)
{
	bool lvl = c->ops->irq_asserted(c->model);

	if (lvl == c->irq_level_now)
		return;
	c->irq_level_now = lvl;
	emub_gpio_chip_edge_locked(c->eb, c, lvl, c->now_ns);
	dev_irq_edge_locked(c, lvl);
	g_cond_broadcast(&c->eb->gpio_cond);
}

static int w_write(void *p, em_u16 addr, const em_u8 *buf, em_u16 len)
{
	struct emub_chip *c = p;
	int r = c->ops->write(c->model, addr, buf, len);

	sample_locked(c);
	return r;
}

static int w_read(void *p, em_u16 addr, em_u8 *buf, em_u16 len)
{
	struct emub_chip *c = p;
	int r = c->ops->read(c->model, addr, buf, len);

	sample_locked(c);
	return r;
}

static void w_stop(void *p)
{
	struct emub_chip *c = p;

	if (c->ops->stop)
		c->ops->stop(c->model);
	sample_locked(c);
}

static void w_advance(void *p, em_u64 now)
{
	struct emub_chip *c = p;

	c->ops->advance(c->model, now);
	if (now > c->now_ns)
		c->now_ns = now;
	sample_locked(c);
}

static em_u64 w_next_event(const void *p)
{
	const struct emub_chip *c = p;

	return c->ops->next_event(c->model);
}

static bool w_irq(const void *p)
{
	const struct emub_chip *c = p;

	return c->ops->irq_asserted(c->model);
}

static bool w_mid_unit(const void *p)
{
	const struct emub_chip *c = p;

	return c->ops->mid_unit && c->ops->mid_unit(c->model);
}

const struct em_chip_ops emub_chip_wrap_ops = {
	.name = "emuboard",
	.write = w_write,
	.read = w_read,
	.stop = w_stop,
	.advance = w_advance,
	.next_event = w_next_event,
	.irq_asserted = w_irq,
	.mid_unit = w_mid_unit,
	.set_reset = NULL,
	.set_power = NULL,
};

void emub_check_irqs_locked(struct emub *eb)
{
	for (int i = 0; i < eb->nadapters; i++)
		check_irqs_bus_locked(&eb->adapters[i], eb->adapters[i].bus.now_ns);
}

static void account_busy(struct emub_adapter *ad, guint64 from, guint64 to)
{
	struct emub *eb = ad->eb;

	if (to <= from)
		return;
	for (int i = 0; i < eb->nchips; i++) {
		struct emub_chip *c = &eb->chips[i];

		if (c->ad == ad && c->ops->next_event(c->model) != EM_NEVER)
			c->busy_ns += to - from;
	}
}

void emub_bus_advance_locked(struct emub_adapter *ad, guint64 t)
{
	struct em_bus *bus = &ad->bus;
	struct emub *eb = ad->eb;
	guint64 was = bus->now_ns;

	for (int guard = 0; guard < 100000; guard++) {
		guint64 ne = em_bus_next_event(bus);

		if (ne == EM_NEVER || ne > t)
			break;
		if (ne < bus->now_ns)
			ne = bus->now_ns; /* overdue: run it now */
		account_busy(ad, bus->now_ns, ne);
		em_bus_advance(bus, ne);
		check_irqs_bus_locked(ad, ne);
		if (em_bus_next_event(bus) <= ne)
			break; /* a chip that does not retire its event */
	}
	if (t > bus->now_ns) {
		account_busy(ad, bus->now_ns, t);
		em_bus_advance(bus, t);
		check_irqs_bus_locked(ad, t);
	}
	if (bus->now_ns > eb->now_ns)
		eb->now_ns = bus->now_ns;
	if (bus->now_ns > was && !eb->realtime)
		ad->wall_mark_ns = mono_ns();
}

/*
 * Fast pacing, before a user-space transfer: the wall time from the bus's
 * clock last moving to this request's arrival, less EMUB_IDLE_SLACK_NS
 * (the emulator's and the machine's own latency), is time the host let
 * pass, and the chip events due within it run, one by one, as they would
 * have in real time.  The clock
 * stops at the last of them, not at the end of the idle stretch: with
 * nothing left pending the rest changes nothing a host can see (so model
 * time stays what the transfers and the chips' own times make it), and
 * what is still pending is skipped to next anyway.  A host that polls
 * sooner than the chip's next event sees every state in turn, as before.
 */
static void run_idle_time_locked(struct emub_adapter *ad)
{
	struct em_bus *bus = &ad->bus;
	guint64 from = bus->now_ns, now = emub_serve_arrival_ns(), until;

	if (!now)
		now = mono_ns();
	if (!ad->wall_mark_ns || now <= ad->wall_mark_ns + EMUB_IDLE_SLACK_NS)
		return;
	until = from + (now - ad->wall_mark_ns - EMUB_IDLE_SLACK_NS);
	for (int guard = 0; guard < 100000; guard++) {
		guint64 ne = em_bus_next_event(bus);

		if (ne == EM_NEVER || ne > until)
			break;
		emub_bus_advance_locked(ad, ne > bus->now_ns ? ne : bus->now_ns);
		if (em_bus_next_event(bus) <= ne)
			break; /* a chip that does not retire its event */
	}
	ad->idle_run_ns += bus->now_ns - from;
}

uint64_t emub_idle_run_ns(struct emub *eb, int nr)
{
	struct emub_adapter *ad = emub_find_adapter(eb, nr);
	guint64 t;

	if (!ad)
		return 0;
	g_mutex_lock(&eb->lock);
	t = ad->idle_run_ns;
	g_mutex_unlock(&eb->lock);
	return t;
}

/*
 * Board activity, for the benchmarks' figure of what user space itself
 * costs: called after every change of what is pending (a transfer, a chip
 * event, a driver job queued or done).  The time since the last call
 * counts as idle when, at that call, no chip had an operation pending and
 * no driver job was queued or running -- less the part still inside the
 * last transfer's wire time.
 */
void emub_activity_note_locked(struct emub *eb, bool user_xfer)
{
	guint64 now = eb->realtime ? emub_wall_model_ns(eb) : eb->now_ns;
	guint64 from = MAX(eb->act_since, eb->xfer_until);
	bool busy = false;

	if (!eb->act_busy && now > from) {
		eb->idle_ns += now - from;
		eb->idle_xfers += user_xfer;
		if (eb->trace && now - from >= 1000000)
			emub_log(eb, "idle %.1f ms before %s", (double)(now - from) / 1e6,
				 user_xfer ? "a transfer" : "a driver job or chip event");
	}
	for (int i = 0; i < eb->nchips && !busy; i++) {
		struct emub_chip *c = &eb->chips[i];

		busy = c->ops->next_event(c->model) != EM_NEVER || (c->dev && c->dev->busy > 0);
	}
	eb->act_busy = busy;
	eb->act_since = MAX(now, eb->act_since);
}

void emub_advance_all_locked(struct emub *eb, guint64 t)
{
	for (int i = 0; i < eb->nadapters; i++)
		emub_bus_advance_locked(&eb->adapters[i], t);
	if (t > eb->now_ns)
		eb->now_ns = t;
	emub_activity_note_locked(eb, false);
}

void emub_sync_locked(struct emub *eb)
{
	if (eb->realtime)
		emub_advance_all_locked(eb, emub_wall_model_ns(eb));
}

static void counters_add(struct em_bus_counters *acc, const struct em_bus_counters *a,
			 const struct em_bus_counters *b)
{
	acc->transactions += a->transactions - b->transactions;
	acc->messages += a->messages - b->messages;
	acc->bytes_written += a->bytes_written - b->bytes_written;
	acc->bytes_read += a->bytes_read - b->bytes_read;
	acc->naks += a->naks - b->naks;
	acc->bus_ns += a->bus_ns - b->bus_ns;
}

int emub_transfer_locked(struct emub_adapter *ad, struct em_msg *msgs, int n, bool driver,
			 guint64 *end_ns)
{
	struct emub *eb = ad->eb;
	struct em_bus *bus = &ad->bus;
	struct em_bus_counters before = bus->count;
	int r;

	if (eb->realtime) {
		emub_bus_advance_locked(ad, emub_wall_model_ns(eb));
	} else {
		guint64 ne;

		if (!driver)
			run_idle_time_locked(ad);
		emub_bus_advance_locked(ad, eb->now_ns);
		if (!driver && ad->desc.host_delay_us)
			emub_bus_advance_locked(ad,
						bus->now_ns + ad->desc.host_delay_us * 1000ULL);
		ne = em_bus_next_event(bus);
		if (!driver && ne != EM_NEVER && ne > bus->now_ns) {
			ad->skipped_ns += ne - bus->now_ns;
			emub_bus_advance_locked(ad, ne);
		}
	}
	r = em_bus_transfer(bus, msgs, n);
	if (eb->trace) {
		GString *t = g_string_new(NULL);

		for (int i = 0; i < n; i++) {
			g_string_append_printf(t, " %c%u@%02x",
					       msgs[i].flags & EM_MSG_RD ? 'r' : 'w',
					       msgs[i].len, msgs[i].addr);
			for (int k = 0; k < msgs[i].len && k < 8; k++)
				g_string_append_printf(t, "%c%02x", k ? ' ' : '=',
						       msgs[i].buf[k]);
			if (msgs[i].len > 8)
				g_string_append(t, " ...");
		}
		emub_log(eb, "i2c-%d %s:%s -> %d", ad->desc.nr, driver ? "driver" : "user",
			 t->str, r);
		g_string_free(t, TRUE);
	}
	if (driver)
		counters_add(&ad->drv, &bus->count, &before);
	check_irqs_bus_locked(ad, bus->now_ns);
	if (bus->now_ns > eb->now_ns)
		eb->now_ns = bus->now_ns;
	if (end_ns)
		*end_ns = bus->now_ns;
	emub_activity_note_locked(eb, !driver);
	if (bus->now_ns > eb->xfer_until)
		eb->xfer_until = bus->now_ns;
	if (!eb->realtime)
		ad->wall_mark_ns = mono_ns(); /* the host's idle time starts now */
	emub_pacer_kick_locked(eb);
	return r;
}

/* Realtime: the wall time (monotonic ns) at which model time @t is reached. */
static guint64 model_to_mono(struct emub *eb, guint64 t)
{
	return (guint64)(eb->t0_us * 1000) + t;
}

void emub_sleep_until_model(struct emub *eb, guint64 t)
{
	struct timespec ts;
	guint64 w;

	if (!eb->realtime)
		return;
	w = model_to_mono(eb, t);
	ts.tv_sec = (time_t)(w / G_GUINT64_CONSTANT(1000000000));
	ts.tv_nsec = (long)(w % G_GUINT64_CONSTANT(1000000000));
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static guint64 next_event_all_locked(struct emub *eb)
{
	guint64 ne = EM_NEVER;

	for (int i = 0; i < eb->nadapters; i++) {
		guint64 t = em_bus_next_event(&eb->adapters[i].bus);

		if (t < ne)
			ne = t;
	}
	return ne;
}

#define FAST_GRACE_US 20000 /* fast pacing: let other actors act before a timeout */

bool emub_wait_model_locked(struct emub *eb, guint64 timeout_ms, bool (*check)(void *),
			    void *arg)
{
	guint64 deadline;

	if (eb->realtime) {
		emub_sync_locked(eb);
		deadline = emub_wall_model_ns(eb) + timeout_ms * G_GUINT64_CONSTANT(1000000);
		for (;;) {
			guint64 now, ne;
			gint64 until;

			if (check(arg))
				return true;
			now = emub_wall_model_ns(eb);
			if (now >= deadline)
				return check(arg);
			ne = next_event_all_locked(eb);
			if (ne > deadline)
				ne = deadline;
			until = eb->t0_us + (gint64)(ne / 1000) + 1;
			if (until > g_get_monotonic_time() + 100000)
				until = g_get_monotonic_time() + 100000;
			g_cond_wait_until(&eb->gpio_cond, &eb->lock, until);
			emub_sync_locked(eb);
		}
	}

	deadline = eb->now_ns + timeout_ms * G_GUINT64_CONSTANT(1000000);
	for (;;) {
		guint64 ne, seen;

		if (check(arg))
			return true;
		if (eb->now_ns >= deadline)
			return false;
		ne = next_event_all_locked(eb);
		if (ne != EM_NEVER && ne <= deadline) {
			emub_advance_all_locked(eb, ne > eb->now_ns ? ne : eb->now_ns);
			continue;
		}
		/* Nothing pending on any chip: only another actor (a program,
		 * a driver model) can still cause the edge.  Give them a
		 * moment of wall time; while they keep doing things, keep
		 * waiting, else the timeout has passed. */
		seen = eb->now_ns;
		g_cond_wait_until(&eb->gpio_cond, &eb->lock,
				  g_get_monotonic_time() + FAST_GRACE_US);
		if (check(arg))
			return true;
		if (eb->now_ns == seen && next_event_all_locked(eb) == EM_NEVER) {
			emub_advance_all_locked(eb, deadline);
			return check(arg);
		}
	}
}

/* ------------------------------------------------------------ pacer */

static gpointer pacer_main(gpointer data)
{
	struct emub *eb = data;

	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	g_mutex_lock(&eb->lock);
	while (!eb->pacer_quit) {
		guint64 now = emub_wall_model_ns(eb), ne;
		gint64 until;

		emub_advance_all_locked(eb, now);
		ne = next_event_all_locked(eb);
		until = g_get_monotonic_time() + 100000;
		if (ne != EM_NEVER) {
			gint64 at = eb->t0_us + (gint64)((ne + 999) / 1000);

			if (at < until)
				until = at;
		}
		g_cond_wait_until(&eb->pacer_cond, &eb->lock, until);
	}
	g_mutex_unlock(&eb->lock);
	return NULL;
}

void emub_pacer_kick_locked(struct emub *eb)
{
	if (eb->pacer)
		g_cond_signal(&eb->pacer_cond);
}

void emub_pacer_start(struct emub *eb)
{
	if (!eb->realtime)
		return;
	eb->pacer_quit = false;
	eb->pacer = g_thread_new("emub-pacer", pacer_main, eb);
}

void emub_pacer_stop(struct emub *eb)
{
	if (!eb->pacer)
		return;
	g_mutex_lock(&eb->lock);
	eb->pacer_quit = true;
	g_cond_signal(&eb->pacer_cond);
	g_mutex_unlock(&eb->lock);
	g_thread_join(eb->pacer);
	eb->pacer = NULL;
}
