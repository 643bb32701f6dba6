// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The names of the signature policy (off, optional, required), shared by
 * the settings file and `db check --signatures`.  Its own object with no
 * dependencies, so that the small front end, which reads the settings
 * file, does not link the firmware database code.
 */
#include <errno.h>
#include <string.h>

#include "fwdb.h"

int tf_sig_policy_parse(const char *s, enum tf_sig_policy *out)
{
	if (!s)
		return -EINVAL;
	if (!strcmp(s, "required"))
		*out = TF_SIG_REQUIRED;
	else if (!strcmp(s, "optional"))
		*out = TF_SIG_OPTIONAL;
	else if (!strcmp(s, "off"))
		*out = TF_SIG_OFF;
	else
		return -EINVAL;
	return 0;
}

const char *tf_sig_policy_name(enum tf_sig_policy p)
{
	switch (p) {
	case TF_SIG_OFF:
		return "off";
	case TF_SIG_OPTIONAL:
		return "optional";
	case TF_SIG_REQUIRED:
		return "required";
	}
	return "unknown";
}
