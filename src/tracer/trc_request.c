/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The requests the TI trace knows (trc_request.h): pending non-blocking messages, named by a TI wait or test as
 * (source, destination, tag) in world ranks, and persistent requests, whose every MPI_Start posts one (trc_mpi.c). A
 * wait or test writes the requests it completed in the order MPI reports them, so that a replay completes the same
 * ones. */
#include "trc_request.h"
#include "trc_comm.h"
#include "trc_handles.h"
#include "trc_mpi_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct pending {
  MPI_Request request;
  MPI_Comm comm;
  int src; /* MPI_ANY_SOURCE: a receive written once complete */
  int dst;
  int tag;
  int key;      /* its communicator's trc_comm_key, taken when posted (the communicator may be freed before the wait) */
  long long id; /* its posting line's number (trc_req_line), or -1 */
  int got;      /* a receive from any source: the bytes its status gives, once read (received); -1 before */
  int collective;  /* a non-blocking collective's (trc_req_collective): no message */
  long long order; /* and its TI action's place among the rank's (started), -1 for none */
} pending_t;

typedef struct persistent {
  MPI_Request request;
  trc_posting_t made;
} persistent_t;

/* A growable array of `size`-byte entries. */
typedef struct table {
  void *items;
  size_t n;
  size_t cap;
} table_t;

static table_t pendings; /* in posting order; a forgotten entry's request is MPI_REQUEST_NULL until compacted */
static size_t live;      /* the entries of pendings not forgotten */
static size_t hint;      /* where find starts: after the entry it found last */
/* A handle several pending entries hold (trc_handles.h), and where its oldest live entry is at the earliest */
static MPI_Request oldest_handle = MPI_REQUEST_NULL;
static size_t oldest_from;
static table_t persistents;
static table_t ages_of;    /* trc_req_envelope_some's, of the requests a call completed */
static long long posted;   /* posting lines counted so far (trc_req_line) */
static size_t any_source;  /* the pending receives posted from any source (src MPI_ANY_SOURCE), of pendings.n */
static size_t collectives; /* the pending non-blocking collectives, of pendings.n */

/* The TI actions of the non-blocking collectives in the order the rank started them, from the first not yet written:
 * one is written once it and every one started before it completed (flush_started), so that every rank writes them
 * in one order, the order MPI has every member start them, whatever order they complete in (an MPI_Waitsome of
 * several completes them in any order: tests/corpus/patterns/collectives.c's replay deadlocked when each rank wrote
 * its own). */
typedef struct started {
  char *action;
  int complete;
} started_t;

static table_t started;         /* entries `first` on: actions, in the order started */
static size_t started_head;     /* the entry of the first not yet written */
static long long started_first; /* the order of the entry at started_head */

/* Room in `t` for `count` entries of `size` bytes, doubling from 64; 0, or -1 (counted as untraced) when out of
 * memory. */
static int room(table_t *t, size_t count, size_t size)
{
  if (count <= t->cap)
    return 0;
  size_t cap = t->cap ? 2 * t->cap : 64;
  while (cap < count)
    cap *= 2;
  void *more = realloc(t->items, cap * size);
  if (!more) {
    trc_untraced("request (out of memory)");
    return -1;
  }
  t->items = more;
  t->cap = cap;
  return 0;
}

/* Room for one more entry of `size` bytes: its address, or NULL when out of memory. */
static void *grow(table_t *t, size_t size)
{
  return room(t, t->n + 1, size) == 0 ? (char *)t->items + size * t->n++ : NULL;
}

/* The bits of `request`, whatever MPI_Request's type (a pointer in Open MPI, an int in MPICH), for trc_handles. */
static uint64_t bits_of(MPI_Request request)
{
  uint64_t bits = 0;
  memcpy(&bits, &request, sizeof request < sizeof bits ? sizeof request : sizeof bits);
  return bits;
}

/* A pending request of a message (or, for trc_req_collective to mark, a collective) at the end of pendings, counted
 * live; NULL when out of memory (counted as untraced by grow). */
static pending_t *add_pending(MPI_Request request, MPI_Comm comm, int src, int dst, int tag, long long line)
{
  pending_t *p = grow(&pendings, sizeof *p);
  if (p && trc_handles_add(bits_of(request)) != 0)
    trc_untraced("request (out of memory)");
  if (p)
    *p = (pending_t){.request = request,
                     .comm = comm,
                     .src = src,
                     .dst = dst,
                     .tag = tag,
                     .key = trc_comm_key(comm),
                     .id = line,
                     .got = -1,
                     .order = -1};
  live += p != NULL;
  return p;
}

void trc_req_posted(MPI_Request request, MPI_Comm comm, int src, int dst, int tag, long long line)
{
  if (!trc_active() || request == MPI_REQUEST_NULL)
    return;
  any_source += add_pending(request, comm, src, dst, tag, line) && src == MPI_ANY_SOURCE;
}

/* Keeps `action` (copied) as the next one started: its order, or -1 (none, or out of memory: counted). */
static long long keep_started(const char *action)
{
  char *copy = action ? strdup(action) : NULL;
  started_t *e = copy ? grow(&started, sizeof *e) : NULL;
  if (!e) {
    if (action)
      trc_untraced("non-blocking collective (out of memory)");
    free(copy);
    return -1;
  }
  *e = (started_t){copy, 0};
  return started_first + (long long)(started.n - 1 - started_head);
}

/* Writes the started actions that completed, up to the first that has not, and drops them (moving the rest to the
 * front once they are past half the table). */
static void flush_started(void)
{
  started_t *e = started.items;
  while (started_head < started.n && e[started_head].complete) {
    trc_action("%s", e[started_head].action);
    free(e[started_head].action);
    started_head++;
    started_first++;
  }
  if (started_head > 0 && started_head >= started.n / 2) {
    memmove(e, e + started_head, (started.n - started_head) * sizeof *e);
    started.n -= started_head;
    started_head = 0;
  }
}

/* The started action of order `order` (-1: none) completed: written with those before it once they all are. */
static void started_complete(long long order)
{
  if (order < 0)
    return;
  ((started_t *)started.items)[started_head + (size_t)(order - started_first)].complete = 1;
  flush_started();
}

void trc_req_collective(MPI_Request request, MPI_Comm comm, long long line, const char *action)
{
  if (!trc_active() || request == MPI_REQUEST_NULL)
    return;
  long long order = keep_started(action);
  pending_t *p = add_pending(request, comm, trc_world_rank(), -1, -1, line);
  if (!p) { /* out of memory (counted): its action written now, not to hold the later ones */
    started_complete(order);
    return;
  }
  p->collective = 1;
  p->order = order;
  collectives++;
}

long long trc_req_line(void)
{
  return trc_active() ? posted++ : -1;
}

/* The index of the oldest pending entry of `request`, a handle several hold (trc_handles_shared: requests MPI
 * completed as it posted them), or -1. Each was complete when posted, so the one a wait or test completes is taken to
 * be the oldest, as their waits' TI actions and timeline lines name them: in posting order, as simrun analyse and the
 * replays complete requests of one envelope. The search starts at the oldest found last: those before it are gone. */
static long oldest(MPI_Request request)
{
  const pending_t *p = pendings.items;
  for (size_t i = request == oldest_handle ? oldest_from : 0; i < pendings.n; i++)
    if (p[i].request == request) {
      oldest_handle = request;
      oldest_from = i;
      return (long)i;
    }
  return -1;
}

/* The index of the pending entry of `request` (handles are reused once freed, so at most one is live, but where MPI
 * gave one to several: oldest), or -1. The search starts after the entry found last and wraps around: the handles a
 * waitall or test names come mostly in the order they were posted, so each is found at once, where a search from the
 * start, and the removal of each entry at once, made a waitall of n requests O(n^2) (by hand, rounds of MPI_Irecv and
 * MPI_Isend to itself then one waitall: 1.39 us of CPU a request traced at n = 1,000, 0.57 us now, 0.70 us at 5,000;
 * 0.37 us at 10; 0.04 us untraced). */
static long find(MPI_Request request)
{
  const pending_t *p = pendings.items;
  if (request == MPI_REQUEST_NULL || !trc_active()) /* asked once, not for each entry */
    return -1;
  if (trc_handles_shared(bits_of(request)))
    return oldest(request);
  size_t n = pendings.n, from = hint < n ? hint : 0;
  for (size_t k = 0; k < n; k++) {
    size_t i = from + k < n ? from + k : from + k - n;
    if (p[i].request == request) {
      hint = i + 1;
      return (long)i;
    }
  }
  return -1;
}

/* Removes entry i of `t`, keeping the others in order. */
static void drop(table_t *t, size_t size, size_t i)
{
  char *base = t->items;
  memmove(base + i * size, base + (i + 1) * size, (t->n - i - 1) * size);
  t->n--;
}

/* Removes the forgotten entries of pendings, keeping the others in posting order. */
static void compact(void)
{
  pending_t *p = pendings.items;
  size_t kept = 0;
  for (size_t i = 0; i < pendings.n; i++)
    if (p[i].request != MPI_REQUEST_NULL)
      p[kept++] = p[i];
  pendings.n = kept;
  hint = oldest_from = 0;
}

/* Forgets pending entry i, counting the receives from any source left: its request is cleared, and the table
 * compacted once the forgotten entries outnumber the others (each entry is moved O(1) times on average, where
 * removing each at once moved all after it). Indices found before are then stale. */
static void forget(size_t i)
{
  pending_t *p = &((pending_t *)pendings.items)[i];
  any_source -= p->src == MPI_ANY_SOURCE;
  collectives -= p->collective;
  trc_handles_remove(bits_of(p->request));
  p->request = MPI_REQUEST_NULL;
  live--;
  if (pendings.n - live > live)
    compact();
}

static int ti_tag(int tag)
{
  return tag == MPI_ANY_TAG ? TRC_SMPI_ANY_TAG : tag;
}

void trc_req_irecv_posted(MPI_Request request, MPI_Comm comm, int source, int tag, long long line)
{
  int peer = trc_to_world(comm, source);
  if (source == MPI_ANY_SOURCE)
    trc_req_posted(request, comm, MPI_ANY_SOURCE, trc_world_rank(), tag, line);
  else if (peer >= 0)
    trc_req_posted(request, comm, peer, trc_world_rank(), ti_tag(tag), line);
}

void trc_req_irecv_action(MPI_Comm comm, int source, int tag, double bytes)
{
  int peer = trc_partner(comm, source);
  if (source != MPI_ANY_SOURCE && peer >= 0)
    trc_action("irecv %d %d %.0f", peer, ti_tag(tag), bytes);
}

/* Pending request `p`'s age, the postings the rank made after its own (timeline lines name a request so), or -1 when
 * its posting has no line number. */
static long long age_of(const pending_t *p)
{
  return p->id >= 0 ? posted - 1 - p->id : -1;
}

/* The envelope of a wait's or test's line that completed none of the requests the trace knows. */
static void envelope_none(void)
{
  trc_envelope(-1, 0);
  trc_envelope_request(TRC_REQ_NONE);
}

void trc_req_envelope(MPI_Request request)
{
  long i = find(request);
  if (i < 0) {
    envelope_none();
    return;
  }
  const pending_t *p = &((const pending_t *)pendings.items)[i];
  trc_envelope(p->tag, p->key);
  trc_envelope_request(age_of(p));
}

/* Ages are counted as a mask's bits beside the youngest one's (docs/tracer.md): bits 0 to 62, so that the field stays a
 * positive whole number. */
enum { OTHERS_SPAN = 63 };

/* The entry a call's occurrence of `request` stands for: found (find's), or where the call named a handle several hold
 * (trc_handles_shared) once already, the next holder after the one its last occurrence stood for (*held: that handle,
 * *at: that holder), as trc_req_completed completes them oldest first; -1 when none. */
static long holder(MPI_Request request, long found, MPI_Request *held, long *at)
{
  if (found < 0 || !trc_handles_shared(bits_of(request)))
    return found;
  if (*held == request && *at < 0)
    return -1; /* named more often than held */
  const pending_t *p = pendings.items;
  long i = found;
  if (*held == request)
    for (i = *at + 1; i < (long)pendings.n && p[i].request != request; i++)
      ;
  *held = request;
  *at = i < (long)pendings.n ? i : -1;
  return *at;
}

/* The ages of the requests copy[done[k]] (k < n; done NULL: k itself) the trace knows into ages[], -1 for others, and
 * the youngest one's index (-1: none). */
static long youngest_of(const MPI_Request *copy, const int *done, int n, long long *ages)
{
  long youngest = -1, at = -1;
  long long least = -1;
  MPI_Request held = MPI_REQUEST_NULL;
  for (int k = 0; k < n; k++) {
    MPI_Request request = copy[done ? done[k] : k];
    long i = holder(request, find(request), &held, &at);
    const pending_t *p = i >= 0 ? &((const pending_t *)pendings.items)[i] : NULL;
    ages[k] = p ? age_of(p) : -1;
    if (ages[k] >= 0 && (youngest < 0 || ages[k] < least)) {
      youngest = i;
      least = ages[k];
    }
  }
  return youngest;
}

void trc_req_envelope_some(const MPI_Request *copy, const int *done, int n, int unless_all)
{
  if (!trc_active()) /* another thread's call (its copy its own, ages_of the recording thread's), or a nested one */
    return;
  if (!copy || n <= 0) {
    envelope_none();
    return;
  }
  long long *ages = room(&ages_of, (size_t)n, sizeof *ages) == 0 ? ages_of.items : NULL;
  if (!ages)
    return; /* out of memory (counted): the line names none, and simrun analyse goes by the call's kind */
  long youngest = youngest_of(copy, done, n, ages);
  if (youngest < 0) {
    envelope_none();
    return;
  }
  const pending_t *y = &((const pending_t *)pendings.items)[youngest];
  long long least = age_of(y);
  unsigned long long others = 0;
  size_t known = 0;
  for (int k = 0; k < n; k++) {
    known += ages[k] >= 0;
    if (ages[k] > least + OTHERS_SPAN)
      return; /* beyond the mask: the line names none, and simrun analyse goes by the call's kind */
    if (ages[k] > least)
      others |= 1ULL << (ages[k] - least - 1);
  }
  if (unless_all && known == live)
    return; /* every request pending: simrun analyse completes them all */
  trc_envelope(y->tag, y->key);
  trc_envelope_request(least);
  trc_envelope_others(others);
}

void trc_req_envelope_freed(MPI_Request request)
{
  if (find(request) >= 0)
    trc_req_envelope(request);
}

int trc_req_partner(MPI_Request request, const MPI_Status *status)
{
  long i = find(request);
  if (i < 0)
    return -1;
  const pending_t *p = &((const pending_t *)pendings.items)[i];
  if (p->collective)
    return -1;
  if (p->src == MPI_ANY_SOURCE)
    return trc_to_world(p->comm, status->MPI_SOURCE);
  return p->src == trc_world_rank() ? p->dst : p->src;
}

/* The bytes pending receive `p` from any source got, complete with `status` (NULL: unknown), read once (the line
 * of the call that completed it, then its TI action, need them); -1 when unknown. */
static int received(pending_t *p, const MPI_Status *status)
{
  if (p->got < 0 && status && PMPI_Get_count(status, MPI_BYTE, &p->got) != MPI_SUCCESS)
    p->got = -1;
  return p->got;
}

double trc_req_received(MPI_Request request, const MPI_Status *status)
{
  long i = any_source ? find(request) : -1; /* none pending from any source (most programs): no search */
  pending_t *p = i >= 0 ? &((pending_t *)pendings.items)[i] : NULL;
  return p && p->src == MPI_ANY_SOURCE && received(p, status) > 0 ? p->got : 0;
}

double trc_req_received_all(const MPI_Request *copy, const int *done, int n, const MPI_Status *statuses)
{
  double sum = 0;
  for (int k = 0; copy && statuses && any_source && k < n; k++)
    sum += trc_req_received(copy[done ? done[k] : k], &statuses[k]);
  return sum;
}

int trc_req_written(MPI_Request request)
{
  long i = find(request);
  const pending_t *p = i >= 0 ? &((const pending_t *)pendings.items)[i] : NULL;
  return p && p->src != MPI_ANY_SOURCE && !p->collective;
}

int trc_req_all_pending(const MPI_Request *copy, int count)
{
  size_t written = 0;
  for (int i = 0; copy && i < count; i++) {
    long k = collectives ? find(copy[i]) : -1;
    const pending_t *p = k >= 0 ? &((const pending_t *)pendings.items)[k] : NULL;
    if (p && p->collective && p->order >= 0)
      return 0; /* its collective goes before the messages' waits (trc_req_completed), not after a waitall */
    written += trc_req_written(copy[i]);
  }
  return written > 0 && written == live - any_source - collectives;
}

/* One request complete with `status` (NULL: unknown): its TI action, then forgotten. */
static void complete(long i, const MPI_Status *status, int waits)
{
  pending_t p = ((const pending_t *)pendings.items)[i];
  forget((size_t)i);
  if (p.collective) { /* no message: its action is the collective's */
    started_complete(p.order);
    return;
  }
  int cancelled = 0;
  if (status)
    PMPI_Test_cancelled(status, &cancelled);
  if (cancelled && p.src != MPI_ANY_SOURCE)
    trc_extension("cancel", "cancel %d %d %d", p.src, p.dst, p.tag);
  else if (cancelled)
    return; /* a receive from any source, never written: nothing to undo */
  else if (p.src != MPI_ANY_SOURCE && waits)
    trc_action("wait %d %d %d", p.src, p.dst, p.tag);
  else if (p.src == MPI_ANY_SOURCE && received(&p, status) >= 0) {
    int from = trc_partner(p.comm, status->MPI_SOURCE); /* none from a process outside the run: "recv -1" would
                                                         * replay as from any source */
    if (from >= 0)
      trc_action("recv %d %d %d", from, status->MPI_TAG, p.got);
  } else if (p.src == MPI_ANY_SOURCE)
    trc_untraced("MPI_Irecv from MPI_ANY_SOURCE (status lost)");
}

void trc_req_completed(const MPI_Request *copy, const int *done, int n, const MPI_Status *statuses, int waits)
{
  for (int pass = collectives ? 0 : 1; pass < 2; pass++) /* the collectives first */
    for (int k = 0; copy && k < n; k++) {
      long i = find(copy[done ? done[k] : k]);
      if (i >= 0 && ((const pending_t *)pendings.items)[i].collective == !pass)
        complete(i, statuses ? &statuses[k] : NULL, waits);
    }
  trc_after_call();
}

/* The persistent request `request`'s index, or -1. */
static long find_persistent(MPI_Request request)
{
  const persistent_t *p = persistents.items;
  if (!trc_active())
    return -1;
  for (size_t i = 0; i < persistents.n; i++)
    if (p[i].request == request)
      return (long)i;
  return -1;
}

/* Freed while active, a request completes unseen: the replay's end (SMPI's waitall of what is left) covers it. */
void trc_req_freed(MPI_Request request)
{
  long i = find(request);
  if (i >= 0)
    forget((size_t)i);
  i = find_persistent(request);
  if (i >= 0)
    drop(&persistents, sizeof(persistent_t), (size_t)i);
}

void trc_req_persistent(MPI_Request request, const trc_posting_t *made)
{
  if (!trc_active() || request == MPI_REQUEST_NULL)
    return;
  persistent_t *p = grow(&persistents, sizeof *p);
  if (p)
    *p = (persistent_t){.request = request, .made = *made};
}

int trc_req_persistent_of(MPI_Request request, trc_posting_t *p)
{
  long i = find_persistent(request);
  if (i >= 0)
    *p = ((const persistent_t *)persistents.items)[i].made;
  return i >= 0;
}

int trc_req_none_active(const MPI_Request *copy, int count)
{
  for (int i = 0; copy && i < count; i++)
    if (copy[i] != MPI_REQUEST_NULL && (find(copy[i]) >= 0 || find_persistent(copy[i]) < 0))
      return 0;
  return count <= 0 || copy;
}

/* The thread's buffers of handles and of statuses, grown to the largest count asked and kept: a program that polls
 * MPI_Testany millions of times must not pay an allocation per call (issue 25: the cost per traced call). */
static __thread table_t handles;
static __thread table_t statuses;

MPI_Request *trc_req_handles(int count, const MPI_Request requests[])
{
  if (!trc_active() || count <= 0 || room(&handles, (size_t)count, sizeof(MPI_Request)) != 0)
    return NULL;
  memcpy(handles.items, requests, sizeof(MPI_Request) * (size_t)count);
  return handles.items;
}

MPI_Status *trc_req_statuses(int count, MPI_Status *given)
{
  if (given != MPI_STATUSES_IGNORE || !trc_active() || count <= 0)
    return given;
  return room(&statuses, (size_t)count, sizeof(MPI_Status)) == 0 ? statuses.items : given;
}

void trc_req_reset(void)
{
  free(handles.items);
  free(statuses.items);
  handles = statuses = (table_t){0};
  for (size_t i = started_head; i < started.n; i++)
    free(((started_t *)started.items)[i].action);
  free(started.items);
  started = (table_t){0};
  started_head = 0;
  started_first = 0;
  free(pendings.items);
  free(persistents.items);
  free(ages_of.items);
  ages_of = (table_t){0};
  pendings = (table_t){0};
  persistents = (table_t){0};
  live = hint = oldest_from = 0;
  oldest_handle = MPI_REQUEST_NULL;
  trc_handles_reset();
  posted = 0;
  any_source = collectives = 0;
}
