// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Board bring-up against the running machine: `board identify --live`
 * holds every controller of the matching profile against what is there --
 * the adapter (by name or DT path), the kernel's i2c client at the address,
 * the driver bound to it, which address the chip answers at (the family's
 * detect(), read-only: c.read_only, and never at a device another driver
 * holds), the GPIO lines (looked up, never requested) --
 * and where something differs, says what the machine has instead ("did
 * you mean").  `board init DEVICE` writes a profile skeleton from a bound
 * device that `board check` accepts, leaving what sysfs can not tell
 * (lines, power) as comments to fill in.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "cli.h"
#include "cmd-board.h"
#include "device.h"
#include "exitcode.h"
#include "family/family.h"
#include "gpio.h"
#include "json.h"
#include "out.h"
#include "settings.h"
#include "util.h"

#define SYS_I2C "/sys/bus/i2c/devices"

/*
 * Where the live check's findings go: text lines ("  ok   ...",
 * "  FAIL ...", "    did you mean ...") or, with --json, one object per
 * finding in the controller's "checks" array.
 */
static struct tf_json *live_json;

enum finding { LIVE_OK, LIVE_FAIL, LIVE_SKIP, LIVE_HINT };

static void say(enum finding k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(enum finding k, const char *fmt, ...)
{
	static const char *const text[] = { "  ok   ", "  FAIL ", "  --   ", "    " };
	static const char *const key[] = { "ok", "fail", "skipped", "hint" };
	char msg[600], shown[2400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!live_json) {
		/* names from sysfs (adapters) can not drive the terminal */
		tf_out("%s%s\n", text[k], tf_escape(msg, shown, sizeof(shown)));
		return;
	}
	tf_json_begin_object(live_json, NULL);
	tf_json_string(live_json, "result", key[k]);
	tf_json_string(live_json, "message", msg);
	tf_json_end_object(live_json);
}

/* Edit distance, for "did you mean" on names. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, prev, tmp;
	size_t row[130];

	if (lb >= TF_ARRAY_SIZE(row))
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			tmp = row[j];
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

/* The driver bound to /sys/bus/i2c/devices/@dev, "" if none. */
static void driver_of(const char *dev, char *buf, size_t size)
{
	char path[PATH_MAX], target[PATH_MAX];
	ssize_t n;
	const char *slash;

	buf[0] = '\0';
	tf_snprintf(path, sizeof(path), SYS_I2C "/%s/driver", dev);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	slash = strrchr(target, '/');
	tf_snprintf(buf, size, "%s", slash ? slash + 1 : target);
}

/* Clients bound to a driver of @fam, anywhere: "did you mean" for the
 * adapter and the address.  Prints hints, returns how many. */
static int hint_family_devices(const struct tf_family *fam, int want_nr, uint16_t want_reg)
{
	DIR *d = opendir(SYS_I2C);
	struct dirent *de;
	int hints = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char drv[64], aname[128], path[PATH_MAX];
		unsigned nr, addr;
		const struct tf_family *f;

		if (sscanf(de->d_name, "%u-%4x", &nr, &addr) != 2)
			continue;
		driver_of(de->d_name, drv, sizeof(drv));
		f = drv[0] ? tf_family_by_driver(drv) : NULL;
		if (f != fam)
			continue;
		tf_snprintf(path, sizeof(path), SYS_I2C "/i2c-%u/name", nr);
		if (tf_read_attr(path, aname, sizeof(aname)) < 0)
			aname[0] = '\0';
		if ((int)nr == want_nr && addr != want_reg)
			say(LIVE_HINT, "did you mean reg = <0x%02x>? %s is bound to %s there",
			    addr, de->d_name, drv);
		else if ((int)nr != want_nr)
			say(LIVE_HINT,
			    "did you mean adapter-name = \"%s\"? %s (reg 0x%02x) is bound "
			    "to %s",
			    aname, de->d_name, addr, drv);
		else
			continue;
		hints++;
	}
	closedir(d);
	return hints;
}

/* The adapter names there are, closest to @want first. */
static void hint_adapters(const char *want)
{
	DIR *d = opendir(SYS_I2C);
	struct dirent *de;
	char best[128] = "", all[1024] = "";
	size_t best_d = (size_t)-1, n = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[PATH_MAX], name[128];
		size_t dd;

		if (strncmp(de->d_name, "i2c-", 4))
			continue;
		tf_snprintf(path, sizeof(path), SYS_I2C "/%s/name", de->d_name);
		if (tf_read_attr(path, name, sizeof(name)) < 0)
			continue;
		n += (size_t)snprintf(all + n, n < sizeof(all) ? sizeof(all) - n : 0,
				      "%s%s \"%s\"", n ? "," : "", de->d_name, name);
		dd = want && want[0] ? distance(want, name) : (size_t)-1;
		if (dd < best_d) {
			best_d = dd;
			tf_snprintf(best, sizeof(best), "%s", name);
		}
	}
	closedir(d);
	if (best[0] && want && best_d <= strlen(want) / 3 + 2)
		say(LIVE_HINT, "did you mean adapter-name = \"%s\"?", best);
	if (all[0])
		say(LIVE_HINT, "adapters here:%s", all);
	else
		say(LIVE_HINT, "no i2c adapters here (is the adapter's driver loaded?)");
}

static int check_line(const char *what, const struct tf_gpio_spec *g)
{
	char who[80] = "";
	struct tf_err err = { 0 };

	if (tf_gpio_lookup(g, who, sizeof(who), &err) < 0) {
		say(LIVE_FAIL, "%s line: %s", what, err.msg);
		say(LIVE_HINT, "'gpioinfo' lists the lines there are by chip and name");
		return 1;
	}
	if (g->name[0])
		say(LIVE_OK, "%s line \"%s\" is there%s%s%s", what, g->name,
		    who[0] ? " (held by \"" : ", free", who, who[0] ? "\")" : "");
	else
		say(LIVE_OK, "%s line %s:%d is there%s%s%s", what, g->chip, g->line,
		    who[0] ? " (held by \"" : ", free", who, who[0] ? "\")" : "");
	return 0;
}

/* The family's detect() at the controller's address: which address
 * answers, in which mode. */
static int check_answer(const struct tf_family *fam, const struct tf_controller *ctl,
			const struct tf_device *dev)
{
	struct tf_ctx c = { 0 };
	struct tf_chip_state st;
	struct tf_err err = { 0 };
	int bad = 0;

	c.dev = *dev;
	c.ctrl = ctl;
	c.read_only = true;
	/* Another driver's device is that driver's: nothing is sent to it
	 * (a family's detection could write into it). */
	if (dev->driver[0] && !tf_family_has_driver(fam, dev->driver)) {
		say(LIVE_SKIP,
		    "chip not asked: %s is bound to %s, not an %s driver; touchfw sends "
		    "nothing to another driver's device",
		    dev->name, dev->driver, fam->ids->name);
		return 0;
	}
	if (fam->ops->init && fam->ops->init(&c, &err) < 0) {
		say(LIVE_FAIL, "%s", err.msg);
		return 1;
	}
	if (tf_i2c_open(&c.bus, dev->adapter_nr, &err) < 0) {
		say(LIVE_SKIP, "chip not probed: %s%s", err.msg,
		    err.code == EACCES ? " (needs root)" : "");
		goto out;
	}
	if (fam->ops->detect(&c, &st, &err) < 0) {
		/* EOPNOTSUPP: only a write that changes the chip would tell */
		say(err.code == EOPNOTSUPP ? LIVE_SKIP : LIVE_FAIL, "chip: %s", err.msg);
		bad = err.code != EOPNOTSUPP;
	} else if (st.mode == TF_CHIP_ABSENT) {
		say(LIVE_FAIL, "chip: %s", st.detail);
		bad = 1;
	} else {
		say(LIVE_OK, "chip answers: %s", st.detail);
	}
	tf_i2c_close(c.bus);
out:
	if (fam->ops->fini)
		fam->ops->fini(&c);
	return bad;
}

/* The bus at an address the kernel has no client for: a hint only. */
static void probe_unclaimed(const struct tf_family *fam, const struct tf_controller *ctl,
			    const struct tf_device *dev)
{
	struct tf_ctx c = { 0 };
	struct tf_chip_state st;
	struct tf_err err = { 0 };

	c.dev = *dev;
	c.ctrl = ctl;
	c.read_only = true;
	if (fam->ops->init && fam->ops->init(&c, &err) < 0)
		return;
	if (tf_i2c_open(&c.bus, dev->adapter_nr, &err) == 0) {
		if (fam->ops->detect(&c, &st, &err) < 0)
			say(LIVE_HINT, "the bus at 0x%02x: %s", ctl->reg, err.msg);
		else if (st.mode == TF_CHIP_ABSENT)
			say(LIVE_HINT, "no chip answers there either: %s", st.detail);
		else
			say(LIVE_HINT,
			    "a chip answers there all the same (%s): only the "
			    "firmware's (DT/ACPI) description of it is missing",
			    st.detail);
		tf_i2c_close(c.bus);
	}
	if (fam->ops->fini)
		fam->ops->fini(&c);
}

/* The bound driver against the profile's and the family's. */
static int check_driver(const struct tf_family *fam, const struct tf_controller *ctl,
			const struct tf_device *dev)
{
	if (!dev->driver[0]) {
		say(LIVE_FAIL, "no driver bound to %s (expected %s; is the module loaded?)",
		    dev->name, ctl->driver[0] ? ctl->driver : fam->ids->drivers[0]);
		return 1;
	}
	if (ctl->driver[0] && strcmp(ctl->driver, dev->driver)) {
		say(LIVE_FAIL, "driver %s is bound, the profile says %s", dev->driver,
		    ctl->driver);
		if (tf_family_has_driver(fam, dev->driver))
			say(LIVE_HINT, "did you mean driver = \"%s\"?", dev->driver);
		return 1;
	}
	if (!tf_family_has_driver(fam, dev->driver)) {
		say(LIVE_FAIL, "driver %s is bound: not a %s driver", dev->driver,
		    fam->ids->name);
		return 1;
	}
	say(LIVE_OK, "driver %s bound", dev->driver);
	return 0;
}

/*
 * An spi controller: the device spiB.C whose controller the profile names
 * (adapter-name: the controller's device; adapter-path: its DT node) at
 * chip select reg, its driver.  The chip itself is not asked: only spidev
 * reaches it from user space, and a live check unbinds nothing.
 */
static int check_spi_controller(const struct tf_family *fam, const struct tf_controller *ctl)
{
	struct tf_board_profile one = { .ctrl = (struct tf_controller *)ctl, .n_ctrl = 1 };
	struct tf_device dev;
	struct dirent *de;
	bool found = false;
	DIR *d = opendir("/sys/bus/spi/devices");
	int bad = 0;

	while (d && (de = readdir(d)) && !found) {
		if (strncmp(de->d_name, "spi", 3) ||
		    tf_device_lookup(de->d_name, &dev, NULL) < 0)
			continue;
		found = dev.has_addr &&
			tf_board_find_controller(&one, "spi", dev.adapter_name,
						 dev.adapter_of_path, dev.addr) == ctl;
	}
	if (d)
		closedir(d);
	if (!found) {
		say(LIVE_FAIL,
		    "no spi device at chip select %u on the controller %s\"%s\" (firmware "
		    "description or ACPI/DT node missing, or the controller's driver not "
		    "loaded?)",
		    ctl->reg, ctl->adapter_name[0] ? "" : "at ",
		    ctl->adapter_name[0] ? ctl->adapter_name : ctl->adapter_path);
		bad++;
		goto lines;
	}
	say(LIVE_OK, "spi controller %s", dev.adapter_name);
	say(LIVE_OK, "device %s", dev.name);
	bad += check_driver(fam, ctl, &dev);
	say(LIVE_SKIP,
	    "chip not asked: over spi only spidev reaches it and a live check unbinds "
	    "nothing ('touchfw probe %s' reads it, through the driver's attributes or "
	    "over spidev when no driver holds it)",
	    dev.name);
lines:
	if (ctl->has_reset)
		bad += check_line("reset", &ctl->reset);
	if (ctl->has_irq)
		bad += check_line("interrupt", &ctl->irq);
	return bad;
}

static int check_controller(const struct tf_controller *ctl)
{
	const struct tf_family *fam = tf_family_by_name(ctl->family);
	struct tf_device dev;
	struct tf_err err = { 0 };
	char name[64];
	int nr, bad = 0;

	if (!fam) {
		say(LIVE_FAIL, "family \"%s\" is not one touchfw knows", ctl->family);
		return 1;
	}
	if (!strcmp(ctl->bus, "spi"))
		return check_spi_controller(fam, ctl);
	if (strcmp(ctl->bus, "i2c")) {
		say(LIVE_SKIP, "%s controllers are not checked live yet", ctl->bus);
		return 0;
	}
	nr = tf_i2c_adapter_find(ctl->adapter_name, ctl->adapter_path);
	if (nr < 0) {
		say(LIVE_FAIL, "adapter %s\"%s\" is not on this machine",
		    ctl->adapter_name[0] ? "" : "path ",
		    ctl->adapter_name[0] ? ctl->adapter_name : ctl->adapter_path);
		if (!hint_family_devices(fam, -1, ctl->reg))
			hint_adapters(ctl->adapter_name);
		bad++;
		goto lines;
	}
	say(LIVE_OK, "adapter i2c-%d", nr);
	tf_snprintf(name, sizeof(name), "%d-%04x", nr, ctl->reg);
	if (tf_device_lookup(name, &dev, &err) < 0) {
		say(LIVE_FAIL,
		    "no i2c client %s: the kernel has no device at 0x%02x on i2c-%d "
		    "(firmware description or ACPI/DT node missing?)",
		    name, ctl->reg, nr);
		hint_family_devices(fam, nr, ctl->reg);
		/* Does a chip answer there all the same?  Then only the
		 * firmware's description of it is missing. */
		memset(&dev, 0, sizeof(dev));
		tf_snprintf(dev.name, sizeof(dev.name), "%s", name);
		tf_snprintf(dev.subsys, sizeof(dev.subsys), "i2c");
		dev.adapter_nr = nr;
		dev.has_addr = true;
		dev.addr = ctl->reg;
		probe_unclaimed(fam, ctl, &dev);
		bad++;
		goto lines;
	}
	say(LIVE_OK, "device %s", name);
	bad += check_driver(fam, ctl, &dev);
	bad += check_answer(fam, ctl, &dev);
lines:
	/* The lines are the board's whatever the kernel made of the chip. */
	if (ctl->has_reset)
		bad += check_line("reset", &ctl->reset);
	if (ctl->has_irq)
		bad += check_line("interrupt", &ctl->irq);
	return bad;
}

int tf_board_live(const struct tf_board_profile *p, struct tf_json *j)
{
	size_t i;
	int bad = 0, b;

	live_json = j;
	if (j)
		tf_json_begin_array(j, "live");
	else
		tf_out("live check of %s against this machine:\n", p->name);
	for (i = 0; i < p->n_ctrl; i++) {
		if (j) {
			tf_json_begin_object(j, NULL);
			tf_json_string(j, "controller", p->ctrl[i].node_path);
			tf_json_begin_array(j, "checks");
		} else {
			tf_out("%s (%s):\n", p->ctrl[i].node_path, p->ctrl[i].family);
		}
		b = check_controller(&p->ctrl[i]);
		bad += b;
		if (j) {
			tf_json_end_array(j);
			tf_json_uint(j, "problems", (unsigned)b);
			tf_json_end_object(j);
		}
	}
	if (j)
		tf_json_end_array(j);
	else
		tf_out("live: %zu controller%s, %d problem%s\n", p->n_ctrl,
		       p->n_ctrl == 1 ? "" : "s", bad, bad == 1 ? "" : "s");
	live_json = NULL;
	return bad;
}

/* ------------------------------------------------------------ init */

static void init_usage(FILE *f)
{
	fprintf(f,
		"Usage: touchfw board init DEVICE [--out FILE [--json]]\n"
		"\n"
		"Write a board profile skeleton (.dts) for the bound controller\n"
		"DEVICE (1-004a, spi1.0): this machine's identity (root compatible, else\n"
		"DMI vendor and product), the controller's family, adapter name,\n"
		"address and driver.  What sysfs can not tell -- reset and\n"
		"interrupt lines, who powers the chip -- is left as comments to\n"
		"fill in.  'touchfw board check FILE' accepts the skeleton as it\n"
		"is.  DMI values that are firmware placeholders (\"Default\n"
		"string\", ...) are left out, with a warning.  Without --out, to\n"
		"standard output; FILE is never overwritten (exit %d, %s).\n"
		"--json (with --out): the file written and what it describes, one\n"
		"JSON document (doc/json.md).\n",
		TF_EXIT_EXISTS, tf_exit_name(TF_EXIT_EXISTS));
}

/* A string for a .dts: quotes and backslashes escaped, control
 * characters and bytes that are not UTF-8 as \xHH, which dtc reads back
 * as the same bytes (so the profile still matches the sysfs name). */
static bool has_control_chars(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

static void dts_str(FILE *f, const char *s)
{
	char e[1100];

	fprintf(f, "\"%s\"", tf_escape_ex(s, true, e, sizeof(e)));
}

/*
 * The DMI keys a skeleton matches on: sys-vendor and product-name, and
 * where one of them is a firmware placeholder ("Default string": the
 * same on every machine built from that template) board-vendor and
 * board-name too.  A placeholder is left out with a warning on stderr:
 * a profile matching it would match all those machines.  Returns how many
 * keys are left in @use.
 */
static size_t skeleton_dmi_keys(const struct tf_board_identity *id, bool use[TF_DMI_KEY_COUNT_])
{
	static const enum tf_dmi_key first[] = { TF_DMI_SYS_VENDOR, TF_DMI_PRODUCT_NAME };
	static const enum tf_dmi_key more[] = { TF_DMI_BOARD_VENDOR, TF_DMI_BOARD_NAME };
	bool placeholder = false;
	size_t i, n = 0;

	memset(use, 0, sizeof(bool) * TF_DMI_KEY_COUNT_);
	for (i = 0; i < TF_ARRAY_SIZE(first) + TF_ARRAY_SIZE(more); i++) {
		enum tf_dmi_key k = i < TF_ARRAY_SIZE(first) ? first[i]
							     : more[i - TF_ARRAY_SIZE(first)];

		if (i >= TF_ARRAY_SIZE(first) && !placeholder)
			break;
		if (!id->dmi_present[k])
			continue;
		if (tf_dmi_placeholder(id->dmi[k])) {
			char shown[300];

			tf_escape(id->dmi[k], shown, sizeof(shown));
			tf_out_err(
				"touchfw: board init: warning: DMI %s is \"%s\", a firmware "
				"placeholder that every machine built from the same template "
				"has: left out of dmi-match\n",
				tf_dmi_key_property(k), shown);
			placeholder = true;
			continue;
		}
		use[k] = true;
		n++;
	}
	if (!n)
		tf_out_err("touchfw: board init: warning: no DMI key names this machine; fill "
			   "in dmi-match by hand (e.g. product-sku, board-version) before "
			   "installing the profile\n");
	return n;
}

static void write_skeleton(FILE *f, const struct tf_device *dev, const struct tf_family *fam,
			   const struct tf_board_identity *id)
{
	bool use[TF_DMI_KEY_COUNT_];
	size_t n_keys = id->n_compatible ? 0 : skeleton_dmi_keys(id, use);
	const char *vendor = !id->n_compatible && use[TF_DMI_SYS_VENDOR]
				     ? id->dmi[TF_DMI_SYS_VENDOR]
				     : "";
	const char *product = !id->n_compatible && use[TF_DMI_PRODUCT_NAME]
				      ? id->dmi[TF_DMI_PRODUCT_NAME]
				      : "";
	size_t k;

	fprintf(f,
		"// SPDX-License-Identifier: GPL-2.0-or-later\n"
		"/*\n"
		" * Written by 'touchfw board init %s' from the running machine.\n"
		" * Check it: model, the lines, power; then 'touchfw board check' and\n"
		" * 'touchfw board identify --live'.  touchfw reads the compiled .dtb.\n"
		" */\n"
		"/dts-v1/;\n\n"
		"/ {\n"
		"\ttouchfw,profile-version = <1>;\n"
		"\tmodel = ",
		dev->name);
	if (id->n_compatible)
		dts_str(f, id->compatible[0]);
	else if (vendor[0] || product[0]) {
		char m[300];

		tf_snprintf(m, sizeof(m), "%s%s%s", vendor, vendor[0] && product[0] ? " " : "",
			    product);
		dts_str(f, m);
	} else
		dts_str(f, "unknown board");
	fprintf(f, ";\n");
	if (id->n_compatible) {
		fprintf(f, "\tboard-compatible = ");
		dts_str(f, id->compatible[0]);
		fprintf(f, ";\n");
	} else {
		fprintf(f,
			"\t/* No device tree: the machine by its DMI (/sys/class/dmi/id). */\n"
			"\tdmi-match {\n");
		for (k = 0; k < TF_DMI_KEY_COUNT_; k++) {
			if (!use[k])
				continue;
			fprintf(f, "\t\t%s = ", tf_dmi_key_property((enum tf_dmi_key)k));
			dts_str(f, id->dmi[k]);
			fprintf(f, ";\n");
		}
		if (!n_keys)
			fprintf(f, "\t\t/* No DMI key here names this machine (only "
				   "firmware placeholders):\n"
				   "\t\t * give the ones that do. */\n");
		fprintf(f, "\t};\n");
	}
	fprintf(f,
		"\n\tcontrollers {\n"
		"\t\t#address-cells = <1>;\n"
		"\t\t#size-cells = <0>;\n\n"
		"\t\ttouchscreen@%x {\n"
		"\t\t\tfamily = \"%s\";\n"
		"\t\t\tbus = \"%s\";\n"
		"%s",
		dev->addr, fam->ids->name, dev->subsys,
		strcmp(dev->subsys, "spi")
			? ""
			: "\t\t\t/* The spi controller's device (spiB's parent); "
			  "reg is the chip select. */\n");
	/*
	 * A device-tree board: the adapter by its node, as the kernel's tree
	 * has it (/sys/firmware/devicetree/base/...): that path is the
	 * board's, where the adapter's name is its driver's (issue 22).
	 */
	if (dev->adapter_of_path[0] == '/' && !has_control_chars(dev->adapter_of_path)) {
		fprintf(f, "\t\t\t/* the adapter's node in the kernel's device tree */\n"
			   "\t\t\tadapter-path = ");
		dts_str(f, dev->adapter_of_path);
	} else {
		fprintf(f, "\t\t\tadapter-name = ");
		dts_str(f, dev->adapter_name);
		if (has_control_chars(dev->adapter_name))
			tf_out_err(
				"touchfw: board init: warning: the name of adapter i2c-%d has "
				"control characters (written as \\xHH): 'touchfw board check' "
				"refuses them in adapter-name, so give adapter-path (its device "
				"tree node) instead\n",
				dev->adapter_nr);
	}
	fprintf(f,
		";\n"
		"\t\t\treg = <0x%02x>;\n"
		"\t\t\tdriver = ",
		dev->addr);
	dts_str(f, dev->driver);
	fprintf(f, ";\n");
	if (!strcmp(dev->subsys, "spi"))
		fprintf(f, "\t\t\t/* The bus settings touchfw uses over spidev, as the\n"
			   "\t\t\t * driver sets them (touchfw-board(5)); without them the\n"
			   "\t\t\t * spidev node's speed and the device's mode stay:\n"
			   "\t\t\t * spi-max-frequency = <8000000>; spi-cpol; spi-cpha;\n"
			   "\t\t\t */\n");
	fprintf(f, "\t\t\t/* Lines, by name as 'gpioinfo' shows them (or -gpio-chip and\n"
		   "\t\t\t * -gpio-line), when the board wires them to the SoC:\n"
		   "\t\t\t * reset-gpio-name = \"...\"; reset-active-low;\n"
		   "\t\t\t * irq-gpio-name = \"...\";\n"
		   "\t\t\t */\n"
		   "\t\t\t/* \"driver\": the driver owns the chip's power (safe default);\n"
		   "\t\t\t * \"always-on\" when the rail is never switched off. */\n"
		   "\t\t\tpower = \"driver\";\n"
		   "\t\t};\n"
		   "\t};\n"
		   "};\n");
}

int tf_cmd_board_init(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	bool json = false;
	const struct tf_family *fam;
	struct tf_board_identity id;
	struct tf_device dev;
	struct tf_err err = { 0 };
	FILE *f = tf_out_file();
	struct tf_cli_opts g = { "touchfw: board init", "ho:", opts, init_usage };
	int c, fd;

	while ((c = tf_cli_getopt(argc, argv, &g)) != -1) {
		if (c == TF_CLI_STOP)
			return g.exit;
		if (c == 'o')
			out = optarg;
		if (c == 'j')
			json = true;
	}
	if (json && !out) {
		tf_out_err("touchfw: board init: --json needs --out FILE (without it the "
			   "profile is standard output)\n");
		return TF_EXIT_USAGE;
	}
	if (optind != argc - 1) {
		tf_out_err("touchfw: board init: give one DEVICE\n");
		init_usage(tf_out_err_file());
		return TF_EXIT_USAGE;
	}
	if (tf_device_lookup(argv[optind], &dev, &err) < 0) {
		tf_out_err("touchfw: board init: %s\n", err.msg);
		return TF_EXIT_NO_DEVICE;
	}
	if (!dev.driver[0]) {
		tf_out_err("touchfw: board init: no driver is bound to %s: bind the touch "
			   "driver first, so its family is known\n",
			   dev.name);
		return TF_EXIT_UNSUPPORTED;
	}
	fam = tf_family_by_driver(dev.driver);
	if (!fam) {
		tf_out_err("touchfw: board init: %s is bound to %s, a driver no touchfw "
			   "family knows\n",
			   dev.name, dev.driver);
		return TF_EXIT_UNSUPPORTED;
	}
	if (!dev.has_addr || !dev.adapter_name[0]) {
		tf_out_err("touchfw: board init: %s: only i2c clients with an address in "
			   "their name and spi devices (spiB.C) on a named controller so far\n",
			   dev.name);
		return TF_EXIT_UNSUPPORTED;
	}
	if (tf_board_identify("", &id, &err) < 0) {
		tf_out_err("touchfw: board init: %s\n", err.msg);
		return TF_EXIT_FAILURE;
	}
	if (out) {
		/* a new file in a checked directory (touchfw(8), FILES) */
		fd = tf_create_path(out, 0644, &err);
		if (fd < 0 || !(f = fdopen(fd, "w"))) {
			int e = fd < 0 ? -fd : errno;

			if (fd >= 0) {
				close(fd);
				unlink(out);
			}
			tf_out_err("touchfw: board init: %s\n", fd < 0 ? err.msg : strerror(e));
			tf_board_identity_free(&id);
			return e == EEXIST		   ? TF_EXIT_EXISTS
			       : e == EACCES || e == EPERM ? TF_EXIT_PERMISSION
							   : TF_EXIT_FAILURE;
		}
	}
	write_skeleton(f, &dev, fam, &id);
	tf_board_identity_free(&id);
	if (out) {
		if (fclose(f) != 0) {
			tf_out_err("touchfw: board init: writing %s: %s\n", out,
				   strerror(errno));
			unlink(out);
			return TF_EXIT_FAILURE;
		}
		tf_out_err("wrote %s: check the lines and power, then 'touchfw board check "
			   "%s'\n",
			   out, out);
	}
	if (json) {
		struct tf_json j;

		tf_json_init(&j);
		tf_json_begin_object(&j, NULL);
		tf_json_int(&j, "version", TF_JSON_VERSION);
		tf_json_string(&j, "file", out);
		tf_json_string(&j, "device", dev.name);
		tf_json_string(&j, "bus", dev.subsys);
		tf_json_string(&j, "family", fam->ids->name);
		tf_json_string(&j, "driver", dev.driver);
		tf_json_string(&j, "adapter", dev.adapter_name);
		tf_json_end_object(&j);
		tf_out_json(&j);
		tf_json_free(&j);
	}
	return TF_EXIT_OK;
}

/* ------------------------------------------------------------ identify --json */

static void json_gpio(struct tf_json *j, const char *key, bool has,
		      const struct tf_gpio_spec *g)
{
	if (!has) {
		tf_json_string(j, key, NULL);
		return;
	}
	tf_json_begin_object(j, key);
	tf_json_string(j, "name", g->name[0] ? g->name : NULL);
	tf_json_string(j, "chip", g->name[0] ? NULL : g->chip);
	if (!g->name[0])
		tf_json_int(j, "line", g->line);
	tf_json_bool(j, "active_low", g->active_low);
	tf_json_end_object(j);
}

static void json_controller(struct tf_json *j, const struct tf_controller *c)
{
	char reg[8];

	tf_json_begin_object(j, NULL);
	tf_json_string(j, "node", c->node_path);
	tf_json_string(j, "family", c->family);
	tf_json_string(j, "bus", c->bus);
	tf_json_string(j, "adapter_name", c->adapter_name[0] ? c->adapter_name : NULL);
	tf_json_string(j, "adapter_path", c->adapter_path[0] ? c->adapter_path : NULL);
	snprintf(reg, sizeof(reg), "0x%02x", c->reg);
	tf_json_string(j, "reg", reg);
	snprintf(reg, sizeof(reg), "0x%02x", c->bootloader_reg);
	tf_json_string(j, "bootloader_reg", c->has_bootloader_reg ? reg : NULL);
	tf_json_string(j, "driver", c->driver[0] ? c->driver : NULL);
	json_gpio(j, "reset", c->has_reset, &c->reset);
	json_gpio(j, "irq", c->has_irq, &c->irq);
	/* the same under its first name, for readers of older documents */
	json_gpio(j, "chg", c->has_irq, &c->irq);
	tf_json_string(j, "power", tf_power_name(c->power));
	tf_json_string(j, "firmware_pin", c->firmware_pin[0] ? c->firmware_pin : NULL);
	tf_json_string(j, "config_pin", c->config_pin[0] ? c->config_pin : NULL);
	tf_json_string(j, "config_name", c->config_name[0] ? c->config_name : NULL);
	tf_json_end_object(j);
}

int tf_board_identify_json(const char *sysroot, const char *const *dirs, size_t n_dirs,
			   bool live)
{
	const struct tf_board_profile *pick;
	struct tf_board_identity id;
	struct tf_board_match_info mi;
	struct tf_board_set *set = NULL;
	struct tf_err err = { 0 };
	struct tf_json j;
	const char *text;
	size_t i, k;
	int bad = 0, rc;

	if (tf_board_identify(sysroot, &id, &err)) {
		tf_out_err("touchfw: %s\n", err.msg);
		return TF_EXIT_FAILURE;
	}
	if (tf_board_load(dirs, n_dirs, &set, &err)) {
		tf_out_err("touchfw: can not load board profiles: %s\n", err.msg);
		tf_board_identity_free(&id);
		return TF_EXIT_FAILURE;
	}
	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_int(&j, "version", TF_JSON_VERSION);
	tf_json_begin_object(&j, "identity");
	tf_json_begin_array(&j, "compatible");
	for (i = 0; i < id.n_compatible; i++)
		tf_json_string(&j, NULL, id.compatible[i]);
	tf_json_end_array(&j);
	tf_json_string(&j, "compatible_source",
		       id.compatible_source[0] ? id.compatible_source : NULL);
	if (id.has_dmi) {
		tf_json_begin_object(&j, "dmi");
		for (i = 0; i < TF_DMI_KEY_COUNT_; i++)
			if (id.dmi_present[i])
				tf_json_string(&j, tf_dmi_key_property((enum tf_dmi_key)i),
					       id.dmi[i]);
		tf_json_end_object(&j);
	} else {
		tf_json_string(&j, "dmi", NULL);
	}
	tf_json_end_object(&j);
	tf_json_begin_array(&j, "profile_dirs");
	for (i = 0; i < n_dirs; i++)
		tf_json_string(&j, NULL, dirs[i]);
	tf_json_end_array(&j);
	tf_json_uint(&j, "valid_profiles", tf_board_set_count(set));
	tf_json_begin_array(&j, "invalid_profiles");
	for (i = 0; i < tf_board_set_invalid_count(set); i++) {
		const struct tf_board_report *rep = tf_board_set_invalid_report(set, i);

		tf_json_begin_object(&j, NULL);
		tf_json_string(&j, "path", tf_board_set_invalid_path(set, i));
		tf_json_begin_array(&j, "mistakes");
		for (k = 0; rep && k < rep->n; k++) {
			tf_json_begin_object(&j, NULL);
			tf_json_string(&j, "node", rep->issues[k].node);
			tf_json_string(&j, "message", rep->issues[k].msg);
			tf_json_end_object(&j);
		}
		tf_json_end_array(&j);
		tf_json_end_object(&j);
	}
	tf_json_end_array(&j);
	tf_json_begin_array(&j, "ignored");
	for (i = 0; i < tf_board_set_ignored_count(set); i++)
		tf_json_string(&j, NULL, tf_board_set_ignored_path(set, i));
	tf_json_end_array(&j);
	tf_json_begin_array(&j, "overridden");
	for (i = 0; i < tf_board_set_shadowed_count(set); i++) {
		const char *by = NULL, *path = tf_board_set_shadowed_path(set, i, &by);

		tf_json_begin_object(&j, NULL);
		tf_json_string(&j, "path", path);
		tf_json_string(&j, "by", by);
		tf_json_end_object(&j);
	}
	tf_json_end_array(&j);
	pick = tf_board_match(set, &id, &mi);
	tf_json_begin_array(&j, "also_matches");
	for (i = 0; i < tf_board_set_count(set); i++) {
		const struct tf_board_profile *p = tf_board_set_get(set, i);

		if (p != pick && tf_board_profile_matches(p, &id, NULL))
			tf_json_string(&j, NULL, p->path);
	}
	tf_json_end_array(&j);
	if (!pick) {
		char why[1200];

		tf_json_string(&j, "profile", NULL);
		tf_board_explain_board_miss(set, &id, why, sizeof(why));
		tf_json_string(&j, "nearest", why);
	} else {
		tf_json_begin_object(&j, "profile");
		tf_json_string(&j, "name", pick->name);
		tf_json_string(&j, "path", pick->path);
		tf_json_string(&j, "model", pick->model);
		tf_json_string(&j, "matched_by",
			       mi.kind == TF_BOARD_MATCH_COMPATIBLE ? "compatible"
								    : "dmi-match");
		tf_json_string(&j, "matched_compatible",
			       mi.kind == TF_BOARD_MATCH_COMPATIBLE
				       ? id.compatible[mi.compatible_index]
				       : NULL);
		tf_json_begin_array(&j, "board_ids");
		for (i = 0; i < pick->n_board_ids; i++)
			tf_json_string(&j, NULL, pick->board_ids[i]);
		tf_json_end_array(&j);
		tf_json_begin_array(&j, "controllers");
		for (i = 0; i < pick->n_ctrl; i++)
			json_controller(&j, &pick->ctrl[i]);
		tf_json_end_array(&j);
		tf_json_end_object(&j);
		if (live)
			bad = tf_board_live(pick, &j);
	}
	{
		char diff[600];
		const struct tf_board_profile *other =
			pick ? tf_board_match_conflict(set, &id, pick, diff, sizeof(diff))
			     : NULL;

		if (other) {
			tf_json_begin_object(&j, "conflict");
			tf_json_string(&j, "path", other->path);
			tf_json_string(&j, "differs", diff);
			tf_json_end_object(&j);
			bad = 1;
		} else {
			tf_json_string(&j, "conflict", NULL);
		}
	}
	tf_json_end_object(&j);
	text = tf_json_text(&j);
	tf_out("%s\n", text ? text : "{}");
	rc = !text   ? TF_EXIT_FAILURE
	     : !pick ? TF_EXIT_NO_PROFILE
	     : bad   ? TF_EXIT_PROFILE_INVALID
		     : TF_EXIT_OK;
	tf_json_free(&j);
	tf_board_set_free(set);
	tf_board_identity_free(&id);
	return rc;
}
