/* Fork-isolated simulation runs: the child simulates and writes a status, a message and the trace to a temporary
 * file; the parent waits and reads them back. */
#include "sim_run.h"
#include "sim_engine.h"
#include "sim_error.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* In the child: write [status][message length][message] then, on success, the payload; leave without atexit hooks. */
static void child_finish(FILE *out, int32_t status, const char *err, int (*payload)(const void *, FILE *),
                         const void *data)
{
  uint32_t len = (uint32_t)strlen(err);
  int ok = fwrite(&status, sizeof status, 1, out) == 1 && fwrite(&len, sizeof len, 1, out) == 1 &&
           fwrite(err, 1, len, out) == len && (status != 0 || payload(data, out) == 0);
  ok = fflush(out) == 0 && ok;
  _exit(ok ? 0 : 3);
}

static int write_trace(const void *trace, FILE *out)
{
  return met_trace_write(trace, out);
}

static int write_count(const void *count, FILE *out)
{
  return fwrite(count, sizeof(uint64_t), 1, out) == 1 ? 0 : -1;
}

static void child_simulate(const void *job, FILE *out)
{
  char err[1024] = "";
  met_trace_t *trace = NULL;
  int32_t status = sim_simulate(job, &trace, err, sizeof err);
  child_finish(out, status, err, write_trace, trace);
}

static void child_probe(const void *platform, FILE *out)
{
  char err[1024] = "";
  sim_machine_t machine;
  int32_t status = sim_engine_start(platform, err, sizeof err);
  if (status == 0)
    status = sim_machine_read(&machine, err, sizeof err);
  uint64_t hosts = status == 0 ? sim_engine_host_count() : 0;
  child_finish(out, status, err, write_count, &hosts);
}

/* In the parent: read the status and message the child wrote; the payload follows. */
static int read_status(FILE *in, char *err, size_t errlen)
{
  int32_t status;
  uint32_t len;
  char message[1024];
  rewind(in);
  if (fread(&status, sizeof status, 1, in) != 1 || fread(&len, sizeof len, 1, in) != 1 || len >= sizeof message ||
      fread(message, 1, len, in) != len) {
    snprintf(err, errlen, "the simulation process left no readable result");
    return SIM_ECHILD;
  }
  message[len] = '\0';
  snprintf(err, errlen, "%s", message);
  return status;
}

/* Runs child(data, file) in a forked process and returns the file positioned after the child's status, or NULL
 * with *rc and err set when the child failed or died. */
static FILE *run_child(void (*child)(const void *, FILE *), const void *data, int *rc, char *err, size_t errlen)
{
  FILE *channel = tmpfile();
  if (!channel) {
    snprintf(err, errlen, "cannot create a temporary file: %s", strerror(errno));
    *rc = SIM_EIO;
    return NULL;
  }
  fflush(NULL); /* nothing buffered may be written twice */
  pid_t pid = fork();
  if (pid == 0)
    child(data, channel);
  *rc = SIM_ECHILD;
  int wstatus = 0;
  if (pid < 0)
    snprintf(err, errlen, "cannot start a simulation process: %s", strerror(errno));
  else if (waitpid(pid, &wstatus, 0) < 0)
    snprintf(err, errlen, "lost the simulation process: %s", strerror(errno));
  else if (WIFSIGNALED(wstatus))
    snprintf(err, errlen, "the simulation process died with signal %d (%s)", WTERMSIG(wstatus),
             strsignal(WTERMSIG(wstatus)));
  else if (WEXITSTATUS(wstatus) != 0)
    snprintf(err, errlen, "the simulation process failed (exit status %d)", WEXITSTATUS(wstatus));
  else
    *rc = read_status(channel, err, errlen);
  if (*rc == 0)
    return channel;
  fclose(channel);
  return NULL;
}

int sim_run_isolated(const sim_job_t *job, met_trace_t **trace, char *err, size_t errlen)
{
  int rc;
  *trace = NULL;
  FILE *channel = run_child(child_simulate, job, &rc, err, errlen);
  if (!channel)
    return rc;
  *trace = met_trace_read(channel);
  fclose(channel);
  if (*trace)
    return 0;
  snprintf(err, errlen, "the simulation process wrote a malformed trace");
  return SIM_ECHILD;
}

int sim_run_probe(const char *platform, size_t *hosts, char *err, size_t errlen)
{
  int rc;
  uint64_t count = 0;
  FILE *channel = run_child(child_probe, platform, &rc, err, errlen);
  if (!channel)
    return rc;
  rc = fread(&count, sizeof count, 1, channel) == 1 ? 0 : SIM_ECHILD;
  fclose(channel);
  if (rc != 0)
    snprintf(err, errlen, "the platform probe wrote no host count");
  *hosts = (size_t)count;
  return rc;
}
