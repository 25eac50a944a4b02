/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The exit statuses of every simrun command (docs/simrun.1, EXIT STATUS): 0 success, 1 a failure of the run itself,
 * 2 anything wrong with the input or the command line, found before or during the run. A signal's stop is 128 + its
 * number (cli_signal.h). One enum, so that no command spells them again; the statuses of the libraries' error codes
 * are src/base's (bas_error_status). */
#ifndef CLI_EXIT_H
#define CLI_EXIT_H

#include "bas_error.h"

enum cli_exit { EXIT_OK = 0, EXIT_RUNTIME = BAS_STATUS_RUNTIME, EXIT_INPUT = BAS_STATUS_INPUT };

#endif
