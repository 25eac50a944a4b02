/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Tests of the wait states in the reports (rep_wait.h), end to end on Gauss-Jordan (scenarios/gj256.xml, whose
 * per-process point is p = 16): the one-to-all broadcast's idling shows up as late broadcast and late sender, in the
 * terminal table, the wait-states CSV table, JSON and a picture, and within each rank's idle time; and on a replayed
 * SimGrid example trace, a late broadcast worked out from its hosts' speeds. */
#include "tu.h"
#include "tu_cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The start of line `n` (0 = the header) of `text`, or NULL past its end. */
static const char *line_at(const char *text, int n)
{
  for (; text && n > 0; n--) {
    text = strchr(text, '\n');
    text = text && text[1] ? text + 1 : NULL;
  }
  return text;
}

/* The start of field `k` of the line at `line`, or NULL. */
static const char *field_at(const char *line, int k)
{
  for (; line && k > 0; k--) {
    line += strcspn(line, ",\n");
    line = *line == ',' ? line + 1 : NULL;
  }
  return line;
}

/* The index of column `name` in the CSV's header, or -1. */
static int column_of(const char *csv, const char *name)
{
  size_t len = strlen(name);
  const char *f = csv;
  for (int k = 0; f && *f != '\n'; k++) {
    if (strcspn(f, ",\n") == len && strncmp(f, name, len) == 0)
      return k;
    f = field_at(f, 1);
  }
  return -1;
}

/* Field `column` (by its header name) of data row `row` (0 = the first after the header) of a CSV without quotes, as a
 * number, and as text into `text` when not NULL; NAN when either is missing. */
static double field(const char *csv, const char *column, int row, char *text, size_t len)
{
  int k = column_of(csv, column);
  const char *f = k < 0 ? NULL : field_at(line_at(csv, row + 1), k);
  if (!f)
    return NAN;
  if (text)
    snprintf(text, len, "%.*s", (int)strcspn(f, ",\n"), f);
  return strtod(f, NULL);
}

/* The row of the main CSV for broadcast `bcast` at p = 16. */
static int main_row(const char *csv, const char *bcast)
{
  char text[64];
  for (int row = 0; !isnan(field(csv, "p", row, NULL, 0)); row++)
    if (field(csv, "p", row, NULL, 0) == 16 && (field(csv, "broadcast", row, text, sizeof text), 1) &&
        strcmp(text, bcast) == 0)
      return row;
  return -1;
}

static void test_rep_wait_gauss_jordan_one_to_all(void)
{
  char dir[1024], scenario[1024], svg[1100];
  snprintf(scenario, sizeof scenario, "%s/scenarios/gj256.xml", SIMRUN_SOURCE_DIR);
  cli_run_t run;
  run_ok(dir, sizeof dir,
         (const char *const[]){"-q", "--no-cache", "--full", scenario, "--csv", "out.csv", "--json", "out.json",
                               "--svg", "pics", NULL},
         &run);
  char *main_csv = read_output(dir, "out.csv");
  char *procs = read_output(dir, "out-processes.csv");
  char *waits = read_output(dir, "out-wait-states.csv");
  char *json = read_output(dir, "out.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(main_csv);
  CU_ASSERT_PTR_NOT_NULL_FATAL(procs);
  CU_ASSERT_PTR_NOT_NULL_FATAL(waits);
  CU_ASSERT_PTR_NOT_NULL_FATAL(json);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Wait states, p = 16, broadcast = one-to-all"));
  CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"wait_states\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"late_broadcast_s\""));
  snprintf(svg, sizeof svg, "%s/pics", dir);
  char *picture = read_output(svg, "gj256-wait-states-one-to-all.svg");
  CU_ASSERT_PTR_NOT_NULL(picture);
  CU_ASSERT(picture && strstr(picture, "Late Broadcast"));
  free(picture);
  /* rows: one-to-all's 16 ranks, then the neighbour relay's (the sweep's order) */
  double bcast_total[2] = {0, 0};
  for (int b = 0; b < 2; b++) {
    double t_seq = field(main_csv, "t_seq_s", main_row(main_csv, b ? "neighbour" : "one-to-all"), NULL, 0);
    CU_ASSERT_FATAL(t_seq > 0);
    for (int rank = 0; rank < 16; rank++) {
      int row = 16 * b + rank;
      CU_ASSERT_EQUAL(field(waits, "rank", row, NULL, 0), rank);
      /* Gauss-Jordan has no barrier, no N x N collective and no reduction: only messages and broadcasts */
      CU_ASSERT_EQUAL(field(waits, "wait_barrier_s", row, NULL, 0), 0);
      CU_ASSERT_EQUAL(field(waits, "wait_nxn_s", row, NULL, 0), 0);
      CU_ASSERT_EQUAL(field(waits, "early_reduce_s", row, NULL, 0), 0);
      /* wait states are parts of idle intervals: never more than the rank's idle time (rank_ovh_idle x T_seq) */
      double idle = field(procs, "rank_ovh_idle", row, NULL, 0) * t_seq;
      CU_ASSERT(field(waits, "total_s", row, NULL, 0) <= idle * (1 + 1e-6));
      bcast_total[b] += field(waits, "late_broadcast_s", row, NULL, 0);
      if (b == 0 && rank < 15) /* a rank idles in the broadcasts of later ranks' pivot rows */
        CU_ASSERT(field(waits, "late_broadcast_s", row, NULL, 0) > 0);
      if (rank > 0) /* every rank but the first owner waits for rows sent to it in the distribution */
        CU_ASSERT(field(waits, "late_sender_s", row, NULL, 0) > 0);
    }
  }
  /* the one-to-all root sends p - 1 = 15 rows in turn where the relay sends one (seed 001 eqs. 14-15; Tables 3-4:
   * 20.91 s against 9.40 s at p = 16), so members wait far longer for a late root */
  CU_ASSERT(bcast_total[0] > 5 * bcast_total[1]);
  free(main_csv);
  free(procs);
  free(waits);
  free(json);
  run_free(&run);
  remove_folder(svg);
  remove_folder(dir);
}

/* The trace tests/data/ti/kinds/bcast.txt replayed on tests/data/ti/five-hosts.xml with its hostfile (rank 0 on alpha,
 * 100 Mflop/s; rank 1 on beta, 80 Mflop/s; rank 2 on gamma, 80 Mflop/s): after the first broadcast, rank 0 computes
 * 5e8 flops (5 s) and rank 1 2e8 (2.5 s) before the second. Rank 1 enters it 2.5 s before the root, less the time its
 * first broadcast's message took (under 20 ms: 50 kB on alpha-beta's 8 MB/s, 1.5 ms line): its late broadcast. Rank 2
 * computes 5e8 at 80 Mflop/s, 6.25 s, and enters after the root: none. No other pattern: the final reduce's root enters
 * last. */
static void test_rep_wait_ti_replay_broadcast(void)
{
  char dir[1024], path[1100];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  snprintf(path, sizeof path, "%s/bcast.xml", dir);
  FILE *f = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  const char *data = SIMRUN_SOURCE_DIR "/tests/data/ti";
  fprintf(f,
          "<?xml version=\"1.0\"?>\n<scenario name=\"ti-bcast\">\n  <platform file=\"%s/five-hosts.xml\"/>\n"
          "  <program skeleton=\"ti-replay\">\n    <param name=\"trace\" value=\"%s/kinds/bcast.txt\"/>\n"
          "    <param name=\"hostfile\" value=\"%s/five-hosts\"/>\n  </program>\n"
          "  <sweep><param name=\"p\" values=\"3\"/></sweep>\n  <report per-process=\"3\"/>\n</scenario>\n",
          data, data, data);
  CU_ASSERT_EQUAL_FATAL(fclose(f), 0);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(
      run_simrun(dir, (const char *const[]){"-q", "--no-cache", "--full", "bcast.xml", "--csv", "out.csv", NULL}, &run),
      0);
  CU_ASSERT_EQUAL(run.status, 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "Wait states, p = 3"));
  char *waits = read_output(dir, "out-wait-states.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(waits);
  double late = 5e8 / 100e6 - 2e8 / 80e6;
  double got = field(waits, "late_broadcast_s", 1, NULL, 0);
  CU_ASSERT(got <= late && got > late - 0.02);
  CU_ASSERT_EQUAL(field(waits, "total_s", 0, NULL, 0), 0);
  CU_ASSERT_EQUAL(field(waits, "total_s", 2, NULL, 0), 0);
  CU_ASSERT_EQUAL(field(waits, "total_s", 1, NULL, 0), got);
  free(waits);
  run_free(&run);
  remove(path);
  remove_folder(dir);
}

/* A study that keeps no trace (the message view of the ping-pong) has no wait states: no table, no CSV table. */
static void test_rep_wait_none_without_trace(void)
{
  char dir[1024], scenario[1024];
  snprintf(scenario, sizeof scenario, "%s/scenarios/t800-pingpong.xml", SIMRUN_SOURCE_DIR);
  cli_run_t run;
  run_ok(dir, sizeof dir, (const char *const[]){"-q", "--no-cache", scenario, "--csv", "out.csv", NULL}, &run);
  CU_ASSERT_PTR_NULL(strstr(run.out, "Wait states"));
  char *waits = read_output(dir, "out-wait-states.csv");
  CU_ASSERT_PTR_NULL(waits);
  free(waits);
  run_free(&run);
  remove_folder(dir);
}

int main(void)
{
  const tu_case_t cases[] = {
      {"test_rep_wait_gauss_jordan_one_to_all", test_rep_wait_gauss_jordan_one_to_all},
      {"test_rep_wait_ti_replay_broadcast", test_rep_wait_ti_replay_broadcast},
      {"test_rep_wait_none_without_trace", test_rep_wait_none_without_trace},
      {NULL, NULL},
  };
  return tu_run("rep_wait", cases);
}
