/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to met_timeline: the wait-state rules of a measured run. Intervals come in from every rank in the order of
 * their start times; each message end is paired with its partner's (per pair of ranks, in order), each synchronising
 * collective with the other members' calls, and an interval goes into the trace, split into the wait for a partner
 * (idle) and the transfer (communication), once no interval still to come can change it. */
#ifndef MET_TIMELINE_MATCH_H
#define MET_TIMELINE_MATCH_H

#include "met_timeline_clock.h"
#include "met_trace.h"

#include <stddef.h>

/* What a call is, for the rules. */
typedef enum met_tl_kind {
  TL_OTHER = 0, /* computation, or a call kept as the file classes it */
  TL_SEND,      /* a blocking send (MPI_Send, Ssend, Rsend, Bsend, the send of MPI_Sendrecv) */
  TL_ISEND,     /* MPI_Isend, Issend, Ibsend, Irsend: the posting */
  TL_RECV,      /* MPI_Recv (MPI_Mrecv: TL_MRECV) */
  TL_IRECV,     /* MPI_Irecv (from a rank or any source): the posting */
  TL_WAIT,      /* MPI_Wait: one request, the file gives its partner (and the request itself, when it numbers them) */
  TL_WAITALL,   /* every request outstanding, or those its line names */
  TL_WAITANY,   /* the first to complete */
  TL_WAITSOME,  /* those complete by its end */
  TL_POLL,      /* MPI_Test*: polling, which is waiting */
  TL_PROBE,     /* MPI_Probe, a successful MPI_Iprobe: the message it found, not taken */
  TL_BARRIER,   /* MPI_Barrier */
  TL_NXN,       /* every member to every member: allreduce, allgather(v), alltoall(v), reduce-scatter */
  TL_MPROBE,    /* MPI_Mprobe, a successful MPI_Improbe: the message it found, taken out of matching for its Mrecv */
  TL_MRECV,     /* MPI_Mrecv: the message its matched probe took */
  TL_SENDRECV,  /* MPI_Sendrecv(_replace) whose line gives both halves: a send to iv.peer and a receive (recv) */
  TL_ONE_TO_N, /* a rooted collective whose line gives its root: MPI_Bcast, Scatter(v) (the others wait for the root) */
  TL_N_TO_ONE, /* the same for MPI_Reduce, Gather(v) (the root waits for the others) */
  TL_ICOLL,    /* a non-blocking collective's initiation whose line names its communicator (met_tl_event_t.icoll):
                * a posting, joined to its communicator's collectives, which the wait that names it completes */
  TL_PREFIX    /* MPI_Scan, MPI_Exscan: a member waits for the members before it (its partner: the last one's entry) */
} met_tl_kind_t;

/* The receive half of a TL_SENDRECV: its source as received (-1: none; MET_TL_PEER_NULL: MPI_PROC_NULL), its tag and
 * bytes as received;
 * once pushed, its number on the rank and its sender's entry (NAN until paired). */
typedef struct met_tl_recv_half {
  int peer;
  int tag;
  double bytes;
  long long id;
  double partner;
  double partner_raw; /* the same as read */
  long long src;      /* its sender's number for the send it paired with, -1 before */
} met_tl_recv_half_t;

/* One interval read, until it goes into the trace. */
typedef struct met_tl_event {
  met_interval_t iv;
  met_tl_kind_t kind;
  int tag;       /* a message end's tag, or -1: any (a receive from any tag, or a timeline that does not give it) */
  int comm;      /* its communicator: 0 for MPI_COMM_WORLD, as the tracer numbers the others (0 when not given) */
  long long req; /* a wait's or test's request, as the file gives it: its age, the postings (TL_ISEND, TL_IRECV,
                  * TL_ICOLL) the rank made after it; once pushed, that posting's number on the rank; -1 when not
                  * given, MET_TL_REQ_NONE when it completed none the timeline holds */
  unsigned long long others; /* the other requests it completed: bit i for the one i + 1 postings older than req */
  char call[64];
  int unpaired_start;      /* an MPI_Start(all) line that gives none of the messages it started (a tracer before
                            * they were written) */
  int continues;           /* a later line of the call before it (an MPI_Startall's later message), at its end */
  int synchronous;         /* a synchronous send an MPI_Start(all) started (MPI_Ssend_init's): as MPI_Issend's */
  double received;         /* an MPI_(I)alltoallv line's bytes received from the other members (its field after
                            * the communicator), 0 when not given */
  long long id;            /* its number on its rank, growing with its place; a blocking message end pairs by it */
  double partner;          /* the partner's entry (or posting) time once paired, NAN before; TL_PREFIX: the last
                            * entry of the members before it once every member's call was read */
  double partner_raw;      /* the same as read (before the tracer's own time is removed) */
  long long src;           /* a receive's: the number of the send it paired with on its sender, -1 before */
  long coll;               /* a collective's number among the rank's synchronising collectives on its communicator,
                            * -1 otherwise */
  int group;               /* and that communicator's group (met_timeline_groups.h): 0 for the world's */
  int root;                /* TL_ONE_TO_N, TL_N_TO_ONE: the root's rank, the line's partner (iv.peer is then -1) */
  met_tl_kind_t icoll;     /* TL_ICOLL: the kind of its blocking counterpart (TL_BARRIER, TL_NXN, TL_ONE_TO_N...) */
  met_tl_recv_half_t recv; /* TL_SENDRECV's receive half (id and partner hold its send half's) */
  double read_start;       /* its times as the file gives them, before the tracer's own time is removed: the files */
  double read_end;         /* are read in that order, and the rules keep an interval until what follows is read */
} met_tl_event_t;

/* The request field of a wait's or test's line that completed none of the requests the rank's timeline holds (a
 * non-blocking collective's, a null request, an MPI_Waitany that found none active; docs/tracer.md). */
enum { MET_TL_REQ_NONE = -2 };

/* The partner field of a timeline: -1 for none or any source, MET_TL_PEER_NULL for MPI_PROC_NULL (an operation that
 * moves nothing and never pairs; docs/tracer.md). */
enum { MET_TL_PEER_NULL = -2 };

typedef struct met_tl_match met_tl_match_t;

/* The kind of a timeline's MPI call named `call` ("MPI_Isend"...) with partner field `peer`. A call whose pairing needs
 * its partner (blocking sends and receives, probes, a rooted collective's root) is TL_OTHER when `peer` is negative
 * (none, any source, MPI_PROC_NULL), as is a call the matching does not pair. */
met_tl_kind_t met_tl_kind_of(const char *call, int peer);
/* The kind of the blocking counterpart of the non-blocking collective `call` ("MPI_Ibarrier": TL_BARRIER) that the
 * rules pair, TL_OTHER for any other call (MPI_Ialltoallw and the neighbourhood ones are not paired, as their blocking
 * forms are not). */
met_tl_kind_t met_tl_icoll_of(const char *call);
/* Whether calls of `kind` are paired with the other members' (barriers, N x N, rooted collectives and scans). */
int met_tl_synchronising(met_tl_kind_t kind);
/* Whether calls of `kind` are rooted collectives (their line's partner is their root). */
int met_tl_rooted(met_tl_kind_t kind);

/* NULL when out of memory. */
met_tl_match_t *met_tl_match_new(int nranks);
void met_tl_match_free(met_tl_match_t *m); /* accepts NULL */

/* From now on, the rules keep causality between the ranks whose times had the tracer's own time removed, each rank
 * by its own (docs/tracer.md, "The library's own time"): an interval that waited for a partner's entry (a receive,
 * probe or send-receive's receive half for its sender's, a wait or successful test for the senders' of the receives
 * it completes, a barrier or N x N collective for its last member's) ends the time it took after that entry (as read)
 * after the later of its own entry and the partner's (as the rules see them), and the rank's later intervals move as
 * much: later, where the partner's entry is later than the interval's end (its wait was hidden by its own tracer
 * time), earlier, where it waited for a partner that the partner's tracer time had delayed. No interval moves later
 * than its time as read (or where it already is), so that what is put back is at most the rank's own tracer time
 * removed and T_par at most the timelines' span: a partner whose entry was read after the call's end (a pairing that
 * is wrong, another host's clock, a loop's mean iteration) would otherwise add that gap to the rank, and through its
 * later messages to its partners, in turn. */
void met_tl_match_keep_causality(met_tl_match_t *m);

/* What keeping causality did to each rank's end, its moves' sum (later, then earlier, as waits were put back and
 * removed): the ranks it ended later summed into *put_back (each at most its own tracer time removed), those it
 * ended earlier into *waits_removed. */
void met_tl_match_moved(const met_tl_match_t *m, double *put_back, double *waits_removed);

/* Takes `ev` (its iv, kind, call and read_end set) read from `rank`, the next in start-time order over all ranks: pairs
 * it with what it completes and keeps it. 0, or BAS_ENOMEM when out of memory. */
int met_tl_match_push(met_tl_match_t *m, int rank, const met_tl_event_t *ev);

/* Adds to `trace` every kept interval that ends before `frontier` (the earliest start of an interval not yet pushed;
 * INFINITY when every file is read), each rank's in order, once its partners came and the sends whose messages it
 * receives went in, keeping the clock condition (met_timeline_clock.h). 0, or BAS_ENOMEM when the trace refuses one
 * (out of memory). */
int met_tl_match_flush(met_tl_match_t *m, met_trace_t *trace, double frontier);

/* What keeping the clock condition did (met_timeline_clock.h). */
met_tl_clock_counts_t met_tl_match_clock(const met_tl_match_t *m);

/* Defines sub-communicator `key` (its "# comm" line in rank `rank`'s file: docs/tracer.md), its members' world ranks,
 * `in_order` when the file gives them in the communicator's order: met_tl_groups_define. */
const char *met_tl_match_define(met_tl_match_t *m, int rank, int key, const int *members, int n, int in_order,
                                int *oom);

/* The scans left as the files give them because their communicator's order of its members is not known to be the
 * world's (met_tl_groups_ordered), counted at each member. */
size_t met_tl_match_scans_unordered(const met_tl_match_t *m);
/* Whether a communicator's pairing of collectives stopped because a rank held more intervals than the reader keeps
 * (HOLD_MAX) waiting for a collective's other members: its call went into the trace before they came (a root whose
 * loop of broadcasts folded, its members' calls kept meanwhile); met_tl_match_counts's `unpaired` then says only
 * whether calls also differed. */
int met_tl_match_colls_held(const met_tl_match_t *m);

/* What the pairing found: messages paired, receives (or ends given up) left unpaired, collectives paired, whether
 * the members' collective calls on a communicator differed (its pairing of collectives stopped), the collectives on
 * sub-communicators no file defined (a tracer before "# comm" lines: kept as the files give them), and the MPI_Start
 * and MPI_Startall calls read: a timeline gives no partner for the messages of the persistent requests they start
 * (the TI trace has them), so none of those is paired. */
void met_tl_match_counts(const met_tl_match_t *m, size_t *matched, size_t *unmatched, size_t *collectives,
                         int *unpaired, size_t *undefined, size_t *starts);

/* The sends and non-blocking collectives posted that no wait or test the files show completed, given up among a
 * rank's oldest outstanding operations (it keeps at least its 4,096 latest): their messages and collectives are paired
 * all the same. */
size_t met_tl_match_given_up(const met_tl_match_t *m);

/* The sends no receive took once every file was read (their messages pending when the run ended: OpenCoarrays' sends
 * of tag 424242), those a matched probe found included; not those given up among the oldest. */
size_t met_tl_match_unreceived(const met_tl_match_t *m);

#endif
