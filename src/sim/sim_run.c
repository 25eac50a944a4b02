/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Fork-isolated simulation runs: the child simulates and writes a status, a message and a payload (the trace, or what
 * the caller makes of it) to a temporary file; the parent waits for one child, or for any of several, and reads them.
 */
#define _GNU_SOURCE /* ppoll */
#include "sim_run.h"
#include "sim_check.h"
#include "sim_engine.h"
#include "sim_error.h"
#include "sim_grid.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
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

/* The probe's job: the platform, and the numbers of ranks to describe it for (sim_run_probe_describe). */
typedef struct probe_job {
  const char *platform;
  const int *ranks;
  size_t count;
} probe_job_t;

/* Whether every host of the loaded platform is in one native zone (sim_grid.h), where every route is arithmetic. */
static int one_native_zone(void)
{
  const void *zone = sim_grid_native_zone(sim_engine_host(0));
  for (size_t i = 1; zone && i < sim_engine_host_count(); i++)
    if (sim_grid_native_zone(sim_engine_host(i)) != zone)
      return 0;
  return zone != NULL;
}

/* Writes the host count, then whether descriptions follow and, when they do, for each number of ranks of the job, 1
 * and the platform's description for it (sim_machine_describe), or 0 where it was not made (more ranks than hosts:
 * the description in a process of its own says why). Descriptions follow
 * only on a platform of one native zone, whose routes cannot be missing (the probe checked no route inside it): there
 * a description cannot kill the probe, which would have made a bad platform of what is only a missing model. */
static int write_probe(const void *data, FILE *out)
{
  const probe_job_t *job = data;
  uint64_t hosts = sim_engine_host_count();
  int32_t follow = job->count > 0 && one_native_zone();
  int ok = fwrite(&hosts, sizeof hosts, 1, out) == 1 && fwrite(&follow, sizeof follow, 1, out) == 1;
  met_platform_t *machine = follow ? malloc(sizeof *machine) : NULL;
  for (size_t k = 0; ok && follow && k < job->count; k++) {
    char err[1024];
    int32_t made = machine && job->ranks[k] >= 1 && (uint64_t)job->ranks[k] <= hosts &&
                   sim_machine_describe(job->platform, job->ranks[k], machine, err, sizeof err) == 0;
    ok = fwrite(&made, sizeof made, 1, out) == 1 && (!made || fwrite(machine, sizeof *machine, 1, out) == 1);
  }
  free(machine);
  return ok ? 0 : -1;
}

static void child_probe(const void *data, FILE *out)
{
  const probe_job_t *job = data;
  const char *platform = job->platform;
  char err[1024] = "";
  sim_machine_t machine;
  int32_t status = sim_check_platform_xml(platform, err, sizeof err);
  if (status == 0)
    status = sim_engine_init(err, sizeof err);
  if (status == 0)
    status = sim_check_config(platform, err, sizeof err);
  if (status == 0 && (status = sim_engine_start(platform, err, sizeof err)) != 0) {
    sim_check_explain(err, sizeof err);
    sim_check_locate(platform, err, sizeof err);
  }
  if (status == 0) /* each property's value first, by its file and line: sim_machine_read's refusal names neither */
    status = sim_check_props(platform, err, sizeof err);
  if (status == 0)
    status = sim_machine_read(&machine, err, sizeof err);
  if (status == 0)
    status = sim_check_machine(&machine, err, sizeof err);
  if (status == 0)
    status = sim_check_platform(err, sizeof err);
  uint64_t hosts = status == 0 ? sim_engine_host_count() : 0;
  for (uint64_t i = 0; status == 0 && i < hosts; i++) { /* every host's characterisation, before any run needs it */
    met_charac_t charac;
    status = sim_machine_charac(sim_engine_host(i), platform, &charac, NULL, 0, err, sizeof err);
  }
  child_finish(out, status, err, write_probe, job);
}

/* The platform description of sim_run_describe: its arguments in, the description out. */
typedef struct describe_job {
  const char *platform;
  const char *engine_cfg; /* the runs' SimGrid settings (sim_job_t.engine_cfg), or NULL */
  int nranks;
  met_platform_t *machine;
} describe_job_t;

static int write_description(const void *machine, FILE *out)
{
  return fwrite(machine, sizeof(met_platform_t), 1, out) == 1 ? 0 : -1;
}

static void child_describe(const void *data, FILE *out)
{
  const describe_job_t *job = data;
  char err[1024] = "";
  sim_engine_configure(job->engine_cfg); /* the network model the runs have, for the models to price as they do */
  int32_t status = sim_engine_start(job->platform, err, sizeof err);
  if (status == 0)
    status = sim_machine_describe(job->platform, job->nranks, job->machine, err, sizeof err);
  child_finish(out, status, err, write_description, job->machine);
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

static void close_files(sim_run_child_t *slot)
{
  if (slot->channel)
    fclose(slot->channel);
  if (slot->log)
    fclose(slot->log);
  if (slot->progress_fd >= 0)
    close(slot->progress_fd);
  slot->channel = slot->log = NULL;
  slot->progress_fd = -1;
}

/* In a new child: the signals the parent catches back to their defaults; a process group of its own, so that a
 * terminal's Ctrl-C reaches the parent alone, which ends its children; killed when the parent dies, even by kill -9
 * (Linux); stderr into `log`. */
static void become_child(pid_t parent, FILE *log)
{
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  setpgid(0, 0);
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  if (getppid() != parent) /* the parent died before prctl */
    _exit(3);
  dup2(fileno(log), STDERR_FILENO);
}

/* Forks a process running child(data, channel), SIGINT back to its default so that an interrupt ends it. Returns 0 with
 * the process in *slot, or SIM_EIO / SIM_ECHILD with a message. */
static int start_child(void (*child)(const void *, FILE *), const void *data, sim_run_child_t *slot, char *err,
                       size_t errlen)
{
  int reports[2] = {-1, -1};
  *slot = (sim_run_child_t){.channel = tmpfile(), .log = tmpfile(), .progress_fd = -1}; /* unnamed: nothing to clean */
  if (!slot->channel || !slot->log || pipe(reports) != 0) {
    snprintf(err, errlen, "cannot create a temporary file: %s", strerror(errno));
    close_files(slot);
    return SIM_EIO;
  }
  fflush(NULL); /* nothing buffered may be written twice */
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    become_child(parent, slot->log);
    close(reports[0]);
    sim_progress_attach(reports[1]);
    child(data, slot->channel);
  }
  close(reports[1]);
  slot->progress_fd = reports[0];
  fcntl(reports[0], F_SETFL, fcntl(reports[0], F_GETFL) | O_NONBLOCK);
  if (pid < 0) {
    snprintf(err, errlen, "cannot start a simulation process: %s", strerror(errno));
    close_files(slot);
    return SIM_ECHILD;
  }
  slot->pid = pid;
  return 0;
}

/* The first line the dead child printed, without SimGrid's "[time] file:line: [category/CRITICAL] " head, into
 * `line` ("" when it printed nothing). */
static void last_words(FILE *log, char *line, size_t size)
{
  char text[1024] = "";
  rewind(log);
  if (!fgets(text, sizeof text, log))
    text[0] = '\0';
  text[strcspn(text, "\n")] = '\0';
  const char *start = text;
  const char *level = strstr(text, "/CRITICAL] ");
  if (text[0] == '[' && level)
    start = level + strlen("/CRITICAL] ");
  snprintf(line, size, "%s", start);
}

/* A child that ended well may still have written to its stderr (what --log asked SimGrid for, simrun's warnings,
 * which its sink printed there): each line goes on to the front end's sink (sim_error.h), as it went to simrun's stderr
 * before the child's stderr was captured for the one-line failure message, each simrun warning once. */
static void relay_log(FILE *log)
{
  char *line = NULL;
  size_t size = 0;
  rewind(log);
  while (getline(&line, &size, log) > 0)
    sim_message_once(line);
  free(line);
}

/* Reads what the child in `slot` reported since the last call: 1 when it reported a new count, 0 when not, -1 at the
 * end of its reports (it closed its end: it is ending). */
static int read_reports(sim_run_child_t *slot)
{
  char buf[512];
  ssize_t n;
  int fresh = 0;
  while ((n = read(slot->progress_fd, buf, sizeof buf)) > 0)
    fresh |= sim_progress_feed(&slot->progress, buf, (size_t)n);
  return fresh ? 1 : n == 0 ? -1 : 0;
}

/* What became of the child in `slot`, which ended with wait status `wstatus`: its own status and message (the channel
 * then stays open, positioned at the payload), or SIM_ECHILD. The slot is free afterwards; on failure the channel is
 * closed. */
static int child_outcome(sim_run_child_t *slot, int wstatus, char *err, size_t errlen)
{
  int rc = SIM_ECHILD;
  char words[512];
  last_words(slot->log, words, sizeof words);
  const char *sep = words[0] ? ": SimGrid said: " : "";
  if (WIFSIGNALED(wstatus))
    snprintf(err, errlen, "the simulation process died with signal %d (%s)%s%s", WTERMSIG(wstatus),
             strsignal(WTERMSIG(wstatus)), sep, words);
  else if (WEXITSTATUS(wstatus) != 0)
    snprintf(err, errlen, "the simulation process failed (exit status %d)%s%s", WEXITSTATUS(wstatus), sep, words);
  else {
    relay_log(slot->log);
    rc = read_status(slot->channel, err, errlen);
  }
  slot->pid = 0;
  fclose(slot->log);
  slot->log = NULL;
  if (slot->progress_fd >= 0) {
    read_reports(slot); /* the last count, written as the simulation ended */
    close(slot->progress_fd);
    slot->progress_fd = -1;
  }
  if (rc != 0)
    close_files(slot);
  return rc;
}

/* Runs child(data, file) in a forked process and returns the file positioned after the child's status, or NULL
 * with *rc and err set when the child failed or died. */
static FILE *run_child(void (*child)(const void *, FILE *), const void *data, int *rc, char *err, size_t errlen)
{
  sim_run_child_t slot;
  *rc = start_child(child, data, &slot, err, errlen);
  if (*rc != 0)
    return NULL;
  int wstatus = 0;
  pid_t done;
  if ((done = waitpid(slot.pid, &wstatus, 0)) < 0 && errno == EINTR) {
    /* a signal the caller catches (SIGINT, SIGTERM, SIGHUP) means stop: a platform that takes long to load must not
     * keep simrun waiting */
    snprintf(err, errlen, "interrupted");
    sim_run_stop(&slot, 1);
    *rc = SIM_EINTR;
    return NULL;
  }
  if (done < 0) {
    snprintf(err, errlen, "lost the simulation process: %s", strerror(errno));
    close_files(&slot);
    *rc = SIM_ECHILD;
    return NULL;
  }
  *rc = child_outcome(&slot, wstatus, err, errlen);
  return *rc == 0 ? slot.channel : NULL;
}

/* A simulation whose payload is the caller's: the job, the payload function and its context. */
typedef struct payload_job {
  const sim_job_t *job;
  sim_run_payload_fn payload;
  const void *ctx;
  const met_trace_t *trace;
} payload_job_t;

static int write_payload(const void *data, FILE *out)
{
  const payload_job_t *pj = data;
  return pj->payload(pj->trace, pj->ctx, out);
}

static void child_simulate_payload(const void *data, FILE *out)
{
  payload_job_t pj = *(const payload_job_t *)data;
  char err[1024] = "";
  met_trace_t *trace = NULL;
  int32_t status = sim_simulate(pj.job, &trace, err, sizeof err);
  sim_progress_flush();
  pj.trace = trace;
  child_finish(out, status, err, write_payload, &pj);
}

int sim_run_start(const sim_job_t *job, sim_run_payload_fn payload, const void *ctx, sim_run_child_t *child, char *err,
                  size_t errlen)
{
  payload_job_t pj = {.job = job, .payload = payload, .ctx = ctx};
  return start_child(child_simulate_payload, &pj, child, err, errlen);
}

static volatile sig_atomic_t child_ended;

static void on_child(int signal)
{
  child_ended = 1;
}

/* Reaps one ended child of `children` without blocking (each by its pid: another part of simrun may have children of
 * its own): 1 with its outcome in *rc and its index in *which, 0 when none has ended, -1 when one cannot be waited for.
 */
static int reap_one(sim_run_child_t *children, size_t count, size_t *which, int *rc, char *err, size_t errlen)
{
  for (size_t i = 0; i < count; i++) {
    int wstatus = 0;
    pid_t pid = children[i].pid > 0 ? waitpid(children[i].pid, &wstatus, WNOHANG) : 0;
    if (pid < 0 && errno != EINTR)
      return -1;
    if (pid > 0) {
      *which = i;
      *rc = child_outcome(&children[i], wstatus, err, errlen);
      return 1;
    }
  }
  return 0;
}

/* Sleeps, with the signal mask `open`, until a signal comes or a child of `children` writes to its progress pipe: 1
 * with the index of one that reported a new count in *which, 0 after a signal, -1 when the pipes said nothing new (a
 * damaged report, or a child closing its end as it ends: its SIGCHLD is yet to come). */
static int poll_reports(sim_run_child_t *children, size_t count, size_t *which, const sigset_t *open)
{
  struct pollfd fds[count ? count : 1];
  size_t n = 0;
  for (size_t i = 0; i < count; i++)
    if (children[i].pid > 0 && children[i].progress_fd >= 0)
      fds[n++] = (struct pollfd){.fd = children[i].progress_fd, .events = POLLIN};
  if (ppoll(fds, n, NULL, open) <= 0)
    return 0; /* a signal */
  int fresh = -1;
  for (size_t i = 0, k = 0; i < count; i++) {
    if (children[i].pid <= 0 || children[i].progress_fd < 0 || !(fds[k++].revents & (POLLIN | POLLHUP | POLLERR)))
      continue;
    int got = read_reports(&children[i]);
    if (got < 0) { /* its end: polled no more, the SIGCHLD follows */
      close(children[i].progress_fd);
      children[i].progress_fd = -1;
    }
    if (got > 0 && fresh < 0) {
      *which = i;
      fresh = 1;
    }
  }
  return fresh;
}

/* The end of sim_run_wait_any: SIGCHLD's handler and the signal mask as they were. */
static int finish_wait(int rc, const struct sigaction *before, const sigset_t *was)
{
  sigaction(SIGCHLD, before, NULL);
  sigprocmask(SIG_SETMASK, was, NULL);
  return rc;
}

/* Every signal is blocked while the children are polled and the stop request checked, and let in only inside ppoll
 * (which also wakes on a progress report): a signal that comes between the check and the wait cannot be missed
 * (waitpid alone would then sleep until a child ended, minutes on a long point). SIGCHLD has a handler meanwhile, or
 * ppoll would not see it. */
int sim_run_wait_any(sim_run_child_t *children, size_t count, size_t *which, int (*stop)(void), char *err,
                     size_t errlen)
{
  sigset_t all, was, open;
  struct sigaction chld = {.sa_handler = on_child}, before;
  sigfillset(&all);
  sigemptyset(&chld.sa_mask);
  sigprocmask(SIG_BLOCK, &all, &was);
  sigaction(SIGCHLD, &chld, &before);
  open = was;
  sigdelset(&open, SIGCHLD);
  int rc = SIM_EINTR;
  for (;;) {
    child_ended = 0;
    int reaped = reap_one(children, count, which, &rc, err, errlen);
    if (reaped != 0) {
      if (reaped < 0) {
        snprintf(err, errlen, "lost the simulation processes: %s", strerror(errno));
        rc = SIM_ECHILD;
      }
      break;
    }
    if (stop && stop()) {
      snprintf(err, errlen, "interrupted");
      rc = SIM_EINTR;
      break;
    }
    int reported = poll_reports(children, count, which, &open);
    if (reported > 0)
      return finish_wait(SIM_RUN_PROGRESS, &before, &was);
    if (reported == 0 && !stop && !child_ended) { /* another caught signal: the caller decides */
      snprintf(err, errlen, "interrupted");
      rc = SIM_EINTR;
      break;
    }
  }
  return finish_wait(rc, &before, &was);
}

void sim_run_stop(sim_run_child_t *children, size_t count)
{
  for (size_t i = 0; i < count; i++) {
    if (children[i].pid <= 0)
      continue;
    kill(children[i].pid, SIGKILL);
    while (waitpid(children[i].pid, NULL, 0) < 0 && errno == EINTR)
      ;
    close_files(&children[i]);
    children[i] = (sim_run_child_t){0};
  }
}

int sim_run_probe_describe(const char *platform, const int *ranks, size_t count, size_t *hosts, sim_run_take_fn take,
                           void *state, char *err, size_t errlen)
{
  int rc;
  uint64_t n = 0;
  int32_t follow = 0;
  probe_job_t job = {.platform = platform, .ranks = ranks, .count = count};
  FILE *channel = run_child(child_probe, &job, &rc, err, errlen);
  if (!channel)
    return rc;
  rc = fread(&n, sizeof n, 1, channel) == 1 && fread(&follow, sizeof follow, 1, channel) == 1 ? 0 : SIM_ECHILD;
  if (rc != 0)
    snprintf(err, errlen, "the platform probe wrote no host count");
  met_platform_t *machine = rc == 0 && follow ? malloc(sizeof *machine) : NULL;
  if (rc == 0 && follow && !machine)
    snprintf(err, errlen, "%s", bas_strerror(rc = SIM_ENOMEM));
  for (size_t k = 0; rc == 0 && follow && k < count; k++) {
    int32_t one = 0;
    rc = fread(&one, sizeof one, 1, channel) == 1 && (!one || fread(machine, sizeof *machine, 1, channel) == 1)
             ? 0
             : SIM_ECHILD;
    if (rc != 0)
      snprintf(err, errlen, "the platform probe wrote a damaged description");
    else if (one && (rc = take(state, k, machine)) != 0)
      snprintf(err, errlen, "%s", bas_strerror(rc));
  }
  free(machine);
  fclose(channel);
  *hosts = (size_t)n;
  return rc;
}

int sim_run_probe(const char *platform, size_t *hosts, char *err, size_t errlen)
{
  return sim_run_probe_describe(platform, NULL, 0, hosts, NULL, NULL, err, errlen);
}

int sim_run_describe(const char *platform, int nranks, met_platform_t *machine, char *err, size_t errlen)
{
  return sim_run_describe_for(platform, NULL, nranks, machine, err, errlen);
}

int sim_run_describe_for(const char *platform, const char *engine_cfg, int nranks, met_platform_t *machine, char *err,
                         size_t errlen)
{
  int rc;
  describe_job_t job = {.platform = platform, .engine_cfg = engine_cfg, .nranks = nranks, .machine = machine};
  FILE *channel = run_child(child_describe, &job, &rc, err, errlen);
  if (!channel)
    return rc;
  rc = fread(machine, sizeof *machine, 1, channel) == 1 ? 0 : SIM_ECHILD;
  fclose(channel);
  if (rc != 0)
    snprintf(err, errlen, "the platform description process wrote no description");
  return rc;
}
