/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The work cut by the caps of a rank's runs of polls, carried to the next runs that hold work (trc_carry.h). */
#include "trc_carry.h"

double trc_carry_work(trc_carry_t *c, double estimate, double cap, int holds)
{
  cap = cap > 0 ? cap : 0;
  if (estimate > cap) {
    c->cut += estimate - cap;
    return cap;
  }
  double room = cap - estimate;
  double taken = !holds ? 0 : c->cut < room ? c->cut : room;
  c->cut -= taken;
  return estimate + taken;
}

void trc_carry_drop(trc_carry_t *c)
{
  c->cut = 0;
}
