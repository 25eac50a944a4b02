/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The message-time table's declaration (rep_messages.h): each column once, with where its figure comes from
 * (met_msg_stat_t, met_comm.h). docs/results.md's -messages row must name every CSV column (tests/test_rep_schema.c).
 */
#include "rep_messages.h"
#include "stu_messages.h"

#include <stdlib.h>

static const met_msg_stat_t *stat(const rep_at_t *at)
{
  return at->item;
}

static rep_cell_t bytes(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(stat(at)->bytes);
}

static rep_cell_t hops(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num(stat(at)->hops);
}

static rep_cell_t count(const rep_at_t *at, int i)
{
  (void)i;
  return rep_cell_num((double)stat(at)->count);
}

/* The transfers' (wait 0) or the waits' (wait 1) mean (which 0), least (1) or most (2). */
static rep_cell_t seconds(const rep_at_t *at, int wait, int which)
{
  const met_msg_stat_t *m = stat(at);
  const double figures[2][3] = {{m->mean, m->min, m->max}, {m->wait_mean, m->wait_min, m->wait_max}};
  return rep_cell_num(figures[wait][which]);
}

static rep_cell_t mean(const rep_at_t *at, int i)
{
  (void)i;
  return seconds(at, 0, 0);
}

static rep_cell_t least(const rep_at_t *at, int i)
{
  (void)i;
  return seconds(at, 0, 1);
}

static rep_cell_t most(const rep_at_t *at, int i)
{
  (void)i;
  return seconds(at, 0, 2);
}

static rep_cell_t wait_mean(const rep_at_t *at, int i)
{
  (void)i;
  return seconds(at, 1, 0);
}

static rep_cell_t wait_least(const rep_at_t *at, int i)
{
  (void)i;
  return seconds(at, 1, 1);
}

static rep_cell_t wait_most(const rep_at_t *at, int i)
{
  (void)i;
  return seconds(at, 1, 2);
}

enum { ALL = REP_IN_ALL };

/* csv, json, head, unit, meaning, format, key, in, each, label, has, get */
static const rep_column_t columns[] = {
    {"bytes", "bytes", "bytes", "", "the messages' size", REP_FMT_INT, 1, ALL, 0, NULL, NULL, bytes},
    {"hops", "hops", "hops", "", "links on their route", REP_FMT_INT, 1, ALL, 0, NULL, NULL, hops},
    {"count", "count", "count", "", "messages of this size over this distance", REP_FMT_INT, 0, ALL, 0, NULL, NULL,
     count},
    {"mean_s", "mean_s", "transfer mean", "s", "a message's transfer, from its send's start to its receive's end: mean",
     REP_FMT_TIME, 0, ALL, 0, NULL, NULL, mean},
    {"min_s", "min_s", "transfer min", "s", "the least transfer", REP_FMT_TIME, 0, ALL, 0, NULL, NULL, least},
    {"max_s", "max_s", "transfer max", "s", "the longest transfer", REP_FMT_TIME, 0, ALL, 0, NULL, NULL, most},
    {"wait_mean_s", "wait_mean_s", "wait mean", "s",
     "the receiver's wait in the call that completed the message (its receive or wait): mean", REP_FMT_TIME, 0, ALL, 0,
     NULL, NULL, wait_mean},
    {"wait_min_s", "wait_min_s", "wait min", "s", "the least wait", REP_FMT_TIME, 0, ALL, 0, NULL, NULL, wait_least},
    {"wait_max_s", "wait_max_s", "wait max", "s", "the longest wait", REP_FMT_TIME, 0, ALL, 0, NULL, NULL, wait_most},
};

const rep_schema_t rep_messages_schema = {"messages", columns, sizeof columns / sizeof columns[0], NULL};

rep_at_t *rep_messages_rows(const stu_study_t *study, const stu_point_t *only, size_t *count)
{
  size_t n = 0, groups;
  for (size_t i = 0; i < study->npoints; i++)
    if (!only || only == &study->points[i]) {
      stu_msgs(&study->points[i], &groups);
      n += groups;
    }
  rep_at_t *rows = n ? malloc(n * sizeof *rows) : NULL;
  *count = rows ? n : 0;
  n = 0;
  for (size_t i = 0; rows && i < study->npoints; i++) {
    const met_msg_stat_t *msgs = stu_msgs(&study->points[i], &groups);
    for (size_t g = 0; (!only || only == &study->points[i]) && g < groups; g++)
      rows[n++] = (rep_at_t){study, &study->points[i], -1, &msgs[g]};
  }
  return rows;
}
