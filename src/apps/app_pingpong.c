/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The ping-pong calibration skeleton: rank 0 exchanges messages of doubling sizes with each other rank in turn, so
 * that every COMM interval of the trace is one quiet-network message time T(l, d) of seed 001 eq. 4 (Table 2). */
#include "app_pingpong.h"
#include "sim_error.h"

#include <stdio.h>
#include <stdlib.h>

/* Doubling from 1 byte gives 63 sizes below LONG_MAX (2^0 .. 2^62), then max-bytes itself. */
#define PINGPONG_MAX_SIZES 64

typedef struct pingpong_arg {
  size_t nsizes;
  double sizes[PINGPONG_MAX_SIZES];
} pingpong_arg_t;

/* Fills the ladder min, 2 min, 4 min, ... below max, then max; doubling never overflows since a rung above max / 2
 * is followed by max directly. */
static void fill_ladder(pingpong_arg_t *pp, long min, long max)
{
  long s = min;
  pp->nsizes = 0;
  for (;;) {
    pp->sizes[pp->nsizes++] = (double)s;
    if (s == max)
      return;
    s = s > max / 2 ? max : 2 * s;
  }
}

static int pingpong_prepare(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen,
                            const char **bad_param)
{
  long min = app_point_long(point, "min-bytes", 1);
  long max = app_point_long(point, "max-bytes", 1);
  if (max < min) {
    snprintf(err, errlen, "max-bytes = %ld is smaller than min-bytes = %ld; use max-bytes >= min-bytes", max, min);
    *bad_param = "max-bytes";
    return SIM_EPARAM;
  }
  pingpong_arg_t *pp = malloc(sizeof *pp);
  if (!pp)
    return SIM_ENOMEM;
  fill_ladder(pp, min, max);
  *arg = pp;
  return 0;
}

/* One round trip of `bytes` between rank 0 and rank `partner`, run by both of them. */
static void exchange(sim_rank_t *rank, int partner, double bytes)
{
  int root = sim_rank_id(rank) == 0;
  sim_phase(rank, "ping");
  if (root)
    sim_send(rank, partner, bytes);
  else
    sim_recv(rank, 0, bytes);
  sim_phase(rank, "pong");
  if (root)
    sim_recv(rank, partner, bytes);
  else
    sim_send(rank, 0, bytes);
}

static void pingpong_program(sim_rank_t *rank, const void *arg)
{
  const pingpong_arg_t *pp = arg;
  int me = sim_rank_id(rank);
  for (size_t i = 0; i < pp->nsizes; i++)
    for (int j = 1; j < sim_rank_count(rank); j++)
      if (me == 0 || me == j)
        exchange(rank, j, pp->sizes[i]);
}

static const scn_param_spec_t pingpong_params[] = {
    {.name = "min-bytes", .kind = SCN_INT, .min = 1, .required = 1, .help = "smallest message, in bytes"},
    {.name = "max-bytes",
     .kind = SCN_INT,
     .min = 1,
     .required = 1,
     .help = "largest message, in bytes (sizes double from min-bytes up to it)"},
};

static const scn_skeleton_spec_t pingpong_spec = {
    .name = "ping-pong", .params = pingpong_params, .nparams = sizeof pingpong_params / sizeof pingpong_params[0]};

const app_skeleton_t app_pingpong_skeleton = {.spec = &pingpong_spec,
                                              .views = MET_VIEW_MESSAGES,
                                              .prepare = pingpong_prepare,
                                              .program = pingpong_program,
                                              .release = free};
