// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw: the front end.  udev runs `touchfw handle-event` on every bind of
 * a candidate controller, so this binary links only libc (and libinih's
 * archive, or loads libinih when it parses a settings file) and decides
 * there without touching the bus.  Every other command is executed by
 * touchfw-agent (which links libudev, libfdt, libsodium, libgpiod and
 * libi2c), from the package's libexec directory (in the tests' emulated
 * boards, their shim maps that path to the build's agent).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "exitcode.h"
#include "handle-event.h"
#include "handoff.h"
#include "log.h"
#include "util.h"

int main(int argc, char **argv)
{
	struct tf_cli cli;
	const char *agent;
	int r;

	tf_log_init("touchfw");
	r = tf_cli_parse_global(argc, argv, &cli);
	if (r != TF_CLI_CONTINUE)
		return r;

	if (!strcmp(cli.command, "handle-event"))
		return tf_cmd_handle_event(&cli);

	agent = tf_agent_path();
	execv(agent, argv);
	fprintf(stderr, "touchfw: can not run the agent %s: %s\n", agent, strerror(errno));
	return TF_EXIT_FAILURE;
}
