/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The controller families touchfw knows, as data: which kernel drivers and
 * device-tree/ACPI ids belong to each, so that handle-event can decide
 * "one of ours?" from the uevent alone.  Pure data, safe for the front end;
 * the families' bus protocols live in proto/.
 */
#ifndef TF_FAMILIES_H
#define TF_FAMILIES_H

#include <stdbool.h>

#include "event.h"

struct tf_family_info {
	const char *name;        /* "mxt" */
	const char *description;
	const char *const *drivers;     /* kernel driver names */
	const char *const *compatibles; /* OF compatibles the driver matches */
	const char *const *acpi_ids;    /* ACPI HIDs the driver matches */
	const char *const *i2c_ids;     /* i2c_device_id names ("i2c:NAME") */
	const char *version_scheme;     /* for version.c */
};

const struct tf_family_info *tf_family_by_name(const char *name);
const struct tf_family_info *tf_family_by_driver(const char *driver);
/* By OF_COMPATIBLE_* or an "of:" / "acpi:" MODALIAS (no driver bound yet). */
const struct tf_family_info *tf_family_by_ids(const struct tf_uevent *ev);
/* All families, NULL-terminated. */
extern const struct tf_family_info *const tf_families[];

#endif /* TF_FAMILIES_H */
