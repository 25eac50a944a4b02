/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One simulation of a sweep in its own process: the child analyses its trace where it is (lost cycles, bottlenecks,
 * message statistics, wait states, the timeline as its pictures draw it) and hands back only the result, so that a
 * trace of millions of intervals never travels unless an export needs every event. */
#include "stu_task.h"
#include "met_comm.h"
#include "sim_error.h"
#include "stu_codec.h"
#include "stu_view.h"
#include "stu_waits.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* SRR1 carried the per-process p's whole trace where SRR2 carries its pixels (met_pixels.h) and wait states. */
static const char result_magic[4] = {'S', 'R', 'R', '2'};

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

/* [magic][status][t_par][messages][each view's section, stu_view_encode][has pixels][pixels][has trace][trace] */
static int write_result(stu_point_t *r, int32_t status, const met_trace_t *trace, FILE *out)
{
  uint64_t messages = r->messages;
  int32_t has_pixels = r->pixels != NULL, has_trace = trace != NULL;
  int rc = stu_codec_put(out, result_magic, sizeof result_magic) | stu_codec_put(out, &status, sizeof status) |
           stu_codec_put(out, &r->t_par, sizeof r->t_par) | stu_codec_put(out, &messages, sizeof messages) |
           stu_view_encode(r, out) | stu_codec_put(out, &has_pixels, sizeof has_pixels);
  rc = rc == 0 && r->pixels ? met_pixels_write(r->pixels, out) : rc;
  rc |= stu_codec_put(out, &has_trace, sizeof has_trace);
  return rc == 0 && trace ? met_trace_write(trace, out) : rc;
}

/* The pixels and the whole trace after the views, each when its flag says so. 0, or -1. */
static int read_kept(stu_point_t *point, FILE *in)
{
  int32_t has_pixels = 0, has_trace = 0;
  if (stu_codec_get(in, &has_pixels, sizeof has_pixels) != 0 || (has_pixels && !(point->pixels = met_pixels_read(in))))
    return -1;
  if (stu_codec_get(in, &has_trace, sizeof has_trace) == 0 && (!has_trace || (point->trace = met_trace_read(in))))
    return 0;
  met_pixels_free(point->pixels);
  point->pixels = NULL;
  return -1;
}

int stu_result_read(stu_point_t *point, int32_t *status, FILE *in)
{
  char magic[sizeof result_magic];
  uint64_t messages = 0;
  if (stu_codec_get(in, magic, sizeof magic) || memcmp(magic, result_magic, sizeof magic) != 0 ||
      stu_codec_get(in, status, sizeof *status) || stu_codec_get(in, &point->t_par, sizeof point->t_par) ||
      stu_codec_get(in, &messages, sizeof messages) || stu_view_decode(point, in) != 0)
    return BAS_EIO;
  point->messages = (size_t)messages;
  if (read_kept(point, in) == 0)
    return 0;
  stu_slots_release(point);
  return BAS_EIO;
}

typedef struct task_run {
  const stu_sweep_ctx_t *ctx;
  const stu_task_t *task;
} task_run_t;

/* The pictures and the wait states being drawn from a spilled trace, interval by interval. */
typedef struct drawing {
  met_pixels_t *pixels;
  met_wait_walk_t *waits;
} drawing_t;

static int draw_interval(void *ctx, int rank, const met_interval_t *iv)
{
  drawing_t *d = ctx;
  met_wait_walk_add(d->waits, rank, iv);
  return met_pixels_add(d->pixels, rank, iv);
}

/* The pictures (into r->pixels) and wait states (into r's slot) of a spilled trace, in one pass over its file. 0, or
 * SIM_ENOMEM (or SIM_EIO when the file cannot be read). */
static int32_t draw_spilled(stu_point_t *r, const met_trace_t *trace)
{
  drawing_t d = {met_pixels_begin(trace, met_trace_spilled(trace)), met_wait_walk_new(trace)};
  met_waits_t w;
  int32_t rc = d.pixels && d.waits ? 0 : SIM_ENOMEM;
  rc = rc ? rc : met_trace_spill_walk(trace, draw_interval, &d) != 0 ? SIM_EIO : 0;
  rc = rc ? rc : met_pixels_finish(d.pixels) != 0 ? SIM_ENOMEM : 0;
  if (rc == 0) {
    r->pixels = d.pixels;
    d.pixels = NULL;
    rc = met_wait_walk_end(d.waits, &w) != 0 ? SIM_ENOMEM : stu_waits_keep(r, &w);
    d.waits = NULL;
  }
  met_pixels_free(d.pixels);
  met_wait_walk_free(d.waits);
  return rc;
}

/* The pictures and the wait states of the point's run: drawn from its spilled trace, or from its whole one (kept for
 * an export). */
static int32_t draw(stu_point_t *r, const met_trace_t *trace)
{
  if (met_trace_is_aggregate(trace))
    return draw_spilled(r, trace);
  return !(r->pixels = met_pixels_new(trace)) ? SIM_ENOMEM : stu_waits_compute(r, trace);
}

/* The child's payload: the task's result. */
static int analyse(const met_trace_t *trace, const void *data, FILE *out)
{
  const task_run_t *run = data;
  const stu_task_t *task = run->task;
  stu_point_t r = {.p = task->nranks, .t_par = met_trace_end(trace), .messages = met_comm_messages(trace)};
  stu_view_input_t in = {.t_seq = task->t_seq, .keep_procs = task->keep_procs, .phases = run->ctx->skeleton->phases};
  int32_t status = task->kind == STU_TASK_POINT ? stu_view_analyse((unsigned)task->views, &r, trace, &in) : 0;
  if (status == 0 && (task->keep_trace & STU_KEEP_PIXELS))
    status = draw(&r, trace);
  int rc = write_result(&r, status, task->keep_trace & STU_KEEP_WHOLE ? trace : NULL, out);
  stu_slots_release(&r); /* the child leaves at once, but valgrind's leak check (scripts/memcheck) follows it */
  met_pixels_free(r.pixels);
  return rc;
}

/* Whether the child may record sums only (met_trace_new_aggregate): when the whole trace is not kept. The message view
 * reads the message groups, which an aggregate trace keeps too, given the hop counts. */
static int aggregates(const stu_task_t *task)
{
  return !(task->keep_trace & STU_KEEP_WHOLE);
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
                   .spill = aggregates(task) && (task->keep_trace & STU_KEEP_PIXELS), /* its pictures, from a file */
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
