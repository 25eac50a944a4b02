/* The trace model: per-rank timelines of categorised intervals, with the lost-cycle accounting of seed 000 eqs. 1.5
 * and 1.7 (gaps count as idling, so every rank's categories add up to T_par) and a binary file format. */
#include "met_trace.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* File layout, all integers and doubles little-endian: magic, u32 version, u32 nranks, u32 nphases, the phase names
 * NUL-terminated, then per rank a u64 count followed by that many records (see put_interval). A trace with a
 * cause-effect annex goes on with the annex tag, then per rank and unit a u64 count and the spans (put_span), then a
 * u64 count and the requests (put_request); the end of the stream right after the timelines means no annex. When ranks
 * have collective spans, their annex comes first, right after the timelines: the collectives tag, then per rank a u64
 * count and the spans (put_coll). */
static const char met_magic[8] = {'S', 'I', 'M', 'R', 'T', 'R', 'C', '\n'};
static const char met_annex_tag[8] = {'C', 'A', 'U', 'S', 'E', 'F', 'X', '\n'};
static const char met_coll_tag[8] = {'C', 'O', 'L', 'L', 'S', 'P', 'N', '\n'};
enum { MET_TRACE_VERSION = 2 }; /* 2: intervals carry their message direction */

/* A rank's timeline, and the sums the analyses read, kept as intervals arrive (in both modes, so that both give the
 * same figures to the bit: every sum is taken in time order). phase_time is nphases x MET_CAT_COUNT. */
typedef struct met_timeline {
  met_interval_t *items; /* NULL in an aggregate trace */
  size_t count;
  size_t cap;
  met_coll_t *colls; /* collective spans (full traces only) */
  size_t ncolls;
  size_t coll_cap;
  double last_end;
  double busy;
  double category[MET_CAT_COUNT];
  double parts[MET_PART_COUNT];     /* over COMPUTE intervals */
  double any_parts[MET_PART_COUNT]; /* over all intervals (CTRL computations carry a split too) */
  size_t comm_count;
  met_msg_group_t *groups; /* COMM intervals by (bytes, hops) */
  size_t ngroups;
  size_t group_cap;
  size_t last_group; /* where the previous COMM interval went: a rank's messages tend to repeat */
  double *phase_time;
  size_t phase_rows;
  double anomaly; /* met_trace_add_anomaly's sum */
} met_timeline_t;

typedef struct met_span_line {
  met_span_t *items;
  size_t count;
  size_t cap;
} met_span_line_t;

struct met_trace {
  int nranks;
  int aggregate; /* sums only, no intervals (met_trace_new_aggregate) */
  met_timeline_t *ranks;
  char **phases;
  size_t nphases;
  size_t phase_cap;
  double end;
  met_span_line_t *units; /* the annex: nranks x MET_UNIT_COUNT span lines, NULL until the first span */
  met_request_t *requests;
  size_t nrequests;
  size_t request_cap;
};

static const char *const category_names[MET_CAT_COUNT] = {"compute", "io", "ctrl", "comm", "idle"};
static const char *const part_names[MET_PART_COUNT] = {"cpu", "fpu", "intmem", "extmem"};

/* Makes room for `need` elements of `size` bytes in `items` by doubling its capacity `*cap`. Returns the (possibly
 * moved) array, or NULL when out of memory, in which case `items` and `*cap` are unchanged. */
static void *grow(void *items, size_t *cap, size_t need, size_t size)
{
  if (need <= *cap)
    return items;
  size_t n = *cap ? *cap : 8;
  while (n < need) {
    if (n > SIZE_MAX / 2 / size)
      return NULL;
    n *= 2;
  }
  void *moved = realloc(items, n * size);
  if (moved)
    *cap = n;
  return moved;
}

met_trace_t *met_trace_new(int nranks)
{
  if (nranks < 1)
    return NULL;
  met_trace_t *trace = calloc(1, sizeof *trace);
  if (!trace)
    return NULL;
  trace->ranks = calloc((size_t)nranks, sizeof *trace->ranks);
  if (!trace->ranks) {
    free(trace);
    return NULL;
  }
  trace->nranks = nranks;
  return trace;
}

void met_trace_free(met_trace_t *trace)
{
  if (!trace)
    return;
  for (int r = 0; r < trace->nranks; r++) {
    free(trace->ranks[r].items);
    free(trace->ranks[r].groups);
    free(trace->ranks[r].phase_time);
    free(trace->ranks[r].colls);
  }
  for (int u = 0; trace->units && u < trace->nranks * MET_UNIT_COUNT; u++)
    free(trace->units[u].items);
  free(trace->units);
  free(trace->requests);
  for (size_t i = 0; i < trace->nphases; i++)
    free(trace->phases[i]);
  free(trace->phases);
  free(trace->ranks);
  free(trace);
}

met_trace_t *met_trace_new_aggregate(int nranks)
{
  met_trace_t *trace = met_trace_new(nranks);
  if (trace)
    trace->aggregate = 1;
  return trace;
}

int met_trace_is_aggregate(const met_trace_t *trace)
{
  return trace->aggregate;
}

int met_trace_nranks(const met_trace_t *trace)
{
  return trace->nranks;
}

int met_trace_phase_id(met_trace_t *trace, const char *name)
{
  for (size_t i = 0; i < trace->nphases; i++)
    if (strcmp(trace->phases[i], name) == 0)
      return (int)i;
  char **phases = grow(trace->phases, &trace->phase_cap, trace->nphases + 1, sizeof *phases);
  if (!phases)
    return -1;
  trace->phases = phases;
  size_t len = strlen(name) + 1;
  char *copy = malloc(len);
  if (!copy)
    return -1;
  memcpy(copy, name, len);
  phases[trace->nphases] = copy;
  return (int)trace->nphases++;
}

const char *met_trace_phase_name(const met_trace_t *trace, int id)
{
  return id >= 0 && (size_t)id < trace->nphases ? trace->phases[id] : NULL;
}

int met_trace_phase_count(const met_trace_t *trace)
{
  return (int)trace->nphases;
}

static bool valid_rank(const met_trace_t *trace, int rank)
{
  return rank >= 0 && rank < trace->nranks;
}

/* A finite, non-negative number of seconds or bytes (false for NaN). */
static bool valid_amount(double x)
{
  return isfinite(x) && x >= 0;
}

static bool valid_phase(const met_trace_t *trace, int phase)
{
  return phase >= 0 && (size_t)phase < trace->nphases;
}

/* Whether `iv` may follow `timeline`'s last interval: in order, well-formed, with known phase and peer ids. */
static bool valid_interval(const met_trace_t *trace, const met_timeline_t *timeline, const met_interval_t *iv)
{
  if (!valid_amount(iv->end) || !(iv->start >= timeline->last_end) || iv->end < iv->start)
    return false;
  if ((unsigned)iv->category >= MET_CAT_COUNT || !valid_phase(trace, iv->phase))
    return false;
  if (iv->peer != -1 && !valid_rank(trace, iv->peer))
    return false;
  if ((unsigned)iv->dir > MET_DIR_RECV || (iv->dir != MET_DIR_NONE && iv->peer == -1))
    return false;
  if (!valid_amount(iv->bytes) || iv->hops < 0)
    return false;
  for (int k = 0; k < MET_PART_COUNT; k++)
    if (!valid_amount(iv->parts[k]))
      return false;
  return true;
}

/* Makes room for `rows` phases in the timeline's per-phase sums, the new ones zero. 0, or -1 when out of memory. */
static int grow_phase_rows(met_timeline_t *timeline, size_t rows)
{
  if (rows <= timeline->phase_rows)
    return 0;
  double *more = realloc(timeline->phase_time, rows * MET_CAT_COUNT * sizeof *more);
  if (!more)
    return -1;
  memset(more + timeline->phase_rows * MET_CAT_COUNT, 0, (rows - timeline->phase_rows) * MET_CAT_COUNT * sizeof *more);
  timeline->phase_time = more;
  timeline->phase_rows = rows;
  return 0;
}

/* The timeline's group for a COMM interval like `iv`, created when new; NULL when out of memory. */
static met_msg_group_t *msg_group(met_timeline_t *timeline, const met_interval_t *iv)
{
  met_msg_group_t *g = timeline->ngroups ? &timeline->groups[timeline->last_group] : NULL;
  if (g && g->bytes == iv->bytes && g->hops == iv->hops)
    return g;
  for (size_t i = 0; i < timeline->ngroups; i++)
    if (timeline->groups[i].bytes == iv->bytes && timeline->groups[i].hops == iv->hops) {
      timeline->last_group = i;
      return &timeline->groups[i];
    }
  met_msg_group_t *groups = grow(timeline->groups, &timeline->group_cap, timeline->ngroups + 1, sizeof *groups);
  if (!groups)
    return NULL;
  timeline->groups = groups;
  timeline->last_group = timeline->ngroups++;
  g = &groups[timeline->last_group];
  *g = (met_msg_group_t){.bytes = iv->bytes, .hops = iv->hops, .min = INFINITY, .max = 0};
  return g;
}

/* Counts the message whose counted end (met_message_ends) `iv` is in its group: 0, or -1 when out of memory. */
static int count_message(met_timeline_t *timeline, const met_interval_t *iv)
{
  met_msg_group_t *group = msg_group(timeline, iv);
  if (!group)
    return -1;
  double len = iv->end - iv->start;
  group->count++;
  group->sum += len;
  group->min = len < group->min ? len : group->min;
  group->max = len > group->max ? len : group->max;
  timeline->comm_count++;
  return 0;
}

int met_trace_add(met_trace_t *trace, int rank, const met_interval_t *iv)
{
  if (!valid_rank(trace, rank) || !valid_interval(trace, &trace->ranks[rank], iv))
    return -1;
  int from, to;
  int counted = met_message_ends(iv, rank, &from, &to);
  if (iv->end == iv->start && !counted && !(iv->category == MET_CAT_COMM && iv->dir == MET_DIR_SEND))
    return 0; /* kept: a message's end, even empty (an eager send, a receive its rank's computation hid) */
  met_timeline_t *timeline = &trace->ranks[rank];
  if (grow_phase_rows(timeline, (size_t)iv->phase + 1) != 0)
    return -1;
  if (!trace->aggregate) {
    met_interval_t *items = grow(timeline->items, &timeline->cap, timeline->count + 1, sizeof *items);
    if (!items)
      return -1;
    timeline->items = items;
  }
  if (counted && count_message(timeline, iv) != 0)
    return -1;
  if (!trace->aggregate)
    timeline->items[timeline->count++] = *iv;
  double len = iv->end - iv->start;
  timeline->last_end = iv->end;
  timeline->busy += len;
  timeline->category[iv->category] += len;
  timeline->phase_time[(size_t)iv->phase * MET_CAT_COUNT + iv->category] += len;
  for (int k = 0; k < MET_PART_COUNT; k++) {
    timeline->any_parts[k] += iv->parts[k];
    if (iv->category == MET_CAT_COMPUTE)
      timeline->parts[k] += iv->parts[k];
  }
  if (iv->end > trace->end)
    trace->end = iv->end;
  return 0;
}

const met_msg_group_t *met_trace_msg_groups(const met_trace_t *trace, int rank, size_t *count)
{
  *count = valid_rank(trace, rank) ? trace->ranks[rank].ngroups : 0;
  return *count ? trace->ranks[rank].groups : NULL;
}

static bool valid_span(const met_trace_t *trace, const met_span_line_t *line, const met_span_t *span)
{
  double prev_end = line->count ? line->items[line->count - 1].end : 0.0;
  return valid_amount(span->end) && span->start >= prev_end && span->end >= span->start && span->state >= 0 &&
         span->state < MET_SPAN_STATES && span->op >= 0 && span->op < MET_SPAN_OPS && valid_phase(trace, span->scope);
}

int met_trace_span_add(met_trace_t *trace, int node, int unit, const met_span_t *span)
{
  if (!valid_rank(trace, node) || unit < 0 || unit >= MET_UNIT_COUNT)
    return -1;
  if (!trace->units && !(trace->units = calloc((size_t)trace->nranks * MET_UNIT_COUNT, sizeof *trace->units)))
    return -1;
  met_span_line_t *line = &trace->units[node * MET_UNIT_COUNT + unit];
  if (!valid_span(trace, line, span))
    return -1;
  if (span->end == span->start)
    return 0;
  met_span_t *items = grow(line->items, &line->cap, line->count + 1, sizeof *items);
  if (!items)
    return -1;
  line->items = items;
  items[line->count++] = *span;
  if (span->end > trace->end)
    trace->end = span->end;
  return 0;
}

const met_span_t *met_trace_spans(const met_trace_t *trace, int node, int unit, size_t *count)
{
  *count = 0;
  if (!trace->units || !valid_rank(trace, node) || unit < 0 || unit >= MET_UNIT_COUNT)
    return NULL;
  const met_span_line_t *line = &trace->units[node * MET_UNIT_COUNT + unit];
  *count = line->count;
  return line->items;
}

int met_trace_coll_add(met_trace_t *trace, int rank, const met_coll_t *coll)
{
  if (!valid_rank(trace, rank))
    return -1;
  met_timeline_t *timeline = &trace->ranks[rank];
  double prev_end = timeline->ncolls ? timeline->colls[timeline->ncolls - 1].end : 0.0;
  if (!valid_amount(coll->end) || !(coll->start >= prev_end) || coll->end < coll->start ||
      (unsigned)coll->kind >= MET_COLL_KINDS || (coll->root != -1 && !valid_rank(trace, coll->root)))
    return -1;
  if (trace->aggregate)
    return 0;
  met_coll_t *items = grow(timeline->colls, &timeline->coll_cap, timeline->ncolls + 1, sizeof *items);
  if (!items)
    return -1;
  timeline->colls = items;
  items[timeline->ncolls++] = *coll;
  return 0;
}

const met_coll_t *met_trace_colls(const met_trace_t *trace, int rank, size_t *count)
{
  *count = valid_rank(trace, rank) ? trace->ranks[rank].ncolls : 0;
  return *count ? trace->ranks[rank].colls : NULL;
}

static bool valid_request(const met_trace_t *trace, const met_request_t *req)
{
  if (!valid_rank(trace, req->node) || (req->peer != -1 && !valid_rank(trace, req->peer)) || req->unit < 0 ||
      req->unit >= MET_UNIT_COUNT || req->op < 0 || req->op >= MET_SPAN_OPS || !valid_phase(trace, req->scope))
    return false;
  for (int k = 0; k < MET_REQ_MARKS; k++)
    if (!valid_amount(req->mark[k]) || (k > 0 && req->mark[k] < req->mark[k - 1]))
      return false;
  return true;
}

int met_trace_request_add(met_trace_t *trace, const met_request_t *req)
{
  if (!valid_request(trace, req))
    return -1;
  met_request_t *items = grow(trace->requests, &trace->request_cap, trace->nrequests + 1, sizeof *items);
  if (!items)
    return -1;
  trace->requests = items;
  items[trace->nrequests++] = *req;
  return 0;
}

const met_request_t *met_trace_requests(const met_trace_t *trace, size_t *count)
{
  *count = trace->nrequests;
  return trace->requests;
}

size_t met_trace_count(const met_trace_t *trace, int rank)
{
  return valid_rank(trace, rank) ? trace->ranks[rank].count : 0;
}

const met_interval_t *met_trace_intervals(const met_trace_t *trace, int rank)
{
  return valid_rank(trace, rank) ? trace->ranks[rank].items : NULL;
}

double met_trace_end(const met_trace_t *trace)
{
  return trace->end;
}

double met_trace_category_time(const met_trace_t *trace, int rank, met_category_t category)
{
  if (!valid_rank(trace, rank))
    return 0.0;
  if ((unsigned)category >= MET_CAT_COUNT)
    return 0.0;
  const met_timeline_t *timeline = &trace->ranks[rank];
  double in_category = timeline->category[category];
  return category == MET_CAT_IDLE ? in_category + (trace->end - timeline->busy) : in_category;
}

double met_trace_phase_time(const met_trace_t *trace, int rank, int phase, met_category_t category)
{
  if (!valid_rank(trace, rank) || phase < 0 || (size_t)phase >= trace->ranks[rank].phase_rows ||
      (unsigned)category >= MET_CAT_COUNT)
    return 0.0;
  return trace->ranks[rank].phase_time[(size_t)phase * MET_CAT_COUNT + category];
}

int met_message_ends(const met_interval_t *iv, int rank, int *from, int *to)
{
  if (iv->category != MET_CAT_COMM || iv->dir == MET_DIR_SEND || (iv->dir == MET_DIR_NONE && iv->peer < rank))
    return 0;
  *from = iv->dir == MET_DIR_RECV ? iv->peer : rank;
  *to = iv->dir == MET_DIR_RECV ? rank : iv->peer;
  return 1;
}

size_t met_trace_comm_count(const met_trace_t *trace, int rank)
{
  return valid_rank(trace, rank) ? trace->ranks[rank].comm_count : 0;
}

double met_trace_part_time(const met_trace_t *trace, int rank, met_part_t part)
{
  if (!valid_rank(trace, rank) || (unsigned)part >= MET_PART_COUNT)
    return 0.0;
  return trace->ranks[rank].parts[part];
}

void met_trace_add_anomaly(met_trace_t *trace, int rank, double seconds)
{
  if (valid_rank(trace, rank))
    trace->ranks[rank].anomaly += seconds;
}

double met_trace_anomaly(const met_trace_t *trace, int rank)
{
  return valid_rank(trace, rank) ? trace->ranks[rank].anomaly : 0.0;
}

double met_trace_any_part_time(const met_trace_t *trace, int rank, met_part_t part)
{
  if (!valid_rank(trace, rank) || (unsigned)part >= MET_PART_COUNT)
    return 0.0;
  return trace->ranks[rank].any_parts[part];
}

const char *met_category_name(met_category_t category)
{
  return (unsigned)category < MET_CAT_COUNT ? category_names[category] : NULL;
}

const char *met_part_name(met_part_t part)
{
  return (unsigned)part < MET_PART_COUNT ? part_names[part] : NULL;
}

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
  return put_i32(out, iv->hops) || put_le(out, iv->dir, 4);
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

static int put_coll(FILE *out, const met_coll_t *coll)
{
  return put_f64(out, coll->start) || put_f64(out, coll->end) || put_le(out, coll->kind, 4) ||
                 put_i32(out, coll->root) || put_le(out, coll->group, 4)
             ? -1
             : 0;
}

static int get_coll(FILE *in, met_coll_t *coll)
{
  uint32_t kind, group;
  if (get_f64(in, &coll->start) || get_f64(in, &coll->end) || get_u32(in, &kind) || get_i32(in, &coll->root) ||
      get_u32(in, &group))
    return -1;
  coll->kind = (met_coll_kind_t)kind; /* range-checked by met_trace_coll_add */
  coll->group = group;
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
  if (fwrite(met_coll_tag, 1, sizeof met_coll_tag, out) != sizeof met_coll_tag)
    return -1;
  for (int r = 0; r < trace->nranks; r++) {
    const met_timeline_t *timeline = &trace->ranks[r];
    if (put_le(out, timeline->ncolls, 8))
      return -1;
    for (size_t i = 0; i < timeline->ncolls; i++)
      if (put_coll(out, &timeline->colls[i]))
        return -1;
  }
  return 0;
}

static int read_colls(FILE *in, met_trace_t *trace)
{
  for (int r = 0; r < trace->nranks; r++) {
    uint64_t count;
    if (get_le(in, &count, 8))
      return -1;
    for (uint64_t i = 0; i < count; i++) {
      met_coll_t coll;
      if (get_coll(in, &coll) || met_trace_coll_add(trace, r, &coll))
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
    return -1;
  if (fwrite(met_magic, 1, sizeof met_magic, out) != sizeof met_magic || put_le(out, MET_TRACE_VERSION, 4) ||
      put_le(out, (uint64_t)trace->nranks, 4) || put_le(out, trace->nphases, 4))
    return -1;
  for (size_t i = 0; i < trace->nphases; i++)
    if (fputs(trace->phases[i], out) == EOF || putc('\0', out) == EOF)
      return -1;
  for (int r = 0; r < trace->nranks; r++) {
    const met_timeline_t *timeline = &trace->ranks[r];
    if (put_le(out, timeline->count, 8))
      return -1;
    for (size_t i = 0; i < timeline->count; i++)
      if (put_interval(out, &timeline->items[i]))
        return -1;
  }
  return write_colls(trace, out) == 0 && write_annex(trace, out) == 0 && fflush(out) == 0 ? 0 : -1;
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
      met_interval_t iv;
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
  if (got == 1 && memcmp(tag, met_coll_tag, sizeof tag) == 0)
    got = read_colls(in, trace) == 0 ? read_tag(in, tag) : -1;
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
