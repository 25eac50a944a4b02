/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The replay view of a measured run (simrun analyse --replay-on, docs/ti-replay.md): per run, the T_par its TI trace
 * predicts when replayed on a platform, beside the measured time it is compared with (the untraced run's span from
 * MPI_Init to MPI_Finalize where --untraced gives it, else the traced run's T_par, or the range of CPU times of a
 * disturbed run), given to the study by the command line once the replays ran, with how far to trust the measurement
 * (whether others disturbed the run) and where the replay placed its ranks, so that the CSV, JSON and HTML page hold
 * them. Its row of the views table is stu_replay_view (stu_view.h): every study's, it analyses nothing, and a point
 * has it only once set. */
#ifndef STU_REPLAY_H
#define STU_REPLAY_H

#include "stu_study.h"

typedef struct stu_replay {
  double predicted;  /* the replay's T_par, s */
  double measured;   /* the measured time compared with, s (with on_cpu, the most of a range) */
  int untraced;      /* 1: measured is the untraced run's span (--untraced); 0: the traced run's T_par or CPU time */
  int on_cpu;        /* 1: the traced run was disturbed, measured is its busiest core's CPU time (docs/analyse.md) */
  double least;      /* the least of the range the measurement gives a quiet run, s: measured where it gives one time */
  double lost_share; /* the share of their wall time the run's ranks lost to others, or NAN when not recorded */
  int disturbed;     /* 1: they lost enough of it to be compared on CPU time (docs/analyse.md, "disturbed") */
  char disturbance[2048];   /* the report's "Disturbed:" line on the run, without its label, or "" */
  double predicted_least;   /* where the replay put ranks on one core: the least and the most a quiet run's T_par */
  double predicted_most;    /* may be by the CPU time they spent polling and in MPI calls (docs/analyse.md), else NAN */
  char placement[2048];     /* the report's "Placement:" line on the run's replay, without its label, or "" */
  double blocked;           /* the seconds the run's ranks' computations were blocked, which the replay leaves out (the
                             * TI amounts are CPU time: docs/analyse.md), or NAN when not recorded */
  char blocking[1024];      /* the report's "Blocked:" line on the run, without its label, or "" */
  char same_host[1100];     /* the report's "Same host:" line: messages between ranks on one host the replay priced
                             * over the host's links (a <cluster> without loopback_bw), without its label, or "" */
  double compute_cpu;       /* the CPU seconds of the run's computations, which its TI amounts hold, or NAN */
  double compute_replayed;  /* the seconds the replay's platform takes for them (its T_seq), or NAN */
  char speed[1024];         /* the report's "Speed:" line when the two differ, without its label, or "" */
  char untraced_note[1024]; /* the report's "Untraced:" line when the untraced time given is far longer than the
                             * traced run's T_par (a wall time that holds the start-up, it seems), or "" */
} stu_replay_t;

/* A line given under the replay's table (simrun analyse) and under the HTML page's points: its label and where its
 * text is in stu_replay_t (one of its char arrays, "" for a run the line says nothing of). */
typedef struct stu_replay_line {
  const char *label;
  size_t offset;
} stu_replay_line_t;

/* The replay's lines, in the order they are given: Untraced, Disturbed, Blocked, Placement, Same host, Speed. */
enum { STU_REPLAY_LINES = 6 };
extern const stu_replay_line_t stu_replay_lines[STU_REPLAY_LINES];

/* The text `replay` has for `line` ("" for none). Borrowed from the replay. */
const char *stu_replay_text(const stu_replay_t *replay, const stu_replay_line_t *line);

/* How far the prediction is from the measurement, relative: (predicted - measured) / measured above the range,
 * (predicted - least) / least below it, 0 within it; NAN when a time is NAN. */
double stu_replay_diff(const stu_replay_t *replay);

/* The point's replay, or NULL when it has none. Borrowed from the point. */
const stu_replay_t *stu_replay(const stu_point_t *point);

/* Gives the point its replay (copied). 0, or SIM_ENOMEM. */
int stu_replay_set(stu_point_t *point, const stu_replay_t *replay);

/* Whether the study's points have a replay (the first point has one). */
int stu_has_replay(const stu_study_t *study);

#endif
