/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A broadcast's routes for the models: hops by member, and the overlap of a root's eager sends. Members at the same
 * distance receive in step, so their flows start together, and a link they share cannot carry n flows of l bytes in
 * less than their latency plus n l / bandwidth (a bottleneck bound on SimGrid's max-min sharing); members at other
 * distances receive out of step, a message time apart, and are taken not to overlap (checked against the simulation
 * on shipped and generated platforms by tests/test_stu_models.c). */
#include "sim_routes.h"
#include "sim_engine.h"
#include "sim_error.h"

#include <limits.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdlib.h>
#include <xbt/dynar.h>

/* Up to 32 roots sampled, and up to ROUTES_BUDGET routes gathered in all: every root gathers the routes to all p
 * ranks, and their links are sorted, so 32 roots cost 32 p routes of up to sqrt(p) links each on a mesh (at 32,768
 * ranks, 125 CPU s of a 32,768-rank ping-ring's run went here). Up to 4096 ranks every root is kept; beyond, fewer
 * (16 at 8192, 2 at 65,536, 1 from 131,072), docs/scale.md. */
enum { ROUTES_MAX_ROOTS = 32, ROUTES_BUDGET = ROUTES_MAX_ROOTS * 4096 };
/* Beyond ROUTES_BUDGET ranks even one root's routes to everyone are too many (a 1024 x 1024 mesh: about 700 million
 * links), so its one-to-all members are sampled: every k-th rank, at most ROUTES_SAMPLE, their hops scaled to all
 * members; the busiest shared link is then the sample's (a lower bound), and the farthest member the sample's. */
enum { ROUTES_SAMPLE = 4096 };

/* The routes from one root to its members: every member's links, one after the other. */
typedef struct routes {
  const_sg_link_t *links; /* all routes' links */
  int *start;             /* route i is links[start[i] .. start[i + 1] - 1] */
  int count;
} routes_t;

/* A link on the route to a member `hops` away: flows to members at the same distance start together. */
typedef struct crossing {
  const_sg_link_t link;
  int hops;
} crossing_t;

static int compare_crossings(const void *a, const void *b)
{
  const crossing_t *x = a;
  const crossing_t *y = b;
  if (x->link != y->link)
    return x->link < y->link ? -1 : 1;
  return (x->hops > y->hops) - (x->hops < y->hops);
}

/* Routes from hosts[root] to hosts[dst[i]] into r (freed by the caller, also on failure). 0, or SIM_ENOMEM. */
static int gather(const sg_host_t *hosts, int root, const int *dst, int count, routes_t *r)
{
  xbt_dynar_t dyn = xbt_dynar_new(sizeof(sg_link_t), NULL);
  r->count = count;
  r->start = calloc((size_t)count + 1, sizeof *r->start);
  r->links = NULL;
  int rc = r->start ? 0 : SIM_ENOMEM;
  for (int i = 0; rc == 0 && i < count; i++) {
    xbt_dynar_reset(dyn);
    sg_host_get_route(hosts[root], hosts[dst[i]], dyn);
    int len = (int)xbt_dynar_length(dyn);
    int total = r->start[i];
    const_sg_link_t *grown = realloc(r->links, ((size_t)total + (size_t)len + 1) * sizeof *grown);
    if (!grown) {
      rc = SIM_ENOMEM;
      break;
    }
    r->links = grown;
    for (int j = 0; j < len; j++)
      r->links[total + j] = xbt_dynar_get_as(dyn, j, sg_link_t);
    r->start[i + 1] = total + len;
  }
  xbt_dynar_free(&dyn);
  return rc;
}

/* The index of the first crossing not below `key` in the sorted crossings (binary search). */
static int lower_bound(const crossing_t *sorted, int total, crossing_t key)
{
  int lo = 0;
  int hi = total;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (compare_crossings(&sorted[mid], &key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* How many routes of `hops` links (of any length: hops < 0) cross `link` (no route is INT_MAX links long). */
static int crossings(const crossing_t *sorted, int total, const_sg_link_t link, int hops)
{
  int from = hops < 0 ? INT_MIN : hops;
  int to = hops < 0 ? INT_MAX : hops + 1;
  return lower_bound(sorted, total, (crossing_t){link, to}) - lower_bound(sorted, total, (crossing_t){link, from});
}

/* The length of the shortest route crossing `link` (one of the routes does). */
static int nearest_crossing(const crossing_t *sorted, int total, const_sg_link_t link)
{
  return sorted[lower_bound(sorted, total, (crossing_t){link, INT_MIN})].hops;
}

/* Whether `flows` on a link of bandwidth bw, the nearest `hops` away, load it more than `busiest` (flows / bw): then
 * its extra seconds per byte (flows - 1) / bw into *share, hops into *share_hops, and its load returned. */
static double heavier(int flows, double bw, int hops, double busiest, double *share, double *share_hops)
{
  double load = flows / bw;
  if (flows < 2 || load < busiest || (load == busiest && hops >= *share_hops))
    return busiest;
  *share = (flows - 1) / bw;
  *share_hops = hops;
  return load;
}

/* One root's figures into *out: hops summed and at most, and its busiest shared link (the most flows to members at one
 * distance per bandwidth; of those, the nearest): the extra seconds per byte its other flows cost, and their hops. */
static int one_root(const sg_host_t *hosts, int root, const int *dst, int count, met_bcast_routes_t *out)
{
  routes_t r;
  *out = (met_bcast_routes_t){.members = count};
  int rc = gather(hosts, root, dst, count, &r);
  int total = rc == 0 ? r.start[count] : 0;
  crossing_t *sorted = rc == 0 ? malloc(((size_t)total + 1) * sizeof *sorted) : NULL;
  if (rc == 0 && !sorted)
    rc = SIM_ENOMEM;
  for (int i = 0; rc == 0 && i < count; i++)
    for (int j = r.start[i]; j < r.start[i + 1]; j++)
      sorted[j] = (crossing_t){.link = r.links[j], .hops = r.start[i + 1] - r.start[i]};
  if (rc == 0)
    qsort(sorted, (size_t)total, sizeof *sorted, compare_crossings);
  double busiest = 0;     /* flows in step / bandwidth of the busiest shared link so far */
  double busiest_all = 0; /* all flows / bandwidth */
  for (int i = 0; rc == 0 && i < count; i++) {
    int hops = r.start[i + 1] - r.start[i];
    for (int j = r.start[i]; j < r.start[i + 1]; j++) {
      double bw = sg_link_get_bandwidth(r.links[j]);
      int shared = sg_link_is_shared(r.links[j]);
      int in_step = shared ? crossings(sorted, total, r.links[j], hops) : 1;
      int all = shared ? crossings(sorted, total, r.links[j], -1) : 1;
      busiest = heavier(in_step, bw, hops, busiest, &out->share, &out->share_hops);
      busiest_all = heavier(all, bw, nearest_crossing(sorted, total, r.links[j]), busiest_all, &out->share_all,
                            &out->share_all_hops);
    }
    out->hops_sum += hops;
    out->hops_max = out->hops_max > hops ? out->hops_max : hops;
  }
  if (out->share == 0) /* no link shared: the farthest member alone */
    out->share_hops = out->hops_max;
  if (out->share_all == 0)
    out->share_all_hops = out->hops_max;
  free(sorted);
  free(r.links);
  free(r.start);
  return rc;
}

/* The members of root's broadcast into dst (every other rank, or its neighbours in rank order, or beyond
 * ROUTES_BUDGET ranks a sample of every other rank); their number. */
static int members(int p, int root, int neighbours_only, int *dst)
{
  int stride = !neighbours_only && p > ROUTES_BUDGET ? (p + ROUTES_SAMPLE - 1) / ROUTES_SAMPLE : 1;
  int count = 0;
  for (int i = 0; i < p; i += stride)
    if (i != root && (!neighbours_only || i == root - 1 || i == root + 1))
      dst[count++] = i;
  return count;
}

static void add_scaled(met_bcast_routes_t *sum, const met_bcast_routes_t *one, double weight)
{
  sum->members += weight * one->members;
  sum->hops_sum += weight * one->hops_sum;
  sum->hops_max += weight * one->hops_max;
  sum->share += weight * one->share;
  sum->share_hops += weight * one->share_hops;
  sum->share_all += weight * one->share_all;
  sum->share_all_hops += weight * one->share_all_hops;
}

/* The neighbour broadcast is a relay along the ranks: every member but the ends handles two messages a step (the root
 * sends two, a relay receives one and passes it on), so synchronous sends pace it at two messages of the mean hop
 * between neighbours (eq. 15; one for p = 2), and eager ones at its slowest hop alone (lower bound: the relay's
 * members receive a hop apart), or with the root's two sends sharing its links (upper, from the roots above). */
static void relay(const sg_host_t *hosts, int p, met_bcast_routes_t *r)
{
  double sum = 0;
  int longest = 0;
  for (int i = 0; i + 1 < p; i++) {
    int hops = sim_engine_hops(hosts[i], hosts[i + 1]);
    sum += hops;
    longest = longest > hops ? longest : hops;
  }
  r->members = p > 2 ? 2 : 1;
  r->hops_sum = r->members * sum / (p - 1);
  r->hops_max = r->share_hops = longest;
  r->share = 0;
}

int sim_routes_describe(const sg_host_t *hosts, int p, met_bcast_routes_t *one_to_all, met_bcast_routes_t *neighbour,
                        met_bcast_routes_t *from_rank0)
{
  *one_to_all = *neighbour = *from_rank0 = (met_bcast_routes_t){0};
  if (p <= 1)
    return 0;
  int *dst = malloc((size_t)p * sizeof *dst);
  if (!dst)
    return SIM_ENOMEM;
  int roots = p < ROUTES_MAX_ROOTS ? p : ROUTES_MAX_ROOTS;
  if (roots > ROUTES_BUDGET / p)
    roots = ROUTES_BUDGET / p > 1 ? ROUTES_BUDGET / p : 1;
  int rc = 0;
  for (int k = 0; rc == 0 && k < roots; k++) {
    int root = (int)((long)k * p / roots);
    met_bcast_routes_t all = {0};
    met_bcast_routes_t near = {0};
    int count = members(p, root, 0, dst);
    rc = one_root(hosts, root, dst, count, &all);
    all.hops_sum *= (double)(p - 1) / count; /* a sample's (members) stands for every member's */
    all.members = p - 1;
    rc = rc ? rc : one_root(hosts, root, dst, members(p, root, 1, dst), &near);
    if (rc == 0 && root == 0)
      *from_rank0 = all;
    add_scaled(one_to_all, &all, 1.0 / roots);
    add_scaled(neighbour, &near, 1.0 / roots);
  }
  relay(hosts, p, neighbour);
  free(dst);
  return rc;
}
