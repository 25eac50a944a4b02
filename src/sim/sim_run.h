/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Runs a simulation in a child process: SimGrid starts once per process, and a sweep runs many points. The child
 * hands its trace back through an unnamed temporary file; a crash of the child is reported, never inherited. */
#ifndef SIM_RUN_H
#define SIM_RUN_H

#include "met_trace.h"
#include "sim_progress.h"
#include "sim_replay.h"

#include <stddef.h>
#include <stdio.h>

/* Runs in the child after a successful simulation: writes what the parent needs of `trace` to `out`. 0, or -1 on a
 * write error. `ctx` is the caller's, as it was when the child was started. */
typedef int (*sim_run_payload_fn)(const met_trace_t *trace, const void *ctx, FILE *out);

/* sim_run_wait_any's answer when a child reported progress, nothing ended. */
#define SIM_RUN_PROGRESS 1

/* A running simulation process; pid 0 when the slot is free. */
typedef struct sim_run_child {
  int pid;
  FILE *channel;
  FILE *log;       /* the child's stderr: what SimGrid printed before aborting it, for a one-line message */
  int progress_fd; /* the read end of the child's progress reports (sim_progress.h), or -1 */
  sim_progress_reader_t progress; /* what it reported so far */
} sim_run_child_t;

/* Starts `job` in a forked child (SIGINT ends it) that simulates it and writes payload(trace, ctx). `job` and `ctx` are
 * needed only until this returns. Returns 0 with the child in *child, or SIM_EIO / SIM_ECHILD with a message. */
int sim_run_start(const sim_job_t *job, sim_run_payload_fn payload, const void *ctx, sim_run_child_t *child, char *err,
                  size_t errlen);

/* Waits until one of `count` children (free slots ignored) ends and puts its index in *which; that slot is free on
 * return. Returns 0 with the child's channel positioned at its payload (the caller reads and closes it), the child's
 * own error, SIM_ECHILD when it died, or SIM_EINTR (nothing was reaped) when stop() returns 1 (or, with stop NULL,
 * when a caught signal interrupted the wait). stop is checked with every signal blocked, so that a signal that sets
 * its flag is never missed, however late it comes. SIM_RUN_PROGRESS (nothing was reaped) when a child reported how
 * far it is: its index in *which, its count in children[*which].progress. */
int sim_run_wait_any(sim_run_child_t *children, size_t count, size_t *which, int (*stop)(void), char *err,
                     size_t errlen);

/* Kills the children still running and frees their slots. */
void sim_run_stop(sim_run_child_t *children, size_t count);

/* Loads `platform` in a child and reports its host count: a cheap check before a sweep. Returns 0, or SIM_EPLATFORM
 * (the platform or its simrun properties are wrong) or SIM_ECHILD, with a message in err; SIM_EINTR when a caught
 * signal interrupted the wait (the child is ended). */
int sim_run_probe(const char *platform, size_t *hosts, char *err, size_t errlen);

/* What sim_run_probe_describe hands over: the description for ranks[k] ranks, borrowed for the call. 0 to go on, or
 * a SIM_E* code that ends the probe. */
typedef int (*sim_run_take_fn)(void *state, size_t k, const met_platform_t *machine);

/* sim_run_probe, and in the same child the platform's descriptions for the analytic models (as sim_run_describe makes
 * them) for ranks[0 .. count - 1] ranks, each handed to `take` as it is read, when every host is in one native zone
 * (sim_grid.h): one process and one loading of the platform fewer per number of ranks. No description is made for
 * a k whose ranks exceed the hosts, nor where it failed (sim_run_describe then makes it, or says why not); the
 * memory used does not grow with count (a sweep of p = 1..100000 allocated 23.7 GB before the host count was known). */
int sim_run_probe_describe(const char *platform, const int *ranks, size_t count, size_t *hosts, sim_run_take_fn take,
                           void *state, char *err, size_t errlen);

/* Loads `platform` in a child and describes it for the analytic models as a run of `nranks` ranks sees it
 * (sim_machine_describe). Returns 0, or a SIM_E* code with a message in err. */
int sim_run_describe(const char *platform, int nranks, met_platform_t *machine, char *err, size_t errlen);
/* The same for runs made with the SimGrid settings `engine_cfg` (sim_job_t.engine_cfg, such as ti-replay's SMPI
 * network model; NULL for none), which the description's network model then has. */
int sim_run_describe_for(const char *platform, const char *engine_cfg, int nranks, met_platform_t *machine, char *err,
                         size_t errlen);

#endif
