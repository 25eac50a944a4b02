/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ring matrix multiply (seed 000 Ex. 1.2, Fig. 1.3): distribution by the master, p multiply steps each followed by a
 * circular shift of B's column blocks, collection of C; flops as eq. 1.4 counts them. Optionally unbalanced: rank 0
 * holds `imbalance` percent more rows than an even share (docs/labs/08-load-imbalance.md). */
#include "app_matmul.h"
#include "app_linalg.h"
#include "sim_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct matmul_arg {
  int n;
  int imbalance; /* percent more rows of A (and columns of B) on rank 0 than n / p; 0: the even split */
} matmul_arg_t;

/* Rank 0's rows under an imbalance: n / p (1 + imbalance / 100), rounded to the nearest. */
static long heavy_rows(long n, int p, long imbalance)
{
  return lround((double)n * (100.0 + (double)imbalance) / (100.0 * p));
}

/* Rows of A (and columns of B) in block `b`: n / p each, the first n mod p blocks one more; with an imbalance, rank
 * 0's heavy_rows and the rest split so among the others. The blocks add up to n either way: the work is the same. */
static int block_size(const matmul_arg_t *a, int p, int b)
{
  int n = a->n;
  if (a->imbalance == 0 || p == 1)
    return n / p + (b < n % p);
  int first = (int)heavy_rows(n, p, a->imbalance);
  int rest = n - first;
  return b == 0 ? first : rest / (p - 1) + (b - 1 < rest % (p - 1));
}

static void distribute(sim_rank_t *rank, const matmul_arg_t *a, int p)
{
  int n = a->n;
  sim_phase(rank, "distribution");
  int me = sim_rank_id(rank);
  if (me != 0) {
    sim_recv(rank, 0, 8.0 * block_size(a, p, me) * n);
    sim_recv(rank, 0, 8.0 * n * block_size(a, p, me));
    return;
  }
  for (int r = 1; r < p; r++) {
    sim_send(rank, r, 8.0 * block_size(a, p, r) * n);
    sim_send(rank, r, 8.0 * n * block_size(a, p, r));
  }
}

/* Passes the B block `held` to the next rank and takes block `held - 1` from the previous one. As the paper has it, a
 * rank sends, then receives: so it does where its block is an eager message (MPI over TCP below its eager limit), and
 * the ring's messages move at once. Where the send would wait for its receiver, even ranks send first and odd ranks
 * receive first, so that synchronous messages cannot deadlock around the ring (with p odd, ranks p - 1 and 0 are both
 * even: the chain then starts at rank 0's send and still completes); an eager rank among them never blocks in its
 * send, so mixing the two orders cannot deadlock either. */
static void shift(sim_rank_t *rank, const matmul_arg_t *a, int p, int held)
{
  int me = sim_rank_id(rank);
  double out = 8.0 * a->n * block_size(a, p, held);
  double in = 8.0 * a->n * block_size(a, p, (held - 1 + p) % p);
  sim_phase(rank, "shift");
  if (sim_send_is_eager(rank, out) || me % 2 == 0) {
    sim_send(rank, (me + 1) % p, out);
    sim_recv(rank, (me - 1 + p) % p, in);
  } else {
    sim_recv(rank, (me - 1 + p) % p, in);
    sim_send(rank, (me + 1) % p, out);
  }
}

static void collect(sim_rank_t *rank, const matmul_arg_t *a, int p)
{
  int n = a->n;
  sim_phase(rank, "collection");
  int me = sim_rank_id(rank);
  if (me != 0) {
    sim_send(rank, 0, 8.0 * block_size(a, p, me) * n);
    return;
  }
  for (int r = 1; r < p; r++)
    sim_recv(rank, r, 8.0 * block_size(a, p, r) * n);
}

/* At step s, rank i holds B's column block (i - s) mod p and computes that block of its rows of C: rows x cols
 * elements of n multiplications and n - 1 additions. Every step is followed by a shift, as the paper describes (the
 * last one gives every rank its own B block back). */
static void matmul_program(sim_rank_t *rank, const void *arg)
{
  const matmul_arg_t *a = arg;
  int n = a->n;
  int p = sim_rank_count(rank);
  int me = sim_rank_id(rank);
  if (p > 1)
    distribute(rank, a, p);
  for (int step = 0; step < p; step++) {
    int held = (me - step + p) % p;
    sim_phase(rank, "multiply");
    app_linalg_flops(rank, (double)block_size(a, p, me) * block_size(a, p, held) * (2.0 * n - 1), SIM_WORK);
    if (p > 1)
      shift(rank, a, p, held);
  }
  if (p > 1)
    collect(rank, a, p);
}

static int matmul_prepare(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen,
                          const char **bad_param)
{
  long n = app_point_long(point, "n", 0);
  if (n < nranks || n > APP_LINALG_MAX_DIM) {
    snprintf(err, errlen,
             "n = %ld: every rank needs at least one row of A and one column of B, and the matrix must "
             "stay simulable; use %d <= n <= %ld",
             n, nranks, APP_LINALG_MAX_DIM);
    *bad_param = "n";
    return SIM_EPARAM;
  }
  long imbalance = app_point_long(point, "imbalance", 0);
  if (nranks > 1 && imbalance > 0 && heavy_rows(n, nranks, imbalance) > n - (nranks - 1)) {
    snprintf(err, errlen,
             "imbalance = %ld gives rank 0 %ld of the %ld rows, leaving fewer than one for each of the other %d "
             "ranks; use a smaller imbalance, or a larger n",
             imbalance, heavy_rows(n, nranks, imbalance), n, nranks - 1);
    *bad_param = "imbalance";
    return SIM_EPARAM;
  }
  matmul_arg_t *a = malloc(sizeof *a);
  if (!a)
    return SIM_ENOMEM;
  *a = (matmul_arg_t){.n = (int)n, .imbalance = (int)imbalance};
  *arg = a;
  return 0;
}

/* The memory check of every rank's host: rank 0 holds A, B and C whole (it distributes and collects them), every
 * other rank its rows of A and of C and two column blocks of B (the one it holds and the one coming in). Silent when
 * no host gives its memory. */
static int matmul_advise(const app_point_t *point, int nranks, const met_platform_t *m, char *msg, size_t msglen)
{
  long n = app_point_long(point, "n", 0);
  long imbalance = app_point_long(point, "imbalance", 0);
  if (n < nranks || (nranks > 1 && heavy_rows(n, nranks, imbalance) > n - (nranks - 1)))
    return 0;
  matmul_arg_t a = {.n = (int)n, .imbalance = (int)imbalance};
  double block = (double)block_size(&a, nranks, 0) * (double)n * 8.0;
  return app_memory_advice(m, "matrices", 3.0 * (double)n * (double)n * 8.0, 4 * block, 0, msg, msglen);
}

static const scn_param_spec_t matmul_params[] = {
    {.name = "n",
     .kind = SCN_INT,
     .min = 1,
     .required = 1,
     .help = "order n of the square matrices A, B and C",
     .role = SCN_ROLE_SIZE},
    {.name = "imbalance",
     .kind = SCN_INT,
     .min = 0,
     .help = "percent more rows of A (and columns of B) on rank 0 than an even share n / p (default 0)"},
};

static const scn_skeleton_spec_t matmul_spec = {
    .name = "ring-matmul", .params = matmul_params, .nparams = sizeof matmul_params / sizeof matmul_params[0]};

/* The input's distribution and the result's collection are Table 5's rows; the ring's shifts are other communication.
 */
static const met_phase_role_t matmul_phases[] = {
    {"distribution", MET_SUB_DISTRIBUTION}, {"collection", MET_SUB_COLLECTION}, {NULL, MET_SUB_COUNT}};

/* Every rank's operations (app_skeleton_t.work): the distribution's 2 (p - 1) messages and the collection's p - 1, two
 * ends each, and per step of the p a computation and a shift (a send and a receive) on each rank. */
static double matmul_work(const app_point_t *point, int nranks)
{
  (void)point;
  double p = nranks;
  return 6 * (p - 1) + 3 * p * p;
}

const app_skeleton_t app_matmul_skeleton = {.spec = &matmul_spec,
                                            .prepare = matmul_prepare,
                                            .program = matmul_program,
                                            .release = free,
                                            .phases = matmul_phases,
                                            .advise = matmul_advise,
                                            .work = matmul_work};
