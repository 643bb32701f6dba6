// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The families' ids (ids.h), listed from registry.def, and the lookups the
 * front end uses to tell a touch controller's uevent from any other.
 * Front-end safe: references only the families' ids.c records.
 */
#include "family/ids.h"

#include <string.h>

#include "util.h"

#define TF_FAMILY(n) extern const struct tf_family_ids tf_family_ids_##n;
#include "family/registry.def"
#undef TF_FAMILY

const struct tf_family_ids *const tf_family_ids_all[] = {
#define TF_FAMILY(n) &tf_family_ids_##n,
#include "family/registry.def"
#undef TF_FAMILY
	NULL,
};

static bool in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (tf_streq(*list, s))
			return true;
	return false;
}

const struct tf_family_ids *tf_family_ids_by_name(const char *name)
{
	size_t i;

	for (i = 0; name && tf_family_ids_all[i]; i++)
		if (tf_streq(tf_family_ids_all[i]->name, name))
			return tf_family_ids_all[i];
	return NULL;
}

const struct tf_family_ids *tf_family_ids_by_driver(const char *driver)
{
	size_t i;

	for (i = 0; driver && tf_family_ids_all[i]; i++)
		if (in_list(tf_family_ids_all[i]->drivers, driver))
			return tf_family_ids_all[i];
	return NULL;
}

/* "of:NnameT(null)Ccompat" -> does any C<compat> match the list? */
static bool modalias_has(const char *modalias, const struct tf_family_ids *f)
{
	const char *const *compats = f->compatibles, *const *acpi = f->acpi_ids;
	const char *p;

	if (!strncmp(modalias, "i2c:", 4))
		return in_list(f->i2c_ids, modalias + 4);
	if (!strncmp(modalias, "spi:", 4))
		return in_list(f->spi_ids, modalias + 4);

	/* acpi:<HID>:<CID>:...: an id as the _HID or any _CID, as
	 * acpi_driver_match_device matches them */
	if (!strncmp(modalias, "acpi:", 5)) {
		for (p = modalias + 5; *p; p = strchr(p, ':') ? strchr(p, ':') + 1 : "") {
			const char *const *a;

			for (a = acpi; a && *a; a++) {
				size_t n = strlen(*a);

				if (!strncmp(p, *a, n) && (p[n] == ':' || p[n] == '\0'))
					return true;
			}
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

			if (!strncmp(p + 1, *c, n) && (p[1 + n] == '\0' || p[1 + n] == 'C'))
				return true;
		}
	}
	return false;
}

const struct tf_family_ids *tf_family_ids_by_uevent(const struct tf_uevent *ev)
{
	size_t i;
	unsigned k;

	for (i = 0; tf_family_ids_all[i]; i++) {
		const struct tf_family_ids *f = tf_family_ids_all[i];

		for (k = 0; k < ev->n_compatible; k++)
			if (in_list(f->compatibles, ev->compatible[k]))
				return f;
		if (ev->modalias && modalias_has(ev->modalias, f))
			return f;
	}
	return NULL;
}
