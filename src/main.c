/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The simrun executable: the process's own settings (open files, signals), then the command line (cli_main.h), which
 * the tests call in process without them. */
#include "cli_main.h"

#include <sys/resource.h>

/* The soft limit of open files raised to the hard one: a replay keeps a trace file open per rank (app_ti.c checks
 * the limit before it starts), and the default soft limit (1024 on many systems) is no choice of the user's. */
static void raise_open_files(void)
{
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

int main(int argc, char **argv)
{
  raise_open_files();
  return cli_main(&(cli_context_t){.catch_signals = 1}, argc, argv);
}
