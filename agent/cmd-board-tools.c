// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Board bring-up against the running machine: `board identify --live`
 * holds every controller of the matching profile against what is there --
 * the adapter (by name or DT path), the kernel's i2c client at the address,
 * the driver bound to it, which address the chip answers at (the family's
 * detect(), reading only), the GPIO lines (looked up, never requested) --
 * and where something differs, says what the machine has instead ("did
 * you mean").  `board init DEVICE` writes a profile skeleton from a bound
 * device that `board check` accepts, leaving what sysfs can not tell
 * (lines, power) as comments to fill in.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "cmd-board.h"
#include "device.h"
#include "exitcode.h"
#include "family/family.h"
#include "gpio.h"
#include "settings.h"
#include "util.h"

#define SYS_I2C "/sys/bus/i2c/devices"

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
			printf("    did you mean reg = <0x%02x>? %s is bound to %s there\n", addr,
			       de->d_name, drv);
		else if ((int)nr != want_nr)
			printf("    did you mean adapter-name = \"%s\"? %s (reg 0x%02x) is bound "
			       "to %s\n", aname, de->d_name, addr, drv);
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
		printf("    did you mean adapter-name = \"%s\"?\n", best);
	if (all[0])
		printf("    adapters here:%s\n", all);
	else
		printf("    no i2c adapters here (is the adapter's driver loaded?)\n");
}

static bool family_has_driver(const struct tf_family *f, const char *drv)
{
	const char *const *d;

	for (d = f->ids->drivers; d && *d; d++)
		if (!strcmp(*d, drv))
			return true;
	return false;
}

static int check_line(const char *what, const struct tf_gpio_spec *g)
{
	char who[80] = "";
	struct tf_err err = { 0 };

	if (tf_gpio_lookup(g, who, sizeof(who), &err) < 0) {
		printf("  FAIL %s line: %s\n", what, err.msg);
		printf("    'gpioinfo' lists the lines there are by chip and name\n");
		return 1;
	}
	if (g->name[0])
		printf("  ok   %s line \"%s\" is there%s%s%s\n", what, g->name,
		       who[0] ? " (held by \"" : ", free", who, who[0] ? "\")" : "");
	else
		printf("  ok   %s line %s:%d is there%s%s%s\n", what, g->chip, g->line,
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
	if (fam->ops->init && fam->ops->init(&c, &err) < 0) {
		printf("  FAIL %s\n", err.msg);
		return 1;
	}
	if (tf_i2c_open(&c.bus, dev->adapter_nr, &err) < 0) {
		printf("  --   chip not probed: %s%s\n", err.msg,
		       err.code == EACCES ? " (needs root)" : "");
		goto out;
	}
	c.bus_open = true;
	if (fam->ops->detect(&c, &st, &err) < 0) {
		printf("  FAIL chip: %s\n", err.msg);
		bad = 1;
	} else if (st.mode == TF_CHIP_ABSENT) {
		printf("  FAIL chip: %s\n", st.detail);
		bad = 1;
	} else {
		printf("  ok   chip answers: %s\n", st.detail);
	}
	tf_i2c_close(&c.bus);
out:
	if (fam->ops->fini)
		fam->ops->fini(&c);
	return bad;
}

static int check_controller(const struct tf_controller *ctl)
{
	const struct tf_family *fam = tf_family_by_name(ctl->family);
	struct tf_device dev;
	struct tf_err err = { 0 };
	char name[64];
	int nr, bad = 0;

	printf("%s (%s):\n", ctl->node_path, ctl->family);
	if (!fam) {
		printf("  FAIL family \"%s\" is not one touchfw knows\n", ctl->family);
		return 1;
	}
	if (strcmp(ctl->bus, "i2c")) {
		printf("  --   %s controllers are not checked live yet\n", ctl->bus);
		return 0;
	}
	nr = tf_i2c_adapter_find(ctl->adapter_name, ctl->adapter_path);
	if (nr < 0) {
		printf("  FAIL adapter %s\"%s\" is not on this machine\n",
		       ctl->adapter_name[0] ? "" : "path ",
		       ctl->adapter_name[0] ? ctl->adapter_name : ctl->adapter_path);
		if (!hint_family_devices(fam, -1, ctl->reg))
			hint_adapters(ctl->adapter_name);
		bad++;
		goto lines;
	}
	printf("  ok   adapter i2c-%d\n", nr);
	tf_snprintf(name, sizeof(name), "%d-%04x", nr, ctl->reg);
	if (tf_device_lookup(name, &dev, &err) < 0) {
		printf("  FAIL no i2c client %s: the kernel has no device at 0x%02x on i2c-%d "
		       "(firmware description or ACPI/DT node missing?)\n", name, ctl->reg, nr);
		hint_family_devices(fam, nr, ctl->reg);
		bad++;
		goto lines;
	}
	printf("  ok   device %s\n", name);
	if (!dev.driver[0]) {
		printf("  FAIL no driver bound to %s (expected %s; is the module loaded?)\n", name,
		       ctl->driver[0] ? ctl->driver : fam->ids->drivers[0]);
		bad++;
	} else if (ctl->driver[0] && strcmp(ctl->driver, dev.driver)) {
		printf("  FAIL driver %s is bound, the profile says %s\n", dev.driver, ctl->driver);
		if (family_has_driver(fam, dev.driver))
			printf("    did you mean driver = \"%s\"?\n", dev.driver);
		bad++;
	} else if (!family_has_driver(fam, dev.driver)) {
		printf("  FAIL driver %s is bound: not a %s driver\n", dev.driver, fam->ids->name);
		bad++;
	} else {
		printf("  ok   driver %s bound\n", dev.driver);
	}
	bad += check_answer(fam, ctl, &dev);
lines:
	/* The lines are the board's whatever the kernel made of the chip. */
	if (ctl->has_reset)
		bad += check_line("reset", &ctl->reset);
	if (ctl->has_chg)
		bad += check_line("interrupt", &ctl->chg);
	return bad;
}

int tf_board_live(const struct tf_board_profile *p)
{
	size_t i;
	int bad = 0;

	printf("live check of %s against this machine:\n", p->name);
	for (i = 0; i < p->n_ctrl; i++)
		bad += check_controller(&p->ctrl[i]);
	printf("live: %zu controller%s, %d problem%s\n", p->n_ctrl, p->n_ctrl == 1 ? "" : "s",
	       bad, bad == 1 ? "" : "s");
	return bad;
}

/* ------------------------------------------------------------ init */

static void init_usage(FILE *f)
{
	fprintf(f,
		"Usage: touchfw board init DEVICE [--out FILE]\n"
		"\n"
		"Write a board profile skeleton (.dts) for the bound controller\n"
		"DEVICE (1-004a): this machine's identity (root compatible, else\n"
		"DMI vendor and product), the controller's family, adapter name,\n"
		"address and driver.  What sysfs can not tell -- reset and\n"
		"interrupt lines, who powers the chip -- is left as comments to\n"
		"fill in.  'touchfw board check FILE' accepts the skeleton as it\n"
		"is.  Without --out, to standard output; FILE is never\n"
		"overwritten (exit %d, %s).\n",
		TF_EXIT_EXISTS, tf_exit_name(TF_EXIT_EXISTS));
}

/* A string for a .dts: quotes and backslashes escaped. */
static void dts_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void write_skeleton(FILE *f, const struct tf_device *dev, const struct tf_family *fam,
			   const struct tf_board_identity *id)
{
	const char *vendor = id->dmi_present[TF_DMI_SYS_VENDOR] ? id->dmi[TF_DMI_SYS_VENDOR] : "";
	const char *product =
		id->dmi_present[TF_DMI_PRODUCT_NAME] ? id->dmi[TF_DMI_PRODUCT_NAME] : "";

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
		fprintf(f, "\t/* No device tree: the machine by its DMI (/sys/class/dmi/id). */\n"
			   "\tdmi-match {\n");
		if (vendor[0]) {
			fprintf(f, "\t\tsys-vendor = ");
			dts_str(f, vendor);
			fprintf(f, ";\n");
		}
		if (product[0]) {
			fprintf(f, "\t\tproduct-name = ");
			dts_str(f, product);
			fprintf(f, ";\n");
		}
		fprintf(f, "\t};\n");
	}
	fprintf(f,
		"\n\tcontrollers {\n"
		"\t\t#address-cells = <1>;\n"
		"\t\t#size-cells = <0>;\n\n"
		"\t\ttouchscreen@%x {\n"
		"\t\t\tfamily = \"%s\";\n"
		"\t\t\tbus = \"i2c\";\n"
		"\t\t\tadapter-name = ",
		dev->addr, fam->ids->name);
	dts_str(f, dev->adapter_name);
	fprintf(f,
		";\n"
		"\t\t\treg = <0x%02x>;\n"
		"\t\t\tdriver = ",
		dev->addr);
	dts_str(f, dev->driver);
	fprintf(f,
		";\n"
		"\t\t\t/* Lines, by name as 'gpioinfo' shows them (or -gpio-chip and\n"
		"\t\t\t * -gpio-line), when the board wires them to the SoC:\n"
		"\t\t\t * reset-gpio-name = \"...\"; reset-active-low;\n"
		"\t\t\t * chg-gpio-name = \"...\";\n"
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
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	const struct tf_family *fam;
	struct tf_board_identity id;
	struct tf_device dev;
	struct tf_err err = { 0 };
	FILE *f = stdout;
	int c, fd;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'h':
			init_usage(stdout);
			return TF_EXIT_OK;
		default:
			fprintf(stderr, "touchfw: board init: bad option '%s'\n", argv[optind - 1]);
			init_usage(stderr);
			return TF_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "touchfw: board init: give one DEVICE\n");
		init_usage(stderr);
		return TF_EXIT_USAGE;
	}
	if (tf_device_lookup(argv[optind], &dev, &err) < 0) {
		fprintf(stderr, "touchfw: board init: %s\n", err.msg);
		return TF_EXIT_NO_DEVICE;
	}
	if (!dev.driver[0]) {
		fprintf(stderr, "touchfw: board init: no driver is bound to %s: bind the touch "
			"driver first, so its family is known\n", dev.name);
		return TF_EXIT_UNSUPPORTED;
	}
	fam = tf_family_by_driver(dev.driver);
	if (!fam) {
		fprintf(stderr, "touchfw: board init: %s is bound to %s, a driver no touchfw "
			"family knows\n", dev.name, dev.driver);
		return TF_EXIT_UNSUPPORTED;
	}
	if (strcmp(dev.subsys, "i2c") || !dev.has_addr || !dev.adapter_name[0]) {
		fprintf(stderr, "touchfw: board init: %s: only i2c clients with an address in "
			"their name and a named adapter so far\n", dev.name);
		return TF_EXIT_UNSUPPORTED;
	}
	if (tf_board_identify("", &id, &err) < 0) {
		fprintf(stderr, "touchfw: board init: %s\n", err.msg);
		return TF_EXIT_FAILURE;
	}
	if (out) {
		fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 || !(f = fdopen(fd, "w"))) {
			int e = errno;

			if (fd >= 0)
				close(fd);
			fprintf(stderr, "touchfw: board init: %s: %s%s\n", out, strerror(e),
				e == EEXIST ? " (not overwritten)" : "");
			tf_board_identity_free(&id);
			return e == EEXIST ? TF_EXIT_EXISTS
			       : e == EACCES ? TF_EXIT_PERMISSION
					     : TF_EXIT_FAILURE;
		}
	}
	write_skeleton(f, &dev, fam, &id);
	tf_board_identity_free(&id);
	if (out) {
		if (fclose(f) != 0) {
			fprintf(stderr, "touchfw: board init: writing %s: %s\n", out,
				strerror(errno));
			unlink(out);
			return TF_EXIT_FAILURE;
		}
		fprintf(stderr, "wrote %s: check the lines and power, then 'touchfw board check "
			"%s'\n", out, out);
	}
	return TF_EXIT_OK;
}
