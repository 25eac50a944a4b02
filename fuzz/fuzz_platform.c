/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the platform checks before a sweep (sim_run_probe: SimGrid loads the platform in a child, then
 * simrun checks speeds, bandwidths, routes and its own properties). Whatever the platform, the probe must come back
 * with a host count or a reason, shown on one line, and never hang: a child SimGrid kills is a message, not a crash of
 * simrun. The coverage is the parent's only (the child is a separate process).
 *
 * The child inherits libFuzzer's handlers of deadly signals, which wrote every abort or crash of SimGrid in the child
 * as a crash-* artifact of the fuzzer (21 in 90 s, all SimGrid's, while the fuzzer exited 0): the child gets the
 * default handlers back, so that such a death is the parent's one-line message, counted apart on standard error
 * ("fuzz_platform: SimGrid's child died: ...", which scripts/fuzz counts). AddressSanitizer's reports in the child
 * still end in an artifact (its death callback is libFuzzer's). */
#define _GNU_SOURCE /* pthread_atfork */
#include "fuzz_input.h"
#include "scn_scenario.h"
#include "sim_run.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void default_deadly_signals(void)
{
  static const int deadly[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL};
  for (size_t i = 0; i < sizeof deadly / sizeof deadly[0]; i++)
    signal(deadly[i], SIG_DFL);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  pthread_atfork(NULL, NULL, default_deadly_signals);
  return 0;
}

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
  if (strstr(message, "the simulation process died with signal"))
    fprintf(stderr, "fuzz_platform: SimGrid's child died: %s\n", message);
  if (message[0] == '\0' || strchr(err.message, '\n')) {
    fprintf(stderr, "fuzz_platform: the probe failed with \"%s\"\n", message);
    abort();
  }
  return 0;
}
