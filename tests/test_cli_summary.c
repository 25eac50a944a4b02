/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The summary of a what-if of the project's own, end to end: scenarios/topology-gj.xml (Gauss-Jordan N = 256 on mesh,
 * torus, hypercube and switch of 128 T800s x the neighbour and binomial broadcasts, p = 1 to 128). Its best
 * configuration per p, margins over the runner-up and best speedup are worked out here from the CSV that the same run
 * writes (the lowest t_par_s per p, the second lowest, their ratio; the largest speedup), never from the report's
 * text, and checked against the report's summary lines. */
#define _POSIX_C_SOURCE 200809L

#include "tu.h"
#include "tu_cli.h"
#include "tu_csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const platforms[] = {"t800-mesh-16x8", "t800-torus-16x8", "t800-hypercube-7", "t800-switch-128"};
static const char *const broadcasts[] = {"neighbour", "binomial"};
static const int ps[] = {1, 4, 16, 64, 128};

/* At p, the best and runner-up configurations (index platform * 2 + broadcast, the earlier on ties, as the study
 * ranks) and the margin (T_2 - T_1) / T_1, from the CSV. */
static void rank_at(const char *csv, int p, int *best, int *second, double *margin)
{
  double t[8];
  for (int k = 0; k < 8; k++) {
    char keys[128];
    snprintf(keys, sizeof keys, "platform=%s.xml,broadcast=%s,p=%d", platforms[k / 2], broadcasts[k % 2], p);
    t[k] = tu_csv_value(csv, keys, "t_par_s");
    CU_ASSERT_FATAL(isfinite(t[k]));
  }
  *best = 0;
  for (int k = 1; k < 8; k++)
    *best = t[k] < t[*best] ? k : *best;
  *second = *best == 0 ? 1 : 0;
  for (int k = 0; k < 8; k++)
    *second = k != *best && t[k] < t[*second] ? k : *second;
  *margin = (t[*second] - t[*best]) / t[*best];
}

/* The summary's entry for the range of p that holds p ("  p = A: ..." or "  p = A to B: ..."), its wrapped lines
 * joined, into buf; 0, or -1 when there is none. */
static int range_entry(const char *out, int p, char *buf, size_t len)
{
  for (const char *c = strstr(out, "\n  p = "); c; c = strstr(c + 1, "\n  p = ")) {
    int a = 0, b = 0;
    int n = sscanf(c, "\n  p = %d to %d:", &a, &b);
    if (!((n == 1 && a == p) || (n == 2 && a <= p && p <= b)))
      continue;
    size_t used = 0;
    for (const char *t = c + 3; *t && used + 1 < len; t++) {
      if (*t == '\n' && strncmp(t + 1, "    ", 4) != 0)
        break;
      if (*t == '\n') { /* a continuation: one space for the break and the indent */
        t += 4;
        buf[used++] = ' ';
        continue;
      }
      buf[used++] = *t;
    }
    buf[used] = '\0';
    return 0;
  }
  return -1;
}

static void test_cli_summary_topology_what_if(void)
{
  char dir[1024];
  const char *args[] = {"-q", SIMRUN_SOURCE_DIR "/scenarios/topology-gj.xml", "--csv", "out.csv", NULL};
  cli_run_t run;
  run_ok(dir, sizeof dir, args, &run);
  char *csv = read_output(dir, "out.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
    int best, second;
    double margin;
    rank_at(csv, ps[i], &best, &second, &margin);
    char line[512];
    CU_ASSERT_EQUAL_FATAL(range_entry(run.out, ps[i], line, sizeof line), 0);
    char label[128];
    snprintf(label, sizeof label, ": %s, %s%s", platforms[best / 2], broadcasts[best % 2],
             margin <= 1e-9 ? " ties with " : ", by ");
    if (!strstr(line, label))
      fprintf(stderr, "\np = %d: expected '%s' in '%s'\n", ps[i], label, line);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, label));
    if (margin > 1e-9) { /* this p's margin, to the 0.01% printed, is the range's only one or one of its ends */
      char shown[32];
      snprintf(shown, sizeof shown, "%.2f%%", 100 * margin);
      CU_ASSERT(strstr(line, shown) && strstr(line, shown) < strstr(line, " over "));
      if (margin < 0.01) /* under the stated 1%: said so */
        CU_ASSERT_PTR_NOT_NULL(strstr(line, "(within 1%)"));
    }
  }
  /* the best speedup: the largest in the CSV, at its p */
  double top = 0;
  int top_p = 0;
  for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
    for (int k = 0; k < 8; k++) {
      char keys[128];
      snprintf(keys, sizeof keys, "platform=%s.xml,broadcast=%s,p=%d", platforms[k / 2], broadcasts[k % 2], ps[i]);
      double s = tu_csv_value(csv, keys, "speedup");
      if (s > top) {
        top = s;
        top_p = ps[i];
      }
    }
  char speedup[64];
  snprintf(speedup, sizeof speedup, "Best speedup: %.1f at p = %d", top, top_p);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, speedup));
  free(csv);
  run_free(&run);
  remove_folder(dir);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_cli_summary_topology_what_if", test_cli_summary_topology_what_if},
                                    {NULL, NULL}};
  return tu_run("cli_summary", cases);
}
