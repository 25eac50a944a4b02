/* The analytic network (network = analytic, docs/scale.md): every message priced alone by the platform's own model, as
 * SimGrid's network would price it on a quiet network (sim_engine_alone_time: T(l, d) where the platform has one,
 * else the route's latency and bandwidth), with no contention, the way LogGOPSim and Dimemas work. The ranks stay
 * SimGrid actors, but no message is a SimGrid communication: a message is matched in the queues of its two ranks and
 * timed from the clocks of its two ends, and a rank that must wait for its partner is suspended until the partner
 * comes. Nothing here grows with the machine: no mailbox, no per-pair state, a route looked up once per rank and peer
 * slot. Used by the replay layer's messages (sim_replay_msg.c) when the job asks for it. */
#ifndef SIM_NET_ANALYTIC_H
#define SIM_NET_ANALYTIC_H

#include "sim_replay_world.h"

#include <stddef.h>

/* Sets the world's analytic network up, once its ranks are allocated: the network model's factors, every rank's
 * route slots. Returns 0, or a SIM_E*
 * code with a message (a network model it cannot price, out of memory). */
int sim_net_analytic_start(sim_world_t *world, char *err, size_t errlen);
/* Frees what the start and the run's unmatched messages hold. */
void sim_net_analytic_stop(sim_world_t *world);

/* Links on the route from the rank's host to rank `other`'s, from the rank's route slots. */
int sim_net_analytic_hops(const sim_rank_t *rank, int other);

/* A blocking message with `peer` (sim_send, sim_recv), synchronous or, below the world's eager limit, eager. */
void sim_net_analytic_message(sim_rank_t *rank, int peer, int sending, double bytes);
/* Posts a non-blocking message at the rank's clock into `req` (sim_isend, sim_irecv). */
void sim_net_analytic_post(sim_rank_t *rank, sim_request_t *req, int peer, int sending, double bytes);
/* Whether `req` is over by the rank's clock (sim_test); never blocks. */
int sim_net_analytic_test(sim_rank_t *rank, sim_request_t *req);
/* Waits until `req` is over and records it (sim_wait); the caller frees the request. */
void sim_net_analytic_finish(sim_rank_t *rank, sim_request_t *req);

#endif
