/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Analytic performance models to set beside the simulation, as pure functions of explicit parameters (no SimGrid, no
 * trace): Hockney's linear message time, LogP's, the FAST model of ScaLAPACK pdgemm (Caron & Suter 2002, seed 003 eqs.
 * 1-3; pdtrsm's, eqs. 4-7, along its critical path in met_pdtrsm.h), and the non-overlapped Gauss-Jordan model of
 * Zemerly et al. (seed 001 eqs. 11-15). A model leaves out what the simulation shows: contention, idle time in
 * pipelines, load imbalance. */
#ifndef MET_MODEL_H
#define MET_MODEL_H

#include <stddef.h>

/* Hockney's point-to-point model: a message of L bytes takes lambda + L tau (seed 003 §3). The tag differs from the
 * function met_hockney, which C++ (sim_check.cpp includes this through sim_machine.h) would warn hides it. */
typedef struct met_hockney_link {
  double lambda; /* latency, seconds */
  double tau;    /* seconds per byte: the inverse of the bandwidth */
} met_hockney_t;

/* The seconds `bytes` take on `link`: lambda + bytes tau. */
double met_hockney(const met_hockney_t *link, double bytes);

/* LogP (Culler et al. 1993): L, the latency of a message of one word; o, the time a processor is busy sending or
 * receiving a message; g, the least interval between two messages a processor sends; P processors. */
typedef struct met_logp {
  double L;          /* seconds */
  double o;          /* seconds */
  double g;          /* seconds */
  double word_bytes; /* the size of one LogP message */
  int P;
} met_logp_t;

/* A message of `bytes` sent as k = ceil(bytes / word) LogP messages from one processor to another: the sender issues
 * one every max(g, o), the last arrives L after it and is received in o: 2 o + L + (k - 1) max(g, o) (at least one
 * message). */
double met_logp_time(const met_logp_t *m, double bytes);

/* ceil(log2 n): the rounds of a binomial-tree broadcast among n members; 0 for n <= 1. */
int met_ceil_log2(long n);

/* The links of the route of a message from rank i to rank j (both below `count`), in route order: the hops[i * stride
 * + j] numbers from route + (i * stride + j) * max_hops, each 0 .. links - 1 (none: as between ranks on one host). Two
 * messages whose routes cross one link share it. count 0: not known. */
typedef struct met_ports {
  int count;
  int stride;
  int links;
  int max_hops;
  const short *route;
  const unsigned char *hops;
} met_ports_t;

/* The ranks whose own flop rate a model can take (met_machine_t.rank_flops), as the platform describes routes. */
enum { MET_MODEL_RATES = 64 };

/* What the FAST models take from the machine: the link (FAST's fast_latency and fast_bandwidth calls), the rate of
 * the sequential kernels (its dgemm, trsm and add benchmarks, all at one rate here) and the size of an element. */
typedef struct met_machine {
  met_hockney_t link;     /* between processes of a process row (the row broadcasts of eqs. 2-3, eq. 4) */
  met_hockney_t col_link; /* between processes of a process column (the column broadcasts, eq. 5's send) */
  double flops;           /* floating-point operations per second of the sequential kernels (the slowest rank's) */
  int rates;              /* 0, or the ranks whose own rate rank_flops[rank] holds (the others run at flops) */
  double rank_flops[MET_MODEL_RATES];
  double elem_bytes;  /* 8 for double precision */
  double eager_bytes; /* sends of at most this many bytes are eager (the sender goes on); 0: all synchronous */
  int eager_at_send;  /* 1: an eager message moves when sent; 0: when its receive is posted (SMPI's default) */
  met_ports_t ports;  /* the links of the run's routes between ranks (borrowed); count 0: one link out and one
                         in for each process */
  /* 0, or the rounds of a row (column) broadcast's binomial tree that eqs. 2-3 charge bytes tau for, where messages
   * of one round share a link: each round counted as its slowest message's slowdown, so a round of k messages on a
   * link of bandwidth B at the busiest costs lambda + bytes k / B (SimGrid's max-min sharing); 0: ceil(log2 Q) */
  double row_rounds;
  double col_rounds;
} met_machine_t;

/* A dense problem on a P x Q process grid, block-cyclic with block R. pdgemm: C (m x n) = A (m x k) B (k x n).
 * pdtrsm: X A = B with A (n x n) upper triangular and B (m x n); k is unused. */
typedef struct met_dense {
  long m, n, k;
  long r;   /* distribution block R */
  int rows; /* P: process rows */
  int cols; /* Q: process columns */
} met_dense_t;

/* Floating-point operations of a dgemm (a x b times b x c, accumulated): 2 a b c. */
double met_dgemm_flops(double a, double b, double c);

/* pdgemm, eq. 1: ceil(K/R) local dgemms of ceil(M/P) x R times R x ceil(N/Q), in seconds. */
double met_pdgemm_comp(const met_dense_t *d, const met_machine_t *m);
/* pdgemm, eqs. 2-3 with the tree broadcast of §3: (ceil(log2 Q) M K / P + ceil(log2 P) K N / Q) elements at tau each,
 * plus (ceil(log2 Q) + ceil(log2 P)) ceil(K/R) latencies, in seconds; m's row_rounds and col_rounds, where set, in
 * place of the logarithms of the elements' term. */
double met_pdgemm_comm(const met_dense_t *d, const met_machine_t *m);
/* The FAST pdgemm time: eq. 1 + eq. 3 (computation and communication do not overlap). */
double met_pdgemm_time(const met_dense_t *d, const met_machine_t *m);

/* Bytes of A, B and C held by the busiest process of a block-cyclic pdgemm (each process keeps its blocks of the
 * three matrices): what must fit in a node's memory (seed 003 §5.2). */
double met_pdgemm_node_bytes(const met_dense_t *d, double elem_bytes);
/* Bytes of A (its upper triangle stored whole, as ScaLAPACK does) and B held by the busiest process of a pdtrsm. */
double met_pdtrsm_node_bytes(const met_dense_t *d, double elem_bytes);

/* Rows (or columns) of an n-long dimension held by process `iproc` of `nprocs` in a block-cyclic distribution with
 * block r: ScaLAPACK's NUMROC. */
long met_numroc(long n, long r, int iproc, int nprocs);

/* The piecewise message time of Zemerly et al. (seed 001 eq. 4): alpha + beta l + gamma d + delta l d, with one set of
 * coefficients up to the packet size and another above, in microseconds as Table 2 gives them. */
typedef struct met_net met_net_t;
typedef struct met_piecewise {
  double packet_bytes;
  double small[4]; /* alpha (us), beta (us/B), gamma (us/hop), delta (us/B/hop) for l <= packet_bytes */
  double large[4]; /* the same for l > packet_bytes */
  /* NULL: the coefficients give the whole time. Else a route's own figures, latency alpha + gamma d and 1 /
   * bandwidth beta + delta d, that the network model prices (met_net_time: its factors, the TCP window; borrowed) */
  const met_net_t *net;
} met_piecewise_t;

/* Seconds for `bytes` over `hops` links. */
double met_piecewise_time(const met_piecewise_t *model, double bytes, int hops);

/* A broadcast's routes on the run's machine (one-to-all, eq. 14: the root sends to every other rank; neighbour, eq. 15:
 * a relay along the ranks), for the models: `members` messages a step at the pace-setting member, `hops_sum` their
 * hops summed (one-to-all: averaged over the roots, as every rank is the root of N/p rows; neighbour: two messages,
 * one for p = 2, of the mean hop between neighbours). When a root's sends go at once (eager sends), members at one
 * distance receive in step and members at other distances a message time apart, so two bounds: the lower takes the
 * farthest member (hops_max) and the busiest shared link's n flows in step, which take (n - 1) l / bandwidth longer
 * than one alone (share, s/B) after the nearest of them (share_hops away) has started; the upper, every flow on that
 * link (share_all, share_all_hops). For the relay, hops_max is its slowest hop and share 0 (its members receive a hop
 * apart); share_all its root's two sends on shared links. */
typedef struct met_bcast_routes {
  double members;
  double hops_sum;
  double hops_max;
  double share;
  double share_hops;
  double share_all;
  double share_all_hops;
} met_bcast_routes_t;

/* The inputs of the Gauss-Jordan model: N equations on p processors, the sequential computation time, the message
 * model, the routes of the broadcast (averaged over its roots) and of rank 0's sends (distribution, collection), the
 * machine's eager limit and the host I/O time. */
typedef struct met_gj {
  int n;
  int p;
  double t_comp; /* T_seq(N) of eq. 11: the sequential computation, seconds */
  double t_io;   /* T_I/O: input plus output, seconds */
  const met_piecewise_t *msg;
  const met_bcast_routes_t *bcast_routes; /* borrowed */
  const met_bcast_routes_t *rank0_routes; /* borrowed */
  double eager_bytes; /* sends of at most this many bytes are eager: a root's sends overlap; 0: all synchronous */
} met_gj_t;

/* Seconds for a root's messages of `bytes` to its members: one after the other (synchronous sends: the sum of eq. 4
 * at each distance, eq. 14), or, when `overlap` (eager sends), all at once: the later of the farthest member's time
 * and the busiest link's bound, eq. 4 at share_hops plus bytes x share; *upper (may be NULL) gets the same with every
 * flow on that link overlapping (share_all), the sum when not overlapped. */
double met_bcast_sends(const met_piecewise_t *msg, const met_bcast_routes_t *r, double bytes, int overlap,
                       double *upper);

/* The largest ratio of the upper to the lower bound at which the Gauss-Jordan model gives their mean: 11/9, so that
 * the mean is within 10% of any time between them. */
#define MET_GJ_BOUNDS_RATIO (11.0 / 9.0)

/* Eq. 12: the distribution of (N/p)(N+1) doubles from rank 0 to every other rank (met_bcast_sends on rank 0's routes),
 * with the lower bound of overlapped sends; their upper bound in *upper unless NULL. */
double met_gj_dist(const met_gj_t *g, double *upper);
/* Eq. 13: the collection of N/p doubles from every other rank, received one after the other. */
double met_gj_coll(const met_gj_t *g);
/* One broadcast of a row of N+1 doubles: eq. 14 (to every other rank) or eq. 15 (to the root's neighbours in rank
 * order), at the distances of the run's routes, overlapped when the row is eager (the lower bound; the upper in
 * *upper unless NULL). */
double met_gj_broad(const met_gj_t *g, double *upper);
/* Eq. 11: T_seq(N)/p + T_dist + N T_broad + T_coll + T_I/O, with the lower bound of overlapped sends. */
double met_gj_time(const met_gj_t *g);
/* Eq. 11 with the upper bound of overlapped sends (met_bcast_sends); met_gj_time's when no send overlaps. */
double met_gj_time_upper(const met_gj_t *g);

#endif
