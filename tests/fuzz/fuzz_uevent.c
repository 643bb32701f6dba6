// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for uevent environment parsing and the family lookups:
 * the input is split at NUL and newline bytes into "KEY=value" strings.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "family/ids.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *envp[65];
	struct tf_uevent ev;
	size_t i, n = 0, start = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	for (i = 0; i <= size && n < 64; i++)
		if (buf[i] == '\0' || buf[i] == '\n') {
			buf[i] = '\0';
			envp[n++] = buf + start;
			start = i + 1;
		}
	envp[n] = NULL;
	if (tf_uevent_parse(envp, &ev) == 0) {
		if (!tf_devname_valid(ev.devname) || ev.n_compatible > TF_EVENT_MAX_COMPAT)
			abort();
		tf_family_ids_by_driver(ev.driver);
		tf_family_ids_by_uevent(&ev);
	}
	free(buf);
	return 0;
}
