/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* MPI's collectives other than the broadcast as plans of point-to-point operations per member (pure), with SMPI 3.32's
 * algorithms (src/smpi/colls/ and smpi_nbc_impl.cpp) and its default choices (docs/ti-replay.md). */
#include "sim_coll.h"
#include "sim_coll_ops.h"

#include <limits.h>
#include <string.h>

/* The algorithms' indices in the name lists below (0 is every kind's default). */
enum { BARRIER_BRUCK = 1, BARRIER_TREE = 2 };
enum { REDUCE_FLAT_TREE = 1, REDUCE_BINOMIAL = 2 };
enum { ALLREDUCE_RDB = 2, ALLREDUCE_LR = 3 };
enum { GATHER_BINOMIAL = 1 }; /* and scatter's */
enum { ALLGATHER_RDB = 2 };   /* 1, the ring, is what is not rdb */
enum { ALLTOALL_PAIR = 1, ALLTOALL_RING = 2, ALLTOALL_BRUCK = 3, ALLTOALL_LINEAR = 4 };
enum { REDUCE_SCATTER_PAIR = 1 };

const char *const sim_coll_barrier_names[] = {"default", "ompi_bruck", "ompi_tree", NULL};
const char *const sim_coll_reduce_names[] = {"default", "flat_tree", "binomial", NULL};
const char *const sim_coll_allreduce_names[] = {"default", "redbcast", "rdb", "lr", NULL};
const char *const sim_coll_gather_names[] = {"default", "ompi_binomial", NULL};
const char *const sim_coll_allgather_names[] = {"default", "ring", "rdb", NULL};
const char *const sim_coll_scatter_names[] = {"default", "ompi_binomial", NULL};
const char *const sim_coll_alltoall_names[] = {"default", "pair", "ring", "bruck", "basic_linear", NULL};
const char *const sim_coll_reduce_scatter_names[] = {"default", "mpich_pair", NULL};
static const char *const only_default[] = {"default", NULL};

const char *const *const sim_coll_alg_names[SIM_COLL_KINDS] = {sim_coll_barrier_names,        sim_bcast_names,
                                                               sim_coll_reduce_names,         sim_coll_allreduce_names,
                                                               sim_coll_gather_names,         sim_coll_allgather_names,
                                                               sim_coll_scatter_names,        sim_coll_alltoall_names,
                                                               sim_coll_reduce_scatter_names, only_default};
const char *const sim_coll_kind_names[SIM_COLL_KINDS] = {"barrier",   "bcast",   "reduce",   "allreduce",      "gather",
                                                         "allgather", "scatter", "alltoall", "reduce_scatter", "scan"};

int sim_coll_alg_parse(sim_coll_kind_t kind, const char *name)
{
  for (int alg = 0; sim_coll_alg_names[kind][alg]; alg++)
    if (strcmp(name, sim_coll_alg_names[kind][alg]) == 0)
      return alg;
  return -1;
}

/* Member i's piece of a gather, scatter or allgather: `bytes` each, or counts[i], laid out in member order. */
static double block_len(const sim_coll_call_t *c, int i)
{
  return c->counts ? c->counts[i] : c->bytes;
}

static double block_off(const sim_coll_call_t *c, int i)
{
  if (!c->counts)
    return c->bytes * i;
  double off = 0;
  for (int j = 0; j < i; j++)
    off += c->counts[j];
  return off;
}

static void post_block(const sim_coll_call_t *c, const out_t *out, int send, int peer, int block)
{
  double off = block_off(c, block);
  post(out, send, peer, off, off + block_len(c, block), 0);
}

static int is_power_of_two(int n)
{
  return (n & (n - 1)) == 0;
}

/* SMPI's non-blocking linear collectives (igather, iscatter, ireduce): every member but the root posts its message to
 * the root, the root posts one per member; all wait. */
static void linear_to_root(const sim_coll_call_t *c, int n, int me, int to_root, int combine, const out_t *out)
{
  if (me != c->root) {
    if (combine)
      post(out, to_root, c->root, 0, c->bytes, 0);
    else
      post_block(c, out, to_root, c->root, me);
  }
  for (int i = 0; me == c->root && i < n; i++)
    if (i != me) {
      if (combine)
        post(out, !to_root, i, 0, c->bytes, 1);
      else
        post_block(c, out, !to_root, i, i);
    }
  wait_all(out);
}

/* Binomial reduce or gather towards the root, relative ranks as in the binomial broadcast: a member receives from its
 * children rel + 1, rel + 2, rel + 4, ... below its lowest set bit, then sends to rel minus that bit. A reduction
 * moves the whole data each time, a gather the pieces of the sender's subtree (in the order relative to the root). */
static void binomial_up(const sim_coll_call_t *c, int n, int me, int gather, const out_t *out)
{
  int rel = (me - c->root + n) % n;
  int low = low_bit(rel, n);
  for (int mask = 1; mask < low && rel + mask < n; mask <<= 1) {
    int peer = (rel + mask + c->root) % n;
    int end = rel + 2 * mask < n ? rel + 2 * mask : n;
    sim_coll_op_t op = {.peer = peer,
                        .offset = gather ? c->bytes * (rel + mask) : 0,
                        .bytes = gather ? c->bytes * (end - rel - mask) : c->bytes,
                        .combine = !gather};
    out->emit(out->ctx, &op);
  }
  if (rel != 0) {
    int end = rel + low < n ? rel + low : n;
    put(out, 1, (rel - low + c->root) % n, gather ? c->bytes * rel : 0, gather ? c->bytes * end : c->bytes);
  }
}

/* The binomial broadcast (or scatter) of the broadcasts above, of `bytes` from `root`. */
static void binomial_down(int n, int root, double bytes, int scatter, int me, const out_t *out)
{
  sim_coll_plan_t plan = {.alg = SIM_BCAST_BINOMIAL, .count = n, .root = root, .bytes = bytes};
  sim_coll_binomial_tree(&plan, me, scatter, out);
}

/* Exchanges with `peer` (posted both ways, then waited for): SMPI's sendrecv. */
static void exchange(const out_t *out, int peer, double send_from, double send_to, double recv_from, double recv_to,
                     int combine)
{
  post(out, 1, peer, send_from, send_to, 0);
  post(out, 0, peer, recv_from, recv_to, combine);
  wait_all(out);
}

/* Ring allgather of the members' pieces: at step j member me passes piece me - j + 1 right and gets me - j from the
 * left. */
static void ring_allgather_pieces(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  for (int j = 1; j < n; j++) {
    int q_out = (me - j + 1 + n) % n;
    int q_in = (me - j + n) % n;
    double oo = block_off(c, q_out);
    double oi = block_off(c, q_in);
    post(out, 1, (me + 1) % n, oo, oo + block_len(c, q_out), 0);
    post(out, 0, (me - 1 + n) % n, oi, oi + block_len(c, q_in), 0);
    wait_all(out);
  }
}

static void allgather(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  if (c->alg == ALLGATHER_RDB && is_power_of_two(n) &&
      !c->counts) { /* recursive doubling: the held range doubles each step */
    for (int mask = 1; mask < n; mask <<= 1) {
      int peer = me ^ mask;
      int mine = me & ~(mask - 1);
      int theirs = peer & ~(mask - 1);
      exchange(out, peer, c->bytes * mine, c->bytes * (mine + mask), c->bytes * theirs, c->bytes * (theirs + mask), 0);
    }
    return;
  }
  if (c->alg != 0) { /* the ring, also for rdb when n is not a power of two */
    ring_allgather_pieces(c, n, me, out);
    return;
  }
  for (int i = 0; i < n; i++) /* SMPI's iallgather: every member posts its piece to every other one */
    if (i != me) {
      post_block(c, out, 1, i, me);
      post_block(c, out, 0, i, i);
    }
  wait_all(out);
}

/* MPICH's recursive doubling allreduce: with n not a power of two, the first 2 * rem members pair up and the even
 * ones hand their data to the odd ones and sit out. */
static void allreduce_rdb(double bytes, int n, int me, const out_t *out)
{
  int pof2 = 1;
  while (pof2 * 2 <= n)
    pof2 *= 2;
  int rem = n - pof2;
  int newrank = me >= 2 * rem ? me - rem : me % 2 ? me / 2 : -1;
  if (me < 2 * rem) {
    sim_coll_op_t op = {.send = me % 2 == 0, .peer = me % 2 ? me - 1 : me + 1, .bytes = bytes, .combine = me % 2};
    out->emit(out->ctx, &op);
  }
  for (int mask = 1; newrank >= 0 && mask < pof2; mask <<= 1) {
    int newdst = newrank ^ mask;
    int dst = newdst < rem ? newdst * 2 + 1 : newdst + rem;
    exchange(out, dst, 0, bytes, 0, bytes, 1);
  }
  if (me < 2 * rem)
    put(out, me % 2, me % 2 ? me - 1 : me + 1, 0, bytes);
}

/* Ring allreduce (SMPI's lr): a ring reduce-scatter of n pieces, then a ring allgather of the reduced pieces. */
static void allreduce_ring(double bytes, int n, int me, const out_t *out)
{
  for (int j = 0; j < n - 1; j++) {
    int q_out = (me - j + n) % n;
    int q_in = (me - j - 1 + n) % n;
    post(out, 1, (me + 1) % n, cut(bytes, n, q_out), cut(bytes, n, q_out + 1), 0);
    post(out, 0, (me - 1 + n) % n, cut(bytes, n, q_in), cut(bytes, n, q_in + 1), 1);
    wait_all(out);
  }
  for (int j = 0; j < n - 1; j++) {
    int q_out = (me + 1 - j + n) % n;
    int q_in = (me - j + n) % n;
    post(out, 1, (me + 1) % n, cut(bytes, n, q_out), cut(bytes, n, q_out + 1), 0);
    post(out, 0, (me - 1 + n) % n, cut(bytes, n, q_in), cut(bytes, n, q_in + 1), 0);
    wait_all(out);
  }
}

/* Block (src, dst) of an alltoall lies at (src * n + dst) * bytes; with per-member counts, offsets are not tracked. */
static void alltoall_pair_ops(const sim_coll_call_t *c, int n, int me, int peer_to, int peer_from, const out_t *out)
{
  double to = c->counts ? c->counts[peer_to] : c->bytes;
  double from = c->counts2 ? c->counts2[peer_from] : c->bytes;
  double off_to = c->counts ? 0 : c->bytes * ((double)me * n + peer_to);
  double off_from = c->counts ? 0 : c->bytes * ((double)peer_from * n + me);
  post(out, 1, peer_to, off_to, off_to + to, 0);
  post(out, 0, peer_from, off_from, off_from + from, 0);
}

/* One piece of a Bruck round: the block in slot j of member `at` (which owns the round's message), whose slots below
 * bit `pof2` have been passed on already: it came from member at - (j mod pof2) and goes to that member + j. */
static void bruck_piece(const sim_coll_call_t *c, int n, int at, int j, int pof2, int send, int peer, int more,
                        const out_t *out)
{
  int src = ((at - (j & (pof2 - 1))) % n + n) % n;
  double off = c->bytes * ((double)src * n + (src + j) % n);
  sim_coll_op_t op = {.send = send, .peer = peer, .offset = off, .bytes = c->bytes, .post = 1, .more = more};
  out->emit(out->ctx, &op);
}

/* The last slot with bit pof2 among 1..n-1: the one whose piece ends the round's message. */
static int bruck_last(int n, int pof2)
{
  int last = 0;
  for (int j = 1; j < n; j++)
    if (j & pof2)
      last = j;
  return last;
}

/* Bruck's alltoall (SMPI's alltoall__bruck): member me's slot j starts with its block for me + j; in the round of each
 * power of two pof2 < n it sends the blocks of the slots with bit pof2 to me + pof2 as one packed message and receives
 * the same slots from me - pof2 (a sendrecv). After the last round slot j holds the block from me - j. SMPI's local
 * rotations before and after (sendrecvs of a member with itself) are memory copies here. */
static void alltoall_bruck(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  for (int pof2 = 1; pof2 < n; pof2 <<= 1) {
    int to = (me + pof2) % n;
    int from = (me - pof2 + n) % n;
    int last = bruck_last(n, pof2);
    for (int j = 1; j < n; j++)
      if (j & pof2)
        bruck_piece(c, n, me, j, pof2, 1, to, j != last, out);
    for (int j = 1; j < n; j++)
      if (j & pof2)
        bruck_piece(c, n, from, j, pof2, 0, from, j != last, out);
    wait_all(out);
  }
}

/* Whether SMPI 3.32's default alltoall (alltoall__default is alltoall__ompi, smpi_openmpi_selector.cpp) runs Bruck's
 * ("modified_bruck", its algorithm 3) for n members sending `bytes` to each: small blocks from 16 members on. Its other
 * choices are the linear ones but for its pairwise exchange of large blocks (not followed: the linear one runs). */
static int ompi_uses_bruck(int n, double bytes)
{
  static const struct {
    int below;       /* members */
    double min, max; /* block bytes in [min, max) */
  } bruck[] = {{16, 0, 0},     {32, 4, 512},   {64, 0, 512},   {128, 0, 1024},  {256, 0, 1024},
               {512, 0, 1024}, {1024, 0, 512}, {2048, 0, 512}, {4096, 0, 1024}, {INT_MAX, 0, 2048}};
  for (size_t i = 0; i < sizeof bruck / sizeof bruck[0]; i++)
    if (n < bruck[i].below)
      return bytes >= bruck[i].min && bytes < bruck[i].max;
  return 0;
}

/* SMPI's linear alltoall (every message posted at once: basic_linear, and the default but for Bruck's), or the pairwise
 * exchange: at step k with member me XOR k (pair, for a power of two) or to me + k and from me - k (ring), or Bruck's.
 */
static void alltoall(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  if (!c->counts && (c->alg == ALLTOALL_BRUCK || (c->alg == 0 && ompi_uses_bruck(n, c->bytes)))) {
    alltoall_bruck(c, n, me, out);
    return;
  }
  if (c->alg == 0 || c->alg == ALLTOALL_LINEAR || c->counts) {
    for (int i = 0; i < n; i++)
      if (i != me)
        alltoall_pair_ops(c, n, me, i, i, out);
    wait_all(out);
    return;
  }
  for (int k = 1; k < n; k++) {
    if (c->alg == ALLTOALL_PAIR && is_power_of_two(n))
      alltoall_pair_ops(c, n, me, me ^ k, me ^ k, out);
    else
      alltoall_pair_ops(c, n, me, (me + k) % n, (me - k + n) % n, out);
    wait_all(out);
  }
}

static void barrier(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  if (c->alg == BARRIER_BRUCK) { /* dissemination (ompi_bruck): round k with the members 2^k away */
    for (int dist = 1; dist < n; dist <<= 1) {
      post(out, 1, (me + dist) % n, 0, 0, 0);
      post(out, 0, (me - dist + n) % n, 0, 0, 0);
      wait_all(out);
    }
    return;
  }
  if (c->alg == BARRIER_TREE) { /* a binomial gather of empty messages to member 0, then the binomial broadcast */
    sim_coll_call_t up = {.kind = SIM_COLL_REDUCE, .root = 0};
    binomial_up(&up, n, me, 0, out);
    binomial_down(n, 0, 0, 0, me, out);
    return;
  }
  if (me != 0) { /* ompi_basic_linear */
    put(out, 1, 0, 0, 0);
    put(out, 0, 0, 0, 0);
    return;
  }
  for (int i = 1; i < n; i++)
    post(out, 0, i, 0, 0, 0);
  wait_all(out);
  for (int i = 1; i < n; i++)
    post(out, 1, i, 0, 0, 0);
  wait_all(out);
}

static void reduce(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  if (c->alg == REDUCE_BINOMIAL) {
    binomial_up(c, n, me, 0, out);
  } else if (c->alg == REDUCE_FLAT_TREE) { /* flat tree: the root receives from every member in turn */
    if (me != c->root)
      put(out, 1, c->root, 0, c->bytes);
    for (int i = 0; me == c->root && i < n; i++)
      if (i != me) {
        sim_coll_op_t op = {.peer = i, .bytes = c->bytes, .combine = 1};
        out->emit(out->ctx, &op);
      }
  } else {
    linear_to_root(c, n, me, 1, 1, out);
  }
}

/* MPICH's pairwise reduce-scatter (SMPI's reduce_scatter__mpich_pair, reduce_scatter-mpich.cpp): at step i member me
 * posts its contribution to block me + i to that member and receives one for its own block from me - i, reduced in. */
static void reduce_scatter_pair(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  for (int i = 1; i < n; i++) {
    int dst = (me + i) % n;
    int src = (me - i + n) % n;
    post(out, 1, dst, block_off(c, dst), block_off(c, dst) + block_len(c, dst), 0);
    post(out, 0, src, block_off(c, me), block_off(c, me) + block_len(c, me), 1);
    wait_all(out);
  }
}

static int counts_equal(const sim_coll_call_t *c, int n)
{
  for (int i = 1; c->counts && i < n; i++)
    if (c->counts[i] != c->counts[0])
      return 0;
  return 1;
}

/* SMPI's default reduce-scatter (reduce_scatter__default, smpi_default_selector.cpp): for equal counts a reduce of the
 * whole to member 0, then its linear scatter; for unequal ones reduce_scatter__mpich, whose op (the replay's
 * MPI_OP_NULL) counts as commutative: the pairwise exchange above 524288 elements of c->bytes bytes. Below that
 * MPICH's recursive doubling (mpich_rdb) is not implemented: the reduce and scatter stand in for it. */
static void reduce_scatter(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  double total = block_off(c, n);
  if (c->alg == REDUCE_SCATTER_PAIR || (!counts_equal(c, n) && total > 524288 * fmax(c->bytes, 1))) {
    reduce_scatter_pair(c, n, me, out);
    return;
  }
  sim_coll_call_t whole = {.kind = SIM_COLL_REDUCE, .bytes = total};
  linear_to_root(&whole, n, me, 1, 1, out);
  sim_coll_call_t pieces = {.kind = SIM_COLL_SCATTER, .counts = c->counts, .bytes = c->bytes};
  linear_to_root(&pieces, n, me, 0, 0, out);
}

/* SMPI's linear scan: every member posts its data to every later member and receives from every earlier one. */
static void scan(const sim_coll_call_t *c, int n, int me, const out_t *out)
{
  for (int i = 0; i < me; i++)
    post(out, 0, i, 0, c->bytes, 1);
  for (int i = me + 1; i < n; i++)
    post(out, 1, i, 0, c->bytes, 0);
  wait_all(out);
}

int sim_coll_plan_call(const sim_coll_call_t *call, int count, int me, sim_coll_emit_fn emit, void *ctx)
{
  out_t out = {.emit = emit, .ctx = ctx};
  if (count < 2)
    return 0;
  switch (call->kind) {
  case SIM_COLL_BCAST: {
    sim_coll_plan_t plan = {.alg = call->alg, .count = count, .root = call->root, .bytes = call->bytes};
    return sim_coll_plan(&plan, me, emit, ctx);
  }
  case SIM_COLL_BARRIER:
    barrier(call, count, me, &out);
    break;
  case SIM_COLL_REDUCE:
    reduce(call, count, me, &out);
    break;
  case SIM_COLL_ALLREDUCE:
    if (call->alg == ALLREDUCE_RDB)
      allreduce_rdb(call->bytes, count, me, &out);
    else if (call->alg == ALLREDUCE_LR)
      allreduce_ring(call->bytes, count, me, &out);
    else { /* SMPI's default (redbcast): its default reduce to member 0, then its default broadcast */
      sim_coll_call_t to_zero = {.kind = SIM_COLL_REDUCE, .bytes = call->bytes};
      linear_to_root(&to_zero, count, me, 1, 1, &out);
      binomial_down(count, 0, call->bytes, 0, me, &out);
    }
    break;
  case SIM_COLL_GATHER:
    if (call->alg == GATHER_BINOMIAL && !call->counts)
      binomial_up(call, count, me, 1, &out);
    else
      linear_to_root(call, count, me, 1, 0, &out);
    break;
  case SIM_COLL_SCATTER:
    if (call->alg == GATHER_BINOMIAL && !call->counts)
      binomial_down(count, call->root, call->bytes * count, 1, me, &out);
    else
      linear_to_root(call, count, me, 0, 0, &out);
    break;
  case SIM_COLL_ALLGATHER:
    allgather(call, count, me, &out);
    break;
  case SIM_COLL_ALLTOALL:
    alltoall(call, count, me, &out);
    break;
  case SIM_COLL_REDUCE_SCATTER:
    reduce_scatter(call, count, me, &out);
    break;
  default:
    scan(call, count, me, &out);
    break;
  }
  return 0;
}
