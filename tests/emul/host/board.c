// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Board description files (GKeyFile syntax): [board], [adapter N],
 * [chip NAME], [gpiochip].  The parser is strict: unknown sections or keys,
 * bad numbers and inconsistent wiring are errors naming the section and
 * key, so a typo in a board never silently changes what a test exercises.
 * The format is documented in tests/emul/README.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emub-priv.h"
#include "emub-spi.h"
#include "silead_model.h"

#define ERR(...) (snprintf(err, errsz, __VA_ARGS__), -EINVAL)

static bool parse_u32(const char *s, guint32 *out)
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

static bool parse_bool(const char *s, bool *out)
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

/* "1.0.AA": major.minor (decimal) and build (hex), as fw_version prints it. */
static bool parse_fw_version(const char *s, guint8 *ver, guint8 *build)
{
	unsigned int maj, min, b;
	char tail;

	if (sscanf(s, "%u.%u.%x%c", &maj, &min, &b, &tail) != 3)
		return false;
	if (maj > 15 || min > 15 || b > 255)
		return false;
	*ver = (guint8)(maj << 4 | min);
	*build = (guint8)b;
	return true;
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
		} else if (!strcmp(k, "smbus_only")) {
			if (!parse_bool(s, &a->smbus_only))
				r = ERR("[%s] smbus_only: \"%s\" is not a boolean", grp, s);
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

static int parse_gpio_line(const char *s, int *out)
{
	guint32 v;

	if (!s || !*s || !strcmp(s, "none")) {
		*out = -1;
		return 0;
	}
	if (!parse_u32(s, &v) || v >= EMUB_MAX_LINES)
		return -1;
	*out = (int)v;
	return 0;
}

/* "800x480" */
static bool parse_res(const char *s, guint16 *x, guint16 *y)
{
	unsigned int a, b;
	char tail;

	if (sscanf(s, "%ux%u%c", &a, &b, &tail) != 2 || a > 65535 || b > 65535)
		return false;
	*x = (guint16)a;
	*y = (guint16)b;
	return true;
}

static int parse_chip(GKeyFile *kf, const char *grp, const char *base_dir,
		      struct emub_board_desc *d, char *err, size_t errsz)
{
	const char *cname = grp + strlen("chip ");
	struct emub_chip_desc *c;
	bool have_adapter = false, have_addr = false, have_bound = false;
	gsize nkeys = 0;
	char **keys;
	guint32 v;
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
	c->state = EMUB_STATE_APP;
	c->nak_addrs = g_array_new(FALSE, FALSE, sizeof(guint16));
	c->ee_fill = 0xff;
	c->gx_cfg_version = 0x41;
	c->el_nak_iap_page = -1;
	c->el_bc_version = 0x6401;
	c->tp_fail_page = -1;
	c->tp_power_loss = -1;
	c->gx_x = 800;
	c->gx_y = 480;
	c->gx_touches = 5;
	c->gx_trigger = 1;

	keys = g_key_file_get_keys(kf, grp, &nkeys, NULL);
	g_auto(GStrv) keys_copy = keys; /* freed on every return */
	for (gsize i = 0; i < nkeys && !r; i++) {
		const char *k = keys[i];
		char *s = get_str(kf, grp, k);
		bool b;

#define U32(field, max)                                                             \
	do {                                                                        \
		if (!parse_u32(s, &v) || v > (max))                                 \
			r = ERR("[%s] %s: \"%s\" is not a number <= %u", grp, k, s, \
				(unsigned)(max));                                   \
		else                                                                \
			c->field = v;                                               \
	} while (0)
#define BOOL(field)                                                             \
	do {                                                                    \
		if (!parse_bool(s, &b))                                         \
			r = ERR("[%s] %s: \"%s\" is not a boolean", grp, k, s); \
		else                                                            \
			c->field = b;                                           \
	} while (0)

		if (!strcmp(k, "adapter")) {
			U32(adapter, 255);
			have_adapter = true;
		} else if (!strcmp(k, "address")) {
			U32(addr, 0x7f);
			have_addr = true;
		} else if (!strcmp(k, "model")) {
			g_free(c->model);
			c->model = g_strdup(s);
		} else if (!strcmp(k, "compatible")) {
			g_strfreev(c->compatible);
			c->compatible = get_list(kf, grp, k);
		} else if (!strcmp(k, "driver")) {
			g_free(c->driver);
			c->driver = *s ? g_strdup(s) : NULL;
		} else if (!strcmp(k, "bound")) {
			BOOL(bound);
			have_bound = true;
		} else if (!strcmp(k, "state")) {
			if (!strcmp(s, "app"))
				c->state = EMUB_STATE_APP;
			else if (!strcmp(s, "bootloader"))
				c->state = EMUB_STATE_BOOTLOADER;
			else if (!strcmp(s, "no-image"))
				c->state = EMUB_STATE_NO_IMAGE;
			else
				r = ERR("[%s] state: \"%s\" is not app, bootloader or no-image",
					grp, s);
		} else if (!strcmp(k, "fw_version")) {
			if (!parse_fw_version(s, &c->fw_version, &c->fw_build))
				r = ERR("[%s] fw_version: \"%s\" is not MAJOR.MINOR.BUILD (e.g. 1.0.AA)",
					grp, s);
			c->has_fw_version = true;
		} else if (!strcmp(k, "power")) {
			if (!strcmp(s, "driver"))
				c->power_driver = true;
			else if (!strcmp(s, "always-on"))
				c->power_driver = false;
			else
				r = ERR("[%s] power: \"%s\" is neither driver nor always-on",
					grp, s);
		} else if (!strcmp(k, "reset_gpio")) {
			if (parse_gpio_line(s, &c->reset_gpio))
				r = ERR("[%s] reset_gpio: \"%s\" is not a line offset", grp, s);
		} else if (!strcmp(k, "chg_gpio") || !strcmp(k, "int_gpio")) {
			if (parse_gpio_line(s, &c->chg_gpio))
				r = ERR("[%s] %s: \"%s\" is not a line offset", grp, k, s);
		} else if (!strcmp(k, "goodix.id")) {
			size_t n = strlen(s);

			if (n < 1 || n > 4)
				r = ERR("[%s] goodix.id: \"%s\" is not 1..4 characters (e.g. 911, 917S)",
					grp, s);
			memset(c->gx_id, 0, sizeof(c->gx_id));
			memcpy(c->gx_id, s, n > 4 ? 4 : n);
			c->gx_has_id = true;
		} else if (!strcmp(k, "goodix.strap")) {
			if (!parse_u32(s, &v) || (v != 0x14 && v != 0x5d))
				r = ERR("[%s] goodix.strap: \"%s\" is not 0x14 or 0x5d", grp,
					s);
			else
				c->gx_strap = (guint16)v;
		} else if (!strcmp(k, "goodix.fw_version")) {
			U32(gx_fw_version, 0xffff);
		} else if (!strcmp(k, "goodix.config")) {
			if (c->gx_config)
				g_byte_array_free(c->gx_config, TRUE);
			c->gx_config = NULL;
			c->gx_config_none = !strcmp(s, "none");
			if (!c->gx_config_none) {
				char *path = g_path_is_absolute(s)
						     ? g_strdup(s)
						     : g_build_filename(base_dir, s, NULL);
				gchar *buf = NULL;
				gsize n = 0;
				GError *ge = NULL;

				if (!g_file_get_contents(path, &buf, &n, &ge)) {
					r = ERR("[%s] goodix.config: %s", grp, ge->message);
					g_error_free(ge);
				} else if (n > 240) {
					r = ERR("[%s] goodix.config: %s has %zu bytes, more than 240",
						grp, path, (size_t)n);
				} else {
					c->gx_config = g_byte_array_new();
					g_byte_array_append(c->gx_config, (guint8 *)buf,
							    (guint)n);
				}
				g_free(buf);
				g_free(path);
			}
		} else if (!strcmp(k, "goodix.config_version")) {
			U32(gx_cfg_version, 255);
		} else if (!strcmp(k, "goodix.resolution")) {
			if (!parse_res(s, &c->gx_x, &c->gx_y))
				r = ERR("[%s] goodix.resolution: \"%s\" is not WIDTHxHEIGHT",
					grp, s);
		} else if (!strcmp(k, "goodix.touches")) {
			U32(gx_touches, 15);
		} else if (!strcmp(k, "goodix.trigger")) {
			static const char *const t[] = { "rising", "falling", "low", "high" };

			r = ERR("[%s] goodix.trigger: \"%s\" is not rising, falling, low or high",
				grp, s);
			for (guint8 i = 0; i < 4; i++)
				if (!strcmp(s, t[i])) {
					c->gx_trigger = i;
					r = 0;
				}
		} else if (!strcmp(k, "goodix.config_name")) {
			g_free(c->gx_config_name);
			c->gx_config_name = g_strdup(s);
		} else if (!strcmp(k, "acpi_id")) {
			bool ok = strlen(s) >= 7 && strlen(s) <= 8;

			for (const char *q = s; ok && *q; q++)
				ok = g_ascii_isupper(*q) || g_ascii_isdigit(*q);
			if (!ok)
				r = ERR("[%s] acpi_id: \"%s\" is not an ACPI or PNP id (e.g. MSSL1680)",
					grp, s);
			g_free(c->acpi_id);
			c->acpi_id = g_strdup(s);
		} else if (!strcmp(k, "acpi_path")) {
			g_free(c->acpi_path);
			c->acpi_path = g_strdup(s);
		} else if (!strcmp(k, "power_gpio")) {
			if (parse_gpio_line(s, &c->reset_gpio))
				r = ERR("[%s] power_gpio: \"%s\" is not a line offset", grp, s);
		} else if (!strcmp(k, "silead.id")) {
			U32(sl_id, 0xffffffffu);
		} else if (!strcmp(k, "silead.firmware")) {
			char *path = g_path_is_absolute(s)
					     ? g_strdup(s)
					     : g_build_filename(base_dir, s, NULL);
			gchar *buf = NULL;
			gsize n = 0;
			GError *ge = NULL;

			if (!g_file_get_contents(path, &buf, &n, &ge)) {
				r = ERR("[%s] silead.firmware: %s", grp, ge->message);
				g_error_free(ge);
			} else {
				struct silead_model_ram *ram = g_new0(struct silead_model_ram,
								      1);

				if (!silead_model_fw_digest((const em_u8 *)buf, n, ram,
							    &c->sl_expected))
					r = ERR("[%s] silead.firmware: %s: not (register, value) "
						"pairs a Silead chip takes",
						grp, path);
				c->sl_has_expected = true;
				g_free(ram);
			}
			g_free(buf);
			g_free(path);
		} else if (!strcmp(k, "silead.firmware_seed")) {
			/* silead_model_make_fw(SEED, PAGES): fwgen silead-fw's file */
			guint32 seed, pages = 4;
			char **l = g_strsplit(s, "/", 2);

			if (!l[0] || !parse_u32(l[0], &seed) ||
			    (l[1] && (!parse_u32(l[1], &pages) || pages < 1 || pages > 256))) {
				r = ERR("[%s] silead.firmware_seed: \"%s\" is not SEED or SEED/PAGES",
					grp, s);
			} else {
				gsize cap = (gsize)pages * 33 * 8;
				em_u8 *buf = g_malloc(cap);
				struct silead_model_ram *ram = g_new0(struct silead_model_ram,
								      1);
				size_t n = silead_model_make_fw(seed, pages, buf, cap);

				silead_model_fw_digest(buf, n, ram, &c->sl_expected);
				c->sl_has_expected = true;
				g_free(ram);
				g_free(buf);
			}
			g_strfreev(l);
		} else if (!strcmp(k, "silead.firmware_name")) {
			g_free(c->sl_firmware_name);
			c->sl_firmware_name = g_strdup(s);
		} else if (!strcmp(k, "silead.max_fingers")) {
			U32(sl_max_fingers, 10);
		} else if (!strcmp(k, "fault.never_starts")) {
			BOOL(sl_never_starts);
		} else if (!strcmp(k, "touchscreen.size_x")) {
			U32(ts_size_x, 65535);
		} else if (!strcmp(k, "touchscreen.size_y")) {
			U32(ts_size_y, 65535);
		} else if (!strcmp(k, "touchscreen.swapped_x_y")) {
			BOOL(ts_swapped);
		} else if (!strcmp(k, "touchscreen.inverted_x")) {
			BOOL(ts_inv_x);
		} else if (!strcmp(k, "touchscreen.inverted_y")) {
			BOOL(ts_inv_y);
		} else if (!strcmp(k, "fault.refuse_config")) {
			BOOL(gx_refuse_config);
		} else if (!strcmp(k, "fault.config_volatile")) {
			BOOL(gx_config_volatile);
		} else if (!strcmp(k, "fault.fixed_address")) {
			BOOL(gx_fixed_address);
		} else if (!strcmp(k, "fault.corrupt_readback")) {
			BOOL(gx_corrupt_readback);
		} else if (!strcmp(k, "elants.hw_version")) {
			U32(el_hw_version, 0xfffe);
			c->el_has_hw = true;
		} else if (!strcmp(k, "elants.fw_version")) {
			U32(el_fw_version, 0xfffe);
		} else if (!strcmp(k, "elants.bc_version")) {
			U32(el_bc_version, 0xffff);
		} else if (!strcmp(k, "elants.flash")) {
			if (!strcmp(s, "corrupt"))
				c->el_flash_corrupt = true;
			else if (!strcmp(s, "valid"))
				c->el_flash_corrupt = false;
			else
				r = ERR("[%s] elants.flash: \"%s\" is neither valid nor corrupt",
					grp, s);
		} else if (!strcmp(k, "fault.iap_nak_page")) {
			if (!parse_u32(s, &v) || v > 511)
				r = ERR("[%s] fault.iap_nak_page: \"%s\" is not a page 0-511",
					grp, s);
			else
				c->el_nak_iap_page = (gint32)v;
		} else if (!strcmp(k, "fault.refuse_iap")) {
			BOOL(el_refuse_iap);
		} else if (!strcmp(k, "fault.iap_ignores_reset")) {
			BOOL(el_iap_ignores_reset);
		} else if (!strcmp(k, "elantp.product_id")) {
			U32(tp_product_id, 0xffff);
			c->tp_has_id = true;
		} else if (!strcmp(k, "elantp.fw_version")) {
			U32(tp_fw_version, 255);
		} else if (!strcmp(k, "fault.iap_page_error")) {
			if (!parse_u32(s, &v) || v > 511)
				r = ERR("[%s] fault.iap_page_error: \"%s\" is not a page 0-511",
					grp, s);
			else
				c->tp_fail_page = (gint32)v;
		} else if (!strcmp(k, "fault.iap_power_loss")) {
			if (!parse_u32(s, &v) || v < 1 || v > 511)
				r = ERR("[%s] fault.iap_power_loss: \"%s\" is not a page 1-511",
					grp, s);
			else
				c->tp_power_loss = (gint32)v;
		} else if (!strcmp(k, "irq_type")) {
			if (!strcmp(s, "level"))
				c->irq_level = true;
			else if (!strcmp(s, "edge"))
				c->irq_level = false;
			else
				r = ERR("[%s] irq_type: \"%s\" is neither level nor edge", grp,
					s);
		} else if (!strcmp(k, "input_delay_ms")) {
			U32(input_delay_ms, 600000);
		} else if (!strcmp(k, "bind_events")) {
			BOOL(bind_events);
		} else if (!strcmp(k, "probe_delay_ms")) {
			U32(probe_delay_ms, 600000);
		} else if (!strcmp(k, "eeprom.size")) {
			U32(ee_size, 256);
		} else if (!strcmp(k, "eeprom.page")) {
			U32(ee_page, 16);
		} else if (!strcmp(k, "eeprom.write_cycle_ms")) {
			U32(ee_write_cycle_ms, 1000);
		} else if (!strcmp(k, "eeprom.fill")) {
			U32(ee_fill, 255);
		} else if (!strcmp(k, "fault.nak")) {
			char **l = get_list(kf, grp, k);

			for (char **p = l; p && *p && !r; p++) {
				guint16 a;

				if (!parse_u32(*p, &v) || v > 0x7f)
					r = ERR("[%s] fault.nak: \"%s\" is not a 7-bit address",
						grp, *p);
				a = (guint16)v;
				g_array_append_val(c->nak_addrs, a);
			}
			g_strfreev(l);
		} else if (!strcmp(k, "fault.no_input")) {
			BOOL(no_input);
		} else if (!strcmp(k, "fault.crc_fail_frame")) {
			U32(crc_fail_frame, 0xffffff);
		} else if (!strcmp(k, "fault.crc_fail_times")) {
			U32(crc_fail_times, 0xffffff);
		} else if (!strcmp(k, "fault.crc_fail_always")) {
			BOOL(crc_fail_always);
		} else if (!strcmp(k, "bl_final_reset_unread")) {
			BOOL(bl_final_reset_unread);
		} else if (!strcmp(k, "fault.stuck_in_bootloader")) {
			BOOL(stuck_in_bootloader);
		} else if (!strcmp(k, "fault.power_loss_after")) {
			U32(power_loss_after, 0xffffff);
		} else if (!strcmp(k, "fault.corrupt_info_crc")) {
			BOOL(corrupt_info_crc);
		} else if (!strcmp(k, "fault.slow_factor")) {
			U32(slow_factor, 1000);
		} else {
			r = ERR("[%s]: unknown key \"%s\"", grp, k);
		}
#undef U32
#undef BOOL
		g_free(s);
	}
	if (r)
		return r;
	if (!have_adapter)
		return ERR("[%s] adapter: missing", grp);
	if (!have_addr)
		return ERR("[%s] address: missing", grp);
	if (!c->model)
		return ERR(
			"[%s] model: missing (mxt224e, mxt1664s, eeprom, goodix, silead, elants "
			"or elantp)",
			grp);
	if (strcmp(c->model, "eeprom") && strcmp(c->model, "mxt224e") &&
	    strcmp(c->model, "mxt1664s") && strcmp(c->model, "goodix") &&
	    strcmp(c->model, "silead") && strcmp(c->model, "elants") &&
	    strcmp(c->model, "elantp"))
		return ERR(
			"[%s] model: \"%s\" is not mxt224e, mxt1664s, eeprom, goodix, silead, "
			"elants or elantp",
			grp, c->model);
	if (strcmp(c->model, "silead")) {
		for (gsize i = 0; i < nkeys; i++)
			if (g_str_has_prefix(keys_copy[i], "silead.") ||
			    !strcmp(keys_copy[i], "power_gpio") ||
			    !strcmp(keys_copy[i], "fault.never_starts"))
				return ERR("[%s] %s: only for model = silead", grp,
					   keys_copy[i]);
	} else if (!c->sl_id) {
		c->sl_id = 0x80360000u; /* an example id; silead.c only logs it */
	}
	if (c->acpi_id && (!d->dmi_keys || !d->dmi_keys[0]))
		return ERR("[%s] acpi_id: an ACPI-enumerated chip needs an ACPI machine "
			   "([board] dmi.*)",
			   grp);
	if (c->acpi_id && c->compatible)
		return ERR("[%s] acpi_id: a chip is enumerated by ACPI or by its compatible, "
			   "not both",
			   grp);
	if (!strcmp(c->model, "elantp") && !c->tp_has_id)
		return ERR("[%s] elantp.product_id: missing (e.g. 18)", grp);
	if (strcmp(c->model, "elantp"))
		for (gsize i = 0; i < nkeys; i++)
			if (g_str_has_prefix(keys_copy[i], "elantp.") ||
			    !strcmp(keys_copy[i], "fault.iap_page_error") ||
			    !strcmp(keys_copy[i], "fault.iap_power_loss"))
				return ERR("[%s] %s: only for model = elantp", grp,
					   keys_copy[i]);
	if (!strcmp(c->model, "elants") && !c->el_has_hw)
		return ERR("[%s] elants.hw_version: missing (the FW ID, e.g. 0x2a1c)", grp);
	if (strcmp(c->model, "elants"))
		for (gsize i = 0; i < nkeys; i++)
			if (g_str_has_prefix(keys_copy[i], "elants.") ||
			    !strcmp(keys_copy[i], "fault.iap_nak_page") ||
			    !strcmp(keys_copy[i], "fault.refuse_iap") ||
			    !strcmp(keys_copy[i], "fault.iap_ignores_reset"))
				return ERR("[%s] %s: only for model = elants", grp,
					   keys_copy[i]);
	if (c->driver && !emub_find_driver(c->driver))
		return ERR(
			"[%s] driver: no model of kernel driver \"%s\" (have atmel_mxt_ts, at24, "
			"Goodix-TS, silead_ts, elants_i2c, elan_i2c)",
			grp, c->driver);
	if (!strcmp(c->model, "goodix")) {
		if (!c->gx_has_id)
			return ERR("[%s] goodix.id: missing (the product id, e.g. 911)", grp);
		if (c->addr != 0x14 && c->addr != 0x5d)
			return ERR(
				"[%s] address: a Goodix chip answers at 0x14 or 0x5d, not 0x%02x",
				grp, c->addr);
	} else {
		for (gsize i = 0; i < nkeys; i++)
			if (g_str_has_prefix(keys_copy[i], "goodix.") ||
			    (!strcmp(keys_copy[i], "int_gpio") && strcmp(c->model, "elants") &&
			     strcmp(c->model, "elantp")) ||
			    !strcmp(keys_copy[i], "fault.refuse_config") ||
			    !strcmp(keys_copy[i], "fault.config_volatile") ||
			    !strcmp(keys_copy[i], "fault.fixed_address") ||
			    !strcmp(keys_copy[i], "fault.corrupt_readback"))
				return ERR("[%s] %s: only for model = goodix", grp,
					   keys_copy[i]);
	}
	if (!have_bound)
		c->bound = c->driver != NULL;
	if (c->bound && !c->driver)
		return ERR("[%s] bound: true needs a driver", grp);
	if (!strcmp(c->model, "eeprom") && (c->reset_gpio >= 0 || c->chg_gpio >= 0))
		return ERR("[%s]: an eeprom has no reset or CHG pin", grp);
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
	for (int i = 0; i < d->nadapters; i++)
		g_free(d->adapters[i].name);
	for (int i = 0; i < d->nchips; i++) {
		struct emub_chip_desc *c = &d->chips[i];

		g_free(c->name);
		g_free(c->model);
		g_strfreev(c->compatible);
		g_free(c->driver);
		g_free(c->gx_config_name);
		g_free(c->acpi_id);
		g_free(c->acpi_path);
		g_free(c->sl_firmware_name);
		if (c->gx_config)
			g_byte_array_free(c->gx_config, TRUE);
		if (c->nak_addrs)
			g_array_free(c->nak_addrs, TRUE);
	}
	emub_spi_board_free(d->spi);
	memset(d, 0, sizeof(*d));
}
