/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flow-plan.c: the plan step (flow-priv.h says how the flow files stack).
 */
#ifndef TF_FLOW_PLAN_H
#define TF_FLOW_PLAN_H

#include "flow-priv.h"

/* What to install, from the database (plan.c), or an exit code. */
int flow_step_plan(struct flow_run *r);

#endif /* TF_FLOW_PLAN_H */
