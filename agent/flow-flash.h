/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flow-flash.c: the ways over the bus: bootloader, unbind and flash
 * (flow-priv.h says how the * flow files stack).
 */
#ifndef TF_FLOW_FLASH_H
#define TF_FLOW_FLASH_H

#include "flow-priv.h"

/* caps.bus_recovery: a chip in its bootloader with no driver bound, and
 * the board profile allows flashing it over the bus. */
bool flow_bus_recovery(const struct flow_run *r);
/* caps.bus_recovery: refuse, before the chip is touched, to flash a chip
 * left in its bootloader where the board profile does not allow it. */
int flow_step_recovery_allowed(struct flow_run *r);
/* The refusals of a family that can not do it over the bus. */
int flow_refuse_bus_flash(struct flow_run *r);
int flow_refuse_bus_config(struct flow_run *r);
/* The chip in its bootloader: flash over the bus, configure, rebind. */
int flow_path_bootloader(struct flow_run *r);
/* Unbind, reset, flash and configure over the bus, bind again. */
int flow_path_unbind(struct flow_run *r);

#endif /* TF_FLOW_FLASH_H */
