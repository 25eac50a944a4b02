/* The PMPI wrappers of libsimrun-trace.so: each traced MPI call is timed and written as a TI action (the names and
 * fields of SimGrid 3.32's smpi_replay.cpp, sizes in bytes) and a timeline interval; the common calls the TI format
 * cannot hold are wrapped only to be counted (trc_untraced). Compiled with Open MPI's flags only, never with SimGrid.
 */
#include "trc_record.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

/* A non-blocking request the trace knows: the TI wait names it by (source, destination, tag) in world ranks. A
 * receive posted from any source or with any tag has src MPI_ANY_SOURCE: its source and tag are known only from its
 * status once complete. */
typedef struct pending {
  MPI_Request request;
  MPI_Comm comm;
  int src;
  int dst;
  int tag;
} pending_t;

static pending_t *pendings;
static size_t npendings;
static size_t pendings_cap;
static int started;   /* MPI_Init went through these wrappers */
static int init_seen; /* MPI_Init or MPI_Init_thread went through them, traced or not */

static int world_rank(void)
{
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/* Whether collectives on `comm` are collectives on MPI_COMM_WORLD (the only communicator of a TI trace). */
static int in_world(MPI_Comm comm)
{
  int result = MPI_UNEQUAL;
  if (!trc_active())
    return 0;
  if (comm == MPI_COMM_WORLD)
    return 1;
  return PMPI_Comm_compare(comm, MPI_COMM_WORLD, &result) == MPI_SUCCESS &&
         (result == MPI_IDENT || result == MPI_CONGRUENT);
}

/* Rank `rank` of `comm` as a rank of MPI_COMM_WORLD; special values (MPI_ANY_SOURCE, MPI_PROC_NULL) unchanged. */
static int to_world(MPI_Comm comm, int rank)
{
  if (rank < 0 || comm == MPI_COMM_WORLD || !trc_active())
    return rank;
  MPI_Group group;
  MPI_Group world;
  int out = rank;
  if (PMPI_Comm_group(comm, &group) == MPI_SUCCESS) {
    if (PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
      PMPI_Group_translate_ranks(group, 1, &rank, world, &out);
      PMPI_Group_free(&world);
    }
    PMPI_Group_free(&group);
  }
  return out;
}

static double nbytes(int count, MPI_Datatype type)
{
  int size = 0;
  if (!trc_active() || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS)
    return 0;
  return (double)count * size;
}

/* A collective's TI format, or NULL (and the call counted as untraced) on a communicator other than the world. */
static const char *world_only(MPI_Comm comm, const char *format, const char *untraced)
{
  if (in_world(comm))
    return format;
  if (trc_active())
    trc_untraced(untraced);
  return NULL;
}

static void remember(MPI_Request request, MPI_Comm comm, int src, int dst, int tag)
{
  if (!trc_active() || request == MPI_REQUEST_NULL)
    return;
  if (npendings == pendings_cap) {
    size_t cap = pendings_cap ? 2 * pendings_cap : 64;
    pending_t *more = realloc(pendings, cap * sizeof *more);
    if (!more) {
      trc_untraced("request (out of memory)");
      return;
    }
    pendings = more;
    pendings_cap = cap;
  }
  pendings[npendings++] = (pending_t){.request = request, .comm = comm, .src = src, .dst = dst, .tag = tag};
}

/* The newest pending entry of `request`, or NULL when the trace does not know it. */
static const pending_t *find(MPI_Request request)
{
  for (size_t i = npendings; trc_active() && i-- > 0;)
    if (pendings[i].request == request)
      return &pendings[i];
  return NULL;
}

/* Removes the newest pending entry of `request` into *out; 0, or -1 when the trace does not know it. */
static int forget(MPI_Request request, pending_t *out)
{
  for (size_t i = npendings; i-- > 0;)
    if (pendings[i].request == request) {
      *out = pendings[i];
      pendings[i] = pendings[--npendings];
      return 0;
    }
  return -1;
}

/* The world rank at the other end of the known request `p`, complete with `status`. */
static int partner(const pending_t *p, const MPI_Status *status)
{
  if (p->src == MPI_ANY_SOURCE)
    return to_world(p->comm, status->MPI_SOURCE);
  return p->src == world_rank() ? p->dst : p->src;
}

/* The TI actions of the requests `copy[done[k]]` (k < n; done NULL: k itself) that a wait or test found complete with
 * `statuses[k]` (NULL: ignored): the wait of each known request (when `waits`; otherwise a TI waitall covered them),
 * or for a receive posted from any source, the receive itself with the sender, tag and size of its status (a TI
 * irecv must name its source, so none was written when it was posted). */
static void completions(const MPI_Request *copy, const int *done, int n, const MPI_Status *statuses, int waits)
{
  for (int k = 0; copy && k < n; k++) {
    pending_t p;
    int got = 0;
    if (forget(copy[done ? done[k] : k], &p) != 0)
      continue;
    if (p.src != MPI_ANY_SOURCE && waits)
      trc_action("wait %d %d %d", p.src, p.dst, p.tag);
    else if (p.src == MPI_ANY_SOURCE && statuses && PMPI_Get_count(&statuses[k], MPI_BYTE, &got) == MPI_SUCCESS)
      trc_action("recv %d %d %d", partner(&p, &statuses[k]), statuses[k].MPI_TAG, got);
    else if (p.src == MPI_ANY_SOURCE)
      trc_untraced("MPI_Irecv from MPI_ANY_SOURCE (status lost)");
  }
}

/* Before a call that may complete some of `count` requests: a copy of their handles (which the call sets to
 * MPI_REQUEST_NULL), or NULL when not recording. */
static MPI_Request *handles(int count, const MPI_Request requests[])
{
  MPI_Request *copy = trc_active() && count > 0 ? malloc(sizeof *copy * (size_t)count) : NULL;
  if (copy)
    memcpy(copy, requests, sizeof *copy * (size_t)count);
  else if (trc_active() && count > 0)
    trc_untraced("request (out of memory)");
  return copy;
}

/* "N c0 c1 ... " of `count` entries of `counts` in bytes of `type` (zeros when counts is NULL), N their sum first when
 * `with_sum`: a new string, or NULL when out of memory. */
static char *counts_text(const int *counts, int count, MPI_Datatype type, int with_sum)
{
  double unit = counts ? nbytes(1, type) : 0;
  size_t cap = 24 * ((size_t)count + 1);
  char *text = malloc(cap);
  if (!text)
    return NULL;
  size_t len = 0;
  double sum = 0;
  for (int i = 0; counts && i < count; i++)
    sum += counts[i] * unit;
  if (with_sum)
    len += (size_t)snprintf(text, cap, "%.0f", sum);
  for (int i = 0; i < count; i++)
    len += (size_t)snprintf(text + len, cap - len, "%s%.0f", len ? " " : "", counts ? counts[i] * unit : 0);
  return text;
}

static int comm_size(MPI_Comm comm)
{
  int size = 0;
  PMPI_Comm_size(comm, &size);
  return size;
}

/* ---- start and end ---- */

static void start(void)
{
  int size = comm_size(MPI_COMM_WORLD);
  int rank = world_rank();
  started = 1;
  PMPI_Barrier(MPI_COMM_WORLD); /* a common time 0 for the ranks' timelines */
  if (trc_start(rank, size) == 0 && rank == 0)
    fprintf(stderr, "simrun-trace: tracing %d rank(s) into %s\n", size, trc_dir());
}

EXPORT int MPI_Init(int *argc, char ***argv)
{
  init_seen = 1;
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS)
    start();
  return rc;
}

/* The recorder keeps one timeline per rank: with several threads calling MPI at once (MPI_THREAD_MULTIPLE) their
 * calls would interleave in it, so the run is then not traced. */
EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  init_seen = 1;
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS && *provided == MPI_THREAD_MULTIPLE) {
    if (world_rank() == 0)
      fprintf(stderr, "simrun-trace: warning: MPI_THREAD_MULTIPLE: this run is not traced (the tracer records one "
                      "thread per rank; ask for MPI_THREAD_FUNNELED or SERIALIZED)\n");
  } else if (rc == MPI_SUCCESS) {
    start();
  }
  return rc;
}

/* A run that aborts leaves its files written up to here, without their end line: simrun analyse names the rank and
 * the line where it stopped. */
EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
  trc_flush();
  return PMPI_Abort(comm, errorcode);
}

/* Rank 0 lists the ranks' TI files in index.txt, by absolute path as simrun --ti does (sim_ti.c), once every rank
 * wrote its files whole: an interrupted run leaves no index, which simrun analyse reports. */
static void write_index(int size, int all_ok)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/index.txt", trc_dir());
  FILE *index = all_ok ? fopen(path, "w") : NULL;
  for (int r = 0; index && r < size; r++)
    fprintf(index, "%s/rank-%d.txt\n", trc_dir(), r);
  if (index && fclose(index) == 0)
    fprintf(stderr, "simrun-trace: wrote the traces of %d rank(s) to %s (index.txt, rank-I.txt, timeline-I.txt)\n",
            size, trc_dir());
  else
    fprintf(stderr,
            "simrun-trace: warning: the trace in %s is incomplete (a rank could not write its files); no "
            "index.txt written\n",
            trc_dir());
}

EXPORT int MPI_Finalize(void)
{
  if (started) {
    int ok = trc_finish() == 0;
    int all_ok = 0;
    PMPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
    if (world_rank() == 0 && trc_dir()[0])
      write_index(comm_size(MPI_COMM_WORLD), all_ok);
    started = 0;
  }
  free(pendings);
  pendings = NULL;
  npendings = pendings_cap = 0;
  return PMPI_Finalize();
}

/* A program whose MPI calls bypass the C interface, as Open MPI's Fortran bindings do (they call PMPI_* directly),
 * used MPI without these wrappers seeing it: said once (by the first rank), at exit, rather than leaving no trace
 * and no word. */
__attribute__((destructor)) static void check_seen(void)
{
  int finalized = 0;
  const char *rank = getenv("OMPI_COMM_WORLD_RANK");
  if (init_seen || PMPI_Finalized(&finalized) != MPI_SUCCESS || !finalized || (rank && strcmp(rank, "0") != 0))
    return;
  fprintf(stderr, "simrun-trace: warning: this program used MPI without calling the C MPI_Init (a Fortran "
                  "program?): nothing was traced; the tracer wraps the C interface only (docs/tracer.md)\n");
}

EXPORT void simrun_trace_phase_begin(const char *name)
{
  trc_phase_begin(name);
}

EXPORT void simrun_trace_phase_end(void)
{
  trc_phase_end();
}

/* ---- point to point ---- */

/* A blocking send of any mode: the TI send (SMPI replays it in its own mode). */
static void sent(double t, const char *name, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  int peer = to_world(comm, dest);
  double bytes = nbytes(count, type);
  trc_call(t, name, TRC_COMM, peer, bytes, peer >= 0 ? "send %d %d %.0f" : NULL, peer, tag, bytes);
}

EXPORT int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Send(buf, count, type, dest, tag, comm);
  sent(t, "MPI_Send", count, type, dest, tag, comm);
  return rc;
}

EXPORT int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Ssend(buf, count, type, dest, tag, comm);
  sent(t, "MPI_Ssend", count, type, dest, tag, comm);
  return rc;
}

EXPORT int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Rsend(buf, count, type, dest, tag, comm);
  sent(t, "MPI_Rsend", count, type, dest, tag, comm);
  return rc;
}

EXPORT int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Bsend(buf, count, type, dest, tag, comm);
  sent(t, "MPI_Bsend", count, type, dest, tag, comm);
  return rc;
}

/* The received message's source (a world rank), tag and bytes come from its status: a receive from any source is
 * written with the partner it got. */
EXPORT int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  double t = trc_enter();
  int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
  int got = 0;
  if (rc == MPI_SUCCESS && trc_active())
    PMPI_Get_count(status, MPI_BYTE, &got);
  int peer = rc == MPI_SUCCESS ? to_world(comm, status->MPI_SOURCE) : -1;
  trc_call(t, "MPI_Recv", TRC_IDLE, peer, got, peer >= 0 ? "recv %d %d %d" : NULL, peer, status->MPI_TAG, got);
  return rc;
}

EXPORT int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Isend(buf, count, type, dest, tag, comm, request);
  int peer = to_world(comm, dest);
  double bytes = nbytes(count, type);
  if (rc == MPI_SUCCESS && peer >= 0)
    remember(*request, comm, world_rank(), peer, tag);
  trc_call(t, "MPI_Isend", TRC_COMM, peer, bytes, peer >= 0 ? "isend %d %d %.0f" : NULL, peer, tag, bytes);
  return rc;
}

EXPORT int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Issend(buf, count, type, dest, tag, comm, request);
  int peer = to_world(comm, dest);
  double bytes = nbytes(count, type);
  if (rc == MPI_SUCCESS && peer >= 0)
    remember(*request, comm, world_rank(), peer, tag);
  trc_call(t, "MPI_Issend", TRC_COMM, peer, bytes, peer >= 0 ? "isend %d %d %.0f" : NULL, peer, tag, bytes);
  return rc;
}

/* A receive posted from any source or with any tag is written when a wait or test finds it complete, as the receive
 * from the sender, with the tag, its status names (a TI irecv names both: SMPI's replay deadlocked on "irecv 1 -1"). */
EXPORT int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  int peer = to_world(comm, source);
  double bytes = nbytes(count, type);
  int deferred = source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG;
  if (rc == MPI_SUCCESS && (peer >= 0 || source == MPI_ANY_SOURCE))
    remember(*request, comm, deferred ? MPI_ANY_SOURCE : peer, world_rank(), tag);
  trc_call(t, "MPI_Irecv", TRC_COMM, peer, bytes, peer >= 0 && !deferred ? "irecv %d %d %.0f" : NULL, peer, tag, bytes);
  return rc;
}

EXPORT int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  MPI_Request before = *request;
  const pending_t *known = find(before);
  int peer = known && known->src != MPI_ANY_SOURCE ? partner(known, status) : -1;
  double t = trc_enter();
  int rc = PMPI_Wait(request, status);
  if (known && known->src == MPI_ANY_SOURCE && rc == MPI_SUCCESS)
    peer = partner(known, status);
  trc_call(t, "MPI_Wait", TRC_IDLE, peer, 0, NULL);
  if (rc == MPI_SUCCESS)
    completions(&before, NULL, 1, status, 1);
  return rc;
}

/* The TI waitall when the trace knows a request it waits for other than a receive from any source (these are
 * written as receives, after it). */
EXPORT int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
  MPI_Request *copy = handles(count, requests);
  MPI_Status *own = copy && statuses == MPI_STATUSES_IGNORE ? malloc(sizeof *own * (size_t)count) : NULL;
  int waits = 0;
  for (int i = 0; copy && i < count; i++) {
    const pending_t *known = find(copy[i]);
    waits += known && known->src != MPI_ANY_SOURCE;
  }
  double t = trc_enter();
  int rc = PMPI_Waitall(count, requests, own ? own : statuses);
  trc_call(t, "MPI_Waitall", TRC_IDLE, -1, 0, waits ? "waitall" : NULL);
  completions(copy, NULL, count, own ? own : statuses == MPI_STATUSES_IGNORE ? NULL : statuses, 0);
  free(own);
  free(copy);
  return rc;
}

EXPORT int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  MPI_Request before = *request;
  const pending_t *found = find(before);
  pending_t p = found ? *found : (pending_t){.src = -1};
  int known = found && p.src != MPI_ANY_SOURCE; /* a receive from any source is written once complete */
  double t = trc_enter();
  int rc = PMPI_Test(request, flag, status);
  trc_call(t, "MPI_Test", TRC_CTRL, -1, 0, known ? "test %d %d %d" : NULL, p.src, p.dst, p.tag);
  if (rc == MPI_SUCCESS && *flag)
    completions(&before, NULL, 1, status, 0);
  return rc;
}

/* Waitany, waitsome, testany and testall: the wait of each request they found complete (completions). */
EXPORT int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  MPI_Request *copy = handles(count, requests);
  double t = trc_enter();
  int rc = PMPI_Waitany(count, requests, index, status);
  trc_call(t, "MPI_Waitany", TRC_IDLE, -1, 0, NULL);
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
    completions(copy, index, 1, status, 1);
  free(copy);
  return rc;
}

EXPORT int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
  MPI_Request *copy = handles(incount, requests);
  MPI_Status *own = copy && statuses == MPI_STATUSES_IGNORE ? malloc(sizeof *own * (size_t)incount) : NULL;
  double t = trc_enter();
  int rc = PMPI_Waitsome(incount, requests, outcount, indices, own ? own : statuses);
  trc_call(t, "MPI_Waitsome", TRC_IDLE, -1, 0, NULL);
  if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED)
    completions(copy, indices, *outcount, own ? own : statuses == MPI_STATUSES_IGNORE ? NULL : statuses, 1);
  free(own);
  free(copy);
  return rc;
}

EXPORT int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  MPI_Request *copy = handles(count, requests);
  double t = trc_enter();
  int rc = PMPI_Testany(count, requests, index, flag, status);
  trc_call(t, "MPI_Testany", TRC_CTRL, -1, 0, NULL);
  if (rc == MPI_SUCCESS && *flag && *index != MPI_UNDEFINED)
    completions(copy, index, 1, status, 1);
  free(copy);
  return rc;
}

EXPORT int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
  MPI_Request *copy = handles(count, requests);
  MPI_Status *own = copy && statuses == MPI_STATUSES_IGNORE ? malloc(sizeof *own * (size_t)count) : NULL;
  double t = trc_enter();
  int rc = PMPI_Testall(count, requests, flag, own ? own : statuses);
  trc_call(t, "MPI_Testall", TRC_CTRL, -1, 0, NULL);
  if (rc == MPI_SUCCESS && *flag)
    completions(copy, NULL, count, own ? own : statuses == MPI_STATUSES_IGNORE ? NULL : statuses, 1);
  free(own);
  free(copy);
  return rc;
}

/* ---- collectives (on MPI_COMM_WORLD or a congruent communicator) ---- */

EXPORT int MPI_Barrier(MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Barrier(comm);
  trc_call(t, "MPI_Barrier", TRC_IDLE, -1, 0, world_only(comm, "barrier", "MPI_Barrier (sub-communicator)"));
  return rc;
}

EXPORT int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Bcast(buf, count, type, root, comm);
  double bytes = nbytes(count, type);
  trc_call(t, "MPI_Bcast", TRC_COMM, -1, bytes, world_only(comm, "bcast %.0f %d", "MPI_Bcast (sub-communicator)"),
           bytes, root);
  return rc;
}

/* The reduction's own computation is in the measured call, not in a compute amount: written as 0 flops. */
EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                      MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm);
  double bytes = nbytes(count, type);
  trc_call(t, "MPI_Reduce", TRC_COMM, -1, bytes, world_only(comm, "reduce %.0f 0 %d", "MPI_Reduce (sub-communicator)"),
           bytes, root);
  return rc;
}

EXPORT int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
  double bytes = nbytes(count, type);
  trc_call(t, "MPI_Allreduce", TRC_COMM, -1, bytes,
           world_only(comm, "allreduce %.0f 0", "MPI_Allreduce (sub-communicator)"), bytes);
  return rc;
}

EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  double recv = nbytes(recvcount, recvtype);
  double send = sendbuf == MPI_IN_PLACE ? recv : nbytes(sendcount, sendtype);
  trc_call(t, "MPI_Alltoall", TRC_COMM, -1, send * comm_size(comm),
           world_only(comm, "alltoall %.0f %.0f", "MPI_Alltoall (sub-communicator)"), send, recv);
  return rc;
}

EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                         void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                         MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  const char *format = world_only(comm, "alltoallv %s %s", "MPI_Alltoallv (sub-communicator)");
  int size = format ? comm_size(comm) : 0;
  int in_place = sendbuf == MPI_IN_PLACE;
  char *send = format ? counts_text(in_place ? recvcounts : sendcounts, size, in_place ? recvtype : sendtype, 1) : NULL;
  char *recv = format ? counts_text(recvcounts, size, recvtype, 1) : NULL;
  trc_call(t, "MPI_Alltoallv", TRC_COMM, -1, 0, send && recv ? format : NULL, send, recv);
  free(send);
  free(recv);
  return rc;
}

/* Gather and scatter: the buffer that only the root uses is sized as the other one on the other ranks (MPI ignores
 * its type there, which may then be invalid), and MPI_IN_PLACE's ignored side as its counterpart. */
EXPORT int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  const char *format = world_only(comm, "gather %.0f %.0f %d", "MPI_Gather (sub-communicator)");
  int at_root = format && world_rank() == root;
  double recv = at_root ? nbytes(recvcount, recvtype) : 0;
  double send = at_root && sendbuf == MPI_IN_PLACE ? recv : nbytes(sendcount, sendtype);
  trc_call(t, "MPI_Gather", TRC_COMM, -1, send, format, send, at_root ? recv : send, root);
  return rc;
}

EXPORT int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  const char *format = world_only(comm, "gatherv %.0f %s %d", "MPI_Gatherv (sub-communicator)");
  int at_root = format && world_rank() == root;
  double send = at_root && sendbuf == MPI_IN_PLACE ? nbytes(recvcounts[root], recvtype) : nbytes(sendcount, sendtype);
  char *recv = format ? counts_text(at_root ? recvcounts : NULL, comm_size(comm), recvtype, 0) : NULL;
  trc_call(t, "MPI_Gatherv", TRC_COMM, -1, send, recv ? format : NULL, send, recv, root);
  free(recv);
  return rc;
}

EXPORT int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  const char *format = world_only(comm, "scatter %.0f %.0f %d", "MPI_Scatter (sub-communicator)");
  int at_root = format && world_rank() == root;
  double send = at_root ? nbytes(sendcount, sendtype) : 0;
  double recv = at_root && recvbuf == MPI_IN_PLACE ? send : nbytes(recvcount, recvtype);
  trc_call(t, "MPI_Scatter", TRC_COMM, -1, recv, format, at_root ? send : recv, recv, root);
  return rc;
}

EXPORT int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                        void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  const char *format = world_only(comm, "scatterv %s %.0f %d", "MPI_Scatterv (sub-communicator)");
  int at_root = format && world_rank() == root;
  double recv = at_root && recvbuf == MPI_IN_PLACE ? nbytes(sendcounts[root], sendtype) : nbytes(recvcount, recvtype);
  char *send = format ? counts_text(at_root ? sendcounts : NULL, comm_size(comm), sendtype, 0) : NULL;
  trc_call(t, "MPI_Scatterv", TRC_COMM, -1, recv, send ? format : NULL, send, recv, root);
  free(send);
  return rc;
}

EXPORT int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  double recv = nbytes(recvcount, recvtype);
  double send = sendbuf == MPI_IN_PLACE ? recv : nbytes(sendcount, sendtype);
  trc_call(t, "MPI_Allgather", TRC_COMM, -1, send,
           world_only(comm, "allgather %.0f %.0f", "MPI_Allgather (sub-communicator)"), send, recv);
  return rc;
}

EXPORT int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  const char *format = world_only(comm, "allgatherv %.0f %s", "MPI_Allgatherv (sub-communicator)");
  double send =
      sendbuf == MPI_IN_PLACE && format ? nbytes(recvcounts[world_rank()], recvtype) : nbytes(sendcount, sendtype);
  char *recv = format ? counts_text(recvcounts, comm_size(comm), recvtype, 0) : NULL;
  trc_call(t, "MPI_Allgatherv", TRC_COMM, -1, send, recv ? format : NULL, send, recv);
  free(recv);
  return rc;
}

EXPORT int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, type, op, comm);
  const char *format = world_only(comm, "reducescatter %s 0", "MPI_Reduce_scatter (sub-communicator)");
  char *counts = format ? counts_text(recvcounts, comm_size(comm), type, 0) : NULL;
  trc_call(t, "MPI_Reduce_scatter", TRC_COMM, -1, 0, counts ? format : NULL, counts);
  free(counts);
  return rc;
}

/* Equal blocks: the TI reducescatter with every count `recvcount`. */
EXPORT int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,
                                    MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, type, op, comm);
  const char *format = world_only(comm, "reducescatter %s 0", "MPI_Reduce_scatter_block (sub-communicator)");
  int size = format ? comm_size(comm) : 0;
  int *counts = format ? malloc(sizeof *counts * (size_t)size) : NULL;
  for (int i = 0; counts && i < size; i++)
    counts[i] = recvcount;
  char *text = counts ? counts_text(counts, size, type, 0) : NULL;
  trc_call(t, "MPI_Reduce_scatter_block", TRC_COMM, -1, nbytes(recvcount, type), text ? format : NULL, text);
  free(text);
  free(counts);
  return rc;
}

/* ---- communicators ---- */

EXPORT int MPI_Comm_size(MPI_Comm comm, int *size)
{
  double t = trc_enter();
  int rc = PMPI_Comm_size(comm, size);
  trc_call(t, "MPI_Comm_size", TRC_CTRL, -1, 0, NULL); /* a local query: TI's comm_size action means something else */
  return rc;
}

EXPORT int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
  double t = trc_enter();
  int rc = PMPI_Comm_split(comm, color, key, newcomm);
  trc_call(t, "MPI_Comm_split", TRC_CTRL, -1, 0, "comm_split");
  return rc;
}

EXPORT int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
  double t = trc_enter();
  int rc = PMPI_Comm_dup(comm, newcomm);
  trc_call(t, "MPI_Comm_dup", TRC_CTRL, -1, 0, "comm_dup");
  return rc;
}

/* A send-receive as MPI defines it, an isend, a receive and the wait for the send (MPI 3.1 §3.10), in TI actions that
 * SMPI replays: the receive's source, tag and size from its status. A side with MPI_PROC_NULL moves nothing and is
 * left out. */
static void sendrecv_done(double t, const char *name, int rc, double sent, int dest, int sendtag, MPI_Comm comm,
                          MPI_Status *status)
{
  int to = to_world(comm, dest);
  int from = rc == MPI_SUCCESS ? to_world(comm, status->MPI_SOURCE) : -1;
  int got = 0;
  if (from >= 0)
    PMPI_Get_count(status, MPI_BYTE, &got);
  int me = trc_active() ? world_rank() : 0;
  if (to >= 0 && from >= 0)
    trc_call(t, name, TRC_COMM, to, sent, "isend %d %d %.0f\n%d recv %d %d %d\n%d wait %d %d %d", to, sendtag, sent, me,
             from, status->MPI_TAG, got, me, me, to, sendtag);
  else if (to >= 0)
    trc_call(t, name, TRC_COMM, to, sent, "send %d %d %.0f", to, sendtag, sent);
  else
    trc_call(t, name, TRC_COMM, from, got, from >= 0 ? "recv %d %d %d" : NULL, from, from >= 0 ? status->MPI_TAG : 0,
             got);
}

EXPORT int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                        MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  double t = trc_enter();
  int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                         comm, status);
  sendrecv_done(t, "MPI_Sendrecv", rc, nbytes(sendcount, sendtype), dest, sendtag, comm, status);
  return rc;
}

EXPORT int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                                MPI_Comm comm, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  double t = trc_enter();
  int rc = PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status);
  sendrecv_done(t, "MPI_Sendrecv_replace", rc, nbytes(count, type), dest, sendtag, comm, status);
  return rc;
}

/* ---- calls the TI format cannot hold: timed in the timeline, counted, listed at MPI_Finalize ---- */

static void untraced(double t, const char *name, trc_category_t category)
{
  trc_call(t, name, category, -1, 0, NULL);
  if (trc_active())
    trc_untraced(name);
}

EXPORT int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  double t = trc_enter();
  int rc = PMPI_Probe(source, tag, comm, status);
  untraced(t, "MPI_Probe", TRC_IDLE);
  return rc;
}

EXPORT int MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
  double t = trc_enter();
  int rc = PMPI_Iprobe(source, tag, comm, flag, status);
  untraced(t, "MPI_Iprobe", TRC_CTRL);
  return rc;
}

EXPORT int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Scan(sendbuf, recvbuf, count, type, op, comm);
  untraced(t, "MPI_Scan", TRC_COMM);
  return rc;
}

EXPORT int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm);
  untraced(t, "MPI_Exscan", TRC_COMM);
  return rc;
}

EXPORT int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Ibcast(buf, count, type, root, comm, request);
  untraced(t, "MPI_Ibcast", TRC_COMM);
  return rc;
}

EXPORT int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                          MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request);
  untraced(t, "MPI_Iallreduce", TRC_COMM);
  return rc;
}

EXPORT int MPI_Start(MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Start(request);
  untraced(t, "MPI_Start", TRC_COMM);
  return rc;
}

EXPORT int MPI_Startall(int count, MPI_Request requests[])
{
  double t = trc_enter();
  int rc = PMPI_Startall(count, requests);
  untraced(t, "MPI_Startall", TRC_COMM);
  return rc;
}

EXPORT int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Ibarrier(comm, request);
  untraced(t, "MPI_Ibarrier", TRC_CTRL);
  return rc;
}

EXPORT int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                       MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, request);
  untraced(t, "MPI_Ireduce", TRC_COMM);
  return rc;
}

EXPORT int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  untraced(t, "MPI_Iallgather", TRC_COMM);
  return rc;
}

EXPORT int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request);
  untraced(t, "MPI_Ialltoall", TRC_COMM);
  return rc;
}
