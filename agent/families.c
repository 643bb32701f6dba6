// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Family table.  Ids are those of the kernel drivers' match tables
 * (atmel_mxt_ts.c: mxt_of_match, mxt_acpi_id).
 */
#include "families.h"

#include <string.h>

static const char *const mxt_drivers[] = { "atmel_mxt_ts", NULL };
static const char *const mxt_compatibles[] = {
	"atmel,maxtouch",     "atmel,qt602240_ts", "atmel,atmel_mxt_ts",
	"atmel,atmel_mxt_tp", "atmel,mXT224",      NULL,
};
static const char *const mxt_acpi[] = { "ATML0000", "ATML0001", NULL };
/* i2c_device_id names: clients made by new_device or board files. */
static const char *const mxt_i2c_ids[] = { "qt602240_ts", "atmel_mxt_ts", "atmel_mxt_tp",
					   "maxtouch", "mXT224", NULL };

static const struct tf_family_info family_mxt = {
	.name = "mxt",
	.description = "Atmel/Microchip maXTouch",
	.drivers = mxt_drivers,
	.compatibles = mxt_compatibles,
	.acpi_ids = mxt_acpi,
	.i2c_ids = mxt_i2c_ids,
	.version_scheme = "mxt",
};

const struct tf_family_info *const tf_families[] = { &family_mxt, NULL };

static bool in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

const struct tf_family_info *tf_family_by_name(const char *name)
{
	size_t i;

	for (i = 0; name && tf_families[i]; i++)
		if (!strcmp(tf_families[i]->name, name))
			return tf_families[i];
	return NULL;
}

const struct tf_family_info *tf_family_by_driver(const char *driver)
{
	size_t i;

	for (i = 0; driver && tf_families[i]; i++)
		if (in_list(tf_families[i]->drivers, driver))
			return tf_families[i];
	return NULL;
}

/* "of:NnameT(null)Ccompat" -> does any C<compat> match the list? */
static bool modalias_has(const char *modalias, const char *const *compats,
			 const char *const *acpi, const char *const *i2c)
{
	const char *p;

	if (!strncmp(modalias, "i2c:", 4))
		return in_list(i2c, modalias + 4);

	if (!strncmp(modalias, "acpi:", 5)) {
		for (; acpi && *acpi; acpi++) {
			size_t n = strlen(*acpi);

			if (!strncmp(modalias + 5, *acpi, n) &&
			    (modalias[5 + n] == ':' || modalias[5 + n] == '\0'))
				return true;
		}
		return false;
	}
	if (strncmp(modalias, "of:", 3))
		return false;
	for (p = strchr(modalias, 'C'); p; p = strchr(p + 1, 'C')) {
		const char *const *c;

		/* A 'C' inside the node name just fails to compare. */
		for (c = compats; c && *c; c++) {
			size_t n = strlen(*c);

			if (!strncmp(p + 1, *c, n) &&
			    (p[1 + n] == '\0' || p[1 + n] == 'C'))
				return true;
		}
	}
	return false;
}

const struct tf_family_info *tf_family_by_ids(const struct tf_uevent *ev)
{
	size_t i;
	unsigned k;

	for (i = 0; tf_families[i]; i++) {
		const struct tf_family_info *f = tf_families[i];

		for (k = 0; k < ev->n_compatible; k++)
			if (in_list(f->compatibles, ev->compatible[k]))
				return f;
		if (ev->modalias &&
		    modalias_has(ev->modalias, f->compatibles, f->acpi_ids, f->i2c_ids))
			return f;
	}
	return NULL;
}
