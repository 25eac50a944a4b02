/* Reports of a study: the terminal table (per point: time, speedup, efficiency, overhead ratios per class,
 * granularity; per process for one p), CSV and JSON with the same figures, and output files that appear whole or
 * not at all. */
#ifndef REP_REPORT_H
#define REP_REPORT_H

#include "stu_sweep.h"

#include <stddef.h>
#include <stdio.h>

/* The human-readable report. */
void rep_print(FILE *out, const stu_study_t *study);
/* Its bottleneck part, for lost-cycle studies: Table 5 layout, references, ratios, verdict (rep_bottleneck.c). */
void rep_print_bottlenecks(FILE *out, const stu_study_t *study);

/* One row per point, with a header; the scenario and platform in every row. Returns 0 or -1 on a write error. */
int rep_csv(FILE *out, const stu_study_t *study);
/* One object: scenario, platform, skeleton, and the points with their per-process views. 0 or -1. */
int rep_json(FILE *out, const stu_study_t *study);

/* An output file written to a temporary name beside `path` and renamed over it on commit, so that a failure leaves
 * no half-written file. */
typedef struct rep_file rep_file_t;

/* Creates the temporary file. NULL with a message in err when the folder is missing or not writable. */
rep_file_t *rep_file_open(const char *path, char *err, size_t errlen);
FILE *rep_file_stream(rep_file_t *file);
/* Closes and renames; frees `file`. Returns 0, or -1 with a message (the temporary file is removed). */
int rep_file_commit(rep_file_t *file, char *err, size_t errlen);
/* Closes and removes the temporary file; frees `file`. Accepts NULL. */
void rep_file_abort(rep_file_t *file);

#endif
