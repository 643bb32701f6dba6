// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Board bring-up against the running machine: `board identify --live`
 * holds every controller of the matching profile against what is there --
 * the adapter (by name or DT path), the kernel's i2c client at the address,
 * the driver bound to it, which address the chip answers at (the family's
 * detect(), read-only: c.read_only, and never at a device another driver
 * holds), the GPIO lines (looked up, never requested) --
 * and where something differs, says what the machine has instead ("did
 * you mean").
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "cmd-board-priv.h"
#include "device.h"
#include "family/family.h"
#include "gpio.h"
#include "json.h"
#include "out.h"
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
