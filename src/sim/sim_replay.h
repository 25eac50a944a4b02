/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay layer: the small action API that program skeletons speak (compute with an instruction-level
 * characterisation, send, recv, broadcast, barrier, I/O, link set-up), executed as SimGrid actors, one per rank,
 * with a recorder that stores every rank's timed intervals with a category and a phase label (met_trace.h).
 * Skeletons never call SimGrid: the same skeleton runs on any platform and under any broadcast algorithm. */
#ifndef SIM_REPLAY_H
#define SIM_REPLAY_H

#include "met_trace.h"
#include "sim_coll.h"
#include "sim_machine.h"

#include <stddef.h>

typedef struct sim_rank sim_rank_t;

/* The words of the warning a replay ends with when messages between ranks on one host crossed the host's links (a
 * <cluster> without loopback_bw routes a host to itself out and back): "simrun: warning: PLATFORM: N message(s) ...
 * SIM_SAME_HOST_WORDS ...; how to price them as copies", which simrun analyse --replay-on also gives in its report. */
#define SIM_SAME_HOST_WORDS "went between ranks on one host over its links"

/* What a computation is for: useful work (the sequential program does it too), control of parallelism, or polling
 * for a partner (recorded as idle: waiting that takes the processor, as a run of unsuccessful tests does). */
typedef enum sim_purpose { SIM_WORK = 0, SIM_CTRL, SIM_POLL } sim_purpose_t;

/* Processor cycles of a computation, by component (seed 001 eqs. 1-2): the time is their sum times the cycle time,
 * and the trace keeps the split. fpu counts the FPU cycles not overlapped with the CPU. */
typedef struct sim_cycles {
  double cpu;
  double fpu;
  double intmem;
  double extmem;
} sim_cycles_t;

/* A skeleton's per-rank body. `arg` is the job's argument, shared read-only by all ranks. */
typedef void (*sim_program_fn)(sim_rank_t *rank, const void *arg);

/* sim_job_t's analytic: SIM_ANALYTIC runs the ranks as simrun's light contexts (no SimGrid actor, no SimGrid clock),
 * except for skeletons whose ranks share hosts (share_hosts: their computations are SimGrid executions that share
 * the host's processor), which keep SimGrid actors, as SIM_ANALYTIC_ACTORS always does (the reference the light
 * contexts are tested against). */
enum { SIM_ANALYTIC = 1, SIM_ANALYTIC_ACTORS = 2 };

/* A skeleton's whole program evaluated in closed form across ranks rather than executed (sim_replay_closed.h): 0, or
 * a SIM_E* code. */
typedef struct sim_closed sim_closed_t;
typedef int (*sim_closed_fn)(sim_closed_t *run, const void *arg);

typedef struct sim_job {
  const char *platform; /* SimGrid platform XML file */
  int nranks;
  sim_bcast_alg_t bcast; /* the algorithm behind sim_bcast() */
  sim_program_fn program;
  const void *arg;
  int aggregate;    /* record per-rank sums only (met_trace_new_aggregate): for runs whose timeline nobody reads */
  int message_hops; /* record every message's hop count even in an aggregate trace (for the message groups) */
  int spill;        /* with aggregate: also spill every interval and keep the collective spans
                     * (met_trace_new_spilled): for runs whose timeline is drawn but need not be held */
  int analytic;     /* network = analytic: every message priced alone by the platform's model, no contention, no
                     * SimGrid communication (sim_replay_world.h, docs/scale.md); SIM_ANALYTIC_ACTORS runs its ranks
                     * as SimGrid actors even where simrun's light contexts (sim_fiber.h) would do */
  const char *engine_cfg; /* SimGrid settings for the run (sim_engine_configure), or NULL */
  int share_hosts;        /* more ranks than hosts wrap round the hosts (rank i on host i mod n), as smpirun's */
  int drop_unreceived;    /* an eager send never received is dropped at the end with a warning, as smpirun -replay
                           * drops it (a real program may end with one pending); 0: the run fails (a skeleton's bug) */
  sim_closed_fn closed;   /* the program in closed form, or NULL: used instead of the program where exact (under
                           * SIM_ANALYTIC into an aggregate trace, no TI trace: sim_replay_closed.h) */
  const char *ti_dir;     /* when set, an existing folder where the run's actions are also written as a TI trace
                           * (sim_ti.h: rank-<i>.txt, index.txt, hostfile.txt), collectives as the messages they became */
} sim_job_t;

/* Runs `job` in this process: starts SimGrid (once per process: see sim_run.h for repeated runs), maps ranks to
 * hosts, runs the program on every rank. Returns 0 and a new trace in *trace (the caller frees it; an aggregate one
 * when job->aggregate, whose COMM records then carry no hop count unless job->message_hops), or a negative SIM_E*
 * code with a message in err. */
int sim_simulate(const sim_job_t *job, met_trace_t **trace, char *err, size_t errlen);

/* The rank's number, from 0, and the number of ranks of the run. */
int sim_rank_id(const sim_rank_t *rank);
int sim_rank_count(const sim_rank_t *rank);
/* Links on the route from this rank's host to rank `other`'s: the distance d of the machine's message model. */
int sim_hops(const sim_rank_t *rank, int other);

/* The mesh coordinates (platform properties simrun:row and simrun:col) of rank `other`'s host. Returns 0, or -1 when
 * the host has none (the platform is not a mesh). */
int sim_rank_coords(const sim_rank_t *rank, int other, int *row, int *col);

/* Whether the run's messages go through the analytic network (sim_job_t's analytic) rather than SimGrid's. */
int sim_rank_analytic(const sim_rank_t *rank);

/* Labels the intervals recorded from now on (for example "distribution", "step", "collection"). The label must not
 * change while the run lasts (a string literal): its address is what finds it again. */
void sim_phase(sim_rank_t *rank, const char *label);

/* For layers built on this one that record intervals of their own (the DSM of sim_dsm.h): the run's trace, borrowed
 * for the run. Intervals added to a rank's timeline must keep its time order. */
met_trace_t *sim_rank_trace(sim_rank_t *rank);
/* The rank's own clock: when what it has done so far ends (the time its next interval starts). */
double sim_rank_clock(const sim_rank_t *rank);
/* Makes the run fail with `code` (a SIM_E* value) and `message` (copied), reported by sim_simulate once every rank has
 * returned; the first failure wins. The calling rank should return from its program soon after. */
void sim_rank_fail(sim_rank_t *rank, int code, const char *message);

/* Computes `cycles` on the rank's host, each component at the host's speed in cycles per second, recorded as
 * `purpose` with the split kept (sim_work: from operation counts, at the characterised clock). Useful work on a host
 * of another speed than rank 0's, where the sequential run runs, adds the difference to the rank's host speed
 * (met_trace_add_anomaly). */
void sim_compute(sim_rank_t *rank, const sim_cycles_t *cycles, sim_purpose_t purpose);

/* What each operation class costs on this rank's host (sim_machine_charac), for layers that time work themselves (the
 * DSM's sim_dsm_work); borrowed for the run. */
const met_charac_t *sim_rank_charac(const sim_rank_t *rank);

/* Work given as operation counts by class: `items` pieces of `ops` each (the elements a module of the skeleton
 * handles), timed on this rank's host with the host's own characterisation (sim_machine_charac, met_charac_cycles)
 * and recorded with the split of eq. 2; useful work also adds its parallel anomaly (met_charac_anomaly, against rank
 * 0's host, where the sequential run runs) to the rank's (met_trace_add_anomaly). */
void sim_work(sim_rank_t *rank, const met_ops_t *ops, double items, sim_purpose_t purpose);

/* Point-to-point messages are synchronous, as transputer channels are (occam rendezvous): the sender blocks until
 * the receiver has taken the whole message. On a platform with simrun:eager-bytes (MPI over TCP: docs/machines.md), a
 * message of at most that many bytes is eager instead, as sim_post_at_own_clock's: over for the sender at once. Time
 * blocked before the partner arrives is recorded as IDLE, the transfer itself as COMM, both naming the partner. */
void sim_send(sim_rank_t *rank, int dst, double bytes);
void sim_recv(sim_rank_t *rank, int src, double bytes);
/* Whether sim_send of `bytes` is eager on this run's platform (over for the sender without waiting for its receiver),
 * so that a program may send before it receives where a synchronous machine would deadlock. */
int sim_send_is_eager(const sim_rank_t *rank, double bytes);

/* The MPI tag of the rank's next sends and receives, blocking or posted: >= 0, or -1 for a receive from any tag (0
 * until set; the skeletons leave it so, ti-replay gives each message its trace's, 0 to a sendRecv). Matching ignores it
 * (messages between two ranks match in the order they are posted); the TI trace and the trace's message ends carry it,
 * which the OTF2 archives write as the events' tags. */
void sim_tag(sim_rank_t *rank, int tag);

/* For programs that replay real MPI traces (app_ti.c): from this call on, every message of the run is posted as a
 * SimGrid communication when its rank's own clock says so, and computations are SimGrid executions, so that ranks
 * sharing a host share its processor and non-blocking messages overlap with what their rank does meanwhile. A send
 * of fewer than `eager_below` bytes is eager, as SMPI's below smpi/send-is-detached-thresh: over for the sender as
 * soon as it is posted (0: every send is synchronous). Every message carries `envelope` bytes beyond its data on the
 * network (SMPI's 16), and an eager message starts moving when its receive is posted, as in smpirun by default
 * (smpi/async-small-thresh 0), whatever the platform's simrun:eager-start says. Every rank calls it, with the same
 * values, before its first action; the replay of the other skeletons keeps the faster protocol above. */
void sim_post_at_own_clock(sim_rank_t *rank, double eager_below, double envelope);

/* Non-blocking messages (after sim_post_at_own_clock): posted now, they go on while the rank computes. A request is
 * owned by the rank until sim_wait frees it; NULL when out of memory (the run then fails as the recorder's). Messages
 * between two ranks match in the order they are posted, blocking or not. */
typedef struct sim_request sim_request_t;
sim_request_t *sim_isend(sim_rank_t *rank, int dst, double bytes);
sim_request_t *sim_irecv(sim_rank_t *rank, int src, double bytes);
/* Whether the message is over by the rank's clock; never blocks (the request stays to be waited for). */
int sim_test(sim_rank_t *rank, sim_request_t *req);
/* Blocks until the message is over, recording IDLE until its transfer started and COMM until it ended (nothing when
 * it ended while the rank was busy), and frees the request. */
void sim_wait(sim_rank_t *rank, sim_request_t *req);

/* Cancels a request whose message has not started (a receive nothing matched: a cancelled MPI receive) and frees it;
 * an eager send, already on its way, goes on. */
void sim_cancel(sim_rank_t *rank, sim_request_t *req);

/* Moves the calling rank to the host called `host_name` (as smpirun's -hostfile places ranks). Called before the
 * rank's first action. Returns 0, or SIM_EHOSTS when the platform has no such host. */
int sim_rank_place(sim_rank_t *rank, const char *host_name);

/* Names the program's current action as line `line` of `file` (borrowed until the run ends): a run that ends with
 * ranks blocked names each one's action in its message. */
void sim_rank_where(sim_rank_t *rank, const char *file, int line);

/* Every rank of the run, in rank order, and the job's broadcast algorithm: for the collectives (sim_coll.h). */
const sim_group_t *sim_rank_world(const sim_rank_t *rank);
sim_bcast_alg_t sim_rank_bcast_alg(const sim_rank_t *rank);
/* The rank enters (`inside` 1) or leaves (0) a collective call (sim_mark does it): the messages in between travel apart
 * from its point-to-point ones, which they never match, as MPI keeps a collective's traffic apart. */
void sim_rank_collective(sim_rank_t *rank, int inside);

/* A fixed delay given as time rather than work (a TI trace's `sleep`), recorded as CTRL. */
void sim_sleep(sim_rank_t *rank, double seconds);

/* Host input or output of `bytes` through this rank (eqs. 5, 6), recorded as IO. */
void sim_io(sim_rank_t *rank, sim_io_dir_t dir, double bytes);

/* `count` minor page faults taken by this rank inside a message call (a TI trace's faults action: a receive into
 * pages it had not touched yet), at simrun:page-fault-us each, recorded as COMM after the call. */
void sim_page_faults(sim_rank_t *rank, double count);

/* This rank's first collective of a kind: the library's set-up of that kind, at simrun:first-call-us, recorded as COMM
 * before the call. */
void sim_first_call(sim_rank_t *rank);

/* Initialises every physical link on the routes between the hosts of the run (eq. 3, 1270 us each on the Parsytec;
 * on a mesh partition, the links inside it; through a switch, each host's link to it), one after the other, charged
 * to this rank as control of parallelism. */
void sim_init_links(sim_rank_t *rank);

#endif
