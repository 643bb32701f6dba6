// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The emulated kernel's driver core for i2c clients, modelled on
 * drivers/base/dd.c and bus.c (Linux 6.1):
 *
 *   bind:   dev->driver set and the driver/device links made
 *           (driver_sysfs_add) BEFORE probe, so the link exists during a
 *           probe that then fails; probe; the driver's attributes; then the
 *           bind uevent (driver_bound).  A failed probe removes the links
 *           and sends nothing.
 *   unbind: links removed first (driver_sysfs_remove), then the driver's
 *           remove(), devres release (IRQ, GPIOs), then the unbind uevent
 *           with DRIVER gone and MODALIAS zapped (lib/kobject_uevent.c).
 *
 * Each device with a modelled driver has a worker thread running its jobs
 * in order (bind, unbind, attribute writes, the driver's deferred work and
 * its threaded interrupt handler), so the driver models are sequential code
 * like the kernel's.  The sysfs files children write (bind, unbind,
 * update_fw, uevent, firmware_class.path) are regular files in the testbed,
 * watched with inotify from the service thread: a write lands when the
 * writer closes the file and it returns at once, where the kernel's write
 * returns the probe's result (documented limit).
 */
#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/input.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "emub-priv.h"
#include "goodix_model.h"

static const struct emub_driver_ops *const drivers[] = {
	&emub_drv_atmel_mxt_ts,
	&emub_drv_at24,
	&emub_drv_goodix,
	&emub_drv_silead,
};

const struct emub_driver_ops *emub_find_driver(const char *name)
{
	for (size_t i = 0; i < G_N_ELEMENTS(drivers); i++)
		if (!strcmp(drivers[i]->name, name))
			return drivers[i];
	return NULL;
}

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
		for (const char *const *m = d->drv->of_match; *m; m++)
			if (!strcmp(*c, *m))
				return true;
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

/* really_probe() */
static int do_bind(struct emub_dev *d)
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
	d->probing = true;
	driver_links(d, true);
	emub_dev_update_uevent_file(d);
	g_mutex_unlock(&eb->lock);

	r = d->drv->probe(d);

	g_mutex_lock(&eb->lock);
	d->probing = false;
	if (r) {
		driver_links(d, false);
		emub_dev_update_uevent_file(d);
		g_mutex_unlock(&eb->lock);
		drv_devres_release(d);
		emub_dev_log(d, "probe failed: %d", r);
		return r;
	}
	d->bound = true;
	emub_dev_update_uevent_file(d);
	g_mutex_unlock(&eb->lock);
	send_dev_uevent(d, "bind");
	return 0;
}

/* __device_release_driver() */
static int do_unbind(struct emub_dev *d)
{
	struct emub *eb = d->eb;

	g_mutex_lock(&eb->lock);
	if (d->stuck) {
		g_mutex_unlock(&eb->lock);
		emub_dev_log(d, "unbind hangs: the oops left the attribute's active reference held");
		return -EBUSY;
	}
	if (!d->bound) {
		g_mutex_unlock(&eb->lock);
		return -ENODEV;
	}
	driver_links(d, false);
	g_mutex_unlock(&eb->lock);

	d->drv->remove(d);
	drv_devres_release(d);

	g_mutex_lock(&eb->lock);
	d->bound = false;
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
		do_unbind(d);
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
	emub_dev_queue(d, EMUB_JOB_BIND, NULL, NULL, 0, 0, d->chip->desc->probe_delay_ms, false,
		       NULL);
	return 0;
}

/*
 * One run of the threaded interrupt handler.  A level-triggered line still
 * asserted afterwards fires again; the re-run is queued behind other work
 * (or picked up by a waiting driver), as the real IRQ thread competes with
 * the driver's thread rather than spinning alone.
 */
static void run_irq(struct emub_dev *d)
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
			res = do_bind(d);
			break;
		case EMUB_JOB_UNBIND:
			res = do_unbind(d);
			break;
		case EMUB_JOB_ATTR_WRITE:
			if (d->bound && !d->stuck && d->drv->attr_write)
				d->drv->attr_write(d, j->attr, j->buf, j->len);
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
			run_irq(d);
			break;
		case EMUB_JOB_REPLUG:
			res = do_replug(d);
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
						       "PNP0A08:00/%s", d->client_name);
		} else {
			snprintf(d->name, sizeof(d->name), "%d-%04x", c->ad->desc.nr,
				 c->desc->addr);
		}
		d->devpath = g_strdup_printf("%s/%s", c->ad->devpath, d->name);
		d->of_fullname = g_strdup_printf("/i2c@%x/%s@%x", c->ad->desc.nr, c->desc->name,
						 c->desc->addr);
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

static void free_attr(struct emub_attr *a)
{
	g_free(a->name);
	g_free(a->content);
	g_free(a);
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
			free_attr(d->attrs->pdata[k]);
		g_ptr_array_free(d->attrs, TRUE);
		if (d->priv && d->drv && d->drv->destroy)
			d->drv->destroy(d);
		if (d->input)
			emub_input_free(d->input);
		g_free(d->priv);
		g_free(d->devpath);
		g_free(d->of_fullname);
		g_free(d->acpi_node);
		g_cond_clear(&d->idle_cond);
		eb->chips[i].dev = NULL;
		g_free(d);
	}
}

static struct emub_dev *dev_by_name(struct emub *eb, const char *name)
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
	emub_bus_advance_locked(c->ad, c->eb->realtime ? emub_wall_model_ns(c->eb) : c->eb->now_ns);
	c->powered = on;
	if (c->ops->set_power)
		c->ops->set_power(c->model, on);
	emub_check_irqs_locked(c->eb);
	emub_pacer_kick_locked(c->eb);
}

void emub_chip_reset_locked(struct emub_chip *c, bool held)
{
	emub_bus_advance_locked(c->ad, c->eb->realtime ? emub_wall_model_ns(c->eb) : c->eb->now_ns);
	if (c->ops->set_reset)
		c->ops->set_reset(c->model, held);
	emub_check_irqs_locked(c->eb);
	emub_pacer_kick_locked(c->eb);
}

void emub_chip_int_locked(struct emub_chip *c, bool driven, bool level)
{
	if (!emub_chip_is_goodix(c))
		return;
	emub_bus_advance_locked(c->ad, c->eb->realtime ? emub_wall_model_ns(c->eb) : c->eb->now_ns);
	goodix_model_set_int(c->model, driven, level);
	emub_check_irqs_locked(c->eb);
	emub_pacer_kick_locked(c->eb);
}

/* ------------------------------------------------------------ inotify */

struct emub_watch {
	char *rel;
	int kind;
	struct emub_dev *dev;
};

static char *read_rel(struct emub *eb, const char *rel, gsize *len)
{
	char *p = emub_sys_path(eb, rel), *buf = NULL;

	if (!g_file_get_contents(p, &buf, len, NULL))
		buf = NULL;
	g_free(p);
	return buf;
}

void emub_watch_add(struct emub *eb, const char *rel_dir, struct emub_dev *d, int kind)
{
	char *p = emub_sys_path(eb, rel_dir);
	int wd = inotify_add_watch(eb->inotify_fd, p, IN_CLOSE_WRITE | IN_ACCESS);
	struct emub_watch *w;

	g_free(p);
	if (wd < 0) {
		emub_log(eb, "inotify on %s: %s", rel_dir, g_strerror(errno));
		return;
	}
	w = g_new0(struct emub_watch, 1);
	w->rel = g_strdup(rel_dir);
	w->kind = kind;
	w->dev = d;
	g_hash_table_replace(eb->watches, GINT_TO_POINTER(wd), w);
}

void emub_watch_remove_dir(struct emub *eb, const char *rel_dir)
{
	GHashTableIter it;
	gpointer k, v;

	g_hash_table_iter_init(&it, eb->watches);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct emub_watch *w = v;

		if (!strcmp(w->rel, rel_dir)) {
			inotify_rm_watch(eb->inotify_fd, GPOINTER_TO_INT(k));
			g_hash_table_iter_remove(&it);
		}
	}
}

static void free_watch(gpointer p)
{
	struct emub_watch *w = p;

	g_free(w->rel);
	g_free(w);
}

static struct emub_attr *find_attr(struct emub_dev *d, const char *name)
{
	for (guint i = 0; i < d->attrs->len; i++) {
		struct emub_attr *a = d->attrs->pdata[i];

		if (!strcmp(a->name, name))
			return a;
	}
	return NULL;
}

/* "1-004a\n" -> "1-004a" (sysfs_streq-like) */
static char *strip_value(const char *buf)
{
	char *s = g_strdup(buf);

	return g_strstrip(s);
}

static void on_driver_write(struct emub *eb, struct emub_watch *w, const char *name)
{
	bool bind = !strcmp(name, "bind");
	char *rel, *buf, *devname;
	struct emub_dev *d;
	gsize len;

	if (!bind && strcmp(name, "unbind"))
		return;
	rel = g_strdup_printf("%s/%s", w->rel, name);
	buf = read_rel(eb, rel, &len);
	if (!buf || !*buf) {
		g_free(rel);
		g_free(buf);
		return;
	}
	emub_sys_write(eb, rel, ""); /* write-only in sysfs */
	devname = strip_value(buf);
	d = dev_by_name(eb, devname);
	if (!d || !d->drv || strcmp(w->rel + strlen("bus/i2c/drivers/"), d->drv->name))
		emub_log(eb, "%s: \"%s\": no such device for this driver (the write would fail "
			 "with ENODEV)", rel, devname);
	else
		emub_dev_queue(d, bind ? EMUB_JOB_BIND : EMUB_JOB_UNBIND, NULL, NULL, 0, 0,
			       bind ? 0 : 0, false, NULL);
	g_free(devname);
	g_free(buf);
	g_free(rel);
}

/* kobject_synth_uevent(): "add", "change", ... written to a uevent file */
static void on_uevent_write(struct emub *eb, struct emub_dev *d, const char *buf)
{
	static const char *const actions[] = {"add", "remove", "change", "move",
					      "online", "offline", "bind", "unbind"};
	char *s = strip_value(buf), *sp = strchr(s, ' ');

	if (sp)
		*sp = 0;
	for (size_t i = 0; i < G_N_ELEMENTS(actions); i++) {
		if (!strcmp(s, actions[i])) {
			GPtrArray *env;

			g_mutex_lock(&eb->lock);
			env = emub_dev_env(d, true, strcmp(s, "unbind") != 0);
			emub_dev_update_uevent_file(d);
			g_mutex_unlock(&eb->lock);
			emub_uevent_send(eb, s, d->devpath, "i2c", env);
			g_ptr_array_free(env, TRUE);
			g_free(s);
			return;
		}
	}
	emub_log(eb, "%s/uevent: \"%s\" is not an action (the write would fail with EINVAL)",
		 d->name, s);
	g_mutex_lock(&eb->lock);
	emub_dev_update_uevent_file(d);
	g_mutex_unlock(&eb->lock);
	g_free(s);
}

static void on_device_event(struct emub *eb, struct emub_watch *w, const struct inotify_event *ev)
{
	struct emub_dev *d = w->dev;
	struct emub_attr *a;
	char *rel, *buf;
	gsize len;

	if (!strcmp(ev->name, "uevent")) {
		if (!(ev->mask & IN_CLOSE_WRITE))
			return;
		rel = g_strdup_printf("%s/uevent", w->rel);
		buf = read_rel(eb, rel, &len);
		g_free(rel);
		if (buf) {
			GPtrArray *env;
			GString *s = g_string_new(NULL);

			g_mutex_lock(&eb->lock);
			env = emub_dev_env(d, true, true);
			g_mutex_unlock(&eb->lock);
			for (guint i = 0; i < env->len; i++)
				g_string_append_printf(s, "%s\n", (char *)env->pdata[i]);
			if (strcmp(buf, s->str)) /* not our own rewrite */
				on_uevent_write(eb, d, buf);
			g_string_free(s, TRUE);
			g_ptr_array_free(env, TRUE);
		}
		g_free(buf);
		return;
	}
	g_mutex_lock(&eb->lock);
	a = find_attr(d, ev->name);
	if (!a) {
		g_mutex_unlock(&eb->lock);
		return;
	}
	if ((ev->mask & IN_ACCESS) && a->armed_oops) {
		char *name = g_strdup(a->name);

		g_mutex_unlock(&eb->lock);
		emub_record_oops(d, name);
		emub_dev_queue(d, EMUB_JOB_ATTR_READ, name, NULL, 0, 0, 0, false, NULL);
		g_free(name);
		return;
	}
	if ((ev->mask & IN_CLOSE_WRITE) && a->writable) {
		char *name = g_strdup(a->name);

		g_mutex_unlock(&eb->lock);
		rel = g_strdup_printf("%s/%s", w->rel, name);
		buf = read_rel(eb, rel, &len);
		if (buf && len) {
			emub_sys_write(eb, rel, ""); /* S_IWUSR only: nothing to read */
			emub_dev_queue(d, EMUB_JOB_ATTR_WRITE, name, buf, len, 0, 0, false, NULL);
		}
		g_free(buf);
		g_free(rel);
		g_free(name);
		return;
	}
	g_mutex_unlock(&eb->lock);
}

/* module_param_string(path, fw_path_para, 256, 0644): kept as written,
 * trailing newline included; reads show it with "\n" appended. */
static void on_fwparam_write(struct emub *eb, const char *name)
{
	char *buf, *canon;
	gsize len;

	if (strcmp(name, "path"))
		return;
	buf = read_rel(eb, "module/firmware_class/parameters/path", &len);
	if (!buf)
		return;
	g_mutex_lock(&eb->lock);
	canon = g_strdup_printf("%s\n", eb->fw_path_param ? eb->fw_path_param : "");
	if (strcmp(buf, canon)) {
		if (len >= 256) {
			emub_log(eb, "firmware_class.path: %zu bytes is too long (the write would "
				 "fail with ENOSPC)", (size_t)len);
		} else {
			g_free(eb->fw_path_param);
			eb->fw_path_param = g_strndup(buf, len);
			emub_log(eb, "firmware_class.path = \"%s\"%s", eb->fw_path_param,
				 g_str_has_suffix(eb->fw_path_param, "\n")
					 ? " (trailing newline kept, as Linux 6.1 does)"
					 : "");
		}
		g_free(canon);
		canon = g_strdup_printf("%s\n", eb->fw_path_param ? eb->fw_path_param : "");
		emub_sys_write(eb, "module/firmware_class/parameters/path", canon);
	}
	g_mutex_unlock(&eb->lock);
	g_free(canon);
	g_free(buf);
}

static gboolean on_inotify(gint fd, GIOCondition cond, gpointer data)
{
	struct emub *eb = data;
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	(void)cond;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (eb->stopping)
			continue; /* drain: the devices are going away */
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			struct emub_watch *w =
				g_hash_table_lookup(eb->watches, GINT_TO_POINTER(ev->wd));

			p += sizeof(*ev) + ev->len;
			if (!w || !ev->len)
				continue;
			switch (w->kind) {
			case EMUB_WATCH_DRIVER:
				if (ev->mask & IN_CLOSE_WRITE)
					on_driver_write(eb, w, ev->name);
				break;
			case EMUB_WATCH_DEVICE:
				on_device_event(eb, w, ev);
				break;
			case EMUB_WATCH_FWPARAM:
				if (ev->mask & IN_CLOSE_WRITE)
					on_fwparam_write(eb, ev->name);
				break;
			}
		}
	}
	return G_SOURCE_CONTINUE;
}

struct settle {
	struct emub *eb;
	GMutex m;
	GCond c;
	bool done;
};

static gboolean settle_cb(gpointer data)
{
	struct settle *s = data;

	on_inotify(s->eb->inotify_fd, G_IO_IN, s->eb);
	g_mutex_lock(&s->m);
	s->done = true;
	g_cond_signal(&s->c);
	g_mutex_unlock(&s->m);
	return G_SOURCE_REMOVE;
}

/*
 * Handle every sysfs write that has been closed so far: the kernel queues
 * the inotify event at close(), so after a writer returned its write is
 * seen here, and the job it causes is queued when this returns.
 */
void emub_settle(struct emub *eb)
{
	struct settle s = {.eb = eb};

	if (!eb->service || g_thread_self() == eb->service)
		return;
	g_mutex_init(&s.m);
	g_cond_init(&s.c);
	g_main_context_invoke(eb->ctx, settle_cb, &s);
	g_mutex_lock(&s.m);
	while (!s.done)
		g_cond_wait(&s.c, &s.m);
	g_mutex_unlock(&s.m);
	g_mutex_clear(&s.m);
	g_cond_clear(&s.c);
}

static gpointer service_main(gpointer data)
{
	struct emub *eb = data;

	g_main_context_push_thread_default(eb->ctx);
	g_main_loop_run(eb->loop);
	g_main_context_pop_thread_default(eb->ctx);
	return NULL;
}

int emub_inotify_init(struct emub *eb)
{
	eb->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (eb->inotify_fd < 0)
		return -errno;
	eb->watches = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, free_watch);
	eb->ctx = g_main_context_new();
	eb->loop = g_main_loop_new(eb->ctx, FALSE);
	return 0;
}

int emub_service_start(struct emub *eb)
{
	GSource *s = g_unix_fd_source_new(eb->inotify_fd, G_IO_IN);

	g_source_set_callback(s, G_SOURCE_FUNC(on_inotify), eb, NULL);
	g_source_attach(s, eb->ctx);
	g_source_unref(s);
	eb->service = g_thread_new("emub-service", service_main, eb);
	return 0;
}

static gboolean quit_loop(gpointer data)
{
	g_main_loop_quit(data);
	return G_SOURCE_REMOVE;
}

void emub_service_stop(struct emub *eb)
{
	if (eb->service) {
		g_main_context_invoke(eb->ctx, quit_loop, eb->loop);
		g_thread_join(eb->service);
		eb->service = NULL;
	}
	if (eb->watches)
		g_hash_table_destroy(eb->watches);
	eb->watches = NULL;
	if (eb->inotify_fd >= 0)
		close(eb->inotify_fd);
	eb->inotify_fd = -1;
	if (eb->loop)
		g_main_loop_unref(eb->loop);
	if (eb->ctx)
		g_main_context_unref(eb->ctx);
	eb->loop = NULL;
	eb->ctx = NULL;
}

/* ------------------------------------------------------------ driver model API */

static guint64 model_now_locked(struct emub *eb)
{
	return eb->realtime ? emub_wall_model_ns(eb) : eb->now_ns;
}

int drv_i2c_transfer(struct emub_dev *d, struct em_msg *msgs, int n)
{
	struct emub_adapter *ad = d->chip->ad;
	struct emub *eb = d->eb;
	guint64 end = 0;
	int r;

	if (ad->desc.smbus_only)
		return -EOPNOTSUPP; /* no master_xfer */
	for (int i = 0; i < n; i++)
		if (ad->desc.max_transfer && msgs[i].len > ad->desc.max_transfer)
			return -EOPNOTSUPP; /* i2c_check_for_quirks */
	g_mutex_lock(&eb->lock);
	r = emub_transfer_locked(ad, msgs, n, true, &end);
	g_mutex_unlock(&eb->lock);
	emub_sleep_until_model(eb, end);
	return r >= 0 ? r : emub_errno_of_xfer(ad, r);
}

int drv_smbus_transfer(struct emub_dev *d, struct em_msg *msgs, int n)
{
	struct emub_adapter *ad = d->chip->ad;
	guint64 end = 0;
	int r;

	g_mutex_lock(&d->eb->lock);
	r = emub_transfer_locked(ad, msgs, n, true, &end);
	g_mutex_unlock(&d->eb->lock);
	emub_sleep_until_model(d->eb, end);
	return r >= 0 ? r : emub_errno_of_xfer(ad, r);
}

int drv_i2c_master_send(struct emub_dev *d, guint16 addr, const guint8 *buf, guint16 len)
{
	struct em_msg m = {.addr = addr, .flags = 0, .len = len, .buf = (guint8 *)buf};
	int r = drv_i2c_transfer(d, &m, 1);

	return r == 1 ? len : r;
}

int drv_i2c_master_recv(struct emub_dev *d, guint16 addr, guint8 *buf, guint16 len)
{
	struct em_msg m = {.addr = addr, .flags = EM_MSG_RD, .len = len, .buf = buf};
	int r = drv_i2c_transfer(d, &m, 1);

	return r == 1 ? len : r;
}

void drv_msleep(struct emub_dev *d, unsigned int ms)
{
	struct emub *eb = d->eb;

	if (eb->realtime) {
		g_usleep((gulong)ms * 1000);
		return;
	}
	g_mutex_lock(&eb->lock);
	emub_advance_all_locked(eb, eb->now_ns + (guint64)ms * 1000000);
	g_mutex_unlock(&eb->lock);
}

void drv_usleep(struct emub_dev *d, unsigned int us)
{
	struct emub *eb = d->eb;

	if (eb->realtime) {
		g_usleep(us);
		return;
	}
	g_mutex_lock(&eb->lock);
	emub_advance_all_locked(eb, eb->now_ns + (guint64)us * 1000);
	g_mutex_unlock(&eb->lock);
}

void drv_regulator(struct emub_dev *d, bool on)
{
	if (!d->chip->desc->power_driver)
		return; /* always-on supply: the regulator calls change nothing */
	g_mutex_lock(&d->eb->lock);
	emub_chip_power_locked(d->chip, on);
	g_mutex_unlock(&d->eb->lock);
}

int drv_reset_gpio_get(struct emub_dev *d, bool *wired)
{
	int r;

	*wired = d->reset_line >= 0;
	if (!*wired)
		return 0;
	g_mutex_lock(&d->eb->lock);
	/* GPIOD_OUT_HIGH on an active-low line: driven low, chip in reset */
	r = emub_gpio_kernel_request_locked(d->eb, d->reset_line, "reset", true, false);
	g_mutex_unlock(&d->eb->lock);
	return r;
}

void drv_reset_gpio_set(struct emub_dev *d, int logical)
{
	if (d->reset_line < 0)
		return;
	g_mutex_lock(&d->eb->lock);
	emub_gpio_kernel_set_locked(d->eb, d->reset_line, !logical);
	g_mutex_unlock(&d->eb->lock);
}

int drv_gpio_get_int(struct emub_dev *d, bool *have)
{
	int r;

	*have = d->chg_line >= 0;
	if (!*have)
		return 0;
	g_mutex_lock(&d->eb->lock);
	r = emub_gpio_kernel_request_locked(d->eb, d->chg_line, "irq", false, false);
	d->int_gpio_held = r == 0;
	g_mutex_unlock(&d->eb->lock);
	return r;
}

int drv_gpio_get_reset_input(struct emub_dev *d, bool *have)
{
	int r;

	*have = d->reset_line >= 0;
	if (!*have)
		return 0;
	g_mutex_lock(&d->eb->lock);
	r = emub_gpio_kernel_request_locked(d->eb, d->reset_line, "reset", false, false);
	if (!r)
		emub_gpio_kernel_dir_locked(d->eb, d->reset_line, false, false);
	g_mutex_unlock(&d->eb->lock);
	return r;
}

void drv_gpio_output(struct emub_dev *d, int line, bool phys)
{
	if (line < 0)
		return;
	g_mutex_lock(&d->eb->lock);
	emub_gpio_kernel_dir_locked(d->eb, line, true, phys);
	g_mutex_unlock(&d->eb->lock);
}

void drv_gpio_input(struct emub_dev *d, int line)
{
	if (line < 0)
		return;
	g_mutex_lock(&d->eb->lock);
	emub_gpio_kernel_dir_locked(d->eb, line, false, false);
	g_mutex_unlock(&d->eb->lock);
}

int drv_irq_request_on_gpio(struct emub_dev *d, bool level)
{
	if (d->chg_line < 0)
		return -EINVAL;
	g_mutex_lock(&d->eb->lock);
	emub_sync_locked(d->eb);
	d->chip->desc->irq_level = level;
	d->irq_requested = true;
	d->irq_enabled = true;
	d->irq_pending = false;
	if (d->chip->irq_level_now && level) {
		d->irq_pending = true;
		emub_dev_queue_irq_locked(d);
	}
	g_mutex_unlock(&d->eb->lock);
	return 0;
}

int drv_irq_request(struct emub_dev *d)
{
	int r;

	if (d->chg_line < 0)
		return -EINVAL; /* client->irq == 0 */
	g_mutex_lock(&d->eb->lock);
	r = emub_gpio_kernel_request_locked(d->eb, d->chg_line, "interrupt", false, false);
	if (!r) {
		d->irq_requested = true;
		d->irq_enabled = false; /* IRQF_NO_AUTOEN */
		d->irq_pending = false;
	}
	g_mutex_unlock(&d->eb->lock);
	return r;
}

void drv_irq_enable(struct emub_dev *d)
{
	g_mutex_lock(&d->eb->lock);
	d->irq_enabled = true;
	/* a level interrupt asserted while masked fires on unmask */
	if (d->chip->irq_level_now && d->chip->desc->irq_level && !d->irq_pending) {
		d->irq_pending = true;
		emub_dev_queue_irq_locked(d);
	}
	g_mutex_unlock(&d->eb->lock);
}

void drv_irq_disable(struct emub_dev *d)
{
	g_mutex_lock(&d->eb->lock);
	d->irq_enabled = false;
	d->irq_pending = false;
	g_mutex_unlock(&d->eb->lock);
}

void drv_devres_release(struct emub_dev *d)
{
	g_mutex_lock(&d->eb->lock);
	if (d->irq_requested || d->int_gpio_held) {
		d->irq_requested = d->irq_enabled = d->irq_pending = false;
		d->int_gpio_held = false;
		emub_gpio_kernel_free_locked(d->eb, d->chg_line);
	}
	if (d->reset_line >= 0)
		emub_gpio_kernel_free_locked(d->eb, d->reset_line);
	g_mutex_unlock(&d->eb->lock);
}

bool drv_chg_asserted(struct emub_dev *d)
{
	bool v;

	g_mutex_lock(&d->eb->lock);
	emub_sync_locked(d->eb);
	v = d->chip->irq_level_now;
	g_mutex_unlock(&d->eb->lock);
	return v;
}

struct wait_arg {
	struct emub_dev *d;
	unsigned int *done;
};

static bool completion_or_irq(void *p)
{
	struct wait_arg *a = p;
	struct emub_dev *d = a->d;

	return *a->done > 0 || d->eb->stopping ||
	       (d->irq_pending && d->irq_enabled &&
		(!d->chip->desc->irq_level || d->chip->irq_level_now));
}

int drv_wait_completion(struct emub_dev *d, unsigned int *done, unsigned int timeout_ms)
{
	struct emub *eb = d->eb;
	struct wait_arg a = {.d = d, .done = done};
	guint64 deadline;

	g_mutex_lock(&eb->lock);
	emub_sync_locked(eb);
	deadline = model_now_locked(eb) + (guint64)timeout_ms * 1000000;
	for (;;) {
		guint64 now = model_now_locked(eb);

		if (*done > 0) {
			(*done)--;
			g_mutex_unlock(&eb->lock);
			return 0;
		}
		if (eb->stopping)
			break;
		if (completion_or_irq(&a)) {
			g_mutex_unlock(&eb->lock);
			run_irq(d);
			g_mutex_lock(&eb->lock);
			continue;
		}
		if (now >= deadline)
			break;
		emub_wait_model_locked(eb, (deadline - now + 999999) / 1000000, completion_or_irq,
				       &a);
		if (!completion_or_irq(&a) && model_now_locked(eb) >= deadline)
			break;
	}
	g_mutex_unlock(&eb->lock);
	return -ETIMEDOUT;
}

int drv_request_firmware(struct emub_dev *d, const char *name, guint8 **data, gsize *len)
{
	struct emub *eb = d->eb;
	GPtrArray *dirs = g_ptr_array_new_with_free_func(g_free);
	int r = -ENOENT;

	/* a write to firmware_class.path that has returned is in effect */
	emub_settle(eb);
	g_mutex_lock(&eb->lock);
	if (eb->fw_path_param && eb->fw_path_param[0])
		g_ptr_array_add(dirs, g_strdup(eb->fw_path_param));
	g_mutex_unlock(&eb->lock);
	for (char **p = eb->desc.firmware_dirs; p && *p; p++)
		g_ptr_array_add(dirs, g_strdup(*p));
	for (guint i = 0; i < dirs->len; i++) {
		/* fw_get_filesystem_firmware(): "%s/%s" */
		char *path = g_strdup_printf("%s/%s", (char *)dirs->pdata[i], name);
		gchar *buf = NULL;
		gsize n = 0;

		if (g_file_test(path, G_FILE_TEST_IS_REGULAR) &&
		    g_file_get_contents(path, &buf, &n, NULL)) {
			*data = (guint8 *)buf;
			*len = n;
			emub_dev_log(d, "firmware: loaded %s (%zu bytes)", path, (size_t)n);
			g_free(path);
			r = 0;
			break;
		}
		g_free(path);
	}
	if (r)
		emub_dev_log(d, "firmware: %s not found (firmware_class.path \"%s\")", name,
			     eb->fw_path_param ? eb->fw_path_param : "");
	g_ptr_array_free(dirs, TRUE);
	return r;
}

#define OOPS_PLACEHOLDER "(emuboard: reading this oopses the kernel: NULL info block)\n"

void drv_attr_add(struct emub_dev *d, const char *name, const char *content, bool writable,
		  bool oops_on_read)
{
	struct emub_attr *a = g_new0(struct emub_attr, 1);
	char *rel = g_strdup_printf("%s/%s", d->devpath + 1, name);

	a->name = g_strdup(name);
	a->writable = writable;
	a->armed_oops = oops_on_read;
	a->content = g_strdup(oops_on_read ? OOPS_PLACEHOLDER : content ? content : "");
	g_mutex_lock(&d->eb->lock);
	g_ptr_array_add(d->attrs, a);
	emub_sys_write(d->eb, rel, a->content);
	g_mutex_unlock(&d->eb->lock);
	g_free(rel);
}

void drv_attr_set(struct emub_dev *d, const char *name, const char *content, bool oops_on_read)
{
	struct emub_attr *a;

	g_mutex_lock(&d->eb->lock);
	a = find_attr(d, name);
	if (a) {
		char *rel = g_strdup_printf("%s/%s", d->devpath + 1, name);

		g_free(a->content);
		a->armed_oops = oops_on_read;
		a->content = g_strdup(oops_on_read ? OOPS_PLACEHOLDER : content ? content : "");
		emub_sys_write(d->eb, rel, a->content);
		g_free(rel);
	}
	g_mutex_unlock(&d->eb->lock);
}

void drv_attrs_remove(struct emub_dev *d)
{
	g_mutex_lock(&d->eb->lock);
	for (guint i = 0; i < d->attrs->len; i++) {
		struct emub_attr *a = d->attrs->pdata[i];
		char *rel = g_strdup_printf("%s/%s", d->devpath + 1, a->name);

		emub_sys_remove(d->eb, rel);
		g_free(rel);
		free_attr(a);
	}
	g_ptr_array_set_size(d->attrs, 0);
	g_mutex_unlock(&d->eb->lock);
}

/* ------------------------------------------------------------ input */

/*
 * The evdev node answers the ioctls libevdev's init and evtest use
 * (drivers/input/evdev.c evdev_do_ioctl): EVIOCGVERSION, EVIOCGID,
 * EVIOCGNAME, EVIOCGPHYS, EVIOCGUNIQ, EVIOCGPROP, EVIOCGBIT, EVIOCGABS,
 * EVIOCGKEY/LED/SND/SW (all zero: nothing pressed), EVIOCGRAB (accepted);
 * anything else EINVAL, as evdev answers an unknown request.  Reading
 * events is not modelled (the device reports nothing).
 */
static int put_arg(UMockdevIoctlClient *client, const void *src, gsize len)
{
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(client);
	GError *e = NULL;
	UMockdevIoctlData *dd = umockdev_ioctl_data_resolve(arg, 0, len, &e);

	if (e || !dd) {
		g_clear_error(&e);
		if (dd)
			g_object_unref(dd);
		return -EFAULT;
	}
	memcpy(dd->data, src, len);
	g_object_unref(dd);
	return 0;
}

/* str_to_user() / bits_to_user(): copy at most the buffer, return bytes */
static int put_sized(UMockdevIoctlClient *client, gsize size, const void *src, gsize len)
{
	gsize n = MIN(size, len);
	int r;

	if (!n)
		return 0;
	r = put_arg(client, src, n);
	return r ? r : (int)n;
}

static gboolean on_evdev_ioctl(UMockdevIoctlBase *base, UMockdevIoctlClient *client,
			       gpointer user)
{
	struct emub_input *inp = user;
	gulong req = umockdev_ioctl_client_get_request(client);
	unsigned int nr = _IOC_NR(req), size = _IOC_SIZE(req);
	int r = -EINVAL;

	(void)base;
	if (req == EVIOCGVERSION) {
		int v = EV_VERSION;

		r = put_arg(client, &v, sizeof(v));
	} else if (req == EVIOCGID) {
		struct input_id id = {inp->id[0], inp->id[1], inp->id[2], inp->id[3]};

		r = put_arg(client, &id, sizeof(id));
	} else if (req == EVIOCGRAB) {
		r = 0;
	} else if (_IOC_TYPE(req) == 'E' && _IOC_DIR(req) == _IOC_READ) {
		if (nr == _IOC_NR(EVIOCGNAME(0)))
			r = put_sized(client, size, inp->name, strlen(inp->name) + 1);
		else if (nr == _IOC_NR(EVIOCGPHYS(0)))
			r = put_sized(client, size, inp->phys, strlen(inp->phys) + 1);
		else if (nr == _IOC_NR(EVIOCGUNIQ(0)))
			r = -ENOENT; /* no uniq string */
		else if (nr == _IOC_NR(EVIOCGPROP(0)))
			r = put_sized(client, size, &inp->propbits, sizeof(inp->propbits));
		else if (nr == _IOC_NR(EVIOCGKEY(0)) || nr == _IOC_NR(EVIOCGLED(0)) ||
			 nr == _IOC_NR(EVIOCGSND(0)) || nr == _IOC_NR(EVIOCGSW(0))) {
			static const guint8 zero[96];

			r = put_sized(client, size, zero, sizeof(zero));
		} else if (nr >= _IOC_NR(EVIOCGBIT(0, 0)) && nr < _IOC_NR(EVIOCGBIT(EV_MAX + 1, 0))) {
			unsigned int type = nr - _IOC_NR(EVIOCGBIT(0, 0));
			static const guint64 none[12];

			switch (type) {
			case 0:
				r = put_sized(client, size, &inp->evbits, 4); /* EV_CNT bits */
				break;
			case EV_KEY:
				r = put_sized(client, size, inp->keybits, KEY_CNT / 8);
				break;
			case EV_ABS:
				r = put_sized(client, size, &inp->absbits, ABS_CNT / 8);
				break;
			case EV_REL:
				r = put_sized(client, size, none, REL_CNT / 8);
				break;
			case EV_MSC:
				r = put_sized(client, size, none, MSC_CNT / 8);
				break;
			case EV_SW:
				r = put_sized(client, size, none, SW_CNT / 8);
				break;
			case EV_LED:
				r = put_sized(client, size, none, LED_CNT / 8);
				break;
			case EV_SND:
				r = put_sized(client, size, none, SND_CNT / 8);
				break;
			case EV_FF:
				r = put_sized(client, size, none, FF_CNT / 8);
				break;
			default:
				r = -EINVAL;
			}
		} else if (nr >= _IOC_NR(EVIOCGABS(0)) && nr < _IOC_NR(EVIOCGABS(ABS_CNT))) {
			unsigned int code = nr - _IOC_NR(EVIOCGABS(0));
			struct input_absinfo ai;

			if (code >= 64 || !(inp->absbits >> code & 1)) {
				r = -EINVAL;
			} else {
				ai.value = inp->abs[code].value;
				ai.minimum = inp->abs[code].minimum;
				ai.maximum = inp->abs[code].maximum;
				ai.fuzz = inp->abs[code].fuzz;
				ai.flat = inp->abs[code].flat;
				ai.resolution = inp->abs[code].resolution;
				r = put_sized(client, size, &ai, sizeof(ai));
			}
		}
	}
	umockdev_ioctl_client_complete(client, r < 0 ? -1 : r, r < 0 ? -r : 0);
	return TRUE;
}

static void evdev_attach(struct emub *eb, struct emub_input *inp, int k)
{
	GError *e = NULL;

	inp->devnode = g_strdup_printf("/dev/input/event%d", k);
	inp->ioctl = umockdev_ioctl_base_new();
	g_signal_connect(inp->ioctl, "handle-ioctl", G_CALLBACK(on_evdev_ioctl), inp);
	if (!umockdev_testbed_attach_ioctl(eb->tb, inp->devnode, inp->ioctl, &e)) {
		emub_log(eb, "attach_ioctl %s: %s", inp->devnode, e ? e->message : "?");
		g_clear_error(&e);
		g_object_unref(inp->ioctl);
		inp->ioctl = NULL;
	}
}

static void evdev_detach(struct emub *eb, struct emub_input *inp)
{
	GError *e = NULL;

	if (!inp->ioctl)
		return;
	if (!umockdev_testbed_detach_ioctl(eb->tb, inp->devnode, &e)) {
		emub_log(eb, "detach_ioctl %s: %s", inp->devnode, e ? e->message : "?");
		g_clear_error(&e);
	}
	g_object_unref(inp->ioctl);
	inp->ioctl = NULL;
}

void emub_input_free(struct emub_input *inp)
{
	g_free(inp->devpath);
	g_free(inp->evpath);
	g_free(inp->devnode);
	g_free(inp->name);
	g_free(inp->phys);
	if (inp->ioctl)
		g_object_unref(inp->ioctl);
	g_free(inp);
}

/* input_print_bitmap(): longs from the highest non-zero one down, "%lx"
 * separated by spaces */
static void append_bitmap(GString *s, const guint64 *words, int nwords)
{
	int top = nwords - 1;

	while (top > 0 && !words[top])
		top--;
	for (int i = top; i >= 0; i--)
		g_string_append_printf(s, "%" G_GINT64_MODIFIER "x%s", words[i], i ? " " : "");
}

static void append_modalias_bits(GString *s, char name, const guint64 *words, int nbits)
{
	g_string_append_c(s, name);
	for (int i = 0; i < nbits; i++)
		if (words[i / 64] >> (i % 64) & 1)
			g_string_append_printf(s, "%X,", i);
}

int drv_input_register(struct emub_dev *d, const struct emub_input_desc *in)
{
	struct emub *eb = d->eb;
	struct emub_input *inp;
	guint64 ev[1] = {in->evbits}, key[12] = {0}, abs[1] = {in->absbits}, none[1] = {0};
	guint64 prop[1] = {in->propbits};
	GString *rec = g_string_new(NULL), *ma = g_string_new(NULL), *t = g_string_new(NULL);
	GPtrArray *env;
	GError *e = NULL;
	int k, r = 0;

	key[0] = in->keybits_word0;
	key[1] = in->keybits_word1;
	key[5] = in->keybits_word5;
	g_mutex_lock(&eb->lock);
	for (k = 0; k < 32; k++)
		if (!(eb->evdev_minors >> k & 1))
			break;
	eb->evdev_minors |= G_GUINT64_CONSTANT(1) << k;
	inp = g_new0(struct emub_input, 1);
	inp->number = eb->next_input_no++;
	inp->minor = 64 + k;
	g_mutex_unlock(&eb->lock);
	inp->devpath = g_strdup_printf("%s/input/input%d", d->devpath, inp->number);
	inp->evpath = g_strdup_printf("%s/event%d", inp->devpath, k);

	/* input_print_modalias() */
	g_string_append_printf(ma, "input:b%04Xv%04Xp%04Xe%04X-", in->bustype, in->vendor,
			       in->product, in->version);
	append_modalias_bits(ma, 'e', ev, 32);
	append_modalias_bits(ma, 'k', key, 768);
	append_modalias_bits(ma, 'r', none, 16);
	append_modalias_bits(ma, 'a', abs, 64);
	append_modalias_bits(ma, 'm', none, 8);
	append_modalias_bits(ma, 'l', none, 16);
	append_modalias_bits(ma, 's', none, 8);
	append_modalias_bits(ma, 'f', none, 64);
	append_modalias_bits(ma, 'w', none, 16);

	env = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(env, g_strdup_printf("PRODUCT=%x/%x/%x/%x", in->bustype, in->vendor,
					     in->product, in->version));
	g_ptr_array_add(env, g_strdup_printf("NAME=\"%s\"", in->name));
	g_ptr_array_add(env, g_strdup_printf("PHYS=\"%s\"", in->phys));
	g_string_truncate(t, 0);
	append_bitmap(t, prop, 1);
	g_ptr_array_add(env, g_strdup_printf("PROP=%s", t->str));
	g_string_truncate(t, 0);
	append_bitmap(t, ev, 1);
	g_ptr_array_add(env, g_strdup_printf("EV=%s", t->str));
	g_string_truncate(t, 0);
	append_bitmap(t, key, 12);
	g_ptr_array_add(env, g_strdup_printf("KEY=%s", t->str));
	g_string_truncate(t, 0);
	append_bitmap(t, abs, 1);
	g_ptr_array_add(env, g_strdup_printf("ABS=%s", t->str));
	g_ptr_array_add(env, g_strdup_printf("MODALIAS=%s", ma->str));

	g_string_append_printf(rec, "P: %s\nE: SUBSYSTEM=input\n", inp->devpath);
	for (guint i = 0; i < env->len; i++)
		g_string_append_printf(rec, "E: %s\n", (char *)env->pdata[i]);
	g_string_append_printf(rec, "A: name=%s\\n\nA: phys=%s\\n\nA: uniq=\\n\nA: modalias=%s\\n\n\n",
			       in->name, in->phys, ma->str);
	/*
	 * The event node is made by hand, not with an "N:" line: umockdev 0.17
	 * keeps every node it made in a table that remove_device() does not
	 * clear, so a reused minor (evdev reuses the lowest free one) would
	 * abort it.  What its preload needs: the file under dev/ and the
	 * dev/.node/<name> link holding "major:minor".
	 */
	g_string_append_printf(rec,
			       "P: %s\nE: DEVNAME=input/event%d\n"
			       "E: MAJOR=13\nE: MINOR=%d\nE: SUBSYSTEM=input\nA: dev=13:%d\\n\n",
			       inp->evpath, k, inp->minor, inp->minor);
	if (!umockdev_testbed_add_from_string(eb->tb, rec->str, &e)) {
		emub_dev_log(d, "input: %s", e ? e->message : "add failed");
		g_clear_error(&e);
		r = -ENOMEM;
	}
	if (!r) {
		GPtrArray *evenv = g_ptr_array_new_with_free_func(g_free);
		char *dv = g_strdup_printf("%s/device", inp->evpath + 1);
		char *node = g_strdup_printf("%s/dev/input/event%d", eb->root, k);
		char *info = g_strdup_printf("%s/dev/.node/input_event%d", eb->root, k);
		char *num = g_strdup_printf("13:%d", inp->minor);
		char *chr = g_strdup_printf("dev/char/13:%d", inp->minor);

		g_mkdir_with_parents(node, 0755);
		rmdir(node);
		g_file_set_contents(node, "", 0, NULL);
		g_mkdir_with_parents(info, 0755);
		rmdir(info);
		unlink(info);
		if (symlink(num, info))
			emub_dev_log(d, "input: %s: %s", info, g_strerror(errno));
		emub_sys_symlink(eb, inp->evpath + 1, chr);
		g_free(node);
		g_free(info);
		g_free(num);
		g_free(chr);

		emub_sys_symlink(eb, inp->devpath + 1, dv);
		g_free(dv);
		dv = g_strdup_printf("%s/device", inp->devpath + 1);
		emub_sys_symlink(eb, d->devpath + 1, dv);
		g_free(dv);
		inp->name = g_strdup(in->name);
		inp->phys = g_strdup(in->phys);
		inp->id[0] = in->bustype;
		inp->id[1] = in->vendor;
		inp->id[2] = in->product;
		inp->id[3] = in->version;
		inp->evbits = in->evbits;
		memcpy(inp->keybits, key, sizeof(key));
		inp->absbits = in->absbits;
		inp->propbits = in->propbits;
		memcpy(inp->abs, in->abs, sizeof(inp->abs));
		evdev_attach(eb, inp, k);
		g_mutex_lock(&eb->lock);
		d->input = inp;
		g_mutex_unlock(&eb->lock);
		/* device_add(input) then evdev_connect() -> device_add(event) */
		emub_uevent_send(eb, "add", inp->devpath, "input", env);
		g_ptr_array_add(evenv, g_strdup("MAJOR=13"));
		g_ptr_array_add(evenv, g_strdup_printf("MINOR=%d", inp->minor));
		g_ptr_array_add(evenv, g_strdup_printf("DEVNAME=input/event%d", k));
		emub_uevent_send(eb, "add", inp->evpath, "input", evenv);
		g_ptr_array_free(evenv, TRUE);
		emub_dev_log(d, "input: %s as %s", in->name, inp->devpath);
	} else {
		g_mutex_lock(&eb->lock);
		eb->evdev_minors &= ~(G_GUINT64_CONSTANT(1) << k);
		g_mutex_unlock(&eb->lock);
		g_free(inp->devpath);
		g_free(inp->evpath);
		g_free(inp);
	}
	g_ptr_array_free(env, TRUE);
	g_string_free(rec, TRUE);
	g_string_free(ma, TRUE);
	g_string_free(t, TRUE);
	return r;
}

void drv_input_unregister(struct emub_dev *d)
{
	struct emub *eb = d->eb;
	struct emub_input *inp;
	GPtrArray *evenv;
	char *sysp;

	g_mutex_lock(&eb->lock);
	inp = d->input;
	d->input = NULL;
	g_mutex_unlock(&eb->lock);
	if (!inp)
		return;
	/* evdev_disconnect() -> device_del(event), then device_del(input);
	 * each sends remove before its directory goes */
	evenv = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(evenv, g_strdup("MAJOR=13"));
	g_ptr_array_add(evenv, g_strdup_printf("MINOR=%d", inp->minor));
	g_ptr_array_add(evenv, g_strdup_printf("DEVNAME=input/event%d", inp->minor - 64));
	emub_uevent_send(eb, "remove", inp->evpath, "input", evenv);
	g_ptr_array_free(evenv, TRUE);
	evdev_detach(eb, inp);
	sysp = g_strdup_printf("/sys%s", inp->evpath);
	umockdev_testbed_remove_device(eb->tb, sysp);
	g_free(sysp);
	/* the node we made by hand (drv_input_register) */
	{
		char *f[3] = {
			g_strdup_printf("%s/sys/dev/char/13:%d", eb->root, inp->minor),
			g_strdup_printf("%s/dev/.node/input_event%d", eb->root, inp->minor - 64),
			g_strdup_printf("%s/dev/input/event%d", eb->root, inp->minor - 64),
		};

		for (int i = 0; i < 3; i++) {
			unlink(f[i]);
			g_free(f[i]);
		}
	}
	emub_uevent_send(eb, "remove", inp->devpath, "input", NULL);
	sysp = g_strdup_printf("/sys%s", inp->devpath);
	umockdev_testbed_remove_device(eb->tb, sysp);
	g_free(sysp);
	{
		char *dir = g_strdup_printf("%s/input", d->devpath + 1);
		char *p = emub_sys_path(eb, dir);

		rmdir(p);
		g_free(p);
		g_free(dir);
	}
	g_mutex_lock(&eb->lock);
	eb->evdev_minors &= ~(G_GUINT64_CONSTANT(1) << (inp->minor - 64));
	g_mutex_unlock(&eb->lock);
	emub_dev_log(d, "input: unregistered input%d", inp->number);
	emub_input_free(inp);
}

void drv_queue_work(struct emub_dev *d, int what, int delay_ms)
{
	emub_dev_queue(d, EMUB_JOB_WORK, NULL, NULL, 0, what, delay_ms, false, NULL);
}

bool drv_fault_no_input(struct emub_dev *d)
{
	bool v;

	g_mutex_lock(&d->eb->lock);
	v = d->chip->desc->no_input;
	g_mutex_unlock(&d->eb->lock);
	return v;
}
