// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Goodix Berlin chip model, tests/emul/family/berlin/model/berlin_model.c, compiled
 * into the module from the tree like model_mxt.c (berlin=1).
 */
#include "berlin_model.c"
