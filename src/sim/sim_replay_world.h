/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay layer's inside, shared by its files (sim_replay.c: ranks and recording, sim_replay_msg.c: messages,
 * sim_replay_run.c: a run) and by nothing else: the run's world, a rank, a request, and the helpers they share. */
#ifndef SIM_REPLAY_WORLD_H
#define SIM_REPLAY_WORLD_H

#include "sim_cluster.h"
#include "sim_engine.h"
#include "sim_fiber.h"
#include "sim_replay.h"
#include "sim_ti.h"

#include <simgrid/forward.h>

/* The mailboxes and the distance to one peer, looked up once: formatting a mailbox name and routing per message
 * was most of the replay layer's cost at thousands of ranks. Direct-mapped on the peer id, with a slot for every peer
 * up to SIM_PEER_SLOTS ranks (a root that sends to everyone then never misses); slots nobody uses are never touched. */
enum { SIM_PEER_SLOTS = 128 };
enum { SIM_CACHE_LINE = 64 }; /* bytes */
typedef struct sim_peer {
  /* what a message reads, in the slot's first cache line (the world aligns the slots on lines) */
  _Alignas(SIM_CACHE_LINE) int id_plus_1; /* the peer's id + 1, or 0 when the slot is empty (as calloc leaves it) */
  int hops;                               /* -1 until needed */
  sg_mailbox_t to;                        /* this rank to the peer */
  sg_mailbox_t from;                      /* the peer to this rank */
  /* The same for the messages of collective calls, which MPI never matches with point-to-point ones (SMPI sends them
   * with tags of their own): a receive posted before a barrier must not take the barrier's message. */
  sg_mailbox_t coll_to;
  sg_mailbox_t coll_from;
  /* The last eager message to the peer while it may still be moving: one TCP connection per pair carries its
   * messages one after the other, so the next one waits for it (sim_replay_eager_flush). */
  sg_comm_t eager_last;
  /* With eager_at_send, eager messages go by mailboxes of their own whose permanent receiver is the destination rank,
   * so that SimGrid starts them when sent (as SMPI does below smpi/async-small-thresh); a receiver knows a message is
   * eager by its size, as the sender does, so both ends choose the same mailbox. NULL without eager_at_send. */
  sg_mailbox_t eager_to;
  sg_mailbox_t eager_from;
  sg_mailbox_t coll_eager_to;
  sg_mailbox_t coll_eager_from;
} sim_peer_t;

/* An eager message on its way, the payload of its SimGrid communication: where it was sent from, so that one that is
 * never received can be named (check_outcome). Kept in the world's list, oldest first, until received. */
typedef struct sim_eager {
  struct sim_eager *prev;
  struct sim_eager *next;
  int src;
  int dst;
  double bytes;
  const char *file; /* the sender's action (sim_rank_where), or NULL */
  int line;
  /* the sender's SimGrid communication, which it releases once received (sim_replay_eager_release), or NULL: a
   * detached one would enter SimGrid's list of every detached communication under way, which each one's end walks
   * whole (CommImpl::finish), so that a collective posting thousands of eager sends at once cost their square */
  sg_comm_t comm;
  struct sim_eager *held_next; /* the next one its sender holds for the same receiver (sim_channel_t's held) */
  unsigned seq;                /* its number on its channel (sim_channel_t), once held */
} sim_eager_t;

/* A rank's route to a peer, looked up on the slot's first use (sim_replay_route). */
typedef struct sim_analytic_slot {
  int id_plus_1; /* the peer's id + 1, or 0 when empty (as calloc leaves it) */
  sim_route_t route;
} sim_analytic_slot_t;

/* The analytic network's part of a rank (sim_replay_analytic.c): the messages it posted and nobody matched yet, oldest
 * first, its route slots and its actor, without light contexts (suspended while it waits for a partner). */
typedef struct sim_amsg sim_amsg_t;
typedef struct sim_analytic_rank {
  sim_amsg_t *sends; /* sends to any rank */
  sim_amsg_t *sends_last;
  sim_amsg_t *recvs; /* receives from any rank */
  sim_amsg_t *recvs_last;
  sim_analytic_slot_t *routes;
  sg_actor_t actor;
} sim_analytic_rank_t;

/* A mailbox a rank used, by its key: (peer * SIM_BOX_KINDS + kind) + 1, kind saying which of the peer slot's
 * mailboxes it is; 0 when unused (as the ranks' memset leaves it). */
enum { SIM_BOX_KINDS = 8, SIM_RANK_BOXES = 3 };
typedef struct sim_box {
  long key;
  sg_mailbox_t box;
} sim_box_t;

/* A rank's count of its posted messages (sim_replay_msg.c's posts_messages) on one of a peer slot's mailboxes, by
 * sim_box_t's key. SimGrid looks through a mailbox's whole queue at each message posted on it for one of the other
 * end (MailboxImpl::find_matching_comm, SimGrid 3.32), so a sender far ahead of its receiver cost the square of its
 * lead (bench/eager-backlog.sh). A channel's messages go instead by blocks of SIM_BLOCK_MESSAGES, each block by a
 * mailbox of its own, the slot's for block 0, in turn among SIM_BLOCK_BOXES: both ends count the channel's messages,
 * so the n-th send and the n-th receive meet in one mailbox, in the order they were posted, as they did in one. */
enum { SIM_BLOCK_MESSAGES = 64, SIM_BLOCK_BOXES = 64, SIM_HOLD_AHEAD = 64 };
typedef struct sim_channel {
  int key;          /* 0 for an empty slot of the table */
  unsigned posted;  /* the rank's messages on the channel so far (wrapping at 2^32 on both ends alike) */
  sg_mailbox_t box; /* the mailbox of block `block`, that of the last one, or NULL */
  unsigned block;
  /* A sender's eager messages on the channel held out of SimGrid until their receives are posted, oldest first
   * (sim_replay_msg.c's hold) */
  sim_eager_t *held;
  sim_eager_t *held_last;
} sim_channel_t;

/* A rank's channels, an open-addressing table at most half full (mask + 1 slots, a power of 2; none yet when 0). */
typedef struct sim_channels {
  sim_channel_t *slots;
  unsigned used;
  unsigned mask;
} sim_channels_t;

/* A request cancelled after the replay had matched it to its message's other end (the real run's MPI_Cancel found
 * none there): its communication, and the request SimGrid writes a received payload into (`holder`), kept for the
 * rank's next request of the same number on the same channel (sim_replay_msg.c's orphan and adopt), or until the
 * rank's end, which waits for those left. */
typedef struct sim_orphan {
  int peer;
  int kind; /* the channel's mailbox kind (sim_replay_msg.c's box_kind) */
  unsigned seq;
  sg_comm_t comm;
  sim_request_t *holder;
  int taken; /* no request may take its place: an eager send did (its message is this one), or it was not its
              * channel's last (sim_replay_msg.c's last_posted); only waited for at the rank's end */
} sim_orphan_t;

#define SIM_PHASE_CACHE 16 /* sim_phase's hash takes the top 4 bits */

/* A rank's eager messages still moving when its slot for their peer went to another peer (more peers than slots):
 * kept aside, so that the sender waits for each only where it would with a slot per peer, at its next eager message
 * to that peer (one connection per pair) or at its end (sim_replay_peer_slot). The rank's own, so that finding one
 * reads no other rank's. */
typedef struct sim_aside {
  int peer;
  sg_comm_t comm;
} sim_aside_t;

typedef struct sim_asides {
  sim_aside_t *items;
  int n;
  int cap;
} sim_asides_t;

typedef struct sim_world {
  const sim_job_t *job;
  sim_machine_t machine;
  sim_cluster_t cluster; /* links between clusters of the SuperCluster (docs/t800.md) */
  met_trace_t *trace;
  sim_rank_t *ranks;
  sim_peer_t *peer_cache; /* every rank's peer slots (none with the analytic network), aligned in peer_memory */
  void *peer_memory;
  int npeer_slots;
  int analytic; /* job->analytic: messages priced by sim_replay_world.h, not SimGrid communications */
  sim_analytic_slot_t *route_cache; /* with analytic: every rank's route slots */
  sim_fibers_t *fibers;             /* with analytic, the ranks' light contexts (rank i is context i), or NULL */
  sim_amsg_t *amsg_spare;           /* with analytic: messages over, for reuse */
  int nroute_slots;
  int closed;      /* the job's program is evaluated in closed form (sim_replay_closed.h): no rank runs */
  sim_group_t all; /* every rank, in rank order */
  int *all_members;
  int links;           /* physical links on the routes between the hosts of the run */
  double link_init_s;  /* rank 0's link initialisation (sim_machine_link_init_time) */
  sim_ti_writer_t *ti; /* with job->ti_dir: the TI trace being written */
  int record_error;    /* set when the recorder ran out of memory */
  int fail_code;       /* from sim_rank_fail: the first failure of a layer above, or 0 */
  int posted_clock;    /* sim_post_at_own_clock: every message posted at its rank's clock, computations executed */
  double eager_below;  /* messages of fewer bytes are sent eagerly (sim_post_at_own_clock, or the platform's limit) */
  int eager_at_send;   /* simrun:eager-start = send: an eager message's transfer starts when it is sent */
  double envelope;     /* with posted_clock: bytes every message carries beyond its data */
  size_t same_host;    /* messages between ranks on one host over its links, a rank's to itself included */
  double same_host_bytes; /* their bytes */
  size_t held;            /* eager messages held by their senders until their receives are posted */
  int same_host_from;     /* the first one's sender and receiver */
  int same_host_to;
  char fail_message[512];
  /* sim_phase's labels seen last and their phase ids, direct-mapped on the label's address (skeletons pass string
   * literals): a phase change then costs no string comparison (3 per step and rank in Gauss-Jordan) */
  const char *phase_label[SIM_PHASE_CACHE];
  int phase_id[SIM_PHASE_CACHE];
  /* the list of eager messages not yet received: eager.next is the oldest */
  sim_eager_t eager;
} sim_world_t;

struct sim_rank {
  /* What a message and its record touch comes first, in one cache line: between two turns of a rank, SimGrid runs
   * every other actor, so each line of the rank a message reads is a cache miss (perf, docs/scale.md). The ranks are
   * allocated aligned (sim_replay_run.c), so that this first line is one. */
  _Alignas(SIM_CACHE_LINE) int id;
  int phase;
  sim_world_t *world;
  /* The rank's own clock: when the work it has done so far ends. Computations and fixed delays only move it on
   * (a rank is alone on its host, so they take their time whatever else happens); the SimGrid clock catches up at
   * the next message, and only when the partner is there before it. This saves an activity per computation. */
  double ready;
  /* Rendezvous bookkeeping: while blocked in a send or receive, the partner's id and when this rank got there
   * (`arrived`, by its own clock). The partner that comes second writes the start into match_time. */
  double arrived;
  double match_time;
  int blocked_on;
  int blocked_in_send;
  int blocked_in_coll; /* blocked in a message of a collective call */
  int in_message;      /* inside a rendezvous message (sim_replay_msg.c message) */
  int in_coll;         /* inside a collective call (sim_rank_collective): its messages go by the collective mailboxes */
  int tag;             /* sim_tag: the tag of the messages posted next */
  /* second line: what a message or a computation reads only now and then */
  sim_peer_t *peers; /* npeer_slots slots, in the world's peer_cache */
  int rendezvous;    /* in a posted-clock message of one SimGrid call per end (one_call), blocked_on is the partner */
  int pending;       /* posted messages not yet over and eager sends not yet received (one_call needs none) */
  int finished;
  int row; /* mesh coordinates of the host, or -1 */
  int col;
  sg_host_t host;
  double speed;            /* cycles per second */
  sim_eager_t *to_release; /* its eager sends received, whose communication it has yet to release (next-linked) */
  const char *where_file;  /* sim_rank_where: the program's current action, for the deadlock message */
  sim_asides_t aside;      /* its eager messages set aside from their slots (only beyond SIM_PEER_SLOTS peers) */
  /* third line: what sim_work reads of the host's costs (its clock, cycles per class and cache) */
  _Alignas(SIM_CACHE_LINE) met_charac_t charac; /* what each operation class costs on the host (sim_work) */
  int where_line;
  int self_route; /* whether its host's route to itself crosses its links (sim_engine_self_links): 0 not looked up */
  sim_analytic_rank_t net; /* with the analytic network */
  /* Last line: the rest of what every message and computation touches, so that a rank's step reads its first, third
   * and last lines and no other (callgrind, docs/scale.md). The mailboxes of its last messages, newest first: a
   * message to or from a peer it just talked to (a relay's two neighbours) then reads this line, not the peer's slot,
   * a line of its own (sim_replay_msg.c's mailbox). */
  _Alignas(SIM_CACHE_LINE) sim_box_t boxes[SIM_RANK_BOXES];
  int msg_tag;             /* the tag of the message whose end is being recorded */
  int timed_alone;         /* whether it moved its own clock on: then its host's speed must not change during the run */
  int same_as_first;       /* charac is rank 0's, without a cache: its work has no anomaly (met_charac_anomaly's 0) */
  sim_channels_t channels; /* with posted messages: where its next one to or from each peer goes */
  sim_orphan_t *orphans;   /* its cancelled receives' messages, for its next receives (seldom any) */
  size_t norphans;
  size_t orphans_cap;
  sim_request_t *settling; /* the orphan's request sim_replay_orphans_settle waits for, or NULL */
};

struct sim_request {
  sg_comm_t comm; /* NULL once finished */
  int peer;
  int sending;
  double bytes;
  int coll;     /* posted inside a collective call */
  int tag;      /* the rank's sim_tag when posted */
  double start; /* once finished: when its transfer started and ended */
  double end;
  void *data;       /* where SimGrid puts a received payload */
  sim_amsg_t *amsg; /* with the analytic network: the message, until the request is over */
  int send_posted;  /* a non-blocking send whose message's end was recorded at its posting (sim_replay_send_posted) */
  sim_request_t *holder; /* a cancelled receive's, whose message this one took (sim_orphan_t), or NULL */
  unsigned seq;          /* its number on its channel (sim_channel_t) */
  int took_held;         /* a receive that took a message its sender held (sim_replay_msg.c's take_held) */
};

/* The cache slot of peer `other`, filled with its mailboxes (its distance stays unknown until asked for). */
sim_peer_t *sim_replay_peer_slot(sim_rank_t *rank, int other);
/* The mailbox of block `block` (1 to SIM_BLOCK_BOXES - 1) of the messages the rank sends to (odd `kind`) or
 * receives from `peer` on the peer slot's mailbox of `kind` (sim_channel_t). */
sg_mailbox_t sim_replay_block_box(const sim_rank_t *rank, int peer, int kind, unsigned block);
/* One interval of the rank's timeline; `dir` says which end of a message with `peer` it is. */
void sim_replay_record(sim_rank_t *rank, met_category_t category, double start, double end, int peer, met_dir_t dir,
                       double bytes, const double *parts);
/* A message's end is over: the rank idled from `arrived` until its transfer started, then communicated until it
 * ended, by the rank's own clock (a transfer that went on while it computed costs nothing). */
void sim_replay_message_over(sim_rank_t *rank, int peer, int sending, double bytes, double arrived, double start,
                             double end);
/* The same for request `req`, finished: a non-blocking send's message end is the empty one recorded at its posting
 * (sim_replay_send_posted), so that every export starts the message there, where its transfer may start while the
 * rank computes; its wait is then idle for its receiver, then communication without a message. */
void sim_replay_request_over(sim_rank_t *rank, const sim_request_t *req, double arrived);
/* Records non-blocking send `req`'s message end, empty, at the rank's clock, as it is posted. */
void sim_replay_send_posted(sim_rank_t *rank, sim_request_t *req);
/* The PARIX router steals CPU from a transputer that forwards a message while it computes (simrun:relay-cpu-us,
 * docs/t800.md): every rank of the run on the route from `rank` to `peer` whose own clock is past the transfer's
 * start loses sim_cluster_relay_cpu(bytes), recorded as control of parallelism, and one blocked in a message gets
 * there that much later. A waiting forwarder loses nothing. Rendezvous messages only (not posted ones). */
void sim_replay_charge_relays(sim_rank_t *rank, int peer, double bytes, double start);
/* The route from the rank's host to rank `other`'s (links, latency, bandwidth), from the rank's route slots, which the
 * analytic network allocates. */
const sim_route_t *sim_replay_route(const sim_rank_t *rank, int other);
/* Brings the SimGrid clock up to the rank's own. */
void sim_replay_catch_up(sim_rank_t *rank);
/* Enters an eager message from `rank` to `dst` in the world's list of eager messages on their way; returns it, or
 * the rank itself (a payload like any other message's) when out of memory, reported as the recorder's failure. */
void *sim_replay_eager_sent(sim_rank_t *rank, int dst, double bytes);
/* With eager_at_send: waits until the last eager message from the rank to the slot's peer has arrived, the rank
 * sending meanwhile (the connection is busy), so that messages to one peer move in order, not sharing its bandwidth. */
void sim_replay_eager_flush(sim_rank_t *rank, sim_peer_t *slot);
/* At the rank's end: waits for its eager messages set aside from their slots (sim_aside_t), as for those in a slot. */
void sim_replay_eager_flush_aside(sim_rank_t *rank);
/* At the rank's end: waits for the communications of its orphans (sim_orphan_t) no receive took, which SimGrid would
 * otherwise cancel under their senders as the rank's actor ends; a payload they brought is left unreceived. */
void sim_replay_orphans_settle(sim_rank_t *rank);
/* Releases the rank's orphans left at the run's end (a deadlock). */
void sim_replay_orphans_free(sim_rank_t *rank);
/* Takes eager message `e` out of the world's list (received, or the run is over) and frees it. */
void sim_replay_eager_drop(sim_eager_t *e);
/* Eager message `e` was received: out of the world's list, and freed, or handed to its sender to release its
 * communication. */
void sim_replay_eager_received(sim_world_t *world, sim_eager_t *e);
/* Releases the communications of the rank's eager sends received so far (each a SimGrid call that returns at once). */
void sim_replay_eager_release(sim_rank_t *rank);
/* At the rank's end: waits until each of its eager sends still under way has arrived, then releases them. One that is
 * never received keeps the rank waiting in SimGrid for ever, after it finished; the run then names it as lost. */
void sim_replay_eager_settle(sim_rank_t *rank);
/* At the run's end: frees the eager messages left (lost, or held by ranks that never finished), and their
 * communications. */
void sim_replay_eager_forget(sim_world_t *world);

/* The analytic network (sim_replay_analytic.c, docs/scale.md): every message priced alone by the platform's model as
 * SimGrid's network would price it on a quiet network (sim_engine_alone_time), no contention, no SimGrid
 * communication; a rank that must wait for its partner is suspended until the partner comes.
 *
 * Sets the world's analytic network up, once its ranks are allocated: the network model's factors, every rank's
 * route slots. Returns 0, or a SIM_E* code with a message (a network model it cannot price, out of memory). */
int sim_replay_analytic_start(sim_world_t *world, char *err, size_t errlen);
/* Frees what the start and the run's unmatched messages hold. */
void sim_replay_analytic_stop(sim_world_t *world);
/* Before the ranks are spawned: their light contexts in world->fibers when the job runs on them (sim_job_t's
 * analytic), else nothing. Returns 0, or SIM_ENOMEM. */
int sim_replay_analytic_prepare(sim_world_t *world);

/* Whether the job's program runs in closed form (sim_replay_closed.h): it has one (job->closed), on more than one
 * rank, and the run needs nothing beyond the sums: the light contexts' analytic network, an aggregate trace, no TI
 * trace. */
int sim_replay_closed_applies(const sim_job_t *job);
/* Evaluates the job's program in closed form (sim_replay_closed.h) in place of running its ranks, once they are
 * mapped; a failure is the run's (fail_code). */
void sim_replay_closed_run(sim_world_t *world);

/* A blocking message with `peer` (sim_send, sim_recv), synchronous or, below the world's eager limit, eager. */
void sim_replay_analytic_message(sim_rank_t *rank, int peer, int sending, double bytes);
/* Posts a non-blocking message at the rank's clock into `req` (sim_isend, sim_irecv). */
void sim_replay_analytic_post(sim_rank_t *rank, sim_request_t *req, int peer, int sending, double bytes);
/* Whether `req` is over by the rank's clock (sim_test); never blocks. */
int sim_replay_analytic_test(sim_rank_t *rank, sim_request_t *req);
/* Withdraws `req`'s message (sim_cancel): one nobody matched leaves the rank's list; the caller frees the request. */
void sim_replay_analytic_cancel(sim_rank_t *rank, sim_request_t *req);
/* Waits until `req` is over and records it (sim_wait); the caller frees the request. */
void sim_replay_analytic_finish(sim_rank_t *rank, sim_request_t *req);

#endif
