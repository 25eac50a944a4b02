/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A traced run's CPU binding, read from its index.txt, and the replay's placement for it (cli_binding.h). */
#include "cli_binding.h"
#include "cli_machine.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG      "# simrun-binding "
#define MAX_CPUS (1 << 20)

/* The decimal whole number in [0, high] at *at (digits only), *at moved past it: 1, or 0 when there is none. */
static int whole_at(const char **at, long high, long *value)
{
  size_t n = strspn(*at, "0123456789");
  if (n == 0 || n > 9)
    return 0;
  *value = strtol(*at, NULL, 10);
  *at += n;
  return *value <= high;
}

/* A cpulist ("0-3,8", Linux's form) into its first CPU and its count of CPUs; "unknown" gives -1 and 0. 1, or 0
 * when malformed. */
static int parse_cpus(const char *text, int *first, int *count)
{
  *first = -1;
  *count = 0;
  if (strcmp(text, "unknown") == 0)
    return 1;
  const char *at = text;
  long last = -1;
  for (;;) {
    long a, b;
    if (!whole_at(&at, MAX_CPUS, &a) || a <= last)
      return 0;
    b = a;
    if (*at == '-' && (at++, !whole_at(&at, MAX_CPUS, &b) || b < a))
      return 0;
    if (*first < 0)
      *first = (int)a;
    *count += (int)(b - a + 1);
    last = b;
    if (*at == '\0')
      return 1;
    if (*at++ != ',')
      return 0;
  }
}

/* The value of field `key` ("key=") at the start of *at, up to the next blank, into `value`; *at moved past it and its
 * blank. 1, or 0 when the field is not there or is empty. */
static int field(const char **at, const char *key, char *value, size_t len)
{
  size_t k = strlen(key);
  if (strncmp(*at, key, k) != 0 || (*at)[k] != '=')
    return 0;
  const char *from = *at + k + 1;
  size_t n = strcspn(from, " \t");
  if (n == 0 || n >= len)
    return 0;
  memcpy(value, from, n);
  value[n] = '\0';
  *at = from + n + strspn(from + n, " \t");
  return 1;
}

/* One binding line (after its tag) of rank `rank` into b and *node. 0, or -1 with the reason in err. */
static int parse_line(const char *text, int rank, cli_binding_t *b, char *node, size_t nodelen, char *err,
                      size_t errlen)
{
  static const char *const keys[] = {"rank", "node", "cpus", "online", "node-ranks"};
  char value[5][2048]; /* a cpulist of many CPUs is long */
  const char *at = text;
  for (int k = 0; k < 5; k++)
    if (!field(&at, keys[k], value[k], sizeof value[k])) {
      snprintf(err, errlen, "no field %s=VALUE where expected (the fields are rank, node, cpus, online, node-ranks)",
               keys[k]);
      return -1;
    }
  long r, online, node_ranks;
  const char *n[3] = {value[0], value[3], value[4]};
  int first, count;
  if (*at) {
    snprintf(err, errlen, "'%.60s' after the last field node-ranks", at);
    return -1;
  }
  if (!whole_at(&n[0], MAX_CPUS, &r) || *n[0] || r != rank) {
    snprintf(err, errlen, "rank=%.60s: expected rank=%d (one line per rank, in rank order)", value[0], rank);
    return -1;
  }
  if (!parse_cpus(value[2], &first, &count)) {
    snprintf(err, errlen, "cpus=%.60s: expected a list of CPUs such as 0-3,8 (Linux's cpulist) or unknown", value[2]);
    return -1;
  }
  if (!whole_at(&n[1], MAX_CPUS, &online) || *n[1] || online < 1 || !whole_at(&n[2], MAX_CPUS, &node_ranks) || *n[2] ||
      node_ranks < 1) {
    snprintf(err, errlen,
             "online=%.60s node-ranks=%.60s: expected two whole numbers >= 1 (the node's online cores and "
             "ranks)",
             value[3], value[4]);
    return -1;
  }
  b->cpu[rank] = count == 1 ? first : -1;
  b->online = online > b->online ? (int)online : b->online;
  b->node_ranks = node_ranks > b->node_ranks ? (int)node_ranks : b->node_ranks;
  b->oversubscribed |= node_ranks > online;
  snprintf(node, nodelen, "%.255s", value[1]); /* MPI_MAX_PROCESSOR_NAME: 256 */
  return 0;
}

void cli_binding_free(cli_binding_t *b)
{
  free(b->cpu);
  b->cpu = NULL;
}

/* Counts the distinct node names among the first n of `names` (n of at most a few thousand ranks). */
static int distinct(char (*names)[256], int n)
{
  int count = 0;
  for (int i = 0; i < n; i++) {
    int seen = 0;
    for (int j = 0; j < i && !seen; j++)
      seen = strcmp(names[i], names[j]) == 0;
    count += !seen;
  }
  return count;
}

/* Room for one more rank's CPU and node name. 0, or -1 out of memory. */
static int grow(cli_binding_t *b, char (**names)[256], int *cap)
{
  if (b->nranks < *cap)
    return 0;
  int more = *cap ? 2 * *cap : 16;
  int *cpu = realloc(b->cpu, (size_t)more * sizeof *cpu);
  if (cpu)
    b->cpu = cpu;
  char(*bigger)[256] = cpu ? realloc(*names, (size_t)more * sizeof *bigger) : NULL;
  if (bigger)
    *names = bigger;
  *cap = bigger ? more : *cap;
  return bigger ? 0 : -1;
}

int cli_binding_read(const char *dir, cli_binding_t *b, char *err, size_t errlen)
{
  *b = (cli_binding_t){.bound = 1};
  char path[4200];
  snprintf(path, sizeof path, "%s/index.txt", dir);
  FILE *in = fopen(path, "r");
  char(*names)[256] = NULL;
  int cap = 0, paths = 0, rc = in ? 0 : -1;
  if (!in)
    snprintf(err, errlen, "%s: %s; trace the run again", path, strerror(errno));
  char *line = NULL;
  size_t len = 0;
  char why[400];
  for (int number = 1; rc == 0 && getline(&line, &len, in) > 0; number++) {
    line[strcspn(line, "\r\n")] = '\0';
    paths += line[strspn(line, " \t")] && line[0] != '#';
    if (strncmp(line, TAG, strlen(TAG)) != 0)
      continue; /* a trace path, or another comment */
    if (grow(b, &names, &cap) != 0) {
      snprintf(err, errlen, "%s: out of memory", path);
      rc = -1;
    } else if (parse_line(line + strlen(TAG), b->nranks, b, names[b->nranks], sizeof names[0], why, sizeof why) != 0) {
      snprintf(err, errlen,
               "%s:%d: %s; trace the run again, or delete the '# simrun-binding' lines (the replay then places ranks "
               "as ti-replay does)",
               path, number, why);
      rc = -1;
    } else {
      b->bound &= b->cpu[b->nranks] >= 0;
      b->nranks++;
    }
  }
  free(line);
  if (in)
    fclose(in);
  if (rc == 0 && b->nranks != 0 && b->nranks != paths) {
    snprintf(err, errlen, "%s: binding lines for %d ranks but %d trace files; trace the run again, or delete them",
             path, b->nranks, paths);
    rc = -1;
  }
  b->nodes = rc == 0 ? distinct(names, b->nranks) : 0;
  b->bound &= b->nranks > 0;
  free(names);
  if (rc != 0)
    cli_binding_free(b);
  return rc;
}

/* Whether `platform` has a host of each id of hosts[0..n-1] (the text id="ID" in the file). */
static int has_hosts(const char *platform, char (*hosts)[32], int n)
{
  FILE *in = fopen(platform, "r");
  char *text = NULL;
  size_t len = 0;
  int ok = in && getdelim(&text, &len, '\0', in) > 0;
  for (int i = 0; ok && i < n; i++) {
    char id[48];
    snprintf(id, sizeof id, "id=\"%s\"", hosts[i]);
    ok = strstr(text, id) != NULL;
  }
  free(text);
  if (in)
    fclose(in);
  return ok;
}

/* How far the waits of the ranks sharing core `c` (core[i]: rank i's) are from what their core-mates ran: over them,
 * |its seconds waiting for a processor - the CPU seconds of the others on its core| (`ran`[c]: the core's ranks' CPU
 * seconds summed). */
static double core_mismatch(const met_tl_usage_t *usage, const int *core, const double *ran, int p, int c)
{
  double far = 0;
  for (int i = 0; i < p; i++)
    if (core[i] == c)
      far += fabs(usage[i].lost - (ran[c] - usage[i].cpu));
  return far;
}

/* Ranks i and j trade cores, and their cores' CPU seconds follow. */
static void swap_ranks(const met_tl_usage_t *usage, int *core, double *ran, int i, int j)
{
  int a = core[i], b = core[j];
  ran[a] += usage[j].cpu - usage[i].cpu;
  ran[b] += usage[i].cpu - usage[j].cpu;
  core[i] = b;
  core[j] = a;
}

/* The mismatch of cores a and b once ranks i (on a) and j (on b) swap them; the cores and their seconds then as they
 * were, exactly. */
static double swapped_mismatch(const met_tl_usage_t *usage, int *core, double *ran, int p, int i, int j)
{
  int a = core[i], b = core[j];
  double was_a = ran[a], was_b = ran[b];
  swap_ranks(usage, core, ran, i, j);
  double far = core_mismatch(usage, core, ran, p, a) + core_mismatch(usage, core, ran, p, b);
  core[i] = a;
  core[j] = b;
  ran[a] = was_a;
  ran[b] = was_b;
  return far;
}

/* Ranks that share cores unbound stay where Linux settled them, but which ranks share a core is not recorded: while
 * one runs, the others on its core wait for a processor (Open MPI's waiting ranks yield but stay runnable), so each
 * rank's wait is about what its core-mates ran. From rank i on core i mod `cores`, swaps of two ranks of different
 * cores that bring the ranks' waits nearer to their core-mates' CPU time, each by more than a tenth of the ranks'
 * waits summed (others' processes on the machine take from every rank), best first, into core[0..p-1]. HyPhy's FEL at
 * p = 4 on 2 cores (its rank 0 polls, the others compute what it hands out): ranks 0 to 3 ran 2.1, 10.0, 6.9 and 5.9
 * CPU s and waited 10.7, 2.5, 5.5 and 6.5 s, as ranks 0 and 1 on one core and 2 and 3 on the other; on cores 0 2 and
 * 1 3 the replay took 17.3 s for a run of 12.7. At most p swaps. Whether a swap was made. */
static int pair_by_waits(const met_tl_usage_t *usage, int p, int cores, int *core)
{
  double ran[PAIR_RANKS_MAX] = {0}, waited = 0;
  for (int i = 0; i < p; i++) {
    core[i] = i % cores;
    ran[core[i]] += usage[i].cpu;
    waited += usage[i].lost;
  }
  int moved = 0;
  for (int round = 0; round < p; round++) { /* a rank moved once each at most, as a pairing needs */
    double far[PAIR_RANKS_MAX], best = 0.1 * waited;
    for (int c = 0; c < p; c++) /* the cores in use are below p */
      far[c] = core_mismatch(usage, core, ran, p, c);
    int bi = -1, bj = -1;
    for (int i = 0; i < p; i++)
      for (int j = i + 1; j < p; j++) {
        if (core[i] == core[j])
          continue;
        double gain = far[core[i]] + far[core[j]] - swapped_mismatch(usage, core, ran, p, i, j);
        if (gain > best) {
          best = gain;
          bi = i;
          bj = j;
        }
      }
    if (bi < 0)
      break;
    swap_ranks(usage, core, ran, bi, bj);
    moved = 1;
  }
  int label[PAIR_RANKS_MAX], next = 0; /* the cores named in the order of their first ranks: rank 0 on core-0 */
  for (int c = 0; c < p; c++)
    label[c] = -1;
  for (int i = 0; i < p; i++) {
    if (label[core[i]] < 0)
      label[core[i]] = next++;
    core[i] = label[core[i]];
  }
  return moved;
}

/* The ranks of each core as "core-0: 0 1, core-1: 2 3" into `text` (the first 16 ranks). */
static void cores_said(const int *core, int p, int cores, char *text, size_t len)
{
  size_t at = 0;
  text[0] = '\0';
  for (int c = 0; c < cores && at < len; c++) {
    at += (size_t)snprintf(text + at, len - at, "%score-%d:", c ? ", " : "", c);
    for (int i = 0; i < p && i < 16 && at < len; i++)
      if (core[i] == c)
        at += (size_t)snprintf(text + at, len - at, " %d", i);
  }
  if (p > 16 && at < len)
    snprintf(text + at, len - at, " ...");
}

int cli_binding_cores(const cli_binding_t *b, const met_tl_usage_t *usage, int *core, int *paired)
{
  int p = b->nranks;
  *paired = 0;
  if (p == 0 || b->nodes > 1 || (!b->bound && !b->oversubscribed))
    return 0; /* nothing recorded, several nodes (not placed here), or a core each at most */
  *paired = !b->bound && usage && p <= PAIR_RANKS_MAX && pair_by_waits(usage, p, b->online, core);
  for (int i = 0; i < p && !*paired; i++)
    core[i] = b->bound ? b->cpu[i] : i % b->online;
  return 1;
}

int cli_binding_place(const cli_binding_t *b, const int *core, int paired, const char *platform, char (*hosts)[32],
                      char *note, size_t notelen)
{
  int p = b->nranks;
  note[0] = '\0';
  if (!core)
    return 0;
  char cpus[120] = "";
  for (int i = 0; i < p; i++) {
    cli_machine_host_id(hosts[i], sizeof hosts[i], 1, 0, core[i]); /* core-C */
    if (b->bound && i < 16)
      snprintf(cpus + strlen(cpus), sizeof cpus - strlen(cpus), "%s%d", i ? " " : "", b->cpu[i]);
  }
  if (paired)
    cores_said(core, p, b->online, cpus, sizeof cpus);
  int placed = has_hosts(platform, hosts, p);
  if (!b->oversubscribed) /* bound, a core each: placed, nothing to say */
    return placed;
  char paired_text[200] = "";
  if (paired)
    snprintf(paired_text, sizeof paired_text,
             "replayed with the ranks sharing cores as their waits for a processor show (%s: each waited about as "
             "long as its core-mates ran)",
             cpus);
  if (b->bound)
    snprintf(
        note, notelen, "p = %d: oversubscribed (%d ranks on %d online cores), each rank bound to one CPU (%s%s): %s", p,
        b->node_ranks, b->online, cpus, p > 16 ? " ..." : "",
        placed ? "replayed on those cores' hosts, each core's ranks sharing it while they compute"
               : "the platform has no host core-C for them (probed with --pool?): replayed on its hosts as they are");
  else
    snprintf(
        note, notelen,
        "p = %d: oversubscribed (%d ranks on %d online cores) and unbound: %s, the placement Linux settles "
        "ranks that wait (yielding, runnable) into; it can start them crowded onto fewer cores and spread them "
        "late, which costs a run a fixed time (tens of milliseconds on an idle machine, more beside other work), "
        "so a short run can take longer than predicted (docs/history/validation.md, \"The idle machine\"): bind them "
        "(mpirun --bind-to core:overload-allowed) for a placement the replay knows",
        p, b->node_ranks, b->online,
        placed ? (paired ? paired_text : "replayed with rank i on core i mod the cores")
               : "replayed on the platform's hosts as they are (no host core-C)");
  return placed;
}
