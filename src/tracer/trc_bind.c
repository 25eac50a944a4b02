/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Each rank's CPU binding for index.txt (trc_bind.h): noted at MPI_Init, gathered to rank 0 at MPI_Finalize as raw
 * masks and names, and written there as one line per rank. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_* */
#include "trc_bind.h"

#include <ctype.h>
#include <mpi.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct binding {
  char node[MPI_MAX_PROCESSOR_NAME + 1];
  cpu_set_t mask;
  int known; /* sched_getaffinity succeeded */
  int online;
} binding_t;

static binding_t mine;

void trc_bind_note(void)
{
  int len = 0;
  if (PMPI_Get_processor_name(mine.node, &len) != MPI_SUCCESS || len <= 0)
    snprintf(mine.node, sizeof mine.node, "unknown");
  for (char *c = mine.node; *c; c++) /* one word on the line */
    if (isspace((unsigned char)*c) || *c == '=')
      *c = '_';
  mine.known = sched_getaffinity(0, sizeof mine.mask, &mine.mask) == 0;
  mine.online = (int)sysconf(_SC_NPROCESSORS_ONLN);
}

void *trc_bind_gather(int size)
{
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  binding_t *all = rank == 0 ? malloc((size_t)size * sizeof *all) : NULL;
  int ok = rank != 0 || all != NULL;
  int every = 0;
  PMPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); /* rank 0 out of memory: nobody sends */
  if (every)
    PMPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (!every) {
    free(all);
    all = NULL;
  }
  return all;
}

/* The mask as a cpulist: runs of CPUs as "a-b", separated by commas. */
static void write_cpus(FILE *out, const cpu_set_t *mask)
{
  const char *sep = "";
  for (int c = 0; c < CPU_SETSIZE; c++) {
    if (!CPU_ISSET(c, mask))
      continue;
    int last = c;
    while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, mask))
      last++;
    fprintf(out, last > c ? "%s%d-%d" : "%s%d", sep, c, last);
    sep = ",";
    c = last;
  }
}

void trc_bind_write(FILE *index, const void *table, int size)
{
  const binding_t *all = table;
  for (int r = 0; all && r < size; r++) {
    int on_node = 0;
    for (int q = 0; q < size; q++)
      on_node += strcmp(all[q].node, all[r].node) == 0;
    fprintf(index, "# simrun-binding rank=%d node=%s cpus=", r, all[r].node);
    if (all[r].known)
      write_cpus(index, &all[r].mask);
    else
      fprintf(index, "unknown");
    fprintf(index, " online=%d node-ranks=%d\n", all[r].online, on_node);
  }
}
