/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The PMPI wrappers of libsimrun-trace.so: each traced MPI call is timed and written as a TI action (the names and
 * fields of SimGrid 3.32's smpi_replay.cpp, sizes in bytes) and a timeline interval. Here start, end and point to
 * point; the collectives and the calls only counted are trc_mpi_coll.c's. Built with Open MPI's flags, never SimGrid.
 */
#define _GNU_SOURCE /* O_TMPFILE */
#include "trc_bind.h"
#include "trc_comm.h"
#include "trc_mpi_util.h"
#include "trc_preload.h"
#include "trc_request.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int started;    /* MPI_Init went through these wrappers, and MPI_Finalize not yet */
static int world_size; /* MPI_COMM_WORLD's, at MPI_Init */
static int world_rank; /* this process's rank in it */
static int init_seen;  /* MPI_Init or MPI_Init_thread went through them, traced or not */
static int aborted;    /* MPI_Abort was called: the run's files stay as they are (finish_at_exit) */

/* ---- start and end ---- */

/* Time 0 after the barrier: each rank reads its clock as it leaves, but a rank descheduled there (more ranks than
 * cores) would read it milliseconds late, and its timeline would be early by as much against the others', against
 * causality. The ranks on rank 0's host read the same CLOCK_MONOTONIC: they take rank 0's time 0 (docs/tracer.md).
 * Rank 0's host, process id and wall-clock time then are the run's identity, on every rank's "# run" line. */
static void share_time_zero(int rank)
{
  struct {
    long long sec, nsec;
    struct timespec wall;
    long pid;
    char host[256];
  } zero = {0}, mine = {0};
  trc_time_zero(&mine.sec, &mine.nsec);
  clock_gettime(CLOCK_REALTIME, &mine.wall);
  mine.pid = (long)getpid();
  if (gethostname(mine.host, sizeof mine.host - 1) != 0)
    mine.host[0] = '\0';
  zero = mine;
  PMPI_Bcast(&zero, (int)sizeof zero, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (rank != 0 && mine.host[0] && strcmp(zero.host, mine.host) == 0)
    trc_time_zero_at(zero.sec, zero.nsec);
  char id[320];
  snprintf(id, sizeof id, "%s %ld %lld.%09ld", zero.host[0] ? zero.host : "-", zero.pid, (long long)zero.wall.tv_sec,
           zero.wall.tv_nsec);
  trc_run_id(id);
}

/* `n` unsuccessful MPI_Testany calls as the wrapper makes them, the recorder's part around a test of a null request,
 * or the tests alone (`traced` 0), for trc_measure_polls. A test of a real request that nothing matches took some
 * 25 ms of CPU per rank at p = 4 on 2 cores, where Open MPI yields the processor at each such test (oversubscribed: a
 * system call); a null request's returns at once. The recorder alone, without a test between its calls, cost more
 * than in a program, whose work overlaps the clock's latency: bench/trc_polling.c's TI amounts came out 14-16% short
 * of its untraced CPU time so, 6-12% with the test (p = 1, 4 runs each, load 13-18). */
static void recorder_polls(long n, int traced)
{
  MPI_Request none = MPI_REQUEST_NULL, kept[TRC_REQ_KEPT];
  int index = 0, flag = 0;
  for (long i = 0; i < n; i++) {
    if (!traced) {
      PMPI_Testany(1, &none, &index, &flag, MPI_STATUS_IGNORE);
      continue;
    }
    double t = trc_enter_poll();
    MPI_Request *copy = trc_req_keep(1, &none, kept); /* tested: the copy is made, as the wrapper's is */
    PMPI_Testany(1, copy, &index, &flag, MPI_STATUS_IGNORE);
    trc_poll(t, "MPI_Testany");
  }
}

/* The recorder's cost per unsuccessful poll (trc_measure_polls), on POLL_SAMPLE polls per trial: short trials, so
 * that the least of them is one no interrupt or preemption disturbed. Some 0.2 ms in all. */
enum { POLL_SAMPLE = 500 };

/* Whether MPI_Comm_spawn started this process (Rmpi's workers, a manager's children): its MPI_COMM_WORLD is its
 * group's, whose ranks, numbered from 0 too, would write over the traced run's files in its folder. Said once, by the
 * group's rank 0; the run that spawned them names the call at MPI_Finalize. */
static int spawned(int rank, int size)
{
  MPI_Comm parent = MPI_COMM_NULL;
  if (PMPI_Comm_get_parent(&parent) != MPI_SUCCESS || parent == MPI_COMM_NULL)
    return 0;
  if (rank == 0)
    fprintf(stderr,
            "simrun-trace: warning: the %d process(es) MPI_Comm_spawn started are not traced: they are outside the "
            "traced run, in whose folder their ranks' files would replace its own\n",
            size);
  return 1;
}

/* CLOCK_`id` now, in seconds. */
static double clock_seconds(clockid_t id)
{
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The process's age in seconds, from its start (/proc/self/stat's starttime, in clock ticks since boot: 10 ms here)
 * to now, or NAN where it cannot be read. */
static double process_age(void)
{
  char text[1024];
  FILE *in = fopen("/proc/self/stat", "r");
  size_t len = in ? fread(text, 1, sizeof text - 1, in) : 0;
  if (in)
    fclose(in);
  text[len] = '\0';
  const char *at = strrchr(text, ')'); /* after the command's name, which may hold spaces and parentheses */
  unsigned long long ticks = 0;
  long hz = sysconf(_SC_CLK_TCK);
  /* fields 3 to 21 skipped, then field 22, starttime */
  if (!at || hz <= 0 ||
      sscanf(at + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &ticks) != 1)
    return NAN;
  return clock_seconds(CLOCK_BOOTTIME) - (double)ticks / (double)hz;
}

/* At the entry into MPI_Init: the time of the call and the process's age then (trc_startup_said). */
static double init_called, age_at_init;

static void init_entered(void)
{
  init_seen = 1;
  init_called = clock_seconds(CLOCK_MONOTONIC);
  age_at_init = process_age();
}

static void start(void)
{
  int size = trc_comm_size(MPI_COMM_WORLD);
  int rank = trc_world_rank();
  started = 1;
  world_size = size;
  world_rank = rank;
  trc_owner_only();
  trc_bind_note(); /* the binding at MPI_Init, for index.txt */
  /* calibration before the barrier: the ranks start together */
  int on = !spawned(rank, size) && trc_start(rank, size) == 0;
  if (on)
    trc_measure_polls(recorder_polls, POLL_SAMPLE);
  PMPI_Barrier(MPI_COMM_WORLD); /* a common time 0 for the ranks' timelines */
  share_time_zero(rank);
  trc_startup_said(init_called, age_at_init);
  if (on && rank == 0)
    fprintf(stderr, "simrun-trace: tracing %d rank(s) into %s\n", size, trc_dir());
  trc_time_started();
}

EXPORT int MPI_Init(int *argc, char ***argv)
{
  init_entered();
  trc_preload_drop(); /* the rank's children are not ranks (trc_preload.h) */
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS)
    start();
  return rc;
}

/* The recorder keeps one timeline per rank: at every thread level only the thread that initialises MPI is recorded
 * (trc_owner_only, in start). Many programs ask for MPI_THREAD_MULTIPLE and call MPI from that thread alone; a run
 * whose other threads called MPI is named at MPI_Finalize and left without an index. StarPU-MPI initialises MPI at
 * MPI_THREAD_SERIALIZED in its progress thread, which makes every MPI call but for its other threads' MPI_Comm_size
 * and MPI_Comm_rank, made meanwhile (tests/data/tracer/threads.c, `serialized`). */
EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
  init_entered();
  trc_preload_drop();
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS)
    start();
  return rc;
}

/* A run that aborts leaves its files written up to here, without their end line: simrun analyse names the rank and
 * the line where it stopped. */
EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
  aborted = 1;
  trc_flush();
  if (started) {
    char why[64];
    snprintf(why, sizeof why, "it called MPI_Abort (error code %d)", errorcode);
    trc_marker_why(why);
  }
  return PMPI_Abort(comm, errorcode);
}

/* The ranks' TI files listed in `index`, by absolute path as simrun --ti does (sim_ti.c). */
static void list_rank_files(FILE *index, int size)
{
  for (int r = 0; r < size; r++)
    fprintf(index, "%s/rank-%d.txt\n", trc_dir(), r);
}

/* Says on stderr that the index of the `size` ranks' traces is written. */
static void say_written(int size)
{
  fprintf(stderr, "simrun-trace: wrote the traces of %d rank(s) to %s (index.txt, rank-I.txt, timeline-I.txt)\n", size,
          trc_dir());
}

/* Rank 0 writes index.txt once every rank wrote its files whole (`status`, the least of the ranks' trc_finish), each
 * rank's binding after the paths (trc_bind.h): an interrupted run leaves no index, which simrun analyse reports, and
 * so does a trace that SIMRUN_TRACE_FORMAT=smpi could not write whole, which smpirun would misread. */
static void write_index(int size, int status, const void *binding)
{
  char path[4200];
  snprintf(path, sizeof path, "%s/index.txt", trc_dir());
  FILE *index = status == TRC_WHOLE ? fopen(path, "w") : NULL;
  if (index) {
    list_rank_files(index, size);
    trc_bind_write(index, binding, size);
  }
  if (index && fclose(index) == 0)
    say_written(size);
  else if (status == TRC_FAILED_SAID)
    return; /* a rank said which file it could not write (a full disk) */
  else if (status == TRC_NOT_SMPI)
    fprintf(stderr,
            "simrun-trace: warning: the trace in %s needs simrun's TI extensions (listed above), which smpirun cannot "
            "read (SIMRUN_TRACE_FORMAT=smpi); no index.txt written: trace again without SIMRUN_TRACE_FORMAT=smpi and "
            "replay with simrun\n",
            trc_dir());
  else
    fprintf(stderr,
            "simrun-trace: warning: the trace in %s is incomplete (a rank could not write its files); no "
            "index.txt written\n",
            trc_dir());
}

/* The most a rank that ended its files at its exit waits for the other ranks to end theirs (others_ended), in
 * seconds, and how often it looks. */
#define EXIT_WAIT  2.0
#define EXIT_CHECK 1e-3

/* Whether every other rank ended its files (trc_markers_gone), waiting up to EXIT_WAIT for them: mpirun ends a job
 * once one of its processes is gone without MPI_Finalize, killing the ranks still running (10 traced runs of
 * tests/data/tracer/no_finalize.c at p = 4 on 2 cores, rank 0 ending 20 ms after the others: 9 lost its files), so
 * that a rank ending first holds its process until the others end as well, or are still running after that. */
static int others_ended(void)
{
  for (double end = trc_now() + EXIT_WAIT; trc_now() < end;) {
    if (trc_markers_gone())
      return 1;
    nanosleep(&(struct timespec){.tv_nsec = (long)(EXIT_CHECK * 1e9)}, NULL);
  }
  return trc_markers_gone();
}

/* Writes the index of the exit-time end (no binding lines) to `path` whole or not at all: into an unnamed file of the
 * folder (O_TMPFILE), then linked under its name; every rank that ends last writes the same, and the first link made
 * is the index (a rank killed while it writes leaves no half index: mpirun ends the job as soon as the ranks that
 * lost the race are gone, and an index made by open(O_EXCL) was empty in 6 of 30 runs at p = 16). 1 when this rank's
 * link made it, 0 when another's did, -1 on an error (errno). */
static int link_index(const char *path)
{
  int fd = open(trc_dir(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    return -1;
  FILE *index = fdopen(fd, "w");
  if (!index) {
    close(fd);
    return -1;
  }
  list_rank_files(index, world_size);
  char self[64];
  snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
  int made = fflush(index) == 0 ? linkat(AT_FDCWD, self, AT_FDCWD, path, AT_SYMLINK_FOLLOW) : -1;
  int saved = errno;
  fclose(index);
  errno = saved;
  return made == 0 ? 1 : errno == EEXIST ? 0 : -1;
}

/* At the exit of a rank that never called MPI_Finalize (the program returned from main or called exit(), as GetDP does
 * at p = 1), with exit status `status`: the program's output flushed first (the wait below may end in mpirun's kill,
 * before exit() would flush it), its files end whole at its exit (trc_finish_at_exit), and the rank that then finds
 * no rank's marker left writes the index (link_index), without the binding lines MPI_Finalize gathers (the replay
 * places the ranks itself), and says so once. With SIMRUN_TRACE_FORMAT=smpi, whose ranks agree at MPI_Finalize
 * whether every one's actions are SMPI's, no index, which rank 0 says. A rank still running when mpirun ends the job
 * (others_ended) keeps its marker, and no index is written; nothing after MPI_Abort (an MPI's abort that calls exit()
 * would come here). Run by exit() after every library's destructors (on_exit, registered by this library's:
 * check_seen), so that a library's own destructor that calls MPI_Finalize (a C++ object's) comes first and ends the
 * trace as MPI_Finalize does. Makes no MPI call: Open MPI's destructors have run. */
static void finish_at_exit(int status, void *unused)
{
  (void)unused;
  if (!started || aborted)
    return; /* MPI_Finalize came from a library's destructor, or the run aborted */
  started = 0;
  fflush(NULL);
  if (trc_finish_at_exit(status) != TRC_WHOLE)
    return;
  if (!others_ended()) {
    char why[200];
    snprintf(why, sizeof why,
             "it had not ended its files %.0f s after rank %d exited without calling MPI_Finalize: mpirun ends such a "
             "job, killing the ranks still running",
             EXIT_WAIT, world_rank);
    trc_markers_left_why(why);
    fprintf(stderr,
            "simrun-trace: warning: rank %d exited without calling MPI_Finalize, and other ranks had not ended their "
            "files %.0f s later: mpirun ends such a job, killing the ranks still running; one it kills leaves the "
            "trace in %s short, without index.txt (its marker says why)\n",
            world_rank, EXIT_WAIT, trc_dir());
    return;
  }
  static const char said[] = "simrun-trace: warning: the program exited without calling MPI_Finalize: the ranks that "
                             "did so end their traces at their exit (their timelines' '" TRC_EXIT_LINE "' line)";
  if (trc_smpi_only()) {
    if (world_rank == 0)
      fprintf(stderr, "%s; no index.txt (SIMRUN_TRACE_FORMAT=smpi: written at MPI_Finalize only)\n", said);
    return;
  }
  char path[4200];
  snprintf(path, sizeof path, "%s/index.txt", trc_dir());
  int made = link_index(path);
  if (made < 0 && world_rank == 0)
    fprintf(stderr, "%s; cannot write %s: %s\n", said, path, strerror(errno));
  else if (made > 0) {
    fprintf(stderr, "%s\n", said);
    say_written(world_size);
  }
}

EXPORT int MPI_Finalize(void)
{
  if (started) {
    int mine = trc_finish();
    int all = TRC_FAILED;
    PMPI_Reduce(&mine, &all, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
    void *binding = trc_bind_gather(trc_comm_size(MPI_COMM_WORLD));
    if (trc_world_rank() == 0 && trc_dir()[0])
      write_index(trc_comm_size(MPI_COMM_WORLD), all, binding);
    free(binding);
    started = 0;
  }
  trc_req_reset();
  trc_comm_reset();
  int rc = PMPI_Finalize();
  trc_finalize_returned();
  return rc;
}

/* Whether this process's parent is mpirun (or mpiexec, by any suffix: Debian's alternatives run mpirun.openmpi) or
 * Open MPI's daemon: mpirun started it, where a process that the program started (a shell, a compiler, `uname`)
 * inherits the preload and the rank's variables too. */
static int started_by_mpirun(void)
{
  static const char *const launchers[] = {"mpirun", "mpiexec", "orterun", "orted", "prted"};
  char path[64];
  char name[32] = "";
  snprintf(path, sizeof path, "/proc/%d/comm", (int)getppid());
  FILE *in = fopen(path, "r");
  if (!in)
    return 0;
  int read = fgets(name, sizeof name, in) != NULL;
  fclose(in);
  name[strcspn(name, "\n")] = '\0';
  for (size_t i = 0; read && i < sizeof launchers / sizeof *launchers; i++)
    if (strncmp(name, launchers[i], strlen(launchers[i])) == 0)
      return 1;
  return 0;
}

/* At exit: a rank that never called MPI_Finalize ends its files after the libraries' destructors (finish_at_exit); a
 * rank's work after MPI_Finalize, in no trace (trc_after_finalize); and said once (by the first rank), rather than
 * leaving no trace and no word: a program whose MPI calls bypass the C interface and the Fortran names trc_fortran.c
 * binds (a Fortran compiler's other than gfortran's) used MPI without these wrappers seeing it; or mpirun started a
 * program that never initialised MPI, and nothing made the trace folder (Debian 12's mrbayes-mpi links no MPI library:
 * mpirun -np P runs P serial copies). */
__attribute__((destructor)) static void check_seen(void)
{
  int finalized = 0;
  int initialized = 0;
  const char *rank = getenv("OMPI_COMM_WORLD_RANK");
  const char *dir = getenv("SIMRUN_TRACE_DIR");
  if (started && on_exit(finish_at_exit, NULL) != 0)
    finish_at_exit(0, NULL);
  if (init_seen)
    trc_after_finalize();
  if (init_seen || (rank && strcmp(rank, "0") != 0) || PMPI_Finalized(&finalized) != MPI_SUCCESS ||
      PMPI_Initialized(&initialized) != MPI_SUCCESS)
    return;
  if (finalized)
    fprintf(stderr, "simrun-trace: warning: this program used MPI without calling the C MPI_Init (a Fortran "
                    "compiler other than gfortran?): nothing was traced; the tracer binds C, and Fortran's mpif.h, "
                    "`use mpi` and `use mpi_f08` under gfortran's names (docs/tracer.md)\n");
  else if (!initialized && rank && dir && dir[0] && access(dir, F_OK) != 0 && started_by_mpirun())
    fprintf(stderr,
            "simrun-trace: warning: this program never called MPI_Init (a serial program, or one that uses MPI "
            "only when told, as OpenFOAM's solvers without -parallel, even where ldd names an MPI library: each "
            "process mpirun started ran alone): nothing was traced into %s\n",
            dir);
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

/* Whether a send returned error `rc` (the program set MPI_ERRORS_RETURN: Rmpi's mpi.remote.exec sends to one past
 * its workers and ignores it): no message left, so no TI action, named among the calls not in the TI trace. */
static int failed_send(int rc)
{
  if (rc == MPI_SUCCESS || !trc_active())
    return rc != MPI_SUCCESS;
  trc_untraced("sends that returned an error (MPI_ERRORS_RETURN, the error ignored): no TI action");
  return 1;
}

/* A blocking send of any mode: the TI action `ti` of its partner, tag and bytes ("send": SMPI replays it in its own
 * mode). */
static void sent_as(const char *ti, double t, const char *name, int rc, int count, MPI_Datatype type, int dest, int tag,
                    MPI_Comm comm)
{
  int peer = failed_send(rc) ? -1 : trc_partner(comm, dest);
  double bytes = trc_nbytes(count, type);
  trc_envelope(tag, trc_comm_key(comm));
  trc_call(t, name, TRC_COMM, peer, bytes, peer >= 0 ? ti : NULL, peer, tag, bytes);
}

static void sent(double t, const char *name, int rc, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  sent_as("send %d %d %.0f", t, name, rc, count, type, dest, tag, comm);
}

EXPORT int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Send(buf, count, type, dest, tag, comm));
  sent(t, "MPI_Send", rc, count, type, dest, tag, comm);
  return rc;
}

EXPORT int MPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Ssend(buf, count, type, dest, tag, comm));
  sent(t, "MPI_Ssend", rc, count, type, dest, tag, comm);
  return rc;
}

EXPORT int MPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Rsend(buf, count, type, dest, tag, comm));
  sent(t, "MPI_Rsend", rc, count, type, dest, tag, comm);
  return rc;
}

/* A buffered send returns once its message is in the attached buffer, whoever receives it and when: an `isend` that
 * no wait completes (as an MPI_Isend freed), which neither replay waits for. As a `send`, a message beyond the eager
 * limit waited for its receive: a helper's ring of 64-KiB MPI_Bsend then MPI_Recv deadlocked both replays at every p.
 */
EXPORT int MPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Bsend(buf, count, type, dest, tag, comm));
  sent_as("isend %d %d %.0f", t, "MPI_Bsend", rc, count, type, dest, tag, comm);
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
  int rc = trc_returned(PMPI_Recv(buf, count, type, source, tag, comm, status));
  int got = 0;
  if (rc == MPI_SUCCESS && trc_active())
    PMPI_Get_count(status, MPI_BYTE, &got);
  int peer = rc == MPI_SUCCESS ? trc_partner(comm, status->MPI_SOURCE) : -1;
  trc_envelope(rc == MPI_SUCCESS ? status->MPI_TAG : tag, trc_comm_key(comm));
  trc_call(t, "MPI_Recv", TRC_IDLE, peer, got, peer >= 0 ? "recv %d %d %d" : NULL, peer, status->MPI_TAG, got);
  return rc;
}

/* The line of a call that posts a message, entered at `t`: the call's own, or for a message an MPI_Start(all) started
 * (`how`, TRC_STARTED_*; -1 for other calls) what it started, on a line of the call's own for its first message, of
 * no duration after it for the others (docs/tracer.md). */
static void posting_line(double t, const char *name, int how, int peer, double bytes)
{
  if (how >= 0)
    trc_envelope_request(how);
  if (how >= 0 && (how & TRC_STARTED_LATER))
    trc_call_more(t, peer, bytes);
  else {
    trc_after_follows(); /* send_posted's and receive_posted's */
    trc_call(t, name, TRC_COMM, peer, bytes, NULL);
  }
}

/* A posted send of any mode (`ok`: the call succeeded), or a persistent one started (`how`): its line and TI isend,
 * remembered for its wait. */
static void send_posted(double t, const char *name, int how, int ok, const trc_posting_t *p, MPI_Request request)
{
  int recorded = trc_active(); /* not inside another traced call, whose trc_call below makes it active again */
  int peer = ok ? trc_partner(p->comm, p->peer) : -1;
  long long line = peer >= 0 ? trc_req_line() : -1;
  if (peer >= 0)
    trc_req_posted(request, p->comm, trc_world_rank(), peer, p->tag, line);
  trc_envelope(p->tag, trc_comm_key(p->comm));
  posting_line(t, name, how, peer, p->bytes);
  if (recorded && peer >= 0)
    trc_action("isend %d %d %.0f", peer, p->tag, p->bytes);
  trc_after_call();
}

/* A posted receive (`ok`: the call succeeded), or a persistent one started (`how`): its line and TI irecv
 * (trc_req_irecv_action: a receive from any source is written once complete), remembered for its wait. */
static void receive_posted(double t, const char *name, int how, int ok, const trc_posting_t *p, MPI_Request request)
{
  int recorded = trc_active(); /* as send_posted's */
  long long line = trc_req_line();
  if (ok)
    trc_req_irecv_posted(request, p->comm, p->peer, p->tag, line);
  trc_envelope(p->tag == MPI_ANY_TAG ? -1 : p->tag, trc_comm_key(p->comm));
  posting_line(t, name, how, trc_to_world(p->comm, p->peer), p->bytes);
  if (ok && recorded)
    trc_req_irecv_action(p->comm, p->peer, p->tag, p->bytes);
  trc_after_call();
}

/* MPI_Isend and its modes. */
static int isent(double t, const char *name, int rc, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                 MPI_Request *request)
{
  int ok = !failed_send(rc);
  trc_posting_t p = {.comm = comm, .send = 1, .peer = dest, .tag = tag, .bytes = trc_nbytes(count, type)};
  send_posted(t, name, -1, ok, &p, ok ? *request : MPI_REQUEST_NULL);
  return rc;
}

EXPORT int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                     MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Isend(buf, count, type, dest, tag, comm, request));
  return isent(t, "MPI_Isend", rc, count, type, dest, tag, comm, request);
}

EXPORT int MPI_Issend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Issend(buf, count, type, dest, tag, comm, request));
  return isent(t, "MPI_Issend", rc, count, type, dest, tag, comm, request);
}

EXPORT int MPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Ibsend(buf, count, type, dest, tag, comm, request));
  return isent(t, "MPI_Ibsend", rc, count, type, dest, tag, comm, request);
}

EXPORT int MPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Irsend(buf, count, type, dest, tag, comm, request));
  return isent(t, "MPI_Irsend", rc, count, type, dest, tag, comm, request);
}

EXPORT int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Irecv(buf, count, type, source, tag, comm, request));
  trc_posting_t p = {.comm = comm, .send = 0, .peer = source, .tag = tag, .bytes = trc_nbytes(count, type)};
  receive_posted(t, "MPI_Irecv", -1, rc == MPI_SUCCESS, &p, rc == MPI_SUCCESS ? *request : MPI_REQUEST_NULL);
  return rc;
}

/* ---- completion: each wait or test writes the requests it completed, in the order MPI reports them ---- */

EXPORT int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  MPI_Request before = *request;
  double t = trc_enter();
  int rc = trc_returned(PMPI_Wait(request, status));
  if (rc == MPI_SUCCESS)
    trc_req_envelope(before); /* the request it completed, for simrun analyse */
  int ok = rc == MPI_SUCCESS;
  if (ok)
    trc_after_follows(); /* trc_req_completed's */
  trc_call(t, "MPI_Wait", TRC_IDLE, ok ? trc_req_partner(before, status) : -1,
           ok ? trc_req_received(before, status) : 0, NULL); /* the bytes of a receive from any source */
  if (rc == MPI_SUCCESS)
    trc_req_completed(&before, NULL, 1, status, 1);
  return rc;
}

/* The statuses `st` of a call that completed requests (`done`) for the tracer to read: NULL when it did not, or when
 * they are ignored and the tracer kept none of its own (not recording). */
static const MPI_Status *readable(int done, const MPI_Status *st)
{
  return done && st != MPI_STATUSES_IGNORE ? st : NULL;
}

/* The TI waitall when the requests it waits for are every request the trace knows pending (receives from any source
 * are then written after it); otherwise, a wait for each, as the TI waitall would wait for the others too. Its line
 * gives the bytes its receives from any source received (MPI_Waitsome, below) and, when others stay pending, the
 * requests it completed (trc_req_envelope_some). */
EXPORT int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
  /* first: the requests' copies and look-ups are the wait's time, not the computation before it (some 2 ns a request:
   * 7.9 us of computation before each MPI_Waitall of 4096 requests of a loop that has none, replayed as work) */
  double t = trc_enter();
  MPI_Request *copy = trc_req_handles(count, requests);
  MPI_Status *st = copy ? trc_req_statuses(count, statuses) : statuses;
  int all = trc_req_all_pending(copy, count);
  int rc = trc_returned(PMPI_Waitall(count, requests, st));
  int done = rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS;
  const MPI_Status *got = readable(done, st);
  if (done) {
    trc_req_envelope_some(copy, NULL, count, 1);
    trc_after_follows();
  }
  trc_call(t, "MPI_Waitall", TRC_IDLE, -1, trc_req_received_all(copy, NULL, count, got), all ? "waitall" : NULL);
  if (done)
    trc_req_completed(copy, NULL, count, got, !all);
  return rc;
}

/* A test that found its request complete writes the wait of that request (completions): the replay completes the same
 * request there, whether or not its message is over by then; SMPI's test action, whose replay sleeps 1e-4 s times a
 * growing count to let simulated time pass, would charge a polling program for each of its tests. A test that
 * completed nothing is a poll (trc_poll): an unsuccessful one, or one of no active request (null, or persistent and
 * not started: trc_req_none_active), which a program that tests its requests after it has received all its messages
 * makes as often (bench/trc_polling.c's faster rank at p = 2: 240,000 to 590,000 in its last laps, each recorded as a
 * call before). */
EXPORT int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  MPI_Request before = *request;
  double t = trc_enter_poll();
  int rc = PMPI_Test(request, flag, status);
  if (rc == MPI_SUCCESS && (!*flag || trc_req_none_active(&before, 1))) {
    trc_poll(t, "MPI_Test");
    return rc;
  }
  if (rc == MPI_SUCCESS) {
    trc_req_envelope(before);
    trc_after_follows();
  }
  trc_call(t, "MPI_Test", TRC_CTRL, -1, rc == MPI_SUCCESS ? trc_req_received(before, status) : 0, NULL);
  if (rc == MPI_SUCCESS)
    trc_req_completed(&before, NULL, 1, status, 1);
  return rc;
}

/* MPI_Request_get_status: a test that leaves the request to a later wait or test, which writes its completion; an
 * unsuccessful one, or one of no active request, is a poll. */
EXPORT int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
  double t = trc_enter_poll();
  int rc = PMPI_Request_get_status(request, flag, status);
  if (rc == MPI_SUCCESS && (!*flag || trc_req_none_active(&request, 1)))
    trc_poll(t, "MPI_Request_get_status");
  else
    trc_call(t, "MPI_Request_get_status", TRC_CTRL, -1, 0, NULL);
  return rc;
}

/* Waitany, waitsome, testany, testsome and testall: the wait of each request they found complete. One that completed
 * receives posted from any source gives the bytes they received on its line, as MPI_Wait does (a waitsome, testsome
 * or testall completing several has one line for them all: their total), from the statuses, the tracer's own when the
 * caller ignores them (trc_req_statuses); its line names the requests it completed (trc_req_envelope_some). */
EXPORT int MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  double t = trc_enter(); /* first: the copies are the wait's time (MPI_Waitall) */
  MPI_Request *copy = trc_req_handles(count, requests);
  int rc = trc_returned(PMPI_Waitany(count, requests, index, status));
  int one = rc == MPI_SUCCESS && copy && *index != MPI_UNDEFINED;
  if (rc == MPI_SUCCESS)
    trc_req_envelope(one ? copy[*index] : MPI_REQUEST_NULL); /* MPI_UNDEFINED: none active, none completed */
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
    trc_after_follows();
  trc_call(t, "MPI_Waitany", TRC_IDLE, -1, one ? trc_req_received(copy[*index], status) : 0, NULL);
  if (rc == MPI_SUCCESS && *index != MPI_UNDEFINED)
    trc_req_completed(copy, index, 1, status, 1);
  return rc;
}

EXPORT int MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
  double t = trc_enter(); /* first: the copies are the wait's time (MPI_Waitall) */
  MPI_Request *copy = trc_req_handles(incount, requests);
  MPI_Status *st = copy ? trc_req_statuses(incount, statuses) : statuses;
  int rc = trc_returned(PMPI_Waitsome(incount, requests, outcount, indices, st));
  int done = (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *outcount != MPI_UNDEFINED;
  const MPI_Status *got = readable(done, st);
  if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS)
    trc_req_envelope_some(copy, indices, done ? *outcount : 0, 0); /* MPI_UNDEFINED: none completed */
  if (done)
    trc_after_follows();
  trc_call(t, "MPI_Waitsome", TRC_IDLE, -1, trc_req_received_all(copy, indices, *outcount, got), NULL);
  if (done)
    trc_req_completed(copy, indices, *outcount, got, 1);
  return rc;
}

EXPORT int MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE)
    status = &own;
  MPI_Request kept[TRC_REQ_KEPT];
  double t = trc_enter_poll(); /* first: the copies are the poll's time, not work between polls (MPI_Testsome) */
  MPI_Request *copy = trc_req_keep(count, requests, kept);
  int rc = PMPI_Testany(count, requests, index, flag, status);
  if (rc == MPI_SUCCESS && (!*flag || *index == MPI_UNDEFINED)) {
    trc_poll(t, "MPI_Testany");
    return rc;
  }
  int completed = rc == MPI_SUCCESS; /* request *index: a success that completed none returned above, as a poll */
  int one = completed && copy;
  if (completed) {
    trc_req_envelope(one ? copy[*index] : MPI_REQUEST_NULL);
    trc_after_follows();
  }
  trc_call(t, "MPI_Testany", TRC_CTRL, -1, one ? trc_req_received(copy[*index], status) : 0, NULL);
  if (completed)
    trc_req_completed(copy, index, 1, status, 1);
  return rc;
}

EXPORT int MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[], MPI_Status statuses[])
{
  MPI_Request kept[TRC_REQ_KEPT];
  /* first: copying 512 requests' handles took some 55 ns a test, which, before the entry, a run of tests booked as the
   * program's work between them (7.3 ms of a 100-ms wait with no work, 7%) */
  double t = trc_enter_poll();
  MPI_Request *copy = trc_req_keep(incount, requests, kept);
  MPI_Status *st = copy ? trc_req_statuses(incount, statuses) : statuses;
  int rc = PMPI_Testsome(incount, requests, outcount, indices, st);
  int done = (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *outcount != MPI_UNDEFINED;
  const MPI_Status *got = readable(done, st);
  if (rc == MPI_SUCCESS && (*outcount == 0 || *outcount == MPI_UNDEFINED))
    trc_poll(t, "MPI_Testsome");
  else {
    if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS)
      trc_req_envelope_some(copy, indices, done ? *outcount : 0, 0);
    if (done)
      trc_after_follows();
    trc_call(t, "MPI_Testsome", TRC_CTRL, -1, trc_req_received_all(copy, indices, *outcount, got), NULL);
  }
  if (done)
    trc_req_completed(copy, indices, *outcount, got, 1);
  return rc;
}

EXPORT int MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
  MPI_Request kept[TRC_REQ_KEPT];
  double t = trc_enter_poll(); /* first: the copies are the poll's time (MPI_Testsome) */
  MPI_Request *copy = trc_req_keep(count, requests, kept);
  MPI_Status *st = copy ? trc_req_statuses(count, statuses) : statuses;
  int rc = PMPI_Testall(count, requests, flag, st);
  int done = (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) && *flag && !trc_req_none_active(copy, count);
  const MPI_Status *got = readable(done, st);
  if (rc == MPI_SUCCESS && !done)
    trc_poll(t, "MPI_Testall");
  else {
    if (done) {
      trc_req_envelope_some(copy, NULL, count, 0);
      trc_after_follows();
    }
    trc_call(t, "MPI_Testall", TRC_CTRL, -1, trc_req_received_all(copy, NULL, count, got), NULL);
  }
  if (done)
    trc_req_completed(copy, NULL, count, got, 1);
  return rc;
}

/* ---- cancel, free, persistent requests ---- */

/* A cancel is written when a wait or test completes the request as cancelled (MPI_Test_cancelled): a cancel that
 * came too late leaves a request that completes as any other. */
EXPORT int MPI_Cancel(MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Cancel(request));
  trc_call(t, "MPI_Cancel", TRC_CTRL, -1, 0, NULL);
  return rc;
}

EXPORT int MPI_Request_free(MPI_Request *request)
{
  MPI_Request before = *request;
  double t = trc_enter();
  int rc = trc_returned(PMPI_Request_free(request));
  if (rc == MPI_SUCCESS)
    trc_req_envelope_freed(before);
  trc_call(t, "MPI_Request_free", TRC_CTRL, -1, 0, NULL);
  if (rc == MPI_SUCCESS)
    trc_req_freed(before);
  return rc;
}

/* A persistent request of any send mode or a receive (`mode`: TRC_STARTED_RECV, _SEND, or _SEND | _SYNC for a
 * synchronous send): nothing is posted until MPI_Start. */
static int made_persistent(double t, const char *name, int rc, int mode, int count, MPI_Datatype type, int peer,
                           int tag, MPI_Comm comm, MPI_Request *request)
{
  trc_call(t, name, TRC_CTRL, -1, 0, NULL);
  trc_posting_t p = {.comm = comm,
                     .send = (mode & TRC_STARTED_SEND) != 0,
                     .sync = (mode & TRC_STARTED_SYNC) != 0,
                     .peer = peer,
                     .tag = tag,
                     .bytes = trc_nbytes(count, type)};
  if (rc == MPI_SUCCESS)
    trc_req_persistent(*request, &p);
  return rc;
}

EXPORT int MPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                         MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Send_init(buf, count, type, dest, tag, comm, request));
  return made_persistent(t, "MPI_Send_init", rc, TRC_STARTED_SEND, count, type, dest, tag, comm, request);
}

EXPORT int MPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Ssend_init(buf, count, type, dest, tag, comm, request));
  return made_persistent(t, "MPI_Ssend_init", rc, TRC_STARTED_SEND | TRC_STARTED_SYNC, count, type, dest, tag, comm,
                         request);
}

EXPORT int MPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Bsend_init(buf, count, type, dest, tag, comm, request));
  return made_persistent(t, "MPI_Bsend_init", rc, TRC_STARTED_SEND, count, type, dest, tag, comm, request);
}

EXPORT int MPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                          MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Rsend_init(buf, count, type, dest, tag, comm, request));
  return made_persistent(t, "MPI_Rsend_init", rc, TRC_STARTED_SEND, count, type, dest, tag, comm, request);
}

EXPORT int MPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                         MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Recv_init(buf, count, type, source, tag, comm, request));
  return made_persistent(t, "MPI_Recv_init", rc, TRC_STARTED_RECV, count, type, source, tag, comm, request);
}

/* MPI_Start(all) of `count` requests, entered at `t`: each message it started is posted as MPI_Isend or MPI_Irecv
 * posts one, on a line of its own (posting_line), so that simrun analyse pairs it; a call that started none the trace
 * knows (a persistent collective, counted as untraced) is one line without a message, and so is one inside another
 * traced call (whose first trc_call would make the recorder active again for the others); an MPI_Startall of no
 * request (a rank without neighbours: tachyon at p = 1) one ctrl line, which simrun analyse does not count as a start
 * whose messages it misses. */
static int start_requests(double t, const char *name, int rc, int count, const MPI_Request requests[])
{
  int lines = 0;
  for (int i = 0; rc == MPI_SUCCESS && trc_active() && i < count; i++) {
    trc_posting_t p;
    if (!trc_req_persistent_of(requests[i], &p)) {
      trc_untraced("MPI_Start of a request not made by MPI_*_init");
      continue;
    }
    int how = (p.send ? TRC_STARTED_SEND : TRC_STARTED_RECV) | (p.sync ? TRC_STARTED_SYNC : 0) |
              (lines++ > 0 ? TRC_STARTED_LATER : 0);
    if (p.send)
      send_posted(t, name, how, 1, &p, requests[i]);
    else
      receive_posted(t, name, how, 1, &p, requests[i]);
  }
  if (lines == 0)
    trc_call(t, name, count == 0 ? TRC_CTRL : TRC_COMM, -1, 0, NULL);
  return rc;
}

EXPORT int MPI_Start(MPI_Request *request)
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Start(request));
  return start_requests(t, "MPI_Start", rc, 1, request);
}

EXPORT int MPI_Startall(int count, MPI_Request requests[])
{
  double t = trc_enter();
  int rc = trc_returned(PMPI_Startall(count, requests));
  return start_requests(t, "MPI_Startall", rc, count, requests);
}
