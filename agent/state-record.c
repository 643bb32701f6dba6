// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a run leaves in the state directory about itself: the result as
 * JSON (`touchfw status` reads it) and the attempt count with its backoff,
 * which keep touchfw from flashing a chip that fails every time.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exitcode.h"
#include "flow-types.h"
#include "json.h"
#include "state.h"

uint64_t tf_attempt_backoff_s(unsigned count, unsigned backoff_s)
{
	unsigned shift = count > 10 ? 10 : count ? count - 1 : 0;

	return (uint64_t)backoff_s << shift;
}

/* When the next try may start after @count failed attempts. */
static uint64_t next_allowed(unsigned count, unsigned backoff_s)
{
	return (uint64_t)time(NULL) + tf_attempt_backoff_s(count, backoff_s);
}

int tf_state_reserve_attempt(struct tf_state *st, const char *dev, unsigned backoff_s,
			     struct tf_err *err)
{
	struct tf_attempts a;

	/* Corrupt (only --force gets here then): start again from zero. */
	if (tf_state_read_attempts(st, dev, &a, NULL) < 0)
		memset(&a, 0, sizeof(a));
	a.count++;
	a.next_allowed = next_allowed(a.count, backoff_s);
	tf_snprintf(a.last_error, sizeof(a.last_error),
		    "interrupted: the run updating it did not finish");
	return tf_state_write_attempts(st, dev, &a, err);
}

int tf_state_fail_attempt(struct tf_state *st, const char *dev, bool reserved,
			  unsigned backoff_s, const char *why, unsigned *count,
			  struct tf_err *err)
{
	struct tf_attempts a;

	if (tf_state_read_attempts(st, dev, &a, NULL) < 0)
		memset(&a, 0, sizeof(a));
	if (!reserved || !a.count)
		a.count++;
	a.next_allowed = next_allowed(a.count, backoff_s);
	tf_snprintf(a.last_error, sizeof(a.last_error), "%s", why);
	*count = a.count;
	return tf_state_write_attempts(st, dev, &a, err);
}

char *tf_flow_result_json(const char *devname, const struct tf_flow_result *r)
{
	struct tf_json j;
	char *out;
	const char *t;

	tf_json_init(&j);
	tf_json_begin_object(&j, NULL);
	tf_json_int(&j, "version", TF_JSON_VERSION);
	tf_json_string(&j, "device", devname);
	tf_json_uint(&j, "time", (uint64_t)time(NULL));
	tf_json_int(&j, "exit_code", r->exit_code);
	tf_json_string(&j, "result", tf_exit_name(r->exit_code));
	tf_json_string(&j, "message", r->message);
	tf_json_string(&j, "path", r->path[0] ? r->path : "none");
	tf_json_string(&j, "mode_before", r->mode_before[0] ? r->mode_before : NULL);
	tf_json_string(&j, "version_before", r->version_before[0] ? r->version_before : NULL);
	tf_json_string(&j, "version_after", r->version_after[0] ? r->version_after : NULL);
	if (r->config_version_before[0])
		tf_json_string(&j, "config_version_before", r->config_version_before);
	if (r->config_version_after[0])
		tf_json_string(&j, "config_version_after", r->config_version_after);
	if (r->has_crc_before)
		tf_json_crc(&j, "config_crc_before", r->crc_before, r->crc_bits);
	if (r->has_crc_after)
		tf_json_crc(&j, "config_crc_after", r->crc_after, r->crc_bits);
	tf_json_string(&j, "firmware", r->fw_id[0] ? r->fw_id : NULL);
	tf_json_string(&j, "config", r->cfg_id[0] ? r->cfg_id : NULL);
	tf_json_string(&j, "input", r->input[0] ? r->input : NULL);
	tf_json_uint(&j, "frames", r->frames);
	tf_json_uint(&j, "retries", r->retries);
	tf_json_uint(&j, "duration_ms", r->duration_ms);
	tf_json_end_object(&j);
	t = tf_json_text(&j);
	out = t ? strdup(t) : NULL;
	tf_json_free(&j);
	return out;
}
