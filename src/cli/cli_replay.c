/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay of a measured run for simrun analyse --replay-on and --platform (cli_replay.h): a one-point scenario of
 * the ti-replay skeleton on the platform, run by this very executable in a child (SimGrid starts once per process)
 * with its CSV, results JSON and error lines in a temporary folder, from which T_par, or the bottleneck view, is read,
 * and which goes on every path. */
#define _GNU_SOURCE /* realpath */
#include "cli_replay.h"
#include "bas_temp.h"
#include "cli_exit.h"
#include "cli_results.h"
#include "cli_signal.h"
#include "cli_table.h"
#include "rep_report.h"
#include "sim_error.h"
#include "sim_replay.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* The absolute path of `path` for the scenario, which must not need XML escaping. 0, or -1 with the reason. */
static int absolute(const char *path, char out[PATH_MAX], char *err, size_t errlen)
{
  if (!realpath(path, out)) {
    snprintf(err, errlen, "%s: cannot be found", path);
    return -1;
  }
  if (strpbrk(out, "\"<>&'")) {
    snprintf(err, errlen, "%s: a path with one of \" < > & ' cannot go into a scenario; move it", out);
    return -1;
  }
  return 0;
}

/* The files of one replay, in its temporary folder. */
typedef struct replay_files {
  char folder[PATH_MAX];
  char scenario[PATH_MAX + 16], json[PATH_MAX + 16], hostfile[PATH_MAX + 16], errors[PATH_MAX + 16];
  char index[PATH_MAX + 16];
} replay_files_t;

/* In the forked child: its report is not analyse's (stdout to /dev/null), its error lines go to `errors` for the
 * parent to reword, and it dies with the parent (a parent killed with -9 leaves no replay running). Only
 * async-signal-safe calls: the parent has a watchdog thread (cli_signal.h). */
static void exec_child(const replay_files_t *f)
{
  int null = open("/dev/null", O_WRONLY);
  int errors = open(f->errors, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (null < 0 || errors < 0 || dup2(null, STDOUT_FILENO) < 0 || dup2(errors, STDERR_FILENO) < 0)
    _exit(127);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  execl("/proc/self/exe", "simrun", f->scenario, "--json", f->json, "--quiet", (char *)NULL);
  _exit(127);
}

/* Runs this executable on the scenario, its results into its JSON, and waits for it, its wait status into *status; a
 * signal caught meanwhile (cli_signal.h) ends it. EXIT_OK, EXIT_RUNTIME when it could not be started or waited for,
 * or CLI_EXIT_STOPPED. */
static int run_child(const replay_files_t *f, int *status)
{
  fflush(NULL); /* what this process printed must not be written again by the child */
  pid_t pid = fork();
  if (pid == 0)
    exec_child(f);
  while (pid > 0 && waitpid(pid, status, 0) < 0) {
    if (errno != EINTR)
      return EXIT_RUNTIME;
    if (cli_signal_stop()) {
      kill(pid, SIGKILL);
      while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
      return CLI_EXIT_STOPPED;
    }
  }
  return pid > 0 ? EXIT_OK : EXIT_RUNTIME;
}

/* The child's error line (the first "simrun: error: " line of its stderr), said of the user's files: without the
 * temporary scenario's place, which names nothing the user wrote, nor the scenario's words around a platform that did
 * not load, and with the user's index `trace` for the temporary one (own_index: an empty index.txt was "said" as
 * /tmp/simrun-replay-XXXXXX/index.txt); into err. Its other lines (warnings) are shown as they are. 0, or -1 when it
 * wrote no error line. */
static int child_error(const replay_files_t *f, const char *trace, const char *platform, char *err, size_t errlen)
{
  static const char prefix[] = "simrun: error: ";
  char line[8192], loaded[PATH_MAX + 64];
  FILE *in = fopen(f->errors, "r");
  int found = 0;
  snprintf(loaded, sizeof loaded, "platform '%s' could not be loaded: ", platform);
  while (in && fgets(line, sizeof line, in)) {
    if (found || strncmp(line, prefix, sizeof prefix - 1) != 0) {
      fputs(line, stderr);
      continue;
    }
    found = 1;
    char *what = line + sizeof prefix - 1;
    size_t len = strlen(f->scenario);
    if (strncmp(what, f->scenario, len) == 0 && what[len] == ':') /* "SCENARIO: " or "SCENARIO:LINE: " */
      what = strstr(what + len, ": ") ? strstr(what + len, ": ") + 2 : what;
    if (strncmp(what, loaded, strlen(loaded)) == 0)
      what += strlen(loaded);
    what[strcspn(what, "\n")] = '\0';
    const char *temporary = strstr(what, f->index);
    if (temporary)
      snprintf(err, errlen, "%.*s%s%s", (int)(temporary - what), what, trace, temporary + strlen(f->index));
    else
      snprintf(err, errlen, "%s", what);
  }
  if (in)
    fclose(in);
  return found ? 0 : -1;
}

/* The warnings of a child that ended well (how it priced messages between ranks on one host, a trace's message
 * dropped at its end), each once (the replays of --replay-on and --platform on one platform say the same), as a run
 * of the scenario gives them: before, they went with the temporary folder. The one on messages between ranks on one
 * host into out->same_host, after "PLATFORM: " (`platform`, the path the scenario gave). */
static void child_warnings(const replay_files_t *f, const char *platform, cli_replayed_t *out)
{
  static const char prefix[] = "simrun: warning: ";
  char line[8192];
  FILE *in = fopen(f->errors, "r");
  size_t len = strlen(platform);
  while (in && fgets(line, sizeof line, in)) {
    if (strncmp(line, prefix, sizeof prefix - 1) != 0)
      continue;
    sim_message_once(line);
    const char *what = line + sizeof prefix - 1;
    if (strncmp(what, platform, len) == 0 && strncmp(what + len, ": ", 2) == 0)
      what += len + 2;
    if (strstr(what, SIM_SAME_HOST_WORDS))
      snprintf(out->same_host, sizeof out->same_host, "%.*s", (int)strcspn(what, "\n"), what);
  }
  if (in)
    fclose(in);
}

/* The outcome of the child that ended with wait status `status`: EXIT_OK (its warnings shown), or EXIT_INPUT /
 * EXIT_RUNTIME (as the child exited: 2 for its input, the trace or the platform) with the reason in err. */
static int child_outcome(const replay_files_t *f, int status, const char *trace, const char *platform,
                         cli_replayed_t *out, char *err, size_t errlen)
{
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    child_warnings(f, platform, out);
    return EXIT_OK;
  }
  if (child_error(f, trace, platform, err, errlen) != 0) {
    if (WIFSIGNALED(status))
      snprintf(err, errlen, "the replay of %s on %s was killed by SIG%s", trace, platform,
               sigabbrev_np(WTERMSIG(status)));
    else
      snprintf(err, errlen, "the replay of %s on %s failed without a message (exit status %d)", trace, platform,
               WEXITSTATUS(status));
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == EXIT_INPUT ? EXIT_INPUT : EXIT_RUNTIME;
}

/* The number in column prefix + name + suffix of the table's first row (a '-' of the name written '_', as the JSON
 * keys are): NAN when the field is empty (an undefined ratio, JSON null), or -1 in *missing when there is no such
 * column. */
static double column(const rep_table_t *t, const char *prefix, const char *name, const char *suffix, int *missing)
{
  char full[128];
  snprintf(full, sizeof full, "%s%s%s", prefix, name, suffix);
  for (char *dash = strchr(full, '-'); dash; dash = strchr(dash, '-'))
    *dash = '_';
  for (size_t j = 0; j < t->ncols; j++)
    if (strcmp(t->names[j], full) == 0)
      return t->rows[0][j][0] ? strtod(t->rows[0][j], NULL) : NAN;
  *missing = -1;
  return NAN;
}

/* The bottleneck view (rep_json's "bottleneck") of the replay's results `t` into *b. 0, or -1 when they have none. */
static int read_breakdown(const rep_table_t *t, met_breakdown_t *b)
{
  int missing = 0;
  *b = (met_breakdown_t){.t_par = column(t, "", "t_par", "_s", &missing)};
  for (int c = 0; c < MET_COMP_COUNT; c++) {
    b->component[c] = column(t, "", met_component_name((met_component_t)c), "_s", &missing);
    b->b_ratio[c] = column(t, "b_", met_component_name((met_component_t)c), "", &missing);
  }
  for (int s = 0; s < MET_SUB_COUNT; s++)
    b->sub[s] = column(t, "", met_sub_name((met_sub_t)s), "_s", &missing);
  b->idle = column(t, "", "idle", "_s", &missing);
  b->comm_comp_ratio = column(t, "", "comm_comp_ratio", "", &missing);
  b->mem_proc_ratio = column(t, "", "mem_proc_ratio", "", &missing);
  b->utilisation = column(t, "", "utilisation", "", &missing);
  return missing;
}

/* The replay's placement: rank i on hosts[i], a line each. 0, or -1. */
static int write_hostfile(const char *path, char (*hosts)[32], int p)
{
  FILE *out = fopen(path, "w");
  for (int i = 0; out && i < p; i++)
    fprintf(out, "%s\n", hosts[i]);
  return out && fclose(out) == 0 ? 0 : -1;
}

/* Writes the one-point scenario of the replay (and its hostfile when `hosts` is not NULL). 0, or -1. The run was
 * measured under Open MPI (libsimrun-trace.so is built on it): its collectives replay as Open MPI chose them, by
 * communicator and message size, not as SMPI's defaults (a loop of 20,000 8-byte MPI_Allreduce, MPI_Bcast and
 * MPI_Reduce at p = 2 predicted 14.5 ms so, against 9.4-11.5 ms measured untraced: SMPI's allreduce is a reduce then a
 * broadcast, Open MPI's one exchange, docs/analyse.md). */
static int write_scenario(const replay_files_t *f, const char *platform, const char *trace, int p, char (*hosts)[32])
{
  if (hosts && write_hostfile(f->hostfile, hosts, p) != 0)
    return -1;
  FILE *out = fopen(f->scenario, "w");
  if (!out)
    return -1;
  fprintf(out,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<scenario name=\"replay\">\n  <platform file=\"%s\"/>\n"
          "  <program skeleton=\"ti-replay\">\n    <param name=\"trace\" value=\"%s\"/>\n"
          "    <param name=\"p\" value=\"%d\"/>\n    <param name=\"collectives\" value=\"openmpi\"/>\n",
          platform, trace, p);
  if (hosts)
    fprintf(out, "    <param name=\"hostfile\" value=\"%s\"/>\n", f->hostfile);
  fprintf(out, "  </program>\n</scenario>\n");
  return fclose(out) == 0 ? 0 : -1;
}

/* Makes the replay's temporary folder in $TMPDIR (/tmp without it), guarded so that a signal that ends the run
 * removes it (rep_file_guard_tree), and names its files. EXIT_OK, or EXIT_RUNTIME with the reason in err. */
static int make_folder(replay_files_t *f, char *err, size_t errlen)
{
  snprintf(f->folder, sizeof f->folder, "%s/simrun-replay-XXXXXX", bas_temp_dir());
  if (!mkdtemp(f->folder)) {
    snprintf(err, errlen, "cannot make a temporary folder %s for the replay (%s); set TMPDIR to a writable folder",
             f->folder, strerror(errno));
    return EXIT_RUNTIME;
  }
  if (rep_file_guard_tree(f->folder) != 0) {
    rmdir(f->folder);
    snprintf(err, errlen, "out of memory");
    return EXIT_RUNTIME;
  }
  snprintf(f->hostfile, sizeof f->hostfile, "%s/hosts.txt", f->folder);
  snprintf(f->scenario, sizeof f->scenario, "%s/replay.xml", f->folder);
  snprintf(f->json, sizeof f->json, "%s/replay.json", f->folder);
  snprintf(f->errors, sizeof f->errors, "%s/errors.txt", f->folder);
  snprintf(f->index, sizeof f->index, "%s/index.txt", f->folder);
  return EXIT_OK;
}

/* Writes to `out` an index of `dir`'s own TI files, by the names its index.txt lists, comment lines kept: 0; else 1
 * (one of them is not in `dir`, or `out` cannot be written: then its index.txt is replayed as it is). The tracer
 * lists the files by absolute path (smpirun opens them from wherever it runs), so the index of a copied folder names
 * the original's files: MUMPS' dsimpletest at p = 2, its folder copied and the original traced again, was predicted
 * from the other run's TI trace against its own timelines (-26.9%, 0.0018 s against 0.0025 s) without a word. */
static int own_index(const char *dir, const char *out)
{
  char index[PATH_MAX + 16], line[PATH_MAX + 16], own[2 * PATH_MAX + 16], real[PATH_MAX];
  snprintf(index, sizeof index, "%s/index.txt", dir);
  FILE *in = fopen(index, "r");
  FILE *to = in ? fopen(out, "w") : NULL;
  int rc = in ? 0 : 1;
  while (rc == 0 && to && fgets(line, sizeof line, in)) {
    size_t len = strcspn(line, "\r\n");
    if (line[len] == '\0' && !feof(in)) { /* a line longer than a path */
      rc = 1;
      break;
    }
    line[len] = '\0';
    const char *name = strrchr(line, '/') ? strrchr(line, '/') + 1 : line;
    snprintf(own, sizeof own, "%s/%s", dir, name);
    if (line[0] == '#' || line[0] == '\0')
      fprintf(to, "%s\n", line);
    else if (realpath(own, real))
      fprintf(to, "%s\n", real);
    else
      rc = 1;
  }
  if (in)
    fclose(in);
  if (to && fclose(to) != 0)
    rc = 1;
  return in && !to ? 1 : rc;
}

/* The results of the replay of `trace` on `platform` in its files `f`: its T_par and T_seq into *out, and its
 * bottleneck view into `breakdown` when that is not NULL, from its results JSON read as simrun compare reads a results
 * file (cli_table.h): its CSV, once split on commas by hand, took the quoted path of a platform "a,b.xml" for two
 * fields and read p = 2 for T_par. EXIT_OK, or EXIT_RUNTIME with the reason in err. */
static int read_replayed(const replay_files_t *f, const char *trace, const char *platform, cli_replayed_t *out,
                         met_breakdown_t *breakdown, char *err, size_t errlen)
{
  cli_table_t results;
  char why[1200] = "";
  int missing = 0, read = cli_table_read(f->json, &results, why, sizeof why) == 0;
  if (read) {
    out->t_par = column(&results.t, "", "t_par", "_s", &missing);
    out->t_seq = column(&results.t, "", "t_seq", "_s", &missing);
  }
  size_t temporary = strlen(f->json); /* its messages name the temporary file, not one of the user's */
  const char *said = strncmp(why, f->json, temporary) == 0 ? why + temporary + strspn(why + temporary, ": ") : why;
  int rc = EXIT_RUNTIME;
  if (!read)
    snprintf(err, errlen, "the replay of %s on %s wrote no T_par (its results: %s)", trace, platform, said);
  else if (!(out->t_par >= 0))
    snprintf(err, errlen, "the replay of %s on %s wrote no T_par", trace, platform);
  else if (breakdown && read_breakdown(&results.t, breakdown) != 0)
    snprintf(err, errlen, "the replay of %s on %s gave no bottleneck view", trace, platform);
  else
    rc = EXIT_OK;
  cli_table_free(&results);
  return rc;
}

/* Replays the run in `dir` at p ranks on `platform`: *out (its T_par and T_seq from its results JSON), and its
 * bottleneck view into `breakdown` when that is not NULL. As cli_replay_time returns; the temporary folder is removed
 * on every path. */
static int replay(const char *platform, const char *dir, int p, char (*hosts)[32], cli_replayed_t *out,
                  met_breakdown_t *breakdown, char *err, size_t errlen)
{
  char plat[PATH_MAX], index[PATH_MAX + 16], trace[PATH_MAX];
  replay_files_t f;
  snprintf(index, sizeof index, "%s/index.txt", dir);
  out->t_par = -1;
  out->t_seq = NAN;
  out->same_host[0] = '\0';
  if (absolute(platform, plat, err, errlen) != 0 || absolute(index, trace, err, errlen) != 0)
    return EXIT_INPUT;
  int rc = make_folder(&f, err, errlen);
  if (rc != EXIT_OK)
    return rc;
  const char *replayed = own_index(dir, f.index) == 0 ? f.index : trace; /* messages name the user's index */
  cli_signal_step("replay", "while replaying the runs");
  if (cli_signal_stop())
    rc = CLI_EXIT_STOPPED;
  else if (write_scenario(&f, plat, replayed, p, hosts) != 0) {
    snprintf(err, errlen, "cannot write the replay's scenario into %s: %s", f.folder, strerror(errno));
    rc = EXIT_RUNTIME;
  } else {
    int status = 0;
    rc = run_child(&f, &status);
    if (rc == EXIT_OK)
      rc = child_outcome(&f, status, trace, plat, out, err, errlen);
    else if (rc == EXIT_RUNTIME)
      snprintf(err, errlen, "cannot start the replay of %s: %s", trace, strerror(errno));
  }
  if (rc == EXIT_OK)
    rc = read_replayed(&f, trace, plat, out, breakdown, err, errlen);
  if (breakdown)
    breakdown->p = p;
  rep_file_unguard_tree(f.folder);
  rep_file_remove_tree(f.folder);
  return rc;
}

int cli_replay_time(const char *platform, const char *dir, int p, char (*hosts)[32], cli_replayed_t *out, char *err,
                    size_t errlen)
{
  return replay(platform, dir, p, hosts, out, NULL, err, errlen);
}

int cli_replay_breakdown(const char *platform, const char *dir, int p, met_breakdown_t *out, char *err, size_t errlen)
{
  cli_replayed_t replayed;
  return replay(platform, dir, p, NULL, &replayed, out, err, errlen);
}
