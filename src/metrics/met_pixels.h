/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A run's timeline reduced to what its pictures draw (docs/pictures.md): per rank, the SVG timeline's pixel columns
 * (the category that took most of each) and its messages' distinct pixel paths, and the HTML page's segments (every
 * interval of a short run; a long one decimated to columns). Built as the intervals go by, rank by rank or
 * interleaved, so that what a study keeps of a point grows with its ranks and the pixels drawn, not with its messages.
 * Independent of SimGrid, as the trace model. */
#ifndef MET_PIXELS_H
#define MET_PIXELS_H

#include "met_trace.h"

#include <stdint.h>

/* The SVG timeline's pixel columns across the time axis (rep_timeline.c). */
#define MET_PIXELS_COLS 1100
/* A column after the end of the run: no category. */
#define MET_PIXELS_NONE 255
/* Distinct message paths between two different ranks, per rank, beyond which their lines cannot be drawn: each is at
 * least a row high, so with more than 331 x ranks of them, drawn 0.5 px wide, their ink exceeds the 15% of the plot
 * (1100 columns x ranks rows) that rep_timeline.c allows (TL_INK_SHARE: 330 x ranks lines fill it exactly). */
#define MET_PIXELS_LINES 331
/* The HTML page holds a run of at most MET_PAGE_WHOLE intervals whole (about 55 bytes of its script's data each); a
 * longer run is decimated to about MET_PAGE_SEGMENTS segments in all (MET_PAGE_SEGMENTS / ranks columns a rank, at
 * least MET_PAGE_COLUMNS), so that the page grows with the ranks and the columns drawn: gj256's two runs at p = 128,
 * 13 MB of data whole, fit in 3 MB. */
enum { MET_PAGE_WHOLE = 20000, MET_PAGE_SEGMENTS = 30000, MET_PAGE_COLUMNS = 64 };

/* One segment of the page's timeline: an interval as recorded, or shorter ones merged into the category that took
 * most of their column (peer -1, no direction, no bytes, the first one's phase). */
typedef struct met_segment {
  double start; /* seconds */
  double end;
  double bytes;
  int32_t phase;
  int32_t peer;
  uint8_t category;  /* met_category_t */
  uint8_t dir;       /* met_dir_t */
  uint8_t unused[6]; /* zero: segments are written raw */
  double sent;       /* a message's counting end: when its send started (met_interval_t.sent); else its start */
} met_segment_t;

typedef struct met_pixels met_pixels_t;

/* The pictures of a whole trace (met_trace_new) or of a spilled one (met_trace_new_spilled, read from its file; an
 * aggregate one that is not spilled has no intervals to draw). A new object (free with met_pixels_free), or NULL when
 * out of memory or when the spilled file cannot be read. */
met_pixels_t *met_pixels_new(const met_trace_t *trace);

/* The same, built piecemeal: begin with the run's trace (its ranks, end and phase names are read now; it may be an
 * aggregate one, whose intervals went elsewhere) and the number of intervals the run kept in all, then add each
 * interval as met_trace_add kept it (each rank's in time order, ranks in any interleaving), then finish. begin:
 * NULL when out of memory; add and finish: 0, or BAS_ENOMEM when out of memory (then only met_pixels_free is left to
 * do; add: BAS_EINVAL for a rank out of range). */
met_pixels_t *met_pixels_begin(const met_trace_t *trace, size_t intervals);
int met_pixels_add(met_pixels_t *pixels, int rank, const met_interval_t *iv);
int met_pixels_finish(met_pixels_t *pixels);
void met_pixels_free(met_pixels_t *pixels); /* accepts NULL */

/* The run's ranks, its end (T_par), its phases and each phase's name, as the trace had them. */
int met_pixels_nranks(const met_pixels_t *pixels);
double met_pixels_end(const met_pixels_t *pixels); /* T_par */
int met_pixels_phase_count(const met_pixels_t *pixels);
const char *met_pixels_phase_name(const met_pixels_t *pixels, int id); /* NULL for an unknown id */
/* The intervals of the run, in all ranks. */
size_t met_pixels_intervals(const met_pixels_t *pixels);

/* The SVG timeline: rank's MET_PIXELS_COLS columns, each the category (met_category_t) that took most of its time (the
 * lowest of equals; the gaps between intervals and the tail up to T_par idle, as met_trace_category_time counts them)
 * or MET_PIXELS_NONE; NULL for a bad rank. Column c covers [c, c + 1) x T_par / MET_PIXELS_COLS seconds. */
const unsigned char *met_pixels_row(const met_pixels_t *pixels, int rank);
/* Every message counted once (met_message_ends). */
size_t met_pixels_messages(const met_pixels_t *pixels);
/* The messages' distinct paths, sorted, each (first column << 48 | last column << 32 | sender << 16 | receiver) (the
 * lower rank and the higher where the trace did not record who sent); NULL with *count 0 when there are more than
 * MET_PIXELS_LINES x ranks between different ranks, too many to draw. */
const uint64_t *met_pixels_paths(const met_pixels_t *pixels, size_t *count);

/* The page's columns in seconds, or 0 when the run is shown whole (MET_PAGE_WHOLE intervals or fewer). */
double met_pixels_page_column(const met_pixels_t *pixels);
/* The rank's segments of the page in time order, their number in *count; NULL with 0 for none or a bad rank. */
const met_segment_t *met_pixels_segments(const met_pixels_t *pixels, int rank, size_t *count);

/* Binary serialisation, to hand a point's pictures from its simulating process to the study and to keep them in the
 * cache. write: 0, or BAS_EIO on an I/O error. read: a new object, or NULL on a malformed stream or out of memory. */
int met_pixels_write(const met_pixels_t *pixels, FILE *out);
met_pixels_t *met_pixels_read(FILE *in);

#endif
