/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Counts of the message ends in a queue by envelope (communicator, tag, source), so that the timeline matching
 * (met_timeline_match.c) tells at once that a queue holds no end a message could pair with, rather than scanning it:
 * ends that never pair, each with a tag of its own, made the matching quadratic in their number (met_tally.c). */
#ifndef MET_TALLY_H
#define MET_TALLY_H

#include <stddef.h>

typedef struct met_tally_slot met_tally_slot_t;

/* An empty tally is all zero ({0}); met_tally_free makes it so again. */
typedef struct met_tally {
  met_tally_slot_t *slots; /* open addressing, `cap` a power of two, NULL until the first end */
  size_t cap;
  size_t keys; /* slots holding an envelope, its count perhaps down to 0 */
  size_t wild; /* ends whose tag or source is a wildcard (< 0), which many envelopes match */
} met_tally_t;

/* Counts one more end of this envelope (a tag or source < 0 is a wildcard). 0, or BAS_ENOMEM out of memory (the tally
 * is then left as it was). */
int met_tally_add(met_tally_t *t, int comm, int tag, int source);
/* Counts one fewer (an end of this envelope must have been added). */
void met_tally_remove(met_tally_t *t, int comm, int tag, int source);
/* Whether the queue may hold an end that a message of this envelope (tag and source >= 0) pairs with: one of its own
 * envelope, or a wildcard; 0 means surely none. */
int met_tally_may_hold(const met_tally_t *t, int comm, int tag, int source);
void met_tally_free(met_tally_t *t);

#endif
