/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Least-squares fit (relative error, non-negative terms) of Zemerly et al.'s piecewise message time (seed 001 eq. 4,
 * Table 2) to measured ping-pong times: T(l, d) = alpha + beta l + gamma d + delta l d, one set of coefficients up to
 * the packet size and one above, as the paper fitted its Table 2. Pure functions: no SimGrid, no files. */
#ifndef MET_MSGFIT_H
#define MET_MSGFIT_H

#include "met_model.h"

#include <stddef.h>

/* One measurement: `bytes` over `hops` links took `us` microseconds. */
typedef struct met_msg_sample {
  double bytes;
  double hops;
  double us;
} met_msg_sample_t;

/* The fit and how well it does. */
typedef struct met_msgfit {
  met_piecewise_t model; /* coefficients in us, as Table 2 and the simrun:comm-* properties give them, all >= 0 */
  size_t n_small;        /* samples with bytes <= packet_bytes */
  size_t n_large;        /* the others */
  double rms_us;         /* root mean square of the residuals (measured - fitted), over all samples */
  double max_abs_us;     /* the largest |residual| */
  double rms_rel[2];     /* per regime (0: up to the packet size, 1: above), rms of the residuals / measured */
  double max_rel[2];     /* per regime, the largest |residual| / measured */
  double cv_rel;         /* cross-validated rms relative error at the chosen packet size (one size and distance
                          * left out at a time) */
  int distance_terms;    /* 1 when the samples span several distances, so gamma and delta were fitted; else 0 */
  int one_regime;        /* no sample above the packet size: one set of coefficients (large repeats small) */
} met_msgfit_t;

/* Fits the samples (times > 0) minimising the squares of the relative residuals, every coefficient >= 0, with the
 * split at `packet_bytes`, or, when packet_bytes < 0, at the sample size with the smallest cross-validated error (one
 * size and distance left out at a time; the largest size: one regime). Each regime needs one (size, distance) more
 * than its terms (2, or 4 when the samples span several distances), two sizes and, with distance terms, two distances;
 * terms a regime cannot determine or that would be negative are 0. The samples are summed per size and distance
 * first: the cost grows with them once, then with the groups. Returns 0, or BAS_EDATA with the reason in err: too few
 * per regime, a regime's rms relative residual above 20% (a fit that cannot be trusted), or out of memory. */
int met_msgfit(const met_msg_sample_t *samples, size_t count, double packet_bytes, met_msgfit_t *fit, char *err,
               size_t errlen);

#endif
