// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A board made from a touchfw board profile (a compiled .dtb), for
 * `touchfw board rehearse` and `emuboard --profile`: the board's identity
 * (root compatible, or DMI strings for a dmi-match), one [adapter N] per
 * adapter-name, the one gpiochip the profile's lines are on, and one
 * [chip NAME] per controller node.  The core writes the keys every
 * family shares; the node's family (emub_family.rehearse) adds the model,
 * its compatible or ACPI id, the part's identity and its state.  The text
 * is an ordinary board file (tests/emul/README.md), parsed as any other.
 * The profile format is boards/README.md's; this reads it with libfdt and
 * links nothing of touchfw's.
 */
#include <errno.h>
#include <libfdt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "emub-priv.h"

struct emub_profile_ctl {
	const void *fdt;
	int off;
	char path[256];
	const char *hardware, *fw_version;
	bool bootloader, acpi;
	GString *keys;
	char *err;
	size_t errsz;
};

const char *emub_profile_node(const struct emub_profile_ctl *c)
{
	return c->path;
}

const char *emub_profile_str(const struct emub_profile_ctl *c, const char *prop)
{
	int len = 0;
	const char *v = fdt_getprop(c->fdt, c->off, prop, &len);

	/* a string: NUL-terminated within the property */
	if (!v || len < 1 || v[len - 1] || !memchr(v, '\0', (size_t)len))
		return NULL;
	return v;
}

bool emub_profile_u32(const struct emub_profile_ctl *c, const char *prop, guint32 *out)
{
	int len = 0;
	const fdt32_t *v = fdt_getprop(c->fdt, c->off, prop, &len);

	if (!v || len != 4)
		return false;
	*out = fdt32_to_cpu(*v);
	return true;
}

bool emub_profile_flag(const struct emub_profile_ctl *c, const char *prop)
{
	return fdt_getprop(c->fdt, c->off, prop, NULL) != NULL;
}

const char *emub_profile_hardware(const struct emub_profile_ctl *c)
{
	return c->hardware;
}

const char *emub_profile_fw_version(const struct emub_profile_ctl *c)
{
	return c->fw_version;
}

bool emub_profile_bootloader(const struct emub_profile_ctl *c)
{
	return c->bootloader;
}

bool emub_profile_acpi(const struct emub_profile_ctl *c)
{
	return c->acpi;
}

void emub_profile_key(struct emub_profile_ctl *c, const char *key, const char *fmt, ...)
{
	va_list ap;

	g_string_append_printf(c->keys, "%s = ", key);
	va_start(ap, fmt);
	g_string_append_vprintf(c->keys, fmt, ap);
	va_end(ap);
	g_string_append_c(c->keys, '\n');
}

int emub_profile_err(struct emub_profile_ctl *c, const char *field, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	snprintf(c->err, c->errsz, "%s: %s: ", c->path, field);
	n = strlen(c->err);
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errsz - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

void emub_profile_ident(struct emub_profile_ctl *c, const char *model, const char *acpi_id,
			const char *compatible)
{
	emub_profile_key(c, "model", "%s", model);
	if (emub_profile_acpi(c))
		emub_profile_key(c, "acpi_id", "%s", acpi_id);
	else
		emub_profile_key(c, "compatible", "%s", compatible);
}

/* ------------------------------------------------------------ the board */

struct gen {
	const void *fdt;
	const struct emub_profile_opts *o;
	GString *out;
	char *adapters[EMUB_MAX_ADAPTERS]; /* adapter-name of bus i + 1 */
	int nadapters;
	char *gpio_label;
	const char *gpio_label_field;
	char *line_names[EMUB_MAX_LINES];
	int nlines;
	int first_free; /* lines past every numbered one: for named lines */
	char *err;
	size_t errsz;
};

#define GEN_ERR(g, ...) (snprintf((g)->err, (g)->errsz, __VA_ARGS__), -EINVAL)

/* A DMI pattern (a shell glob, boards/README.md) as a string it matches. */
static char *dmi_value(const char *pat)
{
	GString *s = g_string_new(NULL);

	for (const char *p = pat; *p; p++) {
		if (*p == '*')
			continue;
		if (*p == '?') {
			g_string_append_c(s, 'X');
		} else if (*p == '[') {
			const char *end = strchr(p + 1, ']');

			/* the class's first character (a negated one: any other) */
			if (end && end > p + 1 && p[1] != '!' && p[1] != '^') {
				g_string_append_c(s, p[1]);
				p = end;
			} else if (end) {
				g_string_append_c(s, p[2] == '~' ? '_' : '~');
				p = end;
			} else {
				g_string_append_c(s, '[');
			}
		} else if (*p == '\\' && p[1]) {
			g_string_append_c(s, *++p);
		} else {
			g_string_append_c(s, *p);
		}
	}
	return g_string_free(s, FALSE);
}

static int board_section(struct gen *g, bool *acpi)
{
	int len = 0, dmi;
	const char *model = fdt_getprop(g->fdt, 0, "model", &len);
	const char *compat = fdt_getprop(g->fdt, 0, "board-compatible", &len);

	g_string_append_printf(g->out, "[board]\nname = %s\n",
			       model && *model ? model : "rehearsed profile");
	if (compat && len > 0) {
		g_string_append(g->out, "compatible = ");
		for (int i = 0; i < len; i += (int)strlen(compat + i) + 1)
			g_string_append_printf(g->out, "%s%s", i ? ";" : "", compat + i);
		g_string_append_c(g->out, '\n');
		*acpi = false;
	} else {
		dmi = fdt_subnode_offset(g->fdt, 0, "dmi-match");
		if (dmi < 0)
			return GEN_ERR(g, "/: board-compatible or dmi-match: missing: the "
					  "emulated board needs an identity");
		for (int p = fdt_first_property_offset(g->fdt, dmi); p >= 0;
		     p = fdt_next_property_offset(g->fdt, p)) {
			const char *name, *v = fdt_getprop_by_offset(g->fdt, p, &name, &len);
			char *key = g_strdup(name), *val;

			if (!v || len < 1 || v[len - 1]) {
				g_free(key);
				return GEN_ERR(g, "/dmi-match: %s: not a string", name);
			}
			g_strdelimit(key, "-", '_');
			val = dmi_value(v);
			g_string_append_printf(g->out, "dmi.%s = %s\n", key, val);
			g_free(val);
			g_free(key);
		}
		*acpi = true;
	}
	if (g->o->firmware_dir)
		g_string_append_printf(g->out, "firmware_dirs = %s\n", g->o->firmware_dir);
	g_string_append(g->out, "pacing = fast\n\n");
	return 0;
}

/* The emulated bus of the node's adapter-name or adapter-path (numbered
 * from 1): the adapter of that name, or the one at that device-tree path. */
static int adapter_of(struct gen *g, struct emub_profile_ctl *c)
{
	const char *name = emub_profile_str(c, "adapter-name");
	const char *path = emub_profile_str(c, "adapter-path");
	const char *field = name ? "adapter-name" : "adapter-path";
	char *key;

	if (!name && !path)
		return emub_profile_err(c, "adapter-name", "missing");
	key = name ? g_strdup_printf("name %s", name) : g_strdup_printf("path %s", path);
	for (int i = 0; i < g->nadapters; i++)
		if (!strcmp(g->adapters[i], key)) {
			g_free(key);
			return i + 1;
		}
	if (g->nadapters == EMUB_MAX_ADAPTERS) {
		g_free(key);
		return emub_profile_err(c, field, "\"%s\": more than %d adapters on one board",
					name ? name : path, EMUB_MAX_ADAPTERS);
	}
	g->adapters[g->nadapters++] = key;
	return g->nadapters;
}

/* The first line past the numbered ones nobody has, now called @name:
 * its offset, or -1. */
static int free_line(struct gen *g, const char *name)
{
	for (int i = 0; i < EMUB_MAX_LINES; i++)
		if (g->line_names[i] && !strcmp(g->line_names[i], name))
			return i;
	for (int i = g->first_free; i < EMUB_MAX_LINES; i++)
		if (!g->line_names[i]) {
			g->line_names[i] = g_strdup(name);
			if (i + 1 > g->nlines)
				g->nlines = i + 1;
			return i;
		}
	return -1;
}

/* The line a *-gpio-{chip,line,name} triple names on the board's one
 * gpiochip: its offset, -1 when the node has none, or -EINVAL. */
static int gpio_line(struct gen *g, struct emub_profile_ctl *c, const char *what,
		     const char *label)
{
	char f_chip[40], f_line[40], f_name[40];
	const char *chip, *name;
	guint32 line;

	snprintf(f_chip, sizeof(f_chip), "%s-gpio-chip", what);
	snprintf(f_line, sizeof(f_line), "%s-gpio-line", what);
	snprintf(f_name, sizeof(f_name), "%s-gpio-name", what);
	chip = emub_profile_str(c, f_chip);
	name = emub_profile_str(c, f_name);
	if (name) {
		/* by name: the next free line, called so */
		for (int i = 0; i < EMUB_MAX_LINES; i++)
			if (g->line_names[i] && !strcmp(g->line_names[i], name))
				return i;
		if (free_line(g, name) < 0)
			return emub_profile_err(c, f_name,
						"\"%s\": no free line on the emulated chip",
						name);
		return free_line(g, name);
	}
	if (!emub_profile_u32(c, f_line, &line))
		return chip ? emub_profile_err(c, f_line, "missing (%s is given)", f_chip) : -1;
	if (!chip)
		return emub_profile_err(c, f_chip, "missing (%s is given)", f_line);
	if (line >= EMUB_MAX_LINES)
		return emub_profile_err(c, f_line,
					"%u: the emulated gpiochip has %d lines (0..%d)",
					(unsigned)line, EMUB_MAX_LINES, EMUB_MAX_LINES - 1);
	if (g->gpio_label && strcmp(g->gpio_label, chip))
		return emub_profile_err(c, f_chip,
					"\"%s\": the emulated board has one gpiochip, and "
					"%s names it \"%s\"",
					chip, g->gpio_label_field, g->gpio_label);
	if (!g->gpio_label) {
		g->gpio_label = g_strdup(chip);
		g->gpio_label_field = g_intern_string(f_chip);
	}
	if (g->line_names[line] && strcmp(g->line_names[line], label))
		return emub_profile_err(c, f_line, "%u is also %s's line", (unsigned)line,
					g->line_names[line]);
	g_free(g->line_names[line]);
	g->line_names[line] = g_strdup(label);
	if ((int)line + 1 > g->nlines)
		g->nlines = (int)line + 1;
	return (int)line;
}

static const struct emub_family *family_named(const char *name)
{
	for (const struct emub_family *const *f = emub_families; *f; f++)
		if (!strcmp((*f)->name, name))
			return *f;
	return NULL;
}

static char *family_names(void)
{
	GString *s = g_string_new(NULL);

	for (const struct emub_family *const *f = emub_families; *f; f++)
		if ((*f)->rehearse)
			g_string_append_printf(s, "%s%s", s->len ? ", " : "", (*f)->name);
	return g_string_free(s, FALSE);
}

static int chip_section(struct gen *g, struct emub_profile_ctl *c, const char *node)
{
	const char *irq_what;
	guint32 reg_unused;
	static const struct {
		const char *prop, *key;
	} ts[] = {
		{ "touchscreen-swapped-x-y", "touchscreen.swapped_x_y" },
		{ "touchscreen-inverted-x", "touchscreen.inverted_x" },
		{ "touchscreen-inverted-y", "touchscreen.inverted_y" },
	};
	const char *family = emub_profile_str(c, "family");
	const char *bus = emub_profile_str(c, "bus");
	const char *driver = emub_profile_str(c, "driver");
	const char *power = emub_profile_str(c, "power");
	const struct emub_family *fam;
	char label[300], *sect = g_strndup(node, strcspn(node, "@"));
	guint32 reg, v;
	int nr, reset, chg, r;

	if (!family) {
		g_free(sect);
		return emub_profile_err(c, "family", "missing");
	}
	fam = family_named(family);
	if (!fam || !fam->rehearse) {
		char *names = family_names();

		r = emub_profile_err(c, "family",
				     fam ? "\"%s\": the emulator's models of this family can "
					   "not be made from a profile (rehearsals build %s)"
					 : "\"%s\": the emulator has no chip model of this "
					   "family (rehearsals build %s)",
				     family, names);
		g_free(names);
		g_free(sect);
		return r;
	}
	if (!bus || strcmp(bus, "i2c")) {
		g_free(sect);
		return emub_profile_err(c, "bus",
					"\"%s\": a rehearsal builds i2c controllers only (the "
					"emulator's spi buses are not made from profiles yet)",
					bus ? bus : "(missing)");
	}
	if (!emub_profile_u32(c, "reg", &reg) || reg > 0x7f) {
		g_free(sect);
		return emub_profile_err(c, "reg", "missing or not a 7-bit address");
	}
	nr = adapter_of(g, c);
	if (nr < 0) {
		g_free(sect);
		return nr;
	}
	if (driver && *driver && !emub_find_driver(driver)) {
		char *names = emub_driver_names();

		r = emub_profile_err(c, "driver",
				     "\"%s\": the emulator models no such driver (it has %s)",
				     driver, names);
		g_free(names);
		g_free(sect);
		return r;
	}
	snprintf(label, sizeof(label), "%s reset", sect);
	reset = gpio_line(g, c, "reset", label);
	snprintf(label, sizeof(label), "%s irq", sect);
	/* the interrupt line: irq-gpio-*, or chg-gpio-* as profiles first
	 * named it (touchfw-board(5)) */
	irq_what = emub_profile_str(c, "chg-gpio-chip") ||
				   emub_profile_str(c, "chg-gpio-name") ||
				   emub_profile_u32(c, "chg-gpio-line", &reg_unused)
			   ? "chg"
			   : "irq";
	chg = reset < -1 ? reset : gpio_line(g, c, irq_what, label);
	if (chg < -1) {
		g_free(sect);
		return chg;
	}
	if (chg == -1) {
		/* The kernel gives these drivers their interrupt from the device
		 * tree or ACPI whatever the profile says (it lists lines for
		 * touchfw's own use): the chip's goes to a line of its own. */
		snprintf(label, sizeof(label), "%s irq (not in the profile)", sect);
		chg = free_line(g, label);
		if (chg < 0) {
			g_free(sect);
			return emub_profile_err(c, "irq-gpio-line",
						"no free line on the emulated chip for the "
						"interrupt");
		}
	}
	g_string_append_printf(g->out, "[chip %s]\nadapter = %d\naddress = 0x%02x\n", sect, nr,
			       (unsigned)reg);
	if (driver && *driver)
		g_string_append_printf(g->out, "driver = %s\n", driver);
	if (power)
		g_string_append_printf(g->out, "power = %s\n", power);
	if (reset >= 0)
		g_string_append_printf(g->out, "reset_gpio = %d\n", reset);
	if (chg >= 0)
		g_string_append_printf(g->out, "chg_gpio = %d\n", chg);
	if (emub_profile_u32(c, "touchscreen-size-x", &v))
		g_string_append_printf(g->out, "touchscreen.size_x = %u\n", (unsigned)v);
	if (emub_profile_u32(c, "touchscreen-size-y", &v))
		g_string_append_printf(g->out, "touchscreen.size_y = %u\n", (unsigned)v);
	for (size_t i = 0; i < G_N_ELEMENTS(ts); i++)
		if (emub_profile_flag(c, ts[i].prop))
			g_string_append_printf(g->out, "%s = true\n", ts[i].key);
	g_free(sect);
	r = fam->rehearse(c);
	if (r)
		return r;
	g_string_append_printf(g->out, "%s\n", c->keys->str);
	return 0;
}

/* Which NODE=VALUE of @list is for @path (NODE: the path or the node's name). */
static const char *value_for(const char *const *list, size_t n_list, const char *path,
			     const char *node, bool *used)
{
	for (size_t i = 0; i < n_list; i++) {
		const char *h = list[i], *eq = strchr(h, '=');
		size_t n = eq ? (size_t)(eq - h) : 0;

		if (eq && ((strlen(path) == n && !strncmp(h, path, n)) ||
			   (strlen(node) == n && !strncmp(h, node, n)))) {
			used[i] = true;
			return eq + 1;
		}
	}
	return NULL;
}

char *emub_board_from_profile(const char *dtb, const struct emub_profile_opts *o, char *err,
			      size_t errsz)
{
	struct gen g = { .o = o, .err = err, .errsz = errsz };
	gchar *buf = NULL;
	gsize len = 0;
	GError *ge = NULL;
	bool acpi = false, *used = g_new0(bool, o->n_hardware + 1),
	     *used_v = g_new0(bool, o->n_fw_version + 1);
	int ctls, r, n = 0;

	err[0] = '\0';
	if (!g_file_get_contents(dtb, &buf, &len, &ge)) {
		snprintf(err, errsz, "%s", ge->message);
		g_error_free(ge);
		g_free(used);
		g_free(used_v);
		return NULL;
	}
	g.fdt = buf;
	if (len < sizeof(struct fdt_header) || fdt_check_header(buf) ||
	    fdt_totalsize(buf) > len) {
		snprintf(err, errsz, "%s: not a compiled device tree", dtb);
		g_free(buf);
		g_free(used);
		g_free(used_v);
		return NULL;
	}
	g.out = g_string_new(NULL);
	r = board_section(&g, &acpi);
	ctls = r ? -1 : fdt_subnode_offset(buf, 0, "controllers");
	/* lines by name and interrupts the profile does not list go past
	 * every line it numbers */
	for (int off = ctls < 0 ? -1 : fdt_first_subnode(buf, ctls); off >= 0;
	     off = fdt_next_subnode(buf, off))
		for (int k = 0; k < 3; k++) {
			static const char *const props[] = { "reset-gpio-line", "irq-gpio-line",
							     "chg-gpio-line" };
			int len = 0;
			const fdt32_t *v = fdt_getprop(buf, off, props[k], &len);

			if (v && len == 4 && fdt32_to_cpu(*v) < EMUB_MAX_LINES &&
			    (int)fdt32_to_cpu(*v) + 1 > g.first_free)
				g.first_free = (int)fdt32_to_cpu(*v) + 1;
		}
	if (!r && ctls < 0)
		r = GEN_ERR(&g, "/controllers: missing");
	for (int off = r ? -1 : fdt_first_subnode(buf, ctls); !r && off >= 0;
	     off = fdt_next_subnode(buf, off)) {
		struct emub_profile_ctl c = { .fdt = buf,
					      .off = off,
					      .err = err,
					      .errsz = errsz };
		const char *node = fdt_get_name(buf, off, NULL);

		snprintf(c.path, sizeof(c.path), "/controllers/%s", node ? node : "?");
		c.hardware = value_for(o->hardware, o->n_hardware, c.path, node ? node : "",
				       used);
		c.fw_version = value_for(o->fw_version, o->n_fw_version, c.path,
					 node ? node : "", used_v);
		c.bootloader = o->bootloader;
		c.acpi = acpi;
		c.keys = g_string_new(NULL);
		r = chip_section(&g, &c, node ? node : "?");
		g_string_free(c.keys, TRUE);
		n++;
	}
	if (!r && !n)
		r = GEN_ERR(&g, "/controllers: no controller node");
	for (size_t i = 0; !r && i < o->n_hardware; i++)
		if (!used[i])
			r = GEN_ERR(&g, "--hardware %s: no controller node of that name",
				    o->hardware[i]);
	for (size_t i = 0; !r && i < o->n_fw_version; i++)
		if (!used_v[i])
			r = GEN_ERR(&g, "--fw-version %s: no controller node of that name",
				    o->fw_version[i]);
	for (int i = 0; !r && i < g.nadapters; i++) {
		/* "name NAME" or "path PATH" (adapter_of) */
		const char *v = strchr(g.adapters[i], ' ') + 1;

		if (g.adapters[i][0] == 'n')
			g_string_append_printf(g.out, "[adapter %d]\nname = %s\n", i + 1, v);
		else
			g_string_append_printf(g.out, "[adapter %d]\nof_path = %s\n", i + 1, v);
		g_string_append(g.out, "speed = 400000\n\n");
	}
	if (!r) {
		g_string_append_printf(g.out, "[gpiochip]\nlabel = %s\nlines = %d\n",
				       g.gpio_label ? g.gpio_label : "emuboard-gpio",
				       g.nlines ? g.nlines : 1);
		for (int i = 0; i < EMUB_MAX_LINES; i++)
			if (g.line_names[i])
				g_string_append_printf(g.out, "line.%d = %s\n", i,
						       g.line_names[i]);
	}
	for (int i = 0; i < g.nadapters; i++)
		g_free(g.adapters[i]);
	for (int i = 0; i < EMUB_MAX_LINES; i++)
		g_free(g.line_names[i]);
	g_free(g.gpio_label);
	g_free(buf);
	g_free(used);
	g_free(used_v);
	if (r) {
		g_string_free(g.out, TRUE);
		return NULL;
	}
	return g_string_free(g.out, FALSE);
}
