/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pbdtrsm's critical path step by step (Caron & Suter 2002, seed 003 §4.2): eqs. 4-7's costs, with the two things the
 * paper leaves for "the next version": the pipeline's idle times (a process row solves again only after its last
 * update) and the links the chain shares with the ring's other messages (fair sharing of a link's bandwidth). */
#ifndef MET_PDTRSM_H
#define MET_PDTRSM_H

#include "met_model.h"

/* Two messages on one link, a from a_start and b from b_start, each moving its bytes after lambda and sharing the
 * link's bandwidth equally while both move (max-min sharing, as TCP's and SimGrid's). Returns a's end; b's end in
 * *b_end. A message of no bytes is not sent: its end is its start. */
double met_shared_pair(const met_hockney_t *link, double a_start, double a_bytes, double b_start, double b_bytes,
                       double *b_end);

/* pdtrsm's ceil(M/R) pbdtrsm calls on a P x Q grid, in seconds, each call starting where its processes are free (the
 * calls are independent block rows of B, so they overlap): step i's owner (i mod P, i mod Q) solves block i (R^3
 * flops) and sends it along its process row as a ring (eq. 4 a hop); every member passes it on and updates its blocks,
 * on a general grid the first min(P - 1, its blocks) first, sent to the next process row (eq. 5), which adds them (its
 * accumulation) before solving block i + 1. Beyond eqs. 6-7: a process takes a block or a first part only once done
 * with what came before (a row solves again only once its update of P steps before is done), and a message shares the
 * links of its route with the last message on each (met_shared_pair; the routes from m->ports, else one link out and
 * one in for each process). A message of at most m->eager_bytes is eager (its sender goes on; it moves
 * when sent if m->eager_at_send, else once its receive is posted), a larger one synchronous (it moves once its receive
 * is posted, and its sender waits for its end). Each process computes at its own host's rate (m->rank_flops, else
 * m->flops): the ring and the pipeline wait for the process that holds the block, not for the slowest host. NAN when
 * out of memory. */
double met_pdtrsm_pipeline(const met_dense_t *d, const met_machine_t *m);

/* Whether, at some step of a general grid (P > 1), one link of the run's routes (m->ports; links that a second
 * message of the same bottleneck would not slow are not in them) carries three streams at once: the ring along the
 * solving process row (one stream, its hops follow one another) and the parts that two process columns send down to
 * the next row (every column sends its part within one block's time of the ring's hop to it). The model shares a link
 * between a message and the last one on it (met_shared_pair), two at a time, so it cannot charge that link. 1 or 0 (0
 * when the routes are not known), or -1 when out of memory. */
int met_pdtrsm_crowded(const met_dense_t *d, const met_machine_t *m);

#endif
