// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The static part of the emulated kernel's sysfs: the device tree (as a real
 * flattened blob at /sys/firmware/fdt, built with libfdt's sequential-write
 * API, and unflattened under /sys/firmware/devicetree/base), DMI strings,
 * the i2c bus with its adapters and their i2c-dev class devices, driver
 * directories and the firmware_class.path parameter.
 *
 * umockdev's add_device() models every subsystem as a class; i2c and gpio
 * are buses in the kernel (/sys/bus/i2c/devices, subsystem -> bus/i2c), so
 * bus devices are made here by hand and umockdev is used for the class
 * devices that own a /dev node (i2c-dev, gpiochip, input/event), because
 * its preload needs its node bookkeeping for those.
 */
#include <errno.h>
#include <fcntl.h>
#include <libfdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emub-priv.h"

char *emub_sys_path(struct emub *eb, const char *rel)
{
	return g_build_filename(eb->sys, rel, NULL);
}

char *emub_sys_read(struct emub *eb, const char *rel, gsize *len)
{
	char *p = emub_sys_path(eb, rel), *buf = NULL;

	if (!g_file_get_contents(p, &buf, len, NULL))
		buf = NULL;
	g_free(p);
	return buf;
}

static int write_all(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	const char *p = buf;

	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return (int)n;
		}
		p += n;
		len -= (size_t)n;
	}
	return close(fd) ? -errno : 0;
}

static int sys_write_bin(struct emub *eb, const char *rel, const void *buf, size_t len)
{
	char *p = emub_sys_path(eb, rel);
	int r = write_all(p, buf, len);

	g_free(p);
	return r;
}

int emub_sys_write(struct emub *eb, const char *rel, const char *content)
{
	return sys_write_bin(eb, rel, content, strlen(content));
}

int emub_sys_publish_bin(struct emub *eb, const char *rel, const void *buf, size_t len)
{
	char *p = emub_sys_path(eb, rel), *dir = g_path_get_dirname(p);
	char *base = g_path_get_basename(p);
	char *tmp = g_strdup_printf("%s/.%s.XXXXXX", dir, base);
	int fd = g_mkstemp_full(tmp, O_WRONLY | O_CLOEXEC, 0644), r;

	/* not g_file_set_contents: it fsyncs a file it replaces */
	if (fd < 0) {
		r = -errno;
	} else {
		close(fd);
		r = write_all(tmp, buf, len);
		if (!r && rename(tmp, p) < 0)
			r = -errno;
		if (r)
			unlink(tmp);
	}
	g_free(tmp);
	g_free(base);
	g_free(dir);
	g_free(p);
	return r;
}

int emub_sys_publish(struct emub *eb, const char *rel, const char *content)
{
	return emub_sys_publish_bin(eb, rel, content, strlen(content));
}

int emub_sys_mkdir(struct emub *eb, const char *rel)
{
	char *p = emub_sys_path(eb, rel);
	int r = g_mkdir_with_parents(p, 0755) ? -errno : 0;

	g_free(p);
	return r;
}

typedef int (*sys_writer)(struct emub *eb, const char *rel, const char *content);

static int write_in(sys_writer w, struct emub *eb, const char *dir, const char *name,
		    const char *content)
{
	char *rel = g_strdup_printf("%s/%s", dir, name);
	int r = w(eb, rel, content);

	g_free(rel);
	return r;
}

int emub_sys_write_in(struct emub *eb, const char *dir, const char *name, const char *content)
{
	return write_in(emub_sys_write, eb, dir, name, content);
}

int emub_sys_publish_in(struct emub *eb, const char *dir, const char *name, const char *content)
{
	return write_in(emub_sys_publish, eb, dir, name, content);
}

/* A relative symlink at @rel (below /sys) pointing to @target (below /sys),
 * as sysfs makes them. */
int emub_sys_symlink(struct emub *eb, const char *target, const char *rel)
{
	GString *t = g_string_new(NULL);
	char *dir = g_path_get_dirname(rel), *p;
	int depth = 0, r;

	for (const char *s = dir; *s; s++)
		if (*s == '/')
			depth++;
	if (strcmp(dir, "."))
		depth++;
	for (int i = 0; i < depth; i++)
		g_string_append(t, "../");
	g_string_append(t, target);
	emub_sys_mkdir(eb, dir);
	p = emub_sys_path(eb, rel);
	unlink(p);
	r = symlink(t->str, p) ? -errno : 0;
	g_free(p);
	g_free(dir);
	g_string_free(t, TRUE);
	return r;
}

int emub_sys_symlink_in(struct emub *eb, const char *target, const char *dir, const char *name)
{
	char *rel = g_strdup_printf("%s/%s", dir, name);
	int r = emub_sys_symlink(eb, target, rel);

	g_free(rel);
	return r;
}

char *emub_sys_platform_dev(struct emub *eb, const char *name, int nr, const char *uevent)
{
	char *dev = g_strdup_printf("%s.%d", name, nr);
	char *plat = g_strdup_printf("devices/platform/%s", dev);

	emub_sys_mkdir(eb, plat);
	emub_sys_write_in(eb, plat, "uevent", uevent);
	emub_sys_symlink_in(eb, "bus/platform", plat, "subsystem");
	emub_sys_symlink_in(eb, plat, "bus/platform/devices", dev);
	g_free(dev);
	return plat;
}

static int rm_rf(const char *path)
{
	struct stat st;
	GDir *d;
	const char *n;

	if (lstat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return unlink(path) ? -errno : 0;
	d = g_dir_open(path, 0, NULL);
	if (d) {
		while ((n = g_dir_read_name(d))) {
			char *c = g_build_filename(path, n, NULL);

			rm_rf(c);
			g_free(c);
		}
		g_dir_close(d);
	}
	return rmdir(path) ? -errno : 0;
}

void emub_sys_remove(struct emub *eb, const char *rel)
{
	char *p = emub_sys_path(eb, rel);

	rm_rf(p);
	g_free(p);
}

/* ------------------------------------------------------------ device tree */

struct dt_prop {
	char *name;
	GByteArray *val;
};

struct emub_dt_node {
	char *name;	     /* "" for the root */
	GPtrArray *props;    /* struct dt_prop * */
	GPtrArray *children; /* struct emub_dt_node * */
};

static struct emub_dt_node *dt_node_new(const char *name)
{
	struct emub_dt_node *n = g_new0(struct emub_dt_node, 1);

	n->name = g_strdup(name);
	n->props = g_ptr_array_new();
	n->children = g_ptr_array_new();
	return n;
}

static void dt_node_free(struct emub_dt_node *n)
{
	for (guint i = 0; i < n->props->len; i++) {
		struct dt_prop *p = n->props->pdata[i];

		g_free(p->name);
		g_byte_array_free(p->val, TRUE);
		g_free(p);
	}
	for (guint i = 0; i < n->children->len; i++)
		dt_node_free(n->children->pdata[i]);
	g_ptr_array_free(n->props, TRUE);
	g_ptr_array_free(n->children, TRUE);
	g_free(n->name);
	g_free(n);
}

static struct emub_dt_node *dt_child(struct emub_dt_node *parent, const char *name)
{
	struct emub_dt_node *n = dt_node_new(name);

	g_ptr_array_add(parent->children, n);
	return n;
}

/* The child of @parent called @name, made if there is none. */
static struct emub_dt_node *dt_child_get(struct emub_dt_node *parent, const char *name)
{
	for (guint i = 0; i < parent->children->len; i++) {
		struct emub_dt_node *c = parent->children->pdata[i];

		if (!strcmp(c->name, name))
			return c;
	}
	return dt_child(parent, name);
}

char *emub_adapter_of_path(const struct emub_adapter_desc *a)
{
	return a->of_path ? g_strdup(a->of_path) : g_strdup_printf("/i2c@%x", a->nr);
}

static void dt_prop_bytes(struct emub_dt_node *n, const char *name, const void *v, size_t len)
{
	struct dt_prop *p = g_new0(struct dt_prop, 1);

	p->name = g_strdup(name);
	p->val = g_byte_array_new();
	g_byte_array_append(p->val, v, (guint)len);
	g_ptr_array_add(n->props, p);
}

static void dt_prop_str(struct emub_dt_node *n, const char *name, const char *s)
{
	dt_prop_bytes(n, name, s, strlen(s) + 1);
}

static void dt_prop_strv(struct emub_dt_node *n, const char *name, char **v)
{
	GByteArray *b = g_byte_array_new();

	for (; v && *v; v++)
		g_byte_array_append(b, (const guint8 *)*v, (guint)strlen(*v) + 1);
	dt_prop_bytes(n, name, b->data, b->len);
	g_byte_array_free(b, TRUE);
}

static void dt_prop_cells(struct emub_dt_node *n, const char *name, const guint32 *cells,
			  int nc)
{
	guint32 be[8];

	for (int i = 0; i < nc && i < 8; i++)
		be[i] = GUINT32_TO_BE(cells[i]);
	dt_prop_bytes(n, name, be, (size_t)nc * 4);
}

static void dt_prop_u32(struct emub_dt_node *n, const char *name, guint32 v)
{
	dt_prop_cells(n, name, &v, 1);
}

#define GPIO_PHANDLE 1
#define GPIO_ACTIVE_HIGH 0
#define GPIO_ACTIVE_LOW 1
#define IRQ_TYPE_EDGE_FALLING 2
#define IRQ_TYPE_LEVEL_LOW 8

/* ------------------------------------------------------------ for the chip glue */

void emub_dt_prop_u32(struct emub_dt_node *n, const char *name, guint32 v)
{
	dt_prop_u32(n, name, v);
}

void emub_dt_prop_str(struct emub_dt_node *n, const char *name, const char *v)
{
	dt_prop_str(n, name, v);
}

void emub_dt_prop_bool(struct emub_dt_node *n, const char *name)
{
	dt_prop_bytes(n, name, "", 0);
}

void emub_dt_prop_gpio(struct emub_dt_node *n, const char *name, int line, bool active_low)
{
	guint32 cells[3] = { GPIO_PHANDLE, (guint32)line,
			     active_low ? GPIO_ACTIVE_LOW : GPIO_ACTIVE_HIGH };

	dt_prop_cells(n, name, cells, 3);
}

void emub_dt_prop_irq(struct emub_dt_node *n, int line, guint32 type)
{
	guint32 irq[3] = { GPIO_PHANDLE, (guint32)line, type };

	dt_prop_cells(n, "interrupts-extended", irq, 3);
}

/* touchscreen.yaml */
void emub_dt_touchscreen_props(const struct emub_chip_desc *c, struct emub_dt_node *n)
{
	if (c->ts_size_x)
		dt_prop_u32(n, "touchscreen-size-x", c->ts_size_x);
	if (c->ts_size_y)
		dt_prop_u32(n, "touchscreen-size-y", c->ts_size_y);
	if (c->ts_inv_x)
		dt_prop_bytes(n, "touchscreen-inverted-x", "", 0);
	if (c->ts_inv_y)
		dt_prop_bytes(n, "touchscreen-inverted-y", "", 0);
	if (c->ts_swapped)
		dt_prop_bytes(n, "touchscreen-swapped-x-y", "", 0);
}

void emub_dt_generic_props(const struct emub_chip_desc *c, struct emub_dt_node *n)
{
	emub_dt_touchscreen_props(c, n);
	if (c->reset_gpio >= 0)
		emub_dt_prop_gpio(n, "reset-gpios", c->reset_gpio, true);
	if (c->chg_gpio >= 0)
		emub_dt_prop_irq(n, c->chg_gpio,
				 c->irq_level ? IRQ_TYPE_LEVEL_LOW : IRQ_TYPE_EDGE_FALLING);
}

static struct emub_dt_node *build_dt(struct emub *eb)
{
	struct emub_board_desc *d = &eb->desc;
	struct emub_dt_node *root = dt_node_new(""), *gpio;

	dt_prop_u32(root, "#address-cells", 1);
	dt_prop_u32(root, "#size-cells", 1);
	if (d->compatible)
		dt_prop_strv(root, "compatible", d->compatible);
	dt_prop_str(root, "model", d->model ? d->model : d->name);

	gpio = dt_child(root, "gpio");
	dt_prop_str(gpio, "compatible", "touchfw,emuboard-gpio");
	dt_prop_bytes(gpio, "gpio-controller", "", 0);
	dt_prop_u32(gpio, "#gpio-cells", 2);
	dt_prop_bytes(gpio, "interrupt-controller", "", 0);
	dt_prop_u32(gpio, "#interrupt-cells", 2);
	dt_prop_u32(gpio, "ngpios", (guint32)eb->gpio_nlines);
	dt_prop_u32(gpio, "phandle", GPIO_PHANDLE);
	{
		GByteArray *names = g_byte_array_new();

		for (int i = 0; i < eb->gpio_nlines; i++) {
			const char *s = d->line_names[i] ? d->line_names[i] : "";

			g_byte_array_append(names, (const guint8 *)s, (guint)strlen(s) + 1);
		}
		dt_prop_bytes(gpio, "gpio-line-names", names->data, names->len);
		g_byte_array_free(names, TRUE);
	}

	for (int i = 0; i < eb->nadapters; i++) {
		struct emub_adapter *ad = &eb->adapters[i];
		struct emub_dt_node *an;

		/* its node, under parents made on the way (of_path) */
		{
			char *path = emub_adapter_of_path(&ad->desc);
			char **parts = g_strsplit(path + 1, "/", -1);

			an = root;
			for (char **p = parts; *p; p++)
				an = p[1] ? dt_child_get(an, *p) : dt_child(an, *p);
			g_strfreev(parts);
			g_free(path);
		}
		dt_prop_str(an, "compatible", "touchfw,emuboard-i2c");
		dt_prop_u32(an, "reg", (guint32)ad->desc.nr);
		dt_prop_u32(an, "#address-cells", 1);
		dt_prop_u32(an, "#size-cells", 0);
		dt_prop_u32(an, "clock-frequency", ad->desc.hz);
		for (int j = 0; j < eb->nchips; j++) {
			struct emub_chip_desc *c = eb->chips[j].desc;
			struct emub_dt_node *cn;
			char cnname[80];

			if (c->adapter != ad->desc.nr)
				continue;
			snprintf(cnname, sizeof(cnname), "%s@%x", c->name, c->addr);
			cn = dt_child(an, cnname);
			if (c->compatible)
				dt_prop_strv(cn, "compatible", c->compatible);
			dt_prop_u32(cn, "reg", c->addr);
			if (c->cm->dt_props)
				c->cm->dt_props(c, cn);
			else
				emub_dt_generic_props(c, cn);
		}
	}
	return root;
}

static int fdt_emit(void *fdt, struct emub_dt_node *n)
{
	int r = fdt_begin_node(fdt, n->name);

	for (guint i = 0; !r && i < n->props->len; i++) {
		struct dt_prop *p = n->props->pdata[i];

		r = fdt_property(fdt, p->name, p->val->data, (int)p->val->len);
	}
	for (guint i = 0; !r && i < n->children->len; i++)
		r = fdt_emit(fdt, n->children->pdata[i]);
	if (!r)
		r = fdt_end_node(fdt);
	return r;
}

static int dt_to_blob(struct emub_dt_node *root, void **blob, size_t *len)
{
	int size = 4096, r;
	void *buf;

	for (;;) {
		buf = g_malloc0((gsize)size);
		r = fdt_create(buf, size);
		if (!r)
			r = fdt_finish_reservemap(buf);
		if (!r)
			r = fdt_emit(buf, root);
		if (!r)
			r = fdt_finish(buf);
		if (r != -FDT_ERR_NOSPACE)
			break;
		g_free(buf);
		size *= 2;
	}
	if (r) {
		g_free(buf);
		return -EINVAL;
	}
	*blob = buf;
	*len = fdt_totalsize(buf);
	return 0;
}

/* The unflattened view, as drivers/of/kobj.c shows it: one directory per
 * node, one binary file per property, and a "name" file. */
static void dt_to_sysfs(struct emub *eb, struct emub_dt_node *n, const char *rel)
{
	char *name = g_strdup(n->name), *at;

	emub_sys_mkdir(eb, rel);
	for (guint i = 0; i < n->props->len; i++) {
		struct dt_prop *p = n->props->pdata[i];
		char *f = g_build_filename(rel, p->name, NULL);

		sys_write_bin(eb, f, p->val->data, p->val->len);
		g_free(f);
	}
	at = strchr(name, '@');
	if (at)
		*at = 0;
	{
		char *f = g_build_filename(rel, "name", NULL);

		sys_write_bin(eb, f, name, strlen(name) + 1);
		g_free(f);
	}
	g_free(name);
	for (guint i = 0; i < n->children->len; i++) {
		struct emub_dt_node *c = n->children->pdata[i];
		char *crel = g_build_filename(rel, c->name, NULL);

		dt_to_sysfs(eb, c, crel);
		g_free(crel);
	}
}

int emub_build_fdt(struct emub *eb, void **blob, size_t *len)
{
	struct emub_dt_node *root = build_dt(eb);
	int r = dt_to_blob(root, blob, len);

	dt_node_free(root);
	return r;
}

/* ------------------------------------------------------------ tree */

static int add_from_string(struct emub *eb, const char *s)
{
	GError *e = NULL;

	if (!umockdev_testbed_add_from_string(eb->tb, s, &e)) {
		emub_log(eb, "umockdev: %s", e ? e->message : "add_from_string failed");
		g_clear_error(&e);
		return -EINVAL;
	}
	return 0;
}

/* The adapter's controller's uevent: a platform device bound to its
 * (imaginary) driver, matched by its device-tree node. */
static char *controller_uevent(const struct emub_adapter *ad)
{
	char *path = emub_adapter_of_path(&ad->desc);
	const char *base = strrchr(path, '/') + 1;
	char *ev = g_strdup_printf("DRIVER=emuboard-i2c\nOF_NAME=%.*s\nOF_FULLNAME=%s\n"
				   "OF_COMPATIBLE_0=touchfw,emuboard-i2c\nOF_COMPATIBLE_N=1\n"
				   "MODALIAS=of:N%.*sT(null)Ctouchfw,emuboard-i2c\n",
				   (int)strcspn(base, "@"), base, path, (int)strcspn(base, "@"),
				   base);

	g_free(path);
	return ev;
}

static int build_adapter(struct emub *eb, struct emub_adapter *ad)
{
	int nr = ad->desc.nr;
	char *ev = controller_uevent(ad);
	char *plat = emub_sys_platform_dev(eb, "emuboard-i2c", nr, ev);
	char *adrel = g_strdup_printf("%s/i2c-%d", plat, nr);
	char *s, *rec;
	int r;

	g_free(ev);
	ad->devpath = g_strdup_printf("/%s", adrel);
	ad->devnode = g_strdup_printf("/dev/i2c-%d", nr);

	/* the adapter: a device on the i2c bus (i2c_adapter_type: no uevent vars) */
	emub_sys_mkdir(eb, adrel);
	emub_sys_write_in(eb, adrel, "uevent", "");
	s = g_strdup_printf("%s\n", ad->desc.name);
	emub_sys_write_in(eb, adrel, "name", s);
	g_free(s);
	emub_sys_symlink_in(eb, "bus/i2c", adrel, "subsystem");
	if (eb->desc.compatible) {
		char *path = emub_adapter_of_path(&ad->desc);
		char *t = g_strdup_printf("firmware/devicetree/base%s", path);

		g_free(path);
		emub_sys_symlink_in(eb, t, adrel, "of_node");
		g_free(t);
	}
	s = g_strdup_printf("bus/i2c/devices/i2c-%d", nr);
	emub_sys_symlink(eb, adrel, s);
	g_free(s);

	/* its i2c-dev class device with the /dev node, as i2c-dev registers it */
	rec = g_strdup_printf("P: /%s/i2c-dev/i2c-%d\n"
			      "N: i2c-%d\n"
			      "E: DEVNAME=/dev/i2c-%d\n"
			      "E: MAJOR=89\n"
			      "E: MINOR=%d\n"
			      "E: SUBSYSTEM=i2c-dev\n"
			      "A: dev=89:%d\\n\n"
			      "A: name=%s\\n\n",
			      adrel, nr, nr, nr, nr, nr, ad->desc.name);
	r = add_from_string(eb, rec);
	g_free(rec);
	if (!r) {
		s = g_strdup_printf("%s/i2c-dev/i2c-%d/device", adrel, nr);
		emub_sys_symlink(eb, adrel, s);
		g_free(s);
	}
	g_free(plat);
	g_free(adrel);
	return r;
}

static void build_drivers(struct emub *eb)
{
	for (int i = 0; i < eb->nchips; i++) {
		const char *drv = eb->chips[i].desc->driver;
		char *dir;

		if (!drv)
			continue;
		dir = g_strdup_printf("bus/i2c/drivers/%s", drv);
		emub_sys_mkdir(eb, dir);
		emub_driver_files_add(eb, dir);
		emub_sys_write_in(eb, dir, "uevent", "");
		emub_watch_add(eb, dir, NULL, EMUB_WATCH_DRIVER);
		g_free(dir);
	}
}

static void build_dmi(struct emub *eb)
{
	char **k = eb->desc.dmi_keys, **v = eb->desc.dmi_vals;

	if (!k || !k[0])
		return;
	emub_sys_mkdir(eb, "devices/virtual/dmi/id");
	for (; *k; k++, v++) {
		char *f = g_strdup_printf("devices/virtual/dmi/id/%s", *k);
		char *c = g_strdup_printf("%s\n", *v);

		emub_sys_write(eb, f, c);
		g_free(f);
		g_free(c);
	}
	emub_sys_symlink(eb, "devices/virtual/dmi/id", "class/dmi/id");
}

int emub_build_tree(struct emub *eb)
{
	struct emub_dt_node *root;
	void *blob = NULL;
	size_t len = 0;
	int r;

	emub_sys_mkdir(eb, "bus/i2c/devices");
	emub_sys_mkdir(eb, "bus/i2c/drivers");
	emub_sys_mkdir(eb, "bus/platform/devices");
	emub_sys_mkdir(eb, "bus/gpio/devices");
	emub_sys_mkdir(eb, "class/input");
	emub_sys_mkdir(eb, "module/firmware_class/parameters");
	emub_sys_write(eb, "module/firmware_class/parameters/path", "\n");
	emub_watch_add(eb, "module/firmware_class/parameters", NULL, EMUB_WATCH_FWPARAM);

	if (eb->desc.compatible) {
		root = build_dt(eb);
		r = dt_to_blob(root, &blob, &len);
		if (!r) {
			emub_sys_mkdir(eb, "firmware");
			r = sys_write_bin(eb, "firmware/fdt", blob, len);
			dt_to_sysfs(eb, root, "firmware/devicetree/base");
		}
		g_free(blob);
		dt_node_free(root);
		if (r)
			return r;
	}
	build_dmi(eb);
	for (int i = 0; i < eb->nadapters; i++) {
		r = build_adapter(eb, &eb->adapters[i]);
		if (r)
			return r;
	}
	build_drivers(eb);
	return 0;
}

/* ------------------------------------------------------------ client env */

/* of_modalias(): "of:N<name>T<type>C<compat>C<compat>..." */
static char *of_modalias(struct emub_chip *c)
{
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "of:N%sT(null)", c->desc->name);
	for (char **p = c->desc->compatible; p && *p; p++) {
		g_string_append_c(s, 'C');
		for (const char *q = *p; *q; q++)
			g_string_append_c(s, *q == ' ' ? '_' : *q);
	}
	return g_string_free(s, FALSE);
}

/* i2c client name from the device tree: of_modalias_node() takes the first
 * compatible without its vendor prefix. */
static char *client_name(struct emub_chip *c)
{
	const char *comp = c->desc->compatible ? c->desc->compatible[0] : NULL;
	const char *comma;

	/* i2c_acpi_fill_info(): acpi_set_modalias() with the ACPI device's
	 * name as the default: "ABCD1234:00" */
	if (c->desc->acpi_id && c->dev)
		return g_strdup(c->dev->client_name);
	if (!comp)
		return g_strdup(c->desc->name);
	comma = strchr(comp, ',');
	return g_strdup(comma ? comma + 1 : comp);
}

/* acpi_device_modalias() / create_pnp_modalias(): "acpi:<HID>:" (no CIDs
 * are modelled) */
static char *acpi_modalias(struct emub_chip *c)
{
	return g_strdup_printf("acpi:%s:", c->desc->acpi_id);
}

/*
 * dev_uevent() for an i2c client: DRIVER when bound, of_device_uevent()
 * (OF_NAME, OF_FULLNAME, OF_COMPATIBLE_*), then the bus's MODALIAS.
 * kobject_uevent_env() drops MODALIAS from unbind events.
 */
GPtrArray *emub_dev_env(struct emub_dev *d, bool with_driver, bool with_modalias)
{
	GPtrArray *env = g_ptr_array_new_with_free_func(g_free);
	struct emub_chip *c = d->chip;
	int n = 0;

	if (with_driver && (d->bound || d->probing))
		g_ptr_array_add(env, g_strdup_printf("DRIVER=%s", d->drv->name));
	if (c->desc->acpi_id) {
		/* i2c_device_uevent(): acpi_device_uevent_modalias() first */
		if (with_modalias) {
			char *m = acpi_modalias(c);

			g_ptr_array_add(env, g_strdup_printf("MODALIAS=%s", m));
			g_free(m);
		}
	} else if (c->desc->compatible && d->eb->desc.compatible) {
		g_ptr_array_add(env, g_strdup_printf("OF_NAME=%s", c->desc->name));
		g_ptr_array_add(env, g_strdup_printf("OF_FULLNAME=%s", d->of_fullname));
		for (char **p = c->desc->compatible; *p; p++, n++)
			g_ptr_array_add(env, g_strdup_printf("OF_COMPATIBLE_%d=%s", n, *p));
		g_ptr_array_add(env, g_strdup_printf("OF_COMPATIBLE_N=%d", n));
		if (with_modalias) {
			char *m = of_modalias(c);

			g_ptr_array_add(env, g_strdup_printf("MODALIAS=%s", m));
			g_free(m);
		}
	} else if (with_modalias) {
		char *n = client_name(c);

		g_ptr_array_add(env, g_strdup_printf("MODALIAS=i2c:%s", n));
		g_free(n);
	}
	return env;
}

void emub_dev_update_uevent_file(struct emub_dev *d)
{
	GPtrArray *env = emub_dev_env(d, true, true);
	GString *s = g_string_new(NULL);
	char *f = g_strdup_printf("%s/uevent", d->devpath + 1);

	for (guint i = 0; i < env->len; i++)
		g_string_append_printf(s, "%s\n", (char *)env->pdata[i]);
	emub_sys_write(d->eb, f, s->str);
	g_free(f);
	g_string_free(s, TRUE);
	g_ptr_array_free(env, TRUE);
}

/*
 * The ACPI device object the client was made from
 * (drivers/acpi/device_sysfs.c: hid, modalias, path, status, uevent,
 * physical_node), and the client's firmware_node link to it
 * (acpi_bind_one).
 */
static void build_acpi_node(struct emub_dev *d, const char *rel)
{
	struct emub *eb = d->eb;
	struct emub_chip_desc *c = d->chip->desc;
	const char *node = d->acpi_node + 1;
	char *f, *v, *m = acpi_modalias(d->chip);

	emub_sys_mkdir(eb, node);
	f = g_strdup_printf("%s/hid", node);
	v = g_strdup_printf("%s\n", c->acpi_id);
	emub_sys_publish(eb, f, v);
	g_free(f);
	g_free(v);
	f = g_strdup_printf("%s/modalias", node);
	v = g_strdup_printf("%s\n", m);
	emub_sys_publish(eb, f, v);
	g_free(f);
	g_free(v);
	f = g_strdup_printf("%s/path", node);
	if (c->acpi_path)
		v = g_strdup_printf("%s\n", c->acpi_path);
	else
		v = g_strdup_printf("\\_SB_.PCI0.I2C%d.%.4s\n", c->adapter, c->acpi_id);
	emub_sys_publish(eb, f, v);
	g_free(f);
	g_free(v);
	emub_sys_publish_in(eb, node, "status", "15\n");
	f = g_strdup_printf("%s/uevent", node);
	v = g_strdup_printf("MODALIAS=%s\n", m);
	emub_sys_publish(eb, f, v);
	g_free(f);
	g_free(v);
	emub_sys_symlink_in(eb, "bus/acpi", node, "subsystem");
	emub_sys_symlink_in(eb, rel, node, "physical_node");
	f = g_strdup_printf("bus/acpi/devices/%s", d->client_name);
	emub_sys_mkdir(eb, "bus/acpi/devices");
	emub_sys_symlink(eb, node, f);
	g_free(f);
	emub_sys_symlink_in(eb, node, rel, "firmware_node");
	g_free(m);
}

/* Create the client device directory (i2c_new_client_device()). */
int emub_dev_sysfs_create(struct emub_dev *d)
{
	struct emub *eb = d->eb;
	struct emub_chip *c = d->chip;
	const char *rel = d->devpath + 1;
	char *f, *v;

	emub_sys_mkdir(eb, rel);
	f = g_strdup_printf("%s/name", rel);
	v = client_name(c);
	{
		char *nl = g_strdup_printf("%s\n", v);

		emub_sys_publish(eb, f, nl);
		g_free(nl);
	}
	g_free(v);
	g_free(f);
	f = g_strdup_printf("%s/modalias", rel);
	if (c->desc->acpi_id) {
		char *m = acpi_modalias(c);

		v = g_strdup_printf("%s\n", m);
		g_free(m);
	} else if (c->desc->compatible && eb->desc.compatible) {
		char *m = of_modalias(c);

		v = g_strdup_printf("%s\n", m);
		g_free(m);
	} else {
		char *n = client_name(c);

		v = g_strdup_printf("i2c:%s\n", n);
		g_free(n);
	}
	emub_sys_publish(eb, f, v);
	g_free(v);
	g_free(f);
	emub_sys_symlink_in(eb, "bus/i2c", rel, "subsystem");
	if (c->desc->compatible && eb->desc.compatible) {
		char *t = g_strdup_printf("firmware/devicetree/base%s", d->of_fullname);

		emub_sys_symlink_in(eb, t, rel, "of_node");
		g_free(t);
	}
	if (c->desc->acpi_id)
		build_acpi_node(d, rel);
	emub_dev_update_uevent_file(d);
	f = g_strdup_printf("bus/i2c/devices/%s", d->name);
	emub_sys_symlink(eb, rel, f);
	g_free(f);
	emub_watch_add(eb, rel, d, EMUB_WATCH_DEVICE);
	return 0;
}

void emub_dev_sysfs_remove(struct emub_dev *d)
{
	char *f = g_strdup_printf("bus/i2c/devices/%s", d->name);

	emub_watch_remove_dir(d->eb, d->devpath + 1);
	emub_sys_remove(d->eb, f);
	emub_sys_remove(d->eb, d->devpath + 1);
	g_free(f);
}
