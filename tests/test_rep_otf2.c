/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* OTF2 archives read back by otf2-print (Debian otf2-tools) and ViTE (Debian vite; a missing one fails the tests): a
 * hand-made trace's regions, MPI calls, messages, collective, communicator and names are exactly those expected, the
 * tags of a TI trace and of measured timelines reach the events, and simrun --otf2 writes one archive per kept run with
 * one MPI_SEND and one MPI_RECV per message of the run, which ViTE loads, as simrun analyse --otf2 does for a
 * measured run. */
#include "met_timeline.h"
#include "rep_otf2.h"
#include "rep_paje.h"
#include "tu.h"
#include "tu_cli.h"
#include "tu_csv.h"

/* An event line of otf2-print: its kind, location, timestamp (ns) and attributes. */
typedef struct event {
  char kind[40]; /* NON_BLOCKING_COLLECTIVE_COMPLETE is 32 */
  int location;
  unsigned long long time;
  char attributes[1024]; /* the rest of its line, copied: a search of the text from there on measured all the text
                          * left at each call (ASan's strstr, glibc's sscanf), quadratic in the events */
  const char *next_line; /* the text after its line */
} event_t;

/* The output of otf2-print run with `args` ("otf2-print", options, the anchor file; a new string), or NULL when it
 * failed or wrote on stderr. */
static char *otf2_print(const char *dir, const char *const *args)
{
  const char *anchor = args[1];
  cli_run_t run;
  if (run_program(dir, "/usr/bin/env", args, &run) != 0)
    return NULL;
  if (run.status != 0 || run.err[0])
    fprintf(stderr, "\notf2-print %s: exit status %d\n%s", anchor, run.status, run.err);
  int ok = run.status == 0 && !run.err[0];
  free(run.err);
  if (!ok)
    free(run.out);
  return ok ? run.out : NULL;
}

/* The next event line of `text` from *at on (moving *at past it): 1, or 0 at the end. */
static int next_event(const char **at, event_t *ev)
{
  for (const char *line = *at; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    char head[128]; /* sscanf on the line alone: on the whole text, glibc's would measure it at every call */
    int len = (int)strcspn(line, "\n");
    snprintf(head, sizeof head, "%.*s ", len < 100 ? len : 100, line);
    int used = 0;
    if (sscanf(head, "%39s %d %llu %n", ev->kind, &ev->location, &ev->time, &used) == 3 && used > 0) {
      int from = used < len ? used : len;
      snprintf(ev->attributes, sizeof ev->attributes, "%.*s", len - from, line + from);
      *at = ev->next_line = line[len] == '\n' ? line + len + 1 : line + len;
      return 1;
    }
  }
  return 0;
}

/* Whether the event's line holds `attribute` (NULL: any). */
static int has(const event_t *ev, const char *attribute)
{
  if (!attribute)
    return 1;
  return strstr(ev->attributes, attribute) != NULL;
}

/* How many events of `kind` at `location` (-1: any) have `attribute` (NULL: any). */
static int count_events(const char *text, const char *kind, int location, const char *attribute)
{
  event_t ev;
  int n = 0;
  for (const char *at = text; next_event(&at, &ev);)
    n += strcmp(ev.kind, kind) == 0 && (location < 0 || ev.location == location) && has(&ev, attribute);
  return n;
}

/* Removes folder `dir` with the archives in it (folders of files). */
static void remove_tree(const char *dir)
{
  const char *args[] = {"-rf", dir, NULL};
  cli_run_t run;
  CU_ASSERT(run_program("/", "/bin/rm", args, &run) == 0 && run.status == 0);
  run_free(&run);
}

/* Three ranks, T_par = 2 s: rank 0 computes [0, 1) in phase main and sends 4096 bytes to rank 2 [1, 2) in phase
 * broadcast, within a broadcast it enters at 1 s; rank 1 computes [0, 0.5) and idles after; rank 2 enters the broadcast
 * at 0, waits for rank 0 [0, 1) and receives [1, 2). The broadcast runs on ranks 0 and 2 only (group number 7), root
 * rank 0. */
static met_trace_t *broadcast_trace(void)
{
  met_trace_t *trace = met_trace_new(3);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  int main_phase = met_trace_phase_id(trace, "main"), bcast = met_trace_phase_id(trace, "broadcast");
  met_interval_t pieces[] = {
      {.start = 0, .end = 1, .category = MET_CAT_COMPUTE, .phase = main_phase, .peer = -1},
      {.start = 1, .end = 2, .category = MET_CAT_COMM, .phase = bcast, .peer = 2, .bytes = 4096, .dir = MET_DIR_SEND},
      {.start = 0, .end = 0.5, .category = MET_CAT_COMPUTE, .phase = main_phase, .peer = -1},
      {.start = 0, .end = 1, .category = MET_CAT_IDLE, .phase = bcast, .peer = 0, .dir = MET_DIR_RECV},
      {.start = 1, .end = 2, .category = MET_CAT_COMM, .phase = bcast, .peer = 0, .bytes = 4096, .dir = MET_DIR_RECV}};
  static const int ranks[] = {0, 0, 1, 2, 2};
  for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++)
    CU_ASSERT_EQUAL(met_trace_add(trace, ranks[i], &pieces[i]), 0);
  met_coll_t root = {.start = 1, .end = 2, .kind = MET_COLL_ONE_TO_N, .root = 0, .group = 7};
  met_coll_t leaf = {.start = 0, .end = 2, .kind = MET_COLL_ONE_TO_N, .root = 0, .group = 7};
  CU_ASSERT_EQUAL(met_trace_coll_add(trace, 0, &root), 0);
  CU_ASSERT_EQUAL(met_trace_coll_add(trace, 2, &leaf), 0);
  return trace;
}

/* Writes `trace` as DIR/run.otf2 in a new folder (its path in dir) and returns otf2-print's output with the global
 * definitions (-G, when `defs`) or the events. */
static char *write_and_print(const met_trace_t *trace, char *dir, size_t size, int defs)
{
  char err[1200] = "";
  CU_ASSERT_EQUAL_FATAL(make_folder(dir, size), 0);
  CU_ASSERT_EQUAL_FATAL(rep_otf2_write(trace, dir, "run", err, sizeof err), 0);
  CU_ASSERT_EQUAL(count_entries(dir), 3); /* run.otf2, run.def, run/: no temporary folder left */
  const char *args[] = {"otf2-print", "-G", "run.otf2", NULL};
  if (!defs)
    args[1] = "run.otf2", args[2] = NULL;
  return otf2_print(dir, args);
}

static void test_otf2_hand_made_trace(void)
{
  char dir[1024];
  met_trace_t *trace = broadcast_trace();
  char *text = write_and_print(trace, dir, sizeof dir, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  /* the message: sent by rank 0 at 1 s, received by rank 2 at 2 s, 4096 bytes, tag 0, on the world as the trace has
   * it (the broadcast's communicator would make ViTE abort) */
  CU_ASSERT_EQUAL(count_events(text, "MPI_SEND", -1, NULL), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_SEND", 0, "Receiver: 2 ("), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_SEND", 0, "Communicator: \"MPI_COMM_WORLD\" <0>, Tag: 0, Length: 4096"), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", -1, NULL), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", 2, "Sender: 0 ("), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", 2, "Length: 4096"), 1);
  event_t ev;
  for (const char *at = text; next_event(&at, &ev);) {
    if (strcmp(ev.kind, "MPI_SEND") == 0)
      CU_ASSERT_EQUAL(ev.time, 1000000000ULL);
    if (strcmp(ev.kind, "MPI_RECV") == 0)
      CU_ASSERT_EQUAL(ev.time, 2000000000ULL);
  }
  /* the broadcast: an MPI_Bcast region and a collective on ranks 0 and 2, on their communicator (1; the world is 0),
   * root rank 0 (index 0 among the members 0 and 2), with the bytes each sent and received */
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_BEGIN", -1, NULL), 2);
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", 0, "Operation: BCAST, Communicator: \"communicator 1\""), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", -1, "Root: 0 "), 2);
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", 0, "Sent: 4096, Received: 0"), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", 2, "Sent: 0, Received: 4096"), 1);
  CU_ASSERT_EQUAL(count_events(text, "ENTER", 0, "Region: \"MPI_Bcast\""), 1);
  CU_ASSERT_EQUAL(count_events(text, "ENTER", 2, "Region: \"MPI_Bcast\""), 1);
  for (const char *at = text; next_event(&at, &ev);)
    if (ev.location == 2 && has(&ev, "\"MPI_Bcast\""))
      CU_ASSERT(ev.time == (strcmp(ev.kind, "ENTER") == 0 ? 0ULL : 2000000000ULL));
  /* inside a collective no point-to-point call region */
  CU_ASSERT_EQUAL(count_events(text, "ENTER", -1, "Region: \"MPI_Send\""), 0);
  CU_ASSERT_EQUAL(count_events(text, "ENTER", -1, "Region: \"MPI_Recv\""), 0);
  /* regions: every enter left; rank 1 idles from 0.5 s to T_par outside any phase */
  for (int r = 0; r < 3; r++)
    CU_ASSERT_EQUAL(count_events(text, "ENTER", r, NULL), count_events(text, "LEAVE", r, NULL));
  CU_ASSERT_EQUAL(count_events(text, "ENTER", 0, "Region: \"compute\""), 1);
  CU_ASSERT_EQUAL(count_events(text, "ENTER", 0, "Region: \"broadcast\""), 1);
  CU_ASSERT_EQUAL(count_events(text, "ENTER", 1, NULL), 3); /* main, compute, idle */
  CU_ASSERT_EQUAL(count_events(text, "LEAVE", 1, "Region: \"idle\""), 1);
  for (const char *at = text; next_event(&at, &ev);)
    if (ev.location == 1 && has(&ev, "\"idle\""))
      CU_ASSERT(ev.time == (strcmp(ev.kind, "ENTER") == 0 ? 500000000ULL : 2000000000ULL));
  free(text);
  met_trace_free(trace);
  remove_tree(dir);
}

/* The definitions: every location group and location named uniquely (ViTE refuses two containers of one name), the
 * MPI call regions with their roles, and the broadcast's communicator with members 0 and 2. */
static void test_otf2_definitions(void)
{
  char dir[1024];
  met_trace_t *trace = broadcast_trace();
  char *text = write_and_print(trace, dir, sizeof dir, 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  static const char *const names[] = {"Name: \"MPI Rank 0\"",      "Name: \"MPI Rank 1\"",
                                      "Name: \"MPI Rank 2\"",      "Name: \"Rank 0 thread 0\"",
                                      "Name: \"Rank 1 thread 0\"", "Name: \"Rank 2 thread 0\""};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    const char *first = strstr(text, names[i]);
    CU_ASSERT(first && !strstr(first + 1, names[i]));
  }
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "Name: \"MPI_Bcast\" <"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "Role: COLL_ONE2ALL, Paradigm: MPI"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "Name: \"MPI_Send\" <"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "Role: POINT2POINT, Paradigm: MPI"));
  CU_ASSERT_PTR_NOT_NULL(strstr(text, "Name: \"communicator 1\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(text,
                                "Type: COMM_GROUP, Paradigm: MPI, Flags: NONE, 2 Members: 0 (\"Rank 0 thread 0\" <0>), "
                                "2 (\"Rank 2 thread 0\" <2>)"));
  free(text);
  met_trace_free(trace);
  remove_tree(dir);
}

/* Two ranks: rank 0 sends 100 bytes to rank 1 [0, 1); rank 1 waits [0, 0.5) then receives [0.5, 1). Each end is one
 * MPI call, the wait inside the receive: MPI_Send [0, 1) on rank 0, MPI_Recv [0, 1) on rank 1, no collective. */
static void test_otf2_point_to_point_calls(void)
{
  met_trace_t *trace = met_trace_new(2);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  int phase = met_trace_phase_id(trace, "exchange");
  met_interval_t pieces[] = {
      {.start = 0, .end = 1, .category = MET_CAT_COMM, .phase = phase, .peer = 1, .bytes = 100, .dir = MET_DIR_SEND},
      {.start = 0, .end = 0.5, .category = MET_CAT_IDLE, .phase = phase, .peer = 0, .dir = MET_DIR_RECV},
      {.start = 0.5, .end = 1, .category = MET_CAT_COMM, .phase = phase, .peer = 0, .bytes = 100, .dir = MET_DIR_RECV}};
  static const int ranks[] = {0, 1, 1};
  for (size_t i = 0; i < 3; i++)
    CU_ASSERT_EQUAL(met_trace_add(trace, ranks[i], &pieces[i]), 0);
  char dir[1024];
  char *text = write_and_print(trace, dir, sizeof dir, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  CU_ASSERT_EQUAL(count_events(text, "ENTER", 0, "Region: \"MPI_Send\""), 1);
  CU_ASSERT_EQUAL(count_events(text, "ENTER", 1, "Region: \"MPI_Recv\""), 1);
  CU_ASSERT_EQUAL(count_events(text, "ENTER", -1, "Region: \"MPI_Recv\""), 1);
  event_t ev;
  for (const char *at = text; next_event(&at, &ev);)
    if (has(&ev, "\"MPI_Send\"") || has(&ev, "\"MPI_Recv\""))
      CU_ASSERT(ev.time == (strcmp(ev.kind, "ENTER") == 0 ? 0ULL : 1000000000ULL));
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_BEGIN", -1, NULL), 0);
  free(text);
  met_trace_free(trace);
  remove_tree(dir);
}

/* The tags of the message events at `location`, in time order (otf2-print writes events in time order per location),
 * into tags[], at most n; their number. UNDEFINED (a receive from any tag) as -1. */
static int tags_at(const char *text, const char *kind, int location, long *tags, int n)
{
  event_t ev;
  int k = 0;
  for (const char *at = text; next_event(&at, &ev);) {
    const char *tag = strstr(ev.attributes, "Tag: ");
    if (strcmp(ev.kind, kind) == 0 && ev.location == location && tag && k < n)
      tags[k++] = strtol(tag + 5, NULL, 10) == 4294967295L ? -1 : strtol(tag + 5, NULL, 10);
  }
  return k;
}

/* Rank 0's two MPI_SEND tags and rank 1's two MPI_RECV tags in `text` are these (-1: OTF2's undefined tag). */
static void expect_tags(const char *text, long sent0, long sent1, long received0, long received1)
{
  long tags[4];
  CU_ASSERT_EQUAL_FATAL(tags_at(text, "MPI_SEND", 0, tags, 4), 2);
  CU_ASSERT(tags[0] == sent0 && tags[1] == sent1);
  CU_ASSERT_EQUAL_FATAL(tags_at(text, "MPI_RECV", 1, tags, 4), 2);
  CU_ASSERT(tags[0] == received0 && tags[1] == received1);
}

/* simrun run with `args` (which write --otf2 into "traces") in a new folder `dir`: otf2-print's text of
 * traces/point-0.otf2 (a new string). */
static char *cli_archive(char *dir, size_t size, const char *const *args, cli_run_t *run)
{
  char traces[1100];
  run_ok(dir, size, args, run);
  snprintf(traces, sizeof traces, "%s/traces", dir);
  const char *print[] = {"otf2-print", "point-0.otf2", NULL};
  return otf2_print(traces, print);
}

/* A TI trace's tags (tests/data/ti/tags: rank 0 sends with tags 7 then 42, rank 1 receives with tag 7 then any tag)
 * replayed by simrun --otf2: the sends carry 7 and 42, the receives 7 and 42, the tag of the message the receive from
 * any tag took (OTF2's undefined tag before: tag-pairing tools found 2 sends and 1 pair), all on the world. */
static void test_otf2_ti_replay_tags(void)
{
  char dir[1024];
  const char *args[] = {
      "-q",     "--no-cache", SIMRUN_SOURCE_DIR "/tests/data/ti/tags/tags.xml", "--per-process", "2", "--otf2",
      "traces", NULL};
  cli_run_t run;
  char *text = cli_archive(dir, sizeof dir, args, &run);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  expect_tags(text, 7, 42, 7, 42);
  CU_ASSERT_EQUAL(count_events(text, "MPI_SEND", -1, "Communicator: \"MPI_COMM_WORLD\" <0>"), 2);
  free(text);
  run_free(&run);
  remove_tree(dir);
}

/* The measured run tests/data/tracer/RUN written as DIR/run.otf2 in a new folder (its path in dir): otf2-print's
 * events (a new string). */
static char *measured_archive(const char *run, char *dir, size_t size)
{
  char err[1200] = "", path[1024];
  snprintf(path, sizeof path, "%s/tests/data/tracer/%s", SIMRUN_SOURCE_DIR, run);
  met_trace_t *trace = met_timeline_stream(path, MET_TL_KEEP, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  char *text = write_and_print(trace, dir, size, 0);
  met_trace_free(trace);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  return text;
}

/* The archive of measured run `run` (tests/data/tracer/) carries these tags (expect_tags). */
static void measured_tags_are(const char *run, long sent0, long sent1, long received0, long received1)
{
  char dir[1024];
  char *text = measured_archive(run, dir, sizeof dir);
  expect_tags(text, sent0, sent1, received0, received1);
  free(text);
  remove_tree(dir);
}

/* Measured timelines' tags (tests/data/tracer/tags: rank 0 sends tag 1 at 0.2 s then tag 2 at 0.6 s; rank 1 receives
 * tag 2 first, then tag 1): the archive's sends and receives carry them in that order. */
static void test_otf2_measured_tags(void)
{
  measured_tags_are("tags", 1, 2, 2, 1);
}

/* tests/data/tracer/any-tag (hand-made): rank 0 sends tags 39 then 40; rank 1 receives each with an MPI_Irecv of any
 * tag (the first from any source), completed by an MPI_Wait whose line gives the posted tag, -1. The receives carry
 * the messages' tags, 39 and 40, as their sends do: before, OTF2's undefined tag (otf2-print: 4294967295), and tools
 * that pair messages by tag counted a receive missing (a helper's MUMPS zsimpletest at p = 2: 16 sends, 15 pairs). */
static void test_otf2_measured_any_tag_receives_carry_the_tag(void)
{
  measured_tags_are("any-tag", 39, 40, 39, 40);
}

/* The number in `json` after the `nth` (0-based) occurrence of `key` (such as "\"messages\": "); -1 when missing. */
static long json_number_after(const char *json, const char *key, int nth)
{
  const char *at = json;
  for (int i = 0; at && i <= nth; i++)
    at = strstr(at + (i > 0), key);
  return at ? strtol(at + strlen(key), NULL, 10) : -1;
}

/* ViTE (Debian vite; a missing one fails the tests) reads archive `anchor` in folder `dir` without a display (Qt's
 * offscreen platform) and exports it as SVG: exit 0, "0 errors", no "Error" line. ViTE's warnings that it cannot find
 * a rank in a communicator are its own: it looks communicators' members up in COMM_LOCATIONS groups, where OTF2 puts
 * them in a COMM_GROUP (then falls back on the location of that number, the right one here). */
static void vite_reads(const char *dir, const char *anchor)
{
  char xdg[1200];
  snprintf(xdg, sizeof xdg, "XDG_RUNTIME_DIR=%s", dir);
  const char *args[] = {"QT_QPA_PLATFORM=offscreen", xdg, "vite", "-e", "vite.svg", "-f", anchor, NULL};
  cli_run_t run;
  CU_ASSERT_EQUAL_FATAL(run_program(dir, "/usr/bin/env", args, &run), 0);
  static const char *const clean = "0 errors and 0 warnings were found during parsing";
  int parsed = strstr(run.out, clean) || strstr(run.err, clean);
  int failed = strstr(run.out, "Error") || strstr(run.err, "Error");
  if (run.status != 0 || !parsed || failed)
    fprintf(stderr, "\nvite %s: exit status %d\n%s%s", anchor, run.status, run.out, run.err);
  CU_ASSERT(run.status == 0 && parsed && !failed);
  char *svg = read_output(dir, "vite.svg");
  CU_ASSERT(svg && strstr(svg, "<svg"));
  free(svg);
  run_free(&run);
}

/* A measured halo exchange (tests/data/tracer/halo, hand-made): each rank posts MPI_Irecv, sends, then completes the
 * receives with one MPI_Waitall that ends at 0.6 s. Each receive is written where its wait completed it, at 0.6 s,
 * never at its posting (rank 0 posted at 0.1 s, rank 2 at 0.11 s, before rank 1's sends at 0.52 and 0.54 s, which
 * ViTE cannot draw): four receives, each at 600000000 ns, one per sender on rank 1; the sends where their transfers
 * start: rank 1's at its MPI_Send's entries (0.52 and 0.54 s: its partners had posted their receives at 0.1 s), the
 * rendezvous sends of ranks 0 and 2 (entered at 0.11 s) once rank 1 posted the receive each waits for (0.5, 0.51 s). */
static void test_otf2_measured_receives_at_completion(void)
{
  char dir[1024];
  char *text = measured_archive("halo", dir, sizeof dir);
  CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", -1, NULL), 4);
  CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", 1, "Sender: 0 ("), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", 1, "Sender: 2 ("), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", -1, "Length: 8000"), 4);
  CU_ASSERT_EQUAL(count_events(text, "MPI_SEND", -1, NULL), 4);
  static const unsigned long long sent[3][2] = {{500000000ULL, 0}, {520000000ULL, 540000000ULL}, {510000000ULL, 0}};
  int nsent[3] = {0};
  event_t ev;
  for (const char *at = text; next_event(&at, &ev);) {
    if (strcmp(ev.kind, "MPI_RECV") == 0)
      CU_ASSERT_EQUAL(ev.time, 600000000ULL);
    if (strcmp(ev.kind, "MPI_SEND") == 0 && ev.location >= 0 && ev.location < 3 && nsent[ev.location] < 2)
      CU_ASSERT_EQUAL(ev.time, sent[ev.location][nsent[ev.location]++]);
  }
  CU_ASSERT(nsent[0] == 1 && nsent[1] == 2 && nsent[2] == 1);
  vite_reads(dir, "run.otf2");
  free(text);
  remove_tree(dir);
}

/* tests/data/tracer/unsuccessful-tests (hand-made): rank 0 posts a receive at 0.1 s, tests it at 0.2 and 0.3 s, both
 * tests unsuccessful (idle, as the tracer writes a test that completed nothing), and completes it with an MPI_Waitall
 * that ends at 0.45 s; rank 1's send entered at 0.15 s, before either test, and returned at 0.42 s (a rendezvous, as
 * beyond the eager limit). The receive is written at the Waitall's end, where MPI delivered it: before, the first
 * test took it as "a poll sees a message that arrived before it returned" and it was written at 0.21 s (a helper's
 * tachyon at p = 2: 157 of 210 receives inside MPI_Testsome calls that all found nothing). */
static void test_otf2_measured_unsuccessful_tests_complete_nothing(void)
{
  char dir[1024];
  char *text = measured_archive("unsuccessful-tests", dir, sizeof dir);
  CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", -1, NULL), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_SEND", -1, NULL), 1);
  event_t ev;
  for (const char *at = text; next_event(&at, &ev);)
    if (strcmp(ev.kind, "MPI_RECV") == 0)
      CU_ASSERT_EQUAL(ev.time, 450000000ULL);
  vite_reads(dir, "run.otf2");
  free(text);
  remove_tree(dir);
}

/* A message event of otf2-print (MPI_SEND, MPI_RECV: `kind`): its sender, receiver and tag into `key`; 0 when `ev`
 * is not one. */
static int message_key(const event_t *ev, const char *kind, int key[3])
{
  int send = strcmp(kind, "MPI_SEND") == 0, other = -1, tag = -1;
  const char *peer = strstr(ev->attributes, send ? "Receiver: " : "Sender: "), *t = strstr(ev->attributes, "Tag: ");
  if (strcmp(ev->kind, kind) != 0 || !peer || !t || sscanf(peer + (send ? 10 : 8), "%d", &other) != 1 ||
      sscanf(t + 5, "%d", &tag) != 1)
    return 0;
  key[0] = send ? ev->location : other;
  key[1] = send ? other : ev->location;
  key[2] = tag;
  return 1;
}

/* The receives in otf2-print's `text` that come before their sends: the n-th MPI_RECV of a sender, receiver and tag
 * against the n-th MPI_SEND of the same (at most KEYS of them, KEPT sends each: -1 past that). */
static int receives_before_sends(const char *text)
{
  enum { KEYS = 64, KEPT = 4096 };
  typedef struct {
    int key[3], sends, recvs;
    unsigned long long sent[KEPT];
  } flow_t;
  flow_t *flows = calloc(KEYS, sizeof *flows);
  CU_ASSERT_PTR_NOT_NULL_FATAL(flows);
  int nflows = 0, early = 0, key[3];
  event_t ev;
  for (int pass = 0; pass < 2; pass++) /* the sends, then the receives */
    for (const char *at = text; next_event(&at, &ev) && early >= 0;) {
      if (!message_key(&ev, pass ? "MPI_RECV" : "MPI_SEND", key))
        continue;
      int k = 0;
      while (k < nflows && memcmp(flows[k].key, key, sizeof key) != 0)
        k++;
      if (k == nflows && nflows < KEYS && !pass)
        memcpy(flows[nflows++].key, key, sizeof key);
      if (k == nflows || (!pass && flows[k].sends == KEPT))
        early = -1;
      else if (!pass)
        flows[k].sent[flows[k].sends++] = ev.time;
      else
        early += flows[k].recvs < flows[k].sends && ev.time < flows[k].sent[flows[k].recvs++];
    }
  free(flows);
  return early;
}

/* tests/data/tracer/waitsome-self: yorick-mpy's own run at p = 2 (Debian's yorick-mpy, a helper's script; timelines
 * as the tracer wrote them). Each rank posts a receive from any source, sends to the other rank and completes that
 * isend alone with an MPI_Waitsome (its line: no bytes received from any source), then sends to itself the message
 * the next MPI_Waitsome receives. The receive's sender entered after the first MPI_Waitsome's end, and the isend to
 * the other rank was not paired yet when it was read: taken as the first to complete, the receive was written at
 * that MPI_Waitsome's end, before its send (2 of 556 receives, 111 ns early, 60 ns on rank 0). None comes before its
 * send now, and ViTE reads the archive. */
static void test_otf2_measured_waitsome_receives_after_send(void)
{
  char dir[1024];
  char *text = measured_archive("waitsome-self", dir, sizeof dir);
  CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", -1, NULL), 556);
  CU_ASSERT_EQUAL(count_events(text, "MPI_SEND", -1, NULL), 556);
  CU_ASSERT_EQUAL(receives_before_sends(text), 0);
  vite_reads(dir, "run.otf2");
  free(text);
  remove_tree(dir);
}

/* tests/data/tracer/waits-named (test_met_timeline.c says its run): each receive is written where the wait or test
 * that names it ended: tags 1 and 2 at the MPI_Waitall's end (0.25 s), tag 4 at the MPI_Testsome's (0.93 s), tags 3 and
 * 5 at the MPI_Waitsome's (0.95 s). By the calls' kinds, tag 3 was received in the waitall and tag 5 in the test. */
static void test_otf2_measured_receives_where_named(void)
{
  static const unsigned long long at[] = {0, 250000000ULL, 250000000ULL, 950000000ULL, 930000000ULL, 950000000ULL};
  char dir[1024];
  char *text = measured_archive("waits-named", dir, sizeof dir);
  CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", 1, NULL), 5);
  event_t ev;
  int key[3];
  for (const char *from = text; next_event(&from, &ev);)
    if (message_key(&ev, "MPI_RECV", key) && key[2] >= 1 && key[2] <= 5)
      CU_ASSERT_EQUAL(ev.time, at[key[2]]);
  CU_ASSERT_EQUAL(receives_before_sends(text), 0);
  vite_reads(dir, "run.otf2");
  free(text);
  remove_tree(dir);
}

/* The time of the one event of `kind` at `location` in otf2-print's `text`; 0 when there is not exactly one. */
static unsigned long long one_event_time(const char *text, const char *kind, int location)
{
  event_t ev;
  unsigned long long time = 0;
  int n = 0;
  for (const char *at = text; next_event(&at, &ev);)
    if (strcmp(ev.kind, kind) == 0 && ev.location == location && n++ == 0)
      time = ev.time;
  return n == 1 ? time : 0;
}

/* tests/data/tracer/sendrecv-ring-moved (hand-made, 3 ranks): ranks 0 and 1 exchange a message each way with one
 * MPI_Sendrecv, rank 0's entered at 0.2 s right after an MPI_Recv from rank 2 that ended at 0.2 s as read, while rank
 * 2 sent at 0.25 s; rank 1's runs 0.15-0.22 s. The clock condition ends rank 0's receive at 0.25 s + 1 ns and starts
 * its MPI_Sendrecv, and the message it sends, then; rank 1's receive half must end after that send, at 0.25 s + 2 ns.
 * Before, each send-receive waited for the other's send half to go into the trace, and rank 1's, forced first, was
 * checked against rank 0's entry as read: its receive was written at 0.22 s, before its send (a helper's ring at
 * p = 4: 4 to 20 of 8,000 receives, by up to 105 us). */
static void test_otf2_measured_sendrecv_ring_after_moved_entry(void)
{
  char dir[1024];
  char *text = measured_archive("sendrecv-ring-moved", dir, sizeof dir);
  CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", -1, NULL), 3);
  CU_ASSERT_EQUAL(receives_before_sends(text), 0);
  event_t ev;
  for (const char *at = text; next_event(&at, &ev);) {
    if (strcmp(ev.kind, "MPI_SEND") == 0 && ev.location == 0)
      CU_ASSERT_EQUAL(ev.time, 250000001ULL);
    if (strcmp(ev.kind, "MPI_RECV") == 0 && ev.location == 1)
      CU_ASSERT_EQUAL(ev.time, 250000002ULL);
  }
  vite_reads(dir, "run.otf2");
  free(text);
  remove_tree(dir);
}

/* A measured chain whose receives end before their sends on the clocks (tests/data/tracer/clock-condition, worked out
 * in test_timeline_clock_condition): the archive writes rank 0's send at 0.5 s, rank 1's receive 1 ns later and its
 * send then (it followed the receive at once), rank 2's receive 1 ns after that; read as measured, rank 1's receive
 * was at 0.49 s and rank 2's at 0.495 s, before their sends, and ViTE aborted on the archive. */
static void test_otf2_measured_clock_condition(void)
{
  char dir[1024];
  char *text = measured_archive("clock-condition", dir, sizeof dir);
  CU_ASSERT_EQUAL(one_event_time(text, "MPI_SEND", 0), 500000000ULL);
  CU_ASSERT_EQUAL(one_event_time(text, "MPI_RECV", 1), 500000001ULL);
  CU_ASSERT_EQUAL(one_event_time(text, "MPI_SEND", 1), 500000001ULL);
  CU_ASSERT_EQUAL(one_event_time(text, "MPI_RECV", 2), 500000002ULL);
  vite_reads(dir, "run.otf2");
  free(text);
  remove_tree(dir);
}

/* simrun run on TI-replay scenario `scenario` (a path under the source tree) at --per-process `p` with --otf2 traces,
 * --paje t.paje and --csv t.csv in a new folder `dir`: otf2-print's output of its archive (a new string, NULL when it
 * failed). */
static char *replayed_archive(const char *scenario, const char *p, char *dir, size_t size, cli_run_t *run)
{
  char path[1200];
  snprintf(path, sizeof path, "%s%s", SIMRUN_SOURCE_DIR, scenario);
  const char *args[] = {"-q",     "--no-cache", path,     "--per-process", p,       "--otf2",
                        "traces", "--paje",     "t.paje", "--csv",         "t.csv", NULL};
  return cli_archive(dir, size, args, run);
}

/* ViTE reads both exports replayed_archive wrote in `dir`. */
static void vite_reads_both(const char *dir)
{
  char traces[1100];
  snprintf(traces, sizeof traces, "%s/traces", dir);
  vite_reads(traces, "point-0.otf2");
  vite_reads(dir, "t.paje");
}

/* The times (ns) of the Paje trace's link events of `kind` ('7': starts, '8': ends), at most `max`, in file order (time
 * order); their number. */
static size_t paje_link_times(const char *paje, char kind, unsigned long long *times, size_t max)
{
  size_t n = 0;
  for (const char *line = paje; line && n < max; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    double t;
    char format[] = "? %lf run";
    format[0] = kind;
    if (sscanf(line, format, &t) == 1)
      times[n++] = (unsigned long long)llround(t * 1e9);
  }
  return n;
}

/* The message-time table of the run in `dir` (t-messages.csv: its one row) against a hand calculation: `count`
 * messages, each transferred from its send's start at `sent` to its end at `end` (seconds), the receiver's waits
 * (its receiving ends) `wait_min` to `wait_max`, `wait_mean` on average. */
static void check_message_times(const char *dir, double count, double sent, double end, double wait_mean,
                                double wait_min, double wait_max)
{
  char *csv = read_output(dir, "t-messages.csv");
  CU_ASSERT_PTR_NOT_NULL_FATAL(csv);
  static const char *const columns[] = {"count", "mean_s", "min_s", "max_s", "wait_mean_s", "wait_min_s", "wait_max_s"};
  const double expected[] = {count, end - sent, end - sent, end - sent, wait_mean, wait_min, wait_max};
  for (size_t c = 0; c < sizeof columns / sizeof *columns; c++) {
    double seen = tu_csv_value(csv, "p=3", columns[c]);
    if (fabs(seen - expected[c]) > 1e-9)
      fprintf(stderr, "\n%s: %.9g, expected %.9g\n", columns[c], seen, expected[c]);
    CU_ASSERT_DOUBLE_EQUAL(seen, expected[c], 1e-9);
  }
  free(csv);
}

/* Two overlapping 1 MB receives completed by one waitall, replayed (tests/data/ti/waitall): ranks 0 and 2 post their
 * sends to rank 1 at 0 s, rank 1 posts both receives at 0 s, computes 5 ms and waits for both. Each message has one
 * start, 0 s, where it was posted, in the OTF2 archive's MPI_SEND and the Paje trace's link alike, and one end, where
 * the waitall completed it (the same instant for both, after the 5 ms of computation), in MPI_RECV and the link's end:
 * neither link is drawn zero-length from the wait. ViTE reads both. The message-time table starts them there too: by
 * hand, each message's transfer is that end less 0 s (17.53 ms), and the receiver's waits are the waitall's, from
 * the end of its 5 ms of computation (5e6 flops at 1 Gflop/s) to that end, for the message it counted first and 0
 * for the other (its receiving end is empty at the same instant); the table gave the waits alone before, min 0. */
static void test_otf2_replayed_waitall_one_start(void)
{
  char dir[1024];
  cli_run_t run;
  char *text = replayed_archive("/tests/data/ti/waitall/waitall.xml", "3", dir, sizeof dir, &run);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  CU_ASSERT_EQUAL(count_events(text, "MPI_SEND", -1, "Length: 1000000"), 2);
  CU_ASSERT_EQUAL(one_event_time(text, "MPI_SEND", 0), 0ULL);
  CU_ASSERT_EQUAL(one_event_time(text, "MPI_SEND", 2), 0ULL);
  unsigned long long received[2] = {0, 0};
  event_t ev;
  int nreceived = 0;
  for (const char *at = text; next_event(&at, &ev);)
    if (strcmp(ev.kind, "MPI_RECV") == 0 && ev.location == 1 && nreceived < 2)
      received[nreceived++] = ev.time;
  CU_ASSERT_EQUAL(nreceived, 2);
  CU_ASSERT(received[0] == received[1] && received[0] > 5000000ULL);
  char *paje = read_output(dir, "t.paje");
  CU_ASSERT_PTR_NOT_NULL_FATAL(paje);
  unsigned long long starts[4], ends[4];
  CU_ASSERT_EQUAL(paje_link_times(paje, '7', starts, 4), 2);
  CU_ASSERT_EQUAL(paje_link_times(paje, '8', ends, 4), 2);
  CU_ASSERT(starts[0] == 0 && starts[1] == 0);
  CU_ASSERT(ends[0] == received[0] && ends[1] == received[0]);
  double end = (double)received[0] * 1e-9;
  check_message_times(dir, 2, 0, end, (end - 5e-3) / 2, 0, end - 5e-3);
  vite_reads_both(dir);
  free(paje);
  free(text);
  run_free(&run);
  remove_tree(dir);
}

/* A measured run's collectives (tests/data/tracer/collective-bytes, hand-made, 3 ranks, as the tracer writes their
 * lines' bytes: docs/tracer.md): an 800-byte MPI_Bcast from rank 1, an MPI_Gather of 100 bytes per rank to rank 0,
 * an 8-byte MPI_Allreduce, an MPI_Alltoall of 200-byte blocks (its line gives the buffer, 600), an MPI_Allgatherv of
 * 24, 40 and 56 bytes from ranks 0, 1, 2. By hand, what each rank sends to and receives from the others: the bcast's
 * root 2 x 800 = 1600 out, the others 800 in; the gather's root 2 x 100 = 200 in, the others 100 out; the allreduce
 * 2 x 8 = 16 each way; the alltoall 2 x 200 = 400 each way; the allgatherv rank 0 2 x 24 = 48 out and 40 + 56 = 96
 * in, rank 1 80 and 80, rank 2 112 and 64; an MPI_Reduce_scatter of blocks of 16, 32 and 48 bytes for ranks 0, 1, 2
 * (each line gives its own block, as the tracer writes it): each rank sends its part of the others' blocks and receives
 * its own from both others, rank 0 32 + 48 = 80 out and 2 x 16 = 32 in, rank 1 64 and 64, rank 2 48 and 96; an
 * MPI_Reduce_scatter_block of 40 bytes, 80 each way; an MPI_Alltoallv of unequal blocks, rank i sending 10 (3i + j + 1)
 * bytes to rank j, whose line gives what it sent to the others and received from them, by hand rank 0 20 + 30 = 50 out
 * and 40 + 70 = 110 in, rank 1 40 + 60 = 100 and 20 + 80 = 100, rank 2 70 + 80 = 150 and 30 + 60 = 90 (before: 0
 * and 0); and an MPI_Alltoallv line as the tracer wrote them before (no bytes): 0 and 0. Each with its root (1, 0,
 * none), and ViTE reads the archive. Before, every one was "Sent: 0, Received: 0", and the block call was written as
 * an allreduce. */
static void test_otf2_measured_collective_bytes(void)
{
  char dir[1024];
  char *text = measured_archive("collective-bytes", dir, sizeof dir);
  static const struct {
    int rank;
    const char *end;
  } expected[] = {
      {1, "BCAST, Communicator: \"MPI_COMM_WORLD\" <0>, Root: 1 (\"Rank 1 thread 0\" <1>), Sent: 1600, Received: 0"},
      {0, "BCAST, Communicator: \"MPI_COMM_WORLD\" <0>, Root: 1 (\"Rank 1 thread 0\" <1>), Sent: 0, Received: 800"},
      {2, "BCAST, Communicator: \"MPI_COMM_WORLD\" <0>, Root: 1 (\"Rank 1 thread 0\" <1>), Sent: 0, Received: 800"},
      {0, "GATHER, Communicator: \"MPI_COMM_WORLD\" <0>, Root: 0 (\"Rank 0 thread 0\" <0>), Sent: 0, Received: 200"},
      {1, "GATHER, Communicator: \"MPI_COMM_WORLD\" <0>, Root: 0 (\"Rank 0 thread 0\" <0>), Sent: 100, Received: 0"},
      {2, "GATHER, Communicator: \"MPI_COMM_WORLD\" <0>, Root: 0 (\"Rank 0 thread 0\" <0>), Sent: 100, Received: 0"},
      {-1, "ALLREDUCE, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 16, Received: 16"},
      {-1, "ALLTOALL, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 400, Received: 400"},
      {0, "ALLGATHERV, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 48, Received: 96"},
      {1, "ALLGATHERV, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 80, Received: 80"},
      {2, "ALLGATHERV, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 112, Received: 64"},
      {0, "REDUCE_SCATTER, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 80, Received: 32"},
      {1, "REDUCE_SCATTER, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 64, Received: 64"},
      {2, "REDUCE_SCATTER, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 48, Received: 96"},
      {-1, "REDUCE_SCATTER, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 80, Received: 80"},
      {0, "ALLTOALLV, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 50, Received: 110"},
      {1, "ALLTOALLV, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 100, Received: 100"},
      {2, "ALLTOALLV, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 150, Received: 90"},
      {-1, "ALLTOALLV, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 0, Received: 0"}};
  for (size_t i = 0; i < sizeof expected / sizeof *expected; i++) {
    int n = count_events(text, "MPI_COLLECTIVE_END", expected[i].rank, expected[i].end);
    if (n != (expected[i].rank < 0 ? 3 : 1))
      fprintf(stderr, "\nrank %d: %d x '%s'\n", expected[i].rank, n, expected[i].end);
    CU_ASSERT_EQUAL(n, expected[i].rank < 0 ? 3 : 1);
  }
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", -1, NULL), 27);
  vite_reads(dir, "run.otf2");
  free(text);
  remove_tree(dir);
}

/* tests/data/tracer/scan's MPI_Scan and MPI_Exscan of 4 bytes a member, 3 ranks, are written as what they are, their
 * bytes by the operation's definition (met_coll_moved): a member sends its block to each member after it and receives
 * each one's before it, by hand 8 and 0 bytes for rank 0, 4 and 4 for rank 1, 0 and 8 for rank 2; with the scan of
 * ranks 0 and 2 on communicator 5, 8 collectives (the scan on communicator 6, which orders its members otherwise, is
 * not paired: no collective). ViTE reads the archive. Before, every call was a plain region, no collective. */
static void test_otf2_measured_scans(void)
{
  char dir[1024];
  char *text = measured_archive("scan", dir, sizeof dir);
  static const char *const moved[] = {"Sent: 8, Received: 0", "Sent: 4, Received: 4", "Sent: 0, Received: 8"};
  char end[160];
  for (int rank = 0; rank < 3; rank++)
    for (int exclusive = 0; exclusive < 2; exclusive++) {
      snprintf(end, sizeof end, "Operation: %s, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, %s",
               exclusive ? "EXSCAN" : "SCAN", moved[rank]);
      CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", rank, end), 1);
    }
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", -1, NULL), 8);
  vite_reads(dir, "run.otf2");
  free(text);
  remove_tree(dir);
}

/* tests/data/tracer/sub-coll-defined: collectives on sub-communicators the timelines define are written on them, each
 * its members only (communicator 1: ranks 0 and 1, their MPI_Allreduce of 8 bytes each way; communicator 2: ranks 0
 * and 2, the MPI_Bcast from world rank 2, its rank 1 there, 16 bytes to rank 0), the barrier of all on the world; ViTE
 * reads it. */
static void test_otf2_measured_sub_communicators(void)
{
  char dir[1024];
  char *text = measured_archive("sub-coll-defined", dir, sizeof dir);
  static const struct {
    int rank;
    const char *end;
  } expected[] = {
      {0, "ALLREDUCE, Communicator: \"communicator 1\" <1>, Root: NONE, Sent: 8, Received: 8"},
      {1, "ALLREDUCE, Communicator: \"communicator 1\" <1>, Root: NONE, Sent: 8, Received: 8"},
      {0, "BCAST, Communicator: \"communicator 2\" <2>, Root: 1 (\"Rank 2 thread 0\" <2>), Sent: 0, Received: 16"},
      {2, "BCAST, Communicator: \"communicator 2\" <2>, Root: 1 (\"Rank 2 thread 0\" <2>), Sent: 16, Received: 0"},
      {-1, "BARRIER, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, Sent: 0, Received: 0"}};
  for (size_t i = 0; i < sizeof expected / sizeof *expected; i++) {
    int n = count_events(text, "MPI_COLLECTIVE_END", expected[i].rank, expected[i].end);
    if (n != (expected[i].rank < 0 ? 3 : 1))
      fprintf(stderr, "\nrank %d: %d x '%s'\n", expected[i].rank, n, expected[i].end);
    CU_ASSERT_EQUAL(n, expected[i].rank < 0 ? 3 : 1);
  }
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", -1, NULL), 7);
  vite_reads(dir, "run.otf2");
  free(text);
  remove_tree(dir);
}

/* The ENTER and LEAVE events of `location` in otf2-print's `text`, "ENTER 10000000 MPI_Irecv\n" each (an ENTER with
 * the attribute "polls" "ENTER 10000000 MPI_Test polls=40\n"), but the categories' and phase `phase`'s, into a new
 * string; whether every region of the location nests strictly (each LEAVE the innermost region entered, all left) into
 * *nested. */
static char *calls_at(const char *text, int location, const char *phase, int *nested)
{
  static const char *const skipped[] = {"compute", "io", "ctrl", "comm", "idle"};
  size_t len = 0, cap = 4096, depth = 0;
  char *out = calloc(1, cap), open[16][64];
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  *nested = 1;
  event_t ev;
  for (const char *at = text; next_event(&at, &ev);) {
    char name[64];
    int entering = strcmp(ev.kind, "ENTER") == 0;
    if (ev.location != location || (!entering && strcmp(ev.kind, "LEAVE") != 0) ||
        sscanf(ev.attributes, "Region: \"%63[^\"]\"", name) != 1)
      continue;
    if (entering && depth < 16)
      snprintf(open[depth++], sizeof open[0], "%s", name);
    else if (entering || depth == 0 || strcmp(open[--depth], name) != 0)
      *nested = 0;
    int skip = strcmp(name, phase) == 0;
    for (size_t i = 0; i < sizeof skipped / sizeof *skipped; i++)
      skip |= strcmp(name, skipped[i]) == 0;
    char next[256]; /* the line after, alone (sscanf on the whole text left would measure it) */
    snprintf(next, sizeof next, "%.*s", (int)strcspn(ev.next_line, "\n"), ev.next_line);
    unsigned long long polls = 0;
    if (entering)
      sscanf(next, " ADDITIONAL ATTRIBUTES: (\"polls\" <%*u>; UINT64; %llu)", &polls);
    if (!skip && len + 128 < cap)
      len += (size_t)snprintf(out + len, cap - len, polls ? "%s %llu %s polls=%llu\n" : "%s %llu %s\n", ev.kind,
                              ev.time, name, polls);
  }
  *nested &= depth == 0;
  return out;
}

/* ViTE reads the Paje trace of the measured run tests/data/tracer/RUN, written as DIR/run.paje. */
static void paje_reads(const char *run, const char *dir)
{
  char err[1200] = "", path[1200];
  snprintf(path, sizeof path, "%s/tests/data/tracer/%s", SIMRUN_SOURCE_DIR, run);
  met_trace_t *trace = met_timeline_stream(path, MET_TL_KEEP, NULL, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trace);
  snprintf(path, sizeof path, "%s/run.paje", dir);
  FILE *out = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  rep_paje_run_t measured = {"measured", trace};
  CU_ASSERT_EQUAL(rep_paje_write(out, &measured, 1), 0);
  CU_ASSERT_EQUAL(fclose(out), 0);
  met_trace_free(trace);
  vite_reads(dir, "run.paje");
}

/* A measured run's MPI calls (tests/data/tracer/regions, hand-made, p = 2: Irecv, Isend and Waitall, a persistent
 * request made, started, waited for and freed, a run of 25 unsuccessful MPI_Iprobe then a successful one and the
 * MPI_Recv it found, a run of 40 unsuccessful MPI_Test then the one that completed an MPI_Irecv): every call is a
 * region entered and left at the times its timeline line gives, in order, whatever pieces (the wait, the transfer,
 * the receives completed) the analysis cut it into; a run of polls is one region of its call, its count the attribute
 * "polls" of its ENTER (the call that ends it, successful, a region of its own); the regions nest strictly in the phase
 * (the categories inside the calls); the calls have OTF2's roles (point-to-point for Isend, Irecv and Start, function
 * for waits, tests, probes and requests' making); ViTE reads the archive and the run's Paje trace. Before, only the
 * blocking MPI_Send and MPI_Recv were regions. */
static void test_otf2_measured_call_regions(void)
{
  char dir[1024];
  char *text = measured_archive("regions", dir, sizeof dir);
  int nested[2];
  char *rank0 = calls_at(text, 0, "main", &nested[0]);
  char *rank1 = calls_at(text, 1, "main", &nested[1]);
  CU_ASSERT_STRING_EQUAL(rank0, "ENTER 10000000 MPI_Irecv\n"
                                "LEAVE 12000000 MPI_Irecv\n"
                                "ENTER 12000000 MPI_Isend\n"
                                "LEAVE 14000000 MPI_Isend\n"
                                "ENTER 14000000 MPI_Waitall\n"
                                "LEAVE 20000000 MPI_Waitall\n"
                                "ENTER 20000000 MPI_Send_init\n"
                                "LEAVE 22000000 MPI_Send_init\n"
                                "ENTER 22000000 MPI_Start\n"
                                "LEAVE 24000000 MPI_Start\n"
                                "ENTER 24000000 MPI_Wait\n"
                                "LEAVE 30000000 MPI_Wait\n"
                                "ENTER 30000000 MPI_Request_free\n"
                                "LEAVE 31000000 MPI_Request_free\n"
                                "ENTER 50000000 MPI_Send\n"
                                "LEAVE 52000000 MPI_Send\n"
                                "ENTER 52000000 MPI_Irecv\n"
                                "LEAVE 53000000 MPI_Irecv\n"
                                "ENTER 53000000 MPI_Test polls=40\n"
                                "LEAVE 70000000 MPI_Test\n"
                                "ENTER 70000000 MPI_Test\n"
                                "LEAVE 71000000 MPI_Test\n");
  CU_ASSERT_STRING_EQUAL(rank1, "ENTER 11000000 MPI_Irecv\n"
                                "LEAVE 13000000 MPI_Irecv\n"
                                "ENTER 13000000 MPI_Isend\n"
                                "LEAVE 15000000 MPI_Isend\n"
                                "ENTER 15000000 MPI_Waitall\n"
                                "LEAVE 18000000 MPI_Waitall\n"
                                "ENTER 18000000 MPI_Recv_init\n"
                                "LEAVE 20000000 MPI_Recv_init\n"
                                "ENTER 20000000 MPI_Start\n"
                                "LEAVE 21000000 MPI_Start\n"
                                "ENTER 21000000 MPI_Wait\n"
                                "LEAVE 30000000 MPI_Wait\n"
                                "ENTER 30000000 MPI_Request_free\n"
                                "LEAVE 31000000 MPI_Request_free\n"
                                "ENTER 31000000 MPI_Iprobe polls=25\n"
                                "LEAVE 49000000 MPI_Iprobe\n"
                                "ENTER 49000000 MPI_Iprobe\n"
                                "LEAVE 51000000 MPI_Iprobe\n"
                                "ENTER 51000000 MPI_Recv\n"
                                "LEAVE 54000000 MPI_Recv\n"
                                "ENTER 69000000 MPI_Send\n"
                                "LEAVE 70000000 MPI_Send\n");
  CU_ASSERT(nested[0] && nested[1]);
  free(rank0);
  free(rank1);
  free(text);
  vite_reads(dir, "run.otf2");
  paje_reads("regions", dir);
  const char *args[] = {"otf2-print", "-G", "run.otf2", NULL};
  char *defs = otf2_print(dir, args);
  CU_ASSERT_PTR_NOT_NULL_FATAL(defs);
  static const char *const roles[][2] = {{"MPI_Isend", "POINT2POINT, Paradigm: MPI"},
                                         {"MPI_Irecv", "POINT2POINT"},
                                         {"MPI_Start", "POINT2POINT"},
                                         {"MPI_Waitall", "FUNCTION, Paradigm: MPI"},
                                         {"MPI_Test", "FUNCTION"},
                                         {"MPI_Iprobe", "FUNCTION"},
                                         {"MPI_Send_init", "FUNCTION"}};
  for (size_t i = 0; i < sizeof roles / sizeof *roles; i++) {
    char region[160];
    snprintf(region, sizeof region, "Name: \"%s\" <", roles[i][0]);
    const char *at = strstr(defs, region);
    const char *role = at ? strstr(at, "Role: ") : NULL;
    CU_ASSERT(role && strncmp(role + 6, roles[i][1], strlen(roles[i][1])) == 0);
  }
  free(defs);
  remove_tree(dir);
}

/* A measured run's persistent requests (tests/data/tracer/persistent, hand-made as the tracer writes them, p = 2):
 * each MPI_Startall of a receive and a send is one region from its entry to its exit, its two lines (the second of no
 * duration at the call's end) one call; its send an MPI_SEND inside it at its second line's time (rank 0's at 4, 12
 * and 18 ms), its receive an MPI_RECV at the end of the MPI_Waitall that completed it (10, 15.5 and 21.5 ms). The
 * last two rounds of rank 0 are a loop of 2 iterations over 10-22 ms: 6 ms each, 5 ms of calls, the other 1 ms the
 * tracer's, after each call's last line, 0.5 ms each (docs/tracer.md), so its Startalls start at 10 and 16 ms, its
 * waits at 12.5 and 18.5 ms. ViTE reads the archive and the Paje trace. Before, a start had no partner: no message
 * event, and its second line a region of its own. */
static void test_otf2_measured_persistent_starts(void)
{
  char dir[1024];
  char *text = measured_archive("persistent", dir, sizeof dir);
  int nested;
  char *rank0 = calls_at(text, 0, "main", &nested);
  CU_ASSERT_STRING_EQUAL(rank0, "ENTER 0 MPI_Recv_init\n"
                                "LEAVE 1000000 MPI_Recv_init\n"
                                "ENTER 1000000 MPI_Send_init\n"
                                "LEAVE 2000000 MPI_Send_init\n"
                                "ENTER 2000000 MPI_Startall\n"
                                "LEAVE 4000000 MPI_Startall\n"
                                "ENTER 4000000 MPI_Waitall\n"
                                "LEAVE 10000000 MPI_Waitall\n"
                                "ENTER 10000000 MPI_Startall\n"
                                "LEAVE 12000000 MPI_Startall\n"
                                "ENTER 12500000 MPI_Waitall\n"
                                "LEAVE 15500000 MPI_Waitall\n"
                                "ENTER 16000000 MPI_Startall\n"
                                "LEAVE 18000000 MPI_Startall\n"
                                "ENTER 18500000 MPI_Waitall\n"
                                "LEAVE 21500000 MPI_Waitall\n");
  CU_ASSERT(nested);
  static const unsigned long long sent[3] = {4000000ULL, 12000000ULL, 18000000ULL};
  static const unsigned long long received[3] = {10000000ULL, 15500000ULL, 21500000ULL};
  int nsent = 0, nreceived = 0;
  event_t ev;
  for (const char *at = text; next_event(&at, &ev);) {
    if (ev.location == 0 && strcmp(ev.kind, "MPI_SEND") == 0 && nsent < 3)
      CU_ASSERT(ev.time == sent[nsent++] && has(&ev, "Tag: 10,"));
    if (ev.location == 0 && strcmp(ev.kind, "MPI_RECV") == 0 && nreceived < 3)
      CU_ASSERT(ev.time == received[nreceived++] && has(&ev, "Tag: 11,"));
  }
  CU_ASSERT(nsent == 3 && nreceived == 3);
  CU_ASSERT_EQUAL(count_events(text, "MPI_SEND", 1, "Tag: 11,"), 3);
  CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", 1, "Tag: 10,"), 3);
  vite_reads(dir, "run.otf2");
  paje_reads("persistent", dir);
  free(rank0);
  free(text);
  remove_tree(dir);
}

/* A non-blocking collective's event of a measured run's archive: where and when, the MPI call region it must be in,
 * and what its line holds after the time. */
typedef struct nbc_event {
  const char *kind;
  int location;
  unsigned long long time;
  const char *region, *attributes;
} nbc_event_t;

/* Measured run `run`'s archive (tests/data/tracer/RUN, p = 2) has the `n` non-blocking collective events `expected`
 * and no other, each in its region (the innermost MPI call region open on its location), in a new folder `dir`. */
static void nbc_events_are(const char *run, char *dir, size_t size, const nbc_event_t *expected, size_t n)
{
  char *text = measured_archive(run, dir, size);
  char open[2][64] = {"", ""}; /* each rank's innermost MPI call region */
  size_t found = 0;
  event_t ev;
  for (const char *at = text; next_event(&at, &ev);) {
    char name[64];
    if (ev.location < 0 || ev.location > 1)
      continue;
    if (sscanf(ev.attributes, "Region: \"%63[^\"]\"", name) == 1 && strncmp(name, "MPI_", 4) == 0)
      snprintf(open[ev.location], sizeof open[0], "%s", strcmp(ev.kind, "ENTER") == 0 ? name : "");
    if (strncmp(ev.kind, "NON_BLOCKING_COLLECTIVE_", 24) != 0)
      continue;
    found++;
    size_t k = 0;
    while (k < n && !(strcmp(ev.kind, expected[k].kind) == 0 && ev.location == expected[k].location &&
                      ev.time == expected[k].time))
      k++;
    CU_ASSERT_FATAL(k < n);
    CU_ASSERT_STRING_EQUAL(open[ev.location], expected[k].region);
    CU_ASSERT_STRING_EQUAL(ev.attributes, expected[k].attributes);
  }
  CU_ASSERT_EQUAL(found, n);
  free(text);
}

#define NBC_REQUEST   "NON_BLOCKING_COLLECTIVE_REQUEST"
#define NBC_COMPLETE  "NON_BLOCKING_COLLECTIVE_COMPLETE"
#define NBC_BCAST     "Operation: BCAST, Communicator: \"MPI_COMM_WORLD\" <0>, Root: 0 (\"Rank 0 thread 0\" <0>), "
#define NBC_ALLTOALLV "Operation: ALLTOALLV, Communicator: \"MPI_COMM_WORLD\" <0>, Root: NONE, "

/* A measured run's non-blocking collective (tests/data/tracer/nbc-pair, hand-made as the tracer writes them, p = 2):
 * rank 0 broadcasts 16 bytes with MPI_Ibcast at 0.1 s and waits for it from 0.3 to 0.31 s; rank 1 initiates its part
 * at 0.2 s and waits from 0.25 to 0.4 s. Each rank's initiation is a NonBlockingCollectiveRequest inside its
 * MPI_Ibcast region, at its entry (0.1 s, 0.2 s), and its completion a NonBlockingCollectiveComplete of the same
 * request inside the MPI_Wait that completed it, at its end (0.31 s, 0.4 s): a broadcast on the world from root 0,
 * which sends rank 1's 16 bytes and receives none, rank 1 the reverse (by hand, the broadcast's definition). ViTE reads
 * the archive and the Paje trace. Before, the archive had the regions only: no collective event, no bytes, no root.
 * tests/data/tracer/nbc-adjacent starts a second broadcast where the first one's wait ends (0.31 s): its request is in
 * its own MPI_Ibcast region, after the first's completion (it was in the MPI_Wait's, before it). In
 * tests/data/tracer/nbc-differ rank 0's MPI_Ibcast meets rank 1's MPI_Iallreduce, not the same collective: no event
 * (each said it was paired, with 0 bytes moved). tests/data/tracer/nbc-alltoallv's MPI_Ialltoallv lines give what each
 * rank sent (40, 48 bytes) and received (48, 40) after the communicator: so its completions (they said 0 received). */
static void test_otf2_measured_nonblocking_collectives(void)
{
  static const nbc_event_t pair[] = {
      {NBC_REQUEST, 0, 100000000ULL, "MPI_Ibcast", "Request: 0"},
      {NBC_REQUEST, 1, 200000000ULL, "MPI_Ibcast", "Request: 0"},
      {NBC_COMPLETE, 0, 310000000ULL, "MPI_Wait", NBC_BCAST "Sent: 16, Received: 0, Request: 0"},
      {NBC_COMPLETE, 1, 400000000ULL, "MPI_Wait", NBC_BCAST "Sent: 0, Received: 16, Request: 0"}};
  static const nbc_event_t adjacent[] = {
      {NBC_REQUEST, 0, 100000000ULL, "MPI_Ibcast", "Request: 0"},
      {NBC_REQUEST, 1, 100000000ULL, "MPI_Ibcast", "Request: 0"},
      {NBC_COMPLETE, 0, 310000000ULL, "MPI_Wait", NBC_BCAST "Sent: 16, Received: 0, Request: 0"},
      {NBC_COMPLETE, 1, 310000000ULL, "MPI_Wait", NBC_BCAST "Sent: 0, Received: 16, Request: 0"},
      {NBC_REQUEST, 0, 310000000ULL, "MPI_Ibcast", "Request: 1"},
      {NBC_REQUEST, 1, 310000000ULL, "MPI_Ibcast", "Request: 1"},
      {NBC_COMPLETE, 0, 410000000ULL, "MPI_Wait", NBC_BCAST "Sent: 16, Received: 0, Request: 1"},
      {NBC_COMPLETE, 1, 410000000ULL, "MPI_Wait", NBC_BCAST "Sent: 0, Received: 16, Request: 1"}};
  static const nbc_event_t alltoallv[] = {
      {NBC_REQUEST, 0, 100000000ULL, "MPI_Ialltoallv", "Request: 0"},
      {NBC_REQUEST, 1, 100000000ULL, "MPI_Ialltoallv", "Request: 0"},
      {NBC_COMPLETE, 0, 310000000ULL, "MPI_Wait", NBC_ALLTOALLV "Sent: 40, Received: 48, Request: 0"},
      {NBC_COMPLETE, 1, 310000000ULL, "MPI_Wait", NBC_ALLTOALLV "Sent: 48, Received: 40, Request: 0"}};
  char dir[1024];
  nbc_events_are("nbc-pair", dir, sizeof dir, pair, sizeof pair / sizeof *pair);
  vite_reads(dir, "run.otf2");
  paje_reads("nbc-pair", dir);
  remove_tree(dir);
  nbc_events_are("nbc-adjacent", dir, sizeof dir, adjacent, sizeof adjacent / sizeof *adjacent);
  remove_tree(dir);
  nbc_events_are("nbc-differ", dir, sizeof dir, NULL, 0);
  remove_tree(dir);
  nbc_events_are("nbc-alltoallv", dir, sizeof dir, alltoallv, sizeof alltoallv / sizeof *alltoallv);
  remove_tree(dir);
}

/* Whether the Paje trace `paje` starts a link at `ns` nanoseconds (to the nearest). */
static int paje_link_starts_at(const char *paje, unsigned long long ns)
{
  for (const char *line = paje; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    double t;
    if (sscanf(line, "7 %lf ", &t) == 1 && (unsigned long long)llround(t * 1e9) == ns)
      return 1;
  }
  return 0;
}

/* A replayed non-blocking send and collectives (tests/data/ti/nonblocking): rank 0 posts 4 MB with tag 3 at 0 s,
 * computes 1 s, then waits; rank 1 receives it from any tag while rank 0 computes; then both join an allreduce of 1000
 * bytes, a gather to rank 0 of 100 elements, an alltoall of 200 and an allgatherv of 300 (rank 0) and 400 (rank 1),
 * elements of 8 bytes (the TI trace's datatype 0), 1 ms of computation between them. The send is written where it was
 * posted, at 0, not at its wait (1 s, after its receive ended); each collective as the call it is (MPI_Gather,
 * MPI_Alltoall, MPI_Allgatherv: not MPI_Reduce nor MPI_Allreduce), with the bytes each rank sent and received in it
 * (gather: 800 from rank 1 to the root; alltoall: 1600 each way; allgatherv: 2400 from rank 0, 3200 from rank 1); its
 * messages carry tag 0 at both ends (not tag 3 at rank 0's and any tag at rank 1's, their last messages') and lie
 * inside it; the Paje trace starts every link where the archive's MPI_SEND is, and ViTE reads both. */
static void test_otf2_replayed_nonblocking(void)
{
  char dir[1024];
  cli_run_t run;
  char *text = replayed_archive("/tests/data/ti/nonblocking/nonblocking.xml", "2", dir, sizeof dir, &run);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  CU_ASSERT_EQUAL(count_events(text, "MPI_SEND", 0, "Tag: 3, Length: 4000000"), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_SEND", -1, "Tag: 0, "), 7); /* allreduce 2, gather 1, alltoall 2, ... 2 */
  CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", -1, "Tag: 0, "), 7);
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", -1,
                               "ALLREDUCE, Communicator: \"MPI_COMM_WORLD\" <0>, "
                               "Root: NONE, Sent: 1000, Received: 1000"),
                  2);
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", 0, "Operation: GATHER, "), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", 0, "Sent: 0, Received: 800"), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", 1, "Sent: 800, Received: 0"), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", -1, "Operation: ALLTOALL, "), 2);
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", -1, "Sent: 1600, Received: 1600"), 2);
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", -1, "Operation: ALLGATHERV, "), 2);
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", 0, "Sent: 2400, Received: 3200"), 1);
  CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", 1, "Sent: 3200, Received: 2400"), 1);
  CU_ASSERT_EQUAL(count_events(text, "ENTER", -1, "Region: \"MPI_Gather\""), 2);
  CU_ASSERT_EQUAL(count_events(text, "ENTER", -1, "Region: \"MPI_Alltoall\""), 2);
  CU_ASSERT_EQUAL(count_events(text, "ENTER", -1, "Region: \"MPI_Allgatherv\""), 2);
  CU_ASSERT_EQUAL(count_events(text, "ENTER", -1, "Region: \"MPI_Reduce\""), 0);
  char *paje = read_output(dir, "t.paje");
  CU_ASSERT_PTR_NOT_NULL_FATAL(paje);
  event_t ev;
  int open = 0, sends = 0;
  for (const char *at = text; next_event(&at, &ev);) {
    if (strcmp(ev.kind, "MPI_SEND") == 0) {
      sends++;
      CU_ASSERT(paje_link_starts_at(paje, ev.time));
      CU_ASSERT(open || has(&ev, "Tag: 3,")); /* the allreduce's inside it */
    }
    if (strcmp(ev.kind, "MPI_SEND") == 0 && has(&ev, "Tag: 3,"))
      CU_ASSERT_EQUAL(ev.time, 0ULL);
    if (strcmp(ev.kind, "MPI_RECV") == 0 && has(&ev, "Length: 4000000"))
      CU_ASSERT(ev.time > 0 && ev.time < 1000000000ULL);
    open += strcmp(ev.kind, "MPI_COLLECTIVE_BEGIN") == 0;
  }
  CU_ASSERT_EQUAL(sends, 8);
  vite_reads_both(dir);
  free(paje);
  free(text);
  run_free(&run);
  remove_tree(dir);
}

/* simrun --otf2: an archive per point with p = 4 (the 3rd and 6th of gj-small.xml), each with as many MPI_SEND and
 * MPI_RECV events as the point's messages in the JSON, its collectives broadcasts with a root, read by ViTE; no archive
 * for the other points. */
static void test_otf2_cli_one_archive_per_run(void)
{
  char dir[1024];
  const char *args[] = {
      "-q", "--no-cache", DATA "gj-small.xml", "--per-process", "4", "--otf2", "traces", "--json", "out.json", NULL};
  cli_run_t run;
  run_ok(dir, sizeof dir, args, &run);
  char *json = read_output(dir, "out.json");
  CU_ASSERT_PTR_NOT_NULL_FATAL(json);
  char traces[1100];
  snprintf(traces, sizeof traces, "%s/traces", dir);
  CU_ASSERT_EQUAL(count_entries(traces), 6); /* point-2 and point-5, each .otf2, .def and a folder */
  static const int points[] = {2, 5};
  for (size_t i = 0; i < 2; i++) {
    char anchor[64];
    snprintf(anchor, sizeof anchor, "point-%d.otf2", points[i]);
    const char *print[] = {"otf2-print", anchor, NULL};
    char *text = otf2_print(traces, print);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    long messages = json_number_after(json, "\"messages\": ", points[i]);
    CU_ASSERT(messages > 0);
    CU_ASSERT_EQUAL(count_events(text, "MPI_SEND", -1, NULL), messages);
    CU_ASSERT_EQUAL(count_events(text, "MPI_RECV", -1, NULL), messages);
    /* Gauss-Jordan broadcasts its pivot row from its owner to every rank (sim_bcast): every collective an MPI_Bcast */
    int colls = count_events(text, "MPI_COLLECTIVE_END", -1, NULL);
    CU_ASSERT(colls > 0);
    CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", -1, "Operation: BCAST"), colls);
    CU_ASSERT_EQUAL(count_events(text, "ENTER", -1, "Region: \"MPI_Bcast\""), colls);
    CU_ASSERT_EQUAL(count_events(text, "MPI_COLLECTIVE_END", -1, "Root: UNDEFINED"), 0);
    vite_reads(traces, anchor);
    free(text);
  }
  free(json);
  run_free(&run);
  remove_tree(dir);
}

/* One point of a shipped scenario per skeleton and network, as issue 30's check runs them: the broadcasts of
 * Gauss-Jordan (one-to-all, and scatter-allgather's), the process grids' row and column broadcasts of
 * pdgemm and pdtrsm (collectives on sub-communicators, where ViTE once aborted), the ring multiply, 128 ranks of the
 * ping-pong, icluster's eager messages and the DSM (no messages). otf2-print reads each archive without a word on
 * stderr, every MPI_SEND has its MPI_RECV, no collective of a rooted kind lacks its root, and ViTE loads it. */
static void test_otf2_shipped_scenarios(void)
{
#define SHIPPED SIMRUN_SOURCE_DIR "/scenarios/"
  static const struct {
    const char *scenario;
    const char *p;
    const char *set[3];
  } cases[] = {
      {SHIPPED "gj-worksize.xml", "16", {"p=16", "n=128", "broadcast=one-to-all"}},
      {SHIPPED "bcast-t800.xml", "4", {"p=4", "broadcast=scatter-allgather"}},
      {SHIPPED "pdgemm-grids.xml", "4", {"p=4", "grid-rows=2"}},
      {SHIPPED "pdtrsm.xml", "4", {"p=4", "grid-rows=2"}},
      {SHIPPED "matmul100.xml", "8", {"p=8", NULL}},
      {SHIPPED "t800-pingpong.xml", "128", {NULL, NULL}},
      {SHIPPED "gj-machines.xml", "8", {"p=8", "platform=" SIMRUN_SOURCE_DIR "/platforms/icluster-fe-32.xml"}},
      {SHIPPED "dsm-matmul.xml", "8", {"controller=yes", NULL}},
  };
  /* under a sanitizer, the first two (the same writer; the normal build checks all eight) */
  size_t ncases = SANITIZED ? 2 : sizeof cases / sizeof cases[0];
  for (size_t i = 0; i < ncases; i++) {
    const char *args[16] = {"-q", "--no-cache", cases[i].scenario, "--per-process", cases[i].p, "--otf2", "traces"};
    for (size_t k = 0, n = 7; k < 3 && cases[i].set[k]; k++, n += 2)
      args[n] = "--set", args[n + 1] = cases[i].set[k];
    char dir[1024], traces[1100];
    cli_run_t run;
    run_ok(dir, sizeof dir, args, &run);
    snprintf(traces, sizeof traces, "%s/traces", dir);
    const char *print[] = {"otf2-print", "point-0.otf2", NULL};
    char *text = otf2_print(traces, print);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_EQUAL(count_events(text, "MPI_SEND", -1, NULL), count_events(text, "MPI_RECV", -1, NULL));
    static const char *const rooted[] = {"BCAST", "SCATTER", "REDUCE", "GATHER"};
    for (size_t k = 0; k < 4; k++) {
      char op[64];
      snprintf(op, sizeof op, "Operation: %s, ", rooted[k]);
      event_t ev;
      for (const char *at = text; next_event(&at, &ev);)
        if (strcmp(ev.kind, "MPI_COLLECTIVE_END") == 0 && has(&ev, op))
          CU_ASSERT(!has(&ev, "Root: UNDEFINED"));
    }
    vite_reads(traces, "point-0.otf2");
    free(text);
    run_free(&run);
    remove_tree(dir);
  }
#undef SHIPPED
}

/* simrun analyse --otf2: a measured run exported as a simulation is, its messages with the tags the program gave them
 * (tests/data/tracer/tags: rank 0 sends tags 1 then 2, rank 1 receives 2 then 1), read by ViTE; '-' is refused for
 * the folder (exit 2, one line). */
static void test_otf2_analyse_writes_archives(void)
{
  char dir[1024], traces[1100];
  const char *args[] = {"analyse", SIMRUN_SOURCE_DIR "/tests/data/tracer/tags", "--otf2", "traces", NULL};
  cli_run_t run;
  char *text = cli_archive(dir, sizeof dir, args, &run);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  expect_tags(text, 1, 2, 2, 1);
  snprintf(traces, sizeof traces, "%s/traces", dir);
  vite_reads(traces, "point-0.otf2");
  free(text);
  run_free(&run);
  remove_tree(dir);
  EXPECT_FAILURE(.args = {"analyse", SIMRUN_SOURCE_DIR "/tests/data/tracer/tags", "--otf2", "-", NULL}, .bare = 1,
                 .status = 2, .prefix = "--otf2 -: ", .phrases = {"give a folder name", NULL});
}

/* The measured run tests/data/tracer/RUN read with `flags` (met_timeline_stream). */
static met_trace_t *measured_read(const char *run, int flags)
{
  char err[1200] = "", path[1024];
  snprintf(path, sizeof path, "%s/tests/data/tracer/%s", SIMRUN_SOURCE_DIR, run);
  met_trace_t *trace = met_timeline_stream(path, flags, NULL, err, sizeof err);
  if (!trace)
    fprintf(stderr, "\n%s: %s\n", run, err);
  return trace;
}

/* `trace`'s Paje trace as one run named "run" (a new string). */
static char *paje_text(const met_trace_t *trace)
{
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  rep_paje_run_t run = {"run", trace};
  CU_ASSERT_EQUAL(rep_paje_write(out, &run, 1), 0);
  fclose(out);
  return text;
}

/* Checks that `spilled` is exported as `whole` is: otf2-print's events of their archives and their Paje traces the
 * same (`what` names them on stderr otherwise), with some regions and states. Returns the spilled one's events (a new
 * string), or NULL; frees both traces. */
static char *same_exports(met_trace_t *whole, met_trace_t *spilled, const char *what)
{
  CU_ASSERT(met_trace_is_spilled(spilled) && met_trace_spilled(spilled) > 0);
  char dirs[2][1024];
  char *events[2] = {write_and_print(whole, dirs[0], sizeof dirs[0], 0),
                     write_and_print(spilled, dirs[1], sizeof dirs[1], 0)};
  int same = events[0] && events[1] && strcmp(events[0], events[1]) == 0;
  CU_ASSERT(same && count_events(events[0], "ENTER", -1, NULL) > 0);
  if (!same)
    fprintf(stderr, "\n%s: the spilled run's archive differs from the whole run's\n", what);
  char *paje[2] = {paje_text(whole), paje_text(spilled)};
  CU_ASSERT(paje[0] && paje[1] && strcmp(paje[0], paje[1]) == 0 && strstr(paje[0], " STATE "));
  for (int k = 0; k < 2; k++) {
    free(paje[k]);
    remove_tree(dirs[k]);
  }
  free(events[0]);
  met_trace_free(whole);
  met_trace_free(spilled);
  return events[1];
}

/* A measured run read spilled (MET_TL_SPILL: per-rank sums, its intervals in a temporary file, as simrun analyse reads
 * a run too long to hold whole when an output draws or exports it) is exported as the same run read whole: otf2-print
 * prints the same events of both archives, and the Paje traces are the same text. The runs hold what the exports
 * read of an interval: calls and runs of polls (regions, polling), collectives with bytes and roots (collective-bytes,
 * rooted), a sub-communicator's (sub-coll-named), tags (tags), receives that waits and tests completed
 * (any-source-wait, halo), a folded loop (loop-folded). Before, such a run had no archive and no Paje trace at all. */
static void test_otf2_spilled_as_whole(void)
{
  static const char *const runs[] = {"regions", "polling", "collective-bytes", "rooted",     "sub-coll-named",
                                     "tags",    "halo",    "any-source-wait",  "loop-folded"};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
    met_trace_t *whole = measured_read(runs[i], MET_TL_KEEP), *spilled = measured_read(runs[i], MET_TL_SPILL);
    CU_ASSERT_FATAL(whole && spilled);
    free(same_exports(whole, spilled, runs[i]));
  }
}

/* A ring of `n` ranks built into `trace`: rank r computes [0, 1 + r/n), sends 1000 bytes with tag r to rank r + 1
 * until 2, then receives from rank r - 1, waiting until 2 and moving the message until 3. */
static void ring_into(met_trace_t *trace, int n)
{
  int phase = met_trace_phase_id(trace, "ring"), call_send = met_trace_call_id(trace, "MPI_Send"),
      call_recv = met_trace_call_id(trace, "MPI_Recv");
  for (int r = 0; r < n; r++) {
    met_interval_t pieces[] = {
        {.start = 0, .end = 1 + (double)r / n, .category = MET_CAT_COMPUTE, .phase = phase, .peer = -1},
        {.start = 1 + (double)r / n,
         .end = 2,
         .category = MET_CAT_COMM,
         .phase = phase,
         .peer = (r + 1) % n,
         .tag = r,
         .bytes = 1000,
         .dir = MET_DIR_SEND,
         .call = call_send},
        {.start = 2,
         .end = 2.5,
         .category = MET_CAT_IDLE,
         .phase = phase,
         .peer = (r + n - 1) % n,
         .tag = (r + n - 1) % n,
         .dir = MET_DIR_RECV,
         .call = call_recv},
        {.start = 2.5,
         .end = 3,
         .category = MET_CAT_COMM,
         .phase = phase,
         .peer = (r + n - 1) % n,
         .tag = (r + n - 1) % n,
         .bytes = 1000,
         .dir = MET_DIR_RECV,
         .call = -call_recv}};
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++)
      CU_ASSERT_EQUAL(met_trace_add(trace, r, &pieces[i]), 0);
  }
}

/* A spilled trace of more ranks than one pass over its file writes (40 ranks: three passes of 16) gives the archive
 * its whole twin gives: 40 sends and 40 receives, each rank's with its tags, and the same events throughout. */
static void test_otf2_spilled_in_passes(void)
{
  met_trace_t *whole = met_trace_new(40), *spilled = met_trace_new_spilled(40);
  CU_ASSERT_FATAL(whole && spilled);
  ring_into(whole, 40);
  ring_into(spilled, 40);
  char *events = same_exports(whole, spilled, "a ring of 40 ranks");
  CU_ASSERT_PTR_NOT_NULL_FATAL(events);
  CU_ASSERT_EQUAL(count_events(events, "MPI_SEND", -1, NULL), 40);
  CU_ASSERT_EQUAL(count_events(events, "MPI_RECV", -1, NULL), 40);
  CU_ASSERT_EQUAL(count_events(events, "MPI_SEND", 39, "Tag: 39"), 1);
  CU_ASSERT_EQUAL(count_events(events, "MPI_RECV", 17, "Tag: 16"), 1);
  free(events);
}

/* Each rank's MPI_SEND and MPI_RECV events ([send, receive][rank 0, 1]) in otf2-print's output of
 * DIR/traces/point-0.otf2, read a line at a time: its 5.3 million lines (516 MB) held whole filled a nearly full disk
 * in CI. 0, or -1 when otf2-print failed or the run records a buffer flush (each writer flushes every 4 MiB: none is in
 * the run). */
static int archive_messages(const char *dir, long messages[2][2])
{
  char command[1300], line[4096];
  snprintf(command, sizeof command, "cd '%s/traces' && otf2-print point-0.otf2", dir);
  FILE *pipe = popen(command, "r");
  if (!pipe)
    return -1;
  int flushed = 0;
  while (fgets(line, sizeof line, pipe)) {
    int receive = strncmp(line, "MPI_RECV ", 9) == 0;
    if (receive || strncmp(line, "MPI_SEND ", 9) == 0) {
      long rank = strtol(line + 9, NULL, 10);
      messages[receive][rank == 1] += rank == 0 || rank == 1;
    }
    flushed |= strstr(line, "BUFFER_FLUSH") != NULL;
  }
  return pclose(pipe) == 0 && !flushed ? 0 : -1;
}

/* DIR/t.paje's links, read a line at a time (93 MB): *starts and *ends, *backwards the timed events before the one
 * above them (sorted on disk: none), *last the time of the last. 0, or -1 when it cannot be read. */
static int paje_links(const char *dir, size_t *starts, size_t *ends, size_t *backwards, double *last)
{
  char path[1100], line[4096];
  snprintf(path, sizeof path, "%s/t.paje", dir);
  FILE *paje = fopen(path, "r");
  if (!paje)
    return -1;
  *starts = *ends = *backwards = 0;
  *last = 0;
  while (fgets(line, sizeof line, paje)) {
    *starts += strncmp(line, "7 ", 2) == 0; /* PajeStartLink */
    *ends += strncmp(line, "8 ", 2) == 0;   /* PajeEndLink */
    char *end = NULL;
    long kind = strtol(line, &end, 10);
    if (kind >= 5 && kind != 9 && end != line && *end == ' ') { /* a timed event */
      double t = strtod(end, NULL);
      *backwards += t < *last;
      *last = t;
    }
  }
  fclose(paje);
  return 0;
}

/* simrun analyse on tests/data/tracer/loop-sums (a ping-pong folded over 120,000 iterations: 77 MB unfolded, read as
 * per-rank sums) with --otf2 and --paje: the run is spilled and exported whole: each rank sends 120,000 messages and
 * receives 120,000 (by hand: one each way an iteration), in the archive (one MPI_SEND and one MPI_RECV each) and in the
 * Paje trace (a link each, its start and end lines); the report says where its intervals were. */
static void test_otf2_analyse_spilled_run(void)
{
  char dir[1024];
  const char *args[] = {"analyse", SIMRUN_SOURCE_DIR "/tests/data/tracer/loop-sums",
                        "--otf2",  "traces",
                        "--paje",  "t.paje",
                        "--width", "1000",
                        NULL}; /* the report's lines unwrapped, wherever the tree is */
  cli_run_t run;
  run_ok(dir, sizeof dir, args, &run);
  CU_ASSERT_PTR_NOT_NULL(strstr(run.out, "its intervals in a temporary file for the pictures and exports"));
  long messages[2][2] = {{0}};
  CU_ASSERT_EQUAL(archive_messages(dir, messages), 0);
  for (int rank = 0; rank < 2; rank++) {
    CU_ASSERT_EQUAL(messages[0][rank], 120000);
    CU_ASSERT_EQUAL(messages[1][rank], 120000);
  }
  size_t starts, ends, backwards;
  double last;
  CU_ASSERT_EQUAL_FATAL(paje_links(dir, &starts, &ends, &backwards, &last), 0);
  CU_ASSERT_EQUAL(starts, 240000);
  CU_ASSERT_EQUAL(ends, 240000);
  CU_ASSERT_EQUAL(backwards, 0);
  TU_ASSERT_CLOSE(last, 119999.95, 1e-5); /* the run's end: the last iteration's receive, 0.95 s into its second */
  run_free(&run);
  remove_tree(dir);
}

/* ViTE's colours (docs/pictures.md): ViTE 1.2 exports the OTF2 archive's states all black, whatever the archive says
 * (its OTF2 reader creates each state value without a colour), and the same run's Paje trace in the categories'
 * colours (compute's #4e79a7 is rgb(78,121,167) in its SVG), the workaround the documentation gives. When the first
 * half fails, a ViTE that colours OTF2 states has come: say so in docs/pictures.md. */
static void test_otf2_vite_colours(void)
{
  char dir[1024];
  const char *args[] = {"-q",     "--no-cache", DATA "gj-small.xml", "--per-process", "4", "--otf2", ".", "--paje",
                        "t.paje", NULL};
  cli_run_t run;
  run_ok(dir, sizeof dir, args, &run);
  static const char *const compute = "fill=\"rgb(78,121,167)\"";
  vite_reads(dir, "point-2.otf2");
  char *svg = read_output(dir, "vite.svg");
  CU_ASSERT(svg && strstr(svg, "fill=\"rgb(0,0,0)\"") && !strstr(svg, compute));
  free(svg);
  vite_reads(dir, "t.paje");
  svg = read_output(dir, "vite.svg");
  CU_ASSERT(svg && strstr(svg, compute));
  free(svg);
  run_free(&run);
  remove_tree(dir);
}

/* --otf2 needs a per-process p (exit 2, one line, nothing written). */
static void test_otf2_cli_needs_per_process(void)
{
  EXPECT_FAILURE(.args = {DATA "gj-small.xml", "--otf2", "traces", NULL}, .status = 2, .prefix = "--otf2 ",
                 .phrases = {"--per-process P", NULL});
}

int main(void)
{
  static const tu_case_t cases[] = {
      {"test_otf2_hand_made_trace", test_otf2_hand_made_trace},
      {"test_otf2_definitions", test_otf2_definitions},
      {"test_otf2_point_to_point_calls", test_otf2_point_to_point_calls},
      {"test_otf2_ti_replay_tags", test_otf2_ti_replay_tags},
      {"test_otf2_measured_tags", test_otf2_measured_tags},
      {"test_otf2_measured_any_tag_receives_carry_the_tag", test_otf2_measured_any_tag_receives_carry_the_tag},
      {"test_otf2_measured_receives_at_completion", test_otf2_measured_receives_at_completion},
      {"test_otf2_measured_unsuccessful_tests_complete_nothing",
       test_otf2_measured_unsuccessful_tests_complete_nothing},
      {"test_otf2_measured_sendrecv_ring_after_moved_entry", test_otf2_measured_sendrecv_ring_after_moved_entry},
      {"test_otf2_measured_waitsome_receives_after_send", test_otf2_measured_waitsome_receives_after_send},
      {"test_otf2_measured_receives_where_named", test_otf2_measured_receives_where_named},
      {"test_otf2_measured_clock_condition", test_otf2_measured_clock_condition},
      {"test_otf2_measured_collective_bytes", test_otf2_measured_collective_bytes},
      {"test_otf2_measured_scans", test_otf2_measured_scans},
      {"test_otf2_measured_sub_communicators", test_otf2_measured_sub_communicators},
      {"test_otf2_measured_call_regions", test_otf2_measured_call_regions},
      {"test_otf2_measured_persistent_starts", test_otf2_measured_persistent_starts},
      {"test_otf2_measured_nonblocking_collectives", test_otf2_measured_nonblocking_collectives},
      {"test_otf2_replayed_waitall_one_start", test_otf2_replayed_waitall_one_start},
      {"test_otf2_replayed_nonblocking", test_otf2_replayed_nonblocking},
      {"test_otf2_cli_one_archive_per_run", test_otf2_cli_one_archive_per_run},
      {"test_otf2_shipped_scenarios", test_otf2_shipped_scenarios},
      {"test_otf2_cli_needs_per_process", test_otf2_cli_needs_per_process},
      {"test_otf2_analyse_writes_archives", test_otf2_analyse_writes_archives},
      {"test_otf2_vite_colours", test_otf2_vite_colours},
      {"test_otf2_spilled_as_whole", test_otf2_spilled_as_whole},
      {"test_otf2_spilled_in_passes", test_otf2_spilled_in_passes},
      {"test_otf2_analyse_spilled_run", test_otf2_analyse_spilled_run},
      {NULL, NULL}};
  return tu_run("rep_otf2", cases);
}
