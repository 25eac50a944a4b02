/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Times as an analyst reads them in the terminal (issue 45 item 4): one unit per column (s, ms, us, ns) chosen from
 * the column's values, with at least 3 significant digits, and rounding noise cleaned to 0. CSV and JSON keep SI
 * seconds at full precision and never come here. */
#ifndef REP_UNITS_H
#define REP_UNITS_H

#include <stddef.h>

/* The noise floor: a value whose magnitude is below this fraction of its column's largest is printed as 0 (sums and
 * differences of doubles leave residues near 1e-16 of their operands where the quantity is zero by construction). */
#define REP_NOISE_FLOOR 1e-9

/* A column's unit: its name ("s", "ms", "us", "ns"), the factor from seconds, the decimals its values print with, and
 * the column's largest magnitude in seconds (the scale the noise floor is relative to). */
typedef struct rep_unit {
  const char *name;
  double factor;
  int decimals;
  double scale;
} rep_unit_t;

/* The unit for `count` times in seconds (NAN and infinities ignored): the largest unit in which the largest magnitude
 * is at least 1 (ns below 1 us), and enough decimals (at most 6) for the smallest magnitude above the noise floor to
 * show 3 significant digits. Seconds with 3 decimals when every value is 0. */
rep_unit_t rep_unit_pick(const double *seconds, size_t count);
/* `seconds` in `unit` into buf: "-" for NAN, "inf", "0" below the noise floor, else the scaled value. */
void rep_unit_format(char *buf, size_t len, double seconds, const rep_unit_t *unit);
/* The same with a one-value column's unit: "12.3 ms". */
void rep_unit_seconds(char *buf, size_t len, double seconds);

#endif
