/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libFuzzer target: the time-independent trace reader of ti-replay (sim_ti.h). The input is taken as a trace's index
 * (or a one-file trace), each file it names is read line by line to its end, and it is read as an smpirun hostfile
 * too: any bytes must be read or refused with a message, never crash, hang or read without bound. */
#include "fuzz_input.h"
#include "sim_ti.h"

#include <stdio.h>
#include <stdlib.h>

/* Reads every line of file `path` with the reader ti-replay uses. */
static void read_lines(const char *path)
{
  char err[512] = "";
  sim_ti_reader_t *reader = NULL;
  if (sim_ti_reader_open(path, 64, &reader, err, sizeof err) != 0)
    return;
  char *text = NULL;
  size_t len = 0;
  int rc;
  while ((rc = sim_ti_reader_next(reader, &text, &len)) == 0)
    ;
  if (rc < 0)
    sim_ti_reader_error(reader, rc, err, sizeof err);
  sim_ti_reader_close(reader);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (fuzz_write_input(data, size) != 0)
    abort();
  char err[512] = "";
  sim_ti_trace_t *trace = NULL;
  if (sim_ti_open(fuzz_input_path(), &trace, err, sizeof err) == 0) {
    for (int i = 0; i < sim_ti_trace_files(trace); i++)
      read_lines(sim_ti_trace_path(trace, i));
    sim_ti_trace_free(trace);
  }
  char **hosts = NULL;
  int count = 0;
  if (sim_ti_read_hostfile(fuzz_input_path(), &hosts, &count, err, sizeof err) == 0)
    sim_ti_paths_free(hosts, count);
  return 0;
}
