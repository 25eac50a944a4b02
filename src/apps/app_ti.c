/* Replays a time-independent trace as SimGrid 3.32's `smpirun -replay` does (src/smpi/internals/smpi_replay.cpp):
 * every action it knows, with its optional fields, from one file per rank or one file for every rank, ranks placed
 * by an smpirun hostfile. Messages are posted at their rank's clock (non-blocking ones overlap with computation),
 * collectives run SMPI's default algorithms unless the scenario names others. Tags are ignored: messages between two
 * ranks match in the order they are posted. */
#include "app_ti.h"
#include "sim_coll_run.h"
#include "sim_error.h"
#include "sim_ti.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The collective kinds whose algorithm a scenario parameter of the same name chooses (the broadcast's is
 * "broadcast", as in the other skeletons). */
static const sim_coll_kind_t chosen_kinds[] = {SIM_COLL_BARRIER, SIM_COLL_REDUCE,    SIM_COLL_ALLREDUCE,
                                               SIM_COLL_GATHER,  SIM_COLL_ALLGATHER, SIM_COLL_SCATTER,
                                               SIM_COLL_ALLTOALL};
enum { TI_CHOSEN = sizeof chosen_kinds / sizeof chosen_kinds[0] };

/* SMPI 3.32's defaults (src/smpi/internals/smpi_config.cpp, src/smpi/mpi/smpi_request.cpp): sends below 65536 bytes
 * are detached (smpi/send-is-detached-thresh), every message carries a 16-byte envelope, and each MPI_Test first sleeps
 * smpi/test = 1e-4 s times a count that grows by one with each test finding nothing and returns to 1 when one succeeds
 * (a static: shared by all ranks). */
#define TI_SMPI_EAGER_BELOW 65536.0
#define TI_SMPI_TEST_SLEEP  1e-4
#define TI_SMPI_ENVELOPE    16.0 /* bytes SMPI adds to every message: "MPI enveloppe size (tag+dest+communicator)" */
/* SMPI's MPI_ANY_TAG (include/smpi/smpi.h), which smpirun -trace-ti writes for a receive from any tag. Other negative
 * tags are SMPI's own collectives' (COLL_TAG_*, src/smpi/include/private.hpp): its replay passes a trace's tag on
 * unchecked, so a negative one would match its collectives' messages. */
#define TI_SMPI_ANY_TAG -444

static const char *const network_names[] = {"smpi", "platform", NULL};
static const char *const send_names[] = {"smpi", "synchronous", NULL};

typedef struct ti_arg {
  sim_ti_trace_t *trace;
  int platform_network; /* network = platform: the platform's own model rather than SMPI's */
  double eager_below;
  double envelope;  /* SMPI's, with its network model */
  int *test_sleeps; /* SMPI's test multiplier, shared by the ranks of the run */
  char **hosts;     /* the hostfile's hosts, one per rank (rank i on hosts[i % nhosts]), or NULL */
  int nhosts;
  const char *hostfile;
  int alg[SIM_COLL_KINDS];
  double seq_flops;   /* the sequential run (ti_prepare_seq): every rank's computation, on one rank; or */
  double seq_seconds; /* t-seq, slept on one rank; both 0: a replay */
} ti_arg_t;

static void ti_release(void *arg)
{
  ti_arg_t *ti = arg;
  if (ti) {
    sim_ti_trace_free(ti->trace);
    sim_ti_paths_free(ti->hosts, ti->nhosts);
    free(ti->test_sleeps);
  }
  free(ti);
}

/* The algorithm of each collective: the scenario's choice, else SMPI's default (index 0, binomial for bcast). */
static void choose_algorithms(const app_point_t *point, ti_arg_t *ti)
{
  const char *bcast = app_point_value(point, "broadcast");
  ti->alg[SIM_COLL_BCAST] = bcast ? sim_bcast_parse(bcast) : SIM_COLL_DEFAULT_BCAST;
  for (int i = 0; i < TI_CHOSEN; i++) {
    const char *name = app_point_value(point, sim_coll_kind_names[chosen_kinds[i]]);
    ti->alg[chosen_kinds[i]] = name ? sim_coll_alg_parse(chosen_kinds[i], name) : 0;
  }
}

static int ti_prepare(const app_point_t *point, int nranks, void **arg, char *err, size_t errlen,
                      const char **bad_param)
{
  ti_arg_t *ti = calloc(1, sizeof *ti);
  if (!ti)
    return SIM_ENOMEM;
  choose_algorithms(point, ti);
  const char *network = app_point_value(point, "network");
  const char *sends = app_point_value(point, "sends");
  ti->platform_network = network && strcmp(network, "platform") == 0;
  ti->eager_below = sends && strcmp(sends, "synchronous") == 0 ? 0 : TI_SMPI_EAGER_BELOW;
  ti->envelope = ti->platform_network ? 0 : TI_SMPI_ENVELOPE;
  if (!(ti->test_sleeps = malloc(sizeof *ti->test_sleeps))) {
    ti_release(ti);
    return SIM_ENOMEM;
  }
  *ti->test_sleeps = 1;
  *bad_param = "trace";
  const char *index = app_point_value(point, "trace");
  int rc = sim_ti_open(index, &ti->trace, err, errlen);
  int files = rc == 0 ? sim_ti_trace_files(ti->trace) : 0;
  if (rc == 0 && files > 1 && files != nranks) {
    snprintf(err, errlen, "%s lists %d trace files, one per rank, but p = %d; use p = %d", index, files, nranks, files);
    rc = SIM_EPARAM;
  }
  ti->hostfile = app_point_value(point, "hostfile");
  if (rc == 0 && ti->hostfile) {
    *bad_param = "hostfile";
    rc = sim_ti_read_hostfile(ti->hostfile, &ti->hosts, &ti->nhosts, err, errlen);
  }
  if (rc != 0) {
    ti_release(ti);
    return rc == SIM_ENOMEM ? rc : SIM_EPARAM;
  }
  *arg = ti;
  return 0;
}

/* One rank's replay: its trace, the line being replayed split into fields, its pending requests. */
typedef struct ti_req {
  int src;
  int dst;
  int tag;
  sim_request_t *req; /* NULL once a test found it over */
} ti_req_t;

typedef struct ti_rank {
  sim_rank_t *rank;
  const ti_arg_t *ti;
  int me;
  int n;
  int type_size; /* of the trace's default datatype: MPI_BYTE, or MPI_DOUBLE after "init" with an argument */
  char **field;
  int nfields;
  int max_fields;
  ti_req_t *reqs;
  int nreqs;
  int cap_reqs;
  double *counts; /* n per-member sizes, twice */
  double *counts2;
  char why[256]; /* what is wrong with the current line */
} ti_rank_t;

/* Upper bounds that keep every figure meaningful: a larger one is a corrupt trace, not a program. */
#define TI_MAX_BYTES   1e18 /* one message or collective piece (an exabyte), well below LONG_MAX */
#define TI_MAX_FLOPS   1e21 /* one computation: 11 days at a petaflop/s */
#define TI_MAX_SECONDS 1e9  /* one sleep: 31 years */

static int fail(ti_rank_t *tr, const char *format, ...) __attribute__((format(printf, 2, 3)));
static int fail(ti_rank_t *tr, const char *format, ...)
{
  va_list ap;
  va_start(ap, format);
  vsnprintf(tr->why, sizeof tr->why, format, ap);
  va_end(ap);
  return -1;
}

/* Field i as a finite number in [low, high]: 0, or -1 with the reason. */
static int number(ti_rank_t *tr, int i, const char *what, double low, double high, double *value)
{
  if (i >= tr->nfields)
    return fail(tr, "field %d (%s) is missing", i + 1, what);
  char *end;
  errno = 0;
  double v = sim_ti_number(tr->field[i], &end);
  if (end == tr->field[i] || *end || !isfinite(v) || errno == ERANGE)
    return fail(tr, "field %d (%s) '%s' is not a finite number", i + 1, what, tr->field[i]);
  if (v < low || v > high)
    return fail(tr, "field %d (%s) %s is outside [%g, %g]", i + 1, what, tr->field[i], low, high);
  *value = v;
  return 0;
}

/* Field i as a whole number in [low, high] (SMPI truncates sizes given as 1e6). */
static int whole(ti_rank_t *tr, int i, const char *what, double low, double high, long long *value)
{
  double v;
  if (number(tr, i, what, low, high, &v) != 0)
    return -1;
  *value = (long long)trunc(v);
  return 0;
}

/* Field i as a rank of MPI_COMM_WORLD (the only communicator a TI trace names). */
static int peer(ti_rank_t *tr, int i, int *value)
{
  long long v;
  if (whole(tr, i, "rank", INT_MIN, INT_MAX, &v) != 0)
    return -1;
  if (v < 0 || v >= tr->n)
    return fail(tr, "rank %lld does not exist: the trace's communicator, MPI_COMM_WORLD, has ranks 0 to %d (p = %d)", v,
                tr->n - 1, tr->n);
  *value = (int)v;
  return 0;
}

/* Optional field i as an SMPI datatype code (the default datatype when absent): its size in bytes. */
static int type_size(ti_rank_t *tr, int i, int *size)
{
  *size = tr->type_size;
  if (i >= tr->nfields)
    return 0;
  long long code;
  if (whole(tr, i, "datatype", -1, INT_MAX, &code) != 0)
    return -1;
  *size = sim_ti_type_size((int)code);
  if (*size < 0)
    return fail(tr, "datatype code %lld is not one of SMPI 3.32's predefined types (-1 to 59)", code);
  return 0;
}

/* Field i as a count of elements of `size` bytes: their bytes. */
static int amount(ti_rank_t *tr, int i, int size, double *bytes)
{
  long long count;
  if (whole(tr, i, "count", 0, TI_MAX_BYTES, &count) != 0)
    return -1;
  *bytes = (double)count * size;
  if (*bytes > TI_MAX_BYTES)
    return fail(tr, "%lld elements of %d bytes exceed %g bytes", count, size, TI_MAX_BYTES);
  return 0;
}

/* Fields first..first+n-1 as counts of `size`-byte elements into out[]. */
static int amounts(ti_rank_t *tr, int first, int size, double *out)
{
  for (int i = 0; i < tr->n; i++)
    if (amount(tr, first + i, size, &out[i]) != 0)
      return -1;
  return 0;
}

static int min_fields(ti_rank_t *tr, int count)
{
  if (tr->nfields < count + 2)
    return fail(tr, "%d fields after the action are needed, there are %d", count, tr->nfields - 2);
  return 0;
}

static int do_nothing(ti_rank_t *tr)
{
  (void)tr;
  return 0;
}

static int do_init(ti_rank_t *tr)
{
  tr->type_size = tr->nfields > 2 ? sim_ti_type_size(0) : sim_ti_type_size(SIM_TI_MPI_BYTE); /* MPE: MPI_DOUBLE */
  return 0;
}

static int run_flops(ti_rank_t *tr, double flops)
{
  sim_compute(tr->rank, &(sim_cycles_t){.cpu = flops}, SIM_WORK);
  return 0;
}

static int do_compute(ti_rank_t *tr)
{
  double flops;
  return number(tr, 2, "flops", 0, TI_MAX_FLOPS, &flops) != 0 ? -1 : run_flops(tr, flops);
}

static int do_sleep(ti_rank_t *tr)
{
  double seconds;
  if (number(tr, 2, "seconds", 0, TI_MAX_SECONDS, &seconds) != 0)
    return -1;
  sim_sleep(tr->rank, seconds);
  return 0;
}

/* The partner, tag and bytes of send, isend, recv and irecv: "<partner> <tag> <count> [datatype]". A receive of a
 * negative count (SMPI probes for the size) takes the sender's. */
static int pt2pt(ti_rank_t *tr, int *partner, int *tag, double *bytes)
{
  long long t;
  long long count;
  int size;
  int sending = tr->field[1][0] == 's' || tr->field[1][1] == 's';
  if (min_fields(tr, 3) != 0 || peer(tr, 2, partner) != 0 || whole(tr, 3, "tag", INT_MIN, INT_MAX, &t) != 0 ||
      type_size(tr, 5, &size) != 0 || whole(tr, 4, "count", sending ? 0 : -1, TI_MAX_BYTES, &count) != 0)
    return -1;
  if (t < 0 && (sending || t != TI_SMPI_ANY_TAG))
    return fail(tr,
                "tag %lld is negative: MPI tags are >= 0 (SMPI keeps negative tags for its collectives; only a "
                "receive may carry %d, SMPI's MPI_ANY_TAG); give the tag the program used",
                t, TI_SMPI_ANY_TAG);
  *tag = (int)t;
  *bytes = count < 0 ? 0 : (double)count * size;
  if (*bytes > TI_MAX_BYTES)
    return fail(tr, "%lld elements of %d bytes exceed %g bytes", count, size, TI_MAX_BYTES);
  return 0;
}

static int add_request(ti_rank_t *tr, int src, int dst, int tag, sim_request_t *req)
{
  if (!req)
    return fail(tr, "out of memory");
  if (tr->nreqs == tr->cap_reqs) {
    int cap = tr->cap_reqs ? 2 * tr->cap_reqs : 16;
    ti_req_t *more = realloc(tr->reqs, (size_t)cap * sizeof *more);
    if (!more) {
      sim_wait(tr->rank, req);
      return fail(tr, "out of memory");
    }
    tr->reqs = more;
    tr->cap_reqs = cap;
  }
  tr->reqs[tr->nreqs++] = (ti_req_t){.src = src, .dst = dst, .tag = tag, .req = req};
  return 0;
}

static int do_send(ti_rank_t *tr)
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
  return add_request(tr, tr->me, partner, tag, sim_isend(tr->rank, partner, bytes));
}

static int do_recv(ti_rank_t *tr)
{
  int partner;
  int tag;
  double bytes;
  if (pt2pt(tr, &partner, &tag, &bytes) != 0)
    return -1;
  if (tr->field[1][0] == 'r') {
    sim_recv(tr->rank, partner, bytes);
    return 0;
  }
  return add_request(tr, partner, tr->me, tag, sim_irecv(tr->rank, partner, bytes));
}

/* "sendRecv <sendcount> <dst> <recvcount> <src> [sendtype [recvtype]]": both posted, then both waited for. */
static int do_sendrecv(ti_rank_t *tr)
{
  int dst;
  int src;
  int send_size;
  int recv_size;
  double out;
  double in;
  if (min_fields(tr, 4) != 0 || peer(tr, 3, &dst) != 0 || peer(tr, 5, &src) != 0 || type_size(tr, 6, &send_size) ||
      type_size(tr, 7, &recv_size) != 0 || amount(tr, 2, send_size, &out) != 0 || amount(tr, 4, recv_size, &in) != 0)
    return -1;
  sim_request_t *s = sim_isend(tr->rank, dst, out);
  sim_request_t *r = sim_irecv(tr->rank, src, in);
  if (s)
    sim_wait(tr->rank, s);
  if (r)
    sim_wait(tr->rank, r);
  return s && r ? 0 : fail(tr, "out of memory");
}

/* The pending request of "wait|test <src> <dst> <tag>", the first posted: its index, or -1 with the reason. */
static int find_request(ti_rank_t *tr)
{
  int src;
  int dst;
  long long tag;
  if (min_fields(tr, 3) != 0 || peer(tr, 2, &src) != 0 || peer(tr, 3, &dst) != 0 ||
      whole(tr, 4, "tag", INT_MIN, INT_MAX, &tag) != 0)
    return -1;
  for (int i = 0; i < tr->nreqs; i++)
    if (tr->reqs[i].src == src && tr->reqs[i].dst == dst && tr->reqs[i].tag == tag)
      return i;
  return fail(tr,
              "no pending isend or irecv from rank %d to rank %d with tag %lld: the request was never posted, or "
              "was waited for already",
              src, dst, tag);
}

static void drop_request(ti_rank_t *tr, int i)
{
  memmove(&tr->reqs[i], &tr->reqs[i + 1], (size_t)(tr->nreqs - i - 1) * sizeof *tr->reqs);
  tr->nreqs--;
}

static int do_wait(ti_rank_t *tr)
{
  int i = find_request(tr);
  if (i < 0)
    return -1;
  if (tr->reqs[i].req)
    sim_wait(tr->rank, tr->reqs[i].req);
  drop_request(tr, i);
  return 0;
}

/* A test that finds the message over keeps the request for its wait, as SMPI keeps a null request. */
static int do_test(ti_rank_t *tr)
{
  int i = find_request(tr);
  if (i < 0)
    return -1;
  sim_request_t *req = tr->reqs[i].req;
  if (!req)
    return 0;
  int *sleeps = tr->ti->test_sleeps;
  sim_sleep(tr->rank, *sleeps * TI_SMPI_TEST_SLEEP);
  if (sim_test(tr->rank, req)) {
    sim_wait(tr->rank, req);
    tr->reqs[i].req = NULL;
    *sleeps = 1;
  } else {
    (*sleeps)++;
  }
  return 0;
}

static int do_waitall(ti_rank_t *tr)
{
  for (int i = 0; i < tr->nreqs; i++)
    if (tr->reqs[i].req)
      sim_wait(tr->rank, tr->reqs[i].req);
  tr->nreqs = 0;
  return 0;
}

static int collective(ti_rank_t *tr, sim_coll_kind_t kind, int root, double bytes, const double *counts,
                      const double *counts2)
{
  sim_coll_call_t call = {
      .kind = kind, .alg = tr->ti->alg[kind], .root = root, .bytes = bytes, .counts = counts, .counts2 = counts2};
  return sim_coll_run(tr->rank, sim_rank_world(tr->rank), &call) == 0 ? 0 : fail(tr, "out of memory");
}

static int do_barrier(ti_rank_t *tr)
{
  return collective(tr, SIM_COLL_BARRIER, 0, 0, NULL, NULL);
}

/* Optional field i as a root rank (0 when absent). */
static int root_field(ti_rank_t *tr, int i, int *root)
{
  *root = 0;
  return i < tr->nfields ? peer(tr, i, root) : 0;
}

/* "bcast <count> [root [datatype]]" */
static int do_bcast(ti_rank_t *tr)
{
  int root;
  int size;
  double bytes;
  if (min_fields(tr, 1) != 0 || root_field(tr, 3, &root) != 0 || type_size(tr, 4, &size) != 0 ||
      amount(tr, 2, size, &bytes) != 0)
    return -1;
  return collective(tr, SIM_COLL_BCAST, root, bytes, NULL, NULL);
}

/* "reduce <count> <flops> [root [datatype]]", "allreduce <count> <flops> [datatype]", "scan|exscan <count> <flops>
 * [datatype]": the messages, then the reduction's computation. */
static int do_reduction(ti_rank_t *tr)
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
  if (min_fields(tr, 2) != 0 || (kind == SIM_COLL_REDUCE && root_field(tr, 4, &root) != 0) ||
      type_size(tr, type_at, &size) != 0 || amount(tr, 2, size, &bytes) != 0 ||
      number(tr, 3, "flops", 0, TI_MAX_FLOPS, &flops) != 0)
    return -1;
  return collective(tr, kind, root, bytes, NULL, NULL) != 0 ? -1 : run_flops(tr, flops);
}

/* "alltoall <sendcount> <recvcount> [sendtype [recvtype]]" */
static int do_alltoall(ti_rank_t *tr)
{
  int size;
  int recv_size;
  double bytes;
  double in;
  if (min_fields(tr, 2) != 0 || type_size(tr, 4, &size) != 0 || type_size(tr, 5, &recv_size) != 0 ||
      amount(tr, 2, size, &bytes) != 0 || amount(tr, 3, recv_size, &in) != 0)
    return -1;
  return collective(tr, SIM_COLL_ALLTOALL, 0, bytes, NULL, NULL);
}

/* "alltoallv <sendbuf> <sendcounts x p> <recvbuf> <recvcounts x p> [sendtype recvtype]" */
static int do_alltoallv(ti_rank_t *tr)
{
  int n = tr->n;
  int size;
  int recv_size;
  double buf;
  if (min_fields(tr, 2 * n + 2) != 0 || type_size(tr, 4 + 2 * n, &size) != 0 ||
      type_size(tr, 5 + 2 * n, &recv_size) != 0 || amount(tr, 2, size, &buf) != 0 ||
      amounts(tr, 3, size, tr->counts) != 0 || amount(tr, 3 + n, recv_size, &buf) != 0 ||
      amounts(tr, 4 + n, recv_size, tr->counts2) != 0)
    return -1;
  return collective(tr, SIM_COLL_ALLTOALL, 0, 0, tr->counts, tr->counts2);
}

/* "gather <sendcount> <recvcount> [root [sendtype [recvtype]]]", "allgather <sendcount> <recvcount> [sendtype
 * [recvtype]]", "scatter <sendcount> <recvcount> [root [sendtype [recvtype]]]": each member's piece, as its sender
 * gives it (the root's, for a scatter). */
static int do_gather_scatter(ti_rank_t *tr)
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
  if (min_fields(tr, 2) != 0 || (!all && root_field(tr, 4, &root) != 0) || type_size(tr, type_at, &send_size) != 0 ||
      type_size(tr, type_at + 1, &recv_size) != 0 || amount(tr, 2, send_size, &out) != 0 ||
      amount(tr, 3, recv_size, &in) != 0)
    return -1;
  double bytes = kind == SIM_COLL_SCATTER && tr->me != root ? in : out;
  return collective(tr, kind, root, bytes, NULL, NULL);
}

/* "gatherv <sendcount> <recvcounts x p> [root [sendtype [recvtype]]]", "allgatherv <sendcount> <recvcounts x p>
 * [sendtype recvtype [displacements x p]]" (displacements alone are also allowed, as in SMPI). A member's own piece
 * is its sendcount (the recvcounts of a non-root need not be meaningful). */
static int do_gatherv(ti_rank_t *tr)
{
  int n = tr->n;
  int all = tr->field[1][0] == 'a';
  int root = 0;
  int send_size = tr->type_size;
  int recv_size = tr->type_size;
  double out;
  if (min_fields(tr, n + 1) != 0 || (!all && root_field(tr, 3 + n, &root) != 0))
    return -1;
  int types_given = all ? tr->nfields > 3 + 2 * n || tr->nfields <= 3 + n + 2 : 1;
  if (types_given && (type_size(tr, 4 + n - all, &send_size) != 0 || type_size(tr, 5 + n - all, &recv_size) != 0))
    return -1;
  if (amount(tr, 2, send_size, &out) != 0 || amounts(tr, 3, recv_size, tr->counts) != 0)
    return -1;
  tr->counts[tr->me] = out;
  return collective(tr, all ? SIM_COLL_ALLGATHER : SIM_COLL_GATHER, root, out, tr->counts, NULL);
}

/* "scatterv <sendcounts x p> <recvcount> [root [sendtype [recvtype]]]" */
static int do_scatterv(ti_rank_t *tr)
{
  int n = tr->n;
  int root;
  int send_size;
  int recv_size;
  double in;
  if (min_fields(tr, n + 1) != 0 || root_field(tr, 3 + n, &root) != 0 || type_size(tr, 4 + n, &send_size) != 0 ||
      type_size(tr, 5 + n, &recv_size) != 0 || amounts(tr, 2, send_size, tr->counts) != 0 ||
      amount(tr, 2 + n, recv_size, &in) != 0)
    return -1;
  if (tr->me != root)
    tr->counts[tr->me] = in;
  return collective(tr, SIM_COLL_SCATTER, root, in, tr->counts, NULL);
}

/* "reducescatter <recvcounts x p> <flops> [datatype]" */
static int do_reducescatter(ti_rank_t *tr)
{
  int n = tr->n;
  int size;
  double flops;
  if (min_fields(tr, n + 1) != 0 || type_size(tr, 3 + n, &size) != 0 || amounts(tr, 2, size, tr->counts) != 0 ||
      number(tr, 2 + n, "flops", 0, TI_MAX_FLOPS, &flops) != 0)
    return -1;
  return collective(tr, SIM_COLL_REDUCE_SCATTER, 0, 0, tr->counts, NULL) != 0 ? -1 : run_flops(tr, flops);
}

typedef struct ti_action {
  const char *name;
  int (*run)(ti_rank_t *tr);
} ti_action_t;

/* SimGrid 3.32's actions (smpi_replay_init), in its order. Communicator actions and locations change nothing. */
static const ti_action_t actions[] = {
    {"init", do_init},
    {"finalize", do_nothing},
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
};

static const ti_action_t *find_action(const char *name)
{
  for (size_t i = 0; i < sizeof actions / sizeof actions[0]; i++)
    if (strcmp(actions[i].name, name) == 0)
      return &actions[i];
  return NULL;
}

static int blank(char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Splits `text` on blanks in place; -1 when it has more than max_fields fields. */
static int split(ti_rank_t *tr, char *text)
{
  tr->nfields = 0;
  for (char *c = text; *c;) {
    while (blank(*c))
      c++;
    if (!*c)
      break;
    if (tr->nfields == tr->max_fields)
      return fail(tr, "more than %d fields (2 p + 6 at most)", tr->max_fields);
    tr->field[tr->nfields++] = c;
    while (*c && !blank(*c))
      c++;
    if (*c)
      *c++ = '\0';
  }
  return 0;
}

/* Undoes split on the line's `len` characters, without trailing blanks: the text for a message. */
static void unsplit(char *text, size_t len)
{
  for (size_t i = 0; i < len; i++)
    if (text[i] == '\0')
      text[i] = ' ';
  while (len > 0 && blank(text[len - 1]))
    len--;
  text[len] = '\0';
}

/* Carries out one line (fields split): 0, 1 when it is another rank's (the one-file layout), -1 with the reason. */
static int replay_line(ti_rank_t *tr, int shared)
{
  long long who;
  if (tr->nfields < 2)
    return fail(tr, "a line is '<rank> <action> [fields]'");
  if (whole(tr, 0, "rank", 0, INT_MAX, &who) != 0)
    return -1;
  if (who != tr->me) {
    if (shared && who < tr->n)
      return 1;
    return fail(tr, shared ? "rank %lld does not exist (p = %d)" : "the line is rank %lld's, in rank %d's file", who,
                shared ? tr->n : tr->me);
  }
  const ti_action_t *action = find_action(tr->field[1]);
  if (!action)
    return fail(tr,
                "not an action simrun replays; it replays SimGrid 3.32's: init, finalize, comm_size, comm_split, "
                "comm_dup, compute, sleep, send, isend, recv, irecv, sendRecv, test, wait, waitall, barrier, bcast, "
                "reduce, allreduce, alltoall, alltoallv, gather, gatherv, scatter, scatterv, allgather, "
                "allgatherv, reducescatter, scan, exscan, location");
  return action->run(tr);
}

/* Reports the current line's problem as "FILE:LINE: 'text': why; how to fix". */
static void report(ti_rank_t *tr, const char *path, int number, const char *text)
{
  char message[1024];
  snprintf(message, sizeof message, "%s:%d: '%.200s': %s; see docs/ti-replay.md for the actions and their fields", path,
           number, text, tr->why);
  sim_rank_fail(tr->rank, SIM_EPARAM, message);
}

static void replay_file(ti_rank_t *tr, const char *path, int shared)
{
  sim_ti_reader_t *in = NULL;
  char message[1024];
  if (sim_ti_reader_open(path, 2 * (size_t)tr->n, &in, message, sizeof message) != 0) {
    sim_rank_fail(tr->rank, SIM_EPARAM, message);
    return;
  }
  char *text;
  size_t len;
  int rc;
  for (int number = 1; (rc = sim_ti_reader_next(in, &text, &len)) == 0; number++) {
    sim_rank_where(tr->rank, path, number);
    if (split(tr, text) != 0 || (tr->nfields > 0 && replay_line(tr, shared) < 0)) {
      unsplit(text, len);
      report(tr, path, number, text);
      break;
    }
  }
  if (rc < 0) {
    sim_ti_reader_error(in, rc, message, sizeof message);
    sim_rank_fail(tr->rank, SIM_EPARAM, message);
  }
  sim_ti_reader_close(in);
}

/* The sequential run of ti_prepare_seq, when the argument is one: 1 once done, 0 for a replay. */
static int run_seq(ti_rank_t *tr)
{
  if (tr->ti->seq_seconds > 0)
    sim_sleep(tr->rank, tr->ti->seq_seconds);
  else if (tr->ti->seq_flops > 0)
    run_flops(tr, tr->ti->seq_flops);
  return tr->ti->seq_seconds > 0 || tr->ti->seq_flops > 0;
}

static void ti_program(sim_rank_t *rank, const void *arg)
{
  const ti_arg_t *ti = arg;
  int n = sim_rank_count(rank);
  ti_rank_t tr = {.rank = rank, .ti = ti, .me = sim_rank_id(rank), .n = n, .type_size = 1, .max_fields = 2 * n + 8};
  sim_post_at_own_clock(rank, ti->eager_below, ti->envelope);
  if (ti->hosts && sim_rank_place(rank, ti->hosts[tr.me % ti->nhosts]) != 0) {
    char message[1024];
    snprintf(message, sizeof message, "%s: the platform has no host '%s' (rank %d's); name hosts of the platform",
             ti->hostfile, ti->hosts[tr.me % ti->nhosts], tr.me);
    sim_rank_fail(rank, SIM_EPARAM, message);
    return;
  }
  if (run_seq(&tr))
    return;
  tr.field = malloc((size_t)tr.max_fields * sizeof *tr.field);
  tr.counts = malloc(2 * (size_t)n * sizeof *tr.counts);
  if (!tr.field || !tr.counts) {
    sim_rank_fail(rank, SIM_ENOMEM, "out of memory");
  } else {
    tr.counts2 = tr.counts + n;
    int files = sim_ti_trace_files(ti->trace);
    replay_file(&tr, sim_ti_trace_path(ti->trace, files > 1 ? tr.me : 0), files == 1);
    do_waitall(&tr); /* SMPI waits for the requests left at the end */
  }
  free(tr.field);
  free(tr.counts);
  free(tr.reqs);
}

static const scn_param_spec_t ti_params[] = {
    {.name = "trace",
     .kind = SCN_PATH,
     .required = 1,
     .help = "the trace as smpirun -replay takes it: a file listing one trace file per rank, or naming one file with "
             "every rank's lines (or that file itself)"},
    {.name = "hostfile", .kind = SCN_PATH, .help = "smpirun's -hostfile: rank i on the i-th host listed (host:n)"},
    {.name = "broadcast",
     .kind = SCN_CHOICE,
     .choices = sim_bcast_names,
     .help = "the bcast algorithm (default binomial, as SMPI's)"},
    {.name = "network",
     .kind = SCN_CHOICE,
     .choices = network_names,
     .help = "smpi (default: SMPI's network model and factors, as smpirun) or platform (the platform's own model)"},
    {.name = "sends",
     .kind = SCN_CHOICE,
     .choices = send_names,
     .help = "smpi (default: eager below 64 KiB, as smpirun) or synchronous (every send waits for its receive)"},
    {.name = "barrier",
     .kind = SCN_CHOICE,
     .choices = sim_coll_barrier_names,
     .help = "the barrier algorithm, as SMPI's --cfg=smpi/barrier (default SMPI's)"},
    {.name = "reduce",
     .kind = SCN_CHOICE,
     .choices = sim_coll_reduce_names,
     .help = "the reduce algorithm, as SMPI's --cfg=smpi/reduce (default SMPI's)"},
    {.name = "allreduce",
     .kind = SCN_CHOICE,
     .choices = sim_coll_allreduce_names,
     .help = "the allreduce algorithm, as SMPI's --cfg=smpi/allreduce (default SMPI's)"},
    {.name = "gather",
     .kind = SCN_CHOICE,
     .choices = sim_coll_gather_names,
     .help = "the gather algorithm, as SMPI's --cfg=smpi/gather (default SMPI's)"},
    {.name = "allgather",
     .kind = SCN_CHOICE,
     .choices = sim_coll_allgather_names,
     .help = "the allgather algorithm, as SMPI's --cfg=smpi/allgather (default SMPI's)"},
    {.name = "scatter",
     .kind = SCN_CHOICE,
     .choices = sim_coll_scatter_names,
     .help = "the scatter algorithm, as SMPI's --cfg=smpi/scatter (default SMPI's)"},
    {.name = "alltoall",
     .kind = SCN_CHOICE,
     .choices = sim_coll_alltoall_names,
     .help = "the alltoall algorithm, as SMPI's --cfg=smpi/alltoall (default SMPI's)"},
    {.name = "seq-trace",
     .kind = SCN_PATH,
     .help = "T_seq: this sequential trace (one rank) replayed on one process (default: the trace's computation)"},
    {.name = "t-seq", .kind = SCN_SECONDS, .help = "T_seq in seconds (default: the sum of the trace's computation)"},
};

/* The widest line of a one-file trace that the sum of its computation reads: 2 fields per rank (alltoallv) for up to
 * this many ranks, as the replay reads at most 2 p + 8. */
#define TI_SEQ_MAX_RANKS 65536

/* Where a compute line's flops start, after its rank, its action and blanks; NULL for any other line. Scanned by
 * hand: sscanf made this sum, read before every replay, about half of the parent process's instructions. */
static const char *compute_flops(const char *text)
{
  const char *c = text;
  for (int field = 0; field < 2; field++) {
    while (blank(*c))
      c++;
    if (field == 1 && (strncmp(c, "compute", 7) != 0 || (c[7] && !blank(c[7]))))
      return NULL;
    while (*c && !blank(*c))
      c++;
  }
  while (blank(*c))
    c++;
  return c;
}

/* The flops of the compute actions of every line of `path` into *flops (added). 0, or SIM_EPARAM / SIM_EIO /
 * SIM_ENOMEM with "FILE:LINE: why". */
static int add_computation(const char *path, size_t max_fields, double *flops, char *err, size_t errlen)
{
  sim_ti_reader_t *in = NULL;
  int rc = sim_ti_reader_open(path, max_fields, &in, err, errlen);
  if (rc != 0)
    return rc;
  char *text;
  size_t len;
  int bad = 0;
  for (int number = 1; !bad && (rc = sim_ti_reader_next(in, &text, &len)) == 0; number++) {
    const char *flops_at = compute_flops(text);
    if (!flops_at)
      continue;
    char *end = NULL;
    double f = strtod(flops_at, &end);
    bad = end == flops_at || !isfinite(f) || f < 0 || f > TI_MAX_FLOPS;
    if (bad)
      snprintf(err, errlen, "%s:%d: '%.200s': compute needs a number of flops; see docs/ti-replay.md", path, number,
               text);
    else
      *flops += f;
  }
  if (!bad && rc < 0)
    sim_ti_reader_error(in, rc, err, errlen);
  sim_ti_reader_close(in);
  return bad || rc < 0 ? SIM_EPARAM : 0;
}

/* T_seq as the sum of the trace's computation: every rank's compute actions, run on one rank (rank 0's host). */
static int prepare_seq_sum(const app_point_t *point, void **arg, char *source, size_t sourcelen, char *err,
                           size_t errlen, const char **bad_param)
{
  const char *index = app_point_value(point, "trace");
  sim_ti_trace_t *trace = NULL;
  double flops = 0;
  int rc = sim_ti_open(index, &trace, err, errlen);
  int files = rc == 0 ? sim_ti_trace_files(trace) : 0;
  size_t max_fields = 2 * (size_t)(files > 1 ? files : TI_SEQ_MAX_RANKS) + 8; /* as the replay's, at most p ranks */
  for (int i = 0; rc == 0 && i < files; i++)
    rc = add_computation(sim_ti_trace_path(trace, i), max_fields, &flops, err, errlen);
  sim_ti_trace_free(trace);
  if (rc == 0 && !(flops > 0)) {
    snprintf(source, sourcelen,
             "the trace computes nothing (no compute action), so T_seq cannot be its computation; "
             "give t-seq or seq-trace for the lost-cycle view");
    return 0; /* no sequential run (*arg stays NULL) */
  }
  rc = rc ? rc : ti_prepare(point, files, arg, err, errlen, bad_param);
  if (rc == 0) {
    ((ti_arg_t *)*arg)->seq_flops = flops;
    snprintf(source, sourcelen,
             "the sum of the trace's computation, %.9g flops (every rank's compute actions) at "
             "the speed of rank 0's host",
             flops);
  }
  return rc == 0 || rc == SIM_ENOMEM ? rc : SIM_EPARAM;
}

/* T_seq for the lost-cycle view (app_skeleton_t.prepare_seq): the time t-seq gives, or the sequential trace
 * seq-trace replayed on one process, or by default the sum of the trace's computation (none for a trace that
 * computes nothing). */
static int ti_prepare_seq(const app_point_t *point, void **arg, char *source, size_t sourcelen, char *err,
                          size_t errlen, const char **bad_param)
{
  const char *seq_trace = app_point_value(point, "seq-trace");
  const char *t_seq = app_point_value(point, "t-seq");
  *bad_param = seq_trace ? "seq-trace" : "trace";
  if (seq_trace && t_seq) {
    snprintf(err, errlen, "T_seq is either a sequential trace (seq-trace) or a time (t-seq); give one of them");
    *bad_param = "t-seq";
    return SIM_EPARAM;
  }
  if (t_seq) {
    ti_arg_t *ti = calloc(1, sizeof *ti);
    if (!ti)
      return SIM_ENOMEM;
    ti->seq_seconds = strtod(t_seq, NULL); /* checked by the scenario module (SCN_SECONDS) */
    *arg = ti;
    snprintf(source, sourcelen, "t-seq = %s s, given by the scenario", t_seq);
    return 0;
  }
  if (!seq_trace)
    return prepare_seq_sum(point, arg, source, sourcelen, err, errlen, bad_param);
  const char **values = malloc(point->count * sizeof *values);
  if (!values)
    return SIM_ENOMEM;
  for (size_t j = 0; j < point->count; j++)
    values[j] = strcmp(point->names[j], "trace") == 0 ? seq_trace : point->values[j];
  app_point_t seq = {.count = point->count, .names = point->names, .values = values};
  int rc = ti_prepare(&seq, 1, arg, err, errlen, bad_param);
  free(values);
  if (rc != 0 && strcmp(*bad_param, "trace") == 0)
    *bad_param = "seq-trace";
  if (rc == 0)
    snprintf(source, sourcelen, "the sequential trace %s, replayed on one process", seq_trace);
  return rc;
}

/* SMPI's network model and precision, as smpirun imposes them (SimGrid 3.32's src/smpi/smpirun.in: SIMOPTS), unless
 * network = platform. */
static const char *ti_engine_cfg(const void *arg)
{
  const ti_arg_t *ti = arg;
  return ti->platform_network ? NULL : "surf/precision:1e-9 network/model:SMPI";
}

static const scn_skeleton_spec_t ti_spec = {
    .name = "ti-replay", .params = ti_params, .nparams = sizeof ti_params / sizeof ti_params[0]};

const app_skeleton_t app_ti_skeleton = {.spec = &ti_spec,
                                        .views = APP_VIEW_LOST_CYCLES | APP_VIEW_MESSAGES,
                                        .prepare = ti_prepare,
                                        .program = ti_program,
                                        .release = ti_release,
                                        .prepare_seq = ti_prepare_seq,
                                        .engine_cfg = ti_engine_cfg};
