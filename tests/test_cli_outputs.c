/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Every output option of every subcommand against the paths it must refuse (issue 48 item 1): an input of the same
 * command (by its own name and through a symbolic link), /dev/null, a folder where a file is written, a read-only
 * folder and a missing one. Each must exit 2 with one "simrun: error: " line before any work, and leave the input,
 * the device and the folder as they were. run's and analyse's output options come from the code's own table
 * (cli_formats); compare's, platform's and machine probe's are listed here and held to their --help. The tracer's
 * folder (SIMRUN_TRACE_DIR) is tried against the same paths and a FIFO: refused with one warning at MPI_Init. */
#define _GNU_SOURCE /* mkdtemp, symlink */

#include "cli_formats.h"
#include "tu_cli.h"

#include <sys/stat.h>
#include <unistd.h>

#define MAX_OPTIONS 16
#define TARGET      "@" /* in a command's arguments: where the output path goes */

/* A subcommand: how its working folder is set up, its arguments, and the output options it takes. */
typedef struct command {
  const char *name;
  const char *input;          /* the input file the outputs must not replace, in the working folder; NULL: none */
  const char *args[MAX_ARGS]; /* NULL-ended; "@OPTION" is replaced by the option, TARGET by the path */
  const char *help[4];        /* the command's --help invocation, NULL-ended */
  const char *options[MAX_OPTIONS];
  int folder[MAX_OPTIONS]; /* 1: the option names a folder (made when missing, with its parents when written) */
  size_t count;
} command_t;

/* run's and analyse's output options: the table's rows that `command` takes. */
static void options_from_table(command_t *c, cli_command_t command)
{
  for (size_t i = 0; i < cli_format_count && c->count < MAX_OPTIONS; i++)
    if (cli_formats[i].help[command]) {
      c->options[c->count] = cli_formats[i].option;
      c->folder[c->count++] = cli_formats[i].kind != CLI_FORMAT_FILE;
    }
  CU_ASSERT(c->count >= 4);
}

/* Copies `from` (a file or a folder) to `name` in `dir`. */
static void copy_in(const char *dir, const char *from, const char *name)
{
  char to[2048];
  snprintf(to, sizeof to, "%s/%s", dir, name);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_program(dir, "/bin/cp", (const char *const[]){"-r", from, to, NULL}, &run), 0);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
}

/* The working folder of command `c`: its inputs, a folder "taken", a read-only-to-be folder "ro" and a link "link" to
 * the input. */
static void set_up(const command_t *c, const char *dir)
{
  if (strcmp(c->name, "run") == 0) {
    copy_in(dir, DATA "outputs-in.xml", "in.xml");
  } else if (strcmp(c->name, "analyse") == 0) {
    copy_in(dir, SIMRUN_SOURCE_DIR "/tests/data/tracer/two-ranks", "runs");
  } else if (strcmp(c->name, "compare") == 0) {
    copy_in(dir, SIMRUN_SOURCE_DIR "/tests/data/compare/ranks-a.csv", "a.csv");
    copy_in(dir, SIMRUN_SOURCE_DIR "/tests/data/compare/ranks-b.csv", "b.csv");
  } else if (strcmp(c->name, "machine") == 0) {
    copy_in(dir, SIMRUN_SOURCE_DIR "/tests/data/machine/pingpong-shm.csv", "s.csv");
  }
  char path[2048];
  snprintf(path, sizeof path, "%s/taken", dir);
  CU_ASSERT_EQUAL(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/ro", dir);
  CU_ASSERT_EQUAL(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/link", dir);
  if (c->input)
    CU_ASSERT_EQUAL(symlink(c->input, path), 0);
}

/* The arguments of `c` with `option` and `target` put in. */
static void arguments(const command_t *c, const char *option, const char *target, const char **args)
{
  size_t n = 0;
  for (size_t i = 0; c->args[i] && n < MAX_ARGS; i++)
    args[n++] = strcmp(c->args[i], "@OPTION") == 0 ? option : strcmp(c->args[i], TARGET) == 0 ? target : c->args[i];
  args[n] = NULL;
}

/* What must not change: the input's bytes, inode and time, /dev/null a device, "taken" an empty folder. */
typedef struct untouched {
  struct stat input, null;
  char *text;
} untouched_t;

static void note(const command_t *c, const char *dir, untouched_t *u)
{
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, c->input ? c->input : "taken");
  CU_ASSERT_EQUAL_FATAL(lstat(path, &u->input), 0);
  CU_ASSERT_EQUAL_FATAL(stat("/dev/null", &u->null), 0);
  u->text = c->input && S_ISREG(u->input.st_mode) ? read_output(dir, c->input) : NULL;
}

static void assert_untouched(const command_t *c, const char *dir, const untouched_t *u, const char *what)
{
  char path[2048], taken[2048];
  struct stat now, null;
  snprintf(path, sizeof path, "%s/%s", dir, c->input ? c->input : "taken");
  snprintf(taken, sizeof taken, "%s/taken", dir);
  int same = lstat(path, &now) == 0 && now.st_ino == u->input.st_ino && now.st_mode == u->input.st_mode &&
             now.st_size == u->input.st_size && now.st_mtim.tv_sec == u->input.st_mtim.tv_sec &&
             now.st_mtim.tv_nsec == u->input.st_mtim.tv_nsec;
  char *text = u->text ? read_output(dir, c->input) : NULL;
  same = same && (!u->text || (text && strcmp(text, u->text) == 0));
  free(text);
  same = same && stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) && null.st_rdev == u->null.st_rdev;
  same = same && count_entries(taken) == 0;
  if (!same)
    fprintf(stderr, "\n%s %s: an input, /dev/null or the folder 'taken' changed\n", c->name, what);
  CU_ASSERT(same);
}

/* The run's verdict: exit 2, one error line that names the path, nothing on standard output. */
static void assert_refused(const cli_run_t *run, const command_t *c, const char *option, const char *target)
{
  int ok = run->status == 2 && count_lines(run->err) == 1 && strncmp(run->err, "simrun: error: ", 15) == 0 &&
           strstr(run->err, target) && run->out[0] == '\0';
  if (!ok)
    fprintf(stderr, "\n%s %s %s: exit %d, stderr %s", c->name, option, target, run->status, run->err);
  CU_ASSERT(ok);
}

/* One case in process: `option` given `target`. */
static void try_target(const command_t *c, const char *dir, const char *option, const char *target)
{
  const char *args[MAX_ARGS + 1];
  arguments(c, option, target, args);
  untouched_t u;
  note(c, dir, &u);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_in_process(dir, args, &run), 0);
  assert_refused(&run, c, option, target);
  run_free(&run);
  assert_untouched(c, dir, &u, target);
  free(u.text);
}

/* The read-only folder: root writes into a folder whatever its mode, so the folder "ro" is made read-only by a
 * read-only bind mount in a private mount namespace of a user namespace (unshare -rm: no privilege needed, nothing
 * left mounted), where simrun runs as a process. */
static void try_read_only(const command_t *c, const char *dir, const char *option, const char *target)
{
  const char *args[MAX_ARGS + 1];
  arguments(c, option, target, args);
  char command[8192];
  int n = snprintf(command, sizeof command, "mount --bind ro ro && mount -o remount,bind,ro ro && exec '%s'",
                   SIMRUN_BINARY);
  for (size_t i = 0; args[i] && n < (int)sizeof command; i++)
    n += snprintf(command + n, sizeof command - (size_t)n, " '%s'", args[i]);
  untouched_t u;
  note(c, dir, &u);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(
      run_program(dir, "/usr/bin/unshare", (const char *const[]){"-rm", "sh", "-c", command, NULL}, &run), 0);
  assert_refused(&run, c, option, target);
  run_free(&run);
  assert_untouched(c, dir, &u, target);
  free(u.text);
}

/* The control: option `option` of `c` with a path it may write (a new file, or a new folder) runs, exit 0, so that
 * the refusals are the gate's, not a broken command line's. */
static void try_good(const command_t *c, const char *dir, const char *option, int folder)
{
  const char *args[MAX_ARGS + 1];
  arguments(c, option, folder ? "good-dir" : "good.out", args);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_in_process(dir, args, &run), 0);
  if (run.status != 0)
    fprintf(stderr, "\n%s %s: the control run failed: %s", c->name, option, run.err);
  CU_ASSERT_EQUAL(run.status, 0);
  run_free(&run);
}

/* Every output option of `c` against every path it must refuse. A folder option may name a missing folder (it is
 * made), not a file, a device or a folder inside a read-only one. */
static void try_command(const command_t *c)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  set_up(c, dir);
  for (size_t i = 0; i < c->count; i++) {
    const char *option = c->options[i];
    try_good(c, dir, option, c->folder[i]);
    if (c->input) {
      try_target(c, dir, option, c->input);
      try_target(c, dir, option, "link");
    }
    try_target(c, dir, option, "/dev/null");
    if (!c->folder[i]) {
      try_target(c, dir, option, "taken");
      try_target(c, dir, option, "missing/out");
    }
    try_read_only(c, dir, option, c->folder[i] ? "ro/sub" : "ro/out");
  }
  char path[2048];
  const char *made[] = {"link", "taken", "ro"};
  for (size_t i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, made[i]);
    remove(path);
  }
  snprintf(path, sizeof path, "rm -rf '%s'", dir);
  CU_ASSERT_EQUAL(system(path), 0);
}

/* Each listed option is in the command's --help: the list here cannot drift from the command. */
static void assert_in_help(const command_t *c)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_in_process(dir, c->help, &run), 0);
  for (size_t i = 0; i < c->count; i++) {
    char word[64];
    snprintf(word, sizeof word, " %s ", c->options[i]);
    if (c->options[i][0] == '-' && !strstr(run.out, word))
      fprintf(stderr, "\nsimrun %s --help does not list %s\n", c->name, c->options[i]);
    CU_ASSERT(c->options[i][0] != '-' || strstr(run.out, word));
  }
  run_free(&run);
  remove_folder(dir);
}

static void test_outputs_run(void)
{
  command_t c = {.name = "run",
                 .input = "in.xml",
                 .args = {"-q", "--no-cache", "--per-process", "4", "in.xml", "@OPTION", TARGET, NULL}};
  options_from_table(&c, CLI_COMMAND_RUN);
  try_command(&c);
}

static void test_outputs_analyse(void)
{
  command_t c = {
      .name = "analyse", .input = "runs/timeline-0.txt", .args = {"analyse", "runs", "@OPTION", TARGET, NULL}};
  options_from_table(&c, CLI_COMMAND_ANALYSE);
  try_command(&c);
}

static void test_outputs_compare(void)
{
  command_t c = {.name = "compare",
                 .input = "a.csv",
                 .args = {"compare", "a.csv", "b.csv", "@OPTION", TARGET, NULL},
                 .help = {"compare", "--help", NULL},
                 .options = {"--svg"},
                 .count = 1};
  assert_in_help(&c);
  try_command(&c);
}

static void test_outputs_platform(void)
{
  command_t c = {.name = "platform",
                 .args = {"platform", "mesh", "2x2", "--preset", "t800", "@OPTION", TARGET, NULL},
                 .help = {"platform", "--help", NULL},
                 .options = {"-o", "--output"},
                 .count = 2};
  assert_in_help(&c);
  try_command(&c);
}

/* machine probe's output is its argument FILE.xml, its input the ping-pong samples. */
static void test_outputs_machine_probe(void)
{
  command_t c = {.name = "machine",
                 .input = "s.csv",
                 .args = {"machine", "probe", TARGET, "--samples", "s.csv", NULL},
                 .options = {"FILE.xml"},
                 .count = 1};
  try_command(&c);
}

/* `mpirun -np 2` of simrun-pingpong (which stops after MPI_Init and MPI_Finalize with HOPS 0) under the tracer, its
 * folder SIMRUN_TRACE_DIR=`target`, in folder `dir`; with `read_only`, inside the private mount namespace of
 * try_read_only in which folder "ro" is read-only. HOPS 0 exits with status 2, after which mpirun waits
 * odls_base_sigkill_timeout (1 s) before it ends: 0 here (a run 1.35 s, 0.35 s without the wait). */
static void trace_into(const char *dir, const char *target, int read_only, cli_run_t *run)
{
  CU_ASSERT_FATAL(SIMRUN_MPIRUN[0] && SIMRUN_TRACE_LIB[0] && SIMRUN_PINGPONG[0]);
  char command[8192];
  snprintf(command, sizeof command,
           "%s'%s' --allow-run-as-root --oversubscribe --mca odls_base_sigkill_timeout 0 -np 2 -x LD_PRELOAD='%s' "
           "-x SIMRUN_TRACE_DIR='%s' '%s' 0",
           read_only ? "mount --bind ro ro && mount -o remount,bind,ro ro && exec " : "exec ", SIMRUN_MPIRUN,
           SIMRUN_TRACE_LIB, target, SIMRUN_PINGPONG);
  const char *plain[] = {"-c", command, NULL};
  const char *unshared[] = {"-rm", "sh", "-c", command, NULL};
  CU_ASSERT_EQUAL_FATAL(run_program(dir, read_only ? "/usr/bin/unshare" : "/bin/sh", read_only ? unshared : plain, run),
                        0);
}

/* The tracer said one line, the warning that names `target` and what is wrong with it, and traced nothing. */
static void assert_not_traced(const cli_run_t *run, const char *target, const char *why)
{
  char named[1200];
  snprintf(named, sizeof named, "simrun-trace: warning: SIMRUN_TRACE_DIR=%s", target);
  const char *line = strstr(run->err, "simrun-trace: ");
  int ok = line && strncmp(line, named, strlen(named)) == 0 && strstr(line, why) &&
           strstr(line, "this run is not traced") && !strstr(line + 1, "simrun-trace: ");
  if (!ok)
    fprintf(stderr, "\nSIMRUN_TRACE_DIR=%s: stderr %s", target, run->err);
  CU_ASSERT(ok);
}

/* The tracer's folder (SIMRUN_TRACE_DIR, issue 48 item 1) passes its gate at MPI_Init, before the program runs on and
 * before anything is made or removed there: a file or a link to one where a folder is meant, /dev/null, a FIFO, a
 * folder whose parent is missing, read-only or is one, and a folder holding a file no trace holds (the tracer replaces
 * and removes a trace folder's files) are each refused with one warning, left as they were, and the run not traced.
 * The controls: a new folder, and that folder again (a trace folder), are traced. */
static void test_outputs_tracer_folder(void)
{
  const command_t c = {.name = "tracer", .input = "s.csv"};
  const struct {
    const char *target, *why;
    int read_only;
  } refused[] = {{"s.csv", "is a regular file, not a folder", 0},
                 {"link", "is a regular file, not a folder", 0},
                 {"/dev/null", "is a character device, not a folder", 0},
                 {"fifo", "is a FIFO, not a folder", 0},
                 {"missing/trace", "its folder missing does not exist", 0},
                 {"s.csv/trace", "its folder s.csv is not a folder", 0},
                 {"mine", "holds data.csv, which no trace holds", 0},
                 {"ro/trace", "cannot make it in ro (Read-only file system)", 1},
                 {"ro", "cannot write in it (Read-only file system)", 1}};
  char dir[1024], path[2048];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  copy_in(dir, SIMRUN_SOURCE_DIR "/tests/data/machine/pingpong-shm.csv", "s.csv");
  set_up(&c, dir);
  snprintf(path, sizeof path, "%s/fifo", dir);
  CU_ASSERT_EQUAL_FATAL(mkfifo(path, 0600), 0);
  snprintf(path, sizeof path, "%s/mine", dir);
  CU_ASSERT_EQUAL_FATAL(mkdir(path, 0700), 0);
  copy_in(dir, SIMRUN_SOURCE_DIR "/tests/data/compare/ranks-a.csv", "mine/data.csv");
  cli_run_t run;
  /* Under a sanitizer every third case (a file, a FIFO, a folder of the user's): each is a run of mpirun, and the
   * gate's code is the same for all; the normal build tries them all. */
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i += SANITIZED ? 3 : 1) {
    untouched_t u;
    note(&c, dir, &u);
    trace_into(dir, refused[i].target, refused[i].read_only, &run);
    assert_not_traced(&run, refused[i].target, refused[i].why);
    run_free(&run);
    assert_untouched(&c, dir, &u, refused[i].target);
    free(u.text);
  }
  struct stat st;
  CU_ASSERT(stat(path, &st) == 0 && count_entries(path) == 1); /* mine: data.csv alone */
  snprintf(path, sizeof path, "%s/fifo", dir);
  CU_ASSERT(stat(path, &st) == 0 && S_ISFIFO(st.st_mode));
  snprintf(path, sizeof path, "%s/missing", dir);
  CU_ASSERT(stat(path, &st) != 0);
  CU_ASSERT_EQUAL(count_entries(dir), 6); /* s.csv taken ro link fifo mine: nothing new beside them */
  for (int again = 0; again < 2; again++) {
    trace_into(dir, "good", 0, &run);
    CU_ASSERT(strstr(run.err, "simrun-trace: wrote the traces of 2 rank(s)") != NULL);
    run_free(&run);
  }
  snprintf(path, sizeof path, "rm -rf '%s'", dir);
  CU_ASSERT_EQUAL(system(path), 0);
}

int main(void)
{
  static const tu_case_t cases[] = {{"test_outputs_run", test_outputs_run},
                                    {"test_outputs_analyse", test_outputs_analyse},
                                    {"test_outputs_compare", test_outputs_compare},
                                    {"test_outputs_platform", test_outputs_platform},
                                    {"test_outputs_machine_probe", test_outputs_machine_probe},
                                    {"test_outputs_tracer_folder", test_outputs_tracer_folder},
                                    {NULL, NULL}};
  return tu_run("cli_outputs", cases);
}
