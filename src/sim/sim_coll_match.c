/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Mismatched collectives in a trace (sim_coll_match.h): each rank's collective actions, in order, against rank 0's.
 * The replay builds a collective from point-to-point messages, so without this a rank calling bcast where another
 * calls reduce was reported as a lost eager send. A folded loop ("loop COUNT LINES") counts its body's collectives
 * COUNT times, as the replay does: ranks fold the same calls differently (one rank's loop of 165 iterations, then two
 * barriers, where another's has 164 and starts with one), and read line by line OpenCoarrays' folded trace at p = 2
 * passed for a barrier against an allreduce. */
#include "sim_coll_match.h"
#include "bas_grow.h"
#include "sim_coll.h"
#include "sim_ti.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FIELDS = 64, VERB = 16 };

/* A collective of a loop's body: its verb and its line. */
typedef struct body_coll {
  char verb[VERB];
  int line;
} body_coll_t;

/* A rank's file being read: its next collective, its verb and its line (0 at the end of the file, or when the file
 * could not be followed: `lost`); the loop being repeated, its body's collectives and the iterations left. */
typedef struct cursor {
  sim_ti_reader_t *in;
  char verb[VERB];
  int line;
  int number; /* lines read */
  int lost;   /* out of memory, or the file ended inside a loop's body: no verdict */
  body_coll_t *body;
  size_t nbody, cap, next;
  unsigned long long left; /* iterations of the body after the current one */
} cursor_t;

/* Whether `verb` names a collective (the TI actions of MPI's collectives). */
static int is_collective(const char *verb)
{
  static const char *const others[] = {"alltoallv",     "gatherv", "scatterv", "allgatherv",
                                       "reducescatter", "scan",    "exscan",   NULL};
  for (int k = 0; k < SIM_COLL_KINDS; k++)
    if (strcmp(verb, sim_coll_kind_names[k]) == 0)
      return 1;
  for (size_t i = 0; others[i]; i++)
    if (strcmp(verb, others[i]) == 0)
      return 1;
  return 0;
}

/* The collective named by line `text` of a TI trace, its verb into `verb` (VERB bytes), or 0. */
static int collective_in(const char *text, char *verb)
{
  char rank[32], word[32];
  if (sscanf(text, "%31s %31s", rank, word) != 2 || !is_collective(word))
    return 0;
  snprintf(verb, VERB, "%.15s", word); /* a collective's name is shorter */
  return 1;
}

/* Reads the body of the loop of `count` iterations of `lines` lines that `c` just read: its collectives, repeated
 * from now on. */
static void read_body(cursor_t *c, unsigned long long count, long lines)
{
  char *text;
  size_t len;
  c->nbody = c->next = 0;
  for (long i = 0; i < lines && !c->lost; i++) {
    if (sim_ti_reader_next(c->in, &text, &len) != 0) {
      c->lost = 1;
      break;
    }
    c->number++;
    char verb[VERB];
    if (!collective_in(text, verb))
      continue;
    if (bas_reserve((void **)&c->body, &c->cap, c->nbody, sizeof *c->body, 16) != 0)
      c->lost = 1;
    else {
      c->body[c->nbody] = (body_coll_t){.line = c->number};
      memcpy(c->body[c->nbody++].verb, verb, VERB);
    }
  }
  c->left = c->nbody > 0 && count > 0 ? count - 1 : 0;
}

/* Moves `c` to its rank's next collective, loops unfolded; c->line 0 at the end (or on a read error). */
static void next_collective(cursor_t *c)
{
  char *text;
  size_t len;
  c->line = 0;
  while (!c->lost) {
    if (c->next == c->nbody && c->left > 0) {
      c->left--;
      c->next = 0;
    }
    if (c->next < c->nbody) {
      memcpy(c->verb, c->body[c->next].verb, VERB);
      c->line = c->body[c->next++].line;
      return;
    }
    if (sim_ti_reader_next(c->in, &text, &len) != 0)
      return;
    c->number++;
    unsigned long long count;
    long lines;
    char rank[32], word[32];
    if (sscanf(text, "%31s %31s %llu %ld", rank, word, &count, &lines) == 4 && strcmp(word, "loop") == 0)
      read_body(c, count, lines);
    else if (collective_in(text, c->verb)) {
      c->line = c->number;
      return;
    }
  }
}

/* Rank r's k-th collective differs from rank 0's (either may be missing): the message. */
static void mismatch(const char *const *paths, int r, const cursor_t *c0, const cursor_t *cr, size_t k, char *err,
                     size_t errlen)
{
  const char *rule = "every rank must call the same collectives in the same order; fix the trace";
  if (!cr->line)
    snprintf(err, errlen,
             "%s:%d: rank 0's collective #%zu, %s, has no match on rank %d, whose %s has %zu "
             "collective%s; %s",
             paths[0], c0->line, k, c0->verb, r, paths[r], k - 1, k == 2 ? "" : "s", rule);
  else if (!c0->line)
    snprintf(err, errlen,
             "%s:%d: rank %d's collective #%zu, %s, has no match on rank 0, whose %s has %zu "
             "collective%s; %s",
             paths[r], cr->line, r, k, cr->verb, paths[0], k - 1, k == 2 ? "" : "s", rule);
  else
    snprintf(err, errlen,
             "%s:%d: mismatched collectives: rank %d calls %s where rank 0 calls %s (%s:%d), as "
             "collective #%zu of each; %s",
             paths[r], cr->line, r, cr->verb, c0->verb, paths[0], c0->line, k, rule);
}

/* Compares rank r's file with rank 0's; 1 with the message at the first difference. */
static int compare(const char *const *paths, int r, char *err, size_t errlen)
{
  cursor_t c0 = {0}, cr = {0};
  char unused[256];
  int found = 0;
  if (sim_ti_reader_open(paths[0], MAX_FIELDS, &c0.in, unused, sizeof unused) == 0 &&
      sim_ti_reader_open(paths[r], MAX_FIELDS, &cr.in, unused, sizeof unused) == 0)
    for (size_t k = 1; !found; k++) {
      next_collective(&c0);
      next_collective(&cr);
      if ((!c0.line && !cr.line) || c0.lost || cr.lost)
        break;
      found = !c0.line || !cr.line || strcmp(c0.verb, cr.verb) != 0;
      if (found)
        mismatch(paths, r, &c0, &cr, k, err, errlen);
    }
  sim_ti_reader_close(c0.in);
  sim_ti_reader_close(cr.in);
  free(c0.body);
  free(cr.body);
  return found;
}

int sim_coll_match(const char *const *paths, int nranks, char *err, size_t errlen)
{
  for (int r = 1; r < nranks; r++)
    if (paths[r] && paths[0] && strcmp(paths[r], paths[0]) != 0 && compare(paths, r, err, errlen))
      return 1;
  return 0;
}
