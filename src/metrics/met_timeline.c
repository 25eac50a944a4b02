/* Reads the measured timelines of a traced MPI run (met_timeline.h, docs/tracer.md) into a met_trace_t, checking
 * every line, so that a malformed folder is refused with the file and line to blame (a run killed before
 * MPI_Finalize is read up to its last whole line); then splits each matched blocking send and receive into the wait
 * for its partner (idle) and the transfer (communication). */
#define _POSIX_C_SOURCE 200809L /* fdopen */
#include "met_timeline.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "# simrun measured timeline 1"
#define HOW   "trace the run again (docs/tracer.md)"

/* The bounds of a timeline (docs/hostile-input.md): a line is a few numbers and names, well under 4 KiB; a run has at
 * most MAX_RANKS ranks (the matching of messages keeps ranks x ranks counters); a file at most 64 GiB. */
#define MAX_LINE   4096
#define MAX_RANKS  65536
#define MAX_BYTES  (64LL << 30)
#define LINE_ERROR "a line longer than 4095 characters, or a NUL byte: not a timeline"

/* One file being read: where, for messages. */
typedef struct reader {
  FILE *in;
  char path[4096];
  long line;
  char text[MAX_LINE];
  int bad;     /* the last line was cut by the buffer or by a NUL byte */
  int partial; /* the last line of the file had no newline: a record cut by a killed run */
} reader_t;

/* What kind of call an interval is, for matching messages. */
typedef enum call_kind { CALL_OTHER = 0, CALL_SEND, CALL_RECV } call_kind_t;

typedef struct item {
  met_interval_t iv;
  call_kind_t kind;
  int matched;     /* a receive already paired with a send */
  double idle_end; /* the wait for the partner ends here (= iv.start when none) */
} item_t;

/* One rank's intervals as read, before they go into the trace. */
typedef struct rank_items {
  item_t *items;
  size_t n;
  size_t cap;
} rank_items_t;

static call_kind_t kind_of(const char *call)
{
  static const char *const sends[] = {"MPI_Send", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend"};
  for (size_t i = 0; i < sizeof sends / sizeof sends[0]; i++)
    if (strcmp(call, sends[i]) == 0)
      return CALL_SEND;
  return strcmp(call, "MPI_Recv") == 0 ? CALL_RECV : CALL_OTHER;
}

/* The next line into r->text, without its line end: 0; -1 at the end of the file or on a bad line (r->bad). */
static int next_line(reader_t *r)
{
  if (r->bad || !fgets(r->text, sizeof r->text, r->in))
    return -1;
  r->line++;
  size_t len = strlen(r->text);
  if ((len == 0 || r->text[len - 1] != '\n') && !feof(r->in)) {
    r->bad = 1;
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
  if (r->bad)
    snprintf(err, errlen, "%s:%ld: " LINE_ERROR "; %s", r->path, r->line, HOW);
  return r->bad;
}

/* Whether the numeric fields of an interval line (start, end, peer, bytes: the 1st, 2nd, 5th and 6th) are written in
 * decimal: sscanf would take hexadecimal, inf and nan too. */
static int decimal_fields(const char *text)
{
  for (int field = 0; *text; field++) {
    text += strspn(text, " \t");
    size_t len = strcspn(text, " \t");
    if ((field <= 1 || field == 4 || field == 5) && strspn(text, "0123456789.+-eE") < len)
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

/* Parses an interval line into *it, which must start at or after `last` (the previous interval's end); 0, or -1 with
 * the message in err. */
static int parse_interval(reader_t *r, met_trace_t *trace, double last, item_t *it, char *err, size_t errlen)
{
  double start, end, bytes;
  char category[16], phase[128], call[64], extra[2];
  long long peer;
  int fields = sscanf(r->text, "%lf %lf %15s %127s %lld %lf %63s %1s", &start, &end, category, phase, &peer, &bytes,
                      call, extra);
  const char *what = NULL;
  if (fields != 7)
    what = "expected 7 fields 'start end category phase peer bytes call'";
  else if (!decimal_fields(r->text))
    what = "a number is not written in decimal (no hexadecimal, inf or nan)";
  else if (!isfinite(start) || !isfinite(end) || start < 0 || end < start)
    what = "the interval's start and end must be times >= 0 with start <= end";
  else if (start < last)
    what = "the interval starts before the previous one ends";
  else if (category_of(category) == MET_CAT_COUNT)
    what = "unknown category (compute, io, ctrl, comm or idle)";
  else if (peer < -1 || peer >= met_trace_nranks(trace))
    what = "the partner is not a rank of the run nor -1";
  else if (!isfinite(bytes) || bytes < 0)
    what = "the bytes must be a number >= 0";
  int id = what ? -1 : met_trace_phase_id(trace, phase);
  if (!what && id < 0)
    what = "out of memory";
  if (what) {
    snprintf(err, errlen, "%s:%ld: %s; %s", r->path, r->line, what, HOW);
    return -1;
  }
  it->iv = (met_interval_t){
      .start = start, .end = end, .category = category_of(category), .phase = id, .peer = (int)peer, .bytes = bytes};
  it->kind = peer >= 0 ? kind_of(call) : CALL_OTHER;
  it->matched = 0;
  it->idle_end = start;
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
      snprintf(err, errlen, "%s:1: the file is empty: the run stopped before its first lines were written; %s", r->path,
               HOW);
    return -1;
  }
  if (strcmp(r->text, MAGIC) != 0) {
    snprintf(err, errlen,
             "%s:%ld: not a measured timeline (the first line must be '" MAGIC "'); give a folder that "
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

/* Appends a copy of `it`; 0, or -1 when out of memory. */
static int push(rank_items_t *list, const item_t *it)
{
  if (list->n == list->cap) {
    size_t cap = list->cap ? 2 * list->cap : 256;
    item_t *more = realloc(list->items, cap * sizeof *more);
    if (!more)
      return -1;
    list->items = more;
    list->cap = cap;
  }
  list->items[list->n++] = *it;
  return 0;
}

/* Reads the rank's intervals into `list` up to the "# end" line. 0; 1 when the file stops before it (a run killed
 * before MPI_Finalize), after its last whole line, with a message; or -1 with a message. */
static int read_intervals(reader_t *r, met_trace_t *trace, rank_items_t *list, char *err, size_t errlen)
{
  while (next_line(r) == 0 && !r->partial) {
    if (strncmp(r->text, "# end", 5) == 0) {
      if (next_line(r) == 0 || bad_line(r, err, errlen)) {
        if (!r->bad)
          snprintf(err, errlen, "%s:%ld: a line after '# end'; the folder mixes runs; %s", r->path, r->line, HOW);
        return -1;
      }
      return 0;
    }
    if (r->text[0] == '#' || r->text[0] == '\0')
      continue;
    item_t it;
    if (parse_interval(r, trace, list->n ? list->items[list->n - 1].iv.end : 0, &it, err, errlen) != 0)
      return -1;
    if (push(list, &it) != 0) {
      snprintf(err, errlen, "%s:%ld: out of memory", r->path, r->line);
      return -1;
    }
  }
  if (bad_line(r, err, errlen))
    return -1;
  snprintf(err, errlen,
           "%s:%ld: cut short: the file ends before its '# end' line (the run stopped before MPI_Finalize); read up "
           "to its last whole line",
           r->path, r->partial ? r->line - 1 : r->line);
  return 1;
}

/* Pairs the k-th blocking send from s to d with the k-th blocking receive at d from s (MPI's non-overtaking order;
 * tags are not in the timeline) and sets both ends' idle_end: a receive waits until the sender entered its send; a
 * send that lasts past the receiver's entry (a rendezvous) waits until that entry, one that ends before it (an eager
 * send) does not wait. `cursor` has nranks x nranks entries, zeroed. */
static void match_messages(rank_items_t *ranks, int nranks, size_t *cursor)
{
  for (int s = 0; s < nranks; s++)
    for (size_t i = 0; i < ranks[s].n; i++) {
      item_t *send = &ranks[s].items[i];
      if (send->kind != CALL_SEND)
        continue;
      int d = send->iv.peer;
      size_t *at = &cursor[(size_t)s * (size_t)nranks + (size_t)d];
      while (*at < ranks[d].n && (ranks[d].items[*at].kind != CALL_RECV || ranks[d].items[*at].iv.peer != s))
        (*at)++;
      if (*at == ranks[d].n)
        continue;
      item_t *recv = &ranks[d].items[(*at)++];
      recv->matched = 1;
      recv->idle_end = fmin(recv->iv.end, fmax(recv->iv.start, send->iv.start));
      send->matched = 1;
      if (send->iv.end > recv->iv.start)
        send->idle_end = fmin(send->iv.end, fmax(send->iv.start, recv->iv.start));
    }
}

/* Adds the rank's items to the trace, a matched message as its idle wait then its transfer, both with the end this
 * rank is (sender or receiver). 0, or -1 out of memory. */
static int add_items(met_trace_t *trace, int rank, const rank_items_t *list)
{
  for (size_t i = 0; i < list->n; i++) {
    const item_t *it = &list->items[i];
    met_interval_t wait = it->iv;
    met_interval_t transfer = it->iv;
    wait.end = transfer.start = it->idle_end;
    wait.category = MET_CAT_IDLE;
    transfer.category = MET_CAT_COMM;
    if (it->matched) /* a matched message knows which end this is: wait states and drawn messages need it */
      wait.dir = transfer.dir = it->kind == CALL_SEND ? MET_DIR_SEND : MET_DIR_RECV;
    if (it->matched ? met_trace_add(trace, rank, &wait) != 0 || met_trace_add(trace, rank, &transfer) != 0
                    : met_trace_add(trace, rank, &it->iv) != 0)
      return -1;
  }
  return 0;
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
  r->in = regular ? fdopen(fd, "r") : NULL;
  if (r->in)
    return 0;
  if (fd >= 0) {
    close(fd);
    snprintf(err, errlen, "%s: not a regular file of at most 64 GiB (a folder, a FIFO, a device); %s", r->path, HOW);
  } else if (announced)
    snprintf(err, errlen, "%s: the run has rank %d but %s cannot be read (%s): a rank did not write its timeline; %s",
             announced, rank, r->path, strerror(errno), HOW);
  else
    snprintf(err, errlen, "%s: cannot read it (%s); give a folder that libsimrun-trace.so wrote (SIMRUN_TRACE_DIR)",
             r->path, strerror(errno));
  return -1;
}

static void free_items(rank_items_t *ranks, int nranks)
{
  for (int r = 0; ranks && r < nranks; r++)
    free(ranks[r].items);
  free(ranks);
}

/* Reads every rank's file into *ranks (allocated once rank 0's header gave P, in *nranks) and a new *trace with the
 * phases. 0, or -1 with a message. */
static int read_ranks(const char *dir, met_trace_t **trace, rank_items_t **ranks, int *nranks, char *err, size_t errlen)
{
  reader_t r = {0};
  char announced[4200] = "";
  char cut[4300] = ""; /* the first file cut short */
  int rc = 0;
  for (int rank = 0; rc == 0 && (rank == 0 || rank < *nranks); rank++) {
    if ((rc = open_rank(&r, dir, rank, rank ? announced : NULL, err, errlen)) != 0)
      break;
    rc = read_header(&r, rank, nranks, err, errlen);
    if (rc == 0 && rank == 0) {
      snprintf(announced, sizeof announced, "%s:2", r.path);
      *trace = met_trace_new(*nranks);
      *ranks = calloc((size_t)*nranks, sizeof **ranks);
      if (!*trace || !*ranks) {
        snprintf(err, errlen, "%s: out of memory for %d ranks", r.path, *nranks);
        rc = -1;
      }
    }
    if (rc == 0 && (rc = read_intervals(&r, *trace, &(*ranks)[rank], err, errlen)) == 1) {
      if (!cut[0])
        snprintf(cut, sizeof cut, "%s", err);
      rc = 0;
    }
    fclose(r.in);
  }
  if (rc == 0)
    snprintf(err, errlen, "%s", cut);
  return rc;
}

met_trace_t *met_timeline_read(const char *dir, char *err, size_t errlen)
{
  met_trace_t *trace = NULL;
  rank_items_t *ranks = NULL;
  int nranks = 0;
  int rc = read_ranks(dir, &trace, &ranks, &nranks, err, errlen);
  size_t *cursor = rc == 0 ? calloc((size_t)nranks * (size_t)nranks, sizeof *cursor) : NULL;
  if (rc == 0 && !cursor) {
    snprintf(err, errlen, "%s: out of memory for %d ranks", dir, nranks);
    rc = -1;
  }
  if (rc == 0)
    match_messages(ranks, nranks, cursor);
  for (int rank = 0; rc == 0 && rank < nranks; rank++)
    if ((rc = add_items(trace, rank, &ranks[rank])) != 0)
      snprintf(err, errlen, "%s: out of memory", dir);
  free(cursor);
  free_items(ranks, nranks);
  if (rc == 0)
    return trace;
  met_trace_free(trace);
  return NULL;
}
