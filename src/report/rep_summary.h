/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The summary a lost-cycle study's report opens with (issue 45 item 1): what was swept, the best configuration per
 * range of p with its margin over the runner-up, the best speedup, what separates the best from the runner-up (the
 * lost-cycle class and the Table 5 sub-component, in seconds), the bottleneck verdict, and the agreement with the
 * scenario's reference figures and with the analytic model. The figures come from the study's views (stu_rankings,
 * stu_bottleneck, stu_model_summary, the scenario's references), so that the terminal, the HTML page and a factor
 * view can all read the same struct. */
#ifndef REP_SUMMARY_H
#define REP_SUMMARY_H

#include "rep_group.h"
#include "stu_lost_cycles.h"

#include <stddef.h>
#include <stdio.h>

/* A margin (T_runner-up - T_best) / T_best below this is reported as "within 1%": a threshold of the report, not a
 * run-to-run resolution (simrun's runs are deterministic; the models' own differences from it are several %). */
#define REP_SUMMARY_WITHIN 0.01
/* A margin this small is a tie: the same T_par but for the sums' rounding. */
#define REP_SUMMARY_TIE 1e-9

/* Consecutive p (in increasing order) whose best configuration is the same (the same values of every swept parameter
 * but p). The margins are over the runner-up at each p of the range. */
typedef struct rep_best_range {
  const stu_point_t *first, *last; /* the best points at the range's first and last p */
  const stu_point_t *runner_up;    /* the runner-up at the range's last p */
  double margin_min, margin_max;   /* the smallest and largest margin over the range */
} rep_best_range_t;

/* Seconds per process (summed over ranks / p) the runner-up spends more than the best. */
typedef enum rep_class { REP_CLASS_WORK, REP_CLASS_CTRL, REP_CLASS_COMM, REP_CLASS_IDLE, REP_CLASSES } rep_class_t;

/* |simrun - reference| / reference over a set of the scenario's reference figures at the study's points. */
typedef struct rep_agreement {
  size_t count;
  double mean_abs, max_abs; /* NAN when count is 0 */
  rep_ref_row_t worst;
  const stu_point_t *worst_point;
} rep_agreement_t;

typedef struct rep_summary {
  int p_min, p_max;         /* the study's p range */
  size_t np;                /* distinct p values */
  rep_best_range_t *ranges; /* with points compared at equal p (rep_sweeps_more_than_p), p ascending; else NULL */
  size_t nranges;
  const stu_point_t *top_speedup; /* the point of largest speedup (the earlier on ties) */
  /* What separates the best from the runner-up at the largest p that has a runner-up (sep_best NULL: none). */
  const stu_point_t *sep_best, *sep_second;
  double sep_class[REP_CLASSES]; /* the runner-up's extra seconds per process in each class */
  rep_class_t sep_most;          /* the class of the largest extra */
  met_sub_t sep_sub;             /* the Table 5 sub-component whose busiest-process seconds grow most */
  double sep_sub_seconds;        /* by how much (seconds; 0 and MET_SUB_CPU without a breakdown) */
  /* The bottleneck verdict at the top-speedup point; has_verdict 0 without a breakdown. */
  int has_verdict;
  stu_bottleneck_t verdict;
  double verdict_ratio; /* the dominant component's B-ratio there (NAN: no other component) */
  /* The scenario's reference figures against simrun's: T_par's, and the Table 5 components' and sub-components'. */
  rep_agreement_t refs_t_par, refs_parts;
  /* The analytic model against simrun (stu_model_summary): model_count 0 when there is none. */
  size_t model_count;
  double model_mean_abs, model_max_abs;
  const stu_point_t *model_worst;
} rep_summary_t;

/* Fills `summary` from the study's views (summarised, with the lost-cycle view). Returns 0, BAS_ENOMEM when out of
 * memory, or BAS_EINVAL without the lost-cycle view; either way free it with rep_summary_free. */
int rep_summary_make(const stu_study_t *study, rep_summary_t *summary);
void rep_summary_free(rep_summary_t *summary);
/* The runner-up's extra seconds per process over the best in each class (residues below REP_NOISE_FLOOR of their
 * T_par are 0): they add up to the difference in T_par (p T_par = work + ctrl + comm + idle). */
void rep_summary_extra(const stu_point_t *best, const stu_point_t *second, double extra[REP_CLASSES]);
/* The names of the swept parameters that set the problem (scn_param_sets_problem: a size, a zipped parameter), which
 * the rankings hold equal (stu_ranking_t): "n", or "" when none. */
void rep_summary_held(const stu_study_t *study, char *buf, size_t len);
/* The class's name: "work", "ctrl", "comm", "idle". */
const char *rep_class_name(rep_class_t c);
/* At most 20 lines, each within `width` columns (at least 40). */
void rep_summary_print(FILE *out, const stu_study_t *study, const rep_summary_t *summary, int width);

#endif
