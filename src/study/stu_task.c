/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One simulation of a sweep in its own process: the child analyses its trace where it is (lost cycles, bottlenecks,
 * message statistics) and hands back only the result, so that a trace of millions of intervals never travels. */
#include "stu_task.h"
#include "sim_error.h"
#include "stu_view.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char result_magic[4] = {'S', 'R', 'R', '1'};

int stu_task_prepare(const stu_sweep_ctx_t *ctx, const stu_task_t *task, void **arg, char *source, size_t sourcelen,
                     char *err, size_t errlen, const char **blame)
{
  const app_skeleton_t *skeleton = ctx->skeleton;
  app_point_t at = {
      .count = ctx->scenario->nparams, .names = ctx->names, .values = ctx->study->points[task->point].values};
  char unused[8];
  *arg = NULL;
  if (task->kind == STU_TASK_SEQ && skeleton->prepare_seq)
    return skeleton->prepare_seq(&at, arg, source ? source : unused, source ? sourcelen : sizeof unused, err, errlen,
                                 blame);
  return skeleton->prepare(&at, task->nranks, arg, err, errlen, blame);
}

static int put(FILE *out, const void *data, size_t size)
{
  return size == 0 || fwrite(data, size, 1, out) == 1 ? 0 : -1;
}

static int get(FILE *in, void *data, size_t size)
{
  return size == 0 || fread(data, size, 1, in) == 1 ? 0 : -1;
}

/* Zeroes the padding the compiler leaves between members a and b of *obj: written raw into the result channel and the
 * cache, undefined bytes would make identical results differ (valgrind: "points to uninitialised byte(s)"). */
#define ZERO_GAP(obj, a, b)                                                                                            \
  memset((char *)(obj) + offsetof(__typeof__(*(obj)), a) + sizeof(obj)->a, 0,                                          \
         offsetof(__typeof__(*(obj)), b) - offsetof(__typeof__(*(obj)), a) - sizeof(obj)->a)

/* The structures written raw, their padding (after the leading int, after hops) zeroed. */
static void zero_padding(stu_point_t *r)
{
  ZERO_GAP(&r->eppa, p, t_seq);
  ZERO_GAP(&r->breakdown, p, t_par);
  for (int i = 0; r->procs && i < r->p; i++)
    ZERO_GAP(&r->procs[i], rank, work);
  for (size_t i = 0; i < r->nmsgs; i++)
    ZERO_GAP(&r->msgs[i], hops, count);
}

/* [magic][status][t_par][messages][eppa][breakdown][nprocs][procs][nmsgs][msgs][has trace][trace] */
static int write_result(stu_point_t *r, int32_t status, const met_trace_t *trace, FILE *out)
{
  zero_padding(r);
  uint64_t messages = r->messages;
  uint64_t nprocs = r->procs ? (uint64_t)r->p : 0;
  uint64_t nmsgs = r->nmsgs;
  int32_t has_trace = trace != NULL;
  int rc = put(out, result_magic, sizeof result_magic) | put(out, &status, sizeof status) |
           put(out, &r->t_par, sizeof r->t_par) | put(out, &messages, sizeof messages) |
           put(out, &r->eppa, sizeof r->eppa) | put(out, &r->breakdown, sizeof r->breakdown) |
           put(out, &nprocs, sizeof nprocs) | put(out, r->procs, nprocs * sizeof *r->procs) |
           put(out, &nmsgs, sizeof nmsgs) | put(out, r->msgs, nmsgs * sizeof *r->msgs) |
           put(out, &has_trace, sizeof has_trace);
  return rc == 0 && trace ? met_trace_write(trace, out) : rc;
}

/* The bytes left in `in` after its position, or 0 when that cannot be told. */
static size_t bytes_left(FILE *in)
{
  long at = ftell(in);
  long end = at >= 0 && fseek(in, 0, SEEK_END) == 0 ? ftell(in) : -1;
  if (at < 0 || fseek(in, at, SEEK_SET) != 0 || end < at)
    return 0;
  return (size_t)(end - at);
}

/* Reads `count` items of `size` bytes into a new array (NULL for none); 0 or -1. A count the rest of the input cannot
 * hold is refused before anything is allocated (a damaged count asked for terabytes). */
static int get_array(FILE *in, size_t count, size_t size, void **array)
{
  *array = NULL;
  if (count == 0)
    return 0;
  if (count > SIZE_MAX / size || count * size > bytes_left(in) || !(*array = malloc(count * size)))
    return -1;
  return get(in, *array, count * size);
}

int stu_result_read(stu_point_t *point, int32_t *status, FILE *in)
{
  char magic[sizeof result_magic];
  uint64_t messages = 0;
  uint64_t nprocs = 0;
  uint64_t nmsgs = 0;
  int32_t has_trace = 0;
  stu_point_t r = {0};
  void *procs = NULL;
  void *msgs = NULL;
  int rc = get(in, magic, sizeof magic) || memcmp(magic, result_magic, sizeof magic) != 0 ||
           get(in, status, sizeof *status) || get(in, &r.t_par, sizeof r.t_par) ||
           get(in, &messages, sizeof messages) || get(in, &r.eppa, sizeof r.eppa) ||
           get(in, &r.breakdown, sizeof r.breakdown) || get(in, &nprocs, sizeof nprocs) ||
           get_array(in, nprocs, sizeof *r.procs, &procs) || get(in, &nmsgs, sizeof nmsgs) ||
           get_array(in, nmsgs, sizeof *r.msgs, &msgs) || get(in, &has_trace, sizeof has_trace);
  r.procs = procs;
  r.msgs = msgs;
  if (rc == 0 && has_trace && !(r.trace = met_trace_read(in)))
    rc = -1;
  if (rc != 0) {
    free(r.procs);
    free(r.msgs);
    return -1;
  }
  point->t_par = r.t_par;
  point->messages = (size_t)messages;
  point->eppa = r.eppa;
  point->breakdown = r.breakdown;
  point->procs = r.procs;
  point->msgs = r.msgs;
  point->nmsgs = (size_t)nmsgs;
  point->trace = r.trace;
  return 0;
}

typedef struct task_run {
  const stu_sweep_ctx_t *ctx;
  const stu_task_t *task;
} task_run_t;

/* The child's payload: the task's result. */
static int analyse(const met_trace_t *trace, const void *data, FILE *out)
{
  const task_run_t *run = data;
  const stu_task_t *task = run->task;
  stu_point_t r = {.p = task->nranks, .t_par = met_trace_end(trace), .messages = met_comm_messages(trace)};
  stu_view_input_t in = {.t_seq = task->t_seq, .keep_procs = task->keep_procs, .phases = run->ctx->skeleton->phases};
  int32_t status = task->kind == STU_TASK_POINT ? stu_view_analyse((unsigned)task->views, &r, trace, &in) : 0;
  int rc = write_result(&r, status, task->keep_trace ? trace : NULL, out);
  free(r.procs); /* the child leaves at once, but valgrind's leak check (scripts/memcheck) follows it */
  free(r.msgs);
  return rc;
}

/* Whether the child may record sums only (met_trace_new_aggregate): when the whole trace is not kept. The message
 * view reads the message groups, which an aggregate trace keeps too, given the hop counts. */
static int aggregates(const stu_task_t *task)
{
  return !task->keep_trace;
}

int stu_task_start(const stu_sweep_ctx_t *ctx, const stu_task_t *task, sim_run_child_t *child, char *err, size_t errlen)
{
  void *arg = NULL;
  const char *blame = NULL;
  int rc = stu_task_prepare(ctx, task, &arg, NULL, 0, err, errlen, &blame);
  if (rc != 0)
    return rc;
  const stu_point_t *point = &ctx->study->points[task->point];
  sim_job_t job = {.platform = stu_platform(ctx->study, point),
                   .nranks = task->nranks,
                   .bcast = point->role.broadcast ? (sim_bcast_alg_t)sim_bcast_parse(point->role.broadcast)
                                                  : SIM_BCAST_ONE_TO_ALL,
                   .program = ctx->skeleton->program,
                   .arg = arg,
                   .aggregate = aggregates(task),
                   .analytic = point->role.analytic,
                   .message_hops = stu_view_needs((unsigned)task->views, STU_NEED_HOPS),
                   .engine_cfg = ctx->skeleton->engine_cfg ? ctx->skeleton->engine_cfg(arg) : NULL,
                   .share_hosts = ctx->skeleton->shares_hosts,
                   .drop_unreceived = ctx->skeleton->drops_unreceived};
  char ti[4096];
  if (ctx->ti_dir && task->kind == STU_TASK_POINT && task->nranks == ctx->ti_p) {
    snprintf(ti, sizeof ti, "%s/point-%d", ctx->ti_dir, (int)task->point);
    if ((mkdir(ctx->ti_dir, 0777) != 0 && errno != EEXIST) || (mkdir(ti, 0777) != 0 && errno != EEXIST)) {
      snprintf(err, errlen, "cannot make the folder %s: %s", ti, strerror(errno));
      ctx->skeleton->release(arg);
      return SIM_EIO;
    }
    job.ti_dir = ti;
  }
  task_run_t run = {.ctx = ctx, .task = task};
  rc = sim_run_start(&job, analyse, &run, child, err, errlen);
  ctx->skeleton->release(arg);
  return rc;
}
