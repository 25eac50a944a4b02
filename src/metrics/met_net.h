/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The price of one message alone on the network under SimGrid's flow-level network models, CM02, LV08 and SMPI
 * (SimGrid 3.32, src/surf/network_cm02.cpp and network_smpi.cpp): the route's latency times the latency factor for
 * the size, plus the size over the route's rate times the bandwidth factor for the size, the rate being the route's
 * bandwidth bounded by the TCP window, network/TCP-gamma / (2 x latency). Pure: the engine reads the factors from
 * SimGrid's configuration (sim_engine_net), and every model and the analytic network price messages here. */
#ifndef MET_NET_H
#define MET_NET_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" { /* the engine (sim_engine.cpp) prices its lone messages here */
#endif

/* Most steps kept of a factor by message size (SMPI's default has 9). */
enum { MET_NET_STEPS = 32 };

/* A factor by message size, as SMPI's "bound:value;..." gives it: a size above `bound` takes `value` (the largest
 * such bound's), a size at or below every bound takes 1. CM02 and LV08 have one step below every size. */
typedef struct met_net_step {
  double bound;
  double value;
} met_net_step_t;

typedef struct met_net {
  char model[16];   /* network/model as SimGrid has it: "CM02", "LV08", "SMPI", "IB"...; "" for none (raw figures) */
  int priced;       /* 1 when met_net_time prices a message as that model does; 0: `reason` says why not */
  char reason[256]; /* why a model cannot follow this network model, to print beside its "-" */
  int nlat;         /* steps of the latency factor (0: factor 1) */
  int nbw;          /* steps of the bandwidth factor (0: factor 1) */
  met_net_step_t lat[MET_NET_STEPS];
  met_net_step_t bw[MET_NET_STEPS];
  double tcp_gamma; /* network/TCP-gamma, bytes: the rate is at most tcp_gamma / (2 latency); 0: no bound */
  int crosstraffic; /* network/crosstraffic: a message also loads its reverse route with 5% of its rate */
} met_net_t;

/* The factor of `steps` (n of them, bounds ascending) for a message of `bytes`. */
double met_net_factor(const met_net_step_t *steps, int n, double bytes);

/* Whether the latency and bandwidth factors are the same for every size (CM02, LV08): then one latency and one
 * bandwidth (Hockney's lambda and tau) price every message. */
int met_net_size_free(const met_net_t *net);

/* Whether every size from lo to hi bytes takes the same factors (no step's bound in [lo, hi)). */
int met_net_one_step(const met_net_t *net, double lo, double hi);

/* Bytes per second of a message of `bytes` alone on a route of `latency` seconds (the sum of its links') and
 * `bandwidth` B/s (its narrowest link's share for this message: sim_engine_route): the bandwidth bounded by the TCP
 * window, times the bandwidth factor for the size. */
double met_net_rate(const met_net_t *net, double latency, double bandwidth, double bytes);

/* Seconds of that message: latency x the latency factor for the size + bytes / met_net_rate. */
double met_net_time(const met_net_t *net, double latency, double bandwidth, double bytes);

/* One line naming the model and its figures, such as "LV08: latency x 13.01, bandwidth x 0.97, TCP window
 * 4194304 B, cross-traffic on", into out; with the reason when models cannot follow it. */
void met_net_describe(const met_net_t *net, char *out, size_t len);

#ifdef __cplusplus
}
#endif

#endif
