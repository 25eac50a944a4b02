/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of ti-replay's lost-cycle view (app_ti.c's ti_prepare_seq): where its T_seq comes from. A hand-made trace
 * (tests/data/ti/seq/README.md) on 1 Gflop/s hosts: its compute actions add up to 2.5e9 flops, so by default
 * T_seq = 2.5 s; its sequential trace takes 1.8 s of computation and 0.2 s of sleep, 2.0 s; t-seq gives 3.25 s. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "app_ti.h"
#include "rep_html.h"
#include "rep_report.h"
#include "sim_error.h"
#include "sim_run.h"
#include "stu_lost_cycles.h"
#include "stu_messages.h"
#include "stu_sweep.h"
#include "tu.h"
#include "tu_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEQ     SIMRUN_SOURCE_DIR "/tests/data/ti/seq/"
#define CLUSTER SIMRUN_SOURCE_DIR "/tests/data/ti/cluster.xml"

/* Loads, checks and runs scenario `name` of tests/data/ti/seq, with the per-process view of p = per_process (0:
 * none): the study, or NULL with *err filled. */
static stu_study_t *run_scenario(const char *name, int per_process, scn_scenario_t **scenario, scn_error_t *err)
{
  char path[1024];
  snprintf(path, sizeof path, "%s%s", SEQ, name);
  stu_study_t *study = NULL;
  *scenario = NULL;
  if (scn_load(path, scenario, err) != 0 || scn_check(*scenario, app_ti_skeleton.spec, err) != 0 ||
      tu_study_run(*scenario, &app_ti_skeleton, per_process, NULL, NULL, &study, err) != 0)
    return NULL;
  return study;
}

/* The printed report of `study` (the caller frees it), or NULL. */
static char *report_of(const stu_study_t *study)
{
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  if (!out)
    return NULL;
  rep_print(out, study);
  fclose(out);
  return text;
}

/* The simulated time of the sequential run ti_prepare_seq builds for trace `trace` with parameter `name` = `value`
 * (or none), on one 1 Gflop/s host, with its T_seq source in `source`; -1 when it is refused. */
static double seq_time(const char *name, const char *value, char *source, size_t len)
{
  const char *names[] = {"trace", name};
  const char *values[] = {SEQ "index.txt", value};
  app_point_t at = {.count = name ? 2 : 1, .names = names, .values = values};
  void *arg = NULL;
  const char *blame = NULL;
  char err[1024] = "";
  if (app_ti_skeleton.prepare_seq(&at, &arg, source, len, err, sizeof err, &blame) != 0) {
    fprintf(stderr, "%s\n", err);
    return -1;
  }
  sim_job_t job = {.platform = CLUSTER,
                   .nranks = 1,
                   .program = app_ti_skeleton.program,
                   .arg = arg,
                   .engine_cfg = app_ti_skeleton.engine_cfg(arg)};
  met_trace_t *trace = NULL;
  int rc = tu_sim_run(&job, &trace, err, sizeof err);
  app_ti_skeleton.release(arg);
  double t = rc == 0 ? met_trace_end(trace) : -1;
  met_trace_free(trace);
  return t;
}

/* By default, every rank's compute actions on one host: (1.5e9 + 2.5e8 + 7.5e8) flops / 1e9 flop/s = 2.5 s. */
static void test_ti_seq_sums_computation(void)
{
  char source[512] = "";
  TU_ASSERT_CLOSE(seq_time(NULL, NULL, source, sizeof source), 2.5, 1e-9);
  CU_ASSERT_PTR_NOT_NULL(strstr(source, "the sum of the trace's computation, 2.5e+09 flops"));
}

/* seq-trace: the sequential trace replayed, 1.8e9 flops at 1e9 flop/s and a sleep of 0.2 s = 2.0 s. */
static void test_ti_seq_trace(void)
{
  char source[512] = "";
  TU_ASSERT_CLOSE(seq_time("seq-trace", SEQ "seq.txt", source, sizeof source), 2.0, 1e-9);
  CU_ASSERT_PTR_NOT_NULL(strstr(source, "the sequential trace"));
  CU_ASSERT_PTR_NOT_NULL(strstr(source, "seq.txt"));
}

/* t-seq: the time given. */
static void test_ti_seq_given_time(void)
{
  char source[512] = "";
  TU_ASSERT_CLOSE(seq_time("t-seq", "3.25", source, sizeof source), 3.25, 1e-9);
  CU_ASSERT_STRING_EQUAL(source, "t-seq = 3.25 s, given by the scenario");
}

/* The study's lost-cycle view of the trace at p = 2. By hand: rank 0 computes 1.5 s, sends 1000 bytes (eager, about
 * 0.1 ms on the cluster), computes 0.25 s; rank 1 waits for the message, then computes 0.75 s: T_par = 2.25 s plus
 * the transfer, and the overhead p T_par - T_seq = 2.0 s plus twice the transfer is rank 1's 1.5 s wait and rank 0's
 * 0.5 s at the end: idle. The message view is kept beside it, and the report prints where T_seq comes from. */
static void test_ti_seq_study_lost_cycles(void)
{
  scn_scenario_t *scenario = NULL;
  scn_error_t err = {.line = 0};
  stu_study_t *study = run_scenario("study.xml", 0, &scenario, &err);
  if (!study)
    fprintf(stderr, "%s\n", err.message);
  CU_ASSERT_FATAL(study != NULL);
  CU_ASSERT_TRUE(stu_has_view(study, MET_VIEW_LOST_CYCLES));
  CU_ASSERT_TRUE(stu_has_view(study, MET_VIEW_MESSAGES));
  const stu_point_t *point = &study->points[0];
  const met_eppa_t *e = stu_eppa(point);
  TU_ASSERT_CLOSE(e->t_seq, 2.5, 1e-9);
  CU_ASSERT(point->t_par > 2.25 && point->t_par < 2.251);
  TU_ASSERT_CLOSE(e->speedup, 2.5 / point->t_par, 1e-12);
  TU_ASSERT_CLOSE(e->efficiency, 2.5 / point->t_par / 2, 1e-12);
  TU_ASSERT_CLOSE(e->ovh_ratio[MET_OVH_IDLE] * 2.5, 2.0, 1e-3);
  size_t nmsgs;
  CU_ASSERT(stu_msgs(point, &nmsgs) != NULL && nmsgs > 0);
  char *text = report_of(study);
  CU_ASSERT_FATAL(text != NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "T_seq = 2.50 s: the sum of the trace's computation, 2.5e+09 flops"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "Message times, p = 2"));
  free(text);
  stu_free(study);
  scn_free(scenario);
}

/* The scenario's seq-trace and t-seq reach the study: T_seq = 2.0 s and 3.25 s. */
static void test_ti_seq_study_sources(void)
{
  const char *names[] = {"seq-trace.xml", "t-seq.xml"};
  const double t_seq[] = {2.0, 3.25};
  for (int k = 0; k < 2; k++) {
    scn_scenario_t *scenario = NULL;
    scn_error_t err = {.line = 0};
    stu_study_t *study = run_scenario(names[k], 0, &scenario, &err);
    CU_ASSERT_FATAL(study != NULL);
    TU_ASSERT_CLOSE(stu_eppa(&study->points[0])->t_seq, t_seq[k], 1e-9);
    CU_ASSERT_PTR_NOT_NULL(strstr(study->points[0].t_seq_source, k == 0 ? "seq.txt" : "t-seq = 3.25 s"));
    stu_free(study);
    scn_free(scenario);
  }
}

/* Hosts of three speeds (tests/data/ti/three-speeds/README.md): ranks 0, 1 and 2 compute 1.2e9, 1e9 and 8e8 flops on
 * hosts of 2, 1 and 4 Gflop/s; T_seq = 3e9 flops at rank 0's 2 Gflop/s = 1.5 s. By hand, per rank: host speed 0,
 * 1.0 - 0.5 and 0.2 - 0.4 s; true anomaly 0; imbalance 0.6 - 0.5, 0.5 - 0.5 and 0.4 - 0.5 s, adding up to 0 (before,
 * the whole anomaly column, host speeds included, was imbalance: 0.3 s in all). The report prints the split and the
 * machine line the three hosts. */
static void test_ti_seq_three_speeds(void)
{
  scn_scenario_t *scenario = NULL;
  scn_error_t err = {.line = 0};
  stu_study_t *study = run_scenario("../three-speeds/study.xml", 3, &scenario, &err);
  if (!study)
    fprintf(stderr, "%s\n", err.message);
  CU_ASSERT_FATAL(study != NULL && stu_procs(&study->points[0]) != NULL);
  TU_ASSERT_CLOSE(stu_eppa(&study->points[0])->t_seq, 1.5, 1e-12);
  static const double host_speed[] = {0, 0.5, -0.2};
  static const double imbalance[] = {0.1, 0, -0.1};
  double sum = 0;
  for (int r = 0; r < 3; r++) {
    const met_eppa_proc_t *proc = &stu_procs(&study->points[0])[r];
    TU_ASSERT_CLOSE(proc->host_speed, host_speed[r], 1e-12);
    TU_ASSERT_CLOSE(proc->anomaly, 0, 1e-12);
    TU_ASSERT_CLOSE(proc->imbalance, imbalance[r], 1e-12);
    sum += proc->imbalance;
  }
  TU_ASSERT_CLOSE(sum, 0, 1e-12);
  char *text = report_of(study);
  CU_ASSERT_FATAL(text != NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "  rank 1         0.3333       0.0000    0.0000\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "  rank 2        -0.1333       0.0000   -0.0667\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "3 characterisations: [h0, 1 rank: 2e+09 Hz;"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "[h1, 1 rank: 1e+09 Hz;"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "[h2, 1 rank: 4e+09 Hz;"));
  free(text);
  size_t len = 0;
  FILE *out = open_memstream(&text, &len); /* the JSON and the HTML page carry the split too */
  CU_ASSERT_FATAL(out != NULL);
  char html_err[256];
  CU_ASSERT(rep_json(out, study) == 0 && rep_html(out, study, html_err, sizeof html_err) == 0);
  fclose(out);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"anomaly\": 0, \"imbalance\": 0, \"host_speed\": 0.333333333"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "<th>host speed</th>"));
  free(text);
  stu_free(study);
  scn_free(scenario);
}

/* A compute action without its flops is refused while summing, with its file and line. */
static void test_ti_seq_bad_compute(void)
{
  const char *names[] = {"trace"};
  const char *values[] = {SEQ "bad-compute.txt"};
  app_point_t at = {.count = 1, .names = names, .values = values};
  void *arg = NULL;
  const char *blame = NULL;
  char source[512] = "";
  char err[1024] = "";
  CU_ASSERT_EQUAL(app_ti_skeleton.prepare_seq(&at, &arg, source, sizeof source, err, sizeof err, &blame), SIM_EPARAM);
  CU_ASSERT_PTR_NULL(arg);
  CU_ASSERT_STRING_EQUAL(blame, "trace");
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "bad-compute.txt:2: '0 compute lots': compute needs a number of flops"));
}

/* A trace that computes nothing has no T_seq: the study keeps its message view only, and the report says why. */
static void test_ti_seq_nothing_computed(void)
{
  scn_scenario_t *scenario = NULL;
  scn_error_t err = {.line = 0};
  stu_study_t *study = run_scenario("nocompute.xml", 0, &scenario, &err);
  CU_ASSERT_FATAL(study != NULL);
  CU_ASSERT_FALSE(stu_has_view(study, MET_VIEW_LOST_CYCLES));
  CU_ASSERT_TRUE(stu_has_view(study, MET_VIEW_MESSAGES));
  size_t nmsgs;
  CU_ASSERT(stu_msgs(&study->points[0], &nmsgs) != NULL && nmsgs > 0);
  char *text = report_of(study);
  CU_ASSERT_FATAL(text != NULL);
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "No lost-cycle view: the trace computes nothing"));
  CU_ASSERT_PTR_NULL(strstr(text, "speedup"));
  free(text);
  stu_free(study);
  scn_free(scenario);
}

/* Bad input, at its line: both a sequential trace and a time; a t-seq that is no time. */
static void test_ti_seq_bad_input(void)
{
  const char *names[] = {"both.xml", "bad-t-seq.xml"};
  const int lines[] = {8, 7};
  const char *parts[] = {"give one of them", "is not a time in seconds"};
  for (int k = 0; k < 2; k++) {
    scn_scenario_t *scenario = NULL;
    scn_error_t err = {.line = 0};
    stu_study_t *study = run_scenario(names[k], 0, &scenario, &err);
    CU_ASSERT_PTR_NULL(study);
    CU_ASSERT_EQUAL(err.line, lines[k]);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.message, parts[k]));
    stu_free(study);
    scn_free(scenario);
  }
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_ti_seq_sums_computation", test_ti_seq_sums_computation},
                                    {"test_ti_seq_trace", test_ti_seq_trace},
                                    {"test_ti_seq_given_time", test_ti_seq_given_time},
                                    {"test_ti_seq_study_lost_cycles", test_ti_seq_study_lost_cycles},
                                    {"test_ti_seq_three_speeds", test_ti_seq_three_speeds},
                                    {"test_ti_seq_study_sources", test_ti_seq_study_sources},
                                    {"test_ti_seq_bad_compute", test_ti_seq_bad_compute},
                                    {"test_ti_seq_nothing_computed", test_ti_seq_nothing_computed},
                                    {"test_ti_seq_bad_input", test_ti_seq_bad_input},
                                    {NULL, NULL}};
  return tu_run("ti_seq", cases);
}
