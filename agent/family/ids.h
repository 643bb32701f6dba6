/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What identifies a controller family from outside the chip: its kernel
 * drivers and the device-tree, ACPI and i2c ids those drivers match, so
 * that handle-event can decide "one of ours?" from the uevent alone.  Each
 * family folder fills one struct tf_family_ids (agent/family/<name>/ids.c);
 * registry-ids.c lists them from registry.def.  Pure data and string
 * compares: the front end (libc only) links this and nothing
 * else of the families.
 */
#ifndef TF_FAMILY_IDS_H
#define TF_FAMILY_IDS_H

#include <stdbool.h>

#include "event.h"

struct tf_family_ids {
	const char *name;		/* the family's folder name */
	const char *description;	/* vendor and product line */
	const char *const *drivers;	/* kernel driver names, NULL-terminated */
	const char *const *compatibles; /* OF compatibles the drivers match */
	const char *const *acpi_ids;	/* ACPI HIDs the drivers match */
	const char *const *i2c_ids;	/* i2c_device_id names ("i2c:NAME") */
	const char *const *spi_ids;	/* spi_device_id names ("spi:NAME") */
	/*
	 * The driver's probe fails until a file touchfw installs exists (a
	 * flashless chip loaded at every probe) or until touchfw flashed the
	 * chip (a driver that does not bind an empty chip), so an "add"
	 * without DRIVER is followed by no "bind": handle-event and the udev
	 * rule act on that add.
	 */
	bool probe_needs_file;
	/*
	 * The driver's probe fails on a chip left in its bootloader, so an
	 * "add" without DRIVER may be followed by no "bind" either:
	 * handle-event acts on that add (the run lets the probe end first,
	 * and finds the driver bound or the chip in its bootloader).
	 */
	bool probe_fails_in_bootloader;
};

/* Every family's ids, in registry order, NULL-terminated. */
extern const struct tf_family_ids *const tf_family_ids_all[];

const struct tf_family_ids *tf_family_ids_by_name(const char *name);
const struct tf_family_ids *tf_family_ids_by_driver(const char *driver);
/* By OF_COMPATIBLE_* or an "of:", "acpi:", "i2c:" or "spi:" MODALIAS (no
 * driver bound yet). */
const struct tf_family_ids *tf_family_ids_by_uevent(const struct tf_uevent *ev);

#endif /* TF_FAMILY_IDS_H */
