/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flow-bus.c: how the flow reaches the chip: i2c, spidev, the profile's lines
 * (flow-priv.h says how the flow files stack).
 */
#ifndef TF_FLOW_BUS_H
#define TF_FLOW_BUS_H

#include "flow-priv.h"

/* The driver to bind: the one bound before, the profile's, the family's. */
const char *flow_driver_to_bind(struct flow_run *r);
/* spi: close spidev and undo the claim, so the touch driver can bind. */
void flow_spi_let_go(struct flow_run *r);
/* tf_spidev_repair()'s bind callback (@user: the run). */
void flow_repair_bind(void *user, const char *dev, const char *driver);
/* The bus the family's transport reaches the chip by. */
int flow_step_bus(struct flow_run *r);
/* The interrupt line by the family's name for it, for the log. */
const char *flow_irq_line(const struct flow_run *r);
/* Take the profile's lines and give the family's reset pulse. */
int flow_request_lines(struct flow_run *r);
/* Give back the profile's GPIO lines taken for the update. */
void flow_release_lines(struct flow_run *r);

#endif /* TF_FLOW_BUS_H */
