/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The bar and curve views of the study's pictures (docs/pictures.md): per series of points against p, overall
 * performance (seed 000 Fig. 1.5) and the bottleneck views (seed 001 Figs 5-9); per point, a bar per rank for its
 * overhead ratios (seed 000 Fig. 1.6) and its wait states. */
#include "rep_views.h"
#include "bas_error.h"
#include "rep_wait.h"
#include "stu_lost_cycles.h"

#include <math.h>
#include <stdlib.h>

/* ---------- per series of points against p: values of a point ---------- */

static double component_time(const stu_point_t *point, int which)
{
  return stu_breakdown(point)->component[which];
}

static double b_ratio(const stu_point_t *point, int which)
{
  return stu_breakdown(point)->b_ratio[which];
}

static double bottleneck_ratio(const stu_point_t *point, int which)
{
  return which == 0 ? stu_breakdown(point)->comm_comp_ratio : stu_breakdown(point)->mem_proc_ratio;
}

/* values[which] as a percentage of the sum of the n values (0 when they sum to 0). */
static double share(const double *values, int n, int which)
{
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += values[i];
  return sum > 0 ? 100 * values[which] / sum : 0;
}

static double component_share(const stu_point_t *point, int which)
{
  return share(stu_breakdown(point)->component, MET_COMP_COUNT, which);
}

static double sub_share(const stu_point_t *point, int which)
{
  return share(stu_breakdown(point)->sub, MET_SUB_COUNT, which);
}

/* Stacks of `count` values each, get(point, which) for which = 0 .. n-1, in one block. NULL when out of memory. */
static double *stack_values(const rep_series_t *g, rep_point_value_fn get, int n, rep_stack_t *stacks)
{
  double *block = calloc((size_t)n * g->count, sizeof *block);
  for (int s = 0; block && s < n; s++) {
    rep_series_values(g, get, s, block + (size_t)s * g->count);
    stacks[s].values = block + (size_t)s * g->count;
  }
  return block;
}

/* Share of p T_par (%) for the overall view: useful work at its sequential cost is the efficiency; a positive anomaly
 * (useful work done slower in parallel) sits on it; a negative one shrinks it. The shares add up to 100. */
static double cycle_share(const stu_point_t *point, int which)
{
  const met_eppa_t *e = stu_eppa(point);
  double anomaly = e->ovh_ratio[MET_OVH_ANOMALY];
  if (which == 0)
    return 100 * e->efficiency * (1 + fmin(anomaly, 0));
  if (which == 1)
    return 100 * e->efficiency * fmax(anomaly, 0);
  return 100 * e->efficiency * e->ovh_ratio[which - 2];
}

static double overhead_ratio(const stu_point_t *point, int which)
{
  return stu_eppa(point)->ovh_ratio[which];
}

static const char *const anomaly_colour = "#9c6ade";

/* The sum of the overhead ratios over each bar of the second panel, which small p would leave unreadable. */
static void annotate_sums(rep_svg_t *svg, const rep_plot_t *plot, const rep_series_t *g)
{
  for (size_t i = 0; i < g->count; i++) {
    char text[32];
    double sum = 0;
    for (int j = 0; j < MET_OVH_COUNT; j++)
      sum += stu_eppa(g->points[i])->ovh_ratio[j];
    snprintf(text, sizeof text, "%.3g", sum);
    rep_svg_text(svg, rep_plot_x(plot, (double)i), rep_plot_y(plot, fmax(sum, 0)) - 4, 11, REP_MIDDLE, text);
  }
}

/* Speedup and efficiency over each bar of the first panel; the sum of the overhead ratios over those of the second. */
static void annotate_overall(rep_svg_t *svg, size_t panel, const rep_plot_t *plot, const void *arg)
{
  const rep_series_t *g = arg;
  if (panel != 0) {
    annotate_sums(svg, plot, g);
    return;
  }
  rep_svg_text(svg, plot->left - 8, plot->top - REP_CHART_NOTE_ROW - 6, 11, REP_END, "speedup");
  rep_svg_text(svg, plot->left - 8, plot->top - 6, 11, REP_END, "efficiency");
  for (size_t i = 0; i < g->count; i++) {
    char text[32];
    double x = rep_plot_x(plot, (double)i);
    snprintf(text, sizeof text, "%.3g", stu_eppa(g->points[i])->speedup);
    rep_svg_text(svg, x, plot->top - REP_CHART_NOTE_ROW - 6, 11, REP_MIDDLE, text);
    snprintf(text, sizeof text, "%.3g%%", 100 * stu_eppa(g->points[i])->efficiency);
    rep_svg_text(svg, x, plot->top - 6, 11, REP_MIDDLE, text);
  }
}

/* Seed 000 Fig. 1.5 for every p of the group. */
int rep_overall_picture(rep_pictures_t *pics, const rep_series_t *g, const rep_labels_t *p_names)
{
  rep_stack_t shares[2 + MET_OVH_ANOMALY] = {
      {"useful work (its share is the efficiency)", rep_svg_category_colour(0), 0},
      {"parallel anomaly", anomaly_colour, 0},
      {"control of parallelism", rep_svg_category_colour(MET_CAT_CTRL), 0},
      {"communication", rep_svg_category_colour(MET_CAT_COMM), 0},
      {"idling", rep_svg_category_colour(MET_CAT_IDLE), 0}};
  rep_stack_t ratios[MET_OVH_COUNT] = {{"Ovh_ctrl", rep_svg_category_colour(MET_CAT_CTRL), 0},
                                       {"Ovh_comm", rep_svg_category_colour(MET_CAT_COMM), 0},
                                       {"Ovh_idle", rep_svg_category_colour(MET_CAT_IDLE), 0},
                                       {"Ovh_anomaly", anomaly_colour, 0}};
  double *a = stack_values(g, cycle_share, 2 + MET_OVH_ANOMALY, shares);
  double *b = stack_values(g, overhead_ratio, MET_OVH_COUNT, ratios);
  rep_bars_t panels[2] = {
      {"Where the processors' time p T_par goes", "p (processors)", "share of p T_par (%)", p_names->names, g->count,
       shares, 2 + MET_OVH_ANOMALY, 2 * REP_CHART_NOTE_ROW + 4, NULL, NULL},
      {"Overhead ratios Ovh_j = T_ovh^j / T_seq, stacked: speedup = p / (1 + their sum)", "p (processors)",
       "overhead ratio", p_names->names, g->count, ratios, MET_OVH_COUNT, 0, NULL, NULL}};
  char title[300], subtitle[300];
  rep_picture_title(title, sizeof title, "Overall performance", pics->study, g);
  rep_picture_subtitle(subtitle, sizeof subtitle, pics->study, "; seed 000 Fig. 1.5 for each p");
  rep_file_t *file = a && b ? rep_picture_open(pics, "overall", g->file) : NULL;
  int rc =
      file ? rep_picture_close(pics, file,
                               rep_bar_picture(rep_file_stream(file), title, subtitle, panels, 2, annotate_overall, g))
           : -1;
  free(a);
  free(b);
  return rc;
}

/* A chart of curves get(point, 0 .. n-1) against p, one per name; no fits. */
static int group_curves(rep_pictures_t *pics, const rep_series_t *g, const char *view, const rep_chart_t *chart,
                        rep_point_value_fn get, const char *const *names, int n)
{
  rep_curve_t curves[MET_COMP_COUNT];
  double *y = calloc((size_t)n * g->count, sizeof *y);
  if (!y)
    return -1;
  for (int c = 0; c < n; c++) {
    rep_series_values(g, get, c, y + (size_t)c * g->count);
    curves[c] = (rep_curve_t){.label = names[c], .x = g->x, .y = y + (size_t)c * g->count, .n = g->count};
  }
  rep_file_t *file = rep_picture_open(pics, view, g->file);
  int rc = file ? rep_picture_close(pics, file, rep_line_chart(rep_file_stream(file), chart, curves, (size_t)n)) : -1;
  free(y);
  return rc;
}

/* Bars of shares (%) per p, get(point, 0 .. n-1), one stack per name, coloured by `colours`. */
static int group_shares(rep_pictures_t *pics, const rep_series_t *g, const rep_labels_t *p_names, const char *view,
                        const char *title, const char *subtitle, rep_point_value_fn get, const char *const *names,
                        const char *const *colours, int n)
{
  rep_stack_t stacks[REP_CHART_STACKS];
  for (int s = 0; s < n; s++)
    stacks[s] = (rep_stack_t){names[s], colours[s], NULL};
  double *block = stack_values(g, get, n, stacks);
  rep_bars_t panel = {
      NULL, "p (processors)", "share of the components' sum (%)", p_names->names, g->count, stacks, (size_t)n, 0, NULL,
      NULL};
  rep_file_t *file = block ? rep_picture_open(pics, view, g->file) : NULL;
  int rc = file ? rep_picture_close(pics, file,
                                    rep_bar_picture(rep_file_stream(file), title, subtitle, &panel, 1, NULL, NULL))
                : -1;
  free(block);
  return rc;
}

static const char *const component_labels[MET_COMP_COUNT] = {"processing (CPU, FPU)", "memory (internal, external)",
                                                             "communication", "I/O"};
static const char *const sub_labels[MET_SUB_COUNT] = {
    "CPU",          "FPU",       "internal memory", "external memory",     "link initialisation",
    "distribution", "broadcast", "collection",      "other communication", "input",
    "output"};
/* Sub-components in their component's hue: processing blue, memory green, communication red to orange, I/O purple. */
static const char *const sub_colours[MET_SUB_COUNT] = {"#1f4e79", "#6baed6", "#1b7837", "#7fbf7b", "#ffd92f", "#fc8d62",
                                                       "#d7301f", "#7f0000", "#fdbb84", "#762a83", "#c2a5cf"};

/* Seed 001 Figs 5-9 for the group: component times, their shares, B-ratios, the two ratios, sub-component shares. */
int rep_bottleneck_pictures(rep_pictures_t *pics, const rep_series_t *g, const rep_labels_t *p_names)
{
  static const char *const ratio_labels[] = {"communication / computation", "memory / processing"};
  const char *comp_colours[MET_COMP_COUNT];
  for (int c = 0; c < MET_COMP_COUNT; c++)
    comp_colours[c] = rep_svg_series_colour((size_t)c);
  char title[5][300], sub[5][300];
  static const char *const heads[5] = {"Components of the run time", "B-ratios", "Bottleneck ratios",
                                       "Components' shares", "Sub-components' shares"};
  static const char *const notes[5] = {
      "; seed 001 Fig. 5: each the time of the rank that spends the most on it",
      "; seed 001 Fig. 7: a component / the sum of the others; above 1 (dashed), a bottleneck",
      "; seed 001 Fig. 8: above 1 (dashed), communication is a bottleneck", "; seed 001 Fig. 6",
      "; seed 001 Fig. 9 (Table 5's rows)"};
  for (int i = 0; i < 5; i++) {
    rep_picture_title(title[i], sizeof title[i], heads[i], pics->study, g);
    rep_picture_subtitle(sub[i], sizeof sub[i], pics->study, notes[i]);
  }
  rep_chart_t times = {title[0], sub[0], "p (processors)", "time (s)", "p", 0, 20};
  rep_chart_t bratios = {title[1], sub[1], "p (processors)", "B-ratio", "p", 1, 1000};
  rep_chart_t ratios = {title[2], sub[2], "p (processors)", "ratio", "p", 1, 1000};
  int rc = group_curves(pics, g, "components", &times, component_time, component_labels, MET_COMP_COUNT);
  rc = rc ? rc : group_curves(pics, g, "bratios", &bratios, b_ratio, component_labels, MET_COMP_COUNT);
  rc = rc ? rc : group_curves(pics, g, "ratios", &ratios, bottleneck_ratio, ratio_labels, 2);
  rc = rc ? rc
          : group_shares(pics, g, p_names, "component-shares", title[3], sub[3], component_share, component_labels,
                         comp_colours, MET_COMP_COUNT);
  return rc ? rc
            : group_shares(pics, g, p_names, "subcomponents", title[4], sub[4], sub_share, sub_labels, sub_colours,
                           MET_SUB_COUNT);
}

/* ---------- per point: a bar per rank (Fig. 1.6, wait states) ---------- */

/* A bar per rank of `point`, `stacks` stacked (their values one per rank), as <scenario>-<view>[-<group>].svg, titled
 * `what` with `note` after the subtitle. */
static int rank_picture(rep_pictures_t *pics, const stu_point_t *point, const rep_series_t *g, const char *view,
                        const char *what, const char *note, const char *y_label, const rep_stack_t *stacks,
                        size_t nstacks)
{
  size_t p = (size_t)point->p;
  double *ranks = calloc(p, sizeof *ranks);
  rep_labels_t names = {0};
  int rc = ranks ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < p; i++)
    ranks[i] = (double)i;
  rc = rc ? rc : rep_labels_new(&names, ranks, p);
  rep_bars_t panel = {NULL, "rank", y_label, names.names, p, stacks, nstacks, 0, NULL, NULL};
  char title[300], subtitle[300];
  rep_picture_title(title, sizeof title, what, pics->study, g);
  rep_append(title, sizeof title, ", p = %d", point->p);
  rep_picture_subtitle(subtitle, sizeof subtitle, pics->study, note);
  rep_file_t *file = rc == 0 ? rep_picture_open(pics, view, g->file) : NULL;
  rc = file ? rep_picture_close(pics, file,
                                rep_bar_picture(rep_file_stream(file), title, subtitle, &panel, 1, NULL, NULL))
            : -1;
  rep_labels_free(&names);
  free(ranks);
  return rc;
}

/* Seed 000 Fig. 1.6: a bar per rank, its overhead ratios stacked. */
int rep_processes_picture(rep_pictures_t *pics, const stu_point_t *point, const rep_series_t *g)
{
  size_t p = (size_t)point->p;
  double *block = calloc(MET_OVH_COUNT * p, sizeof *block);
  if (!block)
    return BAS_ENOMEM;
  for (size_t i = 0; i < p; i++)
    for (int j = 0; j < MET_OVH_COUNT; j++)
      block[(size_t)j * p + i] = stu_procs(point)[i].ovh_ratio[j];
  rep_stack_t stacks[MET_OVH_COUNT] = {{"control of parallelism", rep_svg_category_colour(MET_CAT_CTRL), block},
                                       {"communication", rep_svg_category_colour(MET_CAT_COMM), block + p},
                                       {"idling", rep_svg_category_colour(MET_CAT_IDLE), block + 2 * p},
                                       {"anomaly_i = work_i - T_seq / p", anomaly_colour, block + 3 * p}};
  int rc = rank_picture(pics, point, g, "processes", "Overhead ratios per process",
                        "; seed 000 Fig. 1.6: the ranks' ratios add up to the overall ones",
                        "overhead ratio T_ovh^{i,j} / T_seq", stacks, MET_OVH_COUNT);
  free(block);
  return rc;
}

/* Wait states (docs/wait-states.md): a bar per rank, the seconds it lost stacked by Scalasca pattern. */
int rep_wait_states_picture(rep_pictures_t *pics, const stu_point_t *point, const rep_series_t *g, const met_waits_t *w)
{
  size_t p = (size_t)w->nranks;
  double *block = calloc(MET_WAIT_PATTERNS * p, sizeof *block);
  if (!block)
    return BAS_ENOMEM;
  rep_stack_t stacks[MET_WAIT_PATTERNS];
  for (int k = 0; k < MET_WAIT_PATTERNS; k++) {
    for (size_t i = 0; i < p; i++)
      block[(size_t)k * p + i] = met_wait_time(w, (int)i, (met_wait_pattern_t)k);
    stacks[k] =
        (rep_stack_t){met_wait_title((met_wait_pattern_t)k), rep_wait_colour((met_wait_pattern_t)k), block + k * p};
  }
  int rc = rank_picture(pics, point, g, "wait-states", "Wait states per process", "; Scalasca's patterns",
                        "time lost (s)", stacks, MET_WAIT_PATTERNS);
  free(block);
  return rc;
}
