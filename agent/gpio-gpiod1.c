// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The GPIO primitives on libgpiod 1.6: the line is found by name
 * (gpiod_line_find) or by chip (label, name, number or path,
 * gpiod_chip_open_lookup) and offset;
 * outputs are requested with their initial value, inputs with both-edge
 * events; active-low is a request flag, so the kernel reports logical
 * values and logical edges.  gpio-gpiod2.c is the same on libgpiod 2; the
 * Makefile compiles one of them.  The emulated boards run this same code,
 * over the kernel's uAPI that an LD_PRELOAD shim serves
 * (tests/emul/gpiod-preload.c).
 */
#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpio.h"

struct tf_gpio_line {
	struct gpiod_line *line;
};

static int request(const struct tf_gpio_spec *spec, bool output, int value,
		   const char *consumer, struct tf_gpio_line **out, struct tf_err *err)
{
	int flags = spec->active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
	struct tf_gpio_line *l;
	struct gpiod_line *line;
	struct gpiod_chip *chip;
	int r;

	if (spec->name[0]) {
		line = gpiod_line_find(spec->name);
		if (!line)
			return tf_err_set(err, errno ? errno : ENOENT,
					  "GPIO line \"%s\" not found", spec->name);
	} else {
		chip = gpiod_chip_open_lookup(spec->chip);
		if (!chip)
			return tf_err_set(err, errno ? errno : ENODEV, "GPIO chip \"%s\": %s",
					  spec->chip, strerror(errno ? errno : ENODEV));
		line = gpiod_chip_get_line(chip, (unsigned int)spec->line);
		if (!line) {
			r = errno ? errno : EINVAL;
			gpiod_chip_close(chip);
			return tf_err_set(err, r, "GPIO chip \"%s\" line %d: %s", spec->chip,
					  spec->line, strerror(r));
		}
	}
	if (output)
		r = gpiod_line_request_output_flags(line, consumer, flags, value ? 1 : 0);
	else
		r = gpiod_line_request_both_edges_events_flags(line, consumer, flags);
	if (r < 0) {
		r = errno ? errno : EIO;
		gpiod_line_close_chip(line);
		if (spec->name[0])
			return tf_err_set(err, r, "requesting GPIO \"%s\": %s", spec->name,
					  strerror(r));
		return tf_err_set(err, r, "requesting GPIO %s line %d: %s", spec->chip,
				  spec->line, strerror(r));
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		gpiod_line_release(line);
		gpiod_line_close_chip(line);
		return tf_err_set(err, ENOMEM, "out of memory");
	}
	l->line = line;
	*out = l;
	return 0;
}

int tf_gpio_request_output(const struct tf_gpio_spec *spec, int value, const char *consumer,
			   struct tf_gpio_line **out, struct tf_err *err)
{
	return request(spec, true, value, consumer, out, err);
}

int tf_gpio_request_input(const struct tf_gpio_spec *spec, const char *consumer,
			  struct tf_gpio_line **out, struct tf_err *err)
{
	return request(spec, false, 0, consumer, out, err);
}

/* Find the line as request() does, read its info, never request it. */
int tf_gpio_lookup(const struct tf_gpio_spec *spec, char *consumer, size_t size,
		   struct tf_err *err)
{
	struct gpiod_line *line;
	struct gpiod_chip *chip;
	const char *who;
	int r;

	if (spec->name[0]) {
		errno = 0;
		line = gpiod_line_find(spec->name);
		if (!line)
			return tf_err_set(err, errno ? errno : ENOENT,
					  "GPIO line \"%s\" not found", spec->name),
			       -ENOENT;
	} else {
		chip = gpiod_chip_open_lookup(spec->chip);
		if (!chip)
			return tf_err_set(err, ENODEV, "GPIO chip \"%s\": %s", spec->chip,
					  strerror(errno ? errno : ENODEV));
		line = gpiod_chip_get_line(chip, (unsigned int)spec->line);
		if (!line) {
			gpiod_chip_close(chip);
			return tf_err_set(err, EINVAL, "GPIO chip \"%s\" has no line %d",
					  spec->chip, spec->line);
		}
	}
	r = gpiod_line_update(line);
	who = r == 0 && gpiod_line_is_used(line) ? gpiod_line_consumer(line) : NULL;
	snprintf(consumer, size, "%s",
		 who				      ? who
		 : r == 0 && gpiod_line_is_used(line) ? "?"
						      : "");
	gpiod_line_close_chip(line);
	return 0;
}

int tf_gpio_get(struct tf_gpio_line *l)
{
	int v;

	if (!l)
		return -EINVAL;
	v = gpiod_line_get_value(l->line);
	return v < 0 ? -errno : v;
}

int tf_gpio_set(struct tf_gpio_line *l, int value)
{
	if (!l)
		return -EINVAL;
	return gpiod_line_set_value(l->line, value ? 1 : 0) < 0 ? -errno : 0;
}

int tf_gpio_wait_edge(struct tf_gpio_line *l, int timeout_ms)
{
	struct timespec ts = { .tv_sec = timeout_ms / 1000,
			       .tv_nsec = (long)(timeout_ms % 1000) * 1000000 };
	struct gpiod_line_event ev;
	int r;

	if (!l)
		return -EINVAL;
	r = gpiod_line_event_wait(l->line, &ts);
	if (r < 0)
		return -errno;
	if (r == 0)
		return TF_GPIO_EDGE_NONE;
	if (gpiod_line_event_read(l->line, &ev) < 0)
		return -errno;
	return ev.event_type == GPIOD_LINE_EVENT_RISING_EDGE ? TF_GPIO_EDGE_ASSERT
							     : TF_GPIO_EDGE_DEASSERT;
}

void tf_gpio_release(struct tf_gpio_line *l)
{
	if (!l)
		return;
	gpiod_line_release(l->line);
	gpiod_line_close_chip(l->line);
	free(l);
}
