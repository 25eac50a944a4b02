/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The provenance of results files (cli_provenance.h): versions from CMake's project version and SimGrid's library,
 * and the command line with each word quoted for a POSIX shell where it needs it. */
#include "cli_provenance.h"

#include "rep_report.h"

#include <simgrid/forward.h> /* SG_BEGIN_DECL, which version.h needs */
#include <simgrid/version.h>

#include <stdio.h>
#include <string.h>

static char simgrid_version[32];
static char command[8192];

/* `word` as a shell takes it back: as is when every character is safe, else in single quotes (a quote in it as
 * '\''), cut to fit `size`. */
static void shell_word(const char *word, char *out, size_t size)
{
  static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,+-@%";
  if (*word && word[strspn(word, safe)] == '\0') {
    snprintf(out, size, "%s", word);
    return;
  }
  size_t n = 0;
  out[n++] = '\'';
  for (const char *c = word; *c && n + 6 < size; c++)
    n += (size_t)snprintf(out + n, size - n, *c == '\'' ? "'\\''" : "%c", *c);
  snprintf(out + n, size - n, "'");
}

void cli_provenance_set(int argc, char **argv)
{
  int major, minor, patch;
  sg_version_get(&major, &minor, &patch);
  snprintf(simgrid_version, sizeof simgrid_version, "%d.%d.%d", major, minor, patch);
  const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
  char word[2048];
  size_t used = 0;
  command[0] = '\0';
  for (int i = 0; i < argc; i++) {
    shell_word(i == 0 && slash ? slash + 1 : argv[i], word, sizeof word);
    int n = snprintf(command + used, sizeof command - used, "%s%s", i ? " " : "", word);
    if (n < 0 || (size_t)n >= sizeof command - used) {
      command[used] = '\0'; /* too long to keep whole: the words that fit */
      break;
    }
    used += (size_t)n;
  }
  rep_set_provenance(
      &(rep_provenance_t){.simrun_version = SIMRUN_VERSION, .simgrid_version = simgrid_version, .command = command});
}
