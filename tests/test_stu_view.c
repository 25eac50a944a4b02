/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the table of views (stu_view.h): the flags a skeleton registers, what each view needs of the runs, each
 * view's results in its own slot of the point through the result stream, and the wait states summarised per study. */
#include "stu_cause_effect.h"
#include "stu_lost_cycles.h"
#include "stu_messages.h"
#include "stu_view.h"
#include "stu_waits.h"
#include "tu.h"

#include <math.h>
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

/* Lost cycles need T_seq and the per-process view, messages the hop counts; cause-effect nothing (its analysis comes
 * back from the simulating child, drawn from the sums its trace kept). */
static void test_view_needs(void)
{
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_LOST_CYCLES, STU_NEED_SEQ));
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_LOST_CYCLES, STU_NEED_PROCS));
  CU_ASSERT_FALSE(stu_view_needs(MET_VIEW_LOST_CYCLES, STU_NEED_HOPS));
  CU_ASSERT_TRUE(stu_view_needs(MET_VIEW_MESSAGES, STU_NEED_HOPS));
  CU_ASSERT_FALSE(stu_view_needs(MET_VIEW_MESSAGES, STU_NEED_SEQ | STU_NEED_PROCS));
  CU_ASSERT_FALSE(stu_view_needs(MET_VIEW_CAUSE_EFFECT, STU_NEED_SEQ | STU_NEED_PROCS | STU_NEED_HOPS));
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
  for (size_t i = 0; i < 4; i++) { /* each point's, in the study's order (p = 4, 1, 8, 2) */
    const stu_bottleneck_t *b = stu_bottleneck(&study, &points[i]);
    CU_ASSERT_FATAL(b != NULL);
    CU_ASSERT_EQUAL(b->dominant, points[i].p >= 4 ? MET_COMP_COMMUNICATION : MET_COMP_PROCESSING);
  }
  stu_summaries_release(&study); /* every view's summary: the lost cycles' and the model's */
  stu_study_t measured = {.scenario = &scenario,
                          .facts = {.views = MET_VIEW_LOST_CYCLES, .no_breakdown = "measured"},
                          .npoints = 4,
                          .points = points};
  CU_ASSERT_EQUAL_FATAL(stu_view_summarise(&measured), 0);
  CU_ASSERT_PTR_NULL(stu_verdict(&measured, 0));
  CU_ASSERT_PTR_NULL(stu_bottleneck(&measured, &points[0]));
  CU_ASSERT_PTR_NOT_NULL(stu_fit(&measured, 0, STU_METRIC_TIME, 0));
  stu_summaries_release(&measured);
  for (size_t i = 0; i < 4; i++)
    stu_slots_release(&points[i]);
}

/* A two-node DSM run ending at `end` s: node 0 computes 6 s, runs TreadMarks code `extra` s and waits the rest; node 1
 * computes 8 s and serves interrupts the rest (seed 002's PP categories); then `nreq` PP requests of `reqs`. */
static met_trace_t *dsm_run(double end, double extra, const met_request_t *reqs, size_t nreq)
{
  met_trace_t *trace = met_trace_new(2);
  CU_ASSERT_FATAL(trace != NULL && met_trace_phase_id(trace, "main") == 0);
  const met_span_t spans[] = {{0, 6, MET_CE_COMP, 0, MET_OP_NONE},
                              {6, 6 + extra, MET_CE_EXTRA, 0, MET_OP_PAGE},
                              {6 + extra, end, MET_CE_WAIT, 0, MET_OP_PAGE},
                              {0, 8, MET_CE_COMP, 0, MET_OP_NONE},
                              {8, end, MET_CE_PRSTE, 0, MET_OP_PAGE}};
  for (size_t i = 0; i < 5; i++)
    CU_ASSERT_EQUAL(met_trace_span_add(trace, i < 3 ? 0 : 1, MET_UNIT_PP, &spans[i]), 0);
  for (size_t i = 0; i < nreq; i++)
    CU_ASSERT_EQUAL(met_trace_request_add(trace, &reqs[i]), 0);
  return trace;
}

/* A PP request of `op` by `node` whose 13 intervals (seed 002 Table 1) last len[0..12], from 0. */
static met_request_t dsm_request(int node, met_ce_op_t op, const double len[MET_CE_INTERVALS])
{
  met_request_t r = {.node = node, .unit = MET_UNIT_PP, .op = op, .peer = -1};
  for (int k = 1; k < MET_REQ_MARKS; k++)
    r.mark[k] = r.mark[k - 1] + len[k - 1];
  return r;
}

/* The cause-effect view draws, before any report, what dominates each point's waiting (finish) and what the
 * controller saves against the baseline (summarise), and the first page request split by category. By hand, with the
 * controller (T_par 10 s): a page request of 13 intervals of 0.1 s (1.3 s: 0.2 s in each of CPLWait, CPLComp, CPCComm,
 * CPRWait, CPRComp, as intervals 1+11, 2+12, 3+10, 4+8, 5+9; 0.1 s in PPRWait, PPRComp, PPLWait) and a barrier whose
 * interval 6 (PPRWait) lasts 2 s: the PPs waited 3.3 s of their 2 x 10 s (16.5%); barriers dominate (2 / 3.3 = 60.6%,
 * mean 2e6 us), PPRWait overall (2.1 / 3.3 = 63.6%) and within barriers (100%); barriers hold 2 / 2.1 = 95.2% of the
 * PPRWait. Without it (T_par 16 s): the controller saves 6 s, 37.5%; per node, Comp (6 + 8) / 2 = 7 s both, Extra 1 / 2
 * -> 6 / 2 s, Wait (10 - 7) / 2 -> (16 - 12) / 2 s, Prste (10 - 8) / 2 -> (16 - 8) / 2 s; mean page wait 1.3 s -> 3 s
 * (intervals of 0.25 s but interval 6, none), no diff request, barrier 2 s -> none. Without the controller, no PPRWait
 * at all (no barrier share) and the five categories of two intervals tie at 0.5 s: the first, CPLWait, dominates. The
 * point with the controller at p = 4 has no baseline: no saving. */
static void test_view_cause_effect_summary(void)
{
  double tenths[MET_CE_INTERVALS], quarters[MET_CE_INTERVALS];
  for (int k = 0; k < MET_CE_INTERVALS; k++) {
    tenths[k] = 0.1;
    quarters[k] = k == 5 ? 0 : 0.25;
  }
  const met_request_t with_reqs[] = {dsm_request(0, MET_OP_PAGE, tenths),
                                     dsm_request(1, MET_OP_BARRIER, (double[MET_CE_INTERVALS]){[5] = 2})};
  const met_request_t without_reqs[] = {dsm_request(0, MET_OP_PAGE, quarters)};
  met_trace_t *with = dsm_run(10, 1, with_reqs, 2), *without = dsm_run(16, 6, without_reqs, 1);
  char *ps[] = {"2", "4"}, *cps[] = {"yes", "no"};
  scn_param_t params[] = {{.name = "p", .values = ps, .nvalues = 2, .swept = 1, .role = SCN_ROLE_PROCESSES},
                          {.name = "cp", .values = cps, .nvalues = 2, .swept = 1, .role = SCN_ROLE_VARIANT}};
  scn_scenario_t scenario = {.name = "s", .params = params, .nparams = 2};
  const char *at[][2] = {{"2", "yes"}, {"2", "no"}, {"4", "yes"}};
  stu_point_t points[] = {{.values = at[0], .p = 2, .t_par = 10, .trace = with},
                          {.values = at[1], .p = 2, .t_par = 16, .role.baseline = 1, .trace = without},
                          {.values = at[2], .p = 4, .t_par = 10, .trace = with}};
  stu_study_t study = {
      .scenario = &scenario, .facts = {.views = MET_VIEW_CAUSE_EFFECT, .requests = 1}, .npoints = 3, .points = points};
  CU_ASSERT_EQUAL(stu_ce_summary(&study)->nsavings, 0); /* not summarised yet */
  const stu_view_context_t ctx = {.study = &study};
  const stu_view_input_t in = {0};
  for (size_t i = 0; i < 3; i++) { /* analysed in the "child", through the result stream, finished in the study */
    stu_point_t simulated = {.p = points[i].p};
    CU_ASSERT_EQUAL_FATAL(stu_view_analyse(MET_VIEW_CAUSE_EFFECT, &simulated, points[i].trace, &in), 0);
    stu_point_t back = round_trip(&simulated);
    memcpy(points[i].view, back.view, sizeof back.view);
    stu_slots_release(&simulated);
    CU_ASSERT_EQUAL_FATAL(stu_view_finish(MET_VIEW_CAUSE_EFFECT, &points[i], &ctx), 0);
  }
  size_t nreq = 0; /* the study asked for the requests: each point's, copied from its trace */
  const met_request_t *copied = stu_ce_requests(&points[0], &nreq);
  CU_ASSERT_FATAL(copied != NULL && nreq == 2);
  CU_ASSERT_EQUAL(memcmp(copied, with_reqs, sizeof with_reqs), 0);
  CU_ASSERT_PTR_NOT_NULL(stu_ce_requests(&points[1], &nreq));
  CU_ASSERT_EQUAL(nreq, 1);
  CU_ASSERT_EQUAL_FATAL(stu_view_summarise(&study), 0);
  const stu_ce_dominant_t *d = stu_ce_dominant(&points[0]);
  CU_ASSERT_FATAL(d != NULL);
  CU_ASSERT_EQUAL(d->all.count, 2);
  TU_ASSERT_CLOSE(d->all.time, 3.3, 1e-12);
  TU_ASSERT_CLOSE(d->all_pct, 16.5, 1e-9);
  CU_ASSERT_EQUAL(d->op, MET_OP_BARRIER);
  TU_ASSERT_CLOSE(d->op_pct, 100 * 2 / 3.3, 1e-9);
  TU_ASSERT_CLOSE(d->op_mean_us, 2e6, 1e-6);
  CU_ASSERT_EQUAL(d->cat, MET_W_PPRWAIT);
  TU_ASSERT_CLOSE(d->cat_pct, 100 * 2.1 / 3.3, 1e-9);
  CU_ASSERT_EQUAL(d->cat_of_op, MET_W_PPRWAIT);
  TU_ASSERT_CLOSE(d->cat_of_op_pct, 100, 1e-9);
  TU_ASSERT_CLOSE(d->barrier_pct, 100 * 2 / 2.1, 1e-9);
  const stu_ce_first_t *first = stu_ce_first_page(&points[0]); /* the page request, split by category */
  CU_ASSERT_FATAL(first != NULL && first->request->op == MET_OP_PAGE);
  TU_ASSERT_CLOSE(first->wait, 1.3, 1e-12);
  TU_ASSERT_CLOSE(first->cats[MET_W_CPLWAIT], 0.2, 1e-12);
  TU_ASSERT_CLOSE(first->cats[MET_W_PPLWAIT], 0.1, 1e-12);
  d = stu_ce_dominant(&points[1]);
  CU_ASSERT_FATAL(d != NULL);
  CU_ASSERT(d->op == MET_OP_PAGE && d->cat == MET_W_CPLWAIT && isnan(d->barrier_pct)); /* ties: the first category */
  const stu_ce_summary_t *s = stu_ce_summary(&study);
  CU_ASSERT_EQUAL_FATAL(s->nsavings, 1);
  const stu_ce_saving_t *saving = &s->savings[0];
  CU_ASSERT(saving->with == &points[0] && saving->without == &points[1]);
  TU_ASSERT_CLOSE(saving->saved, 6, 1e-12);
  TU_ASSERT_CLOSE(saving->saved_pct, 37.5, 1e-9);
  const double pp_ms[2][4] = {{7000, 500, 1500, 1000}, {7000, 3000, 2000, 4000}};
  const double wait_us[2][MET_OP_COUNT] = {{0, 1.3e6, 0, 2e6}, {0, 3e6, 0, 0}};
  for (int run = 0; run < 2; run++) {
    for (int cat = MET_CE_COMP; cat <= MET_CE_PRSTE; cat++)
      TU_ASSERT_CLOSE(saving->pp_ms[run][cat], pp_ms[run][cat], 1e-6);
    for (int op = MET_OP_PAGE; op < MET_OP_COUNT; op++)
      TU_ASSERT_CLOSE(saving->wait_us[run][op], wait_us[run][op], 1e-6);
  }
  stu_summaries_release(&study);
  for (size_t i = 0; i < 3; i++)
    stu_slots_release(&points[i]);
  met_trace_free(with);
  met_trace_free(without);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_view_flags", test_view_flags},
                                    {"test_view_needs", test_view_needs},
                                    {"test_view_results_round_trip", test_view_results_round_trip},
                                    {"test_view_empty_point", test_view_empty_point},
                                    {"test_view_summarise_waits", test_view_summarise_waits},
                                    {"test_view_summarise_lost_cycles", test_view_summarise_lost_cycles},
                                    {"test_view_cause_effect_summary", test_view_cause_effect_summary},
                                    {NULL, NULL}};
  return tu_run("view", cases);
}
