/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal to libsimrun-trace.so: folding of repeated call sequences (trc_fold.c). The recorder hands over one record
 * per traced call (the computation before it, the call, its TI actions); when a rank repeats the same sequence of
 * calls (same calls, partners, sizes, tags, communicators and TI actions) FOLD_ITERATIONS times or more, the repeats
 * become one loop, with the count, the first and last time and the sums of each slot's durations and work, instead of
 * one record per call. The formats are docs/tracer.md's and docs/ti-replay.md's. */
#ifndef TRC_FOLD_H
#define TRC_FOLD_H

/* The partner of a record that is no rank: none or any source, or MPI_PROC_NULL (an operation that never pairs;
 * docs/tracer.md), whatever numbers the MPI library gives them. */
enum { TRC_PEER_NONE = -1, TRC_PEER_NULL = -2 };

enum { TRC_REC_TI = 240 }; /* room for a call's TI actions; a call with more is written at once, not folded */

/* One traced call: the computation before it and the call (or a run of unsuccessful polls). */
typedef struct trc_rec {
  double c_start; /* the computation before the call, wall seconds; c_end == c_start: none */
  double c_end;
  double flops; /* its work, for the TI trace (0 when the TI trace is written at once) */
  int has_call; /* 0: a computation alone (before a phase change), never folded */
  int poll;     /* the call is a run of `count` unsuccessful polls */
  double start; /* the call's entry and exit */
  double end;
  const char *category; /* string literals: compared by address */
  const char *name;
  long count;
  int peer; /* a world rank, TRC_PEER_NONE or TRC_PEER_NULL */
  double bytes;
  int env; /* tag and comm are given (a message) */
  int tag;
  int comm;
  long long req;             /* the age of the request it completed (trc_envelope_request), or -1 */
  unsigned long long others; /* the other requests it completed (trc_envelope_others): bit i, age req + 1 + i */
  int sr;                    /* a send-receive (trc_envelope_recv): its receive half follows */
  int continues;             /* a later line of the call before it (trc_call_more): no loop's body starts with it */
  int rsrc; /* the receive half's source as received (or TRC_PEER_NULL, TRC_PEER_NONE), its tag and bytes */
  int rtag;
  double rbytes;
  long faults; /* the minor page faults the call took (0: none, or not read), like flops not compared in folding */
  double poll_flops; /* a run of polls: its processor time (the polls and the work between them) at the flop rate */
  int ti_len;        /* bytes of TI actions in ti, each a whole line "RANK ACTION FIELDS\n"; -1: written at once */
  char ti[TRC_REC_TI];
  unsigned long long key; /* trc_fold's */
} trc_rec_t;

/* One position of a loop's body: its first iteration's record and its sums over the iterations. */
typedef struct trc_slot {
  trc_rec_t rec;
  double compute;  /* wall seconds of computation before the call */
  double duration; /* wall seconds of the call */
  double flops;
  double polls;      /* unsuccessful polls, for a run of polls */
  double poll_flops; /* their processor time at the flop rate */
  double faults;     /* page faults of the calls */
} trc_slot_t;

/* `count` iterations of `nslots` calls, from the first iteration's first computation (or call) at `first` to the last
 * iteration's last exit at `last`. */
typedef struct trc_loop {
  long count;
  int nslots;
  double first;
  double last;
  const trc_slot_t *slots;
} trc_loop_t;

/* Where records go: one at a time, or as a loop (pointers valid during the call only). */
typedef struct trc_fold_out {
  void (*plain)(const trc_rec_t *rec);
  void (*loop)(const trc_loop_t *loop);
} trc_fold_out_t;

typedef struct trc_fold trc_fold_t;

/* A folder writing to `out`; NULL when out of memory. */
trc_fold_t *trc_fold_new(trc_fold_out_t out);
void trc_fold_free(trc_fold_t *f); /* accepts NULL; writes nothing */

/* Takes the next record (copied; its key is set). Records are written, in order, once they cannot start or continue
 * a loop: with a delay of up to some hundreds of records. */
void trc_fold_push(trc_fold_t *f, trc_rec_t *rec);

/* Writes out every record and loop held (a phase change, MPI_Finalize, MPI_Abort). */
void trc_fold_drain(trc_fold_t *f);

#endif
