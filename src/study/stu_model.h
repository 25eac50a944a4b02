/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The model view (every simulated study's): the skeleton's analytic model of each point and its advice on it, on the
 * machine the point's platform describes for its p (sim_run_describe, made once per platform and p), and its summary
 * of the study (how far the model is from simrun, the best and worst process grid of each p and the grid the model
 * would choose), read by the report through these accessors; its row of the views table is stu_model_view
 * (stu_view.h). A measured run has no model: its points have none of these. */
#ifndef STU_MODEL_H
#define STU_MODEL_H

#include "met_machine.h"
#include "stu_study.h"

#include <stddef.h>

/* The point's model of T_par; NAN when it has none (outside the model, or a skeleton without one). */
double stu_model_time(const stu_point_t *point);
/* (T_model - T_par) / T_par at the point; NAN without a model time. */
double stu_model_diff(const stu_point_t *point);
/* The skeleton's advice on the point, or "". */
const char *stu_model_warning(const stu_point_t *point);
/* Which characterisation rank 0's host used and where it came from, or "". */
const char *stu_model_machine(const stu_point_t *point);
/* With the model time NAN: what the model lacks, or "". */
const char *stu_model_missing(const stu_point_t *point);
/* The point-to-point models between ranks 0 and 1 (met_platform_p2p_describe), or "". */
const char *stu_model_p2p(const stu_point_t *point);
/* The network model the point's SimGrid run priced messages with, and its figures (met_net_describe), or "". */
const char *stu_model_network(const stu_point_t *point);

/* At one p with several points, the fastest and slowest (T_par, simulated; the earlier on ties) and the one of least
 * model time (the earlier on ties, the first when no point has one): compact grids against elongated ones, seed 003
 * §5.1. */
typedef struct stu_grid_choice {
  int p;
  const char *platform; /* the points' platform file (stu_platform), borrowed */
  const stu_point_t *best, *worst, *choice;
} stu_grid_choice_t;

/* The model's summary of the study. */
typedef struct stu_model_summary {
  size_t count;             /* points with a model time */
  double mean_abs;          /* mean of |T_model - T_par| / T_par over them (NAN when count is 0) */
  double max_abs;           /* the largest */
  const stu_point_t *worst; /* the point where it is largest, or NULL */
  stu_grid_choice_t *grids; /* per p with more than one point and best != worst, p ascending; a study whose skeleton
                             * runs on a process grid only (stu_facts_t.grid) */
  size_t ngrids;
} stu_model_summary_t;
/* Borrowed from the study; before it is summarised, a summary of no point. */
const stu_model_summary_t *stu_model_summary(const stu_study_t *study);

/* The platforms described so far, shared by the points of one sweep (stu_view_context_t.models). NULL when out of
 * memory. Free with stu_models_free (accepts NULL). */
typedef struct stu_models stu_models_t;
stu_models_t *stu_models_new(void);
void stu_models_free(stu_models_t *models);

/* Keeps `machine`, the description of `platform` (a string that outlives the models) for machine->p ranks, made ahead
 * (sim_run_probe_describe), so that no point describes it again. 0, or SIM_ENOMEM. */
int stu_models_add(stu_models_t *models, const char *platform, const met_platform_t *machine);

#endif
