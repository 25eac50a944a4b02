/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The ti-replay skeleton: replays a time-independent trace as SimGrid 3.32's `smpirun -replay` does (smpi_replay.cpp),
 * from one file per rank or one for every rank, ranks placed by an smpirun hostfile. Its parameters, preparation, each
 * rank's program (messages posted at the rank's clock) and T_seq; the actions are app_ti_actions.c's. */
#include "app_ti.h"
#include "app_ti_actions.h"
#include "app_ti_match.h"
#include "sim_error.h"
#include "sim_ti.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* The collective kinds whose algorithm a scenario parameter of the same name chooses (the broadcast's is
 * "broadcast", as in the other skeletons). */
static const sim_coll_kind_t chosen_kinds[] = {SIM_COLL_BARRIER,  SIM_COLL_REDUCE,        SIM_COLL_ALLREDUCE,
                                               SIM_COLL_GATHER,   SIM_COLL_ALLGATHER,     SIM_COLL_SCATTER,
                                               SIM_COLL_ALLTOALL, SIM_COLL_REDUCE_SCATTER};
enum { TI_CHOSEN = sizeof chosen_kinds / sizeof chosen_kinds[0] };

/* SMPI 3.32's defaults (src/smpi/internals/smpi_config.cpp, src/smpi/mpi/smpi_request.cpp): sends below 65536 bytes are
 * detached (smpi/send-is-detached-thresh), and every message carries a 16-byte envelope. */
#define TI_SMPI_EAGER_BELOW 65536.0
#define TI_SMPI_ENVELOPE    16.0 /* bytes SMPI adds to every message: "MPI enveloppe size (tag+dest+communicator)" */

static const char *const network_names[] = {"smpi", "platform", "analytic", NULL};
static const char *const send_names[] = {"smpi", "synchronous", NULL};
static const char *const collectives_names[] = {"smpi", "openmpi", NULL};

/* The tags of the trace's pairs (app_ti_match.h), read once by the first rank that runs, so that only the process
 * that replays the trace reads them (not the ones that check the scenario or compute T_seq). */
typedef struct ti_tags {
  int read;
  int rc;
  app_ti_match_t *match;
  int replayed; /* the run's ranks that came to the end of their trace so far, those that failed, and those that */
  int failed;   /* finalized */
  int finalized;
} ti_tags_t;

typedef struct ti_arg {
  sim_ti_trace_t *trace;
  ti_tags_t *tags;      /* the sender tags of the pairs whose tags are matched, read by the run's first rank */
  int platform_network; /* network = platform: the platform's own model rather than SMPI's */
  double eager_below;
  double envelope;  /* SMPI's, with its network model */
  int *test_sleeps; /* SMPI's test multiplier, shared by the ranks of the run */
  char **hosts;     /* the hostfile's hosts, one per rank (rank i on hosts[i % nhosts]), or NULL */
  int nhosts;
  const char *hostfile;
  int alg[SIM_COLL_KINDS];
  int ompi_collectives; /* collectives = openmpi: each call's algorithm as Open MPI 4.1 chooses it */
  double seq_flops;     /* the sequential run (ti_prepare_seq): every rank's computation, on one rank; or */
  double seq_seconds;   /* t-seq, slept on one rank; both 0: a replay */
} ti_arg_t;

static void ti_release(void *arg)
{
  ti_arg_t *ti = arg;
  if (ti) {
    sim_ti_trace_free(ti->trace);
    if (ti->tags)
      app_ti_match_free(ti->tags->match);
    free(ti->tags);
    sim_ti_paths_free(ti->hosts, ti->nhosts);
    free(ti->test_sleeps);
  }
  free(ti);
}

/* Descriptors a replay needs beside its ranks' readers: the platform, the pipes to the parent, SimGrid's own. */
enum { TI_SPARE_FILES = 64 };

/* Every rank keeps its trace file open while it replays (one descriptor each, the one-file layout too): a run of more
 * ranks than this process may open files is refused before it starts, with the limit to raise (65,536 rank files
 * failed midway with "Too many open files; check the path"). 0, or SIM_EPARAM with the message. */
static int check_open_files(const char *index, int nranks, char *err, size_t errlen)
{
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY ||
      (rlim_t)nranks + TI_SPARE_FILES <= limit.rlim_cur)
    return 0;
  snprintf(err, errlen,
           "%s: replaying %d ranks keeps %d trace files open at once, but this process may open %llu files (ulimit "
           "-n); raise the limit to at least %d (ulimit -n %d, within the hard limit of limits.conf)",
           index, nranks, nranks, (unsigned long long)limit.rlim_cur, nranks + TI_SPARE_FILES, nranks + TI_SPARE_FILES);
  return SIM_EPARAM;
}

/* The algorithm of each collective: the scenario's choice, else SMPI's default (index 0, binomial for bcast); or,
 * with collectives = openmpi, Open MPI's for each call, which no algorithm parameter may contradict. 0, or SIM_EPARAM
 * with the message. */
static int choose_algorithms(const app_point_t *point, ti_arg_t *ti, char *err, size_t errlen, const char **bad_param)
{
  const char *collectives = app_point_value(point, "collectives");
  ti->ompi_collectives = collectives && strcmp(collectives, "openmpi") == 0;
  const char *bcast = app_point_value(point, "broadcast");
  ti->alg[SIM_COLL_BCAST] = bcast ? sim_bcast_parse(bcast) : SIM_COLL_DEFAULT_BCAST;
  const char *given = bcast ? "broadcast" : NULL;
  for (int i = 0; i < TI_CHOSEN; i++) {
    const char *name = app_point_value(point, sim_coll_kind_names[chosen_kinds[i]]);
    ti->alg[chosen_kinds[i]] = name ? sim_coll_alg_parse(chosen_kinds[i], name) : 0;
    given = name && !given ? sim_coll_kind_names[chosen_kinds[i]] : given;
  }
  if (!ti->ompi_collectives || !given)
    return 0;
  *bad_param = "collectives";
  snprintf(err, errlen,
           "collectives = openmpi chooses every collective's algorithm as Open MPI does, but '%s' names one; leave "
           "out one or the other",
           given);
  return SIM_EPARAM;
}

static int ti_prepare(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen,
                      const char **bad_param)
{
  ti_arg_t *ti = calloc(1, sizeof *ti);
  if (!ti)
    return SIM_ENOMEM;
  int chosen = choose_algorithms(point, ti, err, errlen, bad_param);
  if (chosen != 0) {
    free(ti);
    return chosen;
  }
  const char *network = app_point_value(point, "network");
  const char *sends = app_point_value(point, "sends");
  /* analytic: the platform's own model, each message priced alone (the study sets the job's network) */
  ti->platform_network = network && (strcmp(network, "platform") == 0 || strcmp(network, "analytic") == 0);
  ti->eager_below = sends && strcmp(sends, "synchronous") == 0 ? 0 : TI_SMPI_EAGER_BELOW;
  ti->envelope = ti->platform_network ? 0 : TI_SMPI_ENVELOPE;
  if (!(ti->test_sleeps = malloc(sizeof *ti->test_sleeps)) || !(ti->tags = calloc(1, sizeof *ti->tags))) {
    ti_release(ti);
    return SIM_ENOMEM;
  }
  *ti->test_sleeps = 1;
  *bad_param = "trace";
  const char *index = app_point_value(point, "trace");
  int rc = sim_ti_open(index, &ti->trace, err, errlen);
  int files = rc == 0 ? sim_ti_trace_files(ti->trace) : 0;
  if (rc == 0 && files > 1 && files != nranks) {
    snprintf(err, errlen, "%s lists %d trace files, one per rank, but p = %d; use p = %d", index, files, nranks, files);
    rc = SIM_EPARAM;
  }
  rc = rc ? rc : check_open_files(index, nranks, err, errlen);
  ti->hostfile = app_point_value(point, "hostfile");
  if (rc == 0 && ti->hostfile) {
    *bad_param = "hostfile";
    rc = sim_ti_read_hostfile(ti->hostfile, &ti->hosts, &ti->nhosts, err, errlen);
  }
  if (rc != 0) {
    ti_release(ti);
    return rc == SIM_ENOMEM ? rc : SIM_EPARAM;
  }
  *arg = ti;
  return 0;
}

/* Once the run's last rank came to the end of its trace (`ok`: replayed whole): a warning (relayed once by sim_run)
 * when every rank replayed its trace and none has a "finalize", the mark of a traced run that reached MPI_Finalize:
 * the run was killed or its trace cut short, and the replay covers only what was traced (issue 48: such a trace was
 * replayed without a word). */
static void warn_unfinalized(const ti_arg_t *ti, const app_ti_rank_t *tr, int ok)
{
  ti_tags_t *shared = ti->tags;
  shared->finalized += tr->finalized;
  shared->failed += !ok;
  if (++shared->replayed < tr->n)
    return;
  if (shared->failed == 0 && shared->finalized == 0)
    sim_warn("%s: no rank's trace has a 'finalize' action: the traced run stopped before MPI_Finalize (killed, or "
             "its trace cut short); the replay covers only what was traced",
             sim_ti_trace_path(ti->trace, 0));
  shared->replayed = shared->failed = shared->finalized = 0;
}

/* The sequential run of ti_prepare_seq, when the argument is one: 1 once done, 0 for a replay. */
static int run_seq(const ti_arg_t *ti, app_ti_rank_t *tr)
{
  if (ti->seq_seconds > 0)
    sim_sleep(tr->rank, ti->seq_seconds);
  else if (ti->seq_flops > 0)
    app_ti_compute(tr, ti->seq_flops);
  return ti->seq_seconds > 0 || ti->seq_flops > 0;
}

static void ti_program(sim_rank_t *rank, const void *arg)
{
  const ti_arg_t *ti = arg;
  int n = sim_rank_count(rank);
  app_ti_rank_t tr = {.rank = rank,
                      .alg = ti->alg,
                      .ompi_collectives = ti->ompi_collectives,
                      .test_sleeps = ti->test_sleeps,
                      .me = sim_rank_id(rank),
                      .n = n,
                      .type_size = 1,
                      .max_fields = 2 * n + 8};
  sim_post_at_own_clock(rank, ti->eager_below, ti->envelope);
  if (ti->hosts && sim_rank_place(rank, ti->hosts[tr.me % ti->nhosts]) != 0) {
    char message[1024];
    snprintf(message, sizeof message, "%s: the platform has no host '%s' (rank %d's); name hosts of the platform",
             ti->hostfile, ti->hosts[tr.me % ti->nhosts], tr.me);
    sim_rank_fail(rank, SIM_EPARAM, message);
    return;
  }
  if (run_seq(ti, &tr))
    return;
  tr.field = malloc((size_t)tr.max_fields * sizeof *tr.field);
  tr.counts = malloc(2 * (size_t)n * sizeof *tr.counts);
  if (!ti->tags->read) { /* actors run one at a time: the first one reads them */
    ti->tags->read = 1;
    ti->tags->rc = app_ti_match_build(ti->trace, n, &ti->tags->match);
  }
  if (!tr.field || !tr.counts || ti->tags->rc != 0 || app_ti_match_open(&tr, ti->tags->match) != 0) {
    sim_rank_fail(rank, SIM_ENOMEM, "out of memory");
  } else {
    tr.counts2 = tr.counts + n;
    int files = sim_ti_trace_files(ti->trace);
    int replayed = app_ti_replay_file(&tr, sim_ti_trace_path(ti->trace, files > 1 ? tr.me : 0), files == 1) == 0;
    warn_unfinalized(ti, &tr, replayed);
  }
  free(tr.field);
  free(tr.counts);
  app_ti_match_close(&tr); /* after the rank's requests: the unexpected messages no receive took */
  free(tr.reqs);
  app_ti_comms_free(&tr);
}

static const scn_param_spec_t ti_params[] = {
    {.name = "trace",
     .kind = SCN_PATH,
     .required = 1,
     .help = "the trace as smpirun -replay takes it: a file listing one trace file per rank, or naming one file with "
             "every rank's lines (or that file itself)"},
    {.name = "hostfile", .kind = SCN_PATH, .help = "smpirun's -hostfile: rank i on the i-th host listed (host:n)"},
    {.name = "broadcast",
     .kind = SCN_CHOICE,
     .choices = sim_bcast_names,
     .help = "the bcast algorithm (default binomial, as SMPI's)",
     .role = SCN_ROLE_BROADCAST},
    {.name = "network",
     .kind = SCN_CHOICE,
     .choices = network_names,
     .help = "smpi (default: SMPI's network model and factors, as smpirun), platform (the platform's own model) or "
             "analytic (the platform's model, each message priced alone: docs/scale.md)",
     .role = SCN_ROLE_NETWORK},
    {.name = "sends",
     .kind = SCN_CHOICE,
     .choices = send_names,
     .help = "smpi (default: eager below 64 KiB, as smpirun) or synchronous (every send waits for its receive)"},
    {.name = "collectives",
     .kind = SCN_CHOICE,
     .choices = collectives_names,
     .help = "smpi (default: each kind's parameter, else SMPI's default) or openmpi (each call's algorithm as Open MPI "
             "4.1's tuned component chooses it, by size: for runs measured under Open MPI)"},
    {.name = "barrier",
     .kind = SCN_CHOICE,
     .choices = sim_coll_barrier_names,
     .help = "the barrier algorithm, as SMPI's --cfg=smpi/barrier (default SMPI's)"},
    {.name = "reduce",
     .kind = SCN_CHOICE,
     .choices = sim_coll_reduce_names,
     .help = "the reduce algorithm, as SMPI's --cfg=smpi/reduce (default SMPI's)"},
    {.name = "allreduce",
     .kind = SCN_CHOICE,
     .choices = sim_coll_allreduce_names,
     .help = "the allreduce algorithm, as SMPI's --cfg=smpi/allreduce (default SMPI's)"},
    {.name = "gather",
     .kind = SCN_CHOICE,
     .choices = sim_coll_gather_names,
     .help = "the gather algorithm, as SMPI's --cfg=smpi/gather (default SMPI's)"},
    {.name = "allgather",
     .kind = SCN_CHOICE,
     .choices = sim_coll_allgather_names,
     .help = "the allgather algorithm, as SMPI's --cfg=smpi/allgather (default SMPI's)"},
    {.name = "scatter",
     .kind = SCN_CHOICE,
     .choices = sim_coll_scatter_names,
     .help = "the scatter algorithm, as SMPI's --cfg=smpi/scatter (default SMPI's)"},
    {.name = "alltoall",
     .kind = SCN_CHOICE,
     .choices = sim_coll_alltoall_names,
     .help = "the alltoall algorithm, as SMPI's --cfg=smpi/alltoall (default SMPI's)"},
    {.name = "reduce_scatter",
     .kind = SCN_CHOICE,
     .choices = sim_coll_reduce_scatter_names,
     .help = "the reduce-scatter algorithm, as SMPI's --cfg=smpi/reduce_scatter (default SMPI's)"},
    {.name = "seq-trace",
     .kind = SCN_PATH,
     .help = "T_seq: this sequential trace (one rank) replayed on one process (default: the trace's computation)"},
    {.name = "t-seq", .kind = SCN_SECONDS, .help = "T_seq in seconds (default: the sum of the trace's computation)"},
};

/* The widest line of a one-file trace that the sum of its computation reads: 2 fields per rank (alltoallv) for up to
 * this many ranks, as the replay reads at most 2 p + 8. */
#define TI_SEQ_MAX_RANKS 65536

/* The decimal number in [0, high] at `*from` (strtod takes hexadecimal too) into *value, *from moved past it: 1, or
 * 0 when there is none. */
static int decimal_at(const char **from, double high, double *value)
{
  char *end = NULL;
  *from += strspn(*from, " \t");
  *value = strtod(*from, &end);
  int ok = end != *from && strspn(*from, "0123456789.+-eE") >= (size_t)(end - *from) && isfinite(*value) &&
           *value >= 0 && *value <= high;
  *from = end;
  return ok;
}

/* The flops of the compute actions of every line of `path` into *flops (added), those of a loop's body (simrun's
 * "loop COUNT LINES", docs/ti-replay.md) COUNT times. 0, or SIM_EPARAM / SIM_EIO / SIM_ENOMEM with "FILE:LINE: why". */
static int add_computation(const char *path, size_t max_fields, double *flops, char *err, size_t errlen)
{
  sim_ti_reader_t *in = NULL;
  int rc = sim_ti_reader_open(path, max_fields, &in, err, errlen);
  if (rc != 0)
    return rc;
  char *text;
  size_t len;
  int bad = 0;
  double times = 1;  /* the count of the loop whose body is being read */
  double inside = 0; /* lines of its body still to come */
  for (int number = 1; !bad && (rc = sim_ti_reader_next(in, &text, &len)) == 0; number++) {
    const char *loop = app_ti_after_action(text, "loop");
    const char *flops_at = loop ? NULL : app_ti_after_action(text, "compute");
    double f = 0;
    if (loop)
      bad = !decimal_at(&loop, APP_TI_MAX_LOOP_COUNT, &times) || !decimal_at(&loop, APP_TI_MAX_LOOP_LINES, &inside);
    else if (flops_at && !(bad = !decimal_at(&flops_at, APP_TI_MAX_FLOPS, &f)))
      *flops += f * (inside > 0 ? times : 1);
    if (!loop && inside > 0)
      inside--;
    if (bad)
      snprintf(err, errlen, "%s:%d: '%.200s': %s; see docs/ti-replay.md", path, number, text,
               loop ? "a loop line is '<rank> loop <count> <lines>'" : "compute needs a number of flops");
  }
  if (!bad && rc < 0)
    sim_ti_reader_error(in, rc, err, errlen);
  sim_ti_reader_close(in);
  return bad || rc < 0 ? SIM_EPARAM : 0;
}

/* T_seq as the sum of the trace's computation: every rank's compute actions, run on one rank (rank 0's host). */
static int prepare_seq_sum(const app_point_t *point, void **arg, char *source, size_t sourcelen, char *err,
                           size_t errlen, const char **bad_param)
{
  const char *index = app_point_value(point, "trace");
  sim_ti_trace_t *trace = NULL;
  double flops = 0;
  int rc = sim_ti_open(index, &trace, err, errlen);
  int files = rc == 0 ? sim_ti_trace_files(trace) : 0;
  size_t max_fields = 2 * (size_t)(files > 1 ? files : TI_SEQ_MAX_RANKS) + 8; /* as the replay's, at most p ranks */
  for (int i = 0; rc == 0 && i < files; i++)
    rc = add_computation(sim_ti_trace_path(trace, i), max_fields, &flops, err, errlen);
  sim_ti_trace_free(trace);
  if (rc == 0 && !(flops > 0)) {
    snprintf(source, sourcelen,
             "the trace computes nothing (no compute action), so T_seq cannot be its computation; "
             "give t-seq or seq-trace for the lost-cycle view");
    return 0; /* no sequential run (*arg stays NULL) */
  }
  rc = rc ? rc : ti_prepare(point, files, arg, err, errlen, bad_param);
  if (rc == 0) {
    ((ti_arg_t *)*arg)->seq_flops = flops;
    snprintf(source, sourcelen,
             "the sum of the trace's computation, %.9g flops (every rank's compute actions) at "
             "the speed of rank 0's host",
             flops);
  }
  return rc == 0 || rc == SIM_ENOMEM ? rc : SIM_EPARAM;
}

/* T_seq for the lost-cycle view (app_skeleton_t.prepare_seq): the time t-seq gives, or the sequential trace
 * seq-trace replayed on one process, or by default the sum of the trace's computation (none for a trace that
 * computes nothing). */
static int ti_prepare_seq(const app_point_t *point, void **arg, char *source, size_t sourcelen, char *err,
                          size_t errlen, const char **bad_param)
{
  const char *seq_trace = app_point_value(point, "seq-trace");
  const char *t_seq = app_point_value(point, "t-seq");
  *bad_param = seq_trace ? "seq-trace" : "trace";
  if (seq_trace && t_seq) {
    snprintf(err, errlen, "T_seq is either a sequential trace (seq-trace) or a time (t-seq); give one of them");
    *bad_param = "t-seq";
    return SIM_EPARAM;
  }
  if (t_seq) {
    ti_arg_t *ti = calloc(1, sizeof *ti);
    if (!ti)
      return SIM_ENOMEM;
    ti->seq_seconds = strtod(t_seq, NULL); /* checked by the scenario module (SCN_SECONDS) */
    *arg = ti;
    snprintf(source, sourcelen, "t-seq = %s s, given by the scenario", t_seq);
    return 0;
  }
  if (!seq_trace)
    return prepare_seq_sum(point, arg, source, sourcelen, err, errlen, bad_param);
  const char **values = malloc(point->count * sizeof *values);
  if (!values)
    return SIM_ENOMEM;
  for (size_t j = 0; j < point->count; j++)
    values[j] = strcmp(point->names[j], "trace") == 0 ? seq_trace : point->values[j];
  app_point_t seq = {.count = point->count, .names = point->names, .values = values};
  int rc = ti_prepare(&seq, 1, arg, err, errlen, bad_param);
  free(values);
  if (rc != 0 && strcmp(*bad_param, "trace") == 0)
    *bad_param = "seq-trace";
  if (rc == 0)
    snprintf(source, sourcelen, "the sequential trace %s, replayed on one process", seq_trace);
  return rc;
}

/* SMPI's network model and precision, as smpirun imposes them (SimGrid 3.32's src/smpi/smpirun.in: SIMOPTS), unless
 * network = platform. */
static const char *ti_engine_cfg(const void *arg)
{
  const ti_arg_t *ti = arg;
  return ti->platform_network ? NULL : "surf/precision:1e-9 network/model:SMPI";
}

static const scn_skeleton_spec_t ti_spec = {
    .name = "ti-replay", .params = ti_params, .nparams = sizeof ti_params / sizeof ti_params[0]};

const app_skeleton_t app_ti_skeleton = {.spec = &ti_spec,
                                        .views = MET_VIEW_LOST_CYCLES | MET_VIEW_MESSAGES,
                                        .prepare = ti_prepare,
                                        .program = ti_program,
                                        .release = ti_release,
                                        .prepare_seq = ti_prepare_seq,
                                        .engine_cfg = ti_engine_cfg,
                                        .shares_hosts = 1,
                                        .drops_unreceived = 1};
