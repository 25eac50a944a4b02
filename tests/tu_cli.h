/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Test utilities for the command line: running simrun (or another program) in a fresh folder with its output captured,
 * and checking failed runs: exit status, the one "simrun: error: ..." line, no file left behind. */
#ifndef TU_CLI_H
#define TU_CLI_H

#include "tu.h"
#if __has_include("cli_main.h") /* the tests that link the command line's library (not the metrics' own) */
#include "cli_main.h"
#define TU_IN_PROCESS 1
#endif

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DATA     SIMRUN_SOURCE_DIR "/tests/data/cli/"
#define MAX_ARGS 16

/* What one run of simrun left: its exit status (-1 when it did not exit normally) and what it printed. */
typedef struct cli_run {
  int status;
  char *out;
  char *err;
} cli_run_t;

/* Asserts that the run `run` (a cli_run_t *) exited 0; when it did not, prints its status and stderr, so that a
 * failure seen once (an mpirun among hundreds) says why (a fresh clone's test_trc_mpi_folded_pingpong: status not 0
 * after the program's last line, its stderr lost). A macro: the assertion's line is the caller's. */
#define TU_ASSERT_RAN(run)                                                                                             \
  do {                                                                                                                 \
    CU_ASSERT_EQUAL((run)->status, 0);                                                                                 \
    if ((run)->status != 0)                                                                                            \
      fprintf(stderr, "%s:%d: exit status %d; its stderr:\n%s\n", __FILE__, __LINE__, (run)->status,                   \
              (run)->err ? (run)->err : "");                                                                           \
  } while (0)

/* A run that must fail. */
typedef struct cli_case {
  const char *args[6];    /* NULL-ended; after "--csv out.csv --json out.json" unless bare */
  int bare;               /* 1: args alone, without the output options */
  const char *folder;     /* a folder to create in the working folder before the run, or NULL */
  int status;             /* expected exit status */
  const char *prefix;     /* exact text after "simrun: error: ", such as DATA "x.xml:5: " */
  const char *phrases[4]; /* NULL-ended; each must appear in the message */
} cli_case_t;

/* The whole of `stream` as a new NUL-terminated string (the caller frees it), or NULL. */
static inline char *slurp(FILE *stream)
{
  if (fseek(stream, 0, SEEK_END) != 0)
    return NULL;
  long size = ftell(stream);
  char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
  rewind(stream);
  if (text && fread(text, 1, (size_t)size, stream) != (size_t)size) {
    free(text);
    return NULL;
  }
  if (text)
    text[size] = '\0';
  return text;
}

/* The content of file `name` in folder `dir` (the caller frees it), or NULL when it cannot be read. */
static inline char *read_output(const char *dir, const char *name)
{
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *file = fopen(path, "r");
  if (!file)
    return NULL;
  char *text = slurp(file);
  fclose(file);
  return text;
}

/* Starts `program` with `args` (NULL-ended) in folder `dir`, its output going to `out` and `err`. The process id, or
 * -1. */
static inline pid_t spawn(const char *dir, const char *program, const char *const *args, FILE *out, FILE *err)
{
  const char *argv[MAX_ARGS + 2] = {program};
  for (size_t i = 0; i < MAX_ARGS && args[i]; i++)
    argv[i + 1] = args[i];
  if (!out || !err)
    return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir) == 0 && dup2(fileno(out), STDOUT_FILENO) >= 0 && dup2(fileno(err), STDERR_FILENO) >= 0)
      execv(program, (char *const *)argv);
    _exit(127);
  }
  return pid;
}

/* Waits until simrun says it paused (stderr `err`); 0, or -1 after 20 s. */
static inline int wait_paused(FILE *err)
{
  char text[4096];
  struct timespec nap = {.tv_nsec = 5000000};
  for (int i = 0; i < 4000; i++) {
    ssize_t n = pread(fileno(err), text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = '\0';
    if (strstr(text, "simrun: test: paused at "))
      return 0;
    nanosleep(&nap, NULL);
  }
  return -1;
}

/* Waits for `pid` and fills *run with its exit status and output. Returns 0, or -1. Closes out and err. */
static inline int finish(pid_t pid, FILE *out, FILE *err, cli_run_t *run)
{
  int wstatus = 0;
  int rc = pid > 0 && waitpid(pid, &wstatus, 0) == pid ? 0 : -1;
  run->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
  run->out = rc == 0 ? slurp(out) : NULL;
  run->err = rc == 0 ? slurp(err) : NULL;
  if (out)
    fclose(out);
  if (err)
    fclose(err);
  return rc == 0 && run->out && run->err ? 0 : -1;
}

/* Runs `program` with `args` (NULL-ended) in folder `dir`, its output captured in unnamed temporary files. Returns 0
 * and fills *run (free with run_free), or -1 when the run could not be set up. */
static inline int run_program(const char *dir, const char *program, const char *const *args, cli_run_t *run)
{
  FILE *out = tmpfile();
  FILE *err = tmpfile();
  return finish(spawn(dir, program, args, out, err), out, err, run);
}

/* Runs simrun with `args`: see run_program. */
static inline int run_simrun(const char *dir, const char *const *args, cli_run_t *run)
{
  return run_program(dir, SIMRUN_BINARY, args, run);
}

#ifdef TU_IN_PROCESS
/* Runs the command line in this process (cli_main, with no signal caught: the test's own handlers stay) in folder
 * `dir` with `args` (NULL-ended), its standard output and error captured as run_program's are: what the simrun
 * executable does with them, without starting a process (each start of simrun costs 26 ms and 1,400 page faults of
 * SimGrid's library tree, issue 49). Returns 0 and fills *run (free with run_free), or -1 when it could not be set up.
 */
static inline int run_in_process(const char *dir, const char *const *args, cli_run_t *run)
{
  char *argv[MAX_ARGS + 2] = {"simrun"};
  int argc = 1;
  for (size_t i = 0; i < MAX_ARGS && args[i]; i++)
    argv[argc++] = (char *)args[i];
  char here[4096];
  run->status = -1;
  FILE *out = tmpfile(), *err = tmpfile();
  fflush(NULL);
  int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
  int ready = out && err && saved_out >= 0 && saved_err >= 0 && getcwd(here, sizeof here) && chdir(dir) == 0;
  if (ready && dup2(fileno(out), STDOUT_FILENO) >= 0 && dup2(fileno(err), STDERR_FILENO) >= 0) {
    run->status = cli_main(&(cli_context_t){.catch_signals = 0}, argc, argv);
    fflush(NULL);
  }
  ready = ready && dup2(saved_out, STDOUT_FILENO) >= 0 && dup2(saved_err, STDERR_FILENO) >= 0 && chdir(here) == 0;
  if (saved_out >= 0)
    close(saved_out);
  if (saved_err >= 0)
    close(saved_err);
  run->out = ready ? slurp(out) : NULL;
  run->err = ready ? slurp(err) : NULL;
  if (out)
    fclose(out);
  if (err)
    fclose(err);
  return ready && run->out && run->err ? 0 : -1;
}

#endif

static inline void run_free(cli_run_t *run)
{
  free(run->out);
  free(run->err);
}

/* Joins the report's wrapped lines in `text`, in place: a line break followed by the continuation's indent becomes one
 * space, so that a phrase can be looked for wherever the width (at most 1000 columns) broke it. */
static inline void tu_unwrap(char *text)
{
  char *to = text;
  for (const char *from = text; *from;) {
    if (from[0] == '\n' && from[1] == ' ') {
      while (*++from == ' ')
        ;
      *to++ = ' ';
    } else
      *to++ = *from++;
  }
  *to = '\0';
}

/* The number of entries in folder `dir` (a leftover "*.tmp.*" file counts as one); -1 when it cannot be read. */
static inline int count_entries(const char *dir)
{
  DIR *folder = opendir(dir);
  if (!folder)
    return -1;
  int count = 0;
  for (const struct dirent *entry; (entry = readdir(folder));)
    count += strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0;
  closedir(folder);
  return count;
}

/* Removes `dir` and what the tests put in it: files and empty folders. */
static inline void remove_folder(const char *dir)
{
  DIR *folder = opendir(dir);
  char path[4096];
  for (const struct dirent *entry; folder && (entry = readdir(folder));) {
    snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
    if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
      CU_ASSERT_EQUAL(remove(path), 0);
  }
  if (folder)
    closedir(folder);
  CU_ASSERT_EQUAL(rmdir(dir), 0);
}

/* Writes `text` as `dir`/`name`. */
static inline void write_in(const char *dir, const char *name, const char *text)
{
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *out = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  fputs(text, out);
  CU_ASSERT_EQUAL(fclose(out), 0);
}

/* A process that keeps a core busy until tu_stop_hog or the test's end (PR_SET_PDEATHSIG), holding none of the test's
 * output: ctest waits for every holder of its pipe, and a hog a failed assertion left behind held CI's for 1,500 s.
 * Its pid, or -1. */
static inline pid_t tu_start_hog(void)
{
  pid_t parent = getpid();
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_RDWR);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent || null < 0 || dup2(null, STDOUT_FILENO) < 0 ||
        dup2(null, STDERR_FILENO) < 0)
      _exit(1);
    for (volatile unsigned long spin = 0;; spin++)
      ;
  }
  return pid;
}

/* Ends hog `pid` (tu_start_hog) and waits for it: 0, or -1 when it was not running. */
static inline int tu_stop_hog(pid_t pid)
{
  if (pid <= 0 || kill(pid, SIGKILL) != 0)
    return -1;
  return waitpid(pid, NULL, 0) == pid ? 0 : -1;
}

/* Creates a new empty working folder and writes its path to `dir`; 0 or -1. */
static inline int make_folder(char *dir, size_t size)
{
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, size, "%s/simrun-cli-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  return mkdtemp(dir) ? 0 : -1;
}

/* Makes a fresh folder (its path in dir) and runs simrun there with `args`, which must exit 0 with nothing on stderr.
 */
static inline void run_ok(char *dir, size_t size, const char *const *args, cli_run_t *run)
{
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, size), 0);
  CU_ASSERT_EQUAL_FATAL(run_simrun(dir, args, run), 0);
  CU_ASSERT_EQUAL(run->status, 0);
  CU_ASSERT_STRING_EQUAL(run->err, "");
}

static inline size_t count_lines(const char *text)
{
  size_t lines = 0;
  for (const char *c = text; (c = strchr(c, '\n')); c++)
    lines++;
  return lines;
}

/* `err` must be exactly one line: "simrun: error: " then `prefix`, with every phrase somewhere in it. */
static inline void assert_error_line(const char *err, const char *prefix, const char *const *phrases)
{
  char head[1024];
  snprintf(head, sizeof head, "simrun: error: %s", prefix);
  CU_ASSERT_EQUAL(count_lines(err), 1);
  CU_ASSERT(*err && err[strlen(err) - 1] == '\n');
  CU_ASSERT_NSTRING_EQUAL(err, head, strlen(head));
  for (size_t i = 0; phrases[i]; i++)
    CU_ASSERT_PTR_NOT_NULL(strstr(err, phrases[i]));
}

/* Whether a run must be a process of its own: SimGrid takes its configuration (--cfg, --log) once per process
 * (simgrid_init), so a run that sets it cannot share the test's; --mpi initialises Open MPI (a singleton), which cannot
 * be undone in the process and whose allocations LeakSanitizer reports at the test's exit. */
static inline int needs_process(const char *const *args)
{
  for (size_t i = 0; args[i]; i++)
    if (strncmp(args[i], "--cfg", 5) == 0 || strncmp(args[i], "--log", 5) == 0 || strcmp(args[i], "--mpi") == 0)
      return 1;
  return 0;
}

#ifdef TU_IN_PROCESS
#define RUN_HERE run_in_process
#else
#define RUN_HERE run_simrun
#endif

/* Runs case `c` in a fresh folder (in this process where it can: needs_process): the exit status, the one error line,
 * an empty stdout and no file left. */
static inline void expect_failure(const cli_case_t *c)
{
  char dir[1024];
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, sizeof dir), 0);
  const char *args[MAX_ARGS + 1] = {"--csv", "out.csv", "--json", "out.json"};
  size_t n = c->bare ? 0 : 4;
  for (size_t i = 0; c->args[i]; i++)
    args[n++] = c->args[i];
  args[n] = NULL;
  char folder[2048];
  snprintf(folder, sizeof folder, "%s/%s", dir, c->folder ? c->folder : "");
  if (c->folder)
    CU_ASSERT_EQUAL(mkdir(folder, 0700), 0);
  cli_run_t run;
  int started = needs_process(args) ? run_simrun(dir, args, &run) : RUN_HERE(dir, args, &run);
  if (started == 0) {
    CU_ASSERT_EQUAL(run.status, c->status);
    assert_error_line(run.err, c->prefix, c->phrases);
    CU_ASSERT_STRING_EQUAL(run.out, "");
  } else {
    CU_FAIL("simrun could not be run");
  }
  CU_ASSERT_EQUAL(count_entries(dir), c->folder ? 1 : 0);
  run_free(&run);
  remove_folder(dir);
}

#define EXPECT_FAILURE(...) expect_failure(&(const cli_case_t){__VA_ARGS__})

#include <math.h> /* NAN, for the CSV helpers below */

/* The index of the comma-separated field of `line` (up to its newline) that equals one of `names` (NULL-ended, tried
 * in order: a column may carry its unit in its name, t_par or t_par_s); -1 when none does. */
static inline int csv_column(const char *line, const char *const *names)
{
  for (size_t n = 0; names[n]; n++) {
    size_t len = strlen(names[n]);
    int column = 0;
    for (const char *c = line; c && *c && *c != '\n'; column++) {
      if (strncmp(c, names[n], len) == 0 && (c[len] == ',' || c[len] == '\n' || c[len] == '\0'))
        return column;
      c = strpbrk(c, ",\n");
      c = c && *c == ',' ? c + 1 : NULL;
    }
  }
  return -1;
}

/* The number in data row `row` (1 = the first after the header) of CSV text `csv`, in the column csv_column finds;
 * NAN when the row or the column is missing. Cells must not hold commas. */
static inline double csv_number(const char *csv, int row, const char *const *names)
{
  int column = csv_column(csv, names);
  const char *cell = csv;
  for (int r = 0; cell && r < row; r++) {
    cell = strchr(cell, '\n');
    cell = cell ? cell + 1 : NULL;
  }
  for (int i = 0; cell && column >= 0 && i < column; i++) {
    cell = strpbrk(cell, ",\n");
    cell = cell && *cell == ',' ? cell + 1 : NULL;
  }
  return cell && *cell && column >= 0 ? atof(cell) : NAN;
}

#endif
