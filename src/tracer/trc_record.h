/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tracer's recorder: per rank, a SimGrid time-independent trace (rank-I.txt) and a measured timeline
 * (timeline-I.txt) of the MPI calls the wrappers of trc_mpi.c report, with the computation between calls. The file
 * formats are described in docs/tracer.md. No MPI here: the wrappers pass ranks, sizes and partners as plain values. */
#ifndef TRC_RECORD_H
#define TRC_RECORD_H

#include <stdarg.h>

/* The measured categories of a call (seed 000 §1.1.3): the lost-cycle classes simrun analyse reads back. */
typedef enum trc_category {
  TRC_COMPUTE = 0, /* between calls: the program's own work */
  TRC_COMM,        /* a call that moves data */
  TRC_IDLE,        /* a call that waits for partners (blocking receive, wait, barrier) */
  TRC_CTRL,        /* a call that only manages the parallel run (communicators, start, end) */
} trc_category_t;

/* Starts recording for rank `rank` of `size`: reads SIMRUN_TRACE_DIR (default "simrun-trace"), SIMRUN_TRACE_FORMAT
 * and SIMRUN_TRACE_FLOPS (flop/s; without it a short calibration loop measures the rate), creates the folder (rank 0
 * removes an earlier run's index, files and markers of ranks >= size), makes the rank's marker incomplete-RANK
 * (trc_folder.h) and opens the rank's files. Returns 0, or -1 with a
 * message on stderr: recording is then off and every other function does nothing. */
int trc_start(int rank, int size);

/* Time 0 of the timeline: now (every rank calls it right after a common barrier), in seconds and nanoseconds of
 * CLOCK_MONOTONIC into *sec and *nsec. */
void trc_time_zero(long long *sec, long long *nsec);

/* Time 0 becomes `sec` and `nsec` of CLOCK_MONOTONIC (another rank's, on the same host: one clock). */
void trc_time_zero_at(long long sec, long long nsec);

/* The program's first computation starts now: the time since time 0 was the tracer's (its broadcast of time 0, whose
 * first contact between two ranks waits for the other to run: 4 ms of rank 0's CPU time, beside two busy loops, was
 * timed as the program's start-up in tests/data/tracer/poll_work.c's TI trace), its own time (# tracer-cost). */
void trc_time_started(void);

/* Writes the timeline's "# start-up AGE INIT" line: the process's age when it called MPI_Init (`age`, seconds, NAN
 * where unknown: written -1), and the time from that call (`called`, CLOCK_MONOTONIC seconds) to time 0, MPI_Init's
 * own and the tracer's start; neither is in the trace, and a wall time of the whole program holds both (simrun analyse
 * says how long they were). */
void trc_startup_said(double called, double age);

/* Writes the timeline's "# run ID" line, the same on every rank of the run: `id` (rank 0's host name, process id and
 * wall-clock time at time 0), so that simrun analyse refuses a folder that mixes the files of two runs. */
void trc_run_id(const char *id);

/* Whether recording is on for the calling thread. */
int trc_active(void);

/* Only the calling thread (the one that initialises MPI, at every thread level) is recorded from now on; the MPI
 * calls of other threads are counted, and trc_finish then says so and leaves the run without an index. */
void trc_owner_only(void);

/* The current time in seconds since trc_time_zero. */
double trc_now(void);

/* Marks the entry into an MPI call: ends the computation interval since the last call (a timeline line and a TI
 * compute action). Returns the entry time, for trc_call. */
double trc_enter(void);

/* The return of the PMPI call of a call that trc_enter entered, right after it: its interval's end, read before the
 * wrapper's own work on its arguments and results (the ranks of a communicator, a datatype's size, the requests it
 * completed), which is then the tracer's time, not the call's. Returns `rc`. Not for polls, whose exit is their
 * entry (trc_enter_poll), nor set-up calls (trc_setup_done). */
int trc_returned(int rc);

/* trc_enter for a call that is a poll when unsuccessful (MPI_Test*, MPI_Iprobe, MPI_Improbe,
 * MPI_Request_get_status), ended by trc_poll or trc_call: the same, in fewer instructions inside a run of polls. */
double trc_enter_poll(void);

/* trc_enter for a call that makes, duplicates or frees a communicator or topology (trc_setup_call records it): also
 * reads the thread's CPU clock, its entry's. */
double trc_enter_setup(void);

/* Marks the end of such a call that started at `start` (its interval's end): returns the thread's CPU seconds in it. */
double trc_setup_done(double start);

/* Records such a call as trc_call does (category ctrl; the TI action `ti`, "comm_dup" or "comm_split", or none), its
 * interval ending at trc_setup_done, and `cpu` seconds as the rank's computation: a replay prices these calls at
 * nothing (SMPI does), where Open MPI takes some 1-110 us each (a communicator's collective modules chosen, its
 * context id agreed), which a solver's set-up makes often enough to be a tenth of a short run (docs/tracer.md,
 * "Start-up and communicator set-up"). */
void trc_setup_call(double start, const char *name, const char *ti, double cpu);

/* Records a call that started at `start` and ends now: a timeline line (name, category, peer or -1, bytes) and, when
 * `ti` is not NULL, the TI action `ti` formatted printf-like (without the rank, which is prepended). The next
 * computation interval starts now. */
void trc_call(double start, const char *name, trc_category_t category, int peer, double bytes, const char *ti, ...)
    __attribute__((format(printf, 6, 7)));

/* What an MPI_Start or MPI_Startall line gives after its communicator (trc_envelope_request before it), for each
 * message the call started (docs/tracer.md): a receive or a send, plus TRC_STARTED_LATER on the lines after the
 * call's first and TRC_STARTED_SYNC for a synchronous send (MPI_Ssend_init's). */
enum { TRC_STARTED_RECV = 0, TRC_STARTED_SEND = 1, TRC_STARTED_LATER = 2, TRC_STARTED_SYNC = 4 };

/* One more line of the call trc_call just recorded, which entered at `start` (an MPI_Startall's later messages): of no
 * duration at its end, with `peer`, `bytes` and the envelope set since; trc_action then adds to it. The caller's
 * trc_after_call, once its action is written, counts the time since the call's exit as the recorder's. */
void trc_call_more(double start, int peer, double bytes);

/* The next trc_call's wrapper calls trc_after_call once it has done its work on the call's results, without another
 * traced call between: the recorder's gap after the call then ends there alone, its clock read once (the call's
 * computation after it resumes there), where trc_call would end one gap and trc_after_call begin another. */
void trc_after_follows(void);

/* The wrapper's work after the call trc_call just recorded (the TI actions a posting or a completion adds to it, the
 * requests it completed forgotten) is the recorder's own time, as its work inside trc_call is: the next computation
 * starts now. Nothing inside another traced call, or when not recording. */
void trc_after_call(void);

/* The message the next trc_call records: its tag (negative: any, MPI_ANY_TAG) and its communicator (trc_comm_key),
 * written at the end of its timeline line so that simrun analyse pairs messages as MPI matches them. */
void trc_envelope(int tag, int comm);

/* The receive half of the send-receive the next trc_call records (whose peer, bytes and trc_envelope are its send
 * half's): the source and tag its status gave (TRC_PEER_NULL for MPI_PROC_NULL, TRC_PEER_NONE when the call failed)
 * and the bytes received, written after the send
 * half's communicator so that simrun analyse pairs both halves. */
void trc_envelope_recv(int source, int tag, double bytes);

/* The request the next trc_call's line names after its tag and communicator (trc_envelope): the age of the one a wait
 * or test completed (trc_req_envelope); -1: none. */
void trc_envelope_request(long long request);

/* The other requests the wait or test of the next trc_call completed, beside the one trc_envelope_request named (the
 * youngest): bit i for the request i + 1 postings older than it (docs/tracer.md); 0: none. */
void trc_envelope_others(unsigned long long mask);

/* Records an unsuccessful poll (a test or iprobe that found nothing) that started at `start`: consecutive polls, with
 * gaps of 10 us of CPU time at most between them (10 us a poll over the polls whose clock was not read), become the
 * program's work between them (a computation, from the time read between two of them now and then) and one idle
 * interval ("NAME*COUNT"), and one TI action, simrun's "poll COUNT FLOPS", FLOPS the run's processor time at the flop
 * rate (its times are the timeline's; nothing with SIMRUN_TRACE_FORMAT=smpi). */
void trc_poll(double start, const char *name);

/* Around a call that may be a poll, by a wrapper that works on its arguments before and after the C wrapper's (the
 * Fortran bindings: handles, statuses and indices turned from Fortran's and back, a malloc'd array beyond 16
 * requests): before that work, the time since the last timed poll (trc_poll) ends, and after it the one this poll
 * timed starts, so that the work is the poll's, not the program's between two polls (MPI_Testsome over 64 requests
 * from Fortran: 76.5 ms of a 100-ms wait with no work booked as work between its tests). */
void trc_poll_outside_begins(void);
void trc_poll_outside_ends(void);

/* The same around a call that is not a poll (the Fortran bindings' waits and starts): the computation before it ends
 * where the wrapper's work began, and the wrapper's work after it is the recorder's (trc_after_call), both the tracer's
 * own time, which simrun analyse removes (MPI_Waitall from Fortran over 4096 requests: 11.3 us of computation before
 * each, replayed as work). */
void trc_call_outside_begins(void);
void trc_call_outside_ends(void);

/* Measures the recorder's CPU time per unsuccessful poll, which a run of polls' processor time leaves out and the
 * tracer's own time counts: `polls(n, traced)` makes `n` unsuccessful polls with the recorder's part (`traced` 1) or
 * without (0); the difference of their CPU times per poll, the least of 15 trials each, its polls taking the path of a
 * run's after the first computation; then, in 15 more traced trials apart, the time between two polls (the recorder's
 * part of what a run's work is read from: trc_poll), the least trial's mean. The recorder's state is put back after
 * the traced ones. Without it (or when the difference is not a few microseconds at most), a poll's cost is taken as
 * two wall clock readings, and the time between two polls as none of the recorder's. */
void trc_measure_polls(void (*polls)(long n, int traced), long n);

/* Writes one more TI action of the call trc_call just recorded (printf-like, without the rank), such as the receive
 * of each request a wait found complete. */
void trc_action(const char *ti, ...) __attribute__((format(printf, 1, 2)));

/* Writes one TI action of simrun's extensions of the format (docs/ti-replay.md), printf-like as trc_action, called
 * `name` in the warnings; with SIMRUN_TRACE_FORMAT=smpi it is counted instead, and trc_finish says the trace is not
 * smpirun's to replay. */
void trc_extension(const char *name, const char *ti, ...) __attribute__((format(printf, 2, 3)));

/* Whether SIMRUN_TRACE_FORMAT=smpi holds the TI trace to SMPI's actions. */
int trc_smpi_only(void);

/* Whether an action of simrun's extensions called `name` may be written: 0 when not recording, or with
 * SIMRUN_TRACE_FORMAT=smpi, which counts it as trc_extension does. */
int trc_extension_allowed(const char *name);

/* Counts a call of `name` whose action the TI trace cannot hold (an untraced MPI function, a collective on a
 * sub-communicator, a receive from any source): listed by trc_finish in one warning. */
void trc_untraced(const char *name);

/* A one-sided call (MPI_Put, MPI_Win_fence, ...), which is counted and timed, not recorded: its time stays in the
 * computation around it. trc_rma_enter returns the wall clock at its entry, or NAN when the calling thread does not
 * record or is inside a traced call; trc_rma_exit counts `name` (as trc_untraced does) and adds the time since `start`
 * to the rank's one-sided seconds, which trc_finish states beside the list. */
double trc_rma_enter(void);
void trc_rma_exit(double start, const char *name);

/* Phases (simrun_phase.h): labels the following intervals with `name` (blanks become '_'), nesting up to a small
 * depth; trc_phase_end returns to the enclosing label ("main" at the outermost). Both end the current computation
 * interval, so that each interval has one phase. */
void trc_phase_begin(const char *name);
void trc_phase_end(void);

/* Writes a comment line "# TEXT" (printf-like) into the timeline now, ahead of the records not yet written; nothing
 * when not recording. */
void trc_timeline_note(const char *format, ...) __attribute__((format(printf, 1, 2)));

/* Writes out what is buffered, so that a run that ends abnormally (MPI_Abort) leaves its files up to this call;
 * recording goes on. */
void trc_flush(void);

/* How a rank's files ended, ordered so that the least of the ranks' is the run's. */
enum { TRC_FAILED_SAID = 0, TRC_FAILED = 1, TRC_NOT_SMPI = 2, TRC_WHOLE = 3 };

/* Ends recording: the rank's last lines, the untraced-call and other threads' CPU warnings, the files closed and, when
 * they are whole, the rank's marker removed. Returns TRC_WHOLE when both
 * files were written whole, TRC_NOT_SMPI when whole but without actions SIMRUN_TRACE_FORMAT=smpi left out,
 * TRC_FAILED_SAID when a write failed during the run (said then, in one line), TRC_FAILED otherwise (a message on
 * stderr). */
int trc_finish(void);

/* The comment line a rank's timeline holds, before its "# end", when the rank ended at the process's exit without
 * calling MPI_Finalize (trc_finish_at_exit), followed by ", status S", the process's exit status; simrun analyse reads
 * it (met_timeline.c). */
#define TRC_EXIT_LINE "# exit without MPI_Finalize"

/* At the process's exit with `status`, when the program returned from main or called exit() without calling
 * MPI_Finalize: ends recording as trc_finish does, the last computation ending at the exit, with a TRC_EXIT_LINE line
 * before the end line; the marker kept where other threads made MPI calls (the trace would not replay). Nothing in a
 * child forked without exec (another pid: it shares the files); and, said in one warning, the files left as they are
 * and the marker kept, from a thread other than the recorded one, inside an MPI call, or from a signal's handler (a
 * signal blocked that was not at MPI_Init and has one). Returns as trc_finish, or TRC_FAILED when it did nothing. */
int trc_finish_at_exit(int status);

/* Whether no other rank's marker (trc_folder.h) is left in the trace folder: every rank wrote its files whole. */
int trc_markers_gone(void);

/* Why the rank's files stop short (`why`, one line in the third person: "it called MPI_Abort ..."), added to its
 * marker as a "why: " line, which simrun analyse quotes when it refuses the folder (docs/tracer.md). */
void trc_marker_why(const char *why);

/* The same, into each other rank's marker still there. */
void trc_markers_left_why(const char *why);

/* Marks MPI_Finalize's return (PMPI_Finalize returned): the process's CPU time then, from which trc_after_finalize
 * counts. */
void trc_finalize_returned(void);

/* At the process's exit, after trc_finish: says on stderr how much CPU time the rank spent after MPI_Finalize (from its
 * return, trc_finalize_returned, else its entry) when it is a tenth or more of what it spent traced, and over 0.1 s
 * (yorick-mpy at p = 1 does all its work after it: 1.4 s beside a trace of 22 us). */
void trc_after_finalize(void);

/* The absolute path of the trace folder (valid after trc_start succeeded), for the index. */
const char *trc_dir(void);

#endif
