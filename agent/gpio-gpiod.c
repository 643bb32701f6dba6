// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libgpiod 1.6 backend: the line is found by name (gpiod_line_find) or by
 * chip (label, name, number or path, gpiod_chip_open_lookup) and offset;
 * outputs are requested with their initial value, inputs with both-edge
 * events; active-low is a request flag, so the kernel reports logical
 * values and logical edges.  A libgpiod 2 backend is one more file like
 * this one.
 */
#include <errno.h>
#include <stdio.h>
#include <gpiod.h>
#include <stdlib.h>
#include <string.h>

#include "gpio.h"

struct gpiod_tf_line {
	const struct tf_gpio_ops *ops; /* first: gpio.c dispatches on it */
	struct gpiod_line *line;
};

static int gpiod_request(const struct tf_gpio_spec *spec, bool output, int value,
			 const char *consumer, struct tf_gpio_line **out, struct tf_err *err)
{
	int flags = spec->active_low ? GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW : 0;
	struct gpiod_tf_line *l;
	struct gpiod_line *line;
	struct gpiod_chip *chip;
	int r;

	if (spec->name[0]) {
		line = gpiod_line_find(spec->name);
		if (!line)
			return tf_err_set(err, errno ? errno : ENOENT, "GPIO line \"%s\" not found",
					  spec->name);
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
	l->ops = &tf_gpio_gpiod_ops;
	l->line = line;
	*out = (struct tf_gpio_line *)l;
	return 0;
}

/* Find the line as gpiod_request does, read its info, never request it. */
static int gpiod_lookup(const struct tf_gpio_spec *spec, char *consumer, size_t size,
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
	snprintf(consumer, size, "%s", who ? who : r == 0 && gpiod_line_is_used(line) ? "?" : "");
	gpiod_line_close_chip(line);
	return 0;
}

static int gpiod_get(struct tf_gpio_line *tl)
{
	struct gpiod_tf_line *l = (struct gpiod_tf_line *)tl;
	int v = gpiod_line_get_value(l->line);

	return v < 0 ? -errno : v;
}

static int gpiod_set(struct tf_gpio_line *tl, int value)
{
	struct gpiod_tf_line *l = (struct gpiod_tf_line *)tl;

	return gpiod_line_set_value(l->line, value ? 1 : 0) < 0 ? -errno : 0;
}

static int gpiod_wait(struct tf_gpio_line *tl, int timeout_ms)
{
	struct gpiod_tf_line *l = (struct gpiod_tf_line *)tl;
	struct timespec ts = {.tv_sec = timeout_ms / 1000,
			      .tv_nsec = (long)(timeout_ms % 1000) * 1000000};
	struct gpiod_line_event ev;
	int r = gpiod_line_event_wait(l->line, &ts);

	if (r < 0)
		return -errno;
	if (r == 0)
		return TF_GPIO_EDGE_NONE;
	if (gpiod_line_event_read(l->line, &ev) < 0)
		return -errno;
	return ev.event_type == GPIOD_LINE_EVENT_RISING_EDGE ? TF_GPIO_EDGE_ASSERT
							     : TF_GPIO_EDGE_DEASSERT;
}

static void gpiod_release(struct tf_gpio_line *tl)
{
	struct gpiod_tf_line *l = (struct gpiod_tf_line *)tl;

	gpiod_line_release(l->line);
	gpiod_line_close_chip(l->line);
	free(l);
}

const struct tf_gpio_ops tf_gpio_gpiod_ops = {
	.name = "gpiod",
	.request = gpiod_request,
	.lookup = gpiod_lookup,
	.get = gpiod_get,
	.set = gpiod_set,
	.wait_edge = gpiod_wait,
	.release = gpiod_release,
};
