/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flow-outcome.c: the exit code and message of a run, and what it records
 * (flow-priv.h says how * the flow files stack).
 */
#ifndef TF_FLOW_OUTCOME_H
#define TF_FLOW_OUTCOME_H

#include "flow-priv.h"

/* Record the outcome and return its exit code. */
int flow_finish(struct flow_run *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int flow_vfinish(struct flow_run *r, int code, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* The update failed where the chip may be left in its bootloader;
 * flow_after_failure() completes the message.  @e: the family's verdict. */
int flow_fail_bootloader(struct flow_run *r, const char *msg, const struct tf_err *e);
/* A stop signal arrived: flow_finish() with what was done about it. */
int flow_interrupted(struct flow_run *r, const char *what);
/* The image's failure on this device, kept when the chip rejected it. */
void flow_record_blob_failure(struct flow_run *r, const struct tf_err *e);
/* Count this run as an attempt before the chip is touched. */
int flow_reserve_attempt(struct flow_run *r);
/* The result, attempts and metrics, as the run ends. */
void flow_record(struct flow_run *r);

#endif /* TF_FLOW_OUTCOME_H */
