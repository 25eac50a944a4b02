/* Replays a time-independent trace through the replay layer: compute (flops, as CPU cycles of the host), blocking
 * send and recv (synchronous, as every simrun message; SMPI sends small messages eagerly), sleep, bcast (with the
 * job's algorithm) and barrier, sizes in elements of the line's datatype. Tags are ignored: messages between two
 * ranks match in order, as they do in SMPI's. */
#include "app_ti.h"
#include "sim_error.h"
#include "sim_ti.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ti_arg {
  char **paths;
  int count;
} ti_arg_t;

static void ti_release(void *arg)
{
  ti_arg_t *ti = arg;
  if (ti)
    sim_ti_paths_free(ti->paths, ti->count);
  free(ti);
}

static int ti_prepare(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen,
                      const char **bad_param)
{
  ti_arg_t *ti = calloc(1, sizeof *ti);
  if (!ti)
    return SIM_ENOMEM;
  *bad_param = "trace";
  const char *index = app_point_value(point, "trace");
  int rc = sim_ti_read_index(index, &ti->paths, &ti->count, err, errlen);
  if (rc == 0 && ti->count != nranks) {
    snprintf(err, errlen, "%s lists %d trace files, one per rank, but p = %d; use p = %d", index, ti->count, nranks,
             ti->count);
    rc = SIM_EPARAM;
  }
  if (rc != 0) {
    ti_release(ti);
    return rc == SIM_ENOMEM ? rc : SIM_EPARAM;
  }
  *arg = ti;
  return 0;
}

/* A line's fields, split on blanks in place: at most TI_FIELDS, the rest ignored. sscanf cost a fifth of a replay. */
enum { TI_FIELDS = 6 };
typedef struct ti_line {
  char *field[TI_FIELDS];
  int count;
} ti_line_t;

static int blank(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void split(char *text, ti_line_t *line)
{
  line->count = 0;
  for (char *c = text; *c;) {
    while (blank(*c))
      c++;
    if (!*c)
      break;
    if (line->count < TI_FIELDS)
      line->field[line->count++] = c;
    while (*c && !blank(*c))
      c++;
    if (*c)
      *c++ = '\0';
  }
}

/* Undoes split on the line's first `len` characters, without trailing blanks: the text for a message. */
static void unsplit(char *text, size_t len)
{
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\0')
      text[i] = ' ';
  while (len > 0 && blank(text[len - 1]))
    len--;
  text[len] = '\0';
}

/* `text` as 1 to 15 decimal digits and nothing else (most fields are): 0 and its value, or -1 to leave the text to
 * strtol or strtod. */
static int digits(const char *text, long long *value)
{
  long long v = 0;
  int n = 0;
  for (; text[n] >= '0' && text[n] <= '9'; n++) {
    if (n == 15)
      return -1;
    v = 10 * v + (text[n] - '0');
  }
  if (n == 0 || text[n])
    return -1;
  *value = v;
  return 0;
}

/* Field i as a whole int in [low, high], or -1 when it is missing or not one. */
static int int_field(const ti_line_t *line, int i, int low, int high, int *value)
{
  if (i >= line->count)
    return -1;
  long long v;
  if (digits(line->field[i], &v) != 0) {
    char *end;
    errno = 0;
    v = strtol(line->field[i], &end, 10);
    if (end == line->field[i] || *end || errno)
      return -1;
  }
  if (v < low || v > high)
    return -1;
  *value = (int)v;
  return 0;
}

/* Field i as a finite amount >= 0, or -1. */
static int amount_field(const ti_line_t *line, int i, double *value)
{
  if (i >= line->count)
    return -1;
  long long whole;
  if (digits(line->field[i], &whole) == 0) {
    *value = (double)whole;
    return 0;
  }
  char *end;
  double v = strtod(line->field[i], &end);
  if (end == line->field[i] || *end || !(v >= 0) || isinf(v))
    return -1;
  *value = v;
  return 0;
}

/* Optional field i: an MPI datatype code with a known size (MPI_BYTE when absent); its size, or -1. */
static int type_field(const ti_line_t *line, int i)
{
  int type = SIM_TI_MPI_BYTE;
  if (i < line->count && int_field(line, i, 0, INT_MAX, &type) != 0)
    return -1;
  return sim_ti_type_size(type);
}

/* Carries out one line of the rank's file (split into fields); 0, or -1 when the line is not an action simrun can
 * replay. */
static int replay_line(sim_rank_t *rank, const ti_line_t *line)
{
  int who;
  int nranks = sim_rank_count(rank);
  if (line->count < 2 || int_field(line, 0, 0, nranks - 1, &who) != 0 || who != sim_rank_id(rank))
    return -1;
  const char *verb = line->field[1];
  int peer;
  int tag;
  int root = 0;
  double amount;
  if (strcmp(verb, "init") == 0 || strcmp(verb, "finalize") == 0)
    return 0;
  if (strcmp(verb, "compute") == 0 && amount_field(line, 2, &amount) == 0) {
    sim_compute(rank, &(sim_cycles_t){.cpu = amount}, SIM_WORK);
    return 0;
  }
  if (strcmp(verb, "sleep") == 0 && amount_field(line, 2, &amount) == 0) {
    sim_sleep(rank, amount);
    return 0;
  }
  if ((strcmp(verb, "send") == 0 || strcmp(verb, "recv") == 0) && int_field(line, 2, 0, nranks - 1, &peer) == 0 &&
      peer != who && int_field(line, 3, INT_MIN, INT_MAX, &tag) == 0 && amount_field(line, 4, &amount) == 0) {
    int size = type_field(line, 5);
    if (size <= 0)
      return -1;
    (verb[0] == 's' ? sim_send : sim_recv)(rank, peer, amount * size);
    return 0;
  }
  if (strcmp(verb, "bcast") == 0 && amount_field(line, 2, &amount) == 0 &&
      (line->count < 4 || int_field(line, 3, 0, nranks - 1, &root) == 0)) {
    int size = type_field(line, 4);
    if (size <= 0)
      return -1;
    sim_bcast(rank, root, amount * size);
    return 0;
  }
  if (strcmp(verb, "barrier") == 0) {
    sim_barrier(rank);
    return 0;
  }
  return -1;
}

static void ti_program(sim_rank_t *rank, const void *arg)
{
  const ti_arg_t *ti = arg;
  const char *path = ti->paths[sim_rank_id(rank)];
  FILE *in = fopen(path, "r");
  char message[1024];
  if (!in) {
    snprintf(message, sizeof message, "cannot read the trace file %s of rank %d", path, sim_rank_id(rank));
    sim_rank_fail(rank, SIM_EPARAM, message);
    return;
  }
  setvbuf(in, NULL, _IOFBF, 1 << 16); /* a few reads per file rather than one per 4 KiB */
  char text[512];
  ti_line_t line;
  for (int number = 1; fgets(text, sizeof text, in); number++) {
    size_t len = strlen(text);
    split(text, &line);
    if (line.count == 0)
      continue;
    if (replay_line(rank, &line) != 0) {
      unsplit(text, len);
      snprintf(message, sizeof message,
               "%s:%d: '%s': not an action simrun replays for rank %d; it replays init, compute, send, recv, sleep, "
               "bcast, barrier and finalize (blocking, tag ignored)",
               path, number, text, sim_rank_id(rank));
      sim_rank_fail(rank, SIM_EPARAM, message);
      break;
    }
  }
  fclose(in);
}

static const scn_param_spec_t ti_params[] = {
    {.name = "trace",
     .kind = SCN_PATH,
     .required = 1,
     .help = "the index file of a time-independent trace (one per-rank file per line), as smpirun -replay takes"},
    {.name = "broadcast",
     .kind = SCN_CHOICE,
     .choices = sim_bcast_names,
     .help = "the algorithm for the trace's bcast actions (default one-to-all)"},
};

static const scn_skeleton_spec_t ti_spec = {
    .name = "ti-replay", .params = ti_params, .nparams = sizeof ti_params / sizeof ti_params[0]};

const app_skeleton_t app_ti_skeleton = {
    .spec = &ti_spec, .view = APP_VIEW_MESSAGES, .prepare = ti_prepare, .program = ti_program, .release = ti_release};
