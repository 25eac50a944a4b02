/* Writes the study's output files after the sweep (CSV, JSON, Paje, OTF2, SVG) through rep_file, so that a failure
 * leaves nothing half-written; split from main.c, which keeps the options and the order of the steps. */
#include "cli_results.h"

#include "rep_otf2.h"
#include "rep_paje.h"
#include "rep_pictures.h"

#include <stdio.h>
#include <sys/stat.h>

enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_INPUT = 2 };

/* Opens one output file (none when path is NULL). A folder is refused here: renaming onto it would fail only after
 * every point had been simulated. */
int cli_open_output(const char *path, rep_file_t **file)
{
  char message[1200];
  struct stat st;
  if (!path)
    return EXIT_OK;
  if (!*path)
    snprintf(message, sizeof message, "an output path is empty; give a file name");
  else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    snprintf(message, sizeof message, "cannot write '%s': it is a folder; give a file name", path);
  else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) /* renaming onto a device would replace it */
    snprintf(message, sizeof message, "cannot write '%s': not a regular file (a device, a FIFO); give a file name",
             path);
  else if ((*file = rep_file_open(path, message, sizeof message)))
    return EXIT_OK;
  fprintf(stderr, "simrun: error: %s\n", message);
  return EXIT_INPUT;
}

/* Writes and commits the outputs, then the CSV's extra tables beside it; aborts both on any failure. */
int cli_write_outputs(const stu_study_t *study, const char *csv, rep_file_t *csv_file, rep_file_t *json_file)
{
  char message[1200] = "";
  int failed = (csv_file && rep_csv(rep_file_stream(csv_file), study) != 0) ||
               (json_file && rep_json(rep_file_stream(json_file), study) != 0);
  if (failed) {
    rep_file_abort(csv_file);
    rep_file_abort(json_file);
    fprintf(stderr, "simrun: error: writing the results failed\n");
    return EXIT_RUNTIME;
  }
  int rc = csv_file ? rep_file_commit(csv_file, message, sizeof message) : 0;
  if (rc != 0)
    rep_file_abort(json_file); /* or its temporary file would stay behind */
  else if (json_file)
    rc = rep_file_commit(json_file, message, sizeof message);
  if (rc == 0 && csv_file)
    rc = rep_csv_tables(study, csv, message, sizeof message);
  if (rc != 0) {
    fprintf(stderr, "simrun: error: %s\n", message);
    return EXIT_RUNTIME;
  }
  return EXIT_OK;
}

/* Writes and commits the Paje trace (none when file is NULL); aborts it on failure. */
int cli_write_paje(const stu_study_t *study, rep_file_t *file)
{
  char message[1200] = "";
  if (!file)
    return EXIT_OK;
  if (rep_paje_study(rep_file_stream(file), study) != 0) {
    rep_file_abort(file);
    fprintf(stderr, "simrun: error: writing the Paje trace failed\n");
    return EXIT_RUNTIME;
  }
  if (rep_file_commit(file, message, sizeof message) != 0) {
    fprintf(stderr, "simrun: error: %s\n", message);
    return EXIT_RUNTIME;
  }
  return EXIT_OK;
}

/* Writes the OTF2 archives into `dir` (none when NULL). */
int cli_write_otf2(const stu_study_t *study, const char *dir)
{
  char message[1200] = "";
  if (!dir || (rep_pictures_folder(dir, message, sizeof message) == 0 &&
               rep_otf2_study(study, dir, message, sizeof message) == 0))
    return EXIT_OK;
  fprintf(stderr, "simrun: error: %s\n", message);
  return EXIT_RUNTIME;
}

/* Draws the pictures into `dir` (none when NULL), listing the fits on stdout. */
int cli_write_pictures(const stu_study_t *study, const char *dir)
{
  char message[1200] = "";
  if (!dir || (rep_pictures_folder(dir, message, sizeof message) == 0 &&
               rep_pictures(study, dir, stdout, message, sizeof message) == 0))
    return EXIT_OK;
  fprintf(stderr, "simrun: error: %s\n", message);
  return EXIT_RUNTIME;
}
