/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A machine as simrun's skeletons and models see it, without SimGrid: the instruction-level characterisation of a host
 * (seed 001 §3.1, eqs. 1-2: cycles per operation of each class, the cycle time, the memory size), the work of a
 * program module as operation counts by class, and the time the one costs the other. */
#ifndef MET_MACHINE_H
#define MET_MACHINE_H

#include "met_model.h"
#include "met_net.h"
#include "met_trace.h"

#include <stddef.h>

/* The operation classes of eq. 2, in the order of the trace's compute parts (met_trace.h MET_PART_*). */
typedef enum met_class {
  MET_CLASS_CPU = 0, /* an integer or control instruction (address arithmetic, loop control) */
  MET_CLASS_FLOP,    /* a floating-point operation (its FPU cycles not overlapped with the CPU) */
  MET_CLASS_INTMEM,  /* an access to internal (on-chip) memory: workspace, registers spilled, L1 */
  MET_CLASS_EXTMEM,  /* an access to external memory: the program's data arrays */
  MET_CLASS_COUNT
} met_class_t;

/* The property suffixes of the classes, "cpu", "flop", "intmem", "extmem": simrun:cycles-<suffix>. */
extern const char *const met_class_names[MET_CLASS_COUNT];

/* Operations of a piece of work, by class (counts, not time: the same on every machine), and the bytes of data the
 * work keeps touching (its working set): when they fit in the host's cache level, an external access costs a cache
 * hit. 0: unknown, never in cache. */
typedef struct met_ops {
  double n[MET_CLASS_COUNT];
  double working_set;
  double seq_working_set; /* the working set of the same operations in the sequential run; 0: working_set */
} met_ops_t;

/* What one operation of each class costs on a host. */
typedef struct met_charac {
  double clock_hz;                /* processor cycles per second (simrun:clock-hz, or the host's SimGrid speed) */
  double cycles[MET_CLASS_COUNT]; /* cycles per operation (simrun:cycles-cpu, -flop, -intmem, -extmem) */
  double memory_bytes;            /* simrun:memory-bytes; 0 when the platform gives none */
  double cache_bytes;  /* simrun:cache-bytes: the size of a cache level in front of external memory; 0: none */
  double cache_cycles; /* simrun:cycles-cache: cycles per external access that hits that cache */
  int derived;         /* 1 when no simrun:cycles-* was given: the default of met_charac_default */
} met_charac_t;

/* The characterisation of a host whose platform gives none: SimGrid's speed read as operations per second, so that a
 * CPU or floating-point operation takes one cycle of `speed` and memory accesses are free (folded into the rate). */
met_charac_t met_charac_default(double speed, double memory_bytes);

/* Cycles of `items` pieces of work of `ops` each on `c`, by class, into cycles[MET_CLASS_COUNT]: items x (the
 * operations of one item x cycles per operation), in that order, so that an item's cost is rounded once. External
 * accesses cost cache_cycles instead of cycles[MET_CLASS_EXTMEM] when ops->working_set (> 0) fits in cache_bytes. */
void met_charac_cycles(const met_charac_t *c, const met_ops_t *ops, double items, double cycles[MET_CLASS_COUNT]);

/* Seconds of `items` pieces of work of `ops` each on `c` (eq. 2: the cycles of every class times the cycle time). */
double met_charac_seconds(const met_charac_t *c, const met_ops_t *ops, double items);

/* What `items` pieces of `ops` cost on `c` beyond their cost in the sequential run, on `seq` (the sequential run's
 * host) at ops->seq_working_set (or at working_set when that is 0), in two parts that add up to it (seed 000 §1.1):
 * the true anomaly, their seconds on `c` at ops->working_set less on `c` at the sequential working set (a share that
 * fits in a cache the whole problem does not: negative), and the host's speed, their seconds on `c` less on `seq`,
 * both at the sequential working set (a slower host: positive; neither an anomaly nor an imbalance). Both 0 on the
 * sequential run's host without a cache level. */
met_anomaly_t met_charac_anomaly(const met_charac_t *c, const met_charac_t *seq, const met_ops_t *ops, double items);

/* Whether two characterisations are the same (for "every rank's host costs the same"). */
int met_charac_equal(const met_charac_t *a, const met_charac_t *b);

/* One line for the report: "25e6 Hz; cycles cpu 20.505, flop 19.2175, intmem 10.9635, extmem 34.4277; memory ..."
 * into out. */
void met_charac_describe(const met_charac_t *c, char *out, size_t len);

/* What the analytic models take from a run's platform and rank mapping (sim_run_describe fills it in a process that
 * loads the platform): the characterisation of rank 0's host, the message model, host I/O, and the routes. */
enum { MET_PLATFORM_MAX_RANKS = 4096, MET_PLATFORM_PAIR_RANKS = 64, MET_PLATFORM_MAX_KINDS = 16 };
/* The links kept of a route between two ranks (on an 8 x 8 mesh, a route has at most 14) */
enum { MET_PLATFORM_ROUTE_LINKS = 16 };

/* The ranks' hosts with one characterisation: the first rank on one and the next (-1: none), how many, and the first
 * one's host name. */
typedef struct met_host_kind {
  met_charac_t charac;
  int first_rank;
  int second_rank;
  int ranks;
  char host[64];
} met_host_kind_t;

typedef struct met_platform {
  int p;               /* ranks mapped */
  met_charac_t charac; /* rank 0's host */
  int uniform;         /* 1 when every rank's host has the same characterisation (nkinds == 1) */
  char origin[512];    /* where rank 0's characterisation came from, for the report */
  int piecewise;       /* 1 when the platform gives the piecewise message model (msg); else routes are Hockney's */
  met_piecewise_t msg;
  double link_init_us;
  double input_us[2];               /* eq. 5's alpha (us) and beta (us/B); zero when the platform gives none */
  double output_us[2];              /* eq. 6's */
  int has_io;                       /* 1 when the platform gives simrun:io-input-us or simrun:io-output-us */
  met_net_t net;                    /* the network model the run's SimGrid prices messages with (sim_engine_net) */
  double latency;                   /* route from rank 0 to rank 1: the sum of its links' latencies (s); 0 for p = 1 */
  double bandwidth;                 /* the bandwidth a message alone gets on it (B/s, sim_engine_route); 0 for p = 1 */
  int hops[MET_PLATFORM_MAX_RANKS]; /* links from rank 0's host to rank i's, for the first min(p, MAX) ranks */
  double eager_bytes;               /* simrun:eager-bytes: sends up to this size are eager; 0: all synchronous */
  int eager_at_send;                /* simrun:eager-start = send: eager messages move while their receivers compute */
  met_bcast_routes_t one_to_all;    /* the routes of a one-to-all broadcast, averaged over its roots */
  met_bcast_routes_t neighbour;     /* of a neighbour broadcast (the root's neighbours in rank order) */
  met_bcast_routes_t from_rank0;    /* rank 0's to every other rank */
  met_host_kind_t kinds[MET_PLATFORM_MAX_KINDS]; /* the distinct characterisations of the ranks' hosts, by first rank */
  unsigned char rank_kind[MET_PLATFORM_PAIR_RANKS]; /* rank i's in kinds (i < min(p, MET_PLATFORM_PAIR_RANKS)) */
  int nkinds;                                       /* how many; more than MET_PLATFORM_MAX_KINDS: the models say so */
  /* the route between ranks i and j (i, j < min(p, MET_PLATFORM_PAIR_RANKS)): links, latency (s), bandwidth (B/s) */
  int pair_hops[MET_PLATFORM_PAIR_RANKS][MET_PLATFORM_PAIR_RANKS];
  double pair_latency[MET_PLATFORM_PAIR_RANKS][MET_PLATFORM_PAIR_RANKS];
  double pair_bandwidth[MET_PLATFORM_PAIR_RANKS][MET_PLATFORM_PAIR_RANKS];
  /* [P] for each P dividing p (p <= MET_PLATFORM_PAIR_RANKS): 1 when the binomial-tree broadcasts along the process
   * rows (or columns) of the P x (p / P) grid, all at once, slow each other on a link (sim_routes_grid_shared) */
  unsigned char grid_shared[MET_PLATFORM_PAIR_RANKS + 1];
  /* [P][0] and [P][1]: the rounds of the row and the column broadcasts' trees, each counted as its slowest message's
   * slowdown on a shared link (sim_routes_grid_shared; met_machine_t.row_rounds) */
  double grid_rounds[MET_PLATFORM_PAIR_RANKS + 1][2];
  /* p <= MET_PLATFORM_PAIR_RANKS: 1 when the messages from each rank to the next, all at once, slow each other on a
   * link (sim_routes_relay_shared) */
  unsigned char relay_shared;
  /* the links of the route from rank i to rank j (i, j < min(p, MET_PLATFORM_PAIR_RANKS)), in route order, numbered
   * 0 .. port_links - 1 (met_ports_t); port_links -1: a route longer than MET_PLATFORM_ROUTE_LINKS, none kept */
  short pair_route[MET_PLATFORM_PAIR_RANKS][MET_PLATFORM_PAIR_RANKS][MET_PLATFORM_ROUTE_LINKS];
  unsigned char pair_route_hops[MET_PLATFORM_PAIR_RANKS][MET_PLATFORM_PAIR_RANKS];
  int port_links;
} met_platform_t;

/* NULL when the models can price a message as the run does (the platform's piecewise model, or a network model
 * met_net follows), else why not (IB, another model): they print "-" with it. */
const char *met_platform_unpriced(const met_platform_t *m);

/* Hockney's lambda and tau for the machine's messages of `bytes` between rank 0 and rank 1: the piecewise model's
 * large-message regime at their distance (lambda = alpha + gamma d, tau = beta + delta d), else the route's latency
 * and bandwidth as the network model prices them (lambda = latency x its factor, tau = 1 / met_net_rate; the same for
 * every size but under SMPI's factors); 0 and 0 for p = 1, where nothing is sent. Returns 0, or -1 when the platform
 * gives neither (or met_platform_unpriced). */
int met_platform_hockney(const met_platform_t *m, double bytes, met_hockney_t *link);

/* Hockney's lambda and tau averaged over the pairs of ranks in the same process row (*row, for messages of row_bytes)
 * and in the same process column (*col, of col_bytes) of a rows x cols grid numbered row-major, from each pair's own
 * route (as met_platform_hockney does for ranks 0 and 1); a line of one process gets the other's. With more ranks
 * than MET_PLATFORM_PAIR_RANKS, both are ranks 0 and 1's. Returns 0, or BAS_EPLATFORM when a route gives no bandwidth
 * and the platform no message model (or met_platform_unpriced). */
int met_platform_grid_links(const met_platform_t *m, int rows, int cols, double row_bytes, double col_bytes,
                            met_hockney_t *row, met_hockney_t *col);

/* LogP's parameters for messages of `bytes` between rank 0 and rank 1, sent as words of 8 bytes (a double, the
 * skeletons' element): L, one word's time (the piecewise model's at their distance, else Hockney's lambda + 8 tau of
 * met_platform_hockney); g, one word's share of the bandwidth (the large-message regime's (beta + delta d) x 8, else
 * 8 tau); o = 0, as the simulation charges no processor time per message; P = p. Returns 0, or BAS_EPLATFORM when p = 1
 * (no route) or the platform gives no message model (or met_platform_unpriced). */
int met_platform_logp(const met_platform_t *m, double bytes, met_logp_t *logp);

/* One line for the report on the point-to-point models between ranks 0 and 1: Hockney's lambda and tau, LogP's L, o,
 * g (P is the run's p) and what each predicts for a message of `bytes`; with "-" and what is missing when the platform
 * lacks it; "" at p = 1, where nothing is sent. */
void met_platform_p2p_describe(const met_platform_t *m, double bytes, char *out, size_t len);

/* The machine's message time as eq. 4's piecewise form into *msg: the platform's own, or else the route's as SimGrid
 * times it on a quiet network (alpha 0, beta = 1 / bandwidth, gamma = the latency per link of the route between
 * ranks 0 and 1, delta 0, one regime, in us; where the TCP window bounds that route's rate, beta 0 and delta =
 * 2 gamma / network/TCP-gamma, the window's 1 / rate per link) priced by its network model (msg->net = &m->net,
 * borrowed). Returns 0, or BAS_EPLATFORM when the platform gives neither (or met_platform_unpriced; p = 1 gives
 * zeros). */
int met_platform_msg(const met_platform_t *m, met_piecewise_t *msg);

/* Whether the routes between the first min(p, MET_PLATFORM_PAIR_RANKS) ranks are what eq. 4's per-hop form, as
 * met_platform_msg gives it from ranks 0 and 1's route, prices: every route's latency that route's latency per link
 * times its links and its bandwidth theirs, and the TCP window bounding the rate of every route or of none (a window
 * that bounds some makes a time not linear in the hops; bounding all, a rate of gamma / (2 latency), it is, and
 * met_platform_msg prices it per byte and link); with `relay` (eq. 15's neighbour broadcast), also no link that the
 * messages from each rank to the next slow each other on (relay_shared). 1, or 0 with the reason in why. Always 1
 * for a piecewise platform (its own model) and for more ranks than MET_PLATFORM_PAIR_RANKS (routes not kept). */
int met_platform_routes_alike(const met_platform_t *m, int relay, char *why, size_t len);

/* Whether every route between two ranks of one process row, or of one process column, of a grid of `cols` columns
 * numbered row-major has the latency per link and the bandwidth of its line's first two ranks' route (FAST's one
 * link per line). 1, or 0 with the reason in why. Always 1 for a piecewise platform and for more ranks than
 * MET_PLATFORM_PAIR_RANKS. */
int met_platform_lines_alike(const met_platform_t *m, int cols, char *why, size_t len);

/* The flop rate of the slowest rank's host (clock / cycles per flop; the critical path of a program whose ranks
 * compute equal shares in step); 0 when a flop costs nothing on some host, or there are more kinds of host than kept.
 */
double met_platform_flops(const met_platform_t *m);

/* The flop rate of rank i's host (clock / cycles per flop); 0 when not known (i >= MET_PLATFORM_PAIR_RANKS, or more
 * kinds of host than kept). */
double met_platform_rank_flops(const met_platform_t *m, int i);

/* Seconds of `items` pieces of `ops` on the slowest rank's host for them (met_charac_seconds); NAN when there are more
 * kinds of host than kept. */
double met_platform_slowest_seconds(const met_platform_t *m, const met_ops_t *ops, double items);

/* The memory check of every rank's host: whether its share (rank 0's: rank0_bytes; every other rank's: other_bytes)
 * fits its simrun:memory-bytes. Returns -1 when no host gives its memory (nothing checked), 0 when all fit, or 1 with
 * the check that fails first (on the host with the least memory of those short) in *fail. */
typedef struct met_memory_fail {
  const met_host_kind_t *kind; /* its kind of host (kind->host names the host when rank is its first rank) */
  int rank;                    /* the first rank short of memory on that kind */
  double bytes;                /* what it needs */
} met_memory_fail_t;
int met_platform_memory_check(const met_platform_t *m, double rank0_bytes, double other_bytes, met_memory_fail_t *fail);

/* Seconds for host input or output of `bytes` with eq. 5's or eq. 6's alpha (us) and beta (us/B) in us. */
double met_io_time(const double us[2], double bytes);

#endif
