/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* OTF2 archives of kept traces, whole or spilled (rep_otf2.h): events per rank first, then the local and global
 * definitions, all in a temporary folder moved into place when complete. */
#define _XOPEN_SOURCE 700 /* mkdtemp, kill */
#include "rep_otf2.h"
#include "bas_error.h"
#include "rep_report.h"
#include "rep_otf2_calls.h"

#include <otf2/otf2.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { COMM_WORLD = 0, GROUP_LOCATIONS = 0, SYSTEM_NODE = 0, ATTRIBUTE_POLLS = 0 };

/* Region ids: the categories, then the MPI calls, then the phase labels, then the measured timeline's other calls
 * (call_regions_t). */
enum { REGION_CALL0 = MET_CAT_COUNT, REGION_PHASE0 = MET_CAT_COUNT + REP_CALL_COUNT };

/* The region of each MPI call a measured trace names (met_interval_t.call), a run of polls' that of its call (its
 * count an attribute of its ENTER event): one of the archives' calls when it has that name, otherwise one of the
 * regions after the phase labels, in order of first call id. */
typedef struct call_regions {
  uint32_t *of_call;         /* by call id, from 1 */
  unsigned long long *polls; /* by call id: a run of polls' count, 0 for another call */
  char **named;              /* the names of the regions after the phase labels */
  uint32_t nnamed;
  uint32_t named0;            /* the first of them */
  OTF2_AttributeList *counts; /* for the ENTER of a run of polls */
} call_regions_t;

/* String ids: 0 is "", then one per region, then a group name and a location name per rank, then the fixed names,
 * then one per communicator but the world. */
typedef struct archive_ids {
  uint32_t nregions;
  uint32_t group0;    /* "MPI Rank 0" */
  uint32_t location0; /* "Rank 0 thread 0" */
  uint32_t fixed0;    /* "MPI_COMM_WORLD", "simrun", "machine", the polls attribute's name and description */
  uint32_t comm0;     /* "communicator 1" */
} archive_ids_t;

/* One rank's event writer with its open regions: a phase, in it a collective call, in either a point-to-point call or
 * the MPI call a measured interval names, and in that the interval's category. */
typedef struct rank_events {
  OTF2_EvtWriter *writer;
  const met_trace_t *trace;
  const rep_otf2_comms_t *comms;
  const call_regions_t *calls;
  int rank;
  OTF2_TimeStamp last; /* the last timestamp written: OTF2 needs them in order on a location */
  double at;           /* the end of the rank's last interval so far */
  int phase;           /* the open phase, or -1 */
  int call;            /* the open call's region (a send, a receive, a measured interval's call), or -1 */
  int call_peer;
  const met_coll_t *spans; /* the rank's collective spans, `next` the first not yet opened */
  size_t nspans, next;
  const met_coll_t *coll; /* the open collective span, or NULL */
  rep_otf2_call_t coll_call;
  uint32_t comm;
  uint64_t sent, received; /* bytes moved in the open collective */
  const met_nbc_t *nbcs;   /* the rank's non-blocking collectives (met_trace_nbcs), in the order they completed, */
  size_t nnbcs, done;      /* `done` the first not written as completed; */
  size_t *by_post;         /* the numbers of those every member has (met_nbc_moved), `nposts` of them, in the order */
  size_t nposts, posted;   /* they were initiated, `posted` the first not written as requested (NULL, nnbcs then 0:
                            * none, or out of memory, rc then says) */
  OTF2_ErrorCode rc;       /* the first failure */
} rank_events_t;

static OTF2_TimeStamp ticks(double seconds)
{
  return (OTF2_TimeStamp)llround(seconds * 1e9); /* nanoseconds */
}

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef location, void *caller, bool final)
{
  return OTF2_FLUSH;
}

/* No post-flush callback: OTF2 then writes no BUFFER_FLUSH record into the events (a flush of simrun's is no event of
 * the run). */
static const OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = pre_flush, .otf2_post_flush = NULL};

/* A writer's chunks (OTF2's memory callbacks): at most CHUNKS_HELD of them, then OTF2 flushes the writer's buffer to
 * its file and frees them all. OTF2's own pool holds 128 MiB a writer: a spilled trace's writers are open together. */
enum { CHUNKS_HELD = 4 };

typedef struct chunks {
  void *chunk[CHUNKS_HELD];
  int n;
} chunks_t;

static void *chunk_allocate(void *user, OTF2_FileType type, OTF2_LocationRef location, void **per_buffer, uint64_t size)
{
  chunks_t *c = *per_buffer ? *per_buffer : (*per_buffer = calloc(1, sizeof(chunks_t)));
  if (!c || c->n == CHUNKS_HELD)
    return NULL; /* a flush, then chunk_free_all, then this again */
  void *chunk = malloc(size);
  if (chunk)
    c->chunk[c->n++] = chunk;
  return chunk;
}

static void chunk_free_all(void *user, OTF2_FileType type, OTF2_LocationRef location, void **per_buffer, bool final)
{
  chunks_t *c = *per_buffer;
  for (int i = 0; c && i < c->n; i++)
    free(c->chunk[i]);
  if (c)
    c->n = 0;
  if (final) {
    free(c);
    *per_buffer = NULL;
  }
}

static const OTF2_MemoryCallbacks memory_callbacks = {.otf2_allocate = chunk_allocate, .otf2_free_all = chunk_free_all};

static void check(rank_events_t *ev, OTF2_ErrorCode rc)
{
  if (ev->rc == OTF2_SUCCESS)
    ev->rc = rc;
}

/* The timestamp of `t`, never before the last one written. */
static OTF2_TimeStamp stamp(rank_events_t *ev, double t)
{
  OTF2_TimeStamp at = ticks(t);
  if (at < ev->last)
    at = ev->last;
  return ev->last = at;
}

static void region(rank_events_t *ev, double t, uint32_t id, int entering)
{
  OTF2_TimeStamp at = stamp(ev, t);
  check(ev, entering ? OTF2_EvtWriter_Enter(ev->writer, NULL, at, id) : OTF2_EvtWriter_Leave(ev->writer, NULL, at, id));
}

static void close_call(rank_events_t *ev, double t)
{
  if (ev->call >= 0)
    region(ev, t, (uint32_t)ev->call, 0);
  ev->call = -1;
}

static void open_coll(rank_events_t *ev, const met_coll_t *span)
{
  close_call(ev, span->start);
  ev->coll = span;
  ev->coll_call = rep_otf2_coll_call(span, met_trace_phase_name(ev->trace, ev->phase));
  ev->comm = rep_otf2_comms_find(ev->comms, span->group);
  ev->sent = ev->received = 0;
  region(ev, span->start, REGION_CALL0 + ev->coll_call, 1);
  check(ev, OTF2_EvtWriter_MpiCollectiveBegin(ev->writer, NULL, stamp(ev, span->start)));
}

/* Closes the open collective with the bytes its messages moved, or, when the trace holds none for it (a measured
 * call), those its span gives (met_coll_moved). */
static void close_coll(rank_events_t *ev)
{
  double end = ev->coll->end;
  close_call(ev, end);
  uint32_t root = rep_otf2_comms_rank(ev->comms, ev->comm, ev->coll->root);
  if (ev->sent == 0 && ev->received == 0) {
    double sent, received;
    met_coll_moved(ev->trace, ev->rank, (size_t)(ev->coll - ev->spans), &sent, &received);
    ev->sent = (uint64_t)llround(sent);
    ev->received = (uint64_t)llround(received);
  }
  check(ev, OTF2_EvtWriter_MpiCollectiveEnd(ev->writer, NULL, stamp(ev, end), rep_otf2_call_op(ev->coll_call), ev->comm,
                                            root, ev->sent, ev->received));
  region(ev, end, REGION_CALL0 + ev->coll_call, 0);
  ev->coll = NULL;
}

/* Closes the open collective when it ended by `t`; for an empty interval at `t` (a message's end at the collective's
 * end, an eager send's, is one of its pieces) only when it ended before, or when the next collective starts at `t`
 * (then the piece is that one's first: the trace does not tell them apart). */
static void close_ended(rank_events_t *ev, double t, int empty)
{
  int next_starts = ev->next < ev->nspans && ev->spans[ev->next].start == t;
  if (ev->coll && (ev->coll->end < t || (ev->coll->end == t && (!empty || next_starts))))
    close_coll(ev);
}

/* Opens (and closes, when they end by then: close_ended) the collectives that started by `t`. */
static void open_started(rank_events_t *ev, double t, int empty)
{
  while (!ev->coll && ev->next < ev->nspans && ev->spans[ev->next].start <= t) {
    open_coll(ev, &ev->spans[ev->next++]);
    close_ended(ev, t, empty);
  }
}

/* Moves into phase `phase` (-1: none) at `t`; within a collective call the phase stays the call's. */
static void set_phase(rank_events_t *ev, int phase, double t)
{
  if (ev->coll || phase == ev->phase)
    return;
  close_call(ev, t);
  if (ev->phase >= 0)
    region(ev, t, REGION_PHASE0 + (uint32_t)ev->phase, 0);
  if (phase >= 0)
    region(ev, t, REGION_PHASE0 + (uint32_t)phase, 1);
  ev->phase = phase;
}

/* Everything that happens at `t` before an interval of phase `phase` starts there (an empty one when `empty`). */
static void reach(rank_events_t *ev, int phase, double t, int empty)
{
  close_ended(ev, t, empty);
  set_phase(ev, phase, t);
  open_started(ev, t, empty);
}

/* Idle from `from` to `to` (a gap in the trace, or the tail up to T_par), outside any phase, cut where a collective
 * call starts or ends. */
static void idle(rank_events_t *ev, double from, double to)
{
  while (from < to) {
    reach(ev, -1, from, 0);
    close_call(ev, from);
    double cut = to;
    if (ev->coll && ev->coll->end > from && ev->coll->end < to)
      cut = ev->coll->end;
    else if (!ev->coll && ev->next < ev->nspans && ev->spans[ev->next].start < to)
      cut = ev->spans[ev->next].start;
    region(ev, from, MET_CAT_IDLE, 1);
    region(ev, cut, MET_CAT_IDLE, 0);
    from = cut;
  }
}

/* The region of the call an interval belongs to outside collectives: the MPI call a measured interval names, else a
 * send or receive for either end of a message, its wait included (an idle interval with a peer); -1 for anything
 * else (inside a collective, the collective's region is the call). */
static int call_region(const rank_events_t *ev, const met_interval_t *iv)
{
  if (ev->coll)
    return -1;
  if (iv->call != 0)
    return (int)ev->calls->of_call[abs(iv->call)];
  if ((iv->category != MET_CAT_COMM && iv->category != MET_CAT_IDLE) || iv->peer < 0 || iv->dir == MET_DIR_NONE)
    return -1;
  return REGION_CALL0 + (iv->dir == MET_DIR_SEND ? REP_CALL_SEND : REP_CALL_RECV);
}

/* A message's send (at its start) or receive (at its end) with its tag, on its communicator when the archive defines
 * it and has the peer in it (the world otherwise, where the peer is its world rank). A collective call's messages stay
 * on the world, as the trace has them: ViTE 1.2 cannot place a message's end on a sub-communicator (it aborts). */
static void message(rank_events_t *ev, const met_interval_t *iv, uint64_t bytes)
{
  uint32_t comm = rep_otf2_comms_find(ev->comms, iv->comm);
  uint32_t peer = rep_otf2_comms_rank(ev->comms, comm, iv->peer);
  if (peer == OTF2_UNDEFINED_UINT32) {
    comm = COMM_WORLD;
    peer = (uint32_t)iv->peer;
  }
  uint32_t tag = iv->tag >= 0 ? (uint32_t)iv->tag : OTF2_UNDEFINED_UINT32; /* a receive from any tag */
  if (iv->dir == MET_DIR_SEND)
    check(ev, OTF2_EvtWriter_MpiSend(ev->writer, NULL, stamp(ev, iv->start), peer, comm, tag, bytes));
  else
    check(ev, OTF2_EvtWriter_MpiRecv(ev->writer, NULL, stamp(ev, iv->end), peer, comm, tag, bytes));
}

/* The non-blocking collective request `k` (its number in completion order, its id). */
static void nbc_request(rank_events_t *ev, size_t k)
{
  check(ev, OTF2_EvtWriter_NonBlockingCollectiveRequest(ev->writer, NULL, stamp(ev, ev->nbcs[k].posted), k));
}

/* The non-blocking collectives the rank initiated in interval `iv` (at its start, as placed, to the rounding), each a
 * NonBlockingCollectiveRequest: not in an empty interval (a message's end at that instant, or a wait's end where the
 * next initiation starts, which is not that call). */
static void nbc_requests(rank_events_t *ev, const met_interval_t *iv)
{
  for (; iv->end > iv->start && ev->posted < ev->nposts && ev->nbcs[ev->by_post[ev->posted]].posted < iv->end;
       ev->posted++)
    nbc_request(ev, ev->by_post[ev->posted]);
}

/* The non-blocking collectives every member has that the rank completed by `t` (the end of the wait or test that
 * did), each a NonBlockingCollectiveComplete with its operation, communicator, root and the bytes it moved
 * (met_nbc_moved), after its request (written here when its initiation's interval was not: those initiated no later
 * than it, up to it, none after). */
static void nbc_completes(rank_events_t *ev, double t)
{
  for (; ev->done < ev->nnbcs && ev->nbcs[ev->done].completed <= t; ev->done++) {
    const met_nbc_t *nbc = &ev->nbcs[ev->done];
    double sent, received;
    if (!met_nbc_moved(ev->trace, ev->rank, ev->done, &sent, &received))
      continue;
    while (ev->posted < ev->nposts && ev->nbcs[ev->by_post[ev->posted]].posted <= nbc->posted) {
      size_t k = ev->by_post[ev->posted++];
      nbc_request(ev, k);
      if (k == ev->done)
        break;
    }
    const met_coll_t as_span = met_nbc_coll(nbc);
    uint32_t comm = rep_otf2_comms_find(ev->comms, nbc->group);
    check(ev, OTF2_EvtWriter_NonBlockingCollectiveComplete(
                  ev->writer, NULL, stamp(ev, nbc->completed), rep_otf2_call_op(rep_otf2_coll_call(&as_span, NULL)),
                  comm, rep_otf2_comms_rank(ev->comms, comm, nbc->root), (uint64_t)llround(sent),
                  (uint64_t)llround(received), ev->done));
  }
}

/* One interval: its phase and calls, its category, and a message's events (within a collective call, its bytes
 * count in the call's too), and the non-blocking collectives initiated and completed in it. */
static void interval(rank_events_t *ev, const met_interval_t *iv)
{
  reach(ev, iv->phase, iv->start, iv->end == iv->start);
  int call = call_region(ev, iv);
  int starts = iv->call > 0 || (iv->call == 0 && iv->peer != ev->call_peer); /* a measured call's later piece: not */
  if (call != ev->call || starts)
    close_call(ev, iv->start);
  if (call >= 0 && ev->call < 0) {
    unsigned long long polls = iv->call ? ev->calls->polls[abs(iv->call)] : 0;
    if (polls)
      check(ev, OTF2_AttributeList_AddUint64(ev->calls->counts, ATTRIBUTE_POLLS, polls)); /* emptied once written */
    check(ev, OTF2_EvtWriter_Enter(ev->writer, polls ? ev->calls->counts : NULL, stamp(ev, iv->start), (uint32_t)call));
    ev->call = call;
    ev->call_peer = iv->peer;
  }
  region(ev, iv->start, iv->category, 1);
  nbc_requests(ev, iv);
  uint64_t bytes = (uint64_t)llround(iv->bytes);
  if (iv->category == MET_CAT_COMM && iv->dir != MET_DIR_NONE) {
    message(ev, iv, bytes);
    *(iv->dir == MET_DIR_SEND ? &ev->sent : &ev->received) += bytes;
  }
  nbc_completes(ev, iv->end);
  region(ev, iv->end, iv->category, 0);
  if (iv->category == MET_CAT_COMM && iv->call == 0)
    close_call(ev, iv->end); /* the message is over, and so is its call (a measured call ends where its pieces do) */
}

/* Opens rank `rank`'s event writer in *ev. */
static void rank_begin(rank_events_t *ev, OTF2_Archive *archive, const met_trace_t *trace,
                       const rep_otf2_comms_t *comms, const call_regions_t *calls, int rank)
{
  *ev = (rank_events_t){.writer = OTF2_Archive_GetEvtWriter(archive, (OTF2_LocationRef)rank),
                        .trace = trace,
                        .comms = comms,
                        .calls = calls,
                        .rank = rank,
                        .phase = -1,
                        .call = -1};
  ev->spans = met_trace_colls(trace, rank, &ev->nspans);
  ev->nbcs = met_trace_nbcs(trace, rank, &ev->nnbcs);
  double sent, received;
  if (ev->nnbcs && (ev->by_post = malloc(ev->nnbcs * sizeof *ev->by_post)))
    for (size_t i = 0; i < ev->nnbcs; i++) { /* by insertion: the outstanding calls only can be out of order */
      if (!met_nbc_moved(trace, rank, i, &sent, &received))
        continue; /* a member lacks it: neither request nor completion */
      size_t at = ev->nposts++;
      for (; at > 0 && ev->nbcs[ev->by_post[at - 1]].posted > ev->nbcs[i].posted; at--)
        ev->by_post[at] = ev->by_post[at - 1];
      ev->by_post[at] = i;
    }
  if (!ev->writer || (ev->nnbcs && !ev->by_post))
    ev->rc = OTF2_ERROR_MEM_ALLOC_FAILED;
  if (!ev->by_post)
    ev->nnbcs = 0; /* none to write: rank_end still walks them */
}

/* The ranks whose events are being written, from `first` (rank_events_t each). */
typedef struct batch {
  rank_events_t *ranks;
  int first;
} batch_t;

/* met_trace_walk's step: the idle time before the rank's next interval, then the interval. Stops the walk (-1) at
 * the rank's first failure. */
static int rank_interval(void *ctx, int rank, const met_interval_t *iv)
{
  rank_events_t *ev = &((batch_t *)ctx)->ranks[rank - ((batch_t *)ctx)->first];
  if (ev->rc == OTF2_SUCCESS) {
    idle(ev, ev->at, iv->start);
    interval(ev, iv);
    ev->at = iv->end;
  }
  return ev->rc == OTF2_SUCCESS ? 0 : -1;
}

/* Ends the rank's events (idle to T_par, the collectives and calls still open) and closes its writer; its event count
 * in *count. */
static OTF2_ErrorCode rank_end(rank_events_t *ev, OTF2_Archive *archive, uint64_t *count)
{
  if (!ev->writer) {
    free(ev->by_post);
    return ev->rc;
  }
  idle(ev, ev->at, met_trace_end(ev->trace));
  nbc_completes(ev, INFINITY); /* none where each went in as placed */
  free(ev->by_post);
  open_started(ev, INFINITY, 0);
  if (ev->coll)
    close_coll(ev);
  close_call(ev, ev->at);
  set_phase(ev, -1, ev->at);
  check(ev, OTF2_EvtWriter_GetNumberOfEvents(ev->writer, count));
  check(ev, OTF2_Archive_CloseEvtWriter(archive, ev->writer));
  return ev->rc;
}

/* Ranks written in one pass over a spilled trace's file: their writers are open together, CHUNKS_HELD of 1 MiB each. */
enum { SPILL_BATCH = 16 };

/* Every rank's events: a whole trace's rank after rank, a spilled one's in passes over its file of SPILL_BATCH ranks
 * (met_trace_walk). */
static OTF2_ErrorCode write_events(OTF2_Archive *archive, const met_trace_t *trace, const rep_otf2_comms_t *comms,
                                   const call_regions_t *calls, uint64_t *counts)
{
  int nranks = met_trace_nranks(trace), size = met_trace_is_spilled(trace) ? SPILL_BATCH : 1;
  rank_events_t ranks[SPILL_BATCH];
  OTF2_ErrorCode rc = OTF2_Archive_OpenEvtFiles(archive);
  for (int first = 0; rc == OTF2_SUCCESS && first < nranks; first += size) {
    int n = nranks - first < size ? nranks - first : size;
    for (int i = 0; i < n; i++)
      rank_begin(&ranks[i], archive, trace, comms, calls, first + i);
    batch_t batch = {ranks, first};
    int walked = met_trace_walk(trace, first, first + n - 1, rank_interval, &batch);
    for (int i = 0; i < n; i++) {
      OTF2_ErrorCode ended = rank_end(&ranks[i], archive, &counts[first + i]);
      rc = rc == OTF2_SUCCESS ? ended : rc;
    }
    if (rc == OTF2_SUCCESS && walked != 0)
      rc = OTF2_ERROR_EIO; /* the spilled file could not be read */
  }
  return rc == OTF2_SUCCESS ? OTF2_Archive_CloseEvtFiles(archive) : rc;
}

/* Every location's local definitions, empty (the global ones say it all), as readers expect the files. */
static OTF2_ErrorCode write_local_defs(OTF2_Archive *archive, int nranks)
{
  OTF2_ErrorCode rc = OTF2_Archive_OpenDefFiles(archive);
  for (int r = 0; rc == OTF2_SUCCESS && r < nranks; r++) {
    OTF2_DefWriter *writer = OTF2_Archive_GetDefWriter(archive, (OTF2_LocationRef)r);
    rc = writer ? OTF2_Archive_CloseDefWriter(archive, writer) : OTF2_ERROR_MEM_ALLOC_FAILED;
  }
  return rc == OTF2_SUCCESS ? OTF2_Archive_CloseDefFiles(archive) : rc;
}

/* The name of region `i`: a category, an MPI call, a phase label or a measured call. */
static const char *region_name(const met_trace_t *trace, const call_regions_t *calls, uint32_t i)
{
  if (i < REGION_CALL0)
    return met_category_name((met_category_t)i);
  if (i < REGION_PHASE0)
    return rep_otf2_call_name((rep_otf2_call_t)(i - REGION_CALL0));
  if (i < calls->named0)
    return met_trace_phase_name(trace, (int)(i - REGION_PHASE0));
  return calls->named[i - calls->named0];
}

static OTF2_ErrorCode write_strings(OTF2_GlobalDefWriter *defs, const met_trace_t *trace, const call_regions_t *calls,
                                    const archive_ids_t *ids, size_t ncomms)
{
  char name[48];
  OTF2_ErrorCode rc = OTF2_GlobalDefWriter_WriteString(defs, 0, "");
  for (uint32_t i = 0; rc == OTF2_SUCCESS && i < ids->nregions; i++)
    rc = OTF2_GlobalDefWriter_WriteString(defs, 1 + i, region_name(trace, calls, i));
  int nranks = met_trace_nranks(trace);
  for (int r = 0; rc == OTF2_SUCCESS && r < 2 * nranks; r++) {
    snprintf(name, sizeof name, r < nranks ? "MPI Rank %d" : "Rank %d thread 0", r % nranks);
    rc = OTF2_GlobalDefWriter_WriteString(defs, ids->group0 + (uint32_t)r, name);
  }
  static const char *const fixed[] = {"MPI_COMM_WORLD", "simrun", "machine", "polls",
                                      "the unsuccessful polls of a run of them (docs/tracer.md)"};
  for (uint32_t i = 0; rc == OTF2_SUCCESS && i < 5; i++)
    rc = OTF2_GlobalDefWriter_WriteString(defs, ids->fixed0 + i, fixed[i]);
  for (size_t c = 1; rc == OTF2_SUCCESS && c < ncomms; c++) {
    snprintf(name, sizeof name, "communicator %zu", c);
    rc = OTF2_GlobalDefWriter_WriteString(defs, ids->comm0 + (uint32_t)c - 1, name);
  }
  return rc;
}

/* Regions: one per category (idling and communication as MPI work outside any call), one per MPI call, one per phase
 * label, one per other call a measured trace names. */
static OTF2_ErrorCode write_regions(OTF2_GlobalDefWriter *defs, const met_trace_t *trace, const call_regions_t *calls,
                                    const archive_ids_t *ids)
{
  OTF2_ErrorCode rc = OTF2_SUCCESS;
  for (uint32_t i = 0; rc == OTF2_SUCCESS && i < ids->nregions; i++) {
    int named = i >= calls->named0;
    int mpi = i == MET_CAT_COMM || i == MET_CAT_IDLE || (i >= REGION_CALL0 && i < REGION_PHASE0) || named;
    OTF2_RegionRole role = named                ? rep_otf2_name_role(region_name(trace, calls, i))
                           : i >= REGION_PHASE0 ? OTF2_REGION_ROLE_CODE
                           : i >= REGION_CALL0  ? rep_otf2_call_role((rep_otf2_call_t)(i - REGION_CALL0))
                                                : OTF2_REGION_ROLE_FUNCTION;
    rc = OTF2_GlobalDefWriter_WriteRegion(defs, i, 1 + i, 1 + i, 0, role, mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
                                          OTF2_REGION_FLAG_NONE, 0, 0, 0);
  }
  return rc;
}

/* The communicators: group 1 + K holds communicator K's members; the world is every other's parent. */
static OTF2_ErrorCode write_comms(OTF2_GlobalDefWriter *defs, const archive_ids_t *ids, const rep_otf2_comms_t *comms)
{
  OTF2_ErrorCode rc = OTF2_SUCCESS;
  for (uint32_t c = 0; rc == OTF2_SUCCESS && c < rep_otf2_comms_count(comms); c++) {
    uint32_t count;
    const uint64_t *members = rep_otf2_comms_members(comms, c, &count);
    rc = OTF2_GlobalDefWriter_WriteGroup(defs, 1 + c, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                         OTF2_GROUP_FLAG_NONE, count, members);
    if (rc == OTF2_SUCCESS)
      rc = OTF2_GlobalDefWriter_WriteComm(defs, c, c == 0 ? ids->fixed0 : ids->comm0 + c - 1, 1 + c,
                                          c == 0 ? OTF2_UNDEFINED_COMM : COMM_WORLD, OTF2_COMM_FLAG_NONE);
  }
  return rc;
}

/* The machine, a process ("MPI Rank I") and a location in it ("Rank I thread 0") per rank, each name unique as ViTE
 * needs, and the communicators. */
static OTF2_ErrorCode write_ranks(OTF2_GlobalDefWriter *defs, const archive_ids_t *ids, const rep_otf2_comms_t *comms,
                                  const uint64_t *counts)
{
  OTF2_ErrorCode rc = OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, SYSTEM_NODE, ids->fixed0 + 1, ids->fixed0 + 2,
                                                               OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  uint32_t nranks;
  const uint64_t *world = rep_otf2_comms_members(comms, COMM_WORLD, &nranks);
  for (uint32_t r = 0; rc == OTF2_SUCCESS && r < nranks; r++)
    rc = OTF2_GlobalDefWriter_WriteLocationGroup(defs, r, ids->group0 + r, OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                 SYSTEM_NODE, OTF2_UNDEFINED_LOCATION_GROUP);
  for (uint32_t r = 0; rc == OTF2_SUCCESS && r < nranks; r++)
    rc = OTF2_GlobalDefWriter_WriteLocation(defs, r, ids->location0 + r, OTF2_LOCATION_TYPE_CPU_THREAD, counts[r], r);
  if (rc == OTF2_SUCCESS)
    rc = OTF2_GlobalDefWriter_WriteGroup(defs, GROUP_LOCATIONS, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                         OTF2_GROUP_FLAG_NONE, nranks, world);
  return rc == OTF2_SUCCESS ? write_comms(defs, ids, comms) : rc;
}

static OTF2_ErrorCode write_global_defs(OTF2_Archive *archive, const met_trace_t *trace, const rep_otf2_comms_t *comms,
                                        const call_regions_t *calls, const uint64_t *counts)
{
  OTF2_GlobalDefWriter *defs = OTF2_Archive_GetGlobalDefWriter(archive);
  if (!defs)
    return OTF2_ERROR_MEM_ALLOC_FAILED;
  uint32_t nranks = (uint32_t)met_trace_nranks(trace);
  archive_ids_t ids = {.nregions = calls->named0 + calls->nnamed};
  ids.group0 = 1 + ids.nregions;
  ids.location0 = ids.group0 + nranks;
  ids.fixed0 = ids.location0 + nranks;
  ids.comm0 = ids.fixed0 + 5;
  OTF2_ErrorCode rc = OTF2_GlobalDefWriter_WriteClockProperties(defs, 1000000000, 0, ticks(met_trace_end(trace)) + 1,
                                                                OTF2_UNDEFINED_TIMESTAMP);
  if (rc == OTF2_SUCCESS)
    rc = write_strings(defs, trace, calls, &ids, rep_otf2_comms_count(comms));
  if (rc == OTF2_SUCCESS)
    rc = write_regions(defs, trace, calls, &ids);
  if (rc == OTF2_SUCCESS)
    rc = OTF2_GlobalDefWriter_WriteAttribute(defs, ATTRIBUTE_POLLS, ids.fixed0 + 3, ids.fixed0 + 4, OTF2_TYPE_UINT64);
  return rc == OTF2_SUCCESS ? write_ranks(defs, &ids, comms, counts) : rc;
}

static void call_regions_free(call_regions_t *calls)
{
  for (uint32_t i = 0; calls->named && i < calls->nnamed; i++)
    free(calls->named[i]);
  free(calls->named);
  free(calls->of_call);
  free(calls->polls);
  if (calls->counts)
    OTF2_AttributeList_Delete(calls->counts);
}

/* The region of call `name` (its count left out: rep_otf2_name_call), a new one after the others when none has its
 * name (`name` is then kept, else freed). */
static uint32_t region_of(call_regions_t *calls, char *name)
{
  rep_otf2_call_t known = rep_otf2_call_named(name);
  uint32_t i = 0;
  while (known == REP_CALL_COUNT && i < calls->nnamed && strcmp(calls->named[i], name) != 0)
    i++;
  if (known == REP_CALL_COUNT && i == calls->nnamed)
    calls->named[calls->nnamed++] = name;
  else
    free(name);
  return known != REP_CALL_COUNT ? REGION_CALL0 + (uint32_t)known : calls->named0 + i;
}

/* The regions of the trace's call names (call_regions_t). 0, or -1 when out of memory. */
static int call_regions_make(const met_trace_t *trace, call_regions_t *calls)
{
  size_t n = (size_t)met_trace_call_count(trace);
  *calls = (call_regions_t){.of_call = calloc(n + 1, sizeof *calls->of_call),
                            .polls = calloc(n + 1, sizeof *calls->polls),
                            .named = calloc(n + 1, sizeof *calls->named),
                            .named0 = REGION_PHASE0 + (uint32_t)met_trace_phase_count(trace),
                            .counts = OTF2_AttributeList_New()};
  int failed = !calls->of_call || !calls->polls || !calls->named || !calls->counts;
  for (int id = 1; !failed && (size_t)id <= n; id++) {
    const char *name = met_trace_call_name(trace, id);
    char *call = strndup(name, rep_otf2_name_call(name, &calls->polls[id]));
    failed = !call;
    if (call)
      calls->of_call[id] = region_of(calls, call);
  }
  if (failed)
    call_regions_free(calls);
  return failed ? -1 : 0;
}

/* The archive `name` in folder `dir`. */
static OTF2_ErrorCode write_archive(const met_trace_t *trace, const char *dir, const char *name)
{
  call_regions_t calls;
  if (call_regions_make(trace, &calls) != 0)
    return OTF2_ERROR_MEM_ALLOC_FAILED;
  uint64_t *counts = calloc((size_t)met_trace_nranks(trace), sizeof *counts);
  rep_otf2_comms_t *comms = counts ? rep_otf2_comms_new(trace) : NULL;
  OTF2_Archive *archive = comms ? OTF2_Archive_Open(dir, name, OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                                    OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE)
                                : NULL;
  OTF2_ErrorCode rc =
      archive ? OTF2_Archive_SetFlushCallbacks(archive, &flush_callbacks, NULL) : OTF2_ERROR_MEM_ALLOC_FAILED;
  if (rc == OTF2_SUCCESS)
    rc = OTF2_Archive_SetMemoryCallbacks(archive, &memory_callbacks, NULL);
  if (rc == OTF2_SUCCESS)
    rc = OTF2_Archive_SetSerialCollectiveCallbacks(archive);
  if (rc == OTF2_SUCCESS)
    rc = write_events(archive, trace, comms, &calls, counts);
  if (rc == OTF2_SUCCESS)
    rc = write_local_defs(archive, met_trace_nranks(trace));
  if (rc == OTF2_SUCCESS)
    rc = write_global_defs(archive, trace, comms, &calls, counts);
  OTF2_ErrorCode closed = archive ? OTF2_Archive_Close(archive) : OTF2_SUCCESS;
  call_regions_free(&calls);
  rep_otf2_comms_free(comms);
  free(counts);
  return rc == OTF2_SUCCESS ? closed : rc;
}

/* Moves the archive's folder, definitions and anchor file from `temp` into `dir`, the anchor last, replacing an
 * earlier archive of the same name. 0, or -1 with errno set. */
static int move_archive(const char *temp, const char *dir, const char *name)
{
  static const char *const suffixes[] = {"", ".def", ".otf2"};
  char from[8192], to[8192];
  for (size_t i = 0; i < 3; i++) {
    snprintf(from, sizeof from, "%s/%s%s", temp, name, suffixes[i]);
    snprintf(to, sizeof to, "%s/%s%s", dir, name, suffixes[i]);
    if (i == 0)
      rep_file_remove_tree(to);
    if (rename(from, to) != 0)
      return -1;
  }
  return 0;
}

/* An archive built in `temp`, to be moved into `dir` as `name` (rep_file_defer's state). */
typedef struct archive_move {
  char temp[4096];
  char dir[4096];
  char name[256];
} archive_move_t;

static int move_commit(void *state, char *err, size_t errlen)
{
  archive_move_t *m = state;
  int rc = move_archive(m->temp, m->dir, m->name);
  if (rc != 0)
    snprintf(err, errlen, "cannot move the OTF2 archive '%s' into '%s': %s", m->name, m->dir, strerror(errno));
  rep_file_remove_tree(m->temp);
  free(m);
  return rc;
}

static void move_rollback(void *state)
{
  archive_move_t *m = state;
  rep_file_remove_tree(m->temp);
  free(m);
}

/* Removes the temporary folders ".simrun-otf2.PID.XXXXXX" in `dir` that a killed simrun left (its process is gone). */
static void remove_stale(const char *dir)
{
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));) {
    char *end = NULL;
    if (strncmp(e->d_name, ".simrun-otf2.", 13) != 0)
      continue;
    long pid = strtol(e->d_name + 13, &end, 10);
    char stale[8192];
    snprintf(stale, sizeof stale, "%s/%s", dir, e->d_name);
    if (pid > 0 && *end == '.' && kill((pid_t)pid, 0) != 0 && errno == ESRCH)
      rep_file_remove_tree(stale);
  }
  if (d)
    closedir(d);
}

/* libotf2's first error while an archive is written, kept for the one error line instead of the lines libotf2 would
 * print to standard error (a full disk gave ten). */
typedef struct otf2_first_error {
  char text[600];
} otf2_first_error_t;

static OTF2_ErrorCode keep_first_error(void *data, const char *file, uint64_t line, const char *function,
                                       OTF2_ErrorCode code, const char *format, va_list va)
{
  otf2_first_error_t *first = data;
  if (first->text[0] == '\0') {
    int n = snprintf(first->text, sizeof first->text, "%s (", OTF2_Error_GetDescription(code));
    if (n > 0 && (size_t)n < sizeof first->text)
      n += vsnprintf(first->text + n, sizeof first->text - (size_t)n, format ? format : "", va);
    if (n > 0 && (size_t)n + 2 < sizeof first->text)
      strcat(first->text, ")");
  }
  return code;
}

int rep_otf2_write(const met_trace_t *trace, const char *dir, const char *name, char *err, size_t errlen)
{
  archive_move_t *m = calloc(1, sizeof *m);
  if (!m) {
    snprintf(err, errlen, "out of memory");
    return BAS_ENOMEM;
  }
  remove_stale(dir);
  snprintf(m->temp, sizeof m->temp, "%s/.simrun-otf2.%ld.XXXXXX", dir, (long)getpid());
  snprintf(m->dir, sizeof m->dir, "%s", dir);
  snprintf(m->name, sizeof m->name, "%s", name);
  if (!mkdtemp(m->temp)) {
    snprintf(err, errlen, "cannot write in '%s': %s; check that the folder exists and is writable", dir,
             strerror(errno));
    free(m);
    return BAS_EIO;
  }
  char temp[sizeof m->temp]; /* guarded while written: a run ended meanwhile removes it (rep_file_close_all) */
  snprintf(temp, sizeof temp, "%s", m->temp);
  if (rep_file_guard_tree(temp) != 0) {
    snprintf(err, errlen, "out of memory");
    move_rollback(m);
    return BAS_ENOMEM;
  }
  otf2_first_error_t first = {""};
  OTF2_ErrorCallback before = OTF2_Error_RegisterCallback(keep_first_error, &first);
  OTF2_ErrorCode rc = write_archive(trace, m->temp, name);
  OTF2_Error_RegisterCallback(before, NULL);
  int result = 0;
  if (rc == OTF2_SUCCESS) /* moved now, or with the run's other outputs inside the output transaction */
    result = rep_file_defer(move_commit, move_rollback, m, err, errlen);
  else {
    snprintf(err, errlen, "writing the OTF2 archive '%s/%s.otf2' failed: %s; check the space and the rights in '%s'",
             dir, name, first.text[0] ? first.text : OTF2_Error_GetDescription(rc), dir);
    move_rollback(m);
    result = -1;
  }
  rep_file_unguard_tree(temp); /* the transaction's now, or moved, or removed */
  return result;
}

int rep_otf2_study(const stu_study_t *study, const char *dir, char *err, size_t errlen)
{
  char name[32];
  for (size_t i = 0; i < study->npoints; i++) {
    if (!study->points[i].trace)
      continue;
    snprintf(name, sizeof name, "point-%zu", i);
    if (rep_otf2_write(study->points[i].trace, dir, name, err, errlen) != 0)
      return BAS_EIO;
  }
  return 0;
}
