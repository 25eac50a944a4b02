/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The communicators of collectives in the trace (simrun's TI extension, docs/ti-replay.md): each rank names a
 * sub-communicator by a number of its own, defined once by "comm_def ID r0 r1 ..." (the world ranks of its members in
 * their order), so that "in ID <collective>" replays on those ranks. Handles are cached until MPI_Comm_free. The
 * timeline's keys of communicators, and a probe's record with the message it found on its communicator. */
#include "trc_comm.h"
#include "trc_fold.h"
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
  int noted; /* a key's: its members written to the timeline (note_members) */
} comm_seen_t;

static comm_def_t *defs; /* defs[id - 1] */
static int ndefs;
static comm_seen_t *seen;
static int nseen;
static int cap_seen;
static comm_seen_t *keys; /* trc_comm_key's, by handle */
static int nkeys;
static int cap_keys;

/* The world ranks of the members of the communicators whose ranks were translated, by handle (trc_to_world). */
typedef struct comm_ranks {
  MPI_Comm comm;
  int *world;
  int size;
} comm_ranks_t;

static comm_ranks_t *translated;
static int ntranslated;
static int cap_translated;

/* The world ranks of the `size` members of `comm`'s group, or of its remote group (`remote`, an intercommunicator's),
 * as a new array; NULL when out of memory. */
static int *group_members(MPI_Comm comm, int size, int remote)
{
  int *ranks = malloc(sizeof *ranks * (size_t)size);
  int *world = malloc(sizeof *world * (size_t)size);
  MPI_Group group;
  MPI_Group all;
  int ok =
      ranks && world && (remote ? PMPI_Comm_remote_group(comm, &group) : PMPI_Comm_group(comm, &group)) == MPI_SUCCESS;
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

/* The world ranks of `comm`'s members (a new array), or NULL. */
static int *members_of(MPI_Comm comm, int size)
{
  return group_members(comm, size, 0);
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

/* The entry of handle `comm` in `list` (of n), or NULL. */
static comm_seen_t *cached(comm_seen_t *list, int n, MPI_Comm comm)
{
  for (int i = 0; i < n; i++)
    if (list[i].comm == comm)
      return &list[i];
  return NULL;
}

/* Caches `id` for handle `comm` in *list (of *n, room for *cap) and returns it; when out of memory it is not cached,
 * and worked out again next time. */
static int remember(comm_seen_t **list, int *n, int *cap, MPI_Comm comm, int id)
{
  if (*n == *cap) {
    int more_cap = *cap ? 2 * *cap : 16;
    comm_seen_t *more = realloc(*list, sizeof *more * (size_t)more_cap);
    if (!more)
      return id;
    *list = more;
    *cap = more_cap;
  }
  (*list)[(*n)++] = (comm_seen_t){.comm = comm, .id = id, .noted = 0};
  return id;
}

/* trc_comm_id of a communicator with members outside the run (an MPI_Intercomm_merge with spawned processes, as
 * Rmpi's): no TI action can run its collectives; and with SIMRUN_TRACE_FORMAT=smpi of one of one member, whose
 * collectives need none (FreeFem++ splits its world so at p = 2: its 27 collectives there, refused as simrun's "in",
 * left the run without an index). */
enum { OUTSIDE = -2, ALONE = -3 };

/* Whether each of the `size` world ranks `members` is a process of the run (one outside has MPI_UNDEFINED). */
static int all_in_run(const int *members, int size)
{
  for (int i = 0; i < size; i++)
    if (members[i] < 0)
      return 0;
  return 1;
}

int trc_comm_id(MPI_Comm comm)
{
  const comm_seen_t *hit = comm == MPI_COMM_WORLD ? NULL : cached(seen, nseen, comm);
  if (comm == MPI_COMM_WORLD || hit)
    return hit ? hit->id : 0;
  int id = 0;
  if (!is_world(comm)) {
    int size = trc_comm_size(comm);
    int *members = size > 0 ? members_of(comm, size) : NULL;
    if (members && !all_in_run(members, size)) {
      free(members);
      id = OUTSIDE; /* in either format: no action runs it */
    } else if (size == 1 && trc_smpi_only()) {
      free(members);
      id = ALONE; /* a collective of one member moves nothing: no action, rather than simrun's "in" refused */
    } else if (!trc_extension_allowed("in (a collective on a sub-communicator)")) {
      free(members);
      return -1;
    } else
      id = members ? define(members, size) : -1;
  }
  return id == -1 ? -1 : remember(&seen, &nseen, &cap_seen, comm, id);
}

/* The members of `comm` as the timeline's "# comm" line gives them, into `text` (of `room`): their world ranks
 * increasing, as FIRST:STRIDE:COUNT where they are evenly spaced (a row or a column of a process grid, in a few
 * characters at any size), else one by one; in the communicator's order where it is not the world's (MPI_Comm_split
 * with keys that reorder the ranks: simrun analyse then pairs no scan on it), each run of three or more evenly spaced
 * ranks as FIRST:STRIDE:COUNT (STRIDE negative where they descend: a split that reverses them, in a few characters),
 * the others one by one. 0, or -1 when they do not fit, a member is outside the run (MPI_Comm_spawn's) or memory ran
 * out. */
static int members_text(MPI_Comm comm, char *text, size_t room)
{
  int size = trc_comm_size(comm);
  int *members = size > 0 ? members_of(comm, size) : NULL;
  if (!members || !all_in_run(members, size)) {
    free(members);
    return -1;
  }
  int stride = size > 1 ? members[1] - members[0] : 1, even = stride > 0;
  for (int i = 2; even && i < size; i++)
    even = members[i] - members[i - 1] == stride;
  size_t len = 0;
  if (even)
    len = (size_t)snprintf(text, room, "%d:%d:%d", members[0], stride, size);
  for (int i = 0, run; !even && i < size && len < room; i += run) {
    int step = i + 1 < size ? members[i + 1] - members[i] : 0;
    for (run = 1; i + run < size && members[i + run] - members[i + run - 1] == step;)
      run++;
    run = run >= 3 ? run : 1;
    len += run >= 3 ? (size_t)snprintf(text + len, room - len, "%s%d:%d:%d", i ? " " : "", members[i], step, run)
                    : (size_t)snprintf(text + len, room - len, "%s%d", i ? " " : "", members[i]);
  }
  free(members);
  return len < room ? 0 : -1;
}

/* The timeline's definition of sub-communicator `comm`, "# comm KEY MEMBERS", written before the first collective
 * recorded on its handle (in either format: the timeline is simrun's), so that simrun analyse pairs its members'
 * collectives (docs/tracer.md); none where the members would pass the reader's line of 4 KiB (irregular groups of some
 * 600 ranks or more), whose collectives it then keeps as measured. */
static void note_members(MPI_Comm comm)
{
  comm_seen_t *key = cached(keys, nkeys, comm); /* trc_comm_key's entry */
  if (!key || key->noted)
    return;
  key->noted = 1;
  char text[4000];
  if (members_text(comm, text, sizeof text) == 0)
    trc_timeline_note("comm %d %s", key->id, text);
}

/* A collective's TI format: `format` on MPI_COMM_WORLD or a communicator congruent with it, "in ID " and `format`
 * on another intracommunicator (simrun's extension, its members defined first by trc_comm_id; the timeline line of
 * the call gets its communicator's key, trc_envelope), or NULL: on an intercommunicator (the call counted as `name`),
 * or when SIMRUN_TRACE_FORMAT=smpi refuses the extension. The string is valid until the next call. */
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
  if (id != 0) { /* a sub-communicator (-1: also when refused): its timeline line names it, paired with its members' */
    trc_envelope(-1, trc_comm_key(comm));
    note_members(comm);
  }
  if (id == 0)
    return format;
  if (id == OUTSIDE)
    trc_untraced("collectives with processes outside the run (MPI_Comm_spawn's, MPI_Comm_connect's): no TI action");
  if (id < 0)
    return NULL;
  /* "in ID FORMAT", without snprintf's cost (1 600 instructions, a tenth of the recorder's on ScaLAPACK's xdlu) */
  char digits[16];
  int n = 0;
  for (unsigned v = (unsigned)id; v > 0 || n == 0; v /= 10)
    digits[n++] = (char)('0' + v % 10);
  size_t len = strlen(format); /* one of the wrappers' literals, of some 30 characters: prefixed has room */
  char *at = prefixed;
  memcpy(at, "in ", 3);
  at += 3;
  while (n > 0)
    *at++ = digits[--n];
  *at++ = ' ';
  memcpy(at, format, len + 1);
  return prefixed;
}

/* FNV-1a over the world ranks of `group`'s members, in its order; 0 when they cannot be read. */
static unsigned group_hash(MPI_Group group)
{
  int size = 0;
  MPI_Group all;
  if (PMPI_Group_size(group, &size) != MPI_SUCCESS || size <= 0 || PMPI_Comm_group(MPI_COMM_WORLD, &all) != MPI_SUCCESS)
    return 0;
  unsigned h = 2166136261u;
  for (int i = 0; i < size; i++) {
    int world = MPI_UNDEFINED;
    PMPI_Group_translate_ranks(group, 1, &i, all, &world);
    for (int b = 0; b < 4; b++)
      h = (h ^ ((unsigned)world >> (8 * b) & 0xffu)) * 16777619u;
  }
  PMPI_Group_free(&all);
  return h;
}

/* `h` folded into 1 .. INT_MAX. */
static int fold(unsigned h)
{
  return (int)(h % 2147483646u) + 1;
}

/* The key of a communicator other than the world's: its members' hash (an intercommunicator's two groups combined
 * so that both sides get the same), folded. */
static int key_of(MPI_Comm comm)
{
  int inter = 0;
  MPI_Group local, remote;
  unsigned h = 0;
  if (PMPI_Comm_group(comm, &local) == MPI_SUCCESS) {
    h = group_hash(local);
    PMPI_Group_free(&local);
  }
  if (PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && inter &&
      PMPI_Comm_remote_group(comm, &remote) == MPI_SUCCESS) {
    h ^= group_hash(remote);
    PMPI_Group_free(&remote);
  }
  return fold(h);
}

int trc_comm_key(MPI_Comm comm)
{
  const comm_seen_t *hit = comm == MPI_COMM_WORLD ? NULL : cached(keys, nkeys, comm);
  if (comm == MPI_COMM_WORLD || hit)
    return hit ? hit->id : 0;
  int inter = 0;
  int key = PMPI_Comm_test_inter(comm, &inter) == MPI_SUCCESS && !inter && is_world(comm) ? 0 : key_of(comm);
  return remember(&keys, &nkeys, &cap_keys, comm, key);
}

/* Whether the library may call collectives of its own on intracommunicator `comm`: this process was not spawned and
 * every member is a process of the run. A communicator merged with spawned processes (Rmpi's) is left alone on both
 * sides, so that a child without the preload never leaves its parents waiting in the library's MPI_Allreduce. */
static int all_ours(MPI_Comm comm)
{
  MPI_Comm parent = MPI_COMM_NULL;
  if (PMPI_Comm_get_parent(&parent) != MPI_SUCCESS || parent != MPI_COMM_NULL)
    return 0;
  int size = trc_comm_size(comm);
  int *members = size > 0 ? members_of(comm, size) : NULL;
  int ours = members && all_in_run(members, size);
  free(members);
  return ours;
}

/* The communicators made so far on this rank, agreed with their members at each (trc_comm_made). */
static int made_count;

int trc_comm_made(MPI_Comm comm)
{
  int inter = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter || !all_ours(comm))
    return 0;
  int mine = made_count + 1;
  int agreed = mine;
  MPI_Group group;
  if (PMPI_Allreduce(&mine, &agreed, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS ||
      PMPI_Comm_group(comm, &group) != MPI_SUCCESS)
    return 1;
  made_count = agreed;
  unsigned h = group_hash(group);
  PMPI_Group_free(&group);
  for (int b = 0; b < 4; b++)
    h = (h ^ ((unsigned)agreed >> (8 * b) & 0xffu)) * 16777619u; /* FNV-1a on, over the number */
  trc_comm_forget(comm);
  remember(&keys, &nkeys, &cap_keys, comm, fold(h));
  return 1;
}

/* The world rank of member `rank` of a communicator whose `size` members have the world ranks `world`: TRC_PEER_NONE
 * for a process outside the run (MPI_Comm_spawn's, MPI_Comm_connect's: MPI_UNDEFINED in the world's group) and for a
 * rank the communicator does not have (a send there fails, which trc_mpi.c's failed_send names before asking). */
static int in_world(const int *world, int size, int rank)
{
  return rank < size && world[rank] >= 0 ? world[rank] : TRC_PEER_NONE;
}

/* The number of ranks a message on `comm` may name (on an intercommunicator, its remote group's: mpi4py.futures'
 * manager sends to its workers so; read in the local group, it named the wrong rank, or one past the group, which
 * crashed Open MPI's translation), its remoteness into *inter; 0 when the library cannot tell. */
static int partners_of(MPI_Comm comm, int *inter)
{
  int size = 0;
  *inter = 0;
  PMPI_Comm_test_inter(comm, inter);
  return (*inter ? PMPI_Comm_remote_size(comm, &size) : PMPI_Comm_size(comm, &size)) == MPI_SUCCESS ? size : 0;
}

int trc_to_world(MPI_Comm comm, int rank)
{
  if (rank == MPI_PROC_NULL)
    return TRC_PEER_NULL;
  if (rank < 0) /* MPI_ANY_SOURCE, or another special value */
    return TRC_PEER_NONE;
  if (comm == MPI_COMM_WORLD || !trc_active())
    return rank;
  for (int i = 0; i < ntranslated; i++)
    if (translated[i].comm == comm)
      return in_world(translated[i].world, translated[i].size, rank);
  int inter;
  int size = partners_of(comm, &inter);
  if (size <= 0)
    return rank;
  int *world = group_members(comm, size, inter);
  if (!world)
    return rank;
  if (ntranslated == cap_translated) {
    int more_cap = cap_translated ? 2 * cap_translated : 16;
    comm_ranks_t *more = realloc(translated, sizeof *more * (size_t)more_cap);
    if (!more) {
      int out = in_world(world, size, rank);
      free(world);
      return out;
    }
    translated = more;
    cap_translated = more_cap;
  }
  translated[ntranslated++] = (comm_ranks_t){.comm = comm, .world = world, .size = size};
  return in_world(world, size, rank);
}

int trc_partner(MPI_Comm comm, int rank)
{
  int peer = trc_to_world(comm, rank);
  if (peer == TRC_PEER_NONE && rank >= 0 && trc_active())
    trc_untraced("messages with processes outside the run (MPI_Comm_spawn's, MPI_Comm_connect's): no TI action");
  return peer;
}

void trc_comm_forget(MPI_Comm comm)
{
  for (int i = 0; i < ntranslated; i++)
    if (translated[i].comm == comm) {
      free(translated[i].world);
      translated[i--] = translated[--ntranslated];
    }
  for (int i = 0; i < nseen; i++)
    if (seen[i].comm == comm)
      seen[i] = seen[--nseen];
  for (int i = 0; i < nkeys; i++)
    if (keys[i].comm == comm)
      keys[i] = keys[--nkeys];
}

void trc_comm_reset(void)
{
  for (int i = 0; i < ntranslated; i++)
    free(translated[i].world);
  free(translated);
  translated = NULL;
  ntranslated = cap_translated = 0;
  for (int i = 0; i < ndefs; i++)
    free(defs[i].members);
  free(defs);
  free(seen);
  free(keys);
  defs = NULL;
  seen = keys = NULL;
  ndefs = nseen = cap_seen = nkeys = cap_keys = made_count = 0;
}

void trc_probed(double t, const char *name, trc_category_t category, MPI_Comm comm, const MPI_Status *status)
{
  int peer = status ? trc_to_world(comm, status->MPI_SOURCE) : -1;
  if (peer >= 0)
    trc_envelope(status->MPI_TAG, trc_comm_key(comm));
  trc_call(t, name, category, peer, 0, NULL);
}
