/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The update flow for one device, in one place:
 *
 *   lock -> device -> board profile -> attempts -> firmware DB -> bus ->
 *   detect -> plan -> [report only] -> load and verify blobs -> update by
 *   the path the chip's state and the profile allow -> rebind -> wait for
 *   the new input device -> read back -> record the result
 *
 * Paths (who owns the chip: the profile's power property,
 * doc/touchfw-board.5), chosen from the family's capabilities
 * (agent/family/family.h) and, where its driver differs, by the family's
 * update path (agent/family/update-path.h), never from its name:
 *   bootloader: the chip is in bootloader mode (caps.bootloader_mode); the
 *       driver (bound, idle) does not touch it, so flash at the bootloader
 *       address while bound, write the configuration directly, then rebind;
 *   update_fw: application mode and the driver owns the power: the driver
 *       flashes through its trigger attribute (caps.kernel_fw_attr) from a
 *       staged image named as the driver computes it, and a configuration
 *       goes in as the file the driver loads at probe (caps.kernel_cfg) on
 *       a rebind;
 *   unbind: application mode and power is always on (caps.bus_flash,
 *       caps.bus_config): unbind, reset pulse by the family's timing,
 *       bootloader entry, flash with the interrupt line, configuration,
 *       rebind;
 *   driver-probe: the chip's program is its driver's file: stage it where
 *       the driver looks, make the driver probe, wait for its input device.
 */
#ifndef TF_FLOW_H
#define TF_FLOW_H

#include <stdbool.h>

#include "flow-types.h"
#include "settings.h"

int tf_flow_run(const struct tf_settings *s, const char *devname, const struct tf_flow_opts *o,
		struct tf_flow_result *res);

#endif /* TF_FLOW_H */
