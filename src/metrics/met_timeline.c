/* Reads the measured timelines of a traced MPI run (met_timeline.h, docs/tracer.md) into a met_trace_t, checking
 * every line, so that a folder left by a crashed run is refused with the file and line to blame. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "met_timeline.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "# simrun measured timeline 1"
#define HOW   "trace the run again (docs/tracer.md)"

/* One file being read: where, for messages. */
typedef struct reader {
  FILE *in;
  char path[4096];
  int line;
  char *text;
  size_t cap;
} reader_t;

static int next_line(reader_t *r)
{
  ssize_t len = getline(&r->text, &r->cap, r->in);
  if (len < 0)
    return -1;
  r->line++;
  while (len > 0 && (r->text[len - 1] == '\n' || r->text[len - 1] == '\r'))
    r->text[--len] = '\0';
  return 0;
}

static met_category_t category_of(const char *name)
{
  for (int c = 0; c < MET_CAT_COUNT; c++)
    if (strcmp(met_category_name((met_category_t)c), name) == 0)
      return (met_category_t)c;
  return MET_CAT_COUNT;
}

/* Parses an interval line into *iv; 0, or -1 with the message in err. */
static int parse_interval(reader_t *r, met_trace_t *trace, met_interval_t *iv, char *err, size_t errlen)
{
  double start, end, bytes;
  char category[16], phase[128], call[64], extra[2];
  int peer;
  int fields =
      sscanf(r->text, "%lf %lf %15s %127s %d %lf %63s %1s", &start, &end, category, phase, &peer, &bytes, call, extra);
  const char *what = NULL;
  if (fields != 7)
    what = "expected 7 fields 'start end category phase peer bytes call'";
  else if (!isfinite(start) || !isfinite(end) || start < 0 || end < start)
    what = "the interval's start and end must be times >= 0 with start <= end";
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
    snprintf(err, errlen, "%s:%d: %s; %s", r->path, r->line, what, HOW);
    return -1;
  }
  *iv = (met_interval_t){
      .start = start, .end = end, .category = category_of(category), .phase = id, .peer = peer, .bytes = bytes};
  return 0;
}

/* Reads the header's magic and "# rank R of P" lines; P into *nranks. 0, or -1 with a message. */
static int read_header(reader_t *r, int rank, int *nranks, char *err, size_t errlen)
{
  int got_rank = -1;
  int got_size = 0;
  char extra[2];
  if (next_line(r) != 0 || strcmp(r->text, MAGIC) != 0) {
    snprintf(err, errlen,
             "%s:%d: not a measured timeline (the first line must be '" MAGIC "'); give a folder that "
             "libsimrun-trace.so wrote (SIMRUN_TRACE_DIR)",
             r->path, r->line > 0 ? r->line : 1);
    return -1;
  }
  if (next_line(r) != 0 || sscanf(r->text, "# rank %d of %d %1s", &got_rank, &got_size, extra) != 2 ||
      got_rank != rank || got_size < 1 || (*nranks > 0 && got_size != *nranks)) {
    snprintf(err, errlen, "%s:%d: expected '# rank %d of %d'; the folder mixes runs or the file was edited; %s",
             r->path, r->line > 1 ? r->line : 2, rank,
             *nranks > 0    ? *nranks
             : got_size > 0 ? got_size
                            : 1,
             HOW);
    return -1;
  }
  *nranks = got_size;
  return 0;
}

/* Reads rank `rank`'s intervals into `trace` up to the "# end" line. 0, or -1 with a message. */
static int read_intervals(reader_t *r, met_trace_t *trace, int rank, char *err, size_t errlen)
{
  while (next_line(r) == 0) {
    if (strncmp(r->text, "# end", 5) == 0) {
      if (next_line(r) == 0) {
        snprintf(err, errlen, "%s:%d: a line after '# end'; the folder mixes runs; %s", r->path, r->line, HOW);
        return -1;
      }
      return 0;
    }
    if (r->text[0] == '#' || r->text[0] == '\0')
      continue;
    met_interval_t iv;
    if (parse_interval(r, trace, &iv, err, errlen) != 0)
      return -1;
    if (met_trace_add(trace, rank, &iv) != 0) {
      snprintf(err, errlen, "%s:%d: the interval starts before the previous one ends; %s", r->path, r->line, HOW);
      return -1;
    }
  }
  snprintf(err, errlen,
           "%s:%d: the file ends before its '# end' line: the run stopped before MPI_Finalize or the file was cut; "
           "%s",
           r->path, r->line, HOW);
  return -1;
}

/* Opens rank `rank`'s file; on failure the message names `announced` (the line that gave P) when there is one. */
static int open_rank(reader_t *r, const char *dir, int rank, const char *announced, char *err, size_t errlen)
{
  snprintf(r->path, sizeof r->path, "%s/timeline-%d.txt", dir, rank);
  r->line = 0;
  r->in = fopen(r->path, "r");
  if (r->in)
    return 0;
  if (announced)
    snprintf(err, errlen, "%s: the run has rank %d but %s cannot be read (%s): a rank did not write its timeline; %s",
             announced, rank, r->path, strerror(errno), HOW);
  else
    snprintf(err, errlen, "%s: cannot read it (%s); give a folder that libsimrun-trace.so wrote (SIMRUN_TRACE_DIR)",
             r->path, strerror(errno));
  return -1;
}

met_trace_t *met_timeline_read(const char *dir, char *err, size_t errlen)
{
  reader_t r = {0};
  met_trace_t *trace = NULL;
  int nranks = 0;
  char announced[4200] = "";
  for (int rank = 0; rank == 0 || rank < nranks; rank++) {
    if (open_rank(&r, dir, rank, rank ? announced : NULL, err, errlen) != 0)
      goto fail;
    int rc = read_header(&r, rank, &nranks, err, errlen);
    if (rc == 0 && rank == 0) {
      snprintf(announced, sizeof announced, "%s:2", r.path);
      if (!(trace = met_trace_new(nranks))) {
        snprintf(err, errlen, "%s: out of memory for %d ranks", r.path, nranks);
        rc = -1;
      }
    }
    if (rc == 0)
      rc = read_intervals(&r, trace, rank, err, errlen);
    fclose(r.in);
    if (rc != 0)
      goto fail;
  }
  free(r.text);
  return trace;
fail:
  free(r.text);
  met_trace_free(trace);
  return NULL;
}
