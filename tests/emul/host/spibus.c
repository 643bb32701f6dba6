// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The emulated spi bus (drivers/spi/spi.c, drivers/base/{bus,dd}.c, Linux
 * 6.1): controllers "spiN" below /sys/devices/platform/emuboard-spi.N, spi
 * devices "spiN.C" on /sys/bus/spi with modalias, driver_override and
 * uevent files, driver directories with bind and unbind, the bus's
 * drivers_probe, and the uevents the kernel sends.  spidev is the one spi
 * driver modelled: its probe makes the class device spidevN.C with its
 * /dev node (spidev.c serves the ioctls), its remove takes it away.
 *
 * What the kernel does, and so this does:
 * - spi_match_device(): a driver_override names the only driver the device
 *   matches; without one the board's `driver` matches (standing for the DT
 *   compatible in that driver's table).  spidev matches nothing else.
 * - driver_override (driver_set_override()): a trailing newline is cut, an
 *   empty value clears it, reads show "(null)" when unset.  Writing it binds
 *   or unbinds nothing.
 * - bind_store(): the device must be unbound and match, else ENODEV;
 *   unbind_store(): the device must be bound to that driver, else ENODEV.
 *   The emulator logs those errors (sysfs writes are seen after close).
 * - drivers_probe: device_attach() with the first matching driver.
 * - Events: spidev's probe adds spidevN.C ("add", SUBSYSTEM=spidev) before
 *   the device's "bind"; its remove sends "remove" for it before "unbind".
 *   spi_uevent() adds MODALIAS=spi:NAME; dev_uevent() DRIVER when bound;
 *   "unbind" carries neither (kobject_uevent_env() zaps MODALIAS).
 *
 * The emulated controller: mode bits CPOL, CPHA, CS_HIGH, LSB_FIRST and
 * LOOP (loopback: MISO reads back MOSI); 8, 16 and 32 bits per word;
 * max_speed_hz and min_speed_hz from the board.  A message runs as
 * spi_transfer_one_message() does: chip select for the whole message, each
 * transfer's delay after it with the chip still selected, cs_change
 * releasing the chip select for the default 10 us between transfers (or
 * keeping it after the last), word delays.  What the chip sees follows
 * the wire: a mode whose clock phase or polarity differs from the chip's
 * shifts every byte by one bit, LSB-first reverses the bits, CS_HIGH
 * never selects it (MISO floats high), and a clock over the chip's maximum
 * makes MISO unreadable (all ones).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <glib-unix.h>

#include <linux/spi/spi.h>

#include "emub-priv.h"
#include "emub-spi.h"

#define ERR(...) (snprintf(err, errsz, __VA_ARGS__), -EINVAL)
#define parse_u32 emub_parse_u32
#define parse_bool emub_parse_bool

#define CTLR_MODE_BITS (SPI_CPOL | SPI_CPHA | SPI_CS_HIGH | SPI_LSB_FIRST | SPI_LOOP)
#define CS_CHANGE_DELAY_NS 10000ULL /* _spi_transfer_cs_change_delay() default */

/* ------------------------------------------------------------ board file */

static struct emub_spi_board *board_of(struct emub_board_desc *d)
{
	if (!d->spi) {
		d->spi = g_new0(struct emub_spi_board, 1);
		d->spi->bufsiz = 4096;
	}
	return d->spi;
}

/* The drivers modelled, by the names they register: spidev, the families'. */
static const char *driver_known(const char *drv)
{
	const struct emub_spi_driver *sd;

	if (!strcmp(drv, "spidev"))
		return "spidev";
	sd = emub_spi_driver_find(drv);
	return sd ? sd->name : NULL;
}

/* Which spi chip model takes @key, and its names for a message; NULL: none. */
static char *model_of_key(const char *key)
{
	for (const struct emub_family *const *f = emub_families; *f; f++)
		for (const struct emub_spi_chip_model *const *m = (*f)->spi_chips; m && *m; m++)
			if (emub_name_in((*m)->keys, key))
				return g_strjoinv(" or ", (char **)(*m)->names);
	return NULL;
}

static int parse_ctlr(GKeyFile *kf, const char *grp, struct emub_spi_board *b, char *err,
		      size_t errsz)
{
	struct emub_spi_ctlr_desc *c;
	g_auto(GStrv) keys = NULL;
	gsize nkeys = 0;
	guint32 nr, v;
	int r = 0;

	if (!parse_u32(grp + strlen("spi "), &nr) || nr > 255)
		return ERR("[%s]: the spi bus number must be 0..255", grp);
	for (int i = 0; i < b->nctlrs; i++)
		if (b->ctlrs[i].nr == (int)nr)
			return ERR("[%s]: spi bus %u defined twice", grp, nr);
	if (b->nctlrs >= EMUB_SPI_MAX_CTLRS)
		return ERR("[%s]: at most %d spi controllers", grp, EMUB_SPI_MAX_CTLRS);
	c = &b->ctlrs[b->nctlrs++];
	c->nr = (int)nr;
	c->max_hz = 50000000;
	c->num_cs = 4;
	keys = g_key_file_get_keys(kf, grp, &nkeys, NULL);
	for (gsize i = 0; i < nkeys && !r; i++) {
		const char *k = keys[i];
		g_autofree char *s = g_key_file_get_string(kf, grp, k, NULL);

		if (s)
			g_strstrip(s);
		if (!strcmp(k, "max_speed_hz")) {
			if (!parse_u32(s, &v) || v < 1000)
				r = ERR("[%s] max_speed_hz: \"%s\" is not a frequency >= 1000",
					grp, s);
			c->max_hz = v;
		} else if (!strcmp(k, "min_speed_hz")) {
			if (!parse_u32(s, &v))
				r = ERR("[%s] min_speed_hz: \"%s\" is not a number", grp, s);
			c->min_hz = v;
		} else if (!strcmp(k, "num_cs")) {
			if (!parse_u32(s, &v) || v < 1 || v > 255)
				r = ERR("[%s] num_cs: \"%s\" is not 1..255", grp, s);
			c->num_cs = v;
		} else {
			r = ERR("[%s]: unknown key \"%s\"", grp, k);
		}
	}
	if (!r && c->min_hz > c->max_hz)
		r = ERR("[%s] min_speed_hz: above max_speed_hz", grp);
	return r;
}

static int parse_dev(GKeyFile *kf, const char *grp, struct emub_spi_board *b, char *err,
		     size_t errsz)
{
	const char *name = grp + strlen("spi-chip ");
	struct emub_spi_dev_desc *c;
	g_auto(GStrv) keys = NULL;
	bool have_bus = false, have_cs = false, have_bound = false;
	gsize nkeys = 0;
	guint32 v;
	int r = 0;

	if (!*name || strchr(name, '/') || strchr(name, '@') || strchr(name, ' '))
		return ERR("[%s]: the chip name must be a device-tree node name", grp);
	if (b->ndevs >= EMUB_SPI_MAX_DEVS)
		return ERR("[%s]: at most %d spi chips", grp, EMUB_SPI_MAX_DEVS);
	c = &b->devs[b->ndevs++];
	c->name = g_strdup(name);
	/* the model first: its keys are its own */
	c->model = g_key_file_get_string(kf, grp, "model", NULL);
	if (c->model)
		g_strstrip(c->model);
	else
		c->model = g_strdup("none");
	if (strcmp(c->model, "none")) {
		c->cm = emub_spi_chip_model_find(c->model);
		if (!c->cm) {
			g_autofree char *names = emub_spi_chip_model_names();

			return ERR("[%s] model: \"%s\" is not a spi chip model (%s)", grp,
				   c->model, names);
		}
		c->fam = g_malloc0(c->cm->fam_size ? c->cm->fam_size : 1);
		if (c->cm->init)
			c->cm->init(c);
	}
	keys = g_key_file_get_keys(kf, grp, &nkeys, NULL);
	for (gsize i = 0; i < nkeys && !r; i++) {
		const char *k = keys[i];
		g_autofree char *s = g_key_file_get_string(kf, grp, k, NULL);

		if (s)
			g_strstrip(s);
		if (!strcmp(k, "bus")) {
			if (!parse_u32(s, &v) || v > 255)
				r = ERR("[%s] bus: \"%s\" is not a bus number 0..255", grp, s);
			c->bus = (int)v;
			have_bus = true;
		} else if (!strcmp(k, "chip_select")) {
			if (!parse_u32(s, &v) || v > 254)
				r = ERR("[%s] chip_select: \"%s\" is not 0..254", grp, s);
			c->cs = v;
			have_cs = true;
		} else if (!strcmp(k, "model")) {
			/* read above */
		} else if (!strcmp(k, "fault.no_input")) {
			if (!parse_bool(s, &c->no_input))
				r = ERR("[%s] %s: \"%s\" is not a boolean", grp, k, s);
		} else if (c->cm && emub_name_in(c->cm->keys, k)) {
			const struct emub_parse p = { .grp = grp, .err = err, .errsz = errsz };

			r = c->cm->parse_key(c, k, s, &p);
		} else if (!strcmp(k, "compatible")) {
			char **l = g_key_file_get_string_list(kf, grp, k, NULL, NULL);

			for (char **p = l; p && *p; p++)
				g_strstrip(*p);
			g_strfreev(c->compatible);
			c->compatible = l;
		} else if (!strcmp(k, "driver")) {
			if (*s && !driver_known(s)) {
				g_autofree char *names = emub_spi_driver_names();

				r = ERR("[%s] driver: \"%s\" is not a modelled spi driver (%s)",
					grp, s, names);
			}
			g_free(c->driver);
			c->driver = *s ? g_strdup(s) : NULL;
		} else if (!strcmp(k, "bound")) {
			if (!parse_bool(s, &c->bound))
				r = ERR("[%s] bound: \"%s\" is not a boolean", grp, s);
			have_bound = true;
		} else if (!strcmp(k, "spi_mode")) {
			if (!parse_u32(s, &v) || v > 3)
				r = ERR("[%s] spi_mode: \"%s\" is not 0..3", grp, s);
			c->mode = (c->mode & ~3u) | v;
		} else if (!strcmp(k, "cs_high") || !strcmp(k, "lsb_first")) {
			bool on = false;

			if (!parse_bool(s, &on))
				r = ERR("[%s] %s: \"%s\" is not a boolean", grp, k, s);
			v = !strcmp(k, "cs_high") ? SPI_CS_HIGH : SPI_LSB_FIRST;
			c->mode = on ? c->mode | v : c->mode & ~v;
		} else if (!strcmp(k, "max_speed_hz")) {
			if (!parse_u32(s, &v))
				r = ERR("[%s] max_speed_hz: \"%s\" is not a number", grp, s);
			c->max_hz = v;
		} else {
			g_autofree char *owner = model_of_key(k);

			if (owner)
				r = ERR("[%s] %s: only for model = %s", grp, k, owner);
			else
				r = ERR("[%s]: unknown key \"%s\"", grp, k);
		}
	}
	if (!r && !have_bus)
		r = ERR("[%s] bus: missing", grp);
	if (!r && !have_cs)
		r = ERR("[%s] chip_select: missing", grp);
	if (!r && !have_bound)
		c->bound = c->driver != NULL;
	if (!r && c->bound && !c->driver)
		r = ERR("[%s] bound: no driver to bind", grp);
	return r;
}

static int parse_spidev(GKeyFile *kf, const char *grp, struct emub_spi_board *b, char *err,
			size_t errsz)
{
	g_auto(GStrv) keys = NULL;
	gsize nkeys = 0;
	int r = 0;

	keys = g_key_file_get_keys(kf, grp, &nkeys, NULL);
	for (gsize i = 0; i < nkeys && !r; i++) {
		g_autofree char *s = g_key_file_get_string(kf, grp, keys[i], NULL);
		guint32 v;

		if (s)
			g_strstrip(s);
		if (!strcmp(keys[i], "bufsiz")) {
			/* module_param(bufsiz, uint, S_IRUGO); kmalloc() of 0 is
			 * ZERO_SIZE_PTR, every transfer with data is then EMSGSIZE */
			if (!parse_u32(s, &v) || v > 4194304)
				r = ERR("[%s] bufsiz: \"%s\" is not 0..4194304", grp, s);
			b->bufsiz = v;
		} else if (!strcmp(keys[i], "available")) {
			bool on = true;

			if (!parse_bool(s, &on))
				r = ERR("[%s] available: \"%s\" is not a boolean", grp, s);
			b->no_spidev = !on;
		} else {
			r = ERR("[%s]: unknown key \"%s\"", grp, keys[i]);
		}
	}
	return r;
}

int emub_spi_parse_group(GKeyFile *kf, const char *grp, struct emub_board_desc *d, char *err,
			 size_t errsz)
{
	if (g_str_has_prefix(grp, "spi "))
		return parse_ctlr(kf, grp, board_of(d), err, errsz);
	if (g_str_has_prefix(grp, "spi-chip "))
		return parse_dev(kf, grp, board_of(d), err, errsz);
	if (!strcmp(grp, "spidev"))
		return parse_spidev(kf, grp, board_of(d), err, errsz);
	return 1;
}

int emub_spi_check(struct emub_board_desc *d, char *err, size_t errsz)
{
	struct emub_spi_board *b = d->spi;

	for (int i = 0; b && i < b->ndevs; i++) {
		struct emub_spi_dev_desc *c = &b->devs[i];
		struct emub_spi_ctlr_desc *ctl = NULL;

		for (int j = 0; j < b->nctlrs; j++)
			if (b->ctlrs[j].nr == c->bus)
				ctl = &b->ctlrs[j];
		if (!ctl)
			return ERR("[spi-chip %s] bus: no [spi %d]", c->name, c->bus);
		if (c->cs >= ctl->num_cs)
			return ERR(
				"[spi-chip %s] chip_select: %u is beyond [spi %d] num_cs = %u",
				c->name, c->cs, c->bus, ctl->num_cs);
		for (int j = 0; j < i; j++) {
			if (!strcmp(b->devs[j].name, c->name))
				return ERR("[spi-chip %s]: defined twice", c->name);
			if (b->devs[j].bus == c->bus && b->devs[j].cs == c->cs)
				return ERR(
					"[spi-chip %s] chip_select: %u is taken by [spi-chip %s]",
					c->name, c->cs, b->devs[j].name);
		}
		for (int j = 0; j < d->nchips; j++)
			if (!strcmp(d->chips[j].name, c->name))
				return ERR("[spi-chip %s]: the name of [chip %s] too", c->name,
					   c->name);
	}
	return 0;
}

bool emub_spi_has_controllers(const struct emub_board_desc *d)
{
	return d->spi && d->spi->nctlrs > 0;
}

void emub_spi_board_free(struct emub_spi_board *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->ndevs; i++) {
		if (b->devs[i].fam && b->devs[i].cm->clear)
			b->devs[i].cm->clear(&b->devs[i]);
		g_free(b->devs[i].fam);
		g_free(b->devs[i].name);
		g_free(b->devs[i].model);
		g_strfreev(b->devs[i].compatible);
		g_free(b->devs[i].driver);
	}
	g_free(b);
}

/* ------------------------------------------------------------ devices */

static struct emub_spi_dev *find_dev(struct emub *eb, const char *dev)
{
	struct emub_spi *s = eb->spi;

	for (int i = 0; s && i < s->ndevs; i++)
		if (!strcmp(s->devs[i].name, dev) || !strcmp(s->devs[i].desc->name, dev))
			return &s->devs[i];
	return NULL;
}

/* dev_uevent() + spi_uevent(): DRIVER when bound, MODALIAS=spi:NAME. */
static GPtrArray *dev_env(struct emub_spi_dev *d, bool with_driver, bool with_modalias)
{
	GPtrArray *env = g_ptr_array_new_with_free_func(g_free);

	if (with_driver && d->driver)
		g_ptr_array_add(env, g_strdup_printf("DRIVER=%s", d->driver));
	if (with_modalias)
		g_ptr_array_add(env, g_strdup_printf("MODALIAS=%s", d->modalias));
	return env;
}

static char *env_text(GPtrArray *env)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < env->len; i++)
		g_string_append_printf(s, "%s\n", (char *)env->pdata[i]);
	return g_string_free(s, FALSE);
}

/* The uevent file after a change of state.  (driver_override is rewritten
 * only right after it was read: a rewrite at another time could clobber a
 * value written but not yet seen.) */
static void update_files(struct emub_spi_dev *d)
{
	GPtrArray *env = dev_env(d, true, true);
	char *t = env_text(env), *f = g_strdup_printf("%s/uevent", d->devpath + 1);

	emub_sys_write(d->eb, f, t);
	g_free(f);
	g_free(t);
	g_ptr_array_free(env, TRUE);
}

static void update_override(struct emub_spi_dev *d)
{
	char *f = g_strdup_printf("%s/driver_override", d->devpath + 1);
	char *t = g_strdup_printf("%s\n", d->driver_override ? d->driver_override : "(null)");

	emub_sys_write(d->eb, f, t);
	g_free(f);
	g_free(t);
}

static void send_event(struct emub_spi_dev *d, const char *action)
{
	bool unbind = !strcmp(action, "unbind");
	GPtrArray *env = dev_env(d, !unbind, !unbind);

	emub_uevent_send(d->eb, action, d->devpath, "spi", env);
	g_ptr_array_free(env, TRUE);
}

/* spi_match_device() */
static bool matches(struct emub_spi_dev *d, const char *drv)
{
	if (!strcmp(drv, "spidev") && d->eb->spi->b->no_spidev)
		return false; /* not in this kernel */
	if (d->driver_override)
		return !strcmp(d->driver_override, drv);
	return d->desc->driver && !strcmp(d->desc->driver, drv);
}

/* spidev_probe(): a minor, the class device and its node */
static int spidev_probe(struct emub_spi_dev *d)
{
	struct emub *eb = d->eb;
	struct emub_spi *s = eb->spi;
	GPtrArray *env;
	char *rec, *cname;
	GError *e = NULL;
	int minor = -1;

	for (int i = 0; i < SPIDEV_MINORS; i++)
		if (!(s->minors & (1u << i))) {
			minor = i;
			break;
		}
	if (minor < 0) {
		emub_log(eb, "spidev %s: no minor number available", d->name);
		return -ENODEV;
	}
	cname = g_strdup_printf("spidev%d.%u", d->ctlr->desc->nr, d->desc->cs);
	d->spidev_path = g_strdup_printf("%s/spidev/%s", d->devpath, cname);
	d->devnode = g_strdup_printf("/dev/%s", cname);
	rec = g_strdup_printf("P: %s\nE: MAJOR=%d\nE: MINOR=%d\nE: DEVNAME=%s\n"
			      "E: SUBSYSTEM=spidev\nA: dev=%d:%d\\n\n",
			      d->spidev_path, SPIDEV_MAJOR, minor, cname, SPIDEV_MAJOR, minor);
	if (!umockdev_testbed_add_from_string(eb->tb, rec, &e)) {
		emub_log(eb, "spidev %s: %s", d->name, e ? e->message : "add failed");
		g_clear_error(&e);
		g_free(rec);
		g_free(cname);
		return -ENOMEM;
	}
	g_free(rec);
	s->minors |= 1u << minor;
	g_mutex_lock(&eb->lock);
	d->minor = minor;
	d->speed_hz = d->max_speed_hz;
	g_mutex_unlock(&eb->lock);
	{
		/* the node by hand, as for evdev nodes (input.c): umockdev
		 * keeps "N:" nodes in a table remove_device() does not clear */
		char *node = g_strdup_printf("%s%s", eb->root, d->devnode);
		char *info = g_strdup_printf("%s/dev/.node/%s", eb->root, cname);
		char *num = g_strdup_printf("%d:%d", SPIDEV_MAJOR, minor);
		char *chr = g_strdup_printf("dev/char/%d:%d", SPIDEV_MAJOR, minor);
		char *dv = g_strdup_printf("%s/device", d->spidev_path + 1);

		char *info_dir = g_path_get_dirname(info), *node_dir = g_path_get_dirname(node);

		/* the ioctl handler first: a program that sees the node
		 * must find it served; then what umockdev's preload reads
		 * (the .node link), then the node in one step
		 * (g_file_set_contents renames it into place) -- last: it
		 * is what waiters see */
		emub_spidev_attach(d);
		g_mkdir_with_parents(info_dir, 0755);
		unlink(info);
		if (symlink(num, info))
			emub_log(eb, "spidev: %s: %s", info, g_strerror(errno));
		emub_sys_symlink(eb, d->spidev_path + 1, chr);
		emub_sys_symlink(eb, d->devpath + 1, dv);
		g_mkdir_with_parents(node_dir, 0755);
		g_file_set_contents(node, "", 0, NULL);
		g_free(info_dir);
		g_free(node_dir);
		g_free(node);
		g_free(info);
		g_free(num);
		g_free(chr);
		g_free(dv);
	}
	env = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(env, g_strdup_printf("MAJOR=%d", SPIDEV_MAJOR));
	g_ptr_array_add(env, g_strdup_printf("MINOR=%d", minor));
	g_ptr_array_add(env, g_strdup_printf("DEVNAME=%s", cname));
	emub_uevent_send(eb, "add", d->spidev_path, "spidev", env);
	g_ptr_array_free(env, TRUE);
	g_free(cname);
	return 0;
}

static void spidev_remove(struct emub_spi_dev *d)
{
	struct emub *eb = d->eb;
	GPtrArray *env;
	char *cname, *p;
	int minor;

	if (d->minor < 0)
		return;
	minor = d->minor;
	/* open files see ESHUTDOWN from now on (spidev_remove() clears
	 * spidev->spi first) */
	g_mutex_lock(&eb->lock);
	d->minor = -1;
	d->generation++;
	g_mutex_unlock(&eb->lock);
	cname = g_path_get_basename(d->devnode);
	env = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(env, g_strdup_printf("MAJOR=%d", SPIDEV_MAJOR));
	g_ptr_array_add(env, g_strdup_printf("MINOR=%d", minor));
	g_ptr_array_add(env, g_strdup_printf("DEVNAME=%s", cname));
	/* the node goes first (device_destroy()); its ioctl emulation
	 * stays, answering ESHUTDOWN to files still open (a program that
	 * opened the node just before finds spidev's answer, not a
	 * vanished handler) */
	{
		char *f[3] = {
			g_strdup_printf("%s%s", eb->root, d->devnode),
			g_strdup_printf("%s/dev/.node/%s", eb->root, cname),
			g_strdup_printf("%s/sys/dev/char/%d:%d", eb->root, SPIDEV_MAJOR, minor),
		};

		for (int i = 0; i < 3; i++) {
			unlink(f[i]);
			g_free(f[i]);
		}
	}
	emub_uevent_send(eb, "remove", d->spidev_path, "spidev", env);
	g_ptr_array_free(env, TRUE);
	p = g_strdup_printf("/sys%s", d->spidev_path);
	umockdev_testbed_remove_device(eb->tb, p);
	g_free(p);
	p = g_strdup_printf("%s/spidev", d->devpath + 1);
	emub_sys_remove(eb, p);
	g_free(p);
	eb->spi->minors &= ~(1u << minor);
	g_free(d->spidev_path);
	g_free(d->devnode);
	d->spidev_path = d->devnode = NULL;
	g_free(cname);
}

/* really_probe(): links first, probe, "bind"; a failed probe undoes them */
static int dev_bind(struct emub_spi_dev *d, const char *drv)
{
	const struct emub_spi_driver *sd;
	char *link, *target;
	int r;

	if (d->driver || !driver_known(drv) || !matches(d, drv))
		return -ENODEV;
	link = g_strdup_printf("%s/driver", d->devpath + 1);
	target = g_strdup_printf("bus/spi/drivers/%s", drv);
	emub_sys_symlink(d->eb, target, link);
	g_free(target);
	target = g_strdup_printf("bus/spi/drivers/%s/%s", drv, d->name);
	emub_sys_symlink(d->eb, d->devpath + 1, target);
	sd = emub_spi_driver_find(drv);
	r = sd ? sd->probe(d) : spidev_probe(d);
	if (r) {
		emub_log(d->eb, "spi %s: probe of %s failed: %s", d->name, drv, g_strerror(-r));
		emub_sys_remove(d->eb, link);
		emub_sys_remove(d->eb, target);
	} else {
		d->driver = driver_known(drv);
		if (sd && sd->attrs_add)
			sd->attrs_add(d); /* its attribute group */
		update_files(d);
		emub_log(d->eb, "spi %s: bound to %s", d->name, drv);
		send_event(d, "bind");
	}
	g_free(link);
	g_free(target);
	return r;
}

/* device_release_driver(): links go, remove, "unbind" */
static int dev_unbind(struct emub_spi_dev *d, const char *drv)
{
	const struct emub_spi_driver *sd;
	char *f;

	if (!d->driver || (drv && strcmp(drv, d->driver)))
		return -ENODEV;
	f = g_strdup_printf("bus/spi/drivers/%s/%s", d->driver, d->name);
	emub_sys_remove(d->eb, f);
	g_free(f);
	f = g_strdup_printf("%s/driver", d->devpath + 1);
	emub_sys_remove(d->eb, f);
	g_free(f);
	sd = emub_spi_driver_find(d->driver);
	if (!sd) {
		spidev_remove(d);
	} else {
		if (sd->attrs_remove)
			sd->attrs_remove(d);
		sd->remove(d);
	}
	emub_log(d->eb, "spi %s: unbound from %s", d->name, d->driver);
	d->driver = NULL;
	update_files(d);
	send_event(d, "unbind");
	return 0;
}

/* device_attach(): the first driver that matches */
static int dev_attach(struct emub_spi_dev *d)
{
	if (d->driver)
		return 0;
	if (d->driver_override)
		return driver_known(d->driver_override) ? dev_bind(d, d->driver_override) : 0;
	return d->desc->driver ? dev_bind(d, d->desc->driver) : 0;
}

/* ------------------------------------------------------------ sysfs writes */

/* A write-only file: read what was written, empty it again. */
static char *take(struct emub *eb, const char *dir, const char *name)
{
	char *rel = g_strdup_printf("%s/%s", dir, name);
	gsize len = 0;
	char *buf = emub_sys_read(eb, rel, &len);

	if (buf && *buf)
		emub_sys_write(eb, rel, "");
	g_free(rel);
	if (buf && !*buf) {
		g_free(buf);
		buf = NULL;
	}
	return buf;
}

static void on_driver_dir(struct emub *eb, const char *dir, const char *name)
{
	const char *drv = dir + strlen("bus/spi/drivers/");
	bool bind = !strcmp(name, "bind");
	struct emub_spi_dev *d;
	char *buf;
	int r;

	if (!bind && strcmp(name, "unbind"))
		return;
	buf = take(eb, dir, name);
	if (!buf)
		return;
	g_strstrip(buf);
	d = find_dev(eb, buf);
	if (d && strcmp(d->name, buf))
		d = NULL; /* device names only */
	r = !d ? -ENODEV : bind ? dev_bind(d, drv) : dev_unbind(d, drv);
	if (r)
		emub_log(eb, "%s/%s: \"%s\": %s (the write would fail with %s)", dir, name, buf,
			 !d	? "no such device"
			 : bind ? "bound already or no match"
				: "not bound to it",
			 g_strerror(-r));
	g_free(buf);
}

/* The record of the writes to @d's attribute @name; NULL when none was
 * handled and not @add. */
static struct emub_spi_store *store_of_locked(struct emub_spi_dev *d, const char *name,
					      bool add)
{
	struct emub_spi_store *st;

	for (guint i = 0; d->stores && i < d->stores->len; i++) {
		st = g_ptr_array_index(d->stores, i);
		if (!strcmp(st->attr, name))
			return st;
	}
	if (!add)
		return NULL;
	if (!d->stores)
		d->stores = g_ptr_array_new_with_free_func(g_free);
	st = g_malloc0(sizeof(*st) + strlen(name) + 1);
	strcpy(st->attr, name);
	g_ptr_array_add(d->stores, st);
	return st;
}

/* A driver attribute's store function (eb->lock not held): what the write
 * returns, 0 or -errno; -ENOENT when no driver has the attribute. */
static int attr_store(struct emub_spi_dev *d, const char *name)
{
	const struct emub_spi_driver *sd = d->driver ? emub_spi_driver_find(d->driver) : NULL;
	struct emub_spi_store *st;
	int r;

	if (!sd || !sd->attr_store)
		return -ENOENT; /* the attribute group went with the driver */
	if (!sd->attr_store(d, name, &r))
		return -ENOENT;
	g_mutex_lock(&d->eb->lock);
	st = store_of_locked(d, name, true);
	st->result = r;
	st->count++;
	g_mutex_unlock(&d->eb->lock);
	return r;
}

static void on_device_dir(struct emub *eb, struct emub_spi_dev *d, const char *name)
{
	const char *dir = d->devpath + 1;
	char *buf, *rel;
	gsize len = 0;

	if (!strcmp(name, "driver_override")) {
		rel = g_strdup_printf("%s/driver_override", dir);
		buf = emub_sys_read(eb, rel, &len);
		g_free(rel);
		if (!buf)
			return;
		{
			char *canon = g_strdup_printf("%s\n", d->driver_override
								      ? d->driver_override
								      : "(null)");
			bool ours = !strcmp(buf, canon);

			g_free(canon);
			if (ours) {
				g_free(buf);
				return;
			}
		}
		/* driver_set_override(): one trailing newline cut, empty clears */
		if (len && buf[len - 1] == '\n')
			buf[--len] = 0;
		g_free(d->driver_override);
		d->driver_override = len ? g_strndup(buf, len) : NULL;
		emub_log(eb, "spi %s: driver_override = \"%s\"", d->name,
			 d->driver_override ? d->driver_override : "");
		update_override(d);
		g_free(buf);
		return;
	}
	if (emub_spi_store_attr(name)) {
		/* a writer not under the board's shim: the write has returned
		 * already; the store runs now (one under the shim that holds
		 * the attribute stores its own bytes: ATTRHOLD, gpio.c) */
		char *held = g_strdup_printf("%s/%s", dir, name), *b;
		bool mine = emub_attr_held(eb, held);

		g_free(held);
		if (mine)
			return;
		b = take(eb, dir, name);

		if (b)
			attr_store(d, name);
		g_free(b);
		return;
	}
	if (!strcmp(name, "uevent")) {
		static const char *const actions[] = {
			"add", "remove", "change", "move", "online", "offline", "bind", "unbind"
		};
		GPtrArray *env = dev_env(d, true, true);
		char *ours = env_text(env);

		g_ptr_array_free(env, TRUE);
		rel = g_strdup_printf("%s/uevent", dir);
		buf = emub_sys_read(eb, rel, &len);
		g_free(rel);
		if (buf && strcmp(buf, ours)) {
			g_strstrip(buf);
			buf[strcspn(buf, " ")] = 0;
			update_files(d);
			for (size_t i = 0; i < G_N_ELEMENTS(actions); i++)
				if (!strcmp(buf, actions[i])) {
					send_event(d, actions[i]);
					break;
				}
		}
		g_free(buf);
		g_free(ours);
	}
}

static void handle(struct emub *eb, const char *dir, const char *name)
{
	struct emub_spi *s = eb->spi;

	if (!strcmp(dir, "bus/spi")) {
		if (!strcmp(name, "drivers_probe")) {
			char *buf = take(eb, dir, name);
			struct emub_spi_dev *d;

			if (!buf)
				return;
			g_strstrip(buf);
			d = find_dev(eb, buf);
			if (d && !strcmp(d->name, buf))
				dev_attach(d);
			else
				emub_log(eb, "bus/spi/drivers_probe: \"%s\": no such device",
					 buf);
			g_free(buf);
		}
		return;
	}
	if (g_str_has_prefix(dir, "bus/spi/drivers/")) {
		on_driver_dir(eb, dir, name);
		return;
	}
	for (int i = 0; i < s->ndevs; i++)
		if (!strcmp(s->devs[i].devpath + 1, dir)) {
			on_device_dir(eb, &s->devs[i], name);
			return;
		}
}

static gboolean on_inotify(gint fd, GIOCondition cond, gpointer data)
{
	struct emub *eb = data;
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;

	(void)cond;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			const char *dir = g_hash_table_lookup(eb->spi->watches,
							      GINT_TO_POINTER(ev->wd));

			p += sizeof(*ev) + ev->len;
			if (dir && ev->len && (ev->mask & IN_CLOSE_WRITE) && !eb->stopping)
				handle(eb, dir, ev->name);
		}
	}
	return G_SOURCE_CONTINUE;
}

static void watch(struct emub *eb, const char *rel)
{
	char *p = emub_sys_path(eb, rel);
	int wd = inotify_add_watch(eb->spi->inotify_fd, p, IN_CLOSE_WRITE);

	if (wd < 0)
		emub_log(eb, "inotify on %s: %s", rel, g_strerror(errno));
	else
		g_hash_table_replace(eb->spi->watches, GINT_TO_POINTER(wd), g_strdup(rel));
	g_free(p);
}

/* ------------------------------------------------------------ tree */

static void build_ctlr(struct emub *eb, struct emub_spi_ctlr *c)
{
	int nr = c->desc->nr;
	char *plat =
		emub_sys_platform_dev(eb, "emuboard-spi", nr,
				      "DRIVER=emuboard-spi\nMODALIAS=platform:emuboard-spi\n");
	char *rel = g_strdup_printf("%s/spi_master/spi%d", plat, nr);
	char *f;

	c->devpath = g_strdup_printf("/%s", rel);
	/* the controller: a class device of spi_master (no /dev node) */
	emub_sys_mkdir(eb, rel);
	emub_sys_write_in(eb, rel, "uevent", "");
	emub_sys_symlink_in(eb, "class/spi_master", rel, "subsystem");
	emub_sys_symlink_in(eb, plat, rel, "device");
	f = g_strdup_printf("class/spi_master/spi%d", nr);
	emub_sys_symlink(eb, rel, f);
	g_free(f);
	g_free(plat);
	g_free(rel);
}

static void build_dev(struct emub *eb, struct emub_spi_dev *d)
{
	const char *comp = d->desc->compatible ? d->desc->compatible[0] : NULL;
	const char *comma = comp ? strchr(comp, ',') : NULL;
	char *rel, *f;

	/* of_register_spi_device(): modalias from the first compatible
	 * without its vendor prefix (of_modalias_node()) */
	d->modalias = g_strdup_printf("spi:%s",
				      comp ? (comma ? comma + 1 : comp) : d->desc->name);
	d->devpath = g_strdup_printf("%s/%s", d->ctlr->devpath, d->name);
	rel = d->devpath + 1;
	emub_sys_mkdir(eb, rel);
	f = g_strdup_printf("%s/modalias", rel);
	{
		char *v = g_strdup_printf("%s\n", d->modalias);

		emub_sys_write(eb, f, v);
		g_free(v);
	}
	g_free(f);
	emub_sys_symlink_in(eb, "bus/spi", rel, "subsystem");
	f = g_strdup_printf("bus/spi/devices/%s", d->name);
	emub_sys_symlink(eb, rel, f);
	g_free(f);
	update_files(d);
	update_override(d);
	watch(eb, rel);
}

static void build_driver(struct emub *eb, const char *drv)
{
	char *dir = g_strdup_printf("bus/spi/drivers/%s", drv);
	char *p = emub_sys_path(eb, dir);
	bool exists = g_file_test(p, G_FILE_TEST_IS_DIR);

	g_free(p);
	if (!exists) {
		emub_sys_mkdir(eb, dir);
		emub_sys_write_in(eb, dir, "bind", "");
		emub_sys_write_in(eb, dir, "unbind", "");
		emub_sys_write_in(eb, dir, "uevent", "");
		watch(eb, dir);
	}
	g_free(dir);
}

struct call {
	struct emub *eb;
	struct emub_spi_dev *d;
	const char *drv;
	bool bind;
	bool destroy;
	const char *attr; /* a driver attribute's store instead of bind/unbind */
	int r;
	GMutex m;
	GCond c;
	bool done;
};

static gboolean call_cb(gpointer data)
{
	struct call *k = data;

	if (k->destroy)
		g_source_destroy(k->eb->spi->source);
	else if (k->eb->spi->inotify_fd >= 0)
		on_inotify(k->eb->spi->inotify_fd, G_IO_IN, k->eb);
	if (k->d && k->attr)
		k->r = attr_store(k->d, k->attr);
	else if (k->d)
		k->r = k->bind ? dev_bind(k->d, k->drv) : dev_unbind(k->d, NULL);
	g_mutex_lock(&k->m);
	k->done = true;
	g_cond_signal(&k->c);
	g_mutex_unlock(&k->m);
	return G_SOURCE_REMOVE;
}

/* Run @k on the service thread, where the sysfs writes are handled. */
static int service_run(struct call *k)
{
	struct emub *eb = k->eb;

	if (!eb->service || g_thread_self() == eb->service) {
		call_cb(k);
		return k->r;
	}
	g_mutex_init(&k->m);
	g_cond_init(&k->c);
	g_main_context_invoke(eb->ctx, call_cb, k);
	g_mutex_lock(&k->m);
	while (!k->done)
		g_cond_wait(&k->c, &k->m);
	g_mutex_unlock(&k->m);
	g_mutex_clear(&k->m);
	g_cond_clear(&k->c);
	return k->r;
}

static int service_call(struct emub *eb, struct emub_spi_dev *d, const char *drv, bool bind)
{
	struct call k = { .eb = eb, .d = d, .drv = drv, .bind = bind };

	if (!eb->spi)
		return -ENODEV;
	return service_run(&k);
}

/* The spi device whose store attribute @rel is, and the attribute's name. */
static struct emub_spi_dev *store_attr_of(struct emub *eb, const char *rel, const char **name)
{
	struct emub_spi *s = eb->spi;

	for (int i = 0; s && i < s->ndevs; i++) {
		size_t dl = strlen(s->devs[i].devpath + 1);

		if (strncmp(rel, s->devs[i].devpath + 1, dl) || rel[dl] != '/')
			continue;
		*name = emub_spi_store_attr(rel + dl + 1);
		if (*name)
			return &s->devs[i];
	}
	return NULL;
}

bool emub_spi_is_store_attr(struct emub *eb, const char *rel)
{
	const char *name;

	return store_attr_of(eb, rel, &name) != NULL;
}

int emub_spi_attr_write(struct emub *eb, const char *rel, int *res)
{
	struct emub_spi_dev *d;
	const char *name = NULL;
	char *buf;
	gsize len = 0;

	d = store_attr_of(eb, rel, &name);
	if (!d)
		return 1;
	buf = emub_sys_read(eb, rel, &len);
	if (!buf || !len) { /* a write of nothing: sysfs calls no store */
		g_free(buf);
		*res = 0;
		return 0;
	}
	g_free(buf);
	/* taken here: the writer's close finds the file empty and the
	 * inotify path runs nothing a second time */
	emub_sys_write(eb, rel, "");
	{
		struct call k = { .eb = eb, .d = d, .attr = name };

		*res = service_run(&k);
	}
	return 0;
}

int emub_spi_start(struct emub *eb)
{
	struct emub_spi_board *b = eb->desc.spi;
	struct emub_spi *s;

	if (!b)
		return 0;
	s = eb->spi = g_new0(struct emub_spi, 1);
	s->b = b;
	s->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (s->inotify_fd < 0)
		return -errno;
	s->watches = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	emub_sys_mkdir(eb, "bus/spi/devices");
	emub_sys_mkdir(eb, "bus/spi/drivers");
	emub_sys_write(eb, "bus/spi/drivers_probe", "");
	emub_sys_write(eb, "bus/spi/drivers_autoprobe", "1\n");
	emub_sys_mkdir(eb, "class/spi_master");
	if (!b->no_spidev) {
		char *v = g_strdup_printf("%u\n", b->bufsiz);

		emub_sys_mkdir(eb, "module/spidev/parameters");
		emub_sys_write(eb, "module/spidev/parameters/bufsiz", v);
		g_free(v);
	}
	watch(eb, "bus/spi");
	if (!b->no_spidev)
		build_driver(eb, "spidev"); /* SPI_SPIDEV=y in Debian's kernel */
	s->nctlrs = b->nctlrs;
	for (int i = 0; i < s->nctlrs; i++) {
		s->ctlrs[i].eb = eb;
		s->ctlrs[i].desc = &b->ctlrs[i];
		build_ctlr(eb, &s->ctlrs[i]);
	}
	s->ndevs = b->ndevs;
	for (int i = 0; i < s->ndevs; i++) {
		struct emub_spi_dev *d = &s->devs[i];

		d->eb = eb;
		d->desc = &b->devs[i];
		d->minor = -1;
		for (int j = 0; j < s->nctlrs; j++)
			if (s->ctlrs[j].desc->nr == d->desc->bus)
				d->ctlr = &s->ctlrs[j];
		snprintf(d->name, sizeof(d->name), "spi%d.%u", d->desc->bus, d->desc->cs);
		/* of_spi_parse_dt() then spi_setup() */
		d->mode = d->desc->mode;
		d->bits_per_word = 8;
		d->max_speed_hz = d->desc->max_hz && d->desc->max_hz <= d->ctlr->desc->max_hz
					  ? d->desc->max_hz
					  : d->ctlr->desc->max_hz;
		d->ops = NULL; /* model "none": nothing drives MISO */
		if (d->desc->cm) {
			int r = d->desc->cm->create(d, eb->now_ns);

			if (r)
				return r;
		}
		build_dev(eb, d);
		if (d->desc->driver)
			build_driver(eb, d->desc->driver);
	}
	s->source = g_unix_fd_source_new(s->inotify_fd, G_IO_IN);
	g_source_set_callback(s->source, G_SOURCE_FUNC(on_inotify), eb, NULL);
	g_source_attach(s->source, eb->ctx);
	for (int i = 0; i < s->ndevs; i++)
		if (s->devs[i].desc->bound)
			dev_bind(&s->devs[i], s->devs[i].desc->driver);
	return 0;
}

void emub_spi_stop(struct emub *eb)
{
	struct emub_spi *s = eb->spi;

	if (!s)
		return;
	if (s->source) {
		/* on the service thread, so no handler runs while it goes */
		struct call k = { .eb = eb, .destroy = true };

		service_run(&k);
		g_source_unref(s->source);
	}
	for (int i = 0; i < s->ndevs; i++) {
		struct emub_spi_dev *d = &s->devs[i];

		if (d->ioctl)
			emub_spidev_detach(d);
		g_free(d->drv_priv);
		if (d->stores)
			g_ptr_array_free(d->stores, TRUE);
		if (d->idev) {
			if (d->idev->input)
				emub_input_free(eb, d->idev->input);
			g_free(d->idev->devpath);
			g_free(d->idev);
			d->idev = NULL;
		}
		g_free(d->devpath);
		g_free(d->modalias);
		g_free(d->driver_override);
		g_free(d->spidev_path);
		g_free(d->devnode);
		if (d->model && d->desc->cm && d->desc->cm->destroy)
			d->desc->cm->destroy(d);
		else
			g_free(d->model);
	}
	for (int i = 0; i < s->nctlrs; i++) {
		g_free(s->ctlrs[i].devpath);
		if (s->ctlrs[i].unseen)
			g_array_free(s->ctlrs[i].unseen, TRUE);
	}
	if (s->watches)
		g_hash_table_destroy(s->watches);
	if (s->inotify_fd >= 0)
		close(s->inotify_fd);
	g_free(s);
	eb->spi = NULL;
}

/* ------------------------------------------------------------ messages */

static guint8 rev8(guint8 b)
{
	b = (guint8)((b & 0xf0) >> 4 | (b & 0x0f) << 4);
	b = (guint8)((b & 0xcc) >> 2 | (b & 0x33) << 2);
	return (guint8)((b & 0xaa) >> 1 | (b & 0x55) << 1);
}

/* Memory order to wire order: words of 16/32 bits go out most significant
 * byte first from a little-endian CPU's buffer; LSB_FIRST reverses bits. */
static void to_wire(guint8 *buf, guint32 len, guint8 bpw, bool lsb)
{
	unsigned int w = bpw <= 8 ? 1 : bpw <= 16 ? 2 : 4;

	for (guint32 i = 0; w > 1 && i + w <= len; i += w)
		for (unsigned int k = 0; k < w / 2; k++) {
			guint8 t = buf[i + k];

			buf[i + k] = buf[i + w - 1 - k];
			buf[i + w - 1 - k] = t;
		}
	if (lsb)
		for (guint32 i = 0; i < len; i++)
			buf[i] = rev8(buf[i]);
}

/* A sampling edge off by half a clock: the stream arrives one bit late. */
static void shift_one_bit(guint8 *buf, guint32 len, guint8 first_bit)
{
	guint8 carry = first_bit;

	for (guint32 i = 0; i < len; i++) {
		guint8 next = buf[i] & 1;

		buf[i] = (guint8)(buf[i] >> 1 | carry << 7);
		carry = next;
	}
}

/* Modelled activity from @a to @b, for stats.active_ns: the intervals
 * come in the order they start, so their union is what lies beyond the
 * last one's end. */
static void cover(struct emub_spi_ctlr *c, guint64 a, guint64 b)
{
	if (a < c->covered_until)
		a = c->covered_until;
	if (b > a) {
		c->stats.active_ns += b - a;
		c->covered_until = b;
	}
}

/* Run the chip's events up to @t, counting the time it was busy. */
static void advance_chip(struct emub_spi_dev *d, guint64 t)
{
	guint64 from = d->chip_now;

	if (!d->ops || !d->ops->advance || t <= from)
		return;
	for (int guard = 0; guard < 100000; guard++) {
		guint64 ne = d->ops->next_event(d->model);

		if (ne == EM_NEVER || ne > t)
			break;
		if (ne > from) {
			d->ctlr->stats.busy_ns += ne - from;
			cover(d->ctlr, from, ne);
			from = ne;
		}
		d->ops->advance(d->model, ne);
		if (d->ops->next_event(d->model) == EM_NEVER)
			d->chip_idle_at = ne; /* its last operation ended here */
		if (d->ops->next_event(d->model) <= ne)
			break;
	}
	if (d->ops->next_event(d->model) != EM_NEVER && t > from) {
		d->ctlr->stats.busy_ns += t - from;
		cover(d->ctlr, from, t);
	}
	d->ops->advance(d->model, t);
	d->chip_now = t;
	if (d->ops->next_event(d->model) != EM_NEVER)
		d->chip_idle_at = t; /* still busy */
}

static void set_cs(struct emub_spi_dev *d, bool active)
{
	bool chip_sees = active && !(d->mode & SPI_CS_HIGH);

	if (d->selected == active)
		return;
	d->selected = active;
	if (active)
		d->ctlr->stats.selects++;
	if (d->ops && d->ops->select)
		d->ops->select(d->model, chip_sees);
}

static void clock_bytes(struct emub_spi_dev *d, struct emub_spi_xfer *x, guint32 hz)
{
	guint32 len = x->len;
	guint8 *mosi = g_malloc0(len ? len : 1), *miso = g_malloc(len ? len : 1);
	bool chip = d->ops && !(d->mode & SPI_CS_HIGH);

	if (x->tx)
		memcpy(mosi, x->tx, len);
	to_wire(mosi, len, x->bits_per_word, d->mode & SPI_LSB_FIRST);
	memset(miso, 0xff, len ? len : 1); /* MISO pulled up when nobody drives it */
	if (d->mode & SPI_LOOP) {
		memcpy(miso, mosi, len);
	} else if (chip) {
		bool skew = (d->mode & (SPI_CPOL | SPI_CPHA)) != d->ops->mode;
		guint8 *seen = g_memdup2(mosi, len ? len : 1);

		if (skew)
			shift_one_bit(seen, len, 0);
		d->ops->xfer(d->model, seen, miso, len);
		if (skew)
			shift_one_bit(miso, len, 1);
		if (d->ops->max_hz && hz > d->ops->max_hz)
			memset(miso, 0xff, len); /* too fast for the chip to drive MISO */
		g_free(seen);
	}
	if (x->rx) {
		to_wire(miso, len, x->bits_per_word,
			d->mode & SPI_LSB_FIRST); /* its own inverse */
		memcpy(x->rx, miso, len);
	}
	g_free(mosi);
	g_free(miso);
}

static guint64 wall_ns(void)
{
	return (guint64)g_get_monotonic_time() * 1000;
}

void emub_spi_run_idle_time_locked(struct emub_spi_dev *d)
{
	struct emub *eb = d->eb;
	struct emub_spi_ctlr *c = d->ctlr;
	guint64 now = emub_serve_arrival_ns(), from, t, until;

	if (!now)
		now = wall_ns();
	if (eb->realtime || !c->wall_mark_ns || now <= c->wall_mark_ns + EMUB_IDLE_SLACK_NS ||
	    !d->ops || !d->ops->next_event)
		return;
	from = t = c->now_ns > eb->now_ns ? c->now_ns : eb->now_ns;
	until = from + (now - c->wall_mark_ns - EMUB_IDLE_SLACK_NS);
	for (int guard = 0; guard < 100000; guard++) {
		guint64 ne = d->ops->next_event(d->model);

		if (ne == EM_NEVER || ne > until)
			break;
		if (ne > t)
			t = ne;
		advance_chip(d, t);
		if (d->ops->next_event(d->model) <= ne)
			break; /* a chip that does not retire its event */
	}
	/* the clock stops at the last event run: see clock.c */
	if (t > from) {
		c->stats.idle_run_ns += t - from;
		c->now_ns = t;
		if (t > eb->now_ns)
			eb->now_ns = t;
	}
}

/*
 * __spi_validate(), then spi_transfer_one_message().  Called with
 * eb->lock held; the model time the message takes is added to the board's
 * clock (fast pacing skips to the chip's next internal event first, as the
 * i2c adapters do for user-space transfers).
 */
int emub_spi_message_locked(struct emub_spi_dev *d, struct emub_spi_xfer *x, unsigned int n)
{
	struct emub *eb = d->eb;
	struct emub_spi_ctlr *c = d->ctlr;
	guint64 t, start;
	bool keep_cs = false;

	if (!n)
		return -EINVAL; /* list_empty(&message->transfers) */
	for (unsigned int i = 0; i < n; i++) {
		unsigned int w;

		if (!x[i].bits_per_word)
			x[i].bits_per_word = d->bits_per_word;
		if (!x[i].speed_hz)
			x[i].speed_hz = d->max_speed_hz;
		if (!x[i].speed_hz)
			x[i].speed_hz = c->desc->max_hz;
		if (c->desc->max_hz && x[i].speed_hz > c->desc->max_hz)
			x[i].speed_hz = c->desc->max_hz;
		if (x[i].bits_per_word != 8 && x[i].bits_per_word != 16 &&
		    x[i].bits_per_word != 32)
			return -EINVAL; /* __spi_validate_bits_per_word() */
		w = x[i].bits_per_word <= 8 ? 1 : x[i].bits_per_word <= 16 ? 2 : 4;
		if (x[i].len % w)
			return -EINVAL; /* no partial words */
		if (x[i].speed_hz && c->desc->min_hz && x[i].speed_hz < c->desc->min_hz)
			return -EINVAL;
	}
	if (eb->realtime) {
		/* the wall clock and this controller's own wire: a transfer
		 * still on another bus (eb->now_ns) does not hold this one */
		guint64 wall = emub_wall_model_ns(eb);

		t = c->now_ns > wall ? c->now_ns : wall;
	} else {
		t = c->now_ns > eb->now_ns ? c->now_ns : eb->now_ns;
	}
	if (!eb->realtime && d->ops && d->ops->next_event) {
		guint64 ne = d->ops->next_event(d->model);

		if (ne != EM_NEVER && ne > t)
			t = ne; /* fast pacing: nothing happens while the chip is busy */
	}
	advance_chip(d, t);
	start = t;
	/* the idle clock: since when nothing modelled was pending */
	d->gap_ns = 0;
	if (eb->realtime) {
		d->gap_from = MAX(c->now_ns, d->chip_idle_at);
		if (d->ops && d->ops->next_event && d->ops->next_event(d->model) != EM_NEVER)
			d->gap_from = t; /* an operation pending: the chip is busy */
		d->gap_ns = t > d->gap_from ? t - d->gap_from : 0;
	}
	set_cs(d, true);
	for (unsigned int i = 0; i < n; i++) {
		unsigned int w = x[i].bits_per_word <= 8 ? 1 : x[i].bits_per_word <= 16 ? 2 : 4;
		guint64 bits = (guint64)x[i].len * 8;
		guint64 words = x[i].len / w;

		clock_bytes(d, &x[i], x[i].speed_hz);
		t += bits * 1000000000ULL / x[i].speed_hz;
		if (words > 1)
			t += (words - 1) * (guint64)x[i].word_delay_us * 1000;
		c->stats.transfers++;
		c->stats.bytes += x[i].len;
		/* spi_transfer_delay_exec(): the chip still selected */
		t += (guint64)x[i].delay_us * 1000;
		advance_chip(d, t);
		if (x[i].cs_change) {
			if (i == n - 1) {
				keep_cs = true;
			} else {
				set_cs(d, false);
				c->stats.cs_changes++;
				t += CS_CHANGE_DELAY_NS;
				advance_chip(d, t);
				set_cs(d, true);
			}
		}
	}
	if (!keep_cs)
		set_cs(d, false);
	c->stats.messages++;
	c->stats.wire_ns += t - start;
	cover(c, start, t);
	c->now_ns = t;
	if (!eb->realtime)
		c->wall_mark_ns = wall_ns(); /* the host's idle time starts now */
	if (t > eb->now_ns)
		eb->now_ns = t;
	d->end_ns = t;
	if (eb->trace)
		emub_log(eb, "spi %s: message of %u transfer%s, %llu ns", d->name, n,
			 n == 1 ? "" : "s", (unsigned long long)(t - start));
	return 0;
}

static guint64 overlap(guint64 a0, guint64 a1, guint64 b0, guint64 b1)
{
	guint64 lo = MAX(a0, b0), hi = MIN(a1, b1);

	return hi > lo ? hi - lo : 0;
}

void emub_spi_user_message_locked(struct emub_spi_dev *d, guint64 entry_ns, guint32 rx)
{
	struct emub_spi_stats *st = &d->ctlr->stats;
	guint64 from = d->gap_from, to = d->gap_from + d->gap_ns, seen;
	guint32 after_rx = d->tail_rx;

	st->user_messages++;
	d->tail_rx = rx; /* for the next one's gap */
	if (!d->gap_ns)
		return;
	/* this message's handling before its wire, the last one's after its
	 * wire: disjoint (a client sends the next request once the last is
	 * complete), each counted where it lies in the gap */
	seen = overlap(entry_ns, to, from, to) + overlap(d->tail_from, d->tail_to, from, to);
	if (seen > d->gap_ns)
		seen = d->gap_ns;
	st->idle_messages++;
	st->idle_ns += d->gap_ns;
	st->service_ns += seen;
	if (!d->ctlr->unseen)
		d->ctlr->unseen = g_array_new(FALSE, FALSE, sizeof(struct emub_spi_gap));
	{
		guint64 u = d->gap_ns - seen;
		struct emub_spi_gap g = { .unseen_ns = u > G_MAXUINT32 ? G_MAXUINT32
								       : (guint32)u,
					  .after_rx = after_rx,
					  .from_ns = from,
					  .to_ns = to,
					  .entry_ns = entry_ns,
					  .prev_done_ns = d->tail_to };

		g_array_append_val(d->ctlr->unseen, g);
	}
}

size_t emub_spi_idle_unseen(struct emub *eb, int bus, uint64_t first, struct emub_spi_gap *out,
			    size_t n)
{
	struct emub_spi *s = eb->spi;
	size_t k = 0;

	for (int i = 0; s && i < s->nctlrs; i++) {
		GArray *a = s->ctlrs[i].unseen;

		if (s->ctlrs[i].desc->nr != bus)
			continue;
		g_mutex_lock(&eb->lock);
		for (; a && k < n && first + k < a->len; k++)
			out[k] = g_array_index(a, struct emub_spi_gap, first + k);
		g_mutex_unlock(&eb->lock);
	}
	return k;
}

void emub_spi_user_done(struct emub_spi_dev *d)
{
	struct emub *eb = d->eb;

	g_mutex_lock(&eb->lock);
	d->tail_from = d->end_ns;
	d->tail_to = eb->realtime ? emub_wall_model_ns(eb) : d->end_ns;
	g_mutex_unlock(&eb->lock);
}

/*
 * An emulated driver's msleep(@ms): the controller's clock moves on by @ms
 * from the later of its own time and (realtime) now -- a controller whose
 * clock lags the wall would otherwise count a sleep that never waited --
 * and in realtime the caller waits for it.  Counted in driver_ns.
 */
void emub_spi_driver_msleep(struct emub_spi_dev *d, unsigned int ms)
{
	struct emub *eb = d->eb;
	guint64 from, until;

	g_mutex_lock(&eb->lock);
	from = d->ctlr->now_ns;
	if (eb->realtime) {
		guint64 wall = emub_wall_model_ns(eb);

		if (wall > from)
			from = wall;
	}
	until = from + (guint64)ms * 1000000ULL;
	d->ctlr->now_ns = until;
	if (!eb->realtime)
		d->ctlr->wall_mark_ns = wall_ns();
	d->ctlr->stats.driver_ns += (guint64)ms * 1000000ULL;
	cover(d->ctlr, from, until);
	if (until > eb->now_ns)
		eb->now_ns = until;
	g_mutex_unlock(&eb->lock);
	emub_sleep_until_model(eb, until);
}

/* ------------------------------------------------------------ API */

const char *emub_spi_dev_name(struct emub *eb, const char *dev)
{
	struct emub_spi_dev *d = find_dev(eb, dev);

	return d ? d->name : NULL;
}

void emub_spi_settle(struct emub *eb)
{
	service_call(eb, NULL, NULL, false);
}

int emub_spi_bind(struct emub *eb, const char *dev, const char *driver)
{
	struct emub_spi_dev *d = find_dev(eb, dev);

	return d ? service_call(eb, d, driver, true) : -ENODEV;
}

int emub_spi_unbind(struct emub *eb, const char *dev)
{
	struct emub_spi_dev *d = find_dev(eb, dev);

	return d ? service_call(eb, d, NULL, false) : -ENODEV;
}

/* Device @dev's bound driver or its driver_override (empty: none) in
 * @buf, once the spi service has settled. */
static int dev_driver(struct emub *eb, const char *dev, bool override, char *buf, size_t size)
{
	struct emub_spi_dev *d;
	const char *v;

	emub_spi_settle(eb);
	d = find_dev(eb, dev);
	if (!d)
		return -ENODEV;
	v = override ? d->driver_override : d->driver;
	snprintf(buf, size, "%s", v ? v : "");
	return 0;
}

int emub_spi_driver(struct emub *eb, const char *dev, char *buf, size_t size)
{
	return dev_driver(eb, dev, false, buf, size);
}

int emub_spi_driver_override(struct emub *eb, const char *dev, char *buf, size_t size)
{
	return dev_driver(eb, dev, true, buf, size);
}

int emub_spi_stats(struct emub *eb, int bus, struct emub_spi_stats *st)
{
	struct emub_spi *s = eb->spi;

	for (int i = 0; s && i < s->nctlrs; i++)
		if (s->ctlrs[i].desc->nr == bus) {
			g_mutex_lock(&eb->lock);
			*st = s->ctlrs[i].stats;
			g_mutex_unlock(&eb->lock);
			return 0;
		}
	return -ENODEV;
}

bool emub_spi_selected(struct emub *eb, const char *dev)
{
	struct emub_spi_dev *d = find_dev(eb, dev);
	bool sel;

	if (!d)
		return false;
	g_mutex_lock(&eb->lock);
	sel = d->selected;
	g_mutex_unlock(&eb->lock);
	return sel;
}

void *emub_spi_model_of(struct emub *eb, const char *dev, const void *ops)
{
	struct emub_spi_dev *d = find_dev(eb, dev);

	return d && d->ops == ops ? d->model : NULL;
}

struct emub_dev *emub_spi_input_dev(struct emub_spi_dev *d)
{
	if (!d->idev) {
		d->idev = g_new0(struct emub_dev, 1);
		d->idev->eb = d->eb;
		snprintf(d->idev->name, sizeof(d->idev->name), "%s", d->name);
		d->idev->devpath = g_strdup(d->devpath);
	}
	return d->idev;
}

int emub_spi_attr_result(struct emub *eb, const char *dev, const char *attr, int *result)
{
	struct emub_spi_dev *d;
	const struct emub_spi_store *st;

	emub_spi_settle(eb);
	d = find_dev(eb, dev);
	if (!d)
		return -ENODEV;
	g_mutex_lock(&eb->lock);
	st = store_of_locked(d, attr, false);
	if (st)
		*result = st->result;
	g_mutex_unlock(&eb->lock);
	return st ? 0 : -ENOENT;
}

int emub_spi_attr_count_now(struct emub *eb, const char *dev, const char *attr)
{
	struct emub_spi_dev *d = find_dev(eb, dev);
	const struct emub_spi_store *st;
	int n;

	if (!d)
		return -ENODEV;
	g_mutex_lock(&eb->lock);
	st = store_of_locked(d, attr, false);
	n = st ? (int)st->count : 0;
	g_mutex_unlock(&eb->lock);
	return n;
}

int emub_spi_update_fw_result(struct emub *eb, const char *dev, int *result)
{
	return emub_spi_attr_result(eb, dev, "update_fw", result);
}

int emub_spi_update_cfg_result(struct emub *eb, const char *dev, int *result)
{
	return emub_spi_attr_result(eb, dev, "update_cfg", result);
}

int emub_spi_update_fw_count_now(struct emub *eb, const char *dev)
{
	return emub_spi_attr_count_now(eb, dev, "update_fw");
}
