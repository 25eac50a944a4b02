/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* `simrun analyse` (src/cli/cli_analyse.c) on the hand-made measured run of tests/data/tracer/two-ranks: the lost-cycle
 * figures worked out by hand with T_seq from the measured computation and from --seq, the outputs, and bad folders
 * refused with one error line and exit status 2. */
#include "tu_cli.h"
#include "tu_csv.h"
#include "tu_svg.h"

#include <limits.h>
#include <math.h>
#include <signal.h>
#include <sys/resource.h>

#define RUNS SIMRUN_SOURCE_DIR "/tests/data/tracer/"

/* The value of column `name` (or `name`_s, as a column with its unit is named) in the CSV's data row `row` (1: the
 * first). */
static double csv_value_at(const char *csv, int row, const char *name)
{
  char with_unit[64];
  snprintf(with_unit, sizeof with_unit, "%s_s", name);
  const char *names[] = {name, with_unit, NULL};
  return csv_number(csv, row, names);
}

static double csv_value(const char *csv, const char *name)
{
  return csv_value_at(csv, 1, name);
}

/* Removes a run's folder `dir` with its folder `name`, and frees `run`. */
static void remove_with(const char *dir, const char *name, cli_run_t *run)
{
  char sub[1100];
  snprintf(sub, sizeof sub, "%s/%s", dir, name);
  remove_folder(sub);
  remove_folder(dir);
  run_free(run);
}

/* Removes a run's folder `dir` with its svg folder, and frees `run`. */
static void remove_run(const char *dir, cli_run_t *run)
{
  remove_with(dir, "svg", run);
}

/* Rank 0 works 0.8 s and sends 0.2 s; rank 1 works 0.5 s, is in MPI_Recv 0.4 s (waiting 0.2 s for the sender, then
 * 0.2 s of transfer) and idles 0.1 s after its end; T_par = 1.0 s. With T_seq = the work, 1.3 s: speedup 1.3,
 * Ovh_comm = 0.4 / 1.3, Ovh_idle = 0.3 / 1.3, anomaly 0 (seed 000 eqs. 1.1, 1.13). With --seq 1: speedup 1, anomaly
 * (1.3 - 1) / 1 = 0.3 (eq. 1.6). */
static void test_analyse_lost_cycles_by_hand(void)
{
  const struct {
    const char *seq;
    double t_seq, speedup, anomaly;
    const char *source;
  } cases[] = {{NULL, 1.3, 1.3, 0.0, "T_seq = 1.300000 s: the measured computation of " RUNS "two-ranks (p = 2)"},
               {"1", 1.0, 1.0, 0.3, "T_seq = 1.000000 s: a measured sequential time, given (--seq 1)"}};
  for (size_t i = 0; i < 2; i++) {
    char dir[1024];
    cli_run_t run;
    const char *args[] = {"analyse",    RUNS "two-ranks",
                          "--full",     "--csv",
                          "out.csv",    "--json",
                          "out.json",   cases[i].seq ? "--seq" : NULL,
                          cases[i].seq, NULL};
    run_ok(dir, sizeof dir, args, &run);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, cases[i].source));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Per process, p = 2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "\nSwept: p = 2\n")); /* one p: no "2 to 2 (1 values)" */
    /* phases: "work" 0.6 + 0.4 s of computation; "send" rank 0's 0.2 s transfer; "main" the rest (rank 0 computes
     * 0.2 s, rank 1 waits 0.2 s, receives 0.2 s, computes 0.1 s): 2.0 processor-seconds less rank 1's 0.1 s after its
     * end, shares 50%, 10% and 35%; that 0.1 s of rank 1 waiting for rank 0 to finish is the last row, 5%, so that
     * the shares add up to 100%; the terminal's table (each time column in its unit) and the JSON's rows, walked from
     * one schema (rep_phases.h) */
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "            phase  compute (s) comm (ms) idle (ms) ctrl (s) share\n"
                                           "             work        1.000         0         0        0 50.0%\n"
                                           "             send            0       200         0        0 10.0%\n"
                                           "             main        0.300       200     200.0        0 35.0%\n"
                                           "(end-of-run wait)            0         0     100.0        0  5.0%\n"));
    char *json = read_output(dir, "out.json");
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    CU_ASSERT_PTR_NOT_NULL(strstr(
        json,
        "{\"phase\": \"work\", \"seconds\": {\"compute\": 1, \"comm\": 0, \"idle\": 0, \"ctrl\": 0}, \"share\": 0.5}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(json,
                                  "{\"phase\": \"send\", \"seconds\": {\"compute\": 0, \"comm\": 0.2, \"idle\": 0, "
                                  "\"ctrl\": 0}, \"share\": 0.1}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(json,
                                  "{\"phase\": \"main\", \"seconds\": {\"compute\": 0.3, \"comm\": 0.2, \"idle\": "
                                  "0.2, \"ctrl\": 0}, \"share\": 0.35}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "{\"phase\": \"(end-of-run wait)\", \"seconds\": {\"compute\": 0, \"comm\": 0, "
                                        "\"idle\": 0.1, \"ctrl\": 0}, \"share\": 0.05}"));
    free(json);
    char *csv = read_output(dir, "out.csv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
    TU_ASSERT_CLOSE(csv_value(csv, "t_seq"), cases[i].t_seq, 1e-9);
    TU_ASSERT_CLOSE(csv_value(csv, "t_par"), 1.0, 1e-9);
    TU_ASSERT_CLOSE(csv_value(csv, "speedup"), cases[i].speedup, 1e-6);
    TU_ASSERT_CLOSE(csv_value(csv, "ovh_comm"), 0.4 / cases[i].t_seq, 1e-6);
    TU_ASSERT_CLOSE(csv_value(csv, "ovh_idle"), 0.3 / cases[i].t_seq, 1e-6);
    TU_ASSERT_CLOSE(csv_value(csv, "ovh_anomaly"), cases[i].anomaly, 1e-6);
    free(csv);
    remove_folder(dir);
    run_free(&run);
  }
}

/* Paje, JSON and the pictures are written, the timeline among them. */
static void test_analyse_writes_outputs(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"analyse", RUNS "two-ranks", "--json", "out.json", "--paje", "out.paje", "--svg", "svg", NULL};
  run_ok(dir, sizeof dir, args, &run);
  char *json = read_output(dir, "out.json");
  char *paje = read_output(dir, "out.paje");
  char *svg = read_output(dir, "svg/measured-timeline.svg");
  CU_ASSERT(json && strstr(json, "\"p\""));
  CU_ASSERT(paje && strstr(paje, "%EventDef"));
  CU_ASSERT(svg && strstr(svg, "<svg"));
  free(json);
  free(paje);
  free(svg);
  remove_run(dir, &run);
}

/* "-" is standard output for one file (--csv here): its header and one row there, the report on standard error, no
 * file written; two "-" and "--svg -" (a folder) are refused. */
static void test_analyse_dash_is_stdout(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"analyse", RUNS "two-ranks", "--csv", "-", NULL};
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT(strncmp(run.out, "scenario,", 9) == 0 && count_lines(run.out) == 2);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "Measured runs of two-ranks"));
  CU_ASSERT_EQUAL(count_entries(dir), 0);
  run_free(&run);
  remove_folder(dir);
  EXPECT_FAILURE(.args = {"analyse", RUNS "two-ranks", "--csv=-", "--paje=-"}, .bare = 1, .status = 2,
                 .prefix = "two outputs are '-', but there is one standard output", .phrases = {NULL});
  EXPECT_FAILURE(.args = {"analyse", RUNS "two-ranks", "--svg", "-"}, .bare = 1, .status = 2,
                 .prefix = "--svg -: --svg writes a folder, and '-' (standard output) is for one file",
                 .phrases = {NULL});
}

/* T_seq from a measured sequential time (--seq-time), or from the run traced at p = 1 among the folders, its T_par
 * (1.0 s, tests/data/tracer/seq-1) less the tracer's own time it recorded (0.25 s): 0.75 s; the report says which, and
 * its header names the program ("# program two-ranks"). */
static void test_analyse_t_seq_sources(void)
{
  const struct {
    const char *flag, *value;
    const char *source;
  } cases[] = {{"--seq-time", "0.5", "T_seq = 0.500000 s: a measured sequential time, given (--seq-time 0.5)"},
               {NULL, NULL,
                "T_seq = 0.750000 s: the run traced at p = 1 in " RUNS "seq-1 (no --seq-time), its T_par "
                "1.000000 s less the tracer's own time 0.250000 s"}};
  for (size_t i = 0; i < 2; i++) {
    char dir[1024];
    cli_run_t run;
    const char *args[] = {"analyse", RUNS "two-ranks", RUNS "seq-1",   "--csv",
                          "out.csv", cases[i].flag,    cases[i].value, NULL};
    run_ok(dir, sizeof dir, args, &run);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, cases[i].source));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Measured runs of two-ranks"));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "(program = two-ranks)"));
    /* the run's line says how much of the tracer's own time its intervals leave out (seq-1's 0.25 s) */
    CU_ASSERT_PTR_NOT_NULL(
        strstr(run.out, "the tracer's own time, 0.250000 s over the ranks, kept out of its intervals"));
    char *csv = read_output(dir, "out.csv");
    CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
    TU_ASSERT_CLOSE(csv_value(csv, "t_seq"), i ? 0.75 : 0.5, 1e-9);
    free(csv);
    remove_folder(dir);
    run_free(&run);
  }
}

/* The views a measurement cannot give are in no output, and the terminal says why once each: no bottleneck columns
 * (dominant, bottleneck) nor per-rank anomaly split in the CSV, JSON or terminal, no component pictures; the halo's
 * late receivers (0.39 and 0.40 s, test_met_timeline.c) are in the wait-state table. */
static void test_analyse_leaves_out_what_a_measurement_lacks(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"analyse", RUNS "halo", RUNS "two-ranks", "--full", "--csv", "out.csv",
                        "--json",  "out.json",  "--svg",          "svg",    NULL};
  run_ok(dir, sizeof dir, args, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "No bottleneck view: a measurement cannot split computation"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "not split into true anomaly and imbalance"));
  CU_ASSERT_PTR_NULL(strstr(run.out, "true anomaly = work_i"));
  /* rank 2's row of the wait states: no late sender, 0.40 s of late receiver, in the ms its head names */
  const char *waits = strstr(run.out, "Wait states, p = 3");
  const char *row = waits && strstr(waits, "late_receiver (ms)") ? strstr(waits, "\n   2 ") : NULL;
  CU_ASSERT_PTR_NOT_NULL_FATAL(row);
  char *end;
  CU_ASSERT_EQUAL(strtod(row + 5, &end), 0);
  CU_ASSERT_DOUBLE_EQUAL(strtod(end, NULL), 400, 1e-9);
  char *csv = read_output(dir, "out.csv");
  char *procs = read_output(dir, "out-processes.csv");
  char *json = read_output(dir, "out.json");
  char *components = read_output(dir, "svg/measured-components.svg");
  CU_ASSERT(csv && !strstr(csv, "dominant") && !strstr(csv, "bottleneck"));
  CU_ASSERT(!procs || !strstr(procs, "imbalance"));
  CU_ASSERT(json && strstr(json, "\"left_out_bottleneck\"") && !strstr(json, "\"b_ratios\"") &&
            !strstr(json, "\"imbalance\""));
  CU_ASSERT_PTR_NULL(components);
  free(csv);
  free(procs);
  free(json);
  free(components);
  remove_run(dir, &run);
}

/* --html: the page of two measured runs has their timeline, and leaves out what a measurement lacks as the other
 * outputs do: no anomaly and imbalance columns in its per-process table but the reason under it; the curves of the
 * metrics against p (drawn for --svg and inlined in the page) are labelled as measured, not simulated. */
static void test_analyse_html_page(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"analyse", RUNS "halo", RUNS "two-ranks", "--html", "out.html", "--svg", "svg", NULL};
  run_ok(dir, sizeof dir, args, &run);
  char *page = read_output(dir, "out.html");
  char *speedup = read_output(dir, "svg/measured-speedup.svg");
  CU_ASSERT_FATAL(page && speedup);
  CU_ASSERT_PTR_NOT_NULL(strstr(page, "<canvas id=\"timeline\""));
  /* the per-process table ends at the rank's anomaly ratio: a measurement has no split */
  CU_ASSERT_PTR_NOT_NULL(strstr(page, "data-column=\"rank_ovh_anomaly\">anomaly</th></tr>"));
  CU_ASSERT_PTR_NULL(strstr(page, "data-column=\"rank_imbalance\""));
  CU_ASSERT_PTR_NOT_NULL(
      strstr(page, "The rank's anomaly is not split into true anomaly and imbalance: a measurement"));
  CU_ASSERT(strstr(speedup, ">measured<") && !strstr(speedup, "simulated"));
  free(page);
  free(speedup);
  remove_run(dir, &run);
}

/* tests/data/tracer/loop-page: loop-sums' ping-pong over 50,000 iterations, 19.2 MB unfolded (2 ranks x 2 slots x
 * 50,000 iterations x 96 bytes), under the 32 MiB beyond which a run is read as sums, so kept whole: at least 3
 * intervals per rank and iteration (a send; each receive waits for a late sender, idle then communication), 300,000 or
 * more, beyond the 20,000 the page shows whole. The page decimates it to 30,000 / 2 = 15,000 columns a rank and says
 * so: its data is then at most 2 segments a column and rank (a merged column and the interval that crosses into the
 * next), 60,000 of about 50 bytes, 3 MB, where the 400,000 intervals whole would be 20 MB. */
static void test_analyse_html_decimates_long_runs(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"analyse", RUNS "loop-page", "--html", "out.html", NULL};
  run_ok(dir, sizeof dir, args, &run);
  CU_ASSERT_PTR_NULL(strstr(run.out, "read as per-rank sums"));
  char *page = read_output(dir, "out.html");
  CU_ASSERT_PTR_NOT_NULL_FATAL(page);
  const char *line = strstr(page, "Decimated for this page: the run of p = 2, ");
  CU_ASSERT_PTR_NOT_NULL_FATAL(line);
  CU_ASSERT(strtod(line + strlen("Decimated for this page: the run of p = 2, "), NULL) >= 300000);
  CU_ASSERT_PTR_NOT_NULL(
      strstr(line, "intervals, more than the 20000 this page shows whole, is drawn in 15000 columns"));
  CU_ASSERT_PTR_NOT_NULL(strstr(page, "<canvas id=\"timeline\""));
  const char *data = strstr(page, "var SIMRUN=");
  CU_ASSERT_FATAL(data != NULL);
  size_t segments = 0;
  for (const char *c = data; *c && strncmp(c, "</script>", 9) != 0; c++)
    segments += *c == '[' && c[1] >= '0' && c[1] <= '9';
  CU_ASSERT(segments > 0 && segments <= 60000);
  CU_ASSERT(strlen(page) < 3 * 1024 * 1024);
  free(page);
  remove_folder(dir);
  run_free(&run);
}

/* Two ping-pongs found by fuzz_timeline as 20-s timeouts (each folder is also its seed, so the fuzzer's limit checks
 * the time),
 * - tests/data/tracer/loop-tag-unmatched: loop-sums' ping-pong whose rank 1 sends with tag 5 where rank 0 receives tag
 *   0, 120,000 times: by hand, rank 0's 120,000 sends are paired and rank 1's 120,000 never are, so as many receives
 *   stay unpaired. Each unmatched end was compared with every one before it (18 s to read, 0.3 s then: the fifos
 *   remember where a search with the same key found nothing);
 * - tests/data/tracer/loop-lengths-differ: rank 0 sends and receives 50,000 times, rank 1 receives and sends 25,000
 *   times: by hand 25,000 + 25,000 messages paired. Each pairing scanned the 16,384 intervals a rank keeps waiting for
 *   partners, and moved every queued receive behind the one it took (2.8 s to read, 26 s under the fuzzer's
 *   sanitisers; 0.16 s now: a binary search, and the nearer end of the queue moves);
 * and one made by hand the same way, tests/data/tracer/queue-behind-unpaired: rank 1 receives tag 7 from rank 0 20,000
 * times (never sent), then posts 100,000 receives of tag 0 that no wait completes, which rank 0's 100,000 sends of
 * tag 0 pair: by hand 100,000 paired, and unpaired the 20,000 receives and the postings given up by halves (4,096 at
 * the 8,193rd, then at every 4,096 more: 23 times, 94,208), 114,208. It took 5.6 s to read, 0.2 s now: each send
 * scanned the 20,000 receives before the one it took (a search now starts where the last like it ended), each
 * posting beyond 4,096 moved those kept, and each pairing of a posting scanned the intervals kept;
 * and tests/data/tracer/any-tag-behind-other-comm: rank 0 sends 20,000 messages on communicator 1, which no one
 * receives, then 100,000 on communicator 0, which rank 1 receives from any tag: by hand 100,000 paired, no receive
 * unpaired. Each pairing moved the 20,000 queued ahead of the send it took (10.6 s to read; 0.16 s now: an end taken
 * is marked, not moved);
 * and tests/data/tracer/kept-behind-folded-root, as ESyS-Particle's run at p = 4 (29 s to read): rank 0 computes 1.6 s,
 * then broadcasts 4,000 times, folded (period 420 us); ranks 1 and 2 take those broadcasts from time 0, rank 1 sending
 * rank 2 a message after each (period 420 us, rank 2's 2 us of it the tracer's), so each keeps the intervals of some
 * 1.6 s (3,810 iterations) before the broadcasts they wait for: by hand 4,000 messages and 4,000 broadcasts paired.
 * Each move of a rank's interval moved every one it kept, and each partner told settled them all again (37 s to read;
 * 0.20 s now: one pass settles them, each moved as it reaches it, the others left). tests/data/tracer/kept-beyond-hold
 * is the same with 5,000 broadcasts after 2 s: ranks 1 and 2 would keep some 19,000 intervals (4 an iteration), beyond
 * the 16,384 the reader holds, so their first broadcast goes into the trace before the root's came: no collective
 * paired, and the report says why (before, that "the members' collective calls on a communicator differ", which they do
 * not). */
static void test_analyse_unmatched_read_in_linear_time(void)
{
  static const struct {
    const char *folder, *line;
  } cases[] = {{RUNS "loop-tag-unmatched", "(p = 2): 120000 messages paired, 120000 receives unpaired"},
               {RUNS "loop-lengths-differ", "(p = 2): 50000 messages paired, "},
               {RUNS "queue-behind-unpaired", "(p = 2): 100000 messages paired, 114208 receives unpaired"},
               {RUNS "any-tag-behind-other-comm", "(p = 2): 100000 messages paired, 0 receives unpaired"},
               {RUNS "kept-behind-folded-root", "(p = 3): 4000 messages paired, 0 receives unpaired, 4000 collectives"},
               {RUNS "kept-beyond-hold",
                "0 collectives paired (barriers, N x N and rooted, blocking or not, and scans) (then a "
                "rank kept more intervals than the reader holds waiting for a collective's other "
                "members: that communicator's later collectives stay as measured)"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cli_run_t run;
    const char *args[] = {"analyse", cases[i].folder, NULL};
    CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, cases[i].line));
    run_free(&run);
  }
}

/* The pairing's counts read as words: tests/data/tracer/late-receiver is one message (rank 0 sends, rank 1 receives)
 * and no collective; cancelled-any-source (rank 1 sends twice, rank 0 takes both, a barrier between) two messages and
 * one collective, its cancelled receive none. It said "1 messages paired" (seen on DOLFINx's run at p = 1). */
static void test_analyse_counts_in_words(void)
{
  static const struct {
    const char *folder, *line;
  } cases[] = {{RUNS "late-receiver", "(p = 2): 1 message paired, 0 receives unpaired, 0 collectives paired ("},
               {RUNS "cancelled-any-source", "(p = 2): 2 messages paired, 0 receives unpaired, 1 collective paired ("}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cli_run_t run;
    const char *args[] = {"analyse", "--width", "1000", cases[i].folder, NULL};
    CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, cases[i].line));
    run_free(&run);
  }
}

/* Persistent requests as an older tracer wrote them: rank 0 sets up a send and starts it twice (MPI_Startall), rank 1
 * a receive started twice (MPI_Start), each completed by a wait, then both compute, and no line gives a start's
 * message: by hand 0 messages paired and 4 starts named (before, the report was silent about them, as on PETSc's
 * bratu3d at p = 2: 340 starts, 14 messages paired, those of its MPI_Isend). As the tracer writes them now
 * (tests/data/tracer/persistent: three rounds of a receive and a send started together), all 6 are paired and no
 * start is named. */
/* A run whose collectives on a sub-communicator no "# comm" line defines (tests/data/tracer/sub-coll-named: an older
 * tracer's MPI_Allreduce on ranks 0 and 1, one call each) says how many stay as measured and how to pair them; the
 * same calls with their communicator defined (sub-coll-defined) are paired and say nothing of it. */
static void test_analyse_names_undefined_sub_communicators(void)
{
  static const struct {
    const char *run;
    int named;
  } cases[] = {{RUNS "sub-coll-named", 1}, {RUNS "sub-coll-defined", 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cli_run_t run;
    const char *args[] = {"analyse", "--width", "1000", cases[i].run, NULL};
    CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    CU_ASSERT((strstr(run.out, "; 2 collective calls on sub-communicators the files do not define (a tracer before "
                               "'# comm' lines: trace the run again to pair them; beyond the 2^20 communicators or "
                               "2^22 members the reader keeps; or a member or root the definition does not have) stay "
                               "as measured") != NULL) == cases[i].named);
    CU_ASSERT((strstr(run.out, "on sub-communicators") != NULL) == cases[i].named);
    run_free(&run);
  }
}

/* The two timelines `ranks` written into a new folder `dir` and analysed there (exit 0, one line per clause at the
 * widest report), its output into `run`. */
static void analysed_pair(const char *const ranks[2], char dir[1024], cli_run_t *run)
{
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, 1024), 0);
  write_in(dir, "timeline-0.txt", ranks[0]);
  write_in(dir, "timeline-1.txt", ranks[1]);
  const char *args[] = {"analyse", "--width", "1000", dir, NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, run), 0);
  CU_ASSERT_EQUAL(run->status, 0);
}

/* A file's escape sequences never reach the reader's terminal: a phase or call name with a control character is
 * refused in one line (exit 2), a "# program" or "# untraced" comment with one is printed with '?' (before, the
 * report wrote ESC [2J as it came, clearing the terminal). */
/* simrun analyse of a folder whose one timeline is `text` (written into `dir`): exits `status`, no escape character in
 * its output nor its errors; the output and errors into `run`. */
static void analysed_without_escapes(const char *dir, const char *text, int status, cli_run_t *run)
{
  write_in(dir, "timeline-0.txt", text);
  const char *args[] = {"analyse", "--width", "1000", dir, NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, run), 0);
  CU_ASSERT_EQUAL(run->status, status);
  CU_ASSERT_PTR_NULL(strchr(run->out, '\033'));
  CU_ASSERT_PTR_NULL(strchr(run->err, '\033'));
}

static void test_analyse_escape_sequences_not_printed(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  cli_run_t run;
  analysed_without_escapes(dir,
                           "# simrun measured timeline 1\n# rank 0 of 1\n0.000000000 0.100000000 compute \033[2Jph -1 "
                           "0 -\n# end 0.100000000\n",
                           2, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "timeline-0.txt:3: a phase or call name holds a control character"));
  run_free(&run);
  analysed_without_escapes(dir,
                           "# simrun measured timeline 1\n# rank 0 of 1\n# program \033[31mname\n# untraced "
                           "\033[2JMPI_Win_create x1 (one-sided)\n0.000000000 0.100000000 compute main -1 0 -\n# end "
                           "0.100000000\n",
                           0, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Measured runs of ?[31mname "));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "as the tracer named them): ?[2JMPI_Win_create x1 (one-sided)"));
  run_free(&run);
  remove_folder(dir);
}

/* A send no receive took (rank 0 sends tag 5 to rank 1 twice, rank 1 receives once, by hand): the run's line counts
 * it beside the messages paired (before, it said only "1 message paired, 0 receives unpaired": OpenCoarrays' sends
 * of tag 424242, which no rank receives, went unsaid). */
static void test_analyse_unreceived_sends_named(void)
{
  static const char *const ranks[2] = {
      "# simrun measured timeline 1\n# rank 0 of 2\n# start end category phase peer bytes call\n"
      "0.000000000 0.010000000 comm main 1 8 MPI_Send 5 0\n0.010000000 0.020000000 comm main 1 8 MPI_Send 5 0\n"
      "0.020000000 0.100000000 compute main -1 0 -\n# end 0.100000000\n",
      "# simrun measured timeline 1\n# rank 1 of 2\n# start end category phase peer bytes call\n"
      "0.000000000 0.050000000 idle main 0 8 MPI_Recv 5 0\n0.050000000 0.100000000 compute main -1 0 -\n"
      "# end 0.100000000\n"};
  char dir[1024];
  cli_run_t run;
  analysed_pair(ranks, dir, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out,
                                "(p = 2): 1 message paired, 0 receives unpaired, 0 collectives paired "
                                "(barriers, N x N and rooted, blocking or not, and scans); 1 send no receive took "
                                "(pending when the run "
                                "ended: a replay drops it with a warning)"));
  run_free(&run);
  remove_folder(dir);
}

/* `n` lines of `call` into `text` from `at` (format 1: each 10 us from the last, 5 us long, to `peer`, 8 bytes, tag 0):
 * where the text ends. */
static char *calls_into(char *at, int n, int rank, const char *category, int peer, const char *call)
{
  for (int i = 0; i < n; i++)
    at += sprintf(at, "%.9f %.9f %s main %d 8 %s 0 0\n", i * 1e-5 + rank * 3e-6, i * 1e-5 + 5e-6, category, peer, call);
  return at;
}

/* 8,200 MPI_Isend that no wait completes, each received, then 10 ms of computation (by hand: 8,200 messages paired, and
 * at the 8,193rd posting the older half of rank 0's 8,192 outstanding operations given up, 4,096 sends): the run's line
 * counts them as such and says what to do, no receive unpaired (before, it said "4096 receives unpaired": Ray's trace
 * of a tracer before shared handles were told apart read 356,352). */
static void test_analyse_sends_given_up_named(void)
{
  enum { SENDS = 8200 };
  static const char head[] =
      "# simrun measured timeline 1\n# rank %d of 2\n# start end category phase peer bytes call\n";
  char *ranks[2];
  for (int r = 0; r < 2; r++) {
    ranks[r] = malloc(SENDS * 64 + 256);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ranks[r]);
    char *at = ranks[r] + sprintf(ranks[r], head, r);
    at = calls_into(at, SENDS, r, r ? "idle" : "comm", 1 - r, r ? "MPI_Recv" : "MPI_Isend");
    sprintf(at, "%.9f %.9f compute main -1 0 -\n# end %.9f\n", SENDS * 1e-5, SENDS * 1e-5 + 0.01, SENDS * 1e-5 + 0.01);
  }
  char dir[1024];
  cli_run_t run;
  analysed_pair((const char *const *)ranks, dir, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "(p = 2): 8200 messages paired, 0 receives unpaired, 0 collectives paired "));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "; 4096 sends and non-blocking collectives that no wait or test in the "
                                         "timelines completed, beyond the 4096 latest a rank keeps outstanding, given "
                                         "up (paired all the same;"));
  run_free(&run);
  remove_folder(dir);
  free(ranks[0]);
  free(ranks[1]);
}

/* Two folders of different programs (tests/data/tracer/halo, p = 3, "# program halo"; unsuccessful-tests, p = 2) are
 * refused in one line naming both, exit 2: before, the second was analysed as the first's run at another p, its
 * speedup against the first's T_seq, under the first's name (a helper's NWChem at p = 1 and FreeFem++ at p = 2). A
 * folder given twice is one program's. */
static void test_analyse_mixed_programs_refused(void)
{
  const char *mixed[] = {"analyse", RUNS "halo", RUNS "unsuccessful-tests", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", mixed, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  assert_error_line(run.err,
                    RUNS "unsuccessful-tests: a run of unsuccessful-tests, where " RUNS "halo is a run of halo",
                    (const char *[]){"analyse each program's folders apart", NULL});
  CU_ASSERT_STRING_EQUAL(run.out, "");
  run_free(&run);
  /* said before any folder is read whole: loop-bad (a run of pingpong) is refused for its program, not for its loop
   * at line 4, which the reader would find once halo had been read */
  const char *early[] = {"analyse", RUNS "halo", RUNS "loop-bad", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", early, &run), 0);
  CU_ASSERT_EQUAL(run.status, 2);
  assert_error_line(run.err, RUNS "loop-bad: a run of pingpong, where " RUNS "halo is a run of halo",
                    (const char *[]){"analyse each program's folders apart", NULL});
  run_free(&run);
  const char *same[] = {"analyse", RUNS "halo", RUNS "halo", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", same, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
}

static void test_analyse_persistent_starts_named(void)
{
  static const char *const ranks[2] = {
      "# simrun measured timeline 1\n# rank 0 of 2\n# start end category phase peer bytes call\n"
      "0.000000000 0.010000000 ctrl main -1 0 MPI_Send_init\n0.010000000 0.020000000 comm main -1 0 MPI_Startall\n"
      "0.020000000 0.100000000 idle main -1 0 MPI_Waitall\n0.100000000 0.110000000 comm main -1 0 MPI_Startall\n"
      "0.110000000 0.200000000 idle main -1 0 MPI_Waitall\n0.200000000 0.300000000 compute main -1 0 -\n# end "
      "0.300000000\n",
      "# simrun measured timeline 1\n# rank 1 of 2\n# start end category phase peer bytes call\n"
      "0.000000000 0.010000000 ctrl main -1 0 MPI_Recv_init\n0.010000000 0.020000000 comm main -1 0 MPI_Start\n"
      "0.020000000 0.100000000 idle main -1 0 MPI_Wait\n0.100000000 0.110000000 comm main -1 0 MPI_Start\n"
      "0.110000000 0.200000000 idle main -1 0 MPI_Wait\n0.200000000 0.300000000 compute main -1 0 -\n# end "
      "0.300000000\n"};
  char dir[1024];
  cli_run_t run;
  analysed_pair(ranks, dir, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "(p = 2): 0 messages paired, 0 receives unpaired, 0 collectives paired "));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "; 4 MPI_Start and MPI_Startall calls give none of the messages they "
                                         "started (they started no request, or ones the tracer does not write: "
                                         "persistent collectives; or an older libsimrun-trace.so wrote every start: "
                                         "trace the run again to pair them):"));
  run_free(&run);
  remove_folder(dir);
  const char *now[] = {"analyse", "--width", "1000", RUNS "persistent", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", now, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "(p = 2): 6 messages paired, 0 receives unpaired, 0 collectives paired "));
  CU_ASSERT_PTR_NULL(strstr(run.out, "MPI_Start"));
  run_free(&run);
}

/* Writes into `dir` a run of 4 ranks that each compute 1.6 s for `cpu` s of CPU, waiting `waited` s for a processor,
 * and returns whether simrun analyse says T_seq, 6.4 s, holds waits (test_analyse_seq_holds_shared_cores). */
static int seq_told_holding(const char *dir, double cpu, double waited)
{
  char name[64], text[512];
  for (int rank = 0; rank < 4; rank++) {
    snprintf(name, sizeof name, "timeline-%d.txt", rank);
    snprintf(text, sizeof text,
             "# simrun measured timeline 1\n# rank %d of 4\n# start end category phase peer bytes call\n"
             "0.000000000 1.600000000 compute main -1 0 -\n"
             "# disturbance 1.00 1.00 100 %.6f 1.600000 %.6f %.6f 0.000000\n# end 1.600000000\n",
             rank, cpu, waited, cpu);
    write_in(dir, name, text);
  }
  cli_run_t run;
  const char *args[] = {"analyse", "--width", "1000", dir, NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "T_seq = 6.400000 s: the measured computation of "));
  int told = strstr(run.out, "of their time not running") != NULL;
  run_free(&run);
  return told;
}

/* A --seq-time far longer than the T_par of the run traced at p = 1 among the folders (tests/data/tracer/replay-seq,
 * 1.3 s by hand) is said on the T_seq line, with what T_seq should be: 2.0 s, 53.8% longer (beyond 20% and 50 ms: 1.61
 * s); 1.6 s and 1.3 s are not (pvbatch's untraced wall time at p = 1, 3.21 s against a span of 2.46 s, gave an
 * efficiency of 130.4% at p = 1 without a word). Of two runs at p = 1, the shorter is compared, in either order (the
 * first only was). */
static void test_analyse_seq_time_far_longer(void)
{
  static const struct {
    const char *seq;
    int said;
  } cases[] = {{"2.0", 1}, {"1.6", 0}, {"1.3", 0}};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    cli_run_t run;
    const char *args[] = {"analyse", "--width", "1000", RUNS "replay-seq", "--seq-time", cases[k].seq, NULL};
    CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    const char *line = strstr(run.out, "T_seq = ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    CU_ASSERT_EQUAL(strstr(line, "; it is 53.8% longer than the T_par of " RUNS "replay-seq, traced at p = 1 "
                                 "(1.300000 s), which tracing only lengthens: unless others slowed the untraced run, "
                                 "the speedups and efficiencies against it are too high, T_seq being the untraced "
                                 "run's time from the end of MPI_Init to MPI_Finalize") != NULL,
                    cases[k].said);
    CU_ASSERT_EQUAL(strstr(line, "longer than the T_par of") != NULL, cases[k].said);
    run_free(&run);
  }
  /* two runs at p = 1 (1 s and 2 s of computation, by hand), in either order: 1.5 s is far longer than the shorter */
  char dir[1024], a[1100], b[1100];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(a, sizeof a, "%s/a", dir);
  snprintf(b, sizeof b, "%s/b", dir);
  const char *folders[] = {a, b};
  for (int k = 0; k < 2; k++) {
    char text[256];
    CU_ASSERT_EQUAL_FATAL(mkdir(folders[k], 0777), 0);
    snprintf(text, sizeof text,
             "# simrun measured timeline 1\n# rank 0 of 1\n# program x\n# start end category phase peer bytes call tag "
             "comm\n0.000000000 %d.000000000 compute main -1 0 - 0 0\n# end %d.000000000\n",
             k + 1, k + 1);
    write_in(folders[k], "timeline-0.txt", text);
  }
  for (int order = 0; order < 2; order++) {
    const char *args[] = {"analyse", "--width", "1000", folders[order], folders[1 - order], "--seq-time", "1.5", NULL};
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
    char said[1200];
    snprintf(said, sizeof said, "; it is 50.0%% longer than the T_par of %s, traced at p = 1 (1.000000 s)", a);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, said));
    run_free(&run);
  }
  for (int k = 0; k < 2; k++) {
    char path[1200];
    snprintf(path, sizeof path, "%s/timeline-0.txt", folders[k]);
    CU_ASSERT_EQUAL(remove(path), 0);
    CU_ASSERT_EQUAL(rmdir(folders[k]), 0);
  }
  remove_folder(dir);
}

/* T_seq from a run at p > 1 (the measured computation) says when its computations ran far longer than their CPU
 * time: tests/data/tracer/shared-quad's 4 ranks compute 1.6 s each (6.4 s) for 0.5 + 0.4 + 0.5 + 0.4 = 1.8 s of CPU,
 * 1 - 1.8 / 6.4 = 72% of their time not running, 0.6 + 0.5 + 1.0 + 0.9 = 3.0 s of it waiting for a processor, over
 * half the 4.6-s gap (DOLFINx at p = 4 on 2 cores read speedup 3.02 without a word); the same run whose computations
 * used 1.5 s of CPU each (6.0 of 6.4 s, within a tenth) is not told, nor one whose computations used 1.0 s each but
 * waited 0.1 s for a processor (4 x 0.1 s under half of 4 x 0.6 s: blocking reads, which a sequential run waits as
 * long); it is told when they waited 0.5 s (2.0 s, over half). The run's line says that its 4 ranks ran on 2 cores and
 * waited 3.0 s for a processor, 46.9% of their 6.4 s (tachyon at p = 4 on 2 cores read an anomaly of 0.87 x T_seq, 0.02
 * at p = 2, without a word). */
static void test_analyse_seq_holds_shared_cores(void)
{
  static const char said[] = "its computations ran 6.400 s but used 1.800 s of CPU (72% of their time not running: "
                             "ranks that took turns on shared cores, or other work), which T_seq holds";
  cli_run_t run;
  const char *args[] = {"analyse", "--width", "1000", RUNS "shared-quad", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, said));
  /* the run's line says why: 4 ranks on 2 cores that waited 3.0 s for a processor, of 4 x 1.6 s of wall time */
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "; oversubscribed (4 ranks on 2 online cores): its ranks waited 3.000 s for a "
                                         "processor, 46.9% of their wall time, taking turns on the cores, which their "
                                         "computations and calls hold (the anomaly and idle columns)"));
  run_free(&run);
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  CU_ASSERT_FALSE(seq_told_holding(dir, 1.5, 0.1));
  CU_ASSERT_FALSE(seq_told_holding(dir, 1.0, 0.1));
  CU_ASSERT_TRUE(seq_told_holding(dir, 1.0, 0.5));
  remove_folder(dir);
}

/* --html: the page shows the runs' lines as the report printed them, in 80 columns, their folders cut to their names:
 * shared-quad's, which says its 4 ranks waited 3.0 s for a processor on 2 cores (by hand above), and T_seq's source,
 * which holds those waits. */
static void test_analyse_html_page_has_the_runs(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"analyse", RUNS "shared-quad", "--html", "out.html", NULL};
  run_ok(dir, sizeof dir, args, &run);
  char *page = read_output(dir, "out.html");
  CU_ASSERT_PTR_NOT_NULL_FATAL(page);
  CU_ASSERT_PTR_NOT_NULL(strstr(page, "<li><a href=\"#runs\">Measured runs</a></li>"));
  const char *runs = strstr(page, "<h2 id=\"runs\">Measured runs</h2>\n<pre>Measured runs of ");
  CU_ASSERT_PTR_NOT_NULL_FATAL(runs);
  char *section = strndup(runs, (size_t)(strstr(runs, "</pre>") - runs));
  CU_ASSERT_PTR_NOT_NULL_FATAL(section);
  size_t widest = 0;
  for (const char *line = strchr(section, '\n') + 1; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    size_t width = strcspn(line, "\n");
    widest = width > widest ? width : widest;
  }
  CU_ASSERT(widest > 0 && widest <= 80);
  tu_unwrap(section);
  CU_ASSERT_PTR_NOT_NULL(strstr(section, "shared-quad (p = 4): 0 messages paired, "));
  CU_ASSERT_PTR_NULL(strstr(section, RUNS));
  CU_ASSERT_PTR_NOT_NULL(strstr(section, "; oversubscribed (4 ranks on 2 online cores): its ranks waited 3.000 s for a "
                                         "processor, 46.9% of their wall time"));
  CU_ASSERT_PTR_NOT_NULL(strstr(section, "\nT_seq = 6.400000 s: "));
  CU_ASSERT_PTR_NOT_NULL(strstr(section, "which T_seq holds"));
  free(section);
  free(page);
  run_free(&run);
  remove_folder(dir);
}

/* --replay-on: tests/data/tracer/replay-pair is two-ranks with its TI trace (rank 0 computes 1.2e8 flops, sends 1000
 * bytes to rank 1, computes 4e7; rank 1 computes 8e7, receives, computes 2e7) replayed on the Pentium II cluster
 * (72 Mf hosts, sends of at most 64 KiB eager): rank 0 ends at 1.6e8 / 7.2e7 = 2.2222 s, rank 1 at 1.6667 s +
 * 124.04 us + 1000 B / 11866059.8 B/s + 0.2778 s = 1.9447 s, so T_par = 2.2222 s, 11.1% below the 2.5 s given as the
 * untraced time. Checks that line for the run of `folder`, and the CSV's and JSON's t_replay_s, t_measured_s,
 * measured_run and replay_diff (-0.1111 = 2.2222 / 2.5 - 1). */
static void expect_replay_on(const char *folder)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"analyse",    folder,   "--replay-on", SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml",
                        "--untraced", "2=2.5",  "--csv",       "r.csv",
                        "--json",     "r.json", NULL};
  run_ok(dir, sizeof dir, args, &run);
  CU_ASSERT_PTR_NOT_NULL(
      strstr(run.out, "     2          2.500000 (untraced)        2.222222      -11.1%  - (not recorded)\n"));
  run_free(&run);
  /* the CSV against the hand figures to 1e-4, and the JSON against the CSV at no tolerance, by simrun compare */
  char path[1200];
  snprintf(path, sizeof path, "%s/hand.csv", dir);
  FILE *hand = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(hand);
  fprintf(hand, "p,t_replay_s,t_measured_s,replay_diff\n2,2.2222,2.5,-0.1111\n");
  CU_ASSERT_EQUAL(fclose(hand), 0);
  const char *const metrics = "t_replay_s,t_measured_s,replay_diff";
  const char *by_hand[] = {"compare", "r.csv", "hand.csv", "--metric", metrics, "--rtol", "1e-4", NULL};
  const char *both[] = {"compare",      "r.csv",  "r.json", "--metric", metrics, "--metric",
                        "measured_run", "--rtol", "0",      "--atol",   "0",     NULL};
  const char *const *runs[] = {by_hand, both};
  for (size_t i = 0; i < 2; i++) {
    CU_ASSERT_EQUAL_FATAL(run_simrun(dir, runs[i], &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, i ? "Compared: 3 values, 0 beyond the tolerance; 0 cells not numbers\n"
                                             : "Compared: 3 values, 0 beyond the tolerance"));
    run_free(&run);
  }
  remove_folder(dir);
}

/* A copied folder replays its own TI files: the tracer's index.txt lists them by absolute path, so a copy's names the
 * original's. Here a copy of replay-pair whose rank 0 computes 2.4e8 flops before its send (the original 1.2e8),
 * its index naming the original's files: by hand on the Pentium II cluster, rank 0 ends at 2.8e8 / 7.2e7 = 3.888889 s
 * (rank 1 at 3.3333 + 0.000124 + 0.000084 + 0.2778 = 3.6114 s), where the original's files give 2.222222 s. */
static void test_analyse_replay_copied_folder(void)
{
  char dir[1024], index[4096];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  write_in(dir, "timeline-0.txt",
           "# simrun measured timeline 1\n# rank 0 of 2\n# start end category phase peer bytes call\n"
           "0.000000000 0.600000000 compute work -1 0 -\n0.600000000 0.800000000 comm send 1 1000 MPI_Send\n"
           "0.800000000 1.000000000 compute main -1 0 -\n# end 1.000000000\n");
  write_in(dir, "timeline-1.txt",
           "# simrun measured timeline 1\n# rank 1 of 2\n# start end category phase peer bytes call\n"
           "0.000000000 0.400000000 compute work -1 0 -\n0.400000000 0.800000000 idle main 0 1000 MPI_Recv\n"
           "0.800000000 0.900000000 compute main -1 0 -\n# end 0.900000000\n");
  write_in(dir, "rank-0.txt", "0 init\n0 compute 240000000\n0 send 1 0 1000\n0 compute 40000000\n0 finalize\n");
  write_in(dir, "rank-1.txt", "1 init\n1 compute 80000000\n1 recv 0 0 1000\n1 compute 20000000\n1 finalize\n");
  snprintf(index, sizeof index, "%s/replay-pair/rank-0.txt\n%s/replay-pair/rank-1.txt\n", RUNS, RUNS);
  write_in(dir, "index.txt", index);
  cli_run_t run;
  const char *args[] = {"analyse", dir, "--replay-on", SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "     2          1.000000 (traced)          3.888889     +288.9%"));
  run_free(&run);
  remove_folder(dir);
}

/* replay-pair, and the same files compressed, timelines and TI trace: by zstd (replay-pair-zstd, as libsimrun-trace.so
 * writes a large file) and by gzip (replay-pair-gzip, as it did before). */
static void test_analyse_replay_on(void)
{
  expect_replay_on(RUNS "replay-pair");
  expect_replay_on(RUNS "replay-pair-zstd");
  expect_replay_on(RUNS "replay-pair-gzip");
}

/* --replay-on tells a disturbed measurement (docs/tracer.md, "Replaying"): disturbed-pair and quiet-pair are
 * replay-pair whose ranks say how much they ran ("# disturbance LOAD_START LOAD_END SWITCHES CPU WALL"). In
 * disturbed-pair rank 0 ran 0.4 of 1.0 s and rank 1 0.5 of 0.9 s: they lost 0.6 + 0.4 = 1.0 of 1.9 s, 52.6% (over 10%,
 * with 7000 involuntary switches), so the prediction, 2.2222 s (expect_replay_on), is compared with the busiest rank's
 * CPU time, 0.5 s: +344.4%. In quiet-pair they lost 0.05 + 0.05 of 1.9 s, 5.3%: compared with the traced T_par, 1 s,
 * +122.2%. replay-pair says nothing of it: "not recorded". */
/* simrun analyse RUNS/first RUNS/second --replay-on the Pentium II cluster, into *run, which must succeed. */
static void replay_two(const char *first, const char *second, cli_run_t *run)
{
  char a[512], b[512];
  snprintf(a, sizeof a, RUNS "%s", first);
  snprintf(b, sizeof b, RUNS "%s", second);
  const char *args[] = {"analyse", a, b, "--replay-on", SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, run), 0);
  CU_ASSERT_EQUAL(run->status, 0);
}

static void test_analyse_replay_on_disturbed(void)
{
  cli_run_t run;
  replay_two("disturbed-pair", "quiet-pair", &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out,
                                "     p      measured (s)              predicted (s)  difference  disturbed\n"
                                "     2          0.500000 (traced CPU)      2.222222     +344.4%  yes, 52.6% lost\n"
                                "     2          1.000000 (traced)          2.222222     +122.2%  no, 5.3% lost\n"
                                "Disturbed: p = 2: its ranks did not run for 52.6% of their wall time (1.000 of "
                                "1.900 s, 7000 involuntary context switches, the machine's load 6.00 to 9.00"));
  CU_ASSERT_PTR_NULL(strstr(run.out, "Disturbed: p = 2: its ranks did not run for 5.3%"));
  /* its wall time is the fixture's longest timeline (rank 0's, ending at 1 s), and the CPU time is not passed for a
   * quiet run's (bench/startup.sh: disturbed runs' CPU time +30% to +49% of the unpreempted untraced runs') */
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "not its wall time, 1.000000 s"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "so a quiet run may be shorter still"));
  run_free(&run);
  /* compared with an untraced time, the line says which way its CPU times err (before: only that the untraced run
   * "may have been disturbed as well", where a helper's quiet spans of gerris2D at p = 4 were 2.01-2.15 s and the
   * prediction from a trace beside two busy loops 3.48 s) */
  const char *args[] = {"analyse",     RUNS "disturbed-pair",
                        "--replay-on", SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml",
                        "--untraced",  "2=0.5",
                        "--width",     "1000",
                        NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "the machine's load 6.00 to 9.00; more ranks than cores count too): the "
                                         "prediction is made of its CPU times, "
                                         "which hold what the preemptions cost too (caches refilled, the switches "
                                         "themselves), so a quiet run may be shorter than predicted"));
  run_free(&run);
}

/* Without --replay-on too, a disturbed run says so on its line, and a disturbed sequential run on T_seq's, whose
 * speedups it inflates: disturbed-seq is replay-seq whose rank ran 0.65 of its 1.3 s (0.65 lost, 50.0%, 300
 * involuntary switches); disturbed-pair lost 1.0 of 1.9 s (52.6%); quiet-pair 5.3%, under the 10% that counts; the
 * ranks of an oversubscribed run lose to others only what they waited beyond their core-mates' time, as the replay
 * counts it. */
static void test_analyse_says_disturbed(void)
{
  cli_run_t run;
  const char *args[] = {"analyse", RUNS "disturbed-seq", RUNS "disturbed-pair", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "; that run was disturbed: its rank did not run for 50.0% of its wall time "
                                         "(0.650 of 1.300 s, 300 involuntary context switches: other work), which "
                                         "T_seq holds, so the speedups and efficiencies against it are too high"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "; disturbed: its rank did not run for 50.0% of its wall time"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "; disturbed: its ranks did not run for 52.6% of their wall time (1.000 of "
                                         "1.900 s, 7000 involuntary context switches: other work, or more ranks "
                                         "than cores), which its times hold"));
  run_free(&run);
  const char *quiet[] = {"analyse", RUNS "replay-seq", RUNS "quiet-pair", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", quiet, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NULL(strstr(run.out, "disturbed"));
  run_free(&run);
  /* the ranks' waits for their core-mates are their run's own (test_analyse_replay_on_paired_by_waits): waits-quad's
   * ranks waited what their core-mates ran, others-quad's 1.2 s more */
  const char *quads[] = {"analyse", RUNS "waits-quad", RUNS "others-quad", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", quads, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  const char *waits = strstr(run.out, "waits-quad (p = 4)"), *others = strstr(run.out, "others-quad (p = 4)");
  CU_ASSERT_FATAL(waits && others && waits < others);
  const char *said = strstr(waits, "disturbed"); /* others-quad's, not waits-quad's */
  CU_ASSERT(said && said > others);
  CU_ASSERT_PTR_NOT_NULL(strstr(others, "; disturbed: its ranks waited for a processor for 15.0% of their wall time "
                                        "(1.200 of 8.000 s, 3600 involuntary context switches: each rank's beyond "
                                        "what its core-mates ran), which its times hold"));
  run_free(&run);
  /* held-quad is waits-quad whose rank 1 ran 0.9 s, its tracer's own time 0.9 s all held off the processor (HELD, the
   * 9th field: others ran then, not rank 1's tracer): rank 0 waited 1.8 s, 0.9 beyond rank 1's CPU time, and rank 1
   * 1.1 s, 0.9 beyond rank 0's 0.2: 1.8 of 8 s, 22.5%, by hand (read as the tracer's CPU time, rank 1's own time hid
   * rank 0's loss: 1.7 s, 21.3%) */
  const char *held[] = {"analyse", RUNS "held-quad", "--width", "1000", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", held, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "; disturbed: its ranks waited for a processor for 22.5% of their wall time "
                                         "(1.800 of 8.000 s, 3600 involuntary context switches: each rank's beyond "
                                         "what its core-mates ran)"));
  /* and the run's line says what of the tracer's own time was such a wait */
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "the tracer's own time, 0.900000 s over the ranks, kept out of its intervals; "
                                         "0.900000 s of the tracer's own time the ranks were held off their processors "
                                         "in it, others running"));
  run_free(&run);
}

/* One rank alone may disturb a run, the one the others waited for: waited-pair's files, bound a core each, with rank 0
 * waiting 0.17 s of its 1.0 s, the run's longest (17.0%), and rank 1 none, 0.17 of 1.9 s together (8.9%), read "yes"
 * with the rank named (rheolef's dirichlet at p = 2 read "no, 9.1% lost" beside a prediction 17.3% short, its rank 0
 * 17.5% lost); rank 0 waiting 0.09 s (9.0%) is not, nor 0.17 s when the ranks are unbound (they may share a core: no
 * rank's loss is known to be others'), nor rank 0 waiting half of a wall time of 0.1 s, 5.6% of the run's 0.9 s (a
 * rank that entered MPI_Finalize early: a review's 2 ms lost in a 10-s run read "disturbed"), nor 0.17 s where rank 0
 * was never preempted (no involuntary switch: its wait was not others'; rank 1's 9 made the run's count). */
static void test_analyse_replay_on_one_rank_disturbed(void)
{
  static const struct {
    const char *line, *cell; /* rank 0's disturbance fields: LOAD_START LOAD_END SWITCHES CPU WALL WAITED */
    int bound, said;
  } cases[] = {{"0.50 0.70 12 0.950000 1.000000 0.170000", "yes, 8.9% lost", 1, 1},
               {"0.50 0.70 12 0.950000 1.000000 0.090000", "no, 4.7% lost", 1, 0},
               {"0.50 0.70 12 0.950000 1.000000 0.170000", "no, 8.9% lost", 0, 0},
               {"0.50 0.70 12 0.050000 0.100000 0.050000", "no, 5.0% lost", 1, 0},
               {"0.50 0.70 0 0.950000 1.000000 0.170000", "no, 8.9% lost", 1, 0}};
  for (int k = 0; k < 5; k++) {
    char dir[1024];
    CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
    static const char *const files[] = {"index.txt", "rank-0.txt", "rank-1.txt", "timeline-0.txt", "timeline-1.txt"};
    for (int f = 0; f < 5; f++) {
      char *text = read_output(RUNS "waited-pair", files[f]);
      CU_ASSERT_PTR_NOT_NULL_FATAL(text);
      char *line = strstr(text, "# disturbance ");
      if (line && f >= 3) { /* rank 0's line the case's, rank 1's waiting none */
        char edited[4096];
        *line = '\0';
        snprintf(edited, sizeof edited, "%s# disturbance %s\n%s", text,
                 f == 3 ? cases[k].line : "0.60 0.70 9 0.850000 0.900000 0.000000", strchr(line + 1, '\n') + 1);
        write_in(dir, files[f], edited);
      } else {
        write_in(dir, files[f], text);
      }
      free(text);
    }
    if (cases[k].bound) /* a core each, as Open MPI binds 2 ranks on 2 cores: their waits are others' */
      write_in(dir, "index.txt",
               "rank-0.txt\nrank-1.txt\n# simrun-binding rank=0 node=vm cpus=0 online=2 node-ranks=2\n"
               "# simrun-binding rank=1 node=vm cpus=1 online=2 node-ranks=2\n");
    const char *args[] = {"analyse", dir,    "--replay-on", SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml",
                          "--width", "1000", NULL};
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, cases[k].cell));
    CU_ASSERT_EQUAL(strstr(run.out, "waited for a processor for 8.9% of their wall time (0.170 of 1.900 s, 21 "
                                    "involuntary context switches; rank 0 alone 17.0% of the run's wall time") != NULL,
                    cases[k].said);
    run_free(&run);
    remove_folder(dir);
  }
}

/* With each rank's wait for a processor (run_delay, the 6th field of "# disturbance"), that is what the ranks lost:
 * sleepy-pair is disturbed-pair whose ranks waited 0.010 and 0.009 s (they slept, not preempted: wall less CPU would
 * say 52.6%), 0.019 of 1.9 s, 1.0%: compared with the traced T_par, +122.2%; waited-pair is quiet-pair whose ranks
 * waited 0.3 and 0.2 s (their other threads' CPU time hid it: wall less CPU says 5.3%), 0.5 of 1.9 s, 26.3%: compared
 * with the busiest rank's CPU time, 0.95 s: 2.222222 / 0.95 = +133.9%. */
static void test_analyse_replay_on_waited(void)
{
  cli_run_t run;
  replay_two("sleepy-pair", "waited-pair", &run);
  CU_ASSERT_PTR_NOT_NULL(
      strstr(run.out, "     p      measured (s)              predicted (s)  difference  disturbed\n"
                      "     2          1.000000 (traced)          2.222222     +122.2%  no, 1.0% lost\n"
                      "     2          0.950000 (traced CPU)      2.222222     +133.9%  yes, 26.3% lost\n"
                      "Disturbed: p = 2: its ranks waited for a processor for 26.3% of their wall time (0.500 "
                      "of 1.900 s, 21 involuntary context switches, the machine's load 0.50 to 0.70"));
  run_free(&run);
}

/* Field `name` of the CSV's data row `row` (1 the first) into `text`: "" where the row or column is missing. */
static void csv_text_at(const char *csv, int row, const char *name, char *text, size_t len)
{
  text[0] = '\0';
  int column = tu_csv_column(csv, name);
  const char *line = csv;
  for (int r = 0; line && r < row; r++)
    line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL;
  if (column >= 0 && line && tu_csv_field(line, column, text, len) != 0)
    text[0] = '\0';
}

/* Copies files `files` (`n` of them) of fixture folder `from` into the new folder `dir`, each text through `edit`
 * (NULL: none), which may change it in place or replace it (*text, malloc'd). */
static void copied_folder(char dir[1024], const char *from, const char *const *files, size_t n,
                          void (*edit)(const char *file, char **text))
{
  CU_ASSERT_FATAL(make_folder(dir, 1024) == 0);
  for (size_t i = 0; i < n; i++) {
    char *text = read_output(from, files[i]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    if (edit)
      edit(files[i], &text);
    write_in(dir, files[i], text);
    free(text);
  }
}

static const char *const triple_files[] = {"index.txt",      "rank-0.txt",     "rank-1.txt",    "rank-2.txt",
                                           "timeline-0.txt", "timeline-1.txt", "timeline-2.txt"};

/* polled-triple's files through `edit` in the new folder `dir`, analysed into *run. */
static void edited_triple_analysed(char dir[1024], void (*edit)(const char *file, char **text), cli_run_t *run)
{
  copied_folder(dir, RUNS "polled-triple", triple_files, sizeof triple_files / sizeof triple_files[0], edit);
  const char *args[] = {"analyse", dir, "--width", "1000", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, run), 0);
  TU_ASSERT_RAN(run);
}

/* A timeline's *text with "# polls-work FIELDS" before its "# end" line (none: unchanged). */
static void polls_work_line(char **text, const char *fields)
{
  const char *end = strstr(*text, "# end ");
  if (!end)
    return;
  size_t len = strlen(*text) + strlen(fields) + 16;
  char *with = malloc(len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(with);
  snprintf(with, len, "%.*s# polls-work %s\n%s", (int)(end - *text), *text, fields, end);
  free(*text);
  *text = with;
}

/* polled-triple's timeline as today's tracer ends it, with "# polls-work": ranks 0 and 1 0.6 s of work between their
 * tests, rank 2 none (it made no run of polls). */
static void polls_work_added(const char *file, char **text)
{
  polls_work_line(text,
                  strcmp(file, "timeline-2.txt") == 0 ? "0.000000 0 0 0 0" : "0.600000 1000 15 0.000002 0.00000003");
}

/* Runs of polls that used a fifth or more of the ranks' CPU time are said to hold whatever work the program did between
 * its tests, from a tracer before "# polls-work": tests/data/tracer/polled-triple's ranks 0 and 1 each used 0.9 of
 * their 1.0 CPU s in runs of polls, rank 2 none of its 2.0 s: by hand 1.800 of 4.000 s, 45.0%. shared-quad's 0.3 of
 * 3.0 s (10%) and waitsome-self's 0.8 ms of 1.166 s get no word. Before, bench/trc_polling.c at p = 2, which works
 * some 60 of each 75 ns between its tests, read as 6.4% efficient and idle 14.4 times T_seq without one. The same
 * files with today's "# polls-work" lines are said to have 1.200 s of the runs' time booked as computation (0.6 s on
 * each of ranks 0 and 1, by hand). */
static void test_analyse_says_polls_hold_work(void)
{
  static const struct {
    const char *folder;
    int said;
  } cases[] = {{RUNS "polled-triple", 1}, {RUNS "shared-quad", 0}, {RUNS "waitsome-self", 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cli_run_t run;
    const char *args[] = {"analyse", cases[i].folder, "--width", "1000", NULL};
    CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
    TU_ASSERT_RAN(&run);
    const char *said = strstr(run.out, "; its ranks' runs of polls used ");
    CU_ASSERT_EQUAL(said != NULL, cases[i].said);
    if (cases[i].said)
      CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "; its ranks' runs of polls used 1.800 s of their 4.000 s of CPU (45.0%), "
                                             "each counted as one wait from its first test to its last (idle, or ctrl "
                                             "where no partner is awaited), any work the program did between its tests "
                                             "included"));
    run_free(&run);
  }
  char dir[1024];
  cli_run_t run;
  edited_triple_analysed(dir, polls_work_added, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "; its ranks' runs of polls used 1.800 s of their 4.000 s of CPU (45.0%), "
                                         "1.200 s of their time the program's work between its tests, counted as "
                                         "computation (an estimate: the mean time between two tests, read at one in "
                                         "64, less the tracer's part)"));
  CU_ASSERT_PTR_NULL(strstr(run.out, "each counted as one wait"));
  run_free(&run);
  remove_folder(dir);
}

/* polled-triple's rank 2 damaged to say it polled 5 s of its 2 s of CPU (its POLLS 0.000000 -> 5.000000). */
static void polls_beyond_cpu(const char *file, char **text)
{
  static const char line[] = "# disturbance 1.00 1.00 100 2.000000 2.100000 0.100000 2.000000 0.000000";
  char *at = strstr(*text, line);
  if (at)
    memcpy(at + sizeof line - 9, "5", 1);
  CU_ASSERT_EQUAL(at != NULL, strcmp(file, "timeline-2.txt") == 0);
}

/* polled-triple's ranks saying 10^300 s of work between their tests, as a damaged or hostile file may. */
static void polls_work_huge(const char *file, char **text)
{
  (void)file;
  polls_work_line(text, "1e300 1000 15 0.000002 0.00000003");
}

/* polled-triple's ranks 0 and 1 saying work that is no time (-5 s, inf), rank 2 0.6 s. */
static void polls_work_bad(const char *file, char **text)
{
  polls_work_line(text, strcmp(file, "timeline-0.txt") == 0   ? "-5 1000 15 0.000002 0.00000003"
                        : strcmp(file, "timeline-1.txt") == 0 ? "inf 1000 15 0.000002 0.00000003"
                                                              : "0.600000 1000 15 0.000002 0.00000003");
}

/* A damaged polled-triple whose rank 2 says it polled 5 s of its 2 s of CPU: the polls are counted as the CPU at
 * most, 4.000 of 4.000 s (100.0%), not 6.800 s (170%). Its ranks saying 10^300 s of work between their tests: each
 * counted as its wall time at most, 6.300 s (3 x 2.1 s), not a number of 301 digits. Ranks saying -5 s and inf: not
 * times, left out as an older tracer's lines are, so the run reads as such a tracer's (each run of polls one wait),
 * not as -2.3 s (-5 + 2.1 + 0.6) or any sum. */
static void test_analyse_polls_beyond_cpu_bounded(void)
{
  char dir[1024];
  cli_run_t run;
  edited_triple_analysed(dir, polls_beyond_cpu, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "; its ranks' runs of polls used 4.000 s of their 4.000 s of CPU (100.0%)"));
  run_free(&run);
  remove_folder(dir);
  edited_triple_analysed(dir, polls_work_huge, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "(45.0%), 6.300 s of their time the program's work between its tests"));
  run_free(&run);
  remove_folder(dir);
  edited_triple_analysed(dir, polls_work_bad, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "(45.0%), each counted as one wait from its first test to its last"));
  run_free(&run);
  remove_folder(dir);
}

/* blocked-pair is quiet-pair whose files give the ranks' computations' CPU time (COMPUTE): rank 0's 0.8 s of
 * computation used 0.8 s of CPU, rank 1's 0.5 s used 0.2 s, and neither waited for a processor: rank 1 was blocked 0.3
 * s (slept), 30% of the run's 1.0 s, which the TI trace's amounts leave out. The run's line and a "Blocked:" line say
 * so, the latter with the prediction plus 0.3 s (quiet-pair's 2.222222 s, expect_replay_on: 2.522222 s); the CSV's
 * blocked_s is 0.3, and empty for quiet-pair, whose files do not give COMPUTE; the page has the line once. Before, a
 * Garli-mpi run that slept 3 of its 4 s read "not disturbed" beside a -100% prediction. */
static void test_analyse_replay_on_blocked(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"analyse",
                        "--width",
                        "1000",
                        RUNS "blocked-pair",
                        RUNS "quiet-pair",
                        "--replay-on",
                        SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml",
                        "--csv",
                        "b.csv",
                        "--html",
                        "b.html",
                        NULL};
  run_ok(dir, sizeof dir, args, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "; its ranks' computations were blocked for 0.300 s (30.0% of its T_par; "
                                         "neither running nor waiting for a processor: sleeps, reads of files or "
                                         "pipes, waits for something outside MPI; rank 1 the longest, 0.300 s), which "
                                         "the TI trace's compute amounts, CPU time, leave out: a replay misses it\n"));
  const char *line = strstr(run.out, "Blocked: p = 2: the prediction leaves out the 0.300 s its ranks' computations "
                                     "were blocked");
  CU_ASSERT_PTR_NOT_NULL_FATAL(line);
  CU_ASSERT_PTR_NOT_NULL(strstr(line, "up to 2.522222 s\n"));
  CU_ASSERT_PTR_NULL(strstr(line + 1, "Blocked:"));
  CU_ASSERT_PTR_NULL(strstr(run.out, "taking turns on the cores")); /* no binding lines: not said oversubscribed */
  const char *quiet = strstr(run.out, "quiet-pair (p = 2)");
  CU_ASSERT_FATAL(quiet && strchr(quiet, '\n'));
  CU_ASSERT(!strstr(quiet, "were blocked") || strstr(quiet, "were blocked") > strchr(quiet, '\n'));
  char *csv = read_output(dir, "b.csv"), *html = read_output(dir, "b.html");
  CU_ASSERT_FATAL(csv && html);
  TU_ASSERT_CLOSE(csv_value_at(csv, 1, "blocked_s"), 0.3, 1e-9);
  char text[64];
  csv_text_at(csv, 2, "blocked_s", text, sizeof text);
  CU_ASSERT_STRING_EQUAL(text, "");
  const char *paragraph = strstr(html, "<p>Blocked: p = 2: the prediction leaves out the 0.300 s");
  CU_ASSERT_PTR_NOT_NULL(paragraph);
  CU_ASSERT(paragraph && !strstr(paragraph + 1, "<p>Blocked:"));
  free(csv);
  free(html);
  remove_folder(dir);
  run_free(&run);
  /* blocked-unwaited is blocked-pair without the ranks' waits for a processor (nan: no schedstat): their wall less
   * CPU time, which then stands for those waits, holds the blocks too, so nothing is said (blocked_s empty), where
   * 0 s would have been read as "not blocked" */
  const char *unwaited[] = {"analyse",     RUNS "blocked-unwaited",
                            "--replay-on", SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml",
                            "--csv",       "u.csv",
                            NULL};
  run_ok(dir, sizeof dir, unwaited, &run);
  CU_ASSERT_PTR_NULL(strstr(run.out, "were blocked"));
  CU_ASSERT_PTR_NULL(strstr(run.out, "Blocked:"));
  csv = read_output(dir, "u.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  csv_text_at(csv, 1, "blocked_s", text, sizeof text);
  CU_ASSERT_STRING_EQUAL(text, "");
  free(csv);
  remove_folder(dir);
  run_free(&run);
}

/* A computation waiting for a child process that waits for a processor is blocked too, and a quiet run takes that
 * wait no less: on one node, the blocked seconds are at most the CPU time its cores had left for work, and T_seq from
 * the measured computation says it holds the rest, as it says so of ranks' own waits for a processor.
 * children-crowded: three ranks, one node of 2 online cores, each computing 2.0 s of wall (one interval) with 1.32 s
 * of CPU (1.27 s of it its children's), waiting 0.05 s for a processor. By hand: 3 x (2.0 - 1.32 - 0.05) = 1.89 s not
 * running nor waiting, but the cores had 2 x 2.0 - 3 x 1.32 = 0.04 s left: blocked 0.04 s, under 5% of T_par, so no
 * line says it; T_seq, 6.0 s of computation on 3.96 s of CPU, 34% not running, of which 0.15 s the ranks waited and
 * 1.85 s the cores had no room, over half: said (ffindex_apply_mpi at p = 3 on 2 cores, each rank waiting for its xz,
 * read "blocked for 1.390 s, 65.1% of its T_par" and "up to 3.947916 s", where its computations used 3.993 of the
 * cores' 4.273 CPU seconds, and its T_seq of 5.84 s gave a speedup of 2.73 on 2 cores without a word). */
static void test_analyse_blocked_within_cores_left(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"analyse",     RUNS "children-crowded",
                        "--replay-on", RUNS "bind-quad/cores.xml",
                        "--csv",       "c.csv",
                        "--width",     "1000",
                        NULL};
  run_ok(dir, sizeof dir, args, &run);
  CU_ASSERT_PTR_NULL(strstr(run.out, "were blocked"));
  CU_ASSERT_PTR_NULL(strstr(run.out, "Blocked:"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "the ranks' child processes used 3.810 s of CPU"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "; its computations ran 6.000 s but used 3.960 s of CPU (34% of their time "
                                         "not running: ranks that took turns on shared cores, child processes waiting "
                                         "for a processor, or other work)"));
  char *csv = read_output(dir, "c.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  TU_ASSERT_CLOSE(csv_value_at(csv, 1, "blocked_s"), 0.04, 1e-9);
  free(csv);
  remove_folder(dir);
  run_free(&run);
}

/* How far to trust each comparison reaches the CSV, the JSON and the HTML page as well as the report: disturbed-pair's
 * ranks did not run for 1.0 of their 1.9 s (its files, by hand), quiet-pair's for 0.1 s, replay-pair's files do not
 * say; the page gives the "Disturbed:" line of disturbed-pair alone. waits-quad's ranks waited 4 of their 8 s, and the
 * replay paired them by those waits (test_analyse_replay_on_paired_by_waits): the CSV's placement and the page's
 * "Placement:" line say so; as each waited what its core-mate ran, they lost nothing to others (0 in the CSV, no
 * "Disturbed:" line). */
static void test_analyse_replay_on_html(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"analyse",
                        RUNS "disturbed-pair",
                        RUNS "quiet-pair",
                        RUNS "replay-pair",
                        "--replay-on",
                        SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml",
                        "--csv",
                        "r.csv",
                        "--json",
                        "r.json",
                        "--html",
                        "r.html",
                        NULL};
  run_ok(dir, sizeof dir, args, &run);
  char *csv = read_output(dir, "r.csv"), *json = read_output(dir, "r.json"), *html = read_output(dir, "r.html");
  CU_ASSERT_FATAL(csv && json && html);
  static const char *const said[] = {"yes", "no", ""};
  const double lost[] = {1.0 / 1.9, 0.1 / 1.9};
  for (int row = 1; row <= 3; row++) {
    char text[64];
    csv_text_at(csv, row, "disturbed", text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, said[row - 1]);
    csv_text_at(csv, row, "cpu_lost_share", text, sizeof text);
    CU_ASSERT(row < 3 ? fabs(strtod(text, NULL) - lost[row - 1]) < 1e-6 : !*text);
  }
  CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"disturbed\": true"));
  CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"disturbed\": false"));
  CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"disturbed\": null"));
  CU_ASSERT_PTR_NOT_NULL(strstr(html, ">disturbed</th>"));
  const char *line =
      strstr(html, "<p>Disturbed: p = 2: its ranks did not run for 52.6% of their wall time (1.000 of 1.900 s");
  CU_ASSERT_PTR_NOT_NULL(line);
  CU_ASSERT(line && !strstr(line + 1, "<p>Disturbed:"));
  CU_ASSERT_PTR_NULL(strstr(html, "<p>Placement:"));
  free(csv);
  free(json);
  free(html);
  remove_folder(dir);
  run_free(&run);
  const char *quad[] = {"analyse", RUNS "waits-quad", "--replay-on", RUNS "bind-quad/cores.xml", "--csv", "q.csv",
                        "--html",  "q.html",          NULL};
  run_ok(dir, sizeof dir, quad, &run);
  csv = read_output(dir, "q.csv");
  html = read_output(dir, "q.html");
  CU_ASSERT_FATAL(csv && html);
  char placement[2048];
  csv_text_at(csv, 1, "placement", placement, sizeof placement);
  CU_ASSERT_PTR_NOT_NULL(strstr(placement, "p = 4: oversubscribed (4 ranks on 2 online cores) and unbound"));
  CU_ASSERT_PTR_NOT_NULL(strstr(placement, "(core-0: 0 1, core-1: 2 3:"));
  /* each rank waited what its core-mate ran: nothing lost to others */
  TU_ASSERT_CLOSE(csv_value_at(csv, 1, "cpu_lost_share"), 0.0, 1e-9);
  CU_ASSERT_PTR_NOT_NULL(strstr(html, "<p>Placement: p = 4: oversubscribed (4 ranks on 2 online cores) and unbound"));
  CU_ASSERT_PTR_NULL(strstr(html, "<p>Disturbed:"));
  free(csv);
  free(html);
  remove_folder(dir);
  run_free(&run);
}

/* With each rank's computations' CPU time (COMPUTE, the 7th field of "# disturbance"), a disturbed run's measured time
 * is a range: at most the busiest core's CPU time, at least the greatest over the cores of their computations' CPU
 * time and what their waits spun beyond what the ranks on the other cores waited for a processor or spent in their
 * tracer (LIGGGHTS at p = 2 beside two busy loops, docs/analyse.md: compared with its busiest rank's 8.202 CPU s,
 * mostly spun, its prediction read -82.9%). spun-pair and spun-less-pair are replay-pair six times as long, each
 * prediction 2.222222 s (expect_replay_on). In spun-pair the ranks used 2.9 and 2.7 CPU s, 0.4 and 0.2 of them
 * computations, and waited 3.0 and 2.6 s for a processor: rank 0's core at least 0.4 + max(0, 2.5 - 2.6) = 0.4 s, rank
 * 1's 0.2 + max(0, 2.5 - 3.0) = 0.2 s: the range 0.4 to 2.9 s, the prediction within it. In spun-less-pair they used
 * 4.5 and 4.4 CPU s, 0.4 and 0.2 of them computations, and waited 1.0 and 0.5 s (13.2% of 11.4 s): rank 0's core at
 * least 0.4 + (4.1 - 0.5) = 4.0 s, rank 1's 0.2 + (4.2 - 1.0) = 3.4 s: the range 4.0 to 4.5 s, the prediction
 * 2.222222 / 4.0 - 1 = -44.4% below it. spun-traced-pair is spun-less-pair whose rank 0 computed its 0.4 s alone (CPU
 * 1.0 s) and spent 3.0 s in its tracer ("# tracer-cost", rank 1's 0.1 s), through which rank 1 spun: rank 0's core at
 * least 0.4 + max(0, 0.6 - 0.5 - 0.1) = 0.4 s, rank 1's 0.2 + max(0, 4.2 - 1.0 - 3.0) = 0.4 s: the range 0.4 to 4.4 s
 * (3.4 to 4.4 s, -34.6%, before the tracer's time counted: tests/data/tracer/startup.c's rank 1 spun so beside
 * check_docs). The CSV gives both ends, what they are and the difference. */
static void test_analyse_replay_on_spun(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"analyse",
                        RUNS "spun-pair",
                        RUNS "spun-less-pair",
                        RUNS "spun-traced-pair",
                        "--replay-on",
                        SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml",
                        "--csv",
                        "r.csv",
                        "--svg",
                        "svg",
                        NULL};
  run_ok(dir, sizeof dir, args, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out,
                                "     p      measured (s)              predicted (s)  difference  disturbed\n"
                                "     2           0.4-2.9 (traced CPU)      2.222222      within  yes, 49.1% lost\n"
                                "     2             4-4.5 (traced CPU)      2.222222      -44.4%  yes, 13.2% lost\n"
                                "     2           0.4-4.4 (traced CPU)      2.222222      within  yes, 13.2% lost\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "measured is the range a quiet run's"));
  char *csv = read_output(dir, "r.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  const double figures[3][4] = {
      {2.9, 0.4, 0, 2.222222}, {4.5, 4.0, 2.2222222 / 4.0 - 1, 2.222222}, {4.4, 0.4, 0, 2.222222}};
  for (int row = 1; row <= 3; row++) {
    TU_ASSERT_CLOSE(csv_value_at(csv, row, "t_measured"), figures[row - 1][0], 1e-9);
    TU_ASSERT_CLOSE(csv_value_at(csv, row, "t_measured_least"), figures[row - 1][1], 1e-9);
    TU_ASSERT_CLOSE(csv_value_at(csv, row, "replay_diff"), figures[row - 1][2], 1e-6);
    TU_ASSERT_CLOSE(csv_value_at(csv, row, "t_replay"), figures[row - 1][3], 1e-6);
  }
  CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",traced CPU,"));
  free(csv);
  /* the picture draws both ends of the ranges */
  char *svg = read_output(dir, "svg/measured-replay.svg");
  CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, "measured (a disturbed run's: the most of its range)"));
  CU_ASSERT_PTR_NOT_NULL(strstr(svg, "measured, the least of a disturbed run's range"));
  free(svg);
  remove_run(dir, &run);
  /* a rank's second "# disturbance" line is left out: spun-pair whose rank 0 says both ranks' lines and rank 1 none
   * is a run whose files do not all say, compared with its T_par, 6 s: 2.222222 / 6 - 1 = -63.0% */
  const char *const files[] = {"index.txt", "rank-0.txt", "rank-1.txt"};
  copied_folder(dir, RUNS "spun-pair", files, 3, NULL);
  write_in(dir, "timeline-0.txt",
           "# simrun measured timeline 1\n# rank 0 of 2\n# start end category phase peer bytes call\n"
           "0.000000000 3.600000000 compute work -1 0 -\n3.600000000 4.800000000 comm send 1 1000 MPI_Send\n"
           "4.800000000 6.000000000 compute main -1 0 -\n"
           "# disturbance 2.00 3.00 3000 2.900000 6.000000 3.000000 0.400000\n"
           "# disturbance 2.00 3.00 2500 2.700000 5.400000 2.600000 0.200000\n# end 6.000000000\n");
  write_in(dir, "timeline-1.txt",
           "# simrun measured timeline 1\n# rank 1 of 2\n# start end category phase peer bytes call\n"
           "0.000000000 2.400000000 compute work -1 0 -\n2.400000000 4.800000000 idle main 0 1000 MPI_Recv\n"
           "4.800000000 5.400000000 compute main -1 0 -\n# end 5.400000000\n");
  const char *twice[] = {"analyse", dir, "--replay-on", SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", twice, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(
      strstr(run.out, "     2          6.000000 (traced)          2.222222      -63.0%  - (not recorded)\n"));
  run_free(&run);
  remove_folder(dir);
}

/* Runs simrun analyse `args` in folder `work` with TMPDIR `tmp`, SIMRUN_TEST_PAUSE `pause` (NULL: none) and, once it
 * paused there, signal `sig`; into *run. Then `tmp` must be empty: the replay's temporary folder removed. */
static void replay_in(const char *work, const char *tmp, const char *const *args, const char *pause, int sig,
                      cli_run_t *run)
{
  char *was = tu_env_swap("TMPDIR", tmp);
  if (pause)
    setenv("SIMRUN_TEST_PAUSE", pause, 1);
  FILE *out = tmpfile();
  FILE *err = tmpfile();
  pid_t pid = spawn(work, SIMRUN_BINARY, args, out, err);
  unsetenv("SIMRUN_TEST_PAUSE");
  tu_env_restore("TMPDIR", was);
  if (pause) {
    CU_ASSERT_EQUAL(wait_paused(err), 0);
    CU_ASSERT(pid > 0 && kill(pid, sig) == 0);
  }
  CU_ASSERT_EQUAL_FATAL(finish(pid, out, err, run), 0);
  CU_ASSERT_EQUAL(count_entries(tmp), 0);
}

/* --replay-on leaves no temporary folder (in $TMPDIR) on any path: a replay that succeeds (replay-pair, 2.222222 s as
 * in test_analyse_replay_on), a platform that does not load (exit 2, one line naming the user's file, before the
 * report; once, the replay's temporary scenario in two lines, exit 1), a signal while it replays (128 + its number),
 * and a run too busy to look (SIMRUN_TEST_PAUSE=replay:stuck: the watchdog removes it). And replay-pair's files with
 * an empty index.txt: one line naming that file (before, the replay's temporary copy of it in $TMPDIR). */
static void test_analyse_replay_on_cleans_up(void)
{
  char work[1024], tmp[1024], bad[1200];
  CU_ASSERT_EQUAL_FATAL(make_folder(work, sizeof work), 0);
  CU_ASSERT_EQUAL_FATAL(make_folder(tmp, sizeof tmp), 0);
  snprintf(bad, sizeof bad, "%s/bad.xml", work);
  write_in(work, "bad.xml", "<platform>\n");
  const char *good[] = {"analyse", RUNS "replay-pair", "--replay-on", SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml",
                        NULL};
  const char *broken[] = {"analyse", RUNS "replay-pair", "--replay-on", "bad.xml", NULL};
  cli_run_t run;
  replay_in(work, tmp, good, NULL, 0, &run);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "2.222222"));
  run_free(&run);
  replay_in(work, tmp, broken, NULL, 0, &run);
  CU_ASSERT_EQUAL(run.status, 2);
  assert_error_line(run.err, "bad.xml:2:1: not well-formed XML", (const char *[]){"fix the syntax", NULL});
  CU_ASSERT_STRING_EQUAL(run.out, ""); /* checked before the report */
  CU_ASSERT_PTR_NULL(strstr(run.err, "simrun-replay-"));
  run_free(&run);
  static const struct {
    const char *pause;
    int sig;
  } stops[] = {{"replay", SIGTERM}, {"replay:stuck", SIGINT}};
  for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
    replay_in(work, tmp, good, stops[i].pause, stops[i].sig, &run);
    CU_ASSERT_EQUAL(run.status, 128 + stops[i].sig);
    const char *line = strstr(run.err, "simrun: error: ");
    CU_ASSERT(line && strstr(line, "interrupted by SIG") && strstr(line, "while replaying the runs"));
    CU_ASSERT(line && count_lines(line) == 1);
    run_free(&run);
  }
  char empty[1100];
  snprintf(empty, sizeof empty, "%s/empty-index", work);
  CU_ASSERT_EQUAL_FATAL(mkdir(empty, 0777), 0);
  static const char *const files[] = {"rank-0.txt", "rank-1.txt", "timeline-0.txt", "timeline-1.txt"};
  for (int i = 0; i < 4; i++) {
    char *text = read_output(RUNS "replay-pair", files[i]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    write_in(empty, files[i], text);
    free(text);
  }
  write_in(empty, "index.txt", "");
  const char *emptied[] = {"analyse", "empty-index", "--replay-on", SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml",
                           NULL};
  replay_in(work, tmp, emptied, NULL, 0, &run);
  CU_ASSERT_NOT_EQUAL(run.status, 0);
  CU_ASSERT_EQUAL(count_lines(run.err), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "empty-index/index.txt is empty"));
  CU_ASSERT_PTR_NULL(strstr(run.err, "simrun-replay-"));
  run_free(&run);
  remove_folder(empty);
  CU_ASSERT_EQUAL(remove(bad), 0);
  remove_folder(work);
  remove_folder(tmp);
}

/* Writes `dir`/`name`: a SimGrid platform of `body` (its elements, whole lines). */
static void write_platform(const char *dir, const char *name, const char *body)
{
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *platform = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(platform);
  fprintf(platform,
          "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<platform version=\"4.1\">\n%s</platform>\n",
          body);
  CU_ASSERT_EQUAL_FATAL(fclose(platform), 0);
}

/* Writes `dir`/`name`: two hosts of 1 Gflop/s, core-0 and core-1, whose link carries 8 bytes in 1 ns + 8e-15 s, with
 * the root zone's properties `props` (XML, may be ""). */
static void write_pair_platform(const char *dir, const char *name, const char *props)
{
  char zone[2048];
  snprintf(zone, sizeof zone,
           "  <zone id=\"this-machine\" routing=\"Full\">\n    %s\n"
           "    <host id=\"core-0\" speed=\"1Gf\"/>\n    <host id=\"core-1\" speed=\"1Gf\"/>\n"
           "    <link id=\"shm\" bandwidth=\"1000TBps\" latency=\"1ns\"/>\n"
           "    <route src=\"core-0\" dst=\"core-1\"><link_ctn id=\"shm\"/></route>\n  </zone>\n",
           props);
  write_platform(dir, name, zone);
}

/* simrun analyse RUNS/`folder` --replay-on two hosts of 1 Gflop/s with `property` (write_pair_platform) --untraced
 * `untraced`, whose table must hold `row`. */
static void expect_pair_replay_with(const char *folder, const char *property, const char *untraced, const char *row)
{
  char dir[1024], path[1200];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  write_pair_platform(dir, "pair.xml", property);
  snprintf(path, sizeof path, RUNS "%s", folder);
  const char *args[] = {"analyse", path, "--replay-on", "pair.xml", "--untraced", untraced, NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, row));
  remove_folder(dir);
  run_free(&run);
}

/* --replay-on charges a traced call's page faults (the TI trace's faults action) at the platform's
 * simrun:page-fault-us: tests/data/tracer/faults-pair, by hand: rank 0 computes 1.2e8 flops, sends 20.48 MB, computes
 * 1e7; rank 1 computes 8e7, receives, takes 5000 faults in its receive, computes 2e7, on two 1e9 flop/s hosts whose
 * link (1000 TB/s, 1 ns) carries the message in 20 ns. At 10 us a fault (a round figure; simrun machine probe
 * measured 10.7 us here) rank 1 ends at 0.12 + 2e-8 + 0.05 + 0.02 = 0.190000 s (the measured 0.19 s), rank 0 at 0.13 s;
 * without the property the faults cost nothing and rank 1 ends at 0.140000 s. */
static void test_analyse_replay_on_page_faults(void)
{
  expect_pair_replay_with("faults-pair", "<prop id=\"simrun:page-fault-us\" value=\"10\"/>", "2=0.19",
                          "     2          0.190000 (untraced)        0.190000       +0.0%  - (not recorded)\n");
  expect_pair_replay_with("faults-pair", "", "2=0.19",
                          "     2          0.190000 (untraced)        0.140000      -26.3%  - (not recorded)\n");
}

/* An --untraced time far longer than the traced run's T_par (tests/data/tracer/faults-pair: 0.19 s, by hand above)
 * gets the "Untraced:" line, which says what --untraced takes: 0.30 s is 57.9% longer (beyond 20% and 50 ms: 0.278
 * s); 0.27 s and the T_par itself get none (pvbatch's mpirun wall time, 0.75 s of start-up before MPI_Init, read -24%
 * to -40% without a word). */
static void test_analyse_replay_on_untraced_far_longer(void)
{
  static const struct {
    const char *untraced, *said;
  } cases[] = {{"2=0.30", "Untraced: p = 2: 0.300000 s given, 57.9% longer than the traced run's T_par (0.190000 s), "
                          "which tracing only lengthens: unless others slowed the untraced run, it is not what "
                          "--untraced takes, the time from the end of MPI_Init to MPI_Finalize (libsimrun-span.so "
                          "preloaded prints it), but a wall time such as mpirun's"},
               {"2=0.27", NULL},
               {"2=0.19", NULL}};
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  write_pair_platform(dir, "pair.xml", "");
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    const char *args[] = {"analyse",    RUNS "faults-pair", "--replay-on", "pair.xml",
                          "--untraced", cases[k].untraced,  NULL};
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    tu_unwrap(run.out);
    CU_ASSERT(cases[k].said ? strstr(run.out, cases[k].said) != NULL : strstr(run.out, "Untraced:") == NULL);
    run_free(&run);
  }
  remove_folder(dir);
}

/* --replay-on charges each rank's first collective of each kind at the platform's simrun:first-call-us, once per kind
 * whatever the communicator: tests/data/tracer/first-calls-pair, by hand: each rank computes 1e8 flops (0.1 s at 1
 * Gflop/s), then a broadcast, an allreduce, a broadcast and a broadcast on a communicator of both, whose messages of 8
 * bytes take nanoseconds. At 1000 us a first call (a round figure), the first broadcast and the first allreduce cost
 * each rank 1 ms: 0.102000 s (once per communicator would give 0.103; without the property, 0.100). */
static void test_analyse_replay_on_first_calls(void)
{
  expect_pair_replay_with("first-calls-pair", "<prop id=\"simrun:first-call-us\" value=\"1000\"/>", "2=0.102",
                          "     2          0.102000 (untraced)        0.102000       +0.0%  - (not recorded)\n");
  expect_pair_replay_with("first-calls-pair", "", "2=0.102",
                          "     2          0.102000 (untraced)        0.100000       -2.0%  - (not recorded)\n");
}

/* The same on the platform without a property. */
static void expect_pair_replay(const char *folder, const char *untraced, const char *row)
{
  expect_pair_replay_with(folder, "", untraced, row);
}

/* --replay-on charges a run of polls' processor time (the TI trace's "poll COUNT FLOPS") until a receive of the rank
 * is over: tests/data/tracer/poll-pair on two hosts of 1 Gflop/s, by hand: rank 1 computes 0.195 s and sends 8 bytes;
 * rank 0 polls with nothing pending for 0.15 s (charged whole), posts the receive, then polls 0.64 s in pieces of a
 * 64th (0.01 s), the message found over after the piece ending at 0.20 s; then its wait (over) and 0.01 s of
 * computation: 0.21 s (0.80 s were the second run charged whole, 0.205 s were the polls charged nothing, as "poll 7"
 * and the older "poll 3 FIRST LAST" are). */
static void test_analyse_replay_on_polls_until_a_message(void)
{
  expect_pair_replay("poll-pair", "2=0.21",
                     "     2          0.210000 (untraced)        0.210000       +0.0%  - (not recorded)\n");
}

/* A rank's send to itself is no receive that ends a run of polls: tests/data/tracer/polls-self-send at p = 1 isends to
 * itself, polls 0.3 s (3e8 flops) with that send pending (over at once: eager), receives, tests the send, computes
 * 0.01 s: by hand on a 1 Gflop/s host, 0.3 + 0.01 = 0.31 s (the send taken for a receive cut the run before its first
 * piece: 0.01 s; Ray at p = 1 was predicted 15% short so). */
static void test_analyse_replay_on_polls_beside_own_send(void)
{
  expect_pair_replay("polls-self-send", "1=0.31",
                     "     1          0.310000 (untraced)        0.310000       +0.0%  - (not recorded)\n");
}

/* --replay-on a <cluster> without loopback_bw, whose host is routed to itself out over its own link and back (as
 * SimGrid and smpirun price it), says so for tests/data/tracer/polls-self-send's one message, 8 bytes from rank 0 to
 * itself: one warning line naming the host, both its links and how to price such messages as copies (a measured run
 * of 20 MPI_Send of 1 MiB to oneself at p = 2, 1.5 ms, was predicted 0.33 s on a cluster of 125 MB/s links without a
 * word), a cluster of one host too (no other host's route to compare with); the same clusters with loopback_bw, whose
 * self-route is their loopback link alone, and the two hosts of write_pair_platform, whose self-route is SimGrid's
 * __loopback__, say nothing. Its --replay-on and --platform replays on one platform say it once. */
static void test_analyse_replay_on_says_self_messages_cross_links(void)
{
  static const char crossed[] =
      "c.xml: 1 message(s) of 8 bytes in all (collectives' steps included) went between ranks on one host over its "
      "links (the first from rank 0 to rank 0 on node-0, whose route to itself crosses c_link_0_UP, c_link_0_DOWN: a "
      "<cluster> without loopback_bw, which SimGrid and smpirun route out and back), so each took the network's time; "
      "give the cluster loopback_bw and loopback_lat (a copy in memory's) to price them as copies\n";
  static const struct {
    const char *radical, *loopback, *warning;
  } cases[] = {{"0-1", "", crossed},
               {"0-1", " loopback_bw=\"10GBps\" loopback_lat=\"1ns\"", NULL},
               {"0-0", "", crossed},
               {"0-0", " loopback_bw=\"10GBps\" loopback_lat=\"1ns\"", NULL}};
  char dir[1024], cluster[512];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    snprintf(cluster, sizeof cluster,
             "  <cluster id=\"c\" prefix=\"node-\" suffix=\"\" radical=\"%s\" speed=\"1Gf\" bw=\"1GBps\" "
             "lat=\"1ms\"%s/>\n",
             cases[i].radical, cases[i].loopback);
    write_platform(dir, "c.xml", cluster);
    const char *args[] = {
        "analyse", RUNS "polls-self-send", "--replay-on", "c.xml", "--platform", "c.xml", "--csv", "o.csv", NULL};
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    const char *said = strstr(run.err, "simrun: warning: ");
    CU_ASSERT(cases[i].warning ? said && count_lines(run.err) == 1 && strstr(said, cases[i].warning) : !said);
    /* and the report under the table, and the CSV's same_host, without the platform's name the table gives */
    char *csv = read_output(dir, "o.csv");
    char same[2048] = "";
    if (csv)
      csv_text_at(csv, 1, "same_host", same, sizeof same);
    const char *line = strstr(run.out, "\nSame host: p = 1: 1 message(s) of 8 bytes in all");
    CU_ASSERT(cases[i].warning ? line && strncmp(same, "p = 1: ", 7) == 0 &&
                                     strncmp(same + 7, cases[i].warning + 7, strlen(cases[i].warning) - 8) == 0
                               : !strstr(run.out, "Same host:") && tu_csv_column(csv ? csv : "", "same_host") >= 0 &&
                                     same[0] == '\0');
    free(csv);
    run_free(&run);
  }
  write_pair_platform(dir, "pair.xml", "");
  const char *args[] = {"analyse", RUNS "polls-self-send", "--replay-on", "pair.xml", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_PTR_NULL(strstr(run.err, "one host"));
  run_free(&run);
  remove_folder(dir);
}

/* A one-host platform `dir`/`name` whose host core-0 computes `speed` (SimGrid's unit). */
static void write_host_platform(const char *dir, const char *name, const char *speed)
{
  char zone[512];
  snprintf(zone, sizeof zone, "  <zone id=\"z\" routing=\"Full\">\n    <host id=\"core-0\" speed=\"%s\"/>\n  </zone>\n",
           speed);
  write_platform(dir, name, zone);
}

/* Number `name` of the CSV `dir`/o.csv's first row, NAN where missing. */
static double first_row_number(const char *dir, const char *name)
{
  char *csv = read_output(dir, "o.csv");
  char text[64] = "";
  if (csv)
    csv_text_at(csv, 1, name, text, sizeof text);
  free(csv);
  return text[0] ? strtod(text, NULL) : NAN;
}

/* slow-calibration's folder in `dir` (its own files, the flop-rate line's source `source` and `after` it, "" for none,
 * and its "# disturbance" line's COMPUTE and POLLS `fields`), or, `source` NULL, without its "# flop-rate" line. */
static void slow_calibration_in(const char *dir, const char *source, const char *after, const char *fields)
{
  char rate[512] = "", timeline[2048];
  if (source)
    snprintf(rate, sizeof rate,
             "# flop-rate 2.000000e+09 flop/s (%s): rank-0.txt's compute amounts are thread CPU seconds times this "
             "rate%s\n",
             source, after);
  snprintf(timeline, sizeof timeline,
           "# simrun measured timeline 1\n# rank 0 of 1\n# program slow-calibration\n# clock: hand-made\n%s"
           "# start end category phase peer bytes call\n0.000000000 1.000000000 compute work -1 0 -\n"
           "# disturbance 0.10 0.10 0 1.000000 1.000000 0.000000 %s\n# end 1.000000000\n",
           rate, fields);
  write_in(dir, "timeline-0.txt", timeline);
  write_in(dir, "index.txt", "rank-0.txt\n");
  write_in(dir, "rank-0.txt", "0 init\n0 compute 2000000000\n0 finalize\n");
}

/* --replay-on says when a rank's flop rate is over 5% from the speed of the platform's host: slow-calibration's one
 * rank computed 1 s of CPU at a calibrated 2e9 flop/s (its TI's 2e9 flops), which a host of 2.5 Gflop/s runs in 0.8 s
 * (20% less, by hand), of 1.9 in 1.052632 s (5.3% more); one of 2.08 in 0.961538 s, 3.8% less, says nothing. The CSV
 * gives both times, and the line as speed. The same run with SIMRUN_TRACE_FLOPS's rate blames no calibration; with
 * SIMRUN_TRACE_FORMAT=smpi, its 1 s of CPU 0.6 s of computations and 0.4 s of runs of polls, both in its compute
 * amounts, the same 1 s (counting the computations' alone, 0.6 s, read a host of 1.5e9 flop/s); without its
 * "# flop-rate" line (an older tracer's), no line and an empty compute_cpu_s. */
static void test_analyse_replay_on_says_speed(void)
{
  static const char said_fast[] = "\nSpeed: p = 1: its computations, 1.000000 s of CPU when traced, take 0.800000 s at "
                                  "the 2.5e+09 flop/s of rank 0's host (20.0% less), against the tracer's flop rates, "
                                  "2e+09 flop/s (";
  static const struct {
    const char *speed, *source, *after, *fields, *said, *also;
    double cpu, replayed;
  } cases[] = {
      {"2.5Gf", "calibrated: four multiply-add chains, 8.4e6 flops", "", "1.000000", said_fast,
       "(their calibrations at MPI_Init): where the ranks' hosts compute at that speed, the replay runs each rank's "
       "computations, and its runs of polls, faster or slower by its rate's ratio to it, and its T_par differs from "
       "the run's by up to as much. On the platform simrun machine probe wrote of the machine traced (its cores at "
       "one speed), the machine then ran at another speed than when probed (other load on its host, its clock): trace "
       "again, or with its speed, SIMRUN_TRACE_FLOPS=2.5e+09, to replay the CPU time measured\n",
       1.0, 0.8},
      {"1.9Gf", "calibrated: four multiply-add chains, 8.4e6 flops", "", "1.000000",
       "take 1.052632 s at the 1.9e+09 flop/s of rank 0's host (5.3% more)", NULL, 1.0, 1.0 / 0.95},
      {"2.08Gf", "calibrated: four multiply-add chains, 8.4e6 flops", "", "1.000000", NULL, NULL, 1.0, 2.0 / 2.08},
      {"2.5Gf", "SIMRUN_TRACE_FLOPS", "", "1.000000", said_fast,
       "(SIMRUN_TRACE_FLOPS's): where the ranks' hosts compute at that speed, the replay runs each rank's "
       "computations, and its runs of polls, faster or slower by its rate's ratio to it, and its T_par differs from "
       "the run's by up to as much. Trace with the platform's speed, SIMRUN_TRACE_FLOPS=2.5e+09, to replay the CPU "
       "time measured\n",
       1.0, 0.8},
      {"2.5Gf", "calibrated: four multiply-add chains, 8.4e6 flops",
       ", its runs of polls' with them (SIMRUN_TRACE_FORMAT=smpi)", "0.600000 0.400000", said_fast, NULL, 1.0, 0.8},
      {"2.5Gf", NULL, "", "1.000000", NULL, NULL, NAN, 0.8}};
  char dir[1024], run_dir[1100];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(run_dir, sizeof run_dir, "%s/run", dir);
  CU_ASSERT_EQUAL_FATAL(mkdir(run_dir, 0700), 0);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    write_host_platform(dir, "host.xml", cases[i].speed);
    slow_calibration_in(run_dir, cases[i].source, cases[i].after, cases[i].fields);
    const char *args[] = {"analyse", "run", "--replay-on", "host.xml", "--csv", "o.csv", NULL};
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    CU_ASSERT(cases[i].said ? strstr(run.out, cases[i].said) != NULL : strstr(run.out, "Speed:") == NULL);
    CU_ASSERT(!cases[i].also || strstr(run.out, cases[i].also) != NULL);
    double cpu = first_row_number(dir, "compute_cpu_s");
    CU_ASSERT(isnan(cases[i].cpu) ? isnan(cpu) : fabs(cpu - cases[i].cpu) < 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(first_row_number(dir, "compute_replay_s"), cases[i].replayed, 1e-6);
    char *csv = read_output(dir, "o.csv");
    char line[2048] = "";
    if (csv)
      csv_text_at(csv, 1, "speed", line, sizeof line);
    CU_ASSERT(cases[i].said ? strncmp(line, "p = 1: its computations", 23) == 0 : line[0] == '\0');
    free(csv);
    run_free(&run);
  }
  remove_folder(run_dir);
  remove_folder(dir);
}

/* A platform whose path holds a comma (quoted in the replay's CSV, which the prediction was read from, split on
 * commas: "a,b.xml" read p = 1 for T_par): predicted as under another name, slow-calibration's 2e9 flops on a host of
 * 2.5 Gflop/s in 0.8 s. */
static void test_analyse_replay_on_platform_with_comma(void)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  write_host_platform(dir, "a,b.xml", "2.5Gf");
  const char *args[] = {"analyse", RUNS "slow-calibration", "--replay-on", "a,b.xml", "--csv", "o.csv", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_DOUBLE_EQUAL(first_row_number(dir, "t_replay_s"), 0.8, 1e-9);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "1.000000 (traced)          0.800000      -20.0%"));
  run_free(&run);
  remove_folder(dir);
}

/* A run of tests/data/tracer/`quad` (a folder of four ranks) in `dir`/run: its timelines (links), and an index.txt of
 * its four TI files followed by `binding` (the tracer's "# simrun-binding" lines, made by hand). */
static void make_run_of(const char *dir, const char *quad, const char *binding)
{
  char path[1200], target[1200];
  snprintf(path, sizeof path, "%s/run", dir);
  CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
  for (int r = 0; r < 4; r++) {
    snprintf(target, sizeof target, "%s%s/timeline-%d.txt", RUNS, quad, r);
    snprintf(path, sizeof path, "%s/run/timeline-%d.txt", dir, r);
    CU_ASSERT_EQUAL(symlink(target, path), 0);
  }
  snprintf(path, sizeof path, "%s/run/index.txt", dir);
  FILE *index = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(index);
  for (int r = 0; r < 4; r++)
    fprintf(index, "%s%s/rank-%d.txt\n", RUNS, quad, r);
  fprintf(index, "%s", binding);
  CU_ASSERT_EQUAL(fclose(index), 0);
}

/* A run of tests/data/tracer/bind-quad in `dir`/run (make_run_of). */
static void make_quad(const char *dir, const char *binding)
{
  make_run_of(dir, "bind-quad", binding);
}

/* Runs simrun analyse on `dir`/run --replay-on `platform` (of bind-quad) --untraced 4=2: its status and output into
 * run. */
static void analyse_quad(const char *dir, const char *platform, cli_run_t *run)
{
  char plat[1200];
  snprintf(plat, sizeof plat, "%sbind-quad/%s", RUNS, platform);
  const char *args[] = {"analyse", "run", "--replay-on", plat, "--untraced", "4=2", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, run), 0);
}

#define BINDING(r, cpus, online, ranks)                                                                                \
  "# simrun-binding rank=" #r " node=vm cpus=" cpus " online=" #online " node-ranks=" #ranks "\n"

/* --replay-on places the ranks by the binding the trace recorded. bind-quad has 4 ranks, 0 and 2 computing 1e9 flops,
 * 1 and 3 nothing, on two 1e9 flop/s hosts core-0 and core-1 (cores.xml): by hand, 1 s when ranks 0 and 2 are on two
 * cores, 2 s when they share one. Without binding lines ti-replay's placement stands (rank i on host i mod 2: 0 and 2
 * together, 2 s); bound to CPUs 0 0 1 1, each on its own core (1 s), to 0 1 0 1 together (2 s); unbound and
 * oversubscribed (4 ranks, 2 online cores), two to a core in turn (2 s), with a line saying so; bound to 0 0 1 1 with
 * 4 online cores, not oversubscribed, placed without a line (1 s); bound, on the pooled
 * host of two cores (pool.xml), which has no host core-C, on that host as it is (1 s: two cores for two ranks). */
static void test_analyse_replay_on_binding(void)
{
  static const struct {
    const char *binding, *platform, *row, *note;
  } cases[] = {
      {"", "cores.xml", "2.000000 (untraced)        2.000000       +0.0%", NULL},
      {BINDING(0, "0", 2, 4) BINDING(1, "0", 2, 4) BINDING(2, "1", 2, 4) BINDING(3, "1", 2, 4), "cores.xml",
       "1.000000      -50.0%",
       "Placement: p = 4: oversubscribed (4 ranks on 2 online cores), each rank bound to one CPU (0 "
       "0 1 1): replayed on those cores' hosts, each core's ranks sharing it while they compute"},
      {BINDING(0, "0", 2, 4) BINDING(1, "1", 2, 4) BINDING(2, "0", 2, 4) BINDING(3, "1", 2, 4), "cores.xml",
       "2.000000       +0.0%", "bound to one CPU (0 1 0 1)"},
      {BINDING(0, "0", 4, 4) BINDING(1, "0", 4, 4) BINDING(2, "1", 4, 4) BINDING(3, "1", 4, 4), "cores.xml",
       "1.000000      -50.0%", NULL},
      {BINDING(0, "0-1", 2, 4) BINDING(1, "0-1", 2, 4) BINDING(2, "0-1", 2, 4) BINDING(3, "0-1", 2, 4), "cores.xml",
       "2.000000       +0.0%", "Placement: p = 4: oversubscribed (4 ranks on 2 online cores) and unbound"},
      {BINDING(0, "0", 2, 4) BINDING(1, "0", 2, 4) BINDING(2, "1", 2, 4) BINDING(3, "1", 2, 4), "pool.xml",
       "1.000000      -50.0%", "no host core-C for them"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char dir[1024];
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
    make_quad(dir, cases[i].binding);
    analyse_quad(dir, cases[i].platform, &run);
    CU_ASSERT_EQUAL(run.status, 0);
    CU_ASSERT_STRING_EQUAL(run.err, "");
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, cases[i].row));
    CU_ASSERT((strstr(run.out, "Placement:") != NULL) == (cases[i].note != NULL));
    CU_ASSERT(!cases[i].note || strstr(run.out, cases[i].note));
    if (!strstr(run.out, cases[i].row))
      fprintf(stderr, "case %zu:\n%s\n", i, run.out);
    remove_with(dir, "run", &run);
  }
}

/* A disturbed run whose ranks shared cores is compared on the CPU time of its busiest core as the replay placed them
 * (docs/analyse.md, "Replaying"), as mpgrafic and ffindex_apply_mpi at p = 4 on this 2-core machine showed: they were
 * compared on their busiest rank's CPU time, +85.7% and +88.7% off a replay that ran two ranks a core. crowded-quad
 * has 4 ranks, 0 and 2 computing 1e9 flops (1 s of CPU each over 2 s of wall time), 1 and 3 1e8 flops (0.1 s of CPU
 * and wall time), on the two 1e9 flop/s hosts of bind-quad's cores.xml; they lost 2 of 4.2 s, 47.6%: disturbed. By
 * hand: unbound (its own index.txt), ranks 0 and 2 on core 0, 1 and 3 on core 1, predicted 2 s (0 and 2 share a
 * core), measured 1 + 1 = 2 s on core 0 (0.1 + 0.1 on core 1): +0.0% (the busiest rank's 1 s gave +100.0%); bound to
 * CPUs 0 0 1 1, predicted 1.1 s (rank 1's 0.1 s at half the core until 0.2 s, then rank 0's last 0.9 s), measured 1 +
 * 0.1 on each core: +0.0% (+10.0% before); without binding lines, ti-replay's placement (rank i on host i mod 2, 2 s)
 * is not known here: its busiest rank's 1 s, +100.0%. */
static void test_analyse_replay_on_crowded(void)
{
  static const struct {
    const char *binding, *row;
  } cases[] = {
      {NULL, "     4          2.000000 (traced CPU)      2.000000       +0.0%  yes, 47.6% lost\n"},
      {BINDING(0, "0", 2, 4) BINDING(1, "0", 2, 4) BINDING(2, "1", 2, 4) BINDING(3, "1", 2, 4),
       "     4          1.100000 (traced CPU)      1.100000       +0.0%  yes, 47.6% lost\n"},
      {"", "     4          1.000000 (traced CPU)      2.000000     +100.0%  yes, 47.6% lost\n"},
  };
  char plat[1200];
  snprintf(plat, sizeof plat, "%sbind-quad/cores.xml", RUNS);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char dir[1024];
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
    if (cases[i].binding)
      make_run_of(dir, "crowded-quad", cases[i].binding);
    const char *args[] = {"analyse", cases[i].binding ? "run" : RUNS "crowded-quad", "--replay-on", plat, NULL};
    CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, cases[i].row));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "measured is its CPU time on its busiest core"));
    if (!strstr(run.out, cases[i].row))
      fprintf(stderr, "case %zu:\n%s\n", i, run.out);
    if (cases[i].binding)
      remove_with(dir, "run", &run);
    else {
      remove_folder(dir);
      run_free(&run);
    }
  }
}

/* simrun analyse on the fixture `quad` of tests/data/tracer --replay-on bind-quad's cores.xml: exit 0, the table's
 * row `row` and the placement line's `placed`. */
static void replayed_on_cores(const char *quad, const char *row, const char *placed)
{
  cli_run_t run;
  char dir[1200];
  snprintf(dir, sizeof dir, "%s%s", RUNS, quad);
  const char *args[] = {"analyse", dir, "--replay-on", RUNS "bind-quad/cores.xml", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, row));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, placed));
  run_free(&run);
}

/* moved-quad is crowded-quad whose ranks 0 and 2 used 1.5 s of CPU each in their 2 s (their process spun, and Linux
 * ran them on both cores in turn): unbound, the replay puts them on core 0, whose summed 3 s is more than a core can
 * do in the run's 2 s, so its busiest core's CPU time is taken as 2 s, the wall time: predicted 2 s (0 and 2 share a
 * core), +0.0% (-33.3% against the 3 s). They lost 0.5 + 0.5 of 4.2 s, 23.8%: disturbed. */
static void test_analyse_replay_on_moved(void)
{
  replayed_on_cores("moved-quad", "     4          2.000000 (traced CPU)      2.000000       +0.0%  yes, 23.8% lost\n",
                    "replayed with rank i on core i mod the cores");
}

/* Which ranks of an unbound oversubscribed run shared a core, as their waits for a processor show (each waited about as
 * long as its core-mates ran; HyPhy's FEL at p = 4 on 2 cores was replayed 34% long on cores 0 2 and 1 3, its rank 0
 * polling beside rank 1). waits-quad: ranks 0 to 3 computed 0.2, 1.8, 1 and 1 s of CPU in 2 s and waited 1.8, 0.2, 1
 * and 1 s: 0 and 1 on one core, 2 and 3 on the other, each core's 2 s, predicted 2 s (+0.0%); on core i mod 2, 1.8 + 1
 * s on core 1, 2.8 s (+40.0% against the 2 s a core can run in the run). crowded-quad and moved-quad, whose waits fit
 * core i mod 2, keep it (test_analyse_replay_on_crowded, test_analyse_replay_on_moved). The ranks waited for their
 * core-mates alone (4 of 8 s, each exactly what its core-mate ran): nobody else disturbed the run, which is compared on
 * its T_par, 2 s. others-quad is waits-quad whose rank 1 ran 1.2 s and waited 0.8: on core 0 something else ran 0.6
 * s, which both ranks there waited for beyond their core-mate's time (0.6 + 0.6 of 8 s, 15.0%): disturbed. */
static void test_analyse_replay_on_paired_by_waits(void)
{
  replayed_on_cores("waits-quad", "     4          2.000000 (traced)          2.000000       +0.0%  no, 0.0% lost\n",
                    "replayed with the ranks sharing cores as their waits for a processor show (core-0: 0 1, core-1: "
                    "2 3: each waited about as long as its core-mates ran)");
  replayed_on_cores("others-quad", "     4          2.000000 (traced CPU)      2.000000       +0.0%  yes, 15.0% lost\n",
                    "(1.200 of 8.000 s, 3600 involuntary context switches, the machine's load 3.00 to 3.50; each "
                    "rank's beyond what its core-mates ran)");
}

/* Ranks that share a core spend CPU time the replay cannot tell from work or waiting (docs/analyse.md, "Shared
 * cores"): Ray at p = 4 bound two to a core was predicted 25.5% long (its polling charged as work, which a rank that
 * polls yields), Quantum ESPRESSO's pw.x 32.0% short (its copies and reductions in MPI calls charged to none).
 * shared-quad, bound two ranks a core on bind-quad's two 1e9 flop/s cores: rank 0 computes 0.5 s and polls 0.3 s of CPU
 * beside rank 2's 0.5 s, ranks 1 and 3 compute 0.4 s each; beyond that, in MPI calls, ranks 0 to 3 spent 0.2, 0.5, 0.1
 * and 0.1 s of CPU (the "# disturbance" lines). By hand: ranks 0 and 2 share core 0 at half speed each until 1 s, then
 * rank 0 polls 0.3 s alone: predicted 1.3 s; the busiest core's polling 0.3 s (core 0), its MPI calls 0.6 s (core 1:
 * 0.5 + 0.1): a quiet run takes 1.0 to 1.9 s, and the measured 1.6 s is within it. Unbound (paired alike by their
 * waits), less the busiest core's computations beyond an even share, 1.0 - 0.9 s: 0.9 to 1.9 s. Bound two to a CPU
 * of 4 online cores (a cpuset), the node not oversubscribed, the range is the placement's only line. Measured above
 * the range (--untraced 4=2.5), the line says what may be beyond it: the replay's own error or others' work (none
 * lost here), not the ranks' 400 involuntary switches, whose cost is in their CPU times; the table's difference reads
 * "within" inside the range (-18.8% before, the point prediction's), the point's beyond it. shared-quad-7 is
 * shared-quad as the tracer wrote it before POLLS (7 fields), crowded-quad's lines do not give COMPUTE either: no
 * range, the columns empty. */
static void test_analyse_replay_on_shared_cores(void)
{
  static const struct {
    const char *binding, *range;
  } cases[] = {
      {BINDING(0, "0", 2, 4) BINDING(1, "1", 2, 4) BINDING(2, "0", 2, 4) BINDING(3, "1", 2, 4),
       "though core-mates lose it: by these alone, a quiet run takes 1.000000 to 1.900000 s (the replay's own error "
       "aside), "
       "and the "
       "measured 1.600000 s is within it"},
      {BINDING(0, "0-1", 2, 4) BINDING(1, "0-1", 2, 4) BINDING(2, "0-1", 2, 4) BINDING(3, "0-1", 2, 4),
       "; the busiest core computed 0.100000 s beyond an even share, which Linux evens out by moving unbound ranks: by "
       "these alone, a quiet run takes 0.900000 to 1.900000 s (the replay's own error aside), and the measured "
       "1.600000 s "
       "is within it"},
      {BINDING(0, "0", 4, 4) BINDING(1, "1", 4, 4) BINDING(2, "0", 4, 4) BINDING(3, "1", 4, 4),
       "p = 4: Ranks sharing a core spent 0.300000 s"}, /* two to a CPU on 4 cores (a cpuset): no other placement line
                                                         */
  };
  const double least[] = {1.0, 0.9, 1.0};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char dir[1024];
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
    make_run_of(dir, "shared-quad", cases[i].binding);
    const char *args[] = {"analyse", "run", "--replay-on", RUNS "bind-quad/cores.xml", "--csv", "r.csv", NULL};
    CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "     4          1.600000 (traced)          1.300000      within"));
    char *csv = read_output(dir, "r.csv");
    CU_ASSERT_FATAL(csv != NULL);
    char text[2400]; /* the placement's line whole, where the report wraps it */
    csv_text_at(csv, 1, "placement", text, sizeof text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "Ranks sharing a core spent 0.300000 s of a core's CPU polling, which"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "and 0.600000 s in MPI calls beyond their computations, which the replay"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, cases[i].range));
    csv_text_at(csv, 1, "t_replay_least_s", text, sizeof text);
    CU_ASSERT_DOUBLE_EQUAL(strtod(text, NULL), least[i], 1e-6);
    csv_text_at(csv, 1, "t_replay_most_s", text, sizeof text);
    CU_ASSERT_DOUBLE_EQUAL(strtod(text, NULL), 1.9, 1e-6);
    free(csv);
    CU_ASSERT_PTR_NULL(strstr(run.out, "involuntary context switches, whose cost")); /* said above the range only */
    remove_with(dir, "run", &run);
  }
  /* measured above the range (an untraced 2.5 s, bound as the first case): what may be beyond it */
  char folder[1024];
  cli_run_t above;
  CU_ASSERT_EQUAL_FATAL(make_folder(folder, sizeof folder), 0);
  make_run_of(folder, "shared-quad", cases[0].binding);
  const char *untraced[] = {"analyse", "run",  "--replay-on", RUNS "bind-quad/cores.xml", "--untraced", "4=2.5",
                            "--width", "1000", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(folder, untraced, &above), 0);
  CU_ASSERT_EQUAL(above.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(above.out, "2.500000 (untraced)        1.300000      -48.0%"));
  CU_ASSERT_PTR_NOT_NULL(strstr(above.out,
                                "and the measured 2.500000 s is above it: beyond it, the replay's own error or "
                                "others' work (the traced run's ranks lost 0.0% of their wall time to it); the "
                                "cost of the ranks' 400 "
                                "involuntary context switches is in the CPU times it is made of "
                                "(docs/analyse.md"));
  remove_with(folder, "run", &above);
  static const char *const without[] = {"shared-quad-7", "crowded-quad"};
  for (size_t i = 0; i < sizeof without / sizeof without[0]; i++) {
    char dir[1024], trace[1200];
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
    snprintf(trace, sizeof trace, "%s%s", RUNS, without[i]);
    const char *args[] = {"analyse", trace, "--replay-on", RUNS "bind-quad/cores.xml", "--csv", "r.csv", NULL};
    CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, &run), 0);
    CU_ASSERT_EQUAL(run.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Placement: p = 4")); /* placed, ranks sharing a core */
    CU_ASSERT_PTR_NULL(strstr(run.out, "Ranks sharing a core"));
    char *csv = read_output(dir, "r.csv");
    char text[64] = "-";
    if (csv)
      csv_text_at(csv, 1, "t_replay_most_s", text, sizeof text);
    CU_ASSERT_STRING_EQUAL(text, "");
    free(csv);
    remove_folder(dir);
    run_free(&run);
  }
}

/* The least a quiet run takes where ranks share a core is never under its computations' CPU time: mplrs at p = 3 on
 * 2 cores (master and consumer polling on one core, the one worker computing 2.06 s on the other) was said to take "0
 * to 2.04 s", the replay's 2.03 s less 1.98 s of polling and 1.01 s of spread. tests/data/tracer/polled-triple, bound
 * so on bind-quad's two 1e9 flop/s cores: ranks 0 and 1 share core 0, each computing 0.1 s and polling 0.9 s of CPU;
 * rank 2 computes 2.0 s alone on core 1; no message. By hand: the replay runs core 0's 2 x (0.1 + 0.9) s of work and
 * core 1's 2.0 s, predicted 2.0 s; less core 0's 1.8 s of polling, 0.2 s, under rank 2's 2.0 s of computation: a quiet
 * run takes 2.0 to 2.0 s (the MPI calls took no CPU), and the measured 2.1 s is above it. */
static void test_analyse_replay_on_shared_cores_floor(void)
{
  cli_run_t run;
  const char *args[] = {"analyse", RUNS "polled-triple", "--replay-on", RUNS "bind-quad/cores.xml", "--width", "1000",
                        NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "     3          2.100000 (traced)          2.000000       -4.8%"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Ranks sharing a core spent 1.800000 s of a core's CPU polling"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "a quiet run takes 2.000000 to 2.000000 s (no less than the CPU time of its "
                                         "busiest rank's computations; the replay's own error aside), and the "
                                         "measured 2.100000 s is above it"));
  run_free(&run);
}

/* Binding lines that cannot be read stop simrun analyse --replay-on before it prints anything: one line naming the
 * index's line and the field, exit status 2. */
static void test_analyse_replay_on_bad_binding(void)
{
  static const struct {
    const char *binding, *line, *phrase;
  } cases[] = {
      {BINDING(0, "0-x", 2, 4), ":5: cpus=0-x: expected a list of CPUs", "trace the run again"},
      {BINDING(0, "1-0", 2, 4), ":5: cpus=1-0:", "cpulist"},
      {BINDING(1, "0", 2, 4), ":5: rank=1: expected rank=0", "in rank order"},
      {"# simrun-binding rank=0 node=vm online=2 node-ranks=4\n", ":5: no field cpus=VALUE", "node-ranks"},
      {BINDING(0, "0", 0, 4), ":5: online=0 node-ranks=4: expected two whole numbers", "online cores"},
      {BINDING(0, "0", 2, 4) "# simrun-binding rank=1 node=vm cpus=1 online=2 node-ranks=4 extra\n",
       ":6: 'extra' after the last field", "delete"},
      {BINDING(0, "0", 2, 4) BINDING(1, "1", 2, 4) BINDING(2, "0", 2, 4), "index.txt: binding lines for 3 ranks but 4",
       "trace the run again"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char dir[1024];
    cli_run_t run;
    CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
    make_quad(dir, cases[i].binding);
    analyse_quad(dir, "cores.xml", &run);
    CU_ASSERT_EQUAL(run.status, 2);
    CU_ASSERT_STRING_EQUAL(run.out, "");
    CU_ASSERT_EQUAL(count_lines(run.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "simrun: error: run/index.txt"));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, cases[i].line));
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, cases[i].phrase));
    if (!strstr(run.err, cases[i].line))
      fprintf(stderr, "case %zu: %s", i, run.err);
    remove_with(dir, "run", &run);
  }
}

/* The two cells (p = 1, 2) of the bottleneck table's row `label` (with its leading newline and indent) are `a` and
 * `b`, as printed: to the table's 6 decimals; a 0 exactly where the value is 0. */
static void assert_row(const char *out, const char *label, double a, double b)
{
  const char *row = strstr(out, label);
  double cells[2] = {NAN, NAN};
  CU_ASSERT_PTR_NOT_NULL_FATAL(row);
  CU_ASSERT_EQUAL(sscanf(row + strlen(label), "%lf %lf", &cells[0], &cells[1]), 2);
  TU_ASSERT_CLOSE(cells[0], a, 5e-7);
  TU_ASSERT_CLOSE(cells[1], b, 5e-7);
}

/* --platform: the bottleneck view of the operations of replay-pair and replay-seq (its p = 1 run: 2.6e8 flops) on the
 * Pentium II cluster (72 Mf hosts), in the terminal, the CSV, the JSON and the SVG alike: processing is the busiest
 * rank's compute, at p = 2 rank 0's 1.6e8 flops / 7.2e7 flop/s = 2.222 s, at p = 1 2.6e8 / 7.2e7 = 3.611 s (all of it
 * cpu: a trace's compute amounts carry no operation class); no memory or I/O; communication the single 1000-byte
 * message (the route's 124.04 us + 1000 B / 11866059.8 B/s = 208 us by hand), under 1 ms; so processing is the
 * bottleneck. The same runs without --platform leave the view out of every
 * output, with its reason in the terminal and the JSON. */
static void test_analyse_platform_breakdown(void)
{
  for (int with = 1; with >= 0; with--) {
    char dir[1024];
    cli_run_t run;
    const char *args[] = {"analyse",
                          RUNS "replay-pair",
                          RUNS "replay-seq",
                          "--full",
                          "--csv",
                          "out.csv",
                          "--json",
                          "out.json",
                          "--svg",
                          "svg",
                          with ? "--platform" : NULL,
                          SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml",
                          NULL};
    run_ok(dir, sizeof dir, args, &run);
    char *csv = read_output(dir, "out.csv");
    char *json = read_output(dir, "out.json");
    char *components = read_output(dir, "svg/measured-components.svg");
    CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    CU_ASSERT_EQUAL(strstr(run.out, "No bottleneck view: a measurement cannot split computation") == NULL, with);
    CU_ASSERT_EQUAL(strstr(json, "\"left_out_bottleneck\": \"a measurement cannot split computation") == NULL, with);
    CU_ASSERT_EQUAL(strstr(csv, "processing_s") != NULL, with);
    CU_ASSERT_EQUAL(components != NULL, with);
    if (with) {
      CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "  (s, each the busiest process's)\n")); /* the table's unit */
      assert_row(run.out, "\n  processing (Tproc) ", 2.6e8 / 7.2e7, 1.6e8 / 7.2e7);
      assert_row(run.out, "\n    cpu (Tcpu) ", 2.6e8 / 7.2e7, 1.6e8 / 7.2e7);
      assert_row(run.out, "\n  memory (Tmem) ", 0, 0); /* zero by construction: printed 0 */
      assert_row(run.out, "\n  io (Ti/o) ", 0, 0);
      const char *comm = strstr(run.out, "\n  communication (Tcom) ");
      double at[2] = {-1, -1};
      CU_ASSERT(comm && sscanf(comm, " communication (Tcom) %lf %lf", &at[0], &at[1]) == 2);
      CU_ASSERT(at[0] == 0 && at[1] > 0 && at[1] < 1e-3); /* the one message, under 1 ms, now shown */
      CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "p = 1 to 2: processing is a bottleneck"));
      for (int row = 1; row <= 2; row++) { /* p = 1, then 2 */
        TU_ASSERT_CLOSE(csv_value_at(csv, row, "processing"), row == 1 ? 2.6e8 / 7.2e7 : 1.6e8 / 7.2e7,
                        1e-8);                                                                          /* 9 digits */
        TU_ASSERT_CLOSE(csv_value_at(csv, row, "cpu"), row == 1 ? 2.6e8 / 7.2e7 : 1.6e8 / 7.2e7, 1e-8); /* 9 digits */
        TU_ASSERT_CLOSE(csv_value_at(csv, row, "memory"), 0.0, 1e-12);
        TU_ASSERT_CLOSE(csv_value_at(csv, row, "io"), 0.0, 1e-12);
        CU_ASSERT(csv_value_at(csv, row, "communication") < 1e-3);
      }
      CU_ASSERT_PTR_NOT_NULL(strstr(csv, ",processing,yes,cpu\n"));
      CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"components\": {\"processing\": 3.6111111"));
      CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"components\": {\"processing\": 2.2222222"));
      CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"dominant\": \"processing\", \"bottleneck\": true"));
      tu_chart_t chart = {0}; /* the same figures read back from the components' picture (seed 001 Fig. 5) */
      char color[8];
      CU_ASSERT_FATAL(tu_svg_chart(components, 0, &chart) == 0 && tu_svg_legend(components, "processing", color) == 0);
      for (int p = 1; p <= 2; p++) {
        double expected = p == 1 ? 2.6e8 / 7.2e7 : 1.6e8 / 7.2e7;
        CU_ASSERT(fabs(tu_svg_point(components, &chart, color, p) - expected) <= 2 * tu_svg_step(&chart, expected));
      }
    }
    free(csv);
    free(json);
    free(components);
    remove_run(dir, &run);
  }
}

/* --replay-on with --svg draws the measured and predicted T_par against p (measured-replay.svg): replay-seq's one rank
 * computes 2.6e8 flops, 3.6111 s on the Pentium II's 72 Mf hosts, replay-pair's T_par is 2.2222 s (above); the
 * measured times are the untraced ones given, 3 and 2.5 s. Read back from the picture's geometry and axes. */
static void test_analyse_replay_picture(void)
{
  char dir[1024];
  cli_run_t run;
  const char *args[] = {"analyse",
                        RUNS "replay-pair",
                        RUNS "replay-seq",
                        "--replay-on",
                        SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml",
                        "--untraced",
                        "1=3",
                        "--untraced",
                        "2=2.5",
                        "--svg",
                        "svg",
                        NULL};
  run_ok(dir, sizeof dir, args, &run);
  char *svg = read_output(dir, "svg/measured-replay.svg");
  CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
  const struct {
    const char *label;
    int p;
    double expected;
  } points[] = {{"measured (untraced runs)", 1, 3},
                {"measured (untraced runs)", 2, 2.5},
                {"predicted (ti-replay)", 1, 2.6e8 / 7.2e7},
                {"predicted (ti-replay)", 2, 1.6e8 / 7.2e7}};
  tu_chart_t chart = {0};
  char color[8];
  for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
    CU_ASSERT_FATAL(tu_svg_chart(svg, 0, &chart) == 0 && tu_svg_legend(svg, points[i].label, color) == 0);
    double seen = tu_svg_point(svg, &chart, color, points[i].p);
    CU_ASSERT(fabs(seen - points[i].expected) <= 2 * tu_svg_step(&chart, points[i].expected));
  }
  free(svg);
  remove_run(dir, &run);
}

/* A run killed before MPI_Finalize (tests/data/tracer/killed: rank 1's file stops in the middle of a line) is
 * analysed up to each file's last whole line, with one warning naming the file cut short. */
static void test_analyse_cut_short_folder(void)
{
  cli_run_t run;
  const char *args[] = {"analyse", RUNS "killed", "--full", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_EQUAL(count_lines(run.err), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "simrun: warning: " RUNS "killed/timeline-1.txt:5: cut short"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Per process, p = 2"));
  run_free(&run);
}

/* The outputs are checked from the formats' table as simrun run's are (cli_formats.h), before any trace folder is read:
 * an output that is a folder is refused beside a folder whose timelines are bad, and the error is the output's. */
static void test_analyse_outputs_checked_first(void)
{
  EXPECT_FAILURE(.args = {"analyse", RUNS "missing-rank", "--csv", "."}, .bare = 1, .status = 2,
                 .prefix = "cannot write '.': it is a folder; give a file name", .phrases = {NULL});
  EXPECT_FAILURE(.args = {"analyse", RUNS "missing-rank", "--otf2", "-"}, .bare = 1, .status = 2,
                 .prefix = "--otf2 -: --otf2 writes a folder, and '-' (standard output) is for one file",
                 .phrases = {NULL});
}

/* A run read as per-rank sums (tests/data/tracer/loop-sums: its loop unfolds to 77 MB of timelines, over the 32 MiB a
 * run is read whole within, as ExaML's 6033 loops at p = 1 did) says so in its own line, and the report offers no
 * --per-process, which simrun analyse does not take (it did: "no timeline (--per-process P keeps the one at p = P)").
 */
static void test_analyse_sums_offer_no_per_process(void)
{
  cli_run_t run;
  const char *args[] = {"analyse", RUNS "loop-sums", "--width", "1000", NULL}; /* unwrapped, wherever the tree is */
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "read as per-rank sums (timelines over 32 MiB, the wait states summed as "
                                         "read)\n"));
  CU_ASSERT_PTR_NULL(strstr(run.out, "--per-process"));
  CU_ASSERT_STRING_EQUAL(run.err, "");
  run_free(&run);
}

/* Such a run asked for its OTF2 archive is read spilled, its intervals in a temporary file in $TMPDIR
 * (test_otf2_analyse_spilled_run); when $TMPDIR cannot hold them (here a folder that is not there) it is read as sums
 * without them, said in one warning line on stderr (HPC Challenge at N = 300, p = 2, got an empty --otf2 folder
 * without a word) and in its line of the report, and --otf2 writes no archive for it. */
static void test_analyse_sums_without_room(void)
{
  cli_run_t run;
  char dir[1024], otf2[1100], archive[1200];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(otf2, sizeof otf2, "%s/otf2", dir);
  const char *args[] = {"analyse", RUNS "loop-sums", "--otf2", otf2, "--width", "1000", NULL};
  char *saved = tu_env_swap("TMPDIR", "/nonexistent/simrun-test");
  int started = run_simrun(".", args, &run);
  tu_env_restore("TMPDIR", saved);
  CU_ASSERT_EQUAL_FATAL(started, 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "read as per-rank sums (timelines over 32 MiB, the wait states summed as "
                                         "read): no room for its intervals in $TMPDIR, so no timeline picture, Paje "
                                         "trace or OTF2 archive"));
  CU_ASSERT_EQUAL(count_lines(run.err), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.err, "loop-sums: its timelines hold over 32 MiB and /nonexistent/simrun-test "
                                         "cannot be written or has too little room for them"));
  snprintf(archive, sizeof archive, "%s/point-0.otf2", otf2);
  CU_ASSERT_NOT_EQUAL(access(archive, F_OK), 0);
  run_free(&run);
  remove_folder(otf2);
  remove_folder(dir);
}

/* tests/data/tracer/loop-sums: tests/data/tracer/loop-folded's ping-pong (test_met_timeline.c: by hand, rank 0 waits
 * for a late sender 0.375 s an iteration, rank 1 0.1 s) folded over 120,000 iterations, 77 MB unfolded, so read as
 * per-rank sums: its wait-state table is printed all the same, 45,000 and 12,000 s of late sender (to 1e-5: the
 * unfolded loop's times are placed to the nanosecond), and the run's line says so. Before, a run read as sums had no
 * wait states (Debian's ABySS at p = 2 and 4). */
static void test_analyse_sums_keep_wait_states(void)
{
  cli_run_t run;
  const char *args[] = {"analyse", RUNS "loop-sums", "--full", "--width", "1000", NULL};
  CU_ASSERT_EQUAL_FATAL(run_simrun(".", args, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "read as per-rank sums (timelines over 32 MiB, the wait states summed as "
                                         "read)\n"));
  const char *table = strstr(run.out, "Wait states, p = 2, measured");
  CU_ASSERT_PTR_NOT_NULL_FATAL(table);
  double late[2] = {-1, -1};
  for (int r = 0; r < 2; r++) {
    char row[16];
    snprintf(row, sizeof row, "\n%4d ", r); /* the rank right-aligned under its head, "rank" */
    const char *at = strstr(table, row);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    late[r] = strtod(at + strlen(row), NULL);
  }
  TU_ASSERT_CLOSE(late[0], 120000 * 0.375, 120000 * 0.375 * 1e-5);
  TU_ASSERT_CLOSE(late[1], 120000 * 0.1, 120000 * 0.1 * 1e-5);
  run_free(&run);
}

static void test_analyse_bad_folders(void)
{
  EXPECT_FAILURE(.args = {"analyse", RUNS "missing-rank"}, .bare = 1, .status = 2,
                 .prefix = RUNS "missing-rank/timeline-0.txt:2: ", .phrases = {"has rank 1", "timeline-1.txt"});
  EXPECT_FAILURE(.args = {"analyse", RUNS "two-ranks", "--seq", RUNS "two-ranks"}, .bare = 1, .status = 2,
                 .prefix = "--seq ", .phrases = {"p = 2", "p = 1"});
  EXPECT_FAILURE(.args = {"analyse", RUNS "two-ranks", "--seq", "-1"}, .bare = 1, .status = 2, .prefix = "--seq -1",
                 .phrases = {"seconds > 0"});
  EXPECT_FAILURE(.args = {"analyse", RUNS "no-time"}, .bare = 1, .status = 2,
                 .prefix = RUNS "no-time/timeline-0.txt: ", .phrases = {"recorded no time"});
  EXPECT_FAILURE(.args = {"analyse", RUNS "two-ranks", "--seq=1", "--seq-time=1"}, .bare = 1, .status = 2,
                 .prefix = "--seq and --seq-time", .phrases = {"give one"});
  EXPECT_FAILURE(.args = {"analyse", RUNS "two-ranks", "--seq-time", RUNS "seq-1"}, .bare = 1, .status = 2,
                 .prefix = "--seq-time ", .phrases = {"in seconds", "--seq"});
  EXPECT_FAILURE(.args = {"analyse", RUNS "two-ranks", "--untraced", "2"}, .bare = 1, .status = 2,
                 .prefix = "--untraced 2: expected P=SECONDS", .phrases = {NULL});
  /* an --untraced time that would go unused (Debian's programs, issue 26's check: a p with no run, a p given twice,
   * no --replay-on to compare with) is refused before any folder is read or the report printed */
  EXPECT_FAILURE(.args = {"analyse", RUNS "replay-pair",
                          "--replay-on=" SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml", "--untraced=3=1.5"},
                 .bare = 1, .status = 2, .prefix = "--untraced 3=1.5: no run at p = 3 among the folders (p = 2)",
                 .phrases = {NULL});
  EXPECT_FAILURE(.args = {"analyse", RUNS "replay-pair", "--untraced=2=1", "--untraced=2=1.5"}, .bare = 1, .status = 2,
                 .prefix = "--untraced 2=1.5: that p has a time already", .phrases = {NULL});
  EXPECT_FAILURE(.args = {"analyse", RUNS "replay-pair", "--untraced", "2=1"}, .bare = 1, .status = 2,
                 .prefix = "--untraced gives the measured time", .phrases = {"add --replay-on"});
  EXPECT_FAILURE(.args = {"analyse", RUNS "two-ranks", "--replay-on", SIMRUN_SOURCE_DIR "/platforms/pentium2-fe-8.xml"},
                 .bare = 1, .status = 2, .prefix = RUNS "two-ranks/index.txt: no TI trace index",
                 .phrases = {"trace the run"});
  /* a file that is no platform: SimGrid's refusal, by its line, before the report (it came after, the report
   * half-printed: its replay table's header) */
  EXPECT_FAILURE(.args = {"analyse", RUNS "two-ranks", "--replay-on", RUNS "two-ranks/timeline-0.txt"}, .bare = 1,
                 .status = 2, .prefix = RUNS "two-ranks/timeline-0.txt:1:1: not well-formed XML",
                 .phrases = {"fix the syntax"});
  EXPECT_FAILURE(.args = {"analyse", RUNS "replay-pair", "--platform",
                          SIMRUN_SOURCE_DIR "/tests/data/machine/bad-nan.xml"},
                 .bare = 1, .status = 2,
                 .prefix = SIMRUN_SOURCE_DIR "/tests/data/machine/bad-nan.xml:12: property simrun:cycles-cpu = \"nan\"",
                 .phrases = {"expected a number in [0, 1e12]"});
  EXPECT_FAILURE(.args = {"analyse", RUNS "replay-pair", "--platform", RUNS "no-such.xml"}, .bare = 1, .status = 2,
                 .prefix = "--platform " RUNS "no-such.xml: cannot read that platform file", .phrases = {NULL});
  /* a folder given as the platform: refused before the report (it was printed, then SimGrid's error, exit 2) */
  EXPECT_FAILURE(.args = {"analyse", RUNS "replay-pair", "--replay-on", RUNS "two-ranks"}, .bare = 1, .status = 2,
                 .prefix = "--replay-on " RUNS "two-ranks: cannot read that platform file", .phrases = {NULL});
  EXPECT_FAILURE(.args = {"analyse", RUNS "mixed-runs"}, .bare = 1, .status = 2,
                 .prefix = RUNS "mixed-runs/timeline-1.txt:5: run node1 4107 1764036000.000000000, where ",
                 .phrases = {"mixes the files of two runs", "trace the program again into an empty folder"});
  EXPECT_FAILURE(.args = {"analyse"}, .bare = 1, .status = 2, .prefix = "no trace folder given", .phrases = {NULL});
}

/* Writes a run of `nranks` ranks that each compute for one second into folder `dir`, rank `bad` (-1: none) with a
 * line that is no interval. 0, or -1. */
static int write_wide_run(const char *dir, int nranks, int bad)
{
  for (int r = 0; r < nranks; r++) {
    char path[2048];
    snprintf(path, sizeof path, "%s/timeline-%d.txt", dir, r);
    FILE *f = fopen(path, "w");
    if (!f)
      return -1;
    fprintf(f, "# simrun measured timeline 1\n# rank %d of %d\n# start end category phase peer bytes call\n", r,
            nranks);
    fprintf(f, "%s\n# end 1.000000000\n",
            r == bad ? "0.0 1.0 computes" : "0.000000000 1.000000000 compute main -1 0 -");
    if (fclose(f) != 0)
      return -1;
  }
  return 0;
}

/* Runs simrun with `args` (NULL-ended) in folder `dir` under limit `resource` (soft and hard, so that main.c cannot
 * raise it) at `value`, SIGXFSZ ignored (a write beyond RLIMIT_FSIZE then fails with EFBIG), its output in *run. */
static void simrun_limited(const char *dir, const char *const *args, int resource, rlim_t value, cli_run_t *run)
{
  FILE *out = tmpfile();
  FILE *err = tmpfile();
  CU_ASSERT_FATAL(out && err);
  const char *argv[MAX_ARGS + 2] = {SIMRUN_BINARY};
  for (size_t i = 0; i < MAX_ARGS && args[i]; i++)
    argv[i + 1] = args[i];
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    struct rlimit limit = {value, value};
    signal(SIGXFSZ, SIG_IGN);
    if (chdir(dir) == 0 && setrlimit(resource, &limit) == 0 && dup2(fileno(out), STDOUT_FILENO) >= 0 &&
        dup2(fileno(err), STDERR_FILENO) >= 0)
      execv(SIMRUN_BINARY, (char *const *)argv);
    _exit(127);
  }
  CU_ASSERT_FATAL(finish(pid, out, err, run) == 0);
}

/* The reader's code gives the exit status (issue 48 item 3, bas_error.h): a folder whose file is damaged is the
 * user's input (2), a folder analyse cannot open whole because the machine's open-files limit is lower than its
 * 200 ranks is a runtime failure (1), told as such and not as a missing rank; the same folder with the limit the
 * machine gives is read (0). */
static void test_analyse_status_from_the_code(void)
{
  char dir[1024];
  CU_ASSERT_FATAL(make_folder(dir, sizeof dir) == 0);
  cli_run_t run = {0};
  const char *args[] = {"analyse", dir, NULL};
  CU_ASSERT_FATAL(write_wide_run(dir, 200, 150) == 0);
  simrun_limited(dir, args, RLIMIT_NOFILE, 1024, &run);
  CU_ASSERT_EQUAL(run.status, 2);
  CU_ASSERT(strstr(run.err, "timeline-150.txt:4: ") != NULL);
  run_free(&run);
  CU_ASSERT_FATAL(write_wide_run(dir, 200, -1) == 0);
  simrun_limited(dir, args, RLIMIT_NOFILE, 1024, &run);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
  simrun_limited(dir, args, RLIMIT_NOFILE, 64, &run);
  CU_ASSERT_EQUAL(run.status, 1);
  CU_ASSERT_EQUAL(count_lines(run.err), 1);
  CU_ASSERT(strstr(run.err, "Too many open files") && strstr(run.err, "raise the open-files limit (ulimit -n)"));
  run_free(&run);
  remove_folder(dir);
}

/* A report failure found late, at runtime, exits 1 (issue 48 item 3): the JSON of two-ranks (1,755 bytes) under a
 * 1,024-byte file-size limit cannot be written whole: one error line naming it and what failed, and nothing left. */
static void test_analyse_late_write_failure_is_runtime(void)
{
  char dir[1024];
  CU_ASSERT_FATAL(make_folder(dir, sizeof dir) == 0);
  cli_run_t run = {0};
  const char *args[] = {"analyse", RUNS "two-ranks", "--json", "out.json", NULL};
  simrun_limited(dir, args, RLIMIT_FSIZE, 1024, &run);
  CU_ASSERT_EQUAL(run.status, 1);
  CU_ASSERT_EQUAL(count_lines(run.err), 1);
  CU_ASSERT(strncmp(run.err, "simrun: error: ", 15) == 0 && strstr(run.err, "out.json") &&
            strstr(run.err, "File too large"));
  CU_ASSERT_EQUAL(count_entries(dir), 0);
  run_free(&run);
  remove_folder(dir);
}

/* A long run spilled to a temporary file that cannot grow (loop-sums, 960,000 intervals of 64 bytes, 59 MiB, under a
 * 1-MiB file-size limit: $TMPDIR full, as by hand on a 3-GB tmpfs filled meanwhile, which read "out of memory") is
 * read again as sums, said in one warning line, its archive not written (exit 0); its Paje trace's events sorted
 * through one that cannot grow (a 72-MiB limit: the intervals fit, two runs of 2^20 events of 40 bytes, 80 MiB, do
 * not) fail the outputs: exit 1, one line saying where, nothing left. */
static void test_analyse_spill_refused(void)
{
  static const struct {
    const char *output, *folder;
    rlim_t limit;
    int status;
    const char *phrase;
  } cases[] = {
      {"--otf2", "otf2", 1 << 20, 0, "simrun: warning: " RUNS "loop-sums: its timelines hold over 32 MiB and "},
      {"--paje", "t.paje", 72u << 20, 1,
       "simrun: error: writing the Paje trace failed: an input/output error; check the room left in its "
       "folder and in $TMPDIR"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char dir[1024], archive[1200];
    CU_ASSERT_FATAL(make_folder(dir, sizeof dir) == 0);
    cli_run_t run = {0};
    const char *args[] = {"analyse", RUNS "loop-sums", cases[i].output, cases[i].folder, "--width", "1000", NULL};
    simrun_limited(dir, args, RLIMIT_FSIZE, cases[i].limit, &run);
    CU_ASSERT_EQUAL(run.status, cases[i].status);
    CU_ASSERT_EQUAL(count_lines(run.err), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(run.err, cases[i].phrase));
    snprintf(archive, sizeof archive, "%s/otf2/point-0.otf2", dir);
    CU_ASSERT_NOT_EQUAL(access(archive, F_OK), 0);
    CU_ASSERT(cases[i].status == 0 ? strstr(run.out, "no room for its intervals in $TMPDIR") != NULL
                                   : count_entries(dir) == 0);
    run_free(&run);
    remove_folder(dir); /* an empty otf2 folder included */
  }
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_analyse_lost_cycles_by_hand", test_analyse_lost_cycles_by_hand},
      {"test_analyse_writes_outputs", test_analyse_writes_outputs},
      {"test_analyse_dash_is_stdout", test_analyse_dash_is_stdout},
      {"test_analyse_t_seq_sources", test_analyse_t_seq_sources},
      {"test_analyse_leaves_out_what_a_measurement_lacks", test_analyse_leaves_out_what_a_measurement_lacks},
      {"test_analyse_html_page", test_analyse_html_page},
      {"test_analyse_html_page_has_the_runs", test_analyse_html_page_has_the_runs},
      {"test_analyse_html_decimates_long_runs", test_analyse_html_decimates_long_runs},
      {"test_analyse_unmatched_read_in_linear_time", test_analyse_unmatched_read_in_linear_time},
      {"test_analyse_counts_in_words", test_analyse_counts_in_words},
      {"test_analyse_persistent_starts_named", test_analyse_persistent_starts_named},
      {"test_analyse_unreceived_sends_named", test_analyse_unreceived_sends_named},
      {"test_analyse_sends_given_up_named", test_analyse_sends_given_up_named},
      {"test_analyse_mixed_programs_refused", test_analyse_mixed_programs_refused},
      {"test_analyse_escape_sequences_not_printed", test_analyse_escape_sequences_not_printed},
      {"test_analyse_names_undefined_sub_communicators", test_analyse_names_undefined_sub_communicators},
      {"test_analyse_seq_holds_shared_cores", test_analyse_seq_holds_shared_cores},
      {"test_analyse_replay_on", test_analyse_replay_on},
      {"test_analyse_replay_on_disturbed", test_analyse_replay_on_disturbed},
      {"test_analyse_says_disturbed", test_analyse_says_disturbed},
      {"test_analyse_replay_on_html", test_analyse_replay_on_html},
      {"test_analyse_replay_on_waited", test_analyse_replay_on_waited},
      {"test_analyse_replay_on_blocked", test_analyse_replay_on_blocked},
      {"test_analyse_says_polls_hold_work", test_analyse_says_polls_hold_work},
      {"test_analyse_polls_beyond_cpu_bounded", test_analyse_polls_beyond_cpu_bounded},
      {"test_analyse_blocked_within_cores_left", test_analyse_blocked_within_cores_left},
      {"test_analyse_replay_on_spun", test_analyse_replay_on_spun},
      {"test_analyse_replay_copied_folder", test_analyse_replay_copied_folder},
      {"test_analyse_replay_picture", test_analyse_replay_picture},
      {"test_analyse_replay_on_cleans_up", test_analyse_replay_on_cleans_up},
      {"test_analyse_replay_on_page_faults", test_analyse_replay_on_page_faults},
      {"test_analyse_replay_on_one_rank_disturbed", test_analyse_replay_on_one_rank_disturbed},
      {"test_analyse_replay_on_untraced_far_longer", test_analyse_replay_on_untraced_far_longer},
      {"test_analyse_seq_time_far_longer", test_analyse_seq_time_far_longer},
      {"test_analyse_replay_on_first_calls", test_analyse_replay_on_first_calls},
      {"test_analyse_replay_on_polls_until_a_message", test_analyse_replay_on_polls_until_a_message},
      {"test_analyse_replay_on_polls_beside_own_send", test_analyse_replay_on_polls_beside_own_send},
      {"test_analyse_replay_on_says_self_messages_cross_links", test_analyse_replay_on_says_self_messages_cross_links},
      {"test_analyse_replay_on_says_speed", test_analyse_replay_on_says_speed},
      {"test_analyse_replay_on_platform_with_comma", test_analyse_replay_on_platform_with_comma},
      {"test_analyse_replay_on_binding", test_analyse_replay_on_binding},
      {"test_analyse_replay_on_crowded", test_analyse_replay_on_crowded},
      {"test_analyse_replay_on_moved", test_analyse_replay_on_moved},
      {"test_analyse_replay_on_paired_by_waits", test_analyse_replay_on_paired_by_waits},
      {"test_analyse_replay_on_shared_cores", test_analyse_replay_on_shared_cores},
      {"test_analyse_replay_on_shared_cores_floor", test_analyse_replay_on_shared_cores_floor},
      {"test_analyse_replay_on_bad_binding", test_analyse_replay_on_bad_binding},
      {"test_analyse_platform_breakdown", test_analyse_platform_breakdown},
      {"test_analyse_outputs_checked_first", test_analyse_outputs_checked_first},
      {"test_analyse_bad_folders", test_analyse_bad_folders},
      {"test_analyse_cut_short_folder", test_analyse_cut_short_folder},
      {"test_analyse_sums_offer_no_per_process", test_analyse_sums_offer_no_per_process},
      {"test_analyse_sums_without_room", test_analyse_sums_without_room},
      {"test_analyse_spill_refused", test_analyse_spill_refused},
      {"test_analyse_sums_keep_wait_states", test_analyse_sums_keep_wait_states},
      {"test_analyse_status_from_the_code", test_analyse_status_from_the_code},
      {"test_analyse_late_write_failure_is_runtime", test_analyse_late_write_failure_is_runtime},
      {NULL, NULL}};
  /* the cases match whole lines of the command's own output: one line each at the widest report (the lines fitted
   * to 80 columns are test_cli_layout's) */
  setenv("COLUMNS", "1000", 1);
  return tu_run("cli_analyse", cases);
}
