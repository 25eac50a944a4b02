/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one place that drives SimGrid's engine: start-up with quiet logging, platform loading with errors turned into
 * messages, the host catalogue in a deterministic order, route lengths, and the message cost model of the platform.
 * Implemented in C++ (sim_engine.cpp) because SimGrid's latency-factor hook and its exceptions are C++ only. */
#ifndef SIM_ENGINE_H
#define SIM_ENGINE_H

#include "met_net.h"

#include <simgrid/forward.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Per-message time on a quiet network, l bytes over d hops from host src to host dst, as a function the engine calls
 * for every message; the engine keeps SimGrid's size / bandwidth term (so flows still share links) and adds the rest
 * as latency. NAN leaves the message to the route's own latency and bandwidth. */
typedef double (*sim_msg_time_fn)(const void *model, double bytes, int hops, const_sg_host_t src, const_sg_host_t dst);

/* SimGrid settings ("name:value" items separated by blanks, as --cfg takes them; NULL for none) that the next
 * sim_engine_start applies before it loads the platform, such as another network model. Copied. */
void sim_engine_configure(const char *settings);
/* Adds a SimGrid command-line option ("--cfg=NAME:VALUE" or "--log=...") for sim_engine_start to pass after simrun's
 * own, as smpirun passes its; the string is copied. Returns 0, or SIM_ENOMEM. */
int sim_engine_add_option(const char *option);

/* Starts SimGrid in this process with simrun's options, the user's and sim_engine_configure's settings, once (later
 * calls do nothing), so that a platform's settings can be checked before it is loaded. Returns 0, or SIM_EINVAL or
 * SIM_EPLATFORM with SimGrid's objection to a setting. */
int sim_engine_init(char *err, size_t errlen);

/* Starts SimGrid in this process (sim_engine_init; possible once per process), loads `platform` and sorts its hosts
 * by name. Returns 0, or SIM_EPLATFORM with SimGrid's explanation copied to err. */
int sim_engine_start(const char *platform, char *err, size_t errlen);

/* Makes every message cost time_fn(model, bytes, hops) on a quiet network, on links of latency 0 too (they are given a
 * nominal latency for the model to scale). `model` is borrowed for the run. */
void sim_engine_set_msg_time(sim_msg_time_fn time_fn, const void *model);

/* Extra time of a message over a route whose link i carries the number values[i] (route order, from the sender; 0
 * for a link without the property), as a function the engine calls for every message. */
typedef double (*sim_route_extra_fn)(const void *model, double bytes, const double *values, int hops);

/* Adds fn's time to every message's time of sim_engine_set_msg_time, each link's number read from its property
 * `link_property`. `model` is borrowed for the run. 0, or SIM_EPLATFORM with a message naming a link whose property
 * is not a number >= 0. */
int sim_engine_set_route_extra(sim_route_extra_fn fn, const void *model, const char *link_property, char *err,
                               size_t errlen);

/* The hosts of the loaded platform (sim_engine_start first). */
size_t sim_engine_host_count(void);
/* The index-th host in natural name order ("n2" before "n10"). */
sg_host_t sim_engine_host(size_t index);
/* Number of links on the route from a to b (0 for a == b). */
int sim_engine_hops(const_sg_host_t a, const_sg_host_t b);
/* The links of the route from a to b in route order (sg_host_get_route's), as many as fit into out[0..max-1]; returns
 * their number, which may exceed max (then ask again with room for them). */
int sim_engine_route_links(const_sg_host_t a, const_sg_host_t b, const_sg_link_t *out, int max);
/* The hosts a message from a to b passes through (neither a nor b), in route order, into out[0..max-1]; returns their
 * number (at most max). A host between two links is the one they share, as hosts joined by one link (a route of that
 * one link) know it. */
int sim_engine_route_hosts(const_sg_host_t a, const_sg_host_t b, sg_host_t *out, int max);
/* The distinct links on the routes between every two of the `count` hosts: the physical links a run on them uses
 * (on a mesh, the links inside the partition; through a switch, every host's link to it). */
int sim_engine_links_between(const sg_host_t *hosts, size_t count);
/* A property of the platform's root zone, or NULL. Owned by SimGrid. */
const char *sim_engine_property(const char *name);

/* Property `name` of `host`, or else of the innermost zone around it that has it (a zone's properties hold for the
 * hosts inside it), or NULL; *owner names the host or zone it came from. Owned by SimGrid. */
const char *sim_engine_host_property(const_sg_host_t host, const char *name, const char **owner);
/* The route from a to b: the sum of its links' latencies and the bandwidth a message alone gets from its links (the
 * smallest bandwidth over the message's weight on the link: more than 1 on a shared link the route crosses twice or,
 * with network/crosstraffic, that its reverse route crosses too), in s and B/s; 0 and 0 when a == b. */
void sim_engine_route(const_sg_host_t a, const_sg_host_t b, double *latency, double *bandwidth);

/* A route's figures, looked up once by the analytic network (sim_replay_world.h) and then reused for every message on
 * it: links (SimGrid's count, the loopback link for a == b), hops (0 for a == b), the sum of the links' latencies (s)
 * and the bandwidth a message alone gets from them (B/s, as sim_engine_route). */
typedef struct sim_route {
  int links;
  int hops;
  double latency;
  double bandwidth;
} sim_route_t;
void sim_engine_route_figures(const_sg_host_t a, const_sg_host_t b, sim_route_t *route);
/* The links on `host`'s route to itself, which a message between two ranks on the host crosses, when some of them
 * also carry its messages to another host, or, on a platform of one host, are no loopback link (a host of a <cluster>
 * without loopback_bw has its own link there, out and back, as SimGrid and smpirun route it; a loopback link,
 * SimGrid's __loopback__ or a cluster's loopback_bw one, carries only the host's own): their number, the loopback
 * links left out (0 otherwise, or when SimGrid finds no route), and their names into `names` (of `len`, ", "
 * between). */
int sim_engine_self_links(const_sg_host_t host, char *names, size_t len);

/* The network model SimGrid prices messages with, once the platform is loaded (its <config> and --cfg applied):
 * CM02, LV08 and SMPI with their factors, TCP-gamma and cross-traffic (priced 1); another (IB, Constant, ns-3, or a
 * host model with a network of its own) with priced 0 and the reason. */
void sim_engine_net(met_net_t *net);

/* Reads the network model (sim_engine_net) once the platform is loaded, for sim_engine_alone_time. Returns 0, or
 * SIM_EPARAM with a message for a network model whose price of a lone message it does not know (only CM02, LV08 and
 * SMPI). */
int sim_engine_alone_prepare(char *err, size_t errlen);
/* Seconds SimGrid's network model takes for `bytes` from a to b over `route` when nothing else is on the network:
 * met_net_time of the route's latency and bandwidth, or with the platform's T(l, d) through sim_engine_set_msg_time
 * when installed, latency times the factor that gives it plus bytes over met_net_rate. */
double sim_engine_alone_time(const_sg_host_t a, const_sg_host_t b, const sim_route_t *route, double bytes);

/* Runs the simulation until every actor ended; returns the simulated time in seconds. */
double sim_engine_run(void);

/* Whether `host`'s speed changed during the run (a speed profile or a power state): the replay layer's clocks assume
 * constant speeds. */
int sim_engine_speed_changed(const_sg_host_t host);

#ifdef __cplusplus
}
#endif

#endif
