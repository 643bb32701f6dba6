// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sysfs files children write, watched: a device's uevent (coldplug),
 * driver attributes such as update_fw, and firmware_class.path are regular
 * files in the testbed, watched with inotify from the service thread (a
 * write lands when the writer closes the file); bind and unbind of the i2c
 * drivers are named pipes read by the same thread (emub_fifo_add).  Writes
 * return at once where the kernel's returns the probe's result: documented
 * limit.  The writes become jobs of the
 * device's worker (drvcore.c).  Also the service thread itself and
 * emub_settle().
 */
#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emub-priv.h"

struct emub_watch {
	char *rel;
	int kind;
	struct emub_dev *dev;
};

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

/* "1-004a\n" -> "1-004a" (sysfs_streq-like) */
static char *strip_value(const char *buf)
{
	char *s = g_strdup(buf);

	return g_strstrip(s);
}

/*
 * A driver's bind and unbind files are named pipes.  Several programs
 * write them at once (touchfw rebinding two controllers of one driver),
 * and a regular file keeps only the last write: the first device's unbind
 * was lost when two landed before the service thread read the file.  Each
 * write(2) to a pipe arrives whole; the service thread reads them as they
 * come and keeps a write end open itself, so a writer never blocks in
 * open() and the reader never sees end-of-file.  A pipe keeps no
 * boundaries between writes, so what was read is split into device names:
 * at each point the longest name of a device that exists ("1-004a4-004a"
 * is two writes without newlines, as touchfw writes them); anything else
 * up to the next white space is an unknown name (ENODEV in the kernel).
 */
struct emub_fifo {
	struct emub *eb;
	char *rel; /* "bus/i2c/drivers/DRIVER/unbind" */
	int rfd, wfd;
	GString *buf;
	bool (*is_name)(struct emub *eb, const char *name);
	void (*on_value)(struct emub *eb, const char *rel, const char *value);
};

static void fifo_consume(struct emub_fifo *f)
{
	char *s = f->buf->str, *end = s + f->buf->len;

	while (s < end) {
		size_t span, len;
		char *name = NULL;

		while (s < end && g_ascii_isspace(*s))
			s++;
		for (span = 0; s + span < end && !g_ascii_isspace(s[span]); span++)
			;
		if (!span)
			break;
		for (len = span; len > 0; len--) {
			name = g_strndup(s, len);
			if (f->is_name(f->eb, name))
				break;
			g_free(name);
			name = NULL;
		}
		if (!name) {
			len = span;
			name = g_strndup(s, len);
		}
		f->on_value(f->eb, f->rel, name);
		g_free(name);
		s += len;
	}
	g_string_truncate(f->buf, 0);
}

static void fifo_drain(struct emub_fifo *f)
{
	char b[4096];
	ssize_t n;

	while ((n = read(f->rfd, b, sizeof(b))) > 0)
		g_string_append_len(f->buf, b, n);
	if (f->buf->len && !f->eb->stopping)
		fifo_consume(f);
	g_string_truncate(f->buf, 0);
}

static gboolean on_fifo(gint fd, GIOCondition cond, gpointer data)
{
	(void)fd;
	(void)cond;
	fifo_drain(data);
	return G_SOURCE_CONTINUE;
}

static void free_fifo(gpointer p)
{
	struct emub_fifo *f = p;

	if (f->rfd >= 0)
		close(f->rfd);
	if (f->wfd >= 0)
		close(f->wfd);
	g_string_free(f->buf, TRUE);
	g_free(f->rel);
	g_free(f);
}

int emub_fifo_add(struct emub *eb, const char *rel,
		  bool (*is_name)(struct emub *eb, const char *name),
		  void (*on_value)(struct emub *eb, const char *rel, const char *value))
{
	char *p = emub_sys_path(eb, rel);
	struct emub_fifo *f;
	GSource *src;

	for (guint i = 0; eb->fifos && i < eb->fifos->len; i++)
		if (!strcmp(((struct emub_fifo *)eb->fifos->pdata[i])->rel, rel)) {
			g_free(p);
			return 0; /* one driver, several devices */
		}
	unlink(p);
	if (mkfifo(p, 0200) < 0) {
		int r = -errno;

		emub_log(eb, "mkfifo %s: %s", rel, g_strerror(errno));
		g_free(p);
		return r;
	}
	f = g_new0(struct emub_fifo, 1);
	f->eb = eb;
	f->rel = g_strdup(rel);
	f->buf = g_string_new(NULL);
	f->is_name = is_name;
	f->on_value = on_value;
	f->rfd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	f->wfd = f->rfd >= 0 ? open(p, O_WRONLY | O_NONBLOCK | O_CLOEXEC) : -1;
	g_free(p);
	if (f->rfd < 0 || f->wfd < 0) {
		int r = -errno;

		emub_log(eb, "open %s: %s", rel, g_strerror(errno));
		free_fifo(f);
		return r;
	}
	if (!eb->fifos)
		eb->fifos = g_ptr_array_new_with_free_func(free_fifo);
	g_ptr_array_add(eb->fifos, f);
	src = g_unix_fd_source_new(f->rfd, G_IO_IN);
	g_source_set_callback(src, G_SOURCE_FUNC(on_fifo), f, NULL);
	g_source_attach(src, eb->ctx);
	g_source_unref(src);
	return 0;
}

static bool i2c_dev_name(struct emub *eb, const char *name)
{
	return emub_dev_by_name(eb, name) != NULL;
}

/* "echo DEV > /sys/bus/i2c/drivers/DRV/bind|unbind" */
static void on_driver_value(struct emub *eb, const char *rel, const char *devname)
{
	const char *name = strrchr(rel, '/') + 1;
	bool bind = !strcmp(name, "bind");
	size_t dirlen = (size_t)(name - 1 - rel);
	struct emub_dev *d = emub_dev_by_name(eb, devname);

	if (!d || !d->drv || strlen(d->drv->name) + strlen("bus/i2c/drivers/") != dirlen ||
	    strncmp(rel + strlen("bus/i2c/drivers/"), d->drv->name, strlen(d->drv->name)))
		emub_log(eb,
			 "%s: \"%s\": no such device for this driver (the write would fail "
			 "with ENODEV)",
			 rel, devname);
	else
		emub_dev_queue(d, bind ? EMUB_JOB_BIND : EMUB_JOB_UNBIND, NULL, NULL, 0,
			       bind ? 0 : EMUB_UNBIND_WRITTEN, 0, false, NULL);
}

int emub_driver_files_add(struct emub *eb, const char *dir)
{
	char *f = g_strdup_printf("%s/bind", dir);
	int r = emub_fifo_add(eb, f, i2c_dev_name, on_driver_value);

	g_free(f);
	if (!r) {
		f = g_strdup_printf("%s/unbind", dir);
		r = emub_fifo_add(eb, f, i2c_dev_name, on_driver_value);
		g_free(f);
	}
	return r;
}

/* kobject_synth_uevent(): "add", "change", ... written to a uevent file */
static void on_uevent_write(struct emub *eb, struct emub_dev *d, const char *buf)
{
	static const char *const actions[] = { "add",	 "remove",  "change", "move",
					       "online", "offline", "bind",   "unbind" };
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

static void on_device_event(struct emub *eb, struct emub_watch *w,
			    const struct inotify_event *ev)
{
	struct emub_dev *d = w->dev;
	const char *devrel = d->devpath + 1;
	struct emub_attr *a;
	char *rel, *buf, *aname;
	gsize len;

	/* a child device's directory (drv_attr_add): its attributes are
	 * named from the client's directory on */
	if (strcmp(w->rel, devrel)) {
		size_t n = strlen(devrel);

		if (strncmp(w->rel, devrel, n) || w->rel[n] != '/')
			return;
		aname = g_strdup_printf("%s/%s", w->rel + n + 1, ev->name);
		g_mutex_lock(&eb->lock);
		a = emub_attr_find(d, aname);
		rel = g_strdup_printf("%s/%s", devrel, aname);
		/* as below: a held attribute's bytes are its writer's (ATTRHOLD) */
		if (a && (ev->mask & IN_CLOSE_WRITE) && a->writable &&
		    !emub_attr_held_locked(eb, rel)) {
			g_mutex_unlock(&eb->lock);
			buf = emub_sys_read(eb, rel, &len);
			if (buf && len) {
				emub_sys_write(eb, rel, "");
				emub_dev_queue(d, EMUB_JOB_ATTR_WRITE, aname, buf, len, 0, 0,
					       false, NULL);
			}
			g_free(buf);
		} else {
			g_mutex_unlock(&eb->lock);
		}
		g_free(rel);
		g_free(aname);
		return;
	}
	if (!strcmp(ev->name, "uevent")) {
		if (!(ev->mask & IN_CLOSE_WRITE))
			return;
		rel = g_strdup_printf("%s/uevent", w->rel);
		buf = emub_sys_read(eb, rel, &len);
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
	a = emub_attr_find(d, ev->name);
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

		rel = g_strdup_printf("%s/%s", w->rel, name);
		/* a writer under the board's shim stores its own bytes
		 * (ATTRHOLD, gpio.c): this event is an older close */
		if (emub_attr_held_locked(eb, rel)) {
			g_mutex_unlock(&eb->lock);
			g_free(rel);
			g_free(name);
			return;
		}
		g_mutex_unlock(&eb->lock);
		buf = emub_sys_read(eb, rel, &len);
		if (buf && len) {
			emub_sys_write(eb, rel, ""); /* S_IWUSR only: nothing to read */
			emub_dev_queue(d, EMUB_JOB_ATTR_WRITE, name, buf, len, 0, 0, false,
				       NULL);
		}
		g_free(buf);
		g_free(rel);
		g_free(name);
		return;
	}
	g_mutex_unlock(&eb->lock);
}

/* One "\n" appended to the file (O_APPEND: after whatever is in it when
 * the write happens); the file as it is afterwards, NULL if unreadable. */
static char *append_newline(struct emub *eb, const char *rel)
{
	char *p = emub_sys_path(eb, rel), *buf = NULL;
	int fd = open(p, O_WRONLY | O_APPEND | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, "\n", 1) != 1)
			emub_log(eb, "%s: %s", rel, g_strerror(errno));
		close(fd);
	}
	if (!g_file_get_contents(p, &buf, NULL, NULL))
		buf = NULL;
	g_free(p);
	return buf;
}

/*
 * module_param_string(path, fw_path_para, 256, 0644): kept as written,
 * trailing newline included; reads show it with "\n" appended.
 *
 * The file is the writers' as much as ours, and a write lands at any time
 * relative to this (the service thread runs after the writer's close): a
 * writer opens it with O_TRUNC and then writes.  So the value read here
 * may be an empty file (a writer between its truncation and its write:
 * its own close comes later and is handled then), and the "\n" that
 * makes the read-back form is only ever appended, never written over the
 * file: truncating it here and writing the old value back would wipe a
 * write that landed after the read (touchfw's next staging path was lost
 * that way and the driver found no file).  An append lands at the end of
 * what is there: after a newer complete value (then that value is the
 * parameter: what is read back names it), or before a writer's write
 * (which overwrites it from offset 0), never inside one.
 */
static void on_fwparam_write(struct emub *eb, const char *name)
{
	static const char rel[] = "module/firmware_class/parameters/path";
	char *buf, *canon, *after = NULL;
	gsize len;

	if (strcmp(name, "path"))
		return;
	buf = emub_sys_read(eb, rel, &len);
	if (!buf || !len) {
		g_free(buf);
		return;
	}
	g_atomic_int_inc(&eb->fw_path_reads);
	g_mutex_lock(&eb->lock);
	canon = g_strdup_printf("%s\n", eb->fw_path_param ? eb->fw_path_param : "");
	if (strcmp(buf, canon)) {
		if (len >= 256) {
			emub_log(eb,
				 "firmware_class.path: %zu bytes is too long (the write would "
				 "fail with ENOSPC)",
				 (size_t)len);
			emub_sys_write(eb, rel, canon);
		} else {
			size_t n;

			g_free(eb->fw_path_param);
			eb->fw_path_param = g_strndup(buf, len);
			after = append_newline(eb, rel);
			n = after ? strlen(after) : 0;
			/* A newer value written completely before the append:
			 * the newer value minus the "\n" appended to it. */
			if (n > 1 && after[n - 1] == '\n' &&
			    (n != len + 1 || memcmp(after, buf, len))) {
				g_free(eb->fw_path_param);
				eb->fw_path_param = g_strndup(after, n - 1);
			}
			emub_log(eb, "firmware_class.path = \"%s\"%s", eb->fw_path_param,
				 g_str_has_suffix(eb->fw_path_param, "\n")
					 ? " (trailing newline kept, as Linux 6.1 does)"
					 : "");
		}
	}
	g_mutex_unlock(&eb->lock);
	g_atomic_int_inc(&eb->fw_path_handled);
	g_free(after);
	g_free(canon);
	g_free(buf);
}

void emub_fw_path_progress(struct emub *eb, int *read, int *handled)
{
	*read = g_atomic_int_get(&eb->fw_path_reads);
	*handled = g_atomic_int_get(&eb->fw_path_handled);
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
			struct emub_watch *w = g_hash_table_lookup(eb->watches,
								   GINT_TO_POINTER(ev->wd));

			p += sizeof(*ev) + ev->len;
			if (!w || !ev->len)
				continue;
			switch (w->kind) {
			case EMUB_WATCH_DRIVER:
				break; /* bind, unbind: pipes (emub_fifo_add) */
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
	for (guint i = 0; s->eb->fifos && i < s->eb->fifos->len; i++)
		fifo_drain(s->eb->fifos->pdata[i]);
	g_mutex_lock(&s->m);
	s->done = true;
	g_cond_signal(&s->c);
	g_mutex_unlock(&s->m);
	return G_SOURCE_REMOVE;
}

/*
 * Handle every sysfs write that has been closed so far: the kernel queues
 * the inotify event at close(), so after a writer returned its write is
 * seen here, and the job it causes is queued when this returns (a write
 * to a driver's bind or unbind pipe is there once write() returned).
 */
void emub_settle(struct emub *eb)
{
	struct settle s = { .eb = eb };

	if (!eb->service || g_thread_self() == eb->service)
		return;
	emub_gpio_settle(eb); /* lines of programs that are gone are free */
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
	if (eb->fifos)
		g_ptr_array_free(eb->fifos, TRUE);
	eb->fifos = NULL;
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
