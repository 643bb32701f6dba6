// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Input devices of the emulated drivers: input_register_device() as
 * drivers/input/input.c does it (the inputN device, its eventK evdev
 * node, their uevents and sysfs attributes) and the evdev node's ioctls.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "emub-priv.h"

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
		struct input_id id = { inp->id[0], inp->id[1], inp->id[2], inp->id[3] };

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
		} else if (nr >= _IOC_NR(EVIOCGBIT(0, 0)) &&
			   nr < _IOC_NR(EVIOCGBIT(EV_MAX + 1, 0))) {
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

/* evdev_ioctl() on a node whose device is gone (!evdev->exist): ENODEV */
static gboolean on_gone_ioctl(UMockdevIoctlBase *base, UMockdevIoctlClient *client,
			      gpointer user)
{
	(void)base;
	(void)user;
	umockdev_ioctl_client_complete(client, -1, ENODEV);
	return TRUE;
}

static void detach_gone(struct emub *eb, int k)
{
	UMockdevIoctlBase *gone;
	char *node;

	g_mutex_lock(&eb->lock);
	gone = eb->evdev_gone[k];
	eb->evdev_gone[k] = NULL;
	g_mutex_unlock(&eb->lock);
	if (!gone)
		return;
	node = g_strdup_printf("/dev/input/event%d", k);
	umockdev_testbed_detach_ioctl(eb->tb, node, NULL);
	g_free(node);
	g_object_unref(gone);
}

void emub_input_teardown(struct emub *eb)
{
	for (int k = 0; k < 64; k++)
		detach_gone(eb, k);
}

static void evdev_attach(struct emub *eb, struct emub_input *inp, int k)
{
	GError *e = NULL;

	detach_gone(eb, k); /* the minor is used again */
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

/*
 * The event node's device is gone (evdev_disconnect): its socket stays,
 * answering ENODEV as the kernel's evdev_ioctl() does for a file opened
 * before, until the minor is used again.  Taking the socket away instead
 * (umockdev unlinks it) raced with a program opening the node at that
 * moment: umockdev's preload saw the socket, then could not connect to it
 * and exited the program ("Failed to connect to ioctl socket for
 * /dev/input/event0", seen in an end-to-end test under load).
 */
static void evdev_retire(struct emub *eb, struct emub_input *inp)
{
	int k = inp->minor - 64;

	if (!inp->ioctl)
		return;
	g_signal_handlers_disconnect_by_data(inp->ioctl, inp);
	g_signal_connect(inp->ioctl, "handle-ioctl", G_CALLBACK(on_gone_ioctl), NULL);
	g_mutex_lock(&eb->lock);
	eb->evdev_gone[k] = inp->ioctl;
	g_mutex_unlock(&eb->lock);
	inp->ioctl = NULL;
}

void emub_input_free(struct emub *eb, struct emub_input *inp)
{
	g_mutex_lock(&eb->lock);
	g_ptr_array_add(eb->inputs_dead, inp);
	g_mutex_unlock(&eb->lock);
}

static void input_free_now(gpointer p)
{
	struct emub_input *inp = p;

	g_free(inp->devpath);
	g_free(inp->evpath);
	g_free(inp->devnode);
	g_free(inp->name);
	g_free(inp->phys);
	if (inp->ioctl)
		g_object_unref(inp->ioctl);
	g_free(inp);
}

void emub_inputs_reap(struct emub *eb)
{
	g_ptr_array_set_free_func(eb->inputs_dead, input_free_now);
	g_ptr_array_free(eb->inputs_dead, TRUE);
	eb->inputs_dead = NULL;
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
	guint64 ev[1] = { in->evbits }, key[12] = { 0 }, abs[1] = { in->absbits },
		none[1] = { 0 };
	guint64 prop[1] = { in->propbits };
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
	inp->devpath = in->parent
			       ? g_strdup_printf("%s/%s/input/input%d", d->devpath, in->parent,
						 inp->number)
			       : g_strdup_printf("%s/input/input%d", d->devpath, inp->number);
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
	g_string_append_printf(
		rec, "A: name=%s\\n\nA: phys=%s\\n\nA: uniq=\\n\nA: modalias=%s\\n\n\n",
		in->name, in->phys, ma->str);
	/*
	 * The event node is made by hand, not with an "N:" line: umockdev 0.17
	 * keeps every node it made in a table that remove_device() does not
	 * clear, so a reused minor (evdev reuses the lowest free one) would
	 * abort it.  What its preload needs: the file under dev/ and the
	 * dev/.node/<name> link holding "major:minor".
	 */
	g_string_append_printf(
		rec,
		"P: %s\nE: DEVNAME=input/event%d\n"
		"E: MAJOR=13\nE: MINOR=%d\nE: SUBSYSTEM=input\nA: dev=13:%d\\n\n",
		inp->evpath, k, inp->minor, inp->minor);
	/*
	 * The node answers its ioctls before anything of it appears in sysfs
	 * or /dev: a program that finds it by a rescan opens it at once (the
	 * kernel's node works from device_add() on).
	 */
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
		char *node_dir = g_path_get_dirname(node), *info_dir = g_path_get_dirname(info);

		/* What the preload reads first, then the node in one step
		 * (g_file_set_contents renames it into place). */
		g_mkdir_with_parents(info_dir, 0755);
		unlink(info);
		if (symlink(num, info))
			emub_dev_log(d, "input: %s: %s", info, g_strerror(errno));
		g_mkdir_with_parents(node_dir, 0755);
		g_file_set_contents(node, "", 0, NULL);
		g_free(node_dir);
		g_free(info_dir);
		emub_sys_symlink(eb, inp->evpath + 1, chr);
		g_free(node);
		g_free(info);
		g_free(num);
		g_free(chr);

		emub_sys_symlink(eb, inp->devpath + 1, dv);
		g_free(dv);
		/* inputN/device: its parent, the client or the child device */
		dv = g_strdup_printf("%s/device", inp->devpath + 1);
		{
			char *in_dir = g_path_get_dirname(inp->devpath + 1);
			char *parent = g_path_get_dirname(in_dir);

			emub_sys_symlink(eb, parent, dv);
			g_free(parent);
			g_free(in_dir);
		}
		g_free(dv);
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
		evdev_detach(eb, inp);
		emub_input_free(eb, inp);
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
	evdev_retire(eb, inp);
	sysp = g_strdup_printf("/sys%s", inp->evpath);
	umockdev_testbed_remove_device(eb->tb, sysp);
	g_free(sysp);
	/* the node we made by hand (drv_input_register) */
	{
		char *f[3] = {
			g_strdup_printf("%s/sys/dev/char/13:%d", eb->root, inp->minor),
			g_strdup_printf("%s/dev/.node/input_event%d", eb->root,
					inp->minor - 64),
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
		/* the "input" class directory of its parent */
		char *dir = g_path_get_dirname(inp->devpath + 1);
		char *p = emub_sys_path(eb, dir);

		rmdir(p);
		g_free(p);
		g_free(dir);
	}
	g_mutex_lock(&eb->lock);
	eb->evdev_minors &= ~(G_GUINT64_CONSTANT(1) << (inp->minor - 64));
	g_mutex_unlock(&eb->lock);
	emub_dev_log(d, "input: unregistered input%d", inp->number);
	emub_input_free(eb, inp);
}

void drv_input_set_abs(struct emub_input_desc *in, int code, int min, int max)
{
	in->absbits |= G_GUINT64_CONSTANT(1) << code;
	in->abs[code].minimum = min;
	in->abs[code].maximum = max;
}

void drv_input_mt_init_direct(struct emub_input_desc *in, int nslots)
{
	drv_input_set_abs(in, ABS_MT_SLOT, 0, nslots - 1);
	drv_input_set_abs(in, ABS_MT_TRACKING_ID, 0, TRKID_MAX);
	in->keybits_word5 |= G_GUINT64_CONSTANT(1) << (BTN_TOUCH - 5 * 64);
	in->propbits |= 1u << INPUT_PROP_DIRECT;
}
