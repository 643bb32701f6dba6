// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw chip DEVICE info|reset|save-config FILE`: a bring-up engineer's
 * direct line to one controller, through its family's operations
 * (family.h: detect, chip_info, soft_reset, save_config) and never its
 * name.  The controller is the board profile's when one describes the
 * device, else what the bound driver says (as `flash` does without a
 * profile).  info and save-config only read the chip, safe with the driver
 * bound; reset takes the device's lock as a run does, and uses the
 * family's reset command, else the profile's reset line with the family's
 * timing (the driver unbound around it and bound again).  save-config
 * writes the running configuration as a blob the firmware database takes
 * (`touchfw db add`) and `flash --config` writes back as a no-op.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "cli.h"
#include "cmd-chip-priv.h"
#include "cmd-chip-spi.h"
#include "cmd.h"
#include "device.h"
#include "exitcode.h"
#include "family/family.h"
#include "gpio.h"
#include "json.h"
#include "out.h"
#include "settings.h"
#include "state.h"

#define GPIO_BUSY_RETRY_MS 2000

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: touchfw chip DEVICE info [--json]\n"
		"       touchfw chip DEVICE reset [--json]\n"
		"       touchfw chip DEVICE save-config [--json] FILE\n"
		"       touchfw chip DEVICE object NAME [--instance N]\n"
		"                                [--write OFFSET=VALUE...] [--json]\n"
		"\n"
		"Talk to one controller through its family's operations.\n"
		"DEVICE is the kernel's name (1-004a).  The controller is the one\n"
		"the board profile describes, else what the bound driver says.\n"
		"An spi device (spi1.0) is taken from its driver for spidev and given\n"
		"back when the profile says power = \"always-on\"; where the driver\n"
		"owns the power, info reads the driver's attributes and nothing else\n"
		"works.\n"
		"\n"
		"  info         mode, identity, versions, CRCs and what the family\n"
		"               reads besides (a table of the chip's parts where it\n"
		"               has one, the configuration's version and size);\n"
		"               --json: one document (doc/json.md)\n"
		"  reset        the family's reset: a reset command over the bus with\n"
		"               the driver bound, else a pulse on the profile's reset\n"
		"               line with the driver unbound, then bound again;\n"
		"               --json: how, and the input device back after it\n"
		"  save-config  the configuration the chip runs, as a blob the\n"
		"               firmware database accepts ('touchfw db add FILE');\n"
		"               FILE '-' writes to standard output; an existing\n"
		"               FILE is not overwritten; --json (not with '-'):\n"
		"               the file, its size and config CRC\n"
		"  object       one named object of the chip's configuration memory,\n"
		"               for families whose chips are organised so (NAME as\n"
		"               the family names it; instance 0 or --instance N),\n"
		"               its address and bytes;\n"
		"               --write OFFSET=VALUE (repeated) writes bytes into the\n"
		"               chip's RAM and reads them back: only to a chip found\n"
		"               in application mode, only configuration objects, each\n"
		"               offset checked against the chip's list of objects; not\n"
		"               backed up (a reset undoes it); --json: one document\n"
		"\n"
		"Exit status 0, %d (%s) for a device that does not exist, %d (%s)\n"
		"when the family or chip can not do it, %d (%s) on a bus error,\n"
		"%d (%s) when FILE exists, %d on a bad command line.\n",
		TF_EXIT_NO_DEVICE, tf_exit_name(TF_EXIT_NO_DEVICE), TF_EXIT_UNSUPPORTED,
		tf_exit_name(TF_EXIT_UNSUPPORTED), TF_EXIT_IO, tf_exit_name(TF_EXIT_IO),
		TF_EXIT_EXISTS, tf_exit_name(TF_EXIT_EXISTS), TF_EXIT_USAGE);
}

/* The board profile's controller for the device, if any. */
static void find_profile(struct chip *k)
{
	const char *dirs[TF_MAX_DIRS];
	struct tf_err err = { 0 };
	const struct tf_controller *ctl;
	unsigned i;

	for (i = 0; i < k->s.n_boards_dirs; i++)
		dirs[i] = k->s.boards_dirs[i];
	if (tf_board_identify("", &k->id, &err) < 0)
		return;
	k->have_id = true;
	if (tf_board_load(dirs, k->s.n_boards_dirs, &k->boards, &err) < 0)
		return;
	k->profile = tf_board_match(k->boards, &k->id, NULL);
	if (!k->profile)
		return;
	ctl = tf_board_find_controller(k->profile, k->c.dev.subsys, k->c.dev.adapter_name,
				       k->c.dev.adapter_of_path,
				       k->c.dev.has_addr ? k->c.dev.addr : 0);
	k->c.ctrl = ctl;
}

static void chip_free(struct chip *k)
{
	tf_chip_spi_close(&k->spi, &k->c, k->say ? k->say : tf_out_err_file(), 0, NULL, 0);
	if (k->inited && k->fam->ops->fini)
		k->fam->ops->fini(&k->c);
	tf_i2c_close(k->c.bus);
	k->c.bus = NULL;
	if (k->boards)
		tf_board_set_free(k->boards);
	if (k->have_id)
		tf_board_identity_free(&k->id);
}

/* "Did you mean": the devices here that a family's driver is bound to. */
static void hint_devices(void)
{
	DIR *d = opendir("/sys/bus/i2c/devices");
	struct dirent *de;
	char list[512] = "";
	size_t n = 0;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[PATH_MAX], target[PATH_MAX];
		const char *drv;
		ssize_t len;

		if (de->d_name[0] == '.' || !strncmp(de->d_name, "i2c-", 4))
			continue;
		tf_snprintf(path, sizeof(path), "/sys/bus/i2c/devices/%s/driver", de->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		drv = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
		if (tf_family_by_driver(drv))
			n += (size_t)snprintf(list + n, n < sizeof(list) ? sizeof(list) - n : 0,
					      "%s%s (%s)", n ? ", " : "", de->d_name, drv);
	}
	closedir(d);
	if (list[0])
		tf_out_err("touchfw chip: touch controllers here: %s\n", list);
}

/* Device, controller, family, bus, detect: an exit code, 0 when ready. */
/* @read_only: info and save-config (tf_ctx.read_only); @info: info, which
 * over spi reads the bound driver's attributes. */
static int chip_open(struct chip *k, const struct tf_cli *cli, const char *name, bool read_only,
		     bool info)
{
	struct tf_err err = { 0 };

	memset(k, 0, sizeof(*k));
	k->c.read_only = read_only;
	if (tf_settings_load(&k->s, cli->config, &err) < 0) {
		tf_out_err("touchfw chip: %s\n", err.msg);
		return TF_EXIT_BAD_INPUT;
	}
	if (tf_device_lookup(name, &k->c.dev, &err) < 0) {
		tf_out_err("touchfw chip: %s: %s\n", name, err.msg);
		hint_devices();
		return TF_EXIT_NO_DEVICE;
	}
	find_profile(k);
	if (k->c.ctrl) {
		k->fam = tf_family_by_name(k->c.ctrl->family);
		if (!k->fam) {
			tf_out_err("touchfw chip: %s: family '%s' is not supported\n", name,
				   k->c.ctrl->family);
			return TF_EXIT_UNSUPPORTED;
		}
	} else {
		k->fam = tf_family_by_driver(k->c.dev.driver);
		if (!k->fam || !k->c.dev.has_addr) {
			tf_out_err("touchfw chip: %s: no board profile describes it and %s; "
				   "'touchfw board check' says why a profile does not match\n",
				   name,
				   !k->fam ? "its driver is not one touchfw knows"
					   : "its name has no address");
			return TF_EXIT_UNSUPPORTED;
		}
		tf_snprintf(k->synth.node_path, sizeof(k->synth.node_path), "(driver)");
		tf_snprintf(k->synth.family, sizeof(k->synth.family), "%s", k->fam->ids->name);
		tf_snprintf(k->synth.bus, sizeof(k->synth.bus), "%s", k->c.dev.subsys);
		k->synth.reg = k->c.dev.addr;
		k->synth.power = TF_POWER_DRIVER;
		k->c.ctrl = &k->synth;
	}
	/* spi: user space reaches the chip only through spidev, which takes
	 * the touch driver off the device (cmd-chip-spi.c) -- not where the
	 * driver owns the power (power = "driver", as run reads it).  info
	 * reads a bound driver's attributes instead. */
	if (!strcmp(k->c.dev.subsys, "spi")) {
		bool attrs = info && k->fam->ops->detect_driver && k->c.dev.driver[0] &&
			     tf_family_has_driver(k->fam, k->c.dev.driver);
		int rc;

		if (!(k->fam->caps.transports & TF_TRANSPORT_SPI) ||
		    (!attrs && k->c.ctrl->power == TF_POWER_DRIVER)) {
			tf_out_err(
				"touchfw chip: %s: over spi only spidev reaches the chip, "
				"which takes the %s driver off the device, and %s owns the "
				"power (power = \"driver\"); 'info' reads the driver's "
				"attributes while it is bound; set power = \"always-on\" in "
				"the profile if the chip keeps its power without its driver\n",
				name, k->fam->ids->name,
				k->c.ctrl == &k->synth ? "without a profile the driver"
						       : "the profile says the driver");
			return TF_EXIT_UNSUPPORTED;
		}
		if (k->fam->ops->init && k->fam->ops->init(&k->c, &err) < 0) {
			tf_out_err("touchfw chip: %s: %s\n", name, err.msg);
			return TF_EXIT_FAILURE;
		}
		k->inited = true;
		if (attrs) {
			k->via_driver = true;
			if (k->fam->ops->detect_driver(&k->c, &k->st, &err) < 0) {
				tf_out_err("touchfw chip: %s: %s\n", name, err.msg);
				return err.code == EOPNOTSUPP ? TF_EXIT_UNSUPPORTED
							      : TF_EXIT_IO;
			}
			return TF_EXIT_OK;
		}
		/* identified over spidev before anything is sent (detect) */
		k->over_spidev = true;
		rc = tf_chip_spi_open(&k->spi, &k->c, k->fam, &k->s, tf_out_err_file());
		if (rc != TF_EXIT_OK)
			return rc;
		if (k->fam->ops->detect(&k->c, &k->st, &err) < 0) {
			tf_out_err("touchfw chip: %s: %s\n", name, err.msg);
			return err.code == EBADMSG || err.code == EOPNOTSUPP
				       ? TF_EXIT_UNSUPPORTED
				       : TF_EXIT_IO;
		}
		return TF_EXIT_OK;
	}
	if (strcmp(k->c.dev.subsys, "i2c") || !(k->fam->caps.transports & TF_TRANSPORT_I2C)) {
		tf_out_err("touchfw chip: %s: only i2c and spi controllers are supported\n",
			   name);
		return TF_EXIT_UNSUPPORTED;
	}
	if (k->fam->ops->init && k->fam->ops->init(&k->c, &err) < 0) {
		tf_out_err("touchfw chip: %s: %s\n", name, err.msg);
		return TF_EXIT_FAILURE;
	}
	k->inited = true;
	if (tf_i2c_open(&k->c.bus, k->c.dev.adapter_nr, &err) < 0) {
		tf_out_err("touchfw chip: %s: %s%s\n", name, err.msg,
			   err.code == EACCES ? " (touchfw needs root)" : "");
		return err.code == EACCES ? TF_EXIT_PERMISSION : TF_EXIT_IO;
	}
	if (k->c.read_only && k->c.dev.driver[0] &&
	    !tf_family_has_driver(k->fam, k->c.dev.driver)) {
		tf_out_err("touchfw chip: %s: bound to %s, not an %s driver: touchfw sends "
			   "nothing to another driver's device\n",
			   name, k->c.dev.driver, k->fam->ids->name);
		return TF_EXIT_UNSUPPORTED;
	}
	if (k->fam->ops->detect(&k->c, &k->st, &err) < 0) {
		tf_out_err("touchfw chip: %s: %s\n", name, err.msg);
		return err.code == EBADMSG || err.code == EOPNOTSUPP ? TF_EXIT_UNSUPPORTED
								     : TF_EXIT_IO;
	}
	return TF_EXIT_OK;
}

/* ------------------------------------------------------------ reset */

/* The profile's reset line, with the driver unbound around the pulse. */
static int reset_by_line(struct chip *k)
{
	const struct tf_controller *ctl = k->c.ctrl;
	struct tf_reset_seq seq = k->fam->caps.reset;
	struct tf_reset_lines l;
	struct tf_input_watch *w = NULL;
	struct tf_input_node node;
	struct tf_state state = { .dirfd = -1 };
	struct tf_err err = { 0 };
	char drv[sizeof(k->c.dev.driver)];
	int rc = TF_EXIT_OK;

	if (!ctl->has_reset) {
		tf_out_err("touchfw chip: %s: the %s family has no reset command and the "
			   "board profile names no reset line (%s)\n",
			   k->c.dev.name, k->fam->ids->name,
			   ctl == &k->synth ? "no profile describes the device"
					    : ctl->node_path);
		return TF_EXIT_UNSUPPORTED;
	}
	if (seq.drive_int && k->fam->ops->reset_int_level)
		seq.int_level = k->fam->ops->reset_int_level(&k->c);
	tf_snprintf(drv, sizeof(drv), "%s", k->c.dev.driver);
	if (tf_state_open(&state, k->s.state_dir, true, &err) < 0)
		state.dirfd = -1;
	if (drv[0]) {
		if (tf_input_watch_start(&k->c.dev, &w, &err) < 0) {
			tf_out_err("touchfw chip: %s: %s\n", k->c.dev.name, err.msg);
			rc = TF_EXIT_FAILURE;
			goto out;
		}
		fprintf(k->say, "%s: unbinding %s for the reset pulse\n", k->c.dev.name, drv);
		if (tf_device_unbind(&k->c.dev, &err) < 0) {
			tf_out_err("touchfw chip: %s: %s\n", k->c.dev.name, err.msg);
			rc = TF_EXIT_IO;
			goto out;
		}
	}
	tf_gpio_reset_pulse(&seq, &ctl->reset, ctl->has_irq ? &ctl->irq : NULL,
			    GPIO_BUSY_RETRY_MS, &l);
	if (l.irq)
		tf_gpio_release(l.irq);
	if (l.reset)
		tf_gpio_release(l.reset);
	if (!l.pulsed) {
		tf_out_err("touchfw chip: %s: reset line: %s\n", k->c.dev.name,
			   l.reset_err.msg);
		rc = TF_EXIT_IO;
	} else {
		fprintf(k->say, "%s: reset pulse on the profile's reset line (%u us)%s\n",
			k->c.dev.name, seq.assert_us,
			l.irq_driven ? ", interrupt line driven" : "");
		tf_snprintf(k->how, sizeof(k->how), "line");
	}
	if (drv[0]) {
		if (state.dirfd >= 0)
			tf_state_mark_own_bind(&state, k->c.dev.name, (uint64_t)time(NULL));
		fprintf(k->say, "%s: binding %s\n", k->c.dev.name, drv);
		if (tf_device_bind(&k->c.dev, drv, &err) < 0) {
			tf_out_err("touchfw chip: %s: %s (the driver's probe failed)\n",
				   k->c.dev.name, err.msg);
			rc = TF_EXIT_VERIFY;
			goto out;
		}
		if (tf_input_watch_wait(w, (int)k->s.input_timeout_ms, &node, &err) < 0) {
			tf_out_err("touchfw chip: %s: %s (driver %s)\n", k->c.dev.name, err.msg,
				   drv);
			rc = TF_EXIT_VERIFY;
			goto out;
		}
		fprintf(k->say, "%s: input device %s (/dev/input/%s) is back\n", k->c.dev.name,
			node.input, node.event);
		tf_snprintf(k->input, sizeof(k->input), "%s", node.input);
	}
out:
	if (w)
		tf_input_watch_free(w);
	if (state.dirfd >= 0)
		tf_state_close(&state);
	return rc;
}

static int do_reset(struct chip *k)
{
	struct tf_state state = { .dirfd = -1 };
	struct tf_err err = { 0 };
	int lock = -1, rc;

	/* Not while a run works on the chip (over spidev the lock is held
	 * already). */
	if (!k->over_spidev && tf_state_open(&state, k->s.state_dir, true, &err) == 0) {
		lock = tf_state_lock(&state, k->c.dev.name, false, true, &err);
		if (lock == -EWOULDBLOCK) {
			tf_out_err("touchfw chip: %s: a touchfw run is working on it; try "
				   "again when it is done\n",
				   k->c.dev.name);
			tf_state_close(&state);
			return TF_EXIT_LOCKED;
		}
	}
	if (k->st.mode == TF_CHIP_ABSENT) {
		rc = TF_EXIT_NO_DEVICE;
		tf_out_err("touchfw chip: %s: %s\n", k->c.dev.name, k->st.detail);
	} else if (k->fam->ops->soft_reset && k->st.mode == TF_CHIP_APP) {
		if (k->fam->ops->soft_reset(&k->c, &err) < 0) {
			tf_out_err("touchfw chip: %s: %s\n", k->c.dev.name, err.msg);
			rc = TF_EXIT_IO;
		} else {
			struct tf_chip_state after;

			rc = TF_EXIT_OK;
			tf_snprintf(k->how, sizeof(k->how), "command");
			if (k->fam->ops->detect(&k->c, &after, &err) == 0) {
				fprintf(k->say, "%s: reset by command; %s\n", k->c.dev.name,
					after.detail);
				tf_snprintf(k->after, sizeof(k->after), "%s", after.detail);
			} else {
				fprintf(k->say, "%s: reset by command\n", k->c.dev.name);
			}
		}
	} else {
		rc = reset_by_line(k);
	}
	if (lock >= 0)
		close(lock);
	if (state.dirfd >= 0)
		tf_state_close(&state);
	return rc;
}

/* --json of reset and save-config: what was done, one document. */
static void done_json(const struct chip *k, const char *sub, const char *file, size_t len,
		      bool has_crc, uint32_t crc)
{
	struct tf_json j;

	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_int(&j, "version", TF_JSON_VERSION);
	tf_json_string(&j, "device", k->c.dev.name);
	tf_json_string(&j, "family", k->fam->ids->name);
	if (!strcmp(sub, "reset")) {
		tf_json_string(&j, "reset", k->how[0] ? k->how : NULL);
		tf_json_string(&j, "input", k->input[0] ? k->input : NULL);
		tf_json_string(&j, "detail", k->after[0] ? k->after : NULL);
	} else {
		tf_json_string(&j, "file", file);
		tf_json_uint(&j, "size", len);
		if (has_crc)
			tf_json_crc(&j, "config_crc", crc, k->fam->crc_bits);
	}
	tf_json_end_object(&j);
	tf_out_json(&j);
	tf_json_free(&j);
}

/* ------------------------------------------------------------ save-config */

static int do_save(struct chip *k, const char *file, bool json)
{
	struct tf_err err = { 0 };
	uint8_t *data = NULL;
	size_t len = 0, off = 0;
	void *cfg = NULL;
	uint32_t crc = 0;
	int fd;

	if (!k->fam->ops->save_config) {
		tf_out_err("touchfw chip: %s: the %s family can not read a configuration "
			   "out of the chip\n",
			   k->c.dev.name, k->fam->ids->name);
		return TF_EXIT_UNSUPPORTED;
	}
	if (k->st.mode != TF_CHIP_APP) {
		tf_out_err("touchfw chip: %s: the chip is not running its firmware (%s)\n",
			   k->c.dev.name, k->st.detail);
		return k->st.mode == TF_CHIP_ABSENT ? TF_EXIT_NO_DEVICE : TF_EXIT_UNSUPPORTED;
	}
	if (k->fam->ops->save_config(&k->c, &data, &len, &err) < 0) {
		tf_out_err("touchfw chip: %s: %s\n", k->c.dev.name, err.msg);
		return err.code == ENODEV || err.code == EINVAL || err.code == EBADMSG
			       ? TF_EXIT_UNSUPPORTED
			       : TF_EXIT_IO;
	}
	/* Prove it is what load_config takes, with the chip's CRC. */
	if (k->fam->ops->load_config &&
	    k->fam->ops->load_config(&k->c, data, len, "the saved configuration", &cfg, &crc,
				     &err) < 0) {
		tf_out_err("touchfw chip: %s: internal error: %s\n", k->c.dev.name, err.msg);
		free(data);
		return TF_EXIT_FAILURE;
	}
	if (cfg && k->fam->ops->check_config &&
	    k->fam->ops->check_config(&k->c, cfg, &err) < 0) {
		tf_out_err("touchfw chip: %s: internal error: %s\n", k->c.dev.name, err.msg);
		k->fam->ops->free_config(cfg);
		free(data);
		return TF_EXIT_FAILURE;
	}
	if (cfg)
		k->fam->ops->free_config(cfg);
	if (!strcmp(file, "-")) {
		fd = tf_out_fd();
	} else {
		/* a new file in a checked directory (touchfw(8), FILES) */
		fd = tf_create_path(file, 0644, &err);
		if (fd < 0) {
			tf_out_err("touchfw chip: %s\n", err.msg);
			free(data);
			return fd == -EEXIST		       ? TF_EXIT_EXISTS
			       : fd == -EACCES || fd == -EPERM ? TF_EXIT_PERMISSION
							       : TF_EXIT_FAILURE;
		}
	}
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			tf_out_err("touchfw chip: writing %s: %s\n", file, strerror(errno));
			if (strcmp(file, "-")) {
				close(fd);
				unlink(file);
			}
			free(data);
			return TF_EXIT_FAILURE;
		}
		off += (size_t)n;
	}
	if (strcmp(file, "-") && close(fd) < 0) {
		tf_out_err("touchfw chip: writing %s: %s\n", file, strerror(errno));
		unlink(file);
		free(data);
		return TF_EXIT_FAILURE;
	}
	free(data);
	if (strcmp(file, "-"))
		tf_out_err("%s: saved the running configuration (%zu bytes, config CRC %s) as "
			   "%s; 'touchfw db add %s --board ...' puts it into a database\n",
			   k->c.dev.name, len, TF_CRC_TEXT(crc, k->fam->crc_bits), file, file);
	if (json)
		done_json(k, "save-config", file, len, k->fam->ops->load_config != NULL, crc);
	return TF_EXIT_OK;
}

int tf_cmd_chip(const struct tf_cli *cli)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "write", required_argument, NULL, 'w' },
		{ "instance", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dev, *sub, *file = NULL, *object = NULL;
	bool json = false;
	unsigned off[MAX_WRITES], inst = 0;
	uint8_t val[MAX_WRITES];
	size_t n_writes = 0;
	char *end, objname[16];
	struct chip k;
	struct tf_cli_opts g = { "touchfw chip", "h", opts, usage };
	int c, rc;

	while ((c = tf_cli_getopt(cli->argc, cli->argv, &g)) != -1) {
		if (c == TF_CLI_STOP)
			return g.exit;
		if (c == 'j')
			json = true;
		if (c == 'w') {
			if (n_writes == MAX_WRITES ||
			    !tf_chip_parse_write(optarg, &off[n_writes], &val[n_writes])) {
				tf_out_err(
					"touchfw chip: --write '%s': give OFFSET=VALUE, a byte "
					"offset in the object and a value 0-255 (decimal or 0x "
					"hex), at most %d of them\n",
					optarg, MAX_WRITES);
				return TF_EXIT_USAGE;
			}
			n_writes++;
		}
		if (c == 'i') {
			unsigned long v = strtoul(optarg, &end, 10);

			if (*optarg < '0' || *optarg > '9' || *end || v > 255) {
				tf_out_err("touchfw chip: --instance '%s': give the instance's "
					   "number (0 is the first)\n",
					   optarg);
				return TF_EXIT_USAGE;
			}
			inst = (unsigned)v;
		}
	}
	if (cli->argc - optind < 2) {
		tf_out_err("touchfw chip: give a DEVICE and info, reset or save-config\n");
		usage(tf_out_err_file());
		return TF_EXIT_USAGE;
	}
	dev = cli->argv[optind];
	sub = cli->argv[optind + 1];
	if (!strcmp(sub, "save-config")) {
		if (cli->argc - optind != 3) {
			tf_out_err("touchfw chip: save-config takes one FILE\n");
			return TF_EXIT_USAGE;
		}
		file = cli->argv[optind + 2];
	} else if (!strcmp(sub, "object")) {
		if (cli->argc - optind != 3) {
			tf_out_err("touchfw chip: object takes one object name\n");
			return TF_EXIT_USAGE;
		}
		/* a name's first letter is taken in upper case, as families
		 * write it */
		tf_snprintf(objname, sizeof(objname), "%s", cli->argv[optind + 2]);
		if (objname[0] == 't')
			objname[0] = 'T';
		object = objname;
	} else if (strcmp(sub, "info") && strcmp(sub, "reset")) {
		tf_out_err("touchfw chip: unknown command '%s'\n", sub);
		usage(tf_out_err_file());
		return TF_EXIT_USAGE;
	} else if (cli->argc - optind != 2) {
		tf_out_err("touchfw chip: unexpected '%s'\n", cli->argv[optind + 2]);
		return TF_EXIT_USAGE;
	}
	if (json && file && !strcmp(file, "-")) {
		tf_out_err("touchfw chip: save-config -: the configuration is standard "
			   "output, --json can not be\n");
		return TF_EXIT_USAGE;
	}
	if ((n_writes || inst) && !object) {
		tf_out_err("touchfw chip: --write and --instance go with object\n");
		return TF_EXIT_USAGE;
	}
	rc = chip_open(&k, cli, dev, strcmp(sub, "reset") != 0 && !n_writes,
		       !strcmp(sub, "info"));
	if (rc == TF_EXIT_OK) {
		if (!strcmp(sub, "info"))
			rc = tf_chip_do_info(&k, json);
		else if (!strcmp(sub, "reset")) {
			k.say = json ? tf_out_err_file() : tf_out_file();
			rc = do_reset(&k);
			/* over spidev: the driver back, and its input device */
			tf_chip_spi_close(&k.spi, &k.c, k.say, (int)k.s.input_timeout_ms,
					  k.st.mode == TF_CHIP_APP ? k.input : NULL,
					  sizeof(k.input));
			if (rc == TF_EXIT_OK && json)
				done_json(&k, "reset", NULL, 0, false, 0);
		} else if (object) {
			rc = tf_chip_do_object(&k, object, inst, off, val, n_writes, json);
		} else {
			rc = do_save(&k, file, json);
		}
	}
	chip_free(&k);
	return rc;
}
