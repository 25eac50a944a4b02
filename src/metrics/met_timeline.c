/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reads the measured timelines of a traced MPI run (met_timeline.h, docs/tracer.md) into a met_trace_t in one pass,
 * every rank's file open at once and read in start-time order, checking every line, so that a folder left by a
 * crashed run is refused with the file and line to blame; the wait-state rules are met_timeline_match.c's. */
#define _POSIX_C_SOURCE 200809L /* pread */
#include "met_timeline.h"
#include "bas_temp.h"
#include "bas_error.h"
#include "met_flops.h"
#include "met_timeline_match.h"
#include "met_zread.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC_PREFIX "# simrun measured timeline "
#define MAGIC        MAGIC_PREFIX "1"
#define MAGIC2       MAGIC_PREFIX "2"
/* The comment lines at a timeline's head that met_timeline_program looks through (the tracer writes "# program" as
 * its third, after the format's and the rank's). */
#define HEADER_LINES 16
/* The header comment of a tracer that leaves its own time as the gaps between intervals, for the reader to remove */
#define OWN_GAPS "# own time: the gaps"
/* The line a rank's file holds when the rank ended at its process's exit without calling MPI_Finalize (the tracer's
 * TRC_EXIT_LINE, src/tracer/trc_record.h), then ", status S", the exit status: its file is whole, to its exit. */
#define EXIT_LINE "# exit without MPI_Finalize"
/* The header comment of a tracer whose "# comm" lines give a communicator's members in its own order (before, sorted)
 */
#define COMM_ORDER "# communicators: their '# comm' lines give the members in the communicator's order"
#define HOW        "trace the run again (docs/tracer.md)"

/* The bounds of a timeline (docs/hostile-input.md): a line is a few numbers and names, well under 4 KiB; a run has at
 * most MAX_RANKS ranks (the matching of messages keeps ranks x ranks counters); a file at most 64 GiB. */
#define MAX_LINE   4096
#define MAX_RANKS  65536
#define MAX_BYTES  (64LL << 30)
#define LINE_ERROR "a line longer than 4095 characters, or a NUL byte: not a timeline"

/* The longest loop body a timeline may give (the tracer folds bodies of up to 32 calls), the most iterations of one
 * loop, and the most lines and calls unfolded from loops the run's files may give, all together, when the run is kept
 * whole (simrun analyse keeps a run whole only when it unfolds to 32 MiB of lines, under 700 000 of format 1's:
 * met_timeline_bytes; an interval kept costs some 170 bytes, so a few lines of loops, or a small compressed file, could
 * otherwise take gigabytes). */
#define MAX_SLOTS      4096
#define MAX_ITERATIONS (1LL << 32)
#define MAX_KEPT       (1LL << 20)
#define KEPT_ERROR                                                                                                     \
  "the run's lines and loops unfold to more than 2^20 intervals, too many to keep whole (simrun analyse reads such a " \
  "run as per-rank sums)"
/* Format 2: the calls a file may define (the tracer's table holds 4096), and the latest time, in nanoseconds. */
#define MAX_SIGNATURES 4096
#define MAX_NS         (1LL << 53)

/* One call of a loop's body: its mean computation before it and its mean duration, in seconds, and the call. */
typedef struct slot {
  double compute;
  double duration;
  met_tl_event_t ev;
} slot_t;

/* A loop being unfolded into intervals ("loop COUNT SLOTS FIRST LAST", docs/tracer.md): iteration k starts at first +
 * k period, its slots one after the other with their mean times, the rest of the period spread evenly after them (the
 * tracer's own time). */
typedef struct loop {
  long long count; /* iterations; 0: no loop */
  long long k;
  int nslots;
  int j;       /* the next slot */
  int in_call; /* the next interval is slot j's call, its computation given */
  double first;
  double last;
  double period;
  double gap;
  double t; /* where the next interval starts */
  slot_t *slots;
  int cap;
} loop_t;

/* One file being read: where, for messages. */
typedef struct reader {
  met_zread_t *in; /* plain text, zstd or gzip (a large file of the tracer, trc_out.c) */
  char path[4096];
  long line;
  char text[MAX_LINE];
  int bad;     /* 1: the last line was cut by the buffer or by a NUL byte; 2: damaged data or a read error */
  int partial; /* the last line of the file had no newline: a record cut by a killed run */
  loop_t loop;
  long long *unfolded;  /* the run is kept whole: its files' lines and loops' calls so far, bounded by MAX_KEPT */
  int version;          /* 1 or 2 (compact) */
  long long prev;       /* format 2: the end of the previous interval, ns */
  met_tl_event_t *sigs; /* format 2: the calls defined so far ("d ID ..."), by ID; call "" when not */
  int nsigs;
  met_tl_event_t pending; /* format 2: a record's call, after its computation */
  int has_pending;
  int own_gaps;       /* the header says that the gaps are the tracer's own time (OWN_GAPS): they are removed */
  int comm_order;     /* the header says that its "# comm" lines give the members in order (COMM_ORDER) */
  int disturbance;    /* its "# disturbance" line was read: a second one is left out */
  int exited;         /* its EXIT_LINE was read: a second one is left out */
  double pushed_end;  /* the end of the last interval handed to the rules, as read */
  double compensated; /* the same end with the gaps so far removed */
  int started;        /* an interval was handed to the rules */
  char run[320];      /* its "# run ID" line's ID (the tracer writes the same on every rank of a run), or "" */
  long run_line;
} reader_t;

/* The next line into r->text, without its line end: 0; -1 at the end of the file (a compressed stream cut short ends
 * at its last whole block) or on a bad line (r->bad). */
static int next_line(reader_t *r)
{
  long got = r->bad ? 0 : met_zread_gets(r->in, r->text, sizeof r->text);
  r->line += got != 0;
  r->bad = got < 0 ? 2 : r->bad;
  if (got <= 0)
    return -1;
  size_t len = strlen(r->text);
  if (len < (size_t)got || (r->text[len - 1] != '\n' && !met_zread_eof(r->in))) {
    r->bad = 1;
    return -1;
  }
  if (*met_zread_error(r->in)) { /* found damaged while looking for more after a last line without a line end */
    r->bad = 2;
    return -1;
  }
  r->partial = len > 0 && r->text[len - 1] != '\n';
  while (len > 0 && (r->text[len - 1] == '\n' || r->text[len - 1] == '\r'))
    r->text[--len] = '\0';
  return 0;
}

/* After next_line failed: whether it was a bad line, reported into err. */
static int bad_line(const reader_t *r, char *err, size_t errlen)
{
  if (r->bad == 1)
    snprintf(err, errlen, "%s:%ld: " LINE_ERROR "; %s", r->path, r->line, HOW);
  else if (r->bad)
    snprintf(err, errlen, "%s:%ld: %s; %s", r->path, r->line, met_zread_error(r->in), HOW);
  return r->bad;
}

/* Whether the numeric fields of a line are written in decimal (sscanf would take hexadecimal, inf and nan too): its
 * first `times` fields, then, of the fields after them, the partner, the bytes, and the tag, communicator and request
 * when given (the 3rd, 4th, 6th to 8th). */
static int decimal_fields(const char *text, int times)
{
  for (int field = 0; *text; field++) {
    text += strspn(text, " \t");
    size_t len = strcspn(text, " \t");
    int after = field - times;
    if ((after < 0 || after == 2 || after == 3 || after >= 5) && strspn(text, "0123456789.+-eE") < len)
      return 0;
    text += len;
  }
  return 1;
}

static met_category_t category_of(const char *name)
{
  for (int c = 0; c < MET_CAT_COUNT; c++)
    if (strcmp(met_category_name((met_category_t)c), name) == 0)
      return (met_category_t)c;
  return MET_CAT_COUNT;
}

/* Whether `name` holds a control character (an escape sequence), which a name the report prints must not. */
static int has_control(const char *name)
{
  for (; *name; name++)
    if (iscntrl((unsigned char)*name))
      return 1;
  return 0;
}

/* The trace's id of MPI call `name` as the timeline gives it (met_trace_call_id; "NAME*COUNT" for a run of polls),
 * kept by a whole or a spilled trace (for its exports); 0 for a computation ("-") or in an aggregate trace that is not
 * spilled, negative when out of memory. */
static int call_of(met_trace_t *trace, const char *name)
{
  int kept = !met_trace_is_aggregate(trace) || met_trace_is_spilled(trace);
  return strcmp(name, "-") == 0 || !kept ? 0 : met_trace_call_id(trace, name);
}

/* A send-receive's receive half "source tag bytes" (docs/tracer.md) on a line of call `call`: NULL, or what is
 * wrong. */
static const char *sendrecv_problem(const char *call, long long source, long long tag, double bytes, int nranks)
{
  if (strcmp(call, "MPI_Sendrecv") != 0 && strcmp(call, "MPI_Sendrecv_replace") != 0)
    return "only an MPI_Sendrecv or MPI_Sendrecv_replace line has a receive half 'source tag bytes' after its "
           "communicator";
  if (source < MET_TL_PEER_NULL || source >= nranks)
    return "the send-receive's source is not a rank of the run nor -1 (none) nor -2 (MPI_PROC_NULL)";
  if (tag < -1 || tag > INT_MAX || !isfinite(bytes) || bytes < 0 || (source < 0 && bytes > 0))
    return "the send-receive's receive tag must be -1 or a whole number >= 0, its bytes a number >= 0 (0 with no "
           "source)";
  return NULL;
}

static int is_start(const char *call)
{
  return strcmp(call, "MPI_Start") == 0 || strcmp(call, "MPI_Startall") == 0;
}

/* An MPI_Start or MPI_Startall line `it` and its field after the communicator, `how` (-1: none): with one, the message
 * it started (docs/tracer.md), paired as MPI_Isend's or MPI_Irecv's, a later line of the call one more piece of it;
 * without, a tracer before those lines, whose starts gave no messages, or a start of requests the trace does not know
 * (counted: met_tl_match_counts), unless the line is ctrl: a start of no request, which gave none. NULL, or what is
 * wrong. */
static const char *started(met_tl_event_t *it, long long how)
{
  it->req = -1;
  if (how < 0) {
    it->unpaired_start = it->iv.category != MET_CAT_CTRL;
    return NULL;
  }
  if (how > 7 || (how & 5) == 4)
    return "an MPI_Start or MPI_Startall line's field after its communicator must be 0 (it started a receive), 1 (a "
           "send) or 5 (a synchronous send), plus 2 on the call's later lines";
  it->kind = met_tl_kind_of(how & 1 ? "MPI_Isend" : "MPI_Irecv", it->iv.peer);
  it->continues = (how & 2) != 0;
  it->synchronous = (how & 4) != 0;
  if (it->continues)
    it->iv.call = -it->iv.call;
  return NULL;
}

/* Parses the fields of a line after its times, "category phase peer bytes call [tag comm [request | received |
 * source tag bytes]]" (received: an MPI_Alltoallv's bytes received; the last three: a send-receive's receive half),
 * into *it
 * (times 0). NULL, or what is wrong. */
static const char *parse_fields(const char *text, met_trace_t *trace, met_tl_event_t *it)
{
  double bytes;
  char category[16], phase[128], call[64], extra[2];
  long long peer, tag = -1, comm = 0, req = -1, rtag = -1;
  double rbytes = 0;
  int fields = sscanf(text, "%15s %127s %lld %lf %63s %lld %lld %lld %lld %lf %1s", category, phase, &peer, &bytes,
                      call, &tag, &comm, &req, &rtag, &rbytes, extra);
  const char *sendrecv = fields == 10 ? sendrecv_problem(call, req, rtag, rbytes, met_trace_nranks(trace)) : NULL;
  if (fields < 5 || fields == 6 || fields > 10)
    return "expected the fields 'category phase peer bytes call', then 'tag comm', 'tag comm request' or 'tag comm "
           "request others' (or for a send-receive 'tag comm source tag bytes') or nothing";
  if (sendrecv)
    return sendrecv;
  met_tl_kind_t kind = met_tl_kind_of(call, -1); /* a wait's or test's needs no partner */
  int waits = kind >= TL_WAIT && kind <= TL_POLL;
  if (fields == 9 && (!waits || req < 0 || rtag < 1))
    return "only a wait or test line naming its request gives the others it completed after it, a whole number >= 1 "
           "(a mask)";
  if (!decimal_fields(text, 0))
    return "a number is not written in decimal (no hexadecimal, inf or nan)";
  if (category_of(category) == MET_CAT_COUNT)
    return "unknown category (compute, io, ctrl, comm or idle)";
  if (peer < MET_TL_PEER_NULL || peer >= met_trace_nranks(trace))
    return "the partner is not a rank of the run nor -1 (none, any source) nor -2 (MPI_PROC_NULL)";
  if (!isfinite(bytes) || bytes < 0)
    return "the bytes must be a number >= 0";
  if (tag < -1 || tag > INT_MAX || comm < 0 || comm > INT_MAX)
    return "the tag must be -1 (any) or a whole number >= 0, the communicator a whole number >= 0";
  if (req < -1 && fields != 10 && !(req == MET_TL_REQ_NONE && waits)) /* a send-receive's 8th: its source */
    return "the request must be a whole number >= 0 (or -1: none; -2 on a wait's or test's line: none the timeline "
           "holds)";
  if (has_control(phase) || has_control(call)) /* the report prints them: no escape sequence reaches a terminal */
    return "a phase or call name holds a control character";
  int id = met_trace_phase_id(trace, phase);
  int call_id = call_of(trace, call);
  if (id < 0 || call_id < 0)
    return "out of memory";
  *it = (met_tl_event_t){.iv = {.category = category_of(category),
                                .phase = id,
                                .peer = (int)peer,
                                .tag = fields >= 7 ? (int)tag : 0, /* written for OTF2's events; tl's for pairing */
                                .comm = (unsigned)comm,
                                .bytes = bytes,
                                .call = call_id},
                         .kind = met_tl_kind_of(call, (int)peer),
                         .tag = (int)tag,
                         .comm = (int)comm,
                         .req = req,
                         .others = fields == 9 ? (unsigned long long)rtag : 0};
  snprintf(it->call, sizeof it->call, "%s", call);
  /* an MPI_Alltoallv's or MPI_Ialltoallv's 8-field line: the names looked up for such lines only */
  int alltoallv =
      fields == 8 && (met_coll_call_of(call) == MET_CALL_ALLTOALLV || met_nbc_call_of(call) == MET_CALL_ALLTOALLV);
  /* with its communicator (an MPI_Ialltoallv's bytes received after it): a posting (docs/tracer.md) */
  it->icoll = fields == 7 || alltoallv ? met_tl_icoll_of(call) : TL_OTHER;
  if (it->icoll != TL_OTHER) {
    it->kind = TL_ICOLL;
    it->root = met_tl_rooted(it->icoll) ? it->iv.peer : -1;
    it->iv.peer = -1;
  }
  if (met_tl_rooted(it->kind)) { /* its partner is its root: no message of its own */
    it->root = it->iv.peer;
    it->iv.peer = -1;
  }
  if (alltoallv) { /* its field after the communicator */
    it->received = (double)req;
    it->req = -1;
  }
  if (is_start(call))
    return started(it, fields == 8 ? req : -1);
  if (fields == 10) {
    it->kind = TL_SENDRECV;
    it->req = -1;
    it->recv = (met_tl_recv_half_t){.peer = (int)req, .tag = (int)rtag, .bytes = rbytes};
  }
  return NULL;
}

/* What a loop's body line and a format 1 interval line must hold. */
#define SLOT_FIELDS                                                                                                    \
  "expected '= compute duration category phase peer bytes call [tag comm [request [others]]]' in a loop's body"
#define LINE_FIELDS                                                                                                    \
  "expected 7 fields 'start end category phase peer bytes call', or 9 with 'tag comm' after them, 10 with 'tag comm "  \
  "request' or 11 with 'tag comm request others'"

/* Parses a format 1 interval line into *it, which must start at or after `last` (the previous interval's end); a
 * loop's body line (`slot`: "= COMPUTE DURATION ...") into *it with its two durations in iv.start and iv.end. 0, or
 * -1 with the message in err. */
static int parse_interval(reader_t *r, met_trace_t *trace, double last, int slot, met_tl_event_t *it, char *err,
                          size_t errlen)
{
  double start, end;
  int at = 0;
  const char *text = slot ? r->text + 2 : r->text;
  const char *what = NULL;
  if (sscanf(text, "%lf %lf %n", &start, &end, &at) != 2 || at == 0)
    what = slot ? SLOT_FIELDS : LINE_FIELDS;
  else if (!decimal_fields(text, 2))
    what = "a number is not written in decimal (no hexadecimal, inf or nan)";
  else if (slot && (!isfinite(start) || !isfinite(end) || start < 0 || end < 0))
    what = "a loop's computation and call durations must be seconds >= 0";
  else if (!slot && (!isfinite(start) || !isfinite(end) || start < 0 || end < start))
    what = "the interval's start and end must be times >= 0 with start <= end";
  else if (!slot && start < last)
    what = "the interval starts before the previous one ends";
  else if ((what = parse_fields(text + at, trace, it)) != NULL && strncmp(what, "expected", 8) == 0)
    what = slot ? SLOT_FIELDS : LINE_FIELDS;
  if (what) {
    snprintf(err, errlen, "%s:%ld: %s; %s", r->path, r->line, what, HOW);
    return -1;
  }
  it->iv.start = start;
  it->iv.end = end;
  return 0;
}

/* Format 2's definition line "d ID fields": call ID's fields from now on. 0, or -1 with a message. */
static int read_definition(reader_t *r, met_trace_t *trace, char *err, size_t errlen)
{
  long long id;
  int at = 0;
  const char *what = NULL;
  if (sscanf(r->text, "d %lld %n", &id, &at) != 1 || at == 0 || strspn(r->text + 2, "0123456789") == 0)
    what = "expected 'd ID category phase peer bytes call [tag comm [request [others]]]'";
  else if (id < 0 || id >= MAX_SIGNATURES)
    what = "a call's ID must be 0 to 4095";
  if (!what && id >= r->nsigs) {
    met_tl_event_t *more = realloc(r->sigs, (size_t)(id + 1) * sizeof *more);
    if (!more)
      what = "out of memory";
    else {
      for (long long i = r->nsigs; i <= id; i++)
        more[i].call[0] = '\0'; /* not defined yet */
      r->sigs = more;
      r->nsigs = (int)id + 1;
    }
  }
  if (!what)
    what = parse_fields(r->text + at, trace, &r->sigs[id]);
  if (what) {
    snprintf(err, errlen, "%s:%ld: %s; %s", r->path, r->line, what, HOW);
    return -1;
  }
  return 0;
}

/* Format 2's record line "ID GAP COMPUTE DURATION [POLLS]" (nanoseconds): its computation (when COMPUTE > 0) into
 * *it and its call into r->pending, or its call alone into *it (a run of polls named as `trace`'s call "NAME*POLLS").
 * 0, or -1 with a message. */
static int read_record(reader_t *r, met_trace_t *trace, met_tl_event_t *it, char *err, size_t errlen)
{
  long long id, gap, compute, duration, polls = 1;
  char extra[2];
  int fields = sscanf(r->text, "%lld %lld %lld %lld %lld %1s", &id, &gap, &compute, &duration, &polls, extra);
  const char *what = NULL;
  if ((fields != 4 && fields != 5) || strspn(r->text, "0123456789 ") != strlen(r->text))
    what = "expected 'ID GAP COMPUTE DURATION [POLLS]', whole numbers >= 0";
  else if (id >= r->nsigs || r->sigs[id].call[0] == '\0')
    what = "a call's ID is used before its 'd ID ...' line";
  else if (gap > MAX_NS || compute > MAX_NS || duration > MAX_NS || r->prev > MAX_NS - gap - compute - duration)
    what = "the times pass 2^53 ns (104 days)";
  else if (fields == 5 && (polls < 2 || polls > MAX_ITERATIONS))
    what = "a run of polls has 2 to 2^32 of them";
  if (what) {
    snprintf(err, errlen, "%s:%ld: %s; %s", r->path, r->line, what, HOW);
    return -1;
  }
  const met_tl_event_t *sig = &r->sigs[id];
  long long start = r->prev + gap;
  if (compute > 0) {
    *it = (met_tl_event_t){.iv = {.start = (double)start / 1e9,
                                  .end = (double)(start + compute) / 1e9,
                                  .category = MET_CAT_COMPUTE,
                                  .phase = sig->iv.phase,
                                  .peer = -1},
                           .kind = TL_OTHER,
                           .tag = -1,
                           .req = -1};
    snprintf(it->call, sizeof it->call, "-");
    it = &r->pending;
    r->has_pending = 1;
  }
  start += compute;
  r->prev = start + duration;
  *it = *sig;
  it->iv.start = (double)start / 1e9;
  it->iv.end = (double)r->prev / 1e9;
  if (polls > 1) { /* a run of unsuccessful polls completes nothing: as format 1's "NAME*COUNT" (met_tl_kind_of) */
    snprintf(it->call, sizeof it->call, "%.40s*%lld", sig->call, polls);
    it->kind = TL_OTHER;
    it->iv.call = call_of(trace, it->call);
    if (it->iv.call < 0) {
      snprintf(err, errlen, "%s:%ld: out of memory", r->path, r->line);
      return -1;
    }
  }
  return 0;
}

/* Reads the header's magic and "# rank R of P" lines; P into *nranks. 0, or -1 with a message. */
static int read_header(reader_t *r, int rank, int *nranks, char *err, size_t errlen)
{
  long long got_rank = -1;
  long long got_size = 0;
  char extra[2];
  if (next_line(r) != 0) {
    if (!bad_line(r, err, errlen))
      snprintf(err, errlen, "%s:1: the file %s; %s", r->path,
               met_zread_cut(r->in) ? "is compressed and was cut short before its first whole block: the run was "
                                      "killed while writing it"
                                    : "is empty: the run stopped before its first lines were written",
               HOW);
    return -1;
  }
  r->version = strcmp(r->text, MAGIC2) == 0 ? 2 : 1;
  long long newer = 0;
  char rest[2];
  if (r->version == 1 && sscanf(r->text, MAGIC_PREFIX "%lld%1s", &newer, rest) == 1 && newer > 2) {
    snprintf(err, errlen,
             "%s:1: a timeline of format %lld, which a newer simrun wrote; this one reads formats 1 and 2: analyse it "
             "with the simrun whose libsimrun-trace.so traced the run",
             r->path, newer);
    return -1;
  }
  if (r->version == 1 && strcmp(r->text, MAGIC) != 0) {
    snprintf(err, errlen,
             "%s:%ld: not a measured timeline (the first line must be '" MAGIC2 "', or '" MAGIC
             "'); give a folder that "
             "libsimrun-trace.so wrote (SIMRUN_TRACE_DIR)",
             r->path, r->line);
    return -1;
  }
  int read = next_line(r) == 0 && sscanf(r->text, "# rank %lld of %lld %1s", &got_rank, &got_size, extra) == 2;
  if (read && rank == 0 && (got_size < 1 || got_size > MAX_RANKS)) {
    snprintf(err, errlen, "%s:2: the run has %lld ranks; simrun analyse reads runs of 1 to %d ranks; %s", r->path,
             got_size, MAX_RANKS, HOW);
    return -1;
  }
  if (!read || got_rank != rank || (*nranks > 0 && got_size != *nranks)) {
    if (!bad_line(r, err, errlen))
      snprintf(err, errlen, "%s:%ld: expected '# rank %d of %d'; the folder mixes runs or the file was edited; %s",
               r->path, r->line > 1 ? r->line : 2, rank,
               *nranks > 0 ? *nranks
               : read      ? (int)got_size
                           : 1,
               HOW);
    return -1;
  }
  *nranks = (int)got_size;
  return 0;
}

/* Why folder `dir` has no first timeline `path` (open's `error`), in a line that names the folder: it does not exist,
 * it is a file, it holds only a TI trace (simrun --ti's, smpirun -trace-ti's), or nothing the tracer wrote. */
static void no_timeline(const char *dir, const char *path, int error, char *err, size_t errlen)
{
  struct stat st;
  char ti[PATH_MAX];
  snprintf(ti, sizeof ti, "%s/rank-0.txt", dir);
  if (stat(dir, &st) != 0)
    snprintf(err, errlen, "%s: %s; give a folder that libsimrun-trace.so wrote (SIMRUN_TRACE_DIR)", dir,
             errno == ENOENT ? "no such folder" : strerror(errno));
  else if (!S_ISDIR(st.st_mode))
    snprintf(err, errlen,
             "%s: not a folder; give the folder that libsimrun-trace.so wrote (SIMRUN_TRACE_DIR), not a "
             "file in it",
             dir);
  else if (access(ti, F_OK) == 0)
    snprintf(err, errlen,
             "%s: holds a TI trace (rank-0.txt) but no timeline-0.txt, which analyse reads: replay a TI "
             "trace with the ti-replay skeleton (docs/ti-replay.md), or give the folder libsimrun-trace.so "
             "wrote",
             dir);
  else
    snprintf(err, errlen, "%s: cannot read it (%s); give a folder that libsimrun-trace.so wrote (SIMRUN_TRACE_DIR)",
             path, strerror(error));
}

/* Opens rank `rank`'s file; on failure the message names `announced` (the line that gave P) when there is one. */
static int open_rank(reader_t *r, const char *dir, int rank, const char *announced, char *err, size_t errlen)
{
  snprintf(r->path, sizeof r->path, "%s/timeline-%d.txt", dir, rank);
  r->line = 0;
  r->bad = 0;
  int fd = open(r->path, O_RDONLY | O_NONBLOCK); /* a FIFO would block, /dev/zero never end: refused */
  struct stat st;
  int regular = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= MAX_BYTES;
  int code = fd >= 0 ? BAS_EDATA : bas_error_reading(errno);
  r->in = regular ? met_zread_fdopen(fd) : NULL;
  if (r->in)
    return 0;
  if (regular) {
    snprintf(err, errlen, "%s: out of memory", r->path);
    code = BAS_ENOMEM;
  } else if (fd >= 0) {
    close(fd);
    snprintf(err, errlen, "%s: not a regular file of at most 64 GiB (a folder, a FIFO, a device); %s", r->path, HOW);
  } else if (code != BAS_EDATA) /* too many open files, an I/O error: the machine's, not the folder's */
    snprintf(err, errlen,
             "%s: cannot open it (%s): analyse opens every rank's timeline at once; raise the open-files limit "
             "(ulimit -n) or free the machine's resources and analyse again",
             r->path, strerror(errno));
  else if (announced)
    snprintf(err, errlen, "%s: the run has rank %d but %s cannot be read (%s): a rank did not write its timeline; %s",
             announced, rank, r->path, strerror(errno), HOW);
  else
    no_timeline(dir, r->path, errno, err, errlen);
  return code;
}

/* Every rank's file, open at once, with the next interval of each read ahead. */
typedef struct stream {
  char cut[4300]; /* the first file cut short (a run killed before MPI_Finalize), or "" */
  int nranks;
  reader_t *files;
  met_tl_event_t *ahead;
  int *live;    /* ahead[r] holds an interval */
  double *last; /* the end of rank r's previous interval */
  met_timeline_info_t *info;
  long long unfolded;    /* calls the files' loops unfolded to, when the run is kept whole */
  met_tl_match_t *match; /* the rules the intervals go to, which the files' "# comm" lines define communicators for */
} stream_t;

/* Whether a header line's CPU seconds are a time (a damaged or hostile file may say nan, inf or less than 0). */
static int seconds_ok(double seconds)
{
  return isfinite(seconds) && seconds >= 0;
}

/* A rank's "# start-up AGE INIT" line (AGE -1: not known), kept when its process took the longest to reach time 0 of
 * the lines so far: AGE and INIT of one rank, not the most of each (a rank late to MPI_Init makes the others wait in
 * it: their sum would count the lateness twice). */
static void read_startup(met_timeline_info_t *info, double age, double init)
{
  double known = age >= 0 ? age : NAN;
  double held =
      isnan(info->startup_init) ? -1 : (isnan(info->startup_age) ? 0 : info->startup_age) + info->startup_init;
  if ((isnan(known) ? 0 : known) + init > held) {
    info->startup_age = known;
    info->startup_init = init;
  }
}

/* The longest start-up a "# start-up" line may give, seconds (a day: a process that waited longer before MPI_Init is
 * not one whose start-up a run's figures are about); a longer one is left out. */
#define STARTUP_MAX 86400.0

/* Rank `rank`'s "# disturbance LOAD_START LOAD_END SWITCHES CPU WALL [WAITED [COMPUTE [POLLS [HELD]]]]" line
 * (docs/tracer.md), added to `info`; a line that does not parse is left out, a WAITED, COMPUTE, POLLS or HELD that is
 * not a time too (nan: not given). HELD, the part of the tracer's own time the rank was held off its processor, which a
 * tracer of November 2026 left in the gaps (today's puts it in the computations next to them), is not the tracer's CPU
 * time (usage.own). */
static void read_disturbance(met_timeline_info_t *info, int rank, const char *text)
{
  double load[2], switches, cpu, wall, waited = NAN, compute = NAN, polls = NAN, held = NAN;
  int fields = sscanf(text, "# disturbance %lf %lf %lf %lf %lf %lf %lf %lf %lf", &load[0], &load[1], &switches, &cpu,
                      &wall, &waited, &compute, &polls, &held);
  if (fields < 5 || !seconds_ok(cpu) || !seconds_ok(wall) || !(switches >= 0))
    return;
  double not_running = wall > cpu ? wall - cpu : 0, lost = not_running;
  if (fields >= 6 && seconds_ok(waited)) {
    info->waited_ranks++;
    info->cpu_waited += waited;
    lost = waited;
  }
  for (int i = 0; i < 2; i++)
    if (isfinite(load[i])) {
      info->load_least = isnan(info->load_least) ? load[i] : fmin(info->load_least, load[i]);
      info->load_most = isnan(info->load_most) ? load[i] : fmax(info->load_most, load[i]);
    }
  info->usage_ranks++;
  info->switches += switches;
  info->cpu_wall += wall;
  info->cpu_lost += not_running;
  info->cpu_busiest = fmax(info->cpu_busiest, cpu);
  if (rank < MET_TL_CPU_RANKS) {
    info->usage[rank].cpu = cpu;
    info->usage[rank].wall = wall;
    info->usage[rank].lost = lost;
    info->usage[rank].switches = switches;
    info->usage[rank].compute = fields >= 7 && seconds_ok(compute) ? compute : NAN;
    info->usage[rank].polls = fields >= 8 && seconds_ok(polls) ? polls : NAN;
    info->usage[rank].own -= fields == 9 && seconds_ok(held) ? held : 0; /* with "# tracer-cost", in either order */
  }
  if (fields == 9 && seconds_ok(held))
    info->tracer_held += held;
}

/* The members of a "# comm KEY MEMBER..." line (after "# comm "): each MEMBER a world rank R or FIRST:STRIDE:COUNT,
 * COUNT ranks from FIRST by STRIDE (the tracer's shorthand for rows and columns; STRIDE negative where they descend in
 * the communicator's order), into `members` (room for `room`); their count, or -1 when a field is not one of those or
 * they are more than `room`. */
static int comm_members(const char *text, int *key, int *members, int room)
{
  char *end;
  long long k = strtoll(text, &end, 10);
  if (end == text || k < 0 || k > INT_MAX) /* 0: met_tl_match_define says what a key is */
    return -1;
  *key = (int)k;
  int n = 0;
  for (const char *at = end; *at == ' ';) {
    long long first = strtoll(at + 1, &end, 10), stride = 1, count = 1;
    if (end == at + 1)
      return -1;
    if (*end == ':') {
      stride = strtoll(end + 1, &end, 10);
      count = *end == ':' ? strtoll(end + 1, &end, 10) : -1;
    }
    if ((*end != ' ' && *end != '\0') || first < 0 || first >= room || stride == 0 ||
        (count > 1 && (stride >= room || stride <= -room)) || count < 1 || count > room - n ||
        first + (count - 1) * stride >= room || first + (count - 1) * stride < 0) /* each under 2^16: no overflow */
      return -1;
    for (long long i = 0; i < count; i++)
      members[n++] = (int)(first + i * stride);
    at = end;
  }
  return n;
}

/* Rank `rank`'s "# comm" line, defining a sub-communicator for the pairing of its collectives. 0, or -1 with a
 * message. */
static int read_comm(stream_t *s, int rank, char *err, size_t errlen)
{
  const reader_t *r = &s->files[rank];
  int *members = malloc(sizeof *members * (size_t)s->nranks);
  int key = 0, oom = !members;
  int n = members ? comm_members(r->text + 7, &key, members, s->nranks) : -1;
  const char *problem = oom     ? "out of memory"
                        : n < 0 ? "a '# comm' line is '# comm KEY' and the members' ranks, each R or FIRST:STRIDE:COUNT"
                                : met_tl_match_define(s->match, rank, key, members, n, r->comm_order, &oom);
  free(members);
  if (!problem)
    return 0;
  snprintf(err, errlen, "%s:%ld: %s; %s", r->path, r->line, problem, HOW);
  return -1;
}

/* Copies `text` (a comment's words, which the report prints) into `to` (`size` bytes), a control character as '?':
 * a file's escape sequence must not reach the reader's terminal. */
static void shown_copy(char *to, size_t size, const char *text)
{
  size_t i = 0;
  for (; i + 1 < size && text[i]; i++)
    to[i] = iscntrl((unsigned char)text[i]) ? '?' : text[i];
  to[i] = '\0';
}

/* Rank `rank`'s EXIT_LINE, `rest` after its words: counted once (at most p ranks), its exit status kept when it gives
 * one (", status S"), the first rank's that is not 0; another text after the words is no such line. */
static void read_exit(stream_t *s, int rank, const char *rest)
{
  int status = 0, end = 0;
  if (rest[0] != '\0' && !(sscanf(rest, ", status %d%n", &status, &end) == 1 && rest[end] == '\0'))
    return;
  s->files[rank].exited = 1;
  s->info->exited_ranks++;
  if (status != 0 && s->info->exited_failed++ == 0)
    s->info->exited_status = status;
}

/* A comment the reader takes: the tracer's own time, the program's name, whether the gaps are the tracer's time, the
 * work its runs of polls held, the sub-communicators of collectives, the calls not in the TI trace, a rank's end at its
 * exit without MPI_Finalize, and the calls of other threads, which make the run's trace incomplete (0, or -1 with a
 * message). */
static int read_comment(stream_t *s, int rank, char *err, size_t errlen)
{
  const reader_t *r = &s->files[rank];
  const char *text = r->text;
  double cost, used, counted, of;
  unsigned long others;
  char extra[2];
  if (sscanf(text, "# calls from other threads %lu", &others) == 1) {
    snprintf(err, errlen,
             "%s:%ld: the program made %lu MPI call(s) from threads other than the one that initialised MPI (as "
             "mpi4py.futures and PT-Scotch do), which the tracer does not record: the trace misses them (no "
             "index.txt); make the MPI calls from one thread to trace this program (PT-Scotch's threads, as under "
             "DOLFINx at p = 4: SCOTCH_PTHREAD_NUMBER=1)",
             r->path, r->line, others);
    return -1;
  }
  if (strncmp(text, "# comm ", 7) == 0)
    return read_comm(s, rank, err, errlen);
  if (strncmp(text, OWN_GAPS, strlen(OWN_GAPS)) == 0)
    s->files[rank].own_gaps = 1;
  else if (strncmp(text, COMM_ORDER, strlen(COMM_ORDER)) == 0)
    s->files[rank].comm_order = 1;
  else if (strncmp(text, "# run ", 6) == 0 && !r->run_line) {
    snprintf(s->files[rank].run, sizeof s->files[rank].run, "%s", text + 6);
    s->files[rank].run_line = r->line;
  } else if (sscanf(text, "# tracer-cost %lf %1s", &cost, extra) == 1 && seconds_ok(cost)) {
    s->info->tracer_cost = (isnan(s->info->tracer_cost) ? 0 : s->info->tracer_cost) + cost;
    if (rank < MET_TL_CPU_RANKS)
      s->info->usage[rank].own += cost;
  } else if (strncmp(text, "# disturbance ", 14) == 0 && !s->files[rank].disturbance) {
    s->files[rank].disturbance = 1; /* a rank counts once in usage_ranks, which must reach p */
    read_disturbance(s->info, rank, text);
  } else if (sscanf(text, "# flop-rate %lf flop/s", &used) == 1 && isfinite(used) && used > 0) {
    if (rank < MET_TL_CPU_RANKS) {
      s->info->usage[rank].rate = used;
      s->info->usage[rank].rate_given = strstr(text, "(" MET_FLOPS_GIVEN ")") != NULL;
      s->info->usage[rank].polls_computed = strstr(text, MET_FLOPS_POLLS_COMPUTED) != NULL;
    }
  } else if (sscanf(text, "# polls-work %lf", &used) == 1 && seconds_ok(used)) {
    if (rank < MET_TL_CPU_RANKS)
      s->info->usage[rank].polls_work = used;
  } else if (sscanf(text, "# children-cpu %lf %lf %lf", &used, &counted, &of) == 3 && seconds_ok(used) &&
             seconds_ok(counted) && seconds_ok(of)) {
    s->info->child_cpu += used;
    s->info->child_counted += counted;
    s->info->child_of += of;
  } else if (sscanf(text, "# start-up %lf %lf %1s", &used, &of, extra) == 2 && seconds_ok(of) && of <= STARTUP_MAX &&
             (seconds_ok(used) || used == -1) && used <= STARTUP_MAX && !strpbrk(text, "xX")) {
    read_startup(s->info, used, of);
  } else if (sscanf(text, "# threads-cpu %lf %lf %1s", &used, &of, extra) == 2 && seconds_ok(used) && seconds_ok(of)) {
    s->info->threads_cpu += used;
    s->info->threads_mine += of;
  } else if (strncmp(text, EXIT_LINE, strlen(EXIT_LINE)) == 0 && !s->files[rank].exited) {
    read_exit(s, rank, text + strlen(EXIT_LINE));
  } else if (strncmp(text, "# untraced ", 11) == 0) {
    if (s->info->untraced_ranks++ == 0 || rank < s->info->untraced_rank) {
      shown_copy(s->info->untraced, sizeof s->info->untraced, text + 11);
      s->info->untraced_rank = rank;
    }
  } else if (rank == 0 && strncmp(text, "# program ", 10) == 0)
    shown_copy(s->info->program, sizeof s->info->program, text + 10);
  return 0;
}

/* Checks a loop's header and body against each other: its calls fit in its span. NULL, or what is wrong. */
static const char *loop_problem(const loop_t *l)
{
  double busy = 0;
  for (int j = 0; j < l->nslots; j++)
    busy += l->slots[j].compute + l->slots[j].duration;
  /* the means are written to 1e-12 s: a little more than the span is rounding */
  if (busy * (double)l->count > (l->last - l->first) * (1 + 1e-9) + 1e-12 * (double)(l->count * l->nslots) + 1e-9)
    return "the loop's mean computations and calls times its count last longer than the loop";
  return NULL;
}

/* Reads the loop whose header is r->text and its body, into r->loop; r->loop.count stays 0 when the file is cut
 * short inside the body. 0, or -1 with a message. */
static int read_loop(reader_t *r, met_trace_t *trace, double last, char *err, size_t errlen)
{
  loop_t *l = &r->loop;
  long long count, nslots;
  double first, end;
  char extra[2];
  const char *what = NULL;
  if (sscanf(r->text, "loop %lld %lld %lf %lf %1s", &count, &nslots, &first, &end, extra) != 4 ||
      !decimal_fields(r->text + 5, 4))
    what = "expected 'loop COUNT SLOTS FIRST LAST'";
  else if (count < 1 || count > MAX_ITERATIONS || nslots < 1 || nslots > MAX_SLOTS)
    what = "a loop's count must be 1 to 2^32 and its slots 1 to 4096";
  else if (r->unfolded && (*r->unfolded += count * nslots) > MAX_KEPT)
    what = KEPT_ERROR;
  else if (!isfinite(first) || !isfinite(end) || first < last || end < first)
    what = "a loop's first and last times must follow the previous interval, first <= last";
  if (!what && nslots > l->cap) {
    slot_t *more = realloc(l->slots, (size_t)nslots * sizeof *more);
    if (!more)
      what = "out of memory";
    else {
      l->slots = more;
      l->cap = (int)nslots;
    }
  }
  long header = r->line;
  for (int j = 0; !what && j < nslots; j++) {
    if (next_line(r) != 0 || r->partial)
      return bad_line(r, err, errlen) ? -1 : 0;
    if (strncmp(r->text, "= ", 2) != 0)
      what = "a loop's body line starts with '= '";
    else if (parse_interval(r, trace, 0, 1, &l->slots[j].ev, err, errlen) != 0)
      return -1;
    else {
      l->slots[j].compute = l->slots[j].ev.iv.start;
      l->slots[j].duration = l->slots[j].ev.iv.end;
    }
  }
  l->count = count;
  l->nslots = (int)nslots;
  l->first = first;
  l->last = end;
  if (!what && (what = loop_problem(l)) != NULL)
    r->line = header;
  if (what) {
    l->count = 0;
    snprintf(err, errlen, "%s:%ld: %s; %s", r->path, r->line, what, HOW);
    return -1;
  }
  double busy = 0;
  int gaps = 0; /* the tracer's, one after each call but before a later piece of it (unfold) */
  for (int j = 0; j < l->nslots; j++) {
    busy += l->slots[j].compute + l->slots[j].duration;
    gaps += j == 0 || !l->slots[j].ev.continues;
  }
  l->period = (end - first) / (double)count;
  l->gap = l->period > busy ? (l->period - busy) / gaps : 0;
  l->k = l->j = l->in_call = 0;
  l->t = first;
  return 0;
}

/* The loop's next interval into *it: slot j's computation (when it has one), then its call. */
static void unfold(loop_t *l, met_tl_event_t *it)
{
  const slot_t *s = &l->slots[l->j];
  if (l->j == 0 && !l->in_call) {
    double at = l->first + (double)l->k * l->period;
    l->t = at > l->t ? at : l->t;
  }
  if (!l->in_call && s->compute > 0) {
    *it = (met_tl_event_t){.iv = {.start = l->t,
                                  .end = fmin(l->t + s->compute, l->last),
                                  .category = MET_CAT_COMPUTE,
                                  .phase = s->ev.iv.phase,
                                  .peer = -1},
                           .kind = TL_OTHER,
                           .tag = -1};
    snprintf(it->call, sizeof it->call, "-");
    l->t = it->iv.end;
    l->in_call = 1;
    return;
  }
  *it = s->ev;
  it->iv.start = l->t;
  it->iv.end = fmin(l->t + s->duration, l->last);
  l->in_call = 0;
  if (++l->j == l->nslots) {
    l->j = 0;
    if (++l->k == l->count)
      l->count = 0;
  }
  int continued = l->j > 0 && l->slots[l->j].ev.continues; /* a later line of this call: at its end */
  l->t = continued ? it->iv.end : fmin(it->iv.end + l->gap, l->last);
}

/* Reads rank `rank`'s next interval into ahead[rank] (live[rank] 0 after its "# end" line). A file that stops
 * before that line (a run killed before MPI_Finalize, perhaps half a last line) is read up to its last whole line and
 * named in s->cut. 0, or -1 with a message. */
static int read_ahead(stream_t *s, met_trace_t *trace, int rank, char *err, size_t errlen)
{
  reader_t *r = &s->files[rank];
  s->live[rank] = 0;
  if (r->has_pending) {
    s->ahead[rank] = r->pending;
    r->has_pending = 0;
    s->last[rank] = s->ahead[rank].iv.end;
    s->live[rank] = 1;
    return 0;
  }
  if (r->loop.count > 0) {
    unfold(&r->loop, &s->ahead[rank]);
    s->last[rank] = s->ahead[rank].iv.end;
    s->live[rank] = 1;
    return 0;
  }
  while (next_line(r) == 0 && !r->partial) {
    if (strncmp(r->text, "# end", 5) == 0) {
      if (next_line(r) == 0 || bad_line(r, err, errlen)) {
        if (!r->bad)
          snprintf(err, errlen, "%s:%ld: a line after '# end'; the folder mixes runs; %s", r->path, r->line, HOW);
        return -1;
      }
      return 0;
    }
    if (r->text[0] == '#' && read_comment(s, rank, err, errlen) != 0)
      return -1;
    if (r->text[0] == '#' || r->text[0] == '\0')
      continue;
    if (r->unfolded && ++*r->unfolded > MAX_KEPT) {
      snprintf(err, errlen, "%s:%ld: %s; %s", r->path, r->line, KEPT_ERROR, HOW);
      return -1;
    }
    if (strncmp(r->text, "loop ", 5) == 0) {
      if (read_loop(r, trace, s->last[rank], err, errlen) != 0)
        return -1;
      if (!r->loop.count)
        break; /* cut short inside the body */
      r->prev = llround(r->loop.last * 1e9);
      unfold(&r->loop, &s->ahead[rank]);
    } else if (r->version == 2 && strncmp(r->text, "d ", 2) == 0) {
      if (read_definition(r, trace, err, errlen) != 0)
        return -1;
      continue;
    } else if (r->version == 2 ? read_record(r, trace, &s->ahead[rank], err, errlen) != 0
                               : parse_interval(r, trace, s->last[rank], 0, &s->ahead[rank], err, errlen) != 0)
      return -1;
    s->last[rank] = s->ahead[rank].iv.end;
    s->live[rank] = 1;
    return 0;
  }
  if (bad_line(r, err, errlen))
    return -1;
  if (!s->cut[0])
    snprintf(s->cut, sizeof s->cut,
             "%s:%ld: cut short: the file ends before its '# end' line (the run stopped before MPI_Finalize, or is "
             "still running); read up "
             "to its last whole line",
             r->path, r->partial ? r->line - 1 : r->line);
  return 0;
}

/* The rank whose next interval starts first (ties to the lower rank), or -1 when every file is read. */
static int earliest(const stream_t *s)
{
  int best = -1;
  for (int r = 0; r < s->nranks; r++)
    if (s->live[r] && (best < 0 || s->ahead[r].iv.start < s->ahead[best].iv.start))
      best = r;
  return best;
}

/* Opens every rank's file (rank 0's header gives P) and makes the trace. 0, or -1 with a message. */
static int open_all(stream_t *s, const char *dir, int flags, met_trace_t **trace, char *err, size_t errlen)
{
  reader_t first = {0};
  char announced[4200];
  int nranks = 0;
  int rc = open_rank(&first, dir, 0, NULL, err, errlen);
  if (rc != 0)
    return rc;
  if (read_header(&first, 0, &nranks, err, errlen) != 0) {
    met_zread_close(first.in);
    return BAS_EDATA;
  }
  snprintf(announced, sizeof announced, "%s:2", first.path);
  s->files = calloc((size_t)nranks, sizeof *s->files);
  s->ahead = calloc((size_t)nranks, sizeof *s->ahead);
  s->live = calloc((size_t)nranks, sizeof *s->live);
  s->last = calloc((size_t)nranks, sizeof *s->last);
  int keep = flags & MET_TL_KEEP;
  *trace = keep                   ? met_trace_new(nranks)
           : flags & MET_TL_SPILL ? met_trace_new_spilled(nranks)
                                  : met_trace_new_aggregate(nranks);
  if (!s->files || !s->ahead || !s->live || !s->last || !*trace || (!keep && met_trace_sum_waits(*trace) != 0)) {
    snprintf(err, errlen, "%s: out of memory for %d ranks%s", first.path, nranks,
             flags & MET_TL_SPILL && !keep ? ", or no temporary file for its intervals in $TMPDIR, else /tmp" : "");
    met_zread_close(first.in);
    return BAS_ENOMEM;
  }
  s->nranks = nranks;
  s->files[0] = first;
  s->files[0].unfolded = keep ? &s->unfolded : NULL;
  for (int rank = 1; rank < nranks; rank++) {
    if ((rc = open_rank(&s->files[rank], dir, rank, announced, err, errlen)) != 0)
      return rc;
    if (read_header(&s->files[rank], rank, &nranks, err, errlen) != 0)
      return BAS_EDATA;
    s->files[rank].unfolded = keep ? &s->unfolded : NULL;
  }
  return 0;
}

static void close_all(stream_t *s)
{
  for (int r = 0; s->files && r < s->nranks; r++) {
    met_zread_close(s->files[r].in);
    free(s->files[r].loop.slots);
    free(s->files[r].sigs);
  }
  free(s->files);
  free(s->ahead);
  free(s->live);
  free(s->last);
}

/* Rank `rank`'s next interval as the rules take it: with the tracer's own time removed when its file says that the
 * gaps are that time (docs/tracer.md, "The library's own time"), so that it starts where the previous one ended; its
 * end as read is kept for the order of the files. Rank 0 reads time 0 itself, so the gap before its first interval is
 * the tracer's too (its time-0 broadcast and the lines it writes then, which "# tracer-cost" counts): it starts at 0.
 * Kept, that gap was idle with no one to wait for (ffindex_apply_mpi at p = 1 under a load of 3: 1.6 ms, the run's
 * whole idle time, and its "# tracer-cost"). */
static const met_tl_event_t *compensated(stream_t *s, int rank)
{
  reader_t *r = &s->files[rank];
  met_tl_event_t *ev = &s->ahead[rank]; /* in place: read_ahead reads the next over it */
  ev->read_start = ev->iv.start;
  ev->read_end = ev->iv.end;
  if (!s->info->compensated)
    return ev;
  if (!r->started) { /* a rank that took rank 0's time 0 starts where it read its clock: no tracer time before */
    r->started = 1;
    r->pushed_end = r->compensated = rank == 0 ? 0 : ev->iv.start;
  }
  double gap = ev->iv.start - r->pushed_end;
  s->info->own_gaps += gap > 0 ? gap : 0;
  r->pushed_end = ev->iv.end;
  ev->iv.start = r->compensated;
  ev->iv.end = r->compensated + (ev->read_end - ev->read_start);
  r->compensated = ev->iv.end;
  return ev;
}

/* Whether every rank's file says that its gaps are the tracer's own time (read with the headers' comments). */
static int all_own_gaps(const stream_t *s)
{
  for (int r = 0; r < s->nranks; r++)
    if (!s->files[r].own_gaps)
      return 0;
  return 1;
}

/* "FILE:LINE: run ID" for file `f`'s "# run" line, or "FILE: no '# run' line" (a tracer before them, a hand-made file).
 */
static void describe_run(const reader_t *f, char *out, size_t len)
{
  if (f->run[0])
    snprintf(out, len, "%s:%ld: run %s", f->path, f->run_line, f->run);
  else
    snprintf(out, len, "%s: no '# run' line", f->path);
}

/* Whether every rank's file has rank 0's "# run" line (read with the comments before its first interval), or none
 * has: a folder into which two runs wrote (one of p = 2, then another of p = 2 started later) pairs one run's sends
 * with the other's receives. 0, or -1 with the first file that differs in err. */
static int mixed_runs(const stream_t *s, char *err, size_t errlen)
{
  for (int r = 1; r < s->nranks; r++)
    if (strcmp(s->files[r].run, s->files[0].run) != 0) {
      char mine[4800], first[4800];
      describe_run(&s->files[r], mine, sizeof mine);
      describe_run(&s->files[0], first, sizeof first);
      snprintf(err, errlen,
               "%s, where %s: the folder mixes the files of two runs; trace the program again into an empty folder "
               "(SIMRUN_TRACE_DIR)",
               mine, first);
      return -1;
    }
  return 0;
}

/* Why the trace refused an interval: a spilled trace's file could not take it, else memory ran out. The code. */
static int refused(const met_trace_t *trace, const char *dir, char *err, size_t errlen)
{
  if (met_trace_spill_ok(trace)) {
    snprintf(err, errlen, "%s: out of memory", dir);
    return BAS_ENOMEM;
  }
  snprintf(err, errlen,
           "%s: the temporary file of its intervals in %s could not be written (full?); free room there or set TMPDIR "
           "to a roomier folder",
           dir, bas_temp_dir());
  return BAS_EIO;
}

/* Reads the intervals in start-time order into the rules, which hand them to the trace once no later one can change
 * them. 0, or -1 with a message. */
static int stream_intervals(stream_t *s, met_tl_match_t *m, met_trace_t *trace, const char *dir, char *err,
                            size_t errlen)
{
  for (int r = 0; r < s->nranks; r++)
    if (read_ahead(s, trace, r, err, errlen) != 0)
      return BAS_EDATA;
  if (mixed_runs(s, err, errlen) != 0)
    return BAS_EDATA;
  s->info->compensated = all_own_gaps(s);
  if (s->info->compensated)
    met_tl_match_keep_causality(m);
  for (int r; (r = earliest(s)) >= 0;) {
    if (met_tl_match_push(m, r, compensated(s, r)) != 0) {
      snprintf(err, errlen, "%s: out of memory", dir);
      return BAS_ENOMEM;
    }
    if (read_ahead(s, trace, r, err, errlen) != 0)
      return BAS_EDATA;
    int next = earliest(s);
    if (met_tl_match_flush(m, trace, next < 0 ? INFINITY : s->ahead[next].iv.start) != 0)
      return refused(trace, dir, err, errlen);
  }
  if (met_tl_match_flush(m, trace, INFINITY) != 0 || met_trace_end_calls(trace) != 0 ||
      met_trace_spill_sync(trace) != 0)
    return refused(trace, dir, err, errlen);
  return 0;
}

/* The reason the tracer added to marker `name` in `dir` (its first "why: " line: docs/tracer.md) into `why` (`size`
 * bytes), printable characters only and cut to the room: 1, or 0 when it has none. Read as a user's file: a regular
 * file only (not a FIFO, which would never end), its first MARKER_READ bytes. */
enum { MARKER_READ = 4096 };

static int marker_why(const char *dir, const char *name, char *why, size_t size)
{
  char path[PATH_MAX + 300];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  char text[MARKER_READ + 1];
  ssize_t len = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, text, MARKER_READ) : -1;
  if (fd >= 0)
    close(fd);
  text[len > 0 ? len : 0] = '\0';
  const char *at = strncmp(text, "why: ", 5) == 0 ? text : strstr(text, "\nwhy: ");
  if (!at)
    return 0;
  at += at[0] == '\n' ? 6 : 5;
  size_t n = 0;
  for (; n + 1 < size && at[n] && at[n] != '\n'; n++)
    why[n] = isprint((unsigned char)at[n]) ? at[n] : '?';
  why[n] = '\0';
  return n > 0;
}

/* A marker found in a folder: its name (its rank's digits as the name gives them), and how it ranks for the refusal's
 * choice (lower first): a marker saying its rank called MPI_Abort (the cause: mpirun then stops the others, whose
 * handlers may exit and say so too), then one with another why, then one without, each by rank. */
typedef struct marker {
  char name[NAME_MAX + 1];
  int kind; /* 0: MPI_Abort, 1: another why, 2: none */
  unsigned long long rank;
  char why[240];
} marker_t;

/* Whether directory entry `name` is a marker (incomplete-DIGITS), read into *m. */
static int read_marker(const char *dir, const char *name, marker_t *m)
{
  static const char prefix[] = "incomplete-";
  const char *digits = name + strlen(prefix);
  if (strncmp(name, prefix, strlen(prefix)) != 0 || !*digits || digits[strspn(digits, "0123456789")] != '\0' ||
      strlen(name) > NAME_MAX)
    return 0;
  snprintf(m->name, sizeof m->name, "%s", name);
  errno = 0;
  m->rank = strtoull(digits, NULL, 10);
  if (errno == ERANGE)
    m->rank = ULLONG_MAX;
  m->kind = !marker_why(dir, name, m->why, sizeof m->why) ? 2 : strncmp(m->why, "it called MPI_Abort", 19) == 0 ? 0 : 1;
  return 1;
}

/* A folder where the tracer left a rank's marker (incomplete-N: docs/tracer.md, "A run that ends abnormally"), which
 * the rank removes only once its files are closed whole. 0, or BAS_EDATA with a message naming the marker that says
 * most about why the run stopped (marker_t's order), by its file's own name, quoting its why. */
static int unfinished(const char *dir, char *err, size_t errlen)
{
  DIR *d = opendir(dir);
  int count = 0;
  marker_t best, m;
  for (const struct dirent *e; d && (e = readdir(d));)
    if (read_marker(dir, e->d_name, &m)) {
      if (count++ == 0 || m.kind < best.kind || (m.kind == best.kind && m.rank < best.rank))
        best = m;
    }
  if (d)
    closedir(d);
  if (!count)
    return 0;
  char others[64] = "";
  if (count > 1)
    snprintf(others, sizeof others, " (nor did %d other rank%s)", count - 1, count > 2 ? "s" : "");
  const char *digits = best.name + strlen("incomplete-");
  if (best.kind < 2)
    snprintf(err, errlen,
             "%s/%s: rank %s did not finish%s: %s; read what the run wrote with simrun analyse --partial, or run it "
             "again",
             dir, best.name, digits, others, best.why);
  else
    snprintf(err, errlen,
             "%s/%s: rank %s did not finish%s: the run was killed or aborted, or could not write its files, before "
             "MPI_Finalize, or exited without it where the tracer could not end them (its warning said why), or is "
             "still running; run it again (or let it end), or read what it wrote with simrun analyse --partial",
             dir, best.name, digits, others);
  return BAS_EDATA;
}

met_trace_t *met_timeline_stream(const char *dir, int flags, met_timeline_info_t *info, char *err, size_t errlen)
{
  met_timeline_info_t own;
  stream_t s = {.info = info ? info : &own};
  *s.info = (met_timeline_info_t){
      .tracer_cost = NAN, .load_least = NAN, .load_most = NAN, .startup_age = NAN, .startup_init = NAN};
  for (int i = 0; i < MET_TL_CPU_RANKS; i++)
    s.info->usage[i].compute = s.info->usage[i].polls = s.info->usage[i].polls_work = s.info->usage[i].rate =
        NAN; /* until lines give them */
  met_trace_t *trace = NULL;
  met_tl_match_t *m = NULL;
  if (errlen)
    err[0] = '\0';
  int rc = flags & MET_TL_PARTIAL ? 0 : unfinished(dir, err, errlen);
  if (rc == 0)
    rc = open_all(&s, dir, flags, &trace, err, errlen);
  if (rc == 0 && !(m = met_tl_match_new(s.nranks))) {
    snprintf(err, errlen, "%s: out of memory for %d ranks", dir, s.nranks);
    rc = BAS_ENOMEM;
  }
  s.match = m;
  if (rc == 0)
    rc = stream_intervals(&s, m, trace, dir, err, errlen);
  if (rc == 0)
    met_tl_match_counts(m, &s.info->matched, &s.info->unmatched, &s.info->collectives, &s.info->colls_unpaired,
                        &s.info->colls_undefined, &s.info->starts);
  if (rc == 0) {
    s.info->unreceived = met_tl_match_unreceived(m);
    s.info->given_up = met_tl_match_given_up(m);
    s.info->scans_unordered = met_tl_match_scans_unordered(m);
    s.info->colls_held = met_tl_match_colls_held(m);
    met_tl_match_moved(m, &s.info->own_put_back, &s.info->waits_removed);
    met_tl_clock_counts_t clock = met_tl_match_clock(m);
    s.info->clock_moved = clock.receives;
    s.info->clock_max = clock.max;
    s.info->clock_total = clock.total;
    s.info->clock_later = clock.later;
  }
  met_tl_match_free(m);
  close_all(&s);
  if (rc == 0)
    snprintf(err, errlen, "%s", s.cut);
  s.info->error = rc;
  if (rc == 0)
    return trace;
  met_trace_free(trace);
  return NULL;
}

/* The bytes timeline `path` (`size` bytes on disk) would take unfolded and in format 1 beyond that size
 * (met_timeline_bytes): its loops', in format 2 its records' (a record line of about 20 bytes stands for two lines of
 * format 1), and for a compressed file its text's. */
static double loop_bytes(const char *path, double size)
{
  met_zread_t *in = met_zread_open(path);
  char line[MAX_LINE] = "";
  double bytes = 0;
  double text = 0;
  long long count, slots;
  int compact = in && met_zread_gets(in, line, sizeof line) > 0 && strncmp(line, MAGIC2, strlen(MAGIC2)) == 0;
  if (in)
    text = (double)strlen(line);
  while (in && met_zread_gets(in, line, sizeof line) > 0) {
    text += (double)strlen(line);
    if (strncmp(line, "loop ", 5) == 0 && sscanf(line + 5, "%lld %lld", &count, &slots) == 2 && count > 0 && slots > 0)
      bytes += 96.0 * (double)count * (double)slots;
    else if (compact && line[0] >= '0' && line[0] <= '9')
      bytes += 96.0 - (double)strlen(line);
  }
  met_zread_close(in);
  return in ? bytes + text - size : 0;
}

double met_timeline_bytes(const char *dir, double limit)
{
  DIR *d = opendir(dir);
  double bytes = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    char path[4400];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (strncmp(e->d_name, "timeline-", 9) == 0 && stat(path, &st) == 0)
      bytes += (double)st.st_size;
  }
  if (d)
    rewinddir(d);
  for (struct dirent *e; d && bytes <= limit && (e = readdir(d));) {
    char path[4400];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    /* regular files only: a device or a pipe (/dev/zero) never ends, and the reader refuses it on its own */
    if (strncmp(e->d_name, "timeline-", 9) == 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode))
      bytes += loop_bytes(path, (double)st.st_size);
  }
  if (d)
    closedir(d);
  return bytes;
}

int met_timeline_program(const char *dir, char *name, size_t size)
{
  char path[4400], line[MAX_LINE];
  struct stat st;
  snprintf(path, sizeof path, "%s/timeline-0.txt", dir);
  /* a regular file only: a pipe there would never end (the reader refuses it on its own) */
  met_zread_t *in = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? met_zread_open(path) : NULL;
  int found = 0;
  for (int n = 0; in && !found && n < HEADER_LINES && met_zread_gets(in, line, sizeof line) > 0 && line[0] == '#'; n++)
    if (strncmp(line, "# program ", 10) == 0) {
      line[strcspn(line, "\n")] = '\0';
      shown_copy(name, size, line + 10);
      found = 1;
    }
  met_zread_close(in);
  return found;
}
