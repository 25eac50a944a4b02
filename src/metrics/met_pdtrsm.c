/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pdtrsm's critical path (seed 003 §4.2): eqs. 4-7's costs followed along the ring and the pipeline, with the idle
 * times the paper leaves for its next version and the links a chain message shares. */
#include "met_pdtrsm.h"

#include <math.h>
#include <stdlib.h>

/* The last message out of (up) or into (down) a process: its start, bytes and end. */
typedef struct port {
  double start, bytes, end;
} port_t;

/* A process of the grid (its rank): when it is free for its next operation. */
typedef struct proc {
  double free;
  int rank;
} proc_t;

typedef struct pipe {
  const met_dense_t *d;
  const met_machine_t *m;
  long blocks; /* ceil(N / R) */
  double block_bytes;
  proc_t *procs; /* row-major, P x Q */
  int routes;    /* 1: the links are the run's (m->ports), else one out and one in for each process */
  int links;
  port_t *ports; /* links + 1, the last for a message by no link */
} pipe_t;

double met_shared_pair(const met_hockney_t *link, double a_start, double a_bytes, double b_start, double b_bytes,
                       double *b_end)
{
  double a0 = a_start + link->lambda;
  double b0 = b_start + link->lambda;
  double a_end = a_bytes > 0 ? a0 + a_bytes * link->tau : a_start;
  *b_end = b_bytes > 0 ? b0 + b_bytes * link->tau : b_start;
  if (a_bytes <= 0 || b_bytes <= 0 || b0 >= a_end || a0 >= *b_end)
    return a_end;
  /* from the later start, both move at half the rate until the smaller remainder is through */
  double t = a0 > b0 ? a0 : b0;
  double a_left = a_bytes - (t - a0) / link->tau;
  double b_left = b_bytes - (t - b0) / link->tau;
  double both = 2 * (a_left < b_left ? a_left : b_left) * link->tau;
  a_end = t + both + (a_left > b_left ? a_left - b_left : 0) * link->tau;
  *b_end = t + both + (b_left > a_left ? b_left - a_left : 0) * link->tau;
  return a_end;
}

/* A message's end (`end` on its other port) on a port whose last message may still be moving (it keeps its own end). */
static double against(const met_hockney_t *link, const port_t *last, double start, double bytes, double end)
{
  double shared = end;
  if (bytes > 0 && last->end > start + link->lambda)
    met_shared_pair(link, last->start, last->bytes, start, bytes, &shared);
  return shared > end ? shared : end;
}

/* The same on a receiver's port, which then holds this message. */
static double through_port(const met_hockney_t *link, port_t *port, double start, double bytes, double end)
{
  *port = (port_t){.start = start, .bytes = bytes, .end = against(link, port, start, bytes, end)};
  return port->end;
}

/* The port a message from `a` to `b` leaves by (out) or arrives by. */
static port_t *port_of(const pipe_t *p, const proc_t *a, const proc_t *b, int out)
{
  const met_ports_t *r = &p->m->ports;
  if (!p->routes)
    return &p->ports[out ? a->rank : p->links / 2 + b->rank];
  int link = (out ? r->out : r->in)[a->rank * r->stride + b->rank];
  return &p->ports[link < p->links ? link : p->links];
}

/* Blocks j = i + k, i + k + Q, ... below the last, held by the process k columns after step i's owner (k in 1..Q). */
static long blocks_after(const pipe_t *p, long i, int k)
{
  long left = p->blocks - i - k;
  return left > 0 ? (left + p->d->cols - 1) / p->d->cols : 0;
}

static double dgemm_time(const pipe_t *p, double columns)
{
  return met_dgemm_flops((double)p->d->r, (double)p->d->r, columns) / p->m->flops;
}

/* When a message of `bytes` sent at `sent` to a receiver free from `posted` starts moving: at once if it is eager and
 * the machine moves eager messages when sent, else once the receive is posted. */
static double move_start(const pipe_t *p, double bytes, double sent, double posted)
{
  return bytes <= p->m->eager_bytes && p->m->eager_at_send ? sent : fmax(sent, posted);
}

/* Whether the sender of `bytes` waits for the message's end (a synchronous send). */
static int blocks_sender(const pipe_t *p, double bytes)
{
  return bytes > 0 && bytes > p->m->eager_bytes;
}

/* What a member of step i's ring does from `ready` (its block solved or received): the block on to the ring's next
 * member (`next`, NULL for the last), then its first `first_cols` columns updated and sent down to `below` (NULL:
 * none), then the rest of its `all_cols`. The two messages share a link when they leave by the same one. Returns the
 * block's arrival at `next`. */
static double member(const pipe_t *p, proc_t *me, double ready, proc_t *next, proc_t *below, double first_cols,
                     double all_cols)
{
  const met_hockney_t *row = &p->m->link;
  const met_hockney_t *col = &p->m->col_link;
  double block_bytes = next ? p->block_bytes : 0;
  double first_bytes = below ? (double)p->d->r * first_cols * p->m->elem_bytes : 0;
  double block_start = move_start(p, block_bytes, ready, next ? next->free : ready);
  double block_alone = block_bytes > 0 ? met_hockney(row, block_bytes) + block_start : block_start;
  double first_sent = (blocks_sender(p, block_bytes) ? block_alone : ready) + dgemm_time(p, first_cols);
  double first_start = move_start(p, first_bytes, first_sent, below ? below->free : first_sent);
  port_t *block_out = next ? port_of(p, me, next, 1) : NULL;
  port_t *first_out = below ? port_of(p, me, below, 1) : NULL;
  double first_up = first_bytes > 0 ? met_hockney(col, first_bytes) + first_start : first_start;
  double block_up = block_alone;
  if (block_out && block_out == first_out)
    block_up = met_shared_pair(row, block_start, block_bytes, first_start, first_bytes, &first_up);
  double arrival = ready;
  if (block_out) { /* each against its link's last message, sent before */
    block_up = against(row, block_out, block_start, block_bytes, block_up);
    arrival = through_port(row, port_of(p, me, next, 0), block_start, block_bytes, block_up);
  }
  double first_end = first_sent;
  if (first_out) {
    first_up = against(col, first_out, first_start, first_bytes, first_up);
    first_end = through_port(col, port_of(p, me, below, 0), first_start, first_bytes, first_up);
  }
  if (block_out)
    *block_out = (port_t){block_start, block_bytes, block_up};
  if (first_out)
    *first_out = (port_t){first_start, first_bytes, first_up};
  me->free = (blocks_sender(p, first_bytes) ? first_end : first_sent) + dgemm_time(p, all_cols - first_cols);
  if (below)
    below->free = fmax(below->free, first_end) + (double)p->d->r * first_cols / p->m->flops; /* the accumulation */
  return arrival;
}

/* Step i: the owner solves block i, the ring carries it along its process row, every member updates its blocks (the
 * first P - 1 of them sent down and added by the next process row). */
static void step(pipe_t *p, long i)
{
  const met_dense_t *d = p->d;
  int row = (int)(i % d->rows);
  int owner = (int)(i % d->cols);
  proc_t *line = p->procs + (size_t)row * d->cols;
  proc_t *below_line = d->rows > 1 ? p->procs + (size_t)((row + 1) % d->rows) * d->cols : NULL;
  double r = (double)d->r;
  double ready = line[owner].free + r * r * r / p->m->flops;
  for (int k = 0; k < d->cols; k++) {
    proc_t *me = &line[(owner + k) % d->cols];
    proc_t *next = k + 1 < d->cols ? &line[(owner + k + 1) % d->cols] : NULL;
    if (k > 0)
      ready = ready > me->free ? ready : me->free; /* it takes the block once done with what came before */
    double all = r * (double)blocks_after(p, i, k > 0 ? k : d->cols);
    double first = below_line ? fmin(all, r * (d->rows - 1)) : 0;
    proc_t *below = below_line && first > 0 ? &below_line[(owner + k) % d->cols] : NULL;
    ready = member(p, me, ready, next, below, first, all);
  }
}

double met_pdtrsm_pipeline(const met_dense_t *d, const met_machine_t *m)
{
  int ranks = d->rows * d->cols;
  pipe_t p = {.d = d,
              .m = m,
              .blocks = (d->n + d->r - 1) / d->r,
              .block_bytes = (double)d->r * (double)d->r * m->elem_bytes,
              .procs = calloc((size_t)ranks, sizeof(proc_t)),
              .routes = m->ports.count >= ranks};
  p.links = p.routes ? m->ports.links : 2 * ranks;
  p.ports = calloc((size_t)p.links + 1, sizeof(port_t));
  double end = p.procs && p.ports ? 0 : NAN;
  for (int k = 0; p.procs && k < ranks; k++)
    p.procs[k].rank = k;
  long calls = (d->m + d->r - 1) / d->r;
  for (long c = 0; isfinite(end) && c < calls; c++) /* each call's first step waits only for its owner: calls overlap */
    for (long i = 0; i < p.blocks; i++)
      step(&p, i);
  for (int k = 0; isfinite(end) && k < ranks; k++)
    end = fmax(end, p.procs[k].free);
  free(p.procs);
  free(p.ports);
  return end;
}
