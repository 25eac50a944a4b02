/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The complete install: cmake --install into a temporary prefix puts the binary, the man page and share/simrun
 * (platforms, scenarios with the schema, docs with the labs); the installed simrun, run from another folder, lists
 * and runs the shipped scenarios by name, runs a copied scenario whose relative platform path only the data folder
 * holds, and prints the versions from their sources. */
#include "app_catalogue.h"
#include "tu.h"
#include "tu_cli.h"

#include <glob.h>
#include <libgen.h>

/* One installed prefix for the whole suite, and a working folder elsewhere. */
static char prefix[1024], work[1024], installed[1200];

static int install(void)
{
  char build[1024];
  snprintf(build, sizeof build, "%s", SIMRUN_BINARY);
  const char *args[] = {"cmake", "--install", dirname(build), "--prefix", prefix, NULL};
  cli_run_t run;
  int rc = run_program(prefix, "/usr/bin/env", args, &run);
  if (rc == 0 && run.status != 0)
    fprintf(stderr, "\ncmake --install: exit status %d\n%s%s", run.status, run.out, run.err);
  rc = rc == 0 && run.status == 0 ? 0 : -1;
  run_free(&run);
  return rc;
}

/* Runs the installed simrun in the working folder with `args`, which must exit `status`. */
static void run_installed(const char *const *args, int status, cli_run_t *run)
{
  CU_ASSERT_EQUAL_FATAL(run_program(work, installed, args, run), 0);
  if (run->status != status)
    fprintf(stderr, "\nexit status %d\n%s", run->status, run->err);
  CU_ASSERT_EQUAL(run->status, status);
}

static int exists(const char *relative)
{
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", prefix, relative);
  return access(path, R_OK) == 0;
}

static void test_data_install_layout(void)
{
  static const char *const files[] = {"bin/simrun",
                                      "share/man/man1/simrun.1",
                                      "share/simrun/scenarios/gj256.xml",
                                      "share/simrun/scenarios/scenario.rng",
                                      "share/simrun/platforms/t800-mesh-128.xml",
                                      "share/simrun/platforms/generated/t800-mesh-16x8.xml",
                                      "share/simrun/docs/results.md",
                                      "share/simrun/docs/labs/01-lost-cycles.md",
                                      "share/simrun/docs/labs/matmul-n.xml",
                                      "share/simrun/README.md",
                                      NULL};
  for (size_t i = 0; files[i]; i++) {
    if (!exists(files[i]))
      fprintf(stderr, "\nnot installed: %s\n", files[i]);
    CU_ASSERT(exists(files[i]));
  }
}

/* The number of .xml files in the source tree's scenarios/ folder. */
static size_t shipped_scenarios(void)
{
  glob_t found;
  size_t count = glob(SIMRUN_SOURCE_DIR "/scenarios/*.xml", 0, NULL, &found) == 0 ? found.gl_pathc : 0;
  globfree(&found);
  return count;
}

/* --list names every shipped scenario and the installed data folder, not the source tree. */
static void test_data_list(void)
{
  const char *args[] = {"--list", NULL};
  cli_run_t run;
  run_installed(args, 0, &run);
  char folder[1200];
  snprintf(folder, sizeof folder, "(%s/bin/../share/simrun/scenarios;", prefix);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, folder));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "\n  gj256                gauss-jordan         t800-mesh-128.xml\n"));
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "\n  matmul100            ring-matmul          pentium2-fe-8.xml\n"));
  CU_ASSERT_EQUAL(count_lines(run.out), 2 + shipped_scenarios()); /* the header lines and one per scenario */
  run_free(&run);
}

/* `simrun matmul100` from another folder gives the CSV of the build's run of scenarios/matmul100.xml; so does a copy
 * of the scenario in that folder, whose ../platforms/pentium2-fe-8.xml is found in the installed data folder. */
static void test_data_run_by_name_and_copy(void)
{
  const char *by_name[] = {"-q", "--no-cache", "matmul100", "--csv", "by-name.csv", NULL};
  const char *copy[] = {"-q", "--no-cache", "copy.xml", "--csv", "copy.csv", NULL};
  const char *build[] = {"-q", "--no-cache", SIMRUN_SOURCE_DIR "/scenarios/matmul100.xml", "--csv", "build.csv", NULL};
  cli_run_t run;
  run_installed(by_name, 0, &run);
  run_free(&run);
  char *text = read_output(prefix, "share/simrun/scenarios/matmul100.xml");
  char path[1100];
  snprintf(path, sizeof path, "%s/copy.xml", work);
  FILE *file = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(file);
  fputs(text ? text : "", file);
  fclose(file);
  free(text);
  run_installed(copy, 0, &run);
  run_free(&run);
  CU_ASSERT_EQUAL_FATAL(run_simrun(work, build, &run), 0);
  run_free(&run);
  char *a = read_output(work, "by-name.csv"), *b = read_output(work, "copy.csv"), *c = read_output(work, "build.csv");
  CU_ASSERT(a && b && c && count_lines(a) == 9 && strcmp(a, b) == 0 && strcmp(a, c) == 0);
  free(a);
  free(b);
  free(c);
}

/* A bare name that is neither a file nor a shipped scenario: one line pointing at --list, exit 2. */
static void test_data_unknown_name(void)
{
  const char *args[] = {"gj257", NULL};
  cli_run_t run;
  run_installed(args, 2, &run);
  CU_ASSERT_STRING_EQUAL(run.err, "simrun: error: 'gj257' is neither a scenario file nor a shipped scenario's name "
                                  "(simrun --list); see simrun --help\n");
  CU_ASSERT_STRING_EQUAL(run.out, "");
  run_free(&run);
}

/* --version: simrun's version is project()'s in CMakeLists.txt, SimGrid's the one pkg-config knows. */
static void test_data_version(void)
{
  char *cmake = read_output(SIMRUN_SOURCE_DIR, "CMakeLists.txt");
  const char *at = cmake ? strstr(cmake, "project(simrun VERSION ") : NULL;
  CU_ASSERT_PTR_NOT_NULL_FATAL(at);
  char expected[64], simgrid[64];
  CU_ASSERT_EQUAL_FATAL(sscanf(at, "project(simrun VERSION %31[0-9.]", expected + 7), 1);
  memcpy(expected, "simrun ", 7);
  free(cmake);
  const char *pc[] = {"pkg-config", "--modversion", "simgrid", NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_program(work, "/usr/bin/env", pc, &run), 0);
  snprintf(simgrid, sizeof simgrid, " (SimGrid %.*s.", (int)strcspn(run.out, "\n"), run.out);
  run_free(&run);
  const char *args[] = {"--version", NULL};
  run_installed(args, 0, &run);
  CU_ASSERT_NSTRING_EQUAL(run.out, expected, strlen(expected));
  CU_ASSERT_EQUAL(run.out[strlen(expected)], ' ');
  CU_ASSERT_EQUAL(count_lines(run.out), 1);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, simgrid));
  run_free(&run);
}

/* The part of `text` from `from` up to `to` (cut in place); "" when `from` is missing. */
static char *section(char *text, const char *from, const char *to)
{
  char *start = text ? strstr(text, from) : NULL;
  char *end = start ? strstr(start + strlen(from), to) : NULL;
  if (end)
    *end = '\0';
  return start ? start : "";
}

/* The installed man page's skeleton list and docs/scenarios.md's skeleton table name every skeleton simrun has
 * (app_names, which --help prints). */
static void test_data_docs_list_every_skeleton(void)
{
  char *man_text = read_output(prefix, "share/man/man1/simrun.1");
  char *scenarios_text = read_output(prefix, "share/simrun/docs/scenarios.md");
  const char *man = section(man_text, "Skeletons: ", ".SH");
  const char *scenarios = section(scenarios_text, "## Skeletons and their parameters", "\n## ");
  char names[512];
  CU_ASSERT(*man && *scenarios);
  snprintf(names, sizeof names, "%s", app_names());
  for (char *save, *name = strtok_r(names, ", ", &save); name; name = strtok_r(NULL, ", ", &save)) {
    if (!strstr(man, name) || !strstr(scenarios, name))
      fprintf(stderr, "\nskeleton %s missing from the man page or docs/scenarios.md\n", name);
    CU_ASSERT_PTR_NOT_NULL(strstr(man, name));
    CU_ASSERT_PTR_NOT_NULL(strstr(scenarios, name));
  }
  free(man_text);
  free(scenarios_text);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_data_install_layout", test_data_install_layout},
                                    {"test_data_list", test_data_list},
                                    {"test_data_run_by_name_and_copy", test_data_run_by_name_and_copy},
                                    {"test_data_version", test_data_version},
                                    {"test_data_unknown_name", test_data_unknown_name},
                                    {"test_data_docs_list_every_skeleton", test_data_docs_list_every_skeleton},
                                    {NULL, NULL}};
  if (make_folder(prefix, sizeof prefix) != 0 || make_folder(work, sizeof work) != 0 || install() != 0) {
    fprintf(stderr, "simrun could not be installed into %s\n", prefix);
    return 1;
  }
  snprintf(installed, sizeof installed, "%s/bin/simrun", prefix);
  int status = tu_run("cli_data", cases);
  char command[2200];
  snprintf(command, sizeof command, "rm -rf '%s' '%s'", prefix, work);
  return system(command) == 0 ? status : 1;
}
