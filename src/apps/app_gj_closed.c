/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Gauss-Jordan with the neighbour or one-to-all broadcast in closed form across ranks: the program of app_gj.c (input
 * and distribution, N steps of normalise, broadcast of the pivot row and update, collection, output) as every rank's
 * clock and sums, under the analytic network's pricing and send semantics (sim_replay_analytic.c: a transfer starts
 * when the later of its two ends is there, or with eager sends starting when sent at the send, and takes its price
 * alone; sim_replay_message_over records each end's wait as IDLE and the rest as COMM). */
#include "app_gj_closed.h"
#include "app_gj_costs.h"
#include "sim_error.h"
#include "sim_progress.h"
#include "sim_replay_closed.h"

#include <math.h>
#include <stdlib.h>

/* The program's phase labels (app_gj.c's), in the order the executed program first names them. */
enum {
  PH_LINK_INIT,
  PH_INPUT,
  PH_DISTRIBUTION,
  PH_NORMALISE,
  PH_BROADCAST,
  PH_UPDATE,
  PH_COLLECTION,
  PH_OUTPUT,
  PHASES
};
static const char *const phase_labels[PHASES] = {"link-init", "input",  "distribution", "normalise",
                                                 "broadcast", "update", "collection",   "output"};

/* One end's idle and communication seconds in one phase. */
typedef struct end_sums {
  double idle;
  double comm;
} end_sums_t;

/* The evaluation: per rank (arrays of p), its clock, the seconds one element of work takes on it, its broadcast sums
 * and the durations of the rows it received (its message group), the work it did; the rows' prices between
 * neighbours. */
typedef struct gj_eval {
  sim_closed_t *run;
  met_trace_t *trace;
  int n;
  int p;
  int phase[PHASES];
  sim_send_kind_t row_kind;
  int one_to_all; /* the broadcast: one-to-all, else the neighbour relay */
  int by_hops;    /* message groups by hop count (sim_closed_message_hops): each received row counted on its own */
  int failed;     /* a message group could not be stored (out of memory) */
  double *clock;
  double *per_item;
  double *per_row_item; /* the rank's rows times per_item: its update's seconds per element of one row */
  double *up;           /* up[j]: the row's price from rank j to j + 1 */
  double *down;         /* down[j]: from rank j + 1 to j */
  end_sums_t *bcast;
  met_msg_group_t *got; /* the broadcast's receives: their count, transfers and COMM seconds (bytes and hops unset) */
  double *pivot_items;  /* elements of work in the normalise phase */
  double *owned_update; /* the update's elements per row the rank did not do at the steps it owned */
} gj_eval_t;

/* A received message's seconds: its transfer, from its send's start (its sending end's, met_interval_t.sent) to its
 * end, and the receiving end's communication. */
typedef struct msg_time {
  double transfer;
  double comm;
} msg_time_t;

/* One message from the end whose clock is *from to the one whose clock is *to, priced `price`: both clocks moved on
 * and each end's idle and communication seconds added as the analytic network's run records them; returns the
 * receiving end's seconds. */
static inline msg_time_t message(double *from, double *to, double price, sim_send_kind_t kind, end_sums_t *sender,
                                 end_sums_t *receiver)
{
  double arrived = *to;
  if (kind == SIM_SEND_SYNC) {
    double start = *from > arrived ? *from : arrived;
    double end = start + price;
    sender->idle += start - *from;
    sender->comm += end - start;
    receiver->idle += start - arrived;
    receiver->comm += end - start;
    *from = *to = end;
    return (msg_time_t){end - start, end - start}; /* both ends communicate from the same start */
  }
  /* eager: over for the sender at once; the transfer starts when both ends are there, or when sent */
  double start = kind == SIM_SEND_EAGER_AT_SEND || *from > arrived ? *from : arrived;
  double end = start + price;
  double ready = end > arrived ? end : arrived;
  double started = start < arrived ? arrived : start > ready ? ready : start;
  receiver->idle += started - arrived;
  receiver->comm += ready - started;
  *to = ready;
  return (msg_time_t){ready - *from, ready - started}; /* the sender's end is empty, at its clock */
}

/* Counts message `m` in group `g`. */
static void add_message(met_msg_group_t *g, msg_time_t m)
{
  g->count++;
  g->transfers++;
  g->sum += m.transfer;
  g->min = m.transfer < g->min ? m.transfer : g->min;
  g->max = m.transfer > g->max ? m.transfer : g->max;
  g->wait_sum += m.comm;
  g->wait_min = m.comm < g->wait_min ? m.comm : g->wait_min;
  g->wait_max = m.comm > g->wait_max ? m.comm : g->wait_max;
}

/* A group with no message yet. */
static met_msg_group_t no_messages(void)
{
  return (met_msg_group_t){.min = INFINITY, .wait_min = INFINITY};
}

/* One message of `bytes` that rank `rank` received from rank `from`, counted in its message group (by size, and hop
 * count where the run wants it). 0, or -1 when out of memory. */
static int count_one(gj_eval_t *e, int rank, int from, double bytes, msg_time_t m)
{
  met_msg_group_t g = no_messages();
  g.bytes = bytes;
  g.hops = e->by_hops ? sim_closed_hops(e->run, rank, from) : 0;
  add_message(&g, m);
  return met_trace_add_messages(e->trace, rank, &g);
}

/* Rank j received the pivot row from rank `from`: its message group's figures, kept here, or by hop count in the
 * trace at once (groups in order of first appearance). */
static inline void received(gj_eval_t *e, int j, int from, msg_time_t m)
{
  if (e->by_hops) {
    e->failed |= count_one(e, j, from, app_gj_row_bytes(e->n), m) != 0;
    return;
  }
  add_message(&e->got[j], m);
}

/* The pivot row relayed from its owner `root` toward `dir` (+1 or -1), every rank passing it on to the next. */
static void relay(gj_eval_t *e, int root, int dir)
{
  for (int j = root + dir; j >= 0 && j < e->p; j += dir) {
    int from = j - dir;
    double price = dir > 0 ? e->up[from] : e->down[j];
    received(e, j, from, message(&e->clock[from], &e->clock[j], price, e->row_kind, &e->bcast[from], &e->bcast[j]));
  }
}

/* The pivot row sent by its owner `root` to every other rank in rank order (sim_coll.c's one-to-all broadcast), each
 * message priced for its pair. */
static void one_to_all(gj_eval_t *e, int root)
{
  double row = app_gj_row_bytes(e->n);
  for (int j = 0; j < e->p; j++)
    if (j != root)
      received(e, j, root,
               message(&e->clock[root], &e->clock[j], sim_closed_message_time(e->run, root, j, row), e->row_kind,
                       &e->bcast[root], &e->bcast[j]));
}

/* Step k: the owner normalises the pivot row, relays it to its longer side first (sim_coll.c's neighbour broadcast),
 * then to the other, or sends it to every rank (one-to-all), and every rank updates its rows but the pivot. Returns
 * the update's elements per row. */
static double step(gj_eval_t *e, int k)
{
  int owner = app_gj_owner_of(e->n, e->p, k);
  double pivot = app_gj_pivot_ops(e->n, k);
  e->clock[owner] += pivot * e->per_item[owner];
  e->pivot_items[owner] += pivot;
  if (e->one_to_all) {
    one_to_all(e, owner);
  } else {
    int first = e->p - 1 - owner >= owner ? 1 : -1;
    relay(e, owner, first);
    relay(e, owner, -first);
  }
  double per_row = app_gj_update_ops(e->n, k, 1);
  double mine = app_gj_update_ops(e->n, k, app_gj_rows_of(e->n, e->p, owner) - 1); /* all its rows but the pivot */
  double held = e->clock[owner];
  for (int r = 0; r < e->p; r++)
    e->clock[r] += per_row * e->per_row_item[r];
  e->clock[owner] = held + mine * e->per_item[owner];
  e->owned_update[owner] += per_row;
  /* the operations the executed run counts for the progress bar: the computations that take time and both ends of
   * every message (sim_replay_record) */
  sim_progress_count(1.0 + (e->p - 1) + (mine > 0) + 2.0 * (e->p - 1));
  return per_row;
}

/* Rank 0 sets up the links, reads the system and sends every other rank its block, one after the other. */
static int distribute(gj_eval_t *e, double *clock0)
{
  double link_init = sim_closed_link_init_time(e->run);
  double input = sim_closed_io_time(e->run, SIM_INPUT, app_gj_input_bytes(e->n));
  *clock0 = link_init + input; /* each recorded as its interval's end minus its start, as the executed run does */
  int rc = met_trace_add_total(e->trace, 0, e->phase[PH_LINK_INIT], MET_CAT_CTRL, link_init, NULL) |
           met_trace_add_total(e->trace, 0, e->phase[PH_INPUT], MET_CAT_IO, *clock0 - link_init, NULL);
  end_sums_t root = {0};
  for (int r = 1; r < e->p; r++) {
    double bytes = app_gj_block_bytes(e->n, app_gj_rows_of(e->n, e->p, r));
    end_sums_t got = {0};
    msg_time_t len = message(clock0, &e->clock[r], sim_closed_message_time(e->run, 0, r, bytes),
                             sim_closed_send_kind(e->run, bytes), &root, &got);
    rc |= met_trace_add_total(e->trace, r, e->phase[PH_DISTRIBUTION], MET_CAT_IDLE, got.idle, NULL) |
          met_trace_add_total(e->trace, r, e->phase[PH_DISTRIBUTION], MET_CAT_COMM, got.comm, NULL) |
          count_one(e, r, 0, bytes, len);
  }
  sim_progress_count(2.0 * (e->p - 1)); /* both ends of every block */
  return rc | met_trace_add_total(e->trace, 0, e->phase[PH_DISTRIBUTION], MET_CAT_IDLE, root.idle, NULL) |
         met_trace_add_total(e->trace, 0, e->phase[PH_DISTRIBUTION], MET_CAT_COMM, root.comm, NULL);
}

/* Every other rank sends rank 0 its part of the solution, received in rank order; rank 0 writes it to the host. */
static int collect(gj_eval_t *e, double *clock0)
{
  int rc = 0;
  end_sums_t root = {0};
  for (int r = 1; r < e->p; r++) {
    double bytes = app_gj_result_bytes(app_gj_rows_of(e->n, e->p, r));
    end_sums_t sent = {0};
    msg_time_t len = message(&e->clock[r], clock0, sim_closed_message_time(e->run, r, 0, bytes),
                             sim_closed_send_kind(e->run, bytes), &sent, &root);
    rc |= met_trace_add_total(e->trace, r, e->phase[PH_COLLECTION], MET_CAT_IDLE, sent.idle, NULL) |
          met_trace_add_total(e->trace, r, e->phase[PH_COLLECTION], MET_CAT_COMM, sent.comm, NULL) |
          count_one(e, 0, r, bytes, len);
  }
  sim_progress_count(2.0 * (e->p - 1)); /* both ends of every part of the solution */
  double output = sim_closed_io_time(e->run, SIM_OUTPUT, app_gj_result_bytes(e->n));
  double received = *clock0;
  *clock0 += output;
  output = *clock0 - received;
  return rc | met_trace_add_total(e->trace, 0, e->phase[PH_COLLECTION], MET_CAT_IDLE, root.idle, NULL) |
         met_trace_add_total(e->trace, 0, e->phase[PH_COLLECTION], MET_CAT_COMM, root.comm, NULL) |
         met_trace_add_total(e->trace, 0, e->phase[PH_OUTPUT], MET_CAT_IO, output, NULL);
}

/* Rank r's computations (every one SIM_WORK, with one operation mix): the normalise and update phases' seconds and
 * split, and their parallel anomaly against rank 0's host (sim_work's). */
static int record_work(gj_eval_t *e, int r, double update_items)
{
  const met_charac_t *charac = sim_closed_charac(e->run, r);
  met_ops_t ops = app_gj_ops(e->n, app_gj_rows_of(e->n, e->p, r));
  double cycles[MET_CLASS_COUNT];
  met_charac_cycles(charac, &ops, 1.0, cycles);
  const met_class_t order[MET_PART_COUNT] = {MET_CLASS_CPU, MET_CLASS_FLOP, MET_CLASS_INTMEM, MET_CLASS_EXTMEM};
  double items[2] = {e->pivot_items[r], update_items};
  int phases[2] = {e->phase[PH_NORMALISE], e->phase[PH_UPDATE]};
  int rc = 0;
  for (int i = 0; i < 2; i++) {
    double parts[MET_PART_COUNT];
    for (int k = 0; k < MET_PART_COUNT; k++)
      parts[k] = items[i] * cycles[order[k]] / charac->clock_hz;
    rc |= met_trace_add_total(e->trace, r, phases[i], MET_CAT_COMPUTE, items[i] * e->per_item[r], parts);
  }
  met_trace_add_anomaly(e->trace, r,
                        met_charac_anomaly(charac, sim_closed_charac(e->run, 0), &ops, items[0] + items[1]));
  return rc;
}

/* Every rank's sums once the run is over: its work, its broadcast's waits, transfers and received rows, its end. */
static int record(gj_eval_t *e, double update_per_row)
{
  int rc = 0;
  for (int r = 0; r < e->p; r++) {
    int rows = app_gj_rows_of(e->n, e->p, r);
    rc |= record_work(e, r, rows * update_per_row - e->owned_update[r]) |
          met_trace_add_total(e->trace, r, e->phase[PH_BROADCAST], MET_CAT_IDLE, e->bcast[r].idle, NULL) |
          met_trace_add_total(e->trace, r, e->phase[PH_BROADCAST], MET_CAT_COMM, e->bcast[r].comm, NULL);
    e->got[r].bytes = app_gj_row_bytes(e->n);
    if (!e->by_hops && e->p > 1 && e->got[r].count > 0) /* by hop count, each row was counted as it came */
      rc |= met_trace_add_messages(e->trace, r, &e->got[r]);
  }
  return rc;
}

/* The evaluation's arrays for p ranks (zero, but the least received seconds); 0, or SIM_ENOMEM. */
static int eval_alloc(gj_eval_t *e)
{
  size_t p = (size_t)e->p;
  double **arrays[] = {&e->clock, &e->per_item, &e->per_row_item, &e->up, &e->down, &e->pivot_items, &e->owned_update};
  int rc = 0;
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
    if (!(*arrays[i] = calloc(p, sizeof **arrays[i])))
      rc = SIM_ENOMEM;
  if (!(e->bcast = calloc(p, sizeof *e->bcast)) || !(e->got = malloc(p * sizeof *e->got)))
    rc = SIM_ENOMEM;
  for (size_t r = 0; rc == 0 && r < p; r++)
    e->got[r] = no_messages();
  return rc;
}

static void eval_free(gj_eval_t *e)
{
  double *arrays[] = {e->clock, e->per_item, e->per_row_item, e->up, e->down, e->pivot_items, e->owned_update};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++)
    free(arrays[i]);
  free(e->bcast);
  free(e->got);
}

/* The phases' ids, each rank's seconds per element of work, the row's prices between neighbours. 0, or SIM_ENOMEM. */
static int eval_setup(gj_eval_t *e)
{
  for (int i = 0; i < PHASES; i++)
    if ((e->phase[i] = met_trace_phase_id(e->trace, phase_labels[i])) < 0)
      return SIM_ENOMEM;
  double row = app_gj_row_bytes(e->n);
  e->row_kind = sim_closed_send_kind(e->run, row);
  for (int r = 0; r < e->p; r++) {
    int rows = app_gj_rows_of(e->n, e->p, r);
    met_ops_t ops = app_gj_ops(e->n, rows);
    e->per_item[r] = met_charac_seconds(sim_closed_charac(e->run, r), &ops, 1.0);
    e->per_row_item[r] = rows * e->per_item[r];
    if (r + 1 < e->p) {
      e->up[r] = sim_closed_message_time(e->run, r, r + 1, row);
      e->down[r] = sim_closed_message_time(e->run, r + 1, r, row);
    }
  }
  return 0;
}

static int gj_closed(sim_closed_t *run, const void *arg)
{
  const app_gj_arg_t *gj = arg;
  gj_eval_t e = {.run = run,
                 .trace = sim_closed_trace(run),
                 .n = gj->n,
                 .p = sim_closed_nranks(run),
                 .one_to_all = gj->bcast == SIM_BCAST_ONE_TO_ALL,
                 .by_hops = sim_closed_message_hops(run)};
  int rc = eval_alloc(&e);
  rc = rc ? rc : eval_setup(&e);
  double clock0 = 0;
  if (rc == 0 && distribute(&e, &clock0) != 0)
    rc = SIM_ENOMEM;
  double update_per_row = 0;
  if (rc == 0) {
    e.clock[0] = clock0;
    for (int k = 0; k < e.n; k++)
      update_per_row += step(&e, k);
    clock0 = e.clock[0];
    if (e.failed || record(&e, update_per_row) != 0 || collect(&e, &clock0) != 0)
      rc = SIM_ENOMEM;
    e.clock[0] = clock0;
  }
  for (int r = 0; rc == 0 && r < e.p; r++)
    if (met_trace_add_end(e.trace, r, e.clock[r]) != 0)
      rc = SIM_ENOMEM;
  eval_free(&e);
  return rc;
}

sim_closed_fn app_gj_closed_form(const void *arg)
{
  int bcast = ((const app_gj_arg_t *)arg)->bcast;
  return bcast == SIM_BCAST_NEIGHBOUR || bcast == SIM_BCAST_ONE_TO_ALL ? gj_closed : NULL;
}
