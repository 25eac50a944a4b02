/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The front end's printing of what the libraries say to the user: a library never prints (scripts/check-calls refuses
 * stdio there); it hands its lines to the sink of sim_error.h, which the real main points at standard error. */
#ifndef CLI_MESSAGES_H
#define CLI_MESSAGES_H

/* From now on, the libraries' lines (warnings, what a simulation process wrote on its stderr) go to standard error.
 * Called once by the real main, before any subcommand. */
void cli_messages_to_stderr(void);

#endif
