// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The GPIO primitives on libgpiod 2 (2.0 and later; the Makefile compiles
 * this file or gpio-gpiod1.c, as pkg-config's libgpiod version says).
 * libgpiod 2 finds neither a line by name across chips nor a chip by its
 * label, so both walk /dev as libgpiod 1.6 did (and as libgpiod 2's own
 * tools do): every entry gpiod_is_gpiochip_device() accepts, in version
 * order (gpiochip2 before gpiochip10), the first match wins.  A chip is
 * named as gpiod_chip_open_lookup() took it: a number, a label, a name in
 * /dev or a path.  A line is requested alone, with its active-low flag
 * (so the kernel reports logical values and edges), an output with its
 * initial value, an input with both edges; the request outlives its chip
 * handle, which is closed at once.  On the emulated boards the same calls
 * run, over the kernel's uAPI that tests/emul/gpiod-preload.c serves.
 */
#include <dirent.h>
#include <errno.h>
#include <gpiod.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpio.h"

#define DEV_DIR "/dev"

struct tf_gpio_line {
	struct gpiod_line_request *req;
	unsigned int offset;
	struct gpiod_edge_event_buffer *events; /* inputs only */
};

static void chip_closep(struct gpiod_chip **c)
{
	if (*c)
		gpiod_chip_close(*c);
}

static void settings_freep(struct gpiod_line_settings **s)
{
	gpiod_line_settings_free(*s);
}

static void line_config_freep(struct gpiod_line_config **c)
{
	gpiod_line_config_free(*c);
}

static void request_config_freep(struct gpiod_request_config **c)
{
	gpiod_request_config_free(*c);
}

static void chip_info_freep(struct gpiod_chip_info **i)
{
	gpiod_chip_info_free(*i);
}

static void line_info_freep(struct gpiod_line_info **i)
{
	gpiod_line_info_free(*i);
}

static int is_chip_entry(const struct dirent *d)
{
	char path[sizeof(DEV_DIR) + sizeof(d->d_name) + 1];

	if (d->d_name[0] == '.')
		return 0;
	snprintf(path, sizeof(path), DEV_DIR "/%s", d->d_name);
	return gpiod_is_gpiochip_device(path);
}

/*
 * Call @match on every GPIO chip in /dev until it returns nonzero; that
 * chip is handed to the caller in @out (the others are closed).  A chip
 * that can not be opened is passed over, its error kept in @open_errno.
 * 0 when one matched, -ENOENT when none did, another -errno when /dev can
 * not be listed.
 */
static int walk_chips(int (*match)(struct gpiod_chip *, const void *), const void *arg,
		      struct gpiod_chip **out, int *open_errno)
{
	struct dirent **ents = NULL;
	int n, i, found = -ENOENT;

	*out = NULL;
	*open_errno = 0;
	n = scandir(DEV_DIR, &ents, is_chip_entry, versionsort);
	if (n < 0)
		return -errno;
	for (i = 0; i < n; i++) {
		char path[sizeof(DEV_DIR) + sizeof(ents[i]->d_name) + 1];
		struct gpiod_chip *chip;

		if (found == 0)
			continue;
		snprintf(path, sizeof(path), DEV_DIR "/%s", ents[i]->d_name);
		chip = gpiod_chip_open(path);
		if (!chip) {
			*open_errno = errno;
			continue;
		}
		if (match(chip, arg)) {
			*out = chip;
			found = 0;
		} else {
			gpiod_chip_close(chip);
		}
	}
	for (i = 0; i < n; i++)
		free(ents[i]);
	free(ents);
	return found;
}

static int has_line_named(struct gpiod_chip *chip, const void *name)
{
	return gpiod_chip_get_line_offset_from_name(chip, name) >= 0;
}

static int has_label(struct gpiod_chip *chip, const void *label)
{
	_cleanup_(chip_info_freep) struct gpiod_chip_info *info = gpiod_chip_get_info(chip);

	return info && !strcmp(gpiod_chip_info_get_label(info), label);
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* The chip @descr names, as libgpiod 1.6's gpiod_chip_open_lookup() took it. */
static struct gpiod_chip *open_chip(const char *descr)
{
	char path[sizeof(DEV_DIR) + 80];
	struct gpiod_chip *chip;
	int open_errno;

	if (all_digits(descr)) {
		snprintf(path, sizeof(path), DEV_DIR "/gpiochip%s", descr);
		return gpiod_chip_open(path);
	}
	if (walk_chips(has_label, descr, &chip, &open_errno) == 0)
		return chip;
	if (!strncmp(descr, DEV_DIR "/", strlen(DEV_DIR "/")))
		return gpiod_chip_open(descr);
	if (snprintf(path, sizeof(path), DEV_DIR "/%s", descr) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return gpiod_chip_open(path);
}

/*
 * The chip and offset @spec names, the chip open; 0 or -errno with the
 * reason in @err (-ENOENT no such line name, -ENODEV no such chip,
 * -EINVAL no such offset).
 */
static int find_line(const struct tf_gpio_spec *spec, struct gpiod_chip **chip,
		     unsigned int *offset, struct tf_err *err)
{
	_cleanup_(chip_info_freep) struct gpiod_chip_info *info = NULL;
	int r, open_errno;

	if (spec->name[0]) {
		r = walk_chips(has_line_named, spec->name, chip, &open_errno);
		if (r == -ENOENT && open_errno)
			return tf_err_set(
				err, ENOENT,
				"GPIO line \"%s\" not found (a GPIO chip could not be "
				"opened: %s)",
				spec->name, strerror(open_errno));
		if (r == -ENOENT)
			return tf_err_set(err, ENOENT, "GPIO line \"%s\" not found",
					  spec->name);
		if (r < 0)
			return tf_err_set(err, -r, "GPIO line \"%s\": listing " DEV_DIR ": %s",
					  spec->name, strerror(-r));
		r = gpiod_chip_get_line_offset_from_name(*chip, spec->name);
		if (r < 0) {
			r = errno ? errno : ENOENT;
			gpiod_chip_close(*chip);
			*chip = NULL;
			return tf_err_set(err, r, "GPIO line \"%s\": %s", spec->name,
					  strerror(r));
		}
		*offset = (unsigned int)r;
		return 0;
	}
	*chip = open_chip(spec->chip);
	if (!*chip)
		return tf_err_set(err, errno ? errno : ENODEV, "GPIO chip \"%s\": %s",
				  spec->chip, strerror(errno ? errno : ENODEV));
	info = gpiod_chip_get_info(*chip);
	if (!info || spec->line < 0 ||
	    (size_t)spec->line >= gpiod_chip_info_get_num_lines(info)) {
		r = info ? EINVAL : errno ? errno : EIO;
		gpiod_chip_close(*chip);
		*chip = NULL;
		return tf_err_set(err, r, "GPIO chip \"%s\" line %d: %s", spec->chip,
				  spec->line, strerror(r));
	}
	*offset = (unsigned int)spec->line;
	return 0;
}

static int request(const struct tf_gpio_spec *spec, bool output, int value,
		   const char *consumer, struct tf_gpio_line **out, struct tf_err *err)
{
	_cleanup_(chip_closep) struct gpiod_chip *chip = NULL;
	_cleanup_(settings_freep) struct gpiod_line_settings *settings = NULL;
	_cleanup_(line_config_freep) struct gpiod_line_config *lcfg = NULL;
	_cleanup_(request_config_freep) struct gpiod_request_config *rcfg = NULL;
	_cleanup_free_ struct tf_gpio_line *l = NULL;
	unsigned int offset;
	int r;

	r = find_line(spec, &chip, &offset, err);
	if (r < 0)
		return r;
	l = calloc(1, sizeof(*l));
	settings = gpiod_line_settings_new();
	lcfg = gpiod_line_config_new();
	rcfg = gpiod_request_config_new();
	if (!l || !settings || !lcfg || !rcfg)
		return tf_err_set(err, ENOMEM, "out of memory");
	if (!output) {
		l->events = gpiod_edge_event_buffer_new(1);
		if (!l->events)
			return tf_err_set(err, ENOMEM, "out of memory");
	}
	gpiod_line_settings_set_active_low(settings, spec->active_low);
	if ((output ? gpiod_line_settings_set_direction(settings,
							GPIOD_LINE_DIRECTION_OUTPUT) ||
			      gpiod_line_settings_set_output_value(
				      settings, value ? GPIOD_LINE_VALUE_ACTIVE
						      : GPIOD_LINE_VALUE_INACTIVE)
		    : gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) ||
			      gpiod_line_settings_set_edge_detection(settings,
								     GPIOD_LINE_EDGE_BOTH)) ||
	    gpiod_line_config_add_line_settings(lcfg, &offset, 1, settings) < 0)
		r = errno ? errno : EINVAL;
	else {
		gpiod_request_config_set_consumer(rcfg, consumer);
		l->req = gpiod_chip_request_lines(chip, rcfg, lcfg);
		r = l->req ? 0 : errno ? errno : EIO;
	}
	if (r) {
		gpiod_edge_event_buffer_free(l->events);
		if (spec->name[0])
			return tf_err_set(err, r, "requesting GPIO \"%s\": %s", spec->name,
					  strerror(r));
		return tf_err_set(err, r, "requesting GPIO %s line %d: %s", spec->chip,
				  spec->line, strerror(r));
	}
	l->offset = offset;
	*out = l;
	l = NULL;
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
	_cleanup_(chip_closep) struct gpiod_chip *chip = NULL;
	_cleanup_(line_info_freep) struct gpiod_line_info *info = NULL;
	unsigned int offset;
	const char *who;
	int r;

	r = find_line(spec, &chip, &offset, err);
	if (r < 0 && r != -EINVAL && !spec->name[0])
		r = -ENODEV; /* no chip by that number, label, name or path */
	if (r < 0)
		return r;
	info = gpiod_chip_get_line_info(chip, offset);
	who = info && gpiod_line_info_is_used(info) ? gpiod_line_info_get_consumer(info) : NULL;
	snprintf(consumer, size, "%s",
		 who && *who				 ? who
		 : info && gpiod_line_info_is_used(info) ? "?"
							 : "");
	return 0;
}

int tf_gpio_get(struct tf_gpio_line *l)
{
	enum gpiod_line_value v;

	if (!l)
		return -EINVAL;
	v = gpiod_line_request_get_value(l->req, l->offset);
	if (v == GPIOD_LINE_VALUE_ERROR)
		return errno ? -errno : -EIO;
	return v == GPIOD_LINE_VALUE_ACTIVE;
}

int tf_gpio_set(struct tf_gpio_line *l, int value)
{
	if (!l)
		return -EINVAL;
	return gpiod_line_request_set_value(l->req, l->offset,
					    value ? GPIOD_LINE_VALUE_ACTIVE
						  : GPIOD_LINE_VALUE_INACTIVE) < 0
		       ? -errno
		       : 0;
}

int tf_gpio_wait_edge(struct tf_gpio_line *l, int timeout_ms)
{
	struct gpiod_edge_event *ev;
	int r;

	if (!l)
		return -EINVAL;
	if (!l->events)
		return -EINVAL; /* an output: no edges */
	r = gpiod_line_request_wait_edge_events(l->req, (int64_t)timeout_ms * 1000000);
	if (r < 0)
		return -errno;
	if (r == 0)
		return TF_GPIO_EDGE_NONE;
	r = gpiod_line_request_read_edge_events(l->req, l->events, 1);
	if (r < 0)
		return -errno;
	if (r == 0)
		return -EIO;
	ev = gpiod_edge_event_buffer_get_event(l->events, 0);
	if (!ev)
		return -EIO;
	return gpiod_edge_event_get_event_type(ev) == GPIOD_EDGE_EVENT_RISING_EDGE
		       ? TF_GPIO_EDGE_ASSERT
		       : TF_GPIO_EDGE_DEASSERT;
}

void tf_gpio_release(struct tf_gpio_line *l)
{
	if (!l)
		return;
	gpiod_line_request_release(l->req);
	gpiod_edge_event_buffer_free(l->events);
	free(l);
}
