/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The main table's declaration (rep_points.h): each column once, with where its figure comes from. A column added
 * here is in the terminal table, the CSV, the JSON and the HTML page as its `in` says, and docs/results.md must name
 * it (tests/test_rep_schema.c). */
#include "rep_points.h"
#include "rep_report.h"
#include "stu_cause_effect.h"
#include "stu_lost_cycles.h"
#include "stu_model.h"
#include "stu_replay.h"
#include "stu_scaled.h"

#include <math.h>

static int lost(const stu_study_t *study, unsigned in)
{
  (void)in;
  return stu_has_view(study, MET_VIEW_LOST_CYCLES);
}

/* The lost-cycle figures of every skeleton's core columns: in the CSV for every study (empty without the view, so
 * that every main table starts alike), elsewhere with the view. */
static int core(const stu_study_t *study, unsigned in)
{
  return in == REP_IN_CSV || lost(study, in);
}

static int cause_effect(const stu_study_t *study, unsigned in)
{
  (void)in;
  return stu_has_view(study, MET_VIEW_CAUSE_EFFECT);
}

static int scaled(const stu_study_t *study, unsigned in)
{
  (void)in;
  return study->facts.scaled;
}

static int breakdown(const stu_study_t *study, unsigned in)
{
  return lost(study, in) && !study->facts.no_breakdown;
}

static int grid(const stu_study_t *study, unsigned in)
{
  return lost(study, in) && study->facts.grid;
}

/* The model's columns and the skeleton's warning: in files for skeletons that have a model or give advice, on screens
 * for those that have a model. */
static int model(const stu_study_t *study, unsigned in)
{
  return in & REP_IN_FILES ? lost(study, in) && (study->facts.has_model || study->facts.has_advice)
                           : rep_has_model(study);
}

static int replay(const stu_study_t *study, unsigned in)
{
  return lost(study, in) && stu_has_replay(study);
}

/* A figure that is a number where it is defined: a ratio over 0, a view the study lacks are no number. */
static rep_cell_t figure(double x)
{
  return rep_cell_num(isfinite(x) ? x : NAN);
}

/* A lost-cycle figure: empty where the study has no lost-cycle view (a benchmark's, a DSM study's). */
static rep_cell_t eppa_figure(const rep_at_t *at, double x)
{
  return figure(lost(at->study, 0) ? x : NAN);
}

static rep_cell_t processes(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(at->point->p);
}

static rep_cell_t t_par(const rep_at_t *at, int i)
{
  (void)i;
  return figure(at->point->t_par);
}

static rep_cell_t t_seq(const rep_at_t *at, int i)
{
  (void)i;
  return eppa_figure(at, stu_eppa(at->point)->t_seq);
}

static rep_cell_t speedup(const rep_at_t *at, int i)
{
  (void)i;
  return eppa_figure(at, stu_eppa(at->point)->speedup);
}

static rep_cell_t efficiency(const rep_at_t *at, int i)
{
  (void)i;
  return eppa_figure(at, stu_eppa(at->point)->efficiency);
}

static rep_cell_t ovh_ratio(const rep_at_t *at, int j)
{
  return eppa_figure(at, stu_eppa(at->point)->ovh_ratio[j]);
}

static rep_cell_t ovh_sum(const rep_at_t *at, int i)
{
  (void)i;
  double sum = 0;
  for (int j = 0; j < MET_OVH_COUNT; j++)
    sum += stu_eppa(at->point)->ovh_ratio[j];
  return eppa_figure(at, sum);
}

static rep_cell_t messages(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num((double)at->point->messages);
}

static rep_cell_t fixed_size(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(at->point->fixed_size != 0);
}

/* A zip point's fixed-size twin's figure (stu_scaled.h): speedup (i = 0) or efficiency (1). */
static rep_cell_t fixed_figure(const rep_at_t *at, int i)
{
  stu_scaled_t s = {.fixed_speedup = NAN, .fixed_efficiency = NAN};
  stu_scaled_of(at->study, at->point, &s);
  return figure(i ? s.fixed_efficiency : s.fixed_speedup);
}

static rep_cell_t fixed_speedup(const rep_at_t *at, int i)
{
  (void)i;
  return fixed_figure(at, 0);
}

static rep_cell_t fixed_efficiency(const rep_at_t *at, int i)
{
  (void)i;
  return fixed_figure(at, 1);
}

/* A DSM category summed over the nodes; the controllers' are none without controllers. */
static rep_cell_t ce_time(const rep_at_t *at, int cat)
{
  const met_carnival_t *c = stu_carnival(at->point);
  return figure(cat < MET_CE_CPCOMP || met_carnival_has_cp(c) ? met_carnival_time(c, -1, -1, cat, -1) : NAN);
}

static rep_cell_t overhead(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(stu_eppa(at->point)->overhead);
}

static rep_cell_t granularity(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(stu_eppa(at->point)->granularity); /* infinite without communication: "inf" */
}

/* The components and sub-components in the order of seed 001 Table 5, which the bottleneck view's table keeps. */
static const met_component_t table5_components[MET_COMP_COUNT] = {MET_COMP_PROCESSING, MET_COMP_MEMORY, MET_COMP_IO,
                                                                  MET_COMP_COMMUNICATION};
static const met_sub_t table5_subs[MET_SUB_COUNT] = {
    MET_SUB_FPU,       MET_SUB_CPU,          MET_SUB_EXTMEM,    MET_SUB_INTMEM,     MET_SUB_INPUT,     MET_SUB_OUTPUT,
    MET_SUB_LINK_INIT, MET_SUB_DISTRIBUTION, MET_SUB_BROADCAST, MET_SUB_COLLECTION, MET_SUB_OTHER_COMM};

static rep_cell_t component(const rep_at_t *at, int c)
{
  return rep_cell_num(stu_breakdown(at->point)->component[table5_components[c]]);
}

static rep_cell_t sub(const rep_at_t *at, int s)
{
  return rep_cell_num(stu_breakdown(at->point)->sub[table5_subs[s]]);
}

static rep_cell_t b_ratio(const rep_at_t *at, int c)
{
  return figure(stu_breakdown(at->point)->b_ratio[c]);
}

static rep_cell_t idle(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(stu_breakdown(at->point)->idle);
}

static rep_cell_t comm_comp(const rep_at_t *at, int i)
{
  (void)i;
  return figure(stu_breakdown(at->point)->comm_comp_ratio);
}

static rep_cell_t mem_proc(const rep_at_t *at, int i)
{
  (void)i;
  return figure(stu_breakdown(at->point)->mem_proc_ratio);
}

static rep_cell_t utilisation(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(stu_breakdown(at->point)->utilisation);
}

/* The point's bottleneck as the lost-cycle view's verdict has it: the dominant component (i = 0), whether it is a
 * bottleneck (1), its cause (2); none without a verdict. */
static rep_cell_t verdict(const rep_at_t *at, int i)
{
  const stu_bottleneck_t *v = stu_bottleneck(at->study, at->point);
  if (!v)
    return i == 1 ? rep_cell_num(NAN) : rep_cell_text("");
  if (i == 1)
    return rep_cell_num(v->is_bottleneck);
  return rep_cell_text(i == 0 ? met_component_name(v->dominant) : met_sub_name(v->cause));
}

static rep_cell_t dominant(const rep_at_t *at, int i)
{
  (void)i;
  return verdict(at, 0);
}

static rep_cell_t is_bottleneck(const rep_at_t *at, int i)
{
  (void)i;
  return verdict(at, 1);
}

static rep_cell_t cause(const rep_at_t *at, int i)
{
  (void)i;
  return verdict(at, 2);
}

/* "4x8": the point's process grid, from the skeleton's grid rows. */
static rep_cell_t grid_label(const rep_at_t *at, int i)
{
  (void)i;
  rep_cell_t cell = {.num = NAN, .made = 1};
  rep_grid_label(at->point, cell.buf, sizeof cell.buf);
  return cell;
}

static rep_cell_t t_model(const rep_at_t *at, int i)
{
  (void)i;
  return figure(stu_model_time(at->point));
}

static rep_cell_t model_diff(const rep_at_t *at, int i)
{
  (void)i;
  return figure(stu_model_diff(at->point));
}

static rep_cell_t warning(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_text(stu_model_warning(at->point));
}

/* A measured run's replay (simrun analyse --replay-on): the predicted T_par (i = 0), the measured time it is compared
 * with (1), how far apart they are (2: stu_replay_diff), the least of the measured range (3), the least and the most a
 * quiet run may take by the CPU time of ranks that shared a core (4, 5), its computations' CPU seconds when traced and
 * their seconds replayed (6, 7); none where the point has no replay. */
static rep_cell_t replay_figure(const rep_at_t *at, int i)
{
  const stu_replay_t *r = stu_replay(at->point);
  if (!r)
    return rep_cell_num(NAN);
  const double figures[] = {r->predicted,       r->measured,       stu_replay_diff(r), r->least,
                            r->predicted_least, r->predicted_most, r->compute_cpu,     r->compute_replayed};
  return figure(figures[i]);
}

/* The replay's lines on the run: where it placed the ranks (i = 0), its messages between ranks on one host (1), the
 * ranks' flop rates against the hosts' speed (2: stu_replay.h); empty where the point has no replay. */
static rep_cell_t replay_text(const rep_at_t *at, int i)
{
  const stu_replay_t *r = stu_replay(at->point);
  if (!r)
    return rep_cell_text("");
  const char *const texts[] = {r->placement, r->same_host, r->speed};
  return rep_cell_text(texts[i]);
}

static rep_cell_t t_replay_least(const rep_at_t *at, int i)
{
  (void)i;
  return replay_figure(at, 4);
}

static rep_cell_t t_replay_most(const rep_at_t *at, int i)
{
  (void)i;
  return replay_figure(at, 5);
}

static rep_cell_t t_replay(const rep_at_t *at, int i)
{
  (void)i;
  return replay_figure(at, 0);
}

static rep_cell_t t_measured(const rep_at_t *at, int i)
{
  (void)i;
  return replay_figure(at, 1);
}

static rep_cell_t t_measured_least(const rep_at_t *at, int i)
{
  (void)i;
  return replay_figure(at, 3);
}

static rep_cell_t replay_diff(const rep_at_t *at, int i)
{
  (void)i;
  return replay_figure(at, 2);
}

static rep_cell_t measured_run(const rep_at_t *at, int i)
{
  (void)i;
  const stu_replay_t *r = stu_replay(at->point);
  return rep_cell_text(!r ? "" : r->untraced ? "untraced" : r->on_cpu ? "traced CPU" : "traced");
}

/* Whether others disturbed the run (NAN, an empty cell, where its files do not say), the share of their wall time its
 * ranks lost to them, and where its replay placed them (stu_replay.h). */
static rep_cell_t replay_disturbed(const rep_at_t *at, int i)
{
  (void)i;
  const stu_replay_t *r = stu_replay(at->point);
  return rep_cell_num(!r || isnan(r->lost_share) ? NAN : r->disturbed);
}

static rep_cell_t cpu_lost_share(const rep_at_t *at, int i)
{
  (void)i;
  const stu_replay_t *r = stu_replay(at->point);
  return rep_cell_num(r ? r->lost_share : NAN);
}

static rep_cell_t blocked(const rep_at_t *at, int i)
{
  (void)i;
  const stu_replay_t *r = stu_replay(at->point);
  return rep_cell_num(r ? r->blocked : NAN);
}

static rep_cell_t placement(const rep_at_t *at, int i)
{
  (void)i;
  return replay_text(at, 0);
}

static rep_cell_t same_host(const rep_at_t *at, int i)
{
  (void)i;
  return replay_text(at, 1);
}

static rep_cell_t compute_cpu(const rep_at_t *at, int i)
{
  (void)i;
  return replay_figure(at, 6);
}

static rep_cell_t compute_replayed(const rep_at_t *at, int i)
{
  (void)i;
  return replay_figure(at, 7);
}

static rep_cell_t speed(const rep_at_t *at, int i)
{
  (void)i;
  return replay_text(at, 2);
}

static const char *ovh_label(int j)
{
  return met_overhead_name((met_overhead_t)j);
}

static const char *ce_label(int cat)
{
  return met_ce_cat_name((met_ce_cat_t)cat);
}

static const char *component_label(int c)
{
  return met_component_name((met_component_t)c);
}

static const char *table5_component_label(int c)
{
  return met_component_name(table5_components[c]);
}

static const char *sub_label(int s)
{
  return met_sub_name(table5_subs[s]);
}

enum { T = REP_IN_TERM, F = REP_IN_FILES, H = REP_IN_HTML, ALL = REP_IN_ALL, B = REP_IN_BOTTLENECK };

/* csv, json, head, unit, meaning, format, key, in, each, label, has, get */
static const rep_column_t columns[] = {
    {NULL, NULL, "p", "", "number of processes (a key column of every table)", REP_FMT_INT, 1, T, 0, NULL, NULL,
     processes},
    {"t_par_s", "t_par_s", "T_par", "s", "simulated run time T_par", REP_FMT_TIME, 0, ALL | B, 0, NULL, NULL, t_par},
    {"t_seq_s", "t_seq_s", "T_seq", "s", "the sequential time T_seq", REP_FMT_TIME, 0, F, 0, NULL, core, t_seq},
    {"speedup", "speedup", "speedup", "", "T_seq / T_par", REP_FMT_FIXED3, 0, ALL, 0, NULL, core, speedup},
    {"efficiency", "efficiency", "efficiency", "", "speedup / p", REP_FMT_PERCENT, 0, ALL, 0, NULL, core, efficiency},
    {"ovh_%s", "overhead_ratios.%s", "%s", "", "overhead ratio T_ovh^j / T_seq of a lost-cycle class", REP_FMT_RATIO, 0,
     ALL, MET_OVH_COUNT, ovh_label, core, ovh_ratio},
    {NULL, NULL, "sum", "", "the overhead ratios' sum", REP_FMT_RATIO, 0, T, 0, NULL, lost, ovh_sum},
    {"messages", "messages", "messages", "", "point-to-point messages", REP_FMT_INT, 0, F | H, 0, NULL, NULL, messages},
    {"fixed_size", "fixed_size", "fixed size", "", "a fixed-size point of a scaled sweep", REP_FMT_FLAG, 0, F | H, 0,
     NULL, scaled, fixed_size},
    {"fixed_speedup", "fixed_speedup", "fixed speedup", "", "the fixed-size twin's speedup", REP_FMT_FIXED3, 0, F | H,
     0, NULL, scaled, fixed_speedup},
    {"fixed_efficiency", "fixed_efficiency", "fixed efficiency", "", "the fixed-size twin's efficiency",
     REP_FMT_PERCENT, 0, F | H, 0, NULL, scaled, fixed_efficiency},
    {"%s_s", "%s_s", "%s", "s", "a DSM time category summed over the nodes", REP_FMT_TIME, 0, F | H, MET_CE_COUNT,
     ce_label, cause_effect, ce_time},
    {"overhead_s", "overhead_s", "overhead", "s", "p T_par - T_seq", REP_FMT_TIME, 0, F | H, 0, NULL, lost, overhead},
    {"granularity", "granularity", "granularity", "", "1 / Ovh_comm", REP_FMT_FIXED3, 0, ALL, 0, NULL, lost,
     granularity},
    /* the bottleneck view (seed 001 §3.5): in the files' main table, and with B its own table on screens */
    {"%s_s", "bottleneck.components.%s", "%s", "s", "a component of seed 001 Table 5, the busiest process's",
     REP_FMT_TIME, 0, F | B, MET_COMP_COUNT, table5_component_label, breakdown, component},
    {"%s_s", "bottleneck.subcomponents.%s", "%s", "s", "a sub-component", REP_FMT_TIME, 0, F | B, MET_SUB_COUNT,
     sub_label, breakdown, sub},
    {"idle_s", "bottleneck.idle_s", "idle", "s", "the busiest process's time in no component", REP_FMT_TIME, 0, F | B,
     0, NULL, breakdown, idle},
    {"b_%s", "bottleneck.b_ratios.%s", "B-ratio %s", "", "a B-ratio", REP_FMT_RATIO, 0, F | B, MET_COMP_COUNT,
     component_label, breakdown, b_ratio},
    {"comm_comp_ratio", "bottleneck.comm_comp_ratio", "communication/computation", "",
     "communication / (processing + memory)", REP_FMT_RATIO, 0, F | B, 0, NULL, breakdown, comm_comp},
    {"mem_proc_ratio", "bottleneck.mem_proc_ratio", "memory/processing", "", "memory / processing", REP_FMT_RATIO, 0,
     F | B, 0, NULL, breakdown, mem_proc},
    {"utilisation", "bottleneck.utilisation", "utilisation U_p", "", "U_p", REP_FMT_RATIO, 0, F | B, 0, NULL, breakdown,
     utilisation},
    {"dominant", "bottleneck.dominant", "dominant", "", "the component of largest B-ratio", REP_FMT_TEXT, 0, F, 0, NULL,
     breakdown, dominant},
    {"bottleneck", "bottleneck.bottleneck", "bottleneck", "", "whether it is a bottleneck", REP_FMT_BOOL, 0, F, 0, NULL,
     breakdown, is_bottleneck},
    {"cause", "bottleneck.cause", "cause", "", "its largest sub-component", REP_FMT_TEXT, 0, F, 0, NULL, breakdown,
     cause},
    {NULL, NULL, "grid", "", "the process grid", REP_FMT_TEXT, 0, T, 0, NULL, grid, grid_label},
    {"t_model_s", "t_model_s", "model", "s", "the analytic model's T_par", REP_FMT_TIME, 0, ALL, 0, NULL, model,
     t_model},
    {"model_diff", "model_diff", "diff", "", "(T_model - T_par) / T_par", REP_FMT_DIFF, 0, ALL, 0, NULL, model,
     model_diff},
    {"warning", "warning", "warning", "", "the skeleton's advice", REP_FMT_TEXT, 0, F, 0, NULL, model, warning},
    {"t_replay_s", "t_replay_s", "T_replay", "s", "the replayed trace's T_par", REP_FMT_TIME, 0, F | H, 0, NULL, replay,
     t_replay},
    {"t_replay_least_s", "t_replay_least_s", "T_replay least", "s",
     "where ranks shared a core, the least a quiet run may take by their polling and computations' spread",
     REP_FMT_TIME, 0, F | H, 0, NULL, replay, t_replay_least},
    {"t_replay_most_s", "t_replay_most_s", "T_replay most", "s",
     "where ranks shared a core, the most a quiet run may take by the CPU time they spent in MPI calls", REP_FMT_TIME,
     0, F | H, 0, NULL, replay, t_replay_most},
    {"t_measured_s", "t_measured_s", "T_measured", "s", "the measured time", REP_FMT_TIME, 0, F | H, 0, NULL, replay,
     t_measured},
    {"t_measured_least_s", "t_measured_least_s", "T_measured least", "s",
     "the least of the measured range (t_measured_s but for a disturbed run)", REP_FMT_TIME, 0, F | H, 0, NULL, replay,
     t_measured_least},
    {"measured_run", "measured_run", "measured run", "", "untraced, traced or traced CPU", REP_FMT_TEXT, 0, F | H, 0,
     NULL, replay, measured_run},
    {"replay_diff", "replay_diff", "replay diff", "", "t_replay_s from the measured range, relative", REP_FMT_DIFF, 0,
     F | H, 0, NULL, replay, replay_diff},
    {"disturbed", "disturbed", "disturbed", "",
     "whether others disturbed the traced run (t_measured_s is then its CPU time: docs/analyse.md)", REP_FMT_BOOL, 0,
     F | H, 0, NULL, replay, replay_disturbed},
    {"cpu_lost_share", "cpu_lost_share", "CPU lost", "", "the share of their wall time the ranks lost to others",
     REP_FMT_PERCENT, 0, F | H, 0, NULL, replay, cpu_lost_share},
    {"blocked_s", "blocked_s", "blocked", "s",
     "the seconds the ranks' computations were blocked (sleeps, reads, waits outside MPI), which the replay leaves out",
     REP_FMT_TIME, 0, F | H, 0, NULL, replay, blocked},
    {"placement", "placement", "placement", "", "where the replay placed the ranks, and why", REP_FMT_TEXT, 0, F, 0,
     NULL, replay, placement},
    {"same_host", "same_host", "same host", "",
     "messages between ranks on one host that the replay priced over its links (a <cluster> without loopback_bw)",
     REP_FMT_TEXT, 0, F, 0, NULL, replay, same_host},
    {"compute_cpu_s", "compute_cpu_s", "computation CPU", "s",
     "the CPU seconds of the traced run's computations, which its TI amounts hold at the tracer's flop rates",
     REP_FMT_TIME, 0, F | H, 0, NULL, replay, compute_cpu},
    {"compute_replay_s", "compute_replay_s", "computation replayed", "s",
     "the seconds rank 0's host of the replay's platform takes for them (its T_seq)", REP_FMT_TIME, 0, F | H, 0, NULL,
     replay, compute_replayed},
    {"speed", "speed", "speed", "",
     "where a rank's flop rate is over 5% from that host's speed: why, and how to replay the CPU time measured",
     REP_FMT_TEXT, 0, F, 0, NULL, replay, speed},
};

/* The replay's times and the measured ones they are compared with read in one unit: "T_replay (us) 562" beside
 * "T_replay most (ms) 1.84" asked the reader to convert; so do the computations' two. */
static const char *const replay_times[] = {"t_replay_s",         "t_replay_least_s", "t_replay_most_s",  "t_measured_s",
                                           "t_measured_least_s", "compute_cpu_s",    "compute_replay_s", NULL};

const rep_schema_t rep_points_schema = {"points", columns, sizeof columns / sizeof columns[0], replay_times};
