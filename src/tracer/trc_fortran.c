/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The Fortran bindings of the traced calls (mpif.h and `use mpi`, under gfortran's names: lower case, one underscore).
 * Open MPI's own bindings (libmpi_mpifh) call PMPI_* directly, past the C wrappers; these, found first when the
 * library is preloaded, turn Fortran's handles, statuses and special addresses into C's and call the traced C wrapper,
 * which calls PMPI_*. A Fortran call not bound here goes to Open MPI's binding and is neither traced nor counted
 * (docs/tracer.md lists the ones bound); `use mpi_f08`'s bindings reach them under two other names (at the end). */
#include "trc_mpi_util.h"

#include <stdlib.h>
#include <string.h>

/* Open MPI's addresses of Fortran's MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE (libmpi). */
extern int mpi_fortran_bottom_;
extern int mpi_fortran_in_place_;
extern int mpi_fortran_status_ignore_;
extern int mpi_fortran_statuses_ignore_;

/* Fortran's MPI_STATUS_SIZE: Open MPI's status is the C struct read as integers. */
enum { F_STATUS_SIZE = sizeof(MPI_Status) / sizeof(MPI_Fint) };

/* Requests converted on the stack up to this count, on the heap above it. */
enum { ON_STACK = 64 };

typedef MPI_Fint fint;

static void *buf(void *b)
{
  if (b == (void *)&mpi_fortran_bottom_)
    return MPI_BOTTOM;
  return b == (void *)&mpi_fortran_in_place_ ? MPI_IN_PLACE : b;
}

static MPI_Comm comm(const fint *f)
{
  return MPI_Comm_f2c(*f);
}

static MPI_Datatype type(const fint *f)
{
  return MPI_Type_f2c(*f);
}

static MPI_Op op(const fint *f)
{
  return MPI_Op_f2c(*f);
}

static int ignored(const fint *status)
{
  return status == &mpi_fortran_status_ignore_ || status == &mpi_fortran_statuses_ignore_;
}

/* The C status to pass for Fortran's `status` (NULL-safe), and the result copied back. */
static MPI_Status *status_in(const fint *status, MPI_Status *c)
{
  return ignored(status) ? MPI_STATUS_IGNORE : c;
}

static void status_out(const MPI_Status *c, fint *status)
{
  if (!ignored(status))
    MPI_Status_c2f(c, status);
}

static void done(int rc, fint *ierr)
{
  if (ierr)
    *ierr = rc;
}

/* ---- start and end ---- */

EXPORT void mpi_init_(fint *ierr)
{
  done(MPI_Init(NULL, NULL), ierr);
}

EXPORT void mpi_init_thread_(const fint *required, fint *provided, fint *ierr)
{
  int level = 0;
  done(MPI_Init_thread(NULL, NULL, *required, &level), ierr);
  *provided = level;
}

EXPORT void mpi_finalize_(fint *ierr)
{
  done(MPI_Finalize(), ierr);
}

EXPORT void mpi_abort_(const fint *c, const fint *code, fint *ierr)
{
  done(MPI_Abort(comm(c), *code), ierr);
}

/* ---- point to point ---- */

#define BLOCKING_SEND(fname, cname)                                                                                    \
  EXPORT void fname(void *b, const fint *count, const fint *t, const fint *dest, const fint *tag, const fint *c,       \
                    fint *ierr)                                                                                        \
  {                                                                                                                    \
    done(cname(buf(b), *count, type(t), *dest, *tag, comm(c)), ierr);                                                  \
  }
BLOCKING_SEND(mpi_send_, MPI_Send)
BLOCKING_SEND(mpi_ssend_, MPI_Ssend)
BLOCKING_SEND(mpi_bsend_, MPI_Bsend)
BLOCKING_SEND(mpi_rsend_, MPI_Rsend)

#define NONBLOCKING(fname, cname)                                                                                      \
  EXPORT void fname(void *b, const fint *count, const fint *t, const fint *peer, const fint *tag, const fint *c,       \
                    fint *request, fint *ierr)                                                                         \
  {                                                                                                                    \
    MPI_Request r = MPI_REQUEST_NULL;                                                                                  \
    done(cname(buf(b), *count, type(t), *peer, *tag, comm(c), &r), ierr);                                              \
    *request = MPI_Request_c2f(r);                                                                                     \
  }
NONBLOCKING(mpi_isend_, MPI_Isend)
NONBLOCKING(mpi_issend_, MPI_Issend)
NONBLOCKING(mpi_ibsend_, MPI_Ibsend)
NONBLOCKING(mpi_irsend_, MPI_Irsend)
NONBLOCKING(mpi_irecv_, MPI_Irecv)
NONBLOCKING(mpi_send_init_, MPI_Send_init)
NONBLOCKING(mpi_ssend_init_, MPI_Ssend_init)
NONBLOCKING(mpi_bsend_init_, MPI_Bsend_init)
NONBLOCKING(mpi_rsend_init_, MPI_Rsend_init)
NONBLOCKING(mpi_recv_init_, MPI_Recv_init)

EXPORT void mpi_recv_(void *b, const fint *count, const fint *t, const fint *src, const fint *tag, const fint *c,
                      fint *status, fint *ierr)
{
  MPI_Status s;
  done(MPI_Recv(buf(b), *count, type(t), *src, *tag, comm(c), status_in(status, &s)), ierr);
  status_out(&s, status);
}

EXPORT void mpi_sendrecv_(void *sb, const fint *scount, const fint *st, const fint *dest, const fint *stag, void *rb,
                          const fint *rcount, const fint *rt, const fint *src, const fint *rtag, const fint *c,
                          fint *status, fint *ierr)
{
  MPI_Status s;
  done(MPI_Sendrecv(buf(sb), *scount, type(st), *dest, *stag, buf(rb), *rcount, type(rt), *src, *rtag, comm(c),
                    status_in(status, &s)),
       ierr);
  status_out(&s, status);
}

EXPORT void mpi_sendrecv_replace_(void *b, const fint *count, const fint *t, const fint *dest, const fint *stag,
                                  const fint *src, const fint *rtag, const fint *c, fint *status, fint *ierr)
{
  MPI_Status s;
  done(MPI_Sendrecv_replace(buf(b), *count, type(t), *dest, *stag, *src, *rtag, comm(c), status_in(status, &s)), ierr);
  status_out(&s, status);
}

EXPORT void mpi_probe_(const fint *src, const fint *tag, const fint *c, fint *status, fint *ierr)
{
  MPI_Status s;
  done(MPI_Probe(*src, *tag, comm(c), status_in(status, &s)), ierr);
  status_out(&s, status);
}

EXPORT void mpi_iprobe_(const fint *src, const fint *tag, const fint *c, fint *flag, fint *status, fint *ierr)
{
  MPI_Status s;
  int f = 0;
  trc_poll_outside_begins();
  done(MPI_Iprobe(*src, *tag, comm(c), &f, status_in(status, &s)), ierr);
  *flag = f;
  if (f)
    status_out(&s, status);
  trc_poll_outside_ends();
}

/* Matched probes and receives: Fortran's message handles as C's. */
EXPORT void mpi_mprobe_(const fint *src, const fint *tag, const fint *c, fint *message, fint *status, fint *ierr)
{
  MPI_Status s;
  MPI_Message m = MPI_MESSAGE_NULL;
  done(MPI_Mprobe(*src, *tag, comm(c), &m, status_in(status, &s)), ierr);
  *message = MPI_Message_c2f(m);
  status_out(&s, status);
}

EXPORT void mpi_improbe_(const fint *src, const fint *tag, const fint *c, fint *flag, fint *message, fint *status,
                         fint *ierr)
{
  MPI_Status s;
  MPI_Message m = MPI_MESSAGE_NULL;
  int f = 0;
  done(MPI_Improbe(*src, *tag, comm(c), &f, &m, status_in(status, &s)), ierr);
  *flag = f;
  if (f) {
    *message = MPI_Message_c2f(m);
    status_out(&s, status);
  }
}

EXPORT void mpi_mrecv_(void *b, const fint *count, const fint *t, fint *message, fint *status, fint *ierr)
{
  MPI_Status s;
  MPI_Message m = MPI_Message_f2c(*message);
  done(MPI_Mrecv(buf(b), *count, type(t), &m, status_in(status, &s)), ierr);
  *message = MPI_Message_c2f(m);
  status_out(&s, status);
}

EXPORT void mpi_imrecv_(void *b, const fint *count, const fint *t, fint *message, fint *request, fint *ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  MPI_Message m = MPI_Message_f2c(*message);
  done(MPI_Imrecv(buf(b), *count, type(t), &m, &r), ierr);
  *message = MPI_Message_c2f(m);
  *request = MPI_Request_c2f(r);
}

/* ---- requests ---- */

EXPORT void mpi_wait_(fint *request, fint *status, fint *ierr)
{
  MPI_Status s;
  MPI_Request r = MPI_Request_f2c(*request);
  done(MPI_Wait(&r, status_in(status, &s)), ierr);
  *request = MPI_Request_c2f(r);
  status_out(&s, status);
}

EXPORT void mpi_test_(fint *request, fint *flag, fint *status, fint *ierr)
{
  MPI_Status s;
  int f = 0;
  trc_poll_outside_begins();
  MPI_Request r = MPI_Request_f2c(*request);
  done(MPI_Test(&r, &f, status_in(status, &s)), ierr);
  *request = MPI_Request_c2f(r);
  *flag = f;
  if (f)
    status_out(&s, status);
  trc_poll_outside_ends();
}

EXPORT void mpi_request_get_status_(const fint *request, fint *flag, fint *status, fint *ierr)
{
  MPI_Status s;
  int f = 0;
  trc_poll_outside_begins();
  done(MPI_Request_get_status(MPI_Request_f2c(*request), &f, status_in(status, &s)), ierr);
  *flag = f;
  if (f)
    status_out(&s, status);
  trc_poll_outside_ends();
}

EXPORT void mpi_request_free_(fint *request, fint *ierr)
{
  MPI_Request r = MPI_Request_f2c(*request);
  done(MPI_Request_free(&r), ierr);
  *request = MPI_Request_c2f(r);
}

EXPORT void mpi_cancel_(const fint *request, fint *ierr)
{
  MPI_Request r = MPI_Request_f2c(*request);
  done(MPI_Cancel(&r), ierr);
}

EXPORT void mpi_start_(const fint *request, fint *ierr)
{
  MPI_Request r = MPI_Request_f2c(*request);
  done(MPI_Start(&r), ierr);
}

/* The C requests and statuses of a call on `count` Fortran requests: on the stack for a few, else on the heap. */
typedef struct {
  MPI_Request *requests;
  MPI_Status *statuses; /* MPI_STATUSES_IGNORE when Fortran's are ignored */
  MPI_Request stack_requests[ON_STACK];
  MPI_Status stack_statuses[ON_STACK];
} many_t;

static int many_in(many_t *m, int count, const fint *requests, const fint *statuses)
{
  size_t n = count > 0 ? (size_t)count : 0;
  m->requests = n <= ON_STACK ? m->stack_requests : malloc(n * sizeof *m->requests);
  m->statuses = MPI_STATUSES_IGNORE; /* Open MPI's is NULL */
  if (!ignored(statuses))
    m->statuses = n <= ON_STACK ? m->stack_statuses : malloc(n * sizeof *m->statuses);
  if (!m->requests || (!ignored(statuses) && !m->statuses)) {
    if (m->requests != m->stack_requests)
      free(m->requests);
    m->requests = NULL; /* many_out then leaves Fortran's requests as they were */
    if (m->statuses != m->stack_statuses)
      free(m->statuses);
    m->statuses = MPI_STATUSES_IGNORE;
    return MPI_ERR_NO_MEM;
  }
  for (size_t i = 0; i < n; i++)
    m->requests[i] = MPI_Request_f2c(requests[i]);
  return MPI_SUCCESS;
}

/* The requests back into Fortran's; then the first `n` statuses (0 when Fortran ignores them or none completed), and
 * what many_in took from the heap freed. */
static void many_out(many_t *m, int count, fint *requests, int n, fint *statuses)
{
  for (int i = 0; m->requests && i < count; i++)
    requests[i] = MPI_Request_c2f(m->requests[i]);
  for (int i = 0; m->requests && m->statuses != MPI_STATUSES_IGNORE && i < n; i++)
    MPI_Status_c2f(&m->statuses[i], statuses + (size_t)i * F_STATUS_SIZE);
  if (m->requests != m->stack_requests)
    free(m->requests);
  if (m->statuses != m->stack_statuses && m->statuses != MPI_STATUSES_IGNORE)
    free(m->statuses);
}

EXPORT void mpi_waitall_(const fint *count, fint *requests, fint *statuses, fint *ierr)
{
  many_t m;
  trc_call_outside_begins();
  int rc = many_in(&m, *count, requests, statuses);
  if (rc == MPI_SUCCESS)
    rc = MPI_Waitall(*count, m.requests, m.statuses);
  many_out(&m, *count, requests, *count, statuses);
  done(rc, ierr);
  trc_call_outside_ends();
}

EXPORT void mpi_testall_(const fint *count, fint *requests, fint *flag, fint *statuses, fint *ierr)
{
  many_t m;
  int f = 0;
  trc_poll_outside_begins();
  int rc = many_in(&m, *count, requests, statuses);
  if (rc == MPI_SUCCESS)
    rc = MPI_Testall(*count, m.requests, &f, m.statuses);
  many_out(&m, *count, requests, f ? *count : 0, statuses);
  *flag = f;
  done(rc, ierr);
  trc_poll_outside_ends();
}

EXPORT void mpi_startall_(const fint *count, fint *requests, fint *ierr)
{
  many_t m;
  trc_call_outside_begins();
  int rc = many_in(&m, *count, requests, &mpi_fortran_statuses_ignore_);
  if (rc == MPI_SUCCESS)
    rc = MPI_Startall(*count, m.requests);
  many_out(&m, *count, requests, 0, NULL);
  done(rc, ierr);
  trc_call_outside_ends();
}

/* Before a wait's or test's conversions of many requests: a test's conversions are its poll's time
 * (trc_poll_outside_begins), a wait's the recorder's (trc_call_outside_begins). */
static void conversions_begin(int poll)
{
  if (poll)
    trc_poll_outside_begins();
  else
    trc_call_outside_begins();
}

/* After them, as conversions_begin. */
static void conversions_end(int poll)
{
  if (poll)
    trc_poll_outside_ends();
  else
    trc_call_outside_ends();
}

/* Waitany and Testany: one status, the index counted from 1 as Fortran counts; the conversions as conversions_begin
 * says. */
static void one_of(int (*call)(int, MPI_Request[], int *, int *, MPI_Status *), const fint *count, fint *requests,
                   fint *index, fint *flag, fint *status, fint *ierr)
{
  many_t m;
  MPI_Status s;
  int at = MPI_UNDEFINED;
  int f = 0;
  conversions_begin(call == MPI_Testany);
  int rc = many_in(&m, *count, requests, &mpi_fortran_statuses_ignore_);
  if (rc == MPI_SUCCESS)
    rc = call(*count, m.requests, &at, &f, status_in(status, &s));
  many_out(&m, *count, requests, 0, NULL);
  *index = at == MPI_UNDEFINED ? MPI_UNDEFINED : at + 1;
  if (flag)
    *flag = f;
  if (f && at != MPI_UNDEFINED)
    status_out(&s, status);
  done(rc, ierr);
  conversions_end(call == MPI_Testany);
}

static int waitany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
  *flag = 1;
  return MPI_Waitany(count, requests, index, status);
}

EXPORT void mpi_waitany_(const fint *count, fint *requests, fint *index, fint *status, fint *ierr)
{
  one_of(waitany, count, requests, index, NULL, status, ierr);
}

EXPORT void mpi_testany_(const fint *count, fint *requests, fint *index, fint *flag, fint *status, fint *ierr)
{
  one_of(MPI_Testany, count, requests, index, flag, status, ierr);
}

/* Waitsome and Testsome: the indices counted from 1, a status for each in the indices' order; the conversions as
 * conversions_begin says. */
static void some_of(int (*call)(int, MPI_Request[], int *, int[], MPI_Status[]), const fint *incount, fint *requests,
                    fint *outcount, fint *indices, fint *statuses, fint *ierr)
{
  many_t m;
  int out = MPI_UNDEFINED;
  conversions_begin(call == MPI_Testsome);
  int rc = many_in(&m, *incount, requests, statuses);
  if (rc == MPI_SUCCESS)
    rc = call(*incount, m.requests, &out, indices, m.statuses);
  int n = rc == MPI_SUCCESS && out != MPI_UNDEFINED ? out : 0;
  many_out(&m, *incount, requests, n, statuses);
  for (int i = 0; i < n; i++)
    indices[i] += 1;
  *outcount = out;
  done(rc, ierr);
  conversions_end(call == MPI_Testsome);
}

EXPORT void mpi_waitsome_(const fint *incount, fint *requests, fint *outcount, fint *indices, fint *statuses,
                          fint *ierr)
{
  some_of(MPI_Waitsome, incount, requests, outcount, indices, statuses, ierr);
}

EXPORT void mpi_testsome_(const fint *incount, fint *requests, fint *outcount, fint *indices, fint *statuses,
                          fint *ierr)
{
  some_of(MPI_Testsome, incount, requests, outcount, indices, statuses, ierr);
}

/* ---- collectives ---- */

EXPORT void mpi_barrier_(const fint *c, fint *ierr)
{
  done(MPI_Barrier(comm(c)), ierr);
}

EXPORT void mpi_bcast_(void *b, const fint *count, const fint *t, const fint *root, const fint *c, fint *ierr)
{
  done(MPI_Bcast(buf(b), *count, type(t), *root, comm(c)), ierr);
}

EXPORT void mpi_reduce_(void *sb, void *rb, const fint *count, const fint *t, const fint *o, const fint *root,
                        const fint *c, fint *ierr)
{
  done(MPI_Reduce(buf(sb), buf(rb), *count, type(t), op(o), *root, comm(c)), ierr);
}

#define REDUCTION(fname, cname)                                                                                        \
  EXPORT void fname(void *sb, void *rb, const fint *count, const fint *t, const fint *o, const fint *c, fint *ierr)    \
  {                                                                                                                    \
    done(cname(buf(sb), buf(rb), *count, type(t), op(o), comm(c)), ierr);                                              \
  }
REDUCTION(mpi_allreduce_, MPI_Allreduce)
REDUCTION(mpi_scan_, MPI_Scan)
REDUCTION(mpi_exscan_, MPI_Exscan)

EXPORT void mpi_reduce_scatter_(void *sb, void *rb, const fint *counts, const fint *t, const fint *o, const fint *c,
                                fint *ierr)
{
  done(MPI_Reduce_scatter(buf(sb), buf(rb), counts, type(t), op(o), comm(c)), ierr);
}

#define ROOTED(fname, cname)                                                                                           \
  EXPORT void fname(void *sb, const fint *scount, const fint *st, void *rb, const fint *rcount, const fint *rt,        \
                    const fint *root, const fint *c, fint *ierr)                                                       \
  {                                                                                                                    \
    done(cname(buf(sb), *scount, type(st), buf(rb), *rcount, type(rt), *root, comm(c)), ierr);                         \
  }
ROOTED(mpi_gather_, MPI_Gather)
ROOTED(mpi_scatter_, MPI_Scatter)

#define ALL_TO(fname, cname)                                                                                           \
  EXPORT void fname(void *sb, const fint *scount, const fint *st, void *rb, const fint *rcount, const fint *rt,        \
                    const fint *c, fint *ierr)                                                                         \
  {                                                                                                                    \
    done(cname(buf(sb), *scount, type(st), buf(rb), *rcount, type(rt), comm(c)), ierr);                                \
  }
ALL_TO(mpi_allgather_, MPI_Allgather)
ALL_TO(mpi_alltoall_, MPI_Alltoall)

EXPORT void mpi_reduce_scatter_block_(void *sb, void *rb, const fint *count, const fint *t, const fint *o,
                                      const fint *c, fint *ierr)
{
  done(MPI_Reduce_scatter_block(buf(sb), buf(rb), *count, type(t), op(o), comm(c)), ierr);
}

EXPORT void mpi_gatherv_(void *sb, const fint *scount, const fint *st, void *rb, const fint *rcounts,
                         const fint *displs, const fint *rt, const fint *root, const fint *c, fint *ierr)
{
  done(MPI_Gatherv(buf(sb), *scount, type(st), buf(rb), rcounts, displs, type(rt), *root, comm(c)), ierr);
}

EXPORT void mpi_scatterv_(void *sb, const fint *scounts, const fint *displs, const fint *st, void *rb,
                          const fint *rcount, const fint *rt, const fint *root, const fint *c, fint *ierr)
{
  done(MPI_Scatterv(buf(sb), scounts, displs, type(st), buf(rb), *rcount, type(rt), *root, comm(c)), ierr);
}

EXPORT void mpi_allgatherv_(void *sb, const fint *scount, const fint *st, void *rb, const fint *rcounts,
                            const fint *displs, const fint *rt, const fint *c, fint *ierr)
{
  done(MPI_Allgatherv(buf(sb), *scount, type(st), buf(rb), rcounts, displs, type(rt), comm(c)), ierr);
}

EXPORT void mpi_alltoallv_(void *sb, const fint *scounts, const fint *sdispls, const fint *st, void *rb,
                           const fint *rcounts, const fint *rdispls, const fint *rt, const fint *c, fint *ierr)
{
  done(MPI_Alltoallv(buf(sb), scounts, sdispls, type(st), buf(rb), rcounts, rdispls, type(rt), comm(c)), ierr);
}

/* Non-blocking collectives: the C wrappers time and count them (trc_mpi_coll.c). */

/* The request a non-blocking call posted, back into Fortran's, and its return code. */
static void posted(int rc, MPI_Request r, fint *request, fint *ierr)
{
  *request = MPI_Request_c2f(r);
  done(rc, ierr);
}

EXPORT void mpi_ibarrier_(const fint *c, fint *request, fint *ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  int rc = MPI_Ibarrier(comm(c), &r);
  posted(rc, r, request, ierr);
}

EXPORT void mpi_ibcast_(void *b, const fint *count, const fint *t, const fint *root, const fint *c, fint *request,
                        fint *ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  int rc = MPI_Ibcast(buf(b), *count, type(t), *root, comm(c), &r);
  posted(rc, r, request, ierr);
}

EXPORT void mpi_ireduce_(void *sb, void *rb, const fint *count, const fint *t, const fint *o, const fint *root,
                         const fint *c, fint *request, fint *ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  int rc = MPI_Ireduce(buf(sb), buf(rb), *count, type(t), op(o), *root, comm(c), &r);
  posted(rc, r, request, ierr);
}

/* The gathers, scatters and all-to-alls of Debian's CP2K (whose mpi_cart_sub_ and these went untraced, unnamed). */
#define I_ALL_TO(fname, cname)                                                                                         \
  EXPORT void fname(void *sb, const fint *scount, const fint *st, void *rb, const fint *rcount, const fint *rt,        \
                    const fint *c, fint *request, fint *ierr)                                                          \
  {                                                                                                                    \
    MPI_Request r = MPI_REQUEST_NULL;                                                                                  \
    int rc = cname(buf(sb), *scount, type(st), buf(rb), *rcount, type(rt), comm(c), &r);                               \
    posted(rc, r, request, ierr);                                                                                      \
  }
#define I_REDUCTION(fname, cname)                                                                                      \
  EXPORT void fname(void *sb, void *rb, const fint *count, const fint *t, const fint *o, const fint *c, fint *request, \
                    fint *ierr)                                                                                        \
  {                                                                                                                    \
    MPI_Request r = MPI_REQUEST_NULL;                                                                                  \
    int rc = cname(buf(sb), buf(rb), *count, type(t), op(o), comm(c), &r);                                             \
    posted(rc, r, request, ierr);                                                                                      \
  }
I_REDUCTION(mpi_iallreduce_, MPI_Iallreduce)
I_REDUCTION(mpi_iscan_, MPI_Iscan)
I_REDUCTION(mpi_iexscan_, MPI_Iexscan)
I_REDUCTION(mpi_ireduce_scatter_block_, MPI_Ireduce_scatter_block)

EXPORT void mpi_ireduce_scatter_(void *sb, void *rb, const fint *counts, const fint *t, const fint *o, const fint *c,
                                 fint *request, fint *ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  int rc = MPI_Ireduce_scatter(buf(sb), buf(rb), counts, type(t), op(o), comm(c), &r);
  posted(rc, r, request, ierr);
}

I_ALL_TO(mpi_iallgather_, MPI_Iallgather)
I_ALL_TO(mpi_ialltoall_, MPI_Ialltoall)

#define I_ROOTED(fname, cname)                                                                                         \
  EXPORT void fname(void *sb, const fint *scount, const fint *st, void *rb, const fint *rcount, const fint *rt,        \
                    const fint *root, const fint *c, fint *request, fint *ierr)                                        \
  {                                                                                                                    \
    MPI_Request r = MPI_REQUEST_NULL;                                                                                  \
    int rc = cname(buf(sb), *scount, type(st), buf(rb), *rcount, type(rt), *root, comm(c), &r);                        \
    posted(rc, r, request, ierr);                                                                                      \
  }
I_ROOTED(mpi_igather_, MPI_Igather)
I_ROOTED(mpi_iscatter_, MPI_Iscatter)

EXPORT void mpi_iallgatherv_(void *sb, const fint *scount, const fint *st, void *rb, const fint *rcounts,
                             const fint *displs, const fint *rt, const fint *c, fint *request, fint *ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  int rc = MPI_Iallgatherv(buf(sb), *scount, type(st), buf(rb), rcounts, displs, type(rt), comm(c), &r);
  posted(rc, r, request, ierr);
}

EXPORT void mpi_igatherv_(void *sb, const fint *scount, const fint *st, void *rb, const fint *rcounts,
                          const fint *displs, const fint *rt, const fint *root, const fint *c, fint *request,
                          fint *ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  int rc = MPI_Igatherv(buf(sb), *scount, type(st), buf(rb), rcounts, displs, type(rt), *root, comm(c), &r);
  posted(rc, r, request, ierr);
}

EXPORT void mpi_iscatterv_(void *sb, const fint *scounts, const fint *displs, const fint *st, void *rb,
                           const fint *rcount, const fint *rt, const fint *root, const fint *c, fint *request,
                           fint *ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  int rc = MPI_Iscatterv(buf(sb), scounts, displs, type(st), buf(rb), *rcount, type(rt), *root, comm(c), &r);
  posted(rc, r, request, ierr);
}

EXPORT void mpi_ialltoallv_(void *sb, const fint *scounts, const fint *sdispls, const fint *st, void *rb,
                            const fint *rcounts, const fint *rdispls, const fint *rt, const fint *c, fint *request,
                            fint *ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  int rc = MPI_Ialltoallv(buf(sb), scounts, sdispls, type(st), buf(rb), rcounts, rdispls, type(rt), comm(c), &r);
  posted(rc, r, request, ierr);
}

/* ---- communicators ---- */

EXPORT void mpi_comm_split_(const fint *c, const fint *color, const fint *key, fint *newcomm, fint *ierr)
{
  MPI_Comm made = MPI_COMM_NULL;
  done(MPI_Comm_split(comm(c), *color, *key, &made), ierr);
  *newcomm = MPI_Comm_c2f(made);
}

EXPORT void mpi_comm_dup_(const fint *c, fint *newcomm, fint *ierr)
{
  MPI_Comm made = MPI_COMM_NULL;
  done(MPI_Comm_dup(comm(c), &made), ierr);
  *newcomm = MPI_Comm_c2f(made);
}

EXPORT void mpi_comm_dup_with_info_(const fint *c, const fint *info, fint *newcomm, fint *ierr)
{
  MPI_Comm made = MPI_COMM_NULL;
  done(MPI_Comm_dup_with_info(comm(c), MPI_Info_f2c(*info), &made), ierr);
  *newcomm = MPI_Comm_c2f(made);
}

EXPORT void mpi_comm_create_group_(const fint *c, const fint *group, const fint *tag, fint *newcomm, fint *ierr)
{
  MPI_Comm made = MPI_COMM_NULL;
  done(MPI_Comm_create_group(comm(c), MPI_Group_f2c(*group), *tag, &made), ierr);
  *newcomm = MPI_Comm_c2f(made);
}

EXPORT void mpi_comm_create_(const fint *c, const fint *group, fint *newcomm, fint *ierr)
{
  MPI_Comm made = MPI_COMM_NULL;
  done(MPI_Comm_create(comm(c), MPI_Group_f2c(*group), &made), ierr);
  *newcomm = MPI_Comm_c2f(made);
}

EXPORT void mpi_comm_free_(fint *c, fint *ierr)
{
  MPI_Comm freed = comm(c);
  done(MPI_Comm_free(&freed), ierr);
  *c = MPI_Comm_c2f(freed);
}

EXPORT void mpi_cart_create_(const fint *c, const fint *ndims, const fint *dims, const fint *periods,
                             const fint *reorder, fint *newcomm, fint *ierr)
{
  int n = *ndims > 0 ? *ndims : 0;
  int *flags = malloc((size_t)(n > 0 ? n : 1) * sizeof *flags);
  if (!flags) {
    done(MPI_ERR_NO_MEM, ierr);
    return;
  }
  for (int i = 0; i < n; i++)
    flags[i] = periods[i] != 0; /* Fortran's LOGICAL: gfortran's .true. is 1, .false. 0 */
  MPI_Comm made = MPI_COMM_NULL;
  done(MPI_Cart_create(comm(c), *ndims, dims, flags, *reorder != 0, &made), ierr);
  *newcomm = MPI_Comm_c2f(made);
  free(flags);
}

/* CP2K's sub-grids: remain_dims, Fortran's LOGICALs, as C's ints (one per dimension of the Cartesian communicator). */
EXPORT void mpi_cart_sub_(const fint *c, const fint *remain, fint *newcomm, fint *ierr)
{
  int n = 0;
  int rc = PMPI_Cartdim_get(comm(c), &n);
  int *flags = rc == MPI_SUCCESS ? malloc((size_t)(n > 0 ? n : 1) * sizeof *flags) : NULL;
  if (!flags) {
    done(rc == MPI_SUCCESS ? MPI_ERR_NO_MEM : rc, ierr);
    return;
  }
  for (int i = 0; i < n; i++)
    flags[i] = remain[i] != 0;
  MPI_Comm made = MPI_COMM_NULL;
  done(MPI_Cart_sub(comm(c), flags, &made), ierr);
  *newcomm = MPI_Comm_c2f(made);
  free(flags);
}

EXPORT void mpi_comm_split_type_(const fint *c, const fint *split, const fint *key, const fint *info, fint *newcomm,
                                 fint *ierr)
{
  MPI_Comm made = MPI_COMM_NULL;
  done(MPI_Comm_split_type(comm(c), *split, *key, MPI_Info_f2c(*info), &made), ierr);
  *newcomm = MPI_Comm_c2f(made);
}

/* ---- one-sided communication and MPI-IO: the calls that open them, named at MPI_Finalize (trc_mpi_other.c), and the
 * other one-sided calls ---- */

EXPORT void mpi_win_create_(void *base, const MPI_Aint *size, const fint *disp_unit, const fint *info, const fint *c,
                            fint *win, fint *ierr)
{
  MPI_Win made = MPI_WIN_NULL;
  done(MPI_Win_create(buf(base), *size, *disp_unit, MPI_Info_f2c(*info), comm(c), &made), ierr);
  *win = MPI_Win_c2f(made);
}

/* The windows made by allocation: `baseptr` is Fortran's INTEGER(KIND=MPI_ADDRESS_KIND) (or `use mpi_f08`'s C_PTR),
 * into which C's call writes the memory's address, as Open MPI's binding passes it. */
#define WIN_ALLOCATED(fname, cname)                                                                                    \
  EXPORT void fname(const MPI_Aint *size, const fint *disp_unit, const fint *info, const fint *c, void *baseptr,       \
                    fint *win, fint *ierr)                                                                             \
  {                                                                                                                    \
    MPI_Win made = MPI_WIN_NULL;                                                                                       \
    done(cname(*size, *disp_unit, MPI_Info_f2c(*info), comm(c), baseptr, &made), ierr);                                \
    *win = MPI_Win_c2f(made);                                                                                          \
  }
WIN_ALLOCATED(mpi_win_allocate_, MPI_Win_allocate)
WIN_ALLOCATED(mpi_win_allocate_shared_, MPI_Win_allocate_shared)

EXPORT void mpi_win_create_dynamic_(const fint *info, const fint *c, fint *win, fint *ierr)
{
  MPI_Win made = MPI_WIN_NULL;
  done(MPI_Win_create_dynamic(MPI_Info_f2c(*info), comm(c), &made), ierr);
  *win = MPI_Win_c2f(made);
}

/* The one-sided calls past the window's making, counted and timed by the C wrappers (trc_mpi_rma.c): before, Open MPI's
 * Fortran bindings reached PMPI_ past them, and a Fortran program's puts and fences went uncounted. */
static MPI_Win win_of(const fint *f)
{
  return MPI_Win_f2c(*f);
}

#define TRANSFER(fname, cname)                                                                                         \
  EXPORT void fname(void *o, const fint *ocount, const fint *ot, const fint *target, const MPI_Aint *disp,             \
                    const fint *tcount, const fint *tt, const fint *w, fint *ierr)                                     \
  {                                                                                                                    \
    done(cname(buf(o), *ocount, type(ot), *target, *disp, *tcount, type(tt), win_of(w)), ierr);                        \
  }
TRANSFER(mpi_put_, MPI_Put)
TRANSFER(mpi_get_, MPI_Get)

#define R_TRANSFER(fname, cname)                                                                                       \
  EXPORT void fname(void *o, const fint *ocount, const fint *ot, const fint *target, const MPI_Aint *disp,             \
                    const fint *tcount, const fint *tt, const fint *w, fint *request, fint *ierr)                      \
  {                                                                                                                    \
    MPI_Request r = MPI_REQUEST_NULL;                                                                                  \
    done(cname(buf(o), *ocount, type(ot), *target, *disp, *tcount, type(tt), win_of(w), &r), ierr);                    \
    *request = MPI_Request_c2f(r);                                                                                     \
  }
R_TRANSFER(mpi_rput_, MPI_Rput)
R_TRANSFER(mpi_rget_, MPI_Rget)

EXPORT void mpi_accumulate_(void *o, const fint *ocount, const fint *ot, const fint *target, const MPI_Aint *disp,
                            const fint *tcount, const fint *tt, const fint *o_p, const fint *w, fint *ierr)
{
  done(MPI_Accumulate(buf(o), *ocount, type(ot), *target, *disp, *tcount, type(tt), op(o_p), win_of(w)), ierr);
}

EXPORT void mpi_raccumulate_(void *o, const fint *ocount, const fint *ot, const fint *target, const MPI_Aint *disp,
                             const fint *tcount, const fint *tt, const fint *o_p, const fint *w, fint *request,
                             fint *ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  done(MPI_Raccumulate(buf(o), *ocount, type(ot), *target, *disp, *tcount, type(tt), op(o_p), win_of(w), &r), ierr);
  *request = MPI_Request_c2f(r);
}

EXPORT void mpi_get_accumulate_(void *o, const fint *ocount, const fint *ot, void *result, const fint *rcount,
                                const fint *rt, const fint *target, const MPI_Aint *disp, const fint *tcount,
                                const fint *tt, const fint *o_p, const fint *w, fint *ierr)
{
  done(MPI_Get_accumulate(buf(o), *ocount, type(ot), buf(result), *rcount, type(rt), *target, *disp, *tcount, type(tt),
                          op(o_p), win_of(w)),
       ierr);
}

EXPORT void mpi_rget_accumulate_(void *o, const fint *ocount, const fint *ot, void *result, const fint *rcount,
                                 const fint *rt, const fint *target, const MPI_Aint *disp, const fint *tcount,
                                 const fint *tt, const fint *o_p, const fint *w, fint *request, fint *ierr)
{
  MPI_Request r = MPI_REQUEST_NULL;
  done(MPI_Rget_accumulate(buf(o), *ocount, type(ot), buf(result), *rcount, type(rt), *target, *disp, *tcount, type(tt),
                           op(o_p), win_of(w), &r),
       ierr);
  *request = MPI_Request_c2f(r);
}

EXPORT void mpi_fetch_and_op_(void *o, void *result, const fint *t, const fint *target, const MPI_Aint *disp,
                              const fint *o_p, const fint *w, fint *ierr)
{
  done(MPI_Fetch_and_op(buf(o), buf(result), type(t), *target, *disp, op(o_p), win_of(w)), ierr);
}

EXPORT void mpi_compare_and_swap_(void *o, void *compare, void *result, const fint *t, const fint *target,
                                  const MPI_Aint *disp, const fint *w, fint *ierr)
{
  done(MPI_Compare_and_swap(buf(o), buf(compare), buf(result), type(t), *target, *disp, win_of(w)), ierr);
}

/* Synchronisations of the window alone, of a target rank, of an assertion, of a group and an assertion. */
#define WIN_SYNC(fname, cname)                                                                                         \
  EXPORT void fname(const fint *w, fint *ierr)                                                                         \
  {                                                                                                                    \
    done(cname(win_of(w)), ierr);                                                                                      \
  }
WIN_SYNC(mpi_win_unlock_all_, MPI_Win_unlock_all)
WIN_SYNC(mpi_win_flush_all_, MPI_Win_flush_all)
WIN_SYNC(mpi_win_flush_local_all_, MPI_Win_flush_local_all)
WIN_SYNC(mpi_win_sync_, MPI_Win_sync)
WIN_SYNC(mpi_win_complete_, MPI_Win_complete)
WIN_SYNC(mpi_win_wait_, MPI_Win_wait)

#define WIN_OF_INT(fname, cname)                                                                                       \
  EXPORT void fname(const fint *value, const fint *w, fint *ierr)                                                      \
  {                                                                                                                    \
    done(cname(*value, win_of(w)), ierr);                                                                              \
  }
WIN_OF_INT(mpi_win_fence_, MPI_Win_fence)
WIN_OF_INT(mpi_win_lock_all_, MPI_Win_lock_all)
WIN_OF_INT(mpi_win_unlock_, MPI_Win_unlock)
WIN_OF_INT(mpi_win_flush_, MPI_Win_flush)
WIN_OF_INT(mpi_win_flush_local_, MPI_Win_flush_local)

#define WIN_OF_GROUP(fname, cname)                                                                                     \
  EXPORT void fname(const fint *group, const fint *assertion, const fint *w, fint *ierr)                               \
  {                                                                                                                    \
    done(cname(MPI_Group_f2c(*group), *assertion, win_of(w)), ierr);                                                   \
  }
WIN_OF_GROUP(mpi_win_post_, MPI_Win_post)
WIN_OF_GROUP(mpi_win_start_, MPI_Win_start)

EXPORT void mpi_win_lock_(const fint *lock_type, const fint *target, const fint *assertion, const fint *w, fint *ierr)
{
  done(MPI_Win_lock(*lock_type, *target, *assertion, win_of(w)), ierr);
}

EXPORT void mpi_win_test_(const fint *w, fint *flag, fint *ierr)
{
  int f = 0;
  done(MPI_Win_test(win_of(w), &f), ierr);
  *flag = f;
}

EXPORT void mpi_win_free_(fint *w, fint *ierr)
{
  MPI_Win c = win_of(w);
  done(MPI_Win_free(&c), ierr);
  *w = MPI_Win_c2f(c);
}

/* The file name: Fortran's characters (`len` of them, the hidden argument gfortran passes last, a size_t since
 * gfortran 8), blanks at the end dropped. */
EXPORT void mpi_file_open_(const fint *c, const char *name, const fint *amode, const fint *info, fint *fh, fint *ierr,
                           size_t len)
{
  while (len > 0 && name[len - 1] == ' ')
    len--;
  char *path = malloc(len + 1);
  if (!path) {
    done(MPI_ERR_NO_MEM, ierr);
    return;
  }
  memcpy(path, name, len);
  path[len] = '\0';
  MPI_File file = MPI_FILE_NULL;
  done(MPI_File_open(comm(c), path, *amode, MPI_Info_f2c(*info), &file), ierr);
  *fh = MPI_File_c2f(file);
  free(path);
}

/* ---- `use mpi_f08` ---- */

/* Open MPI 4.1's mpi_f08 bindings (libmpi_usempif08) pass a handle's MPI_VAL, a status's integers and gfortran's
 * LOGICALs to the mpif.h bindings, most through their implementation's name ompi_NAME_f (the same function as
 * mpi_NAME_, `nm -D libmpi_mpifh.so`), those with a LOGICAL argument through pmpi_NAME_, all of them by the PLT: both
 * names, bound to the traced binding above, trace a `use mpi_f08` program as `use mpi` traces it
 * (tests/data/tracer/fortran_f08.f90). A program using mpif.h or `use mpi` calls mpi_NAME_ and never these. */
#define F08(name)  EXPORT extern __typeof__(mpi_##name##_) ompi_##name##_f __attribute__((alias("mpi_" #name "_")))
#define F08P(name) EXPORT extern __typeof__(mpi_##name##_) pmpi_##name##_ __attribute__((alias("mpi_" #name "_")))
F08(abort);
F08(allgather);
F08(allgatherv);
F08(allreduce);
F08(alltoall);
F08(alltoallv);
F08(barrier);
F08(bcast);
F08(bsend);
F08(bsend_init);
F08(cancel);
F08(comm_create);
F08(comm_create_group);
F08(comm_dup);
F08(comm_dup_with_info);
F08(comm_free);
F08(comm_split);
F08(comm_split_type);
F08(exscan);
F08(file_open);
F08(finalize);
F08(gather);
F08(gatherv);
F08(iallgather);
F08(iallgatherv);
F08(iallreduce);
F08(ialltoall);
F08(ialltoallv);
F08(ibarrier);
F08(ibcast);
F08(ibsend);
F08(iexscan);
F08(igather);
F08(igatherv);
F08(imrecv);
F08(init);
F08(init_thread);
F08(irecv);
F08(ireduce);
F08(ireduce_scatter);
F08(ireduce_scatter_block);
F08(irsend);
F08(iscan);
F08(iscatter);
F08(iscatterv);
F08(isend);
F08(issend);
F08(mprobe);
F08(mrecv);
F08(probe);
F08(recv);
F08(recv_init);
F08(reduce);
F08(reduce_scatter);
F08(reduce_scatter_block);
F08(request_free);
F08(rsend);
F08(rsend_init);
F08(scan);
F08(scatter);
F08(scatterv);
F08(send);
F08(send_init);
F08(sendrecv);
F08(sendrecv_replace);
F08(ssend);
F08(ssend_init);
F08(start);
F08(startall);
F08(wait);
F08(waitall);
F08(waitany);
F08(waitsome);
F08(win_create);
F08(win_allocate);
F08(win_allocate_shared);
F08(win_create_dynamic);
F08(put);
F08(get);
F08(rput);
F08(rget);
F08(accumulate);
F08(raccumulate);
F08(get_accumulate);
F08(rget_accumulate);
F08(fetch_and_op);
F08(compare_and_swap);
F08(win_fence);
F08(win_lock);
F08(win_unlock);
F08(win_lock_all);
F08(win_unlock_all);
F08(win_flush);
F08(win_flush_all);
F08(win_flush_local);
F08(win_flush_local_all);
F08(win_sync);
F08(win_post);
F08(win_start);
F08(win_complete);
F08(win_wait);
F08(win_free);
F08P(cart_create);
F08P(cart_sub);
F08P(improbe);
F08P(iprobe);
F08P(request_get_status);
F08P(test);
F08P(testall);
F08P(testany);
F08P(testsome);
F08P(win_test);
