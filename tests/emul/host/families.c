// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Look-ups in the families' registrations (emub-family.h): chip models by
 * the board's `model`, kernel driver models by the name they register,
 * and the lists of them the board parser's messages give.
 */
#include <string.h>

#include "emub-priv.h"
#include "emub-spi.h"

const struct emub_chip_model *emub_chip_model_find(const char *model)
{
	for (const struct emub_family *const *f = emub_families; *f; f++)
		for (const struct emub_chip_model *const *m = (*f)->chips; m && *m; m++)
			if (emub_name_in((*m)->names, model))
				return *m;
	return NULL;
}

const struct emub_spi_chip_model *emub_spi_chip_model_find(const char *model)
{
	for (const struct emub_family *const *f = emub_families; *f; f++)
		for (const struct emub_spi_chip_model *const *m = (*f)->spi_chips; m && *m; m++)
			if (emub_name_in((*m)->names, model))
				return *m;
	return NULL;
}

const struct emub_driver_ops *emub_find_driver(const char *name)
{
	for (const struct emub_family *const *f = emub_families; *f; f++)
		for (const struct emub_driver_ops *const *d = (*f)->drivers; d && *d; d++)
			if (!strcmp((*d)->name, name))
				return *d;
	return NULL;
}

const struct emub_spi_driver *emub_spi_driver_find(const char *name)
{
	for (const struct emub_family *const *f = emub_families; *f; f++)
		for (const struct emub_spi_driver *const *d = (*f)->spi_drivers; d && *d; d++)
			if (!strcmp((*d)->name, name))
				return *d;
	return NULL;
}

const char *emub_spi_store_attr(const char *name)
{
	for (const struct emub_family *const *f = emub_families; *f; f++)
		for (const struct emub_spi_driver *const *d = (*f)->spi_drivers; d && *d; d++)
			for (const char *const *a = (*d)->store_attrs; a && *a; a++)
				if (!strcmp(*a, name))
					return *a;
	return NULL;
}

static void add_names(GString *s, const char *const *names)
{
	for (; names && *names; names++)
		g_string_append_printf(s, "%s%s", s->len ? ", " : "", *names);
}

char *emub_chip_model_names(void)
{
	GString *s = g_string_new(NULL);

	for (const struct emub_family *const *f = emub_families; *f; f++)
		for (const struct emub_chip_model *const *m = (*f)->chips; m && *m; m++)
			add_names(s, (*m)->names);
	return g_string_free(s, FALSE);
}

char *emub_spi_chip_model_names(void)
{
	GString *s = g_string_new("none");

	for (const struct emub_family *const *f = emub_families; *f; f++)
		for (const struct emub_spi_chip_model *const *m = (*f)->spi_chips; m && *m; m++)
			add_names(s, (*m)->names);
	return g_string_free(s, FALSE);
}

char *emub_driver_names(void)
{
	GString *s = g_string_new(NULL);

	for (const struct emub_family *const *f = emub_families; *f; f++)
		for (const struct emub_driver_ops *const *d = (*f)->drivers; d && *d; d++)
			add_names(s, (const char *const[]){ (*d)->name, NULL });
	return g_string_free(s, FALSE);
}

char *emub_spi_driver_names(void)
{
	GString *s = g_string_new("spidev");

	for (const struct emub_family *const *f = emub_families; *f; f++)
		for (const struct emub_spi_driver *const *d = (*f)->spi_drivers; d && *d; d++)
			add_names(s, (const char *const[]){ (*d)->name, NULL });
	return g_string_free(s, FALSE);
}
