/* The reader of measured timelines (met_timeline.h): hand-made two-rank runs read into the trace model, whose
 * category and phase times are worked out by hand (a blocking message split into the wait for the partner and the
 * transfer), and folders a crashed or edited run leaves, each refused with the file and line to blame. */
#include "met_eppa.h"
#include "met_timeline.h"
#include "met_wait.h"
#include "tu.h"

#include <stdio.h>
#include <string.h>

#define RUNS SIMRUN_SOURCE_DIR "/tests/data/tracer/"

/* tests/data/tracer/two-ranks: rank 0 computes 0-0.6 ("work") and 0.8-1.0, sends 0.6-0.8; rank 1 computes 0-0.4
 * ("work") and 0.8-0.9, is in MPI_Recv 0.4-0.8, and is idle after its end until T_par = 1.0. The receive waits for
 * the sender until 0.6 (idle), then the message moves 0.6-0.8 (comm at both ends; the send did not wait). */
static void test_timeline_reads_categories_and_phases(void)
{
  char err[1024] = "";
  met_trace_t *trace = met_timeline_read(RUNS "two-ranks", err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT_EQUAL(met_trace_nranks(trace), 2);
  TU_ASSERT_CLOSE(met_trace_end(trace), 1.0, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 0, MET_CAT_COMPUTE), 0.8, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 0, MET_CAT_COMM), 0.2, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_COMPUTE), 0.5, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_IDLE), 0.3, 1e-12); /* 0.2 waiting, 0.1 after the end */
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_COMM), 0.2, 1e-12);
  CU_ASSERT_EQUAL(met_trace_count(trace, 0), 3);
  CU_ASSERT_EQUAL(met_trace_count(trace, 1), 4);
  const met_interval_t *wait = &met_trace_intervals(trace, 1)[1];
  const met_interval_t *transfer = &met_trace_intervals(trace, 1)[2];
  CU_ASSERT(wait->peer == 0 && wait->category == MET_CAT_IDLE && transfer->peer == 0 && transfer->bytes == 1000);
  TU_ASSERT_CLOSE(transfer->start, 0.6, 1e-12);
  int work = met_trace_phase_id(trace, "work");
  CU_ASSERT(work >= 0 && work < met_trace_phase_count(trace));
  TU_ASSERT_CLOSE(met_trace_phase_time(trace, 0, work, MET_CAT_COMPUTE), 0.6, 1e-12);
  TU_ASSERT_CLOSE(met_trace_phase_time(trace, 1, work, MET_CAT_COMPUTE), 0.4, 1e-12);
  /* T_seq = the work, 1.3 s: speedup 1.3, the anomaly 0 (seed 000 eqs. 1.1, 1.6) */
  met_eppa_t e;
  CU_ASSERT_EQUAL(met_eppa_compute(trace, 1.3, &e), 0);
  TU_ASSERT_CLOSE(e.speedup, 1.3, 1e-12);
  TU_ASSERT_CLOSE(e.ovh_ratio[MET_OVH_ANOMALY], 0.0, 1e-12);
  met_trace_free(trace);
}

/* tests/data/tracer/late-receiver: rank 0 sends 0.1-0.5, rank 1 computes until 0.3 then receives 0.3-0.5. The send
 * outlasts the receiver's entry (a rendezvous): it waits 0.1-0.3, then both ends move the message 0.3-0.5. */
static void test_timeline_send_waits_for_late_receiver(void)
{
  char err[1024] = "";
  met_trace_t *trace = met_timeline_read(RUNS "late-receiver", err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 0, MET_CAT_IDLE), 0.2, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 0, MET_CAT_COMM), 0.2, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_IDLE), 0.0, 1e-12);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_COMM), 0.2, 1e-12);
  met_trace_free(trace);
}

/* Measured messages carry their direction, so that simrun analyse finds Scalasca's wait states: in two-ranks the
 * receiver waited 0.4-0.6 for a late sender; in late-receiver the sender waited 0.1-0.3 for a late receiver. */
static void test_timeline_wait_states(void)
{
  static const struct {
    const char *run;
    int rank;
    met_wait_pattern_t pattern;
  } cases[] = {{RUNS "two-ranks", 1, MET_WAIT_LATE_SENDER}, {RUNS "late-receiver", 0, MET_WAIT_LATE_RECEIVER}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char err[1024] = "";
    met_trace_t *trace = met_timeline_read(cases[i].run, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
    CU_ASSERT_EQUAL(met_trace_intervals(trace, 1 - cases[i].rank)[0].dir == MET_DIR_NONE, 1); /* not a message */
    met_waits_t w;
    CU_ASSERT_EQUAL_FATAL(met_wait_compute(trace, &w), 0);
    TU_ASSERT_CLOSE(met_wait_time(&w, cases[i].rank, cases[i].pattern), 0.2, 1e-12);
    TU_ASSERT_CLOSE(met_wait_total(&w, MET_WAIT_PATTERNS), 0.2, 1e-12);
    met_wait_free(&w);
    met_trace_free(trace);
  }
}

/* Reads `folder`, which must fail with exactly `message`. */
static void expect_refused(const char *folder, const char *message)
{
  char err[2048] = "";
  met_trace_t *trace = met_timeline_read(folder, err, sizeof err);
  CU_ASSERT_PTR_NULL(trace);
  met_trace_free(trace);
  CU_ASSERT_STRING_EQUAL(err, message);
}

/* A run killed before MPI_Finalize: rank 1's file of tests/data/tracer/cut stops after its MPI_Recv (line 5, no
 * "# end"); killed/ has half a line more. Both are read up to line 5, rank 1's intervals ending at 0.8 s, and named as
 * cut short there. */
static void test_timeline_reads_cut_file_to_last_whole_line(void)
{
  static const char *const folders[] = {RUNS "cut", RUNS "killed"};
  for (int i = 0; i < 2; i++) {
    char err[2048] = "";
    met_trace_t *trace = met_timeline_read(folders[i], err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
    TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_COMPUTE), 0.4, 1e-12);
    TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_COMM), 0.2, 1e-12); /* the receive's transfer */
    char expected[2048];
    snprintf(expected, sizeof expected,
             "%s/timeline-1.txt:5: cut short: the file ends before its '# end' line (the run stopped before "
             "MPI_Finalize); read up to its last whole line",
             folders[i]);
    CU_ASSERT_STRING_EQUAL(err, expected);
    met_trace_free(trace);
  }
}

static void test_timeline_refuses_missing_rank(void)
{
  expect_refused(RUNS "missing-rank", RUNS "missing-rank/timeline-0.txt:2: the run has rank 1 but " RUNS
                                           "missing-rank/timeline-1.txt cannot be read (No such file or directory): a "
                                           "rank did not write its timeline; trace the run again (docs/tracer.md)");
}

static void test_timeline_refuses_bad_line(void)
{
  expect_refused(RUNS "bad-line", RUNS "bad-line/timeline-0.txt:6: unknown category (compute, io, ctrl, comm or idle); "
                                       "trace the run again (docs/tracer.md)");
}

static void test_timeline_refuses_folder_without_timelines(void)
{
  expect_refused(RUNS, RUNS "/timeline-0.txt: cannot read it (No such file or directory); give a folder that "
                            "libsimrun-trace.so wrote (SIMRUN_TRACE_DIR)");
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_timeline_reads_categories_and_phases", test_timeline_reads_categories_and_phases},
      {"test_timeline_send_waits_for_late_receiver", test_timeline_send_waits_for_late_receiver},
      {"test_timeline_wait_states", test_timeline_wait_states},
      {"test_timeline_reads_cut_file_to_last_whole_line", test_timeline_reads_cut_file_to_last_whole_line},
      {"test_timeline_refuses_missing_rank", test_timeline_refuses_missing_rank},
      {"test_timeline_refuses_bad_line", test_timeline_refuses_bad_line},
      {"test_timeline_refuses_folder_without_timelines", test_timeline_refuses_folder_without_timelines},
      {NULL, NULL}};
  return tu_run("met_timeline", cases);
}
