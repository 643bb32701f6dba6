/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flow-load.c: the blobs an update writes, read and checked once (flow-priv.h
 * says how the flow * files stack).
 */
#ifndef TF_FLOW_LOAD_H
#define TF_FLOW_LOAD_H

#include "flow-priv.h"

/* flash: the files given are read and parsed before the device is touched. */
int flow_step_files(struct flow_run *r);
/* Read the plan's (or the given) blobs and let the family check them. */
int flow_step_load(struct flow_run *r);

#endif /* TF_FLOW_LOAD_H */
