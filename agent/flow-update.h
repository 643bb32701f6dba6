/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flow-update.c: the way decided, the driver's ways, the dry run's account
 * (flow-priv.h says how the flow files stack).
 */
#ifndef TF_FLOW_UPDATE_H
#define TF_FLOW_UPDATE_H

#include "flow-priv.h"

/*
 * The one decision for an update and its dry run: the way
 * flow_step_update() takes (the family's update path may choose), and
 * every check that comes before that way's first write.  0 with *@way
 * set, or an exit code with the message recorded (flow_finish()).
 */
int flow_decide_update(struct flow_run *r, enum tf_update_way *way);
/*
 * The plan's question for a chip whose program is its driver's file: does
 * its bound driver run the firmware to install (fw_img) already?  @why
 * says why (yes), or what it loads instead when known (no; else "").
 */
bool flow_driver_runs_fw(struct flow_run *r, char *why, size_t size);
/* Write by the way flow_decide_update() chose; rebind, input. */
int flow_step_update(struct flow_run *r);
/* A dry run's account of what flow_step_update() would write by @way. */
void flow_describe_dry_run(struct flow_run *r, enum tf_update_way way, char *buf, size_t size);
/* After a failed update or verification through the bound driver: the
 * driver gone, not unbound by touchfw, makes it an interruption (exit 19,
 * whatever failed after it); else @rc. */
int flow_driver_lost(struct flow_run *r, int rc);

#endif /* TF_FLOW_UPDATE_H */
