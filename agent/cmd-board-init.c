// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw board init DEVICE` writes a profile skeleton from a bound
 * device that `board check` accepts, leaving what sysfs can not tell
 * (lines, power) as comments to fill in.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "cli.h"
#include "cmd-board-priv.h"
#include "device.h"
#include "exitcode.h"
#include "family/family.h"
#include "json.h"
#include "out.h"
#include "util.h"

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
