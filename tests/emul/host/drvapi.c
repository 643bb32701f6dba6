// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel API the emulated drivers (drv_*.c) are written against, as
 * the real drivers call it: i2c transfers, sleeps in model time, the
 * regulator, GPIO descriptors and IRQs (devres-managed), completions,
 * request_firmware(), sysfs attributes, deferred work.  Run on the
 * device's worker thread, without eb->lock.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "emub-priv.h"

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
	struct em_msg m = { .addr = addr, .flags = 0, .len = len, .buf = (guint8 *)buf };
	int r = drv_i2c_transfer(d, &m, 1);

	return r == 1 ? len : r;
}

int drv_i2c_master_recv(struct emub_dev *d, guint16 addr, guint8 *buf, guint16 len)
{
	struct em_msg m = { .addr = addr, .flags = EM_MSG_RD, .len = len, .buf = buf };
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

bool drv_adapter_host_notify(struct emub_dev *d)
{
	return d->chip->ad->desc.host_notify;
}

int drv_irq_request_host_notify(struct emub_dev *d)
{
	if (!drv_adapter_host_notify(d))
		return -ENXIO;
	g_mutex_lock(&d->eb->lock);
	d->irq_requested = true;
	d->irq_enabled = true;
	d->irq_pending = false;
	d->chip->desc->irq_level = false; /* a notification: an edge */
	g_mutex_unlock(&d->eb->lock);
	return 0;
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
	struct wait_arg a = { .d = d, .done = done };
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
			emub_dev_run_irq(d);
			g_mutex_lock(&eb->lock);
			continue;
		}
		if (now >= deadline)
			break;
		emub_wait_model_locked(eb, (deadline - now + 999999) / 1000000,
				       completion_or_irq, &a);
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
	if (strchr(name, '/')) {
		/* a child device's attribute: its directory, watched once */
		char *dir = g_path_get_dirname(rel);
		char *p = emub_sys_path(d->eb, dir);

		if (!g_file_test(p, G_FILE_TEST_IS_DIR)) {
			emub_sys_mkdir(d->eb, dir);
			emub_watch_add(d->eb, dir, d, EMUB_WATCH_DEVICE);
		}
		g_free(p);
		g_free(dir);
	}
	g_ptr_array_add(d->attrs, a);
	if (writable)
		emub_sys_write(d->eb, rel, a->content);
	else
		emub_sys_publish(d->eb, rel, a->content);
	g_mutex_unlock(&d->eb->lock);
	g_free(rel);
}

void drv_attr_set(struct emub_dev *d, const char *name, const char *content, bool oops_on_read)
{
	struct emub_attr *a;

	g_mutex_lock(&d->eb->lock);
	a = emub_attr_find(d, name);
	if (a) {
		char *rel = g_strdup_printf("%s/%s", d->devpath + 1, name);

		g_free(a->content);
		a->armed_oops = oops_on_read;
		a->content = g_strdup(oops_on_read ? OOPS_PLACEHOLDER : content ? content : "");
		if (a->writable)
			emub_sys_write(d->eb, rel, a->content);
		else
			emub_sys_publish(d->eb, rel, a->content);
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
		if (strchr(a->name, '/')) {
			/* the child device goes with its attributes */
			char *dir = g_path_get_dirname(rel);

			emub_watch_remove_dir(d->eb, dir);
			emub_sys_remove(d->eb, dir);
			g_free(dir);
		}
		g_free(rel);
		emub_attr_free(a);
	}
	g_ptr_array_set_size(d->attrs, 0);
	g_mutex_unlock(&d->eb->lock);
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

int drv_update_fw_done(struct emub_dev *d, int result)
{
	g_mutex_lock(&d->eb->lock);
	d->have_update_fw = true;
	d->update_fw_count++;
	d->update_fw_result = result;
	g_mutex_unlock(&d->eb->lock);
	emub_log(d->eb, "%s %s: write to update_fw would return %s", d->drv->name, d->name,
		 result ? g_strerror(-result) : "the byte count (success)");
	return result;
}

void drv_free_priv(struct emub_dev *d)
{
	g_free(d->priv);
	d->priv = NULL;
}

/* devres runs its actions in the reverse order of their taking: the input
 * device (devm_input_allocate_device, registered last), the regulators'
 * disable action, the data (devm_kzalloc, first). */
void drv_devm_release(struct emub_dev *d)
{
	drv_input_unregister(d);
	drv_regulator(d, false);
	drv_free_priv(d);
}
