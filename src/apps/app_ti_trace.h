/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to the ti-replay skeleton (app_ti*.c): the trace reader. One rank's replay state, the checks of a line's
 * fields, the splitting of a line into fields and the report of a bad line. Nothing outside src/apps/app_ti*.c includes
 * it; the skeleton is app_ti.h. */
#ifndef APP_TI_TRACE_H
#define APP_TI_TRACE_H

#include "sim_replay.h"

#include <stddef.h>

/* Upper bounds that keep every figure meaningful: a larger one is a corrupt trace, not a program. */
#define APP_TI_MAX_BYTES   1e18 /* one message or collective piece (an exabyte), well below LONG_MAX */
#define APP_TI_MAX_FLOPS   1e21 /* one computation: 11 days at a petaflop/s */
#define APP_TI_MAX_SECONDS 1e9  /* one sleep: 31 years */
#define APP_TI_MAX_FAULTS  1e15 /* one call's page faults: 4 EiB of 4 KiB pages */
#define APP_TI_MAX_COUNT   9e18 /* one run of polls' count: below 2^63, so that it converts to a long long */

/* One rank's replay: its trace, the line being replayed split into fields, its pending requests. The rank's program
 * (app_ti.c) owns the arrays field and counts; the actions (app_ti_actions.c) grow reqs, which the program frees. */
typedef struct app_ti_rank {
  sim_rank_t *rank;
  const int *alg;       /* the algorithm of each collective kind (SIM_COLL_KINDS), borrowed */
  int ompi_collectives; /* or, per call, the one Open MPI 4.1 would run (collectives = openmpi: sim_coll_ompi.h) */
  int *test_sleeps;     /* SMPI's test multiplier, shared by the ranks of the run */
  int me;
  int n;
  int type_size; /* of the trace's default datatype: MPI_BYTE, or MPI_DOUBLE after "init" with an argument */
  char **field;
  int nfields;
  int max_fields;
  struct app_ti_req *reqs; /* app_ti_actions.c's */
  int nreqs;
  int cap_reqs;
  sim_group_t *comms; /* simrun's comm_def actions: comms[id - 1], members owned (app_ti_comms_free) */
  int ncomms;
  const sim_group_t *group; /* the communicator of the collective being replayed: NULL for the world */
  double *counts;           /* n per-member sizes, twice */
  double *counts2;
  struct app_ti_source *sources; /* the sources whose tags the rank matches (app_ti_match.c's), by rank */
  int nsources;
  int finalized;         /* it replayed a "finalize": the traced rank reached MPI_Finalize */
  unsigned kinds_called; /* the collective actions the rank replayed, a bit each (sim_first_call) */
  char why[256];         /* what is wrong with the current line */
} app_ti_rank_t;

/* simrun's "loop COUNT LINES" (docs/ti-replay.md): the rank's next LINES lines, kept to be replayed COUNT times. Its
 * memory grows with LINES, never with COUNT. */
#define APP_TI_MAX_LOOP_LINES 65536
#define APP_TI_MAX_LOOP_COUNT 4294967296.0 /* 2^32 iterations */
typedef struct app_ti_body {
  long long count; /* iterations */
  int want;        /* lines still to read: 0 once whole */
  int nlines;
  int number; /* the loop line's number in the file */
  char *text; /* the lines, each followed by its NUL */
  size_t len;
  size_t cap;
  size_t *at;   /* where each line starts in text */
  int *numbers; /* each line's number in the file */
  size_t longest;
} app_ti_body_t;

/* Starts `body` from the split line "R loop COUNT LINES" (line `number`): 0, or BAS_EDATA with the reason in tr->why.
 */
int app_ti_body_start(app_ti_rank_t *tr, app_ti_body_t *body, int number);
/* Adds line `number`'s `len` characters to the body: 0, or BAS_ENOMEM when out of memory. */
int app_ti_body_add(app_ti_body_t *body, const char *text, size_t len, int number);
/* Frees what the body holds and empties it. */
void app_ti_body_free(app_ti_body_t *body);

/* Whether `text` (a whole field) is written in decimal: digits, sign, point and exponent only (strtod would take
 * hexadecimal, inf and nan too). */
int app_ti_decimal(const char *text);

/* The checks of a line's fields (field i counts from 0: the rank, the action, then its fields): each returns 0 with the
 * value, or BAS_EDATA with the reason in tr->why, as app_ti_fail does. */
int app_ti_fail(app_ti_rank_t *tr, const char *format, ...) __attribute__((format(printf, 2, 3)));
int app_ti_number(app_ti_rank_t *tr, int i, const char *what, double low, double high, double *value);
int app_ti_whole(app_ti_rank_t *tr, int i, const char *what, double low, double high, long long *value);
int app_ti_peer(app_ti_rank_t *tr, int i, int *value);
int app_ti_type_size(app_ti_rank_t *tr, int i, int *size);
int app_ti_amount(app_ti_rank_t *tr, int i, int size, double *bytes);
int app_ti_amounts(app_ti_rank_t *tr, int first, int size, double *out);
int app_ti_min_fields(app_ti_rank_t *tr, int count);

/* Splits `text` on blanks in place into tr->field; -1 when it has more than max_fields fields. */
int app_ti_split(app_ti_rank_t *tr, char *text);
/* Where the fields of a line of `action` start, after its rank, its action and blanks; NULL for a line of another
 * action. Scanned by hand: sscanf made the T_seq sum, read before every replay, about half of the parent process's
 * instructions. */
const char *app_ti_after_action(const char *text, const char *action);
/* Undoes app_ti_split on the line's `len` characters, without trailing blanks: the text for a message. */
void app_ti_unsplit(char *text, size_t len);
/* Fails the rank with the current line's problem as "FILE:LINE: 'text': why; how to fix"; with text NULL, as a file
 * that is not a TI trace, quoting nothing of it. */
void app_ti_report(app_ti_rank_t *tr, const char *path, int number, const char *text);

#endif
