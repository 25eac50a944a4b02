/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Paje trace writer (pajeng's format, read by pj_dump and ViTE): the event definitions, the type hierarchy run > rank
 * with a state per trace category, a second state per MPI call a measured run names, a message link type and a
 * collective event type, then every run's events merged in time order. */
#include "rep_paje.h"
#include "bas_error.h"
#include "rep_otf2_calls.h"
#include "rep_svg.h"

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

/* A timed event of one run. At equal times, state and link events come first, then ranks end, then the run. */
typedef struct event {
  double time;
  int order;  /* 0 states and links, 1 a rank's end, 2 the run's end */
  size_t seq; /* generation order: the last tie-breaker, so that the output is deterministic */
  int kind;
  int run;
  int rank;
  int value; /* SET_STATE: the category; PUSH_STATE: the call's id; links: the message number; NEW_EVENT: the rank's
              * collective span number */
} event_t;

typedef struct events {
  event_t *list;
  size_t count;
  size_t messages;
} events_t;

static void push(events_t *ev, double time, int order, int kind, int run, int rank, int value)
{
  ev->list[ev->count] = (event_t){time, order, ev->count, kind, run, rank, value};
  ev->count++;
}

/* A measured run's MPI calls as a rank's second state, one from the start of a call's first piece to the end of its
 * last (met_interval_t.call): `open` is the call open (0: none) and *end the end of its pieces so far. Closes it before
 * `iv` unless `iv` continues it, and opens `iv`'s call. */
static void call_state(events_t *ev, int run, int rank, const met_interval_t *iv, int *open, double *end)
{
  int continues = iv->call < 0 && -iv->call == *open && iv->start == *end;
  if (*open && !continues) {
    push(ev, *end, 0, EV_POP_STATE, run, rank, 0);
    *open = 0;
  }
  if (iv->call != 0 && !*open) {
    *open = iv->call < 0 ? -iv->call : iv->call;
    push(ev, iv->start, 0, EV_PUSH_STATE, run, rank, *open);
  }
  *end = iv->end;
}

/* The events of one rank: its states (gaps and the tail up to T_par idle), its calls' and the links that end there,
 * each from its send's start as the trace paired them (met_interval_t.sent: the message-time table's start too) to
 * the end of its receiving end. */
static void rank_events(events_t *ev, const met_trace_t *trace, int run, int rank)
{
  const met_interval_t *iv = met_trace_intervals(trace, rank);
  double at = 0, call_end = 0;
  int state = -1, call = 0;
  for (size_t i = 0; i < met_trace_count(trace, rank); i++) {
    call_state(ev, run, rank, &iv[i], &call, &call_end);
    if (iv[i].start > at && state != MET_CAT_IDLE)
      push(ev, at, 0, EV_SET_STATE, run, rank, state = MET_CAT_IDLE);
    if ((int)iv[i].category != state)
      push(ev, iv[i].start, 0, EV_SET_STATE, run, rank, state = (int)iv[i].category);
    int from, to;
    if (met_message_ends(&iv[i], rank, &from, &to)) {
      int key = (int)ev->messages++;
      double start = iv[i].dir == MET_DIR_RECV ? iv[i].sent : iv[i].start;
      push(ev, start, 0, EV_START_LINK, run, from, key);
      push(ev, iv[i].end, 0, EV_END_LINK, run, to, key);
    }
    at = iv[i].end;
  }
  size_t ncolls;
  const met_coll_t *spans = met_trace_colls(trace, rank, &ncolls);
  for (size_t k = 0; k < ncolls; k++)
    push(ev, spans[k].end, 0, EV_NEW_EVENT, run, rank, (int)k);
  if (call)
    push(ev, call_end, 0, EV_POP_STATE, run, rank, 0);
  double t_par = met_trace_end(trace);
  if (at < t_par && state != MET_CAT_IDLE)
    push(ev, at, 0, EV_SET_STATE, run, rank, MET_CAT_IDLE);
  push(ev, t_par, 1, EV_DESTROY, run, rank, 0);
}

static int by_time(const void *a, const void *b)
{
  const event_t *x = a, *y = b;
  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  if (x->order != y->order)
    return x->order - y->order;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

static size_t coll_count(const met_trace_t *trace, int rank)
{
  size_t n;
  met_trace_colls(trace, rank, &n);
  return n;
}

/* Every run's events in time order. Returns 0 or -1 when out of memory. */
static int collect(const rep_paje_run_t *runs, size_t n, events_t *ev)
{
  size_t cap = n;
  for (size_t r = 0; r < n; r++)
    for (int rank = 0; rank < met_trace_nranks(runs[r].trace); rank++)
      cap += 6 * met_trace_count(runs[r].trace, rank) + coll_count(runs[r].trace, rank) + 2;
  *ev = (events_t){.list = malloc(cap * sizeof *ev->list)};
  if (!ev->list)
    return -1;
  for (size_t r = 0; r < n; r++) {
    for (int rank = 0; rank < met_trace_nranks(runs[r].trace); rank++)
      rank_events(ev, runs[r].trace, (int)r, rank);
    push(ev, met_trace_end(runs[r].trace), 2, EV_DESTROY, (int)r, -1, 0);
  }
  qsort(ev->list, ev->count, sizeof *ev->list, by_time);
  return 0;
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
 * (met_coll_moved: a measured call's; a simulated one's messages are the links around it, and count 0 here). */
static void write_coll(FILE *out, const met_trace_t *trace, const event_t *e)
{
  size_t n;
  const met_coll_t *span = &met_trace_colls(trace, e->rank, &n)[e->value];
  double sent, received;
  met_coll_moved(trace, e->rank, (size_t)e->value, &sent, &received);
  fprintf(out, "r%d_%d COLL %s ", e->run, e->rank, rep_otf2_call_name(rep_otf2_coll_call(span, NULL)));
  if (span->root >= 0)
    fprintf(out, "\"%d\" %.0f %.0f\n", span->root, sent, received);
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

static void write_event(FILE *out, const rep_paje_run_t *runs, const event_t *e)
{
  fprintf(out, "%d %.9f ", e->kind, e->time);
  if (e->kind == EV_NEW_EVENT)
    write_coll(out, runs[e->run].trace, e);
  else if (e->kind == EV_SET_STATE)
    fprintf(out, "r%d_%d STATE %s\n", e->run, e->rank, met_category_name((met_category_t)e->value));
  else if (e->kind == EV_PUSH_STATE)
    write_call(out, runs[e->run].trace, e);
  else if (e->kind == EV_POP_STATE)
    fprintf(out, "r%d_%d CALL\n", e->run, e->rank);
  else if (e->kind == EV_START_LINK || e->kind == EV_END_LINK)
    fprintf(out, "run%d MSG r%d_%d msg m%d\n", e->run, e->run, e->rank, e->value);
  else if (e->rank >= 0)
    fprintf(out, "RANK r%d_%d\n", e->run, e->rank);
  else
    fprintf(out, "RUN run%d\n", e->run);
}

int rep_paje_write(FILE *out, const rep_paje_run_t *runs, size_t n)
{
  events_t ev;
  if (collect(runs, n, &ev) != 0)
    return BAS_EIO;
  write_types(out, runs, n);
  write_containers(out, runs, n);
  for (size_t i = 0; i < ev.count; i++)
    write_event(out, runs, &ev.list[i]);
  free(ev.list);
  return ferror(out) ? BAS_EIO : 0;
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
