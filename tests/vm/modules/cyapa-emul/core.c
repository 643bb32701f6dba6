// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The adapter, GPIO and interrupt plumbing shared with the other emulated
 * controller modules, tests/vm/modules/emul-core/emul_core.c, compiled into
 * this module from the tree (Kbuild puts that directory on the include path).
 */
#include "emul_core.c"
