/* The PMPI wrappers of libsimrun-trace.so: each traced MPI call is timed and written as a TI action (the names and
 * fields of SimGrid 3.32's smpi_replay.cpp, sizes in bytes) and a timeline interval. Here start, end and point to
 * point; the collectives and the calls only counted are trc_mpi_coll.c's. Built with Open MPI's flags, never SimGrid.
 */
#include "trc_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    return trc_to_world(p->comm, status->MPI_SOURCE);
  return p->src == trc_world_rank() ? p->dst : p->src;
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

/* ---- start and end ---- */

static void start(void)
{
  int size = trc_comm_size(MPI_COMM_WORLD);
  int rank = trc_world_rank();
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
    if (trc_world_rank() == 0)
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
    if (trc_world_rank() == 0 && trc_dir()[0])
      write_index(trc_comm_size(MPI_COMM_WORLD), all_ok);
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
  int peer = trc_to_world(comm, dest);
  double bytes = trc_nbytes(count, type);
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
  int peer = rc == MPI_SUCCESS ? trc_to_world(comm, status->MPI_SOURCE) : -1;
  trc_call(t, "MPI_Recv", TRC_IDLE, peer, got, peer >= 0 ? "recv %d %d %d" : NULL, peer, status->MPI_TAG, got);
  return rc;
}

EXPORT int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Isend(buf, count, type, dest, tag, comm, request);
  int peer = trc_to_world(comm, dest);
  double bytes = trc_nbytes(count, type);
  if (rc == MPI_SUCCESS && peer >= 0)
    remember(*request, comm, trc_world_rank(), peer, tag);
  trc_call(t, "MPI_Isend", TRC_COMM, peer, bytes, peer >= 0 ? "isend %d %d %.0f" : NULL, peer, tag, bytes);
  return rc;
}

EXPORT int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Issend(buf, count, type, dest, tag, comm, request);
  int peer = trc_to_world(comm, dest);
  double bytes = trc_nbytes(count, type);
  if (rc == MPI_SUCCESS && peer >= 0)
    remember(*request, comm, trc_world_rank(), peer, tag);
  trc_call(t, "MPI_Issend", TRC_COMM, peer, bytes, peer >= 0 ? "isend %d %d %.0f" : NULL, peer, tag, bytes);
  return rc;
}

/* A receive posted from any source or with any tag is written when a wait or test finds it complete, as the receive
 * from the sender, with the tag, its status names (a TI irecv names both: SMPI's replay deadlocked on "irecv 1 -1"). */
EXPORT int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  int peer = trc_to_world(comm, source);
  double bytes = trc_nbytes(count, type);
  int deferred = source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG;
  if (rc == MPI_SUCCESS && (peer >= 0 || source == MPI_ANY_SOURCE))
    remember(*request, comm, deferred ? MPI_ANY_SOURCE : peer, trc_world_rank(), tag);
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
