// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Detection in the update flow (see flow.h): the chip's state over the bus
 * or through the bound driver, while a probe may be running or after a
 * reset pulse, and the hardware remembered for a chip that later starts
 * in its bootloader.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "exitcode.h"
#include "flow-bus.h"
#include "flow-detect.h"
#include "flow-outcome.h"

/*
 * The kernel probes right after the add that may have started this run,
 * and the driver link exists while it does: wait until the link has not
 * changed for PROBE_SETTLE_MS (at most PROBE_SETTLE_MAX_MS), so the run
 * neither unbinds a probe in progress nor binds over one.
 */
#define PROBE_SETTLE_MS 300
#define PROBE_SETTLE_MAX_MS 5000

/* A chip's config CRC for messages, in its family's width ("0x06F670"),
 * or "unknown" when detection could not read one. */
const char *flow_crc_text(const struct flow_run *r, const struct tf_chip_state *st,
			  char buf[TF_CRC_TEXT_MAX])
{
	if (!st->has_config_crc)
		return "unknown";
	return tf_crc_text(buf, st->config_crc, r->fam->crc_bits);
}

void flow_settle_driver_link(struct flow_run *r)
{
	uint64_t start = tf_now_ms(), since = start;
	char last[sizeof(r->c.dev.driver)];

	tf_device_refresh(&r->c.dev);
	tf_snprintf(last, sizeof(last), "%s", r->c.dev.driver);
	while (tf_now_ms() - since < PROBE_SETTLE_MS &&
	       tf_now_ms() - start < PROBE_SETTLE_MAX_MS) {
		tf_sleep_us(20000);
		tf_device_refresh(&r->c.dev);
		if (strcmp(last, r->c.dev.driver)) {
			tf_snprintf(last, sizeof(last), "%s", r->c.dev.driver);
			since = tf_now_ms();
		}
	}
}

/*
 * The chip's state: over the bus, or what the bound driver shows.  A
 * driver creates its attributes in its probe or right after it, and the
 * driver core made the driver link before: the kernel's bind write returns
 * after the probe, but a bind touchfw did not make (or a driver core that
 * answers at once) can leave the link visible before the attributes, so a
 * missing one is looked for again while the link stays -- and a link that
 * goes meanwhile was a probe that failed: the device is unbound.
 */
int flow_chip_read(struct flow_run *r, struct tf_chip_state *st, struct tf_err *err)
{
	/* as long as a probe may take (a driver may sleep seconds for a
	 * chip in its bootloader) */
	uint64_t end = tf_now_ms() + TF_BIND_TIMEOUT_MS;
	int rc;

	if (!r->via_driver) {
		char drv[sizeof(r->c.dev.driver)];

		tf_snprintf(drv, sizeof(drv), "%s", r->c.dev.driver);
		rc = r->ops->detect(&r->c, st, err);
		if (rc >= 0 || !drv[0])
			return rc;
		/* The link exists during a probe, also one that then fails
		 * (a run started by the add can see it): a link gone by now
		 * was no bound driver, so the device is judged again as it
		 * is, once a probe in progress has ended. */
		tf_device_refresh(&r->c.dev);
		if (!strcmp(drv, r->c.dev.driver))
			return rc;
		rlog(r, TF_LOG_INFO, "%s; judging the device again", err->msg);
		flow_settle_driver_link(r);
		tf_err_clear(err);
		return r->ops->detect(&r->c, st, err);
	}
	for (;;) {
		tf_device_refresh(&r->c.dev);
		tf_err_clear(err);
		rc = r->ops->detect_driver(&r->c, st, err);
		if (rc != -ENOENT || !r->c.dev.driver[0] || tf_now_ms() >= end)
			return rc;
		tf_sleep_us(20000);
	}
}

int flow_detect(struct flow_run *r, struct tf_chip_state *st)
{
	struct tf_err err = { 0 };

	if (flow_chip_read(r, st, &err) < 0)
		return flow_finish(r,
				   err.code == EBADMSG || err.code == EOPNOTSUPP
					   ? TF_EXIT_UNSUPPORTED
					   : TF_EXIT_IO,
				   "%s", err.msg);
	return TF_EXIT_OK;
}

/*
 * Detection with a bound driver that may be in its probe/reset window: a
 * driver may reset the chip from its probe or its asynchronous config
 * callback right after a bind (doc/touchfw.8 names one), and the chip
 * answers at none of its addresses for a while.  Silence then is
 * retried with growing sleeps, for at most the input timeout (the
 * profile's, else the settings') -- the time a probe is given anyway --
 * and logged; a chip that is really gone still ends in "no answer".
 */
int flow_detect_settled(struct flow_run *r, struct tf_chip_state *st)
{
	unsigned bound = r->ctrl->input_timeout_ms ? r->ctrl->input_timeout_ms
						   : r->s->input_timeout_ms;
	uint64_t t0 = tf_now_ms(), delay = 10;
	int rc = flow_detect(r, st);

	if (rc || st->mode != TF_CHIP_ABSENT || !r->c.dev.driver[0])
		return rc;
	rlog(r, TF_LOG_INFO,
	     "%s; %s may be resetting it after its probe: retrying for up "
	     "to %u ms",
	     st->detail, r->c.dev.driver, bound);
	while (st->mode == TF_CHIP_ABSENT && tf_now_ms() - t0 < bound && !tf_stop_requested()) {
		tf_sleep_us(delay * 1000);
		delay = delay * 2 < 200 ? delay * 2 : 200;
		rc = flow_detect(r, st);
		if (rc)
			return rc;
	}
	if (st->mode != TF_CHIP_ABSENT)
		rlog(r, TF_LOG_INFO, "the chip answered after %llu ms",
		     (unsigned long long)(tf_now_ms() - t0));
	return TF_EXIT_OK;
}

/* Remember the hardware for a later bootloader-mode start (not in the
 * read-only dry runs of probe and status), with when it was first seen. */
void flow_persist_hw(struct flow_run *r, const char *hw)
{
	struct tf_hw_hint h = { 0 };
	struct tf_err err = { 0 };

	if (!hw[0] || r->o->dry_run || !strcmp(r->hint.hw, hw))
		return;
	tf_snprintf(h.hw, sizeof(h.hw), "%s", hw);
	h.learnt = (uint64_t)time(NULL);
	tf_snprintf(h.from, sizeof(h.from), "the chip in application mode");
	if (tf_persist_write_hw(r->s->persist_dir, r->c.dev.name, &h, &err) < 0)
		rlog(r, TF_LOG_WARNING, "hardware hint not saved: %s", err.msg);
	else
		r->hint = h;
}

void flow_read_hw_hint(struct flow_run *r)
{
	struct tf_err err = { 0 };

	if (tf_persist_read_hw(r->s->persist_dir, r->c.dev.name, &r->hint, &err) < 0)
		rlog(r, TF_LOG_WARNING, "hardware hint ignored: %s", err.msg);
}

/*
 * Detection right after the reset pulse.  The pulse's release_us is the
 * least the sources allow before the first access (the family's caps say
 * where it comes from); a chip may need longer to start.
 * So the chip is waited for, not assumed up: with the interrupt line held, until
 * it asserts (the chip's reset message), else by detection -- polling the
 * chip's addresses with growing sleeps -- both bounded by the input
 * timeout (the profile's, else the settings').
 */
int flow_detect_after_reset(struct flow_run *r, struct tf_chip_state *st, bool pulsed)
{
	unsigned bound = r->ctrl->input_timeout_ms ? r->ctrl->input_timeout_ms
						   : r->s->input_timeout_ms;
	uint64_t t0 = tf_now_ms(), delay = 2;
	int rc;

	if (pulsed && r->c.irq && tf_gpio_get(r->c.irq) == 0) {
		int left = (int)bound;

		while (left > 0 && tf_gpio_get(r->c.irq) == 0 && !tf_stop_requested()) {
			if (tf_gpio_wait_edge(r->c.irq, left < 100 ? left : 100) < 0)
				break;
			left = (int)bound - (int)(tf_now_ms() - t0);
		}
		rlog(r, TF_LOG_INFO, "%s %s %llu ms after the reset's minimum",
		     flow_irq_line(r),
		     tf_gpio_get(r->c.irq) == 1 ? "asserted" : "still not asserted",
		     (unsigned long long)(tf_now_ms() - t0));
	}
	rc = flow_detect(r, st);
	if (rc || st->mode != TF_CHIP_ABSENT || !pulsed)
		return rc;
	rlog(r, TF_LOG_INFO,
	     "%s after the reset pulse: waiting up to %u ms for the chip to "
	     "start",
	     st->detail, bound);
	while (st->mode == TF_CHIP_ABSENT && tf_now_ms() - t0 < bound && !tf_stop_requested()) {
		tf_sleep_us(delay * 1000);
		delay = delay * 2 < 50 ? delay * 2 : 50;
		rc = flow_detect(r, st);
		if (rc)
			return rc;
	}
	if (st->mode != TF_CHIP_ABSENT)
		rlog(r, TF_LOG_INFO, "the chip answered %llu ms after the reset's minimum",
		     (unsigned long long)(tf_now_ms() - t0));
	return TF_EXIT_OK;
}
