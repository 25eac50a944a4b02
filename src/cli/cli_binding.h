/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The CPU binding a traced run's ranks had (the "# simrun-binding" lines libsimrun-trace.so writes at the end of
 * index.txt, docs/tracer.md) and where simrun analyse --replay-on places them for it (docs/validation.md, "A measured
 * machine"): a run whose every rank was bound to one CPU on one node on the probed platform's host of that core
 * (core-C), an unbound oversubscribed one two or more ranks to a core (its waiting ranks yield but stay runnable, so
 * Linux keeps them spread by count once spread and rarely moves them; it can start them crowded, a fixed time the line
 * names): which ranks shared a core as their waits for a processor show, else rank i on core-(i mod the cores), with
 * one line saying what the run was and what that means for the prediction. */
#ifndef CLI_BINDING_H
#define CLI_BINDING_H

#include "met_timeline.h"

#include <stddef.h>

typedef struct cli_binding {
  int nranks;         /* binding lines read: 0 for a trace without them (the tracer before them) */
  int *cpu;           /* per rank: the CPU it was bound to, or -1 when its mask held several (or was unknown) */
  int bound;          /* every rank bound to one CPU */
  int online;         /* the largest count of online cores of a node */
  int node_ranks;     /* the most ranks on one node */
  int nodes;          /* distinct node names */
  int oversubscribed; /* some node ran more ranks than it has online cores */
} cli_binding_t;

/* Reads the binding lines of `dir`/index.txt into *b (freed with cli_binding_free): none, or one per trace file
 * listed, in rank order. 0, or -1 with "FILE:LINE: what is wrong; how to fix" in err (a malformed field, a rank out
 * of order, a count of lines other than 0 or the trace files'). */
int cli_binding_read(const char *dir, cli_binding_t *b, char *err, size_t errlen);

/* Frees what cli_binding_read made in *b (the struct itself is the caller's); accepts one never read into. */
void cli_binding_free(cli_binding_t *b);

/* The most ranks whose sharing of cores is told from their waits (cli_binding_place): a search over swaps of two, at
 * most p rounds of p^3 steps. */
enum { PAIR_RANKS_MAX = 64 };

/* Which core each of the run's p ranks was on, into core[0..p-1] (p ints), as the replay places them: bound, its CPU;
 * unbound and oversubscribed, sharing cores as the ranks' waits for a processor show (`usage`, each rank's; NULL: not
 * known) into cores numbered from 0, else rank i on core i mod the cores; *paired says whether the waits paired them.
 * 1 when filled, 0 when the binding does not say (no binding lines, several nodes, at most one rank a core unbound). */
int cli_binding_cores(const cli_binding_t *b, const met_tl_usage_t *usage, int *core, int *paired);

/* The replay's placement for the run on `platform` into hosts[0..p-1] (each at most 32 characters, host ids of a
 * platform simrun machine probe writes) and the one line saying why into `note` (empty when there is nothing to say:
 * no binding recorded, or at most one rank per core left unbound): rank i on the host of core[i], the cores
 * cli_binding_cores gave (`paired`: by the ranks' waits; NULL: it gave none).
 * 1 when hosts was filled, 0 when ti-replay's own placement stands (the note says why, e.g. a pooled platform). */
int cli_binding_place(const cli_binding_t *b, const int *core, int paired, const char *platform, char (*hosts)[32],
                      char *note, size_t notelen);

#endif
