/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Times scaled to their magnitude for the terminal report (rep_units.h): one unit per column, 3 significant digits at
 * least, rounding noise below a relative floor printed as 0. */
#include "rep_units.h"

#include <math.h>
#include <stdio.h>

static const struct {
  const char *name;
  double factor;
} units[] = {{"s", 1}, {"ms", 1e3}, {"us", 1e6}, {"ns", 1e9}};

rep_unit_t rep_unit_pick(const double *seconds, size_t count)
{
  double largest = 0;
  for (size_t i = 0; i < count; i++)
    if (isfinite(seconds[i]) && fabs(seconds[i]) > largest)
      largest = fabs(seconds[i]);
  rep_unit_t unit = {.name = "s", .factor = 1, .decimals = 3, .scale = largest};
  if (largest == 0)
    return unit;
  size_t u = 0;
  while (u + 1 < sizeof units / sizeof units[0] && largest * units[u].factor < 1)
    u++;
  unit.name = units[u].name;
  unit.factor = units[u].factor;
  double smallest = largest;
  for (size_t i = 0; i < count; i++)
    if (isfinite(seconds[i]) && fabs(seconds[i]) >= REP_NOISE_FLOOR * largest && fabs(seconds[i]) < smallest)
      smallest = fabs(seconds[i]);
  int digits = (int)floor(log10(smallest * unit.factor)) + 1; /* before the decimal point */
  unit.decimals = 3 - digits < 0 ? 0 : 3 - digits > 6 ? 6 : 3 - digits;
  return unit;
}

void rep_unit_format(char *buf, size_t len, double seconds, const rep_unit_t *unit)
{
  if (isnan(seconds))
    snprintf(buf, len, "-");
  else if (isinf(seconds))
    snprintf(buf, len, "%sinf", seconds < 0 ? "-" : "");
  else if (fabs(seconds) < REP_NOISE_FLOOR * unit->scale || seconds == 0)
    snprintf(buf, len, "0");
  else
    snprintf(buf, len, "%.*f", unit->decimals, seconds * unit->factor);
}

void rep_unit_seconds(char *buf, size_t len, double seconds)
{
  rep_unit_t unit = rep_unit_pick(&seconds, 1);
  char value[64];
  rep_unit_format(value, sizeof value, seconds, &unit);
  snprintf(buf, len, "%s %s", value, unit.name);
}
