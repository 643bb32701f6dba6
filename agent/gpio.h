/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The agent's small GPIO interface: a reset output and an interrupt
 * input with edge waiting.  Two backends have the same seven functions,
 * and the Makefile compiles one, as pkg-config's libgpiod version says:
 * gpio-gpiod1.c on libgpiod 1.6 (Debian 12, Ubuntu 22.04), gpio-gpiod2.c
 * on libgpiod 2 (2.0 and later).  Nothing else in the agent knows which.
 * They run on hardware, in the VM tests and on the emulated boards alike
 * (there an LD_PRELOAD shim under tests/emul serves the kernel's line
 * requests that umockdev can not emulate).  The reset pulse (gpio.c) is
 * built on them.
 */
#ifndef TF_GPIO_H
#define TF_GPIO_H

#include <stdbool.h>
#include <stdint.h>

#include "util.h"

/* How a board profile names a line: by chip label + offset, or by name. */
struct tf_gpio_spec {
	char chip[64]; /* gpiochip label or name ("gpiochip0"); "" if by name */
	int line;      /* offset on that chip, -1 if by name */
	char name[64]; /* line name ("TS_RESET"), "" if by chip+offset */
	bool active_low;
};

struct tf_gpio_line;

enum tf_gpio_edge {
	TF_GPIO_EDGE_NONE = 0,
	TF_GPIO_EDGE_ASSERT = 1,   /* logical 0 -> 1 (falling on an active-low line) */
	TF_GPIO_EDGE_DEASSERT = 2, /* logical 1 -> 0 */
};

/*
 * Request @spec as an output driven to logical @value (1 = asserted, the
 * active-low inversion is applied by libgpiod).
 */
int tf_gpio_request_output(const struct tf_gpio_spec *spec, int value, const char *consumer,
			   struct tf_gpio_line **out, struct tf_err *err);
/* Request @spec as an input reporting both edges. */
int tf_gpio_request_input(const struct tf_gpio_spec *spec, const char *consumer,
			  struct tf_gpio_line **out, struct tf_err *err);
/*
 * Is the line @spec names there, and who holds it -- without requesting
 * it (requesting would change its direction).  0 with @consumer the
 * holder's name ("" when free); -ENOENT no such line name, -ENODEV no
 * such chip, -EINVAL no such offset; the reason in @err.
 */
int tf_gpio_lookup(const struct tf_gpio_spec *spec, char *consumer, size_t size,
		   struct tf_err *err);
/* Logical value: 1 asserted, 0 not, -errno on failure. */
int tf_gpio_get(struct tf_gpio_line *l);
int tf_gpio_set(struct tf_gpio_line *l, int value);
/*
 * Wait up to @timeout_ms for an edge.  Returns the tf_gpio_edge seen (the
 * first queued one), 0 on timeout, -errno on failure.
 */
int tf_gpio_wait_edge(struct tf_gpio_line *l, int timeout_ms);
void tf_gpio_release(struct tf_gpio_line *l);

/*
 * A reset pulse as a chip wants it: reset asserted @assert_us, then
 * @release_us before the first bus access.  Chips that latch a strap
 * (their address) from the interrupt line at reset want it driven: with
 * @drive_int the line is an output at logical @int_level while reset is
 * asserted and @int_hold_us after release, then an input again.
 */
struct tf_reset_seq {
	uint32_t assert_us;
	uint32_t release_us;
	bool drive_int;
	int int_level;
	uint32_t int_hold_us; /* <= release_us */
};

/* What tf_gpio_reset_pulse() took and did. */
struct tf_reset_lines {
	struct tf_gpio_line *reset;	  /* held, released (logical 0); NULL if not taken */
	struct tf_gpio_line *irq;	  /* held as an input; NULL if not taken */
	bool pulsed;			  /* the reset pulse was given */
	bool irq_driven;		  /* with the interrupt line driven */
	struct tf_err reset_err, irq_err; /* why a line given was not taken */
};

/*
 * Take the interrupt line @irq (an input) and the reset line @reset (either
 * NULL when the board has none) and give the pulse @rs.  A busy line (a
 * driver's, still being released after its unbind) is retried for
 * @busy_retry_ms.  A line that can not be taken is left out and the rest
 * goes on: see @out.  Release both with tf_gpio_release().
 */
void tf_gpio_reset_pulse(const struct tf_reset_seq *rs, const struct tf_gpio_spec *reset,
			 const struct tf_gpio_spec *irq, unsigned busy_retry_ms,
			 struct tf_reset_lines *out);

#endif /* TF_GPIO_H */
