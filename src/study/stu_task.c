/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One simulation of a sweep in its own process: the child analyses its trace where it is (lost cycles, bottlenecks,
 * message statistics) and hands back only the result, so that a trace of millions of intervals never travels. */
#include "stu_task.h"
#include "met_comm.h"
#include "sim_error.h"
#include "stu_codec.h"
#include "stu_view.h"

#include <errno.h>
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

/* [magic][status][t_par][messages][each view's section, stu_view_encode][has trace][trace] */
static int write_result(stu_point_t *r, int32_t status, const met_trace_t *trace, FILE *out)
{
  uint64_t messages = r->messages;
  int32_t has_trace = trace != NULL;
  int rc = stu_codec_put(out, result_magic, sizeof result_magic) | stu_codec_put(out, &status, sizeof status) |
           stu_codec_put(out, &r->t_par, sizeof r->t_par) | stu_codec_put(out, &messages, sizeof messages) |
           stu_view_encode(r, out) | stu_codec_put(out, &has_trace, sizeof has_trace);
  return rc == 0 && trace ? met_trace_write(trace, out) : rc;
}

int stu_result_read(stu_point_t *point, int32_t *status, FILE *in)
{
  char magic[sizeof result_magic];
  uint64_t messages = 0;
  int32_t has_trace = 0;
  if (stu_codec_get(in, magic, sizeof magic) || memcmp(magic, result_magic, sizeof magic) != 0 ||
      stu_codec_get(in, status, sizeof *status) || stu_codec_get(in, &point->t_par, sizeof point->t_par) ||
      stu_codec_get(in, &messages, sizeof messages) || stu_view_decode(point, in) != 0)
    return BAS_EIO;
  point->messages = (size_t)messages;
  if (stu_codec_get(in, &has_trace, sizeof has_trace) == 0 && (!has_trace || (point->trace = met_trace_read(in))))
    return 0;
  stu_slots_release(point);
  return BAS_EIO;
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
  stu_slots_release(&r); /* the child leaves at once, but valgrind's leak check (scripts/memcheck) follows it */
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
                   .drop_unreceived = ctx->skeleton->drops_unreceived,
                   .closed = ctx->skeleton->closed ? ctx->skeleton->closed(arg) : NULL};
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
