// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the parsers of touchfw's state files: attempts
 * (/run/touchfw/DEV.attempts), failure records (/var/lib/touchfw/failed/
 * DEV.SHA256), the hardware hint (/var/lib/touchfw/DEV.hw) and the time
 * stamp of the ownbind/waitbind markers.  The input is one file's text,
 * given to each.  A count that parses is below 2^32 - 1 (never wrapped), a
 * hint is one printable word, every error names its field.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), why[128];
	struct tf_hw_hint hint;
	struct tf_attempts a;
	struct tf_err err = { 0 };
	unsigned n;
	uint64_t t;
	size_t i;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0'; /* as tf_read_fd() leaves a file */

	if (tf_attempts_parse(text, &a, &err) == 0) {
		if (a.count >= UINT32_MAX || strlen(a.last_error) >= sizeof(a.last_error))
			abort();
	} else if (!err.msg[0]) {
		abort();
	}
	tf_err_clear(&err);
	if (tf_failure_record_parse(text, &n, why, sizeof(why), &err) == 0) {
		if (n >= UINT32_MAX || strlen(why) >= sizeof(why))
			abort();
	} else if (!err.msg[0]) {
		abort();
	}
	if (tf_hw_hint_parse(text, &hint) == 0) {
		if (!hint.hw[0] || strlen(hint.hw) >= sizeof(hint.hw) ||
		    strlen(hint.from) >= sizeof(hint.from))
			abort();
		for (i = 0; hint.hw[i]; i++)
			if (hint.hw[i] < 0x21 || hint.hw[i] > 0x7e)
				abort();
		for (i = 0; hint.from[i]; i++)
			if (hint.from[i] < 0x20 || hint.from[i] > 0x7e)
				abort();
	}
	if (tf_marker_parse(text, &t) && (text[0] < '0' || text[0] > '9'))
		abort();
	free(text);
	return 0;
}
