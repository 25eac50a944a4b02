/* Tests of rep_pictures: simrun --svg on small scenarios end to end (the files, their names, well-formed SVG, the fits
 * printed, errors for bad options). The timeline: test_rep_timeline.c; CARNIVAL's views: test_rep_carnival_views.c. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include "tu.h"
#include "tu_svg.h"

#include <dirent.h>
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define SMALL SIMRUN_SOURCE_DIR "/tests/data/cli/gj-small.xml"

/* Runs simrun with `args` in folder `dir`, its output in dir/out.txt and dir/err.txt. Returns its exit status. */
static int run_simrun(const char *dir, const char *args)
{
  char command[2048];
  snprintf(command, sizeof command, "cd %s && %s %s > out.txt 2> err.txt", dir, SIMRUN_BINARY, args);
  int status = system(command);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *read_file(const char *dir, const char *name, size_t *len)
{
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *in = fopen(path, "r");
  if (!in)
    return NULL;
  fseek(in, 0, SEEK_END);
  *len = (size_t)ftell(in);
  rewind(in);
  char *text = calloc(1, *len + 1);
  if (fread(text, 1, *len, in) != *len)
    *len = 0;
  fclose(in);
  return text;
}

/* The .svg files of `dir`, each checked well-formed; -1 when one is not, or a file has a temporary name. */
static int count_pictures(const char *dir)
{
  DIR *d = opendir(dir);
  struct dirent *e;
  int count = 0;
  while (d && (e = readdir(d))) {
    size_t n = strlen(e->d_name), len = 0;
    if (strstr(e->d_name, ".tmp."))
      count = -1000;
    if (n < 4 || strcmp(e->d_name + n - 4, ".svg") != 0)
      continue;
    char *text = read_file(dir, e->d_name, &len);
    count += text && tu_svg_well_formed(text, len) ? 1 : -1000;
    free(text);
  }
  if (d)
    closedir(d);
  return count < 0 ? -1 : count;
}

static void test_rep_pictures_study(void)
{
  char dir[] = "/tmp/simrun-svg-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  CU_ASSERT_EQUAL(run_simrun(dir, SMALL " --per-process 4 --svg pics/new --paje run.paje"), 0);
  char sub[1100];
  snprintf(sub, sizeof sub, "%s/pics/new", dir);
  static const char *const expected[] = {"gj-small-timeline-neighbour.svg",
                                         "gj-small-processes-one-to-all.svg",
                                         "gj-small-overall-neighbour.svg",
                                         "gj-small-speedup.svg",
                                         "gj-small-ovh-comm.svg",
                                         "gj-small-components-one-to-all.svg",
                                         "gj-small-bratios-neighbour.svg",
                                         "gj-small-ratios-neighbour.svg",
                                         "gj-small-component-shares-neighbour.svg",
                                         "gj-small-subcomponents-one-to-all.svg"};
  for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
    size_t len = 0;
    char *text = read_file(sub, expected[i], &len);
    CU_ASSERT_PTR_NOT_NULL(text);
    free(text);
  }
  size_t len = 0;
  char *out = read_file(dir, "out.txt", &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  int count = count_pictures(sub);
  char line[128];
  snprintf(line, sizeof line, "Pictures: %d SVG files in pics/new", count);
  CU_ASSERT(count >= (int)(sizeof expected / sizeof expected[0]));
  CU_ASSERT_PTR_NOT_NULL(strstr(out, line));
  /* 3 values of p: too few for any form, which needs two points more than its coefficients */
  CU_ASSERT_PTR_NULL(strstr(out, "Regression fits"));
  char *paje = read_file(dir, "run.paje", &len);
  CU_ASSERT(paje && strstr(paje, "\"gj-small: broadcast=neighbour p=4\""));
  free(paje);
  free(out);
  snprintf(line, sizeof line, "rm -rf %s", dir);
  CU_ASSERT_EQUAL(system(line), 0);
}

/* --paje without a per-process p, and --svg under a regular file: exit 2, one message, nothing simulated. */
static void test_rep_pictures_bad_options(void)
{
  char dir[] = "/tmp/simrun-svg-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  size_t len = 0;
  CU_ASSERT_EQUAL(run_simrun(dir, SMALL " --paje run.paje"), 2);
  char *err = read_file(dir, "err.txt", &len);
  CU_ASSERT(err && strcmp(err, "simrun: error: --paje records the run of the per-process p, but none is chosen; add "
                               "--per-process P (or <report per-process> in the scenario)\n") == 0);
  free(err);
  CU_ASSERT_EQUAL(run_simrun(dir, SMALL " --svg out.txt/pics"), 2);
  err = read_file(dir, "err.txt", &len);
  CU_ASSERT(err && strncmp(err, "simrun: error: cannot create folder 'out.txt/pics': ", 52) == 0);
  free(err);
  char command[128];
  snprintf(command, sizeof command, "test ! -e %s/run.paje && rm -rf %s", dir, dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* Without --svg, the terminal shows the fits: gj-worksize's speedup against N at p = 16 takes the saturating form of
 * eq. 11 (T_seq ~ N^3, T_par ~ N^3/p + N^2): a speedup that grows with N towards a limit 1/a above 1, explaining
 * the data (adjusted R^2 above 0.99), with the data's range. */
static void test_rep_pictures_fits_on_terminal(void)
{
  char dir[] = "/tmp/simrun-fits-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, "-q --no-cache " SIMRUN_SOURCE_DIR "/scenarios/gj-worksize.xml"), 0);
  size_t len;
  char *out = read_file(dir, "out.txt", &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  const char *line = strstr(out, "speedup against n, p = 16: fit 1 / (");
  double a = 0;
  CU_ASSERT_PTR_NOT_NULL_FATAL(line);
  CU_ASSERT_EQUAL(sscanf(line, "speedup against n, p = 16: fit 1 / (%lf", &a), 1);
  CU_ASSERT(a > 0 && 1 / a > 1);
  const char *adjusted = strstr(line, "adjusted ");
  CU_ASSERT(adjusted && strtod(adjusted + 9, NULL) > 0.99);
  CU_ASSERT_PTR_NOT_NULL(strstr(line, "n from 64 to 512\n"));
  free(out);
  char command[128];
  snprintf(command, sizeof command, "rm -rf %s", dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

/* --svg on a skeleton with a process grid draws the heat map of the grids (docs/icluster.md), well-formed. */
static void test_rep_pictures_grid_heat_map(void)
{
  char dir[] = "/tmp/simrun-grids-XXXXXX";
  CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
  CU_ASSERT_EQUAL_FATAL(
      run_simrun(dir, "-q --no-cache " SIMRUN_SOURCE_DIR "/tests/data/linalg/pdgemm-row.xml --svg pics"), 0);
  size_t len = 0;
  char *svg = read_file(dir, "pics/pdgemm-row-grids.svg", &len);
  CU_ASSERT(svg && tu_svg_well_formed(svg, len));
  free(svg);
  char command[128];
  snprintf(command, sizeof command, "rm -rf %s", dir);
  CU_ASSERT_EQUAL(system(command), 0);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_rep_pictures_study", test_rep_pictures_study},
                                    {"test_rep_pictures_fits_on_terminal", test_rep_pictures_fits_on_terminal},
                                    {"test_rep_pictures_grid_heat_map", test_rep_pictures_grid_heat_map},
                                    {"test_rep_pictures_bad_options", test_rep_pictures_bad_options},
                                    {NULL, NULL}};
  int status = tu_run("rep_pictures", cases);
  xmlCleanupParser();
  return status;
}
