/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SimGrid alone running simrun's simulation: the cost floor bench/scale.sh prints beside simrun's figures.
 * Gauss-Jordan with the neighbour broadcast, N = p (one row per rank), as src/apps/app_gj.c runs it: rank 0's link
 * initialisation and input, the distribution of the rows, p steps of the pivot's normalisation on its owner, the
 * row's relay both ways along the line of ranks (the root serving its longer side first, as src/sim/sim_coll.c's
 * relay) and every rank's update, then the collection and rank 0's output. The same platform start-up, mapping,
 * message model (the platform's T(l, d) through SimGrid's latency-factor hook), computation times and one SimGrid call
 * per message end as simrun (src/sim/sim_engine.h, sim_machine.h, sim_map.h, sim_replay_comm.h), and the same way of
 * keeping computations off SimGrid: each rank's own clock moves on, and the second end of a message catches SimGrid's
 * clock up to the later arrival before it goes in (sim_replay_msg.c's message). So SimGrid simulates the same
 * messages at the same dates, and the floor ends at simrun's T_par; what it leaves out is simrun's own work: the
 * skeleton layer, the replay layer's generality, the recorder, the metrics, the report and the sweep's processes.
 * The work and bytes are app_gj.c's own (app_gj.h), linked from simrun's build but run without its program.
 * Prints the messages and the simulated time; the caller times it. Usage: sg_floor PLATFORM P [--cfg=...] */
#include <app_gj.h>
#include <math.h>
#include <met_machine.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mailbox.h>
#include <sim_engine.h>
#include <sim_machine.h>
#include <sim_map.h>
#include <sim_replay_comm.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct rank {
  int id;
  met_charac_t charac;
  double ready; /* the rank's own clock */
  /* while blocked in a message: the partner, which end, when it got there; the partner writes the start */
  int blocked_on;
  int blocked_in_send;
  double arrived;
  double match_time;
  /* its mailboxes, looked up before the run as simrun caches them (a lookup is a SimGrid call, which yields) */
  sg_mailbox_t from_root;    /* the distribution's */
  sg_mailbox_t to_root;      /* the collection's */
  sg_mailbox_t bcast_in[2];  /* the relay's from rank id - 1 and id + 1 */
  sg_mailbox_t bcast_out[2]; /* to rank id - 1 and id + 1 */
} rank_t;

static int nranks;
static rank_t *ranks;
static sim_machine_t machine;
static double link_init_s;

/* The mailbox of the messages from src to dst, point-to-point or a collective's, as simrun names them. */
static sg_mailbox_t channel(int src, int dst, int coll)
{
  char name[40];
  snprintf(name, sizeof name, "%d>%d%s", src, dst, coll ? "c" : "");
  return sg_mailbox_by_name(name);
}

static void catch_up(const rank_t *r)
{
  double now = simgrid_get_clock();
  if (r->ready > now)
    sg_actor_sleep_for(r->ready - now);
}

/* A synchronous message: it starts when the later end gets there; the first end goes in at once. */
static void message(rank_t *r, int peer, int sending, double bytes, sg_mailbox_t box)
{
  rank_t *partner = &ranks[peer];
  double arrived = r->ready;
  double started = 0;
  int first = !(partner->blocked_on == r->id && partner->blocked_in_send != sending);
  if (!first) {
    started = arrived > partner->arrived ? arrived : partner->arrived;
    partner->blocked_on = -1;
    partner->match_time = started;
    r->ready = started;
    catch_up(r);
  } else {
    r->blocked_on = peer;
    r->blocked_in_send = sending;
    r->arrived = arrived;
  }
  if (sending)
    sim_comm_send(box, (double)(long)bytes, NULL);
  else
    sim_comm_recv(box);
  if (first)
    started = r->match_time; /* the partner unblocked it */
  double now = simgrid_get_clock();
  r->ready = now > started ? now : started;
}

/* `items` Rsub-equivalent elements, timed as simrun's sim_work times them. */
static void compute(rank_t *r, double items)
{
  double c[MET_CLASS_COUNT];
  met_charac_cycles(&r->charac, &app_gj_rsub_element, items, c);
  double total = c[MET_CLASS_CPU] + c[MET_CLASS_FLOP] + c[MET_CLASS_INTMEM] + c[MET_CLASS_EXTMEM];
  if (total > 0)
    r->ready += total / r->charac.clock_hz;
}

/* The neighbour broadcast of `bytes` from `root` along the line of ranks. */
static void relay(rank_t *r, int root, double bytes)
{
  int me = r->id;
  int first = me == root ? (nranks - 1 - root >= root ? 1 : -1) : (me > root ? 1 : -1);
  if (me != root)
    message(r, me - first, 0, bytes, r->bcast_in[me - first > me]);
  if (me + first >= 0 && me + first < nranks)
    message(r, me + first, 1, bytes, r->bcast_out[first > 0]);
  if (me == root && me - first >= 0 && me - first < nranks)
    message(r, me - first, 1, bytes, r->bcast_out[first < 0]);
}

static void rank_main(int argc, char *argv[])
{
  rank_t *r = sg_actor_self_get_data();
  int n = nranks;
  double row = app_gj_row_bytes(n);
  if (r->id == 0) {
    r->ready += link_init_s + sim_machine_io_time(&machine, SIM_INPUT, app_gj_input_bytes(n));
    for (int i = 1; i < n; i++)
      message(r, i, 1, app_gj_block_bytes(n, 1), ranks[i].from_root);
  } else
    message(r, 0, 0, app_gj_block_bytes(n, 1), r->from_root);
  for (int k = 0; k < n; k++) {
    if (r->id == k)
      compute(r, app_gj_pivot_ops(n, k));
    relay(r, k, row);
    compute(r, app_gj_update_ops(n, k, 1 - (r->id == k)));
  }
  if (r->id != 0) {
    message(r, 0, 1, app_gj_result_bytes(1), r->to_root);
    return;
  }
  for (int i = 1; i < n; i++)
    message(r, i, 0, app_gj_result_bytes(1), ranks[i].to_root);
  r->ready += sim_machine_io_time(&machine, SIM_OUTPUT, app_gj_result_bytes(n));
  catch_up(r);
}

/* Maps the ranks as simrun does, times their link initialisation and creates their actors; 0 or an error. */
static int spawn(const char *platform, char *err, size_t errlen)
{
  sg_host_t *hosts = calloc((size_t)nranks, sizeof *hosts);
  ranks = calloc((size_t)nranks, sizeof *ranks);
  int rc = !hosts || !ranks ? 1 : sim_map_ranks(nranks, hosts, err, errlen);
  for (int i = 0; rc == 0 && i < nranks; i++) {
    ranks[i] = (rank_t){.id = i,
                        .blocked_on = -1,
                        .from_root = channel(0, i, 0),
                        .to_root = channel(i, 0, 0),
                        .bcast_in = {channel(i - 1, i, 1), channel(i + 1, i, 1)},
                        .bcast_out = {channel(i, i - 1, 1), channel(i, i + 1, 1)}};
    char origin[512];
    rc = sim_machine_charac(hosts[i], platform, &ranks[i].charac, origin, sizeof origin, err, errlen);
    sg_actor_t actor = sg_actor_init("rank", hosts[i]);
    sg_actor_set_data(actor, &ranks[i]);
    sg_actor_start(actor, rank_main, 0, NULL);
  }
  int links = 0;
  if (rc == 0 && machine.link_init_us > 0 && machine.link_init_points == 0)
    links = sim_engine_links_between(hosts, (size_t)nranks);
  if (rc == 0)
    rc = sim_machine_link_init_time(&machine, nranks, links, &link_init_s, err, errlen);
  free(hosts);
  return rc;
}

int main(int argc, char *argv[])
{
  if (argc < 3) {
    fprintf(stderr, "usage: sg_floor PLATFORM P [--cfg=...]\n");
    return 2;
  }
  for (int i = 3; i < argc; i++)
    sim_engine_add_option(argv[i]);
  nranks = atoi(argv[2]);
  char err[1024] = "out of memory";
  int rc = sim_engine_start(argv[1], err, sizeof err);
  rc = rc ? rc : sim_machine_read(&machine, err, sizeof err);
  if (rc == 0 && (machine.piecewise || machine.internode)) /* as sim_replay_run.c */
    sim_engine_set_msg_time(sim_machine_msg_time, &machine);
  rc = rc ? rc : spawn(argv[1], err, sizeof err);
  if (rc != 0) {
    fprintf(stderr, "sg_floor: %s\n", err);
    return 2;
  }
  double end = sim_engine_run();
  printf("%ld %.9f\n", (long)nranks * (nranks - 1) + 2L * (nranks - 1), end);
  free(ranks);
  return 0;
}
