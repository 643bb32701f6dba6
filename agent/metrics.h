/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fleet monitoring: touchfw's results in the Prometheus text format, for
 * node_exporter's textfile collector.  Each run that records a result also
 * records its device's metrics (DEVICE.metrics in the state directory,
 * key=value lines); the text is made from those records and the attempt
 * counts, never from the bus.  `touchfw status --prometheus` prints it, and
 * with prometheus_dir set ([paths]) every recorded run rewrites
 * PROMETHEUS_DIR/touchfw.prom (a temporary file renamed over it: the
 * collector never reads half a file).
 */
#ifndef TF_METRICS_H
#define TF_METRICS_H

#include "flow-types.h"
#include "settings.h"
#include "state.h"
#include "util.h"

/* The name of the file written in prometheus_dir. */
#define TF_METRICS_FILE "touchfw.prom"

/* Record @dev's metrics from @r (@family: "" when none was found). */
int tf_metrics_record(struct tf_state *st, const char *dev, const char *family,
		      const struct tf_flow_result *r, struct tf_err *err);
/* The whole text (malloc()ed) from the records in @s's state directory;
 * a state directory that does not exist gives the HELP and TYPE lines
 * alone.  0 or -errno with @err. */
int tf_metrics_text(const struct tf_settings *s, char **text, struct tf_err *err);
/* With prometheus_dir set: write the text there (temporary + rename). */
int tf_metrics_publish(const struct tf_settings *s, struct tf_err *err);
/* A label value in the text format's escaping, into @out. */
void tf_metrics_label_escape(const char *v, char *out, size_t size);

#endif /* TF_METRICS_H */
