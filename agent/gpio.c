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
