/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The trace's binary file format: the timelines, then the optional collectives' and cause-effect annexes; reading
 * checks every record through the model's add functions, so that a damaged file is refused whole. */
#include "met_trace_internal.h"
#include "bas_error.h"

#include <string.h>
#include <sys/stat.h>

/* File layout, all integers and doubles little-endian: magic, u32 version, u32 nranks, u32 nphases, the phase names
 * NUL-terminated, then per rank a u64 count followed by that many records (see put_interval). A trace with a
 * cause-effect annex goes on with the annex tag, then per rank and unit a u64 count and the spans (put_span), then a
 * u64 count and the requests (put_request); the end of the stream right after the timelines means no annex. When ranks
 * have collective spans, their annex comes first, right after the timelines: the collectives tag, then per rank a u64
 * count and the spans (put_coll: a span's u32 kind holds its class in the low byte, its operation, met_coll_call_t, in
 * the next, 0 in files written before spans named it). When a span carries bytes (a measured run's), the annex's tag is
 * the second one and each span ends with its f64 bytes; a trace without any writes the first, as before them. When a
 * span gives its place in its group (met_coll_t.place: a replay's communicator in another order than the ranks'), the
 * tag is the third, and each span ends with its f64 bytes and its u32 place. */
static const char met_magic[8] = {'S', 'I', 'M', 'R', 'T', 'R', 'C', '\n'};
static const char met_annex_tag[8] = {'C', 'A', 'U', 'S', 'E', 'F', 'X', '\n'};
static const char met_coll_tag[8] = {'C', 'O', 'L', 'L', 'S', 'P', 'N', '\n'};
static const char met_coll_bytes_tag[8] = {'C', 'O', 'L', 'L', 'B', 'Y', 'T', '\n'};
static const char met_coll_place_tag[8] = {'C', 'O', 'L', 'L', 'P', 'L', 'C', '\n'};

/* What a span of the collectives' annex holds beyond its times, kind, root and group (see the layout at the top). */
typedef enum { SPAN_PLAIN, SPAN_BYTES, SPAN_PLACED } span_form_t;
enum { MET_TRACE_VERSION = 3 }; /* 2: intervals carry their message direction; 3: and their tag and communicator */

/* Serialisation primitives: each returns 0, or -1 on an I/O error or the end of the stream. */

static int put_le(FILE *out, uint64_t v, int nbytes)
{
  unsigned char b[8];
  for (int i = 0; i < nbytes; i++)
    b[i] = (unsigned char)(v >> (8 * i));
  return fwrite(b, 1, (size_t)nbytes, out) == (size_t)nbytes ? 0 : -1;
}

static int get_le(FILE *in, uint64_t *v, int nbytes)
{
  unsigned char b[8];
  if (fread(b, 1, (size_t)nbytes, in) != (size_t)nbytes)
    return -1;
  *v = 0;
  for (int i = 0; i < nbytes; i++)
    *v |= (uint64_t)b[i] << (8 * i);
  return 0;
}

static int get_u32(FILE *in, uint32_t *v)
{
  uint64_t wide;
  if (get_le(in, &wide, 4))
    return -1;
  *v = (uint32_t)wide;
  return 0;
}

/* Signed ids (-1 for "no peer") travel as their 32-bit two's-complement pattern. */
static int put_i32(FILE *out, int v)
{
  return put_le(out, (uint32_t)v, 4);
}

static int get_i32(FILE *in, int *v)
{
  uint32_t u;
  if (get_u32(in, &u))
    return -1;
  *v = u <= INT32_MAX ? (int)u : -(int)(UINT32_MAX - u) - 1;
  return 0;
}

static int put_f64(FILE *out, double d)
{
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  return put_le(out, bits, 8);
}

static int get_f64(FILE *in, double *d)
{
  uint64_t bits;
  if (get_le(in, &bits, 8))
    return -1;
  memcpy(d, &bits, sizeof bits);
  return 0;
}

static int put_interval(FILE *out, const met_interval_t *iv)
{
  if (put_f64(out, iv->start) || put_f64(out, iv->end) || put_le(out, iv->category, 4) || put_i32(out, iv->phase) ||
      put_i32(out, iv->peer) || put_f64(out, iv->bytes))
    return -1;
  for (int k = 0; k < MET_PART_COUNT; k++)
    if (put_f64(out, iv->parts[k]))
      return -1;
  return put_i32(out, iv->hops) || put_le(out, iv->dir, 4) || put_i32(out, iv->tag) || put_le(out, iv->comm, 4);
}

static int get_interval(FILE *in, met_interval_t *iv)
{
  uint32_t category;
  if (get_f64(in, &iv->start) || get_f64(in, &iv->end) || get_u32(in, &category) || get_i32(in, &iv->phase) ||
      get_i32(in, &iv->peer) || get_f64(in, &iv->bytes))
    return -1;
  iv->category = (met_category_t)category; /* range-checked by met_trace_add */
  for (int k = 0; k < MET_PART_COUNT; k++)
    if (get_f64(in, &iv->parts[k]))
      return -1;
  uint32_t dir;
  if (get_i32(in, &iv->hops) || get_u32(in, &dir))
    return -1;
  iv->dir = (met_dir_t)dir; /* range-checked by met_trace_add */
  uint32_t comm;
  if (get_i32(in, &iv->tag) || get_u32(in, &comm))
    return -1;
  iv->comm = comm;
  return 0;
}

static int put_span(FILE *out, const met_span_t *span)
{
  return put_f64(out, span->start) || put_f64(out, span->end) || put_i32(out, span->state) ||
                 put_i32(out, span->scope) || put_i32(out, span->op)
             ? -1
             : 0;
}

static int get_span(FILE *in, met_span_t *span)
{
  return get_f64(in, &span->start) || get_f64(in, &span->end) || get_i32(in, &span->state) ||
                 get_i32(in, &span->scope) || get_i32(in, &span->op)
             ? -1
             : 0;
}

static int put_request(FILE *out, const met_request_t *req)
{
  if (put_i32(out, req->node) || put_i32(out, req->unit) || put_i32(out, req->op) || put_i32(out, req->scope) ||
      put_i32(out, req->peer) || put_i32(out, req->item))
    return -1;
  for (int k = 0; k < MET_REQ_MARKS; k++)
    if (put_f64(out, req->mark[k]))
      return -1;
  return 0;
}

static int get_request(FILE *in, met_request_t *req)
{
  if (get_i32(in, &req->node) || get_i32(in, &req->unit) || get_i32(in, &req->op) || get_i32(in, &req->scope) ||
      get_i32(in, &req->peer) || get_i32(in, &req->item))
    return -1;
  for (int k = 0; k < MET_REQ_MARKS; k++)
    if (get_f64(in, &req->mark[k]))
      return -1;
  return 0;
}

static int put_coll(FILE *out, const met_coll_t *coll, span_form_t form)
{
  return put_f64(out, coll->start) || put_f64(out, coll->end) ||
                 put_le(out, (uint32_t)coll->kind | (uint32_t)coll->call << 8, 4) || put_i32(out, coll->root) ||
                 put_le(out, coll->group, 4) || (form != SPAN_PLAIN && put_f64(out, coll->bytes)) ||
                 (form == SPAN_PLACED && put_le(out, (uint32_t)coll->place, 4))
             ? -1
             : 0;
}

static int get_coll(FILE *in, met_coll_t *coll, span_form_t form)
{
  uint32_t kind, group, place = 0;
  coll->bytes = 0;
  if (get_f64(in, &coll->start) || get_f64(in, &coll->end) || get_u32(in, &kind) || get_i32(in, &coll->root) ||
      get_u32(in, &group) || (form != SPAN_PLAIN && get_f64(in, &coll->bytes)) ||
      (form == SPAN_PLACED && get_u32(in, &place)) || place > INT32_MAX)
    return -1;
  coll->kind = (met_coll_kind_t)(kind & 0xffu); /* these range-checked by met_trace_coll_add */
  coll->call = (met_coll_call_t)(kind >> 8);
  coll->group = group;
  coll->place = (int)place;
  return 0;
}

/* The collectives' annex, when some rank has collective spans (see the layout at the top). */
static int write_colls(const met_trace_t *trace, FILE *out)
{
  int any = 0;
  for (int r = 0; r < trace->nranks && !any; r++)
    any = trace->ranks[r].ncolls > 0;
  if (!any)
    return 0;
  span_form_t form = trace->coll_placed ? SPAN_PLACED : trace->coll_bytes ? SPAN_BYTES : SPAN_PLAIN;
  const char *tag = form == SPAN_PLACED ? met_coll_place_tag : form == SPAN_BYTES ? met_coll_bytes_tag : met_coll_tag;
  if (fwrite(tag, 1, sizeof met_coll_tag, out) != sizeof met_coll_tag)
    return -1;
  for (int r = 0; r < trace->nranks; r++) {
    const met_timeline_t *timeline = &trace->ranks[r];
    if (put_le(out, timeline->ncolls, 8))
      return -1;
    for (size_t i = 0; i < timeline->ncolls; i++)
      if (put_coll(out, &timeline->colls[i], form))
        return -1;
  }
  return 0;
}

static int read_colls(FILE *in, met_trace_t *trace, span_form_t form)
{
  for (int r = 0; r < trace->nranks; r++) {
    uint64_t count;
    if (get_le(in, &count, 8))
      return -1;
    for (uint64_t i = 0; i < count; i++) {
      met_coll_t coll = {0}; /* what the stream does not keep (received) stays 0: met_trace_coll_add checks it */
      if (get_coll(in, &coll, form) || met_trace_coll_add(trace, r, &coll))
        return -1;
    }
  }
  return 0;
}

/* The annex after the timelines, when there is one (see the layout at the top). */
static int write_annex(const met_trace_t *trace, FILE *out)
{
  if (!trace->units && trace->nrequests == 0)
    return 0;
  if (fwrite(met_annex_tag, 1, sizeof met_annex_tag, out) != sizeof met_annex_tag)
    return -1;
  for (int u = 0; u < trace->nranks * MET_UNIT_COUNT; u++) {
    size_t count = 0;
    const met_span_t *spans = met_trace_spans(trace, u / MET_UNIT_COUNT, u % MET_UNIT_COUNT, &count);
    if (put_le(out, count, 8))
      return -1;
    for (size_t i = 0; i < count; i++)
      if (put_span(out, &spans[i]))
        return -1;
  }
  if (put_le(out, trace->nrequests, 8))
    return -1;
  for (size_t i = 0; i < trace->nrequests; i++)
    if (put_request(out, &trace->requests[i]))
      return -1;
  return 0;
}

int met_trace_write(const met_trace_t *trace, FILE *out)
{
  if (trace->aggregate)
    return BAS_EINVAL;
  if (fwrite(met_magic, 1, sizeof met_magic, out) != sizeof met_magic || put_le(out, MET_TRACE_VERSION, 4) ||
      put_le(out, (uint64_t)trace->nranks, 4) || put_le(out, trace->nphases, 4))
    return BAS_EIO;
  for (size_t i = 0; i < trace->nphases; i++)
    if (fputs(trace->phases[i], out) == EOF || putc('\0', out) == EOF)
      return BAS_EIO;
  for (int r = 0; r < trace->nranks; r++) {
    const met_timeline_t *timeline = &trace->ranks[r];
    if (put_le(out, timeline->count, 8))
      return BAS_EIO;
    for (size_t i = 0; i < timeline->count; i++)
      if (put_interval(out, &timeline->items[i]))
        return BAS_EIO;
  }
  return write_colls(trace, out) == 0 && write_annex(trace, out) == 0 && fflush(out) == 0 ? 0 : BAS_EIO;
}

/* Reads one NUL-terminated string into `*buf` (capacity `*cap`, grown as needed, owned by the caller). */
static int get_string(FILE *in, char **buf, size_t *cap)
{
  for (size_t len = 0;; len++) {
    int c = getc(in);
    if (c == EOF)
      return -1;
    char *grown = grow(*buf, cap, len + 1, 1);
    if (!grown)
      return -1;
    *buf = grown;
    grown[len] = (char)c;
    if (c == '\0')
      return 0;
  }
}

/* The phase table must intern to ids 0..nphases-1 in order, so duplicate names are malformed. */
static int read_phases(FILE *in, met_trace_t *trace, uint32_t nphases)
{
  char *name = NULL;
  size_t cap = 0;
  int rc = 0;
  for (uint32_t i = 0; i < nphases && rc == 0; i++)
    if (get_string(in, &name, &cap) || met_trace_phase_id(trace, name) != (int)i)
      rc = -1;
  free(name);
  return rc;
}

/* Intervals go through met_trace_add, which checks them; zero-length ones, never written, make the counts differ. */
static int read_timelines(FILE *in, met_trace_t *trace)
{
  for (int r = 0; r < trace->nranks; r++) {
    uint64_t count;
    if (get_le(in, &count, 8))
      return -1;
    for (uint64_t i = 0; i < count; i++) {
      met_interval_t iv = {0}; /* what the stream does not keep (its call) stays 0 */
      if (get_interval(in, &iv) || met_trace_add(trace, r, &iv))
        return -1;
    }
    if (trace->ranks[r].count != count)
      return -1;
  }
  return 0;
}

/* Spans and requests go through the add functions, which check them; zero-length spans make the counts differ. */
static int read_spans(FILE *in, met_trace_t *trace, int node, int unit)
{
  uint64_t count;
  if (get_le(in, &count, 8))
    return -1;
  for (uint64_t i = 0; i < count; i++) {
    met_span_t span;
    if (get_span(in, &span) || met_trace_span_add(trace, node, unit, &span))
      return -1;
  }
  size_t kept = 0;
  met_trace_spans(trace, node, unit, &kept);
  return kept == count ? 0 : -1;
}

/* The next annex's tag into `tag`: 1, or 0 at the end of the stream, or -1 on a truncated tag. */
static int read_tag(FILE *in, char tag[8])
{
  int c = getc(in);
  if (c == EOF)
    return 0;
  tag[0] = (char)c;
  return fread(tag + 1, 1, 7, in) == 7 ? 1 : -1;
}

/* The annexes, if the stream goes on after the timelines: the collectives', then the cause-effect one, each optional.
 */
static int read_annex(FILE *in, met_trace_t *trace)
{
  char tag[sizeof met_annex_tag];
  int got = read_tag(in, tag);
  int plain = got == 1 && memcmp(tag, met_coll_tag, sizeof tag) == 0;
  int bytes = got == 1 && memcmp(tag, met_coll_bytes_tag, sizeof tag) == 0;
  int placed = got == 1 && memcmp(tag, met_coll_place_tag, sizeof tag) == 0;
  if (plain || bytes || placed)
    got = read_colls(in, trace, placed ? SPAN_PLACED : bytes ? SPAN_BYTES : SPAN_PLAIN) == 0 ? read_tag(in, tag) : -1;
  if (got <= 0)
    return got;
  if (memcmp(tag, met_annex_tag, sizeof tag) != 0)
    return -1;
  for (int u = 0; u < trace->nranks * MET_UNIT_COUNT; u++)
    if (read_spans(in, trace, u / MET_UNIT_COUNT, u % MET_UNIT_COUNT))
      return -1;
  uint64_t count;
  if (get_le(in, &count, 8))
    return -1;
  for (uint64_t i = 0; i < count; i++) {
    met_request_t req;
    if (get_request(in, &req) || met_trace_request_add(trace, &req))
      return -1;
  }
  return 0;
}

/* Whether `in`, a file, is too short for `nranks` timelines, each starting with an 8-byte count: a damaged rank count
 * is refused before the ranks are allocated (a fuzzed one asked for 350 GB). 0 when the size cannot be told. */
static int too_many_ranks(FILE *in, uint32_t nranks)
{
  struct stat st;
  long at = ftell(in);
  int fd = fileno(in);
  return fd >= 0 && at >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
         (uint64_t)nranks * 8 > (uint64_t)(st.st_size - at);
}

met_trace_t *met_trace_read(FILE *in)
{
  char magic[sizeof met_magic];
  uint32_t version, nranks, nphases;
  if (fread(magic, 1, sizeof magic, in) != sizeof magic || memcmp(magic, met_magic, sizeof magic) != 0 ||
      get_u32(in, &version) || version != MET_TRACE_VERSION || get_u32(in, &nranks) || nranks > INT32_MAX ||
      get_u32(in, &nphases) || too_many_ranks(in, nranks))
    return NULL;
  met_trace_t *trace = met_trace_new((int)nranks);
  if (trace && (read_phases(in, trace, nphases) || read_timelines(in, trace) || read_annex(in, trace))) {
    met_trace_free(trace);
    return NULL;
  }
  return trace;
}
