/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The cause-effect view: the CARNIVAL analysis of a DSM run (seed 002), drawn in the simulating child from the sums
 * its trace kept as spans and requests arrived (met_ce.h: an aggregate trace, whose memory grows with the nodes, not
 * the requests) and carried back in the result stream; in the study, what dominates the point's waiting, its first
 * page request split by category and, when the study asks for them (stu_facts_t.requests), a copy of every request of
 * the point's whole trace (finish); and what the protocol controllers save against the original TreadMarks, point by
 * point (summarise, seed 002 §4.3). */
#include "stu_cause_effect.h"
#include "sim_error.h"
#include "stu_codec.h"
#include "stu_view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct cause_effect {
  met_carnival_t *carnival;
  int waited; /* the PPs waited on some request: dominant is filled */
  stu_ce_dominant_t dominant;
  stu_ce_first_t first;    /* first.request NULL: no page request */
  met_request_t *requests; /* with the study's requests: the point's, copied from its whole trace */
  size_t nrequests;
} cause_effect_t;

const met_carnival_t *stu_carnival(const stu_point_t *point)
{
  const cause_effect_t *c = point->view[STU_SLOT_CAUSE_EFFECT].data;
  return c ? c->carnival : NULL;
}

const stu_ce_dominant_t *stu_ce_dominant(const stu_point_t *point)
{
  const cause_effect_t *c = point->view[STU_SLOT_CAUSE_EFFECT].data;
  return c && c->waited ? &c->dominant : NULL;
}

const stu_ce_first_t *stu_ce_first_page(const stu_point_t *point)
{
  const cause_effect_t *c = point->view[STU_SLOT_CAUSE_EFFECT].data;
  return c && c->first.request ? &c->first : NULL;
}

const met_request_t *stu_ce_requests(const stu_point_t *point, size_t *count)
{
  const cause_effect_t *c = point->view[STU_SLOT_CAUSE_EFFECT].data;
  *count = c ? c->nrequests : 0;
  return c ? c->requests : NULL;
}

static void release(void *data)
{
  cause_effect_t *c = data;
  met_carnival_free(c->carnival);
  free(c->requests);
  free(c);
}

/* The operation with the longest PP request wait. */
static met_ce_op_t dominant_op(const met_carnival_t *c)
{
  met_ce_op_t best = MET_OP_PAGE;
  for (int op = MET_OP_PAGE; op < MET_OP_COUNT; op++)
    if (met_carnival_wait(c, MET_UNIT_PP, op, -1).time > met_carnival_wait(c, MET_UNIT_PP, best, -1).time)
      best = (met_ce_op_t)op;
  return best;
}

static met_wait_cat_t dominant_cat(const met_ce_wait_t *w)
{
  int best = 0;
  for (int k = 1; k < MET_W_COUNT; k++)
    if (w->cat[k] > w->cat[best])
      best = k;
  return (met_wait_cat_t)best;
}

/* What dominates the waiting of `c`, into *d; 0 when the PPs never waited. */
static int dominance(const met_carnival_t *c, stu_ce_dominant_t *d)
{
  d->all = met_carnival_wait(c, MET_UNIT_PP, -1, -1);
  if (d->all.time <= 0)
    return 0;
  double pp_time = met_carnival_end(c) * met_carnival_nodes(c);
  d->all_pct = 100 * d->all.time / pp_time;
  d->op = dominant_op(c);
  d->of_op = met_carnival_wait(c, MET_UNIT_PP, d->op, -1);
  d->op_pct = 100 * d->of_op.time / d->all.time;
  d->op_mean_us = 1e6 * d->of_op.time / d->of_op.count;
  d->cat = dominant_cat(&d->all);
  d->cat_pct = 100 * d->all.cat[d->cat] / d->all.time;
  d->cat_of_op = dominant_cat(&d->of_op);
  d->cat_of_op_pct = 100 * d->of_op.cat[d->cat_of_op] / d->of_op.time;
  double barrier_irq = met_carnival_wait(c, MET_UNIT_PP, MET_OP_BARRIER, -1).cat[MET_W_PPRWAIT];
  d->barrier_pct = d->all.cat[MET_W_PPRWAIT] > 0 ? 100 * barrier_irq / d->all.cat[MET_W_PPRWAIT] : NAN;
  return 1;
}

static cause_effect_t *make(stu_point_t *point)
{
  return stu_slot_make(&point->view[STU_SLOT_CAUSE_EFFECT], sizeof(cause_effect_t), release);
}

/* In the child: the analysis of the point's trace, from its sums. */
static int32_t analyse(stu_point_t *point, const met_trace_t *trace, const stu_view_input_t *in)
{
  (void)in;
  cause_effect_t *c = make(point);
  return c && (c->carnival = met_carnival_new(trace)) ? 0 : SIM_ENOMEM;
}

/* [has][the analysis, met_carnival_write]; [0] for a point without the view. */
static int encode(stu_point_t *point, FILE *out)
{
  const cause_effect_t *c = point->view[STU_SLOT_CAUSE_EFFECT].data;
  int32_t has = c && c->carnival;
  return stu_codec_put(out, &has, sizeof has) || (has && met_carnival_write(c->carnival, out)) ? -1 : 0;
}

/* A point without the view (an empty section) is left without results. */
static int decode(stu_point_t *point, FILE *in)
{
  int32_t has = 0;
  if (stu_codec_get(in, &has, sizeof has) || (has != 0 && has != 1))
    return -1;
  cause_effect_t *c = has ? make(point) : NULL;
  return has && !(c && (c->carnival = met_carnival_read(in))) ? -1 : 0;
}

/* A copy of the requests of the point's whole trace, when it has one. 0, or SIM_ENOMEM. */
static int copy_requests(cause_effect_t *c, const met_trace_t *trace)
{
  size_t count = 0;
  const met_request_t *requests = trace ? met_trace_requests(trace, &count) : NULL;
  if (count == 0 || c->requests)
    return 0;
  if (!(c->requests = malloc(count * sizeof *c->requests)))
    return SIM_ENOMEM;
  memcpy(c->requests, requests, count * sizeof *c->requests);
  c->nrequests = count;
  return 0;
}

static int finish(stu_point_t *point, const stu_view_context_t *ctx)
{
  cause_effect_t *c = point->view[STU_SLOT_CAUSE_EFFECT].data;
  if (!c || !c->carnival)
    return 0;
  c->waited = dominance(c->carnival, &c->dominant);
  if ((c->first.request = met_carnival_first(c->carnival, MET_OP_PAGE)))
    c->first.wait = met_ce_split(c->first.request, c->first.cats);
  return ctx->study && ctx->study->facts.requests ? copy_requests(c, point->trace) : 0;
}

/* ---------- the summary: what the controllers save ---------- */

const stu_ce_summary_t *stu_ce_summary(const stu_study_t *study)
{
  static const stu_ce_summary_t none = {0};
  const stu_ce_summary_t *s = study->summary[STU_SLOT_CAUSE_EFFECT].data;
  return s ? s : &none;
}

static void summary_release(void *data)
{
  stu_ce_summary_t *s = data;
  free(s->savings);
  free(s);
}

/* The point equal to `point` in every parameter but the variant (the controller), which is its baseline; NULL when
 * there is none. */
static const stu_point_t *baseline_of(const stu_study_t *study, const stu_point_t *point)
{
  const scn_scenario_t *s = study->scenario;
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *other = &study->points[i];
    int same = 1;
    for (size_t j = 0; same && j < s->nparams; j++)
      same = s->params[j].role == SCN_ROLE_VARIANT ? other->role.baseline
                                                   : strcmp(other->values[j], point->values[j]) == 0;
    if (same)
      return other;
  }
  return NULL;
}

/* One point's profile for a saving: per node, each PP category's mean in ms, and each operation's mean wait in us. */
static void profile(const met_carnival_t *c, double pp_ms[MET_CE_PRSTE + 1], double wait_us[MET_OP_COUNT])
{
  for (int cat = MET_CE_COMP; cat <= MET_CE_PRSTE; cat++)
    pp_ms[cat] = 1e3 * met_carnival_time(c, -1, -1, cat, -1) / met_carnival_nodes(c);
  for (int op = MET_OP_PAGE; op < MET_OP_COUNT; op++) {
    met_ce_wait_t w = met_carnival_wait(c, MET_UNIT_PP, op, -1);
    wait_us[op] = w.count ? 1e6 * w.time / w.count : 0.0;
  }
}

static int summarise(stu_study_t *study)
{
  stu_ce_summary_t *s = stu_slot_make(&study->summary[STU_SLOT_CAUSE_EFFECT], sizeof *s, summary_release);
  if (!s || !(s->savings = calloc(study->npoints ? study->npoints : 1, sizeof *s->savings)))
    return SIM_ENOMEM;
  int has_variant = scn_role_param(study->scenario, SCN_ROLE_VARIANT) != NULL;
  for (size_t i = 0; has_variant && i < study->npoints; i++) {
    const stu_point_t *with = &study->points[i];
    const stu_point_t *without = with->role.baseline ? NULL : baseline_of(study, with);
    if (!without)
      continue;
    stu_ce_saving_t *saving = &s->savings[s->nsavings++];
    *saving = (stu_ce_saving_t){.with = with, .without = without, .saved = without->t_par - with->t_par};
    saving->saved_pct = 100 * saving->saved / without->t_par;
    profile(stu_carnival(with), saving->pp_ms[0], saving->wait_us[0]);
    profile(stu_carnival(without), saving->pp_ms[1], saving->wait_us[1]);
  }
  return 0;
}

const stu_view_row_t stu_cause_effect_view = {
    .flag = MET_VIEW_CAUSE_EFFECT,
    .analyse = analyse,
    .finish = finish,
    .encode = encode,
    .decode = decode,
    .summarise = summarise,
};
