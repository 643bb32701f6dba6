// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * GPIO backend selection: libgpiod; in a test build (TF_TEST_HOOKS) the
 * emuboard socket when $TOUCHFW_GPIO_EMUL is set (emulated boards, where
 * umockdev can not emulate line requests).  An installed touchfw has no
 * such switch: a backend an environment variable picks is a test double.
 * Lines carry their backend, so a line requested from one backend is
 * always served by it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpio.h"

static const struct tf_gpio_ops *backend(void)
{
#if TF_TEST_HOOKS
	const char *s = getenv("TOUCHFW_GPIO_EMUL");

	if (s && *s)
		return &tf_gpio_emul_ops;
#endif
	return &tf_gpio_gpiod_ops;
}

static const struct tf_gpio_ops *ops_of(struct tf_gpio_line *l)
{
	return *(const struct tf_gpio_ops *const *)l;
}

const char *tf_gpio_backend(void)
{
	return backend()->name;
}

int tf_gpio_request_output(const struct tf_gpio_spec *spec, int value, const char *consumer,
			   struct tf_gpio_line **out, struct tf_err *err)
{
	return backend()->request(spec, true, value, consumer, out, err);
}

int tf_gpio_request_input(const struct tf_gpio_spec *spec, const char *consumer,
			  struct tf_gpio_line **out, struct tf_err *err)
{
	return backend()->request(spec, false, 0, consumer, out, err);
}

int tf_gpio_lookup(const struct tf_gpio_spec *spec, char *consumer, size_t size,
		   struct tf_err *err)
{
	return backend()->lookup(spec, consumer, size, err);
}

int tf_gpio_get(struct tf_gpio_line *l)
{
	return l ? ops_of(l)->get(l) : -EINVAL;
}

int tf_gpio_set(struct tf_gpio_line *l, int value)
{
	return l ? ops_of(l)->set(l, value) : -EINVAL;
}

int tf_gpio_wait_edge(struct tf_gpio_line *l, int timeout_ms)
{
	return l ? ops_of(l)->wait_edge(l, timeout_ms) : -EINVAL;
}

void tf_gpio_release(struct tf_gpio_line *l)
{
	if (l)
		ops_of(l)->release(l);
}

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
		if (request_retry(reset, true, 1, busy_retry_ms, &out->reset,
				  &out->reset_err) < 0) {
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
