/* The study's output files (--csv, --json, --paje, --otf2, --svg), each written whole or not at all (rep_file), with
 * the one "simrun: error: ..." line on failure. Each function returns an exit status: 0, 1 (runtime) or 2 (input). */
#ifndef CLI_RESULTS_H
#define CLI_RESULTS_H

#include "rep_report.h"
#include "stu_study.h"

/* Opens one output file (none, *file untouched, when path is NULL); a folder, a device or an empty path is refused
 * with 2, before any simulation. The caller commits or aborts *file. */
int cli_open_output(const char *path, rep_file_t **file);

/* Writes and commits the CSV (then its extra tables beside `csv`) and the JSON; aborts both on any failure. Takes
 * ownership of both files (either may be NULL). */
int cli_write_outputs(const stu_study_t *study, const char *csv, rep_file_t *csv_file, rep_file_t *json_file);

/* Writes and commits the Paje trace (nothing when file is NULL); takes ownership of file. */
int cli_write_paje(const stu_study_t *study, rep_file_t *file);

/* Writes the OTF2 archives into `dir` (nothing when NULL). */
int cli_write_otf2(const stu_study_t *study, const char *dir);

/* Draws the pictures into `dir` (nothing when NULL), listing the fits on stdout. */
int cli_write_pictures(const stu_study_t *study, const char *dir);

#endif
