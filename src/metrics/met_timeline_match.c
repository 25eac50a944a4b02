/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The wait-state rules of a measured run (met_timeline_match.h), the same as a replay's (docs/wait-states.md): a rank
 * blocked in a send, receive, probe, wait or poll until its partner arrives is idle (Lemeire's idling, seed 000 §1.1.3;
 * Scalasca's late sender and late receiver), in a barrier or an N x N collective until the last member entered, and
 * the rest of the call is communication. Memory: a few intervals per rank and the messages not yet paired. */
#include "met_timeline_match.h"
#include "bas_error.h"
#include "bas_grow.h"
#include "met_tally.h"
#include "met_timeline_clock.h"
#include "met_timeline_groups.h"
#include "met_wait.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Beyond this many message ends waiting for their partner (all pairs), the oldest of a pair is given up (counted as
 * unmatched): a program whose receives the timeline cannot pair (any source) must not grow memory with its length. */
enum { QUEUED_MAX = 1 << 20 };

/* A rank keeps at least its OPS_KEPT latest non-blocking operations that no wait completed; when it holds twice that
 * many, the older half is given up (counted as unmatched) at once: giving one up at each posting moved them all, each
 * time, 0.3 MB a posting for a rank that posts without waiting. */
enum { OPS_KEPT = 1 << 12 };

/* An interval waits for its partners (its message's other end, the other members' entries) at most while its rank
 * keeps fewer than this many: the ranks' clocks start at a common barrier but each reads its own time 0 after it, so a
 * partner's entry may come a little later in the files than causality says (more ranks than cores: milliseconds). */
enum { HOLD_MAX = 1 << 14 };

/* A sub-communicator's spans are numbered (met_coll_t.group) from this on, its group's number added: above every key
 * a message's communicator has (met_interval_t.comm, the tracer's, under 2^31), so that no message is taken to be on
 * a sub-communicator's group (the OTF2 export puts messages on a communicator of their number). */
#define SPAN_GROUPS 0x80000000u

/* A queue of message ends counts them by envelope (met_tally.h) from this many on: shorter ones are scanned. */
enum { TALLY_FROM = 32 };

/* An entry into a call (or a posting): its time as the rules see it (the tracer's own time removed, causality kept)
 * and as the file gives it; a message end's, its number on its rank (-1 otherwise), so that a receive knows its send's
 * (met_timeline_clock.h). */
typedef struct entry {
  double at;
  double raw;
  long long id;
} entry_t;

static const entry_t NO_ENTRY = {NAN, NAN, -1};

/* A message end waiting for its partner. */
typedef struct endref {
  int rank;
  int peer; /* a posted receive: the source it accepts, -1 for any */
  int tag;  /* -1: any */
  int comm;
  long long id;
  entry_t start; /* entry (blocking) or posting (non-blocking) */
  int probe;     /* a probe among the receives: told of the send it found, which still goes to a receive (PROBE_ANY)
                  * or to its own MPI_Mrecv (PROBE_MATCHED); 0 for a receive */
  int taken;     /* paired and out of its queue, where it stays until the queue is compacted (fifo_remove) */
} endref_t;

enum { PROBE_ANY = 1, PROBE_MATCHED = 2 };

typedef struct fifo {
  endref_t *v;
  size_t head, n, cap; /* the entry at `head` is never taken: the queue is empty when head is n */
  size_t taken;        /* entries taken after head, skipped by every search */
  /* Where the last search ended: no entry before `searched` accepts an end of its key (the searching rank, the
   * communicator and the tag), past the end it took or, when it found none, at the queue's end; so the next search
   * with that key starts there; 0 once entries moved (a compaction). Ends that never match (a tag no receive takes)
   * then cost their searches once each, not a scan of every unmatched end per message: a two-line loop of 120,000
   * iterations otherwise took 18 s to read. */
  size_t searched;
  int key_rank, key_comm, key_tag;
  /* From TALLY_FROM ends on, their counts by envelope, so that a search for an envelope none of them has (ends that
   * never pair, each with a tag of its own) ends at once: their sources with `by_source` (the receives posted at a
   * rank), else none (the sends of one pair, or those probes claimed: one source, or scanned). */
  met_tally_t tally;
  int tallied;
  int by_source;
} fifo_t;

/* A non-blocking operation posted and not yet completed by a wait or poll. */
typedef struct op {
  long long id;
  long long req; /* its posting's number on the rank, from 0 */
  int peer;
  met_dir_t dir;
  double post;
  double post_raw;     /* the same as read (a non-blocking collective's: a later scan member waits for it) */
  double partner;      /* NAN until paired */
  double partner_raw;  /* the same as read */
  long long src;       /* a receive's: its send's number on its sender, -1 until paired */
  int sync;            /* MPI_Issend: complete only once its receive started (is_sync) */
  double any_bytes;    /* a receive posted from any source: its bytes, for the wait that completes it to count the
                        * message (its posting named no sender to count it with); -1 otherwise */
  double bytes;        /* its posting's bytes, tag and communicator: a receive's message is counted with them where a */
  int tag;             /* wait or test completed it (add_wait), as MPI delivers it there and viewers expect it (a */
  unsigned comm;       /* receive drawn at its posting precedes its send) */
  int completing;      /* add_wait: among those the wait or poll being added completes */
  met_tl_kind_t icoll; /* a non-blocking collective's (TL_ICOLL): its blocking counterpart's kind, with its number */
  long coll;           /* among its communicator's collectives (-1: not paired) and that communicator's group; its */
  int group;           /* partner is the entry it waits for (instance_awaited) once every member's call was read */
  int root;            /* and whether the rank is its root */
  met_coll_call_t call; /* the same's operation, its root (a world rank, -1 for none) and where its initiation went */
  int root_rank;        /* into the trace (NAN before): its record there once a wait completes it (met_nbc_t), with */
  double initiated;     /* `bytes` and `received` (an MPI_Ialltoallv's) its line's */
  double received;
} op_t;

typedef struct rank_state {
  met_tl_event_t *events; /* kept intervals, from `head` */
  size_t head, n, cap;
  op_t *ops;
  size_t nops, ops_cap;
  long long next_id;
  long long posts;   /* postings read (TL_ISEND, TL_IRECV): the tracer's count of them, which waits refer to */
  int cancels;       /* MPI_Cancel calls read whose request no wait or test has yet been seen to complete */
  double delay;      /* keeping causality: how much its intervals from now on are delayed */
  double last_end;   /* the end of its last interval taken */
  long long sending; /* the number of the send the interval going into the trace makes, -1 for none */
  long long early;   /* 1 + the number of the send half send_half_first put in before its send-receive; 0: none */
  double moved;      /* how much later the clock condition made that interval's receive end */
  int pieces;        /* the intervals that interval's call put into the trace so far: each after the first continues
                      * the call (met_interval_t.call) */
  size_t wait_to;    /* one past the last kept wait or poll (0: none): settled again at every pass (settle_from) */
  size_t unsettled;  /* the first kept interval not settled since it was read or moved (SIZE_MAX: none) */
  size_t from, to;   /* the operations the last wait or poll marked may complete (mark_completed): no other is */
} rank_state_t;

struct met_tl_match {
  int nranks;
  rank_state_t *ranks;
  fifo_t *sends;   /* per pair (s, d) at s * nranks + d: sends not yet paired, in order */
  fifo_t *posted;  /* per receiver d: receives not yet paired, in the order they were posted */
  fifo_t *claimed; /* per receiver d: sends a matched probe (MPI_Mprobe) found, kept for their MPI_Mrecv only */
  size_t queued;
  met_tl_groups_t *groups; /* the communicators of the collectives paired, and their instances in progress */
  size_t undefined;        /* collectives on a sub-communicator no file defines (a tracer before "# comm" lines) */
  size_t scans_unordered;  /* scans kept as read: their communicator's order not known to be the world's */
  int holding;             /* flush_rank emits an interval because its rank holds HOLD_MAX */
  int held;                /* a communicator's pairing stopped as a rank held HOLD_MAX intervals behind a collective */
  int differ;              /* one stopped as its members' calls differ (or one left early for another reason) */
  int causal;              /* met_tl_match_keep_causality */
  met_tl_clock_t *clock;
  size_t matched, unmatched, collectives;
  size_t given_up; /* sends and non-blocking collectives no wait completed, given up among a rank's oldest (new_op) */
  size_t starts;   /* MPI_Start and MPI_Startall lines read that give none of the messages they started */
};

/* Whether a kept interval of `kind` waits for outstanding operations (awaited: received_by), whose partners come
 * without a word to it. */
static int awaits_operations(met_tl_kind_t kind)
{
  return kind >= TL_WAIT && kind <= TL_POLL;
}

/* Whether `ev` is a synchronous send (MPI_Ssend, MPI_Issend, a start of MPI_Ssend_init's), which completes only once
 * its receive has started (MPI 3.1 §3.4): a receiver's entry after its end is the ranks' clocks apart (each reads time
 * 0 after a common barrier: tens of us apart on a loaded machine), not an eager send. tests/data/tracer/ssend-skew. */
static int is_sync(const met_tl_event_t *ev)
{
  return ev->synchronous || strcmp(ev->call, "MPI_Ssend") == 0 || strcmp(ev->call, "MPI_Issend") == 0;
}

met_tl_kind_t met_tl_kind_of(const char *call, int peer)
{
  static const struct {
    const char *call;
    met_tl_kind_t kind;
    int needs_peer;
  } table[] = {{"MPI_Send", TL_SEND, 1},
               {"MPI_Ssend", TL_SEND, 1},
               {"MPI_Rsend", TL_SEND, 1},
               {"MPI_Bsend", TL_SEND, 1},
               {"MPI_Isend", TL_ISEND, 1},
               {"MPI_Issend", TL_ISEND, 1},
               {"MPI_Ibsend", TL_ISEND, 1},
               {"MPI_Irsend", TL_ISEND, 1},
               {"MPI_Recv", TL_RECV, 1},
               {"MPI_Irecv", TL_IRECV, 0},
               {"MPI_Wait", TL_WAIT, 0},
               {"MPI_Waitall", TL_WAITALL, 0},
               {"MPI_Waitany", TL_WAITANY, 0},
               {"MPI_Waitsome", TL_WAITSOME, 0},
               {"MPI_Test", TL_POLL, 0},
               {"MPI_Testany", TL_POLL, 0},
               {"MPI_Testall", TL_POLL, 0},
               {"MPI_Testsome", TL_POLL, 0},
               {"MPI_Probe", TL_PROBE, 1},
               {"MPI_Mprobe", TL_MPROBE, 1},
               {"MPI_Iprobe", TL_PROBE, 1},
               {"MPI_Improbe", TL_MPROBE, 1},
               {"MPI_Mrecv", TL_MRECV, 1},
               {"MPI_Imrecv", TL_MRECV, 1}, /* received at the call, from its probe's status (trc_mpi_other.c) */
               {"MPI_Barrier", TL_BARRIER, 0},
               {"MPI_Allreduce", TL_NXN, 0},
               {"MPI_Allgather", TL_NXN, 0},
               {"MPI_Allgatherv", TL_NXN, 0},
               {"MPI_Alltoall", TL_NXN, 0},
               {"MPI_Alltoallv", TL_NXN, 0},
               {"MPI_Reduce_scatter", TL_NXN, 0},
               {"MPI_Reduce_scatter_block", TL_NXN, 0},
               {"MPI_Bcast", TL_ONE_TO_N, 1},
               {"MPI_Scatter", TL_ONE_TO_N, 1},
               {"MPI_Scatterv", TL_ONE_TO_N, 1},
               {"MPI_Reduce", TL_N_TO_ONE, 1},
               {"MPI_Gather", TL_N_TO_ONE, 1},
               {"MPI_Gatherv", TL_N_TO_ONE, 1},
               {"MPI_Scan", TL_PREFIX, 0},
               {"MPI_Exscan", TL_PREFIX, 0}};
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (strcmp(call, table[i].call) == 0)
      return table[i].needs_peer && peer < 0 ? TL_OTHER : table[i].kind;
  return TL_OTHER;
}

met_tl_kind_t met_tl_icoll_of(const char *call)
{
  const char *blocking = met_coll_call_name(met_nbc_call_of(call));
  return blocking ? met_tl_kind_of(blocking, 0) : TL_OTHER;
}

int met_tl_synchronising(met_tl_kind_t kind)
{
  return kind == TL_BARRIER || kind == TL_NXN || kind == TL_PREFIX || met_tl_rooted(kind);
}

int met_tl_rooted(met_tl_kind_t kind)
{
  return kind == TL_ONE_TO_N || kind == TL_N_TO_ONE;
}

static void fifo_free(fifo_t *f)
{
  free(f->v);
  met_tally_free(&f->tally);
}

met_tl_match_t *met_tl_match_new(int nranks)
{
  met_tl_match_t *m = calloc(1, sizeof *m);
  size_t pairs = (size_t)nranks * (size_t)nranks;
  if (!m || !(m->ranks = calloc((size_t)nranks, sizeof *m->ranks)) || !(m->sends = calloc(pairs, sizeof *m->sends)) ||
      !(m->posted = calloc((size_t)nranks, sizeof *m->posted)) ||
      !(m->claimed = calloc((size_t)nranks, sizeof *m->claimed)) || !(m->clock = met_tl_clock_new(nranks)) ||
      !(m->groups = met_tl_groups_new(nranks))) {
    met_tl_match_free(m);
    return NULL;
  }
  for (int r = 0; r < nranks; r++)
    m->posted[r].by_source = 1;
  m->nranks = nranks;
  return m;
}

/* The ends still queued in `f` (neither paired nor given up). */
static size_t queued_in(const fifo_t *f)
{
  return f->n - f->head - f->taken;
}

size_t met_tl_match_given_up(const met_tl_match_t *m)
{
  return m->given_up;
}

size_t met_tl_match_unreceived(const met_tl_match_t *m)
{
  size_t left = 0, pairs = (size_t)m->nranks * (size_t)m->nranks;
  for (size_t i = 0; m->sends && i < pairs; i++)
    left += queued_in(&m->sends[i]);
  for (int r = 0; m->claimed && r < m->nranks; r++)
    left += queued_in(&m->claimed[r]);
  return left;
}

void met_tl_match_free(met_tl_match_t *m)
{
  if (!m)
    return;
  size_t pairs = (size_t)m->nranks * (size_t)m->nranks;
  for (size_t i = 0; m->sends && i < pairs; i++)
    fifo_free(&m->sends[i]);
  for (int r = 0; m->posted && r < m->nranks; r++)
    fifo_free(&m->posted[r]);
  for (int r = 0; m->claimed && r < m->nranks; r++)
    fifo_free(&m->claimed[r]);
  for (int r = 0; m->ranks && r < m->nranks; r++) {
    free(m->ranks[r].events);
    free(m->ranks[r].ops);
  }
  free(m->sends);
  free(m->posted);
  free(m->claimed);
  free(m->ranks);
  met_tl_groups_free(m->groups);
  met_tl_clock_free(m->clock);
  free(m);
}

/* The source an end of `f` is counted under: the one a receive accepts, in a queue of receives by source. */
static int tally_source(const fifo_t *f, const endref_t *e)
{
  return f->by_source ? e->peer : 0;
}

/* Stops counting f's ends (out of memory, or empty): its searches scan it. */
static void untally(fifo_t *f)
{
  met_tally_free(&f->tally);
  f->tallied = 0;
}

/* Counts f's ends by envelope once it holds TALLY_FROM (the one just pushed, or all of them), while memory allows. */
static void tally_pushed(fifo_t *f)
{
  if (f->tallied) {
    const endref_t *e = &f->v[f->n - 1];
    if (met_tally_add(&f->tally, e->comm, e->tag, tally_source(f, e)) != 0)
      untally(f);
    return;
  }
  if (f->n - f->head - f->taken < TALLY_FROM)
    return;
  f->tallied = 1;
  for (size_t i = f->head; f->tallied && i < f->n; i++)
    if (!f->v[i].taken && met_tally_add(&f->tally, f->v[i].comm, f->v[i].tag, tally_source(f, &f->v[i])) != 0)
      untally(f);
}

/* End `i` of `f` leaves it (paired, or given up): no longer counted. */
static void tally_leaves(fifo_t *f, size_t i)
{
  if (f->tallied)
    met_tally_remove(&f->tally, f->v[i].comm, f->v[i].tag, tally_source(f, &f->v[i]));
}

/* Whether `f` may hold an end that one with this envelope (from `source`, where f counts sources) pairs with: 0 only
 * when its counts say none. */
static int may_hold(const fifo_t *f, int comm, int tag, int source)
{
  return !f->tallied || tag < 0 || met_tally_may_hold(&f->tally, comm, tag, f->by_source ? source : 0);
}

/* Moves the entries not taken to the front of f's storage, in order. */
static void fifo_compact(fifo_t *f)
{
  size_t kept = 0;
  for (size_t i = f->head; i < f->n; i++)
    if (!f->v[i].taken)
      f->v[kept++] = f->v[i];
  f->n = kept;
  f->head = f->taken = f->searched = 0;
}

static int fifo_push(fifo_t *f, const endref_t *e)
{
  if (f->head > 0 && f->head == f->n) { /* empty: start again at the front */
    f->head = f->n = f->searched = 0;
    untally(f);
  }
  if (f->n == f->cap && f->head + f->taken > f->cap / 2)
    fifo_compact(f);
  if (bas_reserve((void **)&f->v, &f->cap, f->n, sizeof *f->v, 16) != 0)
    return -1;
  f->v[f->n] = *e;
  f->v[f->n++].taken = 0;
  tally_pushed(f);
  return 0;
}

static void settle_from(met_tl_match_t *m, int rank, size_t from);
static entry_t instance_awaited(const met_tl_instance_t *in, met_tl_kind_t kind, int root);

/* The last of `rank`'s kept intervals numbered `id` or less, or s->n when none: every kept interval has a number, and
 * they grow with their place (a send-receive's receive half has the number after its own), so a binary search finds
 * a message end's interval (a scan of the kept intervals at each message was quadratic: a ping-pong whose ranks
 * disagree on its length kept 16,384 intervals waiting, and read for 26 s under the fuzzer's sanitisers). */
static size_t kept_numbered(const rank_state_t *s, long long id)
{
  size_t lo = s->head, hi = s->n; /* the answer is in [lo - 1, hi) */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->events[mid].id <= id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo > s->head ? lo - 1 : s->n;
}

/* The first of `rank`'s kept intervals that starts at `t` or later, or s->n: a binary search, as a rank's intervals
 * start in order (the reader refuses one that starts before the previous one ends; the times it moves keep it). */
static size_t kept_from(const rank_state_t *s, double t)
{
  size_t lo = s->head, hi = s->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->events[mid].iv.start < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The operation numbered `id` among `rank`'s outstanding ones (in the order of their numbers), or s->nops. */
static size_t op_numbered(const rank_state_t *s, long long id)
{
  size_t lo = 0, hi = s->nops;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->ops[mid].id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Sets the partner time of `rank`'s message end `id`, a kept blocking interval or an outstanding operation (one that
 * already went into the trace, an eager send, needs nothing more); the kept intervals it may delay are settled again
 * (a partner told late: the ranks' clocks differ a little, so the files' order is not always causality's). A receive
 * posted for any source learns its sender `peer`, one posted for any tag the send's `tag` (-1: none given). */
static void tell_partner(met_tl_match_t *m, int rank, long long id, entry_t partner, int peer, int tag)
{
  rank_state_t *s = &m->ranks[rank];
  size_t i = kept_numbered(s, id);
  if (i < s->n && s->events[i].id == id) {
    s->events[i].partner = partner.at;
    s->events[i].partner_raw = partner.raw;
    s->events[i].src = partner.id;
    settle_from(m, rank, i);
    return;
  }
  if (i < s->n && s->events[i].kind == TL_SENDRECV && s->events[i].recv.id == id) {
    s->events[i].recv.partner = partner.at;
    s->events[i].recv.partner_raw = partner.raw;
    s->events[i].recv.src = partner.id;
    settle_from(m, rank, i);
    return;
  }
  i = op_numbered(s, id);
  if (i < s->nops && s->ops[i].id == id) {
    s->ops[i].partner = partner.at;
    s->ops[i].partner_raw = partner.raw;
    s->ops[i].src = partner.id;
    s->ops[i].peer = peer; /* a receive from any source learns its sender */
    if (s->ops[i].dir == MET_DIR_RECV && s->ops[i].tag < 0)
      s->ops[i].tag = tag; /* and from any tag, the message's (the exports write it) */
    settle_from(m, rank, kept_from(s, s->ops[i].post));
    return;
  }
}

/* Takes entry `i` out of `f`: marked taken, where it stays until a compaction, the head moved past the taken entries
 * it reaches (moving the entries before or after it at each removal was quadratic: the first entry taken from a
 * queue of 45,000 unpaired receives moved them all, at each message). No other entry moves. */
static void fifo_remove(met_tl_match_t *m, fifo_t *f, size_t i)
{
  tally_leaves(f, i);
  f->v[i].taken = 1;
  f->taken++;
  m->queued--;
  while (f->head < f->n && f->v[f->head].taken) {
    f->head++;
    f->taken--;
  }
}

/* Queues `mine` in `f`, giving the oldest queued end up beyond QUEUED_MAX. 0, or -1 out of memory. */
static int enqueue(met_tl_match_t *m, fifo_t *f, const endref_t *mine)
{
  if (fifo_push(f, mine) != 0)
    return -1;
  if (++m->queued > QUEUED_MAX) {
    fifo_remove(m, f, f->head);
    m->unmatched++;
  }
  return 0;
}

/* Whether message ends `a` and `b` (a send and a receive) have the same communicator and tags that match (-1 being
 * any: MPI_ANY_TAG, or a timeline that does not give tags). */
static int same_envelope(const endref_t *a, const endref_t *b)
{
  return a->comm == b->comm && (a->tag < 0 || b->tag < 0 || a->tag == b->tag);
}

/* Where a search of `f` by `rank` for the entries that accept end `e` starts: where the last one with the same key
 * ended, if nothing moved since, else at the head. */
static size_t search_start(const fifo_t *f, int rank, const endref_t *e)
{
  int same = f->searched > f->head && f->key_rank == rank && f->key_comm == e->comm && f->key_tag == e->tag;
  return same ? f->searched : f->head;
}

/* Notes that no entry of `f` before `at` accepts an end of `rank` like `e` (its communicator and tag). */
static void search_ended(fifo_t *f, int rank, const endref_t *e, size_t at)
{
  f->searched = at;
  f->key_rank = rank;
  f->key_comm = e->comm;
  f->key_tag = e->tag;
}

/* Notes that a search of `f` by `rank` for end `e` found nothing up to its end. */
static void search_missed(fifo_t *f, int rank, const endref_t *e)
{
  search_ended(f, rank, e, f->n);
}

/* The first send of `f` (in order) that receive `r` accepts, as an index into f->v, or f->n when none. */
static size_t first_accepted(fifo_t *f, const endref_t *r)
{
  size_t i = may_hold(f, r->comm, r->tag, 0) ? search_start(f, r->rank, r) : f->n;
  while (i < f->n && (f->v[i].taken || !same_envelope(&f->v[i], r)))
    i++;
  if (i == f->n)
    search_missed(f, r->rank, r);
  return i;
}

/* A send from `rank` to `peer`: MPI's matching, the earliest receive posted at `peer` that accepts `rank` (from it or
 * from any source), its tag and its communicator; each probe waiting for it before that receive learns it too. Times
 * do not overrule the order: the ranks' clocks may differ by hundreds of microseconds where they share cores, so a
 * receive that seems to end before the send started may still be its. Returns the receive's time, or NAN and queues
 * the send (-1 in *oom when out of memory). */
static entry_t pair_send(met_tl_match_t *m, int rank, int peer, const endref_t *mine, int *oom)
{
  fifo_t *posted = &m->posted[peer];
  size_t from = may_hold(posted, mine->comm, mine->tag, rank) ? search_start(posted, rank, mine) : posted->n;
  for (size_t i = from; i < posted->n;) {
    endref_t r = posted->v[i];
    if (r.taken || (r.peer != rank && r.peer >= 0) || !same_envelope(&r, mine)) {
      i++;
      continue;
    }
    fifo_remove(m, posted, i++);
    if (!r.probe) /* the receives up to it accept no send like this one: the next search starts after it */
      search_ended(posted, rank, mine, i);
    tell_partner(m, r.rank, r.id, mine->start, rank, mine->tag);
    if (r.probe == PROBE_MATCHED) { /* the message is the probe's Mrecv's: no other receive may take it */
      *oom = enqueue(m, &m->claimed[peer], mine);
      return NO_ENTRY;
    }
    if (r.probe) /* the message stays for the receive that takes it */
      continue;
    m->matched++;
    return r.start;
  }
  search_missed(posted, rank, mine);
  *oom = enqueue(m, &m->sends[(size_t)rank * (size_t)m->nranks + (size_t)peer], mine);
  return NO_ENTRY;
}

/* Pairs receive `mine` at `rank` with send `at` of fifo `f`, taken out of it: *peer becomes the sender, *tag (when
 * not NULL) its tag. With `searched`, no send before `at` accepts `mine` (first_accepted found it), so the next search
 * for its like starts after it. Returns the send's time. */
static entry_t take_send(met_tl_match_t *m, fifo_t *f, size_t at, int searched, int rank, int *peer, int *tag,
                         const endref_t *mine)
{
  endref_t h = f->v[at];
  fifo_remove(m, f, at);
  if (searched)
    search_ended(f, rank, mine, at + 1);
  *peer = h.rank;
  if (tag)
    *tag = h.tag;
  tell_partner(m, h.rank, h.id, mine->start, rank, -1);
  m->matched++;
  return h.start;
}

/* A receive at `rank` from `*peer` (-1: any source): the oldest unpaired send from it with its communicator and a tag
 * it accepts (messages between two ranks do not overtake one another on one tag and communicator), or from any
 * source the one that started first; *peer becomes the sender, *tag (when not NULL) its tag. Returns the send's time,
 * or NAN and queues the receive. */
static entry_t pair_recv(met_tl_match_t *m, int rank, int *peer, int *tag, const endref_t *mine, int *oom)
{
  fifo_t *best = NULL;
  size_t best_at = 0;
  for (int s = *peer < 0 ? 0 : *peer; s < (*peer < 0 ? m->nranks : *peer + 1); s++) {
    fifo_t *f = &m->sends[(size_t)s * (size_t)m->nranks + (size_t)rank];
    size_t at = first_accepted(f, mine);
    if (at < f->n && (!best || f->v[at].start.at < best->v[best_at].start.at)) {
      best = f;
      best_at = at;
    }
  }
  if (!best) {
    *oom = enqueue(m, &m->posted[rank], mine);
    return NO_ENTRY;
  }
  return take_send(m, best, best_at, 1, rank, peer, tag, mine);
}

/* An MPI_Mrecv at `rank` from `*peer`: the oldest send its matched probe took from that rank (a receive posted
 * between them could not take it), else as a receive (a timeline whose probe was not read). */
static entry_t pair_mrecv(met_tl_match_t *m, int rank, int *peer, const endref_t *mine, int *oom)
{
  fifo_t *f = &m->claimed[rank];
  for (size_t i = f->head; i < f->n; i++)
    if (!f->v[i].taken && f->v[i].rank == *peer && same_envelope(&f->v[i], mine))
      return take_send(m, f, i, 0, rank, peer, NULL, mine);
  return pair_recv(m, rank, peer, NULL, mine, oom);
}

/* A probe at `rank` that found a message from `peer`: MPI's matching without receiving the message, the oldest
 * unpaired send from `peer` it accepts (a receive posted earlier that accepts it would have taken it); a matched probe
 * (MPI_Mprobe) moves that send to the rank's claimed sends, for its MPI_Mrecv alone. Returns the send's time, or NAN
 * and queues the probe among the receives, for the next such send to tell it. */
static entry_t pair_probe(met_tl_match_t *m, int rank, int peer, const endref_t *mine, int *oom)
{
  fifo_t *f = &m->sends[(size_t)peer * (size_t)m->nranks + (size_t)rank];
  size_t at = first_accepted(f, mine);
  if (at == f->n) {
    *oom = enqueue(m, &m->posted[rank], mine);
    return NO_ENTRY;
  }
  endref_t found = f->v[at];
  if (mine->probe == PROBE_MATCHED) { /* MPI_Mprobe takes the message out of matching, for its MPI_Mrecv */
    fifo_remove(m, f, at);
    *oom = enqueue(m, &m->claimed[rank], &found);
  }
  return found.start;
}

/* A send-receive at `rank`: its send half paired as a send to iv.peer, its receive half as a receive from recv.peer,
 * each a message end with a number of its own (a half with no partner, MPI_PROC_NULL, is not paired). 0, or -1 out of
 * memory. */
static int push_sendrecv(met_tl_match_t *m, int rank, met_tl_event_t *e)
{
  rank_state_t *s = &m->ranks[rank];
  int oom = 0;
  e->recv.id = s->next_id++; /* the number after its own (met_tl_match_push's) */
  e->recv.partner = e->recv.partner_raw = NAN;
  e->recv.src = -1;
  entry_t at = {e->iv.start, e->read_start, e->id}, partner;
  if (e->iv.peer >= 0) {
    endref_t send = {rank, e->iv.peer, e->tag, e->comm, e->id, at, 0, 0};
    partner = pair_send(m, rank, e->iv.peer, &send, &oom);
    e->partner = partner.at;
    e->partner_raw = partner.raw;
  }
  int peer = e->recv.peer;
  if (!oom && peer >= 0) {
    at.id = e->recv.id;
    endref_t recv = {rank, peer, e->recv.tag, e->comm, e->recv.id, at, 0, 0};
    partner = pair_recv(m, rank, &peer, NULL, &recv, &oom);
    e->recv.partner = partner.at;
    e->recv.partner_raw = partner.raw;
    e->recv.src = partner.id;
  }
  return oom;
}

/* The kind of collective `e` is: its blocking counterpart's for a non-blocking one's initiation. */
static met_tl_kind_t coll_kind(const met_tl_event_t *e)
{
  return e->kind == TL_ICOLL ? e->icoll : e->kind;
}

/* `s`'s kept collective call number `k` of `group` (a rank has one at most: its blocking call or its initiation), or
 * s->n. Looked for from both ends of the kept intervals at once: the call a member's entry completes is mostly the
 * oldest kept (waiting for that member) or the newest (just read); from the newest alone, a rank that kept 7,600
 * intervals behind a folded root scanned them all at each of its 4,000 broadcasts
 * (tests/data/tracer/kept-behind-folded-root). */
static size_t kept_collective(const rank_state_t *s, int group, long k)
{
  for (size_t lo = s->head, hi = s->n; lo < hi; lo++) {
    if (s->events[lo].coll == k && s->events[lo].group == group)
      return lo;
    hi--;
    if (s->events[hi].coll == k && s->events[hi].group == group)
      return hi;
  }
  return s->n;
}

/* Whether a member of a collective of `kind` waits for no other member, whatever their entries: a broadcast's or
 * scatter's root (`root`), the other members of a reduce or gather, a scan's first member (`first`). */
static int waits_for_no_one(met_tl_kind_t kind, int root, int first)
{
  return kind == TL_ONE_TO_N ? root : kind == TL_N_TO_ONE ? !root : kind == TL_PREFIX ? first : 0;
}

/* The lowest world rank of group `group`'s members. */
static int lowest_member(const met_tl_match_t *m, int group)
{
  const int *members = met_tl_groups_members(m->groups, group);
  return members ? members[0] : 0;
}

/* waits_for_no_one for `rank`'s collective `ev`: such a call may go into the trace before the others entered
 * (add_collective). */
static int awaits_no_one(const met_tl_match_t *m, int rank, const met_tl_event_t *ev)
{
  return waits_for_no_one(coll_kind(ev), rank == ev->root, rank == lowest_member(m, ev->group));
}

/* Instance `in` (number `k`) of a scan on ev->group complete, `ev` of `rank` its last member's call read: each member's
 * call learns the last entry of the members before it (none for the first), which it waits for (Scalasca's Early
 * Scan). The first member's call may have gone into the trace already (awaits_no_one): its entry is the instance's. */
static void tell_prefix(met_tl_match_t *m, int rank, met_tl_event_t *ev, const met_tl_instance_t *in, long k)
{
  int size = met_tl_groups_size(m->groups, ev->group);
  const int *members = met_tl_groups_members(m->groups, ev->group);
  entry_t before = {in->root_at, in->root_raw, -1};
  for (int j = 0; j < size; j++) {
    int r = members ? members[j] : j;
    rank_state_t *s = &m->ranks[r];
    size_t i = r == rank ? s->n : kept_collective(s, ev->group, k);
    met_tl_event_t *e = r == rank ? ev : i < s->n ? &s->events[i] : NULL;
    if (!e)
      continue;
    if (j == 0) { /* waits for no one */
      e->partner = e->partner_raw = NAN;
      continue;
    }
    e->partner = before.at;
    e->partner_raw = before.raw;
    before.at = fmax(before.at, e->iv.start); /* fmax takes the entry over NAN */
    before.raw = fmax(before.raw, e->read_start);
  }
}

/* Counts `rank`'s synchronising collective in its instance of its communicator's (ev->group); a call that differs
 * from the other members' (not the same collective, or a rooted one that names another root) stops the pairing of that
 * communicator's collectives. Its number there, or -1 when not paired, -2 when out of memory. */
static long join_collective(met_tl_match_t *m, int rank, met_tl_event_t *ev)
{
  long k;
  if (met_tl_groups_join(m->groups, ev->group, rank, &k) != 0)
    return -2;
  met_tl_instance_t *in = k >= 0 ? met_tl_groups_instance(m->groups, ev->group, k) : NULL;
  if (!in)
    return k;
  int rooted = met_tl_rooted(coll_kind(ev));
  if (in->count == 0) {
    snprintf(in->call, sizeof in->call, "%s", ev->call);
    in->root = rooted ? ev->root : -1;
    in->last_entry = ev->iv.start;
    in->last_raw = ev->read_start;
  } else if (strcmp(in->call, ev->call) != 0 || (rooted && in->root != ev->root)) { /* or its root */
    met_tl_groups_stop(m->groups, ev->group);
    m->differ = 1;
    return -1;
  }
  in->count++;
  in->last_entry = fmax(in->last_entry, ev->iv.start);
  in->last_raw = fmax(in->last_raw, ev->read_start);
  if (in->early && in->count == met_tl_groups_size(m->groups, ev->group))
    m->collectives++;                                             /* its lowest member's went first (add_collective) */
  if (coll_kind(ev) == TL_PREFIX && awaits_no_one(m, rank, ev)) { /* the scan's first member's entry (tell_prefix) */
    in->root_at = ev->iv.start;
    in->root_raw = ev->read_start;
  }
  if (rooted) { /* fmin takes the read one over NAN */
    int root = rank == ev->root;
    double *at = root ? &in->root_at : &in->leaf_at, *raw = root ? &in->root_raw : &in->leaf_raw;
    *at = fmin(*at, ev->iv.start);
    *raw = fmin(*raw, ev->read_start);
  }
  int size = met_tl_groups_size(m->groups, ev->group);
  const int *members = met_tl_groups_members(m->groups, ev->group);
  if (in->count == size && ev->kind == TL_PREFIX)
    tell_prefix(m, rank, ev, in, k);
  for (int j = 0; in->count == size && m->causal && j < size; j++) { /* the others' calls may end too early */
    int r = members ? members[j] : j;
    size_t i = r == rank ? m->ranks[r].n : kept_collective(&m->ranks[r], ev->group, k);
    if (i < m->ranks[r].n)
      settle_from(m, r, i);
  }
  return k;
}

/* The number on the rank of the posting a line's request names by its age (the postings the rank made after it), or
 * -1 when it is older than every posting read. */
static long long posting_aged(const rank_state_t *s, long long age)
{
  return age >= 0 && age < s->posts ? s->posts - 1 - age : -1;
}

/* The outstanding operation of posting `req` among `s`'s, or s->nops. */
static size_t op_posted(const rank_state_t *s, long long req)
{
  size_t i = 0;
  while (i < s->nops && s->ops[i].req != req)
    i++;
  return i;
}

/* Wait or test `e` of `rank` (its request numbered), read after an MPI_Cancel: when it completed a receive posted from
 * any source and its line gives 0 bytes received, that receive was cancelled (MPI_Test_cancelled; the tracer writes no
 * TI action for it): taken out of matching before a send pairs with it, complete at once with nothing to wait for,
 * as on MPI_PROC_NULL. Left in, the next message to the rank paired with it, every later receive with the message
 * after its own (tests/data/tracer/cancelled-any-source). */
static void withdraw_cancelled(met_tl_match_t *m, int rank, const met_tl_event_t *e)
{
  rank_state_t *s = &m->ranks[rank];
  if (s->cancels == 0 || e->req < 0 || e->others || e->iv.bytes != 0)
    return;
  size_t i = op_posted(s, e->req);
  if (i == s->nops || s->ops[i].any_bytes < 0)
    return;
  op_t *op = &s->ops[i];
  s->cancels--;
  fifo_t *f = &m->posted[rank];
  for (size_t k = f->head; isnan(op->partner) && k < f->n; k++)
    if (!f->v[k].taken && f->v[k].id == op->id) {
      fifo_remove(m, f, k);
      break;
    }
  if (!isnan(op->partner)) /* a send took it already (read before the cancel): left as paired */
    return;
  op->partner = op->partner_raw = op->post;
  op->dir = MET_DIR_NONE;
  op->any_bytes = -1;
}

/* MPI_Request_free `e` of `rank`, which names the pending request it freed (its age): a send, or an operation with
 * MPI_PROC_NULL, is taken out of the outstanding operations, as no wait will complete it (its message pairs as any
 * other). Before, a loop of MPI_Isend and MPI_Request_free piled them up until they were given up, 4,096 at a time,
 * and reported as receives unpaired (test_timeline_freed_sends_not_outstanding). A freed receive stays, for a wait of
 * every request to count its message. */
static void withdraw_freed(rank_state_t *s, const met_tl_event_t *e)
{
  long long posting = posting_aged(s, e->req);
  if (posting < 0 || strcmp(e->call, "MPI_Request_free") != 0)
    return;
  size_t i = op_posted(s, posting);
  if (i < s->nops && s->ops[i].dir != MET_DIR_RECV) {
    memmove(&s->ops[i], &s->ops[i + 1], (s->nops - i - 1) * sizeof *s->ops);
    s->nops--;
  }
}

/* Room for one more outstanding operation of `s` (NULL when out of memory), at its end: when it holds 2 OPS_KEPT, the
 * older half, never completed by a wait the timeline shows, is given up: its receives counted as unmatched, its sends
 * and collectives as given up (their messages are paired all the same: before, a program's 4,096 sends no wait
 * completed were said to be receives unpaired). */
static op_t *new_op(met_tl_match_t *m, rank_state_t *s)
{
  if (s->nops == 2 * OPS_KEPT) {
    size_t receives = 0;
    for (size_t i = 0; i < OPS_KEPT; i++)
      receives += s->ops[i].dir == MET_DIR_RECV;
    m->unmatched += receives;
    m->given_up += OPS_KEPT - receives;
    memmove(s->ops, s->ops + OPS_KEPT, OPS_KEPT * sizeof *s->ops);
    s->nops = OPS_KEPT;
  }
  if (bas_reserve((void **)&s->ops, &s->ops_cap, s->nops, sizeof *s->ops, 16) != 0)
    return NULL;
  return &s->ops[s->nops++];
}

/* The outstanding operation of `s` that is its non-blocking collective number `k` of `group`, or s->nops. */
static size_t icoll_op(const rank_state_t *s, int group, long k)
{
  size_t i = 0;
  while (i < s->nops && !(s->ops[i].icoll != TL_OTHER && s->ops[i].group == group && s->ops[i].coll == k))
    i++;
  return i;
}

/* Instance `k` of `group` of non-blocking collectives, every member's initiation read: each member's operation of it
 * that waits (post_collective) learns the entry it waits for, and the member's kept intervals after its posting settle
 * again (the wait or test that names it may end later). A scan's member other than the first waits for the last entry
 * of the members before it, in the communicator's order (as tell_prefix has a blocking one's); where a member's
 * operation went before (its rank held HOLD_MAX intervals and its wait went into the trace), its entry is not known:
 * the members after it wait for no one, and the communicator's pairing stops (as a blocking call's that left early). */
static void icolls_complete(met_tl_match_t *m, int group, long k, met_tl_kind_t kind)
{
  const met_tl_instance_t *in = met_tl_groups_instance(m->groups, group, k);
  int size = met_tl_groups_size(m->groups, group);
  const int *members = met_tl_groups_members(m->groups, group);
  entry_t before = in ? (entry_t){in->root_at, in->root_raw, -1} : NO_ENTRY; /* a scan's first member's entry */
  int prefix = kind == TL_PREFIX; /* the instance's calls are one (join_collective) */
  int lost = 0; /* a scan member's operation gone before the last member came (its wait forced out: HOLD_MAX) */
  for (int j = 0; in && in->count == size && j < size; j++) {
    int r = members ? members[j] : j;
    rank_state_t *s = &m->ranks[r];
    size_t i = icoll_op(s, group, k);
    lost |= prefix && j > 0 && i == s->nops;
    if (i == s->nops || !isnan(s->ops[i].partner))
      continue;
    op_t *op = &s->ops[i];
    entry_t until = !prefix ? instance_awaited(in, op->icoll, op->root) : lost ? NO_ENTRY : before;
    if (op->icoll == TL_PREFIX) { /* fmax takes the entry over NAN */
      before.at = fmax(before.at, op->post);
      before.raw = fmax(before.raw, op->post_raw);
    }
    op->partner = isnan(until.at) ? op->post : until.at;
    op->partner_raw = isnan(until.at) ? -INFINITY : until.raw;
    settle_from(m, r, kept_from(s, op->post));
  }
  if (lost) { /* the later members' waits are not known: none is counted, and the report says why */
    met_tl_groups_stop(m->groups, group);
    m->held = 1;
  } else if (in && in->count == size)
    m->collectives++;
}

/* The initiation `e` of a non-blocking collective of `rank` (TL_ICOLL): an outstanding operation, counted among the
 * postings, joined to its communicator's collectives (MPI orders the blocking and non-blocking ones of a communicator
 * alike), complete once its instance's members came (icolls_complete), as its blocking counterpart would be: a
 * barrier's or N x N's when the last entered, a broadcast's or scatter's (but at the root) when the root did, a
 * reduce's or gather's at the root when the first other did; at once where it waits for no one, or is not paired (a
 * communicator no file defines, a rooted one whose line gives no root). 0, or -1 when out of memory. */
static int post_collective(met_tl_match_t *m, int rank, met_tl_event_t *e)
{
  rank_state_t *s = &m->ranks[rank];
  op_t *op = new_op(m, s);
  if (!op)
    return -1;
  int root = met_tl_rooted(e->icoll) && rank == e->root;
  int paired = e->group >= 0 && (!met_tl_rooted(e->icoll) || e->root >= 0);
  int waits = !waits_for_no_one(e->icoll, root, paired && rank == lowest_member(m, e->group));
  *op = (op_t){.id = s->next_id++,
               .req = s->posts++,
               .peer = -1,
               .dir = MET_DIR_NONE,
               .post = e->iv.start,
               .post_raw = e->read_start,
               .partner = NAN,
               .partner_raw = NAN,
               .src = -1,
               .any_bytes = -1,
               .tag = -1,
               .bytes = e->iv.bytes,
               .icoll = e->icoll,
               .coll = -1,
               .group = e->group,
               .root = root,
               .call = met_nbc_call_of(e->call),
               .root_rank = met_tl_rooted(e->icoll) ? e->root : -1,
               .initiated = NAN,
               .received = e->received};
  long k = paired ? join_collective(m, rank, e) : -1; /* -1: not paired */
  if (k == -2)
    return -1;
  e->coll = op->coll = k; /* joining moves no kept interval nor operation */
  if (k < 0 || !waits) {  /* complete at once: icolls_complete sets only those still waiting */
    op->partner = e->iv.start;
    op->partner_raw = e->read_start;
  }
  if (k >= 0)
    icolls_complete(m, e->group, k, e->icoll);
  return 0;
}

/* The group of collective `e`'s sub-communicator when a file defined it and `rank` (and a rooted call's root) is one of
 * its members, else -1. */
static int sub_group(const met_tl_match_t *m, int rank, const met_tl_event_t *e)
{
  int group = met_tl_groups_of(m->groups, e->comm, rank);
  return group > 0 && (!met_tl_rooted(coll_kind(e)) || met_tl_groups_of(m->groups, e->comm, e->root) == group) ? group
                                                                                                               : -1;
}

const char *met_tl_match_define(met_tl_match_t *m, int rank, int key, const int *members, int n, int in_order, int *oom)
{
  return met_tl_groups_define(m->groups, rank, key, members, n, in_order, oom);
}

size_t met_tl_match_scans_unordered(const met_tl_match_t *m)
{
  return m->scans_unordered;
}

int met_tl_match_colls_held(const met_tl_match_t *m)
{
  return m->held;
}

int met_tl_match_push(met_tl_match_t *m, int rank, const met_tl_event_t *read)
{
  rank_state_t *s = &m->ranks[rank];
  const met_tl_event_t *ev = read; /* as read: its times delayed are e's */
  if (m->causal)
    settle_from(m, rank, s->n > s->head ? s->n - 1 : s->n);
  if (s->head > 0 && s->head >= s->n / 2) { /* drop what went into the trace: memory stays what is kept */
    memmove(s->events, s->events + s->head, (s->n - s->head) * sizeof *s->events);
    s->n -= s->head;
    s->wait_to = s->wait_to > s->head ? s->wait_to - s->head : 0;
    s->unsettled = s->unsettled == SIZE_MAX ? SIZE_MAX : s->unsettled > s->head ? s->unsettled - s->head : 0;
    s->head = 0;
  }
  if (bas_reserve((void **)&s->events, &s->cap, s->n, sizeof *s->events, 16) != 0)
    return BAS_ENOMEM;
  met_tl_event_t *e = &s->events[s->n++];
  *e = *read;
  if (m->causal) { /* by what keeping causality put back so far: its partners see it so */
    e->iv.start = fmax(read->iv.start + s->delay, s->last_end);
    e->iv.end = fmax(read->iv.end + s->delay, e->iv.start);
    s->last_end = e->iv.end;
  }
  e->id = s->next_id++; /* every kept interval numbered in order (kept_numbered); a message end pairs by its own */
  if (awaits_operations(e->kind))
    s->wait_to = s->n;
  e->partner = e->partner_raw = NAN;
  e->src = -1;
  e->coll = -1;
  e->group = 0;
  if (met_tl_synchronising(coll_kind(e)) && e->comm != 0 && (e->group = sub_group(m, rank, e)) < 0) {
    m->undefined++;
    if (e->kind != TL_ICOLL) { /* on a communicator no file defines: as the file gives it (a non-blocking one's */
      e->kind = TL_OTHER;      /* initiation stays a posting, not paired: group -1) */
      e->group = 0;
    }
  }
  if (coll_kind(e) == TL_PREFIX && e->group >= 0 && !met_tl_groups_ordered(m->groups, e->group)) {
    int posting = e->kind == TL_ICOLL;       /* its members' order is not known to the spans: as the file gives it, a */
    e->kind = posting ? TL_ICOLL : TL_OTHER; /* non-blocking one's initiation a posting, not paired */
    e->group = posting ? -1 : 0;
    m->scans_unordered++;
  }
  if (awaits_operations(ev->kind) && ev->req >= 0) { /* its request's age: postings since its own */
    e->req = posting_aged(s, ev->req);               /* older than every posting: taken by its kind */
    withdraw_cancelled(m, rank, e);
  }
  withdraw_freed(s, ev);
  s->cancels += strcmp(ev->call, "MPI_Cancel") == 0;
  m->starts += ev->unpaired_start;
  int oom = 0;
  int null_peer = ev->iv.peer == MET_TL_PEER_NULL; /* MPI_PROC_NULL: no partner, and none of any source either */
  int peer = null_peer ? -1 : ev->iv.peer;
  e->iv.peer = peer;
  met_dir_t dir = ev->kind == TL_SEND || ev->kind == TL_ISEND ? MET_DIR_SEND : MET_DIR_RECV;
  if (ev->kind == TL_SEND || ev->kind == TL_RECV || ev->kind == TL_PROBE || ev->kind == TL_MPROBE ||
      ev->kind == TL_MRECV) {
    int probe = ev->kind == TL_PROBE ? PROBE_ANY : ev->kind == TL_MPROBE ? PROBE_MATCHED : 0;
    endref_t mine = {rank, peer, ev->tag, ev->comm, e->id, {e->iv.start, ev->read_start, e->id}, probe, 0};
    /* pairing moves no kept interval: e stays valid */
    entry_t partner = probe                  ? pair_probe(m, rank, peer, &mine, &oom)
                      : dir == MET_DIR_SEND  ? pair_send(m, rank, peer, &mine, &oom)
                      : ev->kind == TL_MRECV ? pair_mrecv(m, rank, &peer, &mine, &oom)
                                             : pair_recv(m, rank, &peer, NULL, &mine, &oom);
    e->partner = partner.at;
    e->partner_raw = partner.raw;
    e->src = partner.id;
  } else if (ev->kind == TL_ISEND || ev->kind == TL_IRECV) {
    op_t *op = new_op(m, s);
    if (!op)
      return BAS_ENOMEM;
    long long id = s->next_id++;
    *op = (op_t){.id = id,
                 .req = s->posts++,
                 .peer = peer,
                 .dir = null_peer ? MET_DIR_NONE : dir,
                 .post = e->iv.start,
                 .partner = NAN,
                 .sync = is_sync(ev),
                 .partner_raw = NAN,
                 .src = -1,
                 .any_bytes = dir == MET_DIR_RECV && peer < 0 && !null_peer ? ev->iv.bytes : -1,
                 .bytes = ev->iv.bytes,
                 .tag = ev->iv.tag,
                 .comm = ev->iv.comm};
    endref_t mine = {rank, peer, ev->tag, ev->comm, id, {e->iv.start, ev->read_start, id}, 0, 0};
    int tag = -1;                                        /* a receive's from any tag: the message's, when paired now */
    entry_t partner = null_peer             ? mine.start /* complete at once: nothing to wait for */
                      : dir == MET_DIR_SEND ? pair_send(m, rank, peer, &mine, &oom)
                                            : pair_recv(m, rank, &peer, &tag, &mine, &oom);
    if (s->ops[s->nops - 1].tag < 0 && dir == MET_DIR_RECV)
      s->ops[s->nops - 1].tag = tag;
    s->ops[s->nops - 1].partner = partner.at;
    s->ops[s->nops - 1].partner_raw = partner.raw;
    s->ops[s->nops - 1].src = null_peer ? -1 : partner.id;
    s->ops[s->nops - 1].peer = peer;
  } else if (ev->kind == TL_SENDRECV)
    oom = push_sendrecv(m, rank, e); /* pairing moves no kept interval: e stays valid */
  else if (ev->kind == TL_ICOLL) {
    if (post_collective(m, rank, e) != 0)
      return BAS_ENOMEM;
  } else if (met_tl_synchronising(e->kind)) {
    long k = join_collective(m, rank, e);
    if (k == -2)
      return BAS_ENOMEM;
    s->events[s->n - 1].coll = k;
  }
  /* not settled since read: a message to itself paired above told this rank, whose pass then settled it before its
   * partner was set */
  s->unsettled = s->unsettled < s->n - 1 ? s->unsettled : s->n - 1;
  return oom;
}

/* Adds `iv` to the trace, made to start no earlier than `rank`'s previous interval ended (after a receive the clock
 * condition moved: met_timeline_clock.h), as its call's first piece or a later one; a message's sending end records
 * when it was sent, for its receive. 0, or -1
 * when the trace refuses it or out of memory. */
static int put_placed(met_tl_match_t *m, met_trace_t *trace, int rank, met_interval_t *iv)
{
  rank_state_t *s = &m->ranks[rank];
  if (s->pieces++ > 0 && iv->call > 0)
    iv->call = -iv->call;
  met_tl_clock_place(m->clock, rank, &iv->start, &iv->end);
  if (iv->category == MET_CAT_COMM && iv->dir == MET_DIR_SEND && iv->peer >= 0 && s->sending >= 0) {
    if (met_tl_clock_record(m->clock, rank, s->sending, iv->start) != 0)
      return -1;
    s->sending = -1;
  }
  return met_trace_add(trace, rank, iv);
}

/* put_placed on a copy of `iv`. */
static int put(met_tl_match_t *m, met_trace_t *trace, int rank, const met_interval_t *iv)
{
  met_interval_t placed = *iv;
  return put_placed(m, trace, rank, &placed);
}

/* The clock condition on a receive of `rank` ending at `*end` of the message `sender` sent as its number `src`, entered
 * at `entry` (as the rules see it): *end is made no earlier than when that send went into the trace plus MET_TL_TICK
 * (met_timeline_clock.h). Returns how much later it ends than it would have (0: not moved), with the send's time in
 * *sent. */
static double keep_clock(met_tl_match_t *m, int rank, int sender, long long src, double entry, double *end,
                         double *sent)
{
  *sent = NAN;
  if (sender < 0 || sender >= m->nranks || isnan(entry))
    return 0;
  *sent = met_tl_clock_sent(m->clock, sender, src, entry);
  double late = met_tl_clock_late(fmax(*end, met_tl_clock_last(m->clock, rank)), *sent);
  if (late > 0)
    *end = *sent + MET_TL_TICK;
  m->ranks[rank].moved += late;
  return late;
}

/* Adds `iv` split at `idle_end`: idle before it (with the partner and end that waited), communication after it
 * (with `comm_peer` and `comm_dir`). The wait, as placed, goes into an aggregate trace's sums: by met_wait.h's
 * point-to-point rule when it waited for a partner's message, else as `pattern` (a collective's; -1: none); its
 * seconds into *waited unless NULL. */
static int add_split(met_tl_match_t *m, met_trace_t *trace, int rank, const met_interval_t *iv, double idle_end,
                     int wait_peer, met_dir_t wait_dir, int comm_peer, met_dir_t comm_dir, int pattern, double *waited)
{
  met_interval_t wait = *iv;
  met_interval_t transfer = *iv;
  wait.end = transfer.start = idle_end;
  wait.category = MET_CAT_IDLE;
  wait.peer = wait_peer;
  wait.dir = wait_dir;
  wait.bytes = comm_peer >= 0 ? iv->bytes : 0;
  transfer.category = MET_CAT_COMM;
  transfer.peer = comm_peer;
  transfer.dir = comm_dir;
  transfer.bytes = comm_peer >= 0 ? iv->bytes : 0;
  if (wait_peer >= 0 && wait_dir != MET_DIR_NONE)
    pattern = wait_dir == MET_DIR_RECV ? MET_WAIT_LATE_SENDER : MET_WAIT_LATE_RECEIVER;
  if (put_placed(m, trace, rank, &wait) != 0)
    return -1;
  if (pattern >= 0)
    met_trace_add_wait(trace, rank, pattern, wait.end - wait.start);
  if (waited)
    *waited = wait.end - wait.start;
  return put(m, trace, rank, &transfer);
}

static double clamp(double t, const met_interval_t *iv)
{
  return fmin(iv->end, fmax(iv->start, t));
}

/* A blocking message end: a receive waits until the sender entered its send; a send that lasted past the receiver's
 * entry (a rendezvous) waits until that entry, one that ended before it (an eager send) does not wait, unless it is
 * synchronous (is_sync): it waited to its end. A receive that ends before its send went into the trace ends just
 * after it (keep_clock), having waited until it. */
static int add_blocking(met_tl_match_t *m, met_trace_t *trace, int rank, const met_tl_event_t *ev)
{
  met_interval_t iv = ev->iv;
  met_dir_t dir = ev->kind == TL_SEND ? MET_DIR_SEND : MET_DIR_RECV;
  if (isnan(ev->partner) && dir == MET_DIR_SEND) { /* an eager send whose receive comes later: still a message */
    iv.dir = MET_DIR_SEND;
    return put(m, trace, rank, &iv);
  }
  if (isnan(ev->partner))
    return put(m, trace, rank, &iv);
  double idle_end = dir == MET_DIR_RECV || iv.end > ev->partner || is_sync(ev) ? clamp(ev->partner, &iv) : iv.start;
  double sent;
  if (dir == MET_DIR_RECV && keep_clock(m, rank, iv.peer, ev->src, ev->partner, &iv.end, &sent) > 0)
    idle_end = clamp(fmax(idle_end, sent), &iv);
  return add_split(m, trace, rank, &iv, idle_end, iv.peer, dir, iv.peer, dir, -1, NULL);
}

/* A send-receive (docs/tracer.md): its halves overlap inside the call, which waits for the later of its partners: the
 * receive half until its sender entered (late sender), the send half until its receiver entered when the call lasted
 * past that (late receiver; one that ended before: eager, no wait). Idle until then, the rest communication, where
 * the message received is counted (the one sent is an empty send end at the entry). As the file gives it when its
 * receive half found no sender. */
static int add_sendrecv(met_tl_match_t *m, met_trace_t *trace, int rank, const met_tl_event_t *ev)
{
  const met_interval_t *iv = &ev->iv;
  int from = ev->recv.peer;
  if (from >= 0 && isnan(ev->recv.partner))
    m->unmatched++;
  if ((from >= 0 && isnan(ev->recv.partner)) || (from < 0 && iv->peer < 0))
    return put(m, trace, rank, iv);
  double sender = from >= 0 ? ev->recv.partner : -INFINITY;
  double receiver = iv->peer >= 0 && iv->end > ev->partner ? ev->partner : -INFINITY; /* NAN: eager */
  int late_sender = from >= 0 && sender >= receiver;
  met_interval_t sent = *iv; /* the message sent, an empty send end at the entry as an eager send's (for OTF2) */
  sent.end = iv->start;
  sent.category = MET_CAT_COMM;
  sent.dir = MET_DIR_SEND;
  if (from >= 0 && iv->peer >= 0 && put(m, trace, rank, &sent) != 0)
    return -1;
  met_interval_t whole = *iv;
  whole.bytes = from >= 0 ? ev->recv.bytes : iv->bytes;
  whole.tag = from >= 0 ? ev->recv.tag : iv->tag;
  double idle_end = clamp(fmax(sender, receiver), iv);
  double sent_at; /* the receive half ends after its send went into the trace (keep_clock), having waited until it */
  if (from >= 0 && keep_clock(m, rank, from, ev->recv.src, ev->recv.partner, &whole.end, &sent_at) > 0) {
    idle_end = clamp(fmax(idle_end, sent_at), &whole);
    late_sender = 1;
  }
  return add_split(m, trace, rank, &whole, idle_end, late_sender ? from : iv->peer,
                   late_sender ? MET_DIR_RECV : MET_DIR_SEND, from >= 0 ? from : iv->peer,
                   from >= 0 ? MET_DIR_RECV : MET_DIR_SEND, -1, NULL);
}

/* A probe that found a message: idle until that message's sender entered its send (a late sender, as Scalasca counts
 * a probe's wait), then communication without the message's bytes (its receive moves them); as the file gives it when
 * the send was not found. */
static int add_probe(met_tl_match_t *m, met_trace_t *trace, int rank, const met_tl_event_t *ev)
{
  if (isnan(ev->partner))
    return put(m, trace, rank, &ev->iv);
  return add_split(m, trace, rank, &ev->iv, clamp(ev->partner, &ev->iv), ev->iv.peer, MET_DIR_RECV, -1, MET_DIR_NONE,
                   -1, NULL);
}

/* When an outstanding operation could complete, for a wait or poll that ended at `end`: a receive once its sender
 * entered the send; a send once its receiver posted the receive, unless the wait ended before that (an eager send,
 * complete once posted; a synchronous one, at the wait's end). NAN when not paired. */
static double arrival(const op_t *op, double end)
{
  if (isnan(op->partner))
    return NAN;
  if (op->dir == MET_DIR_SEND && op->partner > end)
    return op->sync ? end : op->post;
  return fmax(op->post, op->partner);
}

/* Whether `op` may be taken for the first operation wait or poll `ev` completed (MPI_Waitany's, one of
 * MPI_Waitsome's, whether or not it arrived by the wait's end): not a receive from any source when its line says it
 * received no bytes from any source (the tracer writes theirs, trc_req_received_all). Such a receive is then completed
 * by a later call, not before its message came; as the first, a receive whose sender entered after an MPI_Waitsome that
 * completed an isend alone was drawn before its send in the exports (a helper's yorick-mpy runs at p = 2: 1 or 2 of 556
 * receives, up to 547 ns early, 6 runs of 6). One whose sender entered before the wait's end still completes there, and
 * one that is the only candidate (older tracers wrote no bytes on a wait's line). */
static int may_be_first(const met_tl_event_t *ev, const op_t *op)
{
  return op->any_bytes < 0 || ev->iv.bytes > 0;
}

/* Whether wait or poll `ev`, which names its requests (ev->req >= 0), names `op`: its request, or one of the others
 * its mask gives (bit i: the posting i + 1 before it). */
static int names(const met_tl_event_t *ev, const op_t *op)
{
  long long older = ev->req - op->req;
  return older == 0 || (older > 0 && older <= 64 && (ev->others >> (older - 1) & 1));
}

/* Whether wait or poll `ev` completed nothing, whatever is outstanding: a test the file gives as idle (an unsuccessful
 * one, or a run of them) that names no request (completes). */
static int completes_nothing(const met_tl_event_t *ev)
{
  return ev->req < 0 && ev->req != MET_TL_REQ_NONE && ev->kind == TL_POLL && ev->iv.category == MET_CAT_IDLE;
}

/* Whether outstanding operation `op` is among those the wait or poll `ev` completed: the requests the timeline names
 * on the wait's line when it does (an MPI_Wait, Waitany, or a test that succeeded; an MPI_Waitsome, Testsome, Testall,
 * or an MPI_Waitall that left others pending, which also completes the receives from MPI_PROC_NULL posted before it:
 * Open MPI gives them all one handle, which the tracer cannot name); only those receives when the line says it
 * completed none the timeline holds (MET_TL_REQ_NONE: a non-blocking collective's request, whose MPI_Wait completed
 * the oldest pending receive before, idle until its sender came and the computation after it shrank:
 * tests/data/tracer/nbc_wait.c); none for a test the file gives as
 * idle, which completed nothing (the tracer writes a successful one as ctrl, an unsuccessful one alone as idle
 * without its count); otherwise by its kind: MPI_Wait the oldest with its partner, MPI_Waitall every one, MPI_Waitany
 * the first to arrive (`first`), MPI_Waitsome and polls those arrived by their end. Before, an unsuccessful test
 * completed every receive whose sender had entered by its end: a message beyond the eager limit, which MPI delivers
 * later, was exported inside it (a helper's tachyon at p = 2: 157 of 210 receives inside MPI_Testsome calls that all
 * found nothing). */
static int completes(const met_tl_event_t *ev, const op_t *op, const op_t *oldest, const op_t *first)
{
  double a = arrival(op, ev->iv.end);
  int null_receive = op->dir == MET_DIR_NONE && op->icoll == TL_OTHER; /* from MPI_PROC_NULL */
  if (ev->req == MET_TL_REQ_NONE)
    return null_receive;
  if (ev->req >= 0)
    return names(ev, op) || (ev->others && null_receive);
  if (completes_nothing(ev))
    return 0;
  switch (ev->kind) {
  case TL_WAIT:
    return op == oldest;
  case TL_WAITALL:
    return 1;
  case TL_WAITANY:
    return op == first;
  case TL_WAITSOME:
    return op == first || a <= ev->iv.end;
  default: /* a poll sees a message that arrived before it returned */
    return a < ev->iv.end && (ev->iv.peer < 0 || op->peer == ev->iv.peer);
  }
}

/* The outstanding operations posted before `ev` started: the oldest one with its partner (any partner for -1) and
 * the one that could complete first (may_be_first; the oldest of all when none may). */
static void candidates(const rank_state_t *s, const met_tl_event_t *ev, const op_t **oldest, const op_t **first)
{
  *oldest = *first = NULL;
  const op_t *any = NULL;
  double best = INFINITY;
  if (ev->req >= 0 || ev->req == MET_TL_REQ_NONE)
    return; /* completes what it names (completes): no candidate is asked for */
  for (size_t i = 0; i < s->nops && s->ops[i].post <= ev->iv.start; i++) {
    const op_t *op = &s->ops[i];
    if (!*oldest && (ev->iv.peer < 0 || op->peer == ev->iv.peer))
      *oldest = op;
    any = any ? any : op;
    if (!may_be_first(ev, op))
      continue;
    double a = arrival(op, ev->iv.end);
    if (!*first || a < best) {
      *first = op;
      best = isnan(a) ? best : a;
    }
  }
  *first = *first ? *first : any;
}

/* The outstanding operations wait or poll `ev` may complete: s->ops from *from to *to. One that names its request
 * without a mask of others (an MPI_Wait, a successful MPI_Test) completes that posting's alone, found by its number
 * (the operations are in posting order); the others may complete any. Before, each scanned every operation kept, up
 * to 2 OPS_KEPT: a program whose sends no wait completed (Ray's, traced by a tracer before shared handles were told
 * apart) took 155 s to read at 200,000 tests a rank. */
static void span_of(const rank_state_t *s, const met_tl_event_t *ev, size_t *from, size_t *to)
{
  *from = 0;
  *to = s->nops;
  if (ev->req < 0 || ev->others)
    return;
  size_t lo = 0, hi = s->nops;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->ops[mid].req < ev->req)
      lo = mid + 1;
    else
      hi = mid;
  }
  *from = lo;
  *to = lo < s->nops && s->ops[lo].req == ev->req ? lo + 1 : lo;
}

/* The latest entry of a sender whose message wait or poll `ev` receives, or of a member a non-blocking collective it
 * completes waited for: of the receives and collectives it completes; NO_ENTRY when none is paired. */
static entry_t received_by(const rank_state_t *s, const met_tl_event_t *ev)
{
  const op_t *oldest, *first;
  size_t from, to;
  if (completes_nothing(ev))
    return NO_ENTRY; /* without a look at every outstanding operation */
  candidates(s, ev, &oldest, &first);
  span_of(s, ev, &from, &to);
  entry_t latest = NO_ENTRY;
  for (size_t i = from; i < to && s->ops[i].post <= ev->iv.start; i++)
    if ((s->ops[i].dir == MET_DIR_RECV || s->ops[i].icoll != TL_OTHER) && !isnan(s->ops[i].partner) &&
        completes(ev, &s->ops[i], oldest, first)) {
      latest.at = isnan(latest.at) ? s->ops[i].partner : fmax(latest.at, s->ops[i].partner);
      latest.raw = isnan(latest.raw) ? s->ops[i].partner_raw : fmax(latest.raw, s->ops[i].partner_raw);
    }
  return latest;
}

/* The entry a member of instance `in` of a collective of `kind` waits for (NO_ENTRY: none), `root` when it is the
 * root: as coll_awaited says. */
static entry_t instance_awaited(const met_tl_instance_t *in, met_tl_kind_t kind, int root)
{
  if (kind == TL_ONE_TO_N)
    return root ? NO_ENTRY : (entry_t){in->root_at, in->root_raw, -1};
  if (kind == TL_N_TO_ONE)
    return root ? (entry_t){in->leaf_at, in->leaf_raw, -1} : NO_ENTRY;
  return (entry_t){in->last_entry, in->last_raw, -1};
}

/* The entry `rank`'s collective `ev` waited for, once every member's call was read (NO_ENTRY: not yet, or nothing to
 * wait for): a barrier's or N x N collective's last member's; in a broadcast or scatter, the root's for the others
 * (late broadcast); in a reduce or gather, the first other member's for the root (early reduce: met_wait.h). */
static entry_t coll_awaited(const met_tl_match_t *m, int rank, const met_tl_event_t *ev)
{
  const met_tl_instance_t *in = met_tl_groups_instance(m->groups, ev->group, ev->coll);
  if (!in || in->count < met_tl_groups_size(m->groups, ev->group))
    return NO_ENTRY;
  if (ev->kind == TL_PREFIX) /* told by tell_prefix */
    return (entry_t){ev->partner, ev->partner_raw, -1};
  return instance_awaited(in, ev->kind, rank == ev->root);
}

/* The entry `ev` waited for, once paired (NO_ENTRY: none, or not paired yet): a receive's, probe's or send-receive's
 * receive half's sender's, the latest sender's of the receives a wait or successful test completes, the last member's
 * of a barrier or N x N collective. A send has none: it may end before its receive starts (eager). */
static entry_t awaited(const met_tl_match_t *m, const rank_state_t *s, const met_tl_event_t *ev)
{
  switch (ev->kind) {
  case TL_RECV:
  case TL_MRECV:
  case TL_PROBE:
  case TL_MPROBE:
    return (entry_t){ev->partner, ev->partner_raw, ev->src};
  case TL_SENDRECV:
    return ev->recv.peer < 0 ? NO_ENTRY : (entry_t){ev->recv.partner, ev->recv.partner_raw, ev->recv.src};
  case TL_WAIT:
  case TL_WAITALL:
  case TL_WAITANY:
  case TL_WAITSOME:
  case TL_POLL: /* not a run of unsuccessful polls ("NAME*COUNT", TL_OTHER): that completed nothing, stays as read */
    return received_by(s, ev);
  case TL_BARRIER:
  case TL_NXN:
  case TL_ONE_TO_N:
  case TL_N_TO_ONE:
  case TL_PREFIX:
    return coll_awaited(m, (int)(s - m->ranks), ev);
  default:
    return NO_ENTRY;
  }
}

/* Keeps causality on `rank`'s kept interval `i` (met_tl_match_keep_causality): one that waited for a partner's entry
 * ends the time it took after that entry (as read) after the later of its own entry and the partner's, as the rules
 * see them; the rank's postings after it, and those to come, move as much. Returns how much its end moved, which the
 * caller moves its later kept intervals by (settle_from). */
static double settle(met_tl_match_t *m, int rank, size_t i)
{
  rank_state_t *s = &m->ranks[rank];
  met_tl_event_t *ev = &s->events[i];
  entry_t partner = awaited(m, s, ev);
  if (isnan(partner.at))
    return 0;
  double end = fmax(ev->iv.start, partner.at) + fmax(0, ev->read_end - fmax(ev->read_start, partner.raw));
  /* Never past its end as read: a partner that entered after the call ended on the clock (a wrong pairing, another
   * host's clock, a loop's mean iteration) would otherwise add that gap to the rank, then to its partners in turn */
  end = fmin(end, fmax(ev->iv.end, ev->read_end));
  double moved = end - ev->iv.end;
  if (moved == 0)
    return 0;
  for (size_t k = 0; k < s->nops; k++)
    if (s->ops[k].post >= ev->iv.end)
      s->ops[k].post += moved;
  ev->iv.end = end;
  s->delay += moved;
  return moved;
}

/* Moves `rank`'s kept interval `i` by `by`, after the previous one's end whatever the rounding. */
static void move_kept(rank_state_t *s, size_t i, double by)
{
  met_interval_t *iv = &s->events[i].iv;
  iv->start = fmax(iv->start + by, s->events[i - 1].iv.end);
  iv->end = fmax(iv->end + by, iv->start);
}

/* settle on `rank`'s kept intervals from `from` on, in one pass: each is moved by what those before it moved when the
 * pass reaches it, then settled. Moving every later interval at each move was quadratic in the kept intervals: a 5-s
 * run of ESyS-Particle at p = 4, whose workers kept 11,000 intervals each (its master's timeline folds its loops, so
 * their collectives complete late), took 29 s to read (tests/data/tracer/kept-behind-folded-root). Where the moves add
 * up to nothing, the pass still settles every wait and poll (one may count an operation whose partner just came, or
 * whose fellows a wait emitted took out) and every interval not settled since it was read or moved (s->unsettled), and
 * skips the others: settled on the same times and partners (a partner told settles from its interval on), each would
 * stay where it is. Visiting them all took that folder 0.53 s to read (7.8 s under ASan): each of some 4,000 partners
 * told passed over the ~3,800 intervals a worker kept. */
static void settle_from(met_tl_match_t *m, int rank, size_t from)
{
  rank_state_t *s = &m->ranks[rank];
  double pending = 0;
  for (size_t i = from; m->causal && i < s->n; i++) {
    if (pending == 0 && i > from && i >= s->wait_to) { /* nothing to settle before s->unsettled */
      if (s->unsettled >= s->n)
        break;
      i = i > s->unsettled ? i : s->unsettled;
    }
    if (pending != 0)
      move_kept(s, i, pending);
    pending += settle(m, rank, i);
  }
  if (m->causal && from <= s->unsettled)
    s->unsettled = SIZE_MAX;
  if (s->n > s->head) /* as moved (by moves that added up to nothing, to the rounding) */
    s->last_end = s->events[s->n - 1].iv.end;
}

/* settle on `rank`'s first kept interval alone, the later ones moved as much (not settled again). */
static void settle_head(met_tl_match_t *m, int rank)
{
  rank_state_t *s = &m->ranks[rank];
  double moved = settle(m, rank, s->head);
  for (size_t i = s->head + 1; moved != 0 && i < s->n; i++)
    move_kept(s, i, moved);
  if (moved != 0) {
    s->last_end = s->events[s->n - 1].iv.end;
    s->unsettled = s->unsettled < s->head + 1 ? s->unsettled : s->head + 1;
  }
}

/* Whether completed operation `op` is a receive whose message this rank counts where it completed: one with its
 * sender known (from any source: once paired), paired or not. */
static int received_here(const op_t *op)
{
  return op->dir == MET_DIR_RECV && op->peer >= 0;
}

/* Sets `iv`'s message to the one receive `op` completed by wait or poll `ev` brought: its sender, tag, communicator
 * and bytes, those the call's line gives when `op` is its only receive from any source (docs/tracer.md), otherwise
 * its posting's (from any source, the buffer's size: the line cannot tell the messages of several apart). */
static void set_received(met_interval_t *iv, const met_tl_event_t *ev, const op_t *op, int nany)
{
  iv->peer = op->peer;
  iv->dir = MET_DIR_RECV;
  iv->tag = op->tag;
  iv->comm = op->comm;
  iv->bytes = op->any_bytes >= 0 && nany == 1 && ev->iv.bytes > 0 ? ev->iv.bytes : op->bytes;
}

/* The receives wait or poll `ev` completed but `skip` (its decisive one, counted on its transfer), each counted as an
 * empty receive end at the call's end, in the order they were posted. */
static int add_received(met_tl_match_t *m, met_trace_t *trace, int rank, const met_tl_event_t *ev, const op_t *skip,
                        int nany)
{
  const rank_state_t *s = &m->ranks[rank];
  for (size_t i = s->from; i < s->to; i++) {
    const op_t *op = &s->ops[i];
    if (!op->completing || !received_here(op) || (skip && op->id == skip->id))
      continue;
    met_interval_t end = ev->iv;
    end.start = ev->iv.end;
    end.category = MET_CAT_COMM;
    set_received(&end, ev, op, nany);
    if (put(m, trace, rank, &end) != 0)
      return -1;
  }
  return 0;
}

/* The calls that poll: tests, then status queries and probes that may find nothing. */
static const char *const POLL_CALLS[] = {
    "MPI_Test", "MPI_Testany", "MPI_Testall", "MPI_Testsome", "MPI_Request_get_status", "MPI_Iprobe", "MPI_Improbe"};
enum { FIRST_PROBE = 5 };

/* Which of POLL_CALLS `call` is, one call or a run of them ("NAME*COUNT"): its index + 1, or 0 when none. */
static int poll_call(const char *call)
{
  for (size_t i = 0; i < sizeof POLL_CALLS / sizeof *POLL_CALLS; i++) {
    size_t n = strlen(POLL_CALLS[i]);
    if (strncmp(call, POLL_CALLS[i], n) == 0 && (call[n] == '\0' || call[n] == '*'))
      return (int)i + 1;
  }
  return 0;
}

/* Whether poll `ev` of `rank` (a test, a run of unsuccessful ones, or a probe or status query that found nothing)
 * may be waiting for another rank: never at p = 1; a probe always beyond (any source, or another rank: the tracer
 * writes a poll's partner as -1); a test when an operation of the rank posted before it is with another rank, from
 * any source or a non-blocking collective, or when none is (it may test a request the timeline does not hold, a
 * non-blocking collective's of an older tracer), not when every one is with the rank itself, MPI_PROC_NULL or
 * cancelled. */
static int may_wait(const met_tl_match_t *m, int rank, const rank_state_t *s, const met_tl_event_t *ev)
{
  if (m->nranks < 2)
    return 0;
  if (poll_call(ev->call) > FIRST_PROBE)
    return 1;
  size_t i = 0;
  for (; i < s->nops && s->ops[i].post <= ev->iv.start; i++)
    if ((s->ops[i].dir != MET_DIR_NONE && s->ops[i].peer != rank) || s->ops[i].icoll != TL_OTHER)
      return 1;
  return i == 0;
}

/* A poll's class: idle (waiting is what it does) when it may wait for another rank, else control of parallelism
 * (docs/analyse.md, "Wait states": the processor time the program spends asking MPI for what no one will send, which
 * its sequential version would not spend). */
static met_category_t poll_category(const met_tl_match_t *m, int rank, const rank_state_t *s, const met_tl_event_t *ev)
{
  return may_wait(m, rank, s, ev) ? MET_CAT_IDLE : MET_CAT_CTRL;
}

/* Whether `ev` is a poll that completed nothing and waits for no message the rules pair: a run of unsuccessful tests
 * ("NAME*COUNT"), or a probe or status query that found nothing (one that found a message is a TL_PROBE or
 * TL_MPROBE; a test that may complete requests, a TL_POLL). */
static int unsuccessful_poll(const met_tl_event_t *ev)
{
  return ev->kind == TL_OTHER && ev->iv.category == MET_CAT_IDLE && poll_call(ev->call);
}

/* Marks the operations wait or poll `ev` completes; the one that could complete last (the decisive one, NULL when
 * none is paired) and the number of receives from any source among them. */
static const op_t *mark_completed(rank_state_t *s, const met_tl_event_t *ev, double *latest, int *nany)
{
  const op_t *oldest, *first, *decisive = NULL;
  candidates(s, ev, &oldest, &first);
  span_of(s, ev, &s->from, &s->to);
  *latest = NAN;
  *nany = 0;
  for (size_t i = s->from; i < s->to; i++) {
    op_t *op = &s->ops[i];
    op->completing = op->post <= ev->iv.start && completes(ev, op, oldest, first);
    if (!op->completing)
      continue;
    double a = arrival(op, ev->iv.end);
    if (!isnan(a) && !(a <= *latest)) {
      *latest = a;
      decisive = op;
    }
    *nany += op->any_bytes >= 0 && op->peer >= 0;
  }
  return decisive;
}

/* Removes the operations mark_completed marked. */
static void remove_completed(rank_state_t *s)
{
  size_t kept = s->from;
  for (size_t i = s->from; i < s->to; i++)
    if (!s->ops[i].completing)
      s->ops[kept++] = s->ops[i];
  if (kept < s->to && s->to < s->nops) /* the operations after the span moved back (s->ops may be NULL) */
    memmove(&s->ops[kept], &s->ops[s->to], (s->nops - s->to) * sizeof *s->ops);
  s->nops -= s->to - kept;
  s->from = s->to = 0;
}

/* The clock condition on the receives wait or poll `ev` of `rank` completes (mark_completed marked them): its end made
 * no earlier than each of their sends' times in the trace plus MET_TL_TICK (keep_clock). The latest send that moved
 * it, on the rules' clock, or -INFINITY when none did; its receive in *mover (NULL for none). */
static double keep_clock_all(met_tl_match_t *m, int rank, met_tl_event_t *ev, const op_t **mover)
{
  const rank_state_t *s = &m->ranks[rank];
  double waited = -INFINITY, sent;
  *mover = NULL;
  for (size_t i = s->from; i < s->to; i++) {
    const op_t *op = &s->ops[i];
    if (op->completing && received_here(op) &&
        keep_clock(m, rank, op->peer, op->src, op->partner, &ev->iv.end, &sent) && sent > waited) {
      waited = sent;
      *mover = op;
    }
  }
  return waited;
}

/* A synchronising collective kind's span kind (its wait pattern met_wait_coll_pattern's, for an aggregate trace's
 * sums). */
static const met_coll_kind_t COLL_KINDS[] = {[TL_BARRIER] = MET_COLL_BARRIER,
                                             [TL_NXN] = MET_COLL_NXN,
                                             [TL_ONE_TO_N] = MET_COLL_ONE_TO_N,
                                             [TL_N_TO_ONE] = MET_COLL_N_TO_ONE,
                                             [TL_PREFIX] = MET_COLL_PREFIX};

/* Paired non-blocking collective `ev` of `rank` goes into the trace: its instance is done on the rank, and its
 * operation learns where its initiation went (as put places it), for its record once a wait completes it. */
static void initiated(met_tl_match_t *m, int rank, const met_tl_event_t *ev)
{
  met_tl_groups_done(m->groups, ev->group, rank);
  rank_state_t *s = &m->ranks[rank];
  size_t i = icoll_op(s, ev->group, ev->coll);
  if (i < s->nops)
    s->ops[i].initiated = fmax(ev->iv.start, met_tl_clock_last(m->clock, rank));
}

/* The paired non-blocking collectives among the operations the wait just put completed (mark_completed), each
 * recorded from its initiation to the wait's end as placed (met_nbc_t), the `decisive` one with the wait's idle part,
 * `idled` seconds, which it waited for its members (met_wait.h reads it from a whole trace, as an aggregate one's
 * sums have it). 0, or -1 when out of memory. */
static int nbcs_completed(met_tl_match_t *m, met_trace_t *trace, int rank, const op_t *decisive, double idled)
{
  const rank_state_t *s = &m->ranks[rank];
  for (size_t i = s->from; i < s->to; i++) {
    const op_t *op = &s->ops[i];
    if (!op->completing || op->icoll == TL_OTHER || op->coll < 0 || isnan(op->initiated))
      continue;
    const met_nbc_t nbc = {.posted = op->initiated,
                           .completed = fmax(met_tl_clock_last(m->clock, rank), op->initiated),
                           .kind = COLL_KINDS[op->icoll],
                           .call = op->call,
                           .root = op->root_rank,
                           .group = op->group ? SPAN_GROUPS | (unsigned)op->group : 0,
                           .seq = (size_t)op->coll,
                           .bytes = op->bytes,
                           .received = op->received,
                           .members = met_tl_groups_size(m->groups, op->group),
                           .waited = op == decisive ? idled : 0};
    if (met_trace_nbc_add(trace, rank, &nbc) == BAS_ENOMEM)
      return -1;
  }
  return 0;
}

/* A wait or poll: completes operations (removed), and is idle until the last of them could complete, then
 * communication; a poll is idle whole, or control when it has no one to wait for (poll_category). Without a paired
 * operation it stays as the file gives it, as idle, but at p = 1, where no one is there to wait for: control (a wait
 * for a non-blocking collective's request at p = 1 was idle, 0.6 ms of a helper's mpi4py run). Each receive it
 * completed is counted here, where MPI delivered it: the decisive one on the transfer, the others as empty receive ends
 * at its end. One that ends before a send of those receives went into the trace ends just after it (keep_clock_all),
 * having waited until it: that receive is then the decisive one (its late sender's). Each paired non-blocking
 * collective it completed is recorded (nbcs_completed). */
static int add_wait(met_tl_match_t *m, met_trace_t *trace, int rank, met_tl_event_t *ev)
{
  rank_state_t *s = &m->ranks[rank];
  met_category_t polled = ev->kind == TL_POLL ? poll_category(m, rank, s, ev)
                          : m->nranks < 2     ? MET_CAT_CTRL
                                              : MET_CAT_IDLE;
  double latest;
  int nany;
  const op_t *decisive = mark_completed(s, ev, &latest, &nany), *mover;
  double waited = keep_clock_all(m, rank, ev, &mover);
  if (mover && !(waited <= latest)) /* the receive whose send the clock condition placed later ends the wait */
    decisive = mover;
  double idled = 0; /* the wait's idle part, as placed: the decisive operation's */
  met_interval_t iv = ev->iv;
  iv.category = polled;
  int rc;
  if (ev->kind == TL_POLL || !decisive) {
    iv.peer = -1;
    rc = put(m, trace, rank, &iv) != 0 || add_received(m, trace, rank, ev, NULL, nany) != 0 ? -1 : 0;
  } else {
    int counted = received_here(decisive);
    if (counted)
      set_received(&iv, ev, decisive, nany);
    int pattern = decisive->icoll != TL_OTHER && decisive->coll >= 0
                      ? (int)met_wait_coll_pattern(COLL_KINDS[decisive->icoll])
                      : -1;
    rc = add_split(m, trace, rank, &iv, clamp(fmax(latest, waited), &iv), decisive->peer, decisive->dir,
                   counted ? decisive->peer : -1, counted ? MET_DIR_RECV : MET_DIR_NONE, pattern, &idled) != 0 ||
                 add_received(m, trace, rank, ev, decisive, nany) != 0
             ? -1
             : 0;
  }
  rc = rc || nbcs_completed(m, trace, rank, decisive, idled) != 0 ? -1 : 0;
  remove_completed(s);
  return rc;
}

/* A collective: idle until the member it waited for entered (coll_awaited), then communication; its span marked for
 * the wait states (met_wait.h). Kept as the file gives it when the members' calls could not be paired. A call that
 * waits for no one goes as paired before the others entered (its rank held HOLD_MAX intervals behind it: a scan's first
 * member 20,000 calls ahead of the others stopped its communicator's pairing, as a root did), counted once they are;
 * if they never are (a run cut short, calls that differ), the report says that the calls differ
 * (met_tl_groups_any_stopped) and its span has no partners. */
static int add_collective(met_tl_match_t *m, met_trace_t *trace, int rank, const met_tl_event_t *ev)
{
  met_tl_instance_t *in = met_tl_groups_instance(m->groups, ev->group, ev->coll);
  int size = met_tl_groups_size(m->groups, ev->group);
  int early = in && in->count < size && !awaits_no_one(m, rank, ev);
  if (early) { /* a member left before every member entered: its rank held HOLD_MAX intervals, or not the same call */
    met_tl_groups_stop(m->groups, ev->group);
    m->held |= m->holding;
    m->differ |= !m->holding;
  }
  if (!in || early) {
    met_tl_groups_done(m->groups, ev->group, rank);
    return put(m, trace, rank, &ev->iv);
  }
  double floor = fmax(ev->iv.start, met_tl_clock_last(m->clock, rank)); /* as put places its intervals */
  met_coll_t span = {.start = floor,
                     .end = fmax(ev->iv.end, floor),
                     .kind = COLL_KINDS[ev->kind],
                     .call = met_coll_call_of(ev->call),
                     .root = met_tl_rooted(ev->kind) ? ev->root : -1,
                     .group = ev->group ? SPAN_GROUPS | (unsigned)ev->group : 0,
                     .bytes = ev->iv.bytes,
                     .received = ev->received};
  if (rank == lowest_member(m, ev->group) && in->count == size) /* counted once, at its lowest member */
    m->collectives++;
  else if (rank == lowest_member(m, ev->group))
    in->early = 1; /* counted once the others' calls are read (join_collective) */
  entry_t until = coll_awaited(m, rank, ev);
  met_tl_groups_done(m->groups, ev->group, rank); /* the instance may go: what it gave is in `until` */
  double idle_end = isnan(until.at) ? ev->iv.start : clamp(until.at, &ev->iv);
  if (add_split(m, trace, rank, &ev->iv, idle_end, -1, MET_DIR_NONE, -1, MET_DIR_NONE,
                (int)met_wait_coll_pattern(COLL_KINDS[ev->kind]), NULL) != 0 ||
      met_trace_coll_add(trace, rank, &span) != 0)
    return -1;
  return 0;
}

static int emit(met_tl_match_t *m, met_trace_t *trace, int rank, met_tl_event_t *ev)
{
  switch (ev->kind) {
  case TL_SEND:
  case TL_RECV:
  case TL_MRECV:
    if (isnan(ev->partner) && ev->kind != TL_SEND) /* its sender started before it ended, so was read: none */
      m->unmatched++;
    return add_blocking(m, trace, rank, ev);
  case TL_PROBE:
  case TL_MPROBE:
    return add_probe(m, trace, rank, ev);
  case TL_SENDRECV:
    return add_sendrecv(m, trace, rank, ev);
  case TL_WAIT:
  case TL_WAITALL:
  case TL_WAITANY:
  case TL_WAITSOME:
  case TL_POLL:
    return add_wait(m, trace, rank, ev);
  case TL_BARRIER:
  case TL_NXN:
  case TL_ONE_TO_N:
  case TL_N_TO_ONE:
  case TL_PREFIX:
    if (ev->coll >= 0)
      return add_collective(m, trace, rank, ev);
    return put(m, trace, rank, &ev->iv);
  case TL_ICOLL: { /* a non-blocking collective's initiation: its wait waits (add_wait) */
    met_interval_t posted = ev->iv;
    if (ev->coll >= 0)
      initiated(m, rank, ev);
    return put(m, trace, rank, &posted);
  }
  case TL_ISEND:
  case TL_IRECV: { /* a send's posting is its message's send end; a receive's message is counted where a wait or
                    * test completed it (add_wait) */
    met_interval_t posted = ev->iv;
    int sent = ev->kind == TL_ISEND && posted.peer >= 0;
    posted.dir = sent ? MET_DIR_SEND : MET_DIR_NONE;
    posted.peer = sent ? posted.peer : -1;
    posted.bytes = sent ? posted.bytes : 0;
    return put(m, trace, rank, &posted);
  }
  default: {
    met_interval_t iv = ev->iv;
    iv.category = unsuccessful_poll(ev) ? poll_category(m, rank, &m->ranks[rank], ev) : iv.category;
    return put(m, trace, rank, &iv);
  }
  }
}

/* Whether every partner `ev` depends on has come: its message's other end, every member of its collective, the
 * other ends of the operations posted before a wait or poll. */
static int partners_in(const met_tl_match_t *m, const rank_state_t *s, const met_tl_event_t *ev)
{
  switch (ev->kind) {
  case TL_SEND:
  case TL_RECV:
  case TL_MRECV:
  case TL_PROBE:
  case TL_MPROBE:
    return !isnan(ev->partner);
  case TL_SENDRECV:
    return (ev->iv.peer < 0 || !isnan(ev->partner)) && (ev->recv.peer < 0 || !isnan(ev->recv.partner));
  case TL_BARRIER:
  case TL_NXN:
  case TL_ONE_TO_N:
  case TL_N_TO_ONE:
  case TL_PREFIX: {
    const met_tl_instance_t *in = met_tl_groups_instance(m->groups, ev->group, ev->coll);
    return !in || in->count == met_tl_groups_size(m->groups, ev->group);
  }
  case TL_WAIT:
  case TL_WAITALL:
  case TL_WAITANY:
  case TL_WAITSOME:
  case TL_POLL:
    for (size_t i = 0; i < s->nops && s->ops[i].post <= ev->iv.start; i++)
      if (isnan(s->ops[i].partner) && (ev->req == -1 || (ev->req >= 0 && names(ev, &s->ops[i]))))
        return 0;
    return 1;
  default:
    return 1;
  }
}

/* Whether the sends of the messages `ev` of `rank` receives went into the trace, so that the clock condition knows
 * their times (met_timeline_clock.h): a blocking receive's, a send-receive's receive half's, those of the receives a
 * wait or poll completes (marking them, as add_wait does again). */
static int sends_in(met_tl_match_t *m, rank_state_t *s, const met_tl_event_t *ev)
{
  switch (ev->kind) {
  case TL_RECV:
  case TL_MRECV:
    return isnan(ev->partner) || met_tl_clock_sent_out(m->clock, ev->iv.peer, ev->src);
  case TL_SENDRECV:
    return ev->recv.peer < 0 || isnan(ev->recv.partner) || met_tl_clock_sent_out(m->clock, ev->recv.peer, ev->recv.src);
  case TL_WAIT:
  case TL_WAITALL:
  case TL_WAITANY:
  case TL_WAITSOME:
  case TL_POLL: {
    double latest;
    int nany;
    mark_completed(s, ev, &latest, &nany);
    for (size_t i = s->from; i < s->to; i++)
      if (s->ops[i].completing && received_here(&s->ops[i]) && !isnan(s->ops[i].partner) &&
          !met_tl_clock_sent_out(m->clock, s->ops[i].peer, s->ops[i].src))
        return 0;
    return 1;
  }
  default:
    return 1;
  }
}

/* The number of the send `ev` makes (its own, or for MPI_Isend its operation's, numbered after it by
 * met_tl_match_push), -1 for none; and the last number it holds (a posting's operation, a send-receive's receive
 * half, are numbered after it). */
static long long send_number(const met_tl_event_t *ev)
{
  if (ev->kind == TL_SEND || (ev->kind == TL_SENDRECV && ev->iv.peer >= 0))
    return ev->id;
  return ev->kind == TL_ISEND ? ev->id + 1 : -1;
}

static long long last_number(const met_tl_event_t *ev)
{
  return ev->id + (ev->kind == TL_ISEND || ev->kind == TL_IRECV || ev->kind == TL_ICOLL || ev->kind == TL_SENDRECV);
}

/* The send half of a send-receive at the head of `rank`'s kept intervals whose receive half waits for a send not yet
 * in the trace (sends_in) goes into the clock first (met_timeline_clock.h), at the call's start as it will be placed
 * (every interval of the rank before it went in, its partners came): in a ring of send-receives each receive half waits
 * for the send half of the one before it, on the next rank, so none went before HOLD_MAX of them were kept, and the
 * forced ones were checked against sends' entries that the clock condition moved later afterwards (a helper's ring at
 * p = 4 after halo exchanges: 4 to 20 receives of 8,000 exported before their sends, by up to 105 us). 1 when it went,
 * 0 when there is none, -1 out of memory. */
static int send_half_first(met_tl_match_t *m, int rank)
{
  rank_state_t *s = &m->ranks[rank];
  const met_tl_event_t *ev = &s->events[s->head];
  if (ev->kind != TL_SENDRECV || ev->iv.peer < 0 || s->early == ev->id + 1)
    return 0;
  if (met_tl_clock_record(m->clock, rank, ev->id, fmax(ev->iv.start, met_tl_clock_last(m->clock, rank))) != 0)
    return -1;
  met_tl_clock_emitted(m->clock, rank, ev->id);
  s->early = ev->id + 1;
  return 1;
}

/* Adds `rank`'s kept intervals to the trace while they are final: once every interval still to come starts after
 * their end (`frontier`) and their partners came, or every file is read (an infinite frontier), or the rank holds too
 * many (HOLD_MAX); and once the sends they receive went in (sends_in), unless `force` (for the first only). 1 when
 * one went, 0 when none, -1 when the trace refuses one (out of memory). */
static int flush_rank(met_tl_match_t *m, met_trace_t *trace, int r, double frontier, int force)
{
  rank_state_t *s = &m->ranks[r];
  int went = 0;
  while (s->head < s->n && (isinf(frontier) || s->n - s->head > HOLD_MAX ||
                            (s->events[s->head].read_end < frontier && partners_in(m, s, &s->events[s->head])))) {
    if (m->causal)
      settle_head(m, r); /* its partners are in (or never will be): its times are final */
    if (!force && s->n - s->head <= HOLD_MAX && !sends_in(m, s, &s->events[s->head])) {
      int early = send_half_first(m, r);
      return early < 0 ? -1 : went | early;
    }
    force = 0;
    m->holding = !isinf(frontier) && s->n - s->head > HOLD_MAX;
    met_tl_event_t *ev = &s->events[s->head++];                 /* stays there until the next push */
    s->sending = s->early == ev->id + 1 ? -1 : send_number(ev); /* its send half went in already */
    s->moved = 0;
    s->pieces = 0;
    int rc = emit(m, trace, r, ev);
    m->holding = 0;
    if (rc != 0)
      return -1;
    met_tl_clock_emitted(m->clock, r, last_number(ev));
    met_tl_clock_done(m->clock, r, s->moved);
    went = 1;
  }
  return went;
}

int met_tl_match_flush(met_tl_match_t *m, met_trace_t *trace, double frontier)
{
  for (;;) {
    int went = 0;
    for (int r = 0; r < m->nranks; r++) {
      int rc = flush_rank(m, trace, r, frontier, 0);
      if (rc < 0)
        return BAS_ENOMEM;
      went |= rc;
    }
    if (went) /* a send that went in may let a receive of a rank before it go */
      continue;
    /* Every file read and nothing may go: a receive waits for a send behind it on its rank (a pairing that causality
     * would not make): the earliest kept interval goes, its sends' times taken from their entries. */
    int first = -1;
    for (int r = 0; isinf(frontier) && r < m->nranks; r++) {
      const rank_state_t *s = &m->ranks[r];
      if (s->head < s->n &&
          (first < 0 || s->events[s->head].iv.start < m->ranks[first].events[m->ranks[first].head].iv.start))
        first = r;
    }
    if (first < 0)
      return 0;
    if (flush_rank(m, trace, first, frontier, 1) < 0)
      return BAS_ENOMEM;
  }
}

void met_tl_match_keep_causality(met_tl_match_t *m)
{
  m->causal = 1;
}

void met_tl_match_moved(const met_tl_match_t *m, double *put_back, double *waits_removed)
{
  *put_back = *waits_removed = 0;
  for (int r = 0; r < m->nranks; r++)
    *(m->ranks[r].delay > 0 ? put_back : waits_removed) += fabs(m->ranks[r].delay);
}

met_tl_clock_counts_t met_tl_match_clock(const met_tl_match_t *m)
{
  return met_tl_clock_counts(m->clock);
}

void met_tl_match_counts(const met_tl_match_t *m, size_t *matched, size_t *unmatched, size_t *collectives,
                         int *unpaired, size_t *undefined, size_t *starts)
{
  *matched = m->matched;
  *unmatched = m->unmatched;
  *collectives = m->collectives;
  *unpaired = met_tl_groups_any_stopped(m->groups) && (m->differ || !m->held); /* left over: held's, if any */
  *undefined = m->undefined;
  *starts = m->starts;
}
