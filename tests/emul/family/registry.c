// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The table of the emulator's families, from registry.def: the only list
 * of them (the core looks every chip model and driver model up here).
 */
#include "emub-family.h"

#define EMUB_FAMILY(name) extern const struct emub_family emub_family_##name;
#include "registry.def"
#undef EMUB_FAMILY

const struct emub_family *const emub_families[] = {
#define EMUB_FAMILY(name) &emub_family_##name,
#include "registry.def"
#undef EMUB_FAMILY
	NULL,
};
