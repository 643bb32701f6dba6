// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Board description files (GKeyFile syntax): [board], [adapter N],
 * [chip NAME], [gpiochip].  The parser is strict: unknown sections or keys,
 * bad numbers and inconsistent wiring are errors naming the section and
 * key, so a typo in a board never silently changes what a test exercises.
 * The format is documented in tests/emul/README.md.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emub-priv.h"
#include "emub-spi.h"

#define ERR(...) (snprintf(err, errsz, __VA_ARGS__), -EINVAL)
#define parse_u32 emub_parse_u32
#define parse_bool emub_parse_bool

/* ------------------------------------------------------------ values */

bool emub_parse_u32(const char *s, guint32 *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	while (*end == ' ' || *end == '\t')
		end++;
	if (errno || *end || v > 0xffffffffULL || s[0] == '-')
		return false;
	*out = (guint32)v;
	return true;
}

bool emub_parse_bool(const char *s, bool *out)
{
	if (!g_ascii_strcasecmp(s, "true") || !strcmp(s, "1") ||
	    !g_ascii_strcasecmp(s, "yes")) {
		*out = true;
		return true;
	}
	if (!g_ascii_strcasecmp(s, "false") || !strcmp(s, "0") ||
	    !g_ascii_strcasecmp(s, "no")) {
		*out = false;
		return true;
	}
	return false;
}

int emub_parse_err(const struct emub_parse *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, p->errsz, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int emub_key_u32(const struct emub_parse *p, const char *key, const char *s, guint32 max,
		 guint32 *out)
{
	guint32 v;

	if (!parse_u32(s, &v) || v > max)
		return emub_parse_err(p, "[%s] %s: \"%s\" is not a number <= %u", p->grp, key,
				      s, (unsigned)max);
	*out = v;
	return 0;
}

int emub_key_bool(const struct emub_parse *p, const char *key, const char *s, bool *out)
{
	if (!parse_bool(s, out))
		return emub_parse_err(p, "[%s] %s: \"%s\" is not a boolean", p->grp, key, s);
	return 0;
}

int emub_key_file(const struct emub_parse *p, const char *key, const char *s, gchar **buf,
		  gsize *len)
{
	char *path = g_path_is_absolute(s) ? g_strdup(s)
					   : g_build_filename(p->base_dir, s, NULL);
	GError *ge = NULL;
	int r = 0;

	*buf = NULL;
	if (!g_file_get_contents(path, buf, len, &ge)) {
		r = emub_parse_err(p, "[%s] %s: %s", p->grp, key, ge->message);
		g_error_free(ge);
	}
	g_free(path);
	return r;
}

bool emub_name_in(const char *const *list, const char *name)
{
	for (; list && *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

int emub_key_gpio_line(const struct emub_parse *p, const char *key, const char *s, int *out)
{
	guint32 v;

	if (!s || !*s || !strcmp(s, "none")) {
		*out = -1;
		return 0;
	}
	if (!parse_u32(s, &v) || v >= EMUB_MAX_LINES)
		return emub_parse_err(p, "[%s] %s: \"%s\" is not a line offset", p->grp, key,
				      s);
	*out = (int)v;
	return 0;
}

static char *get_str(GKeyFile *kf, const char *grp, const char *key)
{
	char *v = g_key_file_get_string(kf, grp, key, NULL);

	if (v)
		g_strstrip(v);
	return v;
}

static char **get_list(GKeyFile *kf, const char *grp, const char *key)
{
	char **l = g_key_file_get_string_list(kf, grp, key, NULL, NULL);
	char **out;
	GPtrArray *a;

	if (!l)
		return NULL;
	a = g_ptr_array_new();
	for (char **p = l; *p; p++) {
		g_strstrip(*p);
		if (**p)
			g_ptr_array_add(a, g_strdup(*p));
	}
	g_ptr_array_add(a, NULL);
	g_strfreev(l);
	out = (char **)g_ptr_array_free(a, FALSE);
	return out;
}

static int parse_board(GKeyFile *kf, const char *base_dir, struct emub_board_desc *d, char *err,
		       size_t errsz)
{
	static const char *const grp = "board";
	gsize nkeys = 0;
	char **keys = g_key_file_get_keys(kf, grp, &nkeys, NULL);
	GPtrArray *dk = g_ptr_array_new(), *dv = g_ptr_array_new();
	int r = 0;

	if (!keys) {
		g_ptr_array_free(dk, TRUE);
		g_ptr_array_free(dv, TRUE);
		return ERR("[board]: section missing");
	}
	for (gsize i = 0; i < nkeys && !r; i++) {
		const char *k = keys[i];
		char *v = get_str(kf, grp, k);

		if (!strcmp(k, "name")) {
			g_free(d->name);
			d->name = g_strdup(v);
		} else if (!strcmp(k, "compatible")) {
			g_strfreev(d->compatible);
			d->compatible = get_list(kf, grp, k);
		} else if (!strcmp(k, "model")) {
			g_free(d->model);
			d->model = g_strdup(v);
		} else if (!strcmp(k, "pacing")) {
			if (!strcmp(v, "fast"))
				d->realtime = false;
			else if (!strcmp(v, "realtime"))
				d->realtime = true;
			else
				r = ERR("[board] pacing: \"%s\" is neither fast nor realtime",
					v);
		} else if (!strcmp(k, "firmware_dirs")) {
			char **l = get_list(kf, grp, k);

			for (char **p = l; p && *p; p++) {
				if (!g_path_is_absolute(*p)) {
					char *abs = g_build_filename(base_dir, *p, NULL);

					g_free(*p);
					*p = abs;
				}
			}
			g_strfreev(d->firmware_dirs);
			d->firmware_dirs = l;
		} else if (g_str_has_prefix(k, "dmi.") && k[4]) {
			if (strchr(k + 4, '/') || !strcmp(k + 4, "..") || !strcmp(k + 4, "."))
				r = ERR("[board] %s: bad DMI key", k);
			g_ptr_array_add(dk, g_strdup(k + 4));
			g_ptr_array_add(dv, g_strdup(v));
		} else {
			r = ERR("[board]: unknown key \"%s\"", k);
		}
		g_free(v);
	}
	g_strfreev(keys);
	g_ptr_array_add(dk, NULL);
	g_ptr_array_add(dv, NULL);
	d->dmi_keys = (char **)g_ptr_array_free(dk, FALSE);
	d->dmi_vals = (char **)g_ptr_array_free(dv, FALSE);
	if (!r && (!d->name || !*d->name))
		r = ERR("[board] name: missing");
	if (!r && !d->compatible && !d->dmi_keys[0])
		r = ERR("[board]: needs compatible (device tree) or dmi.* keys (ACPI)");
	return r;
}

static int parse_adapter(GKeyFile *kf, const char *grp, struct emub_board_desc *d, char *err,
			 size_t errsz)
{
	struct emub_adapter_desc *a;
	guint32 nr, v;
	gsize nkeys = 0;
	char **keys;
	int r = 0;

	if (!parse_u32(grp + strlen("adapter "), &nr) || nr > 255)
		return ERR("[%s]: the adapter number must be 0..255", grp);
	for (int i = 0; i < d->nadapters; i++)
		if (d->adapters[i].nr == (int)nr)
			return ERR("[%s]: adapter %u defined twice", grp, nr);
	if (d->nadapters >= EMUB_MAX_ADAPTERS)
		return ERR("[%s]: at most %d adapters", grp, EMUB_MAX_ADAPTERS);
	a = &d->adapters[d->nadapters++];
	a->nr = (int)nr;
	a->hz = 100000;
	a->nak_errno = ENXIO;
	keys = g_key_file_get_keys(kf, grp, &nkeys, NULL);
	for (gsize i = 0; i < nkeys && !r; i++) {
		const char *k = keys[i];
		char *s = get_str(kf, grp, k);

		if (!strcmp(k, "name")) {
			g_free(a->name);
			a->name = g_strdup(s);
		} else if (!strcmp(k, "speed")) {
			if (!parse_u32(s, &v) || v < 1000 || v > 5000000)
				r = ERR("[%s] speed: \"%s\" is not 1000..5000000 Hz", grp, s);
			a->hz = v;
		} else if (!strcmp(k, "max_transfer")) {
			if (!parse_u32(s, &v) || v > 65535)
				r = ERR("[%s] max_transfer: \"%s\" is not 0..65535", grp, s);
			a->max_transfer = (guint16)v;
		} else if (!strcmp(k, "host_delay_us")) {
			if (!parse_u32(s, &v) || v > 1000000)
				r = ERR("[%s] host_delay_us: \"%s\" is not 0..1000000", grp, s);
			a->host_delay_us = v;
		} else if (!strcmp(k, "of_path")) {
			/* an absolute node path, each part a node name */
			bool ok = s[0] == '/' && s[1] && !strstr(s, "//") &&
				  s[strlen(s) - 1] != '/' && strlen(s) < 200;

			for (const char *c = s; ok && *c; c++)
				ok = g_ascii_isalnum(*c) || strchr("/@,._+-", *c);
			if (!ok)
				r = ERR("[%s] of_path: \"%s\" is not a device-tree node path "
					"(/soc/i2c@7000c400)",
					grp, s);
			g_free(a->of_path);
			a->of_path = g_strdup(s);
		} else if (!strcmp(k, "smbus_only")) {
			if (!parse_bool(s, &a->smbus_only))
				r = ERR("[%s] smbus_only: \"%s\" is not a boolean", grp, s);
		} else if (!strcmp(k, "host_notify")) {
			if (!parse_bool(s, &a->host_notify))
				r = ERR("[%s] host_notify: \"%s\" is not a boolean", grp, s);
		} else if (!strcmp(k, "nak_errno")) {
			if (!strcmp(s, "ENXIO"))
				a->nak_errno = ENXIO;
			else if (!strcmp(s, "EREMOTEIO"))
				a->nak_errno = EREMOTEIO;
			else if (!strcmp(s, "EIO"))
				a->nak_errno = EIO;
			else
				r = ERR("[%s] nak_errno: \"%s\" is not ENXIO, EREMOTEIO or EIO",
					grp, s);
		} else {
			r = ERR("[%s]: unknown key \"%s\"", grp, k);
		}
		g_free(s);
	}
	g_strfreev(keys);
	if (!r && !a->name)
		a->name = g_strdup_printf("emuboard adapter %d", a->nr);
	return r;
}

/* Which model takes @key, and its names for a message ("a or b"); NULL: none. */
static char *model_of_key(const char *key)
{
	for (const struct emub_family *const *f = emub_families; *f; f++)
		for (const struct emub_chip_model *const *m = (*f)->chips; m && *m; m++)
			if (emub_name_in((*m)->keys, key))
				return g_strjoinv(" or ", (char **)(*m)->names);
	return NULL;
}

/* The keys of every [chip NAME], whatever its model. */
static int parse_chip_key(struct emub_chip_desc *c, const char *k, const char *s, GKeyFile *kf,
			  const struct emub_parse *p, bool *have_bound)
{
	const char *grp = p->grp;
	char *err = p->err;
	size_t errsz = p->errsz;
	guint32 v;

	if (!strcmp(k, "adapter") || !strcmp(k, "address") || !strcmp(k, "model"))
		return 0; /* read before */
	if (!strcmp(k, "compatible")) {
		g_strfreev(c->compatible);
		c->compatible = get_list(kf, grp, k);
	} else if (!strcmp(k, "driver")) {
		g_free(c->driver);
		c->driver = *s ? g_strdup(s) : NULL;
	} else if (!strcmp(k, "bound")) {
		*have_bound = true;
		return emub_key_bool(p, k, s, &c->bound);
	} else if (!strcmp(k, "power")) {
		if (!strcmp(s, "driver"))
			c->power_driver = true;
		else if (!strcmp(s, "always-on"))
			c->power_driver = false;
		else
			return ERR("[%s] power: \"%s\" is neither driver nor always-on", grp,
				   s);
	} else if (!strcmp(k, "reset_gpio") || !strcmp(k, "chg_gpio")) {
		return emub_key_gpio_line(p, k, s,
					  !strcmp(k, "reset_gpio") ? &c->reset_gpio
								   : &c->chg_gpio);
	} else if (!strcmp(k, "int_gpio")) {
		if (!c->cm->int_gpio)
			return ERR(
				"[%s] int_gpio: model %s has no INT pin by that name (chg_gpio)",
				grp, c->model);
		return emub_key_gpio_line(p, k, s, &c->chg_gpio);
	} else if (!strcmp(k, "acpi_id")) {
		bool ok = strlen(s) >= 7 && strlen(s) <= 8;

		for (const char *q = s; ok && *q; q++)
			ok = g_ascii_isupper(*q) || g_ascii_isdigit(*q);
		g_free(c->acpi_id);
		c->acpi_id = g_strdup(s);
		if (!ok)
			return ERR(
				"[%s] acpi_id: \"%s\" is not an ACPI or PNP id (e.g. ABCD1234)",
				grp, s);
	} else if (!strcmp(k, "acpi_path")) {
		g_free(c->acpi_path);
		c->acpi_path = g_strdup(s);
	} else if (!strcmp(k, "touchscreen.size_x")) {
		return emub_key_u32(p, k, s, 65535, &c->ts_size_x);
	} else if (!strcmp(k, "touchscreen.size_y")) {
		return emub_key_u32(p, k, s, 65535, &c->ts_size_y);
	} else if (!strcmp(k, "touchscreen.swapped_x_y")) {
		return emub_key_bool(p, k, s, &c->ts_swapped);
	} else if (!strcmp(k, "touchscreen.inverted_x")) {
		return emub_key_bool(p, k, s, &c->ts_inv_x);
	} else if (!strcmp(k, "touchscreen.inverted_y")) {
		return emub_key_bool(p, k, s, &c->ts_inv_y);
	} else if (!strcmp(k, "irq_type")) {
		if (!strcmp(s, "level"))
			c->irq_level = true;
		else if (!strcmp(s, "edge"))
			c->irq_level = false;
		else
			return ERR("[%s] irq_type: \"%s\" is neither level nor edge", grp, s);
	} else if (!strcmp(k, "input_delay_ms")) {
		if (emub_key_u32(p, k, s, 600000, &v))
			return -EINVAL;
		c->input_delay_ms = (int)v;
	} else if (!strcmp(k, "bind_events")) {
		return emub_key_bool(p, k, s, &c->bind_events);
	} else if (!strcmp(k, "probe_delay_ms")) {
		if (emub_key_u32(p, k, s, 600000, &v))
			return -EINVAL;
		c->probe_delay_ms = (int)v;
	} else if (!strcmp(k, "fault.nak")) {
		char **l = get_list(kf, grp, k);
		int r = 0;

		for (char **q = l; q && *q && !r; q++) {
			guint16 a;

			if (!parse_u32(*q, &v) || v > 0x7f)
				r = ERR("[%s] fault.nak: \"%s\" is not a 7-bit address", grp,
					*q);
			a = (guint16)v;
			g_array_append_val(c->nak_addrs, a);
		}
		g_strfreev(l);
		return r;
	} else if (!strcmp(k, "fault.no_input")) {
		return emub_key_bool(p, k, s, &c->no_input);
	} else if (!strcmp(k, "fault.slow_factor")) {
		return emub_key_u32(p, k, s, 1000, &c->slow_factor);
	} else if (emub_name_in(c->cm->keys, k)) {
		return c->cm->parse_key(c, k, s, p);
	} else {
		g_autofree char *owner = model_of_key(k);

		if (owner)
			return ERR("[%s] %s: only for model = %s", grp, k, owner);
		return ERR("[%s]: unknown key \"%s\"", grp, k);
	}
	return 0;
}

static int parse_chip(GKeyFile *kf, const char *grp, const char *base_dir,
		      struct emub_board_desc *d, char *err, size_t errsz)
{
	const char *cname = grp + strlen("chip ");
	const struct emub_parse p = { .grp = grp,
				      .base_dir = base_dir,
				      .err = err,
				      .errsz = errsz };
	struct emub_chip_desc *c;
	bool have_bound = false;
	g_autofree char *adapter = NULL, *address = NULL;
	gsize nkeys = 0;
	guint32 v = 0;
	int r = 0;

	if (!*cname || strchr(cname, '/') || strchr(cname, '@') || strchr(cname, ' '))
		return ERR("[%s]: the chip name must be a device-tree node name", grp);
	if (d->nchips >= EMUB_MAX_CHIPS)
		return ERR("[%s]: at most %d chips", grp, EMUB_MAX_CHIPS);
	c = &d->chips[d->nchips++];
	c->name = g_strdup(cname);
	c->reset_gpio = c->chg_gpio = -1;
	c->bind_events = true;
	c->power_driver = true;
	c->nak_addrs = g_array_new(FALSE, FALSE, sizeof(guint16));

	/* where it sits and what it is first: the model's keys are its own */
	adapter = get_str(kf, grp, "adapter");
	address = get_str(kf, grp, "address");
	c->model = get_str(kf, grp, "model");
	if (adapter && (!parse_u32(adapter, &v) || v > 255))
		return ERR("[%s] adapter: \"%s\" is not a number <= 255", grp, adapter);
	c->adapter = (int)v;
	if (address && (!parse_u32(address, &v) || v > 0x7f))
		return ERR("[%s] address: \"%s\" is not a number <= 127", grp, address);
	c->addr = (guint16)v;
	if (!c->model || !(c->cm = emub_chip_model_find(c->model))) {
		g_autofree char *names = emub_chip_model_names();

		if (!c->model)
			return ERR("[%s] model: missing (%s)", grp, names);
		return ERR("[%s] model: \"%s\" is not a chip model (%s)", grp, c->model, names);
	}
	c->fam = g_malloc0(c->cm->fam_size ? c->cm->fam_size : 1);
	if (c->cm->init)
		c->cm->init(c);

	g_auto(GStrv) keys = g_key_file_get_keys(kf, grp, &nkeys, NULL);
	for (gsize i = 0; i < nkeys && !r; i++) {
		g_autofree char *s = get_str(kf, grp, keys[i]);

		r = parse_chip_key(c, keys[i], s, kf, &p, &have_bound);
	}
	if (r)
		return r;
	if (!adapter)
		return ERR("[%s] adapter: missing", grp);
	if (!address)
		return ERR("[%s] address: missing", grp);
	if (c->cm->check && (r = c->cm->check(c, &p)))
		return r;
	if (c->acpi_id && (!d->dmi_keys || !d->dmi_keys[0]))
		return ERR("[%s] acpi_id: an ACPI-enumerated chip needs an ACPI machine "
			   "([board] dmi.*)",
			   grp);
	if (c->acpi_id && c->compatible)
		return ERR("[%s] acpi_id: a chip is enumerated by ACPI or by its compatible, "
			   "not both",
			   grp);
	if (c->driver && !emub_find_driver(c->driver)) {
		g_autofree char *names = emub_driver_names();

		return ERR("[%s] driver: no model of kernel driver \"%s\" (have %s)", grp,
			   c->driver, names);
	}
	if (!have_bound)
		c->bound = c->driver != NULL;
	if (c->bound && !c->driver)
		return ERR("[%s] bound: true needs a driver", grp);
	return 0;
}

static int parse_gpiochip(GKeyFile *kf, struct emub_board_desc *d, char *err, size_t errsz)
{
	static const char *const grp = "gpiochip";
	gsize nkeys = 0;
	char **keys = g_key_file_get_keys(kf, grp, &nkeys, NULL);
	guint32 v;
	int r = 0;

	for (gsize i = 0; i < nkeys && !r; i++) {
		const char *k = keys[i];
		char *s = get_str(kf, grp, k);

		if (!strcmp(k, "label")) {
			g_free(d->gpio_label);
			d->gpio_label = g_strdup(s);
		} else if (!strcmp(k, "lines")) {
			if (!parse_u32(s, &v) || v < 1 || v > EMUB_MAX_LINES)
				r = ERR("[gpiochip] lines: \"%s\" is not 1..%d", s,
					EMUB_MAX_LINES);
			else
				d->gpio_nlines = (int)v;
		} else if (g_str_has_prefix(k, "line.")) {
			if (!parse_u32(k + 5, &v) || v >= EMUB_MAX_LINES)
				r = ERR("[gpiochip] %s: the line offset must be 0..%d", k,
					EMUB_MAX_LINES - 1);
			else {
				g_free(d->line_names[v]);
				d->line_names[v] = g_strdup(s);
			}
		} else {
			r = ERR("[gpiochip]: unknown key \"%s\"", k);
		}
		g_free(s);
	}
	g_strfreev(keys);
	return r;
}

static int check_wiring(struct emub_board_desc *d, char *err, size_t errsz)
{
	for (int i = 0; i < d->nchips; i++) {
		struct emub_chip_desc *c = &d->chips[i];
		bool found = false;

		for (int j = 0; j < d->nadapters; j++)
			found |= d->adapters[j].nr == c->adapter;
		if (!found)
			return ERR("[chip %s] adapter: no [adapter %d]", c->name, c->adapter);
		for (int j = 0; j < i; j++) {
			struct emub_chip_desc *o = &d->chips[j];

			if (!strcmp(o->name, c->name))
				return ERR("[chip %s]: defined twice", c->name);
			if (o->adapter == c->adapter && o->addr == c->addr)
				return ERR("[chip %s] address: 0x%02x is taken by [chip %s]",
					   c->name, c->addr, o->name);
			if (c->reset_gpio >= 0 &&
			    (c->reset_gpio == o->reset_gpio || c->reset_gpio == o->chg_gpio))
				return ERR(
					"[chip %s] reset_gpio: line %d is wired to [chip %s]",
					c->name, c->reset_gpio, o->name);
			if (c->chg_gpio >= 0 &&
			    (c->chg_gpio == o->reset_gpio || c->chg_gpio == o->chg_gpio))
				return ERR("[chip %s] chg_gpio: line %d is wired to [chip %s]",
					   c->name, c->chg_gpio, o->name);
		}
		if (c->reset_gpio >= 0 && c->reset_gpio == c->chg_gpio)
			return ERR("[chip %s]: reset_gpio and chg_gpio are the same line",
				   c->name);
		if (c->reset_gpio >= d->gpio_nlines || c->chg_gpio >= d->gpio_nlines)
			return ERR("[chip %s]: GPIO line beyond [gpiochip] lines = %d", c->name,
				   d->gpio_nlines);
	}
	return 0;
}

int emub_board_parse(const char *text, const char *base_dir, struct emub_board_desc *d,
		     char *err, size_t errsz)
{
	GKeyFile *kf = g_key_file_new();
	GError *gerr = NULL;
	gsize ngroups = 0;
	char **groups;
	int r = 0;

	memset(d, 0, sizeof(*d));
	d->gpio_nlines = 8;
	if (!g_key_file_load_from_data(kf, text, strlen(text), G_KEY_FILE_NONE, &gerr)) {
		snprintf(err, errsz, "%s", gerr->message);
		g_error_free(gerr);
		g_key_file_free(kf);
		return -EINVAL;
	}
	groups = g_key_file_get_groups(kf, &ngroups);
	r = parse_board(kf, base_dir ? base_dir : ".", d, err, errsz);
	if (!r && g_key_file_has_group(kf, "gpiochip"))
		r = parse_gpiochip(kf, d, err, errsz);
	for (gsize i = 0; i < ngroups && !r; i++) {
		const char *g = groups[i];

		if (!strcmp(g, "board") || !strcmp(g, "gpiochip"))
			continue;
		if (g_str_has_prefix(g, "adapter "))
			r = parse_adapter(kf, g, d, err, errsz);
		else if (g_str_has_prefix(g, "chip "))
			r = parse_chip(kf, g, base_dir ? base_dir : ".", d, err, errsz);
		else if ((r = emub_spi_parse_group(kf, g, d, err, errsz)) == 1)
			r = ERR("[%s]: unknown section", g);
	}
	g_strfreev(groups);
	g_key_file_free(kf);
	if (!r && d->nadapters == 0 && !emub_spi_has_controllers(d))
		r = ERR("board has no [adapter N] or [spi N] section");
	if (!r) {
		for (int i = 0; i < EMUB_MAX_LINES; i++)
			if (d->line_names[i] && i >= d->gpio_nlines)
				r = ERR("[gpiochip] line.%d: beyond lines = %d", i,
					d->gpio_nlines);
	}
	if (!r)
		r = check_wiring(d, err, errsz);
	if (!r)
		r = emub_spi_check(d, err, errsz);
	if (!d->gpio_label)
		d->gpio_label = g_strdup("emuboard-gpio");
	if (r)
		emub_board_desc_clear(d);
	return r;
}

void emub_board_desc_clear(struct emub_board_desc *d)
{
	g_free(d->name);
	g_strfreev(d->compatible);
	g_free(d->model);
	g_strfreev(d->dmi_keys);
	g_strfreev(d->dmi_vals);
	g_strfreev(d->firmware_dirs);
	g_free(d->gpio_label);
	for (int i = 0; i < EMUB_MAX_LINES; i++)
		g_free(d->line_names[i]);
	for (int i = 0; i < d->nadapters; i++) {
		g_free(d->adapters[i].name);
		g_free(d->adapters[i].of_path);
	}
	for (int i = 0; i < d->nchips; i++) {
		struct emub_chip_desc *c = &d->chips[i];

		g_free(c->name);
		g_free(c->model);
		g_strfreev(c->compatible);
		g_free(c->driver);
		g_free(c->acpi_id);
		g_free(c->acpi_path);
		if (c->fam && c->cm && c->cm->clear)
			c->cm->clear(c);
		g_free(c->fam);
		if (c->nak_addrs)
			g_array_free(c->nak_addrs, TRUE);
	}
	emub_spi_board_free(d->spi);
	memset(d, 0, sizeof(*d));
}
