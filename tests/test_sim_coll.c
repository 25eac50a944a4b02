/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Broadcast algorithms: every plan, for several group sizes, roots and shapes, delivers every byte to every member
 * exactly once, sends only bytes the sender holds and completes under synchronous messages; the simulated runs follow
 * the plans, and their times on the quiet T800 mesh match the cost models of docs/broadcasts.md worked out by hand. */
#include "sim_coll.h"
#include "sim_coll_ompi.h"
#include "sim_coll_run.h"
#include "sim_map.h"
#include "sim_run.h"
#include "tu.h"
#include "tu_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T800        SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml"
#define MAX_MEMBERS 40
#define MAX_BYTES   1000

/* Seed 001 Table 2 (eq. 4), written from the paper: seconds for l bytes over d hops on a quiet T800 network. */
static double t800(double l, int d)
{
  double us = l <= 120 ? 51.1 + 0.27 * l + 8.86 * d + 0.68 * l * d : -81.5 + 1.33 * l + 93.04 * d + 0.05 * l * d;
  return 1e-6 * us;
}

/* One member's operations, in order. */
typedef struct ops {
  sim_coll_op_t *op;
  size_t count;
  size_t next; /* the first operation not yet carried out */
} ops_t;

static void collect(void *ctx, const sim_coll_op_t *op)
{
  ops_t *ops = ctx;
  sim_coll_op_t *grown = realloc(ops->op, (ops->count + 1) * sizeof *grown);
  CU_ASSERT_FATAL(grown != NULL);
  ops->op = grown;
  ops->op[ops->count++] = *op;
}

/* Carries out the send `s` of member `from` and its matching receive `r`: the sender must hold every byte, the receiver
 * none of them yet. Bytes are counted per member in held[member][byte]. */
static void transfer(int from, int to, const sim_coll_op_t *s, const sim_coll_op_t *r, int held[][MAX_BYTES], int root)
{
  CU_ASSERT(s->offset == r->offset && s->bytes == r->bytes);
  for (int b = (int)s->offset; b < (int)(s->offset + s->bytes); b++) {
    CU_ASSERT(from == root || held[from][b] == 1);
    held[to][b]++;
  }
}

/* Runs the members' plans against each other as synchronous messages: a send and a receive complete together when each
 * names the other. Returns 1 when every operation completed, 0 on a deadlock. */
static int rendezvous(ops_t *ops, int n, int held[][MAX_BYTES], int root)
{
  for (int progress = 1; progress;) {
    progress = 0;
    for (int i = 0; i < n; i++) {
      if (ops[i].next == ops[i].count || !ops[i].op[ops[i].next].send)
        continue;
      const sim_coll_op_t *s = &ops[i].op[ops[i].next];
      ops_t *peer = &ops[s->peer];
      const sim_coll_op_t *r = peer->next < peer->count ? &peer->op[peer->next] : NULL;
      if (!r || r->send || r->peer != i)
        continue;
      transfer(i, s->peer, s, r, held, root);
      ops[i].next++;
      peer->next++;
      progress = 1;
    }
  }
  for (int i = 0; i < n; i++)
    if (ops[i].next != ops[i].count)
      return 0;
  return 1;
}

/* Checks one plan: it completes, and every member but the root ends with each byte received exactly once. */
static void check_plan(const sim_coll_plan_t *plan)
{
  static int held[MAX_MEMBERS][MAX_BYTES];
  ops_t ops[MAX_MEMBERS] = {{0}};
  memset(held, 0, sizeof held);
  for (int me = 0; me < plan->count; me++)
    CU_ASSERT(sim_coll_plan(plan, me, collect, &ops[me]) == 0);
  int completed = rendezvous(ops, plan->count, held, plan->root);
  if (!completed)
    fprintf(stderr, "%s, n = %d, root = %d: deadlock\n", sim_bcast_names[plan->alg], plan->count, plan->root);
  CU_ASSERT(completed);
  int wrong = 0;
  for (int me = 0; me < plan->count; me++) {
    for (int b = 0; b < (int)plan->bytes; b++)
      wrong += held[me][b] != (me != plan->root);
    free(ops[me].op);
  }
  if (wrong)
    fprintf(stderr, "%s, n = %d, root = %d: %d bytes not received exactly once\n", sim_bcast_names[plan->alg],
            plan->count, plan->root, wrong);
  CU_ASSERT_EQUAL(wrong, 0);
}

/* Every algorithm, group sizes 2 to 33 (powers of two, odd, prime), four roots, sizes above and below the group size
 * (zero-byte pieces) and a size that is not a multiple of the segment. */
static void test_sim_coll_every_member_gets_every_byte_once(void)
{
  static const int sizes[] = {2, 3, 4, 5, 7, 8, 12, 13, 16, 31, 33};
  static const double bytes[] = {1000, 5, 300};
  for (int alg = 0; alg < SIM_BCAST_COUNT; alg++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (size_t b = 0; b < sizeof bytes / sizeof bytes[0]; b++) {
        int n = sizes[s];
        int roots[] = {0, 1, n / 2, n - 1};
        for (int r = 0; r < 4; r++) {
          sim_coll_plan_t plan = {.alg = alg, .count = n, .root = roots[r], .bytes = bytes[b]};
          check_plan(&plan);
        }
      }
}

/* The mesh broadcast on real partitions: snake-ordered rectangles of the 16 x 8 mesh, full (4 x 4, 2 x 4) and with
 * spare cells (17 ranks on 3 x 6, where some columns miss the root's row), every root. */
static void test_sim_coll_mesh_on_partitions(void)
{
  static const int sizes[] = {4, 8, 16, 17, 30};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    int n = sizes[s];
    int rows[MAX_MEMBERS];
    int cols[MAX_MEMBERS];
    int height = 0;
    int width = 0;
    CU_ASSERT_FATAL(sim_map_rectangle(n, 16, 8, &height, &width) == 0);
    for (int i = 0; i < n; i++)
      sim_map_snake(i, width, &rows[i], &cols[i]);
    for (int root = 0; root < n; root++) {
      sim_coll_plan_t plan = {
          .alg = SIM_BCAST_MESH, .count = n, .root = root, .bytes = 100, .rows = rows, .cols = cols};
      check_plan(&plan);
    }
  }
}

/* The names round-trip, and an unknown one is refused. */
static void test_sim_coll_names(void)
{
  for (int alg = 0; alg < SIM_BCAST_COUNT; alg++)
    CU_ASSERT_EQUAL(sim_bcast_parse(sim_bcast_names[alg]), alg);
  CU_ASSERT_PTR_NULL(sim_bcast_names[SIM_BCAST_COUNT]);
  CU_ASSERT_EQUAL(sim_bcast_parse("flat"), -1);
}

typedef struct bcast_arg {
  int root;
  double bytes;
} bcast_arg_t;

static void bcast_program(sim_rank_t *rank, const void *arg)
{
  const bcast_arg_t *b = arg;
  sim_bcast(rank, b->root, b->bytes);
}

/* Simulates one broadcast on p ranks of the T800 mesh; the trace, or NULL. */
static met_trace_t *simulate(sim_bcast_alg_t alg, int p, int root, double bytes)
{
  bcast_arg_t arg = {.root = root, .bytes = bytes};
  sim_job_t job = {.platform = T800, .nranks = p, .bcast = alg, .program = bcast_program, .arg = &arg};
  char err[1024];
  met_trace_t *trace = NULL;
  if (tu_sim_run(&job, &trace, err, sizeof err) != 0)
    fprintf(stderr, "simulation failed: %s\n", err);
  return trace;
}

static void count_op(void *ctx, const sim_coll_op_t *op)
{
  (*(size_t *)ctx)++;
}

/* The simulated broadcast does what the plan says: one message (a COMM interval) per planned operation, on every rank,
 * with the mesh coordinates of the hosts (19 ranks take 4 x 5 with a spare cell). */
static void test_sim_coll_runs_follow_the_plans(void)
{
  enum { P = 19 };
  int rows[P];
  int cols[P];
  int height = 0;
  int width = 0;
  CU_ASSERT_FATAL(sim_map_rectangle(P, 16, 8, &height, &width) == 0 && height * width == P + 1);
  for (int i = 0; i < P; i++)
    sim_map_snake(i, width, &rows[i], &cols[i]);
  for (int alg = 0; alg < SIM_BCAST_COUNT; alg++) {
    met_trace_t *trace = simulate(alg, P, 4, 1000);
    CU_ASSERT_FATAL(trace != NULL);
    for (int me = 0; me < P; me++) {
      sim_coll_plan_t plan = {.alg = alg, .count = P, .root = 4, .bytes = 1000, .rows = rows, .cols = cols};
      size_t planned = 0;
      CU_ASSERT(sim_coll_plan(&plan, me, count_op, &planned) == 0);
      size_t comm = 0;
      for (size_t i = 0; i < met_trace_count(trace, me); i++)
        comm += met_trace_intervals(trace, me)[i].category == MET_CAT_COMM;
      CU_ASSERT_EQUAL(comm, planned);
    }
    met_trace_free(trace);
  }
}

/* Times on a quiet network against docs/broadcasts.md, by hand. p = 4 is the 2 x 2 square in snake order: ranks 0, 1,
 * 2, 3 at (0,0), (0,1), (1,1), (1,0), so 0-1, 1-2 and 2-3 are one hop and 0-2 two. */
static void test_sim_coll_times_match_cost_models(void)
{
  struct {
    sim_bcast_alg_t alg;
    int p, root;
    double bytes, expected;
  } cases[] = {
      /* the root sends to 1, 2, 3 in turn */
      {SIM_BCAST_ONE_TO_ALL, 4, 0, 1000, 2 * t800(1000, 1) + t800(1000, 2)},
      /* 0 -> 1 -> 2 -> 3 */
      {SIM_BCAST_NEIGHBOUR, 4, 0, 1000, 3 * t800(1000, 1)},
      /* 0 -> 2, then 0 -> 1 and 2 -> 3 together */
      {SIM_BCAST_BINOMIAL, 4, 0, 1000, t800(1000, 2) + t800(1000, 1)},
      /* k = 3 segments of 128 B over D = 3 hops, each relay receiving then sending: (D + 2 (k - 1)) t */
      {SIM_BCAST_PIPELINE, 4, 0, 384, 7 * t800(128, 1)},
      /* scatter: 0 -> 2 half the data, then 0 -> 1 and 2 -> 3 a quarter; ring: 5 rounds of quarter-size messages,
       * pairs 0 -> 1 and 2 -> 3 alternating with 1 -> 2, less the pieces 2 and 3 already hold */
      {SIM_BCAST_SCATTER_RING, 4, 0, 1000, t800(500, 2) + 6 * t800(250, 1)},
      /* 4 x 4, root 5 at (1, 2): along row 1 to 6 then 4 (6 passes on to 7), then two relays down each column */
      {SIM_BCAST_MESH, 16, 5, 1000, 4 * t800(1000, 1)},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    met_trace_t *trace = simulate(cases[i].alg, cases[i].p, cases[i].root, cases[i].bytes);
    CU_ASSERT_FATAL(trace != NULL);
    double end = met_trace_end(trace);
    if (end < cases[i].expected - 1e-9 || end > cases[i].expected + 1e-9)
      fprintf(stderr, "%s: %.9f s, expected %.9f s\n", sim_bcast_names[cases[i].alg], end, cases[i].expected);
    TU_ASSERT_CLOSE(end, cases[i].expected, 1e-9);
    met_trace_free(trace);
  }
}

/* ---- The other collectives: plans checked under posted semantics, and times by hand ---- */

enum { MAX_DATA = 4096 };

/* A member's posted and blocking operations run against the others': a posted one is open at once, a blocking one
 * when reached, a wait-all waits for every open one. Sends and receives between two members match in the order they
 * open, and must agree on the size. Data is tracked per byte as the set of members whose contribution it holds. */
typedef struct member {
  ops_t ops;
  int open;    /* operations opened and not yet matched */
  int waiting; /* blocked in a blocking operation (open) or a wait-all */
  unsigned long long data[MAX_DATA];
} member_t;

typedef struct pending {
  int from;
  size_t op;                /* index into members[from].ops */
  unsigned long long *sent; /* a send's data as it was when posted (the sender's buffer), or NULL */
} pending_t;

typedef struct checker {
  member_t *m;
  int n;
  int barrier; /* a barrier's messages carry what the sender knows of arrivals, merged without the once rule */
  int errors;
  pending_t queue[2][MAX_MEMBERS][MAX_MEMBERS][64]; /* [send?][src][dst]: open operations in order */
  int len[2][MAX_MEMBERS][MAX_MEMBERS];
} checker_t;

static void open_op(checker_t *c, int me, size_t i)
{
  const sim_coll_op_t *op = &c->m[me].ops.op[i];
  int src = op->send ? me : op->peer;
  int dst = op->send ? op->peer : me;
  int *len = &c->len[op->send][src][dst];
  CU_ASSERT_FATAL(*len < 64);
  unsigned long long *sent = NULL;
  if (op->send) {
    sent = malloc(MAX_DATA * sizeof *sent);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sent);
    memcpy(sent, c->m[me].data, MAX_DATA * sizeof *sent);
  }
  c->queue[op->send][src][dst][(*len)++] = (pending_t){.from = me, .op = i, .sent = sent};
  c->m[me].open++;
}

static void pop(checker_t *c, int send, int src, int dst)
{
  memmove(&c->queue[send][src][dst][0], &c->queue[send][src][dst][1],
          (size_t)(--c->len[send][src][dst]) * sizeof(pending_t));
}

/* Carries out a matched message: the receiver gets (or, combining, reduces in) the sender's bytes, each contribution
 * at most once. */
static void deliver(checker_t *c, int src, const sim_coll_op_t *s, const unsigned long long *sent, int dst,
                    const sim_coll_op_t *r)
{
  if (s->bytes != r->bytes || s->offset != r->offset)
    c->errors++;
  for (int b = (int)s->offset; b < (int)(s->offset + s->bytes) && b < MAX_DATA; b++) {
    unsigned long long have = c->m[dst].data[b];
    unsigned long long got = sent[b];
    if (!got || (!c->barrier && (have & got) && (r->combine || have == got)))
      c->errors++; /* sends what it lacks, or delivers a contribution twice */
    c->m[dst].data[b] = r->combine || c->barrier ? have | got : got;
  }
  if (c->barrier) /* one virtual byte: what the sender knows has arrived */
    c->m[dst].data[0] |= sent[0];
}

static int match_all(checker_t *c)
{
  int progress = 0;
  for (int src = 0; src < c->n; src++)
    for (int dst = 0; dst < c->n; dst++)
      while (c->len[1][src][dst] > 0 && c->len[0][src][dst] > 0) {
        pending_t s = c->queue[1][src][dst][0];
        pending_t r = c->queue[0][src][dst][0];
        deliver(c, src, &c->m[src].ops.op[s.op], s.sent, dst, &c->m[dst].ops.op[r.op]);
        free(s.sent);
        pop(c, 1, src, dst);
        pop(c, 0, src, dst);
        c->m[src].open--;
        c->m[dst].open--;
        progress = 1;
      }
  return progress;
}

/* Advances member `me` as far as it can: 1 when it moved. */
static int advance(checker_t *c, int me)
{
  member_t *m = &c->m[me];
  int moved = 0;
  while (m->ops.next < m->ops.count) {
    const sim_coll_op_t *op = &m->ops.op[m->ops.next];
    if (op->peer == SIM_COLL_WAITALL || (!op->post && m->waiting)) {
      if (m->open > 0)
        return moved;
      m->waiting = 0;
      m->ops.next++;
    } else if (op->post) {
      open_op(c, me, m->ops.next++);
    } else {
      open_op(c, me, m->ops.next);
      m->waiting = 1;
      return 1;
    }
    moved = 1;
  }
  return moved;
}

/* Runs the plans of `call` on n members whose data starts as init(member, byte) gives it; 1 when every member ends
 * with final(member, byte) and nothing was sent twice or without being held, 0 otherwise. */
static int check_call(const sim_coll_call_t *call, int n, unsigned long long (*init)(const sim_coll_call_t *, int, int),
                      unsigned long long (*final)(const sim_coll_call_t *, int, int, int), int size)
{
  static checker_t c;
  static member_t m[MAX_MEMBERS];
  memset(&c, 0, sizeof c);
  memset(m, 0, sizeof m);
  c.m = m;
  c.n = n;
  c.barrier = call->kind == SIM_COLL_BARRIER;
  for (int me = 0; me < n; me++) {
    CU_ASSERT(sim_coll_plan_call(call, n, me, collect, &m[me].ops) == 0);
    for (int b = 0; b < size; b++)
      m[me].data[b] = init(call, me, b);
  }
  for (int progress = 1; progress;) {
    progress = 0;
    for (int me = 0; me < n; me++)
      progress |= advance(&c, me);
    progress |= match_all(&c);
  }
  int ok = c.errors == 0;
  for (int me = 0; me < n; me++) {
    ok &= m[me].ops.next == m[me].ops.count && m[me].open == 0; /* no deadlock */
    for (int b = 0; b < size; b++) {
      if (final(call, n, me, b) != (m[me].data[b] & final(call, n, me, b)) && ok)
        fprintf(stderr, "member %d byte %d: %llx, expected %llx\n", me, b, m[me].data[b], final(call, n, me, b));
      ok &= final(call, n, me, b) == (m[me].data[b] & final(call, n, me, b));
    }
    if (m[me].ops.next != m[me].ops.count && ok)
      fprintf(stderr, "member %d stuck at %zu of %zu\n", me, m[me].ops.next, m[me].ops.count);
    free(m[me].ops.op);
  }
  if (!ok)
    fprintf(stderr, "%s '%s', n = %d, root = %d: wrong (%d bad messages)\n", sim_coll_kind_names[call->kind],
            sim_coll_alg_names[call->kind][call->alg], n, call->root, c.errors);
  return ok;
}

static unsigned long long all_of(int n)
{
  return n == 64 ? ~0ULL : (1ULL << n) - 1;
}

/* Reductions: every member contributes to every byte. */
static unsigned long long own_contribution(const sim_coll_call_t *call, int me, int b)
{
  return 1ULL << me;
}

static unsigned long long reduced(const sim_coll_call_t *call, int n, int me, int b)
{
  switch (call->kind) {
  case SIM_COLL_REDUCE:
    return me == call->root ? all_of(n) : 0;
  case SIM_COLL_SCAN:
    return all_of(me + 1);
  case SIM_COLL_REDUCE_SCATTER: { /* member me's block lies after the counts of the members before it */
    double from = 0;
    for (int i = 0; i < me; i++)
      from += call->counts[i];
    return b >= from && b < from + call->counts[me] ? all_of(n) : 0;
  }
  default:
    return all_of(n);
  }
}

/* Gathers and scatters: block q (of call->bytes bytes) is member q's, or relative member q's (binomial ones). */
static int block_owner(const sim_coll_call_t *call, int n, int b)
{
  int q = (int)(b / call->bytes);
  int binomial = (call->kind == SIM_COLL_GATHER || call->kind == SIM_COLL_SCATTER) && call->alg == 1;
  return binomial ? (q + call->root) % n : q;
}

static int members_for_init; /* n, for the init functions of the block collectives */

static unsigned long long own_block(const sim_coll_call_t *call, int me, int b)
{
  int owner = block_owner(call, members_for_init, b);
  if (call->kind == SIM_COLL_SCATTER)
    return me == call->root ? 1ULL << owner : 0;
  if (call->kind == SIM_COLL_ALLTOALL) /* block (src, dst) at src * n + dst: the source holds it */
    return b / (int)call->bytes / members_for_init == me ? 1ULL << (b / (int)call->bytes) % 64 : 0;
  return owner == me ? 1ULL << owner : 0;
}

static unsigned long long gathered(const sim_coll_call_t *call, int n, int me, int b)
{
  int owner = block_owner(call, n, b);
  switch (call->kind) {
  case SIM_COLL_GATHER:
    return me == call->root ? 1ULL << owner : 0;
  case SIM_COLL_SCATTER:
    return owner == me ? 1ULL << owner : 0;
  case SIM_COLL_ALLTOALL:
    return (b / (int)call->bytes) % n == me ? 1ULL << (b / (int)call->bytes) % 64 : 0;
  default:
    return 1ULL << owner;
  }
}

static unsigned long long arrived(const sim_coll_call_t *call, int me, int b)
{
  return 1ULL << me;
}

static unsigned long long everyone(const sim_coll_call_t *call, int n, int me, int b)
{
  return all_of(n);
}

/* Every algorithm of every kind, members 2 to 33 (powers of two, odd, prime), several roots: no deadlock under posted
 * semantics, matching sizes, and every member ends with exactly the contributions it must hold, none delivered
 * twice (a reduction's) and none sent by a member that did not hold it. */
static void test_sim_coll_every_collective_delivers_once(void)
{
  static const int sizes[] = {2, 3, 4, 5, 7, 8, 12, 13, 16, 31, 33};
  for (int kind = 0; kind < SIM_COLL_KINDS; kind++) {
    if (kind == SIM_COLL_BCAST)
      continue; /* checked above, byte by byte */
    for (int alg = 0; sim_coll_alg_names[kind][alg]; alg++)
      for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        int roots[] = {0, n - 1, n / 2};
        for (int r = 0; r < 3; r++) {
          sim_coll_call_t call = {.kind = kind, .alg = alg, .root = roots[r], .bytes = 3};
          members_for_init = n;
          int ok;
          if (kind == SIM_COLL_BARRIER)
            ok = check_call(&call, n, arrived, everyone, 1);
          else if (kind == SIM_COLL_GATHER || kind == SIM_COLL_ALLGATHER || kind == SIM_COLL_SCATTER ||
                   kind == SIM_COLL_ALLTOALL)
            ok = check_call(&call, n, own_block, gathered, (int)call.bytes * n * (kind == SIM_COLL_ALLTOALL ? n : 1));
          else if (kind == SIM_COLL_REDUCE_SCATTER) {
            double counts[MAX_MEMBERS];
            for (int unequal = 0; unequal < 2; unequal++) { /* equal counts, then 1, 2, 3, 1, ... */
              double total = 0;
              for (int i = 0; i < n; i++)
                total += counts[i] = unequal ? 1 + i % 3 : 3;
              call.counts = counts;
              ok = check_call(&call, n, own_contribution, reduced, (int)total);
              CU_ASSERT(ok);
            }
          } else
            ok = check_call(&call, n, own_contribution, reduced, 3);
          CU_ASSERT(ok);
        }
      }
  }
}

typedef struct call_arg {
  sim_coll_call_t call;
} call_arg_t;

static void call_program(sim_rank_t *rank, const void *arg)
{
  const call_arg_t *c = arg;
  sim_post_at_own_clock(rank, 0, 0);
  CU_ASSERT(sim_coll_run(rank, sim_rank_world(rank), &c->call) == 0);
}

/* One run of each collective on 4 hosts of tests/data/coll/crossbar.xml, by hand: a message alone takes 2 L + l / B
 * (L = 10 us per link, B = 100 MB/s), k messages through one link share it and end together at 2 L + k l / B. With
 * l = 1 MB: t1 = 0.01002 s, t3 = 0.03002 s. */
static void test_sim_coll_times_by_hand(void)
{
  const double L2 = 20e-6;
  const double t1 = L2 + 1e6 / 1e8;
  const double t3 = L2 + 3e6 / 1e8;
  double counts[4] = {1e6, 1e6, 1e6, 1e6};
  struct {
    sim_coll_call_t call;
    double expected;
  } cases[] = {
      /* SMPI's linear gather, scatter, allgather, alltoall, reduce: 3 messages share the root's (every) link */
      {{.kind = SIM_COLL_GATHER, .bytes = 1e6}, t3},
      {{.kind = SIM_COLL_SCATTER, .bytes = 1e6}, t3},
      {{.kind = SIM_COLL_ALLGATHER, .bytes = 1e6}, t3},
      {{.kind = SIM_COLL_ALLTOALL, .bytes = 1e6}, t3},
      {{.kind = SIM_COLL_REDUCE, .bytes = 1e6}, t3},
      /* ring allgather, pairwise alltoall: 3 steps of one message per link */
      {{.kind = SIM_COLL_ALLGATHER, .alg = 1, .bytes = 1e6}, 3 * t1},
      {{.kind = SIM_COLL_ALLTOALL, .alg = 1, .bytes = 1e6}, 3 * t1},
      {{.kind = SIM_COLL_ALLTOALL, .alg = 2, .bytes = 1e6}, 3 * t1},
      {{.kind = SIM_COLL_ALLTOALL, .alg = 4, .bytes = 1e6}, t3}, /* basic_linear: every message posted at once */
      /* Bruck: 2 rounds (to me + 1, then me + 2), each one packed message of slots {1, 3} then {2, 3}: 2 MB */
      {{.kind = SIM_COLL_ALLTOALL, .alg = 3, .bytes = 1e6}, 2 * (L2 + 2e6 / 1e8)},
      /* binomial reduce: 1 -> 0 with 3 -> 2, then 2 -> 0 */
      {{.kind = SIM_COLL_REDUCE, .alg = 2, .bytes = 1e6}, 2 * t1},
      /* binomial gather: 1 -> 0 with 3 -> 2, then 2 -> 0 with two pieces; scatter: the reverse */
      {{.kind = SIM_COLL_GATHER, .alg = 1, .bytes = 1e6}, t1 + L2 + 2e6 / 1e8},
      {{.kind = SIM_COLL_SCATTER, .alg = 1, .bytes = 1e6}, t1 + L2 + 2e6 / 1e8},
      /* recursive doubling: 2 exchanges (the two directions use different links); ring: 6 steps of a quarter */
      {{.kind = SIM_COLL_ALLREDUCE, .alg = 2, .bytes = 1e6}, 2 * t1},
      {{.kind = SIM_COLL_ALLREDUCE, .alg = 3, .bytes = 1e6}, 6 * (L2 + 0.25e6 / 1e8)},
      /* SMPI's default: the linear reduce to 0, then the binomial broadcast from 0 (0 -> 2, then 0 -> 1 with 2 -> 3) */
      {{.kind = SIM_COLL_ALLREDUCE, .bytes = 1e6}, t3 + 2 * t1},
      /* barriers of empty messages: linear in and out, dissemination in 2 rounds, tree up 2 levels and down 2 */
      {{.kind = SIM_COLL_BARRIER}, 2 * L2},
      {{.kind = SIM_COLL_BARRIER, .alg = 1}, 2 * L2},
      {{.kind = SIM_COLL_BARRIER, .alg = 2}, 4 * L2},
      /* reduce-scatter: the linear reduce of 4 MB to 0 (3 messages share its link), then the linear scatter of 1 MB */
      {{.kind = SIM_COLL_REDUCE_SCATTER, .counts = counts}, L2 + 12e6 / 1e8 + t3},
      /* MPICH's pairwise reduce-scatter: 3 steps, each member sending one 1 MB block on its own link */
      {{.kind = SIM_COLL_REDUCE_SCATTER, .alg = 1, .counts = counts}, 3 * t1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    call_arg_t arg = {.call = cases[i].call};
    sim_job_t job = {.platform = SIMRUN_SOURCE_DIR "/tests/data/coll/crossbar.xml",
                     .nranks = 4,
                     .program = call_program,
                     .arg = &arg};
    char err[1024];
    met_trace_t *trace = NULL;
    CU_ASSERT_EQUAL_FATAL(tu_sim_run(&job, &trace, err, sizeof err), 0);
    double end = met_trace_end(trace);
    const sim_coll_call_t *c = &cases[i].call;
    if (end < cases[i].expected - 1e-9 || end > cases[i].expected + 1e-9)
      fprintf(stderr, "%s '%s': %.9f s, expected %.9f s\n", sim_coll_kind_names[c->kind],
              sim_coll_alg_names[c->kind][c->alg], end, cases[i].expected);
    TU_ASSERT_CLOSE(end, cases[i].expected, 1e-9);
    met_trace_free(trace);
  }
}

/* Messages member 0 sends in one alltoall of `bytes` per block among n members (pieces of one message count once). */
static int alltoall_sends(int n, double bytes)
{
  ops_t ops = {0};
  sim_coll_call_t call = {.kind = SIM_COLL_ALLTOALL, .bytes = bytes};
  CU_ASSERT_FATAL(sim_coll_plan_call(&call, n, 0, collect, &ops) == 0);
  int sends = 0;
  for (size_t i = 0; i < ops.count; i++)
    sends += ops.op[i].send && ops.op[i].peer != SIM_COLL_WAITALL && !ops.op[i].more;
  free(ops.op);
  return sends;
}

/* SMPI 3.32's default alltoall (alltoall__ompi) runs Bruck's for blocks below 512 bytes from 32 members (4 to 511
 * bytes from 16), below 1024 from 64: log2 n messages per member; otherwise the linear one's n - 1. */
static void test_sim_coll_default_alltoall_as_smpi(void)
{
  CU_ASSERT_EQUAL(alltoall_sends(8, 100), 7);
  CU_ASSERT_EQUAL(alltoall_sends(16, 3), 15);
  CU_ASSERT_EQUAL(alltoall_sends(16, 4), 4);
  CU_ASSERT_EQUAL(alltoall_sends(32, 511), 5);
  CU_ASSERT_EQUAL(alltoall_sends(32, 512), 31);
  CU_ASSERT_EQUAL(alltoall_sends(64, 1023), 6);
  CU_ASSERT_EQUAL(alltoall_sends(64, 1024), 63);
}

/* The operations of member `me` in `call` among n members. */
static ops_t plan_of(const sim_coll_call_t *call, int n, int me)
{
  ops_t ops = {0};
  CU_ASSERT(sim_coll_plan_call(call, n, me, collect, &ops) == 0);
  return ops;
}

static int same_plan(const sim_coll_call_t *a, const sim_coll_call_t *b, int n, int me)
{
  ops_t x = plan_of(a, n, me);
  ops_t y = plan_of(b, n, me);
  int same = x.count == y.count;
  for (size_t i = 0; same && i < x.count; i++)
    same = x.op[i].send == y.op[i].send && x.op[i].peer == y.op[i].peer && x.op[i].offset == y.op[i].offset &&
           x.op[i].bytes == y.op[i].bytes && x.op[i].post == y.op[i].post && x.op[i].combine == y.op[i].combine;
  free(x.op);
  free(y.op);
  return same;
}

/* SMPI's reduce_scatter__default: MPICH's pairwise exchange for unequal counts above 524288 elements (here 8-byte
 * ones: 4.2 MB in all), the reduce and scatter for equal counts however large, and for small unequal ones. */
static void test_sim_coll_reduce_scatter_default_follows_smpi(void)
{
  double unequal[4] = {1e6, 1e6, 1e6, 1.2e6};
  double equal[4] = {1e6, 1e6, 1e6, 1e6};
  double small[4] = {1e3, 1e3, 1e3, 2e3};
  sim_coll_call_t pair = {.kind = SIM_COLL_REDUCE_SCATTER, .alg = 1, .bytes = 8, .counts = unequal};
  sim_coll_call_t dflt = {.kind = SIM_COLL_REDUCE_SCATTER, .bytes = 8, .counts = unequal};
  CU_ASSERT(same_plan(&pair, &dflt, 4, 1));
  pair.counts = dflt.counts = equal;
  CU_ASSERT(!same_plan(&pair, &dflt, 4, 1));
  pair.counts = dflt.counts = small;
  CU_ASSERT(!same_plan(&pair, &dflt, 4, 1));
}

/* Open MPI 4.1.4's choices (ompi/mca/coll/tuned/coll_tuned_decision_fixed.c, read by hand: the commutative branch;
 * its algorithm number, then simrun's nearest, in each comment) for calls on either side of its switch points. */
static void test_sim_coll_ompi_choices(void)
{
  double four_k[4] = {1000, 1000, 1000, 1000};
  struct {
    sim_coll_call_t call;
    int members;
    const char *expected;
  } cases[] = {
      {{.kind = SIM_COLL_ALLREDUCE, .bytes = 8}, 2, "rdb"},           /* 8 to 4095 bytes below 4 members: 3 */
      {{.kind = SIM_COLL_ALLREDUCE, .bytes = 4}, 2, "rdb"},           /* below 8: 4, the ring, with 1 element: 3 */
      {{.kind = SIM_COLL_ALLREDUCE, .bytes = 5000}, 2, "lr"},         /* 4096 to 8191: 4, the ring */
      {{.kind = SIM_COLL_ALLREDUCE, .bytes = 1 << 20}, 4, "lr"},      /* 8192 up, 4 to 7 members: 6, Rabenseifner's */
      {{.kind = SIM_COLL_ALLREDUCE, .bytes = 100}, 16, "rdb"},        /* 64 to 4095, 16 to 31: 3 */
      {{.kind = SIM_COLL_ALLREDUCE, .bytes = 1000}, 200, "redbcast"}, /* below 131072, 128 to 255: 2 */
      {{.kind = SIM_COLL_BCAST, .bytes = 8}, 2, "binomial"},          /* below 32, below 4 members: 3, pipeline */
      {{.kind = SIM_COLL_BCAST, .bytes = 10000}, 2, "one-to-all"},    /* 1024 to 32767: 1, linear */
      {{.kind = SIM_COLL_BCAST, .bytes = 2 << 20}, 20, "scatter-allgather"}, /* 1 MiB up, 16 to 31: 8 */
      {{.kind = SIM_COLL_REDUCE, .bytes = 8}, 2, "binomial"},                /* 8 to 15: 4, binary */
      {{.kind = SIM_COLL_REDUCE, .bytes = 1000}, 2, "flat_tree"},            /* 32 to 262143: 1, linear */
      {{.kind = SIM_COLL_BARRIER}, 2, "ompi_bruck"},                         /* below 4: 3, recursive doubling */
      {{.kind = SIM_COLL_BARRIER}, 6, "default"},                            /* 4 to 7: 1, linear */
      {{.kind = SIM_COLL_BARRIER}, 300, "ompi_tree"},                        /* 256 to 511: 6, tree */
      {{.kind = SIM_COLL_ALLTOALL, .bytes = 100}, 2, "ring"},                /* 64 to 255, 2 members: 2, pairwise */
      {{.kind = SIM_COLL_ALLTOALL, .bytes = 100}, 4, "basic_linear"},        /* below 8192, 3 to 7: 4 */
      {{.kind = SIM_COLL_ALLTOALL, .bytes = 100}, 40, "bruck"},              /* below 512, 32 to 63: 3 */
      {{.kind = SIM_COLL_ALLTOALL, .counts = four_k}, 4, "basic_linear"},    /* alltoallv, 4 to 63: 1 */
      {{.kind = SIM_COLL_ALLGATHER, .bytes = 8}, 2, "rdb"},                  /* 2 members: 6, two procs */
      {{.kind = SIM_COLL_ALLGATHER, .bytes = 100000}, 40, "ring"},           /* 65536 up, 32 to 63: 4, ring */
      {{.kind = SIM_COLL_ALLGATHER, .counts = four_k}, 4, "ring"},           /* allgatherv, 256 to 4095: 4 */
      {{.kind = SIM_COLL_GATHER, .bytes = 100}, 4, "ompi_binomial"},         /* below 1024, 4 to 7: 2 */
      {{.kind = SIM_COLL_GATHER, .counts = four_k}, 4, "default"},           /* gatherv: not tuned, linear */
      {{.kind = SIM_COLL_SCATTER, .bytes = 100}, 2, "default"},              /* 2 to 131071, below 4: 1 */
      {{.kind = SIM_COLL_REDUCE_SCATTER, .bytes = 8, .counts = four_k}, 4, "mpich_pair"}, /* 4000 in all: 2 */
      {{.kind = SIM_COLL_SCAN, .bytes = 8}, 4, "default"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const sim_coll_call_t *c = &cases[i].call;
    int alg = sim_coll_ompi_alg(c, cases[i].members);
    const char *name = alg < 0                     ? "(none)"
                       : c->kind == SIM_COLL_BCAST ? sim_bcast_names[alg]
                                                   : sim_coll_alg_names[c->kind][alg];
    if (strcmp(name, cases[i].expected) != 0)
      fprintf(stderr, "%s of %.0f bytes among %d: %s, expected %s\n", sim_coll_kind_names[c->kind], c->bytes,
              cases[i].members, name, cases[i].expected);
    CU_ASSERT_STRING_EQUAL(name, cases[i].expected);
  }
  /* every kind, size and count of members maps to one of simrun's algorithms */
  static const int members[] = {1, 2, 3, 5, 9, 17, 33, 65, 129, 257, 513, 1025, 2049, 4097, 70000};
  for (int kind = 0; kind < SIM_COLL_KINDS; kind++)
    for (size_t m = 0; m < sizeof members / sizeof members[0]; m++)
      for (double bytes = 0; bytes < 1e8; bytes = bytes * 4 + 1) {
        sim_coll_call_t call = {.kind = (sim_coll_kind_t)kind, .bytes = bytes};
        CU_ASSERT(sim_coll_ompi_alg(&call, members[m]) >= 0);
        call.bytes = NAN; /* no band holds: the table's last */
        CU_ASSERT(sim_coll_ompi_alg(&call, members[m]) >= 0);
      }
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_sim_coll_every_member_gets_every_byte_once", test_sim_coll_every_member_gets_every_byte_once},
      {"test_sim_coll_mesh_on_partitions", test_sim_coll_mesh_on_partitions},
      {"test_sim_coll_names", test_sim_coll_names},
      {"test_sim_coll_runs_follow_the_plans", test_sim_coll_runs_follow_the_plans},
      {"test_sim_coll_times_match_cost_models", test_sim_coll_times_match_cost_models},
      {"test_sim_coll_every_collective_delivers_once", test_sim_coll_every_collective_delivers_once},
      {"test_sim_coll_times_by_hand", test_sim_coll_times_by_hand},
      {"test_sim_coll_reduce_scatter_default_follows_smpi", test_sim_coll_reduce_scatter_default_follows_smpi},
      {"test_sim_coll_default_alltoall_as_smpi", test_sim_coll_default_alltoall_as_smpi},
      {"test_sim_coll_ompi_choices", test_sim_coll_ompi_choices},
      {NULL, NULL}};
  return tu_run("sim_coll", cases);
}
