/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* pdtrsm's critical path (seed 003 §4.2): eqs. 4-7's costs followed along the ring and the pipeline, with the idle
 * times the paper leaves for its next version and the links a chain message shares. */
#include "met_pdtrsm.h"

#include <math.h>
#include <stdlib.h>

/* A link: the last message on it, its start, bytes and end. */
typedef struct port {
  double start, bytes, end;
} port_t;

/* A process of the grid (its rank): when it is free for its next operation. */
typedef struct proc {
  double free;
  int rank;
} proc_t;

/* The links of a route the model follows (the platform keeps routes of at most MET_PLATFORM_ROUTE_LINKS) */
enum { MET_ROUTE_MAX = 16 };

typedef struct pipe {
  const met_dense_t *d;
  const met_machine_t *m;
  long blocks; /* ceil(N / R) */
  double block_bytes;
  proc_t *procs; /* row-major, P x Q */
  int routes;    /* 1: the links are the run's (m->ports), else one out and one in for each process */
  int links;
  port_t *ports; /* links + 1 (one at least) */
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

/* A message's end (`end` on its other links) on a link whose last message may still be moving (it keeps its own end).
 */
static double against(const met_hockney_t *link, const port_t *last, double start, double bytes, double end)
{
  double shared = end;
  if (bytes > 0 && last->end > start + link->lambda)
    met_shared_pair(link, last->start, last->bytes, start, bytes, &shared);
  return shared > end ? shared : end;
}

/* The links of a message's route: their last messages, and the message's end on each in route order. */
typedef struct route {
  port_t *links[MET_ROUTE_MAX];
  double ends[MET_ROUTE_MAX];
  int hops;
} route_t;

/* The links a message from `a` to `b` crosses: the run's route, else a's one link out and b's one link in. */
static void route_of(const pipe_t *p, const proc_t *a, const proc_t *b, route_t *r)
{
  const met_ports_t *ports = &p->m->ports;
  r->hops = 0;
  if (!a || !b)
    return;
  if (!p->routes) {
    r->links[0] = &p->ports[a->rank];
    r->links[1] = &p->ports[p->links / 2 + b->rank];
    r->hops = 2;
    return;
  }
  size_t pair = (size_t)a->rank * (size_t)ports->stride + (size_t)b->rank;
  r->hops = ports->hops[pair] < MET_ROUTE_MAX ? ports->hops[pair] : MET_ROUTE_MAX;
  for (int k = 0; k < r->hops; k++)
    r->links[k] = &p->ports[ports->route[pair * (size_t)ports->max_hops + (size_t)k]];
}

/* Whether two routes cross one link. */
static int cross(const route_t *a, const route_t *b)
{
  for (int i = 0; i < a->hops; i++)
    for (int j = 0; j < b->hops; j++)
      if (a->links[i] == b->links[j])
        return 1;
  return 0;
}

/* A message's end along its route from `end` (alone, or shared with the other message its sender sent with it): against
 * each link's last message in route order, noting its end on each. */
static double along(const met_hockney_t *link, route_t *r, double start, double bytes, double end)
{
  for (int k = 0; k < r->hops; k++)
    end = r->ends[k] = against(link, r->links[k], start, bytes, end);
  return end;
}

/* The message is now the last on each link of its route. */
static void hold(const route_t *r, double start, double bytes)
{
  for (int k = 0; k < r->hops; k++)
    *r->links[k] = (port_t){start, bytes, r->ends[k]};
}

/* Blocks j = i + k, i + k + Q, ... below the last, held by the process k columns after step i's owner (k in 1..Q). */
static long blocks_after(const pipe_t *p, long i, int k)
{
  long left = p->blocks - i - k;
  return left > 0 ? (left + p->d->cols - 1) / p->d->cols : 0;
}

/* The flop rate of a process's host: its own where the machine gives it, else the slowest's. */
static double rate(const pipe_t *p, const proc_t *proc)
{
  return proc->rank < p->m->rates ? p->m->rank_flops[proc->rank] : p->m->flops;
}

/* Seconds of a process's update of `columns` columns (an R x R block times R x columns). */
static double dgemm_time(const pipe_t *p, const proc_t *proc, double columns)
{
  return met_dgemm_flops((double)p->d->r, (double)p->d->r, columns) / rate(p, proc);
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
  double first_sent = (blocks_sender(p, block_bytes) ? block_alone : ready) + dgemm_time(p, me, first_cols);
  double first_start = move_start(p, first_bytes, first_sent, below ? below->free : first_sent);
  route_t block_route;
  route_t first_route;
  route_of(p, me, next, &block_route);
  route_of(p, me, below, &first_route);
  double first_up = first_bytes > 0 ? met_hockney(col, first_bytes) + first_start : first_start;
  double block_up = block_alone;
  if (cross(&block_route, &first_route))
    block_up = met_shared_pair(row, block_start, block_bytes, first_start, first_bytes, &first_up);
  /* each against its links' last messages, sent before */
  double arrival = next ? along(row, &block_route, block_start, block_bytes, block_up) : ready;
  double first_end = below ? along(col, &first_route, first_start, first_bytes, first_up) : first_sent;
  hold(&block_route, block_start, block_bytes);
  hold(&first_route, first_start, first_bytes);
  me->free = (blocks_sender(p, first_bytes) ? first_end : first_sent) + dgemm_time(p, me, all_cols - first_cols);
  if (below)
    below->free = fmax(below->free, first_end) + (double)p->d->r * first_cols / rate(p, below); /* the accumulation */
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
  double ready = line[owner].free + r * r * r / rate(p, &line[owner]);
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

/* Marks the links of the route from rank a to rank b with `mark` in seen[], counting into load[] each link not yet
 * marked so. */
static void add_route(const met_ports_t *ports, int a, int b, int mark, int *seen, int *load)
{
  size_t pair = (size_t)a * (size_t)ports->stride + (size_t)b;
  for (int k = 0; k < ports->hops[pair]; k++) {
    int link = ports->route[pair * (size_t)ports->max_hops + (size_t)k];
    load[link] += seen[link] != mark;
    seen[link] = mark;
  }
}

/* Whether at step (row s, owner column c), the ring along row s (one stream: its hops follow one another) and the
 * columns' parts sent down to row s + 1 (one stream each) put three streams on one link. */
static int step_crowded(const met_dense_t *d, const met_ports_t *ports, int s, int c, int *seen, int *load)
{
  int links = ports->links;
  for (int l = 0; l < links; l++) {
    seen[l] = -1;
    load[l] = 0;
  }
  for (int k = 0; k + 1 < d->cols; k++)
    add_route(ports, s * d->cols + (c + k) % d->cols, s * d->cols + (c + k + 1) % d->cols, 0, seen, load);
  for (int col = 0; col < d->cols; col++)
    add_route(ports, s * d->cols + col, (s + 1) % d->rows * d->cols + col, 1 + col, seen, load);
  for (int l = 0; l < links; l++)
    if (load[l] >= 3)
      return 1;
  return 0;
}

int met_pdtrsm_crowded(const met_dense_t *d, const met_machine_t *m)
{
  const met_ports_t *ports = &m->ports;
  if (d->rows < 2 || ports->count < d->rows * d->cols)
    return 0;
  int *seen = malloc(2 * ((size_t)ports->links + 1) * sizeof *seen);
  int crowded = seen ? 0 : -1;
  for (int s = 0; crowded == 0 && s < d->rows; s++)
    for (int c = 0; crowded == 0 && c < d->cols; c++)
      crowded = step_crowded(d, ports, s, c, seen, seen + ports->links + 1);
  free(seen);
  return crowded;
}
