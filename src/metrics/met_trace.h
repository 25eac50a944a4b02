/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trace model: what every rank did and when, as timed intervals with a category and a phase label.
 * Independent of SimGrid: a trace may come from the simulator, from a file, or be built by hand in a test. */
#ifndef MET_TRACE_H
#define MET_TRACE_H

#include "met_annex.h"

#include <stddef.h>
#include <stdio.h>

/* What a rank was doing during an interval. COMPUTE and IO are useful work (the sequential program does them too);
 * CTRL, COMM and IDLE are the lost-cycle overhead classes of Lemeire (seed 000 §1.1.3). */
typedef enum met_category {
  MET_CAT_COMPUTE = 0, /* useful computation */
  MET_CAT_IO,          /* useful input/output */
  MET_CAT_CTRL,        /* control of parallelism: work only the parallel program does (link set-up, buffering) */
  MET_CAT_COMM,        /* communication not overlapped with computation */
  MET_CAT_IDLE,        /* waiting for a partner or for the end of the run */
  MET_CAT_COUNT
} met_category_t;

/* Sub-components of a COMPUTE interval, in seconds (seed 001 eq. 2): they add up to the interval's length. */
typedef enum met_part {
  MET_PART_CPU = 0,
  MET_PART_FPU, /* FPU cycles not overlapped with the CPU */
  MET_PART_INTMEM,
  MET_PART_EXTMEM,
  MET_PART_COUNT
} met_part_t;

/* Which end of a message an interval is. MET_DIR_NONE: not a message, or a trace that did not record it. */
typedef enum met_dir { MET_DIR_NONE = 0, MET_DIR_SEND, MET_DIR_RECV } met_dir_t;

typedef struct met_interval {
  double start; /* seconds */
  double end;   /* seconds, >= start */
  met_category_t category;
  int phase;                    /* phase label id, from met_trace_phase_id() */
  int peer;                     /* COMM/IDLE on a message: the partner rank; otherwise -1 */
  int tag;                      /* a message's end (dir set): its MPI tag >= 0, -1 for a receive from any tag; else 0 */
  double bytes;                 /* COMM and IO: bytes moved; otherwise 0 */
  int hops;                     /* COMM: links on the route to the peer; otherwise 0 */
  unsigned comm;                /* a message's end: its communicator, numbered as met_coll_t.group (0: the world's) */
  double parts[MET_PART_COUNT]; /* a computation (COMPUTE or CTRL): seconds per sub-component; otherwise all 0 */
  met_dir_t dir;                /* COMM/IDLE on a message: whether this rank sent or received it (needs a peer) */
  int call;    /* a measured interval's MPI call, as the timeline names it (met_trace_call_id): its id when the call
                * starts with this interval, minus its id for a later piece of the same call (a call split into its wait
                * and its transfer, or followed by the receives it completed), 0 for none (a computation, a simulated
                * interval). A call whose first piece is empty, and so dropped (met_trace_add), starts at its next; one
                * with no later piece keeps its empty one. Kept by a whole trace and a spilled one's file: an aggregate
                * trace and met_trace_write do not keep it. */
  double sent; /* set by the trace (met_trace_add; what a caller gives is ignored): at a receiving end that counts its
                * message (met_message_ends), when that message's send started, the start of the sending end the trace
                * paired it with (met_trace_add), never after its end; its own start until paired, and at any other
                * interval. Every export and the message-time table start the message there. */
} met_interval_t;

typedef struct met_trace met_trace_t;

/* A new empty trace for `nranks` ranks (>= 1). NULL when out of memory or nranks < 1. Free with met_trace_free. */
met_trace_t *met_trace_new(int nranks);
void met_trace_free(met_trace_t *trace); /* accepts NULL */

/* A trace that keeps, per rank, only what the analyses read (category, phase and part sums, the message count and
 * groups, the end, and the cause-effect annex's sums), computed as intervals, spans and requests arrive: memory
 * independent of the run's length. met_trace_add checks intervals as usual; met_trace_count is 0, met_trace_intervals,
 * met_trace_spans and met_trace_requests NULL; met_trace_write fails. Every other figure equals the full trace's to
 * the bit, since both take their sums in the same order. NULL as met_trace_new. */
met_trace_t *met_trace_new_aggregate(int nranks);
int met_trace_is_aggregate(const met_trace_t *trace);

/* An aggregate trace (sums only, as above) that also keeps its collective spans and writes every interval a whole
 * trace would keep to an unnamed temporary file ($TMPDIR, else /tmp; 48 bytes an interval), gone with the trace: for a
 * run whose timeline is drawn (met_pixels.h) and whose wait states are counted (met_wait.h's walk), with memory
 * independent of the run's length. NULL as met_trace_new, or when no temporary file can be made. */
met_trace_t *met_trace_new_spilled(int nranks);
/* Whether the trace is a spilled one. */
int met_trace_is_spilled(const met_trace_t *trace);
/* 0 once a spilled trace's file refused an interval or a send's start (a full $TMPDIR: met_trace_add then returned
 * BAS_EIO, and met_trace_spill_walk fails), else 1. */
int met_trace_spill_ok(const met_trace_t *trace);
/* Writes what a spilled trace's file still buffers, so that a full $TMPDIR is known before the file is read: 0, or
 * BAS_EIO (met_trace_spill_ok is then 0). 0 for a trace that is not spilled. */
int met_trace_spill_sync(met_trace_t *trace);
/* The intervals spilled so far (0 for a trace that is not spilled). */
size_t met_trace_spilled(const met_trace_t *trace);
/* Calls fn for every interval spilled, in the order they were added (each rank's in time order), with its rank (one
 * walk at a time: its buffer is static, so fn must not start another); what the file keeps of an interval is its
 * start, end, send's start, category, phase, peer, tag, communicator, call, direction and bytes (its hops and compute
 * split are 0). Returns 0, BAS_EIO when the trace is not spilled or on a read error, or what fn returned when not 0
 * (the walk then stops). */
typedef int (*met_spill_fn)(void *ctx, int rank, const met_interval_t *iv);
int met_trace_spill_walk(const met_trace_t *trace, met_spill_fn fn, void *ctx);
/* Calls fn for every interval of the ranks from `first` to `last` (included) with its rank, each rank's in time
 * order: a whole trace's rank after rank, a spilled one's as met_trace_spill_walk gives them (one pass over its file,
 * the other ranks' skipped). Returns 0, BAS_EIO for an aggregate trace that is not spilled or a read error, or what fn
 * returned when not 0. */
int met_trace_walk(const met_trace_t *trace, int first, int last, met_spill_fn fn, void *ctx);

/* The number of ranks the trace was made for. */
int met_trace_nranks(const met_trace_t *trace);

/* The id of phase label `name`, adding it on first use (the string is copied). Negative when out of memory. */
int met_trace_phase_id(met_trace_t *trace, const char *name);
/* The label of phase `id`, owned by the trace; NULL for an unknown id. */
const char *met_trace_phase_name(const met_trace_t *trace, int id);
int met_trace_phase_count(const met_trace_t *trace);

/* The id (>= 1) of MPI call name `name` ("MPI_Isend", "MPI_Testany*12": a run of 12 polls, as the timeline gives
 * it), adding it on first use (the string is copied); negative when out of memory. */
int met_trace_call_id(met_trace_t *trace, const char *name);
/* The name of call `id` (its sign ignored: met_interval_t.call), owned by the trace; NULL for 0 or an unknown id. */
const char *met_trace_call_name(const met_trace_t *trace, int id);
/* The number of call names: ids run from 1 to it. */
int met_trace_call_count(const met_trace_t *trace);

/* Appends a copy of `iv` to `rank`'s timeline. Intervals of one rank must come in time order and not overlap
 * (iv->start >= end of the previous one, or >= 0 for the first; iv->end >= iv->start and finite); phase, call and peer
 * must be known ids, a direction needs a peer, the tag is >= -1, bytes and parts finite and >= 0. Zero-length intervals
 * are dropped but for a message's sending end (an eager send, over for its sender at once) and the end that counts it
 * (met_message_ends), so that a written trace keeps its messages, and for a call's first piece that no later piece
 * of it follows (met_interval_t.call), kept before the next interval. Returns 0, BAS_EINVAL on a bad rank or interval,
 * or BAS_ENOMEM (the trace is then unchanged, but for such a piece kept). */
int met_trace_add(met_trace_t *trace, int rank, const met_interval_t *iv);
/* After a rank's last interval: keeps each rank's held empty call piece (met_trace_add), so that a last call of no time
 * has its interval too. 0, or met_trace_add's error. */
int met_trace_end_calls(met_trace_t *trace);

/* A message's ends are paired as they arrive, as MPI pairs them (messages do not overtake one another): a receiving end
 * that counts its message (MET_DIR_RECV) takes the first sending end (COMM, MET_DIR_SEND) not yet taken from its peer
 * to it on its communicator with its tag (any, for a receive from any tag), in the order each rank gave them,
 * whichever end comes first; met_interval_t.sent is then the send's start. Until paired, an end is held (memory
 * grows with the messages whose other end has not come yet, in both modes). */

/* The number of `rank`'s intervals; 0 for a bad rank. */
size_t met_trace_count(const met_trace_t *trace, int rank);
/* The rank's intervals in time order, owned by the trace (valid until the next add); NULL for a bad rank. */
const met_interval_t *met_trace_intervals(const met_trace_t *trace, int rank);

/* The end of the last interval or span over all ranks: the parallel run time T_par. 0 for an empty trace. */
double met_trace_end(const met_trace_t *trace);

/* Seconds `rank` spent in `category`. Gaps between intervals and the time after a rank's last interval up to
 * met_trace_end() are counted as IDLE, so that every rank's categories add up to T_par (seed 000 eq. 1.7).
 * 0 for a bad rank. */
double met_trace_category_time(const met_trace_t *trace, int rank, met_category_t category);

/* Seconds `rank` spent in compute sub-component `part`, summed over all its intervals (a CTRL computation carries a
 * split too, as a COMPUTE one); 0 for a bad rank. */
double met_trace_any_part_time(const met_trace_t *trace, int rank, met_part_t part);
/* The parallel anomaly of `rank`'s work (seed 000 §1.1), the seconds its computations took minus what the same
 * operations cost in the sequential run, in its two parts (met_charac_anomaly, met_machine.h): the true anomaly
 * (negative when its share fits in a cache the whole problem does not) and its host's speed against the sequential
 * run's host. The recorder adds them as computations happen; 0 when nothing was added. Not kept by met_trace_write. */
typedef struct met_anomaly {
  double anomaly; /* true anomaly, seconds */
  double host;    /* host speed, seconds */
} met_anomaly_t;
void met_trace_add_anomaly(met_trace_t *trace, int rank, met_anomaly_t seconds);
double met_trace_anomaly(const met_trace_t *trace, int rank);
double met_trace_host_speed(const met_trace_t *trace, int rank);

/* Seconds of `rank`'s intervals in `category` labelled `phase` (recorded time only: gaps are in no phase); 0 for a bad
 * rank, phase or category. */
double met_trace_phase_time(const met_trace_t *trace, int rank, int phase, met_category_t category);

/* Whether `rank`'s interval `iv` is the one to draw and count its message from, each message once: a COMM interval at
 * its receiving end (a sender's may be empty: an eager send is over at once) or, where the direction was not recorded,
 * at the end on the lower rank. Then *from is the sender (or the lower rank) and *to the receiver (or the higher). */
int met_message_ends(const met_interval_t *iv, int rank, int *from, int *to);

/* The number of messages counted at `rank` (met_message_ends), those whose interval there was empty included. */
size_t met_trace_comm_count(const met_trace_t *trace, int rank);

/* Messages of one size over one distance seen at one end (a COMM interval): how many, their transfers (from their
 * send's start to their end, met_interval_t.sent) and the counting end's own COMM seconds, the receiver's wait. */
typedef struct met_msg_group {
  double bytes;
  int hops;
  size_t count;
  double sum; /* seconds: the transfers' sum, least and most, over the `transfers` messages whose transfer is known */
  double min;
  double max;
  size_t transfers;
  double wait_sum; /* seconds: the counting ends' intervals, over all `count` messages */
  double wait_min;
  double wait_max;
} met_msg_group_t;

/* `rank`'s counted COMM intervals (met_message_ends, empty ones included) grouped by (bytes, hops), in order of first
 * appearance, kept as intervals arrive (in both modes, so that both give the same message statistics), in a new array
 * (*groups, the caller frees it; NULL when none), every message's transfer known: a receiving end's once the trace
 * paired it with its send, a counting end's without a direction at once, and a receiving end whose send the trace never
 * saw transferred for its own length. Returns their number (0 for a bad rank), or BAS_ENOMEM. */
long met_trace_msg_settled(const met_trace_t *trace, int rank, met_msg_group_t **groups);

/* For a run whose sums were found without executing its intervals (a program evaluated in closed form across ranks,
 * sim_replay_closed.h), into an aggregate trace only (met_trace_sums.c): adds `seconds` of `category` in `phase` to
 * `rank`'s sums and `parts` (NULL: none) to its split, as intervals of that total would. Returns 0, or BAS_EINVAL (a
 * full trace, a bad rank, phase or category, an amount not finite and >= 0, out of memory; the trace is then
 * unchanged). */
int met_trace_add_total(met_trace_t *trace, int rank, int phase, met_category_t category, double seconds,
                        const double *parts);
/* The same for messages counted at `rank` (met_message_ends): `group`'s count and sums (its transfers for all of its
 * messages: transfers = count) merged into the rank's group of the same bytes and hops (appended when new, in order
 * of first appearance). 0, or BAS_EINVAL as above. */
int met_trace_add_messages(met_trace_t *trace, int rank, const met_msg_group_t *group);
/* The same for the end of `rank`'s last interval (>= the previous one): T_par is the latest. 0, or BAS_EINVAL as above.
 */
int met_trace_add_end(met_trace_t *trace, int rank, double end);

/* Short lower-case names ("compute", "io", "ctrl", "comm", "idle"); NULL out of range. */
const char *met_category_name(met_category_t category);

/* Collective calls: which stretch of each member's timeline one call of a collective operation took, so that the
 * wait-state analysis (met_wait.h) can compare when the members entered it. The layer that runs a collective marks it
 * on every member with the same kind, root and group; the k-th span of a group on one rank and the k-th span of that
 * group on every other member are the same call. Spans may have zero length (a root that sends eagerly still entered).
 * They do not move met_trace_end. Only full traces keep them: an aggregate trace checks and drops them, since the
 * wait states need intervals anyway and a run of p ranks with one collective per rank and step would keep p^2 spans
 * (32 bytes each: 512 MiB for Gauss-Jordan at N = p = 4096, bench/scale.sh). */
typedef enum met_coll_kind {
  MET_COLL_BARRIER = 0, /* synchronisation only */
  MET_COLL_NXN,         /* every member to every member: allreduce, allgather, alltoall, reduce-scatter */
  MET_COLL_ONE_TO_N,    /* from the root to every member: broadcast, scatter */
  MET_COLL_N_TO_ONE,    /* from every member to the root: reduce, gather */
  MET_COLL_PREFIX,      /* a prefix reduction (scan, exscan): a member waits for the members before it */
  MET_COLL_KINDS
} met_coll_kind_t;

/* The MPI operation of a collective call, when the layer that marked it knows it (the simulator's collectives, a
 * measured timeline's call name); MET_CALL_UNNAMED when only its class is (a trace read back from a file). */
typedef enum met_coll_call {
  MET_CALL_UNNAMED = 0,
  MET_CALL_BARRIER,
  MET_CALL_BCAST,
  MET_CALL_REDUCE,
  MET_CALL_ALLREDUCE,
  MET_CALL_GATHER,
  MET_CALL_GATHERV,
  MET_CALL_ALLGATHER,
  MET_CALL_ALLGATHERV,
  MET_CALL_SCATTER,
  MET_CALL_SCATTERV,
  MET_CALL_ALLTOALL,
  MET_CALL_ALLTOALLV,
  MET_CALL_REDUCE_SCATTER,
  MET_CALL_SCAN,
  MET_CALL_EXSCAN,
  MET_CALLS
} met_coll_call_t;

/* The operation MPI call `name` ("MPI_Gatherv", "MPI_Allreduce"...) is (MPI_Reduce_scatter_block a reduce-scatter of
 * equal blocks); MET_CALL_UNNAMED for any other name. */
met_coll_call_t met_coll_call_of(const char *name);
/* The MPI call that operation `call` names ("MPI_Reduce_scatter" for MET_CALL_REDUCE_SCATTER); NULL for
 * MET_CALL_UNNAMED or a value out of range. */
const char *met_coll_call_name(met_coll_call_t call);
/* The operation of non-blocking call `name` ("MPI_Ibcast", "MPI_Ireduce_scatter_block"...): its blocking
 * counterpart's; MET_CALL_UNNAMED for any other name. */
met_coll_call_t met_nbc_call_of(const char *name);

typedef struct met_coll {
  double start; /* seconds: when the rank entered the call */
  double end;   /* seconds: when it left, >= start */
  met_coll_kind_t kind;
  met_coll_call_t call; /* its operation, when known (the class `kind` says which members wait for which) */
  int root;             /* ONE_TO_N and N_TO_ONE: the root's rank; otherwise -1 */
  unsigned group;       /* the members' communicator: the same number on every member (0: all the run's ranks) */
  int place;    /* 1 + the rank's index in its group's order, which a scan follows (a replay's communicator of ranks 2,
                 * 1, 0); 0: the ranks' own order (met_coll_place), or a call whose order nothing reads */
  double bytes; /* a call whose trace holds no messages for it (a measured one): the bytes its line gives the rank, as
                 * docs/tracer.md's tracer writes them (met_coll_moved); 0 where the trace has its messages */
  double received; /* the same for the bytes the rank received, where its line gives them too (an MPI_Alltoallv's:
                    * then `bytes` is what it sent to the other members, this what it received from them); else 0.
                    * Not kept by met_trace_write */
} met_coll_t;

/* The index of world rank `rank`'s span `span` in its group's order: its place, else the rank itself. */
int met_coll_place(const met_coll_t *span, int rank);

/* Appends a copy of `coll` to `rank`'s collective spans (an aggregate trace drops it): start finite, >= 0 and >= the
 * end of the rank's previous span, end >= start, kind and call in range, root -1 or a rank, bytes and received finite
 * and >= 0. Returns 0, or BAS_EINVAL (the trace is then unchanged). */
int met_trace_coll_add(met_trace_t *trace, int rank, const met_coll_t *coll);

/* The bytes `rank` sent and received in its span number `index` (met_trace_colls), by the operation's definition
 * rather than its algorithm, from the spans' own bytes: the members are the ranks whose span of the same number in
 * the same group is that call's, each giving what docs/tracer.md's line holds (a rooted call's per non-root rank, an
 * all-to-all's buffer, every other call's contribution). A 1-to-N root sends every other member's bytes, a non-root
 * receives its own; an N-to-1 root receives the others', a non-root sends its own; an N x N member sends its own to
 * each other member (an all-to-all a 1/m share of its buffer, m members) and receives theirs, but a reduce-scatter's
 * member, whose line gives its own block, sends its part of every other member's block and receives its own from each
 * of the others; an MPI_Alltoallv's member sends and receives what its line gives (met_coll_t.received: 0 and 0 from a
 * line that gives neither, as the tracer wrote them before); a scan's or exscan's member sends its own to each member
 * after it (higher ranks) and receives each one's before it; a barrier moves nothing. 0 and 0 for a bad rank or index,
 * and for spans with no bytes (a trace holding the messages). */
void met_coll_moved(const met_trace_t *trace, int rank, size_t index, double *sent, double *received);

/* A measured run's non-blocking collective call (MPI_Ibcast...), from its initiation to the end of the wait or test
 * that completed it: the OTF2 archive's NonBlockingCollectiveRequest and NonBlockingCollectiveComplete events. Not a
 * span: the rank works between its initiation and its completion, so the wait states leave it out (its wait's own
 * interval holds the wait). Only whole traces keep them (and spilled ones); met_trace_write does not. */
typedef struct met_nbc {
  double posted;        /* seconds: when the rank initiated it */
  double completed;     /* when the wait or test that completed it ended, >= posted */
  met_coll_kind_t kind; /* its blocking counterpart's */
  met_coll_call_t call; /* its blocking counterpart's operation */
  int root;             /* ONE_TO_N and N_TO_ONE: the root's rank; otherwise -1 */
  unsigned group;       /* as met_coll_t's */
  size_t seq;      /* its number among its group's collective calls, blocking or not (MPI orders them alike): the same
                    * call has the same on every member */
  double bytes;    /* the bytes its line gives the rank, as met_coll_t's */
  double received; /* and those it received, as met_coll_t's (an MPI_Ialltoallv's line) */
  int members;     /* its communicator's size */
  double waited;   /* seconds its completing wait or test idled for the members (its kind's wait state, met_wait.h); 0
                    * where another operation it completed was waited for last */
} met_nbc_t;

/* Appends a copy of `nbc` to `rank`'s non-blocking collective calls, in the order they completed (an aggregate trace
 * drops it): posted finite and >= 0, completed >= posted and >= the previous one's, kind and call in range, root -1 or
 * a rank, bytes, received and waited finite and >= 0, members 1 to the ranks. 0, BAS_EINVAL (the trace unchanged), or
 * BAS_ENOMEM. */
int met_trace_nbc_add(met_trace_t *trace, int rank, const met_nbc_t *nbc);
/* The rank's non-blocking collective calls in the order they completed, owned by the trace (valid until the next
 * add), their number in *count; NULL with *count = 0 when there are none or the rank is bad. */
const met_nbc_t *met_trace_nbcs(const met_trace_t *trace, int rank, size_t *count);
/* `nbc` as a collective span's fields (its kind, operation, root, group and bytes; no times), for the code that names
 * and weighs spans (met_coll_rule, rep_otf2_coll_call). */
met_coll_t met_nbc_coll(const met_nbc_t *nbc);
/* Whether every member of its communicator recorded `rank`'s non-blocking collective call number `index`
 * (met_trace_nbcs): a call of the same operation, group and number on `members` ranks (not so where the members'
 * calls differ, or a member never completed it: a run cut short); then 1, with the bytes the rank sent and received
 * in it by met_coll_moved's rules in *sent and *received; else 0, and 0 and 0. */
int met_nbc_moved(const met_trace_t *trace, int rank, size_t index, double *sent, double *received);

/* Into *seq, the number of `rank`'s collective span `index` among the rank's spans of its group (its index when no
 * span has a group other than 0): the members' spans of one call have one number (met_coll_moved, met_wait.c). 0;
 * BAS_EINVAL for a bad rank or index (*seq then `index`); BAS_ENOMEM when the index of the rank's spans by group cannot
 * be built (built once for the spans the rank has, kept with the trace). */
int met_coll_seq(const met_trace_t *trace, int rank, size_t index, size_t *seq);

/* Wait states summed while reading, for an aggregate trace, which keeps no interval nor span to compute them from
 * (met_wait.h): met_trace_sum_waits makes room for them, every sum 0 (0, or -1 when out of memory or for a full trace,
 * whose wait states come from its intervals); met_trace_add_wait then adds `seconds` (> 0) to `rank`'s sum of
 * met_wait.h's pattern number `pattern`, below MET_TRACE_WAIT_PATTERNS (ignored otherwise); met_trace_wait_sums gives
 * them, nranks x MET_TRACE_WAIT_PATTERNS by rank, or NULL when they were not summed. The timeline reader sums them as
 * it pairs calls (met_timeline.h), by met_wait.h's rules. */
#define MET_TRACE_WAIT_PATTERNS 7
int met_trace_sum_waits(met_trace_t *trace);
void met_trace_add_wait(met_trace_t *trace, int rank, int pattern, double seconds);
const double *met_trace_wait_sums(const met_trace_t *trace);
/* The rank's collective spans in time order, owned by the trace (valid until the next add), their number in *count;
 * NULL with *count = 0 when there are none or the rank is bad. */
const met_coll_t *met_trace_colls(const met_trace_t *trace, int rank, size_t *count);

/* The cause-effect annex (seed 002 §4.1): each node's units' spans and its requests (their types: met_annex.h),
 * written by the DSM layer (sim_dsm.h) and read by the cause-effect analysis (met_carnival.h). As they arrive, the
 * trace also keeps the sums that analysis reads (met_ce.h), in both modes and in the same order, so that both give the
 * same figures to the bit; an aggregate trace keeps those sums only, never a span or a request, so that its memory
 * grows with the nodes and code scopes, not with the run's requests. */

/* Appends a copy of `span` to the timeline of `unit` of `node` (a rank id), and adds it to the cause-effect sums. The
 * same rules as met_trace_add: time order, known phase, ids in range; zero-length spans are dropped. Returns 0, or
 * BAS_EINVAL (the trace is then unchanged). */
int met_trace_span_add(met_trace_t *trace, int node, int unit, const met_span_t *span);
/* The unit's spans in time order, owned by the trace (valid until the next add), their number in *count; NULL with
 * *count = 0 when there are none, the node or unit is bad, or the trace is an aggregate one. */
const met_span_t *met_trace_spans(const met_trace_t *trace, int node, int unit, size_t *count);

/* Appends a copy of `req`, and adds it to the cause-effect sums: node and peer known ranks (peer may be -1), unit, op
 * and scope in range, marks finite, >= 0 and non-decreasing. Returns 0, or BAS_EINVAL (the trace is then unchanged). */
int met_trace_request_add(met_trace_t *trace, const met_request_t *req);
/* The requests in the order they were added, owned by the trace, their number in *count (NULL when none, and in an
 * aggregate trace). */
const met_request_t *met_trace_requests(const met_trace_t *trace, size_t *count);

/* The cause-effect sums of every span and request added so far (met_ce.h), owned by the trace; NULL before the
 * first. */
const struct met_ce_sums *met_trace_ce_sums(const met_trace_t *trace);

/* Binary serialisation, used to hand a trace from a simulation process to the analysing one.
 * write: 0, BAS_EIO on an I/O error or BAS_EINVAL for an aggregate trace. read: a new trace, or NULL on a malformed
 * stream or out of memory. A trace with an annex writes it after the timelines; one without writes exactly the bytes it
 * did before annexes. Collective spans travel in an annex of their own after it, when there are any. */
int met_trace_write(const met_trace_t *trace, FILE *out);
met_trace_t *met_trace_read(FILE *in);

#endif
