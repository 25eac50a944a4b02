/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the trace model (met_trace.c, met_trace_annex.c, met_trace_calls.c, met_trace_io.c...): the trace's
 * layout and the checks its pieces share. Nothing outside src/metrics/met_trace*.c includes it; the API is met_trace.h.
 */
#ifndef MET_TRACE_INTERNAL_H
#define MET_TRACE_INTERNAL_H

#include "bas_error.h"
#include "met_group_index.h"
#include "met_trace.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A rank's timeline, and the sums the analyses read, kept as intervals arrive (in both modes, so that both give the
 * same figures to the bit: every sum is taken in time order). phase_time is nphases x MET_CAT_COUNT. What every
 * interval updates comes first, in the first two cache lines (the timelines are allocated aligned, met_trace_new):
 * a simulation records each rank's intervals between turns of every other rank, so each line is a cache miss. */
typedef struct met_timeline {
  _Alignas(64) double last_end;
  double busy;
  double category[MET_CAT_COUNT];
  double *phase_time;
  size_t phase_rows;
  size_t comm_count;
  met_msg_group_t *groups; /* COMM intervals by (bytes, hops) */
  size_t ngroups;
  size_t last_group;     /* where the previous COMM interval went: a rank's messages tend to repeat */
  met_interval_t *items; /* NULL in an aggregate trace */
  size_t count;
  double anomaly;                   /* met_trace_add_anomaly's sums: the true anomaly */
  double host_speed;                /* and the host's speed */
  double any_parts[MET_PART_COUNT]; /* over all intervals (CTRL computations carry a split too) */
  size_t cap;
  size_t group_cap;
  met_coll_t *colls; /* collective spans (full traces only) */
  size_t ncolls;
  size_t coll_cap;
  met_group_index_t coll_keys; /* where spans have groups: the spans by (group, index), built by met_coll_moved */
  /* Ends of messages to this rank whose other end has not come yet (met_trace_pair.c), in lanes of one envelope each
   * (source, communicator, direction, tag): a lane's ends all pair alike, so the earliest is its head. */
  struct met_lane *lanes;
  size_t nlanes;
  size_t lane_cap;
  size_t *lane_slots; /* open addressing over the lanes: a lane's number + 1, 0 where none; a power of two, at most half
                       * full */
  size_t slot_cap;
  unsigned long long held_seq; /* the number of ends held so far: an end's place in the order they came */
  int call_dropped;            /* the call whose first piece met_trace_add dropped (empty), which its next starts */
  met_interval_t dropped;      /* that piece: the call's region where no piece of it follows (met_trace_add) */
} met_timeline_t;

/* A message's end waiting in its receiver's timeline for the other (met_trace_pair.c). */
typedef struct met_end {
  int from;
  int tag; /* a receive's: -1 for any */
  unsigned comm;
  int receiving; /* 1: a receiving end waiting for its send; 0: a send waiting for its receive */
  double start;  /* a send: its start; a receive: its interval's start */
  double end;    /* a receive: its interval's end */
  double bytes;  /* a receive: its group's key */
  int hops;
  size_t index; /* a receive: its place among its rank's intervals in a whole trace, in the file in a spilled one */
  unsigned long long seq; /* its place among the ends its timeline held */
} met_end_t;

/* The held ends of one envelope, oldest first (ends[head] .. ends[n - 1]); a group's lanes (one source, communicator
 * and direction, every tag) are chained from a lane of tag MET_LANE_GROUP that holds none, so that a receive from any
 * tag finds the oldest of their heads. */
enum { MET_LANE_GROUP = -2 };
typedef struct met_lane {
  int from;
  unsigned comm;
  int receiving;
  int tag;     /* a receive's -1: from any tag */
  size_t next; /* the next lane of the group + 1, 0 at its end (in the group's own lane: its first) */
  int chained; /* in its group's chain: an empty lane is taken out by an any-tag receive's walk */
  met_end_t *ends;
  size_t head, n, cap;
} met_lane_t;

/* The functions below take `counted`: whether `iv` counts its message at `rank` (met_message_ends). */
/* Looks up the other end of `iv` of `rank` once: makes room in the held ends for `iv` when it will have to wait, so
 * that pairing it cannot fail, and gives in *sent what `iv`'s met_interval_t.sent will be (its send's start when it is
 * a receiving end that counts its message and the send has come, never after its end; else its start). 0, or
 * BAS_ENOMEM. */
int met_trace_pair_room(met_trace_t *trace, int rank, const met_interval_t *iv, int counted, double *sent);
/* Pairs `iv`, just added to `rank`'s timeline (at `index` among its intervals in a whole trace, in the file in a
 * spilled one) after met_trace_pair_room, with its message's other end, or holds it (met_trace.h); a counting end
 * without a direction's transfer is its own length. Its group exists. */
void met_trace_pair(met_trace_t *trace, int rank, const met_interval_t *iv, size_t index, int counted);
/* Sets the `sent` of a spilled trace's interval number `at` in its file. 0, or BAS_EIO. */
int met_trace_spill_sent(met_trace_t *trace, size_t at, double sent);

/* Makes room for `rows` phases in the timeline's per-phase sums, the new ones zero. 0, or BAS_ENOMEM when out of
 * memory. */
int met_trace_grow_phases(met_timeline_t *timeline, size_t rows);
/* The timeline's group for a COMM interval like `iv` (its bytes and hops), created when new; NULL when out of memory
 * (met_trace_pair.c). */
met_msg_group_t *met_trace_group(met_timeline_t *timeline, const met_interval_t *iv);

typedef struct met_span_line {
  met_span_t *items;
  size_t count;
  size_t cap;
} met_span_line_t;

/* One rank's non-blocking collective calls (met_trace_nbc.c), in the order they completed. */
struct met_nbc_list {
  met_nbc_t *items;
  size_t n;
  size_t cap;
  met_group_index_t keys; /* the items by (group, seq), built by met_nbc_moved */
};

struct met_trace {
  int nranks;
  int aggregate; /* sums only, no intervals (met_trace_new_aggregate) */
  met_timeline_t *ranks;
  char **phases;
  size_t nphases;
  size_t phase_cap;
  char **calls; /* MPI call names (met_trace_call_id): call id k's is calls[k - 1] */
  size_t ncalls;
  size_t call_cap;
  int *call_slots; /* open addressing over the names by their hash: an id, 0 where none; a power of two, at most half
                    * full */
  size_t call_slot_cap;
  double end;
  met_span_line_t *units;  /* the annex: nranks x MET_UNIT_COUNT span lines, NULL until the first span (and in an
                            * aggregate trace) */
  met_request_t *requests; /* NULL in an aggregate trace */
  size_t nrequests;
  size_t request_cap;
  struct met_ce_sums *ce; /* the annex's cause-effect sums (met_ce.h), NULL until the first span or request */
  double *waits;          /* an aggregate trace's wait states summed while read (met_trace_sum_waits), or NULL */
  FILE *spill;            /* a spilled trace's intervals (met_trace_new_spilled), or NULL */
  size_t nspilled;
  int spill_failed; /* a held receive's send start could not be written to the file (met_trace_spill_walk fails) */
  int coll_bytes;   /* some collective span carries bytes (met_coll_t.bytes) */
  int coll_grouped; /* some collective span is on a group other than 0 */
  int coll_placed;  /* some collective span gives its place in its group (met_coll_t.place) */
  struct met_nbc_list *nbcs; /* nranks lists of non-blocking collective calls (met_trace_nbc.c), NULL until the first */
};

/* The other members of one collective call as met_coll_rule needs them: their bytes, those of the members before the
 * rank (in the group's order: met_coll_place), their number with the rank's, and how many come after it. */
typedef struct met_coll_peers {
  double others;
  double before;
  int members;
  int later;
} met_coll_peers_t;

/* `peers` with the call `their` of world rank `r` (NULL: none), as seen from `rank`, whose own is `mine`. */
void met_coll_peer_add(met_coll_peers_t *peers, const met_coll_t *mine, int rank, int r, const met_coll_t *their);

/* Into *sent and *received, the bytes `rank` moved in collective call `call` (its kind, operation, root and the bytes
 * its line gives) among `peers`: met_coll_moved's rules. */
void met_coll_rule(const met_coll_t *call, int rank, const met_coll_peers_t *peers, double *sent, double *received);

/* Frees the trace's call names (met_trace_calls.c). */
void met_trace_calls_free(met_trace_t *trace);

static inline bool valid_call(const met_trace_t *trace, int call)
{
  return call >= -(int)trace->ncalls && call <= (int)trace->ncalls;
}

/* Whether the trace keeps collective spans: a whole one, or a spilled one (for its wait states). */
static inline bool keeps_colls(const met_trace_t *trace)
{
  return !trace->aggregate || trace->spill;
}

/* Appends `iv` of `rank` to a spilled trace's file. 0, or BAS_EIO on a write error. */
int met_trace_spill(met_trace_t *trace, int rank, const met_interval_t *iv);

/* Makes room for `need` elements of `size` bytes in `items` by doubling its capacity `*cap`. Returns the (possibly
 * moved) array, or NULL when out of memory, in which case `items` and `*cap` are unchanged. */
static inline void *grow(void *items, size_t *cap, size_t need, size_t size)
{
  if (need <= *cap)
    return items;
  size_t n = *cap ? *cap : 8;
  while (n < need) {
    if (n > SIZE_MAX / 2 / size)
      return NULL;
    n *= 2;
  }
  void *moved = realloc(items, n * size);
  if (moved)
    *cap = n;
  return moved;
}

/* Appends a copy of `name` to the `*n` names of `*names` (capacity `*cap`). 0, or BAS_ENOMEM (they are then
 * unchanged). */
static inline int append_name(char ***names, size_t *n, size_t *cap, const char *name)
{
  char **grown = grow(*names, cap, *n + 1, sizeof *grown);
  if (!grown)
    return BAS_ENOMEM;
  *names = grown;
  size_t len = strlen(name) + 1;
  char *copy = malloc(len);
  if (!copy)
    return BAS_ENOMEM;
  memcpy(copy, name, len);
  grown[(*n)++] = copy;
  return 0;
}

static inline bool valid_rank(const met_trace_t *trace, int rank)
{
  return rank >= 0 && rank < trace->nranks;
}

/* A finite, non-negative number of seconds or bytes (false for NaN: both comparisons fail). Two comparisons rather
 * than isfinite's masking: every recorded interval checks seven of them. */
static inline bool valid_amount(double x)
{
  return x >= 0 && x <= DBL_MAX;
}

static inline bool valid_phase(const met_trace_t *trace, int phase)
{
  return phase >= 0 && (size_t)phase < trace->nphases;
}

#endif
