/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The measurements of `simrun machine probe` (cli_probe.h): seed 001 §3's machine characterisation (eq. 2: cycles per
 * CPU, floating-point, internal and external memory operation) measured by timed loops on this machine, read from the
 * system where it says (clock, caches, memory), and its message times from Open MPI ping-pongs: inside this node, and
 * between nodes (or, on one machine, over the TCP transport Open MPI takes between nodes). */
#define _GNU_SOURCE /* readlink of /proc/self/exe */
#include "cli_probe.h"
#include "bas_temp.h"
#include "cli_exit.h"
#include "cli_results.h"
#include "cli_signal.h"
#include "met_flops.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { TRIALS = 3 };

/* A timed loop measures the machine, not a sanitiser's checks: left uninstrumented in a sanitised build, whose probe
 * would otherwise time AddressSanitizer's shadow reads (a probe took 7.7 s there against 2.8 s, test_cli_machine 76 s
 * of the suite's wall time against 28 s). */
#define UNCHECKED_LOOP __attribute__((no_sanitize("address", "undefined")))

/* The thread's CPU seconds: what a loop costs when it runs, which other jobs on a shared machine do not stretch (a
 * wall clock counts the time they take the core from it); the tracer books computation in the same clock. */
static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The first number of a one-line file, or 0. */
static double file_number(const char *path)
{
  FILE *in = fopen(path, "r");
  double value = 0;
  if (in && fscanf(in, "%lf", &value) != 1)
    value = 0;
  if (in)
    fclose(in);
  return value;
}

/* The clock: cpufreq's maximum, else /proc/cpuinfo's "cpu MHz" (a virtual machine often has only that). */
static void read_clock(cli_probe_t *p)
{
  double khz = file_number("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  if (khz > 0) {
    p->clock_hz = 1e3 * khz;
    snprintf(p->clock_how, sizeof p->clock_how, "cpufreq's cpuinfo_max_freq of cpu0");
    return;
  }
  FILE *in = fopen("/proc/cpuinfo", "r");
  char line[256];
  double mhz = 0;
  while (in && fgets(line, sizeof line, in) && !(sscanf(line, "cpu MHz : %lf", &mhz) == 1 && mhz > 0))
    ;
  if (in)
    fclose(in);
  p->clock_hz = mhz > 0 ? 1e6 * mhz : 1e9;
  snprintf(p->clock_how, sizeof p->clock_how, "%s",
           mhz > 0 ? "/proc/cpuinfo's cpu MHz of the first processor (no cpufreq)" : "unknown: 1 GHz assumed");
}

/* The largest cache level of cpu0 (sysfs index*: level, size), or none. */
static void read_cache(cli_probe_t *p)
{
  int best = 0;
  for (int i = 0; i < 8; i++) {
    char path[128], size_text[32] = "";
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
    int level = (int)file_number(path);
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    FILE *in = fopen(path, "r");
    double size = 0;
    char unit = 0;
    if (in && fscanf(in, "%31s", size_text) == 1 && sscanf(size_text, "%lf%c", &size, &unit) >= 1)
      size *= unit == 'K' ? 1024 : unit == 'M' ? 1048576 : 1;
    if (in)
      fclose(in);
    if (level > best && size > 0) {
      best = level;
      p->cache_bytes = size;
      snprintf(p->cache_how, sizeof p->cache_how, "sysfs cpu0/cache/index%d: level %d, %s", i, level, size_text);
    }
  }
}

/* Seconds per iteration of met_flop_chains (8 flops): the best of TRIALS. */
static double flop_loop(void)
{
  volatile double seed = 1.0000001;
  double best = 1e30;
  const long n = 1L << 23;
  for (int t = 0; t < TRIALS; t++) {
    double start = now();
    seed = met_flop_chains(seed, n); /* kept in a volatile: the loop stays */
    double elapsed = now() - start;
    best = elapsed < best ? elapsed : best;
  }
  return best / (double)n;
}

/* Seconds per iteration of four independent integer chains (an add and a xor each: 8 operations). */
UNCHECKED_LOOP static double int_loop(void)
{
  volatile unsigned long seed = 12345;
  double best = 1e30;
  const long n = 1L << 24;
  for (int t = 0; t < TRIALS; t++) {
    unsigned long a = seed, b = seed + 1, c = seed + 2, d = seed + 3;
    double start = now();
    for (long i = 0; i < n; i++) {
      a = (a + (unsigned long)i) ^ 0x55;
      b = (b + (unsigned long)i) ^ 0x33;
      c = (c + (unsigned long)i) ^ 0x0f;
      d = (d + (unsigned long)i) ^ 0x77;
    }
    double elapsed = now() - start;
    seed = a + b + c + d;
    best = elapsed < best ? elapsed : best;
  }
  return best / (double)n;
}

/* Seconds per 8-byte load of a sum over an array of `bytes`, streamed until 2^26 loads: the best of TRIALS. */
UNCHECKED_LOOP static double load_loop(size_t bytes)
{
  size_t n = bytes / sizeof(double);
  double *a = malloc(n * sizeof *a);
  if (!a || n == 0) {
    free(a);
    return 0;
  }
  for (size_t i = 0; i < n; i++)
    a[i] = (double)i;
  size_t passes = ((size_t)1 << 26) / n + 1;
  volatile double sink = 0;
  double best = 1e30;
  for (int t = 0; t < TRIALS; t++) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    double start = now();
    for (size_t pass = 0; pass < passes; pass++)
      for (size_t i = 0; i + 3 < n; i += 4) {
        s0 += a[i];
        s1 += a[i + 1];
        s2 += a[i + 2];
        s3 += a[i + 3];
      }
    double elapsed = now() - start;
    sink = s0 + s1 + s2 + s3;
    best = elapsed < best ? elapsed : best;
  }
  (void)sink;
  free(a);
  return best / ((double)passes * (double)n);
}

/* Seconds per minor page fault: a write to each page of a fresh anonymous mapping of FAULT_PAGES pages (8 MiB of 4 KiB
 * pages), huge pages refused so that each page faults once, as a receive into a buffer the rank has not touched yet
 * takes them (docs/validation.md); the best of TRIALS, 0 when no mapping could be made. */
enum { FAULT_PAGES = 2048 };

UNCHECKED_LOOP static double fault_loop(size_t page)
{
  double best = 1e30;
  for (int t = 0; t < TRIALS; t++) {
    char *a = mmap(NULL, FAULT_PAGES * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a == MAP_FAILED)
      return 0;
    madvise(a, FAULT_PAGES * page, MADV_NOHUGEPAGE);
    double start = now();
    for (size_t i = 0; i < FAULT_PAGES; i++)
      ((volatile char *)a)[i * page] = 1;
    double elapsed = now() - start;
    munmap(a, FAULT_PAGES * page);
    best = elapsed < best ? elapsed : best;
  }
  return best / FAULT_PAGES;
}

/* Open MPI's shared-memory eager limit (btl vader), from ompi_info; 0 when it does not say. */
static double read_eager(void)
{
  FILE *in = popen("ompi_info --parsable --param btl vader --level 9 2>/dev/null", "r");
  char line[512];
  double value = 0;
  while (in && fgets(line, sizeof line, in))
    if (sscanf(line, "mca:btl:vader:param:btl_vader_eager_limit:value:%lf", &value) == 1)
      break;
  if (in)
    pclose(in);
  return value;
}

void cli_probe_machine(cli_probe_t *p)
{
  memset(p, 0, sizeof *p);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  p->cores = cores > 0 ? (int)cores : 1;
  p->memory_bytes = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
  read_clock(p);
  read_cache(p);
  double flop = flop_loop();
  p->flops = MET_FLOPS_PER_ITERATION / flop;
  p->cycles[1] = p->clock_hz * flop / MET_FLOPS_PER_ITERATION;
  snprintf(p->cycles_how[1], sizeof p->cycles_how[1],
           "four independent multiply-add chains, %.4g ns per 8 flops (%.4g flop/s)", 1e9 * flop, p->flops);
  double op = int_loop();
  p->cycles[0] = p->clock_hz * op / 8;
  snprintf(p->cycles_how[0], sizeof p->cycles_how[0], "four independent add-xor chains, %.4g ns per 8 operations",
           1e9 * op);
  const size_t l1 = 16384;
  size_t big = p->cache_bytes * 4 > 64e6 ? (size_t)(p->cache_bytes * 4) : (size_t)64 << 20;
  double in_l1 = load_loop(l1), far = load_loop(big);
  p->cycles[2] = p->clock_hz * in_l1;
  p->cycles[3] = p->clock_hz * far;
  snprintf(p->cycles_how[2], sizeof p->cycles_how[2], "a sum over a %zu KiB array (in L1), %.4g ns per 8-byte load",
           l1 / 1024, 1e9 * in_l1);
  snprintf(p->cycles_how[3], sizeof p->cycles_how[3], "a sum over a %zu MiB array, %.4g ns per 8-byte load", big >> 20,
           1e9 * far);
  if (p->cache_bytes > 0)
    p->cycles_cache = p->clock_hz * load_loop((size_t)(p->cache_bytes / 2));
  p->eager_bytes = read_eager();
  long page = sysconf(_SC_PAGESIZE);
  p->fault_us = page > 0 ? 1e6 * fault_loop((size_t)page) : 0;
  snprintf(p->fault_how, sizeof p->fault_how, "the first write to each of %d fresh %ld-byte pages (no huge pages)",
           FAULT_PAGES, page);
}

/* The ping-pong program: SIMRUN_PINGPONG, else simrun-pingpong beside this executable. */
static void pingpong_path(char *path, size_t len)
{
  const char *given = getenv("SIMRUN_PINGPONG");
  if (given && *given) {
    snprintf(path, len, "%s", given);
    return;
  }
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = '\0';
  char *slash = strrchr(self, '/');
  if (slash)
    *slash = '\0';
  snprintf(path, len, "%s/simrun-pingpong", slash ? self : ".");
}

/* Runs `command` with /bin/sh in a process group of its own, its standard error into `said` (when not NULL), as
 * system() would but stoppable: when a signal stops the probe (cli_signal.h), the group (mpirun and its ranks) is sent
 * SIGTERM and waited for. 0 when it exited with 0, CLI_EXIT_STOPPED when a signal stopped it, else 1. */
static int run_shell(const char *command, FILE *said)
{
  pid_t child = fork();
  if (child == 0) {
    setpgid(0, 0);
    if (said)
      dup2(fileno(said), STDERR_FILENO);
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    _exit(127);
  }
  if (child < 0)
    return EXIT_RUNTIME;
  setpgid(child, child); /* as the child does: whichever runs first */
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR)
      return EXIT_RUNTIME;
    if (cli_signal_stop())
      kill(-child, SIGTERM);
  }
  if (cli_signal_stop())
    return CLI_EXIT_STOPPED;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : EXIT_RUNTIME;
}

/* The lines `said` holds (a file mpirun's standard error went to) and the last that says something, into `last`
 * (without its end of line, cut to fit, control characters shown as '?'; "" when none): not blank nor a rule of
 * hyphens, which frame Open MPI's messages. */
static long last_said(FILE *said, char *last, size_t len)
{
  last[0] = '\0';
  if (!said)
    return 0;
  rewind(said);
  long lines = 0;
  char line[1024];
  while (fgets(line, sizeof line, said)) {
    size_t n = strlen(line);
    lines += n > 0 && line[n - 1] == '\n';
    line[strcspn(line, "\r\n")] = '\0';
    if (line[strspn(line, " \t-")] != '\0')
      snprintf(last, len, "%s", line);
  }
  for (char *c = last; *c; c++)
    if (iscntrl((unsigned char)*c))
      *c = '?';
  return lines;
}

/* One mpirun of the ping-pong, labelled `hops`, its output appended to `csv`, its standard error apart (Open MPI's
 * warnings are no samples): on this node (over Open MPI's TCP transport when `tcp`), or with `hostfile` on its first
 * two nodes (--map-by node puts rank 1 on the second). 0 (what mpirun said on its standard error given as one
 * warning), or 1 after the error line, which quotes the last line mpirun said. */
static int run_pingpong(const char *program, const char *hostfile, int tcp, int hops, const char *csv)
{
  char command[13000], placement[4200] = "";
  if (hostfile)
    snprintf(placement, sizeof placement, "--hostfile '%s' --map-by node ", hostfile);
  snprintf(command, sizeof command, "mpirun %s%s%s--oversubscribe -np 2 '%s' %d%s >> '%s'",
           geteuid() == 0 ? "--allow-run-as-root " : "", tcp ? "--mca btl tcp,self " : "", placement, program, hops,
           tcp ? " --one-node" : "", csv);
  FILE *said = bas_temp_file(); /* NULL: mpirun's standard error is simrun's */
  int rc = run_shell(command, said);
  char last[300];
  long lines = last_said(said, last, sizeof last);
  if (said)
    fclose(said);
  char run[4600];
  snprintf(run, sizeof run, "mpirun -np 2 %s%s%s%s", tcp ? "--mca btl tcp,self " : "", program,
           hostfile ? " --hostfile " : "", hostfile ? hostfile : "");
  if (rc == 0 && *last)
    fprintf(stderr, "simrun: warning: %s said %ld line%s on its standard error, the last: '%s'\n", run, lines,
            lines == 1 ? "" : "s", last);
  if (rc == 0 || rc == CLI_EXIT_STOPPED)
    return rc;
  fprintf(stderr, "simrun: error: %s failed%s%s%s; check that Open MPI's mpirun runs %s\n", run,
          *last ? ", saying '" : "", last, *last ? "'" : "",
          hostfile ? "on those nodes and that they are two machines"
          : tcp    ? "here with its TCP transport"
                   : "here");
  return EXIT_RUNTIME;
}

int cli_probe_pingpong(const char *csv, const char *hostfile)
{
  char program[4200];
  pingpong_path(program, sizeof program);
  if (strchr(program, '\'') || strchr(csv, '\'') || (hostfile && strchr(hostfile, '\''))) {
    fprintf(stderr, "simrun: error: %s: a path with a quote cannot be given to mpirun; move it\n", program);
    return EXIT_INPUT;
  }
  if (access(program, X_OK) != 0) {
    fprintf(stderr,
            "simrun: error: %s: no ping-pong program there; build simrun with Open MPI installed (libopenmpi-dev, "
            "openmpi-bin), or set SIMRUN_PINGPONG, or give your own samples with --samples FILE.csv\n",
            program);
    return EXIT_RUNTIME;
  }
  int rc = run_pingpong(program, NULL, 0, 1, csv);
  return rc == 0 ? run_pingpong(program, hostfile, !hostfile, 2, csv) : rc;
}

/* The lower quartile of `bytes` over `hops` among `samples`, or 0. */
static double quartile_us(const met_msg_sample_t *samples, size_t count, double bytes, double hops)
{
  for (size_t i = 0; i < count; i++)
    if (samples[i].bytes == bytes && samples[i].hops == hops)
      return samples[i].us;
  return 0;
}

/* Messages from this size on are where a bandwidth is what their time says (issue 47: NetPIPE's of 48 KB and more
 * took 3-21x the probed model's time under load). */
#define SEEN_FROM 65536

enum { FIRST_CALLS_MAX = 64 }; /* first-call lines read: simrun-pingpong writes 15 */

/* qsort's order of doubles, least first. */
static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of the `n` values of `v` (sorted in place). */
static double median_of(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Whether `line` is "# first-call ACTION FIRST_US NEXT_US" (and an end of line): ACTION lowercase letters (an XML
 * comment holds it as it is), both times decimal (strtod takes hexadecimal, inf and nan too) from 0 to 1e6 us. */
static int first_call_line(const char *line, char action[32], double *first, double *next)
{
  int times = 0, end = 0;
  return sscanf(line, "# first-call %31s %n%lf %lf %n", action, &times, first, next, &end) == 3 && end > times &&
         line[end] == '\0' && (int)strspn(line + times, "0123456789.+-eE \t\r\n") == end - times &&
         action[strspn(action, "abcdefghijklmnopqrstuvwxyz")] == '\0' && *first >= 0 && *first <= 1e6 && *next >= 0 &&
         *next <= 1e6;
}

int cli_probe_first_calls(const char *csv, const char *shown, double *us, char *text, size_t len)
{
  *us = -1;
  text[0] = '\0';
  FILE *in = fopen(csv, "r");
  char line[1024], action[32]; /* cli_characterise_read, before, refuses a line longer than 1022 characters */
  double extra[FIRST_CALLS_MAX];
  int n = 0;
  size_t used = 0;
  int full = len < 4; /* room left for "..." at least, which ends a text the lines outgrow */
  for (long number = 1; in && fgets(line, sizeof line, in); number++) {
    double first, next;
    if (strncmp(line, "# first-call ", 13) != 0)
      continue;
    if (!first_call_line(line, action, &first, &next) || n == FIRST_CALLS_MAX) {
      fprintf(stderr,
              "simrun: error: %s:%ld: a first-call line is '# first-call ACTION FIRST_US NEXT_US', ACTION a word of "
              "lowercase letters, two times of 0 to 1e6 us, at most %d such lines; fix or remove it\n",
              shown, number, FIRST_CALLS_MAX);
      fclose(in);
      return EXIT_INPUT;
    }
    extra[n++] = first > next ? first - next : 0;
    char entry[96];
    int wrote = snprintf(entry, sizeof entry, "%s%s %.1f then %.1f",
                         n == 1       ? ""
                         : n % 4 == 1 ? ",\n         "
                                      : ", ",
                         action, first, next);
    if (!full && used + (size_t)wrote + 4 <= len) {
      memcpy(text + used, entry, (size_t)wrote + 1);
      used += (size_t)wrote;
    } else if (!full) {
      memcpy(text + used, "...", 4);
      full = 1;
    }
  }
  if (in)
    fclose(in);
  if (n > 0)
    *us = median_of(extra, n);
  return 0;
}

void cli_probe_seen(const char *csv, const met_msg_sample_t *samples, size_t count, int apart, char *text, size_t len)
{
  text[0] = '\0';
  FILE *in = fopen(csv, "r");
  char line[256];
  size_t used = 0;
  while (in && fgets(line, sizeof line, in)) {
    double bytes, hops, mean, sd;
    if (sscanf(line, "# spread %lf %lf %lf %lf", &bytes, &hops, &mean, &sd) != 4 || (hops > 1) != apart ||
        bytes < SEEN_FROM || !(mean > 0))
      continue;
    double lower = quartile_us(samples, count, bytes, hops);
    int n =
        snprintf(text + used, len - used, "\n         %8.0f B: lower quartile %8.1f MB/s, mean %8.1f MB/s (sd %.0f%%)",
                 bytes, lower > 0 ? bytes / lower : 0, bytes / mean, 100 * sd / mean);
    if (n < 0 || (size_t)n >= len - used)
      break;
    used += (size_t)n;
  }
  if (in)
    fclose(in);
}
