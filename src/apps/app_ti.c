/* Replays a time-independent trace through the replay layer: compute (flops, as CPU cycles of the host), blocking
 * send and recv (synchronous, as every simrun message; SMPI sends small messages eagerly), sleep, bcast (with the
 * job's algorithm) and barrier, sizes in elements of the line's datatype. Tags are ignored: messages between two
 * ranks match in order, as they do in SMPI's. */
#include "app_ti.h"
#include "sim_error.h"
#include "sim_ti.h"

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

/* Carries out one line of the rank's file; 0, or -1 when the line is not an action simrun can replay. */
static int replay_line(sim_rank_t *rank, const char *line)
{
  int who;
  char verb[32];
  int used = 0;
  if (sscanf(line, "%d %31s %n", &who, verb, &used) < 2 || who != sim_rank_id(rank))
    return -1;
  const char *args = line + used;
  int peer;
  int root = 0;
  double amount;
  if (strcmp(verb, "init") == 0 || strcmp(verb, "finalize") == 0)
    return 0;
  if (strcmp(verb, "compute") == 0 && sscanf(args, "%lf", &amount) == 1 && amount >= 0) {
    sim_compute(rank, &(sim_cycles_t){.cpu = amount}, SIM_WORK);
    return 0;
  }
  if (strcmp(verb, "sleep") == 0 && sscanf(args, "%lf", &amount) == 1 && amount >= 0) {
    sim_sleep(rank, amount);
    return 0;
  }
  int nranks = sim_rank_count(rank);
  int tag;
  int type = SIM_TI_MPI_BYTE;
  if ((strcmp(verb, "send") == 0 || strcmp(verb, "recv") == 0) &&
      sscanf(args, "%d %d %lf %d", &peer, &tag, &amount, &type) >= 3 && peer >= 0 && peer < nranks &&
      peer != sim_rank_id(rank) && amount >= 0 && sim_ti_type_size(type) > 0) {
    (verb[0] == 's' ? sim_send : sim_recv)(rank, peer, amount * sim_ti_type_size(type));
    return 0;
  }
  if (strcmp(verb, "bcast") == 0 && sscanf(args, "%lf %d %d", &amount, &root, &type) >= 1 && amount >= 0 && root >= 0 &&
      root < nranks && sim_ti_type_size(type) > 0) {
    sim_bcast(rank, root, amount * sim_ti_type_size(type));
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
  char line[512];
  for (int number = 1; fgets(line, sizeof line, in); number++) {
    if (strspn(line, " \t\r\n") == strlen(line))
      continue;
    if (replay_line(rank, line) != 0) {
      line[strcspn(line, "\r\n")] = '\0';
      snprintf(message, sizeof message,
               "%s:%d: '%s': not an action simrun replays for rank %d; it replays init, compute, send, recv, sleep, "
               "bcast, barrier and finalize (blocking, tag ignored)",
               path, number, line, sim_rank_id(rank));
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
