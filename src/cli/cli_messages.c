/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The libraries' lines for the user, printed on standard error (cli_messages.h). */
#include "cli_messages.h"

#include "sim_error.h"

#include <stdio.h>

static void print_line(const char *line, void *ctx)
{
  (void)ctx;
  fputs(line, stderr);
}

void cli_messages_to_stderr(void)
{
  sim_set_message_sink(print_line, NULL);
}
