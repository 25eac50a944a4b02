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
#include <math.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/dynar.h>

/* Up to 32 roots sampled, and up to ROUTES_BUDGET routes gathered in all: every root gathers the routes to all p
 * ranks, and their links are counted, so 32 roots cost 32 p routes of up to sqrt(p) links each on a mesh (at 32,768
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

/* A link on the route to a member `hops` away (or, in round_shared's uses, of a line's flow). */
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
  r->count = count;
  r->start = calloc((size_t)count + 1, sizeof *r->start);
  r->links = NULL;
  int cap = 0;
  for (int i = 0; r->start && i < count; i++) {
    int total = r->start[i]; /* no buffer yet (cap 0): NULL, as NULL + 0 is undefined (clang's UBSan) */
    int len = sim_engine_route_links(hosts[root], hosts[dst[i]], cap ? r->links + total : NULL, cap - total);
    while (total + len > cap) { /* doubled: grown by one route at a time, it copied all the routes before it */
      int more = cap ? 2 * cap : 1024;
      const_sg_link_t *grown = realloc(r->links, (size_t)more * sizeof *grown);
      if (!grown)
        return SIM_ENOMEM;
      r->links = grown;
      cap = more;
      if (total + len <= cap)
        sim_engine_route_links(hosts[root], hosts[dst[i]], r->links + total, cap - total);
    }
    r->start[i + 1] = total + len;
  }
  return r->start ? 0 : SIM_ENOMEM;
}

/* The routes' crossings of one link: all of them, the length of the shortest route among them, and (while the routes
 * of one length are counted) those of that length; the link's bandwidth and whether it is shared, read once. A slot
 * of an open-addressing table; empty while link is NULL. */
typedef struct tally {
  const_sg_link_t link;
  int count;
  int nearest;
  int in_step;
  int stamp; /* 1 + the route length in_step counts */
  int shared;
  double bw;
} tally_t;

/* The hash table of the links' tallies, kept from one root to the next and emptied after each: `slots` a power of two,
 * at most half of them used. One tally per link the routes cross: a table of 2 tallies per crossing (by link and by
 * link and route length), sized before counting, took 2.4 GiB for one root's routes at 65,536 ranks (docs/scale.md). */
typedef struct tallies {
  tally_t *table;
  size_t slots;
  size_t used;
} tallies_t;

/* The slot of `link` in the table: its tally, or the empty slot where it would go. */
static tally_t *slot_of(const tallies_t *t, const_sg_link_t link)
{
  uint64_t h = (uint64_t)(uintptr_t)link * 0x9E3779B97F4A7C15u;
  size_t mask = t->slots - 1;
  for (size_t i = (size_t)(h ^ h >> 29) & mask;; i = (i + 1) & mask) {
    tally_t *slot = &t->table[i];
    if (!slot->link || slot->link == link)
      return slot;
  }
}

/* Room for one more tally: the table doubled, its tallies moved, when it would be over half full. 0, or SIM_ENOMEM. */
static int room(tallies_t *t)
{
  if (2 * (t->used + 1) <= t->slots)
    return 0;
  tallies_t grown = {.slots = t->slots ? 2 * t->slots : 1024, .used = t->used};
  if (!(grown.table = calloc(grown.slots, sizeof *grown.table)))
    return SIM_ENOMEM;
  for (size_t i = 0; i < t->slots; i++)
    if (t->table[i].link)
      *slot_of(&grown, t->table[i].link) = t->table[i];
  free(t->table);
  *t = grown;
  return 0;
}

/* The tally of `link`, added when new; NULL when out of memory. */
static tally_t *tally_of(tallies_t *t, const_sg_link_t link)
{
  tally_t *slot = t->slots ? slot_of(t, link) : NULL;
  if (slot && slot->link)
    return slot;
  if (room(t) != 0)
    return NULL;
  slot = slot_of(t, link);
  *slot =
      (tally_t){.link = link, .nearest = INT_MAX, .shared = sg_link_is_shared(link), .bw = sg_link_get_bandwidth(link)};
  t->used++;
  return slot;
}

/* Counts every link's crossings by all the routes into t, and writes each crossing's slot in t into at[] (by its
 * place in r's links), so that the passes below read a slot rather than hash a link again; where the table grew on
 * the way (the first roots), the slots are found again once it is whole. 0, or SIM_ENOMEM. */
static int count_crossings(const routes_t *r, tallies_t *t, unsigned *at)
{
  size_t slots = t->slots;
  for (int i = 0; i < r->count; i++)
    for (int j = r->start[i]; j < r->start[i + 1]; j++) {
      int hops = r->start[i + 1] - r->start[i];
      tally_t *any = tally_of(t, r->links[j]);
      if (!any)
        return SIM_ENOMEM;
      any->count++;
      any->nearest = hops < any->nearest ? hops : any->nearest;
      at[j] = (unsigned)(any - t->table);
    }
  for (int j = 0; t->slots != slots && j < r->start[r->count]; j++)
    at[j] = (unsigned)(slot_of(t, r->links[j]) - t->table);
  return 0;
}

/* One pass over the crossings of the routes in `members` (n of them, all `length` links long): each link's in-step
 * count counted (from zero at its first crossing by a route of this length: the tally's stamp), or read into in_step
 * (by the crossing's place in r's links). */
static void step_pass(const routes_t *r, const tallies_t *t, const unsigned *at, const int *members, int n, int length,
                      int read, int *in_step)
{
  for (int m = 0; m < n; m++)
    for (int j = r->start[members[m]]; j < r->start[members[m] + 1]; j++) {
      tally_t *link = &t->table[at[j]];
      if (read)
        in_step[j] = link->in_step;
      else {
        link->in_step = link->stamp == length + 1 ? link->in_step + 1 : 1;
        link->stamp = length + 1;
      }
    }
}

/* Every crossing's count of the routes of its route's length that cross its link, into in_step (by its place in r's
 * links): the routes taken a length at a time, their links counted and read back. 0, or SIM_ENOMEM. */
static int count_in_step(const routes_t *r, const tallies_t *t, const unsigned *at, int *in_step)
{
  int longest = 0;
  for (int i = 0; i < r->count; i++)
    longest = r->start[i + 1] - r->start[i] > longest ? r->start[i + 1] - r->start[i] : longest;
  int *first = calloc((size_t)longest + 2, sizeof *first); /* the routes by length: first[h] .. first[h + 1] - 1 */
  int *members = malloc(((size_t)r->count + 1) * sizeof *members);
  if (!first || !members) {
    free(first);
    free(members);
    return SIM_ENOMEM;
  }
  for (int i = 0; i < r->count; i++)
    first[r->start[i + 1] - r->start[i] + 1]++;
  for (int h = 0; h <= longest; h++)
    first[h + 1] += first[h];
  for (int i = 0; i < r->count; i++)
    members[first[r->start[i + 1] - r->start[i]]++] = i; /* first[h] ends at the start of length h + 1 */
  for (int h = 0, from = 0; h <= longest; from = first[h++]) {
    step_pass(r, t, at, members + from, first[h] - from, h, 0, in_step);
    step_pass(r, t, at, members + from, first[h] - from, h, 1, in_step);
  }
  free(first);
  free(members);
  return 0;
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
static int one_root(const sg_host_t *hosts, int root, const int *dst, int count, tallies_t *t, met_bcast_routes_t *out)
{
  routes_t r;
  *out = (met_bcast_routes_t){.members = count};
  int rc = gather(hosts, root, dst, count, &r);
  size_t crossings = rc == 0 ? (size_t)r.start[count] + 1 : 0;
  int *in_step = rc == 0 ? malloc(crossings * sizeof *in_step) : NULL;
  unsigned *at = rc == 0 ? malloc(crossings * sizeof *at) : NULL;
  if (rc == 0)
    rc = in_step && at ? count_crossings(&r, t, at) : SIM_ENOMEM;
  if (rc == 0)
    rc = count_in_step(&r, t, at, in_step);
  double busiest = 0;     /* flows in step / bandwidth of the busiest shared link so far */
  double busiest_all = 0; /* all flows / bandwidth */
  for (int i = 0; rc == 0 && i < count; i++) {
    int hops = r.start[i + 1] - r.start[i];
    for (int j = r.start[i]; j < r.start[i + 1]; j++) {
      const tally_t *link = &t->table[at[j]];
      busiest = heavier(link->shared ? in_step[j] : 1, link->bw, hops, busiest, &out->share, &out->share_hops);
      busiest_all = heavier(link->shared ? link->count : 1, link->bw, link->nearest, busiest_all, &out->share_all,
                            &out->share_all_hops);
    }
    out->hops_sum += hops;
    out->hops_max = out->hops_max > hops ? out->hops_max : hops;
  }
  if (out->share == 0) /* no link shared: the farthest member alone */
    out->share_hops = out->hops_max;
  if (out->share_all == 0)
    out->share_all_hops = out->hops_max;
  if (t->table) /* emptied for the next root */
    memset(t->table, 0, t->slots * sizeof *t->table);
  t->used = 0;
  free(at);
  free(in_step);
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

/* A line of the grid: `count` members, member i the rank first + i * stride. */
typedef struct line {
  int count, stride;
} line_t;

/* A link a flow crosses with the flow's line in place of its hops (first, so that compare_crossings sorts uses by
 * link, then line), and the flow's own bottleneck: the smallest bandwidth on its route. */
typedef struct use {
  crossing_t at;
  double route_bw;
} use_t;

/* How much the n flows crossing uses[0..n-1] (one link), of one line or of several, slow the slowest of them, at
 * least 1: under SimGrid's max-min sharing the link gives each its bandwidth over n, below the rate a flow gets alone
 * (route_bw) when the link is the narrower, so a flow takes route_bw n / B times as long (the network model's
 * bandwidth factor scales both alike). Progressive filling gives the least rate of all to the flows of the link with
 * the least bandwidth per flow, so the largest factor over a round's links is its slowest message's. FAST's log term
 * charges a tree's rounds one after the other, each message at the rate it gets alone (factor 1). */
static double slowdown(const use_t *uses, int n)
{
  double share = sg_link_get_bandwidth(uses[0].at.link) / n;
  double factor = 1;
  for (int k = 0; k < n; k++)
    factor = fmax(factor, uses[k].route_bw / share);
  return factor;
}

/* The flows of messages sent at once: the links they cross, and the TCP window (network/TCP-gamma, bytes) that
 * bounds a flow's rate to gamma / (2 latency), as met_net_rate. */
typedef struct flows {
  use_t *uses;
  int total;
  xbt_dynar_t dyn;
  double gamma;
} flows_t;

static flows_t flows_new(void)
{
  met_net_t net;
  sim_engine_net(&net);
  return (flows_t){.uses = NULL, .total = 0, .dyn = xbt_dynar_new(sizeof(sg_link_t), NULL), .gamma = net.tcp_gamma};
}

/* Appends the links of the route from hosts[src] to hosts[dst] to f, with the rate a message alone gets on it (its
 * narrowest link's bandwidth, or the TCP window's bound if lower); 0 or SIM_ENOMEM. */
static int add_route(const sg_host_t *hosts, int src, int dst, int line, flows_t *f)
{
  xbt_dynar_reset(f->dyn);
  sg_host_get_route(hosts[src], hosts[dst], f->dyn);
  int len = (int)xbt_dynar_length(f->dyn);
  use_t *grown = realloc(f->uses, ((size_t)f->total + (size_t)len + 1) * sizeof *grown);
  if (!grown)
    return SIM_ENOMEM;
  f->uses = grown;
  double bw = INFINITY;
  double latency = 0;
  for (int j = 0; j < len; j++) {
    bw = fmin(bw, sg_link_get_bandwidth(xbt_dynar_get_as(f->dyn, j, sg_link_t)));
    latency += sg_link_get_latency(xbt_dynar_get_as(f->dyn, j, sg_link_t));
  }
  if (f->gamma > 0 && latency > 0)
    bw = fmin(bw, f->gamma / (2 * latency));
  for (int j = 0; j < len; j++) /* a route crosses a link once */
    grown[f->total++] = (use_t){{xbt_dynar_get_as(f->dyn, j, sg_link_t), line}, bw};
  return 0;
}

/* The largest slowdown (above) over the links of f's flows whose lines span at least `gap` (0: any flows) into
 * *worst, 1 where none slows (freeing f); rc (0 or SIM_ENOMEM) passed on. */
static int worst_slowdown(flows_t *f, int gap, int rc, double *worst)
{
  use_t *uses = f->uses;
  *worst = 1;
  xbt_dynar_free(&f->dyn);
  if (rc == 0 && f->total > 0) /* no flow: uses is NULL, which qsort must not be given (UBSan) */
    qsort(uses, (size_t)f->total, sizeof *uses, compare_crossings);
  for (int k = 0, n = 1; rc == 0 && k < f->total; k += n) {
    for (n = 1; k + n < f->total && uses[k + n].at.link == uses[k].at.link;)
      n++;
    if (uses[k + n - 1].at.hops - uses[k].at.hops >= gap)
      *worst = fmax(*worst, slowdown(uses + k, n));
  }
  free(uses);
  return rc;
}

/* The slowdown of the slowest message of round `span` of every line's binomial tree from relative root `root`, as
 * sim_coll_binomial_tree sends it (the relative members that are multiples of 2 span send to the member span
 * further on, the largest span first), into *worst; 0 or SIM_ENOMEM. Line l starts at rank l * `next`. */
static int round_slowdown(const sg_host_t *hosts, line_t line, int lines, int next, int root, int span, double *worst)
{
  flows_t f = flows_new();
  int rc = 0;
  for (int l = 0; rc == 0 && l < lines; l++)
    for (int i = 0; rc == 0 && i + span < line.count; i += 2 * span)
      rc = add_route(hosts, l * next + (root + i) % line.count * line.stride,
                     l * next + (root + i + span) % line.count * line.stride, l, &f);
  return worst_slowdown(&f, 0, rc, worst);
}

int sim_routes_relay_shared(const sg_host_t *hosts, int p)
{
  flows_t f = flows_new();
  int rc = 0;
  for (int i = 0; rc == 0 && i + 1 < p; i++)
    rc = add_route(hosts, i, i + 1, i, &f);
  double worst;
  rc = worst_slowdown(&f, 2, rc, &worst); /* i to i + 1 and i + 1 to i + 2: one host receives, then forwards */
  return rc ? rc : worst > 1;
}

/* The lines' concurrent trees' rounds, each counted as its slowest message's slowdown, summed over a tree and
 * averaged over the roots (pdgemm's steps take each member as root in turn) into *rounds; 1 when a round of some
 * root is slowed, else 0; SIM_ENOMEM. */
static int lines_rounds(const sg_host_t *hosts, line_t line, int lines, int next, double *rounds)
{
  int rc = 0;
  int shared = 0;
  int top = 1;
  while (2 * top < line.count)
    top *= 2;
  *rounds = 0;
  for (int root = 0; rc == 0 && root < line.count; root++)
    for (int span = top; rc == 0 && span >= 1 && line.count > 1; span /= 2) {
      double worst = 1;
      rc = round_slowdown(hosts, line, lines, next, root, span, &worst);
      shared = shared || worst > 1;
      *rounds += worst / line.count;
    }
  return rc ? rc : shared;
}

int sim_routes_grid_shared(const sg_host_t *hosts, int rows, int cols, double rounds[2])
{
  int rc = lines_rounds(hosts, (line_t){.count = cols, .stride = 1}, rows, cols, &rounds[0]);
  int col = rc < 0 ? rc : lines_rounds(hosts, (line_t){.count = rows, .stride = cols}, cols, 1, &rounds[1]);
  return rc < 0 || col < 0 ? (rc < 0 ? rc : col) : (rc || col);
}

/* The number of `link` among the `*count` numbered so far in seen[], numbering it if new; -1 when out of memory. */
static int number_of(const_sg_link_t link, const_sg_link_t **seen, int *count)
{
  for (int k = 0; k < *count; k++)
    if ((*seen)[k] == link)
      return k;
  const_sg_link_t *grown = realloc(*seen, ((size_t)*count + 1) * sizeof *grown);
  if (!grown)
    return -1;
  *seen = grown;
  grown[*count] = link;
  return (*count)++;
}

/* Numbers the links of the route from hosts[i] to hosts[j] that a second message of the same bottleneck would slow
 * (a bandwidth below twice the route's smallest) into route[0 .. *hops - 1] (at most max); 0, SIM_ENOMEM, or 1 when
 * the route is longer than max. */
static int number_route(const sg_host_t *hosts, int i, int j, int max, xbt_dynar_t dyn, const_sg_link_t **seen,
                        int *count, short *route, unsigned char *hops)
{
  xbt_dynar_reset(dyn);
  if (i != j)
    sg_host_get_route(hosts[i], hosts[j], dyn);
  int len = (int)xbt_dynar_length(dyn);
  *hops = 0;
  if (len > max)
    return 1;
  double bottleneck = INFINITY;
  for (int k = 0; k < len; k++)
    bottleneck = fmin(bottleneck, sg_link_get_bandwidth(xbt_dynar_get_as(dyn, k, sg_link_t)));
  for (int k = 0; k < len; k++) {
    const_sg_link_t link = xbt_dynar_get_as(dyn, k, sg_link_t);
    if (sg_link_get_bandwidth(link) >= 2 * bottleneck)
      continue; /* two such messages at once each keep their bottleneck's rate on it */
    int n = number_of(link, seen, count);
    if (n < 0 || *count >= SHRT_MAX)
      return SIM_ENOMEM;
    route[(*hops)++] = (short)n;
  }
  return 0;
}

int sim_routes_ports(const sg_host_t *hosts, int n, int stride, int max, short *route, unsigned char *hops, int *whole)
{
  const_sg_link_t *seen = NULL;
  int count = 0;
  int rc = 0;
  xbt_dynar_t dyn = xbt_dynar_new(sizeof(sg_link_t), NULL);
  for (int i = 0; rc == 0 && i < n; i++)
    for (int j = 0; rc == 0 && j < n; j++)
      rc = number_route(hosts, i, j, max, dyn, &seen, &count, route + ((size_t)i * stride + j) * max,
                        hops + (size_t)i * stride + j);
  xbt_dynar_free(&dyn);
  free(seen);
  *whole = rc != 1;
  return rc < 0 ? rc : count;
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
  tallies_t t = {0};
  for (int k = 0; rc == 0 && k < roots; k++) {
    int root = (int)((long)k * p / roots);
    met_bcast_routes_t all = {0};
    met_bcast_routes_t near = {0};
    int count = members(p, root, 0, dst);
    rc = one_root(hosts, root, dst, count, &t, &all);
    all.hops_sum *= (double)(p - 1) / count; /* a sample's (members) stands for every member's */
    all.members = p - 1;
    rc = rc ? rc : one_root(hosts, root, dst, members(p, root, 1, dst), &t, &near);
    if (rc == 0 && root == 0)
      *from_rank0 = all;
    add_scaled(one_to_all, &all, 1.0 / roots);
    add_scaled(neighbour, &near, 1.0 / roots);
  }
  relay(hosts, p, neighbour);
  free(t.table);
  free(dst);
  return rc;
}
