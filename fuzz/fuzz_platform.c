/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the platform checks before a sweep (sim_run_probe: SimGrid loads the platform in a child, then
 * simrun checks speeds, bandwidths, routes and its own properties). Whatever the platform, the probe must come back
 * with a host count or a reason, shown on one line, and never hang: a child SimGrid kills is a message, not a crash of
 * simrun. The coverage is the parent's only (the child is a separate process). */
#include "fuzz_input.h"
#include "scn_scenario.h"
#include "sim_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (fuzz_write_input(data, size) != 0)
    abort();
  char message[1024] = "";
  size_t hosts = 0;
  if (sim_run_probe(fuzz_input_path(), &hosts, message, sizeof message) == 0)
    return 0;
  scn_error_t err; /* as the sweep reports it */
  scn_fail(&err, "scenario.xml", 1, "platform could not be loaded: %s", message);
  if (message[0] == '\0' || strchr(err.message, '\n')) {
    fprintf(stderr, "fuzz_platform: the probe failed with \"%s\"\n", message);
    abort();
  }
  return 0;
}
