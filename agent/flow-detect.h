/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * flow-detect.c: the chip's state, over the bus or through the bound driver
 * (flow-priv.h says how the flow files stack).
 */
#ifndef TF_FLOW_DETECT_H
#define TF_FLOW_DETECT_H

#include "flow-priv.h"

/* A chip's config CRC for messages, or "unknown". */
const char *flow_crc_text(const struct flow_run *r, const struct tf_chip_state *st,
			  char buf[TF_CRC_TEXT_MAX]);
/* Wait until the driver link has not changed for a moment (a probe in
 * progress ends first). */
void flow_settle_driver_link(struct flow_run *r);
/* The chip's state over the bus, or what the bound driver shows. */
int flow_chip_read(struct flow_run *r, struct tf_chip_state *st, struct tf_err *err);
/* flow_chip_read(), a failure recorded with flow_finish(). */
int flow_detect(struct flow_run *r, struct tf_chip_state *st);
/* Detection while the bound driver may be resetting the chip. */
int flow_detect_settled(struct flow_run *r, struct tf_chip_state *st);
/* Remember the hardware (not in dry runs); read what was remembered. */
void flow_persist_hw(struct flow_run *r, const char *hw);
void flow_read_hw_hint(struct flow_run *r);
/* Detection right after the reset pulse, the chip waited for. */
int flow_detect_after_reset(struct flow_run *r, struct tf_chip_state *st, bool pulsed);

#endif /* TF_FLOW_DETECT_H */
