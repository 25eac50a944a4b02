/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The DSM module's inside, shared by its files and by nothing else: the world of one TreadMarks run, its nodes, pages,
 * commands and costs. sim_dsm_base.c holds the world, sim_dsm.c runs the application's side and the set-up,
 * sim_dsm_protocol.c the commands of seed 002 Figs. 1-3, sim_dsm_record.c the recorder and the PP's states,
 * sim_dsm_costs.c reads the platform's cost model. */
#ifndef SIM_DSM_WORLD_H
#define SIM_DSM_WORLD_H

#include "met_carnival.h"
#include "sim_dsm.h"

#include <simgrid/forward.h>
#include <stddef.h>
#include <stdint.h>

enum { DSM_MANAGER = 0, DSM_HOME = 0 }; /* node 0 manages barriers and allocates (homes) the shared space */

/* The platform's cost model: the simrun:dsm-* properties, documented in platforms/ncp2-myrinet-8.xml. */
typedef struct dsm_costs {
  double page_bytes;
  double word_bytes;
  double header_bytes;
  double notice_bytes;
  double interrupt_us;
  double handler_cycles;
  double fault_cycles;
  double page_cycles;
  double cp_command_cycles;
  double cp_word_cycles;
  double cp_page_cycles;
  double sw_message_cycles;
  double sw_byte_cycles;
  double sw_word_cycles;
} dsm_costs_t;

/* Commands and messages, named as in seed 002 §3; the _SEND kinds are the commands a PP handler queues at its own
 * engine to send a reply or a release. */
typedef enum dsm_kind {
  DSM_LOCAL_PAGE_REQUEST = 0,
  DSM_REMOTE_PAGE_REQUEST,
  DSM_PAGE_REPLY_SEND,
  DSM_PAGE_REPLY,
  DSM_LOCAL_DIFF_REQUEST,
  DSM_REMOTE_DIFF_REQUEST,
  DSM_DIFF_REPLY_SEND,
  DSM_DIFF_REPLY,
  DSM_SEND_ARRIVAL,    /* SEND_MESSAGE: a node's arrival at a barrier */
  DSM_RECEIVE_ARRIVAL, /* RECEIVE_MESSAGE at the manager */
  DSM_SEND_RELEASE,    /* SEND_MESSAGE: the manager's release of one node */
  DSM_RECEIVE_RELEASE, /* RECEIVE_MESSAGE at that node */
  DSM_STOP,            /* the end of the run, not a protocol message */
  DSM_KIND_COUNT
} dsm_kind_t;

/* A command's operation and the interval of Figs. 1-3 it spends queued (1, 4, 8 or 11); it is executed in the next.
 * Kinds queued in 4 or 11 arrive from the network. */
typedef struct dsm_kind_info {
  met_ce_op_t op;
  int queued;
} dsm_kind_info_t;
extern const dsm_kind_info_t sim_dsm_kinds[DSM_KIND_COUNT];

/* A command in a FIFO or a message on the network: what a request carries from step to step, with the timestamps of
 * its intervals (mark[k]: the end of interval k), as CARNIVAL's messages do (§4.1). */
typedef struct dsm_msg {
  dsm_kind_t kind;
  int origin; /* the node whose request it serves */
  int peer;   /* the remote node of the request: owner, writer or manager */
  long item;  /* the page, or the barrier's sequence number */
  int scope;  /* the origin's code scope */
  int pages;  /* write notices or invalidations carried */
  double mark[MET_REQ_MARKS];
  struct dsm_msg *next; /* FIFO link */
} dsm_msg_t;

/* One node's view of one page. Bitmaps have a bit per word of the page. */
typedef struct dsm_page {
  unsigned char copy;  /* the node holds a copy */
  unsigned char valid; /* ... with every diff applied */
  uint64_t *dirty;     /* words written in the current interval; NULL when none */
  uint64_t *pending;   /* per writer, the words whose diffs the copy lacks; NULL when none */
} dsm_page_t;

typedef struct dsm_world dsm_world_t;

/* A unit's timeline: the span open since open.start. */
typedef struct dsm_unit {
  met_span_t open;
  int node;
  int kind; /* MET_UNIT_PP or MET_UNIT_CP */
} dsm_unit_t;

struct sim_dsm_node {
  int id;
  dsm_world_t *world;
  sim_rank_t *rank;
  sg_actor_t app; /* the PP's application actor: the rank's */
  sg_host_t pp_host;
  sg_host_t engine_host; /* the CP's host, or the PP's without controllers */
  double bus_latency;    /* the PP-CP path, for the CP's DMA */
  double bus_bandwidth;
  dsm_unit_t pp;
  dsm_unit_t cp;
  sg_mutex_t pp_lock;  /* held by protocol code on the PP: TreadMarks masks interrupts in its own code */
  met_span_t pp_saved; /* the PP's span that protocol code preempted */
  int app_suspended;
  sg_sem_t wake;   /* the application waits here for its request */
  sg_sem_t queued; /* commands in the FIFO */
  dsm_msg_t *head;
  dsm_msg_t *tail;
  sg_mailbox_t inbox;
  int scope;
  int replies_due;            /* DIFF_REPLYs still to apply */
  double done[MET_REQ_MARKS]; /* the marks of the message that completed the request */
  int done_peer;
  double done_latency; /* notification latency still to wait (interval 13) */
  dsm_page_t *pages;
};

struct dsm_world {
  sim_dsm_program_t program;
  met_trace_t *trace;
  int nodes;
  long npages;
  size_t bitmap_words;
  dsm_costs_t c;
  double interrupt_s;
  struct sim_dsm_node *node;
  sg_bar_t startup;
  int alive; /* actors still holding the world */
  int error;
  char message[512];
  /* barrier manager state */
  int arrived;
  long barrier;
  double (*arrival)[MET_REQ_MARKS]; /* per node, the marks of its arrival (intervals 1-5) */
  int *arrival_scope;
  int manager_waiting;
  double manager_since;
};

/* sim_dsm_base.c: the run's world (NULL before the first rank makes it; install returns w), the run's clock, its first
 * failure (kept with its message; later ones are dropped), memory the protocol cannot do without (a failure aborts
 * the simulation process, which its parent reports), and the world's release by each actor done with it (the last
 * one frees it). */
dsm_world_t *sim_dsm_world_current(void);
dsm_world_t *sim_dsm_world_install(dsm_world_t *w);
double sim_dsm_now(void);
void sim_dsm_world_fail(dsm_world_t *w, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void *sim_dsm_calloc(size_t count, size_t size);
void sim_dsm_world_release(dsm_world_t *w);

/* sim_dsm_record.c: unit spans (the cause-effect annex) and the PP's mirror in the rank's timeline; the PP's states.
 */
void sim_dsm_unit_close(dsm_world_t *w, dsm_unit_t *u);
void sim_dsm_unit_set(dsm_world_t *w, dsm_unit_t *u, int state, int scope, int op);
void sim_dsm_record_request(dsm_world_t *w, met_request_t *req);
void sim_dsm_run_on(sg_host_t host, double cycles);
void sim_dsm_app_enter(struct sim_dsm_node *n, int state, int op);
void sim_dsm_app_leave(struct sim_dsm_node *n);
void sim_dsm_app_set(struct sim_dsm_node *n, int state, int op);
void sim_dsm_pp_enter(struct sim_dsm_node *n, int state, int scope, int op);
void sim_dsm_pp_leave(struct sim_dsm_node *n);

/* sim_dsm_protocol.c: commands, page state, the barrier's manager side, and the engine and interface actors. */
dsm_msg_t *sim_dsm_msg_new(dsm_kind_t kind, int origin, long item, int scope);
void sim_dsm_enqueue(struct sim_dsm_node *n, dsm_msg_t *m);
dsm_page_t *sim_dsm_page_of(struct sim_dsm_node *n, long page);
int sim_dsm_write_notices(const struct sim_dsm_node *n);
int *sim_dsm_barrier_release_work(dsm_world_t *w);
void sim_dsm_barrier_dispatch(dsm_world_t *w, double start, const int *inval);
void sim_dsm_engine_main(int argc, char *argv[]);
void sim_dsm_nic_main(int argc, char *argv[]);

/* sim_dsm_costs.c: the simrun:dsm-* properties into w->c (SIM_EPLATFORM and the world failed when one is missing or
 * malformed), and the check that the shared space fits in the memory of the node on `host`. */
int sim_dsm_read_costs(dsm_world_t *w);
void sim_dsm_check_memory(dsm_world_t *w, const_sg_host_t host);

#endif
