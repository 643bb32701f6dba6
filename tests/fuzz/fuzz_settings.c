// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the settings parser (touchfw.conf): the input is the
 * file's text.  Whatever it is, the parser returns 0 or an error with a
 * message, and the settings it leaves are within the documented ranges:
 * absolute paths, counts and times that the validators admit.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tf_settings s;
	struct tf_err err = { 0 };
	unsigned i;

	if (tf_settings_parse(&s, (const char *)data, size, "fuzz.conf", &err) < 0) {
		if (!err.msg[0] || strncmp(err.msg, "fuzz.conf", 9))
			abort(); /* every error names the file */
		return 0;
	}
	if (s.max_attempts < 1 || s.max_attempts > 100 || s.backoff_s > 86400 ||
	    s.own_bind_window_s < 1 || s.own_bind_window_s > 3600)
		abort();
	if (s.state_dir[0] != '/' || s.persist_dir[0] != '/' || s.db_dir[0] != '/' ||
	    s.keys_dir[0] != '/')
		abort();
	if (!s.n_boards_dirs || s.n_boards_dirs > TF_MAX_DIRS || !s.n_firmware_dirs ||
	    s.n_firmware_dirs > TF_MAX_DIRS)
		abort();
	for (i = 0; i < s.n_boards_dirs; i++)
		if (s.boards_dirs[i][0] != '/')
			abort();
	if (s.signatures != TF_SIG_OFF && s.signatures != TF_SIG_OPTIONAL &&
	    s.signatures != TF_SIG_REQUIRED)
		abort();
	return 0;
}
