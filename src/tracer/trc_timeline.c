/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The measured timeline's lines (trc_timeline.h), format 2 of docs/tracer.md. A call's fields are looked up in a
 * direct-mapped table of SIGNATURES numbered definitions: a hit writes the number, a miss (a new call, or a collision)
 * writes "d NUMBER fields" first, replacing that number's definition. Times are whole nanoseconds, rounded from the
 * clock's seconds as format 1 rounded them, and given as differences, so that reading them back gives format 1's
 * times to the nanosecond. */
#include "trc_timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Definitions the table holds: a power of two, and at most the reader's bound (met_timeline.c, MAX_SIGNATURES). */
enum { SIGNATURES = 4096 };

/* What a definition stands for: the fields of a timeline line after its times, the phase by its change count. */
typedef struct signature {
  const char *category; /* string literals: compared by address; NULL: unused */
  const char *name;
  int peer;
  double bytes;
  int env;
  int tag;
  int comm;
  long long req;
  unsigned long long others;
  unsigned long phase;
  int rsrc; /* a send-receive's receive half (sr); -2 for other calls */
  int rtag;
  double rbytes;
} signature_t;

struct trc_timeline {
  trc_out_t *out;
  const char *phase;
  unsigned long phase_changes;
  long long prev; /* the end of the previous interval, ns */
  signature_t table[SIGNATURES];
};

trc_timeline_t *trc_timeline_new(trc_out_t *out)
{
  trc_timeline_t *t = calloc(1, sizeof *t);
  if (t) {
    t->out = out;
    t->phase = "main";
  }
  return t;
}

void trc_timeline_free(trc_timeline_t *t)
{
  free(t);
}

void trc_timeline_phase(trc_timeline_t *t, const char *phase)
{
  t->phase = phase;
  t->phase_changes++;
}

/* A send-receive's receive half, after its send half's tag and communicator: " SOURCE TAG BYTES" as received. */
static void write_recv_half(trc_out_t *out, const trc_rec_t *r)
{
  trc_out_char(out, ' ');
  trc_out_long(out, r->rsrc);
  trc_out_char(out, ' ');
  trc_out_long(out, r->rtag);
  trc_out_char(out, ' ');
  trc_out_long(out, (long long)r->rbytes);
}

/* A partner as the timeline writes it: a rank, TRC_PEER_NULL (MPI_PROC_NULL), else TRC_PEER_NONE. */
static int written_peer(int peer)
{
  return peer == TRC_PEER_NULL ? TRC_PEER_NULL : peer < 0 ? TRC_PEER_NONE : peer;
}

/* The fields of a line after its times: category, phase, partner (-1 when no rank or any source, -2 for MPI_PROC_NULL),
 * bytes, call ("NAME*COUNT" for a run of `count` > 1 polls), then for a message its tag and communicator and the
 * request it names, if any (and the others it completed, a mask), or for a send-receive its receive half. */
static void write_fields(trc_timeline_t *t, const trc_rec_t *r, long count)
{
  trc_out_t *out = t->out;
  trc_out_str(out, r->category);
  trc_out_char(out, ' ');
  trc_out_str(out, t->phase);
  trc_out_char(out, ' ');
  trc_out_long(out, written_peer(r->peer));
  trc_out_char(out, ' ');
  trc_out_long(out, (long long)r->bytes);
  trc_out_char(out, ' ');
  trc_out_str(out, r->name);
  if (count > 1) {
    trc_out_char(out, '*');
    trc_out_long(out, count);
  }
  if (r->env) {
    trc_out_char(out, ' ');
    trc_out_long(out, r->tag);
    trc_out_char(out, ' ');
    trc_out_long(out, r->comm);
    if (r->sr)
      write_recv_half(out, r);
    else if (r->req != -1) { /* -1: none; TRC_REQ_NONE (-2) is written */
      trc_out_char(out, ' ');
      trc_out_long(out, r->req);
      if (r->others) {
        trc_out_char(out, ' ');
        trc_out_long(out, (long long)r->others);
      }
    }
  }
  trc_out_char(out, '\n');
}

static unsigned long long mix(unsigned long long h, unsigned long long v)
{
  return (h ^ v) * 1099511628211ULL; /* FNV-1a's prime */
}

/* The number of the definition of `r`'s fields, written first when the table does not hold it. */
static int signature(trc_timeline_t *t, const trc_rec_t *r)
{
  signature_t s = {.category = r->category,
                   .name = r->name,
                   .peer = written_peer(r->peer),
                   .bytes = r->bytes,
                   .env = r->env,
                   .tag = r->env ? r->tag : 0,
                   .comm = r->env ? r->comm : 0,
                   .req = r->env ? r->req : -1,
                   .others = r->env ? r->others : 0,
                   .phase = t->phase_changes,
                   .rsrc = r->env && r->sr ? r->rsrc : -2,
                   .rtag = r->env && r->sr ? r->rtag : 0,
                   .rbytes = r->env && r->sr ? r->rbytes : 0};
  unsigned long long h = 14695981039346656037ULL;
  h = mix(h, (unsigned long long)(size_t)s.name);
  h = mix(h, (unsigned long long)(size_t)s.category);
  h = mix(h, (unsigned long long)s.peer);
  h = mix(h, (unsigned long long)s.bytes);
  h = mix(h, (unsigned long long)s.tag * 2654435761ULL + (unsigned)s.comm);
  h = mix(h, (unsigned long long)s.req ^ s.others);
  h = mix(h, s.phase);
  h = mix(h, (unsigned long long)s.rsrc * 40503ULL + (unsigned)s.rtag + (unsigned long long)s.rbytes);
  int id = (int)((h ^ (h >> 29)) & (SIGNATURES - 1));
  signature_t *held = &t->table[id];
  if (held->category == s.category && held->name == s.name && held->peer == s.peer && held->bytes == s.bytes &&
      held->env == s.env && held->tag == s.tag && held->comm == s.comm && held->req == s.req &&
      held->others == s.others && held->phase == s.phase && held->rsrc == s.rsrc && held->rtag == s.rtag &&
      held->rbytes == s.rbytes)
    return id;
  *held = s;
  trc_out_str(t->out, "d ");
  trc_out_long(t->out, id);
  trc_out_char(t->out, ' ');
  write_fields(t, r, 1);
  return id;
}

/* One record line "NUMBER GAP COMPUTE DURATION [POLLS]" for the call of `r` (or the computation alone, as its call)
 * from `start` to `end` ns, after a computation of `compute` ns that starts `gap` ns after the previous interval. */
static void write_record(trc_timeline_t *t, const trc_rec_t *r, long long gap, long long compute, long long start,
                         long long end)
{
  const long long fields[] = {signature(t, r), gap, compute, end - start, r->count};
  trc_out_line(t->out, fields, r->count > 1 ? 5 : 4);
  t->prev = end;
}

void trc_timeline_record(trc_timeline_t *t, const trc_rec_t *r)
{
  static const trc_rec_t computation = {.category = "compute", .peer = -1, .name = "-", .count = 1};
  long long c_start = trc_ns(r->c_start), c_end = trc_ns(r->c_end);
  int computed = r->c_end > r->c_start;
  if (computed && (!r->has_call || trc_ns(r->start) != c_end)) { /* a computation of its own line */
    write_record(t, &computation, c_start - t->prev, 0, c_start, c_end);
    computed = 0;
  }
  if (!r->has_call)
    return;
  long long start = trc_ns(r->start);
  long long from = computed ? c_start : start;
  write_record(t, r, from - t->prev, start - from, start, trc_ns(r->end));
}

void trc_timeline_loop(trc_timeline_t *t, const trc_loop_t *l)
{
  double n = (double)l->count;
  long long first = trc_ns(l->first), last = trc_ns(l->last);
  trc_out_str(t->out, "loop ");
  trc_out_long(t->out, l->count);
  trc_out_char(t->out, ' ');
  trc_out_long(t->out, l->nslots);
  trc_out_char(t->out, ' ');
  trc_out_seconds(t->out, first);
  trc_out_char(t->out, ' ');
  trc_out_seconds(t->out, last);
  trc_out_char(t->out, '\n');
  for (int j = 0; j < l->nslots; j++) {
    const trc_slot_t *s = &l->slots[j];
    trc_out_printf(t->out, "= %.12f %.12f ", s->compute / n, s->duration / n);
    write_fields(t, &s->rec, s->rec.poll ? llround(s->polls / n) : s->rec.count);
  }
  t->prev = last;
}
