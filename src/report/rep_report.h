/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reports of a study: the terminal table (per point: time, speedup, efficiency, overhead ratios per class,
 * granularity; per process for one p), CSV and JSON with the same figures, and output files that appear whole or
 * not at all. */
#ifndef REP_REPORT_H
#define REP_REPORT_H

#include "rep_layout.h"
#include "rep_units.h"
#include "stu_study.h"

#include <stddef.h>
#include <stdio.h>

/* How the terminal report is laid out (docs/results.md "The terminal report"). */
typedef struct rep_print_options {
  int width; /* no line wider (rep_width_pick; at least REP_WIDTH_MIN) */
  int full;  /* 0: the summary, the lost-cycle tables and the verdicts; 1: also every other table, fit and note */
} rep_print_options_t;
/* The human-readable report, within options->width columns. */
void rep_print_with(FILE *out, const stu_study_t *study, const rep_print_options_t *options);
/* The full report at REP_WIDTH_MAX columns (the HTML page's). */
void rep_print(FILE *out, const stu_study_t *study);
/* Its study summary table, when points are compared at equal p: the best per p and why, by lost-cycle class
 * (rep_study.c). */
void rep_print_study(FILE *out, const stu_study_t *study, int width);
/* Its scaled-sweep part, for scaled sweeps only: scaled and fixed-size speedups per p (rep_scaled.c, stu_scaled.h). */
void rep_print_scaled(FILE *out, const stu_study_t *study);
/* Its bottleneck part, for lost-cycle studies: Table 5 layout, references, ratios, verdict (rep_bottleneck.c); with
 * `full` 0, the verdicts only. */
void rep_print_bottlenecks(FILE *out, const stu_study_t *study, int width, int full);

/* The skeleton's analytic model beside the simulation (rep_model.c), read from the model view (stu_model.h). */
/* Whether the study's skeleton has a model (lost-cycle studies only). */
int rep_has_model(const stu_study_t *study);
/* The model's summary as a table of one row, the study's (rep_at_t with no point): the model's name, the points with a
 * model time, the mean and largest |model_diff| and the p of the largest; in the JSON ("model_summary") and on the
 * page, where the terminal says it in a line (rep_print_models). */
extern const struct rep_schema rep_model_schema;
/* "4x8": the process grid of a point of a skeleton on a grid, from its grid rows. */
void rep_grid_label(const stu_point_t *point, char *label, size_t len);
/* After the tables: the model's summary, the best and worst grid per p, and the skeleton's warnings. */
void rep_print_models(FILE *out, const stu_study_t *study);
/* Which characterisation the runs used and where it came from, one line per distinct one (stu_model_machine). */
void rep_print_machines(FILE *out, const stu_study_t *study);

/* The process-grid study as heat maps (seed 003 Fig. 4; rep_heatmap.c): process rows down, columns across, one cell
 * per grid (the first point of each), coloured by the simulated time, the model's time and their difference. For
 * studies of skeletons with a process grid. Returns 0, or BAS_EINVAL when the study has no grid, BAS_EIO on a write
 * error, BAS_ENOMEM when out of memory. */
int rep_grid_heatmap(FILE *out, const stu_study_t *study);
/* Writes it to DIR/<scenario>-grids.svg, whole or not at all. Returns 0, or BAS_EIO with a message in err. */
int rep_grid_picture(const stu_study_t *study, const char *dir, char *err, size_t errlen);

/* One row per point, with a header: the key columns (scenario, platform, skeleton, parameters, p), the core ones
 * (t_par_s, t_seq_s, speedup, efficiency, the overhead ratios, messages), then the view's (docs/results.md). Returns 0
 * or BAS_EIO on a write error. */
int rep_csv(FILE *out, const stu_study_t *study);
/* The study's extra tables, each in a file named after the main CSV (rep_csv_table_path): "processes" (points with a
 * per-process view), "messages" (benchmarks), "waits" (DSM wait maps), "profiles" (DSM time by node, scope and
 * operation), "requests", "wait-states", "references" (the scenario's reference figures beside simrun's), each row
 * starting with the key columns, and "provenance" (one row: the scenario, versions, command line, scenario hash). Each
 * file appears whole or not at all. Returns 0, or -1 with a message in err. */
int rep_csv_tables(const stu_study_t *study, const char *csv_path, char *err, size_t errlen);
/* The name of the i-th extra table rep_csv_tables can write ("processes", ...), or NULL past the last: the names a CSV
 * output claims beside it (cli_output.h). */
const char *rep_csv_table_name(size_t i);
/* "DIR/out.csv" and "waits" give "DIR/out-waits.csv" (a path without ".csv" gets "-waits.csv" added). */
void rep_csv_table_path(const char *csv_path, const char *table, char *path, size_t len);
/* One object: scenario, platform, skeleton, provenance, and the points with their per-process views. 0 or BAS_EIO. */
int rep_json(FILE *out, const stu_study_t *study);

/* Where results come from, written in the CSV's provenance table and at the top of the JSON (docs/results.md), beside
 * the scenario file's hash, which the writers compute: simrun's and SimGrid's versions and the command line. The
 * strings are borrowed and must outlive the writes; NULL ones are written empty (null). Set once before writing. */
typedef struct rep_provenance {
  const char *simrun_version;
  const char *simgrid_version;
  const char *command;
} rep_provenance_t;
void rep_set_provenance(const rep_provenance_t *provenance);

/* An output file written to a temporary name beside `path` ("PATH.tmp.PID.XXXXXX") and renamed over it on commit, so
 * that a failure leaves no half-written file; "-" is standard output, written from an unnamed temporary file. */
typedef struct rep_file rep_file_t;

/* Creates the temporary file, first removing those of `path` that a killed simrun left (their process is gone). NULL
 * with a message in err when the folder is missing or not writable, or after rep_file_close_all. */
rep_file_t *rep_file_open(const char *path, char *err, size_t errlen);
FILE *rep_file_stream(rep_file_t *file);
/* Closes and renames; frees `file`. Returns 0, or -1 with a message (the temporary file is removed). */
int rep_file_commit(rep_file_t *file, char *err, size_t errlen);
/* Closes and removes the temporary file; frees `file`. Accepts NULL. */
void rep_file_abort(rep_file_t *file);

/* The output transaction: after rep_file_begin, rep_file_commit only closes a file (0, and the file is the
 * transaction's), and rep_file_end gives every such file its name, in the order they were opened, then runs the
 * deferred steps; so the outputs of a run appear together, after all of them are complete. rep_file_end returns 0, or
 * -1 with a message. rep_file_rollback removes every temporary file and undoes the deferred steps; the earlier outputs
 * stay as they were. All of them may be called from another thread than the writer's (a watchdog). */
void rep_file_begin(void);
int rep_file_end(char *err, size_t errlen);
void rep_file_rollback(void);
/* While on, rep_file_commit renames at once even inside a transaction: for files that are not outputs, such as the
 * HTML page's pictures, drawn into a temporary folder and read back. */
void rep_file_immediate(int on);
/* Rolls back and refuses every later rep_file_open and rep_file_defer: for a run that is being ended, from the signal
 * watchdog's thread, which then ends the process. The files' streams and records stay the writer's (it may be writing
 * to one): only their temporaries are removed, and a later rep_file_commit fails and frees its file. Returns 1 when
 * the last transaction had ended with every output written (and nothing was opened since), 0 otherwise, or BAS_EIO when
 * rep_file_end held the lock for 0.2 s (writing to a standard output nobody reads): then nothing was done. */
int rep_file_close_all(void);

/* A temporary folder that is being written outside the transaction (an OTF2 archive before its move is deferred, the
 * HTML page's pictures, a replay's files): rep_file_close_all removes it if the run is ended meanwhile. guard returns
 * 0, or BAS_ENOMEM when out of memory; unguard before removing or moving the folder. */
int rep_file_guard_tree(const char *path);
void rep_file_unguard_tree(const char *path);

/* Removes `path` and everything under it (never following a link); nothing when it does not exist. */
void rep_file_remove_tree(const char *path);

/* A step of the transaction other than a file (an OTF2 archive moved into place, a folder made): `commit` runs at
 * rep_file_end, or at once outside a transaction, `rollback` instead of it when the transaction is rolled back; either
 * is called once and owns `state`. Both run under the transaction's lock: they must not call rep_file functions.
 * Returns 0, or -1 with a message (the step failed at once). */
typedef int (*rep_defer_fn)(void *state, char *err, size_t errlen);
int rep_file_defer(rep_defer_fn commit, void (*rollback)(void *state), void *state, char *err, size_t errlen);

#endif
