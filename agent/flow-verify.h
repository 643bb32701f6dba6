/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flow-verify.c: read back after the update, and the state after a failure
 * (flow-priv.h says how the flow files stack).
 */
#ifndef TF_FLOW_VERIFY_H
#define TF_FLOW_VERIFY_H

#include "flow-priv.h"

/* Read back after the update: mode, version, CRC, input device's axes. */
int flow_step_verify(struct flow_run *r);
/* After a failed update, the chip's state again: the exit code it calls
 * for, the message completed. */
int flow_after_failure(struct flow_run *r, int rc);

#endif /* TF_FLOW_VERIFY_H */
