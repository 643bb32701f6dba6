// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The emulated kernel's driver core for i2c clients, modelled on
 * drivers/base/dd.c and bus.c (Linux 6.1):
 *
 *   bind:   dev->driver set and the driver/device links made
 *           (driver_sysfs_add) BEFORE probe, so the link exists during a
 *           probe that then fails; probe; the driver's attributes; then the
 *           bind uevent (driver_bound).  A failed probe removes the links
 *           and sends nothing.  A probe the kernel starts itself (the
 *           device added: emub_replug) shows the links while it runs, and
 *           can be held there (emub_hold_probe) so that a run started by
 *           the add sees them; a bind written to sysfs shows them with
 *           its success (see do_bind).
 *   unbind: links removed first (driver_sysfs_remove), then the driver's
 *           remove(), devres release (IRQ, GPIOs), then the unbind uevent
 *           with DRIVER gone and MODALIAS zapped (lib/kobject_uevent.c).
 *
 * Each device with a modelled driver has a worker thread running its jobs
 * in order (bind, unbind, attribute writes, the driver's deferred work and
 * its threaded interrupt handler), so the driver models are sequential code
 * like the kernel's.  The sysfs writes that start jobs are watched in
 * watch.c; the kernel API the drivers call is drvapi.c, their input
 * devices input.c.  Also here: the devices' attributes and oopses, and
 * the chips' power, reset and INT pins.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "emub-priv.h"

/* driver_match_device(): the OF compatibles, or the ACPI id against the
 * driver's acpi_match_table (acpi_driver_match_device) */
static bool driver_matches(struct emub_dev *d)
{
	if (!d->drv)
		return false;
	if (d->chip->desc->acpi_id) {
		for (const char *const *m = d->drv->acpi_match; m && *m; m++)
			if (!strcmp(d->chip->desc->acpi_id, *m))
				return true;
		return false;
	}
	for (char **c = d->chip->desc->compatible; c && *c; c++)
		for (const char *const *m = d->drv->of_match; m && *m; m++)
			if (!strcmp(*c, *m))
				return true;
	/* i2c_of_match_device_sysfs, i2c_match_id: the id table by name */
	for (const char *const *m = d->drv->i2c_ids; m && *m; m++) {
		const char *comp = d->chip->desc->compatible ? d->chip->desc->compatible[0]
							     : NULL;
		const char *comma = comp ? strchr(comp, ',') : NULL;
		const char *name = comp ? (comma ? comma + 1 : comp) : d->chip->desc->name;

		if (!strcmp(name, *m))
			return true;
	}
	return false;
}

void emub_dev_log(struct emub_dev *d, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (!d->eb->log)
		return;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	emub_log(d->eb, "%s %s: %s", d->drv ? d->drv->name : "i2c", d->name, msg);
	g_free(msg);
}

/* ------------------------------------------------------------ jobs */

static void push_locked(struct emub_dev *d, struct emub_job *j)
{
	d->busy++;
	emub_activity_note_locked(d->eb, false);
	g_async_queue_push(d->jobs, j);
}

void emub_dev_queue_irq_locked(struct emub_dev *d)
{
	struct emub_job *j;

	if (!d->jobs || d->eb->stopping)
		return;
	j = g_new0(struct emub_job, 1);
	j->kind = EMUB_JOB_IRQ;
	push_locked(d, j);
}

static void driver_links(struct emub_dev *d, bool add);

int emub_dev_queue(struct emub_dev *d, enum emub_job_kind kind, const char *attr,
		   const char *buf, size_t len, int what, int delay_ms, bool wait, int *result)
{
	struct emub *eb = d->eb;
	struct emub_job *j;
	GMutex m;
	GCond c;
	bool done = false;
	int res = 0;

	j = g_new0(struct emub_job, 1);
	j->kind = kind;
	j->attr = g_strdup(attr);
	if (buf) {
		j->buf = g_malloc(len + 1);
		memcpy(j->buf, buf, len);
		j->buf[len] = 0;
		j->len = len;
	}
	j->what = what;
	if (delay_ms > 0)
		j->not_before_us = g_get_monotonic_time() + (gint64)delay_ms * 1000;
	if (wait) {
		g_mutex_init(&m);
		g_cond_init(&c);
		j->done_lock = &m;
		j->done_cond = &c;
		j->done = &done;
		j->result = &res;
	}
	g_mutex_lock(&eb->lock);
	if (!d->jobs || (eb->stopping && kind != EMUB_JOB_QUIT)) {
		g_mutex_unlock(&eb->lock);
		g_free(j->attr);
		g_free(j->buf);
		g_free(j);
		if (wait) {
			g_mutex_clear(&m);
			g_cond_clear(&c);
		}
		return -ENODEV;
	}
	push_locked(d, j);
	if (kind == EMUB_JOB_UNBIND && d->in_attr_write && d->bound && !d->links_gone &&
	    !d->stuck) {
		/* The unbind starts now: the driver link goes first, the rest
		 * waits for the store in flight. */
		driver_links(d, false);
		d->links_gone = true;
	}
	g_mutex_unlock(&eb->lock);
	if (!wait)
		return 0;
	g_mutex_lock(&m);
	while (!done)
		g_cond_wait(&c, &m);
	g_mutex_unlock(&m);
	g_mutex_clear(&m);
	g_cond_clear(&c);
	if (result)
		*result = res;
	return 0;
}

static void send_dev_uevent(struct emub_dev *d, const char *action)
{
	bool bind_action = !strcmp(action, "bind") || !strcmp(action, "unbind");
	bool unbind = !strcmp(action, "unbind");
	GPtrArray *env;

	if (bind_action && !d->chip->desc->bind_events) {
		emub_dev_log(d, "%s uevent not delivered (bind_events = false)", action);
		return;
	}
	g_mutex_lock(&d->eb->lock);
	env = emub_dev_env(d, true, !unbind);
	g_mutex_unlock(&d->eb->lock);
	emub_uevent_send(d->eb, action, d->devpath, "i2c", env);
	g_ptr_array_free(env, TRUE);
}

static void driver_links(struct emub_dev *d, bool add)
{
	char *link = g_strdup_printf("%s/driver", d->devpath + 1);
	char *back = g_strdup_printf("bus/i2c/drivers/%s/%s", d->drv->name, d->name);

	if (add) {
		char *t = g_strdup_printf("bus/i2c/drivers/%s", d->drv->name);

		emub_sys_symlink(d->eb, t, link);
		emub_sys_symlink(d->eb, d->devpath + 1, back);
		g_free(t);
	} else {
		emub_sys_remove(d->eb, link);
		emub_sys_remove(d->eb, back);
	}
	g_free(link);
	g_free(back);
}

/* really_probe(); @autoprobe: started by the kernel (device_add ->
 * bus_probe_device), nobody waits on a sysfs write for it */
static int do_bind(struct emub_dev *d, bool autoprobe)
{
	struct emub *eb = d->eb;
	int r;

	g_mutex_lock(&eb->lock);
	if (d->stuck) {
		g_mutex_unlock(&eb->lock);
		emub_dev_log(d, "bind ignored: the driver is wedged since the oops");
		return -EBUSY;
	}
	if (d->bound || d->probing) {
		g_mutex_unlock(&eb->lock);
		return -EBUSY;
	}
	if (!driver_matches(d)) {
		g_mutex_unlock(&eb->lock);
		return -ENODEV;
	}
	/* The kernel adds the driver links before the probe (driver_sysfs_add)
	 * and takes them away when it fails, but its bind write returns only
	 * after the probe, so the writer never sees them for a failed one.
	 * Here the write returns at once, so they come with the probe's
	 * success: a writer that waits for the link (touchfw) must not take
	 * a probe in progress, which may yet fail, for a bound driver.  A
	 * probe nobody wrote for (the device's add) has them while it runs,
	 * as on a kernel, where anyone may look meanwhile. */
	d->probing = true;
	if (autoprobe)
		driver_links(d, true);
	emub_dev_update_uevent_file(d);
	while (autoprobe && d->probe_hold && !eb->stopping) {
		emub_dev_log(d, "probe held (emub_hold_probe), the driver link shown");
		g_cond_wait(&d->idle_cond, &eb->lock);
	}
	g_mutex_unlock(&eb->lock);

	r = d->drv->probe(d);

	g_mutex_lock(&eb->lock);
	d->probing = false;
	if (r) {
		if (autoprobe)
			driver_links(d, false);
		emub_dev_update_uevent_file(d);
		g_mutex_unlock(&eb->lock);
		drv_devres_release(d);
		emub_dev_log(d, "probe failed: %d", r);
		return r;
	}
	d->bound = true;
	if (!autoprobe)
		driver_links(d, true);
	emub_dev_update_uevent_file(d);
	g_mutex_unlock(&eb->lock);
	send_dev_uevent(d, "bind");
	return 0;
}

/* __device_release_driver() */
/* A system suspend and resume of a bound device: the driver's suspend,
 * then its resume (dpm_suspend / dpm_resume); a driver without them
 * sleeps through it. */
static int do_sleep(struct emub_dev *d)
{
	int r = 0;

	if (!d->bound)
		return -ENODEV;
	emub_dev_log(d, "system suspend");
	if (d->drv->suspend)
		r = d->drv->suspend(d);
	if (r)
		return r;
	emub_dev_log(d, "system resume");
	if (d->drv->resume)
		r = d->drv->resume(d);
	if (r)
		emub_dev_log(d, "resume failed: %d", r);
	return r;
}

/* @written: asked for by a write to the driver's unbind file */
static int do_unbind(struct emub_dev *d, bool written)
{
	struct emub *eb = d->eb;

	g_mutex_lock(&eb->lock);
	if (d->stuck) {
		g_mutex_unlock(&eb->lock);
		emub_dev_log(
			d, "unbind hangs: the oops left the attribute's active reference held");
		return -EBUSY;
	}
	if (!d->bound) {
		g_mutex_unlock(&eb->lock);
		return -ENODEV;
	}
	if (!d->links_gone)
		driver_links(d, false);
	d->links_gone = false;
	/* The kernel takes the links away before the driver's remove
	 * (driver_sysfs_remove) and clears dev->driver, which
	 * i2cdev_check_addr looks at, after it: anyone looking meanwhile
	 * finds the address busy with no link.  But an unbind write returns
	 * only after all of it, and here it returns at once: its writer, who
	 * waits for the link to go, must not find the address busy then. */
	d->unbind_written = written;
	g_mutex_unlock(&eb->lock);

	d->drv->remove(d);
	drv_devres_release(d);

	g_mutex_lock(&eb->lock);
	d->bound = false;
	d->unbind_written = false;
	emub_dev_update_uevent_file(d);
	g_mutex_unlock(&eb->lock);
	send_dev_uevent(d, "unbind");
	return 0;
}

/*
 * device_del() + device_add() of the client, as when its overlay or the
 * adapter driver is reloaded: unbind if bound, remove, add (the add uevent
 * comes before the probe, as in device_add()), then the probe after
 * probe_delay_ms.
 */
static int do_replug(struct emub_dev *d)
{
	struct emub *eb = d->eb;
	GPtrArray *env;
	bool bound;

	g_mutex_lock(&eb->lock);
	bound = d->bound;
	g_mutex_unlock(&eb->lock);
	if (bound)
		do_unbind(d, false);
	g_mutex_lock(&eb->lock);
	env = emub_dev_env(d, true, true);
	g_mutex_unlock(&eb->lock);
	emub_uevent_send(eb, "remove", d->devpath, "i2c", env);
	g_ptr_array_free(env, TRUE);
	emub_dev_sysfs_remove(d);
	emub_dev_sysfs_create(d);
	g_mutex_lock(&eb->lock);
	env = emub_dev_env(d, true, true);
	g_mutex_unlock(&eb->lock);
	emub_uevent_send(eb, "add", d->devpath, "i2c", env);
	g_ptr_array_free(env, TRUE);
	emub_dev_queue(d, EMUB_JOB_BIND, NULL, NULL, 0, EMUB_BIND_AUTOPROBE,
		       d->chip->desc->probe_delay_ms, false, NULL);
	return 0;
}

/*
 * One run of the threaded interrupt handler.  A level-triggered line still
 * asserted afterwards fires again; the re-run is queued behind other work
 * (or picked up by a waiting driver), as the real IRQ thread competes with
 * the driver's thread rather than spinning alone.
 */
void emub_dev_run_irq(struct emub_dev *d)
{
	struct emub *eb = d->eb;
	bool again;

	g_mutex_lock(&eb->lock);
	emub_sync_locked(eb);
	/* a level interrupt only fires while the line is still asserted */
	if (!d->irq_pending || !d->irq_enabled || d->stuck ||
	    (d->chip->desc->irq_level && !d->chip->irq_level_now)) {
		d->irq_pending = false;
		g_mutex_unlock(&eb->lock);
		return;
	}
	d->irq_pending = false;
	g_mutex_unlock(&eb->lock);
	d->drv->irq(d);
	g_mutex_lock(&eb->lock);
	again = d->chip->desc->irq_level && d->irq_enabled && d->chip->irq_level_now;
	if (again && ++d->irq_storm > 100000) {
		emub_dev_log(d, "irq: nobody cared (CHG stuck asserted), disabling");
		d->irq_enabled = false;
		again = false;
	}
	if (!again)
		d->irq_storm = 0;
	if (again && !d->irq_pending) {
		d->irq_pending = true;
		emub_dev_queue_irq_locked(d);
	}
	g_mutex_unlock(&eb->lock);
}

static gpointer worker_main(gpointer data)
{
	struct emub_dev *d = data;
	struct emub *eb = d->eb;

	for (;;) {
		struct emub_job *j = g_async_queue_pop(d->jobs);
		int res = 0;
		bool quit = j->kind == EMUB_JOB_QUIT;

		if (!quit && j->not_before_us) {
			gint64 now;

			while ((now = g_get_monotonic_time()) < j->not_before_us)
				g_usleep((gulong)MIN(j->not_before_us - now, 10000));
		}
		switch (j->kind) {
		case EMUB_JOB_BIND:
			res = do_bind(d, j->what == EMUB_BIND_AUTOPROBE);
			break;
		case EMUB_JOB_UNBIND:
			res = do_unbind(d, j->what == EMUB_UNBIND_WRITTEN);
			break;
		case EMUB_JOB_ATTR_WRITE:
			/* unbound: the attribute group is gone (the open fails
			 * with ENOENT on a kernel); a wedged driver: the write
			 * never returns there, reported here as EIO */
			if (!d->bound)
				res = -ENOENT;
			else if (d->stuck)
				res = -EIO;
			else if (d->drv->attr_write) {
				g_mutex_lock(&eb->lock);
				d->in_attr_write = true;
				g_mutex_unlock(&eb->lock);
				res = d->drv->attr_write(d, j->attr, j->buf, j->len);
				g_mutex_lock(&eb->lock);
				d->in_attr_write = false;
				g_mutex_unlock(&eb->lock);
			}
			break;
		case EMUB_JOB_ATTR_READ:
			if (d->bound && d->drv->attr_read)
				d->drv->attr_read(d, j->attr);
			break;
		case EMUB_JOB_WORK:
			if (d->bound && !d->stuck && d->drv->work)
				d->drv->work(d, j->what);
			break;
		case EMUB_JOB_IRQ:
			emub_dev_run_irq(d);
			break;
		case EMUB_JOB_REPLUG:
			res = do_replug(d);
			break;
		case EMUB_JOB_SLEEP:
			res = do_sleep(d);
			break;
		case EMUB_JOB_QUIT:
			break;
		}
		if (j->done) {
			g_mutex_lock(j->done_lock);
			*j->result = res;
			*j->done = true;
			g_cond_signal(j->done_cond);
			g_mutex_unlock(j->done_lock);
		}
		g_free(j->attr);
		g_free(j->buf);
		g_free(j);
		g_mutex_lock(&eb->lock);
		d->busy--;
		emub_activity_note_locked(eb, false);
		if (!d->busy)
			g_cond_broadcast(&d->idle_cond);
		g_mutex_unlock(&eb->lock);
		if (quit)
			break;
	}
	return NULL;
}

/* ------------------------------------------------------------ devices */

int emub_devices_create(struct emub *eb)
{
	for (int i = 0; i < eb->nchips; i++) {
		struct emub_chip *c = &eb->chips[i];
		struct emub_dev *d = g_new0(struct emub_dev, 1);

		d->eb = eb;
		d->chip = c;
		c->dev = d;
		if (c->desc->acpi_id) {
			/* i2c_acpi_new_device: "i2c-" + the ACPI device's name,
			 * "<HID>:<instance>" (acpi_init_device_object) */
			int inst = 0;

			for (int k = 0; k < i; k++)
				if (eb->chips[k].desc->acpi_id &&
				    !strcmp(eb->chips[k].desc->acpi_id, c->desc->acpi_id))
					inst++;
			snprintf(d->client_name, sizeof(d->client_name), "%s:%02x",
				 c->desc->acpi_id, inst);
			snprintf(d->name, sizeof(d->name), "i2c-%s", d->client_name);
			d->acpi_node = g_strdup_printf("/devices/LNXSYSTM:00/LNXSYBUS:00/"
						       "PNP0A08:00/%s",
						       d->client_name);
		} else {
			snprintf(d->name, sizeof(d->name), "%d-%04x", c->ad->desc.nr,
				 c->desc->addr);
		}
		d->devpath = g_strdup_printf("%s/%s", c->ad->devpath, d->name);
		{
			char *ap = emub_adapter_of_path(&c->ad->desc);

			d->of_fullname = g_strdup_printf("%s/%s@%x", ap, c->desc->name,
							 c->desc->addr);
			g_free(ap);
		}
		d->drv = c->desc->driver ? emub_find_driver(c->desc->driver) : NULL;
		d->reset_line = c->desc->reset_gpio;
		d->chg_line = c->desc->chg_gpio;
		d->attrs = g_ptr_array_new();
		g_cond_init(&d->idle_cond);
		emub_dev_sysfs_create(d);
		if (d->drv) {
			d->jobs = g_async_queue_new();
			d->worker = g_thread_new("emub-dev", worker_main, d);
		}
	}
	return 0;
}

void emub_attr_free(struct emub_attr *a)
{
	g_free(a->name);
	g_free(a->content);
	g_free(a);
}

struct emub_attr *emub_attr_find(struct emub_dev *d, const char *name)
{
	for (guint i = 0; i < d->attrs->len; i++) {
		struct emub_attr *a = d->attrs->pdata[i];

		if (!strcmp(a->name, name))
			return a;
	}
	return NULL;
}

/* Stop the workers (their jobs may still settle sysfs writes through the
 * service thread, so that one must still run). */
void emub_devices_stop(struct emub *eb)
{
	for (int i = 0; i < eb->nchips; i++) {
		struct emub_dev *d = eb->chips[i].dev;
		GAsyncQueue *q;

		if (!d || !d->worker)
			continue;
		{
			struct emub_job *j = g_new0(struct emub_job, 1);

			j->kind = EMUB_JOB_QUIT;
			g_mutex_lock(&eb->lock);
			push_locked(d, j);
			g_mutex_unlock(&eb->lock);
		}
		g_thread_join(d->worker);
		d->worker = NULL;
		g_mutex_lock(&eb->lock);
		q = d->jobs;
		d->jobs = NULL;
		g_mutex_unlock(&eb->lock);
		for (struct emub_job *j; (j = g_async_queue_try_pop(q));) {
			g_free(j->attr);
			g_free(j->buf);
			g_free(j);
		}
		g_async_queue_unref(q);
	}
}

/* Free the devices, once neither workers nor the service thread run. */
void emub_devices_destroy(struct emub *eb)
{
	for (int i = 0; i < eb->nchips; i++) {
		struct emub_dev *d = eb->chips[i].dev;

		if (!d)
			continue;
		for (guint k = 0; k < d->attrs->len; k++)
			emub_attr_free(d->attrs->pdata[k]);
		g_ptr_array_free(d->attrs, TRUE);
		if (d->priv && d->drv && d->drv->destroy)
			d->drv->destroy(d);
		if (d->input)
			emub_input_free(eb, d->input);
		g_free(d->priv);
		g_free(d->devpath);
		g_free(d->of_fullname);
		g_free(d->acpi_node);
		g_cond_clear(&d->idle_cond);
		eb->chips[i].dev = NULL;
		g_free(d);
	}
}

struct emub_dev *emub_dev_by_name(struct emub *eb, const char *name)
{
	for (int i = 0; i < eb->nchips; i++)
		if (eb->chips[i].dev && !strcmp(eb->chips[i].dev->name, name))
			return eb->chips[i].dev;
	return NULL;
}

void emub_record_oops(struct emub_dev *d, const char *attr)
{
	struct emub *eb = d->eb;
	char *msg = g_strdup_printf("BUG: kernel NULL pointer dereference: %s %s: read of %s "
				    "with no info block (in_bootloader)",
				    d->drv->name, d->name, attr);

	g_mutex_lock(&eb->lock);
	g_ptr_array_add(eb->oopses, msg);
	d->stuck = true;
	d->irq_enabled = false;
	g_mutex_unlock(&eb->lock);
	fprintf(stderr, "emuboard: *** KERNEL OOPS *** %s\n", msg);
	emub_log(eb, "*** KERNEL OOPS *** %s", msg);
}

/* ------------------------------------------------------------ power, reset */

void emub_chip_power_locked(struct emub_chip *c, bool on)
{
	if (c->powered == on)
		return;
	emub_bus_advance_locked(c->ad,
				c->eb->realtime ? emub_wall_model_ns(c->eb) : c->eb->now_ns);
	c->powered = on;
	if (c->ops->set_power)
		c->ops->set_power(c->model, on);
	emub_check_irqs_locked(c->eb);
	emub_pacer_kick_locked(c->eb);
}

void emub_chip_reset_locked(struct emub_chip *c, bool held)
{
	emub_bus_advance_locked(c->ad,
				c->eb->realtime ? emub_wall_model_ns(c->eb) : c->eb->now_ns);
	if (c->ops->set_reset)
		c->ops->set_reset(c->model, held);
	emub_check_irqs_locked(c->eb);
	emub_pacer_kick_locked(c->eb);
}

void emub_chip_int_locked(struct emub_chip *c, bool driven, bool level)
{
	if (!c->desc->cm->int_drive)
		return;
	emub_bus_advance_locked(c->ad,
				c->eb->realtime ? emub_wall_model_ns(c->eb) : c->eb->now_ns);
	c->desc->cm->int_drive(c->model, driven, level);
	emub_check_irqs_locked(c->eb);
	emub_pacer_kick_locked(c->eb);
}
