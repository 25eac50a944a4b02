/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* TreadMarks distributed shared memory on NCP2 (seed 002 §2-3): lazy release consistency with invalidations and
 * multiple-writer diffs, run by SimGrid actors. Each node has a PP (the rank's actor, running the application), a
 * protocol engine executing a FIFO of commands (on the node's protocol controller, CP, or, in the "original TreadMarks"
 * variant, on the PP itself through interrupts) and a network interface. Page requests, diff requests and barriers go
 * message by message as seed 002 Figs. 1-3, carrying the timestamps of their 13 intervals, and the run leaves the
 * cause-effect annex of met_trace.h for met_carnival.h. The costs come from the platform (simrun:dsm-* root-zone
 * properties; platforms/ncp2-myrinet-8.xml documents each); docs/ncp2.md describes the protocol. */
#ifndef SIM_DSM_H
#define SIM_DSM_H

#include "sim_replay.h"

typedef struct sim_dsm_node sim_dsm_node_t;

/* What the protocol does, in operations, for the skeletons' work counts (app_skeleton_t.work) and the progress count
 * (sim_progress.h): a page or diff request served is 8 (the faulting node's command, the request's message, the owner's
 * or writer's command and note, the reply's command, message and handling, the interrupt that wakes the PP); a node's
 * barrier 6 (its arrival's command, message and handling at the manager, the release's three). */
#define SIM_DSM_REQUEST_OPS 8.0
#define SIM_DSM_BARRIER_OPS 6.0

/* The application a DSM skeleton runs on every node. `arg` is shared read-only by all nodes. */
typedef struct sim_dsm_program {
  long shared_bytes; /* the shared address space, [0, shared_bytes); all of it homed at node 0, which allocates it */
  int controller;    /* 1: NCP2, a CP per node; 0: original TreadMarks, every protocol step on the PP */
  void (*body)(sim_dsm_node_t *node, const void *arg);
  const void *arg;
} sim_dsm_program_t;

/* Runs `program` as node sim_rank_id(rank): every rank of the job calls it from its sim_program_fn, with the same
 * program. The ranks' hosts must be NCP2 nodes (a simrun:cp property naming the node's CP host). After the body, a
 * last barrier (TreadMarks' Tmk_exit) lets every request finish. Failures (a platform without the DSM properties or
 * with a malformed one, a rank on a host that is not a node, shared data larger than a node's memory, out of memory)
 * end the run through sim_rank_fail with a message naming the property or host. One DSM run per process, as SimGrid
 * itself runs once per process. */
void sim_dsm_run(sim_rank_t *rank, const sim_dsm_program_t *program);

/* The node's number, from 0, and how many nodes the run has. */
int sim_dsm_node_id(const sim_dsm_node_t *node);
int sim_dsm_node_count(const sim_dsm_node_t *node);

/* Names the code scope of what this node does from now on (CARNIVAL's scopes: a loop, a function, a phase). */
void sim_dsm_scope(sim_dsm_node_t *node, const char *label);

/* Application work on the PP (Comp), given as `items` pieces of `ops` operations by class and timed with the PP
 * host's characterisation (sim_rank_charac: NCP2's PowerPC 604 in platforms/ncp2-myrinet-8.xml); interrupts preempt
 * it. */
void sim_dsm_work(sim_dsm_node_t *node, const met_ops_t *ops, double items);

/* Accesses bytes [addr, addr + bytes) of the shared space. Each page touched without a copy is fetched (page
 * request), each invalidated one is brought up to date (diff request), before the access; a write also marks the
 * words it changes (and without CP makes a twin at the page's first write in an interval). */
void sim_dsm_read(sim_dsm_node_t *node, long addr, long bytes);
void sim_dsm_write(sim_dsm_node_t *node, long addr, long bytes);

/* A barrier of all nodes, managed by node 0 (Fig. 3): write notices go to the manager, whose release carries every
 * node's invalidations. */
void sim_dsm_barrier(sim_dsm_node_t *node);

#endif
