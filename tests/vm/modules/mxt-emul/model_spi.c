// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The spi personality of the shared chip model, tests/emul/family/mxt/model/mxt_spi.c,
 * compiled into the module from the tree like model_mxt.c.
 */
#include "mxt_spi.c"
