/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The message table behind sim_error.h, and the sink of the libraries' lines for the user. */
#include "sim_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *sim_strerror(int code)
{
  switch (code) {
  case 0:
    return "success";
#define SIM_ERRNO_CASE(name, value, text)                                                                              \
  case name:                                                                                                           \
    return text;
    SIM_ERRNO_MAP(SIM_ERRNO_CASE)
#undef SIM_ERRNO_CASE
  default:
    return "unknown error";
  }
}

int sim_error_is_input(int code)
{
  /* a deadlock is a program whose sends and receives do not match: a trace's, or a skeleton's parameters' */
  return code == SIM_EINVAL || code == SIM_EPLATFORM || code == SIM_EHOSTS || code == SIM_EPARAM ||
         code == SIM_EDEADLOCK;
}

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
