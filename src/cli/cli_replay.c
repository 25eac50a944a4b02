/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay of a measured run for simrun analyse --replay-on and --platform (cli_replay.h): a one-point scenario of
 * the ti-replay skeleton on the platform, run by this very executable in a child (SimGrid starts once per process)
 * with its CSV and results JSON in a temporary folder, from which T_par, or the bottleneck view, is read. */
#define _GNU_SOURCE /* realpath */
#include "cli_replay.h"
#include "cli_json.h"
#include "rep_report.h"

#include <limits.h>
#include <math.h>
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

/* Runs this executable on `scenario` with its CSV into `csv` (and its results JSON into `json` unless NULL); 0 when it
 * succeeded. */
static int run_child(const char *scenario, const char *csv, const char *json)
{
  fflush(NULL); /* what this process printed must not be written again by the child */
  pid_t pid = fork();
  if (pid == 0) { /* its report is not analyse's: only its errors are shown */
    FILE *kept = freopen("/dev/null", "w", stdout);
    (void)kept;
    execl("/proc/self/exe", "simrun", scenario, "--csv", csv, "--quiet", json ? "--json" : (char *)NULL, json,
          (char *)NULL);
    _exit(127);
  }
  int status = 0;
  return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
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

/* The bottleneck view of the replay's results JSON `path` (rep_json's "bottleneck", read back as simrun compare
 * reads it: cli_json.h) into *b. 0, or -1 when the file cannot be read or has no such view. */
static int read_breakdown(const char *path, met_breakdown_t *b)
{
  FILE *in = fopen(path, "r");
  char *text = NULL;
  size_t len = 0;
  FILE *buffer = in ? open_memstream(&text, &len) : NULL;
  for (int c; buffer && (c = fgetc(in)) != EOF;)
    fputc(c, buffer);
  int rc = buffer && fclose(buffer) == 0 ? 0 : -1;
  if (in)
    fclose(in);
  rep_table_t t = {0};
  int line = 0;
  char err[512];
  rc = rc == 0 && text ? cli_json_table(text, len, &t, &line, err, sizeof err) : -1;
  free(text);
  if (rc != 0)
    return -1;
  int missing = 0;
  *b = (met_breakdown_t){.t_par = column(&t, "", "t_par", "_s", &missing)};
  for (int c = 0; c < MET_COMP_COUNT; c++) {
    b->component[c] = column(&t, "", met_component_name((met_component_t)c), "_s", &missing);
    b->b_ratio[c] = column(&t, "b_", met_component_name((met_component_t)c), "", &missing);
  }
  for (int s = 0; s < MET_SUB_COUNT; s++)
    b->sub[s] = column(&t, "", met_sub_name((met_sub_t)s), "_s", &missing);
  b->idle = column(&t, "", "idle", "_s", &missing);
  b->comm_comp_ratio = column(&t, "", "comm_comp_ratio", "", &missing);
  b->mem_proc_ratio = column(&t, "", "mem_proc_ratio", "", &missing);
  b->utilisation = column(&t, "", "utilisation", "", &missing);
  cli_json_table_free(&t);
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

/* Replays the run in `dir` at p ranks on `platform`: *t_par from its CSV, and its bottleneck view into `breakdown`
 * when that is not NULL. 0, or -1 with the reason in err. */
static int replay(const char *platform, const char *dir, int p, char (*hosts)[32], double *t_par,
                  met_breakdown_t *breakdown, char *err, size_t errlen)
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
  if (rep_file_guard_tree(folder) != 0) { /* removed if a signal ends the run meanwhile */
    rmdir(folder);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  char scenario[64], csv[64], json[64], hostfile[64];
  snprintf(hostfile, sizeof hostfile, "%s/hosts.txt", folder);
  snprintf(scenario, sizeof scenario, "%s/replay.xml", folder);
  snprintf(csv, sizeof csv, "%s/replay.csv", folder);
  snprintf(json, sizeof json, "%s/replay.json", folder);
  int rc = hosts ? write_hostfile(hostfile, hosts, p) : 0;
  FILE *out = rc == 0 ? fopen(scenario, "w") : NULL;
  rc = out ? 0 : -1;
  if (out) {
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<scenario name=\"replay\">\n  <platform file=\"%s\"/>\n"
            "  <program skeleton=\"ti-replay\">\n    <param name=\"trace\" value=\"%s\"/>\n"
            "    <param name=\"p\" value=\"%d\"/>\n",
            plat, trace, p);
    if (hosts)
      fprintf(out, "    <param name=\"hostfile\" value=\"%s\"/>\n", hostfile);
    fprintf(out, "  </program>\n</scenario>\n");
    rc = fclose(out) == 0 ? 0 : -1;
  }
  rc = rc == 0 ? run_child(scenario, csv, breakdown ? json : NULL) : rc;
  *t_par = rc == 0 ? read_t_par(csv) : -1;
  if (rc != 0 || !(*t_par >= 0))
    snprintf(err, errlen, "the replay of %s on %s failed (its error is above)", trace, plat);
  else if (breakdown && read_breakdown(json, breakdown) != 0) {
    snprintf(err, errlen, "the replay of %s on %s gave no bottleneck view", trace, plat);
    rc = -1;
  }
  if (breakdown)
    breakdown->p = p;
  unlink(scenario);
  unlink(hostfile);
  unlink(csv);
  unlink(json);
  rmdir(folder);
  rep_file_unguard_tree(folder);
  return rc == 0 && *t_par >= 0 ? 0 : -1;
}

int cli_replay_time(const char *platform, const char *dir, int p, char (*hosts)[32], double *t_par, char *err,
                    size_t errlen)
{
  return replay(platform, dir, p, hosts, t_par, NULL, err, errlen);
}

int cli_replay_breakdown(const char *platform, const char *dir, int p, met_breakdown_t *out, char *err, size_t errlen)
{
  double t_par;
  return replay(platform, dir, p, NULL, &t_par, out, err, errlen);
}
