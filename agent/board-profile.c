// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Board profiles: the strict parser for compiled profiles (libfdt), a pure
 * function from a blob to a struct tf_board_profile or a report of its
 * mistakes.  The machine's identity is board-identity.c, the profile
 * directories board-set.c, matching and lookup board-match.c.  The schema
 * is documented for OEMs in boards/README.md; keep the two in step.
 *
 * Nothing trusts a blob before the header and structure checks pass, and
 * every check that fails adds one issue (node path + message) to the report
 * and carries on, so one run shows all of a profile's mistakes.
 */
#include "board.h"
#include "board-priv.h"

#include <ctype.h>
#include <errno.h>
#include <libfdt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>

#include "family/ids.h"

/* ------------------------------------------------------------- tables */

static const struct {
	const char *prop, *file;
} dmi_keys[TF_DMI_KEY_COUNT_] = {
	[TF_DMI_BIOS_VENDOR] = { "bios-vendor", "bios_vendor" },
	[TF_DMI_BIOS_VERSION] = { "bios-version", "bios_version" },
	[TF_DMI_BIOS_DATE] = { "bios-date", "bios_date" },
	[TF_DMI_BIOS_RELEASE] = { "bios-release", "bios_release" },
	[TF_DMI_EC_FIRMWARE_RELEASE] = { "ec-firmware-release", "ec_firmware_release" },
	[TF_DMI_SYS_VENDOR] = { "sys-vendor", "sys_vendor" },
	[TF_DMI_PRODUCT_NAME] = { "product-name", "product_name" },
	[TF_DMI_PRODUCT_VERSION] = { "product-version", "product_version" },
	[TF_DMI_PRODUCT_FAMILY] = { "product-family", "product_family" },
	[TF_DMI_PRODUCT_SKU] = { "product-sku", "product_sku" },
	[TF_DMI_BOARD_VENDOR] = { "board-vendor", "board_vendor" },
	[TF_DMI_BOARD_NAME] = { "board-name", "board_name" },
	[TF_DMI_BOARD_VERSION] = { "board-version", "board_version" },
	[TF_DMI_CHASSIS_VENDOR] = { "chassis-vendor", "chassis_vendor" },
	[TF_DMI_CHASSIS_TYPE] = { "chassis-type", "chassis_type" },
	[TF_DMI_CHASSIS_VERSION] = { "chassis-version", "chassis_version" },
};

/* DMI files that name one unit; explained rather than called unknown. */
static const char *const dmi_unit_keys[] = {
	"product-serial",  "product-uuid",   "board-serial",
	"board-asset-tag", "chassis-serial", "chassis-asset-tag",
};

enum node_kind {
	NODE_ANY,
	NODE_ROOT,
	NODE_CONTROLLERS,
	NODE_CONTROLLER,
	NODE_DMI,
};

enum root_prop {
	R_VERSION,
	R_MODEL,
	R_BOARD_COMPATIBLE,
	R_BOARD_IDS,
	R_COUNT_,
};
static const char *const root_props[R_COUNT_] = {
	[R_VERSION] = "touchfw,profile-version",
	[R_MODEL] = "model",
	[R_BOARD_COMPATIBLE] = "board-compatible",
	[R_BOARD_IDS] = "board-ids",
};

enum controllers_prop {
	L_ADDRESS_CELLS,
	L_SIZE_CELLS,
	L_COUNT_,
};
static const char *const controllers_props[L_COUNT_] = {
	[L_ADDRESS_CELLS] = "#address-cells",
	[L_SIZE_CELLS] = "#size-cells",
};

enum ctrl_prop {
	C_FAMILY,
	C_BUS,
	C_ADAPTER_NAME,
	C_ADAPTER_PATH,
	C_REG,
	C_BOOTLOADER_REG,
	C_HID_DESCR_ADDR,
	C_DRIVER,
	C_RESET_CHIP,
	C_RESET_LINE,
	C_RESET_NAME,
	C_RESET_ACTIVE_LOW,
	C_IRQ_CHIP,
	C_IRQ_LINE,
	C_IRQ_NAME,
	C_IRQ_ACTIVE_LOW,
	C_POWER,
	C_FIRMWARE_PIN,
	C_CONFIG_PIN,
	C_INPUT_TIMEOUT,
	C_FLASH_TIMEOUT,
	C_CONFIG_NAME,
	C_SWAPPED_X_Y,
	C_SIZE_X,
	C_SIZE_Y,
	C_SPI_MAX_FREQ,
	C_SPI_CPOL,
	C_SPI_CPHA,
	C_SPI_BITS,
	C_BUS_RECOVERY,
	C_COUNT_,
};
static const char *const ctrl_props[C_COUNT_] = {
	[C_FAMILY] = "family",
	[C_BUS] = "bus",
	[C_ADAPTER_NAME] = "adapter-name",
	[C_ADAPTER_PATH] = "adapter-path",
	[C_REG] = "reg",
	[C_BOOTLOADER_REG] = "bootloader-reg",
	[C_HID_DESCR_ADDR] = "hid-descr-addr",
	[C_DRIVER] = "driver",
	[C_RESET_CHIP] = "reset-gpio-chip",
	[C_RESET_LINE] = "reset-gpio-line",
	[C_RESET_NAME] = "reset-gpio-name",
	[C_RESET_ACTIVE_LOW] = "reset-active-low",
	[C_IRQ_CHIP] = "irq-gpio-chip",
	[C_IRQ_LINE] = "irq-gpio-line",
	[C_IRQ_NAME] = "irq-gpio-name",
	[C_IRQ_ACTIVE_LOW] = "irq-active-low",
	[C_POWER] = "power",
	[C_FIRMWARE_PIN] = "firmware-pin",
	[C_CONFIG_PIN] = "config-pin",
	[C_INPUT_TIMEOUT] = "input-timeout-ms",
	[C_FLASH_TIMEOUT] = "flash-timeout-ms",
	[C_CONFIG_NAME] = "config-name",
	[C_SWAPPED_X_Y] = "touchscreen-swapped-x-y",
	[C_SIZE_X] = "touchscreen-size-x",
	[C_SIZE_Y] = "touchscreen-size-y",
	[C_SPI_MAX_FREQ] = "spi-max-frequency",
	[C_SPI_CPOL] = "spi-cpol",
	[C_SPI_CPHA] = "spi-cpha",
	[C_SPI_BITS] = "spi-bits-per-word",
	[C_BUS_RECOVERY] = "allow-bus-recovery",
};

/*
 * Older names a controller's properties are still read by
 * (doc/touchfw-board.5): the interrupt line was first named by one
 * family's word for it.  Messages name a property as the profile wrote it.
 */
static const struct {
	const char *alias;
	enum ctrl_prop prop;
} ctrl_aliases[] = {
	{ "chg-gpio-chip", C_IRQ_CHIP },
	{ "chg-gpio-line", C_IRQ_LINE },
	{ "chg-gpio-name", C_IRQ_NAME },
	{ "chg-active-low", C_IRQ_ACTIVE_LOW },
};

/* Habits from kernel bindings that do not carry over, with what to do. */
static const struct {
	enum node_kind kind;
	const char *prop, *hint;
} prop_hints[] = {
	{ NODE_ROOT, "compatible", "the board's compatible strings go in board-compatible" },
	{ NODE_CONTROLLER, "compatible",
	  "name the controller family with family and the kernel driver "
	  "with driver" },
	{ NODE_CONTROLLER, "reset-gpios",
	  "name the line with reset-gpio-chip + reset-gpio-line, or "
	  "reset-gpio-name; a profile has no GPIO phandles" },
	{ NODE_CONTROLLER, "irq-gpios",
	  "name the interrupt line with irq-gpio-chip + irq-gpio-line, "
	  "or irq-gpio-name" },
	{ NODE_CONTROLLER, "interrupt-gpios",
	  "name the interrupt line with irq-gpio-chip + irq-gpio-line, "
	  "or irq-gpio-name" },
	{ NODE_CONTROLLER, "chg-gpios",
	  "name the interrupt line with irq-gpio-chip + irq-gpio-line, "
	  "or irq-gpio-name" },
	{ NODE_CONTROLLER, "interrupts",
	  "name the interrupt line with irq-gpio-chip + irq-gpio-line, "
	  "or irq-gpio-name" },
	{ NODE_CONTROLLER, "adapter", "name the adapter with adapter-name or adapter-path" },
	{ NODE_CONTROLLER, "adapter-nr",
	  "adapters are named by adapter-name or adapter-path, never by "
	  "number: bus numbers change between boots" },
	{ NODE_CONTROLLER, "bus-number",
	  "adapters are named by adapter-name or adapter-path, never by "
	  "number: bus numbers change between boots" },
	{ NODE_CONTROLLER, "status",
	  "a profile lists only controllers that exist; delete the node "
	  "instead" },
	{ NODE_ANY, "phandle",
	  "something refers to this node by label (&label); profiles have "
	  "no references" },
	{ NODE_ANY, "linux,phandle",
	  "something refers to this node by label (&label); profiles have "
	  "no references" },
};

/* GPIO_MAX_NAME_SIZE (uapi/linux/gpio.h) bounds chip labels and names. */
#define GPIO_NAME_MAX 31
/* struct gpio_chip.ngpio is a u16. */
#define GPIO_LINE_MAX 65534u
/* struct i2c_adapter.name is char[48]. */
#define I2C_ADAPTER_NAME_MAX 47
/* 7-bit i2c addresses; 0x00-0x02 and 0x78-0x7f are reserved. */
#define I2C_ADDR_MIN 0x03u
#define I2C_ADDR_MAX 0x77u
#define SPI_CS_MAX 255u

#define MAX_CONTROLLERS 32
#define MAX_COMPATIBLE_LEN 127
#define MAX_BOARD_ID_LEN 63
#define MAX_DMI_PATTERN_LEN 255

const char *tf_dmi_key_property(enum tf_dmi_key key)
{
	return (unsigned)key < TF_DMI_KEY_COUNT_ ? dmi_keys[key].prop : "?";
}

const char *tf_dmi_key_file(enum tf_dmi_key key)
{
	return (unsigned)key < TF_DMI_KEY_COUNT_ ? dmi_keys[key].file : "?";
}

const char *tf_power_name(enum tf_power power)
{
	return power == TF_POWER_ALWAYS_ON ? "always-on" : "driver";
}

/* ------------------------------------------------------------- lists */

void board_strv_free(char **v, size_t n)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static int strv_copy(char **src, size_t n, char ***out)
{
	char **v;
	size_t i;

	*out = NULL;
	if (n == 0)
		return 0;
	v = calloc(n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		v[i] = strdup(src[i]);
		if (!v[i]) {
			board_strv_free(v, i);
			return -ENOMEM;
		}
	}
	*out = v;
	return 0;
}

/* ------------------------------------------------------------- report */

void tf_board_report_init(struct tf_board_report *rep)
{
	memset(rep, 0, sizeof(*rep));
}

void tf_board_report_free(struct tf_board_report *rep)
{
	if (!rep)
		return;
	free(rep->issues);
	memset(rep, 0, sizeof(*rep));
}

void board_report_add(struct tf_board_report *rep, const char *node, const char *msg)
{
	struct tf_board_issue *is;

	if (!rep)
		return;
	if (rep->n >= TF_BOARD_MAX_ISSUES) {
		rep->n_dropped++;
		return;
	}
	if (!rep->issues) {
		rep->issues = calloc(TF_BOARD_MAX_ISSUES, sizeof(*rep->issues));
		if (!rep->issues) {
			rep->n_dropped++;
			return;
		}
	}
	is = &rep->issues[rep->n++];
	snprintf(is->node, sizeof(is->node), "%s", node);
	snprintf(is->msg, sizeof(is->msg), "%s", msg);
}

/* ------------------------------------------------------------- parse */

struct parse_ctx {
	const void *fdt;
	struct tf_board_report *rep;
	size_t n_issues; /* counted even without a report */
	bool oom;
};

static void issue(struct parse_ctx *c, const char *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void issue(struct parse_ctx *c, const char *node, const char *fmt, ...)
{
	char msg[sizeof(((struct tf_board_issue *)0)->msg)];
	va_list ap;

	c->n_issues++;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	board_report_add(c->rep, node, msg);
}

/*
 * Copy a name from the blob for a message or a path: bytes that would
 * garble a terminal become '?', and a name too long is cut with "...".
 */
static void safe_copy(char *out, size_t outsz, const char *in, size_t inlen)
{
	size_t i, n = 0;

	for (i = 0; i < inlen && in[i] && n + 1 < outsz; i++) {
		unsigned char ch = (unsigned char)in[i];

		out[n++] = (ch < 0x20 || ch == 0x7f) ? '?' : (char)ch;
	}
	out[n] = '\0';
	if (i < inlen && in[i] && outsz > 4)
		memcpy(out + outsz - 4, "...", 4);
}

static bool name_is_clean(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)s[i] <= 0x20 || (unsigned char)s[i] >= 0x7f)
			return false;
	return len > 0;
}

bool board_has_control_char(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static bool has_space(const char *s)
{
	for (; *s; s++)
		if (isspace((unsigned char)*s))
			return true;
	return false;
}

/* Levenshtein distance, for "did you mean"; names are short. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[65];

	if (la > 64 || lb > 64)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

static const char *closest(const char *name, const char *const *known, size_t n)
{
	size_t i, best = SIZE_MAX, limit = strlen(name) / 4;
	const char *pick = NULL;

	if (limit < 2)
		limit = 2;
	for (i = 0; i < n; i++) {
		size_t d;

		if (!known[i])
			continue;
		d = edit_distance(name, known[i]);
		if (d <= limit && d < best) {
			best = d;
			pick = known[i];
		}
	}
	return pick;
}

/* A property as found in a node, before its value is judged. */
struct prop_val {
	const char *val;
	int len;
	bool seen;
	const char *as; /* the name it was given by, when an alias */
};

static void unknown_property(struct parse_ctx *c, const char *node, enum node_kind kind,
			     const char *name, const char *const *known, size_t n_known)
{
	char safe[72];
	const char *pick;
	size_t i;

	safe_copy(safe, sizeof(safe), name, strlen(name));
	for (i = 0; i < TF_ARRAY_SIZE(prop_hints); i++) {
		if ((prop_hints[i].kind == kind || prop_hints[i].kind == NODE_ANY) &&
		    !strcmp(prop_hints[i].prop, name)) {
			issue(c, node, "unknown property \"%s\" (%s)", safe,
			      prop_hints[i].hint);
			return;
		}
	}
	/* "vendor,name" from a kernel binding whose name the profile has. */
	if (strchr(name, ',')) {
		for (i = 0; i < n_known; i++) {
			if (known[i] && !strcmp(strchr(name, ',') + 1, known[i])) {
				issue(c, node,
				      "unknown property \"%s\" (a kernel binding's "
				      "name; the profile calls it %s)",
				      safe, known[i]);
				return;
			}
		}
	}
	if (kind == NODE_DMI) {
		for (i = 0; i < TF_ARRAY_SIZE(dmi_unit_keys); i++) {
			if (!strcmp(dmi_unit_keys[i], name)) {
				issue(c, node,
				      "%s identifies one unit, not a board "
				      "model; it can not be matched",
				      safe);
				return;
			}
		}
	}
	pick = closest(name, known, n_known);
	if (pick)
		issue(c, node, "unknown property \"%s\" (did you mean \"%s\"?)", safe, pick);
	else
		issue(c, node, "unknown property \"%s\"", safe);
}

/*
 * Sort the properties of @node into @vals by the names in @known; anything
 * else is reported.
 */
static void read_props(struct parse_ctx *c, int node, const char *path, enum node_kind kind,
		       const char *const *known, size_t n_known, struct prop_val *vals)
{
	int poff;

	memset(vals, 0, n_known * sizeof(*vals));
	fdt_for_each_property_offset(poff, c->fdt, node) {
		const char *name = NULL;
		const char *val;
		int len = 0;
		size_t i;

		val = fdt_getprop_by_offset(c->fdt, poff, &name, &len);
		if (!val || !name) {
			issue(c, path, "unreadable property: %s", fdt_strerror(len));
			continue;
		}
		const char *as = NULL;

		for (i = 0; i < n_known; i++)
			if (known[i] && !strcmp(known[i], name))
				break;
		for (size_t k = 0; i == n_known && kind == NODE_CONTROLLER &&
				   known == ctrl_props && k < TF_ARRAY_SIZE(ctrl_aliases);
		     k++) {
			if (!strcmp(ctrl_aliases[k].alias, name)) {
				i = ctrl_aliases[k].prop;
				as = ctrl_aliases[k].alias;
			}
		}
		if (i == n_known) {
			unknown_property(c, path, kind, name, known, n_known);
			continue;
		}
		if (vals[i].seen) {
			if (as || vals[i].as)
				issue(c, path, "%s and %s name the same property; give one",
				      vals[i].as ? vals[i].as : known[i], name);
			else
				issue(c, path, "%s is given twice", known[i]);
			continue;
		}
		vals[i].as = as;
		vals[i].val = val;
		vals[i].len = len;
		vals[i].seen = true;
	}
}

/* A single non-empty string without control characters. */
static bool val_string(struct parse_ctx *c, const char *path, const char *prop,
		       const struct prop_val *v, char *out, size_t outsz)
{
	size_t n;

	if (v->len <= 0) {
		issue(c, path, "%s has no value; it must be a string", prop);
		return false;
	}
	if (v->val[v->len - 1] != '\0') {
		issue(c, path, "%s must be a string, like %s = \"...\";", prop, prop);
		return false;
	}
	n = strlen(v->val);
	if (n + 1 != (size_t)v->len) {
		issue(c, path, "%s must be a single string, not a list", prop);
		return false;
	}
	if (n == 0) {
		issue(c, path, "%s is empty", prop);
		return false;
	}
	if (board_has_control_char(v->val)) {
		issue(c, path, "%s contains a control character", prop);
		return false;
	}
	if (n >= outsz) {
		issue(c, path, "%s is longer than %zu characters", prop, outsz - 1);
		return false;
	}
	memcpy(out, v->val, n + 1);
	return true;
}

/*
 * A list of strings, each non-empty, at most @maxlen characters, without
 * whitespace unless @spaces, and no entry twice.
 */
static bool val_strlist(struct parse_ctx *c, const char *path, const char *prop,
			const struct prop_val *v, size_t maxlen, bool spaces, char ***out,
			size_t *n_out)
{
	const char *s, *end;
	char **v_out = NULL;
	size_t n = 0, i;
	bool ok = true;

	*out = NULL;
	*n_out = 0;
	if (v->len <= 0) {
		issue(c, path, "%s has no value; it must be a list of strings", prop);
		return false;
	}
	if (v->val[v->len - 1] != '\0') {
		issue(c, path, "%s must be a list of strings, like %s = \"a\", \"b\";", prop,
		      prop);
		return false;
	}
	v_out = calloc(MAX_LIST_ENTRIES, sizeof(*v_out));
	if (!v_out) {
		c->oom = true;
		return false;
	}
	end = v->val + v->len;
	for (s = v->val; s < end; s += strlen(s) + 1) {
		size_t len = strlen(s);
		bool dup = false;

		if (n == MAX_LIST_ENTRIES) {
			issue(c, path, "%s has more than %d entries", prop, MAX_LIST_ENTRIES);
			ok = false;
			break;
		}
		if (len == 0) {
			issue(c, path, "%s entry %zu is empty", prop, n + 1);
			ok = false;
		} else if (board_has_control_char(s)) {
			issue(c, path, "%s entry %zu contains a control character", prop,
			      n + 1);
			ok = false;
		} else if (len > maxlen) {
			issue(c, path, "%s entry %zu is longer than %zu characters", prop,
			      n + 1, maxlen);
			ok = false;
		} else if (!spaces && has_space(s)) {
			issue(c, path, "%s entry \"%s\" contains whitespace", prop, s);
			ok = false;
		} else if (spaces && len > 0 && isspace((unsigned char)s[len - 1])) {
			issue(c, path,
			      "%s \"%s\" ends in whitespace; DMI values are "
			      "compared with trailing whitespace removed, so it "
			      "would never match",
			      prop, s);
			ok = false;
		} else {
			for (i = 0; i < n; i++)
				if (v_out[i] && !strcmp(v_out[i], s))
					dup = true;
			if (dup) {
				issue(c, path, "%s lists \"%s\" twice", prop, s);
				ok = false;
			}
		}
		v_out[n] = strdup(s);
		if (!v_out[n]) {
			c->oom = true;
			ok = false;
			break;
		}
		n++;
	}
	if (!ok) {
		board_strv_free(v_out, n);
		return false;
	}
	*out = v_out;
	*n_out = n;
	return true;
}

static bool val_u32(struct parse_ctx *c, const char *path, const char *prop,
		    const struct prop_val *v, const char *example, uint32_t *out)
{
	if (v->len != (int)sizeof(fdt32_t)) {
		issue(c, path, "%s must be one 32-bit number, like %s = <%s>;", prop, prop,
		      example);
		return false;
	}
	*out = fdt32_ld((const fdt32_t *)v->val);
	return true;
}

static bool val_flag(struct parse_ctx *c, const char *path, const char *prop,
		     const struct prop_val *v)
{
	if (v->len != 0) {
		issue(c, path, "%s is a flag and takes no value (write \"%s;\")", prop, prop);
		return false;
	}
	return true;
}

/* A string of letters, digits and @extra. */
static bool charset_ok(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(extra, *s))
			return false;
	return true;
}

static bool dt_path_ok(const char *p)
{
	size_t n = strlen(p);

	return p[0] == '/' && n > 1 && p[n - 1] != '/' && !strstr(p, "//") && !has_space(p);
}

/*
 * The device-tree path inside a view of the live tree (the target of an
 * adapter's of_node link, or a /proc/device-tree path), as a plain path.
 */
const char *board_dt_path_strip(const char *p)
{
	static const char *const prefixes[] = {
		"/sys/firmware/devicetree/base",
		"/proc/device-tree",
	};
	size_t i;

	for (i = 0; i < TF_ARRAY_SIZE(prefixes); i++) {
		size_t n = strlen(prefixes[i]);

		if (!strncmp(p, prefixes[i], n) && (p[n] == '/' || !p[n]))
			return p + n;
	}
	return p;
}

static const char *family_list(char *buf, size_t size)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; tf_family_ids_all[i] && n < size; i++) {
		int r = snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
				 tf_family_ids_all[i]->name);

		if (r < 0)
			break;
		n += (size_t)r;
	}
	return buf;
}

/* The base name of @path without its directory and .dtb/.dts suffix. */
static void profile_name(const char *path, char *out, size_t outsz, bool *too_long)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && (!strcmp(base + n - 4, ".dtb") || !strcmp(base + n - 4, ".dts")))
		n -= 4;
	*too_long = n >= outsz;
	if (*too_long)
		n = outsz - 1;
	memcpy(out, base, n);
	out[n] = '\0';
}

/* A controller property's name as the profile gave it (an alias or not). */
#define PROP_NAME(v, idx) ((v)[idx].as ? (v)[idx].as : ctrl_props[idx])

static void parse_gpio(struct parse_ctx *c, const char *path, const char *what,
		       const struct prop_val *v, enum ctrl_prop chip_idx,
		       struct tf_gpio_spec *spec, bool *has)
{
	const struct prop_val *chip = &v[chip_idx];
	const struct prop_val *line = &v[chip_idx + 1];
	const struct prop_val *name = &v[chip_idx + 2];
	const struct prop_val *al = &v[chip_idx + 3];
	bool ok = true;
	uint32_t off = 0;

	memset(spec, 0, sizeof(*spec));
	spec->line = -1;
	*has = false;
	if (chip->seen &&
	    !val_string(c, path, PROP_NAME(v, chip_idx), chip, spec->chip, GPIO_NAME_MAX + 1))
		ok = false;
	if (line->seen) {
		if (!val_u32(c, path, PROP_NAME(v, chip_idx + 1), line, "12", &off)) {
			ok = false;
		} else if (off > GPIO_LINE_MAX) {
			issue(c, path, "%s %u is out of range (0..%u)",
			      PROP_NAME(v, chip_idx + 1), off, GPIO_LINE_MAX);
			ok = false;
		}
	}
	if (name->seen && !val_string(c, path, PROP_NAME(v, chip_idx + 2), name, spec->name,
				      GPIO_NAME_MAX + 1))
		ok = false;
	if (al->seen && !val_flag(c, path, PROP_NAME(v, chip_idx + 3), al))
		ok = false;

	if (name->seen && (chip->seen || line->seen)) {
		issue(c, path,
		      "give %s-gpio-chip + %s-gpio-line or %s-gpio-name, not "
		      "both",
		      what, what, what);
		return;
	}
	if (chip->seen && !line->seen) {
		issue(c, path, "%s-gpio-chip needs %s-gpio-line", what, what);
		return;
	}
	if (line->seen && !chip->seen) {
		issue(c, path, "%s-gpio-line needs %s-gpio-chip", what, what);
		return;
	}
	if (al->seen && !chip->seen && !name->seen) {
		issue(c, path, "%s-active-low without a %s line", what, what);
		return;
	}
	if (!ok || (!chip->seen && !name->seen))
		return;
	if (chip->seen) {
		spec->line = (int)off;
		spec->name[0] = '\0';
	} else {
		spec->chip[0] = '\0';
	}
	spec->active_low = al->seen;
	*has = true;
}

static bool gpio_same(const struct tf_gpio_spec *a, const struct tf_gpio_spec *b)
{
	if (a->name[0] || b->name[0])
		return !strcmp(a->name, b->name);
	return !strcmp(a->chip, b->chip) && a->line == b->line;
}

static bool reg_in_range(const char *bus, uint32_t reg)
{
	if (!strcmp(bus, "i2c"))
		return reg >= I2C_ADDR_MIN && reg <= I2C_ADDR_MAX;
	return reg <= SPI_CS_MAX;
}

static void reg_range_issue(struct parse_ctx *c, const char *path, const char *prop,
			    const char *bus, uint32_t reg)
{
	if (!strcmp(bus, "i2c"))
		issue(c, path, "%s 0x%x is not a 7-bit i2c address (0x%02x..0x%02x)", prop, reg,
		      I2C_ADDR_MIN, I2C_ADDR_MAX);
	else
		issue(c, path, "%s %u is not an spi chip select (0..%u)", prop, reg,
		      SPI_CS_MAX);
}

static bool parse_timeout(struct parse_ctx *c, const char *path, const struct prop_val *v,
			  enum ctrl_prop idx, uint32_t min, uint32_t max, uint32_t *out)
{
	uint32_t t;

	*out = 0;
	if (!v[idx].seen)
		return true;
	if (!val_u32(c, path, ctrl_props[idx], &v[idx], "5000", &t))
		return false;
	if (t < min || t > max) {
		issue(c, path, "%s %u is out of range (%u..%u)", ctrl_props[idx], t, min, max);
		return false;
	}
	*out = t;
	return true;
}

static bool pin_ok(struct parse_ctx *c, const char *path, const struct prop_val *v,
		   enum ctrl_prop idx, char *out, size_t outsz)
{
	if (!v[idx].seen)
		return true;
	if (!val_string(c, path, ctrl_props[idx], &v[idx], out, outsz))
		return false;
	if (!charset_ok(out, "._+:-")) {
		issue(c, path,
		      "%s \"%s\" is not a firmware DB id (letters, digits and "
		      "._+:- only)",
		      ctrl_props[idx], out);
		return false;
	}
	return true;
}

/* Validate one controller node; false if it has mistakes. */
/*
 * An adapter "name" that is really a bus number ("i2c-3", "/dev/i2c-3",
 * "3"): returns the "i2c-N" it names, else NULL.
 */
static const char *bus_number_name(const char *name)
{
	static char buf[32];
	const char *p = name;

	if (!strncmp(p, "/dev/", 5))
		p += 5;
	if (!strncmp(p, "i2c-", 4))
		p += 4;
	if (!*p || strlen(p) > 6 || strspn(p, "0123456789") != strlen(p))
		return NULL;
	snprintf(buf, sizeof(buf), "i2c-%s", p);
	return buf;
}

/*
 * Is the controller's driver one of its family's kernel drivers (the
 * family's ids record, family/ids.h)?  Reports it, with the nearest known name,
 * when not: a driver the family does not know never binds the device as
 * one of touchfw's.
 */
static bool family_has_driver(struct parse_ctx *c, const char *path,
			      const struct tf_controller *ctl)
{
	const struct tf_family_ids *fi = tf_family_ids_by_name(ctl->family);
	char known[160] = "", swapped[sizeof(ctl->driver)];
	const char *pick = NULL;
	size_t i, n = 0;

	if (!fi || !fi->drivers)
		return true; /* the family itself is reported elsewhere */
	for (i = 0; fi->drivers[i]; i++)
		if (!strcmp(fi->drivers[i], ctl->driver))
			return true;
	/* Kernel driver names use underscores, never dashes. */
	snprintf(swapped, sizeof(swapped), "%s", ctl->driver);
	for (i = 0; swapped[i]; i++)
		if (swapped[i] == '-')
			swapped[i] = '_';
	for (i = 0; fi->drivers[i]; i++) {
		if (!strcmp(fi->drivers[i], swapped))
			pick = fi->drivers[i];
		if (n < sizeof(known))
			n += (size_t)snprintf(known + n, sizeof(known) - n, "%s%s",
					      i ? ", " : "", fi->drivers[i]);
	}
	if (!pick)
		pick = closest(ctl->driver, fi->drivers, i);
	if (pick)
		issue(c, path,
		      "driver \"%s\" is not a %s driver (did you mean \"%s\"? "
		      "kernel driver names use underscores)",
		      ctl->driver, ctl->family, pick);
	else
		issue(c, path, "driver \"%s\" is not a %s driver (known: %s)", ctl->driver,
		      ctl->family, known);
	return false;
}

static bool parse_controller(struct parse_ctx *c, int node, const char *path, const char *name,
			     struct tf_controller *ctl)
{
	struct prop_val v[C_COUNT_];
	char family[64] = "", bus[16] = "", power[32] = "";
	uint32_t reg = 0, blreg = 0;
	bool ok = true, reg_ok = false, bus_ok = false;
	const char *at, *irq_word;
	int child;

	memset(ctl, 0, sizeof(*ctl));
	snprintf(ctl->node_path, sizeof(ctl->node_path), "%s", path);
	read_props(c, node, path, NODE_CONTROLLER, ctrl_props, C_COUNT_, v);

	fdt_for_each_subnode(child, c->fdt, node) {
		char sub[256], cpath[512];
		int len = 0;
		const char *cname = fdt_get_name(c->fdt, child, &len);

		safe_copy(sub, sizeof(sub), cname ? cname : "?",
			  cname && len > 0 ? (size_t)len : 1);
		snprintf(cpath, sizeof(cpath), "%s/%s", path, sub);
		issue(c, cpath, "unknown node (a controller has no child nodes)");
		ok = false;
	}

	/* family */
	if (!v[C_FAMILY].seen) {
		issue(c, path, "family is missing (known: %s)",
		      family_list(family, sizeof(family)));
		family[0] = '\0';
		ok = false;
	} else if (val_string(c, path, "family", &v[C_FAMILY], family, sizeof(family))) {
		if (!tf_family_ids_by_name(family)) {
			char known[128];

			issue(c, path, "family \"%s\" is not supported (known: %s)", family,
			      family_list(known, sizeof(known)));
			ok = false;
		} else {
			/* A known family name always fits. */
			tf_snprintf(ctl->family, sizeof(ctl->family), "%s", family);
		}
	} else {
		ok = false;
	}

	/* bus */
	if (!v[C_BUS].seen) {
		issue(c, path, "bus is missing (\"i2c\" or \"spi\")");
		ok = false;
	} else if (val_string(c, path, "bus", &v[C_BUS], bus, sizeof(bus))) {
		if (strcmp(bus, "i2c") && strcmp(bus, "spi")) {
			issue(c, path, "bus \"%s\" is not one of \"i2c\", \"spi\"", bus);
			ok = false;
		} else {
			tf_snprintf(ctl->bus, sizeof(ctl->bus), "%s", bus);
			bus_ok = true;
		}
	} else {
		ok = false;
	}

	/* adapter */
	if (v[C_ADAPTER_NAME].seen && v[C_ADAPTER_PATH].seen) {
		issue(c, path,
		      "give exactly one of adapter-name and adapter-path; both "
		      "are given");
		ok = false;
	} else if (!v[C_ADAPTER_NAME].seen && !v[C_ADAPTER_PATH].seen) {
		issue(c, path,
		      "adapter-name or adapter-path is missing (adapters are "
		      "named, never numbered)");
		ok = false;
	} else if (v[C_ADAPTER_NAME].seen) {
		if (!val_string(c, path, "adapter-name", &v[C_ADAPTER_NAME], ctl->adapter_name,
				sizeof(ctl->adapter_name))) {
			ok = false;
		} else if (bus_number_name(ctl->adapter_name)) {
			issue(c, path,
			      "adapter-name \"%s\" is a bus number, and bus "
			      "numbers change between boots (did you mean the "
			      "adapter's name, as in /sys/bus/i2c/devices/%s/name, "
			      "or its device-tree adapter-path?)",
			      ctl->adapter_name, bus_number_name(ctl->adapter_name));
			ok = false;
		} else if (bus_ok && !strcmp(bus, "i2c") &&
			   strlen(ctl->adapter_name) > I2C_ADAPTER_NAME_MAX) {
			issue(c, path,
			      "adapter-name is longer than %d characters, more "
			      "than an i2c adapter name can hold",
			      I2C_ADAPTER_NAME_MAX);
			ok = false;
		}
	} else {
		if (!val_string(c, path, "adapter-path", &v[C_ADAPTER_PATH], ctl->adapter_path,
				sizeof(ctl->adapter_path))) {
			ok = false;
		} else if (board_dt_path_strip(ctl->adapter_path) != ctl->adapter_path) {
			/* Copied from a shell: it could never match. */
			const char *plain = board_dt_path_strip(ctl->adapter_path);

			issue(c, path,
			      "adapter-path \"%s\" is a path in /proc or /sys; "
			      "write the device-tree path \"%s\"",
			      ctl->adapter_path, *plain ? plain : "/");
			ok = false;
		} else if (!dt_path_ok(ctl->adapter_path)) {
			issue(c, path,
			      "adapter-path \"%s\" is not an absolute "
			      "device-tree node path like \"/soc/i2c@7000c400\"",
			      ctl->adapter_path);
			ok = false;
		}
	}

	/* reg */
	if (!v[C_REG].seen) {
		issue(c, path,
		      "reg is missing (the i2c address or spi chip "
		      "select, like reg = <0x4a>;)");
		ok = false;
	} else if (val_u32(c, path, "reg", &v[C_REG], "0x4a", &reg)) {
		if (bus_ok && !reg_in_range(bus, reg)) {
			reg_range_issue(c, path, "reg", bus, reg);
			ok = false;
		} else if (bus_ok) {
			ctl->reg = (uint16_t)reg;
			reg_ok = true;
		}
	} else {
		ok = false;
	}

	/* The unit address, when given, must agree with reg. */
	at = strchr(name, '@');
	if (at && reg_ok) {
		char want[16];

		snprintf(want, sizeof(want), "%x", reg);
		if (strcmp(at + 1, want)) {
			issue(c, path,
			      "unit address \"%s\" does not match reg 0x%x "
			      "(name the node %.*s@%s)",
			      at + 1, reg, (int)(at - name), name, want);
			ok = false;
		}
	}

	/* bootloader-reg */
	if (v[C_BOOTLOADER_REG].seen &&
	    val_u32(c, path, "bootloader-reg", &v[C_BOOTLOADER_REG], "0x26", &blreg)) {
		if (bus_ok && strcmp(bus, "i2c")) {
			issue(c, path, "bootloader-reg is for i2c controllers only");
			ok = false;
		} else if (bus_ok && !reg_in_range(bus, blreg)) {
			reg_range_issue(c, path, "bootloader-reg", bus, blreg);
			ok = false;
		} else if (reg_ok && blreg == reg) {
			issue(c, path, "bootloader-reg 0x%x is the same as reg", blreg);
			ok = false;
		} else {
			ctl->has_bootloader_reg = true;
			ctl->bootloader_reg = (uint16_t)blreg;
		}
	} else if (v[C_BOOTLOADER_REG].seen) {
		ok = false;
	}

	/* hid-descr-addr: the HID descriptor register (HID over I2C), as
	 * the kernel's hid-over-i2c binding names it */
	if (v[C_HID_DESCR_ADDR].seen) {
		uint32_t dreg;

		if (!val_u32(c, path, "hid-descr-addr", &v[C_HID_DESCR_ADDR], "0x0001",
			     &dreg)) {
			ok = false;
		} else if (bus_ok && strcmp(bus, "i2c")) {
			issue(c, path, "hid-descr-addr is for i2c controllers only");
			ok = false;
		} else if (dreg > 0xffff) {
			issue(c, path, "hid-descr-addr 0x%x is not a 16-bit register", dreg);
			ok = false;
		} else {
			ctl->has_hid_descr_addr = true;
			ctl->hid_descr_addr = (uint16_t)dreg;
		}
	}

	/* driver */
	if (v[C_DRIVER].seen) {
		if (!val_string(c, path, "driver", &v[C_DRIVER], ctl->driver,
				sizeof(ctl->driver))) {
			ok = false;
		} else if (!charset_ok(ctl->driver, "_-")) {
			issue(c, path,
			      "driver \"%s\" is not a kernel driver name "
			      "(letters, digits, _ and - only)",
			      ctl->driver);
			ok = false;
		} else if (ctl->family[0] && !family_has_driver(c, path, ctl)) {
			ok = false;
		}
	}

	/* GPIO lines */
	parse_gpio(c, path, "reset", v, C_RESET_CHIP, &ctl->reset, &ctl->has_reset);
	/* the interrupt line's properties by their old names say "chg" */
	irq_word = v[C_IRQ_CHIP].as || v[C_IRQ_LINE].as || v[C_IRQ_NAME].as ||
				   v[C_IRQ_ACTIVE_LOW].as
			   ? "chg"
			   : "irq";
	parse_gpio(c, path, irq_word, v, C_IRQ_CHIP, &ctl->irq, &ctl->has_irq);
	if ((v[C_RESET_CHIP].seen || v[C_RESET_NAME].seen || v[C_RESET_LINE].seen ||
	     v[C_RESET_ACTIVE_LOW].seen) &&
	    !ctl->has_reset)
		ok = false;
	if ((v[C_IRQ_CHIP].seen || v[C_IRQ_NAME].seen || v[C_IRQ_LINE].seen ||
	     v[C_IRQ_ACTIVE_LOW].seen) &&
	    !ctl->has_irq)
		ok = false;
	if (ctl->has_reset && ctl->has_irq && gpio_same(&ctl->reset, &ctl->irq)) {
		issue(c, path, "reset and %s name the same GPIO line", irq_word);
		ok = false;
	}

	/* power */
	if (!v[C_POWER].seen) {
		issue(c, path,
		      "power is missing: say \"driver\" (the kernel driver "
		      "switches the chip's power; never unbind to flash) or "
		      "\"always-on\"");
		ok = false;
	} else if (val_string(c, path, "power", &v[C_POWER], power, sizeof(power))) {
		if (!strcmp(power, "driver")) {
			ctl->power = TF_POWER_DRIVER;
		} else if (!strcmp(power, "always-on")) {
			ctl->power = TF_POWER_ALWAYS_ON;
		} else {
			issue(c, path,
			      "power \"%s\" is not one of \"driver\", "
			      "\"always-on\"",
			      power);
			ok = false;
		}
	} else {
		ok = false;
	}

	/* firmware DB pins */
	if (!pin_ok(c, path, v, C_FIRMWARE_PIN, ctl->firmware_pin, sizeof(ctl->firmware_pin)))
		ok = false;
	if (!pin_ok(c, path, v, C_CONFIG_PIN, ctl->config_pin, sizeof(ctl->config_pin)))
		ok = false;

	/* the driver's configuration file name, as the board's DT gives it */
	if (v[C_CONFIG_NAME].seen) {
		if (!val_string(c, path, "config-name", &v[C_CONFIG_NAME], ctl->config_name,
				sizeof(ctl->config_name))) {
			ok = false;
		} else if (!charset_ok(ctl->config_name, "._-") ||
			   !strcmp(ctl->config_name, ".") || !strcmp(ctl->config_name, "..")) {
			issue(c, path,
			      "config-name \"%s\" is not a plain file name "
			      "(letters, digits and ._- only)",
			      ctl->config_name);
			ok = false;
		}
	}
	if (v[C_SWAPPED_X_Y].seen) {
		if (val_flag(c, path, "touchscreen-swapped-x-y", &v[C_SWAPPED_X_Y]))
			ctl->swapped_x_y = true;
		else
			ok = false;
	}
	if (v[C_BUS_RECOVERY].seen) {
		if (val_flag(c, path, "allow-bus-recovery", &v[C_BUS_RECOVERY]))
			ctl->bus_recovery = true;
		else
			ok = false;
	}
	/* the panel's size as the kernel's touchscreen-size-x/-y give it
	 * (touchscreen.yaml: the largest coordinate + 1) */
	for (int i = C_SIZE_X; i <= C_SIZE_Y; i++) {
		uint32_t *out = i == C_SIZE_X ? &ctl->size_x : &ctl->size_y;

		if (!v[i].seen)
			continue;
		if (!val_u32(c, path, ctrl_props[i], &v[i], "1280", out)) {
			ok = false;
		} else if (*out < 1 || *out > 65536) {
			issue(c, path, "%s %u is out of range (1..65536)", ctrl_props[i], *out);
			ok = false;
		}
	}

	/* spi settings: the bus's own properties, as in spi-peripheral-props */
	for (int k = C_SPI_MAX_FREQ; k <= C_SPI_BITS; k++) {
		if (v[k].seen && strcmp(ctl->bus, "spi")) {
			issue(c, path, "%s is an spi setting; bus is \"%s\"", ctrl_props[k],
			      ctl->bus);
			ok = false;
		}
	}
	if (v[C_SPI_MAX_FREQ].seen) {
		if (!val_u32(c, path, "spi-max-frequency", &v[C_SPI_MAX_FREQ], "8000000",
			     &ctl->spi_max_hz)) {
			ok = false;
		} else if (ctl->spi_max_hz < TF_BOARD_SPI_HZ_MIN ||
			   ctl->spi_max_hz > TF_BOARD_SPI_HZ_MAX) {
			issue(c, path, "spi-max-frequency %u is not %u..%u Hz", ctl->spi_max_hz,
			      TF_BOARD_SPI_HZ_MIN, TF_BOARD_SPI_HZ_MAX);
			ok = false;
		}
	}
	if (v[C_SPI_CPOL].seen || v[C_SPI_CPHA].seen) {
		ctl->has_spi_mode = true;
		if (v[C_SPI_CPOL].seen) {
			if (val_flag(c, path, "spi-cpol", &v[C_SPI_CPOL]))
				ctl->spi_mode |= 2; /* SPI_CPOL */
			else
				ok = false;
		}
		if (v[C_SPI_CPHA].seen) {
			if (val_flag(c, path, "spi-cpha", &v[C_SPI_CPHA]))
				ctl->spi_mode |= 1; /* SPI_CPHA */
			else
				ok = false;
		}
	}
	if (v[C_SPI_BITS].seen) {
		uint32_t bits = 0;

		if (!val_u32(c, path, "spi-bits-per-word", &v[C_SPI_BITS], "8", &bits)) {
			ok = false;
		} else if (bits < 1 || bits > 32) {
			issue(c, path, "spi-bits-per-word %u is not 1..32", bits);
			ok = false;
		} else {
			ctl->spi_bits = (uint8_t)bits;
		}
	}

	/* timeouts */
	if (!parse_timeout(c, path, v, C_INPUT_TIMEOUT, TF_BOARD_INPUT_TIMEOUT_MIN_MS,
			   TF_BOARD_INPUT_TIMEOUT_MAX_MS, &ctl->input_timeout_ms))
		ok = false;
	if (!parse_timeout(c, path, v, C_FLASH_TIMEOUT, TF_BOARD_FLASH_TIMEOUT_MIN_MS,
			   TF_BOARD_FLASH_TIMEOUT_MAX_MS, &ctl->flash_timeout_ms))
		ok = false;

	return ok && reg_ok;
}

static bool same_adapter(const struct tf_controller *a, const struct tf_controller *b)
{
	if (strcmp(a->bus, b->bus))
		return false;
	if (a->adapter_name[0])
		return !strcmp(a->adapter_name, b->adapter_name);
	return b->adapter_path[0] && !strcmp(a->adapter_path, b->adapter_path);
}

/* Two controllers can not share an address on one adapter. */
static void check_addresses(struct parse_ctx *c, struct tf_controller *ctl, size_t n)
{
	size_t i, j;

	for (j = 1; j < n; j++) {
		const struct tf_controller *b = &ctl[j];

		for (i = 0; i < j; i++) {
			const struct tf_controller *a = &ctl[i];

			if (!same_adapter(a, b))
				continue;
			if (a->reg == b->reg)
				issue(c, b->node_path, "same bus, adapter and reg as %s",
				      a->node_path);
			else if (b->has_bootloader_reg &&
				 (b->bootloader_reg == a->reg ||
				  (a->has_bootloader_reg &&
				   a->bootloader_reg == b->bootloader_reg)))
				issue(c, b->node_path, "bootloader-reg 0x%x is also used by %s",
				      b->bootloader_reg, a->node_path);
			else if (a->has_bootloader_reg && a->bootloader_reg == b->reg)
				issue(c, b->node_path, "reg 0x%x is the bootloader-reg of %s",
				      b->reg, a->node_path);
		}
	}
}

static void parse_controllers(struct parse_ctx *c, int node, struct tf_board_profile *p)
{
	static const char path[] = "/controllers";
	struct prop_val v[L_COUNT_];
	uint32_t cells;
	bool all_ok = true;
	size_t n = 0;
	int child;

	read_props(c, node, path, NODE_CONTROLLERS, controllers_props, L_COUNT_, v);
	if (v[L_ADDRESS_CELLS].seen &&
	    val_u32(c, path, "#address-cells", &v[L_ADDRESS_CELLS], "1", &cells) && cells != 1)
		issue(c, path, "#address-cells must be <1> (reg is one cell)");
	if (v[L_SIZE_CELLS].seen &&
	    val_u32(c, path, "#size-cells", &v[L_SIZE_CELLS], "0", &cells) && cells != 0)
		issue(c, path, "#size-cells must be <0> (reg has no size)");

	p->ctrl = calloc(MAX_CONTROLLERS, sizeof(*p->ctrl));
	if (!p->ctrl) {
		c->oom = true;
		return;
	}
	fdt_for_each_subnode(child, c->fdt, node) {
		char cpath[256], safe[200];
		int len = 0;
		const char *name = fdt_get_name(c->fdt, child, &len);

		if (!name || len <= 0) {
			issue(c, path, "a controller node has no name");
			all_ok = false;
			continue;
		}
		safe_copy(safe, sizeof(safe), name, (size_t)len);
		snprintf(cpath, sizeof(cpath), "%s/%s", path, safe);
		if (n == MAX_CONTROLLERS) {
			issue(c, cpath, "too many controllers (at most %d)", MAX_CONTROLLERS);
			all_ok = false;
			break;
		}
		if (!name_is_clean(name, (size_t)len) || (size_t)len >= sizeof(safe)) {
			issue(c, cpath,
			      "node name must be printable ASCII without "
			      "spaces, shorter than %zu characters",
			      sizeof(safe));
			all_ok = false;
			continue;
		}
		if (parse_controller(c, child, cpath, name, &p->ctrl[n]))
			n++;
		else
			all_ok = false;
	}
	if (child < 0 && child != -FDT_ERR_NOTFOUND)
		issue(c, path, "unreadable node: %s", fdt_strerror(child));
	if (n == 0 && all_ok)
		issue(c, path, "no controllers: add at least one controller node");
	check_addresses(c, p->ctrl, n);
	p->n_ctrl = n;
}

static void parse_dmi(struct parse_ctx *c, int node, struct tf_board_profile *p)
{
	static const char path[] = "/dmi-match";
	const char *known[TF_DMI_KEY_COUNT_];
	struct prop_val v[TF_DMI_KEY_COUNT_];
	size_t i, n = 0;
	int child;

	for (i = 0; i < TF_DMI_KEY_COUNT_; i++)
		known[i] = dmi_keys[i].prop;
	read_props(c, node, path, NODE_DMI, known, TF_DMI_KEY_COUNT_, v);
	fdt_for_each_subnode(child, c->fdt, node) {
		char sub[128], cpath[256];
		int len = 0;
		const char *cname = fdt_get_name(c->fdt, child, &len);

		safe_copy(sub, sizeof(sub), cname ? cname : "?",
			  cname && len > 0 ? (size_t)len : 1);
		snprintf(cpath, sizeof(cpath), "%s/%s", path, sub);
		issue(c, cpath, "unknown node (dmi-match has no child nodes)");
	}
	for (i = 0; i < TF_DMI_KEY_COUNT_; i++)
		if (v[i].seen)
			n++;
	if (n == 0) {
		issue(c, path,
		      "dmi-match has no keys; add sys-vendor, product-name, "
		      "board-name, ...");
		return;
	}
	p->dmi = calloc(n, sizeof(*p->dmi));
	if (!p->dmi) {
		c->oom = true;
		return;
	}
	for (i = 0; i < TF_DMI_KEY_COUNT_; i++) {
		struct tf_dmi_match *m = &p->dmi[p->n_dmi];

		if (!v[i].seen)
			continue;
		if (val_strlist(c, path, dmi_keys[i].prop, &v[i], MAX_DMI_PATTERN_LEN, true,
				&m->patterns, &m->n_patterns)) {
			m->key = (enum tf_dmi_key)i;
			p->n_dmi++;
		}
	}
}

static void parse_root(struct parse_ctx *c, struct tf_board_profile *p, bool name_too_long)
{
	static const char *const root_nodes[] = { "controllers", "dmi-match" };
	struct prop_val v[R_COUNT_];
	int child, ctrl_node = -1, dmi_node = -1;
	uint32_t version;

	read_props(c, 0, "/", NODE_ROOT, root_props, R_COUNT_, v);

	if (!v[R_VERSION].seen) {
		issue(c, "/",
		      "touchfw,profile-version is missing (write "
		      "touchfw,profile-version = <%d>;)",
		      TF_BOARD_PROFILE_VERSION);
	} else if (val_u32(c, "/", root_props[R_VERSION], &v[R_VERSION], "1", &version) &&
		   version != TF_BOARD_PROFILE_VERSION) {
		/* A newer format can not be judged by these rules. */
		issue(c, "/",
		      "touchfw,profile-version %u is not supported (this "
		      "touchfw reads version %d)",
		      version, TF_BOARD_PROFILE_VERSION);
		return;
	}
	if (name_too_long)
		issue(c, "",
		      "file name is too long (at most %zu characters before "
		      ".dtb)",
		      sizeof(p->name) - 1);

	if (!v[R_MODEL].seen)
		issue(c, "/", "model is missing (a human-readable board name)");
	else
		val_string(c, "/", "model", &v[R_MODEL], p->model, sizeof(p->model));

	fdt_for_each_subnode(child, c->fdt, 0) {
		char safe[200], cpath[256];
		int len = 0;
		const char *name = fdt_get_name(c->fdt, child, &len);
		const char *pick;

		if (!name || len <= 0) {
			issue(c, "/", "a node has no name");
			continue;
		}
		if (!strcmp(name, "controllers") || !strcmp(name, "dmi-match")) {
			int *slot = name[0] == 'c' ? &ctrl_node : &dmi_node;

			if (*slot >= 0)
				issue(c, "/", "node %s is given twice", name);
			else
				*slot = child;
			continue;
		}
		safe_copy(safe, sizeof(safe), name, (size_t)len);
		snprintf(cpath, sizeof(cpath), "/%s", safe);
		pick = closest(name, root_nodes, TF_ARRAY_SIZE(root_nodes));
		if (pick)
			issue(c, cpath, "unknown node (did you mean \"%s\"?)", pick);
		else
			issue(c, cpath,
			      "unknown node (expected controllers or "
			      "dmi-match)");
	}

	if (v[R_BOARD_COMPATIBLE].seen && dmi_node >= 0)
		issue(c, "/",
		      "has both board-compatible and a dmi-match node; give "
		      "exactly one");
	else if (!v[R_BOARD_COMPATIBLE].seen && dmi_node < 0)
		issue(c, "/",
		      "needs board-compatible (device-tree boards) or a "
		      "dmi-match node (ACPI boards); neither is given");

	if (v[R_BOARD_COMPATIBLE].seen)
		val_strlist(c, "/", "board-compatible", &v[R_BOARD_COMPATIBLE],
			    MAX_COMPATIBLE_LEN, false, &p->compatible, &p->n_compatible);
	if (dmi_node >= 0)
		parse_dmi(c, dmi_node, p);

	if (v[R_BOARD_IDS].seen) {
		val_strlist(c, "/", "board-ids", &v[R_BOARD_IDS], MAX_BOARD_ID_LEN, false,
			    &p->board_ids, &p->n_board_ids);
	} else if (p->n_compatible) {
		if (strv_copy(p->compatible, p->n_compatible, &p->board_ids))
			c->oom = true;
		else
			p->n_board_ids = p->n_compatible;
	} else if (p->name[0]) {
		char *one = strdup(p->name);

		p->board_ids = one ? calloc(1, sizeof(char *)) : NULL;
		if (!p->board_ids) {
			free(one);
			c->oom = true;
		} else {
			p->board_ids[0] = one;
			p->n_board_ids = 1;
		}
	} else if (dmi_node >= 0) {
		issue(c, "/",
		      "board-ids is missing and there is no file name to take "
		      "it from");
	}

	if (ctrl_node < 0)
		issue(c, "/", "controllers node is missing");
	else
		parse_controllers(c, ctrl_node, p);
}

void tf_board_free(struct tf_board_profile *p)
{
	size_t i;

	if (!p)
		return;
	board_strv_free(p->compatible, p->n_compatible);
	for (i = 0; i < p->n_dmi; i++)
		board_strv_free(p->dmi[i].patterns, p->dmi[i].n_patterns);
	free(p->dmi);
	board_strv_free(p->board_ids, p->n_board_ids);
	free(p->ctrl);
	free(p);
}

static uint32_t be32_at(const void *base, uint64_t off)
{
	const uint8_t *b = (const uint8_t *)base + off;

	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/*
 * Walk the structure block of a blob whose header fits in @total bytes,
 * without libfdt, and say what is wrong with it (NULL if nothing).  Every
 * step moves forward and stays inside the block, and every property name
 * is a NUL-terminated string inside the strings block.  libfdt 1.6.1's own
 * walk trusts a property length that points backwards and then loops for
 * ever inside fdt_check_full() (found by fuzz_board); once this walk has
 * passed, libfdt's takes the same steps and ends.
 */
const char *board_walk_structure(const void *fdt, uint32_t total)
{
	uint64_t s_off = fdt_off_dt_struct(fdt), s_size = fdt_size_dt_struct(fdt);
	uint64_t t_off = fdt_off_dt_strings(fdt), t_size = fdt_size_dt_strings(fdt);
	uint64_t p, end;
	uint32_t depth = 0;
	bool root_seen = false;

	if (s_off + s_size > total || t_off + t_size > total || (s_off & 3))
		return "a block lies outside the blob";
	p = s_off;
	end = s_off + s_size;
	while (p + 4 <= end) {
		uint32_t tag = be32_at(fdt, p);
		const char *name, *nul;
		uint32_t plen, nameoff;

		p += 4;
		switch (tag) {
		case FDT_BEGIN_NODE:
			name = (const char *)fdt + p;
			nul = memchr(name, '\0', (size_t)(end - p));
			if (!nul)
				return "a node name runs off the structure "
				       "block";
			if (!root_seen && (depth != 0 || nul != name))
				return "the tree does not start with the root "
				       "node";
			if (root_seen && depth == 0)
				return "there is more than one root node";
			root_seen = true;
			depth++;
			p = (p + (uint64_t)(nul - name) + 1 + 3) & ~(uint64_t)3;
			break;
		case FDT_END_NODE:
			if (depth == 0)
				return "a node ends that never began";
			depth--;
			break;
		case FDT_PROP:
			if (depth == 0)
				return "a property lies outside any node";
			if (p + 8 > end)
				return "a property header runs off the "
				       "structure "
				       "block";
			plen = be32_at(fdt, p);
			nameoff = be32_at(fdt, p + 4);
			p += 8;
			if (plen > end - p)
				return "a property value runs off the "
				       "structure "
				       "block";
			if (nameoff >= t_size || !memchr((const char *)fdt + t_off + nameoff,
							 '\0', (size_t)(t_size - nameoff)))
				return "a property name lies outside the "
				       "strings "
				       "block";
			p = (p + plen + 3) & ~(uint64_t)3;
			break;
		case FDT_NOP:
			break;
		case FDT_END:
			if (depth != 0 || !root_seen)
				return "the tree ends inside a node";
			return NULL;
		default:
			return "an unknown tag in the structure block";
		}
		if (p > end)
			return "the structure block is cut short";
	}
	return "the structure block has no end tag";
}

/*
 * Header and structure checks, in an order that never reads past @len:
 * the header must fit before libfdt looks at it, and totalsize must fit
 * before fdt_check_full() walks the blocks.
 */
static bool check_blob(struct parse_ctx *c, const void *fdt, size_t len)
{
	const char *why;
	uint32_t total;
	int r;

	if (len == 0) {
		issue(c, "", "the file is empty");
		return false;
	}
	if (len < sizeof(struct fdt_header)) {
		issue(c, "",
		      "not a device tree blob: %zu bytes is shorter than its "
		      "header",
		      len);
		return false;
	}
	if (fdt_magic(fdt) != FDT_MAGIC) {
		issue(c, "",
		      "not a compiled device tree (no d00dfeed magic); compile "
		      "the .dts with dtc -I dts -O dtb");
		return false;
	}
	/*
	 * Before version 16 node names were full paths, and libfdt 1.6.1's
	 * fdt_check_full() dereferences NULL on such a root (found by
	 * fuzz_board); version 17 added the structure size the walk below
	 * needs.  dtc has written version 17 since 2007.
	 */
	if (fdt_version(fdt) < FDT_MIN_VERSION) {
		issue(c, "",
		      "device tree blob version %u is too old (at least %d; "
		      "recompile it with dtc)",
		      fdt_version(fdt), FDT_MIN_VERSION);
		return false;
	}
	total = fdt_totalsize(fdt);
	if (total > len) {
		issue(c, "", "truncated: the header says %u bytes, the file has %zu", total,
		      len);
		return false;
	}
	if (total < len) {
		issue(c, "", "%zu bytes of trailing data after the device tree", len - total);
		return false;
	}
	why = board_walk_structure(fdt, total);
	if (why) {
		issue(c, "", "corrupt device tree blob: %s", why);
		return false;
	}
	r = fdt_check_full(fdt, len);
	if (r) {
		issue(c, "", "corrupt device tree blob: %s", fdt_strerror(r));
		return false;
	}
	return true;
}

int tf_board_parse(const void *dtb, size_t len, const char *path, struct tf_board_profile **out,
		   struct tf_board_report *rep)
{
	struct parse_ctx c = { .rep = rep };
	struct tf_board_profile *p;
	void *copy = NULL;
	bool name_too_long = false;

	*out = NULL;
	if (!dtb)
		len = 0;
	if (len > TF_BOARD_MAX_DTB_SIZE) {
		issue(&c, "", "larger than %u bytes; not a board profile",
		      TF_BOARD_MAX_DTB_SIZE);
		return -EINVAL;
	}
	/* libfdt wants 8-byte alignment; callers may hand any buffer. */
	if (len && ((uintptr_t)dtb & 7)) {
		copy = malloc(len);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, dtb, len);
		dtb = copy;
	}
	c.fdt = dtb;
	if (!check_blob(&c, dtb, len)) {
		free(copy);
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		free(copy);
		return -ENOMEM;
	}
	if (path) {
		snprintf(p->path, sizeof(p->path), "%s", path);
		profile_name(path, p->name, sizeof(p->name), &name_too_long);
	}
	parse_root(&c, p, name_too_long);
	free(copy);
	if (c.oom) {
		tf_board_free(p);
		return -ENOMEM;
	}
	if (c.n_issues) {
		tf_board_free(p);
		return -EINVAL;
	}
	*out = p;
	return 0;
}
