// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The shared chip model source tests/emul/family/cyapa/model/cyapa_pip_model.c
 * (a Gen5 or Gen6 PIP trackpad), compiled into the module from the tree (Kbuild
 * puts that directory on the include path); its em_types.h takes the
 * __KERNEL__ branch.
 */
#include "cyapa_pip_model.c"
