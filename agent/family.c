// SPDX-License-Identifier: GPL-2.0-or-later
/* Family name -> ops table (see family.h). */
#include "family.h"

#include <string.h>

static const struct tf_family_ops *const all_ops[] = { &tf_mxt_ops, NULL };

const struct tf_family_ops *tf_family_ops_by_name(const char *name)
{
	size_t i;

	for (i = 0; name && all_ops[i]; i++)
		if (!strcmp(all_ops[i]->name, name))
			return all_ops[i];
	return NULL;
}
