// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * touchfw: the front end.  udev runs `touchfw handle-event` on every bind of
 * a candidate controller, so this binary links only libc and decides there
 * without touching the bus.  Every other command is executed by
 * touchfw-agent (which links libudev, libfdt, libsodium, libgpiod and
 * libi2c), from the package's libexec directory -- or the one built beside
 * this binary when it runs from its build directory (tf_agent_path).
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
#include "out.h"
#include "util.h"

/*
 * No getenv(), environ, getopt or stdio on the fast path: the environment
 * comes as main()'s third argument and handle-event reads it in one pass
 * (tf_uevent_parse), the options are read by tf_cli_scan_global() -- each
 * libc symbol the front end uses is a lookup by the dynamic loader at
 * every event, and the loader's work is most of the front end's cost
 * (bench/README.md; tests/system/check-fast-path counts it).  Every other
 * command goes to the agent, which reads its own environment.
 */
int main(int argc, char **argv, char **envp)
{
	struct tf_cli cli;
	const char *agent;
	int r;

	/* $TOUCHFW_LOG_LEVEL: handle-event takes it in its one pass over
	 * the environment; the agent reads it itself */
	tf_log_init("touchfw", NULL);
	/* handle-event leaves nothing in stdio buffers (its log lines are
	 * write(2)s, its usage text is flushed): libc's exit handlers would
	 * only add to the cost of every event. */
	r = tf_cli_parse_global(argc, argv, envp, &cli);
	if (r != TF_CLI_CONTINUE)
		return r;
	if (tf_streq(cli.command, "handle-event"))
		_exit(tf_cmd_handle_event(&cli));

	agent = tf_agent_path();
	execv(agent, argv);
	tf_out_err("touchfw: can not run the agent %s: %s\n", agent, strerror(errno));
	return TF_EXIT_FAILURE;
}
