/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay of a measured run for simrun analyse --replay-on and --platform (cli_replay.h): a one-point scenario of
 * the ti-replay skeleton on the platform, run by this very executable in a child (SimGrid starts once per process)
 * with its CSV and report in a temporary folder, from which T_par, or the report's bottleneck view, is read. */
#define _GNU_SOURCE /* realpath */
#include "cli_replay.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The t_par_s column of the CSV's first row, or a negative number. */
static double read_t_par(const char *csv)
{
  FILE *in = fopen(csv, "r");
  char header[4096], row[4096];
  double value = -1;
  if (in && fgets(header, sizeof header, in) && fgets(row, sizeof row, in)) {
    int column = 0;
    for (char *h = strtok(header, ",\n"); h && strcmp(h, "t_par_s") != 0; h = strtok(NULL, ",\n"))
      column++;
    char *cell = row;
    for (int c = 0; cell && c < column; c++)
      cell = strchr(cell, ',') ? strchr(cell, ',') + 1 : NULL;
    if (cell)
      value = strtod(cell, NULL);
  }
  if (in)
    fclose(in);
  return value;
}

/* Runs this executable on `scenario` with its CSV into `csv` and its report into `report`; 0 when it succeeded. */
static int run_child(const char *scenario, const char *csv, const char *report)
{
  fflush(NULL); /* what this process printed must not be written again by the child */
  pid_t pid = fork();
  if (pid == 0) { /* its report is not analyse's: only its errors are shown */
    FILE *kept = freopen(report, "w", stdout);
    (void)kept;
    execl("/proc/self/exe", "simrun", scenario, "--csv", csv, "--quiet", (char *)NULL);
    _exit(127);
  }
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Copies the report's bottleneck view (from its heading to the verdict's last line) to `out`; 0, or -1 when the
 * report has none. */
static int copy_breakdown(const char *report, FILE *out)
{
  FILE *in = fopen(report, "r");
  char line[4096];
  int copying = 0, copied = 0;
  while (in && fgets(line, sizeof line, in)) {
    copying = copying ? line[0] != '\n' : strncmp(line, "Bottleneck analysis", 19) == 0;
    if (copying && ++copied > 1) /* its heading is the caller's */
      fputs(line, out);
  }
  if (in)
    fclose(in);
  return copied > 1 ? 0 : -1;
}

/* Replays the run in `dir` at p ranks on `platform`: *t_par from its CSV, and its bottleneck view to `breakdown`
 * when that is not NULL. 0, or -1 with the reason in err. */
static int replay(const char *platform, const char *dir, int p, double *t_par, FILE *breakdown, char *err,
                  size_t errlen)
{
  char plat[PATH_MAX], index[PATH_MAX + 16], trace[PATH_MAX];
  snprintf(index, sizeof index, "%s/index.txt", dir);
  if (absolute(platform, plat, err, errlen) != 0 || absolute(index, trace, err, errlen) != 0)
    return -1;
  char folder[] = "/tmp/simrun-replay-XXXXXX";
  if (!mkdtemp(folder)) {
    snprintf(err, errlen, "cannot make a temporary folder in /tmp for the replay");
    return -1;
  }
  char scenario[64], csv[64], report[64];
  snprintf(scenario, sizeof scenario, "%s/replay.xml", folder);
  snprintf(csv, sizeof csv, "%s/replay.csv", folder);
  snprintf(report, sizeof report, "%s/report.txt", folder);
  FILE *out = fopen(scenario, "w");
  int rc = out ? 0 : -1;
  if (out) {
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<scenario name=\"replay\">\n  <platform file=\"%s\"/>\n"
            "  <program skeleton=\"ti-replay\">\n    <param name=\"trace\" value=\"%s\"/>\n"
            "    <param name=\"p\" value=\"%d\"/>\n  </program>\n</scenario>\n",
            plat, trace, p);
    rc = fclose(out) == 0 ? 0 : -1;
  }
  rc = rc == 0 ? run_child(scenario, csv, breakdown ? report : "/dev/null") : rc;
  *t_par = rc == 0 ? read_t_par(csv) : -1;
  if (rc != 0 || !(*t_par >= 0))
    snprintf(err, errlen, "the replay of %s on %s failed (its error is above)", trace, plat);
  else if (breakdown && copy_breakdown(report, breakdown) != 0) {
    snprintf(err, errlen, "the replay of %s on %s printed no bottleneck view", trace, plat);
    rc = -1;
  }
  unlink(scenario);
  unlink(csv);
  unlink(report);
  rmdir(folder);
  return rc == 0 && *t_par >= 0 ? 0 : -1;
}

int cli_replay_time(const char *platform, const char *dir, int p, double *t_par, char *err, size_t errlen)
{
  return replay(platform, dir, p, t_par, NULL, err, errlen);
}

int cli_replay_breakdown(const char *platform, const char *dir, int p, FILE *out, char *err, size_t errlen)
{
  double t_par;
  return replay(platform, dir, p, &t_par, out, err, errlen);
}
