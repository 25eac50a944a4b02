/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The communicators of collectives in the trace (simrun's TI extension, docs/ti-replay.md): each rank names a
 * sub-communicator by a number of its own, defined once by "comm_def ID r0 r1 ..." (the world ranks of its members in
 * their order), so that "in ID <collective>" replays on those ranks. Handles are cached until MPI_Comm_free. */
#include "trc_comm.h"
#include "trc_mpi_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct comm_def {
  int *members; /* world ranks, in the communicator's order */
  int size;
} comm_def_t;

typedef struct comm_seen {
  MPI_Comm comm;
  int id;
} comm_seen_t;

static comm_def_t *defs; /* defs[id - 1] */
static int ndefs;
static comm_seen_t *seen;
static int nseen;
static int cap_seen;

/* The world ranks of `comm`'s members (a new array), or NULL. */
static int *members_of(MPI_Comm comm, int size)
{
  int *ranks = malloc(sizeof *ranks * (size_t)size);
  int *world = malloc(sizeof *world * (size_t)size);
  MPI_Group group;
  MPI_Group all;
  int ok = ranks && world && PMPI_Comm_group(comm, &group) == MPI_SUCCESS;
  if (ok) {
    for (int i = 0; i < size; i++)
      ranks[i] = i;
    ok = PMPI_Comm_group(MPI_COMM_WORLD, &all) == MPI_SUCCESS;
    if (ok) {
      ok = PMPI_Group_translate_ranks(group, size, ranks, all, world) == MPI_SUCCESS;
      PMPI_Group_free(&all);
    }
    PMPI_Group_free(&group);
  }
  free(ranks);
  if (!ok) {
    free(world);
    return NULL;
  }
  return world;
}

/* The id of a communicator of these members, defined now (the comm_def action) when new; -1 when out of memory. */
static int define(int *members, int size)
{
  for (int i = 0; i < ndefs; i++)
    if (defs[i].size == size && memcmp(defs[i].members, members, sizeof *members * (size_t)size) == 0) {
      free(members);
      return i + 1;
    }
  comm_def_t *more = realloc(defs, sizeof *more * (size_t)(ndefs + 1));
  size_t cap = 16 + 12 * (size_t)size;
  char *text = more ? malloc(cap) : NULL;
  if (!text) {
    defs = more ? more : defs;
    free(members);
    return -1;
  }
  defs = more;
  defs[ndefs++] = (comm_def_t){.members = members, .size = size};
  size_t len = 0;
  for (int i = 0; i < size; i++)
    len += (size_t)snprintf(text + len, cap - len, "%s%d", i ? " " : "", members[i]);
  trc_extension("comm_def", "comm_def %d %s", ndefs, text);
  free(text);
  return ndefs;
}

/* Whether `comm` has the ranks of MPI_COMM_WORLD in their order. */
static int is_world(MPI_Comm comm)
{
  int result = MPI_UNEQUAL;
  return comm == MPI_COMM_WORLD || (PMPI_Comm_compare(comm, MPI_COMM_WORLD, &result) == MPI_SUCCESS &&
                                    (result == MPI_IDENT || result == MPI_CONGRUENT));
}

int trc_comm_id(MPI_Comm comm)
{
  if (comm == MPI_COMM_WORLD)
    return 0;
  for (int i = 0; i < nseen; i++)
    if (seen[i].comm == comm)
      return seen[i].id;
  int id = 0;
  if (!is_world(comm)) {
    if (!trc_extension_allowed("in (a collective on a sub-communicator)"))
      return -1;
    int size = trc_comm_size(comm);
    int *members = size > 0 ? members_of(comm, size) : NULL;
    id = members ? define(members, size) : -1;
  }
  if (id < 0)
    return -1;
  if (nseen == cap_seen) {
    int cap = cap_seen ? 2 * cap_seen : 16;
    comm_seen_t *more = realloc(seen, sizeof *more * (size_t)cap);
    if (!more)
      return id; /* not cached: looked up again next time */
    seen = more;
    cap_seen = cap;
  }
  seen[nseen++] = (comm_seen_t){.comm = comm, .id = id};
  return id;
}

/* A collective's TI format: `format` on MPI_COMM_WORLD or a communicator congruent with it, "in ID " and `format`
 * on another intracommunicator (simrun's extension, its members defined first by trc_comm_id), or NULL: on an
 * intercommunicator (the call counted as `name`), or when SIMRUN_TRACE_FORMAT=smpi refuses the extension. The string is
 * valid until the next call. */
const char *trc_coll(MPI_Comm comm, const char *format, const char *name)
{
  static char prefixed[256];
  int inter = 0;
  if (!trc_active())
    return NULL;
  if (PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && inter) {
    trc_untraced(name); /* no TI action, SMPI's or simrun's, runs a collective between two groups */
    return NULL;
  }
  int id = trc_comm_id(comm);
  if (id == 0)
    return format;
  if (id < 0)
    return NULL;
  snprintf(prefixed, sizeof prefixed, "in %d %s", id, format);
  return prefixed;
}

void trc_comm_forget(MPI_Comm comm)
{
  for (int i = 0; i < nseen; i++)
    if (seen[i].comm == comm)
      seen[i] = seen[--nseen];
}

void trc_comm_reset(void)
{
  for (int i = 0; i < ndefs; i++)
    free(defs[i].members);
  free(defs);
  free(seen);
  defs = NULL;
  seen = NULL;
  ndefs = nseen = cap_seen = 0;
}
