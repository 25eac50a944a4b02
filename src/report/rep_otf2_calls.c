/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* MPI call names and communicators for the OTF2 archives (rep_otf2_calls.h): Scalasca's collective classes back to
 * MPI calls, and the groups of a trace's collective spans as OTF2 communicators. */
#include "rep_otf2_calls.h"
#include "bas_grow.h"
#include "bas_keymap.h"

#include <stdlib.h>
#include <string.h>

static const struct {
  const char *name;
  OTF2_RegionRole role;
  OTF2_CollectiveOp op;
} calls[REP_CALL_COUNT] = {
    [REP_CALL_SEND] = {"MPI_Send", OTF2_REGION_ROLE_POINT2POINT, OTF2_UNDEFINED_TYPE},
    [REP_CALL_RECV] = {"MPI_Recv", OTF2_REGION_ROLE_POINT2POINT, OTF2_UNDEFINED_TYPE},
    [REP_CALL_BARRIER] = {"MPI_Barrier", OTF2_REGION_ROLE_BARRIER, OTF2_COLLECTIVE_OP_BARRIER},
    [REP_CALL_ALLREDUCE] = {"MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLREDUCE},
    [REP_CALL_ALLGATHER] = {"MPI_Allgather", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLGATHER},
    [REP_CALL_ALLTOALL] = {"MPI_Alltoall", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLTOALL},
    [REP_CALL_BCAST] = {"MPI_Bcast", OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_COLLECTIVE_OP_BCAST},
    [REP_CALL_SCATTER] = {"MPI_Scatter", OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_COLLECTIVE_OP_SCATTER},
    [REP_CALL_REDUCE] = {"MPI_Reduce", OTF2_REGION_ROLE_COLL_ALL2ONE, OTF2_COLLECTIVE_OP_REDUCE},
    [REP_CALL_GATHER] = {"MPI_Gather", OTF2_REGION_ROLE_COLL_ALL2ONE, OTF2_COLLECTIVE_OP_GATHER},
    [REP_CALL_SCAN] = {"MPI_Scan", OTF2_REGION_ROLE_COLL_OTHER, OTF2_COLLECTIVE_OP_SCAN},
    [REP_CALL_GATHERV] = {"MPI_Gatherv", OTF2_REGION_ROLE_COLL_ALL2ONE, OTF2_COLLECTIVE_OP_GATHERV},
    [REP_CALL_ALLGATHERV] = {"MPI_Allgatherv", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLGATHERV},
    [REP_CALL_SCATTERV] = {"MPI_Scatterv", OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_COLLECTIVE_OP_SCATTERV},
    [REP_CALL_ALLTOALLV] = {"MPI_Alltoallv", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLTOALLV},
    [REP_CALL_REDUCE_SCATTER] = {"MPI_Reduce_scatter", OTF2_REGION_ROLE_COLL_ALL2ALL,
                                 OTF2_COLLECTIVE_OP_REDUCE_SCATTER},
    [REP_CALL_EXSCAN] = {"MPI_Exscan", OTF2_REGION_ROLE_COLL_OTHER, OTF2_COLLECTIVE_OP_EXSCAN},
};

/* The archives' call for each operation a span may name. */
static const rep_otf2_call_t by_op[MET_CALLS] = {[MET_CALL_BARRIER] = REP_CALL_BARRIER,
                                                 [MET_CALL_BCAST] = REP_CALL_BCAST,
                                                 [MET_CALL_REDUCE] = REP_CALL_REDUCE,
                                                 [MET_CALL_ALLREDUCE] = REP_CALL_ALLREDUCE,
                                                 [MET_CALL_GATHER] = REP_CALL_GATHER,
                                                 [MET_CALL_GATHERV] = REP_CALL_GATHERV,
                                                 [MET_CALL_ALLGATHER] = REP_CALL_ALLGATHER,
                                                 [MET_CALL_ALLGATHERV] = REP_CALL_ALLGATHERV,
                                                 [MET_CALL_SCATTER] = REP_CALL_SCATTER,
                                                 [MET_CALL_SCATTERV] = REP_CALL_SCATTERV,
                                                 [MET_CALL_ALLTOALL] = REP_CALL_ALLTOALL,
                                                 [MET_CALL_ALLTOALLV] = REP_CALL_ALLTOALLV,
                                                 [MET_CALL_REDUCE_SCATTER] = REP_CALL_REDUCE_SCATTER,
                                                 [MET_CALL_SCAN] = REP_CALL_SCAN,
                                                 [MET_CALL_EXSCAN] = REP_CALL_EXSCAN};

const char *rep_otf2_call_name(rep_otf2_call_t call)
{
  return calls[call].name;
}

OTF2_RegionRole rep_otf2_call_role(rep_otf2_call_t call)
{
  return calls[call].role;
}

OTF2_CollectiveOp rep_otf2_call_op(rep_otf2_call_t call)
{
  return calls[call].op;
}

rep_otf2_call_t rep_otf2_call_named(const char *name)
{
  for (int c = 0; c < REP_CALL_COUNT; c++)
    if (strcmp(calls[c].name, name) == 0)
      return (rep_otf2_call_t)c;
  return REP_CALL_COUNT;
}

/* Whether `name` names a call that moves a message point-to-point or starts one (MPI_Isend, MPI_Mrecv,
 * MPI_Sendrecv_replace, MPI_Start): not a request's making (MPI_Send_init) nor completion (MPI_Wait). */
static int point_to_point(const char *name)
{
  static const char *const p2p[] = {"Send",  "Recv",   "Isend",  "Irecv",   "Ssend",    "Bsend",
                                    "Rsend", "Issend", "Ibsend", "Irsend",  "Sendrecv", "Sendrecv_replace",
                                    "Mrecv", "Imrecv", "Start",  "Startall"};
  if (strncmp(name, "MPI_", 4) != 0)
    return 0;
  for (size_t i = 0; i < sizeof p2p / sizeof *p2p; i++)
    if (strcmp(name + 4, p2p[i]) == 0)
      return 1;
  return 0;
}

OTF2_RegionRole rep_otf2_name_role(const char *name)
{
  met_coll_call_t op = met_coll_call_of(name);
  op = op != MET_CALL_UNNAMED ? op : met_nbc_call_of(name); /* a non-blocking one's role is its blocking form's */
  if (op != MET_CALL_UNNAMED)
    return calls[by_op[op]].role;
  return point_to_point(name) ? OTF2_REGION_ROLE_POINT2POINT : OTF2_REGION_ROLE_FUNCTION;
}

size_t rep_otf2_name_call(const char *name, unsigned long long *polls)
{
  const char *star = strchr(name, '*');
  *polls = star ? strtoull(star + 1, NULL, 10) : 0;
  return star ? (size_t)(star - name) : strlen(name);
}

/* Phase-label hints within a class, first match wins. */
static const struct {
  met_coll_kind_t kind;
  const char *hint;
  rep_otf2_call_t call;
} hints[] = {
    {MET_COLL_ONE_TO_N, "scatter", REP_CALL_SCATTER}, {MET_COLL_ONE_TO_N, "distribution", REP_CALL_SCATTER},
    {MET_COLL_N_TO_ONE, "gather", REP_CALL_GATHER},   {MET_COLL_N_TO_ONE, "collection", REP_CALL_GATHER},
    {MET_COLL_NXN, "allgather", REP_CALL_ALLGATHER},  {MET_COLL_NXN, "alltoall", REP_CALL_ALLTOALL},
};

rep_otf2_call_t rep_otf2_coll_call(const met_coll_t *span, const char *phase_label)
{
  if (span->call != MET_CALL_UNNAMED && (unsigned)span->call < MET_CALLS)
    return by_op[span->call];
  met_coll_kind_t kind = span->kind;
  for (size_t i = 0; phase_label && i < sizeof hints / sizeof hints[0]; i++)
    if (hints[i].kind == kind && strstr(phase_label, hints[i].hint))
      return hints[i].call;
  switch (kind) {
  case MET_COLL_BARRIER:
    return REP_CALL_BARRIER;
  case MET_COLL_NXN:
    return REP_CALL_ALLREDUCE;
  case MET_COLL_ONE_TO_N:
    return REP_CALL_BCAST;
  case MET_COLL_N_TO_ONE:
    return REP_CALL_REDUCE;
  default:
    return REP_CALL_SCAN;
  }
}

typedef struct comm {
  unsigned group;
  uint32_t count;
  size_t cap;
  uint64_t *members; /* increasing */
} comm_t;

struct rep_otf2_comms {
  size_t count, cap;
  comm_t *comms;
  bas_keymap_t *groups; /* their numbers + 1 by group (a measured run may make a communicator an iteration: a scan of
                         * them per span took 12 s for 80,000) */
};

void rep_otf2_comms_free(rep_otf2_comms_t *comms)
{
  if (!comms)
    return;
  for (size_t i = 0; i < comms->count; i++)
    free(comms->comms[i].members);
  free(comms->comms);
  bas_keymap_free(comms->groups);
  free(comms);
}

static comm_t *find(const rep_otf2_comms_t *comms, unsigned group)
{
  size_t at = bas_keymap_get(comms->groups, group);
  return at ? &comms->comms[at - 1] : NULL;
}

/* Adds `rank` to the communicator of `group` (new if unseen), once: ranks come in increasing order. 0, or -1 when out
 * of memory. */
static int add_member(rep_otf2_comms_t *comms, unsigned group, int rank)
{
  comm_t *c = find(comms, group);
  if (!c) {
    if (bas_reserve((void **)&comms->comms, &comms->cap, comms->count, sizeof *comms->comms, 4) != 0 ||
        bas_keymap_put(comms->groups, group, comms->count + 1) != 0)
      return -1;
    c = &comms->comms[comms->count++];
    *c = (comm_t){.group = group};
  }
  if (c->count > 0 && c->members[c->count - 1] == (uint64_t)rank)
    return 0;
  if (bas_reserve((void **)&c->members, &c->cap, c->count, sizeof *c->members, 4) != 0)
    return -1;
  c->members[c->count++] = (uint64_t)rank;
  return 0;
}

rep_otf2_comms_t *rep_otf2_comms_new(const met_trace_t *trace)
{
  rep_otf2_comms_t *comms = calloc(1, sizeof *comms);
  int nranks = met_trace_nranks(trace), failed = !comms || !(comms->groups = bas_keymap_new());
  for (int r = 0; !failed && r < nranks; r++)
    failed = add_member(comms, 0, r);
  for (int r = 0; !failed && r < nranks; r++) {
    size_t n;
    const met_coll_t *spans = met_trace_colls(trace, r, &n);
    for (size_t i = 0; !failed && i < n; i++)
      failed = spans[i].group != 0 && add_member(comms, spans[i].group, r);
    const met_nbc_t *nbcs = met_trace_nbcs(trace, r, &n);
    for (size_t i = 0; !failed && i < n; i++)
      failed = nbcs[i].group != 0 && add_member(comms, nbcs[i].group, r);
  }
  if (failed) {
    rep_otf2_comms_free(comms);
    return NULL;
  }
  return comms;
}

size_t rep_otf2_comms_count(const rep_otf2_comms_t *comms)
{
  return comms->count;
}

uint32_t rep_otf2_comms_find(const rep_otf2_comms_t *comms, unsigned group)
{
  const comm_t *c = find(comms, group);
  return c ? (uint32_t)(c - comms->comms) : 0;
}

const uint64_t *rep_otf2_comms_members(const rep_otf2_comms_t *comms, uint32_t comm, uint32_t *count)
{
  *count = comms->comms[comm].count;
  return comms->comms[comm].members;
}

uint32_t rep_otf2_comms_rank(const rep_otf2_comms_t *comms, uint32_t comm, int rank)
{
  const comm_t *c = &comms->comms[comm];
  uint32_t lo = 0, hi = c->count; /* members increase: a binary search (a linear one was p/2 steps a message) */
  while (rank >= 0 && lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (c->members[mid] < (uint64_t)rank)
      lo = mid + 1;
    else
      hi = mid;
  }
  return rank >= 0 && lo < c->count && c->members[lo] == (uint64_t)rank ? lo : OTF2_UNDEFINED_UINT32;
}
