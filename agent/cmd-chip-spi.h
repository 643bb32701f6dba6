/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `touchfw chip` over spi (cmd-chip-spi.c): user space reaches an spi
 * chip only through spidev, so the touch driver lets go of the device for
 * the command, spidev is bound with driver_override, and all of that is
 * undone afterwards and the driver bound again -- as a run does
 * (flow.c's open_spi and spi_let_go), with the device's lock held
 * throughout and a record in the state directory that the next start
 * repairs if the command dies in between.
 */
#ifndef TF_CMD_CHIP_SPI_H
#define TF_CMD_CHIP_SPI_H

#include <stdbool.h>
#include <stdio.h>

#include "family/family.h"
#include "spi.h"
#include "state.h"

struct tf_settings;

struct tf_chip_spi {
	struct tf_state st;
	int lock; /* the device's lock, held from open to close */
	struct tf_spidev_claim claim;
	char prev_driver[64]; /* the touch driver that let go, bound again */
	bool active;	      /* open was called: close has work to do */
	bool recorded;	      /* the record is ours to drop */
};

/*
 * Take the device @c->dev for spidev: its lock, a repair of what an
 * interrupted command or run left, the record, the touch driver unbound
 * (only its own family's driver, spidev or none may hold it), spidev
 * claimed and opened in the profile's mode and speed; @c->spi_open set and
 * @c->dev.driver cleared as the flow does.  Progress goes to @say.
 * Returns an exit code (TF_EXIT_OK when open), the reason printed; call
 * tf_chip_spi_close() whatever it returns.
 */
int tf_chip_spi_open(struct tf_chip_spi *cs, struct tf_ctx *c, const struct tf_family *fam,
		     const struct tf_settings *s, FILE *say);
/*
 * Undo it all: spidev closed and let go, the touch driver bound again
 * (marked as touchfw's own bind), the record dropped, the lock released.
 * With @input (size @isize) and a driver bound again, waits up to
 * @timeout_ms for its input device and names it there ("" if none came).
 * Safe to call twice.
 */
void tf_chip_spi_close(struct tf_chip_spi *cs, struct tf_ctx *c, FILE *say, int timeout_ms,
		       char *input, size_t isize);

#endif /* TF_CMD_CHIP_SPI_H */
