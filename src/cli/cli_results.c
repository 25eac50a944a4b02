/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The output phase of a run as one transaction (rep_report.h): every output (cli_formats.h) is written under a
 * temporary name, and all are renamed together once all are complete; a failure or a signal at any moment removes the
 * temporaries and leaves the earlier outputs as they were. */
#define _DEFAULT_SOURCE /* mkdtemp, kill */
#include "cli_results.h"
#include "cli_exit.h"

#include "cli_output.h"
#include "cli_signal.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --ti DIR, written by the sweep itself: an earlier DIR is set aside as DIR.simrun-old.PID.XXXXXX while the sweep
 * writes a new one, which replaces it (keeping the earlier entries the run did not write again) when the transaction
 * ends, and is removed, the earlier one put back, when it is rolled back. */
typedef struct ti_swap {
  char dir[4096];
  char old[4200];
} ti_swap_t;

/* Moves every entry of `from` that `to` lacks into `to`; 0, or -1 with errno. */
static int move_missing(const char *from, const char *to)
{
  DIR *d = opendir(from);
  int rc = d ? 0 : -1;
  char a[8400], b[8400];
  struct stat st;
  for (struct dirent *e; rc == 0 && (e = readdir(d));) {
    snprintf(a, sizeof a, "%s/%s", from, e->d_name);
    snprintf(b, sizeof b, "%s/%s", to, e->d_name);
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && lstat(b, &st) != 0)
      rc = rename(a, b);
  }
  if (d)
    closedir(d);
  return rc;
}

static int ti_keep(void *state, char *err, size_t errlen)
{
  ti_swap_t *t = state;
  int rc = t->old[0] ? move_missing(t->old, t->dir) : 0;
  if (rc != 0)
    snprintf(err, errlen, "cannot move the earlier traces of '%s' back from '%s': %s", t->dir, t->old, strerror(errno));
  else if (t->old[0])
    rep_file_remove_tree(t->old);
  free(t);
  return rc;
}

static void ti_undo(void *state)
{
  ti_swap_t *t = state;
  rep_file_remove_tree(t->dir);
  if (t->old[0])
    rename(t->old, t->dir);
  free(t);
}

/* Puts back the earlier DIR a killed simrun set aside (DIR.simrun-old.PID.XXXXXX whose process is gone), removing
 * the half-written one. */
static void restore_stale(const char *dir)
{
  char folder[4096], prefix[4200], path[8400];
  snprintf(folder, sizeof folder, "%s", dir);
  char *slash = strrchr(folder, '/');
  const char *base = slash ? slash + 1 : dir;
  if (slash)
    slash[slash == folder] = '\0';
  snprintf(prefix, sizeof prefix, "%s.simrun-old.", base);
  DIR *d = opendir(slash ? folder : ".");
  for (struct dirent *e; d && (e = readdir(d));) {
    char *end = NULL;
    long pid = strncmp(e->d_name, prefix, strlen(prefix)) == 0 ? strtol(e->d_name + strlen(prefix), &end, 10) : 0;
    if (pid <= 0 || *end != '.' || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
      continue;
    snprintf(path, sizeof path, "%s/%s", slash ? folder : ".", e->d_name);
    rep_file_remove_tree(dir);
    rename(path, dir);
  }
  if (d)
    closedir(d);
}

/* Sets the earlier --ti folder aside (or makes it) for the sweep. 0, or 1 with the message printed. */
static int begin_ti(const char *dir)
{
  char message[1200] = "";
  struct stat st;
  ti_swap_t *t = calloc(1, sizeof *t);
  if (!t)
    return EXIT_RUNTIME;
  restore_stale(dir);
  snprintf(t->dir, sizeof t->dir, "%s", dir);
  if (lstat(dir, &st) == 0) {
    snprintf(t->old, sizeof t->old, "%s.simrun-old.%ld.XXXXXX", dir, (long)getpid());
    int made = mkdtemp(t->old) != NULL;
    if (!made || rename(dir, t->old) != 0 || mkdir(dir, 0777) != 0) {
      fprintf(stderr, "simrun: error: cannot set the earlier '%s' aside: %s\n", dir, strerror(errno));
      if (made)
        rmdir(t->old);
      free(t);
      return EXIT_RUNTIME;
    }
  } else if (cli_folder_make(dir, message, sizeof message) != 0) {
    fprintf(stderr, "simrun: error: %s\n", message);
    free(t);
    return EXIT_RUNTIME;
  }
  return rep_file_defer(ti_keep, ti_undo, t, message, sizeof message) == 0 ? EXIT_OK : EXIT_RUNTIME;
}

int cli_outputs_begin(const char *ti)
{
  rep_file_begin();
  return ti ? begin_ti(ti) : EXIT_OK;
}

int cli_outputs_end(int status)
{
  char message[1200] = "";
  if (status != EXIT_OK || cli_signal_stop()) {
    rep_file_rollback();
    return status == EXIT_OK ? CLI_EXIT_STOPPED : status;
  }
  cli_signal_step("renaming", "while renaming the outputs into place");
  if (rep_file_end(message, sizeof message) != 0) {
    if (!cli_signal_stop()) /* else the stop's line says it (nothing for SIGPIPE) */
      fprintf(stderr, "simrun: error: %s\n", message);
    return cli_signal_stop() ? CLI_EXIT_STOPPED : EXIT_RUNTIME;
  }
  cli_signal_outputs(""); /* all written */
  cli_signal_step("done", "after every output was written");
  return EXIT_OK;
}
