/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Characterisation-based bottleneck analysis (seed 001 §3.5, §4.3, Table 5, eq. 8): components and sub-components of
 * a run's time from the trace alone, B-ratios, the two bottleneck ratios, utilisation, and the verdict over a sweep. */
#include "met_bottleneck.h"
#include "bas_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const component_names[MET_COMP_COUNT] = {"processing", "memory", "communication", "io"};
static const char *const sub_names[MET_SUB_COUNT] = {"cpu",        "fpu",          "intmem",    "extmem",
                                                     "link-init",  "distribution", "broadcast", "collection",
                                                     "other-comm", "input",        "output"};
static const met_component_t sub_owner[MET_SUB_COUNT] = {MET_COMP_PROCESSING,
                                                         MET_COMP_PROCESSING,
                                                         MET_COMP_MEMORY,
                                                         MET_COMP_MEMORY,
                                                         MET_COMP_COMMUNICATION,
                                                         MET_COMP_COMMUNICATION,
                                                         MET_COMP_COMMUNICATION,
                                                         MET_COMP_COMMUNICATION,
                                                         MET_COMP_COMMUNICATION,
                                                         MET_COMP_IO,
                                                         MET_COMP_IO};

const char *met_component_name(met_component_t component)
{
  return (unsigned)component < MET_COMP_COUNT ? component_names[component] : NULL;
}

const char *met_sub_name(met_sub_t sub)
{
  return (unsigned)sub < MET_SUB_COUNT ? sub_names[sub] : NULL;
}

const met_phase_role_t met_table5_phases[] = {{"link-init", MET_SUB_LINK_INIT},
                                              {"input", MET_SUB_INPUT},
                                              {"output", MET_SUB_OUTPUT},
                                              {"distribution", MET_SUB_DISTRIBUTION},
                                              {"broadcast", MET_SUB_BROADCAST},
                                              {"collection", MET_SUB_COLLECTION},
                                              {NULL, MET_SUB_COUNT}};

unsigned met_phase_subs(const met_phase_role_t *phases)
{
  unsigned subs = 1u << MET_SUB_CPU | 1u << MET_SUB_FPU | 1u << MET_SUB_INTMEM | 1u << MET_SUB_EXTMEM;
  for (const met_phase_role_t *role = phases; role && role->label; role++)
    subs |= 1u << role->sub;
  return subs;
}

/* The role of phase `label` in `phases`, or MET_SUB_COUNT for none. */
static met_sub_t role_of(const met_phase_role_t *phases, const char *label)
{
  for (const met_phase_role_t *role = phases; role && role->label; role++)
    if (strcmp(role->label, label) == 0)
      return role->sub;
  return MET_SUB_COUNT;
}

/* The sub-component that time in `category` under a phase of role `role` belongs to, or -1 for none. */
static int classify(met_category_t category, met_sub_t role)
{
  if (category == MET_CAT_CTRL)
    return role == MET_SUB_LINK_INIT ? MET_SUB_LINK_INIT : -1;
  if (category == MET_CAT_IO)
    return role == MET_SUB_INPUT ? MET_SUB_INPUT : MET_SUB_OUTPUT;
  if (category != MET_CAT_COMM)
    return -1;
  return role == MET_SUB_DISTRIBUTION || role == MET_SUB_BROADCAST || role == MET_SUB_COLLECTION ? (int)role
                                                                                                 : MET_SUB_OTHER_COMM;
}

/* From the trace's per-rank sums, so that a full trace and an aggregate one give the same figures. */
static void rank_subs(const met_trace_t *trace, const met_phase_role_t *phases, int rank, double *subs)
{
  memset(subs, 0, MET_SUB_COUNT * sizeof *subs);
  for (int part = 0; part < MET_PART_COUNT; part++)
    subs[MET_SUB_CPU + part] = met_trace_any_part_time(trace, rank, (met_part_t)part);
  for (int phase = 0; phase < met_trace_phase_count(trace); phase++)
    for (int c = 0; c < MET_CAT_COUNT; c++) {
      int sub = classify((met_category_t)c, role_of(phases, met_trace_phase_name(trace, phase)));
      if (sub >= 0)
        subs[sub] += met_trace_phase_time(trace, rank, phase, (met_category_t)c);
    }
}

static void ratios(met_breakdown_t *out)
{
  double total = 0;
  for (int c = 0; c < MET_COMP_COUNT; c++)
    total += out->component[c];
  for (int c = 0; c < MET_COMP_COUNT; c++) {
    double others = total - out->component[c];
    out->b_ratio[c] = others > 0 ? out->component[c] / others : NAN;
  }
  double computation = out->component[MET_COMP_PROCESSING] + out->component[MET_COMP_MEMORY];
  out->comm_comp_ratio = computation > 0 ? out->component[MET_COMP_COMMUNICATION] / computation : NAN;
  out->mem_proc_ratio = out->component[MET_COMP_PROCESSING] > 0
                            ? out->component[MET_COMP_MEMORY] / out->component[MET_COMP_PROCESSING]
                            : NAN;
}

int met_bottleneck(const met_trace_t *trace, const met_phase_role_t *phases, met_breakdown_t *out)
{
  memset(out, 0, sizeof *out);
  out->p = met_trace_nranks(trace);
  out->t_par = met_trace_end(trace);
  if (out->t_par <= 0)
    return BAS_EINVAL;
  double useful = 0;
  for (int rank = 0; rank < out->p; rank++) {
    double subs[MET_SUB_COUNT];
    rank_subs(trace, phases, rank, subs);
    for (int s = 0; s < MET_SUB_COUNT; s++)
      out->sub[s] = fmax(out->sub[s], subs[s]);
    out->idle = fmax(out->idle, met_trace_category_time(trace, rank, MET_CAT_IDLE));
    useful += met_trace_category_time(trace, rank, MET_CAT_COMPUTE) + met_trace_category_time(trace, rank, MET_CAT_IO);
  }
  for (int s = 0; s < MET_SUB_COUNT; s++)
    out->component[sub_owner[s]] += out->sub[s];
  ratios(out);
  /* eq. 8 with a stage wherever the number of busy processors changes: the integral of busy processors over time,
   * which is the total useful time, over p T_par */
  out->utilisation = useful / (out->p * out->t_par);
  return 0;
}

/* The B-ratio of component c for comparisons: infinite where it is undefined because c alone has time, -1 where
 * nothing has time. */
static double ratio_rank(const met_breakdown_t *b, int c)
{
  if (!isnan(b->b_ratio[c]))
    return b->b_ratio[c];
  return b->component[c] > 0 ? INFINITY : -1;
}

int met_bottleneck_exceeds(const met_breakdown_t *b, met_component_t c)
{
  return ratio_rank(b, c) > 1;
}

met_component_t met_bottleneck_dominant(const met_breakdown_t *b, met_sub_t *cause)
{
  met_component_t best = MET_COMP_PROCESSING;
  for (int c = 1; c < MET_COMP_COUNT; c++)
    if (ratio_rank(b, c) > ratio_rank(b, best))
      best = (met_component_t)c;
  *cause = MET_SUB_COUNT;
  for (int s = 0; s < MET_SUB_COUNT; s++)
    if (sub_owner[s] == best && (*cause == MET_SUB_COUNT || b->sub[s] > b->sub[*cause]))
      *cause = (met_sub_t)s;
  return best;
}

/* Appends the crossing of 1 by a ratio between points a and b (values ra, rb), if it crosses there; an undefined
 * ratio (NaN) crosses nothing. */
static int add_crossing(met_verdict_t *v, const char *name, const met_breakdown_t *a, const met_breakdown_t *b,
                        double ra, double rb)
{
  if (isnan(ra) || isnan(rb) || (ra > 1) == (rb > 1) || a->p == b->p)
    return 0;
  met_crossing_t *more = realloc(v->crossings, (v->ncrossings + 1) * sizeof *more);
  if (!more)
    return -1;
  v->crossings = more;
  double x = log2(a->p) + (1 - ra) / (rb - ra) * (log2(b->p) - log2(a->p));
  v->crossings[v->ncrossings++] =
      (met_crossing_t){.ratio = name, .p = exp2(x), .rising = rb > ra, .p_from = a->p, .p_to = b->p};
  return 0;
}

static const char *const b_ratio_names[MET_COMP_COUNT] = {"B-ratio of processing", "B-ratio of memory",
                                                          "B-ratio of communication", "B-ratio of io"};

/* Crossings between consecutive points, B-ratios first, then communication/computation. */
static int crossings_between(met_verdict_t *v, const met_breakdown_t *a, const met_breakdown_t *b)
{
  for (int c = 0; c < MET_COMP_COUNT; c++)
    if (add_crossing(v, b_ratio_names[c], a, b, a->b_ratio[c], b->b_ratio[c]) != 0)
      return -1;
  return add_crossing(v, "communication/computation", a, b, a->comm_comp_ratio, b->comm_comp_ratio);
}

/* Sorts the crossings by p, keeping those at the same p in the order they were found (qsort need not be stable, and
 * the report must be the same on every machine); a sweep has a handful of crossings. */
static void sort_by_p(met_crossing_t *crossings, size_t count)
{
  for (size_t i = 1; i < count; i++) {
    met_crossing_t c = crossings[i];
    size_t j = i;
    for (; j > 0 && crossings[j - 1].p > c.p; j--)
      crossings[j] = crossings[j - 1];
    crossings[j] = c;
  }
}

int met_bottleneck_verdict(const met_breakdown_t *points, size_t count, met_verdict_t *out)
{
  memset(out, 0, sizeof *out);
  out->npoints = count;
  out->dominant = calloc(count ? count : 1, sizeof *out->dominant);
  out->is_bottleneck = calloc(count ? count : 1, sizeof *out->is_bottleneck);
  out->cause = calloc(count ? count : 1, sizeof *out->cause);
  if (!out->dominant || !out->is_bottleneck || !out->cause)
    goto fail;
  for (size_t i = 0; i < count; i++) {
    out->dominant[i] = met_bottleneck_dominant(&points[i], &out->cause[i]);
    out->is_bottleneck[i] = met_bottleneck_exceeds(&points[i], out->dominant[i]);
    if (i > 0 && crossings_between(out, &points[i - 1], &points[i]) != 0)
      goto fail;
  }
  sort_by_p(out->crossings, out->ncrossings);
  return 0;
fail:
  met_verdict_free(out);
  return BAS_ENOMEM;
}

void met_verdict_free(met_verdict_t *verdict)
{
  free(verdict->dominant);
  free(verdict->is_bottleneck);
  free(verdict->cause);
  free(verdict->crossings);
  memset(verdict, 0, sizeof *verdict);
}
