// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The reset pulse a family's caps.reset describes, on the primitives of
 * gpio.h (gpio-gpiod1.c or gpio-gpiod2.c).
 */
#include <errno.h>
#include <string.h>

#include "gpio.h"

/* Request @spec, retrying while it is busy for up to @retry_ms. */
static int request_retry(const struct tf_gpio_spec *spec, bool output, int value,
			 unsigned retry_ms, struct tf_gpio_line **out, struct tf_err *err)
{
	uint64_t end = tf_now_ms() + retry_ms;
	int rc;

	for (;;) {
		rc = output ? tf_gpio_request_output(spec, value, "touchfw", out, err)
			    : tf_gpio_request_input(spec, "touchfw", out, err);
		if (rc != -EBUSY || tf_now_ms() >= end)
			return rc;
		tf_sleep_us(20000);
	}
}

void tf_gpio_reset_pulse(const struct tf_reset_seq *rs, const struct tf_gpio_spec *reset,
			 const struct tf_gpio_spec *irq, unsigned busy_retry_ms,
			 struct tf_reset_lines *out)
{
	bool drive = rs->drive_int && reset && irq;

	memset(out, 0, sizeof(*out));
	if (irq && request_retry(irq, drive, rs->int_level, busy_retry_ms, &out->irq,
				 &out->irq_err) < 0)
		out->irq = NULL;
	if (reset) {
		if (request_retry(reset, true, 1, busy_retry_ms, &out->reset, &out->reset_err) <
		    0) {
			out->reset = NULL;
		} else {
			out->pulsed = true;
			out->irq_driven = drive && out->irq;
			tf_sleep_us(rs->assert_us);
			tf_gpio_set(out->reset, 0);
			tf_sleep_us(drive ? rs->int_hold_us : rs->release_us);
		}
	}
	if (drive && out->irq) {
		/* The chip has latched it: the line is its output again. */
		tf_gpio_release(out->irq);
		out->irq = NULL;
		if (request_retry(irq, false, 0, busy_retry_ms, &out->irq, &out->irq_err) < 0)
			out->irq = NULL;
	}
	if (drive && out->pulsed && rs->release_us > rs->int_hold_us)
		tf_sleep_us(rs->release_us - rs->int_hold_us);
}
