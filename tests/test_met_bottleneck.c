/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Bottleneck analysis (seed 001 §3.5) on hand-made traces and breakdowns, every expected figure computed by hand. */
#include "met_bottleneck.h"
#include "tu.h"
#include "bas_error.h"

#include <math.h>
#include <string.h>

static void add(met_trace_t *t, int rank, met_category_t cat, const char *phase, double start, double end,
                const double *parts)
{
  met_interval_t iv = {.start = start,
                       .end = end,
                       .category = cat,
                       .phase = met_trace_phase_id(t, phase),
                       .peer = cat == MET_CAT_COMM ? 1 - rank : -1};
  if (parts)
    memcpy(iv.parts, parts, sizeof iv.parts);
  CU_ASSERT_EQUAL_FATAL(met_trace_add(t, rank, &iv), 0);
}

/* Rank 0: input [0,2), link-init [2,2.5), distribution [2.5,3.5), compute [3.5,7.5) split cpu 1, fpu 1, intmem 0.5,
 * extmem 1.5, broadcast [7.5,8), collection [8,8.2), output [8.2,8.3). Rank 1: idle until 2.5, distribution, compute
 * [3.5,6.5) split 0.5, 0.5, 0.5, 1.5, idle, broadcast, collection, idle tail of 0.1. */
static met_trace_t *two_ranks(void)
{
  met_trace_t *t = met_trace_new(2);
  const double parts0[] = {1, 1, 0.5, 1.5};
  const double parts1[] = {0.5, 0.5, 0.5, 1.5};
  add(t, 0, MET_CAT_IO, "input", 0, 2, NULL);
  add(t, 0, MET_CAT_CTRL, "link-init", 2, 2.5, NULL);
  add(t, 0, MET_CAT_COMM, "distribution", 2.5, 3.5, NULL);
  add(t, 0, MET_CAT_COMPUTE, "update", 3.5, 7.5, parts0);
  add(t, 0, MET_CAT_COMM, "broadcast", 7.5, 8, NULL);
  add(t, 0, MET_CAT_COMM, "collection", 8, 8.2, NULL);
  add(t, 0, MET_CAT_IO, "output", 8.2, 8.3, NULL);
  add(t, 1, MET_CAT_COMM, "distribution", 2.5, 3.5, NULL);
  add(t, 1, MET_CAT_COMPUTE, "update", 3.5, 6.5, parts1);
  add(t, 1, MET_CAT_COMM, "broadcast", 7.5, 8, NULL);
  add(t, 1, MET_CAT_COMM, "collection", 8, 8.2, NULL);
  return t;
}

/* By hand: subs are the larger rank's: cpu 1, fpu 1, intmem 0.5, extmem 1.5, link-init 0.5, distribution 1,
 * broadcast 0.5, collection 0.2, input 2, output 0.1. Components: processing 2, memory 2, communication 2.2, io 2.1
 * (total 8.3). B-ratios: 2/6.3, 2/6.3, 2.2/6.1, 2.1/6.2. comm/comp 2.2/4 = 0.55; mem/proc 1. Idle: rank 1's
 * 2.5 + 1 + 0.1 = 3.6. Utilisation: useful 6.1 + 3 = 9.1 over 2 x 8.3 = 0.548193. */
static void test_met_bottleneck_breakdown_by_hand(void)
{
  met_trace_t *t = two_ranks();
  met_breakdown_t b;
  CU_ASSERT_EQUAL_FATAL(met_bottleneck(t, met_table5_phases, &b), 0);
  const double subs[MET_SUB_COUNT] = {1, 1, 0.5, 1.5, 0.5, 1, 0.5, 0.2, 0, 2, 0.1};
  for (int s = 0; s < MET_SUB_COUNT; s++)
    TU_ASSERT_CLOSE(b.sub[s], subs[s], 1e-12);
  TU_ASSERT_CLOSE(b.component[MET_COMP_PROCESSING], 2, 1e-12);
  TU_ASSERT_CLOSE(b.component[MET_COMP_MEMORY], 2, 1e-12);
  TU_ASSERT_CLOSE(b.component[MET_COMP_COMMUNICATION], 2.2, 1e-12);
  TU_ASSERT_CLOSE(b.component[MET_COMP_IO], 2.1, 1e-12);
  TU_ASSERT_CLOSE(b.b_ratio[MET_COMP_PROCESSING], 2 / 6.3, 1e-12);
  TU_ASSERT_CLOSE(b.b_ratio[MET_COMP_COMMUNICATION], 2.2 / 6.1, 1e-12);
  TU_ASSERT_CLOSE(b.b_ratio[MET_COMP_IO], 2.1 / 6.2, 1e-12);
  TU_ASSERT_CLOSE(b.comm_comp_ratio, 0.55, 1e-12);
  TU_ASSERT_CLOSE(b.mem_proc_ratio, 1, 1e-12);
  TU_ASSERT_CLOSE(b.idle, 3.6, 1e-12);
  TU_ASSERT_CLOSE(b.utilisation, 9.1 / 16.6, 1e-12);
  TU_ASSERT_CLOSE(b.t_par, 8.3, 1e-12);
  met_trace_free(t);
}

/* The same trace through another program's phases: only the roles it declares count. A program that declares its
 * phase "broadcast" as collection and nothing else has 0.5 s of collection, its distribution (1 s) and collection
 * (0.2 s) in other-comm (1.2), no link-init (control time in no role is in no component) and its input as output
 * (2 + 0.1). With no list, every communication is other-comm: 1 + 0.5 + 0.2 = 1.7. */
static void test_met_bottleneck_phases_declared(void)
{
  met_trace_t *t = two_ranks();
  static const met_phase_role_t own[] = {{"broadcast", MET_SUB_COLLECTION}, {NULL, MET_SUB_COUNT}};
  met_breakdown_t b;
  CU_ASSERT_EQUAL_FATAL(met_bottleneck(t, own, &b), 0);
  TU_ASSERT_CLOSE(b.sub[MET_SUB_COLLECTION], 0.5, 1e-12);
  TU_ASSERT_CLOSE(b.sub[MET_SUB_BROADCAST], 0, 1e-12);
  TU_ASSERT_CLOSE(b.sub[MET_SUB_OTHER_COMM], 1.2, 1e-12);
  TU_ASSERT_CLOSE(b.sub[MET_SUB_LINK_INIT], 0, 1e-12);
  TU_ASSERT_CLOSE(b.sub[MET_SUB_INPUT], 0, 1e-12);
  TU_ASSERT_CLOSE(b.sub[MET_SUB_OUTPUT], 2.1, 1e-12);
  CU_ASSERT_EQUAL_FATAL(met_bottleneck(t, NULL, &b), 0);
  TU_ASSERT_CLOSE(b.sub[MET_SUB_OTHER_COMM], 1.7, 1e-12);
  TU_ASSERT_CLOSE(b.component[MET_COMP_COMMUNICATION], 1.7, 1e-12);
  unsigned subs = met_phase_subs(own);
  CU_ASSERT_EQUAL(subs, 1u << MET_SUB_CPU | 1u << MET_SUB_FPU | 1u << MET_SUB_INTMEM | 1u << MET_SUB_EXTMEM |
                            1u << MET_SUB_COLLECTION);
  CU_ASSERT_EQUAL(met_phase_subs(met_table5_phases) & (1u << MET_SUB_LINK_INIT | 1u << MET_SUB_BROADCAST),
                  1u << MET_SUB_LINK_INIT | 1u << MET_SUB_BROADCAST);
  met_trace_free(t);
}

static met_breakdown_t point(int p, const double *b_ratio, double comm_comp)
{
  met_breakdown_t b = {.p = p, .comm_comp_ratio = comm_comp};
  memcpy(b.b_ratio, b_ratio, sizeof b.b_ratio);
  b.sub[MET_SUB_EXTMEM] = 2; /* memory's largest */
  b.sub[MET_SUB_INPUT] = 3;  /* io's largest */
  b.sub[MET_SUB_BROADCAST] = 1;
  b.sub[MET_SUB_DISTRIBUTION] = 0.5; /* communication's largest is the broadcast */
  return b;
}

/* Three points; by hand: dominant memory at 16 (0.6, not a bottleneck), io at 32 (1.2, a bottleneck), communication
 * at 64 (1.5). Crossings, linear in log2 p: io rises past 1 at 2^(4 + 0.6/0.8) = 26.909; comm/comp (0.9 -> 2.0) at
 * 2^(5 + 0.1/1.1) = 34.081; communication's B-ratio (0.8 -> 1.5) at 2^(5 + 0.2/0.7) = 39.008; io falls (1.2 -> 0.6)
 * at 2^(5 + 1/3) = 40.317. */
static void test_met_bottleneck_verdict_by_hand(void)
{
  const double r16[] = {0.5, 0.6, 0.3, 0.4};
  const double r32[] = {0.3, 0.35, 0.8, 1.2};
  const double r64[] = {0.1, 0.1, 1.5, 0.6};
  met_breakdown_t points[] = {point(16, r16, 0.5), point(32, r32, 0.9), point(64, r64, 2.0)};
  met_verdict_t v;
  CU_ASSERT_EQUAL_FATAL(met_bottleneck_verdict(points, 3, &v), 0);
  CU_ASSERT(v.dominant[0] == MET_COMP_MEMORY && !v.is_bottleneck[0] && v.cause[0] == MET_SUB_EXTMEM);
  CU_ASSERT(v.dominant[1] == MET_COMP_IO && v.is_bottleneck[1] && v.cause[1] == MET_SUB_INPUT);
  CU_ASSERT(v.dominant[2] == MET_COMP_COMMUNICATION && v.is_bottleneck[2] && v.cause[2] == MET_SUB_BROADCAST);
  CU_ASSERT_EQUAL_FATAL(v.ncrossings, 4);
  const double at[] = {26.909, 34.081, 39.008, 40.317};
  const char *what[] = {"B-ratio of io", "communication/computation", "B-ratio of communication", "B-ratio of io"};
  const int rising[] = {1, 1, 1, 0};
  const int from[] = {16, 32, 32,
                      32}; /* the swept p on each side: io crosses between 16 and 32, the others 32 and 64 */
  for (int i = 0; i < 4; i++) {
    TU_ASSERT_CLOSE(v.crossings[i].p, at[i], 1e-3);
    CU_ASSERT_STRING_EQUAL(v.crossings[i].ratio, what[i]);
    CU_ASSERT_EQUAL(v.crossings[i].rising, rising[i]);
    CU_ASSERT(v.crossings[i].p_from == from[i] && v.crossings[i].p_to == 2 * from[i]);
  }
  met_verdict_free(&v);
}

/* Ties (met_bottleneck.h): at equal B-ratios the component first in Table 5's order (processing, memory,
 * communication, io) dominates, at equal sub-components the first of them is the cause; crossings at the same p keep
 * the order they are found in: B-ratios in component order, then communication/computation. Memory and communication
 * tie at 1.2 (io 0.2), internal and external memory at 2 s: memory dominates, internal memory is the cause. From p = 16
 * to 64, memory's and communication's B-ratios and comm/comp all go 0.5 -> 1.5: each crosses 1 at
 * 2^(4 + 0.5 / 1 x 2) = 32. */
static void test_met_bottleneck_ties_at_equal_values(void)
{
  const double tied[] = {0.3, 1.2, 1.2, 0.2};
  met_breakdown_t b = point(8, tied, 0.5);
  b.sub[MET_SUB_INTMEM] = b.sub[MET_SUB_EXTMEM];
  met_sub_t cause;
  CU_ASSERT_EQUAL(met_bottleneck_dominant(&b, &cause), MET_COMP_MEMORY);
  CU_ASSERT_EQUAL(cause, MET_SUB_INTMEM);
  const double all_equal[] = {0.7, 0.7, 0.7, 0.7};
  b = point(8, all_equal, 0.5);
  CU_ASSERT_EQUAL(met_bottleneck_dominant(&b, &cause), MET_COMP_PROCESSING);
  CU_ASSERT_EQUAL(cause, MET_SUB_CPU);
  const double low[] = {0.2, 0.5, 0.5, 0.2};
  const double high[] = {0.2, 1.5, 1.5, 0.2};
  met_breakdown_t points[] = {point(16, low, 0.5), point(64, high, 1.5)};
  met_verdict_t v;
  CU_ASSERT_EQUAL_FATAL(met_bottleneck_verdict(points, 2, &v), 0);
  CU_ASSERT_EQUAL_FATAL(v.ncrossings, 3);
  const char *what[] = {"B-ratio of memory", "B-ratio of communication", "communication/computation"};
  for (int i = 0; i < 3; i++) {
    TU_ASSERT_CLOSE(v.crossings[i].p, 32, 1e-12);
    CU_ASSERT_STRING_EQUAL(v.crossings[i].ratio, what[i]);
  }
  met_verdict_free(&v);
}

/* One rank computing [0, 2) split cpu 1.5, fpu 0.5, no memory, communication or I/O: processing (2) is the only
 * component, so its B-ratio 2 / 0 is undefined (NaN, where it was 0) and the others' are 0 / 2 = 0; so are
 * communication / computation (0 / 2) and memory / processing (0 / 2). Processing dominates and is a bottleneck (it
 * takes more than all the others, 0). Next to a point at p = 2 with processing's B-ratio at 13, the undefined ratio
 * crosses nothing (it was seen rising above 1 between p = 1 and 2). */
static void test_met_bottleneck_undefined_ratio(void)
{
  met_trace_t *t = met_trace_new(1);
  const double parts[] = {1.5, 0.5, 0, 0};
  add(t, 0, MET_CAT_COMPUTE, "update", 0, 2, parts);
  met_breakdown_t b[2];
  CU_ASSERT_EQUAL_FATAL(met_bottleneck(t, met_table5_phases, &b[0]), 0);
  TU_ASSERT_CLOSE(b[0].component[MET_COMP_PROCESSING], 2, 1e-12);
  CU_ASSERT(isnan(b[0].b_ratio[MET_COMP_PROCESSING]));
  for (int c = MET_COMP_MEMORY; c < MET_COMP_COUNT; c++)
    CU_ASSERT_EQUAL(b[0].b_ratio[c], 0);
  CU_ASSERT_EQUAL(b[0].comm_comp_ratio, 0);
  CU_ASSERT_EQUAL(b[0].mem_proc_ratio, 0);
  met_sub_t cause;
  CU_ASSERT_EQUAL(met_bottleneck_dominant(&b[0], &cause), MET_COMP_PROCESSING);
  CU_ASSERT_EQUAL(cause, MET_SUB_CPU);
  CU_ASSERT(met_bottleneck_exceeds(&b[0], MET_COMP_PROCESSING));
  CU_ASSERT(!met_bottleneck_exceeds(&b[0], MET_COMP_MEMORY));
  const double r2[] = {13, 0, 0.1, 0};
  b[1] = point(2, r2, 0.1);
  met_verdict_t v;
  CU_ASSERT_EQUAL_FATAL(met_bottleneck_verdict(b, 2, &v), 0);
  CU_ASSERT(v.dominant[0] == MET_COMP_PROCESSING && v.is_bottleneck[0]);
  CU_ASSERT_EQUAL(v.ncrossings, 0);
  met_verdict_free(&v);
  met_trace_free(t);
}

static void test_met_bottleneck_names_and_empty(void)
{
  CU_ASSERT_STRING_EQUAL(met_sub_name(MET_SUB_LINK_INIT), "link-init");
  CU_ASSERT_PTR_NULL(met_sub_name(MET_SUB_COUNT));
  CU_ASSERT_STRING_EQUAL(met_component_name(MET_COMP_COMMUNICATION), "communication");
  met_trace_t *t = met_trace_new(1);
  met_breakdown_t b;
  CU_ASSERT_EQUAL(met_bottleneck(t, met_table5_phases, &b), BAS_EINVAL);
  met_trace_free(t);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_met_bottleneck_breakdown_by_hand", test_met_bottleneck_breakdown_by_hand},
      {"test_met_bottleneck_phases_declared", test_met_bottleneck_phases_declared},
      {"test_met_bottleneck_verdict_by_hand", test_met_bottleneck_verdict_by_hand},
      {"test_met_bottleneck_undefined_ratio", test_met_bottleneck_undefined_ratio},
      {"test_met_bottleneck_ties_at_equal_values", test_met_bottleneck_ties_at_equal_values},
      {"test_met_bottleneck_names_and_empty", test_met_bottleneck_names_and_empty},
      {NULL, NULL}};
  return tu_run("met_bottleneck", cases);
}
