/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the table of views (stu_view.h): the flags a skeleton registers, what each view needs of the runs, each
 * view's results in its own slot of the point through the result stream, and the wait states summarised per study. */
#include "stu_cause_effect.h"
#include "stu_lost_cycles.h"
#include "stu_messages.h"
#include "stu_view.h"
#include "stu_waits.h"
#include "tu.h"

#include <stdlib.h>
#include <string.h>

/* A skeleton that registers nothing has the lost-cycle view; its flags are the study's and combine; a flag no view
 * knows is dropped. */
static void test_view_flags(void)
{
  CU_ASSERT_EQUAL(stu_view_flags(0), MET_VIEW_LOST_CYCLES);
  CU_ASSERT_EQUAL(stu_view_flags(MET_VIEW_MESSAGES), MET_VIEW_MESSAGES);
  CU_ASSERT_EQUAL(stu_view_flags(MET_VIEW_CAUSE_EFFECT), MET_VIEW_CAUSE_EFFECT);
  CU_ASSERT_EQUAL(stu_view_flags(MET_VIEW_LOST_CYCLES | MET_VIEW_MESSAGES), MET_VIEW_LOST_CYCLES | MET_VIEW_MESSAGES);
  CU_ASSERT_EQUAL(stu_view_flags(MET_VIEW_MESSAGES | 1u << 7), MET_VIEW_MESSAGES);
}

/* Lost cycles need T_seq and the per-process view, messages the hop counts, cause-effect the whole trace. */
static void test_view_needs(void)
{
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_LOST_CYCLES, STU_NEED_SEQ));
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_LOST_CYCLES, STU_NEED_PROCS));
  CU_ASSERT_FALSE(stu_view_needs(MET_VIEW_LOST_CYCLES, STU_NEED_HOPS | STU_NEED_TRACE));
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_MESSAGES, STU_NEED_HOPS));
  CU_ASSERT_FALSE(stu_view_needs(MET_VIEW_MESSAGES, STU_NEED_SEQ | STU_NEED_PROCS | STU_NEED_TRACE));
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_CAUSE_EFFECT, STU_NEED_TRACE));
  CU_ASSERT_FALSE(stu_view_needs(MET_VIEW_CAUSE_EFFECT, STU_NEED_SEQ | STU_NEED_HOPS));
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_LOST_CYCLES | MET_VIEW_MESSAGES, STU_NEED_SEQ));
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_LOST_CYCLES | MET_VIEW_MESSAGES, STU_NEED_HOPS));
}

static void add(met_trace_t *trace, int rank, met_category_t category, double start, double end, int peer,
                met_dir_t dir)
{
  met_interval_t iv = {.start = start, .end = end, .category = category, .peer = peer, .dir = dir};
  CU_ASSERT_EQUAL(met_trace_add(trace, rank, &iv), 0);
}

/* Rank 0 computes 3 s and sends a message that takes 1 s; rank 1 computes 1 s, then waits 2 s for it (a late sender,
 * test_met_wait.c): T_par 4 s. */
static met_trace_t *late_sender(void)
{
  met_trace_t *trace = met_trace_new(2);
  CU_ASSERT_FATAL(trace != NULL && met_trace_phase_id(trace, "main") == 0);
  add(trace, 0, MET_CAT_COMPUTE, 0, 3, -1, MET_DIR_NONE);
  add(trace, 0, MET_CAT_COMM, 3, 4, 1, MET_DIR_SEND);
  add(trace, 1, MET_CAT_COMPUTE, 0, 1, -1, MET_DIR_NONE);
  add(trace, 1, MET_CAT_IDLE, 1, 3, 0, MET_DIR_RECV);
  add(trace, 1, MET_CAT_COMM, 3, 4, 0, MET_DIR_RECV);
  return trace;
}

/* `point`'s result stream read back into a new point (the caller releases its slots). */
static stu_point_t round_trip(stu_point_t *point)
{
  stu_point_t back = {.p = point->p};
  FILE *stream = tmpfile();
  CU_ASSERT_FATAL(stream != NULL);
  CU_ASSERT_EQUAL(stu_view_encode(point, stream), 0);
  rewind(stream);
  CU_ASSERT_EQUAL(stu_view_decode(&back, stream), 0);
  CU_ASSERT_EQUAL(fgetc(stream), EOF); /* every section read */
  fclose(stream);
  return back;
}

/* The lost-cycle and message views fill their slots in the child and come back the same through the stream: against
 * T_seq = 6 s (the two ranks' 4 s of computation plus 2 s given), speedup 6 / 4; one message group of one message. */
static void test_view_results_round_trip(void)
{
  met_trace_t *trace = late_sender();
  stu_point_t point = {.p = 2, .t_par = 4};
  stu_view_input_t in = {.t_seq = 6, .keep_procs = 1, .no_breakdown = 1};
  CU_ASSERT_EQUAL(stu_view_analyse(MET_VIEW_LOST_CYCLES | MET_VIEW_MESSAGES, &point, trace, &in), 0);
  TU_ASSERT_CLOSE(stu_eppa(&point)->speedup, 1.5, 1e-12);
  size_t n = 0;
  const met_msg_stat_t *msgs = stu_msgs(&point, &n);
  CU_ASSERT_FATAL(msgs != NULL && n == 1);
  CU_ASSERT_EQUAL(msgs[0].count, 1);
  stu_point_t back = round_trip(&point);
  CU_ASSERT_EQUAL(memcmp(stu_eppa(&back), stu_eppa(&point), sizeof(met_eppa_t)), 0);
  CU_ASSERT_FATAL(stu_procs(&back) != NULL);
  CU_ASSERT_EQUAL(memcmp(stu_procs(&back), stu_procs(&point), 2 * sizeof(met_eppa_proc_t)), 0);
  size_t nback = 0;
  const met_msg_stat_t *msgs_back = stu_msgs(&back, &nback);
  CU_ASSERT_FATAL(msgs_back != NULL && nback == 1);
  CU_ASSERT_EQUAL(memcmp(msgs_back, msgs, sizeof *msgs), 0);
  stu_slots_release(&back);
  stu_slots_release(&point);
  CU_ASSERT_PTR_NULL(stu_procs(&point));
  met_trace_free(trace);
}

/* A point with no results (a sequential run's) writes every view's empty section and reads back without any. */
static void test_view_empty_point(void)
{
  stu_point_t point = {.p = 1, .t_par = 2};
  stu_point_t back = round_trip(&point);
  size_t n = 7;
  CU_ASSERT_PTR_NULL(stu_msgs(&back, &n));
  CU_ASSERT_EQUAL(n, 0);
  CU_ASSERT_PTR_NULL(stu_procs(&back));
  CU_ASSERT_EQUAL(stu_eppa(&back)->t_par, 0);
  CU_ASSERT_PTR_NULL(stu_carnival(&back));
  CU_ASSERT_PTR_NULL(stu_waits(&back));
  for (int id = 0; id < STU_SLOTS; id++)
    CU_ASSERT_PTR_NULL(back.view[id].data); /* no results at all, not results of zeros */
  stu_slots_release(&back);
}

/* Wait states are summarised once the study is complete, whatever its views, for the points that kept their whole
 * trace and lost time: rank 1's 2 s late sender; none for a point without a trace or whose trace has no waiting. */
static void test_view_summarise_waits(void)
{
  met_trace_t *waiting = late_sender();
  met_trace_t *busy = met_trace_new(1);
  CU_ASSERT_FATAL(busy != NULL && met_trace_phase_id(busy, "main") == 0);
  add(busy, 0, MET_CAT_COMPUTE, 0, 1, -1, MET_DIR_NONE);
  stu_point_t points[] = {{.p = 2, .trace = waiting}, {.p = 2}, {.p = 1, .trace = busy}};
  stu_study_t study = {.facts.views = MET_VIEW_MESSAGES, .npoints = 3, .points = points};
  CU_ASSERT_EQUAL(stu_view_summarise(&study), 0);
  const met_waits_t *w = stu_waits(&points[0]);
  CU_ASSERT_FATAL(w != NULL);
  TU_ASSERT_CLOSE(met_wait_time(w, 1, MET_WAIT_LATE_SENDER), 2, 1e-12);
  TU_ASSERT_CLOSE(met_wait_total(w, MET_WAIT_PATTERNS), 2, 1e-12);
  CU_ASSERT_PTR_NULL(stu_waits(&points[1]));
  CU_ASSERT_PTR_NULL(stu_waits(&points[2]));
  for (size_t i = 0; i < 3; i++)
    stu_slots_release(&points[i]);
  stu_summaries_release(&study);
  met_trace_free(waiting);
  met_trace_free(busy);
}

static char *p_values[] = {"4", "1", "8", "2"};
static const char *point_values[4][1] = {{"4"}, {"1"}, {"8"}, {"2"}};

/* A lost-cycle point at p (the i-th value): T_par = 1 + 8 / p (Amdahl's law exactly), processing 8 / p and
 * communication p seconds (so processing dominates up to p = 2, communication from p = 4 on). */
static void lost_point(stu_point_t *point, size_t i)
{
  int p = atoi(p_values[i]);
  *point = (stu_point_t){.values = point_values[i], .p = p};
  stu_lost_cycles_t *r = stu_lost_cycles_make(point);
  CU_ASSERT_FATAL(r != NULL);
  r->eppa.t_par = 1 + 8.0 / p;
  double proc = 8.0 / p, comm = p;
  r->breakdown = (met_breakdown_t){.p = p, .t_par = r->eppa.t_par};
  r->breakdown.component[MET_COMP_PROCESSING] = proc;
  r->breakdown.component[MET_COMP_COMMUNICATION] = comm;
  r->breakdown.b_ratio[MET_COMP_PROCESSING] = proc / comm;
  r->breakdown.b_ratio[MET_COMP_COMMUNICATION] = comm / proc;
  r->breakdown.comm_comp_ratio = comm / proc;
}

/* The lost-cycle view's summary, drawn once the study is complete: over the series against p (sorted by p whatever the
 * points' order), T_par's fit is Amdahl's law a + b / p with a = 1 and b = 8, and the verdict names processing at
 * p = 1 and 2, communication at p = 4 and 8. Without a breakdown there is no verdict. */
static void test_view_summarise_lost_cycles(void)
{
  scn_param_t param = {.name = "p", .values = p_values, .nvalues = 4, .swept = 1, .role = SCN_ROLE_PROCESSES};
  scn_scenario_t scenario = {.name = "s", .params = &param, .nparams = 1};
  stu_point_t points[4];
  for (size_t i = 0; i < 4; i++)
    lost_point(&points[i], i);
  stu_study_t study = {.scenario = &scenario, .facts.views = MET_VIEW_LOST_CYCLES, .npoints = 4, .points = points};
  CU_ASSERT_EQUAL_FATAL(stu_view_summarise(&study), 0);
  const stu_fit_t *f = stu_fit(&study, 0, STU_METRIC_TIME, 0);
  CU_ASSERT_FATAL(f != NULL);
  CU_ASSERT_TRUE(f->fitted);
  CU_ASSERT_EQUAL(f->fit.form, MET_FIT_AMDAHL);
  TU_ASSERT_CLOSE(f->fit.coef[0], 1, 1e-9);
  TU_ASSERT_CLOSE(f->fit.coef[1], 8, 1e-9);
  CU_ASSERT_PTR_NULL(stu_fit(&study, 0, STU_METRIC_TIME, 1)); /* one series only */
  const met_verdict_t *v = stu_verdict(&study, 0);
  CU_ASSERT_FATAL(v != NULL && v->npoints == 4);
  met_component_t expect[] = {MET_COMP_PROCESSING, MET_COMP_PROCESSING, MET_COMP_COMMUNICATION, MET_COMP_COMMUNICATION};
  for (size_t i = 0; i < 4; i++)
    CU_ASSERT_EQUAL(v->dominant[i], expect[i]);
  stu_summaries_release(&study); /* every view's summary: the lost cycles' and the model's */
  stu_study_t measured = {.scenario = &scenario,
                          .facts = {.views = MET_VIEW_LOST_CYCLES, .no_breakdown = "measured"},
                          .npoints = 4,
                          .points = points};
  CU_ASSERT_EQUAL_FATAL(stu_view_summarise(&measured), 0);
  CU_ASSERT_PTR_NULL(stu_verdict(&measured, 0));
  CU_ASSERT_PTR_NOT_NULL(stu_fit(&measured, 0, STU_METRIC_TIME, 0));
  stu_summaries_release(&measured);
  for (size_t i = 0; i < 4; i++)
    stu_slots_release(&points[i]);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_view_flags", test_view_flags},
                                    {"test_view_needs", test_view_needs},
                                    {"test_view_results_round_trip", test_view_results_round_trip},
                                    {"test_view_empty_point", test_view_empty_point},
                                    {"test_view_summarise_waits", test_view_summarise_waits},
                                    {"test_view_summarise_lost_cycles", test_view_summarise_lost_cycles},
                                    {NULL, NULL}};
  return tu_run("view", cases);
}
