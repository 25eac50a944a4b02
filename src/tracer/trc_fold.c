/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Online folding of a rank's repeated call sequences (trc_fold.h), as ScalaTrace's loop compression does it for MPI
 * traces, on one rank and without nesting: the last records are held in a ring; for each period p up to MAX_PERIOD a
 * counter says how many records in a row equal the one p before, so a run of FOLD_ITERATIONS repeats of p records is
 * seen in O(MAX_PERIOD) key comparisons per record. The repeats then become a loop that grows while the rank keeps
 * repeating, and only the sums of each slot's times and work are kept: memory does not grow with the count. */
#include "trc_fold.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The longest body folded, and the repeats a sequence needs to become a loop: a shorter run is written as it came, so
 * that a trace of a program that repeats little stays in SMPI's actions. */
enum { MAX_PERIOD = 32, FOLD_ITERATIONS = 16, RING = MAX_PERIOD * FOLD_ITERATIONS };

/* An iteration longer than OUTLIER_FACTOR times the loop's mean (its median, among the iterations that start it) plus
 * OUTLIER_SLACK seconds is not folded: one long wait in a mean would spread it over every iteration, out of step with
 * the partners' own loops, whose means do not hold it (the clock condition then took the difference from the
 * computation of the ranks after it: mpi4py-ring-smpi, -10%). The loop ends before it, and it is written as it came.
 * The slack keeps a loop of microseconds whole through the jitter of a loaded machine. */
#define OUTLIER_FACTOR 4.0
#define OUTLIER_SLACK  100e-6

/* A loop is unfolded into iterations of its mean period, so iteration k ends k periods after its start: a loop grows
 * only while every iteration it holds ends within DRIFT_SLACK seconds, or DRIFT_SHARE of the mean period, of where it
 * will be unfolded. A loop whose iterations wait for partners that are not in step (HyPhy's workers, whose waits for
 * the master's next command vary by milliseconds over 19.6-ms iterations) drifted unchecked: unfolded 56 iterations
 * over 1.1 s, its receives fell up to 7.9 ms before their sends, and the clock condition that moved them later turned
 * 0.36 s of a worker's computation into late sender (none unfolded). */
#define DRIFT_SLACK 100e-6
#define DRIFT_SHARE 0.01

/* The mean periods a loop may still end on: every iteration it holds ends within the drift bound of where that period
 * puts it (a period ends iteration k at k periods; the bound is taken at that iteration's own mean period). */
typedef struct band {
  double lo;
  double hi;
} band_t;

static const band_t ANY_PERIOD = {-INFINITY, INFINITY};

struct trc_fold {
  trc_fold_out_t out;
  trc_rec_t ring[RING];        /* records not yet written, oldest at head */
  unsigned recent[MAX_PERIOD]; /* recent[p - 1]: the short key of the record p before the last one pushed */
  int head;
  int n;
  int run[MAX_PERIOD];     /* run[p - 1]: the last run[p - 1] records each have the key of the one p before */
  int checked[MAX_PERIOD]; /* checked[p - 1]: the oldest checked[p - 1] of them are the same as it (repeats) */
  unsigned unfoldable;     /* records that cannot fold so far: each gets a short key of its own */
  long count;              /* iterations of the loop being folded; 0: none */
  int nslots;
  int pos; /* records of the loop's next iteration matched so far (held in the ring) */
  double first;
  double last;
  band_t periods; /* the loop's mean periods that keep its iterations within the drift bound */
  trc_slot_t slots[MAX_PERIOD];
};

trc_fold_t *trc_fold_new(trc_fold_out_t out)
{
  trc_fold_t *f = calloc(1, sizeof *f);
  if (f)
    f->out = out;
  return f;
}

void trc_fold_free(trc_fold_t *f)
{
  free(f);
}

static unsigned long long mix(unsigned long long h, unsigned long long v)
{
  return (h ^ v) * 1099511628211ULL; /* FNV-1a's prime */
}

/* What makes two calls the same for folding: everything but their times, work and poll counts. Their TI text is
 * hashed eight bytes at a time. */
static unsigned long long key_of(const trc_rec_t *r)
{
  unsigned long long h = 14695981039346656037ULL;
  h = mix(h, (unsigned long long)(size_t)r->name);
  h = mix(h, (unsigned long long)(size_t)r->category);
  h = mix(h, (unsigned long long)r->peer);
  h = mix(h, (unsigned long long)r->bytes);
  h = mix(h, (unsigned long long)(r->env ? 1 + (unsigned)r->tag * 2654435761ULL + (unsigned)r->comm : 0));
  h = mix(h, (unsigned long long)r->req ^ r->others);
  h = mix(h, (unsigned long long)(r->poll ? 0 : r->count));
  int i = 0;
  for (unsigned long long word; i + 8 <= r->ti_len; i += 8) {
    memcpy(&word, r->ti + i, 8);
    h = mix(h, word);
  }
  unsigned long long tail = 0;
  if (i < r->ti_len)
    memcpy(&tail, r->ti + i, (size_t)(r->ti_len - i));
  return mix(h, tail ^ (unsigned long long)r->ti_len);
}

static int foldable(const trc_rec_t *r)
{
  return r->has_call && r->ti_len >= 0;
}

/* Whether two calls' send-receive halves are the same (with SIMRUN_TRACE_FORMAT=smpi no TI actions hold them). */
static int same_recv_half(const trc_rec_t *a, const trc_rec_t *b)
{
  return a->sr == b->sr && (!a->sr || (a->rsrc == b->rsrc && a->rtag == b->rtag && a->rbytes == b->rbytes));
}

static int same(const trc_rec_t *a, const trc_rec_t *b)
{
  return a->key == b->key && foldable(a) && foldable(b) && a->name == b->name && a->category == b->category &&
         a->peer == b->peer && a->bytes == b->bytes && a->env == b->env &&
         (!a->env || (a->tag == b->tag && a->comm == b->comm)) && a->req == b->req && a->others == b->others &&
         a->poll == b->poll && (a->poll || a->count == b->count) && a->ti_len == b->ti_len &&
         memcmp(a->ti, b->ti, (size_t)a->ti_len) == 0 && same_recv_half(a, b);
}

static trc_rec_t *at(trc_fold_t *f, int i)
{
  return &f->ring[(f->head + i) % RING];
}

/* Writes the oldest record held. The runs stay true: between pushes every run of period p is under
 * p (FOLD_ITERATIONS - 1) (a longer one starts a loop, which empties the ring), so within the RING - 1 records left. */
static void emit_oldest(trc_fold_t *f)
{
  f->out.plain(at(f, 0));
  f->head = (f->head + 1) % RING;
  f->n--;
}

/* Narrows `b` to the periods that put the end of iteration `k`, `elapsed` seconds after the loop's start, within the
 * drift bound. */
static void band_add(band_t *b, double elapsed, long k)
{
  double per_iteration = 1.0 / (double)k; /* one division: an iteration of a calls-only loop takes some 100 ns */
  /* compared, not fmax and fmin: libm's calls, much of steady's time where no period is steady at any record
   * (push_free); the times are finite */
  double share = DRIFT_SHARE * elapsed * per_iteration;
  double bound = share > DRIFT_SLACK ? share : DRIFT_SLACK;
  double lo = (elapsed - bound) * per_iteration, hi = (elapsed + bound) * per_iteration;
  b->lo = lo > b->lo ? lo : b->lo;
  b->hi = hi < b->hi ? hi : b->hi;
}

/* Whether a loop whose iteration `k` ends `elapsed` seconds after its start, its last, keeps the iterations before it
 * (`b`) within the drift bound: its mean period, elapsed / k, within the band. */
static int band_holds(const band_t *b, double elapsed, long k)
{
  return elapsed >= b->lo * (double)k && elapsed <= b->hi * (double)k;
}

/* The start of the iteration whose first record is the `i`-th held: its first computation, or its call. */
static double start_of(trc_fold_t *f, int i)
{
  const trc_rec_t *r0 = at(f, i);
  return r0->c_end > r0->c_start ? r0->c_start : r0->start;
}

/* The wall seconds of the iteration of `p` records held from the `i`-th: from its first computation (or call) to its
 * last exit. */
static double span_of(trc_fold_t *f, int i, int p)
{
  return at(f, i + p - 1)->end - start_of(f, i);
}

/* Whether an iteration of `span` seconds is an outlier beside a typical one of `typical` seconds. */
static int outlier(double span, double typical)
{
  return span > OUTLIER_FACTOR * typical + OUTLIER_SLACK;
}

/* Whether the last FOLD_ITERATIONS iterations of `p` records held may start a loop: none an outlier beside their
 * median, and each ends within the drift bound of where their mean period puts it. */
static int steady(trc_fold_t *f, int p)
{
  double spans[FOLD_ITERATIONS];
  int from = f->n - p * FOLD_ITERATIONS;
  double most = 0;
  for (int i = 0; i < FOLD_ITERATIONS; i++) {
    spans[i] = span_of(f, from + i * p, p);
    most = spans[i] > most ? spans[i] : most;
  }
  /* one is an outlier beside the median (the upper of the middle two) when the longest is, that is when it is an
   * outlier beside over half of them: counted, not sorted (qsort, through its comparison function, took most of this
   * function's time where no period is steady at any record: push_free) */
  int beside = 0;
  for (int i = 0; i < FOLD_ITERATIONS; i++)
    beside += outlier(most, spans[i]);
  if (beside > FOLD_ITERATIONS / 2)
    return 0;
  band_t periods = ANY_PERIOD;
  double first = start_of(f, from);
  for (int i = 0; i < FOLD_ITERATIONS; i++)
    band_add(&periods, at(f, from + (i + 1) * p - 1)->end - first, i + 1);
  return band_holds(&periods, at(f, f->n - 1)->end - first, FOLD_ITERATIONS);
}

/* Copies the record without the unused part of its TI text (most of it). */
static void copy_record(trc_rec_t *to, const trc_rec_t *from)
{
  memcpy(to, from, offsetof(trc_rec_t, ti) + (size_t)(from->ti_len > 0 ? from->ti_len : 0));
  to->key = from->key;
}

static void append(trc_fold_t *f, const trc_rec_t *r)
{
  if (f->n == RING)
    emit_oldest(f);
  copy_record(at(f, f->n++), r);
}

static void add_iteration(trc_fold_t *f, int from)
{
  for (int j = 0; j < f->nslots; j++) {
    const trc_rec_t *r = at(f, from + j);
    trc_slot_t *s = &f->slots[j];
    s->compute += r->c_end - r->c_start;
    s->duration += r->end - r->start;
    s->flops += r->flops;
    s->polls += (double)r->count;
    s->poll_flops += r->poll_flops;
    s->faults += (double)r->faults;
  }
  f->last = at(f, from + f->nslots - 1)->end;
  f->count++;
  band_add(&f->periods, f->last - f->first, f->count);
}

/* The ring's last FOLD_ITERATIONS * p records repeat p records: what comes before them is written, they become a
 * loop. */
static void start_loop(trc_fold_t *f, int p)
{
  while (f->n > p * FOLD_ITERATIONS)
    emit_oldest(f);
  f->nslots = p;
  f->first = start_of(f, 0);
  f->periods = ANY_PERIOD;
  for (int j = 0; j < p; j++)
    f->slots[j] = (trc_slot_t){.rec = *at(f, j)};
  for (int i = 0; i < FOLD_ITERATIONS; i++)
    add_iteration(f, i * p);
  f->head = f->n = f->pos = 0;
  memset(f->run, 0, sizeof f->run);
  memset(f->checked, 0, sizeof f->checked);
}

/* Whether the last `span` records held each equal (same, not only by key) the one `p` before. */
static int repeats(trc_fold_t *f, int p, int span)
{
  for (int i = f->n - span; i < f->n; i++)
    if (!same(at(f, i), at(f, i - p)))
      return 0;
  return 1;
}

/* No loop being folded: the record joins the ring, and may complete the repeats that start one. Runs are counted on
 * short keys alone, a loop of 32 periods without branches; a run long enough is checked record by record before it
 * starts a loop (a different record of the same short key, one chance in 2^32, ends the run), each record once: a
 * record repeated with irregular work between (one in three after 250 us of work, the others at once:
 * bench/trc_calls.c's MPI_Send_irregular) keeps every period ripe and none steady, tried again at every record, and
 * checking every run whole each time, some 500 same() a record with 32 sorts and libm calls in steady, made the
 * tracer's cost 68 us a call (1.8x the program's CPU time). */
static void push_free(trc_fold_t *f, const trc_rec_t *r)
{
  append(f, r);
  /* 32 bits of the key, so that the loop below is vectorised with the base x86-64's SSE2 (no 64-bit compare); a
   * record never folded gets one of its own, and repeats nothing */
  unsigned key = foldable(r) ? (unsigned)(r->key ^ r->key >> 32) : ~f->unfoldable++;
  int before = f->n - 1; /* records held before this one: periods up to it compare */
  int ripe = 0;
  for (int i = 0; i < MAX_PERIOD; i++) { /* period i + 1; no branch, so that the compiler vectorises it */
    int hit = (f->recent[i] == key) & (i < before);
    f->run[i] = (f->run[i] + 1) & -hit;
    f->checked[i] &= -hit;
    ripe |= f->run[i] >= (i + 1) * (FOLD_ITERATIONS - 1);
  }
  memmove(f->recent + 1, f->recent, sizeof f->recent - sizeof *f->recent);
  f->recent[0] = key;
  for (int p = 1; ripe && p <= MAX_PERIOD; p++)
    if (f->run[p - 1] >= p * (FOLD_ITERATIONS - 1)) {
      if (!repeats(f, p, f->run[p - 1] - f->checked[p - 1])) {
        f->run[p - 1] = f->checked[p - 1] = 0;
        continue;
      }
      if (!at(f, f->n - p * FOLD_ITERATIONS)->continues && steady(f, p)) {
        start_loop(f, p);
        return;
      }
      /* an outlier among them, or a body that would start inside a call (trc_call_more): tried again at the next
       * record, until the outlier is older than the last iterations, or one record later */
      f->run[p - 1] = f->checked[p - 1] = p * (FOLD_ITERATIONS - 1) - 1;
    }
}

/* Ends the loop being folded; the records of the iteration it had begun are moved to `*partial` (their number;
 * NULL when out of memory: they are written as they came). Kept off the stack: the program's stack below its MPI
 * calls is left as an untraced run leaves it, as far as the library can (ScaLAPACK's pdlacon reads it). */
static int end_loop(trc_fold_t *f, trc_rec_t **partial)
{
  int n = f->n;
  *partial = n ? malloc((size_t)n * sizeof **partial) : NULL;
  for (int i = 0; i < n; i++) {
    if (*partial)
      (*partial)[i] = *at(f, i);
    else
      f->out.plain(at(f, i));
  }
  if (!*partial)
    n = 0;
  f->head = f->n = f->pos = 0;
  f->out.loop(
      &(trc_loop_t){.count = f->count, .nslots = f->nslots, .first = f->first, .last = f->last, .slots = f->slots});
  f->count = 0;
  return n;
}

void trc_fold_push(trc_fold_t *f, trc_rec_t *r)
{
  r->key = key_of(r);
  if (f->count == 0) {
    push_free(f, r);
    return;
  }
  int more = same(r, &f->slots[f->pos].rec);
  if (more) {
    append(f, r);
    if (++f->pos < f->nslots)
      return;
    if (!outlier(span_of(f, 0, f->nslots), (f->last - f->first) / (double)f->count) &&
        band_holds(&f->periods, at(f, f->nslots - 1)->end - f->first, f->count + 1)) {
      add_iteration(f, 0);
      f->head = f->n = f->pos = 0;
      return;
    }
  }
  /* the loop ends (before a call that differs, an outlier iteration or one that would leave an earlier iteration
   * beyond the drift bound): the iteration it had begun is pushed again, as records that may start another */
  trc_rec_t *partial;
  int n = end_loop(f, &partial);
  for (int i = 0; i < n; i++)
    trc_fold_push(f, &partial[i]);
  free(partial);
  if (!more)
    trc_fold_push(f, r);
}

void trc_fold_drain(trc_fold_t *f)
{
  if (f->count > 0) {
    trc_rec_t *partial;
    int n = end_loop(f, &partial);
    for (int i = 0; i < n; i++)
      f->out.plain(&partial[i]);
    free(partial);
  }
  while (f->n > 0)
    emit_oldest(f);
  memset(f->run, 0, sizeof f->run);
  memset(f->checked, 0, sizeof f->checked);
}
