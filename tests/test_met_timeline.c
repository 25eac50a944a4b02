/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The reader of measured timelines (met_timeline.h): hand-made two-rank runs read into the trace model, whose
 * category and phase times are worked out by hand (a blocking message split into the wait for the partner and the
 * transfer), and folders a crashed or edited run leaves, each refused with the file and line to blame. */
#include "met_eppa.h"
#include "met_comm.h"
#include "met_timeline.h"
#include "met_wait.h"
#include "tu_cli.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define RUNS SIMRUN_SOURCE_DIR "/tests/data/tracer/"

/* tests/data/tracer/two-ranks: rank 0 computes 0-0.6 ("work") and 0.8-1.0, sends 0.6-0.8; rank 1 computes 0-0.4
 * ("work") and 0.8-0.9, is in MPI_Recv 0.4-0.8, and is idle after its end until T_par = 1.0. The receive waits for
 * the sender until 0.6 (idle), then the message moves 0.6-0.8 (comm at both ends; the send did not wait). Checks
 * those figures in the run of `folder`. */
static void expect_two_ranks(const char *folder)
{
  char err[1024] = "";
  met_trace_t *trace = met_timeline_stream(folder, MET_TL_KEEP, NULL, err, sizeof err);
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

/* two-ranks, and the same files compressed: replay-pair-zstd's by zstd (as libsimrun-trace.so writes a large file),
 * -gzip's by gzip (as it did before; replay-pair's timelines are two-ranks'). */
static void test_timeline_reads_categories_and_phases(void)
{
  expect_two_ranks(RUNS "two-ranks");
  expect_two_ranks(RUNS "replay-pair-zstd");
  expect_two_ranks(RUNS "replay-pair-gzip");
  char err[1024] = ""; /* replay-seq-zstd: replay-seq's one rank computing 1.3 s, as zstd (fuzz_timeline's seed) */
  met_trace_t *seq = met_timeline_stream(RUNS "replay-seq-zstd", MET_TL_KEEP, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(seq);
  TU_ASSERT_CLOSE(met_trace_category_time(seq, 0, MET_CAT_COMPUTE), 1.3, 1e-12);
  met_trace_free(seq);
}

/* tests/data/tracer/late-receiver: rank 0 sends 0.1-0.5, rank 1 computes until 0.3 then receives 0.3-0.5. The send
 * outlasts the receiver's entry (a rendezvous): it waits 0.1-0.3, then both ends move the message 0.3-0.5. */
static void test_timeline_send_waits_for_late_receiver(void)
{
  char err[1024] = "";
  met_trace_t *trace = met_timeline_stream(RUNS "late-receiver", MET_TL_KEEP, NULL, err, sizeof err);
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
    met_trace_t *trace = met_timeline_stream(cases[i].run, MET_TL_KEEP, NULL, err, sizeof err);
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

/* Reads `run` with its info; the trace, or a failed test. */
static met_trace_t *read_with_info(const char *run, met_timeline_info_t *info)
{
  char err[1024] = "";
  met_trace_t *trace = met_timeline_stream(run, 1, info, err, sizeof err);
  if (!trace)
    fprintf(stderr, "%s\n", err);
  return trace;
}

/* The seconds of each rank in `category`, against the hand-worked `want` (one per rank). */
static void expect_times(const met_trace_t *trace, met_category_t category, const double *want)
{
  for (int r = 0; r < met_trace_nranks(trace); r++)
    TU_ASSERT_CLOSE(met_trace_category_time(trace, r, category), want[r], 1e-9);
}

/* `run` read whole, with `matched` messages paired and none left unpaired. */
static met_trace_t *read_paired(const char *run, size_t matched)
{
  met_timeline_info_t info;
  met_trace_t *trace = read_with_info(run, &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT_EQUAL(info.matched, matched);
  CU_ASSERT_EQUAL(info.unmatched, 0);
  return trace;
}

/* The wait states of `trace`: `seconds` of late sender at `rank`, and no other wait anywhere. */
static void expect_late_sender_only(const met_trace_t *trace, int rank, double seconds)
{
  met_waits_t w;
  CU_ASSERT_EQUAL_FATAL(met_wait_compute(trace, &w), 0);
  TU_ASSERT_CLOSE(met_wait_time(&w, rank, MET_WAIT_LATE_SENDER), seconds, 1e-9);
  TU_ASSERT_CLOSE(met_wait_total(&w, MET_WAIT_PATTERNS), seconds, 1e-9);
  met_wait_free(&w);
}

/* The wait states of `trace`: `a` seconds of pattern `pa` at rank `ra`, `b` of `pb` at `rb`, and no other wait. */
static void expect_two_waits(const met_trace_t *trace, int ra, met_wait_pattern_t pa, double a, int rb,
                             met_wait_pattern_t pb, double b)
{
  met_waits_t w;
  CU_ASSERT_EQUAL_FATAL(met_wait_compute(trace, &w), 0);
  TU_ASSERT_CLOSE(met_wait_time(&w, ra, pa), a, 1e-9);
  TU_ASSERT_CLOSE(met_wait_time(&w, rb, pb), b, 1e-9);
  TU_ASSERT_CLOSE(met_wait_total(&w, MET_WAIT_PATTERNS), a + b, 1e-9);
  met_wait_free(&w);
}

/* tests/data/tracer/ssend-skew: rank 1's clock 40 us behind rank 0's. Its MPI_Ssend (0.1-0.8) ends before rank 0's
 * receive entry (0.80004), as its MPI_Issend's wait (0.92-0.98) ends before that receive (0.98004): a synchronous send
 * completes only once its receive started, so both waited to their ends (late receiver, 0.7 + 0.06 s), where the
 * eager rule booked them as communication (0.70 and 0.06 s of comm, as ParFORM's workers' 0.79 s MPI_Ssend at p = 4).
 * Its MPI_Send (0.85-0.90), ended before its receive's entry (0.95), stays eager: 0.05 of comm. */
static void synchronous_sends_wait_in(const char *folder, double ctrl)
{
  met_trace_t *trace = read_paired(folder, 3);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.0, 0.76});
  expect_times(trace, MET_CAT_COMM, (double[]){0.01002, 0.05001});
  expect_times(trace, MET_CAT_CTRL, (double[]){0.0, ctrl});
  expect_two_waits(trace, 1, MET_WAIT_LATE_RECEIVER, 0.76, 0, MET_WAIT_LATE_SENDER, 0.0);
  met_trace_free(trace);
}

static void test_timeline_synchronous_send_waits_across_clocks(void)
{
  synchronous_sends_wait_in(RUNS "ssend-skew", 0.0);
}

/* tests/data/tracer/ssend-skew-started: the same, its MPI_Issend a start of an MPI_Ssend_init request (the start's
 * field 5, a synchronous send), whose 0.01 ms of setup is control: its wait is the same 0.06 s of late receiver (as an
 * eager send's start it was 0.06 s of communication). */
static void test_timeline_started_synchronous_send_waits(void)
{
  synchronous_sends_wait_in(RUNS "ssend-skew-started", 0.00001);
}

/* tests/data/tracer/halo: a halo exchange (MPI_Irecv, a rendezvous MPI_Send, MPI_Waitall) along ranks 0 - 1 - 2,
 * rank 1 computing 0.5 s, its partners 0.1 s. Rank 0's send (0.11-0.55) is paired with rank 1's MPI_Irecv from 0,
 * posted at 0.50: idle 0.11-0.50 (a late receiver), then 0.05 of transfer; rank 2's likewise with the receive posted
 * at 0.51: idle 0.40, then 0.04. Their waits find rank 1's sends started (0.52, 0.54) before they entered: no wait.
 * Rank 1 never waits: its partners were there first. Comm: rank 0 0.01 + 0.05 + 0.05, rank 1 0.01 + 0.01 + 0.02 + 0.02
 * + 0.04, rank 2 0.01 + 0.04 + 0.05. */
static void test_timeline_halo_slow_rank(void)
{
  met_timeline_info_t info;
  met_trace_t *trace = read_with_info(RUNS "halo", &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.39, 0.0, 0.40});
  expect_times(trace, MET_CAT_COMM, (double[]){0.11, 0.10, 0.10});
  expect_two_waits(trace, 0, MET_WAIT_LATE_RECEIVER, 0.39, 2, MET_WAIT_LATE_RECEIVER, 0.40);
  CU_ASSERT_EQUAL(info.matched, 4);
  CU_ASSERT_EQUAL(info.unmatched, 0);
  TU_ASSERT_CLOSE(info.tracer_cost, 0.06, 1e-12); /* the ranks' "# tracer-cost" lines, 0.01 + 0.02 + 0.03 */
  CU_ASSERT_STRING_EQUAL(info.program, "halo");
  met_trace_free(trace);
}

/* tests/data/tracer/late-sender-wait: rank 0 posts MPI_Irecv from 1 at 0, waits 0.1-0.6; rank 1 computes until 0.5,
 * then sends 0.5-0.6. The wait is idle until the sender entered (0.4 s, a late sender), then transfer (0.1 s); the
 * send found its receive posted: no wait. */
static void test_timeline_wait_for_late_sender(void)
{
  met_timeline_info_t info;
  met_trace_t *trace = read_with_info(RUNS "late-sender-wait", &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.4, 0.0});
  expect_times(trace, MET_CAT_COMM, (double[]){0.11, 0.1});
  expect_late_sender_only(trace, 0, 0.4);
  CU_ASSERT(isnan(info.tracer_cost)); /* no "# tracer-cost" line */
  met_trace_free(trace);
}

/* tests/data/tracer/tags: rank 0 sends tag 1 at 0.2 and tag 2 at 0.6 (both eager); rank 1 receives tag 2 first,
 * 0.1-0.7, then tag 1, 0.7-0.75. MPI matches by tag: the first receive waits for the second send, a late sender
 * until 0.6 (0.5 s idle, then 0.6-0.7 moving), and the second finds its sender there since 0.2 (0.05 s moving). By
 * order alone the first receive would have waited only until 0.2. Rank 1 idles 0.1 s more after its end (1.0). */
static void test_timeline_messages_matched_by_tag(void)
{
  met_timeline_info_t info;
  met_trace_t *trace = read_with_info(RUNS "tags", &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.0, 0.6});
  expect_times(trace, MET_CAT_COMM, (double[]){0.1, 0.15});
  expect_late_sender_only(trace, 1, 0.5);
  met_trace_free(trace);
}

/* tests/data/tracer/long-queues: queues of more than 32 unpaired ends, which count their ends by envelope (met_tally.h)
 * to skip a search for a tag they do not hold. Rank 0 sends tags 0 to 39 (eager, 0-0.4 s) before rank 1 receives them
 * in the reverse order (1.0-1.4 s): 40 sends queued, each receive finds its own; rank 1 then receives tags 100 to 104,
 * never sent (5 unpaired receives), then tags 300 to 339 (2.0-2.4 s), which rank 0 sends only later, in the reverse
 * order (2.5-2.9 s): 45 receives queued, each send finds its own. By hand: 80 paired, 5 unpaired (a queue that said
 * it held none of a tag it holds would leave both ends of such a message unpaired). */
static void test_timeline_long_queues_matched_by_tag(void)
{
  met_timeline_info_t info;
  met_trace_t *trace = read_with_info(RUNS "long-queues", &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT_EQUAL(info.matched, 80);
  CU_ASSERT_EQUAL(info.unmatched, 5);
  met_trace_free(trace);
}

/* Writes a 2-rank run into `dir`: each rank computes 0 to 10 us, `lines[r]` (comment lines) in rank r's file after its
 * header (`at_end` 0) or before its "# end" line (1). */
static void write_pair_lines(const char *dir, const char *const lines[2], int at_end)
{
  for (int r = 0; r < 2; r++) {
    char path[1100];
    char text[512];
    snprintf(path, sizeof path, "%s/timeline-%d.txt", dir, r);
    snprintf(text, sizeof text,
             "# simrun measured timeline 1\n# rank %d of 2\n%s# start end category phase peer bytes call tag comm\n"
             "0.000000000 0.000010000 compute main -1 0 - 0 0\n%s# end 0.000010000\n",
             r, at_end ? "" : lines[r], at_end ? lines[r] : "");
    tu_write_text(path, text);
  }
}

/* A run whose ranks ended at their exit without MPI_Finalize (tests/data/tracer/no_finalize.c: the tracer's line before
 * each "# end", with the exit status): read whole, each rank counted once, a second line of rank 0's (a hostile file)
 * not again, rank 1's status 3 kept; lines of other texts after the words (an older tracer's had none) are no such
 * line. By hand: 2 ranks, 1 of them failed (3); then none. */
static void test_timeline_counts_ranks_ended_at_exit(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  static const char *const lines[][2] = {
      {"# exit without MPI_Finalize, status 0\n# exit without MPI_Finalize, status 7\n",
       "# exit without MPI_Finalize, status 3\n"},
      {"# exit without MPI_Finalize later\n", "# exit without MPI_Finalize, status 3x\n"}};
  for (int run = 0; run < 2; run++) {
    write_pair_lines(dir, lines[run], 1);
    met_timeline_info_t info;
    met_trace_t *trace = read_with_info(dir, &info);
    CU_ASSERT_PTR_NOT_NULL(trace);
    CU_ASSERT_EQUAL(info.exited_ranks, run == 0 ? 2 : 0);
    CU_ASSERT_EQUAL(info.exited_failed, run == 0 ? 1 : 0);
    CU_ASSERT(run != 0 || info.exited_status == 3);
    met_trace_free(trace);
  }
  remove_folder(dir);
}

/* The "# start-up AGE INIT" lines (docs/tracer.md): those of the rank whose sum is the most (0.5 + 0.2 and 0.7 + 0.1:
 * 0.7 and 0.1; not the most of each, 0.7 and 0.2, which counts twice a rank late to MPI_Init, for which the others
 * wait in it); AGE -1 (unknown) leaves it out; lines with NaN, a negative INIT, a value over a day, a hexadecimal
 * number or a trailing word are left out whole; no line: both NAN. */
static void test_timeline_reads_startup(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  static const char *const lines[][2] = {{"# start-up 0.5 0.2\n", "# start-up 0.7 0.1\n"},
                                         {"# start-up nan 1\n# start-up -1 0.3\n",
                                          "# start-up 1e300 0\n# start-up 5 -2\n# start-up 6 1 s\n# start-up 0x10 0\n"},
                                         {"", ""}};
  static const double age[] = {0.7, NAN, NAN}, init[] = {0.1, 0.3, NAN};
  for (int run = 0; run < 3; run++) {
    write_pair_lines(dir, lines[run], 0);
    met_timeline_info_t info;
    met_trace_t *trace = read_with_info(dir, &info);
    CU_ASSERT_PTR_NOT_NULL(trace);
    CU_ASSERT(isnan(age[run]) ? isnan(info.startup_age) : info.startup_age == age[run]);
    CU_ASSERT(isnan(init[run]) ? isnan(info.startup_init) : info.startup_init == init[run]);
    met_trace_free(trace);
  }
  remove_folder(dir);
}

/* Whether folder `dir` is refused (1), its error into `err`, 1024 bytes. */
static int refused(const char *dir, char *err)
{
  met_trace_t *trace = met_timeline_stream(dir, MET_TL_KEEP, NULL, err, 1024);
  met_trace_free(trace);
  return trace == NULL;
}

/* The markers of ranks that did not finish (incomplete-N), the tracer's "why: " line in one of them (rank 1's: "it
 * called MPI_Abort", as the tracer's MPI_Abort writes it): the refusal names that rank, with the other, and quotes
 * why. A hostile line (a control character, 400 characters) is quoted printable and cut to the room; a marker that is
 * a FIFO is not read (it would never end: the refusal names rank 0's, as without a why). A marker saying its rank
 * called MPI_Abort is named before a lower rank's whose handler of mpirun's SIGTERM exited; a marker is named as its
 * file is, digits beyond an int or with leading zeros included. */
static void test_timeline_marker_says_why(void)
{
  char dir[1024], path[1100], err[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(path, sizeof path, "%s/incomplete-0", dir);
  tu_write_text(path, "rank 0 of 2 has not finished\n");
  snprintf(path, sizeof path, "%s/incomplete-1", dir);
  tu_write_text(path, "rank 1 of 2 has not finished\nwhy: it called MPI_Abort (error code 3)\nwhy: later\n");
  CU_ASSERT(refused(dir, err));
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "/incomplete-1: rank 1 did not finish (nor did 1 other rank): it called "
                                     "MPI_Abort (error code 3); read what the run wrote with simrun analyse "
                                     "--partial, or run it again"));
  char hostile[600] = "rank 1\nwhy: a\001b";
  memset(hostile + strlen(hostile), 'x', 400);
  tu_write_text(path, hostile);
  CU_ASSERT(refused(dir, err));
  CU_ASSERT_PTR_NOT_NULL_FATAL(strstr(err, "rank 1 did not finish (nor did 1 other rank): a?bxxx"));
  CU_ASSERT_PTR_NULL(strchr(err, '\001'));
  size_t xs = strspn(strstr(err, "a?b") + 3, "x");
  CU_ASSERT(xs > 200 && xs < 240); /* cut to the room: the rest of the line follows */
  CU_ASSERT_PTR_NOT_NULL(strstr(err, "x; read what the run wrote"));
  CU_ASSERT_EQUAL(remove(path), 0);
  CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
  CU_ASSERT(refused(dir, err));
  CU_ASSERT_PTR_NOT_NULL(
      strstr(err, "/incomplete-0: rank 0 did not finish (nor did 1 other rank): the run was killed"));
  CU_ASSERT_EQUAL(remove(path), 0);
  /* MPI_Abort's why before the exit mpirun's SIGTERM made a lower rank's handler say */
  tu_write_text(path, "rank 1\nwhy: it called MPI_Abort (error code 4)\n");
  snprintf(path, sizeof path, "%s/incomplete-0", dir);
  tu_write_text(path, "rank 0\nwhy: it exited without calling MPI_Finalize, from its handler of SIGTERM\n");
  CU_ASSERT(refused(dir, err));
  CU_ASSERT_PTR_NOT_NULL(
      strstr(err, "/incomplete-1: rank 1 did not finish (nor did 1 other rank): it called MPI_Abort"));
  /* names as the folder holds them: beyond an int, leading zeros (before: incomplete-1215752191, incomplete-7) */
  static const char *const odd[] = {"incomplete-99999999999", "incomplete-007"};
  snprintf(path, sizeof path, "%s/incomplete-1", dir); /* incomplete-0 stays, with its handler's why */
  for (int k = 0; k < 2; k++) {
    char name[128];
    CU_ASSERT_EQUAL(remove(path), 0);
    snprintf(path, sizeof path, "%s/%s", dir, odd[k]);
    tu_write_text(path, "r\nwhy: it called MPI_Abort (error code 9)\n");
    CU_ASSERT(refused(dir, err));
    snprintf(name, sizeof name,
             "/%s: rank %s did not finish (nor did 1 other rank): it called MPI_Abort (error code 9)", odd[k],
             odd[k] + strlen("incomplete-"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, name));
  }
  remove_folder(dir);
}

/* Writes a 2-rank run into a new folder (make_folder; its path into dir): rank 0 posts `n` MPI_Isend of tag 0 that no
 * wait completes, 10 us apart (each `freed` by an MPI_Request_free line naming it, age 0, 1 us after it), and rank 1
 * receives each 3 us after its posting. */
static void write_isends(char *dir, size_t len, int n, int freed)
{
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, len), 0);
  for (int r = 0; r < 2; r++) {
    char path[1100];
    snprintf(path, sizeof path, "%s/timeline-%d.txt", dir, r);
    FILE *out = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    fprintf(out, "# simrun measured timeline 1\n# rank %d of 2\n# start end category phase peer bytes call tag comm\n",
            r);
    for (int i = 0; i < n; i++) {
      fprintf(out, "%.9f %.9f %s main %d 8 %s 0 0\n", i * 1e-5 + r * 3e-6, i * 1e-5 + 5e-6, r ? "idle" : "comm", 1 - r,
              r ? "MPI_Recv" : "MPI_Isend");
      if (freed && r == 0)
        fprintf(out, "%.9f %.9f ctrl main -1 0 MPI_Request_free 0 0 0\n", i * 1e-5 + 6e-6, i * 1e-5 + 7e-6);
    }
    fprintf(out, "# end %.9f\n", n * 1e-5);
    CU_ASSERT_EQUAL(fclose(out), 0);
  }
}

/* write_isends' run (`freed` or not) read: its 10,000 messages paired, no receive unpaired, and `given_up` sends given
 * up. */
static void isends_given_up(int freed, size_t given_up)
{
  char dir[1024];
  write_isends(dir, sizeof dir, 10000, freed);
  met_timeline_info_t info;
  met_trace_t *trace = read_with_info(dir, &info);
  CU_ASSERT_PTR_NOT_NULL(trace);
  CU_ASSERT_EQUAL(info.matched, 10000);
  CU_ASSERT_EQUAL(info.unmatched, 0);
  CU_ASSERT_EQUAL(info.given_up, given_up);
  met_trace_free(trace);
  remove_folder(dir);
}

/* A rank keeps at least its 4,096 latest operations no wait completed, and gives the older half up when it holds
 * 8,192: 10,000 MPI_Isend never waited, each received: by hand 10,000 messages paired, and 4,096 sends given up
 * (once, at the 8,193rd posting; one at each posting beyond 4,096 would have given 5,904 up), none of them a receive
 * unpaired (before, the report said 4,096 receives unpaired). */
static void test_timeline_gives_up_old_operations_by_half(void)
{
  isends_given_up(0, 4096);
}

/* The same sends each freed by MPI_Request_free, whose line names it: none is outstanding after its free, so none is
 * given up (before, 4,096 were, and said to be receives unpaired: a loop of MPI_Isend and MPI_Request_free at p = 2,
 * by hand). */
static void test_timeline_freed_sends_not_outstanding(void)
{
  isends_given_up(1, 0);
}

/* tests/data/tracer/wait-request: rank 1 posts a receive of tag 1, then of tag 2; rank 0 sends tag 2 at 0.1, tag 1 at
 * 0.5 (both eager). Rank 1 waits on the second receive first (its age 0: the last posting; 0.2-0.25): its sender
 * entered at 0.1, no wait, 0.05 s moving; then on the first (age 1; 0.3-0.6): idle until its sender entered at 0.5 (a
 * late sender, 0.2 s), then 0.1 s moving. Completing the oldest request instead would have made the first wait idle
 * whole (0.05 s) and the second no wait at all. Comm of rank 1: the postings 0.002 + 0.05 + 0.1; of rank 0: its two
 * sends. */
static void test_timeline_wait_completes_its_request(void)
{
  static const char *const runs[] = {RUNS "wait-request", RUNS "compact-wait-request"}; /* formats 1 and 2 */
  for (int i = 0; i < 2; i++) {
    met_trace_t *trace = read_paired(runs[i], 2);
    expect_times(trace, MET_CAT_IDLE, (double[]){0.0, 0.2});
    expect_times(trace, MET_CAT_COMM, (double[]){0.02, 0.152});
    expect_late_sender_only(trace, 1, 0.2);
    met_trace_free(trace);
  }
}

/* tests/data/tracer/waits-named (hand-made): rank 1 posts receives of tags 1, 2 and 3, then waits for the first two
 * with an MPI_Waitall (0.2-0.25) whose line names the younger, tag 2 (age 1), and the other by its mask (1: one posting
 * older); rank 0 sends tag 1 at 0.1 and tag 2 at 0.22, so the waitall is idle 0.02 (a late sender) and moves 0.03.
 * Then rank 1 posts tags 4 and 5, an MPI_Testsome names tag 4 (age 1) alone (0.92-0.93, a poll: idle), and an
 * MPI_Waitsome names tag 5 (age 0) and tag 3 by its mask (2: two postings older), all sent at 0.5-0.53: no wait.
 * Taken by the calls' kinds, the waitall would also have waited for tag 3's sender, at 0.5, and the test completed
 * tag 5 too. Comm of rank 1: the postings 0.003 + 0.02, the waitall's 0.03 and the waitsome's 0.01. */
static void test_timeline_waits_complete_the_requests_they_name(void)
{
  met_trace_t *trace = read_paired(RUNS "waits-named", 5);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.0, 0.03});
  expect_times(trace, MET_CAT_COMM, (double[]){0.05, 0.063});
  expect_late_sender_only(trace, 1, 0.02);
  met_trace_free(trace);
}

/* tests/data/tracer/sendrecv-ring (format 2): a ring of MPI_Sendrecv (rank r sends 8000 bytes to r + 1 and receives
 * from r - 1, tag 3), rank 1 computing 0.5 s, rank 0 0.2 s, rank 2 0.1 s; every call ends at 0.6. Rank 0's receive half
 * found its sender (rank 2) there since 0.1, but its send half lasted past its receiver's entry (rank 1, 0.5): idle
 * 0.2-0.5 (a late receiver, 0.3 s), then 0.1 moving. Rank 2's receive half waits for rank 1's entry (0.5): a late
 * sender, 0.4 s; its send half's receiver (rank 0) entered at 0.2, before it. Rank 1 finds both partners there: no
 * wait. Each rank receives one message: 3 paired, each counted at its receiver, and its send end is kept, empty, at
 * the sender's entry. Read before send-receives gave both halves, every call was
 * communication whole (comm 0.4, 0.1, 0.5) and nothing was paired: sendrecv-old, the same run as it was written then,
 * still reads so. */
static void test_timeline_sendrecv_ring_slow_rank(void)
{
  met_trace_t *trace = read_paired(RUNS "sendrecv-ring", 3);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.3, 0.0, 0.4});
  expect_times(trace, MET_CAT_COMM, (double[]){0.1, 0.1, 0.1});
  expect_times(trace, MET_CAT_COMPUTE, (double[]){0.2, 0.5, 0.1});
  expect_two_waits(trace, 0, MET_WAIT_LATE_RECEIVER, 0.3, 2, MET_WAIT_LATE_SENDER, 0.4);
  for (int r = 0; r < 3; r++) {
    CU_ASSERT_EQUAL(met_trace_comm_count(trace, r), 1);
    const met_interval_t *sent = &met_trace_intervals(trace, r)[1]; /* after the computation: the send end, empty */
    CU_ASSERT(sent->dir == MET_DIR_SEND && sent->peer == (r + 1) % 3 && sent->bytes == 8000 &&
              sent->end == sent->start);
  }
  met_trace_free(trace);
  met_trace_t *old = read_paired(RUNS "sendrecv-old", 0);
  expect_times(old, MET_CAT_IDLE, (double[]){0.0, 0.0, 0.0});
  expect_times(old, MET_CAT_COMM, (double[]){0.4, 0.1, 0.5});
  met_trace_free(old);
}

/* tests/data/tracer/sendrecv-mixed (format 1): rank 0's MPI_Sendrecv (0.1-0.7: 8000 bytes of tag 5 to rank 1, 4000 of
 * tag 6 from it) against rank 1's MPI_Irecv of tag 5 posted at 0.3, MPI_Send of tag 6 at 0.5-0.6 and MPI_Wait
 * 0.6-0.7. Rank 0's halves overlap: its send half waits for the receive posted at 0.3, its receive half for the send
 * entered at 0.5; the call is idle until the later, 0.1-0.5 (0.4 s, a late sender: not the 0.2 + 0.4 s of the halves
 * added), then 0.2 moving. Rank 1's send finds the receive half posted at 0.1 and its wait the message sent at 0.1:
 * no wait; comm 0.01 + 0.1 + 0.1. Then rank 0's second MPI_Sendrecv (0.8-1.0) against rank 1's MPI_Recv (0.7-0.9)
 * and MPI_Send (0.9-1.0): the receive waits for the send half's entry, 0.7-0.8 (a late sender, 0.1 s), then moves
 * 0.1; rank 0's send half found its receiver there, its receive half waits for the send entered at 0.9 (a late
 * sender, 0.1 s), then 0.1 moving; rank 1's send found its receive half there. All 4 messages paired, each counted at
 * its receiver. */
static void test_timeline_sendrecv_against_other_calls(void)
{
  met_trace_t *trace = read_paired(RUNS "sendrecv-mixed", 4);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.5, 0.1});
  expect_times(trace, MET_CAT_COMM, (double[]){0.3, 0.41});
  expect_two_waits(trace, 0, MET_WAIT_LATE_SENDER, 0.5, 1, MET_WAIT_LATE_SENDER, 0.1);
  CU_ASSERT_EQUAL(met_trace_comm_count(trace, 0), 2);
  CU_ASSERT_EQUAL(met_trace_comm_count(trace, 1), 2);
  met_trace_free(trace);
}

/* tests/data/tracer/sendrecv-chain: a chain of two ranks whose ends' other halves are MPI_PROC_NULL (-2): rank 0
 * sends to rank 1 (0.1-0.2) and receives from no one, rank 1 (0.05-0.3) receives from rank 0 and sends to no one.
 * Rank 1's receive half waits for its sender's entry, 0.05-0.1 (a late sender, 0.05 s), then moves 0.2; rank 0's
 * send half found its receiver there: no wait, 0.1 moving. One message, counted at rank 1. */
static void test_timeline_sendrecv_with_proc_null(void)
{
  met_trace_t *trace = read_paired(RUNS "sendrecv-chain", 1);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.1, 0.05}); /* rank 0: 0.1 after its end too */
  expect_times(trace, MET_CAT_COMM, (double[]){0.1, 0.2});
  expect_late_sender_only(trace, 1, 0.05);
  CU_ASSERT_EQUAL(met_trace_comm_count(trace, 0), 0);
  CU_ASSERT_EQUAL(met_trace_comm_count(trace, 1), 1);
  met_trace_free(trace);
}

/* tests/data/tracer/any-source-wait: rank 0 posts a receive from any source at 0 and waits 0.1-0.5 (MPI_Waitany);
 * rank 2 sends first (0.3), so it is that receive's sender (MPI's matching: the earliest send the receive accepts) and
 * the wait is idle until 0.3 (a late sender, 0.2 s); rank 1's later send goes to the receive from rank 1 posted at 0.5,
 * whose wait 0.51-0.6 finds the sender there since 0.5: no wait. Both messages are paired, and counted at rank 0:
 * the first by the MPI_Waitany that completed it (its posting named no sender), the second at its posting. */
static void test_timeline_any_source_matching(void)
{
  met_trace_t *trace = read_paired(RUNS "any-source-wait", 2);
  expect_late_sender_only(trace, 0, 0.2);
  TU_ASSERT_CLOSE(met_trace_category_time(trace, 0, MET_CAT_IDLE), 0.2, 1e-9);
  CU_ASSERT_EQUAL(met_trace_comm_count(trace, 0), 2);
  met_trace_free(trace);
}

/* The bytes of the messages `rank` of `trace` counted as received, in time order, at most 4; their number. */
static int received_at(const met_trace_t *trace, int rank, double bytes[4])
{
  const met_interval_t *iv = met_trace_intervals(trace, rank);
  int n = 0;
  for (size_t i = 0; i < met_trace_count(trace, rank) && n < 4; i++)
    if (iv[i].dir == MET_DIR_RECV && iv[i].category == MET_CAT_COMM)
      bytes[n++] = iv[i].bytes;
  return n;
}

/* tests/data/tracer/any-source-poll: rank 0 posts a receive from any source (16 bytes) and an isend to rank 1, and
 * waits for both 0.02-0.3 (MPI_Waitall, whose line gives the 8 bytes received); rank 1 sent at 0.1 but entered its
 * receive at 0.15, so the send is the last to complete and the waitall idles until 0.15 for it (late receiver: it
 * lasted past the receiver's entry). Then a receive from any source completed by a successful MPI_Testall (0.31-0.5,
 * 4 bytes; rank 1 sent at 0.4). Each receive is counted at the end of the call that completed it with the bytes its
 * line gives: 8 then 4 (before, neither was counted: the first was not the waitall's last operation, the second was
 * completed by a test), and rank 1 counts the isend's 4 at its receive. Three messages paired. */
static void test_timeline_any_source_counted_beside_later_or_by_test(void)
{
  met_trace_t *trace = read_paired(RUNS "any-source-poll", 3);
  double bytes[4];
  CU_ASSERT_EQUAL(received_at(trace, 0, bytes), 2);
  CU_ASSERT(bytes[0] == 8 && bytes[1] == 4);
  CU_ASSERT_EQUAL(met_trace_comm_count(trace, 0), 2);
  CU_ASSERT_EQUAL(met_trace_comm_count(trace, 1), 1);
  met_trace_free(trace);
}

/* tests/data/tracer/any-source-bytes: rank 0 posts a receive from any source into a buffer of 1000 bytes and waits
 * 0.1-0.2; its wait's line gives the 8 bytes received (the tracer writes them since ParFORM, whose 366 506 656-byte
 * buffers were counted as its messages' sizes). The message is counted at the wait with 8 bytes, after 0.05 s of
 * late sender (rank 1 entered its send at 0.15). */
static void test_timeline_any_source_counts_bytes_received(void)
{
  met_trace_t *trace = read_paired(RUNS "any-source-bytes", 1);
  expect_late_sender_only(trace, 0, 0.05);
  size_t n = met_trace_count(trace, 0);
  const met_interval_t *iv = met_trace_intervals(trace, 0);
  int received = 0;
  for (size_t i = 0; i < n; i++)
    if (iv[i].dir == MET_DIR_RECV && iv[i].category == MET_CAT_COMM) {
      TU_ASSERT_CLOSE(iv[i].bytes, 8.0, 1e-12);
      received++;
    }
  CU_ASSERT_EQUAL(received, 1);
  met_trace_free(trace);
}

/* tests/data/tracer/proc-null: rank 0 posts a receive from MPI_PROC_NULL (partner -2) at 0 and waits for it
 * 0.01-0.02, then a receive from any source (-1) at 0.02 and waits 0.03-0.1; rank 1 sends at 0.05. A receive from
 * MPI_PROC_NULL completes at once and never pairs: the send goes to the receive from any source, whose wait is idle
 * until 0.05 (a late sender, 0.02 s), and the first wait is communication. One message paired, none left over. Taken
 * as a receive from any source (as when both were written -1), the first receive would have paired with the send: its
 * wait idle 0.01 s, the second's 0.07 s with no sender. */
static void test_timeline_proc_null_never_pairs(void)
{
  met_trace_t *trace = read_paired(RUNS "proc-null", 1);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.02, 0.0});
  expect_times(trace, MET_CAT_COMM, (double[]){0.08, 0.01});
  expect_late_sender_only(trace, 0, 0.02);
  CU_ASSERT_EQUAL(met_trace_comm_count(trace, 0), 1);
  met_trace_free(trace);
}

/* tests/data/tracer/probe: rank 0 posts a receive of tag 3 from any source at 0, then probes rank 1 for tag 3
 * (0.1-0.5); rank 1 sends tag 3 at 0.05, which the receive posted earlier takes (MPI's matching: a probe sees only
 * messages no receive has taken), and again at 0.4, the message the probe found. The probe is idle until 0.4, a late
 * sender of 0.3 s (as Scalasca counts a probe), then 0.1 s of communication that is no message; its MPI_Recv
 * (0.5-0.55) and the MPI_Wait of the first receive (0.55-0.6) find their senders there: no wait. The MPI_Mprobe
 * (0.7-0.71) finds the tag-4 message sent at 0.65, already there: no wait, and MPI_Mrecv takes it. Three messages
 * paired and counted at rank 0, not five: a probe is no message end (the receive from any source is counted by the
 * wait that completed it, whose sender it learnt). Rank 0's communication: 0.01 + 0.1 + 0.05 + 0.05 + 0.01 + 0.01;
 * rank 1's: its three sends, eager. Paired with the first send, the probe would wait for nothing; without its peer, be
 * idle 0.4 s with no wait state. */
static void test_timeline_probe_waits_for_late_sender(void)
{
  met_trace_t *trace = read_paired(RUNS "probe", 3);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.3, 0.0});
  expect_times(trace, MET_CAT_COMM, (double[]){0.23, 0.03});
  CU_ASSERT_EQUAL(met_trace_comm_count(trace, 0), 3); /* never a probe's */
  expect_late_sender_only(trace, 0, 0.3);
  met_trace_free(trace);
}

/* tests/data/tracer/mprobe: rank 0's MPI_Mprobe (0.1-0.2) finds rank 1's first tag-4 message, sent at 0.15, and takes
 * it out of matching (MPI's matched probe), so its MPI_Recv of tag 4 (0.2-0.5) gets the second, sent at 0.4, and the
 * MPI_Mrecv (0.5-0.51) the first. Rank 0 idles 0.05 s in the probe and 0.2 s in the receive (late senders, 0.25 s),
 * then communicates 0.05 + 0.1 + 0.01 s; rank 1's sends are eager. Were the probed message left to the receive, it
 * would find its sender there (no wait) and rank 0 idle only 0.05 s. */
static void test_timeline_mprobe_keeps_its_message(void)
{
  met_trace_t *trace = read_paired(RUNS "mprobe", 2);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.25, 0.0});
  expect_times(trace, MET_CAT_COMM, (double[]){0.16, 0.02});
  expect_late_sender_only(trace, 0, 0.25);
  CU_ASSERT_EQUAL(met_trace_comm_count(trace, 0), 2);
  met_trace_free(trace);
}

/* `run` read whole, with `collectives` collectives and `matched` messages paired, pairing never stopped. */
static met_trace_t *read_collectives(const char *run, size_t collectives, size_t matched)
{
  met_timeline_info_t info;
  met_trace_t *trace = read_with_info(run, &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT_EQUAL(info.collectives, collectives);
  CU_ASSERT_EQUAL(info.colls_unpaired, 0);
  CU_ASSERT_EQUAL(info.matched, matched);
  return trace;
}

/* One wait state a test expects. */
typedef struct wait {
  int rank;
  met_wait_pattern_t pattern;
  double seconds;
} wait_t;

/* The wait states of `trace`: the `n` of `want`, and no other wait anywhere. */
static void expect_waits(const met_trace_t *trace, const wait_t *want, size_t n)
{
  met_waits_t w;
  CU_ASSERT_EQUAL_FATAL(met_wait_compute(trace, &w), 0);
  double total = 0;
  for (size_t i = 0; i < n; i++) {
    TU_ASSERT_CLOSE(met_wait_time(&w, want[i].rank, want[i].pattern), want[i].seconds, 1e-9);
    total += want[i].seconds;
  }
  TU_ASSERT_CLOSE(met_wait_total(&w, MET_WAIT_PATTERNS), total, 1e-9);
  met_wait_free(&w);
}

/* tests/data/tracer/barrier: the ranks enter a barrier at 0.1, 0.2, 0.5 and all leave at 0.55: idle until the last
 * entered (0.4, 0.3, 0 s: waits at the barrier), then 0.05 s each; an MPI_Allreduce entered at 0.6, 0.65, 0.68 and
 * left at 0.7: 0.08, 0.03, 0 s waiting (N x N), 0.02 s each of communication. */
static void test_timeline_collectives_wait_for_last(void)
{
  met_trace_t *trace = read_collectives(RUNS "barrier", 2, 0);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.48, 0.33, 0.0});
  expect_times(trace, MET_CAT_COMM, (double[]){0.07, 0.07, 0.07});
  expect_waits(
      trace,
      (const wait_t[]){
          {0, MET_WAIT_BARRIER, 0.4}, {1, MET_WAIT_BARRIER, 0.3}, {0, MET_WAIT_NXN, 0.08}, {1, MET_WAIT_NXN, 0.03}},
      4);
  met_trace_free(trace);
}

/* tests/data/tracer/scan: an MPI_Scan entered at 0.5, 0.1 and 0.3 s and left at 0.6 by the three ranks, then an
 * MPI_Exscan entered at 0.7, 0.65 and 0.72 and left at 0.75. Each member waits for the last entry of the members before
 * it (Scalasca's Early Scan; rank 0 for no one): rank 1 0.4 s in the scan (until 0.5) and 0.05 s in the exscan (until
 * 0.7), rank 2 0.2 s in the scan (until 0.5; rank 1 entered before) and none in the exscan (0.7 < 0.72). Then ranks 0
 * and 2 scan on communicator 5 ("# comm 5 0 2"), entered at 0.80 and 0.78, left at 0.82: rank 2 waits 0.02 s; and on
 * communicator 6, whose lines give its members in reverse ("2 0" in rank 2's file, "2:-2:2" in rank 0's, as the tracer
 * writes a split that reorders them),
 * entered at 0.85 and 0.83, left at 0.88: not paired (the spans cannot hold that order), both calls communication as
 * the files give them and counted as such. Idle 0, 0.45 and 0.22 s, communication 0.20, 0.15 and 0.20 s; three
 * collectives paired. Before, every call stayed communication (0.20, 0.60, 0.42 s). tests/data/tracer/scan-older's
 * "# comm 5 0 2" comes from a file whose header does not say that its "# comm" lines give the communicator's order
 * (an older tracer sorted them): its scan of ranks 0 and 2 is not paired (rank 2's 0.1 s before rank 0's entry stays
 * communication), its two calls counted. tests/data/tracer/scan-held: rank 0, the scan's first member, makes 20,000
 * calls (a folded loop) between its scan at 0.1 s and the others' entries at 0.95 s: its scan, which waits for no one,
 * goes into the trace before they entered (the reader holds 16,384 intervals a rank), and the scan and the final
 * barrier are paired, nobody waiting (before, the scan stopped the world's pairing: 0 collectives, "the members'
 * collective calls on a communicator differ"). But tests/data/tracer/bcast-alone's root broadcasts, written before the
 * others' calls, which never come: no collective paired, and the calls said to differ (a helper's review: "1
 * collective paired" without a word in a first form). tests/data/tracer/iscan makes them non-blocking: MPI_Iscan
 * initiated at 0.5, 0.1 and 0.3 s, the waits of ranks 1 and 2 from 0.2 and 0.4 to 0.6: 0.3 and 0.1 s of early scan
 * (until rank 0's 0.5); MPI_Iexscan at 0.7, 0.65 and 0.72, rank 1's wait from 0.66 to 0.75: 0.04 s (until 0.7), rank
 * 2's from 0.73 none; on communicator 5 (ranks 0, 2) at 0.80 and 0.78, rank 2's wait from 0.79: 0.01 s; on 6 (reversed)
 * not paired, its waits (0.02 and 0.04 s) communication. Idle 0, 0.34 and 0.11 s, communication 0.09, 0.17 and
 * 0.22 s. Before, the tracer counted MPI_Iscan and MPI_Iexscan as calls it could not write, and simrun analyse
 * paired none: every wait communication, no early scan. tests/data/tracer/iscan-held: rank 1, the second member of
 * an MPI_Iscan of 4 ranks, makes 17,000 calls after its wait, before rank 3 initiates; its wait goes into the trace
 * (the reader holds 16,384 intervals a rank) and its entry with it, so ranks 2 and 3 are not told what they waited
 * for: no collective paired, the reader said to have held too many (colls_held), no wait invented (a helper's review:
 * "1 collective paired", rank 2's 0.39 s wait for rank 1 dropped without a word). tests/data/tracer/iscan-unpaired:
 * rank 1's MPI_Waitall (0.30 to 0.31 s) completes an MPI_Iscan on a communicator in reverse order (not paired) and a
 * receive from rank 0, whose send the clock condition places after 0.40 s (rank 0 first receives from rank 2, which
 * sent at 0.40): its wait until then is that receive's late sender, 0.1 s and two ticks of the clock condition
 * (MET_TL_TICK: rank 0's receive ends one after rank 2's send, rank 1's one after rank 0's), beside rank 0's 0.35 s
 * (before, rank 1's 0.1 s was early scan in the per-rank sums, of a scan not paired, and nothing read whole). */
static void test_timeline_scans_wait_for_members_before(void)
{
  met_timeline_info_t info;
  met_trace_t *held = read_collectives(RUNS "scan-held", 2, 0);
  expect_times(held, MET_CAT_IDLE, (double[]){0, 0, 0});
  met_trace_free(held);
  held = read_with_info(RUNS "bcast-alone", &info);
  CU_ASSERT(held && info.collectives == 0 && info.colls_unpaired && !info.colls_held);
  met_trace_free(held);
  met_trace_t *moved = read_collectives(RUNS "scan-moved", 1, 1); /* test_timeline_aggregate_same_wait_states's */
  expect_times(moved, MET_CAT_IDLE, (double[]){0.15, 0.05, 0});
  expect_waits(moved, (const wait_t[]){{0, MET_WAIT_LATE_SENDER, 0.15}, {1, MET_WAIT_EARLY_SCAN, 0.05}}, 2);
  met_trace_free(moved);
  met_trace_t *trace = read_collectives(RUNS "scan", 3, 0);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.0, 0.45, 0.22});
  expect_times(trace, MET_CAT_COMM, (double[]){0.20, 0.15, 0.20});
  expect_waits(trace, (const wait_t[]){{1, MET_WAIT_EARLY_SCAN, 0.45}, {2, MET_WAIT_EARLY_SCAN, 0.22}}, 2);
  met_trace_free(trace);
  trace = read_with_info(RUNS "scan", &info);
  CU_ASSERT_EQUAL(info.scans_unordered, 2);
  met_trace_free(trace);
  trace = read_collectives(RUNS "iscan", 3, 0);
  expect_times(trace, MET_CAT_IDLE, (double[]){0, 0.34, 0.11});
  expect_times(trace, MET_CAT_COMM, (double[]){0.09, 0.17, 0.22});
  expect_waits(trace, (const wait_t[]){{1, MET_WAIT_EARLY_SCAN, 0.34}, {2, MET_WAIT_EARLY_SCAN, 0.11}}, 2);
  met_trace_free(trace);
  trace = read_with_info(RUNS "iscan", &info);
  CU_ASSERT_EQUAL(info.scans_unordered, 2);
  met_trace_free(trace);
  trace = read_with_info(RUNS "iscan-unpaired", &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT(info.collectives == 0 && info.scans_unordered == 2 && info.matched == 2);
  expect_waits(trace, (const wait_t[]){{0, MET_WAIT_LATE_SENDER, 0.35}, {1, MET_WAIT_LATE_SENDER, 0.1 + 2e-9}}, 2);
  met_trace_free(trace);
  trace = read_with_info(RUNS "iscan-held", &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT(info.collectives == 0 && info.colls_held && !info.colls_unpaired);
  expect_waits(trace, NULL, 0);
  expect_times(trace, MET_CAT_COMM, (double[]){0.02, 0.01, 0.50, 0.02});
  met_trace_free(trace);
  trace = read_with_info(RUNS "scan-older", &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT_EQUAL(info.collectives, 0);
  CU_ASSERT_EQUAL(info.scans_unordered, 2);
  expect_times(trace, MET_CAT_IDLE, (double[]){0, 0, 0});
  expect_times(trace, MET_CAT_COMM, (double[]){0.1, 0, 0.2});
  met_trace_free(trace);
}

/* `run` read with its tracer's own time removed (its header's "# own time" line): `gaps` s of gaps, then `put_back`
 * s put back and `removed` s of waiting removed to keep causality, `matched` messages paired and none left unpaired,
 * to T_par `t_par`; what the reader found in *info. */
static met_trace_t *read_compensated_info(const char *run, double gaps, double put_back, double removed, size_t matched,
                                          double t_par, met_timeline_info_t *info)
{
  met_trace_t *trace = read_with_info(run, info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT(info->compensated);
  TU_ASSERT_CLOSE(info->own_gaps, gaps, 1e-9);
  TU_ASSERT_CLOSE(info->own_put_back, put_back, 1e-9);
  TU_ASSERT_CLOSE(info->waits_removed, removed, 1e-9);
  CU_ASSERT_EQUAL(info->matched, matched);
  CU_ASSERT_EQUAL(info->unmatched, 0);
  TU_ASSERT_CLOSE(met_trace_end(trace), t_par, 1e-9);
  return trace;
}

/* read_compensated_info without the info. */
static met_trace_t *read_compensated(const char *run, double gaps, double put_back, double removed, size_t matched,
                                     double t_par)
{
  met_timeline_info_t info;
  return read_compensated_info(run, gaps, put_back, removed, matched, t_par, &info);
}

/* tests/data/tracer/own-time: the tracer's own time removed with causality kept (docs/tracer.md). Rank 0, whose tracer
 * took 0.5 s before its MPI_Recv (tag 5) and 0.3 s before its MPI_Wait (tag 6), computes 0.1 s, receives (0.02 s,
 * its sender there since 0.05 s), posts an MPI_Irecv (0.01 s), waits (0.02 s, its sender there since 0.03 s),
 * computes 0.1 s and is in a barrier 0.08 s, which it entered last; rank 1, whose tracer took 0.1 s after its first
 * send, computes 0.55 s, sends tag 5 (0.01 s), computes 0.24 s, sends tag 6 (0.01 s), computes 0.04 s and is in the
 * barrier 0.18 s. Each rank's gaps closed, the receive would start at 0.1 and end at 0.12, before its sender's entry
 * at 0.55: it ends 0.02 s (what it took once its sender was there) after it, at 0.57 (0.45 s later: without the
 * tracer, rank 0 would have waited for rank 1); the Irecv is at 0.57-0.58 and the wait would end at 0.60, before its
 * sender's entry at 0.80 (0.55 + 0.01 + 0.24): it ends at 0.82 (0.22 s later); rank 0 computes 0.82-0.92 and is in the
 * barrier 0.92-1.00. Rank 1 enters it at 0.85 (0.81 + 0.04), waits for rank 0 until 0.92 and leaves 0.08 s later, as
 * rank 0: at 1.00 = T_par, not 1.03 (0.03 s of its wait was rank 0's tracer time). Gaps 0.9 s; 0.67 s put back,
 * 0.03 s of waiting removed. Shifting each rank by its own time alone ends both receives before their senders'
 * entries and caps rank 0's late sender at 0.04 s. */
static void test_timeline_own_time_removed_keeps_causality(void)
{
  met_trace_t *trace = read_compensated(RUNS "own-time", 0.9, 0.67, 0.03, 2, 1.0);
  expect_times(trace, MET_CAT_COMPUTE, (double[]){0.2, 0.83});
  expect_times(trace, MET_CAT_COMM, (double[]){0.13, 0.10});
  expect_two_waits(trace, 0, MET_WAIT_LATE_SENDER, 0.67, 1, MET_WAIT_BARRIER, 0.07);
  const met_interval_t *iv = met_trace_intervals(trace, 0);
  for (size_t i = 0; i < met_trace_count(trace, 0); i++) /* each receive waits until its sender's entry */
    if (iv[i].dir == MET_DIR_RECV && iv[i].category == MET_CAT_IDLE)
      TU_ASSERT_CLOSE(iv[i].end, iv[i].tag == 5 ? 0.55 : 0.80, 1e-9);
  met_trace_free(trace);
}

/* tests/data/tracer/own-time-start: rank 0 reads time 0 itself, so the 0.2 s before its first interval are its
 * tracer's (its time-0 broadcast and header lines; "# tracer-cost 0.25" counts them with the 0.05 s gap after its
 * MPI_Comm_size), as after any call: removed, its computation 0.2-0.9 starts at 0, its MPI_Comm_size at 0.7-0.75, its
 * last computation at 0.75-1.25 = T_par, by hand. Kept, T_par was 1.45 and 0.2 s were idle at p = 1, with no one to
 * wait for (ffindex_apply_mpi under a load of 3: its first gap, 1.6 ms, was its whole idle time). */
static void test_timeline_own_time_before_first_interval(void)
{
  met_trace_t *trace = read_compensated(RUNS "own-time-start", 0.25, 0, 0, 0, 1.25);
  expect_times(trace, MET_CAT_COMPUTE, (double[]){1.2});
  expect_times(trace, MET_CAT_CTRL, (double[]){0.05});
  expect_times(trace, MET_CAT_IDLE, (double[]){0});
  met_trace_free(trace);
}

/* tests/data/tracer/own-time-late: rank 1's clock is early (on another host, say): its MPI_Recv seems to end at 0.3,
 * before rank 0 enters the send at 0.5, and its next interval (a computation 0.3-0.6) is read before that send.
 * Keeping causality puts nothing back (with no gap removed, what is put back is at most 0); the clock condition
 * (met_timeline_clock.h) ends the receive 1 ns after its send, at 0.500000001 (0.2 s + 1 ns later: a late sender of
 * 0.4 s, 0.1-0.5), and the computation after it starts then, 0.2 s + 1 ns shorter, so that T_par stays the files'
 * span, 0.6. Moving every later interval of rank 1 as much made T_par 0.8, 0.2 s beyond what was measured. */
static void test_timeline_own_time_partner_told_late(void)
{
  met_timeline_info_t info;
  met_trace_t *trace = read_compensated_info(RUNS "own-time-late", 0, 0, 0, 1, 0.6, &info);
  expect_times(trace, MET_CAT_COMPUTE, (double[]){0.59, 0.1 - 1e-9});
  expect_late_sender_only(trace, 1, 0.4);
  CU_ASSERT_EQUAL(info.clock_moved, 1);
  CU_ASSERT_EQUAL(info.clock_later, 1);
  TU_ASSERT_CLOSE(info.clock_max, 0.2 + 1e-9, 1e-12);
  met_trace_free(trace);
}

/* tests/data/tracer/cancelled-any-source: HPCC's RandomAccess pattern, which took a p = 2 run of 10.9 s to T_par
 * 28.8 s. Rank 0 posts an MPI_Irecv from any source (0-0.01), polls (0.01-0.10) and its MPI_Testany completes it
 * (0.10-0.11: rank 1 sent at 0.05); it posts another (0.11-0.12), cancels it (0.12-0.13) and its MPI_Wait completes
 * it with 0 bytes (0.13-0.14), as cancelled; both ranks meet in a barrier (rank 0 from 0.14, rank 1 from 0.19, both
 * out at 0.20); rank 0 posts a third receive (0.20-0.21), polls, and its MPI_Testany completes it (0.30-0.31: rank 1
 * sent at 0.25). The cancelled receive leaves matching: rank 1's second message is the third receive's, both pair
 * (none unpaired), nothing moves: T_par 0.31. Rank 0: comm 0.05 (three postings, the cancelled receive's wait: it
 * waited for no one), ctrl 0.01 (the cancel), idle 0.25 (polls 0.18, the tests 0.02, the barrier 0.05 waiting for rank
 * 1); rank 1: compute 0.28, comm 0.03 (two eager sends, its barrier). Left in matching, the cancelled receive took the
 * second message, its wait moved to that send's entry (0.25, read after the wait's end at 0.14), and with it both
 * ranks' barriers: T_par 0.37, 0.11 s put back for no tracer time removed, the third receive without a message. */
static void test_timeline_cancelled_receive_leaves_matching(void)
{
  met_trace_t *trace = read_compensated(RUNS "cancelled-any-source", 0, 0, 0, 2, 0.31);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.25, 0});
  expect_times(trace, MET_CAT_COMM, (double[]){0.05, 0.03});
  expect_times(trace, MET_CAT_CTRL, (double[]){0.01, 0});
  expect_times(trace, MET_CAT_COMPUTE, (double[]){0, 0.28});
  expect_two_waits(trace, 0, MET_WAIT_BARRIER, 0.05, 1, MET_WAIT_LATE_SENDER, 0);
  met_trace_free(trace);
}

/* tests/data/tracer/nbc-poll: a non-blocking collective anchors the test that completed it, as a barrier would. Rank 0
 * posts an MPI_Ibarrier (0-0.01), polls it (0.01-0.30), its tracer takes 0.1 s, and its successful MPI_Test, which
 * names the barrier's request (age 0), is read at 0.40-0.41; it computes until 0.60 and is in an MPI_Barrier
 * 0.60-0.61. Rank 1 computes until 0.38, posts its MPI_Ibarrier (0.38-0.39), waits for it (0.39-0.395), computes and
 * enters the MPI_Barrier at 0.50, which both leave at 0.61. Gap removed, rank 0's test would start at 0.30 and end at
 * 0.31, before rank 1 entered the Ibarrier at 0.38: it ends 0.01 s after that entry, at 0.39 (0.08 s put back: the
 * polls hid the tracer's time), rank 0 computes 0.39-0.58 and enters the barrier last, at 0.58; rank 1 waits there
 * 0.08 s and both leave at 0.59 = T_par (0.02 s of rank 1's wait was rank 0's tracer time). By hand: rank 0 idle
 * 0.29 + 0.09, comm 0.02, computation 0.19; rank 1 computation 0.485, comm 0.01 + 0.005 + 0.01, idle 0.08. The
 * non-blocking collectives and the barrier are paired in one sequence (2 collectives). Before, the Ibarrier's line was
 * no posting, the test completed nothing and stayed at 0.30-0.31: T_par 0.51, nothing put back. */
static void test_timeline_nonblocking_collective_anchors_its_test(void)
{
  met_timeline_info_t info;
  met_trace_t *trace = read_compensated_info(RUNS "nbc-poll", 0.1, 0.08, 0.02, 0, 0.59, &info);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.38, 0.08});
  expect_times(trace, MET_CAT_COMM, (double[]){0.02, 0.025});
  expect_times(trace, MET_CAT_COMPUTE, (double[]){0.19, 0.485});
  expect_two_waits(trace, 0, MET_WAIT_BARRIER, 0, 1, MET_WAIT_BARRIER, 0.08);
  CU_ASSERT_EQUAL(info.collectives, 2);
  met_trace_free(trace);
}

/* tests/data/tracer/loop-acausal: two folded loops of 4 iterations of 1 s whose mean iterations are not in causal
 * order (as when one iteration's stall is spread over every iteration, at a different slot on each rank): rank 0
 * computes 0.3 s, sends (0.1 s), computes 0.5 s and receives (0.1 s); rank 1, from 0.25, receives (0.1 s),
 * computes 0.8 s and sends (0.1 s). Rank 1's receives wait 0.05 s for rank 0's send (k + 0.25 to k + 0.3), but rank 0's
 * receive ends at k + 1.0, 0.15 s before rank 1's send starts (k + 1.15). Keeping causality moves nothing (no gap to
 * remove, nothing put back); the clock condition (met_timeline_clock.h) ends each of rank 0's receives 1 ns after
 * that send, at k + 1.15 + 1 ns (a late sender of 0.25 s each, 1.0 s), and the next iteration's computation starts
 * then, 0.15 s + 1 ns shorter, so that rank 0's next send stays at k + 1.3 and T_par at 4.25 (rank 1's end; rank 0's
 * last receive ends at 4.150000001); rank 1's receives wait 0.05 s each (0.2 s). Moving rank 0's later intervals by
 * the whole jump would delay its next send by 0.15 s, then rank 1's receive, then its send, 0.15 s more each
 * iteration: T_par 4.7. */
static void test_timeline_loop_mean_not_moved_past_read(void)
{
  met_timeline_info_t info;
  met_trace_t *trace = read_compensated_info(RUNS "loop-acausal", 0, 0, 0, 8, 4.25, &info);
  expect_two_waits(trace, 0, MET_WAIT_LATE_SENDER, 1.0, 1, MET_WAIT_LATE_SENDER, 0.2);
  CU_ASSERT_EQUAL(info.clock_moved, 4);
  CU_ASSERT_EQUAL(info.clock_later, 3);
  TU_ASSERT_CLOSE(info.clock_total, 4 * (0.15 + 1e-9), 1e-9);
  met_trace_free(trace);
}

/* The end of `rank`'s first COMM interval that is a message's `dir` end (its receive's end, its send's start for
 * MET_DIR_SEND), or NAN. */
static double message_time(const met_trace_t *trace, int rank, met_dir_t dir)
{
  const met_interval_t *iv = met_trace_intervals(trace, rank);
  for (size_t i = 0; i < met_trace_count(trace, rank); i++)
    if (iv[i].category == MET_CAT_COMM && iv[i].dir == dir)
      return dir == MET_DIR_SEND ? iv[i].start : iv[i].end;
  return NAN;
}

/* tests/data/tracer/clock-condition (no own time removed): rank 0 sends to rank 1 at 0.5-0.51 (its receive entered at
 * 0.3: a rendezvous, sent at 0.5); rank 1's clock is early, its MPI_Recv 0.3-0.49 ends before that send, and its send
 * to rank 2 is read at 0.49-0.491; rank 2 posts an MPI_Irecv 0.40-0.41 and its MPI_Wait 0.45-0.495 ends after that
 * send as read. The clock condition (met_timeline_clock.h, l_min 1 ns): rank 1's receive ends at 0.500000001 (moved
 * 0.010000001 s; a late sender 0.3-0.5, 0.2 s), its send starts then (its computation after it 0.500000001-0.6), so
 * that rank 2's wait, which now ends before that send, ends at 0.500000002 (moved 0.005000002 s; a late sender
 * 0.45-0.500000001), its computation then 0.500000002-0.6. Two receives moved, 0.010000001 s at most, 0.015000003 s in
 * all, three intervals after them made to start later; T_par stays 0.6. Computation: 0.59; 0.3 + 0.099999999; 0.4 +
 * 0.04 + 0.099999998. Without the condition, rank 1's receive ended 0.01 s before its message was sent (a late sender
 * of 0.19 s) and ViTE aborts on such an OTF2 archive. */
static void test_timeline_clock_condition(void)
{
  met_timeline_info_t info;
  met_trace_t *trace = read_with_info(RUNS "clock-condition", &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT_EQUAL(info.matched, 2);
  TU_ASSERT_CLOSE(met_trace_end(trace), 0.6, 1e-12);
  TU_ASSERT_CLOSE(message_time(trace, 0, MET_DIR_SEND), 0.5, 1e-12);
  TU_ASSERT_CLOSE(message_time(trace, 1, MET_DIR_RECV), 0.5 + 1e-9, 1e-12);
  TU_ASSERT_CLOSE(message_time(trace, 1, MET_DIR_SEND), 0.5 + 1e-9, 1e-12);
  TU_ASSERT_CLOSE(message_time(trace, 2, MET_DIR_RECV), 0.5 + 2e-9, 1e-12);
  expect_times(trace, MET_CAT_COMPUTE, (double[]){0.59, 0.4 - 1e-9, 0.54 - 2e-9});
  expect_two_waits(trace, 1, MET_WAIT_LATE_SENDER, 0.2, 2, MET_WAIT_LATE_SENDER, 0.05 + 1e-9);
  CU_ASSERT_EQUAL(info.clock_moved, 2);
  CU_ASSERT_EQUAL(info.clock_later, 3);
  TU_ASSERT_CLOSE(info.clock_max, 0.01 + 1e-9, 1e-12);
  TU_ASSERT_CLOSE(info.clock_total, 0.015 + 3e-9, 1e-12);
  met_trace_free(trace);
}

/* tests/data/tracer/polling: rank 0 polls (MPI_Test 0.01-0.1, MPI_Testany 0.2-0.3) for a message rank 1 sends at
 * 0.3: polling is waiting (idle 0.09 + 0.1), not control (0); its MPI_Wait 0.3-0.35 is the transfer. */
static void test_timeline_polling_is_waiting(void)
{
  met_trace_t *trace = read_with_info(RUNS "polling", NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.19, 0.0});
  expect_times(trace, MET_CAT_CTRL, (double[]){0.0, 0.0});
  expect_times(trace, MET_CAT_COMM, (double[]){0.06, 0.05});
  met_trace_free(trace);
}

/* Polls with no one to wait for are control of parallelism, not idle (docs/tracer.md). tests/data/tracer/polls-alone,
 * p = 1 (format 2, as the tracer writes runs of polls): an MPI_Irecv from any source (0-0.01), 6000 MPI_Testany
 * (0.01-0.61), a computation (0.61-0.71), 500 MPI_Iprobe (0.71-0.81), the receive cancelled (0.81-0.82) and its
 * MPI_Wait (0.82-0.83, 0 bytes), 40 MPI_Testall with nothing posted (0.83-0.93): ctrl 0.6 + 0.1 + 0.01 + 0.1 = 0.81,
 * comm 0.02 (the posting, the cancelled receive's wait), compute 0.1, idle 0 (before: 0.81 idle, as the 62% of HPCC
 * at p = 1). polls-self, p = 2: rank 0 posts a receive from itself (0-0.01), polls (0.01-0.20), sends itself the
 * message (0.20-0.21) and waits for both (0.21-0.22): ctrl 0.19, comm 0.03; rank 1 computes 0.22. */
static void test_timeline_polls_without_partner_are_control(void)
{
  met_trace_t *trace = read_with_info(RUNS "polls-alone", NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  expect_times(trace, MET_CAT_CTRL, (double[]){0.81});
  expect_times(trace, MET_CAT_IDLE, (double[]){0});
  expect_times(trace, MET_CAT_COMM, (double[]){0.02});
  expect_times(trace, MET_CAT_COMPUTE, (double[]){0.1});
  met_trace_free(trace);
  trace = read_paired(RUNS "polls-self", 1);
  expect_times(trace, MET_CAT_CTRL, (double[]){0.19, 0});
  expect_times(trace, MET_CAT_IDLE, (double[]){0, 0});
  expect_times(trace, MET_CAT_COMM, (double[]){0.03, 0});
  met_trace_free(trace);
  /* waits-alone, p = 1: an MPI_Ibarrier (0-0.01) and its MPI_Wait (0.1-0.2), an MPI_Iallreduce (0.2-0.21) and its
   * MPI_Waitall (0.21-0.26), requests the timeline does not pair: the waits are control, 0.1 + 0.05 s, beside the
   * Ibarrier's 0.01 (before: 0.15 s idle at p = 1) */
  trace = read_with_info(RUNS "waits-alone", NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  expect_times(trace, MET_CAT_IDLE, (double[]){0});
  expect_times(trace, MET_CAT_CTRL, (double[]){0.16});
  expect_times(trace, MET_CAT_COMM, (double[]){0.01});
  expect_times(trace, MET_CAT_COMPUTE, (double[]){0.09});
  met_trace_free(trace);
}

/* Each interval names its MPI call as its timeline line does (met_interval_t.call: its id on the call's first piece,
 * minus it on the others), a run of polls with format 2's count: tests/data/tracer/polls-alone's calls in order,
 * MPI_Irecv, MPI_Testany*6000, MPI_Iprobe*500, MPI_Cancel, MPI_Wait, MPI_Testall*40, the computation naming none; an
 * aggregate trace keeps no name. tests/data/tracer/last-call-empty: rank 0's calls of no time, MPI_Comm_rank between
 * two computations and MPI_Comm_size last, each an empty interval at its time (before, neither had one, and the
 * exports no region; a helper's review found the last one still missing once the first was kept). */
static void test_timeline_intervals_name_their_calls(void)
{
  met_trace_t *trace = read_with_info(RUNS "polls-alone", NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  static const char *const calls[] = {"MPI_Irecv",  "MPI_Testany*6000", "MPI_Iprobe*500",
                                      "MPI_Cancel", "MPI_Wait",         "MPI_Testall*40"};
  const met_interval_t *iv = met_trace_intervals(trace, 0);
  size_t n = 0, computations = 0;
  for (size_t i = 0; i < met_trace_count(trace, 0); i++) {
    computations += iv[i].call == 0 && iv[i].category == MET_CAT_COMPUTE;
    if (iv[i].call > 0 && n < 6)
      CU_ASSERT_STRING_EQUAL(met_trace_call_name(trace, iv[i].call), calls[n]);
    n += iv[i].call > 0;
  }
  CU_ASSERT_EQUAL(n, 6);
  CU_ASSERT_EQUAL(computations, 1);
  met_trace_free(trace);
  char err[1024] = "";
  trace = met_timeline_stream(RUNS "polls-alone", 0, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT_EQUAL(met_trace_call_count(trace), 0);
  met_trace_free(trace);
  trace = read_with_info(RUNS "last-call-empty", NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  CU_ASSERT_EQUAL_FATAL(met_trace_count(trace, 0), 4);
  iv = met_trace_intervals(trace, 0);
  CU_ASSERT(iv[1].start == 0.5 && iv[1].end == 0.5 && iv[1].category == MET_CAT_CTRL);
  CU_ASSERT_STRING_EQUAL(met_trace_call_name(trace, iv[1].call), "MPI_Comm_rank");
  CU_ASSERT(iv[3].start == 0.6 && iv[3].end == 0.6);
  CU_ASSERT_STRING_EQUAL(met_trace_call_name(trace, iv[3].call), "MPI_Comm_size");
  met_trace_free(trace);
}

/* tests/data/tracer/sub-barrier: ranks 0 and 1 call MPI_Barrier, rank 2 none (a sub-communicator the timeline does
 * not name): the barrier is not paired, and stays as the file gives it (rank 0 idle 0.2 s). tests/data/tracer/
 * root-differ: an MPI_Bcast of the three ranks whose line names root 0 on ranks 0 and 2, root 1 on rank 1: not the same
 * call, not paired, its communication as the files give it (a helper's review: "1 collective paired" before, the
 * roots not compared). */
static void test_timeline_sub_communicator_not_paired(void)
{
  met_timeline_info_t info;
  met_trace_t *trace = read_with_info(RUNS "sub-barrier", &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.2, 0.0, 0.0});
  CU_ASSERT_EQUAL(info.colls_unpaired, 1);
  CU_ASSERT_EQUAL(info.collectives, 0);
  met_trace_free(trace);
  trace = read_with_info(RUNS "root-differ", &info);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  expect_times(trace, MET_CAT_COMM, (double[]){0.1, 0.05, 0.02});
  CU_ASSERT_EQUAL(info.colls_unpaired, 1);
  CU_ASSERT_EQUAL(info.collectives, 0);
  met_trace_free(trace);
}

/* tests/data/tracer/sub-coll-named: ranks 0 and 1 call MPI_Allreduce on a sub-communicator whose line names it (key
 * 77, as the tracer writes since Debian's NWChem and CP2K), then all three ranks an MPI_Barrier. The sub-communicator's
 * call stays as the file gives it (communication, no N x N wait) and the world's barrier is paired after it: waits at
 * the barrier until rank 2 entered at 0.8, rank 0 from 0.4 (0.4 s), rank 1 from 0.5 (0.3 s), then 0.1 s of
 * communication each. Before, the Allreduce counted as the first collective of every rank: rank 2's was a Barrier, so
 * pairing stopped there (NWChem at p = 4: 226 of its 6867 collectives paired), and where every rank's call had the
 * same name on different sub-communicators (CP2K's Alltoallv on two pairs of ranks) it was paired as one call of all.
 */
static void test_timeline_sub_communicator_named_not_paired(void)
{
  met_trace_t *trace = read_collectives(RUNS "sub-coll-named", 1, 0);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.4, 0.3, 0.0});
  expect_times(trace, MET_CAT_COMM, (double[]){0.3, 0.11, 0.1});
  expect_two_waits(trace, 0, MET_WAIT_BARRIER, 0.4, 1, MET_WAIT_BARRIER, 0.3);
  met_trace_free(trace);
}

/* tests/data/tracer/sub-coll-defined: the files define their sub-communicators ("# comm KEY MEMBERS", as the tracer
 * writes since CP2K at p = 4, whose 2,358 collectives on 104 sub-communicators stayed unpaired): an MPI_Allreduce on
 * ranks 0 and 1 (key 77, its members listed in either order), entered at 0.1 and 0.3: rank 0 waits 0.2 s (N x N), then
 * communicates until 0.32; an MPI_Bcast on ranks 0 and 2 (key 88, as FIRST:STRIDE:COUNT) from world rank 2, entered
 * at 0.4 and by the root at 0.7, left at 0.75: rank 0 waits 0.3 s for the root (late broadcast), then 0.05 s; a
 * barrier of all, entered at 0.8, 0.8, 0.85: 0.05 s of waiting at ranks 0 and 1, then 0.05 s each. By hand: idle
 * 0.55, 0.05, 0; communication 0.02 + 0.05 + 0.05, 0.01 + 0.05, 0.05 + 0.05. Without the "# comm" lines (the
 * same calls in sub-coll-named) the sub-communicators' calls stay as the files give them, counted as undefined. */
static void test_timeline_sub_communicator_defined_paired(void)
{
  met_timeline_info_t info;
  met_trace_t *trace = read_collectives(RUNS "sub-coll-defined", 3, 0);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.55, 0.05, 0.0});
  expect_times(trace, MET_CAT_COMM, (double[]){0.12, 0.06, 0.1});
  expect_waits(trace,
               (const wait_t[]){{0, MET_WAIT_NXN, 0.2},
                                {0, MET_WAIT_LATE_BCAST, 0.3},
                                {0, MET_WAIT_BARRIER, 0.05},
                                {1, MET_WAIT_BARRIER, 0.05}},
               4);
  met_trace_free(trace);
  trace = read_with_info(RUNS "sub-coll-defined", &info);
  CU_ASSERT_EQUAL(info.colls_undefined, 0);
  met_trace_free(trace);
  trace = read_with_info(RUNS "sub-coll-named", &info);
  CU_ASSERT_EQUAL(info.colls_undefined, 2);
  met_trace_free(trace);
}

/* tests/data/tracer/rooted: rooted collectives whose lines give their root (the tracer writes it since Debian's
 * Quantum ESPRESSO, issue 26's check). An MPI_Bcast from rank 1, entered at 0.1, 0.5 (the root, last) and 0.2, left at
 * 0.6: ranks 0 and 2 wait for the root until 0.5 (late broadcast, 0.4 and 0.3 s), then 0.1 s of communication each;
 * an MPI_Reduce to rank 0, entered at 1.0 (the root), 1.3 and 1.4, left at 1.5: the root waits until the first other
 * member entered (early reduce, 0.3 s), then 0.2 s of communication; the others communicate 0.2 and 0.1 s. An
 * MPI_Gather on ranks 0 and 1 (key 77) and an MPI_Bcast written before roots (partner -1) stay as the file gives
 * them (communication: 0.2 + 0.1, 0.1 + 0.1, 0.1 s). No message: a root is no partner of a message. Before, both
 * rooted calls were communication whole (0.5 + 0.5 s at rank 0). */
static void test_timeline_rooted_collectives_wait_for_root(void)
{
  met_trace_t *trace = read_collectives(RUNS "rooted", 2, 0);
  CU_ASSERT_EQUAL(met_comm_messages(trace), 0);
  expect_times(trace, MET_CAT_IDLE, (double[]){0.7, 0.0, 0.3});
  expect_times(trace, MET_CAT_COMM, (double[]){0.6, 0.5, 0.3});
  expect_waits(
      trace,
      (const wait_t[]){{0, MET_WAIT_LATE_BCAST, 0.4}, {2, MET_WAIT_LATE_BCAST, 0.3}, {0, MET_WAIT_EARLY_REDUCE, 0.3}},
      3);
  met_trace_free(trace);
}

/* An aggregate read gives the same figures as a full one (the halo's). */
static void test_timeline_aggregate_same_figures(void)
{
  char err[1024] = "";
  met_trace_t *full = met_timeline_stream(RUNS "halo", MET_TL_KEEP, NULL, err, sizeof err);
  met_trace_t *sums = met_timeline_stream(RUNS "halo", 0, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(full);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sums);
  CU_ASSERT(met_trace_is_aggregate(sums));
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < MET_CAT_COUNT; c++)
      CU_ASSERT_EQUAL(met_trace_category_time(full, r, (met_category_t)c),
                      met_trace_category_time(sums, r, (met_category_t)c));
  met_trace_free(full);
  met_trace_free(sums);
}

/* The wait states of one folder read whole and read as sums (summed while pairing); the patterns where any rank lost
 * time counted into seen[]. Folders the reader refuses are skipped (returns 0), the others 1. */
static int same_waits_both_ways(const char *dir, int *seen)
{
  char err[1024] = "";
  met_trace_t *full = met_timeline_stream(dir, MET_TL_KEEP, NULL, err, sizeof err);
  if (!full)
    return 0;
  met_trace_t *sums = met_timeline_stream(dir, 0, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sums);
  met_waits_t a, b;
  CU_ASSERT_EQUAL_FATAL(met_wait_compute(full, &a), 0);
  CU_ASSERT_EQUAL_FATAL(met_wait_compute(sums, &b), 0);
  for (int r = 0; r < met_trace_nranks(full); r++)
    for (int k = 0; k < MET_WAIT_PATTERNS; k++) {
      double x = met_wait_time(&a, r, (met_wait_pattern_t)k), y = met_wait_time(&b, r, (met_wait_pattern_t)k);
      CU_ASSERT(fabs(x - y) <= 1e-9 * fmax(1, fabs(x)));
      if (!(fabs(x - y) <= 1e-9 * fmax(1, fabs(x))))
        fprintf(stderr, "%s rank %d %s: %.9g read whole, %.9g as sums\n", dir, r, met_wait_name(k), x, y);
      seen[k] += x > 0;
    }
  met_wait_free(&a);
  met_wait_free(&b);
  met_trace_free(full);
  met_trace_free(sums);
  return 1;
}

/* A run read as per-rank sums (simrun analyse, timelines over 32 MiB) keeps no interval, so its wait states are
 * summed as its calls are paired: on every folder of tests/data/tracer that reads, they equal met_wait.h's from the
 * same folder read whole, rank by rank and pattern by pattern; the folders hold every pattern. Before, a run read as
 * sums had no wait states at all (Debian's ABySS at p = 2 and 4); and tests/data/tracer/scan-moved, whose clock
 * condition moves rank 0's scan from 0.2 to 0.25 s after rank 1 entered it at 0.15 s, had 50 ms of early scan summed
 * (rank 1's idle, by the entries as read) against 100 ms from the spans as placed, over its idle time. */
static void test_timeline_aggregate_same_wait_states(void)
{
  DIR *d = opendir(RUNS);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  int seen[MET_WAIT_PATTERNS] = {0}, read = 0;
  for (struct dirent *e; (e = readdir(d));) {
    char dir[1024];
    snprintf(dir, sizeof dir, RUNS "%s", e->d_name);
    struct stat st;
    if (e->d_name[0] != '.' && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
      read += same_waits_both_ways(dir, seen);
  }
  closedir(d);
  CU_ASSERT(read >= 20);
  for (int k = 0; k < MET_WAIT_PATTERNS; k++) {
    CU_ASSERT(seen[k] > 0);
    if (!seen[k])
      fprintf(stderr, "no folder holds %s\n", met_wait_name(k));
  }
}

/* Folded loops (docs/tracer.md): tests/data/tracer/loop-unfolded is a hand-made ping-pong of 4 iterations of 1 s
 * (rank 0: computes 0.1, sends 0.1, receives 0.7; rank 1: receives 0.3, computes 0.25, sends 0.3; the rest of each
 * period spread evenly after each call, as the reader unfolds a loop); loop-folded is the same run written as the
 * tracer folds it, one loop per rank of each slot's mean times; loop-varied changes rank 1's computation per
 * iteration (0.15, 0.35, 0.2, 0.3: mean 0.25, each send still after rank 0's receive posted). By hand: rank 0 waits
 * for a late sender 4 x (0.625 - 0.25) = 1.5 s, rank 1 4 x 0.1 = 0.4 s; rank 0 computes 0.4 s, rank 1 1.0 s. The
 * folded run gives the unfolded one's figures; the varied one's too, as each wait is linear in the times (the
 * approximation: every iteration of a fold is its mean iteration). */
static void test_timeline_folded_loop_as_unfolded(void)
{
  static const char *const runs[] = {RUNS "loop-unfolded", RUNS "loop-varied", RUNS "loop-folded",
                                     RUNS "compact-loop-varied"};
  double idle[2] = {0};
  for (int i = 0; i < 4; i++) {
    met_timeline_info_t info;
    met_trace_t *trace = read_with_info(runs[i], &info);
    CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
    expect_times(trace, MET_CAT_COMPUTE, (double[]){0.4, 1.0});
    expect_times(trace, MET_CAT_COMM, (double[]){4 * 0.1 + 4 * 0.7 - 1.5, 4 * 0.3 + 4 * 0.3 - 0.4});
    for (int r = 0; r < 2 && i == 0; r++) /* the waits, the library's gaps and the end-of-run wait */
      idle[r] = met_trace_category_time(trace, r, MET_CAT_IDLE);
    expect_times(trace, MET_CAT_IDLE, idle);
    met_waits_t w;
    CU_ASSERT_EQUAL_FATAL(met_wait_compute(trace, &w), 0);
    TU_ASSERT_CLOSE(met_wait_time(&w, 0, MET_WAIT_LATE_SENDER), 1.5, 1e-9);
    TU_ASSERT_CLOSE(met_wait_time(&w, 1, MET_WAIT_LATE_SENDER), 0.4, 1e-9);
    met_wait_free(&w);
    CU_ASSERT_EQUAL(info.matched, 8);
    met_trace_free(trace);
  }
}

/* Reads `folder`, which must fail with exactly `message`. */
static void expect_refused(const char *folder, const char *message)
{
  char err[2048] = "";
  met_trace_t *trace = met_timeline_stream(folder, MET_TL_KEEP, NULL, err, sizeof err);
  CU_ASSERT_PTR_NULL(trace);
  met_trace_free(trace);
  CU_ASSERT_STRING_EQUAL(err, message);
}

/* Hostile "# comm" lines in rank 0's file of a 3-rank run (written into a new folder), each refused in one line naming
 * the file and line; one defining key 5 as ranks 0 and 1 in rank 0's file and as 0 and 2 in rank 2's (two communicators
 * whose keys collide) is read, neither paired. */
static void test_timeline_refuses_bad_comm_lines(void)
{
  static const struct {
    const char *line, *problem;
  } cases[] = {
      {"# comm 0 0 1", "a communicator's key must be a whole number > 0 and its members 1 to the run's ranks"},
      {"# comm 5", "a communicator's key must be a whole number > 0 and its members 1 to the run's ranks"},
      {"# comm 5 0 3", "a '# comm' line is '# comm KEY' and the members' ranks, each R or FIRST:STRIDE:COUNT"},
      {"# comm 5 0 0", "a communicator's members must be distinct ranks of the run"},
      {"# comm 5 1 2", "the communicator does not have the rank whose file defines it"},
      {"# comm 5 0:0:2", "a '# comm' line is '# comm KEY' and the members' ranks, each R or FIRST:STRIDE:COUNT"},
      {"# comm 5 0:-1:2", "a '# comm' line is '# comm KEY' and the members' ranks, each R or FIRST:STRIDE:COUNT"},
      {"# comm 5 2:-3:2", "a '# comm' line is '# comm KEY' and the members' ranks, each R or FIRST:STRIDE:COUNT"},
      {"# comm 5 2:-9223372036854775807:2",
       "a '# comm' line is '# comm KEY' and the members' ranks, each R or FIRST:STRIDE:COUNT"},
      {"# comm 5 2:-1:2 1", "a communicator's members must be distinct ranks of the run"},
      {"# comm 5 0:1:4", "a '# comm' line is '# comm KEY' and the members' ranks, each R or FIRST:STRIDE:COUNT"},
      {"# comm 5 0:9223372036854775807:2",
       "a '# comm' line is '# comm KEY' and the members' ranks, each R or FIRST:STRIDE:COUNT"},
      {"# comm 99999999999 0 1",
       "a '# comm' line is '# comm KEY' and the members' ranks, each R or FIRST:STRIDE:COUNT"},
      {"# comm 5 0 x", "a '# comm' line is '# comm KEY' and the members' ranks, each R or FIRST:STRIDE:COUNT"},
      {"# comm 5 0 1 0 1", "a '# comm' line is '# comm KEY' and the members' ranks, each R or FIRST:STRIDE:COUNT"},
      {"# comm 5 0 1", NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char dir[1024];
    CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
    for (int r = 0; r < 3; r++) {
      char path[1100];
      snprintf(path, sizeof path, "%s/timeline-%d.txt", dir, r);
      FILE *out = fopen(path, "w");
      CU_ASSERT_PTR_NOT_NULL_FATAL(out);
      fprintf(out, "# simrun measured timeline 1\n# rank %d of 3\n%s\n", r,
              r == 0   ? cases[i].line
              : r == 2 ? "# comm 5 0 2"
                       : "#");
      fprintf(out, "0.0 0.1 comm main -1 8 MPI_Allreduce -1 5\n# end 0.1\n");
      CU_ASSERT_EQUAL(fclose(out), 0);
    }
    char expected[2048], err[2048] = "";
    snprintf(expected, sizeof expected, "%s/timeline-0.txt:3: %s; trace the run again (docs/tracer.md)", dir,
             cases[i].problem ? cases[i].problem : "");
    met_timeline_info_t info;
    met_trace_t *trace = met_timeline_stream(dir, MET_TL_KEEP, &info, err, sizeof err);
    CU_ASSERT((trace != NULL) == (cases[i].problem == NULL));
    if (cases[i].problem) {
      CU_ASSERT_STRING_EQUAL(err, expected);
    } else {
      CU_ASSERT(trace && info.collectives == 0 && info.colls_unpaired);
    }
    met_trace_free(trace);
    remove_folder(dir);
  }
}

/* A run killed before MPI_Finalize: rank 1's file of tests/data/tracer/cut stops after its MPI_Recv (line 5, no
 * "# end"); killed/ has half a line more; killed-zstd/ is killed/ compressed by zstd, rank 1's file as two frames, its
 * first 5 lines and the rest, the second cut short 6 bytes before its end (a run killed while writing a large file).
 * Each is read up to line 5, rank 1's intervals ending at 0.8 s, and named as cut short there. */
static void test_timeline_reads_cut_file_to_last_whole_line(void)
{
  static const char *const folders[] = {RUNS "cut", RUNS "killed", RUNS "killed-zstd"};
  for (int i = 0; i < 3; i++) {
    char err[2048] = "";
    met_trace_t *trace = met_timeline_stream(folders[i], MET_TL_KEEP, NULL, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
    TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_COMPUTE), 0.4, 1e-12);
    TU_ASSERT_CLOSE(met_trace_category_time(trace, 1, MET_CAT_COMM), 0.2, 1e-12); /* the receive's transfer */
    char expected[2048];
    snprintf(expected, sizeof expected,
             "%s/timeline-1.txt:5: cut short: the file ends before its '# end' line (the run stopped before "
             "MPI_Finalize, or is still running); read up to its last whole line",
             folders[i]);
    CU_ASSERT_STRING_EQUAL(err, expected);
    met_trace_free(trace);
  }
}

/* A zstd file whose checksum does not match its text (zstd-damaged: two-ranks compressed, the last byte of rank 1's
 * file changed) is refused as damaged, at the line being read. */
static void test_timeline_refuses_damaged_zstd(void)
{
  expect_refused(RUNS "zstd-damaged", RUNS "zstd-damaged/timeline-1.txt:1: damaged zstd data (Restored data doesn't "
                                           "match checksum); trace the run again (docs/tracer.md)");
}

/* A compressed file cut before its first whole block (zstd-cut-early: two-ranks' rank 1 compressed by zstd, its first
 * 20 bytes) is named as cut, not as empty; a timeline of a later format (format-future: two-ranks with format 3) is
 * named as a newer simrun's, not as "not a measured timeline". */
static void test_timeline_names_early_cut_and_future_format(void)
{
  expect_refused(RUNS "zstd-cut-early",
                 RUNS "zstd-cut-early/timeline-1.txt:1: the file is compressed and was cut short "
                      "before its first whole block: the run was killed while writing it; trace "
                      "the run again (docs/tracer.md)");
  expect_refused(RUNS "format-future",
                 RUNS "format-future/timeline-0.txt:1: a timeline of format 3, which a newer simrun "
                      "wrote; this one reads formats 1 and 2: analyse it with the simrun whose "
                      "libsimrun-trace.so traced the run");
}

/* A loop whose mean calls, times its count, outlast its span is refused at its line (loop-bad: 4 x 0.9 s in 3 s). */
static void test_timeline_refuses_loop_too_long(void)
{
  expect_refused(RUNS "loop-bad", RUNS "loop-bad/timeline-0.txt:4: the loop's mean computations and calls times its "
                                       "count last longer than the loop; trace the run again (docs/tracer.md)");
}

/* A loop that unfolds to 2^22 + 1 calls is refused when the run is to be kept whole (it would hold them all; simrun
 * analyse reads such a run as sums), and read as sums: 4194305 x 0.5 s of MPI_Comm_dup (ctrl). The bound, 2^20
 * intervals, is the run's: two ranks of 2^19 + 1 calls each (under it alone) are refused together, at the second's
 * loop (a 600-byte folder of eight files of 2^22 calls took 5.6 GB before, each file bounded alone). */
static void test_timeline_bounds_loops_kept_whole(void)
{
  const char *why = "the run's lines and loops unfold to more than 2^20 intervals, too many to keep whole (simrun "
                    "analyse reads such a run as per-rank sums); trace the run again (docs/tracer.md)";
  char want[1024];
  snprintf(want, sizeof want, "%s: %s", RUNS "loop-huge/timeline-0.txt:3", why);
  expect_refused(RUNS "loop-huge", want);
  snprintf(want, sizeof want, "%s: %s", RUNS "loop-huge-ranks/timeline-1.txt:3", why);
  expect_refused(RUNS "loop-huge-ranks", want);
  char err[1024] = "";
  met_trace_t *sums = met_timeline_stream(RUNS "loop-huge", 0, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(sums);
  TU_ASSERT_CLOSE(met_trace_category_time(sums, 0, MET_CAT_CTRL), 4194305 * 0.5, 1e-3);
  met_trace_free(sums);
}

/* tests/data/tracer/mixed-runs: two-ranks' files, each with a "# run" line of its own (rank 1's from a run started
 * 6000 s later by another process), as a folder traced into twice leaves them: refused in one line naming both. */
static void test_timeline_refuses_mixed_runs(void)
{
  expect_refused(RUNS "mixed-runs", RUNS "mixed-runs/timeline-1.txt:5: run node1 4107 1764036000.000000000, where " RUNS
                                         "mixed-runs/timeline-0.txt:5: run node1 4100 1764030000.000000000: the folder "
                                         "mixes the files of two runs; trace the program again into an empty folder "
                                         "(SIMRUN_TRACE_DIR)");
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

/* tests/data/tracer/bad-request: an MPI_Irecv whose request number is -5 (a number >= 0, or -1 for none). */
static void test_timeline_refuses_bad_request(void)
{
  expect_refused(RUNS "bad-request", RUNS "bad-request/timeline-0.txt:6: the request must be a whole number >= 0 (or "
                                          "-1: none; -2 on a wait's or test's line: none the timeline holds); trace "
                                          "the run again (docs/tracer.md)");
}

/* tests/data/tracer/bad-others: an MPI_Send line with a mask of other requests after its request (only a wait's or
 * test's line has one). */
static void test_timeline_refuses_others_on_a_send(void)
{
  expect_refused(RUNS "bad-others", RUNS "bad-others/timeline-0.txt:6: only a wait or test line naming its request "
                                         "gives the others it completed after it, a whole number >= 1 (a mask); trace "
                                         "the run again (docs/tracer.md)");
}

/* tests/data/tracer/bad-start: an MPI_Startall line whose field after its communicator, what it started, is 4, a
 * synchronous receive (0 or 1, or 5 for a synchronous send, plus 2 on a call's later lines). */
static void test_timeline_refuses_bad_start(void)
{
  expect_refused(RUNS "bad-start", RUNS "bad-start/timeline-0.txt:5: an MPI_Start or MPI_Startall line's field after "
                                        "its communicator must be 0 (it started a receive), 1 (a send) or 5 (a "
                                        "synchronous send), plus 2 on the call's later lines; trace the run again "
                                        "(docs/tracer.md)");
}

/* tests/data/tracer/bad-sendrecv: an MPI_Send line with a receive half after its communicator. */
static void test_timeline_refuses_receive_half_on_other_call(void)
{
  expect_refused(RUNS "bad-sendrecv", RUNS "bad-sendrecv/timeline-0.txt:3: only an MPI_Sendrecv or "
                                           "MPI_Sendrecv_replace line has a receive half 'source tag bytes' after its "
                                           "communicator; trace the run again (docs/tracer.md)");
}

/* Format 2 (docs/tracer.md): tests/data/tracer/compact-undefined uses call 1, which no 'd 1' line defined;
 * compact-overflow's second record starts 2^53 ns after its first, past the times a double holds to the nanosecond. */
static void test_timeline_compact_refuses_undefined_and_overflow(void)
{
  expect_refused(RUNS "compact-undefined", RUNS "compact-undefined/timeline-0.txt:5: a call's ID is used before its 'd "
                                                "ID ...' line; trace the run again (docs/tracer.md)");
  expect_refused(RUNS "compact-overflow", RUNS "compact-overflow/timeline-0.txt:5: the times pass 2^53 ns (104 days); "
                                               "trace the run again (docs/tracer.md)");
}

/* A folder with no timeline-0.txt: one line naming the folder when it is missing, a file, or a TI trace's alone. */
static void test_timeline_refuses_folder_without_timelines(void)
{
  expect_refused(RUNS, RUNS "/timeline-0.txt: cannot read it (No such file or directory); give a folder that "
                            "libsimrun-trace.so wrote (SIMRUN_TRACE_DIR)");
  expect_refused(RUNS "no-such-run", RUNS "no-such-run: no such folder; give a folder that libsimrun-trace.so wrote "
                                          "(SIMRUN_TRACE_DIR)");
  expect_refused(RUNS "barrier/timeline-0.txt", RUNS "barrier/timeline-0.txt: not a folder; give the folder that "
                                                     "libsimrun-trace.so wrote (SIMRUN_TRACE_DIR), not a file in it");
  char dir[1024], expected[2048];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  write_in(dir, "rank-0.txt", "0 init\n0 finalize\n");
  snprintf(expected, sizeof expected,
           "%s: holds a TI trace (rank-0.txt) but no timeline-0.txt, which analyse reads: replay a TI trace with the "
           "ti-replay skeleton (docs/ti-replay.md), or give the folder libsimrun-trace.so wrote",
           dir);
  expect_refused(dir, expected);
  remove_folder(dir);
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_timeline_reads_categories_and_phases", test_timeline_reads_categories_and_phases},
      {"test_timeline_send_waits_for_late_receiver", test_timeline_send_waits_for_late_receiver},
      {"test_timeline_synchronous_send_waits_across_clocks", test_timeline_synchronous_send_waits_across_clocks},
      {"test_timeline_started_synchronous_send_waits", test_timeline_started_synchronous_send_waits},
      {"test_timeline_wait_states", test_timeline_wait_states},
      {"test_timeline_halo_slow_rank", test_timeline_halo_slow_rank},
      {"test_timeline_sendrecv_ring_slow_rank", test_timeline_sendrecv_ring_slow_rank},
      {"test_timeline_sendrecv_against_other_calls", test_timeline_sendrecv_against_other_calls},
      {"test_timeline_sendrecv_with_proc_null", test_timeline_sendrecv_with_proc_null},
      {"test_timeline_refuses_receive_half_on_other_call", test_timeline_refuses_receive_half_on_other_call},
      {"test_timeline_wait_for_late_sender", test_timeline_wait_for_late_sender},
      {"test_timeline_messages_matched_by_tag", test_timeline_messages_matched_by_tag},
      {"test_timeline_long_queues_matched_by_tag", test_timeline_long_queues_matched_by_tag},
      {"test_timeline_gives_up_old_operations_by_half", test_timeline_gives_up_old_operations_by_half},
      {"test_timeline_freed_sends_not_outstanding", test_timeline_freed_sends_not_outstanding},
      {"test_timeline_wait_completes_its_request", test_timeline_wait_completes_its_request},
      {"test_timeline_waits_complete_the_requests_they_name", test_timeline_waits_complete_the_requests_they_name},
      {"test_timeline_any_source_matching", test_timeline_any_source_matching},
      {"test_timeline_any_source_counts_bytes_received", test_timeline_any_source_counts_bytes_received},
      {"test_timeline_any_source_counted_beside_later_or_by_test",
       test_timeline_any_source_counted_beside_later_or_by_test},
      {"test_timeline_proc_null_never_pairs", test_timeline_proc_null_never_pairs},
      {"test_timeline_mprobe_keeps_its_message", test_timeline_mprobe_keeps_its_message},
      {"test_timeline_probe_waits_for_late_sender", test_timeline_probe_waits_for_late_sender},
      {"test_timeline_collectives_wait_for_last", test_timeline_collectives_wait_for_last},
      {"test_timeline_scans_wait_for_members_before", test_timeline_scans_wait_for_members_before},
      {"test_timeline_own_time_removed_keeps_causality", test_timeline_own_time_removed_keeps_causality},
      {"test_timeline_own_time_before_first_interval", test_timeline_own_time_before_first_interval},
      {"test_timeline_own_time_partner_told_late", test_timeline_own_time_partner_told_late},
      {"test_timeline_loop_mean_not_moved_past_read", test_timeline_loop_mean_not_moved_past_read},
      {"test_timeline_clock_condition", test_timeline_clock_condition},
      {"test_timeline_polling_is_waiting", test_timeline_polling_is_waiting},
      {"test_timeline_cancelled_receive_leaves_matching", test_timeline_cancelled_receive_leaves_matching},
      {"test_timeline_nonblocking_collective_anchors_its_test", test_timeline_nonblocking_collective_anchors_its_test},
      {"test_timeline_polls_without_partner_are_control", test_timeline_polls_without_partner_are_control},
      {"test_timeline_intervals_name_their_calls", test_timeline_intervals_name_their_calls},
      {"test_timeline_sub_communicator_not_paired", test_timeline_sub_communicator_not_paired},
      {"test_timeline_sub_communicator_named_not_paired", test_timeline_sub_communicator_named_not_paired},
      {"test_timeline_rooted_collectives_wait_for_root", test_timeline_rooted_collectives_wait_for_root},
      {"test_timeline_aggregate_same_figures", test_timeline_aggregate_same_figures},
      {"test_timeline_aggregate_same_wait_states", test_timeline_aggregate_same_wait_states},
      {"test_timeline_reads_cut_file_to_last_whole_line", test_timeline_reads_cut_file_to_last_whole_line},
      {"test_timeline_refuses_damaged_zstd", test_timeline_refuses_damaged_zstd},
      {"test_timeline_names_early_cut_and_future_format", test_timeline_names_early_cut_and_future_format},
      {"test_timeline_refuses_missing_rank", test_timeline_refuses_missing_rank},
      {"test_timeline_refuses_mixed_runs", test_timeline_refuses_mixed_runs},
      {"test_timeline_refuses_bad_comm_lines", test_timeline_refuses_bad_comm_lines},
      {"test_timeline_sub_communicator_defined_paired", test_timeline_sub_communicator_defined_paired},
      {"test_timeline_refuses_bad_line", test_timeline_refuses_bad_line},
      {"test_timeline_refuses_bad_request", test_timeline_refuses_bad_request},
      {"test_timeline_refuses_others_on_a_send", test_timeline_refuses_others_on_a_send},
      {"test_timeline_refuses_bad_start", test_timeline_refuses_bad_start},
      {"test_timeline_folded_loop_as_unfolded", test_timeline_folded_loop_as_unfolded},
      {"test_timeline_refuses_loop_too_long", test_timeline_refuses_loop_too_long},
      {"test_timeline_bounds_loops_kept_whole", test_timeline_bounds_loops_kept_whole},
      {"test_timeline_compact_refuses_undefined_and_overflow", test_timeline_compact_refuses_undefined_and_overflow},
      {"test_timeline_refuses_folder_without_timelines", test_timeline_refuses_folder_without_timelines},
      {"test_timeline_counts_ranks_ended_at_exit", test_timeline_counts_ranks_ended_at_exit},
      {"test_timeline_marker_says_why", test_timeline_marker_says_why},
      {"test_timeline_reads_startup", test_timeline_reads_startup},
      {NULL, NULL}};
  return tu_run("met_timeline", cases);
}
