/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The model view: the skeleton's analytic model and advice on each point of a study, on the point's machine as its
 * platform describes it (sim_run_describe), each platform and p described once, made in the study once the point's
 * result is in (finish); and its summary of the study, drawn once every point is in (summarise). */
#include "stu_model.h"
#include "met_eppa.h"
#include "sim_error.h"
#include "sim_run.h"
#include "stu_view.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A point's model results. */
typedef struct model {
  double t_model;
  char warning[320];
  char machine[2048];
  char missing[256];
  char p2p[512];
  char network[768];
} model_t;

struct stu_models {
  met_platform_t *machines; /* the platform descriptions made so far */
  const char **platforms;   /* the platform file of each */
  char **cfgs;              /* the runs' SimGrid settings each was made with (owned), or NULL */
  size_t count;
};

stu_models_t *stu_models_new(void)
{
  return calloc(1, sizeof(stu_models_t));
}

void stu_models_free(stu_models_t *models)
{
  if (!models)
    return;
  for (size_t i = 0; i < models->count; i++)
    free(models->cfgs[i]);
  free(models->machines);
  free(models->platforms);
  free(models->cfgs);
  free(models);
}

static const model_t *model_of(const stu_point_t *point)
{
  return point->view[STU_SLOT_MODEL].data;
}

double stu_model_time(const stu_point_t *point)
{
  const model_t *m = model_of(point);
  return m ? m->t_model : NAN;
}

/* Relative to T_par; 0 where the model and the run agree to the trace's resolution (met_time_difference: at p = 1,
 * gj256's model and run, equal in exact arithmetic, were 4.3e-14 s apart, a diff of 5.5e-16). */
double stu_model_diff(const stu_point_t *point)
{
  return met_time_difference(stu_model_time(point), point->t_par) / point->t_par;
}

/* The text at `offset` in the point's model results, or "" without them. */
static const char *text_at(const stu_point_t *point, size_t offset)
{
  const model_t *m = model_of(point);
  return m ? (const char *)m + offset : "";
}

const char *stu_model_warning(const stu_point_t *point)
{
  return text_at(point, offsetof(model_t, warning));
}

const char *stu_model_machine(const stu_point_t *point)
{
  return text_at(point, offsetof(model_t, machine));
}

const char *stu_model_missing(const stu_point_t *point)
{
  return text_at(point, offsetof(model_t, missing));
}

const char *stu_model_p2p(const stu_point_t *point)
{
  return text_at(point, offsetof(model_t, p2p));
}

const char *stu_model_network(const stu_point_t *point)
{
  return text_at(point, offsetof(model_t, network));
}

/* A new slot at the end of the list, for a description of `platform` under the runs' settings `cfg` (NULL: none);
 * NULL when out of memory. */
static met_platform_t *grow(stu_models_t *models, const char *platform, const char *cfg)
{
  met_platform_t *m = realloc(models->machines, (models->count + 1) * sizeof *m);
  if (m)
    models->machines = m;
  const char **names = realloc(models->platforms, (models->count + 1) * sizeof *names);
  if (names)
    models->platforms = names;
  char **cfgs = realloc(models->cfgs, (models->count + 1) * sizeof *cfgs);
  if (cfgs)
    models->cfgs = cfgs;
  char *copy = cfg ? strdup(cfg) : NULL;
  if (!m || !names || !cfgs || (cfg && !copy)) {
    free(copy);
    return NULL;
  }
  models->platforms[models->count] = platform;
  models->cfgs[models->count] = copy;
  return &models->machines[models->count];
}

int stu_models_add(stu_models_t *models, const char *platform, const met_platform_t *machine)
{
  met_platform_t *m = grow(models, platform, NULL);
  if (!m)
    return SIM_ENOMEM;
  *m = *machine;
  models->count++;
  return 0;
}

/* The description of the point's platform for its p under the runs' SimGrid settings `cfg` (NULL: none), from the
 * list or made once; NULL with the reason in err when it cannot be made. */
static const met_platform_t *describe(stu_models_t *models, const stu_study_t *study, const stu_point_t *point,
                                      const char *cfg, char *err, size_t errlen)
{
  const char *platform = stu_platform(study, point);
  for (size_t i = 0; i < models->count; i++)
    if (models->machines[i].p == point->p && strcmp(models->platforms[i], platform) == 0 &&
        (cfg ? models->cfgs[i] && strcmp(models->cfgs[i], cfg) == 0 : !models->cfgs[i]))
      return &models->machines[i];
  met_platform_t *m = grow(models, platform, cfg);
  if (!m) {
    snprintf(err, errlen, "%s", bas_strerror(SIM_ENOMEM));
    return NULL;
  }
  if (sim_run_describe_for(platform, cfg, point->p, m, err, errlen) != 0) {
    free(models->cfgs[models->count]);
    return NULL;
  }
  models->count++;
  return m;
}

/* The platform file's name of `point` when the study sweeps platforms, so that per-platform lines say which they
 * describe; NULL otherwise. */
static const char *swept_platform(const stu_study_t *study, const stu_point_t *point)
{
  const scn_param_t *swept = scn_role_param(study->scenario, SCN_ROLE_PLATFORM);
  if (!swept || swept->nvalues < 2)
    return NULL;
  const char *path = stu_platform(study, point);
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* The point-to-point and network lines of `m`, naming the platform when the study sweeps platforms. */
static void describe_network(const met_platform_t *m, const char *platform, model_t *r)
{
  static const char head[] = "Point-to-point models,"; /* how met_platform_p2p_describe's lines begin */
  char p2p[384]; /* its longest, with the platform (100) in front, fits in r->p2p */
  met_platform_p2p_describe(m, 1024, p2p, sizeof p2p);
  if (platform && strncmp(p2p, head, strlen(head)) == 0)
    snprintf(r->p2p, sizeof r->p2p, "Point-to-point models on %.100s,%s", platform, p2p + strlen(head));
  else
    snprintf(r->p2p, sizeof r->p2p, "%s", p2p);
  size_t used = platform ? (size_t)snprintf(r->network, sizeof r->network, "on %.100s, ", platform) : 0;
  met_net_describe(&m->net, r->network + used, sizeof r->network - used);
}

/* The machine line of ranks on hosts of several characterisations: rank 0's with its origin, then every other kind
 * with its first host and its number of ranks, and which host T_seq and the per-process host speed refer to. */
static void describe_kinds(const met_platform_t *m, char *out, size_t len)
{
  size_t used =
      (size_t)snprintf(out, len, "%.380s; the ranks' hosts differ, %d characterisations:", m->origin, m->nkinds);
  int kept = m->nkinds < MET_PLATFORM_MAX_KINDS ? m->nkinds : MET_PLATFORM_MAX_KINDS;
  for (int k = 0; k < kept && used < len; k++) {
    char figures[256];
    met_charac_describe(&m->kinds[k].charac, figures, sizeof figures);
    used += (size_t)snprintf(out + used, len - used, " [%.63s, %d rank%s: %s]", m->kinds[k].host, m->kinds[k].ranks,
                             m->kinds[k].ranks == 1 ? "" : "s", figures);
  }
  if (used < len && m->nkinds > kept)
    used += (size_t)snprintf(out + used, len - used, " and %d more", m->nkinds - kept);
  if (used < len)
    snprintf(out + used, len - used,
             ". T_seq is the run at p = 1 on rank 0's host %.63s, the reference of the per-process host speed; the "
             "models take each rank's own host, the slowest setting the pace",
             m->kinds[0].host);
}

/* The point's model, machine and advice (a simulated study's; a measured one, without a skeleton, has none); a
 * platform that cannot be described leaves the model NAN, saying so. 0, or SIM_ENOMEM. */
static int finish(stu_point_t *point, const stu_view_context_t *ctx)
{
  if (!ctx->skeleton)
    return 0;
  model_t *r = stu_slot_make(&point->view[STU_SLOT_MODEL], sizeof *r, free);
  if (!r)
    return SIM_ENOMEM;
  const app_skeleton_t *skeleton = ctx->skeleton;
  app_point_t at = {.count = ctx->study->scenario->nparams, .names = ctx->names, .values = point->values};
  r->t_model = NAN;
  /* the network model the runs have: a skeleton's own SimGrid settings (ti-replay's SMPI) change it */
  void *arg = NULL;
  const char *blame = NULL;
  const char *cfg = NULL;
  char unused[256]; /* the point ran: its arguments were prepared once already */
  if (skeleton->engine_cfg && skeleton->prepare(&at, point->p, &arg, unused, sizeof unused, &blame) == 0)
    cfg = skeleton->engine_cfg(arg);
  const met_platform_t *m = describe(ctx->models, ctx->study, point, cfg, r->machine, sizeof r->machine);
  skeleton->release(arg);
  if (!m) {
    snprintf(r->missing, sizeof r->missing, "the platform could not be described");
    return 0;
  }
  if (m->uniform)
    snprintf(r->machine, sizeof r->machine, "%s", m->origin);
  else
    describe_kinds(m, r->machine, sizeof r->machine);
  describe_network(m, swept_platform(ctx->study, point), r);
  if (m->piecewise) /* SimGrid's latency factor is then the platform's T(l, d): sim_engine_set_msg_time */
    snprintf(r->network + strlen(r->network), sizeof r->network - strlen(r->network),
             "; messages take the platform's eq. 4 (simrun:comm-model), which the models take too");
  if (skeleton->model)
    r->t_model = skeleton->model(&at, point->p, m, r->missing, sizeof r->missing);
  if (!skeleton->advise || !skeleton->advise(&at, point->p, m, r->warning, sizeof r->warning))
    r->warning[0] = '\0';
  return 0;
}

static void summary_release(void *data)
{
  stu_model_summary_t *s = data;
  free(s->grids);
  free(s);
}

const stu_model_summary_t *stu_model_summary(const stu_study_t *study)
{
  static const stu_model_summary_t none = {.mean_abs = NAN};
  const stu_model_summary_t *s = study->summary[STU_SLOT_MODEL].data;
  return s ? s : &none;
}

/* The mean and largest |diff| over the points with a model time. */
static void differences(const stu_study_t *study, stu_model_summary_t *out)
{
  double sum = 0;
  for (size_t i = 0; i < study->npoints; i++) {
    double diff = fabs(stu_model_diff(&study->points[i]));
    if (!isfinite(diff))
      continue;
    sum += diff;
    out->count++;
    if (!out->worst || diff > out->max_abs) {
      out->max_abs = diff;
      out->worst = &study->points[i];
    }
  }
  out->mean_abs = out->count ? sum / (double)out->count : NAN;
}

/* The fastest, slowest and model's grid among the points with `p` processes on `platform`; returns 0 when p has
 * none there. */
static int choose(const stu_study_t *study, int p, const char *platform, stu_grid_choice_t *c)
{
  *c = (stu_grid_choice_t){.p = p, .platform = platform};
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *point = &study->points[i];
    if (point->p != p || strcmp(stu_platform(study, point), platform) != 0)
      continue;
    if (!c->best || point->t_par < c->best->t_par)
      c->best = point;
    if (!c->worst || point->t_par > c->worst->t_par)
      c->worst = point;
    if (!c->choice || stu_model_time(point) < stu_model_time(c->choice))
      c->choice = point;
  }
  return c->best != NULL;
}

/* Per platform (in the order of their first points) and p with several grids, the best, the worst and the model's
 * choice. 0, or SIM_ENOMEM. */
static int grid_choices(const stu_study_t *study, stu_model_summary_t *out)
{
  int max_p = 0;
  for (size_t i = 0; i < study->npoints; i++)
    max_p = study->points[i].p > max_p ? study->points[i].p : max_p;
  if (!(out->grids = calloc(study->npoints ? study->npoints : 1, sizeof *out->grids)))
    return SIM_ENOMEM;
  for (size_t i = 0; i < study->npoints; i++) {
    const char *platform = stu_platform(study, &study->points[i]);
    size_t first = 0;
    while (strcmp(stu_platform(study, &study->points[first]), platform) != 0)
      first++;
    for (int p = 1; first == i && p <= max_p; p++)
      if (choose(study, p, platform, &out->grids[out->ngrids]) &&
          out->grids[out->ngrids].best != out->grids[out->ngrids].worst)
        out->ngrids++;
  }
  return 0;
}

static int summarise(stu_study_t *study)
{
  stu_model_summary_t *s = stu_slot_make(&study->summary[STU_SLOT_MODEL], sizeof *s, summary_release);
  if (!s)
    return SIM_ENOMEM;
  differences(study, s);
  return study->facts.grid ? grid_choices(study, s) : 0;
}

const stu_view_row_t stu_model_view = {
    .finish = finish,
    .summarise = summarise,
};
