/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Paje trace writer (pajeng's format, read by pj_dump and ViTE): the event definitions, the type hierarchy run > rank
 * with a state per trace category, a second state per MPI call a measured run names, a message link type and a
 * collective event type, then every run's events merged in time order. */
#include "rep_paje.h"
#include "bas_error.h"
#include "rep_otf2_calls.h"
#include "rep_sort.h"
#include "rep_svg.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
  EV_CONTAINER_TYPE = 0,
  EV_STATE_TYPE,
  EV_LINK_TYPE,
  EV_VALUE,
  EV_CREATE,
  EV_DESTROY,
  EV_SET_STATE,
  EV_START_LINK,
  EV_END_LINK,
  EV_EVENT_TYPE,
  EV_NEW_EVENT,
  EV_PUSH_STATE,
  EV_POP_STATE
};

static const char header[] = "%EventDef PajeDefineContainerType 0\n%  Alias string\n%  Type string\n%  Name string\n"
                             "%EndEventDef\n"
                             "%EventDef PajeDefineStateType 1\n%  Alias string\n%  Type string\n%  Name string\n"
                             "%EndEventDef\n"
                             "%EventDef PajeDefineLinkType 2\n%  Alias string\n%  Type string\n"
                             "%  StartContainerType string\n%  EndContainerType string\n%  Name string\n"
                             "%EndEventDef\n"
                             "%EventDef PajeDefineEntityValue 3\n%  Alias string\n%  Type string\n%  Name string\n"
                             "%  Color color\n%EndEventDef\n"
                             "%EventDef PajeCreateContainer 4\n%  Time date\n%  Alias string\n%  Type string\n"
                             "%  Container string\n%  Name string\n%EndEventDef\n"
                             "%EventDef PajeDestroyContainer 5\n%  Time date\n%  Type string\n%  Name string\n"
                             "%EndEventDef\n"
                             "%EventDef PajeSetState 6\n%  Time date\n%  Container string\n%  Type string\n"
                             "%  Value string\n%EndEventDef\n"
                             "%EventDef PajeStartLink 7\n%  Time date\n%  Container string\n%  Type string\n"
                             "%  StartContainer string\n%  Value string\n%  Key string\n%EndEventDef\n"
                             "%EventDef PajeEndLink 8\n%  Time date\n%  Container string\n%  Type string\n"
                             "%  EndContainer string\n%  Value string\n%  Key string\n%EndEventDef\n"
                             "%EventDef PajeDefineEventType 9\n%  Alias string\n%  Type string\n%  Name string\n"
                             "%EndEventDef\n"
                             "%EventDef PajeNewEvent 10\n%  Time date\n%  Container string\n%  Type string\n"
                             "%  Value string\n%  Root string\n%  Sent double\n%  Received double\n%EndEventDef\n"
                             "%EventDef PajePushState 11\n%  Time date\n%  Container string\n%  Type string\n"
                             "%  Value string\n%  Polls double\n%EndEventDef\n"
                             "%EventDef PajePopState 12\n%  Time date\n%  Container string\n%  Type string\n"
                             "%EndEventDef\n";

/* A timed event of one run. At equal times, state and link events come first, then ranks end, then the run; then
 * the run, the rank whose interval made the event and the order that rank made them in: the order depends on the
 * trace alone, not on the order a spilled trace gives its ranks' intervals in (met_trace_walk). */
typedef struct event {
  double time;
  int order; /* 0 states and links, 1 a rank's end, 2 the run's end */
  int kind;
  int run;
  int rank;     /* the container's: a link's start is its sender's */
  int value;    /* SET_STATE: the category; PUSH_STATE: the call's id; links: the message's number among those `maker`
                 * made (its key: messages_before); NEW_EVENT: the rank's collective span number, or -1 less its
                 * non-blocking collective's number (met_trace_nbcs) */
  int maker;    /* the rank whose interval made it (-1: the run's end) */
  uint64_t seq; /* its place among the maker's events */
} event_t;

/* Each rank's state while its events are made: what the last interval left open. */
typedef struct rank_state {
  double at;       /* the end of its last interval */
  double call_end; /* the end of the open call's pieces so far */
  int state;       /* the category set last, -1 before the first */
  int call;        /* the open call's id, 0 for none */
  int messages;    /* links made so far */
  uint64_t seq;    /* events made so far */
} rank_state_t;

/* The events being made, into a sorter (rep_sort.h): events beyond EVENTS_HELD go to a temporary file. */
typedef struct events {
  rep_sort_t *sort;
  int run;
  rank_state_t *ranks; /* the run's */
  int rc;              /* the first failure */
} events_t;

/* Events held in memory at a time (40 bytes each): more are sorted in runs on disk. */
enum { EVENTS_HELD = 1 << 20 };

static void push(events_t *ev, int maker, double time, int order, int kind, int rank, int value)
{
  event_t e = {time, order, kind, ev->run, rank, value, maker, maker < 0 ? 0 : ev->ranks[maker].seq++};
  if (ev->rc == 0)
    ev->rc = rep_sort_add(ev->sort, &e);
}

/* A measured run's MPI calls as a rank's second state, one from the start of a call's first piece to the end of its
 * last (met_interval_t.call): the rank's `call` is the call open (0: none) and its call_end the end of its pieces so
 * far. Closes it before `iv` unless `iv` continues it, and opens `iv`'s call. */
static void call_state(events_t *ev, int rank, const met_interval_t *iv)
{
  rank_state_t *r = &ev->ranks[rank];
  int continues = iv->call < 0 && -iv->call == r->call && iv->start == r->call_end;
  if (r->call && !continues) {
    push(ev, rank, r->call_end, 0, EV_POP_STATE, rank, 0);
    r->call = 0;
  }
  if (iv->call != 0 && !r->call) {
    r->call = iv->call < 0 ? -iv->call : iv->call;
    push(ev, rank, iv->start, 0, EV_PUSH_STATE, rank, r->call);
  }
  r->call_end = iv->end;
}

/* met_trace_walk's step: one interval's events: its call's, its state (a gap before it idle) and the link that ends
 * there, from its send's start as the trace paired them (met_interval_t.sent: the message-time table's start too) to
 * the end of its receiving end. Stops the walk at the first failure. */
static int interval_events(void *ctx, int rank, const met_interval_t *iv)
{
  events_t *ev = ctx;
  rank_state_t *r = &ev->ranks[rank];
  call_state(ev, rank, iv);
  if (iv->start > r->at && r->state != MET_CAT_IDLE)
    push(ev, rank, r->at, 0, EV_SET_STATE, rank, r->state = MET_CAT_IDLE);
  if ((int)iv->category != r->state)
    push(ev, rank, iv->start, 0, EV_SET_STATE, rank, r->state = (int)iv->category);
  int from, to;
  if (met_message_ends(iv, rank, &from, &to)) {
    int key = r->messages++;
    double start = iv->dir == MET_DIR_RECV ? iv->sent : iv->start;
    push(ev, rank, start, 0, EV_START_LINK, from, key);
    push(ev, rank, iv->end, 0, EV_END_LINK, to, key);
  }
  r->at = iv->end;
  return ev->rc;
}

/* The end of a rank's events: its collective calls (a span's number k as value k, a non-blocking one that every member
 * has as -1 - k), the call still open, the tail up to T_par idle, its end. */
static void rank_end(events_t *ev, const met_trace_t *trace, int rank)
{
  rank_state_t *r = &ev->ranks[rank];
  size_t ncolls, nnbcs;
  const met_coll_t *spans = met_trace_colls(trace, rank, &ncolls);
  for (size_t k = 0; k < ncolls; k++)
    push(ev, rank, spans[k].end, 0, EV_NEW_EVENT, rank, (int)k);
  const met_nbc_t *nbcs = met_trace_nbcs(trace, rank, &nnbcs);
  double sent, received;
  for (size_t k = 0; k < nnbcs; k++)
    if (met_nbc_moved(trace, rank, k, &sent, &received)) /* every member has it */
      push(ev, rank, nbcs[k].completed, 0, EV_NEW_EVENT, rank, -1 - (int)k);
  if (r->call)
    push(ev, rank, r->call_end, 0, EV_POP_STATE, rank, 0);
  double t_par = met_trace_end(trace);
  if (r->at < t_par && r->state != MET_CAT_IDLE)
    push(ev, rank, r->at, 0, EV_SET_STATE, rank, MET_CAT_IDLE);
  push(ev, rank, t_par, 1, EV_DESTROY, rank, 0);
}

static int by_time(const void *a, const void *b)
{
  const event_t *x = a, *y = b;
  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  if (x->order != y->order)
    return x->order - y->order;
  if (x->run != y->run)
    return x->run - y->run;
  if (x->maker != y->maker)
    return x->maker - y->maker;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Run `run`'s events into ev->sort, and in messages[rank] how many links each rank made. 0, or a code. */
static int run_events(events_t *ev, const met_trace_t *trace, int run, long long *messages)
{
  int nranks = met_trace_nranks(trace);
  ev->run = run;
  ev->ranks = calloc((size_t)nranks, sizeof *ev->ranks);
  if (!ev->ranks)
    return BAS_ENOMEM;
  for (int rank = 0; rank < nranks; rank++)
    ev->ranks[rank].state = -1;
  int rc = met_trace_walk(trace, 0, nranks - 1, interval_events, ev);
  for (int rank = 0; rc == 0 && rank < nranks; rank++) {
    rank_end(ev, trace, rank);
    messages[rank] = ev->ranks[rank].messages;
  }
  free(ev->ranks);
  ev->ranks = NULL;
  if (rc == 0)
    push(ev, -1, met_trace_end(trace), 2, EV_DESTROY, -1, 0);
  return rc ? rc : ev->rc;
}

/* Every run's events into a new sorter (*sort) and, for each run, the links its ranks made before each rank
 * (messages_before[run][rank]: a link's key is that plus its number among its maker's, so that keys count the links
 * rank after rank). 0, or a code. */
static int collect(const rep_paje_run_t *runs, size_t n, rep_sort_t **sort, long long **messages_before)
{
  events_t ev = {.sort = *sort = rep_sort_new(sizeof(event_t), EVENTS_HELD, by_time)};
  int rc = ev.sort ? 0 : BAS_ENOMEM;
  for (size_t r = 0; rc == 0 && r < n; r++) {
    int nranks = met_trace_nranks(runs[r].trace);
    if (!(messages_before[r] = calloc((size_t)nranks + 1, sizeof **messages_before)))
      return BAS_ENOMEM;
    rc = run_events(&ev, runs[r].trace, (int)r, messages_before[r] + 1);
    for (int rank = 0; rank < nranks; rank++) /* from counts to their sums before each rank */
      messages_before[r][rank + 1] += messages_before[r][rank];
  }
  return rc;
}

/* "0.31 0.47 0.65" from "#4e79a7". */
static void paje_colour(const char *hex, char *buf, size_t len)
{
  unsigned long rgb = strtoul(hex + 1, NULL, 16);
  snprintf(buf, len, "%.3f %.3f %.3f", (double)(rgb >> 16 & 0xFF) / 255, (double)(rgb >> 8 & 0xFF) / 255,
           (double)(rgb & 0xFF) / 255);
}

/* A quoted Paje string: double quotes inside become single ones, and commas, which would split pj_dump's CSV
 * columns, semicolons. */
static void quoted(FILE *out, const char *text)
{
  fputc('"', out);
  for (const char *c = text; *c; c++)
    fputc(*c == '"' ? '\'' : *c == ',' ? ';' : *c, out);
  fputc('"', out);
}

/* Whether some run names MPI calls (a measured one): only then is there a state type for them. */
static int names_calls(const rep_paje_run_t *runs, size_t n)
{
  for (size_t r = 0; r < n; r++)
    if (met_trace_call_count(runs[r].trace) > 0)
      return 1;
  return 0;
}

static void write_types(FILE *out, const rep_paje_run_t *runs, size_t n)
{
  fputs(header, out);
  fprintf(out, "%d RUN 0 \"Run\"\n%d RANK RUN \"Rank\"\n", EV_CONTAINER_TYPE, EV_CONTAINER_TYPE);
  fprintf(out, "%d STATE RANK \"Category\"\n%d MSG RUN RANK RANK \"Message\"\n", EV_STATE_TYPE, EV_LINK_TYPE);
  if (names_calls(runs, n))
    fprintf(out, "%d CALL RANK \"MPI call\"\n", EV_STATE_TYPE);
  for (int k = 0; k < MET_CAT_COUNT; k++) {
    char colour[40];
    paje_colour(rep_svg_category_colour((met_category_t)k), colour, sizeof colour);
    const char *name = met_category_name((met_category_t)k);
    fprintf(out, "%d %s STATE \"%s\" \"%s\"\n", EV_VALUE, name, name, colour);
  }
  fprintf(out, "%d msg MSG \"message\" \"0 0 0\"\n", EV_VALUE);
  fprintf(out, "%d COLL RANK \"Collective\"\n", EV_EVENT_TYPE);
  for (int c = REP_CALL_BARRIER; c < REP_CALL_COUNT; c++) {
    const char *name = rep_otf2_call_name((rep_otf2_call_t)c);
    fprintf(out, "%d %s COLL \"%s\" \"0 0 0\"\n", EV_VALUE, name, name);
  }
}

/* Containers: a run per run, named as given; its ranks "rank 3", or "run 2 rank 3" when there are several runs, so
 * that every name is unique. */
static void write_containers(FILE *out, const rep_paje_run_t *runs, size_t n)
{
  for (size_t r = 0; r < n; r++) {
    fprintf(out, "%d 0 run%zu RUN 0 ", EV_CREATE, r);
    quoted(out, runs[r].name);
    fputc('\n', out);
    for (int rank = 0; rank < met_trace_nranks(runs[r].trace); rank++) {
      fprintf(out, "%d 0 r%zu_%d RANK run%zu \"", EV_CREATE, r, rank, r);
      if (n > 1)
        fprintf(out, "run %zu ", r + 1);
      fprintf(out, "rank %d\"\n", rank);
    }
  }
}

/* A collective span's event at its end: its call (a span that names none, from a trace file written before spans
 * named them, its class's common call), root (a world rank, or "none") and the bytes the rank sent and received in it
 * (met_coll_moved: a measured call's; a simulated one's messages are the links around it, and count 0 here); a
 * non-blocking collective's (a negative value) at the end of the call that completed it, its operation's (its blocking
 * form's name) with its bytes (met_nbc_moved). */
static void write_coll(FILE *out, const met_trace_t *trace, const event_t *e)
{
  size_t n;
  met_coll_t call;
  double sent, received;
  if (e->value >= 0) {
    call = met_trace_colls(trace, e->rank, &n)[e->value];
    met_coll_moved(trace, e->rank, (size_t)e->value, &sent, &received);
  } else {
    call = met_nbc_coll(&met_trace_nbcs(trace, e->rank, &n)[-1 - e->value]);
    met_nbc_moved(trace, e->rank, (size_t)(-1 - e->value), &sent, &received);
  }
  fprintf(out, "r%d_%d COLL %s ", e->run, e->rank, rep_otf2_call_name(rep_otf2_coll_call(&call, NULL)));
  if (call.root >= 0)
    fprintf(out, "\"%d\" %.0f %.0f\n", call.root, sent, received);
  else
    fprintf(out, "\"none\" %.0f %.0f\n", sent, received);
}

/* A call's state: its name, a run of polls' without its count (rep_otf2_name_call), which is the field `Polls` (0 for
 * another call), as the OTF2 archive's attribute. */
static void write_call(FILE *out, const met_trace_t *trace, const event_t *e)
{
  const char *name = met_trace_call_name(trace, e->value);
  unsigned long long polls;
  int len = (int)rep_otf2_name_call(name, &polls);
  fprintf(out, "r%d_%d CALL \"%.*s\" %llu\n", e->run, e->rank, len, name, polls);
}

/* Where the sorted events go. */
typedef struct writing {
  FILE *out;
  const rep_paje_run_t *runs;
  long long *const *messages_before; /* collect's */
} writing_t;

static int write_event(void *ctx, const void *record)
{
  const writing_t *w = ctx;
  const event_t *e = record;
  FILE *out = w->out;
  fprintf(out, "%d %.9f ", e->kind, e->time);
  if (e->kind == EV_NEW_EVENT)
    write_coll(out, w->runs[e->run].trace, e);
  else if (e->kind == EV_SET_STATE)
    fprintf(out, "r%d_%d STATE %s\n", e->run, e->rank, met_category_name((met_category_t)e->value));
  else if (e->kind == EV_PUSH_STATE)
    write_call(out, w->runs[e->run].trace, e);
  else if (e->kind == EV_POP_STATE)
    fprintf(out, "r%d_%d CALL\n", e->run, e->rank);
  else if (e->kind == EV_START_LINK || e->kind == EV_END_LINK)
    fprintf(out, "run%d MSG r%d_%d msg m%lld\n", e->run, e->run, e->rank,
            w->messages_before[e->run][e->maker] + e->value);
  else if (e->rank >= 0)
    fprintf(out, "RANK r%d_%d\n", e->run, e->rank);
  else
    fprintf(out, "RUN run%d\n", e->run);
  return ferror(out) ? BAS_EIO : 0;
}

int rep_paje_write(FILE *out, const rep_paje_run_t *runs, size_t n)
{
  rep_sort_t *sort = NULL;
  long long **messages_before = calloc(n ? n : 1, sizeof *messages_before);
  int rc = messages_before ? collect(runs, n, &sort, messages_before) : BAS_ENOMEM;
  if (rc == 0) {
    write_types(out, runs, n);
    write_containers(out, runs, n);
    writing_t w = {out, runs, messages_before};
    rc = rep_sort_each(sort, write_event, &w);
  }
  for (size_t r = 0; messages_before && r < n; r++)
    free(messages_before[r]);
  free(messages_before);
  rep_sort_free(sort);
  return rc == 0 && !ferror(out) ? 0 : BAS_EIO;
}

int rep_paje_study(FILE *out, const stu_study_t *study)
{
  const scn_scenario_t *s = study->scenario;
  size_t n = 0;
  rep_paje_run_t *runs = calloc(study->npoints, sizeof *runs);
  char(*names)[256] = calloc(study->npoints, sizeof *names);
  int rc = runs && names ? 0 : -1;
  for (size_t i = 0; rc == 0 && i < study->npoints; i++) {
    const stu_point_t *point = &study->points[i];
    if (!point->trace)
      continue;
    size_t used = (size_t)snprintf(names[n], sizeof names[n], "%s", s->name);
    const char *separator = ": ";
    for (size_t j = 0; j < s->nparams && used < sizeof names[n]; j++)
      if (s->params[j].nvalues > 1) {
        used += (size_t)snprintf(names[n] + used, sizeof names[n] - used, "%s%s=%s", separator, s->params[j].name,
                                 point->values[j]);
        separator = " ";
      }
    runs[n] = (rep_paje_run_t){names[n], point->trace};
    n++;
  }
  rc = rc ? rc : rep_paje_write(out, runs, n);
  free(runs);
  free(names);
  return rc;
}
