/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The ping-ring: a token of `bytes` goes round the ranks, rank 0 to 1 to ... to p - 1 and back to 0, `laps` times,
 * one message in flight at a time. A run of p * laps messages whose per-rank work does not grow with p: the skeleton
 * of bench/scale.sh's largest runs (docs/scale.md). */
#ifndef APP_RING_H
#define APP_RING_H

#include "app_skeleton.h"

extern const app_skeleton_t app_ring_skeleton;

#endif
