/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of rep_paje: hand-made traces written as Paje and read back by pajeng's pj_dump, whose states and links must be
 * exactly the intervals and messages put in, links from sender to receiver; they fail where pj_dump is not installed.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include "met_timeline.h"
#include "rep_paje.h"
#include "tu.h"
#include "tu_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One rank, shorter than the other run and with a gap: ctrl [0, 0.5), nothing recorded [0.5, 1), compute [1, 1.5). */
static met_trace_t *one_rank(void)
{
  met_trace_t *trace = met_trace_new(1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT_EQUAL(met_trace_phase_id(trace, "main"), 0);
  met_interval_t ctrl = {.start = 0, .end = 0.5, .category = MET_CAT_CTRL, .peer = -1};
  met_interval_t work = {.start = 1, .end = 1.5, .category = MET_CAT_COMPUTE, .peer = -1};
  CU_ASSERT_EQUAL(met_trace_add(trace, 0, &ctrl), 0);
  CU_ASSERT_EQUAL(met_trace_add(trace, 0, &work), 0);
  return trace;
}

/* pj_dump is needed: a missing one fails the test (scripts/install-deps installs pajeng), never skips it. */
static int have_pj_dump(void)
{
  if (system("command -v pj_dump >/dev/null 2>&1") == 0)
    return 1;
  CU_FAIL("pj_dump (Debian package pajeng) is not installed; scripts/install-deps installs it");
  return 0;
}

static int by_text(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Joins the n lines in sorted order (pj_dump's order of containers is its own) into a new string; frees them. */
static char *sorted_join(char **lines, size_t n)
{
  size_t len = 1;
  for (size_t i = 0; i < n; i++)
    len += strlen(lines[i]);
  char *text = calloc(1, len);
  qsort(lines, n, sizeof *lines, by_text);
  for (size_t i = 0; i < n; i++) {
    strcat(text, lines[i]);
    free(lines[i]);
  }
  return text;
}

/* The lines of pj_dump's output for `runs` that start with `kind` (such as "State, "), sorted and concatenated; NULL
 * when pj_dump failed or wrote anything on stderr. The caller frees it. */
static char *dump(const rep_paje_run_t *runs, size_t n, const char *kind)
{
  char dir[] = "/tmp/simrun-paje-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  char path[128], command[512];
  snprintf(path, sizeof path, "%s/run.paje", dir);
  FILE *out = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  CU_ASSERT_EQUAL(rep_paje_write(out, runs, n), 0);
  fclose(out);
  snprintf(command, sizeof command, "cd %s && pj_dump -u run.paje > dump.txt 2> err.txt && test ! -s err.txt", dir);
  int status = system(command);
  snprintf(path, sizeof path, "%s/dump.txt", dir);
  FILE *in = status == 0 ? fopen(path, "r") : NULL;
  char *lines[64];
  size_t count = 0;
  char line[512];
  while (in && count < 64 && fgets(line, sizeof line, in))
    if (strncmp(line, kind, strlen(kind)) == 0)
      lines[count++] = strdup(line);
  if (in)
    fclose(in);
  snprintf(command, sizeof command, "rm -rf %s", dir);
  CU_ASSERT_EQUAL(system(command), 0);
  return status == 0 ? sorted_join(lines, count) : NULL;
}

static void test_rep_paje_states_and_links(void)
{
  if (!have_pj_dump())
    return;
  met_trace_t *trace = tu_trace_two_ranks();
  rep_paje_run_t run = {"hand-made, two ranks", trace};
  char *states = dump(&run, 1, "State, ");
  char *links = dump(&run, 1, "Link, ");
  CU_ASSERT_PTR_NOT_NULL_FATAL(states);
  CU_ASSERT_PTR_NOT_NULL_FATAL(links);
  /* The tail of rank 0 and the wait of rank 1 are idle; the comma in the run's name became a semicolon. */
  CU_ASSERT_STRING_EQUAL(states, "State, rank 0, Category, 0.000000, 1.000000, 1.000000, 0.000000, compute\n"
                                 "State, rank 0, Category, 1.000000, 2.000000, 1.000000, 0.000000, comm\n"
                                 "State, rank 0, Category, 2.000000, 3.000000, 1.000000, 0.000000, idle\n"
                                 "State, rank 1, Category, 0.000000, 1.000000, 1.000000, 0.000000, idle\n"
                                 "State, rank 1, Category, 1.000000, 2.000000, 1.000000, 0.000000, comm\n"
                                 "State, rank 1, Category, 2.000000, 3.000000, 1.000000, 0.000000, io\n");
  CU_ASSERT_STRING_EQUAL(links, "Link, hand-made; two ranks, Message, 1.000000, 2.000000, 1.000000, message, rank 0, "
                                "rank 1, m0\n");
  free(states);
  free(links);
  met_trace_free(trace);
}

/* pj_dump's lines of `kind` (dump) for the measured run tests/data/tracer/RUN read whole (a new string); NULL when
 * pj_dump is missing or failed (the test then fails). */
static char *measured_dump(const char *run, const char *kind)
{
  if (!have_pj_dump())
    return NULL;
  char err[1200] = "", path[1024];
  snprintf(path, sizeof path, "%s/tests/data/tracer/%s", SIMRUN_SOURCE_DIR, run);
  met_trace_t *trace = met_timeline_stream(path, MET_TL_KEEP, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  rep_paje_run_t measured = {"measured", trace};
  char *lines = dump(&measured, 1, kind);
  met_trace_free(trace);
  CU_ASSERT_PTR_NOT_NULL(lines);
  return lines;
}

/* A measured run's collectives (tests/data/tracer/collective-bytes, worked out by hand in test_rep_otf2.c's
 * test_otf2_measured_collective_bytes): an event per rank and call at its end, with the call, its root and the bytes
 * the rank sent and received, the same figures as the OTF2 archive's. */
static void test_rep_paje_measured_collectives(void)
{
  char *events = measured_dump("collective-bytes", "Event, ");
  if (!events)
    return;
  CU_ASSERT_STRING_EQUAL(events, "Event, rank 0, Collective, 0.200000, MPI_Bcast, 1, 0, 800\n"
                                 "Event, rank 0, Collective, 0.300000, MPI_Gather, 0, 0, 200\n"
                                 "Event, rank 0, Collective, 0.400000, MPI_Allreduce, none, 16, 16\n"
                                 "Event, rank 0, Collective, 0.500000, MPI_Alltoall, none, 400, 400\n"
                                 "Event, rank 0, Collective, 0.600000, MPI_Allgatherv, none, 48, 96\n"
                                 "Event, rank 0, Collective, 0.700000, MPI_Reduce_scatter, none, 80, 32\n"
                                 "Event, rank 0, Collective, 0.800000, MPI_Reduce_scatter, none, 80, 80\n"
                                 "Event, rank 0, Collective, 0.850000, MPI_Alltoallv, none, 50, 110\n"
                                 "Event, rank 0, Collective, 0.900000, MPI_Alltoallv, none, 0, 0\n"
                                 "Event, rank 1, Collective, 0.200000, MPI_Bcast, 1, 1600, 0\n"
                                 "Event, rank 1, Collective, 0.300000, MPI_Gather, 0, 100, 0\n"
                                 "Event, rank 1, Collective, 0.400000, MPI_Allreduce, none, 16, 16\n"
                                 "Event, rank 1, Collective, 0.500000, MPI_Alltoall, none, 400, 400\n"
                                 "Event, rank 1, Collective, 0.600000, MPI_Allgatherv, none, 80, 80\n"
                                 "Event, rank 1, Collective, 0.700000, MPI_Reduce_scatter, none, 64, 64\n"
                                 "Event, rank 1, Collective, 0.800000, MPI_Reduce_scatter, none, 80, 80\n"
                                 "Event, rank 1, Collective, 0.850000, MPI_Alltoallv, none, 100, 100\n"
                                 "Event, rank 1, Collective, 0.900000, MPI_Alltoallv, none, 0, 0\n"
                                 "Event, rank 2, Collective, 0.200000, MPI_Bcast, 1, 0, 800\n"
                                 "Event, rank 2, Collective, 0.300000, MPI_Gather, 0, 100, 0\n"
                                 "Event, rank 2, Collective, 0.400000, MPI_Allreduce, none, 16, 16\n"
                                 "Event, rank 2, Collective, 0.500000, MPI_Alltoall, none, 400, 400\n"
                                 "Event, rank 2, Collective, 0.600000, MPI_Allgatherv, none, 112, 64\n"
                                 "Event, rank 2, Collective, 0.700000, MPI_Reduce_scatter, none, 48, 96\n"
                                 "Event, rank 2, Collective, 0.800000, MPI_Reduce_scatter, none, 80, 80\n"
                                 "Event, rank 2, Collective, 0.850000, MPI_Alltoallv, none, 150, 90\n"
                                 "Event, rank 2, Collective, 0.900000, MPI_Alltoallv, none, 0, 0\n");
  free(events);
}

/* A measured run's non-blocking collective (tests/data/tracer/nbc-pair, by hand in test_rep_otf2.c's
 * test_otf2_measured_nonblocking_collectives: an MPI_Ibcast of 16 bytes from rank 0, waited for until 0.31 s on rank 0
 * and 0.4 s on rank 1): an event per rank at the end of the wait that completed it, its operation's, root 0 sending 16
 * bytes, rank 1 receiving them, as in the OTF2 archive; none for tests/data/tracer/nbc-differ, whose members' calls
 * differ. */
static void test_rep_paje_measured_nonblocking_collectives(void)
{
  char *events = measured_dump("nbc-pair", "Event, ");
  if (!events)
    return;
  CU_ASSERT_STRING_EQUAL(events, "Event, rank 0, Collective, 0.310000, MPI_Bcast, 0, 16, 0\n"
                                 "Event, rank 1, Collective, 0.400000, MPI_Bcast, 0, 0, 16\n");
  free(events);
  events = measured_dump("nbc-differ", "Event, "); /* an MPI_Ibcast against an MPI_Iallreduce: not one collective */
  CU_ASSERT(events && !events[0]);
  free(events);
}

/* A measured run's MPI calls (tests/data/tracer/regions, hand-made, p = 2: Irecv, Isend and Waitall, a persistent
 * request made, started, waited for and freed, a run of 25 unsuccessful MPI_Iprobe then a successful one and the
 * MPI_Recv it found, a run of 40 unsuccessful MPI_Test then the one that completed an MPI_Irecv): each call one state
 * of the type "MPI call" from its entry to its exit as the timeline gives them, whatever pieces (the wait, the
 * transfer, the receives completed) the analysis cut it into, a run of polls as its call with its count in the field
 * Polls (0 for any other call); no state between calls (the computations). Before, the trace kept no call and the Paje
 * trace had only the categories. */
static void test_rep_paje_measured_calls(void)
{
  char *rank0 = measured_dump("regions", "State, rank 0, MPI call, ");
  char *rank1 = measured_dump("regions", "State, rank 1, MPI call, ");
  if (!rank0 || !rank1) {
    free(rank0);
    free(rank1);
    return;
  }
  CU_ASSERT_STRING_EQUAL(rank0, "State, rank 0, MPI call, 0.010000, 0.012000, 0.002000, 0.000000, MPI_Irecv, 0\n"
                                "State, rank 0, MPI call, 0.012000, 0.014000, 0.002000, 0.000000, MPI_Isend, 0\n"
                                "State, rank 0, MPI call, 0.014000, 0.020000, 0.006000, 0.000000, MPI_Waitall, 0\n"
                                "State, rank 0, MPI call, 0.020000, 0.022000, 0.002000, 0.000000, MPI_Send_init, 0\n"
                                "State, rank 0, MPI call, 0.022000, 0.024000, 0.002000, 0.000000, MPI_Start, 0\n"
                                "State, rank 0, MPI call, 0.024000, 0.030000, 0.006000, 0.000000, MPI_Wait, 0\n"
                                "State, rank 0, MPI call, 0.030000, 0.031000, 0.001000, 0.000000, MPI_Request_free, 0\n"
                                "State, rank 0, MPI call, 0.050000, 0.052000, 0.002000, 0.000000, MPI_Send, 0\n"
                                "State, rank 0, MPI call, 0.052000, 0.053000, 0.001000, 0.000000, MPI_Irecv, 0\n"
                                "State, rank 0, MPI call, 0.053000, 0.070000, 0.017000, 0.000000, MPI_Test, 40\n"
                                "State, rank 0, MPI call, 0.070000, 0.071000, 0.001000, 0.000000, MPI_Test, 0\n");
  CU_ASSERT_STRING_EQUAL(rank1, "State, rank 1, MPI call, 0.011000, 0.013000, 0.002000, 0.000000, MPI_Irecv, 0\n"
                                "State, rank 1, MPI call, 0.013000, 0.015000, 0.002000, 0.000000, MPI_Isend, 0\n"
                                "State, rank 1, MPI call, 0.015000, 0.018000, 0.003000, 0.000000, MPI_Waitall, 0\n"
                                "State, rank 1, MPI call, 0.018000, 0.020000, 0.002000, 0.000000, MPI_Recv_init, 0\n"
                                "State, rank 1, MPI call, 0.020000, 0.021000, 0.001000, 0.000000, MPI_Start, 0\n"
                                "State, rank 1, MPI call, 0.021000, 0.030000, 0.009000, 0.000000, MPI_Wait, 0\n"
                                "State, rank 1, MPI call, 0.030000, 0.031000, 0.001000, 0.000000, MPI_Request_free, 0\n"
                                "State, rank 1, MPI call, 0.031000, 0.049000, 0.018000, 0.000000, MPI_Iprobe, 25\n"
                                "State, rank 1, MPI call, 0.049000, 0.051000, 0.002000, 0.000000, MPI_Iprobe, 0\n"
                                "State, rank 1, MPI call, 0.051000, 0.054000, 0.003000, 0.000000, MPI_Recv, 0\n"
                                "State, rank 1, MPI call, 0.069000, 0.070000, 0.001000, 0.000000, MPI_Send, 0\n");
  free(rank0);
  free(rank1);
}

/* A link goes from the rank that sent to the one that received, whichever rank is lower; without a recorded
 * direction, from the lower rank. */
static void test_rep_paje_link_direction(void)
{
  if (!have_pj_dump())
    return;
  static const char *const expected[] = {"rank 1, rank 0", "rank 0, rank 1", "rank 0, rank 1"};
  for (int sender = 1; sender >= -1; sender--) {
    met_trace_t *trace = tu_trace_message(sender);
    rep_paje_run_t run = {"x", trace};
    char *links = dump(&run, 1, "Link, ");
    char line[160];
    snprintf(line, sizeof line, "Link, x, Message, 1.000000, 2.000000, 1.000000, message, %s, m0\n",
             expected[1 - sender]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(links);
    CU_ASSERT_STRING_EQUAL(links, line);
    free(links);
    met_trace_free(trace);
  }
}

/* Two runs of different lengths in one file: events stay in time order across runs (pj_dump rejects a trace whose
 * time goes back), names stay unique, and a gap in the trace is idle. */
static void test_rep_paje_two_runs(void)
{
  if (!have_pj_dump())
    return;
  met_trace_t *a = tu_trace_two_ranks();
  met_trace_t *b = one_rank();
  rep_paje_run_t runs[2] = {{"first", a}, {"second", b}};
  char *states = dump(runs, 2, "State, run 2");
  char *containers = dump(runs, 2, "Container, second");
  CU_ASSERT_PTR_NOT_NULL_FATAL(states);
  CU_ASSERT_PTR_NOT_NULL_FATAL(containers);
  CU_ASSERT_STRING_EQUAL(states, "State, run 2 rank 0, Category, 0.000000, 0.500000, 0.500000, 0.000000, ctrl\n"
                                 "State, run 2 rank 0, Category, 0.500000, 1.000000, 0.500000, 0.000000, idle\n"
                                 "State, run 2 rank 0, Category, 1.000000, 1.500000, 0.500000, 0.000000, compute\n");
  /* The second run's rank ends at its own T_par, 1.5 s, not at the end of the file. */
  CU_ASSERT_STRING_EQUAL(containers, "Container, second, Rank, 0, 1.5, 1.5, run 2 rank 0\n");
  free(states);
  free(containers);
  met_trace_free(a);
  met_trace_free(b);
}

/* The same runs give the same bytes. */
static void test_rep_paje_deterministic(void)
{
  met_trace_t *trace = tu_trace_two_ranks();
  rep_paje_run_t run = {"x", trace};
  char *first = NULL, *second = NULL;
  size_t len1 = 0, len2 = 0;
  FILE *out1 = open_memstream(&first, &len1);
  FILE *out2 = open_memstream(&second, &len2);
  CU_ASSERT_EQUAL(rep_paje_write(out1, &run, 1), 0);
  CU_ASSERT_EQUAL(rep_paje_write(out2, &run, 1), 0);
  fclose(out1);
  fclose(out2);
  CU_ASSERT_EQUAL(len1, len2);
  CU_ASSERT(len1 > 0 && memcmp(first, second, len1) == 0);
  free(first);
  free(second);
  met_trace_free(trace);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_rep_paje_states_and_links", test_rep_paje_states_and_links},
      {"test_rep_paje_link_direction", test_rep_paje_link_direction},
      {"test_rep_paje_measured_collectives", test_rep_paje_measured_collectives},
      {"test_rep_paje_measured_nonblocking_collectives", test_rep_paje_measured_nonblocking_collectives},
      {"test_rep_paje_measured_calls", test_rep_paje_measured_calls},
      {"test_rep_paje_two_runs", test_rep_paje_two_runs},
      {"test_rep_paje_deterministic", test_rep_paje_deterministic},
      {NULL, NULL}};
  return tu_run("rep_paje", cases);
}
