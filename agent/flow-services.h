/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flow-services.c: the services a family's update path is made of (flow-priv.h
 * says how the * flow files stack).
 */
#ifndef TF_FLOW_SERVICES_H
#define TF_FLOW_SERVICES_H

#include "flow-priv.h"

/* The services handed to a family's update path. */
extern const struct tf_flow_services tf_flow_services;
/* Why a bind failed, for the message. */
const char *flow_bind_failure(const struct tf_err *e);
/* Unbind and bind the driver again with a new watch (r->watch). */
int flow_rebind(struct flow_run *r);
/* Wait for the input device on r->watch. */
int flow_wait_input(struct flow_run *r);
/* Was the driver unbound (by someone else)? */
bool flow_driver_gone(struct flow_run *r);
/* Staging failed: the state's fault (exit 16) or an I/O failure. */
int flow_stage_failed(struct flow_run *r, const struct tf_fw_stage *stage,
		      const struct tf_err *err);

#endif /* TF_FLOW_SERVICES_H */
