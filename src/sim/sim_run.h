/* Runs a simulation in a child process: SimGrid starts once per process, and a sweep runs many points. The child
 * hands its trace back through an unnamed temporary file; a crash of the child is reported, never inherited. */
#ifndef SIM_RUN_H
#define SIM_RUN_H

#include "met_trace.h"
#include "sim_replay.h"

#include <stddef.h>

/* Simulates `job` in a forked child. Returns 0 and a new trace in *trace (the caller frees it), or a negative
 * SIM_E* code with a message in err: the child's own error, or SIM_ECHILD when it died. */
int sim_run_isolated(const sim_job_t *job, met_trace_t **trace, char *err, size_t errlen);

/* Loads `platform` in a child and reports its host count: a cheap check before a sweep. Returns 0, or SIM_EPLATFORM
 * (the platform or its simrun properties are wrong) or SIM_ECHILD, with a message in err. */
int sim_run_probe(const char *platform, size_t *hosts, char *err, size_t errlen);

#endif
