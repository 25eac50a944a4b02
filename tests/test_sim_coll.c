/* Broadcast algorithms: every plan, for several group sizes, roots and shapes, delivers every byte to every member
 * exactly once, sends only bytes the sender holds and completes under synchronous messages; the simulated runs follow
 * the plans, and their times on the quiet T800 mesh match the cost models of docs/broadcasts.md worked out by hand. */
#include "sim_coll.h"
#include "sim_map.h"
#include "sim_run.h"
#include "tu.h"

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
    fprintf(stderr, "%s, n = %d, root = %d: deadlock\n", sim_bcast_name(plan->alg), plan->count, plan->root);
  CU_ASSERT(completed);
  int wrong = 0;
  for (int me = 0; me < plan->count; me++) {
    for (int b = 0; b < (int)plan->bytes; b++)
      wrong += held[me][b] != (me != plan->root);
    free(ops[me].op);
  }
  if (wrong)
    fprintf(stderr, "%s, n = %d, root = %d: %d bytes not received exactly once\n", sim_bcast_name(plan->alg),
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
    CU_ASSERT_EQUAL(sim_bcast_parse(sim_bcast_name(alg)), alg);
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
  if (sim_run_isolated(&job, &trace, err, sizeof err) != 0)
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
      fprintf(stderr, "%s: %.9f s, expected %.9f s\n", sim_bcast_name(cases[i].alg), end, cases[i].expected);
    TU_ASSERT_CLOSE(end, cases[i].expected, 1e-9);
    met_trace_free(trace);
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
      {NULL, NULL}};
  return tu_run("sim_coll", cases);
}
