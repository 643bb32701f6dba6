// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The emulated gpiochip.
 *
 * /dev/gpiochipN answers the chip and line information ioctls (uAPI v1 and
 * v2 GET_LINEINFO, as drivers/gpio/gpiolib-cdev.c fills them), so gpiodetect,
 * gpioinfo and gpiofind from libgpiod 1.6 work.  Line requests return a new
 * file descriptor, which umockdev can not emulate: here they fail (EBUSY
 * for a line in use, like the kernel, else EOPNOTSUPP).  Programs on the
 * board run under libemuboard-gpiod.so (tests/emul/gpiod-preload.c), an
 * LD_PRELOAD shim that serves the line requests of the kernel's uAPI (v1
 * and v2, beneath any libgpiod) through a unix socket
 * ($UMOCKDEV_DIR/emuboard-gpio.sock) served here, one connection per
 * requested line, text lines:
 *
 *   REQUEST chip=<label|name> line=<offset> | name=<line name>
 *           dir=in|out [value=0|1] [active_low=0|1] [consumer=<word>]
 *                               -> OK | ERR <errno> <text>
 *   SET <0|1>                   -> OK            (logical value, outputs)
 *   GET                         -> OK <0|1>      (logical value)
 *   WAIT <timeout_ms>           -> EDGE <1=assert|2=deassert> <model ns>
 *                                | TIMEOUT       (inputs, both edges)
 *   RELEASE                     -> OK            (closing does the same)
 *
 * Wiring: a reset line drives the chip's reset input (low = held, the pin
 * is active low); a CHG line follows the chip's interrupt output (low =
 * asserted).  Lines held by the kernel driver model (one holds reset with
 * devm_gpiod_get and CHG as its IRQ while bound) are busy: a
 * request fails with EBUSY, as gpiolib does.  Line values stay when a
 * line is released, as most GPIO controllers keep their output latch.
 */
#include <errno.h>
#include <poll.h>
#include <linux/gpio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <glib-unix.h>

#include "emub-priv.h"
#include "emub-spi.h"

#define EDGE_QUEUE_MAX 16 /* gpiolib-cdev v1 lineevent kfifo */

struct emub_gpio_conn {
	struct emub *eb;
	int fd;
	int line; /* -1 before REQUEST */
	bool output;
	bool active_low;
	char consumer[32];
	GQueue edges; /* struct emub_edge * */
	GThread *thread;
	char *held; /* ATTRHOLD's attribute (below /sys), until its ATTRWRITE */
};

/* ------------------------------------------------------------ line state */

static void queue_edge_locked(struct emub *eb, struct emub_line *l, guint64 t)
{
	struct emub_gpio_conn *u = l->user;
	struct emub_edge *e;

	if (!u || u->output)
		return;
	if (g_queue_get_length(&u->edges) >= EDGE_QUEUE_MAX) {
		emub_log(eb, "gpio line %d: event queue full, edge dropped", l->offset);
		return;
	}
	e = g_new0(struct emub_edge, 1);
	e->t_ns = t;
	e->rising = l->phys;
	g_queue_push_tail(&u->edges, e);
}

/*
 * A both-ways INT pin (the chip model's int_level) is an output of the
 * chip unless the host drives it: an
 * output line (kernel or user space) drives the chip's pin, an input line
 * (or a free one) follows it.  Released lines go back to the chip.
 */
static void int_pin_locked(struct emub *eb, struct emub_line *l)
{
	struct emub_chip *c = l->chg_of;
	bool driven, lvl;

	if (!c || !emub_chip_int_both_ways(c))
		return;
	driven = (l->kernel_consumer && l->kernel_output) || (l->user && l->user->output);
	emub_chip_int_locked(c, driven, l->phys);
	if (driven)
		return;
	lvl = c->desc->cm->int_level(c->model);
	if (lvl != l->phys) {
		l->phys = lvl;
		queue_edge_locked(eb, l, c->now_ns);
		g_cond_broadcast(&eb->gpio_cond);
	}
}

static void apply_reset_locked(struct emub_line *l)
{
	if (l->reset_of)
		emub_chip_reset_locked(l->reset_of, !l->phys);
	if (l->chg_of && emub_chip_int_both_ways(l->chg_of))
		int_pin_locked(l->chg_of->eb, l);
}

void emub_gpio_apply_locked(struct emub *eb, int line)
{
	if (line >= 0 && line < eb->gpio_nlines)
		apply_reset_locked(&eb->lines[line]);
}

void emub_gpio_chip_edge_locked(struct emub *eb, struct emub_chip *c, bool asserted, guint64 t)
{
	for (int i = 0; i < eb->gpio_nlines; i++) {
		struct emub_line *l = &eb->lines[i];
		struct emub_gpio_conn *u = l->user;

		if (l->chg_of != c)
			continue;
		if (emub_chip_int_both_ways(c)) {
			bool driven = (l->kernel_consumer && l->kernel_output) ||
				      (u && u->output);
			bool lvl = c->desc->cm->int_level(c->model);

			if (driven || lvl == l->phys)
				continue;
			l->phys = lvl;
			queue_edge_locked(eb, l, t);
			continue;
		}
		l->phys = !asserted; /* CHG is active low on the wire */
		if (u && !u->output) {
			struct emub_edge *e;

			if (g_queue_get_length(&u->edges) >= EDGE_QUEUE_MAX) {
				emub_log(eb, "gpio line %d: event queue full, edge dropped", i);
				continue;
			}
			e = g_new0(struct emub_edge, 1);
			e->t_ns = t;
			e->rising = l->phys;
			g_queue_push_tail(&u->edges, e);
		}
	}
}

int emub_gpio_kernel_request_locked(struct emub *eb, int line, const char *consumer,
				    bool output, bool phys)
{
	struct emub_line *l;

	if (line < 0 || line >= eb->gpio_nlines)
		return -EINVAL;
	l = &eb->lines[line];
	if (l->user || l->kernel_consumer)
		return -EBUSY;
	l->kernel_consumer = consumer;
	l->kernel_output = output;
	if (output && l->phys != phys) {
		l->phys = phys;
		apply_reset_locked(l);
	} else if (l->chg_of) {
		int_pin_locked(eb, l);
	}
	return 0;
}

/* gpiod_direction_input() / _output() on a line the kernel holds */
void emub_gpio_kernel_dir_locked(struct emub *eb, int line, bool output, bool phys)
{
	struct emub_line *l = &eb->lines[line];

	l->kernel_output = output;
	if (output) {
		if (l->phys != phys || l->chg_of) {
			l->phys = phys;
			apply_reset_locked(l);
		}
		return;
	}
	if (l->reset_of && !l->phys) {
		/* an input reset line: the board's pull-up releases it */
		l->phys = true;
		apply_reset_locked(l);
	}
	int_pin_locked(eb, l);
}

void emub_gpio_kernel_set_locked(struct emub *eb, int line, bool phys)
{
	struct emub_line *l = &eb->lines[line];

	if (l->phys == phys)
		return;
	l->phys = phys;
	apply_reset_locked(l);
}

void emub_gpio_kernel_free_locked(struct emub *eb, int line)
{
	if (line < 0 || line >= eb->gpio_nlines)
		return;
	eb->lines[line].kernel_consumer = NULL;
	eb->lines[line].kernel_output = false;
	int_pin_locked(eb, &eb->lines[line]);
}

/* ------------------------------------------------------------ chardev */

static void line_info_locked(struct emub *eb, int off, bool *used, bool *out, bool *al,
			     const char **consumer)
{
	struct emub_line *l = &eb->lines[off];

	*used = l->kernel_consumer || l->user;
	*out = l->user ? l->user->output : l->kernel_output;
	/* the driver model asks for lines by their DT flags: reset active
	 * low, unless the chip model's lines are active high */
	*al = l->user ? l->user->active_low
		      : (l->kernel_consumer != NULL && l->reset_of &&
			 !l->reset_of->desc->cm->lines_active_high);
	*consumer = l->user ? l->user->consumer : l->kernel_consumer ? l->kernel_consumer : "";
}

static int resolve_arg(UMockdevIoctlClient *client, gsize len, UMockdevIoctlData **out)
{
	UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(client);
	GError *e = NULL;
	UMockdevIoctlData *d = umockdev_ioctl_data_resolve(arg, 0, len, &e);

	if (e || !d) {
		g_clear_error(&e);
		if (d)
			g_object_unref(d);
		return -EFAULT;
	}
	*out = d;
	return 0;
}

static gboolean on_gpio_ioctl(UMockdevIoctlBase *base, UMockdevIoctlClient *client,
			      gpointer user)
{
	struct emub *eb = user;
	gulong req = umockdev_ioctl_client_get_request(client);
	UMockdevIoctlData *d = NULL;
	int r = 0;

	(void)base;
	switch (req) {
	case GPIO_GET_CHIPINFO_IOCTL: {
		struct gpiochip_info ci;

		r = resolve_arg(client, sizeof(ci), &d);
		if (r)
			break;
		memset(&ci, 0, sizeof(ci));
		g_strlcpy(ci.name, "gpiochip0", sizeof(ci.name));
		g_strlcpy(ci.label, eb->gpio_label, sizeof(ci.label));
		ci.lines = (guint32)eb->gpio_nlines;
		memcpy(d->data, &ci, sizeof(ci));
		break;
	}
	case GPIO_GET_LINEINFO_IOCTL: {
		struct gpioline_info li;
		bool used, out, al;
		const char *cons;

		r = resolve_arg(client, sizeof(li), &d);
		if (r)
			break;
		memcpy(&li, d->data, sizeof(li));
		if (li.line_offset >= (guint32)eb->gpio_nlines) {
			r = -EINVAL;
			break;
		}
		g_mutex_lock(&eb->lock);
		line_info_locked(eb, (int)li.line_offset, &used, &out, &al, &cons);
		li.flags = (used ? GPIOLINE_FLAG_KERNEL : 0) |
			   (out ? GPIOLINE_FLAG_IS_OUT : 0) |
			   (al ? GPIOLINE_FLAG_ACTIVE_LOW : 0);
		memset(li.name, 0, sizeof(li.name));
		memset(li.consumer, 0, sizeof(li.consumer));
		g_strlcpy(li.name, eb->lines[li.line_offset].name, sizeof(li.name));
		g_strlcpy(li.consumer, cons, sizeof(li.consumer));
		g_mutex_unlock(&eb->lock);
		memcpy(d->data, &li, sizeof(li));
		break;
	}
	case GPIO_V2_GET_LINEINFO_IOCTL: {
		struct gpio_v2_line_info li;
		bool used, out, al;
		const char *cons;

		r = resolve_arg(client, sizeof(li), &d);
		if (r)
			break;
		memcpy(&li, d->data, sizeof(li));
		if (li.offset >= (guint32)eb->gpio_nlines) {
			r = -EINVAL;
			break;
		}
		for (size_t i = 0; i < G_N_ELEMENTS(li.padding); i++)
			if (li.padding[i])
				r = -EINVAL;
		if (r)
			break;
		{
			guint32 off = li.offset;

			memset(&li, 0, sizeof(li));
			li.offset = off;
		}
		g_mutex_lock(&eb->lock);
		line_info_locked(eb, (int)li.offset, &used, &out, &al, &cons);
		li.flags = (used ? GPIO_V2_LINE_FLAG_USED : 0) |
			   (out ? GPIO_V2_LINE_FLAG_OUTPUT : GPIO_V2_LINE_FLAG_INPUT) |
			   (al ? GPIO_V2_LINE_FLAG_ACTIVE_LOW : 0);
		g_strlcpy(li.name, eb->lines[li.offset].name, sizeof(li.name));
		g_strlcpy(li.consumer, cons, sizeof(li.consumer));
		g_mutex_unlock(&eb->lock);
		memcpy(d->data, &li, sizeof(li));
		break;
	}
	case GPIO_GET_LINEHANDLE_IOCTL:
	case GPIO_GET_LINEEVENT_IOCTL:
	case GPIO_V2_GET_LINE_IOCTL:
		/* The request itself can not be emulated (it returns a new fd). */
		emub_log(eb, "gpiochip0: line requests can not be emulated under umockdev; "
			     "libemuboard-gpiod.so serves them");
		r = -EOPNOTSUPP;
		break;
	default:
		r = -ENOTTY;
	}
	if (d)
		g_object_unref(d);
	umockdev_ioctl_client_complete(client, r < 0 ? -1 : 0, r < 0 ? -r : 0);
	return TRUE;
}

/* ------------------------------------------------------------ socket */

static void conn_release_locked(struct emub_gpio_conn *c)
{
	struct emub *eb = c->eb;

	if (c->line >= 0 && eb->lines[c->line].user == c) {
		eb->lines[c->line].user = NULL;
		int_pin_locked(eb, &eb->lines[c->line]);
	}
	c->line = -1;
	g_queue_clear_full(&c->edges, g_free);
	g_cond_broadcast(&eb->gpio_cond);
}

static int find_line_locked(struct emub *eb, const char *chip, int offset, const char *name)
{
	if (name && *name) {
		for (int i = 0; i < eb->gpio_nlines; i++)
			if (!strcmp(eb->lines[i].name, name))
				return i;
		return -ENOENT;
	}
	if (!chip || (strcmp(chip, eb->gpio_label) && strcmp(chip, "gpiochip0") &&
		      strcmp(chip, "/dev/gpiochip0") && strcmp(chip, "0")))
		return -ENODEV;
	if (offset < 0 || offset >= eb->gpio_nlines)
		return -EINVAL;
	return offset;
}

static char *cmd_request(struct emub_gpio_conn *c, char **tok)
{
	struct emub *eb = c->eb;
	const char *chip = NULL, *name = NULL, *dir = NULL;
	int offset = -1, value = 0, al = 0, line;
	struct emub_line *l;

	c->consumer[0] = 0;
	for (; *tok; tok++) {
		char *eq = strchr(*tok, '=');

		if (!eq)
			return g_strdup_printf("ERR %d bad argument %s", EINVAL, *tok);
		*eq++ = 0;
		if (!strcmp(*tok, "chip"))
			chip = eq;
		else if (!strcmp(*tok, "line"))
			offset = atoi(eq);
		else if (!strcmp(*tok, "name"))
			name = eq;
		else if (!strcmp(*tok, "dir"))
			dir = eq;
		else if (!strcmp(*tok, "value"))
			value = atoi(eq) != 0;
		else if (!strcmp(*tok, "active_low"))
			al = atoi(eq) != 0;
		else if (!strcmp(*tok, "consumer"))
			g_strlcpy(c->consumer, eq, sizeof(c->consumer));
		else
			return g_strdup_printf("ERR %d unknown argument %s", EINVAL, *tok);
	}
	if (!dir || (strcmp(dir, "in") && strcmp(dir, "out")))
		return g_strdup_printf("ERR %d dir=in|out missing", EINVAL);
	if (c->line >= 0)
		return g_strdup_printf("ERR %d already requested", EBUSY);
	g_mutex_lock(&eb->lock);
	line = find_line_locked(eb, chip, offset, name);
	if (line < 0) {
		g_mutex_unlock(&eb->lock);
		return g_strdup_printf("ERR %d no such line", -line);
	}
	l = &eb->lines[line];
	if (l->user || l->kernel_consumer) {
		char *s = g_strdup_printf("ERR %d line %d busy (%s)", EBUSY, line,
					  l->user ? l->user->consumer : l->kernel_consumer);

		g_mutex_unlock(&eb->lock);
		return s;
	}
	c->line = line;
	c->output = !strcmp(dir, "out");
	c->active_low = al;
	l->user = c;
	emub_sync_locked(eb);
	if (c->output) {
		bool phys = (value != 0) ^ al;

		if (l->phys != phys || l->chg_of) {
			l->phys = phys;
			apply_reset_locked(l);
		}
	} else {
		int_pin_locked(eb, l);
	}
	g_mutex_unlock(&eb->lock);
	return g_strdup("OK");
}

struct wait_ctx {
	struct emub_gpio_conn *c;
};

static bool edge_ready(void *p)
{
	struct emub_gpio_conn *c = p;
	struct emub_edge *e = g_queue_peek_head(&c->edges);

	if (c->eb->stopping)
		return true;
	if (!e)
		return false;
	return !c->eb->realtime || e->t_ns <= emub_wall_model_ns(c->eb);
}

static char *cmd_wait(struct emub_gpio_conn *c, long ms)
{
	struct emub *eb = c->eb;
	struct emub_edge *e;
	char *r;

	if (c->line < 0)
		return g_strdup_printf("ERR %d not requested", EINVAL);
	if (c->output)
		return g_strdup_printf("ERR %d not an input", EINVAL);
	if (ms < 0)
		ms = 0;
	g_mutex_lock(&eb->lock);
	if (!emub_wait_model_locked(eb, (guint64)ms, edge_ready, c)) {
		g_mutex_unlock(&eb->lock);
		return g_strdup("TIMEOUT");
	}
	e = g_queue_pop_head(&c->edges);
	g_mutex_unlock(&eb->lock);
	if (!e)
		return g_strdup("TIMEOUT");
	/* logical assert: physical falling on an active-low line */
	r = g_strdup_printf("EDGE %d %" G_GUINT64_FORMAT, (e->rising ^ c->active_low) ? 1 : 2,
			    e->t_ns);
	g_free(e);
	return r;
}

/* ------------------------------------------------------------ attributes */

bool emub_attr_held_locked(struct emub *eb, const char *rel)
{
	return eb->attr_held && g_hash_table_contains(eb->attr_held, rel);
}

bool emub_attr_held(struct emub *eb, const char *rel)
{
	bool held;

	g_mutex_lock(&eb->lock);
	held = emub_attr_held_locked(eb, rel);
	g_mutex_unlock(&eb->lock);
	return held;
}

static void unhold(struct emub_gpio_conn *c)
{
	struct emub *eb = c->eb;
	guint n;

	if (!c->held)
		return;
	g_mutex_lock(&eb->lock);
	n = GPOINTER_TO_UINT(g_hash_table_lookup(eb->attr_held, c->held));
	if (n > 1)
		g_hash_table_replace(eb->attr_held, g_strdup(c->held), GUINT_TO_POINTER(n - 1));
	else
		g_hash_table_remove(eb->attr_held, c->held);
	g_mutex_unlock(&eb->lock);
	g_free(c->held);
	c->held = NULL;
}

/* @path's part below the testbed's sys/, or NULL. */
static char *sys_rel(struct emub *eb, const char *path)
{
	char *sys = realpath(eb->sys, NULL), *rel = NULL;
	size_t n = sys ? strlen(sys) : 0;

	if (sys && !strncmp(path, sys, n) && path[n] == '/')
		rel = g_strdup(path + n + 1);
	free(sys);
	return rel;
}

/* The device whose writable attribute @rel is, with the attribute's name;
 * NULL when it is none (an spi driver's may still be: spibus.c). */
static struct emub_dev *attr_dev(struct emub *eb, const char *rel, char **name)
{
	struct emub_dev *d = NULL;

	g_mutex_lock(&eb->lock);
	for (int i = 0; i < eb->nchips && !d; i++) {
		struct emub_dev *dev = eb->chips[i].dev;
		size_t dl;
		struct emub_attr *a;

		if (!dev || !dev->devpath)
			continue;
		dl = strlen(dev->devpath + 1);
		/* its own attributes, or a child device's ("child-0/update_fw",
		 * drv_attr_add) */
		if (strncmp(rel, dev->devpath + 1, dl) || rel[dl] != '/')
			continue;
		a = emub_attr_find(dev, rel + dl + 1);
		if (a && a->writable) {
			d = dev;
			*name = g_strdup(a->name);
		}
	}
	g_mutex_unlock(&eb->lock);
	return d;
}

/*
 * ATTRHOLD <path>: a writer under the board's preload is about to put its
 * bytes into the driver attribute at @path and then ask for the store
 * (ATTRWRITE, on the same connection).  Until then the inotify paths
 * (watch.c, spibus.c) leave that file's bytes alone: an older close of it
 * (the driver creating it, an earlier write), seen late on a busy machine,
 * would otherwise take the writer's bytes and run the store on its own,
 * and the writer would be told its write did nothing.  "OK", or "NOATTR"
 * when @path is no device's writable attribute.  The hold ends with the
 * ATTRWRITE or the connection.
 */
static char *cmd_attr_hold(struct emub_gpio_conn *c, const char *path)
{
	struct emub *eb = c->eb;
	char *rel = sys_rel(eb, path), *name = NULL;
	guint n;

	if (!rel || c->held)
		goto noattr;
	if (!attr_dev(eb, rel, &name) && !emub_spi_is_store_attr(eb, rel))
		goto noattr;
	g_free(name);
	g_mutex_lock(&eb->lock);
	if (!eb->attr_held)
		eb->attr_held = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	n = GPOINTER_TO_UINT(g_hash_table_lookup(eb->attr_held, rel));
	g_hash_table_replace(eb->attr_held, g_strdup(rel), GUINT_TO_POINTER(n + 1));
	g_mutex_unlock(&eb->lock);
	c->held = rel;
	return g_strdup("OK");
noattr:
	g_free(rel);
	return g_strdup("NOATTR");
}

/*
 * ATTRWRITE <path>: the writer (the board's preload, in write()) has put
 * its bytes into a driver attribute's file and waits here for the store
 * function, as a sysfs write does: the reply is "OK" (the write returns
 * its byte count) or "ERR <errno>" (it fails with that errno), once the
 * driver model's job has run.  "NOATTR" when the path is no device's
 * writable attribute (the write stays a plain file write).  The bytes are
 * taken from the file here, so the writer's close finds it empty and the
 * inotify path (watch.c) queues nothing a second time.
 */
static char *cmd_attr_write(struct emub_gpio_conn *c, const char *path)
{
	struct emub *eb = c->eb;
	char *rel = sys_rel(eb, path), *name = NULL, *buf = NULL, *reply;
	struct emub_dev *d;
	gsize len = 0;
	int res = 0;

	if (!rel) {
		unhold(c);
		return g_strdup("NOATTR");
	}
	d = attr_dev(eb, rel, &name);
	if (!d) {
		/* an spi device's driver attribute (spibus.c)? */
		int r = emub_spi_attr_write(eb, rel, &res);

		g_free(rel);
		unhold(c);
		if (r)
			return g_strdup("NOATTR");
		return res < 0 ? g_strdup_printf("ERR %d", -res) : g_strdup("OK");
	}
	buf = emub_sys_read(eb, rel, &len);
	if (buf && len) { /* a write of nothing: sysfs calls no store */
		emub_sys_write(eb, rel, "");
		if (emub_dev_queue(d, EMUB_JOB_ATTR_WRITE, name, buf, len, 0, 0, true, &res) <
		    0)
			res = -ENOENT;
	}
	reply = res < 0 ? g_strdup_printf("ERR %d", -res) : g_strdup("OK");
	g_free(buf);
	g_free(rel);
	g_free(name);
	unhold(c);
	return reply;
}

static char *handle_cmd(struct emub_gpio_conn *c, char *line)
{
	struct emub *eb = c->eb;
	char **tok = g_strsplit_set(g_strstrip(line), " \t", -1);
	char **args, *reply;
	GPtrArray *clean;

	if (!strncmp(line, "ATTRWRITE ", 10)) {
		g_strfreev(tok);
		return cmd_attr_write(c, line + 10);
	}
	if (!strncmp(line, "ATTRHOLD ", 9)) {
		g_strfreev(tok);
		return cmd_attr_hold(c, line + 9);
	}
	clean = g_ptr_array_new();
	for (char **t = tok; *t; t++)
		if (**t)
			g_ptr_array_add(clean, *t);
	g_ptr_array_add(clean, NULL);
	args = (char **)clean->pdata;
	if (!args[0]) {
		reply = g_strdup_printf("ERR %d empty command", EINVAL);
	} else if (!strcmp(args[0], "REQUEST")) {
		reply = cmd_request(c, args + 1);
	} else if (!strcmp(args[0], "SET")) {
		if (c->line < 0 || !c->output || !args[1]) {
			reply = g_strdup_printf("ERR %d not an output", EPERM);
		} else {
			struct emub_line *l = &eb->lines[c->line];
			bool phys = (atoi(args[1]) != 0) ^ c->active_low;

			g_mutex_lock(&eb->lock);
			emub_sync_locked(eb);
			if (l->phys != phys) {
				l->phys = phys;
				apply_reset_locked(l);
			}
			g_mutex_unlock(&eb->lock);
			reply = g_strdup("OK");
		}
	} else if (!strcmp(args[0], "GET")) {
		if (c->line < 0) {
			reply = g_strdup_printf("ERR %d not requested", EINVAL);
		} else {
			bool v;

			g_mutex_lock(&eb->lock);
			emub_sync_locked(eb);
			v = eb->lines[c->line].phys ^ c->active_low;
			g_mutex_unlock(&eb->lock);
			reply = g_strdup_printf("OK %d", v);
		}
	} else if (!strcmp(args[0], "WAIT")) {
		reply = cmd_wait(c, args[1] ? atol(args[1]) : 0);
	} else if (!strcmp(args[0], "RELEASE")) {
		g_mutex_lock(&eb->lock);
		conn_release_locked(c);
		g_mutex_unlock(&eb->lock);
		reply = g_strdup("OK");
	} else {
		reply = g_strdup_printf("ERR %d unknown command %s", EINVAL, args[0]);
	}
	g_ptr_array_free(clean, TRUE);
	g_strfreev(tok);
	return reply;
}

static gpointer conn_main(gpointer data)
{
	struct emub_gpio_conn *c = data;
	GString *in = g_string_new(NULL);
	char buf[512];
	int fd;

	for (;;) {
		ssize_t n = read(c->fd, buf, sizeof(buf));
		char *nl;

		if (n <= 0)
			break;
		g_string_append_len(in, buf, n);
		while ((nl = memchr(in->str, '\n', in->len))) {
			char *line = g_strndup(in->str, (gsize)(nl - in->str));
			char *reply = handle_cmd(c, line);
			char *out = g_strdup_printf("%s\n", reply);

			g_string_erase(in, 0, nl - in->str + 1);
			if (write(c->fd, out, strlen(out)) < 0) {
				g_free(out);
				g_free(reply);
				g_free(line);
				goto done;
			}
			g_free(out);
			g_free(reply);
			g_free(line);
		}
		if (in->len > 4096)
			break;
	}
done:
	unhold(c);
	g_mutex_lock(&c->eb->lock);
	conn_release_locked(c);
	fd = c->fd;
	c->fd = -1; /* under the lock: emub_gpio_settle() polls it */
	g_mutex_unlock(&c->eb->lock);
	g_string_free(in, TRUE);
	close(fd);
	return NULL;
}

/*
 * A program that held lines has exited, or closed its connection: wait
 * until the connection's thread has released them, as the kernel releases
 * a line request when its file is closed, before the caller goes on (a
 * driver probing next would find the lines still held, EBUSY).  Only
 * connections whose peer is gone are waited for.
 */
void emub_gpio_settle(struct emub *eb)
{
	for (int tries = 0; tries < 5000; tries++) {
		bool pending = false;

		g_mutex_lock(&eb->lock);
		for (guint i = 0; eb->gpio_conns && i < eb->gpio_conns->len && !pending; i++) {
			struct emub_gpio_conn *c = eb->gpio_conns->pdata[i];
			struct pollfd p = { .fd = c->fd, .events = POLLRDHUP };

			if (c->fd >= 0 && poll(&p, 1, 0) > 0 &&
			    (p.revents & (POLLRDHUP | POLLHUP | POLLERR)))
				pending = true;
		}
		g_mutex_unlock(&eb->lock);
		if (!pending)
			return;
		g_usleep(1000);
	}
}

static gboolean on_accept(gint fd, GIOCondition cond, gpointer data)
{
	struct emub *eb = data;
	int cfd = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
	struct emub_gpio_conn *c;

	(void)cond;
	if (cfd < 0)
		return G_SOURCE_CONTINUE;
	c = g_new0(struct emub_gpio_conn, 1);
	c->eb = eb;
	c->fd = cfd;
	c->line = -1;
	g_queue_init(&c->edges);
	c->thread = g_thread_new("emub-gpio-conn", conn_main, c);
	g_mutex_lock(&eb->lock);
	g_ptr_array_add(eb->gpio_conns, c);
	g_mutex_unlock(&eb->lock);
	return G_SOURCE_CONTINUE;
}

int emub_gpio_setup(struct emub *eb)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	GError *e = NULL;
	GSource *s;
	char *rec;
	int fd;

	eb->gpio_label = g_strdup(eb->desc.gpio_label);
	eb->gpio_nlines = eb->desc.gpio_nlines;
	eb->gpio_conns = g_ptr_array_new();
	for (int i = 0; i < eb->gpio_nlines; i++) {
		eb->lines[i].offset = i;
		eb->lines[i].name = g_strdup(eb->desc.line_names[i] ? eb->desc.line_names[i]
								    : "");
	}
	for (int i = 0; i < eb->nchips; i++) {
		struct emub_chip *c = &eb->chips[i];

		if (c->desc->reset_gpio >= 0) {
			eb->lines[c->desc->reset_gpio].reset_of = c;
			eb->lines[c->desc->reset_gpio].phys = true; /* released */
		}
		if (c->desc->chg_gpio >= 0)
			eb->lines[c->desc->chg_gpio].chg_of = c;
	}

	/* gpiochip0 on the gpio bus, with its character device */
	emub_sys_mkdir(eb, "devices/platform/emuboard-gpio");
	emub_sys_symlink(eb, "bus/platform", "devices/platform/emuboard-gpio/subsystem");
	emub_sys_symlink(eb, "devices/platform/emuboard-gpio",
			 "bus/platform/devices/emuboard-gpio");
	rec = g_strdup_printf("P: /devices/platform/emuboard-gpio/gpiochip0\n"
			      "N: gpiochip0\n"
			      "E: DEVNAME=/dev/gpiochip0\n"
			      "E: MAJOR=254\n"
			      "E: MINOR=0\n"
			      "E: SUBSYSTEM=gpio\n"
			      "A: dev=254:0\\n\n");
	if (!umockdev_testbed_add_from_string(eb->tb, rec, &e)) {
		emub_log(eb, "gpiochip0: %s", e ? e->message : "?");
		g_clear_error(&e);
		g_free(rec);
		return -EIO;
	}
	g_free(rec);
	/* gpio is a bus, not a class (umockdev makes every subsystem a class) */
	emub_sys_symlink(eb, "bus/gpio", "devices/platform/emuboard-gpio/gpiochip0/subsystem");
	emub_sys_remove(eb, "class/gpio/gpiochip0");
	emub_sys_symlink(eb, "devices/platform/emuboard-gpio/gpiochip0",
			 "bus/gpio/devices/gpiochip0");
	emub_sys_symlink(eb, "devices/platform/emuboard-gpio",
			 "devices/platform/emuboard-gpio/gpiochip0/device");

	eb->gpio_ioctl = umockdev_ioctl_base_new();
	g_signal_connect(eb->gpio_ioctl, "handle-ioctl", G_CALLBACK(on_gpio_ioctl), eb);
	if (!umockdev_testbed_attach_ioctl(eb->tb, "/dev/gpiochip0", eb->gpio_ioctl, &e)) {
		emub_log(eb, "attach_ioctl gpiochip0: %s", e ? e->message : "?");
		g_clear_error(&e);
		return -EIO;
	}

	eb->gpio_sock = g_build_filename(eb->root, "emuboard-gpio.sock", NULL);
	if (strlen(eb->gpio_sock) >= sizeof(a.sun_path))
		return -ENAMETOOLONG;
	strcpy(a.sun_path, eb->gpio_sock);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 16)) {
		int r = -errno;

		close(fd);
		return r;
	}
	eb->gpio_listen_fd = fd;
	s = g_unix_fd_source_new(fd, G_IO_IN);
	g_source_set_callback(s, G_SOURCE_FUNC(on_accept), eb, NULL);
	g_source_attach(s, eb->ctx);
	g_source_unref(s);
	return 0;
}

void emub_gpio_teardown(struct emub *eb)
{
	g_mutex_lock(&eb->lock);
	eb->stopping = true;
	g_cond_broadcast(&eb->gpio_cond);
	g_mutex_unlock(&eb->lock);
	if (eb->gpio_listen_fd >= 0) {
		close(eb->gpio_listen_fd);
		eb->gpio_listen_fd = -1;
	}
	if (eb->gpio_conns) {
		for (guint i = 0; i < eb->gpio_conns->len; i++) {
			struct emub_gpio_conn *c = eb->gpio_conns->pdata[i];

			g_mutex_lock(&eb->lock);
			if (c->fd >= 0)
				shutdown(c->fd, SHUT_RDWR);
			g_cond_broadcast(&eb->gpio_cond);
			g_mutex_unlock(&eb->lock);
			g_thread_join(c->thread);
			g_queue_clear_full(&c->edges, g_free);
			g_free(c);
		}
		g_ptr_array_free(eb->gpio_conns, TRUE);
		eb->gpio_conns = NULL;
	}
	if (eb->gpio_ioctl)
		g_object_unref(eb->gpio_ioctl);
	eb->gpio_ioctl = NULL;
	for (int i = 0; i < EMUB_MAX_LINES; i++) {
		g_free(eb->lines[i].name);
		eb->lines[i].name = NULL;
	}
	g_free(eb->gpio_label);
	eb->gpio_label = NULL;
	if (eb->gpio_sock)
		unlink(eb->gpio_sock);
	g_free(eb->gpio_sock);
	eb->gpio_sock = NULL;
}
