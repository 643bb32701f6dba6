// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How the update flow reaches the chip (see flow.h): the i2c adapter, or
 * spidev claimed from the touch driver and given back; the driver to bind
 * again; the profile's reset and interrupt lines with the family's reset
 * pulse.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "exitcode.h"
#include "flow-bus.h"
#include "flow-outcome.h"

#define GPIO_BUSY_RETRY_MS 2000

/* The driver to bind: the one bound before (or, unbound meanwhile, the one
 * the update goes through), the profile's, the family's. */
const char *flow_driver_to_bind(struct flow_run *r)
{
	if (r->spi_prev_driver[0] &&
	    (!r->c.dev.driver[0] || !strcmp(r->c.dev.driver, "spidev")))
		return r->spi_prev_driver;
	return r->c.dev.driver[0]   ? r->c.dev.driver
	       : r->kept_driver[0]  ? r->kept_driver
	       : r->ctrl->driver[0] ? r->ctrl->driver
				    : r->fam->ids->drivers[0];
}

/* Close the spidev transport and undo the claim (unbind spidev, clear
 * driver_override), so that the touch driver can bind again. */
void flow_spi_let_go(struct flow_run *r)
{
	struct tf_err err = { 0 };

	if (r->c.spi_open && !r->o->dry_run && r->c.priv &&
	    (r->flashed_anything || r->cfg_obj) && !r->spi_after_valid &&
	    r->ops->detect(&r->c, &r->spi_after, &err) == 0)
		r->spi_after_valid = true;
	if (r->c.spi_open)
		tf_spi_close(&r->c.spi);
	r->c.spi_open = false;
	if (!r->claim.active)
		return;
	if (r->claim.bound_spidev)
		rlog(r, TF_LOG_INFO, "spi: unbinding spidev%s",
		     r->claim.set_override ? " and clearing driver_override" : "");
	if (tf_spidev_release(&r->claim, &err) < 0)
		rlog(r, TF_LOG_WARNING, "%s", err.msg);
	tf_device_refresh(&r->c.dev);
}

/* tf_spidev_repair()'s bind: marked as touchfw's own, as every bind. */
void flow_repair_bind(void *user, const char *dev, const char *driver)
{
	struct flow_run *r = user;
	struct tf_err err = { 0 };

	tf_state_mark_own_bind(&r->st, dev, (uint64_t)time(NULL));
	if (tf_spi_bind_driver(dev, driver, TF_BIND_TIMEOUT_MS, &err) < 0)
		rlog(r, TF_LOG_WARNING, "%s", err.msg);
}

/*
 * spi: user space reaches the chip only through spidev, so the touch
 * driver must let go and spidev is bound with driver_override (undone by
 * spi_let_go on every way out).  Without the driver the chip must keep
 * its power: profiles with power = "driver" are refused here.
 */
static int open_spi(struct flow_run *r)
{
	struct tf_spi_cfg cfg = { 0 };
	struct tf_err err = { 0 };
	const char *drv = r->c.dev.driver;

	if (drv[0] && strcmp(drv, "spidev") && r->o->dry_run)
		return flow_finish(
			r, TF_EXIT_UNSUPPORTED,
			"over spi only spidev reaches the chip, and a dry run does not "
			"unbind %s ('touchfw run %s' does)",
			drv, r->c.dev.name);
	if (r->ctrl->power == TF_POWER_DRIVER &&
	    (drv[0] ? strcmp(drv, "spidev") != 0 : r->ctrl->driver[0] != 0))
		return flow_finish(
			r, TF_EXIT_UNSUPPORTED,
			"over spi touchfw flashes through spidev, without the touch "
			"driver, and the profile says the driver owns the power "
			"(power = \"driver\"); the %s family can not work through the "
			"driver's attributes instead, so only power = \"always-on\" works "
			"for it on spi",
			r->fam->ids->name);
	/* What the device has, on disk before anything changes: a run
	 * killed from here on is repaired at the next start
	 * (tf_spidev_repair). */
	if (r->st.dirfd >= 0 &&
	    tf_spidev_record(r->st.dirfd, r->st.dir, r->c.dev.name, drv, &err) < 0)
		return flow_finish(r, TF_EXIT_STATE, "%s", err.msg);
	if (drv[0] && strcmp(drv, "spidev")) {
		tf_snprintf(r->spi_prev_driver, sizeof(r->spi_prev_driver), "%s", drv);
		rlog(r, TF_LOG_INFO, "spi: unbinding %s, so that spidev can have the device",
		     r->spi_prev_driver);
		if (tf_device_unbind(&r->c.dev, &err) < 0)
			return flow_finish(r, TF_EXIT_IO, "%s", err.msg);
	}
	/* EBUSY: somebody else's driver_override or driver has the device --
	 * a setup touchfw does not take over (unsupported), not an I/O
	 * failure. */
	if (tf_spidev_claim(r->c.dev.name, &r->claim, 3000, &err) < 0)
		return flow_finish(r,
				   err.code == ENODEV  ? TF_EXIT_NO_DEVICE
				   : err.code == EBUSY ? TF_EXIT_UNSUPPORTED
						       : TF_EXIT_IO,
				   "%s", err.msg);
	if (r->claim.bound_spidev)
		rlog(r, TF_LOG_INFO, "spi: bound spidev (%s)", r->claim.node);
	cfg.has_mode = r->ctrl->has_spi_mode;
	cfg.mode = r->ctrl->spi_mode;
	cfg.bits = r->ctrl->spi_bits;
	cfg.speed_hz = r->ctrl->spi_max_hz;
	if (tf_spi_open(&r->c.spi, r->claim.node, &cfg, &err) < 0)
		return flow_finish(r, err.code == EACCES ? TF_EXIT_PERMISSION : TF_EXIT_IO,
				   "%s%s", err.msg,
				   err.code == EACCES ? " (touchfw needs root)" : "");
	r->c.spi_open = true;
	rlog(r, TF_LOG_INFO, "spi: %s, mode %u, %u bits, %u Hz, spidev bufsiz %zu",
	     r->claim.node, r->c.spi.mode & 3, r->c.spi.bits, r->c.spi.speed_hz,
	     r->c.spi.bufsiz);
	/* From here the flow sees the device as unbound (the touch driver,
	 * if any, is remembered in spi_prev_driver). */
	r->c.dev.driver[0] = '\0';
	return TF_EXIT_OK;
}

/*
 * spi with power = "driver": the driver must keep the device (spidev can
 * only have it without the driver, and without the driver the chip may
 * lose its power), so the family reads the chip through the driver's
 * attributes and flashes through its kernel_fw_attr.  A driver not bound
 * yet is bound by step_detect(); spidev left bound is used as it is.
 */
static bool spi_through_driver(struct flow_run *r)
{
	const char *drv = r->c.dev.driver;

	return r->ctrl->power == TF_POWER_DRIVER && r->ops->detect_driver &&
	       r->fam->caps.kernel_fw_attr &&
	       (drv[0] ? strcmp(drv, "spidev") != 0 : r->ctrl->driver[0] != 0);
}

int flow_step_bus(struct flow_run *r)
{
	unsigned t = r->fam->caps.transports;
	struct tf_err err = { 0 };

	if (!strcmp(r->c.dev.subsys, "spi")) {
		if (!(t & TF_TRANSPORT_SPI))
			return flow_finish(r, TF_EXIT_UNSUPPORTED,
					   "the %s family has no spi transport",
					   r->fam->ids->name);
		if (spi_through_driver(r)) {
			r->via_driver = true;
			rlog(r, TF_LOG_INFO,
			     "spi: the driver keeps the device (power = \"driver\"): "
			     "the chip is read through its attributes and flashed through its %s",
			     r->fam->caps.kernel_fw_attr);
			return TF_EXIT_OK;
		}
		return open_spi(r);
	}
	if (strcmp(r->c.dev.subsys, "i2c"))
		return flow_finish(r, TF_EXIT_UNSUPPORTED, "%s devices are not supported",
				   r->c.dev.subsys);
	if (!(t & TF_TRANSPORT_I2C))
		return flow_finish(r, TF_EXIT_UNSUPPORTED, "the %s family has no i2c transport",
				   r->fam->ids->name);
	if (tf_i2c_open(&r->c.bus, r->c.dev.adapter_nr, &err) < 0)
		return flow_finish(r, err.code == EACCES ? TF_EXIT_PERMISSION : TF_EXIT_IO,
				   "%s%s", err.msg,
				   err.code == EACCES ? " (touchfw needs root)" : "");
	if (!tf_i2c_plain_ok(r->c.bus) && !(t & TF_TRANSPORT_SMBUS))
		return flow_finish(r, TF_EXIT_UNSUPPORTED,
				   "adapter i2c-%d (%s) is SMBus-only; the %s family needs "
				   "plain I2C transfers",
				   r->c.dev.adapter_nr, r->c.dev.adapter_name,
				   r->fam->ids->name);
	return TF_EXIT_OK;
}

/* The interrupt line by the family's name for it, for the log. */
const char *flow_irq_line(const struct flow_run *r)
{
	return r->fam->irq_line ? r->fam->irq_line : "interrupt";
}

/*
 * Take the profile's lines for the time touchfw owns the chip and give the
 * reset pulse the family asks for (caps.reset, which may drive INT during
 * it).  The driver's lines are released by devres after its remove; where
 * unbind returns before that (slow or emulated driver cores), a busy line
 * is retried for a moment instead of given up.
 */
int flow_request_lines(struct flow_run *r)
{
	struct tf_reset_seq seq = r->fam->caps.reset;
	struct tf_reset_lines l;

	/* The INT level may depend on the chip (the address it latches). */
	if (seq.drive_int && r->ops->reset_int_level)
		seq.int_level = r->ops->reset_int_level(&r->c);
	tf_gpio_reset_pulse(&seq, r->ctrl->has_reset ? &r->ctrl->reset : NULL,
			    r->ctrl->has_irq ? &r->ctrl->irq : NULL, GPIO_BUSY_RETRY_MS, &l);
	r->c.irq = l.irq;
	r->c.reset = l.reset;
	if (r->ctrl->has_irq && !l.irq)
		rlog(r, TF_LOG_WARNING, "%s line not available (%s): polling instead",
		     flow_irq_line(r), l.irq_err.msg);
	if (r->ctrl->has_reset && !l.reset)
		rlog(r, TF_LOG_WARNING, "reset line not available (%s)", l.reset_err.msg);
	if (l.pulsed)
		rlog(r, TF_LOG_INFO, "reset pulse on the profile's reset line%s",
		     l.irq_driven ? ", interrupt line driven" : "");
	if ((r->fam->caps.lines_needed & TF_LINE_RESET) && !r->c.reset)
		return flow_finish(r, TF_EXIT_UNSUPPORTED,
				   "the %s family needs the reset line, which the profile "
				   "does not give or touchfw could not take",
				   r->fam->ids->name);
	if ((r->fam->caps.lines_needed & TF_LINE_INT) && !r->c.irq)
		return flow_finish(r, TF_EXIT_UNSUPPORTED,
				   "the %s family needs the interrupt line, which the profile "
				   "does not give or touchfw could not take",
				   r->fam->ids->name);
	return TF_EXIT_OK;
}

void flow_release_lines(struct flow_run *r)
{
	if (r->c.irq)
		tf_gpio_release(r->c.irq);
	if (r->c.reset)
		tf_gpio_release(r->c.reset);
	r->c.irq = r->c.reset = NULL;
}
