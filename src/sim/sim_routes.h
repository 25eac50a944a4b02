/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the models take from the run's routes about a broadcast (met_model.h met_bcast_routes_t): for each root, the
 * distances of the members it sends to and how much its sends slow each other down when they overlap (eager sends on
 * shared links), averaged over the roots, as the Gauss-Jordan broadcasts have every rank as root in turn. */
#ifndef SIM_ROUTES_H
#define SIM_ROUTES_H

#include "met_model.h"

#include <simgrid/forward.h>
#include <stddef.h>

/* The routes of a one-to-all broadcast (the root sends to every other rank) and of a neighbour broadcast (to the
 * root's one or two neighbours in rank order) among the p ranks on hosts[0..p-1], from every root (p <= 32) or from
 * 32 roots evenly spaced, averaged; and the one-to-all's from rank 0 alone (distribution, collection). Returns 0, or
 * SIM_ENOMEM. */
int sim_routes_describe(const sg_host_t *hosts, int p, met_bcast_routes_t *one_to_all, met_bcast_routes_t *neighbour,
                        met_bcast_routes_t *from_rank0);

/* Whether the binomial-tree broadcasts of a rows x cols grid of the ranks on hosts[0..rows cols - 1] (numbered
 * row-major), one along every process row at once (and one along every process column at once), send two messages
 * in one round, of one line or of two, over one link whose share is below one of those messages' own bottleneck, for
 * some root: then concurrent messages share a link, which FAST's eqs. 2-3 do not charge. Returns 1 or 0, or
 * SIM_ENOMEM. rounds[0] (the row broadcasts) and rounds[1] (the columns') get the trees' rounds each counted as its
 * slowest message's slowdown under max-min sharing (the bandwidth a message alone gets over the one it gets there),
 * summed over a tree and averaged over its roots: ceil(log2 Q) and ceil(log2 P) where no link is shared. */
int sim_routes_grid_shared(const sg_host_t *hosts, int rows, int cols, double rounds[2]);

/* Whether two messages of a relay along the ranks on hosts[0..p-1] (rank i to rank i + 1, for every i) with no host
 * in common, which a neighbour broadcast's pipelined rows can send at once, cross one link whose share is below one
 * of those messages' own bottleneck (a backbone, a trunk): eq. 15 charges each alone. Two messages with a host in
 * common (i to i + 1, i + 1 to i + 2) do not count: the relay has that host forward a row once it is received.
 * Returns 1 or 0, or SIM_ENOMEM. */
int sim_routes_relay_shared(const sg_host_t *hosts, int p);

/* The links of the route from hosts[i] to hosts[j] (i, j < n), in route order, into route[(i * stride + j) * max ..]
 * and their number into hops[i * stride + j], numbered from 0 in the order met (none from a host to itself); *whole
 * is 0 when a route has more than max links (it and the rest are not kept). Returns how many links were numbered, or
 * SIM_ENOMEM. */
int sim_routes_ports(const sg_host_t *hosts, int n, int stride, int max, short *route, unsigned char *hops, int *whole);

#endif
