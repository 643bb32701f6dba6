// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `touchfw chip DEVICE reset|save-config|object` over spi (cmd-chip-spi.h):
 * the device taken from its touch driver for spidev and given back, as a
 * run does it (flow.c's open_spi, spi_let_go and its way out), so that the
 * family's own operations -- the same ones as on i2c -- reach the chip.
 */
#include "cmd-chip-spi.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "device.h"
#include "exitcode.h"
#include "out.h"
#include "settings.h"
#include "sysfs.h"

/* tf_spidev_repair()'s bind: marked as touchfw's own, as every bind. */
static void repair_bind(void *user, const char *dev, const char *driver)
{
	struct tf_chip_spi *cs = user;
	struct tf_err err = { 0 };

	tf_state_mark_own_bind(&cs->st, dev, (uint64_t)time(NULL));
	if (tf_spi_bind_driver(dev, driver, TF_BIND_TIMEOUT_MS, &err) < 0)
		tf_out_err("touchfw chip: %s\n", err.msg);
}

int tf_chip_spi_open(struct tf_chip_spi *cs, struct tf_ctx *c, const struct tf_family *fam,
		     const struct tf_settings *s, FILE *say)
{
	const struct tf_controller *ctl = c->ctrl;
	const char *name = c->dev.name;
	struct tf_spi_cfg cfg = { 0 };
	struct tf_err err = { 0 };
	char what[1024];

	memset(cs, 0, sizeof(*cs));
	cs->st.dirfd = -1;
	cs->lock = -1;
	cs->active = true;
	/* The record that lets the next start undo a command killed while
	 * spidev holds the device needs the state directory, and the lock
	 * keeps a run (a bind event's) off the device meanwhile. */
	if (tf_state_open(&cs->st, s->state_dir, true, &err) < 0) {
		tf_out_err("touchfw chip: %s: state directory %s\n", name, err.msg);
		return err.code == EACCES ? TF_EXIT_PERMISSION : TF_EXIT_STATE;
	}
	cs->lock = tf_state_lock(&cs->st, name, false, true, &err);
	if (cs->lock == -EWOULDBLOCK) {
		tf_out_err("touchfw chip: %s: a touchfw run is working on it; try again "
			   "when it is done\n",
			   name);
		return TF_EXIT_LOCKED;
	}
	if (cs->lock < 0) {
		tf_out_err("touchfw chip: %s: %s\n", name, err.msg);
		return TF_EXIT_STATE;
	}
	if (tf_spidev_repair(cs->st.dirfd, cs->st.dir, name, repair_bind, cs, what,
			     sizeof(what)) > 0)
		tf_out_err("touchfw chip: %s: repaired what an interrupted run left: %s\n",
			   name, what);
	tf_device_refresh(&c->dev);
	if (c->dev.driver[0] && strcmp(c->dev.driver, "spidev") &&
	    !tf_family_has_driver(fam, c->dev.driver)) {
		tf_out_err("touchfw chip: %s: bound to %s, not an %s driver: touchfw takes "
			   "no other driver's device for spidev\n",
			   name, c->dev.driver, fam->ids->name);
		return TF_EXIT_UNSUPPORTED;
	}
	if (tf_spidev_record(cs->st.dirfd, cs->st.dir, name, c->dev.driver, &err) < 0) {
		tf_out_err("touchfw chip: %s: %s\n", name, err.msg);
		return TF_EXIT_STATE;
	}
	cs->recorded = true;
	/* From here on a SIGTERM or ^C does not kill the command between
	 * the unbind and the rebind: the (short) operation ends and the
	 * device is given back first. */
	tf_signals_catch();
	if (c->dev.driver[0] && strcmp(c->dev.driver, "spidev")) {
		tf_snprintf(cs->prev_driver, sizeof(cs->prev_driver), "%s", c->dev.driver);
		fprintf(say, "%s: unbinding %s, so that spidev can have the device\n", name,
			cs->prev_driver);
		if (tf_device_unbind(&c->dev, &err) < 0) {
			tf_out_err("touchfw chip: %s: %s\n", name, err.msg);
			return TF_EXIT_IO;
		}
	}
	/* EBUSY: somebody else's driver_override or driver has it */
	if (tf_spidev_claim(name, &cs->claim, 3000, &err) < 0) {
		tf_out_err("touchfw chip: %s: %s\n", name, err.msg);
		return err.code == ENODEV  ? TF_EXIT_NO_DEVICE
		       : err.code == EBUSY ? TF_EXIT_UNSUPPORTED
					   : TF_EXIT_IO;
	}
	cfg.has_mode = ctl->has_spi_mode;
	cfg.mode = ctl->spi_mode;
	cfg.bits = ctl->spi_bits;
	cfg.speed_hz = ctl->spi_max_hz;
	if (tf_spi_open(&c->spi, cs->claim.node, &cfg, &err) < 0) {
		tf_out_err("touchfw chip: %s: %s%s\n", name, err.msg,
			   err.code == EACCES ? " (touchfw needs root)" : "");
		return err.code == EACCES ? TF_EXIT_PERMISSION : TF_EXIT_IO;
	}
	c->spi_open = true;
	/* the family sees the device as the flow shows it: unbound */
	c->dev.driver[0] = '\0';
	return TF_EXIT_OK;
}

void tf_chip_spi_close(struct tf_chip_spi *cs, struct tf_ctx *c, FILE *say, int timeout_ms,
		       char *input, size_t isize)
{
	struct tf_input_watch *w = NULL;
	struct tf_input_node node;
	struct tf_err err = { 0 };

	if (!cs->active)
		return;
	cs->active = false;
	if (c->spi_open)
		tf_spi_close(&c->spi);
	c->spi_open = false;
	if (cs->claim.active && tf_spidev_release(&cs->claim, &err) < 0)
		tf_out_err("touchfw chip: %s: %s\n", c->dev.name, err.msg);
	tf_device_refresh(&c->dev);
	if (cs->prev_driver[0] && !c->dev.driver[0]) {
		if (input && tf_input_watch_start(&c->dev, &w, &err) < 0)
			w = NULL;
		if (cs->st.dirfd >= 0)
			tf_state_mark_own_bind(&cs->st, c->dev.name, (uint64_t)time(NULL));
		fprintf(say, "%s: binding %s again\n", c->dev.name, cs->prev_driver);
		if (tf_device_bind(&c->dev, cs->prev_driver, &err) < 0) {
			tf_out_err("touchfw chip: %s: %s\n", c->dev.name, err.msg);
		} else if (w && tf_input_watch_wait(w, timeout_ms, &node, &err) == 0) {
			fprintf(say, "%s: input device %s (/dev/input/%s) is back\n",
				c->dev.name, node.input, node.event);
			tf_snprintf(input, isize, "%s", node.input);
		}
		if (w)
			tf_input_watch_free(w);
		tf_device_refresh(&c->dev);
	}
	/* the claim undone (or never made): its record goes */
	if (cs->recorded && !cs->claim.active)
		tf_spidev_record_drop(cs->st.dirfd, c->dev.name);
	if (tf_stop_requested())
		tf_out_err("touchfw chip: %s: stopped by signal %d: the device was given "
			   "back first\n",
			   c->dev.name, tf_stop_requested());
	if (cs->lock >= 0)
		close(cs->lock);
	cs->lock = -1;
	if (cs->st.dirfd >= 0)
		tf_state_close(&cs->st);
	cs->st.dirfd = -1;
}
