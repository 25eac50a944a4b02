/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What each action of SimGrid 3.32's time-independent traces does on the simulated machine (smpi_replay.cpp's), and
 * one rank's file replayed line by line: non-blocking messages overlap with computation, collectives run the chosen
 * algorithms, messages match receives by source and tag as in MPI (app_ti_match.h; between two ranks whose messages
 * and receives carry one tag, in the order they are posted, which is the same). */
#include "app_ti_actions.h"
#include "app_ti_match.h"
#include "sim_coll_ompi.h"
#include "sim_coll_run.h"
#include "sim_error.h"
#include "sim_ti.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* SMPI 3.32's default (src/smpi/internals/smpi_config.cpp, src/smpi/mpi/smpi_request.cpp): each MPI_Test first sleeps
 * smpi/test = 1e-4 s times a count that grows by one with each test finding nothing and returns to 1 when one succeeds
 * (a static: shared by all ranks). */
#define TI_SMPI_TEST_SLEEP 1e-4
/* A pending request of the rank: its ends and tag, as a wait or test names it, and for a receive whose source's tags
 * are matched (app_ti_match.h), the number of the message it took. */
enum { TI_NEVER = -1, TI_IN_ORDER = -2 /* a send, or a receive that the layer's order matches */ };
typedef struct app_ti_req {
  int src;
  int dst;
  int tag;
  int receive;        /* an irecv's (a rank's message to itself has src and dst alike: only this tells) */
  sim_request_t *req; /* NULL once a test found it over, or while no message matches it (TI_NEVER) */
  long long msg;      /* the message's number, TI_NEVER or TI_IN_ORDER */
} ti_req_t;

static int do_nothing(app_ti_rank_t *tr)
{
  (void)tr;
  return 0;
}

static int do_finalize(app_ti_rank_t *tr)
{
  tr->finalized = 1;
  return 0;
}

static int do_init(app_ti_rank_t *tr)
{
  tr->type_size = tr->nfields > 2 ? sim_ti_type_size(0) : sim_ti_type_size(SIM_TI_MPI_BYTE); /* MPE: MPI_DOUBLE */
  return 0;
}

int app_ti_compute(app_ti_rank_t *tr, double flops)
{
  sim_compute(tr->rank, &(sim_cycles_t){.cpu = flops}, SIM_WORK);
  return 0;
}

static int do_compute(app_ti_rank_t *tr)
{
  double flops;
  return app_ti_number(tr, 2, "flops", 0, APP_TI_MAX_FLOPS, &flops) != 0 ? -1 : app_ti_compute(tr, flops);
}

static int do_sleep(app_ti_rank_t *tr)
{
  double seconds;
  if (app_ti_number(tr, 2, "seconds", 0, APP_TI_MAX_SECONDS, &seconds) != 0)
    return -1;
  sim_sleep(tr->rank, seconds);
  return 0;
}

/* The partner, tag and bytes of send, isend, recv and irecv: "<partner> <tag> <count> [datatype]". A receive of a
 * negative count (SMPI probes for the size) takes the sender's. */
static int pt2pt(app_ti_rank_t *tr, int *partner, int *tag, double *bytes)
{
  long long t;
  long long count;
  int size;
  int sending = tr->field[1][0] == 's' || tr->field[1][1] == 's';
  if (app_ti_min_fields(tr, 3) != 0 || app_ti_peer(tr, 2, partner) != 0 ||
      app_ti_whole(tr, 3, "tag", INT_MIN, INT_MAX, &t) != 0 || app_ti_type_size(tr, 5, &size) != 0 ||
      app_ti_whole(tr, 4, "count", sending ? 0 : -1, APP_TI_MAX_BYTES, &count) != 0)
    return -1;
  if (t < 0 && (sending || t != SIM_TI_ANY_TAG))
    return app_ti_fail(tr,
                       "tag %lld is negative: MPI tags are >= 0 (SMPI keeps negative tags for its collectives; only a "
                       "receive may carry %d, SMPI's MPI_ANY_TAG); give the tag the program used",
                       t, SIM_TI_ANY_TAG);
  *tag = (int)t;
  sim_tag(tr->rank, t == SIM_TI_ANY_TAG ? -1 : *tag); /* the message's end carries it (OTF2's msgTag) */
  *bytes = count < 0 ? 0 : (double)count * size;
  if (*bytes > APP_TI_MAX_BYTES)
    return app_ti_fail(tr, "%lld elements of %d bytes exceed %g bytes", count, size, APP_TI_MAX_BYTES);
  return 0;
}

/* Keeps a pending isend's or irecv's (`receive`) request. 0, or -1 when out of memory (the request waited for). */
static int add_request(app_ti_rank_t *tr, int src, int dst, int tag, int receive, sim_request_t *req, long long msg)
{
  if (!req && msg != TI_NEVER)
    return app_ti_fail(tr, "out of memory");
  if (tr->nreqs == tr->cap_reqs) {
    int cap = tr->cap_reqs ? 2 * tr->cap_reqs : 16;
    ti_req_t *more = realloc(tr->reqs, (size_t)cap * sizeof *more);
    if (!more) {
      if (req)
        sim_wait(tr->rank, req);
      return app_ti_fail(tr, "out of memory");
    }
    tr->reqs = more;
    tr->cap_reqs = cap;
  }
  tr->reqs[tr->nreqs++] = (ti_req_t){.src = src, .dst = dst, .tag = tag, .receive = receive, .req = req, .msg = msg};
  return 0;
}

static int do_send(app_ti_rank_t *tr)
{
  int partner;
  int tag;
  double bytes;
  if (pt2pt(tr, &partner, &tag, &bytes) != 0)
    return -1;
  if (tr->field[1][0] == 's') {
    sim_send(tr->rank, partner, bytes);
    return 0;
  }
  return add_request(tr, tr->me, partner, tag, 0, sim_isend(tr->rank, partner, bytes), TI_IN_ORDER);
}

/* Posts a receive of `tag` from `src`: in the layer's order, or bound to the message MPI gives it when the source's
 * tags are matched (*req NULL when none ever matches: TI_NEVER). 0, or -1 when out of memory. */
static int post_recv(app_ti_rank_t *tr, int src, int tag, double bytes, sim_request_t **req, long long *msg)
{
  int slot = app_ti_match_slot(tr, src);
  app_ti_bound_t bound = APP_TI_BOUND_NEXT;
  *msg = TI_IN_ORDER;
  if (slot >= 0 && app_ti_match_bind(tr, slot, tag, msg, req, &bound) != 0)
    return app_ti_fail(tr, "out of memory");
  if (bound == APP_TI_BOUND_NEXT && !(*req = sim_irecv(tr->rank, src, bytes)))
    return app_ti_fail(tr, "out of memory");
  return 0;
}

/* Waits for a request's message. A receive that no message matches (TI_NEVER) blocks the rank for good, as MPI's
 * would, once every message of its source is posted: the run ends naming it. */
static void complete(app_ti_rank_t *tr, sim_request_t *req, int src, long long msg)
{
  if (!req && msg == TI_NEVER)
    req = app_ti_match_never(tr, app_ti_match_slot(tr, src)); /* NULL: the rank failed */
  if (req)
    sim_wait(tr->rank, req);
}

static int do_recv(app_ti_rank_t *tr)
{
  int partner;
  int tag;
  double bytes;
  if (pt2pt(tr, &partner, &tag, &bytes) != 0)
    return -1;
  int blocking = tr->field[1][0] == 'r';
  if (blocking && app_ti_match_slot(tr, partner) < 0) {
    sim_recv(tr->rank, partner, bytes);
    return 0;
  }
  sim_request_t *req;
  long long msg;
  if (post_recv(tr, partner, tag, bytes, &req, &msg) != 0)
    return -1;
  if (blocking) {
    complete(tr, req, partner, msg);
    return 0;
  }
  return add_request(tr, partner, tr->me, tag, 1, req, msg);
}

/* "sendRecv <sendcount> <dst> <recvcount> <src> [sendtype [recvtype]]": both posted, then both waited for. */
static int do_sendrecv(app_ti_rank_t *tr)
{
  int dst;
  int src;
  int send_size;
  int recv_size;
  double out;
  double in;
  if (app_ti_min_fields(tr, 4) != 0 || app_ti_peer(tr, 3, &dst) != 0 || app_ti_peer(tr, 5, &src) != 0 ||
      app_ti_type_size(tr, 6, &send_size) || app_ti_type_size(tr, 7, &recv_size) != 0 ||
      app_ti_amount(tr, 2, send_size, &out) != 0 || app_ti_amount(tr, 4, recv_size, &in) != 0)
    return -1;
  sim_tag(tr->rank, 0); /* the action names no tag: SMPI's replay gives both messages tag 0 */
  sim_request_t *s = sim_isend(tr->rank, dst, out);
  sim_request_t *r = NULL;
  long long msg;
  int rc = s ? post_recv(tr, src, 0, in, &r, &msg) : app_ti_fail(tr, "out of memory");
  if (s)
    sim_wait(tr->rank, s);
  if (rc == 0)
    complete(tr, r, src, msg);
  return rc;
}

/* How a wait, test or cancel treats a request it does not find. */
typedef enum ti_missing {
  TI_REFUSE,        /* simrun's cancel: a malformed trace */
  TI_UNLESS_OTHERS, /* SMPI's wait: does nothing if the rank has other requests, else aborts ("action wait not
                     * preceded by any irecv or isend") */
  TI_IGNORE,        /* SMPI's test: does nothing */
} ti_missing_t;

/* The pending request of "wait|test|cancel <src> <dst> <tag>", the first posted: its index; -2 when there is none
 * and `missing` lets the action do nothing (a test may have completed and dropped it); -1 with the reason when a
 * field is wrong or `missing` refuses. */
static int find_request(app_ti_rank_t *tr, ti_missing_t missing)
{
  int src;
  int dst;
  long long tag;
  if (app_ti_min_fields(tr, 3) != 0 || app_ti_peer(tr, 2, &src) != 0 || app_ti_peer(tr, 3, &dst) != 0 ||
      app_ti_whole(tr, 4, "tag", INT_MIN, INT_MAX, &tag) != 0)
    return -1;
  for (int i = 0; i < tr->nreqs; i++)
    if (tr->reqs[i].src == src && tr->reqs[i].dst == dst && tr->reqs[i].tag == tag)
      return i;
  if (missing == TI_IGNORE || (missing == TI_UNLESS_OTHERS && tr->nreqs > 0))
    return -2;
  return app_ti_fail(
      tr,
      "no pending isend or irecv from rank %d to rank %d with tag %lld: the request was never posted, or "
      "was waited for already",
      src, dst, tag);
}

static void drop_request(app_ti_rank_t *tr, int i)
{
  memmove(&tr->reqs[i], &tr->reqs[i + 1], (size_t)(tr->nreqs - i - 1) * sizeof *tr->reqs);
  tr->nreqs--;
}

static int do_wait(app_ti_rank_t *tr)
{
  int i = find_request(tr, TI_UNLESS_OTHERS);
  if (i < 0)
    return i == -2 ? 0 : -1;
  complete(tr, tr->reqs[i].req, tr->reqs[i].src, tr->reqs[i].msg);
  drop_request(tr, i);
  return 0;
}

/* A test that finds the message over keeps the request for its wait, as SMPI keeps a null request; a second test
 * finds that null request and drops it, with no sleep, as SMPI 3.32 does (a wait after it finds nothing). */
static int do_test(app_ti_rank_t *tr)
{
  int i = find_request(tr, TI_IGNORE);
  if (i < 0)
    return i == -2 ? 0 : -1;
  sim_request_t *req = tr->reqs[i].req;
  if (!req && tr->reqs[i].msg != TI_NEVER) {
    drop_request(tr, i);
    return 0;
  }
  int *sleeps = tr->test_sleeps;
  sim_sleep(tr->rank, *sleeps * TI_SMPI_TEST_SLEEP);
  if (req && sim_test(tr->rank, req)) {
    sim_wait(tr->rank, req);
    tr->reqs[i].req = NULL;
    *sleeps = 1;
  } else {
    (*sleeps)++;
  }
  return 0;
}

/* Waits for every pending request; `at_end`: but a receive that no message will ever match, which a real program's
 * MPI_Finalize leaves pending (mplrs's master leaves one to its output rank). */
static void wait_all(app_ti_rank_t *tr, int at_end)
{
  for (int i = 0; i < tr->nreqs; i++)
    if (!at_end || tr->reqs[i].msg != TI_NEVER)
      complete(tr, tr->reqs[i].req, tr->reqs[i].src, tr->reqs[i].msg);
  tr->nreqs = 0;
}

static int do_waitall(app_ti_rank_t *tr)
{
  wait_all(tr, 0);
  return 0;
}

/* A run of polls' processor time is charged in pieces of at least TI_POLL_PIECE flops (20 us at 5e9 flop/s) and
 * at most a TI_POLL_PIECES-th of the run: one cut short by a message costs at most a piece more than it should. */
#define TI_POLL_PIECE  1e5
#define TI_POLL_PIECES 64

/* Whether one of the rank's pending receives is over (a message came): the first found is completed, as a test that
 * finds it over does (its wait or test then does nothing). Sends do not count, a rank's sends to itself included: an
 * eager one is over at once (Ray at p = 1 isends to itself, receives, then tests the send: each run of polls between
 * was cut at its first piece, and the run predicted 15% short). */
static int receive_over(app_ti_rank_t *tr)
{
  for (int i = 0; i < tr->nreqs; i++) {
    sim_request_t *req = tr->reqs[i].req;
    if (req && tr->reqs[i].receive && sim_test(tr->rank, req)) {
      sim_wait(tr->rank, req);
      tr->reqs[i].req = NULL;
      return 1;
    }
  }
  return 0;
}

/* simrun's "poll <count> [<flops>]": a run of unsuccessful tests or iprobes, and the work between them, whose
 * processor time the flops are (docs/ti-replay.md). It is computed on the rank's host, shared with the ranks placed
 * there, and recorded as idle, until one of the rank's pending receives is over: the run then ended in the program
 * (its message came), and the rest of its time was the wait for a message that came later when traced. Without
 * flops (traces written before them; "<count> <first> <last>", older still) it computes nothing: the wait or receive
 * it led to charges the waiting. */
static int do_poll(app_ti_rank_t *tr)
{
  long long count;
  double flops = 0;
  double first;
  double last;
  if (app_ti_min_fields(tr, 1) != 0 || app_ti_whole(tr, 2, "count", 1, APP_TI_MAX_COUNT, &count) != 0)
    return -1;
  if (tr->nfields == 4 && app_ti_number(tr, 3, "flops", 0, APP_TI_MAX_FLOPS, &flops) != 0)
    return -1;
  if (tr->nfields > 4 && (app_ti_number(tr, 3, "first", 0, APP_TI_MAX_SECONDS, &first) != 0 ||
                          app_ti_number(tr, 4, "last", first, APP_TI_MAX_SECONDS, &last) != 0))
    return -1;
  double piece = flops / TI_POLL_PIECES > TI_POLL_PIECE ? flops / TI_POLL_PIECES : TI_POLL_PIECE;
  while (flops > 0 && !receive_over(tr)) {
    double now = flops < piece ? flops : piece;
    sim_compute(tr->rank, &(sim_cycles_t){.cpu = now}, SIM_POLL);
    flops -= now;
  }
  return 0;
}

/* simrun's "faults <count>": the minor page faults the rank took inside the call before it (a receive into pages it had
 * not touched yet: docs/tracer.md; in a loop's body, their mean per iteration), each at the platform's
 * simrun:page-fault-us, after that call. */
static int do_faults(app_ti_rank_t *tr)
{
  double count;
  if (app_ti_min_fields(tr, 1) != 0 || app_ti_number(tr, 2, "count", 0, APP_TI_MAX_FAULTS, &count) != 0)
    return -1;
  sim_page_faults(tr->rank, count);
  return 0;
}

/* A cancelled receive from a source whose tags are matched: the message it took goes to the first later pending
 * receive that accepts it and holds a later message (or none), whose own goes on down the chain in the same way, as
 * MPI would have matched them had the cancel come before the messages; the message left over is kept as unexpected
 * for the receives to come. */
static int cancel_matched(app_ti_rank_t *tr, int i)
{
  int src = tr->reqs[i].src;
  int slot = app_ti_match_slot(tr, src);
  long long msg = tr->reqs[i].msg;
  sim_request_t *req = tr->reqs[i].req;
  drop_request(tr, i);
  if (!req) /* no message matched it, or a test found it over */
    return 0;
  for (int j = i; j < tr->nreqs; j++) {
    ti_req_t *r = &tr->reqs[j];
    int pending = r->req || r->msg == TI_NEVER;
    if (r->src == src && r->dst == tr->me && r->msg != TI_IN_ORDER && pending && (r->msg == TI_NEVER || r->msg > msg) &&
        app_ti_match_accepts(tr, slot, r->tag, msg)) {
      ti_req_t taken = *r;
      r->msg = msg;
      r->req = req;
      msg = taken.msg;
      req = taken.req;
      if (!req)
        return 0;
    }
  }
  return app_ti_match_release(tr, slot, msg, req) == 0 ? 0 : app_ti_fail(tr, "out of memory");
}

/* simrun's "cancel <src> <dst> <tag>": the request's MPI_Cancel succeeded, so no message matched it. Between ranks
 * whose messages all carry one tag, messages match in the order the requests were posted, so the request that a
 * cancel leaves without a message is the last one posted between the same ranks: the cancelled one takes its place
 * (MPICH's rcancel test cancels the 1st, 3rd and 4th of four receives and gets the 2nd's message). A receive from a
 * source whose tags are matched gives its message to the later receives (cancel_matched). */
static int do_cancel(app_ti_rank_t *tr)
{
  int i = find_request(tr, TI_REFUSE);
  if (i < 0)
    return -1;
  if (tr->reqs[i].msg != TI_IN_ORDER)
    return cancel_matched(tr, i);
  for (int j = tr->nreqs - 1; j > i; j--)
    if (tr->reqs[j].req && tr->reqs[j].src == tr->reqs[i].src && tr->reqs[j].dst == tr->reqs[i].dst &&
        tr->reqs[j].receive == tr->reqs[i].receive && tr->reqs[j].msg == TI_IN_ORDER) {
      sim_request_t *last = tr->reqs[j].req;
      tr->reqs[j].req = tr->reqs[i].req;
      tr->reqs[i].req = last;
      break;
    }
  if (tr->reqs[i].req)
    sim_cancel(tr->rank, tr->reqs[i].req);
  drop_request(tr, i);
  return 0;
}

/* The collective actions, which simrun's "in" takes too. */
static const char *const collectives[] = {"barrier",   "bcast",      "reduce",        "allreduce", "alltoall",
                                          "alltoallv", "gather",     "gatherv",       "scatter",   "scatterv",
                                          "allgather", "allgatherv", "reducescatter", "scan",      "exscan"};
enum { COLLECTIVES = sizeof collectives / sizeof collectives[0] };

/* The index of collective action `verb` in collectives[], or -1. */
static int collective_index(const char *verb)
{
  for (int i = 0; i < COLLECTIVES; i++)
    if (strcmp(verb, collectives[i]) == 0)
      return i;
  return -1;
}

/* The first collective of its action (bcast, scan, exscan...) on this rank, whatever the communicator: the library's
 * set-up of that kind (sim_first_call), which Open MPI does once per process (docs/tracer-extras.md). */
static void first_of_kind(app_ti_rank_t *tr)
{
  int kind = collective_index(tr->field[1]);
  unsigned bit = kind >= 0 ? 1U << kind : 0;
  if (bit && !(tr->kinds_called & bit))
    sim_first_call(tr->rank);
  tr->kinds_called |= bit;
}

static int collective(app_ti_rank_t *tr, sim_coll_kind_t kind, int root, double bytes, const double *counts,
                      const double *counts2)
{
  first_of_kind(tr);
  sim_coll_call_t call = {
      .kind = kind, .alg = tr->alg[kind], .root = root, .bytes = bytes, .counts = counts, .counts2 = counts2};
  const sim_group_t *group = tr->group ? tr->group : sim_rank_world(tr->rank);
  if (tr->ompi_collectives)
    call.alg = sim_coll_ompi_alg(&call, group->count);
  return sim_coll_run(tr->rank, group, &call) == 0 ? 0 : app_ti_fail(tr, "out of memory");
}

static int do_barrier(app_ti_rank_t *tr)
{
  return collective(tr, SIM_COLL_BARRIER, 0, 0, NULL, NULL);
}

/* Optional field i as a root rank (0 when absent). */
static int root_field(app_ti_rank_t *tr, int i, int *root)
{
  *root = 0;
  return i < tr->nfields ? app_ti_peer(tr, i, root) : 0;
}

/* "bcast <count> [root [datatype]]" */
static int do_bcast(app_ti_rank_t *tr)
{
  int root;
  int size;
  double bytes;
  if (app_ti_min_fields(tr, 1) != 0 || root_field(tr, 3, &root) != 0 || app_ti_type_size(tr, 4, &size) != 0 ||
      app_ti_amount(tr, 2, size, &bytes) != 0)
    return -1;
  return collective(tr, SIM_COLL_BCAST, root, bytes, NULL, NULL);
}

/* "reduce <count> <flops> [root [datatype]]", "allreduce <count> <flops> [datatype]", "scan|exscan <count> <flops>
 * [datatype]": the messages, then the reduction's computation. */
static int do_reduction(app_ti_rank_t *tr)
{
  const char *verb = tr->field[1];
  sim_coll_kind_t kind = strcmp(verb, "reduce") == 0      ? SIM_COLL_REDUCE
                         : strcmp(verb, "allreduce") == 0 ? SIM_COLL_ALLREDUCE
                                                          : SIM_COLL_SCAN;
  int root = 0;
  int size;
  double bytes;
  double flops;
  int type_at = kind == SIM_COLL_REDUCE ? 5 : 4;
  if (app_ti_min_fields(tr, 2) != 0 || (kind == SIM_COLL_REDUCE && root_field(tr, 4, &root) != 0) ||
      app_ti_type_size(tr, type_at, &size) != 0 || app_ti_amount(tr, 2, size, &bytes) != 0 ||
      app_ti_number(tr, 3, "flops", 0, APP_TI_MAX_FLOPS, &flops) != 0)
    return -1;
  return collective(tr, kind, root, bytes, NULL, NULL) != 0 ? -1 : app_ti_compute(tr, flops);
}

/* "alltoall <sendcount> <recvcount> [sendtype [recvtype]]" */
static int do_alltoall(app_ti_rank_t *tr)
{
  int size;
  int recv_size;
  double bytes;
  double in;
  if (app_ti_min_fields(tr, 2) != 0 || app_ti_type_size(tr, 4, &size) != 0 ||
      app_ti_type_size(tr, 5, &recv_size) != 0 || app_ti_amount(tr, 2, size, &bytes) != 0 ||
      app_ti_amount(tr, 3, recv_size, &in) != 0)
    return -1;
  return collective(tr, SIM_COLL_ALLTOALL, 0, bytes, NULL, NULL);
}

/* "alltoallv <sendbuf> <sendcounts x p> <recvbuf> <recvcounts x p> [sendtype recvtype]" */
static int do_alltoallv(app_ti_rank_t *tr)
{
  int n = tr->n;
  int size;
  int recv_size;
  double buf;
  if (app_ti_min_fields(tr, 2 * n + 2) != 0 || app_ti_type_size(tr, 4 + 2 * n, &size) != 0 ||
      app_ti_type_size(tr, 5 + 2 * n, &recv_size) != 0 || app_ti_amount(tr, 2, size, &buf) != 0 ||
      app_ti_amounts(tr, 3, size, tr->counts) != 0 || app_ti_amount(tr, 3 + n, recv_size, &buf) != 0 ||
      app_ti_amounts(tr, 4 + n, recv_size, tr->counts2) != 0)
    return -1;
  return collective(tr, SIM_COLL_ALLTOALL, 0, 0, tr->counts, tr->counts2);
}

/* "gather <sendcount> <recvcount> [root [sendtype [recvtype]]]", "allgather <sendcount> <recvcount> [sendtype
 * [recvtype]]", "scatter <sendcount> <recvcount> [root [sendtype [recvtype]]]": each member's piece, as its sender
 * gives it (the root's, for a scatter). */
static int do_gather_scatter(app_ti_rank_t *tr)
{
  const char *verb = tr->field[1];
  int all = verb[0] == 'a';
  sim_coll_kind_t kind = all ? SIM_COLL_ALLGATHER : verb[0] == 'g' ? SIM_COLL_GATHER : SIM_COLL_SCATTER;
  int root = 0;
  int send_size;
  int recv_size;
  double out;
  double in;
  int type_at = all ? 4 : 5;
  if (app_ti_min_fields(tr, 2) != 0 || (!all && root_field(tr, 4, &root) != 0) ||
      app_ti_type_size(tr, type_at, &send_size) != 0 || app_ti_type_size(tr, type_at + 1, &recv_size) != 0 ||
      app_ti_amount(tr, 2, send_size, &out) != 0 || app_ti_amount(tr, 3, recv_size, &in) != 0)
    return -1;
  double bytes = kind == SIM_COLL_SCATTER && tr->me != root ? in : out;
  return collective(tr, kind, root, bytes, NULL, NULL);
}

/* "gatherv <sendcount> <recvcounts x p> [root [sendtype [recvtype]]]", "allgatherv <sendcount> <recvcounts x p>
 * [sendtype recvtype [displacements x p]]" (displacements alone are also allowed, as in SMPI). A member's own piece
 * is its sendcount (the recvcounts of a non-root need not be meaningful). */
static int do_gatherv(app_ti_rank_t *tr)
{
  int n = tr->n;
  int all = tr->field[1][0] == 'a';
  int root = 0;
  int send_size = tr->type_size;
  int recv_size = tr->type_size;
  double out;
  if (app_ti_min_fields(tr, n + 1) != 0 || (!all && root_field(tr, 3 + n, &root) != 0))
    return -1;
  int types_given = all ? tr->nfields > 3 + 2 * n || tr->nfields <= 3 + n + 2 : 1;
  if (types_given &&
      (app_ti_type_size(tr, 4 + n - all, &send_size) != 0 || app_ti_type_size(tr, 5 + n - all, &recv_size) != 0))
    return -1;
  if (app_ti_amount(tr, 2, send_size, &out) != 0 || app_ti_amounts(tr, 3, recv_size, tr->counts) != 0)
    return -1;
  tr->counts[tr->me] = out;
  return collective(tr, all ? SIM_COLL_ALLGATHER : SIM_COLL_GATHER, root, out, tr->counts, NULL);
}

/* "scatterv <sendcounts x p> <recvcount> [root [sendtype [recvtype]]]" */
static int do_scatterv(app_ti_rank_t *tr)
{
  int n = tr->n;
  int root;
  int send_size;
  int recv_size;
  double in;
  if (app_ti_min_fields(tr, n + 1) != 0 || root_field(tr, 3 + n, &root) != 0 ||
      app_ti_type_size(tr, 4 + n, &send_size) != 0 || app_ti_type_size(tr, 5 + n, &recv_size) != 0 ||
      app_ti_amounts(tr, 2, send_size, tr->counts) != 0 || app_ti_amount(tr, 2 + n, recv_size, &in) != 0)
    return -1;
  if (tr->me != root)
    tr->counts[tr->me] = in;
  return collective(tr, SIM_COLL_SCATTER, root, in, tr->counts, NULL);
}

/* "reducescatter <recvcounts x p> <flops> [datatype]" */
static int do_reducescatter(app_ti_rank_t *tr)
{
  int n = tr->n;
  int size;
  double flops;
  if (app_ti_min_fields(tr, n + 1) != 0 || app_ti_type_size(tr, 3 + n, &size) != 0 ||
      app_ti_amounts(tr, 2, size, tr->counts) != 0 ||
      app_ti_number(tr, 2 + n, "flops", 0, APP_TI_MAX_FLOPS, &flops) != 0)
    return -1;
  return collective(tr, SIM_COLL_REDUCE_SCATTER, 0, size, tr->counts, NULL) != 0 ? -1 : app_ti_compute(tr, flops);
}

typedef struct ti_action {
  const char *name;
  int (*run)(app_ti_rank_t *tr);
} ti_action_t;

/* simrun's "comm_def <id> <r0> <r1> ...": communicator `id` (the next number, from 1) of these world ranks in their
 * order, the calling rank among them. */
static int do_comm_def(app_ti_rank_t *tr)
{
  long long id;
  int size = tr->nfields - 3;
  if (app_ti_min_fields(tr, 2) != 0 || app_ti_whole(tr, 2, "communicator", 1, INT_MAX, &id) != 0)
    return -1;
  if (id != tr->ncomms + 1)
    return app_ti_fail(tr, "communicator %lld defined after %d: comm_def numbers them 1, 2, ... in order", id,
                       tr->ncomms);
  int *members = malloc(sizeof *members * (size_t)size);
  sim_group_t *more = members ? realloc(tr->comms, sizeof *more * (size_t)(tr->ncomms + 1)) : NULL;
  if (!more) {
    free(members);
    return app_ti_fail(tr, "out of memory");
  }
  tr->comms = more;
  int mine = 0;
  for (int i = 0; i < size; i++) {
    if (app_ti_peer(tr, 3 + i, &members[i]) != 0) {
      free(members);
      return -1;
    }
    mine += members[i] == tr->me;
  }
  if (mine != 1) {
    free(members);
    return app_ti_fail(tr,
                       "rank %d is listed %s among the communicator's members; list each member once, itself among "
                       "them",
                       tr->me, mine ? "more than once" : "nowhere");
  }
  tr->comms[tr->ncomms++] = (sim_group_t){.members = members, .count = size};
  return 0;
}

void app_ti_comms_free(app_ti_rank_t *tr)
{
  for (int i = 0; i < tr->ncomms; i++)
    free((int *)tr->comms[i].members);
  free(tr->comms);
  tr->comms = NULL;
  tr->ncomms = 0;
}

static const ti_action_t *find_action(const char *name);

/* simrun's "in <id> <collective> <fields>": the collective on communicator `id` (comm_def), whose roots and count
 * lists are in its ranks, as MPI gives them. */
static int do_in(app_ti_rank_t *tr)
{
  long long id;
  if (app_ti_min_fields(tr, 2) != 0 || app_ti_whole(tr, 2, "communicator", 1, INT_MAX, &id) != 0)
    return -1;
  if (id > tr->ncomms)
    return app_ti_fail(tr, "communicator %lld is not defined: a comm_def line of the rank must define it first", id);
  int which = collective_index(tr->field[3]);
  const ti_action_t *action = which < 0 ? NULL : find_action(collectives[which]);
  if (!action)
    return app_ti_fail(tr,
                       "'%s' is not a collective; 'in' takes barrier, bcast, reduce, allreduce, alltoall(v), "
                       "gather(v), scatter(v), allgather(v), reducescatter, scan or exscan",
                       tr->field[3]);
  const sim_group_t *group = &tr->comms[id - 1];
  int world_me = tr->me;
  int world_n = tr->n;
  for (int i = 0; i < group->count; i++)
    if (group->members[i] == world_me)
      tr->me = i;
  tr->n = group->count;
  tr->group = group;
  tr->field += 2;
  tr->nfields -= 2;
  int rc = action->run(tr);
  tr->field -= 2;
  tr->nfields += 2;
  tr->group = NULL;
  tr->me = world_me;
  tr->n = world_n;
  return rc;
}

/* SimGrid 3.32's actions (smpi_replay_init), in its order. Communicator actions and locations change nothing. */
static const ti_action_t actions[] = {
    {"init", do_init},
    {"finalize", do_finalize},
    {"comm_size", do_nothing},
    {"comm_split", do_nothing},
    {"comm_dup", do_nothing},
    {"send", do_send},
    {"isend", do_send},
    {"recv", do_recv},
    {"irecv", do_recv},
    {"test", do_test},
    {"sendRecv", do_sendrecv},
    {"wait", do_wait},
    {"waitall", do_waitall},
    {"barrier", do_barrier},
    {"bcast", do_bcast},
    {"reduce", do_reduction},
    {"allreduce", do_reduction},
    {"alltoall", do_alltoall},
    {"alltoallv", do_alltoallv},
    {"gather", do_gather_scatter},
    {"scatter", do_gather_scatter},
    {"gatherv", do_gatherv},
    {"scatterv", do_scatterv},
    {"allgather", do_gather_scatter},
    {"allgatherv", do_gatherv},
    {"reducescatter", do_reducescatter},
    {"scan", do_reduction},
    {"exscan", do_reduction},
    {"compute", do_compute},
    {"sleep", do_sleep},
    {"location", do_nothing},
    /* simrun's extensions (docs/ti-replay.md) */
    {"comm_def", do_comm_def},
    {"in", do_in},
    {"cancel", do_cancel},
    {"poll", do_poll},
    {"faults", do_faults},
};

static const ti_action_t *find_action(const char *name)
{
  for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++)
    if (strcmp(actions[i].name, name) == 0)
      return &actions[i];
  return NULL;
}

/* Whose line it is (fields split): 0 the rank's, 1 another rank's (the one-file layout), -1 with the reason. */
static int line_owner(app_ti_rank_t *tr, int shared)
{
  long long who;
  if (tr->nfields < 2)
    return app_ti_fail(tr, "a line is '<rank> <action> [fields]'");
  if (app_ti_whole(tr, 0, "rank", 0, INT_MAX, &who) != 0)
    return -1;
  if (who != tr->me) {
    if (shared && who < tr->n)
      return 1;
    return app_ti_fail(tr, shared ? "rank %lld does not exist (p = %d)" : "the line is rank %lld's, in rank %d's file",
                       who, shared ? tr->n : tr->me);
  }
  return 0;
}

/* Carries out one line of the rank's (fields split): 0, or -1 with the reason. */
static int replay_line(app_ti_rank_t *tr)
{
  if (strcmp(tr->field[1], "loop") == 0)
    return app_ti_fail(tr, "a loop inside a loop's body: simrun's loops do not nest");
  const ti_action_t *action = find_action(tr->field[1]);
  if (!action)
    return app_ti_fail(
        tr, "not an action simrun replays; it replays SimGrid 3.32's: init, finalize, comm_size, comm_split, "
            "comm_dup, compute, sleep, send, isend, recv, irecv, sendRecv, test, wait, waitall, barrier, bcast, "
            "reduce, allreduce, alltoall, alltoallv, gather, gatherv, scatter, scatterv, allgather, "
            "allgatherv, reducescatter, scan, exscan, location; and simrun's comm_def, in, cancel, poll, faults, loop");
  return action->run(tr);
}

/* Replays a loop's body `count` times, each line from a copy (splitting writes into it); a bad line is reported with
 * its own number. 0, or -1 once reported. */
static int replay_body(app_ti_rank_t *tr, const app_ti_body_t *body, const char *path)
{
  char *line = malloc(body->longest + 1);
  if (!line) {
    sim_rank_fail(tr->rank, SIM_ENOMEM, "out of memory for a loop's body");
    return -1;
  }
  int rc = 0;
  for (long long k = 0; rc == 0 && k < body->count; k++)
    for (int i = 0; rc == 0 && i < body->nlines; i++) {
      const char *text = body->text + body->at[i];
      size_t len = strlen(text);
      memcpy(line, text, len + 1);
      sim_rank_where(tr->rank, path, body->numbers[i]);
      if (app_ti_split(tr, line) != 0 || replay_line(tr) < 0) {
        app_ti_report(tr, path, body->numbers[i], text);
        rc = -1;
      }
    }
  free(line);
  return rc;
}

/* One line of the file (fields split, its `len` characters in `text`): the rank's action carried out, or a loop's
 * first line, or a line of the loop's body kept. 0, or -1 with the reason. */
static int take_line(app_ti_rank_t *tr, app_ti_body_t *body, int shared, char *text, size_t len, int number)
{
  int owner = tr->nfields > 0 ? line_owner(tr, shared) : 1;
  if (owner != 0)
    return owner < 0 ? -1 : 0;
  if (body->want > 0) {
    app_ti_unsplit(text, len);
    return app_ti_body_add(body, text, strlen(text), number) == 0 ? 0 : app_ti_fail(tr, "out of memory for a loop");
  }
  if (strcmp(tr->field[1], "loop") == 0)
    return app_ti_body_start(tr, body, number);
  return replay_line(tr);
}

/* Whether the split line starts as every trace line does, a rank in decimal then an action: else the file may be
 * anything (an index naming /etc/shadow quoted its hash), and its text is not for a message. */
static int starts_with_rank(const app_ti_rank_t *tr)
{
  return tr->nfields >= 2 && tr->field[0][0] && tr->field[0][strspn(tr->field[0], "0123456789")] == '\0';
}

/* Replays the rank's file, then waits for its requests left (app_ti_actions.h). */
int app_ti_replay_file(app_ti_rank_t *tr, const char *path, int shared)
{
  sim_ti_reader_t *in = NULL;
  char message[1024];
  if (sim_ti_reader_open(path, 2 * (size_t)tr->n, &in, message, sizeof message) != 0) {
    sim_rank_fail(tr->rank, SIM_EPARAM, message);
    return SIM_EPARAM;
  }
  app_ti_body_t body = {0};
  char *text;
  size_t len;
  int rc;
  int number = 1;
  int taken = 0; /* lines with fields read: before the first, a line that is no trace's is not quoted */
  int failed = 0;
  for (; (rc = sim_ti_reader_next(in, &text, &len)) == 0; number++) {
    sim_rank_where(tr->rank, path, number);
    if (app_ti_split(tr, text) != 0 || take_line(tr, &body, shared, text, len, number) < 0) {
      int foreign = !taken && !starts_with_rank(tr);
      app_ti_unsplit(text, len);
      app_ti_report(tr, path, number, foreign ? NULL : text);
      failed = 1;
      break;
    }
    taken += tr->nfields > 0;
    if (body.count > 0 && body.want == 0) {
      if ((failed = replay_body(tr, &body, path) != 0))
        break;
      app_ti_body_free(&body);
    }
  }
  failed |= rc < 0 || (rc > 0 && body.want > 0);
  if (rc < 0) {
    sim_ti_reader_error(in, rc, message, sizeof message);
    sim_rank_fail(tr->rank, SIM_EPARAM, message);
  } else if (rc > 0 && body.want > 0) {
    snprintf(message, sizeof message,
             "%s:%d: the file ends %d line(s) into a loop's body of %d; a loop line is followed by the rank's LINES "
             "lines of its body; see docs/ti-replay.md",
             path, body.number, body.nlines, body.nlines + body.want);
    sim_rank_fail(tr->rank, SIM_EPARAM, message);
  }
  app_ti_body_free(&body);
  sim_ti_reader_close(in);
  wait_all(tr, 1); /* SMPI waits for the requests left at the end */
  return failed ? SIM_EPARAM : 0;
}
