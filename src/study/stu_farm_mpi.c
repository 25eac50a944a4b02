/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The MPI task farm (stu_farm.h), compiled with Open MPI's mpicc flags: rank 0 sends a task (a fixed-size record) to
 * each idle worker; a worker simulates it in a local process, passes on its reports of progress as they come, and
 * answers with its status, message and result bytes. */
#include "sim_error.h"
#include "stu_farm.h"
#include "stu_pool.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_TASK = 1, TAG_STOP, TAG_RESULT, TAG_PROGRESS };

/* A worker's report of how far its task is (sim_progress.h), at most as often as its simulation reports: ten a second
 * (a hundred in its first second), 16 bytes each. It comes before the task's result, from the same worker, so rank 0
 * has taken them all once it has the result (MPI keeps the order of one sender's messages that one receive matches). */
typedef struct report {
  double ops;
  int32_t ended;
  int32_t unused;
} report_t;

/* What precedes a worker's result bytes. */
typedef struct reply {
  int32_t status;
  char message[1020];
} reply_t;

typedef struct farm {
  int workers;
  int *busy;          /* per worker: 1 while it runs a task */
  report_t *reported; /* per worker: its task's last report, ops -1 before any */
} farm_t;

static int my_rank = -1;
static int stopped_workers; /* rank 0 told them to stop */

int stu_farm_start(int *rank, char *err, size_t errlen)
{
  /* the workers fork a process per simulation, which Open MPI would warn about */
  setenv("OMPI_MCA_mpi_warn_on_fork", "0", 0);
  if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
    snprintf(err, errlen, "MPI could not be started");
    return SIM_EINVAL;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  *rank = my_rank;
  return 0;
}

void stu_farm_end(void)
{
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int worker = 1; my_rank == 0 && !stopped_workers && worker < size; worker++)
    MPI_Send(NULL, 0, MPI_BYTE, worker, TAG_STOP, MPI_COMM_WORLD);
  stopped_workers = 1;
  MPI_Finalize();
}

static int farm_start(stu_exec_t *exec, size_t slot, const stu_task_t *task, char *err, size_t errlen)
{
  farm_t *farm = exec->state;
  MPI_Send(task, (int)sizeof *task, MPI_BYTE, (int)slot + 1, TAG_TASK, MPI_COMM_WORLD);
  farm->busy[slot] = 1;
  farm->reported[slot] = (report_t){.ops = -1};
  return 0;
}

/* Receives one worker's next message into a new buffer: a report (kept in farm->reported, NULL returned) or its reply
 * (its length in *len); the worker in *worker. */
static char *receive_reply(farm_t *farm, int *len, int *worker)
{
  MPI_Status status;
  MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
  *worker = status.MPI_SOURCE;
  if (status.MPI_TAG == TAG_PROGRESS) {
    report_t report;
    MPI_Recv(&report, (int)sizeof report, MPI_BYTE, *worker, TAG_PROGRESS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    farm->reported[*worker - 1] = report;
    return NULL;
  }
  MPI_Get_count(&status, MPI_BYTE, len);
  char *buf = malloc(*len > 0 ? (size_t)*len : 1);
  if (!buf) /* the message cannot be left pending, and there is no room to take it */
    MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Recv(buf, *len, MPI_BYTE, *worker, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return buf;
}

static double farm_reported(const stu_exec_t *exec, size_t slot, int *ended)
{
  const farm_t *farm = exec->state;
  *ended = farm->reported[slot].ended;
  return farm->reported[slot].ops;
}

static int farm_wait(stu_exec_t *exec, size_t *slot, FILE **result, char *err, size_t errlen)
{
  farm_t *farm = exec->state;
  int len = 0;
  int worker = 0;
  char *buf = receive_reply(farm, &len, &worker);
  *slot = (size_t)worker - 1;
  if (!buf)
    return STU_EXEC_PROGRESS;
  farm->busy[*slot] = 0;
  *result = NULL;
  reply_t reply = {.status = SIM_ECHILD};
  if ((size_t)len >= sizeof reply)
    memcpy(&reply, buf, sizeof reply);
  reply.message[sizeof reply.message - 1] = '\0';
  snprintf(err, errlen, "%s", reply.message);
  FILE *stream = reply.status == 0 ? tmpfile() : NULL;
  if (stream && (fwrite(buf + sizeof reply, 1, (size_t)len - sizeof reply, stream) != (size_t)len - sizeof reply ||
                 fseek(stream, 0, SEEK_SET) != 0)) {
    fclose(stream);
    stream = NULL;
  }
  free(buf);
  if (reply.status == 0 && !stream) {
    snprintf(err, errlen, "cannot keep a worker's result in a temporary file");
    return SIM_EIO;
  }
  *result = stream;
  return reply.status;
}

/* Waits for the tasks still running: a worker's result is one message, which must be taken before MPI ends. */
static void farm_stop(stu_exec_t *exec)
{
  farm_t *farm = exec->state;
  for (int w = 0; w < farm->workers; w++)
    if (farm->busy[w]) {
      int len = 0;
      int worker = 0;
      char *reply = receive_reply(farm, &len, &worker);
      farm->busy[worker - 1] = reply ? 0 : farm->busy[worker - 1];
      free(reply);
      w = -1; /* the reply may have come from another worker: look again */
    }
}

int stu_farm_exec_new(stu_exec_t *exec, char *err, size_t errlen)
{
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) {
    snprintf(err, errlen,
             "--mpi needs at least 2 ranks (rank 0 hands out the points, the others simulate them); "
             "run it as mpirun -np N simrun --mpi ... with N >= 2");
    return SIM_EINVAL;
  }
  farm_t *farm = malloc(sizeof *farm);
  int *busy = calloc((size_t)size - 1, sizeof *busy);
  report_t *reported = calloc((size_t)size - 1, sizeof *reported);
  if (!farm || !busy || !reported) {
    free(farm);
    free(busy);
    free(reported);
    return SIM_ENOMEM;
  }
  *farm = (farm_t){.workers = size - 1, .busy = busy, .reported = reported};
  *exec = (stu_exec_t){.slots = (size_t)size - 1,
                       .start = farm_start,
                       .wait = farm_wait,
                       .reported = farm_reported,
                       .stop = farm_stop,
                       .state = farm};
  return 0;
}

void stu_farm_exec_free(stu_exec_t *exec)
{
  farm_t *farm = exec->state;
  if (!farm)
    return;
  farm_stop(exec);
  free(farm->busy);
  free(farm->reported);
  free(farm);
  exec->state = NULL;
}

/* Passes the local simulation's last report on to rank 0. */
static void pass_report(const stu_exec_t *pool)
{
  report_t report = {.ops = -1};
  int ended = 0;
  report.ops = pool->reported(pool, 0, &ended);
  report.ended = ended;
  if (report.ops >= 0)
    MPI_Send(&report, (int)sizeof report, MPI_BYTE, 0, TAG_PROGRESS, MPI_COMM_WORLD);
}

/* Runs one task in a local process, passing its reports of progress on to rank 0 as they come; 0 with its result
 * stream, or its error with a message. */
static int run_task(stu_exec_t *pool, const stu_task_t *task, FILE **result, char *err, size_t errlen)
{
  size_t slot = 0;
  int rc = pool->start(pool, 0, task, err, errlen);
  while (rc == 0 && ((rc = pool->wait(pool, &slot, result, err, errlen)) == SIM_EINTR || rc == STU_EXEC_PROGRESS)) {
    if (rc == STU_EXEC_PROGRESS)
      pass_report(pool);
    rc = 0;
  }
  if (rc == 0)
    pass_report(pool); /* the end's count, read as the simulation process ended */
  return rc;
}

/* The reply to rank 0: the header, then the result's bytes (from the stream's position on). A new buffer of *len
 * bytes, or NULL. */
static char *make_reply(int rc, const char *message, FILE *result, long *len)
{
  long start = result ? ftell(result) : 0;
  long size = 0;
  if (result && (start < 0 || fseek(result, 0, SEEK_END) != 0 || (size = ftell(result) - start) < 0 ||
                 fseek(result, start, SEEK_SET) != 0))
    return NULL;
  reply_t reply = {.status = rc};
  snprintf(reply.message, sizeof reply.message, "%s", message);
  char *buf = malloc(sizeof reply + (size_t)size);
  if (!buf)
    return NULL;
  memcpy(buf, &reply, sizeof reply);
  *len = (long)sizeof reply + size;
  if (size > 0 && fread(buf + sizeof reply, 1, (size_t)size, result) != (size_t)size) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* Serves one task: runs it and sends rank 0 the reply. */
static void serve_task(stu_exec_t *pool, const stu_task_t *task)
{
  char message[1020] = "";
  FILE *result = NULL;
  int rc = pool ? run_task(pool, task, &result, message, sizeof message) : SIM_EINVAL;
  if (!pool)
    snprintf(message, sizeof message, "a worker could not read the scenario");
  long len = 0;
  char *buf = make_reply(rc, message, rc == 0 ? result : NULL, &len);
  if (result)
    fclose(result);
  reply_t failure = {.status = SIM_ENOMEM};
  snprintf(failure.message, sizeof failure.message, "a worker could not send its result (out of memory)");
  MPI_Send(buf ? buf : (char *)&failure, buf ? (int)len : (int)sizeof failure, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
  free(buf);
}

int stu_farm_serve(const stu_sweep_ctx_t *ctx, char *err, size_t errlen)
{
  stu_exec_t pool = {0};
  int have_pool = ctx && stu_pool_new(ctx, 1, &pool) == 0;
  for (;;) {
    MPI_Status status;
    MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == TAG_STOP) {
      MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      break;
    }
    stu_task_t task;
    MPI_Recv(&task, (int)sizeof task, MPI_BYTE, 0, TAG_TASK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    serve_task(have_pool ? &pool : NULL, &task);
  }
  stu_pool_free(&pool);
  return 0;
}
