/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* MPI's matching by (source, tag) for the ti-replay (app_ti_match.h): the sender tags of each pair that needs them,
 * read before the run, and each receiver's binding of its receives to messages during it. */
#include "app_ti_match.h"
#include "sim_error.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stretch of a sender's messages to one receiver: `n` tags, `reps` times (a folded loop's body; 1 outside loops). */
typedef struct ti_seg {
  int *tags;
  int n;
  int cap;
  long long reps;
  long long loop; /* the loop line it comes from (its serial number), 0 outside loops */
  long long base; /* the number of its first message */
} ti_seg_t;

/* One ordered pair: its first tag, whether another one was seen, the sender's tags. */
typedef struct ti_seq {
  int src; /* -1: an empty slot of the table */
  int dst;
  int tag;
  int multi;       /* several tags, or receives beyond the messages: the pair's tags are matched */
  long long recvs; /* its receives of a tag (loops counted), beside its messages */
  ti_seg_t *segs;
  int nsegs;
  int cap;
  long long total; /* messages */
} ti_seq_t;

struct app_ti_match {
  ti_seq_t *table; /* open addressing on (src, dst) */
  size_t cap;
  size_t used;
  ti_seq_t **tagged; /* the pairs with more than one tag, by receiver then sender */
  int *first;        /* n + 1: the receiver d's pairs are tagged[first[d] .. first[d + 1] - 1] */
};

/* A message of a tagged source passed over by the receives, posted as MPI's unexpected message. */
typedef struct ti_kept {
  long long msg;
  sim_request_t *req;
} ti_kept_t;

/* A receiver's source whose tags it matches: the next message to post, the unexpected ones kept. */
typedef struct app_ti_source {
  const ti_seq_t *seq;
  long long next;
  ti_kept_t *kept;
  int nkept;
  int cap;
} ti_source_t;

/* Each rank's folded loop being read: its count, lines left, serial number. */
typedef struct ti_loop {
  long long count;
  long long left;
  long long serial;
} ti_loop_t;

static void seq_free(ti_seq_t *s)
{
  for (int k = 0; k < s->nsegs; k++)
    free(s->segs[k].tags);
  free(s->segs);
  s->segs = NULL;
  s->nsegs = s->cap = 0;
}

void app_ti_match_free(app_ti_match_t *match)
{
  if (!match)
    return;
  for (size_t i = 0; i < match->cap; i++)
    seq_free(&match->table[i]);
  free(match->table);
  free(match->tagged);
  free(match->first);
  free(match);
}

static size_t hash(int src, int dst, size_t cap)
{
  unsigned long long key = ((unsigned long long)(unsigned)src << 32) | (unsigned)dst;
  key *= 0x9E3779B97F4A7C15ULL;
  return (size_t)(key >> 17) & (cap - 1);
}

static int grow_table(app_ti_match_t *m)
{
  size_t cap = m->cap ? 2 * m->cap : 1024;
  ti_seq_t *table = malloc(cap * sizeof *table);
  if (!table)
    return -1;
  for (size_t i = 0; i < cap; i++)
    table[i] = (ti_seq_t){.src = -1};
  for (size_t i = 0; i < m->cap; i++)
    if (m->table[i].src >= 0) {
      size_t j = hash(m->table[i].src, m->table[i].dst, cap);
      while (table[j].src >= 0)
        j = (j + 1) & (cap - 1);
      table[j] = m->table[i];
    }
  free(m->table);
  m->table = table;
  m->cap = cap;
  return 0;
}

/* The pair's entry, added with its first tag: NULL when out of memory. */
static ti_seq_t *pair(app_ti_match_t *m, int src, int dst, int tag)
{
  if (2 * (m->used + 1) > m->cap && grow_table(m) != 0)
    return NULL;
  size_t j = hash(src, dst, m->cap);
  while (m->table[j].src >= 0 && (m->table[j].src != src || m->table[j].dst != dst))
    j = (j + 1) & (m->cap - 1);
  if (m->table[j].src < 0) {
    m->table[j] = (ti_seq_t){.src = src, .dst = dst, .tag = tag};
    m->used++;
  }
  return &m->table[j];
}

/* Room for one more of `count` items of `size` bytes in *items (capacity *cap): 0, or -1 when out of memory. */
static int room(void **items, int *cap, int count, size_t size)
{
  if (count < *cap)
    return 0;
  int more_cap = *cap ? 2 * *cap : 4;
  void *more = realloc(*items, (size_t)more_cap * size);
  if (!more)
    return -1;
  *items = more;
  *cap = more_cap;
  return 0;
}

/* Adds the sender's next tag to the pair, in the stretch of loop `serial` (0: outside loops). */
static int add_tag(ti_seq_t *s, int tag, const ti_loop_t *loop, long long serial)
{
  ti_seg_t *g = s->nsegs ? &s->segs[s->nsegs - 1] : NULL;
  if (!g || g->loop != serial) {
    if (room((void **)&s->segs, &s->cap, s->nsegs, sizeof *s->segs) != 0)
      return -1;
    g = &s->segs[s->nsegs++];
    *g = (ti_seg_t){.reps = serial ? loop->count : 1, .loop = serial};
  }
  if (room((void **)&g->tags, &g->cap, g->n, sizeof *g->tags) != 0)
    return -1;
  g->tags[g->n++] = tag;
  return 0;
}

/* A line cut into its rank, its action and up to four numbers after it (enough for every point-to-point action and
 * a loop): each field read once, whole numbers without strtod (the reading costs about what the replay's own does). */
typedef struct ti_line {
  double rank;
  const char *action; /* not NUL-terminated: action_len characters */
  size_t action_len;
  double f[4];
  int nf; /* numbers read after the action */
} ti_line_t;

static int blank(char c)
{
  return c == ' ' || c == '\t' || c == '\r';
}

/* The field at *c as a number (*c moved past it): 1, or 0 when it is not one. */
static int number(const char **c, double *value)
{
  const char *at = *c;
  const char *d = at + (*at == '-');
  double v = 0;
  while (*d >= '0' && *d <= '9' && d - at < 16)
    v = 10 * v + (*d++ - '0');
  if (d > at + (*at == '-') && (*d == '\0' || blank(*d))) {
    *value = *at == '-' ? -v : v;
    *c = d;
    return 1;
  }
  char *end;
  *value = strtod(at, &end);
  *c = end;
  return end != at && (*end == '\0' || blank(*end)) && isfinite(*value) &&
         strspn(at, "0123456789.+-eE") >= (size_t)(end - at); /* decimal, as the replay wants */
}

static void skip_blanks(const char **c)
{
  while (blank(**c))
    (*c)++;
}

static int is(const ti_line_t *line, const char *action)
{
  return line->action_len == strlen(action) && strncmp(line->action, action, line->action_len) == 0;
}

/* Whether the action is one whose numbers the matching reads: send, isend, recv, irecv, sendRecv, loop. */
static int wanted(const ti_line_t *line)
{
  char first = line->action[0];
  return (first == 's' || first == 'i' || first == 'r' || first == 'l') &&
         (is(line, "send") || is(line, "isend") || is(line, "recv") || is(line, "irecv") || is(line, "sendRecv") ||
          is(line, "loop"));
}

/* Cuts `text`, reading the numbers of the actions the matching reads only: 0, or -1 when it does not start with a
 * rank and an action. */
static int cut_line(const char *text, ti_line_t *line)
{
  const char *c = text;
  skip_blanks(&c);
  if (!number(&c, &line->rank))
    return -1;
  skip_blanks(&c);
  line->action = c;
  while (*c && !blank(*c))
    c++;
  line->action_len = (size_t)(c - line->action);
  line->nf = 0;
  if (line->action_len == 0)
    return -1;
  if (!wanted(line))
    return 0;
  for (; line->nf < 4; line->nf++) {
    skip_blanks(&c);
    if (!*c || !number(&c, &line->f[line->nf]))
      break;
  }
  return 0;
}

/* A point-to-point line of rank `me`: its sender, receiver and tag, whether it is the message (sending) or its
 * receive; a sendRecv is both (tag 0, as SMPI's). The number of (sending, src, dst, tag) found, 0 to 2. */
typedef struct ti_end {
  int sending;
  int src;
  int dst;
  int tag;
} ti_end_t;

static int line_ends(const ti_line_t *line, int me, int n, ti_end_t ends[2])
{
  const double *f = line->f;
  int sending = is(line, "send") || is(line, "isend");
  if ((sending || is(line, "recv") || is(line, "irecv")) && line->nf >= 2 && f[0] >= 0 && f[0] < n &&
      f[1] >= SIM_TI_ANY_TAG && f[1] <= INT_MAX) {
    int peer = (int)f[0];
    ends[0] = (ti_end_t){sending, sending ? me : peer, sending ? peer : me, (int)trunc(f[1])};
    return 1;
  }
  if (!is(line, "sendRecv") || line->nf < 4 || f[1] < 0 || f[1] >= n || f[3] < 0 || f[3] >= n)
    return 0;
  ends[0] = (ti_end_t){1, me, (int)f[1], 0};
  ends[1] = (ti_end_t){0, (int)f[3], me, 0};
  return 2;
}

/* A loop line "R loop COUNT LINES" starts the rank's loop; any other line of the rank counts down its body. The
 * loop whose body the line is in: its serial number, 0 for none. */
static long long follow_loop(const ti_line_t *line, ti_loop_t *loop, long long *serials)
{
  if (loop->left == 0 && is(line, "loop") && line->nf >= 2 && line->f[0] >= 1 && line->f[1] >= 1) {
    *loop = (ti_loop_t){.count = (long long)line->f[0], .left = (long long)line->f[1], .serial = ++*serials};
    return 0;
  }
  if (loop->left == 0)
    return 0;
  loop->left--;
  return loop->serial;
}

/* One line of rank `me`: `want_tags` records the sender's tags, else only whether a pair sees several tags (and
 * whether the whole trace does: *several). */
static int take_line(app_ti_match_t *m, const ti_line_t *line, int me, int n, ti_loop_t *loop, long long *serials,
                     int want_tags, int *first_tag, int *several)
{
  long long serial = follow_loop(line, loop, serials);
  ti_end_t ends[2];
  int count = line_ends(line, me, n, ends);
  for (int e = 0; e < count; e++) {
    if (ends[e].tag < 0) /* any tag, or refused by the replay */
      continue;
    if (!want_tags) {
      *several |= *first_tag != INT_MIN && *first_tag != ends[e].tag;
      *first_tag = ends[e].tag;
      continue;
    }
    ti_seq_t *s = pair(m, ends[e].src, ends[e].dst, ends[e].tag);
    if (!s || (ends[e].sending && add_tag(s, ends[e].tag, loop, serial) != 0))
      return -1;
    s->multi |= s->tag != ends[e].tag;
    s->recvs += ends[e].sending ? 0 : serial ? loop->count : 1;
  }
  return 0;
}

/* Reads every line of the trace: 0, 1 when a file cannot be read (the replay reports it), -1 when out of memory. */
static int read_trace(app_ti_match_t *m, const sim_ti_trace_t *trace, int n, int want_tags, int *several)
{
  int files = sim_ti_trace_files(trace);
  ti_loop_t *loops = calloc((size_t)n, sizeof *loops);
  long long serials = 0;
  int first_tag = INT_MIN;
  int rc = loops ? 0 : -1;
  for (int f = 0; rc == 0 && f < files && !*several; f++) {
    sim_ti_reader_t *in = NULL;
    char err[16];
    if (sim_ti_reader_open(sim_ti_trace_path(trace, f), 2 * (size_t)n + 8, &in, err, sizeof err) != 0) {
      rc = 1;
      break;
    }
    char *text;
    size_t len;
    int got = 0;
    while (rc == 0 && !*several && (got = sim_ti_reader_next(in, &text, &len)) == 0) {
      ti_line_t line;
      if (cut_line(text, &line) != 0 || line.rank < 0 || line.rank >= n)
        continue;
      int me = files > 1 ? f : (int)line.rank;
      rc = take_line(m, &line, me, n, &loops[me], &serials, want_tags, &first_tag, several);
    }
    rc = rc == 0 && got < 0 ? 1 : rc;
    sim_ti_reader_close(in);
  }
  free(loops);
  return rc;
}

/* The tagged pairs by receiver (match->tagged, match->first); the others' tags freed. A pair with more receives of a
 * tag than messages is matched too: the receives that no message matches are known, so that those a program leaves
 * pending at its end are dropped (app_ti_actions.c). */
static int index_pairs(app_ti_match_t *m, int n)
{
  size_t count = 0;
  for (size_t i = 0; i < m->cap; i++) {
    ti_seq_t *s = &m->table[i];
    for (int g = 0; g < s->nsegs; g++) {
      s->segs[g].base = s->total;
      s->total += s->segs[g].n * s->segs[g].reps;
    }
    s->multi |= s->src >= 0 && s->recvs > s->total;
  }
  for (size_t i = 0; i < m->cap; i++)
    if (m->table[i].src >= 0 && m->table[i].multi)
      count++;
    else
      seq_free(&m->table[i]);
  m->first = calloc((size_t)n + 1, sizeof *m->first);
  m->tagged = malloc((count ? count : 1) * sizeof *m->tagged);
  if (!m->first || !m->tagged)
    return -1;
  for (size_t i = 0; i < m->cap; i++)
    if (m->table[i].multi)
      m->first[m->table[i].dst + 1]++;
  for (int d = 0; d < n; d++)
    m->first[d + 1] += m->first[d];
  int *at = calloc((size_t)n, sizeof *at);
  if (!at)
    return -1;
  for (size_t i = 0; i < m->cap; i++) {
    ti_seq_t *s = &m->table[i];
    if (!s->multi)
      continue;
    int k = m->first[s->dst] + at[s->dst]++;
    while (k > m->first[s->dst] && m->tagged[k - 1]->src > s->src) { /* sorted by sender */
      m->tagged[k] = m->tagged[k - 1];
      k--;
    }
    m->tagged[k] = s;
  }
  free(at);
  return 0;
}

int app_ti_match_build(const sim_ti_trace_t *trace, int n, app_ti_match_t **match)
{
  *match = NULL;
  int several = 0;
  int rc = read_trace(NULL, trace, n, 0, &several);
  if (rc != 0 || !several)
    return rc < 0 ? SIM_ENOMEM : 0;
  app_ti_match_t *m = calloc(1, sizeof *m);
  int unused = 0;
  rc = m ? read_trace(m, trace, n, 1, &unused) : -1;
  if (rc == 0)
    rc = index_pairs(m, n);
  if (rc == 0 && m->first[n] > 0)
    *match = m;
  else
    app_ti_match_free(m);
  return rc < 0 ? SIM_ENOMEM : 0;
}

int app_ti_match_open(app_ti_rank_t *tr, const app_ti_match_t *match)
{
  int count = match ? match->first[tr->me + 1] - match->first[tr->me] : 0;
  if (count == 0)
    return 0;
  tr->sources = calloc((size_t)count, sizeof *tr->sources);
  if (!tr->sources)
    return SIM_ENOMEM;
  tr->nsources = count;
  for (int i = 0; i < tr->nsources; i++)
    tr->sources[i].seq = match->tagged[match->first[tr->me] + i];
  return 0;
}

void app_ti_match_close(app_ti_rank_t *tr)
{
  for (int i = 0; i < tr->nsources; i++) {
    for (int k = 0; k < tr->sources[i].nkept; k++)
      sim_wait(tr->rank, tr->sources[i].kept[k].req);
    free(tr->sources[i].kept);
  }
  free(tr->sources);
  tr->sources = NULL;
  tr->nsources = 0;
}

int app_ti_match_slot(const app_ti_rank_t *tr, int src)
{
  int low = 0;
  int high = tr->nsources - 1;
  while (low <= high) {
    int mid = (low + high) / 2;
    int s = tr->sources[mid].seq->src;
    if (s == src)
      return mid;
    if (s < src)
      low = mid + 1;
    else
      high = mid - 1;
  }
  return -1;
}

/* The stretch of the pair's messages that holds message `msg` (the last one starting at or before it). */
static int seg_of(const ti_seq_t *s, long long msg)
{
  int low = 0;
  int high = s->nsegs - 1;
  while (low < high) {
    int mid = (low + high + 1) / 2;
    if (s->segs[mid].base <= msg)
      low = mid;
    else
      high = mid - 1;
  }
  return low;
}

/* The tag of message `msg` of the pair. */
static int tag_of(const ti_seq_t *s, long long msg)
{
  const ti_seg_t *g = &s->segs[seg_of(s, msg)];
  return g->tags[(msg - g->base) % g->n];
}

static int accepts(int tag, int message_tag)
{
  return tag == SIM_TI_ANY_TAG || tag == message_tag;
}

int app_ti_match_accepts(const app_ti_rank_t *tr, int slot, int tag, long long msg)
{
  return accepts(tag, tag_of(tr->sources[slot].seq, msg));
}

/* The first message from `from` on whose tag a receive of `tag` accepts: -1 when none. A stretch is looked at once
 * per tag of its body, whatever its count. */
static long long find_tag(const ti_seq_t *s, long long from, int tag)
{
  for (int k = s->nsegs ? seg_of(s, from) : 0; k < s->nsegs; k++) {
    const ti_seg_t *g = &s->segs[k];
    long long end = g->base + g->n * g->reps;
    long long at = from > g->base ? from : g->base;
    for (long long i = at; i < end && i < at + g->n; i++)
      if (accepts(tag, g->tags[(i - g->base) % g->n]))
        return i;
  }
  return -1;
}

/* Keeps message `msg` (its request `req`) as unexpected, in message order: -1 when out of memory. */
static int keep(ti_source_t *s, long long msg, sim_request_t *req)
{
  if (room((void **)&s->kept, &s->cap, s->nkept, sizeof *s->kept) != 0)
    return -1;
  int k = s->nkept++;
  while (k > 0 && s->kept[k - 1].msg > msg) {
    s->kept[k] = s->kept[k - 1];
    k--;
  }
  s->kept[k] = (ti_kept_t){.msg = msg, .req = req};
  return 0;
}

/* Posts the slot's next message as unexpected (its tag on its end). */
static int post_kept(app_ti_rank_t *tr, ti_source_t *s)
{
  sim_tag(tr->rank, tag_of(s->seq, s->next));
  sim_request_t *req = sim_irecv(tr->rank, s->seq->src, 0);
  if (!req || keep(s, s->next, req) != 0)
    return -1;
  s->next++;
  return 0;
}

static void take_kept(ti_source_t *s, int k, long long *msg, sim_request_t **req)
{
  *msg = s->kept[k].msg;
  *req = s->kept[k].req;
  memmove(&s->kept[k], &s->kept[k + 1], (size_t)(s->nkept - k - 1) * sizeof *s->kept);
  s->nkept--;
}

int app_ti_match_bind(app_ti_rank_t *tr, int slot, int tag, long long *msg, sim_request_t **req, app_ti_bound_t *bound)
{
  ti_source_t *s = &tr->sources[slot];
  *req = NULL;
  for (int k = 0; k < s->nkept; k++)
    if (accepts(tag, tag_of(s->seq, s->kept[k].msg))) {
      take_kept(s, k, msg, req);
      *bound = APP_TI_BOUND_KEPT;
      return 0;
    }
  *msg = find_tag(s->seq, s->next, tag);
  *bound = *msg < 0 ? APP_TI_BOUND_NEVER : APP_TI_BOUND_NEXT;
  int rc = 0;
  while (rc == 0 && *msg >= 0 && s->next < *msg)
    rc = post_kept(tr, s);
  if (*msg >= 0)
    s->next++;
  /* the receive's own end carries the tag of the message it takes (a receive from any tag too), -1 for none */
  sim_tag(tr->rank, tag != SIM_TI_ANY_TAG ? tag : *msg >= 0 ? tag_of(s->seq, *msg) : -1);
  return rc;
}

/* The most messages a receive that none matches posts as unexpected before it blocks (a request is about 100 bytes):
 * beyond, the rank fails at once with the same diagnosis. */
#define TI_MAX_DRAINED (1LL << 20)

sim_request_t *app_ti_match_never(app_ti_rank_t *tr, int slot)
{
  ti_source_t *s = &tr->sources[slot];
  if (s->seq->total - s->next > TI_MAX_DRAINED) {
    char message[256];
    snprintf(message, sizeof message,
             "rank %d waits for a message from rank %d whose tag none of rank %d's %lld messages left to it carries; "
             "every receive needs a message of its tag (or any tag)",
             tr->me, s->seq->src, s->seq->src, s->seq->total - s->next);
    sim_rank_fail(tr->rank, SIM_EDEADLOCK, message);
    return NULL;
  }
  int rc = 0;
  while (rc == 0 && s->next < s->seq->total)
    rc = post_kept(tr, s);
  sim_request_t *req = rc == 0 ? sim_irecv(tr->rank, s->seq->src, 0) : NULL;
  if (!req)
    sim_rank_fail(tr->rank, SIM_ENOMEM, "out of memory");
  return req;
}

int app_ti_match_release(app_ti_rank_t *tr, int slot, long long msg, sim_request_t *req)
{
  return keep(&tr->sources[slot], msg, req);
}
