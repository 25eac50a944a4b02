/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --html FILE: writes the page under a temporary name and renames it when complete (rep_file), so that a failure
 * leaves no half-written page. */
#include "cli_html.h"
#include "cli_exit.h"

#include "rep_html.h"
#include "rep_report.h"

#include <stdio.h>

int cli_html_write(const stu_study_t *study, const char *path)
{
  char message[1200] = "";
  if (!path)
    return 0;
  rep_file_t *file = rep_file_open(path, message, sizeof message);
  rep_file_immediate(1); /* the pictures the page inlines are drawn into a temporary folder and read back at once */
  int rc = file ? rep_html(rep_file_stream(file), study, message, sizeof message) : 0;
  rep_file_immediate(0);
  if (rc != 0) {
    rep_file_abort(file);
    file = NULL;
  }
  if (file && rep_file_commit(file, message, sizeof message) == 0)
    return 0;
  fprintf(stderr, "simrun: error: %s\n", message);
  return EXIT_RUNTIME;
}
