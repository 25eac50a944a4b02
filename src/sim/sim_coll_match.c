/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Mismatched collectives in a trace (sim_coll_match.h): each rank's collective actions, in order, against rank 0's.
 * The replay builds a collective from point-to-point messages, so without this a rank calling bcast where another
 * calls reduce was reported as a lost eager send. */
#include "sim_coll_match.h"
#include "sim_coll.h"
#include "sim_ti.h"

#include <stdio.h>
#include <string.h>

enum { MAX_FIELDS = 64 };

/* A rank's file being read: its next collective, its verb and its line (0 at the end of the file). */
typedef struct cursor {
  sim_ti_reader_t *in;
  char verb[32];
  int line;
  int number; /* lines read */
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

/* Moves `c` to its file's next collective; c->line 0 at the end (or on a read error). */
static void next_collective(cursor_t *c)
{
  char *text;
  size_t len;
  c->line = 0;
  while (sim_ti_reader_next(c->in, &text, &len) == 0) {
    c->number++;
    char rank[32], verb[32];
    if (sscanf(text, "%31s %31s", rank, verb) == 2 && is_collective(verb)) {
      snprintf(c->verb, sizeof c->verb, "%s", verb);
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
      if (!c0.line && !cr.line)
        break;
      found = !c0.line || !cr.line || strcmp(c0.verb, cr.verb) != 0;
      if (found)
        mismatch(paths, r, &c0, &cr, k, err, errlen);
    }
  sim_ti_reader_close(c0.in);
  sim_ti_reader_close(cr.in);
  return found;
}

int sim_coll_match(const char *const *paths, int nranks, char *err, size_t errlen)
{
  for (int r = 1; r < nranks; r++)
    if (paths[r] && paths[0] && strcmp(paths[r], paths[0]) != 0 && compare(paths, r, err, errlen))
      return 1;
  return 0;
}
