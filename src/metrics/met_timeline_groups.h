/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to met_timeline: the communicators whose collectives a measured run's timelines pair, and each one's
 * collective calls in progress. Group 0 is MPI_COMM_WORLD (every rank); the others are the sub-communicators the
 * files define ("# comm KEY MEMBERS", docs/tracer.md), numbered from 1 in the order they were defined. A member's
 * k-th collective on a group is that group's instance k: its calls are counted there until every member made it, and
 * forgotten once every member is past it. */
#ifndef MET_TIMELINE_GROUPS_H
#define MET_TIMELINE_GROUPS_H

#include <stddef.h>

/* A collective call of every member of a group, by its number among each member's calls on that group. */
typedef struct met_tl_instance {
  char call[64];
  int root;          /* a rooted collective's root (world rank) as its first member's call gives it */
  int count;         /* the members whose call was read */
  double last_entry; /* the last entry as the rules see it */
  double last_raw;   /* the same as read */
  double root_at;    /* a rooted collective's: its root's entry (NAN until read), as the rules see it and as read */
  double root_raw;   /* */
  double leaf_at;    /* and the earliest entry of another member (NAN until read) */
  double leaf_raw;   /* */
  int early;         /* its lowest member's call went into the trace before every member's was read (it waits for no
                      * one): counted among the collectives paired once they are */
} met_tl_instance_t;

typedef struct met_tl_groups met_tl_groups_t;

/* Group 0 of `nranks` ranks and no other; NULL when out of memory. */
met_tl_groups_t *met_tl_groups_new(int nranks);
void met_tl_groups_free(met_tl_groups_t *g); /* accepts NULL */

/* Defines the communicator the tracer numbered `key` (> 0) with the `n` world ranks `members` (each in [0, nranks),
 * no two alike), as the file of rank `rank`, one of them, gives it, once for every member's definition of the same
 * members; `in_order`: the file gives them in the communicator's order (else, an older tracer's, sorted: the order is
 * not known). NULL, or what is wrong (the members; a member is not `rank`); a key two files define with different
 * members or orders (two communicators whose keys collide) makes neither group's collectives paired; beyond 2^20
 * communicators, or 2^22 members of them all, none is defined (their collectives stay as the files give them). *oom is
 * set when memory ran out. */
const char *met_tl_groups_define(met_tl_groups_t *g, int rank, int key, const int *members, int n, int in_order,
                                 int *oom);

/* The group of communicator `key` (0: the world's) when `rank` is one of its members, else -1 (a key no file defined:
 * a tracer before "# comm" lines). */
int met_tl_groups_of(const met_tl_groups_t *g, int key, int rank);

/* How many members group `group` has, and their world ranks in increasing order. */
int met_tl_groups_size(const met_tl_groups_t *g, int group);
const int *met_tl_groups_members(const met_tl_groups_t *g, int group);
/* Whether group `group`'s communicator is known to order its members as the world does (the world's always; not one
 * whose definition gave them in another order, its own, nor one an older tracer's file defined): a prefix reduction's
 * members wait in that order. */
int met_tl_groups_ordered(const met_tl_groups_t *g, int group);

/* `rank`'s next collective on `group`: its number there into *k (its instance, met_tl_groups_instance), -1 when the
 * group's collectives are no longer paired (met_tl_groups_stop). 0, or BAS_ENOMEM. */
int met_tl_groups_join(met_tl_groups_t *g, int group, int rank, long *k);

/* Instance `k` of `group`, or NULL once forgotten (every member past it) or when the group's collectives are no longer
 * paired. */
met_tl_instance_t *met_tl_groups_instance(const met_tl_groups_t *g, int group, long k);

/* `rank` is past its next collective on `group` (its interval went into the trace); instances every member is past
 * are forgotten. */
void met_tl_groups_done(met_tl_groups_t *g, int group, int rank);

/* From now on `group`'s collectives are not paired (the members' calls differ: they are not the same collective);
 * whether any group's were stopped, or, once every member's calls went into the trace, left an instance that some
 * member never joined (a call that waits for no one went before the others': a run cut short, calls that differ). */
void met_tl_groups_stop(met_tl_groups_t *g, int group);
int met_tl_groups_any_stopped(const met_tl_groups_t *g);

#endif
