/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flow-load.c: the blobs an update writes, read and checked once (flow-priv.h
 * says how the flow * files stack).
 */
#ifndef TF_FLOW_LOAD_H
#define TF_FLOW_LOAD_H

#include "flow-priv.h"

/* Read and parse the firmware to write (the plan's blob or the given
 * file) into fw_img, once; 0 or an exit code (said). */
int flow_load_fw(struct flow_run *r);
/* flash: the files given are read and parsed before the device is touched. */
int flow_step_files(struct flow_run *r);
/* Read the plan's (or the given) blobs and let the family check them. */
int flow_step_load(struct flow_run *r);

#endif /* TF_FLOW_LOAD_H */
