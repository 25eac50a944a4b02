/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --width and --full of the terminal report (cli_layout.h). */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "cli_layout.h"

#include "rep_pictures.h"

#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

void cli_layout_usage(FILE *out)
{
  fprintf(out, "  --width N           lay the report out in N columns (40 to 1000; default: $COLUMNS, else the\n"
               "                      terminal's width, else 80): wide tables split into groups of columns\n"
               "  --full              after the summary and the lost-cycle tables, every table, fit and note\n");
}

int cli_layout_width(const char *text, int *width, char *err, size_t errlen)
{
  char *end = NULL;
  long value = strtol(text, &end, 10);
  if (*text < '0' || *text > '9' || *end != '\0' || value < REP_WIDTH_MIN || value > REP_WIDTH_MAX) {
    snprintf(err, errlen, "--width takes a number of columns from %d to %d, not '%s'", REP_WIDTH_MIN, REP_WIDTH_MAX,
             text);
    return -1;
  }
  *width = (int)value;
  return 0;
}

/* The columns of the terminal `out` writes to, or 0 when it is none. */
static int terminal_width(FILE *out)
{
  struct winsize size;
  int fd = fileno(out);
  if (fd < 0 || !isatty(fd) || ioctl(fd, TIOCGWINSZ, &size) != 0)
    return 0;
  return size.ws_col;
}

rep_print_options_t cli_layout_options(FILE *out, int width, int full)
{
  return (rep_print_options_t){.width = rep_width_pick(width, getenv("COLUMNS"), terminal_width(out)), .full = full};
}

int cli_layout_fits(FILE *out, const stu_study_t *study, int width)
{
  char *text = NULL;
  size_t len = 0;
  FILE *buf = open_memstream(&text, &len);
  if (!buf)
    return -1;
  int rc = rep_print_fits(buf, study);
  fclose(buf);
  rep_fit_lines(out, text, width);
  free(text);
  return rc;
}
