/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* simrun's data folder: found beside the executable once installed (GNUInstallDirs' layout), or in the source tree of a
 * build; the shipped scenarios by name; --list and --version. */
#include "cli_data.h"
#include "cli_exit.h"
#include "scn_scenario.h"

#include <dirent.h>
#include <limits.h>
#include <simgrid/forward.h> /* SG_BEGIN_DECL, which version.h needs */
#include <simgrid/version.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_folder(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether `dir` holds scenarios/; then it is copied into `out`. */
static int take(const char *dir, char *out, size_t len)
{
  char probe[PATH_MAX + 16];
  if (!dir || !*dir || strlen(dir) >= len)
    return 0;
  snprintf(probe, sizeof probe, "%s/scenarios", dir);
  if (!is_folder(probe))
    return 0;
  snprintf(out, len, "%s", dir);
  return 1;
}

/* BINDIR/../DATADIR/simrun for the running executable, into `out`; "" when /proc/self/exe cannot be read. */
static void beside_executable(char *out, size_t len)
{
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  out[0] = '\0';
  if (n <= 0)
    return;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (slash) {
    *slash = '\0';
    snprintf(out, len, "%s/%s", exe, SIMRUN_DATA_FROM_BINDIR);
  }
}

const char *cli_data_dir(void)
{
  static char dir[PATH_MAX];
  static int done;
  if (done)
    return dir[0] ? dir : NULL;
  done = 1;
  char beside[PATH_MAX + 64];
  beside_executable(beside, sizeof beside);
  if (take(getenv("SIMRUN_DATA_DIR"), dir, sizeof dir) || take(beside, dir, sizeof dir) ||
      take(SIMRUN_INSTALL_DATADIR, dir, sizeof dir) || take(SIMRUN_SOURCE_TREE, dir, sizeof dir))
    return dir;
  dir[0] = '\0';
  return NULL;
}

int cli_find_scenario(const char *arg, char *path, size_t len)
{
  static const char *const suffixes[] = {"", ".xml"};
  const char *data = cli_data_dir();
  if (is_file(arg) || !data) {
    snprintf(path, len, "%s", arg);
    return is_file(arg) ? 0 : -1;
  }
  if (strchr(arg, '/')) { /* a path relative to the data folder (scenarios/gj256.xml, docs/labs/...), as the man
                           * page's examples and the labs write them, from any folder */
    snprintf(path, len, "%s/%s", data, arg);
    if (arg[0] != '/' && is_file(path))
      return 0;
    snprintf(path, len, "%s", arg);
    return -1;
  }
  for (size_t i = 0; i < 2; i++) {
    snprintf(path, len, "%s/scenarios/%s%s", data, arg, suffixes[i]);
    if (is_file(path))
      return 0;
  }
  snprintf(path, len, "%s", arg);
  return -1;
}

static int by_name(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The shipped scenario files' names (*.xml in DATA/scenarios), sorted; their number in *count. NULL when none. */
static char **scenario_files(const char *data, size_t *count)
{
  char folder[PATH_MAX + 16];
  snprintf(folder, sizeof folder, "%s/scenarios", data);
  DIR *d = opendir(folder);
  char **names = NULL;
  *count = 0;
  for (const struct dirent *e; d && (e = readdir(d));) {
    size_t n = strlen(e->d_name);
    char **more = n > 4 && strcmp(e->d_name + n - 4, ".xml") == 0 ? realloc(names, (*count + 1) * sizeof *names) : NULL;
    if (more && (more[*count] = strdup(e->d_name)))
      (*count)++;
    names = more ? more : names;
  }
  if (d)
    closedir(d);
  if (names)
    qsort(names, *count, sizeof *names, by_name);
  return names;
}

int cli_list(FILE *out)
{
  const char *data = cli_data_dir();
  if (!data) {
    fprintf(stderr, "simrun: error: no data folder with the shipped scenarios; set SIMRUN_DATA_DIR to simrun's "
                    "share/simrun folder\n");
    return EXIT_RUNTIME;
  }
  size_t count = 0;
  char **names = scenario_files(data, &count);
  fprintf(out, "Shipped scenarios (%s/scenarios; run one by name: simrun NAME):\n", data);
  fprintf(out, "  %-20s %-20s %s\n", "name", "skeleton", "platform");
  for (size_t i = 0; i < count; i++) {
    char path[PATH_MAX + 64];
    scn_scenario_t *s = NULL;
    scn_error_t err = {0};
    snprintf(path, sizeof path, "%s/scenarios/%s", data, names[i]);
    names[i][strlen(names[i]) - 4] = '\0';
    if (scn_load(path, &s, &err) == 0) {
      const char *platform = strrchr(s->platform, '/');
      fprintf(out, "  %-20s %-20s %s\n", names[i], s->skeleton, platform ? platform + 1 : s->platform);
    } else
      fprintf(out, "  %-20s (cannot be read: %s)\n", names[i], err.message);
    scn_free(s);
    free(names[i]);
  }
  free(names);
  return 0;
}

void cli_version(FILE *out)
{
  int major, minor, patch;
  sg_version_get(&major, &minor, &patch);
  fprintf(out, "simrun %s (SimGrid %d.%d.%d, built against %d.%d.%d)\n", SIMRUN_VERSION, major, minor, patch,
          SIMGRID_VERSION_MAJOR, SIMGRID_VERSION_MINOR, SIMGRID_VERSION_PATCH);
}
