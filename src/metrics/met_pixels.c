/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A run's timeline reduced to what its pictures draw (met_pixels.h): the SVG timeline's pixel columns of dominant
 * category (seed 000 Fig. 1.4) and distinct message paths, and the HTML page's segments, each rank's state carried
 * from one interval to the next so that the intervals need not be held. */
#define _GNU_SOURCE /* open_memstream, fmemopen */

#include "met_pixels.h"
#include "bas_grow.h"
#include "bas_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

/* How one rank's pictures are being built, and its page segments. */
typedef struct rank_build {
  double at;                    /* the end of the rank's last interval */
  int col;                      /* the raster column being summed, -1 before the first */
  double acc[MET_CAT_COUNT];    /* its seconds per category, in columns */
  int merging;                  /* short intervals are being merged into one page column (decimated runs) */
  double column_end;            /* the end of that column, seconds */
  double merge_at;              /* the end of the last interval merged */
  double merged[MET_CAT_COUNT]; /* their seconds per category, the gaps between them idle */
  met_segment_t seg;            /* the merged segment */
  int holding;                  /* a segment is held, to be joined with the next of its category */
  met_segment_t held;
  met_segment_t *segs; /* the page's segments */
  size_t nsegs;
  size_t cap;
} rank_build_t;

struct met_pixels {
  int nranks;
  double end;
  char **phases;
  int nphases;
  size_t intervals;
  double width;         /* the page's columns, seconds; 0: whole */
  double scale;         /* raster columns per second */
  unsigned char *cells; /* nranks x MET_PIXELS_COLS */
  size_t messages;
  uint64_t *paths; /* distinct; NULL once there are too many to draw */
  size_t npaths;
  size_t path_cap;
  rank_build_t *ranks;
};

/* The raster's scale, computed as rep_timeline.c's time axis computes it (to the bit: the same columns). */
static double raster_scale(double end)
{
  double unit = end >= 1 ? 1 : end >= 1e-3 ? 1e3 : 1e6;
  return end > 0 ? MET_PIXELS_COLS / (end * unit / unit) : 0;
}

/* The page's column width for a run of `intervals` (0: shown whole). */
static double page_width(double end, int nranks, size_t intervals)
{
  if (intervals <= MET_PAGE_WHOLE || nranks == 0)
    return 0;
  int columns = MET_PAGE_SEGMENTS / nranks > MET_PAGE_COLUMNS ? MET_PAGE_SEGMENTS / nranks : MET_PAGE_COLUMNS;
  return end / columns;
}

static int copy_phases(met_pixels_t *px, const met_trace_t *trace)
{
  int n = met_trace_phase_count(trace);
  px->phases = calloc(n > 0 ? (size_t)n : 1, sizeof *px->phases);
  if (!px->phases)
    return -1;
  for (px->nphases = 0; px->nphases < n; px->nphases++)
    if (!(px->phases[px->nphases] = strdup(met_trace_phase_name(trace, px->nphases))))
      return -1;
  return 0;
}

/* An empty object for `nranks` ranks, every column NONE. */
static met_pixels_t *pixels_new(int nranks)
{
  met_pixels_t *px = nranks > 0 && nranks <= 65536 ? calloc(1, sizeof *px) : NULL;
  if (!px)
    return NULL;
  px->nranks = nranks;
  px->cells = malloc((size_t)nranks * MET_PIXELS_COLS);
  px->ranks = calloc((size_t)nranks, sizeof *px->ranks);
  if (!px->cells || !px->ranks) {
    met_pixels_free(px);
    return NULL;
  }
  memset(px->cells, MET_PIXELS_NONE, (size_t)nranks * MET_PIXELS_COLS);
  return px;
}

met_pixels_t *met_pixels_begin(const met_trace_t *trace, size_t intervals)
{
  met_pixels_t *px = pixels_new(met_trace_nranks(trace));
  if (!px)
    return NULL;
  px->end = met_trace_end(trace);
  px->intervals = intervals;
  px->width = page_width(px->end, px->nranks, intervals);
  px->scale = raster_scale(px->end);
  px->path_cap = 2 * (size_t)MET_PIXELS_LINES * (size_t)px->nranks + 16;
  px->paths = malloc(px->path_cap * sizeof *px->paths);
  for (int r = 0; r < px->nranks; r++)
    px->ranks[r].col = -1;
  if (!px->paths || copy_phases(px, trace) != 0) {
    met_pixels_free(px);
    return NULL;
  }
  return px;
}

/* The category with the most seconds in acc (the lowest of equals), or NONE when none has any. */
static unsigned char dominant(const double acc[MET_CAT_COUNT])
{
  unsigned char most = MET_PIXELS_NONE;
  double best = 0;
  for (int k = 0; k < MET_CAT_COUNT; k++)
    if (acc[k] > best) {
      best = acc[k];
      most = (unsigned char)k;
    }
  return most;
}

/* Adds the span [a, b) (in columns) of one category to the columns it covers. A rank's spans come in time order, so
 * that a column is complete once a span starts past it. */
static void raster_span(met_pixels_t *px, int rank, double a, double b, int category)
{
  rank_build_t *r = &px->ranks[rank];
  unsigned char *row = px->cells + (size_t)rank * MET_PIXELS_COLS;
  if (b > MET_PIXELS_COLS)
    b = MET_PIXELS_COLS;
  for (int c = (int)floor(fmax(a, 0)); c < MET_PIXELS_COLS && c < b; c++) {
    if (c != r->col) {
      if (r->col >= 0)
        row[r->col] = dominant(r->acc);
      memset(r->acc, 0, sizeof r->acc);
      r->col = c;
    }
    r->acc[category] += fmin(b, c + 1) - fmax(a, c);
  }
}

static int by_value(const void *a, const void *b)
{
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* Sorts the paths and drops repeats; forgets them all when those between different ranks are too many to draw. */
static void compact_paths(met_pixels_t *px)
{
  size_t kept = 0, between = 0;
  qsort(px->paths, px->npaths, sizeof *px->paths, by_value);
  for (size_t i = 0; i < px->npaths; i++)
    if (kept == 0 || px->paths[kept - 1] != px->paths[i]) {
      px->paths[kept++] = px->paths[i];
      between += (px->paths[i] >> 16 & 0xFFFF) != (px->paths[i] & 0xFFFF);
    }
  px->npaths = kept;
  if (between > (size_t)MET_PIXELS_LINES * (size_t)px->nranks) {
    free(px->paths);
    px->paths = NULL;
    px->npaths = 0;
  }
}

/* Counts the message `iv` ends at `rank` (met_message_ends) and keeps its path. 0, or -1 when out of memory. */
static int add_message(met_pixels_t *px, int rank, const met_interval_t *iv)
{
  int from, to;
  if (!met_message_ends(iv, rank, &from, &to))
    return 0;
  px->messages++;
  if (!px->paths)
    return 0;
  if (px->npaths == px->path_cap) {
    compact_paths(px);
    if (px->paths && px->npaths > px->path_cap / 2) {
      uint64_t *grown = realloc(px->paths, 2 * px->path_cap * sizeof *grown);
      if (!grown)
        return -1;
      px->paths = grown;
      px->path_cap *= 2;
    }
    if (!px->paths)
      return 0;
  }
  uint64_t c0 = (uint64_t)fmin(MET_PIXELS_COLS - 1, floor(iv->sent * px->scale)); /* from its send (met_trace.h) */
  uint64_t c1 = (uint64_t)fmin(MET_PIXELS_COLS - 1, floor(iv->end * px->scale));
  px->paths[px->npaths++] = c0 << 48 | c1 << 32 | (uint64_t)from << 16 | (uint64_t)to;
  return 0;
}

static int push_segment(rank_build_t *r, const met_segment_t *seg)
{
  if (bas_reserve((void **)&r->segs, &r->cap, r->nsegs, sizeof *r->segs, 16) != 0)
    return -1;
  r->segs[r->nsegs++] = *seg;
  return 0;
}

/* A segment of a decimated page: joined to the held one when both carry no message, have one category and touch. */
static int emit(rank_build_t *r, const met_segment_t *seg)
{
  const met_segment_t *h = &r->held;
  if (r->holding && seg->peer < 0 && h->peer < 0 && seg->category == h->category && seg->start == h->end) {
    r->held.end = seg->end;
    return 0;
  }
  int rc = r->holding ? push_segment(r, &r->held) : 0;
  r->held = *seg;
  r->holding = 1;
  return rc;
}

static met_segment_t segment_of(const met_interval_t *iv)
{
  return (met_segment_t){.start = iv->start,
                         .end = iv->end,
                         .bytes = iv->bytes,
                         .phase = iv->phase,
                         .peer = iv->peer,
                         .category = (uint8_t)iv->category,
                         .dir = (uint8_t)iv->dir,
                         .sent = iv->sent};
}

static void merge_step(rank_build_t *r, const met_interval_t *iv)
{
  r->merged[MET_CAT_IDLE] += iv->start - r->merge_at;
  r->merged[iv->category] += iv->end - iv->start;
  r->merge_at = r->seg.end = iv->end;
}

/* The merged column as one segment of the category that took most of it. */
static int close_merge(rank_build_t *r)
{
  int most = 0;
  for (int k = 1; k < MET_CAT_COUNT; k++)
    most = r->merged[k] > r->merged[most] ? k : most;
  r->seg.category = (uint8_t)most;
  r->merging = 0;
  return emit(r, &r->seg);
}

/* One interval of a decimated page: one a column long or longer stays whole (its message with it); shorter ones that
 * start in the first one's column become one segment. */
static int page_add(const met_pixels_t *px, rank_build_t *r, const met_interval_t *iv)
{
  double width = px->width;
  if (width == 0) {
    met_segment_t seg = segment_of(iv);
    return push_segment(r, &seg);
  }
  int rc = 0;
  if (r->merging) {
    if (iv->start < r->column_end && iv->end - iv->start < width) {
      merge_step(r, iv);
      return 0;
    }
    rc = close_merge(r);
  }
  if (iv->end - iv->start >= width) {
    met_segment_t seg = segment_of(iv);
    return rc | emit(r, &seg);
  }
  r->merging = 1;
  memset(r->merged, 0, sizeof r->merged);
  r->column_end = (floor(iv->start / width) + 1) * width;
  r->merge_at = iv->start;
  r->seg = (met_segment_t){.start = iv->start, .phase = iv->phase, .peer = -1, .sent = iv->start};
  merge_step(r, iv);
  return rc;
}

int met_pixels_add(met_pixels_t *px, int rank, const met_interval_t *iv)
{
  if (rank < 0 || rank >= px->nranks)
    return BAS_EINVAL;
  rank_build_t *r = &px->ranks[rank];
  raster_span(px, rank, r->at * px->scale, iv->start * px->scale, MET_CAT_IDLE);
  raster_span(px, rank, iv->start * px->scale, iv->end * px->scale, iv->category);
  r->at = iv->end;
  return add_message(px, rank, iv) != 0 || page_add(px, r, iv) != 0 ? BAS_ENOMEM : 0;
}

int met_pixels_finish(met_pixels_t *px)
{
  int rc = 0;
  for (int rank = 0; rank < px->nranks; rank++) {
    rank_build_t *r = &px->ranks[rank];
    raster_span(px, rank, r->at * px->scale, px->end * px->scale, MET_CAT_IDLE);
    if (r->col >= 0)
      px->cells[(size_t)rank * MET_PIXELS_COLS + r->col] = dominant(r->acc);
    if (r->merging)
      rc |= close_merge(r);
    if (r->holding)
      rc |= push_segment(r, &r->held);
    r->holding = 0;
  }
  if (px->paths)
    compact_paths(px);
  return rc != 0 ? BAS_ENOMEM : 0;
}

static int add_interval(void *pixels, int rank, const met_interval_t *iv)
{
  return met_pixels_add(pixels, rank, iv);
}

met_pixels_t *met_pixels_new(const met_trace_t *trace)
{
  size_t intervals = met_trace_spilled(trace);
  for (int r = 0; r < met_trace_nranks(trace); r++)
    intervals += met_trace_count(trace, r);
  met_pixels_t *px = met_pixels_begin(trace, intervals);
  int rc = px ? met_trace_walk(trace, 0, met_trace_nranks(trace) - 1, add_interval, px) : -1;
  if (rc == 0 && met_pixels_finish(px) == 0)
    return px;
  met_pixels_free(px);
  return NULL;
}

void met_pixels_free(met_pixels_t *px)
{
  if (!px)
    return;
  for (int i = 0; px->phases && i < px->nphases; i++)
    free(px->phases[i]);
  for (int r = 0; px->ranks && r < px->nranks; r++)
    free(px->ranks[r].segs);
  free(px->phases);
  free(px->ranks);
  free(px->cells);
  free(px->paths);
  free(px);
}

int met_pixels_nranks(const met_pixels_t *px)
{
  return px->nranks;
}

double met_pixels_end(const met_pixels_t *px)
{
  return px->end;
}

int met_pixels_phase_count(const met_pixels_t *px)
{
  return px->nphases;
}

const char *met_pixels_phase_name(const met_pixels_t *px, int id)
{
  return id >= 0 && id < px->nphases ? px->phases[id] : NULL;
}

size_t met_pixels_intervals(const met_pixels_t *px)
{
  return px->intervals;
}

const unsigned char *met_pixels_row(const met_pixels_t *px, int rank)
{
  return rank >= 0 && rank < px->nranks ? px->cells + (size_t)rank * MET_PIXELS_COLS : NULL;
}

size_t met_pixels_messages(const met_pixels_t *px)
{
  return px->messages;
}

const uint64_t *met_pixels_paths(const met_pixels_t *px, size_t *count)
{
  *count = px->npaths;
  return px->paths;
}

double met_pixels_page_column(const met_pixels_t *px)
{
  return px->width;
}

const met_segment_t *met_pixels_segments(const met_pixels_t *px, int rank, size_t *count)
{
  *count = rank >= 0 && rank < px->nranks ? px->ranks[rank].nsegs : 0;
  return *count ? px->ranks[rank].segs : NULL;
}

/* The stream: a magic, the length of the data and of its zstd frame, then the frame (zstd: a per-process point's data
 * shrinks about 4 times, 1.49 MB to 0.37 MB for gj256's one-to-all run at p = 64). The data: another magic, ranks,
 * end, intervals, messages, the page's width, the phase names (length, bytes), the raster, the paths (a count, or
 * UINT64_MAX when there are too many to draw) and each rank's segments (a count, then the segments), all raw: the
 * stream goes from a process to its parent or the cache of the same executable. */
static const char packed_magic[4] = {'S', 'P', 'Z', '1'};
static const char pixels_magic[4] = {'S', 'P', 'X', '1'};
/* A damaged length is refused before anything is allocated: the largest pixels written are about 420 MB (65,536 ranks x
 * 1,100 columns, and at most 331 paths of 16 bytes a rank), well under 1 GiB; a 4 GiB length let fuzz_result ask
 * malloc for 4 GiB. */
#define MAX_DATA ((uint64_t)1 << 30)

static int put(FILE *out, const void *data, size_t size)
{
  return size == 0 || fwrite(data, size, 1, out) == 1 ? 0 : -1;
}

static int get(FILE *in, void *data, size_t size)
{
  return size == 0 || fread(data, size, 1, in) == 1 ? 0 : -1;
}

static int write_data(const met_pixels_t *px, FILE *out)
{
  int32_t nranks = px->nranks, nphases = px->nphases;
  uint64_t intervals = px->intervals, messages = px->messages, npaths = px->paths ? px->npaths : UINT64_MAX;
  int rc = put(out, pixels_magic, sizeof pixels_magic) | put(out, &nranks, sizeof nranks) |
           put(out, &px->end, sizeof px->end) | put(out, &intervals, sizeof intervals) |
           put(out, &messages, sizeof messages) | put(out, &px->width, sizeof px->width) |
           put(out, &nphases, sizeof nphases);
  for (int i = 0; rc == 0 && i < px->nphases; i++) {
    uint32_t len = (uint32_t)strlen(px->phases[i]);
    rc = put(out, &len, sizeof len) | put(out, px->phases[i], len);
  }
  rc |= put(out, px->cells, (size_t)px->nranks * MET_PIXELS_COLS) | put(out, &npaths, sizeof npaths) |
        put(out, px->paths, px->paths ? px->npaths * sizeof *px->paths : 0);
  for (int r = 0; rc == 0 && r < px->nranks; r++) {
    uint64_t nsegs = px->ranks[r].nsegs;
    rc = put(out, &nsegs, sizeof nsegs) | put(out, px->ranks[r].segs, px->ranks[r].nsegs * sizeof(met_segment_t));
  }
  return rc;
}

/* `count` items of `size` bytes into a new array (*items NULL for none), grown as they are read, so that a damaged
 * count fails at the end of the stream rather than asking for terabytes first. 0, or -1. */
static int get_array(FILE *in, uint64_t count, size_t size, void **items)
{
  enum { CHUNK = 4096 };
  char *array = NULL;
  *items = NULL;
  for (uint64_t done = 0; done < count;) {
    uint64_t n = count - done < CHUNK ? count - done : CHUNK;
    char *grown = realloc(array, (size_t)(done + n) * size);
    if (!grown || get(in, grown + done * size, (size_t)n * size) != 0) {
      free(grown ? grown : array);
      return -1;
    }
    array = grown;
    done += n;
  }
  *items = array;
  return 0;
}

static int get_phases(met_pixels_t *px, FILE *in, int32_t nphases)
{
  if (nphases < 0 || nphases > 1 << 20 || !(px->phases = calloc(nphases > 0 ? (size_t)nphases : 1, sizeof(char *))))
    return -1;
  for (px->nphases = 0; px->nphases < nphases; px->nphases++) {
    uint32_t len;
    if (get(in, &len, sizeof len) != 0 || len > 1 << 16 || !(px->phases[px->nphases] = calloc(len + 1, 1)) ||
        get(in, px->phases[px->nphases], len) != 0) {
      px->nphases += px->phases[px->nphases] != NULL;
      return -1;
    }
  }
  return 0;
}

/* Whether the rank's segments are within range: categories, directions and phases known. */
static int segments_valid(const met_pixels_t *px, const rank_build_t *r)
{
  for (size_t i = 0; i < r->nsegs; i++)
    if (r->segs[i].category >= MET_CAT_COUNT || r->segs[i].dir > MET_DIR_RECV || r->segs[i].phase < 0 ||
        r->segs[i].phase >= px->nphases)
      return 0;
  return 1;
}

static int get_ranks(met_pixels_t *px, FILE *in)
{
  uint64_t npaths;
  if (get(in, px->cells, (size_t)px->nranks * MET_PIXELS_COLS) != 0 || get(in, &npaths, sizeof npaths) != 0 ||
      (npaths != UINT64_MAX && get_array(in, npaths, sizeof *px->paths, (void **)&px->paths) != 0))
    return -1;
  px->npaths = npaths == UINT64_MAX ? 0 : (size_t)npaths;
  for (int r = 0; r < px->nranks; r++) {
    uint64_t nsegs;
    void *segs;
    if (get(in, &nsegs, sizeof nsegs) != 0 || get_array(in, nsegs, sizeof(met_segment_t), &segs) != 0)
      return -1;
    px->ranks[r].segs = segs;
    px->ranks[r].nsegs = px->ranks[r].cap = (size_t)nsegs;
    if (!segments_valid(px, &px->ranks[r]))
      return -1;
  }
  return 0;
}

static met_pixels_t *read_data(FILE *in)
{
  char magic[sizeof pixels_magic];
  int32_t nranks, nphases;
  uint64_t intervals, messages;
  double end, width;
  if (get(in, magic, sizeof magic) != 0 || memcmp(magic, pixels_magic, sizeof magic) != 0 ||
      get(in, &nranks, sizeof nranks) != 0 || get(in, &end, sizeof end) != 0 ||
      get(in, &intervals, sizeof intervals) != 0 || get(in, &messages, sizeof messages) != 0 ||
      get(in, &width, sizeof width) != 0 || get(in, &nphases, sizeof nphases) != 0)
    return NULL;
  met_pixels_t *px = pixels_new(nranks);
  if (!px)
    return NULL;
  *px = (met_pixels_t){.nranks = nranks,
                       .end = end,
                       .intervals = (size_t)intervals,
                       .messages = (size_t)messages,
                       .width = width,
                       .scale = raster_scale(end),
                       .cells = px->cells,
                       .ranks = px->ranks};
  if (get_phases(px, in, nphases) == 0 && get_ranks(px, in) == 0)
    return px;
  met_pixels_free(px);
  return NULL;
}

int met_pixels_write(const met_pixels_t *px, FILE *out)
{
  char *data = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&data, &len);
  int rc = mem ? write_data(px, mem) : -1;
  rc |= mem && fclose(mem) == 0 ? 0 : -1;
  size_t bound = ZSTD_compressBound(len);
  void *frame = rc == 0 ? malloc(bound) : NULL;
  size_t n = frame ? ZSTD_compress(frame, bound, data, len, ZSTD_CLEVEL_DEFAULT) : 0;
  uint64_t sizes[2] = {len, n};
  rc = frame && !ZSTD_isError(n)
           ? put(out, packed_magic, sizeof packed_magic) | put(out, sizes, sizeof sizes) | put(out, frame, n)
           : -1;
  free(frame);
  free(data);
  return rc != 0 ? BAS_EIO : 0;
}

met_pixels_t *met_pixels_read(FILE *in)
{
  char magic[sizeof packed_magic];
  uint64_t sizes[2];
  void *frame = NULL;
  if (get(in, magic, sizeof magic) != 0 || memcmp(magic, packed_magic, sizeof magic) != 0 ||
      get(in, sizes, sizeof sizes) != 0 || sizes[0] == 0 || sizes[0] > MAX_DATA ||
      get_array(in, sizes[1], 1, &frame) != 0)
    return NULL;
  /* the frame's own header names its content size (ZSTD_compress writes it): a length that disagrees is damage */
  int agrees = frame && ZSTD_getFrameContentSize(frame, (size_t)sizes[1]) == sizes[0];
  char *data = agrees ? malloc((size_t)sizes[0]) : NULL;
  size_t n = data ? ZSTD_decompress(data, (size_t)sizes[0], frame, (size_t)sizes[1]) : 0;
  FILE *mem = data && !ZSTD_isError(n) && n == sizes[0] ? fmemopen(data, n, "rb") : NULL;
  met_pixels_t *px = mem ? read_data(mem) : NULL;
  if (px && fgetc(mem) != EOF) { /* data after the pixels: not what was written */
    met_pixels_free(px);
    px = NULL;
  }
  if (mem)
    fclose(mem);
  free(data);
  free(frame);
  return px;
}
