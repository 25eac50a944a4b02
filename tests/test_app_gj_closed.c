/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Gauss-Jordan with the neighbour and one-to-all broadcasts in closed form (app_gj_closed.c) against the same program
 * executed rank by rank on the analytic network, the reference it stands for (itself checked against SimGrid's network
 * and by hand in test_sim_replay_analytic.c): T_par, every rank's category, phase and part sums, anomaly and message
 * groups to 1e-9 relative, on synchronous T800 meshes, eager TCP clusters (eager starting when sent, or when
 * received) and two hosts with a cache (a parallel anomaly), for p = 2 to 64 and N a multiple of p or not. */
#include "app_gj.h"
#include "app_gj_closed.h"
#include "sim_error.h"
#include "sim_progress.h"
#include "sim_run.h"
#include "tu.h"

#include <unistd.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MESH     SIMRUN_SOURCE_DIR "/platforms/t800-mesh-128.xml"
#define ICLUSTER SIMRUN_SOURCE_DIR "/platforms/icluster-fe-32.xml"
#define PENTIUM2 SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml"
#define CACHE    SIMRUN_SOURCE_DIR "/tests/data/machine/cache-pair.xml"
#define REL      1e-9

/* The program's phases, read back by name (ids follow the order the labels are first used). */
static const char *const phases[] = {"main",      "link-init", "input",      "distribution", "normalise",
                                     "broadcast", "update",    "collection", "output"};
enum { NPHASES = sizeof phases / sizeof phases[0], GROUPS = 40, GROUP_FIGURES = 9, MAX_RANKS = 64 };

/* What the metrics read of one rank: per category, per phase and category, per part (of every computation, control ones
 * too), the anomaly, the messages counted, its message groups and the first GROUPS of them (bytes, hops, count,
 * transfers' sum, min, max, waits' sum, min, max). */
typedef struct figures {
  double t_par;
  double ops; /* the operations counted for the progress bar (sim_progress.h) */
  int nranks;
  struct {
    double category[MET_CAT_COUNT];
    double phase[NPHASES][MET_CAT_COUNT];
    double parts[MET_PART_COUNT];
    double anomaly;
    double messages;
    double groups;
    double group[GROUPS][GROUP_FIGURES];
  } rank[MAX_RANKS];
} figures_t;

static int phase_index(const met_trace_t *trace, int id)
{
  for (int i = 0; i < NPHASES; i++)
    if (strcmp(met_trace_phase_name(trace, id), phases[i]) == 0)
      return i;
  return -1;
}

/* The simulation child's payload: the figures above. */
static int payload(const met_trace_t *trace, const void *ctx, FILE *out)
{
  (void)ctx;
  figures_t *f = calloc(1, sizeof *f);
  if (!f)
    return -1;
  f->t_par = met_trace_end(trace);
  f->nranks = met_trace_nranks(trace);
  for (int r = 0; r < f->nranks && r < MAX_RANKS; r++) {
    for (int c = 0; c < MET_CAT_COUNT; c++) {
      f->rank[r].category[c] = met_trace_category_time(trace, r, (met_category_t)c);
      for (int id = 0; id < met_trace_phase_count(trace); id++)
        if (phase_index(trace, id) >= 0)
          f->rank[r].phase[phase_index(trace, id)][c] = met_trace_phase_time(trace, r, id, (met_category_t)c);
        else
          f->rank[r].phase[0][c] = -1; /* a phase nobody expects */
    }
    for (int k = 0; k < MET_PART_COUNT; k++)
      f->rank[r].parts[k] = met_trace_any_part_time(trace, r, (met_part_t)k);
    f->rank[r].anomaly = met_trace_anomaly(trace, r);
    f->rank[r].messages = (double)met_trace_comm_count(trace, r);
    met_msg_group_t *g;
    long ngroups = met_trace_msg_settled(trace, r, &g);
    f->rank[r].groups = (double)ngroups;
    for (long i = 0; i < ngroups && i < GROUPS; i++) {
      double row[GROUP_FIGURES] = {g[i].bytes, g[i].hops,     (double)g[i].count, g[i].sum,     g[i].min,
                                   g[i].max,   g[i].wait_sum, g[i].wait_min,      g[i].wait_max};
      memcpy(f->rank[r].group[i], row, sizeof row);
    }
    free(g);
  }
  int rc = fwrite(f, sizeof *f, 1, out) == 1 ? 0 : -1;
  free(f);
  return rc;
}

/* A program that must never run: the closed form stands for it. */
static void never(sim_rank_t *rank, const void *arg)
{
  (void)arg;
  sim_rank_fail(rank, SIM_EPARAM, "the executed program ran where the closed form should have");
}

/* Runs `job` in a child and waits for its end: 0 with its figures in *f (when f is not NULL), the operations it
 * counted for the progress bar those of its last report, the end's, as the study's progress reads them; or the run's
 * error with its message in err. */
static int run_job(const sim_job_t *job, figures_t *f, char *err, size_t errlen)
{
  sim_run_child_t child;
  CU_ASSERT_FATAL(sim_run_start(job, payload, NULL, &child, err, errlen) == 0);
  size_t which;
  int rc;
  do
    rc = sim_run_wait_any(&child, 1, &which, NULL, err, errlen);
  while (rc == SIM_RUN_PROGRESS);
  if (rc != 0)
    return rc;
  if (f) {
    CU_ASSERT_FATAL(fread(f, sizeof *f, 1, child.channel) == 1);
    CU_ASSERT_FATAL(child.progress.ended);
    f->ops = child.progress.ops;
  }
  fclose(child.channel);
  return 0;
}

/* Gauss-Jordan of n equations on p ranks of `platform` with broadcast `bcast`, message groups by hop count or not,
 * executed or in closed form, into *f. */
static void simulate(const char *platform, int p, int n, sim_bcast_alg_t bcast, int hops, int closed, figures_t *f)
{
  app_gj_arg_t arg = {.n = n, .bcast = bcast};
  sim_job_t job = {.platform = platform,
                   .nranks = p,
                   .bcast = bcast,
                   .program = closed ? never : app_gj_skeleton.program,
                   .arg = &arg,
                   .aggregate = 1,
                   .message_hops = hops,
                   .analytic = SIM_ANALYTIC,
                   .closed = closed ? app_gj_closed_form(&arg) : NULL};
  char err[1024] = "";
  int rc = run_job(&job, f, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "%s p = %d n = %d: %s\n", platform, p, n, err);
  CU_ASSERT_FATAL(rc == 0);
}

/* Equal to REL relative; a sum of clock differences may also carry the clocks' rounding (1e-13 of T_par). */
static int near(double a, double b, double t_par)
{
  return fabs(a - b) <= REL * fmax(fabs(a), fabs(b)) + 1e-13 * t_par;
}

static void check(const char *what, int r, int i, double a, double b, double t_par)
{
  if (!near(a, b, t_par))
    fprintf(stderr, "rank %d %s %d: executed %.17g, closed form %.17g\n", r, what, i, a, b);
  CU_ASSERT_FATAL(near(a, b, t_par));
}

static void same_figures(const figures_t *x, const figures_t *y)
{
  CU_ASSERT_FATAL(x->nranks == y->nranks && x->t_par > 0);
  check("T_par", 0, 0, x->t_par, y->t_par, 0);
  check("progress operations", 0, 0, x->ops, y->ops, 0);
  for (int r = 0; r < x->nranks; r++) {
    for (int c = 0; c < MET_CAT_COUNT; c++) {
      check("category", r, c, x->rank[r].category[c], y->rank[r].category[c], x->t_par);
      for (int ph = 0; ph < NPHASES; ph++)
        check(phases[ph], r, c, x->rank[r].phase[ph][c], y->rank[r].phase[ph][c], x->t_par);
    }
    for (int k = 0; k < MET_PART_COUNT; k++)
      check("part", r, k, x->rank[r].parts[k], y->rank[r].parts[k], x->t_par);
    check("anomaly", r, 0, x->rank[r].anomaly, y->rank[r].anomaly, x->t_par);
    check("messages", r, 0, x->rank[r].messages, y->rank[r].messages, 0);
    check("message groups", r, 0, x->rank[r].groups, y->rank[r].groups, 0);
    for (int g = 0; g < GROUPS * GROUP_FIGURES; g++)
      check("message group", r, g, x->rank[r].group[g / GROUP_FIGURES][g % GROUP_FIGURES],
            y->rank[r].group[g / GROUP_FIGURES][g % GROUP_FIGURES], x->t_par);
  }
}

/* Both ways on each (p, n) of `cases` (pairs, ending with 0), with each broadcast the closed form has, message groups
 * by size alone and by size and hop count (the message view's). */
static void both_ways(const char *platform, const int *cases)
{
  static figures_t executed, closed;
  const sim_bcast_alg_t bcasts[] = {SIM_BCAST_NEIGHBOUR, SIM_BCAST_ONE_TO_ALL};
  for (int v = 0; v < 4; v++)
    for (int i = 0; cases[i]; i += 2) {
      simulate(platform, cases[i], cases[i + 1], bcasts[v % 2], v / 2, 0, &executed);
      simulate(platform, cases[i], cases[i + 1], bcasts[v % 2], v / 2, 1, &closed);
      same_figures(&executed, &closed);
    }
}

/* The T800 mesh (seed 001): synchronous rows relayed hop by hop, T(l, d) of Table 2. */
static void test_mesh(void)
{
  const int cases[] = {2, 2, 2, 5, 3, 7, 5, 5, 8, 19, 16, 16, 16, 37, 64, 64, 64, 100, 0};
  both_ways(MESH, cases);
}

/* icluster (seed 003) behind one switch: eager rows that start when sent (TCP), Hockney's latency and bandwidth. */
static void test_cluster(void)
{
  const int cases[] = {2, 3, 4, 4, 7, 23, 32, 32, 32, 45, 0};
  both_ways(ICLUSTER, cases);
}

/* The Fast Ethernet cluster with its eager messages starting when received (simrun:eager-start set to receive). */
static void test_eager_at_receive(void)
{
  char dir[] = "/tmp/simrun-gj-closed-XXXXXX";
  CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
  char path[512], command[1024];
  snprintf(path, sizeof path, "%s/fe.xml", dir);
  snprintf(command, sizeof command, "sed 's/value=\"send\"/value=\"receive\"/' %s > %s", PENTIUM2, path);
  CU_ASSERT_FATAL(system(command) == 0);
  const int cases[] = {3, 10, 8, 8, 8, 13, 0};
  both_ways(path, cases);
  remove(path);
  rmdir(dir);
}

/* Two hosts whose cache holds a rank's block but not the whole system: a parallel anomaly to sum (and rows that move
 * almost at once). */
static void test_cache(void)
{
  const int cases[] = {2, 16, 2, 15, 0};
  both_ways(CACHE, cases);
}

/* The job of Gauss-Jordan n = 8 on 4 ranks of the mesh whose program must never run (the closed form stands for it). */
static sim_job_t never_job(const app_gj_arg_t *arg)
{
  return (sim_job_t){.platform = MESH,
                     .nranks = 4,
                     .bcast = arg->bcast,
                     .program = never,
                     .arg = arg,
                     .aggregate = 1,
                     .analytic = SIM_ANALYTIC,
                     .closed = app_gj_closed_form(arg)};
}

/* The run's outcome: 0, or the run's error. */
static int outcome(const sim_job_t *job)
{
  char err[1024] = "";
  return run_job(job, NULL, err, sizeof err);
}

/* The closed form is for the neighbour and one-to-all broadcasts alone, and for runs that need nothing beyond the sums:
 * anywhere else the program is executed (here, the one that fails when it runs). */
static void test_applies(void)
{
  app_gj_arg_t neighbour = {.n = 8, .bcast = SIM_BCAST_NEIGHBOUR}, other = {.n = 8, .bcast = SIM_BCAST_BINOMIAL};
  CU_ASSERT(app_gj_closed_form(&other) == NULL);
  sim_job_t job = never_job(&neighbour);
  CU_ASSERT(outcome(&job) == 0);
  char dir[] = "/tmp/simrun-gj-closed-XXXXXX";
  CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
  sim_job_t variants[] = {job, job, job, job, job};
  variants[0].aggregate = 0; /* a whole trace: its intervals are wanted */
  variants[1].analytic = 0;  /* SimGrid's network: contention */
  variants[2].analytic = SIM_ANALYTIC_ACTORS;
  variants[3].ti_dir = dir; /* a TI trace: every action */
  variants[4].nranks = 1;
  for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
    CU_ASSERT(outcome(&variants[i]) == SIM_EPARAM);
  rmdir(dir);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_app_gj_closed_applies_only_where_exact", test_applies},
                                    {"test_app_gj_closed_t800_mesh_synchronous", test_mesh},
                                    {"test_app_gj_closed_icluster_eager_from_the_send", test_cluster},
                                    {"test_app_gj_closed_fast_ethernet_eager_from_the_receive", test_eager_at_receive},
                                    {"test_app_gj_closed_parallel_anomaly", test_cache},
                                    {NULL, NULL}};
  return tu_run("app_gj_closed", cases);
}
