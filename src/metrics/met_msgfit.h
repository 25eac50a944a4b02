/* Least-squares fit of Zemerly et al.'s piecewise message time (seed 001 eq. 4, Table 2) to measured ping-pong times:
 * T(l, d) = alpha + beta l + gamma d + delta l d, one set of coefficients up to the packet size and one above, as the
 * paper fitted its Table 2. Pure functions: no SimGrid, no files. */
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
  met_piecewise_t model; /* coefficients in us, as Table 2 and the simrun:comm-* properties give them */
  size_t n_small;        /* samples with bytes <= packet_bytes */
  size_t n_large;        /* the others */
  double rms_us;         /* root mean square of the residuals (measured - fitted), over all samples */
  double max_abs_us;     /* the largest |residual| */
  int distance_terms;    /* 1 when the samples span several distances, so gamma and delta were fitted; else 0 */
} met_msgfit_t;

/* Fits the samples with the split at `packet_bytes`, or, when packet_bytes < 0, at the sample size that gives the
 * smallest sum of squared residuals (each regime needs at least 4 samples, or 2 without distance terms). Terms a
 * regime's samples cannot determine (one distance only: gamma and delta) are 0. Returns 0, or -1 with the reason in
 * err when the samples cannot determine a fit. */
int met_msgfit(const met_msg_sample_t *samples, size_t count, double packet_bytes, met_msgfit_t *fit, char *err,
               size_t errlen);

#endif
