// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers for the families' blob_facts and import_blob (family.h): what
 * `touchfw db add` tells people about a blob beyond its one-line summary.
 */
#include "family/family.h"

#include <stdarg.h>
#include <stdio.h>

void tf_blob_facts_note(struct tf_blob_facts *f, const char *fmt, ...)
{
	va_list ap;

	if (f->n_notes >= TF_BLOB_FACTS_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(f->note[f->n_notes], sizeof(f->note[0]), fmt, ap);
	va_end(ap);
	f->n_notes++;
}
