/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What a large receive costs by the state of its buffer's pages (docs/history/validation.md, "Page faults in a
 * receive"): rank 1 sends BYTES (1.44 MB, a block of the ring multiply at n = 600, p = 2) from a buffer it wrote to
 * rank 0, which waits in MPI_Recv, into a buffer that is
 *   fresh:     a new anonymous mapping (4 KiB pages) rank 0 never touched: a page fault per page inside the call;
 *   written:   a new mapping rank 0 wrote whole first (its pages present, never written by the kernel);
 *   received:  the previous mode's buffer again (written by the kernel in that receive);
 *   huge:      a new 2 MiB-aligned mapping advised MADV_HUGEPAGE, never touched: one fault.
 * ROUNDS rounds of the four; rank 0 prints per mode the median of the receive's wall time (MPI_Wtime around the call)
 * and of its thread's minor page faults in it (getrusage). Run on 2 ranks. */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

enum { BYTES = 1440000, HUGE_PAGE = 2 << 20, ROUNDS = 7, MODES = 4 };

static long faults(void)
{
  struct rusage u;
  getrusage(RUSAGE_THREAD, &u);
  return u.ru_minflt;
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* A new mapping of twice a huge page, and in it the buffer: huge-page aligned, advised `advice`. */
static char *new_buffer(char **mapping, int advice)
{
  *mapping = mmap(NULL, 2 * HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (*mapping == MAP_FAILED)
    MPI_Abort(MPI_COMM_WORLD, 1);
  char *buf = (char *)(((size_t)*mapping + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1));
  madvise(buf, HUGE_PAGE, advice);
  return buf;
}

int main(int argc, char **argv)
{
  static const char *const names[MODES] = {"fresh", "written", "received", "huge"};
  int rank = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char *source = malloc(BYTES);
  memset(source, 1, BYTES);
  double wall[MODES][ROUNDS], count[MODES][ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    char *mapping[MODES] = {NULL}, *buf[MODES];
    buf[0] = new_buffer(&mapping[0], MADV_NOHUGEPAGE);
    buf[1] = new_buffer(&mapping[1], MADV_NOHUGEPAGE);
    memset(buf[1], 2, BYTES);
    buf[2] = buf[1];
    buf[3] = new_buffer(&mapping[3], MADV_HUGEPAGE);
    for (int m = 0; m < MODES; m++) {
      MPI_Barrier(MPI_COMM_WORLD);
      long f0 = faults();
      double t0 = MPI_Wtime();
      if (rank == 0)
        MPI_Recv(buf[m], BYTES, MPI_CHAR, 1, m, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      else if (rank == 1)
        MPI_Send(source, BYTES, MPI_CHAR, 0, m, MPI_COMM_WORLD);
      wall[m][r] = MPI_Wtime() - t0;
      count[m][r] = (double)(faults() - f0);
    }
    for (int m = 0; m < MODES; m++)
      if (mapping[m])
        munmap(mapping[m], 2 * HUGE_PAGE);
  }
  for (int m = 0; rank == 0 && m < MODES; m++) {
    qsort(wall[m], ROUNDS, sizeof wall[m][0], by_value);
    qsort(count[m], ROUNDS, sizeof count[m][0], by_value);
    printf("%-9s receive of %d bytes: median %.3f ms (%.3f-%.3f), %.0f page faults in it\n", names[m], BYTES,
           1e3 * wall[m][ROUNDS / 2], 1e3 * wall[m][0], 1e3 * wall[m][ROUNDS - 1], count[m][ROUNDS / 2]);
  }
  free(source);
  MPI_Finalize();
  return 0;
}
