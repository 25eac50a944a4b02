/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The sink of the libraries' lines for the user (sim_error.h). */
#include "sim_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static sim_message_fn message_sink;
static void *message_ctx;

void sim_set_message_sink(sim_message_fn sink, void *ctx)
{
  message_sink = sink;
  message_ctx = ctx;
}

void sim_message(const char *line)
{
  if (message_sink)
    message_sink(line, message_ctx);
}

/* The simrun warnings handed on so far (sim_message_once), WARNINGS_KEPT at most. */
enum { WARNINGS_KEPT = 64 };
static char *handed[WARNINGS_KEPT];
static int nhanded;

void sim_message_once(const char *line)
{
  static const char warning[] = "simrun: warning: ";
  if (strncmp(line, warning, sizeof warning - 1) == 0) {
    for (int i = 0; i < nhanded; i++)
      if (strcmp(handed[i], line) == 0)
        return;
    if (nhanded < WARNINGS_KEPT && (handed[nhanded] = strdup(line)) != NULL)
      nhanded++;
  }
  sim_message(line);
}

void sim_warn(const char *format, ...)
{
  char line[2048] = "simrun: warning: ";
  size_t head = strlen(line);
  va_list ap;
  va_start(ap, format);
  vsnprintf(line + head, sizeof line - head - 1, format, ap); /* room kept for the newline */
  va_end(ap);
  strcat(line, "\n");
  sim_message(line);
}
