/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libsimrun-trace.so: the non-blocking requests the TI trace knows (trc_request.c), so that each wait or
 * test writes exactly the requests it completed, in completion order, a cancelled one as cancelled, and a persistent
 * request's every start as the isend or irecv it posts. */
#ifndef TRC_REQUEST_H
#define TRC_REQUEST_H

#include <mpi.h>

/* A request posted now: the TI actions name it by (src, dst, tag) in world ranks; src MPI_ANY_SOURCE for a receive
 * from any source or with any tag, written only once complete (its status gives sender, tag and size). `line` is its
 * posting's number among the timeline lines that simrun analyse counts as postings (trc_req_line), or -1. */
void trc_req_posted(MPI_Request request, MPI_Comm comm, int src, int dst, int tag, long long line);

/* A non-blocking collective's request initiated now on `comm` (its line is counted among the postings: `line`), so that
 * the wait or test that completes it names it (docs/tracer.md), and its TI `action` (copied; NULL: none), which the
 * wait or test that completes it writes before its messages' waits (trc_req_completed). */
void trc_req_collective(MPI_Request request, MPI_Comm comm, long long line, const char *action);

/* The number of the posting line the caller is writing (an MPI_Isend, Issend, Ibsend or Irsend to a rank, every
 * MPI_Irecv, a non-blocking collective's on an intracommunicator: the lines simrun analyse counts as postings), from 0
 * on the rank; -1 when not recording. */
long long trc_req_line(void);

/* SMPI's MPI_ANY_TAG (SimGrid's include/smpi/smpi.h), which smpirun -trace-ti writes for a receive from any tag and
 * both replays match with any tag (Open MPI's, -1, deadlocked SMPI's replay). */
#define TRC_SMPI_ANY_TAG -444

/* A receive posted now (MPI_Irecv, or the start of a persistent one) from `source` of `comm` with `tag`: remembered
 * (trc_req_posted, with `line`), with SMPI's any tag for MPI_ANY_TAG. */
void trc_req_irecv_posted(MPI_Request request, MPI_Comm comm, int source, int tag, long long line);

/* The TI irecv of that receive, `bytes` long, written after its timeline line; from MPI_ANY_SOURCE none: it is
 * written only once a wait or test completes it, as the recv from the sender its status names (a TI irecv must name
 * its source). */
void trc_req_irecv_action(MPI_Comm comm, int source, int tag, double bytes);

/* The request field of a wait's or test's line that completed none of the requests the trace knows (docs/tracer.md):
 * a non-blocking collective's, a null request, none active. */
#define TRC_REQ_NONE -2

/* The envelope of the next timeline line (trc_envelope, trc_envelope_request) of a wait or test that completes the
 * pending request `request`: its tag, communicator and age, the postings counted since its own (0: the last one), a
 * number that a repeated loop repeats, so that folding keeps it; TRC_REQ_NONE when the trace does not know it (or it
 * is MPI_REQUEST_NULL: none completed). */
void trc_req_envelope(MPI_Request request);

/* The envelope of the next timeline line of a wait or test that completed the `n` requests copy[done[k]] (done NULL: k
 * itself): the youngest one the trace knows as trc_req_envelope gives it, and the others as a mask of their ages beside
 * it (trc_envelope_others), so that simrun analyse completes those and no other request there (an MPI_Waitall of some
 * pending requests completed every one, idle until the last sender of all); TRC_REQ_NONE when the trace knows none of
 * them. None when one is more than 63 postings older than the youngest (the mask's bits), or, `unless_all`, when they
 * are every request pending (an MPI_Waitall's line then says all). */
void trc_req_envelope_some(const MPI_Request *copy, const int *done, int n, int unless_all);

/* The world rank at the other end of the pending request `request`, complete with `status` (which names the sender
 * of a receive from any source); -1 when the trace does not know it. */
int trc_req_partner(MPI_Request request, const MPI_Status *status);

/* The bytes the pending request `request` received, complete with `status`, when it is a receive posted from any
 * source (whose posting's timeline line gives its buffer's size, not the message's); 0 otherwise. */
double trc_req_received(MPI_Request request, const MPI_Status *status);

/* The bytes received by the receives posted from any source among the `n` requests `copy[done[k]]` (done NULL: k
 * itself) complete with `statuses[k]`, in all (trc_req_received of each); 0 when there is none or statuses is NULL. */
double trc_req_received_all(const MPI_Request *copy, const int *done, int n, const MPI_Status *statuses);

/* Whether `request` is pending with a written TI post (not a deferred any-source receive). */
int trc_req_written(MPI_Request request);

/* Whether the written requests among the `count` handles `copy` are every written request pending on the rank (a TI
 * waitall then says it), and at least one, and no non-blocking collective with a TI action is among them. */
int trc_req_all_pending(const MPI_Request *copy, int count);

/* Writes the completion of requests `copy[done[k]]` (k < n; done NULL: k itself) found complete with `statuses[k]`
 * (NULL: unknown), in that order but the non-blocking collectives' TI actions first (a replay runs each where its wait
 * was, and one after a message's wait could wait for a partner that sends only once out of it): a `wait` each when
 * `waits` (a waitall was written otherwise), a receive posted from any source as the `recv` its status names, a
 * cancelled request as cancelled. The requests are then forgotten, all of it the recorder's time (trc_after_call). */
void trc_req_completed(const MPI_Request *copy, const int *done, int n, const MPI_Status *statuses, int waits);

/* The envelope of the next timeline line, an MPI_Request_free's of `request`: its tag, communicator and age when it is
 * pending (docs/tracer.md), so that simrun analyse stops waiting for a wait to complete it; nothing otherwise. */
void trc_req_envelope_freed(MPI_Request request);

/* MPI_Request_free of `request`: an active one is forgotten, as nothing will wait for it; a persistent one too. */
void trc_req_freed(MPI_Request request);

/* A message as a call posts it (MPI_Isend, MPI_Irecv) or a persistent request will at each MPI_Start (as MPI_Send_init
 * in any send mode, `send` 1, `sync` 1 for MPI_Ssend_init's, or MPI_Recv_init made it): `peer` is a rank of `comm`
 * (not yet a world rank), MPI_ANY_SOURCE or MPI_PROC_NULL. */
typedef struct trc_posting {
  MPI_Comm comm;
  int send;
  int sync;
  int peer;
  int tag;
  double bytes;
} trc_posting_t;

/* Remembers the persistent request `request` made as `p` says. */
void trc_req_persistent(MPI_Request request, const trc_posting_t *p);

/* Whether `request` is a persistent request the trace knows (made by MPI_*_init while recording), into *p: MPI_Start
 * posts its message as MPI_Isend or MPI_Irecv would (trc_mpi.c). */
int trc_req_persistent_of(MPI_Request request, trc_posting_t *p);

/* Whether the `count` requests a test was given (`copy`; NULL: not known) are none active: each null, or a persistent
 * request the trace knows that is not started. Such a test completes nothing whatever its flag says: a poll. Not
 * recording, a request is not known: 0 unless all are null. */
int trc_req_none_active(const MPI_Request *copy, int count);

/* A copy of `count` handles before a call that may complete some (it sets them to MPI_REQUEST_NULL), or NULL when
 * not recording: the thread's own buffer, valid until its next call (nothing to free). */
MPI_Request *trc_req_handles(int count, const MPI_Request requests[]);

/* The handles a poll copies on its caller's stack (trc_req_keep): a polling program tests a few requests at a time. */
enum { TRC_REQ_KEPT = 8 };

/* trc_req_handles for a test, the call a polling program makes millions of times: up to TRC_REQ_KEPT handles copied
 * into the caller's `kept`, with no call, recording or not (every use of a handle asks trc_active first, as for
 * MPI_Test's own copy: trc_req_envelope_some, find); more, into the thread's buffer. The call, its checks and memcpy
 * took some 3 ns of the 9 the recorder added to an unsuccessful MPI_Testany (bench/trc_polling.c at p = 1, 200
 * messages: 80.6 ns a test against 77.8, least of 10 runs each, untraced 71.0). */
static inline MPI_Request *trc_req_keep(int count, const MPI_Request requests[], MPI_Request kept[TRC_REQ_KEPT])
{
  if (count <= 0 || count > TRC_REQ_KEPT)
    return trc_req_handles(count, requests);
  for (int i = 0; i < count; i++)
    kept[i] = requests[i];
  return kept;
}

/* Statuses for a call whose caller passed MPI_STATUSES_IGNORE (`given`), so that completions can read them: the
 * thread's own buffer, valid until its next call; `given` itself otherwise. */
MPI_Status *trc_req_statuses(int count, MPI_Status *given);

/* Frees the tables at MPI_Finalize. */
void trc_req_reset(void);

#endif
